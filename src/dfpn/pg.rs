//! The solved-position store on a PostgreSQL server (`hexproof solve --db postgres://…`,
//! cargo feature `postgres`), for jobs on many machines sharing one store (docs/cluster.md).
//!
//! Behind the same interface as the embedded redb file ([`super::db::SolvedDb`]): the same
//! keys and the same checksummed values (the seal of [`super::db::checksum`]), in one table
//! `hexproof_solved_v2 (key bytea primary key, value bytea)`. A record is written with
//! `ON CONFLICT DO NOTHING`: every record is an exact result, so two jobs that store one
//! position agree and the first one stays. A lookup that fails (server down or restarting)
//! is a miss, never an answer: the position is searched instead. A write that fails keeps its
//! records buffered and reconnects, retrying for [`WRITE_RETRY`] before it reports the error,
//! so a server restarted mid-run loses nothing.
//!
//! The sync [`postgres`] client (it runs its own small tokio runtime inside) is used because
//! the solver is synchronous; one connection per process, behind a mutex.

use super::db::DbFault;
use postgres::{Client, NoTls};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a write keeps reconnecting before it gives up.
pub const WRITE_RETRY: Duration = Duration::from_secs(60);

const CREATE: &str =
    "CREATE TABLE IF NOT EXISTS hexproof_solved_v2 (key BYTEA PRIMARY KEY, value BYTEA NOT NULL)";

/// A connection to the server (reopened after a failure).
pub struct PgStore {
    url: String,
    client: Mutex<Option<Client>>,
}

impl From<postgres::Error> for DbFault {
    fn from(e: postgres::Error) -> DbFault {
        DbFault::Postgres(Box::new(e))
    }
}

impl PgStore {
    /// Connects to `url` and creates the table if missing. A job can start while the server
    /// restarts (seen in the faults run of session 22: a Slurm task started in the restart's
    /// window failed with "error connecting to server"), so a failed connection is retried
    /// for [`WRITE_RETRY`], as a write is; a server that stays unreachable is reported after it.
    pub fn connect(url: &str) -> Result<PgStore, DbFault> {
        let start = Instant::now();
        let mut warned = false;
        let client = loop {
            let attempt = Client::connect(url, NoTls).and_then(|mut c| {
                c.batch_execute(CREATE)?;
                Ok(c)
            });
            match attempt {
                Ok(c) => break c,
                Err(e) if start.elapsed() >= WRITE_RETRY => return Err(e.into()),
                Err(e) => {
                    // Once, so that a job's log shows that it waited (not an error).
                    if !warned {
                        eprintln!(
                            "store: the PostgreSQL server cannot be reached yet ({e}); retrying for up to {} s",
                            WRITE_RETRY.as_secs()
                        );
                        warned = true;
                    }
                    std::thread::sleep(Duration::from_millis(500))
                }
            }
        };
        Ok(PgStore {
            url: url.to_string(),
            client: Mutex::new(Some(client)),
        })
    }

    /// Runs `f` on the connection, reconnecting once if it fails.
    fn with<T>(
        &self,
        mut f: impl FnMut(&mut Client) -> Result<T, postgres::Error>,
    ) -> Result<T, DbFault> {
        let mut guard = self.client.lock().map_err(|_| DbFault::Unreadable)?;
        let mut last = None;
        for _ in 0..2 {
            if guard.is_none() {
                match Client::connect(&self.url, NoTls) {
                    Ok(mut c) => {
                        c.batch_execute(CREATE)?;
                        *guard = Some(c);
                    }
                    Err(e) => {
                        last = Some(e);
                        continue;
                    }
                }
            }
            let c = guard.as_mut().expect("connected above");
            match f(c) {
                Ok(v) => return Ok(v),
                Err(e) => {
                    // A dropped connection (a restart) is reopened; any error is retried once.
                    *guard = None;
                    last = Some(e);
                }
            }
        }
        Err(last.map_or(DbFault::Unreadable, DbFault::from))
    }

    /// The stored value of `key`, if any (a failure is a miss).
    pub fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.with(|c| {
            c.query_opt(
                "SELECT value FROM hexproof_solved_v2 WHERE key = $1",
                &[&key],
            )
        })
        .ok()
        .flatten()
        .map(|row| row.get::<_, Vec<u8>>(0))
    }

    /// Writes every record of `pending` in one transaction, reconnecting for up to
    /// [`WRITE_RETRY`].
    pub fn put_all(&self, pending: &HashMap<Vec<u8>, Vec<u8>>) -> Result<(), DbFault> {
        let start = Instant::now();
        loop {
            let r = self.with(|c| {
                let mut tx = c.transaction()?;
                let st = tx.prepare(
                    "INSERT INTO hexproof_solved_v2 (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                )?;
                for (k, v) in pending {
                    tx.execute(&st, &[k, v])?;
                }
                tx.commit()
            });
            match r {
                Ok(()) => return Ok(()),
                Err(e) if start.elapsed() >= WRITE_RETRY => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(500)),
            }
        }
    }

    /// Every record (key, value), for the checksum count at opening.
    pub fn all(&self) -> Result<Vec<(Vec<u8>, Vec<u8>)>, DbFault> {
        let rows = self.with(|c| c.query("SELECT key, value FROM hexproof_solved_v2", &[]))?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// Records stored (0 when the server cannot be reached).
    pub fn count(&self) -> u64 {
        self.with(|c| c.query_one("SELECT count(*) FROM hexproof_solved_v2", &[]))
            .map(|r| r.get::<_, i64>(0) as u64)
            .unwrap_or(0)
    }
}
