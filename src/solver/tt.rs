//! The solver's transposition table: proof and disproof numbers of searched positions.
//!
//! Keyed by the position's two stone bitsets and the player to move (after fill-in the stone
//! counts no longer tell whose turn it is). Hex positions never repeat along a line of play
//! (stones are only added), so the search graph is acyclic and a table entry is valid
//! wherever the position is reached. The table is bounded: when it holds `capacity` entries
//! the unsolved ones are dropped (solved ones are the expensive knowledge, and the search
//! keeps the values it needs on its own stack, see [`super::dfpn`]).

use crate::board::{CellSet, Colour};
use hashbrown::HashMap;

/// "Infinite" proof or disproof number.
pub const INF: u32 = u32::MAX / 4;

/// A table key: black stones, white stones, player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// Black stones.
    pub black: CellSet,
    /// White stones.
    pub white: CellSet,
    /// Player to move.
    pub to_move: Colour,
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Proof number (the player to move wins).
    pub pn: u32,
    /// Disproof number.
    pub dn: u32,
    /// The moves worth trying (after mustplay and inferior-cell pruning), or the winning
    /// connection's carrier for a node decided by connections.
    pub moves: CellSet,
    /// Best move found (a winning move when pn = 0).
    pub best: Option<crate::board::Cell>,
}

/// The bounded table.
pub struct Table {
    map: HashMap<Key, Entry>,
    capacity: usize,
    /// Times the unsolved entries were dropped.
    pub purges: u64,
}

impl Table {
    /// An empty table holding at most `capacity` entries.
    pub fn new(capacity: usize) -> Table {
        Table {
            map: HashMap::new(),
            capacity: capacity.max(1024),
            purges: 0,
        }
    }

    /// The entry of `key`.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<&Entry> {
        self.map.get(key)
    }

    /// Stores an entry, purging unsolved entries first when full.
    pub fn put(&mut self, key: Key, entry: Entry) {
        if self.map.len() >= self.capacity && !self.map.contains_key(&key) {
            self.map.retain(|_, e| e.pn == 0 || e.dn == 0);
            self.purges += 1;
            if self.map.len() >= self.capacity {
                self.map.clear();
            }
        }
        self.map.insert(key, entry);
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}
