//! Issue 24 items 21 and 23: examples in every command's `--help`, "did you mean" and
//! case-insensitive template names, plural forms, progress that never reaches stdout, and
//! `render` saying what it wrote.

use crate::bin::run;

/// Every command and subcommand.
const COMMANDS: &[&[&str]] = &[
    &[],
    &["check"],
    &["verify"],
    &["minimize"],
    &["bid"],
    &["bid-game"],
    &["templates"],
    &["templates", "generate"],
    &["templates", "verify"],
    &["templates", "list"],
    &["templates", "show"],
    &["templates", "match"],
    &["templates", "import-proofs"],
    &["vc"],
    &["render"],
    &["gtp"],
    &["selfplay"],
    &["match"],
    &["solve"],
    &["certificate"],
    &["certificate", "check"],
];

/// The lines of the "Examples:" block of a help text (up to the first blank line).
fn examples(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|l| !l.trim_start().starts_with("Examples:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect()
}

#[test]
fn every_help_has_examples_one_per_line() {
    for cmd in COMMANDS {
        let args: Vec<&str> = cmd.iter().copied().chain(["--help"]).collect();
        let (code, help, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let block = examples(&help);
        let commands: Vec<&&str> = block
            .iter()
            .filter(|l| l.trim_start().starts_with("hexproof "))
            .collect();
        assert!(
            !commands.is_empty(),
            "`hexproof {}` has no Examples block with a `hexproof …` line:\n{help}",
            args.join(" ")
        );
        // One example per line: a line never holds the start of a second one.
        for l in commands {
            assert_eq!(
                l.matches("hexproof ").count() - l.matches("&& hexproof ").count(),
                1,
                "two examples on one line in `{}`: {l}",
                args.join(" ")
            );
        }
    }
}

#[test]
fn unknown_template_names_get_a_suggestion() {
    for sub in ["show", "verify"] {
        let (code, out, err) = run(&["templates", sub, "III1x"]);
        assert_eq!(code, 2, "{sub}: {out}{err}");
        assert!(
            err.contains("no template called 'III1x'") && err.contains("did you mean 'III1a'"),
            "{sub}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // Nothing close: no suggestion, still a one-line error.
    let (code, _, err) = run(&["templates", "show", "zzzzzzzzzz"]);
    assert_eq!(code, 2);
    assert!(!err.contains("did you mean"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn template_names_are_case_insensitive() {
    let (code, out, err) = run(&["templates", "show", "iii1A"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("III1a: row 3"), "{out}");
    let (code, out, err) = run(&["templates", "verify", "iv1a"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ok ") && out.contains(": IV1a ("), "{out}");
    // One record, one line per record, and the singular in the summary.
    assert!(out.contains("1 template and 0 lemmas verified"), "{out}");
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn plural_forms() {
    let (code, out, _) = run(&["templates", "list"]);
    assert_eq!(code, 0);
    let row2 = out
        .lines()
        .find(|l| l.contains("row2.json:"))
        .expect("row 2 listed");
    assert!(
        row2.ends_with(", 1 stone, region 3x6, complete, 1 template"),
        "{row2}"
    );
    let (code, out, _) = run(&["vc", "--board", "5x5", "--moves", "c3"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("position: 5x5, 1 move,"), "{out}");
    let (code, out, _) = run(&["templates", "match", "--board", "5x5", "--moves", "a1"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("1 instances"), "{out}");
}

#[test]
fn progress_never_reaches_stdout_and_render_says_what_it_wrote() {
    let corner = "proofs/examples/hex4-corner.hexp";
    // check --json: stdout is exactly one JSON value, stderr has no bar (not a terminal).
    let (code, out, err) = run(&["check", corner, "--json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str::<serde_json::Value>(&out).expect("stdout is JSON alone");
    assert!(err.is_empty(), "{err}");
    let dir = std::env::temp_dir().join(format!("hexproof-polish-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("corner.html");
    let (code, out, err) = run(&["render", corner, "--html", page.to_str().unwrap()]);
    let size = std::fs::metadata(&page).map(|m| m.len());
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    let size = size.expect("the page was written");
    assert!(
        err.contains(&format!(
            "hexproof: wrote {} ({size} bytes, ",
            page.display()
        )) && err.trim_end().ends_with(" figures)"),
        "{err}"
    );
    // Written to standard output: the message goes to stderr only.
    let (code, out, err) = run(&["render", corner, "--svg", "-", "--item", "corner/c2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg"), "{out}");
    assert!(
        err.contains("wrote standard output (") && err.contains(", 1 figure)"),
        "{err}"
    );
}
