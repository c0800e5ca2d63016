//! `hexproof match`: a refereed match between two GTP engines ([`hexproof::arena`]).

use super::{fail_input, print_json, EXIT_HOLDS};
use clap::Args;
use hexproof::arena::openings::{first_rows, parse_openings};
use hexproof::arena::rating::show_elo;
use hexproof::arena::{run_match, GameLog, MatchSpec, Summary};
use hexproof::board::Board;
use serde_json::json;
use std::path::PathBuf;

/// Play a match between two GTP engines, refereed move by move (twogtp-style).
///
/// Each engine is a shell command that speaks GTP on stdin/stdout (`hexproof gtp`, Benzene's
/// `wolve`/`mohex`, …), run with `sh -c`. Every opening is played twice, once with each engine
/// as Black (game 1: A Black on the first opening, game 2: B Black on it, …); no swap. Before
/// each game both engines get `boardsize`, `clear_board`, `time_settings 0 T 1` (optional:
/// an engine may refuse it) and the opening's moves; then the side to move gets
/// `time_left c T 1` (if it took time_settings) and `genmove c`, and its move is checked on
/// the referee's own board and sent to the other engine with `play`.
///
/// The referee decides the game: a side that joins its borders wins (engines' final_score is
/// never asked), a resignation loses, and so does every fault, with its reason in the log:
/// an illegal move (occupied cell, swap), no genmove reply within T + margin seconds, a
/// crash, a garbage or error reply. A faulty engine is restarted for its next game. A crash
/// on genmove in a position where the opponent already has a proven winning connection (a
/// VC between its borders, found by hexproof's connection engine) is logged as `crash-lost`,
/// a loss by connection counted apart from other crashes (Wolve crashes in such positions).
///
/// Openings file: one opening a line, cells in letters notation played alternately from Black
/// (`b1`, or `b1 c3`), `#` comments. Without --openings: the balanced first- and second-row
/// openings of the board (11×11: b1 … j1, a2 … k2, the list in data/openings-11x11.txt).
///
/// With --out DIR each finished game is written at once: DIR/game-NNNN.sgf (FF[4] GM[11],
/// with PB, PW, RE and the reason in GC), one JSON line in DIR/games.jsonl, and
/// DIR/match.json (the settings). Rerunning with the same DIR plays only the missing games
/// (raise --games to extend a match); a DIR holding another match is refused.
///
/// Summary: A's wins and score p = wins/games, the Elo difference A − B = 400·log10(p/(1−p))
/// and its 95% interval (normal approximation on the score: p ± 1.96·sqrt(p(1−p)/games),
/// mapped to Elo; ±inf where the score or an end of its interval is 0 or 1), and each engine's longest genmove.
///
/// Examples:
///   hexproof match --a "$(which hexproof) gtp" --b "$(which hexproof) gtp --player alphabeta" --size 7 --time 0.5 --games 4
///   hexproof match --a "$(which hexproof) gtp" --b "wolve --use-logfile=false" --b-gtp "param_wolve max_time 1" --openings data/openings-11x11.txt --time 1 --out m1
///
/// Exit codes: 0 match played; 2 bad input (size, time, openings file, an engine that does
/// not start, an --out folder of another match).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct MatchArgs {
    /// Engine A: a shell command that runs a GTP engine.
    #[arg(long, value_name = "CMD")]
    a: String,
    /// Engine B: a shell command that runs a GTP engine.
    #[arg(long, value_name = "CMD")]
    b: String,
    /// A GTP command sent to A once after it starts (and after each restart), e.g.
    /// "param_mohex max_time 1"; repeatable. An error reply stops the match (exit 2).
    #[arg(long, value_name = "GTP")]
    a_gtp: Vec<String>,
    /// As --a-gtp, for B.
    #[arg(long, value_name = "GTP")]
    b_gtp: Vec<String>,
    /// Board size (2 to 19).
    #[arg(long, default_value_t = 11)]
    size: u32,
    /// Openings file (see above); default: the balanced first- and second-row openings.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Games to play (default: two per opening, one with each colour).
    #[arg(long)]
    games: Option<usize>,
    /// Seconds per move.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    time: f64,
    /// Seconds a genmove may take beyond --time before it loses on time.
    #[arg(long, default_value_t = 0.5, value_name = "SECONDS")]
    margin: f64,
    /// Folder for the SGFs, the log and the settings (resumable).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No line per game on stderr.
    #[arg(long)]
    quiet: bool,
    /// JSON output.
    #[arg(long)]
    json: bool,
}

/// Runs a match.
pub fn run_match_cmd(a: MatchArgs) -> u8 {
    let Ok(board) = Board::square(a.size) else {
        return fail_input(format!("--size {}: a board is 2 to 19 cells wide", a.size));
    };
    if a.size < 2 {
        return fail_input(format!("--size {}: a board is 2 to 19 cells wide", a.size));
    }
    if !(a.time.is_finite() && a.time > 0.0 && a.time <= 3600.0) {
        return fail_input(format!(
            "--time {}: seconds per move must be in (0, 3600]",
            a.time
        ));
    }
    if !(a.margin.is_finite() && (0.0..=3600.0).contains(&a.margin)) {
        return fail_input(format!("--margin {}: must be 0 to 3600 seconds", a.margin));
    }
    let openings = match &a.openings {
        None => first_rows(&board),
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => return fail_input(format!("cannot read {}: {e}", path.display())),
            };
            match parse_openings(&text, &board) {
                Ok(o) => o,
                Err(e) => return fail_input(format!("{}: {e}", path.display())),
            }
        }
    };
    let games = a.games.unwrap_or(2 * openings.len());
    let spec = MatchSpec {
        a: a.a.clone(),
        b: a.b.clone(),
        a_gtp: a.a_gtp.clone(),
        b_gtp: a.b_gtp.clone(),
        size: a.size,
        time: a.time,
        margin: a.margin,
        openings: openings.iter().map(|o| o.text.clone()).collect(),
    };
    // A dead engine's closed pipe must be an error on write, not SIGPIPE.
    #[cfg(unix)]
    // SAFETY: SIG_IGN is a valid action; no other thread touches signal handling.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let quiet = a.quiet;
    let report = |g: &GameLog| {
        if !quiet {
            eprintln!(
                "game {}/{games} opening {}: {} Black, {} wins ({}): {} [{} moves, longest genmove A {} ms, B {} ms]",
                g.game + 1,
                g.opening,
                g.black.to_uppercase(),
                g.winner.to_uppercase(),
                g.kind,
                g.reason,
                g.moves,
                g.a_longest_ms,
                g.b_longest_ms
            );
        }
    };
    let logs = run_match(&spec, &openings, games, a.out.as_deref(), report);
    // The engines are gone: `hexproof match … | head` ends quietly again (as in `main`).
    #[cfg(unix)]
    // SAFETY: SIG_DFL is a valid action; the match's threads no longer write to pipes.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let logs = match logs {
        Ok(l) => l,
        Err(e) => return fail_input(e),
    };
    let s = Summary::of(&logs);
    let r = s.rating;
    let bayes = hexproof::arena::rating::bayes_elo(r.wins, r.games);
    let finite = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
    if a.json {
        let losses: serde_json::Map<String, serde_json::Value> = s
            .losses
            .iter()
            .map(|(k, v)| (k.clone(), json!({"a": v[0], "b": v[1]})))
            .collect();
        return print_json(
            json!({
                "a": a.a,
                "b": a.b,
                "size": a.size,
                "time_per_move_ms": a.time * 1000.0,
                "margin_ms": a.margin * 1000.0,
                "openings": openings.len(),
                "games": r.games,
                "a_wins": r.wins,
                "b_wins": r.games - r.wins,
                "a_score": r.score,
                "a_black": {"wins": s.a_black.0, "games": s.a_black.1},
                "a_white": {"wins": s.a_white.0, "games": s.a_white.1},
                "black_wins": s.black_wins,
                "elo": finite(r.elo),
                "elo_low": finite(r.interval.0),
                "elo_high": finite(r.interval.1),
                "bayeselo": finite(bayes.0),
                "bayeselo_low": finite(bayes.1),
                "bayeselo_high": finite(bayes.2),
                "a_longest_genmove_ms": s.longest_ms[0],
                "b_longest_genmove_ms": s.longest_ms[1],
                "losses": losses,
                "out": a.out.as_ref().map(|p| p.display().to_string()),
            }),
            EXIT_HOLDS,
        );
    }
    println!("A: {}\nB: {}", a.a, a.b);
    println!(
        "{}x{}, {} s a move, {} openings, {} games",
        a.size,
        a.size,
        a.time,
        openings.len(),
        r.games
    );
    let pct = |w: usize, n: usize| {
        if n == 0 {
            "-".to_string()
        } else {
            format!("{w}/{n}")
        }
    };
    println!(
        "A wins {} of {} ({:.1}%): as Black {}, as White {}; Black won {}",
        r.wins,
        r.games,
        100.0 * r.score,
        pct(s.a_black.0, s.a_black.1),
        pct(s.a_white.0, s.a_white.1),
        s.black_wins
    );
    println!(
        "Elo A - B: {} (95% interval {} to {})",
        show_elo(r.elo),
        show_elo(r.interval.0),
        show_elo(r.interval.1)
    );
    println!(
        "BayesElo-style A - B: {} (95% interval {} to {}; prior: one virtual win and one virtual loss)",
        show_elo(bayes.0),
        show_elo(bayes.1),
        show_elo(bayes.2)
    );
    println!(
        "longest genmove: A {} ms, B {} ms (budget {} ms + margin {} ms)",
        s.longest_ms[0],
        s.longest_ms[1],
        (a.time * 1000.0).round(),
        (a.margin * 1000.0).round()
    );
    for (kind, [la, lb]) in &s.losses {
        println!("ended by {kind}: A lost {la}, B lost {lb}");
    }
    EXIT_HOLDS
}
