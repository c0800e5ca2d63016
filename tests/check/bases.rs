//! Trust as a type (issue 23): every verified line of a few golden proofs carries a `Basis` of
//! the kind expected — a kernel certificate, a named rule with its side conditions, an exact
//! game, or a tree resting on those — and no other line carries one. That a `Basis` cannot be
//! made outside `src/trusted` is a compile-time matter: the `compile_fail` doctests of
//! `hexproof::trusted`.

use super::anshelevich::steps;
use hexproof::check::report::StepVerdict;
use hexproof::check::{check_files, check_source, Checked, Options};
use hexproof::trusted::BasisKind;
use std::collections::BTreeSet;
use std::path::Path;

fn options() -> Options {
    let mut o = Options::default();
    o.budget.time = None;
    o.confirm.time = None;
    o
}

fn file(rel: &str) -> Checked {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    check_files(&[p], &options())
}

/// Every verified line has a basis, whose text is the report's; no other line has one. The
/// set of (rule, basis text, kind) of the verified lines.
fn bases(c: &Checked) -> BTreeSet<(String, String, BasisKind)> {
    let mut out = BTreeSet::new();
    for s in steps(c) {
        match (&s.basis, s.verdict) {
            (Some(b), StepVerdict::Verified) => {
                assert_eq!(b.to_string(), s.basis_text());
                out.insert((s.rule.clone(), b.to_string(), b.kind()));
            }
            (None, StepVerdict::Verified) => panic!("verified without a basis: {s:?}"),
            (Some(b), v) => panic!("{v:?} with a basis {b}: {s:?}"),
            (None, _) => assert_eq!(s.basis_text(), "none"),
        }
    }
    out
}

fn has(set: &BTreeSet<(String, String, BasisKind)>, rule: &str, text: &str, kind: BasisKind) {
    assert!(
        set.contains(&(rule.to_string(), text.to_string(), kind)),
        "no verified `{rule}` line with basis `{text}` ({kind:?}) in {set:#?}"
    );
}

#[test]
fn appendix_b_rule_steps_rest_on_rules_and_searches_on_the_kernel() {
    let c = file("proofs/anshelevich-appendix-b.hexp");
    assert_eq!(c.report.exit_code, 0);
    let set = bases(&c);
    has(&set, "AND", "rule and search", BasisKind::Rule);
    has(&set, "OR", "rule and search", BasisKind::Rule);
    for (rule, text, kind) in &set {
        match rule.as_str() {
            "search" | "lemma claim" => assert_eq!(*kind, BasisKind::Kernel, "{rule} {text}"),
            "AND" | "OR" | "rule (1)" | "rule (2)" | "monotonicity" | "lemma" => {
                assert_eq!(*kind, BasisKind::Rule, "{rule} {text}")
            }
            _ => {}
        }
    }
}

#[test]
fn ab_guarantees_rest_on_the_exact_game() {
    let c = file("proofs/examples/ab-property.hexp");
    assert_eq!(c.report.exit_code, 0);
    let set = bases(&c);
    has(&set, "AB guarantee", "search", BasisKind::Game);
}

#[test]
fn tree_nodes_rest_on_their_lines_and_placements_on_the_lemma_rule() {
    let c = file("proofs/examples/hex3-precluding.hexp");
    assert_eq!(c.report.exit_code, 0);
    let set = bases(&c);
    has(&set, "lemma", "rule and search", BasisKind::Rule);
    has(&set, "white node", "tree and search", BasisKind::Tree);
    has(&set, "preclude", "tree", BasisKind::Tree);
    has(&set, "black move", "tree", BasisKind::Tree);
    has(&set, "leaf", "tree and search", BasisKind::Tree);
    let shared = file("proofs/examples/hex3-shared.hexp");
    assert_eq!(shared.report.exit_code, 0);
    let set = bases(&shared);
    has(&set, "goto", "tree", BasisKind::Tree);
    has(&set, "shared position", "tree", BasisKind::Tree);
}

#[test]
fn a_fill_in_rests_on_its_side_condition() {
    let c = file("tests/fixtures/fill-captured.hexp");
    assert_eq!(c.report.exit_code, 0);
    let set = bases(&c);
    has(&set, "fill", "tree", BasisKind::Rule);
}

#[test]
fn a_library_template_rests_on_its_kernel_certificate() {
    let c = check_source(
        "t.hexp",
        "board 7x7
use templates
derive {
  black d5 as x
  x - b on [a5, b5, c5, e5, f5, g5, a6, b6, c6, d6, e6, f6, g6, a7, b7, c7, d7, e7, f7, g7] by III1a
}
",
        &options(),
    );
    assert_eq!(c.report.exit_code, 0);
    let set = bases(&c);
    has(
        &set,
        "lemma claim",
        "kernel certificate (template library)",
        BasisKind::Kernel,
    );
    has(&set, "lemma", "rule and search", BasisKind::Rule);
}

#[test]
fn failed_and_undecided_lines_carry_no_basis() {
    let c = check_source(
        "t.hexp",
        "board 3x3
derive {
  (t, [a1], b) VC by search
}
",
        &options(),
    );
    assert_eq!(c.report.exit_code, 1);
    assert!(bases(&c).is_empty());
}
