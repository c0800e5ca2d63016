//! The search engines against references: VC engines (closure, soundness, incremental update, undo), derivation leaves, the template library and generator, random-turn and bidding Hex, the player's proven wins.
//!
//! One test binary per layer (docs/ARCHITECTURE.md, "Tests"): each file here is a module.

mod bidding_exact;
mod bidding_gale;
mod bidding_montecarlo;
#[path = "../common/templates.rs"]
#[allow(dead_code)]
mod common_templates;
mod derived_leaves;
#[path = "../common/floor.rs"]
#[allow(dead_code)]
mod floor;
mod hexwiki_templates;
mod player_proven;
#[path = "../common/rng.rs"]
#[allow(dead_code)]
mod rng;
mod templates_generate;
mod templates_library;
mod templates_props;
mod templates_published;
mod templates_shrink;
mod templates_three_stone;
mod templates_two_stone;
mod templates_v1a_independent;
mod vc_capture;
mod vc_closure;
mod vc_fig9;
mod vc_incremental;
mod vc_olympiad;
mod vc_soundness;
mod vc_undo;
