//! One proof checked as jobs (`check FILE --shard i/n --out DIR`, `check --combine DIR`,
//! docs/cluster.md "One proof as jobs"): the combined counts and exit code equal the
//! one-process `check`, for a sound proof and for one with a broken step, and missing,
//! foreign, edited, misnamed and duplicated shard files are rejected, each named.

use crate::bin::run;
use std::path::{Path, PathBuf};

/// The proof used: 5x5-c4 (its tree `black c4 goto P0 under rot180` and the shared
/// position P0: two parts; 0.4 CPU-s to check).
const PROOF: &str = "proofs/solver/5x5-c4.hexp";

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hexproof-checkshard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn shard(proof: &str, out: &Path, i: usize, n: usize) -> (i32, String, String) {
    run(&[
        "check",
        proof,
        "--shard",
        &format!("{i}/{n}"),
        "--out",
        out.to_str().unwrap(),
    ])
}

/// `(exit code, counts)` of the one-process check.
fn one_process(proof: &str) -> (i32, serde_json::Value) {
    let (code, out, err) = run(&["check", "--json", proof]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
    (code, v["counts"].clone())
}

/// `(exit code, counts)` of the combination.
fn combined(dirs: &[&Path]) -> (i32, serde_json::Value, String) {
    let mut args = vec!["check", "--json"];
    for d in dirs {
        args.push("--combine");
        args.push(d.to_str().unwrap());
    }
    let (code, out, err) = run(&args);
    let counts = serde_json::from_str::<serde_json::Value>(&out)
        .map(|v| v["counts"].clone())
        .unwrap_or(serde_json::Value::Null);
    (code, counts, err)
}

#[test]
fn check_shards_combine_to_the_one_process_verdict() {
    let (code1, counts1) = one_process(PROOF);
    assert_eq!(code1, 0);
    for n in [1, 2, 3] {
        let dir = scratch(&format!("eq{n}"));
        for i in 1..=n {
            let (code, out, err) = shard(PROOF, &dir, i, n);
            assert_eq!(code, 0, "{out}{err}");
            assert!(out.contains(&format!("shard {i}/{n} of {PROOF}")), "{out}");
        }
        let (code, counts, err) = combined(&[&dir]);
        assert_eq!((code, &counts), (code1, &counts1), "{n} shards: {err}");
        // A re-run job (after a kill, or a duplicate) finds its valid file and does nothing.
        let (code, out, _) = shard(PROOF, &dir, 1, n);
        assert_eq!(code, 0);
        assert!(out.contains("already done"), "{out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_broken_step_gives_the_one_process_failing_verdict() {
    let dir = scratch("broken");
    let text = std::fs::read_to_string(PROOF).unwrap();
    // In shared position P0: an OR whose carrier drops a cell of its premises' (s_5's a5).
    let bad = text.replacen(
        "s_6: (b, [a5, b5], b4) VC by OR s_2 s_5",
        "s_6: (b, [b5], b4) VC by OR s_2 s_5",
        1,
    );
    assert_ne!(bad, text);
    let proof = dir.join("broken.hexp");
    std::fs::write(&proof, bad).unwrap();
    let proof = proof.to_str().unwrap();
    let (code1, counts1) = one_process(proof);
    assert_eq!(code1, 1, "{counts1}");
    let out = dir.join("shards");
    for i in 1..=2 {
        assert_eq!(shard(proof, &out, i, 2).0, 0);
    }
    let (code, counts, err) = combined(&[&out]);
    assert_eq!((code, &counts), (code1, &counts1), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_foreign_edited_misnamed_and_duplicated_shard_files_are_rejected() {
    let dir = scratch("reject");
    for i in 1..=2 {
        assert_eq!(shard(PROOF, &dir, i, 2).0, 0);
    }
    let f1 = dir.join("check-shard-1-of-2.json");
    let f2 = dir.join("check-shard-2-of-2.json");
    let keep = std::fs::read_to_string(&f2).unwrap();
    // Missing.
    std::fs::remove_file(&f2).unwrap();
    let (code, _, err) = combined(&[&dir]);
    assert_eq!(code, 2);
    assert!(err.contains("1 shard(s) missing: 2/2"), "{err}");
    // Edited: a verdict flipped (the checksum no longer matches).
    let edited = keep.replacen("\"verified\"", "\"failed\"", 1);
    assert_ne!(edited, keep);
    std::fs::write(&f2, &edited).unwrap();
    let (code, _, err) = combined(&[&dir]);
    assert_eq!(code, 2);
    assert!(
        err.contains("check-shard-2-of-2.json: rejected: bad checksum"),
        "{err}"
    );
    // Misnamed: shard 2's file under another name (and shard 2 then missing).
    std::fs::remove_file(&f2).unwrap();
    let renamed = dir.join("check-shard-3-of-2.json");
    std::fs::write(&renamed, &keep).unwrap();
    let (code, _, err) = combined(&[&dir]);
    assert_eq!(code, 2);
    assert!(
        err.contains("rejected: it holds shard 2/2 but is named check-shard-3-of-2.json"),
        "{err}"
    );
    std::fs::remove_file(&renamed).unwrap();
    std::fs::write(&f2, &keep).unwrap();
    // Foreign: a shard file of another proof (5x5-c2, the same tree unturned).
    let other = scratch("reject-other");
    assert_eq!(shard("proofs/solver/5x5-c2.hexp", &other, 1, 1).0, 0);
    let foreign = other.join("check-shard-1-of-1.json");
    let mixed = scratch("reject-mixed");
    std::fs::copy(&f1, mixed.join("check-shard-1-of-2.json")).unwrap();
    std::fs::copy(&f2, mixed.join("check-shard-2-of-2.json")).unwrap();
    std::fs::copy(&foreign, mixed.join("check-shard-1-of-1.json")).unwrap();
    let (code, _, err) = combined(&[&mixed]);
    assert_eq!(code, 2);
    assert!(
        err.contains("check-shard-1-of-1.json: rejected: it is a check of another proof"),
        "{err}"
    );
    // Duplicated: shard 1 in two folders.
    let copy = scratch("reject-copy");
    std::fs::copy(&f1, copy.join("check-shard-1-of-2.json")).unwrap();
    let (code, _, err) = combined(&[&dir, &copy]);
    assert_eq!(code, 2);
    assert!(err.contains("duplicate shard 1/2"), "{err}");
    assert!(
        err.contains(copy.join("check-shard-1-of-2.json").to_str().unwrap()),
        "{err}"
    );
    // All good again.
    let (code, _, err) = combined(&[&dir]);
    assert_eq!(code, 0, "{err}");
    // Flags.
    let (code, _, err) = run(&[
        "check",
        PROOF,
        "--shard",
        "3/2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&[
        "check",
        PROOF,
        PROOF,
        "--shard",
        "1/2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("one proof FILE"), "{err}");
    for d in [dir, other, mixed, copy] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn shard_jobs_and_the_combiner_speak_json() {
    let dir = scratch("json");
    let out_dir = dir.to_str().unwrap();
    let job = |i: usize| {
        let (code, out, err) = run(&[
            "check",
            PROOF,
            "--shard",
            &format!("{i}/2"),
            "--out",
            out_dir,
            "--json",
        ]);
        let v: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
        (code, v)
    };
    let (code, v) = job(1);
    assert_eq!((code, v["exit_code"].as_i64()), (0, Some(0)), "{v}");
    assert_eq!(v["outcome"], "written", "{v}");
    assert_eq!(v["shard"], "1/2");
    assert_eq!(v["parts_total"], 2);
    assert!(
        v["cpu_seconds"].is_number() && v["steps"].as_u64().unwrap() > 0,
        "{v}"
    );
    assert!(v["file"]
        .as_str()
        .unwrap()
        .ends_with("check-shard-1-of-2.json"));
    let (_, again) = job(1);
    assert_eq!(again["outcome"], "already_done", "{again}");
    assert_eq!(job(2).0, 0);

    let (code, out, err) = run(&["check", "--json", "--combine", out_dir]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
    assert_eq!((code, v["exit_code"].as_i64()), (0, Some(0)), "{v}");
    assert_eq!(v["files"], 2);
    assert_eq!(v["shards"].as_array().map(Vec::len), Some(2), "{v}");
    assert!(v["shards"][0]["cpu_seconds"].is_number(), "{v}");
    assert_eq!(v["temporary"], 0);
    assert_eq!(v["counts"], one_process(PROOF).1);
    let _ = std::fs::remove_dir_all(&dir);
}
