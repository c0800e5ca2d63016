//! `hexproof gtp` (the GTP engine on stdin/stdout) and `hexproof selfplay` (matches between
//! player variants with an Elo table).

use super::args::{choice, exact_choice, LinksArg, PlayerKindArg, VariantArg};
use super::error::LogProblem;
use super::{fail_input, print_json, CliError, EXIT_HOLDS};
use clap::Args;
use hexproof::board::{Board, Cell, Colour, Notation};
use hexproof::gtp::Engine;
use hexproof::player::arena::{balanced_openings, elo, play_game, GameResult};
use hexproof::player::clock::Clock;
use hexproof::player::Config;
use serde_json::json;
use std::io::Write;
use std::time::Duration;

/// Player settings shared by `gtp` and `selfplay`.
#[derive(Args, Debug, Clone)]
pub struct PlayerArgs {
    /// The player: mcts (MoHex-style tree search) or alphabeta (HEXY's selective alpha-beta).
    #[arg(long, default_value = "mcts", value_parser = choice::<PlayerKindArg>(|s| format!("'{s}' is not a player (mcts or alphabeta)")))]
    player: PlayerKindArg,
    /// Seconds per move when the client sets no clock (GTP time_settings/time_left override).
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
    time: f64,
    /// Alpha-beta depth D (HEXY used 3).
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// H-search M: connections per endpoint pair (HEXY: 20); 0 = no connections at all.
    #[arg(long, default_value_t = 20)]
    m: usize,
    /// H-search K: most VSCs per OR rule (HEXY: 4–5).
    #[arg(long, default_value_t = 4)]
    k: usize,
    /// Alpha-beta: moves tried per node (best circuit energy first).
    #[arg(long, default_value_t = 8)]
    width: usize,
    /// Connection engine inside the search: fast, limited, unlimited or hsearch (uses M, K).
    #[arg(long, default_value = "fast", value_parser = choice::<VariantArg>(|s| format!("'{s}' is not a connection engine")))]
    variant: VariantArg,
    /// Do not seed connections with edge templates.
    #[arg(long)]
    no_templates: bool,
    /// How connections enter the circuit: none, direct, shared, both (Anshelevich §5).
    #[arg(long, default_value = "both", value_parser = exact_choice::<LinksArg>(|s| format!("'{s}' is not a link mode (none, direct, shared, both)")))]
    links: LinksArg,
    /// MCTS: no exact solver on a second thread.
    #[arg(long)]
    no_solver_thread: bool,
    /// Resign when the opponent has a winning virtual connection.
    #[arg(long)]
    resign: bool,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time each move by the search thread's CPU time instead of wall time (the same
    /// computation per move whatever the machine's load; GTP clocks remain wall time for the
    /// client, so use this for engine-vs-engine tests, not tournaments).
    #[arg(long)]
    cpu_clock: bool,
    /// MCTS: the learned move priors (data/patterns-11.txt) in the tree, as a progressive
    /// bias (off by default: no measured gain yet, see BENCHMARKS.md).
    #[arg(long)]
    priors: bool,
    /// MCTS: weight of the learned priors' progressive-bias term.
    #[arg(long, default_value_t = 0.08, value_name = "W")]
    prior_weight: f64,
}

impl PlayerArgs {
    fn config(&self) -> Result<Config, CliError> {
        if !(self.time.is_finite() && self.time > 0.0) {
            return Err(CliError::TimeNotPositive(self.time));
        }
        if !(self.prior_weight.is_finite() && self.prior_weight >= 0.0) {
            return Err(CliError::PriorWeight(self.prior_weight));
        }
        Ok(Config {
            kind: self.player.into(),
            depth: self.depth.max(1),
            m: self.m,
            k: self.k.max(1),
            width: self.width.max(1),
            variant: self.variant.into(),
            templates: !self.no_templates,
            links: self.links.into(),
            solver_thread: !self.no_solver_thread,
            resign: self.resign,
            move_time: Duration::from_secs_f64(self.time.min(3600.0)),
            clock: if self.cpu_clock {
                Clock::ThreadCpu
            } else {
                Clock::Wall
            },
            seed: self.seed,
            priors: self.priors,
            prior_weight: self.prior_weight,
            ..Config::default()
        })
    }
}

/// Play Hex over GTP (the Benzene/HexGui dialect) on stdin and stdout.
///
/// Reads one command per line and answers `= result` or `? error`, each reply ended by an
/// empty line; `12 genmove b` is answered `=12 …`. Cells are `a1`…, `a1` the acute corner;
/// Black joins top and bottom and moves first (as in HexGui and Benzene). The swap is
/// `play w swap-pieces` (Benzene's meaning: the stone stays, White moves again); the engine
/// itself answers `genmove w` with a swap only after `param_game allow_swap 1` (off by
/// default, as in Benzene). Once a side has joined its borders, `genmove` by the winner is
/// an error and the loser's answers `resign`; a second resignation is refused.
///
/// Time: `time_settings` and `time_left` set each move's budget (in byo-yomi `T/n` less 5%
/// and 20 ms); without them, --time. The answer comes within the budget: the exact solver
/// thread is not waited for past it, and it is cancelled (stops using the CPU) once the
/// move is chosen. `play w swap-pieces` is refused while the swap is off.
///
/// Commands: protocol_version name version known_command list_commands quit boardsize
/// clear_board play genmove reg_genmove undo showboard final_score all_legal_moves
/// time_settings time_left param_game param_player loadsgf savesgf printsgf
/// hexgui-analyze_commands, the analysis commands vc-between-cells-full|semi,
/// vc-get-mustplay, template-matches, eval-resist, eval-energy, solve-state, and the
/// bidding extension bidding-bid|criticality|loser|value.
///
/// Use it from HexGui: Program → New Program, command `hexproof gtp`.
///
/// Examples:
///   hexproof gtp --time 1
///   printf 'boardsize 7\ngenmove b\nshowboard\nquit\n' | hexproof gtp --time 0.5
///
/// Input lines are at most 1 MiB: a longer one is answered `? line too long` and skipped.
///
/// Exit code 0 after `quit` or end of input; 2 for bad options.
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct GtpArgs {
    #[command(flatten)]
    player: PlayerArgs,
    /// Log each generated move's search summary on stderr.
    #[arg(long)]
    verbose: bool,
    /// Jing Yang's 9x9 strategy file (hex99-3.txt): on 9x9, Black opens e5 and answers by
    /// the strategy while the game follows it; otherwise --player moves.
    #[arg(long, value_name = "FILE")]
    yang: Option<std::path::PathBuf>,
}

/// Runs the GTP loop.
pub fn run_gtp(a: GtpArgs) -> u8 {
    let config = match a.player.config() {
        Ok(c) => c,
        Err(e) => return fail_input(&e),
    };
    if config.templates && config.library_seeds {
        // The library's seeds are checked by the kernel on first use (about 0.4 s of CPU):
        // done now, before the first command is read, so that no genmove pays for it and
        // no CPU is used behind an answered move (a match referee's setup commands wait).
        hexproof::templates::seeds::library_seeds();
    }
    let mut engine = Engine::new(config);
    if let Some(path) = &a.yang {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(source) => {
                return fail_input(super::CliError::Read {
                    path: path.clone(),
                    source,
                })
            }
        };
        match hexproof::yang::Strategy::parse(&text) {
            Ok(s) => engine.yang = Some(s),
            Err(e) => return fail_input(format_args!("{}: {e}", path.display())),
        }
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::new();
    let mut input = stdin.lock();
    loop {
        // Lines are capped (`MAX_LINE_BYTES`): a longer one gets a `?` reply and is skipped.
        match hexproof::gtp::read_line_capped(&mut input, &mut buf, hexproof::gtp::MAX_LINE_BYTES) {
            Ok(hexproof::gtp::LineRead::Line) => {}
            Ok(hexproof::gtp::LineRead::TooLong) => {
                let reply = hexproof::gtp::line_too_long(&buf);
                buf = Vec::new();
                if out.write_all(reply.as_bytes()).is_err() || out.flush().is_err() {
                    break;
                }
                if hexproof::gtp::skip_line(&mut input).is_err() {
                    break;
                }
                continue;
            }
            Ok(hexproof::gtp::LineRead::Eof) | Err(_) => break,
        }
        // Invalid UTF-8 is replaced, never fatal.
        let line = String::from_utf8_lossy(&buf);
        if let Some(reply) = engine.handle(&line) {
            if out.write_all(reply.as_bytes()).is_err() || out.flush().is_err() {
                break;
            }
            if a.verbose && !engine.last_info.is_empty() {
                eprintln!("hexproof: {}", engine.last_info);
                engine.last_info.clear();
            }
        }
        if engine.quit {
            break;
        }
    }
    EXIT_HOLDS
}

/// Play a match between player variants on balanced openings and print an Elo table.
///
/// Each variant is a comma-separated list of settings `key=value` (keys: player, depth, m,
/// k, width, variant, templates, links, solver; e.g. `player=alphabeta,depth=3,m=20`). Every
/// pair of variants plays every opening twice, once with each as Black. The openings are
/// those of Pawlewicz et al. 2015 §VII-B scaled to the board (11×11: a2–k2, a10–k10,
/// b1–j1, b11–j11): a Black stone, then White moves; no swap. Games stop at a winning
/// connection (sound adjudication).
///
/// Examples:
///   hexproof selfplay --board 5 --time 0.1 --openings 2 "player=mcts" "player=alphabeta"
///   nice hexproof selfplay --board 7 --time 0.2 --openings 4 "player=mcts" "player=alphabeta"
///
/// Exit codes: 0 done, 2 bad input.
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct SelfplayArgs {
    /// The variants (two or more).
    #[arg(required = true, num_args = 2..)]
    variants: Vec<String>,
    /// Board size.
    #[arg(long, default_value = "11")]
    board: String,
    /// Seconds of wall time per move (noisy and unfair on a loaded machine; see --cpu-time).
    #[arg(long, default_value_t = 1.0)]
    time: f64,
    /// Seconds of CPU time of the search thread per move, instead of --time: every player
    /// gets the same computation whatever the machine's load (one search thread; the MCTS
    /// solver thread stays off unless a variant sets solver=1). This is the fixed "time per
    /// move" of a fair match.
    #[arg(long, value_name = "SECONDS", conflicts_with = "time")]
    cpu_time: Option<f64>,
    /// Only the games of variant 0 against each of the others (a gauntlet with variant 0 as
    /// the anchor) instead of a full round robin.
    #[arg(long)]
    gauntlet: bool,
    /// Append each finished game to this file as one JSON line (flushed at once, so an
    /// interrupted match loses nothing; --tally reads it back).
    #[arg(long, value_name = "FILE")]
    log: Option<std::path::PathBuf>,
    /// Play only the openings with these indices in the (selected) list, `START-END` with
    /// END excluded, e.g. `20-40` for the second half of the 40 on 11×11: to split one match
    /// over several processes (CPU-time budgets keep them fair), then --tally the logs.
    #[arg(long, value_name = "START-END")]
    opening_range: Option<String>,
    /// Play nothing: read the games of a --log file (several files concatenated are fine)
    /// and print their Elo table. Each game's players are found among the variants given by
    /// their settings text; the first variant is the anchor.
    #[arg(long, value_name = "FILE")]
    tally: Option<std::path::PathBuf>,
    /// Use only every k-th balanced opening, spread over the list (0 = all).
    #[arg(long, default_value_t = 0)]
    openings: usize,
    /// Write every game's SGF into this file (one per line).
    #[arg(long)]
    sgf: Option<std::path::PathBuf>,
    /// JSON output.
    #[arg(long)]
    json: bool,
}

/// Runs a match.
pub fn run_selfplay(a: SelfplayArgs) -> u8 {
    let m = match match_setup(&a) {
        Ok(m) => m,
        Err(e) => return fail_input(&e),
    };
    let results = match &a.tally {
        Some(path) => match read_log(path, &m.board, &a.variants) {
            Ok(r) => r,
            Err(e) => return fail_input(&e),
        },
        None => match play_match(&a, &m) {
            Ok(r) => r,
            Err(e) => return fail_input(&e),
        },
    };
    if let Some(p) = &a.sgf {
        let text: String = results.iter().map(|r| r.sgf.clone() + "\n").collect();
        if let Err(source) = std::fs::write(p, text) {
            return fail_input(CliError::Write {
                path: p.clone(),
                source,
            });
        }
    }
    report_match(&a, &m, &results);
    EXIT_HOLDS
}

/// A match as the command line sets it up: the board, the players, the openings, the clock.
struct Match {
    board: Board,
    configs: Vec<Config>,
    openings: Vec<Cell>,
    seconds: f64,
    clock: Clock,
}

fn match_setup(a: &SelfplayArgs) -> Result<Match, CliError> {
    let board = Board::parse(&a.board)?;
    let (seconds, clock) = match a.cpu_time {
        Some(c) => (c, Clock::ThreadCpu),
        None => (a.time, Clock::Wall),
    };
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
        return Err(CliError::Usage(
            "the time per move must be positive (at most 3600 s)",
        ));
    }
    let mut configs = Vec::new();
    for v in &a.variants {
        let c = Config::from_spec(v).map_err(|source| CliError::Variant {
            spec: v.clone(),
            source,
        })?;
        configs.push(Config { clock, ..c });
    }
    let all = balanced_openings(&board);
    let openings: Vec<_> = if a.openings == 0 || a.openings >= all.len() {
        all
    } else {
        (0..a.openings)
            .map(|i| all[i * all.len() / a.openings])
            .collect()
    };
    let openings = match &a.opening_range {
        None => openings,
        Some(r) => {
            let parsed = r.split_once('-').and_then(|(x, y)| {
                Some((
                    x.trim().parse::<usize>().ok()?,
                    y.trim().parse::<usize>().ok()?,
                ))
            });
            match parsed {
                Some((x, y)) if x < y && y <= openings.len() => openings[x..y].to_vec(),
                _ => {
                    return Err(CliError::OpeningRange {
                        range: r.clone(),
                        openings: openings.len(),
                    })
                }
            }
        }
    };
    Ok(Match {
        board,
        configs,
        openings,
        seconds,
        clock,
    })
}

/// Plays every pair of variants (or variant 0 against the others with --gauntlet) on every
/// opening, once with each as Black; each game is reported on stderr (not with --json) and
/// appended to --log.
fn play_match(a: &SelfplayArgs, m: &Match) -> Result<Vec<GameResult>, CliError> {
    let mut log = match &a.log {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|source| CliError::Open {
                    path: p.clone(),
                    source,
                })?,
        ),
        None => None,
    };
    let t = Duration::from_secs_f64(m.seconds);
    let n = m.configs.len();
    let board = m.board;
    let mut results: Vec<GameResult> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if a.gauntlet && i != 0 {
                continue;
            }
            for &o in &m.openings {
                for (bi, wi) in [(i, j), (j, i)] {
                    let (winner, moves, adjudicated, game) =
                        play_game(board, o, &m.configs[bi], &m.configs[wi], t);
                    let r = GameResult {
                        black: bi,
                        white: wi,
                        opening: o,
                        winner,
                        moves,
                        adjudicated,
                        sgf: hexproof::sgf::write(&game),
                    };
                    if !a.json {
                        eprintln!(
                            "{} (B) vs {} (W), opening {}: {} wins after {}{}",
                            bi,
                            wi,
                            board.cell_name(o, Notation::Letters),
                            winner,
                            super::plural(moves, "move"),
                            if adjudicated {
                                " (adjudicated by a winning connection)"
                            } else {
                                ""
                            }
                        );
                    }
                    if let Some(f) = log.as_mut() {
                        let line = json!({
                            "black": bi,
                            "white": wi,
                            "black_spec": a.variants[bi],
                            "white_spec": a.variants[wi],
                            "opening": board.cell_name(o, Notation::Letters),
                            "winner": winner.to_string(),
                            "moves": moves,
                            "adjudicated": adjudicated,
                            "clock": m.clock.name(),
                            "seconds_per_move": m.seconds,
                            "sgf": r.sgf,
                        });
                        if writeln!(f, "{line}").and_then(|_| f.flush()).is_err() {
                            eprintln!("hexproof: cannot append to the log");
                        }
                    }
                    results.push(r);
                }
            }
        }
    }
    Ok(results)
}

/// Prints the Elo table of a match (as JSON with --json).
fn report_match(a: &SelfplayArgs, m: &Match, results: &[GameResult]) {
    let (board, configs, n) = (m.board, &m.configs, m.configs.len());
    let ratings = elo(results, n);
    let wins = |i: usize| {
        results
            .iter()
            .filter(|r| {
                (r.black == i && r.winner == Colour::Black)
                    || (r.white == i && r.winner == Colour::White)
            })
            .count()
    };
    let games = |i: usize| {
        results
            .iter()
            .filter(|r| r.black == i || r.white == i)
            .count()
    };
    if a.json {
        print_json(
            json!({
                "board": format!("{}x{}", board.cols(), board.rows()),
                "seconds_per_move": m.seconds,
                "clock": m.clock.name(),
                "openings": m.openings.len(),
                "games": results.len(),
                "black_wins": results.iter().filter(|r| r.winner == Colour::Black).count(),
                "players": (0..n).map(|i| json!({
                    "spec": a.variants[i],
                    "describe": configs[i].describe(),
                    "elo": ratings[i].0,
                    "error95": ratings[i].1,
                    "wins": wins(i),
                    "games": games(i),
                })).collect::<Vec<_>>(),
            }),
            EXIT_HOLDS,
        );
        return;
    }
    println!(
        "{}x{} board, {} s per move ({}), {} x 2 colours, {}, Black won {}",
        board.cols(),
        board.rows(),
        m.seconds,
        if m.clock == Clock::ThreadCpu {
            "search-thread CPU time"
        } else {
            "wall time"
        },
        super::plural(m.openings.len(), "opening"),
        super::plural(results.len(), "game"),
        results.iter().filter(|r| r.winner == Colour::Black).count()
    );
    println!("| # | variant | wins/games | Elo (95%) |");
    println!("| --- | --- | --- | --- |");
    for i in 0..n {
        println!(
            "| {i} | {} (`{}`) | {}/{} | {:+.0} ± {:.0} |",
            configs[i].describe(),
            a.variants[i],
            wins(i),
            games(i),
            ratings[i].0,
            ratings[i].1
        );
    }
}

/// The games of a `selfplay --log` file, checked against the variants of this command line.
fn read_log(
    path: &std::path::Path,
    board: &Board,
    variants: &[String],
) -> Result<Vec<GameResult>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for (k, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let bad = |problem: LogProblem| CliError::Log {
            path: path.to_path_buf(),
            line: k + 1,
            problem,
        };
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| bad(LogProblem::NotJson(e)))?;
        // Players are matched by their settings, so logs of separate processes (each with
        // its own numbering, e.g. one per pair of variants) combine.
        let idx = |key: &'static str| -> Result<usize, CliError> {
            let spec = v[format!("{key}_spec")]
                .as_str()
                .ok_or_else(|| bad(LogProblem::NoSpec(key)))?;
            variants.iter().position(|x| x == spec).ok_or_else(|| {
                bad(LogProblem::UnknownSpec {
                    key,
                    spec: spec.into(),
                })
            })
        };
        let (black, white) = (idx("black")?, idx("white")?);
        let winner = match v["winner"].as_str() {
            Some(w) if w.eq_ignore_ascii_case("black") => Colour::Black,
            Some(w) if w.eq_ignore_ascii_case("white") => Colour::White,
            _ => return Err(bad(LogProblem::Winner)),
        };
        let opening = v["opening"]
            .as_str()
            .and_then(|s| board.parse_cell(s, Notation::Letters).ok())
            .ok_or_else(|| bad(LogProblem::Opening))?;
        out.push(GameResult {
            black,
            white,
            opening,
            winner,
            moves: v["moves"].as_u64().unwrap_or(0) as usize,
            adjudicated: v["adjudicated"].as_bool().unwrap_or(false),
            sgf: v["sgf"].as_str().unwrap_or("").to_string(),
        });
    }
    Ok(out)
}
