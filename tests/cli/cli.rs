//! The `hexproof` binary: `verify` and `minimize`, exit codes, JSON, and one-line errors on
//! bad input (never a panic). Exit codes: 0 holds, 1 fails, 2 bad input, 3 undecided.

use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn hexproof(args: &[&str]) -> Run {
    let out = crate::bin::output(args);
    Run {
        code: out
            .status
            .code()
            .expect("exited normally (not killed by a signal)"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}

pub(crate) const ZIGGURAT: &[&str] = &[
    "verify",
    "--board",
    "7x7",
    "--black",
    "d5",
    "--carrier",
    "c5 b6 c6 d6 a7 b7 c7 d7",
    "d5 - b",
];

/// The ziggurat without c5: White breaks it.
pub(crate) const BROKEN_ZIGGURAT: &[&str] = &[
    "verify",
    "--board",
    "7x7",
    "--black",
    "d5",
    "--carrier",
    "b6 c6 d6 a7 b7 c7 d7",
    "d5 - b",
];

fn with(base: &[&'static str], extra: &[&'static str]) -> Vec<&'static str> {
    let mut v = base.to_vec();
    let claim = v.pop().unwrap();
    v.extend_from_slice(extra);
    v.push(claim);
    v
}

/// Filters for the parts of the text output that change with the search's speed.
fn stable(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("search:") {
                "search:  [nodes, time]".to_string()
            } else if let Some(i) = l.find("certificate of ") {
                let rest = &l[i + "certificate of ".len()..];
                let j = rest.find(' ').unwrap_or(rest.len());
                format!("{}certificate of [n]{}", &l[..i], &rest[j..])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn verify_ziggurat_holds() {
    let r = hexproof(ZIGGURAT);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(r.stdout.contains("verdict: HOLDS"), "{}", r.stdout);
    assert!(r.stdout.contains("accepted by the kernel"), "{}", r.stdout);
    insta::assert_snapshot!("verify_ziggurat", stable(&r.stdout));
}

#[test]
fn verify_failing_claim_shows_whites_line() {
    let r = hexproof(BROKEN_ZIGGURAT);
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("verdict: FAILS"), "{}", r.stdout);
    let line = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("White's refuting line: "))
        .unwrap_or_else(|| panic!("no refuting line in:\n{}", r.stdout));
    let carrier: Vec<&str> = BROKEN_ZIGGURAT[6].split(' ').collect();
    let moves: Vec<&str> = line.split(", ").collect();
    assert!(!moves.is_empty());
    let mut seen = Vec::new();
    for (k, m) in moves.iter().enumerate() {
        let (colour, cell) = m
            .split_once(' ')
            .unwrap_or_else(|| panic!("bad move '{m}'"));
        assert_eq!(colour, if k % 2 == 0 { "white" } else { "black" }, "{line}");
        assert!(
            carrier.contains(&cell),
            "{cell} is not in the carrier: {line}"
        );
        assert!(!seen.contains(&cell), "{cell} played twice: {line}");
        seen.push(cell);
    }
}

#[test]
fn verify_json() {
    let r = hexproof(&with(ZIGGURAT, &["--json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("stdout is JSON");
    assert_eq!(v["verdict"], "holds");
    assert_eq!(v["kernel_accepted"], true);
    assert_eq!(v["kind"], "VC");
    assert_eq!(v["colour"], "black");
    insta::assert_json_snapshot!("verify_ziggurat_json", v, {
        ".nodes" => "[nodes]",
        ".seconds" => "[seconds]",
        ".version" => "[version]",
        ".certificate_nodes" => "[certificate nodes]",
    });

    let r = hexproof(&with(BROKEN_ZIGGURAT, &["--json"]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("stdout is JSON");
    assert_eq!(v["verdict"], "fails");
    assert_eq!(v["kernel_accepted"], false);
    let line = v["refutation"].as_array().expect("a refutation list");
    assert!(!line.is_empty());
    assert_eq!(line[0]["colour"], "white");
}

#[test]
fn verify_other_forms_of_the_ziggurat() {
    // Noshita's digits (d5 = 45) and a bare board size.
    let r = hexproof(&[
        "verify",
        "--board",
        "7",
        "--notation",
        "digits",
        "--black",
        "45",
        "--carrier",
        "35 26 36 46 17 27 37 47",
        "45 - b",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // For White, transposed: (c, r) ↦ (r, c), b ↦ r.
    let r = hexproof(&[
        "verify",
        "--board",
        "7x7",
        "--for",
        "white",
        "--white",
        "e4",
        "--carrier",
        "e3 f2 f3 f4 g1 g2 g3 g4",
        "e4 - r",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // A semi-connection: the broken ziggurat holds with Black moving first.
    let r = hexproof(&with(BROKEN_ZIGGURAT, &["--first", "black"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

#[test]
fn verify_out_of_budget_is_exit_3() {
    let r = hexproof(&[
        "verify",
        "--board",
        "4x4",
        "--carrier",
        "all",
        "--first",
        "black",
        "--nodes",
        "0",
        "t - b",
    ]);
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("UNDECIDED"), "{}", r.stdout);
}

#[test]
fn help() {
    for args in [
        &["--help"][..],
        &["verify", "--help"],
        &["minimize", "--help"],
    ] {
        let r = hexproof(args);
        assert_eq!(r.code, 0, "{args:?}");
        assert!(r.stdout.contains("Usage:"), "{args:?}");
    }
}

/// Bad input: exit 2, exactly one line on stderr naming the problem, nothing on stdout.
fn assert_bad_input(args: &[&str], mentions: &str) {
    let r = hexproof(args);
    assert!(
        !r.stderr.contains("panicked"),
        "{args:?} panicked:\n{}",
        r.stderr
    );
    assert_eq!(
        r.code, 2,
        "{args:?}: stdout:\n{}\nstderr:\n{}",
        r.stdout, r.stderr
    );
    assert_eq!(
        r.stderr.lines().count(),
        1,
        "{args:?}: not one line:\n{}",
        r.stderr
    );
    assert!(
        r.stderr.starts_with("hexproof: error: "),
        "{args:?}: {}",
        r.stderr
    );
    assert!(
        r.stderr.contains(mentions),
        "{args:?}: '{}' does not mention '{mentions}'",
        r.stderr.trim()
    );
    assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
}

#[test]
fn bad_input_is_a_one_line_error() {
    let v = |board: &'static str,
             black: &'static str,
             white: &'static str,
             carrier: &'static str,
             claim: &'static str| {
        // `--black`/`--white` take several values: keep them before `--carrier`, or the claim
        // would be read as one more stone list.
        let mut a = vec!["verify", "--board", board];
        if !black.is_empty() {
            a.extend(["--black", black]);
        }
        if !white.is_empty() {
            a.extend(["--white", white]);
        }
        a.extend(["--carrier", carrier, claim]);
        a
    };
    // Unknown or off-board cells.
    assert_bad_input(&v("7x7", "z9", "", "c5", "d5 - b"), "z9");
    assert_bad_input(&v("7x7", "d5", "", "h1", "d5 - b"), "h1");
    assert_bad_input(&v("7x7", "d5", "", "c5", "d5 - a8"), "a8");
    assert_bad_input(&v("7x7", "d5", "", "c5", "d5 - q"), "q");
    assert_bad_input(&v("7x7", "é4", "", "c5", "d5 - b"), "é4");
    assert_bad_input(
        &v("7x7", "d99999999999999999999", "", "c5", "d5 - b"),
        "d99999999999999999999",
    );
    // A carrier cell holds a stone.
    assert_bad_input(&v("7x7", "d5", "", "c5 d5", "d5 - b"), "d5");
    assert_bad_input(&v("7x7", "d5", "c5", "c5", "d5 - b"), "c5");
    // Stones overlapping.
    assert_bad_input(&v("7x7", "d4", "d4", "c5", "d4 - b"), "d4");
    // Malformed claims.
    assert_bad_input(&v("7x7", "d4", "", "c5", "d4 b"), "d4 b");
    assert_bad_input(&v("7x7", "d4", "", "c5", "d4 - "), "d4 -");
    assert_bad_input(&v("7x7", "d4", "", "c5", ""), "pair");
    assert_bad_input(&v("7x7", "d4", "", "c5", "d4 - b |"), "pair");
    assert_bad_input(&v("7x7", "d4", "", "c5", "d4 - b - t"), "d4 - b - t");
    assert_bad_input(&v("7x7", "d4", "", "c5", "t -- b"), "t -- b");
    // Endpoints: in the carrier, or the opponent's.
    assert_bad_input(&v("7x7", "d4", "", "c5", "d4 - c5"), "c5");
    assert_bad_input(&v("7x7", "d4", "", "c5", "d4 - l"), "l");
    assert_bad_input(&v("7x7", "d4", "e4", "c5", "e4 - b"), "e4");
    // Borders as stones or carrier cells; a carrier cell twice.
    assert_bad_input(&v("7x7", "t", "", "c5", "t - b"), "t");
    assert_bad_input(&v("7x7", "d4", "", "t", "d4 - b"), "t");
    assert_bad_input(&v("7x7", "d4", "", "c5 c5", "d4 - b"), "c5");
    // Board sizes.
    assert_bad_input(&v("20x20", "d4", "", "c5", "d4 - b"), "20x20");
    assert_bad_input(&v("0x7", "", "", "c5", "t - b"), "0x7");
    assert_bad_input(&v("7x7x7", "", "", "c5", "t - b"), "7x7x7");
    assert_bad_input(&v("huge", "", "", "c5", "t - b"), "huge");
    // A carrier too large for the exact search.
    assert_bad_input(&v("19x19", "", "", "all", "t - b"), "361");
    // Notation.
    assert_bad_input(
        &[
            "verify",
            "--board",
            "7x7",
            "--notation",
            "klingon",
            "--carrier",
            "c5",
            "t - b",
        ],
        "klingon",
    );
    assert_bad_input(
        &[
            "verify",
            "--board",
            "11x11",
            "--notation",
            "digits",
            "--black",
            "44",
            "--carrier",
            "35",
            "44 - b",
        ],
        "44",
    );
    // Colours and budgets.
    assert_bad_input(
        &[
            "verify",
            "--board",
            "7x7",
            "--for",
            "green",
            "--carrier",
            "c5",
            "t - b",
        ],
        "green",
    );
    assert_bad_input(
        &[
            "verify",
            "--board",
            "7x7",
            "--first",
            "nobody",
            "--carrier",
            "c5",
            "t - b",
        ],
        "nobody",
    );
    assert_bad_input(
        &[
            "verify",
            "--board",
            "7x7",
            "--time=-1",
            "--carrier",
            "c5",
            "t - b",
        ],
        "-1",
    );
    assert_bad_input(
        &[
            "verify",
            "--board",
            "7x7",
            "--time",
            "nan",
            "--carrier",
            "c5",
            "t - b",
        ],
        "NaN",
    );
    // minimize shares the checks.
    assert_bad_input(
        &[
            "minimize", "--board", "7x7", "--black", "d4", "--region", "q1", "d4 - b",
        ],
        "q1",
    );
    assert_bad_input(
        &["minimize", "--board", "20x20", "--region", "all", "t - b"],
        "20x20",
    );
}

/// Errors found by the argument parser itself (clap): exit 2, no panic (several lines).
#[test]
fn usage_errors_exit_2() {
    for args in [
        &["verify", "--board", "7x7", "t - b"][..],
        &["verify", "--carrier", "c5"],
        &[
            "verify",
            "--board",
            "7x7",
            "--carrier",
            "c5",
            "--nodes",
            "many",
            "t - b",
        ],
        &["frobnicate"],
        &[],
    ] {
        let r = hexproof(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn minimize_finds_the_ziggurat() {
    // A trapezoid around the ziggurat that does not contain its mirror image (no e5), so the
    // 8-cell carrier is unique.
    let args = [
        "minimize",
        "--board",
        "7x7",
        "--black",
        "d5",
        "--region",
        "b5 c5 a6 b6 c6 d6 e6 a7 b7 c7 d7 e7",
        "d5 - b",
    ];
    let r = hexproof(&args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("carrier: 8 cells: c5 b6 c6 d6 a7 b7 c7 d7"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("status:  minimum"), "{}", r.stdout);

    let mut json = args.to_vec();
    json.insert(1, "--json");
    let r = hexproof(&json);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v["region_verdict"], "holds");
    assert_eq!(v["minimality"], "minimum");
    assert_eq!(v["size"], 8);
    assert_eq!(
        v["carrier"],
        serde_json::json!(["c5", "b6", "c6", "d6", "a7", "b7", "c7", "d7"])
    );
}

#[test]
fn minimize_a_failing_claim_is_exit_1() {
    let r = hexproof(&[
        "minimize",
        "--board",
        "7x7",
        "--black",
        "d5",
        "--region",
        "b6 c6 d6 a7 b7 c7 d7",
        "d5 - b",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
}

/// The examples in `hexproof verify --help` and `hexproof minimize --help` should do what
/// they show: claims that hold. They are read from the help text itself, so the test follows
/// the documentation.
#[test]
fn help_examples_hold() {
    for cmd in ["verify", "minimize"] {
        let help = hexproof(&[cmd, "--help"]).stdout;
        let examples: Vec<&str> = help
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with(&format!("hexproof {cmd} ")))
            .collect();
        assert!(
            !examples.is_empty(),
            "no example in `{cmd} --help`:\n{help}"
        );
        for ex in examples {
            let words = shell_words(ex.trim_start_matches("hexproof "));
            let args: Vec<&str> = words.iter().map(String::as_str).collect();
            let r = hexproof(&args);
            assert_eq!(
                r.code, 0,
                "the `{cmd} --help` example `{ex}` fails:\n{}",
                r.stdout
            );
        }
    }
}

/// Splits a command line on spaces, keeping double-quoted words together.
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for ch in line.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

#[test]
fn verify_writes_the_certificate() {
    let path = std::env::temp_dir().join(format!("hexproof-cert-{}.json", std::process::id()));
    let r = hexproof(&[
        "verify",
        "--board",
        "7x7",
        "--black",
        "d5",
        "--carrier",
        "c5 b6 c6 d6 a7 b7 c7 d7",
        "--certificate",
        path.to_str().unwrap(),
        "d5 - b",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let text = std::fs::read_to_string(&path).expect("the certificate was written");
    let _ = std::fs::remove_file(&path);
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let nodes = v["nodes"].as_array().expect("nodes");
    assert!(!nodes.is_empty());
    let root = v["root"].as_u64().expect("root") as usize;
    assert!(root < nodes.len());
    // Every cell named in the certificate is a carrier cell or the stone.
    let allowed = ["c5", "b6", "c6", "d6", "a7", "b7", "c7", "d7", "d5", "b"];
    for n in nodes {
        for key in ["stones", "carrier"] {
            for c in n[key].as_array().unwrap() {
                assert!(allowed.contains(&c.as_str().unwrap()), "{c}");
            }
        }
    }
}

/// A reader that stops early (`hexproof render … --html - | head`) ends the process quietly,
/// without a panic message on stderr. The page (about 160 kB) is larger than a pipe's buffer,
/// so the writer does meet the closed pipe.
#[test]
fn closed_stdout_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexproof"))
        .args([
            "render",
            "proofs/noshita-7x7-lemmas.hexp",
            "--no-search",
            "--html",
            "-",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_exact(&mut first)
        .expect("some output");
    // The read end is dropped here, as `head -c 16` would close it.
    let out = child.wait_with_output().expect("the process ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}

/// The ziggurat forced through the whole-board engine (`--engine solver`): the claim encoded
/// as a whole-board position, solved, and rebuilt as a certificate the kernel accepts (here
/// from the explainer's derivation: `local::derived`).
#[test]
fn verify_ziggurat_with_the_solver_engine() {
    let r = hexproof(&with(ZIGGURAT, &["--engine", "solver", "--json"]));
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("stdout is JSON");
    assert_eq!(v["verdict"], "holds");
    assert_eq!(v["kernel_accepted"], true);
    assert_eq!(v["engine"], "solver");
    assert!(v["solver"]["derived_leaves"].as_u64().unwrap() >= 1, "{v}");
}
