//! [`EnumerateError`]: why a region, a checkpoint or a generated record was rejected.

use crate::claim::ClaimError;
use crate::edge_template::Rc;
use crate::local::Verdict;
use crate::templates::TemplateError;
use std::path::PathBuf;

/// Why `templates generate` could not set up its region, resume its checkpoint or certify a
/// template. The messages are the one-line texts the command prints.
#[derive(Debug, thiserror::Error)]
pub enum EnumerateError {
    /// The stone's row is outside 2..=10.
    #[error("row {0} is not between 2 and 10")]
    Row(i32),
    /// A height below the row or above 17.
    #[error("height {height} must be between the row ({row}) and 17")]
    Height {
        /// The height asked for.
        height: i32,
        /// The stone's row.
        row: i32,
    },
    /// A width that is not positive or has the wrong parity.
    #[error("width {width} must be positive and have the parity of the row ({row}) so the region is centred on the stone")]
    Width {
        /// The width asked for.
        width: i32,
        /// The stone's row.
        row: i32,
    },
    /// A region cell off the board side of the edge, or the stone itself.
    #[error("cell {0:?} is off the board side of the edge or is the stone")]
    OffEdge(Rc),
    /// A region cell whose mirror image is not in the region.
    #[error("the region is not mirror-symmetric: {cell:?} has no image {image:?}")]
    NotSymmetric {
        /// The cell.
        cell: Rc,
        /// Its missing image.
        image: Rc,
    },
    /// A region more than 19 rows high.
    #[error("the region is {0} rows high; boards hold at most 19")]
    TooHigh(i32),
    /// A region of more than 128 cells.
    #[error("the region has {0} cells; the exact search handles at most 128")]
    TooManyCells(usize),
    /// A region more than 19 columns wide.
    #[error("the region is {0} columns wide; boards hold at most 19")]
    TooWide(i32),
    /// A `--split-moves` cell that is not one of the template's carrier cells on the board it
    /// is placed on.
    #[error("--split-moves {cell:?} is not a carrier cell of {name} (name it as the engine's trace does, e.g. k16)")]
    SplitMove {
        /// The template.
        name: String,
        /// The cell as given.
        cell: String,
    },
    /// A `--split-deep-replies` cell that is not one of the template's carrier cells on the
    /// board it is placed on.
    #[error("--split-deep-replies {cell:?} is not a carrier cell of {name} (name it as the engine's trace does, e.g. l13)")]
    SplitDeepReply {
        /// The template.
        name: String,
        /// The cell as given.
        cell: String,
    },
    /// A `--split-deep-moves` cell that is not one of the template's carrier cells on the
    /// board it is placed on.
    #[error("--split-deep-moves {cell:?} is not a carrier cell of {name} (name it as the engine's trace does, e.g. l15)")]
    SplitDeepMove {
        /// The template.
        name: String,
        /// The cell as given.
        cell: String,
    },
    /// More `--split-deep-replies` cells than can be named.
    #[error("--split-deep-replies names {count} cells, at most {most} can be named")]
    SplitDeepReplies {
        /// How many were named.
        count: usize,
        /// The most allowed.
        most: usize,
    },
    /// A cell given to a split flag (`flag`, e.g. `--split-deeper-replies`) that is not one
    /// of the template's carrier cells on the board it is placed on.
    #[error("{flag} {cell:?} is not a carrier cell of {name} (name it as the engine's trace does, e.g. k13)")]
    SplitFlagCell {
        /// The flag.
        flag: &'static str,
        /// The template.
        name: String,
        /// The cell as given.
        cell: String,
    },
    /// More cells given to a split flag than can be named.
    #[error("{flag} names {count} cells, at most {most} can be named")]
    SplitFlagCount {
        /// The flag.
        flag: &'static str,
        /// How many were named.
        count: usize,
        /// The most allowed.
        most: usize,
    },
    /// A helper stone above the goal stone's row.
    #[error("helper stone {helper:?} lies above the goal stone's row {row}")]
    HelperAbove {
        /// The helper stone.
        helper: Rc,
        /// The goal stone's row.
        row: i32,
    },
    /// A two-stone run on a region that has helpers already.
    #[error("the region must not hold helper stones already")]
    HelpersPresent,
    /// A helper-stone enumeration asked for a number of stones it does not take.
    #[error("templates with {0} stones are not enumerated (2 or 3 with helper stones)")]
    Stones(usize),
    /// Two template classes of one file got the same name (a hash collision).
    #[error("two templates would be named {0} (a name-hash collision)")]
    DuplicateName(String),
    /// A checkpoint mask that is not hexadecimal.
    #[error("bad mask '{0}' in checkpoint")]
    BadMask(String),
    /// A checkpoint that is not valid JSON of its form.
    #[error("{}: bad checkpoint: {source}", path.display())]
    BadCheckpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// The JSON error.
        #[source]
        source: serde_json::Error,
    },
    /// A checkpoint of another region.
    #[error("{}: a checkpoint of another region (use --fresh to discard it)", .0.display())]
    OtherRegion(PathBuf),
    /// The checkpoint could not be written.
    #[error("cannot write {}: {source}", path.display())]
    WriteCheckpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A record that could not be placed or encoded.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// A claim the exact search refused.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// The search did not prove the template on its minimal carrier.
    #[error("{name}: the search says {verdict:?} on the minimal carrier")]
    NotProved {
        /// The template's name.
        name: String,
        /// What the search said.
        verdict: Verdict,
    },
    /// The generated record failed its own re-check.
    #[error("{name}: {source}")]
    Unverified {
        /// The template's name.
        name: String,
        /// Why the re-check failed.
        #[source]
        source: TemplateError,
    },
}
