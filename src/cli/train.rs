//! `hexproof train-patterns`: the learned move priors of the MCTS player, from self-play.

use super::{fail_input, CliError, EXIT_BAD_INPUT, EXIT_HOLDS};
use clap::Args;
use hexproof::player::patterns::{train, TrainParams};

/// Learn the MCTS move priors (MoHex 2.0-style local patterns, Bradley–Terry weights fitted
/// by Coulom's minorization–maximization) from self-play games, and write the weights file.
///
/// The games are played by hexproof's own MCTS player with a fixed number of playouts per
/// move, so a seed reproduces the file byte for byte on any machine. Each game opens with
/// --random-opening random moves; every later move is a training position (the played
/// move against all empty cells). The shipped file is data/patterns-11.txt; its header
/// names the command that made it.
///
/// Examples:
///   hexproof train-patterns --seed 1 --games 200 --out data/patterns-11.txt
///   hexproof train-patterns --seed 7 --games 2 --size 5 --playouts 50 --out /tmp/p.txt
///
/// Exit codes: 0 written, 2 bad input (or the file cannot be written).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct TrainArgs {
    /// Seed of the self-play games.
    #[arg(long)]
    seed: u64,
    /// Number of self-play games.
    #[arg(long)]
    games: usize,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    out: std::path::PathBuf,
    /// Board size (3 to 19).
    #[arg(long, default_value_t = 11)]
    size: u8,
    /// MCTS playouts per move in the self-play games.
    #[arg(long, default_value_t = 1000)]
    playouts: u64,
    /// Uniformly random moves that open each game (not learned from).
    #[arg(long, default_value_t = 2)]
    random_opening: usize,
    /// A radius-2 pattern gets its own weight only if it occurs this often among the legal
    /// moves of the training positions.
    #[arg(long, default_value_t = 30)]
    min_count: u32,
    /// MM iterations.
    #[arg(long, default_value_t = 25)]
    iterations: usize,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
}

/// Runs `train-patterns`.
pub fn run_train(a: TrainArgs) -> u8 {
    if !(3..=19).contains(&a.size) {
        return fail_input(format!("--size must be 3 to 19, not {}", a.size));
    }
    if a.games == 0 {
        return fail_input("--games must be at least 1");
    }
    if a.playouts == 0 {
        return fail_input("--playouts must be at least 1");
    }
    let p = TrainParams {
        seed: a.seed,
        games: a.games,
        size: a.size,
        playouts: a.playouts,
        random_opening: a.random_opening,
        min_count: a.min_count.max(1),
        iterations: a.iterations,
    };
    let bar = super::progress_bar(a.quiet, a.games, "games");
    let t = train(&p, |g| bar.set_position(g as u64));
    bar.finish_and_clear();
    if let Err(source) = std::fs::write(&a.out, t.table.to_text()) {
        let e = CliError::Write {
            path: a.out.clone(),
            source,
        };
        fail_input(&e);
        return EXIT_BAD_INPUT;
    }
    let (r1, r2) = t.table.len();
    println!(
        "{} games ({} won by Black), {} positions: {} radius-1 and {} radius-2 patterns; mean log-likelihood {:.4} -> {:.4}; wrote {}",
        a.games,
        t.black_wins,
        t.positions,
        r1,
        r2,
        t.log_likelihood.0,
        t.log_likelihood.1,
        a.out.display()
    );
    EXIT_HOLDS
}
