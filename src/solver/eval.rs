//! Node evaluation: decide a position by virtual connections, or list the moves to try.
//!
//! Henderson, Arneson & Hayward 2009, §2 ("Virtual connections" and "Mustplay"): the player
//! to move wins if it has a winning VSC (or VC); it loses if the opponent has a winning VC;
//! otherwise every move outside the intersection of the opponent's winning VSC carriers
//! loses (the opponent keeps a VSC untouched and plays its key), so only that intersection,
//! the *mustplay*, is searched. The connections come from the VC engine ([`crate::vc`],
//! FastVC by default), whose rules are sound, so a decision here is never wrong; a build that
//! runs out of budget is still sound, only weaker.

use crate::board::{CellSet, Colour};
use crate::position::Position;
use crate::vc::{mustplay, Mustplay, VcParams, VcSet};

/// What the connections say about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// The player to move wins; the winning connection's carrier (empty for a won board).
    Win(CellSet),
    /// The player to move loses; the opponent's winning VC carrier (empty for a won board).
    Loss(CellSet),
    /// Undecided: the moves worth trying (the mustplay, or every empty cell).
    Open(CellSet),
}

/// Builds both colours' connections, reusing their storage between positions.
pub struct Evaluator {
    black: VcSet,
    white: VcSet,
    /// Use connections at all (win detection).
    pub use_vcs: bool,
    /// Restrict moves to the mustplay.
    pub use_mustplay: bool,
}

impl Evaluator {
    /// An evaluator with the given connection parameters.
    pub fn new(params: VcParams, use_vcs: bool, use_mustplay: bool) -> Evaluator {
        Evaluator {
            black: VcSet::new(Colour::Black, params.clone()),
            white: VcSet::new(Colour::White, params),
            use_vcs,
            use_mustplay,
        }
    }

    /// The connections of `colour` from the last [`Evaluator::evaluate`].
    pub fn vcs(&self, colour: Colour) -> &VcSet {
        match colour {
            Colour::Black => &self.black,
            Colour::White => &self.white,
        }
    }

    /// Evaluates `pos` with `to_move` to play.
    pub fn evaluate(&mut self, pos: &Position, to_move: Colour) -> Eval {
        if let Some(w) = pos.winner() {
            return if w == to_move {
                Eval::Win(CellSet::EMPTY)
            } else {
                Eval::Loss(CellSet::EMPTY)
            };
        }
        let empty = pos.empty_cells();
        if !self.use_vcs {
            return Eval::Open(empty);
        }
        self.black.rebuild(pos);
        self.white.rebuild(pos);
        let (me, opp) = match to_move {
            Colour::Black => (&self.black, &self.white),
            Colour::White => (&self.white, &self.black),
        };
        let smallest = |v: Vec<CellSet>| v.into_iter().min_by_key(|c| c.len());
        if let Some(c) = smallest(me.winning_vcs()) {
            return Eval::Win(c);
        }
        if let Some(c) = smallest(me.winning_vscs()) {
            return Eval::Win(c);
        }
        match mustplay(opp) {
            Mustplay::Lost { carrier } => Eval::Loss(carrier),
            Mustplay::Restricted(m) if self.use_mustplay => {
                if (m & empty).is_empty() {
                    // Every move leaves some opponent winning VSC untouched.
                    Eval::Loss(CellSet::EMPTY)
                } else {
                    Eval::Open(m & empty)
                }
            }
            _ => Eval::Open(empty),
        }
    }
}
