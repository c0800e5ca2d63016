//! The clock a move is timed by: wall time, or the CPU time of the searching thread.
//!
//! On a machine shared with other work, a wall-clock budget per move gives a player however
//! much CPU the scheduler happens to hand it, so matches at a "fixed time per move" are
//! neither fair nor repeatable. [`Clock::ThreadCpu`] counts only the CPU time consumed by the
//! thread that runs the search (`CLOCK_THREAD_CPUTIME_ID`, POSIX `clock_gettime`), so each
//! player gets the same amount of computation per move whatever the load. The match harness
//! (`hexproof selfplay --cpu-time`) uses it with one search thread (the MCTS solver thread
//! off).
//!
//! The connection engine and the exact solver take wall-time limits of their own
//! ([`crate::vc::VcBudget::time`], [`crate::dfpn::Budget::time`]). Under the CPU clock those
//! sub-limits are stretched by [`Deadline::wall_allowance`] (the ratio of wall to CPU time
//! measured so far in this move, at least 1), so that a loaded machine does not cut them
//! shorter in CPU terms than an idle one would.
//!
//! The stretch is bounded by [`MAX_WALL_RATIO`], and a move on the CPU clock also ends once
//! its wall time reaches that many times its budget: on a machine at load 10+ a ratio of 50
//! (the old bound) let the root's three stretched connection builds of a 1 s move run for
//! more than 30 s of wall time (docs/journal/player-session18.md, "Bug seen"). A thread that
//! gets less than an eighth of a core is starved, not loaded, and its opponent would lose
//! on the client's clock anyway.

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    /// The last wall/CPU ratio measured on this thread (used before a move has run long
    /// enough to measure its own).
    static LAST_RATIO: Cell<f64> = const { Cell::new(1.0) };
}

/// The most wall time one unit of the CPU clock may cost: the bound of
/// [`Deadline::wall_allowance`] and, times the budget, the wall time after which a move on
/// the CPU clock ends whatever CPU it got.
pub const MAX_WALL_RATIO: f64 = 8.0;

/// Which clock bounds a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Clock {
    /// Elapsed real time (GTP clients, whose time controls are wall time).
    #[default]
    Wall,
    /// CPU time of the calling thread (fair under load).
    ThreadCpu,
}

impl Clock {
    /// Lower-case name for logs and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::ThreadCpu => "thread-cpu",
        }
    }
}

/// CPU time consumed so far by the calling thread.
///
/// Where the thread clock is unavailable (a non-Unix target, or the call fails) this falls
/// back to wall time since the first call, so a CPU-time budget still runs out.
#[cfg(unix)]
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on
    // Linux and the BSDs/macOS, and the call only writes into `ts`.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return wall_since_first_call();
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// CPU time consumed so far by the calling thread (wall-time fallback, see the Unix version).
#[cfg(not(unix))]
pub fn thread_cpu_time() -> Duration {
    wall_since_first_call()
}

/// Wall time since this function was first called in the process.
fn wall_since_first_call() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// A move's budget on one clock, started when it is created.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    clock: Clock,
    wall_start: Instant,
    cpu_start: Duration,
    limit: Duration,
}

impl Deadline {
    /// Starts a budget of `limit` on `clock` now (on the calling thread).
    pub fn start(clock: Clock, limit: Duration) -> Deadline {
        Deadline {
            clock,
            wall_start: Instant::now(),
            cpu_start: if clock == Clock::ThreadCpu {
                thread_cpu_time()
            } else {
                Duration::ZERO
            },
            limit,
        }
    }

    /// The clock.
    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// The budget.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// Time used on this budget's clock. Under [`Clock::ThreadCpu`] it must be called from the
    /// thread that created the deadline.
    pub fn used(&self) -> Duration {
        match self.clock {
            Clock::Wall => self.wall_start.elapsed(),
            Clock::ThreadCpu => thread_cpu_time().saturating_sub(self.cpu_start),
        }
    }

    /// Wall time since the start.
    pub fn wall_used(&self) -> Duration {
        self.wall_start.elapsed()
    }

    /// True when the budget is spent; on the CPU clock also when the wall time reaches
    /// [`MAX_WALL_RATIO`] times the budget (a starved thread still moves).
    pub fn expired(&self) -> bool {
        self.used() >= self.limit
            || (self.clock == Clock::ThreadCpu
                && self.wall_used() >= self.limit.mul_f64(MAX_WALL_RATIO))
    }

    /// Budget left on this clock.
    pub fn remaining(&self) -> Duration {
        self.limit.saturating_sub(self.used())
    }

    /// How much wall time one unit of this clock has cost so far (≥ 1, at most
    /// [`MAX_WALL_RATIO`]; 1 for the
    /// wall clock; under the CPU clock, before 2 ms of CPU have been measured in this move,
    /// the ratio last measured on this thread).
    pub fn wall_allowance(&self) -> f64 {
        if self.clock == Clock::Wall {
            return 1.0;
        }
        let cpu = self.used().as_secs_f64();
        let wall = self.wall_used().as_secs_f64();
        if cpu < 0.002 {
            return LAST_RATIO.with(Cell::get);
        }
        let r = (wall / cpu).clamp(1.0, MAX_WALL_RATIO);
        LAST_RATIO.with(|c| c.set(r));
        r
    }

    /// A wall-time limit for a sub-computation meant to take `share` of this clock: `share`
    /// stretched by [`Deadline::wall_allowance`].
    pub fn wall_limit(&self, share: Duration) -> Duration {
        share.mul_f64(self.wall_allowance())
    }

    /// The time kept back at the end of the move for choosing and sending the answer: a
    /// fiftieth of the budget, between 2 and 20 ms.
    pub fn answer_margin(&self) -> Duration {
        (self.limit / 50).clamp(Duration::from_millis(2), Duration::from_millis(20))
    }

    /// The wall-time limit of a sub-step (a connection build, the exact search, the VSC key
    /// search) meant to take `share` of this clock, capped by what the move has left: `share`
    /// stretched by [`Deadline::wall_allowance`] on the CPU clock, but never more than
    /// [`Deadline::remaining`] less [`Deadline::answer_margin`] (not stretched: a sub-step
    /// limited in wall time uses at most that much CPU, so it cannot overrun the move's CPU
    /// budget even when the load drops during it; under load the last sub-step of a move
    /// may get less CPU than is left, and the search then uses the rest), and on the CPU
    /// clock never more than the wall time left before [`Deadline::expired`]'s wall cap.
    /// Zero once that is spent, so a sub-step that starts late stops at once instead of
    /// running its fixed share past the move's deadline (issue 29: fixed 250 ms builds
    /// started near the end of a 1 s move made it last up to 1.25 s).
    pub fn within(&self, share: Duration) -> Duration {
        let left = self.remaining().saturating_sub(self.answer_margin());
        let wall = self.wall_limit(share).min(left);
        match self.clock {
            Clock::Wall => wall,
            Clock::ThreadCpu => {
                let cap = self.limit.mul_f64(MAX_WALL_RATIO);
                wall.min(cap.saturating_sub(self.wall_used()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(d: Duration) {
        let t = Instant::now();
        let mut x = 0u64;
        while t.elapsed() < d {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            std::hint::black_box(x);
        }
    }

    #[test]
    fn thread_cpu_time_advances_while_working_not_while_sleeping() {
        let d = Deadline::start(Clock::ThreadCpu, Duration::from_millis(30));
        std::thread::sleep(Duration::from_millis(40));
        // Sleeping costs (almost) no CPU.
        let slept = d.used();
        assert!(slept < Duration::from_millis(20), "{slept:?}");
        assert!(!d.expired());
        let t = Instant::now();
        while !d.expired() {
            spin(Duration::from_millis(1));
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "CPU clock never ran out"
            );
        }
        // Working advanced the CPU clock. The move ended on its CPU budget, or — on a machine
        // so loaded that this thread got under 1/MAX_WALL_RATIO of a core — on the wall cap.
        let limit = Duration::from_millis(30);
        assert!(
            d.used() > slept,
            "{:?} after working, {slept:?} after sleeping",
            d.used()
        );
        assert!(
            d.used() >= limit || d.wall_used() >= limit.mul_f64(MAX_WALL_RATIO),
            "ended early: {:?} CPU, {:?} wall",
            d.used(),
            d.wall_used()
        );
        assert!(d.wall_used() >= Duration::from_millis(70));
        assert!(d.wall_allowance() >= 1.0);
    }

    #[test]
    fn cpu_clock_ends_a_starved_move_on_wall_time() {
        // A thread that gets no CPU (here: sleeping) still ends its move once the wall time
        // reaches MAX_WALL_RATIO times the budget, and the stretch stays bounded.
        let limit = Duration::from_millis(5);
        let d = Deadline::start(Clock::ThreadCpu, limit);
        std::thread::sleep(limit.mul_f64(MAX_WALL_RATIO));
        assert!(d.used() < limit, "sleeping used {:?} of CPU", d.used());
        assert!(d.expired(), "a starved move must end");
        assert!(d.wall_allowance() <= MAX_WALL_RATIO);
        assert!(d.wall_limit(limit) <= limit.mul_f64(MAX_WALL_RATIO));
    }

    #[test]
    fn a_sub_step_never_gets_more_than_the_move_has_left() {
        // Wall clock: the share when plenty is left, then what remains less the margin, then
        // nothing.
        let d = Deadline::start(Clock::Wall, Duration::from_millis(200));
        assert_eq!(d.answer_margin(), Duration::from_millis(4));
        let early = d.within(Duration::from_millis(50));
        assert!(early <= Duration::from_millis(50), "{early:?}");
        assert!(early > Duration::from_millis(40), "{early:?}");
        let all = d.within(Duration::from_secs(10));
        assert!(all <= d.remaining(), "{all:?} > {:?}", d.remaining());
        std::thread::sleep(Duration::from_millis(120));
        let left = d.remaining();
        let late = d.within(Duration::from_millis(150));
        assert!(
            late <= left.saturating_sub(d.answer_margin()),
            "{late:?} of {left:?}"
        );
        assert!(late < Duration::from_millis(80), "{late:?}");
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(d.within(Duration::from_millis(150)), Duration::ZERO);
        // CPU clock: the stretched share is still bounded by the wall cap, and a starved
        // move gets nothing more.
        let limit = Duration::from_millis(5);
        let c = Deadline::start(Clock::ThreadCpu, limit);
        let s = c.within(Duration::from_secs(1));
        assert!(s <= limit.mul_f64(MAX_WALL_RATIO), "{s:?}");
        // Not stretched beyond what is left: a wall limit of at most the CPU left cannot
        // let the sub-step use more CPU than the move has.
        assert!(s <= c.remaining(), "{s:?} > {:?}", c.remaining());
        LAST_RATIO.with(|r| r.set(MAX_WALL_RATIO));
        let stretched = Deadline::start(Clock::ThreadCpu, Duration::from_secs(10));
        let share = Duration::from_millis(100);
        assert_eq!(stretched.within(share), share.mul_f64(MAX_WALL_RATIO));
        let short = Deadline::start(Clock::ThreadCpu, Duration::from_millis(50));
        assert!(
            short.within(share) <= short.remaining(),
            "{:?}",
            short.within(share)
        );
        LAST_RATIO.with(|r| r.set(1.0));
        std::thread::sleep(limit.mul_f64(MAX_WALL_RATIO));
        assert_eq!(c.within(Duration::from_secs(1)), Duration::ZERO);
        // The margin stays between 2 and 20 ms.
        let big = Deadline::start(Clock::Wall, Duration::from_secs(60));
        assert_eq!(big.answer_margin(), Duration::from_millis(20));
        assert_eq!(
            Deadline::start(Clock::Wall, Duration::from_millis(10)).answer_margin(),
            Duration::from_millis(2)
        );
    }

    #[test]
    fn wall_clock_counts_sleep() {
        let d = Deadline::start(Clock::Wall, Duration::from_millis(20));
        std::thread::sleep(Duration::from_millis(25));
        assert!(d.expired());
        assert_eq!(d.wall_allowance(), 1.0);
        assert_eq!(d.remaining(), Duration::ZERO);
    }
}
