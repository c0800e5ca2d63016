//! Edge templates in edge-relative coordinates and their placement on a board.
//!
//! The coordinate system is HexWiki's as transcribed in `tests/fixtures/
//! edge-templates-hexwiki.README.md`: a cell is `[row, col]`, row 1 touches the edge, and the
//! neighbours of `[r, c]` are `[r, c±1]`, `[r−1, c]`, `[r−1, c+1]`, `[r+1, c−1]`, `[r+1, c]`.
//! That is exactly standard notation for a template on the TOP edge (column = offset + c,
//! row = r); the other edges follow by 180° rotation and the long-diagonal reflection.
//!
//! This is the shape layer, below the VC engine (which seeds its connections with these
//! templates) and the exact search. The certified library built on it is `templates`.

use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::claim::{Claim, ClaimError, SubGame};
use crate::position::Position;
use serde::Deserialize;

/// An edge-relative cell `[row, col]` (row 1 touches the edge).
pub type Rc = [i32; 2];

/// An edge template as stored in the HexWiki transcription.
#[derive(Clone, Debug, Deserialize)]
pub struct EdgeTemplate {
    /// HexWiki name, e.g. `IV1a`.
    pub name: String,
    /// Row of the highest goal stone.
    pub row: i32,
    /// Every stone of the template's owner.
    pub stones: Vec<[i32; 2]>,
    /// The stones that must be connected (some one of them) to the edge.
    pub goal_stones: Vec<[i32; 2]>,
    /// The empty cells.
    pub carrier: Vec<[i32; 2]>,
}

/// Why a template could not be placed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// Some cell falls off the board.
    #[error("template {0} does not fit on the {1} board at that place")]
    OffBoard(String, Board),
    /// The sub-game is malformed.
    #[error(transparent)]
    Claim(#[from] ClaimError),
}

impl EdgeTemplate {
    /// Parses the JSON list format of `edge-templates-hexwiki.json`.
    pub fn parse_list(json: &str) -> Result<Vec<EdgeTemplate>, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// Width (columns spanned) and height (rows) of the template.
    pub fn extent(&self) -> (i32, i32, i32) {
        let all = self.stones.iter().chain(self.carrier.iter());
        let min_c = all.clone().map(|rc| rc[1]).min().unwrap_or(0);
        let max_c = all.clone().map(|rc| rc[1]).max().unwrap_or(0);
        let max_r = all.map(|rc| rc[0]).max().unwrap_or(1);
        (min_c, max_c, max_r)
    }

    /// The board cell of edge-relative `[row, col]` for a template at `border` (owned by
    /// `border.owner()`), its column 0 placed at position `offset` along the edge.
    pub fn cell_at(board: &Board, border: Border, offset: i32, rc: [i32; 2]) -> Option<Cell> {
        let [row, col] = rc;
        let (c, r) = match border {
            Border::Top => (offset + col, row - 1),
            Border::Bottom => (offset - col, board.rows() as i32 - row),
            Border::Left => (row - 1, offset + col),
            Border::Right => (board.cols() as i32 - row, offset - col),
        };
        board.cell(c, r)
    }

    /// The template as a sub-game: its owner's stones on the board, the carrier, and the
    /// union claim "some goal stone − the border" with the opponent moving first.
    pub fn place(&self, board: Board, border: Border, offset: i32) -> Result<SubGame, PlaceError> {
        let owner = border.owner();
        let at = |rc: &[i32; 2]| {
            Self::cell_at(&board, border, offset, *rc)
                .ok_or_else(|| PlaceError::OffBoard(self.name.clone(), board))
        };
        let stones: CellSet = self.stones.iter().map(at).collect::<Result<_, _>>()?;
        let carrier: CellSet = self.carrier.iter().map(at).collect::<Result<_, _>>()?;
        let pairs = self
            .goal_stones
            .iter()
            .map(|g| at(g).map(|c| (c, Cell::border(border))))
            .collect::<Result<Vec<_>, _>>()?;
        let position = match owner {
            Colour::Black => Position::new(board, stones, CellSet::EMPTY),
            Colour::White => Position::new(board, CellSet::EMPTY, stones),
        }
        .expect("template stones are distinct on-board cells");
        let claim = Claim {
            owner,
            pairs,
            owner_first: false,
        };
        Ok(SubGame::new(position, carrier, claim)?)
    }

    /// Places the template at `border` on the smallest square board that holds it with a
    /// margin of one cell, centred along the edge.
    pub fn place_fitting(&self, border: Border) -> Result<SubGame, PlaceError> {
        let (min_c, max_c, max_r) = self.extent();
        let width = max_c - min_c + 1;
        let n = (width + 2).max(max_r + 1).min(19) as u32;
        let board = Board::square(n).expect("size is between 1 and 19");
        let offset = match border {
            Border::Top | Border::Left => 1 - min_c,
            Border::Bottom | Border::Right => n as i32 - 2 + min_c,
        };
        self.place(board, border, offset)
    }
}
