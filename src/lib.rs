//! hexproof: a proof checker and template verifier for the game of Hex.
//!
//! Layers, each depending only on those above it in this list (docs/ARCHITECTURE.md):
//! - [`board`]: geometry, cells, `CellSet` bitsets, notation, symmetries;
//! - [`position`]: stones, chains, winner;
//! - [`claim`]: sub-games, endpoints, goals (VC, semi, union);
//! - [`kernel`]: the small certificate checker, the only maker of `Verified` values;
//! - [`search`]: the exact local search, certificates, carrier minimisation;
//! - [`dsl`]: the proof language — parser, AST, elaboration, diagnostics;
//! - [`check`]: the proof checker (deduction rules and search, per step) and its report;
//! - [`vc`]: virtual connections (H-search, FastVC), mustplay, incremental update.

pub mod bidding;
pub mod board;
pub mod check;
pub mod claim;
pub mod dsl;
pub mod eval;
pub mod game;
pub mod gtp;
pub mod kernel;
pub mod player;
pub mod position;
pub mod render;
pub mod search;
pub mod sgf;
pub mod solver;
pub mod templates;
pub mod vc;
