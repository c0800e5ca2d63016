//! Rule 9 of the exact search: the VC engine as an oracle of known sub-connections.
//!
//! At an opponent-to-move node with many empty cells the search asks the connection engine
//! ([`crate::vc`], FastVC Search of Pawlewicz, Hayward, Henderson & Arneson, *Stronger Virtual
//! Connections in Hex*, IEEE TCIAIG 2015, built on Anshelevich's AND/OR rules, *A hierarchical
//! approach to computer Hex*, AI 134 (2002) §2–§3) for the owner's connections between the
//! ends of each goal pair, in the position where the owner holds the node's stones and
//! **every cell outside the remaining carrier belongs to the opponent** (empty endpoints stay
//! the owner's), so that every connection found lives inside the remaining carrier:
//!
//! - a **VC** with carrier C: the owner wins the node whatever the opponent does, with proof
//!   set C;
//! - **VSCs** (semi-connections) S_1 … S_k, keys included: an opponent move outside S_i is
//!   answered by S_i's key and S_i is then a VC, so the opponent's candidates shrink to
//!   the *mustplay* ⋂ S_i (Hayward et al.'s mustplay; Pawlewicz et al. §II-B, Fig. 2;
//!   Henderson, Arneson & Hayward 2009 §2), and the proof set of the node grows by ⋃ S_i.
//!
//! Only the semis that shrink the mustplay join a node's proof set (greedily, the one that
//! removes most candidates first): a smaller proof set prunes more above it (Henderson et al.
//! 2009 §4). The engine has a connection budget and no wall-clock limit, so its answers do not
//! depend on the machine's load. Because the engine's fat carriers can also cost the search
//! (measured on IV1c: 10.2 M nodes with it, 3.8 M without), `search::decide_with` gives the
//! search with the oracle [`OracleParams::first_nodes`] nodes and then restarts without it.
//!
//! The engine's connections are sound (its deduction rules are), but the kernel never trusts
//! them: when a certificate is extracted, each connection used is proved again by its own,
//! smaller exact search on its carrier (`search::Builder`), whose certificate is spliced in
//! and re-checked by the kernel with the rest. If that sub-search fails within the budget
//! the verdict is "undecided", never "holds". Recursion ends because a connection is only
//! used when its carrier is strictly smaller than the sub-game's carrier, and every node
//! below the root of a sub-game has fewer empty cells than that carrier.

use super::cells::{Local, Set};
use crate::board::{Cell, CellSet, Colour};
use crate::claim::SubGame;
use crate::position::Position;
use crate::vc::{Variant, VcBudget, VcParams, VcSet};
use hashbrown::HashMap;

/// When the oracle is consulted: at nodes with at least `min_empty` empty carrier cells, or
/// within the first `top_plies` moves of the sub-game (at least `n − top_plies + 1` empty
/// cells of its `n`). An engine build costs milliseconds on large carriers, so it pays near
/// the root, where one connection saves a large sub-tree, and not deep down, where the
/// search's own bridges and templates (rule 6) are cheaper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OracleParams {
    /// Consult at nodes with at least this many empty cells (`None`: no such rule).
    pub min_empty: Option<u32>,
    /// Consult within this many moves of the root (0: no such rule).
    pub top_plies: u32,
    /// Only for sub-games of at least this many cells (smaller ones never consult it).
    pub min_carrier: u32,
    /// Whether a semi-connection wins an owner-to-move node (otherwise only a VC does there,
    /// and the search finds the owner's move itself).
    pub owner_semis: bool,
    /// Whether opponent-to-move nodes still search the pass move (rule 3) after the
    /// engine's mustplay (its key move then becomes the opponent's first candidate).
    pub pass_too: bool,
    /// Search nodes with the oracle before `search::decide_with` restarts without it
    /// (`u64::MAX`: never).
    pub first_nodes: u64,
    /// The HexWiki one-stone edge templates the engine is seeded with (both mirror images;
    /// Henderson, Arneson & Hayward 2009 §3: templates as precomputed VCs). Larger seeds let
    /// the engine see 5th- and 6th-row structure (a V1a behind an intrusion) that the default
    /// II–IV1b cannot; the search never trusts them (see the module docs).
    pub seeds: &'static [&'static str],
    /// [`OracleParams::min_carrier`] inside the sub-searches that prove the engine's
    /// connections for a certificate (`search::Builder`): the engine derived such a
    /// connection from smaller ones, and the sub-search re-derives it fastest with the engine
    /// on, however small its carrier (measured on V1b: a 31-cell VC found by the engine was
    /// undecided after 50 k nodes with the engine off there).
    pub sub_min_carrier: u32,
    /// Rule 11 of the search (not the oracle's, but set with it): in the exact round, at
    /// nodes within this many moves of the sub-game's root, children are searched with node
    /// budgets that double every round (`Solver::budgeted`); 0 switches it off.
    pub widen_plies: u32,
    /// Rule 11's first per-child node budget.
    pub widen_first: u64,
    /// Rule 11 skips the first this many plies (the root and, say, the hard intrusion under
    /// it stay depth-first): it applies from ply `widen_skip` to ply `widen_plies − 1`.
    pub widen_skip: u32,
    /// Whether rule 11 also budgets the opponent's intrusions (otherwise only the owner's
    /// replies).
    pub widen_opp: bool,
}

impl Default for OracleParams {
    fn default() -> Self {
        OracleParams {
            min_empty: None,
            top_plies: DEFAULT_TOP_PLIES,
            min_carrier: DEFAULT_MIN_CARRIER,
            owner_semis: true,
            pass_too: false,
            first_nodes: DEFAULT_FIRST_NODES,
            seeds: &DEFAULT_SEEDS,
            sub_min_carrier: DEFAULT_SUB_MIN_CARRIER,
            widen_plies: DEFAULT_WIDEN_PLIES,
            widen_first: DEFAULT_WIDEN_FIRST,
            widen_opp: true,
            widen_skip: 0,
        }
    }
}

impl OracleParams {
    /// Never consult the engine.
    pub const OFF: OracleParams = OracleParams {
        min_empty: None,
        top_plies: 0,
        min_carrier: u32::MAX,
        owner_semis: false,
        pass_too: false,
        first_nodes: u64::MAX,
        seeds: &DEFAULT_SEEDS,
        sub_min_carrier: u32::MAX,
        widen_plies: DEFAULT_WIDEN_PLIES,
        widen_first: DEFAULT_WIDEN_FIRST,
        widen_opp: true,
        widen_skip: 0,
    };

    /// Consult it at every node of every sub-game (for tests).
    pub const EVERYWHERE: OracleParams = OracleParams {
        min_empty: Some(0),
        top_plies: 0,
        min_carrier: 0,
        owner_semis: true,
        pass_too: false,
        first_nodes: u64::MAX,
        seeds: &DEFAULT_SEEDS,
        sub_min_carrier: 0,
        widen_plies: DEFAULT_WIDEN_PLIES,
        widen_first: DEFAULT_WIDEN_FIRST,
        widen_opp: true,
        widen_skip: 0,
    };
}

/// The engine's default seeds ([`crate::vc::seed::DEFAULT_SEED_NAMES`]).
pub const DEFAULT_SEEDS: [&str; 5] = crate::vc::seed::DEFAULT_SEED_NAMES;

/// The default seeds plus IV1d and V1a, the 5th- and 6th-row known sub-connections of rule 6.
pub const LARGE_SEEDS: [&str; 7] = ["II", "III1a", "III1b", "IV1a", "IV1b", "IV1d", "V1a"];

/// Seed templates by name list, parsed once per list.
fn seeds_for(names: &'static [&'static str]) -> Vec<crate::vc::seed::SeedTemplate> {
    use std::sync::{Mutex, OnceLock};
    type Cache = Mutex<Vec<(&'static [&'static str], Vec<crate::vc::seed::SeedTemplate>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    static ALL: OnceLock<Vec<crate::edge_template::EdgeTemplate>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, v)) = c.iter().find(|(k, _)| *k == names) {
        return v.clone();
    }
    let all = ALL.get_or_init(|| {
        crate::edge_template::EdgeTemplate::parse_list(include_str!(
            "../../tests/fixtures/edge-templates-hexwiki.json"
        ))
        .unwrap_or_default()
    });
    let v = crate::vc::seed::seeds_from(all, names);
    c.push((names, v.clone()));
    v
}

/// The default of [`OracleParams::top_plies`] (measured: BENCHMARKS.md, "Exact local
/// search").
pub const DEFAULT_TOP_PLIES: u32 = 4;

/// The default of [`OracleParams::first_nodes`] (V1a needs 0.5 k with rule 9; IV1c needs
/// 3.8 M without it and over 10 M with it).
pub const DEFAULT_FIRST_NODES: u64 = 200_000;

/// The default of [`OracleParams::sub_min_carrier`].
pub const DEFAULT_SUB_MIN_CARRIER: u32 = 0;

/// The default of [`OracleParams::widen_plies`]: off. Measured (BENCHMARKS.md, "Exact local
/// search", rule 11): at 6 plies it costs the decided templates 1.2–11× their nodes (IV1d
/// 128 k → 1.47 M, V1a 457 → 3.9 k, IV2n 5.4 k → 74 k), and on the hard sub-games of VI2a it
/// helps only at some settings (one 34-cell sub-game: 1.05 M nodes at 3 plies, undecided at
/// 3 M with 1 or 5).
pub const DEFAULT_WIDEN_PLIES: u32 = 0;

/// The default of [`OracleParams::widen_first`].
pub const DEFAULT_WIDEN_FIRST: u64 = 256;

/// The default of [`OracleParams::min_carrier`].
pub const DEFAULT_MIN_CARRIER: u32 = 32;

/// What the engine found at one node (local cell sets).
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// A VC carrier joining a goal pair, if any (the smallest).
    pub vc: Option<Set>,
    /// VSC carriers (keys included) joining a goal pair.
    pub semis: Vec<Set>,
    /// Their intersection (meaningful when `semis` is not empty).
    pub must: Set,
    /// Their union.
    pub union: Set,
}

/// The oracle of one sub-game.
pub struct Oracle {
    vs: VcSet,
    base: Position,
    owner: Colour,
    pairs: Vec<(Cell, Cell)>,
    min_empty: u32,
    /// [`OracleParams::owner_semis`].
    pub owner_semis: bool,
    /// [`OracleParams::pass_too`].
    pub pass_too: bool,
    cache: HashMap<(Set, Set), Option<Answer>>,
    /// Nodes where a semi-connection on the whole carrier was dropped.
    full_semi: hashbrown::HashSet<(Set, Set)>,
    /// Engine builds done.
    pub calls: u64,
}

impl Oracle {
    /// The oracle of `game` (`None` when switched off).
    pub fn new(game: &SubGame, params: &OracleParams) -> Option<Oracle> {
        let n = game.carrier().len() as u32;
        if n < params.min_carrier {
            return None;
        }
        let by_plies = if params.top_plies > 0 {
            (n + 1).saturating_sub(params.top_plies)
        } else {
            u32::MAX
        };
        let min_empty = params.min_empty.unwrap_or(u32::MAX).min(by_plies);
        if min_empty == u32::MAX {
            return None;
        }
        let owner = game.claim().owner;
        let endpoints = game.claim().endpoints();
        let mut base = game.position().clone();
        let carrier = game.carrier();
        for c in game.position().empty_cells().iter() {
            if carrier.contains(c) {
                continue;
            }
            let colour = if endpoints.contains(c) {
                owner
            } else {
                owner.opponent()
            };
            base.play(colour, c).ok()?;
        }
        let mut vp = VcParams::new(Variant::Fast).classic();
        vp.seeds = seeds_for(params.seeds);
        // A connection budget, no wall-clock limit: the answer (and so the search) must not
        // depend on the machine's load.
        vp.budget = VcBudget {
            max_connections: 400_000,
            time: None,
        };
        Some(Oracle {
            vs: VcSet::new(owner, vp),
            base,
            owner,
            pairs: game.claim().pairs.clone(),
            min_empty,
            owner_semis: params.owner_semis,
            pass_too: params.pass_too,
            cache: HashMap::new(),
            full_semi: hashbrown::HashSet::new(),
            calls: 0,
        })
    }

    /// The engine's answer at the node (owner cells `b`, opponent cells `w`, empty `e`), or
    /// `None` when the node is too small or the engine found nothing usable. Connections
    /// whose carrier is the whole sub-game carrier are dropped (see the module docs).
    pub fn at(&mut self, g: &Local, b: Set, w: Set, e: Set) -> Option<Answer> {
        if e.count_ones() < self.min_empty {
            return None;
        }
        if let Some(a) = self.cache.get(&(b, w)) {
            return a.clone();
        }
        self.calls += 1;
        let mut pos = self.base.clone();
        let ok = super::cells::bits(b).all(|i| pos.play(self.owner, g.cells[i]).is_ok())
            && super::cells::bits(w).all(|i| pos.play(self.owner.opponent(), g.cells[i]).is_ok());
        let mut full_semi = false;
        let answer = if ok {
            self.vs.rebuild(&pos);
            let mut ans = Answer {
                must: e,
                ..Answer::default()
            };
            let full = g.n as u32;
            for &(x, y) in &self.pairs {
                for c in self.vs.vcs(x, y) {
                    let Some(s) = local_set(g, &c) else { continue };
                    if s & !e == 0
                        && s.count_ones() < full
                        && ans.vc.is_none_or(|v| v.count_ones() > s.count_ones())
                    {
                        ans.vc = Some(s);
                    }
                }
                for c in self.vs.vscs(x, y) {
                    let Some(s) = local_set(g, &c) else { continue };
                    if s & !e == 0 && s.count_ones() < full {
                        ans.must &= s;
                        ans.union |= s;
                        ans.semis.push(s);
                    } else if s & !e == 0 {
                        full_semi = true;
                    }
                }
            }
            (ans.vc.is_some() || !ans.semis.is_empty()).then_some(ans)
        } else {
            None
        };
        self.cache.insert((b, w), answer.clone());
        if full_semi {
            self.full_semi.insert((b, w));
        }
        answer
    }

    /// Whether [`Oracle::at`] found, at (b, w), a semi-connection whose carrier is the whole
    /// sub-game carrier (dropped from its answer: see the module docs). The engine then
    /// knows a winning first move that the search must find by itself; rule 10 of
    /// [`super::minimax`] looks for it with the engine.
    pub fn full_semi_at(&self, b: Set, w: Set) -> bool {
        self.full_semi.contains(&(b, w))
    }
}

/// The local set of a carrier, or `None` if a cell lies outside the sub-game's carrier.
fn local_set(g: &Local, c: &CellSet) -> Option<Set> {
    let mut s = 0;
    for cell in c.iter() {
        s |= 1 << g.cells.iter().position(|&x| x == cell)?;
    }
    Some(s)
}
