//! Jing Yang's 9×9 winning strategy (centre opening) as data: the reader of his pattern
//! file ([`reader`]), a player that follows it ([`follow`]) and the per-pattern report of
//! `hexproof yang check` ([`report`]). Design, format and what is (not yet) checked:
//! docs/yang.md.

pub mod follow;
pub mod reader;
pub mod refute;
pub mod report;
pub mod slips;
pub mod verify;

pub use follow::{Follower, Game};
pub use reader::{Defect, Loc, Strategy, YangError, YangErrorKind};
