//! Proofs written by the engine, for the checker to verify:
//!
//! - [`emit`]: a DFPN win as a `.hexp` strategy for `hexproof check` (`solve --emit-proof`);
//! - [`whole_board`]: a one-stone template's sub-game as a Hex position, refuted by the solver
//!   with White's strategy checked by the checker.
//!
//! The emitted text is never trusted: `hexproof check` decides it.

pub mod emit;
pub mod whole_board;

/// Why the engine could not write a proof ([`emit`]) or an exported proof does not fit
/// ([`whole_board`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProveError {
    /// The position cannot be solved at all.
    #[error(transparent)]
    Solve(#[from] crate::dfpn::SolveError),
    /// The solver's budget ran out at the root.
    #[error("the solver could not decide the position within its budget")]
    Undecided,
    /// The loser to move with no stone of the winner on the board.
    #[error("the loser to move on an empty board is not a Hex position")]
    LoserOnEmpty,
    /// A move of the strategy could not be played.
    #[error(transparent)]
    Position(#[from] crate::position::PositionError),
    /// The proof tree grew past [`emit::MAX_TREE_NODES`].
    #[error("the proof exceeds {} nodes", emit::MAX_TREE_NODES)]
    TooLarge,
    /// The solver's budget ran out in a sub-position (its node count).
    #[error("the solver could not prove the win in a sub-position ({0} nodes)")]
    SubPosition(u64),
    /// No winning move could be confirmed.
    #[error("no confirmed winning move")]
    NoWinningMove,
    /// A tentative subtree of the proof-size objective grew past the best one so far
    /// (internal to the emitter: never returned by [`emit::emit`]).
    #[error("the tentative subtree was cut off (larger than the best so far)")]
    Cutoff,
    /// An exported proof whose header states another position.
    #[error("the exported proof states another position")]
    OtherPosition,
}
