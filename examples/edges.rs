//! Decides one HexWiki template at all four edges and prints verdicts, nodes and times:
//! `cargo run --release --example edges -- V1a`.
use hexproof::board::Border;
use hexproof::edge_template::EdgeTemplate;
use hexproof::local::{decide, Budget};

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "V1a".into());
    let all = EdgeTemplate::parse_list(include_str!(
        "../tests/fixtures/edge-templates-hexwiki.json"
    ))
    .unwrap();
    let t = all
        .iter()
        .find(|t| t.name == name)
        .expect("no such template");
    for border in [Border::Top, Border::Bottom, Border::Left, Border::Right] {
        let g = t.place_fitting(border).unwrap();
        let o = decide(
            &g,
            &Budget {
                time: Some(std::time::Duration::from_secs(60)),
                ..Budget::default()
            },
        )
        .unwrap();
        println!(
            "{name} {border:?}: {:?}, {} nodes, {} certificate nodes, {:.1} ms",
            o.verdict,
            o.stats.nodes,
            o.stats.certificate_nodes,
            o.stats.micros as f64 / 1000.0
        );
    }
}
