//! The ICE library file (`templates/ice.json`): patterns written on the 9×9 instance board
//! by cell name, with the proofs' data (a captured set's replies, a vulnerable cell's
//! killer). Nothing here is trusted: `trusted::ice` re-checks every claim.

use super::INSTANCE;
use crate::board::{Board, Cell, CellSet, Colour, Notation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The claim a pattern makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PatternClass {
    /// The set's single cell is dead.
    Dead,
    /// The set is captured by the pattern's colour.
    Captured,
    /// The set's single cell is vulnerable for the pattern's colour (a move there is
    /// answered at the killer, after which it is dead).
    Vulnerable,
}

impl PatternClass {
    /// Every class, in file order.
    pub const ALL: [PatternClass; 3] = [
        PatternClass::Dead,
        PatternClass::Captured,
        PatternClass::Vulnerable,
    ];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            PatternClass::Dead => "dead",
            PatternClass::Captured => "captured",
            PatternClass::Vulnerable => "vulnerable",
        }
    }
}

/// One pattern of the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pattern {
    /// The claim.
    pub class: PatternClass,
    /// Captured: the capturing colour; vulnerable: the player whose move is inferior; dead:
    /// black (the claim has no colour).
    pub colour: Colour,
    /// The set S (empty cells; one cell for dead and vulnerable).
    pub set: Vec<String>,
    /// Black stones required (in the ring of S).
    #[serde(default)]
    pub black: Vec<String>,
    /// White stones required (in the ring of S).
    #[serde(default)]
    pub white: Vec<String>,
    /// Vulnerable: the opponent's reply that kills the cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub killer: Option<String>,
    /// Captured: the capturing player's reply (an index into `set`) to each sequence of the
    /// opponent's moves in S (indices into `set`, joined by `.`): the strategy tree.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub replies: BTreeMap<String, usize>,
}

/// A pattern's cells, parsed on the instance board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// S, in file order.
    pub set: Vec<Cell>,
    /// Required black stones.
    pub black: CellSet,
    /// Required white stones.
    pub white: CellSet,
    /// The killer (vulnerable patterns).
    pub killer: Option<Cell>,
}

/// The instance board.
pub fn instance_board() -> Board {
    Board::square(INSTANCE).expect("9x9 is a board")
}

impl Pattern {
    /// The cells, parsed on the instance board; an error names a bad cell name.
    pub fn parse(&self) -> Result<Parsed, String> {
        let b = instance_board();
        let cell = |s: &String| {
            b.parse_cell(s, Notation::Letters)
                .ok()
                .filter(|c| !c.is_border())
                .ok_or_else(|| format!("'{s}' is not a cell of the 9x9 instance board"))
        };
        let set = self.set.iter().map(cell).collect::<Result<Vec<_>, _>>()?;
        let black = self
            .black
            .iter()
            .map(cell)
            .collect::<Result<CellSet, _>>()?;
        let white = self
            .white
            .iter()
            .map(cell)
            .collect::<Result<CellSet, _>>()?;
        let killer = self.killer.as_ref().map(cell).transpose()?;
        Ok(Parsed {
            set,
            black,
            white,
            killer,
        })
    }
}

/// What the file says of one class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassNote {
    /// The class.
    pub class: PatternClass,
    /// The set sizes enumerated.
    pub sizes: Vec<usize>,
    /// The completeness statement (docs/ice.md).
    pub completeness: String,
}

/// The library file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IceFile {
    /// `hexproof-ice-1`.
    pub format: String,
    /// The instance board, `9x9`.
    pub instance: String,
    /// What each class covers.
    pub classes: Vec<ClassNote>,
    /// The patterns.
    pub patterns: Vec<Pattern>,
}

/// The format tag.
pub const FORMAT: &str = "hexproof-ice-1";

impl IceFile {
    /// Parses a library file.
    pub fn from_json(text: &str) -> Result<IceFile, String> {
        let f: IceFile = serde_json::from_str(text).map_err(|e| format!("ICE library: {e}"))?;
        if f.format != FORMAT {
            return Err(format!(
                "ICE library: format '{}', expected '{FORMAT}'",
                f.format
            ));
        }
        if f.instance != format!("{INSTANCE}x{INSTANCE}") {
            return Err(format!(
                "ICE library: instance board '{}', expected {INSTANCE}x{INSTANCE}",
                f.instance
            ));
        }
        Ok(f)
    }

    /// The embedded library.
    pub fn embedded() -> Result<IceFile, String> {
        IceFile::from_json(super::EMBEDDED)
    }
}

/// The cell name on the instance board.
pub fn name(c: Cell) -> String {
    instance_board().cell_name(c, Notation::Letters)
}
