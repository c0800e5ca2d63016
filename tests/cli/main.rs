//! The `hexproof` binary end to end: every command's exit codes, one-line errors, JSON, pictures, GTP conformance.
//!
//! One test binary per layer (docs/ARCHITECTURE.md, "Tests"): each file here is a module.

mod bidding_cli;
#[path = "../common/bin.rs"]
mod bin;
mod check_shard_cli;
mod cli;
mod cli_check;
mod cluster_cli;
mod gtp_conformance;
mod hardening_io;
mod json_shape;
mod match_cli;
mod polish;
mod readme;
mod render_cli;
mod render_svg;
mod templates_cli;
mod train_cli;
mod vc_cli;
mod yang_cli;
