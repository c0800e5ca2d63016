//! Criterion benchmarks of the virtual-connection engines (issue 6): time per full build of
//! one colour's connections on the 2011 Olympiad positions of Pawlewicz et al., Table II
//! (games 3, 5, 6, 7, 9, 10, 11; tests/fixtures/olympiad-2011-positions.txt) and on the
//! empty 11×11 board, both colours, every variant; incremental update against rebuild; and
//! the budget on an explosive position (the paper's Fig. 4 kind).
//!
//! Run: `cargo bench --bench vc`. Before criterion starts, a table of counts (VCs, VSCs,
//! endpoint pairs) and thread-CPU times per build is printed to stderr (markdown), so one run
//! gives every figure of the VC section of BENCHMARKS.md. `HEXPROOF_VC_REPORT=only` prints the table
//! and exits (`=builds`: only the build table; `=undo`: only the update and undo tables);
//! `HEXPROOF_VC_REPORT=0` skips it. `HEXPROOF_VC_VARIANTS=fast` and
//! `HEXPROOF_VC_POSITIONS=empty,gm10` restrict the table; `HEXPROOF_VC_SEMI_LIMIT=none` (or a
//! number) overrides the VSC soft limit.

use criterion::{criterion_group, BatchSize, Criterion};
use hexproof::board::{Board, Cell, Colour, Notation};
use hexproof::position::Position;
use hexproof::vc::{Variant, VcBudget, VcParams, VcSet};
use std::hint::black_box;
use std::time::Duration;

const FIXTURE: &str = include_str!("../tests/fixtures/olympiad-2011-positions.txt");

/// The empty 11×11 board and the Table II positions, with their move lists.
/// A game's position before its last move, that move, and who played it (Black first).
fn before_last_move(b: &Board, pos: &Position, moves: &[String]) -> (Position, Cell, Colour) {
    let last = b
        .parse_cell(moves.last().unwrap(), Notation::Letters)
        .unwrap();
    let mover = if moves.len() % 2 == 1 {
        Colour::Black
    } else {
        Colour::White
    };
    let mut before = pos.clone();
    before.clear(last);
    (before, last, mover)
}

fn positions() -> Vec<(String, Position, Vec<String>)> {
    let b = Board::square(11).unwrap();
    let mut out = vec![("empty".to_string(), Position::empty(b), Vec::new())];
    for line in FIXTURE.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (name, moves) = line.split_once('\t').expect("name<TAB>moves");
        let mut p = Position::empty(b);
        let moves: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
        for (k, m) in moves.iter().enumerate() {
            let c = b.parse_cell(m, Notation::Letters).unwrap();
            p.play(
                if k % 2 == 0 {
                    Colour::Black
                } else {
                    Colour::White
                },
                c,
            )
            .unwrap();
        }
        out.push((name.to_string(), p, moves));
    }
    out
}

/// An explosive position of the kind of Pawlewicz et al.'s Fig. 4 ("a position with many VCs
/// and VSCs": 696,901 VCs unlimited; the figure is not in our copy of the paper). Found by a
/// random search for positions where unlimited FastVC runs out of budget; like the paper's,
/// it has b7, d7 and i8 empty. Moves alternate, Black first; White to move.
const EXPLOSIVE: &str = "b1 e1 c2 b2 h2 j4 b3 d5 j3 k5 f5 k8 a6 j10 e7 c11 f7";

fn explosive() -> Position {
    let b = Board::square(11).unwrap();
    let mut p = Position::empty(b);
    for (k, m) in EXPLOSIVE.split_whitespace().enumerate() {
        let c = b.parse_cell(m, Notation::Letters).unwrap();
        p.play(
            if k % 2 == 0 {
                Colour::Black
            } else {
                Colour::White
            },
            c,
        )
        .unwrap();
    }
    p
}

fn params(variant: Variant) -> VcParams {
    let mut p = VcParams::new(variant);
    if std::env::var("HEXPROOF_VC_NO_BORDER_AND").is_ok() {
        p.and_over_borders = false;
    }
    if std::env::var("HEXPROOF_VC_FIFO").is_ok() {
        p.smallest_first = false;
    }
    // `none` switches the VSC soft limit off (the engine before the limit), a number sets it.
    if let Ok(v) = std::env::var("HEXPROOF_VC_SEMI_LIMIT") {
        p.semi_limit = v.parse().ok();
    }
    p.budget = VcBudget {
        max_connections: 2_000_000,
        time: Some(Duration::from_secs(30)),
    };
    p
}

/// Thread CPU time (Linux `CLOCK_THREAD_CPUTIME_ID`), as in benches/bidding.rs: on a shared
/// machine wall time measures the share of a core we got, CPU time the work done.
#[cfg(target_os = "linux")]
mod cpu_time {
    use criterion::measurement::{Measurement, ValueFormatter, WallTime};

    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }

    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }

    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

    pub fn now_ns() -> u64 {
        let mut ts = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec (two 64-bit fields on 64-bit Linux).
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    }

    /// CPU time of the measuring thread, in nanoseconds.
    pub struct ThreadCpuTime {
        wall: WallTime,
    }

    impl ThreadCpuTime {
        pub fn new() -> Self {
            ThreadCpuTime { wall: WallTime }
        }
    }

    impl Measurement for ThreadCpuTime {
        type Intermediate = u64;
        type Value = u64;
        fn start(&self) -> u64 {
            now_ns()
        }
        fn end(&self, i: u64) -> u64 {
            now_ns() - i
        }
        fn add(&self, a: &u64, b: &u64) -> u64 {
            a + b
        }
        fn zero(&self) -> u64 {
            0
        }
        fn to_f64(&self, v: &u64) -> f64 {
            *v as f64
        }
        fn formatter(&self) -> &dyn ValueFormatter {
            self.wall.formatter()
        }
    }
}

/// The explosive position: limited variants build it; unlimited runs into its budget.
#[cfg(target_os = "linux")]
fn report_explosive() {
    let pos = explosive();
    eprintln!();
    eprintln!("explosive position (black): {EXPLOSIVE}");
    eprintln!("| variant | budget | status | VCs | VSCs | CPU ms |");
    eprintln!("|---|---|---|---:|---:|---:|");
    for (variant, max, secs) in [
        (Variant::Fast, 2_000_000, 30),
        (Variant::Limited, 2_000_000, 30),
        (Variant::HSearch, 2_000_000, 30),
        (Variant::Unlimited, 500_000, 30),
        (Variant::Unlimited, 2_000_000, 30),
        (Variant::Unlimited, 2_000_000, 2),
    ] {
        let mut p = params(variant);
        p.budget = VcBudget {
            max_connections: max,
            time: Some(Duration::from_secs(secs)),
        };
        let s = cpu_time::now_ns();
        let v = VcSet::build(&pos, Colour::Black, p);
        let ms = (cpu_time::now_ns() - s) as f64 / 1e6;
        let c = v.counts();
        eprintln!(
            "| {variant} | {max} carriers, {secs} s | {:?} | {} | {} | {ms:.1} |",
            v.status(),
            c.vcs,
            c.vscs
        );
    }
}

/// Median thread-CPU nanoseconds of `f` over at least 5 and at most 200 runs or 400 ms.
#[cfg(target_os = "linux")]
fn median_cpu_ns(mut f: impl FnMut()) -> (u64, u64) {
    let mut times = Vec::new();
    let t0 = cpu_time::now_ns();
    while times.len() < 5 || (cpu_time::now_ns() - t0 < 400_000_000 && times.len() < 200) {
        let s = cpu_time::now_ns();
        f();
        times.push(cpu_time::now_ns() - s);
    }
    times.sort_unstable();
    (times[times.len() / 2], times[0])
}

/// Incremental update against rebuild (fast variant): for each game, the engine built on the
/// position before the last move, then `play` of that move, against a rebuild of the position
/// after it. The update is timed on a clone-free path: a warm engine is rebuilt on the
/// position before (untimed) and then updated (timed).
#[cfg(target_os = "linux")]
fn report_incremental() {
    let b = Board::square(11).unwrap();
    eprintln!();
    eprintln!("incremental update of the last move (fast variant), CPU ms, median (min):");
    eprintln!("| position | colour | mover | play() | play_undoable() + unplay() | rebuild | VCs after play / rebuild |");
    eprintln!("|---|---|---|---:|---:|---:|---:|");
    for (name, pos, moves) in positions().into_iter().filter(|p| !p.2.is_empty()) {
        let (before, last, mover) = before_last_move(&b, &pos, &moves);
        for colour in [Colour::Black, Colour::White] {
            let mut v = VcSet::new(colour, params(Variant::Fast));
            let mut times = Vec::new();
            let t0 = cpu_time::now_ns();
            while times.len() < 5 || (cpu_time::now_ns() - t0 < 400_000_000 && times.len() < 200) {
                v.rebuild(&before);
                let s = cpu_time::now_ns();
                v.play(mover, last).unwrap();
                times.push(cpu_time::now_ns() - s);
            }
            times.sort_unstable();
            let played = v.counts().vcs;
            // A depth-first search's step: update on the way down, undo on the way back.
            v.rebuild(&before);
            let (umed, umin) = median_cpu_ns(|| {
                v.play_undoable(mover, last).unwrap();
                assert!(v.unplay());
            });
            let mut r = VcSet::new(colour, params(Variant::Fast));
            let (med, min) = median_cpu_ns(|| r.rebuild(black_box(&pos)));
            eprintln!(
                "| {name} | {colour} | {mover} | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2} ({:.2}) | {played} / {} |",
                times[times.len() / 2] as f64 / 1e6,
                times[0] as f64 / 1e6,
                umed as f64 / 1e6,
                umin as f64 / 1e6,
                med as f64 / 1e6,
                min as f64 / 1e6,
                r.counts().vcs
            );
        }
    }
}

/// A solver's per-node cost on 7×7 (fast variant): for every legal move of the player to move
/// in a few positions, `play_undoable` + `unplay` on one warm engine against a rebuild of the
/// child position; CPU ms per move, mean over the moves, best of 5 passes.
#[cfg(target_os = "linux")]
fn report_undo_7x7() {
    let b = Board::square(7).unwrap();
    eprintln!();
    eprintln!("7x7, every move of the player to move (fast variant), CPU ms per move:");
    eprintln!("| position | colour | moves | play_undoable() + unplay() | rebuild of the child |");
    eprintln!("|---|---|---:|---:|---:|");
    for moves in ["", "d4", "d4 c5", "d4 c5 e3 e4 c4 d3"] {
        let pos = Position::from_moves(b, moves, Notation::Letters).unwrap();
        let mover = if moves.split_whitespace().count() % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        let cells: Vec<_> = pos.empty_cells().iter().collect();
        for colour in [Colour::Black, Colour::White] {
            let mut v = VcSet::new(colour, params(Variant::Fast));
            v.rebuild(&pos);
            let mut r = VcSet::new(colour, params(Variant::Fast));
            let (mut best_u, mut best_r) = (u64::MAX, u64::MAX);
            for _ in 0..5 {
                let s = cpu_time::now_ns();
                for &c in &cells {
                    v.play_undoable(mover, c).unwrap();
                    assert!(v.unplay());
                }
                best_u = best_u.min(cpu_time::now_ns() - s);
                let s = cpu_time::now_ns();
                for &c in &cells {
                    let mut child = pos.clone();
                    child.play(mover, c).unwrap();
                    r.rebuild(black_box(&child));
                }
                best_r = best_r.min(cpu_time::now_ns() - s);
            }
            let n = cells.len() as f64;
            let name = if moves.is_empty() { "empty" } else { moves };
            eprintln!(
                "| {name} | {colour} | {} | {:.3} | {:.3} |",
                cells.len(),
                best_u as f64 / 1e6 / n,
                best_r as f64 / 1e6 / n
            );
        }
    }
}

/// The table: per position, variant and colour, the counts and the thread-CPU time of a full
/// build (median of repeated rebuilds with a warm engine), plus the incremental update of the
/// last move against a rebuild.
#[cfg(target_os = "linux")]
fn report() {
    eprintln!("| position | colour | variant | status | VCs | VSCs | VC pairs | VSC pairs | winning VC / VSC | CPU ms per build (median, min) |");
    eprintln!("|---|---|---|---|---:|---:|---:|---:|---|---:|");
    let only_pos = std::env::var("HEXPROOF_VC_POSITIONS").unwrap_or_default();
    for (name, pos, _) in positions() {
        if !only_pos.is_empty() && !only_pos.split(',').any(|p| p == name) {
            continue;
        }
        for colour in [Colour::Black, Colour::White] {
            let only = std::env::var("HEXPROOF_VC_VARIANTS").unwrap_or_default();
            for variant in [
                Variant::Fast,
                Variant::Limited,
                Variant::Unlimited,
                Variant::HSearch,
            ] {
                if !only.is_empty() && !only.split(',').any(|v| v == variant.name()) {
                    continue;
                }
                let mut v = VcSet::new(colour, params(variant));
                v.rebuild(&pos);
                let c = v.counts();
                let (med, min) = median_cpu_ns(|| v.rebuild(black_box(&pos)));
                let (med, min) = (med as f64 / 1e6, min as f64 / 1e6);
                eprintln!(
                    "| {name} | {colour} | {variant} | {:?} | {} | {} | {} | {} | {} / {} | {med:.2} ({min:.2}) |",
                    v.status(),
                    c.vcs,
                    c.vscs,
                    c.vc_pairs,
                    c.vsc_pairs,
                    v.winning_vcs().len(),
                    v.winning_vscs().len()
                );
            }
        }
    }
}

fn build_wall(c: &mut Criterion) {
    let mut group = c.benchmark_group("vc_build");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, pos, _) in positions() {
        for variant in Variant::ALL {
            for colour in [Colour::Black, Colour::White] {
                let mut v = VcSet::new(colour, params(variant));
                group.bench_function(format!("{variant}/{name}/{colour}"), |b| {
                    b.iter(|| {
                        v.rebuild(black_box(&pos));
                        v.counts().vcs
                    })
                });
            }
        }
    }
    group.finish();
}

/// The last move of each game: incremental update against a from-scratch build.
fn incremental(c: &mut Criterion) {
    let mut group = c.benchmark_group("vc_update_last_move");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let b = Board::square(11).unwrap();
    for (name, pos, moves) in positions().into_iter().filter(|p| !p.2.is_empty()) {
        let (before, last, mover) = before_last_move(&b, &pos, &moves);
        for colour in [Colour::Black, Colour::White] {
            group.bench_function(format!("fast/{name}/{colour}/incremental"), |bch| {
                bch.iter_batched(
                    || VcSet::build(&before, colour, params(Variant::Fast)),
                    |mut v| {
                        v.play(mover, last).unwrap();
                        v
                    },
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

#[cfg(target_os = "linux")]
fn build_cpu(c: &mut Criterion<cpu_time::ThreadCpuTime>) {
    let mut group = c.benchmark_group("vc_build_cpu");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, pos, _) in positions() {
        for colour in [Colour::Black, Colour::White] {
            let mut v = VcSet::new(colour, params(Variant::Fast));
            group.bench_function(format!("fast/{name}/{colour}"), |b| {
                b.iter(|| {
                    v.rebuild(black_box(&pos));
                    v.counts().vcs
                })
            });
        }
    }
    group.finish();
}

fn main_with_report() {
    #[cfg(target_os = "linux")]
    match std::env::var("HEXPROOF_VC_REPORT").as_deref() {
        Ok("0") => {}
        Ok("builds") => {
            report();
            std::process::exit(0);
        }
        Ok("undo") => {
            report_incremental();
            report_undo_7x7();
            std::process::exit(0);
        }
        Ok("only") => {
            report();
            report_explosive();
            report_incremental();
            report_undo_7x7();
            std::process::exit(0);
        }
        _ => {
            report();
            report_explosive();
            report_incremental();
            report_undo_7x7();
        }
    }
}

/// Builds on the explosive position: the limited variants, and unlimited against a budget of
/// 200,000 carriers.
fn explosive_builds(c: &mut Criterion) {
    let mut group = c.benchmark_group("vc_explosive");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let pos = explosive();
    for variant in [Variant::Fast, Variant::Limited, Variant::Unlimited] {
        let mut p = params(variant);
        if variant == Variant::Unlimited {
            p.budget.max_connections = 200_000;
        }
        let mut v = VcSet::new(Colour::Black, p);
        group.bench_function(format!("{variant}/black"), |b| {
            b.iter(|| {
                v.rebuild(black_box(&pos));
                v.status()
            })
        });
    }
    group.finish();
}

criterion_group!(wall, build_wall, incremental, explosive_builds);
#[cfg(target_os = "linux")]
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(cpu_time::ThreadCpuTime::new());
    targets = build_cpu
}

fn main() {
    main_with_report();
    wall();
    #[cfg(target_os = "linux")]
    cpu();
    Criterion::default().configure_from_args().final_summary();
}
