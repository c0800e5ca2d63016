//! Board geometry: cells, the four borders, adjacency, cell names and symmetries.
//!
//! Conventions (docs/SEMANTICS.md "Board and conventions", identical to Benzene, HexGui and the SGF Hex specification):
//! an `n×m` board has `n` columns `a..` and `m` rows `1..`; cell (c, r) is adjacent to
//! (c±1, r), (c, r±1), (c+1, r−1), (c−1, r+1). Black joins the top border `t` (beyond row 1)
//! to the bottom border `b` (beyond row m); White joins left `l` to right `r`.
//!
//! A [`Cell`] index is board-independent: `row * 19 + col` (0-based) for on-board cells, and
//! 361..365 for the borders, so a [`CellSet`] means the same thing on every board size.

mod cellset;
mod notation;
mod transform;

pub use cellset::{CellSet, CellSetIter, WORDS};
pub use notation::{Notation, ParseCellError};
pub use transform::Transform;

use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest supported board dimension.
pub const MAX_DIM: u8 = 19;
const STRIDE: usize = MAX_DIM as usize;
const BORDER_BASE: usize = STRIDE * STRIDE;

/// A cell or a border. Small and `Copy`; see the module docs for the index layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

/// The four borders of a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Border {
    /// Beyond row 1 (Black's).
    Top,
    /// Beyond the last row (Black's).
    Bottom,
    /// Beyond column a (White's).
    Left,
    /// Beyond the last column (White's).
    Right,
}

impl Border {
    /// All four borders.
    pub const ALL: [Border; 4] = [Border::Top, Border::Bottom, Border::Left, Border::Right];

    /// The player who owns this border.
    pub fn owner(self) -> Colour {
        match self {
            Border::Top | Border::Bottom => Colour::Black,
            Border::Left | Border::Right => Colour::White,
        }
    }

    /// One-letter name: `t`, `b`, `l`, `r`.
    pub fn letter(self) -> char {
        match self {
            Border::Top => 't',
            Border::Bottom => 'b',
            Border::Left => 'l',
            Border::Right => 'r',
        }
    }
}

/// A player colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Moves first, joins top and bottom.
    Black,
    /// Joins left and right.
    White,
}

impl Colour {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// The two borders this colour joins.
    pub fn borders(self) -> [Border; 2] {
        match self {
            Colour::Black => [Border::Top, Border::Bottom],
            Colour::White => [Border::Left, Border::Right],
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Cell {
    /// The cell at 0-based column `c`, row `r` (no board check).
    #[inline]
    pub fn at(c: u8, r: u8) -> Cell {
        debug_assert!(c < MAX_DIM && r < MAX_DIM);
        Cell(r as u16 * STRIDE as u16 + c as u16)
    }

    /// The border cell.
    #[inline]
    pub fn border(b: Border) -> Cell {
        Cell((BORDER_BASE + b as usize) as u16)
    }

    /// Raw index (0..365).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Inverse of [`Cell::index`].
    #[inline]
    pub fn from_index(i: usize) -> Cell {
        debug_assert!(i < BORDER_BASE + 4);
        Cell(i as u16)
    }

    /// The border this cell stands for, if it is one.
    #[inline]
    pub fn as_border(self) -> Option<Border> {
        match self.0 as usize {
            i if i == BORDER_BASE => Some(Border::Top),
            i if i == BORDER_BASE + 1 => Some(Border::Bottom),
            i if i == BORDER_BASE + 2 => Some(Border::Left),
            i if i == BORDER_BASE + 3 => Some(Border::Right),
            _ => None,
        }
    }

    /// True for the four border cells.
    #[inline]
    pub fn is_border(self) -> bool {
        self.0 as usize >= BORDER_BASE
    }

    /// 0-based (column, row) of an on-board cell.
    #[inline]
    pub fn coords(self) -> (u8, u8) {
        debug_assert!(!self.is_border());
        (
            (self.0 as usize % STRIDE) as u8,
            (self.0 as usize / STRIDE) as u8,
        )
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_border() {
            Some(b) => write!(f, "{}", b.letter()),
            None => {
                let (c, r) = self.coords();
                write!(f, "{}{}", (b'a' + c) as char, r + 1)
            }
        }
    }
}

/// Errors about board dimensions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Dimensions outside 1..=19.
    #[error("board {0}x{1} is not supported (each side must be between 1 and 19)")]
    BadSize(u32, u32),
    /// Text that is not `NxM` or `N`.
    #[error("cannot read board size '{0}' (expected e.g. 7x7 or 11)")]
    BadSyntax(String),
}

/// An `n×m` board: `cols` columns and `rows` rows, each between 1 and 19.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Board {
    cols: u8,
    rows: u8,
}

impl Board {
    /// A board with `cols` columns and `rows` rows.
    pub fn new(cols: u32, rows: u32) -> Result<Board, BoardError> {
        if cols == 0 || rows == 0 || cols > MAX_DIM as u32 || rows > MAX_DIM as u32 {
            return Err(BoardError::BadSize(cols, rows));
        }
        Ok(Board {
            cols: cols as u8,
            rows: rows as u8,
        })
    }

    /// A square board.
    pub fn square(n: u32) -> Result<Board, BoardError> {
        Board::new(n, n)
    }

    /// Parses `7x7`, `7×7`, `7X8` or `7`.
    pub fn parse(s: &str) -> Result<Board, BoardError> {
        let t = s.trim();
        let parts: Vec<&str> = t.split(['x', 'X', '×']).collect();
        let num = |p: &str| {
            p.trim()
                .parse::<u32>()
                .map_err(|_| BoardError::BadSyntax(s.to_string()))
        };
        match parts.as_slice() {
            [n] => Board::square(num(n)?),
            [c, r] => Board::new(num(c)?, num(r)?),
            _ => Err(BoardError::BadSyntax(s.to_string())),
        }
    }

    /// Number of columns.
    #[inline]
    pub fn cols(&self) -> u8 {
        self.cols
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// The cell at 0-based (c, r), if on the board.
    #[inline]
    pub fn cell(&self, c: i32, r: i32) -> Option<Cell> {
        if c >= 0 && r >= 0 && c < self.cols as i32 && r < self.rows as i32 {
            Some(Cell::at(c as u8, r as u8))
        } else {
            None
        }
    }

    /// True for on-board cells and the four borders.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        if cell.is_border() {
            return true;
        }
        let (c, r) = cell.coords();
        c < self.cols && r < self.rows
    }

    /// Every on-board cell (no borders).
    pub fn cells(&self) -> CellSet {
        let mut s = CellSet::EMPTY;
        for r in 0..self.rows {
            for c in 0..self.cols {
                s.insert(Cell::at(c, r));
            }
        }
        s
    }

    /// Number of on-board cells.
    pub fn size(&self) -> usize {
        self.cols as usize * self.rows as usize
    }

    /// The neighbours of a cell or border, including borders.
    pub fn neighbours(&self, cell: Cell) -> CellSet {
        let mut s = CellSet::EMPTY;
        if let Some(b) = cell.as_border() {
            match b {
                Border::Top => (0..self.cols).for_each(|c| {
                    s.insert(Cell::at(c, 0));
                }),
                Border::Bottom => (0..self.cols).for_each(|c| {
                    s.insert(Cell::at(c, self.rows - 1));
                }),
                Border::Left => (0..self.rows).for_each(|r| {
                    s.insert(Cell::at(0, r));
                }),
                Border::Right => (0..self.rows).for_each(|r| {
                    s.insert(Cell::at(self.cols - 1, r));
                }),
            }
            return s;
        }
        let (c, r) = cell.coords();
        let (c, r) = (c as i32, r as i32);
        for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
            if let Some(n) = self.cell(c + dc, r + dr) {
                s.insert(n);
            }
        }
        if r == 0 {
            s.insert(Cell::border(Border::Top));
        }
        if r == self.rows as i32 - 1 {
            s.insert(Cell::border(Border::Bottom));
        }
        if c == 0 {
            s.insert(Cell::border(Border::Left));
        }
        if c == self.cols as i32 - 1 {
            s.insert(Cell::border(Border::Right));
        }
        s
    }

    /// True when `a` and `b` are adjacent (borders included).
    pub fn adjacent(&self, a: Cell, b: Cell) -> bool {
        self.neighbours(a).contains(b)
    }

    /// The two borders of `colour` as cells.
    pub fn border_cells(&self, colour: Colour) -> CellSet {
        colour.borders().into_iter().map(Cell::border).collect()
    }

    /// The board with columns and rows exchanged (image of the colour-swapping reflection).
    pub fn transposed(&self) -> Board {
        Board {
            cols: self.rows,
            rows: self.cols,
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

/// Cells serialise as their board-independent index (see the module docs).
impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u16(self.0)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let i = u16::deserialize(d)?;
        if (i as usize) < BORDER_BASE + 4 {
            Ok(Cell(i))
        } else {
            Err(serde::de::Error::custom(format!(
                "cell index {i} out of range"
            )))
        }
    }
}

/// Cell sets serialise as sorted lists of cell indices.
impl Serialize for CellSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CellSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Cell>::deserialize(d)?;
        Ok(v.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_adjacency() {
        let b = Board::square(5).unwrap();
        let a1 = Cell::at(0, 0);
        let n: Vec<_> = b.neighbours(a1).iter().map(|c| format!("{c:?}")).collect();
        assert_eq!(n, vec!["b1", "a2", "t", "l"]);
        // b1 touches a2 (the (c-1, r+1) neighbour).
        assert!(b.adjacent(Cell::at(1, 0), Cell::at(0, 1)));
        assert!(!b.adjacent(a1, Cell::at(1, 1)));
    }

    #[test]
    fn adjacency_is_symmetric() {
        let b = Board::new(7, 5).unwrap();
        let all = b.cells() | b.border_cells(Colour::Black) | b.border_cells(Colour::White);
        for x in all.iter() {
            for y in b.neighbours(x).iter() {
                assert!(b.neighbours(y).contains(x), "{x:?} {y:?}");
            }
        }
    }

    #[test]
    fn board_parse() {
        assert_eq!(Board::parse("7x8").unwrap().cols(), 7);
        assert_eq!(Board::parse("11").unwrap().rows(), 11);
        assert!(Board::parse("20x20").is_err());
        assert!(Board::parse("0x3").is_err());
        assert!(Board::parse("axb").is_err());
    }
}
