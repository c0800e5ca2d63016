//! [`TemplateError`]: why a template record, certificate or library file was rejected.

use super::library::Symmetry;
use crate::board::{BoardError, Cell, ParseCellError};
use crate::claim::ClaimError;
use crate::kernel::KernelError;
use crate::position::PositionError;
use std::path::PathBuf;

/// Why a template record, its stored certificate or a library file was rejected. The
/// messages are the one-line texts `templates verify`, `certificate` and `check` print.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// A record cell off rows 1..18.
    #[error("cell [{0}, {1}] is not on rows 1..18")]
    OffRows(i32, i32),
    /// A record cell that does not fit the canonical 19-wide board.
    #[error("cell [{0}, {1}] does not fit a 19-wide board")]
    DoesNotFit(i32, i32),
    /// Two stones of a record on one cell.
    #[error("two stones on one cell")]
    StonesOverlap,
    /// A carrier cell listed twice.
    #[error("a carrier cell is listed twice")]
    CarrierRepeated,
    /// A lemma record's board size.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A lemma record's cell name.
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    /// The stones do not make a position.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The claim is not a valid sub-game.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// A certificate mask that is not hexadecimal.
    #[error("'{0}' is not a hexadecimal mask")]
    NotHexMask(String),
    /// A certificate mask naming cells beyond the carrier.
    #[error("mask '{mask}' names a cell beyond the {cells} carrier cells")]
    MaskBeyondCarrier {
        /// The mask as stored.
        mask: String,
        /// Carrier cells.
        cells: usize,
    },
    /// A certificate cell outside the carrier (when encoding).
    #[error("certificate cell {0:?} outside the carrier")]
    CellOutsideCarrier(Cell),
    /// A goal cell neither the top edge, a stone nor a carrier cell (when encoding).
    #[error("goal cell {0:?} unknown")]
    UnknownGoal(Cell),
    /// The certificate's first move outside the carrier (when encoding).
    #[error("first move outside the carrier")]
    FirstOutsideCarrier,
    /// A stone code with no stone (when decoding).
    #[error("no stone for code {0}")]
    NoStone(i32),
    /// A carrier code with no carrier cell (when decoding).
    #[error("no carrier cell {0}")]
    NoCarrierCell(i32),
    /// A stored node with both replies and children.
    #[error("node {0} is both an or-node and an and-node")]
    OrAndNode(usize),
    /// A stored node leaving out a field whose derivation needs a later node.
    #[error("node {0}: a field left out, but a child comes later")]
    ChildLater(usize),
    /// A record without stones (verification).
    #[error("no stones")]
    NoStones,
    /// The goal stone is not at `[row, 0]`.
    #[error("the goal stone is [{0}, {1}], but a row-{2} template has it at [{2}, 0]")]
    GoalStone(i32, i32, i32),
    /// A goal stone above the template's row (helper stones may lie anywhere).
    #[error("a goal stone lies above the template's row")]
    StoneAboveRow,
    /// A goal count of zero or more than the stones.
    #[error("{goals} goal stones, but {stones} stones")]
    GoalCount {
        /// The stored goal count.
        goals: usize,
        /// The stones.
        stones: usize,
    },
    /// A claim that is `union` without several goal stones, or several goal stones without a
    /// `union` claim.
    #[error("{0} goal stones: a union claim has several, a vc or semi claim one")]
    UnionGoals(usize),
    /// The carrier is not in normal form.
    #[error("the carrier is not sorted by (row, col) without repeats")]
    CarrierUnsorted,
    /// The helper stones are not in normal form.
    #[error("the helper stones are not sorted by (row, col) without repeats")]
    StonesUnsorted,
    /// The record's mirror image is smaller.
    #[error("the template is not in canonical orientation (its mirror image is smaller)")]
    NotCanonical,
    /// The stored symmetry class is wrong.
    #[error("the symmetry class is {computed:?}, not {stored:?}")]
    Symmetry {
        /// The class of the stones and carrier.
        computed: Symmetry,
        /// The class stored.
        stored: Symmetry,
    },
    /// The stored digest is not the record's.
    #[error("digest mismatch (stored {stored}, computed {computed}): the record was edited")]
    Digest {
        /// The digest stored.
        stored: String,
        /// The digest of the record.
        computed: String,
    },
    /// The certificate's root node does not exist.
    #[error("root node {0} is missing")]
    RootMissing(u32),
    /// The certificate's root does not use exactly the stored carrier.
    #[error("the certificate uses {used} of the {cells} carrier cells: the stored carrier is not the proved one")]
    CarrierNotProved {
        /// Cells the root uses.
        used: usize,
        /// Cells of the stored carrier.
        cells: usize,
    },
    /// The kernel rejected the certificate.
    #[error("kernel: {0}")]
    Kernel(#[source] KernelError),
    /// A record without its goal stone (shape check).
    #[error("no stones (the goal stone comes first)")]
    NoGoalStone,
    /// A row outside the canonical board (shape check).
    #[error("row {0} is not in 1..={max}", max = super::library::MAX_RECORD_ROW)]
    RowOutOfRange(i32),
    /// A cell outside the canonical board (shape check).
    #[error("cell [{0}, {1}] is outside rows 1..={max_row}, columns -{max_col}..={max_col}", max_row = super::library::MAX_RECORD_ROW, max_col = super::library::MAX_RECORD_COL)]
    CellOutOfRange(i32, i32),
    /// More carrier cells than a certificate mask holds.
    #[error("{0} carrier cells (at most 128)")]
    CarrierTooLarge(usize),
    /// A root index beyond the nodes.
    #[error("certificate root {root} is not one of its {nodes} nodes")]
    RootOutOfRange {
        /// The stored root.
        root: u32,
        /// The number of nodes.
        nodes: usize,
    },
    /// A library file that is not valid JSON of the library's form.
    #[error("{}: not a library file: {source}", path.display())]
    NotLibraryFile {
        /// The file.
        path: PathBuf,
        /// The JSON error.
        #[source]
        source: serde_json::Error,
    },
    /// A lemma file that is not valid JSON of its form.
    #[error("{}: not a lemma file: {source}", path.display())]
    NotLemmaFile {
        /// The file.
        path: PathBuf,
        /// The JSON error.
        #[source]
        source: serde_json::Error,
    },
    /// A record of a library file with a bad shape.
    #[error("{}: record {index} ({name:?}): {source}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// The 1-based record number.
        index: usize,
        /// The record's name (first 40 characters).
        name: String,
        /// What is wrong with it.
        #[source]
        source: Box<TemplateError>,
    },
    /// The library directory cannot be listed.
    #[error("cannot read library directory {}: {source}", path.display())]
    ReadDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A library file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}
