//! [`GtpError`]: why a GTP command failed. Its `Display` is the text of the `?` reply.

use crate::bidding::BiddingError;
use crate::board::ParseCellError;
use crate::claim::ClaimError;
use crate::game::GameError;
use crate::sgf::SgfError;

/// Why a GTP command failed; the message is the `? …` reply, unchanged from the protocol's
/// one-line style.
#[derive(Debug, thiserror::Error)]
pub enum GtpError {
    /// An id with no command after it.
    #[error("missing command")]
    MissingCommand,
    /// A command the engine does not know.
    #[error("unknown command: {0}")]
    UnknownCommand(String),
    /// A command given the wrong number of arguments.
    #[error("{command}: expected {expected} argument(s), got {got}")]
    Arity {
        /// The command.
        command: String,
        /// How many it takes.
        expected: usize,
        /// How many it was given.
        got: usize,
    },
    /// An analysis command given the wrong number of arguments (no count in the message).
    #[error("{command}: expected {expected} argument(s)")]
    ArityShort {
        /// The command.
        command: &'static str,
        /// How many it takes.
        expected: usize,
    },
    /// A command's arguments do not fit its usage (the message says what it expects).
    #[error("{0}")]
    Usage(&'static str),
    /// A bidding command with more than `[samples [seed]]`.
    #[error("{0}: too many arguments")]
    TooManyArguments(&'static str),
    /// `boardsize` outside the supported sizes.
    #[error("unacceptable size")]
    UnacceptableSize,
    /// A colour other than `b`, `black`, `w`, `white`.
    #[error("invalid color '{0}'")]
    InvalidColour(String),
    /// A move that is not a cell of the board.
    #[error("illegal move: {colour} {text} (not a cell of this board)")]
    NotACell {
        /// `b` or `w`.
        colour: char,
        /// The move as given.
        text: String,
    },
    /// An analysis point that is neither a border nor a cell.
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    /// The game refused a move or an undo.
    #[error(transparent)]
    Game(#[from] GameError),
    /// `loadsgf` read a file that is not a Hex game.
    #[error(transparent)]
    Sgf(#[from] SgfError),
    /// `loadsgf` could not read the file.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path as given.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// `savesgf` could not write the file.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The path as given.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A stone count that is not a number.
    #[error("bad stone count '{0}'")]
    BadStoneCount(String),
    /// A move number that is not a number.
    #[error("bad move number '{0}'")]
    BadMoveNumber(String),
    /// A node count that is not a number.
    #[error("bad node count '{0}'")]
    BadNodeCount(String),
    /// A time that is not a non-negative number.
    #[error("'{0}' is not a non-negative number")]
    NotNonNegative(String),
    /// A boolean parameter other than 0/1/true/false/on/off.
    #[error("'{0}' is not a boolean (0 or 1)")]
    NotBoolean(String),
    /// A numeric `param_player` value that is not a number.
    #[error("{name}: '{value}' is not a number")]
    NotANumber {
        /// The parameter.
        name: String,
        /// The value given.
        value: String,
    },
    /// A bidding argument that is not a non-negative integer.
    #[error("{what} must be a non-negative integer, not '{value}'")]
    NotACount {
        /// The argument's name.
        what: &'static str,
        /// The value given.
        value: String,
    },
    /// A sample count of 0.
    #[error("samples must be at least 1")]
    NoSamples,
    /// `param_player player` with an unknown player.
    #[error("unknown player '{0}'")]
    UnknownPlayer(String),
    /// `param_player variant` with an unknown VC variant.
    #[error("unknown variant '{0}'")]
    UnknownVariant(String),
    /// `param_player links` with an unknown setting.
    #[error("unknown links '{0}'")]
    UnknownLinks(String),
    /// `param_player playout_patterns` with a value other than off, r1, r2.
    #[error("playout_patterns: '{0}' is not off, r1 or r2")]
    UnknownPlayoutPatterns(String),
    /// `param_player` with an unknown parameter.
    #[error("unknown parameter '{0}'")]
    UnknownParameter(String),
    /// The claim of `solve-state` could not be set up or decided.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// A bidding analysis failed.
    #[error(transparent)]
    Bidding(#[from] BiddingError),
    /// `bidding-bid` on a finished game.
    #[error("game is over")]
    GameOver,
    /// `genmove` by the side that has already won (it may not resign, and there is no move).
    #[error("game is over: {0} has won")]
    AlreadyWon(char),
    /// `play … swap-pieces` while the swap rule is off (`param_game allow_swap 0`).
    #[error("illegal move: {0} swap-pieces (swap is off; 'param_game allow_swap 1' turns it on)")]
    SwapOff(char),
    /// A line longer than the server reads.
    #[error("line too long (more than {0} bytes); ignored")]
    LineTooLong(usize),
}
