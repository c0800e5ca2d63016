//! The circuit evaluation's Kirchhoff solver (hand-written Jacobi-preconditioned conjugate
//! gradients, `src/eval/solve.rs`, compiled in here unchanged) against faer's sparse
//! Cholesky (LLᵀ) and LU on the same systems (issue 8: "solve the Kirchhoff system with a
//! well-kept sparse linear-algebra crate (e.g. faer) unless a hand-written solver measures
//! faster — say which and why").
//!
//! The systems come from `systems.txt`, written by the main crate's
//! `cargo run --release --example kirchhoff_systems`. Each solver is timed as the engine
//! would use it: a new circuit per evaluated position, so faer pays its symbolic analysis
//! every time ("full"); "numeric" reuses one symbolic factorisation (a lower bound that the
//! engine could only reach if the sparsity pattern never changed). Every answer is checked
//! against dense Gaussian elimination.
//!
//! Run: `cd benches/faer-compare && cargo run --release` (add `-- --quick` for fewer repeats).

#[path = "../../../src/eval/solve.rs"]
#[allow(dead_code)]
mod solve;

use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Llt, Lu, SymbolicLlt};
use faer::sparse::{SparseColMat, Triplet};
use faer::{Mat, Side};
use solve::{cg, dense_solve, Sparse};
use std::hint::black_box;
use std::time::{Duration, Instant};

struct System {
    name: String,
    a: Sparse,
    b: Vec<f64>,
}

fn nums<T: std::str::FromStr>(line: &str, key: &str) -> Vec<T> {
    let rest = line
        .strip_prefix(key)
        .unwrap_or_else(|| panic!("expected a '{key}' line, got '{line}'"));
    rest.split_whitespace()
        .map(|s| s.parse().ok().expect("a number"))
        .collect()
}

fn read_systems(text: &str) -> Vec<System> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let head: Vec<&str> = lines[i].split_whitespace().collect();
        assert_eq!(head.first(), Some(&"system"), "line {}", i + 1);
        let a = Sparse {
            diag: nums(lines[i + 1], "diag"),
            row: nums(lines[i + 2], "row"),
            col: nums(lines[i + 3], "col"),
            val: nums(lines[i + 4], "val"),
        };
        let b = nums(lines[i + 5], "rhs");
        assert_eq!(a.diag.len(), b.len());
        out.push(System {
            name: head[1].to_string(),
            a,
            b,
        });
        i += 6;
    }
    out
}

/// The full symmetric matrix as faer triplets.
fn triplets(a: &Sparse) -> Vec<Triplet<usize, usize, f64>> {
    let mut t = Vec::with_capacity(a.diag.len() + a.col.len());
    for i in 0..a.n() {
        t.push(Triplet::new(i, i, a.diag[i]));
        for k in a.row[i] as usize..a.row[i + 1] as usize {
            t.push(Triplet::new(a.col[k] as usize, i, a.val[k]));
        }
    }
    t
}

fn faer_matrix(a: &Sparse) -> SparseColMat<usize, f64> {
    SparseColMat::try_new_from_triplets(a.n(), a.n(), &triplets(a)).expect("valid triplets")
}

fn rhs(b: &[f64]) -> Mat<f64> {
    Mat::from_fn(b.len(), 1, |i, _| b[i])
}

fn max_diff(x: &[f64], y: impl Fn(usize) -> f64) -> f64 {
    (0..x.len()).map(|i| (x[i] - y(i)).abs()).fold(0.0, f64::max)
}

/// Mean time per call: the fastest of `batches` batches (the least disturbed by other load
/// on a shared machine), each running `f` for about `batch` of wall time.
fn time(batches: usize, batch: Duration, mut f: impl FnMut()) -> Duration {
    // Calibrate the repeat count.
    let t = Instant::now();
    let mut reps = 0u32;
    while t.elapsed() < batch / 4 || reps == 0 {
        f();
        reps += 1;
    }
    let reps = (reps * 4).max(1);
    let mut best = Duration::MAX;
    for _ in 0..batches {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        best = best.min(t.elapsed() / reps);
    }
    best
}

fn fmt(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.1} µs")
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (batches, batch) = if quick {
        (3, Duration::from_millis(30))
    } else {
        (15, Duration::from_millis(100))
    };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/systems.txt");
    let text = std::fs::read_to_string(path).expect("systems.txt (see the module docs)");
    let systems = read_systems(&text);
    println!("| system | unknowns | off-diagonal entries | CG (ours) | CG iterations | faer LLᵀ full | faer LLᵀ numeric+solve | faer LU full | dense (ours) | max error CG / LLᵀ / LU vs dense |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for s in &systems {
        let n = s.b.len();
        let exact = dense_solve(s.a.to_dense(), s.b.clone());
        // Ours.
        let mut x = vec![0.0; n];
        let iters = cg(&s.a, &s.b, &mut x, 1e-10, 4 * n + 50);
        let err_cg = max_diff(&exact, |i| x[i]);
        let t_cg = time(batches, batch, || {
            let mut x = vec![0.0; n];
            black_box(cg(&s.a, &s.b, &mut x, 1e-10, 4 * n + 50));
            black_box(x);
        });
        let t_dense = time(batches.min(5), batch, || {
            black_box(dense_solve(s.a.to_dense(), s.b.clone()));
        });
        // faer Cholesky, everything per call: matrix, symbolic, numeric, solve.
        let m = faer_matrix(&s.a);
        let llt = m.sp_cholesky(Side::Lower).expect("SPD");
        let mut xl = rhs(&s.b);
        llt.solve_in_place(xl.as_mut());
        let err_llt = max_diff(&exact, |i| xl[(i, 0)]);
        let t_llt = time(batches, batch, || {
            let m = faer_matrix(&s.a);
            let llt = m.sp_cholesky(Side::Lower).expect("SPD");
            let mut x = rhs(&s.b);
            llt.solve_in_place(x.as_mut());
            black_box(x);
        });
        // Numeric factorisation and solve only (symbolic analysis reused).
        let symbolic = SymbolicLlt::try_new(m.symbolic(), Side::Lower).expect("symbolic");
        let t_llt_num = time(batches, batch, || {
            let llt = Llt::try_new_with_symbolic(symbolic.clone(), m.as_ref(), Side::Lower)
                .expect("SPD");
            let mut x = rhs(&s.b);
            llt.solve_in_place(x.as_mut());
            black_box(x);
        });
        // faer LU (what a non-symmetric formulation would need).
        let lu: Lu<usize, f64> = m.sp_lu().expect("LU");
        let mut xu = rhs(&s.b);
        lu.solve_in_place(xu.as_mut());
        let err_lu = max_diff(&exact, |i| xu[(i, 0)]);
        let t_lu = time(batches, batch, || {
            let m = faer_matrix(&s.a);
            let lu = m.sp_lu().expect("LU");
            let mut x = rhs(&s.b);
            lu.solve_in_place(x.as_mut());
            black_box(x);
        });
        assert!(err_llt < 1e-8 && err_lu < 1e-8, "faer disagrees with dense elimination");
        assert!(err_cg < 1e-6, "CG disagrees with dense elimination");
        println!(
            "| {} | {n} | {} | {} | {iters} | {} | {} | {} | {} | {err_cg:.1e} / {err_llt:.1e} / {err_lu:.1e} |",
            s.name,
            s.a.col.len(),
            fmt(t_cg),
            fmt(t_llt),
            fmt(t_llt_num),
            fmt(t_lu),
            fmt(t_dense),
        );
    }
}
