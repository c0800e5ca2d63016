//! Jing Yang's 9×9 strategy (tests/fixtures/jing-yang-9x9/, LGPL v3, from Benzene's
//! `share/hex99-3.txt`): the real file read with its counts and defects pinned, hand-made
//! mutants rejected for the right reason, and the player that follows it against a uniformly
//! random White and against hexproof's MCTS.

use crate::rng::Rng;
use hexproof::board::{Cell, Colour, Notation};
use hexproof::yang::follow;
use hexproof::yang::{Strategy, YangErrorKind};

const FILE: &str = include_str!("../fixtures/jing-yang-9x9/hex99-3.txt");

fn strategy() -> Strategy {
    Strategy::parse(FILE).expect("the real file reads")
}

#[test]
fn yang_real_file_counts() {
    let s = strategy();
    assert_eq!(s.board_size, 9);
    assert_eq!(s.patterns.len(), 715);
    assert_eq!(s.branch_count(), 3568);
    assert_eq!(s.reachable().len(), 545);
    assert_eq!(s.patterns[&1].branches.len(), 14);
    // Pattern 1 answers White's first move on the 40 cells before the centre; the other
    // half is the 180° rotation.
    let t = s.patterns[&1].trigger_positions();
    assert_eq!(t, (1..=40).collect());
    assert_eq!(s.sizes()[&378], 33);
}

#[test]
fn yang_real_file_defects() {
    let s = strategy();
    let d = s.defects();
    let summary: Vec<String> = d
        .iter()
        .map(|d| format!("{} {} {}", d.pattern, d.reachable, d.error))
        .collect();
    eprintln!("{}", summary.join("\n"));
    let count = |f: &dyn Fn(&YangErrorKind) -> bool| d.iter().filter(|d| f(&d.error.kind)).count();
    assert_eq!(d.len(), 250);
    assert_eq!(count(&|k| matches!(k, YangErrorKind::Aliased { .. })), 234);
    assert_eq!(
        count(&|k| matches!(k, YangErrorKind::OutsideParent { .. })),
        16
    );
    // Positions outside their parent in patterns reached from pattern 1: 364 (its
    // sub-pattern 13 written in the parent's numbering), 585 and 639.
    let outside: std::collections::BTreeSet<u32> = d
        .iter()
        .filter(|d| d.reachable && matches!(d.error.kind, YangErrorKind::OutsideParent { .. }))
        .map(|d| d.pattern)
        .collect();
    assert_eq!(outside.into_iter().collect::<Vec<_>>(), vec![364, 585, 639]);
    let e = Strategy::parse_strict(FILE).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 4416, column 26: sub-pattern 54: positions 7 and 8 both map to the parent's 5"
    );
}

#[test]
fn yang_mutants() {
    // Line ends made uniform (line and column numbers do not change).
    let file = FILE.replace("\r\n", "\n");
    // A reply moved onto its own trigger.
    let m = file.replacen("\"WM 1 23\",\n\"BM 24\"", "\"WM 1 23\",\n\"BM 23\"", 1);
    assert!(m != file);
    let e = Strategy::parse(&m).unwrap_err();
    assert_eq!(e.kind, YangErrorKind::ReplyOnTrigger(23));
    // A dropped trigger cell: the count no longer matches.
    let m = file.replacen(
        "\"WM 9 9 17 18 25 26 27 34 35 36\"",
        "\"WM 9 9 17 18 25 26 27 34 35\"",
        1,
    );
    assert!(m != file);
    let e = Strategy::parse(&m).unwrap_err();
    assert!(matches!(
        e.kind,
        YangErrorKind::Count {
            keyword: "WM",
            declared: 9,
            found: 8
        }
    ));
    // A sub-pattern map shifted past the parent's edge.
    let m = file.replacen("\"PP 2 32 33\"", "\"PP 2 80 81\"", 1);
    let d = Strategy::parse(&m).unwrap().defects();
    assert!(d.iter().any(|d| matches!(
        d.error.kind,
        YangErrorKind::OutsideParent {
            pattern: 1,
            position: 81,
            size: 80
        }
    )));
    // A stray comma.
    let m = file.replacen("\"BT 14\"", "\"BT, 14\"", 1);
    assert_eq!(
        Strategy::parse(&m).unwrap_err().kind,
        YangErrorKind::StrayComma
    );
    // An unknown pattern.
    let m = file.replacen(
        "\"PS 2 5 286\",\n\"PP 2 32 33\"",
        "\"PS 716 5 286\",\n\"PP 716 32 33\"",
        1,
    );
    assert!(m != file);
    assert_eq!(
        Strategy::parse(&m).unwrap_err().kind,
        YangErrorKind::UnknownPattern(716)
    );
}

fn random_white(rng: &mut Rng) -> impl FnMut(&hexproof::position::Position) -> Cell + '_ {
    move |pos| {
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        empty[rng.below(empty.len() as u64) as usize]
    }
}

#[test]
fn yang_player_never_loses_to_random() {
    let s = strategy();
    let board = hexproof::board::Board::square(9).unwrap();
    let (mut wins, mut branch, mut free, mut notes) = (0, 0, 0, 0);
    for seed in 1..=200u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let g = follow::play(&s, random_white(&mut rng));
        if g.winner != Colour::Black {
            let names: Vec<String> = g
                .moves
                .iter()
                .map(|&c| board.cell_name(c, Notation::Letters))
                .collect();
            panic!("seed {seed}: Black lost: {}", names.join(" "));
        }
        wins += 1;
        branch += g.branch_moves;
        free += g.free_moves;
        notes += g.notes.len();
        for n in &g.notes {
            eprintln!("seed {seed}: {n}");
        }
    }
    eprintln!(
        "yang vs random: {wins}/200 won, {branch} branch replies, {free} free moves, {notes} \
         unplayable replies"
    );
    assert_eq!(wins, 200);
}

#[test]
fn yang_player_never_loses_to_mcts() {
    use hexproof::player::{genmove, Config, Decision};
    use std::time::Duration;
    let s = strategy();
    let board = hexproof::board::Board::square(9).unwrap();
    // YANG_MCTS_GAMES=n plays n games (BENCHMARKS.md); 3 in CI.
    let games: u64 = std::env::var("YANG_MCTS_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    for seed in 1..=games {
        let config = Config {
            solver_thread: false,
            resign: false,
            seed,
            ..Config::default()
        };
        let g = follow::play(&s, |pos| {
            match genmove(
                &config,
                pos,
                Colour::White,
                Duration::from_millis(100),
                None,
            )
            .decision
            {
                Decision::Play(c) => c,
                other => panic!("MCTS answered {other:?}"),
            }
        });
        let names: Vec<String> = g
            .moves
            .iter()
            .map(|&c| board.cell_name(c, Notation::Letters))
            .collect();
        eprintln!(
            "yang vs mcts seed {seed}: {} wins in {} moves ({} branch replies, {} free): {}",
            g.winner,
            g.moves.len(),
            g.branch_moves,
            g.free_moves,
            names.join(" ")
        );
        assert_eq!(g.winner, Colour::Black, "seed {seed}: {}", names.join(" "));
        assert!(g.notes.is_empty(), "{:?}", g.notes);
    }
}
