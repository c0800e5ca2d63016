//! Monte Carlo estimates of `L_H` (Payne & Robeva §5, steps 1–2): fill the empty cells
//! uniformly at random many times, decide each filling's winner, and count for every empty
//! cell how often it has the losing colour.
//!
//! Per filling the work is: draw `⌈cells/64⌉` random words, one bit-parallel flood fill
//! ([`Grid::black_wins_full`]), one select (`loser = fill ^ (empty & black_won_mask)`), and one
//! bit-sliced counter addition ([`SlicedCounter`]) — no per-cell branches.
//!
//! **Determinism.** The samples are split into chunks of [`CHUNK`] fillings. Chunk `i` draws
//! from a ChaCha8 generator whose key is derived from the master seed (`seed_from_u64`) and
//! whose stream number is `i`, so every chunk's fillings are fixed by `(seed, i)` alone; the
//! chunk results are integer counts, summed in any order. The answer therefore depends on the
//! seed and the sample count, never on the number of threads.

use super::bits::Bits;
use super::counters::SlicedCounter;
use super::grid::Grid;
use super::{decided_analysis, with_grid, Analysis, BiddingError, CellCount, Method};
use crate::position::Position;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::time::Instant;

/// Fillings per deterministic chunk.
pub const CHUNK: u64 = 1 << 13;

/// Monte Carlo parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McConfig {
    /// Number of random fillings.
    pub samples: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (`None`: rayon's global pool). The result does not depend on it.
    pub threads: Option<usize>,
}

impl Default for McConfig {
    fn default() -> Self {
        McConfig {
            samples: 100_000,
            seed: 1,
            threads: None,
        }
    }
}

/// The generator of chunk `chunk` under `seed`.
pub fn chunk_rng(seed: u64, chunk: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(chunk);
    rng
}

/// Monte Carlo estimates of `L_H` for every empty cell of `pos`.
pub fn monte_carlo(pos: &Position, cfg: &McConfig) -> Result<Analysis, BiddingError> {
    monte_carlo_until(pos, cfg, None)
}

/// [`monte_carlo`] with a deadline: past it, the remaining chunks are skipped and
/// [`BiddingError::OutOfTime`] is returned (never counts over fewer fillings than asked).
pub fn monte_carlo_until(
    pos: &Position,
    cfg: &McConfig,
    deadline: Option<Instant>,
) -> Result<Analysis, BiddingError> {
    let start = Instant::now();
    if cfg.samples == 0 {
        return Err(BiddingError::NoSamples);
    }
    if let Some(w) = pos.winner() {
        return Ok(decided_analysis(pos, w));
    }
    let empty = pos.empty_cells();
    if empty.is_empty() {
        let w =
            crate::bidding::flood_winner(*pos.board(), &pos.stones(crate::board::Colour::Black));
        return Ok(decided_analysis(pos, w));
    }
    let work = || with_grid!(*pos.board(), |g| run(&g, pos, cfg, deadline));
    let counted = match cfg.threads {
        None => work(),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|e| BiddingError::Threads(t, e.to_string()))?
            .install(work),
    };
    let Some((black_wins, loser)) = counted else {
        return Err(BiddingError::OutOfTime(start.elapsed()));
    };
    Ok(Analysis {
        board: *pos.board(),
        method: Method::MonteCarlo { seed: cfg.seed },
        fillings: cfg.samples,
        black_wins,
        cells: empty
            .iter()
            .zip(loser)
            .map(|(cell, loser)| CellCount {
                cell,
                loser,
                critical: None,
            })
            .collect(),
        decided: None,
    })
}

/// Counts over `samples` fillings of one chunk: (Black wins, loser counts by bit index).
/// Public for the benchmark.
#[inline(never)]
pub fn run_chunk<B: Bits>(
    g: &Grid<B>,
    black0: B,
    empty: B,
    rng: &mut ChaCha8Rng,
    samples: u64,
) -> (u64, Vec<u64>) {
    let mut lose = SlicedCounter::<B>::new(g.len());
    let mut wins = 0u64;
    let words = g.words();
    for _ in 0..samples {
        let fill = B::random(rng, words) & empty;
        let bw = g.black_wins_full(black0 | fill);
        wins += bw as u64;
        // Black won: the loser's (White's) empty cells are the unfilled ones; else the filled.
        let mask = if bw { empty } else { B::ZERO };
        lose.add(fill ^ mask);
    }
    (wins, lose.finish())
}

fn run<B: Bits>(
    g: &Grid<B>,
    pos: &Position,
    cfg: &McConfig,
    deadline: Option<Instant>,
) -> Option<(u64, Vec<u64>)> {
    let (black0, _) = g.stones(pos);
    let empty = g.from_cellset(&pos.empty_cells());
    let chunks = cfg.samples.div_ceil(CHUNK);
    let len = g.len();
    let (wins, counts) = (0..chunks)
        .into_par_iter()
        .map(|i| {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            let n = CHUNK.min(cfg.samples - i * CHUNK);
            let mut rng = chunk_rng(cfg.seed, i);
            Some(run_chunk(g, black0, empty, &mut rng, n))
        })
        // `try_reduce` stops handing out chunks once one returns `None`.
        .try_reduce(
            || (0, vec![0; len]),
            |mut a, b| {
                a.0 += b.0;
                a.1.iter_mut().zip(&b.1).for_each(|(x, y)| *x += y);
                Some(a)
            },
        )?;
    let loser = pos
        .empty_cells()
        .iter()
        .map(|c| counts[g.index_of(c)])
        .collect();
    Some((wins, loser))
}
