//! Never miss a proven win: turn the side to move's winning connections into a move that the
//! exact solver proves and the kernel checks, and restrict the move choice to the mustplay
//! region when the opponent threatens (Pawlewicz et al. 2015 §II-B, Fig. 2).
//!
//! A winning VC or VSC found by the connection engine is sound but carries no strategy (VSC
//! keys are not stored). [`proven_move`] therefore hands each winning carrier, smallest
//! first, to [`crate::local::decide`] as the sub-game "side joins its borders inside this
//! carrier, moving first"; a `Holds` verdict is kernel-checked and its certificate's first
//! move is played. After the opponent replies inside the carrier the next call finds the
//! remaining strategy again (from the engine's connections, or from the remembered carrier).

use crate::board::{Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::local::{decide, Budget, StopFlag, Verdict};
use crate::position::Position;
use crate::vc::{mustplay, Mustplay, VcSet};
use std::time::Duration;

/// The most cells a carrier may have for the exact solver (its local sets are `u128`).
pub const MAX_LOCAL: usize = 128;

/// A proven first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenMove {
    /// The move.
    pub cell: Cell,
    /// The carrier of the winning strategy (the proof set, first move included).
    pub proof_set: CellSet,
    /// True when the exact solver's strategy was checked by the kernel; false when the proof
    /// is a winning VC of the connection engine after the move ([`vsc_key_move`]).
    pub kernel_checked: bool,
}

impl ProvenMove {
    /// A one-line description for logs.
    pub fn info(&self) -> &'static str {
        if self.kernel_checked {
            "proven win (kernel-checked strategy)"
        } else {
            "proven win (a winning VC after the move)"
        }
    }
}

/// The key of a winning VSC, found by trying its carrier's cells: the first empty cell `c`
/// of the smallest winning VSC carriers after which `to_move` holds a winning VC (built with
/// `params`). A VSC is a VC once its key is played (Anshelevich 2002 §3), and connections
/// are sound, so the move keeps a won game won; this is the fallback when the exact solver
/// could not decide the carrier within its budget. Stops when `deadline` expires.
pub fn vsc_key_move(
    position: &Position,
    to_move: Colour,
    own: &VcSet,
    params: &crate::vc::VcParams,
    deadline: &super::clock::Deadline,
) -> Option<ProvenMove> {
    let mut carriers = own.winning_vscs();
    carriers.sort_by_key(|c| c.len());
    carriers.truncate(4);
    let empty = position.empty_cells();
    let mut tried = CellSet::EMPTY;
    let mut p = position.clone();
    let mut params = params.clone();
    params.stop_at_win = true;
    // The semi cap (`VcParams::semi_limit`) is for speed across the board; here a few builds
    // decide whether a move keeps a proven win, so take every semi-connection: a capped
    // list can lose the ingredient that turns the key move into a winning VC.
    params.semi_limit = None;
    for carrier in carriers {
        for c in (carrier & empty).iter() {
            if tried.contains(c) {
                continue;
            }
            tried.insert(c);
            if deadline.expired() {
                return None;
            }
            p.play(to_move, c).expect("an empty cell");
            let after = VcSet::build(&p, to_move, params.clone());
            let win = after.winning_vcs().into_iter().min_by_key(|v| v.len());
            p.clear(c);
            if let Some(v) = win {
                let mut proof_set = v & empty;
                proof_set.insert(c);
                return Some(ProvenMove {
                    cell: c,
                    proof_set,
                    kernel_checked: false,
                });
            }
        }
    }
    None
}

/// Decides whether `to_move` wins inside `carrier` (restricted to empty cells) moving first,
/// and returns the kernel-checked first move.
pub fn prove_in(
    position: &Position,
    to_move: Colour,
    carrier: CellSet,
    budget: &Budget,
) -> Option<ProvenMove> {
    let carrier = carrier & position.empty_cells();
    if carrier.is_empty() || carrier.len() > MAX_LOCAL {
        return None;
    }
    let [b1, b2] = to_move.borders();
    let game = SubGame::new(
        position.clone(),
        carrier,
        Claim {
            owner: to_move,
            pairs: vec![(Cell::border(b1), Cell::border(b2))],
            owner_first: true,
        },
    )
    .ok()?;
    let out = decide(&game, budget).ok()?;
    if out.verdict != Verdict::Holds || out.verified.is_none() {
        return None;
    }
    let cell = out.certificate.as_ref()?.first?;
    Some(ProvenMove {
        cell,
        proof_set: out.proof_set,
        kernel_checked: true,
    })
}

/// The root's proven move for either player: a kernel-checked strategy's first move
/// ([`proven_move`]), or else a key of a winning semi-connection that leaves the mover a
/// winning VC ([`vsc_key_move`]). Each gets a quarter of the move's `time`.
pub fn root_proven_move(
    config: &super::Config,
    position: &Position,
    to_move: Colour,
    own: Option<&VcSet>,
    hint: Option<CellSet>,
    deadline: &super::clock::Deadline,
    time: Duration,
) -> Option<ProvenMove> {
    proven_move(
        position,
        to_move,
        own,
        hint,
        24,
        config.proof_nodes,
        deadline.wall_limit(time / 4),
        None,
    )
    .or_else(|| {
        let params = config.vc_params(deadline.wall_limit(time / 4));
        vsc_key_move(position, to_move, own?, &params, deadline)
    })
}

/// The proven move of `to_move`, if any: from its winning VSCs and VCs (`own`), then from a
/// remembered winning carrier (`remembered`), then from the whole board when at most
/// `endgame_cells` cells are empty. Each exact call gets `nodes` search nodes; all of them
/// together get `time` (each call has what is left of it). The search gives up as soon as
/// `stop` is set (checked at every node of the exact search, see [`Budget::stop`]).
#[allow(clippy::too_many_arguments)]
pub fn proven_move(
    position: &Position,
    to_move: Colour,
    own: Option<&VcSet>,
    remembered: Option<CellSet>,
    endgame_cells: usize,
    nodes: u64,
    time: Duration,
    stop: Option<StopFlag>,
) -> Option<ProvenMove> {
    let start = std::time::Instant::now();
    let mut cands: Vec<CellSet> = Vec::new();
    if let Some(v) = own {
        cands.extend(v.winning_vcs());
        cands.extend(v.winning_vscs());
        cands.sort_by_key(|c| c.len());
        cands.truncate(4);
    }
    if let Some(r) = remembered {
        cands.push(r);
    }
    let empty = position.empty_cells();
    if empty.len() <= endgame_cells {
        cands.push(empty);
    }
    let mut tried: Vec<CellSet> = Vec::new();
    for c in cands {
        let c = c & empty;
        if tried.contains(&c) {
            continue;
        }
        tried.push(c);
        let left = time.saturating_sub(start.elapsed());
        if left.is_zero() || stop.is_some_and(StopFlag::is_set) {
            break;
        }
        let budget = Budget {
            nodes,
            time: Some(left),
            max_entries: 2_000_000,
            stop,
        };
        if let Some(m) = prove_in(position, to_move, c, &budget) {
            return Some(m);
        }
    }
    None
}

/// What the opponent's connections allow: see [`Mustplay`]. With no connections
/// (`opponent = None`), unrestricted.
pub fn restriction(opponent: Option<&VcSet>) -> Mustplay {
    opponent.map_or(Mustplay::Unrestricted, mustplay)
}

/// The candidate moves of the side to move: the empty cells, cut down to the mustplay region
/// when that is not empty. When the opponent has a winning VC every move loses; its carrier
/// is returned so that the player can at least resist inside it.
pub fn candidates(position: &Position, opponent: Option<&VcSet>) -> (CellSet, bool) {
    let empty = position.empty_cells();
    match restriction(opponent) {
        Mustplay::Unrestricted => (empty, false),
        Mustplay::Restricted(m) => {
            let m = m & empty;
            (if m.is_empty() { empty } else { m }, false)
        }
        Mustplay::Lost { carrier } => {
            let c = carrier & empty;
            (if c.is_empty() { empty } else { c }, true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::vc::{Variant, VcParams};

    #[test]
    fn finds_the_bridge_completion() {
        // 5×5: Black c2 and c4 are bridged to their edges; White b3 and d3 leave c3 as the
        // only joint. Black to move wins (with c3, or another winning move).
        let p = Position::from_names(
            Board::square(5).unwrap(),
            "c2 c4",
            "b3 d3",
            Notation::Letters,
        )
        .unwrap();
        let own = VcSet::build(&p, Colour::Black, VcParams::new(Variant::Fast));
        let m = proven_move(
            &p,
            Colour::Black,
            Some(&own),
            None,
            0,
            20_000,
            Duration::from_secs(5),
            None,
        )
        .expect("a proven win");
        // Independent check: after the move Black holds a VC over the whole board.
        let mut q = p.clone();
        q.play(Colour::Black, m.cell).unwrap();
        let game = SubGame::new(
            q.clone(),
            q.empty_cells(),
            Claim {
                owner: Colour::Black,
                pairs: vec![(
                    Cell::border(crate::board::Border::Top),
                    Cell::border(crate::board::Border::Bottom),
                )],
                owner_first: false,
            },
        )
        .unwrap();
        let out = decide(&game, &Budget::default()).unwrap();
        assert_eq!(out.verdict, Verdict::Holds);
    }

    #[test]
    fn a_stop_flag_cuts_the_exact_search_short() {
        // The whole empty 8×8 board is far beyond a few seconds of exact search: with a
        // minute's budget, only the stop flag (set after 100 ms from another thread) ends it.
        let p = Position::from_names(Board::square(8).unwrap(), "", "", Notation::Letters).unwrap();
        let stop = std::sync::Arc::new(crate::local::Stop::new());
        let setter = std::sync::Arc::clone(&stop);
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            setter.set();
        });
        let start = std::time::Instant::now();
        let m = proven_move(
            &p,
            Colour::Black,
            None,
            None,
            usize::MAX,
            u64::MAX,
            Duration::from_secs(60),
            Some(stop.flag()),
        );
        t.join().unwrap();
        assert!(m.is_none());
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
    }
}
