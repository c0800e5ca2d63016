//! `hexproof solve`: who wins a whole Hex position, or every one-stone opening of a board.

use super::{fail_input, parse_notation, print_json, EXIT_HOLDS, EXIT_UNDECIDED};
use clap::Args;
use hexproof::board::{Board, Colour, Notation};
use hexproof::position::Position;
use hexproof::solver::shared::SharedSolved;
use hexproof::solver::{self, emit, Features, SolveOutcome, SolveParams, Winner};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Solves a Hex position (who wins with perfect play, and a winning move), or every one-stone
/// opening of a board.
///
/// The solver is a depth-first proof-number search (DFPN with the 1+ε trick) after
/// Henderson, Arneson & Hayward, "Solving 8x8 Hex" (IJCAI 2009): positions are decided by
/// virtual connections (the player to move has a winning VSC, or the opponent a winning VC),
/// only the mustplay (cells in every carrier of the opponent's winning VSCs) is searched, and
/// dead cells and captured pairs are filled in. Moves into vulnerable cells (a reply of the
/// opponent makes them dead) are skipped; regions cut off by opposite-colour bridges are
/// filled in when dead or held by a bridge, and a position whose groups split the board into
/// two independent halves is searched as the two halves (§4 of the paper). Every answer is
/// proved; when the budget runs out the answer is "undecided" (exit 3).
///
/// The position is reached by --moves, alternating and starting with Black. With
/// --openings all, each cell of the empty board is tried as Black's first move (White then to
/// move) and the table of winners is printed: B where the opening wins for Black. An opening
/// and its 180° rotation have the same winner, so only one of each pair is searched (all of
/// them with --no-rotation).
///
/// --emit-proof FILE writes the win as a strategy in the hexproof language (for a position
/// where Black wins with Black to move, or where White to move loses; White wins are written
/// for the transposed board, colours swapped); check it with `hexproof check FILE`.
///
/// Examples:
///   hexproof solve --board 6x6 --moves c3
///   hexproof solve --board 7x7 --openings all --threads 2
///   hexproof solve --board 5x5 --moves c3 --emit-proof c3.hexp && hexproof check c3.hexp
///   hexproof solve --board 7x7 --moves a1 --json
///
/// Exit codes: 0 solved, 2 bad input (unknown or occupied cell, position already won, board
/// too big), 3 undecided (budget).
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Board size, e.g. 7x7 (columns x rows) or 7.
    #[arg(long, default_value = "7x7")]
    board: String,
    /// The moves played, alternating and starting with Black, e.g. "d4 c5".
    #[arg(long, default_value = "", value_name = "MOVES")]
    moves: String,
    /// Solve every one-stone opening instead ("all").
    #[arg(long, value_name = "all")]
    openings: Option<String>,
    /// Threads for --openings: each thread takes the next opening from a queue, openings
    /// nearest an edge (the slowest on 7×7) first. At most 256 (as `bid`).
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
    /// Budget: most nodes (position evaluations) per position.
    #[arg(long, default_value_t = 5_000_000, value_name = "N")]
    nodes: u64,
    /// Budget: seconds per position.
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Transposition-table entries per position (about 140 bytes each).
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    tt_entries: usize,
    /// ε of the 1+ε trick (0 = plain DFPN).
    #[arg(long, default_value_t = 0.25, value_name = "EPS")]
    epsilon: f64,
    /// Ablation: no virtual connections (and hence no mustplay).
    #[arg(long)]
    no_vcs: bool,
    /// Ablation: no mustplay pruning.
    #[arg(long)]
    no_mustplay: bool,
    /// Ablation: no dead-cell fill-in.
    #[arg(long)]
    no_dead: bool,
    /// Ablation: no captured-pair fill-in.
    #[arg(long)]
    no_captured: bool,
    /// Ablation: no proof-set pruning (a refuted move's proof set refutes every move outside
    /// it).
    #[arg(long)]
    no_proof_sets: bool,
    /// Ablation: no rotation transpositions (the table stores a position and its 180°
    /// rotation separately; --openings all then solves every opening instead of one of each
    /// rotated pair).
    #[arg(long)]
    no_rotation: bool,
    /// Ablation: no capture-domination pruning (a move into a cell that another move's
    /// fill-in would give to the mover is skipped).
    #[arg(long)]
    no_dominated: bool,
    /// Ablation: no vulnerable-cell pruning (a move that some reply of the opponent makes
    /// dead is skipped).
    #[arg(long)]
    no_vulnerable: bool,
    /// Ablation: no decompositions (regions cut off by opposite-colour bridges: dead ones, and
    /// ones with a bridge between their two groups of one colour, are filled in).
    #[arg(long)]
    no_decompose: bool,
    /// Ablation: no proof-set reduction (Theorem 3: a solved node's proof set loses the
    /// cells that become dead or loser-captured once the loser holds every cell outside it).
    #[arg(long)]
    no_proof_set_reduction: bool,
    /// Ablation: test the win of the player to move at every node (by default a child whose
    /// parent's connections found no such win avoiding the move gets one connection build,
    /// not two).
    #[arg(long)]
    no_skip_own_wins: bool,
    /// Weak disproof numbers: a node's disproof number is its children's largest proof
    /// number plus the number of its other open children, not their sum (Ueda et al. 2008).
    #[arg(long)]
    weak_dn: bool,
    /// Initial disproof number of a child not yet evaluated: 1 evaluates every child of a
    /// node before going deeper; larger values go deeper into a child with a narrow
    /// mustplay first (a search parameter only, sound for any value).
    #[arg(long, default_value_t = solver::DEFAULT_CHILD_DN, value_name = "N")]
    child_dn: u32,
    /// Update the connections along the search path (`VcSet::play_undoable`, undone on the
    /// way back) instead of rebuilding them at every node.
    #[arg(long, conflicts_with = "fresh_builds")]
    incremental: bool,
    /// Rebuild both colours' connections from scratch at every node (no incremental
    /// updates): slower, for cross-checking verdicts.
    #[arg(long)]
    fresh_builds: bool,
    /// Most stones added since the nearest built ancestor for an incremental update (more:
    /// a rebuild).
    #[arg(long, default_value_t = solver::eval::MAX_UPDATE_STONES, value_name = "N")]
    update_stones: usize,
    /// A database file (redb) of solved positions with few stones, read and extended by
    /// this run (created if missing): later runs and other openings look them up.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Most stones of a position stored in --db.
    #[arg(long, default_value_t = solver::db::DEFAULT_MAX_STONES, value_name = "N")]
    db_stones: usize,
    /// Write the win as a .hexp strategy to this file (single position only).
    #[arg(long, value_name = "FILE")]
    emit_proof: Option<PathBuf>,
    /// Largest leaf (and precluding) carrier of the emitted proof, in cells: the checker
    /// decides each by the exact search; a larger connection is split into White's moves
    /// and Black's replies.
    #[arg(long, default_value_t = emit::LEAF_MAX, value_name = "CELLS")]
    emit_leaf_max: usize,
    /// Move ordering: "resistance" (cells of high energy in the resistor circuits first,
    /// Anshelevich §6) or "centre" (cells near the centre first).
    #[arg(long, default_value = "resistance", value_name = "ORDER")]
    order: String,
    /// FastVC's soft limit on VSCs stored per endpoint pair: a number, or "none" (no
    /// limit). Tighter limits make each build cheaper but weaken the mustplay.
    #[arg(long, default_value = "16", value_name = "N|none")]
    vc_semi_limit: String,
    /// Ablation (--openings all): search each opening with its own table only. By default
    /// the openings' searches (and threads) share their solved positions with proof sets
    /// (Black a4, White x, Black d4 is reached from a4 and from d4).
    #[arg(long)]
    no_share_openings: bool,
    /// Cell names: letters (d4) or digits (Noshita's 44, boards up to 9x9).
    #[arg(long, default_value = "letters")]
    notation: String,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

struct Setup {
    position: Position,
    to_move: Colour,
    notation: Notation,
    params: SolveParams,
}

/// The most threads `--threads` may ask for (as `bid --threads`).
const MAX_THREADS: usize = 256;

fn setup(a: &SolveArgs) -> Result<Setup, String> {
    let board = Board::parse(&a.board).map_err(|e| e.to_string())?;
    let notation = parse_notation(&a.notation)?;
    let mut position = Position::empty(board);
    let cells = board
        .parse_cells(&a.moves, notation)
        .map_err(|e| e.to_string())?;
    for (k, c) in cells.iter().enumerate() {
        let name = board.cell_name(*c, notation);
        if c.is_border() {
            return Err(format!("move {} is a border ('{name}'), not a cell", k + 1));
        }
        let who = if k % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        position
            .play(who, *c)
            .map_err(|_| format!("move {} ({name}) is on an occupied cell", k + 1))?;
    }
    let to_move = if cells.len() % 2 == 0 {
        Colour::Black
    } else {
        Colour::White
    };
    solver::check_position(&position).map_err(|e| e.to_string())?;
    if let Some(t) = a.time {
        if !t.is_finite() || t <= 0.0 {
            return Err(format!("--time {t} is not a positive number of seconds"));
        }
    }
    if a.nodes == 0 {
        return Err("--nodes must be at least 1".into());
    }
    if !a.epsilon.is_finite() || a.epsilon < 0.0 {
        return Err(format!("--epsilon {} must be 0 or more", a.epsilon));
    }
    if a.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    if a.threads > MAX_THREADS {
        return Err(format!(
            "--threads {} is more than the {MAX_THREADS} allowed",
            a.threads
        ));
    }
    if a.child_dn == 0 {
        return Err("--child-dn must be at least 1".into());
    }
    if let Some(o) = &a.openings {
        if o != "all" {
            return Err(format!("--openings '{o}': only 'all' is supported"));
        }
        if !cells.is_empty() {
            return Err("--openings all starts from the empty board: drop --moves".into());
        }
        if a.emit_proof.is_some() {
            return Err(
                "--emit-proof works on one position: use --moves instead of --openings".into(),
            );
        }
    }
    let order = match a.order.as_str() {
        "centre" | "center" => solver::Ordering::Centre,
        "resistance" => solver::Ordering::Resistance,
        o => return Err(format!("--order '{o}': use centre or resistance")),
    };
    let semi_limit = match a.vc_semi_limit.as_str() {
        "none" => None,
        n => Some(
            n.parse::<usize>()
                .map_err(|_| format!("--vc-semi-limit '{n}': use a number or none"))?,
        ),
    };
    let db = match &a.db {
        Some(path) => {
            let db = solver::db::SolvedDb::open(path, a.db_stones)?;
            if db.legacy_records > 0 {
                eprintln!(
                    "hexproof: warning: database {}: {} record(s) of the first format (no checksum) are not used",
                    path.display(),
                    db.legacy_records
                );
            }
            if db.bad_records > 0 {
                eprintln!(
                    "hexproof: warning: database {}: {} record(s) fail their checksum and are ignored",
                    path.display(),
                    db.bad_records
                );
            }
            Some(std::sync::Arc::new(db))
        }
        None => None,
    };
    let params = SolveParams {
        db,
        order,
        semi_limit,
        nodes: a.nodes,
        time: a.time.map(|t| Duration::from_secs_f64(t.min(1e9))),
        tt_entries: a.tt_entries,
        epsilon: a.epsilon,
        features: Features {
            vcs: !a.no_vcs,
            mustplay: !a.no_mustplay,
            dead: !a.no_dead,
            captured: !a.no_captured,
            proof_sets: !a.no_proof_sets,
            rotation: !a.no_rotation,
            dominated: !a.no_dominated,
            vulnerable: !a.no_vulnerable,
            decompose: !a.no_decompose,
            incremental: (Features::ALL.incremental || a.incremental) && !a.fresh_builds,
            reduction: !a.no_proof_set_reduction,
            skip_own_wins: !a.no_skip_own_wins,
            weak_dn: a.weak_dn,
        },
        child_dn: a.child_dn,
        update_stones: a.update_stones,
        ..SolveParams::default()
    };
    Ok(Setup {
        position,
        to_move,
        notation,
        params,
    })
}

fn winner_name(w: Winner) -> &'static str {
    match w {
        Winner::Black => "Black",
        Winner::White => "White",
        Winner::Undecided => "undecided",
    }
}

fn outcome_json(o: &SolveOutcome, board: &Board, n: Notation) -> serde_json::Value {
    json!({
        "winner": o.winner,
        "to_move": o.to_move,
        "winning_move": o.winning_move.map(|c| board.cell_name(c, n)),
        "nodes": o.nodes,
        "vc_decided": o.vc_decided,
        "tt_entries": o.tt_entries,
        "seconds": o.micros as f64 / 1e6,
        "profile": o.profile,
    })
}

/// Runs `hexproof solve`.
pub fn run_solve(a: SolveArgs) -> u8 {
    let s = match setup(&a) {
        Ok(s) => s,
        Err(e) => return fail_input(&e),
    };
    if a.openings.is_some() {
        return run_openings(&a, &s);
    }
    let board = *s.position.board();
    // With --emit-proof the search is kept: the proof is written from its table (one solve).
    let start = std::time::Instant::now();
    let mut search = solver::make_search(&s.params, s.params.order.order(), start);
    let out = match solver::check_position(&s.position) {
        Ok(()) => solver::solve_in(&mut search, &s.position, s.to_move, start),
        Err(e) => return fail_input(&e.to_string()),
    };
    let mut proof_note = None;
    if let (Some(path), true) = (&a.emit_proof, out.winner != Winner::Undecided) {
        match emit::emit_solved(&mut search, &s.position, s.to_move, a.emit_leaf_max) {
            Ok(text) => {
                if let Err(e) = std::fs::write(path, text) {
                    return fail_input(&format!("cannot write {}: {e}", path.display()));
                }
                proof_note = Some(path.display().to_string());
            }
            Err(e) => {
                eprintln!("hexproof: no proof written: {e}");
            }
        }
    }
    if a.json {
        let mut v = outcome_json(&out, &board, s.notation);
        v["board"] = json!(format!("{}x{}", board.cols(), board.rows()));
        v["moves"] = json!(a.moves);
        v["proof"] = json!(proof_note);
        print_json(&v);
    } else {
        print!("{}", s.position.to_ascii(s.notation));
        println!("to move: {}", capital(s.to_move));
        match out.winner {
            Winner::Undecided => println!("winner:  undecided (budget exhausted)"),
            w => println!("winner:  {}", winner_name(w)),
        }
        if let Some(m) = out.winning_move {
            println!("winning move: {}", board.cell_name(m, s.notation));
        }
        println!(
            "nodes:   {} ({} decided by connections), table {} entries, {:.3} s",
            out.nodes,
            out.vc_decided,
            out.tt_entries,
            out.micros as f64 / 1e6
        );
        if let Some(p) = proof_note {
            println!("proof:   written to {p} (check it with `hexproof check {p}`)");
        }
    }
    if out.winner == Winner::Undecided {
        EXIT_UNDECIDED
    } else {
        EXIT_HOLDS
    }
}

fn capital(c: Colour) -> &'static str {
    match c {
        Colour::Black => "Black",
        Colour::White => "White",
    }
}

fn run_openings(a: &SolveArgs, s: &Setup) -> u8 {
    let board = *s.position.board();
    let cells: Vec<_> = board.cells().iter().collect();
    let start = Instant::now();
    let bar = if a.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(cells.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} openings, {elapsed} {msg}")
            .expect("valid template"),
    );
    // With rotation transpositions on, an opening and its 180° image have the same winner
    // (the rotation keeps each player's borders): solve the first of each pair only.
    let rotate = |c: hexproof::board::Cell| {
        let (x, y) = c.coords();
        hexproof::board::Cell::at(board.cols() - 1 - x, board.rows() - 1 - y)
    };
    let use_rotation = s.params.features.rotation;
    let mut solved: Vec<_> = cells
        .iter()
        .copied()
        .filter(|&c| !use_rotation || c.index() <= rotate(c).index())
        .collect();
    // Openings in the columns next to White's edges first, the middle rows before the
    // corners: on 7×7 these are the long searches (a4, a3, a2, g2, g1 and b4, b2 took
    // 30–140 CPU-s each, the rest under 30), and a queue that starts the long jobs first
    // keeps both threads busy to the end.
    let key = |c: hexproof::board::Cell| {
        let (x, y) = c.coords();
        let col = x.min(board.cols() - 1 - x);
        let row = y.min(board.rows() - 1 - y);
        (col, std::cmp::Reverse(row), c.index())
    };
    solved.sort_by_key(|&c| key(c));
    let bar_len = solved.len() as u64;
    bar.set_length(bar_len);
    // Solved positions (with proof sets) shared by all the openings' searches.
    let shared = (!a.no_share_openings).then(|| std::sync::Arc::new(SharedSolved::default()));
    let params = SolveParams {
        shared: shared.clone(),
        ..s.params.clone()
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    let worker = || loop {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(&c) = solved.get(i) else {
            return;
        };
        let mut p = Position::empty(board);
        p.play(Colour::Black, c).expect("empty board");
        let cpu0 = hexproof::player::clock::thread_cpu_time();
        let o = solver::solve(&p, Colour::White, &params).expect("one stone is legal");
        let cpu = (hexproof::player::clock::thread_cpu_time() - cpu0).as_secs_f64();
        let line = format!(
            "{}: {} ({} nodes, {:.2} s, {cpu:.2} CPU-s)",
            board.cell_name(c, s.notation),
            winner_name(o.winner),
            o.nodes,
            o.micros as f64 / 1e6
        );
        if !a.json {
            if bar.is_hidden() {
                eprintln!("{line}");
            } else {
                bar.println(line);
            }
        }
        bar.inc(1);
        if let Ok(mut d) = done.lock() {
            d.push((c, o, cpu));
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..a.threads {
            scope.spawn(worker);
        }
    });
    let solved_results: Vec<(hexproof::board::Cell, SolveOutcome, f64)> = match done.into_inner() {
        Ok(d) => d,
        Err(_) => return fail_input("a solver thread failed"),
    };
    bar.finish_and_clear();
    // Every opening: solved, or the image of a solved one (`by_rotation`), with the CPU
    // seconds of the thread that solved it.
    let results: Vec<(hexproof::board::Cell, SolveOutcome, bool, f64)> = cells
        .iter()
        .map(|&c| {
            let by_rotation = !solved_results.iter().any(|(x, _, _)| *x == c);
            let image = if by_rotation { rotate(c) } else { c };
            let (_, o, cpu) = solved_results
                .iter()
                .find(|(x, _, _)| *x == image)
                .expect("the opening or its image was solved");
            (c, o.clone(), by_rotation, *cpu)
        })
        .collect();
    let wall = start.elapsed().as_secs_f64();
    let nodes: u64 = solved_results.iter().map(|(_, o, _)| o.nodes).sum();
    let wall_sum: f64 = solved_results
        .iter()
        .map(|(_, o, _)| o.micros as f64 / 1e6)
        .sum();
    let cpu_seconds: f64 = solved_results.iter().map(|(_, _, cpu)| cpu).sum();
    let undecided = results
        .iter()
        .filter(|(_, o, _, _)| o.winner == Winner::Undecided)
        .count();
    let black_wins = results
        .iter()
        .filter(|(_, o, _, _)| o.winner == Winner::Black)
        .count();
    if a.json {
        let rows: Vec<_> = results
            .iter()
            .map(|(c, o, by_rotation, cpu)| {
                let mut v = outcome_json(o, &board, s.notation);
                v["opening"] = json!(board.cell_name(*c, s.notation));
                v["by_rotation"] = json!(by_rotation);
                v["cpu_seconds"] = json!(cpu);
                if *by_rotation {
                    v["winning_move"] = json!(o
                        .winning_move
                        .map(|m| board.cell_name(rotate(m), s.notation)));
                }
                v
            })
            .collect();
        print_json(&json!({
            "board": format!("{}x{}", board.cols(), board.rows()),
            "openings": rows,
            "black_wins": black_wins,
            "undecided": undecided,
            "nodes": nodes,
            "solved": solved_results.len(),
            "sum_seconds": wall_sum,
            "cpu_seconds": cpu_seconds,
            "wall_seconds": wall,
            "threads": a.threads,
            "shared_entries": shared.as_ref().map(|t| t.len()),
            "shared_hits": solved_results.iter().map(|(_, o, _)| o.profile.shared_hits).sum::<u64>(),
            "shared_evals": solved_results.iter().map(|(_, o, _)| o.profile.shared_evals).sum::<u64>(),
        }));
    } else {
        let mut s2 = String::from("  ");
        for c in 0..board.cols() {
            s2.push_str(&format!(" {}", (b'a' + c) as char));
        }
        println!("{s2}");
        for r in 0..board.rows() {
            let mut line = format!("{:>2} {}", r + 1, " ".repeat(r as usize));
            for col in 0..board.cols() {
                let cell = hexproof::board::Cell::at(col, r);
                let o = &results
                    .iter()
                    .find(|(c, _, _, _)| *c == cell)
                    .expect("every cell")
                    .1;
                line.push(match o.winner {
                    Winner::Black => 'B',
                    Winner::White => '.',
                    Winner::Undecided => '?',
                });
                line.push(' ');
            }
            println!("{}", line.trim_end());
        }
        println!(
            "B = the opening wins for Black ({black_wins} of {}), . = it loses, ? = undecided ({undecided})",
            results.len()
        );
        println!(
            "{} openings searched ({} by rotation); nodes: {nodes} in total, {cpu_seconds:.2} CPU-s ({wall_sum:.2} s wall) summed over openings, wall {wall:.2} s with {} thread(s)",
            solved_results.len(),
            results.len() - solved_results.len(),
            a.threads
        );
    }
    if undecided > 0 {
        EXIT_UNDECIDED
    } else {
        EXIT_HOLDS
    }
}
