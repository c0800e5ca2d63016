//! Issue 24, the proof-language surface: hostile or odd input to `check`/`render` ends in a
//! clear message and an honest exit code, never a panic, a hang or unbounded memory.

use hexproof::check::report::StepVerdict;
use hexproof::check::{check_source, Checked, Options};
use hexproof::local::Budget;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn hexproof(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexproof"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hexproof-hardening-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn small() -> Options {
    Options {
        budget: Budget::nodes(100_000),
        confirm: Budget::nodes(100_000),
        search_rule_steps: true,
    }
}

fn run(src: &str) -> Checked {
    check_source("t.hexp", src, &small())
}

// ---------------------------------------------------------------------------------------------
// Item 1: deep nesting behind a `"` in a diagram body.

fn deep_after_quote_in_diagram(levels: usize) -> String {
    format!(
        "board 5x5\nlemma a {{ diagram {{ \" }} proof {{ {}{} }} }}\n",
        "white { case a1 => black b1 { ".repeat(levels),
        "} }".repeat(levels)
    )
}

#[test]
fn nesting_behind_a_quote_in_a_diagram_is_refused_with_a_location() {
    let dir = scratch("deep");
    for text in [
        deep_after_quote_in_diagram(2000),
        // A `//` inside the diagram hides a `}` from the grammar, not from the count.
        format!(
            "board 5x5\nlemma a {{ diagram {{ // }} \"\n }} proof {{ {}{} }} }}\n",
            "white { case a1 => black b1 { ".repeat(2000),
            "} }".repeat(2000)
        ),
        format!(
            "board 5x5\nstrategy {{ {}{} }}\n",
            "black a1 { ".repeat(3000),
            "}".repeat(3000)
        ),
    ] {
        let f = write(&dir, "deep.hexp", &text);
        let (code, out, err) = hexproof(&["check", &f]);
        let short = |t: &str| t.chars().take(2000).collect::<String>();
        assert_eq!(code, 2, "{}{}", short(&out), short(&err));
        assert!(out.contains("nested more than 64 deep"), "{}", short(&out));
        assert!(
            out.contains("deep.hexp:2:") || out.contains("deep.hexp:3:"),
            "{}",
            short(&out)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Item 2: a diagnostic far to the right.

#[test]
fn a_diagnostic_past_column_65535_does_not_panic() {
    let dir = scratch("column");
    let f = write(
        &dir,
        "wide.hexp",
        &format!("board 5x5\n{}?\n", " ".repeat(70_000)),
    );
    for args in [
        vec!["check", f.as_str()],
        vec!["check", "--json", f.as_str()],
        vec!["render", "--json", f.as_str()],
    ] {
        let (code, out, err) = hexproof(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        let all = format!("{out}{err}");
        assert!(all.contains("wide.hexp:2:70001"), "{args:?}: {all}");
        assert!(all.len() < 20_000, "{args:?}: {} bytes", all.len());
    }
}

// ---------------------------------------------------------------------------------------------
// Item 3: a carrier repeating one cell.

#[test]
fn a_carrier_repeating_one_cell_is_reported_once() {
    let src = format!(
        "board 5x5\nderive {{\n  t - b on [{}] by search\n}}\n",
        " a1".repeat(10_000)
    );
    let t = Instant::now();
    let c = run(&src);
    let human = c.human();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(human.len() < 20_000, "{} bytes", human.len());
    let s = &c.report.files[0].blocks[0].steps[0];
    assert_eq!(s.verdict, StepVerdict::Failed);
    let places: usize = s.reasons.iter().map(|r| r.places.len()).sum();
    assert!(places <= 3, "{places} places");
    assert!(human.contains("a1 again"), "{human}");
}

#[test]
fn ten_thousand_repeated_errors_are_capped() {
    let src = format!(
        "board 5x5\nblack a1{}\nderive {{ }}\n",
        ", a1".repeat(10_000)
    );
    let c = run(&src);
    assert_eq!(c.report.exit_code, 2);
    let errors = &c.report.files[0].errors;
    assert_eq!(errors.len(), hexproof::dsl::load::MAX_ERRORS_PER_FILE + 1);
    assert!(errors.last().unwrap().message.contains("9950 more errors"));
    assert!(c.human().len() < 1_000_000, "{} bytes", c.human().len());
}

// ---------------------------------------------------------------------------------------------
// Items 4 and 5: reading files.

#[test]
fn check_refuses_what_is_not_a_regular_file() {
    let (code, out, _) = hexproof(&["check", "/dev/zero"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("not a regular file"), "{out}");
    let dir = scratch("notregular");
    let (code, out, _) = hexproof(&["check", &dir.display().to_string()]);
    assert_eq!(code, 2, "{out}");
}

#[test]
fn use_refuses_devices_fifos_and_files_that_are_not_proofs() {
    let dir = scratch("use");
    let fifo = dir.join("pipe.hexp");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    let secret = write(&dir, "secret.txt", "root:x:0:0:SECRET-LINE\n");
    let secret_hexp = write(&dir, "secret.hexp", "SECRET-LINE=1\nboard 5x5\n");
    for (target, why) in [
        ("/dev/zero".to_string(), ".hexp"),
        (fifo.display().to_string(), "not a regular file"),
        (secret, ".hexp"),
        (secret_hexp, "not a proof file"),
    ] {
        let f = write(
            &dir,
            "main.hexp",
            &format!("board 5x5\nuse \"{target}\"\nderive {{ }}\n"),
        );
        let start = Instant::now();
        let (code, out, err) = hexproof(&["check", &f]);
        assert!(start.elapsed() < Duration::from_secs(20), "{target}");
        assert_eq!(code, 2, "{target}: {out}{err}");
        assert!(out.contains(why), "{target}: {out}");
        assert!(out.contains("main.hexp:2:"), "{target}: {out}");
        assert!(!out.contains("SECRET"), "{target}: {out}");
    }
}

#[test]
fn a_file_over_the_size_limit_is_refused_without_reading_it_all() {
    let dir = scratch("big");
    let p = dir.join("big.hexp");
    let f = std::fs::File::create(&p).unwrap();
    f.set_len(hexproof::dsl::load::MAX_FILE_BYTES + 1).unwrap();
    let (code, out, _) = hexproof(&["check", &p.display().to_string()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("larger than"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// Item 11: a budget-bound tree is undecided, not failed.

#[test]
fn a_tree_short_of_budget_is_undecided_and_names_the_step() {
    let (code, out, _) = hexproof(&[
        "check",
        "--nodes",
        "100",
        "proofs/examples/hex4-corner.hexp",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(!out.contains("FAILED"), "{out}");
    assert!(out.contains("0 failed"), "{out}");
    assert!(
        out.contains("hex4-corner.hexp:39:7") && out.contains("more budget"),
        "{out}"
    );
}

// ---------------------------------------------------------------------------------------------
// Item 15: where and how failures are shown.

#[test]
fn a_premise_resting_on_a_failed_step_points_at_that_step() {
    let src = "board 5x5\nderive {\n  black c3 as x\n  a: (x, [], b) VC by search\n  (x, [a5], b) VC by mono a\n}\n";
    let c = run(src);
    let s = &c.report.files[0].blocks[0].steps[1];
    assert_eq!(s.verdict, StepVerdict::Failed);
    let r = s
        .reasons
        .iter()
        .find(|r| r.message.contains("rests on the step"))
        .unwrap_or_else(|| panic!("{}", c.human()));
    assert!(r.message.contains("line 4"), "{}", r.message);
    assert!(r.places.iter().any(|p| p.at.line == 4), "{:?}", r.places);
}

#[test]
fn a_conjunction_that_no_lemma_matches_is_written_with_ampersands() {
    let src = "board 9x9\nlemma two {\n  black b3 as x, f3 as y\n  claim x - a5 & y - e5 on [a4, b4, e4, f4]\n}\nderive {\n  black b3 as p, f3 as q\n  p - a5 & q - d9 on [a4, b4, e4, f4] by two\n}\n";
    let c = run(src);
    let s = &c.report.files[0].blocks[1].steps[0];
    assert_eq!(s.verdict, StepVerdict::Failed, "{}", c.human());
    let m: Vec<&str> = s.reasons.iter().map(|r| r.message.as_str()).collect();
    assert!(
        m.iter()
            .any(|m| m.contains("x - a5 & y - e5") && m.contains("p - a5 & q - d9")),
        "{m:?}"
    );
    assert!(!m.iter().any(|m| m.contains(" | ")), "{m:?}");
}

#[test]
fn a_failing_lemma_steps_underline_stays_on_its_line() {
    let src = "board 5x5\nlemma bridge {\n  diagram {\n    x * . . .\n     * A . . .\n      . . . . .\n       . . . . .\n        . . . . .\n  }\n  claim x - A\n}\nderive {\n  black c3 as p, c4 as q\n  (p, [b4], q) VC by bridge  // a comment\n  (p, [b4], q) VC by bridge\n}\n";
    let c = run(src);
    let human = c.human();
    let s = &c.report.files[0].blocks[1].steps[0];
    assert_eq!(s.verdict, StepVerdict::Failed, "{human}");
    for r in &s.reasons {
        for p in &r.places {
            let text = &src[p.span.start..p.span.end];
            assert!(!text.contains('\n') && !text.contains("//"), "{text:?}");
        }
    }
    assert!(!human.contains("╭─▶"), "{human}");
}

// ---------------------------------------------------------------------------------------------
// Item 16: the same lemma name from two used files.

#[test]
fn two_used_files_defining_one_lemma_name_are_an_error_with_both_places() {
    let dir = scratch("clash");
    let lemma = "lemma bridge {\n  black a1 as x\n  claim x - b2 on [b1, a2]\n}\n";
    write(&dir, "a.hexp", &format!("board 5x5\n{lemma}"));
    write(&dir, "b.hexp", &format!("board 5x5\n\n{lemma}"));
    // One file used through two paths is not a clash.
    write(&dir, "c.hexp", "board 5x5\nuse \"a.hexp\"\n");
    // A file using `first` and `second`, with one step of its own.
    let using = |name: &str, first: &str, second: &str| {
        let text = format!(
            "board 5x5\nuse \"{first}\"\nuse \"{second}\"\nderive {{\n  black c4 as x\n  (x, [b5, c5], b) VC by search\n}}\n"
        );
        hexproof(&["check", &write(&dir, name, &text)])
    };
    let (code, out, _) = using("main.hexp", "a.hexp", "b.hexp");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("hexp::duplicate-lemma"), "{out}");
    assert!(
        out.contains("a.hexp:2:7") && out.contains("b.hexp:3:7"),
        "{out}"
    );
    let (code, out, _) = using("fine.hexp", "a.hexp", "c.hexp");
    assert_eq!(code, 0, "{out}");
}

// ---------------------------------------------------------------------------------------------
// Item 18: library lemmas are not proof steps.

#[test]
fn library_templates_are_not_counted_as_steps() {
    let src = "board 7x7\nuse templates\nderive {\n  black d5 as x\n  x - b on [a5, b5, c5, e5, f5, g5, a6, b6, c6, d6, e6, f6, g6, a7, b7, c7, d7, e7, f7, g7] by III1a\n  (x, [c6, d6], c7) VC by search\n  (c7, [], b) VC by search\n}\n";
    let c = run(src);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    assert_eq!(c.report.counts.steps, 3, "{:?}", c.report.counts);
    let human = c.human();
    assert!(human.contains("3 step(s): 3 verified"), "{human}");
    assert!(!human.contains("lemma IV1a"), "{human}");
}

// ---------------------------------------------------------------------------------------------
// Item 23 (part): names.

#[test]
fn an_unknown_lemma_name_gets_a_suggestion() {
    let src = "board 5x5\nlemma bridge {\n  black a1 as x\n  claim x - b2 on [b1, a2]\n}\nderive {\n  black c3 as p, d4 as q\n  (p, [d3, c4], q) VC by brigde\n}\n";
    let c = run(src);
    assert_eq!(c.report.exit_code, 2);
    let e = &c.report.files[0].errors[0];
    assert_eq!(e.code, "hexp::unknown-lemma");
    assert!(
        e.rendered.contains("did you mean `bridge`"),
        "{}",
        e.rendered
    );
}

#[test]
fn template_names_are_case_insensitive_when_unambiguous() {
    let src = "board 7x7\nuse templates\nderive {\n  black d5 as x\n  x - b on [a5, b5, c5, e5, f5, g5, a6, b6, c6, d6, e6, f6, g6, a7, b7, c7, d7, e7, f7, g7] by iii1a\n}\n";
    let c = run(src);
    assert_eq!(c.report.exit_code, 0, "{}", c.human());
    // A file lemma's name stays exact.
    let src = "board 5x5\nlemma bridge {\n  black a1 as x\n  claim x - b2 on [b1, a2]\n}\nderive {\n  black c3 as p, d4 as q\n  (p, [d3, c4], q) VC by Bridge\n}\n";
    let c = run(src);
    assert_eq!(c.report.exit_code, 2, "{}", c.human());
    assert!(c.report.files[0].errors[0]
        .rendered
        .contains("did you mean `bridge`"));
}

// ---------------------------------------------------------------------------------------------
// Item 21 (part): `render` says what it wrote; no progress display when stderr is a pipe.

#[test]
fn render_says_what_it_wrote_and_progress_stays_off_a_pipe() {
    let dir = scratch("render");
    let out = dir.join("corner.html").display().to_string();
    let (code, stdout, err) =
        hexproof(&["render", "proofs/examples/hex4-corner.hexp", "--html", &out]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.is_empty(), "{stdout}");
    let size = std::fs::metadata(&out).unwrap().len();
    assert_eq!(
        err,
        format!("hexproof: wrote {out} ({size} bytes, 9 figures)\n")
    );
    let (code, _, err) = hexproof(&["check", "proofs/examples/hex4-corner.hexp"]);
    assert_eq!(code, 0);
    assert!(err.is_empty(), "{err}");
}
