//! Soundness: every VC and VSC produced by every variant is true.
//!
//! On random positions of 5×5 to 7×7 boards, each connection (x, C, y) that H-search or a
//! FastVC variant stores — base, seeded (edge templates), AND, OR — is handed to the exact
//! local search ([`hexproof::local::decide`], whose wins are kernel-checked certificates) as
//! the sub-game on carrier C with the claim `x - y` for the owner: the opponent moving first
//! for a VC, the owner for a VSC. Empty endpoints count as owner stones, exactly as in the
//! engine (docs/SEMANTICS.md "Sub-games"). Verdicts are cached across variants (the same connection is found by
//! several of them).
//!
//! A VSC is checked as "the owner wins moving first"; it may also be a VC the rules could not
//! find (Anshelevich's Fig. 9), which is not a soundness failure.

use crate::floor::Exercised;
use hexproof::board::{Board, Cell, CellSet, Colour};
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;
use hexproof::vc::{Connection, Kind, Variant, VcParams, VcSet};
use proptest::prelude::*;
use std::collections::HashMap;
use std::time::Duration;

type Key = (Colour, Kind, Cell, Cell, CellSet);

fn budget() -> Budget {
    Budget {
        nodes: 20_000_000,
        time: Some(Duration::from_secs(30)),
        ..Budget::default()
    }
}

fn confirm(v: &VcSet, c: &Connection, cache: &mut HashMap<Key, Verdict>) {
    let verdict = *cache.entry(key(v.colour(), c)).or_insert_with(|| {
        let game = v
            .sub_game(c)
            .expect("a stored connection is a well-formed sub-game");
        decide(&game, &budget())
            .expect("carrier fits the exact search")
            .verdict
    });
    if verdict != Verdict::Holds {
        let b = v.position().board();
        panic!(
            "{:?} {} {:?} {} - {} on [{}] is {:?} ({} variant) in\n{}",
            v.colour(),
            match c.kind {
                Kind::Vc => "VC",
                Kind::Semi => "VSC",
            },
            v.params().variant,
            b.cell_name(c.x, hexproof::board::Notation::Letters),
            b.cell_name(c.y, hexproof::board::Notation::Letters),
            b.set_names(&c.carrier, hexproof::board::Notation::Letters),
            verdict,
            v.params().variant,
            v.position().to_ascii(hexproof::board::Notation::Letters)
        );
    }
}

/// Builds every variant for both colours and confirms every stored connection.
fn check_all(p: &Position, cache: &mut HashMap<Key, Verdict>) -> usize {
    let mut n = 0;
    for colour in [Colour::Black, Colour::White] {
        for variant in Variant::ALL {
            let v = VcSet::build(p, colour, VcParams::new(variant));
            for c in v.connections() {
                confirm(&v, &c, cache);
                n += 1;
            }
        }
    }
    n
}

fn position(n: u32, stones: &[(u8, u8)], black_first: bool) -> Position {
    let b = Board::square(n).unwrap();
    let mut p = Position::empty(b);
    let mut black = black_first;
    for &(c, r) in stones {
        let cell = Cell::at(c % n as u8, r % n as u8);
        if p.colour_at(cell).is_none() {
            p.play(if black { Colour::Black } else { Colour::White }, cell)
                .unwrap();
            black = !black;
        }
    }
    p
}

/// A position on an n×n board with `empty` empty cells: the first n² − empty cells of
/// `order` (a permutation of the board) get stones, colours alternating.
fn dense_position(n: u32, empty: u32, order: &[usize], black_first: bool) -> Position {
    let cells: Vec<(u8, u8)> = order
        .iter()
        .filter(|&&i| i < (n * n) as usize)
        .map(|&i| ((i % n as usize) as u8, (i / n as usize) as u8))
        .collect();
    position(
        n,
        &cells[..(n * n - empty.min(n * n)) as usize],
        black_first,
    )
}

/// About half the count measured when the floor was set (40 of 40).
const FLOOR_SOUND_CASES: usize = 20;
/// Under half the count from the fixed seed (210,946; random seeds gave 101,184–123,311).
const FLOOR_SOUND_CONNECTIONS: usize = 50_000;
/// About half the count measured when the floor was set (12 of 12).
const FLOOR_UPDATED_CASES: usize = 6;
/// About a third of the count from the fixed seed (57,063; random seeds gave 19,408–58,901,
/// and 19,408 once failed this floor before the seed was fixed).
const FLOOR_UPDATED_CONNECTIONS: usize = 20_000;

/// `cases` cases from a fixed seed, so the exercised counts below are the same on every run
/// (a random seed once fell under a floor). `PROPTEST_RNG_SEED=<n>` tries another seed.
fn seeded(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig {
        cases,
        ..ProptestConfig::default()
    };
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = proptest::test_runner::RngSeed::Fixed(0x5643_5345_4544); // "VCSEED"
    }
    c
}

#[test]
fn every_connection_of_every_variant_is_true() {
    // Cases with a connection to confirm, and the connections confirmed.
    let cases = Exercised::new("every_connection_of_every_variant_is_true: cases");
    let confirmed = Exercised::new("every_connection_of_every_variant_is_true: connections");
    // Up to 20 empty cells: the exact search confirms a position's few thousand
    // connections in well under a second; sparser positions have carriers (whole-board VSCs)
    // that take the exact search seconds each.
    proptest!(seeded(40), |(
        n in 5u32..=7,
        empty in 8u32..=20,
        order in Just((0..49usize).collect::<Vec<_>>()).prop_shuffle(),
        black_first in any::<bool>(),
    )| {
        let mut cache = HashMap::new();
        let k = check_all(&dense_position(n, empty, &order, black_first), &mut cache);
        cases.add(usize::from(k > 0));
        confirmed.add(k);
    });
    cases.at_least(FLOOR_SOUND_CASES);
    confirmed.at_least(FLOOR_SOUND_CONNECTIONS);
}

/// The same after incremental updates: every variant is built on a position, then the moves
/// are played into it (no rebuild fallback), and every connection is confirmed.
#[test]
fn every_connection_after_incremental_updates_is_true() {
    // Cases with a connection to confirm after the moves, and the connections confirmed.
    let cases = Exercised::new("every_connection_after_incremental_updates_is_true: cases");
    let confirmed =
        Exercised::new("every_connection_after_incremental_updates_is_true: connections");
    proptest!(seeded(12), |(
        n in 5u32..=7,
        empty in 12u32..=22,
        order in Just((0..49usize).collect::<Vec<_>>()).prop_shuffle(),
        moves in prop::collection::vec(any::<prop::sample::Index>(), 1..5),
        black_first in any::<bool>(),
    )| {
        let start = dense_position(n, empty, &order, black_first);
        let mut cache = HashMap::new();
        let mut updated = 0;
        for colour in [Colour::Black, Colour::White] {
            for variant in Variant::ALL {
                let mut params = VcParams::new(variant);
                params.rebuild_above = None;
                let mut v = VcSet::build(&start, colour, params);
                let mut who = if black_first { Colour::Black } else { Colour::White };
                // Each move is one of the empty cells (no case is skipped: the position
                // keeps at least 8 empty cells).
                for pick in &moves {
                    let empty: Vec<Cell> = v.position().empty_cells().iter().collect();
                    v.play(who, *pick.get(&empty)).unwrap();
                    who = who.opponent();
                }
                prop_assert!(!v.status().is_incomplete());
                for c in v.connections() {
                    confirm(&v, &c, &mut cache);
                    updated += 1;
                }
            }
        }
        cases.add(usize::from(updated > 0));
        confirmed.add(updated);
    });
    cases.at_least(FLOOR_UPDATED_CASES);
    confirmed.at_least(FLOOR_UPDATED_CONNECTIONS);
}

#[test]
fn seeded_templates_are_true() {
    // A Black stone on the 4th row from the bottom with room below for the 4th-row templates
    // (IV1a, IV1b) and, through them, the ziggurat: the seeded VCs to the bottom are confirmed
    // with the rest. White's wall on rows 1–2 keeps the carriers local.
    let p = Position::from_names(
        Board::square(6).unwrap(),
        "c3",
        "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2",
        hexproof::board::Notation::Letters,
    )
    .unwrap();
    let mut cache = HashMap::new();
    let n = check_all(&p, &mut cache);
    assert!(n > 0);
    let v = VcSet::build(&p, Colour::Black, VcParams::new(Variant::Fast));
    assert!(v.stats().seeded > 0, "some template applies");
}

/// The fast variant with [`VcParams::full_keep`] and [`VcParams::bounded_or`] (the setting
/// that finds gm6's win, tests/search/vc_olympiad.rs): every connection it stores is true,
/// after a build and after incremental updates.
#[test]
fn every_connection_with_the_bounded_or_is_true() {
    let confirmed = Exercised::new("every_connection_with_the_bounded_or_is_true: connections");
    proptest!(seeded(30), |(
        n in 5u32..=7,
        empty in 8u32..=20,
        order in Just((0..49usize).collect::<Vec<_>>()).prop_shuffle(),
        black_first in any::<bool>(),
    )| {
        let mut cache = HashMap::new();
        let p = dense_position(n, empty, &order, black_first);
        for colour in [Colour::Black, Colour::White] {
            let mut params = VcParams::new(Variant::Fast);
            params.full_or = false;
            params.full_keep = 8;
            params.bounded_or = Some(4);
            let v = VcSet::build(&p, colour, params);
            confirmed.add(confirm_then_after_own_move(v, &p, &mut cache, |_| ()));
        }
    });
    confirmed.at_least(1000);
}

/// Confirms every connection of `v` (built on `p`, each also shown to `seen`), then plays
/// one own move into it (an incremental update) and confirms them again; returns how many
/// were confirmed.
fn confirm_then_after_own_move(
    mut v: VcSet,
    p: &Position,
    cache: &mut HashMap<Key, Verdict>,
    mut seen: impl FnMut(&Connection),
) -> usize {
    let mut n = 0;
    for c in v.connections() {
        confirm(&v, &c, cache);
        seen(&c);
        n += 1;
    }
    if let Some(cell) = p.empty_cells().iter().next() {
        if v.play(v.colour(), cell).is_ok() {
            for c in v.connections() {
                confirm(&v, &c, cache);
                n += 1;
            }
        }
    }
    n
}

/// A connection's key in the verdict cache (endpoints in order).
fn key(colour: Colour, c: &Connection) -> Key {
    let (x, y) = if c.x < c.y { (c.x, c.y) } else { (c.y, c.x) };
    (colour, c.kind, x, y, c.carrier)
}

/// The AND rule over captured cells ([`VcParams::capture_and`], the solver's default since
/// session 29): every connection of the solver's build with it is true, after a build and
/// after an incremental update. The floor counts the connections this build stores that
/// the same build without the rule does not (those the rule made, directly or through
/// later rules), so the new rule itself is exercised.
#[test]
fn every_connection_with_the_capture_and_is_true() {
    let confirmed = Exercised::new("every_connection_with_the_capture_and_is_true: connections");
    let new = Exercised::new("every_connection_with_the_capture_and_is_true: new connections");
    proptest!(seeded(40), |(
        n in 5u32..=7,
        empty in 10u32..=22,
        order in Just((0..49usize).collect::<Vec<_>>()).prop_shuffle(),
        black_first in any::<bool>(),
    )| {
        let mut cache = HashMap::new();
        let p = dense_position(n, empty, &order, black_first);
        for colour in [Colour::Black, Colour::White] {
            // (16, none on edge pairs: the solver's default since session 30.)
            for (semi_limit, edge) in [(Some(16), None), (None, None), (Some(16), Some(usize::MAX))] {
                let mut params = VcParams::new(Variant::Fast);
                params.full_or = false;
                params.semi_limit = semi_limit;
                params.edge_semi_limit = edge;
                let plain: std::collections::HashSet<Key> = VcSet::build(&p, colour, params.clone())
                    .connections()
                    .iter()
                    .map(|c| key(colour, c))
                    .collect();
                params.capture_and = true;
                let v = VcSet::build(&p, colour, params);
                let k = confirm_then_after_own_move(v, &p, &mut cache, |c| {
                    new.add(usize::from(!plain.contains(&key(colour, c))));
                });
                confirmed.add(k);
            }
        }
    });
    // About half the counts from the fixed seed (230,732 and 1,634 at session 29).
    confirmed.at_least(100_000);
    new.at_least(800);
}
