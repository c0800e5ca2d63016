//! The whole-board engine: a claim the exact local search leaves undecided, decided by the
//! DFPN solver on a whole-board encoding and rebuilt as a kernel certificate.
//!
//! - [`encode`]: a Black claim "group or cell to a border" as a whole-board position that
//!   Black wins iff the claim holds;
//! - [`whole`]: the solver's win rebuilt as a kernel certificate (`verify --engine auto`).
//!
//! It sits above [`crate::local`] and [`crate::dfpn`] and uses both; nothing below uses it.

pub mod encode;
pub mod whole;

/// Why the whole-board engine could not encode a claim or build its certificate. The
/// messages are the texts `verify --json` reports as `not_applicable` and `failure`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// A claim of White (only Black's claims are encoded).
    #[error("only claims of Black are encoded")]
    NotBlack,
    /// A pair with no end on a Black border.
    #[error("a pair that does not end on one Black border")]
    PairNotOnBlackBorder,
    /// A pair ending on a White border.
    #[error("a pair ending on a White border")]
    PairOnWhiteBorder,
    /// Pairs ending on different Black borders.
    #[error("pairs ending on different borders")]
    DifferentBorders,
    /// A claim without pairs.
    #[error("no pairs")]
    NoPairs,
    /// The goal is already connected.
    #[error("the goal is joined already")]
    Joined,
    /// The far border touches the carrier away from the group.
    #[error("the far border touches the carrier away from the group")]
    FarBorderTouches,
    /// No harmless chain reaches the far border.
    #[error("no harmless chain from the group to the far border")]
    NoHarmlessChain,
    /// The encoded position is already won.
    #[error("the encoded position is won already")]
    EncodedWon,
    /// The window is not a board.
    #[error(transparent)]
    Board(#[from] crate::board::BoardError),
    /// The stones do not make a position.
    #[error(transparent)]
    Position(#[from] crate::position::PositionError),
    /// A sub-game that is not valid.
    #[error(transparent)]
    Claim(#[from] crate::claim::ClaimError),
    /// The deadline passed while the certificate was being built.
    #[error("the time budget ran out while the certificate was being built")]
    OutOfTime,
    /// The solver did not prove Black's win (its node count).
    #[error("the solver did not prove Black's win after {0} nodes")]
    BlackWinUnproved(u64),
    /// The solver did not prove White's loss (its node count).
    #[error("the solver did not prove White's loss after {0} nodes")]
    WhiteLossUnproved(u64),
    /// No winning move could be confirmed.
    #[error("no confirmed winning move")]
    NoWinningMove,
    /// The solver's move is outside the encoding's window.
    #[error("a winning move outside the window")]
    MoveOutsideWindow,
    /// The solver's move is outside the claim's carrier.
    #[error("a winning move outside the carrier")]
    MoveOutsideCarrier,
    /// The certificate grew past its bound.
    #[error("the certificate exceeds {0} nodes")]
    TooManyNodes(usize),
    /// A leaf certificate naming a node it does not have.
    #[error("a leaf certificate refers to a missing node")]
    MissingLeafNode,
    /// A leaf certificate with a cycle.
    #[error("a cycle in a leaf certificate")]
    LeafCycle,
    /// A leaf certificate without nodes.
    #[error("an empty leaf certificate")]
    EmptyLeaf,
    /// An engine name other than `local`, `solver`, `auto`.
    #[error("unknown engine {0:?} (expected local, solver or auto)")]
    UnknownEngine(String),
}
