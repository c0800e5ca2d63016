//! Kernel condition 7b, filled lemma leaves (`kernel::check_filled`): a node proved by a claim
//! the kernel accepted in the node's position with a set F given to the owner, F dead or
//! captured in the node's position restricted to its carrier (Henderson, Arneson & Hayward
//! 2009 §3). Accepted only for the claim between the owner's two borders, with the node's
//! carrier the lemma's plus F; rejected: a set that is not dead, a pair that is not captured,
//! an inner claim, a carrier without F, F overlapping the lemma's carrier.
//!
//! The setting, on 3×3 (Black joins top and bottom): Black on b1 and a3 (a bridge through a2
//! and b2), White to move, the node's carrier K = {a2, b2, c2}; every other empty cell is
//! White's in the restricted position. c2 is dead there (its only Black-relevant neighbour is
//! b2), {a2, b2} is captured by Black (with Black on either, the other one's Black-relevant
//! neighbours are one chain), b2 alone is not dead and {b2, c2} is not captured.

use hexproof::board::{Board, Border, Cell, CellSet, Colour, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::kernel::{self, Certificate, Fill, KernelError, Node, NodeKind, Reply, Verified};
use hexproof::position::Position;

fn board() -> Board {
    Board::new(3, 3).unwrap()
}

fn set(names: &str) -> CellSet {
    board()
        .parse_cells(names, Notation::Letters)
        .unwrap()
        .into_iter()
        .collect()
}

fn cell(name: &str) -> Cell {
    board().parse_cell(name, Notation::Letters).unwrap()
}

fn tb() -> (Cell, Cell) {
    (Cell::border(Border::Top), Cell::border(Border::Bottom))
}

fn node(stones: CellSet, carrier: CellSet, kind: NodeKind) -> Node {
    Node {
        stones,
        carrier,
        goal: None,
        either: Vec::new(),
        with: Vec::new(),
        kind,
    }
}

fn game(black: &str, carrier: CellSet, pair: (Cell, Cell)) -> SubGame {
    let p = Position::new(board(), set(black), CellSet::EMPTY).unwrap();
    SubGame::new(
        p,
        carrier,
        Claim {
            owner: Colour::Black,
            pairs: vec![pair],
            owner_first: false,
        },
    )
    .unwrap()
}

/// The lemma: in the position with Black on `black`, the claim `pair` on `carrier`, proved by
/// a `Joined` root when it is already joined, else by the bridge a2 | b2.
fn lemma(black: &str, carrier: &str, pair: (Cell, Cell)) -> Verified {
    let g = game(black, set(carrier), pair);
    let joined = Certificate {
        nodes: vec![node(CellSet::EMPTY, set(carrier), NodeKind::Joined)],
        first: None,
        root: 0,
    };
    if let Ok(v) = kernel::check(&g, &joined) {
        return v;
    }
    let (a2, b2) = (cell("a2"), cell("b2"));
    let bridge = Certificate {
        nodes: vec![
            node(CellSet::single(a2), CellSet::EMPTY, NodeKind::Joined),
            node(CellSet::single(b2), CellSet::EMPTY, NodeKind::Joined),
            node(
                CellSet::EMPTY,
                set(carrier),
                NodeKind::Or(vec![
                    Reply { reply: a2, next: 0 },
                    Reply { reply: b2, next: 1 },
                ]),
            ),
        ],
        first: None,
        root: 2,
    };
    kernel::check(&g, &bridge).expect("the lemma holds")
}

/// The one-node certificate: the root, a filled lemma leaf on `carrier`.
fn leaf(carrier: CellSet) -> Certificate {
    Certificate {
        nodes: vec![node(CellSet::EMPTY, carrier, NodeKind::And(Vec::new()))],
        first: None,
        root: 0,
    }
}

fn dead(cells: &str) -> Fill {
    Fill {
        captured: false,
        cells: set(cells),
    }
}

fn captured(cells: &str) -> Fill {
    Fill {
        captured: true,
        cells: set(cells),
    }
}

/// `check_filled` of the root leaf on `carrier` in the game (Black b1 a3, claim `pair`).
fn run(
    carrier: &str,
    pair: (Cell, Cell),
    v: &Verified,
    fills: &[Fill],
) -> Result<Verified, KernelError> {
    let g = game("b1 a3", set(carrier), pair);
    kernel::check_filled(&g, &leaf(set(carrier)), &[], &[(0, v, fills)])
}

fn rejected_for(r: Result<Verified, KernelError>, why: &str) {
    match r {
        Err(KernelError::BadLemma(0, w)) => assert!(w.contains(why), "rejected, but for: {w}"),
        other => panic!("expected a rejection for {why:?}, got {other:?}"),
    }
}

#[test]
fn a_dead_cell_and_a_captured_pair_fill_a_lemma_leaf() {
    // Dead c2 given to Black; the bridge on {a2, b2} finishes.
    let v = lemma("b1 a3 c2", "a2 b2", tb());
    let ok = run("a2 b2 c2", tb(), &v, &[dead("c2")]).expect("dead c2 fills");
    assert_eq!(ok.sub_game().carrier(), set("a2 b2 c2"));
    // Captured {a2, b2} given to Black: joined, the lemma's carrier is c2 alone.
    let v = lemma("b1 a3 a2 b2", "c2", tb());
    run("a2 b2 c2", tb(), &v, &[captured("a2 b2")]).expect("captured a2 b2 fills");
    // Both, in order (the pair tested with c2 already Black's).
    let v = lemma("b1 a3 a2 b2 c2", "", tb());
    run("a2 b2 c2", tb(), &v, &[dead("c2"), captured("a2 b2")]).expect("both fill");
    // The same leaf is never a plain lemma leaf (condition 7: another position).
    let v = lemma("b1 a3 c2", "a2 b2", tb());
    let g = game("b1 a3", set("a2 b2 c2"), tb());
    assert!(kernel::check_with(&g, &leaf(set("a2 b2 c2")), &[(0, &v)]).is_err());
    // And without any lemma the empty and-node is rejected.
    assert!(kernel::check(&g, &leaf(set("a2 b2 c2"))).is_err());
}

#[test]
fn a_set_that_is_not_dead_is_rejected() {
    // b2 touches b1's chain and a3's chain, which are neither one chain nor adjacent (Black),
    // and a2 and c2 (White): not dead, although the lemma after it is true.
    let v = lemma("b1 a3 b2", "a2 c2", tb());
    rejected_for(run("a2 b2 c2", tb(), &v, &[dead("b2")]), "not dead");
}

#[test]
fn a_pair_that_is_not_captured_is_rejected() {
    // With Black on c2, b2 is not dead: {b2, c2} is not captured.
    let v = lemma("b1 a3 b2 c2", "a2", tb());
    rejected_for(
        run("a2 b2 c2", tb(), &v, &[captured("b2 c2")]),
        "not captured",
    );
    // A dead set is not a captured pair.
    let v = lemma("b1 a3 c2", "a2 b2", tb());
    rejected_for(run("a2 b2 c2", tb(), &v, &[captured("c2")]), "not captured");
}

#[test]
fn a_claim_not_between_the_owners_borders_is_rejected() {
    // b1 – bottom: an inner pair (b1 is a stone); the fill-in theorem is about the winner.
    let b1_bottom = (cell("b1"), Cell::border(Border::Bottom));
    let v = lemma("b1 a3 c2", "a2 b2", b1_bottom);
    rejected_for(run("a2 b2 c2", b1_bottom, &v, &[dead("c2")]), "two borders");
}

#[test]
fn a_carrier_without_the_filled_cells_is_rejected() {
    // The node's carrier is {a2, b2}: c2 is filled but outside it.
    let v = lemma("b1 a3 c2", "a2 b2", tb());
    rejected_for(
        run("a2 b2", tb(), &v, &[dead("c2")]),
        "does not contain the filled cells",
    );
    // The node's carrier larger than the lemma's and F: rejected too.
    let g = game("b1 a3", set("a2 b2 c2 c1"), tb());
    let r = kernel::check_filled(
        &g,
        &leaf(set("a2 b2 c2 c1")),
        &[],
        &[(0, &v, &[dead("c2")])],
    );
    rejected_for(r, "the lemma's and the filled cells");
}

#[test]
fn filled_cells_overlapping_the_lemmas_carrier_are_rejected() {
    // The lemma keeps c2 in its carrier (and does not hold it): F = {c2} overlaps it.
    let v = lemma("b1 a3", "a2 b2 c2", tb());
    rejected_for(
        run("a2 b2 c2", tb(), &v, &[dead("c2")]),
        "overlap the lemma's carrier",
    );
}

#[test]
fn a_lemma_whose_position_lacks_the_fills_or_no_fills_are_rejected() {
    // The lemma's position does not give F to Black.
    let v = lemma("b1 a3", "a2 b2", tb());
    rejected_for(run("a2 b2 c2", tb(), &v, &[dead("c2")]), "position");
    // No fills at all, and two fills on one cell.
    let v = lemma("b1 a3 c2", "a2 b2", tb());
    rejected_for(run("a2 b2 c2", tb(), &v, &[]), "without fills");
    rejected_for(
        run("a2 b2 c2", tb(), &v, &[dead("c2"), dead("c2")]),
        "overlaps",
    );
    // A filled leaf and a plain lemma on one node.
    let g = game("b1 a3", set("a2 b2 c2"), tb());
    let r = kernel::check_filled(
        &g,
        &leaf(set("a2 b2 c2")),
        &[(0, &v)],
        &[(0, &v, &[dead("c2")])],
    );
    rejected_for(r, "two lemmas");
}

/// Soundness cross-check against the exact search (fixed seed): on random 3×3 and 4×4
/// positions (White to move, Black's top–bottom claim on every empty cell), every fill the
/// kernel accepts — each empty cell and each pair of empty cells offered as a dead set and as a
/// captured pair, with the lemma proved by the exact search in the filled position — proves a
/// claim that the exact search finds true. Pins that both sides are exercised: offers 7b
/// accepts, and offers where the filled lemma holds but the claim fails (which it must refuse).
#[test]
fn every_accepted_filled_leaf_agrees_with_the_exact_search() {
    use hexproof::local::{decide, Budget, Verdict};
    let mut seed: u64 = 0x7b_f111_5eed;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let claim = Claim {
        owner: Colour::Black,
        pairs: vec![tb()],
        owner_first: false,
    };
    let budget = Budget::nodes(2_000_000);
    // `traps`: offers where the filled lemma holds but the claim itself fails — each must be
    // refused.
    let (mut accepted, mut offered, mut traps) = (0usize, 0usize, 0usize);
    for round in 0..120 {
        let n = if round % 2 == 0 { 3 } else { 4 };
        let b = Board::new(n, n).unwrap();
        let (mut black, mut white) = (CellSet::EMPTY, CellSet::EMPTY);
        for c in b.cells().iter() {
            match next() % 7 {
                0 | 1 => {
                    black.insert(c);
                }
                2 => {
                    white.insert(c);
                }
                _ => {}
            }
        }
        let Ok(pos) = Position::new(b, black, white) else {
            continue;
        };
        let k = pos.empty_cells();
        let Ok(g) = SubGame::new(pos.clone(), k, claim.clone()) else {
            continue;
        };
        let truth = decide(&g, &budget).unwrap().verdict;
        assert_ne!(truth, Verdict::Undecided);
        let leaf = Certificate {
            nodes: vec![node(CellSet::EMPTY, k, NodeKind::And(Vec::new()))],
            first: None,
            root: 0,
        };
        let cells: Vec<Cell> = k.iter().collect();
        let mut candidates: Vec<CellSet> = cells.iter().map(|&c| CellSet::single(c)).collect();
        for (i, &a) in cells.iter().enumerate() {
            for &z in &cells[i + 1..] {
                candidates.push(CellSet::single(a) | CellSet::single(z));
            }
        }
        for f in candidates {
            let Ok(filled) = Position::new(b, black | f, white) else {
                continue;
            };
            let Ok(lg) = SubGame::new(filled, k - f, claim.clone()) else {
                continue;
            };
            let o = decide(&lg, &budget).unwrap();
            let Some(v) = o.verified else { continue };
            for captured in [false, true] {
                offered += 1;
                traps += usize::from(truth == Verdict::Fails);
                let fill = [Fill { captured, cells: f }];
                if kernel::check_filled(&g, &leaf, &[], &[(0, &v, &fill)]).is_ok() {
                    accepted += 1;
                    assert_eq!(
                        truth,
                        Verdict::Holds,
                        "7b accepted {f:?} (captured {captured}) in {pos:?}, but the claim fails"
                    );
                }
            }
        }
    }
    eprintln!("7b accepted {accepted} of {offered} offers; {traps} traps refused");
    assert!(
        accepted >= 20,
        "7b accepted only {accepted} of {offered} offers"
    );
    assert!(traps >= 20, "only {traps} offers where the claim fails");
}
