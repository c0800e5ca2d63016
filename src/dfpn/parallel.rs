//! Threads on one tree: several threads search **one** position with a shared table
//! (`hexproof solve --moves … --threads N`, N ≥ 2).
//!
//! # The scheme
//!
//! After Pawlewicz & Hayward, *Scalable Parallel DFPN Search* (CG 2013, SPDFPN), with the
//! virtual proof numbers of Kaneko, *Parallel Depth First Proof Number Search* (AAAI 2010):
//! every thread runs the same MID loop ([`super::mid`]) from the root, with its own
//! connection engine and its own bounded table, and all of them share
//!
//! - the **solved positions and evaluations** ([`SharedSolved`], the table `--openings all`
//!   already shares between openings): a position solved by one thread, with its winning
//!   move and proof set, is read by every other; a position one thread evaluated (its
//!   connections built: the mustplay and the numbers of a new leaf) is not evaluated again
//!   by the others;
//! - the **current proof and disproof numbers** of open positions ([`Tree`]): every store of
//!   an open entry by any thread is published, and every lookup of an open position reads
//!   the latest published numbers, so the threads search one tree, not N copies of it;
//! - a **busy count** per position ([`Tree::enter`], [`Tree::leave`]): how many threads are
//!   inside MID at that position now.
//!
//! Before each selection a thread re-reads its children (their numbers may have been moved
//! by another thread, or solved), returns at once when its node was solved elsewhere, and
//! selects with **virtual numbers**: a child with b threads inside counts with disproof
//! number dn·(1+b) instead of dn. When the best child is busy, the thread goes to the child
//! that is best under the virtual numbers — the second-best one when it is within a factor
//! (1+b) of the best — so the threads spread over the most-proving part of the tree; when
//! the best child is far ahead of the others, they all go down into it and spread further
//! down. The selected child's disproof threshold is the 1+ε threshold above the second-best
//! *virtual* value (so it is above the child's own value and the search makes progress); a
//! virtual choice whose disproof number is not below the node's own proof threshold is
//! dropped for the serial choice. Virtual numbers are never stored: they change which child
//! is searched, not any node's numbers.
//!
//! Budgets are global: the node budget counts the nodes of all threads ([`Tree::nodes`]),
//! the deadline is common, and when one thread's root search returns (solved, or out of
//! budget) the others are stopped ([`Tree::stop`]). Memory: each thread keeps its own table
//! of `tt_entries` entries and the shared tables hold at most `tt_entries` positions each,
//! so a run of N threads may hold up to N + 2 times the single-thread table.
//!
//! `--threads 1` does not use any of this (the search is exactly the serial one, node for
//! node); `--openings all` keeps its parallelism across openings (one opening per thread,
//! [`super::openings`]), each opening searched by one thread.
//!
//! # Figures
//!
//! 7×7 a3, b4, a2, c1 and d4 (White to move), one and two threads, measured side by side on
//! a shared 2-core machine at load 14–17 (docs/journal/solver-session19.md): two threads did
//! 14 % more nodes (48,454 against 42,606) and 18 % more CPU (92.9 against 78.6 CPU-s) for
//! 1.28× less wall time in total (409 s against 523 s; a3 and a2 1.47×, b4 1.04×, c1 1.25×,
//! d4 0.90×). The one-thread node counts are those of the serial search before this module
//! (a3 9,115, b4 14,848, a2 16,763, c1 1,696). On that load the wall times say more about the
//! scheduler than about the search; the work overhead (nodes, CPU) is the solid figure.
//!
//! # Soundness
//!
//! Only the *order* of the search is shared state that a thread does not control; values
//! are not. A position is proved or disproved only by a thread's own MID loop from its
//! children's solved values, by its connections, or by reading a solved entry from
//! [`SharedSolved`], whose entries are exact wherever they were written ([`super::shared`],
//! "Soundness": a solved value, a winning move and a proof set are properties of the
//! position alone, and every thread uses the same fill-in rules, connection parameters and
//! rotation setting, so a key means the same position in all of them). The published
//! numbers ([`Tree`]) and the virtual numbers are always positive (a solved value is never
//! published there) and are only compared with thresholds and with each other: they decide
//! which child is searched next and when a thread returns, exactly as initial numbers do in
//! the serial search ([`super::mid`], "Children not yet evaluated": any positive values are
//! sound). A thread stopped by the budget or by [`Tree::stop`] returns open numbers, never
//! a value. So the answer of N threads is the answer of the serial search whenever both
//! decide (the winner of a Hex position is unique); only the node count and which winning
//! move is reported may differ from run to run.

use super::mid::Dfpn;
use super::shared::SharedSolved;
use super::tt::{Key, INF};
use super::{check_position, finish, make_search, Profile, SolveError, SolveOutcome, SolveParams};
use crate::board::Colour;
use crate::position::Position;
use hashbrown::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Shards of the maps (threads rarely wait on one another).
const SHARDS: usize = 64;

#[derive(Default)]
struct Shard {
    /// The latest proof and disproof numbers of open positions (both positive).
    numbers: HashMap<Key, (u32, u32)>,
    /// Threads inside MID at a position (no entry: none).
    busy: HashMap<Key, u32>,
}

/// The state the threads of one tree share besides [`SharedSolved`] (see the module docs).
pub struct Tree {
    shards: Vec<Mutex<Shard>>,
    hasher: hashbrown::DefaultHashBuilder,
    capacity_per_shard: usize,
    /// Nodes evaluated by all the threads.
    pub nodes: AtomicU64,
    /// Set when a thread's root search returned: the others return too.
    pub stop: AtomicBool,
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree")
            .field("nodes", &self.nodes.load(Ordering::Relaxed))
            .finish()
    }
}

impl Tree {
    /// Shared numbers for at most about `capacity` positions (further ones are not shared).
    pub fn new(capacity: usize) -> Tree {
        Tree {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            hasher: hashbrown::DefaultHashBuilder::default(),
            capacity_per_shard: capacity.div_ceil(SHARDS).max(1),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }

    fn shard(&self, key: &Key) -> std::sync::MutexGuard<'_, Shard> {
        let i = (self.hasher.hash_one(key) as usize) % SHARDS;
        // A poisoned shard only means a thread panicked; its maps are still consistent.
        self.shards[i].lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The latest published numbers of open position `key`.
    pub fn numbers(&self, key: &Key) -> Option<(u32, u32)> {
        self.shard(key).numbers.get(key).copied()
    }

    /// Publishes the numbers of open position `key` (solved values are not published here:
    /// they go to [`SharedSolved`] with their proof sets).
    pub fn publish(&self, key: Key, pn: u32, dn: u32) {
        if pn == 0 || dn == 0 {
            return;
        }
        let mut s = self.shard(&key);
        let full = s.numbers.len() >= self.capacity_per_shard;
        match s.numbers.get_mut(&key) {
            Some(v) => *v = (pn, dn),
            None if !full => {
                s.numbers.insert(key, (pn, dn));
            }
            None => {}
        }
    }

    /// Threads inside MID at `key` now.
    pub fn busy(&self, key: &Key) -> u32 {
        self.shard(key).busy.get(key).copied().unwrap_or(0)
    }

    /// A thread enters MID at `key`.
    pub fn enter(&self, key: Key) {
        *self.shard(&key).busy.entry(key).or_insert(0) += 1;
    }

    /// A thread leaves MID at `key`.
    pub fn leave(&self, key: Key) {
        let mut s = self.shard(&key);
        if let Some(b) = s.busy.get_mut(&key) {
            *b -= 1;
            if *b == 0 {
                s.busy.remove(&key);
            }
        }
    }

    /// Positions with a thread inside now (all zero once the threads have returned).
    pub fn busy_positions(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().map(|s| s.busy.len()).unwrap_or(0))
            .sum()
    }
}

/// Solves `pos` with `params.threads` threads on one tree (see the module docs). Returns the
/// outcome and the search of the first thread (the calling one), which keeps its table and
/// reads the shared solved positions: `prove::emit::emit_solved` writes the proof from it.
pub fn solve_parallel(
    pos: &Position,
    to_move: Colour,
    params: &SolveParams,
) -> Result<(SolveOutcome, Dfpn<'static>), SolveError> {
    check_position(pos)?;
    let start = Instant::now();
    let threads = params.threads.max(1);
    let capacity = params.tt_entries.max(1024);
    let params = SolveParams {
        shared: Some(
            params
                .shared
                .clone()
                .unwrap_or_else(|| Arc::new(SharedSolved::new(capacity))),
        ),
        threads: 1,
        ..params.clone()
    };
    let tree = Arc::new(Tree::new(capacity));
    let order = params.order.order();
    let search = |d: &mut Dfpn| {
        d.tree = Some(tree.clone());
        let root = d.filled(pos, to_move);
        let r = d.mid(&root, to_move, INF, INF);
        tree.stop.store(true, Ordering::Relaxed);
        r
    };
    let (mut d0, others) = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut d = make_search(&params, order, start);
                    search(&mut d);
                    (Profile::of(&d), d.vc_decided, d.nodes)
                })
            })
            .collect();
        let mut d0 = make_search(&params, order, start);
        search(&mut d0);
        let others: Vec<_> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
        (d0, others)
    });
    // From here on the first thread goes on alone (a winning move to confirm, a proof to
    // write), with the shared solved positions and the node budget left.
    d0.tree = None;
    d0.aborted = false;
    for (_, vc_decided, nodes) in &others {
        d0.vc_decided += vc_decided;
        d0.nodes += nodes;
    }
    let root = d0.filled(pos, to_move);
    let (pn, dn) = d0.lookup(&root, to_move).map_or((1, 1), |e| (e.pn, e.dn));
    let mut out = finish(&mut d0, pos, &root, to_move, pn, dn, start);
    for (p, _, _) in &others {
        out.profile.add(p);
    }
    Ok((out, d0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, CellSet, Colour, Notation};

    fn key(b: &str) -> Key {
        let p = Position::from_names(Board::square(5).unwrap(), b, "", Notation::Letters).unwrap();
        Key {
            black: p.stones(Colour::Black),
            white: CellSet::EMPTY,
            to_move: Colour::White,
        }
    }

    #[test]
    fn busy_counts_and_published_numbers() {
        let t = Tree::new(1000);
        let k = key("c3");
        assert_eq!(t.busy(&k), 0);
        t.enter(k);
        t.enter(k);
        assert_eq!(t.busy(&k), 2);
        t.leave(k);
        assert_eq!(t.busy(&k), 1);
        t.leave(k);
        assert_eq!(t.busy(&k), 0);
        assert_eq!(t.busy_positions(), 0);
        t.publish(k, 3, 4);
        t.publish(k, 5, 6);
        assert_eq!(t.numbers(&k), Some((5, 6)));
        // Solved values are never published as numbers.
        t.publish(k, 0, INF);
        assert_eq!(t.numbers(&k), Some((5, 6)));
        t.publish(key("a1"), INF, 0);
        assert_eq!(t.numbers(&key("a1")), None);
    }
}
