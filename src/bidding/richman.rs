//! Richman's recursion (Payne & Robeva §2) over the whole game tree, for tiny boards.
//!
//! With Alice = Black and Bob = White, `R(v)` is Black's critical share of the chips at
//! position `v`: `R = 0` where Black has already won, `R = 1` where White has, and otherwise
//! `R(v) = (R⁺(v) + R⁻(v)) / 2` with `R⁺(v) = max R(w)` over White's moves and
//! `R⁻(v) = min R(w')` over Black's moves. The optimal real-valued bid is
//! `δ(v) = |R⁺(v) − R⁻(v)| / 2`.
//!
//! Nothing here uses fillings or criticality, so it cross-checks [`super::exact`]: Richman's
//! theorem says `R(G) = 1 − P(Black wins)`, the Random-Turn Hex Theorem (§4) says the optimal
//! moves are the most-often-critical cells, and Proposition 5.2 says `δ = 1/2 − min L_H`.
//! All values are dyadic rationals with denominator at most `2^N`, so `f64` holds them exactly
//! and the tests compare with `==`.
//!
//! The memo table has one entry per assignment of {empty, black, white} to the `N` empty
//! cells: `3^N` values (1.6 million for `N` = 13).

use super::bits::Bits;
use super::grid::Grid;
use super::{with_grid, BiddingError};
use crate::board::Cell;
use crate::position::Position;

/// Largest number of empty cells for [`richman`].
pub const MAX_RICHMAN_EMPTY: usize = 13;

/// Richman values at the root position (Alice = Black, Bob = White).
#[derive(Clone, Debug, PartialEq)]
pub struct Richman {
    /// `R(G)`: Black wins with real-valued bidding holding more than this share of the chips.
    pub r: f64,
    /// `R⁺`: the best `R` White can move to.
    pub r_plus: f64,
    /// `R⁻`: the best `R` Black can move to.
    pub r_minus: f64,
    /// `δ = |R⁺ − R⁻| / 2`, the optimal bid share.
    pub delta: f64,
    /// Black's optimal moves (those reaching `R⁻`), in cell order.
    pub black_moves: Vec<Cell>,
    /// White's optimal moves (those reaching `R⁺`), in cell order.
    pub white_moves: Vec<Cell>,
    /// `R` after each move: (cell, R if Black takes it, R if White takes it), in cell order.
    pub children: Vec<(Cell, f64, f64)>,
    /// Distinct non-terminal positions evaluated.
    pub positions: usize,
}

/// Richman's recursion from `pos`, which must have at most [`MAX_RICHMAN_EMPTY`] empty cells.
/// For a decided position `r` is 0 or 1, `r_plus = r_minus = r` and there are no moves.
pub fn richman(pos: &Position) -> Result<Richman, BiddingError> {
    let n = pos.empty_cells().len();
    if n > MAX_RICHMAN_EMPTY {
        return Err(BiddingError::TooManyForRichman {
            n,
            max: MAX_RICHMAN_EMPTY,
        });
    }
    Ok(with_grid!(*pos.board(), |g| run(&g, pos)))
}

struct Tree<'a, B: Bits> {
    g: &'a Grid<B>,
    cells: Vec<usize>,
    pow3: Vec<usize>,
    memo: Vec<f64>,
    positions: usize,
}

impl<B: Bits> Tree<'_, B> {
    /// `R` of the position with these stones; `code` is its base-3 memo index.
    fn r(&mut self, code: usize, black: B, white: B) -> f64 {
        let m = self.memo[code];
        if !m.is_nan() {
            return m;
        }
        let v = match self.g.winner(black, white) {
            Some(crate::board::Colour::Black) => 0.0,
            Some(crate::board::Colour::White) => 1.0,
            None => {
                let (plus, minus) = self.children(code, black, white, |_, _, _| {});
                self.positions += 1;
                (plus + minus) / 2.0
            }
        };
        self.memo[code] = v;
        v
    }

    /// (R⁺, R⁻) of a non-terminal position; calls `each(k, r_black, r_white)` per empty cell.
    fn children(
        &mut self,
        code: usize,
        black: B,
        white: B,
        mut each: impl FnMut(usize, f64, f64),
    ) -> (f64, f64) {
        let mut plus = f64::NEG_INFINITY;
        let mut minus = f64::INFINITY;
        for k in 0..self.cells.len() {
            if !(code / self.pow3[k]).is_multiple_of(3) {
                continue;
            }
            let bit = B::bit(self.cells[k]);
            let rb = self.r(code + self.pow3[k], black | bit, white);
            let rw = self.r(code + 2 * self.pow3[k], black, white | bit);
            minus = minus.min(rb);
            plus = plus.max(rw);
            each(k, rb, rw);
        }
        (plus, minus)
    }
}

fn run<B: Bits>(g: &Grid<B>, pos: &Position) -> Richman {
    let empty: Vec<Cell> = pos.empty_cells().iter().collect();
    let n = empty.len();
    let (black, white) = g.stones(pos);
    let mut tree = Tree {
        g,
        cells: empty.iter().map(|&c| g.index_of(c)).collect(),
        pow3: (0..n).map(|k| 3usize.pow(k as u32)).collect(),
        memo: vec![f64::NAN; 3usize.pow(n as u32)],
        positions: 0,
    };
    if let Some(w) = g.winner(black, white) {
        let r = if w == crate::board::Colour::Black {
            0.0
        } else {
            1.0
        };
        return Richman {
            r,
            r_plus: r,
            r_minus: r,
            delta: 0.0,
            black_moves: vec![],
            white_moves: vec![],
            children: vec![],
            positions: 0,
        };
    }
    let mut children = Vec::with_capacity(n);
    let (plus, minus) = tree.children(0, black, white, |k, rb, rw| {
        children.push((empty[k], rb, rw))
    });
    let black_moves = children
        .iter()
        .filter(|c| c.1 == minus)
        .map(|c| c.0)
        .collect();
    let white_moves = children
        .iter()
        .filter(|c| c.2 == plus)
        .map(|c| c.0)
        .collect();
    Richman {
        r: (plus + minus) / 2.0,
        r_plus: plus,
        r_minus: minus,
        delta: (plus - minus).abs() / 2.0,
        black_moves,
        white_moves,
        children,
        positions: tree.positions + 1,
    }
}
