//! Seeding the connection search with edge templates, as Henderson, Arneson and Hayward seed
//! H-search with precomputed edge connections (Benzene's "pattern VCs"; Pawlewicz et al.
//! §III).
//!
//! A seed is a one-stone edge template in HexWiki's edge-relative coordinates (see
//! `tests/fixtures/edge-templates-hexwiki.README.md`): the anchor cell and the carrier. It is
//! placed at every offset along each of the owner's borders, in both mirror images. An
//! instance applies to a position when no opponent stone lies on the anchor or the carrier;
//! it then gives the VC (anchor's endpoint, carrier − owner stones, border), true by
//! monotonicity (extra owner stones never hurt).
//!
//! The list of templates is a parameter ([`super::VcParams::seeds`]), so the certified
//! library of issue 4 can replace the HexWiki transcription without touching the search.
//! Soundness does not rest on the list being right: `tests/search/vc_soundness.rs` confirms every
//! connection the engine reports, seeded ones included, with the exact search.

use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::edge_template::EdgeTemplate;
use crate::position::Position;
use std::collections::HashSet;

/// The HexWiki transcription (tests/fixtures/edge-templates-hexwiki.json, from
/// https://www.hexwiki.net/ Category:Edge_templates; see the README next to it).
const HEXWIKI_JSON: &str = include_str!("../../tests/fixtures/edge-templates-hexwiki.json");

/// The HexWiki one-stone templates of rows 2–4 used by default.
pub const DEFAULT_SEED_NAMES: [&str; 5] = ["II", "III1a", "III1b", "IV1a", "IV1b"];

/// A one-stone edge template usable as a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedTemplate {
    /// Name (with `'` appended for the mirror image).
    pub name: String,
    /// The stone, `[row, col]`, row 1 touching the edge.
    pub anchor: [i32; 2],
    /// The owner's other stones the template needs (none for a one-stone template): an
    /// instance applies only where they are all the owner's stones.
    pub helpers: Vec<[i32; 2]>,
    /// The empty cells.
    pub carrier: Vec<[i32; 2]>,
}

impl SeedTemplate {
    /// The seed of a template with one goal stone (its other stones are helpers); `None`
    /// for a union template (several goal stones).
    pub fn from_edge_template(t: &EdgeTemplate) -> Option<SeedTemplate> {
        if t.goal_stones.len() != 1 {
            return None;
        }
        let anchor = t.goal_stones[0];
        Some(SeedTemplate {
            name: t.name.clone(),
            anchor,
            helpers: t.stones.iter().copied().filter(|&c| c != anchor).collect(),
            carrier: t.carrier.clone(),
        })
    }

    /// The mirror image along the edge: `[r, c] ↦ [r, −c − r]` (it keeps the distance to the
    /// edge and hex adjacency).
    pub fn mirrored(&self) -> SeedTemplate {
        let m = |[r, c]: [i32; 2]| [r, -c - r];
        SeedTemplate {
            name: format!("{}'", self.name),
            anchor: m(self.anchor),
            helpers: self.helpers.iter().copied().map(m).collect(),
            carrier: self.carrier.iter().copied().map(m).collect(),
        }
    }
}

/// Seeds for the named one-stone templates of `templates`, each with its mirror image (a
/// symmetric template yields the same instances twice; they are deduplicated on placement).
pub fn seeds_from(templates: &[EdgeTemplate], names: &[&str]) -> Vec<SeedTemplate> {
    let mut out = Vec::new();
    for name in names {
        if let Some(s) = templates
            .iter()
            .find(|t| t.name == *name)
            .and_then(SeedTemplate::from_edge_template)
        {
            out.push(s.mirrored());
            out.push(s);
        }
    }
    out
}

/// The default seeds: HexWiki's II, III1a, III1b, IV1a and IV1b, both mirror images.
pub fn default_seeds() -> Vec<SeedTemplate> {
    let all = EdgeTemplate::parse_list(HEXWIKI_JSON).expect("the embedded fixture parses");
    seeds_from(&all, &DEFAULT_SEED_NAMES)
}

/// A seed placed on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeedInstance {
    /// The template's stone.
    pub anchor: Cell,
    /// The border it connects to.
    pub border: Border,
    /// The owner's stones it needs besides the anchor.
    pub helpers: CellSet,
    /// Its empty cells.
    pub carrier: CellSet,
}

/// Every placement of `seeds` along the borders of `colour` that fits on `board`.
pub fn instances(board: &Board, colour: Colour, seeds: &[SeedTemplate]) -> Vec<SeedInstance> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let span = board.cols().max(board.rows()) as i32;
    for border in colour.borders() {
        for seed in seeds {
            'offset: for offset in -2 * span..=3 * span {
                let Some(anchor) = EdgeTemplate::cell_at(board, border, offset, seed.anchor) else {
                    continue;
                };
                let mut cells = [CellSet::EMPTY, CellSet::EMPTY];
                for (set, list) in cells.iter_mut().zip([&seed.carrier, &seed.helpers]) {
                    for rc in list {
                        match EdgeTemplate::cell_at(board, border, offset, *rc) {
                            Some(c) => {
                                set.insert(c);
                            }
                            None => continue 'offset,
                        }
                    }
                }
                let [carrier, helpers] = cells;
                let inst = SeedInstance {
                    anchor,
                    border,
                    helpers,
                    carrier,
                };
                if seen.insert(inst) {
                    out.push(inst);
                }
            }
        }
    }
    out
}

impl SeedInstance {
    /// The VC this instance gives in `position` for its owner: (anchor, carrier, border) with
    /// the owner's stones taken out of the carrier, or `None` when an opponent stone is in the
    /// way.
    pub fn applies(&self, position: &Position, colour: Colour) -> Option<CellSet> {
        let opp = position.stones(colour.opponent());
        if opp.contains(self.anchor) || !self.carrier.is_disjoint(&opp) {
            return None;
        }
        if !self.helpers.is_subset(&position.stones(colour)) {
            return None;
        }
        Some(self.carrier - position.stones(colour))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_seeds_are_the_five_templates_mirrored() {
        let s = default_seeds();
        assert_eq!(s.len(), 10);
        let iv1a = s.iter().find(|t| t.name == "IV1a").unwrap();
        assert_eq!(iv1a.carrier.len(), 19);
    }

    #[test]
    fn ziggurat_on_the_bottom_of_5x5() {
        let b = Board::square(5).unwrap();
        let s: Vec<_> = default_seeds()
            .into_iter()
            .filter(|t| t.name.starts_with("III1a"))
            .collect();
        let inst = instances(&b, Colour::Black, &s);
        // 8 carrier cells, 4 columns wide on the edge row: it fits at 2 offsets per mirror
        // image per border (at the top: the stone on a3 or b3, mirrored on b3 or c3).
        assert!(inst.iter().all(|i| i.carrier.len() == 8));
        assert_eq!(inst.len(), 2 * 2 * 2);
        for i in &inst {
            let (_, r) = i.anchor.coords();
            assert_eq!(if i.border == Border::Top { r } else { 4 - r }, 2);
        }
    }
}
