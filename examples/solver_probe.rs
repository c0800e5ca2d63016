//! The whole-board engine (`local::whole`) on HexWiki templates: each template on the bottom
//! edge of the smallest board that holds it (as `examples/hexwiki_table.rs`), encoded
//! (`local::encode`), solved, and proved to the kernel.
//!
//! `cargo run --release --example solver_probe -- NAME[,NAME…] NODES [--ascii]`
//!
//! Environment: `HEXPROOF_WHOLE_FILL=full|off` sets the solver's fill-in (default: White's
//! only; [`WholeParams::fill_in`]); `HEXPROOF_WHOLE_LEAF_NODES=N` sets each leaf search's budget and
//! `HEXPROOF_WHOLE_LEAF_MAX=N` the most proof-set cells of a leaf search;
//! `HEXPROOF_WHOLE_TRACE=1` traces the build.
#[path = "common/args.rs"]
mod args;
use args::probe_args;
use hexproof::board::{Border, Notation};
use hexproof::engine::encode::encode;
use hexproof::engine::whole::{decide_whole, Fill, WholeParams};
use hexproof::local::Budget;
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
        let env = |k: &str| std::env::var(k).ok();
        let mut params = WholeParams::default();
        match env("HEXPROOF_WHOLE_FILL").as_deref() {
            Some("full") => params.fill_in = Fill::Full,
            Some("off") => params.fill_in = Fill::Off,
            _ => {}
        }
        if let Some(n) = env("HEXPROOF_WHOLE_LEAF_MAX").and_then(|v| v.parse().ok()) {
            params.leaf_max_cells = n;
        }
        if let Some(n) = env("HEXPROOF_WHOLE_LEAF_NODES").and_then(|v| v.parse().ok()) {
            params.leaf_nodes = n;
        }
        params.trace = env("HEXPROOF_WHOLE_TRACE").is_some();
        let (o, r) = decide_whole(&g, &Budget::nodes(nodes), &params);
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
