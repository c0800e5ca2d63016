//! Virtual connections: H-search and FastVC Search, mustplay, incremental update.
//!
//! # What is computed
//!
//! For one colour P in one position, the engine derives *virtual connections* (VC: P connects
//! the two endpoints even if the opponent moves first, playing only in the carrier) and
//! *virtual semi-connections* (VSC: P connects moving first) with Anshelevich's two deduction
//! rules (V. V. Anshelevich, *A hierarchical approach to computer Hex*, Artificial
//! Intelligence 134 (2002), §2–§3):
//!
//! - **AND**: VCs (x, A, u) and (u, B, y) with A ∩ B = ∅, x ∉ B, y ∉ A give the VC
//!   (x, A ∪ B, y) if u is P-coloured and the VSC (x, A ∪ {u} ∪ B, y) if u is empty;
//! - **OR**: VSCs (x, A_k, y) with ⋂ A_k = ∅ give the VC (x, ⋃ A_k, y).
//!
//! Endpoints are empty cells and P's groups (chains, with the borders they touch); an empty
//! endpoint counts as a P stone (docs/SEMANTICS.md "Sub-games"), and board sides may be AND midpoints
//! (Pawlewicz et al. §III; switch off with [`VcParams::and_over_borders`]). The search starts
//! from the base VCs (adjacent endpoints, empty carrier) and from edge templates
//! ([`seed`]). Both rules are sound, so **every reported connection is true**; the rules are
//! not complete (Anshelevich's Fig. 9; `tests/search/vc_fig9.rs` rebuilds such a connection).
//! The stored VSCs are those of Anshelevich's Definition 3 as far as the rules can tell: a VSC
//! carrier that contains a VC carrier of the same pair is dropped (that sub-game is a VC).
//!
//! # Variants ([`Variant`])
//!
//! - [`Variant::HSearch`]: Anshelevich's H-search, Appendix A, with HEXY's limits M (carriers
//!   kept per endpoint pair) and K (VSCs on the input side of the OR rule), §6 ([`hsearch`]).
//! - [`Variant::Unlimited`], [`Variant::Limited`], [`Variant::Fast`]: FastVC Search of
//!   J. Pawlewicz, R. Hayward, P. Henderson, B. Arneson, *Stronger Virtual Connections in Hex*,
//!   IEEE TCIAIG 2015: the storage of §IV-B, Algorithm 1 with move-to-front TRYADD, and the OR
//!   rule by semis-combiner (Alg. 2, with greedy sum, Alg. 3) — *unlimited*; the same with the
//!   acceptance heuristic of §VI-A — *limited*; fast semis-combiner (Alg. 4) with the
//!   heuristic's condition (2) only — *fast* (§VI-C) ([`fastvc`], [`combiner`]). By default
//!   the fast variant applies the OR rule with semis-combiner instead
//!   ([`VcParams::full_or`], issue 25: Algorithm 4 missed the win of the Olympiad position
//!   gm6); [`VcParams::classic`] is the fast variant of the paper.
//!
//! # Budgets
//!
//! Every search runs under a [`VcBudget`] (connections stored, wall time). When it runs out
//! the search stops and [`VcSet::status`] says [`Status::Incomplete`]; what was stored is
//! still sound, only not closed under the rules.
//!
//! # Incremental update
//!
//! [`VcSet::play`] updates the connections after a move instead of rebuilding (Anshelevich
//! §6: HEXY "looks for changes in the hierarchy of the virtual connections caused by an
//! additional piece"): see [`incremental`]. [`VcSet::play_undoable`] and [`VcSet::unplay`] do
//! the same with an undo, so that a depth-first search keeps one engine per colour along its
//! path instead of cloning or rebuilding at every node.
//!
//! # Mustplay and winning connections
//!
//! A VC between the colour's two sides is a *winning VC*, a VSC between them a *winning VSC*
//! (Pawlewicz et al. §II-B). The player to move must play inside every carrier of the
//! opponent's winning VSCs, keys included: [`mustplay`] (Hayward et al.'s mustplay, Fig. 2 of
//! Pawlewicz et al.). An opponent winning VC means every move loses.
//!
//! # Where this departs from the papers (each choice is documented where it is made)
//!
//! - Appendix A's condition "if g is black then g1 and g2 should be both empty" is optional
//!   and off by default ([`HSearchLimits::literal_black_midpoints`] says why).
//! - H-search's OR procedure enumerates each subset of VSCs once instead of each ordering,
//!   and prunes unions that cannot yield a new minimal carrier ([`hsearch`]); the carriers
//!   found are the same.
//! - A VSC carrier containing a VC carrier of its pair is not stored (Definition 3); the
//!   closure's minimal VC carriers are unchanged by this.
//! - FastVC's `Q_c` pops smallest carriers first by default ([`VcParams::smallest_first`];
//!   Algorithm 1 leaves the order open). Unprocessed VCs removed as supersets stay in `Q_c`
//!   and are skipped when popped.
//! - Fast semis-combiner with no VC yet starts from the greedy sum of all VSCs
//!   ([`combiner::Combiner::fast_semis_combiner`]).
//! - VSC keys are not stored (as in §IV-B); after an own move an old VSC becomes a VSC on the
//!   smaller carrier and the AND rule rebuilds the VC if the move was its key.
//! - The limited and fast variants keep at most [`VcParams::semi_limit`] VSCs per endpoint
//!   pair (Benzene's soft limit; default [`DEFAULT_SEMI_LIMIT`]); a full list still takes a
//!   carrier that shrinks its intersection, and the pair of the two borders (the winning
//!   VSCs, hence the mustplay) is never limited. The fast variant also stores at most one
//!   VSC containing `I_c(x, y)`, since Algorithm 4 drops those unread (line 5). Both only
//!   store fewer connections, so soundness is untouched.
//!
//! # Speed
//!
//! Inside a build, carriers are [`bits::Bits`] over a compact cell numbering: two 64-bit words
//! on boards up to 11×11, six beyond ([`VcSet`] picks the width per board). DOAND skips an end
//! y at once when the x–y lists would reject every carrier it could produce (the fast
//! variant's `I_c(x, y) = ∅`, a full VSC list, a VC carrier inside C₁), from per-endpoint
//! bitsets kept by TRYADD ([`store::Store::no_vc`], [`store::Store::no_semi`]). With
//! one-word carriers (boards up to 60 cells) DOAND also takes Algorithm 1's line-15 test for
//! all ends at once from a per-endpoint index of the processed intersections
//! ([`store::Store::proc_hit`]) instead of reading one pair record per end.
//! `BENCHMARKS.md` ("Virtual connections") has the figures.

pub mod bits;
pub mod capture;
pub mod combiner;
pub mod endpoints;
pub mod explain;
pub mod fastvc;
pub mod hsearch;
pub mod incremental;
pub mod list;
pub mod render;
pub mod seed;
pub mod store;

use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::claim::{Claim, ClaimError, SubGame};
use crate::position::{Position, PositionError};
use bits::{Bits, Layout};
use combiner::Combiner;
use endpoints::Endpoints;
use seed::SeedTemplate;
use serde::Serialize;
use std::collections::VecDeque;
use std::fmt;
use std::time::{Duration, Instant};
use store::Store;

/// Which connection engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Anshelevich's H-search (Appendix A) with HEXY's limits M and K.
    HSearch,
    /// FastVC Search with semis-combiner (Pawlewicz et al., "unlimited VCE").
    Unlimited,
    /// FastVC Search with semis-combiner and the acceptance heuristic ("limited VCE").
    Limited,
    /// FastVC Search with fast semis-combiner and heuristic (2) ("fast VCE").
    Fast,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 4] = [
        Variant::HSearch,
        Variant::Unlimited,
        Variant::Limited,
        Variant::Fast,
    ];

    /// Parses `hsearch`, `unlimited`, `limited`, `fast`.
    pub fn parse(s: &str) -> Option<Variant> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hsearch" | "h-search" | "h" => Some(Variant::HSearch),
            "unlimited" => Some(Variant::Unlimited),
            "limited" => Some(Variant::Limited),
            "fast" => Some(Variant::Fast),
            _ => None,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::HSearch => "hsearch",
            Variant::Unlimited => "unlimited",
            Variant::Limited => "limited",
            Variant::Fast => "fast",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// HEXY's H-search thresholds (Anshelevich §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HSearchLimits {
    /// M: carriers kept per endpoint pair and list (VC list and VSC list each); the smallest
    /// are kept. `None` = no limit. HEXY's best setting on 10×10 was M = 20.
    pub m: Option<usize>,
    /// K: most VSCs combined by one OR rule ("selected in the range 4 to 5"). `None` = no
    /// limit.
    pub k: Option<usize>,
    /// Appendix A's loop says "If g is black then, additionally, g1 and g2 should be both
    /// empty". Read literally this forbids AND through a black group unless both ends are
    /// empty, so that, for example, a stone bridged to both borders is never found to be a
    /// winning VC (`t – stone – b` has black ends). We therefore apply it only when this flag
    /// is set; by default a black midpoint combines any two ends, as in the paper's §3 rule
    /// and in Appendix B's derivations.
    pub literal_black_midpoints: bool,
}

impl Default for HSearchLimits {
    fn default() -> Self {
        HSearchLimits {
            m: Some(20),
            k: Some(4),
            literal_black_midpoints: false,
        }
    }
}

impl HSearchLimits {
    /// No M, no K: the full AND/OR closure.
    pub const UNLIMITED: HSearchLimits = HSearchLimits {
        m: None,
        k: None,
        literal_black_midpoints: false,
    };
}

/// How much a build may store and how long it may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcBudget {
    /// Most carriers held at once (stored VCs and VSCs, queued VCs and the semis-combiner's
    /// arenas); about 60 bytes each.
    pub max_connections: usize,
    /// Wall-time limit of one build or update.
    pub time: Option<Duration>,
}

impl Default for VcBudget {
    fn default() -> Self {
        VcBudget {
            max_connections: 2_000_000,
            time: Some(Duration::from_secs(60)),
        }
    }
}

/// Default [`VcParams::semi_limit`] of the limited and fast variants.
/// (4 before issue 25: with 4 the default build misses gm6's win even with semis-combiner.)
pub const DEFAULT_SEMI_LIMIT: usize = 8;

/// The VSC soft limit of [`VcParams::classic`].
pub const CLASSIC_SEMI_LIMIT: usize = 4;

/// Parameters of a connection build.
#[derive(Clone, Debug)]
pub struct VcParams {
    /// The engine.
    pub variant: Variant,
    /// H-search's M and K (used by [`Variant::HSearch`] only).
    pub hsearch: HSearchLimits,
    /// The budget.
    pub budget: VcBudget,
    /// Edge templates placed as initial VCs (see [`seed`]); empty = base VCs only.
    pub seeds: Vec<SeedTemplate>,
    /// Whether the owner's borders may be AND midpoints (Pawlewicz et al. §III).
    pub and_over_borders: bool,
    /// Stop as soon as a winning VC is found (Anshelevich: "or the winning virtual connection
    /// is built").
    pub stop_at_win: bool,
    /// FastVC: process queued VCs smallest carrier first instead of first-in first-out (see
    /// [`store::VcQueue`]).
    pub smallest_first: bool,
    /// [`VcSet::play`]: rebuild instead of updating when an own move changes more than this
    /// fraction of the stored connections (`None`: always update).
    pub rebuild_above: Option<f64>,
    /// FastVC (limited and fast variants): most VSC carriers stored per endpoint pair, in the
    /// manner of Benzene's soft limit; a full list takes a new carrier only when it shrinks the
    /// intersection of the stored ones (so the OR rule can still apply), the acceptance
    /// heuristic of Pawlewicz et al. §VI-B applied to VSCs. The pair of the two borders is
    /// never limited: its VSCs make the mustplay. `None`: no limit (the unlimited variant
    /// never limits).
    pub semi_limit: Option<usize>,
    /// FastVC (limited and fast variants): the AND rule skips combinations whose carrier
    /// would have more than this many cells. `None`: no bound.
    pub and_size_limit: Option<usize>,
    /// Fast variant: apply the OR rule with semis-combiner (Algorithm 2, as the limited and
    /// unlimited variants do) instead of the fast semis-combiner (Algorithm 4), which only
    /// looks for carriers that shrink the intersection of the pair's stored VCs and so, once
    /// that intersection is empty, derives nothing more for the pair: a small VC that arrives
    /// late is never made, and the AND rule misses what it would have built. With it the
    /// default build finds White's winning VSC of the 2011 Olympiad position gm6 (issue 25;
    /// docs/journal/benchmarks-history.md, "gm6"). The acceptance heuristic is unchanged.
    pub full_or: bool,
    /// Fast variant: a pair with fewer than this many VCs takes any new minimal VC, not only
    /// one that shrinks `I_c(x, y)` (the acceptance heuristic of §VI-B applies from this many
    /// on). 1 (the default) is the paper's heuristic. With [`VcParams::bounded_or`] this finds
    /// the White wins of the 2011 Olympiad positions gm6, gm7 and gm11 under the solver's
    /// settings (docs/journal/vc-session21.md), at a cost in build time.
    pub full_keep: usize,
    /// Fast variant with the fast semis-combiner ([`VcParams::full_or`] off): a pair with
    /// fewer than [`VcParams::full_keep`] VCs is ORed by Benzene's bounded OR rule over at most
    /// this many VSCs ([`combiner::Combiner::bounded_or`]) instead of Algorithm 4, so that it
    /// gets VCs that do not shrink `I_c(x, y)`. `None` (the default): Algorithm 4 always.
    pub bounded_or: Option<usize>,
    /// FastVC: the AND rule at an empty midpoint u also combines two VCs whose carriers meet
    /// only inside the cells u captures when played (its edge bridge to a border of the
    /// colour), giving the VSC with those cells added ([`capture`], issue 25: Black's win of
    /// 8×8 `g2 e6 d5 e4 d4` that Benzene's build finds needs it). Sound for any pair.
    pub capture_and: bool,
    /// FastVC (limited and fast variants): the VSC limit of a pair with exactly one border
    /// endpoint (a border of the colour and a cell or group), whose VCs feed the win test and
    /// the mustplay through the border pair's OR. `None`: [`VcParams::semi_limit`], as for
    /// every other pair; `Some(usize::MAX)`: no limit for such pairs.
    pub edge_semi_limit: Option<usize>,
    /// FastVC: [`VcParams::edge_semi_limit`] also applies to the pairs with a stone group of
    /// the colour as an endpoint (not only a border).
    pub edge_semi_limit_groups: bool,
    /// FastVC (limited and fast variants): a full VSC list (at its limit) also takes a carrier
    /// smaller than its largest one, which it then drops, so the list keeps the smallest
    /// carriers met instead of the first ones (besides those that shrink the intersection).
    pub semi_keep_smallest: bool,
    /// FastVC: the VSCs of the AND over captured cells ([`VcParams::capture_and`]) are not
    /// refused by a full VSC list (they do count towards its length).
    pub capture_semis_unlimited: bool,
    /// Builds on boards whose layout needs two words (8×8) run on one word when the
    /// position's own numbering fits ([`bits::Layout::compact`]): the same connections, in
    /// the same order, with half the memory traffic. Rebuilds only: an incremental play on
    /// such a set first rebuilds it on the board's layout ([`VcSet::play`]).
    pub compact_layout: bool,
}

impl VcParams {
    /// The given variant with default budget, HEXY limits and the HexWiki seeds.
    pub fn new(variant: Variant) -> VcParams {
        VcParams {
            variant,
            hsearch: HSearchLimits::default(),
            budget: VcBudget::default(),
            seeds: seed::default_seeds(),
            and_over_borders: true,
            stop_at_win: false,
            smallest_first: true,
            rebuild_above: Some(0.5),
            semi_limit: match variant {
                Variant::Fast | Variant::Limited => Some(DEFAULT_SEMI_LIMIT),
                _ => None,
            },
            and_size_limit: None,
            full_or: variant == Variant::Fast,
            full_keep: 1,
            bounded_or: None,
            capture_and: false,
            edge_semi_limit: None,
            edge_semi_limit_groups: false,
            semi_keep_smallest: false,
            capture_semis_unlimited: false,
            compact_layout: false,
        }
    }

    /// The fast variant as it was before issue 25: the fast semis-combiner and a VSC soft
    /// limit of [`CLASSIC_SEMI_LIMIT`], for callers whose speed was tuned on it (the local
    /// search's oracle, the arena's adjudication).
    pub fn classic(mut self) -> VcParams {
        self.full_or = false;
        if self.semi_limit.is_some() {
            self.semi_limit = Some(CLASSIC_SEMI_LIMIT);
        }
        self
    }

    /// The same without seeds (base VCs only).
    pub fn unseeded(mut self) -> VcParams {
        self.seeds.clear();
        self
    }
}

/// Why a build stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exhausted {
    /// Too many carriers.
    Connections,
    /// Out of time.
    Time,
}

/// How a build ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Closed under the variant's rules.
    Complete,
    /// Stopped at the first winning VC ([`VcParams::stop_at_win`]).
    StoppedAtWin,
    /// A budget ran out; the stored connections are sound but not closed.
    Incomplete(Exhausted),
}

impl Status {
    /// True for [`Status::Incomplete`].
    pub fn is_incomplete(self) -> bool {
        matches!(self, Status::Incomplete(_))
    }
}

/// Counts of the stored connections.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Stored VC carriers.
    pub vcs: usize,
    /// Stored VSC carriers.
    pub vscs: usize,
    /// Endpoint pairs with at least one VC (Benzene's "full pairs").
    pub vc_pairs: usize,
    /// Endpoint pairs with at least one VSC.
    pub vsc_pairs: usize,
}

/// Work done by the last build or update.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct BuildStats {
    /// Wall time in microseconds.
    pub micros: u64,
    /// Endpoints.
    pub endpoints: usize,
    /// Seed instances added.
    pub seeded: usize,
    /// AND rule applications tried.
    pub and_tries: u64,
    /// OR steps (semis-combiner calls, or H-search OR-rule invocations).
    pub or_calls: u64,
    /// Semis-combiner BACKTRACK calls (or fast-combiner iterations).
    pub backtrack_calls: u64,
    /// H-search iterations (generations).
    pub iterations: u32,
}

/// A connection kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Kind {
    /// Virtual connection (opponent moves first).
    Vc,
    /// Virtual semi-connection (owner moves first).
    Semi,
}

/// One stored connection: endpoints (representatives) and carrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connection {
    /// VC or VSC.
    pub kind: Kind,
    /// One endpoint's representative cell.
    pub x: Cell,
    /// The other's.
    pub y: Cell,
    /// The carrier.
    pub carrier: CellSet,
}

/// The engine of one colour's connections over carriers of `W` words (see [`bits`]): what
/// [`VcSet`] runs. Endpoints are kept twice: [`Endpoints`] (cells, for the public API) and
/// their compact indices (for the search).
pub(crate) struct Engine<const W: usize> {
    pub(crate) params: VcParams,
    pub(crate) colour: Colour,
    pub(crate) position: Position,
    pub(crate) eps: Endpoints,
    /// Compact numbering of the board's cells.
    pub(crate) lay: Layout,
    /// Endpoint → compact index of its representative.
    pub(crate) rk: Vec<usize>,
    /// Compact index → endpoint ([`endpoints::NONE`] for cells of no endpoint).
    pub(crate) kidx: Vec<u16>,
    /// Endpoint → adjacent empty cells (compact).
    pub(crate) adj_k: Vec<Bits<W>>,
    /// Endpoint → the cells it captures when played ([`capture::captured_by`], compact; empty
    /// for groups, and for every endpoint without [`VcParams::capture_and`]).
    pub(crate) cap_k: Vec<Bits<W>>,
    /// Every compact index (cells and borders).
    pub(crate) universe: Bits<W>,
    /// The endpoints of the colour's two borders.
    pub(crate) border_eps: (u16, u16),
    pub(crate) store: Store<W>,
    pub(crate) spare: Store<W>,
    pub(crate) qc: store::VcQueue<W>,
    pub(crate) qs: VecDeque<(u16, u16)>,
    pub(crate) comb: Combiner<W>,
    pub(crate) or_out: Vec<Bits<W>>,
    pub(crate) and_buf: Vec<Bits<W>>,
    pub(crate) hs_scratch: Vec<Bits<W>>,
    pub(crate) hs_max_gen: u32,
    pub(crate) seed_cache: Option<(Board, Vec<CompactSeed<W>>)>,
    /// The seed instances in cells, for builds on a compact layout (whose numbering changes
    /// from position to position).
    pub(crate) seed_cells: Option<(Board, Vec<seed::SeedInstance>)>,
    /// The layout the next [`Engine::set_endpoints`] takes ([`VcSet::rebuild`] with
    /// [`VcParams::compact_layout`]).
    pub(crate) pending_lay: Option<Layout>,
    pub(crate) status: Status,
    pub(crate) stats: BuildStats,
    pub(crate) deadline: Option<Instant>,
    pub(crate) ops: u32,
    pub(crate) won: bool,
    /// States saved by [`Engine::play_undoable`], newest last ([`incremental`]).
    pub(crate) history: Vec<incremental::Saved<W>>,
    /// Stores given back by [`Engine::unplay`], reused by the next undoable play.
    pub(crate) pool: Vec<Store<W>>,
    /// Per slot of the store being updated, what the one-visit carry-over already indexed
    /// ([`incremental`]; cleared at each update).
    pub(crate) carry_flags: Vec<u8>,
}

/// A seed instance in compact indices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CompactSeed<const W: usize> {
    anchor: usize,
    border: Cell,
    helpers: Bits<W>,
    carrier: Bits<W>,
}

impl<const W: usize> Engine<W> {
    /// An engine for `colour` (call [`Engine::rebuild`] before querying).
    pub(crate) fn new(colour: Colour, params: VcParams) -> Engine<W> {
        let position = Position::empty(Board::square(1).expect("1x1 is a board"));
        let eps = Endpoints::new(&position, colour);
        let lay = Layout::new(position.board());
        Engine {
            params,
            colour,
            position,
            eps,
            lay,
            rk: Vec::new(),
            kidx: Vec::new(),
            adj_k: Vec::new(),
            cap_k: Vec::new(),
            universe: Bits::EMPTY,
            border_eps: (0, 0),
            store: Store::default(),
            spare: Store::default(),
            qc: store::VcQueue::default(),
            qs: VecDeque::new(),
            comb: Combiner::default(),
            or_out: Vec::new(),
            and_buf: Vec::new(),
            hs_scratch: Vec::new(),
            hs_max_gen: 0,
            seed_cache: None,
            seed_cells: None,
            pending_lay: None,
            status: Status::Complete,
            stats: BuildStats::default(),
            deadline: None,
            ops: 0,
            won: false,
            history: Vec::new(),
            pool: Vec::new(),
            carry_flags: Vec::new(),
        }
    }

    /// Sets the endpoints of the current position, in cells and in compact indices.
    pub(crate) fn set_endpoints(&mut self) {
        let board = *self.position.board();
        if let Some(l) = self.pending_lay.take() {
            self.lay = l;
        } else if self.lay.board != board || self.lay.compact {
            self.lay = Layout::new(&board);
        }
        self.eps = Endpoints::new(&self.position, self.colour);
        let n = self.eps.len();
        self.rk.clear();
        self.adj_k.clear();
        self.kidx.clear();
        self.kidx.resize(self.lay.len(), endpoints::NONE);
        for i in 0..n {
            self.rk.push(self.lay.k(self.eps.reps[i]));
            self.adj_k.push(self.lay.bits(&self.eps.adj_empty[i]));
            for m in self.eps.members[i].iter() {
                // (A compact layout numbers no stone but a representative.)
                let k = self.lay.from_cell[m.index()];
                if k != u16::MAX {
                    self.kidx[k as usize] = i as u16;
                }
            }
        }
        self.cap_k.clear();
        let capture = self.params.capture_and && self.params.variant != Variant::HSearch;
        for i in 0..n {
            let cap = if capture && !self.eps.coloured[i] {
                let c = capture::captured_by(&self.position, self.colour, self.eps.reps[i]);
                self.lay.bits(&c)
            } else {
                Bits::EMPTY
            };
            self.cap_k.push(cap);
        }
        self.universe = self.lay.bits(&self.eps.universe);
        self.border_eps = self.eps.border_endpoints();
    }

    /// Rebuilds from scratch for `position` (storage is reused).
    pub(crate) fn rebuild(&mut self, position: &Position) {
        let start = Instant::now();
        self.position = position.clone();
        self.set_endpoints();
        self.begin(start);
        self.store.reset(self.eps.len(), self.universe);
        self.qc.clear();
        self.qc.smallest_first = self.params.smallest_first;
        self.qs.clear();
        self.stats.endpoints = self.eps.len();
        self.won = self.eps.joined();
        // Base VCs: adjacent endpoints, empty carrier.
        for x in 0..self.eps.len() as u16 {
            let adj = self.adj_k[x as usize];
            for yk in adj.iter() {
                let y = self.kidx[yk];
                if x < y || self.eps.coloured[x as usize] {
                    // Each unordered pair once: a group's empty neighbours are listed only on
                    // the group's side, two empty cells list each other.
                    self.add_initial(x, y, Bits::EMPTY);
                }
            }
        }
        // Edge templates.
        if !self.params.seeds.is_empty() && self.lay.compact {
            self.add_seeds_by_cells();
        } else if !self.params.seeds.is_empty() {
            let board = *self.position.board();
            if self.seed_cache.as_ref().is_none_or(|(b, _)| *b != board) {
                let inst = seed::instances(&board, self.colour, &self.params.seeds)
                    .into_iter()
                    .map(|i| CompactSeed {
                        anchor: self.lay.k(i.anchor),
                        border: Cell::border(i.border),
                        helpers: self.lay.bits(&i.helpers),
                        carrier: self.lay.bits(&i.carrier),
                    })
                    .collect();
                self.seed_cache = Some((board, inst));
            }
            let (b, inst) = self.seed_cache.take().expect("just filled");
            let opp: Bits<W> = self.lay.bits(&self.position.stones(self.colour.opponent()));
            let own: Bits<W> = self.lay.bits(&self.position.stones(self.colour));
            for i in &inst {
                // The instance applies when no opponent stone is on its anchor or carrier
                // (seed::SeedInstance::applies); own stones leave the carrier.
                if opp.contains(i.anchor) || !i.carrier.is_disjoint(&opp) {
                    continue;
                }
                if !(i.helpers - own).is_empty() {
                    continue;
                }
                let x = self.kidx[i.anchor];
                let y = self.eps.index[i.border.index()];
                if x != y && x != endpoints::NONE {
                    self.add_initial(x, y, i.carrier - own);
                    self.stats.seeded += 1;
                }
            }
            self.seed_cache = Some((b, inst));
        }
        self.run(1);
        self.stats.micros = start.elapsed().as_micros() as u64;
    }

    /// The edge templates of [`Engine::rebuild`] on a compact layout: the same instances in
    /// the same order and the same tests, made on cell sets (a compact layout numbers no
    /// opponent stone, so the tests cannot be made on its bits).
    fn add_seeds_by_cells(&mut self) {
        let board = *self.position.board();
        if self.seed_cells.as_ref().is_none_or(|(b, _)| *b != board) {
            let inst = seed::instances(&board, self.colour, &self.params.seeds);
            self.seed_cells = Some((board, inst));
        }
        let (b, inst) = self.seed_cells.take().expect("just filled");
        let opp = self.position.stones(self.colour.opponent());
        let own = self.position.stones(self.colour);
        for i in &inst {
            if opp.contains(i.anchor) || !i.carrier.is_disjoint(&opp) {
                continue;
            }
            if !(i.helpers - own).is_empty() {
                continue;
            }
            let x = self.eps.index[i.anchor.index()];
            let y = self.eps.index[Cell::border(i.border).index()];
            if x != y && x != endpoints::NONE {
                let c: Bits<W> = self.lay.bits(&(i.carrier - own));
                self.add_initial(x, y, c);
                self.stats.seeded += 1;
            }
        }
        self.seed_cells = Some((b, inst));
    }

    pub(crate) fn begin(&mut self, start: Instant) {
        self.hs_max_gen = 0;
        self.deadline = self.params.budget.time.map(|t| start + t);
        self.status = Status::Complete;
        self.stats = BuildStats::default();
        self.ops = 0;
        let cap = self.params.budget.max_connections;
        self.comb.set_limits(self.universe, self.deadline, cap);
    }

    /// Adds an initial VC (base or seed) through the variant's own insertion.
    fn add_initial(&mut self, x: u16, y: u16, carrier: Bits<W>) {
        match self.params.variant {
            Variant::HSearch => {
                self.hs_update_full(x, y, carrier, 0);
            }
            _ => {
                self.insert_full_unchecked(x, y, carrier, false);
            }
        }
    }

    /// Runs the variant's search loop (after initial connections are in place).
    pub(crate) fn run(&mut self, hs_start: u32) {
        self.comb.set_limits(
            self.universe,
            self.deadline,
            self.params.budget.max_connections,
        );
        if self.won {
            return;
        }
        match self.params.variant {
            Variant::HSearch => self.hsearch_run(hs_start),
            _ => self.fast_search(),
        }
    }

    /// Budget check, cheap enough for inner loops: counts operations and looks at the clock
    /// every 256 of them. Sets the status and returns true when the search must stop.
    #[inline]
    pub(crate) fn exhausted(&mut self) -> bool {
        if self.status != Status::Complete {
            return true;
        }
        let held = self.store.total_fulls + self.store.total_semis + self.qc.len();
        if held > self.params.budget.max_connections {
            self.status = Status::Incomplete(Exhausted::Connections);
            return true;
        }
        self.ops = self.ops.wrapping_add(1);
        if self.ops.is_multiple_of(256) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.status = Status::Incomplete(Exhausted::Time);
                    return true;
                }
            }
        }
        false
    }

    /// Checks for a winning VC when [`VcParams::stop_at_win`] is set.
    #[inline]
    pub(crate) fn note_win(&mut self, x: u16, y: u16) {
        if self.params.stop_at_win && self.status == Status::Complete {
            let (a, b) = self.eps.border_endpoints();
            if (x == a && y == b) || (x == b && y == a) {
                self.status = Status::StoppedAtWin;
            }
        }
    }

    /// Stores a VC without any acceptance test beyond minimality (TRYADD); queues it for the
    /// AND rule (FastVC). Used for base VCs, seeds and the incremental update.
    pub(crate) fn insert_full_unchecked(
        &mut self,
        x: u16,
        y: u16,
        c: Bits<W>,
        processed: bool,
    ) -> bool {
        let mut rm = store::Removed::default();
        let p = self.store.pair_mut(x, y);
        let was_empty = p.fulls.is_empty();
        if !store::try_add(&mut p.fulls, c, 0, &mut rm) {
            return false;
        }
        p.fulls.last_mut().expect("just added").processed = processed;
        self.after_full_added(x, y, c, rm, was_empty);
        if !processed {
            self.qc.push(x, y, c);
        } else {
            let ip = self.store.pair(x, y).full_int_proc & c;
            let (rx, ry) = (self.rk[x as usize], self.rk[y as usize]);
            self.store.set_full_int_proc(x, y, rx, ry, ip);
        }
        true
    }

    /// Bookkeeping after a VC carrier `c` was added to {x, y}: intersections, counts,
    /// neighbourhoods, and removal of the VSCs it makes redundant.
    pub(crate) fn after_full_added(
        &mut self,
        x: u16,
        y: u16,
        c: Bits<W>,
        rm: store::Removed,
        was_empty: bool,
    ) {
        let u = self.store.universe;
        let p = self.store.pair_mut(x, y);
        if rm.count > 0 {
            p.full_int = store::intersection(&p.fulls, false, u);
            if rm.processed {
                let ip = store::intersection(&p.fulls, true, u);
                let (rx, ry) = (self.rk[x as usize], self.rk[y as usize]);
                self.store.set_full_int_proc(x, y, rx, ry, ip);
            }
        } else {
            p.full_int &= c;
        }
        let p = self.store.pair_mut(x, y);
        // A VSC whose carrier contains a VC carrier is a VC, not a VSC (Definition 3).
        let before = p.semis.len();
        if before > 0 {
            p.semis.retain(|s| !c.is_subset(&s.carrier));
            if p.semis.len() != before {
                p.semi_int = store::intersection(&p.semis, false, u);
            }
        }
        if self.params.variant == Variant::Fast
            && p.full_int.is_empty()
            && p.fulls.len() >= self.params.full_keep
        {
            // Fast: x–y takes no more VCs, nor VSCs once it has one (see fastvc::do_and).
            let closed_semi = !p.semis.is_empty() && !self.is_border_pair(x, y);
            let (rx, ry) = (self.rk[x as usize], self.rk[y as usize]);
            self.store.no_vc[x as usize].insert(ry);
            self.store.no_vc[y as usize].insert(rx);
            if closed_semi {
                self.store.no_semi[x as usize].insert(ry);
                self.store.no_semi[y as usize].insert(rx);
            }
        }
        let p = self.store.pair(x, y);
        let removed_semis = before - p.semis.len();
        self.store.total_semis -= removed_semis;
        self.store.total_fulls += 1;
        self.store.total_fulls -= rm.count;
        if was_empty {
            let (rx, ry) = (self.rk[x as usize], self.rk[y as usize]);
            self.store.link(x, y, rx, ry);
        }
        self.note_win(x, y);
    }

    // ----------------------------------------------------------------------------------
    // Queries (carriers converted back to cells).

    fn pair_of(&self, x: Cell, y: Cell) -> Option<&store::Pair<W>> {
        let (i, j) = (self.eps.of(x)?, self.eps.of(y)?);
        if i == j {
            return None;
        }
        Some(self.store.pair(i, j))
    }

    fn cells(&self, list: &[store::Entry<W>]) -> Vec<CellSet> {
        list.iter().map(|e| self.lay.cells(&e.carrier)).collect()
    }

    fn vcs(&self, x: Cell, y: Cell) -> Vec<CellSet> {
        self.pair_of(x, y)
            .map_or_else(Vec::new, |p| self.cells(&p.fulls))
    }

    fn vscs(&self, x: Cell, y: Cell) -> Vec<CellSet> {
        self.pair_of(x, y)
            .map_or_else(Vec::new, |p| self.cells(&p.semis))
    }

    fn connections(&self) -> Vec<Connection> {
        let mut out = Vec::new();
        let n = self.eps.len() as u16;
        for j in 1..n {
            for i in 0..j {
                let p = self.store.pair(i, j);
                let (x, y) = (self.eps.reps[i as usize], self.eps.reps[j as usize]);
                for (kind, list) in [(Kind::Vc, &p.fulls), (Kind::Semi, &p.semis)] {
                    for e in list {
                        out.push(Connection {
                            kind,
                            x,
                            y,
                            carrier: self.lay.cells(&e.carrier),
                        });
                    }
                }
            }
        }
        out
    }

    fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for &s in &self.store.touched {
            let p = &self.store.pairs[s as usize];
            c.vcs += p.fulls.len();
            c.vscs += p.semis.len();
            c.vc_pairs += !p.fulls.is_empty() as usize;
            c.vsc_pairs += !p.semis.is_empty() as usize;
        }
        c
    }

    fn vc_pairs(&self) -> Vec<(Cell, Cell, usize)> {
        let mut out = Vec::new();
        for &s in &self.store.touched {
            let p = &self.store.pairs[s as usize];
            if !p.fulls.is_empty() {
                let (i, j) = store::unslot(s as usize);
                let (x, y) = (self.eps.reps[i as usize], self.eps.reps[j as usize]);
                out.push((x, y, p.full_int.len()));
            }
        }
        out
    }

    fn border_pair(&self) -> Option<&store::Pair<W>> {
        let (a, b) = self.eps.border_endpoints();
        (a != b).then(|| self.store.pair(a, b))
    }

    fn winning_vcs(&self) -> Vec<CellSet> {
        if self.won {
            return vec![CellSet::EMPTY];
        }
        self.border_pair()
            .map_or_else(Vec::new, |p| self.cells(&p.fulls))
    }

    fn winning_vscs(&self) -> Vec<CellSet> {
        if self.won {
            return Vec::new();
        }
        self.border_pair()
            .map_or_else(Vec::new, |p| self.cells(&p.semis))
    }

    fn connected_to(&self, border: Border) -> CellSet {
        let Some(b) = self.eps.of(Cell::border(border)) else {
            return CellSet::EMPTY;
        };
        let mut out = self.eps.members[b as usize];
        for i in 0..self.eps.len() as u16 {
            if i != b && !self.store.pair(i, b).fulls.is_empty() {
                out |= self.eps.members[i as usize];
            }
        }
        out.remove(Cell::border(border));
        for o in Border::ALL {
            out.remove(Cell::border(o));
        }
        out
    }
}

/// The three engine widths.
enum Inner {
    /// Boards with at most [`bits::TINY_LIMIT`] compact indices (up to 7×7 and 8×7): one-word
    /// carriers, half the memory traffic of two (the solver's 7×7 builds).
    Tiny(Box<Engine<1>>),
    /// Boards with at most [`bits::NARROW_LIMIT`] compact indices (up to 11×11).
    Narrow(Box<Engine<2>>),
    /// Larger boards (up to 19×19).
    Wide(Box<Engine<6>>),
}

/// Runs `$body` with `$e` bound to the engine, whatever its width.
macro_rules! with_engine {
    ($inner:expr, $e:ident => $body:expr) => {
        match $inner {
            Inner::Tiny($e) => $body,
            Inner::Narrow($e) => $body,
            Inner::Wide($e) => $body,
        }
    };
}

/// The connections of one colour in one position, and the engine that builds and updates
/// them. Reuse one `VcSet` for many builds on the same board: its storage is kept. Boards up
/// to 11×11 run on two-word carriers, larger ones on six ([`bits`]).
pub struct VcSet {
    inner: Inner,
    /// The engine of the other width last used ([`VcParams::compact_layout`] moves an 8×8
    /// set between one and two words from build to build; its storage is kept here).
    spare: Option<Inner>,
}

/// The width of an engine.
fn class_of(inner: &Inner) -> usize {
    match inner {
        Inner::Tiny(_) => 1,
        Inner::Narrow(_) => 2,
        Inner::Wide(_) => 6,
    }
}

impl VcSet {
    /// An engine for `colour` (call [`VcSet::rebuild`] before querying).
    pub fn new(colour: Colour, params: VcParams) -> VcSet {
        VcSet {
            inner: Inner::Narrow(Box::new(Engine::new(colour, params))),
            spare: None,
        }
    }

    /// Builds the connections of `colour` in `position` from scratch.
    pub fn build(position: &Position, colour: Colour, params: VcParams) -> VcSet {
        let mut v = VcSet::new(colour, params);
        v.rebuild(position);
        v
    }

    /// Rebuilds from scratch for `position` (storage is reused while the board's width class,
    /// [`bits::width_class`], stays the same).
    pub fn rebuild(&mut self, position: &Position) {
        let mut class = bits::width_class(position.board());
        let mut compact = None;
        if class == 2 && self.params().compact_layout {
            compact = Layout::compact(position, self.colour());
            if compact.is_some() {
                class = 1;
            }
        }
        self.set_class(class);
        if let Inner::Tiny(e) = &mut self.inner {
            e.pending_lay = compact;
        }
        with_engine!(&mut self.inner, e => {
            e.forget_history();
            e.rebuild(position)
        })
    }

    /// True when the last build ran on a position's compact one-word layout
    /// ([`VcParams::compact_layout`]).
    pub fn is_compact(&self) -> bool {
        matches!(&self.inner, Inner::Tiny(e) if e.lay.compact)
    }

    /// Makes the engine one of width `class` (the spare one when it has it).
    fn set_class(&mut self, class: usize) {
        if class == class_of(&self.inner) {
            return;
        }
        let next = match self.spare.take() {
            Some(s) if class_of(&s) == class => s,
            _ => {
                let (c, p) = (self.colour(), self.params().clone());
                match class {
                    1 => Inner::Tiny(Box::new(Engine::new(c, p))),
                    2 => Inner::Narrow(Box::new(Engine::new(c, p))),
                    _ => Inner::Wide(Box::new(Engine::new(c, p))),
                }
            }
        };
        self.spare = Some(std::mem::replace(&mut self.inner, next));
    }

    /// Before an incremental play: a set built on a compact layout is rebuilt on the
    /// board's (a compact numbering has no index for the cells a play may need).
    fn uncompact(&mut self) {
        let compact = matches!(&self.inner, Inner::Tiny(e) if e.lay.compact);
        if compact {
            let position = self.position().clone();
            self.set_class(bits::width_class(position.board()));
            with_engine!(&mut self.inner, e => {
                e.forget_history();
                e.rebuild(&position)
            })
        }
    }

    /// The colour whose connections these are.
    pub fn colour(&self) -> Colour {
        with_engine!(&self.inner, e => e.colour)
    }

    /// The position.
    pub fn position(&self) -> &Position {
        with_engine!(&self.inner, e => &e.position)
    }

    /// The parameters.
    pub fn params(&self) -> &VcParams {
        with_engine!(&self.inner, e => &e.params)
    }

    /// Sets the wall-time limit of the next builds and updates ([`VcBudget::time`]; `None`:
    /// no limit) and returns the one it replaces. The engine checks it inside its loops
    /// ([`Status::Incomplete`] when it runs out, with the connections derived so far: sound,
    /// only not closed), so a caller with a deadline of its own can cap an update of a set it
    /// keeps (the player's VSC key search updates its root set) without rebuilding.
    pub fn set_time_budget(&mut self, time: Option<Duration>) -> Option<Duration> {
        if let Some(s) = self.spare.as_mut() {
            with_engine!(s, e => e.params.budget.time = time);
        }
        with_engine!(&mut self.inner, e => std::mem::replace(&mut e.params.budget.time, time))
    }

    /// Sets [`VcParams::stop_at_win`] for the next builds and updates and returns the value
    /// it replaces.
    pub fn set_stop_at_win(&mut self, stop: bool) -> bool {
        if let Some(s) = self.spare.as_mut() {
            with_engine!(s, e => e.params.stop_at_win = stop);
        }
        with_engine!(&mut self.inner, e => std::mem::replace(&mut e.params.stop_at_win, stop))
    }

    /// How the last build or update ended.
    pub fn status(&self) -> Status {
        with_engine!(&self.inner, e => e.status)
    }

    /// Work done by the last build or update.
    pub fn stats(&self) -> BuildStats {
        with_engine!(&self.inner, e => e.stats)
    }

    fn eps(&self) -> &Endpoints {
        with_engine!(&self.inner, e => &e.eps)
    }

    /// The endpoint containing `cell`, as its representative (see [`endpoints`]).
    pub fn endpoint(&self, cell: Cell) -> Option<Cell> {
        let eps = self.eps();
        eps.of(cell).map(|i| eps.reps[i as usize])
    }

    /// Every endpoint: representative and cells.
    pub fn endpoints(&self) -> impl Iterator<Item = (Cell, CellSet)> + '_ {
        let eps = self.eps();
        eps.reps.iter().copied().zip(eps.members.iter().copied())
    }

    /// VC carriers between the endpoints of `x` and `y` (empty when none or the same
    /// endpoint).
    pub fn vcs(&self, x: Cell, y: Cell) -> Vec<CellSet> {
        with_engine!(&self.inner, e => e.vcs(x, y))
    }

    /// VSC carriers between the endpoints of `x` and `y`.
    pub fn vscs(&self, x: Cell, y: Cell) -> Vec<CellSet> {
        with_engine!(&self.inner, e => e.vscs(x, y))
    }

    /// Every stored connection.
    pub fn connections(&self) -> Vec<Connection> {
        with_engine!(&self.inner, e => e.connections())
    }

    /// Counts of stored connections.
    pub fn counts(&self) -> Counts {
        with_engine!(&self.inner, e => e.counts())
    }

    /// The endpoint pairs (representatives) joined by at least one VC, each once.
    pub fn vc_pairs(&self) -> Vec<(Cell, Cell)> {
        self.vc_pairs_overlap()
            .into_iter()
            .map(|(x, y, _)| (x, y))
            .collect()
    }

    /// [`VcSet::vc_pairs`], each with the number of cells common to all of the pair's
    /// stored VC carriers.
    pub fn vc_pairs_overlap(&self) -> Vec<(Cell, Cell, usize)> {
        with_engine!(&self.inner, e => e.vc_pairs())
    }

    /// True when the colour's borders are already joined by its stones.
    pub fn is_won(&self) -> bool {
        with_engine!(&self.inner, e => e.won)
    }

    /// Carriers of the winning VCs (side to side). A won position has one, empty.
    pub fn winning_vcs(&self) -> Vec<CellSet> {
        with_engine!(&self.inner, e => e.winning_vcs())
    }

    /// Carriers of the winning VSCs (side to side, the owner moving first).
    pub fn winning_vscs(&self) -> Vec<CellSet> {
        with_engine!(&self.inner, e => e.winning_vscs())
    }

    /// Empty cells with a VC to `border`'s endpoint, and the owner's stones in groups with
    /// such a VC or containing the border (Pawlewicz et al. Fig. 6).
    pub fn connected_to(&self, border: Border) -> CellSet {
        with_engine!(&self.inner, e => e.connected_to(border))
    }

    /// The connection as a sub-game for the exact search: the position, the carrier, and the
    /// claim `x - y` for the owner, the opponent moving first for a VC and the owner for a
    /// VSC.
    pub fn sub_game(&self, c: &Connection) -> Result<SubGame, ClaimError> {
        SubGame::new(
            self.position().clone(),
            c.carrier,
            Claim {
                owner: self.colour(),
                pairs: vec![(c.x, c.y)],
                owner_first: c.kind == Kind::Semi,
            },
        )
    }

    /// Plays a stone and updates the connections incrementally (see [`incremental`]).
    pub fn play(&mut self, colour: Colour, cell: Cell) -> Result<(), PositionError> {
        self.uncompact();
        with_engine!(&mut self.inner, e => e.play_incremental(colour, cell))
    }

    /// [`VcSet::play`], remembering the state before it so that [`VcSet::unplay`] restores it
    /// exactly (same position, endpoints and stored connections, processed flags included).
    /// For a depth-first search that keeps one engine per colour along its path (Anshelevich
    /// §6: update the hierarchy after a move; undo on the way back) instead of cloning or
    /// rebuilding at every node. The saved state is the previous store itself (the update
    /// writes into a store taken from a pool), so an undoable play costs what `play` costs plus
    /// copying the endpoint tables. On error nothing changes and nothing is saved.
    pub fn play_undoable(&mut self, colour: Colour, cell: Cell) -> Result<(), PositionError> {
        self.uncompact();
        with_engine!(&mut self.inner, e => e.play_undoable(colour, cell))
    }

    /// Undoes the newest [`VcSet::play_undoable`] (and every plain [`VcSet::play`] made after
    /// it). Returns false when there is nothing to undo. [`VcSet::rebuild`] forgets the saved
    /// states.
    pub fn unplay(&mut self) -> bool {
        with_engine!(&mut self.inner, e => e.unplay())
    }

    /// [`VcSet::rebuild`] that [`VcSet::unplay`] can undo (the saved states are kept), for a
    /// depth-first search that must rebuild at a node of its path. Same board only;
    /// otherwise a plain rebuild.
    pub fn rebuild_undoable(&mut self, position: &Position) {
        if self.position().board() != position.board() {
            return self.rebuild(position);
        }
        self.uncompact();
        with_engine!(&mut self.inner, e => e.rebuild_undoable(position))
    }

    /// Number of [`VcSet::play_undoable`] calls that [`VcSet::unplay`] can still undo.
    pub fn undo_depth(&self) -> usize {
        with_engine!(&self.inner, e => e.history.len())
    }
}

/// What the player to move must do, given the opponent's connections (Pawlewicz et al. §II-B,
/// Fig. 2; Hayward et al.'s mustplay).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mustplay {
    /// The opponent has a winning VC: every move loses (as far as the connections tell).
    Lost {
        /// A winning VC carrier of the opponent (the smallest).
        carrier: CellSet,
    },
    /// Moves outside this set lose: it is the intersection of the opponent's winning VSC
    /// carriers (keys included).
    Restricted(CellSet),
    /// The opponent has no winning VSC: no restriction.
    Unrestricted,
}

/// The mustplay of the player to move, from the opponent's connections `opponent`: the
/// opponent's winning VSCs each threaten to win, so a move that avoids one of their carriers
/// loses (if the opponent also sees that VSC). With several, only cells in all carriers
/// remain.
pub fn mustplay(opponent: &VcSet) -> Mustplay {
    if let Some(c) = opponent.winning_vcs().into_iter().min_by_key(|c| c.len()) {
        return Mustplay::Lost { carrier: c };
    }
    let semis = opponent.winning_vscs();
    if semis.is_empty() {
        return Mustplay::Unrestricted;
    }
    let mut m = opponent.position().empty_cells();
    for s in semis {
        m &= s;
    }
    Mustplay::Restricted(m)
}

/// Both colours' connections in one position (Black's, White's); the mustplay of the player
/// to move is then [`mustplay`] of the other one's.
pub fn build_both(position: &Position, params: &VcParams) -> (VcSet, VcSet) {
    (
        VcSet::build(position, Colour::Black, params.clone()),
        VcSet::build(position, Colour::White, params.clone()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;

    fn position(side: u32, moves: &str) -> Position {
        Position::from_moves(Board::square(side).unwrap(), moves, Notation::Letters).unwrap()
    }

    fn sorted(v: Vec<Connection>) -> Vec<(bool, usize, usize, Vec<usize>)> {
        let mut out: Vec<_> = v
            .into_iter()
            .map(|c| {
                let cells = c.carrier.iter().map(|x| x.index()).collect::<Vec<_>>();
                (c.kind == Kind::Vc, c.x.index(), c.y.index(), cells)
            })
            .collect();
        out.sort();
        out
    }

    /// The two-word and the six-word engines are the same code over different carrier
    /// widths: on boards where both apply they store the same connections.
    #[test]
    fn narrow_and_wide_engines_agree() {
        for (side, moves) in [
            (5, "c3 b4"),
            (6, "b2 c4 d3 e2"),
            (7, "d4 c5 e3 b6 c2"),
            (11, "f6 e7 g5"),
        ] {
            let p = position(side, moves);
            for variant in Variant::ALL {
                // The closure variants take seconds on 11x11; the small boards cover them.
                if side > 7 && matches!(variant, Variant::Unlimited | Variant::HSearch) {
                    continue;
                }
                for colour in [Colour::Black, Colour::White] {
                    let params = VcParams::new(variant);
                    let mut n = Engine::<2>::new(colour, params.clone());
                    let mut w = Engine::<6>::new(colour, params.clone());
                    n.rebuild(&p);
                    w.rebuild(&p);
                    assert_eq!(n.counts(), w.counts(), "{side} {moves} {variant} {colour}");
                    assert_eq!(sorted(n.connections()), sorted(w.connections()));
                    assert_eq!(n.status, w.status);
                    if side <= 7 {
                        // The one-word engine of the small boards: the same connections.
                        let mut t = Engine::<1>::new(colour, params);
                        t.rebuild(&p);
                        assert_eq!(t.counts(), n.counts(), "{side} {moves} {variant} {colour}");
                        assert_eq!(sorted(t.connections()), sorted(n.connections()));
                        assert_eq!(t.status, n.status);
                    }
                }
            }
        }
    }

    /// 8×8 builds on a position's compact one-word layout ([`VcParams::compact_layout`])
    /// store the same connections in the same order as on the board's two-word layout, for
    /// both colours, with and without the AND over captured cells; a position that needs more
    /// than 64 indices falls back to two words; an incremental play on a compact set
    /// rebuilds it on the board's layout first and then matches the plain set's play.
    #[test]
    fn compact_layout_builds_the_same_connections() {
        let mut compact_builds = 0;
        for moves in [
            "d4",
            "e4 d5",
            "g2 e5 d6 c5",
            "a1 d5 e4 c6 c4 f3",
            "c5 c6 d5 d3 e3 b7 f2 g2",
            "d4 e4 d5 e5 d6 e6 c3 f3 b2 g2",
        ] {
            let p = position(8, moves);
            for variant in [Variant::Fast, Variant::Limited] {
                for capture in [false, true] {
                    for colour in [Colour::Black, Colour::White] {
                        let mut params = VcParams::new(variant);
                        params.capture_and = capture;
                        let mut on = params.clone();
                        on.compact_layout = true;
                        let mut a = VcSet::new(colour, params);
                        let mut b = VcSet::new(colour, on);
                        a.rebuild(&p);
                        b.rebuild(&p);
                        let what = format!("{moves} {variant} {capture} {colour}");
                        let fits = bits::Layout::compact(&p, colour).is_some();
                        assert_eq!(matches!(b.inner, Inner::Tiny(_)), fits, "{what}");
                        compact_builds += usize::from(fits);
                        assert_eq!(a.counts(), b.counts(), "{what}");
                        assert_eq!(a.connections(), b.connections(), "{what}");
                        assert_eq!(a.status(), b.status(), "{what}");
                        assert_eq!(a.winning_vscs(), b.winning_vscs(), "{what}");
                        assert_eq!(a.winning_vcs(), b.winning_vcs(), "{what}");
                        // A play after a compact build.
                        if let Some(c) = p.empty_cells().iter().next() {
                            a.play_undoable(colour.opponent(), c).unwrap();
                            b.play_undoable(colour.opponent(), c).unwrap();
                            assert!(!matches!(&b.inner, Inner::Tiny(e) if e.lay.compact));
                            assert_eq!(a.connections(), b.connections(), "{what} play");
                        }
                    }
                }
            }
        }
        assert!(compact_builds >= 30, "{compact_builds} compact builds");
    }

    /// The one-word engine's line-15 index ([`store::Store::proc_hit`]) matches the pairs'
    /// `I_c^p` after builds of every variant and after undoable updates and their undos
    /// (each check recomputes it from the lists).
    #[test]
    fn line15_index_stays_in_step() {
        for (side, moves) in [(5, "c3 b4"), (6, "b2 c4 d3 e2"), (7, "d4 c5 e3 b6 c2")] {
            let p = position(side, moves);
            for variant in Variant::ALL {
                for colour in [Colour::Black, Colour::White] {
                    let mut t = Engine::<1>::new(colour, VcParams::new(variant));
                    t.rebuild(&p);
                    assert!(t.store.proc_index);
                    let ok = |t: &Engine<1>| t.store.check_proc_index(&t.rk);
                    assert_eq!(ok(&t), Ok(()), "{side} {moves} {variant} {colour}");
                    let empty: Vec<Cell> = p.empty_cells().iter().take(3).collect();
                    for (k, &c) in empty.iter().enumerate() {
                        let who = if k % 2 == 0 {
                            colour
                        } else {
                            colour.opponent()
                        };
                        t.play_undoable(who, c).expect("empty cell");
                        assert_eq!(ok(&t), Ok(()), "{side} {moves} {variant} {colour} +{k}");
                    }
                    while t.unplay() {
                        assert_eq!(ok(&t), Ok(()), "{side} {moves} {variant} {colour} undo");
                    }
                }
            }
        }
    }

    /// Boards past 11×11 take the six-word engine, up to 7×7 the one-word one, and a VcSet
    /// moves between them.
    #[test]
    fn vcset_switches_width_with_the_board() {
        let mut v = VcSet::new(Colour::Black, VcParams::new(Variant::Fast));
        v.rebuild(&position(13, "g7"));
        assert!(matches!(v.inner, Inner::Wide(_)));
        // g7 is the centre stone: bridged/templated to neither side yet, but it has VCs.
        assert!(!v.vcs(Cell::at(6, 6), Cell::at(7, 5)).is_empty());
        v.rebuild(&position(5, "c3"));
        assert!(matches!(v.inner, Inner::Tiny(_)));
        // Black's c3 on 5x5 is joined to both sides by edge templates and bridges: a win.
        assert!(!v.winning_vcs().is_empty());
        v.rebuild(&position(9, "e5"));
        assert!(matches!(v.inner, Inner::Narrow(_)));
        v.rebuild(&position(7, "d4"));
        assert!(matches!(v.inner, Inner::Tiny(_)));
    }

    /// The player caps the builds and updates of a set it keeps ([`VcSet::set_time_budget`]):
    /// the new limit applies to the next build or update (checked inside the engine's loop),
    /// the old one is handed back, and so is the stop-at-win switch.
    #[test]
    fn a_time_budget_set_on_a_kept_set_applies_to_its_next_build() {
        let p = position(11, "f6 e7 g5 d8");
        let params = VcParams::new(Variant::Fast);
        let mut v = VcSet::build(&p, Colour::Black, params.clone());
        assert_eq!(v.status(), Status::Complete);
        let full = v.counts();
        assert_eq!(v.set_time_budget(Some(Duration::ZERO)), params.budget.time);
        assert!(!v.set_stop_at_win(true));
        assert!(v.params().stop_at_win);
        v.rebuild(&p);
        assert_eq!(v.status(), Status::Incomplete(Exhausted::Time));
        let cut = v.counts();
        assert!(
            cut.vcs + cut.vscs < full.vcs + full.vscs,
            "{cut:?} / {full:?}"
        );
        assert_eq!(v.set_time_budget(params.budget.time), Some(Duration::ZERO));
        assert!(v.set_stop_at_win(false));
        v.rebuild(&p);
        assert_eq!((v.status(), v.counts()), (Status::Complete, full));
    }
}
