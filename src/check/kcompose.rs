//! Confirming an AND step by the kernel instead of a search: its premises' kernel-checked
//! certificates composed under one and-node.
//!
//! With its confirming searches on, the checker runs the exact search on the conclusion of
//! every rule step (the second check, [`super::Options::confirm`]). For an AND step on a large
//! carrier (a precluding analysis's `t - b` on 30 cells) that search often runs out of budget,
//! and the step then rests on its rule alone. When every premise is a VC that was itself
//! searched here and held, there is a cheaper check that is no weaker: the kernel
//! ([`crate::kernel::check_with`]) is given a certificate of the conclusion made of one
//! **lemma leaf** per premise (condition 7 of the kernel: the premise's own [`Verified`]
//! value, for exactly its position, carrier and pair) under one **and-node** (condition 4:
//! children on pairwise disjoint carriers inside the conclusion's, whose pairs chain a pair
//! of the conclusion through the owner's cells). A premise whose pair must be read the other
//! way round is wrapped in an and-node with the one child and the reversed pair.
//!
//! Soundness: nothing here is trusted. The kernel checks every condition itself (that the
//! lemma's sub-game is the leaf's, disjointness, the chain, that every cell is in the
//! conclusion's carrier); this module only proposes orders and orientations, and a proposal
//! the kernel rejects is dropped (the confirming search then runs as before). The result is a
//! [`Verified`] value of the conclusion's sub-game, the same evidence a search that held would
//! give, independent of the AND rule's own code in [`super::rules`].

use crate::board::{Cell, CellSet};
use crate::claim::SubGame;
use crate::kernel::{self, Certificate, Node, NodeId, NodeKind, Verified};

/// A premise for [`compose_and`]: its single pair, its carrier and its kernel acceptance.
pub(super) struct Part<'a> {
    pub pair: (Cell, Cell),
    pub carrier: CellSet,
    pub verified: &'a Verified,
}

/// Most premises tried (orders × orientations grow as n!·2ⁿ).
const MAX_PARTS: usize = 3;

/// Lexicographic next permutation of `v`; false when `v` was the last one.
fn next_permutation(v: &mut [usize]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len())
        .rev()
        .find(|&j| v[j] > v[i - 1])
        .expect("exists");
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// The kernel's acceptance of `game` (a VC, the opponent first) by the premises' certificates
/// under one and-node, trying every order and orientation of the parts; `None` when the kernel
/// accepts none of them (or there are too many parts).
pub(super) fn compose_and(game: &SubGame, parts: &[Part]) -> Option<Verified> {
    let n = parts.len();
    if n == 0 || n > MAX_PARTS || game.claim().owner_first {
        return None;
    }
    let mut order: Vec<usize> = (0..n).collect();
    loop {
        for flips in 0u32..(1 << n) {
            let mut nodes: Vec<Node> = Vec::with_capacity(2 * n + 1);
            let mut lemmas: Vec<(NodeId, usize)> = Vec::with_capacity(n);
            let mut children: Vec<NodeId> = Vec::with_capacity(n);
            for (slot, &i) in order.iter().enumerate() {
                let p = &parts[i];
                let leaf = |goal| Node {
                    stones: CellSet::EMPTY,
                    carrier: p.carrier,
                    goal: Some(goal),
                    either: Vec::new(),
                    with: Vec::new(),
                    kind: NodeKind::And(Vec::new()),
                };
                lemmas.push((nodes.len() as NodeId, i));
                nodes.push(leaf(p.pair));
                if flips & (1 << slot) != 0 {
                    let mut turned = leaf((p.pair.1, p.pair.0));
                    turned.kind = NodeKind::And(vec![nodes.len() as NodeId - 1]);
                    nodes.push(turned);
                }
                children.push(nodes.len() as NodeId - 1);
            }
            nodes.push(Node {
                stones: CellSet::EMPTY,
                carrier: game.carrier(),
                goal: None,
                either: Vec::new(),
                with: Vec::new(),
                kind: NodeKind::And(children),
            });
            let cert = Certificate {
                root: nodes.len() as NodeId - 1,
                nodes,
                first: None,
            };
            let lemmas: Vec<(NodeId, &Verified)> = lemmas
                .iter()
                .map(|&(id, i)| (id, parts[i].verified))
                .collect();
            if let Ok(v) = kernel::check_with(game, &cert, &lemmas) {
                return Some(v);
            }
        }
        if !next_permutation(&mut order) {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Border, Colour, Notation};
    use crate::claim::Claim;
    use crate::local::{decide, Budget, Verdict};
    use crate::position::Position;

    /// 3×3, Black on b2: the two edge bridges of b2 (top on b1 c1, bottom on a3 b3).
    fn setup() -> (Position, impl Fn(&str) -> CellSet, Cell) {
        let board = Board::square(3).unwrap();
        let mut pos = Position::empty(board);
        let b2 = board.parse_cell("b2", Notation::Letters).unwrap();
        pos.play(Colour::Black, b2).unwrap();
        let set = move |s: &str| -> CellSet {
            board
                .parse_cells(s, Notation::Letters)
                .unwrap()
                .into_iter()
                .collect()
        };
        (pos, set, b2)
    }

    fn vc(a: Cell, b: Cell) -> Claim {
        Claim {
            owner: Colour::Black,
            pairs: vec![(a, b)],
            owner_first: false,
        }
    }

    fn verified(pos: &Position, carrier: CellSet, claim: Claim) -> Verified {
        let g = SubGame::new(pos.clone(), carrier, claim).unwrap();
        let o = decide(&g, &Budget::nodes(10_000)).unwrap();
        assert_eq!(o.verdict, Verdict::Holds);
        o.verified.unwrap()
    }

    #[test]
    fn the_kernel_accepts_a_true_and_and_refuses_a_false_one() {
        let (pos, set, b2) = setup();
        let (t, b) = (Cell::border(Border::Top), Cell::border(Border::Bottom));
        let top = verified(&pos, set("b1 c1"), vc(t, b2));
        // Written the other way round (b - b2): the composition turns it.
        let bottom = verified(&pos, set("a3 b3"), vc(b, b2));
        let parts = [
            Part {
                pair: (t, b2),
                carrier: set("b1 c1"),
                verified: &top,
            },
            Part {
                pair: (b, b2),
                carrier: set("a3 b3"),
                verified: &bottom,
            },
        ];
        let game = |c: &str| SubGame::new(pos.clone(), set(c), vc(t, b)).unwrap();
        assert!(compose_and(&game("b1 c1 a3 b3"), &parts).is_some());
        // A conclusion whose carrier lacks a premise's cell, or a premise missing: refused.
        assert!(compose_and(&game("b1 c1 a3"), &parts).is_none());
        assert!(compose_and(&game("b1 c1 a3 b3"), &parts[..1]).is_none());
        // A premise whose pair is not the one its certificate proves: refused (condition 7).
        let wrong = [
            Part {
                pair: (t, b2),
                carrier: set("b1 c1"),
                verified: &bottom,
            },
            Part {
                pair: (b, b2),
                carrier: set("a3 b3"),
                verified: &bottom,
            },
        ];
        assert!(compose_and(&game("b1 c1 a3 b3"), &wrong).is_none());
        // Overlapping premises (the same bridge twice) do not make a t - b.
        let twice = [
            Part {
                pair: (t, b2),
                carrier: set("b1 c1"),
                verified: &top,
            },
            Part {
                pair: (t, b2),
                carrier: set("b1 c1"),
                verified: &top,
            },
        ];
        assert!(compose_and(&game("b1 c1 a3 b3"), &twice).is_none());
    }
}
