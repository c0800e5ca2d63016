//! The OR rule over all VSCs of one endpoint pair at once: semis-combiner (Pawlewicz et al.
//! §V-B, Algorithm 2), greedy sum (§V-D3, Algorithm 3) and fast semis-combiner (§VI-B,
//! Algorithm 4).
//!
//! Every carrier produced here is the union of a set of VSC carriers whose intersection is
//! empty, so it is a VC by Anshelevich's OR rule (2002, §3): whatever White plays, some VSC
//! of the set does not contain that cell and Black answers with its key.
//!
//! The work is done in reusable arenas (`s_buf`, `c_buf`, `found`), so a warm combiner does not
//! allocate. Budgets: a deadline, a cap on the arena sizes and on the VCs found; when one is hit
//! the call stops early and reports it (everything returned so far is still a true VC).

use super::bits::Bits;
use super::store::Entry;
use std::time::Instant;

/// GREEDYSUM (Algorithm 3): walk the VSCs in stored order and take a carrier only when it
/// shrinks the running intersection. If the intersection of all of them is empty, so is the
/// intersection of those taken (a skipped carrier contained the running intersection, which
/// only shrinks afterwards), so the sum is a VC carrier.
#[inline]
pub fn greedy_sum<const W: usize, I: IntoIterator<Item = Bits<W>>>(
    semis: I,
    universe: Bits<W>,
) -> Bits<W> {
    let mut x = Bits::EMPTY;
    let mut i = universe;
    for s in semis {
        let j = i & s;
        if j != i {
            x |= s;
            i = j;
            if i.is_empty() {
                break;
            }
        }
    }
    x
}

/// Scratch space and limits of the semis-combiners.
#[derive(Debug, Default)]
pub struct Combiner<const W: usize> {
    s_buf: Vec<(Bits<W>, bool)>,
    c_buf: Vec<Bits<W>>,
    found: Vec<Bits<W>>,
    /// BACKTRACK calls made (all calls since creation).
    pub calls: u64,
    universe: Bits<W>,
    deadline: Option<Instant>,
    cap: usize,
    /// Set when a limit stopped the current call.
    pub aborted: bool,
}

impl<const W: usize> Combiner<W> {
    /// Sets the limits for the following calls: a deadline and a cap on the number of carriers
    /// held in the arenas (the memory bound).
    pub fn set_limits(&mut self, universe: Bits<W>, deadline: Option<Instant>, cap: usize) {
        self.universe = universe;
        self.deadline = deadline;
        self.cap = cap.max(16);
    }

    /// SEMISCOMBINER(𝒮, 𝒞) (Algorithm 2): appends to `out` the new minimal VC carriers
    /// built from `semis` that are not supersets of a carrier in `fulls`. Returns false when a
    /// limit stopped it early (what was appended is still sound).
    ///
    /// With the §V-D2 optimisation: a BACKTRACK call whose VSCs are all processed (seen by an
    /// earlier call for this pair) cannot produce anything new and returns at once.
    pub fn semis_combiner(
        &mut self,
        semis: &[Entry<W>],
        fulls: &[Entry<W>],
        out: &mut Vec<Bits<W>>,
    ) -> bool {
        self.aborted = false;
        self.s_buf.clear();
        self.c_buf.clear();
        self.found.clear();
        self.s_buf
            .extend(semis.iter().map(|e| (e.carrier, e.processed)));
        self.c_buf.extend(fulls.iter().map(|e| e.carrier));
        let (s_hi, c_hi) = (self.s_buf.len(), self.c_buf.len());
        self.backtrack(Bits::EMPTY, 0, s_hi, 0, c_hi);
        // §V-D1: drop non-minimal carriers before returning. New carriers are never supersets
        // of the input VCs (each misses a blocked cell that every input VC contains).
        let n = self.found.len();
        for i in 0..n {
            let c = self.found[i];
            let dominated = self
                .found
                .iter()
                .enumerate()
                .any(|(j, d)| j != i && d.is_subset(&c) && (d != &c || j < i));
            if !dominated {
                out.push(c);
            }
        }
        !self.aborted
    }

    /// Benzene's OR rule (Henderson, Arneson & Hayward 2009, §2.2; `VCBuilder::OrRule`), over
    /// the whole VSC list: appends to `out` the unions of at most `max_ors` VSC carriers of
    /// `semis`, at least one of them unprocessed, whose intersection is empty, each carrier of
    /// the set shrinking the intersection of those before it in list order, that are not
    /// supersets of a carrier of `fulls` or of another carrier found. Every union is a VC carrier
    /// (the module's OR argument); not every minimal one is found (the bound, the order).
    pub fn bounded_or(
        &mut self,
        semis: &[Entry<W>],
        fulls: &[Entry<W>],
        max_ors: usize,
        out: &mut Vec<Bits<W>>,
    ) {
        self.aborted = false;
        let n = semis.len();
        if n == 0 || max_ors == 0 {
            return;
        }
        self.s_buf.clear();
        self.s_buf
            .extend(semis.iter().map(|e| (e.carrier, e.processed)));
        // c_buf[i]: the intersection of the carriers i.. (c_buf[n] the universe).
        self.c_buf.clear();
        self.c_buf.resize(n + 1, self.universe);
        for i in (0..n).rev() {
            self.c_buf[i] = self.c_buf[i + 1] & self.s_buf[i].0;
        }
        self.found.clear();
        self.or_step(0, self.universe, Bits::EMPTY, false, max_ors, fulls);
        let lo = out.len();
        for i in 0..self.found.len() {
            let c = self.found[i];
            let dominated = self
                .found
                .iter()
                .enumerate()
                .any(|(j, d)| j != i && d.is_subset(&c) && (d != &c || j < i));
            if !dominated && !out[lo..].contains(&c) {
                out.push(c);
            }
        }
    }

    /// One level of [`Self::bounded_or`]'s enumeration.
    fn or_step(
        &mut self,
        start: usize,
        ands: Bits<W>,
        ors: Bits<W>,
        any_new: bool,
        left: usize,
        fulls: &[Entry<W>],
    ) {
        self.calls += 1;
        for i in start..self.s_buf.len() {
            // Even all carriers from i on leave the intersection non-empty.
            if !(ands & self.c_buf[i]).is_empty() {
                return;
            }
            let (s, processed) = self.s_buf[i];
            let a = ands & s;
            if a == ands {
                continue;
            }
            let o = ors | s;
            let new = any_new || !processed;
            if a.is_empty() {
                if new && !fulls.iter().any(|f| f.carrier.is_subset(&o)) {
                    self.found.push(o);
                }
            } else if left > 1 {
                self.or_step(i + 1, a, o, new, left - 1, fulls);
            }
        }
    }

    /// The limit test a BACKTRACK call makes on entry, for a call whose arenas would hold
    /// `held` carriers (the caller's arenas plus the call's own 𝒮 and 𝒞).
    fn over_limit(&mut self, held: usize) -> bool {
        if self.aborted {
            return true;
        }
        self.calls += 1;
        if held > self.cap {
            self.aborted = true;
        } else if self.calls.is_multiple_of(1024) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// BACKTRACK(F, 𝒮, 𝒞) with 𝒮 = `s_buf[s_lo..s_hi]` and 𝒞 = `c_buf[c_lo..c_hi]` plus every
    /// carrier found since this call began (those avoid all blocked cells of this call).
    fn backtrack(&mut self, f: Bits<W>, s_lo: usize, s_hi: usize, c_lo: usize, c_hi: usize) {
        let held = self.s_buf.len() + self.c_buf.len() + self.found.len();
        if self.over_limit(held) {
            return;
        }
        // Line 4 (and §V-D2): no VC unless the VSCs' intersection is empty.
        let mut inter = self.universe;
        let mut any_new = false;
        for &(s, processed) in &self.s_buf[s_lo..s_hi] {
            inter &= s;
            any_new |= !processed;
        }
        if !inter.is_empty() || !any_new {
            return;
        }
        self.backtrack_body(f, s_lo, s_hi, c_lo, c_hi);
    }

    /// BACKTRACK past its entry tests (limits and line 4, which the caller made). A recursive
    /// call is made only when it passes those tests: the tests are made here first, on the
    /// VSCs and VCs that avoid the blocked cell, with the same limit accounting
    /// ([`Self::over_limit`] on the arena size the call would see), so the calls, the limits
    /// and the carriers found are those of the plain recursion; a call that would return at
    /// once costs no copying.
    fn backtrack_body(
        &mut self,
        mut f: Bits<W>,
        s_lo: usize,
        s_hi: usize,
        c_lo: usize,
        c_hi: usize,
    ) {
        let found_lo = self.found.len();
        // Line 5: every VC is filtered out, so the (greedy) sum of the VSCs is a new VC.
        if c_lo == c_hi {
            let g = greedy_sum(self.s_buf[s_lo..s_hi].iter().map(|x| x.0), self.universe);
            self.found.push(g);
        }
        loop {
            // Line 7: the smallest C − F; the next blocked cell must be in it.
            let mut best = Bits::EMPTY;
            let mut best_len = usize::MAX;
            for c in self.c_buf[c_lo..c_hi]
                .iter()
                .chain(self.found[found_lo..].iter())
            {
                let d = *c - f;
                let l = d.len();
                if l < best_len {
                    best = d;
                    best_len = l;
                    if l == 0 {
                        break;
                    }
                }
            }
            // Line 8.
            let Some(a) = best.first() else { return };
            // Lines 9–11, first without copying: the recursive call's entry tests.
            f.insert(a);
            let mut inter = self.universe;
            let mut any_new = false;
            let mut ns = 0;
            for &(s, processed) in &self.s_buf[s_lo..s_hi] {
                if !s.contains(a) {
                    inter &= s;
                    any_new |= !processed;
                    ns += 1;
                }
            }
            // The VCs avoiding a are counted only when the count can matter (the cap).
            let base = self.s_buf.len() + ns + self.c_buf.len() + self.found.len();
            let nc_max = c_hi - c_lo + self.found.len() - found_lo;
            let nc = if base + nc_max <= self.cap {
                nc_max
            } else {
                self.c_buf[c_lo..c_hi]
                    .iter()
                    .chain(self.found[found_lo..].iter())
                    .filter(|c| !c.contains(a))
                    .count()
            };
            let held = base + nc;
            if self.over_limit(held) {
                return;
            }
            if !inter.is_empty() || !any_new {
                continue;
            }
            let s2_lo = self.s_buf.len();
            for i in s_lo..s_hi {
                let e = self.s_buf[i];
                if !e.0.contains(a) {
                    self.s_buf.push(e);
                }
            }
            let s2_hi = self.s_buf.len();
            let c2_lo = self.c_buf.len();
            for i in c_lo..c_hi {
                let c = self.c_buf[i];
                if !c.contains(a) {
                    self.c_buf.push(c);
                }
            }
            for i in found_lo..self.found.len() {
                let c = self.found[i];
                if !c.contains(a) {
                    self.c_buf.push(c);
                }
            }
            let c2_hi = self.c_buf.len();
            // Line 12: carriers found below are appended to `found` and so join 𝒞 here.
            self.backtrack_body(f, s2_lo, s2_hi, c2_lo, c2_hi);
            self.s_buf.truncate(s2_lo);
            self.c_buf.truncate(c2_lo);
            if self.aborted {
                return;
            }
        }
    }

    /// FASTSEMISCOMBINER(𝒮, 𝒞) (Algorithm 4): appends to `out` VC carriers that each shrink
    /// the intersection A of the pair's VCs, by blocking one cell a ∈ A at a time and summing
    /// (greedily) the VSCs that avoid a when their intersection is empty.
    ///
    /// With no VC yet, A would be the universe; the first new VC is then the greedy sum of all
    /// VSCs (what Algorithm 4 reaches by blocking a cell outside every VSC, and what line 5 of
    /// Algorithm 2 does).
    pub fn fast_semis_combiner(
        &mut self,
        semis: &[Entry<W>],
        fulls: &[Entry<W>],
        out: &mut Vec<Bits<W>>,
    ) {
        self.aborted = false;
        self.s_buf.clear();
        self.s_buf
            .extend(semis.iter().map(|e| (e.carrier, e.processed)));
        let u = self.universe;
        let mut a = u;
        for e in fulls {
            a &= e.carrier;
        }
        if fulls.is_empty() {
            let mut inter = u;
            for &(s, _) in &self.s_buf {
                inter &= s;
            }
            if !inter.is_empty() {
                return;
            }
            let g = greedy_sum(self.s_buf.iter().map(|x| x.0), u);
            out.push(g);
            a = g;
        }
        while !a.is_empty() {
            self.calls += 1;
            // Lines 5–9 in one pass: drop the VSCs containing all of A (useless from now on),
            // and intersect those left (line 6) and those of them avoiding x = min A (line 8;
            // a dropped VSC contains x, so it would not be among them).
            let x = a.first().expect("A is not empty");
            let mut inter = u;
            let mut inter_x = u;
            self.s_buf.retain(|&(s, _)| {
                if a.is_subset(&s) {
                    return false;
                }
                inter &= s;
                if !s.contains(x) {
                    inter_x &= s;
                }
                true
            });
            if !inter.is_empty() {
                return;
            }
            if inter_x.is_empty() {
                // Lines 10–12.
                let c = greedy_sum(
                    self.s_buf.iter().filter(|e| !e.0.contains(x)).map(|e| e.0),
                    u,
                );
                out.push(c);
                a &= c;
            } else {
                // Line 14.
                a.remove(x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cells: &[u8]) -> Bits<2> {
        let mut b = Bits::EMPTY;
        for &c in cells {
            b.insert(c as usize);
        }
        b
    }

    fn entries(sets: &[&[u8]]) -> Vec<Entry<2>> {
        sets.iter()
            .map(|s| Entry {
                carrier: set(s),
                processed: false,
                gen: 0,
            })
            .collect()
    }

    fn universe() -> Bits<2> {
        set(&(0..19).collect::<Vec<u8>>())
    }

    /// The brute-force OR rule: minimal unions of VSC subsets with empty intersection that
    /// are not supersets of an existing VC.
    fn brute(semis: &[Entry<2>], fulls: &[Entry<2>]) -> Vec<Bits<2>> {
        let n = semis.len();
        let mut out: Vec<Bits<2>> = Vec::new();
        for mask in 1u32..(1 << n) {
            let mut u = Bits::EMPTY;
            let mut i = universe();
            for (k, s) in semis.iter().enumerate() {
                if mask >> k & 1 == 1 {
                    u |= s.carrier;
                    i &= s.carrier;
                }
            }
            if i.is_empty() && !fulls.iter().any(|f| f.carrier.is_subset(&u)) {
                out.push(u);
            }
        }
        let mut min: Vec<Bits<2>> = out
            .iter()
            .filter(|c| !out.iter().any(|d| d.is_subset(c) && d != *c))
            .copied()
            .collect();
        min.sort();
        min.dedup();
        min
    }

    #[test]
    fn paper_example_four_semis() {
        // §V-B example: A, B, C, D with A∩B = A∩C = A∩D = ∅ pairwise-combinable.
        let semis = entries(&[&[0, 1], &[2, 3], &[2, 4], &[3, 4]]);
        let mut c = Combiner::<2>::default();
        c.set_limits(universe(), None, 1 << 20);
        let mut out = Vec::new();
        assert!(c.semis_combiner(&semis, &[], &mut out));
        out.sort();
        assert_eq!(out, brute(&semis, &[]));
    }

    /// A fixed-seed xorshift generator for the randomised tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    fn entry(carrier: Bits<2>, processed: bool) -> Entry<2> {
        Entry {
            carrier,
            processed,
            gen: 0,
        }
    }

    /// The cells below `n` whose bit is set in `r`.
    fn mask(r: u64, n: usize) -> Bits<2> {
        let mut s = Bits::EMPTY;
        for b in (0..n).filter(|b| r >> b & 1 == 1) {
            s.insert(b);
        }
        s
    }

    #[test]
    fn semis_combiner_matches_brute_force() {
        // Small pseudo-random families over 6 cells.
        let mut next = xorshift(12345);
        let mut comb = Combiner::<2>::default();
        comb.set_limits(universe(), None, 1 << 20);
        for _ in 0..400 {
            let ns = (next() % 7) as usize + 1;
            let nf = (next() % 3) as usize;
            let mk = |r: u64| mask(r, 6);
            let semis: Vec<Entry<2>> = (0..ns).map(|_| entry(mk(next()), false)).collect();
            let fulls: Vec<Entry<2>> = (0..nf).map(|_| entry(mk(next() | next()), true)).collect();
            // Keep the VC list an antichain, as the store does.
            let fulls: Vec<Entry<2>> = fulls
                .iter()
                .filter(|f| {
                    !fulls
                        .iter()
                        .any(|g| g.carrier.is_subset(&f.carrier) && g.carrier != f.carrier)
                })
                .copied()
                .collect();
            let mut out = Vec::new();
            comb.semis_combiner(&semis, &fulls, &mut out);
            out.sort();
            out.dedup();
            assert_eq!(
                out,
                brute(&semis, &fulls),
                "semis {semis:?} fulls {fulls:?}"
            );
            // Fast variant: every output is a VC carrier (union with empty intersection) that
            // shrinks the intersection of the VCs before it.
            let mut fast = Vec::new();
            comb.fast_semis_combiner(&semis, &fulls, &mut fast);
            let mut a = fulls.iter().fold(universe(), |i, f| i & f.carrier);
            for c in &fast {
                let used: Vec<_> = semis.iter().filter(|s| s.carrier.is_subset(c)).collect();
                assert!(used
                    .iter()
                    .fold(universe(), |i, s| i & s.carrier)
                    .is_empty());
                assert_ne!(a & *c, a, "must shrink the intersection");
                a &= *c;
            }
        }
    }

    #[test]
    fn bounded_or_matches_brute_force_and_is_sound_when_bounded() {
        // Unbounded, the bounded OR finds every minimal carrier (a minimal set of VSCs with
        // empty intersection: each of its members, taken in list order, shrinks the
        // intersection, or the set without it would do); bounded, every carrier it returns is
        // a union of VSCs with empty intersection, new, and not a superset of a VC.
        let mut next = xorshift(4242);
        let mut comb = Combiner::<2>::default();
        comb.set_limits(universe(), None, 1 << 20);
        let mut produced = 0;
        for _ in 0..400 {
            let ns = (next() % 8) as usize + 1;
            let nf = (next() % 3) as usize;
            let mk = |r: u64| mask(r, 7);
            let semis: Vec<Entry<2>> = (0..ns).map(|_| entry(mk(next()), false)).collect();
            let fulls: Vec<Entry<2>> = (0..nf).map(|_| entry(mk(next() | next()), true)).collect();
            let mut out = Vec::new();
            comb.bounded_or(&semis, &fulls, ns, &mut out);
            out.sort();
            out.dedup();
            assert_eq!(
                out,
                brute(&semis, &fulls),
                "semis {semis:?} fulls {fulls:?}"
            );
            produced += out.len();
            for k in 1..4 {
                let mut few = Vec::new();
                comb.bounded_or(&semis, &fulls, k, &mut few);
                for c in &few {
                    let used = semis.iter().filter(|s| s.carrier.is_subset(c));
                    assert!(used.fold(universe(), |i, s| i & s.carrier).is_empty());
                    assert!(!fulls.iter().any(|f| f.carrier.is_subset(c)));
                    assert!(
                        out.iter().any(|d| d.is_subset(c)),
                        "a VC the brute force knows"
                    );
                }
            }
        }
        assert!(produced > 100, "{produced}");
        // Only processed VSCs: nothing new.
        let semis = [entry(mask(0b0011, 7), true), entry(mask(0b1100, 7), true)];
        let mut out = Vec::new();
        comb.bounded_or(&semis, &[], 2, &mut out);
        assert!(out.is_empty());
    }

    /// Algorithm 4 as first written (three passes over the VSCs per blocked cell): the
    /// reference the one-pass [`Combiner::fast_semis_combiner`] must match carrier for carrier.
    fn fast_reference(semis: &[Entry<2>], fulls: &[Entry<2>]) -> Vec<Bits<2>> {
        let u = universe();
        let mut out = Vec::new();
        let mut s_buf: Vec<Bits<2>> = semis.iter().map(|e| e.carrier).collect();
        let mut a = fulls.iter().fold(u, |i, e| i & e.carrier);
        if fulls.is_empty() {
            if !s_buf.iter().fold(u, |i, s| i & *s).is_empty() {
                return out;
            }
            let g = greedy_sum(s_buf.iter().copied(), u);
            out.push(g);
            a = g;
        }
        while !a.is_empty() {
            s_buf.retain(|s| !a.is_subset(s));
            if !s_buf.iter().fold(u, |i, s| i & *s).is_empty() {
                return out;
            }
            let x = a.first().unwrap();
            let avoid = || s_buf.iter().filter(|s| !s.contains(x)).copied();
            if avoid().fold(u, |i, s| i & s).is_empty() {
                let c = greedy_sum(avoid(), u);
                out.push(c);
                a &= c;
            } else {
                a.remove(x);
            }
        }
        out
    }

    #[test]
    fn fast_semis_combiner_matches_the_three_pass_reference() {
        // Fixed-seed xorshift over 10 cells: families with and without VCs.
        let mut next = xorshift(0x5eed_fa57);
        let mut comb = Combiner::<2>::default();
        comb.set_limits(universe(), None, 1 << 20);
        let mk = |r: u64| mask(r, 10);
        let mut produced = 0;
        for _ in 0..2000 {
            let ns = (next() % 12) as usize + 1;
            let nf = (next() % 4) as usize;
            let semis: Vec<Entry<2>> = (0..ns).map(|_| entry(mk(next() & next()), false)).collect();
            let fulls: Vec<Entry<2>> = (0..nf).map(|_| entry(mk(next() | next()), true)).collect();
            let mut out = Vec::new();
            comb.fast_semis_combiner(&semis, &fulls, &mut out);
            assert_eq!(
                out,
                fast_reference(&semis, &fulls),
                "semis {semis:?} fulls {fulls:?}"
            );
            produced += out.len();
        }
        assert!(
            produced > 100,
            "the families must exercise the combiner ({produced})"
        );
    }

    #[test]
    fn greedy_sum_is_a_vc() {
        // {0, 1, 5} does not shrink the running intersection {0, 1}, so it is skipped.
        let semis = [set(&[0, 1]), set(&[0, 1, 5]), set(&[2])];
        let g = greedy_sum(semis, universe());
        assert_eq!(g, set(&[0, 1, 2]));
    }
}
