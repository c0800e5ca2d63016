//! Criterion benchmarks of the exact local search (`decide`: search, certificate extraction
//! and kernel check) on HexWiki edge templates and the empty 5×5 board.
//!
//! Run: `cargo bench --bench core`. Templates come from tests/fixtures/
//! edge-templates-hexwiki.json (HexWiki transcription, see its README). A case the search
//! cannot decide within the pre-check budget is reported and skipped, not timed.

use criterion::{criterion_group, criterion_main, Criterion};
use hexproof::board::{Board, Border, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::edge_template::EdgeTemplate;
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;
use std::time::Duration;

const TEMPLATES: &str = include_str!("../tests/fixtures/edge-templates-hexwiki.json");

fn cases() -> Vec<(String, SubGame)> {
    let all = EdgeTemplate::parse_list(TEMPLATES).expect("fixture parses");
    let mut out = Vec::new();
    for name in [
        "II", "III1a", "IV1a", "IV1b", "IV1c", "IV1d", "V1a", "V1b", "V1c",
    ] {
        let t = all
            .iter()
            .find(|t| t.name == name)
            .expect("template present");
        out.push((
            name.to_string(),
            t.place_fitting(Border::Bottom).expect("fits"),
        ));
    }
    let board = Board::square(5).unwrap();
    let p = Position::empty(board);
    let claim = Claim::parse(
        &board,
        "t - b",
        hexproof::board::Colour::Black,
        true,
        Notation::Letters,
    )
    .unwrap();
    out.push((
        "empty 5x5".into(),
        SubGame::new(p.clone(), p.empty_cells(), claim).unwrap(),
    ));
    out
}

fn bench(c: &mut Criterion) {
    let precheck = Budget {
        time: Some(Duration::from_secs(
            std::env::var("HEXPROOF_BENCH_PRECHECK_SECS")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(5),
        )),
        ..Budget::default()
    };
    let mut group = c.benchmark_group("verify");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    for (name, game) in cases() {
        let o = decide(&game, &precheck).unwrap();
        eprintln!(
            "{name}: {:?}, {} empty cells, {} search nodes, {} certificate nodes, {:.3} ms",
            o.verdict,
            game.carrier().len(),
            o.stats.nodes,
            o.stats.certificate_nodes,
            o.stats.micros as f64 / 1000.0
        );
        if o.verdict == Verdict::Undecided {
            eprintln!("{name}: undecided within the pre-check budget; not timed");
            continue;
        }
        group.bench_function(&name, |b| {
            b.iter(|| decide(&game, &Budget::default()).unwrap().verdict)
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
