//! The exact local search: does the owner win the sub-game?
//!
//! Plain minimax over the carrier with four exact refinements, each justified here and each
//! covered by the reference-solver property test (`tests/reference_solver.rs`):
//!
//! 1. **Transposition table** keyed by (owner cells, opponent cells): the value of a node
//!    depends on nothing else.
//! 2. **Dead cells.** An empty cell that lies on no path joining a goal pair through
//!    owner-usable cells, or whose usable neighbours are pairwise adjacent (a path through it
//!    can always short-cut it), belongs to no minimal winning set. The sub-game is a
//!    Maker–Breaker game, so such a cell can be deleted without changing the value for either
//!    side to move (a strategy that would play there plays anywhere else; an extra stone
//!    never hurts). Henderson, Arneson & Hayward 2009, §3 (dead cells).
//! 3. **Mustplay by the pass move** at opponent nodes: if the owner, moving first, wins with
//!    proof set P, every opponent move outside P loses (the owner plays its first move there
//!    and follows the same strategy, which never touches the opponent's stone). If the owner
//!    cannot win even moving first, the opponent wins with any move (monotonicity).
//!    Anshelevich 2002 §4 (must-play); Henderson et al. 2009 §2.
//! 4. **Proof-set pruning** at opponent nodes: when the owner refutes opponent move w with
//!    reply r and proof set P_w (every cell its strategy may use, r included), the same
//!    answer refutes every opponent move outside P_w (w is then empty, which only helps the
//!    owner). So the opponent's candidates shrink to the intersection of the proof sets seen;
//!    when it is empty, the node is won, with proof set = the union of the options. This is
//!    exactly the or-node of the certificate kernel. Henderson et al. 2009 §4 (proof sets).
//!
//! Move ordering (it changes speed, never the value): owner replies are tried killer-first
//! (the reply that answered the previous intrusion at the parent, and the pass reply), then by
//! the number of empty cells on the shortest owner path through the cell; opponent
//! intrusions likewise on the shortest paths first.

use super::local::{bits, Local, Set};
use hashbrown::HashMap;
use std::time::Instant;

/// Result of one node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Res {
    /// The owner wins; the proof set (empty cells the strategy may use).
    Win(Set),
    /// The opponent wins.
    Loss,
    /// Budget exhausted.
    Unknown,
}

#[derive(Clone, Copy, Debug)]
enum Entry {
    Win { proof: Set, mv: u8 },
    Loss { mv: u8 },
}

const NO_MOVE: u8 = u8::MAX;

/// Search limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Maximum nodes.
    pub nodes: u64,
    /// Deadline.
    pub deadline: Option<Instant>,
    /// Maximum transposition-table entries (memory bound); the table is cleared when full.
    pub max_entries: usize,
}

/// The solver state for one sub-game.
pub struct Solver<'a> {
    /// The local graph.
    pub g: &'a Local,
    tt_owner: HashMap<(Set, Set), Entry>,
    tt_opp: HashMap<(Set, Set), Entry>,
    /// Nodes visited.
    pub nodes: u64,
    limits: Limits,
    /// Set when the budget ran out.
    pub aborted: bool,
}

impl<'a> Solver<'a> {
    /// A solver for `g`.
    pub fn new(g: &'a Local, limits: Limits) -> Self {
        Solver {
            g,
            tt_owner: HashMap::new(),
            tt_opp: HashMap::new(),
            nodes: 0,
            limits,
            aborted: false,
        }
    }

    /// Transposition-table size.
    pub fn tt_len(&self) -> usize {
        self.tt_owner.len() + self.tt_opp.len()
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limits.nodes {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.limits.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
            if self.tt_len() > self.limits.max_entries {
                self.tt_owner.clear();
                self.tt_opp.clear();
            }
        }
        !self.aborted
    }

    /// Empty cells still useful to the owner: on a path joining a live pair, minus cells whose
    /// usable neighbourhood is a clique. Empty result ⇒ the owner cannot win.
    pub fn useful(&self, b: Set, e: Set) -> Set {
        let g = self.g;
        let mut live = 0;
        for &(a, z) in &g.pairs {
            let (cells, groups) = g.reach(a, b | e);
            if groups >> z & 1 == 1 {
                live |= cells;
            }
        }
        let mut useful = live & e;
        // Clique rule, iterated to a fixed point.
        loop {
            let mask = b | useful;
            let mut changed = false;
            for c in bits(useful) {
                let groups = g.cell_groups[c];
                let nb = g.adj[c] & mask;
                let dead = match groups.count_ones() {
                    0 => bits(nb).all(|x| nb & !(1 << x) & !g.adj[x] == 0),
                    1 => {
                        let ga = g.group_adj[groups.trailing_zeros() as usize];
                        nb & !ga == 0 && bits(nb).all(|x| nb & !(1 << x) & !g.adj[x] == 0)
                    }
                    _ => false,
                };
                if dead {
                    useful &= !(1 << c);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        useful
    }

    /// Shortest-path score per empty cell (smaller = more central): for each live pair the
    /// number of empty cells on the cheapest owner path through the cell, minimised over pairs.
    fn scores(&self, b: Set, e: Set, out: &mut [u8; 128]) {
        let g = self.g;
        out[..g.n].fill(u8::MAX);
        let mut da = [u8::MAX; 128];
        let mut db = [u8::MAX; 128];
        for &(a, z) in &g.pairs {
            self.distances(a, b, e, &mut da);
            self.distances(z, b, e, &mut db);
            for c in bits(e) {
                let s = da[c].saturating_add(db[c]);
                if s < out[c] {
                    out[c] = s;
                }
            }
        }
    }

    /// Layered breadth-first search from group `src`: owner cells cost 0, empty cells 1.
    fn distances(&self, src: u8, b: Set, e: Set, d: &mut [u8; 128]) {
        let g = self.g;
        d[..g.n].fill(u8::MAX);
        let mut seen_groups: u64 = 1 << src;
        let mut seen: Set = 0;
        let mut border: Set = g.group_adj[src as usize];
        let mut level: u8 = 1;
        while border & (b | e) & !seen != 0 {
            // Close over owner cells and groups at no cost.
            let mut frontier = border & b & !seen;
            let mut reached_b = 0;
            while frontier != 0 {
                reached_b |= frontier;
                seen |= frontier;
                let mut next = 0;
                let mut ng = 0u64;
                for i in bits(frontier) {
                    next |= g.adj[i];
                    ng |= g.cell_groups[i];
                }
                ng &= !seen_groups;
                seen_groups |= ng;
                for h in bits(ng as Set) {
                    next |= g.group_adj[h];
                }
                border |= next;
                frontier = next & b & !seen;
            }
            let _ = reached_b;
            let layer = border & e & !seen;
            if layer == 0 {
                break;
            }
            seen |= layer;
            let mut next = 0;
            let mut ng = 0u64;
            for i in bits(layer) {
                d[i] = level;
                next |= g.adj[i];
                ng |= g.cell_groups[i];
            }
            ng &= !seen_groups;
            seen_groups |= ng;
            for h in bits(ng as Set) {
                next |= g.group_adj[h];
            }
            border = next;
            level = level.saturating_add(1);
        }
    }

    /// Owner to move at (b, w). `hint` is tried first when useful.
    pub fn owner_to_move(&mut self, b: Set, w: Set, hint: u8) -> Res {
        if self.g.joined(b) {
            return Res::Win(0);
        }
        if let Some(e) = self.tt_owner.get(&(b, w)) {
            return match *e {
                Entry::Win { proof, .. } => Res::Win(proof),
                Entry::Loss { .. } => Res::Loss,
            };
        }
        if !self.tick() {
            return Res::Unknown;
        }
        let e = self.g.all & !b & !w;
        let useful = self.useful(b, e);
        if useful == 0 {
            self.tt_owner.insert((b, w), Entry::Loss { mv: NO_MOVE });
            return Res::Loss;
        }
        // Immediate wins.
        for c in bits(useful) {
            if self.g.joined(b | 1 << c) {
                let proof = 1 << c;
                self.tt_owner.insert((b, w), Entry::Win { proof, mv: c as u8 });
                return Res::Win(proof);
            }
        }
        let mut order: [u8; 128] = [0; 128];
        let mut scores = [u8::MAX; 128];
        self.scores(b, useful, &mut scores);
        let mut k = 0;
        if hint != NO_MOVE && useful >> hint & 1 == 1 {
            order[k] = hint;
            k += 1;
        }
        let start = k;
        for c in bits(useful) {
            if c as u8 != hint {
                order[k] = c as u8;
                k += 1;
            }
        }
        order[start..k].sort_by_key(|&c| scores[c as usize]);
        let mut killer = NO_MOVE;
        for &c in &order[..k] {
            let c = c as usize;
            // Dead cells outside `useful` are filled for the opponent: the child sees them
            // as occupied, so its proof set never relies on them.
            let dead = e & !useful;
            match self.opp_to_move(b | 1 << c, w | dead, killer) {
                Res::Win(p) => {
                    let proof = p | 1 << c;
                    self.tt_owner.insert((b, w), Entry::Win { proof, mv: c as u8 });
                    return Res::Win(proof);
                }
                Res::Loss => {}
                Res::Unknown => return Res::Unknown,
            }
            killer = NO_MOVE;
        }
        self.tt_owner.insert((b, w), Entry::Loss { mv: order[0] });
        Res::Loss
    }

    /// Opponent to move at (b, w). `hint`: an owner reply worth trying first.
    pub fn opp_to_move(&mut self, b: Set, w: Set, hint: u8) -> Res {
        if self.g.joined(b) {
            return Res::Win(0);
        }
        if let Some(e) = self.tt_opp.get(&(b, w)) {
            return match *e {
                Entry::Win { proof, .. } => Res::Win(proof),
                Entry::Loss { .. } => Res::Loss,
            };
        }
        if !self.tick() {
            return Res::Unknown;
        }
        let e = self.g.all & !b & !w;
        // Mustplay: the owner's semi-connection if the opponent passed.
        let (pass_proof, pass_reply) = match self.owner_to_move(b, w, hint) {
            Res::Win(p) => (p, self.owner_move(b, w)),
            Res::Loss => {
                let mv = bits(e).next().map_or(NO_MOVE, |c| c as u8);
                self.tt_opp.insert((b, w), Entry::Loss { mv });
                return Res::Loss;
            }
            Res::Unknown => return Res::Unknown,
        };
        let mut must = pass_proof & e;
        let mut union = pass_proof;
        let mut scores = [u8::MAX; 128];
        self.scores(b, must, &mut scores);
        let mut killer = pass_reply;
        while must != 0 {
            let x = bits(must).min_by_key(|&c| scores[c]).unwrap();
            match self.owner_to_move(b, w | 1 << x, killer) {
                Res::Win(p) => {
                    must &= p;
                    union |= p;
                    killer = self.owner_move(b, w | 1 << x);
                }
                Res::Loss => {
                    self.tt_opp.insert((b, w), Entry::Loss { mv: x as u8 });
                    return Res::Loss;
                }
                Res::Unknown => return Res::Unknown,
            }
        }
        self.tt_opp.insert((b, w), Entry::Win { proof: union, mv: NO_MOVE });
        Res::Win(union)
    }

    /// The owner's stored move at an owner-to-move node (its winning reply, or its best try).
    pub fn owner_move(&self, b: Set, w: Set) -> u8 {
        match self.tt_owner.get(&(b, w)) {
            Some(Entry::Win { mv, .. }) | Some(Entry::Loss { mv }) => *mv,
            None => NO_MOVE,
        }
    }

    /// The opponent's stored refutation at an opponent-to-move node.
    pub fn opp_move(&self, b: Set, w: Set) -> u8 {
        match self.tt_opp.get(&(b, w)) {
            Some(Entry::Loss { mv }) => *mv,
            _ => NO_MOVE,
        }
    }
}

/// Marker for "no move".
pub const NONE: u8 = NO_MOVE;
