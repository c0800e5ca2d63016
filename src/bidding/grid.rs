//! The bit-parallel board: masks, shift-based neighbourhoods and flood fills.
//!
//! Cell (c, r) is bit `r·cols + c`. Its six neighbours (docs/SEMANTICS.md "Board and conventions") are reached by shifts:
//!
//! | neighbour   | bit offset   | shift                         |
//! |-------------|--------------|-------------------------------|
//! | (c+1, r)    | +1           | `(x & !last_col) << 1`        |
//! | (c−1, r)    | −1           | `(x & !first_col) >> 1`       |
//! | (c, r+1)    | +cols        | `x << cols`                   |
//! | (c, r−1)    | −cols        | `x >> cols`                   |
//! | (c+1, r−1)  | +1 − cols    | `(x & !last_col) >> (cols−1)` |
//! | (c−1, r+1)  | −1 + cols    | `(x & !first_col) << (cols−1)`|
//!
//! and the result is masked to the board. A flood fill repeats "grow by one step, intersect
//! with the player's cells" until the set reaches the far edge or stops growing; each step is a
//! dozen word operations for all cells at once.

use super::bits::Bits;
use crate::board::{Board, Cell, CellSet, Colour};
use crate::position::Position;

/// Masks and shift amounts for one board size.
#[derive(Clone, Copy, Debug)]
pub struct Grid<B: Bits> {
    board: Board,
    cols: u32,
    rows: u32,
    /// Number of 64-bit words a random filling needs.
    words: usize,
    all: B,
    not_first_col: B,
    not_last_col: B,
    first_col: B,
    last_col: B,
    first_row: B,
    last_row: B,
}

/// Why a board does not fit a bit width.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a {board} board has {cells} cells, more than the {capacity} bits of this representation")]
pub struct TooLarge {
    /// The board.
    pub board: Board,
    /// Its number of cells.
    pub cells: usize,
    /// The bit capacity.
    pub capacity: usize,
}

impl<B: Bits> Grid<B> {
    /// The masks for `board`, or an error if it has more cells than `B` has bits.
    pub fn new(board: Board) -> Result<Grid<B>, TooLarge> {
        let (cols, rows) = (board.cols() as u32, board.rows() as u32);
        let n = (cols * rows) as usize;
        if n > B::CAPACITY {
            return Err(TooLarge {
                board,
                cells: n,
                capacity: B::CAPACITY,
            });
        }
        let mut g = Grid {
            board,
            cols,
            rows,
            words: n.div_ceil(64),
            all: B::ZERO,
            not_first_col: B::ZERO,
            not_last_col: B::ZERO,
            first_col: B::ZERO,
            last_col: B::ZERO,
            first_row: B::ZERO,
            last_row: B::ZERO,
        };
        for r in 0..rows {
            for c in 0..cols {
                let b = B::bit((r * cols + c) as usize);
                g.all |= b;
                if c == 0 {
                    g.first_col |= b;
                } else {
                    g.not_first_col |= b;
                }
                if c == cols - 1 {
                    g.last_col |= b;
                } else {
                    g.not_last_col |= b;
                }
                if r == 0 {
                    g.first_row |= b;
                }
                if r == rows - 1 {
                    g.last_row |= b;
                }
            }
        }
        Ok(g)
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        (self.cols * self.rows) as usize
    }

    /// True for a board without cells (never: boards are at least 1×1).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Words of randomness per filling.
    #[inline]
    pub fn words(&self) -> usize {
        self.words
    }

    /// Every cell.
    #[inline]
    pub fn all(&self) -> B {
        self.all
    }

    /// Bit index of 0-based (c, r).
    #[inline]
    pub fn index(&self, c: u32, r: u32) -> usize {
        (r * self.cols + c) as usize
    }

    /// Bit index of an on-board cell.
    #[inline]
    pub fn index_of(&self, cell: Cell) -> usize {
        let (c, r) = cell.coords();
        self.index(c as u32, r as u32)
    }

    /// The cell of a bit index.
    #[inline]
    pub fn cell_of(&self, i: usize) -> Cell {
        Cell::at((i as u32 % self.cols) as u8, (i as u32 / self.cols) as u8)
    }

    /// The on-board cells of a [`CellSet`] as bits (borders are ignored).
    pub fn from_cellset(&self, s: &CellSet) -> B {
        let mut b = B::ZERO;
        for c in s.iter() {
            if !c.is_border() && self.board.contains(c) {
                b |= B::bit(self.index_of(c));
            }
        }
        b
    }

    /// Bits back to a [`CellSet`].
    pub fn to_cellset(&self, b: B) -> CellSet {
        let mut s = CellSet::EMPTY;
        (b & self.all).for_each_one(|i| {
            s.insert(self.cell_of(i));
        });
        s
    }

    /// The stones of a position as (black, white) bits.
    pub fn stones(&self, p: &Position) -> (B, B) {
        (
            self.from_cellset(&p.stones(Colour::Black)),
            self.from_cellset(&p.stones(Colour::White)),
        )
    }

    /// The cells adjacent to some cell of `x` (on the board; borders are not cells here).
    #[inline(always)]
    pub fn neighbours(&self, x: B) -> B {
        let s = self.cols;
        let a = x & self.not_last_col;
        let b = x & self.not_first_col;
        // For a single column, `a` and `b` are empty, so the shift by cols−1 = 0 is harmless.
        (a.shl(1) | a.shr(s - 1) | b.shr(1) | b.shl(s - 1) | x.shl(s) | x.shr(s)) & self.all
    }

    /// `x` together with its neighbours, in four shifts, *not* masked to the board (bits
    /// beyond the last row may be set; callers intersect with a subset of the board).
    ///
    /// `right = x ∪ (c+1, r)` and `left = x ∪ (c−1, r)` stay inside their rows because the
    /// last (first) column is masked off before the shift. Shifting `right` up a row gives
    /// (c, r−1) and (c+1, r−1); shifting `left` down a row gives (c, r+1) and (c−1, r+1):
    /// all six neighbours of docs/SEMANTICS.md "Board and conventions".
    #[inline(always)]
    pub fn grow(&self, x: B) -> B {
        let right = x | (x & self.not_last_col).shl(1);
        let left = x | (x & self.not_first_col).shr(1);
        right | left | right.shr(self.cols) | left.shl(self.cols)
    }

    /// The cells of `within` connected to `seeds` inside `within` (seeds outside `within`
    /// are dropped).
    #[inline]
    pub fn reach(&self, seeds: B, within: B) -> B {
        let mut f = seeds & within;
        loop {
            let g = self.grow(f) & within;
            if g == f {
                return f;
            }
            f = g;
        }
    }

    /// The cells of `colour`'s first border (top for Black, left for White).
    #[inline]
    pub fn near_edge(&self, colour: Colour) -> B {
        match colour {
            Colour::Black => self.first_row,
            Colour::White => self.first_col,
        }
    }

    /// The cells of `colour`'s second border (bottom for Black, right for White).
    #[inline]
    pub fn far_edge(&self, colour: Colour) -> B {
        match colour {
            Colour::Black => self.last_row,
            Colour::White => self.last_col,
        }
    }

    /// Does `stones` join `colour`'s two borders? Flood from the near edge, stopping as soon
    /// as the far edge is touched or the set stops growing.
    #[inline(always)]
    pub fn connects(&self, stones: B, colour: Colour) -> bool {
        let far = self.far_edge(colour);
        let mut f = stones & self.near_edge(colour);
        if f.is_zero() {
            return false;
        }
        loop {
            if !(f & far).is_zero() {
                return true;
            }
            let g = self.grow(f) & stones;
            if g == f {
                return false;
            }
            f = g;
        }
    }

    /// The winner of a full filling in which `black` holds Black's cells and every other cell
    /// is White's. By the Hex theorem (paper §3) exactly one player joins their borders, so one
    /// flood fill decides it.
    #[inline(always)]
    pub fn black_wins_full(&self, black: B) -> bool {
        macro_rules! strides {
            ($($n:literal)*) => {
                match self.cols {
                    $($n => self.black_connects_stride::<$n>(black),)*
                    _ => self.connects(black, Colour::Black),
                }
            };
        }
        strides!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19)
    }

    /// [`Grid::connects`] for Black with the row stride a compile-time constant, so the
    /// shifts compile to immediate operands.
    #[inline(always)]
    fn black_connects_stride<const S: u32>(&self, stones: B) -> bool {
        debug_assert_eq!(S, self.cols);
        let far = self.last_row;
        let mut f = stones & self.first_row;
        if f.is_zero() {
            return false;
        }
        loop {
            if !(f & far).is_zero() {
                return true;
            }
            let right = f | (f & self.not_last_col).shl(1);
            let left = f | (f & self.not_first_col).shr(1);
            let g = (right | left | right.shr(S) | left.shl(S)) & stones;
            if g == f {
                return false;
            }
            f = g;
        }
    }

    /// The winner of a partial position, if a player has already joined their borders.
    pub fn winner(&self, black: B, white: B) -> Option<Colour> {
        if self.connects(black, Colour::Black) {
            Some(Colour::Black)
        } else if self.connects(white, Colour::White) {
            Some(Colour::White)
        } else {
            None
        }
    }

    /// The critical (pivotal) cells of a full filling: the cells whose recolouring changes the
    /// winner (paper §4). If Black wins, a black cell is critical exactly when, recoloured
    /// white, it joins a white group touching the left border (or lies on it) to one touching
    /// the right border (or lies on it); symmetrically when White wins. Four flood fills.
    pub fn critical_full(&self, black: B) -> B {
        let white = self.all & !black;
        let (winner_cells, loser_cells, loser) = if self.black_wins_full(black) {
            (black, white, Colour::White)
        } else {
            (white, black, Colour::Black)
        };
        let near = self.near_edge(loser);
        let far = self.far_edge(loser);
        let a = self.reach(near, loser_cells);
        let b = self.reach(far, loser_cells);
        let touch_a = self.neighbours(a) | near;
        let touch_b = self.neighbours(b) | far;
        winner_cells & touch_a & touch_b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bidding::bits::Wide;
    use crate::board::Notation;

    fn check_neighbours<B: Bits>(board: Board) {
        let g: Grid<B> = Grid::new(board).unwrap();
        for cell in board.cells().iter() {
            let want = board.neighbours(cell) & board.cells();
            let x = B::bit(g.index_of(cell));
            let got = g.to_cellset(g.neighbours(x));
            assert_eq!(got, want, "{board} {cell:?}");
            let grown = g.to_cellset(g.grow(x) & g.all());
            assert_eq!(grown, want | CellSet::single(cell), "{board} {cell:?}");
        }
    }

    #[test]
    fn shift_neighbours_match_board_neighbours() {
        for (c, r) in [
            (1, 1),
            (1, 5),
            (5, 1),
            (2, 2),
            (3, 4),
            (11, 11),
            (7, 9),
            (11, 10),
        ] {
            check_neighbours::<u128>(Board::new(c, r).unwrap());
            check_neighbours::<Wide>(Board::new(c, r).unwrap());
        }
        for (c, r) in [(19, 19), (12, 12), (19, 7), (13, 17)] {
            check_neighbours::<Wide>(Board::new(c, r).unwrap());
        }
        assert!(Grid::<u128>::new(Board::square(12).unwrap()).is_err());
    }

    #[test]
    fn winner_matches_position() {
        let b = Board::square(3).unwrap();
        let g: Grid<u128> = Grid::new(b).unwrap();
        let p = Position::from_names(b, "c1 b2 a3", "", Notation::Letters).unwrap();
        let (bl, wh) = g.stones(&p);
        assert_eq!(g.winner(bl, wh), Some(Colour::Black));
        let p = Position::from_names(b, "", "a2 b2 c2", Notation::Letters).unwrap();
        let (bl, wh) = g.stones(&p);
        assert_eq!(g.winner(bl, wh), Some(Colour::White));
    }
}
