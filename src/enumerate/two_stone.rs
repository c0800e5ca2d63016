//! Two-stone edge templates: the goal stone at `[K, 0]` and one helper stone of the owner
//! somewhere in the region, on a row no further from the edge than the goal stone (so the
//! template's row is K, HexWiki's convention: the goal stone is the highest one).
//!
//! # What is enumerated
//!
//! For each helper position `h` of the region (one per mirror pair: the canonical one is the
//! smaller of `h` and its mirror image; the mirror maps the problem for `h` onto the problem
//! for its image), `f_h(S)` = "the owner, with stones at `[K, 0]` and `h`, connects `[K, 0]` to
//! the edge on carrier `S`, the opponent moving first" is monotone, and its minimal sets in
//! `region ∖ {h}` are enumerated by the dualize-and-advance loop of [`super`].
//!
//! A minimal set `S` of `f_h` is a **two-stone template** when the helper is *essential*:
//! `f_1(S ∪ {h})` fails, i.e. with `h` an empty cell instead of a stone the goal stone alone
//! does not reach the edge on those cells. Otherwise `S ∪ {h}` holds a one-stone template and
//! `(h, S)` is only that template with a stone on it, which the library already holds in
//! spirit; such sets are counted but not shipped. Both verdicts come from the exact search.
//!
//! The enumeration of a region is complete when the enumeration for every helper position is
//! complete and every essential-helper test was decided.
//!
//! The helpers run in parallel (rayon; each helper's rounds are parallel too), each with its
//! own checkpoint `DIR/rowKs2-hR_C.checkpoint`, so an interrupted run resumes helper by helper.

use super::{certified_record, enumerate, EnumerateError, Enumeration, GenOptions, Grid};
use crate::edge_template::Rc;
use crate::local::{decide, Budget, Verdict};
use crate::templates::library::{canonical_template, mirror, LibraryFile, MinimalityTag, Region};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What the enumeration for one helper position found.
#[derive(Clone, Debug)]
pub struct HelperRun {
    /// The helper stone (canonical side of its mirror pair).
    pub helper: Rc,
    /// The enumeration of `f_h` (masks over the helper grid's cells).
    pub enumeration: Enumeration,
    /// Minimal carriers with an essential helper (edge-relative, sorted).
    pub templates: Vec<Vec<Rc>>,
    /// Minimal carriers whose helper is not essential (a one-stone template lies in `S ∪ {h}`).
    pub inessential: usize,
    /// Essential-helper tests that were undecided.
    pub undecided: usize,
    /// Seeds (only with [`GenOptions::seeds_only`]) that hold with an essential helper but
    /// whose minimality stayed undecided (edge-relative, sorted): shipped as `unknown`.
    pub open: Vec<Vec<Rc>>,
    /// Wall seconds.
    pub seconds: f64,
}

/// The result of [`enumerate_two_stone`].
#[derive(Clone, Debug)]
pub struct TwoStoneRun {
    /// One entry per canonical helper position.
    pub helpers: Vec<HelperRun>,
    /// True when every helper's enumeration and every essential-helper test was decided.
    pub complete: bool,
    /// True for [`seed_two_stone`]: the records come from seeds.
    pub seeded: bool,
}

/// The helper positions of a region: its cells on rows 1..=`row`, one per mirror pair (the
/// smaller of the cell and its image), sorted.
pub fn helper_positions(region: &Grid) -> Vec<Rc> {
    let mut v: Vec<Rc> = region
        .cells
        .iter()
        .filter(|rc| rc[0] <= region.row)
        .map(|&rc| rc.min(mirror(rc, region.row)))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Checkpoint file of one helper position.
pub fn helper_checkpoint(dir: &Path, row: i32, helper: Rc) -> PathBuf {
    dir.join(format!(
        "row{row}s2-h{}_{}.checkpoint",
        helper[0], helper[1]
    ))
}

/// Enumerates the two-stone templates of `region` (a one-stone grid: no helpers) for every
/// canonical helper position (see the module docs). `opts.checkpoint` is ignored; with
/// `checkpoint_dir` each helper checkpoints to [`helper_checkpoint`]. `opts.progress` shows
/// one bar over the helper positions.
pub fn enumerate_two_stone(
    region: &Grid,
    opts: &GenOptions,
    checkpoint_dir: Option<&Path>,
) -> Result<TwoStoneRun, EnumerateError> {
    enumerate_helpers(region, opts, checkpoint_dir, &helper_positions(region))
}

/// [`enumerate_two_stone`] for the helper positions `positions` only (canonical ones, from
/// [`helper_positions`]), in that order: one shard of the region's work
/// (`templates generate --shard`). Each helper's enumeration is independent of the others,
/// so the runs of disjoint shards put together in [`helper_positions`] order are the run of
/// the whole region.
pub fn enumerate_helpers(
    region: &Grid,
    opts: &GenOptions,
    checkpoint_dir: Option<&Path>,
    positions: &[Rc],
) -> Result<TwoStoneRun, EnumerateError> {
    if !region.helpers.is_empty() {
        return Err(EnumerateError::HelpersPresent);
    }
    let bar = if opts.progress {
        let b = indicatif::ProgressBar::new(positions.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "row {msg} [{elapsed_precise}] {bar:30} {pos}/{len} helper positions",
            )
            .expect("a valid template"),
        );
        b.set_message(format!(
            "{} {}x{}, two stones",
            region.row, region.height, region.width
        ));
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let runs: Vec<Result<HelperRun, EnumerateError>> = positions
        .par_iter()
        .map(|&h| {
            let start = Instant::now();
            let grid = Grid::with_helpers(region.row, region.cells.clone(), vec![h])?;
            let mut o = opts.clone();
            o.progress = false;
            o.seeds = Vec::new();
            o.checkpoint = checkpoint_dir.map(|d| helper_checkpoint(d, region.row, h));
            let en = enumerate(&grid, &o)?;
            let (templates, inessential, undecided) =
                essential(region, &grid, &en, &opts.budget, h);
            bar.inc(1);
            Ok(HelperRun {
                helper: h,
                enumeration: en,
                templates,
                inessential,
                undecided,
                open: Vec::new(),
                seconds: start.elapsed().as_secs_f64(),
            })
        })
        .collect();
    bar.finish_and_clear();
    let helpers = runs.into_iter().collect::<Result<Vec<_>, _>>()?;
    let complete = helpers
        .iter()
        .all(|r| r.enumeration.complete && r.undecided == 0);
    Ok(TwoStoneRun {
        helpers,
        complete,
        seeded: false,
    })
}

/// Checkpoint file of one two-stone seed's helper position ([`seed_two_stone`]).
pub fn seed_checkpoint(dir: &Path, row: i32, helper: Rc) -> PathBuf {
    dir.join(format!(
        "row{row}s2-seed-h{}_{}.checkpoint",
        helper[0], helper[1]
    ))
}

/// Certifies known two-stone templates (HexWiki's, as seeds: `(helper, carrier)` in the
/// region's coordinates) in a region too large to enumerate, the way `--seeds-only` does for
/// one stone ([`super::enumerate`] with [`GenOptions::seeds_only`]): each seed is
/// decided by exact search on the grid with its helper stone, its one-cell removals are
/// searched (all fail: minimal; one holds: shrunk on to a minimal carrier; some undecided:
/// minimality open), and the helper must be essential ([`helper_essential`]). The run is
/// never complete (nothing is enumerated).
pub fn seed_two_stone(
    region: &Grid,
    seeds: &[(Rc, Vec<Rc>)],
    opts: &GenOptions,
    checkpoint_dir: Option<&Path>,
) -> Result<TwoStoneRun, EnumerateError> {
    if !region.helpers.is_empty() {
        return Err(EnumerateError::HelpersPresent);
    }
    let mut helpers = Vec::new();
    for (h, carrier) in seeds {
        let start = Instant::now();
        let grid = Grid::with_helpers(region.row, region.cells.clone(), vec![*h])?;
        let mut o = opts.clone();
        o.progress = false;
        o.seeds = vec![carrier.clone()];
        o.seeds_only = true;
        o.checkpoint = checkpoint_dir.map(|d| seed_checkpoint(d, region.row, *h));
        let en = enumerate(&grid, &o)?;
        let (templates, inessential, undecided) = essential(region, &grid, &en, &opts.budget, *h);
        let open_en = Enumeration {
            minimal: en.unsettled.clone(),
            ..en.clone()
        };
        let (open, open_inessential, open_undecided) =
            essential(region, &grid, &open_en, &opts.budget, *h);
        helpers.push(HelperRun {
            helper: *h,
            enumeration: en,
            templates,
            inessential: inessential + open_inessential,
            undecided: undecided + open_undecided,
            open,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Ok(TwoStoneRun {
        helpers,
        complete: false,
        seeded: true,
    })
}

/// Whether helper `h` is essential to the two-stone carrier `carrier` (edge-relative cells of
/// the one-stone `region`, which must hold `h` and the carrier): `Some(true)` when the exact
/// search says the goal stone alone loses on `carrier ∪ {h}`, `Some(false)` when it wins there
/// (a one-stone template lies inside), `None` when the search is over budget.
pub fn helper_essential(region: &Grid, h: Rc, carrier: &[Rc], budget: &Budget) -> Option<bool> {
    let mut mask = 0u128;
    for rc in carrier.iter().chain(std::iter::once(&h)) {
        mask |= 1 << region.cells.iter().position(|x| x == rc)?;
    }
    match decide(&region.game(mask), budget) {
        Ok(o) if o.verdict == Verdict::Fails => Some(true),
        Ok(o) if o.verdict == Verdict::Holds => Some(false),
        _ => None,
    }
}

/// Splits the minimal carriers of one helper into those with an essential helper (returned,
/// edge-relative and sorted) and those without (counted), by [`helper_essential`].
/// Undecided tests are counted and their sets left out.
fn essential(
    region: &Grid,
    grid: &Grid,
    en: &Enumeration,
    budget: &Budget,
    h: Rc,
) -> (Vec<Vec<Rc>>, usize, usize) {
    let mut keep = Vec::new();
    let (mut inessential, mut undecided) = (0, 0);
    for &m in &en.minimal {
        let cells = grid.rcs(m);
        match helper_essential(region, h, &cells, budget) {
            Some(true) => keep.push(cells),
            Some(false) => inessential += 1,
            None => undecided += 1,
        }
    }
    (keep, inessential, undecided)
}

/// Turns a two-stone run into a library file: one certified record per template class
/// ([`certified_record`]), sorted by carrier size, then stones and carrier. Minimality is
/// `minimal` (inclusion-minimal for its stones, helper essential), or `unknown` for a seed
/// whose one-cell removals were not all decided.
pub fn build_two_stone_file(
    region: &Grid,
    run: &TwoStoneRun,
    budget: &Budget,
) -> Result<LibraryFile, EnumerateError> {
    // Value: whether the minimality is settled (an open seed never overrides a minimal one).
    let mut classes: BTreeMap<(usize, Vec<Rc>, Vec<Rc>), bool> = BTreeMap::new();
    for hr in &run.helpers {
        let all = hr.templates.iter().map(|c| (c, true));
        for (carrier, settled) in all.chain(hr.open.iter().map(|c| (c, false))) {
            let (stones, carrier, _) =
                canonical_template(&[[region.row, 0], hr.helper], carrier, region.row);
            *classes
                .entry((carrier.len(), stones, carrier))
                .or_insert(settled) |= settled;
        }
    }
    let reg = Region {
        height: region.height,
        width: region.width,
    };
    let source = if run.seeded {
        "generated-from-seed"
    } else {
        "generated"
    };
    let templates = classes
        .into_iter()
        .map(|((_, stones, carrier), settled)| {
            certified_record(
                region.row,
                stones,
                carrier,
                if settled {
                    MinimalityTag::Minimal
                } else {
                    MinimalityTag::Unknown
                },
                source,
                &reg,
                budget,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LibraryFile {
        row: region.row,
        stones: 2,
        region: reg,
        complete: run.complete,
        templates,
    })
}
