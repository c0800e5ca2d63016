//! `CellSet`: a fixed-size, `Copy` bitset over every cell of a board up to 19×19 and its four
//! borders (384 bits, the same size as Benzene's `BITSETSIZE`). Carriers, stone sets and
//! proof sets are all `CellSet`s, so set algebra is a handful of word operations.

use super::Cell;
use std::fmt;

/// Number of 64-bit words in a [`CellSet`].
pub const WORDS: usize = 6;

/// A set of cells (and borders), stored as a 384-bit bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet { words: [0; WORDS] };

    /// The empty set.
    #[inline]
    pub const fn new() -> Self {
        Self::EMPTY
    }

    /// A set with one element.
    #[inline]
    pub fn single(c: Cell) -> Self {
        let mut s = Self::EMPTY;
        s.insert(c);
        s
    }

    /// Adds `c`; returns whether it was absent.
    #[inline]
    pub fn insert(&mut self, c: Cell) -> bool {
        let (w, b) = (c.index() / 64, c.index() % 64);
        let was = self.words[w] >> b & 1 == 1;
        self.words[w] |= 1 << b;
        !was
    }

    /// Removes `c`; returns whether it was present.
    #[inline]
    pub fn remove(&mut self, c: Cell) -> bool {
        let (w, b) = (c.index() / 64, c.index() % 64);
        let was = self.words[w] >> b & 1 == 1;
        self.words[w] &= !(1 << b);
        was
    }

    /// Membership.
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        let (w, b) = (c.index() / 64, c.index() % 64);
        self.words[w] >> b & 1 == 1
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when the set has no element.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Union.
    #[inline]
    pub fn union(&self, o: &CellSet) -> CellSet {
        let mut r = *self;
        for i in 0..WORDS {
            r.words[i] |= o.words[i];
        }
        r
    }

    /// Intersection.
    #[inline]
    pub fn intersection(&self, o: &CellSet) -> CellSet {
        let mut r = *self;
        for i in 0..WORDS {
            r.words[i] &= o.words[i];
        }
        r
    }

    /// Difference `self \ o`.
    #[inline]
    pub fn difference(&self, o: &CellSet) -> CellSet {
        let mut r = *self;
        for i in 0..WORDS {
            r.words[i] &= !o.words[i];
        }
        r
    }

    /// True when the sets share no element.
    #[inline]
    pub fn is_disjoint(&self, o: &CellSet) -> bool {
        (0..WORDS).all(|i| self.words[i] & o.words[i] == 0)
    }

    /// True when every element of `self` is in `o`.
    #[inline]
    pub fn is_subset(&self, o: &CellSet) -> bool {
        (0..WORDS).all(|i| self.words[i] & !o.words[i] == 0)
    }

    /// The smallest element, if any.
    #[inline]
    pub fn first(&self) -> Option<Cell> {
        for (i, &w) in self.words.iter().enumerate() {
            if w != 0 {
                return Some(Cell::from_index(i * 64 + w.trailing_zeros() as usize));
            }
        }
        None
    }

    /// Iterates the elements in increasing index order.
    #[inline]
    /// The set turned by 180° on `board`: cell (x, y) goes to (cols − 1 − x, rows − 1 − y).
    /// It maps the board onto itself, each colour's pair of borders onto itself and adjacency
    /// onto adjacency, so it is a symmetry of the game (`goto P under rot180`). The cells
    /// must lie on `board`.
    pub fn rotated180(&self, board: &super::Board) -> CellSet {
        let (w, h) = (board.cols(), board.rows());
        self.iter()
            .map(|c| {
                let (x, y) = c.coords();
                Cell::at(w - 1 - x, h - 1 - y)
            })
            .collect()
    }

    pub fn iter(&self) -> CellSetIter {
        CellSetIter {
            words: self.words,
            w: 0,
        }
    }
}

impl std::ops::BitOr for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitor(self, o: CellSet) -> CellSet {
        self.union(&o)
    }
}
impl std::ops::BitAnd for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitand(self, o: CellSet) -> CellSet {
        self.intersection(&o)
    }
}
impl std::ops::Sub for CellSet {
    type Output = CellSet;
    #[inline]
    fn sub(self, o: CellSet) -> CellSet {
        self.difference(&o)
    }
}
impl std::ops::BitOrAssign for CellSet {
    #[inline]
    fn bitor_assign(&mut self, o: CellSet) {
        *self = self.union(&o);
    }
}
impl std::ops::BitAndAssign for CellSet {
    #[inline]
    fn bitand_assign(&mut self, o: CellSet) {
        *self = self.intersection(&o);
    }
}
impl std::ops::SubAssign for CellSet {
    #[inline]
    fn sub_assign(&mut self, o: CellSet) {
        *self = self.difference(&o);
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl Extend<Cell> for CellSet {
    fn extend<I: IntoIterator<Item = Cell>>(&mut self, iter: I) {
        for c in iter {
            self.insert(c);
        }
    }
}

impl IntoIterator for &CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

/// Iterator over a [`CellSet`].
pub struct CellSetIter {
    words: [u64; WORDS],
    w: usize,
}

impl Iterator for CellSetIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.w < WORDS {
            let word = self.words[self.w];
            if word != 0 {
                self.words[self.w] = word & (word - 1);
                return Some(Cell::from_index(
                    self.w * 64 + word.trailing_zeros() as usize,
                ));
            }
            self.w += 1;
        }
        None
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}
