//! The VC engine at the root of each named template, as rule 9 of the exact search sees it
//! (cells outside the carrier count as White's): Black's VCs and VSCs inside the carrier and
//! the size of White's mustplay (the intersection of the VSC carriers).
//!
//! `cargo run --release --example oracle_root -- SEEDS NAME…` with SEEDS a comma-separated
//! list of HexWiki one-stone templates (`II,III1a,III1b,IV1a,IV1b` is the engine's default).
use hexproof::board::Border;
use hexproof::edge_template::EdgeTemplate;
use hexproof::vc::{seed, Variant, VcBudget, VcParams, VcSet};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: oracle_root SEEDS NAME…");
        std::process::exit(2);
    }
    let seeds: Vec<&str> = args[0].split(',').collect();
    let all = EdgeTemplate::parse_list(include_str!(
        "../tests/fixtures/edge-templates-hexwiki.json"
    ))
    .expect("the fixture parses");
    for name in &args[1..] {
        let Some(t) = all.iter().find(|t| &t.name == name) else {
            eprintln!("error: no template named {name:?}");
            std::process::exit(2);
        };
        let g = t
            .place_fitting(Border::Bottom)
            .expect("every template fits");
        let owner = g.claim().owner;
        let endpoints = g.claim().endpoints();
        let mut pos = g.position().clone();
        for c in g.position().empty_cells().iter() {
            if !g.carrier().contains(c) {
                let colour = if endpoints.contains(c) {
                    owner
                } else {
                    owner.opponent()
                };
                pos.play(colour, c).expect("an empty cell");
            }
        }
        let mut vp = VcParams::new(Variant::Fast);
        vp.seeds = seed::seeds_from(&all, &seeds);
        vp.budget = VcBudget {
            max_connections: 400_000,
            time: None,
        };
        let start = Instant::now();
        let vs = VcSet::build(&pos, owner, vp);
        let took = start.elapsed();
        let (mut vcs, mut semis, mut must) = (0, 0, g.carrier());
        for &(x, y) in &g.claim().pairs {
            vcs += vs
                .vcs(x, y)
                .iter()
                .filter(|c| c.is_subset(&g.carrier()))
                .count();
            for c in vs.vscs(x, y).iter().filter(|c| c.is_subset(&g.carrier())) {
                semis += 1;
                must &= *c;
            }
        }
        println!(
            "{name}: carrier {}  VCs {vcs}  VSCs {semis}  White's mustplay {} cells  {:.1} ms  {:?}",
            g.carrier().len(),
            must.len(),
            took.as_secs_f64() * 1e3,
            vs.status()
        );
    }
}
