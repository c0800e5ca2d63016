//! Connection storage: Pawlewicz et al. §IV-B and Table I.
//!
//! For every unordered endpoint pair (x, y) we keep `M_c(x, y)` (VC carriers) and
//! `M_s(x, y)` (VSC carriers), each a vector of minimal carriers with a *processed* flag, plus
//! the intersections `I_c^p(x, y)` (processed VCs), `I_c(x, y)` (all VCs, used by the
//! acceptance heuristic of §VI-A) and `I_s(x, y)` (all VSCs). The VC neighbourhood `N(x)` is a
//! [`Bits`] of endpoint representatives (compact indices). Vectors are kept across builds (only the pairs a
//! build touched are cleared), so a rebuild on the same board allocates nothing once warm.
//!
//! [`try_add`] is TRYADD of Algorithm 1 (lines 34–40) with the move-to-front rule of §IV-C7.
//! [`update_limited`] is Anshelevich's UPDATE (Appendix A) with HEXY's limit M (§6).

use super::bits::Bits;
use super::list::List;

/// How the line-15 index differs from its recomputation ([`Store::check_proc_index`], tests).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProcIndexError {
    /// A pair's stored intersection is not that of its list.
    #[error("I_c^p({i}, {j}) is {stored}, its list gives {list}")]
    Intersection {
        i: u16,
        j: u16,
        stored: String,
        list: String,
    },
    /// The neighbour sets differ.
    #[error("proc_nbrs out of step")]
    Neighbours,
    /// The hit sets differ.
    #[error("proc_hit out of step")]
    Hits,
}

/// One stored carrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<const W: usize> {
    /// The carrier (empty cells).
    pub carrier: Bits<W>,
    /// Used in all AND combinations (VC) / in a semis-combiner call (VSC).
    pub processed: bool,
    /// H-search generation (Anshelevich's "new" carriers); unused by FastVC.
    pub gen: u32,
}

/// The lists of one endpoint pair.
///
/// One cache line on one-word carriers (two 16-byte [`List`]s, three 8-byte intersections,
/// the epoch and the queue flag: 61 bytes), aligned so that it never straddles two: the AND
/// rule loads two pair records per end it tries, and an 80-byte record with `Vec`s always
/// spanned two lines (session 36).
#[derive(Clone, Debug, Default)]
#[repr(align(64))]
pub struct Pair<const W: usize> {
    /// `M_c`: VC carriers.
    pub fulls: List<Entry<W>>,
    /// `M_s`: VSC carriers (keys included in the carriers).
    pub semis: List<Entry<W>>,
    /// `I_c`: intersection of all VC carriers (the universe when there is none).
    pub full_int: Bits<W>,
    /// `I_c^p`: intersection of the processed VC carriers (the universe when there is none).
    pub full_int_proc: Bits<W>,
    /// `I_s`: intersection of all VSC carriers (the universe when there is none).
    pub semi_int: Bits<W>,
    /// In `Q_s`.
    pub queued: bool,
    /// The [`Store::epoch`] in which the pair was last listed in [`Store::touched`]; a pair
    /// of an older epoch is empty, whatever its fields still hold (cleared when touched).
    pub epoch: u32,
}

/// What a [`try_add`] did to the list besides adding.
#[derive(Clone, Copy, Debug, Default)]
pub struct Removed {
    /// Supersets removed.
    pub count: usize,
    /// Some removed carrier was processed.
    pub processed: bool,
}

/// TRYADD(𝒞, C_new) (Pawlewicz et al., Algorithm 1 lines 34–40): rejects `c` when some stored
/// carrier is a subset of it, moving that *rejecting* carrier to the front (move-to-front,
/// §IV-C7); otherwise removes every stored superset of `c` and appends `c` unprocessed.
///
/// One pass suffices: the list is an antichain, so if some stored carrier strictly contains
/// `c`, no stored carrier is contained in `c`.
#[inline]
pub fn try_add<const W: usize>(
    list: &mut List<Entry<W>>,
    c: Bits<W>,
    gen: u32,
    removed: &mut Removed,
) -> bool {
    let n = list.len();
    let mut i = 0;
    while i < n {
        let e = list[i].carrier;
        if e.is_subset(&c) {
            if i > 0 {
                list[..=i].rotate_right(1);
            }
            return false;
        }
        if c.is_subset(&e) {
            break;
        }
        i += 1;
    }
    if i < n {
        // Supersets from i on: compact in place, keeping order.
        let mut w = i;
        for r in i..n {
            let e = list[r];
            if c.is_subset(&e.carrier) {
                removed.count += 1;
                removed.processed |= e.processed;
            } else {
                list[w] = e;
                w += 1;
            }
        }
        list.truncate(w);
    }
    list.push(Entry {
        carrier: c,
        processed: false,
        gen,
    });
    true
}

/// True when some stored carrier is a strict superset of `c` (the acceptance heuristic's
/// condition (1), Pawlewicz et al. §VI-A).
#[inline]
pub fn has_strict_superset<const W: usize>(list: &[Entry<W>], c: &Bits<W>) -> bool {
    list.iter()
        .any(|e| c.is_subset(&e.carrier) && e.carrier != *c)
}

/// True when some stored carrier has more than `size` cells.
#[inline]
pub fn has_larger<const W: usize>(list: &[Entry<W>], size: usize) -> bool {
    list.iter().any(|e| e.carrier.len() > size)
}

/// Removes the largest carrier before the last one (the last of the largest) when it has
/// more than `size` cells; returns whether it did.
pub fn drop_larger_than<const W: usize>(list: &mut List<Entry<W>>, size: usize) -> bool {
    let n = list.len().saturating_sub(1);
    let mut best = None;
    let mut most = size;
    for (i, e) in list[..n].iter().enumerate() {
        let k = e.carrier.len();
        if k > most || (k == most && best.is_some()) {
            best = Some(i);
            most = k;
        }
    }
    match best {
        Some(i) => {
            list.with_vec(|v| v.remove(i));
            true
        }
        None => false,
    }
}

/// True when some stored carrier is a subset of `c`.
#[inline]
pub fn has_subset<const W: usize>(list: &[Entry<W>], c: &Bits<W>) -> bool {
    list.iter().any(|e| e.carrier.is_subset(c))
}

/// Anshelevich's UPDATE (Appendix A), with HEXY's limit `m` on the list length (§6): rejects
/// `c` if a stored carrier is a subset of it, removes stored supersets, inserts `c` keeping the
/// list sorted by carrier size, and drops the largest carrier if the list is longer than `m`
/// (the update then fails if that carrier is `c` itself). Returns whether `c` was stored.
pub fn update_limited<const W: usize>(
    list: &mut List<Entry<W>>,
    c: Bits<W>,
    gen: u32,
    m: Option<usize>,
    removed: &mut Removed,
) -> bool {
    list.with_vec(|list| update_limited_vec(list, c, gen, m, removed))
}

fn update_limited_vec<const W: usize>(
    list: &mut Vec<Entry<W>>,
    c: Bits<W>,
    gen: u32,
    m: Option<usize>,
    removed: &mut Removed,
) -> bool {
    if has_subset(list, &c) {
        return false;
    }
    let size = c.len();
    if let Some(m) = m {
        if m == 0 {
            return false;
        }
        if list.len() >= m && !list.iter().any(|e| c.is_subset(&e.carrier)) {
            // Full and nothing would be removed: `c` must beat the largest carrier.
            let last = list.last().expect("m > 0");
            if last.carrier.len() <= size {
                return false;
            }
        }
    }
    list.retain(|e| {
        if c.is_subset(&e.carrier) {
            removed.count += 1;
            removed.processed |= e.processed;
            false
        } else {
            true
        }
    });
    let pos = list.partition_point(|e| e.carrier.len() <= size);
    list.insert(
        pos,
        Entry {
            carrier: c,
            processed: false,
            gen,
        },
    );
    if let Some(m) = m {
        while list.len() > m {
            let e = list.pop().expect("non-empty");
            removed.count += 1;
            removed.processed |= e.processed;
        }
    }
    true
}

/// Intersection of the carriers in `list` (optionally only the processed ones); `universe`
/// when none qualifies.
#[inline]
pub fn intersection<const W: usize>(
    list: &[Entry<W>],
    only_processed: bool,
    universe: Bits<W>,
) -> Bits<W> {
    let mut i = universe;
    for e in list {
        if !only_processed || e.processed {
            i &= e.carrier;
        }
    }
    i
}

/// Asks the processor to start loading the cache line holding `p` (a hint: no effect on any
/// result, and no fault whatever the address). The incremental update walks several
/// thousand pair records and lists scattered in memory, one dependent load after another;
/// hinting a few records ahead lets their loads overlap.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and never faults, for any address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`prefetch`] of a pair record (each of its cache lines) and, with `lists`,
/// the first line of each of its lists.
#[inline(always)]
pub fn prefetch_pair<const W: usize>(p: &Pair<W>, lists: bool) {
    let at = p as *const Pair<W> as *const u8;
    prefetch(at);
    if std::mem::size_of::<Pair<W>>() > 64 {
        prefetch(at.wrapping_add(64));
    }
    if lists {
        prefetch(p.fulls.as_ptr());
        prefetch(p.semis.as_ptr());
    }
}

/// The pair {i, j} (i < j) of a slot (inverse of [`Store::slot`]).
pub fn unslot(s: usize) -> (u16, u16) {
    let mut b = ((1.0 + (1.0 + 8.0 * s as f64).sqrt()) / 2.0) as usize;
    while b > 1 && b * (b - 1) / 2 > s {
        b -= 1;
    }
    while (b + 1) * b / 2 <= s {
        b += 1;
    }
    let a = s - b * (b - 1) / 2;
    (a as u16, b as u16)
}

/// All pair lists of one build.
#[derive(Clone, Debug, Default)]
pub struct Store<const W: usize> {
    /// Number of endpoints.
    pub n: usize,
    /// Pair lists, indexed by [`Store::slot`].
    pub pairs: Vec<Pair<W>>,
    /// `N(x)`: representatives of the endpoints joined to x by some VC.
    pub nbrs: Vec<Bits<W>>,
    /// Per endpoint x, representatives of the y whose x–y VC list takes no new carrier
    /// (FastVC's fast variant: `I_c(x, y) = ∅`, §VI-B). Only a shortcut for DOAND.
    pub no_vc: Vec<Bits<W>>,
    /// Per endpoint x, representatives of the y whose x–y VSC list takes no new carrier
    /// (full under [`super::VcParams::semi_limit`] with `I_s = ∅`, or fast with `I_c = ∅`).
    pub no_semi: Vec<Bits<W>>,
    /// Slots with anything stored since the last reset.
    pub touched: Vec<u32>,
    /// Whether [`Store::proc_nbrs`] and [`Store::proc_hit`] are kept (one-word carriers only:
    /// the table is `n × 64` sets).
    pub proc_index: bool,
    /// Per endpoint x, representatives of the y with a processed x–y VC
    /// (`I_c^p(x, y)` is not the universe).
    pub proc_nbrs: Vec<Bits<W>>,
    /// Row x, column z (`x * 64 * W + z`): representatives of the y with a processed x–y VC
    /// and `z ∈ I_c^p(x, y)`. DOAND(x, C₁, u) gets the ends y that pass Algorithm 1's line-15
    /// test (C₁ ∪ {x} disjoint from `I_c^p(u, y)`) as `proc_nbrs[u]` minus the union of the
    /// rows `proc_hit[u][z]`, z ∈ C₁ ∪ {x}: a few word operations instead of one scattered
    /// pair record per y. Kept by [`Store::set_full_int_proc`], the only writer of
    /// [`Pair::full_int_proc`].
    pub proc_hit: Vec<Bits<W>>,
    /// The universe (see [`super::endpoints::Endpoints::universe`]).
    pub universe: Bits<W>,
    /// Counts the resets: a pair is listed in [`Store::touched`] exactly when its
    /// [`Pair::epoch`] is this (so a reset clears nothing but this count).
    pub epoch: u32,
    /// An empty pair (universe intersections): what [`Store::pair`] shows for a pair of an
    /// older epoch.
    pub empty: Pair<W>,

    /// Stored VC carriers.
    pub total_fulls: usize,
    /// Stored VSC carriers.
    pub total_semis: usize,
}

impl<const W: usize> Store<W> {
    /// Slot of the unordered pair {i, j} (i ≠ j).
    #[inline]
    pub fn slot(i: u16, j: u16) -> usize {
        // min/max rather than a branch: the order of the two ends is unpredictable.
        let (a, b) = (i.min(j) as usize, i.max(j) as usize);
        debug_assert!(a != b);
        b * (b - 1) / 2 + a
    }

    /// Empties the store for `n` endpoints, keeping allocations.
    ///
    /// Invariant: a pair is listed in `touched` exactly when its epoch is the store's; any
    /// other pair reads as empty ([`Store::pair`]) and is cleared when first written
    /// ([`Store::pair_mut`]), so a reset only starts a new epoch instead of walking the
    /// pairs the last build touched.
    pub fn reset(&mut self, n: usize, universe: Bits<W>) {
        let slots = n * n.saturating_sub(1) / 2;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Wrapped: no pair may keep a current epoch.
            for p in self.pairs.iter_mut() {
                p.epoch = 0;
            }
            self.epoch = 1;
        }
        if self.pairs.len() < slots {
            self.pairs.resize_with(slots, Pair::default);
        }
        self.empty = Pair {
            full_int: universe,
            full_int_proc: universe,
            semi_int: universe,
            ..Pair::default()
        };
        self.touched.clear();
        self.n = n;
        self.universe = universe;
        self.nbrs.clear();
        self.nbrs.resize(n, Bits::EMPTY);
        self.no_vc.clear();
        self.no_vc.resize(n, Bits::EMPTY);
        self.no_semi.clear();
        self.no_semi.resize(n, Bits::EMPTY);
        self.total_fulls = 0;
        self.total_semis = 0;
        self.proc_index = W == 1;
        self.proc_nbrs.clear();
        self.proc_hit.clear();
        if self.proc_index {
            self.proc_nbrs.resize(n, Bits::EMPTY);
            self.proc_hit.resize(n * 64 * W, Bits::EMPTY);
        }
    }

    /// Sets `I_c^p(i, j)` to `new` (`ri`, `rj`: the representatives of i and j) and keeps
    /// the line-15 index ([`Store::proc_hit`]) in step. `I_c^p` is the universe exactly when
    /// the pair has no processed VC (a carrier holds empty cells only, never a border).
    #[inline]
    pub fn set_full_int_proc(&mut self, i: u16, j: u16, ri: usize, rj: usize, new: Bits<W>) {
        let s = Self::slot(i, j);
        debug_assert_eq!(self.pairs[s].epoch, self.epoch, "a pair written untouched");
        let old = self.pairs[s].full_int_proc;
        if old == new {
            return;
        }
        self.pairs[s].full_int_proc = new;
        if !self.proc_index {
            return;
        }
        let u = self.universe;
        let (old_has, new_has) = (old != u, new != u);
        let old_e = if old_has { old } else { Bits::EMPTY };
        let new_e = if new_has { new } else { Bits::EMPTY };
        if old_has != new_has {
            if new_has {
                self.proc_nbrs[i as usize].insert(rj);
                self.proc_nbrs[j as usize].insert(ri);
            } else {
                self.proc_nbrs[i as usize].remove(rj);
                self.proc_nbrs[j as usize].remove(ri);
            }
        }
        let k = 64 * W;
        let (bi, bj) = (i as usize * k, j as usize * k);
        for z in (old_e - new_e).iter() {
            self.proc_hit[bi + z].remove(rj);
            self.proc_hit[bj + z].remove(ri);
        }
        for z in (new_e - old_e).iter() {
            self.proc_hit[bi + z].insert(rj);
            self.proc_hit[bj + z].insert(ri);
        }
    }

    /// Recomputes the line-15 index from the pairs and compares (tests): `Err` names the
    /// first difference.
    pub fn check_proc_index(&self, rk: &[usize]) -> Result<(), ProcIndexError> {
        if !self.proc_index {
            return Ok(());
        }
        let k = 64 * W;
        let mut nbrs = vec![Bits::<W>::EMPTY; self.n];
        let mut hit = vec![Bits::<W>::EMPTY; self.n * k];
        for j in 1..self.n as u16 {
            for i in 0..j {
                let ip = self.pair(i, j).full_int_proc;
                let want = intersection(&self.pair(i, j).fulls, true, self.universe);
                if ip != want {
                    return Err(ProcIndexError::Intersection {
                        i,
                        j,
                        stored: format!("{ip:?}"),
                        list: format!("{want:?}"),
                    });
                }
                if ip == self.universe {
                    continue;
                }
                let (ri, rj) = (rk[i as usize], rk[j as usize]);
                nbrs[i as usize].insert(rj);
                nbrs[j as usize].insert(ri);
                for z in ip.iter() {
                    hit[i as usize * k + z].insert(rj);
                    hit[j as usize * k + z].insert(ri);
                }
            }
        }
        if nbrs != self.proc_nbrs {
            return Err(ProcIndexError::Neighbours);
        }
        if hit != self.proc_hit {
            return Err(ProcIndexError::Hits);
        }
        Ok(())
    }

    /// The ends y (representatives) among `candidates` whose u–y pair passes the line-15 test
    /// of Algorithm 1 for `c1x` = C₁ ∪ {x}: some processed u–y VC exists and `I_c^p(u, y)`
    /// misses `c1x`. Only with [`Store::proc_index`]; otherwise `candidates` unchanged.
    #[inline]
    pub fn line15(&self, u: u16, c1x: &Bits<W>, candidates: Bits<W>) -> Bits<W> {
        if !self.proc_index {
            return candidates;
        }
        let k = 64 * W;
        let row = &self.proc_hit[u as usize * k..(u as usize + 1) * k];
        let mut hit = Bits::EMPTY;
        for z in c1x.iter() {
            hit |= row[z];
        }
        (candidates & self.proc_nbrs[u as usize]) - hit
    }

    /// The lists of {i, j}; marks the pair touched (clearing it first if it is of an
    /// older epoch).
    #[inline]
    pub fn pair_mut(&mut self, i: u16, j: u16) -> &mut Pair<W> {
        let s = Self::slot(i, j);
        let p = &mut self.pairs[s];
        if p.epoch != self.epoch {
            p.fulls.clear();
            p.semis.clear();
            p.full_int = self.universe;
            p.full_int_proc = self.universe;
            p.semi_int = self.universe;
            p.queued = false;
            p.epoch = self.epoch;
            self.touched.push(s as u32);
        }
        p
    }

    /// The lists of {i, j} (empty for a pair not touched since the reset).
    #[inline]
    pub fn pair(&self, i: u16, j: u16) -> &Pair<W> {
        let p = &self.pairs[Self::slot(i, j)];
        if p.epoch == self.epoch {
            p
        } else {
            &self.empty
        }
    }

    /// Records that {i, j} (representatives `ri`, `rj`) has a VC.
    #[inline]
    pub fn link(&mut self, i: u16, j: u16, ri: usize, rj: usize) {
        self.nbrs[i as usize].insert(rj);
        self.nbrs[j as usize].insert(ri);
    }

    /// Records that {i, j} has no VC any more.
    #[inline]
    pub fn unlink(&mut self, i: u16, j: u16, ri: usize, rj: usize) {
        self.nbrs[i as usize].remove(rj);
        self.nbrs[j as usize].remove(ri);
    }
}

/// `Q_c`, the queue of unprocessed VCs (Pawlewicz et al., Table I). Algorithm 1 leaves the
/// order free; with `smallest_first` the queue pops a VC of smallest carrier first (a bucket
/// queue by carrier size, FIFO within a size), otherwise plain FIFO. Smallest-first makes
/// small carriers available before the big ones they subsume, which saves AND-rule work and,
/// under the acceptance heuristic, shrinks the pair intersections early (§VIII suggests the
/// order of processing is worth exploring).
#[derive(Clone, Debug, Default)]
pub struct VcQueue<const W: usize> {
    buckets: Vec<std::collections::VecDeque<(u16, u16, Bits<W>)>>,
    fifo: std::collections::VecDeque<(u16, u16, Bits<W>)>,
    lowest: usize,
    len: usize,
    /// Pop smallest carriers first.
    pub smallest_first: bool,
}

impl<const W: usize> VcQueue<W> {
    /// Empties the queue (keeps allocations).
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            b.clear();
        }
        self.fifo.clear();
        self.lowest = 0;
        self.len = 0;
    }

    /// Number of queued VCs.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Queues (x, C, y).
    #[inline]
    pub fn push(&mut self, x: u16, y: u16, c: Bits<W>) {
        self.len += 1;
        if !self.smallest_first {
            self.fifo.push_back((x, y, c));
            return;
        }
        let k = c.len();
        if self.buckets.len() <= k {
            self.buckets.resize_with(k + 1, Default::default);
        }
        self.buckets[k].push_back((x, y, c));
        if k < self.lowest {
            self.lowest = k;
        }
    }

    /// Pops the next VC.
    #[inline]
    pub fn pop(&mut self) -> Option<(u16, u16, Bits<W>)> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        if !self.smallest_first {
            return self.fifo.pop_front();
        }
        while self.buckets[self.lowest].is_empty() {
            self.lowest += 1;
        }
        self.buckets[self.lowest].pop_front()
    }
}
