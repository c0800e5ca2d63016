//! The whole-board solver: who wins a Hex position, and with which move.
//!
//! After Henderson, Arneson & Hayward, *Solving 8×8 Hex*, IJCAI 2009
//! (`papers/001_daa05b354444f0cc.txt`), one concept per module:
//!
//! - [`eval`]: a position decided by virtual connections (winning VSC of the player to move,
//!   winning VC of the opponent), and the mustplay (§2);
//! - [`inferior`]: dead cells, captured pairs, fill-in (§3);
//! - [`vulnerable`]: vulnerable cells, pruned at expansion (§3);
//! - [`decompose`]: regions cut off by opposite-colour bridges, filled in (§4, Theorem 2);
//! - [`dfpn`]: the search, a DFPN with the 1+ε trick (why DFPN: see there), with proof-set
//!   and capture-domination pruning (§3, derived from the children's fill-in);
//! - [`proof_set`]: proof-set reduction (§5, Theorem 3);
//! - [`tt`]: the bounded transposition table;
//! - [`db`]: the persistent database of solved positions with few stones (§6);
//! - [`shared`]: solved positions (with proof sets) shared by the searches of one run;
//! - [`parallel`]: threads on one tree (`--threads N` on one position): SPDFPN-style
//!   shared numbers, busy counts and virtual disproof numbers, with its soundness argument;
//! - [`order`]: move ordering and its hook for an evaluation function;
//! - [`emit`]: the win as a `.hexp` strategy for `hexproof check`.
//!
//! # Soundness
//!
//! A position is reported won or lost only when the search proved it: every leaf is either a
//! won board or a connection built by the VC engine (whose AND/OR rules are sound, seeded with
//! the certified template library, [`crate::templates::seeds`], whose certificates the kernel
//! re-checks before a template is used), and every
//! pruning (mustplay, fill-in, region fill-in) preserves the game value, or keeps a winning
//! move whenever there is one (capture domination, vulnerable cells), and a split node is
//! decided by its two halves exactly (Theorem 1, [`decompose`]). When the budget runs out the answer
//! is [`Winner::Undecided`]. The exported proof is checked independently by the checker.

pub mod db;
pub mod decompose;
pub mod frontier;
pub mod inferior;
pub mod jobs;
pub mod mid;
pub mod openings;
pub mod order;
pub mod parallel;
#[cfg(feature = "postgres")]
pub mod pg;
pub mod proof_set;
pub mod shared;
pub mod transpose;
pub mod tt;
pub mod vc_eval;
pub mod vulnerable;

use crate::board::{Border, Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::eval::VcLinks;
use crate::local::{self, Budget};
use crate::position::Position;
use crate::vc::{Variant, VcBudget, VcParams};
use inferior::InferiorRules;
use mid::Dfpn;
use order::{Centrality, MoveOrder, Resistance};
use serde::Serialize;
use std::time::{Duration, Instant};
use tt::{Table, INF};
use vc_eval::Evaluator;

/// Largest board the solver accepts (cells); 8×8 = 64 and 9×9 = 81 are allowed, beyond that
/// a whole-board search is hopeless.
pub const MAX_CELLS: usize = 81;

/// The solver's default [`SolveParams::semi_limit`]: 16 VSCs per endpoint pair. Without a
/// limit 8×8 g2 searches 11,996 positions instead of 18,420 at about the same CPU, but the
/// six hardest 7×7 openings take ≈ 20 % more CPU for 1.5 % fewer positions (session 28,
/// loaded; docs/journal/solver-session28.md), so the limit stays; `--vc-semi-limit none`.
pub const SOLVER_SEMI_LIMIT: Option<usize> = Some(16);

/// The solver's default [`SolveParams::edge_semi_limit`]: no limit on the VSCs of a pair with
/// one border endpoint (their VCs make the win test and the mustplay), 16 on the others.
/// 8×8 g2: 7,676 positions instead of 15,152 (no limit at all: 8,513), each build ≈ 4 % dearer
/// (no limit at all: ≈ 20 %); over the six hardest 7×7 openings and 8×8 g2, e4, f1: 55,179
/// positions instead of 63,004 and −14 % CPU (session 30, loaded;
/// docs/journal/vc-session30.md). `--vc-edge-semi-limit same` is the old rule.
pub const SOLVER_EDGE_SEMI_LIMIT: Option<usize> = Some(usize::MAX);

/// The base of progressive widening ([`SolveParams::widening`]): a node looks at this many
/// live children plus a fraction of them.
pub const WIDENING_BASE: u32 = 1;

/// The default factor of progressive widening ([`SolveParams::widening`]), Benzene's: with
/// the connection ordering (the default) it cut the 7×7 trees by 2–4× (a3 9,115 → 3,585
/// nodes, c1 1,696 → 364; docs/journal/solver-session21.md); with the plain resistance
/// ordering it did not pay.
pub const DEFAULT_WIDENING: f64 = 0.25;

/// The default [`SolveParams::child_dn`].
pub const DEFAULT_CHILD_DN: u32 = 1;

/// Which parts of the solver are on (for ablation, like the paper's Fig. 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Win/loss detection by virtual connections.
    pub vcs: bool,
    /// Mustplay pruning (needs `vcs`).
    pub mustplay: bool,
    /// Dead-cell fill-in.
    pub dead: bool,
    /// Captured-pair fill-in.
    pub captured: bool,
    /// Proof-set pruning (§5).
    pub proof_sets: bool,
    /// Rotation transpositions in the table (§6).
    pub rotation: bool,
    /// Capture-domination pruning (§3) from the children's fill-in
    /// ([`dfpn`]'s `prune_dominated`).
    pub dominated: bool,
    /// Vulnerable-cell pruning (§3): a move that some reply makes dead is not searched
    /// ([`vulnerable`]).
    pub vulnerable: bool,
    /// Decompositions (§4): regions cut off by opposite-colour bridges are filled in
    /// ([`decompose`]).
    pub decompose: bool,
    /// Incremental connection updates along the search path, with undo ([`eval`]). Off by
    /// default: on 7×7 an update of one stone costs about half a rebuild, a child adds 1–6
    /// stones (move and fill-in), and the updated (limited FastVC) sets are a little weaker,
    /// so it saves no time overall (e1: 2.0 s user without, 2.0–2.8 s with, by the stone
    /// limit; c1 6.6 s against 7.3–7.7 s).
    pub incremental: bool,
    /// Proof-set reduction (§5, Theorem 3, [`proof_set`]): a solved node's proof set loses
    /// the cells that become dead or loser-captured once the loser holds every cell outside
    /// it.
    pub reduction: bool,
    /// Skip the win test of the player to move at a child whose parent's connections found
    /// no such win avoiding the move ([`dfpn`], "Own wins of a child"): one connection build
    /// instead of two at most nodes.
    pub skip_own_wins: bool,
    /// Weak disproof numbers (max + open children − 1 instead of the sum; [`dfpn`]).
    pub weak_dn: bool,
    /// Fill-in with the certified ICE patterns' captured sets ([`crate::ice`]; used only
    /// when a checked library was installed, as `hexproof solve` does).
    pub ice_patterns: bool,
    /// A lost node where capture domination pruned moves keeps its union proof set when
    /// every pruned move lies outside a refuted child's proof set ([`dfpn`], "Proof sets and
    /// dominated moves"); off: no proof set there (the rule before session 23).
    pub dominated_proofs: bool,
    /// A child won by its player to move through the strategy-stealing argument (it is its
    /// own colour-swapped mirror image on a square board) is refuted without search
    /// ([`dfpn`], "Strategy stealing"). Such a child has no winning move in the table, so
    /// the proof writers switch it off.
    pub strategy_stealing: bool,
    /// Proof-set transpositions ([`transpose`], Henderson et al. 2009 §6): a position the
    /// table does not know is answered by a solved one with the same player to move and the
    /// same winner's stones whose proof set avoids its loser's stones. Such a position has
    /// no subtree in the table, so the proof writers switch it off. Off by default (not a
    /// gain over the measured openings).
    pub transpositions: bool,
}

impl Features {
    /// The default: every pruning feature on; incremental updates off (see the field).
    pub const ALL: Features = Features {
        vcs: true,
        mustplay: true,
        dead: true,
        captured: true,
        proof_sets: true,
        rotation: true,
        dominated: true,
        vulnerable: true,
        decompose: true,
        incremental: false,
        reduction: true,
        skip_own_wins: true,
        weak_dn: false,
        ice_patterns: true,
        dominated_proofs: true,
        strategy_stealing: true,
        // Measured in session 40 (docs/journal/solver-session40.md): 8×8 g2 −6 %, f1 −2 %,
        // a1 −3 % positions, but g1 +6 % and e4 +172 %, 7×7's 49 +0.5 %: off.
        transpositions: false,
    };
}

/// The default (ε, plies) of [`SolveParams::top_epsilon`]: the root's first child in move
/// order gets the threshold ⌈2·dn₂⌉ instead of ⌈1.25·dn₂⌉ ([`mid`], "ε near the root").
/// Measured in docs/journal/vc-session33.md and solver-session34.md: 8×8 a1 42,277 →
/// 23,659 positions, c5 45,448 → 39,305, the six hardest 7×7 30,842 → 29,900 (g2 7,676 →
/// 8,257 is the one loss).
pub const DEFAULT_TOP_EPSILON: (f64, u32) = (1.0, 1);

/// Solver parameters.
#[derive(Clone, Debug)]
pub struct SolveParams {
    /// Most nodes (position evaluations).
    pub nodes: u64,
    /// Wall-time limit.
    pub time: Option<Duration>,
    /// Transposition-table capacity (entries, about 140 bytes each).
    pub tt_entries: usize,
    /// ε of the 1+ε trick.
    pub epsilon: f64,
    /// (ε, plies): the 1+ε trick's ε at the nodes less than `plies` plies below the root
    /// ([`mid::Dfpn::top_epsilon`]); `None`: `epsilon` everywhere. Default
    /// [`DEFAULT_TOP_EPSILON`] (ε 1 at the root, session 34).
    pub top_epsilon: Option<(f64, u32)>,
    /// [`mid::Dfpn::top_first`]: `top_epsilon` only for the first child in move order
    /// (default on, session 34).
    pub top_first: bool,
    /// [`mid::Dfpn::top_pn_ratio`] (0, the default: off).
    pub top_pn_ratio: f64,
    /// Features on.
    pub features: Features,
    /// Connection engine.
    pub vc_variant: Variant,
    /// Move ordering.
    pub order: Ordering,
    /// FastVC's soft limit on VSCs per endpoint pair ([`VcParams::semi_limit`]; `None`: no
    /// limit). The solver's default, [`SOLVER_SEMI_LIMIT`] (16), is above the engine's:
    /// the mustplay and the win detection need the VSCs a tight limit drops (7×7 d4: 2 833
    /// nodes with the engine's 4, 436 with 8, 373 with 16 or none; c1: 6 881 / 4 821 / 4 787
    /// with 8 / 16 / none, before the connection order; 8×8 g2 in session 28: 18,420 / 13,623
    /// / 11,996 with 16 / 32 / none).
    pub semi_limit: Option<usize>,
    /// [`VcParams::edge_semi_limit`]: the VSC limit of the pairs with one border endpoint
    /// (`None`: `semi_limit`; `Some(usize::MAX)`: none, the default
    /// [`SOLVER_EDGE_SEMI_LIMIT`]).
    pub edge_semi_limit: Option<usize>,
    /// [`VcParams::edge_semi_limit_groups`].
    pub edge_semi_limit_groups: bool,
    /// [`VcParams::semi_keep_smallest`].
    pub semi_keep_smallest: bool,
    /// [`VcParams::capture_semis_unlimited`].
    pub capture_semis_unlimited: bool,
    /// Most stones for an incremental connection update ([`vc_eval::Evaluator::max_update_stones`]).
    pub update_stones: usize,
    /// The persistent database of solved positions ([`db`]), shared by threads.
    pub db: Option<std::sync::Arc<db::SolvedDb>>,
    /// Initial disproof number of a child not yet evaluated ([`dfpn`], "Children not yet
    /// evaluated"); 1 evaluates every child of a node before going deeper.
    pub child_dn: u32,
    /// Solved positions shared with other searches (other openings, other threads) of the
    /// run ([`shared`]); `None`: this search's own table only.
    pub shared: Option<std::sync::Arc<shared::SharedSolved>>,
    /// Progressive widening (base, factor) of [`mid::Dfpn::widening`]; `None`: every child.
    pub widening: Option<(u32, f64)>,
    /// The step of soft widening ([`mid::Dfpn::widening_step`]); 0: the window slides only
    /// when its children are refuted.
    pub widening_step: u32,
    /// Sticky selection ([`mid::Dfpn::sticky`]): keep the last child while its disproof
    /// number stays below the 1+ε threshold of the least one, as Benzene's DFPN does.
    pub sticky: bool,
    /// "Threats first" ([`vc_eval::Evaluator::threat_order`]; with the connection orders
    /// only): 0 off (the default), 1 every threat move first by threat size, k ≥ 2 the
    /// k − 1 best threat moves first. A search parameter only.
    pub threat_order: usize,
    /// The conductances of the ordering circuits ([`vc_eval::Evaluator::circuit_links`]):
    /// [`VcLinks::Direct`] (hexproof's) or [`VcLinks::Overlap`] (Benzene's).
    pub conductance: VcLinks,
    /// Seed the connection engine with the whole certified template library
    /// ([`crate::templates::seeds`]) instead of HexWiki's five one-stone templates.
    pub library_seeds: bool,
    /// The connection engine's OR rule by the fast semis-combiner ([`VcParams::full_or`]
    /// off), the default: with semis-combiner each build costs about twice as much and the
    /// trees were not smaller (7×7 a3: 9,105 nodes with the fast one, 9,525 without;
    /// docs/journal/benchmarks-history.md, "Issue 25: gm6 and move ordering").
    pub vc_fast_or: bool,
    /// The connection engine's AND rule over the cells an empty midpoint captures
    /// ([`VcParams::capture_and`], issue 25, session 29): on by default; off with
    /// `--no-vc-capture-and`.
    pub vc_capture_and: bool,
    /// One-word connection builds on boards whose layout needs two (8×8) where the
    /// position's compact numbering fits ([`VcParams::compact_layout`], session 35): the same
    /// connections in the same order, so the same tree, for about a quarter less CPU. On by
    /// default; off with `--no-compact-layout`; never with incremental updates.
    pub compact_layout: bool,
    /// Threads searching the position ([`parallel`]); 1 (the default) is the serial search.
    /// `--openings all` gives each opening one thread instead ([`openings`]).
    pub threads: usize,
    /// The initial disproof number of an evaluated open position ([`mid::Dfpn::eval_dn`]):
    /// [`mid::EvalDn::Moves`] (its move count, the default) or its children's count after
    /// vulnerable / dominated pruning. Default from `HEXPROOF_EVAL_DN` (0, 1, 2).
    pub eval_dn: mid::EvalDn,
    /// Keep a node's filled children between its expansions ([`mid::Dfpn::keep_children`]);
    /// on by default, off with `HEXPROOF_KEEP_CHILDREN=0`.
    pub keep_children: bool,
}

/// The move orderings available to [`solve`] ([`order`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// Cells near the centre first ([`Centrality`]).
    Centre,
    /// Cells of high circuit energy first ([`Resistance`]).
    Resistance,
    /// Cells of high energy in the circuits with a link for each of the node's own virtual
    /// connections ([`Evaluator::connection_scores`]); [`Resistance`] where the connections
    /// are off.
    Connections,
    /// The same circuits, cells scored by the current through them instead of their energy
    /// (the score of Benzene's resistance evaluation, by which its DFPN orders the moves;
    /// [`Evaluator::circuit_flow`]); [`Resistance`] where the connections are off.
    Flow,
}

impl Ordering {
    /// The ordering as a [`MoveOrder`].
    pub fn order(self) -> &'static dyn MoveOrder {
        match self {
            Ordering::Centre => &Centrality,
            Ordering::Resistance | Ordering::Connections | Ordering::Flow => &Resistance,
        }
    }
}

impl Default for SolveParams {
    fn default() -> Self {
        SolveParams {
            nodes: 5_000_000,
            time: None,
            tt_entries: 2_000_000,
            epsilon: 0.25,
            top_epsilon: Some(DEFAULT_TOP_EPSILON),
            top_first: true,
            top_pn_ratio: 0.0,
            features: Features::ALL,
            vc_variant: Variant::Fast,
            order: Ordering::Flow,
            semi_limit: SOLVER_SEMI_LIMIT,
            edge_semi_limit: SOLVER_EDGE_SEMI_LIMIT,
            edge_semi_limit_groups: false,
            semi_keep_smallest: false,
            capture_semis_unlimited: false,
            update_stones: vc_eval::MAX_UPDATE_STONES,
            db: None,
            child_dn: DEFAULT_CHILD_DN,
            shared: None,
            widening: Some((WIDENING_BASE, DEFAULT_WIDENING)),
            widening_step: 0,
            sticky: false,
            threat_order: 0,
            conductance: VcLinks::Direct,
            library_seeds: true,
            vc_fast_or: true,
            vc_capture_and: true,
            compact_layout: true,
            threads: 1,
            eval_dn: mid::EvalDn::from_env(),
            // On since session 27 (the same tree, −3 % CPU quiet); `HEXPROOF_KEEP_CHILDREN=0` off.
            keep_children: std::env::var_os("HEXPROOF_KEEP_CHILDREN").is_none_or(|v| v != "0"),
        }
    }
}

impl SolveParams {
    fn vc_params(&self) -> VcParams {
        let mut p = VcParams::new(self.vc_variant);
        p.budget = VcBudget {
            max_connections: 200_000,
            time: Some(Duration::from_secs(5)),
        };
        p.semi_limit = self.semi_limit;
        p.edge_semi_limit = self.edge_semi_limit;
        p.edge_semi_limit_groups = self.edge_semi_limit_groups;
        p.semi_keep_smallest = self.semi_keep_smallest;
        p.capture_semis_unlimited = self.capture_semis_unlimited;
        if self.vc_fast_or {
            p.full_or = false;
        }
        p.capture_and = self.vc_capture_and;
        // One-word builds on 8×8 (same connections; rebuilds only, so not with incremental
        // updates).
        p.compact_layout = self.compact_layout && !self.features.incremental;
        if self.library_seeds {
            p.seeds = crate::templates::seeds::library_seeds().to_vec();
        }
        p
    }

    fn rules(&self) -> InferiorRules {
        InferiorRules {
            dead: self.features.dead,
            captured: self.features.captured,
            decompose: self.features.decompose,
            patterns: self.features.ice_patterns,
            only: None,
        }
    }
}

/// Who wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// Black wins.
    Black,
    /// White wins.
    White,
    /// The budget ran out.
    Undecided,
}

impl Winner {
    fn of(c: Colour) -> Winner {
        match c {
            Colour::Black => Winner::Black,
            Colour::White => Winner::White,
        }
    }
}

/// Why a position cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// Somebody already joined their borders.
    #[error("the position is already won by {0}")]
    AlreadyWon(Colour),
    /// The board has too many cells.
    #[error("board {0} is too big for the solver (at most {MAX_CELLS} cells)")]
    TooBig(String),
}

/// The result of [`solve`].
#[derive(Clone, Debug, Serialize)]
pub struct SolveOutcome {
    /// Who wins with perfect play.
    pub winner: Winner,
    /// The player to move.
    pub to_move: Colour,
    /// A winning move of the player to move, when it wins.
    pub winning_move: Option<Cell>,
    /// Nodes evaluated.
    pub nodes: u64,
    /// Nodes decided by connections.
    pub vc_decided: u64,
    /// Transposition-table entries at the end.
    pub tt_entries: usize,
    /// Wall time in microseconds.
    pub micros: u64,
    /// Where the time went.
    pub profile: Profile,
}

/// Where a solve spent its time (wall clock of the solving thread, so on a loaded machine the
/// parts are inflated alike) and what the pruning did.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Profile {
    /// Connection builds (one colour each).
    pub vc_builds: u64,
    /// Builds skipped because the first build decided the node.
    pub vc_builds_skipped: u64,
    /// Of `vc_builds`: builds at node evaluations, ...
    pub vc_builds_eval: u64,
    /// ... for the win test of the player to move at expansion, ...
    pub vc_builds_own_test: u64,
    /// ... and for move ordering.
    pub vc_builds_order: u64,
    /// Builds not made because the colour's engine already held the position.
    pub vc_builds_reused: u64,
    /// Builds made on a position's compact one-word layout (8×8, [`SolveParams::compact_layout`]).
    pub vc_builds_compact: u64,
    /// Builds of a position and colour built before in the search (`HEXPROOF_BUILD_STATS=1`
    /// only; 0 otherwise).
    pub vc_builds_repeated: u64,
    /// Circuits kept at evaluations for ordering (solved, or lazily as their connection
    /// pairs); lookups of kept ones by an
    /// expansion; and circuits solved at expansions (none kept).
    pub circuits_kept: u64,
    /// (See `circuits_kept`.)
    pub circuits_used: u64,
    /// (See `circuits_kept`.)
    pub circuits_at_order: u64,
    /// Builds of the mover's connections skipped at children the parent's connections
    /// answer ([`dfpn`], "Own wins of a child").
    pub own_builds_skipped: u64,
    /// Of those, win tests made later, when the node was expanded.
    pub own_tests_at_expansion: u64,
    /// Stronger win tests made (`HEXPROOF_STRONG_WIN`, [`vc_eval::Evaluator::strong_win`]).
    pub strong_tests: u64,
    /// Wins they found.
    pub strong_wins: u64,
    /// Milliseconds in them (not in `vc_ms`).
    pub strong_ms: f64,
    /// Builds made as incremental updates of the previous position's connections.
    pub vc_updates: u64,
    /// Milliseconds in connection builds.
    pub vc_ms: f64,
    /// Milliseconds in incremental updates (of `vc_ms`).
    pub vc_update_ms: f64,
    /// Milliseconds in fill-in (dead cells, captured pairs).
    pub fill_ms: f64,
    /// Children refuted by proof-set pruning without search.
    pub proof_set_pruned: u64,
    /// Moves pruned as capture-dominated (at each expansion).
    pub dominated_pruned: u64,
    /// Lost nodes with capture-dominated moves that kept their union proof set
    /// ([`Features::dominated_proofs`]).
    pub dominated_proofs_kept: u64,
    /// Children refuted by the strategy-stealing argument ([`Features::strategy_stealing`]).
    pub stolen: u64,
    /// Positions answered by the database (`--db`).
    pub db_hits: u64,
    /// Positions answered by proof-set transpositions ([`Features::transpositions`]).
    pub transposed: u64,
    /// Solved positions answered by the searches of other openings (`--openings all`,
    /// [`shared`]).
    pub shared_hits: u64,
    /// Open positions evaluated by the searches of other openings (no connection builds).
    pub shared_evals: u64,
    /// Moves pruned as vulnerable (at each expansion).
    pub vulnerable_pruned: u64,
    /// Cells filled as regions cut off by opposite-colour bridges, in the children made at
    /// expansions.
    pub region_filled: u64,
    /// Cells filled by ICE patterns' captured sets ([`crate::ice`]) in the children made at
    /// expansions.
    pub pattern_filled: u64,
    /// Cells filled by every fill-in rule in the children made at expansions (divide by
    /// `children` for the mean fill of a child).
    pub child_filled: u64,
    /// Nodes searched as two halves (decompositions, Theorem 1).
    pub splits: u64,
    /// Cells removed from solved nodes' proof sets by proof-set reduction (Theorem 3).
    pub proof_set_reduced: u64,
    /// Nodes expanded.
    pub expansions: u64,
    /// Children made at expansions (after vulnerable and dominated moves were pruned).
    pub children: u64,
    /// Threads on one tree ([`parallel`]): children chosen by the virtual numbers (another
    /// thread was inside the best child).
    pub virtual_picks: u64,
    /// Sticky selection ([`mid::Dfpn::sticky`]): selections that kept the last child.
    pub sticky_picks: u64,
    /// Expansions that took their filled children from the kept ones
    /// ([`mid::Dfpn::keep_children`]).
    pub children_reused: u64,
}

impl Profile {
    /// Adds another thread's figures ([`parallel`]).
    pub fn add(&mut self, o: &Profile) {
        self.vc_builds += o.vc_builds;
        self.vc_builds_skipped += o.vc_builds_skipped;
        self.vc_builds_eval += o.vc_builds_eval;
        self.vc_builds_own_test += o.vc_builds_own_test;
        self.vc_builds_order += o.vc_builds_order;
        self.vc_builds_reused += o.vc_builds_reused;
        self.vc_builds_compact += o.vc_builds_compact;
        self.vc_builds_repeated += o.vc_builds_repeated;
        self.circuits_kept += o.circuits_kept;
        self.circuits_used += o.circuits_used;
        self.circuits_at_order += o.circuits_at_order;
        self.own_builds_skipped += o.own_builds_skipped;
        self.own_tests_at_expansion += o.own_tests_at_expansion;
        self.strong_tests += o.strong_tests;
        self.strong_wins += o.strong_wins;
        self.strong_ms += o.strong_ms;
        self.vc_updates += o.vc_updates;
        self.vc_ms += o.vc_ms;
        self.vc_update_ms += o.vc_update_ms;
        self.fill_ms += o.fill_ms;
        self.proof_set_pruned += o.proof_set_pruned;
        self.dominated_pruned += o.dominated_pruned;
        self.dominated_proofs_kept += o.dominated_proofs_kept;
        self.stolen += o.stolen;
        self.db_hits += o.db_hits;
        self.transposed += o.transposed;
        self.shared_hits += o.shared_hits;
        self.shared_evals += o.shared_evals;
        self.vulnerable_pruned += o.vulnerable_pruned;
        self.region_filled += o.region_filled;
        self.pattern_filled += o.pattern_filled;
        self.child_filled += o.child_filled;
        self.splits += o.splits;
        self.proof_set_reduced += o.proof_set_reduced;
        self.expansions += o.expansions;
        self.children += o.children;
        self.virtual_picks += o.virtual_picks;
        self.sticky_picks += o.sticky_picks;
        self.children_reused += o.children_reused;
    }

    /// The figures of one search.
    pub fn of(d: &Dfpn) -> Profile {
        let s = d.eval.stats;
        Profile {
            vc_builds: s.builds,
            vc_builds_skipped: s.skipped,
            vc_builds_eval: s.eval_builds,
            vc_builds_own_test: s.own_test_builds,
            vc_builds_order: s.order_builds,
            vc_builds_reused: s.reused,
            vc_builds_compact: s.compact,
            vc_builds_repeated: s.repeats,
            circuits_kept: s.circuits_kept,
            circuits_used: s.circuits_used,
            circuits_at_order: s.circuits_at_order,
            own_builds_skipped: s.own_skipped,
            own_tests_at_expansion: d.own_tests,
            strong_tests: s.strong_tests,
            strong_wins: s.strong_wins,
            strong_ms: s.strong_time.as_secs_f64() * 1e3,
            vc_updates: s.updates,
            vc_ms: s.vc_time.as_secs_f64() * 1e3,
            vc_update_ms: s.update_time.as_secs_f64() * 1e3,
            fill_ms: d.fill_time.as_secs_f64() * 1e3,
            proof_set_pruned: d.pruned,
            dominated_pruned: d.dominated_pruned,
            dominated_proofs_kept: d.dominated_proofs_kept,
            stolen: d.stolen,
            db_hits: d.db_hits,
            transposed: d.transposed,
            shared_hits: d.shared_hits,
            shared_evals: d.shared_evals,
            vulnerable_pruned: d.vulnerable_pruned,
            region_filled: d.region_filled,
            pattern_filled: d.pattern_filled,
            child_filled: d.child_filled,
            splits: d.splits,
            proof_set_reduced: d.reduced_cells,
            expansions: d.expansions,
            children: d.children,
            virtual_picks: d.virtual_picks,
            sticky_picks: d.sticky_picks,
            children_reused: d.children_reused,
        }
    }
}

/// Solves `pos` with `to_move` to play (with `params.threads` threads on one tree when
/// more than one, [`parallel`]).
pub fn solve(
    pos: &Position,
    to_move: Colour,
    params: &SolveParams,
) -> Result<SolveOutcome, SolveError> {
    if params.threads > 1 {
        return parallel::solve_parallel(pos, to_move, params).map(|(o, _)| o);
    }
    solve_with(pos, to_move, params, params.order.order())
}

/// Checks that `pos` can be handed to the solver.
pub fn check_position(pos: &Position) -> Result<(), SolveError> {
    let b = pos.board();
    if b.size() > MAX_CELLS {
        return Err(SolveError::TooBig(format!("{}x{}", b.cols(), b.rows())));
    }
    if let Some(w) = pos.winner() {
        return Err(SolveError::AlreadyWon(w));
    }
    Ok(())
}

/// A search ready to run on `params` (shared by [`solve_with`] and [`emit`]).
pub fn make_search<'a>(params: &SolveParams, order: &'a dyn MoveOrder, start: Instant) -> Dfpn<'a> {
    let f = params.features;
    let mut eval = Evaluator::new(params.vc_params(), f.vcs, f.vcs && f.mustplay);
    eval.incremental = f.incremental;
    eval.max_update_stones = params.update_stones;
    let mut d = Dfpn::new(
        eval,
        Table::new(params.tt_entries),
        params.rules(),
        params.epsilon,
        order,
    );
    d.max_nodes = params.nodes;
    if let Some((e, plies)) = params.top_epsilon {
        d.top_epsilon = e;
        d.top_plies = plies;
    }
    d.top_first = params.top_first;
    d.top_pn_ratio = params.top_pn_ratio;
    d.proof_sets = f.proof_sets;
    d.rotation = f.rotation;
    d.dominated = f.dominated;
    d.dominated_proofs = f.dominated_proofs;
    d.strategy_stealing = f.strategy_stealing;
    d.transpositions = f
        .transpositions
        .then(|| transpose::Transpositions::new(params.tt_entries));
    d.vulnerable = f.vulnerable;
    d.decompose = f.decompose;
    d.reduction = f.reduction;
    d.skip_own_wins = f.skip_own_wins;
    d.weak_dn = f.weak_dn;
    d.child_dn = params.child_dn.max(1);
    d.widening = params.widening;
    d.widening_step = params.widening_step;
    d.sticky = params.sticky;
    d.eval_dn = params.eval_dn;
    d.keep_children = params.keep_children;
    d.eval.circuit_links = params.conductance;
    d.vc_order = matches!(params.order, Ordering::Connections | Ordering::Flow);
    d.eval.circuit_flow = params.order == Ordering::Flow;
    d.eval.threat_order = params.threat_order;
    // HEXPROOF_KEEP_CIRCUITS=0 re-builds the connections at every expansion instead (for
    // the ablation; the order is the same up to rounding).
    d.eval.keep_circuits =
        d.vc_order && std::env::var_os("HEXPROOF_KEEP_CIRCUITS").is_none_or(|v| v != "0");
    // HEXPROOF_STRONG_WIN=K: the stronger win test at open nodes with at most K moves
    // (`Evaluator::strong_win`; off by default, an experiment of session 22).
    d.eval.strong_moves = std::env::var("HEXPROOF_STRONG_WIN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    d.db = params.db.clone();
    d.shared = params.shared.clone();
    d.deadline = params.time.map(|t| start + t);
    d
}

/// [`solve`] with a move ordering of your choice.
pub fn solve_with(
    pos: &Position,
    to_move: Colour,
    params: &SolveParams,
    order: &dyn MoveOrder,
) -> Result<SolveOutcome, SolveError> {
    check_position(pos)?;
    let start = Instant::now();
    let mut d = make_search(params, order, start);
    Ok(solve_in(&mut d, pos, to_move, start))
}

/// Solves `pos` with the search `d` (made by [`make_search`] at `start`), which keeps its
/// table: `prove::emit::emit_solved` then writes the proof from it without solving again.
pub fn solve_in(d: &mut Dfpn, pos: &Position, to_move: Colour, start: Instant) -> SolveOutcome {
    let root = d.filled(pos, to_move);
    let (pn, dn) = d.mid(&root, to_move, INF, INF);
    finish(d, pos, &root, to_move, pn, dn, start)
}

/// The outcome of a search of `pos` (filled: `root`) that ended with numbers (`pn`, `dn`)
/// at the root: the winner, a confirmed winning move, the figures.
fn finish(
    d: &mut Dfpn,
    pos: &Position,
    root: &Position,
    to_move: Colour,
    pn: u32,
    dn: u32,
    start: Instant,
) -> SolveOutcome {
    let winner = if pn == 0 {
        Winner::of(to_move)
    } else if dn == 0 {
        Winner::of(to_move.opponent())
    } else {
        Winner::Undecided
    };
    let winning_move = if pn == 0 {
        winning_move(d, pos, root, to_move)
    } else {
        None
    };
    if let Some(db) = &d.db {
        if let Err(e) = db.flush() {
            eprintln!("hexproof: {e}");
        }
    }
    SolveOutcome {
        winner,
        to_move,
        winning_move,
        nodes: d.nodes,
        vc_decided: d.vc_decided,
        tt_entries: d.tt.len(),
        micros: start.elapsed().as_micros() as u64,
        profile: Profile::of(d),
    }
}

/// A winning move at a won root `root` (the filled form of `pos`); `None` only if none could
/// be confirmed (never a guess).
fn winning_move(d: &mut Dfpn, pos: &Position, root: &Position, to_move: Colour) -> Option<Cell> {
    let e = d.entry(root, to_move);
    if let Some(m) = e.best {
        return Some(m);
    }
    // A won (filled) board: every move wins.
    if root.winner() == Some(to_move) {
        return pos.empty_cells().first();
    }
    confirmed_move(d, root, to_move, e.moves)
}

/// A move of `to_move` in filled `root` after which the opponent's node is lost, tried
/// first on the cells of `carrier` (the winning connection), then by the exact search on it.
pub fn confirmed_move(
    d: &mut Dfpn,
    root: &Position,
    to_move: Colour,
    carrier: CellSet,
) -> Option<Cell> {
    let opp = to_move.opponent();
    let empty = root.empty_cells();
    let cells = if carrier.is_empty() {
        empty
    } else {
        carrier & empty
    };
    let lost_after = |d: &mut Dfpn, c: Cell, search: bool| -> bool {
        let mut child = root.clone();
        if child.play(to_move, c).is_err() {
            return false;
        }
        let f = d.filled(&child, opp);
        if search {
            d.mid(&f, opp, INF, INF).1 == 0
        } else {
            d.entry(&f, opp).dn == 0
        }
    };
    // Cheap first: a carrier cell after which the connections already decide.
    if let Some(c) = cells.iter().find(|&c| lost_after(d, c, false)) {
        return Some(c);
    }
    // Then the key named by the exact search, confirmed by the solver.
    if let Some(k) = key_move(root, to_move, carrier).filter(|&k| lost_after(d, k, true)) {
        return Some(k);
    }
    // Last, the solver on each cell of the carrier (a winning VSC's key is among them).
    cells.iter().find(|&c| lost_after(d, c, true))
}

/// The first move of `owner`'s winning semi-connection on `carrier` in `pos`, by the exact
/// search (also right for a VC carrier: any winning first move).
pub fn key_move(pos: &Position, owner: Colour, carrier: CellSet) -> Option<Cell> {
    key_move_within(pos, owner, carrier, 2_000_000)
}

/// [`key_move`] with a node budget of the exact search (`None` when it runs out).
pub fn key_move_within(
    pos: &Position,
    owner: Colour,
    carrier: CellSet,
    nodes: u64,
) -> Option<Cell> {
    let [a, b] = owner.borders();
    let game = SubGame::new(
        pos.clone(),
        carrier,
        Claim {
            owner,
            pairs: vec![(Cell::border(a), Cell::border(b))],
            owner_first: true,
        },
    )
    .ok()?;
    // A node budget only: a wall-clock limit would make the answer depend on the machine's
    // load.
    let budget = Budget {
        nodes,
        time: None,
        ..Budget::default()
    };
    let out = local::decide(&game, &budget).ok()?;
    if out.verdict != local::Verdict::Holds {
        return None;
    }
    out.certificate.and_then(|c| c.first)
}

/// One opening: Black's first stone `cell` on the empty board, White to move.
#[derive(Clone, Debug, Serialize)]
pub struct OpeningResult {
    /// The opening cell.
    pub cell: Cell,
    /// The solve.
    pub outcome: SolveOutcome,
}

/// The borders of a colour as cells, for claims.
pub fn border_pair(colour: Colour) -> (Cell, Cell) {
    let [a, b]: [Border; 2] = colour.borders();
    (Cell::border(a), Cell::border(b))
}

#[cfg(test)]
pub(crate) mod tests_support {
    use crate::board::Colour;
    use crate::position::Position;

    /// Plain minimax over every empty cell (tiny boards only): true when `to_move` wins.
    pub fn minimax(pos: &Position, to_move: Colour) -> bool {
        if let Some(w) = pos.winner() {
            return w == to_move;
        }
        for c in pos.empty_cells().iter() {
            let mut p = pos.clone();
            p.play(to_move, c).unwrap();
            if !minimax(&p, to_move.opponent()) {
                return true;
            }
        }
        false
    }
}
