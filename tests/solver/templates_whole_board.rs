//! Refutations by the whole-board solver (src/templates/whole_board.rs): the encoding of an
//! edge template's sub-game as a Hex position gives the same verdicts as the local exact
//! search, and it settles IV1c's minimality (its 37 one-cell removals all fail), which the
//! local search left undecided at 3.5 M nodes per removal.

use hexproof::edge_template::Rc;
use hexproof::enumerate::{hexwiki_one_stone, Grid};
use hexproof::local::{decide, Budget, Verdict};
use hexproof::prove::whole_board::{refute_checked, solve, Refutation};
use hexproof::templates::library::{mirror, MinimalityTag};

use crate::common_templates;
use common_templates::library;

const NODES: u64 = 2_000_000;

/// The local exact search's verdict on `carrier` (a subset of `grid`'s cells).
fn local(grid: &Grid, carrier: &[Rc]) -> Option<bool> {
    let mask = carrier.iter().fold(0u128, |m, rc| {
        m | 1
            << grid
                .cells
                .iter()
                .position(|x| x == rc)
                .expect("a region cell")
    });
    let o = decide(&grid.game(mask), &Budget::nodes(5_000_000)).expect("a sub-game");
    match o.verdict {
        Verdict::Holds => Some(true),
        Verdict::Fails => Some(false),
        _ => None,
    }
}

/// HexWiki's one-stone templates of rows 2–4 that the local search settles quickly: the
/// solver says each holds and each one-cell removal fails, as the local search does.
#[test]
fn small_templates_and_their_removals_agree_with_the_local_search() {
    let mut checked = 0;
    for (name, row, carrier) in hexwiki_one_stone() {
        if row > 4 || carrier.len() > 22 {
            continue;
        }
        let mut cells = carrier.clone();
        cells.extend(carrier.iter().map(|&rc| mirror(rc, row)));
        cells.sort();
        cells.dedup();
        let grid = Grid::with_cells(row, cells).unwrap();
        assert_eq!(solve([row, 0], &carrier, NODES), Some(true), "{name}");
        assert_eq!(local(&grid, &carrier), Some(true), "{name}");
        for i in 0..carrier.len() {
            let mut c = carrier.clone();
            let gone = c.remove(i);
            let s = solve([row, 0], &c, NODES);
            assert_eq!(s, Some(false), "{name} without {gone:?}");
            assert_eq!(local(&grid, &c), s, "{name} without {gone:?}");
            checked += 1;
        }
    }
    assert!(checked >= 2 + 8 + 10 + 19 + 22, "{checked} removals");
}

/// Random carriers inside the row-3 region 4×7 (25 cells, the row above the stone included)
/// and the row-4 region 4×8: both methods decide each, and they agree.
#[test]
fn random_carriers_agree_with_the_local_search() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut holds, mut fails) = (0, 0);
    for (row, height, width, n) in [(3, 4, 7, 60), (4, 4, 8, 12)] {
        let grid = Grid::new(row, height, width).unwrap();
        for _ in 0..n {
            // Keep each cell with probability 15/16 (rows 1–2) or 1/2 (higher rows).
            let carrier: Vec<Rc> = grid
                .cells
                .iter()
                .copied()
                .filter(|rc| next() % 16 < if rc[0] <= 2 { 15 } else { 8 })
                .collect();
            // Not encodable when both cells above the stone are in the carrier.
            let Some(s) = solve([row, 0], &carrier, NODES) else {
                continue;
            };
            assert_eq!(local(&grid, &carrier), Some(s), "row {row}: {carrier:?}");
            if s {
                holds += 1;
            } else {
                fails += 1;
            }
        }
    }
    assert!(holds >= 5 && fails >= 5, "{holds} hold, {fails} fail");
}

fn iv1c() -> (Rc, Vec<Rc>) {
    let lib = library();
    let r = lib.find("IV1c").expect("IV1c is shipped");
    assert_eq!(r.minimality, MinimalityTag::Minimal);
    (r.stones[0], r.carrier.clone())
}

/// IV1c holds by the solver too, and a few of its removals fail (the rest: below, ignored).
#[test]
fn iv1c_holds_and_some_removals_fail() {
    let (stone, carrier) = iv1c();
    assert_eq!(solve(stone, &carrier, NODES), Some(true));
    for gone in [[1, 1], [2, 1], [3, -1], [4, 1], [3, 3]] {
        let c: Vec<Rc> = carrier.iter().copied().filter(|&x| x != gone).collect();
        assert_eq!(
            solve(stone, &c, NODES),
            Some(false),
            "IV1c without {gone:?}"
        );
    }
}

/// IV1c is minimal: every one of its 37 one-cell removals fails, by the solver (about a
/// minute of wall time under load; the hardest, [2, −2], takes most of it):
/// `cargo test --release --test templates_whole_board -- --ignored`
#[test]
#[ignore]
fn iv1c_is_minimal() {
    let (stone, carrier) = iv1c();
    for &gone in &carrier {
        let c: Vec<Rc> = carrier.iter().copied().filter(|&x| x != gone).collect();
        assert_eq!(
            solve(stone, &c, 5_000_000),
            Some(false),
            "IV1c without {gone:?}"
        );
    }
}

/// A refutation counts only when the checker re-proves the solver's exported proof: IV1a's
/// one-cell removals are refuted so (each an exported `.hexp` strategy the checker accepts),
/// while IV1a itself, which holds, gets no refutation.
#[test]
fn checked_refutations_of_iv1a_removals() {
    let (_, row, carrier) = hexwiki_one_stone()
        .into_iter()
        .find(|t| t.0 == "IV1a")
        .unwrap();
    assert_eq!(
        refute_checked([row, 0], &carrier, NODES),
        Refutation::NotFound
    );
    let mut proofs = 0;
    for gone in [[1, 0], [2, -1], [3, 1], [4, -1]] {
        assert!(carrier.contains(&gone), "{gone:?}");
        let c: Vec<Rc> = carrier.iter().copied().filter(|&x| x != gone).collect();
        match refute_checked([row, 0], &c, NODES) {
            Refutation::Checked { lines, .. } => proofs += (lines > 0) as usize,
            other => panic!("IV1a without {gone:?}: {other:?}"),
        }
    }
    assert!(proofs >= 1, "at least one refutation is a checked proof");
}
