//! Anshelevich's Fig. 9 kind of connection: a true VC that the AND and OR rules cannot build.
//!
//! Anshelevich (2002, §4): "Fig. 9 shows a counter-example. It represents a virtual
//! connection that cannot be built by H-search ... This virtual connection is formed by two
//! equivalent virtual semi-connections with disjoint carriers connected in parallel. A
//! computer program was used to verify that no combination of the AND and OR deduction rules
//! can establish these virtual semi-connections or the overall virtual connection."
//!
//! The figure itself is lost from our copy of the paper, so the position is reconstructed
//! with the same structure. A random search over small positions (exact search against
//! unlimited AND/OR closure) found a 9-cell VSC that the rules cannot derive: the Black chain
//! `b2 c2 d2` to the bottom of a 4×5 board, White on `a2 a3 a4 b5` and the right border
//! beside it. It plays exactly as Anshelevich describes his: Black's key `b4` (bridged to the
//! chain through `b3`/`c3`) threatens `a5`, which forces White there, and then `d4` secures
//! the connection (found with `hexproof verify`). Two copies side by side, separated by a
//! White wall (column e) and joined by a Black chain along row 1, give a VC from the chain to
//! the bottom: whichever copy White enters, Black plays the VSC of the other ("if White plays
//! at a, Black can reply with b, forcing White to occupy c. Then Black plays d").
//!
//! ```text
//!     a b c d e f g h i
//!  1  O O O X X X X O O
//!  2   O X X X O O X X X
//!  3    O * * * O O * * *
//!  4     O * * * O O * * *
//!  5      * O * * O * O * *        * = carrier, 9 + 9 cells
//! ```
//!
//! The exact search (kernel-checked) proves the VC and each VSC, and shows that neither copy
//! alone is a VC; no variant of the engine — H-search with or without M and K, FastVC
//! unlimited, limited or fast, with or without the edge-template seeds — finds the VC or
//! either VSC.

use hexproof::board::{Board, Border, Cell, CellSet, Colour, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;
use hexproof::vc::{HSearchLimits, Variant, VcParams, VcSet};

const BLACK: &str = "b2 c2 d2 d1 e1 f1 g1 g2 h2 i2";
const WHITE: &str = "a1 b1 c1 h1 i1 a2 e2 f2 a3 a4 b5 e3 e4 e5 f3 f4 g5";
const LEFT: &str = "b3 c3 d3 b4 c4 d4 a5 c5 d5";
const RIGHT: &str = "g3 h3 i3 g4 h4 i4 f5 h5 i5";

fn setup() -> (Position, CellSet, CellSet) {
    let b = Board::new(9, 5).unwrap();
    let p = Position::from_names(b, BLACK, WHITE, Notation::Letters).unwrap();
    let set = |s: &str| -> CellSet {
        b.parse_cells(s, Notation::Letters)
            .unwrap()
            .into_iter()
            .collect()
    };
    let (l, r) = (set(LEFT), set(RIGHT));
    assert_eq!(p.empty_cells(), l | r, "every other cell is filled");
    (p, l, r)
}

fn verdict(p: &Position, carrier: CellSet, owner_first: bool) -> Verdict {
    let b = p.board();
    let claim = Claim::parse(b, "c2 - b", Colour::Black, owner_first, Notation::Letters).unwrap();
    let game = SubGame::new(p.clone(), carrier, claim).unwrap();
    decide(&game, &Budget::nodes(10_000_000)).unwrap().verdict
}

#[test]
fn the_exact_search_proves_the_vc_and_its_two_semis() {
    let (p, l, r) = setup();
    assert_eq!(
        verdict(&p, l | r, false),
        Verdict::Holds,
        "VC on both copies"
    );
    for half in [l, r] {
        assert_eq!(
            verdict(&p, half, true),
            Verdict::Holds,
            "each copy is a VSC"
        );
        assert_eq!(verdict(&p, half, false), Verdict::Fails, "and not a VC");
    }
}

#[test]
fn no_and_or_closure_builds_it() {
    let (p, l, r) = setup();
    let chain = Cell::at(2, 1); // c2
    let bottom = Cell::border(Border::Bottom);
    let mut all = Vec::new();
    for variant in Variant::ALL {
        all.push(VcParams::new(variant));
        all.push(VcParams::new(variant).unseeded());
    }
    let mut unlimited = VcParams::new(Variant::HSearch);
    unlimited.hsearch = HSearchLimits::UNLIMITED;
    all.push(unlimited.clone());
    all.push(unlimited.unseeded());
    for params in all {
        let what = format!("{} (seeds: {})", params.variant, !params.seeds.is_empty());
        let v = VcSet::build(&p, Colour::Black, params);
        assert!(!v.status().is_incomplete(), "{what}");
        assert!(!v.is_won());
        assert!(
            v.vcs(chain, bottom).is_empty(),
            "{what} found a chain–bottom VC: {:?}",
            v.vcs(chain, bottom)
        );
        for s in v.vscs(chain, bottom) {
            assert!(
                !s.is_subset(&l) && !s.is_subset(&r),
                "{what} derived a copy's VSC {s:?}"
            );
        }
        // The rules do find the chain's easy connections, e.g. to the cells next to it.
        assert!(
            !v.vcs(chain, Cell::at(1, 3)).is_empty(),
            "{what}: chain – b4 (a bridge)"
        );
    }
}
