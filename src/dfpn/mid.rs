//! Depth-first proof-number search (DFPN) with the 1+ε trick.
//!
//! # Why DFPN and not DFS
//!
//! Henderson, Arneson & Hayward (2009, §5) solve 8×8 with a depth-first search that orders
//! moves by mustplay size and resistance and relies on proof sets. Their paper notes that
//! the bottleneck is the order of the moves at a node: DFS commits to a child until it is
//! solved. DFPN (Nagai 2002) instead always expands the *most-proving* node — the child
//! whose subtree is cheapest to decide, measured by proof and disproof numbers — and stays
//! depth-first (memory bounded by the transposition table) by giving each child thresholds
//! and returning when they are exceeded. Mustplay sizes enter naturally: a node's initial
//! disproof number is the number of its moves, so narrow mustplays are preferred. Benzene's
//! later solver is a DFPN for the same reason (Arneson, Hayward, Henderson, *Monte Carlo tree
//! search in Hex*, and Benzene's `DfpnSolver`). Hex has no repetitions, so DFPN's
//! graph-history-interaction problems do not arise.
//!
//! # The 1+ε trick
//!
//! Pawlewicz & Lew (*Improving depth-first PN-search: 1+ε trick*, CG 2006): a child's
//! disproof threshold is ⌈(1+ε)·dn₂⌉ instead of dn₂+1 (dn₂ the second-best child's value),
//! so the search does not bounce between two children of nearly equal cost. ε is
//! [`super::SolveParams::epsilon`]; 0 gives plain DFPN.
//!
//! # Values
//!
//! Proof numbers are from the point of view of the player to move: pn = 0 means it wins,
//! dn = 0 that it loses. A node's pn is the least disproof number of its children, its dn the
//! sum of their proof numbers. Leaves are evaluated by [`super::vc_eval`] (connections) after
//! fill-in ([`super::inferior`]); an undecided leaf gets pn = 1 and dn = its move count.
//!
//! # Weak disproof numbers (off by default)
//!
//! The search is on a DAG (transpositions, rotations), and the sum of the children's proof
//! numbers counts a subtree reached through several moves once per move, overestimating
//! how hard a node is to disprove. With [`Dfpn::weak_dn`] (`--weak-dn`) a node's disproof
//! number is instead the largest child proof number plus the number of other open children
//! (Ueda, Hashimoto, Hashimoto & Iida, *Weak proof-number search*, CG 2008), and the
//! selected child's proof threshold is th_dn − (open children − 1), the value at which it
//! would make the node's number reach th_dn. Only the search order changes: dn = 0 still
//! means every child is proved, and pn = 0 that one child is disproved, so it is as sound
//! as the sum. On 7×7 it moves single openings by −62 % to +81 % and the total of the 25
//! searched openings by −5.8 %, with the longest (a4) 19 % bigger, and 6×6 by +6 %
//! (BENCHMARKS.md, issue 7, branch tree9), so it stays off.
//!
//! # Proof sets (Henderson, Arneson & Hayward 2009, §5)
//!
//! A solved node keeps its **proof set**: the empty cells its winner's strategy may occupy.
//! *Proof-set pruning*: once one move of the loser is refuted with proof set S, every other
//! move outside S is refuted by the same strategy (it plays only in S, the loser's stone
//! outside S is never in its way, and a stone the loser did not get only helps the winner),
//! so those children are lost without search. The sets are computed recursively:
//!
//! - a node decided by connections: the winning carrier (a won board: empty);
//! - a won node: its winning child's set (the winning move included);
//! - a lost node: the union of its searched children's sets and of the opponent's VSC
//!   carriers that cut its moves down to the mustplay ([`super::vc_eval::mustplay_cover`]), and
//!   of each vulnerable move skipped with its killer ([`super::vulnerable`]); when capture
//!   domination skipped moves, the same union if each skipped move lies outside some
//!   refuted child's set, else no set (all empty cells; "Proof sets and dominated moves");
//! - a split node ([`super::decompose`], Theorem 1): a won one has the set of the half it
//!   wins; a lost one the union of each half's set restricted to that half's side;
//! - a child is searched in its filled form: its set, seen from the parent, also gets the
//!   cells the fill-in gave the winner (captured cells it answers in, dead cells given to
//!   it). Cells given to the loser need not be added: the loser playing there is just a
//!   loser's move the filled strategy already answers.
//!
//! Every set is then **reduced** before it is stored (Theorem 3, [`super::proof_set`]; off
//! with [`Dfpn::reduction`] = false): cells that become dead or loser-captured once the
//! loser holds everything outside the set are dropped.
//!
//! # Proof sets and dominated moves
//!
//! A move y skipped by capture domination ([`prune_dominated`]) is not searched, so it has no
//! proof set of its own. Until session 23 a lost node with such a move got no proof set at
//! all (all empty cells), and since domination prunes at most expansions, proof-set pruning
//! above it was almost never possible (7×7 b4: 183 children pruned by proof sets among
//! 49,737 made; docs/journal/solver-session23.md). But y is refuted exactly like a child that
//! proof-set pruning would skip whenever y lies outside the proof set S of a child refuted
//! by search: the loser's stone at y is outside S, so the winner's strategy on S answers it.
//! This is the usual case: for y pruned for a kept dominator m, y is a stone of the mover
//! in m's filled child, so it is not in m's proof set once m is refuted by search. So a lost
//! node keeps the union proof set when every skipped move lies outside the intersection of
//! the refuted children's sets (`Numbers::allowed`) — the condition under which proof-set
//! pruning itself refutes a child, with the same argument — and gets no set only otherwise.
//! Off with [`Dfpn::dominated_proofs`] = false (`--no-dominated-proofs`).
//!
//! # Strategy stealing (on by default)
//!
//! A child position that is its own image under a colour-swapping symmetry of a square board
//! is won by its player to move ([`stolen`], Nash's argument; Benzene's "losses via strategy
//! stealing"), so the move to it is refuted without search. On 7×7 this is White's reply
//! that mirrors Black's opening (b4: d2 and d6). The child is not stored in the table and
//! gets no proof set (all empty cells). Off with [`Dfpn::strategy_stealing`] = false
//! (`--no-strategy-stealing`).
//!
//! # Children not yet evaluated
//!
//! A child is evaluated (its connections built) only when the search selects it. Until then
//! it gets pn = 1 and dn = [`Dfpn::child_dn`]. With 1 (the classic initialisation) every
//! child of an expanded node is evaluated before any grandchild, since an unevaluated child
//! looks at least as promising as any evaluated one; a larger value lets the search go
//! deeper into an evaluated child whose mustplay is narrow (disproof number below it) before
//! paying for its siblings' evaluations. Initial values steer the search only: a node is
//! proved or disproved by evaluated leaves alone, so any positive value is sound.
//!
//! # Progressive widening (on by default)
//!
//! With [`Dfpn::widening`] = (base, factor) a node's pn and best child are taken over the
//! first `base + ⌈factor · live⌉` live children in move order only (Benzene's DFPN, factor
//! 0.25); the later ones are not evaluated until earlier ones are refuted (the window then
//! slides on), while dn still sums every child. With an unevaluated child's dn = 1, a node
//! without widening evaluates all its children before any grandchild: at an OR node whose
//! first move wins, every sibling evaluation is wasted. It pays only when the order puts
//! good moves first, so it is on together with the connection order
//! ([`Dfpn::vc_order`]): 7×7 c1 1,696 → 364 nodes, a3 9,115 → 3,585, a2 16,763 → 7,960,
//! b4 14,848 → 12,309 (docs/journal/solver-session21.md). Only the search order changes:
//! a value is still decided by evaluated leaves and solved children alone.
//!
//! A winning move outside the window is not looked at while a hard losing move inside it is
//! being refuted (7×7 b4 f2: c5 was 14th of 39 by circuit energy, the window 11 wide; 728
//! nodes, Benzene 4 builds). Scoring the cells by the current through them, as Benzene does
//! ([`super::vc_eval`], "Energy or current"), puts c5 5th (17 nodes), and is the default
//! since session 24.
//!
//! # Soft widening (off by default)
//!
//! With [`Dfpn::widening_step`] = s > 0 the window also admits children one at a time as the
//! window gets expensive: the first child beyond the window never searched from this node
//! (nor found in the table at the expansion) competes in the selection with the disproof
//! number s·(k + 1), k the children beyond the window already searched, which compete with
//! their own numbers from then on. When the best disproof number in the window grows past
//! that value (the 1+ε threshold of the best child stops there), the next child is evaluated.
//! The node's proof number is the least of these values, so it can be a virtual one: this
//! steers the search only (a node is still proved by a child disproved by search and
//! disproved by every child proved). Measured on six of 7×7 b4's replies it did not pay
//! (journal session 24), so it is off.
//!
//! # Sticky selection (off by default)
//!
//! Benzene's DFPN keeps the child it selected last while that child's disproof number stays
//! below the 1+ε threshold of the least one (it then gets that threshold), instead of
//! switching to the least child at once. With [`Dfpn::sticky`] (`--sticky`) the search does
//! the same ([`Dfpn::sticky_pick`]). In a serial search without transpositions the two
//! choices differ rarely: a child returns when its number reaches the 1+ε threshold of the
//! second-best one, and then it is no longer below the threshold of the new least one; they
//! differ when the numbers of other children changed meanwhile (the window slid after a
//! refutation and let in a child not yet evaluated, a sibling was solved through a
//! transposition) or a child's number fell. Only the order of the search changes.
//!
//! Benzene's selection also stops its scan at the first child that is lost for its mover
//! (a winning move). Here such a child has disproof number 0, which no later child beats
//! (the least is kept at the first), so the node's proof number is 0, the child is its best
//! and the node returns at once: the same choice without stopping the scan.
//!
//! # ε near the root (session 33; the solver's default since session 34)
//!
//! With [`Dfpn::top_plies`] = k > 0 the nodes less than k plies below the root use
//! [`Dfpn::top_epsilon`] instead of [`Dfpn::epsilon`] (`solve --top-epsilon E --top-plies
//! k`). At 8×8 a1 the winning reply d5 is first in the order, but as its proof grows its
//! disproof number passes its siblings' and the root switches to them, pushing each
//! sibling's number up to d5's: 22,388 of the 42,277 positions went to twelve siblings that
//! the proof never needs. A larger ε at the root lets d5 go on until its number is (1+ε)
//! times the next sibling's. Only the order of the search changes.
//!
//! With [`Dfpn::top_first`] only the first child in move order gets the larger ε (any
//! other child keeps [`Dfpn::epsilon`]): given to every child it makes the root stay in
//! whichever child is best, losing ones included (8×8 f1: 10,108 → 17,341 positions).
//! [`super::SolveParams`]'s default is ε = 1 at the root's first child
//! ([`super::DEFAULT_TOP_EPSILON`]); [`Dfpn::new`] leaves it off.
//!
//! # Own wins of a child
//!
//! An evaluation is two connection builds ([`super::vc_eval`]): the player to move's, to find
//! its win, and the opponent's, for the opponent's win and the mustplay. At an open node P
//! with X to move, the opponent Y's connections were built completely, Y has no winning VC,
//! and every move searched lies in each of Y's winning VSC carriers (the mustplay, §2; all
//! empty cells when Y has none). In the child C = P + X at m, Y to move, a winning VSC of Y
//! (carrier K, m ∉ K) would, if the fill-in gave Y no stone, already be a winning VSC of Y
//! in P avoiding m (C has the same Y stones, one more X stone and fewer empty cells; an X
//! stone outside K does not touch Y's strategy on K) — so m would not be in the mustplay.
//! Such a child is therefore evaluated with the opponent's build only
//! ([`Evaluator::evaluate_hint`]): X's winning VC or an empty mustplay still decide it, and
//! an open child gets its moves and numbers as before, marked
//! [`Entry::own_untested`]. The skipped test is **made before the node is expanded**
//! ([`Evaluator::own_win`] in [`Dfpn::mid`]), so a node is never searched below without it;
//! most evaluated children are never expanded (their siblings decide the parent first), and
//! they cost one build instead of two.
//!
//! Exactness: the FastVC engine is not monotone (its acceptance heuristic and VSC limits
//! depend on the whole board), so it does find some Y wins in C that it missed in P. Such a
//! child looks open (pn = 1) to its parent until it is selected; it is selected whenever its
//! value matters (to prove X's win through it, it must be expanded; to disprove P, every
//! child must be proved for Y), and then the test decides it exactly as the evaluation would
//! have. A value is still proved only by connections built and by children, so every answer
//! is as sound as before; only the order of the search (and so the node count) changes.
//! Off with [`Dfpn::skip_own_wins`] = false (`--no-skip-own-wins`).
//!
//! # Initial numbers of an evaluated position (session 27)
//!
//! An open position gets pn = 1 and a disproof number by [`Dfpn::eval_dn`]
//! (`HEXPROOF_EVAL_DN`): its move count ([`EvalDn::Moves`], the default), its move count
//! less its vulnerable moves ([`EvalDn::Vulnerable`]), or what its first expansion will give
//! ([`EvalDn::Children`]: the children made as at an expansion, vulnerable and dominated
//! moves pruned, each counted with its table proof number, 1 when new, 0 when lost by
//! strategy stealing). With the move count, a position's dn drops at its first expansion
//! when moves are pruned there (a discontinuity the parent's thresholds did not expect);
//! with the children's count it does not, as in Benzene's DFPN, whose consider set is
//! already pruned when a position is created. The value steers the search only: a node is
//! decided by its children and its connections alone.
//!
//! # Children kept between expansions (session 27)
//!
//! With [`Dfpn::keep_children`] (on by default since session 27; `HEXPROOF_KEEP_CHILDREN=0`
//! turns it off) a node's filled children
//! (before domination pruning, which depends on the order) are kept in a bounded store after
//! an expansion — and after an evaluation with [`EvalDn::Children`], which makes them — and
//! the next expansion of the same position with the same moves takes them instead of
//! playing and filling each move again. A child is a function of the position and its move,
//! so the search is the same node for node; only the fill-in work is saved (quiet, one
//! thread: six hardest 7×7 85.7 → 83.1 CPU-s, 8×8 g2 62.1 → 60.2, both 56,290 / 18,420
//! positions; peak memory 97 → 112 MB on g2).

//!
//! # Threads on one tree
//!
//! With [`Dfpn::tree`] set ([`super::parallel`]), several threads run this same MID loop on
//! one root: lookups read the numbers any thread last published, stores publish them, each
//! node is marked busy while a thread is inside it, the loop re-reads its children before
//! each selection (and returns when its node was solved elsewhere), and a busy best child
//! may be passed over for the child that is best under virtual numbers
//! ([`Dfpn::virtual_pick`]). Without it (one thread) none of this runs and the search is
//! the serial one, node for node. Values stay exact: see [`super::parallel`], "Soundness".

use super::decompose::split;
use super::inferior::{fill_in, geometry, InferiorRules};
use super::order::MoveOrder;
use super::tt::{Entry, Key, Symmetry, Table, INF};
use super::vc_eval::{Eval, Evaluator};
use super::vulnerable::killer;
use crate::board::Colour;
use crate::board::{Cell, CellSet};
use crate::position::Position;
use std::time::{Duration, Instant};

/// The search state for one root.
pub struct Dfpn<'a> {
    /// Connection evaluation.
    pub eval: Evaluator,
    /// Transposition table.
    pub tt: Table,
    /// Inferior-cell rules used for fill-in.
    pub rules: InferiorRules,
    /// ε of the 1+ε trick.
    pub epsilon: f64,
    /// ε of the 1+ε trick at the nodes less than [`Dfpn::top_plies`] plies below the root
    /// (see the module docs, "ε near the root").
    pub top_epsilon: f64,
    /// Plies below the root that use [`Dfpn::top_epsilon`]; 0 (the default): none.
    pub top_plies: u32,
    /// [`Dfpn::top_epsilon`] only for the first child in move order (the others get
    /// [`Dfpn::epsilon`]).
    pub top_first: bool,
    /// With [`Dfpn::top_first`]: the first child keeps [`Dfpn::top_epsilon`] only while its
    /// proof number is at least this multiple of its disproof number (it looks better for
    /// the node's mover than for the child's); 0 (the default): always. A search parameter
    /// only (see the module docs, "ε near the root").
    pub top_pn_ratio: f64,
    /// `HEXPROOF_TRACE_ROOT`: one line on stderr per child selection at the root.
    trace_root: bool,
    /// Plies below the root of the node being searched.
    depth: u32,
    /// Move ordering.
    pub order: &'a dyn MoveOrder,
    /// Proof-set pruning on.
    pub proof_sets: bool,
    /// Rotation transpositions in the table on.
    pub rotation: bool,
    /// The persistent database of solved positions with few stones, if any.
    pub db: Option<std::sync::Arc<super::db::SolvedDb>>,
    /// Positions answered by the database.
    pub db_hits: u64,
    /// Proof-set transpositions ([`super::transpose`]); `None`: off.
    pub transpositions: Option<super::transpose::Transpositions>,
    /// Positions answered by [`Dfpn::transpositions`].
    pub transposed: u64,
    /// Extra winner's stones a transposition may have (0–2).
    pub transposition_extra: usize,
    /// Solved positions shared with the other searches of the run ([`super::shared`]).
    pub shared: Option<std::sync::Arc<super::shared::SharedSolved>>,
    /// Solved positions answered by [`Dfpn::shared`].
    pub shared_hits: u64,
    /// Open positions whose evaluation came from [`Dfpn::shared`] (no connection builds).
    pub shared_evals: u64,
    /// Capture-domination pruning on ([`prune_dominated`]).
    pub dominated: bool,
    /// Moves pruned as dominated (counted at each expansion).
    pub dominated_pruned: u64,
    /// A lost node where domination pruned moves keeps the union proof set when every
    /// pruned move lies outside a refuted child's proof set (see the module docs,
    /// "Proof sets and dominated moves"); off: such a node gets no proof set (all empty
    /// cells), the rule before session 23.
    pub dominated_proofs: bool,
    /// Lost nodes where domination pruned moves that kept their union proof set.
    pub dominated_proofs_kept: u64,
    /// Children lost by the strategy-stealing argument ([`stolen`]) on (square boards).
    pub strategy_stealing: bool,
    /// Children refuted by the strategy-stealing argument (counted at each expansion).
    pub stolen: u64,
    /// Vulnerable-cell pruning on ([`super::vulnerable`]).
    pub vulnerable: bool,
    /// Moves pruned as vulnerable (counted at each expansion).
    pub vulnerable_pruned: u64,
    /// Cells filled as regions ([`super::decompose`]) in the children made at expansions.
    pub region_filled: u64,
    /// Cells filled by ICE patterns ([`crate::ice`]) in the children made at expansions.
    pub pattern_filled: u64,
    /// Cells filled (all rules) in the children made at expansions.
    pub child_filled: u64,
    /// Splits of the search into two halves (Theorem 1) on ([`super::decompose`]).
    pub decompose: bool,
    /// Nodes searched as two halves.
    pub splits: u64,
    /// Nodes evaluated (connection builds for both colours).
    pub nodes: u64,
    /// Most nodes.
    pub max_nodes: u64,
    /// Deadline.
    pub deadline: Option<Instant>,
    /// Set when a budget ran out.
    pub aborted: bool,
    /// Nodes decided by connections without search.
    pub vc_decided: u64,
    /// Children lost by proof-set pruning (counted at each expansion).
    pub pruned: u64,
    /// Time in fill-in.
    pub fill_time: Duration,
    /// Proof-set reduction on ([`super::proof_set`], Theorem 3).
    pub reduction: bool,
    /// Cells removed from proof sets by the reduction.
    pub reduced_cells: u64,
    /// Initial disproof number of a child not yet evaluated (see the module docs; at
    /// least 1).
    pub child_dn: u32,
    /// Skip the mover's own win test at a child the parent's connections already answer
    /// (see the module docs, "Own wins of a child").
    pub skip_own_wins: bool,
    /// Win tests made at expansion for nodes evaluated without one.
    pub own_tests: u64,
    /// Weak proof numbers (Ueda et al. 2008): a node's disproof number is the largest
    /// child proof number plus the number of other open children, not their sum (which
    /// counts a subtree reached by transpositions once per parent move).
    pub weak_dn: bool,
    /// Progressive widening (base, factor): a node chooses among the first
    /// `base + ⌈factor · live⌉` of its live children in search order, so the later ones
    /// are not evaluated until the first are refuted (see the module docs, "Progressive
    /// widening").
    pub widening: Option<(u32, f64)>,
    /// Soft widening (0: off): with [`Dfpn::widening`], the first child beyond the window
    /// that was never searched (nor found in the table) competes in the selection with the
    /// disproof number `widening_step · (k + 1)`, k the number of children beyond the window
    /// already searched, and a child beyond the window once searched competes with its own
    /// numbers (see the module docs, "Soft widening").
    pub widening_step: u32,
    /// Sticky selection (off by default; see the module docs, "Sticky selection"): the child
    /// selected last at a node is selected again while its disproof number stays below the
    /// 1+ε threshold of the least one.
    pub sticky: bool,
    /// Selections that kept the last child under [`Dfpn::sticky`] where the least disproof
    /// number is another child's.
    pub sticky_picks: u64,
    /// Order the children by the circuits of the node's own connections
    /// ([`Evaluator::connection_scores`]) instead of [`Dfpn::order`].
    pub vc_order: bool,
    /// Nodes expanded (children made).
    pub expansions: u64,
    /// Children made at expansions, after vulnerable and dominated moves were pruned.
    pub children: u64,
    /// The shared state of threads searching one tree ([`super::parallel`]); `None`: the
    /// serial search.
    pub tree: Option<std::sync::Arc<super::parallel::Tree>>,
    /// Children chosen by the virtual numbers instead of the serial choice (threads on one
    /// tree).
    pub virtual_picks: u64,
    /// The initial disproof number of an evaluated open position (see the module docs,
    /// "Initial numbers of an evaluated position").
    pub eval_dn: EvalDn,
    /// Keep a node's filled children between its expansions (see the module docs,
    /// "Children kept between expansions").
    pub keep_children: bool,
    /// Expansions that took their children from the kept ones ([`Dfpn::keep_children`]).
    pub children_reused: u64,
    kept: hashbrown::HashMap<Key, Made>,
    /// `HEXPROOF_TRACE_PLY` diagnostics (see [`PlyTrace`]); `None` when unset.
    ply: Option<Box<PlyTrace>>,
    sym: Option<Symmetry>,
    scratch: Vec<(i32, Cell)>,
}

/// The initial disproof number of an evaluated open position ([`Dfpn::eval_dn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalDn {
    /// Its move count (the mustplay after fill-in), the default.
    Moves,
    /// Its move count less its vulnerable moves.
    Vulnerable,
    /// What its first expansion would give: the sum of its children's proof numbers (1 for
    /// a child not in the table, 0 for one lost by strategy stealing) after vulnerable and
    /// dominated moves are pruned.
    Children,
}

impl EvalDn {
    /// From `HEXPROOF_EVAL_DN` (0: moves, 1: vulnerable, 2: children); moves when unset.
    pub fn from_env() -> EvalDn {
        match std::env::var("HEXPROOF_EVAL_DN").ok().as_deref() {
            Some("1") => EvalDn::Vulnerable,
            Some("2") => EvalDn::Children,
            _ => EvalDn::Moves,
        }
    }
}

/// Most positions whose children [`Dfpn::keep_children`] keeps (the store is cleared when
/// full).
const MAX_KEPT_CHILDREN: usize = 1 << 16;

/// A position's filled children before domination pruning, as kept between expansions.
struct Made {
    /// The moves they were made for (the entry's moves).
    moves: CellSet,
    /// The children of the moves not vulnerable, in the order of `moves`' cells.
    kids: Vec<Child>,
    /// The vulnerable moves and their killers.
    vulnerable: CellSet,
}

/// A child on the search stack.
#[derive(Clone)]
struct Child {
    mv: Cell,
    pos: Position,
    pn: u32,
    dn: u32,
    /// When solved: the proof set of its winner, seen from the parent (see the module docs).
    proof: CellSet,
    /// The parent's connections found no win for this child's player to move that avoids
    /// the move, and the fill-in gave that player nothing ("Own wins of a child").
    skip_own: bool,
    /// Searched from this node, or found in the table at the expansion (soft widening).
    seen: bool,
}

/// A node's numbers computed from its children ([`Dfpn::numbers`]).
struct Numbers {
    /// Proof number: the least disproof number of the children looked at.
    pn: u32,
    /// Disproof number.
    dn: u32,
    /// The child with the least disproof number (`usize::MAX` when none is left).
    best: usize,
    /// The second least disproof number.
    dn2: u32,
    /// Children not refuted.
    open: u32,
    /// Children refuted by proof-set pruning.
    pruned: u64,
    /// The cells in every refuted child's proof set.
    allowed: CellSet,
    /// The children (a prefix, in search order) the selection looks at (all of them without
    /// progressive widening).
    window: usize,
}

impl Numbers {
    /// True for a child refuted by proof-set pruning (not searched).
    fn is_pruned(&self, k: &Child) -> bool {
        k.pn != 0 && !self.allowed.contains(k.mv)
    }
}

/// `HEXPROOF_TRACE_ORDER=N`: print the children's order (move:score) at expansions of
/// positions with at most N stones on stderr (a diagnostic; read once).
fn trace_order() -> Option<usize> {
    static N: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *N.get_or_init(|| {
        std::env::var("HEXPROOF_TRACE_ORDER")
            .ok()
            .and_then(|v| v.parse().ok())
    })
}

/// `HEXPROOF_TRACE_PLY=N` (a diagnostic, session 28): the search's shape by depth, printed on
/// stderr when the search state is dropped. For every node within N plies of the root: its
/// visits, the positions evaluated below it (its own evaluation included) and the children
/// of its first expansion (moves, vulnerable, dominated, kept); for every depth: positions
/// evaluated, expansions, and positions evaluated there but never expanded.
struct PlyTrace {
    /// Plies traced per node.
    plies: usize,
    /// The moves from the root to the node being searched.
    path: Vec<Cell>,
    /// Per traced node (its path): visits, positions evaluated below, first expansion's
    /// (moves, vulnerable, dominated, kept), and its numbers when it last returned.
    nodes: std::collections::BTreeMap<Vec<Cell>, TraceNode>,
    /// Per depth: positions evaluated, expansions.
    depth: Vec<(u64, u64)>,
    /// Positions evaluated (key → depth of evaluation) and positions expanded.
    evaluated: hashbrown::HashMap<Key, usize>,
    expanded: hashbrown::HashSet<Key>,
    /// The board, for cell names.
    board: Option<crate::board::Board>,
}

/// One node of [`PlyTrace`].
#[derive(Default)]
struct TraceNode {
    visits: u64,
    evals: u64,
    /// First expansion: moves, vulnerable, dominated, children kept.
    first: Option<(u32, u32, u32, u32)>,
    /// When it last returned: its (pn, dn), its best child's index (the proving move when
    /// pn = 0) and, per child in search order, (move, pn, dn, searched from here).
    last: Option<(u32, u32, usize, Vec<(Cell, u32, u32, bool)>)>,
}

impl PlyTrace {
    /// Records the numbers of the traced node being searched as it returns.
    fn leave(&mut self, n: &Numbers, kids: &[Child]) {
        if self.path.len() > self.plies {
            return;
        }
        let node = self.nodes.entry(self.path.clone()).or_default();
        let ks = kids.iter().map(|k| (k.mv, k.pn, k.dn, k.seen)).collect();
        node.last = Some((n.pn, n.dn, n.best, ks));
    }

    fn from_env() -> Option<Box<PlyTrace>> {
        let plies = std::env::var("HEXPROOF_TRACE_PLY").ok()?.parse().ok()?;
        Some(Box::new(PlyTrace {
            plies,
            path: Vec::new(),
            nodes: std::collections::BTreeMap::new(),
            depth: Vec::new(),
            evaluated: hashbrown::HashMap::new(),
            expanded: hashbrown::HashSet::new(),
            board: None,
        }))
    }

    fn at_depth(&mut self) -> &mut (u64, u64) {
        let d = self.path.len();
        if self.depth.len() <= d {
            self.depth.resize(d + 1, (0, 0));
        }
        &mut self.depth[d]
    }
}

impl Drop for PlyTrace {
    fn drop(&mut self) {
        let Some(board) = self.board else {
            return;
        };
        let name = |c: &Cell| board.cell_name(*c, crate::board::Notation::Letters);
        let mut never = vec![0u64; self.depth.len()];
        for (k, &d) in &self.evaluated {
            if !self.expanded.contains(k) {
                never[d] += 1;
            }
        }
        for (d, &(evals, exps)) in self.depth.iter().enumerate() {
            eprintln!(
                "ply-depth {d}: evaluated {evals}, expansions {exps}, never expanded {}",
                never[d]
            );
        }
        let num = |v: u32| {
            if v >= INF {
                String::from("inf")
            } else {
                v.to_string()
            }
        };
        for (path, node) in &self.nodes {
            let p: Vec<String> = path.iter().map(name).collect();
            let f = node.first.map_or(String::from("-"), |(m, v, x, k)| {
                format!("moves {m} vulnerable {v} dominated {x} kids {k}")
            });
            // The final numbers: pn 0 = proved (by `best`), dn 0 = disproved.
            let l = node
                .last
                .as_ref()
                .map_or(String::from(""), |(pn, dn, best, ks)| {
                    let b = ks.get(*best).map_or(String::from("-"), |k| name(&k.0));
                    let order: Vec<String> = ks
                        .iter()
                        .map(|&(c, kp, kd, seen)| {
                            let s = if seen { "" } else { "~" };
                            format!("{}{s}:{}/{}", name(&c), num(kp), num(kd))
                        })
                        .collect();
                    format!(
                        " final: pn {} dn {} best {b} rank {best} kids: {}",
                        num(*pn),
                        num(*dn),
                        order.join(" ")
                    )
                });
            eprintln!(
                "ply-node [{}] visits {} evaluated {} first: {f}{l}",
                p.join(" "),
                node.visits,
                node.evals
            );
        }
    }
}

/// The key of a (filled) position.
pub fn key_of(pos: &Position, to_move: Colour) -> Key {
    Key {
        black: pos.stones(Colour::Black),
        white: pos.stones(Colour::White),
        to_move,
    }
}

/// A child's proof set `s` (for `winner`, in the filled child `child`) seen from the parent
/// `parent`: plus the parent's empty cells that hold `winner`'s stones in the child (its
/// move, and what the fill-in gave it).
fn lift(s: CellSet, parent: &Position, child: &Position, winner: Colour) -> CellSet {
    s | (parent.empty_cells() & child.stones(winner))
}

/// Capture-domination pruning (Henderson, Arneson & Hayward 2009 §3: a P-move into a cell
/// that a P-move elsewhere captures is inferior), derived from the children's fill-in
/// instead of patterns: when `to_move` P plays m and the fill-in of the child gives P
/// stones on other empty cells D(m) (dead cells, P-captured sets) and gives the opponent
/// nothing, then for every y in D(m), P at y is no better than P at m: the child after m has
/// the value of the filled child, which has every P stone of the position after y and the
/// same opponent stones, and an extra own stone never hurts in Hex.
///
/// Moves dominated by a move not yet pruned are removed, in the children's order; since a
/// move is pruned only for one still kept at that time, following the dominators from any
/// pruned move ends at a kept move (each step goes to a move pruned later or never), so the
/// best move survives. Returns the pruned moves.
fn prune_dominated(pos: &Position, to_move: Colour, kids: &mut Vec<Child>) -> CellSet {
    let opp = to_move.opponent();
    let empty = pos.empty_cells();
    let opp_stones = pos.stones(opp);
    let dominates: Vec<CellSet> = kids
        .iter()
        .map(|k| {
            if k.pos.stones(opp) != opp_stones {
                return CellSet::EMPTY;
            }
            let mut d = k.pos.stones(to_move) & empty;
            d.remove(k.mv);
            d
        })
        .collect();
    let mut pruned = CellSet::EMPTY;
    let moves: Vec<Cell> = kids.iter().map(|k| k.mv).collect();
    for &y in &moves {
        let by_kept = moves
            .iter()
            .zip(&dominates)
            .any(|(&m, d)| m != y && !pruned.contains(m) && d.contains(y));
        if by_kept {
            pruned.insert(y);
        }
    }
    if !pruned.is_empty() {
        kids.retain(|k| !pruned.contains(k.mv));
    }
    pruned
}

/// True when the player to move wins `pos` by the strategy-stealing argument: the board is
/// square and the position is its own image under a colour-swapping symmetry — the
/// long-diagonal reflection `(c, r) ↦ (r, c)` or that reflection after the 180° rotation,
/// `(c, r) ↦ (n−1−r, n−1−c)` — with the colours exchanged.
///
/// Soundness (Nash's argument, as Benzene's "losses via strategy stealing"): let σ be such a
/// symmetry with σ(Black stones) = White stones. σ maps the board onto itself, adjacency onto
/// adjacency and Black's borders onto White's, so the position with X to move is the
/// position with Y to move with the roles exchanged. If X to move lost, Y (second) would win
/// it; by the symmetry X would win it as second player with Y to move; then X to move plays
/// any stone and follows that second-player strategy (an extra stone never hurts in Hex, and
/// when the strategy asks for the cell of the extra stone X plays another arbitrary cell) —
/// X wins, a contradiction (Hex has no draws). A symmetric position is never already won
/// (both would be connected). The argument gives no proof set: the caller uses all empty
/// cells.
pub fn stolen(pos: &Position) -> bool {
    let board = pos.board();
    let n = board.cols();
    if n != board.rows() {
        return false;
    }
    let (b, w) = (pos.stones(Colour::Black), pos.stones(Colour::White));
    if b.len() != w.len() {
        return false;
    }
    let image = |f: &dyn Fn(u8, u8) -> Cell| -> CellSet {
        b.iter()
            .map(|c| {
                let (x, y) = c.coords();
                f(x, y)
            })
            .collect()
    };
    image(&|x, y| Cell::at(y, x)) == w || image(&|x, y| Cell::at(n - 1 - y, n - 1 - x)) == w
}

impl<'a> Dfpn<'a> {
    /// A search with the given components.
    pub fn new(
        eval: Evaluator,
        tt: Table,
        rules: InferiorRules,
        epsilon: f64,
        order: &'a dyn MoveOrder,
    ) -> Dfpn<'a> {
        Dfpn {
            eval,
            tt,
            rules,
            epsilon,
            top_epsilon: epsilon,
            top_plies: 0,
            top_first: false,
            top_pn_ratio: 0.0,
            trace_root: std::env::var_os("HEXPROOF_TRACE_ROOT").is_some(),
            depth: 0,
            order,
            proof_sets: true,
            rotation: true,
            dominated: true,
            dominated_pruned: 0,
            dominated_proofs: true,
            dominated_proofs_kept: 0,
            strategy_stealing: true,
            stolen: 0,
            vulnerable: true,
            vulnerable_pruned: 0,
            region_filled: 0,
            pattern_filled: 0,
            child_filled: 0,
            decompose: true,
            splits: 0,
            db: None,
            db_hits: 0,
            transpositions: None,
            transposed: 0,
            transposition_extra: std::env::var("HEXPROOF_TRANSPOSE_EXTRA")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(1),
            shared: None,
            shared_hits: 0,
            shared_evals: 0,
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            aborted: false,
            vc_decided: 0,
            pruned: 0,
            fill_time: Duration::ZERO,
            reduction: true,
            reduced_cells: 0,
            child_dn: 1,
            skip_own_wins: true,
            own_tests: 0,
            weak_dn: false,
            widening: None,
            widening_step: 0,
            sticky: false,
            sticky_picks: 0,
            vc_order: false,
            expansions: 0,
            children: 0,
            tree: None,
            virtual_picks: 0,
            eval_dn: EvalDn::Moves,
            keep_children: false,
            children_reused: 0,
            kept: hashbrown::HashMap::new(),
            ply: PlyTrace::from_env(),
            sym: None,
            scratch: Vec::new(),
        }
    }

    /// `pos` after fill-in for `to_move`.
    pub fn filled(&self, pos: &Position, to_move: Colour) -> Position {
        let mut p = pos.clone();
        fill_in(&mut p, self.rules, to_move);
        p
    }

    fn budget_left(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        // With threads on one tree the node budget counts every thread's nodes, and a
        // thread stops when another one's root search returned.
        let nodes = match &self.tree {
            None => self.nodes,
            Some(t) if t.stop.load(std::sync::atomic::Ordering::Relaxed) => {
                self.aborted = true;
                return false;
            }
            Some(t) => t.nodes.load(std::sync::atomic::Ordering::Relaxed),
        };
        if nodes >= self.max_nodes {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(16) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        !self.aborted
    }

    /// The table key of `pos` (canonical under rotation when that is on) and whether it is
    /// the rotated one.
    fn key(&mut self, pos: &Position, to_move: Colour) -> (Key, bool) {
        let key = key_of(pos, to_move);
        if !self.rotation {
            return (key, false);
        }
        if self.sym.as_ref().is_none_or(|s| s.board() != pos.board()) {
            self.sym = Some(Symmetry::new(pos.board()));
        }
        self.sym.as_ref().expect("just set").canonical(key)
    }

    /// What the table knows about filled `pos` (without evaluating it).
    pub fn lookup(&mut self, pos: &Position, to_move: Colour) -> Option<Entry> {
        let (key, rotated) = self.key(pos, to_move);
        let local = self.tt.get(&key).copied();
        // A solved entry of another search (or thread) replaces an open local one; a
        // position new here may have been evaluated by another search.
        let solved = |e: &Entry| e.pn == 0 || e.dn == 0;
        let mut e = match local {
            Some(e) if solved(&e) => e,
            _ => match self.shared.as_ref().and_then(|s| s.get(&key)) {
                Some(e) if solved(&e) || local.is_none() => {
                    if solved(&e) {
                        self.shared_hits += 1;
                    } else {
                        self.shared_evals += 1;
                    }
                    self.tt.put(key, e);
                    e
                }
                _ => match self.deduced(&key, rotated, pos) {
                    Some(e) => e,
                    None => local?,
                },
            },
        };
        // Threads on one tree: the latest numbers any thread published for an open position.
        if let Some(t) = self.tree.as_ref().filter(|_| !solved(&e)) {
            if let Some((pn, dn)) = t.numbers(&key) {
                e.pn = pn;
                e.dn = dn;
            }
        }
        Some(match (rotated, &self.sym) {
            (true, Some(s)) => s.entry(e),
            _ => e,
        })
    }

    /// A solved entry for canonical `key` (of filled `pos`, the rotated key when
    /// `rotated`) deduced by a proof-set transposition, its proof set reduced as a solved
    /// node's, stored in the table, if any ([`super::transpose`]).
    fn deduced(&mut self, key: &Key, rotated: bool, pos: &Position) -> Option<Entry> {
        let d = self
            .transpositions
            .as_ref()?
            .get(key, self.transposition_extra)?;
        self.transposed += 1;
        let wins = d.winner == key.to_move;
        let mut e = Entry {
            pn: if wins { 0 } else { INF },
            dn: if wins { INF } else { 0 },
            moves: d.proof,
            best: d.best,
            proof: d.proof,
            own_untested: false,
        };
        if self.reduction {
            let sym = self.sym.as_ref().filter(|_| rotated);
            let here = sym.map_or(d.proof, |s| s.set(d.proof));
            let r = super::proof_set::reduce(pos, d.winner, here);
            e.proof = sym.map_or(r, |s| s.set(r));
        }
        self.tt.put(*key, e);
        Some(e)
    }

    fn store(&mut self, pos: &Position, to_move: Colour, mut e: Entry) {
        if self.reduction && (e.pn == 0 || e.dn == 0) {
            let winner = if e.pn == 0 {
                to_move
            } else {
                to_move.opponent()
            };
            let r = super::proof_set::reduce(pos, winner, e.proof);
            self.reduced_cells += (e.proof & pos.empty_cells()).len() as u64 - r.len() as u64;
            e.proof = r;
        }
        self.store_as_is(pos, to_move, e);
    }

    /// [`Dfpn::store`] without proof-set reduction.
    fn store_as_is(&mut self, pos: &Position, to_move: Colour, e: Entry) {
        let (key, rotated) = self.key(pos, to_move);
        let e = match (rotated, &self.sym) {
            (true, Some(s)) => s.entry(e),
            _ => e,
        };
        if let Some(db) = &self.db {
            if (e.pn == 0 || e.dn == 0) && super::db::stones(&key) <= db.max_stones {
                let s = super::db::Solved {
                    to_move_wins: e.pn == 0,
                    best: e.best.filter(|_| e.pn == 0),
                };
                db.put(pos.board(), &key, s);
            }
        }
        if let Some(shared) = &self.shared {
            shared.put(key, e);
        }
        if let Some(t) = self
            .transpositions
            .as_mut()
            .filter(|_| e.pn == 0 || e.dn == 0)
        {
            let winner = if e.pn == 0 {
                key.to_move
            } else {
                key.to_move.opponent()
            };
            t.put(&key, winner, e.proof, e.best);
        }
        if let Some(t) = &self.tree {
            t.publish(key, e.pn, e.dn);
        }
        self.tt.put(key, e);
    }

    /// The database's answer for filled `pos` (as a table entry without a proof set).
    fn db_entry(&mut self, pos: &Position, to_move: Colour) -> Option<Entry> {
        let db = self.db.clone()?;
        let (key, rotated) = self.key(pos, to_move);
        if super::db::stones(&key) > db.max_stones {
            return None;
        }
        let s = db.get(pos.board(), &key)?;
        let empty = pos.empty_cells();
        let best = match (rotated, &self.sym) {
            (true, Some(sym)) => s.best.map(|c| sym.cell(c)),
            _ => s.best,
        }
        .filter(|&c| empty.contains(c));
        self.db_hits += 1;
        Some(Entry {
            pn: if s.to_move_wins { 0 } else { INF },
            dn: if s.to_move_wins { INF } else { 0 },
            moves: empty,
            best,
            proof: empty,
            own_untested: false,
        })
    }

    /// The table entry of filled `pos`, evaluating it if new.
    pub fn entry(&mut self, pos: &Position, to_move: Colour) -> Entry {
        self.entry_hint(pos, to_move, false)
    }

    /// [`Dfpn::entry`]; with `skip_own`, a new position is evaluated without the win test
    /// of the player to move ("Own wins of a child").
    fn entry_hint(&mut self, pos: &Position, to_move: Colour, skip_own: bool) -> Entry {
        if let Some(e) = self.lookup(pos, to_move) {
            return e;
        }
        if let Some(e) = self.db_entry(pos, to_move) {
            self.store_as_is(pos, to_move, e);
            return e;
        }
        self.nodes += 1;
        if let Some(t) = &self.tree {
            t.nodes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        if self.ply.is_some() {
            let (key, _) = self.key(pos, to_move);
            let t = self.ply.as_mut().expect("checked");
            t.at_depth().0 += 1;
            let d = t.path.len();
            t.evaluated.insert(key, d);
            if t.board.is_none() {
                t.board = Some(*pos.board());
            }
        }
        let e = match self.eval.evaluate_hint(pos, to_move, skip_own) {
            Eval::Win(c) => {
                self.vc_decided += 1;
                Entry::won_by_connection(c)
            }
            Eval::Loss(c) => {
                self.vc_decided += 1;
                Entry {
                    pn: INF,
                    dn: 0,
                    moves: c,
                    best: None,
                    proof: c,
                    own_untested: false,
                }
            }
            Eval::Open { moves, reason } => Entry {
                pn: 1,
                dn: self.initial_dn(pos, to_move, moves),
                moves,
                best: None,
                proof: reason,
                own_untested: skip_own,
            },
        };
        self.store(pos, to_move, e);
        e
    }

    /// The proof set of a solved child `kid` (filled, `mover` to move) seen from `parent`;
    /// all of the parent's empty cells when the table no longer has it.
    fn child_proof(
        &mut self,
        parent: &Position,
        kid: &Position,
        mover: Colour,
        pn: u32,
    ) -> CellSet {
        let winner = if pn == 0 { mover } else { mover.opponent() };
        match self.lookup(kid, mover) {
            Some(e) if e.pn == 0 || e.dn == 0 => lift(e.proof, parent, kid, winner),
            _ => parent.empty_cells(),
        }
    }

    /// Multiple iterative deepening at filled `pos`: searches until its proof number reaches
    /// `th_pn` or its disproof number `th_dn` (or the budget runs out); returns (pn, dn).
    pub fn mid(&mut self, pos: &Position, to_move: Colour, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.mid_hint(pos, to_move, th_pn, th_dn, false)
    }

    /// [`Dfpn::mid`], with `skip_own` passed to the evaluation of `pos` if it is new.
    fn mid_hint(
        &mut self,
        pos: &Position,
        to_move: Colour,
        th_pn: u32,
        th_dn: u32,
        skip_own: bool,
    ) -> (u32, u32) {
        let entry = match self.open_entry(pos, to_move, th_pn, th_dn, skip_own) {
            Ok(e) => e,
            Err(numbers) => return numbers,
        };
        let Some(tree) = self.tree.clone() else {
            return self.mid_open(pos, to_move, entry, th_pn, th_dn);
        };
        // Threads on one tree: this thread is inside `pos` until it returns.
        let (key, _) = self.key(pos, to_move);
        tree.enter(key);
        let r = self.mid_open(pos, to_move, entry, th_pn, th_dn);
        tree.leave(key);
        r
    }

    /// [`Dfpn::mid`] at an open node below its thresholds, with its entry.
    fn mid_open(
        &mut self,
        pos: &Position,
        to_move: Colour,
        entry: Entry,
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32) {
        let opp = to_move.opponent();
        if self.decompose {
            let geo = geometry(pos.board());
            let (b, w) = (pos.stones(Colour::Black), pos.stones(Colour::White));
            if let Some((side1, side2)) = split(&geo, b, w, opp) {
                self.splits += 1;
                return self.mid_split(pos, to_move, [side1, side2], th_pn, th_dn);
            }
        }
        if let Some(t) = self.ply.as_mut().filter(|t| t.path.len() <= t.plies) {
            t.nodes.entry(t.path.clone()).or_default().visits += 1;
        }
        let (mut kids, vulnerable, dominated) = self.expand(pos, to_move, &entry);
        let mut counted_pruned = false;
        let mut counted_kept = false;
        // Threads inside each child (threads on one tree only).
        let mut busy: Vec<u32> = Vec::new();
        // The child selected last (sticky selection).
        let mut last = usize::MAX;
        loop {
            if let Some(tree) = self.tree.clone() {
                // Solved by another thread (through a transposition, or above us).
                if let Some(e) = self.lookup(pos, to_move).filter(|e| e.pn == 0 || e.dn == 0) {
                    return (e.pn, e.dn);
                }
                self.refresh(pos, opp, &mut kids, &tree, &mut busy);
            }
            let n = self.numbers(pos, &kids);
            if (n.pn == 0 || n.dn == 0) && !counted_pruned {
                self.pruned += n.pruned;
                counted_pruned = true;
            }
            let proof = if n.pn == 0 {
                kids[n.best].proof
            } else if n.dn == 0
                && !dominated.is_empty()
                && !(self.dominated_proofs && dominated.is_disjoint(&n.allowed))
            {
                // A pruned move inside every refuted child's proof set was refuted only
                // through its dominator's fill-in: no proof set is derived (all empty cells,
                // so it prunes nothing). See "Proof sets and dominated moves".
                pos.empty_cells()
            } else if n.dn == 0 {
                if !dominated.is_empty() && !counted_kept {
                    self.dominated_proofs_kept += 1;
                    counted_kept = true;
                }
                let mut s = entry.proof | vulnerable;
                for k in kids.iter().filter(|k| !n.is_pruned(k)) {
                    s |= k.proof;
                }
                s
            } else {
                entry.proof
            };
            let best_move = kids.get(n.best).map(|k| k.mv);
            self.store(
                pos,
                to_move,
                Entry {
                    pn: n.pn,
                    dn: n.dn,
                    moves: entry.moves,
                    best: best_move,
                    proof,
                    own_untested: false,
                },
            );
            let (pn, dn) = (n.pn, n.dn);
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || !self.budget_left() {
                if let Some(t) = self.ply.as_mut() {
                    t.leave(&n, &kids);
                }
                return (pn, dn);
            }
            let first = n.best == 0
                && (self.top_pn_ratio <= 0.0
                    || kids[0].pn as f64 >= self.top_pn_ratio * kids[0].dn as f64);
            let grown = self.grown_at(n.dn2, first);
            let (mut pick, mut child_th_dn) = (n.best, th_pn.min(grown).min(INF));
            if let Some((alt, th)) = self.sticky_pick(&kids, &n, last, th_pn) {
                (pick, child_th_dn) = (alt, th);
                self.sticky_picks += 1;
            }
            if let Some((alt, th)) = self.virtual_pick(&kids, &n, &busy, th_pn) {
                (pick, child_th_dn) = (alt, th);
                self.virtual_picks += 1;
            }
            last = pick;
            let child_th_pn = if self.weak_dn {
                // The child's pn makes the node's dn reach th_dn when it is the largest.
                (th_dn - (n.open - 1)).min(INF)
            } else {
                (th_dn - dn).saturating_add(kids[pick].pn).min(INF)
            };
            if self.trace_root && self.depth == 0 {
                let k = &kids[pick];
                eprintln!(
                    "root-pick nodes {} pn {} dn {} pick {} rank {} kid {}/{} dn2 {} th {}",
                    self.nodes,
                    pn,
                    dn,
                    pos.board().cell_name(k.mv, crate::board::Notation::Letters),
                    pick,
                    k.pn,
                    k.dn,
                    n.dn2,
                    child_th_dn
                );
            }
            kids[pick].seen = true;
            let kid_pos = kids[pick].pos.clone();
            let kid_skip = kids[pick].skip_own;
            let before = self.nodes;
            if let Some(t) = self.ply.as_mut() {
                t.path.push(kids[pick].mv);
            }
            self.depth += 1;
            let (cpn, cdn) = self.mid_hint(&kid_pos, opp, child_th_pn, child_th_dn, kid_skip);
            self.depth -= 1;
            if let Some(t) = self.ply.as_mut() {
                if t.path.len() <= t.plies {
                    t.nodes.entry(t.path.clone()).or_default().evals += self.nodes - before;
                }
                t.path.pop();
            }
            let best = &mut kids[pick];
            best.pn = cpn;
            best.dn = cdn;
            if cpn == 0 || cdn == 0 {
                best.proof = self.child_proof(pos, &kid_pos, opp, cpn);
            }
        }
    }

    /// Threads on one tree: re-reads the children of `pos` (their numbers as last published
    /// by any thread, or their solved values) and how many threads are inside each.
    fn refresh(
        &mut self,
        pos: &Position,
        opp: Colour,
        kids: &mut [Child],
        tree: &super::parallel::Tree,
        busy: &mut Vec<u32>,
    ) {
        busy.clear();
        for k in kids.iter_mut() {
            if k.pn == 0 || k.dn == 0 {
                busy.push(0);
                continue;
            }
            if let Some(e) = self.lookup(&k.pos, opp) {
                k.pn = e.pn;
                k.dn = e.dn;
                if e.pn == 0 || e.dn == 0 {
                    let w = if e.pn == 0 { opp } else { opp.opponent() };
                    k.proof = lift(e.proof, pos, &k.pos, w);
                }
            }
            let (key, _) = self.key(&k.pos, opp);
            busy.push(tree.busy(&key));
        }
    }

    /// Threads on one tree ([`super::parallel`]): when the best child `n.best` has threads
    /// inside, the child that is best under the virtual disproof numbers dn·(1 + threads
    /// inside), with its disproof threshold (the 1+ε threshold above the second-best virtual
    /// value, at most `th_pn`); `None` for the serial choice (the best child is free, the
    /// virtual choice is the best child, or its disproof number is not below `th_pn`). With
    /// progressive widening only the children the selection looks at are candidates.
    fn virtual_pick(
        &self,
        kids: &[Child],
        n: &Numbers,
        busy: &[u32],
        th_pn: u32,
    ) -> Option<(usize, u32)> {
        if busy.get(n.best).is_none_or(|&b| b == 0) {
            return None;
        }
        let (mut pick, mut v1, mut v2) = (usize::MAX, INF, INF);
        for (i, k) in kids.iter().enumerate().take(n.window) {
            if k.pn == 0 || k.dn == 0 || n.is_pruned(k) {
                continue;
            }
            let v = k.dn.saturating_mul(1 + busy[i]).min(INF);
            if pick == usize::MAX || v < v1 {
                v2 = v1;
                v1 = v;
                pick = i;
            } else if v < v2 {
                v2 = v;
            }
        }
        if pick == usize::MAX || pick == n.best || kids[pick].dn >= th_pn {
            return None;
        }
        Some((pick, th_pn.min(self.grown(v2)).min(INF)))
    }

    /// Sticky selection ([`Dfpn::sticky`]): the child `last` selected at the previous step,
    /// with the disproof threshold min(`th_pn`, the 1+ε threshold above the least disproof
    /// number), when it is not the best child, is still open, in the window and not pruned,
    /// and its disproof number is below that threshold; `None` for the usual choice. Serial
    /// search only (threads on one tree choose by [`Dfpn::virtual_pick`]).
    fn sticky_pick(
        &self,
        kids: &[Child],
        n: &Numbers,
        last: usize,
        th_pn: u32,
    ) -> Option<(usize, u32)> {
        if !self.sticky || self.tree.is_some() || last == n.best || last >= n.window {
            return None;
        }
        let k = kids.get(last)?;
        if k.pn == 0 || k.dn == 0 || n.is_pruned(k) {
            return None;
        }
        let th = th_pn.min(self.grown(n.pn)).min(INF);
        (k.dn < th).then_some((last, th))
    }

    /// The 1+ε threshold above a second-best value `v`: ⌈(1+ε)·v⌉, at least v + 1 (ε is
    /// [`Dfpn::top_epsilon`] within [`Dfpn::top_plies`] of the root).
    fn grown(&self, v: u32) -> u32 {
        self.grown_at(v, true)
    }

    /// [`Dfpn::grown`] for a child that is (`first`) or is not the first in move order: with
    /// [`Dfpn::top_first`] only the first child gets [`Dfpn::top_epsilon`].
    fn grown_at(&self, v: u32, first: bool) -> u32 {
        let e = if self.depth < self.top_plies && (first || !self.top_first) {
            self.top_epsilon
        } else {
            self.epsilon
        };
        let eps = ((v as f64) * (1.0 + e)).ceil();
        let grow = if eps >= INF as f64 { INF } else { eps as u32 };
        grow.max(v.saturating_add(1))
    }

    /// The entry of `pos` when it is to be searched below: `Err` with its numbers when it is
    /// solved, over a threshold or out of budget. The win test skipped at its evaluation
    /// ("Own wins of a child") is made here.
    fn open_entry(
        &mut self,
        pos: &Position,
        to_move: Colour,
        th_pn: u32,
        th_dn: u32,
        skip_own: bool,
    ) -> Result<Entry, (u32, u32)> {
        let entry = self.entry_hint(pos, to_move, skip_own);
        if entry.pn == 0 || entry.dn == 0 || entry.pn >= th_pn || entry.dn >= th_dn {
            return Err((entry.pn, entry.dn));
        }
        if !self.budget_left() {
            return Err((entry.pn, entry.dn));
        }
        if !entry.own_untested {
            return Ok(entry);
        }
        self.own_tests += 1;
        let win = self.eval.own_win(pos, to_move);
        if let Some(c) = win.or_else(|| self.eval.strong_win(pos, to_move, entry.moves)) {
            self.vc_decided += 1;
            let e = Entry::won_by_connection(c);
            self.store(pos, to_move, e);
            return Err((0, INF));
        }
        let e = Entry {
            own_untested: false,
            ..entry
        };
        self.store(pos, to_move, e);
        Ok(e)
    }

    /// The children of an open node in heuristic order (ties in the selection go to the
    /// earlier one), filled in, with what the table knows of them; vulnerable moves (a reply
    /// kills them, [`super::vulnerable`]) and dominated ones ([`prune_dominated`]) left out.
    /// Returns the children, the vulnerable cells with their killers (for a lost node's proof
    /// set) and whether domination pruned a move.
    fn expand(
        &mut self,
        pos: &Position,
        to_move: Colour,
        entry: &Entry,
    ) -> (Vec<Child>, CellSet, CellSet) {
        let opp = to_move.opponent();
        self.scratch.clear();
        let mut scratch = std::mem::take(&mut self.scratch);
        if self.vc_order && self.eval.use_vcs {
            self.eval.connection_scores(pos, entry.moves, &mut scratch);
            if self.eval.threat_order > 0 {
                // Threats first (see the module docs of vc_eval, "Threats first"): the
                // moves by their threat size, then by the circuit score.
                let t = self.eval.threat_scores(pos, to_move, entry.moves);
                let key = |s: i32, c: Cell| {
                    let size = i64::from(t[c.index()]);
                    (size * 4_000_000 + i64::from(s).clamp(-2_000_000, 2_000_000))
                        .clamp(i32::MIN as i64, i32::MAX as i64) as i32
                };
                let k = self.eval.threat_order;
                if k == 1 {
                    for (s, c) in scratch.iter_mut() {
                        *s = key(*s, *c);
                    }
                } else {
                    // Only the k - 1 best threat moves go first, ahead of every score.
                    let mut best: Vec<(i32, Cell)> = scratch
                        .iter()
                        .filter(|&&(_, c)| t[c.index()] != super::vc_eval::NO_THREAT)
                        .map(|&(s, c)| (key(s, c), c))
                        .collect();
                    best.sort_unstable();
                    best.truncate(k - 1);
                    for (s, c) in scratch.iter_mut() {
                        if let Some(i) = best.iter().position(|&(_, b)| b == *c) {
                            *s = i32::MIN + i as i32;
                        }
                    }
                }
            }
        } else {
            self.order.scores(pos, to_move, entry.moves, &mut scratch);
        }
        scratch.sort_unstable();
        let key = key_of(pos, to_move);
        let made = if self.keep_children {
            self.kept.remove(&key).filter(|m| m.moves == entry.moves)
        } else {
            None
        };
        let before = scratch.len();
        let (mut kids, vulnerable) = match made {
            Some(m) => {
                // The kept children, in this expansion's order.
                self.children_reused += 1;
                let mut kept: Vec<Option<Child>> = m.kids.into_iter().map(Some).collect();
                let mut kids: Vec<Child> = Vec::with_capacity(kept.len());
                scratch.retain(|&(_, c)| {
                    match kept
                        .iter_mut()
                        .find(|k| k.as_ref().is_some_and(|k| k.mv == c))
                    {
                        Some(k) => {
                            kids.push(k.take().expect("found"));
                            true
                        }
                        None => false,
                    }
                });
                (kids, m.vulnerable)
            }
            None => {
                let cells: Vec<Cell> = scratch.iter().map(|&(_, c)| c).collect();
                let (kids, vulnerable) = self.make_children(pos, to_move, &cells);
                scratch.retain(|&(_, c)| kids.iter().any(|k| k.mv == c));
                (kids, vulnerable)
            }
        };
        self.vulnerable_pruned += (before - kids.len()) as u64;
        if self.keep_children {
            self.keep(
                key,
                Made {
                    moves: entry.moves,
                    kids: kids.clone(),
                    vulnerable,
                },
            );
        }
        let stones = pos.stones(Colour::Black).len() + pos.stones(Colour::White).len();
        if trace_order().is_some_and(|n| stones <= n) {
            let names: Vec<String> = scratch
                .iter()
                .map(|&(s, c)| {
                    let name = pos.board().cell_name(c, crate::board::Notation::Letters);
                    format!("{name}:{s}")
                })
                .collect();
            eprintln!("order {to_move:?} {stones} stones: {}", names.join(" "));
        }
        self.scratch = scratch;
        let before = kids.len();
        let dominated = if self.dominated {
            prune_dominated(pos, to_move, &mut kids)
        } else {
            CellSet::EMPTY
        };
        self.dominated_pruned += (before - kids.len()) as u64;
        if self.ply.is_some() {
            let (key, _) = self.key(pos, to_move);
            let t = self.ply.as_mut().expect("checked");
            t.at_depth().1 += 1;
            t.expanded.insert(key);
            if t.path.len() <= t.plies {
                let first = &mut t.nodes.entry(t.path.clone()).or_default().first;
                if first.is_none() {
                    let m = entry.moves.len() as u32;
                    let x = dominated.len() as u32;
                    let k = kids.len() as u32;
                    *first = Some((m, m.saturating_sub(k + x), x, k));
                }
            }
        }
        self.expansions += 1;
        self.children += kids.len() as u64;
        for k in kids.iter_mut() {
            if let Some(e) = self.lookup(&k.pos, opp) {
                k.pn = e.pn;
                k.dn = e.dn;
                k.seen = true;
                if e.pn == 0 || e.dn == 0 {
                    let w = if e.pn == 0 { opp } else { to_move };
                    k.proof = lift(e.proof, pos, &k.pos, w);
                }
            }
            // A child whose mover wins by strategy stealing is lost for this node's mover;
            // not stored in the table (it has no winning move to report), no proof set.
            if self.strategy_stealing && k.pn != 0 && k.dn != 0 && stolen(&k.pos) {
                k.pn = 0;
                k.dn = INF;
                k.proof = pos.empty_cells();
                self.stolen += 1;
            }
        }
        (kids, vulnerable, dominated)
    }

    /// The children of the moves `cells` of open `pos` (in that order), filled in, with
    /// the vulnerable ones left out ([`super::vulnerable`]); returns them and the vulnerable
    /// moves with their killers.
    fn make_children(
        &mut self,
        pos: &Position,
        to_move: Colour,
        cells: &[Cell],
    ) -> (Vec<Child>, CellSet) {
        let opp = to_move.opponent();
        let mut vulnerable = CellSet::EMPTY;
        let geo = geometry(pos.board());
        let (b, w) = (pos.stones(Colour::Black), pos.stones(Colour::White));
        let mut kids: Vec<Child> = Vec::with_capacity(cells.len());
        let t = Instant::now();
        // The moves come from this node's evaluation, which built the opponent's
        // connections completely (an open node): see "Own wins of a child".
        let opp_stones = pos.stones(opp);
        let skip_own = self.skip_own_wins && self.eval.use_vcs && self.eval.use_mustplay;
        for &mv in cells {
            if self.vulnerable {
                if let Some(k) = killer(&geo, b, w, mv, to_move) {
                    vulnerable.insert(mv);
                    vulnerable.insert(k);
                    continue;
                }
            }
            let mut p = pos.clone();
            p.play(to_move, mv).expect("moves are empty cells");
            let f = fill_in(&mut p, self.rules, opp);
            self.region_filled += f.regions.len() as u64;
            self.pattern_filled += f.patterns.len() as u64;
            self.child_filled += (f.dead | f.black_captured | f.white_captured).len() as u64;
            let skip_own = skip_own && p.stones(opp) == opp_stones;
            kids.push(Child {
                mv,
                pos: p,
                pn: 1,
                dn: self.child_dn.max(1),
                proof: CellSet::EMPTY,
                skip_own,
                seen: false,
            });
        }
        self.fill_time += t.elapsed();
        (kids, vulnerable)
    }

    /// Keeps a position's children for its next expansion ([`Dfpn::keep_children`]).
    fn keep(&mut self, key: Key, made: Made) {
        if self.kept.len() >= MAX_KEPT_CHILDREN {
            self.kept.clear();
        }
        self.kept.insert(key, made);
    }

    /// The initial disproof number of open `pos` with `moves` ([`Dfpn::eval_dn`]; at
    /// least 1). It steers the search only: a node is decided by its children alone.
    fn initial_dn(&mut self, pos: &Position, to_move: Colour, moves: CellSet) -> u32 {
        let n = match self.eval_dn {
            EvalDn::Moves => moves.len() as u64,
            EvalDn::Vulnerable if self.vulnerable => {
                let geo = geometry(pos.board());
                let (b, w) = (pos.stones(Colour::Black), pos.stones(Colour::White));
                moves
                    .iter()
                    .filter(|&c| killer(&geo, b, w, c, to_move).is_none())
                    .count() as u64
            }
            EvalDn::Vulnerable => moves.len() as u64,
            EvalDn::Children => {
                let cells: Vec<Cell> = moves.iter().collect();
                let (kids, vulnerable) = self.make_children(pos, to_move, &cells);
                let mut live = kids.clone();
                if self.dominated {
                    prune_dominated(pos, to_move, &mut live);
                }
                let opp = to_move.opponent();
                let mut sum = 0u64;
                for k in &live {
                    let (pn, dn) = self.lookup(&k.pos, opp).map_or((1, 1), |e| (e.pn, e.dn));
                    if pn != 0 && dn != 0 && self.strategy_stealing && stolen(&k.pos) {
                        continue;
                    }
                    // A child lost for its mover makes this node won at its expansion; it
                    // counts 1 here, not its infinite proof number (an infinite dn would
                    // stop the search above at once, the node unexpanded).
                    sum += if dn == 0 { 1 } else { pn as u64 };
                }
                if self.keep_children {
                    let key = key_of(pos, to_move);
                    self.keep(
                        key,
                        Made {
                            moves,
                            kids,
                            vulnerable,
                        },
                    );
                }
                sum
            }
        };
        n.clamp(1, INF as u64) as u32
    }

    /// A node's numbers from its children's: pn = least child dn (among the first children
    /// with progressive widening), dn = sum of child pn (or the weak value); a child outside
    /// the proof set of a refuted one is refuted too (proof-set pruning).
    fn numbers(&self, pos: &Position, kids: &[Child]) -> Numbers {
        let mut allowed = pos.empty_cells();
        if self.proof_sets {
            for k in kids.iter().filter(|k| k.pn == 0) {
                allowed &= k.proof;
            }
        }
        let pruned = |k: &Child| k.pn != 0 && !allowed.contains(k.mv);
        // Progressive widening: the move is chosen among the first children only.
        // (Without widening, no list of refuted children is built: this runs at every step.)
        let window = match self.widening {
            None => kids.len(),
            Some(_) => self.window(kids.iter().map(|k| pruned(k) || k.pn == 0)),
        };
        let mut n = Numbers {
            pn: INF,
            dn: 0,
            best: usize::MAX,
            dn2: INF,
            open: 0,
            pruned: 0,
            allowed,
            window,
        };
        let mut sum: u64 = 0;
        let mut max_pn = 0;
        // Soft widening: searched children beyond the window, and the first one not searched.
        let soft = self.widening.is_some() && self.widening_step > 0;
        let (mut beyond_seen, mut next) = (0u32, None);
        let choose = |n: &mut Numbers, i: usize, dn: u32| {
            if dn < n.pn || n.best == usize::MAX {
                if dn < n.pn {
                    n.dn2 = n.pn;
                }
                n.pn = dn;
                n.best = i;
            } else if dn < n.dn2 {
                n.dn2 = dn;
            }
        };
        for (i, k) in kids.iter().enumerate() {
            if pruned(k) {
                n.pruned += 1;
                continue;
            }
            sum += k.pn as u64;
            if k.pn != 0 {
                n.open += 1;
                max_pn = max_pn.max(k.pn);
            }
            if i >= window && k.dn != 0 {
                if !soft || k.pn == 0 {
                    continue;
                }
                if !k.seen {
                    next = next.or(Some(i));
                    continue;
                }
                beyond_seen += 1;
            }
            choose(&mut n, i, k.dn);
        }
        if let Some(i) = next {
            let v = self
                .widening_step
                .saturating_mul(beyond_seen + 1)
                .max(kids[i].dn)
                .min(INF);
            choose(&mut n, i, v);
        }
        n.dn = if !self.weak_dn {
            sum.min(INF as u64) as u32
        } else if n.open == 0 {
            0
        } else {
            max_pn.saturating_add(n.open - 1).min(INF)
        };
        n
    }

    /// [`Dfpn::mid`] at a node that splits for the opponent ([`super::decompose`],
    /// "Splits"): half i is `pos` with the other side filled with the opponent's stones; the
    /// player to move wins iff it wins one half (same player to move), so pn is the least pn
    /// of the halves and dn the sum of their dn.
    fn mid_split(
        &mut self,
        pos: &Position,
        to_move: Colour,
        sides: [CellSet; 2],
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32) {
        let x = to_move.opponent();
        let entry = self.entry(pos, to_move);
        let halves: Vec<Position> = (0..2)
            .map(|i| {
                let mut p = pos.clone();
                for c in sides[1 - i].iter() {
                    p.play(x, c).expect("sides are empty cells");
                }
                fill_in(&mut p, self.rules, to_move);
                p
            })
            .collect();
        loop {
            let mut v = [(1u32, 1u32); 2];
            for i in 0..2 {
                let e = self.entry(&halves[i], to_move);
                v[i] = (e.pn, e.dn);
            }
            let pn = v[0].0.min(v[1].0);
            let dn = v[0].1.saturating_add(v[1].1).min(INF);
            let (best, proof) = if pn == 0 {
                let i = if v[0].0 == 0 { 0 } else { 1 };
                let e = self.entry(&halves[i], to_move);
                let proof = lift(e.proof, pos, &halves[i], to_move);
                (e.best, proof)
            } else if dn == 0 {
                let mut proof = CellSet::EMPTY;
                for i in 0..2 {
                    let e = self.entry(&halves[i], to_move);
                    proof |= lift(e.proof, pos, &halves[i], x) & sides[i];
                }
                (None, proof)
            } else {
                (None, entry.proof)
            };
            self.store(
                pos,
                to_move,
                Entry {
                    pn,
                    dn,
                    moves: entry.moves,
                    best,
                    proof,
                    own_untested: false,
                },
            );
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || !self.budget_left() {
                return (pn, dn);
            }
            let i = if v[0].0 <= v[1].0 { 0 } else { 1 };
            let pn2 = v[1 - i].0;
            let child_th_pn = th_pn.min(self.grown(pn2)).min(INF);
            let child_th_dn = (th_dn - dn).saturating_add(v[i].1).min(INF);
            self.mid(&halves[i], to_move, child_th_pn, child_th_dn);
        }
    }

    /// How many of a node's children (in search order) the selection looks at: all of them,
    /// or with [`Dfpn::widening`] = (base, factor) the prefix holding the first
    /// `base + ⌈factor · live⌉` live children (`refuted` is true for a child that is lost
    /// for the mover, by search or by proof-set pruning), all when fewer than two are live.
    fn window(&self, refuted: impl Iterator<Item = bool>) -> usize {
        let refuted: Vec<bool> = refuted.collect();
        let Some((base, factor)) = self.widening else {
            return refuted.len();
        };
        let live = refuted.iter().filter(|&&r| !r).count();
        if live < 2 {
            return refuted.len();
        }
        let look = (base as usize + (live as f64 * factor).ceil() as usize).max(2);
        let mut seen = 0;
        for (i, &r) in refuted.iter().enumerate() {
            if !r {
                seen += 1;
                if seen == look {
                    return i + 1;
                }
            }
        }
        refuted.len()
    }

    /// The moves the search would try at filled `pos` (the mustplay after vulnerable and
    /// dominated moves are pruned), or `None` when the evaluation decides it.
    pub fn searched_moves(&mut self, pos: &Position, to_move: Colour) -> Option<Vec<Cell>> {
        let e = self.entry(pos, to_move);
        if e.pn == 0 || e.dn == 0 {
            return None;
        }
        let (kids, _, _) = self.expand(pos, to_move, &e);
        Some(kids.iter().map(|k| k.mv).collect())
    }

    /// The cells of a decided node's connection (carrier), or the moves of an open one.
    pub fn moves_of(&mut self, pos: &Position, to_move: Colour) -> Option<CellSet> {
        self.lookup(pos, to_move).map(|e| e.moves)
    }
}
