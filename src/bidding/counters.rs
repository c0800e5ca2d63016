//! Bit-sliced per-cell counters: add a whole bit vector (one bit per cell) in a handful of word
//! operations, as a ripple-carry adder over eight bit planes; flush the planes into ordinary
//! integer counts every 255 additions, before any 8-bit counter can overflow.
//!
//! This is what makes step (2) of Payne & Robeva's algorithm (§5, "keep track of the number of
//! times that each open hex is of the losing color") cost a few word operations per filling
//! instead of one branch per cell.

use super::bits::Bits;

const PLANES: usize = 8;
const FLUSH_EVERY: u32 = (1 << PLANES) - 1;

/// Counts, for every bit position, how many added vectors had that bit set.
#[derive(Clone, Debug)]
pub struct SlicedCounter<B: Bits> {
    planes: [B; PLANES],
    pending: u32,
    counts: Vec<u64>,
}

impl<B: Bits> SlicedCounter<B> {
    /// Counters for bit positions `0..len`.
    pub fn new(len: usize) -> Self {
        SlicedCounter {
            planes: [B::ZERO; PLANES],
            pending: 0,
            counts: vec![0; len],
        }
    }

    /// Adds one to the counter of every set bit of `x` (bits at or above `len` must be clear).
    #[inline(always)]
    pub fn add(&mut self, x: B) {
        let mut carry = x;
        for p in self.planes.iter_mut() {
            let next = *p & carry;
            *p ^= carry;
            carry = next;
            if carry.is_zero() {
                break;
            }
        }
        self.pending += 1;
        if self.pending == FLUSH_EVERY {
            self.flush();
        }
    }

    fn flush(&mut self) {
        for (k, p) in self.planes.iter_mut().enumerate() {
            let counts = &mut self.counts;
            p.for_each_one(|i| counts[i] += 1 << k);
            *p = B::ZERO;
        }
        self.pending = 0;
    }

    /// The final counts, indexed by bit position.
    pub fn finish(mut self) -> Vec<u64> {
        self.flush();
        self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bidding::bits::Wide;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn matches_naive_counts() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut c = SlicedCounter::<u128>::new(128);
        let mut w = SlicedCounter::<Wide>::new(384);
        let mut naive = vec![0u64; 384];
        for _ in 0..2000 {
            let x: u128 = rng.random::<u128>() & rng.random::<u128>();
            let y = Wide(std::array::from_fn(|_| rng.random::<u64>()));
            c.add(x);
            w.add(y);
            y.for_each_one(|i| naive[i] += 1);
        }
        assert_eq!(w.finish(), naive);
        // u128: compare with a separate naive pass over the same stream.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut naive = vec![0u64; 128];
        for _ in 0..2000 {
            let x: u128 = rng.random::<u128>() & rng.random::<u128>();
            let _: [u64; 6] = std::array::from_fn(|_| rng.random::<u64>());
            x.for_each_one(|i| naive[i] += 1);
        }
        assert_eq!(c.finish(), naive);
    }
}
