//! The VC engine's carrier sets: fixed-width bitsets over a *compact* cell numbering.
//!
//! [`CellSet`] numbers cells board-independently (`row * 19 + col`, borders 361–364) and so
//! spans six 64-bit words on every board. Inside one build the board is fixed, so the engine
//! renumbers: on-board cell (c, r) ↦ `r * cols + c`, border b ↦ `cols * rows + b`. On a board
//! with at most 124 cells (11×11 has 121) every carrier, endpoint representative and the
//! universe fit in two words, [`Bits<2>`]; larger boards use [`Bits<6>`]. The set operations
//! that dominate the search (subset, disjointness, union) then touch two words instead of six,
//! and a stored carrier takes 16 bytes instead of 48. [`Layout`] converts at the engine's
//! boundary (endpoints, seeds, queries), never inside the search loops.

use crate::board::{Board, Border, Cell, CellSet, Colour};

/// A set of compact cell indices below `64 * W`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bits<W> {
    #[inline]
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> std::fmt::Debug for Bits<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<const W: usize> Bits<W> {
    /// The empty set.
    pub const EMPTY: Bits<W> = Bits([0; W]);

    /// Adds index `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Removes index `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// True when `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |a, w| a | w) == 0
    }

    /// True when every element of `self` is in `o` (branch-free over the words).
    #[inline]
    pub fn is_subset(&self, o: &Bits<W>) -> bool {
        let mut acc = 0;
        for k in 0..W {
            acc |= self.0[k] & !o.0[k];
        }
        acc == 0
    }

    /// True when `self` and `o` share no element.
    #[inline]
    pub fn is_disjoint(&self, o: &Bits<W>) -> bool {
        let mut acc = 0;
        for k in 0..W {
            acc |= self.0[k] & o.0[k];
        }
        acc == 0
    }

    /// The smallest element.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        for k in 0..W {
            if self.0[k] != 0 {
                return Some(k * 64 + self.0[k].trailing_zeros() as usize);
            }
        }
        None
    }

    /// The elements in increasing order.
    #[inline]
    pub fn iter(&self) -> BitsIter<W> {
        BitsIter {
            words: self.0,
            w: 0,
        }
    }
}

/// Iterator over the elements of a [`Bits`].
pub struct BitsIter<const W: usize> {
    words: [u64; W],
    w: usize,
}

impl<const W: usize> Iterator for BitsIter<W> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.w < W {
            let word = self.words[self.w];
            if word != 0 {
                self.words[self.w] = word & (word - 1);
                return Some(self.w * 64 + word.trailing_zeros() as usize);
            }
            self.w += 1;
        }
        None
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> std::ops::$tr for Bits<W> {
            type Output = Bits<W>;
            #[inline]
            #[allow(clippy::assign_op_pattern)] // `$op=` would need a second macro argument
            fn $f(mut self, o: Bits<W>) -> Bits<W> {
                for k in 0..W {
                    self.0[k] = self.0[k] $op o.0[k];
                }
                self
            }
        }
        impl<const W: usize> std::ops::$tra for Bits<W> {
            #[inline]
            fn $fa(&mut self, o: Bits<W>) {
                for k in 0..W {
                    self.0[k] = self.0[k] $op o.0[k];
                }
            }
        }
    };
}
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);

impl<const W: usize> std::ops::Sub for Bits<W> {
    type Output = Bits<W>;
    #[inline]
    fn sub(mut self, o: Bits<W>) -> Bits<W> {
        for k in 0..W {
            self.0[k] &= !o.0[k];
        }
        self
    }
}

impl<const W: usize> std::ops::SubAssign for Bits<W> {
    #[inline]
    fn sub_assign(&mut self, o: Bits<W>) {
        for k in 0..W {
            self.0[k] &= !o.0[k];
        }
    }
}

/// Compact indices of every cell index of one board (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The board.
    pub board: Board,
    /// Compact index → cell.
    pub to_cell: Vec<Cell>,
    /// [`Cell::index`] → compact index (`u16::MAX` for cells off this board).
    pub from_cell: Vec<u16>,
    /// A position's layout ([`Layout::compact`]) rather than the whole board's.
    pub compact: bool,
}

/// Largest number of compact indices that [`Bits<2>`] holds (cells plus four borders).
pub const NARROW_LIMIT: usize = 128;

/// Largest number of compact indices that [`Bits<1>`] holds (cells plus four borders: up to
/// 60 cells, so 7×7 and 8×7 but not 8×8).
pub const TINY_LIMIT: usize = 64;

/// The carrier width in words for `board`: 1, 2 or 6 (the engine that [`super::VcSet`] runs).
pub fn width_class(board: &Board) -> usize {
    let n = board.cols() as usize * board.rows() as usize + 4;
    if n <= TINY_LIMIT && !narrow_forced() {
        1
    } else if n <= NARROW_LIMIT {
        2
    } else {
        6
    }
}

/// `HEXPROOF_VC_NARROW=1`: small boards run on the two-word engine too (a measurement
/// knob: the connections are the same, only their width in memory changes; session 35
/// measures what one word saves against two on 7×7; in the solver only together with
/// `--no-compact-layout`, which would otherwise put the build back on one word).
fn narrow_forced() -> bool {
    static FORCED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FORCED.get_or_init(|| std::env::var_os("HEXPROOF_VC_NARROW").is_some_and(|v| v == "1"))
}

impl Layout {
    /// The layout of `board`.
    pub fn new(board: &Board) -> Layout {
        let mut to_cell: Vec<Cell> = board.cells().iter().collect();
        to_cell.sort_by_key(|c| {
            let (col, row) = c.coords();
            (row, col)
        });
        for b in Border::ALL {
            to_cell.push(Cell::border(b));
        }
        let mut from_cell = vec![u16::MAX; super::endpoints::CELL_SLOTS];
        for (k, c) in to_cell.iter().enumerate() {
            from_cell[c.index()] = k as u16;
        }
        Layout {
            board: *board,
            to_cell,
            from_cell,
            compact: false,
        }
    }

    /// The numbering of one colour's build in one position, on one word where the board's
    /// does not fit ([`TINY_LIMIT`]; 8×8 has 64 cells and four borders): only the cells a
    /// build can name are numbered — the empty cells and the representatives of the colour's
    /// groups without a border ([`super::endpoints`]) — then the colour's two borders. The
    /// opponent's stones, the colour's other stones and the opponent's borders get no index:
    /// a carrier holds empty cells only, an endpoint is named by its representative, and the
    /// universe then lists the numbered cells only. The order is the board layout's with
    /// those cells left out, so every set iterates in the same order of cells, its smallest
    /// element is the same cell and a build makes the same connections in the same order
    /// as on the board's layout (session 35: 8×8 solves node for node). `None` when more
    /// than 64 indices are needed (few stones on the board).
    pub fn compact(position: &crate::position::Position, colour: Colour) -> Option<Layout> {
        let board = *position.board();
        let empty = position.empty_cells();
        let owned = position.owned(colour);
        let own_borders = colour.borders();
        // Groups of the colour that touch none of its borders: their smallest stone is their
        // representative (Endpoints::new).
        let mut reps = CellSet::EMPTY;
        let mut seen = CellSet::EMPTY;
        for b in own_borders {
            seen |= position.component(Cell::border(b), &owned);
        }
        for st in position.stones(colour).iter() {
            if seen.contains(st) {
                continue;
            }
            let comp = position.component(st, &owned);
            seen |= comp;
            reps.insert(st);
        }
        let keep = empty | reps;
        if keep.len() + 2 > TINY_LIMIT {
            return None;
        }
        let mut to_cell: Vec<Cell> = keep.iter().collect();
        to_cell.sort_by_key(|c| {
            let (col, row) = c.coords();
            (row, col)
        });
        for b in Border::ALL {
            if own_borders.contains(&b) {
                to_cell.push(Cell::border(b));
            }
        }
        let mut from_cell = vec![u16::MAX; super::endpoints::CELL_SLOTS];
        for (k, c) in to_cell.iter().enumerate() {
            from_cell[c.index()] = k as u16;
        }
        Some(Layout {
            board,
            to_cell,
            from_cell,
            compact: true,
        })
    }

    /// Number of compact indices (cells and borders).
    pub fn len(&self) -> usize {
        self.to_cell.len()
    }

    /// True when there is none (never: the borders are always there).
    pub fn is_empty(&self) -> bool {
        self.to_cell.is_empty()
    }

    /// Compact index of `c` (a cell of the board or a border).
    #[inline]
    pub fn k(&self, c: Cell) -> usize {
        self.from_cell[c.index()] as usize
    }

    /// `s` in compact indices (cells off the board are dropped).
    pub fn bits<const W: usize>(&self, s: &CellSet) -> Bits<W> {
        let mut b = Bits::EMPTY;
        for c in s.iter() {
            let k = self.from_cell[c.index()];
            if k != u16::MAX {
                b.insert(k as usize);
            }
        }
        b
    }

    /// `b` back in [`CellSet`] terms.
    pub fn cells<const W: usize>(&self, b: &Bits<W>) -> CellSet {
        let mut s = CellSet::EMPTY;
        for k in b.iter() {
            s.insert(self.to_cell[k]);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips_and_fits() {
        for (cols, rows) in [(1, 1), (5, 7), (11, 11), (13, 13), (19, 19)] {
            let b = Board::new(cols, rows).unwrap();
            let l = Layout::new(&b);
            assert_eq!(l.len(), cols as usize * rows as usize + 4);
            let mut all = b.cells();
            for x in Border::ALL {
                all.insert(Cell::border(x));
            }
            let six: Bits<6> = l.bits(&all);
            assert_eq!(six.len(), l.len());
            assert_eq!(l.cells(&six), all);
            if l.len() <= NARROW_LIMIT {
                let two: Bits<2> = l.bits(&all);
                assert_eq!(l.cells(&two), all);
            }
        }
        assert!(Layout::new(&Board::square(11).unwrap()).len() <= NARROW_LIMIT);
    }

    #[test]
    fn set_operations() {
        let mut a = Bits::<2>::EMPTY;
        a.insert(3);
        a.insert(100);
        let mut b = a;
        b.insert(64);
        assert!(a.is_subset(&b) && !b.is_subset(&a));
        assert_eq!((b - a).iter().collect::<Vec<_>>(), vec![64]);
        assert_eq!(b.len(), 3);
        assert_eq!(b.first(), Some(3));
        assert!(!(a & b).is_empty() && (b - a).is_disjoint(&a));
        b.remove(3);
        assert!(!b.contains(3) && b.contains(100));
    }
}
