//! Depth-first proof-number search (DFPN) with the 1+ε trick.
//!
//! # Why DFPN and not DFS
//!
//! Henderson, Arneson & Hayward (2009, §5) solve 8×8 with a depth-first search that orders
//! moves by mustplay size and resistance and relies on proof sets. Their paper notes that
//! the bottleneck is the order of the moves at a node: DFS commits to a child until it is
//! solved. DFPN (Nagai 2002) instead always expands the *most-proving* node — the child
//! whose subtree is cheapest to decide, measured by proof and disproof numbers — and stays
//! depth-first (memory bounded by the transposition table) by giving each child thresholds
//! and returning when they are exceeded. Mustplay sizes enter naturally: a node's initial
//! disproof number is the number of its moves, so narrow mustplays are preferred. Benzene's
//! later solver is a DFPN for the same reason (Arneson, Hayward, Henderson, *Monte Carlo tree
//! search in Hex*, and Benzene's `DfpnSolver`). Hex has no repetitions, so DFPN's
//! graph-history-interaction problems do not arise.
//!
//! # The 1+ε trick
//!
//! Pawlewicz & Lew (*Improving depth-first PN-search: 1+ε trick*, CG 2006): a child's
//! disproof threshold is ⌈(1+ε)·dn₂⌉ instead of dn₂+1 (dn₂ the second-best child's value),
//! so the search does not bounce between two children of nearly equal cost. ε is
//! [`super::SolveParams::epsilon`]; 0 gives plain DFPN.
//!
//! # Values
//!
//! Proof numbers are from the point of view of the player to move: pn = 0 means it wins,
//! dn = 0 that it loses. A node's pn is the least disproof number of its children, its dn the
//! sum of their proof numbers. Leaves are evaluated by [`super::eval`] (connections) after
//! fill-in ([`super::inferior`]); an undecided leaf gets pn = 1 and dn = its move count.

use super::eval::{Eval, Evaluator};
use super::inferior::{fill_in, InferiorRules};
use super::order::MoveOrder;
use super::tt::{Entry, Key, Table, INF};
use crate::board::Colour;
use crate::board::{Cell, CellSet};
use crate::position::Position;
use std::time::Instant;

/// The search state for one root.
pub struct Dfpn<'a> {
    /// Connection evaluation.
    pub eval: Evaluator,
    /// Transposition table.
    pub tt: Table,
    /// Inferior-cell rules used for fill-in.
    pub rules: InferiorRules,
    /// ε of the 1+ε trick.
    pub epsilon: f64,
    /// Move ordering.
    pub order: &'a dyn MoveOrder,
    /// Nodes evaluated (connection builds for both colours).
    pub nodes: u64,
    /// Most nodes.
    pub max_nodes: u64,
    /// Deadline.
    pub deadline: Option<Instant>,
    /// Set when a budget ran out.
    pub aborted: bool,
    /// Nodes decided by connections without search.
    pub vc_decided: u64,
    scratch: Vec<(i32, Cell)>,
}

/// A child on the search stack.
struct Child {
    mv: Cell,
    pos: Position,
    pn: u32,
    dn: u32,
}

/// The key of a (filled) position.
pub fn key_of(pos: &Position, to_move: Colour) -> Key {
    Key {
        black: pos.stones(Colour::Black),
        white: pos.stones(Colour::White),
        to_move,
    }
}

impl<'a> Dfpn<'a> {
    /// A search with the given components.
    pub fn new(
        eval: Evaluator,
        tt: Table,
        rules: InferiorRules,
        epsilon: f64,
        order: &'a dyn MoveOrder,
    ) -> Dfpn<'a> {
        Dfpn {
            eval,
            tt,
            rules,
            epsilon,
            order,
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            aborted: false,
            vc_decided: 0,
            scratch: Vec::new(),
        }
    }

    /// `pos` after fill-in for `to_move`.
    pub fn filled(&self, pos: &Position, to_move: Colour) -> Position {
        let mut p = pos.clone();
        fill_in(&mut p, self.rules, to_move);
        p
    }

    fn budget_left(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        } else if self.nodes % 16 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        !self.aborted
    }

    /// The table entry of filled `pos`, evaluating it if new.
    pub fn entry(&mut self, pos: &Position, to_move: Colour) -> Entry {
        let key = key_of(pos, to_move);
        if let Some(e) = self.tt.get(&key) {
            return *e;
        }
        self.nodes += 1;
        let e = match self.eval.evaluate(pos, to_move) {
            Eval::Win(c) => {
                self.vc_decided += 1;
                Entry {
                    pn: 0,
                    dn: INF,
                    moves: c,
                    best: None,
                }
            }
            Eval::Loss(c) => {
                self.vc_decided += 1;
                Entry {
                    pn: INF,
                    dn: 0,
                    moves: c,
                    best: None,
                }
            }
            Eval::Open(m) => Entry {
                pn: 1,
                dn: (m.len() as u32).max(1),
                moves: m,
                best: None,
            },
        };
        self.tt.put(key, e);
        e
    }

    /// Multiple iterative deepening at filled `pos`: searches until its proof number reaches
    /// `th_pn` or its disproof number `th_dn` (or the budget runs out); returns (pn, dn).
    pub fn mid(&mut self, pos: &Position, to_move: Colour, th_pn: u32, th_dn: u32) -> (u32, u32) {
        let entry = self.entry(pos, to_move);
        if entry.pn == 0 || entry.dn == 0 || entry.pn >= th_pn || entry.dn >= th_dn {
            return (entry.pn, entry.dn);
        }
        if !self.budget_left() {
            return (entry.pn, entry.dn);
        }
        let key = key_of(pos, to_move);
        let opp = to_move.opponent();
        // Children in heuristic order (ties in the selection go to the earlier one).
        self.scratch.clear();
        let mut scratch = std::mem::take(&mut self.scratch);
        self.order.scores(pos, to_move, entry.moves, &mut scratch);
        scratch.sort_unstable();
        let mut kids: Vec<Child> = Vec::with_capacity(scratch.len());
        for &(_, mv) in &scratch {
            let mut p = pos.clone();
            p.play(to_move, mv).expect("moves are empty cells");
            fill_in(&mut p, self.rules, opp);
            let k = key_of(&p, opp);
            let (pn, dn) = self.tt.get(&k).map_or((1, 1), |e| (e.pn, e.dn));
            kids.push(Child { mv, pos: p, pn, dn });
        }
        self.scratch = scratch;
        loop {
            // pn = min child dn, dn = sum child pn.
            let mut best = 0;
            let mut dn1 = INF;
            let mut dn2 = INF;
            let mut sum: u64 = 0;
            for (i, k) in kids.iter().enumerate() {
                sum += k.pn as u64;
                if k.dn < dn1 {
                    dn2 = dn1;
                    dn1 = k.dn;
                    best = i;
                } else if k.dn < dn2 {
                    dn2 = k.dn;
                }
            }
            let pn = dn1;
            let dn = sum.min(INF as u64) as u32;
            let best_move = (pn == 0).then(|| kids[best].mv);
            self.tt.put(
                key,
                Entry {
                    pn,
                    dn,
                    moves: entry.moves,
                    best: best_move.or(Some(kids[best].mv)),
                },
            );
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 || !self.budget_left() {
                return (pn, dn);
            }
            let child_th_pn = (th_dn - dn).saturating_add(kids[best].pn).min(INF);
            let eps = ((dn2 as f64) * (1.0 + self.epsilon)).ceil();
            let grow = if eps >= INF as f64 { INF } else { eps as u32 };
            let child_th_dn = th_pn.min(grow.max(dn2.saturating_add(1))).min(INF);
            let kid_pos = kids[best].pos.clone();
            let (cpn, cdn) = self.mid(&kid_pos, opp, child_th_pn, child_th_dn);
            kids[best].pn = cpn;
            kids[best].dn = cdn;
        }
    }

    /// The cells of a decided node's connection (carrier), or the moves of an open one.
    pub fn moves_of(&self, pos: &Position, to_move: Colour) -> Option<CellSet> {
        self.tt.get(&key_of(pos, to_move)).map(|e| e.moves)
    }
}
