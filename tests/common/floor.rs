//! A floor on how many cases of a property test really exercised the property (issue 23):
//! cases skipped by `prop_assume!`, an early `return`/`continue` or a filter do not count, so
//! a test whose generator drifts into trivial cases fails instead of passing vacuously.

use std::sync::atomic::{AtomicUsize, Ordering};

/// A count of exercised cases (shared by the closure that `proptest!` runs).
pub struct Exercised {
    name: &'static str,
    n: AtomicUsize,
}

impl Exercised {
    pub const fn new(name: &'static str) -> Exercised {
        Exercised {
            name,
            n: AtomicUsize::new(0),
        }
    }

    /// Counts `k` more exercised cases (or checks: whatever the floor is stated in).
    pub fn add(&self, k: usize) {
        self.n.fetch_add(k, Ordering::Relaxed);
    }

    /// The count so far.
    pub fn get(&self) -> usize {
        self.n.load(Ordering::Relaxed)
    }

    /// Fails unless at least `floor` were counted; prints the count (`--nocapture` shows it).
    pub fn at_least(&self, floor: usize) {
        let n = self.get();
        eprintln!("{}: {n} exercised (floor {floor})", self.name);
        assert!(
            n >= floor,
            "{}: only {n} cases exercised the property (floor {floor})",
            self.name
        );
    }
}
