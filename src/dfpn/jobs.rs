//! The openings of a board as independent jobs (`hexproof solve --openings all --shard i/n
//! --out DIR`) and their combination (`hexproof solve --combine DIR`), for a cluster
//! scheduler (docs/cluster.md).
//!
//! **Jobs.** The openings to search ([`super::openings::search_order`]: one of each 180°
//! pair, long searches first) are dealt round-robin to `n` shards, so every shard gets a mix
//! of long and short ones. A job solves the openings of its shard one by one, each alone
//! (no table shared with the other openings, one thread), so an opening's answer and node
//! count do not depend on which shard or machine solved it: a duplicate job writes the same
//! answer. Each answer goes to its own file `opening-<cell>.json`, written to a hidden
//! temporary file in the same folder and renamed over the target ([`write_atomic`]), so a job
//! killed mid-write leaves at most a temporary file (`.opening-…tmp…`), never a torn result.
//! A job skips an opening whose result file exists, is valid and decided: re-running a job
//! (after a kill, or twice) only solves what is missing.
//!
//! **Result file.** One JSON object ([`OpeningRecord`]): a format tag, the board, the
//! opening, the winner, White's winning move (White is to move after the opening), nodes,
//! CPU and wall microseconds, the shard that wrote it, the solver settings and the hexproof
//! version, and `fnv64`, a 64-bit FNV-1a hash (hex) of a fixed seed and the record's
//! canonical serialisation without the hash ([`OpeningRecord::checksum`]). Integers only (no
//! floats), so the canonical form survives a parse and re-serialisation exactly.
//!
//! **Combination** ([`combine`]) reads every `*.json` file of the folders given and rejects
//! (never repairs) a file that is not a record, fails its checksum, is of another board,
//! names an opening off the board, has a file name that disagrees with its opening, or whose
//! winning move is impossible (off the board, on the opening stone, or present for a Black
//! win / absent for a White win). Two records of one opening, or of an opening and its 180°
//! image, must agree on the winner (conflicting duplicates are rejected). Every opening of
//! the board must be covered by its own record or its image's; the missing ones are named
//! with the shard that should have produced them. What the combiner cannot re-check is the
//! winner itself: it is as trusted as the one-process `solve --openings all` (the same solver,
//! one opening at a time); `--emit-proof` on an opening gives a checked proof when one is
//! wanted.

use super::openings::search_order;
use super::{solve, SolveError, SolveParams, Winner};
use crate::board::{Board, Cell, Colour, Notation, Transform};
use crate::position::Position;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The format tag of a result file.
pub const FORMAT: &str = "hexproof-opening-result v1";

/// Seed of the record checksum (fixed: part of the file format).
const CHECKSUM_SEED: &[u8] = b"hexproof opening-result v1\n";

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1 ..= count.
    pub index: usize,
    /// At least 1.
    pub count: usize,
}

impl Shard {
    /// The whole job as one shard.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `i/n` with 1 ≤ i ≤ n.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{s}': expected i/n with 1 <= i <= n (e.g. 3/8)");
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard (1-based) of the opening at `position` in the search order.
    pub fn of(position: usize, count: usize) -> usize {
        position % count.max(1) + 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The openings of `shard`, in search order (round-robin over [`search_order`]).
pub fn shard_openings(board: &Board, rotation: bool, shard: Shard) -> Vec<Cell> {
    job_openings(board, rotation, shard, None)
}

/// The openings of `shard` out of `only` (in its order) when given, else out of every
/// opening in [`search_order`]: a sweep can take the cheap openings first (8×8: Henderson et
/// al. 2009's hardest opening took 1,500× the interior nodes of its easiest).
pub fn job_openings(
    board: &Board,
    rotation: bool,
    shard: Shard,
    only: Option<&[Cell]>,
) -> Vec<Cell> {
    let all = match only {
        Some(cells) => cells.to_vec(),
        None => search_order(board, rotation),
    };
    all.into_iter()
        .enumerate()
        .filter(|(k, _)| Shard::of(*k, shard.count) == shard.index)
        .map(|(_, c)| c)
        .collect()
}

/// One opening's result file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// [`FORMAT`].
    pub format: String,
    /// `COLSxROWS`.
    pub board: String,
    /// Black's first move (letters notation).
    pub opening: String,
    /// `black`, `white` or `undecided` (White is to move).
    pub winner: String,
    /// White's winning move when White wins.
    pub winning_move: Option<String>,
    /// Nodes of the search.
    pub nodes: u64,
    /// CPU microseconds of the search.
    pub cpu_micros: u64,
    /// Wall microseconds of the search.
    pub wall_micros: u64,
    /// The shard that wrote it (`i/n`).
    pub shard: String,
    /// The solver settings that matter for the answer (budget, features).
    pub settings: String,
    /// The hexproof version that wrote it.
    pub version: String,
    /// FNV-1a 64 (hex) of the seed and the record without this field ([`Self::checksum`]).
    #[serde(default)]
    pub fnv64: String,
}

crate::sealed_record!(OpeningRecord, FORMAT, CHECKSUM_SEED);

impl OpeningRecord {
    /// The checksum of the record's other fields (their canonical JSON).
    pub fn checksum(&self) -> String {
        self.computed_checksum()
    }

    /// The record sealed with its checksum.
    pub fn sealed(mut self) -> OpeningRecord {
        self.fnv64 = self.checksum();
        self
    }

    /// The file text (pretty JSON and a newline).
    pub fn to_text(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a record serialises");
        s.push('\n');
        s
    }

    /// The winner as a [`Winner`].
    pub fn winner(&self) -> Option<Winner> {
        match self.winner.as_str() {
            "black" => Some(Winner::Black),
            "white" => Some(Winner::White),
            "undecided" => Some(Winner::Undecided),
            _ => None,
        }
    }
}

/// The checksum of a result record: FNV-1a 64 (16 hex digits) of `seed` and `body`'s compact
/// JSON. `body` must hold integers and strings only (no floats), so that the text survives a
/// parse and re-serialisation exactly; the caller blanks the checksum field first. Shared by
/// every kind of job result file (openings here, template shards in `templates generate
/// --shard`), each with its own seed.
pub fn checksum_of<T: Serialize>(seed: &[u8], body: &T) -> String {
    let text = serde_json::to_string(body).expect("a record serialises");
    let mut bytes = seed.to_vec();
    bytes.extend_from_slice(text.as_bytes());
    format!("{:016x}", crate::templates::library::fnv64(&bytes))
}

/// The file name of an opening's result.
pub fn file_name(board: &Board, cell: Cell) -> String {
    format!("opening-{}.json", board.cell_name(cell, Notation::Letters))
}

/// The board as written in a record.
pub fn board_name(board: &Board) -> String {
    format!("{}x{}", board.cols(), board.rows())
}

fn winner_word(w: Winner) -> &'static str {
    match w {
        Winner::Black => "black",
        Winner::White => "white",
        Winner::Undecided => "undecided",
    }
}

/// Why a job or a combination failed.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The solver refused an opening.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// An opening stone could not be placed.
    #[error(transparent)]
    Position(#[from] crate::position::PositionError),
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What failed.
        #[source]
        source: std::io::Error,
    },
    /// A result file was rejected.
    #[error("{}: rejected: {reason}", path.display())]
    Rejected {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Two results of one opening (or of an opening and its image) disagree.
    #[error("conflicting results for {opening}: {first} says {first_winner}, {second} says {second_winner}", first = first.display(), second = second.display())]
    Conflict {
        /// The opening.
        opening: String,
        /// One file.
        first: PathBuf,
        /// Its winner.
        first_winner: String,
        /// The other file.
        second: PathBuf,
        /// Its winner.
        second_winner: String,
    },
    /// Openings with no result (nor a result of their image).
    #[error("{} opening(s) missing: {}", missing.len(), missing.iter().map(|(c, s)| format!("{c} (shard {s})")).collect::<Vec<_>>().join(", "))]
    Missing {
        /// Each missing opening with the shard that should have written it.
        missing: Vec<(String, String)>,
    },
    /// Frontier sub-positions with no result.
    #[error("{} sub-position(s) missing: {}", missing.len(), missing.iter().map(|(c, s)| format!("'{c}' (shard {s})")).collect::<Vec<_>>().join(", "))]
    MissingLines {
        /// Each missing line with the shard that should have written it.
        missing: Vec<(String, String)>,
    },
    /// No result file at all.
    #[error("no result files (opening-*.json) in {}", dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "))]
    Empty {
        /// The folders read.
        dirs: Vec<PathBuf>,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> JobError + '_ {
    move |source| JobError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `text` to `path` atomically: a hidden temporary file in the same folder, synced,
/// then renamed over `path` (a rename within one file system is atomic on POSIX).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), JobError> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let mut f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    f.write_all(text.as_bytes()).map_err(io(&tmp))?;
    f.sync_all().map_err(io(&tmp))?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// A checksummed record file (an opening result, a template shard): the fields
/// [`read_sealed`] checks before anything else.
pub trait Sealed: serde::de::DeserializeOwned {
    /// The format string a file of this kind must carry.
    const FORMAT: &'static str;
    /// The record's `format` field.
    fn format(&self) -> &str;
    /// The stored `fnv64` field.
    fn stored_checksum(&self) -> &str;
    /// The checksum computed from the record's other fields.
    fn computed_checksum(&self) -> String;
}

/// Implements [`Sealed`] for a record type with `format: String` and `fnv64: String` fields
/// (and `Clone + Serialize`): its checksum is [`checksum_of`] `seed` and the record with
/// `fnv64` blanked. One line per kind of job file (openings, frontier lines, template and
/// check shards) instead of the same impl four times.
#[macro_export]
macro_rules! sealed_record {
    ($t:ty, $format:expr, $seed:expr) => {
        impl $crate::dfpn::jobs::Sealed for $t {
            const FORMAT: &'static str = $format;
            fn format(&self) -> &str {
                &self.format
            }
            fn stored_checksum(&self) -> &str {
                &self.fnv64
            }
            fn computed_checksum(&self) -> String {
                let body = Self {
                    fnv64: String::new(),
                    ..self.clone()
                };
                $crate::dfpn::jobs::checksum_of($seed, &body)
            }
        }
    };
}

/// Reads `path` as a `T` and checks its format and checksum; `what` names the kind of file in
/// the message (`"an opening result file"`).
pub fn read_sealed<T: Sealed>(path: &Path, what: &str) -> Result<T, JobError> {
    let reject = |reason: String| JobError::Rejected {
        path: path.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    let r: T = serde_json::from_str(&text).map_err(|e| reject(format!("not {what} ({e})")))?;
    if r.format() != T::FORMAT {
        return Err(reject(format!(
            "format '{}', expected '{}'",
            r.format(),
            T::FORMAT
        )));
    }
    let sum = r.computed_checksum();
    if r.stored_checksum() != sum {
        return Err(reject(format!(
            "bad checksum (stored '{}', computed {sum}): the file was damaged or edited",
            r.stored_checksum()
        )));
    }
    Ok(r)
}

/// Reads and checks one result file against `board` (format, checksum, board, opening on the
/// board and matching the file name, a possible winning move). Returns the opening's cell.
pub fn read_record(path: &Path, board: &Board) -> Result<(Cell, OpeningRecord), JobError> {
    let reject = |reason: String| JobError::Rejected {
        path: path.to_path_buf(),
        reason,
    };
    let r: OpeningRecord = read_sealed(path, "an opening result file")?;
    if r.board != board_name(board) {
        return Err(reject(format!(
            "board {}, expected {} (use --board)",
            r.board,
            board_name(board)
        )));
    }
    let cell = board
        .parse_cell(&r.opening, Notation::Letters)
        .ok()
        .filter(|c| c.as_border().is_none())
        .ok_or_else(|| {
            reject(format!(
                "opening '{}' is not a cell of the board",
                r.opening
            ))
        })?;
    let fname = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if fname.starts_with("opening-") && fname != file_name(board, cell) {
        return Err(reject(format!(
            "it holds opening {} but is named {fname}",
            r.opening
        )));
    }
    let winner = r
        .winner()
        .ok_or_else(|| reject(format!("winner '{}'", r.winner)))?;
    match (&r.winning_move, winner) {
        (Some(m), Winner::White) => {
            let mv = board
                .parse_cell(m, Notation::Letters)
                .ok()
                .filter(|c| c.as_border().is_none())
                .ok_or_else(|| reject(format!("winning move '{m}' is not a cell")))?;
            if mv == cell {
                return Err(reject(format!("winning move {m} is on the opening stone")));
            }
        }
        (None, Winner::Black | Winner::Undecided) => {}
        (Some(m), _) => {
            return Err(reject(format!(
                "winning move {m} for White, but the winner is {}",
                r.winner
            )))
        }
        (None, Winner::White) => {
            return Err(reject("White wins but no winning move".into()));
        }
    }
    Ok((cell, r))
}

/// What [`run_shard`] did with one opening.
#[derive(Clone, Debug)]
pub struct JobLine {
    /// The opening.
    pub cell: Cell,
    /// Its record (read or written).
    pub record: OpeningRecord,
    /// Whether a valid decided result was there already (nothing solved).
    pub skipped: bool,
    /// A previous file that was replaced, and why (damaged, undecided).
    pub replaced: Option<String>,
}

/// Solves the openings of `shard` one at a time (see the module doc), writing each result to
/// `out` (created if missing); `only`: the openings to take, in that order (default: all, in
/// [`search_order`]). `settings` is recorded in every file; `cpu_time` reads the thread's CPU
/// clock; `on_line` is called after each opening.
#[allow(clippy::too_many_arguments)]
pub fn run_shard(
    board: Board,
    params: &SolveParams,
    shard: Shard,
    only: Option<&[Cell]>,
    out: &Path,
    settings: &str,
    cpu_time: fn() -> std::time::Duration,
    mut on_line: impl FnMut(&JobLine),
) -> Result<Vec<JobLine>, JobError> {
    std::fs::create_dir_all(out).map_err(io(out))?;
    let params = SolveParams {
        shared: None,
        threads: 1,
        ..params.clone()
    };
    let mut lines = Vec::new();
    for cell in job_openings(&board, params.features.rotation, shard, only) {
        let path = out.join(file_name(&board, cell));
        let mut replaced = None;
        if path.exists() {
            match read_record(&path, &board) {
                Ok((c, record)) if c == cell && record.winner() != Some(Winner::Undecided) => {
                    let line = JobLine {
                        cell,
                        record,
                        skipped: true,
                        replaced: None,
                    };
                    on_line(&line);
                    lines.push(line);
                    continue;
                }
                Ok(_) => replaced = Some("undecided before".to_string()),
                Err(e) => replaced = Some(e.to_string()),
            }
        }
        let mut p = Position::empty(board);
        p.play(Colour::Black, cell)?;
        let cpu0 = cpu_time();
        let o = solve(&p, Colour::White, &params)?;
        let cpu = cpu_time().saturating_sub(cpu0);
        let record = OpeningRecord {
            format: FORMAT.into(),
            board: board_name(&board),
            opening: board.cell_name(cell, Notation::Letters),
            winner: winner_word(o.winner).into(),
            winning_move: o
                .winning_move
                .filter(|_| o.winner == Winner::White)
                .map(|m| board.cell_name(m, Notation::Letters)),
            nodes: o.nodes,
            cpu_micros: cpu.as_micros() as u64,
            wall_micros: o.micros,
            shard: shard.to_string(),
            settings: settings.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            fnv64: String::new(),
        }
        .sealed();
        write_atomic(&path, &record.to_text())?;
        let line = JobLine {
            cell,
            record,
            skipped: false,
            replaced,
        };
        on_line(&line);
        lines.push(line);
    }
    Ok(lines)
}

/// One opening of the combined table.
#[derive(Clone, Debug)]
pub struct Combined {
    /// The opening.
    pub cell: Cell,
    /// The winner (White to move after the opening).
    pub winner: Winner,
    /// White's winning move (rotated when read off the image).
    pub winning_move: Option<Cell>,
    /// Whether read off the 180° image's record.
    pub by_rotation: bool,
    /// The record it comes from (the image's when `by_rotation`).
    pub record: OpeningRecord,
}

/// The result of [`combine`].
#[derive(Clone, Debug)]
pub struct Combination {
    /// One per cell, in board order.
    pub openings: Vec<Combined>,
    /// Result files read.
    pub files: usize,
    /// Leftover temporary files (killed jobs) ignored.
    pub temp_files: usize,
    /// Distinct `settings` strings among the records (more than one: mixed runs).
    pub settings: Vec<String>,
}

/// Reads every result file in `dirs` and assembles the table of `board` (see the module
/// doc for what is checked). The first problem found is the error.
pub fn combine(board: &Board, dirs: &[PathBuf]) -> Result<Combination, JobError> {
    let mut records: Vec<(Cell, OpeningRecord, PathBuf)> = Vec::new();
    let mut temp_files = 0;
    for dir in dirs {
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io(dir))?
            .map(|e| e.map(|e| e.path()).map_err(io(dir)))
            .collect::<Result<_, _>>()?;
        names.sort();
        for path in names {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name.starts_with('.') {
                temp_files += usize::from(name.contains(".tmp-"));
                continue;
            }
            if !name.ends_with(".json") || !path.is_file() {
                continue;
            }
            let (cell, r) = read_record(&path, board)?;
            records.push((cell, r, path));
        }
    }
    if records.is_empty() {
        return Err(JobError::Empty {
            dirs: dirs.to_vec(),
        });
    }
    let rot = Transform::rotate180(board);
    let image = |c: Cell| {
        rot.apply(c, board)
            .expect("a rotation maps the board onto itself")
    };
    let name = |c: Cell| board.cell_name(c, Notation::Letters);
    // Conflicts: the same opening or its image with another winner (undecided agrees with all).
    for (i, (c1, r1, p1)) in records.iter().enumerate() {
        for (c2, r2, p2) in &records[i + 1..] {
            let decided = r1.winner != "undecided" && r2.winner != "undecided";
            if (*c2 == *c1 || *c2 == image(*c1)) && decided && r1.winner != r2.winner {
                return Err(JobError::Conflict {
                    opening: name(*c1),
                    first: p1.clone(),
                    first_winner: r1.winner.clone(),
                    second: p2.clone(),
                    second_winner: r2.winner.clone(),
                });
            }
        }
    }
    // The record for each cell: its own (decided first), else its image's.
    let pick = |c: Cell| {
        let own = records.iter().filter(|(rc, _, _)| *rc == c);
        own.clone()
            .find(|(_, r, _)| r.winner != "undecided")
            .or_else(|| own.clone().next())
    };
    let shard_count = records
        .iter()
        .filter_map(|(_, r, _)| Shard::parse(&r.shard).ok())
        .map(|s| s.count)
        .max()
        .unwrap_or(1);
    let rotation_order = search_order(board, true);
    let mut openings = Vec::new();
    let mut missing = Vec::new();
    for cell in board.cells().iter() {
        let (found, by_rotation) = match pick(cell) {
            Some(f) => (Some(f), false),
            None => (pick(image(cell)), true),
        };
        let Some((_, r, _)) = found else {
            let k = rotation_order
                .iter()
                .position(|&c| c == cell || c == image(cell))
                .unwrap_or(0);
            missing.push((
                name(cell),
                Shard {
                    index: Shard::of(k, shard_count),
                    count: shard_count,
                }
                .to_string(),
            ));
            continue;
        };
        let winner = r.winner().unwrap_or(Winner::Undecided);
        let mv = r
            .winning_move
            .as_deref()
            .and_then(|m| board.parse_cell(m, Notation::Letters).ok());
        openings.push(Combined {
            cell,
            winner,
            winning_move: if by_rotation { mv.map(image) } else { mv },
            by_rotation,
            record: r.clone(),
        });
    }
    if !missing.is_empty() {
        return Err(JobError::Missing { missing });
    }
    let mut settings: Vec<String> = records.iter().map(|(_, r, _)| r.settings.clone()).collect();
    settings.sort();
    settings.dedup();
    Ok(Combination {
        openings,
        files: records.len(),
        temp_files,
        settings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_search_order() {
        let board = Board::new(5, 5).unwrap();
        let all = search_order(&board, true);
        let mut seen = Vec::new();
        for i in 1..=4 {
            seen.extend(shard_openings(&board, true, Shard { index: i, count: 4 }));
        }
        seen.sort_by_key(|c| c.index());
        let mut want = all.clone();
        want.sort_by_key(|c| c.index());
        assert_eq!(seen, want);
        assert_eq!(shard_openings(&board, true, Shard::ALL), all);
    }

    #[test]
    fn shard_parsing() {
        assert_eq!(Shard::parse("2/5"), Ok(Shard { index: 2, count: 5 }));
        for bad in ["0/3", "4/3", "1/0", "x", "1/", "/2", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_record_survives_its_text_and_an_edit_breaks_its_checksum() {
        let r = OpeningRecord {
            format: FORMAT.into(),
            board: "4x4".into(),
            opening: "b2".into(),
            winner: "white".into(),
            winning_move: Some("c3".into()),
            nodes: 12,
            cpu_micros: 345,
            wall_micros: 678,
            shard: "1/2".into(),
            settings: "s".into(),
            version: "v".into(),
            fnv64: String::new(),
        }
        .sealed();
        let back: OpeningRecord = serde_json::from_str(&r.to_text()).unwrap();
        assert_eq!(back.checksum(), back.fnv64);
        let edited = OpeningRecord {
            winner: "black".into(),
            ..back
        };
        assert_ne!(edited.checksum(), edited.fnv64);
    }
}
