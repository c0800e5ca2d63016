//! Node evaluation: decide a position by virtual connections, or list the moves to try.
//!
//! Henderson, Arneson & Hayward 2009, §2 ("Virtual connections" and "Mustplay"): the player
//! to move wins if it has a winning VSC (or VC); it loses if the opponent has a winning VC;
//! otherwise every move outside the intersection of the opponent's winning VSC carriers
//! loses (the opponent keeps a VSC untouched and plays its key), so only that intersection,
//! the *mustplay*, is searched. The connections come from the VC engine ([`crate::vc`],
//! FastVC by default), whose rules are sound, so a decision here is never wrong; a build that
//! runs out of budget is still sound, only weaker.
//!
//! # Cost
//!
//! The two connection builds are nearly all of a node's cost. Both are built with
//! [`crate::vc::VcParams::stop_at_win`] (a build stops at its first winning VC), and the side
//! whose win has decided more nodes so far is built first: when it decides the node, the
//! other build is skipped. The order changes the cost, never the answer (a node decided by
//! one side's connections cannot be decided the other way: connections are sound).
//!
//! At most children the search skips the first test altogether and makes it only if the
//! node is expanded ([`Evaluator::evaluate_hint`], [`Evaluator::own_win`]; the argument is in
//! [`super::mid`], "Own wins of a child"): one build per node that is never expanded.
//!
//! With [`Evaluator::incremental`], each colour's engine follows the search path instead of
//! rebuilding: it undoes its saved states back to the nearest built ancestor of the node and
//! plays the missing stones ([`VcSet::play_undoable`], Anshelevich §6), or rebuilds without
//! losing the path ([`VcSet::rebuild_undoable`]) when more than
//! [`Evaluator::max_update_stones`] are missing. The update is as sound as a build. On 7×7 it
//! is no faster overall (BENCHMARKS.md, "Incremental connections along the search path"), so
//! it is off by default.

//!
//! # Circuits kept for ordering
//!
//! The search may order a node's moves by the circuits of its own connections
//! ([`Evaluator::connection_scores`], `--order connections`). A node is expanded long after
//! it was evaluated (its siblings are evaluated in between), so its engines hold other
//! positions by then, and re-building them cost up to two builds at every expansion (and a
//! node is expanded again at every return of the search into it). With
//! [`Evaluator::keep_circuits`], each colour's half of the circuit energies
//! ([`crate::eval::evaluate`] adds one term per colour, each from that colour's connections
//! only) is computed when an open position is evaluated, from the engine that is then at the
//! position, and kept; the expansion builds only a colour that was not built there (for most
//! nodes the mover's, which the win test at expansion builds anyway). Ordering only: the
//! answer never depends on it.
//!
//! With [`Evaluator::lazy_circuits`] (the default since session 26) the evaluation keeps only
//! the endpoint pairs of the colour's connections ([`VcSet::vc_pairs_overlap`], all the
//! circuit takes from them), and the circuit is built and solved from them when the
//! position is first expanded: a third of the evaluated positions are never expanded (six
//! hardest 7×7 openings: 56,290 positions, about 30,000 expanded), and their circuits were
//! solved for nothing. The circuit is the same, so the order and the tree are the same.
//!
//! # Energy or current
//!
//! A cell's score in one colour's circuit is either its share of the circuit's power (the
//! energy dissipated on its links, `--order connections`, the default until session 24) or
//! the share of the circuit's current that passes through it ([`Evaluator::circuit_flow`],
//! `--order flow`, the default): Benzene's resistance evaluation scores a cell by the current
//! through it in each colour's circuit (unit current, both colours summed), and its DFPN
//! orders the moves by that. Energy weights a cell by the square of the potential drop
//! across it, so it favours the cells where the circuit is thin (near a cut) over the cells
//! that carry the current; on 7×7 b4 f2 Black's winning move c5 is 14th by energy and 5th
//! by current (728 nodes → 17; docs/journal/solver-session24.md).
//!
//! # Threats first (a knob, off)
//!
//! [`Evaluator::threat_order`] (`solve --threat-order K`, session 32): at an expansion the
//! moves that give the mover a winning VSC through the move (a VC from one of its borders
//! to the move and a VSC or VC from the move to the other border, disjoint, counting the
//! mover's groups the move touches) go first, by the size of the intersection of those
//! VSCs' carriers ([`threat_sizes`]): an estimate of the opponent's mustplay after the
//! move, i.e. of the child's initial disproof number, made from the node's own
//! connections before any child is evaluated. Motivation (docs/journal/vc-session32.md):
//! at 8×8 `c5 c6 d5 d3` Benzene proves Black's e3 with 22 work units; the flow order puts
//! e3 14th of 39, outside the widening window, and hexproof searches 12,156 positions
//! there (e3 alone: 520). With K = 1 e3 goes first (3,369 positions). Measured over the
//! benchmark openings it moves whole trees by −9 % to +34 %: not the default.
//!
//! # Conductances
//!
//! The circuits have hexproof's conductances by default ([`VcLinks::Direct`]: a VC link of
//! resistance r(x) + r(y) + 1, between any two endpoints, groups included).
//! [`Evaluator::circuit_links`] = [`VcLinks::Overlap`] (`--conductance overlap`) gives
//! Benzene's instead: a VC link weakened by the cells common to the pair's carriers,
//! 1 / ((r(x) + r(y)) · (1 + k)), and no link between two of the colour's groups (a group
//! and its border included); [`VcLinks::DirectOverlap`] (`--conductance weakened`) weakens
//! hexproof's links the same way and keeps the rest. Measured in session 25
//! (docs/journal/solver-session25.md): neither is the default.

use crate::board::{Cell, CellSet, Colour};
use crate::eval::VcLinks;
use crate::position::Position;
use crate::vc::{Status, VcParams, VcSet};
use std::time::{Duration, Instant};

/// What the connections say about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// The player to move wins; the winning connection's carrier (empty for a won board).
    Win(CellSet),
    /// The player to move loses; the cells of the opponent's win (a winning VC carrier, or
    /// the winning VSC carriers that leave no move; empty for a won board).
    Loss(CellSet),
    /// Undecided.
    Open {
        /// The moves worth trying (the mustplay, or every empty cell).
        moves: CellSet,
        /// The union of the opponent's winning VSC carriers that cut the moves down to
        /// `moves` (each excluded move misses one of them); empty without a mustplay.
        reason: CellSet,
    },
}

/// The default of [`Evaluator::max_update_stones`].
pub const MAX_UPDATE_STONES: usize = 3;

/// Counters of the evaluations made (for the profile in `hexproof solve --json`).
#[derive(Clone, Copy, Debug, Default)]
pub struct EvalStats {
    /// Connection builds made.
    pub builds: u64,
    /// Time in connection builds.
    pub vc_time: Duration,
    /// Builds skipped because the first one decided the node.
    pub skipped: u64,
    /// Builds made as incremental updates (of [`EvalStats::builds`]).
    pub updates: u64,
    /// Time in incremental updates (of [`EvalStats::vc_time`]).
    pub update_time: Duration,
    /// Nodes won by the player to move (by connections).
    pub wins: u64,
    /// Nodes lost by the player to move (by connections).
    pub losses: u64,
    /// Evaluations made without the win test of the player to move (`skip_own`).
    pub own_skipped: u64,
    /// Stronger win tests made ([`Evaluator::strong_win`]).
    pub strong_tests: u64,
    /// Wins found by them (the fast build had found none).
    pub strong_wins: u64,
    /// Time in them (not in [`EvalStats::vc_time`]).
    pub strong_time: Duration,
    /// Builds made at node evaluations ([`Evaluator::evaluate_hint`]), of
    /// [`EvalStats::builds`].
    pub eval_builds: u64,
    /// Builds made for the win test at expansion ([`Evaluator::own_win`]).
    pub own_test_builds: u64,
    /// Builds made for move ordering ([`Evaluator::connection_scores`]).
    pub order_builds: u64,
    /// Builds not made because the colour's engine already held the position (not in
    /// [`EvalStats::builds`]).
    pub reused: u64,
    /// Builds made on a compact one-word layout ([`crate::vc::VcParams::compact_layout`];
    /// of [`EvalStats::builds`]).
    pub compact: u64,
    /// Builds of a position and colour built before in this search (counted only with
    /// `HEXPROOF_BUILD_STATS=1`, which keeps every position built).
    pub repeats: u64,
    /// Circuits kept at evaluations ([`Evaluator::keep_circuits`]; solved, or their pairs
    /// with [`Evaluator::lazy_circuits`]).
    pub circuits_kept: u64,
    /// Kept circuits used by an expansion.
    pub circuits_used: u64,
    /// Circuits solved at expansions (none kept).
    pub circuits_at_order: u64,
}

/// Why a connection build is made (for [`EvalStats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Site {
    /// The evaluation of a new node.
    Eval,
    /// The win test of the player to move, made when the node is expanded.
    OwnTest,
    /// The circuits of move ordering.
    Order,
}

/// Which incremental updates [`Evaluator::incremental`] makes (`HEXPROOF_UPDATE_KIND`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateKind {
    /// Any missing stones (up to [`Evaluator::max_update_stones`]).
    Any,
    /// Only when every missing stone is the opponent's (they only remove connections).
    OpponentOnly,
    /// Only when every missing stone is the engine's own colour's.
    OwnOnly,
}

/// True when the stones of `a` are a subset of those of `b` (same board).
fn below(a: &Position, b: &Position) -> bool {
    a.board() == b.board()
        && a.stones(Colour::Black).is_subset(&b.stones(Colour::Black))
        && a.stones(Colour::White).is_subset(&b.stones(Colour::White))
}

/// Brings `v` to `pos` along the search path: undoes its saved states
/// ([`VcSet::unplay`]) back to the deepest completely built position below `pos` (the
/// search is depth first, so that is the nearest ancestor on the path), then plays the
/// missing stones with [`VcSet::play_undoable`], the opponent's first (they only remove
/// connections) and its own last (they never break one). When there are more than
/// `max_stones` of them, or a play stopped early (a win before the last stone, or the
/// budget), it rebuilds at `pos` instead, keeping the path ([`VcSet::rebuild_undoable`]).
/// Returns true for an update, false for a rebuild. An update is as sound as a build
/// (`tests/search/vc_undo.rs` checks that an undone update restores the engine exactly).
fn sync(v: &mut VcSet, pos: &Position, max_stones: usize, kind: UpdateKind) -> bool {
    while !(v.status() == Status::Complete && below(v.position(), pos)) {
        if !v.unplay() {
            v.rebuild(pos);
            return false;
        }
    }
    let own = v.colour();
    let old = v.position();
    let add_own = pos.stones(own) - old.stones(own);
    let add_opp = pos.stones(own.opponent()) - old.stones(own.opponent());
    let allowed = match kind {
        UpdateKind::Any => true,
        UpdateKind::OpponentOnly => add_own.is_empty(),
        UpdateKind::OwnOnly => add_opp.is_empty(),
    };
    if !allowed || add_own.len() + add_opp.len() > max_stones {
        v.rebuild_undoable(pos);
        return false;
    }
    let stones = add_opp
        .iter()
        .map(|c| (own.opponent(), c))
        .chain(add_own.iter().map(|c| (own, c)));
    for (colour, cell) in stones {
        if v.status() != Status::Complete || v.play_undoable(colour, cell).is_err() {
            v.rebuild_undoable(pos);
            return false;
        }
    }
    true
}

/// Builds both colours' connections, reusing their storage between positions.
pub struct Evaluator {
    black: VcSet,
    white: VcSet,
    /// Full builds (no early stop) for the proof emitter, made on demand.
    full: Option<(VcSet, VcSet)>,
    params: VcParams,
    /// Use connections at all (win detection).
    pub use_vcs: bool,
    /// Restrict moves to the mustplay.
    pub use_mustplay: bool,
    /// Update the last connections instead of rebuilding when only stones were added.
    pub incremental: bool,
    /// Most stones added since the nearest built ancestor for an incremental update (more:
    /// rebuild). An update costs about half a build per stone on 7×7, so only a few pay.
    pub max_update_stones: usize,
    /// Which updates are made (the rest rebuild).
    pub update_kind: UpdateKind,
    /// Update only at these build sites (bit 0: node evaluations, bit 1: the win test at
    /// expansion, bit 2: ordering); the others rebuild (`HEXPROOF_UPDATE_SITES`).
    pub update_sites: u8,
    /// Do not rebuild a colour whose engine already holds the position (its connections are
    /// those a rebuild would make: builds are deterministic).
    pub reuse: bool,
    /// Every (Black stones, White stones, colour) built so far, for [`EvalStats::repeats`]
    /// (`HEXPROOF_BUILD_STATS=1` only).
    seen: Option<std::collections::HashSet<(CellSet, CellSet, Colour)>>,
    built: [bool; 2],
    /// Counters.
    pub stats: EvalStats,
    /// Keep each colour's circuit energies of the open positions evaluated, for
    /// [`Evaluator::connection_scores`] (see "Circuits kept for ordering").
    pub keep_circuits: bool,
    /// The kept circuits: (Black stones, White stones, colour) → the energy of each empty
    /// cell (in cell order) over the circuit's total power, or the connections' endpoint
    /// pairs to solve it from when it is first used ([`Evaluator::lazy_circuits`]).
    circuits: std::collections::HashMap<(CellSet, CellSet, Colour), Kept>,
    /// Keep an open position's connection pairs at its evaluation and solve its circuit
    /// only when the position is expanded (most evaluated positions never are), instead of
    /// solving it at once. The same circuit either way, so the same order
    /// (`HEXPROOF_LAZY_CIRCUITS=0`: solve at once).
    pub lazy_circuits: bool,
    /// Score a cell by the fraction of the circuit's current that passes through it (as
    /// Benzene's resistance evaluation scores its moves) instead of its share of the
    /// circuit's power ([`circuit_energy`]); `--order flow`.
    pub circuit_flow: bool,
    /// How the node's connections enter those circuits: [`VcLinks::Direct`] (hexproof's
    /// conductances, the default) or [`VcLinks::Overlap`] (Benzene's; `--conductance
    /// overlap`, see "Conductances").
    pub circuit_links: VcLinks,
    /// Order the moves that make a threat first ([`Evaluator::threat_scores`], "Threats
    /// first"): 0 off, 1 every threat move before the others, k ≥ 2 only the k − 1 of
    /// smallest threat size.
    pub threat_order: usize,
    /// The kept threat sizes: (Black stones, White stones, player to move) → per cell.
    threats: std::collections::HashMap<(CellSet, CellSet, Colour), Box<[u8]>>,
    /// The stronger win test ([`Evaluator::strong_win`]) at open nodes whose moves (the
    /// mustplay) number at most this many; 0: off.
    pub strong_moves: usize,
    /// Its engines (Black's, White's), made on first use.
    strong: Option<(VcSet, VcSet)>,
}

/// The parameters of the stronger win test: the solver's build with Benzene's bounded OR
/// rule (at most 4 VSCs) for pairs holding fewer than 8 VCs, which also keeps any minimal
/// VC for those pairs (`VcParams::full_keep`); it finds the 2011 Olympiad wins (gm6, gm7,
/// gm11) that the fast build misses (docs/journal/vc-session21.md).
pub fn strong_params(params: &VcParams) -> VcParams {
    let mut p = params.clone();
    p.full_keep = p.full_keep.max(8);
    p.bounded_or = Some(4);
    p.stop_at_win = true;
    p
}

/// A kept circuit of one colour in one position (see "Circuits kept for ordering").
enum Kept {
    /// Solved: each empty cell's score, in cell order.
    Scores(Box<[f32]>),
    /// Not solved yet: the endpoint pairs of the colour's connections there, with the
    /// number of cells common to each pair's carriers ([`VcSet::vc_pairs_overlap`]).
    Pairs(Box<[(Cell, Cell, u16)]>),
}

/// Most positions × colours whose circuit energies are kept ([`Evaluator::keep_circuits`]);
/// the store is emptied when it is full (it only saves builds).
pub const MAX_KEPT_CIRCUITS: usize = 1 << 17;

/// The energy of each empty cell of `pos` (in cell order) in `colour`'s resistor circuit
/// with a link for every endpoint pair `set` joins by a VC, over the circuit's total power:
/// `colour`'s half of [`crate::eval::evaluate`]'s energies with [`VcLinks::Direct`]. With
/// `flow`, the current through each cell over the total current instead (Benzene's score of
/// a cell: its DFPN orders the moves by the sum of both colours' currents through them).
/// `links` is [`Evaluator::circuit_links`].
fn circuit_energy(
    pos: &Position,
    colour: Colour,
    set: &VcSet,
    flow: bool,
    links: VcLinks,
) -> Box<[f32]> {
    circuit_scores(
        pos,
        crate::eval::circuit::Circuit::build(pos, colour, Some(set), links),
        flow,
    )
}

/// [`circuit_energy`] from the connections' endpoint pairs kept at the evaluation.
fn circuit_energy_of_pairs(
    pos: &Position,
    colour: Colour,
    pairs: &[(Cell, Cell, u16)],
    flow: bool,
    links: VcLinks,
) -> Box<[f32]> {
    let pairs: Vec<(Cell, Cell, usize)> =
        pairs.iter().map(|&(x, y, k)| (x, y, k as usize)).collect();
    let circuit = crate::eval::circuit::Circuit::build_with_pairs(pos, colour, &pairs, links);
    circuit_scores(pos, circuit, flow)
}

/// Each empty cell's score from the solved `circuit` (see [`circuit_energy`]).
fn circuit_scores(
    pos: &Position,
    circuit: crate::eval::circuit::Circuit,
    flow: bool,
) -> Box<[f32]> {
    let sol = circuit.solve();
    let total = sol.total_power.max(1e-300);
    let per_cell = if flow {
        &sol.cell_flow
    } else {
        &sol.cell_energy
    };
    pos.empty_cells()
        .iter()
        .map(|c| (per_cell[c.index()] / total) as f32)
        .collect()
}

/// No threat ([`threat_sizes`]).
pub const NO_THREAT: u8 = u8::MAX;

/// Most connections of one border side looked at per move by [`threat_sizes`].
const THREAT_LIST: usize = 32;

/// "Threats first": for each of `moves` (cell index → size), an estimate of the opponent's
/// mustplay after `colour` plays there, from `colour`'s connections `set` in `pos` (which
/// has no winning VSC of `colour`, an open node). A move m joined to one of the colour's
/// borders by a VC and to the other by a VSC (or both by VCs), with disjoint carriers
/// (from m itself or a group of the colour touching m), leaves the colour a winning VSC
/// through m: the opponent must then play inside the union of the two carriers. The size is
/// that of the intersection of those unions (0: m connects at once; [`NO_THREAT`]: none,
/// at most 254 otherwise). Ordering only: the estimate decides nothing.
pub fn threat_sizes(pos: &Position, colour: Colour, set: &VcSet, moves: CellSet) -> Box<[u8]> {
    let mut out = vec![NO_THREAT; crate::vc::endpoints::CELL_SLOTS].into_boxed_slice();
    let board = pos.board();
    let own = pos.stones(colour);
    let [b1, b2] = colour.borders().map(crate::board::Cell::border);
    let (e1, e2) = (set.endpoint(b1), set.endpoint(b2));
    let mut sides: [Vec<(CellSet, bool)>; 2] = [Vec::new(), Vec::new()];
    for m in moves.iter() {
        // m and the colour's groups it touches.
        let mut ends = vec![m];
        for c in (board.neighbours(m) & own).iter() {
            if let Some(e) = set.endpoint(c) {
                if !ends.contains(&e) {
                    ends.push(e);
                }
            }
        }
        for (side, (b, eb)) in sides.iter_mut().zip([(b1, e1), (b2, e2)]) {
            side.clear();
            if board.neighbours(m).contains(b)
                || ends.iter().any(|&e| eb.is_some() && set.endpoint(e) == eb)
            {
                side.push((CellSet::EMPTY, true));
                continue;
            }
            for &e in &ends {
                side.extend(
                    set.vcs(b, e)
                        .into_iter()
                        .take(THREAT_LIST)
                        .map(|c| (c, true)),
                );
                side.extend(
                    set.vscs(b, e)
                        .into_iter()
                        .take(THREAT_LIST)
                        .map(|c| (c, false)),
                );
            }
        }
        let mut inter: Option<CellSet> = None;
        'pairs: for &(c1, f1) in &sides[0] {
            for &(c2, f2) in &sides[1] {
                if !(f1 || f2) || !(c1 & c2).is_empty() {
                    continue;
                }
                let mut u = c1 | c2;
                u.remove(m);
                if f1 && f2 {
                    inter = Some(CellSet::EMPTY);
                    break 'pairs;
                }
                inter = Some(inter.map_or(u, |i| i & u));
            }
        }
        if let Some(i) = inter {
            out[m.index()] = i.len().min(NO_THREAT as usize - 1) as u8;
        }
    }
    out
}

/// The mustplay from the opponent's winning VSC carriers `semis` among `empty`, and the union
/// of the carriers that cut it down (smallest first, each kept only if it removes a move; the
/// result is the intersection of all of them).
pub fn mustplay_cover(mut semis: Vec<CellSet>, empty: CellSet) -> (CellSet, CellSet) {
    semis.sort_unstable_by_key(|c| c.len());
    let mut m = empty;
    let mut reason = CellSet::EMPTY;
    for s in semis {
        let next = m & s;
        if next != m {
            m = next;
            reason |= s;
        }
    }
    (m, reason)
}

impl Evaluator {
    /// An evaluator with the given connection parameters.
    pub fn new(params: VcParams, use_vcs: bool, use_mustplay: bool) -> Evaluator {
        let mut fast = params.clone();
        fast.stop_at_win = true;
        Evaluator {
            black: VcSet::new(Colour::Black, fast.clone()),
            white: VcSet::new(Colour::White, fast),
            full: None,
            params,
            use_vcs,
            use_mustplay,
            incremental: true,
            max_update_stones: MAX_UPDATE_STONES,
            update_kind: match std::env::var("HEXPROOF_UPDATE_KIND").as_deref() {
                Ok("opp") => UpdateKind::OpponentOnly,
                Ok("own") => UpdateKind::OwnOnly,
                _ => UpdateKind::Any,
            },
            update_sites: std::env::var("HEXPROOF_UPDATE_SITES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(7),
            reuse: std::env::var_os("HEXPROOF_REUSE").is_none_or(|v| v != "0"),
            seen: std::env::var_os("HEXPROOF_BUILD_STATS")
                .is_some_and(|v| v == "1")
                .then(std::collections::HashSet::new),
            built: [false; 2],
            stats: EvalStats::default(),
            keep_circuits: false,
            circuits: std::collections::HashMap::new(),
            lazy_circuits: std::env::var_os("HEXPROOF_LAZY_CIRCUITS").is_none_or(|v| v != "0"),
            circuit_flow: false,
            circuit_links: VcLinks::Direct,
            threat_order: 0,
            threats: std::collections::HashMap::new(),
            strong_moves: 0,
            strong: None,
        }
    }

    /// The win of `to_move` in the open position `pos` by a stronger build of its
    /// connections ([`strong_params`]), tried only when [`Evaluator::strong_moves`] is set
    /// and the node's `moves` number at most that: a node whose mustplay is small is close
    /// to decided, and the fast build misses some wins that the stronger one finds. Sound
    /// as any build (the same rules; a stronger build only stores more connections): the
    /// carrier is a winning VC or VSC of `to_move`, a win of the player to move.
    pub fn strong_win(
        &mut self,
        pos: &Position,
        to_move: Colour,
        moves: CellSet,
    ) -> Option<CellSet> {
        if self.strong_moves == 0 || !self.use_vcs || moves.len() > self.strong_moves {
            return None;
        }
        let t = Instant::now();
        let params = &self.params;
        let (b, w) = self.strong.get_or_insert_with(|| {
            let p = strong_params(params);
            (
                VcSet::new(Colour::Black, p.clone()),
                VcSet::new(Colour::White, p),
            )
        });
        let v = match to_move {
            Colour::Black => b,
            Colour::White => w,
        };
        v.rebuild(pos);
        let smallest = |v: Vec<CellSet>| v.into_iter().min_by_key(|c| c.len());
        let win = smallest(v.winning_vcs()).or_else(|| smallest(v.winning_vscs()));
        self.stats.strong_tests += 1;
        self.stats.strong_time += t.elapsed();
        if win.is_some() {
            self.stats.strong_wins += 1;
            self.stats.wins += 1;
        }
        win
    }

    /// Builds both colours' connections in `pos` completely (no early stop), for the proof
    /// emitter, and returns (Black's, White's).
    pub fn build_full(&mut self, pos: &Position) -> (&VcSet, &VcSet) {
        let params = &self.params;
        let (b, w) = self.full.get_or_insert_with(|| {
            (
                VcSet::new(Colour::Black, params.clone()),
                VcSet::new(Colour::White, params.clone()),
            )
        });
        b.rebuild(pos);
        w.rebuild(pos);
        (b, w)
    }

    fn build(&mut self, colour: Colour, pos: &Position, site: Site) {
        if self.reuse
            && self.at(colour, pos)
            && (!self.incremental || self.set(colour).status() == Status::Complete)
        {
            self.stats.reused += 1;
            return;
        }
        if let Some(seen) = &mut self.seen {
            let key = (pos.stones(Colour::Black), pos.stones(Colour::White), colour);
            if !seen.insert(key) {
                self.stats.repeats += 1;
            }
        }
        match site {
            Site::Eval => self.stats.eval_builds += 1,
            Site::OwnTest => self.stats.own_test_builds += 1,
            Site::Order => self.stats.order_builds += 1,
        }
        let t = Instant::now();
        let i = colour as usize;
        let v = match colour {
            Colour::Black => &mut self.black,
            Colour::White => &mut self.white,
        };
        let site_bit = match site {
            Site::Eval => 1,
            Site::OwnTest => 2,
            Site::Order => 4,
        };
        if self.incremental && self.built[i] && self.update_sites & site_bit != 0 {
            if sync(v, pos, self.max_update_stones, self.update_kind) {
                self.stats.updates += 1;
                self.stats.update_time += t.elapsed();
            }
        } else if self.incremental && self.built[i] {
            // A site that does not update: rebuild, keeping the path for the others.
            v.rebuild_undoable(pos);
        } else {
            v.rebuild(pos);
        }
        self.built[i] = true;
        self.stats.vc_time += t.elapsed();
        self.stats.builds += 1;
        self.stats.compact += u64::from(v.is_compact());
    }

    fn set(&self, colour: Colour) -> &VcSet {
        match colour {
            Colour::Black => &self.black,
            Colour::White => &self.white,
        }
    }

    /// The win of `colour` to move by its own connections (smallest winning VC, else VSC).
    fn own_win_of(&self, colour: Colour) -> Option<CellSet> {
        let v = self.set(colour);
        let smallest = |v: Vec<CellSet>| v.into_iter().min_by_key(|c| c.len());
        smallest(v.winning_vcs()).or_else(|| smallest(v.winning_vscs()))
    }

    /// The smallest winning VC of `colour`.
    fn vc_win(&self, colour: Colour) -> Option<CellSet> {
        self.set(colour)
            .winning_vcs()
            .into_iter()
            .min_by_key(|c| c.len())
    }

    /// The win of `to_move` in `pos` by its connections (a build of its connections only):
    /// the test [`Evaluator::evaluate_hint`] skips, made later.
    pub fn own_win(&mut self, pos: &Position, to_move: Colour) -> Option<CellSet> {
        if !self.use_vcs {
            return None;
        }
        self.build(to_move, pos, Site::OwnTest);
        let w = self.own_win_of(to_move);
        if w.is_some() {
            self.stats.wins += 1;
        }
        w
    }

    /// Scores `moves` at the open node `pos` for ordering (lower first): the energy of each
    /// cell in both colours' resistor circuits with a link for every endpoint pair the node's
    /// connections join ([`crate::eval::evaluate`], [`VcLinks::Direct`]), as Benzene's DFPN
    /// orders its moves by a circuit built from the node's VCs. Each colour's half comes
    /// from the circuits kept at the evaluation of `pos` ([`Evaluator::keep_circuits`]), else
    /// from its engine, built first when it is not at `pos` (an open node has no winning VC
    /// of either side, so the builds are complete). Ordering only: the answer of the search
    /// never depends on it.
    pub fn connection_scores(
        &mut self,
        pos: &Position,
        moves: CellSet,
        out: &mut Vec<(i32, crate::board::Cell)>,
    ) {
        let mut energy = vec![0.0f64; crate::vc::endpoints::CELL_SLOTS];
        for colour in [Colour::Black, Colour::White] {
            let e = self.colour_energy(pos, colour);
            for (c, v) in pos.empty_cells().iter().zip(e.iter()) {
                energy[c.index()] += *v as f64;
            }
        }
        for c in moves.iter() {
            // As `order::Resistance`: higher energy, lower score.
            out.push((-(energy[c.index()] * 1e6).round() as i32, c));
        }
    }

    /// The threat size of each of `moves` for `to_move` at the open node `pos` (per cell
    /// index; see [`threat_sizes`]): kept from the evaluation of `pos`, else from the
    /// mover's engine, built first when it is not at `pos`. Ordering only.
    pub fn threat_scores(&mut self, pos: &Position, to_move: Colour, moves: CellSet) -> Box<[u8]> {
        let key = (
            pos.stones(Colour::Black),
            pos.stones(Colour::White),
            to_move,
        );
        if let Some(t) = self.threats.get(&key) {
            return t.clone();
        }
        if !self.at(to_move, pos) {
            self.build(to_move, pos, Site::Order);
        }
        self.keep_threats(pos, to_move, moves)
    }

    fn keep_threats(&mut self, pos: &Position, to_move: Colour, moves: CellSet) -> Box<[u8]> {
        let t = threat_sizes(pos, to_move, self.set(to_move), moves);
        if self.threats.len() >= MAX_KEPT_CIRCUITS {
            self.threats.clear();
        }
        let key = (
            pos.stones(Colour::Black),
            pos.stones(Colour::White),
            to_move,
        );
        self.threats.insert(key, t.clone());
        t
    }

    /// True when `colour`'s engine holds its connections in `pos`.
    fn at(&self, colour: Colour, pos: &Position) -> bool {
        self.built[colour as usize] && self.set(colour).position() == pos
    }

    /// `colour`'s circuit energies in the open position `pos` ([`circuit_energy`]): kept
    /// ones, else from its engine, built first when it is elsewhere.
    fn colour_energy(&mut self, pos: &Position, colour: Colour) -> Box<[f32]> {
        let key = (pos.stones(Colour::Black), pos.stones(Colour::White), colour);
        match self.circuits.get(&key) {
            Some(Kept::Scores(e)) => {
                self.stats.circuits_used += 1;
                return e.clone();
            }
            Some(Kept::Pairs(pairs)) => {
                self.stats.circuits_used += 1;
                let (flow, links) = (self.circuit_flow, self.circuit_links);
                let e = circuit_energy_of_pairs(pos, colour, pairs, flow, links);
                self.circuits.insert(key, Kept::Scores(e.clone()));
                return e;
            }
            None => {}
        }
        self.stats.circuits_at_order += 1;
        if !self.at(colour, pos) {
            self.build(colour, pos, Site::Order);
        }
        let e = self.scores_here(pos, colour);
        self.keep(key, Kept::Scores(e.clone()));
        e
    }

    /// [`circuit_energy`] of `colour` in `pos` from its engine (which must hold `pos`), with
    /// this evaluator's score and conductances.
    fn scores_here(&self, pos: &Position, colour: Colour) -> Box<[f32]> {
        let set = self.set(colour);
        circuit_energy(pos, colour, set, self.circuit_flow, self.circuit_links)
    }

    fn keep(&mut self, key: (CellSet, CellSet, Colour), e: Kept) {
        if !self.keep_circuits {
            return;
        }
        if self.circuits.len() >= MAX_KEPT_CIRCUITS {
            self.circuits.clear();
        }
        self.circuits.insert(key, e);
    }

    /// Keeps the circuit energies of each colour whose engine holds the open position `pos`
    /// (see "Circuits kept for ordering").
    fn keep_open(&mut self, pos: &Position) {
        if !self.keep_circuits {
            return;
        }
        for colour in [Colour::Black, Colour::White] {
            let key = (pos.stones(Colour::Black), pos.stones(Colour::White), colour);
            if self.at(colour, pos) && !self.circuits.contains_key(&key) {
                let e = if self.lazy_circuits {
                    let pairs = self.set(colour).vc_pairs_overlap();
                    Kept::Pairs(
                        pairs
                            .into_iter()
                            .map(|(x, y, k)| (x, y, k as u16))
                            .collect(),
                    )
                } else {
                    Kept::Scores(self.scores_here(pos, colour))
                };
                self.stats.circuits_kept += 1;
                self.keep(key, e);
            }
        }
    }

    /// Evaluates `pos` with `to_move` to play.
    pub fn evaluate(&mut self, pos: &Position, to_move: Colour) -> Eval {
        self.evaluate_hint(pos, to_move, false)
    }

    /// [`Evaluator::evaluate`]; with `skip_own`, the connections of `to_move` are not built
    /// (no test for its win: the caller knows it is unlikely, see [`super::mid`], "Own wins
    /// of a child"). Sound either way: a win not detected leaves the node open, to be
    /// searched.
    pub fn evaluate_hint(&mut self, pos: &Position, to_move: Colour, skip_own: bool) -> Eval {
        let geo = super::inferior::geometry(pos.board());
        if let Some(w) = geo.winner(pos.stones(Colour::Black), pos.stones(Colour::White)) {
            return if w == to_move {
                Eval::Win(CellSet::EMPTY)
            } else {
                Eval::Loss(CellSet::EMPTY)
            };
        }
        let empty = pos.empty_cells();
        if !self.use_vcs {
            return Eval::Open {
                moves: empty,
                reason: CellSet::EMPTY,
            };
        }
        let opp = to_move.opponent();
        let own_first = self.stats.wins >= self.stats.losses;
        if skip_own {
            self.stats.own_skipped += 1;
            self.build(opp, pos, Site::Eval);
            if let Some(c) = self.vc_win(opp) {
                self.stats.losses += 1;
                return Eval::Loss(c);
            }
        } else if own_first {
            self.build(to_move, pos, Site::Eval);
            if let Some(c) = self.own_win_of(to_move) {
                self.stats.wins += 1;
                self.stats.skipped += 1;
                return Eval::Win(c);
            }
            self.build(opp, pos, Site::Eval);
            if let Some(c) = self.vc_win(opp) {
                self.stats.losses += 1;
                return Eval::Loss(c);
            }
        } else {
            self.build(opp, pos, Site::Eval);
            if let Some(c) = self.vc_win(opp) {
                self.stats.losses += 1;
                self.stats.skipped += 1;
                return Eval::Loss(c);
            }
            self.build(to_move, pos, Site::Eval);
            if let Some(c) = self.own_win_of(to_move) {
                self.stats.wins += 1;
                return Eval::Win(c);
            }
        }
        let semis = self.set(opp).winning_vscs();
        if semis.is_empty() || !self.use_mustplay {
            if !skip_own {
                if let Some(c) = self.strong_win(pos, to_move, empty) {
                    return Eval::Win(c);
                }
            }
            if self.threat_order > 0 && self.at(to_move, pos) {
                self.keep_threats(pos, to_move, empty);
            }
            self.keep_open(pos);
            return Eval::Open {
                moves: empty,
                reason: CellSet::EMPTY,
            };
        }
        let (m, reason) = mustplay_cover(semis, empty);
        if !m.is_empty() && self.threat_order > 0 && self.at(to_move, pos) {
            self.keep_threats(pos, to_move, m);
        }
        if m.is_empty() {
            // Every move leaves some opponent winning VSC untouched.
            self.stats.losses += 1;
            Eval::Loss(reason)
        } else {
            if !skip_own {
                if let Some(c) = self.strong_win(pos, to_move, m) {
                    return Eval::Win(c);
                }
            }
            self.keep_open(pos);
            Eval::Open { moves: m, reason }
        }
    }
}
