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

/// The HTML page of a small library (`templates::page`): row 2's file, and three published
/// entries — HexWiki's II (holds, the library's II), King's DK-row5-09 (holds, two goal
/// stones) and an undecided entry made here from HexWiki's III1a (no record).
#[test]
fn template_page_of_a_subset_is_stable() {
    use hexproof::templates::published::{PublishedFile, PublishedVerdict};
    let lib = Library::builtin().unwrap();
    let (ppath, pf) = lib.published.clone().unwrap();
    let entry = |name: &str| {
        pf.templates
            .iter()
            .find(|e| e.name == name)
            .unwrap()
            .clone()
    };
    let mut undecided = entry("III1a");
    undecided.name = "III1a (undecided, made by the test)".into();
    undecided.verdict = PublishedVerdict::Undecided;
    undecided.record = None;
    undecided.minimized = None;
    undecided.library = None;
    undecided.tried = "nothing: a test entry".into();
    undecided.digest = undecided.compute_digest();
    let small = Library {
        files: lib
            .files
            .iter()
            .filter(|(p, _)| p.ends_with("row2.json"))
            .cloned()
            .collect(),
        lemmas: None,
        published: Some((
            ppath,
            PublishedFile {
                sources: pf.sources.clone(),
                command: pf.command.clone(),
                templates: vec![entry("II"), entry("DK-row5-09"), undecided],
            },
        )),
    };
    let (html, sum) = hexproof::templates::page::html(&small, "a small library");
    assert_eq!(
        (sum.records, sum.records_ok, sum.holds, sum.undecided),
        (1, 1, 2, 1)
    );
    assert_eq!(sum.not_rechecked, 0);
    insta::assert_snapshot!("template_page_subset", html);
}
