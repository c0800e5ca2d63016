//! The certified library as seeds of the connection engine ([`crate::vc::seed`]): every
//! edge-template record with one goal stone and a VC claim, its certificate re-checked by the
//! kernel ([`super::library::verify_record`]) before it is used, in both mirror images.
//!
//! Henderson, Arneson & Hayward (2009, §2) build their connections from precomputed edge
//! patterns as well as the AND/OR rules; Benzene's solver loses most of its strength without
//! them (7×7 a3: 3 660 connection builds with, 16 902 without, measured in BENCHMARKS.md).
//! Here the patterns are the library's own templates, each with its proof, so a seeded
//! connection is as sound as the kernel.

use super::library::{verify_record, ClaimTag, Frame, Record};
use crate::vc::seed::SeedTemplate;
use std::sync::OnceLock;

/// Most carrier cells of a library template used as a seed: larger ones rarely fit a
/// position and cost a check at every build.
pub const MAX_SEED_CARRIER: usize = 64;

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

/// [`certified_seeds`] of the embedded library with [`MAX_SEED_CARRIER`], computed once per
/// process.
pub fn library_seeds() -> &'static [SeedTemplate] {
    static SEEDS: OnceLock<Vec<SeedTemplate>> = OnceLock::new();
    SEEDS.get_or_init(|| certified_seeds(&super::builtin::records(), MAX_SEED_CARRIER))
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
