//! Openings as cluster jobs (`solve --openings all --shard i/n --out DIR`) and their
//! combination (`solve --combine DIR`), docs/cluster.md: the sharded answer equals the
//! one-process answer, and killed, duplicate and corrupted jobs change nothing or are
//! rejected for the right reason.

use crate::bin::run;
use hexproof::dfpn::jobs::{OpeningRecord, FORMAT};
use std::path::{Path, PathBuf};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hexproof-cluster-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs shard `i/n` of the 4×4 openings into `out`.
fn job(out: &Path, i: usize, n: usize) -> (i32, String, String) {
    openings_job(out, &["--shard", &format!("{i}/{n}")])
}

/// Runs a job of the 4×4 openings into `out` with `extra` flags.
fn openings_job(out: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "solve",
        "--board",
        "4x4",
        "--openings",
        "all",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

fn combine(dirs: &[&Path]) -> (i32, String, String) {
    let mut args = vec!["solve", "--board", "4x4"];
    for d in dirs {
        args.push("--combine");
        args.push(d.to_str().unwrap());
    }
    run(&args)
}

/// The table and legend (the first 6 lines of a 4×4 table).
fn table(out: &str) -> String {
    out.lines().take(6).collect::<Vec<_>>().join("\n")
}

fn one_process_table() -> String {
    let (code, out, err) = run(&["solve", "--board", "4x4", "--openings", "all"]);
    assert_eq!(code, 0, "{err}");
    table(&out)
}

#[test]
fn sharded_jobs_combine_to_the_one_process_table() {
    let dir = scratch("equal");
    for i in 1..=3 {
        let (code, out, err) = job(&dir, i, 3);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&format!("shard {i}/3 of 4x4")), "{out}");
    }
    let (code, out, err) = combine(&[&dir]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(table(&out), one_process_table());
    assert!(out.contains("combined from 8 result file(s)"), "{out}");
    // The JSON names every opening, 8 searched and 8 read off their 180° images.
    let dirs = dir.to_str().unwrap();
    let (code, out, _) = run(&["solve", "--board", "4x4", "--combine", dirs, "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["openings"].as_array().unwrap();
    assert_eq!(rows.len(), 16);
    assert_eq!(rows.iter().filter(|r| r["by_rotation"] == true).count(), 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_job_rerun_completes_the_table() {
    let dir = scratch("killed");
    assert_eq!(job(&dir, 1, 2).0, 0);
    assert_eq!(job(&dir, 2, 2).0, 0);
    // Simulate a job of shard 2 killed mid-write: its last opening's file never got renamed
    // into place, a partial temporary file is left behind.
    let victim = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let t = std::fs::read_to_string(p).unwrap();
            t.contains("\"shard\": \"2/2\"")
        })
        .max()
        .unwrap();
    let name = victim.file_name().unwrap().to_str().unwrap().to_string();
    let opening = name
        .trim_start_matches("opening-")
        .trim_end_matches(".json");
    let text = std::fs::read_to_string(&victim).unwrap();
    std::fs::remove_file(&victim).unwrap();
    std::fs::write(
        dir.join(format!(".{name}.tmp-99999")),
        &text[..text.len() / 2],
    )
    .unwrap();
    let (code, _, err) = combine(&[&dir]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("missing") && err.contains(&format!("{opening} (shard 2/2)")),
        "{err}"
    );
    // The re-run solves only the missing opening.
    let (code, out, _) = job(&dir, 2, 2);
    assert_eq!(code, 0);
    assert!(out.contains("(1 solved now, 3 already done)"), "{out}");
    let (code, out, err) = combine(&[&dir]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("1 leftover temporary file(s) ignored"),
        "{err}"
    );
    assert_eq!(table(&out), one_process_table());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_duplicate_job_writes_the_same_answers_and_changes_nothing() {
    let (a, b) = (scratch("dup-a"), scratch("dup-b"));
    assert_eq!(job(&a, 1, 2).0, 0);
    assert_eq!(job(&a, 2, 2).0, 0);
    assert_eq!(job(&b, 2, 2).0, 0);
    let before: Vec<(PathBuf, String)> = std::fs::read_dir(&a)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    // The same job again in the same folder: a no-op, files untouched.
    let (code, out, _) = job(&a, 2, 2);
    assert_eq!(code, 0);
    assert!(out.contains("(0 solved now, 4 already done)"), "{out}");
    for (p, t) in &before {
        assert_eq!(&std::fs::read_to_string(p).unwrap(), t, "{}", p.display());
    }
    // The duplicate elsewhere: same winners, moves and node counts (one opening at a time,
    // nothing shared, so the search does not depend on the machine or the shard).
    for e in std::fs::read_dir(&b).unwrap() {
        let p = e.unwrap().path();
        let rb: OpeningRecord =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let pa = a.join(p.file_name().unwrap());
        let ra: OpeningRecord =
            serde_json::from_str(&std::fs::read_to_string(pa).unwrap()).unwrap();
        assert_eq!(
            (&ra.winner, &ra.winning_move, ra.nodes),
            (&rb.winner, &rb.winning_move, rb.nodes),
            "{}",
            p.display()
        );
    }
    // Combining both folders (each opening of shard 2 twice) gives the same table.
    let (code, out, err) = combine(&[&a, &b]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(table(&out), one_process_table());
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

#[test]
fn a_duplicate_job_started_at_the_same_moment_leaves_one_valid_file_each() {
    // Two copies of one job, same shard and same folder, started together: both write every
    // opening of the shard (neither finds the other's file at its start), each through its own
    // temporary file and a rename, so each target ends as one complete file of one copy.
    let dir = scratch("concurrent");
    let spawn = || {
        crate::bin::hexproof()
            .args([
                "solve",
                "--board",
                "4x4",
                "--openings",
                "all",
                "--shard",
                "2/2",
                "--out",
            ])
            .arg(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs")
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(a.status.success() && b.status.success(), "{a:?} {b:?}");
    assert_eq!(job(&dir, 1, 2).0, 0);
    // No temporary file is left and every result file is valid (the combiner checks them).
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    let (code, out, err) = combine(&[&dir]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(table(&out), one_process_table());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupted_result_files_are_rejected_for_the_right_reason() {
    let good = scratch("bad-good");
    assert_eq!(job(&good, 1, 1).0, 0);
    let file = |name: &str| good.join(format!("opening-{name}.json"));
    let record = |name: &str| -> OpeningRecord {
        serde_json::from_str(&std::fs::read_to_string(file(name)).unwrap()).unwrap()
    };
    // Each case: a copy of the good folder with one change, and the reason expected.
    let case = |tag: &str, change: &dyn Fn(&Path), want: &str| {
        let d = scratch(&format!("bad-{tag}"));
        for e in std::fs::read_dir(&good).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, d.join(p.file_name().unwrap())).unwrap();
        }
        change(&d);
        let (code, out, err) = combine(&[&d]);
        assert_eq!(code, 2, "{tag}: {out}");
        assert!(err.contains(want), "{tag}: expected '{want}' in: {err}");
        assert_eq!(err.lines().count(), 1, "{tag}: one line: {err}");
        let _ = std::fs::remove_dir_all(&d);
    };
    // A result edited by hand (winner flipped): the checksum fails.
    let a1 = std::fs::read_to_string(file("a1")).unwrap();
    let flipped = if a1.contains("\"winner\": \"white\"") {
        a1.replace("\"winner\": \"white\"", "\"winner\": \"black\"")
    } else {
        a1.replace("\"winner\": \"black\"", "\"winner\": \"white\"")
    };
    assert_ne!(flipped, a1);
    case(
        "edited",
        &|d| std::fs::write(d.join("opening-a1.json"), &flipped).unwrap(),
        "opening-a1.json: rejected: bad checksum",
    );
    // Truncated (a writer that is not atomic, a full disk): not a result file.
    case(
        "truncated",
        &|d| std::fs::write(d.join("opening-a1.json"), &a1[..a1.len() / 2]).unwrap(),
        "opening-a1.json: rejected: not an opening result file",
    );
    // A valid record under another opening's name.
    case(
        "renamed",
        &|d| {
            std::fs::copy(file("a1"), d.join("opening-b2.json"))
                .map(|_| ())
                .unwrap()
        },
        "holds opening a1 but is named opening-b2.json",
    );
    // A valid record of another board (resealed, so only the board is wrong).
    let other = OpeningRecord {
        board: "5x5".into(),
        ..record("a1")
    }
    .sealed();
    case(
        "board",
        &|d| std::fs::write(d.join("opening-a1.json"), other.to_text()).unwrap(),
        "board 5x5, expected 4x4",
    );
    // A missing shard's openings.
    case(
        "missing",
        &|d| std::fs::remove_file(d.join("opening-a2.json")).unwrap(),
        "missing: a2 (shard 1/1)",
    );
    // A second, validly sealed record of the same opening's 180° image with the other
    // winner: conflicting duplicates.
    let r = record("a1");
    let conflicting = OpeningRecord {
        opening: "d4".into(),
        winner: if r.winner == "white" {
            "black"
        } else {
            "white"
        }
        .into(),
        winning_move: if r.winner == "white" {
            None
        } else {
            Some("b2".into())
        },
        ..r
    }
    .sealed();
    assert_eq!(conflicting.format, FORMAT);
    case(
        "conflict",
        &|d| std::fs::write(d.join("opening-d4.json"), conflicting.to_text()).unwrap(),
        "conflicting results for a1",
    );
    // A White win without a winning move is impossible.
    let no_move = OpeningRecord {
        winner: "white".into(),
        winning_move: None,
        ..record("a1")
    }
    .sealed();
    case(
        "no-move",
        &|d| std::fs::write(d.join("opening-a1.json"), no_move.to_text()).unwrap(),
        "White wins but no winning move",
    );
    // An empty folder.
    case(
        "empty",
        &|d| {
            for e in std::fs::read_dir(d).unwrap() {
                std::fs::remove_file(e.unwrap().path()).unwrap();
            }
        },
        "no result files",
    );
    let _ = std::fs::remove_dir_all(&good);
}

/// `--only` takes the named openings in its order, and a second run with the rest completes
/// the same table as one process; bad lists are input errors.
#[test]
fn a_sweep_of_named_openings_then_the_rest_equals_one_process() {
    let dir = scratch("only");
    let sweep = |only: &str| openings_job(&dir, &["--only", only]);
    let (code, _, err) = sweep("d1, a2,b3");
    assert_eq!(code, 0, "{err}");
    let order: Vec<&str> = err.lines().filter_map(|l| l.split(' ').next()).collect();
    assert_eq!(order, ["d1", "a2", "b3"], "{err}");
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(files, 3);
    let (code, _, err) = combine(&[&dir]);
    assert_eq!(code, 2);
    assert!(err.contains("missing"), "{err}");
    // The rest (a1's image d4 and d1's image a4 are covered): complete it in one job.
    let (code, _, err) = job(&dir, 1, 1);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("(already done)"), "{err}");
    let (code, table_out, err) = combine(&[&dir]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(table(&table_out), one_process_table());
    for (list, why) in [
        ("a1,z9", "'z9' is not a cell"),
        ("a1,a1", "'a1' is given twice"),
        (" , ", "no cell given"),
    ] {
        let (code, _, err) = sweep(list);
        assert_eq!(code, 2, "{list}: {err}");
        assert!(err.contains(why), "{list}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn job_flags_are_checked() {
    let (code, _, err) = run(&["solve", "--board", "4x4", "--shard", "1/2", "--out", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("add --openings all"), "{err}");
    let (code, _, err) = run(&[
        "solve",
        "--board",
        "4x4",
        "--openings",
        "all",
        "--shard",
        "3/2",
        "--out",
        "x",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("expected i/n with 1 <= i <= n"), "{err}");
    let (code, _, err) = run(&[
        "solve",
        "--board",
        "4x4",
        "--openings",
        "all",
        "--out",
        "x",
        "--db",
        "x.redb",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("drop --db"), "{err}");
}

/// Runs contrib/slurm/run-local-cluster.sh with `args` and this build's binary, asserts it
/// succeeded and returns its output; `None` (skipped) when Slurm, munge or (for `--postgres`)
/// PostgreSQL is not installed.
fn run_cluster_script(args: &[&str]) -> Option<String> {
    let installed = std::process::Command::new("sh")
        .args(["-c", "command -v slurmctld && command -v munged"])
        .output()
        .is_ok_and(|o| o.status.success());
    let pg = !args.contains(&"--postgres") || Path::new("/usr/lib/postgresql").exists();
    if !installed || !pg {
        eprintln!("slurm-wlm, munge or postgresql not installed: skipped (apt-get install -y slurm-wlm munge postgresql)");
        return None;
    }
    let out = std::process::Command::new("contrib/slurm/run-local-cluster.sh")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .arg("--bin")
        .arg(env!("CARGO_BIN_EXE_hexproof"))
        .output()
        .expect("the script runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}\n{err}");
    Some(text)
}

/// A real single-node Slurm cluster (contrib/slurm/run-local-cluster.sh: slurmctld, slurmd and
/// munged under a temporary folder, stopped at the end) runs the 5×5 openings as an array of
/// 4 tasks, then the row-3 two-stone template enumeration as an array of 4 tasks; the combined
/// table must equal the one-process table, the merged template file the one-process file byte
/// for byte. Needs root and the
/// `slurm-wlm` and `munge` packages: `cargo test --release --test cli slurm -- --ignored`.
#[test]
#[ignore = "starts a Slurm cluster: needs root and slurm-wlm + munge installed"]
fn slurm_array_job_equals_one_process() {
    let Some(text) = run_cluster_script(&[
        "--board",
        "5x5",
        "--shards",
        "4",
        "--compare",
        "--templates",
        "3",
    ]) else {
        return;
    };
    assert!(text.contains("array of 4 tasks on 5x5"), "{text}");
    assert!(
        text.contains("compare: the Slurm table equals the one-process table"),
        "{text}"
    );
    assert!(text.contains("array of 4 template tasks, row 3"), "{text}");
    assert!(
        text.contains("compare: the merged row3s2.json equals the one-process file byte for byte"),
        "{text}"
    );
}

/// The shared store on a real PostgreSQL server (contrib/postgres/run-local-postgres.sh: a
/// server under a temporary folder, restarted while a job runs, stopped at the end): the
/// combined table equals the one-process table before and after the store is warm, the
/// store holds records, and a job started while the server is down waits for it and finishes. Needs root, the `postgresql` package and a build with the feature:
/// `cargo test --release --features postgres --test cli postgres -- --ignored`.
#[cfg(feature = "postgres")]
#[test]
#[ignore = "starts a PostgreSQL server: needs root and postgresql installed"]
fn postgres_store_survives_a_restart() {
    if !Path::new("/usr/lib/postgresql").exists() {
        eprintln!("postgresql not installed: skipped (apt-get install -y postgresql)");
        return;
    }
    let out = std::process::Command::new("contrib/postgres/run-local-postgres.sh")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["--board", "5x5", "--restart-after", "1", "--bin"])
        .arg(env!("CARGO_BIN_EXE_hexproof"))
        .output()
        .expect("the script runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}\n{err}");
    assert!(text.contains("server restarted"), "{text}");
    assert!(
        text.contains("compare c1: equals the one-process table"),
        "{text}"
    );
    assert!(
        text.contains("compare c2: equals the one-process table"),
        "{text}"
    );
    // A job started while the server was down waited for it (its first connection retried).
    assert!(
        text.contains("pass 3 (started while the server was down): waited for it and finished"),
        "{text}"
    );
    assert!(
        text.contains("compare c3: equals the one-process table"),
        "{text}"
    );
}

/// Slurm and PostgreSQL together, with faults (contrib/slurm/run-local-cluster.sh --postgres
/// --faults): a real single-node Slurm cluster and a local PostgreSQL server; the 6×6 openings
/// as an array of 4 tasks sharing the server as their store, and the row-3 two-stone template
/// enumeration as an array of 4 tasks. Injected: task 1 cancelled after its first result file
/// (the combiner then names its missing openings; the re-run completes them), a duplicate of
/// task 2, the server restarted while tasks run, a result file with its winner flipped
/// (rejected by the combiner, replaced by its task's re-run with the same answer), a
/// duplicate template task and an edited template shard (rejected by the merge, re-run). The
/// table equals the one-process table, again over the warm store; the merged template file
/// equals the one-process file byte for byte; no task reported a store error. 6×6, not 5×5:
/// a 5×5 task can end before the kill reaches it. Needs root, slurm-wlm, munge, postgresql and
/// the feature: `cargo test --release --features postgres --test cli slurm_and_postgres -- --ignored`.
#[cfg(feature = "postgres")]
#[test]
#[ignore = "starts a Slurm cluster and a PostgreSQL server: needs root, slurm-wlm, munge, postgresql"]
fn slurm_and_postgres_with_faults_equal_one_process() {
    let Some(text) = run_cluster_script(&[
        "--board",
        "6x6",
        "--shards",
        "4",
        "--cpus",
        "2",
        "--postgres",
        "--faults",
        "--compare",
        "--templates",
        "3",
    ]) else {
        return;
    };
    for want in [
        "fault: duplicate of task 2 submitted",
        // It ran to the end (skipping what was done, or racing the original: both are fine).
        "duplicate task 2: shard 2/4 of 6x6: 5 openings (",
        "fault: task 1 cancelled (scancel",
        "fault: PostgreSQL restarted",
        // The kill lost work: the combiner refuses the folder and names task 1's openings.
        "combine before the re-run: exit 2 (hexproof: error:",
        "(shard 1/4)",
        "re-run of the killed task 1: shard 1/4 of 6x6",
        "rejected: bad checksum",
        "(replaced a previous file:",
        "the new file has the original's answer",
        "combine exit code: 0",
        "store: no task reported a store error",
        // Record by record (key and MD5 of the value): nothing the warm pass or the restart
        // could have lost is missing or changed.
        "records dumped after the first pass are still there, each value unchanged",
        "compare: the Slurm table equals the one-process table",
        "compare: the warm-store Slurm table equals the one-process table",
        "fault: duplicate of template task 1 submitted",
        "templates merge: exit 2:",
        "re-run of template task 2: shard 2/4 of row 3",
        "compare: the merged row3s2.json equals the one-process file byte for byte",
    ] {
        assert!(text.contains(want), "expected '{want}' in:\n{text}");
    }
    assert!(!text.contains("MISSING or CHANGED"), "{text}");
    let records = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("store: ")?
                .split(' ')
                .next()?
                .parse::<u64>()
                .ok()
        })
        .expect("a record count");
    assert!(records > 0, "{text}");
}

/// Shard `i/n` of the row-3 two-stone enumeration into `dir`.
fn template_job(dir: &Path, i: usize, n: usize) -> (i32, String, String) {
    run(&[
        "templates",
        "generate",
        "--row",
        "3",
        "--stones",
        "2",
        "--quiet",
        "--shard",
        &format!("{i}/{n}"),
        "--dir",
        dir.to_str().unwrap(),
    ])
}

fn template_merge(shards: &Path, out: &Path) -> (i32, String, String) {
    run(&[
        "templates",
        "merge",
        shards.to_str().unwrap(),
        "--dir",
        out.to_str().unwrap(),
        "--force",
    ])
}

#[test]
fn sharded_template_enumeration_merges_to_the_one_process_file() {
    let d = scratch("tmpl-equal");
    let one = d.join("one");
    let (code, _, err) = run(&[
        "templates",
        "generate",
        "--row",
        "3",
        "--stones",
        "2",
        "--quiet",
        "--dir",
        one.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let shards = d.join("shards");
    for i in 1..=4 {
        let (code, out, err) = template_job(&shards, i, 4);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&format!("shard {i}/4")), "{out}");
    }
    // A duplicate job: same file name, same answers (only the timings may differ).
    assert_eq!(template_job(&shards, 2, 4).0, 0);
    let merged = d.join("merged");
    let (code, out, err) = template_merge(&shards, &merged);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("merged 4 shard file(s)"), "{out}");
    let a = std::fs::read(one.join("row3s2.json")).unwrap();
    let b = std::fs::read(merged.join("row3s2.json")).unwrap();
    assert!(
        a == b,
        "the merged library file differs from the one-process file"
    );
    // One-stone enumeration has no shards.
    let (code, _, err) = run(&["templates", "generate", "--row", "3", "--shard", "1/2"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--shard needs --stones 2"), "{err}");
}

#[test]
fn missing_and_corrupted_template_shards_are_rejected_for_the_right_reason() {
    let d = scratch("tmpl-bad");
    let shards = d.join("shards");
    for i in 1..=3 {
        assert_eq!(template_job(&shards, i, 3).0, 0);
    }
    let merged = d.join("merged");
    let expect = |what: &str, needle: &str| {
        let (code, _, err) = template_merge(&shards, &merged);
        assert_eq!(code, 2, "{what}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{what}: {err}");
        assert!(err.contains(needle), "{what}: {err}");
    };
    let f2 = shards.join("row3s2.shard-2-of-3.json");
    let good = std::fs::read_to_string(&f2).unwrap();
    // Missing shard.
    std::fs::remove_file(&f2).unwrap();
    expect("missing", "1 shard(s) missing: 2/3");
    // Corrupted: a template cell edited (still valid JSON).
    let edited = good.replacen("\"complete\": true", "\"complete\": false", 1);
    assert_ne!(edited, good);
    std::fs::write(&f2, &edited).unwrap();
    expect("edited", "row3s2.shard-2-of-3.json: rejected: bad checksum");
    // Truncated.
    std::fs::write(&f2, &good[..good.len() / 2]).unwrap();
    expect(
        "truncated",
        "row3s2.shard-2-of-3.json: rejected: not a template shard file",
    );
    // Named for another shard.
    std::fs::write(shards.join("row3s2.shard-3-of-3.json"), &good).unwrap();
    std::fs::write(&f2, &good).unwrap();
    expect(
        "renamed",
        "it holds shard 2/3 but is named row3s2.shard-3-of-3.json",
    );
    assert_eq!(template_job(&shards, 3, 3).0, 0);
    // Other parameters: a shard run with another node budget.
    let (code, _, err) = run(&[
        "templates",
        "generate",
        "--row",
        "3",
        "--stones",
        "2",
        "--quiet",
        "--nodes",
        "4000000",
        "--shard",
        "3/3",
        "--dir",
        shards.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    expect("parameters", "differ from");
    assert_eq!(template_job(&shards, 3, 3).0, 0);
    // All present and intact again: the merge succeeds.
    let (code, _, err) = template_merge(&shards, &merged);
    assert_eq!(code, 0, "{err}");
}

/// Frontier job `i/n` of `moves` on 4×4 at depth `k` into `out`.
fn frontier_job(out: &Path, moves: &str, k: usize, i: usize, n: usize) -> (i32, String, String) {
    run(&[
        "solve",
        "--board",
        "4x4",
        "--moves",
        moves,
        "--frontier",
        &k.to_string(),
        "--shard",
        &format!("{i}/{n}"),
        "--out",
        out.to_str().unwrap(),
    ])
}

fn winner_line(out: &str) -> String {
    out.lines()
        .find(|l| l.starts_with("winner:"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

#[test]
fn a_sharded_frontier_combines_to_the_one_process_winner() {
    let mut moves_checked = 0;
    // "a1 b1 a2 b2 a3 (b3)": Black's a4 completes a chain, a terminal leaf at depth 1 or 2.
    for (n, (moves, k)) in [("b2", 1), ("a1 b1 a2 b2 a3", 2), ("a1 b1 a2 b2 a3 b3", 1)]
        .into_iter()
        .enumerate()
    {
        let dir = scratch(&format!("frontier-{n}"));
        for i in 1..=2 {
            let (code, out, err) = frontier_job(&dir, moves, k, i, 2);
            assert_eq!(code, 0, "{err}");
            assert!(
                out.contains(&format!("frontier shard {i}/2 of '{moves}'")),
                "{out}"
            );
        }
        let (code, one, err) = run(&["solve", "--board", "4x4", "--moves", moves]);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = run(&["solve", "--combine", dir.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(winner_line(&out), winner_line(&one), "{moves} k={k}: {out}");
        assert!(out.contains(&format!("at depth {k}")), "{out}");
        if moves.ends_with("a3") || moves.ends_with("b3") {
            assert!(!out.contains(" 0 terminal"), "{out}");
        }
        // A winning first move given is really winning: the one-process solve agrees.
        let Some(mv) = out.lines().find_map(|l| l.strip_prefix("winning move: ")) else {
            assert!(!one.contains("winning move"), "{one}");
            continue;
        };
        moves_checked += 1;
        let (code, after, err) = run(&[
            "solve",
            "--board",
            "4x4",
            "--moves",
            &format!("{moves} {mv}"),
        ]);
        if code == 0 {
            assert_eq!(winner_line(&after), winner_line(&one), "{moves} {mv}");
        } else {
            assert!(err.contains("already won"), "{err}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(moves_checked > 0);
}

#[test]
fn missing_foreign_and_damaged_frontier_files_are_rejected_for_the_right_reason() {
    let dir = scratch("frontier-bad");
    let other = scratch("frontier-other");
    for i in 1..=2 {
        assert_eq!(frontier_job(&dir, "b2", 1, i, 2).0, 0);
    }
    assert_eq!(frontier_job(&other, "c3", 1, 1, 1).0, 0);
    let combine = |d: &Path| run(&["solve", "--combine", d.to_str().unwrap()]);
    assert_eq!(combine(&dir).0, 0);
    let a1 = dir.join("frontier-a1.json");
    let kept = std::fs::read_to_string(&a1).unwrap();
    // Missing: named with its shard.
    std::fs::remove_file(&a1).unwrap();
    let (code, _, err) = combine(&dir);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("1 sub-position(s) missing: 'a1' (shard 1/2)"),
        "{err}"
    );
    // From another root (c3's a1 in b2's folder).
    std::fs::copy(other.join("frontier-a1.json"), &a1).unwrap();
    let (code, _, err) = combine(&dir);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("frontier-a1.json: rejected: from another root"),
        "{err}"
    );
    // Damaged (the winner edited): the checksum fails.
    let flipped = if kept.contains("\"winner\": \"black\"") {
        kept.replace("\"winner\": \"black\"", "\"winner\": \"white\"")
    } else {
        kept.replace("\"winner\": \"white\"", "\"winner\": \"black\"")
    };
    assert_ne!(flipped, kept);
    std::fs::write(&a1, flipped).unwrap();
    let (code, _, err) = combine(&dir);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("frontier-a1.json: rejected: bad checksum"),
        "{err}"
    );
    // Under another line's name.
    std::fs::write(&a1, &kept).unwrap();
    std::fs::rename(dir.join("frontier-d4.json"), dir.join("frontier-d3.json")).ok();
    std::fs::rename(&a1, dir.join("frontier-a9.json")).unwrap();
    let (code, _, err) = combine(&dir);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("but is named frontier-a9.json"), "{err}");
    // Bad depth and --frontier without --out.
    let (code, _, err) = frontier_job(&other, "c3", 3, 1, 1);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("expected 1 ..= 2"), "{err}");
    let (code, _, err) = run(&["solve", "--board", "4x4", "--frontier", "1"]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}
