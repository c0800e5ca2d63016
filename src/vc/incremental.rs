//! Incremental update after one move (Anshelevich §6: HEXY "looks for changes in the
//! hierarchy of the virtual connections caused by an additional piece placed on the board";
//! Benzene's merge-and-shrink does the same).
//!
//! After a stone at c, every stored connection is carried over, changed as the move requires:
//!
//! - **Opponent stone.** Connections whose carrier contains c, or with c as an endpoint, are
//!   dropped. The others are untouched and still true (their carrier did not change). For the
//!   closure variants (unlimited FastVC, H-search without M) nothing new can be derived: a
//!   derivation in the new position uses neither c nor anything touching it, so it was a
//!   derivation before. So the update *is* the rebuild (checked in `tests/search/vc_incremental.rs`).
//!   For the limited variants a dropped carrier may have kept another out (M, the acceptance
//!   heuristic); the pairs that lost carriers are re-queued to refill them.
//! - **Own stone.** c and the groups it touches become one group G. A connection with an end
//!   in G now ends at G (a bigger group only helps), a carrier containing c loses c (an extra
//!   own stone never hurts: the strategy plays on, answering anywhere when it would have taken
//!   c). Both kinds are marked unprocessed ("new" for H-search) and searched again, because
//!   they can combine in new ways: a coloured midpoint G turns the old VSCs keyed at c into
//!   VCs, and merged ends meet connections they never met. Untouched connections keep their
//!   processed flag: every AND or OR step among them was already tried, and its result (or a
//!   subset) is still stored. Every carried-over connection is derivable in the new position
//!   (take its old derivation and rename/shrink), so again update = rebuild for the closure
//!   variants. The limited variants pass carried-over VCs through their acceptance heuristic
//!   again, so that lists merged from several pairs stay as small as a build keeps them.
//!
//! When an own move changes more than half of the stored connections (it joins big groups),
//! the update falls back to a rebuild, which does the same work on smaller lists
//! ([`super::VcParams::rebuild_above`]).
//!
//! # Undo
//!
//! [`Engine::play_undoable`] runs the same update but keeps the store it read from (the state
//! before the move) on a stack, with the position and endpoint tables, and writes the update
//! into a store from a pool; [`Engine::unplay`] swaps the saved state back and returns the
//! current store to the pool. A depth-first search thus keeps one engine per colour along its
//! path, with no clone of the connection lists and no allocation once the pool is warm.
//!
//! Edge-template seeds need no re-matching: an instance that applies after the move applied
//! before it (an own stone only shrinks its carrier, an opponent stone only kills it).

use super::bits::Bits;
use super::endpoints::{Endpoints, NONE};
use super::store::{self, Removed, Store};
use super::{BuildStats, Engine, Status, Variant};
use crate::board::{Cell, Colour};
use crate::position::{Position, PositionError};
use std::time::Instant;

/// What an undoable play changes, saved to be put back by [`Engine::unplay`].
pub(crate) struct Saved<const W: usize> {
    position: Position,
    eps: Endpoints,
    rk: Vec<usize>,
    kidx: Vec<u16>,
    adj_k: Vec<Bits<W>>,
    universe: Bits<W>,
    border_eps: (u16, u16),
    store: Store<W>,
    status: Status,
    stats: BuildStats,
    hs_max_gen: u32,
    won: bool,
}

use super::store::unslot;

impl<const W: usize> Engine<W> {
    /// The engine's state with `store` as its connection store, for the undo stack.
    fn saved(&self, store: Store<W>) -> Saved<W> {
        Saved {
            position: self.position.clone(),
            eps: self.eps.clone(),
            rk: self.rk.clone(),
            kidx: self.kidx.clone(),
            adj_k: self.adj_k.clone(),
            universe: self.universe,
            border_eps: self.border_eps,
            store,
            status: self.status,
            stats: self.stats,
            hs_max_gen: self.hs_max_gen,
            won: self.won,
        }
    }

    /// [`Engine::play_incremental`], saving the state before it for [`Engine::unplay`].
    pub(crate) fn play_undoable(
        &mut self,
        colour: Colour,
        cell: Cell,
    ) -> Result<(), PositionError> {
        let mut saved = self.saved(Store::default());
        if let Some(old) = self.play_inner(colour, cell, true)? {
            saved.store = old;
        }
        self.history.push(saved);
        Ok(())
    }

    /// [`Engine::rebuild`], saving the state before it for [`Engine::unplay`] (a search that
    /// rebuilds at a node it could not reach by updates keeps its path).
    pub(crate) fn rebuild_undoable(&mut self, position: &Position) {
        let fresh = self.pool.pop().unwrap_or_default();
        let old = std::mem::replace(&mut self.store, fresh);
        let saved = self.saved(old);
        self.history.push(saved);
        self.rebuild(position);
    }

    /// Restores the state before the newest [`Engine::play_undoable`]; false if there is none.
    pub(crate) fn unplay(&mut self) -> bool {
        let Some(s) = self.history.pop() else {
            return false;
        };
        let current = std::mem::replace(&mut self.store, s.store);
        self.pool.push(current);
        self.position = s.position;
        self.eps = s.eps;
        self.rk = s.rk;
        self.kidx = s.kidx;
        self.adj_k = s.adj_k;
        self.universe = s.universe;
        self.border_eps = s.border_eps;
        self.status = s.status;
        self.stats = s.stats;
        self.hs_max_gen = s.hs_max_gen;
        self.won = s.won;
        self.qc.clear();
        self.qs.clear();
        true
    }

    /// Drops the saved states (their stores go to the pool).
    pub(crate) fn forget_history(&mut self) {
        while let Some(s) = self.history.pop() {
            self.pool.push(s.store);
        }
    }

    pub(crate) fn play_incremental(
        &mut self,
        colour: Colour,
        cell: Cell,
    ) -> Result<(), PositionError> {
        self.play_inner(colour, cell, false).map(|_| ())
    }

    /// The update after `colour` plays `cell`. With `keep`, the store before the move is left
    /// untouched and returned (the update writes into a pooled store); otherwise it becomes
    /// the spare.
    fn play_inner(
        &mut self,
        colour: Colour,
        cell: Cell,
        keep: bool,
    ) -> Result<Option<Store<W>>, PositionError> {
        let start = Instant::now();
        self.position.play(colour, cell)?;
        let old_reps = std::mem::take(&mut self.eps.reps);
        self.set_endpoints();
        let ck = self.lay.k(cell);
        let own = colour == self.colour;
        let map: Vec<u16> = old_reps.iter().map(|r| self.eps.index[r.index()]).collect();
        let merged = if own {
            self.eps.index[cell.index()]
        } else {
            NONE
        };
        self.begin(start);
        self.stats.endpoints = self.eps.len();
        self.won = self.eps.joined();
        let hs = self.params.variant == Variant::HSearch;
        let one_visit = !hs && !tests::two_passes_forced();
        // When an own move changes most connections (it joins big groups), the update would
        // redo nearly all the work of a build on lists a build would keep smaller: rebuild.
        // The one-visit carry-over counts the changed connections as it goes (below), the
        // two passes count them first.
        if let (true, Some(fraction), false) = (own, self.params.rebuild_above, one_visit) {
            if self.mostly_changed(&map, merged, ck, fraction) {
                let kept = keep.then(|| {
                    let fresh = self.pool.pop().unwrap_or_default();
                    std::mem::replace(&mut self.store, fresh)
                });
                let position = self.position.clone();
                self.rebuild(&position);
                self.stats.micros = start.elapsed().as_micros() as u64;
                return Ok(kept);
            }
        }
        let old = if keep {
            let fresh = self.pool.pop().unwrap_or_default();
            std::mem::replace(&mut self.store, fresh)
        } else {
            std::mem::swap(&mut self.store, &mut self.spare);
            std::mem::take(&mut self.spare)
        };
        self.store.reset(self.eps.len(), self.universe);
        self.qc.clear();
        self.qc.smallest_first = self.params.smallest_first;
        self.qs.clear();
        let ((lost_pairs, mut changed_semis, mut any_changed_full), (changed, total)) =
            self.carry_over(&old, &map, merged, ck, own);
        let kept = if keep {
            Some(old)
        } else {
            self.spare = old;
            None
        };
        if let (true, Some(fraction), true) = (own, self.params.rebuild_above, one_visit) {
            // The same test as `mostly_changed`, on the counts of the carry-over: the
            // carried store is dropped and rebuilt (the rebuild reads only the position).
            if changed as f64 > fraction * total as f64 {
                let position = self.position.clone();
                self.rebuild(&position);
                self.stats.micros = start.elapsed().as_micros() as u64;
                return Ok(kept);
            }
        }
        // Refill pairs that lost carriers (limited variants only).
        let u = self.store.universe;
        for &(i, j) in &lost_pairs {
            let q = self.store.pair_mut(i, j);
            for e in q.fulls.iter_mut().chain(q.semis.iter_mut()) {
                e.processed = false;
                e.gen = 1;
            }
            any_changed_full |= !q.fulls.is_empty();
            if hs {
                for k in 0..q.semis.len() {
                    let c = q.semis[k].carrier;
                    changed_semis.push((i, j, c));
                }
            }
            let s = Store::<W>::slot(i, j);
            if self.carry_flags[s] & KNOWN != 0 {
                // Already indexed by the carry-over: nothing is processed any more.
                let mut f = KNOWN;
                if !q.fulls.is_empty() {
                    f |= UNPROC_FULL;
                }
                if q.semi_int.is_empty() && !q.semis.is_empty() {
                    f |= SEMI_QUEUE;
                }
                self.carry_flags[s] = f;
                let (ri, rj) = (self.rk[i as usize], self.rk[j as usize]);
                self.store.set_full_int_proc(i, j, ri, rj, u);
            }
        }
        // Intersections, neighbourhoods, counts, queues.
        self.index_pairs(hs);
        if hs {
            self.hs_max_gen = any_changed_full as u32;
            // The OR rule for every changed VSC, as if it had just been UPDATEd.
            for &(i, j, c) in &changed_semis {
                if self.store.pair(i, j).semis.iter().any(|e| e.carrier == c) {
                    self.hs_or(i, j, c, 2);
                }
                if self.status != Status::Complete {
                    break;
                }
            }
        }
        self.run(2);
        self.stats.micros = start.elapsed().as_micros() as u64;
        if let Some(o) = kept.as_ref().filter(|_| stats_enabled()) {
            self.report_affected(o, &map, merged, ck, own);
        }
        Ok(kept)
    }

    /// Measurement (`HEXPROOF_VC_STATS=1`, stderr): how many of the old store's pairs the move
    /// at compact cell `ck` affects (a carrier holds the cell, or an end is the cell or, for
    /// an own move, the merged group), how many of the others the update stored with other
    /// lists (the closure's and the re-add's writes), and how many new pairs it made. The
    /// pairs an in-place update would have to visit are the affected plus the rewritten ones.
    fn report_affected(&self, old: &Store<W>, map: &[u16], merged: u16, ck: usize, own: bool) {
        let (mut hit, mut unhit_changed, mut unhit) = (0usize, 0usize, 0usize);
        let (mut entries, mut hit_entries) = (0usize, 0usize);
        let mut from_old = vec![false; self.store.pairs.len()];
        for &s in &old.touched {
            let (i, j) = unslot(s as usize);
            let p = &old.pairs[s as usize];
            let (i2, j2) = (map[i as usize], map[j as usize]);
            let n = p.fulls.len() + p.semis.len();
            entries += n;
            let k = p
                .fulls
                .iter()
                .chain(p.semis.iter())
                .filter(|e| e.carrier.contains(ck))
                .count();
            let end =
                i2 == NONE || j2 == NONE || i2 == j2 || (own && (i2 == merged || j2 == merged));
            if end {
                hit_entries += n;
            } else {
                hit_entries += k;
            }
            if end || k > 0 {
                hit += 1;
                if i2 != NONE && j2 != NONE && i2 != j2 {
                    from_old[Store::<W>::slot(i2, j2)] = true;
                }
                continue;
            }
            unhit += 1;
            let slot = Store::<W>::slot(i2, j2);
            from_old[slot] = true;
            let q = self.store.pair(i2, j2);
            let same = |a: &[store::Entry<W>], b: &[store::Entry<W>]| {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.carrier == y.carrier)
            };
            if !same(&p.fulls, &q.fulls) || !same(&p.semis, &q.semis) {
                unhit_changed += 1;
            }
        }
        let created = self
            .store
            .touched
            .iter()
            .filter(|&&s| !from_old[s as usize])
            .count();
        eprintln!(
            "vcstat stones {} own {} pairs {} hit {} unhit {} unhit_changed {} created {} new_pairs {} entries {} hit_entries {}",
            self.position.board().size() - self.position.empty_cells().len(),
            own as u8,
            old.touched.len(),
            hit,
            unhit,
            unhit_changed,
            created,
            self.store.touched.len(),
            entries,
            hit_entries
        );
    }

    /// Whether `cell` (index `ck`; `merged` the endpoint an own move merged into) changes more
    /// than `fraction` of the stored connections: then a rebuild is cheaper than the update.
    fn mostly_changed(&self, map: &[u16], merged: u16, ck: usize, fraction: f64) -> bool {
        let (mut changed, mut total) = (0usize, 0usize);
        for &s in &self.store.touched {
            let (i, j) = unslot(s as usize);
            let p = &self.store.pairs[s as usize];
            let n = p.fulls.len() + p.semis.len();
            total += n;
            if map[i as usize] == merged || map[j as usize] == merged {
                changed += n;
            } else {
                changed += p
                    .fulls
                    .iter()
                    .chain(p.semis.iter())
                    .filter(|e| e.carrier.contains(ck))
                    .count();
            }
        }
        changed as f64 > fraction * total as f64
    }

    /// Passes 1 (VCs) and 2 (VSCs) of the update: the connections of `old` carried over to the
    /// new endpoints (`map`), without the played cell (own move) or dropped (opponent's move).
    /// Returns the pairs that lost a VC (limited variants refill them), the changed VSCs
    /// (H-search re-ORs them) and whether a VC changed; and, for the one-visit carry-over,
    /// the numbers `mostly_changed` compares (connections an own move changes, connections
    /// in all).
    ///
    /// Outside H-search a pair whose new ends come from it alone (every pair after an
    /// opponent's move; after an own move every pair without the merged group as an end) is
    /// carried over in one visit, VCs then VSCs, with the acceptance heuristic's intersection
    /// kept as it grows: the same rule applications in the same order as the two passes, so
    /// the same lists, the same new `touched` order and the same queues. The visit reads each
    /// old pair once instead of twice (the update's cost is this walk over scattered pair
    /// records, not the rules). The pairs onto the merged group, which several old pairs
    /// feed, keep the two passes. Each pair carried in one visit is also indexed there
    /// (intersections, counts, neighbourhoods: what `index_pairs` would compute), while its
    /// lists are in cache; `carry_flags` tells `index_pairs` which pairs are done and which
    /// of them still have queue entries to push (in the final `touched` order). The new
    /// `touched` order is made without reading the pair records.
    #[allow(clippy::type_complexity)]
    fn carry_over(
        &mut self,
        old: &Store<W>,
        map: &[u16],
        merged: u16,
        ck: usize,
        own: bool,
    ) -> (
        (Vec<(u16, u16)>, Vec<(u16, u16, Bits<W>)>, bool),
        (usize, usize),
    ) {
        let n = self.store.n;
        self.carry_flags.clear();
        self.carry_flags.resize(n * n.saturating_sub(1) / 2, 0);
        if self.params.variant == Variant::HSearch || tests::two_passes_forced() {
            let r = self.carry_two_passes(old, &old.touched, map, merged, ck, own);
            return (r, (0, 0));
        }
        let refill = matches!(self.params.variant, Variant::Limited | Variant::Fast);
        let mut lost_pairs: Vec<(u16, u16)> = Vec::new();
        let mut any_changed_full = false;
        // Per old pair in order: its new slot, and whether the two passes would have reached
        // it in pass 1 (a VC carried over) and in pass 2 (a VSC): the new `touched` order.
        let mut reached: Vec<(u32, bool, bool)> = Vec::with_capacity(old.touched.len());
        let mut onto_merged: Vec<u32> = Vec::new();
        // Connections an own move changes, and in all (as `mostly_changed` counts them).
        let (mut changed, mut total) = (0usize, 0usize);
        // The old slots with their new ends (a walk over `touched` and `map` only), so that
        // the loads of the records a few pairs ahead can be started early.
        let moves: Vec<(u32, u16, u16)> = old
            .touched
            .iter()
            .filter_map(|&s| {
                let (i, j) = unslot(s as usize);
                let (i2, j2) = (map[i as usize], map[j as usize]);
                let carried = i2 != NONE && j2 != NONE && i2 != j2;
                if own && !carried {
                    // A pair inside the merged group (an own move keeps every endpoint).
                    let p = &old.pairs[s as usize];
                    let k = p.fulls.len() + p.semis.len();
                    total += k;
                    changed += if i2 == merged || j2 == merged {
                        k
                    } else {
                        p.fulls
                            .iter()
                            .chain(p.semis.iter())
                            .filter(|e| e.carrier.contains(ck))
                            .count()
                    };
                }
                carried.then_some((s, i2, j2))
            })
            .collect();
        for (k, &(s, i2, j2)) in moves.iter().enumerate() {
            if let Some(&(a, _, _)) = moves.get(k + 8) {
                store::prefetch_pair(&old.pairs[a as usize], false);
            }
            if let Some(&(a, x, y)) = moves.get(k + 4) {
                store::prefetch_pair(&old.pairs[a as usize], true);
                store::prefetch_pair(&self.store.pairs[Store::<W>::slot(x, y)], false);
            }
            if let Some(&(_, x, y)) = moves.get(k + 2) {
                store::prefetch_pair(&self.store.pairs[Store::<W>::slot(x, y)], true);
            }
            let p = &old.pairs[s as usize];
            let slot = Store::<W>::slot(i2, j2) as u32;
            let k = p.fulls.len() + p.semis.len();
            total += k;
            if own && (i2 == merged || j2 == merged) {
                // An own move drops nothing: every entry reaches its pair.
                changed += k;
                reached.push((slot, !p.fulls.is_empty(), !p.semis.is_empty()));
                onto_merged.push(s);
                continue;
            }
            let (r0, r1, lost, changed_full, shrunk) = self.carry_pair(p, i2, j2, ck, own);
            changed += shrunk;
            reached.push((slot, r0, r1));
            any_changed_full |= changed_full;
            if lost && refill {
                lost_pairs.push((i2, j2));
            }
        }
        if !onto_merged.is_empty() {
            let (_, _, changed) = self.carry_two_passes(old, &onto_merged, map, merged, ck, own);
            any_changed_full |= changed;
        }
        // The two passes' `touched` order: pairs reached by a VC, then those reached by a
        // VSC only. Every pair reached is touched already (its flag stays set); `SEEN`
        // keeps each once.
        let before = self.store.touched.len();
        self.store.touched.clear();
        for pass in 0..2 {
            for &(slot, r0, r1) in &reached {
                let f = &mut self.carry_flags[slot as usize];
                if (if pass == 0 { r0 } else { r1 }) && *f & SEEN == 0 {
                    *f |= SEEN;
                    self.store.touched.push(slot);
                }
            }
        }
        debug_assert_eq!(before, self.store.touched.len());
        // Outside H-search the changed VSCs are not used.
        ((lost_pairs, Vec::new(), any_changed_full), (changed, total))
    }

    /// What `index_pairs` does for the pair {`i`, `j`} (slot `s`) apart from its queue
    /// entries, recorded in `carry_flags`: the pair's lists are final (but for a refill).
    fn index_carried(&mut self, i: u16, j: u16, s: usize) {
        let u = self.store.universe;
        let (ri, rj) = (self.rk[i as usize], self.rk[j as usize]);
        let p = &mut self.store.pairs[s];
        let ip = store::intersection(&p.fulls, true, u);
        p.full_int = store::intersection(&p.fulls, false, u);
        p.semi_int = store::intersection(&p.semis, false, u);
        let mut f = KNOWN;
        if p.fulls.iter().any(|e| !e.processed) {
            f |= UNPROC_FULL;
        }
        if p.semi_int.is_empty() && p.semis.iter().any(|e| !e.processed) {
            f |= SEMI_QUEUE;
        }
        let (nf, ns) = (p.fulls.len(), p.semis.len());
        self.carry_flags[s] = f;
        self.store.total_fulls += nf;
        self.store.total_semis += ns;
        self.store.set_full_int_proc(i, j, ri, rj, ip);
        if nf > 0 {
            self.store.link(i, j, ri, rj);
        }
    }

    /// One old pair `p` carried over to the new pair {`i2`, `j2`}, which nothing else feeds
    /// (outside H-search): its VCs, then its VSCs, and indexes it (`index_carried`). Returns
    /// whether a VC and a VSC reached the pair, whether a VC was lost, whether a VC changed,
    /// and how many of its entries an own move shrank.
    fn carry_pair(
        &mut self,
        p: &store::Pair<W>,
        i2: u16,
        j2: u16,
        ck: usize,
        own: bool,
    ) -> (bool, bool, bool, bool, usize) {
        let variant = self.params.variant;
        let keep = self.params.full_keep;
        let universe = self.universe;
        let (mut r0, mut r1, mut lost, mut any_changed) = (false, false, false, false);
        let mut shrunk = 0;
        // The intersection of the new VC list, kept as it grows.
        let mut int = universe;
        for e in &p.fulls {
            let Some((c, changed)) = carried(e.carrier, ck, own, false) else {
                lost = true;
                continue;
            };
            shrunk += usize::from(changed);
            r0 = true;
            let q = self.store.pair_mut(i2, j2);
            let mut rm = Removed::default();
            if accepts_with(variant, &q.fulls, &c, int, keep)
                && store::try_add(&mut q.fulls, c, u32::from(changed), &mut rm)
            {
                // `try_add` appends.
                q.fulls.last_mut().expect("just added").processed = e.processed && !changed;
                int = if rm.count > 0 {
                    store::intersection(&q.fulls, false, universe)
                } else {
                    int & c
                };
                any_changed |= changed;
            }
        }
        for e in &p.semis {
            let Some((c, changed)) = carried(e.carrier, ck, own, false) else {
                continue;
            };
            shrunk += usize::from(changed);
            r1 = true;
            let q = self.store.pair_mut(i2, j2);
            let mut rm = Removed::default();
            if !store::has_subset(&q.fulls, &c)
                && store::try_add(&mut q.semis, c, u32::from(changed), &mut rm)
            {
                q.semis.last_mut().expect("just added").processed = e.processed && !changed;
            }
        }
        if r0 || r1 {
            self.index_carried(i2, j2, Store::<W>::slot(i2, j2));
        }
        (r0, r1, lost, any_changed, shrunk)
    }

    /// The two passes of [`Engine::carry_over`] over the old pairs `sources` (slots of `old`),
    /// in their order.
    #[allow(clippy::type_complexity)]
    fn carry_two_passes(
        &mut self,
        old: &Store<W>,
        sources: &[u32],
        map: &[u16],
        merged: u16,
        ck: usize,
        own: bool,
    ) -> (Vec<(u16, u16)>, Vec<(u16, u16, Bits<W>)>, bool) {
        let variant = self.params.variant;
        let hs = variant == Variant::HSearch;
        let m = if hs { self.params.hsearch.m } else { None };
        let refill = match variant {
            Variant::Limited | Variant::Fast => true,
            Variant::HSearch => m.is_some(),
            Variant::Unlimited => false,
        };
        let mut lost_pairs: Vec<(u16, u16)> = Vec::new();
        let mut changed_semis: Vec<(u16, u16, Bits<W>)> = Vec::new();
        let mut any_changed_full = false;
        let universe = self.universe;
        // Pass 1: VCs (so that pass 2 can drop VSCs that contain a VC).
        for pass in 0..2 {
            for &s in sources {
                let (i, j) = unslot(s as usize);
                let (i2, j2) = (map[i as usize], map[j as usize]);
                if i2 == NONE || j2 == NONE || i2 == j2 {
                    continue;
                }
                let ends_changed = own && (i2 == merged || j2 == merged);
                let p = &old.pairs[s as usize];
                let list = if pass == 0 { &p.fulls } else { &p.semis };
                let mut lost = false;
                for e in list {
                    let Some((c, changed)) = carried(e.carrier, ck, own, ends_changed) else {
                        lost = true;
                        continue;
                    };
                    let gen = u32::from(changed);
                    let q = self.store.pair_mut(i2, j2);
                    let mut rm = Removed::default();
                    let added = if pass == 0 {
                        if hs {
                            store::update_limited(&mut q.fulls, c, gen, m, &mut rm)
                        } else if accepts(variant, &q.fulls, &c, universe, self.params.full_keep) {
                            store::try_add(&mut q.fulls, c, gen, &mut rm)
                        } else {
                            false
                        }
                    } else {
                        if store::has_subset(&q.fulls, &c) {
                            continue;
                        }
                        if hs {
                            store::update_limited(&mut q.semis, c, gen, m, &mut rm)
                        } else {
                            store::try_add(&mut q.semis, c, gen, &mut rm)
                        }
                    };
                    if added {
                        let list = if pass == 0 {
                            &mut q.fulls
                        } else {
                            &mut q.semis
                        };
                        if let Some(new) = list.iter_mut().find(|x| x.carrier == c) {
                            new.processed = e.processed && !changed;
                        }
                        if changed {
                            if pass == 0 {
                                any_changed_full = true;
                            } else {
                                changed_semis.push((i2, j2, c));
                            }
                        }
                    }
                }
                if lost && pass == 0 && refill {
                    lost_pairs.push((i2, j2));
                }
            }
        }
        (lost_pairs, changed_semis, any_changed_full)
    }

    /// Intersections, neighbourhoods, counts and (outside H-search) the queues of every
    /// touched pair; for the pairs the carry-over indexed (`carry_flags`), only the queues.
    fn index_pairs(&mut self, hs: bool) {
        let u = self.store.universe;
        let busy = |f: u8| f & KNOWN == 0 || f & (UNPROC_FULL | SEMI_QUEUE) != 0;
        for k in 0..self.store.touched.len() {
            if let Some(&a) = self.store.touched.get(k + 4) {
                if busy(self.carry_flags[a as usize]) {
                    store::prefetch_pair(&self.store.pairs[a as usize], true);
                }
            }
            let s = self.store.touched[k] as usize;
            let f = self.carry_flags[s];
            if f & KNOWN != 0 {
                if f & (UNPROC_FULL | SEMI_QUEUE) == 0 {
                    continue;
                }
                let (i, j) = unslot(s);
                let p = &mut self.store.pairs[s];
                if f & UNPROC_FULL != 0 {
                    for e in &p.fulls {
                        if !e.processed {
                            self.qc.push(i, j, e.carrier);
                        }
                    }
                }
                if f & SEMI_QUEUE != 0 {
                    p.queued = true;
                    self.qs.push_back((i, j));
                }
                continue;
            }
            let (i, j) = unslot(s);
            let ip = store::intersection(&self.store.pairs[s].fulls, true, u);
            let (ri, rj) = (self.rk[i as usize], self.rk[j as usize]);
            self.store.set_full_int_proc(i, j, ri, rj, ip);
            let p = &mut self.store.pairs[s];
            p.full_int = store::intersection(&p.fulls, false, u);
            p.semi_int = store::intersection(&p.semis, false, u);
            self.store.total_fulls += p.fulls.len();
            self.store.total_semis += p.semis.len();
            if !hs {
                for e in &p.fulls {
                    if !e.processed {
                        self.qc.push(i, j, e.carrier);
                    }
                }
                if p.semi_int.is_empty() && p.semis.iter().any(|e| !e.processed) {
                    p.queued = true;
                    self.qs.push_back((i, j));
                }
            }
            if !p.fulls.is_empty() {
                let (ri, rj) = (self.rk[i as usize], self.rk[j as usize]);
                self.store.link(i, j, ri, rj);
            }
        }
    }
}

/// `carry_flags`: the pair was indexed by the one-visit carry-over.
const KNOWN: u8 = 1;
/// `carry_flags`: the pair has an unprocessed VC (queued by `index_pairs`).
const UNPROC_FULL: u8 = 2;
/// `carry_flags`: the pair goes into the VSC queue (`I_s` empty, an unprocessed VSC).
const SEMI_QUEUE: u8 = 4;
/// `carry_flags`: the pair is in the new `touched` order.
const SEEN: u8 = 8;

/// An old carrier after the move at `ck` (own move or not): `None` when the opponent's stone
/// is in it (the connection is lost); otherwise the carrier without `ck`, and whether the
/// connection changed (its carrier lost `ck`, or `ends_changed`: its ends were merged).
#[inline]
/// Whether `HEXPROOF_VC_STATS` is set (read once): [`Engine::report_affected`].
fn stats_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("HEXPROOF_VC_STATS").is_some())
}

fn carried<const W: usize>(
    carrier: Bits<W>,
    ck: usize,
    own: bool,
    ends_changed: bool,
) -> Option<(Bits<W>, bool)> {
    if !carrier.contains(ck) {
        return Some((carrier, ends_changed));
    }
    if !own {
        return None;
    }
    let mut c = carrier;
    c.remove(ck);
    Some((c, true))
}

/// The acceptance heuristic (Pawlewicz et al. §VI-A/B) for a carried-over VC, so that merged
/// lists of the limited variants stay as small as a build would keep them.
fn accepts<const W: usize>(
    variant: Variant,
    list: &[store::Entry<W>],
    c: &Bits<W>,
    universe: Bits<W>,
    keep: usize,
) -> bool {
    accepts_with(
        variant,
        list,
        c,
        store::intersection(list, false, universe),
        keep,
    )
}

/// [`accepts`] with the intersection of `list`'s carriers (`int`) already known.
fn accepts_with<const W: usize>(
    variant: Variant,
    list: &[store::Entry<W>],
    c: &Bits<W>,
    int: Bits<W>,
    keep: usize,
) -> bool {
    let reduces = || !int.is_subset(c);
    match variant {
        Variant::Fast => {
            list.len() < keep
                || reduces()
                || (super::fastvc::fast_accepts_subsets() && store::has_strict_superset(list, c))
        }
        Variant::Limited => reduces() || store::has_strict_superset(list, c),
        _ => true,
    }
}

#[cfg(not(test))]
mod tests {
    /// Outside tests the one-visit carry-over is always used.
    #[inline(always)]
    pub(super) fn two_passes_forced() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::vc::store::Store;
    use crate::vc::{Inner, VcParams, VcSet};
    use std::cell::Cell as Flag;
    type S = Store<2>;

    thread_local! {
        static TWO_PASSES: Flag<bool> = const { Flag::new(false) };
    }

    /// Whether this thread's updates use the two passes everywhere (the reference).
    pub(super) fn two_passes_forced() -> bool {
        TWO_PASSES.with(|f| f.get())
    }

    /// Every stored list in `touched` order (slot, then each entry's carrier, processed
    /// flag and generation), each pair's intersections and queue flag, the neighbourhoods
    /// and the counts: what an update leaves for the closure and the queries.
    fn state_of<const W: usize>(e: &Engine<W>) -> String {
        let entries = |l: &[store::Entry<W>]| -> Vec<(Bits<W>, bool, u32)> {
            l.iter().map(|x| (x.carrier, x.processed, x.gen)).collect()
        };
        let pairs: Vec<_> = e
            .store
            .touched
            .iter()
            .map(|&s| {
                let p = &e.store.pairs[s as usize];
                let ints = (p.full_int, p.full_int_proc, p.semi_int, p.queued);
                (s, entries(&p.fulls), entries(&p.semis), ints)
            })
            .collect();
        let st = &e.store;
        format!(
            "{pairs:?} {:?} {:?} {:?} {} {}",
            st.nbrs, st.no_vc, st.no_semi, st.total_fulls, st.total_semis
        )
    }

    /// [`state_of`] of the set's engine, and its line-15 index checked (one-word carriers).
    fn state(v: &VcSet) -> String {
        match &v.inner {
            Inner::Tiny(e) => {
                e.store
                    .check_proc_index(&e.rk)
                    .expect("line-15 index in step");
                state_of(e)
            }
            Inner::Narrow(e) => state_of(e),
            Inner::Wide(e) => state_of(e),
        }
    }

    #[test]
    fn one_visit_carry_over_stores_what_the_two_passes_store() {
        // The alpha-beta player's settings (fast variant, templates, the search's semi
        // limit 2 and uncapped) on an 11×11 game (two-word carriers) and a 7×7 game (one
        // word, with the line-15 index): own moves that join groups, opponent moves that
        // cut carriers. Both updates must leave the same lists in the same order, the same
        // intersections, queue flags, neighbourhoods and counts (the one visit indexes the
        // pairs it carries; `index_pairs` indexes them after the two passes), and make the
        // same choice between update and rebuild (the one visit counts the changed
        // connections as it goes).
        let games = [
            (
                11,
                "e2 f6 d4 g4 e5 e4 f5 g5 d6 c7 f3 h2 g3 h3 c8 b9 d7 e7 h4 i3",
            ),
            (7, "d2 c5 c3 e3 d4 d3 e4 b6 c4 f2 b5 e5 c6 a7 d5 f4"),
        ];
        let mut rebuilds = 0;
        for (size, line) in games {
            let board = Board::square(size).unwrap();
            let moves = board.parse_cells(line, Notation::Letters).unwrap();
            // The default fallback to a rebuild, and a low one that own moves reach often.
            for (limit, above) in [(Some(2), 0.5), (None, 0.5), (Some(2), 0.02)] {
                let mut params = VcParams::new(Variant::Fast);
                params.semi_limit = limit;
                params.rebuild_above = Some(above);
                params.budget.time = None;
                for colour in [crate::board::Colour::Black, crate::board::Colour::White] {
                    let start = Position::empty(board);
                    let mut one = VcSet::build(&start, colour, params.clone());
                    let mut two = VcSet::build(&start, colour, params.clone());
                    let mut who = crate::board::Colour::Black;
                    let mut undoable = false;
                    for &m in &moves {
                        if undoable {
                            one.play_undoable(who, m).unwrap();
                        } else {
                            one.play(who, m).unwrap();
                        }
                        TWO_PASSES.with(|f| f.set(true));
                        let r = if undoable {
                            two.play_undoable(who, m)
                        } else {
                            two.play(who, m)
                        };
                        TWO_PASSES.with(|f| f.set(false));
                        r.unwrap();
                        assert!(!one.status().is_incomplete());
                        assert_eq!(
                            state(&one),
                            state(&two),
                            "{size} {limit:?} {colour} after {who} {m:?}"
                        );
                        assert_eq!(one.counts(), two.counts());
                        // A rebuild leaves no seeds uncounted: its statistics say so.
                        assert_eq!(one.stats().seeded, two.stats().seeded);
                        rebuilds += usize::from(one.stats().seeded > 0);
                        who = who.opponent();
                        undoable = !undoable;
                    }
                    assert!(one.counts().vcs > 0);
                }
            }
        }
        // Some own move joined enough to take the rebuild (the counted path is exercised).
        assert!(rebuilds > 0, "no update fell back to a rebuild");
    }

    #[test]
    fn unslot_inverts_slot() {
        for b in 1..200u16 {
            for a in 0..b {
                assert_eq!(unslot(S::slot(a, b)), (a, b));
            }
        }
    }
}
