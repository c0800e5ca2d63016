//! The whole-board engine: a claim decided by the solver on its encoding, then proved to the
//! kernel.
//!
//! [`super::encode`] turns the sub-game into a whole-board position that Black wins iff the
//! claim holds; the DFPN solver ([`crate::dfpn`], Henderson, Arneson & Hayward 2009: VC-based
//! win detection, mustplay, inferior cells, decompositions) decides that position. Its answer
//! is **not** trusted:
//!
//! - **Holds** only after [`crate::kernel::check`] accepted a certificate built here from the
//!   solver's proof. At a White-to-move position (Black's stones and White's stones added so
//!   far) a leaf is tried first: Black's VC as an H-search derivation of the explainer
//!   ([`crate::vc::explain`], Anshelevich 2002 §4), written rule by rule as kernel nodes
//!   ([`crate::local::derived`]: tens of nodes, no search); failing that, the exact local search,
//!   with a small node budget, on the solver's proof set and then on the whole remaining
//!   carrier. Each leaf is checked by the kernel on its own, shrunk
//!   ([`crate::templates::cert_shrink`]) and embedded; every embedded node keeps only the
//!   owner stones it needs and is stored once (hash-consing), so a sub-strategy met again
//!   elsewhere in the tree is one node of the DAG (measured on VI2a: 454 789 certificate
//!   nodes with local-search leaves and no sharing, 5 500 now). Otherwise the node becomes an or-node
//!   (the kernel's OR rule, Anshelevich 2002 §4): for a White intrusion w, Black's reply r is
//!   the solver's winning move after w (confirmed by the solver) and the node after (r, w) is
//!   built recursively; further intrusions are taken only inside the intersection of the
//!   options' sets `{r} ∪ carrier` (proof-set pruning, Henderson et al. 2009 §4), so the node
//!   is complete when that intersection is empty.
//! - **Fails** only when the exact local search confirms it: the solver's winning White move
//!   w, then the local search on the claim after w with Black to move must answer "fails"
//!   (its refuting line follows w). Otherwise undecided.
//! - Everything else (not applicable, budget out, a step the solver cannot confirm) is
//!   undecided. Every step has a budget: the solver's nodes and wall time, each leaf search's
//!   nodes, and the certificate's size.

use super::encode::{encode, Encoded};
use super::EngineError;
use crate::board::{Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::dfpn::{self, mid::Dfpn, tt::INF, SolveParams};
use crate::kernel::{self, Certificate, Node, NodeId, NodeKind, Reply};
use crate::local::derived::{self, DerivedStats};
use crate::local::{decide, Budget, Move, Outcome, Verdict};
use crate::position::Position;
use crate::templates::cert_shrink;
use crate::vc::explain::{
    explain_key_vc, explain_win, Derivation, ExplainLimits, ExplainedFact, Why,
};
use std::collections::HashMap;
use std::time::Instant;

/// Budgets of the whole-board engine.
#[derive(Clone, Copy, Debug)]
pub struct WholeParams {
    /// Node budget of each leaf's exact local search.
    pub leaf_nodes: u64,
    /// Most certificate nodes built (leaves' nodes included).
    pub max_certificate_nodes: usize,
    /// Transposition-table entries of the solver.
    pub tt_entries: usize,
    /// A leaf search on all the cells left is tried when the solver's proof set failed only
    /// if at most this many are left.
    pub rest_leaf_max: usize,
    /// Whether a White-to-move position is first tried as a derivation leaf: Black's VC found
    /// by the explainer's H-search and translated rule by rule ([`crate::local::derived`]).
    pub derive: bool,
    /// The solver's fill-in ([`Fill`]).
    pub fill_in: Fill,
    /// A local leaf search on the solver's proof set (or on all the cells left, when the
    /// solver knows no proof set) runs only if it has at most this many cells; a larger node
    /// is expanded instead (measured on V1b with [`Fill::White`]: of
    /// 805 leaf searches on 25 or more cells, 4 held within 20 k nodes; of 324 on fewer, 245;
    /// VI2a: 2.66 s CPU with no bound, 2.21 s with 24, 2.51 s with 16).
    pub leaf_max_cells: usize,
    /// Progress lines on stderr (for measuring where time goes; `solver_probe --trace`).
    pub trace: bool,
    /// Where the solver's AND rule over captured cells ([`Capture`]) is on.
    pub capture: Capture,
    /// A claim with the opponent to move is decided intrusion by intrusion ([`decide_split`]):
    /// each of White's first moves is a claim of its own (Black to move), decided and
    /// certified on its own, and the certificates are joined under one root or-node.
    /// `HEXPROOF_WHOLE_SPLIT=on` turns it on; off by default.
    pub split: bool,
    /// Black's replies in the certificate rebuild read off the explainer's key first, with no
    /// solver search when the position after the key is proved at once ([`Builder`]'s
    /// `direct_key`; session 32). `HEXPROOF_WHOLE_DIRECT_KEYS=off` turns it off; on by
    /// default.
    pub direct_keys: bool,
    /// With [`WholeParams::split`]: each White first move's claim gets at most this much of
    /// the time left; one that is undecided within it stays open and the split goes on with
    /// the next White move (so the cheaper moves are proved, and stored by a
    /// [`SplitStore`], even when one is too hard). `None`: all the time left, and the split
    /// stops at the first undecided move (as before session 33).
    pub split_option_time: Option<std::time::Duration>,
    /// With [`WholeParams::split`]: a White first move with no stored certificate is decided
    /// by a second split ([`decide_split_with`]'s deep step, issue 28 session 34): Black's
    /// reply `b` is taken from the options proved so far (the most frequent reply first, at
    /// most [`DEEP_REPLIES`] of them), and the claim after White's move and `b` (White to move)
    /// is split again by White's second move, each part stored by [`SplitStore::nested`] and
    /// checked by the kernel when read. A reply White refutes only means another reply is
    /// tried (the template is not refuted by it). `HEXPROOF_WHOLE_SPLIT_DEEP=on` turns it on.
    pub split_deep: bool,
    /// With [`WholeParams::split_deep`]: the deep step comes before the direct attempt (for
    /// moves known to be hard), its replies those of the options proved so far; the direct
    /// attempt follows only when it proves nothing. Off: the direct attempt first, and the
    /// deep step after it (with the root's proved reply first) when it is undecided.
    pub split_deep_first: bool,
    /// With [`WholeParams::split`]: only these White first moves are tried (the stored
    /// certificates of the others are still read and joined); `None`: every open move. For
    /// sending a run's time to the moves known to be hard (`import-published
    /// --split-moves`). Only the top-level split is restricted (a deep step's second split
    /// tries every White second move), and a move left out stays open: the claim holds only
    /// when every White move is answered, as without it.
    pub split_moves: Option<CellSet>,
    /// With [`WholeParams::split_deep`]: Black's replies the deep step tries first, in this
    /// order, before its usual ones ([`deep_replies`]; `import-published
    /// --split-deep-replies`, issue 28 session 39). Only which replies are tried and in
    /// what order changes: every part is still checked by the kernel as without it.
    pub split_deep_replies: NamedReplies,
    /// With [`WholeParams::split_deep`]: only these White second moves are tried by the deep
    /// step's second split (its stored parts of the others are still read and joined);
    /// `None`: every open one (`import-published --split-deep-moves`, session 39). A move
    /// left out stays open, so the second split holds only when every move is answered.
    pub split_deep_moves: Option<CellSet>,
    /// With [`WholeParams::split_deep`]: a third level (issue 28, session 40). Named replies
    /// make the deep step's second split run a deep step of its own, first, on each White
    /// second move it tries with no stored part: Black's reply taken from these (in order),
    /// then a third split by White's third move, its parts kept in the nested store's nested
    /// store and checked by the kernel when read, as at the second level. Empty (the
    /// default): two levels, as before (`import-published --split-deeper-replies`).
    pub split_deeper_replies: NamedReplies,
    /// With [`WholeParams::split_deeper_replies`]: only these White third moves are tried by
    /// the third split (the others' stored parts are still read and joined; a move left out
    /// stays open); `None`: every open one (`import-published --split-deeper-moves`).
    pub split_deeper_moves: Option<CellSet>,
    /// The solver's root rule ([`SolveParams::top_epsilon`]): (ε, plies) of the 1+ε trick
    /// near each search's root, `None` for the plain ε everywhere. Default: the solver's own
    /// ([`dfpn::DEFAULT_TOP_EPSILON`], session 34); `HEXPROOF_WHOLE_TOP=off` turns it off.
    /// Only the order of the search changes ([`crate::dfpn::mid`], "ε near the root"; the
    /// 1+ε trick is Pawlewicz & Lew 2006, not among `../shared/papers/`).
    pub top_epsilon: Option<(f64, u32)>,
    /// [`SolveParams::top_first`]: [`WholeParams::top_epsilon`] only for the first child in
    /// move order (the solver's default).
    pub top_first: bool,
}

/// How many of Black's replies a deep split ([`WholeParams::split_deep`]) tries after one
/// White first move (besides the ones named by [`WholeParams::split_deep_replies`]).
pub const DEEP_REPLIES: usize = 2;

/// Black's replies named for the deep step ([`WholeParams::split_deep_replies`]), in order:
/// at most [`NamedReplies::MAX`] of them (a fixed array, so that [`WholeParams`] stays
/// `Copy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NamedReplies {
    cells: [Option<Cell>; NamedReplies::MAX],
}

impl NamedReplies {
    /// The most replies that can be named.
    pub const MAX: usize = 8;

    /// `cells` in order, or `None` when there are more than [`NamedReplies::MAX`].
    pub fn new(cells: &[Cell]) -> Option<NamedReplies> {
        if cells.len() > Self::MAX {
            return None;
        }
        let mut r = NamedReplies::default();
        for (slot, &c) in r.cells.iter_mut().zip(cells) {
            *slot = Some(c);
        }
        Some(r)
    }

    /// The named replies, in order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells.iter().flatten().copied()
    }
}

/// Where the whole-board engine's solver uses the connection engine's AND rule over the cells
/// an empty midpoint captures (`dfpn::SolveParams::vc_capture_and`, on in the solver by
/// default since session 29).
///
/// The rule finds Black's wins earlier (fewer solver positions), but the explainer's H-search
/// has no such rule and the kernel none either: a White-to-move position the solver won by a
/// connection that needs it gets no derivation leaf and is expanded into an or-node instead.
/// Measured on Selinger's 6-g (docs/journal/templates-session30.md, one binary, loaded):
/// [`Capture::On`] 3,967 root positions, 41,471 certificate nodes, 21.1 CPU-s;
/// [`Capture::Root`] 3,967, 24,526, 19.5; [`Capture::Off`] 5,450, 20,784, 17.9 — so off is
/// the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// On for the root's search and the certificate rebuild.
    On,
    /// On for the root's search only: the rebuild's searches (Black's replies, the
    /// expansions) use the connection engine without it, so the wins they find are ones the
    /// explainer can write down. Entries the root proved keep their proofs.
    Root,
    /// Off throughout.
    Off,
}

impl Capture {
    /// `HEXPROOF_WHOLE_CAPTURE` (`on`, `root` or `off`), else [`Capture::Off`].
    pub fn from_env() -> Capture {
        match std::env::var("HEXPROOF_WHOLE_CAPTURE").as_deref() {
            Ok("on") => Capture::On,
            Ok("root") => Capture::Root,
            _ => Capture::Off,
        }
    }
}

/// How the engine's solver fills in inferior cells (Henderson, Arneson & Hayward 2009 §3).
///
/// With [`Fill::Full`] a cell can be filled Black (a dead cell at White's turn, a pair Black
/// has captured), so a win the solver finds at a White-to-move position may hold only in the
/// filled position: neither the explainer nor the local search, which see the real one, can
/// then prove that leaf, and the builder expands it further or pays a large search. With
/// [`Fill::White`] only White gets cells (every dead cell, White's captured pairs and
/// regions): a Black win in the filled position is one in the real position too (White's
/// extra stones only take cells from Black), and the explainer runs on the filled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// The solver's own fill-in, both colours.
    Full,
    /// Fill-in that gives cells to White only.
    White,
    /// No fill-in and no pruning by it (capture domination, vulnerable cells,
    /// decompositions, proof-set reduction).
    Off,
}

impl Default for WholeParams {
    fn default() -> Self {
        WholeParams {
            leaf_nodes: 20_000,
            max_certificate_nodes: 2_000_000,
            tt_entries: 2_000_000,
            rest_leaf_max: 24,
            derive: true,
            fill_in: Fill::White,
            leaf_max_cells: 24,
            trace: false,
            capture: Capture::from_env(),
            split: std::env::var("HEXPROOF_WHOLE_SPLIT").is_ok_and(|v| v == "on"),
            direct_keys: std::env::var("HEXPROOF_WHOLE_DIRECT_KEYS").map_or(true, |v| v != "off"),
            split_option_time: None,
            split_deep: std::env::var("HEXPROOF_WHOLE_SPLIT_DEEP").is_ok_and(|v| v == "on"),
            split_deep_first: false,
            split_moves: None,
            split_deep_replies: NamedReplies::default(),
            split_deep_moves: None,
            split_deeper_replies: NamedReplies::default(),
            split_deeper_moves: None,
            top_epsilon: match std::env::var("HEXPROOF_WHOLE_TOP").as_deref() {
                Ok("off") => None,
                _ => SolveParams::default().top_epsilon,
            },
            top_first: SolveParams::default().top_first,
        }
    }
}

/// What the engine did besides the verdict.
#[derive(Clone, Debug, Default)]
pub struct WholeReport {
    /// Why the encoding does not apply (then the verdict is undecided).
    pub not_applicable: Option<String>,
    /// Solver nodes (position evaluations).
    pub solver_nodes: u64,
    /// Exact local searches run for leaves, and their nodes.
    pub leaf_searches: u64,
    /// Search nodes of those leaves.
    pub leaf_nodes: u64,
    /// Why a win of the solver did not become a certificate, if it did not.
    pub failure: Option<String>,
    /// Empty cells of the encoded position.
    pub encoded_empty: usize,
    /// Leaves written as H-search derivations ([`crate::local::derived`]), and explainer calls.
    pub derived_leaves: u64,
    /// Of those, the leaves read off the derivation that found Black's key move just before
    /// ([`crate::vc::explain::explain_key_vc`]), with no explainer call of their own.
    pub key_leaves: u64,
    /// Explainer calls (successful or not).
    pub explain_calls: u64,
    /// Certificate nodes that came from derivation leaves (before sharing).
    pub derived_nodes: u64,
    /// Certificate nodes that came from local-search leaves (before sharing).
    pub searched_nodes: u64,
    /// Nodes pushed that were already stored (hash-consing hits).
    pub shared_hits: u64,
    /// White-to-move positions proved by a node built before for another position: one
    /// whose stones Black has and whose carrier is still empty (no leaf, no search).
    pub subsumed: u64,
    /// With [`WholeParams::split`]: White's first moves decided as claims of their own (the
    /// root or-node's options when the claim holds).
    pub split_options: u64,
    /// Black's replies taken from the explainer's key with no solver search (the position
    /// after them proved by a node built before or by the key's derivation leaf;
    /// [`WholeParams::direct_keys`]).
    pub direct_keys: u64,
    /// With a [`SplitStore`]: White first moves whose stored certificate the kernel accepted
    /// (used as options with no search).
    pub split_loaded: u64,
    /// With a [`SplitStore`]: stored certificates the kernel rejected (not used; the move is
    /// decided again).
    pub split_rejected: u64,
    /// Proved sub-trees of an earlier unfinished rebuild ([`SubPart`]) the kernel accepted
    /// and the rebuild reused, and those it rejected (not used).
    pub subparts_loaded: u64,
    /// See [`WholeReport::subparts_loaded`].
    pub subparts_rejected: u64,
    /// Black to move: Black's first move when the solver proved the root, even if the
    /// certificate's rebuild then ran out of time (the deep split's first reply,
    /// [`WholeParams::split_deep`]). Not added up by [`WholeReport::add`].
    pub root_reply: Option<Cell>,
    /// The solver's root search said White wins (not confirmed: the verdict stays undecided
    /// unless the exact search confirms it). Not added up by [`WholeReport::add`].
    pub root_disproved: bool,
    /// A split ([`decide_split_with`]): the White move after which the solver said White
    /// wins ([`WholeReport::root_disproved`] of that move's claim); the split stops there, and
    /// a deep step ([`decide_deep`]) goes on with its next reply (session 40). Only what is
    /// tried changes: the claim is still undecided unless the refutation is confirmed.
    pub refuted_by: Option<Cell>,
}

impl WholeReport {
    /// Adds the counts of `r` (a sub-claim's run) to these.
    fn add(&mut self, r: &WholeReport) {
        self.solver_nodes += r.solver_nodes;
        self.leaf_searches += r.leaf_searches;
        self.leaf_nodes += r.leaf_nodes;
        self.encoded_empty = self.encoded_empty.max(r.encoded_empty);
        self.derived_leaves += r.derived_leaves;
        self.key_leaves += r.key_leaves;
        self.explain_calls += r.explain_calls;
        self.derived_nodes += r.derived_nodes;
        self.searched_nodes += r.searched_nodes;
        self.shared_hits += r.shared_hits;
        self.subsumed += r.subsumed;
        self.split_options += r.split_options;
        self.direct_keys += r.direct_keys;
        self.split_loaded += r.split_loaded;
        self.split_rejected += r.split_rejected;
        self.subparts_loaded += r.subparts_loaded;
        self.subparts_rejected += r.subparts_rejected;
    }
}

/// Decides `game` with the whole-board engine within `budget` (its nodes and time bound the
/// solver; see the module docs for when each verdict is given).
pub fn decide_whole(
    game: &SubGame,
    budget: &Budget,
    params: &WholeParams,
) -> (Outcome, WholeReport) {
    if params.split && !game.claim().owner_first && encode(game).is_ok() {
        return decide_split(game, budget, params);
    }
    let (o, r, _) = decide_whole_resuming(game, budget, params, Vec::new());
    (o, r)
}

/// A sub-tree of a certificate rebuild that did not finish ([`decide_whole_resuming`]): the
/// White-to-move position after Black's added stones `black` and White's `white` (original
/// cells of the claim's carrier) and `cert`, a certificate of that position as a claim of its
/// own (the claim's pairs, White to move, carrier the claim's less the added stones, the
/// added stones on the board). Nothing in it is trusted: a rebuild that reuses it checks
/// `cert` with the kernel on that claim first, and the joined certificate is checked as
/// every other.
#[derive(Clone, Debug)]
pub struct SubPart {
    /// Black's stones added to the claim's position.
    pub black: CellSet,
    /// White's stones added to the claim's position.
    pub white: CellSet,
    /// Its certificate (first move `None`).
    pub cert: Certificate,
}

/// The most sub-trees an unfinished rebuild hands back ([`decide_whole_resuming`]).
pub const MAX_SUBPARTS: usize = 4096;

/// [`decide_whole`] (no split) that reuses `resume`, the proved sub-trees of an earlier
/// rebuild of the same claim that did not finish, and hands back its own when it does not
/// finish (issue 28, session 36: the deep split's cost is one part's certificate rebuild —
/// Selinger's 7-xh after k16, l12, l13: 1,435 s, 103 k certificate nodes — and a rebuild out
/// of time lost all of it).
///
/// Each sub-part is checked by the kernel on its own claim ([`SubPart`]); an accepted one is
/// spliced in and remembered for its position, so the rebuild reaching that position, or
/// choosing Black's reply into it, does no search there: Black's reply at a position whose
/// child after some move `r` is a remembered position is `r` (its node proves that child).
/// The root is still proved by the solver first. Handed back: the maximal White-to-move
/// nodes the rebuild completed (shallowest first, each once, at most [`MAX_SUBPARTS`]), each
/// as its own certificate; nothing when the rebuild finished or was never started.
pub fn decide_whole_resuming(
    game: &SubGame,
    budget: &Budget,
    params: &WholeParams,
    resume: Vec<SubPart>,
) -> (Outcome, WholeReport, Vec<SubPart>) {
    let start = Instant::now();
    let mut report = WholeReport::default();
    let mut out = Outcome::undecided();
    let enc = match encode(game) {
        Ok(e) => e,
        Err(m) => {
            report.not_applicable = Some(m.to_string());
            return (out, report, Vec::new());
        }
    };
    report.encoded_empty = enc.position.empty_cells().len();
    let sp = solver_params(budget, params);
    let mut d = dfpn::make_search(&sp, sp.order.order(), start);
    if params.fill_in == Fill::White {
        d.rules.only = Some(Colour::White);
    }
    let mut b = Builder {
        game,
        enc: &enc,
        d: &mut d,
        nodes: Vec::new(),
        memo: HashMap::new(),
        proved: Vec::new(),
        interned: HashMap::new(),
        params: *params,
        report: &mut report,
        deadline: budget.time.map(|t| start + t),
        start,
        key_vc: None,
        resumed: false,
    };
    b.resume(resume);
    let result = b.run(&mut out, budget);
    let kept = if result.is_err() {
        b.subparts()
    } else {
        Vec::new()
    };
    let nodes = std::mem::take(&mut b.nodes);
    let solver_nodes = b.d.nodes;
    drop(b);
    report.solver_nodes = solver_nodes;
    match result {
        Ok(Some((first, root))) => conclude(
            game,
            budget,
            start,
            Certificate { nodes, first, root },
            &mut out,
        ),
        Ok(None) => {}
        Err(m) => report.failure = Some(m.to_string()),
    }
    out.stats.nodes = report.solver_nodes + report.leaf_nodes;
    out.stats.micros = start.elapsed().as_micros();
    (out, report, kept)
}

/// [`decide_whole`] for a claim with White to move, one White first move at a time
/// ([`WholeParams::split`]; issue 28, for the published templates whose root search does
/// not converge as one search).
///
/// White's move `w` is taken from the cells no option answers yet (at first the whole
/// carrier); the claim after `w` with Black to move (carrier less `w`) is decided by
/// [`decide_whole`] on its own, with the time left. Its certificate (Black's first move `r`,
/// its root node) becomes an option `(r, root)` of the root or-node, and only White's moves
/// inside every option's `{r} ∪ carrier` are still open (the kernel's condition 3: a move
/// outside some option's set is answered by that option). The sub-certificates are proved
/// with White's stone on `w`, outside all their carriers, so they assert the same with `w`
/// empty (kernel docs, 7a); the joined certificate is checked by the kernel on `game`
/// itself, as every other. A move after which the sub-claim fails makes the claim fail
/// (its refuting line starts with it); an undecided one leaves the claim undecided.
pub fn decide_split(
    game: &SubGame,
    budget: &Budget,
    params: &WholeParams,
) -> (Outcome, WholeReport) {
    decide_split_with(game, budget, params, &mut NoStore)
}

/// Where a split ([`decide_split_with`]) keeps the certificates of White's first moves it
/// proved, so that a later run starts from them (issue 28: the large published templates take
/// more than one session). Nothing read from a store is trusted: the split checks each
/// certificate with the kernel on the claim after its White move before using it, and the
/// joined certificate with the kernel on the claim itself.
pub trait SplitStore {
    /// The certificate stored for the claim after White's first move `w` (an original cell),
    /// if any: Black to move, White's stone on `w`, the carrier less `w`.
    fn load(&mut self, w: Cell) -> Option<Certificate>;
    /// Stores `cert`, which the kernel accepted for the claim after White's move `w`.
    fn save(&mut self, w: Cell, cert: &Certificate);
    /// The store of a deep split ([`WholeParams::split_deep`]): the certificates of the claims
    /// after White's `w`, Black's `b` and White's second move (keyed by that second move).
    /// `None`: nothing kept.
    fn nested(&mut self, _w: Cell, _b: Cell) -> Option<Box<dyn SplitStore>> {
        None
    }
    /// Black's replies after White's `w` that have a nested store with parts in it (the most
    /// parts first): a deep step resumes one of them before trying a new reply. Only an order:
    /// every part read is checked by the kernel.
    fn stored_replies(&self, _w: Cell) -> Vec<Cell> {
        Vec::new()
    }
    /// The sub-parts kept by an earlier unfinished rebuild of the claim after White's `w`
    /// ([`decide_whole_resuming`]); each is checked by the kernel before it is used.
    fn load_subparts(&mut self, _w: Cell) -> Vec<SubPart> {
        Vec::new()
    }
    /// Keeps `parts` for the claim after White's `w` (none: drop what is kept).
    fn save_subparts(&mut self, _w: Cell, _parts: &[SubPart]) {}
}

/// A [`SplitStore`] that keeps nothing.
pub struct NoStore;

impl SplitStore for NoStore {
    fn load(&mut self, _: Cell) -> Option<Certificate> {
        None
    }
    fn save(&mut self, _: Cell, _: &Certificate) {}
}

/// White's first moves in the order the split tries them: the cheap ones first. Cells outside
/// White's mustplay (Black's winning VSCs' intersection on the encoded position: after such a
/// move Black still connects through a VSC it avoided, a short proof whose small set closes
/// every White move outside it), then those inside it by increasing circuit energy
/// (Anshelevich §5; the hottest cells, White's strongest intrusions, last); ties by cell.
/// Only the order changes: every open move is decided and the kernel checks the result.
pub fn split_order(game: &SubGame) -> Vec<Cell> {
    let carrier = game.carrier();
    let Ok(enc) = encode(game) else {
        return carrier.iter().collect();
    };
    let vp = crate::vc::VcParams::new(crate::vc::Variant::Fast);
    let black = crate::vc::VcSet::build(&enc.position, Colour::Black, vp);
    let mustplay = match crate::vc::mustplay(&black) {
        crate::vc::Mustplay::Restricted(m) => Some(m),
        _ => None,
    };
    let energy = crate::eval::evaluate_plain(&enc.position).energy;
    let key = |c: Cell| {
        let w = enc.to_window(c);
        let inside = match (mustplay, w) {
            (Some(m), Some(w)) => m.contains(w),
            _ => true,
        };
        let e = w.map_or(f64::INFINITY, |w| energy[w.index()]);
        (inside, e)
    };
    let mut v: Vec<(bool, f64, Cell)> = carrier
        .iter()
        .map(|c| {
            let (i, e) = key(c);
            (i, e, c)
        })
        .collect();
    v.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.index().cmp(&b.2.index()))
    });
    v.into_iter().map(|(.., c)| c).collect()
}

/// [`decide_split`] with the certificates of `store`: White's first moves are tried in
/// [`split_order`]; a move whose stored certificate the kernel accepts (on the claim after
/// it) is an option with no search, one proved now is saved to `store`. With
/// [`WholeParams::split_option_time`] a move undecided within its share stays open and the
/// next is tried; the claim holds only when no White move is left open and the kernel accepts
/// the joined certificate on `game`.
pub fn decide_split_with(
    game: &SubGame,
    budget: &Budget,
    params: &WholeParams,
    store: &mut dyn SplitStore,
) -> (Outcome, WholeReport) {
    let start = Instant::now();
    let mut report = WholeReport::default();
    let mut out = Outcome::undecided();
    let sub_params = WholeParams {
        split: false,
        ..*params
    };
    let board = *game.board();
    let name = |c: Cell| board.cell_name(c, crate::board::Notation::Letters);
    let order = split_order(game);
    let mut open = game.carrier();
    let mut reach = CellSet::EMPTY;
    let mut nodes: Vec<Node> = Vec::new();
    let mut options: Vec<Reply> = Vec::new();
    // White moves tried and left undecided (with `split_option_time`).
    let mut skipped = CellSet::EMPTY;
    // White moves whose deep step ran before the direct attempt (`split_deep_first`).
    let mut deep_tried = CellSet::EMPTY;
    let mut last_failure: Option<String> = None;
    // An option for White's move `w`: the certificate `cert` (accepted by the kernel for the
    // claim after `w`) joined under the root.
    let mut add = |cert: Certificate,
                   open: &mut CellSet,
                   nodes: &mut Vec<Node>,
                   options: &mut Vec<Reply>,
                   report: &mut WholeReport| {
        let reply = cert.first.expect("checked by the caller");
        let off = nodes.len() as NodeId;
        let set = CellSet::single(reply) | cert.nodes[cert.root as usize].carrier;
        nodes.extend(cert.nodes.into_iter().map(|n| Node {
            kind: n.kind.shifted(off),
            ..n
        }));
        options.push(Reply {
            reply,
            next: cert.root + off,
        });
        *open &= set;
        reach |= set;
        report.split_options += 1;
        set
    };
    // The stored certificates first: each checked by the kernel on its own claim.
    for &w in &order {
        if !open.contains(w) {
            continue;
        }
        let Some(cert) = store.load(w) else { continue };
        let ok = cert.first.is_some()
            && split_game(game, w).is_ok_and(|sub| kernel::check(&sub, &cert).is_ok());
        if !ok {
            report.split_rejected += 1;
            if params.trace {
                eprintln!(
                    "whole: split: White {}: stored certificate rejected by the kernel",
                    name(w)
                );
            }
            continue;
        }
        report.split_loaded += 1;
        let set = add(cert, &mut open, &mut nodes, &mut options, &mut report);
        if params.trace {
            eprintln!(
                "whole: split: White {} loaded, set {} cells, {} White moves open",
                name(w),
                set.len(),
                open.len()
            );
        }
    }
    while let Some(&w) = order.iter().find(|&&c| {
        open.contains(c) && !skipped.contains(c) && params.split_moves.is_none_or(|m| m.contains(c))
    }) {
        let left = budget.time.map(|t| t.saturating_sub(start.elapsed()));
        if left.is_some_and(|t| t.is_zero()) {
            break;
        }
        let sub = match split_game(game, w) {
            Ok(g) => g,
            Err(m) => {
                report.failure = Some(format!("split: {}: {m}", name(w)));
                return finish_split(out, report, start);
            }
        };
        // A certificate for `w` from the deep step (before the direct attempt, or after it
        // when it is undecided).
        let mut deep = None;
        if params.split_deep && params.split_deep_first && !deep_tried.contains(w) {
            deep_tried.insert(w);
            let replies = deep_replies(
                &sub,
                w,
                &params.split_deep_replies,
                None,
                &store.stored_replies(w),
                &options,
            );
            if !replies.is_empty() {
                let left = budget_left(budget, start);
                deep = decide_deep(&sub, w, &replies, &left, params, store, &mut report);
            }
        }
        // The direct attempt's time is what is left after the deep step (which may have run
        // first), so the whole run's --time holds.
        let left = budget.time.map(|t| t.saturating_sub(start.elapsed()));
        let time = match (left, params.split_option_time) {
            (Some(l), Some(t)) => Some(l.min(t)),
            (l, t) => l.or(t),
        };
        let b = Budget { time, ..*budget };
        let (o, r) = if deep.is_some() {
            (Outcome::undecided(), WholeReport::default())
        } else {
            let resume = store.load_subparts(w);
            let had = !resume.is_empty();
            let (o, r, kept) = decide_whole_resuming(&sub, &b, &sub_params, resume);
            report.add(&r);
            if !kept.is_empty() {
                if params.trace {
                    eprintln!(
                        "whole: split: White {}: {} sub-parts kept ({} certificate nodes)",
                        name(w),
                        kept.len(),
                        kept.iter().map(|p| p.cert.nodes.len()).sum::<usize>()
                    );
                }
                store.save_subparts(w, &kept);
            } else if had && o.verdict != Verdict::Undecided {
                store.save_subparts(w, &[]);
            }
            if params.trace {
                eprintln!(
                    "whole: split: White {} -> {:?}, reply {:?}, {} certificate nodes, {} solver nodes, {:.1} s",
                    name(w),
                    o.verdict,
                    o.certificate.as_ref().and_then(|c| c.first).map(name),
                    o.certificate.as_ref().map_or(0, |c| c.nodes.len()),
                    r.solver_nodes,
                    start.elapsed().as_secs_f64()
                );
            }
            (o, r)
        };
        if deep.is_none()
            && params.split_deep
            && o.verdict == Verdict::Undecided
            && !r.root_disproved
        {
            let replies = deep_replies(
                &sub,
                w,
                &params.split_deep_replies,
                r.root_reply,
                &store.stored_replies(w),
                &options,
            );
            if !replies.is_empty() {
                // All the time left: the second split gives each White second move its
                // `split_option_time`.
                let left = budget_left(budget, start);
                deep = decide_deep(&sub, w, &replies, &left, params, store, &mut report);
                if deep.is_none() {
                    skipped.insert(w);
                    last_failure = Some(format!("White {} undecided (deep split)", name(w)));
                    continue;
                }
            }
        }
        if let Some(cert) = deep {
            store.save(w, &cert);
            let set = add(cert, &mut open, &mut nodes, &mut options, &mut report);
            if params.trace {
                eprintln!(
                    "whole: split: White {} proved by the deep split, set {} cells, {} White moves open",
                    name(w),
                    set.len(),
                    open.len()
                );
            }
            continue;
        }
        match (o.verdict, o.certificate) {
            (Verdict::Holds, Some(cert)) if cert.first.is_some() => {
                store.save(w, &cert);
                let set = add(cert, &mut open, &mut nodes, &mut options, &mut report);
                if params.trace {
                    eprintln!(
                        "whole: split: option {} set {} cells, {} White moves open",
                        options.len(),
                        set.len(),
                        open.len()
                    );
                }
            }
            (Verdict::Fails, _) => {
                fails_after(&mut out, w, o.refutation);
                return finish_split(out, report, start);
            }
            // The solver says White wins after `w` (not confirmed): the claim is undecided,
            // and trying White's other moves would not decide it.
            _ if r.root_disproved => {
                report.refuted_by = Some(w);
                report.failure = Some(format!(
                    "split: White {} wins by the solver (not confirmed; {} options, {} White moves open)",
                    name(w),
                    options.len(),
                    open.len()
                ));
                return finish_split(out, report, start);
            }
            _ => {
                let why = format!(
                    "White {} undecided{}",
                    name(w),
                    r.failure.map(|f| format!(": {f}")).unwrap_or_default()
                );
                if params.split_option_time.is_none() {
                    report.failure = Some(format!(
                        "split: {why} ({} options, {} White moves open)",
                        options.len(),
                        open.len()
                    ));
                    return finish_split(out, report, start);
                }
                skipped.insert(w);
                last_failure = Some(why);
            }
        }
    }
    if !open.is_empty() {
        let names = |s: CellSet| s.iter().map(name).collect::<Vec<_>>().join(" ");
        report.failure = Some(format!(
            "split: {} options ({} stored), {} White moves open ({} tried and undecided: {}; \
             not tried: {}){}",
            options.len(),
            report.split_loaded,
            open.len(),
            (open & skipped).len(),
            names(open & skipped),
            names(open - skipped),
            last_failure
                .map(|f| format!("; last: {f}"))
                .unwrap_or_default()
        ));
        return finish_split(out, report, start);
    }
    let root = nodes.len() as NodeId;
    nodes.push(Node {
        stones: CellSet::EMPTY,
        carrier: reach,
        goal: None,
        either: Vec::new(),
        with: Vec::new(),
        kind: NodeKind::Or(options),
    });
    let cert = Certificate {
        nodes,
        first: None,
        root,
    };
    conclude(game, budget, start, cert, &mut out);
    finish_split(out, report, start)
}

/// `cert`, built for `game` within `budget` from `start`, shrunk while time is left
/// (shrinking is optional: skipped once the time budget is spent; the kernel check always
/// runs, linear in the certificate), then checked by the kernel; `out` holds it, and the
/// verdict "holds" with the kernel's acceptance when the kernel accepts it.
fn conclude(game: &SubGame, budget: &Budget, start: Instant, cert: Certificate, out: &mut Outcome) {
    let cert = if budget.time.is_some_and(|t| start.elapsed() >= t) {
        cert
    } else {
        compact(game, cert)
    };
    match kernel::check(game, &cert) {
        Ok(v) => {
            out.verdict = Verdict::Holds;
            out.verified = Some(v);
            out.proof_set = cert.nodes[cert.root as usize].carrier
                | cert.first.map(CellSet::single).unwrap_or_default();
        }
        Err(e) => out.kernel_error = Some(e),
    }
    out.stats.certificate_nodes = cert.nodes.len();
    out.certificate = Some(cert);
}

/// The claim fails: White's move `w`, then `rest` (the refuting line of the claim after `w`).
fn fails_after(out: &mut Outcome, w: Cell, rest: Vec<Move>) {
    out.verdict = Verdict::Fails;
    out.refutation = std::iter::once(Move {
        colour: Colour::White,
        cell: w,
    })
    .chain(rest)
    .collect();
}

/// The deep step of [`decide_split_with`] ([`WholeParams::split_deep`]): the claim `sub`
/// after White's first move `w` (Black to move) decided by Black's reply `b` (each of
/// `replies` in turn) and a second split of the claim after `b` (White to move) by White's
/// second move, its parts kept in `store`'s nested store. The second split's certificate
/// (accepted by the kernel on the claim after `b`) becomes one for `sub`: first move `b`,
/// every node's stones with `b` added; it is returned only when the kernel accepts it on
/// `sub`. A reply White refutes in the second split only means the next reply is tried; an
/// undecided second split ends the step (its proved parts stored).
fn decide_deep(
    sub: &SubGame,
    w: Cell,
    replies: &[Cell],
    budget: &Budget,
    params: &WholeParams,
    store: &mut dyn SplitStore,
    report: &mut WholeReport,
) -> Option<Certificate> {
    let start = Instant::now();
    let name = |c: Cell| sub.board().cell_name(c, crate::board::Notation::Letters);
    let inner = deep_inner(params);
    for &b in replies {
        let left = budget.time.map(|t| t.saturating_sub(start.elapsed()));
        if left.is_some_and(|t| t.is_zero()) {
            return None;
        }
        let Ok(g2) = reply_game(sub, b) else { continue };
        let mut none = NoStore;
        let mut nested = store.nested(w, b);
        let st: &mut dyn SplitStore = match nested.as_mut() {
            Some(n) => n.as_mut(),
            None => &mut none,
        };
        let (o, r) = decide_split_with(
            &g2,
            &Budget {
                time: left,
                ..*budget
            },
            &inner,
            st,
        );
        report.add(&r);
        if params.trace {
            eprintln!(
                "whole: deep: White {} Black {} -> {:?} ({})",
                name(w),
                name(b),
                o.verdict,
                r.failure.as_deref().unwrap_or("")
            );
        }
        let c2 = match (o.verdict, o.certificate) {
            (Verdict::Holds, Some(c2)) => c2,
            // White refutes `b` (not the template): the next reply. So too when the solver
            // says White wins after one of White's second moves (not confirmed, but only
            // which reply is tried depends on it).
            (Verdict::Fails, _) => continue,
            _ if r.refuted_by.is_some() => continue,
            // Undecided within the time: its parts are stored; another reply would only
            // take the time the next run gives this one.
            _ => return None,
        };
        let cert = Certificate {
            nodes: c2
                .nodes
                .into_iter()
                .map(|n| Node {
                    stones: n.stones | CellSet::single(b),
                    ..n
                })
                .collect(),
            first: Some(b),
            root: c2.root,
        };
        if c2.first.is_none() && kernel::check(sub, &cert).is_ok() {
            return Some(cert);
        }
        report.split_rejected += 1;
    }
    None
}

/// The parameters of a deep step's second split ([`decide_deep`]): a split restricted to
/// [`WholeParams::split_deep_moves`], with no deep step of its own unless
/// [`WholeParams::split_deeper_replies`] names replies: then its deep step comes first,
/// tries those replies and restricts the third split to
/// [`WholeParams::split_deeper_moves`], and nests no further.
pub fn deep_inner(params: &WholeParams) -> WholeParams {
    let deeper = params.split_deeper_replies.cells().next().is_some();
    WholeParams {
        split: true,
        split_deep: deeper,
        split_deep_first: deeper || params.split_deep_first,
        split_moves: params.split_deep_moves,
        split_deep_replies: params.split_deeper_replies,
        split_deep_moves: params.split_deeper_moves,
        split_deeper_replies: NamedReplies::default(),
        split_deeper_moves: None,
        ..*params
    }
}

/// `budget` with its time less what has passed since `start`.
fn budget_left(budget: &Budget, start: Instant) -> Budget {
    Budget {
        time: budget.time.map(|t| t.saturating_sub(start.elapsed())),
        ..*budget
    }
}

/// Black's replies a deep step tries after White's `w` ([`WholeParams::split_deep`]):
/// `named` first, in order ([`WholeParams::split_deep_replies`]), then the usual ones: `root`
/// (the solver's proved reply, when known), then `stored` (replies whose parts an earlier run
/// kept, [`SplitStore::stored_replies`]), then the replies of `options` (proved so far), the
/// most frequent first, at most [`DEEP_REPLIES`] of these; carrier cells of `sub` other than
/// `w` only, each once. Only the order and choice of what is tried: each reply's second split
/// is checked by the kernel whatever it is.
pub fn deep_replies(
    sub: &SubGame,
    w: Cell,
    named: &NamedReplies,
    root: Option<Cell>,
    stored: &[Cell],
    options: &[Reply],
) -> Vec<Cell> {
    let mut count: Vec<(usize, Cell)> = Vec::new();
    for o in options {
        match count.iter_mut().find(|(_, c)| *c == o.reply) {
            Some(e) => e.0 += 1,
            None => count.push((1, o.reply)),
        }
    }
    count.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.index().cmp(&b.1.index())));
    let fits = |c: Cell| c != w && sub.carrier().contains(c);
    let mut v: Vec<Cell> = Vec::new();
    for c in named.cells().filter(|&c| fits(c)) {
        if !v.contains(&c) {
            v.push(c);
        }
    }
    let first = v.len();
    let counted = count.into_iter().map(|(_, c)| c);
    for c in root
        .into_iter()
        .chain(stored.iter().copied())
        .chain(counted)
    {
        if fits(c) && !v.contains(&c) {
            v.push(c);
        }
    }
    v.truncate(first + DEEP_REPLIES);
    v
}

/// A transposition of the split's parts (issue 28, session 40): `cert` proves the claim after
/// White's first move `v` (Black to move) with Black's first move `b`; the part of a deep
/// step after White's `w`, Black's `b` and White's second move `v` is the same position
/// (White on `w` and `v`, Black on `b`, Black to move), so it is cut out of `cert` here: the
/// option of `cert`'s root or-node that answers White's `w` (`w` outside its reply and its
/// next node's carrier, the kernel's condition 3), as a certificate of its own — first move
/// that option's reply, root its next node, the nodes it reaches (in their order, so children
/// stay before parents) with `b` taken out of every node's stones (`b` is a stone of the
/// position there). `None` when `cert` starts with another move than `b`, its root is not an
/// or-node or no option answers `w`. Nothing is trusted: the caller checks the result with the
/// kernel on the claim after `w`, `b`, `v` like any stored part (their carriers avoid `w` and
/// `v`, whose White stones then do not matter: kernel docs, 7a).
pub fn answer_after(cert: &Certificate, b: Cell, w: Cell) -> Option<Certificate> {
    if cert.first != Some(b) {
        return None;
    }
    let NodeKind::Or(options) = &cert.nodes.get(cert.root as usize)?.kind else {
        return None;
    };
    let opt = options.iter().find(|o| {
        o.reply != w
            && cert
                .nodes
                .get(o.next as usize)
                .is_some_and(|n| !n.carrier.contains(w))
    })?;
    // The nodes `opt.next` reaches.
    let mut keep = vec![false; cert.nodes.len()];
    let mut stack = vec![opt.next];
    while let Some(id) = stack.pop() {
        let k = keep.get_mut(id as usize)?;
        if std::mem::replace(k, true) {
            continue;
        }
        match &cert.nodes[id as usize].kind {
            NodeKind::Joined => {}
            NodeKind::Or(rs) => stack.extend(rs.iter().map(|r| r.next)),
            NodeKind::And(cs) => stack.extend(cs.iter().copied()),
        }
    }
    let mut new_id = vec![NodeId::MAX; cert.nodes.len()];
    let mut nodes = Vec::new();
    for (i, n) in cert.nodes.iter().enumerate() {
        if keep[i] {
            new_id[i] = nodes.len() as NodeId;
            nodes.push(n.clone());
        }
    }
    for n in &mut nodes {
        n.stones.remove(b);
        n.kind = match &n.kind {
            NodeKind::Joined => NodeKind::Joined,
            NodeKind::Or(rs) => NodeKind::Or(
                rs.iter()
                    .map(|r| Reply {
                        reply: r.reply,
                        next: new_id[r.next as usize],
                    })
                    .collect(),
            ),
            NodeKind::And(cs) => NodeKind::And(cs.iter().map(|&c| new_id[c as usize]).collect()),
        };
    }
    Some(Certificate {
        nodes,
        first: Some(opt.reply),
        root: new_id[opt.next as usize],
    })
}

/// `sub` (Black to move) after Black's move `b`: White to move, `b` out of the carrier.
fn reply_game(sub: &SubGame, b: Cell) -> Result<SubGame, EngineError> {
    let p = sub.position();
    let pos = Position::new(
        *p.board(),
        p.stones(Colour::Black) | CellSet::single(b),
        p.stones(Colour::White),
    )?;
    Ok(SubGame::new(
        pos,
        sub.carrier() - CellSet::single(b),
        Claim {
            owner_first: false,
            ..sub.claim().clone()
        },
    )?)
}

/// `game` after White's move `w`, Black to move, `w` out of the carrier.
fn split_game(game: &SubGame, w: Cell) -> Result<SubGame, EngineError> {
    let p = game.position();
    let pos = Position::new(
        *p.board(),
        p.stones(Colour::Black),
        p.stones(Colour::White) | CellSet::single(w),
    )?;
    Ok(SubGame::new(
        pos,
        game.carrier() - CellSet::single(w),
        Claim {
            owner_first: true,
            ..game.claim().clone()
        },
    )?)
}

/// The split's outcome with its node count and time filled in.
fn finish_split(mut out: Outcome, report: WholeReport, start: Instant) -> (Outcome, WholeReport) {
    out.stats.nodes = report.solver_nodes + report.leaf_nodes;
    out.stats.micros = start.elapsed().as_micros();
    (out, report)
}

/// The solver's parameters for [`decide_whole`]: the budget's nodes and time, the
/// transposition table of `params`, the fill-in switched off for [`Fill::Off`], the capture
/// AND as [`WholeParams::capture`] says, and
/// everything else the solver's own defaults ([`SolveParams::default`]) — so the engine
/// searches with the solver's default move order (connections, circuits kept) and
/// progressive widening, whatever they become (pinned by `tests/solver/solver_engine.rs`).
pub fn solver_params(budget: &Budget, params: &WholeParams) -> SolveParams {
    let mut sp = SolveParams {
        nodes: budget.nodes,
        time: budget.time,
        tt_entries: params.tt_entries,
        top_epsilon: params.top_epsilon,
        top_first: params.top_first,
        ..SolveParams::default()
    };
    sp.vc_capture_and = params.capture == Capture::On || params.capture == Capture::Root;
    // The certificate rebuild walks the solver's table: a transposed position has no
    // subtree there (not measured on templates yet).
    sp.features.transpositions = false;
    if params.fill_in == Fill::Off {
        let f = &mut sp.features;
        f.dead = false;
        f.captured = false;
        f.decompose = false;
        f.dominated = false;
        f.vulnerable = false;
        f.reduction = false;
    }
    sp
}

/// `cert` (accepted by the kernel for `game`) shrunk by [`cert_shrink::shrink`] (fewer
/// options, smaller carriers and stones, identical nodes once) when the kernel accepts the
/// smaller one too; else `cert` itself.
fn compact(game: &SubGame, cert: Certificate) -> Certificate {
    let small = cert_shrink::shrink(game, &cert);
    if small.nodes.len() < cert.nodes.len() && kernel::check(game, &small).is_ok() {
        small
    } else {
        cert
    }
}

struct Builder<'g, 'b, 'a> {
    game: &'g SubGame,
    enc: &'g Encoded,
    d: &'b mut Dfpn<'a>,
    nodes: Vec<Node>,
    /// White-to-move positions built: (Black's added stones, White's) → node.
    memo: HashMap<(CellSet, CellSet), NodeId>,
    /// Every node [`Self::white`] built (claim goal, no union), as (stones, carrier, node):
    /// each proves every White-to-move position where Black has its stones and its carrier is
    /// empty ([`Self::subsuming`]).
    proved: Vec<(CellSet, CellSet, NodeId)>,
    /// Every node stored, once (hash-consing: identical sub-strategies reached from several
    /// leaves or transpositions are one node of the DAG).
    interned: HashMap<Node, NodeId>,
    params: WholeParams,
    report: &'b mut WholeReport,
    /// When the budget's time runs out: every step of the rebuild checks it, and leaf
    /// searches get only the time left (issue 24 item 14: `verify --time` honoured).
    deadline: Option<Instant>,
    /// When the engine started (for the trace).
    start: Instant,
    /// The derivation that gave Black's last key move ([`Self::key_move`]): Black's stones and
    /// White's of the White-to-move position after that move, and the winning VC there.
    key_vc: Option<(CellSet, CellSet, Derivation)>,
    /// Whether sub-parts of an earlier rebuild were loaded ([`Self::resume`]): then Black's
    /// reply into a remembered position is taken with no search ([`Self::black_reply`]).
    resumed: bool,
}

/// What [`Builder::direct_key`] found.
enum Direct {
    /// Black's reply (an original cell), the position after it proved.
    Proved(Cell),
    /// The H-search's key (an encoded cell) and its derivation, the position after it not
    /// proved at once (the solver decides).
    Key(Cell, Derivation),
    /// No key.
    None,
}

impl Builder<'_, '_, '_> {
    /// A progress line on stderr when [`WholeParams::trace`] is on.
    fn trace(&self, msg: impl FnOnce() -> String) {
        if self.params.trace {
            eprintln!("whole: {}", msg());
        }
    }

    /// An error (the verdict stays undecided) once the deadline has passed.
    fn in_time(&self) -> Result<(), EngineError> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(EngineError::OutOfTime),
            _ => Ok(()),
        }
    }

    /// A leaf search's budget: `nodes`, and the time left before the deadline.
    fn leaf_budget(&self, nodes: u64) -> Budget {
        Budget {
            time: self
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
            ..Budget::nodes(nodes)
        }
    }

    /// Solves the root. `Ok(Some((first move, root)))`: a certificate to check; `Ok(None)`:
    /// no win (the outcome says fails or undecided).
    fn run(
        &mut self,
        out: &mut Outcome,
        budget: &Budget,
    ) -> Result<Option<(Option<Cell>, NodeId)>, EngineError> {
        let to_move = self.enc.to_move;
        let f = self.d.filled(&self.enc.position, to_move);
        let (pn, dn) = self.d.mid(&f, to_move, INF, INF);
        if self.params.capture == Capture::Root {
            // The rebuild's connections without the capture AND: a fresh evaluator (its
            // own caches) made as the solver makes one, the table kept.
            let sp = solver_params(
                budget,
                &WholeParams {
                    capture: Capture::Off,
                    tt_entries: 1,
                    ..self.params
                },
            );
            self.d.eval = dfpn::make_search(&sp, sp.order.order(), self.start).eval;
        }
        self.trace(|| {
            format!(
                "root: pn {pn} dn {dn}, {} solver nodes, {:.1} s, table {} entries ({} purges, {} halvings)",
                self.d.nodes,
                self.start.elapsed().as_secs_f64(),
                self.d.tt.len(),
                self.d.tt.purges,
                self.d.tt.halvings
            )
        });
        let black_wins = if to_move == Colour::Black {
            pn == 0
        } else {
            dn == 0
        };
        let white_wins = if to_move == Colour::Black {
            dn == 0
        } else {
            pn == 0
        };
        if black_wins {
            if to_move == Colour::Black {
                let r = self.black_reply(CellSet::EMPTY, CellSet::EMPTY)?;
                self.report.root_reply = Some(r);
                let root = self.white(CellSet::single(r), CellSet::EMPTY)?;
                return Ok(Some((Some(r), root)));
            }
            let root = self.white(CellSet::EMPTY, CellSet::EMPTY)?;
            return Ok(Some((None, root)));
        }
        self.report.root_disproved = white_wins;
        if white_wins && to_move == Colour::White {
            self.confirm_fails(&f, out);
        }
        Ok(None)
    }

    /// The solver says White, moving first, wins: its move w, then the exact search on the
    /// claim after w (Black to move) must say "fails" too; failing that (no move named, or
    /// the search undecided), the exact search on the claim itself.
    fn confirm_fails(&mut self, f: &Position, out: &mut Outcome) {
        let carrier = self.game.carrier();
        let e = self.d.entry(f, Colour::White);
        let w = match e.best {
            Some(m) => Some(m),
            None if f.winner() == Some(Colour::White) => f.empty_cells().first(),
            None => dfpn::confirmed_move(self.d, f, Colour::White, e.moves),
        }
        .and_then(|c| self.enc.to_original(c))
        .filter(|&w| carrier.contains(w));
        let budget = self.leaf_budget(self.params.leaf_nodes.max(1_000_000));
        if let Some(w) = w {
            if let Ok(g) = self.sub_game(CellSet::EMPTY, CellSet::single(w)) {
                if let Ok(o) = decide(&g.with_owner_first(true), &budget) {
                    self.report.leaf_searches += 1;
                    self.report.leaf_nodes += o.stats.nodes;
                    if o.verdict == Verdict::Fails {
                        fails_after(out, w, o.refutation);
                        return;
                    }
                }
            }
        }
        if let Ok(o) = decide(self.game, &budget) {
            self.report.leaf_searches += 1;
            self.report.leaf_nodes += o.stats.nodes;
            if o.verdict == Verdict::Fails {
                out.verdict = Verdict::Fails;
                out.refutation = o.refutation;
            }
        }
    }

    /// The sub-game after Black's `black` and White's `white` (original cells of the carrier),
    /// White to move.
    fn sub_game(&self, black: CellSet, white: CellSet) -> Result<SubGame, EngineError> {
        let p = self.game.position();
        let pos = Position::new(
            *p.board(),
            p.stones(Colour::Black) | black,
            p.stones(Colour::White) | white,
        )?;
        Ok(SubGame::new(
            pos,
            self.game.carrier() - black - white,
            Claim {
                owner_first: false,
                ..self.game.claim().clone()
            },
        )?)
    }

    /// The original cells of encoded cells `s` (cells outside the window dropped).
    fn original(&self, s: CellSet) -> CellSet {
        s.iter().filter_map(|c| self.enc.to_original(c)).collect()
    }

    /// The encoded position after the added stones.
    fn encoded(&self, black: CellSet, white: CellSet) -> Result<Position, EngineError> {
        let p = &self.enc.position;
        Ok(Position::new(
            *p.board(),
            p.stones(Colour::Black) | self.enc.set_to_window(black),
            p.stones(Colour::White) | self.enc.set_to_window(white),
        )?)
    }

    /// Black's winning move (an original cell of the carrier) after the added stones, Black to
    /// move, as the solver proves it.
    fn black_reply(&mut self, black: CellSet, white: CellSet) -> Result<Cell, EngineError> {
        self.in_time()?;
        if self.resumed {
            // A move into a position proved already (a reused sub-part, or a node built since):
            // its node proves the position after it, so it wins (the kernel checks it all).
            let rest = self.game.carrier() - black - white;
            if let Some(r) = rest
                .iter()
                .find(|&r| self.memo.contains_key(&(black | CellSet::single(r), white)))
            {
                return Ok(r);
            }
        }
        let q = self.encoded(black, white)?;
        let f = self.d.filled(&q, Colour::Black);
        // The root's proof names a move: take it. Otherwise Black's move is first read off
        // one H-search, with no solver search if the position after it is proved at once.
        let known = self
            .d
            .lookup(&f, Colour::Black)
            .is_some_and(|e| e.pn == 0 && e.best.is_some());
        let mut explained = None;
        if !known && self.direct_keys_apply() {
            match self.direct_key(&f, black, white)? {
                Direct::Proved(r) => return Ok(r),
                Direct::Key(u, d) => explained = Some(Some((u, d))),
                Direct::None => explained = Some(None),
            }
        }
        let (pn, _) = self.d.mid(&f, Colour::Black, INF, INF);
        if pn != 0 {
            return Err(EngineError::BlackWinUnproved(self.d.nodes));
        }
        let e = self.d.entry(&f, Colour::Black);
        let mut key_vc = None;
        let mv = match e.best {
            Some(m) => Some(m),
            None if f.winner() == Some(Colour::Black) => q.empty_cells().first(),
            None => match self.key_move(&f, black, white, explained) {
                Some((u, d)) => {
                    key_vc = Some(d);
                    Some(u)
                }
                None => self.winning_move_in(&f, e.moves),
            },
        }
        .ok_or(EngineError::NoWinningMove)?;
        let r = self
            .enc
            .to_original(mv)
            .ok_or(EngineError::MoveOutsideWindow)?;
        if !(self.game.carrier() - black - white).contains(r) {
            return Err(EngineError::MoveOutsideCarrier);
        }
        self.key_vc = key_vc.map(|d| (black | CellSet::single(r), white, d));
        Ok(r)
    }

    /// Black's move in filled `f` (Black to move, won by a connection: the solver stored no
    /// best move) read from one H-search: the key `u` of a winning VSC of Black
    /// ([`crate::vc::explain::explain_key_vc`]), if the solver then proves White's loss after
    /// it (so the move is as good as any other the solver confirms; nothing here is trusted,
    /// the kernel checks the certificate). One explainer call instead of [`Self::winning_move_in`]'s
    /// evaluation of each cell of the carrier in turn (27% of the rebuild's CPU in a profile of
    /// Selinger's 8-kyiz-3, session 24). With the key `u`, the derivation of Black's winning
    /// VC once a stone is on `u` (the next White-to-move position's derivation leaf, with no
    /// second explainer call). `None`: no key, or it is not a proved win.
    ///
    /// `explained`: the H-search's answer when [`Self::direct_key`] ran it already (not run
    /// again).
    fn key_move(
        &mut self,
        f: &Position,
        black: CellSet,
        white: CellSet,
        explained: Option<Option<(Cell, Derivation)>>,
    ) -> Option<(Cell, Derivation)> {
        let (u, d) = match explained {
            Some(k) => k?,
            None => self.explained_key(f, black, white)?,
        };
        let mut child = f.clone();
        child.play(Colour::Black, u).ok()?;
        let g = self.d.filled(&child, Colour::White);
        let lost = self.d.entry(&g, Colour::White).dn == 0
            || self.d.mid(&g, Colour::White, INF, INF).1 == 0;
        self.trace(|| format!("key move: {}", if lost { "proved" } else { "not proved" }));
        lost.then_some((u, d))
    }

    /// The key `u` (an encoded cell whose original is in the remaining carrier) of a winning
    /// VSC of Black in filled `f` and the derivation of Black's VC once a stone is on it
    /// ([`crate::vc::explain::explain_key_vc`]); `None` if the H-search finds none.
    fn explained_key(
        &mut self,
        f: &Position,
        black: CellSet,
        white: CellSet,
    ) -> Option<(Cell, Derivation)> {
        let (u, d) = explain_key_vc(f, Colour::Black, f.empty_cells(), ExplainLimits::default())?;
        let r = self.enc.to_original(u)?;
        (self.game.carrier() - black - white)
            .contains(r)
            .then_some((u, d))
    }

    /// Whether [`Self::direct_key`] can prove a reply: the key's derivation becomes a leaf
    /// only where [`Self::derived_leaf`] would take it.
    fn direct_keys_apply(&self) -> bool {
        self.params.direct_keys
            && self.params.derive
            && self.params.fill_in != Fill::Full
            && self.stand_in().is_some()
    }

    /// Black's move in filled `f` (Black to move after the added stones) with no solver
    /// search: the key `u` of a winning VSC of Black ([`Self::explained_key`]), taken when
    /// the White-to-move position after it is proved at once — by a node built before (the
    /// memo or [`Self::subsuming`]) or by the key's derivation as a leaf the kernel accepts
    /// ([`Self::translated_leaf`]), which is then remembered for that position. Nothing is
    /// trusted: the move is as good as the node that proves the position after it, and the
    /// whole certificate is checked by the kernel. Saves the solver's evaluations of both
    /// positions (the one before `u`, when the root's search never met it, and the one
    /// after), which are most of the rebuild's solver work (a profile of Selinger's 7c-z's
    /// rebuild, session 32: 62 % of the samples in the connection engine of those
    /// evaluations, 19 % in the explainer).
    fn direct_key(
        &mut self,
        f: &Position,
        black: CellSet,
        white: CellSet,
    ) -> Result<Direct, EngineError> {
        let Some((u, d)) = self.explained_key(f, black, white) else {
            return Ok(Direct::None);
        };
        let r = self
            .enc
            .to_original(u)
            .ok_or(EngineError::MoveOutsideWindow)?;
        let after = black | CellSet::single(r);
        if self.memo.contains_key(&(after, white)) {
            self.report.direct_keys += 1;
            return Ok(Direct::Proved(r));
        }
        if let Some(id) = self.subsuming(after, white) {
            self.report.subsumed += 1;
            self.report.direct_keys += 1;
            self.trace(|| format!("  direct key, subsumed by node {id}"));
            self.memo.insert((after, white), id);
            return Ok(Direct::Proved(r));
        }
        if let Some(id) = self.translated_leaf(after, white, d.clone())? {
            self.report.key_leaves += 1;
            self.report.direct_keys += 1;
            self.trace(|| "  (direct key: its derivation)".to_string());
            self.remember(after, white, id);
            return Ok(Direct::Proved(r));
        }
        Ok(Direct::Key(u, d))
    }

    /// A move of Black in filled `f` (Black to move, won by a connection on `carrier`) after
    /// which the solver proves White's loss: first by the connections alone, then by search
    /// (the solver's budget bounds both; unlike [`dfpn::confirmed_move`], no exact local
    /// search of the whole board).
    fn winning_move_in(&mut self, f: &Position, carrier: CellSet) -> Option<Cell> {
        let cells = carrier & f.empty_cells();
        let lost_after = |d: &mut Dfpn, c: Cell, search: bool| -> bool {
            let mut child = f.clone();
            if child.play(Colour::Black, c).is_err() {
                return false;
            }
            let g = d.filled(&child, Colour::White);
            if search {
                d.mid(&g, Colour::White, INF, INF).1 == 0
            } else {
                d.entry(&g, Colour::White).dn == 0
            }
        };
        cells
            .iter()
            .find(|&c| lost_after(self.d, c, false))
            .or_else(|| cells.iter().find(|&c| lost_after(self.d, c, true)))
    }

    /// Stores `n` (or finds it stored already: an identical node is the same assertion, and
    /// an and-node's children keep smaller indices, since the stored copy came first).
    fn push(&mut self, n: Node) -> Result<NodeId, EngineError> {
        if let Some(&id) = self.interned.get(&n) {
            self.report.shared_hits += 1;
            return Ok(id);
        }
        if self.nodes.len() >= self.params.max_certificate_nodes {
            return Err(EngineError::TooManyNodes(self.params.max_certificate_nodes));
        }
        let id = self.nodes.len() as NodeId;
        self.interned.insert(n.clone(), id);
        self.nodes.push(n);
        Ok(id)
    }

    /// Splices `cert` (a certificate of the sub-game after Black's `black` and White's
    /// stones, checked by the kernel there) into the certificate: Black's stones `black`
    /// become extra owner stones of every node. Children are stored before their parents
    /// (post-order), so hash-consing can map every reference. Returns the root's node.
    fn embed(&mut self, cert: &Certificate, black: CellSet) -> Result<NodeId, EngineError> {
        let n = cert.nodes.len();
        let mut done: Vec<Option<NodeId>> = vec![None; n];
        let kids = |k: &NodeKind| -> Vec<NodeId> {
            match k {
                NodeKind::Joined => Vec::new(),
                NodeKind::Or(rs) => rs.iter().map(|r| r.next).collect(),
                NodeKind::And(cs) => cs.clone(),
            }
        };
        let mut stack = vec![(cert.root, false)];
        while let Some((id, expanded)) = stack.pop() {
            let i = id as usize;
            if i >= n {
                return Err(EngineError::MissingLeafNode);
            }
            if done[i].is_some() {
                continue;
            }
            let node = &cert.nodes[i];
            if !expanded {
                stack.push((id, true));
                for k in kids(&node.kind) {
                    if done.get(k as usize).is_some_and(|d| d.is_none()) {
                        stack.push((k, false));
                    }
                }
                continue;
            }
            let map = |k: NodeId| done.get(k as usize).copied().flatten();
            let kind = match &node.kind {
                NodeKind::Joined => NodeKind::Joined,
                NodeKind::Or(rs) => NodeKind::Or(
                    rs.iter()
                        .map(|r| {
                            map(r.next).map(|next| Reply {
                                reply: r.reply,
                                next,
                            })
                        })
                        .collect::<Option<Vec<_>>>()
                        .ok_or(EngineError::LeafCycle)?,
                ),
                NodeKind::And(cs) => NodeKind::And(
                    cs.iter()
                        .map(|&c| map(c))
                        .collect::<Option<Vec<_>>>()
                        .ok_or(EngineError::LeafCycle)?,
                ),
            };
            let stones = if node.either.is_empty() && node.with.is_empty() {
                self.needed(node.stones | black, node.goal, &kind)
            } else {
                // A union or conjunctive goal (a union claim's derivation leaf): all stones.
                node.stones | black
            };
            done[i] = Some(self.push(Node {
                stones,
                carrier: node.carrier,
                goal: node.goal,
                either: node.either.clone(),
                with: node.with.clone(),
                kind,
            })?);
        }
        done[cert.root as usize].ok_or(EngineError::EmptyLeaf)
    }

    /// The owner stones of `stones` that a node of `kind` with `goal` needs, its children
    /// (stored) having theirs already: a goal end that is a stone; for an or-node, what its
    /// options' next nodes assume besides the reply; for an and-node, its children's stones
    /// and those the chain of their goals runs through; for `Joined`, those that join the
    /// goal. The last two are greedy (each other stone dropped if the condition still holds).
    /// Fewer stones make the same sub-strategy, reached with different stones elsewhere on
    /// the board, one node (and the kernel's conditions 3–5 hold as before: see
    /// [`crate::kernel`]).
    fn needed(&self, stones: CellSet, goal: Option<(Cell, Cell)>, kind: &NodeKind) -> CellSet {
        let base = self.game.owner_cells();
        let single;
        let pairs: &[(Cell, Cell)] = match goal {
            Some(p) => {
                single = [p];
                &single
            }
            None => &self.game.claim().pairs,
        };
        let mut need: CellSet = goal
            .map(|(a, z)| [a, z].into_iter().collect())
            .unwrap_or_default();
        let holds: Box<dyn Fn(&CellSet) -> bool + '_> = match kind {
            NodeKind::Joined => {
                Box::new(|s: &CellSet| kernel::joined(self.game, pairs, &(base | *s)))
            }
            NodeKind::Or(rs) => {
                for r in rs {
                    let mut s = self.nodes[r.next as usize].stones;
                    s.remove(r.reply);
                    need |= s;
                }
                return stones & need;
            }
            NodeKind::And(kids) => {
                if kids.iter().any(|&k| {
                    let n = &self.nodes[k as usize];
                    !(n.either.is_empty() && n.with.is_empty())
                }) {
                    // A union child (condition 6, not a chain): all stones.
                    return stones;
                }
                let ends: Vec<(Cell, Cell)> = kids
                    .iter()
                    .filter_map(|&k| self.nodes[k as usize].goal)
                    .collect();
                for &k in kids {
                    need |= self.nodes[k as usize].stones;
                }
                Box::new(move |s: &CellSet| kernel::chained(self.game, pairs, &ends, &(base | *s)))
            }
        };
        let mut kept = stones;
        if !holds(&kept) {
            return stones;
        }
        for c in (stones - need).iter() {
            let mut without = kept;
            without.remove(c);
            if holds(&without) {
                kept = without;
            }
        }
        kept
    }

    /// A leaf by the explainer: Black's VC in the encoded position after the added stones,
    /// as an H-search derivation, translated to kernel nodes ([`crate::local::derived`]) and checked
    /// by the kernel on its own before it is spliced in.
    ///
    /// With [`Fill::White`] the explainer sees the solver's filled position `f` (fewer empty
    /// cells; Black's stones are the real ones, so its derivation holds in the real position
    /// too); otherwise the real one.
    ///
    /// `key_vc`: the derivation of the key move that led here ([`Self::key_move`]), tried
    /// first (with [`Fill::Full`] not: its filled position may hold Black stones that the real
    /// one lacks); the explainer runs only when the kernel refuses it.
    fn derived_leaf(
        &mut self,
        black: CellSet,
        white: CellSet,
        f: &Position,
        key_vc: Option<Derivation>,
    ) -> Result<Option<NodeId>, EngineError> {
        if !self.params.derive || self.stand_in().is_none() {
            return Ok(None);
        }
        self.in_time()?;
        if let Some(d) = key_vc.filter(|_| self.params.fill_in != Fill::Full) {
            if let Some(id) = self.translated_leaf(black, white, d)? {
                self.report.key_leaves += 1;
                self.trace(|| "  (the key move's derivation)".to_string());
                return Ok(Some(id));
            }
        }
        let q = if self.params.fill_in == Fill::White {
            f.clone()
        } else {
            self.encoded(black, white)?
        };
        self.report.explain_calls += 1;
        let Some(d) = explain_win(&q, Colour::Black, q.empty_cells(), ExplainLimits::default())
        else {
            return Ok(None);
        };
        self.translated_leaf(black, white, d)
    }

    /// The leaf of derivation `d` (of the encoded position after the added stones): written
    /// as kernel nodes, checked by the kernel on its own, shrunk and embedded; `None` when it
    /// cannot be translated or the kernel refuses it.
    fn translated_leaf(
        &mut self,
        black: CellSet,
        white: CellSet,
        d: Derivation,
    ) -> Result<Option<NodeId>, EngineError> {
        let Some(d) = self.to_original(d) else {
            return Ok(None);
        };
        let g = self.sub_game(black, white)?;
        let mut stats = DerivedStats::default();
        let cert = derived::certificate(&g, &d, &mut stats);
        self.report.leaf_searches += stats.template_searches;
        self.report.leaf_nodes += stats.template_nodes;
        let Ok(cert) = cert else { return Ok(None) };
        if let Err(e) = kernel::check(&g, &cert) {
            self.trace(|| format!("derivation leaf refused by the kernel: {e}"));
            return Ok(None);
        }
        let cert = compact(&g, cert);
        self.report.derived_leaves += 1;
        self.report.derived_nodes += cert.nodes.len() as u64;
        self.trace(|| {
            format!(
                "derived leaf: {} facts, {} nodes",
                d.facts.len(),
                cert.nodes.len()
            )
        });
        self.embed(&cert, black).map(Some)
    }

    /// The claim's border end `b` and the end `g` that stands for its group(s) in a
    /// derivation: for one pair `(a, z)`, its border and its other end; for a union of pairs
    /// `(g1, b), (g2, b), …` sharing the border `b` (the encoding joins g1, g2, … and the far
    /// border by one chain), `b` and `g1` ([`crate::local::derived`] makes every goal with
    /// the end `g1` a union over g1, g2, …). `None` otherwise (no derivation leaf).
    fn stand_in(&self) -> Option<(Cell, Cell)> {
        let pairs = &self.game.claim().pairs;
        let &(a, z) = pairs.first()?;
        let (b, g) = if z.is_border() && !a.is_border() {
            (z, a)
        } else if a.is_border() && !z.is_border() {
            (a, z)
        } else if pairs.len() == 1 {
            // Border to border (or no border): as before, the far border becomes `a`'s side.
            return Some(if a.is_border() { (a, z) } else { (z, a) });
        } else {
            return None;
        };
        pairs[1..]
            .iter()
            .all(|&(x, y)| (x == b) != (y == b) && !(if x == b { y } else { x }).is_border())
            .then_some((b, g))
    }

    /// A derivation of the encoded position in the claim's cells: window cells become
    /// original cells, the goal border stays, and the far border (whose Black group is the
    /// claim's end(s), the chain H and the far border) becomes the claim's other end (the
    /// union's stand-in, [`Self::stand_in`]). `None` when a cell has no original (the kernel
    /// would refuse the leaf anyway).
    fn to_original(&self, d: Derivation) -> Option<Derivation> {
        let (b, g) = self.stand_in()?;
        let end = |c: Cell| -> Option<Cell> {
            match c.as_border() {
                Some(_) if c == b || c == g => Some(c),
                Some(_) => Some(g),
                None => self.enc.to_original(c),
            }
        };
        let set =
            |s: CellSet| -> Option<CellSet> { s.iter().map(|c| self.enc.to_original(c)).collect() };
        let mut facts = Vec::with_capacity(d.facts.len());
        for f in d.facts {
            facts.push(ExplainedFact {
                x: end(f.x)?,
                y: end(f.y)?,
                carrier: set(f.carrier)?,
                semi: f.semi,
                why: match f.why {
                    Why::And(p, q, u) => Why::And(p, q, end(u)?),
                    w => w,
                },
            });
        }
        Some(Derivation { facts })
    }

    /// A leaf by the exact local search on `carrier` (inside the remaining carrier).
    fn leaf(
        &mut self,
        black: CellSet,
        white: CellSet,
        carrier: CellSet,
    ) -> Result<Option<NodeId>, EngineError> {
        let g = self.sub_game(black, white)?.with_carrier(carrier);
        let Ok(g) = g else { return Ok(None) };
        self.in_time()?;
        let o = decide(&g, &self.leaf_budget(self.params.leaf_nodes))?;
        let before = self.nodes.len();
        self.report.leaf_searches += 1;
        self.report.leaf_nodes += o.stats.nodes;
        self.trace(|| {
            format!(
                "leaf on {} cells: {:?}, {} nodes, {:.0} ms",
                carrier.len(),
                o.verdict,
                o.stats.nodes,
                o.stats.micros as f64 / 1e3
            )
        });
        let (Verdict::Holds, Some(cert)) = (o.verdict, o.certificate) else {
            return Ok(None);
        };
        if cert.first.is_some() {
            return Ok(None);
        }
        let cert = compact(&g, cert);
        let id = self.embed(&cert, black)?;
        self.report.searched_nodes += (self.nodes.len() - before) as u64;
        self.trace(|| {
            format!(
                "  its certificate: {} nodes, {} new",
                cert.nodes.len(),
                self.nodes.len() - before
            )
        });
        Ok(Some(id))
    }

    /// Proves the White-to-move position after the added stones; returns its node.
    fn white(&mut self, black: CellSet, white: CellSet) -> Result<NodeId, EngineError> {
        let key_vc = self
            .key_vc
            .take()
            .filter(|(b, w, _)| (*b, *w) == (black, white))
            .map(|(_, _, d)| d);
        if let Some(&id) = self.memo.get(&(black, white)) {
            return Ok(id);
        }
        self.in_time()?;
        if let Some(id) = self.subsuming(black, white) {
            self.report.subsumed += 1;
            self.trace(|| format!("  subsumed by node {id}"));
            self.memo.insert((black, white), id);
            return Ok(id);
        }
        let rest = self.game.carrier() - black - white;
        let q = self.encoded(black, white)?;
        let f = self.d.filled(&q, Colour::White);
        // Leaves: the solver's proof set first (when it knows one), then all that is left.
        let proof = match self.d.lookup(&f, Colour::White) {
            Some(e) if e.dn == 0 => self.original(e.proof) & rest,
            _ => rest,
        };
        // (The whole rest only when it is small or the solver knows nothing smaller: on a
        // large rest a bounded search rarely succeeds where the solver's proof set failed.)
        let mut id = self.derived_leaf(black, white, &f, key_vc)?;
        if id.is_none() && proof != rest && proof.len() <= self.params.leaf_max_cells {
            id = self.leaf(black, white, proof)?;
        }
        if id.is_none()
            && ((proof == rest && rest.len() <= self.params.leaf_max_cells)
                || rest.len() <= self.params.rest_leaf_max)
        {
            id = self.leaf(black, white, rest)?;
        }
        if let Some(id) = id {
            self.remember(black, white, id);
            return Ok(id);
        }
        // An or-node over White's intrusions, guided by the solver.
        let (_, dn) = self.d.mid(&f, Colour::White, INF, INF);
        self.trace(|| {
            let filled = |c: Colour| (f.stones(c) - q.stones(c)).len();
            format!(
                "expand {} Black + {} White stones, {} cells left ({} filled Black, {} White); {} solver nodes, {} leaf searches ({} nodes), {} certificate nodes, {:.1} s, {} halvings",
                black.len(),
                white.len(),
                rest.len(),
                filled(Colour::Black),
                filled(Colour::White),
                self.d.nodes,
                self.report.leaf_searches,
                self.report.leaf_nodes,
                self.nodes.len(),
                self.start.elapsed().as_secs_f64(),
                self.d.tt.halvings
            )
        });
        if dn != 0 {
            return Err(EngineError::WhiteLossUnproved(self.d.nodes));
        }
        // White's intrusions in the order the solver knows them: its mustplay here (every
        // such move is refuted in its table), then its proof set (a move outside it loses
        // too), then the rest. Any order gives a complete or-node; an intrusion outside the
        // proof set only costs an option whose set hardly narrows the intersection.
        let (must, proof) = match self.d.lookup(&f, Colour::White) {
            Some(e) => (self.original(e.moves) & rest, self.original(e.proof) & rest),
            None => (CellSet::EMPTY, CellSet::EMPTY),
        };
        let mut open = rest;
        let mut options: Vec<Reply> = Vec::new();
        let mut carrier = CellSet::EMPTY;
        while let Some(w) = (open & must)
            .first()
            .or_else(|| (open & proof).first())
            .or_else(|| open.first())
        {
            let r = self.black_reply(black, white | CellSet::single(w))?;
            let next = self.white(black | CellSet::single(r), white | CellSet::single(w))?;
            let set = self.nodes[next as usize].carrier | CellSet::single(r);
            open &= set;
            carrier |= set;
            options.push(Reply { reply: r, next });
        }
        // Only the stones its options' next nodes assume besides their replies (condition
        // 3), so that the node proves every position with those stones and its carrier empty.
        let kind = NodeKind::Or(options);
        let id = self.push(Node {
            stones: self.needed(black, None, &kind),
            carrier,
            goal: None,
            either: Vec::new(),
            with: Vec::new(),
            kind,
        })?;
        self.remember(black, white, id);
        Ok(id)
    }

    /// Splices in the sub-parts of an earlier rebuild ([`decide_whole_resuming`]): each one
    /// the kernel accepts on its own claim is embedded and remembered for its position; the
    /// others are counted and dropped.
    fn resume(&mut self, parts: Vec<SubPart>) {
        for p in parts {
            let bad = !(p.black & p.white).is_empty()
                || !(p.black | p.white).is_subset(&self.game.carrier())
                || p.cert.first.is_some();
            let g = if bad {
                None
            } else {
                self.sub_game(p.black, p.white).ok()
            };
            let id = g
                .filter(|g| kernel::check(g, &p.cert).is_ok())
                .and_then(|_| self.embed(&p.cert, p.black).ok());
            match id {
                Some(id) => {
                    self.report.subparts_loaded += 1;
                    self.remember(p.black, p.white, id);
                    self.resumed = true;
                }
                None => {
                    self.report.subparts_rejected += 1;
                    self.trace(|| "sub-part rejected by the kernel".to_string());
                }
            }
        }
        if self.report.subparts_loaded + self.report.subparts_rejected > 0 {
            let (l, r) = (self.report.subparts_loaded, self.report.subparts_rejected);
            self.trace(|| {
                format!(
                    "resumed: {l} sub-parts loaded ({} certificate nodes), {r} rejected",
                    self.nodes.len()
                )
            });
        }
    }

    /// The maximal White-to-move nodes built so far ([`Self::memo`], shallowest first; a node
    /// inside one taken already is skipped), at most [`MAX_SUBPARTS`], each as a certificate
    /// of its own position: its reachable nodes, Black's added stones taken off every node's
    /// stones (they are the position's stones there).
    fn subparts(&self) -> Vec<SubPart> {
        let mut entries: Vec<(CellSet, CellSet, NodeId)> =
            self.memo.iter().map(|(&(b, w), &id)| (b, w, id)).collect();
        entries.sort_by_key(|&(b, w, id)| {
            (
                b.len() + w.len(),
                b.iter().map(|c| c.index()).collect::<Vec<_>>(),
                w.iter().map(|c| c.index()).collect::<Vec<_>>(),
                id,
            )
        });
        let mut covered = vec![false; self.nodes.len()];
        let mut out = Vec::new();
        for (b, w, id) in entries {
            if out.len() >= MAX_SUBPARTS {
                break;
            }
            if covered[id as usize] {
                continue;
            }
            // The nodes reachable from `id`, children first (post-order).
            let mut order: Vec<NodeId> = Vec::new();
            let mut seen: HashMap<NodeId, ()> = HashMap::new();
            let mut stack = vec![(id, false)];
            while let Some((n, expanded)) = stack.pop() {
                if expanded {
                    order.push(n);
                    continue;
                }
                if seen.insert(n, ()).is_some() {
                    continue;
                }
                stack.push((n, true));
                match &self.nodes[n as usize].kind {
                    NodeKind::Joined => {}
                    NodeKind::Or(rs) => stack.extend(rs.iter().map(|r| (r.next, false))),
                    NodeKind::And(cs) => stack.extend(cs.iter().map(|&c| (c, false))),
                }
            }
            let index: HashMap<NodeId, NodeId> = order
                .iter()
                .enumerate()
                .map(|(i, &n)| (n, i as NodeId))
                .collect();
            let nodes = order
                .iter()
                .map(|&n| {
                    covered[n as usize] = true;
                    let node = &self.nodes[n as usize];
                    Node {
                        stones: node.stones - b,
                        kind: match &node.kind {
                            NodeKind::Joined => NodeKind::Joined,
                            NodeKind::Or(rs) => NodeKind::Or(
                                rs.iter()
                                    .map(|r| Reply {
                                        reply: r.reply,
                                        next: index[&r.next],
                                    })
                                    .collect(),
                            ),
                            NodeKind::And(cs) => {
                                NodeKind::And(cs.iter().map(|c| index[c]).collect())
                            }
                        },
                        ..node.clone()
                    }
                })
                .collect();
            out.push(SubPart {
                black: b,
                white: w,
                cert: Certificate {
                    nodes,
                    first: None,
                    root: index[&id],
                },
            });
        }
        out
    }

    /// Records node `id`, built for the White-to-move position after the added stones, in
    /// the memo and (a claim-goal node) among the nodes [`Self::subsuming`] reuses.
    fn remember(&mut self, black: CellSet, white: CellSet, id: NodeId) {
        self.memo.insert((black, white), id);
        let n = &self.nodes[id as usize];
        if n.goal.is_none() && n.either.is_empty() && n.with.is_empty() {
            self.proved.push((n.stones, n.carrier, id));
        }
    }

    /// A node built before that proves the White-to-move position after the added stones:
    /// its stones are among Black's and its carrier avoids every added stone (so it is empty
    /// here), the one with the smallest carrier. As an option's next node of the or-node
    /// above it meets condition 3 (`next.stones ⊆ stones ∪ {reply}`, its carrier inside the
    /// or-node's, which is the union of its options' carriers and replies); the kernel
    /// checks it there like any node.
    fn subsuming(&self, black: CellSet, white: CellSet) -> Option<NodeId> {
        let added = black | white;
        self.proved
            .iter()
            .filter(|(s, c, _)| s.is_subset(&black) && (*c & added).is_empty())
            .min_by_key(|(_, c, _)| c.len())
            .map(|&(_, _, id)| id)
    }
}

/// Which engine `verify` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The exact local search ([`crate::local::decide`]).
    Local,
    /// The whole-board engine ([`decide_whole`]).
    Solver,
    /// The local search with a share of the budget, then the whole-board engine when it is
    /// undecided.
    Auto,
}

impl Engine {
    /// Parses `local`, `solver` or `auto`.
    pub fn parse(s: &str) -> Result<Engine, EngineError> {
        match s {
            "local" => Ok(Engine::Local),
            "solver" => Ok(Engine::Solver),
            "auto" => Ok(Engine::Auto),
            _ => Err(EngineError::UnknownEngine(s.into())),
        }
    }
}

/// The verdict of [`decide_engine`] and who gave it.
#[derive(Clone, Debug)]
pub struct EngineOutcome {
    /// The outcome (nodes: both engines' together).
    pub outcome: Outcome,
    /// The engine whose answer this is (with `Auto`: the local search unless it was
    /// undecided and the solver ran).
    pub decided_by: Engine,
    /// The whole-board engine's report, when it ran.
    pub whole: Option<WholeReport>,
}

/// Decides `game` with `engine`. With [`Engine::Auto`] the local search gets at most
/// `local_nodes` of the budget's nodes; when it is undecided the whole-board engine gets the
/// rest (nodes and time). A claim the whole-board engine cannot encode ([`encode`]: White's
/// claims, pairs not ending on one Black border, …) gets the whole budget for the local
/// search, so a small `local_nodes` never starves it.
pub fn decide_engine(
    game: &SubGame,
    budget: &Budget,
    engine: Engine,
    local_nodes: u64,
    params: &WholeParams,
) -> Result<EngineOutcome, crate::claim::ClaimError> {
    let start = Instant::now();
    if engine == Engine::Solver {
        let (o, r) = decide_whole(game, budget, params);
        return Ok(EngineOutcome {
            outcome: o,
            decided_by: Engine::Solver,
            whole: Some(r),
        });
    }
    let local_budget = match engine {
        Engine::Auto if encode(game).is_ok() => Budget {
            nodes: budget.nodes.min(local_nodes),
            ..*budget
        },
        _ => *budget,
    };
    let local = decide(game, &local_budget)?;
    if engine == Engine::Local
        || local.verdict != Verdict::Undecided
        || local.kernel_error.is_some()
    {
        return Ok(EngineOutcome {
            outcome: local,
            decided_by: Engine::Local,
            whole: None,
        });
    }
    if budget.nodes <= local.stats.nodes {
        // The whole budget went to the local search: undecided, as asked.
        return Ok(EngineOutcome {
            outcome: local,
            decided_by: Engine::Local,
            whole: None,
        });
    }
    let rest = Budget {
        nodes: budget.nodes - local.stats.nodes,
        time: budget.time.map(|t| t.saturating_sub(start.elapsed())),
        ..*budget
    };
    let (mut o, r) = decide_whole(game, &rest, params);
    o.stats.nodes += local.stats.nodes;
    o.stats.micros = start.elapsed().as_micros();
    Ok(EngineOutcome {
        outcome: o,
        decided_by: Engine::Solver,
        whole: Some(r),
    })
}
