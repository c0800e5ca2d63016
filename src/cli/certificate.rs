//! `hexproof certificate check FILE`: the kernel re-checks a certificate file on its own.
//!
//! Like a DRAT checker beside a SAT solver: nothing of the search that wrote the file is
//! trusted or run. The file states the game (board, stones, carrier, claim) and the strategy;
//! the game is rebuilt with the same validation as `verify`'s input, the strategy is read node
//! by node, and [`hexproof::kernel::check`] alone says whether it proves the claim. A
//! template library file (`templates/rowK.json`) is checked record by record with
//! [`verify_record`] (its form, digest and kernel certificate).

use super::{print_json, CliError, EXIT_BAD_INPUT, EXIT_FAILS, EXIT_HOLDS};
use clap::{Args, Subcommand};
use hexproof::board::{Board, Cell, CellSet, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::kernel::{self, Certificate, Node, NodeKind, Reply};
use hexproof::position::Position;
use hexproof::templates::library::{parse_library_file, verify_record};
use hexproof::templates::TemplateError;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The `format` field of a certificate file written by `verify --certificate`.
pub const FORMAT: &str = "hexproof-certificate";
/// Its version: 1, or [`UNION_VERSION`] for a file with union goals.
pub const VERSION: u64 = 1;
/// The version of a file whose nodes may carry union goals (`"either"`: more pairs besides
/// `"goal"`, kernel condition 6). Version 1 files are read as before; a version 1 file with
/// `"either"` is bad input, so an old reader never mistakes a union for a single pair.
pub const UNION_VERSION: u64 = 2;
/// The version of a file whose nodes may carry conjunctive goals (`"with"`: per pair of
/// `"goal"` then `"either"`, the further pairs to be joined together with it; kernel
/// condition 8). Versions 1 and 2 are read as before; a `"with"` in them is bad input, so an
/// older reader never mistakes a conjunction for its first pair alone.
pub const CONJ_VERSION: u64 = 3;

/// The largest certificate file read (bytes).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// Why a certificate file could not be read (bad input, exit 2).
#[derive(Debug, thiserror::Error)]
enum CertFileError {
    /// The file cannot be read.
    #[error("cannot read: {0}")]
    Read(#[source] std::io::Error),
    /// A directory or device.
    #[error("not a regular file")]
    NotAFile,
    /// Larger than [`MAX_FILE_BYTES`].
    #[error("{0} bytes; at most {MAX_FILE_BYTES} are read")]
    TooLarge(u64),
    /// Not JSON.
    #[error("not JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    /// Another `format`.
    #[error("format {0:?} is not {FORMAT:?}")]
    Format(String),
    /// No `format` (and no `templates`).
    #[error("no \"format\": not a certificate written by `verify --certificate` (version {VERSION}) nor a template library file")]
    NoFormat,
    /// Another `version`.
    #[error("version {0} is not {VERSION}, {UNION_VERSION} or {CONJ_VERSION}")]
    Version(Value),
    /// Union goals in a version 1 file.
    #[error("node {0}: \"either\" (a union goal) needs version {UNION_VERSION}")]
    EitherInV1(usize),
    /// Conjunctive goals in a version 1 or 2 file.
    #[error("node {0}: \"with\" (a conjunctive goal) needs version {CONJ_VERSION}")]
    WithBeforeV3(usize),
    /// A node whose conjunctions are not lists of lists of pairs of cells, or has no `goal`.
    #[error("node {0}: \"with\" is not a list of lists of pairs of cells after a \"goal\"")]
    With(usize),
    /// A node whose union goal is not a list of pairs of cells, or has no `goal`.
    #[error("node {0}: \"either\" is not a list of pairs of cells after a \"goal\"")]
    Either(usize),
    /// A field that should be a string.
    #[error("\"{0}\" is missing or not a string")]
    NotAString(String),
    /// A field that should be a list.
    #[error("\"{0}\" is missing or not a list")]
    NotAList(String),
    /// `owner_first` missing or not a boolean.
    #[error("\"owner_first\" is missing or not true/false")]
    OwnerFirst,
    /// A value that should be a cell name.
    #[error("{0} is not a cell name")]
    NotACellName(Value),
    /// A value that should be a list of cells (`what` names it).
    #[error("{0} is not a list of cells")]
    NotCells(String),
    /// A border, or a cell listed twice, in a list of cells.
    #[error("{what}: {cell} is a border or listed twice")]
    BadCell {
        /// The list.
        what: String,
        /// The cell's name.
        cell: String,
    },
    /// A value that should be a node number.
    #[error("{0} is not a node number")]
    NotANode(Value),
    /// A node whose goal is not two cells.
    #[error("node {0}: \"goal\" is not a pair of cells")]
    Goal(usize),
    /// A node that is not exactly one of joined, or, and.
    #[error("node {0}: not exactly one of \"joined\": true, \"or\", \"and\"")]
    Kind(usize),
    /// An error inside a node's replies or children.
    #[error("node {node}: {source}")]
    Node {
        /// The node's index.
        node: usize,
        /// What is wrong.
        #[source]
        source: Box<CertFileError>,
    },
    /// The root is not a node number.
    #[error("root: {0}")]
    Root(#[source] Box<CertFileError>),
    /// The game's fields (board, notation, owner, stones, claim, carrier, a cell name), read
    /// with the same validation as `verify`'s input.
    #[error(transparent)]
    Game(#[from] CliError),
    /// A template library file.
    #[error(transparent)]
    Library(#[from] TemplateError),
}

/// Re-check certificates with the kernel alone.
///
/// Examples:
///   hexproof verify --board 7x7 --black d5 --carrier "c5 b6 c6 d6 a7 b7 c7 d7" --certificate d5.json "d5 - b"
///   hexproof certificate check d5.json
///   hexproof certificate check templates/row4.json --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct CertificateArgs {
    #[command(subcommand)]
    command: CertificateCommand,
}

#[derive(Subcommand, Debug)]
enum CertificateCommand {
    Check(CheckArgs),
}

/// Check a certificate file with the kernel, trusting nothing else.
///
/// FILE is a certificate written by `verify --certificate` (the game and the strategy) or a
/// template library file (each record's certificate). The claim that the file proves is
/// printed: accepting a certificate says that claim holds, nothing more.
///
/// Examples:
///   hexproof certificate check d5.json
///   hexproof certificate check templates/row4.json --json
///
/// Exit codes: 0 accepted, 1 rejected (the kernel's reason is printed), 2 bad input (not a
/// certificate file, a name that is no cell, …).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct CheckArgs {
    /// The certificate file.
    file: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `hexproof certificate`.
pub fn run_certificate(a: CertificateArgs) -> u8 {
    match a.command {
        CertificateCommand::Check(c) => run_check(c),
    }
}

/// What the check found: the claims (one per certificate) and the first rejection.
struct Report {
    claims: Vec<String>,
    nodes: usize,
    rejected: Option<String>,
}

fn run_check(a: CheckArgs) -> u8 {
    let file = a.file.display().to_string();
    let result = read(&a.file).and_then(|text| check_text(&a.file, &text));
    let (code, report, error) = match result {
        Ok(r) if r.rejected.is_none() => (EXIT_HOLDS, Some(r), None),
        Ok(r) => (EXIT_FAILS, Some(r), None),
        Err(e) => (EXIT_BAD_INPUT, None, Some(e.to_string())),
    };
    if a.json {
        return print_json(
            json!({
                "file": file,
                "verdict": match code { EXIT_HOLDS => "accepted", EXIT_FAILS => "rejected", _ => "bad input" },
                "claims": report.as_ref().map(|r| r.claims.clone()).unwrap_or_default(),
                "certificate_nodes": report.as_ref().map_or(0, |r| r.nodes),
                "reason": report.as_ref().and_then(|r| r.rejected.clone()).or(error.clone()),
                "error": error,
            }),
            code,
        );
    }
    match (&report, &error) {
        (_, Some(e)) => {
            eprintln!("hexproof: error: {file}: {e}");
        }
        (Some(r), None) => {
            for c in &r.claims {
                println!("claim:   {c}");
            }
            match &r.rejected {
                None => println!(
                    "{file}: ACCEPTED — the kernel checked {} certificate nodes",
                    r.nodes
                ),
                Some(why) => println!("{file}: REJECTED — {why}"),
            }
        }
        (None, None) => {}
    }
    code
}

fn read(path: &Path) -> Result<String, CertFileError> {
    let meta = std::fs::metadata(path).map_err(CertFileError::Read)?;
    if !meta.is_file() {
        return Err(CertFileError::NotAFile);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(CertFileError::TooLarge(meta.len()));
    }
    std::fs::read_to_string(path).map_err(CertFileError::Read)
}

fn check_text(path: &Path, text: &str) -> Result<Report, CertFileError> {
    let v: Value = serde_json::from_str(text).map_err(CertFileError::NotJson)?;
    if v.get("templates").is_some() {
        return check_library(path, text);
    }
    match v.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        Some(f) => return Err(CertFileError::Format(f.into())),
        None => return Err(CertFileError::NoFormat),
    }
    if !matches!(
        v.get("version").and_then(Value::as_u64),
        Some(VERSION | UNION_VERSION | CONJ_VERSION)
    ) {
        return Err(CertFileError::Version(v["version"].clone()));
    }
    let (game, cert, notation) = read_certificate(&v)?;
    let claim = format!("{} ({} board)", game.describe(notation), game.board());
    let rejected = kernel::check(&game, &cert)
        .err()
        .map(|e| format!("kernel: {e}"));
    Ok(Report {
        claims: vec![claim],
        nodes: cert.nodes.len(),
        rejected,
    })
}

/// A template library file: every record re-checked by [`verify_record`].
fn check_library(path: &Path, text: &str) -> Result<Report, CertFileError> {
    let (_, f) = parse_library_file(path, text)?;
    let mut report = Report {
        claims: Vec::new(),
        nodes: 0,
        rejected: None,
    };
    for r in &f.templates {
        report.claims.push(format!(
            "template {}: {:?} of its stone to the edge on {} cells",
            r.name,
            r.claim,
            r.size()
        ));
        match verify_record(r) {
            Ok(v) => report.nodes += v.nodes,
            Err(e) => {
                report.rejected.get_or_insert(format!("{}: {e}", r.name));
            }
        }
    }
    Ok(report)
}

fn str_field<'a>(v: &'a Value, key: &str) -> Result<&'a str, CertFileError> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| CertFileError::NotAString(key.into()))
}

fn list<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, CertFileError> {
    v.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| CertFileError::NotAList(key.into()))
}

/// The game and the strategy of a certificate file.
fn read_certificate(v: &Value) -> Result<(SubGame, Certificate, Notation), CertFileError> {
    let board = Board::parse(str_field(v, "board")?).map_err(CliError::from)?;
    let notation = super::parse_notation(str_field(v, "notation")?)?;
    let owner = super::parse_colour(str_field(v, "owner")?)?;
    let owner_first = v
        .get("owner_first")
        .and_then(Value::as_bool)
        .ok_or(CertFileError::OwnerFirst)?;
    let cell = |x: &Value| -> Result<Cell, CertFileError> {
        let name = x
            .as_str()
            .ok_or_else(|| CertFileError::NotACellName(x.clone()))?;
        Ok(board.parse_cell(name, notation).map_err(CliError::from)?)
    };
    let cells = |x: &Value, what: &str| -> Result<CellSet, CertFileError> {
        let items = x
            .as_array()
            .ok_or_else(|| CertFileError::NotCells(what.into()))?;
        let mut set = CellSet::EMPTY;
        for c in items {
            let c = cell(c)?;
            if c.is_border() || !set.insert(c) {
                return Err(CertFileError::BadCell {
                    what: what.into(),
                    cell: board.cell_name(c, notation),
                });
            }
        }
        Ok(set)
    };
    let names = |key: &str| -> Result<String, CertFileError> {
        Ok(list(v, key)?
            .iter()
            .map(|c| c.as_str().unwrap_or("?").to_string())
            .collect::<Vec<_>>()
            .join(" "))
    };
    let position = Position::from_names(board, &names("black")?, &names("white")?, notation)
        .map_err(CliError::from)?;
    let carrier = cells(&v["carrier"], "\"carrier\"")?;
    let claim = Claim::parse(&board, str_field(v, "claim")?, owner, owner_first, notation)
        .map_err(CliError::from)?;
    let game = SubGame::new(position, carrier, claim).map_err(CliError::from)?;
    let id = |x: &Value| -> Result<u32, CertFileError> {
        x.as_u64()
            .and_then(|i| u32::try_from(i).ok())
            .ok_or_else(|| CertFileError::NotANode(x.clone()))
    };
    let version = v.get("version").and_then(Value::as_u64);
    let unions = matches!(version, Some(UNION_VERSION | CONJ_VERSION));
    let conjunctions = version == Some(CONJ_VERSION);
    let mut nodes = Vec::new();
    for (i, n) in list(v, "nodes")?.iter().enumerate() {
        let at = |e: CertFileError| CertFileError::Node {
            node: i,
            source: Box::new(e),
        };
        let goal = match n.get("goal") {
            None | Some(Value::Null) => None,
            Some(g) => match g.as_array().map(Vec::as_slice) {
                Some([a, z]) => Some((cell(a)?, cell(z)?)),
                _ => return Err(CertFileError::Goal(i)),
            },
        };
        let either = match n.get("either") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) if !unions => return Err(CertFileError::EitherInV1(i)),
            Some(_) if goal.is_none() => return Err(CertFileError::Either(i)),
            Some(e) => {
                let pairs = e.as_array().ok_or(CertFileError::Either(i))?;
                let mut out = Vec::with_capacity(pairs.len());
                for p in pairs {
                    match p.as_array().map(Vec::as_slice) {
                        Some([a, z]) => out.push((cell(a)?, cell(z)?)),
                        _ => return Err(CertFileError::Either(i)),
                    }
                }
                out
            }
        };
        let with = match n.get("with") {
            None | Some(Value::Null) => Vec::new(),
            Some(_) if !conjunctions => return Err(CertFileError::WithBeforeV3(i)),
            Some(_) if goal.is_none() => return Err(CertFileError::With(i)),
            Some(w) => {
                let lists = w.as_array().ok_or(CertFileError::With(i))?;
                let mut out = Vec::with_capacity(lists.len());
                for l in lists {
                    let pairs = l.as_array().ok_or(CertFileError::With(i))?;
                    let mut one = Vec::with_capacity(pairs.len());
                    for p in pairs {
                        match p.as_array().map(Vec::as_slice) {
                            Some([a, z]) => one.push((cell(a)?, cell(z)?)),
                            _ => return Err(CertFileError::With(i)),
                        }
                    }
                    out.push(one);
                }
                out
            }
        };
        let kind = match (n.get("joined"), n.get("or"), n.get("and")) {
            (Some(Value::Bool(true)), None, None) => NodeKind::Joined,
            (None, Some(Value::Array(rs)), None) => NodeKind::Or(
                rs.iter()
                    .map(|r| {
                        Ok(Reply {
                            reply: cell(&r["reply"])?,
                            next: id(&r["next"])?,
                        })
                    })
                    .collect::<Result<_, CertFileError>>()
                    .map_err(at)?,
            ),
            (None, None, Some(Value::Array(cs))) => NodeKind::And(
                cs.iter()
                    .map(id)
                    .collect::<Result<_, CertFileError>>()
                    .map_err(at)?,
            ),
            _ => return Err(CertFileError::Kind(i)),
        };
        nodes.push(Node {
            stones: cells(&n["stones"], &format!("node {i}: \"stones\""))?,
            carrier: cells(&n["carrier"], &format!("node {i}: \"carrier\""))?,
            goal,
            either,
            with,
            kind,
        });
    }
    let first = match v.get("first") {
        None | Some(Value::Null) => None,
        Some(c) => Some(cell(c)?),
    };
    let root =
        id(v.get("root").unwrap_or(&Value::Null)).map_err(|e| CertFileError::Root(Box::new(e)))?;
    Ok((game, Certificate { nodes, first, root }, notation))
}
