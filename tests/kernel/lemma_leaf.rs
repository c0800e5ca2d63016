//! Kernel condition 7, lemma leaves (`kernel::check_with`): a node proved by a claim the kernel
//! accepted before stands in a certificate as an and-node without children. Accepted only
//! when the lemma states exactly the node's claim (position with the node's stones, carrier,
//! goal, opponent first); the same certificate without its lemmas is rejected by `check`.
//!
//! The setting, on 3×3: Black on b1, and a sub-pattern "the bridge from b1 to a3" whose
//! carrier is the two cells between them. The lemma is the bridge checked on its own after
//! Black's a3; the parent (Black on b1 only, Black first, b1 to the bottom) plays a3 and then
//! relies on the bridge lemma.

use hexproof::board::{Board, Border, Cell, CellSet, Colour};
use hexproof::claim::{Claim, SubGame};
use hexproof::kernel::{self, Certificate, KernelError, Node, NodeKind, Reply, Verified};
use hexproof::position::Position;

struct Setting {
    board: Board,
    a: Cell,
    b: Cell,
    /// The bridge's two cells.
    bridge: CellSet,
}

fn setting() -> Setting {
    let board = Board::new(3, 3).unwrap();
    let a = Cell::at(1, 0);
    let b = Cell::at(0, 2);
    let bridge = board.neighbours(a) & board.neighbours(b);
    assert_eq!(bridge.len(), 2, "b1 and a3 form a bridge");
    Setting {
        board,
        a,
        b,
        bridge,
    }
}

fn node(stones: CellSet, carrier: CellSet, goal: Option<(Cell, Cell)>, kind: NodeKind) -> Node {
    Node {
        stones,
        carrier,
        goal,
        either: Vec::new(),
        with: Vec::new(),
        kind,
    }
}

/// The bridge a - b after Black's a and b (and `extra`), White first, checked by the kernel.
fn bridge_lemma(s: &Setting, pairs: Vec<(Cell, Cell)>, extra: Option<Cell>) -> Verified {
    let mut p = Position::empty(s.board);
    p.play(Colour::Black, s.a).unwrap();
    p.play(Colour::Black, s.b).unwrap();
    if let Some(c) = extra {
        p.play(Colour::Black, c).unwrap();
    }
    let game = SubGame::new(
        p,
        s.bridge,
        Claim {
            owner: Colour::Black,
            pairs,
            owner_first: false,
        },
    )
    .unwrap();
    let cells: Vec<Cell> = s.bridge.iter().collect();
    let nodes = vec![
        node(
            CellSet::single(cells[0]),
            CellSet::EMPTY,
            None,
            NodeKind::Joined,
        ),
        node(
            CellSet::single(cells[1]),
            CellSet::EMPTY,
            None,
            NodeKind::Joined,
        ),
        node(
            CellSet::EMPTY,
            s.bridge,
            None,
            NodeKind::Or(vec![
                Reply {
                    reply: cells[0],
                    next: 0,
                },
                Reply {
                    reply: cells[1],
                    next: 1,
                },
            ]),
        ),
    ];
    kernel::check(
        &game,
        &Certificate {
            nodes,
            first: None,
            root: 2,
        },
    )
    .expect("the bridge holds")
}

/// The parent: Black on b1 only, Black first, claim b1 - bottom on the bridge and a3. Black
/// plays a3 (the first move, on the bottom row), then an and-node whose only child is the leaf
/// for the bridge b1 - a3, with `leaf_stones` (a3 when written right).
fn parent(s: &Setting, leaf_stones: CellSet) -> (SubGame, Certificate) {
    let mut p = Position::empty(s.board);
    p.play(Colour::Black, s.a).unwrap();
    let game = SubGame::new(
        p,
        s.bridge | CellSet::single(s.b),
        Claim {
            owner: Colour::Black,
            pairs: vec![(s.a, Cell::border(Border::Bottom))],
            owner_first: true,
        },
    )
    .unwrap();
    // Black first: plays b, then the bridge lemma (an and-node with the leaf as its child).
    let nodes = vec![
        node(
            leaf_stones,
            s.bridge,
            Some((s.a, s.b)),
            NodeKind::And(Vec::new()),
        ),
        node(CellSet::single(s.b), s.bridge, None, NodeKind::And(vec![0])),
    ];
    (
        game,
        Certificate {
            nodes,
            first: Some(s.b),
            root: 1,
        },
    )
}

#[test]
fn a_lemma_leaf_stating_the_nodes_claim_is_accepted() {
    let s = setting();
    let lemma = bridge_lemma(&s, vec![(s.a, s.b)], None);
    let (game, cert) = parent(&s, CellSet::single(s.b));
    kernel::check_with(&game, &cert, &[(0, &lemma)]).expect("the leaf states the lemma");
}

#[test]
fn without_its_lemma_the_leaf_is_an_empty_and_node_and_rejected() {
    let s = setting();
    let (game, cert) = parent(&s, CellSet::single(s.b));
    assert!(matches!(
        kernel::check(&game, &cert),
        Err(KernelError::BadAnd(0, _))
    ));
}

#[test]
fn a_lemma_for_another_position_carrier_or_goal_is_rejected() {
    let s = setting();
    let lemma = bridge_lemma(&s, vec![(s.a, s.b)], None);
    // The lemma's position has one more Black stone (c3) than the node's.
    let richer = bridge_lemma(&s, vec![(s.a, s.b)], Some(Cell::at(2, 2)));
    let (game, cert) = parent(&s, CellSet::single(s.b));
    let err = kernel::check_with(&game, &cert, &[(0, &richer)]).unwrap_err();
    assert!(
        matches!(err, KernelError::BadLemma(0, why) if why.contains("position")),
        "{err}"
    );
    // The leaf's carrier is one cell of the bridge only.
    let (game, mut cert) = parent(&s, CellSet::single(s.b));
    let one = CellSet::single(s.bridge.first().unwrap());
    cert.nodes[0].carrier = one;
    cert.nodes[1].carrier = one;
    let err = kernel::check_with(&game, &cert, &[(0, &lemma)]).unwrap_err();
    assert!(
        matches!(err, KernelError::BadLemma(0, why) if why.contains("carrier")),
        "{err}"
    );
    // The lemma's goal is a union the node does not claim (a - b | a - a... any other pair).
    let wider = bridge_lemma(&s, vec![(s.a, s.b), (s.b, s.a)], None);
    let (game, cert) = parent(&s, CellSet::single(s.b));
    let err = kernel::check_with(&game, &cert, &[(0, &wider)]).unwrap_err();
    assert!(
        matches!(err, KernelError::BadLemma(0, why) if why.contains("goal")),
        "{err}"
    );
}

#[test]
fn a_lemma_on_a_node_that_is_not_a_leaf_is_rejected() {
    let s = setting();
    let lemma = bridge_lemma(&s, vec![(s.a, s.b)], None);
    let (game, cert) = parent(&s, CellSet::single(s.b));
    // The lemma also given for the and-node with a child (node 1).
    let err = kernel::check_with(&game, &cert, &[(0, &lemma), (1, &lemma)]).unwrap_err();
    assert!(matches!(err, KernelError::BadLemma(1, _)), "{err}");
    // Two lemmas for one node, and a lemma for a node that does not exist.
    let err = kernel::check_with(&game, &cert, &[(0, &lemma), (0, &lemma)]).unwrap_err();
    assert!(matches!(err, KernelError::BadLemma(0, _)), "{err}");
    assert!(kernel::check_with(&game, &cert, &[(7, &lemma)]).is_err());
}

/// The bridge lemma with a White stone added at `white` (and none else).
fn bridge_lemma_with_white(s: &Setting, white: Cell) -> Verified {
    let mut p = Position::empty(s.board);
    p.play(Colour::Black, s.a).unwrap();
    p.play(Colour::Black, s.b).unwrap();
    p.play(Colour::White, white).unwrap();
    let game = SubGame::new(
        p,
        s.bridge,
        Claim {
            owner: Colour::Black,
            pairs: vec![(s.a, s.b)],
            owner_first: false,
        },
    )
    .unwrap();
    let cells: Vec<Cell> = s.bridge.iter().collect();
    let nodes = vec![
        node(
            CellSet::single(cells[0]),
            CellSet::EMPTY,
            None,
            NodeKind::Joined,
        ),
        node(
            CellSet::single(cells[1]),
            CellSet::EMPTY,
            None,
            NodeKind::Joined,
        ),
        node(
            CellSet::EMPTY,
            s.bridge,
            None,
            NodeKind::Or(vec![
                Reply {
                    reply: cells[0],
                    next: 0,
                },
                Reply {
                    reply: cells[1],
                    next: 1,
                },
            ]),
        ),
    ];
    kernel::check(
        &game,
        &Certificate {
            nodes,
            first: None,
            root: 2,
        },
    )
    .expect("the bridge holds with a White stone elsewhere")
}

/// Condition 7a: a lemma whose position has an extra White stone outside the leaf's carrier
/// and off its goal's ends states the same sub-game and is accepted, and so is the other way
/// round (the game has the White stone, the lemma not); one whose extra stone is Black is
/// refused. (A difference on a goal end cannot be built: a White end makes the lemma's or
/// the node's claim invalid, `SubGame::new` or condition 5; the kernel checks it anyway.)
#[test]
fn a_lemma_with_other_white_stones_outside_the_carrier_is_accepted() {
    let s = setting();
    // c3 is outside the bridge and is no end of b1 - a3.
    let c3 = Cell::at(2, 2);
    assert!(!s.bridge.contains(c3));
    let lemma = bridge_lemma_with_white(&s, c3);
    let (game, cert) = parent(&s, CellSet::single(s.b));
    kernel::check_with(&game, &cert, &[(0, &lemma)]).expect("7a: White's c3 does not matter");
    // The same lemma with a Black stone instead is a position with more owner cells: refused.
    let richer = bridge_lemma(&s, vec![(s.a, s.b)], Some(c3));
    let err = kernel::check_with(&game, &cert, &[(0, &richer)]).unwrap_err();
    assert!(
        matches!(err, KernelError::BadLemma(0, why) if why.contains("position")),
        "{err}"
    );
    // The other way round: the game has White's c3, the lemma (plain bridge) not.
    let plain = bridge_lemma(&s, vec![(s.a, s.b)], None);
    let (game, cert) = parent(&s, CellSet::single(s.b));
    let mut p = game.position().clone();
    p.play(Colour::White, c3).unwrap();
    let game = SubGame::new(p, game.carrier(), game.claim().clone()).unwrap();
    kernel::check_with(&game, &cert, &[(0, &plain)]).expect("7a, the other way round");
}

/// `Verified::rotated180`: the bridge lemma turned by 180° states the turned bridge, and is
/// accepted as the leaf of the turned parent; the unturned lemma is not, and turning twice
/// gives the lemma's own sub-game back.
#[test]
fn a_lemma_turned_by_180_degrees_states_the_turned_claim() {
    let s = setting();
    let lemma = bridge_lemma(&s, vec![(s.a, s.b)], None);
    let turn = hexproof::board::Transform::rotate180(&s.board);
    let t = Setting {
        board: s.board,
        a: turn.apply(s.a, &s.board).unwrap(),
        b: turn.apply(s.b, &s.board).unwrap(),
        bridge: s.bridge.rotated180(&s.board),
    };
    let turned = lemma.rotated180().expect("a sub-game");
    assert_eq!(turned.sub_game().carrier(), t.bridge);
    assert_eq!(turned.sub_game().claim().pairs, vec![(t.a, t.b)]);
    // The turned parent claims a3's image to the *top* border: the bottom turns to the top.
    let mut p = Position::empty(t.board);
    p.play(Colour::Black, t.a).unwrap();
    let game = SubGame::new(
        p,
        t.bridge | CellSet::single(t.b),
        Claim {
            owner: Colour::Black,
            pairs: vec![(t.a, Cell::border(Border::Top))],
            owner_first: true,
        },
    )
    .unwrap();
    let (_, cert) = parent(&t, CellSet::single(t.b));
    kernel::check_with(&game, &cert, &[(0, &turned)]).expect("the turned lemma fits");
    assert!(kernel::check_with(&game, &cert, &[(0, &lemma)]).is_err());
    let back = turned.rotated180().unwrap();
    assert_eq!(back.sub_game().position(), lemma.sub_game().position());
    assert_eq!(back.sub_game().carrier(), lemma.sub_game().carrier());
    assert_eq!(back.sub_game().claim(), lemma.sub_game().claim());
}
