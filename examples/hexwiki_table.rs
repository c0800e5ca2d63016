//! Decides every HexWiki edge template (bottom edge, Black) and prints a Markdown table row
//! per template: `cargo run --release --example hexwiki_table -- [SECONDS] [NAMES…]`.
use hexproof::board::Border;
use hexproof::search::{decide_with, Budget, OracleParams};
use hexproof::templates::EdgeTemplate;
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
    // HEXPROOF_ORACLE_MIN=N: the oracle's threshold (rule 9), `off` to switch it off.
    let mut params = OracleParams::default();
    if let Ok(v) = std::env::var("HEXPROOF_ORACLE_MIN") {
        params.min_empty = v.parse().ok();
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
