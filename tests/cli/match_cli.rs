//! `hexproof match` end to end: `hexproof gtp` against itself on 5×5 (SGFs, the log,
//! resuming), engines that crash, babble or overrun their time lose with the reason stated,
//! and bad input exits 2. Tiny boards and times keep it to a few seconds.

use crate::bin::{hexproof, run};
use hexproof::arena::openings::{first_rows, parse_openings};
use hexproof::arena::GameLog;
use hexproof::board::{Board, Colour};
use std::path::{Path, PathBuf};

/// A fresh folder under the system's temp dir.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexproof-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `hexproof gtp` as an engine command.
fn engine(extra: &str) -> String {
    format!(
        "'{}' gtp --no-solver-thread {extra}",
        env!("CARGO_BIN_EXE_hexproof")
    )
}

fn log(dir: &Path) -> Vec<GameLog> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs `hexproof match` with `args`: exit code, stdout, stderr.
fn matched(args: &[&str]) -> (i32, String, String) {
    let mut full = vec!["match"];
    full.extend_from_slice(args);
    run(&full)
}

#[test]
fn hexproof_against_itself_with_sgfs_log_and_resume() {
    let dir = scratch("self");
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "# two openings\nb1\nc2 d4  # Black c2, White d4\n",
    )
    .unwrap();
    let (a, b) = (engine(""), engine("--player alphabeta --depth 1"));
    let args = [
        "--a",
        &a,
        "--b",
        &b,
        "--size",
        "5",
        "--openings",
        openings.to_str().unwrap(),
        "--time",
        "0.05",
        "--margin",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ];
    let (code, out, err) = matched(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(
        v["a_wins"].as_u64().unwrap() + v["b_wins"].as_u64().unwrap(),
        4
    );
    assert_eq!(v["a_black"]["games"], 2);
    let games = log(&dir);
    assert_eq!(games.len(), 4);
    let board = Board::square(5).unwrap();
    for (i, g) in games.iter().enumerate() {
        // Colours alternate per opening: A is Black in even games.
        assert_eq!(g.game, i);
        assert_eq!(g.black, if i % 2 == 0 { "a" } else { "b" });
        assert_eq!(g.opening, if i < 2 { "b1" } else { "c2 d4" });
        // Engines that play legal moves finish by a connection or a resignation.
        assert!(g.kind == "connection" || g.kind == "resign", "{g:?}");
        let text = std::fs::read_to_string(dir.join(g.sgf.as_ref().unwrap())).unwrap();
        assert!(text.starts_with("(;AP[hexproof:"), "{text}");
        assert!(
            text.contains("FF[4]GM[11]SZ[5]PB[hexproof]PW[hexproof]"),
            "{text}"
        );
        let winner = if g.winner_colour == "black" {
            Colour::Black
        } else {
            Colour::White
        };
        let re = if winner == Colour::Black {
            "RE[B+"
        } else {
            "RE[W+"
        };
        assert!(text.contains(re), "{text}");
        // The referee's winner is the board's (or the resigner's opponent).
        let game = hexproof::sgf::read(&text, None).unwrap();
        assert_eq!(game.winner(), Some(winner), "{text}");
        assert_eq!(game.moves().len(), g.moves);
        assert_eq!(*game.board(), board);
        // The opening's moves come first.
        let first = ["B[b1]", "B[c2];W[d4]"][i / 2];
        assert!(text.contains(&format!(";{first};")), "{text}");
    }
    // Rerun: nothing left to play, the same summary.
    let (code, again, err) = matched(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(log(&dir).len(), 4);
    let w: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(w["a_wins"], v["a_wins"]);
    // An interrupted run: the last game's line cut short, its SGF gone. Only it is replayed.
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let keep = text.lines().take(3).collect::<Vec<_>>().join("\n") + "\n{\"game\":3,\"open";
    std::fs::write(dir.join("games.jsonl"), keep).unwrap();
    std::fs::remove_file(dir.join("game-0004.sgf")).unwrap();
    let (code, _, err) = matched(&args);
    assert_eq!(code, 0, "{err}");
    let replayed = log_lines_parsed(&dir);
    assert_eq!(replayed, vec![0, 1, 2, 3]);
    assert!(dir.join("game-0004.sgf").exists());
    let played: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(played.len(), 1, "{err}");
    assert!(
        played[0].starts_with("game 4/4 opening c2 d4: B Black"),
        "{err}"
    );
    // The same folder with other settings is refused.
    let mut other = args.to_vec();
    other[9] = "0.06";
    let (code, _, err) = matched(&other);
    assert_eq!(code, 2);
    assert!(err.contains("holds another match"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game numbers of the log's lines that parse (a cut line is skipped).
fn log_lines_parsed(dir: &Path) -> Vec<usize> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<GameLog>(l).ok())
        .map(|g| g.game)
        .collect()
}

#[test]
fn faulty_engines_lose_with_the_reason() {
    let dir = scratch("faults");
    // Answers everything but crashes at genmove; echoes input (`cat`); thinks too long.
    let crash = "sh -c 'while read l; do case \"$l\" in genmove*) exit 3;; *) printf \"=\\n\\n\";; esac; done'";
    let slow = "sh -c 'while read l; do case \"$l\" in genmove*) sleep 5; printf \"= a1\\n\\n\";; *) printf \"=\\n\\n\";; esac; done'";
    let illegal = "sh -c 'while read l; do case \"$l\" in genmove*) printf \"= b1\\n\\n\";; *) printf \"=\\n\\n\";; esac; done'";
    let good = engine("");
    let cases: [(&str, &str, &str); 4] = [
        (
            crash,
            "crash",
            "genmove b: the engine exited or closed its output (exit status 3)",
        ),
        (
            "cat",
            "garbage",
            "boardsize 5: garbage reply \"boardsize 5\"",
        ),
        (slow, "time", "genmove b: no reply within 1000 ms"),
        (
            illegal,
            "illegal",
            "genmove b: illegal move: b b1 (occupied)",
        ),
    ];
    for (bad, kind, reason) in cases {
        let out = dir.join(kind);
        let against = |openings: &str| {
            let out = out.to_str().unwrap();
            matched(&[
                "--a",
                bad,
                "--b",
                &good,
                "--size",
                "5",
                "--openings",
                openings,
                "--time",
                "0.1",
                "--margin",
                "0.9",
                "--out",
                out,
            ])
        };
        // /dev/null holds no opening: bad input.
        let (code, _, err) = against("/dev/null");
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("no openings"), "{err}");
        std::fs::write(dir.join("o.txt"), "b1\n").unwrap();
        let (code, text, err) = against(dir.join("o.txt").to_str().unwrap());
        assert_eq!(code, 0, "{kind}: {err}");
        let games = log(&out);
        assert_eq!(games.len(), 2, "{kind}");
        // A crash where hexproof's reply has left it a proven winning connection (on 5×5 it
        // may well have one) is adjudicated `crash-lost` with the carrier appended to the
        // reason (a_crash_in_a_proven_lost_position_is_adjudicated_apart); either way it is a
        // crash and a loss.
        let kinds: &[&str] = if kind == "crash" {
            &["crash", "crash-lost"]
        } else {
            &[kind]
        };
        for g in &games {
            assert_eq!(g.winner, "b", "{kind}: {g:?}");
            assert!(kinds.contains(&g.kind.as_str()), "{g:?}");
        }
        // Game 1: A is Black, the fault is Black's.
        let want = format!("black: {reason}");
        if games[0].kind == "crash-lost" {
            assert!(
                games[0]
                    .reason
                    .starts_with(&format!("{want}; adjudicated: white had")),
                "{}",
                games[0].reason
            );
        } else {
            assert_eq!(games[0].reason, want, "{kind}");
        }
        let a_lost: usize = kinds
            .iter()
            .filter_map(|k| {
                let line = text
                    .lines()
                    .find(|l| l.starts_with(&format!("ended by {k}: A lost ")))?;
                assert!(line.ends_with(", B lost 0"), "{line}");
                line[format!("ended by {k}: A lost ").len()..]
                    .split(',')
                    .next()?
                    .parse::<usize>()
                    .ok()
            })
            .sum();
        assert_eq!(a_lost, 2, "{text}");
        let sgf = std::fs::read_to_string(out.join("game-0001.sgf")).unwrap();
        assert!(sgf.contains("RE[W+"), "{sgf}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_proven_connection_is_found_only_for_the_side_that_has_one() {
    // The referee's adjudication test (`arena::referee::proven_connection`). 5×5: White a3 b3
    // c3 d3 joins the left border and reaches the right one by the edge bridge {e2, e3};
    // Black a1 b1 c1 d1 on the top row is far from the bottom.
    use hexproof::arena::referee::proven_connection;
    use hexproof::board::Notation;
    use hexproof::position::Position;
    let board = Board::square(5).unwrap();
    let p = Position::from_names(board, "a1 b1 c1 d1", "a3 b3 c3 d3", Notation::Letters).unwrap();
    let carrier = proven_connection(&p, Colour::White).expect("White's VC");
    let names: Vec<String> = carrier
        .iter()
        .map(|c| board.cell_name(c, Notation::Letters))
        .collect();
    assert_eq!(names, ["e2", "e3"]);
    assert_eq!(proven_connection(&p, Colour::Black), None);
}

#[test]
fn a_crash_in_a_proven_lost_position_is_adjudicated_apart() {
    // The opening leaves White a winning VC (a3 b3 c3 d3 and the edge bridge e2/e3) with
    // Black to move. A fake engine that crashes on genmove (as Wolve does in such positions,
    // docs/journal/player-session23.md): as Black (game 1) its crash is `crash-lost`, White
    // having a proven winning connection; as White (game 2) Black has none, so it is a plain
    // `crash`. Either way the crasher loses.
    let dir = scratch("adjudicated");
    let crash = "sh -c 'while read l; do case \"$l\" in genmove*) kill -SEGV $$;; *) printf \"=\\n\\n\";; esac; done'";
    std::fs::write(dir.join("o.txt"), "a1 a3 b1 b3 c1 c3 d1 d3\n").unwrap();
    let out = dir.join("m");
    let (code, text, err) = matched(&[
        "--a",
        crash,
        "--b",
        &engine(""),
        "--size",
        "5",
        "--openings",
        dir.join("o.txt").to_str().unwrap(),
        "--time",
        "0.1",
        "--margin",
        "0.9",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let games = log(&out);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].kind, "crash-lost", "{:?}", games[0]);
    assert_eq!(games[0].winner, "b");
    assert_eq!(games[0].winner_colour, "white");
    assert!(
        games[0]
            .reason
            .starts_with("black: genmove b: the engine exited or closed its output"),
        "{}",
        games[0].reason
    );
    assert!(
        games[0]
            .reason
            .ends_with("adjudicated: white had a proven winning connection (VC carrier {e2 e3})"),
        "{}",
        games[0].reason
    );
    assert_eq!(games[1].kind, "crash", "{:?}", games[1]);
    assert_eq!(games[1].winner, "b");
    assert!(
        text.contains("ended by crash-lost: A lost 1, B lost 0"),
        "{text}"
    );
    assert!(
        text.contains("ended by crash: A lost 1, B lost 0"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2() {
    let good = engine("");
    let cases: [(&[&str], &str); 5] = [
        (
            &["--a", "no-such-engine-xyz", "--b", &good, "--size", "5"],
            "engine a ('no-such-engine-xyz') exited before answering 'name'",
        ),
        (&["--a", &good, "--b", &good, "--size", "30"], "--size 30"),
        (&["--a", &good, "--b", &good, "--size", "1"], "--size 1"),
        (&["--a", &good, "--b", &good, "--time", "0"], "--time 0"),
        (
            &[
                "--a",
                &good,
                "--b",
                &good,
                "--openings",
                "tests/fixtures/no-such-file",
            ],
            "cannot read tests/fixtures/no-such-file",
        ),
    ];
    for (args, msg) in cases {
        let (code, _, err) = matched(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("hexproof: error: "), "{err}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let dir = scratch("bad");
    for (text, msg) in [
        ("b1\nzz9\n", "line 2: 'zz9' is not a cell of the 5x5 board"),
        ("c3 c3\n", "line 1: c3 is played twice"),
    ] {
        let f = dir.join("o.txt");
        std::fs::write(&f, text).unwrap();
        let (code, _, err) = matched(&[
            "--a",
            &good,
            "--b",
            &good,
            "--size",
            "5",
            "--openings",
            f.to_str().unwrap(),
        ]);
        assert_eq!(code, 2);
        assert!(err.contains(msg), "{err}");
    }
    // A set-up command the engine refuses.
    let (code, _, err) = matched(&["--a", &good, "--b", &good, "--a-gtp", "frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains("engine a: 'frobnicate' failed"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn default_openings_are_the_data_file() {
    let board = Board::square(11).unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/openings-11x11.txt"),
    )
    .unwrap();
    let file = parse_openings(&text, &board).unwrap();
    assert_eq!(file, first_rows(&board));
    assert_eq!(file.len(), 20);
    let help = hexproof().args(["match", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for word in ["--openings", "--out", "Elo", "resign", "Exit codes"] {
        assert!(help.contains(word), "{word}");
    }
}

/// Processes whose command line is exactly `words` (Linux `/proc`; `None` elsewhere).
fn processes_running(words: &[&str]) -> Option<usize> {
    let want = words.join("\0") + "\0";
    let mut n = 0;
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            if cmd == want.as_bytes() {
                n += 1;
            }
        }
    }
    Some(n)
}

#[test]
fn a_stuck_engine_is_killed_with_its_shell() {
    // An engine that never answers genmove runs under `sh -c` (the match's shell, then its
    // own): when it overruns, the match kills the shell *and* what it started. Before
    // (2026-11-29) only the shell was killed, and real engines stuck in a genmove ran on,
    // orphaned, for hours.
    if processes_running(&["no-such-command"]).is_none() {
        return; // no /proc: nothing to look at
    }
    let dir = scratch("stuck");
    let stuck = "sh -c 'while read l; do case \"$l\" in genmove*) sleep 293;; *) printf \"=\\n\\n\";; esac; done'";
    std::fs::write(dir.join("o.txt"), "b1\n").unwrap();
    let out = dir.join("m");
    let (code, _, err) = matched(&[
        "--a",
        stuck,
        "--b",
        &engine(""),
        "--size",
        "5",
        "--openings",
        dir.join("o.txt").to_str().unwrap(),
        "--games",
        "1",
        "--time",
        "0.1",
        "--margin",
        "0.4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(log(&out)[0].kind, "time");
    // SIGKILL is delivered at once, but give the kernel a moment to reap.
    let mut left = processes_running(&["sleep", "293"]).unwrap();
    for _ in 0..50 {
        if left == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        left = processes_running(&["sleep", "293"]).unwrap();
    }
    assert_eq!(left, 0, "the stuck engine's `sleep 293` outlived the match");
    let _ = std::fs::remove_dir_all(&dir);
}
