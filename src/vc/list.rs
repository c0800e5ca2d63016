//! [`List`]: a growable list of plain values in 16 bytes (a pointer and two 32-bit counts)
//! instead of a `Vec`'s 24, so that a [`super::store::Pair`] record with its two carrier
//! lists fits one 64-byte cache line on one-word carriers (the AND rule loads two pair
//! records per end it tries: Pawlewicz et al. §IV-B keeps these lists per endpoint pair).
//!
//! The storage is a `Vec<T>`'s allocation, taken apart ([`Vec::into_raw_parts`]'s fields) and
//! put together again ([`Vec::from_raw_parts`]) whenever it grows or is dropped, so the
//! allocation logic is the standard library's. It behaves as a `Vec` holding the same
//! values in the same order: the engines make the same connections with either.

use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// A `Vec<T>` for `Copy` values with 32-bit length and capacity (see the module).
pub struct List<T: Copy> {
    ptr: NonNull<T>,
    len: u32,
    cap: u32,
}

// SAFETY: a `List<T>` owns its values as a `Vec<T>` does.
unsafe impl<T: Copy + Send> Send for List<T> {}
// SAFETY: shared access only reads the values, as for a `Vec<T>`.
unsafe impl<T: Copy + Sync> Sync for List<T> {}

impl<T: Copy> List<T> {
    /// An empty list (allocates nothing).
    pub const fn new() -> List<T> {
        List {
            ptr: NonNull::dangling(),
            len: 0,
            cap: 0,
        }
    }

    /// Takes over `v`'s allocation.
    fn from_vec(v: Vec<T>) -> List<T> {
        let mut v = ManuallyDrop::new(v);
        let (len, cap) = (v.len(), v.capacity());
        assert!(
            cap <= u32::MAX as usize,
            "a carrier list of {cap} entries (at most 2^32 - 1)"
        );
        // A `Vec`'s pointer is never null (dangling when nothing is allocated).
        let ptr = NonNull::new(v.as_mut_ptr()).expect("a Vec's pointer is not null");
        List {
            ptr,
            len: len as u32,
            cap: cap as u32,
        }
    }

    /// Runs `f` on the list as a `Vec` (any `Vec` operation), then takes the allocation
    /// back (also when `f` panics: the guard below restores the list).
    #[inline]
    pub fn with_vec<R>(&mut self, f: impl FnOnce(&mut Vec<T>) -> R) -> R {
        struct Back<'a, T: Copy> {
            list: &'a mut List<T>,
            vec: ManuallyDrop<Vec<T>>,
        }
        impl<T: Copy> Drop for Back<'_, T> {
            fn drop(&mut self) {
                // SAFETY: the Vec is taken exactly once, here, and its allocation given back
                // to the list (which was left empty meanwhile).
                let v = unsafe { ManuallyDrop::take(&mut self.vec) };
                *self.list = List::from_vec(v);
            }
        }
        let taken = std::mem::take(self);
        let vec = ManuallyDrop::new(taken.into_vec());
        let mut back = Back { list: self, vec };
        f(&mut back.vec)
    }

    /// The list as a `Vec` (no copy).
    pub fn into_vec(self) -> Vec<T> {
        let me = ManuallyDrop::new(self);
        // SAFETY: ptr/len/cap are those of a Vec<T> taken apart by `from_vec` (or the
        // empty Vec's dangling pointer with capacity 0), and `me` is not dropped.
        unsafe { Vec::from_raw_parts(me.ptr.as_ptr(), me.len as usize, me.cap as usize) }
    }

    /// Appends `x`.
    #[inline]
    pub fn push(&mut self, x: T) {
        if self.len < self.cap {
            // SAFETY: `len < cap`: the slot is inside the allocation and not initialised.
            unsafe { self.ptr.as_ptr().add(self.len as usize).write(x) };
            self.len += 1;
        } else {
            self.with_vec(|v| v.push(x));
        }
    }

    /// Removes every value (keeps the allocation).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `n` values.
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        if n < self.len as usize {
            self.len = n as u32;
        }
    }

    /// Keeps the values for which `f` holds, in order.
    pub fn retain(&mut self, f: impl FnMut(&T) -> bool) {
        self.with_vec(|v| v.retain(f));
    }

    /// Removes the value at `i`, replacing it with the last.
    pub fn swap_remove(&mut self, i: usize) -> T {
        self.with_vec(|v| v.swap_remove(i))
    }
}

impl<T: Copy> Drop for List<T> {
    fn drop(&mut self) {
        drop(std::mem::take(self).into_vec());
    }
}

impl<T: Copy> Default for List<T> {
    fn default() -> List<T> {
        List::new()
    }
}

impl<T: Copy> Clone for List<T> {
    fn clone(&self) -> List<T> {
        List::from_vec(self.to_vec())
    }
}

impl<T: Copy> Deref for List<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` values are initialised; the pointer is valid (or dangling
        // with len 0) and aligned.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len as usize) }
    }
}

impl<T: Copy> DerefMut for List<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len as usize) }
    }
}

impl<T: Copy + fmt::Debug> fmt::Debug for List<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy> From<Vec<T>> for List<T> {
    fn from(v: Vec<T>) -> List<T> {
        List::from_vec(v)
    }
}

impl<T: Copy> Extend<T> for List<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, it: I) {
        self.with_vec(|v| v.extend(it));
    }
}

impl<'a, T: Copy> IntoIterator for &'a List<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: Copy> IntoIterator for &'a mut List<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T: Copy + PartialEq> PartialEq for List<T> {
    fn eq(&self, other: &List<T>) -> bool {
        **self == **other
    }
}

impl<T: Copy + Eq> Eq for List<T> {}

#[cfg(test)]
mod tests {
    use super::List;

    /// A list follows a `Vec` through every operation the stores use.
    #[test]
    fn a_list_behaves_as_a_vec() {
        let mut l: List<u64> = List::new();
        let mut v: Vec<u64> = Vec::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for step in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 11 {
                0..=4 => {
                    l.push(x);
                    v.push(x);
                }
                5 if !v.is_empty() => {
                    let i = (x as usize >> 8) % v.len();
                    assert_eq!(l.swap_remove(i), v.swap_remove(i));
                }
                6 => {
                    let n = (x as usize >> 8) % (v.len() + 2);
                    l.truncate(n);
                    v.truncate(n);
                }
                7 => {
                    l.retain(|&e| e % 3 != 0);
                    v.retain(|&e| e % 3 != 0);
                }
                8 if step % 50 == 0 => {
                    l.clear();
                    v.clear();
                }
                9 => {
                    l.extend([x, x >> 1]);
                    v.extend([x, x >> 1]);
                }
                10 if v.len() > 1 => {
                    l[..2].rotate_right(1);
                    v[..2].rotate_right(1);
                }
                _ => {}
            }
            assert_eq!(&l[..], &v[..]);
        }
        let c = l.clone();
        assert_eq!(c, l);
        assert_eq!(l.into_vec(), v);
        assert_eq!(format!("{:?}", List::from(vec![1u8, 2])), "[1, 2]");
    }

    /// The list is two words: a pair record with two lists and three one-word
    /// intersections fits a cache line.
    #[test]
    fn a_list_is_16_bytes() {
        assert_eq!(std::mem::size_of::<List<[u64; 4]>>(), 16);
        assert_eq!(std::mem::size_of::<Option<List<u8>>>(), 16);
        assert_eq!(std::mem::size_of::<crate::vc::store::Pair<1>>(), 64);
        assert_eq!(std::mem::align_of::<crate::vc::store::Pair<1>>(), 64);
    }
}
