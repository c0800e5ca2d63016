//! Two-stone template enumeration as array jobs: `templates generate --stones 2 --shard i/n`
//! and `templates merge DIR…` (docs/cluster.md "Template enumeration as jobs").
//!
//! **The unit of work** is a helper position: the two-stone enumeration runs one independent
//! dualize-and-advance loop per canonical helper position ([`helper_positions`], sorted), and
//! the library file is built from their results alone ([`build_two_stone_file`]). The helper
//! at index k of that order belongs to shard `k mod n + 1` (round-robin, the rule of
//! `solve --openings all --shard`, [`Shard::of`]). The one-stone enumeration is one
//! sequential loop (each round's candidates are the transversals of everything found so far),
//! so it has no such unit and `--shard` refuses it.
//!
//! **A job** enumerates its helpers (no checkpoint files) and writes one result file
//! `DIR/STEM.shard-I-of-N.json` atomically ([`jobs::write_atomic`]), sealed with an FNV-1a
//! checksum ([`jobs::checksum_of`], the record code of `solve --shard`). A re-run replaces it
//! with the same content (only `micros` differs).
//!
//! **The merge** rejects, with a one-line message naming the file: a file that is not a shard
//! record, a bad checksum, a file name that disagrees with its shard, parameters (region,
//! budgets, settings, shard count) that differ from the first file's, helpers not dealt to
//! the shard or missing from it, two copies of a shard (from two folders) that disagree, and
//! missing shards. It then builds the library file exactly as the one-process run does: every
//! record gets its kernel certificate made and verified now, so a template in a shard file is
//! re-proved by the merge; what it cannot re-check is that a shard found *every* minimal
//! carrier of its helpers (completeness is as trusted as the one-process run's).

use super::{fail_input, print_records, write_library_file, MAX_SECONDS};
use hexproof::dfpn::jobs::{self, Shard};
use hexproof::edge_template::Rc;
use hexproof::enumerate::two_stone::{
    build_two_stone_file, enumerate_helpers, helper_positions, HelperRun, TwoStoneRun,
};
use hexproof::enumerate::{Enumeration, GenOptions, Grid};
use hexproof::local::Budget;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The format tag of a shard file.
pub const FORMAT: &str = "hexproof-template-shard v1";

/// Seed of the shard checksum (fixed: part of the file format).
const CHECKSUM_SEED: &[u8] = b"hexproof template-shard v1\n";

/// One helper position's result in a shard file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelperRecord {
    /// The helper stone.
    pub helper: Rc,
    /// The helper's enumeration and essential-helper tests were all decided.
    pub complete: bool,
    /// Minimal carriers with an essential helper (edge-relative, sorted).
    pub templates: Vec<Vec<Rc>>,
    /// Minimal carriers found (both orientations).
    pub minimal: usize,
    /// Minimal carriers whose helper is not essential.
    pub inessential: usize,
    /// Essential-helper tests undecided.
    pub undecided: usize,
    /// Searches, answers without a search, final transversals.
    pub searches: u64,
    /// Questions answered without a search.
    pub saved: u64,
    /// Size of the final transversal family.
    pub transversals: usize,
    /// Wall microseconds (the one field that differs between two runs of a shard).
    pub micros: u64,
}

/// A shard's result file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// [`FORMAT`].
    pub format: String,
    /// Row, region height and width.
    pub row: i32,
    /// Region height.
    pub height: i32,
    /// Region width.
    pub width: i32,
    /// Node budget of each search (rebuilds the certificates' budget in the merge).
    pub nodes: u64,
    /// `--time` as given (Rust's shortest round-trip form of the f64).
    pub time: String,
    /// Every other option that can change an answer.
    pub settings: String,
    /// `i/n`.
    pub shard: String,
    /// The shard's helpers, in [`helper_positions`] order.
    pub helpers: Vec<HelperRecord>,
    /// The hexproof version that wrote it.
    pub version: String,
    /// FNV-1a 64 of the seed and the record without this field.
    #[serde(default)]
    pub fnv64: String,
}

hexproof::sealed_record!(ShardRecord, FORMAT, CHECKSUM_SEED);

impl ShardRecord {
    fn checksum(&self) -> String {
        jobs::Sealed::computed_checksum(self)
    }
}

/// The shard file of `stem`.
pub fn shard_file(dir: &Path, stem: &str, shard: Shard) -> PathBuf {
    dir.join(format!(
        "{stem}.shard-{}-of-{}.json",
        shard.index, shard.count
    ))
}

/// The budget of each search, as `templates generate` makes it from `--nodes` and `--time`.
pub fn budget(nodes: u64, time: f64) -> Budget {
    Budget {
        nodes,
        time: Some(Duration::from_secs_f64(time.min(MAX_SECONDS))),
        ..Budget::default()
    }
}

/// The helpers of `shard`, in [`helper_positions`] order.
fn shard_helpers(region: &Grid, shard: Shard) -> Vec<Rc> {
    helper_positions(region)
        .into_iter()
        .enumerate()
        .filter(|(k, _)| Shard::of(*k, shard.count) == shard.index)
        .map(|(_, h)| h)
        .collect()
}

/// A job: what `templates generate` passes on.
pub struct Job<'a> {
    pub region: &'a Grid,
    pub opts: &'a GenOptions,
    pub nodes: u64,
    pub time: f64,
    pub settings: String,
    pub shard: Shard,
    pub dir: &'a Path,
    pub stem: &'a str,
}

/// Runs one shard and writes its file; the exit code.
pub fn run_job(j: Job) -> u8 {
    let start = Instant::now();
    let helpers = shard_helpers(j.region, j.shard);
    let run = match enumerate_helpers(j.region, j.opts, None, &helpers) {
        Ok(r) => r,
        Err(e) => return fail_input(&e),
    };
    let record = ShardRecord {
        format: FORMAT.into(),
        row: j.region.row,
        height: j.region.height,
        width: j.region.width,
        nodes: j.nodes,
        time: j.time.to_string(),
        settings: j.settings,
        shard: j.shard.to_string(),
        helpers: run.helpers.iter().map(helper_record).collect(),
        version: env!("CARGO_PKG_VERSION").into(),
        fnv64: String::new(),
    };
    let record = ShardRecord {
        fnv64: record.checksum(),
        ..record
    };
    let path = shard_file(j.dir, j.stem, j.shard);
    let mut text = serde_json::to_string_pretty(&record).expect("a record serialises");
    text.push('\n');
    if let Err(e) = jobs::write_atomic(&path, &text) {
        return fail_input(&e);
    }
    println!(
        "shard {} of row {}, two stones, region {}x{}: {} helper position(s) of {}, {} template(s) with an essential helper, {} in {:.1} s; wrote {}",
        j.shard,
        j.region.row,
        j.region.height,
        j.region.width,
        helpers.len(),
        helper_positions(j.region).len(),
        record.helpers.iter().map(|h| h.templates.len()).sum::<usize>(),
        if run.complete { "complete" } else { "INCOMPLETE" },
        start.elapsed().as_secs_f64(),
        path.display()
    );
    super::EXIT_HOLDS
}

fn helper_record(hr: &HelperRun) -> HelperRecord {
    let en = &hr.enumeration;
    HelperRecord {
        helper: hr.helpers[0],
        complete: en.complete && hr.undecided == 0,
        templates: hr.templates.clone(),
        minimal: en.minimal.len(),
        inessential: hr.inessential,
        undecided: hr.undecided,
        searches: en.searches,
        saved: en.saved,
        transversals: en.transversals,
        micros: (hr.seconds * 1e6) as u64,
    }
}

/// The helper run a record stands for: what [`build_two_stone_file`] reads (the helper, its
/// templates, whether it is complete); the enumeration keeps only the counts.
fn helper_run(h: &HelperRecord) -> HelperRun {
    HelperRun {
        helpers: vec![h.helper],
        enumeration: Enumeration {
            minimal: Vec::new(),
            complete: h.complete,
            searches: h.searches,
            saved: h.saved,
            transversals: h.transversals,
            undecided: 0,
            seeded: Vec::new(),
            unsettled: Vec::new(),
            trusted: 0,
        },
        templates: h.templates.clone(),
        inessential: h.inessential,
        undecided: h.undecided,
        open: Vec::new(),
        seconds: h.micros as f64 / 1e6,
    }
}

/// Reads and checks one shard file alone (format, checksum, name); the record.
fn read_shard(path: &Path) -> Result<(Shard, ShardRecord), String> {
    let reject = |reason: String| format!("{}: rejected: {reason}", path.display());
    let r: ShardRecord =
        jobs::read_sealed(path, "a template shard file").map_err(|e| e.to_string())?;
    let shard = Shard::parse(&r.shard).map_err(reject)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tail = format!(".shard-{}-of-{}.json", shard.index, shard.count);
    if !name.ends_with(&tail) {
        return Err(reject(format!(
            "it holds shard {shard} but is named {name}"
        )));
    }
    Ok((shard, r))
}

/// The parameters two shard files of one run must share.
fn params(r: &ShardRecord, count: usize) -> String {
    format!(
        "row {} region {}x{} nodes {} time {} settings '{}' shards {count}",
        r.row, r.height, r.width, r.nodes, r.time, r.settings
    )
}

/// Merged shards: the run of the whole region, its region and the budget.
pub struct Merged {
    pub region: Grid,
    pub run: TwoStoneRun,
    pub budget: Budget,
    pub files: usize,
}

/// Reads every `*.shard-I-of-N.json` file of `dirs` and puts the shards together (see the
/// module doc for what is checked). The first problem found is the error (one line).
pub fn merge(dirs: &[PathBuf]) -> Result<Merged, String> {
    let mut read: Vec<(Shard, ShardRecord, PathBuf)> = Vec::new();
    for dir in dirs {
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        names.sort();
        for path in names {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name.starts_with('.') || !name.contains(".shard-") || !name.ends_with(".json") {
                continue;
            }
            let (shard, r) = read_shard(&path)?;
            read.push((shard, r, path));
        }
    }
    let Some((first_shard, first, first_path)) = read.first().cloned() else {
        return Err(format!(
            "no template shard files (*.shard-I-of-N.json) in {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    let want = params(&first, first_shard.count);
    let region = Grid::new(first.row, first.height, first.width)
        .map_err(|e| format!("{}: rejected: {e}", first_path.display()))?;
    let time: f64 = first
        .time
        .parse()
        .ok()
        .filter(|t: &f64| t.is_finite() && *t > 0.0)
        .ok_or_else(|| {
            format!(
                "{}: rejected: time '{}' is not a positive number",
                first_path.display(),
                first.time
            )
        })?;
    let mut by_shard: Vec<Option<(ShardRecord, PathBuf)>> = vec![None; first_shard.count];
    for (shard, r, path) in read {
        let reject = |reason: String| format!("{}: rejected: {reason}", path.display());
        let got = params(&r, shard.count);
        if got != want {
            return Err(reject(format!(
                "its parameters ({got}) differ from {}'s ({want})",
                first_path.display()
            )));
        }
        let dealt = shard_helpers(&region, shard);
        let held: Vec<Rc> = r.helpers.iter().map(|h| h.helper).collect();
        if held != dealt {
            return Err(reject(format!(
                "shard {shard} holds helpers {held:?}, but {dealt:?} are dealt to it"
            )));
        }
        let slot = &mut by_shard[shard.index - 1];
        match slot {
            Some((other, other_path)) => {
                let strip = |r: &ShardRecord| -> Vec<HelperRecord> {
                    r.helpers
                        .iter()
                        .map(|h| HelperRecord {
                            micros: 0,
                            ..h.clone()
                        })
                        .collect()
                };
                if strip(other) != strip(&r) {
                    return Err(format!(
                        "conflicting results for shard {shard}: {} and {} differ",
                        other_path.display(),
                        path.display()
                    ));
                }
            }
            None => *slot = Some((r, path)),
        }
    }
    let missing: Vec<String> = by_shard
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| format!("{}/{}", i + 1, first_shard.count))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{} shard(s) missing: {}",
            missing.len(),
            missing.join(", ")
        ));
    }
    // The helper runs in helper_positions order, as the one-process run has them.
    let mut helpers: Vec<HelperRun> = Vec::new();
    let files = by_shard.len();
    for h in helper_positions(&region) {
        let rec = by_shard
            .iter()
            .flatten()
            .flat_map(|(r, _)| &r.helpers)
            .find(|x| x.helper == h)
            .expect("every helper is dealt to a shard that is present");
        helpers.push(helper_run(rec));
    }
    let complete = helpers
        .iter()
        .all(|r| r.enumeration.complete && r.undecided == 0);
    Ok(Merged {
        region,
        run: TwoStoneRun {
            stones: 2,
            helpers,
            complete,
            seeded: false,
        },
        budget: budget(first.nodes, time),
        files,
    })
}

/// `templates merge`: merge, build and write the library file `DIR/STEM.json`.
pub fn run_merge(dirs: &[PathBuf], out_dir: &Path, stem: Option<&str>, force: bool) -> u8 {
    let start = Instant::now();
    let m = match merge(dirs) {
        Ok(m) => m,
        Err(msg) => return fail_input(msg),
    };
    let stem = stem
        .map(str::to_string)
        .unwrap_or_else(|| format!("row{}s2", m.region.row));
    if stem.is_empty() || stem.contains(['/', '\\']) || stem.starts_with('.') {
        return fail_input(super::CliError::BadStem(stem));
    }
    let target = out_dir.join(format!("{stem}.json"));
    if !force && target.exists() {
        return fail_input(super::CliError::Exists(target));
    }
    if let Err(e) = std::fs::create_dir_all(out_dir) {
        return fail_input(super::CliError::Create {
            path: out_dir.to_path_buf(),
            source: e,
        });
    }
    let file = match build_two_stone_file(&m.region, &m.run, &m.budget) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("hexproof: error: {e}");
            return super::EXIT_FAILS;
        }
    };
    let out = match write_library_file(out_dir, &stem, &file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    println!(
        "row {}, two stones: region {}x{}: merged {} shard file(s), {} helper positions; {} template(s) up to mirror, every certificate made and kernel-checked now; {} in {:.1} s; wrote {}",
        m.region.row,
        m.region.height,
        m.region.width,
        m.files,
        m.run.helpers.len(),
        file.templates.len(),
        if m.run.complete { "complete" } else { "INCOMPLETE" },
        start.elapsed().as_secs_f64(),
        out.display()
    );
    print_records(&file.templates);
    super::EXIT_HOLDS
}
