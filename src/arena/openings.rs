//! Openings files: one opening a line, the cells of its moves in letters notation played
//! alternately from Black (`b1`, or `b1 c3` for Black b1 then White c3), `#` starts a
//! comment, blank lines are skipped.

use crate::board::{Board, Cell, CellSet, Notation};

/// One opening: its text and its moves (Black first, then alternately).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves as written, single-spaced (`b1 c3`).
    pub text: String,
    /// The cells, Black's first.
    pub moves: Vec<Cell>,
}

/// A line of an openings file that is not an opening.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// A word that is not a cell of the board.
    #[error("line {line}: '{word}' is not a cell of the {size} board")]
    NotACell {
        /// 1-based line number.
        line: usize,
        /// The word.
        word: String,
        /// The board, e.g. `11x11`.
        size: String,
    },
    /// A cell played twice in one opening.
    #[error("line {line}: {cell} is played twice")]
    Repeated {
        /// 1-based line number.
        line: usize,
        /// The cell.
        cell: String,
    },
    /// An opening that already joins a side's borders (nothing left to play).
    #[error("line {line}: the opening already decides the game")]
    Decided {
        /// 1-based line number.
        line: usize,
    },
    /// No opening at all.
    #[error("no openings (every line is blank or a comment)")]
    Empty,
}

/// The default openings of `board`: the balanced openings of
/// [`crate::player::arena::balanced_openings`] on the first two rows (11×11: b1 … j1 and
/// a2 … k2, the list of `data/openings-11x11.txt`); each is one Black stone.
pub fn first_rows(board: &Board) -> Vec<Opening> {
    crate::player::arena::balanced_openings(board)
        .into_iter()
        .filter(|c| c.coords().1 < 2)
        .map(|c| Opening {
            text: board.cell_name(c, Notation::Letters),
            moves: vec![c],
        })
        .collect()
}

/// Reads the openings of `text` for `board`.
pub fn parse_openings(text: &str, board: &Board) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = body
            .split([' ', '\t', ','])
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            continue;
        }
        let mut moves = Vec::new();
        let mut seen = CellSet::EMPTY;
        for w in &words {
            let lower = w.to_ascii_lowercase();
            let cell = board.parse_cell(&lower, Notation::Letters).map_err(|_| {
                OpeningError::NotACell {
                    line,
                    word: w.to_string(),
                    size: format!("{}x{}", board.cols(), board.rows()),
                }
            })?;
            if seen.contains(cell) {
                return Err(OpeningError::Repeated { line, cell: lower });
            }
            seen.insert(cell);
            moves.push(cell);
        }
        let mut p = crate::position::Position::empty(*board);
        let mut colour = crate::board::Colour::Black;
        for &c in &moves {
            p.play(colour, c).expect("distinct cells of the board");
            colour = colour.opponent();
        }
        if p.winner().is_some() {
            return Err(OpeningError::Decided { line });
        }
        let text = words
            .iter()
            .map(|w| w.to_ascii_lowercase())
            .collect::<Vec<_>>()
            .join(" ");
        out.push(Opening { text, moves });
    }
    if out.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_and_their_errors() {
        let b = Board::square(5).unwrap();
        let o = parse_openings("# comment\n\nb1\nC2 d4  # two moves\n", &b).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].text, "c2 d4");
        assert_eq!(o[1].moves.len(), 2);
        let e = |t: &str| parse_openings(t, &b).unwrap_err().to_string();
        assert_eq!(e("a1\nz9\n"), "line 2: 'z9' is not a cell of the 5x5 board");
        assert_eq!(e("a1 a1"), "line 1: a1 is played twice");
        assert_eq!(
            e("# nothing\n"),
            "no openings (every line is blank or a comment)"
        );
        assert_eq!(
            e("a1 b1 a2 b2 a3 b3 a4 b4 a5"),
            "line 1: the opening already decides the game"
        );
    }
}
