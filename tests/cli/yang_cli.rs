//! `hexproof yang check`: exit codes, the one-line located error, the report's summary and
//! its JSON (docs/yang.md).

use crate::bin::run;

const REAL: &str = "tests/fixtures/jing-yang-9x9/hex99-3.txt";

const SMALL: &str = "#BOARDSIZE 3\n\"RN 1\",\n\"BT 1\",\n\"BN 0\",\n\"WM 2 1 2\",\n\"BM 3\",\n\
\"ND 1\",\n\"PS 2\",\n\"PP 2 5 6\",\n\"RN 2\",\n\"BT 2\",\n\"BN 0\",\n\"WM 1 1\",\n\"BM 2\",\n\
\"ND 0\",\n\"BN 1\",\n\"WM 1 2\",\n\"BM 1\",\n\"ND 0\",\n";

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("hexproof-yang-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("temp file");
    path
}

#[test]
fn yang_check_real_file_is_bad_data() {
    let (code, out, err) = run(&["yang", "check", REAL]);
    assert_eq!(code, 2, "{err}");
    assert!(out.starts_with(
        "9x9 strategy: 715 patterns, 3568 branches, 545 reachable from pattern 1\n\
         reachable patterns: 0 verified, 0 refuted, 503 undecided, 42 defective\n"
    ));
    assert!(out.contains("defects (263):"));
    assert!(out.contains("line 21253, column"));
    assert!(out.ends_with("verdict: bad data\n"));
    let (code, out, _) = run(&["yang", "check", REAL, "--json"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["exit_code"], 2);
    assert_eq!(v["verified"], 0);
    assert_eq!(v["patterns"], 715);
    assert_eq!(v["defects"].as_array().map(Vec::len), Some(263));
    assert_eq!(v["rows"].as_array().map(Vec::len), Some(715));
}

#[test]
fn yang_check_clean_file_is_undecided_never_verified() {
    let path = temp_file("small.txt", SMALL);
    let (code, out, err) = run(&["yang", "check", path.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(out.contains("0 verified, 0 refuted, 2 undecided, 0 defective"));
    assert!(out.ends_with("verdict: undecided\n"));
    let _ = std::fs::remove_file(path);
}

#[test]
fn yang_check_located_errors() {
    let path = temp_file("comma.txt", &SMALL.replace("\"WM 2 1 2\"", "\"WM 2 1, 2\""));
    let p = path.to_str().unwrap();
    let (code, out, err) = run(&["yang", "check", p]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!("hexproof: error: {p}: line 5, column 8: stray comma\n")
    );
    let _ = std::fs::remove_file(path);
    let (code, _, err) = run(&["yang", "check", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("hexproof: error: cannot read no/such/file.txt"),
        "{err}"
    );
}

/// `gtp --yang FILE`: on 9x9 Black opens e5 and answers by the strategy (c8 → d7, pattern
/// 1 branch 8; a9, past the centre, → f5 by the 180° rotation); when the game leaves the
/// strategy (Black did not open e5) the configured player moves instead.
#[test]
fn yang_gtp_player_follows_the_strategy() {
    use std::io::Write;
    let gtp = |input: &str| {
        let mut child = crate::bin::hexproof()
            .args(["gtp", "--yang", REAL, "--time", "0.05"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("gtp runs");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let out = gtp("boardsize 9\ngenmove b\nplay w c8\ngenmove b\nplay w f1\ngenmove b\nquit\n");
    assert_eq!(out, "=\n\n= e5\n\n=\n\n= d7\n\n=\n\n= h2\n\n=\n\n");
    let out = gtp("boardsize 9\nplay b e5\nplay w a9\ngenmove b\nquit\n");
    assert_eq!(out, "=\n\n=\n\n=\n\n= f5\n\n=\n\n");
    // Off the strategy: the MCTS player answers, some legal move.
    let out = gtp("boardsize 9\nplay b a1\nplay w c8\ngenmove b\nquit\n");
    assert!(out.starts_with("=\n\n=\n\n=\n\n= "), "{out}");
    let (code, _, err) = run(&["gtp", "--yang", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("hexproof: error: cannot read no/such/file.txt"),
        "{err}"
    );
}
