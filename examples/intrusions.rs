//! Where a template's proof is hard: after an optional prefix of moves, every move of the
//! side to move is decided as its own sub-game, with its own node budget.
//!
//! `cargo run --release --example intrusions -- NAME NODES [w:CELL|b:CELL …]`
//!
//! The template NAME (tests/fixtures/edge-templates-hexwiki.json) is placed on the bottom edge
//! of the smallest board that holds it (as `examples/hexwiki_table.rs` does; Black owns it).
//! With no prefix, White moves first: each White intrusion x gives the claim "Black, moving
//! first, still connects on the carrier minus x". A prefix ending with a White move lists
//! Black's replies (each a VC claim, White to move). Environment: `ONLY=c1,c2` keeps only
//! those moves; `MIN=N` consults the VC-engine oracle (rule 9) at every node with at least N
//! empty cells; `SEEDS=default` seeds it with II–IV1b only (default here: with IV1d and V1a
//! as well, `local::oracle::LARGE_SEEDS`); `WIDEN=N` and `WIDEN_FIRST=N` set rule 11
//! (`OracleParams::widen_plies`, `widen_first`; `WIDEN=0` switches it off, `WIDEN_OPP=0` keeps it to the owner's replies, `WIDEN_SKIP=N` leaves the first N plies depth-first). The oracle is never switched off mid-search
//! (`first_nodes` unlimited).
//!
//! Every answer is exact (the search's verdict, "holds" only after the kernel accepted the
//! certificate); "Undecided" means the node budget ran out.
#[path = "common/args.rs"]
mod args;
use args::probe_args;
use hexproof::board::{Border, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::local::{decide_with, oracle, Budget, OracleParams};

fn main() {
    let (args, nodes, all) = probe_args("intrusions NAME NODES [w:CELL|b:CELL …]");
    let Some(t) = all.iter().find(|t| t.name == args[0]) else {
        eprintln!("error: no template named {:?}", args[0]);
        std::process::exit(2);
    };
    let g = t
        .place_fitting(Border::Bottom)
        .expect("every template fits");
    let mut params = OracleParams {
        first_nodes: u64::MAX,
        seeds: &oracle::LARGE_SEEDS,
        ..OracleParams::default()
    };
    if std::env::var("SEEDS").as_deref() == Ok("default") {
        params.seeds = &oracle::DEFAULT_SEEDS;
    }
    if let Ok(m) = std::env::var("MIN") {
        params.min_empty = m.parse().ok();
    }
    if let Ok(m) = std::env::var("WIDEN") {
        params.widen_plies = m.parse().unwrap_or(params.widen_plies);
    }
    if let Ok(m) = std::env::var("WIDEN_FIRST") {
        params.widen_first = m.parse().unwrap_or(params.widen_first);
    }
    if let Ok(m) = std::env::var("WIDEN_SKIP") {
        params.widen_skip = m.parse().unwrap_or(params.widen_skip);
    }
    if std::env::var("WIDEN_OPP").as_deref() == Ok("0") {
        params.widen_opp = false;
    }
    if let Ok(m) = std::env::var("SUBMIN") {
        params.sub_min_carrier = m.parse().unwrap_or(params.sub_min_carrier);
    }
    let owner = g.claim().owner;
    let mut base = g.position().clone();
    let mut carrier = g.carrier();
    let mut opp_to_move = true;
    for m in &args[2..] {
        let parsed = m.split_once(':').and_then(|(who, cell)| {
            let c = base.board().parse_cell(cell, Notation::Letters).ok()?;
            let colour = match who {
                "w" => owner.opponent(),
                "b" => owner,
                _ => return None,
            };
            carrier.contains(c).then_some((who, c, colour))
        });
        let Some((who, c, colour)) = parsed else {
            eprintln!("error: {m:?} is not w:CELL or b:CELL on an empty carrier cell");
            std::process::exit(2);
        };
        base.play(colour, c).expect("an empty cell");
        carrier.remove(c);
        opp_to_move = who == "b";
    }
    let only = std::env::var("ONLY").unwrap_or_default();
    for x in carrier.iter() {
        let name = base.board().cell_name(x, Notation::Letters);
        if !only.is_empty() && !only.split(',').any(|o| o == name) {
            continue;
        }
        let mut pos = base.clone();
        let mover = if opp_to_move { owner.opponent() } else { owner };
        pos.play(mover, x).expect("an empty cell");
        let mut rest = carrier;
        rest.remove(x);
        let claim = Claim {
            owner_first: opp_to_move,
            ..g.claim().clone()
        };
        let sub = SubGame::new(pos, rest, claim).expect("a valid sub-game");
        let budget = Budget {
            nodes,
            time: None,
            max_entries: 4_000_000,
            stop: None,
        };
        let o = decide_with(&sub, &budget, &params).expect("a valid sub-game");
        println!(
            "{name:<4} {:?}  {} nodes  {} oracle builds  {:.3} s wall",
            o.verdict,
            o.stats.nodes,
            o.stats.oracle_calls,
            o.stats.micros as f64 / 1e6
        );
    }
}
