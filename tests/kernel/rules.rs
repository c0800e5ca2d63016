//! One test per side condition of every deduction rule: a step that violates it is rejected,
//! with that condition named. Also: premises, search verdicts, budgets, unsupported
//! constructs, and elaboration errors (bad input).

use hexproof::check::report::{StepReport, StepVerdict};
use hexproof::check::{check_source, Checked, Options};
use hexproof::local::Budget;

fn run(src: &str) -> Checked {
    check_source("t.hexp", src, &Options::default())
}

/// The report of the step that starts on `line`.
fn step(c: &Checked, line: usize) -> &StepReport {
    c.report
        .files
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.steps.iter())
        .find(|s| s.at.line == line)
        .unwrap_or_else(|| panic!("no step on line {line}:\n{}", c.human()))
}

fn conditions(s: &StepReport) -> Vec<String> {
    s.reasons.iter().map(|r| r.condition.clone()).collect()
}

/// Asserts the step on `line` fails with `condition` among its reasons.
fn fails_with(src: &str, line: usize, condition: &str) -> Checked {
    let c = run(src);
    let s = step(&c, line);
    assert_eq!(s.verdict, StepVerdict::Failed, "{}", c.human());
    assert!(
        conditions(s).iter().any(|x| x == condition),
        "expected condition {condition:?}, got {:?}\n{}",
        conditions(s),
        c.human()
    );
    assert_eq!(c.report.exit_code, 1);
    c
}

/// Asserts loading fails (bad input, exit 2) with a diagnostic of this code.
fn bad_input(src: &str, code: &str) -> Checked {
    let c = run(src);
    assert_eq!(c.report.exit_code, 2, "{}", c.human());
    let codes: Vec<&str> = c.report.files[0]
        .errors
        .iter()
        .map(|e| e.code.as_str())
        .collect();
    assert!(
        codes.contains(&code),
        "expected {code}, got {codes:?}\n{}",
        c.human()
    );
    c
}

fn verified(src: &str) -> Checked {
    let c = run(src);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    c
}

// ---------------------------------------------------------------------------------------------
// AND.

#[test]
fn and_accepts_both_cases() {
    // u empty: a VSC through u; u black: a VC.
    let c = verified(
        "board 9x9\nderive {\n  (a3, [b3], c3) VSC by AND (a3, [], b3) (b3, [], c3)\n}\nderive {\n  black b3\n  (a3, [], c3) VC by AND (a3, [], b3) (b3, [], c3)\n}\n",
    );
    assert_eq!(step(&c, 3).basis_text(), "rule and search");
    assert_eq!(step(&c, 7).rule_check, "passed");
}

#[test]
fn and_rejects_overlapping_carriers() {
    let c = fails_with(
        "board 9x9\nderive {\n  p: (a3, [b3, a4], b4) VC\n  q: (b4, [b3], c4) VC\n  (a3, [a4, b3, b4], c4) VSC by AND p q\n}\n",
        5,
        "A ∩ B = ∅",
    );
    assert_eq!(conditions(step(&c, 5)), vec!["A ∩ B = ∅"]);
    assert!(step(&c, 5).reasons[0].message.contains("[b3]"));
}

#[test]
fn and_rejects_first_end_in_second_carrier() {
    fails_with(
        "board 9x9\nderive {\n  (b3, [a3], c3) VC\n  (a3, [b3], c3) VSC by AND (a3, [], b3) (b3, [a3], c3)\n}\n",
        4,
        "x ∉ B",
    );
}

#[test]
fn and_rejects_second_end_in_first_carrier() {
    fails_with(
        "board 9x9\nderive {\n  (a3, [c3], b3) VC\n  (a3, [b3], c3) VSC by AND (a3, [c3], b3) (b3, [], c3)\n}\n",
        4,
        "y ∉ A",
    );
}

#[test]
fn and_rejects_premises_without_a_common_end() {
    fails_with(
        "board 9x9\nderive {\n  (a3, [], d3) VC by AND (a3, [], b3) (c3, [], d3)\n}\n",
        3,
        "common end u",
    );
}

#[test]
fn and_rejects_premises_with_the_same_ends() {
    fails_with(
        "board 9x9\nderive {\n  (a3, [], b3) VC by AND (a3, [], b3) (b3, [], a3)\n}\n",
        3,
        "x ≠ y",
    );
}

#[test]
fn and_through_an_empty_cell_gives_only_a_vsc() {
    let c = fails_with(
        "board 9x9\nderive {\n  (a3, [b3], c3) VC by AND (a3, [], b3) (b3, [], c3)\n}\n",
        3,
        "u empty ⇒ VSC",
    );
    // The VC is false: White takes b1. The search says so, with White's line.
    let s = step(&c, 3);
    assert_eq!(s.search.as_ref().unwrap().verdict, "fails");
    assert!(s
        .reasons
        .iter()
        .any(|r| r.condition == "claim holds" && r.message.contains("white b3")));
}

#[test]
fn and_through_a_black_stone_gives_a_vc_not_a_vsc() {
    fails_with(
        "board 9x9\nderive {\n  black b3\n  (a3, [], c3) VSC by AND (a3, [], b3) (b3, [], c3)\n}\n",
        4,
        "u black ⇒ VC",
    );
}

#[test]
fn and_needs_vcs() {
    fails_with(
        "board 9x9\nderive {\n  (a3, [b3], c3) VSC by search\n  (a3,[b3],c3) is VSC, (c3,[],d3) is VC. Apply AND: (a3,[b3, c3],d3) is VSC.\n}\n",
        4,
        "premises are VCs",
    );
}

#[test]
fn and_rejects_wrong_conclusion_ends() {
    fails_with(
        "board 9x9\nderive {\n  (a3, [b3], d3) VSC by AND (a3, [], b3) (b3, [], c3)\n}\n",
        3,
        "conclusion ends",
    );
}

#[test]
fn and_rejects_a_wrong_conclusion_carrier() {
    let c = fails_with(
        "board 9x9\nderive {\n  (a3, [b3, d3], c3) VSC by AND (a3, [], b3) (b3, [], c3)\n}\n",
        3,
        "carrier",
    );
    assert!(step(&c, 3).reasons[0]
        .message
        .contains("it has [d3] in addition"));
}

#[test]
fn and_combines_exactly_two() {
    fails_with(
        "board 9x9\nderive {\n  (a3,[],b3) is VC, (b3,[],c3) is VC, (c3,[],d3) is VC. Apply AND: (a3,[b3],c3) is VSC.\n}\n",
        3,
        "two premises",
    );
}

#[test]
fn premises_must_be_established() {
    let c = fails_with(
        "board 9x9\nderive {\n  (a3, [b3, d3], e3) VSC by AND (a3, [b3], c3) (c3, [d3], e3)\n}\n",
        3,
        "premise established",
    );
    // The premise is false, and the report says so with White's refutation.
    assert!(step(&c, 3).reasons[0]
        .message
        .contains("by search it is false: white b3"));
}

#[test]
fn premises_by_monotonicity_and_by_label() {
    // A premise with a larger carrier than the fact that proves it is fine (monotonicity);
    // a VC serves where a VSC is asked.
    verified(
        "board 9x9\nderive {\n  p: (a3, [b3, a4], b4) VC\n  (a3, [a4, b3, c3, b4], c4) VSC by AND (a3, [b3, a4, c3], b4) (b4, [], c4)\n  (a3, [a4, b3, b4], c4) VSC by AND p (b4, [], c4)\n}\n",
    );
}

#[test]
fn a_failed_premise_is_reported_as_such() {
    let c = fails_with(
        "board 9x9\nderive {\n  p: (a3, [b3], c3) VC\n  (a3, [b3, c3], d3) VSC by AND p (c3, [], d3)\n}\n",
        4,
        "premise established",
    );
    assert!(step(&c, 4).reasons[0].message.contains("which failed"));
}

// ---------------------------------------------------------------------------------------------
// OR.

const SEMIS: &str = "board 9x9\nderive {\n  s1: (b4, [c4], c5) VSC\n  s2: (b4, [b5], c5) VSC\n  s3: (b4, [c4, b5], c5) VSC\n";

#[test]
fn or_accepts_disjoint_semis() {
    // The bridge b2 - c3 through c2 or b3.
    verified(&format!("{SEMIS}  (b4, [c4, b5], c5) VC by OR s1 s2\n}}\n"));
}

#[test]
fn or_rejects_a_non_empty_intersection() {
    let c = fails_with(
        &format!("{SEMIS}  (b4, [c4, b5], c5) VC by OR s1 s3\n}}\n"),
        6,
        "⋂ A_k = ∅",
    );
    assert!(step(&c, 6).reasons[0].message.contains("[c4]"));
}

#[test]
fn or_concludes_a_vc_not_a_vsc() {
    fails_with(
        &format!("{SEMIS}  (b4, [c4, b5], c5) VSC by OR s1 s2\n}}\n"),
        6,
        "OR gives a VC",
    );
}

#[test]
fn or_needs_common_ends() {
    fails_with(
        "board 9x9\nderive {\n  s1: (a3, [b3], c3) VSC\n  s2: (a3, [a4], b4) VSC\n  (a3, [a4, b3], c3) VC by OR s1 s2\n}\n",
        5,
        "common ends",
    );
}

#[test]
fn or_rejects_a_wrong_carrier() {
    fails_with(
        &format!("{SEMIS}  (b4, [c4, b5, a3], c5) VC by OR s1 s2\n}}\n"),
        6,
        "carrier",
    );
}

#[test]
fn or_needs_two_semis() {
    fails_with(
        "board 9x9\nderive {\n  (a3,[],b3) is VSC. Apply OR: (a3,[],b3) is VC.\n}\n",
        3,
        "n > 1",
    );
}

// ---------------------------------------------------------------------------------------------
// Noshita's rules (1) and (2).

const R2: &str = "board 9x9\nderive {\n  black b4 as u\n  s: a3 - u on [b3, a4] by search\n  z: u - c5 on [c4, b5] by search\n";

#[test]
fn rule2_accepts_a_chain_through_a_black_stone() {
    verified(&format!(
        "{R2}  a3 - c5 on [b3, a4, c4, b5] by rule2 s z\n}}\n"
    ));
    // With a union: S1[a1 u | a1 d1] and S2[u c3] give (S1 ∪ S2)[a1 c3 | a1 d1].
    verified("board 9x9\nderive {\n  black b4 as u\n  s: a3 - u | a3 - d3 on [b3, a4] by search\n  z: u - c5 on [c4, b5] by search\n  a3 - c5 | a3 - d3 on [b3, a4, c4, b5] by rule2 s z\n}\n");
}

#[test]
fn rule2_rejects_overlapping_carriers() {
    fails_with(
        "board 9x9\nderive {\n  black b4 as u\n  s: a3 - u on [b3, a4, c4] by search\n  z: u - c5 on [c4, b5] by search\n  a3 - c5 on [b3, a4, c4, b5] by rule2 s z\n}\n",
        6,
        "S1 ∩ S2 = ∅",
    );
}

#[test]
fn rule2_needs_a_black_joint() {
    let c = fails_with(
        "board 9x9\nderive {\n  s: a3 - b4 on [b3, a4] by search\n  z: b4 - c5 on [c4, b5] by search\n  a3 - c5 on [b3, a4, c4, b5] by rule2 s z\n}\n",
        5,
        "b is black",
    );
    // Indeed false: with b2 empty and outside the carrier, nothing joins a1 to c3.
    assert_eq!(step(&c, 5).search.as_ref().unwrap().verdict, "fails");
}

#[test]
fn rule2_rejects_an_end_inside_the_other_carrier() {
    fails_with(
        "board 9x9\nderive {\n  black b4 as u\n  s: a3 - u | a3 - d3 on [b3, a4] by search\n  z: u - c5 on [c4, b5, d3] by search\n  a3 - c5 | a3 - d3 on [b3, a4, c4, b5] by rule2 s z\n}\n",
        6,
        "ends outside the other carrier",
    );
}

#[test]
fn rule2_needs_a_vc_second() {
    fails_with(
        "board 9x9\nderive {\n  black b4 as u\n  s: a3 - u on [b3, a4] by search\n  z: u - c5 on [c4] first black by search\n  a3 - c5 on [b3, a4, c4] first black by rule2 s z\n}\n",
        6,
        "S2[bc] is a VC",
    );
}

#[test]
fn rule2_conclusion_must_follow() {
    fails_with(
        &format!("{R2}  a3 - d6 on [b3, a4, c4, b5] by rule2 s z\n}}\n"),
        6,
        "S[ac σ]",
    );
}

#[test]
fn rule2_rejects_a_wrong_carrier() {
    fails_with(
        &format!("{R2}  a3 - c5 on [b3, a4, c4] by rule2 s z\n}}\n"),
        6,
        "carrier",
    );
}

#[test]
fn rule2_keeps_the_kind() {
    fails_with(
        &format!("{R2}  a3 - c5 on [b3, a4, c4, b5] first black by rule2 s z\n}}\n"),
        6,
        "kind of S1[ab σ]",
    );
}

#[test]
fn rule1_merges_repeated_pairs_only() {
    let base = "board 9x9\nderive {\n  black b4 as u\n  w: u - a3 | a3 - u on [b3, a4] by search\n";
    verified(&format!("{base}  u - a3 on [b3, a4] by rule1 w\n}}\n"));
    fails_with(
        &format!("{base}  u - b3 on [a4] by rule1 w\n}}\n"),
        5,
        "same pairs",
    );
    fails_with(
        &format!("{base}  u - a3 on [b3, a4, e7] by rule1 w\n}}\n"),
        5,
        "carrier",
    );
    fails_with(
        &format!("{base}  u - a3 on [b3, a4] first black by rule1 w\n}}\n"),
        5,
        "same kind",
    );
}

// ---------------------------------------------------------------------------------------------
// Monotonicity.

#[test]
fn monotonicity() {
    let base = "board 9x9\nderive {\n  p: (a3, [b3, a4], b4) VC\n  q: (a3, [b3], c3) VSC\n";
    verified(&format!(
        "{base}  a3 - b4 | a3 - e7 on [b3, a4, e6] first black by mono p\n}}\n"
    ));
    fails_with(
        &format!("{base}  (a3, [b3], b4) VC by mono p\n}}\n"),
        5,
        "S ⊆ S'",
    );
    fails_with(
        &format!("{base}  a3 - e7 on [b3, a4] by mono p\n}}\n"),
        5,
        "pairs kept",
    );
    fails_with(
        &format!("{base}  (a3, [b3, d3], c3) VC by mono q\n}}\n"),
        5,
        "VSC ⇏ VC",
    );
}

// ---------------------------------------------------------------------------------------------
// Search, budgets, unsupported constructs.

#[test]
fn a_false_claim_is_refuted_with_whites_line() {
    let c = fails_with(
        "board 9x9\nderive {\n  (a3, [b3, c3], d3) VC\n}\n",
        3,
        "claim holds",
    );
    let s = step(&c, 3);
    let line = &s.search.as_ref().unwrap().refutation;
    assert!(
        !line.is_empty() && line[0].starts_with("white "),
        "{line:?}"
    );
}

#[test]
fn a_repeated_carrier_cell_is_a_misprint() {
    fails_with(
        "board 9x9\nderive {\n  (a3, [b3, b3], c3) VSC\n}\n",
        3,
        "carrier is a set",
    );
}

#[test]
fn over_budget_steps_rest_on_their_rule_or_are_undecided() {
    let opts = Options {
        budget: Budget::nodes(0),
        confirm: Budget::nodes(0),
        search_rule_steps: true,
    };
    let src = "board 9x9\nderive {\n  p: (a3, [b3, a4], b4) VC by search\n  (a3, [a4, b3, b4], c4) VSC by AND (a3, [b3, a4], b4) (b4, [], c4)\n}\n";
    let c = check_source("t.hexp", src, &opts);
    let s = step(&c, 3);
    assert_eq!(s.verdict, StepVerdict::Undecided, "{}", c.human());
    // The AND step's first premise is undecided, so it cannot rest on its rule either.
    assert_eq!(step(&c, 4).verdict, StepVerdict::Undecided, "{}", c.human());
    assert_eq!(c.report.exit_code, 3);
    // With base facts only the rule holds, and with no search budget at all the step is still
    // confirmed: by a kernel certificate composed of Black's first move (b3) and the premises'
    // (since session 23), not by a search.
    let src = "board 9x9\nderive {\n  (a3, [b3], c3) VSC by AND (a3, [], b3) (b3, [], c3)\n}\n";
    let c = check_source("t.hexp", src, &opts);
    let s = step(&c, 3);
    assert_eq!(s.verdict, StepVerdict::Verified, "{}", c.human());
    assert_eq!(s.basis_text(), "rule and search", "{}", c.human());
    let note = s
        .search
        .as_ref()
        .and_then(|r| r.note.clone())
        .unwrap_or_default();
    assert!(note.contains("kernel certificate composed"), "{note}");
    assert_eq!(c.report.exit_code, 0);
}

#[test]
fn a_lemma_twice_on_one_carrier_is_rejected() {
    // A step by several lemmas needs disjoint carriers; an AB guarantee is checked by search.
    let c = run("board 7x7 notation digits\nlemma S { black 44\n claim 44 - 55 on [45, 54] }\nderive {\n  black 44, 55\n  44 - 55 on [45, 54] by S, S\n}\nlemma G { black 44\n claim 44 - 55 on [45, 54]\n guarantee white 45 => black 54 }\n");
    let s = step(&c, 6);
    assert_eq!(s.verdict, StepVerdict::Failed, "{}", c.human());
    assert!(conditions(s).contains(&"carriers disjoint".to_string()));
    assert_eq!(step(&c, 10).verdict, StepVerdict::Verified);
    assert_eq!(c.report.exit_code, 1);
}

// ---------------------------------------------------------------------------------------------
// Several lemmas in one step (Noshita: "t - y and y - x and x - b by T-, S- and T-lemmas").

const CHAIN: &str = "board 5x5 notation digits
lemma E { black 32
 claim t - 32 on [31, 41] }
lemma S { black 32, 43
 claim 32 - 43 on [42, 33] }
lemma T { black 43
 claim 43 - b on [53, 34, 44, 54, 25, 35, 45, 55] }
derive {
  black 32 as x, 43 as y
  t - b on [31, 41, 42, 33, 53, 34, 44, 54, 25, 35, 45, 55] by E, S, T
}
";

#[test]
fn several_lemmas_chain_to_the_step() {
    let c = verified(CHAIN);
    let s = step(&c, 10);
    assert_eq!(s.basis_text(), "rule and search", "{}", c.human());
    assert!(s.notes[0].contains("every combination"), "{:?}", s.notes);
}

#[test]
fn several_lemmas_must_join_a_pair_of_the_step() {
    fails_with(&CHAIN.replace("by E, S, T", "by E, T"), 10, "pairs joined");
}

#[test]
fn several_lemmas_need_disjoint_carriers() {
    let src = CHAIN.replace("claim 32 - 43 on [42, 33]", "claim 32 - 43 on [42, 33, 53]");
    fails_with(&src, 10, "carriers disjoint");
}

#[test]
fn several_lemmas_inside_the_step_carrier() {
    let src = CHAIN.replace("[31, 41, 42, 33,", "[31, 41, 42,");
    fails_with(&src, 10, "carrier inside the step's");
}

#[test]
fn several_lemmas_ends_on_black_cells() {
    // Without the stone y = 43 the bridge and the trapezoid have no black end to land on.
    let src = CHAIN
        .replace("black 32 as x, 43 as y", "black 32 as x")
        .replace("[31, 41, 42, 33, 53,", "[31, 41, 42, 33, 43, 53,");
    fails_with(&src, 10, "ends match");
}

#[test]
fn several_lemmas_at_most_one_semi() {
    let src = CHAIN
        .replace(
            "claim t - 32 on [31, 41] }",
            "claim t - 32 on [31, 41] first black }",
        )
        .replace(
            "claim 32 - 43 on [42, 33] }",
            "claim 32 - 43 on [42, 33] first black }",
        )
        .replace("by E, S, T", "first black by E, S, T");
    fails_with(&src, 10, "one semi at most");
    let one = CHAIN.replace(
        "claim t - 32 on [31, 41] }",
        "claim t - 32 on [31, 41] first black }",
    );
    fails_with(&one, 10, "kind");
}

// ---------------------------------------------------------------------------------------------
// The AB-property across two areas (proofs/examples/ab-property.hexp and its mutations).

const AB: &str = include_str!("../../proofs/examples/ab-property.hexp");

/// The line of the composed step in the example.
fn ab_line(src: &str) -> usize {
    1 + src
        .lines()
        .position(|l| l.starts_with("  t - b on ["))
        .expect("the composed step")
}

#[test]
fn ab_composition_is_verified() {
    let c = verified(AB);
    let s = step(&c, ab_line(AB));
    assert_eq!(s.basis_text(), "rule and search", "{}", c.human());
}

#[test]
fn ab_lower_area_alone_is_false() {
    // Without the assumption, x - b on rows 4 and 5 is not a connection.
    let src = AB.replace("  assume white A => black E\n", "");
    let line = 1 + src.lines().position(|l| l.contains("claim x - b")).unwrap();
    fails_with(&src, line, "claim holds");
}

#[test]
fn ab_assumption_must_be_discharged() {
    // The assisted lemma alone …
    let src = AB.replace("by up, down", "by down");
    fails_with(&src, ab_line(AB), "assumption discharged");
    // … or with a lemma that gives no guarantee …
    let src = AB.replace("  guarantee white A => black E\n", "");
    fails_with(&src, ab_line(&src), "assumption discharged");
    // … or a guarantee on other cells.
    let src = AB.replace(
        "guarantee white A => black E",
        "guarantee white E => black A",
    );
    let c = run(&src);
    let s = step(&c, ab_line(AB));
    assert_eq!(s.verdict, StepVerdict::Failed, "{}", c.human());
}

#[test]
fn ab_carriers_must_be_disjoint() {
    let src = AB.replace("d2, E, A]", "d2, E, A, a4]");
    fails_with(&src, ab_line(AB), "carriers disjoint");
}

#[test]
fn assume_is_bad_input_on_its_own_carrier_or_with_a_proof() {
    let src = AB.replace("assume white A => black E", "assume white A => black c4");
    bad_input(&src, "hexp::assume");
    let src = AB.replace("assume white A => black E", "assume black A => white E");
    bad_input(&src, "hexp::assume");
    let src = AB.replace(
        "  assume white A => black E\n",
        "  assume white A => black E\n  proof { x - b on [a4, b4] by search }\n",
    );
    bad_input(&src, "hexp::assume");
}

#[test]
fn lemma_proofs_must_reach_the_claim() {
    let src = "board 9x9\nlemma L {\n  claim a3 - b4 on [b3, a4]\n  proof {\n    (a3, [b3], c3) VSC by AND (a3, [], b3) (b3, [], c3)\n  }\n}\n";
    let c = run(src);
    let s = step(&c, 3);
    assert_eq!(s.verdict, StepVerdict::Failed, "{}", c.human());
    assert_eq!(conditions(s), vec!["claim derived"]);
}

// ---------------------------------------------------------------------------------------------
// Elaboration: bad input.

#[test]
fn a_white_stone_in_a_carrier_is_bad_input() {
    let c = bad_input(
        "board 9x9\nderive {\n  white b3\n  (a3, [b3], c3) VSC\n}\n",
        "hexp::occupied",
    );
    let e = &c.report.files[0].errors[0];
    assert_eq!((e.at.line, e.at.column), (4, 9));
    assert!(e.rendered.contains("t.hexp:4:9"), "{}", e.rendered);
}

#[test]
fn an_endpoint_in_its_carrier_is_bad_input() {
    bad_input(
        "board 9x9\nderive {\n  (a3, [a3, b3], c3) VSC\n}\n",
        "hexp::endpoint-in-carrier",
    );
}

#[test]
fn an_opponent_endpoint_is_bad_input() {
    bad_input(
        "board 9x9\nderive {\n  (l, [a3], b) VC\n}\n",
        "hexp::opponent-endpoint",
    );
    bad_input(
        "board 9x9\nwhite c5\nderive {\n  (c5, [], b) VC\n}\n",
        "hexp::opponent-endpoint",
    );
}

#[test]
fn names_must_resolve() {
    bad_input(
        "board 9x9\nderive {\n  (zz, [], b) VC\n}\n",
        "hexp::unknown-name",
    );
    bad_input(
        "board 9x9\nderive {\n  (k1, [], b) VC\n}\n",
        "hexp::off-board",
    );
    bad_input(
        "board 9x9\nderive {\n  (16, [], b) VC\n}\n",
        "hexp::unknown-name",
    );
    bad_input(
        "board 9x9 notation digits\ncells { 44 = 11 }\n",
        "hexp::shadowing",
    );
    bad_input("board 9x9\ncell b = a3\n", "hexp::shadowing");
    bad_input(
        "board 9x9\ncell x = a3\ncell x = a4\n",
        "hexp::duplicate-name",
    );
    bad_input(
        "board 9x9\nderive {\n  a3 - b on S\n}\n",
        "hexp::unknown-name",
    );
    bad_input("board 12x12 notation digits\n", "hexp::notation");
    bad_input("board 20x20\n", "hexp::board");
}

#[test]
fn labels_must_be_earlier_and_unique() {
    bad_input(
        "board 9x9\nderive {\n  (a3, [b3], c3) VSC by AND p q\n  p: (a3, [], b3) VC\n}\n",
        "hexp::forward-label",
    );
    bad_input(
        "board 9x9\nderive {\n  (a3, [b3], c3) VSC by AND p q\n}\n",
        "hexp::unknown-label",
    );
    bad_input(
        "board 9x9\nderive {\n  p: (a3, [], b3) VC\n  p: (b3, [], c3) VC\n}\n",
        "hexp::duplicate-label",
    );
    bad_input(
        "board 9x9\nderive {\n  a3 - b on [a4, a5, a6, a7] by NoSuchLemma\n}\n",
        "hexp::unknown-lemma",
    );
}

#[test]
fn stones_and_diagrams() {
    bad_input("board 9x9\nblack a3\nwhite a3\n", "hexp::occupied");
    bad_input(
        "board 3x2\nlemma a {\n  diagram {\n    x * .\n  }\n  claim x - b\n}\n",
        "hexp::diagram-shape",
    );
    bad_input(
        "board 3x2\nlemma a {\n  diagram {\n    x * .\n     * . \n  }\n  claim x - b\n}\n",
        "hexp::diagram-shape",
    );
    bad_input(
        "board 3x2\nlemma a {\n  diagram {\n    x * ?\n     * . .\n  }\n  claim x - b\n}\n",
        "hexp::diagram-symbol",
    );
    bad_input(
        "board 3x2\nlemma a {\n  diagram {\n    x A .\n     * A .\n  }\n  claim x - b\n}\n",
        "hexp::diagram-mark",
    );
    bad_input("board 3x2\nlemma a {\n  diagram {\n    x * .\n     * . .\n  }\n  carrier [c3]\n  claim x - b\n}\n", "hexp::carrier-twice");
    bad_input("board 3x2\nlemma a {\n  black a3\n}\n", "hexp::no-claim");
    bad_input(
        "board 3x2\nlemma a {\n  claim a3 - b\n}\n",
        "hexp::no-carrier",
    );
}

#[test]
fn a_diagram_lemma() {
    let c = verified("board 3x3\nlemma bridge {\n  diagram {\n    x * .\n     * A .\n      . . .\n  }\n  claim x - A\n}\n");
    assert_eq!(step(&c, 8).claim, "(x, [b1, a2], A) VC");
}

#[test]
fn several_errors_are_reported_together() {
    let c = run("board 9x9\nderive {\n  (zz, [], b) VC\n  (a3, [k9], b) VC\n}\n");
    assert_eq!(c.report.files[0].errors.len(), 2);
}

#[test]
fn use_of_other_files() {
    let dir = std::env::temp_dir().join(format!("hexproof-use-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("lib.hexp"),
        "board 5x5\nlemma B { black a1\n claim a1 - b2 on [b1, a2] }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("main.hexp"),
        "board 5x5\nuse \"lib.hexp\"\nderive {\n  black a1\n  a1 - b2 on [b1, a2] by B\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("cyc1.hexp"), "board 5x5\nuse \"cyc2.hexp\"\n").unwrap();
    std::fs::write(dir.join("cyc2.hexp"), "board 5x5\nuse \"cyc1.hexp\"\n").unwrap();
    std::fs::write(dir.join("missing.hexp"), "board 5x5\nuse \"nope.hexp\"\n").unwrap();
    let opts = Options::default();
    let c = hexproof::check::check_files(&[dir.join("main.hexp")], &opts);
    // The used file is checked first; its lemma is then placed in the using file.
    assert_eq!(c.report.files.len(), 2, "{}", c.human());
    assert!(c.report.files[0].file.ends_with("lib.hexp"));
    assert_eq!(c.report.files[0].counts.verified, 1);
    assert_eq!(c.report.files[1].counts.verified, 1, "{}", c.human());
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    let c = hexproof::check::check_files(&[dir.join("cyc1.hexp")], &opts);
    assert_eq!(c.report.exit_code, 2);
    assert!(
        c.report.files[0]
            .errors
            .iter()
            .any(|e| e.code == "hexp::use-cycle"),
        "{}",
        c.human()
    );
    let c = hexproof::check::check_files(&[dir.join("missing.hexp")], &opts);
    assert!(
        c.report.files[0]
            .errors
            .iter()
            .any(|e| e.code == "hexp::use-unreadable"),
        "{}",
        c.human()
    );
    let c = hexproof::check::check_files(&[dir.join("absent.hexp")], &opts);
    assert_eq!(c.report.exit_code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn white_claims_and_named_sets() {
    // A White bridge between empty cells, and White's edge-to-edge claim on a tiny board.
    let c = verified(
        "board 9x9\nset S = [c3, b4]\nderive {\n  (b3, S, c4) VC for white\n  (b3, [c3], c4) VSC for white by search\n}\n"
            .replace("(b3, S, c4) VC for white", "b3 - c4 on S for white")
            .as_str(),
    );
    assert_eq!(step(&c, 4).claim, "(b3, [c3, b4], c4) VC for white");
    verified("board 2x2\nderive {\n  l - r on [a1, b1, a2, b2] for white first white\n}\n");
    // White's claim cannot use Black's border as an end.
    bad_input(
        "board 9x9\nderive {\n  (b3, [], b) VC for white\n}\n",
        "hexp::opponent-endpoint",
    );
}

// ---------------------------------------------------------------------------------------------
// `use templates`: the certified template library as lemmas.

const TEMPLATES: &str = "board 7x7
use templates
derive {
  black d5 as x
  x - b on [a5, b5, c5, e5, f5, g5, a6, b6, c6, d6, e6, f6, g6, a7, b7, c7, d7, e7, f7, g7] by III1a
}
";

#[test]
fn library_templates_are_lemmas_certified_by_their_kernel_certificates() {
    let c = verified(TEMPLATES);
    let s = step(&c, 5);
    assert!(
        s.notes[0].contains("III1a placed under rot180"),
        "{:?}",
        s.notes
    );
    // The records that fit a 7x7 board (4 one-stone ones: IV1b is 8 cells wide; 174 two-stone
    // ones of rows 3 and 4, 23 of row 2) are certified, without search.
    let lemmas: Vec<&StepReport> = c.report.files[0]
        .blocks
        .iter()
        .filter(|b| {
            b.title
                .as_deref()
                .is_some_and(|t| t.ends_with("(template library)"))
        })
        .flat_map(|b| b.steps.iter())
        .collect();
    assert_eq!(lemmas.len(), 201);
    for l in lemmas {
        assert_eq!(l.verdict, StepVerdict::Verified);
        assert_eq!(l.basis_text(), "kernel certificate (template library)");
        assert!(l.search.is_none());
    }
}

#[test]
fn library_templates_are_placed_like_lemmas() {
    // Without a carrier cell of the template the placement fails, for that reason.
    fails_with(
        &TEMPLATES.replace("c6, d6, e6,", "c6, e6,"),
        5,
        "carrier inside the step's",
    );
    // IV1a is a fourth-row template: from the third row it falls off the board.
    fails_with(
        &TEMPLATES.replace("by III1a", "by IV1a"),
        5,
        "carrier on the board",
    );
    // Without `use templates` the names are unknown.
    bad_input(
        &TEMPLATES.replace("use templates\n", ""),
        "hexp::unknown-lemma",
    );
    // A file lemma may not take a template's name.
    let src = TEMPLATES.replace(
        "use templates\n",
        "use templates\nlemma II { black a2\n claim a2 - t on [a1, b1] }\n",
    );
    bad_input(&src, "hexp::duplicate-lemma");
}

#[test]
fn the_embedded_library_parses() {
    // Rows 2–4 (5), IV1c and IV1d (5×14 seeds), row 5 (V1a), two-stone rows 2 (29, the
    // second-row ladders), 3 (85) and 4 (130), and IV2n's minimal sub-template (4×12 seed).
    assert_eq!(hexproof::templates::builtin::records().len(), 253);
}

// ---------------------------------------------------------------------------------------------
// Conjunctions (`&`), rule (2) with a union or a conjunction as second premise, lemma ends on
// a chain (issue 5; docs/SEMANTICS.md, "Conjunctions").

/// Two bridges from two stones: each pair on its own cells.
const CONJ: &str = "board 9x9\nderive {\n  black b3 as x, f3 as y\n";

#[test]
fn conjunction_holds_on_disjoint_bridges_and_projects_by_mono() {
    let c = verified(&format!(
        "{CONJ}  c: x - a5 & y - e5 on [a4, b4, e4, f4] by search\n  x - a5 on [a4, b4, e4, f4] by mono c\n  x - a5 | x - d9 on [a4, b4, e4, f4] by mono c\n}}\n"
    ));
    assert_eq!(step(&c, 4).basis_text(), "search");
    assert!(step(&c, 4).claim.contains(" & "), "{}", c.human());
}

#[test]
fn conjunction_is_stronger_than_the_union() {
    // x joins a5 or c4 (union: White b4, Black a4), but not both: White b4 cuts c4.
    let src = "board 9x9\nderive {\n  black b3 as x\n  x - a5 | x - c4 on [a4, b4] by search\n  x - a5 & x - c4 on [a4, b4] by search\n}\n";
    let c = run(src);
    assert_eq!(step(&c, 4).verdict, StepVerdict::Verified, "{}", c.human());
    let s = step(&c, 5);
    assert_eq!(s.verdict, StepVerdict::Failed, "{}", c.human());
    let refutation = &s.search.as_ref().unwrap().refutation;
    assert_eq!(refutation.first().map(String::as_str), Some("white b4"));
}

#[test]
fn conjunction_mono_rejects_added_pairs_and_unions() {
    fails_with(
        &format!("{CONJ}  c: x - a5 & y - e5 on [a4, b4, e4, f4] by search\n  x - a5 & y - e5 & x - t on [a4, b4, e4, f4] by mono c\n}}\n"),
        5,
        "pairs kept",
    );
    fails_with(
        &format!("{CONJ}  c: x - a5 | y - e5 on [a4, b4, e4, f4] by search\n  x - a5 & y - e5 on [a4, b4, e4, f4] by mono c\n}}\n"),
        5,
        "conjunction from a conjunction",
    );
}

#[test]
fn conjunction_is_concluded_only_by_search_lemma_or_mono() {
    fails_with(
        &format!("{CONJ}  p: (x, [a4, b4], a5) VC\n  q: (a5, [], a6) VC\n  x - a6 & x - a5 on [a4, b4] by rule2 p q\n}}\n"),
        6,
        "conjunction concluded",
    );
}

#[test]
fn mixed_union_and_conjunction_is_bad_input() {
    bad_input(
        "board 9x9\nderive {\n  black b3 as x\n  x - a5 | x - b5 & x - t on [a4, b4] by search\n}\n",
        "hexp::mixed-claim",
    );
}

#[test]
fn rule2_with_a_union_second_premise() {
    // S1[a3 u], S2[u c5 | u a5] give [a3 c5 | a3 a5] (Noshita's leaf e, Fig. 13).
    let pre = "board 9x9\nderive {\n  black b4 as u\n  s: a3 - u on [b3, a4] by search\n  z: u - c5 | u - a6 on [c4, b5, a5] by search\n";
    verified(&format!(
        "{pre}  a3 - c5 | a3 - a6 on [b3, a4, c4, b5, a5] by rule2 s z\n}}\n"
    ));
    // The union's pairs must share the joint: u - c5 | d4 - c5 has none with a3 - u.
    fails_with(
        &format!("{pre}  z2: u - c5 | d5 - c5 on [c4, b5] by search\n  a3 - c5 | a3 - d5 on [b3, a4, c4, b5] by rule2 s z2\n}}\n"),
        7,
        "S[ac σ]",
    );
}

#[test]
fn rule2_with_a_conjunction_second_premise() {
    // S1[a3 u | i3 v], S2[u c5 & v g5] give [a3 c5 | i3 g5] (the one-node proof, Fig. 30).
    let pre = "board 9x9\nderive {\n  black b4 as u, f4 as v\n  s: a3 - u | i3 - v on [b3, a4] by search\n  z: u - c5 & v - g5 on [c4, b5, g4, f5] by search\n";
    verified(&format!(
        "{pre}  a3 - c5 | i3 - g5 on [b3, a4, c4, b5, g4, f5] by rule2 s z\n}}\n"
    ));
    fails_with(
        &format!("{pre}  a3 - c5 | a3 - d7 on [b3, a4, c4, b5, g4, f5] by rule2 s z\n}}\n"),
        6,
        "S[ac σ]",
    );
    fails_with(
        &format!("{pre}  a3 - c5 | i3 - g5 on [b3, a4, c4, b5, g4, f5, h8] by rule2 s z\n}}\n"),
        6,
        "carrier",
    );
}

#[test]
fn lemma_ends_match_by_chain() {
    // The edge lemma's stone lands on c6, which is in the chain of y = c5.
    let lemma = "board 7x7\nlemma e {\n  black b6\n  carrier [a7, b7]\n  claim b6 - b\n}\n";
    verified(&format!(
        "{lemma}derive {{\n  black c5 as y, c6\n  y - b on [b7, c7] by e\n}}\n"
    ));
    // Not on the chain: e6 is black but not joined to y.
    let c = run(&format!(
        "{lemma}derive {{\n  black c5 as y, e6\n  y - b on [d7, e7] by e\n}}\n"
    ));
    assert_eq!(step(&c, 9).verdict, StepVerdict::Failed, "{}", c.human());
}

#[test]
fn conjunction_search_agrees_with_brute_force() {
    use hexproof::board::{Board, CellSet, Colour, Notation};
    use hexproof::check::conj::decide_conj;
    use hexproof::claim::Claim;
    use hexproof::local::Verdict;
    use hexproof::position::Position;
    // Plain minimax over the carrier: the owner (Black) must join every pair.
    fn brute(
        pos: &Position,
        empty: &[hexproof::board::Cell],
        pairs: &[(hexproof::board::Cell, hexproof::board::Cell)],
        black_to_move: bool,
    ) -> bool {
        let own = pos.owned(Colour::Black)
            | pairs
                .iter()
                .flat_map(|&(a, b)| [a, b])
                .filter(|c| !c.is_border() && pos.colour_at(*c).is_none())
                .collect::<CellSet>();
        let free: Vec<_> = empty
            .iter()
            .copied()
            .filter(|c| pos.colour_at(*c).is_none())
            .collect();
        if free.is_empty() {
            return pairs
                .iter()
                .all(|&(a, b)| pos.component(a, &own).contains(b));
        }
        free.iter().any(|&c| {
            let mut p = pos.clone();
            p.play(
                if black_to_move {
                    Colour::Black
                } else {
                    Colour::White
                },
                c,
            )
            .unwrap();
            brute(&p, empty, pairs, !black_to_move) == black_to_move
        }) == black_to_move
    }
    let board = Board::square(5).unwrap();
    let n = Notation::Letters;
    let mut seed: u64 = 0x5eed;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let cells: Vec<_> = board.cells().iter().collect();
    let mut checked = 0;
    for _ in 0..60 {
        let mut black = CellSet::EMPTY;
        let mut white = CellSet::EMPTY;
        let mut carrier = CellSet::EMPTY;
        for &c in &cells {
            match next(10) {
                0 | 1 => {
                    black.insert(c);
                }
                2 => {
                    white.insert(c);
                }
                3..=6 => {
                    carrier.insert(c);
                }
                _ => {}
            }
        }
        if carrier.len() > 8 || black.len() < 2 {
            continue;
        }
        let bs: Vec<_> = black.iter().collect();
        let pairs = vec![
            (bs[0], board.parse_cell("b", n).unwrap()),
            (bs[1], board.parse_cell("t", n).unwrap()),
        ];
        let pos = Position::new(board, black, white).unwrap();
        for owner_first in [false, true] {
            let claim = Claim {
                owner: Colour::Black,
                pairs: pairs.clone(),
                owner_first,
            };
            let o = decide_conj(&pos, carrier, &claim, &Budget::nodes(1_000_000)).unwrap();
            let empty: Vec<_> = carrier.iter().collect();
            let expect = brute(&pos, &empty, &pairs, owner_first);
            assert_eq!(
                o.verdict == Verdict::Holds,
                expect,
                "{pos:?} {carrier:?} {pairs:?} first {owner_first}"
            );
            assert_ne!(o.verdict, Verdict::Undecided);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} cases");
}

// ---------------------------------------------------------------------------------------------
// Lemma trees (docs/SEMANTICS.md, "Lemma trees"): a lemma proved by a proof tree inside its
// carrier, White moving first.

/// The edge bridge b3 - b on [a4, b4], proved by its two cases.
const TREE_LEMMA: &str = "board 4x4
lemma E {
  black b3 as x
  carrier [a4, b4]
  claim x - b
  proof {
    white {
      case a4 => black b4 { x - b on [] by search }
      case b4 => black a4 { x - b on [] by search }
    }
  }
}
derive {
  black c3
  (c3, [b4, c4], b) VC by E
}
";

/// Asserts some report of the file fails with `condition`, and the file exits 1.
fn tree_fails_with(src: &str, condition: &str) {
    let c = run(src);
    let hit = c
        .report
        .files
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.steps.iter())
        .any(|s| s.verdict == StepVerdict::Failed && conditions(s).iter().any(|x| x == condition));
    assert!(hit, "expected a failure {condition:?}\n{}", c.human());
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
}

#[test]
fn lemma_tree_proves_its_claim_and_the_lemma_is_usable() {
    let c = verified(TREE_LEMMA);
    let h = c.human();
    assert!(h.contains("proved: the lemma's claim by its tree"), "{h}");
}

#[test]
fn lemma_tree_needs_a_case_for_every_carrier_move() {
    let src = TREE_LEMMA.replace("      case b4 => black a4 { x - b on [] by search }\n", "");
    tree_fails_with(&src, "every White move has a case");
}

#[test]
fn lemma_tree_black_moves_stay_in_the_carrier() {
    let src = TREE_LEMMA.replace(
        "case a4 => black b4 { x - b on [] by search }",
        "case a4 => black c3 { x - b on [b4] by search }",
    );
    tree_fails_with(&src, "moves in the carrier");
}

#[test]
fn lemma_tree_leaves_stay_in_the_carrier() {
    // x - b holds (b4 joins x to b), but on a carrier with c4, outside the lemma's.
    let src = TREE_LEMMA.replace(
        "case a4 => black b4 { x - b on [] by search }",
        "case a4 => black b4 { x - b on [c4] by search }",
    );
    tree_fails_with(&src, "t - b derived");
}

#[test]
fn lemma_tree_precluding_moves_stay_in_the_carrier() {
    // A fictitious c3 outside the carrier would "preclude" b4.
    let src = TREE_LEMMA.replace(
        "      case b4 => black a4 { x - b on [] by search }\n",
        "      preclude by c3 { x - b on [a4, b4] by search }\n",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
}

#[test]
fn lemma_tree_of_a_false_claim_fails() {
    // x - b on [a4, c4] is false (c4 is not below b3): White takes a4.
    let src = "board 4x4
lemma E {
  black b3 as x
  carrier [a4, c4]
  claim x - b
  proof {
    white {
      case a4 => black c4 { x - b on [] by search }
      case c4 => black a4 { x - b on [] by search }
    }
  }
}
";
    let c = run(src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
}

#[test]
fn lemma_tree_proves_only_vcs() {
    let src = TREE_LEMMA.replace("claim x - b\n", "claim x - b first black\n");
    bad_input(&src, "hexp::lemma-tree");
}

// ---------------------------------------------------------------------------------------------
// Shared positions (docs/SEMANTICS.md, "Shared positions"): `position P black [..] white [..]
// { .. }` proved once, `black M goto P` from every branch that reaches exactly P.

/// 3×3, Black b2: White's b1 and a3 in either order reach P (Black b2 c1 b3, White b1 a3).
const SHARED: &str = "board 3x3
strategy {
  black b2
  white {
    case b1 | * => black c1 {
      white {
        case a3 | * => black b3 goto P
        case b3 => black a3 { t - b on [] by search }
      }
    }
    case c1 => black b1 { t - b on [a3, b3] by search }
    case a3 | * => black b3 {
      white {
        case b1 | * => black c1 goto P
        case c1 => black b1 { t - b on [] by search }
      }
    }
    case b3 => black a3 { t - b on [b1, c1] by search }
  }
  position P black [b2, c1, b3] white [b1, a3] {
    t - b on [] by search
  }
}
";

/// The reports of rule `rule` (e.g. `goto`, `shared position`), in order.
fn reports_of<'c>(c: &'c Checked, rule: &str) -> Vec<&'c StepReport> {
    c.report
        .files
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.steps.iter())
        .filter(|s| s.rule == rule)
        .collect()
}

#[test]
fn shared_position_is_checked_once_for_both_orders() {
    let c = verified(SHARED);
    let sm = c.report.files[0].blocks[0].summary.clone().unwrap();
    assert!(
        sm.contains("1 shared position(s), 2 goto(s)") && sm.contains("5 leaves"),
        "{sm}"
    );
    let gotos = reports_of(&c, "goto");
    assert_eq!(gotos.len(), 2);
    assert!(gotos.iter().all(|g| g.verdict == StepVerdict::Verified));
    let sp = reports_of(&c, "shared position");
    assert_eq!(sp.len(), 1);
    assert!(sp[0].claim.contains("2 reference(s)"), "{}", sp[0].claim);
}

#[test]
fn goto_to_a_different_position_fails() {
    // After white c1 Black answers b1, not c1: the position is not P.
    let src = SHARED.replace(
        "case c1 => black b1 { t - b on [] by search }",
        "case c1 => black b1 goto P",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    let bad: Vec<_> = reports_of(&c, "goto")
        .into_iter()
        .filter(|g| g.verdict == StepVerdict::Failed)
        .collect();
    assert_eq!(bad.len(), 1, "{}", c.human());
    assert_eq!(
        conditions(bad[0]),
        vec!["reaches the shared position".to_string()]
    );
    assert!(
        bad[0].reasons[0]
            .message
            .contains("black [b1] here but not in P"),
        "{}",
        c.human()
    );
    // The two good references still hold: P itself is fine.
    assert_eq!(
        reports_of(&c, "shared position")[0].verdict,
        StepVerdict::Verified
    );
}

#[test]
fn goto_with_a_wrong_stone_list_fails_every_reference() {
    // P declared without White's a3: no branch reaches it.
    let src = SHARED.replace("white [b1, a3] {", "white [b1] {");
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    let gotos = reports_of(&c, "goto");
    assert_eq!(gotos.len(), 2);
    for g in gotos {
        assert_eq!(g.verdict, StepVerdict::Failed);
        assert!(conditions(g).contains(&"reaches the shared position".to_string()));
    }
}

#[test]
fn a_broken_shared_position_fails_every_proof_that_uses_it() {
    // P's proof leaves White's moves unanswered (a White node without cases).
    let src = SHARED.replace(
        "position P black [b2, c1, b3] white [b1, a3] {\n    t - b on [] by search",
        "position P black [b2, c1, b3] white [b1, a3] {\n    white { case a1 => black a2 { t - b on [] by search } }",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    let gotos = reports_of(&c, "goto");
    assert_eq!(gotos.len(), 2);
    for g in &gotos {
        assert_eq!(g.verdict, StepVerdict::Failed);
        assert_eq!(conditions(g), vec!["shared position won".to_string()]);
    }
    let sp = reports_of(&c, "shared position");
    assert_eq!(sp[0].verdict, StepVerdict::Failed);
    // The reason inside P: a White move without a case.
    let white = reports_of(&c, "white node");
    assert!(
        white.iter().any(|w| w.verdict == StepVerdict::Failed
            && conditions(w).contains(&"every White move has a case".to_string())),
        "{}",
        c.human()
    );
    let sm = c.report.files[0].blocks[0].summary.clone().unwrap();
    assert!(sm.starts_with("not proved"), "{sm}");
}

#[test]
fn an_unused_broken_shared_position_still_fails() {
    let src = SHARED.replace(
        "  position P",
        "  position R black [a1] white [a2] {\n    white { }\n  }\n  position P",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    let sp = reports_of(&c, "shared position");
    assert_eq!(sp[0].verdict, StepVerdict::Failed);
    assert!(sp[0].notes.iter().any(|n| n.contains("no `goto`")));
}

#[test]
fn a_cycle_of_gotos_is_bad_input() {
    let src = SHARED.replace(
        "  position P black [b2, c1, b3] white [b1, a3] {\n    t - b on [] by search\n  }",
        "  position P black [b2, c1, b3] white [b1, a3] {
    white { case a1 => black c3 goto Q }
  }
  position Q black [b2, c1, b3, c3] white [b1, a3, a1] {
    white { case a2 => black c2 goto P }
  }",
    );
    let c = bad_input(&src, "hexp::goto-cycle");
    assert!(c.human().contains("P → Q → P"), "{}", c.human());
}

#[test]
fn shared_position_names_are_checked() {
    bad_input(
        &SHARED.replace("black b3 goto P", "black b3 goto X"),
        "hexp::unknown-name",
    );
    let twice = SHARED.replace(
        "  position P",
        "  position P black [a1] {\n    t - b on [] by search\n  }\n  position P",
    );
    bad_input(&twice, "hexp::duplicate-position");
    // A shared position's stone on an occupied cell.
    bad_input(
        &SHARED.replace(
            "black [b2, c1, b3] white [b1, a3]",
            "black [b2, c1, b3] white [b1, b2]",
        ),
        "hexp::occupied",
    );
    // A lemma's tree has no shared positions.
    let lemma = "board 4x4
lemma E {
  black b3 as x
  carrier [a4, b4]
  claim x - b
  proof {
    white {
      case a4 => black b4 goto P
      case b4 => black a4 { x - b on [] by search }
    }
  }
}
";
    bad_input(lemma, "hexp::goto");
}

/// `goto P under rot180`: after white c1, black b1, white b3, black a3 the position is P
/// (Black b2 c1 b3, White b1 a3) turned by 180° on 3×3 (b2 fixed, c1 ↔ a3, b1 ↔ b3).
fn shared_rotated() -> String {
    SHARED.replace(
        "case c1 => black b1 { t - b on [a3, b3] by search }",
        "case c1 => black b1 {
      white {
        case b3 | * => black a3 goto P under rot180
        case a3 => black b3 { t - b on [] by search }
      }
    }",
    )
}

#[test]
fn goto_under_rot180_reaches_the_turned_position() {
    let c = verified(&shared_rotated());
    let gotos = reports_of(&c, "goto");
    assert_eq!(gotos.len(), 3);
    assert!(
        gotos.iter().any(|g| g.claim.contains("P turned by 180°")),
        "{}",
        c.human()
    );
    // Without the rotation the same branch reaches another position.
    let plain = shared_rotated().replace("goto P under rot180", "goto P");
    let c = run(&plain);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert!(c.human().contains("reaches a different position"));
    // A rotation where none is needed is wrong too.
    let turned = SHARED.replace("black b3 goto P\n", "black b3 goto P under rot180\n");
    let c = run(&turned);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    assert!(c.human().contains("P turned by 180°"), "{}", c.human());
    // Only rot180.
    bad_input(
        &shared_rotated().replace("under rot180", "under mirror"),
        "hexp::goto",
    );
}

// ---------------------------------------------------------------------------------------------
// Fill-in in a leaf (docs/SEMANTICS.md, "Fill-in in a leaf"): `fill dead [..]` and `fill
// captured black [a, b]` before a leaf's steps, each tested in the leaf's restricted position.

/// 3×3, Black b2: the pair {b1, c1} joins b2 to the top and is captured by Black; with it
/// filled, b2 reaches the bottom through the bridge a3/b3.
const FILL: &str = "board 3x3
strategy {
  black b2 {
    fill captured black [b1, c1]
    t - b on [a3, b3] by search
  }
}
";

#[test]
fn captured_pair_fill_is_verified() {
    let c = verified(FILL);
    let fills = reports_of(&c, "fill");
    assert_eq!(fills.len(), 1, "{}", c.human());
    assert_eq!(fills[0].verdict, StepVerdict::Verified);
    // The leaf's carrier (its proof set) includes the filled cells.
    let leaf = &reports_of(&c, "leaf")[0];
    assert!(
        leaf.claim.contains("b1") && leaf.claim.contains("c1"),
        "{}",
        leaf.claim
    );
}

#[test]
fn fill_of_a_cell_that_is_not_dead_fails() {
    // b1 alone does not join b2 to the top: White's c1 would cut it (restricted to the leaf's
    // carrier, c1 is White), so b1 is not dead for Black.
    let src = FILL.replace(
        "fill captured black [b1, c1]\n    t - b on [a3, b3] by search",
        "fill dead [b1]\n    t - b on [a3, b3] by search",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    let f = &reports_of(&c, "fill")[0];
    assert_eq!(f.verdict, StepVerdict::Failed, "{}", c.human());
    assert_eq!(conditions(f), vec!["dead set".to_string()]);
}

#[test]
fn fill_of_a_pair_that_is_not_captured_fails() {
    // {a3, c1} joins b2 to both borders in the filled position (the leaf holds there), but
    // with Black on c1, a3 is not dead: White's a3 cuts b2 from the bottom.
    let src = FILL.replace(
        "fill captured black [b1, c1]\n    t - b on [a3, b3] by search",
        "fill captured black [a3, c1]\n    t - b on [] by search",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    let f = &reports_of(&c, "fill")[0];
    assert_eq!(f.verdict, StepVerdict::Failed, "{}", c.human());
    assert_eq!(conditions(f), vec!["captured pair".to_string()]);
}

#[test]
fn fill_in_a_lemma_tree_fails() {
    // A lemma's tree proves its own claim, not t - b: fill-in is not checked there.
    let src = TREE_LEMMA.replace(
        "case a4 => black b4 { x - b on [] by search }",
        "case a4 => black b4 {\n        fill dead [c4]\n        x - b on [] by search\n      }",
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 1, "{}", c.human());
    let f = &reports_of(&c, "fill")[0];
    assert_eq!(f.verdict, StepVerdict::Failed, "{}", c.human());
}

#[test]
fn fill_on_an_occupied_cell_is_bad_input() {
    bad_input(&FILL.replace("[b1, c1]", "[b1, b2]"), "hexp::occupied-move");
}

#[test]
fn captured_fill_names_two_cells() {
    bad_input(&FILL.replace("[b1, c1]", "[b1, c1, a1]"), "hexp::fill");
    bad_input(
        &FILL.replace("fill captured black", "fill captured"),
        "hexp::fill",
    );
}

#[test]
fn fill_after_a_step_is_bad_input() {
    let src = FILL.replace(
        "fill captured black [b1, c1]\n    t - b on [a3, b3] by search",
        "t - b on [b1, c1, a3, b3] by search\n    fill captured black [b1, c1]",
    );
    bad_input(&src, "hexp::tree-shape");
}

#[test]
fn a_cell_named_fill_is_still_a_name() {
    // `fill` is not reserved: a step whose first end is a declared name `fill` still parses.
    let src = "board 3x3
cell fill = b2
strategy {
  black fill {
    fill - b on [a3, b3] by search
    t - b on [b1, c1, a3, b3] by search
  }
}
";
    let c = run(src);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
}
