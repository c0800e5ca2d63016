//! H-search: V. V. Anshelevich, *A hierarchical approach to computer Hex*, Artificial
//! Intelligence 134 (2002), §4 and Appendix A, with HEXY's thresholds M and K (§6).
//!
//! The procedure of Appendix A, as implemented:
//!
//! ```text
//! WHILE there is at least one new VC
//!   LOOP1 over g ∈ G                                      (the AND midpoint)
//!     LOOP2 over g1 ≠ g2 ∈ G with C(g1, g) or C(g2, g) holding a new carrier
//!       LOOP3 over c1 ∈ C(g1, g), c2 ∈ C(g2, g), one of them new,
//!             c1 ∩ c2 = ∅, g1 ∉ c2, g2 ∉ c1
//!         g coloured: UPDATE C(g1, g2) with c1 ∪ c2                      (AND rule)
//!         g empty:    UPDATE SC(g1, g2) with sc = c1 ∪ {g} ∪ c2          (AND rule)
//!                     if it succeeded: APPLY THE OR DEDUCTION RULE AND UPDATE
//!                       (C(g1, g2), SC(g1, g2) − sc, UNION = sc, INTERSECTION = sc)
//! ```
//!
//! "New" carriers are those produced in the current or the previous iteration (generation);
//! the loop ends when an iteration produced no VC. The OR procedure adds one VSC at a time
//! to the running union and intersection and UPDATEs C when the intersection becomes empty;
//! HEXY's K bounds the number of VSCs combined. We enumerate each subset once (in list
//! order) instead of every ordering of it, and skip a VSC that does not shrink the running
//! intersection (its unions are supersets of those without it; Rasmussen's backtracking,
//! Pawlewicz et al. §III), and stop extending a union that already contains a VC carrier of
//! the pair (UPDATE would reject it and every extension) — none of this changes the minimal
//! carriers found. UPDATE keeps minimal
//! carriers, sorted by size, at most M per list ([`super::store::update_limited`]).
//!
//! Only G's coloured members (groups, including the borders) make AND midpoints that give
//! VCs. Appendix A's extra condition on coloured midpoints is optional; see
//! [`super::HSearchLimits::literal_black_midpoints`].

use super::bits::Bits;
use super::store::{self, Removed};
use super::Engine;

impl<const W: usize> Engine<W> {
    /// UPDATE C(x, y) with `c` at generation `gen`; bookkeeping as for FastVC.
    pub(crate) fn hs_update_full(&mut self, x: u16, y: u16, c: Bits<W>, gen: u32) -> bool {
        let m = self.params.hsearch.m;
        let p = self.store.pair_mut(x, y);
        let was_empty = p.fulls.is_empty();
        let mut rm = Removed::default();
        if !store::update_limited(&mut p.fulls, c, gen, m, &mut rm) {
            return false;
        }
        self.after_full_added(x, y, c, rm, was_empty);
        if gen > self.hs_max_gen {
            self.hs_max_gen = gen;
        }
        true
    }

    /// UPDATE SC(x, y) with `c`; a VSC containing a VC of the pair is not stored.
    fn hs_update_semi(&mut self, x: u16, y: u16, c: Bits<W>, gen: u32) -> bool {
        let m = self.params.hsearch.m;
        let u = self.store.universe;
        let p = self.store.pair_mut(x, y);
        if p.full_int.is_subset(&c) && store::has_subset(&p.fulls, &c) {
            return false;
        }
        let mut rm = Removed::default();
        if !store::update_limited(&mut p.semis, c, gen, m, &mut rm) {
            return false;
        }
        p.semi_int = store::intersection(&p.semis, false, u);
        self.store.total_semis += 1;
        self.store.total_semis -= rm.count;
        true
    }

    /// The WHILE loop of Appendix A, starting at iteration `t`.
    pub(crate) fn hsearch_run(&mut self, start: u32) {
        let mut t = start;
        let n = self.eps.len() as u16;
        while self.hs_max_gen + 1 >= t {
            self.stats.iterations += 1;
            let new_from = t - 1;
            // LOOP1.
            for g in 0..n {
                if self.eps.coloured[g as usize]
                    && !self.params.and_over_borders
                    && self.eps.reps[g as usize].is_border()
                {
                    continue;
                }
                let nb = self.store.nbrs[g as usize];
                let mut fresh = Bits::<W>::EMPTY;
                for r in nb.iter() {
                    let h = self.kidx[r];
                    if self
                        .store
                        .pair(g, h)
                        .fulls
                        .iter()
                        .any(|e| e.gen >= new_from)
                    {
                        fresh.insert(r);
                    }
                }
                if fresh.is_empty() {
                    continue;
                }
                let g_col = self.eps.coloured[g as usize];
                let gr = self.rk[g as usize];
                // LOOP2 over unordered pairs {g1, g2}, at least one with a new carrier.
                for r1 in fresh.iter() {
                    let g1 = self.kidx[r1];
                    for r2 in nb.iter() {
                        if r2 == r1 || (fresh.contains(r2) && r2 < r1) {
                            continue;
                        }
                        let g2 = self.kidx[r2];
                        if g_col
                            && self.params.hsearch.literal_black_midpoints
                            && (self.eps.coloured[g1 as usize] || self.eps.coloured[g2 as usize])
                        {
                            continue;
                        }
                        self.hs_and(g, gr, g_col, g1, r1, g2, r2, new_from, t);
                        if self.exhausted() {
                            return;
                        }
                    }
                }
            }
            t += 1;
        }
    }

    /// LOOP3 for one midpoint g and ends g1, g2.
    #[allow(clippy::too_many_arguments)]
    fn hs_and(
        &mut self,
        g: u16,
        gr: usize,
        g_col: bool,
        g1: u16,
        r1: usize,
        g2: u16,
        r2: usize,
        new_from: u32,
        t: u32,
    ) {
        let (n1, n2) = (
            self.store.pair(g1, g).fulls.len(),
            self.store.pair(g2, g).fulls.len(),
        );
        for i in 0..n1 {
            // C(g1, g) and C(g2, g) are not changed by updates of C(g1, g2) or SC(g1, g2), but
            // a list may have been shortened by an earlier update of the same pair: re-check.
            let Some(&e1) = self.store.pair(g1, g).fulls.get(i) else {
                break;
            };
            if e1.carrier.contains(r2) {
                continue;
            }
            for j in 0..n2 {
                let Some(&e2) = self.store.pair(g2, g).fulls.get(j) else {
                    break;
                };
                if e1.gen < new_from && e2.gen < new_from {
                    continue;
                }
                self.stats.and_tries += 1;
                if !e1.carrier.is_disjoint(&e2.carrier) || e2.carrier.contains(r1) {
                    continue;
                }
                if g_col {
                    self.hs_update_full(g1, g2, e1.carrier | e2.carrier, t);
                } else {
                    let mut sc = e1.carrier | e2.carrier;
                    sc.insert(gr);
                    if self.hs_update_semi(g1, g2, sc, t) {
                        self.hs_or(g1, g2, sc, t);
                    }
                }
            }
        }
    }

    /// APPLY THE OR DEDUCTION RULE AND UPDATE for the new VSC `sc` of {g1, g2}.
    pub(crate) fn hs_or(&mut self, g1: u16, g2: u16, sc: Bits<W>, t: u32) {
        self.stats.or_calls += 1;
        let start = self.hs_scratch.len();
        for k in 0..self.store.pair(g1, g2).semis.len() {
            let c = self.store.pair(g1, g2).semis[k].carrier;
            if c != sc {
                self.hs_scratch.push(c);
            }
        }
        let end = self.hs_scratch.len();
        self.hs_or_rec(g1, g2, start, end, sc, sc, 1, t);
        self.hs_scratch.truncate(start);
    }

    #[allow(clippy::too_many_arguments)]
    fn hs_or_rec(
        &mut self,
        g1: u16,
        g2: u16,
        from: usize,
        end: usize,
        union: Bits<W>,
        inter: Bits<W>,
        used: usize,
        t: u32,
    ) {
        if let Some(k) = self.params.hsearch.k {
            if used >= k {
                return;
            }
        }
        for j in from..end {
            let s = self.hs_scratch[j];
            let i1 = inter & s;
            if i1 == inter {
                continue;
            }
            self.stats.backtrack_calls += 1;
            let u1 = union | s;
            // A union containing a VC carrier of the pair, and every union extending it, would
            // be rejected by UPDATE: prune (this changes nothing but the work done).
            let p = self.store.pair(g1, g2);
            if p.full_int.is_subset(&u1) && store::has_subset(&p.fulls, &u1) {
                continue;
            }
            if i1.is_empty() {
                self.hs_update_full(g1, g2, u1, t);
            } else {
                self.hs_or_rec(g1, g2, j + 1, end, u1, i1, used + 1, t);
            }
            if self.exhausted() {
                return;
            }
        }
    }
}
