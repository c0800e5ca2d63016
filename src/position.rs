//! Positions: a board with black and white stones, their chains and the winner.
//!
//! Borders act as permanently coloured cells (docs/SEMANTICS.md "Board and conventions"): Black's top and bottom borders
//! belong to Black's chains, White's left and right borders to White's.

use crate::board::{Board, Border, Cell, CellSet, Colour, Notation, ParseCellError};

/// Why a position could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A stone name did not parse or is off the board.
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    /// A border was given as a stone.
    #[error("'{0}' is a border, not a cell: stones go on cells")]
    BorderStone(String),
    /// Two stones on one cell.
    #[error("cell {0} holds both a black and a white stone")]
    Overlap(String),
    /// A repeated move in a move sequence.
    #[error("cell {0} is already occupied")]
    Occupied(String),
    /// A stone listed twice: a misprint, rejected as carrier cells listed twice are.
    #[error("stone {0} is listed twice")]
    Repeated(String),
}

/// Why a move sequence (a `--moves` argument) could not be replayed: each variant names the
/// move by its 1-based number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A move did not parse as a cell name or is off the board.
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    /// Move `index` names a border.
    #[error("move {index} is a border ('{name}'), not a cell")]
    Border {
        /// The 1-based move number.
        index: usize,
        /// The name as written in the notation.
        name: String,
    },
    /// Move `index` is on a cell a stone already occupies.
    #[error("move {index} ({name}) is on an occupied cell")]
    Occupied {
        /// The 1-based move number.
        index: usize,
        /// The cell's name in the notation.
        name: String,
    },
}

/// Stones on a board. Construct with [`Position::new`] or [`Position::from_names`].
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Position {
    board: Board,
    black: CellSet,
    white: CellSet,
}

/// A chain: a maximal connected set of same-coloured stones, with the borders it touches.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Chain {
    /// The stones and borders of the chain.
    pub cells: CellSet,
    /// Its colour.
    pub colour: Colour,
}

impl Position {
    /// The position reflected in the long diagonal with the colours exchanged: the Hex
    /// symmetry that swaps the players' roles (Black's top–bottom game becomes White's
    /// left–right one on the transposed board, and vice versa).
    pub fn colours_swapped(&self) -> Position {
        let t = |s: CellSet| -> CellSet {
            s.iter()
                .map(|c| {
                    let (x, y) = c.coords();
                    Cell::at(y, x)
                })
                .collect()
        };
        Position::new(
            self.board().transposed(),
            t(self.stones(Colour::White)),
            t(self.stones(Colour::Black)),
        )
        .expect("the reflection of a position is a position")
    }

    /// An empty board.
    pub fn empty(board: Board) -> Position {
        Position {
            board,
            black: CellSet::EMPTY,
            white: CellSet::EMPTY,
        }
    }

    /// The position after `moves` (cells in `notation`, separated by blanks or commas), Black
    /// first and the colours alternating; an unknown cell or an occupied one is an error.
    pub fn from_moves(
        board: Board,
        moves: &str,
        notation: Notation,
    ) -> Result<Position, MoveError> {
        let mut p = Position::empty(board);
        p.play_moves(moves, notation)?;
        Ok(p)
    }

    /// Plays `moves` (cells in `notation`, separated by blanks or commas) on this position,
    /// Black first and the colours alternating, and returns how many were played. The one
    /// replay of a `--moves` argument every command uses: a border, an unknown cell or an
    /// occupied one is an error naming the move (`move 3 (c4) is on an occupied cell`), and
    /// the position is left as it was.
    pub fn play_moves(&mut self, moves: &str, notation: Notation) -> Result<usize, MoveError> {
        let board = self.board;
        let cells = board.parse_cells(moves, notation)?;
        let mut p = self.clone();
        for (k, &c) in cells.iter().enumerate() {
            let name = board.cell_name(c, notation);
            if c.is_border() {
                return Err(MoveError::Border { index: k + 1, name });
            }
            let who = if k % 2 == 0 {
                Colour::Black
            } else {
                Colour::White
            };
            p.play(who, c)
                .map_err(|_| MoveError::Occupied { index: k + 1, name })?;
        }
        *self = p;
        Ok(cells.len())
    }

    /// A position from stone sets; checks that they are on-board cells and disjoint.
    pub fn new(board: Board, black: CellSet, white: CellSet) -> Result<Position, PositionError> {
        for c in (black | white).iter() {
            if c.is_border() {
                return Err(PositionError::BorderStone(
                    board.cell_name(c, Notation::Letters),
                ));
            }
            if !board.contains(c) {
                return Err(PositionError::Cell(ParseCellError::OffBoard(
                    format!("{c:?}"),
                    board,
                )));
            }
        }
        if let Some(c) = (black & white).first() {
            return Err(PositionError::Overlap(
                board.cell_name(c, Notation::Letters),
            ));
        }
        Ok(Position {
            board,
            black,
            white,
        })
    }

    /// A position from lists of cell names.
    pub fn from_names(
        board: Board,
        black: &str,
        white: &str,
        notation: Notation,
    ) -> Result<Position, PositionError> {
        let parse = |s: &str| -> Result<CellSet, PositionError> {
            let mut set = CellSet::EMPTY;
            for (tok, c) in s
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .map(|t| (t, board.parse_cell(t, notation)))
            {
                let c = c?;
                if c.is_border() {
                    return Err(PositionError::BorderStone(tok.to_string()));
                }
                if !set.insert(c) {
                    return Err(PositionError::Repeated(tok.to_string()));
                }
            }
            Ok(set)
        };
        Position::new(board, parse(black)?, parse(white)?)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Stones of one colour (no borders).
    pub fn stones(&self, colour: Colour) -> CellSet {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        }
    }

    /// Empty on-board cells.
    pub fn empty_cells(&self) -> CellSet {
        self.board.cells() - self.black - self.white
    }

    /// The colour on a cell or border, if any.
    pub fn colour_at(&self, c: Cell) -> Option<Colour> {
        if let Some(b) = c.as_border() {
            return Some(b.owner());
        }
        if self.black.contains(c) {
            Some(Colour::Black)
        } else if self.white.contains(c) {
            Some(Colour::White)
        } else {
            None
        }
    }

    /// Places a stone on an empty cell.
    pub fn play(&mut self, colour: Colour, c: Cell) -> Result<(), PositionError> {
        if c.is_border() {
            return Err(PositionError::BorderStone(
                self.board.cell_name(c, Notation::Letters),
            ));
        }
        if !self.board.contains(c) || self.colour_at(c).is_some() {
            return Err(PositionError::Occupied(
                self.board.cell_name(c, Notation::Letters),
            ));
        }
        match colour {
            Colour::Black => self.black.insert(c),
            Colour::White => self.white.insert(c),
        };
        Ok(())
    }

    /// Removes any stone from a cell.
    pub fn clear(&mut self, c: Cell) {
        self.black.remove(c);
        self.white.remove(c);
    }

    /// The set of cells of `colour` (stones plus its two borders).
    pub fn owned(&self, colour: Colour) -> CellSet {
        self.stones(colour) | self.board.border_cells(colour)
    }

    /// The chain containing `c` among `cells` (a flood fill over adjacency within `cells`).
    pub fn component(&self, c: Cell, cells: &CellSet) -> CellSet {
        let mut seen = CellSet::single(c);
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            for y in (self.board.neighbours(x) & *cells).iter() {
                if seen.insert(y) {
                    stack.push(y);
                }
            }
        }
        seen
    }

    /// All chains of both colours (borders included in the chains that touch them; a border
    /// that no stone touches is a chain of its own).
    pub fn chains(&self) -> Vec<Chain> {
        let mut out = Vec::new();
        for colour in [Colour::Black, Colour::White] {
            let owned = self.owned(colour);
            let mut left = owned;
            while let Some(c) = left.first() {
                let comp = self.component(c, &owned);
                left -= comp;
                out.push(Chain {
                    cells: comp,
                    colour,
                });
            }
        }
        out
    }

    /// The winner, if a colour joins its two borders.
    pub fn winner(&self) -> Option<Colour> {
        [Colour::Black, Colour::White].into_iter().find(|&colour| {
            let [a, b] = colour.borders();
            self.component(Cell::border(a), &self.owned(colour))
                .contains(Cell::border(b))
        })
    }

    /// ASCII diagram, rows shifted right as on a Hex board: `X` black, `O` white, `.` empty.
    pub fn to_ascii(&self, notation: Notation) -> String {
        let mut s = String::new();
        let b = &self.board;
        s.push_str("  ");
        for c in 0..b.cols() {
            match notation {
                Notation::Digits if b.cols() <= 9 => s.push_str(&format!(" {}", c + 1)),
                _ => s.push_str(&format!(" {}", (b'a' + c) as char)),
            }
        }
        s.push('\n');
        for r in 0..b.rows() {
            s.push_str(&format!("{:>2} ", r + 1));
            s.push_str(&" ".repeat(r as usize));
            for c in 0..b.cols() {
                let cell = Cell::at(c, r);
                s.push(match self.colour_at(cell) {
                    Some(Colour::Black) => 'X',
                    Some(Colour::White) => 'O',
                    None => '.',
                });
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        s
    }
}

/// The winner of a completely or partly filled board described by the two stone sets
/// (convenience for tests and the random-turn code).
pub fn winner_of(board: Board, black: CellSet, white: CellSet) -> Option<Colour> {
    Position {
        board,
        black,
        white,
    }
    .winner()
}

impl Border {
    /// The border as a [`Cell`].
    pub fn cell(self) -> Cell {
        Cell::border(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_column_wins() {
        let b = Board::square(3).unwrap();
        let p = Position::from_names(b, "b1 b2 b3", "a1", Notation::Letters).unwrap();
        assert_eq!(p.winner(), Some(Colour::Black));
        let p = Position::from_names(b, "b1 b3", "a2 b2 c2", Notation::Letters).unwrap();
        assert_eq!(p.winner(), Some(Colour::White));
        let p = Position::from_names(b, "b1", "", Notation::Letters).unwrap();
        assert_eq!(p.winner(), None);
    }

    #[test]
    fn zigzag_uses_diagonal_adjacency() {
        // c1, b2, a3: each touches the next through the (c-1, r+1) neighbour.
        let b = Board::square(3).unwrap();
        let p = Position::from_names(b, "c1 b2 a3", "", Notation::Letters).unwrap();
        assert_eq!(p.winner(), Some(Colour::Black));
        // a1, b2, c3 is not connected: a1 and b2 are not adjacent.
        let p = Position::from_names(b, "a1 b2 c3", "", Notation::Letters).unwrap();
        assert_eq!(p.winner(), None);
    }

    #[test]
    fn bad_positions() {
        let b = Board::square(3).unwrap();
        assert!(matches!(
            Position::from_names(b, "a1", "a1", Notation::Letters),
            Err(PositionError::Overlap(_))
        ));
        assert!(Position::from_names(b, "d1", "", Notation::Letters).is_err());
        assert!(matches!(
            Position::from_names(b, "t", "", Notation::Letters),
            Err(PositionError::BorderStone(_))
        ));
    }

    #[test]
    fn chains_include_borders() {
        let b = Board::square(3).unwrap();
        let p = Position::from_names(b, "a1 c3", "b2", Notation::Letters).unwrap();
        let chains = p.chains();
        // Black: {a1, t}, {c3, b}; White: {b2}, {l}, {r}.
        assert_eq!(
            chains.iter().filter(|c| c.colour == Colour::Black).count(),
            2
        );
        assert_eq!(
            chains.iter().filter(|c| c.colour == Colour::White).count(),
            3
        );
    }
}
