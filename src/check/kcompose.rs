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

use crate::board::{Border, Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::kernel::{self, Certificate, Node, NodeId, NodeKind, Reply, Verified};
use crate::position::Position;

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
            let cert = root_certificate(
                nodes,
                CellSet::EMPTY,
                game.carrier(),
                NodeKind::And(children),
                None,
            );
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

/// The evidence for one premise of [`compose_and_first`].
pub(super) enum Evidence<'a> {
    /// A certificate the kernel accepted in this position (a search's or a composed one):
    /// copied in, every node checked again.
    Cert(&'a Certificate),
    /// A kernel acceptance of a VC in this position: a lemma leaf (condition 7).
    Lemma(&'a Verified),
    /// A premise on no cell (`(t, [], g3)`): its pair is joined once the first move is played.
    Adjacent,
}

/// A premise for [`compose_and_first`]: its single pair, its carrier and its evidence.
pub(super) struct Link<'a> {
    pub pair: (Cell, Cell),
    pub carrier: CellSet,
    pub evidence: Evidence<'a>,
}

/// The nodes of one premise in a certificate whose owner has played `m` (every node gets `m`
/// as a stone, and a node stating the claim's pairs gets the premise's pair as its goal);
/// returns the premise's root. `None` when a certificate has a first move other than `m`.
fn link_nodes(l: &Link, m: Cell, nodes: &mut Vec<Node>) -> Option<NodeId> {
    let stones = CellSet::single(m);
    match l.evidence {
        Evidence::Cert(c) => {
            if c.first.is_some_and(|f| f != m) {
                return None;
            }
            let off = nodes.len() as NodeId;
            nodes.extend(c.nodes.iter().map(|n| Node {
                stones: n.stones | stones,
                goal: n.goal.or(Some(l.pair)),
                kind: n.kind.shifted(off),
                ..n.clone()
            }));
            Some(c.root + off)
        }
        Evidence::Lemma(_) => {
            nodes.push(Node {
                stones: CellSet::EMPTY,
                carrier: l.carrier,
                goal: Some(l.pair),
                either: Vec::new(),
                with: Vec::new(),
                kind: NodeKind::And(Vec::new()),
            });
            Some(nodes.len() as NodeId - 1)
        }
        Evidence::Adjacent => {
            nodes.push(Node {
                stones,
                carrier: CellSet::EMPTY,
                goal: Some(l.pair),
                either: Vec::new(),
                with: Vec::new(),
                kind: NodeKind::Joined,
            });
            Some(nodes.len() as NodeId - 1)
        }
    }
}

/// The kernel's acceptance of `game` (a semi-connection: the owner first) by the first move
/// `m` and then one and-node over the premises (an AND step through an empty cell, or with a
/// premise on no cell whose end is `m`): each premise's certificate copied in with `m` added
/// to its stones (kernel condition 5 then sees `m` as an owner cell, as the premise's own game
/// saw it as an empty endpoint), a VC's acceptance as a lemma leaf, trying every order and
/// orientation as [`compose_and`]. Also returns the certificate when it has no lemma leaf (an
/// OR step above may copy it, [`compose_or`]); `None` when the kernel accepts none. Nothing here is trusted: the
/// kernel checks the whole certificate in `game`.
pub(super) fn compose_and_first(
    game: &SubGame,
    m: Cell,
    links: &[Link],
) -> Option<(Verified, Option<Certificate>)> {
    let n = links.len();
    if n == 0 || n > MAX_PARTS || !game.claim().owner_first {
        return None;
    }
    let stones = CellSet::single(m);
    let mut order: Vec<usize> = (0..n).collect();
    loop {
        for flips in 0u32..(1 << n) {
            let mut nodes: Vec<Node> = Vec::new();
            let mut lemmas: Vec<(NodeId, &Verified)> = Vec::new();
            let mut children: Vec<NodeId> = Vec::with_capacity(n);
            for (slot, &i) in order.iter().enumerate() {
                let l = &links[i];
                let root = link_nodes(l, m, &mut nodes)?;
                if let Evidence::Lemma(v) = l.evidence {
                    lemmas.push((root, v));
                }
                let child = if flips & (1 << slot) != 0 {
                    let inner = &nodes[root as usize];
                    let turned = Node {
                        stones: inner.stones | stones,
                        carrier: inner.carrier,
                        goal: Some((l.pair.1, l.pair.0)),
                        either: Vec::new(),
                        with: Vec::new(),
                        kind: NodeKind::And(vec![root]),
                    };
                    nodes.push(turned);
                    nodes.len() as NodeId - 1
                } else {
                    root
                };
                children.push(child);
            }
            let mut carrier = game.carrier();
            carrier.remove(m);
            let cert = root_certificate(nodes, stones, carrier, NodeKind::And(children), Some(m));
            if let Ok(v) = kernel::check_with(game, &cert, &lemmas) {
                // A certificate with lemma leaves cannot be copied into another one.
                return Some((v, lemmas.is_empty().then_some(cert)));
            }
        }
        if !next_permutation(&mut order) {
            return None;
        }
    }
}

/// The kernel's acceptance of `game` (a VC, the opponent first) by an or-node over the
/// premises' semi-connection certificates (each with its first move): the option for premise
/// i is its first move followed by its root, its nodes copied into one certificate, so the
/// kernel checks every one of them again in this game (nothing is taken on trust, no lemma
/// leaf is needed for an owner-first claim). Condition 3 is the OR rule's: no cell lies in
/// every option's first move and carrier. Also returns the certificate (a later step may copy
/// it in turn); `None` when a premise has no first move or the kernel refuses.
pub(super) fn compose_or(
    game: &SubGame,
    premises: &[&Certificate],
) -> Option<(Verified, Certificate)> {
    if premises.len() < 2 || game.claim().owner_first {
        return None;
    }
    let mut nodes: Vec<Node> = Vec::new();
    let mut options = Vec::with_capacity(premises.len());
    for c in premises {
        let first = c.first?;
        let off = nodes.len() as NodeId;
        nodes.extend(c.nodes.iter().map(|n| Node {
            kind: n.kind.shifted(off),
            ..n.clone()
        }));
        options.push(Reply {
            reply: first,
            next: c.root + off,
        });
    }
    let cert = root_certificate(
        nodes,
        CellSet::EMPTY,
        game.carrier(),
        NodeKind::Or(options),
        None,
    );
    let v = kernel::check(game, &cert).ok()?;
    Some((v, cert))
}

/// One answer of a White node for [`compose_white`]: Black's move (a precluding analysis's
/// fictitious move, or a case's reply) and the kernel's acceptance of Black's win after it
/// (a single pair joining t to b, White to move), in a position that is the node's with that
/// move added and, for a case, White's move too.
pub(super) struct Answer<'a> {
    pub reply: Cell,
    pub verified: &'a Verified,
}

/// The kernel's acceptance of Black's `t - b` (White to move) in `pos` on the cells the
/// answers use: one or-node whose options are the answers, each a lemma leaf (kernel
/// condition 7, with 7a for White's move of a case, which lies outside the leaf's carrier)
/// holding Black's move as a stone, wrapped in an and-node when the lemma's pair is another
/// pair than `t - b` (x - y between stones on t's and b's groups). The kernel checks that
/// every White move in the carrier is answered (condition 3: no cell lies in every option's
/// reply and carrier); `None` when it refuses or an answer's claim is not a single pair.
pub(super) fn compose_white(pos: &Position, answers: &[Answer]) -> Option<Verified> {
    let (t, b) = (Cell::border(Border::Top), Cell::border(Border::Bottom));
    if answers.is_empty() {
        return None;
    }
    let mut nodes: Vec<Node> = Vec::with_capacity(2 * answers.len() + 1);
    let mut lemmas: Vec<(NodeId, &Verified)> = Vec::with_capacity(answers.len());
    let mut options = Vec::with_capacity(answers.len());
    let mut carrier = CellSet::EMPTY;
    for a in answers {
        let g = a.verified.sub_game();
        let pairs = &g.claim().pairs;
        if pairs.len() != 1 || g.claim().owner != Colour::Black || g.claim().owner_first {
            return None;
        }
        let stones = CellSet::single(a.reply);
        let goal = (pairs[0] != (t, b)).then_some(pairs[0]);
        let node = |goal, kind| Node {
            stones,
            carrier: g.carrier(),
            goal,
            either: Vec::new(),
            with: Vec::new(),
            kind,
        };
        lemmas.push((nodes.len() as NodeId, a.verified));
        nodes.push(node(goal, NodeKind::And(Vec::new())));
        if goal.is_some() {
            nodes.push(node(None, NodeKind::And(vec![nodes.len() as NodeId - 1])));
        }
        options.push(Reply {
            reply: a.reply,
            next: nodes.len() as NodeId - 1,
        });
        carrier |= g.carrier() | stones;
    }
    let claim = Claim {
        owner: Colour::Black,
        pairs: vec![(t, b)],
        owner_first: false,
    };
    let game = SubGame::new(pos.clone(), carrier, claim).ok()?;
    let cert = root_certificate(nodes, CellSet::EMPTY, carrier, NodeKind::Or(options), None);
    kernel::check_with(&game, &cert, &lemmas).ok()
}

/// A fill-in leaf's `t - b` on `carrier` (the established carrier and the filled cells) in
/// the unfilled position `pos`, White to move, accepted by the kernel as one **filled lemma
/// leaf** (condition 7b, [`kernel::check_filled`]): `lemma` is the kernel's acceptance of the
/// established `t - b` in `pos` with `fills` (`(captured, cells)`, in order) given to Black.
/// `None` when a fill is White's or the kernel refuses (not dead, not captured, another
/// position or carrier): the confirming search then runs as before. Nothing here is trusted.
pub(super) fn compose_filled(
    pos: &Position,
    fills: &[(bool, Colour, CellSet)],
    carrier: CellSet,
    lemma: &Verified,
) -> Option<Verified> {
    if fills.iter().any(|&(_, c, _)| c != Colour::Black) {
        return None;
    }
    let carrier = carrier & pos.empty_cells();
    let game = SubGame::new(
        pos.clone(),
        carrier,
        Claim {
            owner: Colour::Black,
            pairs: vec![(Cell::border(Border::Top), Cell::border(Border::Bottom))],
            owner_first: false,
        },
    )
    .ok()?;
    let kfills: Vec<kernel::Fill> = fills
        .iter()
        .map(|&(captured, _, cells)| kernel::Fill { captured, cells })
        .collect();
    let cert = Certificate {
        nodes: vec![Node {
            stones: CellSet::EMPTY,
            carrier,
            goal: None,
            either: Vec::new(),
            with: Vec::new(),
            kind: NodeKind::And(Vec::new()),
        }],
        first: None,
        root: 0,
    };
    kernel::check_filled(&game, &cert, &[], &[(0, lemma, &kfills)]).ok()
}

/// `nodes` with a root node over them (no goal, no `either`/`with` parts), wrapped as the
/// certificate rooted there; `first` is Black's first move when the claim is the owner's.
fn root_certificate(
    mut nodes: Vec<Node>,
    stones: CellSet,
    carrier: CellSet,
    kind: NodeKind,
    first: Option<Cell>,
) -> Certificate {
    nodes.push(Node {
        stones,
        carrier,
        goal: None,
        either: Vec::new(),
        with: Vec::new(),
        kind,
    });
    Certificate {
        root: nodes.len() as NodeId - 1,
        nodes,
        first,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::local::{decide, Budget, Verdict};

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

    fn semi(pos: &Position, carrier: CellSet, a: Cell, b: Cell) -> Certificate {
        let claim = Claim {
            owner: Colour::Black,
            pairs: vec![(a, b)],
            owner_first: true,
        };
        let g = SubGame::new(pos.clone(), carrier, claim).unwrap();
        let o = decide(&g, &Budget::nodes(10_000)).unwrap();
        assert_eq!(o.verdict, Verdict::Holds);
        o.certificate.unwrap()
    }

    #[test]
    fn an_or_of_two_semi_connections_is_composed_and_an_overlapping_one_refused() {
        let (pos, set, b2) = setup();
        let b = Cell::border(Border::Bottom);
        let left = semi(&pos, set("a3"), b2, b);
        let right = semi(&pos, set("b3"), b2, b);
        assert!(left.first.is_some() && right.first.is_some());
        let game = |c: &str| SubGame::new(pos.clone(), set(c), vc(b2, b)).unwrap();
        assert!(compose_or(&game("a3 b3"), &[&left, &right]).is_some());
        // Both options through a3: White's a3 has no answer (condition 3).
        assert!(compose_or(&game("a3 b3"), &[&left, &left]).is_none());
        // One premise alone is no OR.
        assert!(compose_or(&game("a3 b3"), &[&left]).is_none());
        // A conclusion whose carrier lacks a premise's cell.
        assert!(compose_or(&game("a3"), &[&left, &right]).is_none());
    }

    fn vsc(a: Cell, b: Cell) -> Claim {
        Claim {
            owner: Colour::Black,
            pairs: vec![(a, b)],
            owner_first: true,
        }
    }

    #[test]
    fn an_and_through_an_empty_cell_is_composed_as_a_semi_connection_and_a_wrong_one_refused() {
        // 3×3, empty board: t - b2 on b1 c1 and b2 - b on a3 b3 (b2 empty, an endpoint of
        // both), so t - b on the five cells with Black first at b2.
        let board = Board::square(3).unwrap();
        let pos = Position::empty(board);
        let set = |s: &str| -> CellSet {
            board
                .parse_cells(s, Notation::Letters)
                .unwrap()
                .into_iter()
                .collect()
        };
        let cell = |s: &str| set(s).first().unwrap();
        let (t, b, b2) = (
            Cell::border(Border::Top),
            Cell::border(Border::Bottom),
            cell("b2"),
        );
        let cert_of = |carrier: CellSet, claim: Claim| {
            let g = SubGame::new(pos.clone(), carrier, claim).unwrap();
            let o = decide(&g, &Budget::nodes(10_000)).unwrap();
            assert_eq!(o.verdict, Verdict::Holds);
            o.certificate.unwrap()
        };
        let top = cert_of(set("b1 c1"), vc(t, b2));
        let bottom = cert_of(set("a3 b3"), vc(b2, b));
        let links = [
            Link {
                pair: (t, b2),
                carrier: set("b1 c1"),
                evidence: Evidence::Cert(&top),
            },
            Link {
                pair: (b2, b),
                carrier: set("a3 b3"),
                evidence: Evidence::Cert(&bottom),
            },
        ];
        let game = |c: &str| SubGame::new(pos.clone(), set(c), vsc(t, b)).unwrap();
        let (v, cert) = compose_and_first(&game("b1 c1 b2 a3 b3"), b2, &links).expect("composed");
        assert_eq!(v.sub_game().carrier(), set("b1 c1 b2 a3 b3"));
        assert_eq!(cert.expect("no lemma leaf").first, Some(b2));
        // The first move elsewhere, a conclusion missing a premise's cell, a VC conclusion
        // (White first), a premise missing: refused.
        assert!(compose_and_first(&game("b1 c1 b2 a3 b3"), cell("a2"), &links).is_none());
        assert!(compose_and_first(&game("b1 c1 b2 a3"), b2, &links).is_none());
        let vc_game = SubGame::new(pos.clone(), set("b1 c1 b2 a3 b3"), vc(t, b)).unwrap();
        assert!(compose_and_first(&vc_game, b2, &links).is_none());
        assert!(compose_and_first(&game("b1 c1 b2 a3 b3"), b2, &links[..1]).is_none());
        // A premise's certificate for another pair (the top bridge given for the bottom).
        let wrong = [
            Link {
                pair: (t, b2),
                carrier: set("b1 c1"),
                evidence: Evidence::Cert(&top),
            },
            Link {
                pair: (b2, b),
                carrier: set("a3 b3"),
                evidence: Evidence::Cert(&top),
            },
        ];
        assert!(compose_and_first(&game("b1 c1 b2 a3 b3"), b2, &wrong).is_none());
    }

    #[test]
    fn premises_on_no_cell_compose_a_semi_connection_that_an_or_step_can_copy() {
        // 3×3, Black on b2: b2 - b with Black first at a3 (b2 - a3 - b on no cell), likewise
        // at b3; the OR of the two is b2 - b on a3 b3 (White first).
        let (pos, set, b2) = setup();
        let cell = |s: &str| set(s).first().unwrap();
        let b = Cell::border(Border::Bottom);
        let semi_at = |m: &str| {
            let m = cell(m);
            let links = [
                Link {
                    pair: (b2, m),
                    carrier: CellSet::EMPTY,
                    evidence: Evidence::Adjacent,
                },
                Link {
                    pair: (m, b),
                    carrier: CellSet::EMPTY,
                    evidence: Evidence::Adjacent,
                },
            ];
            let g = SubGame::new(pos.clone(), CellSet::single(m), vsc(b2, b)).unwrap();
            compose_and_first(&g, m, &links)
        };
        let a3 = semi_at("a3").expect("a3 joins b2 to the bottom").1.unwrap();
        let b3 = semi_at("b3").expect("b3 joins b2 to the bottom").1.unwrap();
        // c2 touches b2 but not the bottom: refused.
        assert!(semi_at("c2").is_none());
        let game = SubGame::new(pos.clone(), set("a3 b3"), vc(b2, b)).unwrap();
        assert!(compose_or(&game, &[&a3, &b3]).is_some());
        assert!(compose_or(&game, &[&a3, &a3]).is_none());
    }

    /// Black's `t - b` after `black` (and `white`) on `carrier`, by search.
    fn after(pos: &Position, black: Cell, white: Option<Cell>, carrier: CellSet) -> Verified {
        let mut p = pos.clone();
        p.play(Colour::Black, black).unwrap();
        if let Some(w) = white {
            p.play(Colour::White, w).unwrap();
        }
        let (t, b) = (Cell::border(Border::Top), Cell::border(Border::Bottom));
        verified(&p, carrier, vc(t, b))
    }

    #[test]
    fn a_white_node_is_composed_of_its_answers_and_a_missing_or_wrong_one_refused() {
        let (pos, set, _) = setup();
        let cell = |s: &str| set(s).first().unwrap();
        // Analyses by a3 and b3 (t - b on b1 c1), cases b1 => c1 and c1 => b1 (t - b on a3 b3).
        let by_a3 = after(&pos, cell("a3"), None, set("b1 c1"));
        let by_b3 = after(&pos, cell("b3"), None, set("b1 c1"));
        let b1_c1 = after(&pos, cell("c1"), Some(cell("b1")), set("a3 b3"));
        let c1_b1 = after(&pos, cell("b1"), Some(cell("c1")), set("a3 b3"));
        let answer = |reply: &str, verified| Answer {
            reply: cell(reply),
            verified,
        };
        let all = [
            answer("a3", &by_a3),
            answer("b3", &by_b3),
            answer("c1", &b1_c1),
            answer("b1", &c1_b1),
        ];
        let v = compose_white(&pos, &all).expect("every White move is answered");
        assert_eq!(v.sub_game().carrier(), set("a3 b3 b1 c1"));
        // Without the case for c1, White's c1 has no answer.
        assert!(compose_white(&pos, &all[..3]).is_none());
        // A reply that is not the one the answer's position holds (a2 for c1): refused
        // (condition 7, the lemma's position is not the node's).
        let wrong = [
            answer("a3", &by_a3),
            answer("b3", &by_b3),
            answer("a2", &b1_c1),
            answer("b1", &c1_b1),
        ];
        assert!(compose_white(&pos, &wrong).is_none());
        // The analyses' acceptances swapped (a3's given for b3): each lemma's position has
        // Black on the other cell: refused.
        let swapped = [
            answer("b3", &by_a3),
            answer("a3", &by_b3),
            answer("c1", &b1_c1),
            answer("b1", &c1_b1),
        ];
        assert!(compose_white(&pos, &swapped).is_none());
    }
}
