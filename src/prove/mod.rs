//! Proofs written by the engine, for the checker to verify:
//!
//! - [`emit`]: a DFPN win as a `.hexp` strategy for `hexproof check` (`solve --emit-proof`);
//! - [`whole_board`]: a one-stone template's sub-game as a Hex position, refuted by the solver
//!   with White's strategy checked by the checker.
//!
//! The emitted text is never trusted: `hexproof check` decides it.

pub mod emit;
pub mod whole_board;
