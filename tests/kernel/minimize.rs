//! Carrier minimisation (issue 2, must-show 3): the ziggurat's 8 cells from a larger
//! trapezoid, and a minimal carrier for a fourth-row stone.

use hexproof::board::{Board, CellSet, Colour, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::local::{decide, minimize, minimize_with, Budget, Minimality, Verdict};
use hexproof::position::Position;

fn game(board: &str, black: &str, region: &str, claim: &str) -> SubGame {
    let b = Board::parse(board).unwrap();
    let p = Position::from_names(b, black, "", Notation::Letters).unwrap();
    let carrier: CellSet = b
        .parse_cells(region, Notation::Letters)
        .unwrap()
        .into_iter()
        .collect();
    let c = Claim::parse(&b, claim, Colour::Black, false, Notation::Letters).unwrap();
    SubGame::new(p, carrier, c).unwrap()
}

/// Every cell of `carrier` is needed: removing any one makes the claim fail.
fn assert_minimal(g: &SubGame, carrier: CellSet) {
    let holds = decide(&g.with_carrier(carrier).unwrap(), &Budget::default()).unwrap();
    assert_eq!(holds.verdict, Verdict::Holds);
    for c in carrier.iter() {
        let mut smaller = carrier;
        smaller.remove(c);
        let o = decide(&g.with_carrier(smaller).unwrap(), &Budget::default()).unwrap();
        assert_eq!(o.verdict, Verdict::Fails, "cell {c:?} is not needed");
    }
}

#[test]
fn ziggurat_from_a_trapezoid_is_minimum() {
    let g = game(
        "7x7",
        "d5",
        "b5 c5 e5 f5 a6 b6 c6 d6 e6 f6 a7 b7 c7 d7 e7 f7",
        "d5 - b",
    );
    let r = minimize(&g, &Budget::default()).unwrap();
    let carrier = r.carrier.expect("the claim holds on the region");
    assert_eq!(carrier.len(), 8);
    assert_eq!(r.minimality, Minimality::Minimum);
    assert_minimal(&g, carrier);
}

#[test]
fn fourth_row_carrier_is_minimal() {
    // A fourth-row stone (e6 on 9x9: rows 7, 8, 9 below) with a wide region around IV1a.
    let g = game(
        "9x9",
        "e6",
        "d6 f6 c7 d7 e7 f7 g7 b8 c8 d8 e8 f8 g8 h8 a9 b9 c9 d9 e9 f9 g9 h9 i9",
        "e6 - b",
    );
    let r = minimize_with(&g, &Budget::default(), 0).unwrap();
    let carrier = r.carrier.expect("the claim holds on the region");
    // HexWiki's IV1a has 19 empty cells.
    assert_eq!(carrier.len(), 19);
    assert_eq!(
        r.minimality,
        Minimality::Unknown,
        "the minimum check was skipped"
    );
    assert_minimal(&g, carrier);
}

#[test]
fn failing_region_has_no_carrier() {
    let g = game("7x7", "d5", "c6 d6 c7 d7", "d5 - b");
    let r = minimize(&g, &Budget::default()).unwrap();
    assert_eq!(r.region_verdict, Verdict::Fails);
    assert!(r.carrier.is_none());
}
