//! Builds one colour's connections on a position N times, for profiling the VC engine
//! (`perf record`, `valgrind --tool=callgrind`). Usage:
//! `cargo run --release --example vc_build -- "MOVES" black|white fast|limited|unlimited|hsearch N`
//! (moves alternate, Black first, on 11×11).

use hexproof::board::{Board, Colour, Notation};
use hexproof::position::Position;
use hexproof::vc::{Variant, VcParams, VcSet};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves = args.get(1).map(String::as_str).unwrap_or("");
    let colour = match args.get(2).map(String::as_str) {
        Some("white") => Colour::White,
        _ => Colour::Black,
    };
    let variant = Variant::parse(args.get(3).map(String::as_str).unwrap_or("fast"))
        .expect("variant: fast, limited, unlimited or hsearch");
    let n: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(100);
    let b = Board::square(11).unwrap();
    let p = Position::from_moves(b, moves, Notation::Letters).expect("moves");
    let t = Instant::now();
    let mut counts = None;
    let mut params = VcParams::new(variant);
    if let Ok(v) = std::env::var("HEXPROOF_VC_SEMI_LIMIT") {
        params.semi_limit = v.parse().ok();
    }
    if let Ok(v) = std::env::var("HEXPROOF_VC_AND_SIZE_LIMIT") {
        params.and_size_limit = v.parse().ok();
    }
    // A warm engine, rebuilt n times (as the solver and the benchmark use it).
    let mut set = VcSet::new(colour, params);
    for _ in 0..n {
        set.rebuild(&p);
        counts = Some(set.counts());
    }
    let dt = t.elapsed();
    eprintln!(
        "{n} builds, {:.3} ms each; {:?}",
        dt.as_secs_f64() * 1e3 / n as f64,
        counts
    );
}
