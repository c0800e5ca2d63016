//! The proof checker on real proofs: golden reports of every proof file, mutants rejected for the right reason, Noshita's 7x7 and 8x8, Anshelevich's Appendix B, AB-property composition, lemma trees, lemma records, and a front end that never panics.
//!
//! One test binary per layer (docs/ARCHITECTURE.md, "Tests"): each file here is a module.

mod ab_compose;
mod anshelevich;
mod bases;
#[path = "../common/bin.rs"]
mod bin;
#[path = "../common/templates.rs"]
#[allow(dead_code)]
mod common_templates;
mod golden_reports;
mod hardening_lang;
mod memory;
mod mutations;
mod noshita;
mod noshita8;
#[path = "../common/rng.rs"]
#[allow(dead_code)]
mod rng;
mod robustness;
mod templates_lemmas;
mod trees;
mod yang;
