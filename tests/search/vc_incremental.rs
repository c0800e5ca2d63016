//! Incremental update after a move (Anshelevich §6) against a from-scratch build.
//!
//! For the closure variants — unlimited FastVC, and H-search without M (with HEXY's K = 4: the
//! OR rule on at most 4 VSCs is still a fixed rule, so its closure is unique too) — the stored
//! minimal carriers do not depend on the order of rule applications (Pawlewicz et al. §II-C),
//! so after every move the incrementally updated sets must equal a rebuild's exactly, pair
//! by pair. (H-search without K takes seconds on 5×5: the OR rule over all subsets is
//! exponential, as Pawlewicz et al. §III and §V-A note; `vc_closure.rs` covers it on smaller
//! boards.) For the limited variants (HEXY's M, the acceptance heuristic) the sets depend on
//! the order; there we check that every updated connection is still true, with the exact
//! search as in `vc_soundness.rs`.

use crate::floor::Exercised;
use hexproof::board::{Board, Cell, CellSet, Colour};
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;
use hexproof::vc::{HSearchLimits, Kind, Variant, VcParams, VcSet};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

type Lists = BTreeMap<(CellSet, CellSet), (BTreeSet<CellSet>, BTreeSet<CellSet>)>;

/// The stored carriers by endpoint pair, endpoints named by their cells.
fn lists(v: &VcSet) -> Lists {
    let members: BTreeMap<Cell, CellSet> = v.endpoints().collect();
    let mut out = Lists::new();
    for c in v.connections() {
        let (a, b) = (members[&c.x], members[&c.y]);
        let e = out.entry((a.min(b), a.max(b))).or_default();
        match c.kind {
            Kind::Vc => e.0.insert(c.carrier),
            Kind::Semi => e.1.insert(c.carrier),
        };
    }
    out
}

fn closure_params(variant: Variant, seeded: bool) -> VcParams {
    let mut p = VcParams::new(variant);
    // Always update, never fall back to a rebuild: this is what is under test.
    p.rebuild_above = None;
    p.hsearch = HSearchLimits {
        m: None,
        k: Some(4),
        ..HSearchLimits::UNLIMITED
    };
    if !seeded {
        p.seeds.clear();
    }
    p
}

/// Plays `moves` (alternating, `first` to move first; occupied cells skipped) on both colours'
/// engines, comparing with a rebuild after every move; returns how many updates had their
/// lists compared (a won position is compared by `is_won` only).
fn replay_equals_rebuild(
    start: &Position,
    moves: &[Cell],
    first: Colour,
    variant: Variant,
    seeded: bool,
) -> usize {
    let mut compared = 0;
    for colour in [Colour::Black, Colour::White] {
        let params = closure_params(variant, seeded);
        let mut inc = VcSet::build(start, colour, params.clone());
        let mut pos = start.clone();
        let mut who = first;
        for &m in moves {
            if pos.colour_at(m).is_some() {
                continue;
            }
            pos.play(who, m).unwrap();
            inc.play(who, m).unwrap();
            let fresh = VcSet::build(&pos, colour, params.clone());
            assert!(!inc.status().is_incomplete() && !fresh.status().is_incomplete());
            assert_eq!(inc.is_won(), fresh.is_won());
            if !fresh.is_won() {
                let (a, b) = (lists(&inc), lists(&fresh));
                if a != b {
                    for (k, v) in &b {
                        let got = a.get(k).cloned().unwrap_or_default();
                        assert_eq!(
                            &got,
                            v,
                            "{variant} {colour} after {who} {m:?}, pair {:?}-{:?}, position\n{}",
                            k.0,
                            k.1,
                            pos.to_ascii(hexproof::board::Notation::Letters)
                        );
                    }
                    panic!("{variant} {colour}: the update stores pairs the rebuild does not");
                }
                compared += 1;
            }
            who = who.opponent();
        }
    }
    compared
}

fn cells(b: &Board, names: &str) -> Vec<Cell> {
    b.parse_cells(names, hexproof::board::Notation::Letters)
        .unwrap()
}

#[test]
fn short_games_on_five_by_five_and_four_by_four() {
    let b = Board::square(5).unwrap();
    let moves = cells(&b, "c3 b4 d2 c2 b3 d3 a4 e1");
    for seeded in [false, true] {
        replay_equals_rebuild(
            &Position::empty(b),
            &moves,
            Colour::Black,
            Variant::Unlimited,
            seeded,
        );
    }
    let b = Board::square(4).unwrap();
    let moves = cells(&b, "b2 c2 b3 a4 c1 d3");
    for seeded in [false, true] {
        replay_equals_rebuild(
            &Position::empty(b),
            &moves,
            Colour::Black,
            Variant::HSearch,
            seeded,
        );
    }
}

/// About half the count measured when the floor was set (192).
const FLOOR_UPDATE_EQUALS_REBUILD: usize = 96;

#[test]
fn closure_variants_update_equals_rebuild() {
    // Updates whose lists were compared with a rebuild (occupied cells and won positions
    // compare nothing).
    let compared = Exercised::new("closure_variants_update_equals_rebuild: updates compared");
    proptest!(ProptestConfig { cases: 24, ..ProptestConfig::default() }, |(
        n in 3u32..=5,
        moves in prop::collection::vec((0u8..5, 0u8..5), 1..10),
        black_first in any::<bool>(),
        seeded in any::<bool>(),
        hsearch in any::<bool>(),
    )| {
        let n = if hsearch { n.min(4) } else { n };
        let b = Board::square(n).unwrap();
        let moves: Vec<Cell> = moves.iter().map(|&(c, r)| Cell::at(c % n as u8, r % n as u8)).collect();
        let first = if black_first { Colour::Black } else { Colour::White };
        let variant = if hsearch { Variant::HSearch } else { Variant::Unlimited };
        compared.add(replay_equals_rebuild(&Position::empty(b), &moves, first, variant, seeded));
    });
    compared.at_least(FLOOR_UPDATE_EQUALS_REBUILD);
}

/// After the moves, every connection of the incrementally updated limited variants is true.
#[test]
fn limited_variants_stay_sound_after_updates() {
    let budget = Budget {
        nodes: 20_000_000,
        time: Some(Duration::from_secs(60)),
        ..Budget::default()
    };
    let b = Board::square(6).unwrap();
    // A dense 6×6 middle game: few empty cells, so the exact search is quick.
    let start = Position::from_names(
        b,
        "c3 d2 e4 b5 f1",
        "c4 d3 b4 e2 a6 f5",
        hexproof::board::Notation::Letters,
    )
    .unwrap();
    let moves = cells(&b, "c5 d4 e3 b6 a5 c6 f2 d5 e5");
    for variant in [Variant::HSearch, Variant::Limited, Variant::Fast] {
        for colour in [Colour::Black, Colour::White] {
            let mut params = VcParams::new(variant);
            params.rebuild_above = None;
            let mut v = VcSet::build(&start, colour, params);
            let mut who = Colour::Black;
            for &m in &moves {
                v.play(who, m).unwrap();
                who = who.opponent();
            }
            assert!(!v.status().is_incomplete());
            for c in v.connections() {
                let o = decide(&v.sub_game(&c).unwrap(), &budget).unwrap();
                assert_eq!(o.verdict, Verdict::Holds, "{variant} {colour} {c:?}");
            }
            // Same position, rebuilt: both are sound; the update loses at most what a
            // different order of rule applications loses.
            let fresh = VcSet::build(v.position(), colour, VcParams::new(variant));
            assert_eq!(fresh.position(), v.position());
        }
    }
}

#[test]
fn a_winning_move_is_seen_by_the_update() {
    let b = Board::square(3).unwrap();
    let mut v = VcSet::build(
        &Position::empty(b),
        Colour::Black,
        VcParams::new(Variant::Fast),
    );
    for (who, m) in [
        (Colour::Black, "b1"),
        (Colour::White, "a2"),
        (Colour::Black, "b2"),
        (Colour::White, "c2"),
    ] {
        v.play(who, cells(&b, m)[0]).unwrap();
    }
    assert!(!v.is_won());
    v.play(Colour::Black, cells(&b, "a3")[0]).unwrap();
    assert!(v.is_won());
    assert_eq!(v.winning_vcs(), vec![CellSet::EMPTY]);
    // A move on an occupied cell is an error, and leaves the connections alone.
    assert!(v.play(Colour::White, cells(&b, "b2")[0]).is_err());
}
