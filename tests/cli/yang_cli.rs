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
    // Without the refutation search (which refutes the file: exit 1, see below).
    let (code, out, err) = run(&["yang", "check", REAL, "--no-refute"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.starts_with(
        "9x9 strategy: 715 patterns, 3568 branches, 545 reachable from pattern 1\n\
         reachable patterns: 0 verified, 0 refuted, 503 undecided, 42 defective\n"
    ));
    assert!(out.contains("defects (263):"));
    assert!(out.contains("line 21253, column"));
    assert!(out.ends_with("verdict: bad data\n"));
    let (code, out, _) = run(&["yang", "check", REAL, "--json", "--no-refute"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["exit_code"], 2);
    assert_eq!(v["verified"], 0);
    assert_eq!(v["patterns"], 715);
    assert_eq!(v["defects"].as_array().map(Vec::len), Some(263));
    assert_eq!(v["rows"].as_array().map(Vec::len), Some(715));
}

/// SMALL has no structural defect, so the goal check runs: its bridge is placed on c2 and a3,
/// which do not both touch the bottom, and White's a3 (answered by c2) wins: the bridge's
/// inferred goal is lost, shown with White's line, but reported as "goal not established"
/// (undecided), never as refuted: only pattern 1's goal is known (exit 3).
#[test]
fn yang_check_clean_file_runs_the_goal_check() {
    let path = temp_file("small.txt", SMALL);
    let (code, out, err) = run(&["yang", "check", path.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(
        out.contains("0 verified, 0 refuted, 2 undecided, 0 defective"),
        "{out}"
    );
    assert!(
        out.contains("first break:\n  pattern 2 at 1/0 2, placed at line 9"),
        "{out}"
    );
    assert!(out.contains("Undecided: goal not established: "), "{out}");
    assert!(
        out.contains("White's line against the inferred goal: W a3\n"),
        "{out}"
    );
    assert!(
        out.contains(", 2 goal not established: an inferred goal lost locally"),
        "{out}"
    );
    assert!(out.ends_with("verdict: undecided\n"), "{out}");
    let _ = std::fs::remove_file(path);
}

/// A complete little strategy (3x3, Black b2): pattern 1 answers White's first move in the
/// top half with the other top cell and leaves the bottom to a bridge (pattern 2) on a3 b3;
/// the rotation answers the rest. Every placement and the whole strategy are verified by the
/// kernel: exit 0.
const TINY: &str = "#BOARDSIZE 3\n\"RN 1\",\n\"BT 4\",\n\
\"BN 0\",\n\"WM 1 2\",\n\"BM 3\",\n\"ND 1\",\n\"PS 2\",\n\"PP 2 6 7\",\n\
\"BN 1\",\n\"WM 1 3\",\n\"BM 2\",\n\"ND 1\",\n\"PS 2\",\n\"PP 2 6 7\",\n\
\"BN 2\",\n\"WM 1 4\",\n\"BM 2\",\n\"ND 1\",\n\"PS 2\",\n\"PP 2 6 7\",\n\
\"BN 3\",\n\"WM 1 1\",\n\"BM 2\",\n\"ND 1\",\n\"PS 2\",\n\"PP 2 6 7\",\n\
\"RN 2\",\n\"BT 2\",\n\"BN 0\",\n\"WM 1 1\",\n\"BM 2\",\n\"ND 0\",\n\
\"BN 1\",\n\"WM 1 2\",\n\"BM 1\",\n\"ND 0\",\n";

fn check_text(name: &str, text: &str) -> (u8, String, serde_json::Value) {
    let path = temp_file(name, text);
    let p = path.to_str().unwrap();
    let (code, out, err) = run(&["yang", "check", p]);
    let (jcode, json, _) = run(&["yang", "check", p, "--json"]);
    assert_eq!(code, jcode, "{err}");
    let _ = std::fs::remove_file(path);
    (code as u8, out, serde_json::from_str(&json).expect("JSON"))
}

#[test]
fn yang_check_tiny_strategy_verified_by_the_kernel() {
    let (code, out, v) = check_text("tiny.txt", TINY);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(
        "goal check: 9 placed patterns: 9 verified (0 through a union AND), 0 refuted, 0 undecided"
    ));
    assert!(out.contains(
        "whole strategy (t - b after the centre, 33 certificate nodes): verified by the kernel"
    ));
    assert!(out.ends_with("verdict: verified\n"));
    assert_eq!(v["semantic"]["whole_verified"], true);
    assert_eq!(v["semantic"]["patterns_verified"], 2);
    assert_eq!(v["verdict"], "verified");
}

/// The table of what is not verified, by cause, counts every placement not verified once.
fn causes_partition(v: &serde_json::Value) {
    let s = &v["semantic"];
    let rows = s["causes"].as_array().expect("causes");
    let total: u64 = rows
        .iter()
        .map(|r| r["first"].as_u64().unwrap() + r["above"].as_u64().unwrap())
        .sum();
    let not_verified =
        s["instances_undecided"].as_u64().unwrap() + s["instances_refuted"].as_u64().unwrap();
    assert_eq!(total, not_verified, "{rows:?}");
}

/// Hand-made mutants of TINY, each rejected for its own reason.
#[test]
fn yang_check_mutants_rejected_for_the_right_reason() {
    // A wrong reply: White's a1 answered by a2 (not b1): nothing joins the top any more.
    let i = TINY.find("\"BN 3\"").unwrap();
    let wrong = format!(
        "{}{}",
        &TINY[..i],
        TINY[i..].replacen("\"BM 2\"", "\"BM 4\"", 1)
    );
    let (code, out, v) = check_text("wrong-reply.txt", &wrong);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("first break:\n  pattern 1 at 1 (8 cells, goal t - b): Undecided: goal unknown: no chain of the sub-patterns of branch 3 joins t - b"), "{out}");
    assert_eq!(v["semantic"]["whole_verified"], false);
    causes_partition(&v);
    assert!(out.contains("not verified, by cause"), "{out}");
    assert!(v["semantic"]["causes"][0]["cause"]
        .as_str()
        .unwrap()
        .starts_with("goal unknown"));
    // A dropped trigger: the bridge no longer answers White's second cell.
    let dropped = TINY.replace(
        "\"BT 2\",\n\"BN 0\",\n\"WM 1 1\",\n\"BM 2\",\n\"ND 0\",\n\"BN 1\",\n\"WM 1 2\",\n\"BM 1\",\n\"ND 0\",\n",
        "\"BT 1\",\n\"BN 0\",\n\"WM 1 1\",\n\"BM 2\",\n\"ND 0\",\n",
    );
    assert_ne!(dropped, TINY);
    let (code, out, v) = check_text("dropped.txt", &dropped);
    assert_eq!(code, 3, "{out}");
    causes_partition(&v);
    assert!(v["semantic"]["causes"][0]["cause"]
        .as_str()
        .unwrap()
        .starts_with("White's move has no answer"));
    assert!(out.contains("White's b3 has no answer: every branch's reply or sub-patterns need it; the goal still holds after it by exact search"), "{out}");
    // A shifted sub-pattern map: the bridge placed on b3 c3, where c3 does not touch b2.
    let shifted = TINY.replace("\"PP 2 6 7\"", "\"PP 2 7 8\"");
    let (code, out, v) = check_text("shifted.txt", &shifted);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("Undecided: goal not established: a branch without sub-patterns does not join the goal; the inferred goal is lost inside the pattern"), "{out}");
    assert!(
        out.contains("White's line against the inferred goal: W b3\n"),
        "{out}"
    );
    assert_eq!(v["semantic"]["first_break"]["status"], "undecided");
    assert_eq!(v["semantic"]["first_break"]["goal_lost"], true);
    assert_eq!(v["semantic"]["instances_refuted"], 0);
    assert_eq!(v["semantic"]["first_break"]["white_line"][0], "W b3");
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
    // A nesting depth out of range: bad input.
    let (code, _, err) = run(&["yang", "check", REAL, "--lenient", "--carry-depth", "0"]);
    assert_eq!(code, 2, "{err}");
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

/// `--read-slips` on the real file (structure only, fast): the five sites listed with their
/// lines, the 14 position defects at them gone, the verdict said to be the read file's; on
/// a file without the slips, nothing applied and the report as without the option, the
/// listing put in front; bad input still exit 2 with the located message.
#[test]
fn yang_check_read_slips() {
    let (code, out, err) = run(&["yang", "check", REAL, "--read-slips", "--no-refute"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.starts_with("--read-slips: 5 of 5 sites read as intended; every figure below is for the file READ WITH THE REPAIRS"), "{out}");
    assert!(out.contains("  584-585-completed (pattern 584 branch 3, line 21501): "));
    assert!(out.contains("defects (249):"), "{out}");
    assert!(out.ends_with("verdict on the file read with 5 repaired sites (--read-slips), not on the file as written: bad data\n"));
    let (_, json, _) = run(&[
        "yang",
        "check",
        REAL,
        "--read-slips",
        "--json",
        "--no-refute",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["read_slips"]["applied"], 5);
    assert_eq!(v["read_slips"]["readings"][2]["line"], 23768);
    assert_eq!(v["read_slips"]["readings"][2]["applied"], true);
    let (_, json, _) = run(&["yang", "check", REAL, "--json", "--no-refute"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert!(v.get("read_slips").is_none());
    assert!(v.get("refutation").is_none());
    // TINY has none of the slips: the same report and exit code, the listing in front.
    let path = temp_file("tiny-slips.txt", TINY);
    let p = path.to_str().unwrap();
    let (code0, out0, _) = run(&["yang", "check", p, "--no-refute"]);
    let (code1, out1, _) = run(&["yang", "check", p, "--read-slips", "--no-refute"]);
    assert_eq!((code0, code1), (0, 0));
    assert!(out1.starts_with("--read-slips: 0 of 5 sites read as intended"));
    assert!(
        out1.contains("not applied: the file has no pattern 364"),
        "{out1}"
    );
    // The same report but for the times: the goal check's total and the `ms` column of
    // the per-pattern table (a 0.1 against 0.2 ms difference failed CI once).
    let untimed = |s: &str| -> Vec<String> {
        let mut in_table = false;
        s.lines()
            .map(|l| {
                if l.starts_with("goal check:") {
                    return l.rsplit_once("; ").map_or(l, |x| x.0).to_string();
                }
                if l.starts_with("pattern cells") && l.contains(" ms ") {
                    in_table = true;
                    return l.to_string();
                }
                let words: Vec<&str> = l.split_whitespace().collect();
                if in_table && words.len() >= 2 && words[words.len() - 2].parse::<f64>().is_ok() {
                    let mut w = words.clone();
                    let n = w.len();
                    w[n - 2] = "<ms>";
                    return w.join(" ");
                }
                in_table = false;
                l.to_string()
            })
            .collect()
    };
    let (m0, m1) = (untimed(&out0), untimed(&out1));
    assert_eq!(m1[m1.len() - m0.len()..], m0[..], "{out1}");
    assert_eq!(m1.len() - m0.len(), 6);
    let (_, j0, _) = run(&["yang", "check", p, "--json", "--no-refute"]);
    let (_, j1, _) = run(&["yang", "check", p, "--json", "--read-slips", "--no-refute"]);
    fn drop_times(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.retain(|k, _| !k.contains("micros") && !k.contains("seconds"));
                m.values_mut().for_each(drop_times);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(drop_times),
            _ => {}
        }
    }
    let mut v0: serde_json::Value = serde_json::from_str(&j0).unwrap();
    let mut v1: serde_json::Value = serde_json::from_str(&j1).unwrap();
    assert!(v1.as_object_mut().unwrap().remove("read_slips").is_some());
    drop_times(&mut v0);
    drop_times(&mut v1);
    assert_eq!(v1, v0);
    let _ = std::fs::remove_file(path);
    let path = temp_file(
        "comma-slips.txt",
        &SMALL.replace("\"WM 2 1 2\"", "\"WM 2 1, 2\""),
    );
    let p = path.to_str().unwrap();
    let (code, _, err) = run(&["yang", "check", p, "--read-slips"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!("hexproof: error: {p}: line 5, column 8: stray comma\n")
    );
    let _ = std::fs::remove_file(path);
}

/// The refutation search on the real file (docs/yang.md, "The refutation search"): without
/// the goal check (`--refute-only`) and without `--lenient`, a certified losing line is
/// found within 300 attacker games: exit 1 "refuted", though the file has structural
/// defects (exit 2 without the search, above). Every Black move of the line is a branch
/// reply; the losing one is named, and the loss after it and the win before it are proofs
/// judged by the kernel. The JSON's shape is pinned (times redacted). With `--read-slips` the
/// verdict is the read file's: exit 3.
#[test]
fn yang_check_refutes_the_real_file() {
    let args = [
        "yang",
        "check",
        REAL,
        "--refute-only",
        "--refute-games",
        "300",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("checked: structure only: the goal check was left out (--refute-only)\n"));
    assert!(
        out.contains("REFUTATION (kernel-checked): the strategy as written loses"),
        "{out}"
    );
    assert!(out.contains("<- the losing move"), "{out}");
    assert!(out.contains(" steps verified by the kernel, written for the transposed board with the colours swapped"), "{out}");
    assert!(out.ends_with("verdict: refuted\n"), "{out}");
    let (code, json, _) = run(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 1);
    let mut v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["verdict"], "refuted");
    assert!(v.get("semantic").is_none_or(|s| s.is_null()));
    let r = v["refutation"].take();
    let line = &r["refutation"];
    assert_eq!(line["lost"]["winner"], "White");
    assert_eq!(line["lost"]["to_move"], "White");
    assert_eq!(line["won_before"]["winner"], "Black");
    let moves = line["moves"].as_array().unwrap();
    let k = line["losing_move"].as_u64().unwrap() as usize;
    assert_eq!(moves[k - 1]["colour"], "Black");
    assert_eq!(moves[k - 1]["cell"], line["losing_cell"]);
    // Every move after the opening names its pattern and branch.
    assert!(moves[1..]
        .iter()
        .all(|m| m["pattern"].is_u64() && m["branch"].is_u64()));
    insta::assert_json_snapshot!("yang_refutation_real_file", r, {
        ".cpu_seconds" => "[cpu]",
        ".refutation.lost.cpu_seconds" => "[cpu]",
        ".refutation.won_before.cpu_seconds" => "[cpu]",
    });
    let (code, out, _) = run(&[&args[..], &["--read-slips"]].concat());
    assert_eq!(code, 3, "{out}");
    assert!(
        out.ends_with("not on the file as written: refuted\n"),
        "{out}"
    );
}
