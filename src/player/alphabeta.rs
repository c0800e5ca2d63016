//! HEXY's selective alpha-beta (Anshelevich 2002 §6): depth D, connections from H-search
//! with limits M and K at every node, the circuit evaluation of §5 at the leaves, moves
//! ordered by cell energy and cut to the best `width` of them, and mustplay pruning.
//!
//! A node where the side to move has a winning VC or VSC is a win, one where the opponent has
//! a winning VC a loss (connections are sound, so these values are exact); wins found nearer
//! the root score higher. Iterative deepening from depth 1 to D keeps the best move of the
//! last finished depth when time runs out. M = 0 is HEXY's "no virtual connections except
//! pairs of neighbouring cells": no connection engine, no mustplay, plain circuits.

use super::clock::Deadline;
use super::proven::{candidates, root_proven_move};
use super::{Config, Decision, Report};
use crate::board::{Cell, CellSet, Colour};
use crate::eval::{evaluate, Evaluation};
use crate::position::Position;
use crate::vc::{VcParams, VcSet};
use std::time::Duration;

/// Score of a won position (circuit scores stay within ±30).
pub const WIN: f64 = 1000.0;

struct Searcher<'a> {
    config: &'a Config,
    params: VcParams,
    deadline: Deadline,
    aborted: bool,
    nodes: u64,
    pool: Vec<Option<(VcSet, VcSet)>>,
}

/// What a node knows before its children are searched.
enum Node {
    /// Exact value.
    Value(f64),
    /// Evaluation and candidate moves, best first.
    Open(f64, Vec<Cell>),
}

impl Searcher<'_> {
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

    /// Connections, exact values, evaluation, ordered candidates.
    fn expand(&mut self, pos: &Position, to_move: Colour, ply: usize, width: usize) -> Node {
        let win = WIN - ply as f64;
        if let Some(w) = pos.winner() {
            return Node::Value(if w == to_move { win } else { -win });
        }
        let ev: Evaluation;
        let cands: CellSet;
        if self.config.uses_vcs() {
            let (mut b, mut w) = self.take_pool(ply);
            b.rebuild(pos);
            w.rebuild(pos);
            let (own, opp) = match to_move {
                Colour::Black => (&b, &w),
                Colour::White => (&w, &b),
            };
            let value = if !own.winning_vcs().is_empty() || !own.winning_vscs().is_empty() {
                Some(win - 1.0)
            } else if !opp.winning_vcs().is_empty() {
                Some(-(win - 2.0))
            } else {
                None
            };
            if let Some(v) = value {
                self.pool[ply] = Some((b, w));
                return Node::Value(v);
            }
            ev = evaluate(pos, Some((&b, &w)), self.config.links);
            cands = candidates(pos, Some(opp)).0;
            self.pool[ply] = Some((b, w));
        } else {
            ev = evaluate(pos, None, self.config.links);
            cands = pos.empty_cells();
        }
        let mut moves = ev.ordered_moves(cands);
        moves.truncate(width.max(1));
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
        let (score, moves) = match self.expand(pos, to_move, ply, self.config.width) {
            Node::Value(v) => return v,
            Node::Open(s, m) => (s, m),
        };
        if depth == 0 || moves.is_empty() {
            return score;
        }
        let mut best = f64::NEG_INFINITY;
        for m in moves {
            pos.play(to_move, m)
                .expect("candidate moves are empty cells");
            let v = -self.negamax(pos, to_move.opponent(), depth - 1, -beta, -alpha, ply + 1);
            pos.clear(m);
            if self.aborted {
                return 0.0;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
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
            for &m in &root_moves {
                pos.play(to_move, m).expect("candidates are empty");
                let v = -self.negamax(
                    &mut pos,
                    to_move.opponent(),
                    d - 1,
                    f64::NEG_INFINITY,
                    -alpha,
                    1,
                );
                pos.clear(m);
                if self.aborted {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    iter_best = Some(m);
                }
            }
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

/// Generates a move (see the module docs). `time` bounds the whole call.
pub fn genmove(
    config: &Config,
    position: &Position,
    to_move: Colour,
    time: Duration,
    hint: Option<CellSet>,
) -> Report {
    let deadline = Deadline::start(config.clock, time);
    let params = config.vc_params(deadline.wall_limit((time / 10).min(Duration::from_millis(500))));
    let mut s = Searcher {
        config,
        params: params.clone(),
        deadline,
        aborted: false,
        nodes: 0,
        pool: Vec::new(),
    };
    // Root: connections, proven win, mustplay.
    let (own, opp) = if config.uses_vcs() {
        let mut root = params.clone();
        root.stop_at_win = false;
        root.budget.time = Some(deadline.wall_limit(time / 4));
        let (b, w) = crate::vc::build_both(position, &root);
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
        own.as_ref(),
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
    let mut root_moves = ev.ordered_moves(cands);
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
    let (best, best_value, depth_done) = s.deepen(position, to_move, root_moves);
    Report {
        decision: Decision::Play(best),
        proven_win: false,
        proven_loss: lost,
        proof_set: None,
        nodes: s.nodes,
        info: format!(
            "depth {depth_done} value {best_value:.3} nodes {} in {} ms ({})",
            s.nodes,
            deadline.used().as_millis(),
            config.clock.name()
        ),
    }
}
