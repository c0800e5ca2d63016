//! `hexproof templates …` on the command line: exit codes, one-line errors, outputs.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexproof"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn verify_list_show() {
    let (code, out, _) = run(&["templates", "verify"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 failed"), "{out}");
    let (code, out, _) = run(&["templates", "list", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.as_array().unwrap().len() >= 3);
    let (code, out, _) = run(&["templates", "show", "III1a"]);
    assert_eq!(code, 0);
    assert!(out.contains(" A") && out.contains("(edge)"), "{out}");
    let (code, out, _) = run(&["templates", "show", "IV1a", "--svg"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("<svg") && out.trim_end().ends_with("</svg>"),
        "{out}"
    );
}

#[test]
fn match_finds_both_colours() {
    // Black e7 on 9x9 sits on row 3 from the bottom; White g5 on row 3 from the right.
    let (code, out, _) = run(&["templates", "match", "--board", "9x9", "--moves", "e7 g5"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("black III1a e7 - b"), "{out}");
    assert!(out.contains("white III1a g5 - r"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        vec!["templates", "show", "NOPE"],
        vec!["templates", "generate", "--row", "3", "--width", "6"],
        vec!["templates", "generate", "--row", "3", "--stones", "3"],
        vec!["templates", "generate", "--row", "3", "--quick=-1"],
        vec!["templates", "match", "--board", "9x9", "--moves", "z99"],
        vec!["templates", "verify", "--dir", "/nonexistent/dir"],
        // Seeds: unknown, too large for the region, seeds-only without seeds, with two
        // stones; an output stem that is a path.
        vec!["templates", "generate", "--row", "4", "--seed", "IV1z"],
        vec![
            "templates",
            "generate",
            "--row",
            "4",
            "--width",
            "8",
            "--seed",
            "IV1c",
        ],
        vec!["templates", "generate", "--row", "4", "--seeds-only"],
        vec![
            "templates",
            "generate",
            "--row",
            "3",
            "--stones",
            "2",
            "--seed",
            "III1a",
        ],
        vec!["templates", "generate", "--row", "3", "--out", "../x"],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("hexproof: error:"), "{args:?}: {err}");
    }
}
