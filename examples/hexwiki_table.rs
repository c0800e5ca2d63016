//! Decides every HexWiki edge template (bottom edge, Black) and prints a Markdown table row
//! per template: `cargo run --release --example hexwiki_table -- [SECONDS] [NAMES…]`.
use hexproof::board::Border;
use hexproof::edge_template::EdgeTemplate;
use hexproof::local::{decide_with, Budget, OracleParams};
use std::time::Duration;

fn main() {
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let all = EdgeTemplate::parse_list(include_str!(
        "../tests/fixtures/edge-templates-hexwiki.json"
    ))
    .unwrap();
    println!("| template | empty cells | verdict | search nodes | certificate nodes | oracle calls | time (ms) |");
    println!("|---|---|---|---|---|---|---|");
    // The oracle (rule 9): HEXPROOF_ORACLE_MIN=N (min_empty), HEXPROOF_ORACLE_PLIES=N
    // (top_plies), HEXPROOF_ORACLE_CARRIER=N (min_carrier); HEXPROOF_ORACLE=off.
    let mut params = OracleParams::default();
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u32>().ok());
    params.min_empty = var("HEXPROOF_ORACLE_MIN");
    if let Some(p) = var("HEXPROOF_ORACLE_PLIES") {
        params.top_plies = p;
    }
    if let Some(c) = var("HEXPROOF_ORACLE_SUB_CARRIER") {
        params.sub_min_carrier = c;
    }
    if let Some(c) = var("HEXPROOF_ORACLE_CARRIER") {
        params.min_carrier = c;
    }
    if std::env::var("HEXPROOF_ORACLE_OWNER_SEMIS").as_deref() == Ok("0") {
        params.owner_semis = false;
    }
    if std::env::var("HEXPROOF_ORACLE_PASS").as_deref() == Ok("1") {
        params.pass_too = true;
    }
    if let Ok(Ok(n)) = std::env::var("HEXPROOF_ORACLE_FIRST").map(|v| v.parse::<u64>()) {
        params.first_nodes = n;
    }
    if std::env::var("HEXPROOF_ORACLE_SEEDS").as_deref() == Ok("large") {
        params.seeds = &hexproof::local::oracle::LARGE_SEEDS;
    }
    if std::env::var("HEXPROOF_ORACLE").as_deref() == Ok("off") {
        params = OracleParams::OFF;
    }
    // Rule 11 of the search: HEXPROOF_WIDEN_PLIES=N (0: off), HEXPROOF_WIDEN_FIRST=N,
    // HEXPROOF_WIDEN_SKIP=N.
    if let Some(p) = var("HEXPROOF_WIDEN_PLIES") {
        params.widen_plies = p;
    }
    if let Ok(Ok(n)) = std::env::var("HEXPROOF_WIDEN_FIRST").map(|v| v.parse::<u64>()) {
        params.widen_first = n;
    }
    if let Some(p) = var("HEXPROOF_WIDEN_SKIP") {
        params.widen_skip = p;
    }
    let only: Vec<String> = std::env::args().skip(2).collect();
    for t in all
        .iter()
        .filter(|t| only.is_empty() || only.contains(&t.name))
    {
        let g = t.place_fitting(Border::Bottom).unwrap();
        let budget = Budget {
            time: Some(Duration::from_secs(secs)),
            ..Budget::default()
        };
        let o = decide_with(&g, &budget, &params).unwrap();
        println!(
            "| {} | {} | {:?} | {} | {} | {} | {:.1} |",
            t.name,
            g.carrier().len(),
            o.verdict,
            o.stats.nodes,
            o.stats.certificate_nodes,
            o.stats.oracle_calls,
            o.stats.micros as f64 / 1000.0
        );
    }
}
