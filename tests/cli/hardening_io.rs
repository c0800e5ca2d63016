//! Issue 24 (hardening), input surfaces: template records and budgets, the solver's database,
//! CLI budgets, GTP lines, SGF, certificates. Each test pins one item of the issue.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::bin::{run as hexproof, run_in as hexproof_in};

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!(
        "hexproof-hardening-io-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bad_input(args: &[&str]) -> String {
    let (code, out, err) = hexproof(args);
    assert_eq!(code, 2, "{args:?}: exit {code}\n{out}\n{err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.starts_with("hexproof: error:"), "{args:?}: {err}");
    err
}

/// Item 6: non-finite or huge budgets of `templates generate` are bad input or clamped, never
/// a panic in `Duration::from_secs_f64`.
#[test]
fn templates_generate_time_budgets() {
    let dir = scratch("gen-time");
    let d = dir.to_str().unwrap();
    for flag in ["--time", "--max-seconds", "--quick"] {
        for v in ["NaN", "inf", "-inf"] {
            let e = bad_input(&[
                "templates",
                "generate",
                "--row",
                "2",
                "--dir",
                d,
                "--out",
                "x",
                &format!("{flag}={v}"),
            ]);
            assert!(e.contains(flag), "{e}");
        }
    }
    for flag in ["--time", "--max-seconds"] {
        let (code, out, err) = hexproof(&[
            "templates",
            "generate",
            "--row",
            "2",
            "--quiet",
            "--dir",
            d,
            "--out",
            &flag[2..],
            flag,
            "1e300",
        ]);
        assert_eq!(code, 0, "{flag} 1e300: {out}\n{err}");
    }
}

/// Item 9: thread counts are capped like `bid`'s; `bid` has a time budget that ends in
/// "undecided" (exit 3) for huge sample counts and for `--exact` on 32 empty cells.
#[test]
fn thread_caps_and_bid_budgets() {
    let e = bad_input(&[
        "solve",
        "--board",
        "3x3",
        "--threads",
        "18446744073709551615",
    ]);
    assert!(e.contains("256"), "{e}");
    let started = std::time::Instant::now();
    for position in [
        &["--board", "5x5", "--samples", "18446744073709551615"][..],
        &["--board", "6x6", "--moves", "a1 f6 a6 f1", "--exact"][..],
    ] {
        let mut args = vec!["bid", "--time", "0.5", "--threads", "2"];
        args.extend_from_slice(position);
        let (code, out, err) = hexproof(&args);
        assert_eq!(code, 3, "{args:?}: {out}\n{err}");
        assert!(out.contains("undecided"), "{out}");
    }
    assert!(
        started.elapsed().as_secs() < 30,
        "the budgets were not honoured"
    );
    for t in ["0", "NaN", "inf"] {
        bad_input(&["bid", "--board", "3x3", "--time", t]);
    }
}

/// `hexproof gtp` fed by `write` (on its own thread, so that a large input cannot block on
/// a full output pipe).
fn gtp_session(
    write: impl FnOnce(&mut std::process::ChildStdin) + Send + 'static,
) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexproof"))
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || write(&mut stdin));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Item 10: a GTP line over the cap gets a `?` reply and the engine keeps serving; memory
/// stays bounded (the line is skipped, not stored).
#[test]
fn gtp_long_line_is_refused_and_serving_goes_on() {
    let out = gtp_session(|stdin| {
        stdin.write_all(b"1 name\n7 play b ").unwrap();
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..20 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin.write_all(b"\n3 name\nquit\n").unwrap();
    });
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("=1 hexproof\n\n"), "{text}");
    assert!(text.contains("?7 line too long"), "{text}");
    assert!(text.contains("=3 hexproof\n\n"), "{text}");
    assert_eq!(out.status.code(), Some(0));
}

/// Item 12: `minimize` out of budget says undecided (exit 3), not "does not hold".
#[test]
fn minimize_undecided_is_not_fails() {
    let (code, out, err) = hexproof(&[
        "minimize", "--board", "5x5", "--region", "all", "--nodes", "10", "t - b",
    ]);
    assert_eq!(code, 3, "{out}\n{err}");
    assert!(out.contains("UNDECIDED"), "{out}");
    assert!(!out.contains("does not hold"), "{out}");
}

/// Item 13: a pair joining an endpoint to itself is bad input for `verify` (as for `check`);
/// a stone listed twice is bad input, as a carrier cell listed twice is.
#[test]
fn verify_rejects_self_pairs_and_repeated_stones() {
    let e = bad_input(&["verify", "--board", "7x7", "--carrier", "c5 b6", "t - t"]);
    assert!(e.contains("itself"), "{e}");
    for (stones, carrier) in [
        (&["--black", "d5 d5"][..], "c6 d6"),
        (&["--black", "d5", "--black", "d5"][..], "c6 d6"),
        (&["--black", "d5"][..], "c6 d6 c6"),
    ] {
        let mut args = vec!["verify", "--board", "7x7", "--carrier", carrier, "d5 - b"];
        args.extend_from_slice(stones);
        let e = bad_input(&args);
        assert!(e.contains("twice"), "{args:?}: {e}");
    }
    // `check` agrees on the self-pair.
    let dir = scratch("self-pair");
    let f = dir.join("p.hexp");
    std::fs::write(
        &f,
        "board 3x3\nlemma self \"x\" {\n  diagram {\n    * * .\n     . . .\n      . . .\n  }\n  claim t - t\n}\n",
    )
    .unwrap();
    let (code, out, err) = hexproof(&["check", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}\n{err}");
}

/// Item 17: an SGF swap anywhere but White's second move is an error, not a silently
/// shortened game.
#[test]
fn sgf_late_swap_is_rejected() {
    let dir = scratch("sgf");
    let f = dir.join("late.sgf");
    std::fs::write(&f, "(;GM[11]SZ[5];B[a1];W[b2];B[c3];W[swap-pieces];B[d4])").unwrap();
    let cmd = format!("1 loadsgf {}\n2 showboard\nquit\n", f.display());
    let out = gtp_session(move |stdin| stdin.write_all(cmd.as_bytes()).unwrap());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("?1 "), "{text}");
    assert!(text.contains("swap"), "{text}");
    let ok = hexproof::sgf::read("(;GM[11]SZ[5];B[a1];W[swap-pieces];B[d4])", None).unwrap();
    assert_eq!(ok.moves().len(), 1, "a true swap-pieces becomes setup");
    assert!(hexproof::sgf::read(
        "(;GM[11]SZ[5];B[a1];W[b2];B[c3];W[swap-pieces];B[d4])",
        None
    )
    .is_err());
}

/// Item 7: a damaged `--db` file is a clear error (exit 2) or ignored, never a panic or a
/// wrong answer; a tampered record (a flipped winner) fails its checksum and is not trusted.
#[test]
fn damaged_or_tampered_db() {
    use redb::{ReadableTable, TableDefinition};
    let dir = scratch("db");
    let db = dir.join("solved.db");
    let db_s = db.to_str().unwrap();
    let solve =
        |path: &str| hexproof(&["solve", "--board", "4x4", "--db", path, "--db-stones", "16"]);
    let (code, out, err) = solve(db_s);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("winner:  Black"), "{out}");
    let bytes = std::fs::read(&db).unwrap();
    // Truncated: a clear error.
    let t = dir.join("truncated.db");
    std::fs::write(&t, &bytes[..bytes.len() / 2]).unwrap();
    let (code, out, err) = solve(t.to_str().unwrap());
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(err.starts_with("hexproof: error: database"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // Bit flips anywhere: an error or the right answer, never a panic.
    for k in 0..24 {
        let mut b = bytes.clone();
        let at = (k * 7919 + 13) % b.len().min(1 << 16);
        b[at] ^= 0x10;
        let f = dir.join(format!("flip{k}.db"));
        std::fs::write(&f, &b).unwrap();
        let (code, out, err) = solve(f.to_str().unwrap());
        assert!(
            code == 0 || code == 2,
            "flip at {at}: exit {code}\n{out}\n{err}"
        );
        assert!(!err.contains("panicked"), "flip at {at}: {err}");
        if code == 0 {
            assert!(out.contains("winner:  Black"), "flip at {at}: {out}");
        }
    }
    // Tampered values: every stored winner flipped, checksums left as they were.
    const SOLVED: TableDefinition<&[u8], &[u8]> = TableDefinition::new("solved-v2");
    {
        let rdb = redb::Database::create(&db).unwrap();
        let tx = rdb.begin_write().unwrap();
        {
            let mut t = tx.open_table(SOLVED).unwrap();
            let all: Vec<(Vec<u8>, Vec<u8>)> = t
                .iter()
                .unwrap()
                .map(|e| {
                    let (k, v) = e.unwrap();
                    (k.value().to_vec(), v.value().to_vec())
                })
                .collect();
            assert!(!all.is_empty());
            for (k, mut v) in all {
                v[0] ^= 1;
                t.insert(k.as_slice(), v.as_slice()).unwrap();
            }
        }
        tx.commit().unwrap();
    }
    // A record of the first format (no checksum) is never read, only counted.
    const LEGACY: TableDefinition<&[u8], &[u8]> = TableDefinition::new("solved");
    {
        let rdb = redb::Database::create(&db).unwrap();
        let tx = rdb.begin_write().unwrap();
        tx.open_table(LEGACY)
            .unwrap()
            .insert(&b"\x04\x04\x00BW"[..], &[0u8][..])
            .unwrap();
        tx.commit().unwrap();
    }
    let opened = hexproof::dfpn::db::SolvedDb::open(&db, 16).unwrap();
    assert!(opened.bad_records > 0);
    assert_eq!(opened.legacy_records, 1);
    drop(opened);
    let (code, out, err) = solve(db_s);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("winner:  Black"), "{out}");
    assert!(err.contains("fail their checksum"), "{err}");
}

/// A copy of the shipped row files (no lemma file) in a scratch directory, with `edit`
/// applied to row3.json's first record (III1a).
fn library_copy(name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> std::path::PathBuf {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let dir = scratch(name);
    for f in ["row2.json", "row3.json", "row4.json"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let path = dir.join("row3.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["templates"][0]["name"], "III1a");
    edit(&mut v["templates"][0]);
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    dir
}

/// A named edit of a library record.
type Edit = (&'static str, fn(&mut serde_json::Value));

/// `templates match` of Black e7 on 9x9 (III1a and III1b to the bottom edge).
const MATCH_E7: [&str; 6] = ["templates", "match", "--board", "9x9", "--moves", "e7"];

/// Item 8: malformed records are bad input naming file and record; `match` ignores a record
/// whose digest does not match (an edited record is never reported as a template).
#[test]
fn template_records_are_validated() {
    let edits: [Edit; 4] = [
        ("no-stones", |t| t["stones"] = serde_json::json!([])),
        ("huge-cell", |t| {
            t["carrier"][0][1] = (-2147483648i64).into()
        }),
        ("huge-stone", |t| {
            t["stones"][0][0] = (-2147483648i64).into()
        }),
        ("bad-root", |t| t["certificate"]["root"] = 100000.into()),
    ];
    for (what, edit) in edits {
        let dir = library_copy(what, edit);
        let d = dir.to_str().unwrap();
        for args in [
            vec!["templates", "list", "--dir", d],
            vec!["templates", "show", "III1a", "--dir", d],
            [&MATCH_E7[..], &["--dir", d]].concat(),
            vec!["templates", "verify", "--dir", d],
        ] {
            let e = bad_input(&args);
            assert!(e.contains("row3.json: record 1 (\"III1a\")"), "{what}: {e}");
        }
    }
    // An edited record (one carrier cell dropped, digest kept): not matched.
    let dir = library_copy("edited", |t| {
        t["carrier"].as_array_mut().unwrap().pop();
    });
    let (code, out, err) = hexproof(&[&MATCH_E7[..], &["--dir", dir.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("III1a"), "{out}");
    assert!(out.contains("III1b"), "{out}");
    assert!(err.contains("III1a: digest mismatch"), "{err}");
    let (_, out, _) = hexproof(&MATCH_E7);
    assert!(out.contains("black III1a e7 - b"), "{out}");
}

/// Item 20: list/show/match/verify read the built-in library from any directory; `generate`
/// writes to `generated/` by default and never replaces a file without --force.
#[test]
fn builtin_library_and_generate_output() {
    let elsewhere = scratch("anywhere");
    let run_in = hexproof_in;
    for (args, expect) in [
        (&["templates", "show", "III1a"][..], "III1a: row 3"),
        (&["templates", "list"][..], "templates/row5.json"),
        (&MATCH_E7[..], "black III1a e7 - b"),
        (&["templates", "verify"][..], " 0 failed"),
    ] {
        let (code, out, err) = run_in(&elsewhere, args);
        assert_eq!(code, 0, "{args:?}: {out}\n{err}");
        assert!(out.contains(expect), "{args:?}: {out}");
    }
    // generate: default output generated/row2.json; a second run is refused without --force.
    let generate = ["templates", "generate", "--row", "2", "--quiet"];
    let (code, out, err) = run_in(&elsewhere, &generate);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(elsewhere.join("generated/row2.json").is_file());
    let before = std::fs::read(elsewhere.join("generated/row2.json")).unwrap();
    let (code, _, err) = run_in(&elsewhere, &generate);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--force"), "{err}");
    let (code, out, err) = run_in(&elsewhere, &[&generate[..], &["--force"]].concat());
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        std::fs::read(elsewhere.join("generated/row2.json"))
            .unwrap()
            .len(),
        before.len()
    );
    // The shipped library is refused too.
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let into_shipped = [&generate[..], &["--dir", shipped.to_str().unwrap()]].concat();
    let (code, _, err) = run_in(&elsewhere, &into_shipped);
    assert_eq!(code, 2, "{err}");
}

/// Item 14: `verify --time` bounds the whole command, the certificate rebuild after the
/// solver's win included (before: over a minute with `--time 3` here); out of time is
/// undecided, exit 3.
#[test]
fn verify_time_covers_the_certificate_rebuild() {
    let started = std::time::Instant::now();
    let (code, out, err) = hexproof(&[
        "verify",
        "--board",
        "7x7",
        "--black",
        "d4",
        "--carrier",
        "all",
        "--time",
        "3",
        "--nodes",
        "100000000",
        "--engine",
        "solver",
        "t - b",
    ]);
    let secs = started.elapsed().as_secs_f64();
    assert!(code == 3 || code == 0, "exit {code}\n{out}\n{err}");
    assert!(secs < 15.0, "--time 3 took {secs:.1} s\n{out}");
    if code == 3 {
        assert!(out.contains("UNDECIDED"), "{out}");
    }
}

/// Item 19: `certificate check` re-checks a `verify --certificate` file with the kernel alone:
/// accepted (0) as written; rejected (1) with a changed reply, a removed node or a changed
/// claim; bad input (2) for a file that is not a certificate.
#[test]
fn certificate_check_accepts_and_rejects() {
    let dir = scratch("cert");
    let cert = dir.join("d5.json");
    let (code, out, err) = hexproof(&[
        "verify",
        "--board",
        "7x7",
        "--black",
        "d5",
        "--carrier",
        "c5 b6 c6 d6 a7 b7 c7 d7",
        "--certificate",
        cert.to_str().unwrap(),
        "d5 - b",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let check = |v: &serde_json::Value, name: &str| {
        let f = dir.join(name);
        std::fs::write(&f, serde_json::to_string_pretty(v).unwrap()).unwrap();
        hexproof(&["certificate", "check", f.to_str().unwrap()])
    };
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    let (code, out, err) = check(&v, "same.json");
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("ACCEPTED") && out.contains("d5 - b"), "{out}");
    let (code, out, _) = hexproof(&["certificate", "check", "--json", cert.to_str().unwrap()]);
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["verdict"], "accepted");
    assert_eq!(j["exit_code"], 0);

    // A changed reply: every or-node's first reply moved to another carrier cell.
    let root = v["root"].as_u64().unwrap() as usize;
    let mut changed = v.clone();
    {
        let nodes = changed["nodes"].as_array_mut().unwrap();
        let or = nodes[root]["or"]
            .as_array_mut()
            .expect("the root is an or-node");
        let r = or[0]["reply"].as_str().unwrap().to_string();
        let other = ["c5", "b6", "c6", "d6", "a7", "b7", "c7", "d7"]
            .into_iter()
            .find(|c| *c != r)
            .unwrap();
        or[0]["reply"] = other.into();
    }
    let (code, out, err) = check(&changed, "reply.json");
    assert_eq!(code, 1, "changed reply: {out}\n{err}");
    assert!(out.contains("REJECTED"), "{out}");
    // A removed node (the first: every reference now points one node off or dangles).
    let mut removed = v.clone();
    removed["nodes"].as_array_mut().unwrap().remove(0);
    let (code, out, err) = check(&removed, "removed.json");
    assert_eq!(code, 1, "removed node: {out}\n{err}");
    // A wrong claim: the same strategy for a different pair.
    let mut claim = v.clone();
    claim["claim"] = "d5 - t".into();
    let (code, out, err) = check(&claim, "claim.json");
    assert_eq!(code, 1, "wrong claim: {out}\n{err}");
    // A smaller carrier than the strategy uses.
    let mut carrier = v.clone();
    carrier["carrier"].as_array_mut().unwrap().pop();
    let (code, out, err) = check(&carrier, "carrier.json");
    assert_eq!(code, 1, "smaller carrier: {out}\n{err}");
    // A White stone on a carrier cell: the game itself is not valid.
    let mut stone = v.clone();
    stone["white"] = serde_json::json!(["c6"]);
    let (code, out, err) = check(&stone, "stone.json");
    assert!(
        code == 1 || code == 2,
        "white stone in the carrier: {out}\n{err}"
    );
    // Bad input.
    let mut bad = v.clone();
    bad["nodes"][0]["stones"] = serde_json::json!(["z99"]);
    let (code, _, err) = check(&bad, "badcell.json");
    assert_eq!(code, 2, "{err}");
    let mut noformat = v.clone();
    noformat.as_object_mut().unwrap().remove("format");
    assert_eq!(check(&noformat, "noformat.json").0, 2);
    bad_input(&["certificate", "check", "/nonexistent/cert.json"]);
    bad_input(&["certificate", "check", dir.to_str().unwrap()]);

    // A template library file: accepted as shipped; a record with a reply changed is rejected
    // (by its digest first, as `templates verify` does).
    let (code, out, err) = hexproof(&["certificate", "check", "templates/row3.json"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let lib = library_copy("cert-lib", |t| {
        let nodes = t["certificate"]["nodes"].as_array_mut().unwrap();
        let n = nodes.iter_mut().find(|n| n.get("or").is_some()).unwrap();
        let r = &mut n["or"][0][0];
        *r = ((r.as_u64().unwrap() + 1) % 8).into();
    });
    let (code, out, err) = hexproof(&[
        "certificate",
        "check",
        lib.join("row3.json").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("REJECTED — III1a"), "{out}");
}

/// A fresh scratch folder for the certificate-file tests.
fn cert_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `v` as `dir/name` and runs `hexproof certificate check` on it.
fn check_cert_file(
    dir: &std::path::Path,
    v: &serde_json::Value,
    name: &str,
) -> (i32, String, String) {
    let f = dir.join(name);
    std::fs::write(&f, serde_json::to_string_pretty(v).unwrap()).unwrap();
    hexproof(&["certificate", "check", f.to_str().unwrap()])
}

/// The 3x3 certificate of the two tests below: Black b1 and a3, the claim `b1 - b` over a2,
/// b2, proved by an and-node over Black's two replies; every node but the root states the goal
/// `b1 - a3` with the extra goal field `field` (`"either"`: a union, `"with"`: a
/// conjunction) set to `value`.
fn three_by_three_cert(version: u32, field: &str, value: serde_json::Value) -> serde_json::Value {
    let node = |id: u32, stones: &[&str], carrier: &[&str], kind: serde_json::Value| {
        let mut v = serde_json::json!({
            "id": id, "stones": stones, "carrier": carrier, "goal": ["b1", "a3"],
        });
        v[field] = value.clone();
        for (k, x) in kind.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    serde_json::json!({
        "format": "hexproof-certificate",
        "version": version,
        "board": "3x3",
        "notation": "letters",
        "black": ["b1", "a3"],
        "white": [],
        "carrier": ["a2", "b2"],
        "claim": "b1 - b",
        "owner": "black",
        "owner_first": false,
        "first": null,
        "root": 3,
        "nodes": [
            node(0, &["a2"], &[], serde_json::json!({"joined": true})),
            node(1, &["b2"], &[], serde_json::json!({"joined": true})),
            node(2, &[], &["a2", "b2"], serde_json::json!({"or": [
                {"reply": "a2", "next": 0}, {"reply": "b2", "next": 1}]})),
            {"id": 3, "stones": [], "carrier": ["a2", "b2"], "and": [2]},
        ],
    })
}

/// Union goals in a certificate file (version 2, `"either"`, kernel condition 6): a 3×3
/// bridge b1–a3 whose goal is the union `b1 - a3 | b1 - b` under an and-node for `b1 - b`.
/// Accepted as written; a union pair that does not link (`b1 - t`: b1 is on the top row
/// already, so that choice leaves the bottom unjoined) is rejected by condition 6, which shows the field is read; the same file as version 1
/// is bad input (an old reader would take the union for its first pair).
#[test]
fn certificate_check_reads_union_goals() {
    let dir = cert_dir("cert-union");
    let cert = three_by_three_cert(2, "either", serde_json::json!([["b1", "b"]]));
    let check = |v: &serde_json::Value, name: &str| check_cert_file(&dir, v, name);
    let (code, out, err) = check(&cert, "union.json");
    assert_eq!(code, 0, "{out}\n{err}");
    let mut wrong = cert.clone();
    for n in wrong["nodes"].as_array_mut().unwrap().iter_mut().take(3) {
        n["either"] = serde_json::json!([["b1", "t"]]);
    }
    let (code, out, err) = check(&wrong, "wrong.json");
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("REJECTED"), "{out}");
    let mut old = cert.clone();
    old["version"] = 1.into();
    let (code, out, err) = check(&old, "v1.json");
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(err.contains("needs version 2"), "{err}");
}

/// Version 3 certificate files (conjunctive goals, kernel condition 8): on 3x3 with Black b1
/// and a3, the claim `b1 - b` over a2, b2 is proved by an and-node whose one child states
/// the conjunction `b1 - a3 & a3 - b` (`"with"`). Accepted; a mutant whose conjunction asks
/// `c2 - b` (a Black stone added on c2) instead is rejected by the kernel; the same file as version 2 is bad input (a
/// conjunction is never read as its first pair alone).
#[test]
fn certificate_check_reads_conjunctive_goals() {
    let dir = cert_dir("cert-conj");
    let cert = three_by_three_cert(3, "with", serde_json::json!([[["a3", "b"]]]));
    let check = |v: &serde_json::Value, name: &str| check_cert_file(&dir, v, name);
    let (code, out, err) = check(&cert, "conj.json");
    assert_eq!(code, 0, "{out}\n{err}");
    // Mutant: a Black stone on c2 and the conjunction `b1 - a3 & c2 - b`, whose second pair
    // the strategy does not join after Black's a2 (c2 touches the bottom only through b2).
    let mut wrong = cert.clone();
    wrong["black"] = serde_json::json!(["b1", "a3", "c2"]);
    for n in wrong["nodes"].as_array_mut().unwrap().iter_mut().take(3) {
        n["with"] = serde_json::json!([[["c2", "b"]]]);
    }
    let (code, out, err) = check(&wrong, "wrong.json");
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("REJECTED"), "{out}");
    let mut old = cert.clone();
    old["version"] = 2.into();
    let (code, out, err) = check(&old, "v2.json");
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(err.contains("needs version 3"), "{err}");
}
