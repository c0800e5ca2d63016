//! Criterion benchmark of the solver's connection build (issue 7): one FastVC build of one
//! colour with the solver's parameters (fast variant, VSC soft limit
//! [`hexproof::dfpn::SOLVER_SEMI_LIMIT`], `stop_at_win`), on 7×7 positions of the kind the
//! whole-board solver evaluates (an opening and a few replies; the heavy edge openings a4, g2,
//! a3, b4 and the centre). A node of `hexproof solve` is two such builds (BENCHMARKS.md,
//! "Where a node's time goes").
//!
//! Run: `cargo bench --bench solver_vc`. Before criterion starts, a table of thread-CPU
//! microseconds per build (the mean of 200 builds) and the stored counts is printed to stderr,
//! so one run gives the figure without criterion's wall clock (which the shared machine's load
//! inflates). `HEXPROOF_VC_REPORT=only` prints the table and exits.

use criterion::{criterion_group, Criterion};
use hexproof::board::{Board, Colour, Notation};
use hexproof::dfpn::{SOLVER_EDGE_SEMI_LIMIT, SOLVER_SEMI_LIMIT};
use hexproof::player::clock::thread_cpu_time;
use hexproof::position::Position;
use hexproof::vc::{Variant, VcBudget, VcParams, VcSet};
use std::hint::black_box;
use std::time::Duration;

/// 7×7 positions (Black first, alternating) like the nodes of the heavy openings' searches.
const POSITIONS: [&str; 6] = [
    "d4",
    "a4 d4",
    "g2 e3 c5",
    "a3 d4 c4 d5",
    "b4 d3 c5 e2 e4",
    "g1 c5 e3 d4 b5 e2",
];

/// The solver's build parameters (`SolveParams::vc_params` with the evaluator's early stop).
fn params() -> VcParams {
    let mut p = VcParams::new(Variant::Fast);
    p.budget = VcBudget {
        max_connections: 200_000,
        time: Some(Duration::from_secs(5)),
    };
    p.semi_limit = SOLVER_SEMI_LIMIT;
    p.edge_semi_limit = SOLVER_EDGE_SEMI_LIMIT;
    p.stop_at_win = true;
    p
}

fn position(moves: &str) -> Position {
    Position::from_moves(Board::square(7).unwrap(), moves, Notation::Letters).unwrap()
}

fn report() {
    eprintln!("| 7×7 position | colour | status | VCs | VSCs | CPU µs per build |");
    eprintln!("| --- | --- | --- | --- | --- | --- |");
    let mut total = 0.0;
    for moves in POSITIONS {
        let p = position(moves);
        for colour in [Colour::Black, Colour::White] {
            let mut v = VcSet::new(colour, params());
            v.rebuild(&p);
            let reps = 200;
            let t = thread_cpu_time();
            for _ in 0..reps {
                v.rebuild(black_box(&p));
            }
            let us = (thread_cpu_time() - t).as_secs_f64() * 1e6 / reps as f64;
            total += us;
            let c = v.counts();
            eprintln!(
                "| {moves} | {colour:?} | {:?} | {} | {} | {us:.0} |",
                v.status(),
                c.vcs,
                c.vscs
            );
        }
    }
    eprintln!("| **all 12 builds** | | | | | **{total:.0}** |");
}

fn bench(c: &mut Criterion) {
    if std::env::var("HEXPROOF_VC_REPORT").as_deref() != Ok("0") {
        report();
        if std::env::var("HEXPROOF_VC_REPORT").as_deref() == Ok("only") {
            std::process::exit(0);
        }
    }
    for moves in POSITIONS {
        let p = position(moves);
        for colour in [Colour::Black, Colour::White] {
            let mut v = VcSet::new(colour, params());
            c.bench_function(&format!("solver_vc/7x7 {moves} {colour:?}"), |b| {
                b.iter(|| v.rebuild(black_box(&p)))
            });
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    targets = bench
}
criterion::criterion_main!(benches);
