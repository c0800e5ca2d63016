//! `hexproof templates …`: generate, verify, list, show and match the certified template
//! library (docs/templates.md).

use super::args::PositionArgs;
use super::{fail_input, move_list, plural, print_json, CliError, EXIT_FAILS, EXIT_HOLDS};
use clap::{Args, Subcommand};
use hexproof::dfpn::jobs::Shard;
use hexproof::enumerate::two_stone::{
    build_two_stone_file, enumerate_stones, helper_set_checkpoint, helper_sets, seed_checkpoint,
    seed_two_stone,
};
use hexproof::enumerate::{
    build_file, enumerate, hexwiki_one_stone, hexwiki_templates, GenOptions, Grid,
};
use hexproof::lemmas::{format_lemma_file, lemma_records, verify_lemma, LemmaFile};
use hexproof::local::Budget;
use hexproof::player::clock::thread_cpu_time;
use hexproof::position::Position;
use hexproof::templates::draw;
use hexproof::templates::library::{format_file, verify_record, Library, LibraryFile, LEMMA_FILE};
use hexproof::templates::matching;
use hexproof::templates::published::verify_entry;
use serde_json::json;
use std::fmt::Display;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use verify_timings::Timed;

/// The certified edge-template library: generate, verify, list, show, match.
///
/// Templates are stored edge-relative (`[row, col]`, row 1 touches the edge) for the owner of
/// the edge, one JSON file per row in `templates/`, each with a kernel certificate. `list`,
/// `show`, `match` and `verify` read the library built into the binary (from any directory;
/// `--dir DIR` reads DIR instead); `generate` writes to `--dir` (default `generated/`) and
/// never replaces an existing file without `--force`.
///
/// Examples:
///   hexproof templates generate --row 3 --width 7 --height 3    # writes generated/row3.json
///   hexproof templates verify
///   hexproof templates list
///   hexproof templates show III1a
///   hexproof templates show IV1a --svg > iv1a.svg
///   hexproof templates show --html templates.html
///   hexproof templates match --board 9x9 --moves "e7 c3 g3"
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct TemplatesArgs {
    #[command(subcommand)]
    command: TemplatesCommand,
}

#[derive(Subcommand, Debug)]
enum TemplatesCommand {
    Generate(GenerateArgs),
    Merge(MergeArgs),
    Verify(VerifyArgs),
    List(ListArgs),
    Show(ShowArgs),
    Match(MatchArgs),
    ImportProofs(ImportProofsArgs),
    ImportPublished(super::published::ImportPublishedArgs),
    RepackPublished(super::published::RepackPublishedArgs),
    /// The certified inferior-cell pattern library (templates/ice.json, docs/ice.md).
    Ice(super::ice::IceArgs),
}

/// Write the lemmas proved in `proofs/*.hexp` as library records (`DIR/proofs.json`).
///
/// Each file is checked (its lemma blocks only); a lemma the checker verifies becomes a record
/// with provenance "proved in proofs/FILE", its claim, stones and carrier, and either a kernel
/// certificate of its claim (made by exact search now, re-checked by `templates verify` with
/// the kernel alone) or, for claims with no certificate form (conjunctions), the instruction
/// to re-run the checker on it. Lemmas the checker does not verify are listed and left out.
///
/// Examples:
///   hexproof templates import-proofs
///   hexproof templates import-proofs --dir generated
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ImportProofsArgs {
    /// The repository root: proof files are read from ROOT/proofs/*.hexp.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Library directory.
    #[arg(long, default_value = "templates")]
    dir: PathBuf,
    /// Budget of each certificate search: maximum nodes.
    #[arg(long, default_value_t = 20_000_000)]
    nodes: u64,
    /// Largest certificate stored (nodes, after shrinking); a lemma whose certificate is
    /// larger is re-checked by the checker instead (Noshita's U8 composes to about a million
    /// nodes, 60 MB of JSON, before shrinking).
    #[arg(long, default_value_t = 100_000)]
    max_certificate_nodes: usize,
}

/// Enumerate every minimal one-stone edge template of a row inside a region, prove each
/// (kernel-checked certificate) and write `DIR/rowK.json` (`generated/rowK.json` by default;
/// an existing file is replaced only with --force).
///
/// The region: rows 1..=HEIGHT, and on row r the cells [r, c] with |2c + r − ROW| ≤ WIDTH − 1
/// (a rectangle in the drawing centred on the stone, WIDTH cells on row 1; WIDTH must have
/// the parity of ROW). Resumable: progress is checkpointed in `DIR/rowK.checkpoint` after every
/// round and picked up by the next run on the same region (use --fresh to start over). An
/// incomplete result never replaces a complete `rowK.json`: it goes to `DIR/rowK.incomplete`.
///
/// Examples:
///   hexproof templates generate --row 3 --width 7 --height 3          # generated/row3.json
///   nice hexproof templates generate --row 4 --width 10 --height 5 --max-seconds 3600
///   hexproof templates generate --row 3 --dir templates --force       # replace the shipped file
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct GenerateArgs {
    /// Row of the stone (distance from the edge; 1 = touching it).
    #[arg(long)]
    row: i32,
    /// Cells of row 1 in the region (default: the smallest width ≥ 2·ROW + 1 with ROW's parity).
    #[arg(long)]
    width: Option<i32>,
    /// Rows in the region, rows above the stone included (default: ROW).
    #[arg(long)]
    height: Option<i32>,
    /// Stones per template: 1, 2 (the goal stone on ROW and one helper stone anywhere in
    /// the region on rows 1..=ROW; written to `DIR/rowKs2.json`) or 3 (two helper stones,
    /// every pair up to the mirror, each helper essential; `DIR/rowKs3.json`).
    #[arg(long, default_value_t = 1)]
    stones: usize,
    /// Budget of each search: maximum nodes.
    #[arg(long, default_value_t = 50_000_000)]
    nodes: u64,
    /// Budget of each search: maximum seconds.
    #[arg(long, default_value_t = 120.0)]
    time: f64,
    /// First-pass budget in seconds (nodes scaled alike): every candidate is searched with it
    /// first, and only those it leaves undecided get the full budget, after the cheap ones
    /// (0: a single pass with the full budget).
    #[arg(long, default_value_t = 5.0)]
    quick: f64,
    /// Stop after this many seconds overall (the result is then marked incomplete).
    #[arg(long)]
    max_seconds: Option<f64>,
    /// Output directory (created if missing). The default is `generated`, never the shipped
    /// library `templates/`; an existing output file is replaced only with --force.
    #[arg(long, default_value = "generated")]
    dir: PathBuf,
    /// Replace an existing output file `DIR/OUT.json` (without it, the run is refused before
    /// any work; a resumed run after --max-seconds needs it too).
    #[arg(long)]
    force: bool,
    /// Ignore an existing checkpoint.
    #[arg(long)]
    fresh: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Start from HexWiki's one-stone templates of this row that fit the region (each is
    /// re-decided and shrunk by search first; marked `generated-from-seed`).
    #[arg(long)]
    seed_hexwiki: bool,
    /// Start from these HexWiki one-stone templates of the row (names, comma-separated, e.g.
    /// `IV1c,IV1d`), like --seed-hexwiki but only these; a name that is not a one-stone
    /// template of the row, or does not fit the region, is an error.
    #[arg(long, value_delimiter = ',')]
    seed: Vec<String>,
    /// Only decide and shrink the seeds (the one-cell removals of each run in parallel), no
    /// enumeration: certifies known templates, with their minimality decided by search, in a
    /// region too large to enumerate. The file is marked incomplete.
    #[arg(long)]
    seeds_only: bool,
    /// Ask the whole-board solver first, with this node budget, whether a carrier fails
    /// (one-stone templates; the sub-game encoded as a Hex position, docs/templates.md
    /// "Refutations by the whole-board solver"): its refutations are often far cheaper than
    /// the local search's. Each is used only after the checker has re-proved the solver's
    /// exported proof of it; otherwise the local search decides. 0: off.
    #[arg(long, default_value_t = 0)]
    solver_nodes: u64,
    /// Take the solver's refutations on its word, without the checker (much faster: a survey).
    /// The result is then marked incomplete and no template's minimality is claimed.
    #[arg(long, requires = "solver_nodes")]
    trust_solver: bool,
    /// One line per search on stderr (cells, verdict, nodes, time): where the time goes.
    #[arg(long, hide_short_help = true)]
    trace: bool,
    /// How the solver's exported proofs write their leaves: `derive` (AND/OR derivations
    /// from the explainer, short proofs) or `search` (each leaf `by search`, re-proved by the
    /// checker's search; no explainer, which can be slow on large carriers such as row 5's).
    #[arg(long, value_enum, default_value_t = Leaves::Derive, requires = "solver_nodes")]
    solver_leaves: Leaves,
    /// Let the local search use only its built-in edge templates (known sub-connections,
    /// src/search/local.rs) of at most this many carrier cells (0: none), so that a template
    /// the generator finds is not one the search already knew (V1a has 34 cells, IV1d 31).
    /// Only speed changes: every certificate is kernel-checked either way.
    #[arg(long)]
    max_builtin_template: Option<usize>,
    /// Questions per round (decided in parallel); the checkpoint is written after each round,
    /// so a small batch loses less work when a run with expensive questions is stopped.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Write `DIR/OUT.json` instead of `DIR/rowK.json` (`rowKs2.json` for two stones); the
    /// checkpoint is `DIR/OUT.checkpoint`.
    #[arg(long)]
    out: Option<String>,
    /// Run one shard `i/n` of a two-stone enumeration as a job (a Slurm array task): the
    /// helper positions are dealt round-robin to n shards, and this shard's results go to
    /// `DIR/OUT.shard-i-of-n.json` (checksummed, written atomically; no checkpoints).
    /// Put the shards together with `templates merge DIR` (docs/cluster.md). Needs
    /// `--stones 2` and no seeds (the one-stone enumeration is one sequential loop).
    #[arg(long, value_parser = parse_shard)]
    shard: Option<Shard>,
}

fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s)
}

/// Put the shard files of a two-stone enumeration run as jobs (`generate --stones 2 --shard
/// i/n`) together into the library file the one-process `generate` writes (`DIR/rowKs2.json`).
///
/// Every `*.shard-I-of-N.json` file in the folders is re-checked, and the merge is refused
/// (exit 2, one line naming the file) if one is not a shard file, fails its checksum, is
/// named for another shard, was run with other parameters (region, budgets, settings, shard
/// count), holds helpers not dealt to its shard, disagrees with another copy of its shard,
/// or if a shard is missing. Each template's kernel certificate is made and checked by the
/// merge itself, as `generate` does.
///
/// Examples:
///   seq 1 4 | parallel hexproof templates generate --row 3 --stones 2 --shard {}/4 --dir shards
///   hexproof templates merge shards                 # writes generated/row3s2.json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct MergeArgs {
    /// Folders holding the shard files.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Output directory (created if missing).
    #[arg(long, default_value = "generated")]
    dir: PathBuf,
    /// Write `DIR/OUT.json` instead of `DIR/rowKs2.json`.
    #[arg(long)]
    out: Option<String>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

/// Re-check every library entry with the kernel alone (no search); exit 1 if any fails.
///
/// Lemma records (`DIR/proofs.json`) are also compared with the lemma they cite in
/// ROOT/proofs/FILE, and re-checked by their kernel certificate or, for conjunctions, by the
/// checker re-run on the lemmas of that file.
///
/// One line per record as it is checked (`ok FILE: NAME …` or `FAILED FILE: NAME: reason`),
/// then a summary; a progress bar on stderr when it is a terminal.
///
/// Examples:
///   hexproof templates verify
///   hexproof templates verify III1a iv1a      # only these (names are case-insensitive)
///   hexproof templates verify --dir templates --json
///   hexproof templates verify --timings      # CPU per carrier size
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct VerifyArgs {
    /// Only the records with these names (default: all).
    #[arg(value_name = "NAME")]
    names: Vec<String>,
    /// Library directory (default: the library built into the binary, without the lemma
    /// records of `proofs.json`: check those with `--dir templates` in the repository).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The repository root holding proofs/ (for lemma records).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// After the summary, a table of the re-check's CPU time by carrier size (10-cell
    /// buckets: records, certificate nodes, total and largest CPU, the slowest record).
    /// Timings are the checking thread's CPU time per record; `--json` always has them.
    #[arg(long)]
    timings: bool,
}

/// List the library: name, row, carrier size, symmetry, minimality, HexWiki name.
///
/// Examples:
///   hexproof templates list
///   hexproof templates list --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ListArgs {
    /// Library directory (default: the library built into the binary).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print JSON (a stable summary: no timings).
    #[arg(long)]
    json: bool,
}

/// Draw one template (ASCII by default), or with `--html OUT` write one self-contained HTML
/// page with a figure of every template (the library and the published templates, each with
/// its source, verdict, carrier size and certificate nodes; every verdict re-checked by the
/// kernel while the page is written). The name is case-insensitive where that is unambiguous;
/// an unknown name is answered with the closest ones.
///
/// Examples:
///   hexproof templates show III1a
///   hexproof templates show IV1a --svg > iv1a.svg
///   hexproof templates show --html templates.html
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ShowArgs {
    /// Template name (not with --html).
    #[arg(required_unless_present = "html", conflicts_with = "html")]
    name: Option<String>,
    /// Print SVG instead of ASCII.
    #[arg(long, conflicts_with = "html")]
    svg: bool,
    /// Write the HTML page of the whole library to this file (`-`: standard output).
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Library directory (default: the library built into the binary).
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// Find every template instance on a position: both colours, all four edges, both mirror
/// images.
///
/// Examples:
///   hexproof templates match --board 9x9 --moves "e7 c3 g3"
///   hexproof templates match --board 11 --black "f9" --white "a1" --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct MatchArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Extra Black stones.
    #[arg(long, default_value = "")]
    black: String,
    /// Extra White stones.
    #[arg(long, default_value = "")]
    white: String,
    /// Library directory (default: the library built into the binary). Only records whose
    /// digest matches are used; edited ones are named on stderr and skipped.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// How the solver's exported proofs write their leaves (`--solver-leaves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Leaves {
    /// AND/OR derivations from the explainer (short proofs).
    Derive,
    /// Each leaf `by search`, re-proved by the checker's search.
    Search,
}

/// Runs `hexproof templates`.
mod template_jobs;
mod verify_timings;

pub fn run_templates(a: TemplatesArgs) -> u8 {
    match a.command {
        TemplatesCommand::Generate(g) => run_generate(g),
        TemplatesCommand::Merge(m) => {
            template_jobs::run_merge(&m.dirs, &m.dir, m.out.as_deref(), m.force)
        }
        TemplatesCommand::Verify(v) => run_verify(v),
        TemplatesCommand::List(l) => run_list(l),
        TemplatesCommand::Show(s) => run_show(s),
        TemplatesCommand::Match(m) => run_match(m),
        TemplatesCommand::ImportProofs(i) => run_import_proofs(i),
        TemplatesCommand::ImportPublished(i) => super::published::run_import_published(i),
        TemplatesCommand::RepackPublished(r) => super::published::run_repack_published(r),
        TemplatesCommand::Ice(i) => super::ice::run_ice(i),
    }
}

fn run_generate(a: GenerateArgs) -> u8 {
    if !(1..=3).contains(&a.stones) {
        return fail_input(CliError::Usage("--stones must be 1, 2 or 3"));
    }
    if a.shard.is_some() && (a.stones != 2 || !a.seed.is_empty() || a.seed_hexwiki) {
        return fail_input(CliError::Usage(
            "--shard needs --stones 2 and no seeds (the one-stone enumeration is one sequential loop)",
        ));
    }
    // Default: the smallest width ≥ 2·ROW + 1 with the parity of ROW.
    let width = a.width.unwrap_or(2 * a.row + 1 + (a.row % 2 == 0) as i32);
    let height = a.height.unwrap_or(a.row);
    let mut grid = match Grid::new(a.row, height, width) {
        Ok(g) => g,
        Err(e) => return fail_input(&e),
    };
    grid.solver = (a.solver_nodes > 0).then_some(a.solver_nodes);
    grid.trust_solver = a.trust_solver;
    grid.solver_derive = a.solver_leaves == Leaves::Derive;
    grid.trace = a.trace;
    if let Some(n) = a.max_builtin_template {
        hexproof::local::cells::set_max_edge_template_cells(n);
    }
    if let Err(e) = check_seconds(&a) {
        return fail_input(&e);
    }
    if let Err(e) = std::fs::create_dir_all(&a.dir) {
        return fail_input(CliError::Create {
            path: a.dir.clone(),
            source: e,
        });
    }
    let stem = a.out.clone().unwrap_or_else(|| format!("row{}", a.row));
    if stem.is_empty() || stem.contains(['/', '\\']) || stem.starts_with('.') {
        return fail_input(CliError::BadStem(stem));
    }
    if a.stones == 1 {
        if let Err(e) = refuse_clobber(&a, &stem) {
            return fail_input(&e);
        }
    }
    let wiki: Vec<(String, i32, Vec<hexproof::edge_template::Rc>)> = hexwiki_one_stone()
        .into_iter()
        .filter(|t| t.1 == a.row)
        .collect();
    if a.stones >= 2 {
        return run_generate_two_stone(&a, &grid, width, height);
    }
    let seeds = match one_stone_seeds(&a, &grid, &wiki, (height, width)) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // Refutations on the solver's word must never reach a checked run: their own checkpoint.
    let trust = if a.trust_solver { ".trusted" } else { "" };
    let checkpoint = a.dir.join(format!("{stem}{trust}.checkpoint"));
    if a.fresh {
        let _ = std::fs::remove_file(&checkpoint);
    }
    let Some((opts, start)) = gen_options(&a, seeds, Some(checkpoint.clone())) else {
        return fail_input(CliError::Usage("time budgets must be positive"));
    };
    let budget = opts.budget;
    eprintln!(
        "row {}: region height {} width {} ({} cells)",
        a.row,
        height,
        width,
        grid.cells.len()
    );
    let en = match enumerate(&grid, &opts) {
        Ok(e) => e,
        Err(e) => return fail_input(&e),
    };
    let enum_secs = start.elapsed().as_secs_f64();
    let file = match build_file(&grid, &en, &budget) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("hexproof: error: {e}");
            return EXIT_FAILS;
        }
    };
    let out = match write_library_file(&a.dir, &stem, &file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if en.complete {
        let _ = std::fs::remove_file(&checkpoint);
    }
    let seconds = (start.elapsed().as_secs_f64(), enum_secs);
    print_generated(&a, (&grid, height, width), &en, &file, seconds, &out);
    EXIT_HOLDS
}

/// The `--seed` templates (HexWiki's one-stone templates of the row, by name) and, with
/// `--seed-hexwiki`, all of them; or the exit code of bad input already reported.
fn one_stone_seeds(
    a: &GenerateArgs,
    grid: &Grid,
    wiki: &[(String, i32, Vec<hexproof::edge_template::Rc>)],
    (height, width): (i32, i32),
) -> Result<Vec<Vec<hexproof::edge_template::Rc>>, u8> {
    let mut seeds = Vec::new();
    for name in &a.seed {
        match wiki.iter().find(|t| t.0 == *name) {
            Some(t) if t.2.iter().all(|rc| grid.cells.contains(rc)) => seeds.push(t.2.clone()),
            Some(_) => {
                return Err(fail_input(CliError::SeedMisfit {
                    name: name.clone(),
                    height,
                    width,
                }))
            }
            None => {
                return Err(fail_input(CliError::UnknownSeed {
                    name: name.clone(),
                    kind: "one-stone",
                    row: a.row,
                }))
            }
        }
    }
    if a.seed_hexwiki {
        seeds.extend(wiki.iter().map(|t| t.2.clone()));
    }
    if a.seeds_only && seeds.is_empty() {
        return Err(fail_input(CliError::Usage(
            "--seeds-only needs --seed or --seed-hexwiki",
        )));
    }
    Ok(seeds)
}

/// The summary of a one-stone run: the counts, the time (total, enumeration) and the records.
fn print_generated(
    a: &GenerateArgs,
    (grid, height, width): (&Grid, i32, i32),
    en: &hexproof::enumerate::Enumeration,
    file: &LibraryFile,
    (total_secs, enum_secs): (f64, f64),
    out: &std::path::Path,
) {
    let sizes: Vec<usize> = file.templates.iter().map(|r| r.size()).collect();
    println!(
        "row {}: region {}x{} ({} cells): {} minimal carriers, {} up to mirror ({} symmetric), sizes {:?}; {} searches ({} answered without one), {} transversals, {} undecided; {} in {:.1} s (enumeration {:.1} s); wrote {}",
        a.row,
        height,
        width,
        grid.cells.len(),
        en.minimal.len(),
        file.templates.len(),
        file.templates.iter().filter(|r| r.symmetry == hexproof::templates::library::Symmetry::Symmetric).count(),
        sizes,
        en.searches,
        en.saved,
        en.transversals,
        en.undecided,
        if en.complete { "complete" } else { "INCOMPLETE" },
        total_secs,
        enum_secs,
        out.display()
    );
    if en.trusted > 0 {
        println!(
            "{} refutations on the whole-board solver's word (--trust-solver): not complete, no minimality claimed",
            en.trusted
        );
    }
    print_records(&file.templates);
}

/// Writes `DIR/STEM.json`, except that an incomplete file never replaces a complete one: it
/// then goes to `DIR/STEM.incomplete`. Returns the path written.
fn write_library_file(
    dir: &std::path::Path,
    stem: &str,
    file: &LibraryFile,
) -> Result<PathBuf, u8> {
    let mut out = dir.join(format!("{stem}.json"));
    if !file.complete {
        let existing = Library::load(dir).ok().and_then(|l| {
            l.files
                .into_iter()
                .find(|(p, _)| *p == out)
                .map(|(_, f)| f.complete)
        });
        if existing == Some(true) {
            out = dir.join(format!("{stem}.incomplete"));
        }
    }
    std::fs::write(&out, format_file(file)).map_err(|source| {
        fail_input(CliError::Write {
            path: out.clone(),
            source,
        })
    })?;
    Ok(out)
}

/// Without --force, an existing `DIR/STEM.json` is not replaced: the run is refused before
/// any work.
fn refuse_clobber(a: &GenerateArgs, stem: &str) -> Result<(), CliError> {
    let out = a.dir.join(format!("{stem}.json"));
    if !a.force && out.exists() {
        return Err(CliError::Exists(out));
    }
    Ok(())
}

/// Seconds beyond this (about 31 years) are taken as this: `Duration` and `Instant` arithmetic
/// would overflow on larger values.
const MAX_SECONDS: f64 = 1e9;

/// `--time`, `--quick` and `--max-seconds` must be finite numbers of seconds: `--time` and
/// `--max-seconds` positive, `--quick` 0 or more (NaN, infinities and negatives are bad input).
fn check_seconds(a: &GenerateArgs) -> Result<(), CliError> {
    if !(a.time.is_finite() && a.time > 0.0) {
        return Err(CliError::NotPositiveSeconds {
            flag: "--time",
            seconds: a.time,
        });
    }
    if let Some(s) = a.max_seconds.filter(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(CliError::NotPositiveSeconds {
            flag: "--max-seconds",
            seconds: s,
        });
    }
    if !(a.quick.is_finite() && a.quick >= 0.0) {
        return Err(CliError::Quick(a.quick));
    }
    Ok(())
}

/// `generate --stones 2`: every canonical helper position, then one certified file.
/// The generator's options from the command line (budgets, deadline, seeds), and the start
/// time; `None` when a time budget is not positive.
fn gen_options(
    a: &GenerateArgs,
    seeds: Vec<Vec<hexproof::edge_template::Rc>>,
    checkpoint: Option<PathBuf>,
) -> Option<(GenOptions, Instant)> {
    check_seconds(a).ok()?;
    let budget = Budget {
        nodes: a.nodes,
        time: Some(Duration::from_secs_f64(a.time.min(MAX_SECONDS))),
        ..Budget::default()
    };
    let start = Instant::now();
    let quick = (a.quick > 0.0 && a.quick < a.time).then(|| Budget {
        nodes: ((a.nodes as f64) * a.quick / a.time).max(1.0) as u64,
        time: Some(Duration::from_secs_f64(a.quick.min(MAX_SECONDS))),
        ..Budget::default()
    });
    let opts = GenOptions {
        budget,
        quick,
        deadline: a
            .max_seconds
            .map(|s| start + Duration::from_secs_f64(s.min(MAX_SECONDS))),
        checkpoint,
        progress: !a.quiet,
        batch: a.batch as usize,
        seeds,
        seeds_only: a.seeds_only,
    };
    Some((opts, start))
}

/// `generate --stones 2`: the whole enumeration, or with `--seed NAMES --seeds-only` only
/// HexWiki's named two-stone templates certified in the region ([`seed_two_stone`]).
fn run_generate_two_stone(a: &GenerateArgs, grid: &Grid, width: i32, height: i32) -> u8 {
    if a.seed_hexwiki {
        return fail_input(CliError::Usage(
            "--seed-hexwiki is for one stone; name two-stone seeds with --seed",
        ));
    }
    if a.stones == 3 && (!a.seed.is_empty() || a.seeds_only) {
        return fail_input(CliError::Usage(
            "--stones 3 takes no seeds (HexWiki's seeds have one helper)",
        ));
    }
    if a.stones == 2 && a.seed.is_empty() == a.seeds_only {
        return fail_input(
            "with --stones 2, seeds need --seeds-only and --seeds-only needs --seed",
        );
    }
    let mut seeds = Vec::new();
    for name in &a.seed {
        let t = hexwiki_templates()
            .into_iter()
            .find(|t| t.0 == *name && t.1 == a.row && t.2.len() == 2);
        match t {
            Some((_, _, stones, carrier))
                if carrier
                    .iter()
                    .chain(&stones[1..])
                    .all(|rc| grid.cells.contains(rc)) =>
            {
                seeds.push((stones[1], carrier))
            }
            Some(_) => {
                return fail_input(CliError::SeedMisfit {
                    name: name.clone(),
                    height,
                    width,
                })
            }
            None => {
                return fail_input(CliError::UnknownSeed {
                    name: name.clone(),
                    kind: "two-stone",
                    row: a.row,
                })
            }
        }
    }
    let stem = a
        .out
        .clone()
        .unwrap_or_else(|| format!("row{}s{}", a.row, a.stones));
    if let Some(shard) = a.shard {
        let Some((opts, _)) = gen_options(a, Vec::new(), None) else {
            return fail_input(CliError::Usage("time budgets must be positive"));
        };
        return template_jobs::run_job(template_jobs::Job {
            region: grid,
            opts: &opts,
            nodes: a.nodes,
            time: a.time,
            settings: job_settings(a),
            shard,
            dir: &a.dir,
            stem: &stem,
        });
    }
    if let Err(e) = refuse_clobber(a, &stem) {
        return fail_input(&e);
    }
    let Some((opts, start)) = gen_options(a, Vec::new(), None) else {
        return fail_input(CliError::Usage("time budgets must be positive"));
    };
    generate_two_stone(a, grid, &opts, start, &seeds)
}

/// The options of a shard job, other than `--nodes` and `--time`, that can change an answer:
/// every shard of one merge must have run with the same.
fn job_settings(a: &GenerateArgs) -> String {
    format!(
        "quick={} batch={} max_seconds={:?} solver_nodes={} trust_solver={} solver_leaves={:?} max_builtin_template={:?}",
        a.quick, a.batch, a.max_seconds, a.solver_nodes, a.trust_solver, a.solver_leaves, a.max_builtin_template
    )
}

fn generate_two_stone(
    a: &GenerateArgs,
    grid: &Grid,
    opts: &GenOptions,
    start: Instant,
    seeds: &[(
        hexproof::edge_template::Rc,
        Vec<hexproof::edge_template::Rc>,
    )],
) -> u8 {
    let sets = helper_sets(grid, a.stones - 1);
    if a.fresh {
        for hs in &sets {
            let _ = std::fs::remove_file(helper_set_checkpoint(&a.dir, a.row, hs));
        }
        for (h, _) in seeds {
            let _ = std::fs::remove_file(seed_checkpoint(&a.dir, a.row, *h));
        }
    }
    eprintln!(
        "row {}, {} stones: region height {} width {} ({} cells), {} helper sets up to the mirror",
        a.row,
        a.stones,
        grid.height,
        grid.width,
        grid.cells.len(),
        sets.len()
    );
    let run = if seeds.is_empty() {
        enumerate_stones(grid, a.stones, opts, Some(&a.dir))
    } else {
        seed_two_stone(grid, seeds, opts, Some(&a.dir))
    };
    let run = match run {
        Ok(r) => r,
        Err(e) => return fail_input(&e),
    };
    let enum_secs = start.elapsed().as_secs_f64();
    let file = match build_two_stone_file(grid, &run, &opts.budget) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("hexproof: error: {e}");
            return EXIT_FAILS;
        }
    };
    let stem = a
        .out
        .clone()
        .unwrap_or_else(|| format!("row{}s{}", a.row, a.stones));
    let out = match write_library_file(&a.dir, &stem, &file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if run.complete {
        for hs in &sets {
            let _ = std::fs::remove_file(helper_set_checkpoint(&a.dir, a.row, hs));
        }
    }
    for hr in &run.helpers {
        let en = &hr.enumeration;
        let hs: Vec<String> = hr
            .helpers
            .iter()
            .map(|h| format!("[{}, {}]", h[0], h[1]))
            .collect();
        println!(
            "  helper {}: {} minimal carriers ({} with the helper essential, {} without, {} undecided; {} of open minimality); {} searches ({} answered without one), {} transversals; {}, {:.1} s",
            hs.join(" "),
            en.minimal.len(),
            hr.templates.len(),
            hr.inessential,
            hr.undecided,
            hr.open.len(),
            en.searches,
            en.saved,
            en.transversals,
            if en.complete { "complete" } else { "INCOMPLETE" },
            hr.seconds
        );
    }
    println!(
        "row {}, {} stones: region {}x{} ({} cells): {} up to mirror ({} symmetric); {} in {:.1} s (enumeration {:.1} s); wrote {}",
        a.row,
        a.stones,
        grid.height,
        grid.width,
        grid.cells.len(),
        plural(file.templates.len(), "template"),
        file.templates.iter().filter(|r| r.symmetry == hexproof::templates::library::Symmetry::Symmetric).count(),
        if run.complete { "complete" } else { "INCOMPLETE" },
        start.elapsed().as_secs_f64(),
        enum_secs,
        out.display()
    );
    print_records(&file.templates);
    EXIT_HOLDS
}

/// One line per record: name, size, stones, symmetry, minimality, HexWiki name.
fn print_records(records: &[hexproof::templates::library::Record]) {
    for r in records {
        let helpers: Vec<String> = r.stones[1..]
            .iter()
            .map(|s| format!("+[{}, {}]", s[0], s[1]))
            .collect();
        println!(
            "  {:<14} {:>3} cells {:<10} {:<9} {:<8} {}",
            r.name,
            r.size(),
            helpers.join(""),
            format!("{:?}", r.symmetry).to_lowercase(),
            format!("{:?}", r.minimality).to_lowercase(),
            r.provenance
                .hexwiki
                .as_deref()
                .map(|n| format!("HexWiki {n}"))
                .unwrap_or_else(|| "new".into())
        );
    }
}

/// The library of `--dir`, or the one built into the binary.
fn load(dir: Option<&std::path::Path>) -> Result<Library, u8> {
    match dir {
        Some(d) => Library::load(d),
        None => Library::builtin(),
    }
    .map_err(|e| fail_input(&e))
}

/// Where the library was read from, for messages.
fn library_name(dir: Option<&std::path::Path>) -> String {
    dir.map_or("the built-in library".into(), |d| d.display().to_string())
}

fn run_verify(a: VerifyArgs) -> u8 {
    let lib = match load(a.dir.as_deref()) {
        Ok(l) => l,
        Err(c) => return c,
    };
    // The records asked for by name (case-insensitive where unambiguous), or all.
    // Published templates go by `published/NAME` (HexWiki's names are the library's too).
    let published_names: Vec<String> = lib
        .published
        .iter()
        .flat_map(|(_, pf)| pf.templates.iter().map(|e| format!("published/{}", e.name)))
        .collect();
    let all_names: Vec<&str> = lib
        .records()
        .map(|r| r.name.as_str())
        .chain(
            lib.lemmas
                .iter()
                .flat_map(|(_, lf)| lf.lemmas.iter().map(|r| r.name.as_str())),
        )
        .chain(published_names.iter().map(String::as_str))
        .collect();
    let mut wanted = Vec::new();
    for n in &a.names {
        let place = library_name(a.dir.as_deref());
        match super::resolve_name(n, &all_names, "template", &place) {
            Ok(found) => wanted.push(found.to_string()),
            Err(m) => return fail_input(&m),
        }
    }
    let chosen = |name: &str| wanted.is_empty() || wanted.iter().any(|w| w == name);
    let total = all_names.iter().filter(|n| chosen(n)).count();
    let bar = super::progress_bar(a.json, total, "records");
    // One line per record as it is decided (above the bar when there is one).
    let report = |line: String| {
        if !a.json {
            bar.suspend(|| println!("{line}"));
        }
        bar.inc(1);
    };
    let start = Instant::now();
    let mut nodes = 0;
    let mut failures = Vec::new();
    let mut timed = Vec::new();
    // Reports one record's result as it comes; true when it verified. `cells` is the
    // record's carrier size and `cpu0` the thread's CPU time when its re-check began.
    let mut outcome = |path: &std::path::Path,
                       name: &str,
                       (kind, cells, cpu0): (&'static str, usize, Duration),
                       result: Result<usize, &dyn Display>| {
        let cpu = (thread_cpu_time().saturating_sub(cpu0)).as_secs_f64();
        let p = path.display().to_string();
        let ok = result.is_ok();
        let n = match result {
            Ok(n) => {
                nodes += n;
                report(format!("ok {p}: {name} ({n} certificate nodes)"));
                n
            }
            Err(e) => {
                report(format!("FAILED {p}: {name}: {e}"));
                failures.push((p.clone(), name.to_string(), e.to_string()));
                0
            }
        };
        timed.push(Timed {
            file: p,
            name: name.to_string(),
            kind,
            cells,
            nodes: n,
            cpu,
            ok,
        });
        ok
    };
    let mut ok = 0;
    for (path, f) in &lib.files {
        for r in f.templates.iter().filter(|r| chosen(&r.name)) {
            let cpu0 = thread_cpu_time();
            let result = verify_record(r);
            let result = result.as_ref().map(|v| v.nodes);
            ok += usize::from(outcome(
                path,
                &r.name,
                ("template", r.carrier.len(), cpu0),
                result.map_err(|e| e as &dyn Display),
            ));
        }
    }
    // The published templates: each entry against the seeded library (its link to it).
    let mut published_ok = 0;
    if let Some((path, pf)) = &lib.published {
        let seeded: Vec<_> = lib.records().cloned().collect();
        for e in &pf.templates {
            let name = format!("published/{}", e.name);
            if !chosen(&name) {
                continue;
            }
            let cpu0 = thread_cpu_time();
            let result = verify_entry(e, &seeded);
            published_ok += usize::from(outcome(
                path,
                &name,
                ("published", e.carrier.len(), cpu0),
                result.as_ref().map(|n| *n).map_err(|e| e as &dyn Display),
            ));
        }
    }
    let mut lemmas_ok = 0;
    if let Some((path, lf)) = &lib.lemmas {
        let mut cache = Vec::new();
        // As `check --no-search`: every rule, lemma use and `by search` step is checked, but
        // no second, confirming search is run on steps their rule already justifies
        // (soundness never rests on it: `check::Options::confirm`). With it, re-checking the
        // lemma trees of the 8×8 file took minutes instead of seconds.
        let opts = hexproof::check::Options {
            search_rule_steps: false,
            ..hexproof::check::Options::default()
        };
        for r in lf.lemmas.iter().filter(|r| chosen(&r.name)) {
            let cpu0 = thread_cpu_time();
            let result = verify_lemma(r, &a.root, &mut cache, &opts);
            let result = result.as_ref().map(|v| v.nodes);
            lemmas_ok += usize::from(outcome(
                path,
                &r.name,
                ("lemma", r.carrier.len(), cpu0),
                result.map_err(|e| e as &dyn Display),
            ));
        }
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let cpu: f64 = timed.iter().map(|t| t.cpu).sum();
    let code = if failures.is_empty() {
        EXIT_HOLDS
    } else {
        EXIT_FAILS
    };
    if a.json {
        let (entries, by_cells) = verify_timings::json_fields(&timed);
        return print_json(
            json!({
                "verified": ok,
                "lemmas_verified": lemmas_ok,
                "published_verified": published_ok,
                "failed": failures.iter().map(|(p, n, e)| json!({"file": p, "name": n, "reason": e})).collect::<Vec<_>>(),
                "certificate_nodes": nodes,
                "seconds": secs,
                "cpu_seconds": cpu,
                "entries": entries,
                "by_cells": by_cells,
            }),
            code,
        );
    }
    println!(
        "{} and {} verified, and {} ({nodes} certificate nodes), {} failed, in {secs:.3} s ({cpu:.3} s CPU)",
        plural(ok, "template"),
        plural(lemmas_ok, "lemma"),
        plural(published_ok, "published template"),
        failures.len()
    );
    if a.timings {
        print!("{}", verify_timings::table(&timed));
    }
    code
}

fn run_import_proofs(a: ImportProofsArgs) -> u8 {
    let dir = a.root.join("proofs");
    let mut files: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "hexp"))
            .filter_map(|p| {
                p.file_name()
                    .map(|n| format!("proofs/{}", n.to_string_lossy()))
            })
            .collect(),
        Err(source) => {
            return fail_input(CliError::Read {
                path: dir.clone(),
                source,
            })
        }
    };
    files.sort();
    let start = Instant::now();
    let opts = hexproof::check::Options::default();
    let imported = match lemma_records(
        &a.root,
        &files,
        &opts,
        &Budget::nodes(a.nodes),
        a.max_certificate_nodes,
    ) {
        Ok(v) => v,
        Err(e) => return fail_input(e),
    };
    for i in &imported {
        println!("  {:<28} {}", i.name, i.note);
    }
    let file = LemmaFile {
        sources: files,
        lemmas: imported.into_iter().filter_map(|i| i.record).collect(),
    };
    let out = a.dir.join(LEMMA_FILE);
    if let Err(e) = std::fs::write(&out, format_lemma_file(&file)) {
        return fail_input(CliError::Write {
            path: out.clone(),
            source: e,
        });
    }
    println!(
        "{} from {} in {:.1} s; wrote {}",
        plural(file.lemmas.len(), "lemma"),
        plural(file.sources.len(), "file"),
        start.elapsed().as_secs_f64(),
        out.display()
    );
    EXIT_HOLDS
}

fn run_list(a: ListArgs) -> u8 {
    let lib = match load(a.dir.as_deref()) {
        Ok(l) => l,
        Err(c) => return c,
    };
    if a.json {
        let mut files: Vec<_> = lib
            .files
            .iter()
            .map(|(p, f)| {
                json!({
                    "file": p.file_name().map(|s| s.to_string_lossy().to_string()),
                    "row": f.row,
                    "stones": f.stones,
                    "region": f.region,
                    "complete": f.complete,
                    "templates": f.templates.iter().map(|r| json!({
                        "name": r.name,
                        "size": r.size(),
                        "symmetry": r.symmetry,
                        "minimality": r.minimality,
                        "hexwiki": r.provenance.hexwiki,
                        "certificate_nodes": r.certificate.nodes.len(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        if let Some((p, lf)) = &lib.lemmas {
            files.push(json!({
                "file": p.file_name().map(|s| s.to_string_lossy().to_string()),
                "lemmas": lf.lemmas.iter().map(|r| json!({
                    "name": r.name,
                    "board": r.board,
                    "claim": r.claim,
                    "frame": r.frame,
                    "size": r.carrier.len(),
                    "source": r.provenance.source,
                    "method": r.provenance.method,
                    "recheck": r.recheck,
                    "certificate_nodes": r.certificate.as_ref().map_or(0, |c| c.nodes.len()),
                })).collect::<Vec<_>>(),
            }));
        }
        let published: Vec<_> = lib
            .published
            .iter()
            .flat_map(|(_, pf)| &pf.templates)
            .map(|e| {
                json!({
                    "name": e.name,
                    "collection": e.collection,
                    "verdict": e.verdict,
                    "size": e.carrier.len(),
                    "goal_stones": e.goal_stones.len(),
                    "helper_stones": e.helper_stones.len(),
                    "minimized_size": e.minimized.as_ref().map(|m| m.size()),
                    "library": e.library,
                    "certificate_nodes": e.record.as_ref().map_or(0, |r| r.certificate.nodes.len()),
                })
            })
            .collect();
        return print_json(
            json!({ "files": files, "published": published }),
            EXIT_HOLDS,
        );
    } else {
        for (p, f) in &lib.files {
            println!(
                "{}: row {}, {}, region {}x{}, {}, {}",
                p.display(),
                f.row,
                plural(f.stones, "stone"),
                f.region.height,
                f.region.width,
                if f.complete { "complete" } else { "incomplete" },
                plural(f.templates.len(), "template")
            );
            print_records(&f.templates);
        }
        if let Some((p, pf)) = &lib.published {
            println!(
                "{}: {} (HexWiki, King, Selinger), not seeds of the solver",
                p.display(),
                plural(pf.templates.len(), "published template")
            );
            for e in &pf.templates {
                println!(
                    "  {:<38} {:<9} {:>3} cells {}+{} stones{}{}",
                    e.name,
                    format!("{:?}", e.verdict).to_lowercase(),
                    e.carrier.len(),
                    e.goal_stones.len(),
                    e.helper_stones.len(),
                    e.minimized
                        .as_ref()
                        .map(|m| format!(", minimized to {} cells", m.size()))
                        .unwrap_or_default(),
                    e.library
                        .as_ref()
                        .map(|l| format!(", library {} ({})", l.name, l.relation))
                        .unwrap_or_default()
                );
            }
        }
        if let Some((p, lf)) = &lib.lemmas {
            println!(
                "{}: {} proved in proofs/",
                p.display(),
                plural(lf.lemmas.len(), "lemma")
            );
            for r in &lf.lemmas {
                println!(
                    "  {:<28} {} {:<6} {:>3} cells  {} ({}), re-checked by {}",
                    r.name,
                    r.board,
                    format!("{:?}", r.claim).to_lowercase(),
                    r.carrier.len(),
                    r.provenance.source,
                    r.provenance.method,
                    format!("{:?}", r.recheck).to_lowercase()
                );
            }
        }
    }
    EXIT_HOLDS
}

fn run_show(a: ShowArgs) -> u8 {
    let lib = match load(a.dir.as_deref()) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let place = library_name(a.dir.as_deref());
    if let Some(out) = &a.html {
        return write_page(&lib, &place, out);
    }
    let names: Vec<&str> = lib.records().map(|r| r.name.as_str()).collect();
    let Some(r) = super::resolve_name(a.name.as_deref().unwrap_or(""), &names, "template", &place)
        .map_err(|m| fail_input(&m))
        .ok()
        .and_then(|n| lib.find(n))
    else {
        return super::EXIT_BAD_INPUT;
    };
    if a.svg {
        print!("{}", draw::svg(r));
    } else {
        println!(
            "{}: row {}, {} carrier cells, {}, {}{}",
            r.name,
            r.row,
            r.size(),
            format!("{:?}", r.symmetry).to_lowercase(),
            format!("{:?}", r.minimality).to_lowercase(),
            r.provenance
                .hexwiki
                .as_deref()
                .map(|n| format!(", HexWiki {n}"))
                .unwrap_or_default()
        );
        print!("{}", draw::ascii(r));
    }
    EXIT_HOLDS
}

/// `templates show --html OUT`: the page of the whole library (`templates::page`). Exit 0
/// when every record and entry re-checked, 1 when some did not (the page shows which).
fn write_page(lib: &Library, place: &str, out: &std::path::Path) -> u8 {
    let start = Instant::now();
    let (html, sum) = hexproof::templates::page::html(lib, &format!("hexproof templates: {place}"));
    if out.as_os_str() == "-" {
        print!("{html}");
    } else if let Err(e) = std::fs::write(out, &html) {
        return fail_input(format!("cannot write {}: {e}", out.display()));
    }
    let line = format!(
        "{} library records ({} re-checked), {} published templates ({} hold, {} fail, {} undecided), {} did not re-check; {} bytes in {:.2} s{}",
        sum.records,
        sum.records_ok,
        sum.published,
        sum.holds,
        sum.fails,
        sum.undecided,
        sum.not_rechecked,
        html.len(),
        start.elapsed().as_secs_f64(),
        if out.as_os_str() == "-" {
            String::new()
        } else {
            format!("; wrote {}", out.display())
        }
    );
    eprintln!("{line}");
    if sum.not_rechecked == 0 {
        EXIT_HOLDS
    } else {
        EXIT_FAILS
    }
}

/// The stones of --black and --white, then --moves.
fn match_position(a: &MatchArgs) -> Result<Position, CliError> {
    let stones = Position::from_names(
        a.position.board.board()?,
        &a.black,
        &a.white,
        a.position.notation(),
    )?;
    Ok(a.position.play_on(stones)?.0)
}

fn run_match(a: MatchArgs) -> u8 {
    let notation = a.position.notation();
    let position = match match_position(&a) {
        Ok(p) => p,
        Err(e) => return fail_input(e),
    };
    let board = *position.board();
    let lib = match load(a.dir.as_deref()) {
        Ok(l) => l,
        Err(c) => return c,
    };
    // Only records whose digest matches: an edited record is never reported as a template.
    let (intact, edited) = lib.intact_records();
    for e in &edited {
        eprintln!("hexproof: warning: {e}: digest mismatch (the record was edited); not used");
    }
    let found = matching::find(&position, intact);
    let name = |c| board.cell_name(c, notation);
    if a.json {
        let matches: Vec<_> = found
            .iter()
            .map(|m| {
                json!({
                    "template": m.name,
                    "colour": m.border.owner(),
                    "edge": m.border.letter().to_string(),
                    "mirrored": m.mirrored,
                    "stone": name(m.stone),
                    "carrier": m.carrier.iter().map(name).collect::<Vec<_>>(),
                })
            })
            .collect();
        return print_json(
            json!({ "moves": move_list(&board, &a.position.moves, notation), "matches": matches }),
            EXIT_HOLDS,
        );
    } else {
        for m in &found {
            println!(
                "{} {} {} - {}{}: [{}]",
                m.border.owner(),
                m.name,
                name(m.stone),
                m.border.letter(),
                if m.mirrored { " (mirrored)" } else { "" },
                board.set_names(&m.carrier, notation)
            );
        }
        println!("{}", plural(found.len(), "instance"));
    }
    EXIT_HOLDS
}
