//! Exact random-turn Hex on small boards: enumerate all `2^N` fillings of the `N` empty cells
//! (§4: "fill in the empty hexes in every possible way and count the number of times that
//! each hex is critical").
//!
//! For every filling we record the winner, the empty cells of the losing colour (for `L_H`,
//! §5) and — independently, by the bit-parallel test of
//! [`Grid::critical_full`](super::grid::Grid::critical_full) — the critical empty cells, so
//! that Proposition 5.1 (`#not critical = 2 · #losing colour`) can be checked as an identity
//! between integers. Blocks of `2^16` fillings run in parallel with rayon; the counts are
//! integers, so the result does not depend on the schedule.

use super::bits::Bits;
use super::counters::SlicedCounter;
use super::grid::Grid;
use super::{decided_analysis, with_grid, Analysis, BiddingError, CellCount, Method};
use crate::position::Position;
use rayon::prelude::*;
use std::time::Instant;

/// The largest number of empty cells [`exact`] accepts (2^32 fillings: minutes, not hours,
/// on a few cores; tests stay at or below 2^22).
pub const MAX_EXACT_EMPTY: usize = 32;

/// Exact counts over all `2^N` fillings of the empty cells of `pos`.
pub fn exact(pos: &Position) -> Result<Analysis, BiddingError> {
    exact_until(pos, None)
}

/// [`exact`] with a deadline: past it, the remaining blocks of `2^16` fillings are skipped and
/// [`BiddingError::OutOfTime`] is returned (never partial counts).
pub fn exact_until(pos: &Position, deadline: Option<Instant>) -> Result<Analysis, BiddingError> {
    let start = Instant::now();
    let empty = pos.empty_cells();
    let n = empty.len();
    if let Some(w) = pos.winner() {
        return Ok(decided_analysis(pos, w));
    }
    if n > MAX_EXACT_EMPTY {
        return Err(BiddingError::TooManyForExact {
            n,
            max: MAX_EXACT_EMPTY,
        });
    }
    if n == 0 {
        // A full board always has a winner (Hex theorem), so this is unreachable in practice.
        let w =
            crate::bidding::flood_winner(*pos.board(), &pos.stones(crate::board::Colour::Black));
        return Ok(decided_analysis(pos, w));
    }
    let Some((black_wins, loser, critical)) = with_grid!(*pos.board(), |g| run(&g, pos, deadline))
    else {
        return Err(BiddingError::OutOfTime(start.elapsed()));
    };
    let cells = empty
        .iter()
        .enumerate()
        .map(|(i, cell)| CellCount {
            cell,
            loser: loser[i],
            critical: Some(critical[i]),
        })
        .collect();
    Ok(Analysis {
        board: *pos.board(),
        method: Method::Exact,
        fillings: 1u64 << n,
        black_wins,
        cells,
        decided: None,
    })
}

/// Returns (black wins, loser counts, critical counts), the last two indexed by the position
/// of the cell in the list of empty cells; `None` when the deadline passed first.
#[allow(clippy::type_complexity)]
fn run<B: Bits>(
    g: &Grid<B>,
    pos: &Position,
    deadline: Option<Instant>,
) -> Option<(u64, Vec<u64>, Vec<u64>)> {
    let (black0, _) = g.stones(pos);
    let empty_cells: Vec<usize> = pos.empty_cells().iter().map(|c| g.index_of(c)).collect();
    let n = empty_cells.len();
    let empty = empty_cells.iter().fold(B::ZERO, |a, &i| a | B::bit(i));
    // Scatter tables: byte j of the filling number → bits of its eight empty cells.
    let tables: Vec<[B; 256]> = empty_cells
        .chunks(8)
        .map(|chunk| {
            std::array::from_fn(|byte| {
                chunk
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| byte >> k & 1 == 1)
                    .fold(B::ZERO, |a, (_, &i)| a | B::bit(i))
            })
        })
        .collect();
    let block_bits = n.min(16);
    let blocks = 1u64 << (n - block_bits);
    let per_block = 1u64 << block_bits;
    let len = g.len();
    let (wins, loser, critical) = (0..blocks)
        .into_par_iter()
        .map(|blk| {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            let mut lose = SlicedCounter::<B>::new(len);
            let mut crit = SlicedCounter::<B>::new(len);
            let mut wins = 0u64;
            for m in blk * per_block..(blk + 1) * per_block {
                let mut fill = B::ZERO;
                for (j, t) in tables.iter().enumerate() {
                    fill |= t[(m >> (8 * j) & 0xff) as usize];
                }
                let black = black0 | fill;
                let bw = g.black_wins_full(black);
                wins += bw as u64;
                // Empty cells of the loser's colour: White's (= empty minus filled black)
                // when Black wins, Black's otherwise.
                lose.add(if bw { empty & !fill } else { fill });
                crit.add(g.critical_full(black) & empty);
            }
            Some((wins, lose.finish(), crit.finish()))
        })
        // `try_reduce` stops handing out blocks once one returns `None`.
        .try_reduce(
            || (0, vec![0; len], vec![0; len]),
            |mut a, b| {
                a.0 += b.0;
                a.1.iter_mut().zip(&b.1).for_each(|(x, y)| *x += y);
                a.2.iter_mut().zip(&b.2).for_each(|(x, y)| *x += y);
                Some(a)
            },
        )?;
    let pick = |v: &Vec<u64>| empty_cells.iter().map(|&i| v[i]).collect::<Vec<u64>>();
    Some((wins, pick(&loser), pick(&critical)))
}
