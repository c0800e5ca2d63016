//! `hexproof check` end to end: exit codes, file:line:column diagnostics, JSON.

use crate::bin::run as hexproof;

#[test]
fn proofs_verify_with_exit_0() {
    let (code, out, _) = hexproof(&[
        "check",
        "proofs/anshelevich-appendix-b.hexp",
        "proofs/examples/ziggurat.hexp",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("total: 2 file(s), 89 step(s): 89 verified"),
        "{out}"
    );
}

#[test]
fn a_failing_step_gives_exit_1() {
    let (code, out, _) = hexproof(&["check", "tests/fixtures/anshelevich-as-printed.hexp"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("tests/fixtures/anshelevich-as-printed.hexp:71:5"),
        "{out}"
    );
}

#[test]
fn a_malformed_script_gives_location_snippet_and_exit_2() {
    let (code, out, _) = hexproof(&["check", "tests/fixtures/malformed/unclosed-list.hexp"]);
    assert_eq!(code, 2);
    assert!(
        out.contains("tests/fixtures/malformed/unclosed-list.hexp:5:1"),
        "{out}"
    );
    assert!(out.contains("4 │   claim x - b on [d4 d5"), "{out}");
    assert!(out.contains("expected `,`, `]`"), "{out}");
    // Bad input wins over failures when several files are given.
    let (code, _, _) = hexproof(&[
        "check",
        "tests/fixtures/anshelevich-as-printed.hexp",
        "tests/fixtures/malformed/no-board.hexp",
    ]);
    assert_eq!(code, 2);
    let (code, out, _) = hexproof(&["check", "no/such/file.hexp"]);
    assert_eq!(code, 2);
    assert!(out.contains("cannot read no/such/file.hexp"), "{out}");
}

#[test]
fn an_exhausted_budget_gives_exit_3() {
    // `by search` steps cannot be decided in one node; rule steps, whose confirming searches
    // get one node too, still stand: an OR over searched premises is confirmed by a kernel
    // certificate composed of theirs (no search, so no budget needed; before session 22 it
    // rested on the rule alone).
    let (code, out, _) = hexproof(&[
        "check",
        "--nodes",
        "1",
        "--confirm-nodes",
        "1",
        "proofs/examples/ziggurat.hexp",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("OR            (x, [e5, c6, d6, e6, b7, c7, d7, e7], b) VC  [rule ✓ · search: holds, 0 nodes")
            && out.contains("composed of the premises' kernel-checked certificates"),
        "{out}"
    );
    assert!(out.contains("undecided"), "{out}");
}

#[test]
fn json_report() {
    let (code, out, _) = hexproof(&[
        "check",
        "--json",
        "tests/fixtures/anshelevich-as-printed.hexp",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["exit_code"], 1);
    assert_eq!(v["counts"]["failed"], 7);
    let steps = v["files"][0]["blocks"][0]["steps"].as_array().unwrap();
    let last_or = steps.iter().find(|s| s["line"] == 71).unwrap();
    assert_eq!(last_or["verdict"], "failed");
    assert_eq!(last_or["rule"], "OR");
    assert_eq!(last_or["rule_check"], "failed");
    assert_eq!(last_or["search"]["verdict"], "holds");
    assert!(last_or["search"]["nodes"].as_u64().unwrap() > 0);
    assert!(last_or["seconds"].is_f64());
    let reasons = last_or["reasons"].as_array().unwrap();
    assert_eq!(reasons[1]["rule"], "OR");
    assert_eq!(reasons[1]["condition"], "OR gives a VC");
    assert_eq!(reasons[1]["places"][0]["line"], 74);
    // Bad input in JSON: the rendered diagnostic is included.
    let (code, out, _) = hexproof(&["check", "--json", "tests/fixtures/malformed/occupied.hexp"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let e = &v["files"][0]["errors"][0];
    assert_eq!(e["code"], "hexp::occupied");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(5), Some(8))
    );
}
