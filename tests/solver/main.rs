//! The whole-board DFPN solver: winners against published tables and the exact search, emitted proofs the checker accepts, the whole-board engine of `verify`, template refutations.
//!
//! One test binary per layer (docs/ARCHITECTURE.md, "Tests"): each file here is a module.

#[path = "../common/bin.rs"]
mod bin;
#[path = "../common/templates.rs"]
#[allow(dead_code)]
mod common_templates;
#[path = "../common/rng.rs"]
#[allow(dead_code)]
mod rng;
mod solver;
mod solver_compact;
mod solver_emit;
mod solver_engine;
mod solver_fill_search;
mod solver_group;
mod solver_mustplay;
mod templates_whole_board;
