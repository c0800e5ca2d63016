//! `hexproof certificate check FILE`: the kernel re-checks a certificate file on its own.
//!
//! Like a DRAT checker beside a SAT solver: nothing of the search that wrote the file is
//! trusted or run. The file states the game (board, stones, carrier, claim) and the strategy;
//! the game is rebuilt with the same validation as `verify`'s input, the strategy is read node
//! by node, and [`hexproof::kernel::check`] alone says whether it proves the claim. A
//! template library file (`templates/rowK.json`) is checked record by record with
//! [`verify_record`] (its form, digest and kernel certificate).

use super::{print_json, EXIT_BAD_INPUT, EXIT_FAILS, EXIT_HOLDS};
use clap::{Args, Subcommand};
use hexproof::board::{Board, Cell, CellSet, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::kernel::{self, Certificate, Node, NodeKind, Reply};
use hexproof::position::Position;
use hexproof::templates::library::{parse_library_file, verify_record};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The `format` field of a certificate file written by `verify --certificate`.
pub const FORMAT: &str = "hexproof-certificate";
/// Its version.
pub const VERSION: u64 = 1;

/// The largest certificate file read (bytes).
const MAX_FILE_BYTES: u64 = 1 << 30;

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
        Err(e) => (EXIT_BAD_INPUT, None, Some(e)),
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

fn read(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{} bytes; at most {MAX_FILE_BYTES} are read",
            meta.len()
        ));
    }
    std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))
}

fn check_text(path: &Path, text: &str) -> Result<Report, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if v.get("templates").is_some() {
        return check_library(path, text);
    }
    match v.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        Some(f) => return Err(format!("format {f:?} is not {FORMAT:?}")),
        None => {
            return Err(format!(
                "no \"format\": not a certificate written by `verify --certificate` (version {VERSION}) nor a template library file"
            ))
        }
    }
    if v.get("version").and_then(Value::as_u64) != Some(VERSION) {
        return Err(format!("version {} is not {VERSION}", v["version"]));
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
fn check_library(path: &Path, text: &str) -> Result<Report, String> {
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

fn str_field<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("\"{key}\" is missing or not a string"))
}

fn list<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    v.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("\"{key}\" is missing or not a list"))
}

/// The game and the strategy of a certificate file.
fn read_certificate(v: &Value) -> Result<(SubGame, Certificate, Notation), String> {
    let board = Board::parse(str_field(v, "board")?).map_err(|e| e.to_string())?;
    let notation = super::parse_notation(str_field(v, "notation")?)?;
    let owner = super::parse_colour(str_field(v, "owner")?)?;
    let owner_first = v
        .get("owner_first")
        .and_then(Value::as_bool)
        .ok_or("\"owner_first\" is missing or not true/false")?;
    let cell = |x: &Value| -> Result<Cell, String> {
        let name = x
            .as_str()
            .ok_or_else(|| format!("{x} is not a cell name"))?;
        board.parse_cell(name, notation).map_err(|e| e.to_string())
    };
    let cells = |x: &Value, what: &str| -> Result<CellSet, String> {
        let items = x
            .as_array()
            .ok_or_else(|| format!("{what} is not a list of cells"))?;
        let mut set = CellSet::EMPTY;
        for c in items {
            let c = cell(c)?;
            if c.is_border() || !set.insert(c) {
                return Err(format!(
                    "{what}: {} is a border or listed twice",
                    board.cell_name(c, notation)
                ));
            }
        }
        Ok(set)
    };
    let names = |key: &str| -> Result<String, String> {
        Ok(list(v, key)?
            .iter()
            .map(|c| c.as_str().unwrap_or("?").to_string())
            .collect::<Vec<_>>()
            .join(" "))
    };
    let position = Position::from_names(board, &names("black")?, &names("white")?, notation)
        .map_err(|e| e.to_string())?;
    let carrier = cells(&v["carrier"], "\"carrier\"")?;
    let claim = Claim::parse(&board, str_field(v, "claim")?, owner, owner_first, notation)
        .map_err(|e| e.to_string())?;
    let game = SubGame::new(position, carrier, claim).map_err(|e| e.to_string())?;
    let id = |x: &Value| -> Result<u32, String> {
        x.as_u64()
            .and_then(|i| u32::try_from(i).ok())
            .ok_or_else(|| format!("{x} is not a node number"))
    };
    let mut nodes = Vec::new();
    for (i, n) in list(v, "nodes")?.iter().enumerate() {
        let at = |what: &str| format!("node {i}: {what}");
        let goal = match n.get("goal") {
            None | Some(Value::Null) => None,
            Some(g) => match g.as_array().map(Vec::as_slice) {
                Some([a, z]) => Some((cell(a)?, cell(z)?)),
                _ => return Err(at("\"goal\" is not a pair of cells")),
            },
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
                    .collect::<Result<_, String>>()
                    .map_err(|e| at(&e))?,
            ),
            (None, None, Some(Value::Array(cs))) => NodeKind::And(
                cs.iter()
                    .map(id)
                    .collect::<Result<_, String>>()
                    .map_err(|e| at(&e))?,
            ),
            _ => return Err(at("not exactly one of \"joined\": true, \"or\", \"and\"")),
        };
        nodes.push(Node {
            stones: cells(&n["stones"], &at("\"stones\""))?,
            carrier: cells(&n["carrier"], &at("\"carrier\""))?,
            goal,
            kind,
        });
    }
    let first = match v.get("first") {
        None | Some(Value::Null) => None,
        Some(c) => Some(cell(c)?),
    };
    let root = id(v.get("root").unwrap_or(&Value::Null)).map_err(|e| format!("root: {e}"))?;
    Ok((game, Certificate { nodes, first, root }, notation))
}
