//! Explaining a connection: an H-search that records how each connection was made, so a
//! winning VC can be written as Anshelevich's AND/OR derivation (docs/LANGUAGE.md §7–§8)
//! for the checker, instead of a claim the checker must decide by exhaustive search.
//!
//! This is *not* the solver's engine ([`super::fastvc`] keeps carriers only, and stays
//! untouched): it is a separate, small H-search (V. V. Anshelevich, *A hierarchical approach
//! to computer Hex*, AI 134 (2002), §4 and Appendix A), run on a restricted area — typically
//! the carrier of the connection the engine found — with the same deduction rules the checker
//! knows (`src/check/rules.rs`):
//!
//! - **base facts**: two adjacent endpoints, empty carrier (a cell next to a stone of a group,
//!   two adjacent empty cells);
//! - **edge templates** (the seeds of [`super::seed`], HexWiki's II, III1a, III1b, IV1a, IV1b
//!   placed along the owner's borders, the goal stone on a stone of the owner): a *lemma use*
//!   `by NAME` of the certified template library (`use templates`);
//! - the **AND rule**: VCs `(x, A, u)` and `(u, B, y)` with `A ∩ B = ∅`, `x ∉ B`, `y ∉ A` give
//!   the VC `(x, A ∪ B, y)` when `u` is a group of the owner, the VSC `(x, A ∪ {u} ∪ B, y)`
//!   when `u` is an empty cell;
//! - the **OR rule**: VSCs `(x, A_k, y)` with `⋂ A_k = ∅` give the VC `(x, ⋃ A_k, y)`: first
//!   the small unions (at most [`ExplainLimits::or_max`] VSCs, each shrinking the running
//!   intersection), else the greedy sum of all the pair's VSCs (any number of them), and
//!   nothing at all — no search — when the intersection of all of them is not empty.
//!
//! Every stored connection keeps its provenance (the premises it was made from), and
//! [`explain_win`] returns the derivation of the first winning VC (border to border) found,
//! pruned to the facts it needs, in dependency order. Carriers are bitsets over the area's
//! empty cells (`u128`), so the area holds at most 128 cells.

use super::seed::{self, SeedInstance, SeedTemplate};
use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::position::Position;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

/// The default seed templates, parsed once per process (the embedded library does not change).
fn default_seeds() -> &'static [SeedTemplate] {
    static SEEDS: OnceLock<Vec<SeedTemplate>> = OnceLock::new();
    SEEDS.get_or_init(seed::default_seeds)
}

/// Every placement of `seeds` along `owner`'s borders on `board` (with the seed's index),
/// computed once per board size, colour and seed list (per thread): an explanation only
/// filters them.
fn placements(
    board: &Board,
    owner: Colour,
    seeds: &'static [SeedTemplate],
) -> Rc<Vec<(usize, SeedInstance)>> {
    type Key = (u8, u8, bool, usize);
    thread_local! {
        static PLACED: RefCell<HashMap<Key, Rc<Vec<(usize, SeedInstance)>>>> =
            RefCell::new(HashMap::new());
    }
    let key = (
        board.cols(),
        board.rows(),
        owner == Colour::Black,
        seeds.as_ptr() as usize,
    );
    PLACED.with(|m| {
        m.borrow_mut()
            .entry(key)
            .or_insert_with(|| {
                let mut v = Vec::new();
                for (t, tpl) in seeds.iter().enumerate() {
                    for inst in seed::instances(board, owner, std::slice::from_ref(tpl)) {
                        v.push((t, inst));
                    }
                }
                Rc::new(v)
            })
            .clone()
    })
}

/// Bounds of one explanation.
#[derive(Clone, Copy, Debug)]
pub struct ExplainLimits {
    /// Most carriers kept per endpoint pair, for VCs and for VSCs each.
    pub list_max: usize,
    /// Most VSCs combined by one OR.
    pub or_max: usize,
    /// Most rule applications tried before giving up.
    pub work: u64,
    /// The edge templates used as facts (their names are written in the derivation, so the
    /// checker must know them: `use templates` imports the whole library); `None`: the
    /// default seeds of [`super::seed::default_seeds`]. A template with helper stones is used
    /// only where they are the owner's stones.
    pub seeds: Option<&'static [SeedTemplate]>,
}

impl ExplainLimits {
    fn seed_list(&self) -> &'static [SeedTemplate] {
        self.seeds.unwrap_or_else(default_seeds)
    }
}

impl Default for ExplainLimits {
    fn default() -> Self {
        ExplainLimits {
            list_max: 16,
            or_max: 4,
            work: 300_000,
            seeds: None,
        }
    }
}

/// How a fact was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Its ends are adjacent (or the same group): a base fact.
    Base,
    /// An edge template of the library (its name, without the mirror mark).
    Template(String),
    /// AND of two VCs (indices into [`Derivation::facts`]) through the common end `u`.
    And(usize, usize, Cell),
    /// OR of VSCs (indices into [`Derivation::facts`]).
    Or(Vec<usize>),
}

/// One fact of a derivation: `(x, carrier, y)`, a VC or (`semi`) a VSC of the owner.
#[derive(Clone, Debug)]
pub struct ExplainedFact {
    /// An end: an empty cell, a stone standing for its group, or a border (as a cell).
    pub x: Cell,
    /// The other end.
    pub y: Cell,
    /// The carrier (empty cells).
    pub carrier: CellSet,
    /// A VSC (the owner moves first)?
    pub semi: bool,
    /// Its provenance.
    pub why: Why,
}

/// A derivation: facts in dependency order (premises before their conclusions); the last
/// one joins the owner's two borders.
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The facts, the goal last.
    pub facts: Vec<ExplainedFact>,
}

impl Derivation {
    /// The goal's carrier.
    pub fn carrier(&self) -> CellSet {
        self.facts
            .last()
            .map(|f| f.carrier)
            .unwrap_or(CellSet::EMPTY)
    }

    /// Rule steps (facts that are not base facts).
    pub fn steps(&self) -> usize {
        self.facts.iter().filter(|f| f.why != Why::Base).count()
    }
}

/// A stored fact in the arena (never removed, so provenance indices stay valid).
struct Rec {
    x: u16,
    y: u16,
    carrier: u128,
    semi: bool,
    why: RecWhy,
}

enum RecWhy {
    Base,
    Template(usize),
    And(usize, usize, u16),
    Or(Vec<usize>),
}

#[derive(Default, Clone)]
struct Lists {
    fulls: Vec<(u128, usize)>,
    semis: Vec<(u128, usize)>,
}

struct Search<'a> {
    limits: ExplainLimits,
    /// Endpoint representatives: an empty cell, a stone of a group, or a border cell.
    reps: Vec<Cell>,
    /// Local carrier index of an empty-cell endpoint (`None` for groups).
    loc: Vec<Option<u32>>,
    /// Is the endpoint a group of the owner (a coloured AND midpoint)?
    coloured: Vec<bool>,
    lists: Vec<Lists>,
    /// For each endpoint, the endpoints it has a VC with (in the order first found).
    vc_nbrs: Vec<Vec<u16>>,
    arena: Vec<Rec>,
    /// Scratch for the AND rule (no allocation per combination).
    scratch: Vec<(u128, usize)>,
    /// Scratch for the OR rule: the pair's other VSCs, and the VSCs chosen so far.
    or_scratch: Vec<(u128, usize)>,
    chosen: Vec<usize>,
    queue: std::collections::VecDeque<usize>,
    goal: (u16, u16),
    /// Stop at the first VSC of the goal pair (to find a key) instead of a VC?
    semi_goal: bool,
    work: u64,
    names: &'a [SeedTemplate],
}

impl Search<'_> {
    fn n(&self) -> usize {
        self.reps.len()
    }

    fn pair(&self, x: u16, y: u16) -> &Lists {
        &self.lists[x as usize * self.n() + y as usize]
    }

    fn pair_mut(&mut self, x: u16, y: u16) -> &mut Lists {
        let n = self.n();
        &mut self.lists[x as usize * n + y as usize]
    }

    fn is_goal(&self, x: u16, y: u16) -> bool {
        (x, y) == self.goal || (y, x) == self.goal
    }

    /// Stores a VC unless a stored one is inside it; returns its arena index.
    fn add_full(&mut self, x: u16, y: u16, c: u128, why: RecWhy) -> Option<usize> {
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        let max = self.limits.list_max;
        let goal = self.is_goal(a, b);
        let p = self.pair(a, b);
        if p.fulls.iter().any(|&(f, _)| f & c == f) || (!goal && p.fulls.len() >= max) {
            return None;
        }
        let id = self.arena.len();
        self.arena.push(Rec {
            x: a,
            y: b,
            carrier: c,
            semi: false,
            why,
        });
        let p = self.pair_mut(a, b);
        let first = p.fulls.is_empty();
        p.fulls.retain(|&(f, _)| f & c != c);
        p.semis.retain(|&(s, _)| s & c != c);
        p.fulls.push((c, id));
        if first {
            self.vc_nbrs[a as usize].push(b);
            self.vc_nbrs[b as usize].push(a);
        }
        self.queue.push_back(id);
        Some(id)
    }

    /// Stores a VSC unless a stored VC or VSC is inside it; returns its arena index.
    fn add_semi(&mut self, x: u16, y: u16, c: u128, why: RecWhy) -> Option<usize> {
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        let max = self.limits.list_max;
        let p = self.pair(a, b);
        if p.fulls.iter().any(|&(f, _)| f & c == f)
            || p.semis.iter().any(|&(s, _)| s & c == s)
            || p.semis.len() >= max
        {
            return None;
        }
        let id = self.arena.len();
        self.arena.push(Rec {
            x: a,
            y: b,
            carrier: c,
            semi: true,
            why,
        });
        let p = self.pair_mut(a, b);
        p.semis.retain(|&(s, _)| s & c != c);
        p.semis.push((c, id));
        Some(id)
    }

    /// The OR rule for pair {x, y} with its new VSC `id`: every set of at most `or_max`
    /// VSCs containing it, each shrinking the running intersection, whose intersection is
    /// empty gives a VC on their union. Returns the goal VC's index once found.
    fn or_rule(&mut self, x: u16, y: u16, id: usize) -> Option<usize> {
        let c = self.arena[id].carrier;
        let mut semis = std::mem::take(&mut self.or_scratch);
        semis.clear();
        semis.extend(
            self.pair(x.min(y), x.max(y))
                .semis
                .iter()
                .copied()
                .filter(|&(s, i)| i != id && s & c != c),
        );
        let mut r = None;
        // Greedy sum first (Pawlewicz et al. 2015, §V-D3): take each VSC that shrinks the
        // running intersection. It ends empty exactly when the intersection of all of them
        // is empty (a VSC skipped contained the running intersection, which only shrinks);
        // when it does not, no subset can have an empty intersection and the OR rule has
        // nothing to give, so the bounded search below is skipped.
        let (mut inter, mut union) = (c, c);
        let mut chosen = std::mem::take(&mut self.chosen);
        chosen.clear();
        chosen.push(id);
        self.work += semis.len() as u64;
        for &(s2, i) in &semis {
            if inter & s2 != inter {
                inter &= s2;
                union |= s2;
                chosen.push(i);
                if inter == 0 {
                    break;
                }
            }
        }
        if inter == 0 {
            let greedy = chosen.clone();
            chosen.truncate(1);
            // Small unions of at most `or_max` VSCs first, then the greedy one (any number of
            // VSCs: the OR rule has no upper bound; it is kept only if no smaller VC is).
            r = self.or_rec(x, y, &semis, 0, c, c, &mut chosen);
            if r.is_none() && self.work <= self.limits.work {
                if let Some(g) = self.add_full(x, y, union, RecWhy::Or(greedy)) {
                    if self.is_goal(x, y) {
                        r = Some(g);
                    }
                }
            }
        }
        self.chosen = chosen;
        self.or_scratch = semis;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn or_rec(
        &mut self,
        x: u16,
        y: u16,
        semis: &[(u128, usize)],
        from: usize,
        union: u128,
        inter: u128,
        chosen: &mut Vec<usize>,
    ) -> Option<usize> {
        if chosen.len() >= self.limits.or_max {
            return None;
        }
        for j in from..semis.len() {
            let (s, i) = semis[j];
            let i1 = inter & s;
            if i1 == inter {
                continue;
            }
            self.work += 1;
            if self.work > self.limits.work {
                return None;
            }
            let u1 = union | s;
            chosen.push(i);
            if i1 == 0 {
                let done = self.add_full(x, y, u1, RecWhy::Or(chosen.clone()));
                chosen.pop();
                if let Some(g) = done {
                    if self.is_goal(x, y) {
                        return Some(g);
                    }
                }
            } else {
                let r = self.or_rec(x, y, semis, j + 1, u1, i1, chosen);
                chosen.pop();
                if r.is_some() {
                    return r;
                }
            }
        }
        None
    }

    /// The AND rule for the VC `id` = (x, C, u) through its end `u` with every stored VC
    /// (u, D, z). Returns the goal VC's index once found.
    fn and_from(&mut self, id: usize, x: u16, u: u16) -> Option<usize> {
        let c = self.arena[id].carrier;
        let ubit = self.loc[u as usize].map_or(0, |l| 1u128 << l);
        let xbit = self.loc[x as usize].map_or(0, |l| 1u128 << l);
        let coloured = self.coloured[u as usize];
        let mut k = 0;
        while k < self.vc_nbrs[u as usize].len() {
            let z = self.vc_nbrs[u as usize][k];
            k += 1;
            if z == x {
                continue;
            }
            if let Some(l) = self.loc[z as usize] {
                if c & (1u128 << l) != 0 {
                    continue; // y ∉ A
                }
            }
            let (a, b) = (u.min(z), u.max(z));
            let mut others = std::mem::take(&mut self.scratch);
            others.clear();
            others.extend(
                self.pair(a, b)
                    .fulls
                    .iter()
                    .filter(|&&(d, _)| d & c == 0 && d & xbit == 0), // A ∩ B = ∅, x ∉ B
            );
            self.work += others.len() as u64 + 1;
            if self.work > self.limits.work {
                self.scratch = others;
                return None;
            }
            for &(d, j) in &others {
                if coloured {
                    if let Some(g) = self.add_full(x, z, c | d, RecWhy::And(id, j, u)) {
                        if self.is_goal(x, z) {
                            return Some(g);
                        }
                    }
                } else if let Some(s) = self.add_semi(x, z, c | d | ubit, RecWhy::And(id, j, u)) {
                    if self.semi_goal && self.is_goal(x, z) {
                        return Some(s);
                    }
                    if let Some(g) = self.or_rule(x, z, s) {
                        return Some(g);
                    }
                }
            }
            self.scratch = others;
        }
        None
    }
}

/// The derivation of a winning VC of `owner` in `position` (border to border), using only the
/// empty cells of `area` (the other empty cells count as the opponent's), or `None` when this
/// H-search finds none within `limits`. A position already won gives a one-fact derivation.
pub fn explain_win(
    position: &Position,
    owner: Colour,
    area: CellSet,
    limits: ExplainLimits,
) -> Option<Derivation> {
    run(position, owner, area, limits, false)
}

/// A key of a winning VSC of `owner` inside `area`: the empty cell `u` of the first VSC
/// `(t, A ∪ {u} ∪ B, b)` this H-search makes by the AND rule from VCs `(t, A, u)` and
/// `(u, B, b)`. With a stone of `owner` on `u` those two VCs give a winning VC on `A ∪ B`
/// (the AND rule through a group): the precluding analysis of the mustplay (Henderson,
/// Arneson & Hayward 2009 §2). `None` when none is found within `limits`.
pub fn explain_key(
    position: &Position,
    owner: Colour,
    area: CellSet,
    limits: ExplainLimits,
) -> Option<Cell> {
    let d = run(position, owner, area, limits, true)?;
    let g = d.facts.last()?;
    match g.why {
        Why::And(_, _, u) if g.semi => Some(u),
        _ => None,
    }
}

/// [`explain_key`] with the proof that goes with it: the key `u` and the derivation, in
/// `position` plus a stone of `owner` on `u`, of the winning VC on `A ∪ B` — the same facts
/// (none of their carriers holds `u`, an end of both premises, so each step reads the same with
/// the stone there: base facts stay adjacent, no AND runs through `u`) and, last, the AND of
/// `(t, A, u)` and `(u, B, b)` through the now black `u` (a VC, Anshelevich's AND rule, case
/// i). One H-search gives both the precluding key and its analysis (Henderson, Arneson &
/// Hayward 2009 §2), instead of a second search in the position with the stone.
pub fn explain_key_vc(
    position: &Position,
    owner: Colour,
    area: CellSet,
    limits: ExplainLimits,
) -> Option<(Cell, Derivation)> {
    let mut d = run(position, owner, area, limits, true)?;
    let g = d.facts.last_mut()?;
    let u = match g.why {
        Why::And(_, _, u) if g.semi && position.colour_at(u).is_none() => u,
        _ => return None,
    };
    g.semi = false;
    g.carrier.remove(u);
    Some((u, d))
}

/// Work counters (calls, successes, rule applications) of [`explain_win`] and
/// [`explain_key`] since the start of the process: `(calls, found, work)` per kind.
pub fn counters() -> [(u64, u64, u64); 2] {
    use std::sync::atomic::Ordering::Relaxed;
    let g = |i: usize| {
        (
            COUNTERS[i][0].load(Relaxed),
            COUNTERS[i][1].load(Relaxed),
            COUNTERS[i][2].load(Relaxed),
        )
    };
    [g(0), g(1)]
}

static COUNTERS: [[std::sync::atomic::AtomicU64; 3]; 2] = [
    [const { std::sync::atomic::AtomicU64::new(0) }; 3],
    [const { std::sync::atomic::AtomicU64::new(0) }; 3],
];

fn run(
    position: &Position,
    owner: Colour,
    area: CellSet,
    limits: ExplainLimits,
    semi_goal: bool,
) -> Option<Derivation> {
    use std::sync::atomic::Ordering::Relaxed;
    let mut work = 0;
    let r = run_inner(position, owner, area, limits, semi_goal, &mut work);
    let c = &COUNTERS[semi_goal as usize];
    c[0].fetch_add(1, Relaxed);
    c[1].fetch_add(r.is_some() as u64, Relaxed);
    c[2].fetch_add(work, Relaxed);
    r
}

fn run_inner(
    position: &Position,
    owner: Colour,
    area: CellSet,
    limits: ExplainLimits,
    semi_goal: bool,
    work_done: &mut u64,
) -> Option<Derivation> {
    let board = position.board();
    let empty = position.empty_cells() & area;
    if empty.len() > 128 {
        return None;
    }
    // Endpoints: the owner's groups (borders included), then the area's empty cells.
    let Endpoints {
        reps,
        loc,
        coloured,
        ep_of,
        cells,
    } = endpoints(position, owner, empty);
    let [b1, b2] = owner.borders().map(Cell::border);
    let (g1, g2) = (ep_of[b1.index()], ep_of[b2.index()]);
    let bits = |s: CellSet| -> u128 {
        cells
            .iter()
            .enumerate()
            .filter(|(_, c)| s.contains(**c))
            .fold(0u128, |a, (i, _)| a | (1u128 << i))
    };
    if g1 == g2 {
        if semi_goal {
            return None;
        }
        return Some(Derivation {
            facts: vec![ExplainedFact {
                x: b1,
                y: b2,
                carrier: CellSet::EMPTY,
                semi: false,
                why: Why::Base,
            }],
        });
    }
    let n = reps.len();
    let templates = limits.seed_list();
    let mut s = Search {
        limits,
        reps,
        loc,
        coloured,
        lists: vec![Lists::default(); n * n],
        vc_nbrs: vec![Vec::new(); n],
        arena: Vec::new(),
        scratch: Vec::new(),
        or_scratch: Vec::new(),
        chosen: Vec::new(),
        queue: Default::default(),
        goal: (g1.min(g2), g1.max(g2)),
        semi_goal,
        work: 0,
        names: templates,
    };
    // Base facts: adjacent endpoints.
    let mut found = None;
    for &c in &cells {
        let x = ep_of[c.index()];
        for m in board.neighbours(c).iter() {
            let y = ep_of[m.index()];
            if y == u16::MAX || (!s.coloured[y as usize] && y < x) {
                continue;
            }
            if let Some(g) = s.add_full(x, y, 0, RecWhy::Base) {
                if s.is_goal(x, y) {
                    found = Some(g);
                }
            }
        }
    }
    // Edge templates that fit.
    if let Some(g) = seed_templates(&mut s, position, owner, empty, &ep_of, &bits) {
        found = Some(g);
    }
    // The AND rule over each new VC (through both its ends), the OR rule after each new VSC.
    while found.is_none() {
        let Some(id) = s.queue.pop_front() else {
            break;
        };
        let (x, y) = (s.arena[id].x, s.arena[id].y);
        let p = s.pair(x, y);
        if !p.fulls.iter().any(|&(_, i)| i == id) {
            continue; // replaced by a smaller carrier since
        }
        found = s.and_from(id, x, y).or_else(|| s.and_from(id, y, x));
        *work_done = s.work;
        if s.work > s.limits.work {
            return None;
        }
    }
    let goal = found?;
    Some(extract(&s, goal, &cells))
}

/// The endpoints of an explanation ([`endpoints`]).
struct Endpoints {
    /// A cell of each endpoint: the owner's groups (borders first), then the empty cells.
    reps: Vec<Cell>,
    /// An empty endpoint's index in `cells`.
    loc: Vec<Option<u32>>,
    /// Whether the endpoint is a group of the owner's.
    coloured: Vec<bool>,
    /// The endpoint of each cell (`u16::MAX`: none).
    ep_of: Vec<u16>,
    /// The empty cells of the area.
    cells: Vec<Cell>,
}

/// The owner's groups (borders included), then the area's `empty` cells, as endpoints.
fn endpoints(position: &Position, owner: Colour, empty: CellSet) -> Endpoints {
    let owned = position.owned(owner);
    let mut reps: Vec<Cell> = Vec::new();
    let mut loc: Vec<Option<u32>> = Vec::new();
    let mut coloured: Vec<bool> = Vec::new();
    let mut ep_of = vec![u16::MAX; Cell::border(Border::Right).index() + 1];
    let [b1, b2] = owner.borders().map(Cell::border);
    let mut left = owned;
    while let Some(c) = [b1, b2]
        .into_iter()
        .find(|b| left.contains(*b))
        .or_else(|| left.first())
    {
        let comp = position.component(c, &owned);
        left -= comp;
        let id = reps.len() as u16;
        for m in comp.iter() {
            ep_of[m.index()] = id;
        }
        reps.push(c);
        loc.push(None);
        coloured.push(true);
    }
    let cells: Vec<Cell> = empty.iter().collect();
    for (i, &c) in cells.iter().enumerate() {
        ep_of[c.index()] = reps.len() as u16;
        reps.push(c);
        loc.push(Some(i as u32));
        coloured.push(false);
    }
    Endpoints {
        reps,
        loc,
        coloured,
        ep_of,
        cells,
    }
}

/// Adds the edge templates that fit as facts: no opponent stone on them, their empty cells in
/// the area; the anchor is an endpoint (a stone of the owner or an empty cell of the area).
/// Returns the goal's fact if a template joins it.
fn seed_templates(
    s: &mut Search,
    position: &Position,
    owner: Colour,
    empty: CellSet,
    ep_of: &[u16],
    bits: &dyn Fn(CellSet) -> u128,
) -> Option<usize> {
    let board = position.board();
    let mut found = None;
    let opp = position.stones(owner.opponent());
    let own = position.stones(owner);
    for &(t, inst) in placements(board, owner, s.limits.seed_list()).iter() {
        if !inst.helpers.is_subset(&own) {
            continue;
        }
        {
            if opp.contains(inst.anchor) || !inst.carrier.is_disjoint(&opp) {
                continue;
            }
            // A template whose carrier holds own stones is left out (kept simple).
            if !inst.carrier.is_subset(&empty) {
                continue;
            }
            // The lemma's goal stone must land on a stone of the owner (a template from an
            // empty cell is not a lemma use; II and III1a from an empty cell are derived).
            if position.colour_at(inst.anchor) != Some(owner) {
                continue;
            }
            let x = ep_of[inst.anchor.index()];
            let y = ep_of[Cell::border(inst.border).index()];
            if x == u16::MAX || x == y {
                continue;
            }
            if let Some(g) = s.add_full(x, y, bits(inst.carrier), RecWhy::Template(t)) {
                if s.is_goal(x, y) {
                    found = Some(g);
                }
            }
        }
    }
    found
}

/// The facts `goal` needs, premises first, with carriers as cell sets.
fn extract(s: &Search, goal: usize, cells: &[Cell]) -> Derivation {
    let mut order: Vec<usize> = Vec::new();
    let mut index = std::collections::HashMap::new();
    // Iterative post-order.
    let mut stack = vec![(goal, false)];
    while let Some((id, done)) = stack.pop() {
        if index.contains_key(&id) {
            continue;
        }
        if done {
            index.insert(id, order.len());
            order.push(id);
            continue;
        }
        stack.push((id, true));
        match &s.arena[id].why {
            RecWhy::And(a, b, _) => {
                stack.push((*b, false));
                stack.push((*a, false));
            }
            RecWhy::Or(v) => {
                for &a in v.iter().rev() {
                    stack.push((a, false));
                }
            }
            _ => {}
        }
    }
    let set = |c: u128| -> CellSet {
        cells
            .iter()
            .enumerate()
            .filter(|(i, _)| c & (1u128 << i) != 0)
            .map(|(_, c)| *c)
            .collect()
    };
    let facts = order
        .iter()
        .map(|&id| {
            let r = &s.arena[id];
            ExplainedFact {
                x: s.reps[r.x as usize],
                y: s.reps[r.y as usize],
                carrier: set(r.carrier),
                semi: r.semi,
                why: match &r.why {
                    RecWhy::Base => Why::Base,
                    RecWhy::Template(t) => {
                        Why::Template(s.names[*t].name.trim_end_matches('\'').to_string())
                    }
                    RecWhy::And(a, b, u) => Why::And(index[a], index[b], s.reps[*u as usize]),
                    RecWhy::Or(v) => Why::Or(v.iter().map(|a| index[a]).collect()),
                },
            }
        })
        .collect();
    Derivation { facts }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};

    fn pos(size: u32, black: &[&str], white: &[&str]) -> Position {
        let b = Board::square(size).unwrap();
        let mut p = Position::empty(b);
        for (cs, col) in [(black, Colour::Black), (white, Colour::White)] {
            for c in cs {
                p.play(col, b.parse_cell(c, Notation::Letters).unwrap())
                    .unwrap();
            }
        }
        p
    }

    /// Replays the derivation with the rules' side conditions (a miniature of the checker).
    fn replay(p: &Position, d: &Derivation) {
        for f in &d.facts {
            match &f.why {
                Why::Base => {
                    let own = p.owned(Colour::Black)
                        | [f.x, f.y]
                            .into_iter()
                            .filter(|c| p.colour_at(*c).is_none())
                            .collect();
                    assert!(p.component(f.x, &own).contains(f.y));
                }
                Why::And(a, b, u) => {
                    let (a, b) = (&d.facts[*a], &d.facts[*b]);
                    assert!(!a.semi && !b.semi);
                    assert!(a.carrier.is_disjoint(&b.carrier));
                    assert!([a.x, a.y].contains(u) && [b.x, b.y].contains(u));
                    let mut c = a.carrier | b.carrier;
                    if p.colour_at(*u).is_none() {
                        c.insert(*u);
                    }
                    assert_eq!(c, f.carrier);
                    assert_eq!(f.semi, p.colour_at(*u).is_none());
                }
                Why::Or(v) => {
                    let inter = v.iter().fold(f.carrier, |a, &i| a & d.facts[i].carrier);
                    assert!(inter.is_empty());
                    let union = v
                        .iter()
                        .fold(CellSet::EMPTY, |a, &i| a | d.facts[i].carrier);
                    assert_eq!(union, f.carrier);
                }
                Why::Template(_) => {}
            }
        }
    }

    #[test]
    fn a_bridge_to_both_edges_on_3x3() {
        let p = pos(3, &["b2"], &[]);
        let d = explain_win(&p, Colour::Black, p.empty_cells(), ExplainLimits::default())
            .expect("b2 wins 3x3");
        replay(&p, &d);
        let g = d.facts.last().unwrap();
        assert!(!g.semi);
        assert!(g.carrier.len() <= 4);
    }

    #[test]
    fn no_win_for_a_blocked_owner() {
        let p = pos(3, &["b2"], &["a3", "b3", "c3"]);
        assert!(
            explain_win(&p, Colour::Black, p.empty_cells(), ExplainLimits::default()).is_none()
        );
    }

    #[test]
    fn a_key_comes_with_the_vc_its_stone_gives() {
        // Empty 3x3: Black has no VC (White moving first wins) but a VSC; its key u and the
        // derivation replay in the position with a Black stone on u, ending in a VC.
        let p = pos(3, &[], &[]);
        let l = ExplainLimits::default();
        assert!(explain_win(&p, Colour::Black, p.empty_cells(), l).is_none());
        let (u, d) = explain_key_vc(&p, Colour::Black, p.empty_cells(), l).expect("a VSC");
        let mut pu = p.clone();
        pu.play(Colour::Black, u).unwrap();
        replay(&pu, &d);
        let g = d.facts.last().unwrap();
        assert!(!g.semi && !g.carrier.contains(u));
        assert!(matches!(g.why, Why::And(_, _, m) if m == u));
    }

    #[test]
    fn the_area_restricts_the_carrier() {
        let p = pos(4, &["b2", "c3"], &[]);
        let d = explain_win(&p, Colour::Black, p.empty_cells(), ExplainLimits::default()).unwrap();
        replay(&p, &d);
        let area = d.carrier();
        let d2 = explain_win(&p, Colour::Black, area, ExplainLimits::default()).unwrap();
        assert!(d2.carrier().is_subset(&area));
    }
}
