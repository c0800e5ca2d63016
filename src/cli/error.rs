//! [`CliError`]: bad input found by a command, after clap has parsed the arguments. Its
//! message is the one line `hexproof: error: …` the binary prints before exiting 2
//! ([`super::fail_input`]).

use hexproof::board::{BoardError, ParseCellError};
use hexproof::claim::ClaimError;
use hexproof::dfpn::db::DbError;
use hexproof::dfpn::openings::OpeningsError;
use hexproof::dfpn::SolveError;
use hexproof::enumerate::EnumerateError;
use hexproof::player::SpecError;
use hexproof::position::{MoveError, PositionError};
use hexproof::templates::TemplateError;
use std::path::PathBuf;

/// Bad input to a command (exit 2). Library errors keep their own messages.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// `--board`.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A cell name.
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    /// `--black`/`--white` stones.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// `--moves`.
    #[error(transparent)]
    Moves(#[from] MoveError),
    /// The claim and carrier.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// A position the solver refuses.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// `--db`.
    #[error(transparent)]
    Db(#[from] DbError),
    /// `solve --openings all`.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// A template library or record.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// `templates generate`.
    #[error(transparent)]
    Enumerate(#[from] EnumerateError),
    /// A `selfplay` variant's settings (the variant as given, and why).
    #[error("variant '{spec}': {source}")]
    Variant {
        /// The settings text.
        spec: String,
        /// What is wrong with it.
        #[source]
        source: SpecError,
    },
    /// A count that is not a non-negative whole number (`flag` without its dashes; the value
    /// cut to 40 characters).
    #[error("--{flag} expects a non-negative whole number, not '{value}'")]
    NotACount {
        /// The flag.
        flag: &'static str,
        /// The value given.
        value: String,
    },
    /// A count of 0 where at least 1 is needed (the flag with its dashes).
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// `--threads` above the limit.
    #[error("--threads {given} is more than the {max} allowed")]
    TooManyThreads {
        /// Threads asked for.
        given: u64,
        /// The most allowed.
        max: u64,
    },
    /// The thread pool could not be started.
    #[error("cannot start {threads} threads: {source}")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// rayon's error.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// More chips of one player than in the game (the flag and the message's tail differ
    /// between `bid` and `bid-game`).
    #[error("{flag} {chips} is more than the {total} chips in the game{tail}")]
    TooManyChips {
        /// `--mine` or `--black-chips`.
        flag: &'static str,
        /// The player's chips.
        chips: u64,
        /// The game's chips.
        total: u64,
        /// `" (--chips)"` or nothing.
        tail: &'static str,
    },
    /// A time budget that is not a positive number of seconds.
    #[error("{flag} {seconds} is not a positive number of seconds")]
    NotPositiveSeconds {
        /// The flag.
        flag: &'static str,
        /// The value given.
        seconds: f64,
    },
    /// A time budget that is negative or not a number.
    #[error("{flag} {seconds} is not a number of seconds")]
    NotSeconds {
        /// The flag.
        flag: &'static str,
        /// The value given.
        seconds: f64,
    },
    /// `--time` of the players, not positive.
    #[error("--time must be positive, not {0}")]
    TimeNotPositive(f64),
    /// `--quick` negative or not a number.
    #[error("--quick {0} must be a number of seconds, 0 or more")]
    Quick(f64),
    /// `--epsilon`, `--top-epsilon` or `--top-pn-ratio` negative or not a number.
    #[error("--epsilon, --top-epsilon or --top-pn-ratio {0}: must be 0 or more")]
    Epsilon(f64),
    /// `--vc-semi-limit` neither a number nor `none`.
    #[error("--vc-semi-limit '{0}': use a number or none")]
    SemiLimit(String),
    /// A flag, or a combination of flags, the command does not accept (the message says what
    /// it expects).
    #[error("{0}")]
    Usage(&'static str),
    /// `bid --exact` on too many empty cells.
    #[error("--exact enumerates 2^{empty} fillings; at most {max} empty cells are allowed (drop --exact to sample)")]
    ExactTooLarge {
        /// Empty cells of the position.
        empty: usize,
        /// The most `--exact` takes.
        max: usize,
    },
    /// A `templates generate --seed` that does not fit the region.
    #[error("seed {name} does not fit the region {height}x{width}")]
    SeedMisfit {
        /// The seed's name.
        name: String,
        /// The region's height.
        height: i32,
        /// The region's width.
        width: i32,
    },
    /// A `templates generate --seed` that names no HexWiki template of the row.
    #[error("seed {name} is not a HexWiki {kind} template of row {row}")]
    UnknownSeed {
        /// The name given.
        name: String,
        /// `one-stone` or `two-stone`.
        kind: &'static str,
        /// The row.
        row: i32,
    },
    /// `templates generate --out` that is not a plain file stem.
    #[error("--out {0:?} must be a plain file stem")]
    BadStem(String),
    /// The terminal game stopped on an I/O error.
    #[error("bid-game: {0}")]
    Terminal(#[source] std::io::Error),
    /// A directory that cannot be created.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A carrier cell listed twice.
    #[error("carrier cell {0} is listed twice")]
    CarrierRepeated(String),
    /// An output file that exists (without `--force`).
    #[error("{} exists; use --force to replace it, or --dir/--out to write elsewhere", .0.display())]
    Exists(PathBuf),
    /// A file that cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// `--prior-weight` negative or not a number.
    #[error("--prior-weight must be a non-negative number, not {0}")]
    PriorWeight(f64),
    /// A file that cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A file that cannot be opened for appending.
    #[error("cannot open {}: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// `selfplay --opening-range` that is not `START-END` within the openings.
    #[error("--opening-range '{range}': expected START-END with START < END <= {openings}")]
    OpeningRange {
        /// The range as given.
        range: String,
        /// How many openings there are.
        openings: usize,
    },
    /// A line of a `selfplay --log` file.
    #[error("{}:{line}: {problem}", path.display())]
    Log {
        /// The log file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with the line.
        problem: LogProblem,
    },
    /// A name not found (`what` and `place` say where it was looked up; `hint` suggests
    /// close names, or is empty).
    #[error("no {what} called '{name}' in {place}{hint}")]
    UnknownName {
        /// What kind of thing.
        what: String,
        /// The name given.
        name: String,
        /// Where it was looked for.
        place: String,
        /// `; did you mean …?` or names differing only in case, or nothing.
        hint: String,
    },
    /// `render --item` naming no item (`shown`: the first names).
    #[error("no item '{name}' in the file (items: {shown}{})", if *.more { ", …" } else { "" })]
    NoItem {
        /// The name given.
        name: String,
        /// The first twelve item names, comma-separated.
        shown: String,
        /// Whether there are more.
        more: bool,
    },
    /// A colour field that is neither black nor white.
    #[error("'{0}' is not a colour (expected black or white)")]
    Colour(String),
    /// A notation field that is neither letters nor digits.
    #[error("'{0}' is not a notation (expected letters or digits)")]
    Notation(String),
}

/// What is wrong with one line of a `selfplay --log` file.
#[derive(Debug, thiserror::Error)]
pub enum LogProblem {
    /// Not a JSON value.
    #[error("not JSON ({0})")]
    NotJson(#[source] serde_json::Error),
    /// No `black_spec`/`white_spec` (the key's stem).
    #[error("no '{0}_spec'")]
    NoSpec(&'static str),
    /// A player not among this command line's variants.
    #[error("{key} '{spec}' is not a variant given on this command line")]
    UnknownSpec {
        /// `black` or `white`.
        key: &'static str,
        /// The settings text in the log.
        spec: String,
    },
    /// A winner other than black or white.
    #[error("'winner' is not black or white")]
    Winner,
    /// An opening that is not a cell of the board.
    #[error("'opening' is not a cell of this board")]
    Opening,
}
