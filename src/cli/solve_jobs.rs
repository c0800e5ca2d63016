//! `hexproof solve --openings all --shard i/n --out DIR` (one cluster job) and `hexproof
//! solve --combine DIR…` (the table from the jobs' files): [`hexproof::dfpn::jobs`],
//! docs/cluster.md.

use super::solve::{print_table, settings_line};
use super::{fail_input, print_json, EXIT_HOLDS, EXIT_UNDECIDED};
use hexproof::board::{Board, Notation};
use hexproof::dfpn::jobs::{self, Shard};
use hexproof::dfpn::{SolveParams, Winner};
use serde_json::json;
use std::path::{Path, PathBuf};

fn exit(undecided: bool) -> u8 {
    if undecided {
        EXIT_UNDECIDED
    } else {
        EXIT_HOLDS
    }
}

/// Runs one job: the openings of `shard`, results to `out`.
pub fn run_job(
    params: &SolveParams,
    board: &Board,
    shard: Shard,
    out: &Path,
    n: Notation,
    json_out: bool,
) -> u8 {
    let settings = settings_line(params);
    let line = |l: &jobs::JobLine| {
        if json_out {
            return;
        }
        let r = &l.record;
        let what = if l.skipped {
            "already done".to_string()
        } else {
            format!("{} nodes, {:.2} CPU-s", r.nodes, r.cpu_micros as f64 / 1e6)
        };
        let note = l
            .replaced
            .as_deref()
            .map(|why| format!(" (replaced a previous file: {why})"))
            .unwrap_or_default();
        eprintln!(
            "{} [{shard}]: {} ({what}) -> {}{note}",
            board.cell_name(l.cell, n),
            r.winner,
            out.join(jobs::file_name(board, l.cell)).display()
        );
    };
    let lines = match jobs::run_shard(
        *board,
        params,
        shard,
        out,
        &settings,
        hexproof::player::clock::thread_cpu_time,
        line,
    ) {
        Ok(l) => l,
        Err(e) => return fail_input(e),
    };
    let undecided = lines
        .iter()
        .any(|l| l.record.winner() == Some(Winner::Undecided));
    let solved = lines.iter().filter(|l| !l.skipped).count();
    let cpu: f64 = lines
        .iter()
        .filter(|l| !l.skipped)
        .map(|l| l.record.cpu_micros as f64 / 1e6)
        .fold(0.0, |a, b| a + b);
    if json_out {
        let rows: Vec<_> = lines
            .iter()
            .map(|l| {
                json!({
                    "opening": board.cell_name(l.cell, n),
                    "winner": l.record.winner,
                    "skipped": l.skipped,
                    "nodes": l.record.nodes,
                    "cpu_micros": l.record.cpu_micros,
                })
            })
            .collect();
        return print_json(
            json!({
                "board": jobs::board_name(board),
                "shard": shard.to_string(),
                "out": out.display().to_string(),
                "openings": rows,
                "solved": solved,
                "cpu_seconds": cpu,
            }),
            exit(undecided),
        );
    }
    println!(
        "shard {shard} of {}: {} ({solved} solved now, {} already done), {cpu:.2} CPU-s, results in {}",
        jobs::board_name(board),
        super::plural(lines.len(), "opening"),
        lines.len() - solved,
        out.display()
    );
    exit(undecided)
}

/// Combines the result files of `dirs` into the openings table of `board`.
pub fn run_combine(dirs: &[PathBuf], board: &Board, n: Notation, json_out: bool) -> u8 {
    let c = match jobs::combine(board, dirs) {
        Ok(c) => c,
        Err(e) => return fail_input(e),
    };
    if c.temp_files > 0 {
        eprintln!(
            "hexproof: note: {} leftover temporary file(s) ignored (a job killed while writing; its opening is taken from a complete file)",
            c.temp_files
        );
    }
    if c.settings.len() > 1 {
        eprintln!(
            "hexproof: warning: the result files come from {} different solver settings",
            c.settings.len()
        );
    }
    let undecided = c
        .openings
        .iter()
        .filter(|o| o.winner == Winner::Undecided)
        .count();
    let black_wins = c
        .openings
        .iter()
        .filter(|o| o.winner == Winner::Black)
        .count();
    let searched: Vec<_> = c.openings.iter().filter(|o| !o.by_rotation).collect();
    let nodes: u64 = searched.iter().map(|o| o.record.nodes).sum();
    let cpu: f64 = searched
        .iter()
        .map(|o| o.record.cpu_micros as f64 / 1e6)
        .fold(0.0, |a, b| a + b);
    if json_out {
        let rows: Vec<_> = c
            .openings
            .iter()
            .map(|o| {
                json!({
                    "opening": board.cell_name(o.cell, n),
                    "winner": o.winner,
                    "winning_move": o.winning_move.map(|m| board.cell_name(m, n)),
                    "by_rotation": o.by_rotation,
                    "nodes": o.record.nodes,
                    "cpu_micros": o.record.cpu_micros,
                    "shard": o.record.shard,
                })
            })
            .collect();
        return print_json(
            json!({
                "board": jobs::board_name(board),
                "openings": rows,
                "black_wins": black_wins,
                "undecided": undecided,
                "files": c.files,
                "nodes": nodes,
                "cpu_seconds": cpu,
            }),
            exit(undecided > 0),
        );
    }
    print_table(board, |cell| {
        c.openings
            .iter()
            .find(|o| o.cell == cell)
            .map_or(Winner::Undecided, |o| o.winner)
    });
    println!(
        "combined from {} result file(s) in {}; {} searched ({} by rotation); nodes: {nodes} in total, {cpu:.2} CPU-s summed over openings",
        c.files,
        dirs.iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        super::plural(searched.len(), "opening"),
        c.openings.len() - searched.len()
    );
    exit(undecided > 0)
}
