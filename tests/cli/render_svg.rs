//! SVG pictures: byte-stable outputs of every drawer (snapshots), so that factoring the shared
//! geometry into `render::svg` cannot change what the `templates` and `vc` commands print.

use hexproof::board::{Board, CellSet, Colour, Notation};
use hexproof::position::Position;
use hexproof::templates::{draw, library::Library};
use std::path::Path;

fn cells(b: &Board, s: &str) -> CellSet {
    b.parse_cells(s, Notation::Letters)
        .unwrap()
        .into_iter()
        .collect()
}

#[test]
fn template_svg_is_stable() {
    let lib = Library::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("templates")).unwrap();
    let r = lib.find("IIIa").or_else(|| lib.find("III1a")).unwrap();
    insta::assert_snapshot!("template_iii1a", draw::svg(r));
}

#[test]
fn vc_svg_is_stable() {
    let b = Board::square(4).unwrap();
    let p = Position::from_names(b, "b2 c3", "a1", Notation::Letters).unwrap();
    let first = cells(&b, "b1 c1 d1");
    let second = cells(&b, "c2 a4 b4");
    let doc = hexproof::vc::render::svg(
        &p,
        Colour::Black,
        first,
        second,
        Some(cells(&b, "c2")),
        Notation::Letters,
        &["a line <with> & markup".into()],
    );
    insta::assert_snapshot!("vc_sides_4x4", doc);
}
