//! `hexproof verify` and `hexproof minimize`.

use super::args::{choice, exact_choice, not_a_colour, BoardArgs, ColourArg, EngineArg};
use super::{fail_input, print_json, CliError, EXIT_FAILS, EXIT_HOLDS, EXIT_UNDECIDED};
use clap::Args;
use hexproof::board::{CellSet, Colour, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::engine::whole::{decide_engine, Engine, WholeParams};
use hexproof::local::{minimize_with, Budget, Minimality, Outcome, Verdict};
use hexproof::position::Position;
use hexproof::render::ascii::sub_game_diagram;
use serde_json::json;
use std::time::Duration;

/// The position, claim and budget shared by `verify` and `minimize`.
#[derive(Args, Debug)]
pub struct GameArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Black stones, e.g. "d4 e6" (repeatable).
    #[arg(long, value_name = "CELLS")]
    black: Vec<String>,
    /// White stones (repeatable).
    #[arg(long, value_name = "CELLS")]
    white: Vec<String>,
    /// Whose claim it is: the player who must connect.
    #[arg(long = "for", default_value = "black", value_name = "COLOUR", value_parser = choice::<ColourArg>(not_a_colour))]
    owner: ColourArg,
    /// Who moves first in the sub-game. Default: the opponent (a VC or union-connection);
    /// naming the claim's owner asks for a semi-connection.
    #[arg(long, value_parser = choice::<ColourArg>(not_a_colour))]
    first: Option<ColourArg>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Search budget: maximum nodes.
    #[arg(long, default_value_t = 200_000_000)]
    nodes: u64,
    /// Search budget: maximum seconds.
    #[arg(long, default_value_t = 600.0)]
    time: f64,
    /// The claim: pairs of endpoints joined by `-`, alternatives separated by `|`, e.g.
    /// "d4 - b" or "t - d4 | t - b". Endpoints are the owner's stones, the owner's borders
    /// (t b for Black, l r for White) or empty cells outside the carrier.
    #[arg(value_name = "CLAIM")]
    claim: String,
}

/// Decide a claim exactly, with a kernel-checked certificate.
///
/// Examples:
///   hexproof verify --board 7x7 --black d5 --carrier "c5 b6 c6 d6 a7 b7 c7 d7" "d5 - b"
///   hexproof verify --board 5x5 --carrier all --first black "t - b"
///
/// Exit codes: 0 holds, 1 fails (White's refuting line is printed), 2 bad input,
/// 3 undecided (budget exhausted).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct VerifyArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The carrier: the empty cells the sub-game is played in ("all" = every empty cell).
    #[arg(long, value_name = "CELLS")]
    carrier: String,
    /// Write the kernel-checked certificate (the owner's strategy as an AND/OR DAG, cells by
    /// name) to this JSON file when the claim holds.
    #[arg(long, value_name = "FILE")]
    certificate: Option<std::path::PathBuf>,
    /// Which engine decides: `local` (the exact local search), `solver` (the claim encoded as
    /// a whole-board Hex position, decided by the DFPN solver, its win rebuilt as a
    /// certificate that the kernel checks; Black's claims of one group or cell to a border
    /// only) or `auto` (local first, with at most --local-nodes nodes, then the solver on the
    /// rest of the budget when undecided). Whichever engine answers, "holds" means the kernel
    /// accepted a certificate.
    #[arg(long, default_value = "auto", value_name = "ENGINE", value_parser = exact_choice::<EngineArg>(|s| format!("unknown engine {s:?} (expected local, solver or auto)")))]
    engine: EngineArg,
    /// With `--engine auto`: the local search's share of --nodes (the whole budget when the
    /// solver cannot encode the claim). The default is measured (docs/templates.md, "Speed"):
    /// on 18 published templates of 22–37 cells the solver alone took 29.7 s CPU, auto with
    /// 10 k local nodes 29.7 s, 100 k 31.0 s, 300 k 35.8 s, the former default 2 M 58.9 s.
    #[arg(long, default_value_t = 10_000, value_name = "NODES")]
    local_nodes: u64,
    /// The solver's transposition-table entries (`--engine solver|auto`): it proves the root
    /// in it and the certificate is rebuilt from the proof it holds (about 230 bytes an
    /// entry).
    #[arg(long, default_value_t = WholeParams::default().tt_entries, value_name = "N")]
    tt_entries: usize,
}

/// Find a minimal carrier for a claim inside a region, and say whether it is minimum.
///
/// Examples:
///   hexproof minimize --board 7x7 --black d5 --region "b5 c5 e5 a6 b6 c6 d6 e6 a7 b7 c7 d7 e7" "d5 - b"
///   hexproof minimize --board 5x5 --region all --first black "t - b" --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct MinimizeArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The region to search in ("all" = every empty cell).
    #[arg(long, value_name = "CELLS")]
    region: String,
    /// The minimum check tries every carrier one cell smaller than the minimal one found;
    /// skip it when there are more such subsets than this (0 = never check).
    #[arg(long, default_value_t = hexproof::local::MAX_SUBSETS)]
    max_subsets: u64,
}

struct Setup {
    game: SubGame,
    notation: Notation,
    budget: Budget,
    json: bool,
}

fn setup(a: &GameArgs, carrier_text: &str) -> Result<Setup, CliError> {
    let board = a.board.board()?;
    let notation = a.board.notation();
    let owner: Colour = a.owner.into();
    let first = a.first.map_or(owner.opponent(), Colour::from);
    let position = Position::from_names(board, &a.black.join(" "), &a.white.join(" "), notation)?;
    let carrier: CellSet = if carrier_text.trim() == "all" {
        position.empty_cells()
    } else {
        let mut s = CellSet::EMPTY;
        for c in board.parse_cells(carrier_text, notation)? {
            if !s.insert(c) {
                return Err(CliError::CarrierRepeated(board.cell_name(c, notation)));
            }
        }
        s
    };
    let claim = Claim::parse(&board, &a.claim, owner, first == owner, notation)?;
    let game = SubGame::new(position, carrier, claim)?;
    if !a.time.is_finite() || a.time < 0.0 {
        return Err(CliError::NotSeconds {
            flag: "--time",
            seconds: a.time,
        });
    }
    let budget = Budget {
        nodes: a.nodes,
        time: Some(Duration::from_secs_f64(a.time.min(1e9))),
        ..Budget::default()
    };
    Ok(Setup {
        game,
        notation,
        budget,
        json: a.json,
    })
}

fn outcome_json(s: &Setup, o: &Outcome) -> serde_json::Value {
    let b = s.game.board();
    let n = s.notation;
    json!({
        "board": b.to_string(),
        "claim": s.game.claim().display(b, n),
        "colour": s.game.claim().owner,
        "kind": s.game.claim().kind().to_string(),
        "carrier": s.game.carrier().iter().map(|c| b.cell_name(c, n)).collect::<Vec<_>>(),
        "verdict": o.verdict,
        "kernel_accepted": o.verified.is_some(),
        "kernel_error": o.kernel_error.as_ref().map(|e| e.to_string()),
        "first_move": o.certificate.as_ref().and_then(|c| c.first).map(|m| b.cell_name(m, n)),
        "proof_set": o.proof_set.iter().map(|c| b.cell_name(c, n)).collect::<Vec<_>>(),
        "refutation": o.refutation.iter().map(|m| json!({"colour": m.colour, "cell": b.cell_name(m.cell, n)})).collect::<Vec<_>>(),
        "nodes": o.stats.nodes,
        "certificate_nodes": o.stats.certificate_nodes,
        "seconds": o.stats.micros as f64 / 1e6,
    })
}

fn print_outcome(s: &Setup, o: &Outcome) {
    let b = s.game.board();
    let n = s.notation;
    println!("claim:   {} ({} board)", s.game.describe(n), b);
    print!("{}", sub_game_diagram(&s.game, n));
    match o.verdict {
        Verdict::Holds => {
            println!(
                "verdict: HOLDS — certificate of {} nodes accepted by the kernel",
                o.stats.certificate_nodes
            );
            if let Some(m) = o.certificate.as_ref().and_then(|c| c.first) {
                println!(
                    "{}'s winning first move: {}",
                    capitalise(s.game.claim().owner.name()),
                    b.cell_name(m, n)
                );
            }
            println!(
                "proof set: {}: {}",
                super::plural(o.proof_set.len(), "cell"),
                b.set_names(&o.proof_set, n)
            );
        }
        Verdict::Fails => {
            println!("verdict: FAILS");
            let line: Vec<String> = o
                .refutation
                .iter()
                .map(|m| format!("{} {}", m.colour, b.cell_name(m.cell, n)))
                .collect();
            let opp = s.game.claim().owner.opponent();
            if line.is_empty() {
                println!("{opp} wins without moving: no pair can be joined inside the carrier");
            } else {
                println!(
                    "{}'s refuting line: {}",
                    capitalise(opp.name()),
                    line.join(", ")
                );
            }
        }
        Verdict::Undecided => {
            if let Some(e) = &o.kernel_error {
                println!("verdict: UNDECIDED — the kernel rejected the search's certificate ({e}); please report this bug");
            } else {
                println!("verdict: UNDECIDED — the search budget ran out");
            }
        }
    }
    println!(
        "search:  {} nodes, {:.3} ms",
        o.stats.nodes,
        o.stats.micros as f64 / 1000.0
    );
}

/// Which engine answered, for the text report.
fn engine_line(eo: &hexproof::engine::whole::EngineOutcome) -> String {
    match (&eo.decided_by, &eo.whole) {
        (Engine::Solver, Some(w)) => match (&w.not_applicable, &w.failure) {
            (Some(m), _) => format!("solver not applicable ({m})"),
            (None, Some(m)) => format!("solver, {} solver nodes; no certificate: {m}", w.solver_nodes),
            (None, None) => format!(
                "solver (whole-board DFPN on {} empty cells, {} solver nodes, {} derivation leaves, {} leaf searches of {} nodes)",
                w.encoded_empty, w.solver_nodes, w.derived_leaves, w.leaf_searches, w.leaf_nodes
            ),
        },
        _ => "local search".to_string(),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn exit_for(v: Verdict) -> u8 {
    match v {
        Verdict::Holds => EXIT_HOLDS,
        Verdict::Fails => EXIT_FAILS,
        Verdict::Undecided => EXIT_UNDECIDED,
    }
}

/// Runs `hexproof verify`.
pub fn run_verify(a: VerifyArgs) -> u8 {
    let s = match setup(&a.game, &a.carrier) {
        Ok(s) => s,
        Err(e) => return fail_input(&e),
    };
    let engine: Engine = a.engine.into();
    let bar = super::spinner(
        s.json,
        format!(
            "deciding the claim on {}",
            super::plural(s.game.carrier().len(), "carrier cell")
        ),
    );
    let decided = decide_engine(
        &s.game,
        &s.budget,
        engine,
        a.local_nodes,
        &WholeParams {
            tt_entries: a.tt_entries,
            ..WholeParams::default()
        },
    );
    bar.finish_and_clear();
    let eo = match decided {
        Ok(o) => o,
        Err(e) => return fail_input(e),
    };
    let o = &eo.outcome;
    if let (Some(path), Some(cert), Verdict::Holds) = (&a.certificate, &o.certificate, o.verdict) {
        let text = serde_json::to_string_pretty(&certificate_json(&s, cert))
            .expect("JSON values always serialise");
        if let Err(e) = std::fs::write(path, text + "\n") {
            return fail_input(CliError::Write {
                path: path.clone(),
                source: e,
            });
        }
    }
    if s.json {
        let mut v = outcome_json(&s, o);
        v["engine"] = json!(eo.decided_by);
        if let Some(w) = &eo.whole {
            v["solver"] = json!({
                "not_applicable": w.not_applicable,
                "solver_nodes": w.solver_nodes,
                "leaf_searches": w.leaf_searches,
                "leaf_nodes": w.leaf_nodes,
                "encoded_empty_cells": w.encoded_empty,
                "derived_leaves": w.derived_leaves,
                "key_leaves": w.key_leaves,
                "subsumed": w.subsumed,
                "direct_keys": w.direct_keys,
                "failure": w.failure,
            });
        }
        return print_json(v, exit_for(o.verdict));
    } else {
        print_outcome(&s, o);
        println!("engine:  {}", engine_line(&eo));
    }
    exit_for(o.verdict)
}

/// A certificate with cells by name: the game it proves (`format`, `version`, `board`,
/// `notation`, `black`, `white`, `carrier`, `claim`, `owner`, `owner_first`: all that
/// `hexproof certificate check` needs, trusting nothing else) and the strategy
/// `{"first": …, "root": …, "nodes": [{"id", "stones", "carrier", "goal"?, "either"?,
/// "joined" | "or": [{"reply", "next"}] | "and": [ids]}]}`; version 2 when some node has a
/// union goal (`"either"`), 3 when some node has a conjunctive goal (`"with"`), else 1.
fn certificate_json(s: &Setup, cert: &hexproof::kernel::Certificate) -> serde_json::Value {
    use hexproof::kernel::NodeKind;
    let b = s.game.board();
    let n = s.notation;
    let names = |c: &CellSet| c.iter().map(|x| b.cell_name(x, n)).collect::<Vec<_>>();
    let nodes: Vec<serde_json::Value> = cert
        .nodes
        .iter()
        .enumerate()
        .map(|(id, node)| {
            let mut v = json!({
                "id": id,
                "stones": names(&node.stones),
                "carrier": names(&node.carrier),
            });
            if let Some((x, y)) = node.goal {
                v["goal"] = json!([b.cell_name(x, n), b.cell_name(y, n)]);
            }
            if !node.either.is_empty() {
                v["either"] = node
                    .either
                    .iter()
                    .map(|&(x, y)| json!([b.cell_name(x, n), b.cell_name(y, n)]))
                    .collect();
            }
            if !node.with.is_empty() {
                v["with"] = node
                    .with
                    .iter()
                    .map(|w| {
                        w.iter()
                            .map(|&(x, y)| json!([b.cell_name(x, n), b.cell_name(y, n)]))
                            .collect::<serde_json::Value>()
                    })
                    .collect();
            }
            match &node.kind {
                NodeKind::Joined => v["joined"] = json!(true),
                NodeKind::Or(rs) => {
                    v["or"] = rs
                        .iter()
                        .map(|r| json!({"reply": b.cell_name(r.reply, n), "next": r.next}))
                        .collect()
                }
                NodeKind::And(cs) => v["and"] = json!(cs),
            }
            v
        })
        .collect();
    let p = s.game.position();
    json!({
        "format": super::certificate::FORMAT,
        "version": if cert.nodes.iter().any(|x| !x.with.is_empty()) {
            super::certificate::CONJ_VERSION
        } else if cert.nodes.iter().any(|x| !x.either.is_empty()) {
            super::certificate::UNION_VERSION
        } else {
            super::certificate::VERSION
        },
        "board": b.to_string(),
        "notation": if n == Notation::Digits { "digits" } else { "letters" },
        "black": names(&p.stones(Colour::Black)),
        "white": names(&p.stones(Colour::White)),
        "carrier": names(&s.game.carrier()),
        "claim": s.game.claim().display(b, n),
        "owner": s.game.claim().owner,
        "owner_first": s.game.claim().owner_first,
        "first": cert.first.map(|m| b.cell_name(m, n)),
        "root": cert.root,
        "nodes": nodes,
    })
}

/// Runs `hexproof minimize`.
pub fn run_minimize(a: MinimizeArgs) -> u8 {
    let s = match setup(&a.game, &a.region) {
        Ok(s) => s,
        Err(e) => return fail_input(&e),
    };
    let bar = super::spinner(
        s.json,
        format!(
            "minimising {}",
            super::plural(s.game.carrier().len(), "carrier cell")
        ),
    );
    let minimised = minimize_with(&s.game, &s.budget, a.max_subsets);
    bar.finish_and_clear();
    let r = match minimised {
        Ok(r) => r,
        Err(e) => return fail_input(e),
    };
    let b = *s.game.board();
    let n = s.notation;
    let names = |c: &CellSet| c.iter().map(|x| b.cell_name(x, n)).collect::<Vec<_>>();
    let minimality = match r.minimality {
        Minimality::Minimum => "minimum",
        Minimality::MinimalOnly => "minimal, not minimum",
        Minimality::Unknown => "minimal (minimum not decided within budget)",
    };
    let code = match r.region_verdict {
        Verdict::Holds => EXIT_HOLDS,
        v => exit_for(v),
    };
    if s.json {
        return print_json(
            json!({
                "board": b.to_string(),
                "claim": s.game.claim().display(&b, n),
                "region_verdict": r.region_verdict,
                "carrier": r.carrier.as_ref().map(names),
                "size": r.carrier.map(|c| c.len()),
                "minimality": r.minimality,
                "smaller": r.smaller.as_ref().map(names),
                "searches": r.searches,
            }),
            code,
        );
    } else {
        println!("claim:   {} ({} board)", s.game.describe(n), b);
        match r.carrier {
            Some(c) => {
                let g = s
                    .game
                    .with_carrier(c)
                    .expect("a subset of a valid carrier is valid");
                print!("{}", sub_game_diagram(&g, n));
                println!(
                    "carrier: {}: {}",
                    super::plural(c.len(), "cell"),
                    b.set_names(&c, n)
                );
                println!("status:  {minimality}");
                if let Some(sm) = r.smaller {
                    println!(
                        "smaller: {}: {}",
                        super::plural(sm.len(), "cell"),
                        b.set_names(&sm, n)
                    );
                }
                println!("searches: {}", r.searches);
            }
            None if r.region_verdict == Verdict::Undecided => println!(
                "verdict: UNDECIDED — the search budget ran out on the region; nothing to minimise"
            ),
            None => println!(
                "the claim does not hold on the region (verdict: {:?}); nothing to minimise",
                r.region_verdict
            ),
        }
    }
    code
}

#[allow(dead_code)]
fn _colour_unused(_: Colour) {}
