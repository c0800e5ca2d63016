//! Edge templates with helper stones: the goal stone at `[K, 0]` and one helper stone (two
//! stones) or two (three stones) of the owner somewhere in the region, on rows no further from
//! the edge than the goal stone (so the template's row is K, HexWiki's convention: the goal
//! stone is the highest one).
//!
//! # What is enumerated
//!
//! For each helper set `H` of the region (`n` distinct cells on rows 1..=K, one set per mirror
//! pair: the canonical one is the smaller of `H` and its mirror image, both sorted; the mirror
//! maps the problem for `H` onto the problem for its image), `f_H(S)` = "the owner, with stones
//! at `[K, 0]` and on `H`, connects `[K, 0]` to the edge on carrier `S`, the opponent moving
//! first" is monotone, and its minimal sets in `region ∖ H` are enumerated by the
//! dualize-and-advance loop of [`super`].
//!
//! A minimal set `S` of `f_H` is a **template with `n + 1` stones** when every helper is
//! *essential*: for each `h ∈ H`, `f_{H∖{h}}(S ∪ {h})` fails, i.e. with `h` an empty cell
//! instead of a stone the other stones do not reach the edge on those cells. Otherwise a
//! template with fewer stones lies in `S ∪ {h}` and `(H, S)` is only that template with a
//! stone on it, which the library already holds in spirit; such sets are counted but not
//! shipped. (Turning a stone into an empty cell only helps the opponent, so testing each
//! helper alone covers removing several.) Every verdict comes from the exact search.
//!
//! The enumeration of a region is complete when the enumeration for every helper set is
//! complete and every essential-helper test was decided.
//!
//! The helper sets run in parallel (rayon; each set's rounds are parallel too), each with its
//! own checkpoint (`DIR/rowKs2-hR_C.checkpoint` for one helper,
//! `DIR/rowKs3-hR_C-hR_C.checkpoint` for two, [`helper_set_checkpoint`]), so an interrupted run
//! resumes helper set by helper set.

use super::{certified_record, enumerate, EnumerateError, Enumeration, GenOptions, Grid};
use crate::edge_template::Rc;
use crate::local::{decide, Budget, Verdict};
use crate::templates::library::{canonical_template, mirror, LibraryFile, MinimalityTag, Region};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What the enumeration for one helper set found.
#[derive(Clone, Debug)]
pub struct HelperRun {
    /// The helper stones (sorted; the canonical side of their mirror pair).
    pub helpers: Vec<Rc>,
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

/// The result of [`enumerate_two_stone`] or [`enumerate_stones`].
#[derive(Clone, Debug)]
pub struct TwoStoneRun {
    /// Stones per template (the goal stone and the helpers): 2 or 3.
    pub stones: usize,
    /// One entry per canonical helper set.
    pub helpers: Vec<HelperRun>,
    /// True when every helper's enumeration and every essential-helper test was decided.
    pub complete: bool,
    /// True for [`seed_two_stone`]: the records come from seeds.
    pub seeded: bool,
}

/// The helper positions of a region: its cells on rows 1..=`row`, one per mirror pair (the
/// smaller of the cell and its image), sorted.
pub fn helper_positions(region: &Grid) -> Vec<Rc> {
    helper_sets(region, 1).into_iter().map(|s| s[0]).collect()
}

/// The helper sets of `n` stones of a region: sets of `n` distinct cells on rows 1..=`row`,
/// each sorted, one per mirror pair (the smaller of the sorted set and its sorted image),
/// sorted. For `n = 1` the sets of [`helper_positions`].
pub fn helper_sets(region: &Grid, n: usize) -> Vec<Vec<Rc>> {
    let low: Vec<Rc> = region
        .cells
        .iter()
        .copied()
        .filter(|rc| rc[0] <= region.row)
        .collect();
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(n);
    subsets(&low, n, 0, &mut pick, &mut |set| {
        let mut image: Vec<Rc> = set.iter().map(|&rc| mirror(rc, region.row)).collect();
        image.sort_unstable();
        out.push(image.min(set.to_vec()));
    });
    out.sort_unstable();
    out.dedup();
    out
}

/// Calls `f` on every `n`-subset of `cells[from..]` added to `pick` (in index order).
fn subsets(cells: &[Rc], n: usize, from: usize, pick: &mut Vec<Rc>, f: &mut impl FnMut(&[Rc])) {
    if pick.len() == n {
        f(pick);
        return;
    }
    for i in from..cells.len() {
        pick.push(cells[i]);
        subsets(cells, n, i + 1, pick, f);
        pick.pop();
    }
}

/// Checkpoint file of one helper position (two stones).
pub fn helper_checkpoint(dir: &Path, row: i32, helper: Rc) -> PathBuf {
    helper_set_checkpoint(dir, row, &[helper])
}

/// Checkpoint file of one helper set: `rowKsN-hR_C[-hR_C].checkpoint`, N the stones per
/// template.
pub fn helper_set_checkpoint(dir: &Path, row: i32, helpers: &[Rc]) -> PathBuf {
    let hs: String = helpers
        .iter()
        .map(|h| format!("-h{}_{}", h[0], h[1]))
        .collect();
    dir.join(format!("row{row}s{}{hs}.checkpoint", helpers.len() + 1))
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
    enumerate_stones(region, 2, opts, checkpoint_dir)
}

/// Enumerates the templates of `stones` stones (2 or 3: the goal stone and `stones − 1`
/// helpers) of `region` (a one-stone grid: no helpers) for every canonical helper set of
/// [`helper_sets`] (see the module docs); checkpoints as for [`enumerate_two_stone`], one per
/// helper set ([`helper_set_checkpoint`]).
pub fn enumerate_stones(
    region: &Grid,
    stones: usize,
    opts: &GenOptions,
    checkpoint_dir: Option<&Path>,
) -> Result<TwoStoneRun, EnumerateError> {
    if !(2..=3).contains(&stones) {
        return Err(EnumerateError::Stones(stones));
    }
    enumerate_helper_sets(
        region,
        opts,
        checkpoint_dir,
        &helper_sets(region, stones - 1),
    )
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
    let sets: Vec<Vec<Rc>> = positions.iter().map(|&h| vec![h]).collect();
    enumerate_helper_sets(region, opts, checkpoint_dir, &sets)
}

/// The enumeration for the helper sets `sets` (canonical ones of [`helper_sets`], all of one
/// size, in that order).
fn enumerate_helper_sets(
    region: &Grid,
    opts: &GenOptions,
    checkpoint_dir: Option<&Path>,
    sets: &[Vec<Rc>],
) -> Result<TwoStoneRun, EnumerateError> {
    if !region.helpers.is_empty() {
        return Err(EnumerateError::HelpersPresent);
    }
    let stones = sets.first().map_or(2, |s| s.len() + 1);
    let bar = if opts.progress {
        let b = indicatif::ProgressBar::new(sets.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "row {msg} [{elapsed_precise}] {bar:30} {pos}/{len} helper sets",
            )
            .expect("a valid template"),
        );
        b.set_message(format!(
            "{} {}x{}, {stones} stones",
            region.row, region.height, region.width
        ));
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let runs: Vec<Result<HelperRun, EnumerateError>> = sets
        .par_iter()
        .map(|hs| {
            let start = Instant::now();
            let grid = Grid::with_helpers(region.row, region.cells.clone(), hs.clone())?;
            let mut o = opts.clone();
            o.progress = false;
            o.seeds = Vec::new();
            o.checkpoint = checkpoint_dir.map(|d| helper_set_checkpoint(d, region.row, hs));
            let en = enumerate(&grid, &o)?;
            let (templates, inessential, undecided) =
                essential(region, &grid, &en, &opts.budget, hs);
            bar.inc(1);
            Ok(HelperRun {
                helpers: hs.clone(),
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
        stones,
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
        let (templates, inessential, undecided) =
            essential(region, &grid, &en, &opts.budget, &[*h]);
        let open_en = Enumeration {
            minimal: en.unsettled.clone(),
            ..en.clone()
        };
        let (open, open_inessential, open_undecided) =
            essential(region, &grid, &open_en, &opts.budget, &[*h]);
        helpers.push(HelperRun {
            helpers: vec![*h],
            enumeration: en,
            templates,
            inessential: inessential + open_inessential,
            undecided: undecided + open_undecided,
            open,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Ok(TwoStoneRun {
        stones: 2,
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
    helpers_essential(region, &[h], carrier, budget)
}

/// Whether every helper of `helpers` is essential to the carrier `carrier` (edge-relative
/// cells of the one-stone `region`, which must hold the helpers and the carrier): for each
/// helper `h`, the exact search on `carrier ∪ {h}` with the goal stone and the other helpers
/// as stones. `Some(true)` when every such search fails, `Some(false)` when one holds (a
/// template with fewer stones lies inside), `None` when one is over budget and none holds.
pub fn helpers_essential(
    region: &Grid,
    helpers: &[Rc],
    carrier: &[Rc],
    budget: &Budget,
) -> Option<bool> {
    let mut all = Some(true);
    for (i, h) in helpers.iter().enumerate() {
        let others: Vec<Rc> = helpers
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &x)| x)
            .collect();
        let grid = if others.is_empty() {
            region.clone()
        } else {
            Grid::with_helpers(region.row, region.cells.clone(), others).ok()?
        };
        let mut mask = 0u128;
        for rc in carrier.iter().chain(std::iter::once(h)) {
            mask |= 1 << grid.cells.iter().position(|x| x == rc)?;
        }
        match decide(&grid.game(mask), budget) {
            Ok(o) if o.verdict == Verdict::Fails => {}
            Ok(o) if o.verdict == Verdict::Holds => return Some(false),
            _ => all = None,
        }
    }
    all
}

/// Splits the minimal carriers of one helper set into those with every helper essential
/// (returned, edge-relative and sorted) and those without (counted), by
/// [`helpers_essential`]. Undecided tests are counted and their sets left out.
fn essential(
    region: &Grid,
    grid: &Grid,
    en: &Enumeration,
    budget: &Budget,
    hs: &[Rc],
) -> (Vec<Vec<Rc>>, usize, usize) {
    let mut keep = Vec::new();
    let (mut inessential, mut undecided) = (0, 0);
    for &m in &en.minimal {
        let cells = grid.rcs(m);
        match helpers_essential(region, hs, &cells, budget) {
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
            let mut stones = vec![[region.row, 0]];
            stones.extend(&hr.helpers);
            let (stones, carrier, _) = canonical_template(&stones, carrier, region.row);
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
    let mut names = std::collections::BTreeSet::new();
    if let Some(r) = templates.iter().find(|r| !names.insert(r.name.as_str())) {
        return Err(EnumerateError::DuplicateName(r.name.clone()));
    }
    Ok(LibraryFile {
        row: region.row,
        stones: run.stones,
        region: reg,
        complete: run.complete,
        templates,
    })
}
