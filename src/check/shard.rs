//! One proof checked as independent jobs (`hexproof check FILE --shard i/n --out DIR`) and
//! their combination (`hexproof check --combine DIR`), for a cluster scheduler
//! (docs/cluster.md, "One proof as jobs").
//!
//! **Parts.** A strategy's proof tree is cut at its shared positions (`position Pn … { … }`,
//! reached by `goto Pn`): each strategy of the checked files contributes its tree (part 0,
//! without the shared positions) and each shared position (part 1 + j). A unit is
//! `(strategy, part)`, strategies numbered in the order the checker meets them. Everything
//! else (lemmas, derivations, a strategy's own steps) is checked by every job, as context.
//!
//! **What a part needs from outside.** Checking a part is a deterministic function of its
//! text and, for every `goto` to a shared position it does not check itself, that position's
//! verdict and **proof set** K (the cells Black's strategy may use; `| *` cases and the
//! confirming searches depend on it). A job first checks the whole file without the
//! confirming searches (`--no-search`: rule steps by their rules, `by search` steps searched,
//! measured at 1 % of the full check on proofs/solver/7x7-d4.hexp), which gives every part's
//! verdict and K, and deals the parts to the `n` jobs by their step counts (largest first,
//! each to the least loaded job: a deterministic function of the file). Then it checks its
//! own parts with the full options, a `goto` to another job's part taking that part's
//! first-pass verdict and K, and records each such **assumption**.
//!
//! **Result file** `DIR/check-shard-i-of-n.json` ([`ShardRecord`]): the proof's content hash
//! (FNV-1a 64 of every source text read), the number of parts, the shard, the settings, per
//! own part its verdict, K, the counts of its report lines and its assumptions, the counts of
//! the lines outside every part, CPU and wall time, the version and the record's `fnv64`
//! (the sealing and atomic write of [`crate::dfpn::jobs`]).
//!
//! **Combination** ([`combine`]) re-reads the proof (the path in the files, or the one given)
//! and runs the first pass itself, so it knows the parts and the deal without trusting a
//! file. It rejects, naming each file: not a shard file, a bad checksum, another proof
//! (hash), other settings or shard count, a file name that disagrees with its shard, parts
//! that are not its shard's, two files of one shard; and names the missing shards. Then it
//! re-checks the **joins**: every assumption must equal the verdict and K that the owning job
//! computed with the full options. If one does not (a part that passed the first pass but not
//! the full check), the combiner re-checks the parts that assumed it, with the owners'
//! results, until nothing changes. With the assumptions true, each part's result is what the
//! one-process check computes for it (same text, same inputs, node-bounded searches), so the
//! combined counts and exit code are those of `hexproof check FILE`.
//!
//! **Trusted.** A part's verdict and counts in a valid file are taken from the job that
//! checked it (the same checker, as the opening combiner takes a job's winner). The
//! combiner checks everything that connects them.

use super::report::{Counts, StepVerdict};
use super::{check_files_split, Checked, Options};
use crate::board::{Cell, CellSet};
use crate::dfpn::jobs::{read_sealed, write_atomic, JobError, Sealed, Shard};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The format tag of a check shard file.
pub const FORMAT: &str = "hexproof-check-shard v1";

/// Seed of the record checksum (part of the file format).
const CHECKSUM_SEED: &[u8] = b"hexproof check-shard v1\n";

/// A part of the proof: (strategy number, part), part 0 the tree, 1 + j shared position j.
pub type Unit = (usize, usize);

/// What checking one part gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartResult {
    /// Its verdict.
    pub verdict: StepVerdict,
    /// Its proof set K (every empty cell when not verified).
    pub proof_set: CellSet,
    /// The verdicts of its report lines.
    pub counts: Counts,
    /// The injected results it used: (unit, verdict, proof set).
    pub assumed: Vec<(Unit, StepVerdict, CellSet)>,
    /// Time of the part (the tree alone; a shared position with what it reached first).
    pub micros: u64,
}

/// The split of one check run: which parts it checks, the results injected for the others,
/// and what it found (used by the checker's strategies, see `tree::check_strategy`).
#[derive(Default)]
pub struct Split {
    /// The parts this run checks; `None`: every part.
    owned: Option<BTreeSet<Unit>>,
    injected: HashMap<Unit, (StepVerdict, CellSet)>,
    /// Results of the parts checked.
    pub results: BTreeMap<Unit, PartResult>,
    strategies: usize,
    times: HashMap<Unit, u64>,
}

impl Split {
    /// Check every part and record each one's result.
    pub fn all() -> Split {
        Split::default()
    }

    /// Check the parts `owned`; every other part answers with its `injected` result.
    pub fn owning(owned: BTreeSet<Unit>, injected: HashMap<Unit, (StepVerdict, CellSet)>) -> Split {
        Split {
            owned: Some(owned),
            injected,
            ..Split::default()
        }
    }

    pub(crate) fn next_strategy(&mut self) -> usize {
        self.strategies += 1;
        self.strategies - 1
    }

    pub(crate) fn owns(&self, u: Unit) -> bool {
        self.owned.as_ref().is_none_or(|o| o.contains(&u))
    }

    /// The injected result of a part not checked here (a failed, empty one if none was given:
    /// the assumption then differs from the owner's result and the combiner re-checks).
    pub(crate) fn injected(&self, s: usize, part: usize) -> (StepVerdict, CellSet) {
        self.injected
            .get(&(s, part))
            .copied()
            .unwrap_or((StepVerdict::Failed, CellSet::EMPTY))
    }

    pub(crate) fn time_part(&mut self, part: usize, d: Duration) {
        let s = self.strategies.saturating_sub(1);
        self.times.insert((s, part), d.as_micros() as u64);
    }

    pub(crate) fn record(
        &mut self,
        u: Unit,
        verdict: StepVerdict,
        proof_set: CellSet,
        counts: Counts,
        d: Duration,
    ) {
        let micros = self.times.get(&u).copied().unwrap_or(d.as_micros() as u64);
        self.results.insert(
            u,
            PartResult {
                verdict,
                proof_set,
                counts,
                assumed: Vec::new(),
                micros,
            },
        );
    }

    pub(crate) fn assume(&mut self, from: Unit, target: Unit, v: StepVerdict, k: CellSet) {
        if let Some(r) = self.results.get_mut(&from) {
            let a = (target, v, k);
            if !r.assumed.contains(&a) {
                r.assumed.push(a);
            }
        }
    }
}

/// Deals the parts (with their weights) to `n` shards: largest first, each to the least
/// loaded shard (ties: the lower shard); returns each part's shard (1-based).
pub fn deal(parts: &[(Unit, usize)], n: usize) -> BTreeMap<Unit, usize> {
    let mut order: Vec<&(Unit, usize)> = parts.iter().collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut load = vec![0usize; n.max(1)];
    let mut out = BTreeMap::new();
    for (u, w) in order {
        let (i, _) = load
            .iter()
            .enumerate()
            .min_by_key(|(i, l)| (**l, *i))
            .expect("at least one shard");
        load[i] += (*w).max(1);
        out.insert(*u, i + 1);
    }
    out
}

/// `strategy.part`.
pub fn unit_name(u: Unit) -> String {
    format!("{}.{}", u.0, u.1)
}

fn parse_unit(s: &str) -> Option<Unit> {
    let (a, b) = s.split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn verdict_word(v: StepVerdict) -> &'static str {
    match v {
        StepVerdict::Verified => "verified",
        StepVerdict::Undecided => "undecided",
        StepVerdict::Unsupported => "unsupported",
        StepVerdict::Failed => "failed",
    }
}

fn verdict_of(w: &str) -> Option<StepVerdict> {
    Some(match w {
        "verified" => StepVerdict::Verified,
        "undecided" => StepVerdict::Undecided,
        "unsupported" => StepVerdict::Unsupported,
        "failed" => StepVerdict::Failed,
        _ => return None,
    })
}

fn cells_of(k: CellSet) -> Vec<u16> {
    k.iter().map(|c| c.index() as u16).collect()
}

fn set_of(cells: &[u16]) -> Option<CellSet> {
    use crate::board::Border;
    let top = [Border::Top, Border::Bottom, Border::Left, Border::Right]
        .iter()
        .map(|b| Cell::border(*b).index())
        .max()
        .unwrap_or(0);
    let mut k = CellSet::EMPTY;
    for &c in cells {
        if c as usize > top {
            return None;
        }
        k.insert(Cell::from_index(c as usize));
    }
    Some(k)
}

/// One assumption in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssumedRecord {
    /// The part assumed (`strategy.part`).
    pub unit: String,
    /// Its verdict as used.
    pub verdict: String,
    /// Its proof set as used (cell indices).
    pub proof_set: Vec<u16>,
}

/// One part's result in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartRecord {
    /// `strategy.part`.
    pub unit: String,
    /// Its verdict.
    pub verdict: String,
    /// Its proof set (cell indices).
    pub proof_set: Vec<u16>,
    /// The verdicts of its report lines.
    pub counts: Counts,
    /// The other parts' results it used.
    pub assumed: Vec<AssumedRecord>,
    /// Its time, microseconds.
    pub micros: u64,
}

/// A check job's result file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// [`FORMAT`].
    pub format: String,
    /// The proof file as given to the job.
    pub proof: String,
    /// FNV-1a 64 (hex) of every source text the check read, in order.
    pub proof_fnv64: String,
    /// How many parts the proof has.
    pub parts_total: usize,
    /// The shard (`i/n`).
    pub shard: String,
    /// The check options.
    pub settings: String,
    /// Its parts' results.
    pub parts: Vec<PartRecord>,
    /// The counts of the report lines outside every part (checked by every job).
    pub rest: Counts,
    /// CPU microseconds of the job (both passes).
    pub cpu_micros: u64,
    /// Wall microseconds of the job.
    pub wall_micros: u64,
    /// The hexproof version.
    pub version: String,
    /// FNV-1a 64 (hex) of the seed and the record without this field.
    #[serde(default)]
    pub fnv64: String,
}

crate::sealed_record!(ShardRecord, FORMAT, CHECKSUM_SEED);

/// The options as recorded in a file (everything that can change a verdict).
pub fn settings(o: &Options) -> String {
    format!(
        "nodes={} time={:?} confirm_nodes={} confirm_time={:?} search_rule_steps={}",
        o.budget.nodes, o.budget.time, o.confirm.nodes, o.confirm.time, o.search_rule_steps
    )
}

/// The file name of shard `s`.
pub fn file_name(s: Shard) -> String {
    format!("check-shard-{}-of-{}.json", s.index, s.count)
}

/// The first pass: the whole proof without confirming searches, every part recorded.
pub struct FirstPass {
    /// The check (its report says whether the input is bad).
    pub checked: Checked,
    /// Every part's first-pass result.
    pub parts: BTreeMap<Unit, PartResult>,
    /// The content hash of the sources read.
    pub fnv64: String,
}

impl FirstPass {
    /// Each part's shard among `n`.
    pub fn deal(&self, n: usize) -> BTreeMap<Unit, usize> {
        let w: Vec<(Unit, usize)> = self
            .parts
            .iter()
            .map(|(u, r)| (*u, r.counts.steps))
            .collect();
        deal(&w, n)
    }
}

/// Runs the first pass on `proof` with `opts` (its confirming searches switched off).
pub fn first_pass(proof: &Path, opts: &Options) -> FirstPass {
    let quick = Options {
        search_rule_steps: false,
        ..*opts
    };
    let split = RefCell::new(Split::all());
    let checked = check_files_split(&[proof.to_path_buf()], &quick, &split);
    let mut bytes = Vec::new();
    for f in &checked.sources.files {
        bytes.extend_from_slice(f.text.as_bytes());
        bytes.push(0);
    }
    let fnv64 = format!("{:016x}", crate::templates::library::fnv64(&bytes));
    FirstPass {
        checked,
        parts: split.into_inner().results,
        fnv64,
    }
}

/// Checks `owned` with the full options, the other parts answering with `injected`.
fn check_owned(
    proof: &Path,
    opts: &Options,
    owned: BTreeSet<Unit>,
    injected: HashMap<Unit, (StepVerdict, CellSet)>,
) -> (Checked, BTreeMap<Unit, PartResult>) {
    let split = RefCell::new(Split::owning(owned, injected));
    let checked = check_files_split(&[proof.to_path_buf()], opts, &split);
    (checked, split.into_inner().results)
}

fn sub(a: Counts, b: &Counts) -> Counts {
    Counts {
        steps: a.steps.saturating_sub(b.steps),
        verified: a.verified.saturating_sub(b.verified),
        failed: a.failed.saturating_sub(b.failed),
        undecided: a.undecided.saturating_sub(b.undecided),
        unsupported: a.unsupported.saturating_sub(b.unsupported),
    }
}

/// The exit code of counts, as `hexproof check` computes it.
pub fn exit_code(c: &Counts) -> u8 {
    if c.failed > 0 {
        1
    } else if c.undecided > 0 || c.unsupported > 0 {
        3
    } else {
        0
    }
}

/// What a check job did.
pub enum JobOutcome {
    /// The proof is bad input: the report to print (no file written).
    BadInput(Box<Checked>),
    /// A valid file was there already.
    AlreadyDone(PathBuf),
    /// Written: the file and its record.
    Written(PathBuf, Box<ShardRecord>),
}

/// Runs shard `shard` of the check of `proof` into `out`.
pub fn run_shard(
    proof: &Path,
    opts: &Options,
    shard: Shard,
    out: &Path,
    cpu_time: fn() -> Duration,
) -> Result<JobOutcome, JobError> {
    let cpu0 = cpu_time();
    let wall0 = std::time::Instant::now();
    let first = first_pass(proof, opts);
    if first.checked.report.exit_code == 2 {
        return Ok(JobOutcome::BadInput(Box::new(first.checked)));
    }
    std::fs::create_dir_all(out).map_err(|source| JobError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    let path = out.join(file_name(shard));
    if let Ok(r) = read_sealed::<ShardRecord>(&path, "a check shard file") {
        if r.proof_fnv64 == first.fnv64
            && r.settings == settings(opts)
            && r.shard == shard.to_string()
        {
            return Ok(JobOutcome::AlreadyDone(path));
        }
    }
    let dealt = first.deal(shard.count);
    let owned: BTreeSet<Unit> = dealt
        .iter()
        .filter(|(_, s)| **s == shard.index)
        .map(|(u, _)| *u)
        .collect();
    let injected = first
        .parts
        .iter()
        .map(|(u, r)| (*u, (r.verdict, r.proof_set)))
        .collect();
    let (checked, results) = check_owned(proof, opts, owned, injected);
    let mut mine = Counts::default();
    for r in results.values() {
        mine.merge(&r.counts);
    }
    let record = ShardRecord {
        format: FORMAT.into(),
        proof: proof.display().to_string(),
        proof_fnv64: first.fnv64.clone(),
        parts_total: first.parts.len(),
        shard: shard.to_string(),
        settings: settings(opts),
        parts: results.iter().map(|(u, r)| part_record(*u, r)).collect(),
        rest: sub(checked.report.counts, &mine),
        cpu_micros: cpu_time().saturating_sub(cpu0).as_micros() as u64,
        wall_micros: wall0.elapsed().as_micros() as u64,
        version: env!("CARGO_PKG_VERSION").into(),
        fnv64: String::new(),
    };
    let record = ShardRecord {
        fnv64: record.computed_checksum(),
        ..record
    };
    let mut text = serde_json::to_string_pretty(&record).expect("a record serialises");
    text.push('\n');
    write_atomic(&path, &text)?;
    Ok(JobOutcome::Written(path, Box::new(record)))
}

fn part_record(u: Unit, r: &PartResult) -> PartRecord {
    PartRecord {
        unit: unit_name(u),
        verdict: verdict_word(r.verdict).into(),
        proof_set: cells_of(r.proof_set),
        counts: r.counts,
        assumed: r
            .assumed
            .iter()
            .map(|(t, v, k)| AssumedRecord {
                unit: unit_name(*t),
                verdict: verdict_word(*v).into(),
                proof_set: cells_of(*k),
            })
            .collect(),
        micros: r.micros,
    }
}

fn part_result(p: &PartRecord) -> Option<(Unit, PartResult)> {
    let mut assumed = Vec::new();
    for a in &p.assumed {
        assumed.push((
            parse_unit(&a.unit)?,
            verdict_of(&a.verdict)?,
            set_of(&a.proof_set)?,
        ));
    }
    Some((
        parse_unit(&p.unit)?,
        PartResult {
            verdict: verdict_of(&p.verdict)?,
            proof_set: set_of(&p.proof_set)?,
            counts: p.counts,
            assumed,
            micros: p.micros,
        },
    ))
}

/// The combined check.
#[derive(Debug)]
pub struct CombinedCheck {
    /// The proof checked.
    pub proof: PathBuf,
    /// Shard files used.
    pub files: usize,
    /// Parts.
    pub parts: usize,
    /// Parts the combiner re-checked because an assumption about another part was false.
    pub rechecked: Vec<String>,
    /// Total counts (as `hexproof check` counts them).
    pub counts: Counts,
    /// Its exit code.
    pub exit_code: u8,
    /// CPU seconds summed over the files (microseconds).
    pub cpu_micros: u64,
    /// Per shard: (shard, parts, CPU microseconds).
    pub shards: Vec<(String, usize, u64)>,
    /// Temporary files ignored.
    pub temporary: usize,
}

/// Combines the shard files in `dirs` (see the module doc). `proof` overrides the path named
/// in the files. Errors: one line per problem.
pub fn combine(
    dirs: &[PathBuf],
    proof: Option<&Path>,
    opts: &Options,
) -> Result<CombinedCheck, Vec<String>> {
    let mut problems = Vec::new();
    let mut files = Vec::new();
    let mut temporary = 0;
    for d in dirs {
        let rd = match std::fs::read_dir(d) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("{}: {e}", d.display()));
                continue;
            }
        };
        let mut names: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        names.sort();
        for p in names {
            let n = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if n.starts_with('.') {
                temporary += usize::from(n.contains(".tmp-"));
                continue;
            }
            if n.ends_with(".json") {
                files.push(p);
            }
        }
    }
    if files.is_empty() && problems.is_empty() {
        problems.push(format!(
            "no shard files (check-shard-*.json) in {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut records = Vec::new();
    for p in &files {
        match read_sealed::<ShardRecord>(p, "a check shard file") {
            Ok(r) => records.push((p.clone(), r)),
            Err(e) => problems.push(e.to_string()),
        }
    }
    // The proof: the one given, else the one most files name.
    let named = {
        let mut c: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, r) in &records {
            *c.entry(r.proof.as_str()).or_default() += 1;
        }
        c.into_iter()
            .max_by_key(|(_, n)| *n)
            .map(|(p, _)| PathBuf::from(p))
    };
    let Some(proof) = proof.map(Path::to_path_buf).or(named) else {
        return Err(problems);
    };
    let first = first_pass(&proof, opts);
    if first.checked.report.exit_code == 2 {
        problems.push(format!(
            "{}: bad input (run `hexproof check` on it)",
            proof.display()
        ));
        return Err(problems);
    }
    // The shard count: that of most files.
    let n = {
        let mut c: BTreeMap<usize, usize> = BTreeMap::new();
        for (_, r) in &records {
            if let Ok(s) = Shard::parse(&r.shard) {
                *c.entry(s.count).or_default() += 1;
            }
        }
        c.into_iter()
            .max_by_key(|(k, n)| (*n, *k))
            .map(|(k, _)| k)
            .unwrap_or(1)
    };
    let dealt = first.deal(n);
    let want = settings(opts);
    let mut by_shard: BTreeMap<usize, (PathBuf, ShardRecord)> = BTreeMap::new();
    let mut dup: BTreeSet<usize> = BTreeSet::new();
    for (p, r) in records {
        let reject = |why: String| format!("{}: rejected: {why}", p.display());
        let Ok(s) = Shard::parse(&r.shard) else {
            problems.push(reject(format!("bad shard '{}'", r.shard)));
            continue;
        };
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if r.proof_fnv64 != first.fnv64 {
            problems.push(reject(format!(
                "it is a check of another proof (content hash {}, {} has {})",
                r.proof_fnv64,
                proof.display(),
                first.fnv64
            )));
        } else if r.settings != want {
            problems.push(reject(format!(
                "its settings ({}) differ from this combine's ({want})",
                r.settings
            )));
        } else if s.count != n {
            problems.push(reject(format!(
                "shard {s}, but most files are of {n} shards"
            )));
        } else if name != file_name(s) {
            problems.push(reject(format!("it holds shard {s} but is named {name}")));
        } else if r.parts_total != first.parts.len() {
            problems.push(reject(format!(
                "{} parts, the proof has {}",
                r.parts_total,
                first.parts.len()
            )));
        } else {
            let theirs: BTreeSet<String> = r.parts.iter().map(|q| q.unit.clone()).collect();
            let ours: BTreeSet<String> = dealt
                .iter()
                .filter(|(_, i)| **i == s.index)
                .map(|(u, _)| unit_name(*u))
                .collect();
            if theirs != ours || theirs.len() != r.parts.len() {
                problems.push(reject(format!(
                    "its parts ({}) are not those dealt to shard {s} ({})",
                    theirs.into_iter().collect::<Vec<_>>().join(" "),
                    ours.into_iter().collect::<Vec<_>>().join(" ")
                )));
            } else if r.parts.iter().any(|q| part_result(q).is_none()) {
                problems.push(reject("a part's verdict or proof set is malformed".into()));
            } else if let Some((q, _)) = by_shard.get(&s.index) {
                problems.push(format!(
                    "duplicate shard {s}: {} and {} (keep one)",
                    q.display(),
                    p.display()
                ));
                dup.insert(s.index);
            } else {
                by_shard.insert(s.index, (p, r));
            }
        }
    }
    let missing: Vec<usize> = (1..=n)
        .filter(|i| !by_shard.contains_key(i) && !dup.contains(i))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "{} shard(s) missing: {}",
            missing.len(),
            missing
                .iter()
                .map(|i| format!("{i}/{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    // Every shard checks the lines outside the parts: they must agree.
    let mut rest: Option<(&PathBuf, Counts)> = None;
    for (p, r) in by_shard.values() {
        match rest {
            None => rest = Some((p, r.rest)),
            Some((q, c)) if c != r.rest => problems.push(format!(
                "{}: rejected: its checks outside the parts ({:?}) differ from {}'s ({c:?})",
                p.display(),
                r.rest,
                q.display()
            )),
            _ => {}
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut results: BTreeMap<Unit, PartResult> = BTreeMap::new();
    let mut shards = Vec::new();
    let mut cpu = 0;
    for (_, r) in by_shard.values() {
        cpu += r.cpu_micros;
        shards.push((r.shard.clone(), r.parts.len(), r.cpu_micros));
        for q in &r.parts {
            let (u, pr) = part_result(q).expect("checked above");
            results.insert(u, pr);
        }
    }
    // The joins: every assumption must be the owner's result; else re-check who assumed it.
    let mut rechecked = Vec::new();
    for _round in 0..=results.len() {
        let wrong: BTreeSet<Unit> = results
            .iter()
            .filter(|(_, r)| {
                r.assumed.iter().any(|(t, v, k)| {
                    results
                        .get(t)
                        .is_none_or(|o| o.verdict != *v || o.proof_set != *k)
                })
            })
            .map(|(u, _)| *u)
            .collect();
        if wrong.is_empty() {
            break;
        }
        let injected = results
            .iter()
            .map(|(u, r)| (*u, (r.verdict, r.proof_set)))
            .collect();
        let (_, again) = check_owned(&proof, opts, wrong.clone(), injected);
        for u in wrong {
            rechecked.push(unit_name(u));
            if let Some(r) = again.get(&u) {
                results.insert(u, r.clone());
            }
        }
    }
    let mut counts = rest.map(|(_, c)| c).unwrap_or_default();
    for r in results.values() {
        counts.merge(&r.counts);
    }
    Ok(CombinedCheck {
        proof,
        files: by_shard.len(),
        parts: results.len(),
        rechecked,
        exit_code: exit_code(&counts),
        counts,
        cpu_micros: cpu,
        shards,
        temporary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deal_covers_every_part_once_and_balances() {
        let parts: Vec<(Unit, usize)> = (0..9).map(|j| ((0, j), 10 * (j % 4) + 1)).collect();
        for n in 1..5 {
            let d = deal(&parts, n);
            assert_eq!(d.len(), parts.len());
            assert!(d.values().all(|&s| (1..=n).contains(&s)));
            let mut load = vec![0; n];
            for (u, w) in &parts {
                load[d[u] - 1] += w;
            }
            let (lo, hi) = (load.iter().min().unwrap(), load.iter().max().unwrap());
            assert!(hi - lo <= 31, "{load:?}");
        }
    }

    #[test]
    fn units_and_sets_round_trip() {
        assert_eq!(parse_unit(&unit_name((3, 14))), Some((3, 14)));
        let k: CellSet = [Cell::from_index(0), Cell::from_index(40)]
            .into_iter()
            .collect();
        assert_eq!(set_of(&cells_of(k)), Some(k));
        assert_eq!(set_of(&[60000]), None);
    }
}
