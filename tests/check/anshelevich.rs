//! Anshelevich (2002), Appendix B: the corrected derivations verify step by step (each step
//! by its rule and by exhaustive search); the derivations exactly as printed are rejected,
//! each misprint for its real reason.

use hexproof::check::report::{StepReport, StepVerdict};
use hexproof::check::{check_files, Checked, Options};
use std::path::PathBuf;

fn check(rel: &str) -> Checked {
    check_files(&[PathBuf::from(rel)], &Options::default())
}

pub(crate) fn steps(c: &Checked) -> Vec<&StepReport> {
    c.report
        .files
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.steps.iter())
        .collect()
}

fn step(c: &Checked, line: usize) -> &StepReport {
    steps(c)
        .into_iter()
        .find(|s| s.at.line == line)
        .unwrap_or_else(|| panic!("no step on line {line}"))
}

fn conditions(s: &StepReport) -> Vec<&str> {
    s.reasons.iter().map(|r| r.condition.as_str()).collect()
}

#[test]
fn corrected_derivations_verify_by_rule_and_search() {
    let c = check("proofs/anshelevich-appendix-b.hexp");
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    let all = steps(&c);
    // 36 + 32 derivation steps (edge, ladder) and the two lemma claims.
    assert_eq!(all.len(), 70);
    for s in &all {
        assert_eq!(s.verdict, StepVerdict::Verified);
        // Every claim of the derivations is also confirmed by exact search.
        assert_eq!(
            s.search.as_ref().map(|r| r.verdict.as_str()),
            Some("holds"),
            "{s:?}"
        );
        assert_eq!(s.basis_text(), "rule and search");
    }
    let blocks = &c.report.files[0].blocks;
    assert_eq!(blocks[0].name.as_deref(), Some("edge4"));
    assert_eq!(blocks[1].name.as_deref(), Some("ladder"));
}

#[test]
fn derivations_as_printed_are_rejected_for_their_real_reasons() {
    let c = check("tests/fixtures/anshelevich-as-printed.hexp");
    assert_eq!(c.report.exit_code, 1);
    let failed: Vec<usize> = steps(&c)
        .iter()
        .filter(|s| s.verdict == StepVerdict::Failed)
        .map(|s| s.at.line)
        .collect();
    // Everything else verifies.
    assert_eq!(
        failed,
        vec![71, 18, 107, 110, 112, 113, 85],
        "{}",
        c.human()
    );

    // Edge connection, final OR: its first premise omits cell 10, and it concludes a VSC
    // where the OR rule gives a VC.
    let s = step(&c, 71);
    assert_eq!(conditions(s), vec!["premise established", "OR gives a VC"]);
    assert!(
        s.reasons[0].message.contains("this premise omits [10]"),
        "{}",
        s.reasons[0].message
    );
    // The premise without 10 is false, and the search says why.
    assert!(s.reasons[0]
        .message
        .contains("by search it is false: black"));
    // The VC itself holds by search: only the step is wrong.
    assert_eq!(s.search.as_ref().unwrap().verdict, "holds");
    // So the lemma is not established by the printed proof.
    assert_eq!(conditions(step(&c, 18)), vec!["claim derived"]);

    // Ladder: "(13,[12],y) is VC, (12,[1],y) is VC. Apply AND: (13,[12],y) is VSC" does not
    // follow: the first premise is false (White takes 12), and the AND of the two as written
    // would join 13 and 12, with 12 inside the first carrier.
    let s = step(&c, 107);
    assert_eq!(
        conditions(s),
        vec![
            "premise established",
            "conclusion ends",
            "y ∉ A",
            "u black ⇒ VC",
            "carrier"
        ]
    );
    assert!(s.reasons[0].message.contains("(13, [12], y) VC"));
    assert!(s.reasons[0]
        .message
        .contains("by search it is false: white 12"));
    // The same misprint twice more: "(x,[13],y) is VC" (false outright: even holding 13, x
    // does not reach the edge) and "(x,[14],y) is VC, (14,[1],y) is VC" (White takes 14).
    let s = step(&c, 110);
    assert_eq!(conditions(s)[0], "premise established");
    assert!(s.reasons[0].message.contains("(x, [13], y) VC"));
    assert!(s.reasons[0].message.contains("by search it is false"));
    let s = step(&c, 112);
    assert_eq!(conditions(s)[0], "premise established");
    assert!(s.reasons[0]
        .message
        .contains("by search it is false: white 14"));
    // The final OR lists cell 11 twice.
    let s = step(&c, 113);
    assert_eq!(conditions(s), vec!["carrier is a set"]);
    assert!(s.reasons[0].message.contains("[11]"));
    assert!(conditions(step(&c, 85)).contains(&"claim derived"));
}

#[test]
fn the_corrections_are_exactly_the_marked_lines() {
    // Strip comments and compare the two transcriptions line by line.
    let read = |p: &str| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| l.split("//").next().unwrap().trim().to_string())
            .filter(|l| l.starts_with('(') || l.starts_with("Apply"))
            .collect()
    };
    let fixed = read("proofs/anshelevich-appendix-b.hexp");
    let printed = read("tests/fixtures/anshelevich-as-printed.hexp");
    assert_eq!(fixed.len(), printed.len());
    let diffs: Vec<(&String, &String)> = printed
        .iter()
        .zip(fixed.iter())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(diffs.len(), 6, "{diffs:#?}");
}
