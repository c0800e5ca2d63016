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

/// The published templates (`templates/published.json`, [`super::published`]), embedded for
/// `templates verify` and `templates list`; not in [`FILES`], so not seeds of the solver
/// ([`super::seeds::library_seeds`]) and not used by `use templates` or `templates match`.
pub const PUBLISHED: (&str, &str) = (
    "templates/published.json",
    include_str!("../../templates/published.json"),
);

/// Every record of the embedded library, in file order. A file that does not parse is
/// skipped (its records are then unknown lemmas); `tests/kernel/rules.rs` checks that none is.
pub fn records() -> Vec<Record> {
    FILES
        .iter()
        .filter_map(|(_, text)| serde_json::from_str::<LibraryFile>(text).ok())
        .flat_map(|f| f.templates)
        .collect()
}
