//! The template library built into the binary: the files of `templates/` (but the lemma
//! file) embedded at build time, so `use templates` in a proof and `hexproof templates
//! list/show/match/verify` work from any directory. A file added to `templates/` must be
//! listed in [`FILES`].

use super::library::{LibraryFile, Record};

/// The library files, embedded.
pub const FILES: [(&str, &str); 9] = [
    (
        "templates/row2.json",
        include_str!("../../templates/row2.json"),
    ),
    (
        "templates/row3.json",
        include_str!("../../templates/row3.json"),
    ),
    (
        "templates/row4.json",
        include_str!("../../templates/row4.json"),
    ),
    (
        "templates/row4-5x14.json",
        include_str!("../../templates/row4-5x14.json"),
    ),
    (
        "templates/row5.json",
        include_str!("../../templates/row5.json"),
    ),
    (
        "templates/row2s2.json",
        include_str!("../../templates/row2s2.json"),
    ),
    (
        "templates/row3s2.json",
        include_str!("../../templates/row3s2.json"),
    ),
    (
        "templates/row4s2.json",
        include_str!("../../templates/row4s2.json"),
    ),
    (
        "templates/row4s2-4x12.json",
        include_str!("../../templates/row4s2-4x12.json"),
    ),
];

/// The name under which the published templates ([`super::published`]) are reported.
pub const PUBLISHED_NAME: &str = "templates/published.json";

/// `templates/published.json`, deflated by `build.rs` (tens of megabytes of text, mostly
/// certificates, shrink to about a third).
const PUBLISHED_DEFLATED: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/published.json.deflate"));

/// The records of `templates/published.json` that seed the solver, chosen by `build.rs` with
/// [`super::seed_select`]: a JSON array of records, not yet checked.
pub const PUBLISHED_SEEDS: &str = include_str!(concat!(env!("OUT_DIR"), "/published-seeds.json"));

/// The published templates (`templates/published.json`, [`super::published`]), embedded for
/// `templates verify` and `templates list`; not in [`FILES`], so not used by `use templates` or
/// `templates match` (the solver's seeds among them come from [`PUBLISHED_SEEDS`]). Inflated on
/// the first call, once per process; the name is [`PUBLISHED_NAME`].
pub fn published_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        // The bytes were written by our own build script from a UTF-8 file; a failure here is
        // a broken build, reported as an empty store (which `templates verify` rejects).
        miniz_oxide::inflate::decompress_to_vec(PUBLISHED_DEFLATED)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .unwrap_or_default()
    })
}

/// Every record of the embedded library, in file order. A file that does not parse is
/// skipped (its records are then unknown lemmas); `tests/kernel/rules.rs` checks that none is.
pub fn records() -> Vec<Record> {
    FILES
        .iter()
        .filter_map(|(_, text)| serde_json::from_str::<LibraryFile>(text).ok())
        .flat_map(|f| f.templates)
        .collect()
}
