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
