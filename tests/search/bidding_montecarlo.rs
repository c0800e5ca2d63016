//! Monte Carlo estimates of L_H (Payne & Robeva §5) against exact enumeration, and the
//! determinism contract: results depend on the seed and sample count, not on threads.

use hexproof::bidding::bits::Wide;
use hexproof::bidding::grid::Grid;
use hexproof::bidding::montecarlo::{chunk_rng, run_chunk};
use hexproof::bidding::{exact, monte_carlo, Analysis, McConfig, Method, CHUNK};
use hexproof::board::{Board, Notation};
use hexproof::position::Position;

fn pos(board: &str, black: &str, white: &str) -> Position {
    Position::from_names(
        Board::parse(board).unwrap(),
        black,
        white,
        Notation::Letters,
    )
    .unwrap()
}

/// z-scores of the Monte Carlo estimates against the exact values, one per empty cell, plus
/// the one of Black's winning probability.
fn z_scores(mc: &Analysis, ex: &Analysis) -> Vec<f64> {
    assert_eq!(mc.cells.len(), ex.cells.len());
    let mut z: Vec<f64> = (0..mc.cells.len())
        .map(|i| {
            assert_eq!(mc.cells[i].cell, ex.cells[i].cell);
            let se = mc.loser_se(i);
            (mc.loser_prob(i) - ex.loser_prob(i)) / se
        })
        .collect();
    z.push((mc.black_win_prob() - ex.black_win_prob()) / mc.black_win_se());
    z
}

#[test]
fn monte_carlo_agrees_with_exact_within_error_bars() {
    let positions = [
        pos("4x4", "", ""),
        pos("4x4", "b3", "c2"),
        pos("4x4", "a4 b2", "c3"),
        pos("5x5", "c3", "b4 d2"),
        pos("5x5", "b2 d4", "c3"),
    ];
    let mut all = Vec::new();
    for (k, p) in positions.iter().enumerate() {
        let ex = exact(p).unwrap();
        let mc = monte_carlo(
            p,
            &McConfig {
                samples: 200_000,
                seed: 100 + k as u64,
                threads: None,
            },
        )
        .unwrap();
        assert_eq!(
            mc.method,
            Method::MonteCarlo {
                seed: 100 + k as u64
            }
        );
        let z = z_scores(&mc, &ex);
        let worst = z.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
        eprintln!("{p:?}: max |z| = {worst:.2}");
        assert!(worst < 4.5, "{p:?}: |z| up to {worst}");
        all.extend(z);
        // The Monte Carlo best move is exactly optimal or within two standard errors of it.
        let b = mc.best().unwrap();
        let eb = ex.best().unwrap();
        assert!(
            ex.loser_prob(b) - ex.loser_prob(eb) <= 2.0 * mc.loser_se(b) + 2.0 * mc.loser_se(eb),
            "{p:?}"
        );
    }
    // The standard errors are honest: the z-scores have variance near 1 (the cells of one
    // position are correlated, so allow a wide band; 92 scores).
    let mean_sq = all.iter().map(|z| z * z).sum::<f64>() / all.len() as f64;
    eprintln!("{} z-scores, mean z^2 = {mean_sq:.3}", all.len());
    assert!((0.4..2.0).contains(&mean_sq), "mean z^2 = {mean_sq}");
}

#[test]
fn same_seed_same_answer_for_any_thread_count() {
    let p = pos("11x11", "f6 d5", "e7");
    // Not a multiple of the chunk size, so the last chunk is partial.
    let samples = 5 * CHUNK + 1234;
    let run = |threads, seed| {
        monte_carlo(
            &p,
            &McConfig {
                samples,
                seed,
                threads,
            },
        )
        .unwrap()
    };
    let one = run(Some(1), 42);
    assert_eq!(one.fillings, samples);
    assert_eq!(one, run(Some(2), 42));
    assert_eq!(one, run(Some(3), 42));
    assert_eq!(one, run(None, 42));
    assert_ne!(one.cells, run(Some(2), 43).cells);
    // Total loser counts: every filling has (empty cells) - (cells of the winner's colour).
    let total: u64 = one.cells.iter().map(|c| c.loser).sum();
    assert!(total > 0 && total < samples * one.cells.len() as u64);
}

#[test]
fn wide_and_u128_boards_agree_bit_for_bit() {
    // Same layout, same random words: the 384-bit path must reproduce the u128 path.
    for board in ["11x11", "8x16", "3x7"] {
        let b = Board::parse(board).unwrap();
        let small: Grid<u128> = Grid::new(b).unwrap();
        let wide: Grid<Wide> = Grid::new(b).unwrap();
        let p = Position::from_names(b, "c2", "b3", Notation::Letters).unwrap();
        let (bs, _) = small.stones(&p);
        let (bw, _) = wide.stones(&p);
        let es = small.from_cellset(&p.empty_cells());
        let ew = wide.from_cellset(&p.empty_cells());
        let a = run_chunk(&small, bs, es, &mut chunk_rng(9, 3), 3000);
        let c = run_chunk(&wide, bw, ew, &mut chunk_rng(9, 3), 3000);
        assert_eq!(a.0, c.0, "{board}");
        assert_eq!(&a.1[..], &c.1[..small.len()], "{board}");
    }
}

#[test]
fn large_boards_are_sane() {
    // On an empty square board Black wins exactly half the fillings (colour-swapping
    // reflection), and L_H is below 1/2 everywhere.
    for n in [12u32, 19] {
        let p = Position::empty(Board::square(n).unwrap());
        let a = monte_carlo(
            &p,
            &McConfig {
                samples: 20_000,
                seed: 5,
                threads: None,
            },
        )
        .unwrap();
        assert_eq!(a.cells.len(), (n * n) as usize);
        let z = (a.black_win_prob() - 0.5) / a.black_win_se();
        assert!(z.abs() < 4.5, "{n}x{n}: z = {z}");
        let b = a.best().unwrap();
        assert!(a.loser_prob(b) < 0.5);
    }
}

#[test]
fn bid_follows_proposition_5_2() {
    let p = pos("5x5", "c3", "b4 d2");
    let ex = exact(&p).unwrap();
    let adv = ex.advice(1000, 1000).unwrap();
    let b = ex.best().unwrap();
    let want = ((0.5 - ex.loser_prob(b)) * 1000.0).floor() as u64;
    assert_eq!(adv.bid, want);
    assert_eq!(adv.cell, Some(ex.cells[b].cell));
    assert_eq!(ex.advice(1000, 3).unwrap().bid, want.min(3));
    assert!(ex.advice(10, 11).is_err());
    let mc = monte_carlo(&p, &McConfig::default()).unwrap();
    let m = mc.advice(1000, 1000).unwrap();
    // The Monte Carlo bid is within a few standard errors (times 1000 chips) of the exact one.
    assert!((m.bid as f64 - want as f64).abs() <= 1000.0 * 4.0 * m.loser_se + 1.0);
}

#[test]
fn zero_samples_is_an_error() {
    let p = pos("3x3", "", "");
    let cfg = McConfig {
        samples: 0,
        ..McConfig::default()
    };
    assert!(monte_carlo(&p, &cfg).is_err());
}
