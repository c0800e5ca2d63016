//! The whole-board engine (`search::whole`) on HexWiki templates: each template on the bottom
//! edge of the smallest board that holds it (as `examples/hexwiki_table.rs`), encoded
//! (`search::encode`), solved, and proved to the kernel.
//!
//! `cargo run --release --example solver_probe -- NAME[,NAME…] NODES [--ascii]`
#[path = "common/args.rs"]
mod args;
use args::probe_args;
use hexproof::board::{Border, Notation};
use hexproof::search::encode::encode;
use hexproof::search::whole::{decide_whole, WholeParams};
use hexproof::search::Budget;
use std::time::Instant;

fn main() {
    let (args, nodes, all) = probe_args("solver_probe NAME[,NAME…] NODES [--ascii]");
    for name in args[0].split(',') {
        let Some(t) = all.iter().find(|t| t.name == name) else {
            eprintln!("error: no template named {name:?}");
            std::process::exit(2);
        };
        let g = t.place_fitting(Border::Bottom).expect("fits");
        if args.iter().any(|a| a == "--ascii") {
            match encode(&g) {
                Ok(e) => println!("{}", e.position.to_ascii(Notation::Letters)),
                Err(m) => println!("{name}: not applicable: {m}"),
            }
        }
        let start = Instant::now();
        let (o, r) = decide_whole(&g, &Budget::nodes(nodes), &WholeParams::default());
        println!(
            "{name}: {:?}, {} encoded empty cells, {} solver nodes, {} leaf searches ({} nodes), \
             {} certificate nodes ({} derivation leaves of {} explainer calls, {} nodes from them, \
             {} from searched leaves, {} shared), {:.1} s wall{}{}{}",
            o.verdict,
            r.encoded_empty,
            r.solver_nodes,
            r.leaf_searches,
            r.leaf_nodes,
            o.stats.certificate_nodes,
            r.derived_leaves,
            r.explain_calls,
            r.derived_nodes,
            r.searched_nodes,
            r.shared_hits,
            start.elapsed().as_secs_f64(),
            r.not_applicable
                .map(|m| format!(", not applicable: {m}"))
                .unwrap_or_default(),
            r.failure
                .map(|m| format!(", failure: {m}"))
                .unwrap_or_default(),
            o.kernel_error
                .map(|m| format!(", kernel error: {m:?}"))
                .unwrap_or_default(),
        );
    }
}
