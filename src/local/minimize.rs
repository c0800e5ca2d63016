//! Carrier minimisation: a carrier from which no single cell can be removed, and whether it
//! is also of minimum size.
//!
//! Minimal: start from the proof set of a win on the region and drop cells one at a time,
//! keeping a drop whenever the claim still holds (then continuing from the new, possibly
//! smaller, proof set). By monotonicity a cell that could not be dropped from a larger carrier
//! cannot be dropped from a smaller one, so one pass gives a minimal carrier.
//!
//! Minimum: a carrier with fewer cells exists iff some subset of the region with exactly
//! `k − 1` cells works (monotonicity again: any smaller working carrier extends to one of that
//! size). So it suffices to try every `(k−1)`-subset, skipping those in which the owner cannot
//! join any pair even owning every cell.

use super::{decide, Budget, Outcome, Verdict};
use crate::board::{Cell, CellSet};
use crate::claim::{ClaimError, SubGame};
use serde::Serialize;

/// Whether the minimal carrier is also minimum.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Minimality {
    /// No carrier inside the region has fewer cells.
    Minimum,
    /// A smaller carrier exists elsewhere in the region (minimal, not minimum).
    MinimalOnly,
    /// The subset enumeration was over budget.
    Unknown,
}

/// What [`minimize`] found.
#[derive(Clone, Debug)]
pub struct MinimizeReport {
    /// The verdict on the whole region.
    pub region_verdict: Verdict,
    /// A minimal carrier (when the claim holds on the region).
    pub carrier: Option<CellSet>,
    /// The outcome on that carrier (certificate and kernel acceptance).
    pub outcome: Option<Outcome>,
    /// Minimum or not.
    pub minimality: Minimality,
    /// A smaller carrier found by the minimum check, if any.
    pub smaller: Option<CellSet>,
    /// Searches run.
    pub searches: u64,
}

/// Largest number of subsets tried for the minimum check.
pub const MAX_SUBSETS: u64 = 2_000_000;

/// Finds a minimal carrier for `game`'s claim inside `game`'s carrier (the region).
pub fn minimize(game: &SubGame, budget: &Budget) -> Result<MinimizeReport, ClaimError> {
    minimize_with(game, budget, MAX_SUBSETS)
}

/// [`minimize`] with a bound on the subsets tried by the minimum check (0 skips it).
pub fn minimize_with(
    game: &SubGame,
    budget: &Budget,
    max_subsets: u64,
) -> Result<MinimizeReport, ClaimError> {
    let mut searches = 1;
    let region = game.carrier();
    let first = decide(game, budget)?;
    if first.verdict != Verdict::Holds {
        return Ok(MinimizeReport {
            region_verdict: first.verdict,
            carrier: None,
            outcome: Some(first),
            minimality: Minimality::Unknown,
            smaller: None,
            searches,
        });
    }
    let mut carrier = first.proof_set;
    let mut best = first;
    // Try dropping cells far from the endpoints first (they are the likeliest to be spare).
    let mut tried = CellSet::EMPTY;
    while let Some(c) = pick(game, carrier - tried) {
        tried.insert(c);
        let mut smaller = carrier;
        smaller.remove(c);
        let g2 = game.with_carrier(smaller)?;
        let o = decide(&g2, budget)?;
        searches += 1;
        match o.verdict {
            Verdict::Holds => {
                carrier = o.proof_set;
                best = o;
            }
            Verdict::Fails => {}
            Verdict::Undecided => {
                return Ok(MinimizeReport {
                    region_verdict: Verdict::Holds,
                    carrier: Some(carrier),
                    outcome: Some(best),
                    minimality: Minimality::Unknown,
                    smaller: None,
                    searches,
                })
            }
        }
    }
    // `best` was decided on a superset of `carrier` possibly; decide on it exactly.
    let g2 = game.with_carrier(carrier)?;
    let best = decide(&g2, budget)?;
    searches += 1;
    let (minimality, smaller, n) = minimum_check(game, region, carrier.len(), budget, max_subsets)?;
    searches += n;
    Ok(MinimizeReport {
        region_verdict: Verdict::Holds,
        carrier: Some(carrier),
        outcome: Some(best),
        minimality,
        smaller,
        searches,
    })
}

/// The cell of `cands` farthest (in index order, last) — deterministic and cheap.
fn pick(_game: &SubGame, cands: CellSet) -> Option<Cell> {
    cands.iter().last()
}

fn minimum_check(
    game: &SubGame,
    region: CellSet,
    k: usize,
    budget: &Budget,
    max_subsets: u64,
) -> Result<(Minimality, Option<CellSet>, u64), ClaimError> {
    if k == 0 {
        return Ok((Minimality::Minimum, None, 0));
    }
    let cells: Vec<Cell> = region.iter().collect();
    let m = k - 1;
    if binomial(cells.len() as u64, m as u64) > max_subsets {
        return Ok((Minimality::Unknown, None, 0));
    }
    let mut searches = 0;
    let mut idx: Vec<usize> = (0..m).collect();
    let full = super::cells::Local::new(game)?;
    loop {
        let subset: CellSet = idx.iter().map(|&i| cells[i]).collect();
        // Cheap filter: the owner must at least be able to join a pair owning all of it.
        // Cheap necessary conditions: the owner can join a pair owning all of it, and, when
        // the opponent moves first, still can after losing any single cell of it.
        let mask = full.from_cells(&subset);
        let viable = full.joined(mask)
            && (game.claim().owner_first
                || super::cells::bits(mask).all(|x| full.joined(mask & !(1 << x))));
        if viable || m == 0 {
            let g2 = game.with_carrier(subset)?;
            let o = decide(&g2, budget)?;
            searches += 1;
            match o.verdict {
                Verdict::Holds => return Ok((Minimality::MinimalOnly, Some(subset), searches)),
                Verdict::Undecided => return Ok((Minimality::Unknown, None, searches)),
                Verdict::Fails => {}
            }
        }
        // Next combination.
        let mut i = m;
        loop {
            if i == 0 {
                return Ok((Minimality::Minimum, None, searches));
            }
            i -= 1;
            if idx[i] != i + cells.len() - m {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..m {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r: u64 = 1;
    for i in 0..k.min(n - k) {
        r = r.saturating_mul(n - i) / (i + 1);
    }
    r
}
