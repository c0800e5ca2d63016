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

/// The key of a winning VSC, found by trying its carrier's cells: a cell `c` of the smallest
/// winning VSC carriers after which `to_move` holds a winning VC. A VSC is a VC once its key
/// is played (Anshelevich 2002 §3), and connections are sound, so the move keeps a won game
/// won; this is the fallback when the exact solver could not decide the carrier within its
/// budget.
///
/// The cells are tried most shared first (the number of `own`'s winning VSC carriers that
/// contain them: a key common to several threats, as the mustplay's cells are), first by an
/// incremental update of `own` itself (an undoable play of the cell and its undo: a fraction
/// of a build), then by full builds with `params` (every semi-connection kept, stopping at
/// the first winning VC). The whole search ends within `time` of wall time, each update and
/// build being capped by what is left of it (the engine checks its budget inside the build:
/// a build cut short only misses connections, it never claims one), and `own` is left as it
/// was (its position, connections and parameters).
pub fn vsc_key_move(
    position: &Position,
    to_move: Colour,
    own: &mut VcSet,
    params: &crate::vc::VcParams,
    time: Duration,
) -> Option<ProvenMove> {
    let start = std::time::Instant::now();
    let left = || time.saturating_sub(start.elapsed());
    let all = own.winning_vscs();
    let mut carriers = all.clone();
    carriers.sort_by_key(|c| c.len());
    carriers.truncate(4);
    let empty = position.empty_cells();
    let mut cells: Vec<Cell> = Vec::new();
    for carrier in &carriers {
        for c in (*carrier & empty).iter() {
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
    }
    // Most shared first; the sort is stable, so ties keep the smaller carriers' cells first.
    cells.sort_by_key(|&c| std::cmp::Reverse(all.iter().filter(|k| k.contains(c)).count()));
    let found = |c: Cell, after: &VcSet| {
        after
            .winning_vcs()
            .into_iter()
            .min_by_key(|v| v.len())
            .map(|v| {
                let mut proof_set = v & empty;
                proof_set.insert(c);
                ProvenMove {
                    cell: c,
                    proof_set,
                    kernel_checked: false,
                }
            })
    };
    // Incremental: own's position is `position` (the root set).
    if own.position() == position && !cells.is_empty() {
        let old_time = own.set_time_budget(None);
        let old_stop = own.set_stop_at_win(true);
        let mut hit = None;
        for &c in &cells {
            let t = left();
            if t.is_zero() {
                break;
            }
            own.set_time_budget(Some(t));
            if own.play_undoable(to_move, c).is_err() {
                continue;
            }
            hit = found(c, own);
            own.unplay();
            if hit.is_some() {
                break;
            }
        }
        own.set_time_budget(old_time);
        own.set_stop_at_win(old_stop);
        if hit.is_some() {
            return hit;
        }
    }
    let mut p = position.clone();
    let mut params = params.clone();
    params.stop_at_win = true;
    // The semi cap (`VcParams::semi_limit`) is for speed across the board; here a few builds
    // decide whether a move keeps a proven win, so take every semi-connection: a capped
    // list can lose the ingredient that turns the key move into a winning VC.
    params.semi_limit = None;
    for c in cells {
        let t = left();
        if t.is_zero() {
            return None;
        }
        params.budget.time = Some(t);
        p.play(to_move, c).expect("an empty cell");
        let after = VcSet::build(&p, to_move, params.clone());
        p.clear(c);
        if let Some(m) = found(c, &after) {
            return Some(m);
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
/// winning VC ([`vsc_key_move`], which leaves `own` as it found it). Each gets a quarter of
/// the move's `time`, capped by what the move has left ([`Deadline::within`]).
///
/// [`Deadline::within`]: super::clock::Deadline::within
pub fn root_proven_move(
    config: &super::Config,
    position: &Position,
    to_move: Colour,
    own: Option<&mut VcSet>,
    hint: Option<CellSet>,
    deadline: &super::clock::Deadline,
    time: Duration,
) -> Option<ProvenMove> {
    proven_move(
        position,
        to_move,
        own.as_deref(),
        hint,
        24,
        config.proof_nodes,
        deadline.within(time / 4),
        None,
    )
    .or_else(|| {
        let key_time = deadline.within(time / 4);
        let params = config.vc_params(key_time);
        vsc_key_move(position, to_move, own?, &params, key_time)
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

    /// Everything the key search must leave as it found it: position, undo stack, budget,
    /// stop-at-win switch and every stored connection.
    fn snapshot(v: &VcSet) -> (Position, usize, Option<Duration>, bool, Vec<String>) {
        let mut conns: Vec<String> = v.connections().iter().map(|c| format!("{c:?}")).collect();
        conns.sort();
        (
            v.position().clone(),
            v.undo_depth(),
            v.params().budget.time,
            v.params().stop_at_win,
            conns,
        )
    }

    #[test]
    fn the_key_search_finds_a_key_and_restores_the_root_set() {
        // Session 35's game 1 before White's j2 (11×11, White to move): White has a winning
        // VSC and, after its key, a winning VC (alphabeta.rs, game 1's collapse).
        let p = Position::from_moves(
            Board::square(11).unwrap(),
            "a2 b10 e8 e10 d10 d9 e9 e7 f7 g5 f6 f5 e6 e5 h5 h4 i4 i3 j3",
            Notation::Letters,
        )
        .unwrap();
        // With the library's seeds, as the GTP engine has them (it warms them at start-up).
        crate::templates::seeds::library_seeds();
        let config = crate::player::Config::default();
        let mut params = config.vc_params(Duration::from_secs(20));
        params.stop_at_win = false;
        let mut own = VcSet::build(&p, Colour::White, params.clone());
        assert!(
            !own.winning_vscs().is_empty(),
            "{} winning VCs",
            own.winning_vcs().len()
        );
        let before = snapshot(&own);
        assert!(before.4.len() > 100, "{}", before.4.len());
        let key = |set: &mut VcSet, secs: u64| {
            vsc_key_move(&p, Colour::White, set, &params, Duration::from_secs(secs))
        };
        let m = key(&mut own, 20).expect("a key");
        assert_eq!(snapshot(&own), before, "the root set is not restored");
        assert!(!m.kernel_checked);
        assert!(m.proof_set.contains(m.cell));
        // Independent check: a fresh build after the key has a winning VC.
        let mut q = p.clone();
        q.play(Colour::White, m.cell).unwrap();
        let after = VcSet::build(&q, Colour::White, params.clone());
        assert!(!after.winning_vcs().is_empty(), "{:?}", m);
        // No time: no key, nothing changed.
        assert!(key(&mut own, 0).is_none());
        assert_eq!(snapshot(&own), before);
        // A set of another position is not updated (full builds only), and is untouched.
        let mut other = VcSet::build(&q, Colour::White, params.clone());
        let other_before = snapshot(&other);
        let _ = key(&mut other, 2);
        assert_eq!(snapshot(&other), other_before);
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
