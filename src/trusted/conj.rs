//! Conjunctions `x - b & y - b`: the owner joins *every* pair against one opponent (Noshita
//! 2005, end of §3, the "AND-lemma" of the one-node 7×7 proof; docs/SEMANTICS.md,
//! "Conjunctions").
//!
//! The sub-game is the one of [`crate::claim`] (a position, a carrier S of empty cells, play
//! alternating inside S, the opponent first unless the claim is a semi) with another goal: the
//! owner wins when S is filled and **all** pairs are joined; the opponent wins as soon as one
//! pair can no longer be joined (its ends are separated even if the owner took every cell of
//! S still empty). Joined pairs stay joined, so a pair, once joined, may be forgotten.
//!
//! [`decide_conj`] decides it exactly by a small minimax over the carrier (cells as bits of a
//! `u128`, a transposition table over (owner cells, opponent cells)). As soon as at most one
//! pair is still unjoined the rest of the game *is* a one-pair connection game, which is handed
//! to the exact search [`crate::local::decide`] (kernel-checked certificate) on the remaining
//! empty cells, with the stones played so far. So the only part of a "holds" not covered by a
//! kernel certificate is this minimax over the first moves, whose code is below.

use crate::board::{CellSet, Colour};
use crate::claim::{Claim, ClaimError, SubGame};
use crate::local::cells::{bits, Local, Set};
use crate::local::{decide, Budget, Move, Verdict};
use crate::position::Position;
use std::collections::HashMap;
use std::time::Instant;

/// The answer of [`decide_conj`].
#[derive(Clone, Debug)]
pub struct ConjOutcome {
    /// Holds (every pair joined against every defence), fails, or undecided (budget).
    pub verdict: Verdict,
    /// Minimax nodes plus the nodes of the one-pair searches.
    pub nodes: u64,
    /// Wall time.
    pub micros: u128,
    /// When it fails: a line of play (from the first mover) after which some pair is cut.
    pub refutation: Vec<Move>,
    /// One-pair searches handed to [`decide`] (each kernel-checked when it holds).
    pub delegated: u64,
    /// The evidence when it holds (only this game makes one).
    pub won: Option<crate::trusted::GameWon>,
}

/// Node budget of each probing one-pair search (the loss test and the disjoint split); a
/// probe over budget only means "no shortcut here".
const PROBE_NODES: u64 = 4_000;

struct Game<'a> {
    local: Local,
    position: &'a Position,
    owner: Colour,
    /// The claim's empty (non-border) endpoints, outside the carrier.
    empty_ends: Vec<crate::board::Cell>,
    /// Pairs as local group indices.
    pairs: Vec<(u8, u8)>,
    tt: HashMap<(Set, Set, bool), bool>,
    nodes: u64,
    delegated: u64,
    budget: Budget,
    start: Instant,
    out_of_budget: bool,
}

impl Game<'_> {
    fn joined(&self, k: usize, mask: Set) -> bool {
        let (a, b) = self.pairs[k];
        a == b || self.local.reach(a, mask).1 >> b & 1 == 1
    }

    fn over_budget(&mut self) -> bool {
        if self.nodes >= self.budget.nodes
            || self.budget.time.is_some_and(|t| self.start.elapsed() >= t)
        {
            self.out_of_budget = true;
        }
        self.out_of_budget
    }

    /// The one-pair sub-game after the stones `b` (owner) and `w` (opponent) are played,
    /// with the opponent moving first, on the local cells `carrier`: `Some(proof set)` when
    /// it holds (kernel-checked), `None` otherwise (fails or over budget).
    fn vc_on(&mut self, k: usize, b: Set, w: Set, carrier: Set) -> Option<Set> {
        let mut pos = self.position.clone();
        // Every empty endpoint of the conjunction counts as the owner's (claim.rs): as a
        // stone here, since the one-pair claim alone would count only its own.
        for &c in &self.empty_ends {
            pos.play(self.owner, c).ok()?;
        }
        for i in bits(b) {
            pos.play(self.owner, self.local.cells[i]).ok()?;
        }
        for i in bits(w) {
            pos.play(self.owner.opponent(), self.local.cells[i]).ok()?;
        }
        let claim = Claim {
            owner: self.owner,
            pairs: vec![self.local.pair_cells[k]],
            owner_first: false,
        };
        let game = SubGame::new(pos, self.local.to_cells(carrier), claim).ok()?;
        let mut budget = self.budget;
        budget.nodes = (self.budget.nodes.saturating_sub(self.nodes) / 4).clamp(1, PROBE_NODES);
        if let Some(t) = budget.time {
            budget.time = Some(t.saturating_sub(self.start.elapsed()));
        }
        let o = decide(&game, &budget).ok()?;
        self.nodes += o.stats.nodes;
        self.delegated += 1;
        (o.verdict == Verdict::Holds).then(|| self.local.from_cells(&o.proof_set))
    }

    /// A sufficient condition for a win with the opponent to move (never used to declare a
    /// loss): the open pairs hold as VCs on pairwise disjoint carriers inside the empty
    /// cells, found greedily (each pair on what the earlier ones' proof sets leave; each proof
    /// set re-checked as a carrier of its own). Sound by the AND argument: the owner answers
    /// every move in the carrier it falls in, by that pair's strategy.
    fn split_win(&mut self, b: Set, w: Set, open: &[usize]) -> bool {
        if open.len() < 2 || open.len() > 3 {
            return false;
        }
        let empty = self.local.all & !b & !w;
        let orders: Vec<Vec<usize>> = if open.len() == 2 {
            vec![vec![open[0], open[1]], vec![open[1], open[0]]]
        } else {
            vec![open.to_vec()]
        };
        'order: for order in orders {
            let mut used: Set = 0;
            for (j, &k) in order.iter().enumerate() {
                let last = j + 1 == order.len();
                let Some(ps) = self.vc_on(k, b, w, empty & !used) else {
                    continue 'order;
                };
                if !last && ps != empty & !used && self.vc_on(k, b, w, ps).is_none() {
                    continue 'order;
                }
                used |= ps;
            }
            return true;
        }
        false
    }

    /// The one-pair sub-game after the stones `b` (owner) and `w` (opponent) are played.
    /// `None` when undecided (and then, if `authority`, the whole search is over budget).
    fn one_pair_by(
        &mut self,
        k: usize,
        b: Set,
        w: Set,
        owner_to_move: bool,
        authority: bool,
    ) -> Option<bool> {
        let mut pos = self.position.clone();
        // Every empty endpoint of the conjunction counts as the owner's (claim.rs): as a
        // stone here, since the one-pair claim alone would count only its own.
        for &c in &self.empty_ends {
            pos.play(self.owner, c).ok()?;
        }
        for i in bits(b) {
            pos.play(self.owner, self.local.cells[i]).ok()?;
        }
        for i in bits(w) {
            pos.play(self.owner.opponent(), self.local.cells[i]).ok()?;
        }
        let empty = self.local.to_cells(self.local.all & !b & !w);
        let claim = Claim {
            owner: self.owner,
            pairs: vec![self.local.pair_cells[k]],
            owner_first: owner_to_move,
        };
        let game = SubGame::new(pos, empty, claim).ok()?;
        let mut budget = self.budget;
        budget.nodes = self.budget.nodes.saturating_sub(self.nodes).max(1);
        if !authority {
            budget.nodes = (budget.nodes / 4).clamp(1, PROBE_NODES);
        }
        if let Some(t) = budget.time {
            budget.time = Some(t.saturating_sub(self.start.elapsed()));
        }
        let o = decide(&game, &budget).ok()?;
        self.nodes += o.stats.nodes;
        self.delegated += 1;
        match o.verdict {
            Verdict::Holds => Some(true),
            Verdict::Fails => Some(false),
            Verdict::Undecided => {
                self.out_of_budget |= authority;
                None
            }
        }
    }

    /// The one-pair game decides the rest (the only open pair).
    fn one_pair(&mut self, k: usize, b: Set, w: Set, owner_to_move: bool) -> Option<bool> {
        self.one_pair_by(k, b, w, owner_to_move, true)
    }

    /// Does the owner win from (b, w) with `owner_to_move`? `None`: out of budget.
    fn solve(&mut self, b: Set, w: Set, owner_to_move: bool) -> Option<bool> {
        let free = self.local.all & !w;
        // Cut pairs lose; joined pairs are done.
        let mut open = Vec::with_capacity(self.pairs.len());
        for k in 0..self.pairs.len() {
            if !self.joined(k, free) {
                return Some(false);
            }
            if !self.joined(k, b) {
                // Pairs whose ends lie in the same owner chains as an open pair's are the
                // same goal: keep one.
                let (a, z) = self.pairs[k];
                let ends = (self.local.reach(a, b).1, self.local.reach(z, b).1);
                let same = open.iter().any(|&(_, e): &(usize, (u64, u64))| {
                    e == ends || (e.0, e.1) == (ends.1, ends.0)
                });
                if !same {
                    open.push((k, ends));
                }
            }
        }
        let open: Vec<usize> = open.into_iter().map(|o| o.0).collect();
        match open.len() {
            0 => return Some(true),
            1 => {
                let key = (b, w, owner_to_move);
                if let Some(&r) = self.tt.get(&key) {
                    return Some(r);
                }
                let r = self.one_pair(open[0], b, w, owner_to_move)?;
                self.tt.insert(key, r);
                return Some(r);
            }
            _ => {}
        }
        let key = (b, w, owner_to_move);
        if let Some(&r) = self.tt.get(&key) {
            return Some(r);
        }
        self.nodes += 1;
        if self.over_budget() {
            return None;
        }
        let empty = self.local.all & !b & !w;
        if empty == 0 {
            // Every pair is decided once the carrier is full (joined or cut).
            return Some(false);
        }
        // Exact loss test: the conjunction needs every open pair, so if the opponent wins the
        // one-pair game of some open pair (same mover, same empty cells), the owner loses.
        for &k in &open {
            if self.one_pair_by(k, b, w, owner_to_move, false) == Some(false) {
                self.tt.insert(key, false);
                return Some(false);
            }
        }
        if !owner_to_move && self.split_win(b, w, &open) {
            self.tt.insert(key, true);
            return Some(true);
        }
        let mut order: Vec<usize> = bits(empty).collect();
        if owner_to_move {
            // Moves that touch, or make a bridge to, more groups first (they join pairs).
            order.sort_by_key(|&i| {
                let touched = self.local.cell_groups[i];
                let mut score = touched.count_ones() + (self.local.adj[i] & b).count_ones();
                for (g, &ga) in self.local.group_adj.iter().enumerate() {
                    if touched >> g & 1 == 0 && (self.local.adj[i] & ga & empty).count_ones() >= 2 {
                        score += 1;
                    }
                }
                std::cmp::Reverse(score)
            });
        }
        let mut result = !owner_to_move;
        for i in order {
            let r = if owner_to_move {
                self.solve(b | 1 << i, w, false)?
            } else {
                self.solve(b, w | 1 << i, true)?
            };
            if r == owner_to_move {
                result = r;
                break;
            }
        }
        self.tt.insert(key, result);
        Some(result)
    }

    /// A line of play from a lost position (for the owner): the opponent's winning moves and
    /// the owner's first tries, until a pair is cut or one pair is left (children are solved
    /// again where the loss came from a probe; the table makes that cheap).
    fn refutation(&mut self, mut b: Set, mut w: Set, mut owner_to_move: bool) -> Vec<Move> {
        let mut line = Vec::new();
        for _ in 0..self.local.n {
            let free = self.local.all & !w;
            let cut = (0..self.pairs.len()).any(|k| !self.joined(k, free));
            let open = (0..self.pairs.len())
                .filter(|&k| !self.joined(k, b))
                .count();
            if cut || open <= 1 {
                break;
            }
            let empty = self.local.all & !b & !w;
            let next = bits(empty).find(|&i| {
                let r = if owner_to_move {
                    self.solve(b | 1 << i, w, false)
                } else {
                    self.solve(b, w | 1 << i, true)
                };
                r == Some(false)
            });
            let Some(i) = next else { break };
            let colour = if owner_to_move {
                self.owner
            } else {
                self.owner.opponent()
            };
            line.push(Move {
                colour,
                cell: self.local.cells[i],
            });
            if owner_to_move {
                b |= 1 << i;
            } else {
                w |= 1 << i;
            }
            owner_to_move = !owner_to_move;
        }
        line
    }
}

/// Decides the conjunction of `claim`'s pairs (see the module docs) on `carrier` in
/// `position`, within `budget`. The side conditions are those of [`SubGame::new`].
pub fn decide_conj(
    position: &Position,
    carrier: CellSet,
    claim: &Claim,
    budget: &Budget,
) -> Result<ConjOutcome, ClaimError> {
    let start = Instant::now();
    let game = SubGame::new(position.clone(), carrier, claim.clone())?;
    let local = Local::new(&game)?;
    let pairs = local.pairs.clone();
    let mut g = Game {
        local,
        position,
        owner: claim.owner,
        empty_ends: claim
            .endpoints()
            .iter()
            .filter(|c| !c.is_border() && position.colour_at(*c).is_none())
            .collect(),
        pairs,
        tt: HashMap::new(),
        nodes: 0,
        delegated: 0,
        budget: *budget,
        start,
        out_of_budget: false,
    };
    let owner_first = claim.owner_first;
    let r = g.solve(0, 0, owner_first);
    let verdict = match r {
        Some(true) => Verdict::Holds,
        Some(false) => Verdict::Fails,
        None => Verdict::Undecided,
    };
    let refutation = if verdict == Verdict::Fails {
        g.refutation(0, 0, owner_first)
    } else {
        Vec::new()
    };
    Ok(ConjOutcome {
        verdict,
        nodes: g.nodes,
        micros: start.elapsed().as_micros(),
        refutation,
        delegated: g.delegated,
        won: (verdict == Verdict::Holds).then(|| crate::trusted::GameWon::new("conjunction game")),
    })
}
