//! Which published templates seed the connection engine, chosen from the text of
//! `templates/published.json` without parsing their certificates.
//!
//! This file is compiled twice: into the library (as `templates::seed_select`, for tests and
//! for a `published.json` given at run time) and into `build.rs` (through `#[path]`), which
//! writes the chosen records into the build's output so that a process that only needs the
//! seeds reads a few hundred kilobytes instead of the whole store (BENCHMARKS.md, "Published
//! seeds"). So it may use only `serde` and `serde_json`, nothing of the crate.
//!
//! Choosing is not trusting: every chosen record is re-checked by the kernel before it seeds
//! anything ([`super::seeds::certified_seeds`]).

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::value::RawValue;

/// Most carrier cells of a published template used as a seed: with 40 or 64 the 7×7 a3 and
/// g2 solves made the same nodes as with 32, and each extra record costs its certificate
/// check when the seeds are loaded.
pub const MAX_PUBLISHED_SEED_CARRIER: usize = 32;

/// The fields of a published entry that the choice needs; the records stay unparsed.
#[derive(Deserialize)]
struct Entry<'a> {
    goal_stones: Vec<IgnoredAny>,
    library: Option<IgnoredAny>,
    #[serde(borrow)]
    record: Option<&'a RawValue>,
    #[serde(borrow)]
    minimized: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct File<'a> {
    #[serde(borrow)]
    templates: Vec<Entry<'a>>,
}

/// The carrier of a record, counted, not read.
#[derive(Deserialize)]
struct CarrierOnly {
    carrier: Vec<IgnoredAny>,
}

/// The records of `published.json` (text `text`), as JSON texts, that may seed the engine: a
/// template that holds, with one goal stone, not in the library (no library link), its
/// carrier within [`MAX_PUBLISHED_SEED_CARRIER`] cells; the minimized record when there is
/// one. `None` when the file does not parse (`templates verify` reports it).
pub fn seed_record_texts(text: &str) -> Option<Vec<&str>> {
    let file: File = serde_json::from_str(text).ok()?;
    Some(
        file.templates
            .into_iter()
            .filter(|e| e.goal_stones.len() == 1 && e.library.is_none())
            .filter_map(|e| e.minimized.or(e.record))
            .map(RawValue::get)
            .filter(|raw| {
                serde_json::from_str::<CarrierOnly>(raw)
                    .is_ok_and(|r| r.carrier.len() <= MAX_PUBLISHED_SEED_CARRIER)
            })
            .collect(),
    )
}

/// The chosen records as one JSON array (what `build.rs` embeds).
pub fn seed_array_json(texts: &[&str]) -> String {
    let mut out = String::from("[\n");
    for (i, t) in texts.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(t);
    }
    out.push_str("\n]\n");
    out
}
