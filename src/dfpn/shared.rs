//! Positions shared by the searches of one run (`hexproof solve --openings all`): solved
//! ones with their proof sets, and the evaluations of open ones.
//!
//! Each opening is its own DFPN search with its own bounded transposition table
//! ([`super::tt`]), but the searches meet: Black a4, White x, Black d4 is reached from the
//! opening a4 and from the opening d4. Henderson, Arneson & Hayward (2009, §6) keep solved
//! states across searches in a database; this is its in-memory part, shared by the threads
//! of one process, and it keeps what the database drops: the **proof set**. It also keeps
//! each open position's **evaluation** (its mustplay and the opponent's VSCs behind it,
//! [`super::vc_eval`]), so that a position another search already evaluated costs no
//! connection builds (nearly all of a node's time).
//!
//! # Soundness
//!
//! Entries are stored under the key the transposition table uses (the position *after*
//! fill-in, the player to move, canonical under the 180° rotation when rotation is on, with
//! the entry's cells in the key's orientation). Hex has no history: a position's value, a
//! winning move of it and a proof set of it (§5: the winner still wins when the loser holds
//! every empty cell outside the set) are properties of the position alone, not of the search
//! that found them, so a solved entry (proof or disproof number 0) written by one opening's
//! search is exact in every other. An open entry is kept only as first stored, which is the
//! evaluation ([`super::mid::Dfpn::entry`] stores it before the search updates the numbers):
//! its moves are a mustplay of the position (every move outside them loses, by the
//! opponent's VSCs, whatever the path) and its numbers only steer the search. Every search of
//! a run uses the same fill-in rules, connection parameters and rotation setting, so a key
//! means the same position in all of them.
//!
//! The table only grows, up to a capacity (further positions are then not shared; the
//! searches keep their own tables). A solved entry replaces an open one; when two searches
//! solve the same position, the entry with the smaller proof set is kept (both are exact;
//! the smaller prunes more).

use super::tt::{Entry, Key};
use hashbrown::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Shards of the map (threads rarely wait on one another).
const SHARDS: usize = 64;

/// The default capacity (entries; about 230 bytes each with the map's overhead, so at most
/// about 460 MB; all 49 7×7 openings evaluate under 300 000 positions).
pub const DEFAULT_CAPACITY: usize = 2_000_000;

/// Positions shared by several searches (see the module docs).
pub struct SharedSolved {
    shards: Vec<Mutex<HashMap<Key, Entry>>>,
    hasher: hashbrown::DefaultHashBuilder,
    capacity_per_shard: usize,
    stored: AtomicU64,
}

impl std::fmt::Debug for SharedSolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedSolved")
            .field("len", &self.len())
            .finish()
    }
}

impl Default for SharedSolved {
    fn default() -> Self {
        SharedSolved::new(DEFAULT_CAPACITY)
    }
}

impl SharedSolved {
    /// An empty table holding at most about `capacity` entries.
    pub fn new(capacity: usize) -> SharedSolved {
        SharedSolved {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            hasher: hashbrown::DefaultHashBuilder::default(),
            capacity_per_shard: capacity.div_ceil(SHARDS).max(1),
            stored: AtomicU64::new(0),
        }
    }

    fn shard(&self, key: &Key) -> &Mutex<HashMap<Key, Entry>> {
        &self.shards[(self.hasher.hash_one(key) as usize) % SHARDS]
    }

    /// The entry of `key`, if some search stored one: solved, or the position's evaluation.
    pub fn get(&self, key: &Key) -> Option<Entry> {
        self.shard(key).lock().ok()?.get(key).copied()
    }

    /// Stores an entry: a solved one (`pn` or `dn` 0) replaces an open one or a solved one
    /// with a larger proof set; an open one is kept only if the key is new (the first store
    /// of a position is its evaluation).
    pub fn put(&self, key: Key, e: Entry) {
        let solved = |e: &Entry| e.pn == 0 || e.dn == 0;
        let Ok(mut map) = self.shard(&key).lock() else {
            return;
        };
        let full = map.len() >= self.capacity_per_shard;
        match map.get_mut(&key) {
            Some(old) if solved(&e) && (!solved(old) || e.proof.len() < old.proof.len()) => {
                *old = e;
            }
            Some(_) => {}
            None if !full => {
                map.insert(key, e);
                self.stored.fetch_add(1, Ordering::Relaxed);
            }
            None => {}
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().map(|m| m.len()).unwrap_or(0))
            .sum()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries stored so far (new keys only).
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, CellSet, Colour, Notation};
    use crate::dfpn::tt::INF;
    use crate::position::Position;

    fn key(b: &str, w: &str) -> Key {
        let p = Position::from_names(Board::square(5).unwrap(), b, w, Notation::Letters).unwrap();
        Key {
            black: p.stones(Colour::Black),
            white: p.stones(Colour::White),
            to_move: Colour::White,
        }
    }

    fn entry(pn: u32, dn: u32, proof: CellSet) -> Entry {
        Entry {
            pn,
            dn,
            moves: proof,
            best: None,
            proof,
            own_untested: false,
        }
    }

    #[test]
    fn solved_entries_replace_open_ones_and_the_smaller_proof_set_wins() {
        let t = SharedSolved::new(1000);
        let k = key("c3", "a1");
        t.put(k, entry(1, 3, CellSet::EMPTY));
        t.put(k, entry(2, 5, CellSet::EMPTY));
        let first = t.get(&k).expect("the evaluation is shared");
        assert_eq!(
            (first.pn, first.dn),
            (1, 3),
            "only the first open entry is kept"
        );
        let big = Position::empty(Board::square(5).unwrap()).empty_cells();
        let mut small = CellSet::EMPTY;
        for c in big.iter().take(3) {
            small.insert(c);
        }
        t.put(k, entry(INF, 0, big));
        t.put(k, entry(INF, 0, small));
        t.put(k, entry(INF, 0, big));
        t.put(k, entry(1, 3, CellSet::EMPTY));
        assert_eq!(t.get(&k).map(|e| e.proof), Some(small));
        assert_eq!(t.len(), 1);
        assert_eq!(t.stored(), 1);
        // Another player to move is another key.
        let mut k2 = k;
        k2.to_move = Colour::Black;
        assert!(t.get(&k2).is_none());
    }

    #[test]
    fn capacity_bounds_the_table() {
        let t = SharedSolved::new(1);
        let b = Board::square(5).unwrap();
        for c in b.cells().iter() {
            let mut k = key("", "");
            k.black.insert(c);
            t.put(k, entry(0, INF, CellSet::EMPTY));
        }
        // One entry per shard at most.
        assert!(t.len() <= SHARDS);
        assert!(!t.is_empty());
    }
}
