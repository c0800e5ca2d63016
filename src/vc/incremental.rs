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
        // When an own move changes most connections (it joins big groups), the update would
        // redo nearly all the work of a build on lists a build would keep smaller: rebuild.
        if let (true, Some(fraction)) = (own, self.params.rebuild_above) {
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
        let (lost_pairs, mut changed_semis, mut any_changed_full) =
            self.carry_over(&old, &map, merged, ck, own);
        let kept = if keep {
            Some(old)
        } else {
            self.spare = old;
            None
        };
        // Refill pairs that lost carriers (limited variants only).
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
        Ok(kept)
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
    /// (H-search re-ORs them) and whether a VC changed.
    #[allow(clippy::type_complexity)]
    fn carry_over(
        &mut self,
        old: &Store<W>,
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
            for &s in &old.touched {
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
                    let (c, changed) = if e.carrier.contains(ck) {
                        if !own {
                            lost = true;
                            continue;
                        }
                        let mut c = e.carrier;
                        c.remove(ck);
                        (c, true)
                    } else {
                        (e.carrier, ends_changed)
                    };
                    let gen = if changed { 1 } else { 0 };
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
    /// touched pair.
    fn index_pairs(&mut self, hs: bool) {
        let u = self.store.universe;
        for k in 0..self.store.touched.len() {
            let s = self.store.touched[k] as usize;
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

/// The acceptance heuristic (Pawlewicz et al. §VI-A/B) for a carried-over VC, so that merged
/// lists of the limited variants stay as small as a build would keep them.
fn accepts<const W: usize>(
    variant: Variant,
    list: &[store::Entry<W>],
    c: &Bits<W>,
    universe: Bits<W>,
    keep: usize,
) -> bool {
    let reduces = || !store::intersection(list, false, universe).is_subset(c);
    match variant {
        Variant::Fast => list.len() < keep || reduces(),
        Variant::Limited => reduces() || store::has_strict_superset(list, c),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vc::store::Store;
    type S = Store<2>;

    #[test]
    fn unslot_inverts_slot() {
        for b in 1..200u16 {
            for a in 0..b {
                assert_eq!(unslot(S::slot(a, b)), (a, b));
            }
        }
    }
}
