//! Fixed-width bit vectors for fillings: `u128` for boards of at most 128 cells (11×11 is 121)
//! and [`Wide`] (384 bits, six words) for anything up to 19×19.
//!
//! Cell (c, r) of an `n×m` board is bit `r·n + c` — rows packed without a guard column; the
//! geometry in [`super::grid`] masks the first/last column before horizontal shifts instead.

use rand::RngCore;
use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The operations the flood fill, Gale's walk and the counters need.
pub trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Number of bits.
    const CAPACITY: usize;
    /// All zeros.
    const ZERO: Self;
    /// Shift towards higher bit indices by `k < CAPACITY`.
    fn shl(self, k: u32) -> Self;
    /// Shift towards lower bit indices by `k < CAPACITY`.
    fn shr(self, k: u32) -> Self;
    /// The single bit `i`.
    fn bit(i: usize) -> Self;
    /// Is bit `i` set?
    fn test(self, i: usize) -> bool;
    /// Population count.
    fn count(self) -> u32;
    /// True when no bit is set.
    fn is_zero(self) -> bool;
    /// Uniform random bits in the lowest `words` 64-bit words, zero above.
    fn random<R: RngCore>(rng: &mut R, words: usize) -> Self;
    /// Calls `f` for every set bit, lowest first.
    fn for_each_one(self, f: impl FnMut(usize));
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    const ZERO: Self = 0;
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        self << k
    }
    #[inline(always)]
    fn shr(self, k: u32) -> Self {
        self >> k
    }
    #[inline(always)]
    fn bit(i: usize) -> Self {
        1u128 << i
    }
    #[inline(always)]
    fn test(self, i: usize) -> bool {
        self >> i & 1 == 1
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn random<R: RngCore>(rng: &mut R, words: usize) -> Self {
        let lo = rng.next_u64() as u128;
        if words > 1 {
            lo | (rng.next_u64() as u128) << 64
        } else {
            lo
        }
    }
    #[inline]
    fn for_each_one(self, mut f: impl FnMut(usize)) {
        let mut x = self;
        while x != 0 {
            f(x.trailing_zeros() as usize);
            x &= x - 1;
        }
    }
}

/// Number of words in [`Wide`].
pub const WIDE_WORDS: usize = 6;

/// A 384-bit vector (six `u64`, least significant word first), enough for 19×19 = 361 cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Wide(pub [u64; WIDE_WORDS]);

impl BitAnd for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitand(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}
impl BitOr for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}
impl BitXor for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitxor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}
impl Not for Wide {
    type Output = Wide;
    #[inline(always)]
    fn not(self) -> Wide {
        Wide(std::array::from_fn(|i| !self.0[i]))
    }
}
impl BitAndAssign for Wide {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}
impl BitOrAssign for Wide {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}
impl BitXorAssign for Wide {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Wide) {
        *self = *self ^ o;
    }
}

impl Bits for Wide {
    const CAPACITY: usize = 64 * WIDE_WORDS;
    const ZERO: Self = Wide([0; WIDE_WORDS]);
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // word i takes bits from words i − q and i − q − 1
    fn shl(self, k: u32) -> Self {
        let q = (k / 64) as usize;
        let s = k % 64;
        let mut out = [0u64; WIDE_WORDS];
        for i in q..WIDE_WORDS {
            let lo = self.0[i - q];
            out[i] = lo << s;
            if s != 0 && i > q {
                out[i] |= self.0[i - q - 1] >> (64 - s);
            }
        }
        Wide(out)
    }
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // word i takes bits from words i + q and i + q + 1
    fn shr(self, k: u32) -> Self {
        let q = (k / 64) as usize;
        let s = k % 64;
        let mut out = [0u64; WIDE_WORDS];
        for i in 0..WIDE_WORDS - q {
            out[i] = self.0[i + q] >> s;
            if s != 0 && i + q + 1 < WIDE_WORDS {
                out[i] |= self.0[i + q + 1] << (64 - s);
            }
        }
        Wide(out)
    }
    #[inline(always)]
    fn bit(i: usize) -> Self {
        let mut w = [0u64; WIDE_WORDS];
        w[i / 64] = 1 << (i % 64);
        Wide(w)
    }
    #[inline(always)]
    fn test(self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().fold(0, |a, &w| a | w) == 0
    }
    #[inline(always)]
    fn random<R: RngCore>(rng: &mut R, words: usize) -> Self {
        let mut w = [0u64; WIDE_WORDS];
        for x in w.iter_mut().take(words) {
            *x = rng.next_u64();
        }
        Wide(w)
    }
    #[inline]
    fn for_each_one(self, mut f: impl FnMut(usize)) {
        for (i, &w) in self.0.iter().enumerate() {
            let mut x = w;
            while x != 0 {
                f(i * 64 + x.trailing_zeros() as usize);
                x &= x - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ones<B: Bits>(b: B) -> Vec<usize> {
        let mut v = Vec::new();
        b.for_each_one(|i| v.push(i));
        v
    }

    #[test]
    fn wide_shifts_match_bit_by_bit() {
        let idx = [0usize, 1, 5, 63, 64, 65, 127, 128, 200, 255, 256, 300, 383];
        let mut x = Wide::ZERO;
        for &i in &idx {
            x |= Wide::bit(i);
        }
        for k in [0u32, 1, 10, 18, 19, 63, 64, 65, 130, 383] {
            let want_l: Vec<usize> = idx
                .iter()
                .map(|&i| i + k as usize)
                .filter(|&i| i < 384)
                .collect();
            let want_r: Vec<usize> = idx
                .iter()
                .filter(|&&i| i >= k as usize)
                .map(|&i| i - k as usize)
                .collect();
            assert_eq!(ones(x.shl(k)), want_l, "shl {k}");
            assert_eq!(ones(x.shr(k)), want_r, "shr {k}");
        }
        assert_eq!(x.count(), idx.len() as u32);
        assert!(x.test(300) && !x.test(301));
    }

    #[test]
    fn u128_basics() {
        let x = u128::bit(3) | u128::bit(120);
        assert_eq!(ones(x), vec![3, 120]);
        assert_eq!(ones(x.shl(7)), vec![10, 127]);
        assert_eq!(ones(x.shr(4)), vec![116]);
    }
}
