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
//! of each solve), since a redb commit syncs the file, and also during a long solve, at most
//! once per [`FLUSH_EVERY`] (by the [`SolvedDb::put`] that finds the last commit that old), so
//! that a job killed mid-search loses at most that much of its store records.
//!
//! A damaged or edited file must never give a wrong answer. Records are stored in the table
//! `solved-v2` with a checksum each: the value is `[winner, best move (2 bytes, optional)]`
//! followed by a 64-bit FNV-1a hash of a fixed seed, the key and that body ([`checksum`]). A
//! record whose checksum does not match is ignored (never trusted) and counted. Opening checks
//! the file's integrity and reads every record once; redb panics on some damaged files, so
//! opening runs under `catch_unwind` and a file it cannot read is a clear error (exit 2 in
//! `solve`). Records of the first format (table `solved`, no checksum) are not read.

use super::tt::Key;
use crate::board::{Board, Cell};
use redb::{Database, ReadableTable, ReadableTableMetadata, TableDefinition};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a long solve commits its buffered records (see [`SolvedDb::put`]).
pub const FLUSH_EVERY: Duration = Duration::from_secs(30);

/// Cell indices are below this (cells, then the four borders).
const MAX_INDEX: usize = 361;

/// The table of checksummed records (format 2; format 1, `solved`, had no checksum and is
/// not read).
const SOLVED: TableDefinition<&[u8], &[u8]> = TableDefinition::new("solved-v2");

/// The table of format 1 (no checksum): its records are counted, never read.
const LEGACY: TableDefinition<&[u8], &[u8]> = TableDefinition::new("solved");

/// Seed of the record checksum (fixed: part of the file format).
const CHECKSUM_SEED: &[u8] = b"hexproof solved-db v2";

/// The checksum of a record: FNV-1a 64 over the seed, the key's length, the key and the body.
pub fn checksum(key: &[u8], body: &[u8]) -> u64 {
    let mut bytes = Vec::with_capacity(CHECKSUM_SEED.len() + 2 + key.len() + body.len());
    bytes.extend_from_slice(CHECKSUM_SEED);
    bytes.extend_from_slice(&(key.len() as u16).to_le_bytes());
    bytes.extend_from_slice(key);
    bytes.extend_from_slice(body);
    crate::templates::library::fnv64(&bytes)
}

/// The stored value of a record: body then checksum.
fn seal(key: &[u8], body: &[u8]) -> Vec<u8> {
    let mut v = body.to_vec();
    v.extend_from_slice(&checksum(key, body).to_le_bytes());
    v
}

/// The body of a stored value whose checksum matches, else `None`.
fn unseal<'a>(key: &[u8], value: &'a [u8]) -> Option<&'a [u8]> {
    let split = value.len().checked_sub(8)?;
    let (body, sum) = value.split_at(split);
    let sum = u64::from_le_bytes(sum.try_into().ok()?);
    (matches!(body.len(), 1 | 3) && checksum(key, body) == sum).then_some(body)
}

/// Why the database could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Opening (or checking) the file at `path` failed.
    #[error("database {}: {source}", path.display())]
    Open {
        /// The database file.
        path: std::path::PathBuf,
        /// What failed.
        #[source]
        source: DbFault,
    },
    /// Committing the buffered records failed.
    #[error("database write: {0}")]
    Write(#[source] DbFault),
    /// A thread panicked while holding the write buffer.
    #[error("database buffer poisoned")]
    Poisoned,
}

/// What went wrong inside the database file or library.
#[derive(Debug, thiserror::Error)]
pub enum DbFault {
    /// The file could not be opened.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// redb could not open the database.
    #[error(transparent)]
    Database(Box<redb::DatabaseError>),
    /// redb could not start a transaction.
    #[error(transparent)]
    Transaction(Box<redb::TransactionError>),
    /// redb could not open the table.
    #[error(transparent)]
    Table(Box<redb::TableError>),
    /// redb could not read or write the storage.
    #[error(transparent)]
    Storage(Box<redb::StorageError>),
    /// redb could not commit.
    #[error(transparent)]
    Commit(Box<redb::CommitError>),
    /// redb panicked reading the file.
    #[error("the file is damaged (the database library could not read it)")]
    Unreadable,
    /// redb's integrity check failed.
    #[error("the file is damaged (integrity check failed)")]
    Damaged,
    /// The PostgreSQL server's error.
    #[cfg(feature = "postgres")]
    #[error(transparent)]
    Postgres(Box<postgres::Error>),
    /// A server URL given to a build without the `postgres` feature.
    #[error("this hexproof was built without PostgreSQL support (cargo build --release --features postgres)")]
    NoServerSupport,
}

/// `?` on redb's results: its errors are boxed (they are large, and rare).
macro_rules! boxed_from {
    ($($variant:ident: $error:ty),*) => {
        $(impl From<$error> for DbFault {
            fn from(e: $error) -> DbFault {
                DbFault::$variant(Box::new(e))
            }
        })*
    };
}

boxed_from!(
    Database: redb::DatabaseError,
    Transaction: redb::TransactionError,
    Table: redb::TableError,
    Storage: redb::StorageError,
    Commit: redb::CommitError
);

/// Runs `f`, turning a panic (redb's, on a damaged file) into an error, without printing
/// the panic message.
fn no_panic<T>(f: impl FnOnce() -> Result<T, DbFault>) -> Result<T, DbFault> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    r.unwrap_or_else(|_| Err(DbFault::Unreadable))
}

/// redb's file backend with every read checked against the file's length before anything is
/// allocated: a damaged header can name a read of terabytes, which would abort the process on
/// allocation (found by the `db` fuzz target) instead of failing; redb then reports an error.
#[derive(Debug)]
struct BoundedFile(redb::backends::FileBackend);

impl redb::StorageBackend for BoundedFile {
    fn len(&self) -> std::io::Result<u64> {
        self.0.len()
    }

    fn read(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        let size = self.0.len()?;
        match offset.checked_add(len as u64) {
            Some(end) if end <= size => self.0.read(offset, len),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "a read past the end of the database file",
            )),
        }
    }

    fn set_len(&self, len: u64) -> std::io::Result<()> {
        self.0.set_len(len)
    }

    fn sync_data(&self, eventual: bool) -> std::io::Result<()> {
        self.0.sync_data(eventual)
    }

    fn write(&self, offset: u64, data: &[u8]) -> std::io::Result<()> {
        self.0.write(offset, data)
    }
}

/// Opens or creates the file at `path` as a redb database on a [`BoundedFile`].
fn create_bounded(path: &Path) -> Result<Database, DbFault> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let backend = redb::backends::FileBackend::new(file)?;
    Ok(redb::Builder::new().create_with_backend(BoundedFile(backend))?)
}

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

/// Where the records live.
enum Store {
    /// An embedded redb file (the default).
    Redb(Database),
    /// A PostgreSQL server ([`super::pg`]).
    #[cfg(feature = "postgres")]
    Postgres(Box<super::pg::PgStore>),
}

/// Whether `--db` names a PostgreSQL server (`postgres://…` or `postgresql://…`) rather than
/// a file.
pub fn is_server_url(path: &Path) -> bool {
    let s = path.to_string_lossy();
    s.starts_with("postgres://") || s.starts_with("postgresql://")
}

/// The database, shared by the solver's threads.
pub struct SolvedDb {
    db: Store,
    pending: Mutex<HashMap<Vec<u8>, Vec<u8>>>,
    /// When the buffer was last committed, and how often to commit during a solve.
    last_flush: Mutex<Instant>,
    flush_every: Duration,
    /// Most stones of a stored position.
    pub max_stones: usize,
    /// Records that failed their checksum when the file was opened (ignored).
    pub bad_records: u64,
    /// Records of format 1 (table `solved`, no checksum) in the file: not used.
    pub legacy_records: u64,
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
    ///
    /// The file's integrity is checked and every record read once: a file the database
    /// library cannot read is an error; records that fail their checksum are counted in
    /// [`SolvedDb::bad_records`] and ignored by [`SolvedDb::get`].
    pub fn open(path: &Path, max_stones: usize) -> Result<SolvedDb, DbError> {
        if is_server_url(path) {
            return Self::open_server(path, max_stones);
        }
        let (db, bad_records, legacy_records) = no_panic(|| {
            let mut db = create_bounded(path)?;
            if !db.check_integrity()? {
                return Err(DbFault::Damaged);
            }
            let tx = db.begin_write()?;
            tx.open_table(SOLVED)?;
            tx.commit()?;
            let tx = db.begin_read()?;
            let t = tx.open_table(SOLVED)?;
            let mut bad = 0;
            for entry in t.iter()? {
                let (k, v) = entry?;
                if unseal(k.value(), v.value()).is_none() {
                    bad += 1;
                }
            }
            drop(t);
            let legacy = tx.open_table(LEGACY).ok().and_then(|t| t.len().ok());
            drop(tx);
            Ok((db, bad, legacy.unwrap_or(0)))
        })
        .map_err(|source| DbError::Open {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(SolvedDb {
            db: Store::Redb(db),
            pending: Mutex::new(HashMap::new()),
            last_flush: Mutex::new(Instant::now()),
            flush_every: FLUSH_EVERY,
            max_stones,
            bad_records,
            legacy_records,
        })
    }

    /// Connects to the PostgreSQL server at `url` (see [`super::pg`]); every record is read
    /// once to count the ones that fail their checksum.
    fn open_server(url: &Path, max_stones: usize) -> Result<SolvedDb, DbError> {
        let fail = |source| DbError::Open {
            path: url.to_path_buf(),
            source,
        };
        #[cfg(feature = "postgres")]
        {
            let pg = super::pg::PgStore::connect(&url.to_string_lossy()).map_err(fail)?;
            // Read every record once (to count bad ones); a restart right after the connection
            // is retried as the connection is.
            let start = Instant::now();
            let all = loop {
                match pg.all() {
                    Ok(all) => break all,
                    Err(e) if start.elapsed() >= super::pg::WRITE_RETRY => return Err(fail(e)),
                    Err(_) => std::thread::sleep(Duration::from_millis(500)),
                }
            };
            let bad = all.iter().filter(|(k, v)| unseal(k, v).is_none()).count() as u64;
            Ok(SolvedDb {
                db: Store::Postgres(Box::new(pg)),
                pending: Mutex::new(HashMap::new()),
                last_flush: Mutex::new(Instant::now()),
                flush_every: FLUSH_EVERY,
                max_stones,
                bad_records: bad,
                legacy_records: 0,
            })
        }
        #[cfg(not(feature = "postgres"))]
        {
            let _ = max_stones;
            Err(fail(DbFault::NoServerSupport))
        }
    }

    /// The record of canonical `key` on `board`, if stored.
    pub fn get(&self, board: &Board, key: &Key) -> Option<Solved> {
        let k = key_bytes(board, key);
        if let Some(v) = self.pending.lock().ok()?.get(&k) {
            return decode(unseal(&k, v)?);
        }
        let v = match &self.db {
            Store::Redb(db) => {
                let tx = db.begin_read().ok()?;
                let t = tx.open_table(SOLVED).ok()?;
                let v = t.get(k.as_slice()).ok()??;
                v.value().to_vec()
            }
            #[cfg(feature = "postgres")]
            Store::Postgres(pg) => pg.get(&k)?,
        };
        // A record that fails its checksum is ignored: the position is searched instead.
        decode(unseal(&k, &v)?)
    }

    /// Buffers the result of canonical `key` (written by [`SolvedDb::flush`]). When the last
    /// commit is older than the flush interval ([`FLUSH_EVERY`]), commits the buffer now: a
    /// solve killed mid-search then loses at most that interval's records. A failed commit
    /// keeps nothing from the search (a PostgreSQL store keeps the records buffered for the
    /// next flush); it is reported and the search goes on.
    pub fn put(&self, board: &Board, key: &Key, s: Solved) {
        let mut v = vec![s.to_move_wins as u8];
        if let Some(c) = s.best {
            v.extend_from_slice(&(c.index() as u16).to_le_bytes());
        }
        if let Ok(mut p) = self.pending.lock() {
            let k = key_bytes(board, key);
            let sealed = seal(&k, &v);
            p.insert(k, sealed);
        }
        let due = match self.last_flush.lock() {
            Ok(mut t) if t.elapsed() >= self.flush_every => {
                // Claimed by this thread: the others see a fresh time and go on searching.
                *t = Instant::now();
                true
            }
            _ => false,
        };
        if due {
            if let Err(e) = self.flush() {
                eprintln!("hexproof: {e}");
            }
        }
    }

    /// Sets how often [`SolvedDb::put`] commits during a solve (default [`FLUSH_EVERY`]).
    pub fn set_flush_every(&mut self, every: Duration) {
        self.flush_every = every;
    }

    /// Commits the buffered records.
    pub fn flush(&self) -> Result<(), DbError> {
        if let Ok(mut t) = self.last_flush.lock() {
            *t = Instant::now();
        }
        let pending = match self.pending.lock() {
            Ok(mut p) => std::mem::take(&mut *p),
            Err(_) => return Err(DbError::Poisoned),
        };
        if pending.is_empty() {
            return Ok(());
        }
        // One arm without the `postgres` feature.
        #[allow(clippy::infallible_destructuring_match)]
        let db = match &self.db {
            Store::Redb(db) => db,
            #[cfg(feature = "postgres")]
            Store::Postgres(pg) => {
                return pg.put_all(&pending).map_err(|e| {
                    // Kept for the next flush: nothing is lost while the server is away.
                    if let Ok(mut p) = self.pending.lock() {
                        for (k, v) in pending {
                            p.entry(k).or_insert(v);
                        }
                    }
                    DbError::Write(e)
                });
            }
        };
        let write = || -> Result<(), DbFault> {
            let tx = db.begin_write()?;
            {
                let mut t = tx.open_table(SOLVED)?;
                for (k, v) in &pending {
                    t.insert(k.as_slice(), v.as_slice())?;
                }
            }
            Ok(tx.commit()?)
        };
        write().map_err(DbError::Write)
    }

    /// Records stored (committed).
    pub fn len(&self) -> u64 {
        // One arm without the `postgres` feature.
        #[allow(clippy::infallible_destructuring_match)]
        let db = match &self.db {
            Store::Redb(db) => db,
            #[cfg(feature = "postgres")]
            Store::Postgres(pg) => return pg.count(),
        };
        (|| -> Option<u64> {
            let tx = db.begin_read().ok()?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reads_refuse_reads_past_the_end() {
        // A damaged header once made redb allocate 8 TiB for one read and abort (fuzz
        // regression db/oom-8tb-read.redb.gz): such a read is now an error before allocating.
        let path = std::env::temp_dir().join(format!("hexproof-bounded-{}", std::process::id()));
        std::fs::write(&path, [7u8; 100]).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let b = BoundedFile(redb::backends::FileBackend::new(file).unwrap());
        use redb::StorageBackend;
        assert_eq!(b.read(90, 10).unwrap(), vec![7u8; 10]);
        assert!(b.read(90, 11).is_err());
        assert!(b.read(0, 1 << 43).is_err());
        assert!(b.read(u64::MAX, 2).is_err());
        drop(b);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn puts_commit_once_the_flush_interval_has_passed() {
        let path = std::env::temp_dir().join(format!("hexproof-flush-{}.redb", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut db = SolvedDb::open(&path, 4).unwrap();
        let board = Board::new(3, 3).unwrap();
        let key = |i: usize| {
            let mut black = crate::board::CellSet::EMPTY;
            black.insert(Cell::from_index(i));
            Key {
                black,
                white: crate::board::CellSet::EMPTY,
                to_move: crate::board::Colour::White,
            }
        };
        let won = Solved {
            to_move_wins: true,
            best: None,
        };
        // The default interval: nothing committed by a put.
        db.put(&board, &key(0), won);
        assert_eq!(db.len(), 0);
        assert!(
            db.get(&board, &key(0)).is_some(),
            "buffered records are read"
        );
        // An interval of zero: every put commits (what a put after 30 s does).
        db.set_flush_every(Duration::ZERO);
        db.put(&board, &key(1), won);
        assert_eq!(db.len(), 2);
        db.set_flush_every(Duration::from_secs(3600));
        db.put(&board, &key(2), won);
        assert_eq!(db.len(), 2);
        db.flush().unwrap();
        assert_eq!(db.len(), 3);
        drop(db);
        let db = SolvedDb::open(&path, 4).unwrap();
        assert_eq!(db.len(), 3);
        assert!(db.get(&board, &key(2)).is_some());
        drop(db);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn checksums_catch_edits() {
        // Issue 24 item 7: a flipped winner, a changed move or a truncated value fails.
        let key = b"\x07\x07\x00B\x01\x00W";
        let v = seal(key, &[1, 5, 0]);
        assert_eq!(unseal(key, &v), Some(&[1u8, 5, 0][..]));
        for i in 0..v.len() {
            let mut w = v.clone();
            w[i] ^= 1;
            assert_eq!(unseal(key, &w), None, "byte {i}");
        }
        assert_eq!(unseal(key, &v[..v.len() - 1]), None);
        assert_eq!(unseal(key, &[1]), None);
        assert_eq!(unseal(b"other", &v), None);
    }
}
