//! FastVC Search (Pawlewicz, Hayward, Henderson, Arneson, *Stronger Virtual Connections in
//! Hex*, IEEE TCIAIG 2015, §IV–§VI).
//!
//! Algorithm 1, line by line:
//!
//! - `Q_c` holds unprocessed VCs (x, C, y); `Q_s` holds endpoint pairs with an unprocessed
//!   VSC and `I_s(x, y) = ∅`. The loop pops `Q_c` first: the AND rule is tried before the OR
//!   rule, which is postponed as long as possible because semis-combiner handles all VSCs of
//!   a pair at once (§IV-C1).
//! - DOAND(x, C₁, u) walks the VC neighbourhood `N(u)` minus C₁ ∪ {x}, skips y when
//!   (C₁ ∪ {x}) meets `I_c^p(u, y)` (no processed u–y VC can then be disjoint from it), and
//!   combines with every processed u–y VC (§IV-C2, C3).
//! - TRYADDVC / TRYADDVSC store minimal carriers with move-to-front ([`super::store::try_add`])
//!   and maintain the intersections and queues (§IV-C5–C7). A removed unprocessed VC stays in
//!   `Q_c` and is skipped when popped (it is no longer in its list).
//! - DOOR applies the variant's semis-combiner ([`super::combiner`]) and offers each result to
//!   TRYADDVC (§IV-C4).
//!
//! The acceptance heuristic (§VI-A) sits in TRYADDVC: *limited* accepts a new VC only if it is
//! a strict subset of a stored one or shrinks the intersection of the stored ones; *fast* only
//! if it shrinks that intersection (§VI-B). *Unlimited* accepts every minimal carrier.
//!
//! Processed/unprocessed invariant (§IV-C1): a processed VC has been AND-combined with every
//! other processed VC, an unprocessed one with none; a pair's VSCs are processed once
//! semis-combiner has seen them.

use super::bits::Bits;
use super::store::{self, Removed};
use super::{Engine, Variant};

impl<const W: usize> Engine<W> {
    /// VCSEARCH's main loop (Algorithm 1, lines 3–12) over the queues as they stand.
    pub(crate) fn fast_search(&mut self) {
        loop {
            if self.exhausted() {
                return;
            }
            if let Some((x, y, c)) = self.qc.pop() {
                // Line 5; skip VCs removed (as supersets) since they were queued.
                let p = self.store.pair(x, y);
                let Some(i) = p.fulls.iter().position(|e| e.carrier == c && !e.processed) else {
                    continue;
                };
                // Line 6.
                self.do_and(x, c, y);
                self.do_and(y, c, x);
                if self.params.capture_and {
                    self.do_and_captured(x, c, y);
                    self.do_and_captured(y, c, x);
                }
                // Lines 7–8. DOAND(x, C, y) adds to x–z lists with z ∈ N(y) − C − {x}, so
                // never to {x, y} itself (z ≠ y): the entry is still at index i.
                let p = self.store.pair_mut(x, y);
                debug_assert!(p.fulls[i].carrier == c && !p.fulls[i].processed);
                p.fulls[i].processed = true;
                let ip = p.full_int_proc & c;
                let (rx, ry) = (self.rk[x as usize], self.rk[y as usize]);
                self.store.set_full_int_proc(x, y, rx, ry, ip);
            } else if let Some((x, y)) = self.qs.pop_front() {
                // Lines 10–12.
                self.store.pair_mut(x, y).queued = false;
                self.do_or(x, y);
                for e in self.store.pair_mut(x, y).semis.iter_mut() {
                    e.processed = true;
                }
            } else {
                return;
            }
        }
    }

    /// DOAND(x, C₁, u) (lines 13–17) with ANDRULE (lines 18–23) inlined: for each y the
    /// carriers C₁ ∪ C₂ (∪ {u}) of the admissible processed u–y VCs are collected in a scratch
    /// buffer first, then offered to the x–y lists in one go.
    fn do_and(&mut self, x: u16, c1: Bits<W>, u: u16) {
        let eps = &self.eps;
        let u_coloured = eps.coloured[u as usize];
        if u_coloured && !self.params.and_over_borders && is_border_group(eps, u) {
            return;
        }
        let xr = self.rk[x as usize];
        let ur = self.rk[u as usize];
        let mut c1x = c1;
        c1x.insert(xr);
        let mut c1u = c1;
        if !u_coloured {
            c1u.insert(ur);
        }
        let size_limit = match self.params.variant {
            Variant::Unlimited => None,
            _ => self.params.and_size_limit,
        };
        if size_limit.is_some_and(|l| c1u.len() > l) {
            return;
        }
        // Ends whose x–y lists take nothing from this AND (a shortcut for the tests below).
        let closed = if u_coloured {
            self.store.no_vc[x as usize]
        } else {
            self.store.no_semi[x as usize]
        };
        // Line 15 for all ends at once where the store keeps its index (the test in the loop
        // then always passes; it stays for the other widths).
        let candidates = self
            .store
            .line15(u, &c1x, self.store.nbrs[u as usize] - c1x - closed);
        let fast = self.params.variant == Variant::Fast;
        let keep = self.params.full_keep;
        let smallest = self.params.semi_keep_smallest;
        let subsets = fast_accepts_subsets();
        // The y that makes {x, y} the border pair (none when x is not a border): the
        // pair's test once per call instead of per end.
        let mate = self.border_mate(x);
        let mut buf = std::mem::take(&mut self.and_buf);
        for yr in candidates.iter() {
            let y = self.kidx[yr];
            let border = y == mate;
            let p = self.store.pair(u, y);
            // Line 15.
            if !c1x.is_disjoint(&p.full_int_proc) {
                debug_assert!(!self.store.proc_index, "line-15 index out of step");
                continue;
            }
            // Every carrier this y gives contains C₁ (∪ {u}): skip y when the x–y lists would
            // reject all of them (a shortcut; TRYADD would reject them one by one).
            let q = self.store.pair(x, y);
            if u_coloured {
                // Fast: a VC is kept only if it shrinks I_c(x, y) (§VI-B).
                if fast && !subsets && q.full_int.is_subset(&c1u) && q.fulls.len() >= keep {
                    continue;
                }
            } else if (!smallest
                && q.semis.len() >= self.pair_semi_limit(x, y)
                && q.semi_int.is_subset(&c1u)
                && !border)
                || (q.full_int.is_subset(&c1u)
                    && ((fast && !q.semis.is_empty() && !border)
                        || store::has_subset(&q.fulls, &c1u)))
            {
                // A full VSC list that no such carrier can shrink the intersection of; for the
                // fast variant, carriers containing I_c(x, y), which its semis-combiner drops
                // unread (Alg. 4 line 5), once the pair has a VSC; or a VC carrier inside
                // every such carrier (Definition 3).
                continue;
            }
            // Lines 16 and 19 (the u–y list is not modified while we add to x–y: x ≠ u).
            buf.clear();
            self.stats.and_tries += p.fulls.len() as u64;
            // Fast VC: TRYADDVC keeps only carriers that shrink I_c(x, y), which only shrinks
            // while they are added, so a carrier containing it now is rejected then too.
            // Fast VSC: TRYADDVSC drops a carrier containing I_c(x, y) once the pair has a VSC
            // (it keeps one; I_c is not changed by adding VSCs).
            let filter = fast
                && ((u_coloured && !subsets && q.fulls.len() >= keep)
                    || (!u_coloured && !q.semis.is_empty() && !border));
            let reject = q.full_int;
            for e in &p.fulls {
                if e.processed && c1x.is_disjoint(&e.carrier) {
                    let c = c1u | e.carrier;
                    if filter && reject.is_subset(&c) {
                        continue;
                    }
                    // (Counting cells is not free: only with a bound.)
                    if size_limit.is_none_or(|l| c.len() <= l) {
                        buf.push(c);
                    }
                }
            }
            if buf.is_empty() {
                continue;
            }
            // Lines 20–23.
            if u_coloured {
                for &c in &buf {
                    self.try_add_vc(x, c, y);
                }
            } else {
                self.try_add_vscs(x, &buf, y, false);
            }
            if self.exhausted() {
                break;
            }
        }
        self.and_buf = buf;
    }

    /// The AND rule at empty midpoint `u` over the cells it captures ([`super::capture`]):
    /// combines the processed VC (x, C₁, u) with every processed u–y VC whose carrier meets
    /// C₁ ∪ {x} in a non-empty part of `cap(u)` (a disjoint one is the plain rule's, made by
    /// [`Self::do_and`]), giving the VSC (x, C₁ ∪ C₂ ∪ cap(u) ∪ {u}, y). Ends inside
    /// `cap(u)` are left out (the argument fills those cells).
    fn do_and_captured(&mut self, x: u16, c1: Bits<W>, u: u16) {
        let cap = self.cap_k[u as usize];
        if cap.is_empty() || c1.is_disjoint(&cap) {
            return;
        }
        let xr = self.rk[x as usize];
        if cap.contains(xr) {
            return;
        }
        let mut c1x = c1;
        c1x.insert(xr);
        let mut c1u = c1 | cap;
        c1u.insert(self.rk[u as usize]);
        // A processed u–y carrier must meet C₁ ∪ {x} inside cap(u) only, so it avoids
        // (C₁ ∪ {x}) − cap(u); every one contains I_c^p(u, y): the plain rule's line-15
        // test with that set drops the ends where none can (exact, as in [`Self::do_and`]).
        let outside = c1x - cap;
        let candidates = self.store.line15(
            u,
            &outside,
            self.store.nbrs[u as usize] - c1x - cap - self.store.no_semi[x as usize],
        );
        let fast = self.params.variant == Variant::Fast;
        let limited = !self.params.capture_semis_unlimited && !self.params.semi_keep_smallest;
        let mate = self.border_mate(x);
        let mut buf = std::mem::take(&mut self.and_buf);
        for yr in candidates.iter() {
            let y = self.kidx[yr];
            let p = self.store.pair(u, y);
            if !outside.is_disjoint(&p.full_int_proc) {
                debug_assert!(!self.store.proc_index, "line-15 index out of step");
                continue;
            }
            // Every carrier this y gives contains C₁ ∪ cap(u) ∪ {u}: skip y when TRYADDVSC
            // would reject each of them (its three tests, on the x–y lists as they stand).
            let q = self.store.pair(x, y);
            if y != mate
                && ((limited
                    && q.semis.len() >= self.pair_semi_limit(x, y)
                    && q.semi_int.is_subset(&c1u))
                    || (fast && q.full_int.is_subset(&c1u) && !q.semis.is_empty()))
                || (q.full_int.is_subset(&c1u) && store::has_subset(&q.fulls, &c1u))
            {
                continue;
            }
            buf.clear();
            for e in &p.fulls {
                if !e.processed {
                    continue;
                }
                let overlap = c1x & e.carrier;
                if !overlap.is_empty() && overlap.is_subset(&cap) {
                    buf.push(c1u | e.carrier);
                }
            }
            if buf.is_empty() {
                continue;
            }
            self.try_add_vscs(x, &buf, y, true);
            if self.exhausted() {
                break;
            }
        }
        self.and_buf = buf;
    }

    /// TRYADDVC (lines 27–28) with the variant's acceptance test (§VI-A, §VI-B).
    pub(crate) fn try_add_vc(&mut self, x: u16, c: Bits<W>, y: u16) -> bool {
        let variant = self.params.variant;
        let p = self.store.pair_mut(x, y);
        let reduces = (p.full_int & c) != p.full_int;
        match variant {
            Variant::Fast
                if !reduces
                    && p.fulls.len() >= self.params.full_keep
                    && !(fast_accepts_subsets() && store::has_strict_superset(&p.fulls, &c)) =>
            {
                return false
            }
            Variant::Limited if !reduces && !store::has_strict_superset(&p.fulls, &c) => {
                return false
            }
            _ => {}
        }
        let was_empty = p.fulls.is_empty();
        let mut rm = Removed::default();
        if !store::try_add(&mut p.fulls, c, 0, &mut rm) {
            return false;
        }
        self.after_full_added(x, y, c, rm, was_empty);
        self.qc.push(x, y, c);
        true
    }

    /// TRYADDVSC (lines 29–33) for each carrier of `cs`; a VSC carrier containing a VC
    /// carrier of the pair is not a VSC (Anshelevich's Definition 3) and is not stored.
    /// `captured`: the carriers come from the AND over captured cells (see
    /// [`super::VcParams::capture_semis_unlimited`]).
    pub(crate) fn try_add_vscs(&mut self, x: u16, cs: &[Bits<W>], y: u16, captured: bool) {
        let border = self.is_border_pair(x, y);
        let limit = if border || (captured && self.params.capture_semis_unlimited) {
            usize::MAX
        } else {
            self.pair_semi_limit(x, y)
        };
        let smallest = self.params.semi_keep_smallest && limit != usize::MAX;
        let fast_drop = !border && self.params.variant == Variant::Fast;
        let universe = self.store.universe;
        let p = self.store.pair_mut(x, y);
        let mut added = 0;
        let mut removed = 0;
        for &c in cs {
            if p.full_int.is_subset(&c) && store::has_subset(&p.fulls, &c) {
                continue;
            }
            // A full list takes only carriers that shrink I_s (so the OR rule can still
            // close), as the fast variant's VC heuristic does for VCs (§VI-B); with
            // `semi_keep_smallest` also one smaller than its largest carrier, which it drops.
            let mut evict = false;
            if p.semis.len() >= limit && p.semi_int.is_subset(&c) {
                if !smallest || !store::has_larger(&p.semis, c.len()) {
                    continue;
                }
                evict = true;
            }
            // Fast: a VSC containing I_c(x, y) is never read by the fast semis-combiner (Alg. 4
            // line 5); keep one so the pair is still known to have a VSC.
            if fast_drop && p.full_int.is_subset(&c) && !p.semis.is_empty() {
                continue;
            }
            let mut rm = Removed::default();
            if !store::try_add(&mut p.semis, c, 0, &mut rm) {
                continue;
            }
            added += 1;
            removed += rm.count;
            if evict && p.semis.len() > limit && store::drop_larger_than(&mut p.semis, c.len()) {
                // The largest carrier went (the last of them: the oldest stay).
                removed += 1;
                p.semi_int = store::intersection(&p.semis, false, universe);
            } else {
                // Removing supersets of c and adding c leaves the intersection I_s ∩ c.
                p.semi_int &= c;
            }
        }
        if !border
            && ((p.semis.len() >= limit && p.semi_int.is_empty())
                || (fast_drop && p.full_int.is_empty() && !p.semis.is_empty()))
        {
            let (rx, ry) = (self.rk[x as usize], self.rk[y as usize]);
            self.store.no_semi[x as usize].insert(ry);
            self.store.no_semi[y as usize].insert(rx);
        }
        let p = self.store.pair_mut(x, y);
        let queue = added > 0 && p.semi_int.is_empty() && !p.queued;
        if queue {
            p.queued = true;
        }
        self.store.total_semis += added;
        self.store.total_semis -= removed;
        if queue {
            self.qs.push_back((x, y));
        }
    }

    /// The VSC list length limit of pair {x, y} other than the border pair
    /// ([`super::VcParams::semi_limit`], [`super::VcParams::edge_semi_limit`]).
    #[inline]
    fn pair_semi_limit(&self, x: u16, y: u16) -> usize {
        let base = self.semi_limit();
        if let Some(e) = self.params.edge_semi_limit {
            let (a, b) = self.border_eps;
            let coloured = &self.eps.coloured;
            if base != usize::MAX
                && (x == a
                    || x == b
                    || y == a
                    || y == b
                    || (self.params.edge_semi_limit_groups
                        && (coloured[x as usize] || coloured[y as usize])))
            {
                return e;
            }
        }
        base
    }

    /// The VSC list length limit of this build ([`super::VcParams::semi_limit`]).
    #[inline]
    fn semi_limit(&self) -> usize {
        match self.params.variant {
            Variant::Unlimited => usize::MAX,
            _ => self.params.semi_limit.unwrap_or(usize::MAX),
        }
    }

    /// True for the pair of the colour's two borders (its VSCs are the winning VSCs, whose
    /// carriers make the mustplay: never limited).
    #[inline]
    pub(crate) fn is_border_pair(&self, x: u16, y: u16) -> bool {
        let (a, b) = self.border_eps;
        (x == a && y == b) || (x == b && y == a)
    }

    /// The endpoint y for which {x, y} is the border pair ([`Self::is_border_pair`]), or
    /// `u16::MAX` (no endpoint) when x is not one of the two borders.
    #[inline]
    fn border_mate(&self, x: u16) -> u16 {
        let (a, b) = self.border_eps;
        if x == a && a != b {
            b
        } else if x == b && a != b {
            a
        } else {
            u16::MAX
        }
    }

    /// DOOR(x, y) (lines 24–26).
    fn do_or(&mut self, x: u16, y: u16) {
        self.stats.or_calls += 1;
        let mut out = std::mem::take(&mut self.or_out);
        out.clear();
        let calls_before = self.comb.calls;
        {
            let p = self.store.pair(x, y);
            let bounded = self
                .params
                .bounded_or
                .filter(|_| p.fulls.len() < self.params.full_keep);
            match (self.params.variant, bounded) {
                (Variant::Fast, Some(k)) if !self.params.full_or => {
                    self.comb.bounded_or(&p.semis, &p.fulls, k, &mut out)
                }
                (Variant::Fast, None) if !self.params.full_or => {
                    self.comb.fast_semis_combiner(&p.semis, &p.fulls, &mut out)
                }
                _ => {
                    self.comb.semis_combiner(&p.semis, &p.fulls, &mut out);
                }
            }
        }
        self.stats.backtrack_calls += self.comb.calls - calls_before;
        if self.comb.aborted && self.status == super::Status::Complete {
            self.status = super::Status::Incomplete(match self.deadline {
                Some(d) if std::time::Instant::now() >= d => super::Exhausted::Time,
                _ => super::Exhausted::Connections,
            });
        }
        for &c in &out {
            self.try_add_vc(x, c, y);
        }
        self.or_out = out;
    }
}

/// `HEXPROOF_VC_FAST_SUBSETS=1` (a diagnosis knob, off by default; docs/journal/vc-session35.md):
/// the fast variant's TRYADDVC also accepts a VC that is a strict subset of a stored one
/// (the limited variant's extra test, §VI-A), not only one that shrinks `I_c(x, y)` (§VI-B).
/// The acceptance heuristic only prunes, so every connection stays a true one.
pub(crate) fn fast_accepts_subsets() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("HEXPROOF_VC_FAST_SUBSETS").is_some_and(|v| v == "1"))
}

/// True when endpoint `i` is a group containing a border.
fn is_border_group(eps: &super::endpoints::Endpoints, i: u16) -> bool {
    eps.reps[i as usize].is_border()
}
