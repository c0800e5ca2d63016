//! The solver's transposition table: proof and disproof numbers of searched positions.
//!
//! Keyed by the position's two stone bitsets and the player to move (after fill-in the stone
//! counts no longer tell whose turn it is). Hex positions never repeat along a line of play
//! (stones are only added), so the search graph is acyclic and a table entry is valid
//! wherever the position is reached. The table is bounded: when it holds `capacity` entries
//! the unsolved ones are dropped (solved ones are the expensive knowledge, and the search
//! keeps the values it needs on its own stack, see [`super::mid`]); when the solved ones
//! alone still fill it, every second of them (in the map's order) is dropped too. (Until
//! session 24 the whole table was then cleared, which lost the root's proof in long runs:
//! the whole-board engine's certificate rebuild (src/engine/whole.rs) walks that proof
//! and must solve again every part of it that is gone.) Any subset of exact entries is
//! exact, so what is dropped changes only the work, never a value.
//!
//! **Rotation transpositions** (Henderson, Arneson & Hayward 2009, §6: "180 degree board
//! rotation"): the 180° rotation maps Hex positions to positions of the same value, each
//! player keeping its borders. With [`Symmetry`] the table stores each position once, under
//! the smaller of its key and its rotated key; an entry read through the rotated key has its
//! cells (moves, best move, proof set) rotated back.

use crate::board::{Board, Border, Cell, CellSet, Colour};
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
    /// A solved node: its **proof set** (§5), the empty cells the winner's strategy uses; an
    /// opponent move outside it loses too. An open node: the cells of the winning VSCs of
    /// the player not to move that justify its mustplay (part of the proof set if it loses).
    pub proof: CellSet,
    /// An open node evaluated without the win test of the player to move ([`super::mid`],
    /// "Own wins of a child"): the test is made before the node is expanded.
    pub own_untested: bool,
}

impl Entry {
    /// A node the player to move wins by a connection with carrier `c` (its proof set).
    pub fn won_by_connection(c: CellSet) -> Entry {
        Entry {
            pn: 0,
            dn: INF,
            moves: c,
            best: None,
            proof: c,
            own_untested: false,
        }
    }
}

/// The 180° rotation of one board, as a permutation of cell indices.
#[derive(Clone, Debug)]
pub struct Symmetry {
    board: Board,
    perm: Vec<u16>,
}

impl Symmetry {
    /// The rotation of `board`.
    pub fn new(board: &Board) -> Symmetry {
        let mut perm: Vec<u16> = (0..384u16).collect();
        let (w, h) = (board.cols(), board.rows());
        for c in board.cells().iter() {
            let (x, y) = c.coords();
            perm[c.index()] = Cell::at(w - 1 - x, h - 1 - y).index() as u16;
        }
        for (a, b) in [
            (Border::Top, Border::Bottom),
            (Border::Bottom, Border::Top),
            (Border::Left, Border::Right),
            (Border::Right, Border::Left),
        ] {
            perm[Cell::border(a).index()] = Cell::border(b).index() as u16;
        }
        Symmetry {
            board: *board,
            perm,
        }
    }

    /// The board it rotates.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The image of a cell.
    #[inline]
    pub fn cell(&self, c: Cell) -> Cell {
        Cell::from_index(self.perm[c.index()] as usize)
    }

    /// The image of a set.
    pub fn set(&self, s: CellSet) -> CellSet {
        let mut out = CellSet::EMPTY;
        for c in s.iter() {
            out.insert(self.cell(c));
        }
        out
    }

    /// The canonical form of `key` (the smaller of it and its image) and whether it is the
    /// image.
    pub fn canonical(&self, key: Key) -> (Key, bool) {
        let r = Key {
            black: self.set(key.black),
            white: self.set(key.white),
            to_move: key.to_move,
        };
        if (r.black, r.white) < (key.black, key.white) {
            (r, true)
        } else {
            (key, false)
        }
    }

    /// `e` with its cells mapped by the rotation.
    pub fn entry(&self, e: Entry) -> Entry {
        Entry {
            moves: self.set(e.moves),
            best: e.best.map(|c| self.cell(c)),
            proof: self.set(e.proof),
            ..e
        }
    }
}

/// The bounded table.
pub struct Table {
    map: HashMap<Key, Entry>,
    capacity: usize,
    /// Times the unsolved entries were dropped.
    pub purges: u64,
    /// Times half of the solved entries were dropped too (they alone filled the table).
    pub halvings: u64,
}

impl Table {
    /// An empty table holding at most `capacity` entries.
    pub fn new(capacity: usize) -> Table {
        Table {
            map: HashMap::new(),
            capacity: capacity.max(1024),
            purges: 0,
            halvings: 0,
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
                let mut k = 0u64;
                self.map.retain(|_, _| {
                    k += 1;
                    k.is_multiple_of(2)
                });
                self.halvings += 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;
    use crate::position::Position;

    fn key(i: usize) -> Key {
        let mut black = CellSet::EMPTY;
        for b in 0..12 {
            if i >> b & 1 == 1 {
                black.insert(Cell::from_index(b));
            }
        }
        Key {
            black,
            white: CellSet::EMPTY,
            to_move: if i >> 12 & 1 == 1 {
                Colour::White
            } else {
                Colour::Black
            },
        }
    }

    fn entry(pn: u32, dn: u32) -> Entry {
        Entry {
            pn,
            dn,
            moves: CellSet::EMPTY,
            best: None,
            proof: CellSet::EMPTY,
            own_untested: false,
        }
    }

    /// The table never holds more than its capacity; a full table drops the open entries
    /// first, and half of the solved ones (not all) when those alone fill it; what it keeps
    /// is what was stored.
    #[test]
    fn a_full_table_keeps_half_of_its_solved_entries() {
        let mut t = Table::new(1024);
        // Open entries only: dropped at the first overflow.
        for i in 0..1024 {
            t.put(key(i), entry(1, 1));
        }
        assert_eq!(t.len(), 1024);
        t.put(key(1024), entry(0, INF));
        assert_eq!((t.len(), t.purges, t.halvings), (1, 1, 0));
        // Solved entries fill it: half of them stay.
        for i in 1025..2048 {
            t.put(key(i), entry(if i.is_multiple_of(2) { 0 } else { INF }, 0));
        }
        assert_eq!(t.len(), 1024);
        t.put(key(2048), entry(0, INF));
        assert_eq!((t.len(), t.purges, t.halvings), (513, 2, 1));
        for i in 1025..2048 {
            if let Some(e) = t.get(&key(i)) {
                assert_eq!(e.dn, 0, "entry {i} is the one stored");
                assert_eq!(e.pn, if i.is_multiple_of(2) { 0 } else { INF });
            }
        }
        assert_eq!(t.get(&key(2048)).map(|e| e.pn), Some(0));
        // Many more solved entries: the table stays within its capacity.
        for i in 2049..8000 {
            t.put(key(i), entry(0, INF));
            assert!(t.len() <= 1024);
        }
        assert!(t.halvings > 1);
    }

    #[test]
    fn rotation_is_an_involution_and_canonical_keys_agree() {
        let b = Board::square(7).unwrap();
        let s = Symmetry::new(&b);
        let p = Position::from_names(b, "d4 a1 b6", "c2 g7", Notation::Letters).unwrap();
        let key = Key {
            black: p.stones(Colour::Black),
            white: p.stones(Colour::White),
            to_move: Colour::White,
        };
        let rot = Key {
            black: s.set(key.black),
            white: s.set(key.white),
            to_move: Colour::White,
        };
        assert_ne!(rot, key);
        assert_eq!(s.set(rot.black), key.black);
        assert_eq!(s.canonical(key).0, s.canonical(rot).0);
        assert_ne!(s.canonical(key).1, s.canonical(rot).1);
        let a1 = b.parse_cell("a1", Notation::Letters).unwrap();
        let g7 = b.parse_cell("g7", Notation::Letters).unwrap();
        assert_eq!(s.cell(a1), g7);
        assert_eq!(
            s.cell(Cell::border(Border::Top)),
            Cell::border(Border::Bottom)
        );
        // The centre is fixed.
        let d4 = b.parse_cell("d4", Notation::Letters).unwrap();
        assert_eq!(s.cell(d4), d4);
    }
}
