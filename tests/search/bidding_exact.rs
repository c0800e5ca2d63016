//! Exact random-turn Hex (issue 9): hand-computed values, Proposition 5.1 as an integer
//! identity, the bit-parallel critical-cell test against literal recolouring, and exact
//! enumeration against Richman's recursion (Payne & Robeva §2, §4, §5).

use hexproof::bidding::{critical_cells, exact, richman, Analysis, Method};
use hexproof::board::{Board, Cell, CellSet, Colour, Notation};
use hexproof::position::{winner_of, Position};

fn pos(board: &str, black: &str, white: &str) -> Position {
    Position::from_names(
        Board::parse(board).unwrap(),
        black,
        white,
        Notation::Letters,
    )
    .unwrap()
}

fn loser_of(a: &Analysis, name: &str) -> u64 {
    let cell = a.board.parse_cell(name, Notation::Letters).unwrap();
    a.cells.iter().find(|c| c.cell == cell).unwrap().loser
}

/// Positions used by several tests: small boards, square and not, with and without stones.
fn small_positions() -> Vec<Position> {
    vec![
        pos("1x1", "", ""),
        pos("2x1", "", ""),
        pos("1x3", "", ""),
        pos("2x2", "", ""),
        pos("3x3", "", ""),
        pos("3x3", "b2", ""),
        pos("3x3", "a3", "c1"),
        pos("4x3", "", ""),
        pos("3x4", "b2", "c3"),
        pos("2x6", "a3", ""),
        pos("4x4", "", ""),
        pos("4x4", "b3", "c2"),
        pos("4x4", "a4 b3", "c2 d1"),
        pos("5x5", "c3", "b4 d2"),
        pos("5x5", "b2 d4", "c3"),
        pos("6x3", "c2", "d2"),
    ]
}

#[test]
fn hand_computed_tiny_boards() {
    // 1x1: Black wins iff the cell is black; it is always critical, never the loser's colour.
    let a = exact(&pos("1x1", "", "")).unwrap();
    assert_eq!((a.fillings, a.black_wins), (2, 1));
    assert_eq!((a.cells[0].loser, a.cells[0].critical), (0, Some(2)));
    // 2 columns, 1 row: either black cell joins top to bottom. P(Black) = 3/4; a cell is
    // critical iff the other is white (1/2); it has the loser's colour iff it is white while
    // the other is black (1/4).
    let a = exact(&pos("2x1", "", "")).unwrap();
    assert_eq!((a.fillings, a.black_wins), (4, 3));
    for c in &a.cells {
        assert_eq!((c.loser, c.critical), (1, Some(2)));
    }
    // 1 column, 3 rows: Black needs all three (1/8). A cell is critical iff the other two are
    // black (1/4); it has the loser's colour iff it is black and White wins (3/8).
    let a = exact(&pos("1x3", "", "")).unwrap();
    assert_eq!((a.fillings, a.black_wins), (8, 1));
    for c in &a.cells {
        assert_eq!((c.loser, c.critical), (3, Some(2)));
    }
    // 2x2: a1 b1 / a2 b2 with b1-a2 adjacent. Black wins iff a1a2, b1b2 or b1a2 is black:
    // 16 fillings, counted by hand: b1 and a2 (the obtuse corners) are critical in 8, a1 and
    // b2 in 4; Black wins 8 (the board is symmetric under the colour-swapping reflection).
    let a = exact(&pos("2x2", "", "")).unwrap();
    assert_eq!(a.black_wins, 8);
    let crit: Vec<u64> = a.cells.iter().map(|c| c.critical.unwrap()).collect();
    assert_eq!(crit, vec![4, 8, 8, 4]);
    assert_eq!(
        a.optimal_set(),
        vec![Cell::at(1, 0), Cell::at(0, 1)],
        "b1 and a2 are optimal"
    );
}

#[test]
fn proposition_5_1_holds_exactly() {
    // P(H not critical) = 2 L_H, i.e. fillings - critical = 2 * loser, for every empty cell.
    for p in small_positions() {
        let a = exact(&p).unwrap();
        assert_eq!(a.method, Method::Exact);
        assert_eq!(a.fillings, 1u64 << p.empty_cells().len());
        for c in &a.cells {
            assert_eq!(
                a.fillings - c.critical.unwrap(),
                2 * c.loser,
                "{:?} on {}",
                c.cell,
                a.board
            );
        }
    }
}

#[test]
fn critical_cells_match_literal_recolouring() {
    // Every filling of 3x3 and 2x4, and a sample of 4x4 fillings: the bit-parallel test
    // (four flood fills) against recolouring each cell and re-running Position::winner.
    for (board, stride) in [("3x3", 1u32), ("2x4", 1), ("4x4", 7), ("4x3", 3)] {
        let b = Board::parse(board).unwrap();
        let cells: Vec<Cell> = b.cells().iter().collect();
        let n = cells.len();
        let mut m = 0u32;
        while m < 1 << n {
            let black: CellSet = cells
                .iter()
                .enumerate()
                .filter(|(i, _)| m >> i & 1 == 1)
                .map(|(_, &c)| c)
                .collect();
            let white = b.cells() - black;
            let w = winner_of(b, black, white).unwrap();
            let mut want = CellSet::EMPTY;
            for &c in &cells {
                let (bl, wh) = crate::bidding_gale::flipped(black, white, c);
                if winner_of(b, bl, wh) != Some(w) {
                    want.insert(c);
                }
            }
            assert_eq!(critical_cells(b, &black), want, "{board} filling {m:b}");
            m += stride;
        }
    }
}

#[test]
fn symmetries_of_the_empty_board() {
    // 180° rotation keeps colours; the reflection in the long diagonal swaps colours and
    // sides (docs/SEMANTICS.md "Board and conventions"). Both preserve L_H on an empty square board, and on an empty
    // square board Black wins exactly half the fillings.
    let a = exact(&pos("4x4", "", "")).unwrap();
    assert_eq!(2 * a.black_wins, a.fillings);
    for c in &a.cells {
        let (x, y) = c.cell.coords();
        let rot = format!("{}{}", (b'a' + 3 - x) as char, 4 - y);
        let refl = format!("{}{}", (b'a' + y) as char, x + 1);
        assert_eq!(c.loser, loser_of(&a, &rot));
        assert_eq!(c.loser, loser_of(&a, &refl));
    }
    // A 3x5 board and its 5x3 transpose with colours swapped.
    let a = exact(&pos("3x5", "b2", "")).unwrap();
    let t = exact(&pos("5x3", "", "b2")).unwrap();
    assert_eq!(a.black_wins, t.fillings - t.black_wins);
    for c in &a.cells {
        let (x, y) = c.cell.coords();
        assert_eq!(
            c.loser,
            loser_of(&t, &format!("{}{}", (b'a' + y) as char, x + 1))
        );
    }
}

#[test]
fn richman_recursion_agrees_with_enumeration() {
    // Tiny boards (at most 13 empty cells, 3^13 positions).
    let positions = [
        pos("2x2", "", ""),
        pos("3x3", "", ""),
        pos("3x3", "a1", "c3"),
        pos("4x3", "", ""),
        pos("2x5", "", ""),
        pos("3x4", "b2", ""),
        pos("4x4", "b2 c3", "b3"),
        pos("4x4", "a2 d3", "c1 b4"),
        pos("5x3", "c2", "a1"),
    ];
    for p in &positions {
        let a = exact(p).unwrap();
        let r = richman(p).unwrap();
        let n = a.fillings as f64;
        // Richman's theorem (§2) with the random-turn value P = P(Black wins a uniform filling).
        assert_eq!(r.r, 1.0 - a.black_wins as f64 / n, "{p:?}");
        // Random-Turn Hex Theorem (§4) via Proposition 5.1: the optimal moves of both players
        // are the cells of minimal L_H.
        assert_eq!(r.black_moves, a.optimal_set(), "{p:?}");
        assert_eq!(r.white_moves, a.optimal_set(), "{p:?}");
        // Proposition 5.2: δ = 1/2 − min L_H, and R⁺ − R⁻ = P(best cell critical).
        let best = a.best().unwrap();
        assert_eq!(r.delta, 0.5 - a.cells[best].loser as f64 / n, "{p:?}");
        assert_eq!(
            r.r_plus - r.r_minus,
            a.cells[best].critical.unwrap() as f64 / n
        );
        // Every child: R after Black (White) takes H = 1 − P(Black wins | H black (white)).
        for &(cell, rb, rw) in &r.children {
            let mut pb = p.clone();
            pb.play(Colour::Black, cell).unwrap();
            let mut pw = p.clone();
            pw.play(Colour::White, cell).unwrap();
            assert_eq!(rb, 1.0 - exact(&pb).unwrap().black_win_prob(), "{cell:?}");
            assert_eq!(rw, 1.0 - exact(&pw).unwrap().black_win_prob(), "{cell:?}");
        }
    }
}

#[test]
fn decided_positions() {
    let p = pos("3x3", "a1 a2 a3", "b1");
    let a = exact(&p).unwrap();
    assert_eq!(a.decided, Some(Colour::Black));
    assert_eq!(a.best(), None);
    assert_eq!(a.advice(100, 50).unwrap().bid, 0);
    let r = richman(&p).unwrap();
    assert_eq!((r.r, r.delta), (0.0, 0.0));
    assert!(
        exact(&pos("6x6", "", "")).is_err(),
        "36 empty cells are too many"
    );
    assert!(
        richman(&pos("4x4", "", "")).is_err(),
        "16 empty cells are too many"
    );
}

/// Naive enumeration with the crate's independent `Position::winner`: (black wins, loser
/// counts per empty cell).
fn naive(p: &Position) -> (u64, Vec<u64>) {
    let b = *p.board();
    let empty: Vec<Cell> = p.empty_cells().iter().collect();
    let mut wins = 0;
    let mut loser = vec![0u64; empty.len()];
    for m in 0u64..1 << empty.len() {
        let mut black = p.stones(Colour::Black);
        let mut white = p.stones(Colour::White);
        for (i, &c) in empty.iter().enumerate() {
            if m >> i & 1 == 1 {
                black.insert(c);
            } else {
                white.insert(c);
            }
        }
        let w = winner_of(b, black, white).unwrap();
        wins += (w == Colour::Black) as u64;
        for (i, l) in loser.iter_mut().enumerate() {
            let is_black = m >> i & 1 == 1;
            if is_black != (w == Colour::Black) {
                *l += 1;
            }
        }
    }
    (wins, loser)
}

#[test]
fn exact_matches_naive_enumeration_small_and_large_boards() {
    use rand::{Rng, SeedableRng};
    let mut cases = vec![pos("4x4", "b3", "c2"), pos("3x5", "a2", "c4 b1")];
    // Undecided positions on 13x13 and 19x17 (the 384-bit path): take a random full board,
    // empty one of its critical cells (so the winner's connection breaks and the loser still
    // has none) and some random cells.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for (cols, rows) in [(13u32, 13u32), (19, 17), (12, 11)] {
        let b = Board::new(cols, rows).unwrap();
        loop {
            let black: CellSet = b.cells().iter().filter(|_| rng.random_bool(0.5)).collect();
            let crit: Vec<Cell> = critical_cells(b, &black).iter().collect();
            if crit.is_empty() {
                continue;
            }
            let mut empty = CellSet::single(crit[rng.random_range(0..crit.len())]);
            let all: Vec<Cell> = b.cells().iter().collect();
            while empty.len() < 11 {
                empty.insert(all[rng.random_range(0..all.len())]);
            }
            let p = Position::new(b, black - empty, b.cells() - black - empty).unwrap();
            assert_eq!(p.winner(), None);
            cases.push(p);
            break;
        }
    }
    // The random boards are retried until undecided: none is skipped.
    assert_eq!(cases.len(), 5);
    for p in &cases {
        let a = exact(p).unwrap();
        let (wins, loser) = naive(p);
        assert_eq!(a.black_wins, wins, "{}", p.board());
        assert_eq!(a.cells.iter().map(|c| c.loser).collect::<Vec<_>>(), loser);
    }
}
