//! A Monte Carlo tree search player in the style of MoHex (Arneson, Hayward, Henderson,
//! *Monte Carlo Tree Search in Hex*, IEEE TCIAIG 2010): UCT with RAVE (all-moves-as-first)
//! values, uniformly random playouts that answer an intrusion into a bridge (or an edge
//! bridge) of the player to move, connections and mustplay computed at tree nodes once they
//! have been visited often ([`Config::knowledge_threshold`]), proven wins and losses from
//! the connections propagated up the tree, and the exact solver on a second thread.
//!
//! Playouts fill the whole board; on a full Hex board exactly one player has won, and stones
//! never hurt their owner, so the winner of the filled board is the winner of the playout.

use super::clock::Deadline;
use super::patterns::{Locator, Table};
use super::proven::{candidates, proven_move, root_proven_move, ProvenMove};
use super::{Config, Decision, Report};
use crate::board::{Board, Cell, CellSet, Colour};
use crate::local::Stop;
use crate::position::Position;
use crate::vc::{mustplay, Mustplay, VcSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
/// RAVE equivalence parameter: the RAVE weight is `sqrt(K / (3n + K))`.
const RAVE_K: f64 = 1000.0;
/// Tree size cap (about 32 bytes a node): past it leaves are no longer expanded and the
/// search goes on with playouts from them.
const MAX_TREE_NODES: usize = 4_000_000;
/// UCT exploration constant (small: RAVE does most of the exploring, as in MoHex).
const UCT_C: f64 = 0.25;

fn code(c: Colour) -> u8 {
    match c {
        Colour::Black => BLACK,
        Colour::White => WHITE,
    }
}

fn other(c: u8) -> u8 {
    BLACK + WHITE - c
}

/// Local geometry: cells `0..n` in row order, borders `n..n+4` (top, bottom, left, right).
struct Geometry {
    cols: usize,
    n: usize,
    neigh: Vec<Vec<u16>>,
    /// `bridges[x]`: (end a, end b, other carrier cell y) for every bridge with x in its
    /// carrier; b may be a border (an edge bridge).
    bridges: Vec<Vec<(u16, u16, u16)>>,
}

impl Geometry {
    fn new(board: &Board) -> Geometry {
        let (cols, rows) = (board.cols() as usize, board.rows() as usize);
        let n = cols * rows;
        let idx = |c: Cell| -> u16 {
            match c.as_border() {
                Some(b) => (n + b as usize) as u16,
                None => {
                    let (x, y) = c.coords();
                    (y as usize * cols + x as usize) as u16
                }
            }
        };
        let cell = |i: usize| Cell::at((i % cols) as u8, (i / cols) as u8);
        let mut neigh = vec![Vec::new(); n];
        for (i, v) in neigh.iter_mut().enumerate() {
            *v = board.neighbours(cell(i)).iter().map(idx).collect();
        }
        let mut bridges = vec![Vec::new(); n];
        let all: Vec<Cell> = (0..n)
            .map(cell)
            .chain(crate::board::Border::ALL.iter().map(|&b| Cell::border(b)))
            .collect();
        for a in 0..n {
            let na = board.neighbours(cell(a));
            for &bc in &all {
                let b = idx(bc) as usize;
                if b <= a && b < n {
                    continue;
                }
                if b == a || na.contains(bc) {
                    continue;
                }
                let common: Vec<Cell> = (na & board.neighbours(bc))
                    .iter()
                    .filter(|c| !c.is_border())
                    .collect();
                if common.len() == 2 && board.adjacent(common[0], common[1]) {
                    let (x, y) = (idx(common[0]), idx(common[1]));
                    bridges[x as usize].push((a as u16, b as u16, y));
                    bridges[y as usize].push((a as u16, b as u16, x));
                }
            }
        }
        Geometry {
            cols,
            n,
            neigh,
            bridges,
        }
    }

    fn cell(&self, i: u16) -> Cell {
        Cell::at(
            (i as usize % self.cols) as u8,
            (i as usize / self.cols) as u8,
        )
    }

    fn owner_of(&self, board: &[u8], i: u16) -> u8 {
        let i = i as usize;
        if i < self.n {
            board[i]
        } else if i < self.n + 2 {
            BLACK
        } else {
            WHITE
        }
    }

    /// Black wins the filled board iff its stones join top and bottom.
    fn black_wins(&self, board: &[u8], stack: &mut Vec<u16>, seen: &mut [bool]) -> bool {
        seen.iter_mut().for_each(|s| *s = false);
        stack.clear();
        for c in 0..self.cols {
            if board[c] == BLACK {
                seen[c] = true;
                stack.push(c as u16);
            }
        }
        let top_border = self.n as u16;
        let bottom = top_border + 1;
        while let Some(x) = stack.pop() {
            for &y in &self.neigh[x as usize] {
                if y == bottom {
                    return true;
                }
                let yu = y as usize;
                if yu < self.n && !seen[yu] && board[yu] == BLACK {
                    seen[yu] = true;
                    stack.push(y);
                }
            }
        }
        false
    }
}

/// xorshift64*: fast, seeded, good enough for playouts.
struct Rng(u64);

impl Rng {
    #[inline]
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    #[inline]
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

#[derive(Clone, Copy)]
struct Node {
    cell: u16,
    first_child: u32,
    n_children: u32,
    visits: u32,
    /// Wins of the player who moved into this node.
    wins: f32,
    amaf_visits: u32,
    amaf_wins: f32,
    /// +1: the player who moved into this node wins (proved); −1: loses; 0 unknown.
    proven: i8,
    pruned: bool,
    knowledge: bool,
    /// The learned probability that this move is played ([`super::patterns`]); uniform when
    /// the priors are off.
    prior: f32,
}

impl Node {
    fn new(cell: u16) -> Node {
        Node {
            cell,
            first_child: 0,
            n_children: 0,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
            proven: 0,
            pruned: false,
            knowledge: false,
            prior: 0.0,
        }
    }
}

struct Search<'a> {
    config: &'a Config,
    geo: Geometry,
    board: Board,
    root_board: Vec<u8>,
    nodes: Vec<Node>,
    rng: Rng,
    // Scratch.
    work: Vec<u8>,
    empties: Vec<u16>,
    where_: Vec<u32>,
    path: Vec<u32>,
    stack: Vec<u16>,
    seen: Vec<bool>,
    vc_time: Duration,
    playouts: u64,
    /// The learned move priors and where their patterns lie on this board.
    priors: Option<(&'static Table, Locator)>,
}

impl<'a> Search<'a> {
    /// The search of `position`: the root expanded, its children outside `cands` (the
    /// mustplay) pruned.
    fn at_root(
        config: &'a Config,
        position: &Position,
        to_move: Colour,
        cands: CellSet,
        vc_time: Duration,
    ) -> Search<'a> {
        let board = *position.board();
        let geo = Geometry::new(&board);
        let n = geo.n;
        let mut root_board = vec![EMPTY; n];
        for i in 0..n {
            root_board[i] = match position.colour_at(geo.cell(i as u16)) {
                Some(c) => code(c),
                None => EMPTY,
            };
        }
        let mut s = Search {
            config,
            geo,
            board,
            root_board: root_board.clone(),
            nodes: vec![Node::new(u16::MAX)],
            rng: Rng(config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
            work: root_board,
            empties: Vec::with_capacity(n),
            where_: vec![0; n],
            path: Vec::new(),
            stack: Vec::new(),
            seen: vec![false; n],
            vc_time,
            playouts: 0,
            priors: config
                .priors
                .then(|| (Table::builtin(), Locator::new(&board))),
        };
        // Root children: mustplay only.
        s.expand(0, code(to_move));
        s.nodes[0].knowledge = true;
        for k in 1..s.nodes.len() {
            if !cands.contains(s.geo.cell(s.nodes[k].cell)) {
                s.nodes[k].pruned = true;
            }
        }
        s
    }

    fn position_of(&self, cells: &[u8]) -> Position {
        let (mut b, mut w) = (CellSet::EMPTY, CellSet::EMPTY);
        for (i, &c) in cells.iter().enumerate() {
            match c {
                BLACK => b.insert(self.geo.cell(i as u16)),
                WHITE => w.insert(self.geo.cell(i as u16)),
                _ => false,
            };
        }
        Position::new(self.board, b, w).expect("disjoint stones")
    }

    /// Adds the children of `id` (every empty cell), where `to_move` is to play, with their
    /// priors.
    fn expand(&mut self, id: u32, to_move: u8) {
        let first = self.nodes.len() as u32;
        let mut count = 0;
        let mover = if to_move == BLACK {
            Colour::Black
        } else {
            Colour::White
        };
        let mut total = 0.0f32;
        for i in 0..self.geo.n {
            if self.work[i] == EMPTY {
                let mut node = Node::new(i as u16);
                node.prior = match &self.priors {
                    Some((t, loc)) => t.gamma(loc.keys(&self.work, mover, i)),
                    None => 1.0,
                };
                total += node.prior;
                self.nodes.push(node);
                count += 1;
            }
        }
        if total > 0.0 {
            for node in &mut self.nodes[first as usize..] {
                node.prior /= total;
            }
        }
        let n = &mut self.nodes[id as usize];
        n.first_child = first;
        n.n_children = count;
    }

    /// Connections at a node visited often: proven values and mustplay pruning.
    fn knowledge(&mut self, id: u32, to_move: u8) {
        self.nodes[id as usize].knowledge = true;
        let pos = self.position_of(&self.work);
        let params = self.config.vc_params(self.vc_time);
        let me = if to_move == BLACK {
            Colour::Black
        } else {
            Colour::White
        };
        let own = VcSet::build(&pos, me, params.clone());
        if !own.winning_vcs().is_empty() || !own.winning_vscs().is_empty() {
            self.nodes[id as usize].proven = -1;
            return;
        }
        let opp = VcSet::build(&pos, me.opponent(), params);
        match mustplay(&opp) {
            Mustplay::Lost { .. } => self.nodes[id as usize].proven = 1,
            Mustplay::Restricted(m) => {
                let n = self.nodes[id as usize];
                for k in n.first_child..n.first_child + n.n_children {
                    let c = self.geo.cell(self.nodes[k as usize].cell);
                    if !m.contains(c) {
                        self.nodes[k as usize].pruned = true;
                    }
                }
            }
            Mustplay::Unrestricted => {}
        }
    }

    /// Picks a child by UCT-RAVE; also proves the node from its children's proofs.
    fn select(&mut self, id: u32) -> Option<u32> {
        let n = self.nodes[id as usize];
        let ln = ((n.visits + 1) as f64).ln();
        let pb = if self.priors.is_some() {
            self.config.prior_weight
        } else {
            0.0
        };
        let mut best = None;
        let mut best_v = f64::NEG_INFINITY;
        let mut open = 0;
        for k in n.first_child..n.first_child + n.n_children {
            let c = &self.nodes[k as usize];
            if c.pruned {
                continue;
            }
            if c.proven == 1 {
                // The player to move here wins by moving to c.
                self.nodes[id as usize].proven = -1;
                return Some(k);
            }
            if c.proven == -1 {
                continue;
            }
            open += 1;
            let rave = if c.amaf_visits > 0 {
                c.amaf_wins as f64 / c.amaf_visits as f64
            } else {
                0.5
            };
            // Progressive bias from the learned priors: large for a likely move, fading as
            // the move is visited.
            let bias = pb * (c.prior as f64 / (c.visits as f64 + 1.0)).sqrt();
            let v = if c.visits == 0 {
                rave + 1.0 + bias
            } else {
                let q = c.wins as f64 / c.visits as f64;
                let beta = (RAVE_K / (3.0 * c.visits as f64 + RAVE_K)).sqrt();
                (1.0 - beta) * q + beta * rave + UCT_C * (ln / c.visits as f64).sqrt() + bias
            };
            if v > best_v {
                best_v = v;
                best = Some(k);
            }
        }
        if open == 0 {
            // Every move loses: the player who moved here wins.
            self.nodes[id as usize].proven = 1;
            return None;
        }
        best
    }

    fn iterate(&mut self, root_to_move: u8) {
        self.work.copy_from_slice(&self.root_board);
        self.path.clear();
        let mut id = 0u32;
        let mut to_move = root_to_move;
        self.path.push(0);
        // Descent.
        let forced: Option<u8> = loop {
            let node = self.nodes[id as usize];
            if node.proven != 0 {
                // Winner known: the mover into this node if +1.
                let mover = other(to_move);
                break Some(if node.proven == 1 { mover } else { to_move });
            }
            if node.n_children == 0 {
                if (node.visits >= 1 && self.nodes.len() < MAX_TREE_NODES) || id == 0 {
                    self.expand(id, to_move);
                    if self.nodes[id as usize].n_children == 0 {
                        break None; // full board
                    }
                } else {
                    break None;
                }
            }
            if !node.knowledge && node.visits >= self.config.knowledge_threshold {
                self.knowledge(id, to_move);
                if self.nodes[id as usize].proven != 0 {
                    continue;
                }
            }
            match self.select(id) {
                Some(k) => {
                    let cell = self.nodes[k as usize].cell;
                    self.work[cell as usize] = to_move;
                    id = k;
                    self.path.push(k);
                    to_move = other(to_move);
                }
                None => continue,
            }
        };
        let winner = match forced {
            Some(w) => {
                self.fill_random(to_move, None);
                w
            }
            None => {
                let last = self.nodes[id as usize].cell;
                let last = if id == 0 { None } else { Some(last) };
                self.fill_random(to_move, last);
                self.playouts += 1;
                if self
                    .geo
                    .black_wins(&self.work, &mut self.stack, &mut self.seen)
                {
                    BLACK
                } else {
                    WHITE
                }
            }
        };
        // Backup, with AMAF for the children of every node on the path.
        let mut mover = other(root_to_move); // who moved into the root
        for i in 0..self.path.len() {
            let nid = self.path[i];
            let n = &mut self.nodes[nid as usize];
            n.visits += 1;
            if winner == mover {
                n.wins += 1.0;
            }
            let to_play = other(mover);
            let (f, c) = (n.first_child, n.n_children);
            for k in f..f + c {
                let ch = &mut self.nodes[k as usize];
                if self.work[ch.cell as usize] == to_play {
                    ch.amaf_visits += 1;
                    if winner == to_play {
                        ch.amaf_wins += 1.0;
                    }
                }
            }
            mover = to_play;
        }
    }

    /// Fills every empty cell, answering bridge intrusions.
    fn fill_random(&mut self, mut to_move: u8, mut last: Option<u16>) {
        self.empties.clear();
        for i in 0..self.geo.n {
            if self.work[i] == EMPTY {
                self.where_[i] = self.empties.len() as u32;
                self.empties.push(i as u16);
            }
        }
        while !self.empties.is_empty() {
            let mut mv = None;
            if let Some(x) = last {
                let mut k = 0;
                for &(a, b, y) in &self.geo.bridges[x as usize] {
                    if self.work[y as usize] == EMPTY
                        && self.geo.owner_of(&self.work, a) == to_move
                        && self.geo.owner_of(&self.work, b) == to_move
                    {
                        k += 1;
                        // Reservoir choice among the threatened bridges.
                        if self.rng.below(k) == 0 {
                            mv = Some(y);
                        }
                    }
                }
            }
            let m = match mv {
                Some(y) => y,
                None => self.empties[self.rng.below(self.empties.len())],
            };
            let at = self.where_[m as usize] as usize;
            let tail = *self.empties.last().expect("non-empty");
            self.empties.swap_remove(at);
            if (at) < self.empties.len() {
                self.where_[tail as usize] = at as u32;
            }
            self.work[m as usize] = to_move;
            last = Some(m);
            to_move = other(to_move);
        }
    }
}

/// Generates a move (see the module docs).
pub fn genmove(
    config: &Config,
    position: &Position,
    to_move: Colour,
    time: Duration,
    hint: Option<CellSet>,
) -> Report {
    let deadline = Deadline::start(config.clock, time);
    // Root connections: proven win, mustplay.
    let root_params = {
        let mut p = config.vc_params(deadline.wall_limit(time / 4));
        p.stop_at_win = false;
        p
    };
    let (own, opp) = if config.uses_vcs() {
        (
            Some(VcSet::build(position, to_move, root_params.clone())),
            Some(VcSet::build(position, to_move.opponent(), root_params)),
        )
    } else {
        (None, None)
    };
    if let Some(pm) = root_proven_move(
        config,
        position,
        to_move,
        own.as_ref(),
        hint,
        &deadline,
        time,
    ) {
        return proven_report(pm, 0);
    }
    let (cands, lost) = candidates(position, opp.as_ref());
    if lost && config.resign {
        return Report {
            decision: Decision::Resign,
            proven_win: false,
            proven_loss: true,
            proof_set: None,
            nodes: 0,
            info: "opponent has a winning VC".into(),
        };
    }
    let vc_time = deadline.wall_limit((time / 50).min(Duration::from_millis(100)));
    let mut s = Search::at_root(config, position, to_move, cands, vc_time);
    let me = code(to_move);
    let solver_time = deadline.wall_limit(deadline.remaining());
    let empty = position.empty_cells();
    let use_solver = config.solver_thread && empty.len() <= super::proven::MAX_LOCAL;
    // The exact solver runs on a thread of its own that is never joined: the move is due at
    // the deadline whatever the solver is doing. It is cancelled, not waited for: its time
    // budget ends at the move's deadline (`due`, an instant fixed here, not when the thread
    // happens to start), and `_cancel` sets its stop flag when this function returns, which
    // the exact search checks every 1024 nodes ([`crate::local::Budget::stop`]), so the
    // thread stops using the CPU once the move is chosen. `solved` is set after a result is
    // sent; an answer that comes too late is dropped with the channel.
    let solved = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(Stop::new());
    let _cancel = CancelOnDrop(Arc::clone(&stop));
    let (tx, rx) = std::sync::mpsc::channel::<ProvenMove>();
    if use_solver {
        let due = Instant::now() + solver_time;
        let (position, solved, stop) = (position.clone(), Arc::clone(&solved), Arc::clone(&stop));
        std::thread::spawn(move || {
            let left = due.saturating_duration_since(Instant::now());
            if stop.is_set() || left.is_zero() {
                return;
            }
            let r = proven_move(
                &position,
                to_move,
                None,
                None,
                usize::MAX,
                u64::MAX,
                left,
                Some(stop.flag()),
            );
            if let Some(pm) = r {
                if tx.send(pm).is_ok() {
                    solved.store(true, Ordering::Release);
                }
            }
        });
    }
    let mut i = 0u64;
    loop {
        s.iterate(me);
        i += 1;
        if s.nodes[0].proven != 0 {
            break;
        }
        if i.is_multiple_of(64) && (deadline.expired() || solved.load(Ordering::Acquire)) {
            break;
        }
    }
    let solver_result = rx.try_recv().ok();
    if let Some(pm) = solver_result {
        return proven_report(pm, s.playouts);
    }
    choose(&s, lost, &deadline)
}

/// The most visited move after exactly `playouts` iterations of the search (no connections,
/// no solver, no clock): the same seed gives the same move on any machine (the self-play
/// games of [`super::patterns::train`]). `position` must not be over.
pub fn playout_move(config: &Config, position: &Position, to_move: Colour, playouts: u64) -> Cell {
    let config = Config {
        knowledge_threshold: u32::MAX,
        ..config.clone()
    };
    let mut s = Search::at_root(
        &config,
        position,
        to_move,
        position.empty_cells(),
        Duration::ZERO,
    );
    let me = code(to_move);
    for _ in 0..playouts.max(1) {
        s.iterate(me);
        if s.nodes[0].proven != 0 {
            break;
        }
    }
    let root = s.nodes[0];
    let best = (root.first_child..root.first_child + root.n_children)
        .max_by_key(|&k| (s.nodes[k as usize].visits, std::cmp::Reverse(k)))
        .expect("a position that is not over has an empty cell");
    s.geo.cell(s.nodes[best as usize].cell)
}

/// Sets the solver thread's stop flag when dropped (when `genmove` returns).
struct CancelOnDrop(Arc<Stop>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.set();
    }
}

/// The move after the search: a proven child, else the most visited.
fn choose(s: &Search, lost: bool, deadline: &Deadline) -> Report {
    let root = s.nodes[0];
    let kids = root.first_child..root.first_child + root.n_children;
    let proven = kids
        .clone()
        .find(|&k| s.nodes[k as usize].proven == 1 && !s.nodes[k as usize].pruned);
    let best = proven.or_else(|| {
        kids.clone()
            .filter(|&k| !s.nodes[k as usize].pruned)
            .max_by_key(|&k| (s.nodes[k as usize].visits, std::cmp::Reverse(k)))
    });
    let Some(best) = best else {
        return Report {
            decision: Decision::Resign,
            proven_win: false,
            proven_loss: true,
            proof_set: None,
            nodes: s.playouts,
            info: "no move".into(),
        };
    };
    let b = s.nodes[best as usize];
    let winrate = if b.visits > 0 {
        b.wins as f64 / b.visits as f64
    } else {
        0.0
    };
    Report {
        decision: Decision::Play(s.geo.cell(b.cell)),
        proven_win: false,
        proven_loss: lost || root.proven == -1,
        proof_set: None,
        nodes: s.playouts,
        info: format!(
            "playouts {} visits {} winrate {:.3}{} in {} ms",
            s.playouts,
            b.visits,
            winrate,
            if b.proven == 1 {
                " (connection win)"
            } else {
                ""
            },
            deadline.used().as_millis()
        ),
    }
}

fn proven_report(pm: ProvenMove, nodes: u64) -> Report {
    Report {
        decision: Decision::Play(pm.cell),
        proven_win: true,
        proven_loss: false,
        proof_set: Some(pm.proof_set),
        nodes,
        info: pm.info().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;

    #[test]
    fn bridges_and_edge_bridges_are_found() {
        let b = Board::square(5).unwrap();
        let g = Geometry::new(&b);
        // c3 is in the carrier of bridges b3–c2? Count: an interior cell lies in 6 bridge
        // carriers (each pair of its adjacent neighbours around it is not a bridge carrier —
        // the carrier pair is {x, y} adjacent with two common neighbours).
        let c3 = 2 * 5 + 2;
        assert!(!g.bridges[c3].is_empty());
        // An edge bridge: a Black stone at c2 (row 2) reaches the top through c1 and d1.
        let c1 = 2u16;
        let c2 = 5 + 2;
        assert!(g.bridges[c1 as usize]
            .iter()
            .any(|&(a, bb, y)| a == c2 as u16 && bb == 25 && y == 3));
    }

    #[test]
    fn playouts_fill_the_board_and_decide() {
        let p =
            Position::from_names(Board::square(5).unwrap(), "c3", "", Notation::Letters).unwrap();
        let cfg = Config {
            solver_thread: false,
            ..Config::default()
        };
        let r = genmove(&cfg, &p, Colour::White, Duration::from_millis(200), None);
        assert!(matches!(r.decision, Decision::Play(_)));
        assert!(r.nodes > 0 || r.proven_win, "{}", r.info);
    }
}
