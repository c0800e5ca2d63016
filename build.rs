//! Prepares the published edge templates (`templates/published.json`, tens of megabytes,
//! mostly certificates) for embedding:
//!
//! - `published.json.deflate`: the whole store, deflated; `templates::builtin` inflates it
//!   only when a command needs every published template (`templates verify/list/show`).
//! - `published-seeds.json`: the few records that seed the solver's connection engine, chosen
//!   by `src/templates/seed_select.rs` (the same file the library compiles), so that `solve`
//!   and the players start without reading the store.
//!
//! Nothing here is trusted: the seeds are re-checked by the kernel when they are loaded, and
//! `templates verify` re-checks the store.

#[path = "src/templates/seed_select.rs"]
#[allow(dead_code)]
mod seed_select;

use std::path::PathBuf;

/// Deflate level: 6 is miniz's default; higher levels took much longer for a few percent.
const LEVEL: u8 = 6;

fn main() {
    let src = "templates/published.json";
    println!("cargo:rerun-if-changed={src}");
    println!("cargo:rerun-if-changed=src/templates/seed_select.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let text = std::fs::read_to_string(src).unwrap_or_else(|e| panic!("reading {src}: {e}"));
    // A store that does not parse still builds: it has no seeds, and `templates verify`
    // reports the parse error at run time.
    let seeds = seed_select::seed_record_texts(&text).unwrap_or_default();
    std::fs::write(
        out.join("published-seeds.json"),
        seed_select::seed_array_json(&seeds),
    )
    .expect("writing published-seeds.json");
    let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), LEVEL);
    std::fs::write(out.join("published.json.deflate"), deflated)
        .expect("writing published.json.deflate");
}
