//! A persistent database of solved positions with few stones (`hexproof solve --db FILE`).
//!
//! Henderson, Arneson & Hayward 2009, §6: values of states with at most k stones are kept
//! permanently (k = 4 on 7×7, 5 on 8×8), apart from the bounded transposition table, so that
//! later searches (other openings, later runs) look them up instead of solving them again.
//! The store is [`redb`], an embedded key-value file (no server). Keys are the position
//! after fill-in in its canonical orientation under the 180° rotation (as in [`super::tt`]),
//! so a position and its image share one record; a record holds who wins and, for a win of
//! the player to move, the winning move (in the canonical orientation).
//!
//! Only exact results are stored (the search stores a position only once its proof or
//! disproof number is 0), so a lookup is as sound as the search that wrote it. Proof sets
//! are not kept: a position read from the database prunes no siblings.
//!
//! Writes are buffered and committed in one transaction by [`SolvedDb::flush`] (at the end
//! of each solve), since a redb commit syncs the file.

use super::tt::Key;
use crate::board::{Board, Cell};
use redb::{Database, ReadableTableMetadata, TableDefinition};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

/// Cell indices are below this (cells, then the four borders).
const MAX_INDEX: usize = 361;

const SOLVED: TableDefinition<&[u8], &[u8]> = TableDefinition::new("solved");

/// Default most stones of a stored position (Henderson et al. use 4 on 7×7, 5 on 8×8).
pub const DEFAULT_MAX_STONES: usize = 5;

/// A solved position read from the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// True when the player to move wins.
    pub to_move_wins: bool,
    /// Its winning move (canonical orientation), if it wins and one is known.
    pub best: Option<Cell>,
}

/// The database, shared by the solver's threads.
pub struct SolvedDb {
    db: Database,
    pending: Mutex<HashMap<Vec<u8>, Vec<u8>>>,
    /// Most stones of a stored position.
    pub max_stones: usize,
}

impl std::fmt::Debug for SolvedDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolvedDb")
            .field("max_stones", &self.max_stones)
            .finish()
    }
}

fn key_bytes(board: &Board, key: &Key) -> Vec<u8> {
    let mut k = vec![board.cols(), board.rows(), key.to_move as u8];
    for (tag, set) in [(b'B', key.black), (b'W', key.white)] {
        k.push(tag);
        for c in set.iter() {
            k.extend_from_slice(&(c.index() as u16).to_le_bytes());
        }
    }
    k
}

impl SolvedDb {
    /// Opens (or creates) the database file at `path`.
    pub fn open(path: &Path, max_stones: usize) -> Result<SolvedDb, String> {
        let err = |e: &dyn std::fmt::Display| format!("database {}: {e}", path.display());
        let db = Database::create(path).map_err(|e| err(&e))?;
        let tx = db.begin_write().map_err(|e| err(&e))?;
        tx.open_table(SOLVED).map_err(|e| err(&e))?;
        tx.commit().map_err(|e| err(&e))?;
        Ok(SolvedDb {
            db,
            pending: Mutex::new(HashMap::new()),
            max_stones,
        })
    }

    /// The record of canonical `key` on `board`, if stored.
    pub fn get(&self, board: &Board, key: &Key) -> Option<Solved> {
        let k = key_bytes(board, key);
        if let Some(v) = self.pending.lock().ok()?.get(&k) {
            return decode(v);
        }
        let tx = self.db.begin_read().ok()?;
        let t = tx.open_table(SOLVED).ok()?;
        let v = t.get(k.as_slice()).ok()??;
        decode(v.value())
    }

    /// Buffers the result of canonical `key` (written by [`SolvedDb::flush`]).
    pub fn put(&self, board: &Board, key: &Key, s: Solved) {
        let mut v = vec![s.to_move_wins as u8];
        if let Some(c) = s.best {
            v.extend_from_slice(&(c.index() as u16).to_le_bytes());
        }
        if let Ok(mut p) = self.pending.lock() {
            p.insert(key_bytes(board, key), v);
        }
    }

    /// Commits the buffered records.
    pub fn flush(&self) -> Result<(), String> {
        let pending = match self.pending.lock() {
            Ok(mut p) => std::mem::take(&mut *p),
            Err(_) => return Err("database buffer poisoned".into()),
        };
        if pending.is_empty() {
            return Ok(());
        }
        let e = |e: &dyn std::fmt::Display| format!("database write: {e}");
        let tx = self.db.begin_write().map_err(|x| e(&x))?;
        {
            let mut t = tx.open_table(SOLVED).map_err(|x| e(&x))?;
            for (k, v) in &pending {
                t.insert(k.as_slice(), v.as_slice()).map_err(|x| e(&x))?;
            }
        }
        tx.commit().map_err(|x| e(&x))
    }

    /// Records stored (committed).
    pub fn len(&self) -> u64 {
        (|| -> Option<u64> {
            let tx = self.db.begin_read().ok()?;
            let t = tx.open_table(SOLVED).ok()?;
            t.len().ok()
        })()
        .unwrap_or(0)
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn decode(v: &[u8]) -> Option<Solved> {
    let to_move_wins = *v.first()? != 0;
    let best = match v.get(1..3) {
        // A damaged file must not panic: an index beyond the cells and borders is no move.
        Some(b) => Some(u16::from_le_bytes([b[0], b[1]]) as usize)
            .filter(|&i| i < MAX_INDEX)
            .map(Cell::from_index),
        None => None,
    };
    Some(Solved { to_move_wins, best })
}

/// Stones on a key's board.
pub fn stones(key: &Key) -> usize {
    key.black.len() + key.white.len()
}
