//! Decides every HexWiki edge template (bottom edge, Black) and prints a Markdown table row
//! per template: `cargo run --release --example hexwiki_table -- [SECONDS]`.
use hexproof::board::Border;
use hexproof::search::{decide, Budget};
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
    println!("| template | empty cells | verdict | search nodes | certificate nodes | time (ms) |");
    println!("|---|---|---|---|---|---|");
    for t in &all {
        let g = t.place_fitting(Border::Bottom).unwrap();
        let budget = Budget {
            time: Some(Duration::from_secs(secs)),
            ..Budget::default()
        };
        let o = decide(&g, &budget).unwrap();
        println!(
            "| {} | {} | {:?} | {} | {} | {:.1} |",
            t.name,
            g.carrier().len(),
            o.verdict,
            o.stats.nodes,
            o.stats.certificate_nodes,
            o.stats.micros as f64 / 1000.0
        );
    }
}
