//! The certified library as seeds of the connection engine ([`crate::vc::seed`]): every
//! edge-template record with one goal stone and a VC claim, its certificate re-checked by the
//! kernel ([`super::library::verify_record`]) before it is used, in both mirror images.
//!
//! Henderson, Arneson & Hayward (2009, §2) build their connections from precomputed edge
//! patterns as well as the AND/OR rules; Benzene's solver loses most of its strength without
//! them (7×7 a3: 3 660 connection builds with, 16 902 without, measured in BENCHMARKS.md).
//! Here the patterns are the library's own templates, each with its proof, so a seeded
//! connection is as sound as the kernel.
//!
//! The published templates that hold ([`super::published`]: HexWiki, King, Selinger) and
//! are not already in the library join the seeds too, up to [`MAX_PUBLISHED_SEED_CARRIER`]
//! cells, each under the same kernel re-check (the smaller carrier when the import found
//! one). On 7×7 a3 they take the solver from 18 047 to 9 105 nodes; larger ones changed
//! nothing measured (BENCHMARKS.md, "Published seeds").

use super::library::{verify_record, ClaimTag, Frame, Record};
use crate::vc::seed::SeedTemplate;
use std::sync::OnceLock;

/// Most carrier cells of a library template used as a seed: larger ones rarely fit a
/// position and cost a check at every build.
pub const MAX_SEED_CARRIER: usize = 64;

pub use super::seed_select::MAX_PUBLISHED_SEED_CARRIER;

/// The seed of one record: one goal stone, a VC, an edge frame; `None` otherwise.
pub fn seed_of(r: &Record) -> Option<SeedTemplate> {
    if r.frame != Frame::Edge || r.claim != ClaimTag::Vc || r.stones.is_empty() {
        return None;
    }
    Some(SeedTemplate {
        name: r.name.clone(),
        anchor: r.stones[0],
        helpers: r.stones[1..].to_vec(),
        carrier: r.carrier.clone(),
    })
}

/// Seeds for `records` whose certificates the kernel accepts and whose carrier has at most
/// `max_carrier` cells, each with its mirror image (a symmetric template gives the same
/// instances twice; they are deduplicated on placement).
pub fn certified_seeds(records: &[Record], max_carrier: usize) -> Vec<SeedTemplate> {
    let mut out = Vec::new();
    for r in records {
        if r.carrier.len() > max_carrier {
            continue;
        }
        let Some(s) = seed_of(r) else { continue };
        if verify_record(r).is_err() {
            continue;
        }
        out.push(s.mirrored());
        out.push(s);
    }
    out
}

static LIBRARY_SEEDS: OnceLock<Vec<SeedTemplate>> = OnceLock::new();

/// [`library_seeds`] if it has already been computed in this process, without waiting: `None`
/// before (and while) the first call re-checks the certificates (about 0.4 s of CPU), so that
/// a caller under a clock (the players) need not pay for it in one move.
pub fn library_seeds_if_ready() -> Option<&'static [SeedTemplate]> {
    LIBRARY_SEEDS.get().map(Vec::as_slice)
}

/// [`certified_seeds`] of the embedded library with [`MAX_SEED_CARRIER`], computed once per
/// process.
pub fn library_seeds() -> &'static [SeedTemplate] {
    LIBRARY_SEEDS.get_or_init(|| {
        let mut records = super::builtin::records();
        records.extend(parse_seed_records(super::builtin::PUBLISHED_SEEDS));
        certified_seeds(&records, MAX_SEED_CARRIER)
    })
}

/// The records of a JSON array of records (as `build.rs` writes [`super::builtin::PUBLISHED_SEEDS`]);
/// an element that is not a record is skipped, a text that is not an array gives none.
fn parse_seed_records(array: &str) -> Vec<Record> {
    serde_json::from_str::<Vec<&serde_json::value::RawValue>>(array)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|raw| serde_json::from_str::<Record>(raw.get()).ok())
        .collect()
}

/// The records of `published.json` (text `text`) that may seed the engine
/// ([`super::seed_select::seed_record_texts`]: one goal stone, not in the library, at most
/// [`MAX_PUBLISHED_SEED_CARRIER`] cells). Not yet checked: [`certified_seeds`] re-checks every
/// certificate. A file that does not parse gives none (`templates verify` reports it).
pub fn published_seed_records(text: &str) -> Vec<Record> {
    super::seed_select::seed_record_texts(text)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|raw| serde_json::from_str::<Record>(raw).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_gives_seeds_with_helper_stones() {
        let s = library_seeds();
        assert!(s.len() >= 200, "{} seeds", s.len());
        assert!(s.iter().any(|t| !t.helpers.is_empty()));
        assert!(s.iter().all(|t| t.carrier.len() <= MAX_SEED_CARRIER));
    }

    #[test]
    fn the_published_templates_outside_the_library_are_seeds() {
        let recs = published_seed_records(super::super::builtin::published_text());
        // The seeds embedded by build.rs are exactly these records.
        assert_eq!(
            parse_seed_records(super::super::builtin::PUBLISHED_SEEDS),
            recs
        );
        // 94 of the 205 published templates at the time of writing: they hold, have one goal
        // stone, are not in the library, and have at most 32 cells.
        assert!(recs.len() >= 90, "{} published seeds", recs.len());
        assert!(recs
            .iter()
            .all(|r| r.carrier.len() <= MAX_PUBLISHED_SEED_CARRIER));
        // Every one passes the kernel (none is dropped by the re-check) and is in the seeds.
        assert_eq!(certified_seeds(&recs, usize::MAX).len(), 2 * recs.len());
        let names: std::collections::HashSet<&str> =
            library_seeds().iter().map(|s| s.name.as_str()).collect();
        assert!(recs.iter().all(|r| names.contains(r.name.as_str())));
        // A file that does not parse gives no seeds rather than a panic.
        assert!(published_seed_records("{not json").is_empty());
        assert!(parse_seed_records("{not json").is_empty());
    }

    #[test]
    fn a_tampered_record_is_not_a_seed() {
        let mut recs = super::super::builtin::records();
        recs.retain(|r| seed_of(r).is_some() && r.carrier.len() > 2);
        recs.truncate(3);
        assert_eq!(certified_seeds(&recs, usize::MAX).len(), 6);
        // Drop a carrier cell: the certificate no longer proves the claim.
        for r in &mut recs {
            r.carrier.pop();
        }
        assert!(certified_seeds(&recs, usize::MAX).is_empty());
    }
}
