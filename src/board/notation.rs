//! Cell names: `d4` (letter column, number row; HexGui/Benzene) and Noshita's two digits `44`
//! (column digit, row digit; boards up to 9×9). Borders are `t`, `b`, `l`, `r` in both.

use super::{Board, Border, Cell};
use serde::{Deserialize, Serialize};

/// Which cell-naming scheme to read and write.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    /// `a1` … `s19`.
    #[default]
    Letters,
    /// Noshita's `ij` (column i, row j), boards up to 9×9.
    Digits,
}

/// Why a cell name was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseCellError {
    /// Not a cell name at all.
    #[error("'{0}' is not a cell name (expected e.g. d4, or t/b/l/r for a border)")]
    Syntax(String),
    /// Well-formed but outside the board.
    #[error("cell '{0}' is off the {1} board")]
    OffBoard(String, Board),
    /// Digit notation on a board wider or taller than 9.
    #[error("digit notation ('{0}') needs a board of at most 9x9, this one is {1}")]
    DigitsTooLarge(String, Board),
}

impl Notation {
    /// Parses `digits` or `letters`.
    pub fn parse(s: &str) -> Option<Notation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "letters" | "letter" | "a1" => Some(Notation::Letters),
            "digits" | "digit" | "noshita" | "11" => Some(Notation::Digits),
            _ => None,
        }
    }
}

impl Board {
    /// Reads a cell or border name in the given notation (case-insensitive).
    pub fn parse_cell(&self, s: &str, notation: Notation) -> Result<Cell, ParseCellError> {
        let t = s.trim().to_ascii_lowercase();
        let border = match t.as_str() {
            "t" | "top" => Some(Border::Top),
            "b" | "bottom" => Some(Border::Bottom),
            "l" | "left" => Some(Border::Left),
            "r" | "right" => Some(Border::Right),
            _ => None,
        };
        if let Some(b) = border {
            return Ok(Cell::border(b));
        }
        let (col, row) = match notation {
            Notation::Letters => {
                let mut chars = t.chars();
                let first = chars
                    .next()
                    .ok_or_else(|| ParseCellError::Syntax(s.into()))?;
                if !first.is_ascii_lowercase() {
                    return Err(ParseCellError::Syntax(s.into()));
                }
                let rest: &str = &t[1..];
                if rest.is_empty() || !rest.chars().all(|c| c.is_ascii_digit()) || rest.len() > 2 {
                    return Err(ParseCellError::Syntax(s.into()));
                }
                let row: i32 = rest.parse().map_err(|_| ParseCellError::Syntax(s.into()))?;
                (first as i32 - 'a' as i32 + 1, row)
            }
            Notation::Digits => {
                if self.cols() > 9 || self.rows() > 9 {
                    return Err(ParseCellError::DigitsTooLarge(s.into(), *self));
                }
                let b = t.as_bytes();
                if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
                    return Err(ParseCellError::Syntax(s.into()));
                }
                ((b[0] - b'0') as i32, (b[1] - b'0') as i32)
            }
        };
        self.cell(col - 1, row - 1)
            .ok_or_else(|| ParseCellError::OffBoard(s.trim().into(), *self))
    }

    /// Reads a whitespace- or comma-separated list of cell names.
    pub fn parse_cells(&self, s: &str, notation: Notation) -> Result<Vec<Cell>, ParseCellError> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| self.parse_cell(t, notation))
            .collect()
    }

    /// The name of a cell or border.
    pub fn cell_name(&self, cell: Cell, notation: Notation) -> String {
        if let Some(b) = cell.as_border() {
            return b.letter().to_string();
        }
        let (c, r) = cell.coords();
        match notation {
            Notation::Digits if self.cols() <= 9 && self.rows() <= 9 => {
                format!("{}{}", c + 1, r + 1)
            }
            _ => format!("{}{}", (b'a' + c) as char, r + 1),
        }
    }

    /// Names of a set of cells, in index order, separated by spaces.
    pub fn set_names(&self, set: &super::CellSet, notation: Notation) -> String {
        set.iter()
            .map(|c| self.cell_name(c, notation))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_notations() {
        let b = Board::square(7).unwrap();
        let d4 = b.parse_cell("d4", Notation::Letters).unwrap();
        assert_eq!(b.parse_cell("44", Notation::Digits).unwrap(), d4);
        assert_eq!(b.parse_cell("D4", Notation::Letters).unwrap(), d4);
        assert_eq!(b.cell_name(d4, Notation::Digits), "44");
        assert_eq!(b.cell_name(d4, Notation::Letters), "d4");
        assert_eq!(
            b.parse_cell("b", Notation::Digits).unwrap(),
            Cell::border(Border::Bottom)
        );
    }

    #[test]
    fn bad_names() {
        let b = Board::square(7).unwrap();
        assert!(matches!(
            b.parse_cell("h1", Notation::Letters),
            Err(ParseCellError::OffBoard(..))
        ));
        assert!(matches!(
            b.parse_cell("a8", Notation::Letters),
            Err(ParseCellError::OffBoard(..))
        ));
        assert!(matches!(
            b.parse_cell("a0", Notation::Letters),
            Err(ParseCellError::OffBoard(..))
        ));
        assert!(matches!(
            b.parse_cell("4d", Notation::Letters),
            Err(ParseCellError::Syntax(..))
        ));
        assert!(matches!(
            b.parse_cell("", Notation::Letters),
            Err(ParseCellError::Syntax(..))
        ));
        assert!(matches!(
            b.parse_cell("a999", Notation::Letters),
            Err(ParseCellError::Syntax(..))
        ));
        assert!(matches!(
            b.parse_cell("80", Notation::Digits),
            Err(ParseCellError::OffBoard(..))
        ));
        let big = Board::square(11).unwrap();
        assert!(matches!(
            big.parse_cell("44", Notation::Digits),
            Err(ParseCellError::DigitsTooLarge(..))
        ));
    }
}
