//! The exact local search: does the owner win the sub-game?
//!
//! Plain minimax over the carrier with four exact refinements, each justified here and each
//! covered by the reference-solver property test (`tests/kernel/reference_solver.rs`):
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
//! 9. **Known sub-connections from the VC engine** at large nodes: a VC of the owner inside
//!    the remaining carrier wins the node (either side to move); at owner-to-move nodes a
//!    semi-connection wins too; at opponent-to-move nodes the semi-connections restrict the
//!    opponent to their intersection (mustplay) in place of the pass move of rule 3. See
//!    [`super::oracle`] for why this is exact and how the certificate is still kernel-checked.
//! 10. **The engine's key move.** Where rule 9 had to drop a semi-connection because its
//!     carrier is the whole sub-game (the root of the sub-search that proves a connection), the
//!     owner's candidates are probed with the engine one ply down: a VC after move c wins
//!     (see [`Solver::oracle_key`]).
//! 11. **Iterative widening by node budgets** near the root of the sub-game (within
//!     `OracleParams::widen_plies` moves): each child (owner reply or opponent intrusion) is
//!     first searched with a node budget; children whose budget ran out are searched again
//!     after their siblings, with twice the budget, and such owner nodes try every reply
//!     even in the bounded rounds of rule 8 (no beam). It only reorders the search (see
//!     [`Solver::budgeted`], after Nagai's df-pn thresholds); every answer is still exact.
//!
//! Move ordering (it changes speed, never the value): owner replies are tried killer-first
//! (the reply that answered the previous intrusion at the parent, and the pass reply), then by
//! the number of empty cells on the shortest owner path through the cell; opponent
//! intrusions likewise on the shortest paths first.

use super::cells::{bits, Local, Set};
use hashbrown::HashMap;
use std::time::Instant;

/// Result of one node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Res {
    /// The owner wins; the proof set (empty cells the strategy may use).
    Win(Set),
    /// The opponent wins; its proof set Q: the opponent still wins when every empty cell
    /// outside Q is given to the owner.
    Loss(Set),
    /// Budget exhausted.
    Unknown,
    /// Not decided within the current search depth (internal to iterative deepening).
    Shallow,
}

#[derive(Clone, Copy, Debug)]
enum Entry {
    Win { proof: Set, mv: u8 },
    Loss { disproof: Set, mv: u8 },
    Shallow { depth: u8 },
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
    /// Set by another thread to stop the search (checked with the deadline).
    pub stop: Option<super::StopFlag>,
}

/// The solver state for one sub-game.
pub struct Solver<'a> {
    /// The local graph.
    pub g: &'a Local,
    tt_owner: HashMap<(Set, Set), Entry>,
    tt_opp: HashMap<(Set, Set), Entry>,
    /// Rule 7 (monotone reuse): proof sets of opponent-to-move wins, by owner cells.
    vc_cache: HashMap<Set, Vec<Set>>,
    /// Disproof sets of owner-to-move losses, by opponent cells.
    loss_cache: HashMap<Set, Vec<Set>>,
    /// Disproof sets of opponent-to-move losses, by opponent cells.
    opp_loss_cache: HashMap<Set, Vec<Set>>,
    /// Nodes visited.
    pub nodes: u64,
    limits: Limits,
    /// Set when the budget ran out.
    pub aborted: bool,
    /// True in the last, unbounded round of iterative deepening (and outside deepening).
    exact_round: bool,
    /// Owner replies tried per node in bounded rounds.
    beam: u32,
    /// Rule 9: the VC engine's connections at large opponent-to-move nodes.
    pub oracle: Option<super::oracle::Oracle>,
    /// Owner-to-move nodes won by rule 10 (the engine's key move).
    pub oracle_keys: u64,
    /// Rule 11: the node count at which the current budgeted child search stops
    /// (`u64::MAX`: none).
    soft_limit: u64,
    /// Set when the real budget (nodes, deadline) ran out, not only a rule-11 limit.
    hard_aborted: bool,
    /// Rule 11 applies at nodes with at least this many empty cells (`u32::MAX`: never).
    pub widen_min_empty: u32,
    /// Rule 11: the first per-child node budget (doubled every round).
    pub widen_first: u64,
    /// Child searches stopped by a rule-11 budget (and resumed later).
    pub widen_stops: u64,
    /// Whether rule 11 budgets the opponent's intrusions too.
    pub widen_opp: bool,
    /// Rule 11 applies at nodes with at most this many empty cells.
    pub widen_max_empty: u32,
}

impl<'a> Solver<'a> {
    /// A solver for `g`.
    pub fn new(g: &'a Local, limits: Limits) -> Self {
        Solver {
            g,
            tt_owner: HashMap::new(),
            tt_opp: HashMap::new(),
            vc_cache: HashMap::new(),
            loss_cache: HashMap::new(),
            opp_loss_cache: HashMap::new(),
            nodes: 0,
            limits,
            aborted: false,
            exact_round: true,
            beam: u32::MAX,
            oracle: None,
            oracle_keys: 0,
            soft_limit: u64::MAX,
            hard_aborted: false,
            widen_min_empty: u32::MAX,
            widen_first: 1,
            widen_stops: 0,
            widen_opp: true,
            widen_max_empty: u32::MAX,
        }
    }

    /// Rule 9: the oracle's answer at an opponent-to-move node (see [`super::oracle`]).
    pub fn oracle_at(&mut self, b: Set, w: Set) -> Option<super::oracle::Answer> {
        let e = self.g.all & !b & !w;
        let g = self.g;
        self.oracle.as_mut()?.at(g, b, w, e)
    }

    /// Rule 10 at the owner-to-move node (b, w) with dead cells `dead` and the owner's
    /// candidate moves `order`: when the engine found a semi-connection whose carrier is the
    /// whole sub-game carrier (so rule 9 had to drop it), try each candidate c and ask the
    /// engine, at the opponent-to-move child (dead cells filled for the opponent, as the
    /// search itself does), for a VC inside the remaining carrier. Such a VC wins the child
    /// (rule 9) and so the node, with proof set VC ∪ {c}; both are stored, so that the
    /// certificate proves the VC by its own, smaller search. Exact: it only finds wins that
    /// rule 9 would find one ply further down (Pawlewicz et al.: a VSC's key turns it into a
    /// VC; Henderson, Arneson & Hayward 2009 §2). Without it the key is only found when the
    /// move ordering happens to try it among the first [`BEAM`] replies of a bounded round.
    fn oracle_key(&mut self, b: Set, w: Set, dead: Set, order: &[u8]) -> Option<Res> {
        if !self.oracle.as_ref()?.full_semi_at(b, w) {
            return None;
        }
        for &c in order {
            let c = c as usize;
            let (cb, cw) = (b | 1 << c, w | dead);
            let Some(vc) = self.oracle_at(cb, cw).and_then(|a| a.vc) else {
                continue;
            };
            self.store_opp(
                cb,
                cw,
                Entry::Win {
                    proof: vc,
                    mv: NO_MOVE,
                },
            );
            let proof = vc | 1 << c;
            self.store_owner(b, w, Entry::Win { proof, mv: c as u8 });
            self.oracle_keys += 1;
            return Some(Res::Win(proof));
        }
        None
    }

    /// Transposition-table size.
    pub fn tt_len(&self) -> usize {
        self.tt_owner.len() + self.tt_opp.len()
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limits.nodes {
            self.aborted = true;
            self.hard_aborted = true;
        }
        if self.nodes > self.soft_limit {
            self.aborted = true;
        }
        // The stop flag at every node (one relaxed load; a node with oracle calls can take
        // milliseconds, so 1024 of them are too long a wait).
        if self.limits.stop.is_some_and(super::StopFlag::is_set) {
            self.aborted = true;
            self.hard_aborted = true;
        }
        // The deadline every 1024 nodes, or at every node when the oracle is on: its nodes
        // rebuild connections (milliseconds each), and the certificate builder nests searches,
        // so 1024 oracle nodes at each of a dozen levels ran a 0.2 s player move past 30 s of
        // wall time (docs/journal/player-session19.md). A clock read is tens of nanoseconds.
        let check_clock = self.nodes & 1023 == 0 || self.oracle.is_some();
        if check_clock {
            if let Some(d) = self.limits.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                    self.hard_aborted = true;
                }
            }
        }
        if self.nodes & 1023 == 0 && self.tt_len() > self.limits.max_entries {
            self.tt_owner.clear();
            self.tt_opp.clear();
            self.vc_cache.clear();
            self.loss_cache.clear();
            self.opp_loss_cache.clear();
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

    /// Known sub-connections (rule 6): a chain of owner components joined by bridges, each
    /// bridge a pair of empty cells adjacent to both components, all pairs disjoint; with
    /// `semi`, at most one link may instead be a single empty cell adjacent to both (the
    /// owner's key move). Such a chain joins its ends whatever the opponent does (each
    /// intrusion into a bridge is answered by its twin), so it is an exact, certified win
    /// with the chain's cells as proof set. Returns that proof set.
    pub fn chain_connection(&self, b: Set, e: Set, semi: bool) -> Option<Set> {
        self.chain_search(b, e, semi, None)
    }

    /// The chain itself, for certificates (no semi links).
    pub fn chain(&self, b: Set, e: Set) -> Option<Chain> {
        let mut out = None;
        self.chain_search(b, e, false, Some(&mut out))?;
        out
    }

    fn chain_search(
        &self,
        b: Set,
        e: Set,
        semi: bool,
        record: Option<&mut Option<Chain>>,
    ) -> Option<Set> {
        let comps = self.components(b, e)?;
        self.chain_in(&comps, e, semi, record, None)
    }

    /// Owner components at (b, e): groups merged through owner cells, then loose owner
    /// cells; with their empty neighbours.
    fn components(&self, b: Set, e: Set) -> Option<Comps> {
        let g = self.g;
        let mut c = Comps {
            k: 0,
            cells: [0; 64],
            groups: [0; 64],
            nbr: [0; 64],
        };
        let mut seen_groups: u64 = 0;
        for h in 0..g.group_adj.len() {
            if seen_groups >> h & 1 == 1 {
                continue;
            }
            if c.k == 64 {
                return None;
            }
            let (cells, groups) = g.reach(h as u8, b);
            seen_groups |= groups;
            c.cells[c.k] = cells;
            c.groups[c.k] = groups;
            c.k += 1;
        }
        let mut loose = b & !c.cells[..c.k].iter().fold(0, |a, x| a | x);
        while loose != 0 {
            if c.k == 64 {
                return None;
            }
            let mut cells = loose & loose.wrapping_neg();
            loop {
                let mut next = cells;
                for i in bits(cells) {
                    next |= g.adj[i] & b;
                }
                if next == cells {
                    break;
                }
                cells = next;
            }
            loose &= !cells;
            c.cells[c.k] = cells;
            c.k += 1;
        }
        for x in 0..c.k {
            let mut n = 0;
            for i in bits(c.cells[x]) {
                n |= g.adj[i];
            }
            for h in bits(c.groups[x] as Set) {
                n |= g.group_adj[h];
            }
            c.nbr[x] = n & e;
        }
        Some(c)
    }

    /// The components after the owner plays empty cell `m`: those touching `m` merge.
    /// Writes into `c` (only its first `k` entries are meaningful).
    fn components_after(&self, base: &Comps, m: usize, e: Set, c: &mut Comps) {
        let g = self.g;
        let e2 = e & !(1 << m);
        c.k = 0;
        let mut nbr = g.adj[m];
        for h in bits(g.cell_groups[m] as Set) {
            nbr |= g.group_adj[h];
        }
        let (mut cells, mut groups) = (1 << m, 0);
        for x in 0..base.k {
            if base.nbr[x] >> m & 1 == 1 {
                cells |= base.cells[x];
                groups |= base.groups[x];
                nbr |= base.nbr[x];
            } else {
                c.cells[c.k] = base.cells[x];
                c.groups[c.k] = base.groups[x];
                c.nbr[c.k] = base.nbr[x] & e2;
                c.k += 1;
            }
        }
        c.cells[c.k] = cells;
        c.groups[c.k] = groups;
        c.nbr[c.k] = nbr & e2;
        c.k += 1;
    }

    /// Rule 6's one-move lookahead: the proof set of a chain after the owner plays `m`.
    /// `scratch` is reused between calls; `pre` lists the templates inside `e`.
    fn chain_after_move(
        &self,
        base: &Comps,
        scratch: &mut Comps,
        pre: &[u16],
        b: Set,
        e: Set,
        m: usize,
    ) -> Option<Set> {
        if base.k >= 64 {
            return self.chain_connection(b | 1 << m, e & !(1 << m), false);
        }
        self.components_after(base, m, e, scratch);
        self.chain_in(scratch, e & !(1 << m), false, None, Some(pre))
    }

    /// Indices of the templates whose cells all lie in `e`.
    fn templates_within(&self, e: Set, out: &mut [u16; MAX_LINKS]) -> usize {
        let mut n = 0;
        for (ti, t) in self.g.templates.iter().enumerate() {
            if t.carrier & !e == 0 && n < out.len() {
                out[n] = ti as u16;
                n += 1;
            }
        }
        n
    }

    fn chain_in(
        &self,
        comps: &Comps,
        e: Set,
        semi: bool,
        record: Option<&mut Option<Chain>>,
        pre: Option<&[u16]>,
    ) -> Option<Set> {
        let g = self.g;
        let k = comps.k;
        let mut trail = [Step::default(); TRAIL];
        let mut usable = [0u16; MAX_LINKS];
        let mut n_usable = 0;
        let mut templates_ready = false;
        let mut record = record;
        for (pi, &(a, z)) in g.pairs.iter().enumerate() {
            let from = (0..k).find(|&x| comps.groups[x] >> a & 1 == 1)?;
            let to = (0..k).find(|&x| comps.groups[x] >> z & 1 == 1)?;
            let save = |steps: &[Step], rec: &mut Option<&mut Option<Chain>>| {
                if let Some(r) = rec.as_deref_mut() {
                    *r = Some(Chain {
                        pair: pi,
                        steps: steps.to_vec(),
                        comp_cells: comps.cells[..k].to_vec(),
                        comp_groups: comps.groups[..k].to_vec(),
                    });
                }
            };
            if from == to {
                save(&[], &mut record);
                return Some(0);
            }
            let mut visited = 1u64 << from;
            if !templates_ready && pre.is_none() {
                n_usable = self.templates_within(e, &mut usable);
                templates_ready = true;
            }
            let ctx = ChainCtx {
                nbr: &comps.nbr[..k],
                cells: &comps.cells[..k],
                groups: &comps.groups[..k],
                e,
                templates: pre.unwrap_or(&usable[..n_usable]),
                all_templates: &g.templates,
                to,
            };
            if let Some((p, len)) = ctx.dfs(from, 0, semi, &mut visited, &mut trail, 0) {
                save(&trail[..len], &mut record);
                return Some(p);
            }
        }
        None
    }

    /// Shortest-path score per empty cell (smaller = more central): for each live pair the
    /// number of empty cells on the cheapest owner path through the cell, minimised over pairs.
    pub fn move_scores(&self, b: Set, e: Set, out: &mut [u16; 128]) {
        self.scores(b, e, out)
    }

    fn scores(&self, b: Set, e: Set, out: &mut [u16; 128]) {
        let g = self.g;
        out[..g.n].fill(u16::MAX);
        let mut da = [u8::MAX; 128];
        let mut db = [u8::MAX; 128];
        for &(a, z) in &g.pairs {
            self.distances(a, b, e, &mut da);
            self.distances(z, b, e, &mut db);
            for c in bits(e) {
                // Length of the shortest path through c first, then balance (cells midway
                // between the ends first), then the number of usable neighbours, then the
                // room around it (usable cells within distance two), then nearness to the
                // pair's second end. All are geometric, so the order depends little on where
                // the sub-game sits on the board.
                let len = da[c].saturating_add(db[c]).min(15) as u16;
                let balance = da[c].abs_diff(db[c]).min(7) as u16;
                let degree = ((g.adj[c] & (b | e)).count_ones() + g.cell_groups[c].count_ones())
                    .min(7) as u16;
                let near = db[c].min(15) as u16;
                let mut ring = g.adj[c];
                for x in bits(g.adj[c]) {
                    ring |= g.adj[x];
                }
                let room = (ring & (b | e)).count_ones().min(15) as u16;
                let s = (len << 12)
                    | (balance << 9)
                    | (((7 - degree) / 4) << 8)
                    | ((15 - room) << 4)
                    | near;
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

    /// Owner to move at (b, w), exact: iterative deepening on the owner's search depth
    /// (rule 8), ending with an unbounded search.
    pub fn owner_to_move(&mut self, b: Set, w: Set, hint: u8) -> Res {
        self.deepen(|s, d| s.owner_node(b, w, hint, d))
    }

    /// Opponent to move at (b, w), exact.
    pub fn opp_to_move(&mut self, b: Set, w: Set, hint: u8) -> Res {
        self.deepen(|s, d| s.opp_node(b, w, hint, d))
    }

    /// Rule 8, iterative deepening. A depth-bounded search looks for an owner win in which
    /// the owner makes at most `d` moves before a known sub-connection (rule 6) finishes the
    /// job; where it cannot tell, it answers `Shallow`, never a loss. True claims are thus
    /// usually proved without ever proving the (expensive) losses of wrong owner replies; the
    /// last round has a depth no game can exhaust, so it is the exact search.
    fn deepen(&mut self, mut f: impl FnMut(&mut Self, u8) -> Res) -> Res {
        let max = (self.g.n as u8).saturating_add(1);
        let mut d = 0;
        let result = loop {
            self.exact_round = d >= max;
            self.beam = if self.exact_round { u32::MAX } else { BEAM };
            match f(self, d) {
                Res::Shallow if d < max => {
                    d = if d < 4 {
                        d + 1
                    } else {
                        d.saturating_mul(2).min(max)
                    }
                }
                Res::Shallow => break Res::Unknown,
                r => break r,
            }
        };
        self.exact_round = true;
        self.beam = u32::MAX;
        result
    }

    fn owner_node(&mut self, b: Set, w: Set, hint: u8, depth: u8) -> Res {
        if self.g.joined(b) {
            return Res::Win(0);
        }
        if let Some(e) = self.tt_owner.get(&(b, w)) {
            match *e {
                Entry::Win { proof, .. } => return Res::Win(proof),
                Entry::Loss { disproof, .. } => return Res::Loss(disproof),
                Entry::Shallow { depth: d } if !self.exact_round && d >= depth => {
                    return Res::Shallow
                }
                Entry::Shallow { .. } => {}
            }
        }
        if let Some(q) = Self::cached_loss(&self.loss_cache, b, w) {
            return Res::Loss(q);
        }
        if !self.tick() {
            return Res::Unknown;
        }
        let e = self.g.all & !b & !w;
        let useful = self.useful(b, e);
        if useful == 0 {
            // No owner path even owning every empty cell: lost, whatever is given away.
            self.store_owner(
                b,
                w,
                Entry::Loss {
                    disproof: 0,
                    mv: NO_MOVE,
                },
            );
            return Res::Loss(0);
        }
        if let Some(r) = self.owner_immediate_win(b, w, useful) {
            return r;
        }
        // One-move lookahead with the known sub-connections: a reply after which a chain
        // of bridges and templates joins a pair wins at once.
        let mut scores = [u16::MAX; 128];
        self.scores(b, useful, &mut scores);
        let mut order = [0u8; 128];
        let mut k = 0;
        for c in bits(useful) {
            order[k] = c as u8;
            k += 1;
        }
        order[..k].sort_by_key(|&c| scores[c as usize]);
        if let Some(r) = self.owner_known_win(b, w, e, useful, &order[..k]) {
            return r;
        }
        if depth == 0 {
            self.store_owner(b, w, Entry::Shallow { depth });
            return Res::Shallow;
        }
        let (disproof, first_try, shallow) =
            match self.owner_replies(b, w, hint, depth, e, useful, &scores) {
                Ok(x) => x,
                Err(r) => return r,
            };
        if shallow {
            self.store_owner(b, w, Entry::Shallow { depth });
            return Res::Shallow;
        }
        self.store_owner(
            b,
            w,
            Entry::Loss {
                disproof,
                mv: first_try,
            },
        );
        Res::Loss(disproof)
    }

    /// [`Self::owner_node`]'s search of the owner's replies (`useful` of the empty cells `e`,
    /// best by `scores` first): `Err` with a win (stored) or an unknown, else
    /// the disproof, the first reply tried, and whether some reply was cut off (shallow).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn owner_replies(
        &mut self,
        b: Set,
        w: Set,
        hint: u8,
        depth: u8,
        e: Set,
        useful: Set,
        scores: &[u16; 128],
    ) -> Result<(Set, u8, bool), Res> {
        // Dead cells are filled for the opponent: the children see them as occupied, so
        // their proof sets never rely on them (see the module docs, rule 2).
        let dead = e & !useful;
        let mut cands = useful;
        let mut disproof: Set = 0;
        let mut first_try = NO_MOVE;
        let mut next_hint = NO_MOVE;
        let mut shallow = false;
        let mut tries = 0;
        // Rule 11: near the root, each reply first gets a node budget.
        let widen = self.widens(e);
        let mut budget = self.widen_first;
        let mut pending: Set = 0;
        let mut first_round = true;
        loop {
            while cands != 0 {
                // Bounded rounds only look for wins, so they may try just the best few replies
                // (counted in the first round only; under rule 11 all replies, each with its
                // node budget: the winning reply is often not among the best few by the
                // ordering).
                if first_round && !widen {
                    if tries >= self.beam {
                        shallow = true;
                        break;
                    }
                    tries += 1;
                }
                let c = if hint != NO_MOVE && cands >> hint & 1 == 1 {
                    hint as usize
                } else {
                    bits(cands).min_by_key(|&c| scores[c]).unwrap()
                };
                if first_try == NO_MOVE {
                    first_try = c as u8;
                }
                cands &= !(1 << c);
                // The lookahead above already found no chain after c: the child skips that
                // test.
                let (cb, cw) = (b | 1 << c, w | dead);
                let res = if widen && (cands | pending) != 0 {
                    match self.budgeted(budget, |s| {
                        s.opp_node_inner(cb, cw, next_hint, depth - 1, false)
                    }) {
                        Some(r) => r,
                        None => {
                            pending |= 1 << c;
                            continue;
                        }
                    }
                } else {
                    self.opp_node_inner(cb, cw, next_hint, depth - 1, false)
                };
                match res {
                    Res::Win(p) => {
                        let proof = p | 1 << c;
                        self.store_owner(b, w, Entry::Win { proof, mv: c as u8 });
                        return Err(Res::Win(proof));
                    }
                    Res::Loss(q) => {
                        // Rule 5 (dual proof sets): owner moves outside q lose as well.
                        cands &= q;
                        pending &= q;
                        disproof |= q | 1 << c;
                        next_hint = self.opp_move(cb, cw);
                    }
                    Res::Shallow => shallow = true,
                    Res::Unknown => return Err(Res::Unknown),
                }
            }
            if pending == 0 {
                break;
            }
            // Rule 11: the next round, with twice the budget, for the replies still open.
            cands = pending;
            pending = 0;
            first_round = false;
            budget = budget.saturating_mul(2);
        }
        Ok((disproof, first_try, shallow))
    }

    /// [`Self::owner_node`]: an owner move that joins a pair at once.
    #[inline]
    fn owner_immediate_win(&mut self, b: Set, w: Set, useful: Set) -> Option<Res> {
        // Immediate wins.
        for c in bits(useful) {
            if self.g.joined(b | 1 << c) {
                let proof = 1 << c;
                self.store_owner(b, w, Entry::Win { proof, mv: c as u8 });
                return Some(Res::Win(proof));
            }
        }
        None
    }

    /// [`Self::owner_node`]: a win without search — a reply after which a chain of bridges
    /// and templates joins a pair (`order`: the replies, best first), the VC engine's
    /// connection (rule 9), or its winning first move (rule 10).
    #[inline]
    fn owner_known_win(
        &mut self,
        b: Set,
        w: Set,
        e: Set,
        useful: Set,
        order: &[u8],
    ) -> Option<Res> {
        let base = self.components(b, useful);
        let mut scratch = Comps {
            k: 0,
            cells: [0; 64],
            groups: [0; 64],
            nbr: [0; 64],
        };
        let mut pre = [0u16; MAX_LINKS];
        let n_pre = self.templates_within(useful, &mut pre);
        for &c in order {
            let c = c as usize;
            let found = match &base {
                Some(base) => {
                    self.chain_after_move(base, &mut scratch, &pre[..n_pre], b, useful, c)
                }
                None => self.chain_connection(b | 1 << c, useful & !(1 << c), false),
            };
            if let Some(p) = found {
                let proof = p | 1 << c;
                self.store_owner(b, w, Entry::Win { proof, mv: c as u8 });
                return Some(Res::Win(proof));
            }
        }
        // Rule 9: a connection of the owner found by the VC engine wins without search (the
        // certificate proves it by a search of its own carrier).
        if let Some(ans) = self.oracle_at(b, w) {
            let semis = self.oracle.as_ref().is_some_and(|o| o.owner_semis);
            let best = ans.vc.or_else(|| {
                ans.semis
                    .iter()
                    .copied()
                    .filter(|_| semis)
                    .min_by_key(|s| s.count_ones())
            });
            if let Some(proof) = best {
                self.store_owner(b, w, Entry::Win { proof, mv: NO_MOVE });
                return Some(Res::Win(proof));
            }
        }
        // Rule 10: the engine knows a winning first move here (a semi-connection on the
        // whole carrier, which rule 9 cannot use): find it by asking the engine, after each
        // owner move, for a VC inside the rest.
        self.oracle_key(b, w, e & !useful, order)
    }

    /// Opponent to move at (b, w). `opp_hint`: an opponent move worth trying first (the
    /// refutation of a sibling), before the pass.
    fn opp_node(&mut self, b: Set, w: Set, opp_hint: u8, depth: u8) -> Res {
        self.opp_node_inner(b, w, opp_hint, depth, true)
    }

    fn opp_node_inner(&mut self, b: Set, w: Set, opp_hint: u8, depth: u8, test_chain: bool) -> Res {
        if let Some(r) = self.opp_known(b, w, depth) {
            return r;
        }
        if !self.tick() {
            return Res::Unknown;
        }
        let e = self.g.all & !b & !w;
        if test_chain {
            if let Some(proof) = self.chain_connection(b, e, false) {
                self.store_opp(b, w, Entry::Win { proof, mv: NO_MOVE });
                return Res::Win(proof);
            }
        }
        let mut must = e;
        let mut union: Set = 0;
        let mut killer = NO_MOVE;
        // Rule 9: the owner's VC wins here; its semi-connections restrict the opponent.
        let mut pass = true;
        // The engine's semis, kept aside: only those needed for the mustplay join the proof
        // set at the end (see `needed_semis`).
        let mut semis: Vec<Set> = Vec::new();
        if let Some(ans) = self.oracle_at(b, w) {
            match self.opp_oracle(b, w, ans, &mut must, &mut semis) {
                Ok(p) => pass = p,
                Err(r) => return r,
            }
        }
        // The intersection of the owner's answers (pass and intrusions) alone.
        let mut answered = e;
        // The sibling's refutation first: it often refutes here too.
        if opp_hint != NO_MOVE && e >> opp_hint & 1 == 1 {
            if let Err(r) = self.intrude(
                b,
                w,
                opp_hint as usize,
                depth,
                &mut must,
                &mut union,
                &mut answered,
                &mut killer,
            ) {
                return r;
            }
        }
        // Mustplay: the owner's semi-connection if the opponent passed.
        if let Err(r) = self.opp_pass(
            b,
            w,
            depth,
            pass,
            &mut must,
            &mut union,
            &mut answered,
            &mut killer,
        ) {
            return r;
        }
        let mut scores = [u16::MAX; 128];
        self.scores(b, must, &mut scores);
        // The owner's own key move is the opponent's first candidate ("play where your
        // opponent wants to play").
        let mut first = killer;
        // Rule 11: near the root, each intrusion first gets a node budget.
        let widen = self.widen_opp && self.widens(e);
        let mut budget = self.widen_first;
        let mut pending: Set = 0;
        loop {
            while must & !pending != 0 {
                let todo = must & !pending;
                let x = if first != NO_MOVE && todo >> first & 1 == 1 {
                    first as usize
                } else {
                    bits(todo).min_by_key(|&c| scores[c]).unwrap()
                };
                first = NO_MOVE;
                let res = if widen && must.count_ones() > 1 {
                    let k = killer;
                    match self.budgeted(budget, |s| s.owner_node(b, w | 1 << x, k, depth)) {
                        Some(r) => r,
                        None => {
                            pending |= 1 << x;
                            continue;
                        }
                    }
                } else {
                    self.owner_node(b, w | 1 << x, killer, depth)
                };
                if let Err(r) = self.answered(
                    res,
                    b,
                    w,
                    x,
                    depth,
                    &mut must,
                    &mut union,
                    &mut answered,
                    &mut killer,
                ) {
                    return r;
                }
            }
            if pending & must == 0 {
                break;
            }
            // Rule 11: the next round, with twice the budget, for the intrusions still open.
            pending = 0;
            budget = budget.saturating_mul(2);
        }
        union |= needed_semis(&semis, answered);
        self.store_opp(
            b,
            w,
            Entry::Win {
                proof: union,
                mv: NO_MOVE,
            },
        );
        Res::Win(union)
    }

    /// The opponent's pass at `(b, w)` (when `pass`): the owner's win moving first narrows the
    /// candidates `must` to its proof set (and gives the killer); the owner's loss moving first
    /// decides the node (`Err(Loss)`, stored), and so does an unknown result (`Err(Unknown)`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn opp_pass(
        &mut self,
        b: Set,
        w: Set,
        depth: u8,
        pass: bool,
        must: &mut Set,
        union: &mut Set,
        answered: &mut Set,
        killer: &mut u8,
    ) -> Result<(), Res> {
        let e = self.g.all & !b & !w;
        match if pass {
            self.owner_node(b, w, *killer, depth)
        } else {
            Res::Shallow
        } {
            Res::Win(p) => {
                *must &= p;
                *union |= p;
                *answered &= p;
                *killer = self.owner_move(b, w);
                Ok(())
            }
            Res::Loss(q) => {
                // The owner loses even moving first: any opponent move wins (monotonicity).
                let mv = bits(if q != 0 { q } else { e })
                    .next()
                    .map_or(NO_MOVE, |c| c as u8);
                self.store_opp(b, w, Entry::Loss { disproof: q, mv });
                Err(Res::Loss(q))
            }
            // Without the pass, every intrusion must be answered.
            Res::Shallow => Ok(()),
            Res::Unknown => Err(Res::Unknown),
        }
    }

    /// What is known of the opponent-to-move node `(b, w)` without searching it: joined, the
    /// transposition table, the VC and loss caches.
    #[inline]
    fn opp_known(&self, b: Set, w: Set, depth: u8) -> Option<Res> {
        if self.g.joined(b) {
            return Some(Res::Win(0));
        }
        if let Some(e) = self.tt_opp.get(&(b, w)) {
            match *e {
                Entry::Win { proof, .. } => return Some(Res::Win(proof)),
                Entry::Loss { disproof, .. } => return Some(Res::Loss(disproof)),
                Entry::Shallow { depth: d } if !self.exact_round && d >= depth => {
                    return Some(Res::Shallow)
                }
                Entry::Shallow { .. } => {}
            }
        }
        if let Some(ps) = self.vc_cache.get(&b) {
            if let Some(p) = ps.iter().copied().find(|p| p & w == 0) {
                return Some(Res::Win(p));
            }
        }
        if let Some(q) = Self::cached_loss(&self.loss_cache, b, w)
            .or_else(|| Self::cached_loss(&self.opp_loss_cache, b, w))
        {
            return Some(Res::Loss(q));
        }
        None
    }

    /// Rule 9 at the opponent's node `(b, w)` from the oracle's answer `ans`: the owner's VC
    /// wins (`Err`), else its semi-connections restrict the opponent's candidates `must`
    /// (those used go to `semis`); `Ok` says whether the owner may also pass.
    #[inline]
    fn opp_oracle(
        &mut self,
        b: Set,
        w: Set,
        ans: super::oracle::Answer,
        must: &mut Set,
        semis: &mut Vec<Set>,
    ) -> Result<bool, Res> {
        if let Some(proof) = ans.vc {
            self.store_opp(b, w, Entry::Win { proof, mv: NO_MOVE });
            return Err(Res::Win(proof));
        }
        // Greedily, the semi that removes most of the candidates first; a semi that
        // removes nothing is not needed.
        let mut pool = ans.semis;
        while let Some(i) = (0..pool.len())
            .filter(|&i| *must & !pool[i] != 0)
            .max_by_key(|&i| (*must & !pool[i]).count_ones())
        {
            let s = pool.swap_remove(i);
            *must &= s;
            semis.push(s);
        }
        Ok(self.oracle.as_ref().is_some_and(|o| o.pass_too))
    }

    /// The opponent intrudes at `x` (rule 4): if the owner answers, the candidates `must`
    /// shrink to the answer's proof set, `union` grows by it and `killer` becomes the answer;
    /// otherwise the node is decided (a loss, or not within this depth) and stored.
    #[allow(clippy::too_many_arguments)]
    fn intrude(
        &mut self,
        b: Set,
        w: Set,
        x: usize,
        depth: u8,
        must: &mut Set,
        union: &mut Set,
        answered: &mut Set,
        killer: &mut u8,
    ) -> Result<(), Res> {
        let res = self.owner_node(b, w | 1 << x, *killer, depth);
        self.answered(res, b, w, x, depth, must, union, answered, killer)
    }

    /// Whether rule 11 applies at a node with empty cells `e`.
    fn widens(&self, e: Set) -> bool {
        (self.widen_min_empty..=self.widen_max_empty).contains(&e.count_ones())
    }

    /// Rule 11 (iterative widening by node budgets): runs the child search `f` with at most
    /// `budget` more nodes; `None` when only that budget ran out (the child stays open and
    /// is searched again, with a larger budget, after its siblings). A depth-first search
    /// commits to its first candidate until that candidate is decided, so a wrong first
    /// reply near the root must be refuted completely (often millions of nodes) before the
    /// right one is tried; budgets spread the effort over the siblings, as the thresholds of
    /// df-pn do (Nagai, *Df-pn algorithm for searching AND/OR trees and its applications*,
    /// 2002, §3: a child is searched until its threshold is exceeded, then its siblings get
    /// their turn), with node counts in place of proof numbers. Exact: it only changes the
    /// order in which children are searched; every answer is still given by rules 1–10, and
    /// what a stopped child learnt stays in the table (its decided sub-trees).
    fn budgeted(&mut self, budget: u64, f: impl FnOnce(&mut Self) -> Res) -> Option<Res> {
        let outer = self.soft_limit;
        self.soft_limit = outer.min(self.nodes.saturating_add(budget));
        let r = f(self);
        self.soft_limit = outer;
        if r == Res::Unknown && !self.hard_aborted && self.nodes <= outer {
            self.aborted = false;
            self.widen_stops += 1;
            return None;
        }
        Some(r)
    }

    /// Rule 4 at an opponent-to-move node, after the owner's search of intrusion `x` gave
    /// `res` (see [`Solver::intrude`]).
    #[allow(clippy::too_many_arguments)]
    fn answered(
        &mut self,
        res: Res,
        b: Set,
        w: Set,
        x: usize,
        depth: u8,
        must: &mut Set,
        union: &mut Set,
        answered: &mut Set,
        killer: &mut u8,
    ) -> Result<(), Res> {
        match res {
            Res::Win(p) => {
                *must &= p;
                *union |= p;
                *answered &= p;
                *killer = self.owner_move(b, w | 1 << x);
                Ok(())
            }
            Res::Loss(q) => {
                let disproof = q | 1 << x;
                let mv = x as u8;
                self.store_opp(b, w, Entry::Loss { disproof, mv });
                Err(Res::Loss(disproof))
            }
            Res::Shallow => {
                self.store_opp(b, w, Entry::Shallow { depth });
                Err(Res::Shallow)
            }
            Res::Unknown => Err(Res::Unknown),
        }
    }

    fn store_owner(&mut self, b: Set, w: Set, e: Entry) {
        if let Entry::Loss { disproof, .. } = e {
            push_bounded(self.loss_cache.entry(w).or_default(), disproof);
        }
        self.tt_owner.insert((b, w), e);
    }

    fn store_opp(&mut self, b: Set, w: Set, e: Entry) {
        match e {
            Entry::Win { proof, .. } => push_bounded(self.vc_cache.entry(b).or_default(), proof),
            Entry::Loss { disproof, .. } => {
                push_bounded(self.opp_loss_cache.entry(w).or_default(), disproof)
            }
            Entry::Shallow { .. } => {}
        }
        self.tt_opp.insert((b, w), e);
    }

    /// A cached loss that applies at (b, w): a disproof set avoiding every owner cell.
    fn cached_loss(cache: &HashMap<Set, Vec<Set>>, b: Set, w: Set) -> Option<Set> {
        cache.get(&w)?.iter().copied().find(|q| q & b == 0)
    }

    /// The owner's stored move at an owner-to-move node (its winning reply, or its best try).
    pub fn owner_move(&self, b: Set, w: Set) -> u8 {
        match self.tt_owner.get(&(b, w)) {
            Some(Entry::Win { mv, .. }) | Some(Entry::Loss { mv, .. }) => *mv,
            _ => NO_MOVE,
        }
    }

    /// The opponent's stored refutation at an opponent-to-move node.
    pub fn opp_move(&self, b: Set, w: Set) -> u8 {
        match self.tt_opp.get(&(b, w)) {
            Some(Entry::Loss { mv, .. }) => *mv,
            _ => NO_MOVE,
        }
    }
}

/// Owner components of a position (see [`Solver::chain_connection`]).
struct Comps {
    k: usize,
    cells: [Set; 64],
    groups: [u64; 64],
    nbr: [Set; 64],
}

/// The component graph searched by [`Solver::chain_connection`].
struct ChainCtx<'c> {
    nbr: &'c [Set],
    cells: &'c [Set],
    groups: &'c [u64],
    e: Set,
    templates: &'c [u16],
    all_templates: &'c [super::cells::TemplateLink],
    to: usize,
}

impl ChainCtx<'_> {
    /// Depth-first search for a chain from component `x` to `self.to`; on success `trail`
    /// holds the path's steps and the result is (proof set, number of steps).
    fn dfs(
        &self,
        x: usize,
        used: Set,
        semi: bool,
        visited: &mut u64,
        trail: &mut [Step; TRAIL],
        depth: usize,
    ) -> Option<(Set, usize)> {
        for y in 0..self.nbr.len() {
            if *visited >> y & 1 == 1 {
                continue;
            }
            let common = self.nbr[x] & self.nbr[y] & !used;
            let mut links: [(Set, bool, Link); 4] = [(0, false, Link::Bridge); 4];
            let mut k = 0;
            if common.count_ones() >= 2 {
                let first = common & common.wrapping_neg();
                let rest = common & !first;
                links[k] = (first | (rest & rest.wrapping_neg()), semi, Link::Bridge);
                k += 1;
            } else if common != 0 && semi {
                links[k] = (common, false, Link::Single);
                k += 1;
            }
            for &ti in self.templates {
                let t = &self.all_templates[ti as usize];
                if k == links.len() {
                    break;
                }
                let anchored = match t.anchor {
                    super::cells::Anchor::Cell(i) => self.cells[x] >> i & 1 == 1,
                    super::cells::Anchor::Group(h) => self.groups[x] >> h & 1 == 1,
                };
                if anchored
                    && self.groups[y] >> t.border & 1 == 1
                    && t.carrier & !(self.e & !used) == 0
                {
                    links[k] = (t.carrier, semi, Link::Template(ti));
                    k += 1;
                }
            }
            for &(carrier, semi_left, link) in &links[..k] {
                if depth >= trail.len() {
                    return None;
                }
                trail[depth] = Step {
                    from: x as u8,
                    to: y as u8,
                    carrier,
                    link,
                };
                if y == self.to {
                    return Some((used | carrier, depth + 1));
                }
                *visited |= 1 << y;
                if let Some(p) = self.dfs(y, used | carrier, semi_left, visited, trail, depth + 1) {
                    return Some(p);
                }
                // No backtracking on `visited`: a component that led nowhere once is not retried
                // (this may miss a chain, which only costs search, never soundness).
            }
        }
        None
    }
}

/// How two components of a chain are linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// Two empty cells adjacent to both.
    Bridge,
    /// One empty cell adjacent to both (the owner's key move of a semi-connection).
    Single,
    /// An edge template (index into `Local::templates`).
    Template(u16),
}

/// One link of a chain found by [`Solver::chain`].
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// Component indices.
    pub from: u8,
    /// Component indices.
    pub to: u8,
    /// The link's empty cells.
    pub carrier: Set,
    /// Its kind.
    pub link: Link,
}

impl Default for Step {
    fn default() -> Self {
        Step {
            from: 0,
            to: 0,
            carrier: 0,
            link: Link::Bridge,
        }
    }
}

/// A chain of components joining a goal pair (see [`Solver::chain`]).
#[derive(Clone, Debug)]
pub struct Chain {
    /// Index of the goal pair joined.
    pub pair: usize,
    /// The links, in order from the pair's first end.
    pub steps: Vec<Step>,
    /// Owner cells (local) of each component.
    pub comp_cells: Vec<Set>,
    /// Groups of each component.
    pub comp_groups: Vec<u64>,
}

/// Rule 9 at a won opponent-to-move node: the union of a few of the engine's semis `semis`
/// whose carriers, intersected with `answered` (the intersection of the proof sets of the
/// owner's answers searched at the node), leave nothing. Every opponent move then lies
/// outside one chosen semi (its key answers it) or outside one answer's proof set, so the
/// node's proof set needs only those semis, not all of them: a smaller proof set prunes more
/// above (rule 4). Greedy: the semi that removes most of what is still uncovered first.
/// Returns 0 when `answered` is already empty.
fn needed_semis(semis: &[Set], answered: Set) -> Set {
    let mut left = answered;
    let mut union = 0;
    while left != 0 {
        let Some(&s) = semis
            .iter()
            .filter(|&&s| left & !s != 0)
            .max_by_key(|&&s| ((left & !s).count_ones(), u32::MAX - s.count_ones()))
        else {
            // Cannot happen when the node was won through these semis; keep every one
            // (always a valid proof set).
            return semis.iter().fold(0, |a, &s| a | s);
        };
        left &= s;
        union |= s;
    }
    union
}

/// Keeps the most recent entries of a reuse list.
fn push_bounded(v: &mut Vec<Set>, s: Set) {
    if v.len() >= 8 {
        v.remove(0);
    }
    v.push(s);
}

/// Longest chain recorded (longer chains are not looked for).
const TRAIL: usize = 24;

/// Owner replies per node in the bounded rounds of iterative deepening.
const BEAM: u32 = 6;

/// Marker for "no move".
pub const NONE: u8 = NO_MOVE;

/// Most edge-template instances inside one node's empty cells that rule 6 considers.
const MAX_LINKS: usize = 256;
