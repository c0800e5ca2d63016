//! Fillings per second for random-turn / bidding Hex (issue 9): the Monte Carlo inner loop
//! on an empty 11×11 board, single thread, plus its parts and the exact enumerator.
//!
//! Run: `cargo bench --bench bidding` (results in BENCHMARKS.md, "Random-turn and bidding Hex").

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use hexproof::bidding::bits::Bits;
use hexproof::bidding::gale::gale_winner;
use hexproof::bidding::grid::Grid;
use hexproof::bidding::montecarlo::{chunk_rng, run_chunk};
use hexproof::bidding::{exact, monte_carlo, McConfig};
use hexproof::board::{Board, Notation};
use hexproof::position::Position;

fn fillings(c: &mut Criterion) {
    let board = Board::square(11).unwrap();
    let g: Grid<u128> = Grid::new(board).unwrap();
    let empty = g.all();

    let mut group = c.benchmark_group("bidding");
    let n = 1u64 << 14;
    group.throughput(Throughput::Elements(n));
    // The whole per-filling pipeline: random bits, flood-fill winner, bit-sliced loser counts.
    group.bench_function("mc_fillings_11x11_empty_1thread", |b| {
        let mut rng = chunk_rng(1, 0);
        b.iter(|| run_chunk(&g, 0, black_box(empty), &mut rng, n))
    });
    // Winner only, by flood fill and by Gale's walk, on the same random fillings.
    let mut rng = chunk_rng(2, 0);
    let boards: Vec<u128> = (0..n).map(|_| u128::random(&mut rng, 2) & empty).collect();
    group.bench_function("flood_winner_11x11", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|&&x| g.black_wins_full(black_box(x)))
                .count()
        })
    });
    group.bench_function("gale_walk_winner_11x11", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|&&x| gale_winner(&g, black_box(x)) == hexproof::board::Colour::Black)
                .count()
        })
    });
    group.bench_function("critical_cells_11x11", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&x| g.critical_full(black_box(x)).count_ones())
                .sum::<u32>()
        })
    });
    group.finish();

    // The public API end to end (position setup, chunking, rayon with one thread).
    let mut group = c.benchmark_group("bidding_api");
    group.sample_size(10);
    let samples = 200_000;
    group.throughput(Throughput::Elements(samples));
    let pos = Position::empty(board);
    group.bench_function("monte_carlo_11x11_empty_1thread", |b| {
        let cfg = McConfig {
            samples,
            seed: 1,
            threads: Some(1),
        };
        b.iter(|| monte_carlo(black_box(&pos), &cfg).unwrap())
    });
    let big = Position::empty(Board::square(19).unwrap());
    group.bench_function("monte_carlo_19x19_empty_1thread", |b| {
        let cfg = McConfig {
            samples,
            seed: 1,
            threads: Some(1),
        };
        b.iter(|| monte_carlo(black_box(&big), &cfg).unwrap())
    });
    let small =
        Position::from_names(Board::square(5).unwrap(), "c3", "b4 d2", Notation::Letters).unwrap();
    group.throughput(Throughput::Elements(1 << 22));
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    group.bench_function("exact_5x5_22_empty_1thread", |b| {
        b.iter(|| one.install(|| exact(black_box(&small)).unwrap()))
    });
    group.finish();
}

/// Thread CPU time (Linux `CLOCK_THREAD_CPUTIME_ID`) as a criterion measurement: on a
/// machine shared with other jobs, wall time measures the share of a core we were given, CPU
/// time measures the work per core. No extra dependency: `clock_gettime` comes from the C
/// library that std already links.
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

    fn now_ns() -> u64 {
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
            // Values are nanoseconds, like wall time's.
            self.wall.formatter()
        }
    }
}

#[cfg(target_os = "linux")]
fn fillings_cpu(c: &mut Criterion<cpu_time::ThreadCpuTime>) {
    let g: Grid<u128> = Grid::new(Board::square(11).unwrap()).unwrap();
    let empty = g.all();
    let mut group = c.benchmark_group("bidding_cpu_time");
    let n = 1u64 << 14;
    group.throughput(Throughput::Elements(n));
    group.bench_function("mc_fillings_11x11_empty_1thread", |b| {
        let mut rng = chunk_rng(1, 0);
        b.iter(|| run_chunk(&g, 0, black_box(empty), &mut rng, n))
    });
    group.finish();
}

criterion_group!(benches, fillings);
#[cfg(target_os = "linux")]
criterion_group! {
    name = cpu_benches;
    config = Criterion::default().with_measurement(cpu_time::ThreadCpuTime::new());
    targets = fillings_cpu
}
#[cfg(target_os = "linux")]
criterion_main!(benches, cpu_benches);
#[cfg(not(target_os = "linux"))]
criterion_main!(benches);
