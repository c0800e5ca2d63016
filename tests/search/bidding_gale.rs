//! Gale's boundary walk (Payne & Robeva §3) against the bit-parallel flood fill and the
//! crate's independent `Position::winner`, on random full boards of every size up to 19×19.

use crate::floor::Exercised;
use hexproof::bidding::{critical_cells, flood_winner, walk_winner};
use hexproof::board::{Board, Cell, CellSet};
use hexproof::position::winner_of;
use proptest::prelude::*;

fn filling(cols: u32, rows: u32, bits: &[bool]) -> (Board, CellSet) {
    let b = Board::new(cols, rows).unwrap();
    let black = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (c, r)))
        .filter(|&(c, r)| bits[(r * cols + c) as usize])
        .map(|(c, r)| Cell::at(c as u8, r as u8))
        .collect();
    (b, black)
}

/// Flips `c` to the other colour (also used by `bidding_exact`).
pub(crate) fn flipped(black: CellSet, white: CellSet, c: Cell) -> (CellSet, CellSet) {
    let (mut bl, mut wh) = (black, white);
    if bl.contains(c) {
        bl.remove(c);
        wh.insert(c);
    } else {
        wh.remove(c);
        bl.insert(c);
    }
    (bl, wh)
}

#[test]
fn gale_walk_equals_flood_fill() {
    // Cases won by each colour: both must occur often.
    let black_won = Exercised::new("gale_walk_equals_flood_fill: black wins");
    let white_won = Exercised::new("gale_walk_equals_flood_fill: white wins");
    proptest!(ProptestConfig::with_cases(3000), |(
        cols in 1u32..=19,
        rows in 1u32..=19,
        density in 0.2f64..0.8,
        seed in any::<u64>(),
    )| {
        // Fillings with a random density, so both winners and long boundaries occur.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let bits: Vec<bool> = (0..cols * rows).map(|_| rng.random_bool(density)).collect();
        let (b, black) = filling(cols, rows, &bits);
        let white = b.cells() - black;
        let by_position = winner_of(b, black, white).expect("a full board has a winner");
        prop_assert_eq!(flood_winner(b, &black), by_position);
        prop_assert_eq!(walk_winner(b, &black), by_position);
        match by_position {
            hexproof::board::Colour::Black => black_won.add(1),
            hexproof::board::Colour::White => white_won.add(1),
        }
    });
    black_won.at_least(FLOOR_GALE_BLACK);
    white_won.at_least(FLOOR_GALE_WHITE);
}

/// About half the count measured when the floor was set (1488 of 3000).
const FLOOR_GALE_BLACK: usize = 700;
/// About half the count measured when the floor was set (1512 of 3000).
const FLOOR_GALE_WHITE: usize = 700;
/// About half the count measured when the floor was set (1791 of 3000).
const FLOOR_CRITICAL: usize = 900;
/// About half the count measured when the floor was set (31 of 40).
const FLOOR_CRITICAL_LARGE: usize = 15;

/// `critical_cells(b, black)` is exactly the set of cells whose flip changes the winner;
/// counts the cases with a critical cell (those where the property says more than "none").
fn critical_cells_are_pivotal(
    b: Board,
    black: CellSet,
    with_critical: &Exercised,
) -> Result<(), TestCaseError> {
    let white = b.cells() - black;
    let w = winner_of(b, black, white);
    let crit = critical_cells(b, &black);
    for c in b.cells().iter() {
        let (bl, wh) = flipped(black, white, c);
        prop_assert_eq!(crit.contains(c), winner_of(b, bl, wh) != w, "{:?}", c);
    }
    with_critical.add(usize::from(!crit.is_empty()));
    Ok(())
}

#[test]
fn critical_cells_are_exactly_the_pivotal_ones() {
    let with_critical = Exercised::new("critical_cells_are_exactly_the_pivotal_ones");
    proptest!(ProptestConfig::with_cases(3000), |(
        cols in 1u32..=7,
        rows in 1u32..=7,
        bits in proptest::collection::vec(any::<bool>(), 49),
    )| {
        let (b, black) = filling(cols, rows, &bits);
        critical_cells_are_pivotal(b, black, &with_critical)?;
    });
    with_critical.at_least(FLOOR_CRITICAL);
}

/// The same on boards too large for one u128 (the 384-bit path).
#[test]
fn critical_cells_on_large_boards() {
    let with_critical = Exercised::new("critical_cells_on_large_boards");
    proptest!(ProptestConfig::with_cases(40), |(
        cols in 12u32..=19,
        rows in 12u32..=19,
        seed in any::<u64>(),
    )| {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let bits: Vec<bool> = (0..cols * rows).map(|_| rng.random_bool(0.5)).collect();
        let (b, black) = filling(cols, rows, &bits);
        critical_cells_are_pivotal(b, black, &with_critical)?;
    });
    with_critical.at_least(FLOOR_CRITICAL_LARGE);
}
