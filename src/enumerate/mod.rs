//! Exhaustive enumeration of the minimal one-stone edge templates inside a region.
//!
//! # The problem
//!
//! Fix a stone at `[K, 0]` and a region `R` of empty cells. `f(S)` = "the edge owner wins the
//! sub-game stone − edge on carrier `S`, the opponent moving first" is **monotone** in `S`
//! (docs/SEMANTICS.md, monotonicity). A minimal template is a minimal set of `f`, so we must
//! enumerate every minimal true set of a monotone Boolean function given by an oracle (the
//! exact search, [`decide`]).
//!
//! # The algorithm (dualize and advance; Gunopulos, Khardon, Mannila, Toivonen 1997)
//!
//! Keep the minimal sets `M` found so far and `Tr(M)`, the minimal transversals of `M` (sets
//! meeting every member of `M`). For a transversal `t`, `R ∖ t` contains no member of `M`.
//!
//! - If `f(R ∖ t)` holds, the search's proof set lies in `R ∖ t`; shrinking it one cell at a
//!   time while `f` holds gives a minimal set (by monotonicity one pass suffices), and it is
//!   new because it lies in `R ∖ t`. Add it to `M` and update `Tr(M)` by Berge's rule.
//! - If `f(R ∖ t)` fails for every `t ∈ Tr(M)`, then `M` is complete: a missing minimal set
//!   `m` is no superset of any member of `M` (they are all minimal), so `R ∖ m` meets every
//!   member of `M`, hence contains some `t ∈ Tr(M)`, and `R ∖ t ⊇ m` would hold.
//!
//! A transversal found false stays a minimal transversal after later additions (the new set
//! `m` cannot lie inside `R ∖ t`, so `t` meets it), so each transversal is tested once. The
//! oracle calls of one round are independent and run in parallel (rayon). Undecided calls
//! (over budget) are recorded and make the result incomplete; nothing is ever added to the
//! library without a certificate the kernel accepted.
//!
//! With [`Grid::trace`] on (`templates generate --trace`) every search prints one line on
//! stderr (cells, verdict, nodes, time): the figures behind BENCHMARKS.md's generation rows.
//!
//! # The region
//!
//! `region(K, H, W)`: the cells `[r, c]` with `1 ≤ r ≤ H` and `|2c + r − K| ≤ W − 1`, minus the
//! stone. In the drawing (cell `[r, c]` at abscissa `2c + r`) this is a rectangle centred on
//! the stone, `W` cells wide on row 1 (`W ≡ K mod 2`) and `H` rows high; it is symmetric
//! under the edge mirror `[r, c] ↦ [r, K − c − r]`, so `M` is closed under it.

mod error;
pub mod published;
pub mod two_stone;

pub use error::EnumerateError;

use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::edge_template::{EdgeTemplate, Rc};
use crate::local::{decide, Budget, Verdict};
use crate::position::Position;
use crate::prove::whole_board::{self, Refutation};
use crate::templates::library::{
    canonical, canonical_template, encode_certificate, fnv64, mirror, roman, verify_record,
    ClaimTag, Frame, LibraryFile, MinimalityTag, Provenance, Record, Region, StoredCert, Symmetry,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;

/// A region as a list of cells with local indices (sorted by (row, col)).
#[derive(Clone, Debug)]
pub struct Grid {
    /// Row of the stone.
    pub row: i32,
    /// Region height.
    pub height: i32,
    /// Region width (cells of row 1).
    pub width: i32,
    /// Local index → edge-relative cell.
    pub cells: Vec<Rc>,
    /// Local index → local index of the mirror image (the identity when the helper stones
    /// are not mirror-symmetric: then the problem has no symmetry to use).
    pub mirror: Vec<usize>,
    /// The owner's helper stones besides the goal stone `[row, 0]` (none for one-stone
    /// templates); they are not region cells.
    pub helpers: Vec<Rc>,
    /// Node budget of the whole-board solver ([`crate::prove::whole_board`]), asked before the local
    /// search whether a carrier fails (one-stone regions only; a refutation is used only once
    /// the checker has re-proved its exported proof); `None`: not used.
    pub solver: Option<u64>,
    /// Take the solver's refutations on its word, without the checker (`generate
    /// --trust-solver`: a quick survey). Every such refutation is counted in
    /// [`Grid::trusted`], and an enumeration that used one is never complete and its sets'
    /// minimality is never claimed ([`build_file`]).
    pub trust_solver: bool,
    /// Write the leaves of the solver's exported proofs as AND/OR derivations (the
    /// explainer) rather than `by search` (see [`crate::prove::whole_board::refute_checked_opts`]).
    pub solver_derive: bool,
    /// One line per search on stderr (cells, verdict, nodes, time): diagnostics only.
    pub trace: bool,
    /// Refutations taken on the solver's word so far (see [`Grid::trust_solver`]).
    pub trusted: std::sync::Arc<std::sync::atomic::AtomicU64>,
    board_cells: Vec<Cell>,
    position: Position,
    stone: Cell,
}

/// The cells of `region(row, height, width)` (see the module docs), sorted.
pub fn region_cells(row: i32, height: i32, width: i32) -> Vec<Rc> {
    let mut v = Vec::new();
    for r in 1..=height {
        for c in -40..=40 {
            if (2 * c + r - row).abs() < width && [r, c] != [row, 0] {
                v.push([r, c]);
            }
        }
    }
    v
}

impl Grid {
    /// The region of a stone on row `row`, `height` rows high and `width` cells wide on row 1.
    pub fn new(row: i32, height: i32, width: i32) -> Result<Grid, EnumerateError> {
        if !(2..=10).contains(&row) {
            return Err(EnumerateError::Row(row));
        }
        if height < row || height > 17 {
            return Err(EnumerateError::Height { height, row });
        }
        if width < 1 || (width - row) % 2 != 0 {
            return Err(EnumerateError::Width { width, row });
        }
        Grid::with_cells(row, region_cells(row, height, width))
    }

    /// A region given by its cells (any mirror-symmetric set of edge-relative cells off the
    /// stone). Its `height` and `width` are those of the smallest `region(row, H, W)` holding
    /// it. Used to enumerate inside a tailored region, e.g. a template and its mirror image.
    pub fn with_cells(row: i32, cells: Vec<Rc>) -> Result<Grid, EnumerateError> {
        Grid::with_helpers(row, cells, Vec::new())
    }

    /// A region (a mirror-symmetric set of cells, as for [`Grid::with_cells`]) with helper
    /// stones of the owner on some of its cells: the carrier cells are the region minus the
    /// helpers. The mirror map is used only when the helpers are mirror-symmetric too (then
    /// the enumeration is closed under the mirror); otherwise it is the identity.
    pub fn with_helpers(
        row: i32,
        mut cells: Vec<Rc>,
        mut helpers: Vec<Rc>,
    ) -> Result<Grid, EnumerateError> {
        helpers.sort_unstable();
        helpers.dedup();
        cells.extend(helpers.iter().copied());
        cells.sort_unstable();
        cells.dedup();
        if let Some(rc) = cells.iter().find(|rc| rc[0] < 1 || **rc == [row, 0]) {
            return Err(EnumerateError::OffEdge(*rc));
        }
        if let Some(rc) = cells
            .iter()
            .find(|&&rc| cells.binary_search(&mirror(rc, row)).is_err())
        {
            return Err(EnumerateError::NotSymmetric {
                cell: *rc,
                image: mirror(*rc, row),
            });
        }
        let height = cells.iter().map(|rc| rc[0]).max().unwrap_or(row).max(row);
        let reach = cells
            .iter()
            .map(|rc| (2 * rc[1] + rc[0] - row).abs())
            .max()
            .unwrap_or(0);
        let width = reach + 1 + (reach + 1 - row).rem_euclid(2);
        if height > 19 {
            return Err(EnumerateError::TooHigh(height));
        }
        if cells.len() > 128 {
            return Err(EnumerateError::TooManyCells(cells.len()));
        }
        let min_c = cells.iter().map(|rc| rc[1]).min().unwrap_or(0).min(0);
        let max_c = cells.iter().map(|rc| rc[1]).max().unwrap_or(0).max(0);
        if max_c - min_c + 1 > 19 {
            return Err(EnumerateError::TooWide(max_c - min_c + 1));
        }
        let board = Board::square(19).expect("19 is a board size");
        let at = |rc: Rc| {
            EdgeTemplate::cell_at(&board, Border::Top, -min_c, rc).expect("fits the board")
        };
        if let Some(h) = helpers.iter().find(|h| h[0] > row) {
            return Err(EnumerateError::HelperAbove { helper: *h, row });
        }
        cells.retain(|rc| helpers.binary_search(rc).is_err());
        let board_cells: Vec<Cell> = cells.iter().map(|&rc| at(rc)).collect();
        let symmetric = helpers
            .iter()
            .all(|&h| helpers.binary_search(&mirror(h, row)).is_ok());
        let mirror_idx = cells
            .iter()
            .enumerate()
            .map(|(i, &rc)| {
                if symmetric {
                    cells
                        .iter()
                        .position(|&x| x == mirror(rc, row))
                        .expect("the region is symmetric")
                } else {
                    i
                }
            })
            .collect();
        let stone = at([row, 0]);
        let stones: CellSet = std::iter::once(stone)
            .chain(helpers.iter().map(|&h| at(h)))
            .collect();
        let position = Position::new(board, stones, CellSet::EMPTY).expect("distinct stones");
        Ok(Grid {
            row,
            height,
            width,
            cells,
            mirror: mirror_idx,
            helpers,
            solver: None,
            trust_solver: false,
            solver_derive: true,
            trace: false,
            trusted: Default::default(),
            board_cells,
            position,
            stone,
        })
    }

    /// All region cells as a mask.
    pub fn all(&self) -> u128 {
        if self.cells.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.cells.len()) - 1
        }
    }

    /// The sub-game on carrier `mask`.
    pub fn game(&self, mask: u128) -> SubGame {
        let carrier: CellSet = bits(mask).map(|i| self.board_cells[i]).collect();
        let claim = Claim {
            owner: Colour::Black,
            pairs: vec![(self.stone, Cell::border(Border::Top))],
            owner_first: false,
        };
        SubGame::new(self.position.clone(), carrier, claim)
            .expect("region cells are empty and off the endpoints")
    }

    /// Board cells → mask.
    pub fn mask_of(&self, s: &CellSet) -> u128 {
        let mut m = 0;
        for (i, c) in self.board_cells.iter().enumerate() {
            if s.contains(*c) {
                m |= 1 << i;
            }
        }
        m
    }

    /// Mask → edge-relative cells (sorted).
    pub fn rcs(&self, mask: u128) -> Vec<Rc> {
        bits(mask).map(|i| self.cells[i]).collect()
    }

    /// The mirror image of a mask.
    pub fn mirror_mask(&self, mask: u128) -> u128 {
        bits(mask).fold(0, |m, i| m | 1 << self.mirror[i])
    }
}

/// Iterates the members of a mask.
pub fn bits(mut s: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if s == 0 {
            None
        } else {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            Some(i)
        }
    })
}

/// What one oracle call said.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Holds(u128),
    Fails,
    Undecided,
}

/// Verdicts already known, reused by monotonicity (docs/SEMANTICS.md): a carrier that contains
/// a holding one holds, a carrier inside a failing one fails. Every entry comes from an exact
/// search (or is the mirror image of one: the region is mirror-symmetric and so is `f`), so a
/// memo answer is as exact as the search it stands for.
#[derive(Default)]
struct Memo {
    /// Carriers decided true (proof sets), both mirror images.
    holds: Vec<u128>,
    /// Carriers decided false, both mirror images; kept as an antichain of maximal sets.
    fails: Vec<u128>,
}

impl Memo {
    fn lookup(&self, s: u128) -> Option<Answer> {
        if let Some(&h) = self.holds.iter().find(|&&h| h & !s == 0) {
            return Some(Answer::Holds(h));
        }
        if self.fails.iter().any(|&f| s & !f == 0) {
            return Some(Answer::Fails);
        }
        None
    }

    fn add_fail(&mut self, grid: &Grid, s: u128) {
        for x in [s, grid.mirror_mask(s)] {
            if self.fails.iter().any(|&f| x & !f == 0) {
                continue;
            }
            self.fails.retain(|&f| f & !x != 0);
            self.fails.push(x);
        }
    }

    fn add_hold(&mut self, grid: &Grid, s: u128) {
        for x in [s, grid.mirror_mask(s)] {
            if self.holds.iter().any(|&h| h & !x == 0) {
                continue;
            }
            self.holds.retain(|&h| x & !h != 0);
            self.holds.push(x);
        }
    }
}

fn oracle(grid: &Grid, mask: u128, budget: &Budget, deadline: Option<Instant>) -> Answer {
    let mut budget = *budget;
    if let Some(d) = deadline {
        let left = d.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Answer::Undecided;
        }
        budget.time = Some(budget.time.map_or(left, |t| t.min(left)));
    }
    if let (Some(nodes), true) = (grid.solver, grid.helpers.is_empty()) {
        // A refutation by the whole-board solver counts only once the checker has re-proved
        // the solver's exported proof (whole_board::refute_checked); a win there
        // still needs the local search for its proof set and certificate.
        let t = Instant::now();
        if grid.trust_solver {
            let verdict = whole_board::solve([grid.row, 0], &grid.rcs(mask), nodes);
            if grid.trace {
                eprintln!(
                    "solver (trusted): {} cells, {verdict:?}, {:.2} s",
                    mask.count_ones(),
                    t.elapsed().as_secs_f64()
                );
            }
            if verdict == Some(false) {
                grid.trusted
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                return Answer::Fails;
            }
        }
        let r = if grid.trust_solver {
            Refutation::NotFound
        } else {
            whole_board::refute_checked_opts(
                [grid.row, 0],
                &grid.rcs(mask),
                nodes,
                grid.solver_derive,
                grid.trace,
            )
        };
        if grid.trace {
            eprintln!(
                "solver: {} cells, {r:?}, {:.2} s",
                mask.count_ones(),
                t.elapsed().as_secs_f64()
            );
        }
        match r {
            Refutation::Checked { .. } => return Answer::Fails,
            Refutation::Unconfirmed(e) => {
                eprintln!("hexproof: a solver refutation was not confirmed ({e}); searching")
            }
            Refutation::NotFound => {}
        }
    }
    let outcome = decide(&grid.game(mask), &budget);
    let answer = match &outcome {
        Ok(o) if o.verdict == Verdict::Holds => Answer::Holds(grid.mask_of(&o.proof_set)),
        Ok(o) if o.verdict == Verdict::Fails => Answer::Fails,
        _ => Answer::Undecided,
    };
    if let (true, Ok(o)) = (grid.trace, &outcome) {
        // Diagnostics only: one line per search on stderr.
        eprintln!(
            "search: {} cells, {:?}, {} nodes, {:.2} s",
            mask.count_ones(),
            o.verdict,
            o.stats.nodes,
            o.stats.micros as f64 / 1e6
        );
    }
    answer
}

/// What one task of a round learned: searches made and exact verdicts found, to be merged
/// into the [`Memo`] after the round.
#[derive(Default)]
struct Learnt {
    searches: u64,
    memo_hits: u64,
    holds: Vec<u128>,
    fails: Vec<u128>,
}

impl Learnt {
    /// Adds what another task learnt.
    fn absorb(&mut self, other: Learnt) {
        self.searches += other.searches;
        self.memo_hits += other.memo_hits;
        self.holds.extend(other.holds);
        self.fails.extend(other.fails);
    }

    /// Answers from the memo if it can, else searches and records the verdict.
    fn ask(
        &mut self,
        grid: &Grid,
        memo: &Memo,
        mask: u128,
        budget: &Budget,
        deadline: Option<Instant>,
    ) -> Answer {
        if let Some(a) = memo.lookup(mask) {
            self.memo_hits += 1;
            return a;
        }
        self.searches += 1;
        let a = oracle(grid, mask, budget, deadline);
        match a {
            Answer::Holds(p) => self.holds.push(p),
            Answer::Fails => self.fails.push(mask),
            Answer::Undecided => {}
        }
        a
    }
}

/// Shrinks a winning carrier to a minimal one; `None` if a search was undecided.
fn shrink(
    grid: &Grid,
    memo: &Memo,
    learnt: &mut Learnt,
    mut carrier: u128,
    budget: &Budget,
    deadline: Option<Instant>,
) -> Option<u128> {
    let mut tried: u128 = 0;
    // Any order is correct (monotonicity); trying the cells furthest from the edge first
    // drops the spare ones early.
    while let Some(c) = bits(carrier & !tried).last() {
        tried |= 1 << c;
        match learnt.ask(grid, memo, carrier & !(1 << c), budget, deadline) {
            // The proof set (or a smaller known holding carrier) replaces the carrier.
            Answer::Holds(p) => carrier = p,
            Answer::Fails => {}
            Answer::Undecided => return None,
        }
    }
    Some(carrier)
}

/// Checkpoint of an enumeration (resumable).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Row, height, width.
    pub region: [i32; 3],
    /// Helper stones (two-stone templates).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helpers: Vec<Rc>,
    /// Minimal sets found (hex masks over the region's cells).
    pub minimal: Vec<String>,
    /// Transversals whose complement was decided false (hex masks).
    pub tested: Vec<String>,
    /// Other carriers decided false (hex masks), e.g. the one-cell removals of a seed: kept so
    /// a resumed run (perhaps with a larger budget) searches only what is still undecided.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fails: Vec<String>,
}

/// Options of [`enumerate`].
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Budget of each search.
    pub budget: Budget,
    /// A smaller budget for a first pass: every candidate is first searched with it, and only
    /// the ones it leaves undecided are searched again with `budget`, after every cheap answer
    /// has been used (a new template found cheaply can make a hard candidate unnecessary).
    /// `None`: one pass with `budget`.
    pub quick: Option<Budget>,
    /// Stop (incomplete) after this instant.
    pub deadline: Option<Instant>,
    /// Where to write the checkpoint after each round (and resume from).
    pub checkpoint: Option<PathBuf>,
    /// Show a progress bar.
    pub progress: bool,
    /// Oracle calls per round (each round is parallel).
    pub batch: usize,
    /// Known templates to start from (edge-relative carriers; those outside the region are
    /// ignored). Each is decided and shrunk to a minimal set by search before the loop, so a
    /// wrong seed costs time, never soundness or completeness.
    pub seeds: Vec<Vec<Rc>>,
    /// Stop after the seeds: only decide and shrink them (the result is incomplete unless the
    /// loop would have had nothing to do). Used to certify known templates in a region too
    /// large to enumerate.
    pub seeds_only: bool,
}

impl GenOptions {
    /// One pass with `budget`, no deadline, no checkpoint, no progress bar, no seeds.
    pub fn new(budget: Budget) -> GenOptions {
        GenOptions {
            budget,
            quick: None,
            deadline: None,
            checkpoint: None,
            progress: false,
            batch: 64,
            seeds: Vec::new(),
            seeds_only: false,
        }
    }
}

/// The result of [`enumerate`].
#[derive(Clone, Debug)]
pub struct Enumeration {
    /// The minimal carriers (masks), both orientations.
    pub minimal: Vec<u128>,
    /// True when the enumeration finished with every transversal decided.
    pub complete: bool,
    /// Oracle calls (searches) made, minimisation included.
    pub searches: u64,
    /// Questions answered without a search: from the verdict memo (monotonicity) or by the
    /// mirror image of a transversal decided in the same round.
    pub saved: u64,
    /// Size of the final transversal family.
    pub transversals: usize,
    /// Searches that ran out of budget.
    pub undecided: usize,
    /// Minimal sets that came from seeds.
    pub seeded: Vec<u128>,
    /// Seeds that hold (a certificate can be made) but whose minimality stayed undecided: no
    /// one-cell removal was found to hold, and some removal was over budget. Only filled with
    /// [`GenOptions::seeds_only`]; they are shipped with `minimality: unknown`, never counted
    /// among the minimal sets.
    pub unsettled: Vec<u128>,
    /// Refutations taken on the whole-board solver's word, without the checker
    /// ([`Grid::trust_solver`]); when there are any, the result is incomplete and no
    /// minimality is claimed.
    pub trusted: u64,
}

fn hex(m: u128) -> String {
    format!("{m:x}")
}

fn unhex(s: &str) -> Result<u128, EnumerateError> {
    u128::from_str_radix(s, 16).map_err(|_| EnumerateError::BadMask(s.into()))
}

/// Adds `m` to the family and updates its minimal transversals (Berge).
fn berge(family: &[u128], tr: &mut Vec<u128>, m: u128) {
    let mut keep: Vec<u128> = Vec::with_capacity(tr.len());
    let mut grow: HashSet<u128> = HashSet::new();
    for &t in tr.iter() {
        if t & m != 0 {
            keep.push(t);
        } else {
            for x in bits(m) {
                grow.insert(t | 1 << x);
            }
        }
    }
    // family already contains m.
    for t in grow {
        let minimal = bits(t).all(|y| family.iter().any(|&e| e & t == 1 << y));
        if minimal {
            keep.push(t);
        }
    }
    keep.sort_unstable();
    *tr = keep;
}

/// What a round decided about one transversal `t` (and, by symmetry, its mirror image).
enum Decided {
    /// `R ∖ t` fails.
    Fails,
    /// `R ∖ t` holds; the minimal carrier found inside it.
    New(u128),
    /// Over budget at this level.
    Undecided,
}

/// Writes the checkpoint of `opts` (if any): the family, the transversals of `tr` decided
/// false, and the failing carriers of the memo that are not complements of those.
fn write_checkpoint(
    opts: &GenOptions,
    grid: &Grid,
    family: &[u128],
    tr: &[u128],
    tested: &HashSet<u128>,
    memo: &Memo,
) -> Result<(), EnumerateError> {
    let Some(path) = &opts.checkpoint else {
        return Ok(());
    };
    let tested: Vec<u128> = tr.iter().copied().filter(|t| tested.contains(t)).collect();
    let all = grid.all();
    let cp = Checkpoint {
        region: [grid.row, grid.height, grid.width],
        helpers: grid.helpers.clone(),
        minimal: family.iter().map(|&m| hex(m)).collect(),
        tested: tested.iter().map(|&t| hex(t)).collect(),
        fails: memo
            .fails
            .iter()
            .filter(|&&f| !tested.iter().any(|&t| all & !t == f))
            .map(|&f| hex(f))
            .collect(),
    };
    let text = serde_json::to_string(&cp).expect("checkpoints serialise");
    std::fs::write(path, text).map_err(|source| EnumerateError::WriteCheckpoint {
        path: path.clone(),
        source,
    })
}

/// Shrinks a seed's winning carrier `p` (a known template, so most likely minimal already):
/// first every one-cell removal of `p` is searched, in parallel; if all fail, `p` is minimal
/// and no further search is needed, else the plain [`shrink`] continues from the proof set of
/// a removal that holds. Returns the minimal carrier (`None` if a search was undecided), the
/// seed's proof set when no removal held but some was undecided (its minimality unsettled),
/// and what the searches learnt, undecided or not.
fn shrink_seed(
    grid: &Grid,
    memo: &Memo,
    p: u128,
    budget: &Budget,
    deadline: Option<Instant>,
) -> (Option<u128>, Option<u128>, Learnt) {
    let cells: Vec<usize> = bits(p).collect();
    let answers: Vec<(Answer, Learnt)> = cells
        .par_iter()
        .map(|&c| {
            let mut l = Learnt::default();
            let a = l.ask(grid, memo, p & !(1 << c), budget, deadline);
            (a, l)
        })
        .collect();
    let mut learnt = Learnt::default();
    let mut smaller = None;
    let mut undecided = false;
    for (a, l) in answers {
        learnt.absorb(l);
        match a {
            Answer::Holds(q) => smaller = smaller.or(Some(q)),
            Answer::Undecided => undecided = true,
            Answer::Fails => {}
        }
    }
    match smaller {
        None if undecided => (None, Some(p), learnt),
        None => (Some(p), None, learnt),
        Some(q) => {
            // Some removal holds: p is not minimal; shrink on from q (the memo does not know
            // this round's verdicts, so the learnt ones are consulted through a local memo).
            let mut local = Memo::default();
            local.holds.clone_from(&memo.holds);
            local.fails.clone_from(&memo.fails);
            learnt.holds.iter().for_each(|&h| local.add_hold(grid, h));
            learnt.fails.iter().for_each(|&f| local.add_fail(grid, f));
            let m = shrink(grid, &local, &mut learnt, q, budget, deadline);
            (m, None, learnt)
        }
    }
}

/// Enumerates every minimal carrier of the region (see the module docs).
///
/// Beyond plain dualize-and-advance (the module docs), the loop
/// - decides one transversal per mirror pair (`f` and the region are mirror-symmetric, so
///   `R ∖ t` and `R ∖ mirror(t)` have the same verdict, and the minimal sets found are added
///   with their mirror images);
/// - answers from a verdict memo by monotonicity before searching (a set inside a failing set
///   fails, a set containing a holding proof set holds) — this mostly saves the minimisation
///   searches, whose candidates often lie inside an earlier failing complement;
/// - takes the largest transversals first (the smallest, cheapest complements);
/// - with [`GenOptions::quick`], searches every candidate with the small budget first and
///   retries the undecided ones with the full budget only when no cheap candidate is left:
///   a template found cheaply removes every transversal whose complement contains it, so some
///   hard searches are never needed.
///
/// Soundness and completeness are those of the plain loop: every verdict used is an exact
/// search's (or its mirror image's, or implied by monotonicity from one), and the loop ends
/// complete only when every transversal of the final family was decided false.
pub fn enumerate(grid: &Grid, opts: &GenOptions) -> Result<Enumeration, EnumerateError> {
    let mut s = Search::resume(grid, opts)?;
    let (seeded, unsettled) = s.seed(grid, opts);
    if !opts.seeds.is_empty() {
        // Whatever the seeds' one-cell removals decided is kept even if a seed stayed
        // undecided, so a rerun with a larger budget repeats only the undecided searches.
        write_checkpoint(opts, grid, &s.family, &s.tr, &s.tested, &s.memo)?;
    }
    let bar = progress_bar(opts);
    let levels: Vec<Budget> = opts.quick.iter().copied().chain([opts.budget]).collect();
    let mut complete = true;
    loop {
        if opts.seeds_only {
            break;
        }
        bar.set_length(s.tr.len() as u64);
        bar.set_position(s.tr.iter().filter(|t| s.tested.contains(t)).count() as u64);
        bar.set_message(format!(
            "{} {}x{}: {} minimal found",
            grid.row,
            grid.height,
            grid.width,
            s.family.len()
        ));
        let Some(level) = s.lowest_open_level(levels.len()) else {
            break;
        };
        if opts.deadline.is_some_and(|d| Instant::now() >= d) {
            complete = false;
            break;
        }
        s.round(grid, opts, level, &levels);
        write_checkpoint(opts, grid, &s.family, &s.tr, &s.tested, &s.memo)?;
    }
    bar.finish_and_clear();
    let undecided =
        s.tr.iter()
            .filter(|t| !s.tested.contains(t) && s.attempts.contains_key(t))
            .count();
    if undecided > 0 || s.tr.iter().any(|t| !s.tested.contains(t)) {
        complete = false;
    }
    let trusted = grid.trusted.load(std::sync::atomic::Ordering::Relaxed);
    if trusted > 0 {
        // A refutation on the solver's word alone is not an exact answer.
        complete = false;
    }
    Ok(Enumeration {
        transversals: s.tr.len(),
        minimal: s.family,
        complete,
        searches: s.searches,
        saved: s.saved,
        undecided,
        seeded,
        unsettled,
        trusted,
    })
}

/// The state of one enumeration ([`enumerate`]): the minimal sets found, the transversals of
/// their family, what was decided, and the counts.
struct Search {
    /// Minimal winning sets found so far (with their mirror images).
    family: Vec<u128>,
    /// Transversals decided false (their complements hold no win).
    tested: HashSet<u128>,
    memo: Memo,
    /// The minimal transversals of `family` (Berge's algorithm): the candidates to test.
    tr: Vec<u128>,
    /// Transversal → number of budget levels at which it was undecided.
    attempts: BTreeMap<u128, usize>,
    searches: u64,
    saved: u64,
}

impl Search {
    /// A fresh search, or the one saved in `opts.checkpoint` (which must be of this region).
    fn resume(grid: &Grid, opts: &GenOptions) -> Result<Search, EnumerateError> {
        let all = grid.all();
        let mut family: Vec<u128> = Vec::new();
        let mut tested: HashSet<u128> = HashSet::new();
        let mut known_fails: Vec<u128> = Vec::new();
        if let Some(path) = &opts.checkpoint {
            if let Ok(text) = std::fs::read_to_string(path) {
                let cp: Checkpoint = serde_json::from_str(&text).map_err(|source| {
                    EnumerateError::BadCheckpoint {
                        path: path.clone(),
                        source,
                    }
                })?;
                if cp.region != [grid.row, grid.height, grid.width] || cp.helpers != grid.helpers {
                    return Err(EnumerateError::OtherRegion(path.clone()));
                }
                for s in &cp.minimal {
                    family.push(unhex(s)?);
                }
                for s in &cp.tested {
                    tested.insert(unhex(s)?);
                }
                for s in &cp.fails {
                    known_fails.push(unhex(s)?);
                }
            }
        }
        let mut memo = Memo::default();
        for &t in &tested {
            memo.add_fail(grid, all & !t);
        }
        for &f in &known_fails {
            memo.add_fail(grid, f);
        }
        // The minimal sets of a checkpoint hold: a resumed seed needs no search.
        for &m in &family {
            memo.add_hold(grid, m);
        }
        Ok(Search {
            family,
            tested,
            memo,
            tr: Vec::new(),
            attempts: BTreeMap::new(),
            searches: 0,
            saved: 0,
        })
    }

    /// Shrinks each seed of `opts.seeds` that holds to a minimal set, adds it (and its
    /// mirror image) to the family, then computes the family's transversals. Returns the
    /// seeds' minimal sets and, with `seeds_only`, the carriers left unsettled.
    fn seed(&mut self, grid: &Grid, opts: &GenOptions) -> (Vec<u128>, Vec<u128>) {
        let mut seeded = Vec::new();
        let mut unsettled = Vec::new();
        for seed in &opts.seeds {
            let idx: Option<Vec<usize>> = seed
                .iter()
                .map(|rc| grid.cells.iter().position(|x| x == rc))
                .collect();
            let Some(idx) = idx else { continue };
            let mask = idx.iter().fold(0u128, |m, &i| m | 1 << i);
            let mut learnt = Learnt::default();
            let answer = learnt.ask(grid, &self.memo, mask, &opts.budget, opts.deadline);
            if let Answer::Holds(p) = answer {
                let (m, open, removals) =
                    shrink_seed(grid, &self.memo, p, &opts.budget, opts.deadline);
                learnt.absorb(removals);
                if opts.seeds_only {
                    unsettled.extend(open);
                }
                if let Some(m) = m {
                    for x in [m, grid.mirror_mask(m)] {
                        if !self.family.contains(&x) {
                            self.family.push(x);
                        }
                    }
                    seeded.push(m);
                }
            }
            self.learn(grid, &learnt);
        }
        for &m in &self.family {
            self.memo.add_hold(grid, m);
        }
        self.tr = vec![0];
        for i in 0..self.family.len() {
            berge(&self.family[..=i], &mut self.tr, self.family[i]);
        }
        (seeded, unsettled)
    }

    /// Counts a worker's searches and keeps what it decided.
    fn learn(&mut self, grid: &Grid, learnt: &Learnt) {
        self.searches += learnt.searches;
        self.saved += learnt.memo_hits;
        learnt
            .holds
            .iter()
            .for_each(|&h| self.memo.add_hold(grid, h));
        learnt
            .fails
            .iter()
            .for_each(|&f| self.memo.add_fail(grid, f));
    }

    /// Whether transversal `t` is still to decide within `levels` budget levels.
    fn open(&self, t: &u128, levels: usize) -> bool {
        !self.tested.contains(t) && self.attempts.get(t).copied().unwrap_or(0) < levels
    }

    /// The lowest budget level any open transversal has left; `None`: nothing open.
    fn lowest_open_level(&self, levels: usize) -> Option<usize> {
        self.tr
            .iter()
            .filter(|t| self.open(t, levels))
            .map(|t| self.attempts.get(t).copied().unwrap_or(0))
            .min()
    }

    /// One round at budget `level`: the open transversals at that level, one per mirror
    /// pair, largest first, at most `opts.batch`, decided in parallel; a holding complement
    /// is shrunk to a new minimal set, which (with its mirror image) extends the family and
    /// its transversals.
    fn round(&mut self, grid: &Grid, opts: &GenOptions, level: usize, budgets: &[Budget]) {
        let (levels, budget) = (budgets.len(), &budgets[level]);
        let all = grid.all();
        let mut todo: Vec<u128> = Vec::new();
        for &t in self.tr.iter().filter(|t| self.open(t, levels)) {
            if self.attempts.get(&t).copied().unwrap_or(0) != level {
                continue;
            }
            let rep = t.min(grid.mirror_mask(t));
            if !todo.contains(&rep) {
                todo.push(rep);
            }
        }
        todo.sort_by_key(|t| (std::cmp::Reverse(t.count_ones()), *t));
        todo.truncate(opts.batch.max(1));
        let memo = &self.memo;
        let results: Vec<(u128, Decided, Learnt)> = todo
            .par_iter()
            .map(|&t| {
                let mut learnt = Learnt::default();
                let d = match learnt.ask(grid, memo, all & !t, budget, opts.deadline) {
                    Answer::Fails => Decided::Fails,
                    Answer::Undecided => Decided::Undecided,
                    Answer::Holds(p) => {
                        match shrink(grid, memo, &mut learnt, p, budget, opts.deadline) {
                            Some(m) => Decided::New(m),
                            None => Decided::Undecided,
                        }
                    }
                };
                (t, d, learnt)
            })
            .collect();
        let mut new_sets = Vec::new();
        for (t, d, learnt) in results {
            self.learn(grid, &learnt);
            let mt = grid.mirror_mask(t);
            if mt != t && self.tr.contains(&mt) {
                self.saved += 1;
            }
            match d {
                Decided::Fails => {
                    self.tested.insert(t);
                    self.tested.insert(mt);
                }
                Decided::New(m) => {
                    if !self.family.contains(&m) && !new_sets.contains(&m) {
                        new_sets.push(m);
                    }
                }
                Decided::Undecided => {
                    self.attempts.insert(t, level + 1);
                    self.attempts.insert(mt, level + 1);
                }
            }
        }
        for m in new_sets {
            // The mirror image is minimal too (the region is symmetric): add both at once.
            for x in [m, grid.mirror_mask(m)] {
                if !self.family.contains(&x) {
                    self.family.push(x);
                    berge(&self.family, &mut self.tr, x);
                }
            }
        }
    }
}

/// The bar of `templates generate` (hidden unless `opts.progress`).
fn progress_bar(opts: &GenOptions) -> indicatif::ProgressBar {
    if !opts.progress {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(0);
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "row {msg} [{elapsed_precise}] {bar:30} {pos}/{len} transversals decided",
        )
        .expect("a valid template"),
    );
    b
}

/// HexWiki's edge templates (tests/fixtures/edge-templates-hexwiki.json) in canonical
/// orientation: (name, row, stones, carrier), in the fixture's order.
pub fn hexwiki_templates() -> Vec<(String, i32, Vec<Rc>, Vec<Rc>)> {
    let list = EdgeTemplate::parse_list(include_str!(
        "../../tests/fixtures/edge-templates-hexwiki.json"
    ))
    .expect("the HexWiki fixture parses");
    list.into_iter()
        .filter(|t| t.goal_stones.len() == 1 && t.stones.first() == Some(&[t.row, 0]))
        .map(|t| {
            let (stones, carrier, _) = canonical_template(&t.stones, &t.carrier, t.row);
            (t.name, t.row, stones, carrier)
        })
        .collect()
}

/// HexWiki's one-stone edge templates (tests/fixtures/edge-templates-hexwiki.json), by
/// canonical carrier.
pub fn hexwiki_one_stone() -> Vec<(String, i32, Vec<Rc>)> {
    hexwiki_templates()
        .into_iter()
        .filter(|t| t.2.len() == 1)
        .map(|(name, row, _, carrier)| (name, row, carrier))
        .collect()
}

/// HexWiki's name of a template given in canonical orientation (the first entry of the
/// fixture with the same stones and carrier), if any.
pub fn hexwiki_name(row: i32, stones: &[Rc], carrier: &[Rc]) -> Option<String> {
    hexwiki_templates()
        .into_iter()
        .find(|(_, r, s, c)| *r == row && s == stones && c == carrier)
        .map(|(n, ..)| n)
}

/// The name of a template in canonical orientation: HexWiki's when it is one of HexWiki's,
/// else `ROMAN STONES-SIZE-HASH` (16 bits of FNV-1a of the canonical cells, so the name does
/// not depend on what else the library holds), e.g. `IV1-21-3c7e`, `III2-7-0a1b`; 32 bits for
/// three or more stones (hundreds of classes of one size: 16 bits already collide in 4×6),
/// e.g. `IV3-12-0a1b2c3d`.
pub fn template_name(row: i32, stones: &[Rc], carrier: &[Rc]) -> (String, Option<String>) {
    let wiki = hexwiki_name(row, stones, carrier);
    let name = wiki.clone().unwrap_or_else(|| {
        // One-stone names hash the carrier alone (as they always have).
        let key = if stones.len() == 1 {
            format!("{:?}", carrier)
        } else {
            format!("{:?} {:?}", stones, carrier)
        };
        let (digits, mask) = if stones.len() >= 3 {
            (8, 0xffff_ffff)
        } else {
            (4, 0xffff)
        };
        format!(
            "{}{}-{}-{:0digits$x}",
            roman(row),
            stones.len(),
            carrier.len(),
            fnv64(key.as_bytes()) & mask
        )
    });
    (name, wiki)
}

/// A certified record of an edge template (stones and carrier in canonical orientation): the
/// template is decided once more on its exact carrier, the kernel-accepted certificate is
/// encoded, and the encoded record is re-verified (decode + kernel) before it is returned.
/// Fails if any of that fails: nothing unproved enters the library.
pub fn certified_record(
    row: i32,
    stones: Vec<Rc>,
    carrier: Vec<Rc>,
    minimality: MinimalityTag,
    source: &str,
    region: &Region,
    budget: &Budget,
) -> Result<Record, EnumerateError> {
    let (canon_stones, canon_carrier, symmetry) = canonical_template(&stones, &carrier, row);
    let (name, wiki) = template_name(row, &canon_stones, &canon_carrier);
    let mut rec = Record {
        name,
        row,
        owner: "edge-owner".into(),
        frame: Frame::Edge,
        claim: ClaimTag::Vc,
        minimality,
        symmetry,
        stones: canon_stones,
        goals: 1,
        carrier: canon_carrier,
        provenance: Provenance {
            source: source.into(),
            region: region.clone(),
            hexwiki: wiki,
        },
        certificate: StoredCert {
            root: 0,
            first: None,
            nodes: Vec::new(),
        },
        digest: String::new(),
    };
    let (game, cells, stone_cells) = rec.sub_game()?;
    let outcome = decide(&game, budget)?;
    let cert = match (outcome.verdict, outcome.certificate) {
        (Verdict::Holds, Some(c)) => c,
        (v, _) => {
            return Err(EnumerateError::NotProved {
                name: rec.name,
                verdict: v,
            })
        }
    };
    rec.certificate = encode_certificate(&cert, &cells, &stone_cells)?;
    rec.digest = rec.compute_digest();
    verify_record(&rec).map_err(|source| EnumerateError::Unverified {
        name: rec.name.clone(),
        source,
    })?;
    Ok(rec)
}

/// Turns an enumeration into a library file: one record per mirror class, each with a kernel
/// certificate ([`certified_record`]). Fails if any certificate cannot be made: nothing
/// unproved enters the library.
pub fn build_file(
    grid: &Grid,
    en: &Enumeration,
    budget: &Budget,
) -> Result<LibraryFile, EnumerateError> {
    let mut classes: BTreeMap<(usize, Vec<Rc>), Symmetry> = BTreeMap::new();
    for &m in &en.minimal {
        let (canon, sym) = canonical(&grid.rcs(m), grid.row);
        classes.insert((canon.len(), canon), sym);
    }
    let min_size = classes.keys().map(|k| k.0).min();
    let seeded: Vec<Vec<Rc>> = en
        .seeded
        .iter()
        .map(|&m| canonical(&grid.rcs(m), grid.row).0)
        .collect();
    let region = Region {
        height: grid.height,
        width: grid.width,
    };
    // Seeds whose minimality stayed undecided: shipped (they hold), marked `unknown`.
    let open: BTreeMap<(usize, Vec<Rc>), ()> = en
        .unsettled
        .iter()
        .map(|&m| canonical(&grid.rcs(m), grid.row).0)
        .filter(|c| !classes.contains_key(&(c.len(), c.clone())))
        .map(|c| ((c.len(), c), ()))
        .collect();
    let mut templates = Vec::new();
    for (carrier, known) in open
        .into_keys()
        .map(|(_, c)| (c, false))
        .chain(classes.into_keys().map(|(_, c)| (c, true)))
    {
        let size = carrier.len();
        let source = if !known || seeded.contains(&carrier) {
            "generated-from-seed"
        } else {
            "generated"
        };
        let minimality = if !known || en.trusted > 0 {
            MinimalityTag::Unknown
        } else if en.complete && Some(size) == min_size {
            MinimalityTag::Minimum
        } else {
            MinimalityTag::Minimal
        };
        templates.push(certified_record(
            grid.row,
            vec![[grid.row, 0]],
            carrier,
            minimality,
            source,
            &region,
            budget,
        )?);
    }
    templates.sort_by(|a, b| (a.carrier.len(), &a.carrier).cmp(&(b.carrier.len(), &b.carrier)));
    Ok(LibraryFile {
        row: grid.row,
        stones: 1,
        region,
        complete: en.complete,
        templates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_cells_matches_the_rectangular_region() {
        for (row, h, w) in [(2, 3, 6), (3, 4, 7), (4, 4, 10), (5, 5, 11)] {
            let a = Grid::new(row, h, w).unwrap();
            let b = Grid::with_cells(row, region_cells(row, h, w)).unwrap();
            assert_eq!((a.cells.clone(), a.mirror.clone()), (b.cells, b.mirror));
            assert_eq!((a.height, a.width), (b.height, b.width), "{row} {h} {w}");
        }
        // Not mirror-symmetric, the stone itself, off the edge: refused.
        assert!(Grid::with_cells(3, vec![[1, 0]]).is_err());
        assert!(Grid::with_cells(3, vec![[3, 0]]).is_err());
        assert!(Grid::with_cells(3, vec![[0, 1], [0, 2]]).is_err());
    }

    #[test]
    fn memo_answers_by_monotonicity_only() {
        let grid = Grid::new(3, 3, 7).unwrap();
        let mut memo = Memo::default();
        let (a, b) = (0b1011u128, 0b1111_0000u128);
        memo.add_hold(&grid, a);
        memo.add_fail(&grid, b);
        assert!(matches!(memo.lookup(a | 1 << 9), Some(Answer::Holds(h)) if h == a));
        assert!(matches!(memo.lookup(0b0011_0000), Some(Answer::Fails)));
        // Neither above a holding set nor below a failing one: unknown.
        assert!(memo.lookup(0b0001_0011).is_none());
        // Mirror images are known too.
        let ma = grid.mirror_mask(a);
        assert!(matches!(memo.lookup(ma), Some(Answer::Holds(h)) if h == ma));
        assert!(matches!(
            memo.lookup(grid.mirror_mask(b)),
            Some(Answer::Fails)
        ));
        // Failing sets are kept maximal, holding sets minimal.
        memo.add_fail(&grid, b | 1);
        assert!(!memo.fails.contains(&b));
        memo.add_hold(&grid, a & !1);
        assert!(!memo.holds.contains(&a));
    }
}
