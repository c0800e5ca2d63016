//! Three-stone edge templates (issue 28): the generator's `--stones 3` enumeration (every
//! pair of helper stones up to the mirror, minimal carriers, each helper essential) against
//! a brute-force reference that decides every carrier of a tiny region by exact search.

use hexproof::edge_template::Rc;
use hexproof::enumerate::two_stone::{build_two_stone_file, enumerate_stones, helper_sets};
use hexproof::enumerate::{GenOptions, Grid};
use hexproof::local::{decide, Verdict};
use hexproof::templates::library::{canonical_template, mirror};
use std::collections::{BTreeSet, HashMap};

use crate::common_templates::budget;

/// Whether the goal stone and the helper stones `helpers` connect to the edge on `carrier`
/// (a mask over the grid of `region` with those helpers), the opponent first.
fn holds(region: &Grid, helpers: &[Rc], carrier: &[Rc]) -> bool {
    let grid = Grid::with_helpers(region.row, region.cells.clone(), helpers.to_vec()).unwrap();
    let mask = carrier.iter().fold(0u128, |m, rc| {
        m | 1 << grid.cells.iter().position(|x| x == rc).unwrap()
    });
    match decide(&grid.game(mask), &budget()).unwrap().verdict {
        Verdict::Holds => true,
        Verdict::Fails => false,
        v => panic!("tiny carrier undecided: {v:?}"),
    }
}

/// Every three-stone template of `region` by brute force, canonical (stones, carrier): for
/// every ordered-free pair of helpers on rows 1..=row, every subset of the other cells that
/// holds while none of its one-cell removals does, and with each helper turned into an empty
/// cell the remaining stones lose.
fn brute_force(region: &Grid) -> BTreeSet<(Vec<Rc>, Vec<Rc>)> {
    let low: Vec<Rc> = region
        .cells
        .iter()
        .copied()
        .filter(|c| c[0] <= region.row)
        .collect();
    let mut out = BTreeSet::new();
    for (i, &a) in low.iter().enumerate() {
        for &b in &low[i + 1..] {
            let rest: Vec<Rc> = region
                .cells
                .iter()
                .copied()
                .filter(|&c| c != a && c != b)
                .collect();
            let n = rest.len();
            let mut win: HashMap<u64, bool> = HashMap::new();
            let cells_of = |m: u64| -> Vec<Rc> {
                (0..n)
                    .filter(|j| m >> j & 1 == 1)
                    .map(|j| rest[j])
                    .collect()
            };
            for m in 0..1u64 << n {
                win.insert(m, holds(region, &[a, b], &cells_of(m)));
            }
            for m in 0..1u64 << n {
                if !win[&m] || (0..n).any(|j| m >> j & 1 == 1 && win[&(m & !(1 << j))]) {
                    continue;
                }
                let s = cells_of(m);
                let essential = [(a, b), (b, a)].iter().all(|&(h, other)| {
                    let mut with_h = s.clone();
                    with_h.push(h);
                    !holds(region, &[other], &with_h)
                });
                if essential {
                    let (stones, carrier, _) =
                        canonical_template(&[[region.row, 0], a, b], &s, region.row);
                    out.insert((stones, carrier));
                }
            }
        }
    }
    out
}

/// The enumeration's templates, canonical.
fn enumerated(region: &Grid) -> BTreeSet<(Vec<Rc>, Vec<Rc>)> {
    let run = enumerate_stones(region, 3, &GenOptions::new(budget()), None).unwrap();
    assert!(run.complete);
    assert_eq!(run.stones, 3);
    let mut out = BTreeSet::new();
    for hr in &run.helpers {
        assert_eq!(hr.helpers.len(), 2);
        for c in &hr.templates {
            let mut stones = vec![[region.row, 0]];
            stones.extend(&hr.helpers);
            let (stones, carrier, _) = canonical_template(&stones, c, region.row);
            out.insert((stones, carrier));
        }
    }
    out
}

/// The `--stones 3` enumeration finds exactly the brute-force templates of two tiny regions
/// (row 2, 2×6: 10 cells; row 3, 3×5: 13 cells), and the first region's file is certified
/// with three stones per record.
#[test]
fn three_stone_enumeration_matches_brute_force() {
    for (row, h, w, at_least) in [(2, 2, 6, 1), (3, 3, 5, 1)] {
        let region = Grid::new(row, h, w).unwrap();
        let brute = brute_force(&region);
        assert!(brute.len() >= at_least, "row {row}: no template at all");
        assert_eq!(enumerated(&region), brute, "row {row} {h}x{w}");
    }
    let region = Grid::new(2, 2, 6).unwrap();
    let run = enumerate_stones(&region, 3, &GenOptions::new(budget()), None).unwrap();
    let file = build_two_stone_file(&region, &run, &budget()).unwrap();
    assert_eq!(file.stones, 3);
    assert!(file.complete);
    assert!(file.templates.iter().all(|r| r.stones.len() == 3));
    assert_eq!(file.templates.len(), brute_force(&region).len());
    let names: BTreeSet<&str> = file.templates.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names.len(), file.templates.len(), "names are unique");
    assert!(file.templates.iter().all(|r| r.name.starts_with("II3-")));
    // Other numbers of stones are refused, not guessed.
    assert!(enumerate_stones(&region, 4, &GenOptions::new(budget()), None).is_err());
}

/// Helper pairs: one per mirror pair, sorted, distinct cells on rows 1..=row.
#[test]
fn helper_pairs_are_one_per_mirror_pair() {
    let grid = Grid::new(4, 4, 6).unwrap();
    let sets = helper_sets(&grid, 2);
    let low: Vec<Rc> = grid.cells.iter().copied().filter(|c| c[0] <= 4).collect();
    let n = low.len();
    let symmetric = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            let mut img = [mirror(low[i], 4), mirror(low[j], 4)];
            img.sort_unstable();
            img == [low[i], low[j]]
        })
        .count();
    assert_eq!(sets.len(), (n * (n - 1) / 2 + symmetric) / 2);
    for s in &sets {
        assert!(s[0] < s[1] && s[1][0] <= 4);
        let mut img = vec![mirror(s[0], 4), mirror(s[1], 4)];
        img.sort_unstable();
        assert!(*s <= img);
    }
}
