//! HEXY's selective alpha-beta (Anshelevich 2002 §6): depth D, connections from H-search
//! with limits M and K at every node, the circuit evaluation of §5 at the leaves, moves
//! ordered by cell energy and cut to the best `width` of them, and mustplay pruning.
//!
//! A node where the side to move has a winning VC or VSC is a win, one where the opponent has
//! a winning VC a loss (connections are sound, so these values are exact); wins found nearer
//! the root score higher. Iterative deepening from depth 1 to D keeps the best move of the
//! last finished depth when time runs out. M = 0 is HEXY's "no virtual connections except
//! pairs of neighbouring cells": no connection engine, no mustplay, plain circuits.
//!
//! With [`Config::ab_vc_plies`] = P the connections are built only at the root and the nodes
//! down to ply P, and the nodes below such a node (its "root" here) keep its connections as
//! far as they still hold: a connection of a colour stays while no opponent stone played since
//! that root lies in its carrier (the owner's own stones only help). At a node
//! the surviving winning VCs and VSCs give the exact values as above, the opponent's
//! surviving winning VSCs restrict the moves (their carriers' intersection; an empty one is a
//! loss), and the surviving VC pairs are the circuit's links. Connections that the new stones
//! would create are missed, so the values are heuristic but a node costs two circuit solves
//! instead of two connection builds (about 0.3 ms against 10 ms at 11×11), and the search
//! goes several plies deeper in the same time. A table of the best move found at each
//! position orders the moves of the next iteration (Wolve's iterative deepening).
//!
//! With [`Config::ab_incremental`] both colours' connections are built once at the root and
//! updated along the search path instead (the engine's undoable play on the way down, undo on
//! the way back): every node reads fresh connections of its own position, as with a rebuild,
//! for the cost of an update (2.5–3× the nodes of the rebuilding search at 11×11).
//! With [`Config::ab_kept_plies`] = K as well, the last K plies are not updated: a node with
//! K plies left turns its path connections into kept links, and its subtree is judged by
//! the rule of `ab_vc_plies` above (surviving carriers, circuit on the surviving VC pairs).
//! At depth D most nodes lie in the last two plies, so the search buys a ply at the price of
//! exactness there (the connections the last K moves create are missed).
//!
//! With [`Config::inferior`] (on by default) the root fills in its inferior cells as the MCTS
//! root does (dead cells and captured pairs): the filled cells are not root moves, and the
//! search runs on the filled position, which has the same value.

use super::clock::Deadline;
use super::mcts::root_fill;
use super::proven::{candidates, root_proven_move};
use super::{Config, Decision, Report};
use crate::board::{Cell, CellSet, Colour};
use crate::eval::{evaluate, evaluate_pairs, Evaluation};
use crate::position::Position;
use crate::vc::{VcParams, VcSet};
use std::collections::HashMap;
use std::time::Duration;

/// Score of a won position (circuit scores stay within ±30).
pub const WIN: f64 = 1000.0;

/// One colour's root connections, kept for the nodes below the root.
struct RootLinks {
    /// Endpoint pairs joined by at least one VC, with every stored VC carrier.
    pairs: Vec<(Cell, Cell, Vec<CellSet>)>,
    /// Winning VC carriers.
    win_vcs: Vec<CellSet>,
    /// Winning VSC carriers.
    win_vscs: Vec<CellSet>,
}

impl RootLinks {
    fn new(v: &VcSet) -> RootLinks {
        RootLinks {
            pairs: v
                .vc_pairs()
                .into_iter()
                .map(|(x, y)| (x, y, v.vcs(x, y)))
                .collect(),
            win_vcs: v.winning_vcs(),
            win_vscs: v.winning_vscs(),
        }
    }

    /// The pairs with a carrier that no cell of `hit` (the opponent's stones played since
    /// the root) enters, each with the number of empty cells common to its surviving
    /// carriers (as [`VcSet::vc_pairs_overlap`] counts them).
    fn pairs_avoiding(&self, hit: CellSet, empty: CellSet) -> Vec<(Cell, Cell, usize)> {
        let mut out = Vec::with_capacity(self.pairs.len());
        for (x, y, carriers) in &self.pairs {
            let mut common: Option<CellSet> = None;
            for c in carriers.iter().filter(|c| (**c & hit).is_empty()) {
                common = Some(match common {
                    None => *c,
                    Some(k) => k & *c,
                });
            }
            if let Some(k) = common {
                out.push((*x, *y, (k & empty).len()));
            }
        }
        out
    }

    /// A winning VC whose carrier `hit` does not enter.
    fn wins(&self, hit: CellSet) -> bool {
        self.win_vcs.iter().any(|c| (*c & hit).is_empty())
    }

    /// A winning VSC whose carrier `hit` does not enter.
    fn wins_moving_first(&self, hit: CellSet) -> bool {
        self.win_vscs.iter().any(|c| (*c & hit).is_empty())
    }

    /// The opponent's mustplay: the intersection of the surviving winning VSC carriers with
    /// `empty` (None when no winning VSC survives).
    fn mustplay(&self, hit: CellSet, empty: CellSet) -> Option<CellSet> {
        let mut m: Option<CellSet> = None;
        for c in self.win_vscs.iter().filter(|c| (**c & hit).is_empty()) {
            m = Some(m.unwrap_or(empty) & *c);
        }
        m
    }
}

/// The connections and stones (`[Black, White]`) of the nearest node above with built
/// connections, for [`Config::ab_vc_plies`].
struct Root {
    links: [RootLinks; 2],
    stones: [CellSet; 2],
}

impl Root {
    /// `b`, `w`: Black's and White's connections in `position`.
    fn new(position: &Position, b: &VcSet, w: &VcSet) -> Root {
        Root {
            links: [RootLinks::new(b), RootLinks::new(w)],
            stones: [
                position.stones(Colour::Black),
                position.stones(Colour::White),
            ],
        }
    }
}

fn slot(c: Colour) -> usize {
    match c {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

struct Searcher<'a> {
    config: &'a Config,
    params: VcParams,
    deadline: Deadline,
    aborted: bool,
    nodes: u64,
    pool: Vec<Option<(VcSet, VcSet)>>,
    /// The kept connections of the nodes on the path at ply `ab_vc_plies` (or the root).
    roots: Vec<Root>,
    /// Best move found at each position (by its stones), tried first next time.
    best: HashMap<(CellSet, CellSet), Cell>,
    /// With [`Config::ab_incremental`]: Black's and White's connections of the node being
    /// searched, updated along the path (`play_undoable` on the way down, `unplay` back up).
    path: Option<(VcSet, VcSet)>,
    /// A node's share of the move for its builds or updates (on the move's clock), capped at
    /// each node by what the move has left ([`Deadline::within`]).
    node_share: Duration,
}

/// What a node knows before its children are searched.
enum Node {
    /// Exact value.
    Value(f64),
    /// Evaluation and candidate moves, best first.
    Open(f64, Vec<Cell>),
}

/// Exact value or evaluation and candidates of a node from both colours' connections `b`,
/// `w` (fresh for `pos`): a winning VC or VSC of the side to move is a win, a winning VC of
/// the opponent a loss (`win`: the value of a win here); otherwise the circuit evaluation and
/// the cells the opponent's winning VSCs leave (mustplay).
fn judge(
    pos: &Position,
    to_move: Colour,
    win: f64,
    b: &VcSet,
    w: &VcSet,
    links: crate::eval::VcLinks,
) -> Result<(Evaluation, CellSet), f64> {
    let (own, opp) = match to_move {
        Colour::Black => (b, w),
        Colour::White => (w, b),
    };
    if !own.winning_vcs().is_empty() || !own.winning_vscs().is_empty() {
        return Err(win - 1.0);
    }
    if !opp.winning_vcs().is_empty() {
        return Err(-(win - 2.0));
    }
    Ok((
        evaluate(pos, Some((b, w)), links),
        candidates(pos, Some(opp)).0,
    ))
}

impl Searcher<'_> {
    /// Plays `m` for `colour` on `pos` and, with [`Config::ab_incremental`], updates both
    /// colours' path connections (undone by [`Searcher::undo`]).
    /// `child_depth`: the depth left at the node the move leads to; the last
    /// [`Config::ab_kept_plies`] plies are not updated (they keep their ancestor's links).
    fn play(&mut self, pos: &mut Position, colour: Colour, m: Cell, child_depth: u32) {
        pos.play(colour, m)
            .expect("candidate moves are empty cells");
        if self.kept_below(child_depth) {
            return;
        }
        let t = Some(self.deadline.within(self.node_share));
        if let Some((b, w)) = self.path.as_mut() {
            b.set_time_budget(t);
            w.set_time_budget(t);
            b.play_undoable(colour, m)
                .expect("the path connections follow the position");
            w.play_undoable(colour, m)
                .expect("the path connections follow the position");
        }
    }

    /// Takes back `m` played by [`Searcher::play`].
    fn undo(&mut self, pos: &mut Position, m: Cell, child_depth: u32) {
        pos.clear(m);
        if self.kept_below(child_depth) {
            return;
        }
        if let Some((b, w)) = self.path.as_mut() {
            b.unplay();
            w.unplay();
        }
    }

    /// Whether a node with `depth` plies left keeps its ancestor's links instead of updated
    /// path connections ([`Config::ab_kept_plies`]).
    fn kept_below(&self, depth: u32) -> bool {
        self.path.is_some() && depth < self.config.ab_kept_plies
    }

    /// With [`Config::ab_kept_plies`]: at a node with `depth` plies left whose children keep
    /// links but which does not itself (always so at the search root, `at_root`), the path
    /// connections (of this node) become the links its subtree keeps, pushed on `roots` (the
    /// caller truncates it).
    fn keep_links_for_children(&mut self, pos: &Position, depth: u32, at_root: bool) {
        if depth == 0 || !self.kept_below(depth - 1) || (!at_root && self.kept_below(depth)) {
            return;
        }
        let (b, w) = self
            .path
            .as_ref()
            .expect("kept_below implies path connections");
        let root = Root::new(pos, b, w);
        self.roots.push(root);
    }

    fn take_pool(&mut self, ply: usize) -> (VcSet, VcSet) {
        while self.pool.len() <= ply {
            self.pool.push(None);
        }
        self.pool[ply].take().unwrap_or_else(|| {
            (
                VcSet::new(Colour::Black, self.params.clone()),
                VcSet::new(Colour::White, self.params.clone()),
            )
        })
    }

    /// Connections, exact values, evaluation, ordered candidates. `leaf`: no child will be
    /// searched (the connections are not kept for the nodes below).
    fn expand(
        &mut self,
        pos: &Position,
        to_move: Colour,
        ply: usize,
        width: usize,
        leaf: bool,
        kept_links: bool,
    ) -> Node {
        let win = WIN - ply as f64;
        if let Some(w) = pos.winner() {
            return Node::Value(if w == to_move { win } else { -win });
        }
        let ev: Evaluation;
        let cands: CellSet;
        let kept = if (ply > self.config.ab_vc_plies as usize && self.path.is_none()) || kept_links
        {
            self.roots.last()
        } else {
            None
        };
        if let (Some((b, w)), None) = (self.path.as_ref(), kept) {
            match judge(pos, to_move, win, b, w, self.config.links) {
                Ok((e, c)) => {
                    ev = e;
                    cands = c;
                }
                Err(v) => return Node::Value(v),
            }
        } else if let Some(root) = kept {
            let empty = pos.empty_cells();
            // Stones of each colour played since the root: they break the other colour's
            // carriers.
            let new = [
                pos.stones(Colour::Black) - root.stones[0],
                pos.stones(Colour::White) - root.stones[1],
            ];
            let (me, op) = (slot(to_move), slot(to_move.opponent()));
            let own = &root.links[me];
            let opp = &root.links[op];
            if own.wins(new[op]) || own.wins_moving_first(new[op]) {
                return Node::Value(win - 1.0);
            }
            if opp.wins(new[me]) {
                return Node::Value(-(win - 2.0));
            }
            cands = match opp.mustplay(new[me], empty) {
                // Two opponent threats with no common cell: every move lets one through.
                Some(m) if m.is_empty() => return Node::Value(-(win - 2.0)),
                Some(m) => m,
                None => empty,
            };
            let pb = root.links[0].pairs_avoiding(new[1], empty);
            let pw = root.links[1].pairs_avoiding(new[0], empty);
            ev = evaluate_pairs(pos, (&pb, &pw), self.config.links);
        } else if self.config.uses_vcs() {
            let (mut b, mut w) = self.take_pool(ply);
            let t = Some(self.deadline.within(self.node_share));
            b.set_time_budget(t);
            w.set_time_budget(t);
            b.rebuild(pos);
            w.rebuild(pos);
            match judge(pos, to_move, win, &b, &w, self.config.links) {
                Ok((e, c)) => {
                    ev = e;
                    cands = c;
                }
                Err(v) => {
                    self.pool[ply] = Some((b, w));
                    return Node::Value(v);
                }
            }
            if ply == self.config.ab_vc_plies as usize && !leaf {
                // The nodes below keep these connections (popped by `negamax`).
                self.roots.push(Root::new(pos, &b, &w));
            }
            self.pool[ply] = Some((b, w));
        } else {
            ev = evaluate(pos, None, self.config.links);
            cands = pos.empty_cells();
        }
        let mut moves = order(self.config, &ev, cands);
        moves.truncate(width.max(1));
        if let Some(&b) = self
            .best
            .get(&(pos.stones(Colour::Black), pos.stones(Colour::White)))
        {
            if cands.contains(b) {
                moves.retain(|&x| x != b);
                moves.insert(0, b);
            }
        }
        Node::Open(ev.score(to_move), moves)
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        to_move: Colour,
        depth: u32,
        mut alpha: f64,
        beta: f64,
        ply: usize,
    ) -> f64 {
        self.nodes += 1;
        // Every node: a node costs two connection builds, far more than reading the clock,
        // and checking only every k-th node let the search overrun its budget by k nodes.
        if self.deadline.expired() {
            self.aborted = true;
        }
        if self.aborted {
            return 0.0;
        }
        let roots = self.roots.len();
        let kept = self.kept_below(depth);
        let (score, moves) =
            match self.expand(pos, to_move, ply, self.config.width, depth == 0, kept) {
                Node::Value(v) => return v,
                Node::Open(s, m) => (s, m),
            };
        if depth == 0 || moves.is_empty() {
            self.roots.truncate(roots);
            return score;
        }
        self.keep_links_for_children(pos, depth, false);
        let mut best = f64::NEG_INFINITY;
        let mut best_move = None;
        for m in moves {
            self.play(pos, to_move, m, depth - 1);
            let v = -self.negamax(pos, to_move.opponent(), depth - 1, -beta, -alpha, ply + 1);
            self.undo(pos, m, depth - 1);
            if self.aborted {
                self.roots.truncate(roots);
                return 0.0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        self.roots.truncate(roots);
        if let Some(m) = best_move {
            self.best
                .insert((pos.stones(Colour::Black), pos.stones(Colour::White)), m);
        }
        best
    }

    /// Iterative deepening at the root over `root_moves` (not empty): the best move of the
    /// last iteration finished in time (the first move if none), its value and that depth.
    fn deepen(
        &mut self,
        position: &Position,
        to_move: Colour,
        mut root_moves: Vec<Cell>,
    ) -> (Cell, f64, u32) {
        let mut best = root_moves[0];
        let mut best_value = f64::NAN;
        let mut depth_done = 0;
        let mut pos = position.clone();
        for d in 1..=self.config.depth.max(1) {
            let mut alpha = f64::NEG_INFINITY;
            let mut iter_best = None;
            let roots = self.roots.len();
            self.keep_links_for_children(&pos, d, true);
            for &m in &root_moves {
                self.play(&mut pos, to_move, m, d - 1);
                let v = -self.negamax(
                    &mut pos,
                    to_move.opponent(),
                    d - 1,
                    f64::NEG_INFINITY,
                    -alpha,
                    1,
                );
                self.undo(&mut pos, m, d - 1);
                if self.aborted {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    iter_best = Some(m);
                }
            }
            self.roots.truncate(roots);
            if self.aborted {
                break;
            }
            if let Some(m) = iter_best {
                best = m;
                best_value = alpha;
                depth_done = d;
                // Best move first in the next iteration.
                root_moves.retain(|&x| x != m);
                root_moves.insert(0, m);
            }
            if alpha >= WIN - 10.0 {
                break;
            }
        }
        (best, best_value, depth_done)
    }
}

/// `cands` ordered best first by the cell score [`Config::ab_order_flow`] chooses.
fn order(config: &Config, ev: &Evaluation, cands: CellSet) -> Vec<Cell> {
    if config.ab_order_flow {
        ev.ordered_moves_by_flow(cands)
    } else {
        ev.ordered_moves(cands)
    }
}

/// The connection parameters of the search below the root: `params` with
/// [`Config::ab_semi_limit`] for the inner pairs and [`Config::ab_edge_semi_limit`] for the
/// pairs with a border endpoint (the root keeps the uncapped lists that its proven-win checks
/// need).
fn search_params(config: &Config, params: &VcParams) -> VcParams {
    let mut p = params.clone();
    if config.ab_semi_limit > 0 {
        p.semi_limit = Some(config.ab_semi_limit);
        p.edge_semi_limit = Some(match config.ab_edge_semi_limit {
            0 => usize::MAX,
            n => n,
        });
    }
    p
}

/// The connection parameters of the search below the root for a per-build budget `time`,
/// as [`genmove`] sets them (for measurements of the search's builds and updates).
pub fn search_vc_params(config: &Config, time: Duration) -> VcParams {
    search_params(config, &config.vc_params(time))
}

/// Generates a move (see the module docs). `time` bounds the whole call.
pub fn genmove(
    config: &Config,
    position: &Position,
    to_move: Colour,
    time: Duration,
    hint: Option<CellSet>,
) -> Report {
    let deadline = Deadline::start(config.clock, time);
    // A node's builds and updates: a tenth of the move, at most 0.5 s (the search reads the
    // clock at every node and caps each node's builds by what is left, `Searcher::node_share`).
    let per_node = (time / 10).min(Duration::from_millis(500));
    let params = config.vc_params(deadline.wall_limit(per_node));
    let mut s = Searcher {
        config,
        params: search_params(config, &params),
        deadline,
        aborted: false,
        nodes: 0,
        pool: Vec::new(),
        roots: Vec::new(),
        best: HashMap::new(),
        path: None,
        node_share: per_node,
    };
    // Root: connections, proven win, mustplay.
    let (mut own, opp) = if config.uses_vcs() {
        let mut root = params.clone();
        root.stop_at_win = false;
        // Each colour's build gets a quarter of the move, capped by what is left.
        root.budget.time = Some(deadline.within(time / 4));
        let b = VcSet::build(position, Colour::Black, root.clone());
        root.budget.time = Some(deadline.within(time / 4));
        let w = VcSet::build(position, Colour::White, root);
        match to_move {
            Colour::Black => (Some(b), Some(w)),
            Colour::White => (Some(w), Some(b)),
        }
    } else {
        (None, None)
    };
    if let Some(pm) = root_proven_move(
        config,
        position,
        to_move,
        own.as_mut(),
        hint,
        &deadline,
        time,
    ) {
        return Report {
            decision: Decision::Play(pm.cell),
            proven_win: true,
            proven_loss: false,
            proof_set: Some(pm.proof_set),
            nodes: 0,
            info: pm.info().into(),
        };
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
    let ev = match (&own, &opp) {
        (Some(o), Some(p)) => {
            let (b, w) = if to_move == Colour::Black {
                (o, p)
            } else {
                (p, o)
            };
            evaluate(position, Some((b, w)), config.links)
        }
        _ => evaluate(position, None, config.links),
    };
    if config.ab_vc_plies == 0 {
        if let (Some(o), Some(p)) = (&own, &opp) {
            let (b, w) = if to_move == Colour::Black {
                (o, p)
            } else {
                (p, o)
            };
            s.roots.push(Root::new(position, b, w));
        }
    }
    // Inferior-cell fill-in at the root (as the MCTS root does): dead cells and captured
    // pairs are filled and not searched; the search runs on the filled position, which has
    // the same value.
    let (search_pos, cands) = root_fill(config, position, to_move, cands);
    if config.ab_incremental && config.uses_vcs() {
        // The search's own sets (its parameters: stop at a win, the per-node budget), built
        // once here and updated move by move below.
        // Capped by what the move has left (the per-node budget otherwise).
        let mut setup = s.params.clone();
        setup.budget.time = Some(deadline.within(per_node));
        s.path = Some(crate::vc::build_both(&search_pos, &setup));
    }
    let mut root_moves = order(config, &ev, cands);
    // The root looks at twice the width of inner nodes.
    root_moves.truncate((2 * config.width).max(1));
    if root_moves.is_empty() {
        return Report {
            decision: Decision::Resign,
            proven_win: false,
            proven_loss: true,
            proof_set: None,
            nodes: 0,
            info: "no empty cell".into(),
        };
    }
    let root_list: Vec<String> = root_moves
        .iter()
        .map(|&c| {
            search_pos
                .board()
                .cell_name(c, crate::board::Notation::Letters)
        })
        .collect();
    let (best, best_value, depth_done) = s.deepen(&search_pos, to_move, root_moves);
    Report {
        decision: Decision::Play(best),
        proven_win: false,
        proven_loss: lost,
        proof_set: None,
        nodes: s.nodes,
        info: format!(
            "depth {depth_done} value {best_value:.3} nodes {} in {} ms ({}); root moves in order: {}",
            s.nodes,
            deadline.used().as_millis(),
            config.clock.name(),
            root_list.join(" ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::vc::build_both;

    fn pos(n: u32, b: &str, w: &str) -> Position {
        Position::from_names(Board::square(n).unwrap(), b, w, Notation::Letters).unwrap()
    }

    fn root_of(p: &Position) -> Root {
        let (b, w) = build_both(p, &Config::default().vc_params(Duration::from_secs(5)));
        Root::new(p, &b, &w)
    }

    fn searcher(config: &Config, root: Root) -> Searcher<'_> {
        Searcher {
            config,
            params: config.vc_params(Duration::from_secs(5)),
            deadline: Deadline::start(config.clock, Duration::from_secs(60)),
            aborted: false,
            nodes: 0,
            pool: Vec::new(),
            roots: vec![root],
            best: HashMap::new(),
            path: None,
            node_share: Duration::from_secs(5),
        }
    }

    #[test]
    fn a_root_connection_survives_until_the_opponent_enters_its_carrier() {
        // 7×7, Black d4 alone: its bridge to c5 etc. Take any VC pair with one carrier.
        let p = pos(7, "d4", "");
        let root = root_of(&p);
        let black = &root.links[0];
        let (x, y, carriers) = black
            .pairs
            .iter()
            .find(|(_, _, c)| c.len() == 1 && c[0].len() == 2)
            .expect("a bridge");
        let carrier = carriers[0];
        let empty = p.empty_cells();
        let key = |v: &[(Cell, Cell, usize)]| v.iter().any(|(a, b, _)| (a, b) == (x, y));
        assert!(key(&black.pairs_avoiding(CellSet::EMPTY, empty)));
        // A White stone in the carrier breaks it.
        let inside = carrier.first().unwrap();
        assert!(!key(&black.pairs_avoiding(CellSet::single(inside), empty)));
        // A White stone elsewhere does not.
        let outside = (empty - carrier).iter().find(|c| c != x && c != y).unwrap();
        assert!(key(&black.pairs_avoiding(CellSet::single(outside), empty)));
    }

    #[test]
    fn a_surviving_winning_semi_is_a_win_two_plies_down() {
        // 5×5: Black c2 and c4 reach their edges by bridges and meet at c3 or through the
        // other joint: Black to move has a winning VSC (or VC). Two plies down, after moves
        // outside its carrier, the node is still won for Black; after White enters every
        // carrier, the root connections no longer say so.
        let p = pos(5, "c2 c4", "b3 d3");
        let root = root_of(&p);
        let vscs: Vec<CellSet> = root.links[0]
            .win_vscs
            .iter()
            .chain(&root.links[0].win_vcs)
            .copied()
            .collect();
        assert!(!vscs.is_empty(), "Black has a winning semi at the root");
        let all = vscs.iter().fold(CellSet::EMPTY, |a, c| a | *c);
        let common = vscs.iter().fold(p.empty_cells(), |a, c| a & *c);
        let outside: Vec<Cell> = (p.empty_cells() - all).iter().collect();
        assert!(outside.len() >= 2, "{outside:?}");
        let config = Config {
            kind: super::super::Kind::AlphaBeta,
            ab_vc_plies: 0,
            ..Config::default()
        };
        let mut s = searcher(&config, root);
        let mut q = p.clone();
        q.play(Colour::Black, outside[0]).unwrap();
        q.play(Colour::White, outside[1]).unwrap();
        match s.expand(&q, Colour::Black, 2, 8, false, false) {
            Node::Value(v) => assert!(v > WIN - 10.0, "{v}"),
            Node::Open(..) => panic!("the semi survives"),
        }
        // White takes a cell common to every winning carrier instead.
        let mut r = p.clone();
        r.play(Colour::Black, outside[0]).unwrap();
        r.play(Colour::White, common.first().expect("a common cell"))
            .unwrap();
        if let Node::Value(v) = s.expand(&r, Colour::Black, 2, 8, false, false) {
            assert!(v < WIN - 10.0, "{v}");
        }
        // White to move below the root must play in the common cells of Black's surviving
        // winning semis, or has lost when they have none in common. (Here White has a
        // winning semi of its own through c3, so add a Black e3 that takes it away.)
        let p = pos(5, "c2 c4 e3", "b3 d3");
        let root = root_of(&p);
        assert!(root.links[1].win_vscs.is_empty() && root.links[1].win_vcs.is_empty());
        assert!(!root.links[0].win_vscs.is_empty());
        let all = root.links[0]
            .win_vscs
            .iter()
            .fold(CellSet::EMPTY, |a, c| a | *c);
        let common = root.links[0]
            .win_vscs
            .iter()
            .fold(p.empty_cells(), |a, c| a & *c);
        let outside = (p.empty_cells() - all).first().expect("a cell outside");
        let mut s = searcher(&config, root);
        let mut t = p.clone();
        t.play(Colour::Black, outside).unwrap();
        match s.expand(&t, Colour::White, 1, 30, false, false) {
            Node::Open(_, moves) => {
                assert!(!moves.is_empty());
                assert!(moves.iter().all(|m| common.contains(*m)), "{moves:?}");
            }
            Node::Value(v) => assert!(v < -(WIN - 10.0), "{v}"),
        }
    }

    #[test]
    fn kept_or_incremental_connections_search_to_depth_and_answer_a_legal_move() {
        let p = pos(7, "d4", "c5");
        // Connections kept below ply 0 or 1, or updated along the path (the last 0, 1 or 2
        // plies keeping their ancestor's links).
        for (plies, incremental, kept) in [
            (0, false, 0),
            (1, false, 0),
            (20, true, 0),
            (20, true, 1),
            (20, true, 2),
        ] {
            let config = Config {
                kind: super::super::Kind::AlphaBeta,
                ab_vc_plies: plies,
                ab_incremental: incremental,
                ab_kept_plies: kept,
                depth: 3,
                solver_thread: false,
                ..Config::default()
            };
            let r = genmove(&config, &p, Colour::Black, Duration::from_secs(30), None);
            let Decision::Play(c) = r.decision else {
                panic!("{:?}", r.decision)
            };
            assert!(p.empty_cells().contains(c));
            assert!(r.info.starts_with("depth 3"), "{plies}: {}", r.info);
            // Depth 3 with width 8 and root width 16: more nodes than the root's children.
            assert!(r.nodes > 16, "{}", r.info);
            // The kept connections are popped on the way back up, the path's are undone.
            // (11×11: on 7×7 after d4 Black's winning semis decide every node below the root.)
            let q = pos(11, "f6", "e7");
            let mut s = searcher(&config, root_of(&q));
            if incremental {
                s.roots.clear();
                s.path = Some(build_both(&q, &s.params));
            }
            let before = s.path.as_ref().map(|(b, w)| (b.counts(), w.counts()));
            let moves = q.empty_cells().iter().take(4).collect();
            let (m, _, d) = s.deepen(&q, Colour::Black, moves);
            assert!(q.empty_cells().contains(m) && d == 3);
            // The links kept for the last plies are popped on the way back up too.
            assert_eq!(s.roots.len(), usize::from(!incremental), "{plies} {kept}");
            assert!(!s.best.is_empty());
            if let Some((b, w)) = s.path.as_ref() {
                assert_eq!((b.undo_depth(), w.undo_depth()), (0, 0));
                assert_eq!((b.position(), w.position()), (&q, &q));
                assert_eq!(Some((b.counts(), w.counts())), before);
                assert!(s.nodes > 4 + 4 * 8, "{}", s.nodes);
            }
        }
    }

    #[test]
    fn the_path_connections_see_a_win_made_below_the_root_and_are_undone() {
        // 5×5, root c2 / b3. Below it Black c4 and White d3 make c2 c4 / b3 d3, where Black
        // to move has a winning VSC through the new stone c4: connections kept from the
        // root cannot see it (c4 was empty there), the incrementally updated ones must.
        let p = pos(5, "c2", "b3");
        let config = Config {
            kind: super::super::Kind::AlphaBeta,
            ab_incremental: true,
            ..Config::default()
        };
        let mut s = searcher(&config, root_of(&p));
        s.roots.clear();
        s.path = Some(build_both(&p, &s.params));
        let c4 = p.board().parse_cell("c4", Notation::Letters).unwrap();
        let d3 = p.board().parse_cell("d3", Notation::Letters).unwrap();
        let mut q = p.clone();
        s.play(&mut q, Colour::Black, c4, 1);
        s.play(&mut q, Colour::White, d3, 1);
        let fresh = build_both(&q, &s.params);
        assert!(!fresh.0.winning_vscs().is_empty() || !fresh.0.winning_vcs().is_empty());
        match s.expand(&q, Colour::Black, 2, 8, false, false) {
            Node::Value(v) => assert!(v > WIN - 10.0, "{v}"),
            Node::Open(..) => panic!("Black's winning semi through c4 is missed"),
        }
        // With White to move there White has a winning semi of its own (through c3): the
        // path connections give the value that fresh ones give.
        let fresh_value = judge(
            &q,
            Colour::White,
            WIN - 2.0,
            &fresh.0,
            &fresh.1,
            config.links,
        );
        assert_eq!(fresh_value.err(), Some(WIN - 3.0));
        match s.expand(&q, Colour::White, 2, 30, false, false) {
            Node::Value(v) => assert_eq!(v, WIN - 3.0),
            Node::Open(..) => panic!("White's winning semi through c3 is missed"),
        }
        s.undo(&mut q, d3, 1);
        s.undo(&mut q, c4, 1);
        assert_eq!(q, p);
        let (b, w) = s.path.as_ref().unwrap();
        assert_eq!((b.undo_depth(), w.undo_depth()), (0, 0));
        assert_eq!(b.position(), &p);
        assert_eq!(w.position(), &p);
    }

    #[test]
    fn the_semi_limit_shortens_the_search_sets_but_keeps_the_winning_semis() {
        let base = Config::default().vc_params(Duration::from_secs(5));
        let config = Config {
            ab_semi_limit: 2,
            ..Config::default()
        };
        let limited = search_params(&config, &base);
        assert_eq!(limited.semi_limit, Some(2));
        assert_eq!(base.semi_limit, None);
        assert_eq!(search_params(&Config::default(), &base).semi_limit, None);
        let q = pos(11, "e2 d7", "f6 g4");
        let (full, cut) = (
            VcSet::build(&q, Colour::Black, base.clone()),
            VcSet::build(&q, Colour::Black, limited.clone()),
        );
        assert!(cut.counts().vscs < full.counts().vscs, "{:?}", cut.counts());
        // The border pair is never limited: the same winning semis (the mustplay).
        let p = pos(5, "c2 c4", "b3 d3");
        let wins = |params: VcParams| {
            let v = VcSet::build(&p, Colour::Black, params);
            let mut w: Vec<Vec<usize>> = v
                .winning_vcs()
                .into_iter()
                .chain(v.winning_vscs())
                .map(|c| c.iter().map(|x| x.index()).collect())
                .collect();
            w.sort();
            w
        };
        let a = wins(base);
        assert!(!a.is_empty());
        assert_eq!(a, wins(limited));
    }

    #[test]
    fn library_seeds_and_uncapped_border_pairs_see_the_collapse_of_game_1() {
        // Session 35's lost game 1 (journal player-session35.md §3) after hexproof's j3 and
        // Wolve's j2: White has a winning VC (MoHex: "Opponent has won"; its carrier is
        // Benzene's 26 cells plus k1 k2 a9 a10 a11, journal vc-session35.md §2b). The search's
        // builds below the root cap every inner pair at `ab_semi_limit` 2; they find it with
        // the library's seeds and no cap on the pairs with a border endpoint.
        let p = Position::from_moves(
            Board::square(11).unwrap(),
            "a2 b10 e8 e10 d10 d9 e9 e7 f7 g5 f6 f5 e6 e5 h5 h4 i4 i3 j3 j2",
            Notation::Letters,
        )
        .unwrap();
        let config = |library_seeds: bool, ab_edge_semi_limit: usize| Config {
            ab_semi_limit: 2,
            ab_edge_semi_limit,
            library_seeds,
            ..Config::default()
        };
        // Wait for the library's seeds (the players use HexWiki's five until they are ready).
        crate::templates::seeds::library_seeds();
        let new = search_vc_params(&config(true, 0), Duration::from_secs(10));
        assert_eq!(
            (new.semi_limit, new.edge_semi_limit),
            (Some(2), Some(usize::MAX))
        );
        assert!(new.seeds.len() > VcParams::new(crate::vc::Variant::Fast).seeds.len());
        let old = search_vc_params(&config(false, 2), Duration::from_secs(10));
        assert_eq!((old.semi_limit, old.edge_semi_limit), (Some(2), Some(2)));
        // Without the cap below the root nothing changes.
        let uncapped = search_vc_params(
            &Config {
                ab_semi_limit: 0,
                ..config(true, 0)
            },
            Duration::from_secs(10),
        );
        assert_eq!(
            (uncapped.semi_limit, uncapped.edge_semi_limit),
            (None, None)
        );
        let found = VcSet::build(&p, Colour::White, new).winning_vcs();
        assert!(!found.is_empty());
        let carrier = &found[0];
        for c in ["a3", "d6", "c10"] {
            let cell = p.board().parse_cell(c, Notation::Letters).unwrap();
            assert!(carrier.contains(cell), "{c} not in the winning carrier");
        }
        // Session 35's settings (HexWiki's five seeds, border pairs capped like the others)
        // miss it: the blind spot the switch closes.
        assert!(VcSet::build(&p, Colour::White, old)
            .winning_vcs()
            .is_empty());
    }
}
