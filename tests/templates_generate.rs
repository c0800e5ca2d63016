//! The template generator: it rediscovers HexWiki's one-stone templates, its output is minimal
//! (confirmed by search), it is stable, and matched instances hold on random boards.

use hexproof::board::{Board, Border, Cell, CellSet, Colour};
use hexproof::position::Position;
use hexproof::search::{decide, Budget, Verdict};
use hexproof::templates::generate::{
    build_file, enumerate, hexwiki_one_stone, region_cells, GenOptions, Grid,
};
use hexproof::templates::library::{mirror, Library, Record, Symmetry};
use hexproof::templates::matching;
use hexproof::templates::EdgeTemplate;
use proptest::prelude::*;
use std::path::Path;
use std::time::Duration;

fn library() -> Library {
    Library::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"))
        .expect("the library loads")
}

fn budget() -> Budget {
    Budget {
        nodes: 50_000_000,
        time: Some(Duration::from_secs(60)),
        ..Budget::default()
    }
}

fn opts() -> GenOptions {
    GenOptions {
        budget: budget(),
        deadline: None,
        checkpoint: None,
        progress: false,
        batch: 64,
        seeds: Vec::new(),
    }
}

#[test]
fn small_rows_regenerate_exactly_as_shipped() {
    // Rows 2 and 3 are cheap: run the generator on the shipped regions and compare the
    // templates (names, carriers, classes) with the shipped files.
    let lib = library();
    for (_, f) in lib.files.iter().filter(|(_, f)| f.row <= 3) {
        let grid = Grid::new(f.row, f.region.height, f.region.width).unwrap();
        let en = enumerate(&grid, &opts()).unwrap();
        assert!(en.complete);
        let built = build_file(&grid, &en, &budget()).unwrap();
        let key = |r: &Record| (r.name.clone(), r.carrier.clone(), r.symmetry, r.minimality);
        assert_eq!(
            built.templates.iter().map(key).collect::<Vec<_>>(),
            f.templates.iter().map(key).collect::<Vec<_>>(),
            "row {}",
            f.row
        );
        assert_eq!(built.complete, f.complete);
    }
}

#[test]
fn generator_rediscovers_every_hexwiki_template_that_fits() {
    let lib = library();
    let wiki = hexwiki_one_stone();
    let mut checked = Vec::new();
    for (_, f) in &lib.files {
        let region = region_cells(f.row, f.region.height, f.region.width);
        for (name, row, carrier) in &wiki {
            if *row != f.row || !carrier.iter().all(|c| region.contains(c)) {
                continue;
            }
            assert!(
                f.complete,
                "row {} is incomplete, cannot claim {name}",
                f.row
            );
            let found = f.templates.iter().find(|r| &r.carrier == carrier);
            let found = found.unwrap_or_else(|| {
                panic!("HexWiki {name} fits the row-{row} region but was not generated")
            });
            assert_eq!(found.provenance.hexwiki.as_deref(), Some(name.as_str()));
            assert_eq!(&found.name, name);
            checked.push(name.clone());
        }
    }
    for must in ["II", "III1a", "III1b", "IV1a", "IV1b"] {
        assert!(
            checked.iter().any(|n| n == must),
            "{must} is not covered by a shipped region: {checked:?}"
        );
    }
}

#[test]
fn every_generated_template_is_minimal_by_search() {
    let lib = library();
    for r in lib.records() {
        let (game, carrier, _) = r.sub_game().unwrap();
        let whole = decide(&game, &budget()).unwrap();
        assert_eq!(whole.verdict, Verdict::Holds, "{}", r.name);
        for c in carrier {
            let mut s = game.carrier();
            s.remove(c);
            let o = decide(&game.with_carrier(s).unwrap(), &budget()).unwrap();
            assert_eq!(
                o.verdict,
                Verdict::Fails,
                "{}: dropping {c:?} should break it",
                r.name
            );
        }
    }
}

#[test]
fn mirror_classes_are_canonical() {
    for r in library().records() {
        let m: Vec<_> = r.carrier.iter().map(|&c| mirror(c, r.row)).collect();
        let mut m = m;
        m.sort();
        match r.symmetry {
            Symmetry::Symmetric => assert_eq!(m, r.carrier, "{}", r.name),
            Symmetry::Chiral => assert!(r.carrier < m, "{}", r.name),
        }
    }
}

/// Places `r` (or its mirror image) at `border` with its column 0 at `offset` on a random
/// position; returns the position with the template's stone set and its carrier cleared.
fn plant(
    mut p: Position,
    r: &Record,
    mirrored: bool,
    border: Border,
    offset: i32,
) -> Option<(Position, Cell, CellSet)> {
    let tr = |rc: [i32; 2]| if mirrored { mirror(rc, r.row) } else { rc };
    let board = *p.board();
    let stone = EdgeTemplate::cell_at(&board, border, offset, tr(r.stones[0]))?;
    let mut carrier = CellSet::EMPTY;
    for &c in &r.carrier {
        carrier.insert(EdgeTemplate::cell_at(&board, border, offset, tr(c))?);
    }
    for c in carrier.iter().chain(std::iter::once(stone)) {
        p.clear(c);
    }
    p.play(border.owner(), stone).ok()?;
    Some((p, stone, carrier))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn matched_templates_hold_on_random_boards(
        seed_cells in proptest::collection::vec((0u8..19, 0u8..19, any::<bool>()), 0..60),
        size in 7u32..=13,
        pick in any::<prop::sample::Index>(),
        border_i in 0usize..4,
        mirrored in any::<bool>(),
        offset_frac in 0.0f64..1.0,
    ) {
        let lib = library();
        let records: Vec<&Record> = lib.records().collect();
        let r = records[pick.index(records.len())];
        let board = Board::square(size).unwrap();
        let mut black = CellSet::EMPTY;
        let mut white = CellSet::EMPTY;
        for (c, rr, b) in seed_cells {
            if let Some(cell) = board.cell(c as i32, rr as i32) {
                if b { black.insert(cell); } else if !black.contains(cell) { white.insert(cell); }
            }
        }
        let p = Position::new(board, black, white - black).unwrap();
        let border = Border::ALL[border_i];
        let offset = (offset_frac * 2.0 * size as f64) as i32 - size as i32 / 2;
        if let Some((p, stone, carrier)) = plant(p, r, mirrored && r.symmetry == Symmetry::Chiral, border, offset) {
            let found = matching::find(&p, records.iter().copied());
            // The planted instance is found.
            prop_assert!(found.iter().any(|m| m.name == r.name && m.stone == stone && m.carrier == carrier && m.border == border),
                "{} planted at {:?} not found", r.name, border);
            // Every instance found holds there, by search (at most 6 per case, to stay fast).
            for m in found.iter().take(6) {
                prop_assert_eq!(m.border.owner() == Colour::Black, [Border::Top, Border::Bottom].contains(&m.border));
                let o = decide(&m.sub_game(&p), &budget()).unwrap();
                prop_assert_eq!(o.verdict, Verdict::Holds, "{} at {:?} stone {:?}", m.name, m.border, m.stone);
            }
        }
    }
}

#[test]
fn every_template_is_found_and_holds_at_every_edge_and_orientation() {
    let lib = library();
    let records: Vec<&Record> = lib.records().collect();
    let board = Board::square(13).unwrap();
    for r in &records {
        for border in Border::ALL {
            for mirrored in [false, true] {
                let offset = match border {
                    Border::Top | Border::Left => 4,
                    Border::Bottom | Border::Right => 8,
                };
                let (p, stone, carrier) =
                    plant(Position::empty(board), r, mirrored, border, offset)
                        .unwrap_or_else(|| panic!("{} fits a 13x13 board", r.name));
                let found = matching::find(&p, records.iter().copied());
                let want_mirrored = mirrored && r.symmetry == Symmetry::Chiral;
                let m = found
                    .iter()
                    .find(|m| {
                        m.name == r.name
                            && m.stone == stone
                            && m.border == border
                            && m.mirrored == want_mirrored
                    })
                    .unwrap_or_else(|| {
                        panic!("{} at {border:?} (mirrored {mirrored}) not matched", r.name)
                    });
                assert_eq!(m.carrier, carrier);
                let o = decide(&m.sub_game(&p), &budget()).unwrap();
                assert_eq!(o.verdict, Verdict::Holds, "{} at {border:?}", r.name);
            }
        }
    }
}

#[test]
fn seeding_with_hexwiki_changes_nothing_but_provenance() {
    let grid = Grid::new(3, 3, 7).unwrap();
    let plain = enumerate(&grid, &opts()).unwrap();
    let mut o = opts();
    o.seeds = hexwiki_one_stone()
        .into_iter()
        .filter(|t| t.1 == 3)
        .map(|t| t.2)
        .collect();
    // A wrong seed (the ziggurat minus a cell does not hold) is simply dropped.
    let mut wrong = o.seeds[0].clone();
    wrong.pop();
    o.seeds.push(wrong);
    let seeded = enumerate(&grid, &o).unwrap();
    assert!(plain.complete && seeded.complete);
    let mut a = plain.minimal.clone();
    let mut b = seeded.minimal.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    let file = build_file(&grid, &seeded, &budget()).unwrap();
    assert!(file
        .templates
        .iter()
        .all(|r| r.provenance.source == "generated-from-seed"));
}
