//! Grouped replies (`solve --emit-group`, docs/prove.md "Grouped replies") and re-emitting a
//! tree from its choices (`--emit-choices-out`, `--emit-follow`), on a 6×6 opening: the
//! reworked proof is smaller, passes the full check, and a dropped White move, a removed
//! case or a wrong reply in it is rejected for its reason.

use crate::bin::hexproof;
use crate::solver_compact::{black_moves, played};
use hexproof::board::Board;
use hexproof::check::report::StepVerdict;
use hexproof::check::{check_source, Checked, Options};
use hexproof::dfpn::SolveParams;
use hexproof::prove::emit::{self, Choice, CompactOptions, EmitOptions};

/// The opening the tests rework: 6×6 c2 (measured: 49 Black-move nodes as built, 47 with
/// the cover alone, 40 with five merged cases; 2.5 CPU-s an export).
const OPENING: &str = "c2";

/// The export of the opening with facts on ≤ 16 cells collapsed and redundant analyses
/// dropped; `group`: None (as built) or Some(merge cost) for `--emit-group`.
fn grouped(group: Option<usize>) -> String {
    let opts = EmitOptions {
        collapse: 16,
        drop_redundant: true,
        group: group.is_some(),
        group_cost: group.unwrap_or(emit::GROUP_MAX_COST),
        ..EmitOptions::default()
    };
    let (p, colour) = played(6, &[OPENING]);
    emit::emit(&p, colour, &SolveParams::default(), &opts).unwrap()
}

/// The lines of the case block opening at line `i` (its `case` line to its closing brace;
/// a one-line `goto` case is its own block).
fn block(lines: &[&str], i: usize) -> (usize, usize) {
    if !lines[i].trim_end().ends_with('{') {
        return (i, i);
    }
    let pad = lines[i].len() - lines[i].trim_start().len();
    let close = format!("{}}}", " ".repeat(pad));
    let end = (i + 1..lines.len())
        .find(|&j| lines[j] == close)
        .expect("a closing brace");
    (i, end)
}

/// A merged case's line: `case x | y …` with `y` a cell (not `*`).
fn is_merged(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with("case ")
        && t["case ".len()..]
            .split(" => ")
            .next()
            .is_some_and(|h| h.split(" | ").filter(|m| *m != "*").count() >= 2)
}

fn full(text: &str) -> Checked {
    check_source("t.hexp", text, &Options::default())
}

fn failed_steps(c: &Checked) -> Vec<&hexproof::check::report::StepReport> {
    c.report
        .files
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.steps.iter())
        .filter(|s| s.verdict == StepVerdict::Failed)
        .collect()
}

/// Rejected because a White move is left with no case (the White node's coverage).
fn uncovered(c: &Checked) -> bool {
    c.report.exit_code == 1
        && failed_steps(c).iter().any(|s| {
            s.reasons
                .iter()
                .any(|r| r.condition == "every White move has a case")
        })
}

/// `--emit-group` keeps the cheapest set of cases (cover only: fewer Black-move nodes than the
/// tree as built) and merges cases (`case x | y`, no more nodes than the cover alone); both
/// proofs pass the full check (confirming searches on). In the merged proof, a merged case
/// without its second White move (where no other case answers it), a removed case and a
/// wrong reply in a merged case are each rejected for their reason.
#[test]
fn grouped_replies_shrink_a_six_by_six_proof_and_each_case_is_needed() {
    let built = grouped(None);
    let cover = grouped(Some(0));
    let merged = grouped(Some(emit::GROUP_MAX_COST));
    let (b, c, m) = (
        black_moves(&built),
        black_moves(&cover),
        black_moves(&merged),
    );
    assert!(c < b && m <= c, "built {b}, cover {c}, merged {m}");
    assert!(!built.lines().any(is_merged));
    assert!(!cover.lines().any(is_merged));
    for t in [&cover, &merged] {
        let r = full(t);
        assert_eq!(r.report.exit_code, 0, "{}", r.human());
    }
    let lines: Vec<&str> = merged.lines().collect();
    let opts = Options {
        search_rule_steps: false,
        ..Options::default()
    };
    let check = |v: Vec<String>| check_source("t.hexp", &(v.join("\n") + "\n"), &opts);
    let owned = || -> Vec<String> { lines.iter().map(|s| s.to_string()).collect() };
    let merges: Vec<usize> = (0..lines.len()).filter(|&i| is_merged(lines[i])).collect();
    assert!(!merges.is_empty(), "no merged case");
    // How many merged cases need their second move named (another case's `| *` may answer
    // it too: then the mutant is a proof as well).
    let mut needed = 0;
    for &i in &merges {
        // The merged case without its second White move: that move has no case.
        let l = lines[i];
        let head = &l[..l.find(" => ").unwrap()];
        let moves: Vec<&str> = head.trim_start()["case ".len()..].split(" | ").collect();
        let fewer: Vec<&str> = moves
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != 1)
            .map(|(_, m)| *m)
            .collect();
        let pad = &l[..l.len() - l.trim_start().len()];
        let mut v = owned();
        v[i] = format!("{pad}case {}{}", fewer.join(" | "), &l[head.len()..]);
        let r = check(v);
        if r.report.exit_code != 0 {
            assert!(uncovered(&r), "line {}: {}\n{}", i + 1, l.trim(), r.human());
            needed += 1;
        }
        // A wrong reply (another empty cell of the board): a step inside the case fails, or
        // the reply is on a stone (bad input).
        let at = l.find("=> black ").unwrap() + "=> black ".len();
        let cell = &l[at..at + 2];
        let (from, to) = block(&lines, i);
        for other in ["c3", "d4", "e5"] {
            if other == cell {
                continue;
            }
            let mut v = owned();
            v[i] = l.replacen(&format!("=> black {cell}"), &format!("=> black {other}"), 1);
            let r = check(v);
            let inside = failed_steps(&r)
                .iter()
                .any(|s| (from + 1..=to + 1).contains(&s.at.line));
            assert!(
                r.report.exit_code == 2 || (r.report.exit_code == 1 && inside),
                "line {}: reply {other}\n{}",
                i + 1,
                r.human()
            );
            break;
        }
    }
    assert!(needed >= 1, "no merged case needs its second move");
    // Every case the cover kept is needed: a removed case (its block) leaves a White move
    // without one (a sample: the first five cases of the file).
    let cases: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].trim_start().starts_with("case "))
        .take(5)
        .collect();
    for i in cases {
        let (from, to) = block(&lines, i);
        let v: Vec<String> = lines[..from]
            .iter()
            .chain(&lines[to + 1..])
            .map(|s| s.to_string())
            .collect();
        let r = check(v);
        assert!(
            uncovered(&r),
            "without line {}: {}\n{}",
            i + 1,
            lines[i],
            r.human()
        );
    }
}

/// The proof-size objective at every depth (no union leaves) on 6×6 a1, with the search
/// these figures were measured with (tests/solver/solver_compact.rs, `sized`).
fn objective(follow: &'static [Choice]) -> (String, Vec<Choice>) {
    let (p, colour) = played(6, &["a1"]);
    let params = SolveParams {
        order: hexproof::dfpn::Ordering::Resistance,
        widening: None,
        ..SolveParams::default()
    };
    emit::emit_with_choices(
        &p,
        colour,
        &params,
        &EmitOptions {
            collapse: 16,
            drop_redundant: true,
            compact: Some(CompactOptions {
                union_groups: 0,
                union_replies: 0,
                size_depth: usize::MAX,
                ..CompactOptions::default()
            }),
            follow,
            ..EmitOptions::default()
        },
    )
    .unwrap()
}

/// The choices of an objective export, written and read back (`--emit-choices-out`,
/// `--emit-follow`), rebuild the same proof; one choice per Black move of the tree.
#[test]
fn an_exports_choices_rebuild_the_same_proof() {
    let (text, choices) = objective(&[]);
    let board = Board::square(6).unwrap();
    let written = emit::write_choices(&board, &choices);
    let read = emit::read_choices(&board, &written).unwrap();
    assert_eq!(read, choices);
    assert_eq!(choices.len(), black_moves(&text), "{written}");
    let again = objective(Box::leak(read.into_boxed_slice())).0;
    assert_eq!(again, text);
    assert_eq!(full(&again).report.exit_code, 0);
    // Malformed lines are named.
    assert_eq!(emit::read_choices(&board, "a1 / b2\n").unwrap_err().0, 1);
    assert_eq!(
        emit::read_choices(&board, "# c\na1 / b2 / a1\n")
            .unwrap_err()
            .0,
        2
    );
    assert!(emit::read_choices(&board, "a1 / z9 / c3\n").is_err());
}

/// The command line: `--emit-choices-out` writes the choices, `--emit-follow` reads them
/// back into the same proof, and a malformed choices file is bad input (exit 2).
#[test]
fn the_choices_file_round_trips_through_the_command_line() {
    let dir = std::env::temp_dir().join(format!("hexproof-choices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (p1, c1, p2) = (dir.join("a.hexp"), dir.join("a.follow"), dir.join("b.hexp"));
    let base = [
        "solve",
        "--board",
        "6x6",
        "--moves",
        "a1",
        "--emit-collapse",
        "16",
        "--emit-drop-redundant",
        "--compact",
        "--compact-union-groups",
        "0",
        "--compact-union-replies",
        "0",
        "--compact-size-depth",
        "99",
    ];
    // Exports the opening to `proof`, with `flag` FILE (the choices written or followed).
    let solve = |proof: &std::path::Path, flag: &str| {
        hexproof()
            .args(base)
            .arg("--emit-proof")
            .arg(proof)
            .arg(flag)
            .arg(&c1)
            .output()
            .unwrap()
    };
    let ok = |st: std::process::Output| {
        assert_eq!(
            st.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
    };
    ok(solve(&p1, "--emit-choices-out"));
    ok(solve(&p2, "--emit-follow"));
    let (a, b) = (
        std::fs::read_to_string(&p1).unwrap(),
        std::fs::read_to_string(&p2).unwrap(),
    );
    assert_eq!(a, b);
    let follow = std::fs::read_to_string(&c1).unwrap();
    assert_eq!(follow.lines().count(), black_moves(&a), "{follow}");
    std::fs::write(&c1, "a1 b2 / c3\n").unwrap();
    let st = solve(&p2, "--emit-follow");
    let err = String::from_utf8_lossy(&st.stderr);
    assert_eq!(st.status.code(), Some(2), "{err}");
    assert!(err.contains("line 1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
