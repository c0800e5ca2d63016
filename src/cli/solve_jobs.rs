//! `hexproof solve --openings all --shard i/n --out DIR` (one cluster job) and `hexproof
//! solve --combine DIR…` (the table from the jobs' files): [`hexproof::dfpn::jobs`],
//! docs/cluster.md.

use super::solve::{print_table, settings_line};
use super::{fail_input, print_json, EXIT_HOLDS, EXIT_UNDECIDED};
use hexproof::board::{Board, Cell, Notation};
use hexproof::dfpn::frontier;
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
    only: Option<&[Cell]>,
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
        only,
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

/// Runs one frontier job: the sub-positions of `shard`, results to `out`.
pub fn run_frontier_job(
    params: &SolveParams,
    root: &frontier::Root,
    shard: Shard,
    out: &Path,
    n: Notation,
    json_out: bool,
) -> u8 {
    let settings = settings_line(params);
    let board = *root.position.board();
    let name = |l: &[hexproof::board::Cell]| {
        l.iter()
            .map(|&c| board.cell_name(c, n))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let line = |l: &frontier::FrontierLine| {
        if json_out {
            return;
        }
        let r = &l.record;
        let what = if l.skipped {
            "already done".to_string()
        } else {
            format!("{} nodes, {:.2} CPU-s", r.nodes, r.cpu_micros as f64 / 1e6)
        };
        eprintln!(
            "{} [{shard}]: {} ({what}) -> {}",
            name(&l.line),
            r.winner,
            out.join(frontier::file_name(&board, &l.line)).display()
        );
    };
    let lines = match frontier::run_shard(
        root,
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
    let undecided = lines.iter().any(|l| l.record.winner == "undecided");
    let solved = lines.iter().filter(|l| !l.skipped).count();
    let cpu: f64 = lines
        .iter()
        .filter(|l| !l.skipped)
        .map(|l| l.record.cpu_micros as f64 / 1e6)
        .sum();
    if json_out {
        return print_json(
            json!({
                "board": jobs::board_name(&board),
                "root": name(&root.moves),
                "depth": root.depth,
                "shard": shard.to_string(),
                "out": out.display().to_string(),
                "sub_positions": lines.len(),
                "solved": solved,
                "cpu_seconds": cpu,
            }),
            exit(undecided),
        );
    }
    println!(
        "frontier shard {shard} of '{}' on {} at depth {}: {} ({solved} solved now, {} already done), {cpu:.2} CPU-s, results in {}",
        name(&root.moves),
        jobs::board_name(&board),
        root.depth,
        super::plural(lines.len(), "sub-position"),
        lines.len() - solved,
        out.display()
    );
    exit(undecided)
}

/// Recombines the frontier files of `dirs` into the root's winner.
pub fn run_frontier_combine(dirs: &[PathBuf], n: Notation, json_out: bool) -> u8 {
    let c = match frontier::combine(dirs) {
        Ok(c) => c,
        Err(e) => return fail_input(e),
    };
    let board = *c.root.position.board();
    let root = c
        .root
        .moves
        .iter()
        .map(|&m| board.cell_name(m, n))
        .collect::<Vec<_>>()
        .join(" ");
    let winner = match c.winner {
        Winner::Black => "Black",
        Winner::White => "White",
        Winner::Undecided => "undecided",
    };
    let mv = c.winning_move.map(|m| board.cell_name(m, n));
    let cpu = c.cpu_micros as f64 / 1e6;
    if json_out {
        return print_json(
            json!({
                "board": jobs::board_name(&board),
                "root": root,
                "depth": c.root.depth,
                "winner": c.winner,
                "winning_move": mv,
                "sub_positions": c.jobs,
                "terminal": c.terminal,
                "files": c.files,
                "nodes": c.nodes,
                "cpu_seconds": cpu,
            }),
            exit(c.winner == Winner::Undecided),
        );
    }
    println!("winner: {winner}");
    if let Some(m) = mv {
        println!("winning move: {m}");
    }
    println!(
        "combined '{root}' on {} at depth {}: {} from {} file(s), {} terminal line(s) scored here; nodes: {} in total, {cpu:.2} CPU-s summed",
        jobs::board_name(&board),
        c.root.depth,
        super::plural(c.jobs, "sub-position"),
        c.files,
        c.terminal,
        c.nodes
    );
    exit(c.winner == Winner::Undecided)
}
