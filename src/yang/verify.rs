//! The semantic check of `hexproof yang check --lenient` (docs/yang.md, "The goal check"):
//! every placed pattern gets a goal inferred from its context, Yang's branches are written as
//! a kernel certificate for that goal, and the kernel judges it.
//!
//! The strategy is unfolded from pattern 1 (and its 180° rotation, which answers White's
//! first moves past the centre). Each *instance* is a pattern at concrete cells, with the
//! Black stones that stand when it is created (the centre and the replies above it). Its goal
//! is one pair of Black components `(a, z)` (stones or Black borders; pattern 1: top and
//! bottom). Its certificate ([`crate::kernel`]) is an or-node with one option per branch:
//! Black's reply, then an and-node whose children are sub-patterns of the branch, each with
//! its own inferred single-pair goal, chained from `a` to `z` through Black components
//! (inference: a path from `a`'s component to `z`'s in the graph whose edges are the
//! sub-patterns and the components each touches; the shortest paths are tried first). A
//! branch whose reply joins the goal ends in a `Joined` node. The kernel then checks
//! exactly Anshelevich's OR and AND rules: every White move into the instance's cells is
//! answered by some branch whose reply and sub-patterns avoid it (a trigger cell inside a
//! sub-pattern, a position no branch can spare: rejected, unless an extra option with that
//! sub-pattern placed on White's stone is verified, `Params::white_trigger`), the
//! sub-patterns are disjoint, and their goals chain the parent's. A certificate the kernel
//! accepts proves: Black, playing Yang's replies (a free move where White plays a cell no
//! branch needs), joins `a` to `z` inside the instance's cells against every White play
//! there.
//!
//! A verified sub-pattern enters its parent's certificate as a *lemma leaf* (kernel condition
//! 7): the claim the kernel accepted for it, matched by the kernel against the leaf, instead
//! of a copy of its nodes to be checked again at every level. Instances are built once per
//! [`MemoKey`] (the memo of built instances); retries of a step take them from there. When
//! the union goals of a step do not compose, smaller goals are tried for its parts
//! ([`Params::revise`], docs/yang.md "Goal revision"). When nothing else composes a step,
//! a chain of its parts is *widened* ([`Params::widen`], docs/yang.md "Widened goals"): each
//! part gets every pair under which every choice still joins the goal, so a link a sibling
//! makes is passed down to the part's own sub-patterns through its (weaker) union goal.
//!
//! Verdict per instance: **verified** (the kernel accepted its certificate, sub-patterns
//! included); **refuted** (its own step fails and the exact local search proves its goal
//! lost: White's line inside the pattern is shown) — only where the goal is not inferred
//! (pattern 1's `t - b`, or a goal given to [`check_placed`]); **undecided** (the goal could
//! not be inferred, a sub-pattern is not verified, the step fails but the search finds the
//! goal still holds or runs out of budget, or *goal not established*: the search proves an
//! inferred goal lost, White's line shown, which the whole-board solver contradicted on
//! every case checked, so it is reported as a wrong guess of the goal, `goal_lost`, never
//! as a refutation). Nothing is called verified unless the kernel said so.

use super::reader::{Branch, Loc, Strategy};
use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::kernel::{self, Certificate, Node, NodeId, NodeKind, Reply};
use crate::local::{self, Budget, Verdict};
use crate::position::Position;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Instant;

/// How many chains of sub-patterns are tried per branch before giving up on the goal.
const MAX_CHAINS: usize = 8;

/// The verdict of one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The kernel accepted the instance's certificate.
    Verified,
    /// The exact search proved the inferred goal lost.
    Refuted,
    /// Neither.
    Undecided,
}

/// One placed pattern and what was decided about it.
#[derive(Clone, Debug, Serialize)]
pub struct InstanceResult {
    /// The pattern.
    pub pattern: u32,
    /// The `PP` line that placed it (none: pattern 1).
    pub placed_at: Option<Loc>,
    /// The way down from pattern 1: `pattern/branch` steps.
    pub path: String,
    /// Its cells.
    pub cells: usize,
    /// The inferred goal, e.g. `e5 - t` (none: unknown).
    pub goal: Option<String>,
    /// The verdict.
    pub status: Status,
    /// Why, in words (empty when verified).
    pub reason: String,
    /// White's winning line inside the pattern, when refuted (or when its inferred goal is
    /// lost: `goal_lost`).
    pub white_line: Vec<String>,
    /// Certificate nodes of its subtree.
    pub nodes: usize,
    /// Microseconds spent on it (its sub-patterns included).
    pub micros: u128,
    /// True when the failure is its own (its sub-patterns are all verified).
    pub own: bool,
    /// One of its own branches is written as a union AND (kernel condition 6).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub union_and: bool,
    /// One of its own branches composed only with revised goals for its sub-patterns
    /// (`Params::revise`; docs/yang.md "Goal revision").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub revised: bool,
    /// One of its own branches composed only as a widened chain: its parts' union goals
    /// carry the links their siblings make (`Params::widen`; docs/yang.md "Widened goals").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub widened: bool,
    /// One of its own branches composed through conjunctive goals (`Params::conjunctions`;
    /// docs/yang.md "Conjunctive goals"), or its own goal is a conjunction.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub conjunction: bool,
    /// Undecided, "goal not established": its inferred goal is lost inside the pattern by
    /// exact search (White's line shown), but the goal is a guess, so it is no refutation
    /// (only pattern 1's goal, or a goal given by hand, is refuted).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub goal_lost: bool,
    /// Not verified, with no placement below it that is not verified (a *first failure*):
    /// the kind of its own failure ([`cause_of`]).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub cause: String,
    /// Not verified above first failures: their kinds (sorted, each once). A verified
    /// placement passes nothing up (a failing part inside it was not needed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes_below: Vec<String>,
}

/// The kind of a first failure, from its reason (docs/yang.md "What is not verified, by
/// cause").
pub fn cause_of(reason: &str) -> &'static str {
    if reason.starts_with("bad placement") {
        "bad placement (a position outside its parent: data slip)"
    } else if reason.contains("has no answer") {
        "White's move has no answer (a trigger inside a sub-part: data slip)"
    } else if reason.starts_with("goal unknown") {
        "goal unknown (no chain of the parts joins the inferred goal)"
    } else if reason.starts_with("a branch without sub-patterns does not join the goal") {
        "a branch without sub-patterns does not join the inferred goal"
    } else if reason.starts_with("goal not established") {
        "goal not established (the inferred goal lost locally)"
    } else if reason.starts_with("not composed") {
        "not composed (the parts' goals do not compose the step)"
    } else {
        "other (the kernel rejects the step)"
    }
}

/// Knobs.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Node budget of each exact local search that tries to refute a failing step.
    pub search_nodes: u64,
    /// Largest instance (cells) on which a refutation search is tried.
    pub search_max_cells: usize,
    /// Instances built (tries of other goals included) beyond which another chain of
    /// sub-patterns is tried only when the first fails in the sub-pattern's own step.
    pub max_builds: u64,
    /// Goal revision: when the union goals of a step do not compose, try smaller goals for
    /// its parts (docs/yang.md "Goal revision").
    pub revise: bool,
    /// Conjunctive goals: when a step's parts compose neither as a chain nor as a union AND,
    /// try goals that are disjunctions of conjunctions of pairs (docs/yang.md "Conjunctive
    /// goals").
    pub conjunctions: bool,
    /// Widened chains: when nothing else composes a step, give the parts of a chain every
    /// pair that keeps the goal joined given their siblings' goals (docs/yang.md "Widened
    /// goals").
    pub widen: bool,
    /// Three-pair conjunctions: when a step with conjunctive goals does not compose, retry
    /// it once with every minimal conjunction of up to three pairs offered to its parts (up
    /// to `CONJ_MAX_TRIPLES` doubles and triples each), the steps below the retry too
    /// (docs/yang.md "Three-pair conjunctions"). On by default since session 22 (316 and 304
    /// verified; `--no-triples` leaves it out).
    pub triples: bool,
    /// Pending bridges: when a step does not compose and one of its parts is a bridge from
    /// a Black cell to an empty cell of a sibling part, retry it with the bridge carried by
    /// that sibling ([`Pending`], docs/yang.md "Pending bridges"). On by default since session
    /// 23; `--no-pending` leaves it out.
    pub pending: bool,
    /// Carried parts: like pending bridges, for any part whose far end is an empty cell of
    /// a sibling ([`Carried`], docs/yang.md "Carried parts"); tried in the same retry. On by
    /// default since session 24; `--no-carry` leaves it out (and `--no-pending` both).
    pub carry: bool,
    /// A trigger inside a sub-part (the data's "sub-pattern holds a trigger" slip): for a
    /// branch's trigger cell that lies in one of its sub-parts, an extra option with the
    /// same reply and that sub-part placed with the cell White's, kept when verified
    /// (docs/yang.md "A trigger inside a sub-part"). On by default since session 25;
    /// `--no-white-trigger` leaves it out.
    pub white_trigger: bool,
    /// How deep carried parts nest (docs/yang.md "A far end in a cousin"): 1, a carried-parts
    /// retry starts no other inside it and a part that carries others is never carried
    /// itself (session 25); 2 (the default since session 26), one more retry inside a
    /// carried-parts retry, where a part that carries others may be carried by a sibling —
    /// so a part's far end may lie in a sibling of its ancestor, the carried part passed
    /// down through that ancestor's sibling. `--carry-depth N` sets it.
    pub carry_depth: u8,
    /// Goals below carried parts (session 28, docs/yang.md "Goals below carried parts"): in a
    /// step where some part carries another (or a pending bridge), other chains and union
    /// goals are tried also when the first chain fails below a part (not only in its own
    /// step); and a pending bridge's empty end is looked up in the cells of the parts a
    /// sibling carries too, the bridge then given to the carried part that holds it. On by
    /// default; `--no-carried-goals` leaves it out (session 27's check).
    pub carried_goals: bool,
    /// Open bridges (session 29, docs/yang.md "Open bridges"): a bridge part whose two
    /// common neighbours are both empty cells of one sibling (364/2's `i2 h2`, between i1
    /// and h3 of 265) is carried by that sibling as a pending bridge with two empty ends,
    /// until one end is played (it is then an ordinary pending bridge from that end). Tried
    /// as a last retry of a branch that is not verified; on by default,
    /// `--no-open-bridges` leaves it out.
    pub open_bridges: bool,
    /// Capability goals (session 32, docs/yang.md "Capability goals"): when nothing else
    /// composes a step, each part without sub-patterns in its branches (a bridge) gets the
    /// disjunction of what its replies join, and the other parts every pair that keeps the
    /// goal joined given those. On by default; `--no-capabilities` leaves it out.
    pub capabilities: bool,
    /// Star goals and bridges that carry nothing (session 33, docs/yang.md "Star goals"):
    /// with capability goals, each part without a capability may also be given every pair
    /// from one component it touches (its hub) to the others it touches, the hubs chosen so
    /// that every choice joins the goal (a few such assignments, fewest parts first); and a
    /// branch whose carried-parts retry fails, and in which a bridge (a part whose branches
    /// have no sub-patterns) carried a sibling, is tried once more with no part carried by
    /// a bridge, so that the bridge keeps its capability. On by default; `--no-stars`
    /// leaves both out (the check as in session 32).
    pub stars: bool,
    /// Test hook, 0 in every real check: 1 leaves a pending bridge's cells out of the carrier
    /// of the part that carries it (the bridge's carrier not reserved: a sibling or White may
    /// take it), all else as usual. The tests use it to see the kernel reject such
    /// certificates. 2 does the same to a carried part's cells ([`Carried`]: not reserved,
    /// and its own branches not written). 3 builds the sub-part of a trigger option
    /// ([`Inst::white`]) with White's cell free (its strategy may use it) and still writes
    /// its leaf in the and-node without that cell: a lemma claimed for a carrier it was not
    /// proved on. 4 does what 2 does, but only to the parts carried in a nested
    /// carried-parts retry (`carry_depth` 2: depth 2 and more).
    #[doc(hidden)]
    pub pending_mutant: u8,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            search_nodes: 200_000,
            search_max_cells: 24,
            max_builds: 1_000_000,
            revise: true,
            conjunctions: true,
            widen: true,
            triples: true,
            pending: true,
            carry: true,
            white_trigger: true,
            carry_depth: 2,
            carried_goals: true,
            open_bridges: true,
            capabilities: true,
            stars: true,
            pending_mutant: 0,
        }
    }
}

/// The result of the whole check.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Every instance, in the order of the unfolding (children before their parent).
    pub instances: Vec<InstanceResult>,
    /// The kernel accepted the certificate of the whole strategy (`t - b` after e5).
    pub whole: bool,
    /// Certificate nodes of the whole strategy.
    pub nodes: usize,
    /// Instances built (tries of other goals included; memo hits not counted).
    pub builds: u64,
    /// Builds answered from the memo of built instances.
    pub memo_hits: u64,
}

/// The results of an instance's subtree: its sub-patterns' (in order), then its own. Shared
/// (`Rc`) between the output and the memo of built instances.
struct RecTree {
    rec: InstanceResult,
    kids: Vec<Rc<RecTree>>,
}

/// Placements verified in these subtrees.
fn verified_in(trees: &[Rc<RecTree>]) -> usize {
    trees
        .iter()
        .map(|t| usize::from(t.rec.status == Status::Verified) + verified_in(&t.kids))
        .sum()
}

/// The results of `trees`, children before their parent, in order; each record's path, which
/// is kept relative to its parent's (`/branch pattern`: the same wherever the memo reuses the
/// subtree), written out in full after `prefix`. Fills in [`InstanceResult::cause`] and
/// [`InstanceResult::causes_below`]; returns the kinds of the first failures in `trees`
/// that reach their roots (none through a verified placement). `parent` is the pattern
/// whose branches the roots of `trees` hang from; `slips` the branches with a part outside
/// their pattern ([`slipped_branches`]); `slip`: `trees` lie below such a branch already.
fn flatten(
    trees: &[Rc<RecTree>],
    prefix: &str,
    out: &mut Vec<InstanceResult>,
    at: (u32, &BTreeSet<(u32, u32)>, bool),
) -> BTreeSet<&'static str> {
    let (parent, slips, slip) = at;
    let mut all = BTreeSet::new();
    for t in trees {
        let path = format!("{prefix}{}", t.rec.path);
        let slip = slip || branch_of(parent, &t.rec.path).is_some_and(|pb| slips.contains(&pb));
        let below = flatten(&t.kids, &path, out, (t.rec.pattern, slips, slip));
        let mut rec = t.rec.clone();
        rec.path = path;
        if rec.status != Status::Verified {
            mark_causes(&mut rec, &below, slip);
            all.extend(below);
            if rec.causes_below.is_empty() {
                all.insert(first_cause(&rec.reason, slip));
            }
        }
        out.push(rec);
    }
    all
}

/// The pattern and branch a record's relative path (`/branch pattern`, or `/+carried:branch
/// pattern` for a carried part's branch) hangs from, its parent being `parent`.
fn branch_of(parent: u32, path: &str) -> Option<(u32, u32)> {
    let label = path.strip_prefix('/')?.split(' ').next()?;
    match label.strip_prefix('+') {
        Some(carried) => {
            let (p, b) = carried.split_once(':')?;
            Some((p.parse().ok()?, b.parse().ok()?))
        }
        None => Some((parent, label.parse().ok()?)),
    }
}

/// The branches (pattern, branch number) with a sub-pattern placed at a position outside
/// their pattern (the data's `PP` slips, e.g. 364's branches 11 and 12, `PP 13 59 56 57
/// 54` in a pattern of 51 positions): that part is not placed, so the step cannot compose
/// as written, and the first failures below it are filed under [`SLIP_BELOW`].
pub fn slipped_branches(s: &Strategy) -> BTreeSet<(u32, u32)> {
    let sizes = s.sizes();
    let mut out = BTreeSet::new();
    for p in s.patterns.values() {
        let size = sizes.get(&p.number).copied().unwrap_or(0);
        for b in &p.branches {
            if b.parts.iter().flat_map(|q| &q.map).any(|x| x.n > size) {
                out.insert((p.number, b.number));
            }
        }
    }
    out
}

/// The kind of a first failure below a branch with a part outside its pattern, unless its
/// own reason is a data slip (docs/yang.md "What is not verified, by cause").
pub const SLIP_BELOW: &str =
    "below a branch with a part outside its parent (data slip: that part not placed)";

/// The kind of a first failure with reason `reason`: [`cause_of`], or [`SLIP_BELOW`] when it
/// lies below a branch with a part outside its pattern and its own kind is no data slip.
fn first_cause(reason: &str, slip: bool) -> &'static str {
    let own = cause_of(reason);
    if slip && !own.contains("data slip") {
        SLIP_BELOW
    } else {
        own
    }
}

/// Sets a record's cause (no failure below it) or the causes below it.
fn mark_causes(rec: &mut InstanceResult, below: &BTreeSet<&'static str>, slip: bool) {
    if below.is_empty() {
        rec.cause = first_cause(&rec.reason, slip).to_string();
    } else {
        rec.causes_below = below.iter().map(|c| c.to_string()).collect();
    }
}

/// What identifies a build of an instance: its pattern, the `PP` line that placed it, its
/// cells, the Black stones standing, its goal, and whether the goal was forced (which decides
/// between refuted and undecided). Everything [`Checker::instance`] computes depends on these
/// only (and on the parameters), so a second build with the same key gives the same result —
/// except past `Params::max_builds`, where fewer chains are tried and a memo hit may give the
/// result of a build that tried more (the real file needs 189,164 builds; either way the
/// kernel judged what is verified).
type MemoKey = (
    u32,
    Option<Loc>,
    Vec<Option<Cell>>,
    CellSet,
    Goal,
    bool,
    Option<(Cell, Cell, CellSet)>,
    Vec<CarriedKey>,
    CellSet,
);

/// A pending bridge found among a step's parts ([`Checker::pending_bridges`]): the
/// bridge's index, the index of the part that gets it, the empty end, the Black end, and the
/// index path of the carried part (of that part) that holds the empty end (empty: the part).
type Bridge = (usize, usize, Cell, Cell, Vec<usize>);

/// What a branch could be retried with ([`Checker::branch_once`]): pending bridges,
/// carried parts, open bridges, and carried parts both with a bridge and with another part
/// as carrier ([`Convert::Spare`]).
type Convertible = (bool, bool, bool, bool);

/// Nothing to retry with.
const NOTHING: Convertible = (false, false, false, false);

/// Which retry a branch is built in ([`Checker::branch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Convert {
    /// The first attempt: the parts as Yang placed them.
    None,
    /// Pending bridges carried ([`Pending`]).
    Bridges,
    /// Pending bridges and carried parts ([`Carried`]).
    All,
    /// Pending bridges and open bridges ([`Pending::open`]).
    Open,
    /// Pending bridges and carried parts, but no part carried by a bridge (a part whose
    /// branches have no sub-patterns): the bridge stays a part of its own, so that
    /// capability goals can state what it makes (`Params::stars`; 603/6, where the bridge
    /// `2[e6 d6]` took 294 and so lost its capability).
    Spare,
}

/// A carried part in the memo key: its pattern, `PP` line, cells and far end, and the
/// parts it carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CarriedKey {
    pattern: u32,
    placed_at: Option<Loc>,
    cells: Vec<Option<Cell>>,
    x: Cell,
    carried: Vec<CarriedKey>,
    /// The pending bridge it carries (session 28: a bridge whose empty end lies in a carried
    /// part is given to that part).
    pending: Option<(Cell, Cell, CellSet)>,
}

/// A goal: a disjunction of conjunctions of pairs of Black cells (stones, borders). A goal
/// without conjunctions (every conjunction one pair) is a union, as before; its nodes carry
/// no goal of their own (the claim's pairs). Kernel condition 8.
type Goal = Vec<Vec<(Cell, Cell)>>;

/// The goal whose conjunctions are the single pairs `pairs` (a union).
fn single(pairs: &[(Cell, Cell)]) -> Goal {
    pairs.iter().map(|&p| vec![p]).collect()
}

/// Some conjunction has more than one pair.
fn conjunctive(g: &Goal) -> bool {
    g.iter().any(|c| c.len() > 1)
}

/// Every distinct pair of `g`, in order (the claim's pairs of an instance).
fn all_pairs(g: &Goal) -> Vec<(Cell, Cell)> {
    let mut v = Vec::new();
    for p in g.iter().flatten() {
        if !v.contains(p) {
            v.push(*p);
        }
    }
    v
}

/// A certificate node whose goal is `g` (kernel fields `goal`, `either`, `with`), or the
/// claim's pairs when `g` is `None`.
fn goal_node(stones: CellSet, carrier: CellSet, g: Option<&Goal>, kind: NodeKind) -> Node {
    let Some(g) = g.filter(|g| !g.is_empty()) else {
        return Node {
            stones,
            carrier,
            goal: None,
            either: Vec::new(),
            with: Vec::new(),
            kind,
        };
    };
    let mut with: Vec<Vec<(Cell, Cell)>> = g.iter().map(|c| c[1..].to_vec()).collect();
    while with.last().is_some_and(Vec::is_empty) {
        with.pop();
    }
    Node {
        stones,
        carrier,
        goal: Some(g[0][0]),
        either: g[1..].iter().map(|c| c[0]).collect(),
        with,
        kind,
    }
}

/// A pattern at concrete cells.
#[derive(Clone, Debug)]
struct Inst {
    pattern: u32,
    cells: Vec<Option<Cell>>,
    placed_at: Option<Loc>,
    /// Its path relative to its parent's (`/branch pattern`), or in full for a root.
    path: String,
    /// A pending bridge this instance carries (docs/yang.md "Pending bridges"): its two
    /// cells join the instance's carrier, and its goal may use the bridge's far end.
    pending: Option<Rc<Pending>>,
    /// Parts this instance carries (docs/yang.md "Carried parts"): a sibling part whose
    /// far end is an empty cell of this instance ([`Carried`]).
    carried: Vec<Rc<Carried>>,
    /// Only on the temporary instance that stands for a carried part while its own branches
    /// are written as options of its carrier: the carrier without it, a sibling of its
    /// sub-parts in each of those branches.
    rest: Option<Rc<Inst>>,
    /// Cells of the instance that White holds (docs/yang.md "A trigger inside a sub-part"):
    /// a trigger cell of its parent's branch that Yang placed it on. They are left out of
    /// its carrier (so the kernel lets Black use none of them), its branches whose reply is
    /// one of them are not written, and its sub-parts inherit the ones they hold.
    white: CellSet,
}

/// A *carried part* (session 24, generalising [`Pending`] from two-cell bridges to any
/// part): a part `S` of a branch whose far end is an **empty** cell `x` of exactly one
/// sibling `T` (`x` next to two or more of `S`'s cells, more than any other such cell; e.g.
/// the upper 13 at `472/11`, `i1 i2 h2 g3`, which joins the top or the f3 group to h3, an
/// empty cell of 560). No goal of Black pairs says "`S` joins `x` to a group once `x` is
/// Black", so `T` carries `S`: the pair is judged as **one** part, `T+S`, whose carrier is
/// both parts' cells and whose certificate is an or-node with
/// - `T`'s branches: reply `x` → `S` is an ordinary part again (with `x` Black); `x` in a
///   sub-part `P` → `P` carries `S` on; `x` in no sub-part (White took it, or the branch
///   does without it) → `S` is an ordinary part again, `x` not Black (when `S` is not needed
///   for the goal there, the inference leaves it out as any other part);
/// - `S`'s branches (White's move inside `S`): `S`'s reply, then an and-node of `S`'s
///   sub-parts and `T` (still carrying the rest), where a sub-part of `S` may again be
///   carried by `T` (e.g. 13's branch 1 leaves the bridge `i2 h2` from i1 to h3).
///
/// Soundness, with the kernel unchanged: `T+S` is the sum of two games written out as
/// ordinary or-nodes and and-nodes for ordinary goals of Black pairs; every option is a real
/// reply of Yang's (of `T` or of `S`) and every next node an and-node of placed patterns
/// with disjoint carriers inside `T+S`'s carrier. The kernel checks, as for any instance,
/// that every White move into `T ∪ S` is answered (condition 3: by `T`'s or `S`'s branch
/// for it, whose next node avoids the move), that the and-nodes' children are disjoint and
/// their goals chain or compose the parent's (conditions 4, 6, 8), and each lemma leaf
/// against its claim (7). So an accepted `T+S` certificate proves: Black joins `T+S`'s
/// goal inside `T ∪ S` against every White play there — exactly the claim of a part with
/// that carrier, and the parent's and-node is judged with `T+S` as one child whose carrier
/// is `T ∪ S` (disjoint from the other children, since `S` is no longer one of them). What
/// the detection guesses (which `x`, which `T`) only decides what is tried: a wrong guess
/// fails the kernel, never passes it.
#[derive(Debug)]
struct Carried {
    /// The far end: an empty cell of the carrier.
    x: Cell,
    /// The carried part.
    part: Inst,
    /// Its cells belong to the carrier (always, but for the test hook
    /// `Params::pending_mutant` = 2).
    reserve: bool,
}

/// A *pending bridge*: a bridge sub-pattern (two adjacent cells `p`, `q`) placed between a
/// Black cell `to` and an **empty** cell `x` of a sibling sub-pattern, which Yang's plan
/// fills later (e.g. `386/2`: the bridge `c6 d5` between d6 and the empty c5). No goal made
/// of Black pairs states "x will be joined to `to`", so the bridge is not written as its own
/// part; instead the sibling holding `x` carries it down: the sibling's carrier grows by
/// `p`, `q` (the cells stay reserved: no sibling may use them), it is taken to touch `to`'s
/// component, and in each of its branches
/// - whose reply is `x`: the bridge becomes an ordinary part, goal `x - to`;
/// - with `x` in a part: that part carries the bridge on, the same way;
/// - with `x` in no part (White took `x`, or the branch does without it): the bridge is
///   dropped, its cells are free.
///
/// White's move into `p` or `q` needs no answer of its own: the branch that answers White's
/// `x` has `x` in no part (a part's carrier never holds White's move), so it drops the
/// bridge, and its reply and next node avoid `p` and `q` as well as `x` — the kernel's OR
/// rule (condition 3) takes it as the answer to White's `p` or `q` too, and checks that.
/// All of this is an ordinary certificate (or-nodes, and-nodes, lemma leaves) for ordinary
/// pair goals, which the kernel judges as any other: no trusted change.
#[derive(Debug)]
struct Pending {
    /// The empty end.
    x: Cell,
    /// The Black end.
    to: Cell,
    /// The bridge sub-pattern (its cells `p`, `q`).
    bridge: Inst,
    /// Its cells belong to the carrier (always, but for the test hook
    /// `Params::pending_mutant`).
    reserve: bool,
    /// An *open* bridge (session 29): `to` is empty too, both ends lie in the carrier's
    /// cells. When one end is played it becomes an ordinary pending bridge from that end to
    /// the other (given to the sub-part that holds the other end, or dropped); otherwise the
    /// sub-part that holds both ends carries it on (none: dropped). The memo tells it from
    /// an ordinary one by the position (an ordinary bridge's `to` is Black, an open one's
    /// is empty).
    open: bool,
}

impl Inst {
    fn cell(&self, local: u32) -> Option<Cell> {
        self.cells.get(local as usize - 1).copied().flatten()
    }
    /// Its cells, and its pending bridge's.
    fn carrier(&self) -> CellSet {
        let mut own: CellSet = self.cells.iter().flatten().copied().collect();
        own -= self.white;
        for cd in &self.carried {
            if cd.reserve {
                own |= cd.part.carrier();
            }
        }
        match &self.pending {
            Some(pd) if pd.reserve => own | pd.bridge.carrier(),
            _ => own,
        }
    }
    /// The memo's view of the carried parts: each one's pattern, `PP` line, cells and far
    /// end, and the parts it carries in turn.
    fn carried_key(&self) -> Vec<CarriedKey> {
        self.carried
            .iter()
            .map(|cd| CarriedKey {
                pattern: cd.part.pattern,
                placed_at: cd.part.placed_at,
                cells: cd.part.cells.clone(),
                x: cd.x,
                carried: cd.part.carried_key(),
                pending: cd.part.pending_key(),
            })
            .collect()
    }
    /// The memo's view of the pending bridge: `x`, `to`, the bridge's cells.
    fn pending_key(&self) -> Option<(Cell, Cell, CellSet)> {
        self.pending
            .as_ref()
            .map(|pd| (pd.x, pd.to, pd.bridge.carrier()))
    }
}

/// What was built for one instance: its certificate's root carrier, size and verdict, and,
/// when the kernel accepted it, the accepted claim (its sub-game: the instance's position,
/// cells and goal), which the certificates above refer to as a lemma leaf instead of
/// embedding (and re-checking) a copy of its nodes.
#[derive(Clone)]
struct Built {
    /// The instance's cells (its root's carrier).
    carrier: CellSet,
    /// Certificate nodes of its subtree (its lemmas' subtrees counted in; 0: no certificate).
    size: usize,
    status: Status,
    /// The failure (if any) is this instance's own step, not a sub-pattern's.
    own: bool,
    /// The kernel's acceptance of the instance's certificate (when verified).
    /// Shared (`Rc`): a `Built` is cloned into every step that uses it and into the memo.
    proof: Option<Rc<kernel::Verified>>,
}

/// A certificate being written: its nodes, the lemma leaves among them with the claims they
/// stand for, and the size of the lemmas' own certificates (for the reports).
#[derive(Default)]
struct Draft {
    nodes: Vec<Node>,
    lemmas: Vec<(NodeId, Rc<kernel::Verified>)>,
    /// Nodes of the lemmas' certificates beyond the leaf that stands for each.
    hidden: usize,
}

impl Draft {
    /// The nodes of the subtree, as if every lemma's certificate were embedded.
    fn size(&self) -> usize {
        self.nodes.len() + self.hidden
    }
    /// The certificate rooted at `root` and its lemmas, judged by the kernel in `game`.
    fn check(self, game: &SubGame, root: NodeId) -> Result<kernel::Verified, kernel::KernelError> {
        let lemmas: Vec<(NodeId, &kernel::Verified)> =
            self.lemmas.iter().map(|(id, v)| (*id, &**v)).collect();
        let cert = Certificate {
            nodes: self.nodes,
            first: None,
            root,
        };
        kernel::check_with(game, &cert, &lemmas)
    }
}

/// One branch of an instance written as an option of its or-node ([`Checker::branch`]).
#[derive(Clone, Copy)]
struct Step<'s> {
    /// The instance (or a carried part, for its own branches: [`Inst::rest`]).
    inst: &'s Inst,
    b: &'s Branch,
    /// Black's reply.
    r: Cell,
    goal: &'s Goal,
    /// The goal written on the nodes (none at the root: the claim's pairs).
    node_goal: Option<&'s Goal>,
    /// The position before the reply.
    position: &'s Position,
    /// A trigger cell of `b` inside one of its sub-parts that this option answers: that
    /// sub-part is placed with the cell White's ([`Inst::white`]; docs/yang.md "A trigger
    /// inside a sub-part").
    white: Option<Cell>,
}

/// Where the records, messages, draft nodes and flags stood before an attempt that may be
/// taken back ([`Mark::rewind`]).
#[derive(Clone, Copy)]
struct Mark {
    out: usize,
    said: usize,
    nodes: usize,
    lemmas: usize,
    hidden: usize,
    /// `union_used`, `revised`, `widened`, `conj_used`.
    flags: (bool, bool, bool, bool),
}

impl Mark {
    fn new(c: &Checker, nodes: &Draft) -> Mark {
        Mark {
            out: c.out.len(),
            said: c.goal_miss.len(),
            nodes: nodes.nodes.len(),
            lemmas: nodes.lemmas.len(),
            hidden: nodes.hidden,
            flags: (c.union_used, c.revised, c.widened, c.conj_used),
        }
    }
    /// Takes back what was recorded and drafted since the mark, and the flags.
    fn rewind(&self, c: &mut Checker, nodes: &mut Draft) {
        (c.union_used, c.revised, c.widened, c.conj_used) = self.flags;
        c.out.truncate(self.out);
        c.goal_miss.truncate(self.said);
        nodes.nodes.truncate(self.nodes);
        nodes.lemmas.truncate(self.lemmas);
        nodes.hidden = self.hidden;
    }
}

struct Checker<'a> {
    s: &'a Strategy,
    board: Board,
    params: Params,
    /// The results so far: a stack of subtrees (an instance takes its sub-patterns' off it).
    out: Vec<Rc<RecTree>>,
    /// Every instance built, by [`MemoKey`]: its result and its subtree's records. A retry of
    /// a step (another chain, union goals, a revised goal) that needs the same sub-pattern
    /// with the same goal takes it from here instead of building (and searching) it again.
    /// Sound because the result is a function of the key, and because a verified result is
    /// used above only as a lemma leaf, which the kernel matches against the leaf it stands
    /// for (condition 7).
    /// Keys and values are boxed, so a slot of the table is two pointers: the table runs
    /// at most 7/8 full and doubles, and with the entries inline (about half a kilobyte
    /// each) it was about 2.2 GB, half of it empty, on the real file (session 27).
    memo: HashMap<Box<MemoKey>, Box<(Built, Rc<RecTree>)>>,
    /// Builds answered from the memo.
    memo_hits: u64,
    /// Instances whose own step composed only with a revised goal (counted per build).
    revised: bool,
    /// Instances whose own step composed only as a widened chain (counted per build).
    widened: bool,
    /// Branches of the instance being built whose sub-patterns do not chain its goal.
    goal_miss: Vec<String>,
    /// Instances built so far (tries of other chains included).
    builds: u64,
    /// A branch of the instance being built is written as a union AND.
    union_used: bool,
    /// A branch of the instance being built composes through conjunctive goals.
    conj_used: bool,
    /// Conjunctions of three pairs are offered to the parts of the step being composed
    /// ([`Checker::conj_fallback`]'s retry).
    triples: bool,
    /// How many carried-parts retries the build is inside ([`Checker::branch`]): none is
    /// started at `Params::carry_depth`.
    carrying: u8,
    /// Builds inside carried-parts retries: not counted against `Params::max_builds`, so
    /// the retries do not change what is tried elsewhere.
    carry_builds: u64,
    /// The goal of the instance being built was forced: every step above it had one chain
    /// of sub-patterns only (a lost goal there is a refutation; otherwise it may be a wrong
    /// guess of the goal, reported undecided).
    forced: bool,
}

/// Runs the check (see the module text).
pub fn check(s: &Strategy, params: Params) -> Outcome {
    let n = s.board_size;
    let centre = n as usize * n as usize / 2;
    let cell_of = |i: usize| Cell::at((i % n as usize) as u8, (i / n as usize) as u8);
    let mut c = Checker::new(s, params);
    let board = c.board;
    let mut position = Position::empty(board);
    if !n.is_multiple_of(2) {
        let _ = position.play(Colour::Black, cell_of(centre));
    }
    let cells: Vec<Option<Cell>> = (0..n as usize * n as usize)
        .filter(|&i| n.is_multiple_of(2) || i != centre)
        .map(|i| Some(cell_of(i)))
        .collect();
    let rot = |c: Cell| {
        let (x, y) = c.coords();
        Cell::at(n - 1 - x, n - 1 - y)
    };
    let one = Inst {
        pattern: 1,
        cells: cells.clone(),
        placed_at: None,
        path: "1".into(),
        pending: None,
        carried: Vec::new(),
        rest: None,
        white: CellSet::EMPTY,
    };
    let turned = Inst {
        pattern: 1,
        cells: cells.iter().map(|c| c.map(rot)).collect(),
        placed_at: None,
        path: "1(rotated)".into(),
        pending: None,
        carried: Vec::new(),
        rest: None,
        white: CellSet::EMPTY,
    };
    let t = Cell::border(Border::Top);
    let b = Cell::border(Border::Bottom);
    let start = Instant::now();
    // The root: the options of pattern 1 and of its rotation together.
    let mut nodes = Draft::default();
    let mut options = Vec::new();
    let mut status = Status::Verified;
    let mut split = 0;
    for (i, inst) in [&one, &turned].into_iter().enumerate() {
        let (opts, st) = c.options(inst, &single(&[(t, b)]), None, &position, &mut nodes);
        options.extend(opts);
        status = status.max(st);
        if i == 0 {
            split = c.out.len();
        }
    }
    let carrier = one.carrier();
    let root = push(
        &mut nodes,
        Node {
            stones: CellSet::EMPTY,
            carrier,
            goal: None,
            either: Vec::new(),
            with: Vec::new(),
            kind: NodeKind::Or(options),
        },
    );
    let claim = Claim {
        owner: Colour::Black,
        pairs: vec![(t, b)],
        owner_first: false,
    };
    let mut whole = false;
    let mut reason = String::new();
    let size = nodes.size();
    match SubGame::new(position.clone(), carrier, claim) {
        Ok(game) => match nodes.check(&game, root) {
            Ok(_) => whole = true,
            Err(e) => reason = format!("the kernel rejects the certificate: {e}"),
        },
        Err(e) => reason = format!("bad sub-game: {e}"),
    }
    let verdict = if whole {
        Status::Verified
    } else {
        Status::Undecided
    };
    let miss = std::mem::take(&mut c.goal_miss);
    if let Some(why) = miss.first() {
        reason = why.clone();
    } else if status != Status::Verified {
        reason = "a sub-pattern is not verified".into();
    }
    let own = !whole && (status == Status::Verified || !miss.is_empty());
    let mut root_rec = InstanceResult {
        pattern: 1,
        placed_at: None,
        path: "1".into(),
        cells: carrier.len(),
        goal: Some("t - b".into()),
        status: verdict,
        reason,
        white_line: Vec::new(),
        nodes: size,
        micros: start.elapsed().as_micros(),
        own,
        union_and: false,
        revised: false,
        widened: false,
        conjunction: false,
        goal_lost: false,
        cause: String::new(),
        causes_below: Vec::new(),
    };
    let mut instances = Vec::new();
    let slips = slipped_branches(s);
    let mut below = flatten(&c.out[..split], "1", &mut instances, (1, &slips, false));
    below.extend(flatten(
        &c.out[split..],
        "1(rotated)",
        &mut instances,
        (1, &slips, false),
    ));
    if root_rec.status != Status::Verified {
        mark_causes(&mut root_rec, &below, false);
    }
    instances.push(root_rec);
    Outcome {
        instances,
        whole,
        nodes: size,
        builds: c.builds,
        memo_hits: c.memo_hits,
    }
}

fn push(nodes: &mut Draft, node: Node) -> NodeId {
    nodes.nodes.push(node);
    (nodes.nodes.len() - 1) as NodeId
}

/// The and-node of the sub-patterns `built` (each with its goal: one pair, or a union), each
/// written as a lemma leaf (kernel condition 7) with the reply `stones`: the claim the kernel
/// accepted for it, not a copy of its certificate (so no sub-certificate is checked twice; a
/// sub-pattern the kernel did not accept gets a leaf without a lemma, which the kernel
/// rejects); none when no part has a certificate. `lie`: cells left out of the leaves'
/// carriers, empty but under the test hook `Params::pending_mutant` = 3.
fn and_node(
    nodes: &mut Draft,
    built: &[(Built, Goal)],
    stones: CellSet,
    node_goal: Option<&Goal>,
    lie: CellSet,
) -> Option<NodeId> {
    let mut children = Vec::new();
    let mut and_carrier = CellSet::EMPTY;
    for (bt, g) in built {
        if g.is_empty() || bt.size == 0 {
            continue;
        }
        let carrier = bt.carrier - lie;
        let id = push(
            nodes,
            goal_node(stones, carrier, Some(g), NodeKind::And(Vec::new())),
        );
        if let Some(v) = &bt.proof {
            nodes.lemmas.push((id, v.clone()));
        }
        nodes.hidden += bt.size - 1;
        and_carrier |= carrier;
        children.push(id);
    }
    if children.is_empty() {
        return None;
    }
    Some(push(
        nodes,
        goal_node(stones, and_carrier, node_goal, NodeKind::And(children)),
    ))
}

/// What [`Checker::union_fallback`] found.
enum Fallback {
    /// The needed sub-patterns with their goals (unions), to be written as a (union) AND:
    /// every choice of one pair per part joins the goal, and the worst status of the parts.
    Composed(Vec<(Built, Goal)>, Status),
    /// Union goals were checked, but some choice of one pair per part does not join the goal
    /// (recorded in `goal_miss`); the worst status of the parts.
    NotComposed(Status),
    /// No union goals (recorded in `goal_miss`).
    Unknown,
}

/// The Black components of `owned` (stones, borders), as a map from cell to component index.
fn components(board: &Board, owned: CellSet) -> BTreeMap<Cell, usize> {
    let mut comp = BTreeMap::new();
    let mut k = 0;
    for c in owned.iter() {
        if comp.contains_key(&c) {
            continue;
        }
        let mut stack = vec![c];
        comp.insert(c, k);
        while let Some(x) = stack.pop() {
            for y in (board.neighbours(x) & owned).iter() {
                if let std::collections::btree_map::Entry::Vacant(e) = comp.entry(y) {
                    e.insert(k);
                    stack.push(y);
                }
            }
        }
        k += 1;
    }
    comp
}

/// Simple paths from component `from` to `to` whose edges are parts (each used once), the
/// ones using the most parts first (Yang's decompositions use all their parts), at most
/// [`MAX_CHAINS`]: each step is (part index, entry component, exit component).
fn chains(touch: &[Vec<usize>], from: usize, to: usize) -> Vec<Vec<(usize, usize, usize)>> {
    let mut found: Vec<Vec<(usize, usize, usize)>> = Vec::new();
    for len in (1..=touch.len()).rev() {
        let mut path = Vec::new();
        let mut used = vec![false; touch.len()];
        walk(touch, from, to, len, &mut path, &mut used, &mut found);
        if found.len() >= MAX_CHAINS {
            break;
        }
    }
    found.truncate(MAX_CHAINS);
    found
}

fn walk(
    touch: &[Vec<usize>],
    at: usize,
    to: usize,
    len: usize,
    path: &mut Vec<(usize, usize, usize)>,
    used: &mut [bool],
    found: &mut Vec<Vec<(usize, usize, usize)>>,
) {
    if found.len() >= MAX_CHAINS {
        return;
    }
    if path.len() == len {
        if at == to {
            found.push(path.clone());
        }
        return;
    }
    if at == to {
        return;
    }
    for k in 0..touch.len() {
        if used[k] || !touch[k].contains(&at) {
            continue;
        }
        used[k] = true;
        for &next in &touch[k] {
            if next != at {
                path.push((k, at, next));
                walk(touch, next, to, len, path, used, found);
                path.pop();
            }
        }
        used[k] = false;
    }
}

/// Some part holds `x` as White's cell ([`Inst::white`]).
fn white_held(parts: &[Inst], x: Cell) -> bool {
    parts.iter().any(|p| p.white.contains(x))
}

/// The one part of `parts` other than part `k` that holds the cell `x`; `None` when no other
/// part or more than one holds it.
fn sole_holder(parts: &[Inst], k: usize, x: Cell) -> Option<usize> {
    let mut holders = (0..parts.len()).filter(|&j| j != k && parts[j].cells.contains(&Some(x)));
    match (holders.next(), holders.next()) {
        (Some(j), None) => Some(j),
        _ => None,
    }
}

/// The part at the index path `at` of the parts `inst` carries ([`carried_paths`]; `inst`
/// itself when `at` is empty).
fn carried_at<'i>(inst: &'i Inst, at: &[usize]) -> &'i Inst {
    at.iter().fold(inst, |p, &i| &p.carried[i].part)
}

/// The one part of `parts` other than part `k` that holds the cell `x` in its own cells or
/// in those of a part it carries (at any depth, reserved ones: [`carried_paths`]), with the
/// index path of that carried part (empty: the part itself); `None` when no other part or
/// more than one holds it (session 28).
fn sole_carrier(parts: &[Inst], k: usize, x: Cell) -> Option<(usize, Vec<usize>)> {
    let mut holders: Vec<(usize, Vec<usize>)> = Vec::new();
    for (j, p) in parts.iter().enumerate() {
        if j == k {
            continue;
        }
        if p.cells.contains(&Some(x)) {
            holders.push((j, Vec::new()));
        }
        let mut at = Vec::new();
        carried_paths(p, &mut at, &mut |path| {
            if carried_at(p, path).cells.contains(&Some(x)) {
                holders.push((j, path.to_vec()));
            }
        });
    }
    match holders.len() {
        1 => holders.pop(),
        _ => None,
    }
}

/// `inst` with the pending bridge `pd` given to the part at the index path `at` of the parts
/// it carries (`inst` itself when `at` is empty).
fn with_pending_at(inst: &Inst, at: &[usize], pd: Rc<Pending>) -> Inst {
    let mut out = inst.clone();
    match at.split_first() {
        None => out.pending = Some(pd),
        Some((&i, tail)) => {
            let cd = &inst.carried[i];
            out.carried[i] = Rc::new(Carried {
                x: cd.x,
                part: with_pending_at(&cd.part, tail, pd),
                reserve: cd.reserve,
            });
        }
    }
    out
}

/// The Black ends of the pending bridges `inst` carries, its own and those of the parts it
/// carries (at any depth).
fn pending_ends(inst: &Inst, ends: &mut Vec<Cell>) {
    if let Some(pd) = inst.pending.as_ref().filter(|pd| !pd.open) {
        ends.push(pd.to);
    }
    for cd in &inst.carried {
        pending_ends(&cd.part, ends);
    }
}

/// Calls `f` with the index path of every part `inst` carries, at any depth, parents before
/// the parts they carry (`[i]`: `inst.carried[i]`; `[i, j]`: the `j`-th part that one
/// carries). A part whose cells are not reserved (the test hook `Params::pending_mutant` =
/// 2) is left out, with what it carries.
fn carried_paths(inst: &Inst, at: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
    for (i, cd) in inst.carried.iter().enumerate() {
        if !cd.reserve {
            continue;
        }
        at.push(i);
        f(at);
        carried_paths(&cd.part, at, f);
        at.pop();
    }
}

/// `inst` without the carried part at the index path `at` ([`carried_paths`]), and that
/// part (still carrying what it carries).
fn without_carried(inst: &Inst, at: &[usize]) -> (Inst, Inst) {
    let mut rest = inst.clone();
    let (&i, tail) = at
        .split_first()
        .expect("a carried part's path is not empty");
    if tail.is_empty() {
        let cd = rest.carried.remove(i);
        return (rest, cd.part.clone());
    }
    let cd = &inst.carried[i];
    let (inner, part) = without_carried(&cd.part, tail);
    rest.carried[i] = Rc::new(Carried {
        x: cd.x,
        part: inner,
        reserve: cd.reserve,
    });
    (rest, part)
}

impl<'a> Checker<'a> {
    fn new(s: &'a Strategy, params: Params) -> Checker<'a> {
        Checker {
            s,
            board: Board::square(s.board_size as u32).expect("the reader checked the size"),
            params,
            out: Vec::new(),
            memo: HashMap::new(),
            memo_hits: 0,
            revised: false,
            widened: false,
            goal_miss: Vec::new(),
            builds: 0,
            union_used: false,
            conj_used: false,
            triples: false,
            carrying: 0,
            carry_builds: 0,
            forced: true,
        }
    }

    fn name(&self, c: Cell) -> String {
        self.board.cell_name(c, crate::board::Notation::Letters)
    }

    /// Checks instance `inst` with goal `(a, z)` in `position` (Black stones above it; its
    /// cells empty) and records its result.
    fn instance(&mut self, inst: &Inst, goal: &Goal, position: &Position) -> Built {
        let key: MemoKey = (
            inst.pattern,
            inst.placed_at,
            inst.cells.clone(),
            position.stones(Colour::Black),
            goal.clone(),
            self.forced,
            inst.pending_key(),
            inst.carried_key(),
            inst.white,
        );
        if let Some(hit) = self.memo.get(&key) {
            let (built, tree) = &**hit;
            self.memo_hits += 1;
            self.out.push(tree.clone());
            return built.clone();
        }
        let built = self.build(inst, goal, position);
        let tree = self.out.last().expect("build records its instance").clone();
        self.memo
            .insert(Box::new(key), Box::new((built.clone(), tree)));
        built
    }

    /// [`Self::instance`] without the memo: builds the certificate, has the kernel judge it,
    /// and records the result (a subtree of the records, on top of `out`).
    fn build(&mut self, inst: &Inst, goal: &Goal, position: &Position) -> Built {
        self.builds += 1;
        if self.carrying > 0 {
            self.carry_builds += 1;
        }
        let mark = self.out.len();
        let start = Instant::now();
        let carrier = inst.carrier();
        let goal_text = self.goal_text(goal);
        let conj = conjunctive(goal);
        let union_and = std::cell::Cell::new(false);
        let revised = std::cell::Cell::new(false);
        let widened = std::cell::Cell::new(false);
        let conjunction = std::cell::Cell::new(false);
        let record = |c: &mut Checker, status, reason: String, line: Vec<String>, nodes, own| {
            let kids = c.out.split_off(mark);
            let goal_lost = status == Status::Undecided && !line.is_empty();
            let rec = InstanceResult {
                pattern: inst.pattern,
                placed_at: inst.placed_at,
                path: inst.path.clone(),
                cells: carrier.len(),
                goal: Some(goal_text.clone()),
                status,
                reason,
                white_line: line,
                nodes,
                micros: start.elapsed().as_micros(),
                own,
                union_and: union_and.get(),
                revised: revised.get(),
                widened: widened.get(),
                conjunction: conjunction.get(),
                goal_lost,
                cause: String::new(),
                causes_below: Vec::new(),
            };
            c.out.push(Rc::new(RecTree { rec, kids }));
        };
        let claim = Claim {
            owner: Colour::Black,
            pairs: all_pairs(goal),
            owner_first: false,
        };
        let placed = if inst.cells.contains(&None) {
            Err("a position lies outside its parent".to_string())
        } else {
            SubGame::new(position.clone(), carrier, claim).map_err(|e| e.to_string())
        };
        let game = match placed {
            Ok(g) => g,
            Err(e) => {
                record(
                    self,
                    Status::Undecided,
                    format!("bad placement: {e}"),
                    Vec::new(),
                    0,
                    true,
                );
                return Built {
                    carrier,
                    size: 0,
                    status: Status::Undecided,
                    own: true,
                    proof: None,
                };
            }
        };
        let mut nodes = Draft::default();
        let saved = std::mem::take(&mut self.goal_miss);
        let saved_union = std::mem::replace(&mut self.union_used, false);
        let saved_revised = std::mem::replace(&mut self.revised, false);
        let saved_widened = std::mem::replace(&mut self.widened, false);
        let saved_conj = std::mem::replace(&mut self.conj_used, false);
        let node_goal = conj.then_some(goal);
        let (options, below) = self.options(inst, goal, node_goal, position, &mut nodes);
        let miss = std::mem::replace(&mut self.goal_miss, saved);
        union_and.set(std::mem::replace(&mut self.union_used, saved_union));
        revised.set(std::mem::replace(&mut self.revised, saved_revised));
        widened.set(std::mem::replace(&mut self.widened, saved_widened));
        conjunction.set(std::mem::replace(&mut self.conj_used, saved_conj) || conj);
        let root = push(
            &mut nodes,
            goal_node(CellSet::EMPTY, carrier, node_goal, NodeKind::Or(options)),
        );
        let count = nodes.size();
        let built = |status, own, proof| Built {
            carrier,
            size: count,
            status,
            own,
            proof,
        };
        if let Some(why) = miss.first() {
            record(
                self,
                Status::Undecided,
                why.clone(),
                Vec::new(),
                count,
                true,
            );
            return built(Status::Undecided, true, None);
        }
        if below != Status::Verified {
            record(
                self,
                Status::Undecided,
                "a sub-pattern is not verified".into(),
                Vec::new(),
                count,
                false,
            );
            return built(Status::Undecided, false, None);
        }
        match nodes.check(&game, root) {
            Ok(v) => {
                record(
                    self,
                    Status::Verified,
                    String::new(),
                    Vec::new(),
                    count,
                    false,
                );
                built(Status::Verified, false, Some(Rc::new(v)))
            }
            Err(e) if conj => {
                let why = self.describe_kernel_error(&e);
                record(
                    self,
                    Status::Undecided,
                    format!("{why}; the goal is a conjunction (inferred), which the refutation search does not state"),
                    Vec::new(),
                    count,
                    true,
                );
                built(Status::Undecided, true, None)
            }
            Err(e) => {
                let why = self.describe_kernel_error(&e);
                let (status, reason, line) = self.refute(&game, why, &e);
                let (status, reason) = if status == Status::Refuted && inst.placed_at.is_some() {
                    // The goal is inferred: a loss of it is no refutation of Yang's data
                    // (the whole-board solver contradicts every one checked; docs/yang.md).
                    (Status::Undecided, format!("goal not established: {reason}; the goal is inferred (a guess), so this is no refutation of the strategy"))
                } else {
                    (status, reason)
                };
                record(self, status, reason, line, count, true);
                built(status, true, None)
            }
        }
    }

    /// A goal as text: `a - b & c - d | e - f`.
    fn goal_text(&self, goal: &Goal) -> String {
        goal.iter()
            .map(|c| {
                c.iter()
                    .map(|&(a, z)| format!("{} - {}", self.name(a), self.name(z)))
                    .collect::<Vec<_>>()
                    .join(" & ")
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    fn describe_kernel_error(&self, e: &kernel::KernelError) -> String {
        match e {
            kernel::KernelError::Unanswered(_, w) => format!(
                "White's {} has no answer: every branch's reply or sub-patterns need it",
                self.name(*w)
            ),
            kernel::KernelError::NotJoined(_) => {
                "a branch without sub-patterns does not join the goal".into()
            }
            other => format!("the kernel rejects Yang's step: {other}"),
        }
    }

    /// The instance's own step failed the kernel: try to show the inferred goal lost by
    /// exact search (White first; or, for an unanswered White move, Black to move after it).
    fn refute(
        &self,
        game: &SubGame,
        why: String,
        e: &kernel::KernelError,
    ) -> (Status, String, Vec<String>) {
        if !self.forced {
            return (
                Status::Undecided,
                format!("{why}; its goal is one of several candidate chains above it (a guess), so a lost goal here is no refutation"),
                Vec::new(),
            );
        }
        if game.carrier().len() > self.params.search_max_cells {
            return (
                Status::Undecided,
                format!("{why}; too large for the refutation search"),
                Vec::new(),
            );
        }
        let budget = Budget::nodes(self.params.search_nodes);
        let name = |m: &local::Move| {
            format!(
                "{}{}",
                if m.colour == Colour::White {
                    "W "
                } else {
                    "B "
                },
                self.name(m.cell)
            )
        };
        // After White's unanswered move, Black to move on the rest.
        if let kernel::KernelError::Unanswered(_, w) = e {
            let mut pos = game.position().clone();
            let mut carrier = game.carrier();
            carrier.remove(*w);
            if pos.play(Colour::White, *w).is_ok() {
                let mut claim = game.claim().clone();
                claim.owner_first = true;
                if let Ok(after) = SubGame::new(pos, carrier, claim) {
                    if let Ok(o) = local::decide(&after, &budget) {
                        match o.verdict {
                            Verdict::Fails => {
                                let mut line = vec![format!("W {}", self.name(*w))];
                                line.extend(o.refutation.iter().map(name));
                                return (
                                    Status::Refuted,
                                    format!("{why}; after it Black cannot join the goal inside the pattern (exact search, {} nodes)", o.stats.nodes),
                                    line,
                                );
                            }
                            Verdict::Holds => {
                                return (
                                    Status::Undecided,
                                    format!("{why}; the goal still holds after it by exact search (another Black move; kernel-checked), so this is a gap in the data, not a loss"),
                                    Vec::new(),
                                );
                            }
                            Verdict::Undecided => {}
                        }
                    }
                }
            }
        }
        match local::decide(game, &budget) {
            Ok(o) if o.verdict == Verdict::Fails => (
                Status::Refuted,
                format!(
                    "{why}; the inferred goal is lost inside the pattern (exact search, {} nodes)",
                    o.stats.nodes
                ),
                o.refutation.iter().map(name).collect(),
            ),
            Ok(o) if o.verdict == Verdict::Holds => (
                Status::Undecided,
                format!("{why}; the goal holds by exact search with other Black replies (kernel-checked), not with Yang's"),
                Vec::new(),
            ),
            _ => (
                Status::Undecided,
                format!("{why}; the refutation search is undecided"),
                Vec::new(),
            ),
        }
    }

    /// The or-node options of `inst` (goal `(a, z)`; `node_goal`: the goal written on its
    /// nodes, none at the root), the next nodes pushed into `nodes`; and the worst status of
    /// its sub-patterns. Besides its own branches, the branches of every part it carries, at
    /// any depth (a carried part may carry others: docs/yang.md "A far end in a cousin"):
    /// White's move inside one is answered by its reply, then its sub-parts beside the rest
    /// of this instance (it taken out) ([`Carried`]).
    fn options(
        &mut self,
        inst: &Inst,
        goal: &Goal,
        node_goal: Option<&Goal>,
        position: &Position,
        nodes: &mut Draft,
    ) -> (Vec<Reply>, Status) {
        let target = (goal, node_goal, position);
        let (mut options, mut worst) = self.own_options(inst, target, nodes);
        let mut at = Vec::new();
        carried_paths(inst, &mut at, &mut |at| {
            let (rest, mut part) = without_carried(inst, at);
            part.rest = Some(Rc::new(rest));
            let (more, st) = self.own_options(&part, target, nodes);
            options.extend(more);
            worst = worst.max(st);
        });
        (options, worst)
    }

    /// The options of `inst`'s own branches (see [`Self::options`]; `target`: its goal, the
    /// goal on its nodes, the position); for an instance that is no carried part
    /// ([`Inst::rest`] none), each branch's trigger options too.
    fn own_options(
        &mut self,
        inst: &Inst,
        target: (&Goal, Option<&Goal>, &Position),
        nodes: &mut Draft,
    ) -> (Vec<Reply>, Status) {
        let (goal, node_goal, position) = target;
        let pattern = &self.s.patterns[&inst.pattern];
        let mut options = Vec::new();
        let mut worst = Status::Verified;
        for b in &pattern.branches {
            let Some(r) = inst.cell(b.reply.n) else {
                worst = Status::Undecided;
                continue;
            };
            if inst.white.contains(r) {
                // White holds the reply: the branch is not Black's to play.
                continue;
            }
            let step = Step {
                inst,
                b,
                r,
                goal,
                node_goal,
                position,
                white: None,
            };
            let (next, st) = self.branch(&step, nodes);
            worst = worst.max(st);
            options.push(Reply { reply: r, next });
            if inst.rest.is_some() {
                continue;
            }
            // A trigger cell inside a sub-part (the data's "sub-pattern holds a trigger"):
            // the same reply with that sub-part placed on White's stone, kept only when
            // verified (docs/yang.md "A trigger inside a sub-part").
            for w in self.inside_triggers(inst, b) {
                let mark = Mark::new(self, nodes);
                let (next, st) = self.branch(
                    &Step {
                        white: Some(w),
                        ..step
                    },
                    nodes,
                );
                if st == Status::Verified {
                    options.push(Reply { reply: r, next });
                } else {
                    mark.rewind(self, nodes);
                }
            }
        }
        (options, worst)
    }

    /// The trigger cells of branch `b` of `inst` that lie in one of the branch's sub-parts
    /// and that White does not hold already (none when `Params::white_trigger` is off).
    fn inside_triggers(&self, inst: &Inst, b: &Branch) -> Vec<Cell> {
        if !self.params.white_trigger {
            return Vec::new();
        }
        let mut held = CellSet::EMPTY;
        for p in &b.parts {
            held |= p
                .map
                .iter()
                .filter_map(|x| inst.cell(x.n))
                .collect::<CellSet>();
        }
        let mut found: Vec<Cell> = Vec::new();
        for t in &b.triggers {
            if let Some(w) = inst.cell(t.n) {
                if held.contains(w) && !inst.white.contains(w) && !found.contains(&w) {
                    found.push(w);
                }
            }
        }
        found
    }

    /// The next node after the step's reply: joined, or an and-node of sub-patterns.
    /// When that is not verified and the branch has a pending bridge ([`Pending`]), the
    /// branch is tried again with the bridge carried by the part that holds its empty end;
    /// the retry is kept only when it is verified (otherwise the first attempt's records,
    /// messages and nodes are put back).
    fn branch(&mut self, step: &Step, nodes: &mut Draft) -> (NodeId, Status) {
        let mark = Mark::new(self, nodes);
        let (id, st, (bridges, carries, opens, spare)) =
            self.branch_once(step, nodes, Convert::None);
        let carries = carries && self.params.carry && self.carrying < self.params.carry_depth;
        if st == Status::Verified || !(bridges || carries || opens) || !self.params.pending {
            return (id, st);
        }
        let records = self.out.split_off(mark.out);
        let said = self.goal_miss.split_off(mark.said);
        let tail = nodes.nodes.split_off(mark.nodes);
        let tail_lemmas = nodes.lemmas.split_off(mark.lemmas);
        let hidden = std::mem::replace(&mut nodes.hidden, mark.hidden);
        let flags_after = (self.union_used, self.revised, self.widened, self.conj_used);
        // The retries: pending bridges alone (session 23), then carried parts too (nested
        // up to `Params::carry_depth` carried-parts retries; a pending-bridges retry starts
        // again from depth 0, as it always did).
        let mut modes = Vec::new();
        if bridges {
            modes.push(Convert::Bridges);
        }
        if carries {
            modes.push(Convert::All);
        }
        if opens {
            // Open bridges (session 29): last, so that what composed before composes the
            // same way.
            modes.push(Convert::Open);
        }
        if carries && spare {
            // No part carried by a bridge (session 33): last, for the same reason.
            modes.push(Convert::Spare);
        }
        for mode in modes {
            (self.union_used, self.revised, self.widened, self.conj_used) = mark.flags;
            let deeper = if matches!(mode, Convert::All | Convert::Spare) {
                self.carrying + 1
            } else {
                0
            };
            let carrying = std::mem::replace(&mut self.carrying, deeper);
            let (id2, st2, _) = self.branch_once(step, nodes, mode);
            self.carrying = carrying;
            if st2 == Status::Verified {
                return (id2, st2);
            }
            mark.rewind(self, nodes);
        }
        self.out.extend(records);
        self.goal_miss.extend(said);
        nodes.nodes.extend(tail);
        nodes.lemmas.extend(tail_lemmas);
        nodes.hidden = hidden;
        (self.union_used, self.revised, self.widened, self.conj_used) = flags_after;
        (id, st)
    }

    /// The common neighbours of a bridge part: two adjacent cells, no pending bridge
    /// carried, no cell White's (none otherwise).
    fn bridge_ends(&self, part: &Inst) -> Option<CellSet> {
        let [Some(p), Some(q)] = part.cells[..] else {
            return None;
        };
        if part.pending.is_some() || !part.white.is_empty() || !self.board.neighbours(p).contains(q)
        {
            return None;
        }
        Some(self.board.neighbours(p) & self.board.neighbours(q))
    }

    /// Pending bridges among `parts` in the position whose Black cells are `owned`: (the
    /// bridge's index, the index of the part that holds its empty end, the empty end, the
    /// Black end). A bridge: a part of two adjacent cells whose two common neighbours are
    /// one Black cell and one empty cell, the latter in exactly one other part (which
    /// carries no pending bridge yet). With `Params::carried_goals` the empty cell may lie
    /// in a part that a sibling carries (at any depth): the last element is the index path
    /// of that carried part ([`sole_carrier`]; empty: the sibling itself), which gets the
    /// bridge.
    fn pending_bridges(&self, parts: &[Inst], owned: CellSet) -> Vec<Bridge> {
        let mut found: Vec<Bridge> = Vec::new();
        for (k, part) in parts.iter().enumerate() {
            let Some(common) = self.bridge_ends(part) else {
                continue;
            };
            let black = common & owned;
            let empty = common - owned;
            let (Some(to), Some(x)) = (black.first(), empty.first()) else {
                continue;
            };
            if black.len() != 1 || empty.len() != 1 || x.is_border() || white_held(parts, x) {
                continue;
            }
            let holder = if self.params.carried_goals {
                sole_carrier(parts, k, x)
            } else {
                sole_holder(parts, k, x).map(|j| (j, Vec::new()))
            };
            let Some((j, at)) = holder else {
                continue;
            };
            if carried_at(&parts[j], &at).pending.is_some()
                || found.iter().any(|f| f.1 == j || f.0 == j)
            {
                continue;
            }
            found.push((k, j, x, to, at));
        }
        found
    }

    /// Open bridges among `parts` in the position whose Black cells are `owned`, besides the
    /// pending bridges `bridges`: (the bridge's index, the index of the part that holds both
    /// its ends, the two ends). An open bridge: a part of two adjacent cells whose two
    /// common neighbours are both empty, not on a border, and lie in one other part (the
    /// same one, which carries no pending bridge and gets none of `bridges`): 364/2's
    /// `i2 h2` between i1 and h3, both cells of 265 (docs/yang.md "Open bridges").
    fn open_bridges(
        &self,
        parts: &[Inst],
        owned: CellSet,
        bridges: &[Bridge],
    ) -> Vec<(usize, usize, Cell, Cell)> {
        let mut found: Vec<(usize, usize, Cell, Cell)> = Vec::new();
        for (k, part) in parts.iter().enumerate() {
            let Some(common) = self.bridge_ends(part) else {
                continue;
            };
            if bridges.iter().any(|f| f.0 == k || f.1 == k)
                || !(common & owned).is_empty()
                || common.len() != 2
            {
                continue;
            }
            let (Some(x), Some(to)) = (common.first(), common.iter().nth(1)) else {
                continue;
            };
            if x.is_border() || to.is_border() || white_held(parts, x) || white_held(parts, to) {
                continue;
            }
            let Some(j) =
                sole_holder(parts, k, x).filter(|&j| sole_holder(parts, k, to) == Some(j))
            else {
                continue;
            };
            if parts[j].pending.is_some()
                || bridges.iter().any(|f| f.0 == j || f.1 == j)
                || found.iter().any(|f| f.1 == j || f.0 == j || f.1 == k)
            {
                continue;
            }
            found.push((k, j, x, to));
        }
        found
    }

    /// Carried parts among `parts` ([`Carried`]) in the position whose Black cells are
    /// `owned`, besides the pending bridges `bridges`: (the part's index, the index of the
    /// sibling that carries it, the far end). A part qualifies when it touches a Black
    /// component, carries nothing (from `Params::carry_depth` 2 on it may carry others: its
    /// far end lies in a sibling of the part it carries, a cousin of that part's
    /// descendants), is no bridge or bridge carrier of `bridges`, and among
    /// the empty cells next to it that lie in exactly one sibling, one is next to more of
    /// its cells than any other, and to at least two (its far end). A carrier is not itself
    /// carried; it may carry several parts.
    fn carried_parts(
        &self,
        parts: &[Inst],
        owned: CellSet,
        bridges: &[Bridge],
    ) -> Vec<(usize, usize, Cell)> {
        let mut found: Vec<(usize, usize, Cell)> = Vec::new();
        for (k, part) in parts.iter().enumerate() {
            // A part that carries others may be carried only from depth 2 on (session 26).
            // A part carrying a pending bridge may be carried with `Params::carried_goals`
            // (session 28: the bridge `h3 g4` under `310/2`, given the pending bridge `i2 h2`
            // of the upper 13's branch 1, is carried by 11 as without it).
            if (part.pending.is_some() && !self.params.carried_goals)
                || (!part.carried.is_empty() && self.params.carry_depth < 2)
                || !part.white.is_empty()
                || bridges.iter().any(|f| f.0 == k || f.1 == k)
                || found.iter().any(|f| f.1 == k)
            {
                continue;
            }
            let cells: CellSet = part.cells.iter().flatten().copied().collect();
            let mut near = CellSet::EMPTY;
            for c in cells.iter() {
                near |= self.board.neighbours(c);
            }
            if (near & owned).is_empty() {
                continue;
            }
            let mut best: Option<(usize, Cell, usize)> = None;
            let mut tie = false;
            for x in (near - cells - owned).iter() {
                let adj = (self.board.neighbours(x) & cells).len();
                if x.is_border() || adj < 2 || white_held(parts, x) {
                    continue;
                }
                let Some(j) = sole_holder(parts, k, x) else {
                    continue;
                };
                match best {
                    Some((_, _, a)) if a > adj => {}
                    Some((_, _, a)) if a == adj => tie = true,
                    _ => {
                        best = Some((j, x, adj));
                        tie = false;
                    }
                }
            }
            let Some((j, x, _)) = best.filter(|_| !tie) else {
                continue;
            };
            if found.iter().any(|f| f.0 == j) || bridges.iter().any(|f| f.0 == j) {
                continue;
            }
            found.push((k, j, x));
        }
        found
    }

    /// [`Self::branch`], once: with `convert`, the branch's pending bridges are carried by
    /// the parts that hold their empty ends. Also says whether the branch has any (pending
    /// bridges, carried parts, open bridges, and carried parts both with a bridge and with
    /// another part as carrier).
    fn branch_once(
        &mut self,
        step: &Step,
        nodes: &mut Draft,
        convert: Convert,
    ) -> (NodeId, Status, Convertible) {
        let Step {
            inst,
            b,
            r,
            goal,
            node_goal,
            position,
            ..
        } = *step;
        let stones = CellSet::single(r);
        let mut after = position.clone();
        let placed = after.play(Colour::Black, r).is_ok();
        let owned = after.owned(Colour::Black);
        let comp = components(&self.board, owned);
        let conj_ends: Option<Vec<Vec<(usize, usize)>>> = goal
            .iter()
            .map(|c| {
                c.iter()
                    .map(|(a, z)| Some((*comp.get(a)?, *comp.get(z)?)))
                    .collect()
            })
            .collect();
        let joined_node = |nodes: &mut Draft| {
            push(
                nodes,
                goal_node(stones, CellSet::EMPTY, node_goal, NodeKind::Joined),
            )
        };
        let Some(conj_ends) = conj_ends.filter(|_| placed) else {
            return (joined_node(nodes), Status::Undecided, NOTHING);
        };
        // The goal's pairs as components (a union goal: one pair per conjunction).
        let ends: Vec<(usize, usize)> = conj_ends.iter().map(|c| c[0]).collect();
        if conj_ends.iter().any(|c| c.iter().all(|(ca, cz)| ca == cz)) {
            // Joined: the kernel judges it.
            return (joined_node(nodes), Status::Verified, NOTHING);
        }
        // A carried part's own branch (an option of its carrier): its sub-parts' paths say so.
        let label = if inst.rest.is_some() {
            format!("+{}:{}", inst.pattern, b.number)
        } else {
            b.number.to_string()
        };
        // White's cell of a trigger option; the test hook `pending_mutant` = 3 builds the
        // sub-part without it and writes its leaf as if built with it (`lie`).
        let (white, lie) = match step.white {
            Some(w) if self.params.pending_mutant == 3 => (CellSet::EMPTY, CellSet::single(w)),
            Some(w) => (CellSet::single(w), CellSet::EMPTY),
            None => (CellSet::EMPTY, CellSet::EMPTY),
        };
        let mut parts: Vec<Inst> = b
            .parts
            .iter()
            .map(|p| Inst {
                pattern: p.pattern,
                cells: p.map.iter().map(|x| inst.cell(x.n)).collect(),
                placed_at: Some(p.at),
                path: format!("/{label} {}", p.pattern),
                pending: None,
                carried: Vec::new(),
                rest: None,
                white: CellSet::EMPTY,
            })
            .map(|mut p| {
                // White's cells pass to the sub-parts that hold them (`step.white`: the
                // trigger cell the option answers, when it lies in a sub-part).
                let held: CellSet = p.cells.iter().flatten().copied().collect();
                p.white = held & (inst.white | white);
                p
            })
            .collect();
        if let Some(pd) = inst.pending.as_ref().filter(|pd| pd.open) {
            let holds = |p: &Inst, c: Cell| p.cells.contains(&Some(c));
            if r == pd.x || r == pd.to {
                // One end of an open bridge is played: a pending bridge from it to the other
                // end, given to the sub-part that holds the other end (none: dropped).
                let (x, to) = if r == pd.x {
                    (pd.to, pd.x)
                } else {
                    (pd.x, pd.to)
                };
                if let Some(j) = parts.iter().position(|p| holds(p, x)) {
                    parts[j].pending = Some(Rc::new(Pending {
                        x,
                        to,
                        bridge: pd.bridge.clone(),
                        reserve: pd.reserve,
                        open: false,
                    }));
                }
            } else if let Some(j) = parts.iter().position(|p| holds(p, pd.x) && holds(p, pd.to)) {
                // Both ends in one sub-part: it carries the open bridge on.
                parts[j].pending = Some(pd.clone());
            }
        } else if let Some(pd) = &inst.pending {
            if r == pd.x {
                // The empty end is played: the bridge becomes an ordinary part.
                let mut bridge = pd.bridge.clone();
                bridge.path = format!("/{label} {}", bridge.pattern);
                parts.push(bridge);
            } else if let Some(j) = parts.iter().position(|p| p.cells.contains(&Some(pd.x))) {
                parts[j].pending = Some(pd.clone());
            }
        }
        for cd in &inst.carried {
            // The far end in a sub-part (not played): that sub-part carries the part on.
            // Played, or in no sub-part: the part is an ordinary part again.
            if r != cd.x {
                if let Some(j) = parts.iter().position(|p| p.cells.contains(&Some(cd.x))) {
                    parts[j].carried.push(cd.clone());
                    continue;
                }
            }
            let mut part = cd.part.clone();
            part.path = format!("/{label} {}", part.pattern);
            parts.push(part);
        }
        if let Some(rest) = &inst.rest {
            // A carried part's branch: its carrier (without it) is a sibling of its sub-parts.
            let mut t = (**rest).clone();
            t.path = format!("/{label} {}", t.pattern);
            parts.push(t);
        }
        if parts.is_empty() {
            // No sub-patterns: claimed joined; the kernel judges it.
            return (joined_node(nodes), Status::Verified, NOTHING);
        }
        let found = self.pending_bridges(&parts, owned);
        let carry = if self.params.carry {
            self.carried_parts(&parts, owned, &found)
        } else {
            Vec::new()
        };
        let opens = if self.params.open_bridges {
            self.open_bridges(&parts, owned, &found)
        } else {
            Vec::new()
        };
        let by_bridge = |&(_, j, _): &(usize, usize, Cell)| self.childless(&parts[j]);
        let spare = self.params.stars
            && self.params.capabilities
            && carry.iter().any(by_bridge)
            && !carry.iter().all(by_bridge);
        let convertible = (
            !found.is_empty(),
            !carry.is_empty(),
            !opens.is_empty(),
            spare,
        );
        let carry = match convert {
            Convert::All => carry,
            Convert::Spare => carry.into_iter().filter(|c| !by_bridge(c)).collect(),
            _ => Vec::new(),
        };
        if convert != Convert::None {
            let mut gone: Vec<usize> = Vec::new();
            for (k, j, x, to, at) in &found {
                let bridge = parts[*k].clone();
                let reserve = self.params.pending_mutant != 1;
                let pd = Rc::new(Pending {
                    x: *x,
                    to: *to,
                    bridge,
                    reserve,
                    open: false,
                });
                // Given to the part that holds the empty end, or to the part it carries
                // that holds it (which carries it on when it is an ordinary part again).
                parts[*j] = with_pending_at(&parts[*j], at, pd);
                gone.push(*k);
            }
            if convert == Convert::Open {
                for &(k, j, x, to) in &opens {
                    let pd = Rc::new(Pending {
                        x,
                        to,
                        bridge: parts[k].clone(),
                        reserve: self.params.pending_mutant != 1,
                        open: true,
                    });
                    parts[j].pending = Some(pd);
                    gone.push(k);
                }
            }
            for &(k, j, x) in &carry {
                let part = parts[k].clone();
                // The test hooks: 2, no carried part's cells reserved; 4, none in a nested
                // carried-parts retry (depth 2 and more).
                let reserve = !(self.params.pending_mutant == 2
                    || (self.params.pending_mutant == 4 && self.carrying >= 2));
                parts[j].carried.push(Rc::new(Carried { x, part, reserve }));
                gone.push(k);
            }
            gone.sort_unstable();
            for k in gone.into_iter().rev() {
                parts.remove(k);
            }
        }
        let parts = parts;
        let touch: Vec<Vec<usize>> = parts
            .iter()
            .map(|p| {
                let mut t: Vec<usize> = Vec::new();
                for c in p.carrier().iter() {
                    for y in (self.board.neighbours(c) & owned).iter() {
                        let k = comp[&y];
                        if !t.contains(&k) {
                            t.push(k);
                        }
                    }
                }
                // A part carrying a pending bridge (itself or in a part it carries) reaches
                // its Black end (through the bridge's cells, which its carrier holds).
                let mut tos = Vec::new();
                pending_ends(p, &mut tos);
                for k in tos.iter().filter_map(|to| comp.get(to)) {
                    if !t.contains(k) {
                        t.push(*k);
                    }
                }
                t
            })
            .collect();
        let rep = |k: usize| -> Cell {
            // A representative cell of component k: a border if it has one, else a stone.
            let mut best = None;
            for (&c, &j) in &comp {
                if j == k && (best.is_none() || c.is_border()) {
                    best = Some(c);
                }
            }
            best.expect("every component has a cell")
        };
        if conjunctive(goal) {
            // A conjunctive goal: no chain of single pairs states it; the parts get
            // conjunctive goals of their own.
            let why = format!(
                "the sub-patterns of branch {} (pattern {}, Black's reply {}) for the conjunctive goal {}",
                b.number,
                inst.pattern,
                self.name(r),
                self.goal_text(goal)
            );
            let marks = (self.out.len(), self.goal_miss.len());
            let fallback = self.conj_fallback(&parts, &touch, &conj_ends, &rep, &after, why);
            let fallback =
                self.or_widened(fallback, marks, &parts, &touch, &conj_ends, &rep, &after);
            let on = self.params.capabilities;
            let fallback = self.or_retry(fallback, marks, on, |c| {
                // The first assignment under which every part given a goal is verified.
                let found = c.capable(&parts, &touch, &conj_ends, &after)?;
                found
                    .iter()
                    .find_map(|g| c.build_goals(&parts, g, &rep, &after))
            });
            return match fallback {
                Fallback::Composed(children, st) => {
                    match and_node(nodes, &children, stones, node_goal, lie) {
                        Some(id) => (id, st, convertible),
                        None => (joined_node(nodes), st.max(Status::Undecided), convertible),
                    }
                }
                Fallback::NotComposed(st) => {
                    (joined_node(nodes), st.max(Status::Undecided), convertible)
                }
                Fallback::Unknown => (joined_node(nodes), Status::Undecided, convertible),
            };
        }
        let mut candidates = Vec::new();
        for &(ca, cz) in &ends {
            candidates.extend(chains(&touch, ca, cz));
        }
        candidates.sort_by_key(|c| std::cmp::Reverse(c.len()));
        candidates.truncate(MAX_CHAINS);
        if candidates.is_empty() {
            // Goal unknown: no chain of sub-patterns joins the goal. Record the parts as
            // undecided (goal unknown) so the table lists them.
            let touched: Vec<String> = parts
                .iter()
                .zip(&touch)
                .map(|(p, t)| {
                    let ends: Vec<String> = t.iter().map(|&k| self.name(rep(k))).collect();
                    format!("{} touches {}", p.pattern, ends.join(" "))
                })
                .collect();
            let why = format!(
                "no chain of the sub-patterns of branch {} joins {} (pattern {}: {}; Black's reply {})",
                b.number,
                self.goal_text(goal),
                inst.pattern,
                touched.join(", "),
                self.name(r)
            );
            let marks = (self.out.len(), self.goal_miss.len());
            let fallback = self.union_fallback(&parts, &touch, &ends, &rep, &after, why.clone());
            let fallback = self.or_conjunctions(
                fallback, marks, &parts, &touch, &conj_ends, &rep, &after, why,
            );
            return match fallback {
                Fallback::Composed(children, st) => {
                    match and_node(nodes, &children, stones, node_goal, lie) {
                        Some(id) => (id, st, convertible),
                        None => (joined_node(nodes), st.max(Status::Undecided), convertible),
                    }
                }
                Fallback::NotComposed(st) => (joined_node(nodes), st, convertible),
                Fallback::Unknown => (joined_node(nodes), Status::Undecided, convertible),
            };
        }
        // The first chain; others only when it fails in a sub-pattern's own step (a failure
        // deeper down would fail the same way in any chain that uses the sub-pattern) — or,
        // with `Params::carried_goals`, when a part carries another: there a failure below
        // may be the single-pair goal handed down the carried chain (session 27's lower 13,
        // which needs `g6 - f3 | g6 - t`), so other chains and union goals are tried too.
        let below = self.params.carried_goals && parts.iter().any(|p| !p.carried.is_empty());
        let mut first: Option<(Vec<(Built, Goal)>, Status, Vec<Rc<RecTree>>)> = None;
        let mut chosen = None;
        let mut allow = false;
        let mut allow_union = false;
        for chain in &candidates {
            let mark = self.out.len();
            let mut built = Vec::new();
            let mut worst = Status::Verified;
            let mut own = false;
            for &(k, from, to) in chain {
                let g = (rep(from), rep(to));
                let above = self.forced;
                self.forced = above && candidates.len() == 1;
                let bt = self.instance(&parts[k], &single(&[g]), &after);
                self.forced = above;
                worst = worst.max(bt.status);
                own = bt.own;
                built.push((bt, single(&[g])));
                if worst != Status::Verified {
                    break;
                }
            }
            if worst == Status::Verified {
                chosen = Some((built, worst));
                break;
            }
            let records = self.out.split_off(mark);
            if first.is_none() {
                allow_union = own || below;
                allow = (own || below) && self.builds - self.carry_builds < self.params.max_builds;
                first = Some((built, worst, records));
            }
            if !allow {
                break;
            }
        }
        let (built, worst) = match chosen {
            Some(c) => c,
            None => {
                let (built, worst, records) = first.expect("at least one chain was tried");
                let mark = self.out.len();
                let why = format!(
                    "no chain of single-pair goals through the sub-patterns of branch {} is verified",
                    b.number
                );
                // Union goals only when the failure is a sub-pattern's own step (a failure
                // deeper down would recur, and trying again doubles the work per level).
                let marks = (mark, self.goal_miss.len());
                let fallback = if allow_union {
                    self.union_fallback(&parts, &touch, &ends, &rep, &after, why.clone())
                } else {
                    self.goal_miss.push(String::new());
                    Fallback::Unknown
                };
                let fallback = self.or_conjunctions(
                    fallback, marks, &parts, &touch, &conj_ends, &rep, &after, why,
                );
                let fallback =
                    self.or_widened(fallback, marks, &parts, &touch, &conj_ends, &rep, &after);
                let on = self.params.capabilities;
                let fallback = self.or_retry(fallback, marks, on, |c| {
                    let found = c.capable(&parts, &touch, &conj_ends, &after)?;
                    found
                        .iter()
                        .find_map(|g| c.build_goals(&parts, g, &rep, &after))
                });
                match fallback {
                    Fallback::Composed(children, st) => (children, st),
                    Fallback::NotComposed(st) => {
                        return (joined_node(nodes), st.max(Status::Undecided), convertible)
                    }
                    Fallback::Unknown => {
                        // No union goals either: keep the first chain's records.
                        debug_assert_eq!(self.out.len(), mark);
                        self.goal_miss.pop();
                        self.out.extend(records);
                        (built, worst)
                    }
                }
            }
        };
        // Parts outside the chain: not needed for the goal (White's moves there are free).
        match and_node(nodes, &built, stones, node_goal, lie) {
            Some(id) => (id, worst, convertible),
            None => (
                joined_node(nodes),
                worst.max(Status::Undecided),
                convertible,
            ),
        }
    }

    /// After the union fallback (and its revision) failed: try conjunctive goals
    /// ([`Self::conj_fallback`]). When they compose, the union attempt's records and
    /// messages (from `marks`: records, `goal_miss`) are dropped; otherwise everything is
    /// left as the union fallback left it, and its result is returned.
    #[allow(clippy::too_many_arguments)]
    fn or_conjunctions(
        &mut self,
        fallback: Fallback,
        marks: (usize, usize),
        parts: &[Inst],
        touch: &[Vec<usize>],
        ends: &[Vec<(usize, usize)>],
        rep: &dyn Fn(usize) -> Cell,
        after: &Position,
        why: String,
    ) -> Fallback {
        if matches!(fallback, Fallback::Composed(..))
            || !self.params.conjunctions
            || self.builds - self.carry_builds >= self.params.max_builds
        {
            return fallback;
        }
        let (mark, miss) = marks;
        let tried = self.out.split_off(mark);
        let said = self.goal_miss.split_off(miss);
        match self.conj_fallback(parts, touch, ends, rep, after, why) {
            Fallback::Composed(c, st) => Fallback::Composed(c, st),
            // Neither attempt composes the step, so the parts' goals are guesses either
            // way: the records of the attempt under which more placements are verified are
            // kept (each verified record is the kernel's verdict for the goal it names).
            conj @ Fallback::NotComposed(_)
                if verified_in(&self.out[mark..]) > verified_in(&tried) =>
            {
                conj
            }
            _ => {
                self.restore((mark, miss), tried, said);
                fallback
            }
        }
    }

    /// After every other attempt at a step failed: widened chains ([`Self::widen`]). When
    /// they compose, the earlier attempts' records and messages (from `marks`) are dropped;
    /// otherwise everything is left as it was and `fallback` is returned.
    #[allow(clippy::too_many_arguments)]
    fn or_widened(
        &mut self,
        fallback: Fallback,
        marks: (usize, usize),
        parts: &[Inst],
        touch: &[Vec<usize>],
        ends: &[Vec<(usize, usize)>],
        rep: &dyn Fn(usize) -> Cell,
        after: &Position,
    ) -> Fallback {
        let on = self.params.widen;
        self.or_retry(fallback, marks, on, |c| {
            c.widen(parts, touch, ends, rep, after)
        })
    }

    /// A last attempt at a step that nothing before composed (`fallback`), when `on`:
    /// `attempt` builds the parts with new goals. When they compose, the earlier attempts'
    /// records and messages (from `marks`) are dropped and the step is flagged widened (and
    /// conjunctive when some part's goal is); otherwise everything is left as it was and
    /// `fallback` is returned.
    fn or_retry(
        &mut self,
        fallback: Fallback,
        marks: (usize, usize),
        on: bool,
        attempt: impl FnOnce(&mut Self) -> Option<Vec<(Built, Goal)>>,
    ) -> Fallback {
        if matches!(fallback, Fallback::Composed(..))
            || !on
            || self.builds - self.carry_builds >= self.params.max_builds
        {
            return fallback;
        }
        let (mark, miss) = marks;
        let tried = self.out.split_off(mark);
        let said = self.goal_miss.split_off(miss);
        match attempt(self) {
            Some(children) => {
                self.union_used = true;
                self.widened = true;
                if children.iter().any(|(_, g)| conjunctive(g)) {
                    self.conj_used = true;
                }
                Fallback::Composed(children, Status::Verified)
            }
            None => {
                self.restore((mark, miss), tried, said);
                fallback
            }
        }
    }

    /// Widened chains (docs/yang.md "Widened goals: links made by siblings, passed down"):
    /// a chain of sub-patterns from one end of the goal to the other, each part first given
    /// its single pair of the chain, then each part in turn given *every* pair of the
    /// components it touches under which every choice of one pair per part (the others'
    /// current goals) still joins the goal. A part's union goal then says which links its
    /// siblings make: when a sibling joins `t` to `f3`, a part that joined `d7` to `b` in
    /// the chain may join `f3` (or `t`) to `b` instead, and its own sub-patterns inherit
    /// that freedom through its goal, level by level (pattern 293 under 304/5: 308 joins
    /// the top to the f3 group, so 293 gets `t - b | f3 - b | d7 - b`, 16 below it
    /// `f7 - t | f7 - f3 | f7 - d7`, and so on down to pattern 13). The part that fails
    /// first is widened first in the next try. Every assignment written keeps "every choice
    /// joins the goal" (each widening is checked against the others' current goals), and
    /// the kernel re-checks the and-node (condition 6) and every part: nothing here is
    /// trusted. Returns the parts with their goals when all are verified.
    #[allow(clippy::too_many_arguments)]
    fn widen(
        &mut self,
        parts: &[Inst],
        touch: &[Vec<usize>],
        ends: &[Vec<(usize, usize)>],
        rep: &dyn Fn(usize) -> Cell,
        after: &Position,
    ) -> Option<Vec<(Built, Goal)>> {
        let seeds = seeds(touch, ends);
        let ncomp = comp_count(touch, ends);
        // Every choice of one pair per set joins the goal.
        let every = |sets: &[Vec<(usize, usize)>]| -> bool {
            let sets: Vec<Vec<Vec<(usize, usize)>>> = sets
                .iter()
                .map(|g| g.iter().map(|&p| vec![p]).collect())
                .collect();
            every_choice_joins(ncomp, ends, &sets)
        };
        let above = std::mem::replace(&mut self.forced, false);
        let mut result = None;
        let mut failed: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
        'chains: for chain in &seeds {
            let n = chain.len();
            let mut order: Vec<usize> = (0..n).collect();
            for _ in 0..n.min(WIDEN_MAX_ORDERS) {
                let mut sets: Vec<Vec<(usize, usize)>> =
                    chain.iter().map(|&(_, x, y)| vec![(x, y)]).collect();
                for &i in &order {
                    let k = chain[i].0;
                    let t = &touch[k];
                    let mut wide = vec![sets[i][0]];
                    for (a, &x) in t.iter().enumerate() {
                        for &y in &t[a + 1..] {
                            if wide
                                .iter()
                                .any(|&(p, q)| (p, q) == (x, y) || (q, p) == (x, y))
                            {
                                continue;
                            }
                            let mut trial = sets.clone();
                            trial[i] = wide.clone();
                            trial[i].push((x, y));
                            if every(&trial) {
                                wide.push((x, y));
                            }
                        }
                    }
                    sets[i] = wide;
                }
                if sets.iter().all(|g| g.len() == 1) && ends.iter().all(|c| c.len() == 1) {
                    continue 'chains; // the plain chain, tried before
                }
                if chain
                    .iter()
                    .zip(&sets)
                    .any(|(&(k, _, _), g)| failed.iter().any(|(j, h)| *j == k && h == g))
                {
                    continue 'chains;
                }
                let mark = self.out.len();
                let mut built = Vec::new();
                let mut bad = None;
                for (i, &(k, _, _)) in chain.iter().enumerate() {
                    let g: Vec<(Cell, Cell)> =
                        sets[i].iter().map(|&(x, y)| (rep(x), rep(y))).collect();
                    let bt = self.instance(&parts[k], &single(&g), after);
                    if bt.status != Status::Verified {
                        failed.push((k, sets[i].clone()));
                        bad = Some(i);
                        break;
                    }
                    built.push((bt, single(&g)));
                }
                let Some(i) = bad else {
                    result = Some(built);
                    break 'chains;
                };
                self.out.truncate(mark);
                if order[0] == i {
                    continue 'chains;
                }
                order.retain(|&j| j != i);
                order.insert(0, i);
            }
        }
        self.forced = above;
        result
    }

    /// What a part without sub-patterns makes (docs/yang.md "Capability goals"): for a part
    /// none of whose branches has sub-patterns (a bridge `2[h3 f4]`, say), the disjunction,
    /// over its branches, of the conjunction that joins every Black component next to that
    /// branch's reply (h3: `h2 - g4`; f4: `g4 - f3 & g4 - e5`). None for any other part, or
    /// when some reply touches fewer than two components.
    fn capability(
        &self,
        part: &Inst,
        comp: &BTreeMap<Cell, usize>,
        owned: CellSet,
    ) -> Option<Vec<Vec<(usize, usize)>>> {
        if part.pending.is_some()
            || !part.carried.is_empty()
            || part.rest.is_some()
            || part.white != CellSet::EMPTY
        {
            return None;
        }
        if !self.childless(part) {
            return None;
        }
        let pattern = self.s.patterns.get(&part.pattern)?;
        let mut cap: Vec<Vec<(usize, usize)>> = Vec::new();
        for b in &pattern.branches {
            let r = part.cell(b.reply.n)?;
            if owned.contains(r) {
                return None;
            }
            let mut ks: Vec<usize> = Vec::new();
            for y in (self.board.neighbours(r) & owned).iter() {
                let k = *comp.get(&y)?;
                if !ks.contains(&k) {
                    ks.push(k);
                }
            }
            if ks.len() < 2 {
                return None;
            }
            let conj: Vec<(usize, usize)> = ks[1..].iter().map(|&k| (ks[0], k)).collect();
            if !cap.contains(&conj) {
                cap.push(conj);
            }
        }
        (!cap.is_empty()).then_some(cap)
    }

    /// A part of a known pattern none of whose branches has sub-patterns (a bridge).
    fn childless(&self, part: &Inst) -> bool {
        self.s
            .patterns
            .get(&part.pattern)
            .is_some_and(|p| p.branches.iter().all(|b| b.parts.is_empty()))
    }

    /// Capability goals (docs/yang.md "Capability goals"), tried when nothing else composes
    /// a step: each part without sub-patterns in its branches gets what it makes
    /// ([`Self::capability`], a disjunction of conjunctions), and each other part, in turn,
    /// every pair of the components it touches under which every choice of one conjunction
    /// per part (the parts not yet given a goal left out) still joins the step's goal — the
    /// widening of [`Self::widen`], seeded with what the siblings make rather than with a
    /// chain. Joining only grows with more pairs, so the assignment keeps "every choice
    /// joins the goal" as parts are added. At 678/2 (`h2`; `2[i1 h1]`, `2[h3 f4]`, 575) the
    /// bridge `2[h3 f4]` makes `h2 - g4 | g4 - f3 & g4 - e5`, so 575 may join the top (or
    /// h2) to any of f3, e5, d7 or the bottom: the link of e5 and d7 to the g4 side made by
    /// the bridge reaches 575 through its union goal.
    ///
    /// With `Params::stars` (session 33), further assignments follow the greedy one: the
    /// greedy order judges an earlier part with the later ones absent and may give it too
    /// little. Each part without a capability gets, instead, every pair from one component
    /// it touches (its *hub*) to the others it touches, or nothing (left out); the hub
    /// choices under which every choice joins the goal are tried, fewest parts given a goal
    /// first, at most `MAX_STARS` of them (`MAX_STAR_HUBS` hub choices examined). At 603/6
    /// (`2[e6 d6]` making `d7 - f2`, 294, and 317 carrying `2[h2 i1]`, so touching the top)
    /// 294 gets `d2 - f2 | d2 - d7 | d2 - b` and 317 `b - f2 | b - d7 | b - t`.
    ///
    /// Returns the assignments, each to be built by [`Self::build_goals`] (the first under
    /// which every part given a goal is verified is used); the kernel
    /// re-checks each part and the and-node (conditions 6 and 8): nothing here is trusted.
    fn capable(
        &self,
        parts: &[Inst],
        touch: &[Vec<usize>],
        ends: &[Vec<(usize, usize)>],
        after: &Position,
    ) -> Option<Vec<Vec<Vec<Vec<(usize, usize)>>>>> {
        if parts.len() < 2 {
            return None;
        }
        let owned = after.owned(Colour::Black);
        let comp = components(&self.board, owned);
        let caps: Vec<Option<Vec<Vec<(usize, usize)>>>> = parts
            .iter()
            .map(|p| self.capability(p, &comp, owned))
            .collect();
        // No capability at all: only the paired goals below (`Params::stars`).
        let none = caps.iter().all(Option::is_none);
        if caps.iter().all(Option::is_some) || (none && !self.params.stars) {
            return None;
        }
        // A reply's neighbours lie among the components its part touches.
        let ncomp = comp_count(touch, ends);
        let every = |sets: &[Vec<Vec<(usize, usize)>>]| every_choice_joins(ncomp, ends, sets);
        let mut sets: Vec<Vec<Vec<(usize, usize)>>> =
            caps.iter().map(|c| c.clone().unwrap_or_default()).collect();
        for (k, t) in touch.iter().enumerate() {
            if caps[k].is_some() {
                continue;
            }
            for (a, &x) in t.iter().enumerate() {
                for &y in &t[a + 1..] {
                    let mut trial = sets.clone();
                    trial[k].push(vec![(x, y)]);
                    if every(&trial) {
                        sets[k].push(vec![(x, y)]);
                    }
                }
            }
        }
        let given =
            |k: usize, sets: &[Vec<Vec<(usize, usize)>>]| caps[k].is_none() && !sets[k].is_empty();
        let mut found = Vec::new();
        if !none && (0..parts.len()).any(|k| given(k, &sets)) && every(&sets) {
            found.push(sets);
        }
        if !self.params.stars {
            return (!found.is_empty()).then_some(found);
        }
        let free: Vec<usize> = (0..parts.len()).filter(|&k| caps[k].is_none()).collect();
        let base: Vec<Vec<Vec<(usize, usize)>>> =
            caps.iter().map(|c| c.clone().unwrap_or_default()).collect();
        if none {
            found.extend(paired(&free, &base, touch, &every));
            return (!found.is_empty()).then_some(found);
        }
        // Stars: hub choices, an odometer over the parts without a capability (pick
        // `touch[k].len()`: the part left out).
        let hubs = free
            .iter()
            .try_fold(1usize, |n, &k| n.checked_mul(touch[k].len() + 1))
            .filter(|&n| n <= MAX_STAR_HUBS)
            .unwrap_or(0);
        let mut stars = Vec::new();
        for i in 0..hubs {
            let mut trial = base.clone();
            let mut rest = i;
            for &k in &free {
                let t = &touch[k];
                let pick = rest % (t.len() + 1);
                rest /= t.len() + 1;
                if let Some(&h) = t.get(pick) {
                    trial[k] = star(h, t);
                }
            }
            let n = (0..parts.len()).filter(|&k| given(k, &trial)).count();
            if n > 0
                && every(&trial)
                && !found.contains(&trial)
                && !stars.iter().any(|(_, s)| s == &trial)
            {
                stars.push((n, trial));
            }
        }
        stars.sort_by_key(|(n, _)| *n);
        found.extend(stars.into_iter().take(MAX_STARS).map(|(_, t)| t));
        for t in paired(&free, &base, touch, &every) {
            if !found.contains(&t) {
                found.push(t);
            }
        }
        (!found.is_empty()).then_some(found)
    }

    /// The parts with the goals `sets` (component pairs, a disjunction of conjunctions per
    /// part; a part with none is left out), when every part given a goal is verified.
    fn build_goals(
        &mut self,
        parts: &[Inst],
        sets: &[Vec<Vec<(usize, usize)>>],
        rep: &dyn Fn(usize) -> Cell,
        after: &Position,
    ) -> Option<Vec<(Built, Goal)>> {
        let above = std::mem::replace(&mut self.forced, false);
        let mark = self.out.len();
        let mut built = Vec::new();
        let mut ok = true;
        for (k, g) in sets.iter().enumerate() {
            if g.is_empty() {
                continue;
            }
            let goal: Goal = g
                .iter()
                .map(|c| c.iter().map(|&(x, y)| (rep(x), rep(y))).collect())
                .collect();
            let bt = self.instance(&parts[k], &goal, after);
            if bt.status != Status::Verified {
                ok = false;
                break;
            }
            built.push((bt, goal));
        }
        self.forced = above;
        if !ok {
            self.out.truncate(mark);
            return None;
        }
        Some(built)
    }

    /// Conjunctive goals (docs/yang.md "Conjunctive goals"): each part that touches two or
    /// more components and is needed gets the disjunction of the single pairs of its
    /// components, and of the conjunctions of two pairs (neither enough alone), that would
    /// complete one conjunction of the step's goal `ends` if every sibling joined all it
    /// touches; a part not needed is kept only as the one pair of a two-component part (a
    /// bridge a conjunction may rely on). When every choice of one conjunction per part
    /// joins the goal, the parts are built with those goals, and returned when all are
    /// verified; the kernel re-checks the and-node (condition 8). Nothing here is trusted.
    fn conj_fallback(
        &mut self,
        parts: &[Inst],
        touch: &[Vec<usize>],
        ends: &[Vec<(usize, usize)>],
        rep: &dyn Fn(usize) -> Cell,
        after: &Position,
        why: String,
    ) -> Fallback {
        let marks = (self.out.len(), self.goal_miss.len());
        let first = self.conj_goals(parts, touch, ends, rep, after, why.clone());
        // Triples (docs/yang.md "Three-pair conjunctions"): when the step does not compose
        // and some part touches three or more components, it is tried once more with
        // conjunctions of three pairs offered to the parts (316 under 304/10 joins the top
        // to f3, e5 to d7 and b8 to the bottom, its siblings f3 to e5 and d7 to b8). Kept
        // only when it composes; nothing composed before changes (`Params::triples`, on by
        // default). The retry's builds below it see `self.triples` and offer triples at once.
        if matches!(first, Fallback::Composed(..))
            || self.triples
            || !self.params.triples
            || self.builds - self.carry_builds >= self.params.max_builds
            || !touch.iter().any(|t| t.len() >= 3)
        {
            return first;
        }
        let (mark, miss) = marks;
        let tried = self.out.split_off(mark);
        let said = self.goal_miss.split_off(miss);
        self.triples = true;
        let second = self.conj_goals(parts, touch, ends, rep, after, why);
        self.triples = false;
        if matches!(second, Fallback::Composed(..)) {
            return second;
        }
        self.restore((mark, miss), tried, said);
        first
    }

    /// Undoes a failed retry: drops the records and messages it wrote after `marks` and puts
    /// back those of the earlier attempt (`tried`, `said`, split off at `marks` before it).
    fn restore(&mut self, marks: (usize, usize), tried: Vec<Rc<RecTree>>, said: Vec<String>) {
        let (mark, miss) = marks;
        self.out.truncate(mark);
        self.goal_miss.truncate(miss);
        self.out.extend(tried);
        self.goal_miss.extend(said);
    }

    /// [`Self::conj_fallback`]'s one attempt (with three-pair conjunctions when
    /// `self.triples`).
    fn conj_goals(
        &mut self,
        parts: &[Inst],
        touch: &[Vec<usize>],
        ends: &[Vec<(usize, usize)>],
        rep: &dyn Fn(usize) -> Cell,
        after: &Position,
        why: String,
    ) -> Fallback {
        let triples = self.triples;
        let ncomp = touch
            .iter()
            .flatten()
            .chain(ends.iter().flatten().flat_map(|(a, z)| [a, z]))
            .max()
            .map_or(0, |m| m + 1);
        let joins = |merge: &[(usize, usize)]| {
            let mut uf: Vec<usize> = (0..ncomp).collect();
            fn find(uf: &mut [usize], mut x: usize) -> usize {
                while uf[x] != x {
                    uf[x] = uf[uf[x]];
                    x = uf[x];
                }
                x
            }
            for &(x, y) in merge {
                let (a, b) = (find(&mut uf, x), find(&mut uf, y));
                uf[a] = b;
            }
            ends.iter()
                .any(|c| c.iter().all(|&(a, z)| find(&mut uf, a) == find(&mut uf, z)))
        };
        let unknown = |c: &mut Checker| {
            c.goal_miss.push(format!("goal unknown: {why}"));
            Fallback::Unknown
        };
        // Each part's goal, given the links `assume[j]` its siblings are taken to make: None
        // when some needed part has no goal at all and `strict` (the first round; later, such
        // a part is left out and the choices decide).
        type Goals = Vec<(usize, Vec<Vec<(usize, usize)>>)>;
        let compute = |assume: &[Vec<(usize, usize)>], strict: bool| -> Option<Goals> {
            let mut goals: Goals = Vec::new();
            for (k, t) in touch.iter().enumerate() {
                if t.len() < 2 {
                    continue;
                }
                let pairs = pairs_of(t);
                let merge: Vec<(usize, usize)> = assume
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .flat_map(|(_, a)| a.iter().copied())
                    .collect();
                if joins(&merge) {
                    if t.len() == 2 {
                        goals.push((k, vec![vec![pairs[0]]]));
                    }
                    continue;
                }
                let with = |extra: &[(usize, usize)]| {
                    let mut m = merge.clone();
                    m.extend_from_slice(extra);
                    joins(&m)
                };
                let (singles, rest): (Vec<_>, Vec<_>) = pairs.iter().partition(|&&p| with(&[p]));
                let mut dnf: Vec<Vec<(usize, usize)>> = singles.iter().map(|&p| vec![p]).collect();
                let mut doubles = 0;
                // With triples (the closure of the goal under the siblings' links), every
                // minimal conjunction up to three pairs is wanted: more doubles too.
                let max_doubles = if triples {
                    CONJ_MAX_TRIPLES
                } else {
                    CONJ_MAX_DOUBLES
                };
                for (i, &p) in rest.iter().enumerate() {
                    for &q in &rest[i + 1..] {
                        if doubles < max_doubles && with(&[p, q]) {
                            dnf.push(vec![p, q]);
                            doubles += 1;
                        }
                    }
                }
                if triples {
                    // Minimal three-pair conjunctions: no two of the three join already.
                    let mut found = 0;
                    for (i, &p) in rest.iter().enumerate() {
                        for (j, &q) in rest.iter().enumerate().skip(i + 1) {
                            for &u in &rest[j + 1..] {
                                if found < CONJ_MAX_TRIPLES
                                    && with(&[p, q, u])
                                    && !with(&[p, q])
                                    && !with(&[p, u])
                                    && !with(&[q, u])
                                {
                                    dnf.push(vec![p, q, u]);
                                    found += 1;
                                }
                            }
                        }
                    }
                }
                if dnf.is_empty() {
                    if strict {
                        return None;
                    }
                    continue;
                }
                goals.push((k, dnf));
            }
            Some(goals)
        };
        // The first choice of one conjunction per part that leaves the goal unjoined (its
        // links), or `Err` for too many choices (the kernel checks the same, condition 8).
        let unjoined = |goals: &[(usize, Vec<Vec<(usize, usize)>>)]| -> Result<Option<Vec<(usize, usize)>>, ()> {
            let count = goals
                .iter()
                .try_fold(1usize, |n, (_, d)| n.checked_mul(d.len()))
                .filter(|&n| n <= kernel::MAX_CHOICES)
                .ok_or(())?;
            let mut choice = vec![0usize; goals.len()];
            for _ in 0..count {
                let merge: Vec<(usize, usize)> = goals
                    .iter()
                    .zip(&choice)
                    .flat_map(|((_, d), &i)| d[i].iter().copied())
                    .collect();
                if !joins(&merge) {
                    return Ok(Some(merge));
                }
                for (i, (_, d)) in choice.iter_mut().zip(goals) {
                    *i += 1;
                    if *i < d.len() {
                        break;
                    }
                    *i = 0;
                }
            }
            Ok(None)
        };
        // First every sibling is taken to join all it touches; when some choice fails, each
        // sibling is taken to make only the links of every one of its conjunctions (which
        // any choice makes), and the goals are computed again (at most CONJ_ROUNDS times).
        let mut assume: Vec<Vec<(usize, usize)>> = touch
            .iter()
            .map(|u| u.windows(2).map(|w| (w[0], w[1])).collect())
            .collect();
        let mut goals: Goals = Vec::new();
        let mut verdict = Ok(None);
        let mut first: Option<Goals> = None;
        for round in 0..CONJ_ROUNDS {
            let Some(g) = compute(&assume, round == 0) else {
                break;
            };
            verdict = unjoined(&g);
            goals = g;
            if first.is_none() {
                first = Some(goals.clone());
            }
            if verdict == Ok(None) {
                break;
            }
            let mut next: Vec<Vec<(usize, usize)>> = vec![Vec::new(); touch.len()];
            for (k, d) in &goals {
                next[*k] = d[0]
                    .iter()
                    .copied()
                    .filter(|p| d.iter().all(|c| c.contains(p)))
                    .collect();
            }
            if next == assume {
                break;
            }
            assume = next;
        }
        // Completion: the parts left out (not needed when every sibling joins all it
        // touches, e.g. pattern 13 under 304/1, which joins h2 to f3 only for the choice
        // where 292 joins e5, not h2, to the bottom) come back with one goal each (a union of
        // its pairs or one pair), the fewest parts first, when every choice then joins the goal.
        let mut completed = false;
        if verdict != Ok(None) {
            let bases = first.iter().chain(std::iter::once(&goals));
            let done = bases.into_iter().find_map(|base| {
                let left: Vec<(usize, Vec<Vec<Vec<(usize, usize)>>>)> = touch
                    .iter()
                    .enumerate()
                    .filter(|&(k, t)| t.len() >= 2 && base.iter().all(|(j, _)| *j != k))
                    .map(|(k, t)| {
                        let pairs = pairs_of(t);
                        // The weakest claims first: the union of all its pairs, unions of
                        // two, single pairs.
                        let mut options: Vec<Vec<Vec<(usize, usize)>>> = Vec::new();
                        if pairs.len() > 2 && pairs.len() <= REVISE_MAX_PAIRS {
                            options.push(pairs.iter().map(|&p| vec![p]).collect());
                        }
                        if pairs.len() <= REVISE_MAX_PAIRS {
                            for (i, &p) in pairs.iter().enumerate() {
                                for &q in &pairs[i + 1..] {
                                    options.push(vec![vec![p], vec![q]]);
                                }
                            }
                        }
                        options.extend(pairs.iter().map(|&p| vec![vec![p]]));
                        (k, options)
                    })
                    .collect();
                complete(base, &left, &unjoined)
            });
            if let Some(g) = done {
                goals = g;
                verdict = Ok(None);
                completed = true;
            }
        }
        let new = ends
            .iter()
            .chain(goals.iter().flat_map(|(_, d)| d))
            .any(|c| c.len() > 1);
        // Without a conjunction anywhere this is the union fallback's ground, unless the
        // completion brought in a part it left out.
        if goals.is_empty() || !(new || completed) {
            return unknown(self);
        }
        match verdict {
            Ok(None) => {}
            Ok(Some(merge)) => {
                let what: Vec<String> = merge
                    .iter()
                    .map(|&(x, y)| format!("{} - {}", self.name(rep(x)), self.name(rep(y))))
                    .collect();
                self.goal_miss.push(format!(
                    "not composed: {why}; with conjunctive goals, when the parts join only {} the goal is not joined",
                    what.join(", ")
                ));
                return Fallback::NotComposed(Status::Undecided);
            }
            Err(()) => {
                self.goal_miss.push(format!(
                    "not composed: {why}; too many choices of conjunctions"
                ));
                return Fallback::NotComposed(Status::Undecided);
            }
        }
        let above = std::mem::replace(&mut self.forced, false);
        let mut built = Vec::new();
        let mut texts = Vec::new();
        let mut worst = Status::Verified;
        let as_goal = |d: &[Vec<(usize, usize)>]| -> Goal {
            d.iter()
                .map(|c| c.iter().map(|&(x, y)| (rep(x), rep(y))).collect())
                .collect()
        };
        for i in 0..goals.len() {
            let k = goals[i].0;
            let mark = self.out.len();
            let g = as_goal(&goals[i].1);
            let mut bt = self.instance(&parts[k], &g, after);
            let mut g = g;
            if bt.status != Status::Verified
                && self.builds - self.carry_builds < self.params.max_builds
            {
                // Repair: a part not verified for its goal is tried with the unions of two of
                // its own pairs, then its single pairs (at most CONJ_MAX_REPAIRS), when every
                // choice still joins the step's goal; the first verified one is kept, its
                // failed tries' records dropped.
                let failed = self.out.split_off(mark);
                let t = &touch[k];
                let pairs = pairs_of(t);
                let mut alts: Vec<Vec<Vec<(usize, usize)>>> = Vec::new();
                for (a, &p) in pairs.iter().enumerate() {
                    for &q in &pairs[a + 1..] {
                        alts.push(vec![vec![p], vec![q]]);
                    }
                }
                alts.extend(pairs.iter().map(|&p| vec![vec![p]]));
                let mut tries = 0;
                for alt in alts {
                    if alt == goals[i].1 || tries >= CONJ_MAX_REPAIRS {
                        continue;
                    }
                    let mut g2 = goals.clone();
                    g2[i].1 = alt;
                    if unjoined(&g2) != Ok(None) {
                        continue;
                    }
                    tries += 1;
                    let ga = as_goal(&g2[i].1);
                    let b2 = self.instance(&parts[k], &ga, after);
                    if b2.status == Status::Verified {
                        goals = g2;
                        bt = b2;
                        g = ga;
                        break;
                    }
                    self.out.truncate(mark);
                }
                if bt.status != Status::Verified {
                    self.out.truncate(mark);
                    self.out.extend(failed);
                }
            }
            worst = worst.max(bt.status);
            texts.push(format!("{} as {}", parts[k].pattern, self.goal_text(&g)));
            built.push((bt, g));
            if worst != Status::Verified {
                break;
            }
        }
        self.forced = above;
        if worst == Status::Verified {
            self.conj_used = true;
            return Fallback::Composed(built, worst);
        }
        self.goal_miss.push(format!(
            "not composed: {why}; the sub-patterns were checked with conjunctive goals ({}), but a part is not verified for its goal",
            texts.join("; ")
        ));
        Fallback::NotComposed(worst.max(Status::Undecided))
    }

    /// When no chain of single pairs works: each needed sub-pattern's goal as a
    /// union-connection (the pairs of components it touches that would complete the
    /// parent's goal if every sibling joined all it touches), each checked on its own. When
    /// every choice of one pair per part joins the goal, the parts are returned for a union
    /// AND (kernel condition 6, which the kernel re-checks); otherwise the step is not
    /// composed (docs/yang.md) and why is recorded in `goal_miss`.
    fn union_fallback(
        &mut self,
        parts: &[Inst],
        touch: &[Vec<usize>],
        ends: &[(usize, usize)],
        rep: &dyn Fn(usize) -> Cell,
        after: &Position,
        why: String,
    ) -> Fallback {
        let ncomp = touch
            .iter()
            .flatten()
            .chain(ends.iter().flat_map(|(a, z)| [a, z]))
            .max()
            .map_or(0, |m| m + 1);
        let joins = |merge: &[(usize, usize)]| {
            let mut uf: Vec<usize> = (0..ncomp).collect();
            fn find(uf: &mut [usize], x: usize) -> usize {
                let mut x = x;
                while uf[x] != x {
                    uf[x] = uf[uf[x]];
                    x = uf[x];
                }
                x
            }
            for &(x, y) in merge {
                let (a, b) = (find(&mut uf, x), find(&mut uf, y));
                uf[a] = b;
            }
            ends.iter()
                .any(|&(a, z)| find(&mut uf, a) == find(&mut uf, z))
        };
        let mut goals: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
        for k in 0..parts.len() {
            let mut merge: Vec<(usize, usize)> = Vec::new();
            for (j, t) in touch.iter().enumerate() {
                if j != k {
                    merge.extend(t.windows(2).map(|w| (w[0], w[1])));
                }
            }
            if joins(&merge) {
                continue; // not needed
            }
            let mut pairs = Vec::new();
            for (i, &x) in touch[k].iter().enumerate() {
                for &y in &touch[k][i + 1..] {
                    merge.push((x, y));
                    if joins(&merge) {
                        pairs.push((x, y));
                    }
                    merge.pop();
                }
            }
            if pairs.is_empty() {
                self.goal_miss.push(format!("goal unknown: {why}"));
                return Fallback::Unknown;
            }
            goals.push((k, pairs));
        }
        if goals.is_empty() {
            self.goal_miss.push(format!("goal unknown: {why}"));
            return Fallback::Unknown;
        }
        // Every choice of one pair per part must join the goal (an odometer over the
        // choices; the kernel checks the same on the cells).
        let mut choice = vec![0usize; goals.len()];
        let mut unjoined = None;
        'choices: loop {
            let merge: Vec<(usize, usize)> =
                goals.iter().zip(&choice).map(|((_, g), &i)| g[i]).collect();
            if !joins(&merge) {
                unjoined = Some(merge);
                break;
            }
            for (i, (_, g)) in choice.iter_mut().zip(&goals) {
                *i += 1;
                if *i < g.len() {
                    continue 'choices;
                }
                *i = 0;
            }
            break;
        }
        let mut worst = Status::Verified;
        let mut unions = Vec::new();
        let mut built = Vec::new();
        let first_try = self.out.len();
        for (k, g) in &goals {
            let g: Vec<(Cell, Cell)> = g.iter().map(|&(x, y)| (rep(x), rep(y))).collect();
            let bt = self.instance(&parts[*k], &single(&g), after);
            worst = worst.max(bt.status);
            unions.push(format!(
                "{} as {}",
                parts[*k].pattern,
                g.iter()
                    .map(|&(a, z)| format!("{} - {}", self.name(a), self.name(z)))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
            built.push((bt, single(&g)));
        }
        let unions = unions.join("; ");
        if (unjoined.is_some() || worst != Status::Verified) && self.params.revise {
            let tried = self.out.split_off(first_try);
            // The parts left out as not needed may be needed once the others' goals shrink:
            // they come in too, with every pair of the components they touch, or unused.
            let mut every = goals.clone();
            let extra = every.len();
            for (k, t) in touch.iter().enumerate() {
                if every[..extra].iter().any(|(j, _)| *j == k) || t.len() < 2 {
                    continue;
                }
                let pairs = pairs_of(t);
                every.push((k, pairs));
            }
            if let Some(children) = self.revise(parts, &every, extra, ends, &joins, rep, after) {
                self.revised = true;
                if children.iter().any(|(_, g)| g.len() > 1) {
                    self.union_used = true;
                }
                return Fallback::Composed(children, Status::Verified);
            }
            self.out.extend(tried);
        }
        let missing = match unjoined {
            // Composed only when every part is verified: a part that fails with a union goal
            // leaves the step "not composed" (its own failure), so the steps above try
            // their other chains as before.
            None if worst == Status::Verified => {
                self.union_used = true;
                return Fallback::Composed(built, worst);
            }
            None => "a part is not verified for its union goal".to_string(),
            Some(merge) => {
                let what: Vec<String> = merge
                    .iter()
                    .map(|&(x, y)| format!("{} - {}", self.name(rep(x)), self.name(rep(y))))
                    .collect();
                format!(
                    "when they join only {} the goal is not joined",
                    what.join(", ")
                )
            }
        };
        self.goal_miss.push(format!(
            "not composed: {why}; the sub-patterns were checked on their own with union goals ({unions}), but {missing}"
        ));
        Fallback::NotComposed(worst.max(Status::Undecided))
    }
}

/// One more than the highest component that `touch` or `ends` names.
fn comp_count(touch: &[Vec<usize>], ends: &[Vec<(usize, usize)>]) -> usize {
    touch
        .iter()
        .flatten()
        .chain(ends.iter().flatten().flat_map(|(a, z)| [a, z]))
        .max()
        .map_or(0, |m| m + 1)
}

/// Every choice of one conjunction per non-empty set of `sets`, its pairs merged (components
/// below `ncomp`), joins every pair of some conjunction of `ends` (an odometer; at most
/// kernel::MAX_CHOICES choices, else false). Empty sets are parts without a goal.
fn every_choice_joins(
    ncomp: usize,
    ends: &[Vec<(usize, usize)>],
    sets: &[Vec<Vec<(usize, usize)>>],
) -> bool {
    fn find(uf: &mut [usize], mut x: usize) -> usize {
        while uf[x] != x {
            uf[x] = uf[uf[x]];
            x = uf[x];
        }
        x
    }
    let used: Vec<&Vec<Vec<(usize, usize)>>> = sets.iter().filter(|g| !g.is_empty()).collect();
    let Some(count) = used
        .iter()
        .try_fold(1usize, |n, g| n.checked_mul(g.len()))
        .filter(|&n| n <= kernel::MAX_CHOICES)
    else {
        return false;
    };
    let mut choice = vec![0usize; used.len()];
    for _ in 0..count {
        let mut uf: Vec<usize> = (0..ncomp).collect();
        for (g, &i) in used.iter().zip(&choice) {
            for &(x, y) in &g[i] {
                let (a, b) = (find(&mut uf, x), find(&mut uf, y));
                uf[a] = b;
            }
        }
        if !ends
            .iter()
            .any(|c| c.iter().all(|&(a, z)| find(&mut uf, a) == find(&mut uf, z)))
        {
            return false;
        }
        for (i, g) in choice.iter_mut().zip(&used) {
            *i += 1;
            if *i < g.len() {
                break;
            }
            *i = 0;
        }
    }
    true
}

/// Every pair of distinct components of `t`, in order.
fn pairs_of(t: &[usize]) -> Vec<(usize, usize)> {
    t.iter()
        .enumerate()
        .flat_map(|(i, &x)| t[i + 1..].iter().map(move |&y| (x, y)))
        .collect()
}

/// The star of `hub` among the components `t`: every pair from it to the others.
fn star(hub: usize, t: &[usize]) -> Vec<Vec<(usize, usize)>> {
    t.iter()
        .filter(|&&c| c != hub)
        .map(|&c| vec![(hub, c)])
        .collect()
}

/// Paired goals (`Params::stars`, docs/yang.md "Star goals"): for a step with exactly two
/// parts without a capability (`free`), one part `k` gets the star of one of its components
/// (every pair from that hub to the others it touches) and the other part `j` the
/// *universal* goal against it: every minimal conjunction of one or two pairs of the
/// components `j` touches that joins the goal with every choice of `k`'s star and of the
/// capabilities (`base`, the other parts' goals). So every choice joins the goal by
/// construction (`every` is asked for each conjunction). 594/9 (599 and 600, Black b8):
/// 599 `t - f3 | t - e5 | t - b8` and 600 `t - b | f3 - b & b8 - b | …` (session 30's G6
/// and more). The assignments whose universal goal is widest come first, at most
/// `MAX_STARS`; a universal goal keeps at most `MAX_UNIVERSAL` conjunctions.
fn paired(
    free: &[usize],
    base: &[Vec<Vec<(usize, usize)>>],
    touch: &[Vec<usize>],
    every: &dyn Fn(&[Vec<Vec<(usize, usize)>>]) -> bool,
) -> Vec<Vec<Vec<Vec<(usize, usize)>>>> {
    let &[a, b] = free else {
        return Vec::new();
    };
    let mut out: Vec<(usize, Vec<Vec<Vec<(usize, usize)>>>)> = Vec::new();
    for (k, j) in [(a, b), (b, a)] {
        for &h in &touch[k] {
            let mut trial = base.to_vec();
            trial[k] = star(h, &touch[k]);
            if trial[k].is_empty() {
                continue;
            }
            let t = &touch[j];
            let pairs = pairs_of(t);
            let mut works = |c: Vec<(usize, usize)>| {
                trial[j] = vec![c];
                every(&trial)
            };
            let singles: Vec<bool> = pairs.iter().map(|&p| works(vec![p])).collect();
            let mut uni: Vec<Vec<(usize, usize)>> = pairs
                .iter()
                .zip(&singles)
                .filter(|(_, &w)| w)
                .map(|(&p, _)| vec![p])
                .collect();
            for x in 0..pairs.len() {
                for y in x + 1..pairs.len() {
                    if !singles[x] && !singles[y] && works(vec![pairs[x], pairs[y]]) {
                        uni.push(vec![pairs[x], pairs[y]]);
                    }
                }
            }
            uni.truncate(MAX_UNIVERSAL);
            if uni.is_empty() {
                continue;
            }
            trial[j] = uni;
            if every(&trial) {
                out.push((trial[j].len(), trial));
            }
        }
    }
    out.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    out.into_iter().take(MAX_STARS).map(|(_, t)| t).collect()
}

/// Widened chains: the starting assignments of a step whose goal is the disjunction of
/// conjunctions `ends` (component pairs): for one conjunction, a chain of parts (each used
/// once) for each of its pairs, every part with the pair of the chain it links; the ones with
/// the most parts first (Yang's decompositions use all their parts), at most
/// [`WIDEN_MAX_CHAINS`]. Each step: (part, entry component, exit component).
fn seeds(touch: &[Vec<usize>], ends: &[Vec<(usize, usize)>]) -> Vec<Vec<(usize, usize, usize)>> {
    fn go(
        touch: &[Vec<usize>],
        pairs: &[(usize, usize)],
        acc: &mut Vec<(usize, usize, usize)>,
        out: &mut Vec<Vec<(usize, usize, usize)>>,
    ) {
        if out.len() >= 4 * WIDEN_MAX_CHAINS {
            return;
        }
        let Some((&(a, z), rest)) = pairs.split_first() else {
            if !acc.is_empty() {
                out.push(acc.clone());
            }
            return;
        };
        if a == z {
            return go(touch, rest, acc, out);
        }
        // The parts already used are out of the other pairs' chains.
        let free: Vec<Vec<usize>> = touch
            .iter()
            .enumerate()
            .map(|(k, t)| {
                if acc.iter().any(|&(j, _, _)| j == k) {
                    Vec::new()
                } else {
                    t.clone()
                }
            })
            .collect();
        for chain in chains(&free, a, z) {
            let n = acc.len();
            acc.extend(chain);
            go(touch, rest, acc, out);
            acc.truncate(n);
        }
    }
    let mut out = Vec::new();
    for c in ends {
        go(touch, c, &mut Vec::new(), &mut out);
    }
    out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    out.dedup();
    out.truncate(WIDEN_MAX_CHAINS);
    out
}

/// Goal revision: the candidate goals of one part whose union goal is `m` pairs: every
/// non-empty subset (as bit masks over the pairs), the largest first, the whole set excluded
/// (it was tried); beyond [`REVISE_MAX_PAIRS`] pairs, each single pair only.
fn subsets(m: usize) -> Vec<u32> {
    let mut v: Vec<u32> = if m <= REVISE_MAX_PAIRS {
        (1..(1u32 << m) - 1).collect()
    } else {
        (0..m).map(|i| 1u32 << i).collect()
    };
    v.sort_by_key(|x| std::cmp::Reverse(x.count_ones()));
    v
}

/// The pairs `chosen` (component pairs) ordered and oriented into a chain from one end of a
/// pair of `ends` to the other (kernel condition 4, for an and-node without unions).
fn as_chain(chosen: &[(usize, usize)], ends: &[(usize, usize)]) -> Option<Vec<(usize, bool)>> {
    fn go(
        chosen: &[(usize, usize)],
        at: usize,
        to: usize,
        used: &mut Vec<bool>,
        path: &mut Vec<(usize, bool)>,
    ) -> bool {
        if path.len() == chosen.len() {
            return at == to;
        }
        for i in 0..chosen.len() {
            if used[i] {
                continue;
            }
            let (x, y) = chosen[i];
            for (from, next, flip) in [(x, y, false), (y, x, true)] {
                if from == at {
                    used[i] = true;
                    path.push((i, flip));
                    if go(chosen, next, to, used, path) {
                        return true;
                    }
                    path.pop();
                    used[i] = false;
                }
            }
        }
        false
    }
    for &(a, z) in ends {
        for (s, e) in [(a, z), (z, a)] {
            let mut used = vec![false; chosen.len()];
            let mut path = Vec::new();
            if go(chosen, s, e, &mut used, &mut path) {
                return Some(path);
            }
        }
    }
    None
}

impl Checker<'_> {
    /// Goal revision (docs/yang.md "Goal revision"): the union goals of a step did not
    /// compose — a part is not verified for its union goal, or some choice of pairs leaves
    /// the goal unjoined. Tries the parts with smaller goals (single pairs, unions of two, …:
    /// subsets of their union goals; a part proved for fewer pairs is proved for more), in
    /// assignments where every choice of one pair per part still joins the goal, the weakest
    /// claims first; the first assignment whose parts are all verified is returned, each part
    /// with its goal, ordered as a chain when every goal is one pair. The kernel judges the
    /// step written with them as any other (condition 4 or 6); nothing here is trusted.
    #[allow(clippy::too_many_arguments)]
    fn revise(
        &mut self,
        parts: &[Inst],
        goals: &[(usize, Vec<(usize, usize)>)],
        needed: usize,
        ends: &[(usize, usize)],
        joins: &dyn Fn(&[(usize, usize)]) -> bool,
        rep: &dyn Fn(usize) -> Cell,
        after: &Position,
    ) -> Option<Vec<(Built, Goal)>> {
        // Per part: the goal tried first (its whole union; unused, 0, for a part beyond the
        // `needed` ones), then the others.
        let cands: Vec<Vec<u32>> = goals
            .iter()
            .enumerate()
            .map(|(i, (_, g))| {
                let full = (1u32 << g.len().min(31)) - 1;
                let mut c = if i < needed {
                    vec![full]
                } else {
                    vec![0, full]
                };
                c.extend(subsets(g.len()));
                c
            })
            .collect();
        let pick = |i: usize, mask: u32| -> Vec<(usize, usize)> {
            goals[i]
                .1
                .iter()
                .enumerate()
                .filter(|(j, _)| mask >> j & 1 == 1)
                .map(|(_, &p)| p)
                .collect()
        };
        // Assignments (one candidate per part) where every choice of pairs joins the goal.
        let mut valid: Vec<(u32, Vec<u32>)> = Vec::new();
        let mut at = vec![0usize; cands.len()];
        let mut seen = 0;
        'assign: loop {
            seen += 1;
            if seen > REVISE_MAX_ASSIGNMENTS {
                break;
            }
            let masks: Vec<u32> = at.iter().zip(&cands).map(|(&i, c)| c[i]).collect();
            if masks.iter().zip(&cands).any(|(m, c)| *m != c[0]) {
                let sets: Vec<Vec<(usize, usize)>> = (0..masks.len())
                    .map(|i| pick(i, masks[i]))
                    .filter(|g| !g.is_empty())
                    .collect();
                let mut choice = vec![0usize; sets.len()];
                let ok = 'choices: loop {
                    let merge: Vec<(usize, usize)> =
                        sets.iter().zip(&choice).map(|(g, &i)| g[i]).collect();
                    if !joins(&merge) {
                        break false;
                    }
                    for (i, g) in choice.iter_mut().zip(&sets) {
                        *i += 1;
                        if *i < g.len() {
                            continue 'choices;
                        }
                        *i = 0;
                    }
                    break true;
                };
                if ok {
                    let size = masks.iter().map(|m| m.count_ones()).sum();
                    valid.push((size, masks));
                }
            }
            for (i, c) in at.iter_mut().zip(&cands) {
                *i += 1;
                if *i < c.len() {
                    continue 'assign;
                }
                *i = 0;
            }
            break;
        }
        valid.sort_by_key(|(size, _)| std::cmp::Reverse(*size));
        let mut failed: Vec<(usize, u32)> = Vec::new();
        for (_, masks) in valid.into_iter().take(REVISE_MAX_TRIES) {
            if masks
                .iter()
                .enumerate()
                .any(|(i, &m)| failed.contains(&(i, m)))
            {
                continue;
            }
            // The parts used (a goal of at least one pair), by index into `goals`.
            let used: Vec<usize> = (0..masks.len()).filter(|&i| masks[i] != 0).collect();
            let sets: Vec<Vec<(usize, usize)>> =
                (0..masks.len()).map(|i| pick(i, masks[i])).collect();
            // Every goal one pair: the and-node is a chain (condition 4), in chain order.
            let order: Vec<(usize, bool)> = if used.iter().all(|&i| sets[i].len() == 1) {
                let singles: Vec<(usize, usize)> = used.iter().map(|&i| sets[i][0]).collect();
                match as_chain(&singles, ends) {
                    Some(o) => o.into_iter().map(|(j, flip)| (used[j], flip)).collect(),
                    None => continue,
                }
            } else {
                used.iter().map(|&i| (i, false)).collect()
            };
            let mark = self.out.len();
            let mut built = Vec::new();
            let mut ok = true;
            for &(i, flip) in &order {
                let g: Vec<(Cell, Cell)> = sets[i]
                    .iter()
                    .map(|&(x, y)| {
                        if flip {
                            (rep(y), rep(x))
                        } else {
                            (rep(x), rep(y))
                        }
                    })
                    .collect();
                let bt = self.instance(&parts[goals[i].0], &single(&g), after);
                if bt.status != Status::Verified {
                    failed.push((i, masks[i]));
                    ok = false;
                    break;
                }
                built.push((bt, single(&g)));
            }
            if ok {
                return Some(built);
            }
            self.out.truncate(mark);
        }
        None
    }
}

/// Conjunctive goals, completion: the parts `left` out of `base` (each with its candidate
/// goals: unions of its pairs, then single pairs) brought in with one goal each, the fewest
/// parts first (at most
/// [`CONJ_MAX_COMPLETIONS`] assignments looked at); the first assignment under which
/// `unjoined` finds every choice of one conjunction per part joining the goal, with the
/// added parts in order of their index. Untrusted: the kernel checks the and-node.
#[allow(clippy::type_complexity)]
fn complete(
    base: &[(usize, Vec<Vec<(usize, usize)>>)],
    left: &[(usize, Vec<Vec<Vec<(usize, usize)>>>)],
    unjoined: &dyn Fn(
        &[(usize, Vec<Vec<(usize, usize)>>)],
    ) -> Result<Option<Vec<(usize, usize)>>, ()>,
) -> Option<Vec<(usize, Vec<Vec<(usize, usize)>>)>> {
    let mut looked = 0usize;
    for size in 1..=left.len().min(3) {
        // Every subset of `size` left-out parts (bit masks), then every pair for each.
        for mask in 1u32..(1u32 << left.len().min(16)) {
            if mask.count_ones() as usize != size {
                continue;
            }
            let chosen: Vec<&(usize, Vec<Vec<Vec<(usize, usize)>>>)> = left
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, x)| x)
                .collect();
            let mut pick = vec![0usize; chosen.len()];
            loop {
                looked += 1;
                if looked > CONJ_MAX_COMPLETIONS {
                    return None;
                }
                let mut g: Vec<(usize, Vec<Vec<(usize, usize)>>)> = base.to_vec();
                for (x, &i) in chosen.iter().zip(&pick) {
                    g.push((x.0, x.1[i].clone()));
                }
                g.sort_by_key(|(k, _)| *k);
                if unjoined(&g) == Ok(None) {
                    return Some(g);
                }
                let mut i = 0;
                loop {
                    if i == pick.len() {
                        break;
                    }
                    pick[i] += 1;
                    if pick[i] < chosen[i].1.len() {
                        break;
                    }
                    pick[i] = 0;
                    i += 1;
                }
                if i == pick.len() {
                    break;
                }
            }
        }
    }
    None
}

/// Widened chains: the most chains of sub-patterns widened per step.
const WIDEN_MAX_CHAINS: usize = 4;
/// Widened chains: the most orders of widening tried per chain.
const WIDEN_MAX_ORDERS: usize = 3;
/// Conjunctive goals, repair: the most other goals built for a part not verified for its own.
const CONJ_MAX_REPAIRS: usize = 4;
/// Conjunctive goals, completion: the most assignments of pairs to left-out parts looked at
/// per step.
const CONJ_MAX_COMPLETIONS: usize = 512;
/// Conjunctive goals: the most conjunctions of two pairs given to one part.
const CONJ_MAX_DOUBLES: usize = 8;

/// How many three-pair (and, in the retry with triples, two-pair) conjunctions a part's goal
/// may hold. 316 under 304/10 and 411 under 316/6 need 32 triples and 8 doubles: every
/// minimal conjunction that joins the parent's goal given the siblings' links.
const CONJ_MAX_TRIPLES: usize = 64;
/// Conjunctive goals: rounds of goals computed per step (the first with every sibling
/// joining all it touches, then with the links every conjunction of a sibling makes).
const CONJ_ROUNDS: usize = 3;
/// Goal revision: a union goal of more pairs than this has only its single pairs tried.
const REVISE_MAX_PAIRS: usize = 4;
/// Goal revision: assignments of candidate goals examined per step.
const REVISE_MAX_ASSIGNMENTS: usize = 4096;
/// Goal revision: assignments whose parts are built per step.
const REVISE_MAX_TRIES: usize = 12;
/// Star goals (`Params::stars`): hub choices examined per step, at most.
const MAX_STAR_HUBS: usize = 256;
/// Star goals: assignments (besides the greedy one) built per step, at most (and as many
/// paired ones).
const MAX_STARS: usize = 3;
/// Paired goals: conjunctions of a universal goal, at most.
const MAX_UNIVERSAL: usize = 32;

/// Checks one pattern placed by hand: pattern `pattern` with its positions at `cells` (in
/// order), Black stones `black` on the board, goal `goal` (pairs of Black stones or
/// borders). Returns every instance's result, the placed pattern's last. Used to check a
/// part of the strategy on its own (the tests check real placements this way).
pub fn check_placed(
    s: &Strategy,
    pattern: u32,
    cells: Vec<Cell>,
    black: CellSet,
    goal: &[(Cell, Cell)],
    params: Params,
) -> Vec<InstanceResult> {
    check_placed_for(s, pattern, cells, black, &single(goal), params)
}

/// [`check_placed`] with a goal that is a disjunction of conjunctions of pairs (`goal[i]`:
/// the pairs of the `i`-th conjunction; docs/yang.md "Conjunctive goals").
pub fn check_placed_for(
    s: &Strategy,
    pattern: u32,
    cells: Vec<Cell>,
    black: CellSet,
    goal: &[Vec<(Cell, Cell)>],
    params: Params,
) -> Vec<InstanceResult> {
    let goal: Goal = goal.to_vec();
    let mut c = Checker::new(s, params);
    let mut position = Position::empty(c.board);
    for b in black.iter() {
        let _ = position.play(Colour::Black, b);
    }
    let inst = Inst {
        pattern,
        cells: cells.into_iter().map(Some).collect(),
        placed_at: None,
        path: pattern.to_string(),
        pending: None,
        carried: Vec::new(),
        rest: None,
        white: CellSet::EMPTY,
    };
    if s.patterns.contains_key(&pattern) {
        c.instance(&inst, &goal, &position);
    }
    let mut out = Vec::new();
    // The placed pattern's record hangs from no branch (its path has no `/`).
    flatten(&c.out, "", &mut out, (0, &slipped_branches(s), false));
    out
}
