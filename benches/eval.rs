//! Criterion benchmarks of the circuit evaluation (issue 8): the Kirchhoff system of Black's
//! circuit on 11×11 and 19×19 positions solved by the hand-written Jacobi-preconditioned
//! conjugate gradients (`eval::solve::cg`, what the engine uses) against dense Gaussian
//! elimination (`eval::solve::dense_solve`, the reference); and one whole evaluation (both
//! circuits, with connection links) on an 11×11 middle-game position.
//!
//! Run: `cargo bench --bench eval`.

use criterion::{criterion_group, criterion_main, Criterion};
use hexproof::board::{Board, Colour, Notation};
use hexproof::eval::solve::{cg, dense_solve};
use hexproof::eval::{evaluate, Circuit, VcLinks};
use hexproof::position::Position;
use hexproof::vc::{build_both, Variant, VcParams};
use std::hint::black_box;

fn position(n: u32, black: &str, white: &str) -> Position {
    Position::from_names(Board::square(n).unwrap(), black, white, Notation::Letters).unwrap()
}

fn bench(c: &mut Criterion) {
    let cases = [
        ("11x11", position(11, "f6 d8 h4 c9", "e7 g5 f8")),
        ("19x19", position(19, "j10 g13 m7", "k9 h12")),
    ];
    for (name, p) in &cases {
        let circuit = Circuit::build(p, Colour::Black, None, VcLinks::None);
        let (m, b, _) = circuit.system().unwrap();
        c.bench_function(&format!("eval/cg {name} ({} unknowns)", b.len()), |bch| {
            bch.iter(|| {
                let mut x = vec![0.0; b.len()];
                black_box(cg(&m, &b, &mut x, 1e-10, 4 * b.len() + 50));
                x
            })
        });
        let dense = m.to_dense();
        c.bench_function(
            &format!("eval/dense {name} ({} unknowns)", b.len()),
            |bch| bch.iter(|| black_box(dense_solve(dense.clone(), b.clone()))),
        );
    }
    let p = &cases[0].1;
    let (vb, vw) = build_both(p, &VcParams::new(Variant::Fast));
    c.bench_function("eval/evaluate 11x11 with VC links (both)", |bch| {
        bch.iter(|| black_box(evaluate(p, Some((&vb, &vw)), VcLinks::Both)))
    });
    c.bench_function("eval/evaluate 11x11 plain", |bch| {
        bch.iter(|| black_box(evaluate(p, None, VcLinks::None)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
