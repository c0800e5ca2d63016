//! Random-turn and bidding Hex (Payne & Robeva, "Artificial intelligence for Bidding Hex";
//! the paper's sections are cited as §n throughout).
//!
//! **Random-turn Hex** flips a fair coin before every move to decide who moves. **Bidding
//! Hex** (§1) lets the players bid chips for each move; the higher bid pays the lower bidder
//! and moves. Richman's theorem (§2) ties them: the critical chip share `R(G)` of a bidding game
//! is `1 − P(G)`, where `P(G)` is the first player's (here: Black's, the paper's Alice's)
//! winning probability in the random-turn game, and the optimal moves coincide.
//!
//! For Hex the random-turn game is solved (§4, the Random-Turn Hex Theorem of Peres, Schramm,
//! Sheffield and Wilson): both players' optimal moves are the empty cells most likely to be
//! *critical* (recolouring them changes the winner) in a uniformly random filling of the empty
//! cells. Moreover the value of the game is the probability that Black wins a uniformly random
//! filling (an induction on the number of empty cells: Black's best child value is
//! `P + I_max/2`, White's is `P − I_max/2`, and their mean is `P`, where `I_H` is the
//! probability that `H` is critical). Payne & Robeva (§5) count instead how often each cell has
//! the *losing* colour, `L_H`: Proposition 5.1 gives `P(H not critical) = 2 L_H`, so the best
//! move is `argmin L_H`, and Proposition 5.2 gives the optimal real-valued bid
//! `δ = 1/2 − L_H` as a share of all chips.
//!
//! This module provides
//! - [`bits`] and [`grid`]: bit-parallel boards (one `u128` up to 128 cells, else 384 bits) with
//!   shift-based flood fill, and a bit-parallel critical-cell test;
//! - [`gale`]: Gale's boundary walk (§3), a second winner function;
//! - [`exact()`]: all `2^N` fillings of `N` empty cells — exact `L_H`, exact criticality,
//!   the game value and the optimal move set;
//! - [`richman()`]: Richman's recursion for `R(G)` over the game tree (tiny boards), a
//!   cross-check of both theorems;
//! - [`monte_carlo()`]: the paper's algorithm (§5 steps 1–3) on any board, with per-cell
//!   loser counts accumulated bit-parallel, standard errors, rayon parallelism and results
//!   that depend only on the seed, not on the thread count;
//! - [`Analysis::advice`]: the move and the integer bid `⌊(1/2 − L_H) · chips⌋` (§5 step 3);
//! - `gtp::bidding`: GTP extension commands as plain functions, for the future GTP server;
//! - [`svg`]: an SVG heat map of `L_H`; [`game`]: a terminal bidding game.

pub mod bits;
pub mod counters;
mod exact;
pub mod gale;
pub mod game;
pub mod grid;
pub mod montecarlo;
mod richman;
pub mod svg;

pub use exact::{exact, exact_until, MAX_EXACT_EMPTY};
pub use montecarlo::{monte_carlo, monte_carlo_until, McConfig, CHUNK};
pub use richman::{richman, Richman, MAX_RICHMAN_EMPTY};

use crate::board::{Board, Cell, Colour};
use crate::position::Position;
use serde::Serialize;

/// Errors of the random-turn and bidding code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BiddingError {
    /// Exact enumeration asked for too many empty cells.
    #[error("exact enumeration of 2^{n} fillings is too large (at most {max} empty cells; use Monte Carlo)")]
    TooManyForExact {
        /// Empty cells in the position.
        n: usize,
        /// The limit.
        max: usize,
    },
    /// Richman recursion asked for too many empty cells.
    #[error("Richman's recursion over 3^{n} positions is too large (at most {max} empty cells)")]
    TooManyForRichman {
        /// Empty cells in the position.
        n: usize,
        /// The limit.
        max: usize,
    },
    /// Zero Monte Carlo samples.
    #[error("the number of samples must be at least 1")]
    NoSamples,
    /// A thread pool could not be built.
    #[error("cannot start a pool of {0} threads: {1}")]
    Threads(usize, String),
    /// Chip counts that make no sense.
    #[error("{0}")]
    Chips(String),
    /// The time budget ran out before every filling was counted (no partial answer is given).
    #[error("the time budget ran out after {0:.1?}, before every filling was counted")]
    OutOfTime(std::time::Duration),
}

/// How an [`Analysis`] was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Method {
    /// All `2^N` fillings enumerated: every probability is exact.
    Exact,
    /// Uniform random fillings.
    MonteCarlo {
        /// Master seed.
        seed: u64,
    },
    /// The game is already decided (or the board full): nothing was sampled; every empty
    /// cell has the losing colour with probability exactly 1/2 and is never critical.
    Decided,
}

/// Counts for one empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CellCount {
    /// The cell.
    #[serde(skip)]
    pub cell: Cell,
    /// Fillings in which the cell has the loser's colour.
    pub loser: u64,
    /// Fillings in which the cell is critical (exact enumeration only; Monte Carlo estimates
    /// criticality through Proposition 5.1 instead).
    pub critical: Option<u64>,
}

/// Random-turn statistics of a position: per empty cell, how often it has the losing colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The board.
    pub board: Board,
    /// How the numbers were obtained.
    pub method: Method,
    /// Number of fillings counted (`2^N` when exact; 0 when decided).
    pub fillings: u64,
    /// Fillings Black won.
    pub black_wins: u64,
    /// The empty cells in index order (row by row) with their counts.
    pub cells: Vec<CellCount>,
    /// The winner if the position is already decided.
    pub decided: Option<Colour>,
}

/// The recommendation for one bidding turn (§5 steps 3–4).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    /// The move: an empty cell minimising `L_H` (lowest index among ties); `None` if the game
    /// is over.
    #[serde(skip)]
    pub cell: Option<Cell>,
    /// The integer bid `⌊(1/2 − L_H) · total⌋`, capped at the bidder's chips.
    pub bid: u64,
    /// The uncapped integer bid.
    pub uncapped_bid: u64,
    /// `L_H` of the move.
    pub loser_prob: f64,
    /// Its standard error (0 if exact).
    pub loser_se: f64,
    /// The real-valued optimal bid share `δ = 1/2 − L_H` (Proposition 5.2).
    pub delta: f64,
}

impl Analysis {
    /// Number of empty cells.
    pub fn empty(&self) -> usize {
        self.cells.len()
    }

    /// True when every probability is exact.
    pub fn is_exact(&self) -> bool {
        !matches!(self.method, Method::MonteCarlo { .. })
    }

    /// `L_H` for the `i`-th empty cell: the (estimated) probability that it has the losing
    /// colour in a uniform filling (§5).
    pub fn loser_prob(&self, i: usize) -> f64 {
        if self.fillings == 0 {
            return 0.5;
        }
        self.cells[i].loser as f64 / self.fillings as f64
    }

    /// Standard error of [`Analysis::loser_prob`]: `sqrt(L(1−L)/n)`, 0 when exact.
    pub fn loser_se(&self, i: usize) -> f64 {
        if self.is_exact() {
            return 0.0;
        }
        let p = self.loser_prob(i);
        (p * (1.0 - p) / self.fillings as f64).sqrt()
    }

    /// Probability that the `i`-th empty cell is critical: exact when enumerated, otherwise
    /// `1 − 2 L_H` by Proposition 5.1 (clamped at 0).
    pub fn critical_prob(&self, i: usize) -> f64 {
        match (self.method, self.cells[i].critical) {
            (Method::Decided, _) => 0.0,
            (_, Some(c)) => c as f64 / self.fillings as f64,
            _ => (1.0 - 2.0 * self.loser_prob(i)).max(0.0),
        }
    }

    /// Probability that Black wins a uniform random filling — by the argument in the module
    /// docs, the value of the random-turn game for Black, `P(G)`.
    pub fn black_win_prob(&self) -> f64 {
        match self.decided {
            Some(Colour::Black) => 1.0,
            Some(Colour::White) => 0.0,
            None if self.fillings == 0 => 0.5,
            None => self.black_wins as f64 / self.fillings as f64,
        }
    }

    /// Standard error of [`Analysis::black_win_prob`] (0 when exact).
    pub fn black_win_se(&self) -> f64 {
        if self.is_exact() {
            return 0.0;
        }
        let p = self.black_win_prob();
        (p * (1.0 - p) / self.fillings as f64).sqrt()
    }

    /// Random-turn winning probability of `colour`.
    pub fn win_prob(&self, colour: Colour) -> f64 {
        match colour {
            Colour::Black => self.black_win_prob(),
            Colour::White => 1.0 - self.black_win_prob(),
        }
    }

    /// Richman's critical chip share for `colour` (§2): with real-valued bidding, `colour` has
    /// a winning strategy when holding more than this share of all chips, and none with less.
    /// `R = 1 − P(colour wins the random-turn game)`.
    pub fn richman_threshold(&self, colour: Colour) -> f64 {
        1.0 - self.win_prob(colour)
    }

    /// Index (into [`Analysis::cells`]) of the best move: minimal loser count, lowest index
    /// among ties. `None` when the game is decided or no cell is empty.
    pub fn best(&self) -> Option<usize> {
        if self.decided.is_some() {
            return None;
        }
        (0..self.cells.len()).min_by_key(|&i| (self.cells[i].loser, i))
    }

    /// Every cell attaining the minimal loser count. When exact, this is the set of optimal
    /// moves of random-turn Hex for both players (Random-Turn Hex Theorem, §4, with
    /// Proposition 5.1). With Monte Carlo it is only the sample minimisers.
    pub fn optimal_set(&self) -> Vec<Cell> {
        match self.best() {
            None => Vec::new(),
            Some(b) => {
                let m = self.cells[b].loser;
                self.cells
                    .iter()
                    .filter(|c| c.loser == m)
                    .map(|c| c.cell)
                    .collect()
            }
        }
    }

    /// The move and bid (§5 steps 3–4) for a player holding `mine` of `total` chips.
    pub fn advice(&self, total: u64, mine: u64) -> Result<Advice, BiddingError> {
        if mine > total {
            return Err(BiddingError::Chips(format!(
                "you cannot hold {mine} chips when the game has only {total}"
            )));
        }
        let Some(b) = self.best() else {
            return Ok(Advice {
                cell: None,
                bid: 0,
                uncapped_bid: 0,
                loser_prob: 0.5,
                loser_se: 0.0,
                delta: 0.0,
            });
        };
        let uncapped = bid_for(self.cells[b].loser, self.fillings, total);
        let l = self.loser_prob(b);
        Ok(Advice {
            cell: Some(self.cells[b].cell),
            bid: uncapped.min(mine),
            uncapped_bid: uncapped,
            loser_prob: l,
            loser_se: self.loser_se(b),
            delta: (0.5 - l).max(0.0),
        })
    }
}

/// `⌊(1/2 − k/n) · total⌋` in exact integer arithmetic (0 if `k/n ≥ 1/2`): Proposition 5.2's
/// bid share times the chips, rounded down as in §5 step 3.
pub fn bid_for(loser: u64, fillings: u64, total: u64) -> u64 {
    if fillings == 0 || 2 * loser as u128 >= fillings as u128 {
        return 0;
    }
    let num = (fillings as u128 - 2 * loser as u128) * total as u128;
    (num / (2 * fillings as u128)) as u64
}

/// Runs `$body` with `$g` bound to a `Grid<u128>` when the board has at most 128 cells and a
/// `Grid<Wide>` otherwise (every board up to 19×19).
macro_rules! with_grid {
    ($board:expr, |$g:ident| $body:expr) => {{
        let board: $crate::board::Board = $board;
        if board.size() <= 128 {
            let $g = $crate::bidding::grid::Grid::<u128>::new(board)
                .expect("boards of at most 128 cells fit a u128");
            $body
        } else {
            let $g = $crate::bidding::grid::Grid::<$crate::bidding::bits::Wide>::new(board)
                .expect("boards up to 19x19 fit 384 bits");
            $body
        }
    }};
}
pub(crate) use with_grid;

/// The winner of a full filling of `board` (`black` = Black's cells, every other cell White's)
/// by bit-parallel flood fill.
pub fn flood_winner(board: Board, black: &crate::board::CellSet) -> Colour {
    with_grid!(board, |g| {
        if g.black_wins_full(g.from_cellset(black)) {
            Colour::Black
        } else {
            Colour::White
        }
    })
}

/// The winner of a full filling by Gale's boundary walk (§3).
pub fn walk_winner(board: Board, black: &crate::board::CellSet) -> Colour {
    with_grid!(board, |g| gale::gale_winner(&g, g.from_cellset(black)))
}

/// The critical cells of a full filling (bit-parallel; see [`grid::Grid::critical_full`]).
pub fn critical_cells(board: Board, black: &crate::board::CellSet) -> crate::board::CellSet {
    with_grid!(board, |g| g
        .to_cellset(g.critical_full(g.from_cellset(black))))
}

/// Analysis of a decided position: nothing to sample.
pub(crate) fn decided_analysis(pos: &Position, winner: Colour) -> Analysis {
    Analysis {
        board: *pos.board(),
        method: Method::Decided,
        fillings: 0,
        black_wins: 0,
        cells: pos
            .empty_cells()
            .iter()
            .map(|cell| CellCount {
                cell,
                loser: 0,
                critical: Some(0),
            })
            .collect(),
        decided: Some(winner),
    }
}

/// Exact analysis when the position has at most `exact_limit` empty cells, Monte Carlo
/// otherwise.
pub fn analyse(
    pos: &Position,
    exact_limit: usize,
    mc: &McConfig,
) -> Result<Analysis, BiddingError> {
    if pos.empty_cells().len() <= exact_limit.min(MAX_EXACT_EMPTY) {
        exact(pos)
    } else {
        monte_carlo(pos, mc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bid_rounding() {
        // L = 0.3 of 100 chips: 0.2 · 100 = 20.
        assert_eq!(bid_for(3, 10, 100), 20);
        // L = 1/3: (1/6) · 100 = 16.67 → 16.
        assert_eq!(bid_for(1, 3, 100), 16);
        assert_eq!(bid_for(5, 10, 100), 0);
        assert_eq!(bid_for(6, 10, 100), 0);
        assert_eq!(bid_for(0, 10, 7), 3);
        assert_eq!(bid_for(0, 0, 7), 0);
    }
}
