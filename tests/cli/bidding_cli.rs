//! `hexproof bid` and `hexproof bid-game` through the real binary: determinism under a seed
//! with one and several threads, JSON contents, the SVG file, bad input (exit 2, one line,
//! no panic), and scripted terminal games.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::bin::output as hexproof;

fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexproof"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The game may stop reading early (e.g. at `quit`); a broken pipe here is fine.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

const POSITION: [&str; 8] = [
    "bid", "--board", "11x11", "--moves", "f6 e7 d5", "--chips", "100", "--json",
];

#[test]
fn bid_is_deterministic_under_a_seed_for_any_thread_count() {
    let run = |threads: &str, seed: &str| {
        let mut args = POSITION.to_vec();
        args.extend([
            "--mine",
            "60",
            "--samples",
            "30000",
            "--seed",
            seed,
            "--threads",
            threads,
        ]);
        hexproof(&args)
    };
    let one = run("1", "5");
    let two = run("2", "5");
    let four = run("4", "5");
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(one.stdout, two.stdout, "1 vs 2 threads");
    assert_eq!(one.stdout, four.stdout, "1 vs 4 threads");
    let other = run("2", "6");
    assert_ne!(
        one.stdout, other.stdout,
        "another seed gives other estimates"
    );
    let v = json(&one);
    assert_eq!(v["samples"], 30000);
    assert_eq!(v["seed"], 5);
    assert_eq!(v["method"], "monte_carlo");
    assert_eq!(v["cells"].as_array().unwrap().len(), 118);
    let mv = v["move"].as_str().unwrap();
    let bid = v["bid"].as_u64().unwrap();
    // The move is the cell with the smallest loser probability, the bid Proposition 5.2's.
    let cells = v["cells"].as_array().unwrap();
    let best = cells
        .iter()
        .min_by(|a, b| a["loser_count"].as_u64().cmp(&b["loser_count"].as_u64()))
        .unwrap();
    assert_eq!(best["cell"], mv);
    let l = best["loser_prob"].as_f64().unwrap();
    assert_eq!(bid, ((0.5 - l) * 100.0).floor() as u64);
    assert!(best["loser_se"].as_f64().unwrap() > 0.0);
}

#[test]
fn exact_mode_and_text_output() {
    let v = json(&hexproof(&[
        "bid", "--board", "4x4", "--moves", "b2", "--chips", "20", "--mine", "3", "--exact",
        "--json",
    ]));
    assert_eq!(v["method"], "exact");
    assert_eq!(v["samples"], 1 << 15);
    assert!(v["bid"].as_u64().unwrap() <= 3);
    assert!(!v["optimal"].as_array().unwrap().is_empty());
    for c in v["cells"].as_array().unwrap() {
        // Proposition 5.1 in the printed counts.
        let crit = c["critical_count"].as_u64().unwrap();
        assert_eq!((1 << 15) - crit, 2 * c["loser_count"].as_u64().unwrap());
    }
    let out = hexproof(&[
        "bid",
        "--board",
        "5x5",
        "--black",
        "c3",
        "--white",
        "b4",
        "--samples",
        "20000",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("move: "), "{text}");
    assert!(text.contains("bid:  "), "{text}");
    assert!(text.contains("20000 random fillings, seed 1"), "{text}");
}

#[test]
fn decided_game_has_no_move() {
    // Black a1, White b1, Black a2: a1-a2 joins top and bottom of the 2x2 board.
    let v = json(&hexproof(&[
        "bid", "--board", "2x2", "--moves", "a1 b1 a2", "--json",
    ]));
    assert_eq!(v["winner"], "black");
    assert!(v["move"].is_null());
    assert_eq!(v["bid"], 0);
    // Decided on a board far too large to enumerate: --exact still answers.
    let column = "a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11";
    let v = json(&hexproof(&[
        "bid", "--board", "11x11", "--black", column, "--exact", "--json",
    ]));
    assert_eq!(v["winner"], "black");
    assert_eq!(v["method"], "decided");
    assert!(v["move"].is_null());
    let out = hexproof(&["bid", "--board", "11x11", "--black", column]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("the game is over: black has won"));
}

#[test]
fn svg_heat_map_is_written() {
    let dir = std::env::temp_dir().join(format!("hexproof-bid-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("heat.svg");
    let p = path.to_str().unwrap();
    let out = hexproof(&[
        "bid", "--board", "4x4", "--moves", "b3", "--exact", "--svg", p,
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<polygon").count(), 16);
    let again = hexproof(&[
        "bid", "--board", "4x4", "--moves", "b3", "--exact", "--svg", p,
    ]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        svg,
        "byte-for-byte reproducible"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[&[&str]] = &[
        &["bid", "--board", "20x20"],
        &["bid", "--board", "axb"],
        &["bid", "--board", "5x5", "--moves", "z9"],
        &["bid", "--board", "5x5", "--moves", "a1 a1"],
        &["bid", "--board", "5x5", "--moves", "t"],
        &["bid", "--board", "5x5", "--black", "a1", "--white", "a1"],
        &["bid", "--chips", "10", "--mine", "11"],
        &["bid", "--chips", "-5"],
        &["bid", "--samples", "0"],
        &["bid", "--samples", "lots"],
        &["bid", "--threads", "0"],
        &["bid", "--threads", "100000"],
        &["bid", "--seed", "1.5"],
        &["bid", "--colour", "green"],
        &["bid", "--notation", "roman"],
        &["bid", "--board", "11x11", "--exact"],
        &["bid", "--top", "x"],
        &[
            "bid",
            "--board",
            "3x3",
            "--svg",
            "/nonexistent-dir/x/heat.svg",
        ],
        &["bid-game", "--black", "robot"],
        &["bid-game", "--chips", "10", "--black-chips", "20"],
        &["bid-game", "--samples", "0"],
        &["bid-game", "--board", "0"],
        &["bid-game", "--tie-break", "grey"],
    ];
    for args in cases {
        let out = hexproof(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("hexproof: error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn help_texts_have_examples() {
    for cmd in ["bid", "bid-game"] {
        let out = hexproof(&[cmd, "--help"]);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Examples:"), "{cmd}: {text}");
        assert!(
            text.contains(&format!("hexproof {cmd} --board")),
            "{cmd}: {text}"
        );
    }
}

#[test]
fn bid_game_human_against_engine_to_the_end_of_input() {
    // Garbage, an over-bid, invalid UTF-8 and commands, then end of input: a clean exit 0.
    let script = b"banana\n999\n\xff\xfe\nhelp\nhint\nboard\n";
    let out = with_stdin(
        &[
            "bid-game",
            "--board",
            "3x3",
            "--samples",
            "2000",
            "--threads",
            "1",
        ],
        script,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error: 'banana' is not a bid"), "{text}");
    assert!(text.contains("error: you hold only 50 chips"), "{text}");
    assert!(text.contains("hint: move "), "{text}");
    assert!(text.contains("end of input"), "{text}");
}

#[test]
fn bid_game_two_humans_play_to_a_win() {
    // Black outbids for three moves down column b... on 3x3: b1 b2 b3 wins for Black.
    let script = b"10\n0\nb1\n10\n0\nb2\n10\n0\nb3\n";
    let out = with_stdin(&["bid-game", "--board", "3x3", "--white", "human"], script);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Black wins."), "{text}");
    // Black paid 10 three times: 50 - 30 = 20, White 80.
    assert!(
        text.contains("bids: Black 10, White 0. Black wins the bid and pays 10 chips to White.")
    );
    let out = with_stdin(
        &["bid-game", "--board", "3x3", "--white", "human"],
        b"quit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("game abandoned"));
}

#[test]
fn bid_game_engine_against_engine_finishes() {
    let out = with_stdin(
        &[
            "bid-game",
            "--board",
            "4x4",
            "--black",
            "engine",
            "--white",
            "engine",
            "--samples",
            "3000",
            "--seed",
            "2",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(" wins."), "{text}");
}
