//! `hexproof templates import-published`: the published edge templates decided and certified
//! into `templates/published.json` (docs/templates.md, "Published templates").

use super::args::{exact_choice, EngineArg};
use super::{fail_input, plural, print_json, CliError, EXIT_HOLDS, EXIT_UNDECIDED};
use clap::Args;
use hexproof::engine::whole::{Engine, WholeParams};
use hexproof::enumerate::published::{
    import_one, parse_sources, undecided_entry, ImportOptions, Source,
};
use hexproof::player::clock::thread_cpu_time;
use hexproof::templates::library::Library;
use hexproof::templates::published::{
    format_published, parse_published, Entry, PublishedFile, PublishedVerdict,
};
use rayon::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

/// Decide every published edge template of the given files and write them, certified, as
/// `templates/published.json`.
///
/// Each template (HexWiki's, David King's and Peter Selinger's collections, in the format of
/// tests/fixtures/edge-templates-hexwiki.json) is placed on Black's edge of the smallest board
/// that holds it (`--wide-board`: the top edge of 19×19) with the claim
/// "some goal stone − the edge", White first, on exactly its published carrier, and decided
/// by the engine of `verify` (`--engine`). A template that holds is stored with a kernel
/// certificate (re-checked before it is written), and with a second record on the cells its
/// proof uses when they are strictly fewer; one that fails with White's refuting line; an
/// undecided one with what was tried. One line per template (verdict, carrier size, CPU
/// seconds, engine, certificate nodes) and a progress bar on stderr.
///
/// Examples:
///   hexproof templates import-published tests/fixtures/edge-templates-hexwiki.json tests/fixtures/edge-templates-king-selinger.json
///   hexproof templates import-published FILES… --update --engine solver --time 300   # only the undecided ones again
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ImportPublishedArgs {
    /// Collection files (JSON lists of templates).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The file written.
    #[arg(long, default_value = "templates/published.json")]
    out: PathBuf,
    /// Keep the entries of an existing --out that are decided (holds or fails) and decide only
    /// the others (and those named by --only).
    #[arg(long)]
    update: bool,
    /// Entries of these earlier outputs are kept like those of --out with --update (a decided
    /// one is preferred to an undecided one): to join runs made apart, e.g. with --only.
    #[arg(long, value_name = "FILE")]
    merge: Vec<PathBuf>,
    /// Decide only these templates (comma-separated names); the others are kept from --out
    /// (with --update) or left out.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    only: Vec<String>,
    /// Skip templates with more carrier cells than this (they are kept from --out with
    /// --update, else written as undecided, "not tried").
    #[arg(long, value_name = "CELLS")]
    max_cells: Option<usize>,
    /// Which engine decides (as `verify --engine`).
    #[arg(long, default_value = "auto", value_name = "ENGINE", value_parser = exact_choice::<EngineArg>(|s| format!("unknown engine {s:?} (expected local, solver or auto)")))]
    engine: EngineArg,
    /// With `--engine auto`: the local search's share of --nodes.
    #[arg(long, default_value_t = 100_000, value_name = "NODES")]
    local_nodes: u64,
    /// Budget of each template: maximum nodes.
    #[arg(long, default_value_t = 200_000_000)]
    nodes: u64,
    /// Budget of each template: maximum wall-clock seconds.
    #[arg(long, default_value_t = 60.0)]
    time: f64,
    /// Place each template on the top edge of a 19×19 board, one column in, as every entry
    /// decided before 2026-11-28's session 2 (default: Black's bottom edge of the smallest
    /// square board that holds it, as `examples/solver_probe`; 2.7× less CPU on four
    /// 37–38-cell Selinger templates). The records are the same edge-relative records either
    /// way; only the search and the certificate found differ.
    #[arg(long)]
    wide_board: bool,
    /// The whole-board engine's transposition-table entries (`--engine solver|auto`): the
    /// solver proves the root in it and the certificate is rebuilt from the proof it holds,
    /// so a template whose proof outgrows the table is solved again in parts; about 230
    /// bytes an entry. Environment: `HEXPROOF_WHOLE_TRACE=1` prints the engine's progress
    /// lines on stderr.
    #[arg(long, default_value_t = WholeParams::default().tt_entries, value_name = "N")]
    tt_entries: usize,
    /// The whole-board engine's cap on the certificate nodes it builds for one template
    /// (`--engine solver|auto`; the rebuild after a proved root stops, undecided, when it is
    /// reached). About 1.1 kB an entry with the rebuild's maps (session 31: 1.47 M nodes,
    /// 1.66 GB peak).
    #[arg(long, default_value_t = WholeParams::default().max_certificate_nodes, value_name = "N")]
    max_certificate_nodes: usize,
    /// The whole-board engine decides each template one White first move at a time, each
    /// move's claim certified on its own and the certificates joined under one root or-node
    /// (as `HEXPROOF_WHOLE_SPLIT=on`); the moves are tried cheapest first (outside White's
    /// mustplay, then by circuit energy).
    #[arg(long)]
    split: bool,
    /// With --split and `--engine solver`: keep each White first move's certificate in this
    /// folder (`DIR/<name>/white-<row>-<col>.json`) and start from the ones
    /// there, each re-checked by the kernel when read (one it rejects is decided again), so
    /// that runs add options instead of restarting. The template holds only when every White
    /// move is answered and the kernel accepts the joined certificate.
    #[arg(long, value_name = "DIR", requires = "split")]
    split_dir: Option<PathBuf>,
    /// With --split: at most this many seconds for each White first move; one undecided
    /// within them stays open and the next is tried (default: all the time left, and the
    /// split stops at the first undecided move).
    #[arg(long, value_name = "SECONDS", requires = "split")]
    split_option_time: Option<f64>,
    /// With --split: a White first move with no stored certificate is decided by a second
    /// split: Black's reply taken from the options proved so far (the most frequent first),
    /// then each White second move a claim of its own (with --split-dir its certificate kept
    /// in `DIR/<name>/white-<r>-<c>-black-<r>-<c>/`, re-checked by the kernel when read), the
    /// parts joined and checked by the kernel on the claim after White's first move.
    #[arg(long, requires = "split")]
    split_deep: bool,
    /// With --split-deep: the second split before the direct attempt (for moves known to be
    /// hard), Black's reply taken from the options proved so far.
    #[arg(long, requires = "split_deep")]
    split_deep_first: bool,
    /// With --split: try only these White first moves (comma-separated cell names on the
    /// board the template is placed on, as the engine's trace and the "open" list of an
    /// undecided entry name them, e.g. `k16,k14`); the stored certificates of the others are
    /// still read. A move left out stays open. Environment: `HEXPROOF_WHOLE_TOP=off` turns
    /// the solver's root rule (`solve --top-epsilon`) off in the whole-board engine.
    #[arg(long, value_delimiter = ',', value_name = "CELLS", requires = "split")]
    split_moves: Vec<String>,
    /// With --split-deep: Black's replies the deep step tries first, in this order, before
    /// its usual ones (comma- or space-separated cell names as for --split-moves, e.g. `l13`;
    /// at most 8). Only the order and choice of what is tried changes: every part is still
    /// checked by the kernel.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "CELLS",
        requires = "split_deep"
    )]
    split_deep_replies: Vec<String>,
    /// With --split-deep: the deep step's second split tries only these White second moves
    /// (comma-separated cell names, e.g. `m12`); its stored parts of the others are still
    /// read. A move left out stays open (for sending one run's time to one hard part).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "CELLS",
        requires = "split_deep"
    )]
    split_deep_moves: Vec<String>,
    /// With --split-deep: a third level. The deep step's second split runs a deep step of
    /// its own, first, on each White second move it tries with no stored part: Black's
    /// reply taken from these cells (comma- or space-separated, in order, at most 8), then a
    /// third split by White's third move, its parts kept in
    /// `…/white-<r>-<c>-black-<r>-<c>/white-<r>-<c>-black-<r>-<c>/` and re-checked by the
    /// kernel when read (use with --split-deep-moves to name the hard second move).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "CELLS",
        requires = "split_deep"
    )]
    split_deeper_replies: Vec<String>,
    /// With --split-deeper-replies: the third split tries only these White third moves
    /// (comma-separated cell names); its stored parts of the others are still read. A move
    /// left out stays open.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "CELLS",
        requires = "split_deeper_replies"
    )]
    split_deeper_moves: Vec<String>,
    /// Templates decided at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Print a JSON summary instead of the lines (no progress bar).
    #[arg(long)]
    json: bool,
}

/// One template's line of the report.
struct Line {
    name: String,
    cells: usize,
    verdict: PublishedVerdict,
    cpu: f64,
    engine: Option<Engine>,
    certificate_nodes: usize,
    minimized: Option<usize>,
    note: String,
}

fn verdict_word(v: PublishedVerdict) -> &'static str {
    match v {
        PublishedVerdict::Holds => "holds",
        PublishedVerdict::Fails => "FAILS",
        PublishedVerdict::Undecided => "undecided",
    }
}

/// Runs `hexproof templates import-published`.
pub fn run_import_published(a: ImportPublishedArgs) -> u8 {
    let mut sources: Vec<Source> = Vec::new();
    for f in &a.files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(source) => {
                return fail_input(CliError::Read {
                    path: f.clone(),
                    source,
                })
            }
        };
        match parse_sources(&text) {
            Ok(v) => sources.extend(v),
            Err(e) => return fail_input(format!("{}: not a template list ({e})", f.display())),
        }
    }
    if !a.time.is_finite() || a.time < 0.0 {
        return fail_input(CliError::NotSeconds {
            flag: "--time",
            seconds: a.time,
        });
    }
    if let Some(t) = a.split_option_time.filter(|t| !t.is_finite() || *t <= 0.0) {
        return fail_input(CliError::NotSeconds {
            flag: "--split-option-time",
            seconds: t,
        });
    }
    if a.split_dir.is_some() && Engine::from(a.engine) != Engine::Solver {
        return fail_input("--split-dir needs --engine solver");
    }
    // Earlier entries: --out with --update, then the --merge files; decided ones first.
    let mut old: Vec<Entry> = Vec::new();
    let earlier = [(&a.out, a.update)]
        .into_iter()
        .chain(a.merge.iter().map(|p| (p, true)));
    for (path, _) in earlier.filter(|(_, w)| *w) {
        match std::fs::read_to_string(path) {
            Ok(text) => match parse_published(path, &text) {
                Ok(f) => old.extend(f.templates),
                Err(e) => return fail_input(e),
            },
            Err(source) if a.merge.contains(path) => {
                return fail_input(CliError::Read {
                    path: path.clone(),
                    source,
                })
            }
            Err(_) => {}
        }
    }
    old.sort_by_key(|e| e.verdict == PublishedVerdict::Undecided);
    let library: Vec<_> = match Library::builtin() {
        Ok(l) => l.records().cloned().collect(),
        Err(e) => return fail_input(e),
    };
    let opts = ImportOptions {
        engine: a.engine.into(),
        local_nodes: a.local_nodes,
        nodes: a.nodes,
        seconds: a.time,
        fitting: !a.wide_board,
        tt_entries: a.tt_entries,
        max_certificate_nodes: a.max_certificate_nodes,
        trace: std::env::var_os("HEXPROOF_WHOLE_TRACE").is_some(),
        split: a.split,
        split_dir: a.split_dir.clone(),
        split_option_seconds: a.split_option_time,
        split_deep: a.split_deep,
        split_deep_first: a.split_deep_first,
        split_moves: a.split_moves.clone(),
        split_deep_replies: a
            .split_deep_replies
            .iter()
            .flat_map(|c| c.split_whitespace())
            .map(String::from)
            .collect(),
        split_deep_moves: a.split_deep_moves.clone(),
        split_deeper_replies: a
            .split_deeper_replies
            .iter()
            .flat_map(|c| c.split_whitespace())
            .map(String::from)
            .collect(),
        split_deeper_moves: a.split_deeper_moves.clone(),
    };
    // What to decide now: (source index, kept entry if not decided now).
    // The earlier entry of the same published template, decided ones first.
    // When all are undecided: what each tried, in order (--out, then the --merge files).
    let earlier = |s: &Source| -> Option<Entry> {
        let found: Vec<&Entry> = old
            .iter()
            .filter(|e| {
                e.name == s.name
                    && e.collection == s.set
                    && e.carrier == s.carrier
                    && e.goal_stones == s.goal_stones
                    && e.helper_stones == s.helper_stones
            })
            .collect();
        let mut first = (*found.first()?).clone();
        if first.verdict == PublishedVerdict::Undecided {
            let mut tried: Vec<&str> = Vec::new();
            for e in &found {
                if !tried.contains(&e.tried.as_str()) {
                    tried.push(&e.tried);
                }
            }
            first.tried = tried.join("; then ");
            first.digest = first.compute_digest();
        }
        Some(first)
    };
    let kept = |s: &Source| -> Option<Entry> {
        let named = a.only.contains(&s.name);
        let too_big = a.max_cells.is_some_and(|m| s.carrier.len() > m);
        match earlier(s) {
            Some(e) if !a.only.is_empty() => (!named).then_some(e),
            Some(e) => (e.verdict != PublishedVerdict::Undecided || too_big).then_some(e),
            None => None,
        }
    };
    let todo: Vec<(usize, bool)> = sources
        .iter()
        .enumerate()
        .filter(|(_, s)| kept(s).is_none())
        .filter(|(_, s)| a.only.is_empty() || a.only.contains(&s.name))
        .map(|(i, s)| (i, a.max_cells.is_none_or(|m| s.carrier.len() <= m)))
        .collect();
    let bar = super::progress_bar(a.json, todo.len(), "templates");
    let start = Instant::now();
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.max(1))
        .build()
    {
        Ok(p) => p,
        Err(e) => return fail_input(format!("cannot start {} threads: {e}", a.jobs)),
    };
    let decided: Vec<Result<(usize, Entry, Line), String>> = pool.install(|| {
        todo.par_iter()
            .map(|&(i, try_it)| {
                let s = &sources[i];
                let cpu0 = thread_cpu_time();
                let (entry, engine, certificate_nodes) = if try_it {
                    let mut im =
                        import_one(s, &library, &opts).map_err(|e| format!("{}: {e}", s.name))?;
                    // Still undecided: what was tried before stays in the record.
                    if let Some(before) =
                        earlier(s).filter(|_| im.entry.verdict == PublishedVerdict::Undecided)
                    {
                        im.entry.tried = format!("{}; then {}", before.tried, im.entry.tried);
                        im.entry.digest = im.entry.compute_digest();
                    }
                    (im.entry, Some(im.engine), im.certificate_nodes)
                } else {
                    let max = a.max_cells.unwrap_or(0);
                    let why = format!("not tried (more than {max} carrier cells)");
                    (undecided_entry(s, why), None, 0)
                };
                let line = Line {
                    name: s.name.clone(),
                    cells: s.carrier.len(),
                    verdict: entry.verdict,
                    cpu: (thread_cpu_time() - cpu0).as_secs_f64(),
                    engine,
                    certificate_nodes,
                    minimized: entry.minimized.as_ref().map(|m| m.size()),
                    note: entry
                        .library
                        .as_ref()
                        .map(|l| format!("library {} ({})", l.name, l.relation))
                        .unwrap_or_default(),
                };
                if !a.json {
                    bar.suspend(|| println!("{}", line_text(&line)));
                }
                bar.inc(1);
                Ok((i, entry, line))
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut fresh: Vec<Option<Entry>> = vec![None; sources.len()];
    let mut lines = Vec::new();
    for d in decided {
        match d {
            Ok((i, e, l)) => {
                fresh[i] = Some(e);
                lines.push(l);
            }
            Err(m) => return fail_input(m),
        }
    }
    let templates: Vec<Entry> = sources
        .iter()
        .enumerate()
        .filter_map(|(i, s)| fresh[i].take().or_else(|| kept(s)))
        .collect();
    let file = PublishedFile {
        sources: a.files.iter().map(|p| p.display().to_string()).collect(),
        command:
            "hexproof templates import-published (see docs/templates.md, \"Published templates\")"
                .into(),
        templates,
    };
    if let Err(source) = std::fs::write(&a.out, format_published(&file)) {
        return fail_input(CliError::Write {
            path: a.out.clone(),
            source,
        });
    }
    let count = |v: PublishedVerdict| file.templates.iter().filter(|e| e.verdict == v).count();
    let (holds, fails, undecided) = (
        count(PublishedVerdict::Holds),
        count(PublishedVerdict::Fails),
        count(PublishedVerdict::Undecided),
    );
    let cpu: f64 = lines.iter().fold(0.0, |t, l| t + l.cpu);
    let code = if undecided == 0 {
        EXIT_HOLDS
    } else {
        EXIT_UNDECIDED
    };
    if a.json {
        return print_json(
            json!({
                "out": a.out.display().to_string(),
                "templates": file.templates.len(),
                "holds": holds,
                "fails": fails,
                "undecided": undecided,
                "decided_now": lines.len(),
                "cpu_seconds": cpu,
                "seconds": start.elapsed().as_secs_f64(),
                "lines": lines.iter().map(|l| json!({
                    "name": l.name,
                    "cells": l.cells,
                    "verdict": l.verdict,
                    "cpu_seconds": l.cpu,
                    "engine": l.engine,
                    "certificate_nodes": l.certificate_nodes,
                    "minimized_cells": l.minimized,
                })).collect::<Vec<_>>(),
            }),
            code,
        );
    }
    println!(
        "{}: {holds} hold, {fails} fail, {undecided} undecided; {} decided now in {cpu:.1} s CPU ({:.1} s wall); wrote {}",
        plural(file.templates.len(), "template"),
        plural(lines.len(), "template"),
        start.elapsed().as_secs_f64(),
        a.out.display()
    );
    code
}

/// Rewrite a published-templates file in the current stored form (certificates packed) without
/// deciding anything.
///
/// Reads FILE (either certificate form: nodes as objects or packed), writes it with the
/// writer of `import-published`, and writes only if the text written reads back as exactly
/// the entries read (same records, certificates and digests); else nothing is written and the
/// exit code is 2. Run once to move the store to packed certificates (docs/templates.md,
/// "Packed certificates"); `templates verify` then re-checks it.
///
/// Examples:
///   hexproof templates repack-published
///   hexproof templates repack-published old.json --out templates/published.json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct RepackPublishedArgs {
    /// The file read.
    #[arg(default_value = "templates/published.json", value_name = "FILE")]
    file: PathBuf,
    /// The file written (default: FILE).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `hexproof templates repack-published`.
pub fn run_repack_published(a: RepackPublishedArgs) -> u8 {
    let text = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(source) => {
            return fail_input(CliError::Read {
                path: a.file.clone(),
                source,
            })
        }
    };
    let file = match parse_published(&a.file, &text) {
        Ok(f) => f,
        Err(e) => return fail_input(e),
    };
    let out = a.out.unwrap_or_else(|| a.file.clone());
    let written = format_published(&file);
    match parse_published(&out, &written) {
        Ok(back) if back == file => {}
        Ok(_) => {
            return fail_input(
                "the repacked file does not read back as the same entries; nothing written",
            )
        }
        Err(e) => {
            return fail_input(format!(
                "the repacked file does not read back ({e}); nothing written"
            ))
        }
    }
    if let Err(source) = std::fs::write(&out, &written) {
        return fail_input(CliError::Write { path: out, source });
    }
    let records = file
        .templates
        .iter()
        .flat_map(|e| e.record.iter().chain(&e.minimized))
        .count();
    let nodes: usize = file
        .templates
        .iter()
        .flat_map(|e| e.record.iter().chain(&e.minimized))
        .map(|r| r.certificate.nodes.len())
        .sum();
    println!(
        "{} entries, {} ({} certificate nodes): {} bytes read, {} bytes written to {} (same entries read back)",
        file.templates.len(),
        plural(records, "record"),
        nodes,
        text.len(),
        written.len(),
        out.display()
    );
    0
}

fn line_text(l: &Line) -> String {
    let engine = match l.engine {
        Some(Engine::Local) => "local",
        Some(Engine::Solver) => "solver",
        Some(Engine::Auto) => "auto",
        None => "-",
    };
    format!(
        "{:<9} {:<36} {:>3} cells {:>8.2} s CPU  {:<6} {:>6} cert nodes{}{}",
        verdict_word(l.verdict),
        l.name,
        l.cells,
        l.cpu,
        engine,
        l.certificate_nodes,
        l.minimized
            .map(|m| format!("  minimized to {m} cells"))
            .unwrap_or_default(),
        if l.note.is_empty() {
            String::new()
        } else {
            format!("  {}", l.note)
        }
    )
}
