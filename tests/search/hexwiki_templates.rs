//! The 37 HexWiki edge templates (tests/fixtures/edge-templates-hexwiki.json, a copy of the
//! project's shared HexWiki transcription; see tests/fixtures/edge-templates-hexwiki.README.md)
//! decided by the search and checked by the kernel.
//!
//! Placement (fixture README, "Coordinates"): a template cell `[r, c]` sits on the TOP edge of
//! a 19×19 board at column `L0 + c`, row `r`, with `L0` chosen so that the template's leftmost
//! cell lands on column b (one free column, as `Template::place_fitting` leaves). Black owns the edge `t`; every template stone is a black stone; the
//! carrier is the template's carrier; the claim is the union over the goal stones
//! `g1 - t | g2 - t …`, a VC (White moves first). Holes stay empty and outside the carrier.
//!
//! Templates with carriers of at most 40 cells run always (2 M search nodes each, no
//! wall-clock limit, so verdicts do not depend on the machine's load), except those in
//! `TOO_SLOW_FOR_NOW`; those and the larger ones are in an `#[ignore]` test (`cargo test
//! --release --test hexwiki_templates -- --ignored --nocapture`). Verdicts are kept as insta snapshots (name → verdict, sorted; no timings);
//! timings are printed.

use hexproof::board::{Board, Cell, CellSet, Colour};
use hexproof::claim::{Claim, SubGame};
use hexproof::engine::whole::{decide_engine, Engine, WholeParams};
use hexproof::kernel;
use hexproof::local::{Budget, Verdict};
use hexproof::position::Position;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Instant;

const FIXTURE: &str = include_str!("../fixtures/edge-templates-hexwiki.json");

/// Templates of at most 40 carrier cells too slow for the normal suite: IV1c holds in 4.0 M
/// nodes (about 12 s CPU, minutes of wall time on the loaded 2-core machine); VI2a is
/// undecided after 55 M nodes (183 s CPU) without the oracle. They run in the `#[ignore]` test with the large ones. Once the search decides one
/// within the budget, delete it here and re-accept both snapshots.
const TOO_SLOW_FOR_NOW: &[&str] = &["IV1c", "VI2a"];

/// Carriers up to this size run always.
const ALWAYS_MAX_CARRIER: usize = 40;

struct Template {
    name: String,
    stones: Vec<(i32, i32)>,
    goals: Vec<(i32, i32)>,
    carrier: Vec<(i32, i32)>,
    holes: Vec<(i32, i32)>,
}

fn cells(v: &Value) -> Vec<(i32, i32)> {
    v.as_array()
        .expect("a list of cells")
        .iter()
        .map(|rc| {
            let rc = rc.as_array().expect("[row, col]");
            (
                rc[0].as_i64().unwrap() as i32,
                rc[1].as_i64().unwrap() as i32,
            )
        })
        .collect()
}

fn templates() -> Vec<Template> {
    let v: Value = serde_json::from_str(FIXTURE).expect("the fixture is JSON");
    let list = v.as_array().expect("a list of templates");
    list.iter()
        .map(|t| {
            let tpl = Template {
                name: t["name"].as_str().unwrap().to_string(),
                stones: cells(&t["stones"]),
                goals: cells(&t["goal_stones"]),
                carrier: cells(&t["carrier"]),
                holes: cells(&t["holes"]),
            };
            // The fixture's own consistency.
            assert_eq!(
                tpl.carrier.len() as u64,
                t["n_carrier_empty"].as_u64().unwrap(),
                "{}",
                tpl.name
            );
            let helpers = cells(&t["helper_stones"]);
            assert_eq!(
                tpl.stones.len(),
                tpl.goals.len() + helpers.len(),
                "{}",
                tpl.name
            );
            assert!(
                tpl.goals
                    .iter()
                    .chain(&helpers)
                    .all(|s| tpl.stones.contains(s)),
                "{}",
                tpl.name
            );
            tpl
        })
        .collect()
}

/// The template on the top edge of a 19×19 board, its leftmost cell on column b.
fn sub_game(t: &Template) -> SubGame {
    let board = Board::square(19).unwrap();
    let all: Vec<(i32, i32)> = t
        .stones
        .iter()
        .chain(&t.carrier)
        .chain(&t.holes)
        .copied()
        .collect();
    // One free column on the left, as `Template::place_fitting` leaves: the whole-board
    // engine's encoding needs room beside the carrier for its harmless chain (with the
    // carrier on column a it answers "not applicable").
    let l0 = 1 - all.iter().map(|&(_, c)| c).min().unwrap();
    let place = |&(r, c): &(i32, i32)| -> Cell {
        assert!(r >= 1, "{}: row {r}", t.name);
        board
            .cell(l0 + c, r - 1)
            .unwrap_or_else(|| panic!("{}: [{r}, {c}] does not fit on 19x19", t.name))
    };
    let stones: CellSet = t.stones.iter().map(place).collect();
    let carrier: CellSet = t.carrier.iter().map(place).collect();
    assert!(
        stones.is_disjoint(&carrier),
        "{}: a stone in the carrier",
        t.name
    );
    assert_eq!(
        carrier.len(),
        t.carrier.len(),
        "{}: repeated carrier cell",
        t.name
    );
    let top = board
        .parse_cell("t", hexproof::board::Notation::Letters)
        .unwrap();
    let claim = Claim {
        owner: Colour::Black,
        pairs: t.goals.iter().map(|g| (place(g), top)).collect(),
        owner_first: false,
    };
    let position = Position::new(board, stones, CellSet::EMPTY).unwrap();
    SubGame::new(position, carrier, claim).unwrap()
}

/// A budget of `nodes` search nodes and no wall-clock limit, so that a verdict does not
/// depend on the machine's load (the search and the VC-engine oracle count work, not time).
fn budget(nodes: u64) -> Budget {
    Budget {
        nodes,
        time: None,
        max_entries: 8_000_000,
        stop: None,
    }
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Fails => "fails",
        Verdict::Undecided => "undecided",
    }
}

/// Decides each template with `engine` (`local_nodes`: the local search's share under
/// `Engine::Auto`); returns name → verdict and prints a timing table.
fn run(
    select: impl Fn(&Template) -> bool,
    nodes: u64,
    engine: Engine,
    local_nodes: u64,
) -> BTreeMap<String, &'static str> {
    let mut out = BTreeMap::new();
    for t in templates().iter().filter(|t| select(t)) {
        let game = sub_game(t);
        let start = Instant::now();
        let eo = decide_engine(
            &game,
            &budget(nodes),
            engine,
            local_nodes,
            &WholeParams::default(),
        )
        .unwrap();
        let o = eo.outcome;
        let secs = start.elapsed().as_secs_f64();
        if o.verdict == Verdict::Holds {
            let cert = o.certificate.as_ref().expect("a certificate");
            assert!(
                kernel::check(&game, cert).is_ok(),
                "{}: the kernel rejects the certificate",
                t.name
            );
        }
        assert!(
            o.kernel_error.is_none(),
            "{}: kernel error {:?}",
            t.name,
            o.kernel_error
        );
        println!(
            "{:<12} carrier {:>3}  {:<9}  {:>9.3} s  {:>12} nodes  {:>8} certificate nodes  by {:?}{}",
            t.name,
            t.carrier.len(),
            verdict_name(o.verdict),
            secs,
            o.stats.nodes,
            o.stats.certificate_nodes,
            eo.decided_by,
            eo.whole
                .map(|w| format!(
                    " ({} solver nodes, {} leaf searches of {} nodes{})",
                    w.solver_nodes,
                    w.leaf_searches,
                    w.leaf_nodes,
                    w.failure
                        .map(|f| format!(", {f}"))
                        .or(w.not_applicable.map(|m| format!(", not applicable: {m}")))
                        .unwrap_or_default()
                ))
                .unwrap_or_default()
        );
        out.insert(t.name.clone(), verdict_name(o.verdict));
    }
    out
}

fn always_run(t: &Template) -> bool {
    t.carrier.len() <= ALWAYS_MAX_CARRIER && !TOO_SLOW_FOR_NOW.contains(&t.name.as_str())
}

#[test]
fn fixture_has_37_templates_that_fit() {
    let ts = templates();
    assert_eq!(ts.len(), 37);
    for t in &ts {
        let g = sub_game(t);
        assert_eq!(g.carrier().len(), t.carrier.len());
    }
    // The ziggurat lands where the README says: stone on row 3, carrier of 8 cells.
    let z = ts.iter().find(|t| t.name == "III1a").unwrap();
    assert_eq!(z.goals, vec![(3, 0)]);
    assert_eq!(z.carrier.len(), 8);
}

/// Templates with carriers of at most 40 cells (except `TOO_SLOW_FOR_NOW`), 2 M search
/// nodes each (the largest, IV1d, needs 0.13 M).
#[test]
fn hexwiki_templates_up_to_40_cells() {
    let verdicts = run(always_run, 2_000_000, Engine::Local, 0);
    assert_eq!(verdicts.len() + TOO_SLOW_FOR_NOW.len() + 3, 37);
    insta::assert_yaml_snapshot!("hexwiki_up_to_40_cells", verdicts);
}

/// The rest: `TOO_SLOW_FOR_NOW` and the carriers over 40 cells (V1b, V1c, VI1a). By hand:
/// `HEXWIKI_NODES=10000000 cargo test --release --test hexwiki_templates -- --ignored
/// --nocapture` (default 10 M search nodes per template; `HEXWIKI_ONLY=NAME[,NAME…]` for a
/// few). Measured (BENCHMARKS.md, "Exact
/// local search"): IV1c holds (2.3 M nodes in this placement). Each template gets the local
/// search first (`HEXWIKI_LOCAL_NODES`, default 3 M nodes), then the whole-board engine
/// (`local::whole`, `Engine::Auto`) on the rest of the budget: VI2a holds that way (the
/// engine's part with fill-in for White only: 2.2 s CPU, 6 801 certificate nodes); so do V1b
/// (646.8 s CPU), VI1a (1,248.8 s) and V1c (464.7 s), measured by `examples/solver_probe` on
/// the bottom edge (BENCHMARKS.md, "Fill-in for White only"). The expected table in the
/// snapshot is HexWiki's claim — every template holds.
#[test]
#[ignore]
fn hexwiki_templates_slow_and_over_40_cells() {
    let nodes = std::env::var("HEXWIKI_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    let local_nodes = std::env::var("HEXWIKI_LOCAL_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3_000_000);
    // `HEXWIKI_ONLY=V1c,VI1a` runs just those (each must hold: HexWiki's claim); the
    // snapshot is compared only on a full run.
    let only: Option<Vec<String>> = std::env::var("HEXWIKI_ONLY")
        .ok()
        .map(|s| s.split(',').map(|n| n.trim().to_string()).collect());
    match only {
        None => {
            let verdicts = run(|t| !always_run(t), nodes, Engine::Auto, local_nodes);
            insta::assert_yaml_snapshot!("hexwiki_slow_and_over_40_cells", verdicts);
        }
        Some(names) => {
            let known: Vec<String> = templates().into_iter().map(|t| t.name).collect();
            for n in &names {
                assert!(known.contains(n), "HEXWIKI_ONLY: no template named {n:?}");
            }
            let verdicts = run(
                |t| names.contains(&t.name),
                nodes,
                Engine::Auto,
                local_nodes,
            );
            for (name, v) in &verdicts {
                assert_eq!(*v, "holds", "{name}: HexWiki says it holds");
            }
        }
    }
}
