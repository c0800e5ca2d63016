//! `hexproof bid` (move and bid for Bidding Hex) and `hexproof bid-game` (play on the
//! terminal). The algorithms live in `hexproof::bidding`.

use super::args::{choice, not_a_colour, BoardArgs, ColourArg, PositionArgs, WhoArg};
use super::{fail_input, print_json, CliError, EXIT_HOLDS};
use clap::Args;
use hexproof::bidding::game::{play, GameConfig};
use hexproof::bidding::{self, svg, Advice, Analysis, McConfig, Method, CHUNK, MAX_EXACT_EMPTY};
use hexproof::board::{Colour, Notation};
use hexproof::position::Position;
use serde_json::json;

/// Most worker threads `--threads` may ask for (as `solve`'s).
const MAX_THREADS: u64 = 256;

const BID_EXAMPLES: &str = "\
Examples:
  hexproof bid --board 11x11 --moves \"f6 e7 d5\" --chips 100 --mine 60
  hexproof bid --board 11 --black \"f6 d5\" --white e7 --chips 100 --mine 40 --colour white \\
      --samples 1000000 --seed 7 --threads 2 --json
  hexproof bid --board 5x5 --moves c3 --chips 20 --mine 10 --exact --svg heat.svg

The move minimises L_H, the chance that the cell ends up in the loser's colour when the empty
cells are filled at random (Payne & Robeva, \"Artificial intelligence for Bidding Hex\", §5);
the bid is floor((1/2 - L_H) x total chips) (their Proposition 5.2), capped at your chips.
Both are the same for Black and White; --colour only changes the reported chances.
Results depend on --seed and --samples, never on --threads.

Exit codes: 0 success, 2 bad input, 3 undecided (--time ran out before the samples or the
exact enumeration were done: give more time or fewer --samples).";

/// Suggest a move and a bid in Bidding Hex (Monte Carlo over random fillings, or exact).
#[derive(Args, Debug)]
#[command(after_long_help = BID_EXAMPLES, after_help = "Examples and details: hexproof bid --help")]
pub struct BidArgs {
    /// The board, the moves so far (alternating Black, White, …; in Bidding Hex the turn
    /// order follows the auctions, so use --black/--white for arbitrary positions) and the
    /// notation.
    #[command(flatten)]
    position: PositionArgs,
    /// Black stones placed before --moves (repeatable).
    #[arg(long, num_args = 1.., value_name = "CELLS")]
    black: Vec<String>,
    /// White stones placed before --moves (repeatable).
    #[arg(long, num_args = 1.., value_name = "CELLS")]
    white: Vec<String>,
    /// Total chips in the game (both players together).
    #[arg(
        long,
        default_value = "100",
        value_name = "N",
        allow_negative_numbers = true
    )]
    chips: String,
    /// Your chips (default: half the total, rounded down).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    mine: Option<String>,
    /// Your colour: black or white. Only the reported winning chances depend on it.
    #[arg(long, default_value = "black", value_name = "COLOUR", value_parser = choice::<ColourArg>(not_a_colour))]
    colour: ColourArg,
    /// Number of random fillings.
    #[arg(
        long,
        default_value = "100000",
        value_name = "N",
        allow_negative_numbers = true
    )]
    samples: String,
    /// Random seed.
    #[arg(
        long,
        default_value = "1",
        value_name = "S",
        allow_negative_numbers = true
    )]
    seed: String,
    /// Worker threads (default: all cores). Does not change the result.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    threads: Option<String>,
    /// Enumerate all 2^N fillings of the N empty cells instead of sampling (N at most 32;
    /// 2^26 fillings take seconds).
    #[arg(long)]
    exact: bool,
    /// Time budget in seconds: when the fillings (sampled or enumerated) are not all counted
    /// by then, the answer is "undecided" (exit 3), never counts over fewer fillings.
    #[arg(long, default_value_t = 600.0, value_name = "SECONDS")]
    time: f64,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also write an SVG heat map of L_H to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// How many of the best cells to list in the text output.
    #[arg(
        long,
        default_value = "8",
        value_name = "N",
        allow_negative_numbers = true
    )]
    top: String,
}

const GAME_EXAMPLES: &str = "\
Examples:
  hexproof bid-game                                   # you (Black) against the engine on 5x5
  hexproof bid-game --board 7x7 --white human         # two humans
  hexproof bid-game --black engine --white human --chips 20 --black-chips 10
  hexproof bid-game --black engine --white engine < /dev/null   # watch the engine play itself

Each move is auctioned: both players bid (type a number), the higher bid pays that many chips
to the other player and then moves (type a cell such as c3). Ties go to the holder of the
tie-break token, who then passes it on. At the prompts you can also type hint, board, help or
quit. Bids are typed in the open, so two humans at one terminal should look away.

Exit codes: 0 the game ended (or the input did), 2 bad input.";

/// Play Bidding Hex on the terminal: two humans, human against engine, or engine against
/// engine.
#[derive(Args, Debug)]
#[command(after_long_help = GAME_EXAMPLES, after_help = "Examples and rules: hexproof bid-game --help")]
#[command(mut_arg("board", |a| a.default_value("5x5")))]
pub struct BidGameArgs {
    /// The board (default 5x5) and the notation.
    #[command(flatten)]
    board: BoardArgs,
    /// Total chips in the game.
    #[arg(
        long,
        default_value = "100",
        value_name = "N",
        allow_negative_numbers = true
    )]
    chips: String,
    /// Black's chips at the start (default: half, rounded down; White gets the rest).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    black_chips: Option<String>,
    /// Who plays Black: human or engine.
    #[arg(long, default_value = "human", value_name = "WHO", value_parser = choice::<WhoArg>(|s| format!("--black expects human or engine, not '{s}'")))]
    black: WhoArg,
    /// Who plays White: human or engine.
    #[arg(long, default_value = "engine", value_name = "WHO", value_parser = choice::<WhoArg>(|s| format!("--white expects human or engine, not '{s}'")))]
    white: WhoArg,
    /// Random fillings per engine decision.
    #[arg(
        long,
        default_value = "50000",
        value_name = "N",
        allow_negative_numbers = true
    )]
    samples: String,
    /// Random seed.
    #[arg(
        long,
        default_value = "1",
        value_name = "S",
        allow_negative_numbers = true
    )]
    seed: String,
    /// Worker threads for the engine (default: all cores).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    threads: Option<String>,
    /// Who holds the tie-break token first: black or white.
    #[arg(long, default_value = "white", value_name = "COLOUR", value_parser = choice::<ColourArg>(not_a_colour))]
    tie_break: ColourArg,
}

fn number(flag: &'static str, s: &str) -> Result<u64, CliError> {
    s.trim().parse::<u64>().map_err(|_| CliError::NotACount {
        flag,
        value: s.chars().take(40).collect(),
    })
}

fn threads(s: &Option<String>) -> Result<Option<usize>, CliError> {
    match s {
        None => Ok(None),
        Some(t) => match number("threads", t)? {
            0 => Err(CliError::Zero("--threads")),
            n if n > MAX_THREADS => Err(CliError::TooManyThreads {
                given: n,
                max: MAX_THREADS,
            }),
            n => Ok(Some(n as usize)),
        },
    }
}

struct BidSetup {
    position: Position,
    notation: Notation,
    total: u64,
    mine: u64,
    colour: Colour,
    mc: McConfig,
    top: usize,
}

fn bid_setup(a: &BidArgs) -> Result<BidSetup, CliError> {
    let board = a.position.board.board()?;
    let notation = a.position.notation();
    let stones = Position::from_names(board, &a.black.join(" "), &a.white.join(" "), notation)?;
    let (position, _) = a.position.play_on(stones)?;
    let total = number("chips", &a.chips)?;
    let mine = match &a.mine {
        Some(m) => number("mine", m)?,
        None => total / 2,
    };
    if mine > total {
        return Err(CliError::TooManyChips {
            flag: "--mine",
            chips: mine,
            total,
            tail: " (--chips)",
        });
    }
    let samples = number("samples", &a.samples)?;
    if samples == 0 && !a.exact {
        return Err(CliError::Zero("--samples"));
    }
    let me = a.colour.into();
    let top = number("top", &a.top)? as usize;
    Ok(BidSetup {
        position,
        notation,
        total,
        mine,
        colour: me,
        mc: McConfig {
            samples: samples.max(1),
            seed: number("seed", &a.seed)?,
            threads: threads(&a.threads)?,
        },
        top,
    })
}

fn in_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, CliError> {
    match threads {
        None => Ok(f()),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map(|p| p.install(f))
            .map_err(|source| CliError::ThreadPool { threads: t, source }),
    }
}

/// Runs `hexproof bid`.
pub fn run_bid(a: BidArgs) -> u8 {
    let s = match bid_setup(&a) {
        Ok(s) => s,
        Err(e) => return fail_input(&e),
    };
    let analysis = match analyse(&a, &s) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let advice = match analysis.advice(s.total, s.mine) {
        Ok(x) => x,
        Err(e) => return fail_input(&e),
    };
    if let Some(path) = &a.svg {
        let text = svg::heat_map(
            &s.position,
            &analysis,
            s.notation,
            &heat_map_title(&s, &analysis, &advice),
        );
        if let Err(source) = std::fs::write(path, text) {
            return fail_input(CliError::Write {
                path: path.clone(),
                source,
            });
        }
    }
    if a.json {
        return print_json(bid_json(&s, &analysis, &advice), EXIT_HOLDS);
    }
    print_bid(&a, &s, &analysis, &advice);
    EXIT_HOLDS
}

/// Counts the fillings (all of them with `--exact`, else the samples) within `--time`: the
/// analysis, or the exit code already reported (bad input, or undecided when the time ran
/// out).
fn analyse(a: &BidArgs, s: &BidSetup) -> Result<Analysis, u8> {
    let empty = s.position.empty_cells().len();
    if a.exact && empty > MAX_EXACT_EMPTY && s.position.winner().is_none() {
        return Err(fail_input(CliError::ExactTooLarge {
            empty,
            max: MAX_EXACT_EMPTY,
        }));
    }
    if !(a.time.is_finite() && a.time > 0.0) {
        return Err(fail_input(CliError::NotPositiveSeconds {
            flag: "--time",
            seconds: a.time,
        }));
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(a.time.min(1e9));
    let result = if a.exact {
        in_pool(s.mc.threads, || {
            bidding::exact_until(&s.position, Some(deadline))
        })
    } else {
        Ok(bidding::monte_carlo_until(
            &s.position,
            &s.mc,
            Some(deadline),
        ))
    };
    match result {
        Ok(Ok(x)) => Ok(x),
        Ok(Err(e @ bidding::BiddingError::OutOfTime(_))) => {
            println!(
                "undecided: {e} (--time {}; give more time{})",
                a.time,
                if a.exact { "" } else { " or fewer --samples" }
            );
            Err(super::EXIT_UNDECIDED)
        }
        Ok(Err(e)) => Err(fail_input(e)),
        Err(e) => Err(fail_input(e)),
    }
}

/// The title of `--svg`'s heat map.
fn heat_map_title(s: &BidSetup, analysis: &Analysis, advice: &Advice) -> String {
    let b = *s.position.board();
    match advice.cell {
        Some(c) => format!(
            "{b} board: best move {}, L_H = {:.4}, bid {} of {} chips ({})",
            b.cell_name(c, s.notation),
            advice.loser_prob,
            advice.bid,
            s.total,
            method_text(analysis)
        ),
        None => format!("{b} board: the game is over"),
    }
}

/// The `--json` result of `bid`.
fn bid_json(s: &BidSetup, analysis: &Analysis, advice: &Advice) -> serde_json::Value {
    let b = *s.position.board();
    let name = |c| b.cell_name(c, s.notation);
    let cells: Vec<_> = analysis
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({
                "cell": name(c.cell),
                "loser_prob": analysis.loser_prob(i),
                "loser_se": analysis.loser_se(i),
                "critical_prob": analysis.critical_prob(i),
                "loser_count": c.loser,
                "critical_count": c.critical,
            })
        })
        .collect();
    let (method, seed) = match analysis.method {
        Method::Exact => ("exact", None),
        Method::MonteCarlo { seed } => ("monte_carlo", Some(seed)),
        Method::Decided => ("decided", None),
    };
    json!({
        "board": b.to_string(),
        "black": s.position.stones(Colour::Black).iter().map(name).collect::<Vec<_>>(),
        "white": s.position.stones(Colour::White).iter().map(name).collect::<Vec<_>>(),
        "winner": analysis.decided,
        "move": advice.cell.map(name),
        "bid": advice.bid,
        "uncapped_bid": advice.uncapped_bid,
        "delta": advice.delta,
        "move_loser_prob": advice.loser_prob,
        "move_loser_se": advice.loser_se,
        "chips": s.total,
        "mine": s.mine,
        "colour": s.colour,
        "method": method,
        "seed": seed,
        "chunk": if seed.is_some() { Some(CHUNK) } else { None },
        "samples": analysis.fillings,
        "black_wins": analysis.black_wins,
        "black_win_prob": analysis.black_win_prob(),
        "black_win_se": analysis.black_win_se(),
        "win_prob": analysis.win_prob(s.colour),
        "richman_threshold": analysis.richman_threshold(s.colour),
        "optimal": if analysis.is_exact() { Some(analysis.optimal_set().into_iter().map(name).collect::<Vec<_>>()) } else { None },
        "cells": cells,
    })
}

/// The text report of `bid`: the position, the chances, the move and bid, the best cells.
fn print_bid(a: &BidArgs, s: &BidSetup, analysis: &Analysis, advice: &Advice) {
    let b = *s.position.board();
    let n = s.notation;
    let name = |c| b.cell_name(c, n);
    let mut order: Vec<usize> = (0..analysis.cells.len()).collect();
    order.sort_by_key(|&i| (analysis.cells[i].loser, i));
    print!("{}", s.position.to_ascii(n));
    if let Some(w) = analysis.decided {
        println!("the game is over: {w} has won. No move, bid 0.");
        return;
    }
    println!(
        "{} empty cells; {}",
        analysis.empty(),
        method_text(analysis)
    );
    let me = s.colour;
    let pm = |x: f64| {
        if analysis.is_exact() {
            String::new()
        } else {
            format!(" ± {x:.4}")
        }
    };
    println!(
        "{me} wins the random-turn game with probability {:.4}{}; Richman threshold for {me}: {:.4} of the chips (you hold {}/{} = {:.4})",
        analysis.win_prob(me),
        pm(analysis.black_win_se()),
        analysis.richman_threshold(me),
        s.mine,
        s.total,
        if s.total > 0 { s.mine as f64 / s.total as f64 } else { 0.0 },
    );
    let best = advice.cell.expect("an undecided game has an empty cell");
    println!(
        "move: {}   L_H = {:.4}{}   P(critical) = {:.4}",
        name(best),
        advice.loser_prob,
        pm(advice.loser_se),
        1.0 - 2.0 * advice.loser_prob
    );
    print!(
        "bid:  {} chips = floor((1/2 - {:.4}) x {})",
        advice.bid, advice.loser_prob, s.total
    );
    if advice.bid < advice.uncapped_bid {
        print!(", capped at your {} chips", s.mine);
    }
    println!();
    if analysis.is_exact() {
        let opt: Vec<String> = analysis.optimal_set().into_iter().map(name).collect();
        println!("optimal moves (exact): {}", opt.join(" "));
    } else if order.len() > 1 {
        let (i, j) = (order[0], order[1]);
        let gap = analysis.loser_prob(j) - analysis.loser_prob(i);
        let se = (analysis.loser_se(i).powi(2) + analysis.loser_se(j).powi(2)).sqrt();
        if gap < 2.0 * se {
            println!(
                "note: the runner-up {} is within two standard errors (gap {:.4}); more --samples would separate them",
                name(analysis.cells[j].cell),
                gap
            );
        }
    }
    println!("best cells:");
    for &i in order.iter().take(s.top) {
        println!(
            "  {:<4} L_H = {:.4}{}   P(critical) = {:.4}",
            name(analysis.cells[i].cell),
            analysis.loser_prob(i),
            pm(analysis.loser_se(i)),
            analysis.critical_prob(i)
        );
    }
    if let Some(p) = &a.svg {
        println!("heat map written to {}", p.display());
    }
}

fn method_text(a: &Analysis) -> String {
    match a.method {
        Method::Exact => format!("exact over all {} fillings", a.fillings),
        Method::MonteCarlo { seed } => format!("{} random fillings, seed {seed}", a.fillings),
        Method::Decided => "decided".into(),
    }
}

fn game_setup(a: &BidGameArgs) -> Result<GameConfig, CliError> {
    let board = a.board.board()?;
    let total = number("chips", &a.chips)?;
    let black_chips = match &a.black_chips {
        Some(x) => number("black-chips", x)?,
        None => total / 2,
    };
    if black_chips > total {
        return Err(CliError::TooManyChips {
            flag: "--black-chips",
            chips: black_chips,
            total,
            tail: "",
        });
    }
    let samples = number("samples", &a.samples)?;
    if samples == 0 {
        return Err(CliError::Zero("--samples"));
    }
    Ok(GameConfig {
        board,
        total_chips: total,
        black_chips,
        black: a.black.into(),
        white: a.white.into(),
        samples,
        seed: number("seed", &a.seed)?,
        exact_limit: 16,
        threads: threads(&a.threads)?,
        notation: a.board.notation(),
        tie_token: a.tie_break.into(),
    })
}

/// Runs `hexproof bid-game`.
pub fn run_bid_game(a: BidGameArgs) -> u8 {
    let cfg = match game_setup(&a) {
        Ok(c) => c,
        Err(e) => return fail_input(&e),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match play(&cfg, stdin.lock(), stdout.lock()) {
        Ok(_) => EXIT_HOLDS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_HOLDS,
        Err(e) => fail_input(CliError::Terminal(e)),
    }
}
