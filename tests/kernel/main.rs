//! The trusted core: every deduction rule's side conditions, the rules' soundness on random instances, known facts decided by the kernel-checked search, the naive reference solver, and the layering of the crate.
//!
//! One test binary per layer (docs/ARCHITECTURE.md, "Tests"): each file here is a module.

mod architecture;
mod conj_and;
mod filled_leaf;
mod ice;
mod known_facts;
mod lemma_leaf;
mod minimize;
mod reference_solver;
mod rule_soundness;
mod rules;
mod union_and;
