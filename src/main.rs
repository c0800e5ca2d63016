//! The `hexproof` command line: a thin clap front end over the library.
//!
//! Exit codes (every command): 0 holds / success, 1 a claim fails, 2 bad input, 3 undecided
//! (budget exhausted).

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  hexproof verify --board 5x5 --carrier all --first black \"t - b\"
  hexproof check proofs/examples/hex4-corner.hexp
  hexproof templates show III1a
  hexproof solve --board 6x6 --moves c3

Each command's --help has its own examples and exit codes; docs/RELIABILITY.md lists both.";

/// hexproof — a proof checker, template verifier and engine for the game of Hex.
///
/// Conventions: an NxM board has N columns a.. and M rows 1..; Black joins the top border `t`
/// to the bottom border `b`, White joins left `l` to right `r`. Cells are named `d4`, or with
/// `--notation digits` Noshita's `44` (column digit, row digit; boards up to 9x9).
#[derive(Parser)]
#[command(name = "hexproof", version, about, long_about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Check(cli::check::CheckArgs),
    Verify(cli::verify::VerifyArgs),
    Minimize(cli::verify::MinimizeArgs),
    Bid(cli::bid::BidArgs),
    BidGame(cli::bid::BidGameArgs),
    Templates(cli::templates::TemplatesArgs),
    Vc(cli::vc::VcArgs),
    Render(cli::render::RenderArgs),
    Gtp(cli::gtp::GtpArgs),
    Selfplay(cli::gtp::SelfplayArgs),
    Match(cli::arena::MatchArgs),
    Solve(Box<cli::solve::SolveArgs>),
    Certificate(cli::certificate::CertificateArgs),
    Yang(cli::yang::YangArgs),
    TrainPatterns(cli::train::TrainArgs),
}

/// `hexproof … | head` must end quietly, as other Unix tools do, instead of panicking in
/// `println!` when the reader goes away: restore the default action of SIGPIPE (Rust ignores
/// it). Files a command already wrote are complete; only the unread output is lost.
#[cfg(unix)]
fn quiet_on_closed_pipe() {
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn quiet_on_closed_pipe() {}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // A flag's value that is none of its choices: one line, as other bad input.
            if let Some(bad) = cli::args::bad_choice(&e) {
                return ExitCode::from(cli::fail_input(bad));
            }
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let code = match cli.command {
        Command::Check(a) => cli::check::run_check(a),
        Command::Verify(a) => cli::verify::run_verify(a),
        Command::Minimize(a) => cli::verify::run_minimize(a),
        Command::Bid(a) => cli::bid::run_bid(a),
        Command::BidGame(a) => cli::bid::run_bid_game(a),
        Command::Templates(a) => cli::templates::run_templates(a),
        Command::Vc(a) => cli::vc::run_vc(a),
        Command::Render(a) => cli::render::run_render(a),
        Command::Gtp(a) => cli::gtp::run_gtp(a),
        Command::Selfplay(a) => cli::gtp::run_selfplay(a),
        Command::Match(a) => cli::arena::run_match_cmd(a),
        Command::Solve(a) => cli::solve::run_solve(*a),
        Command::Certificate(a) => cli::certificate::run_certificate(a),
        Command::Yang(a) => cli::yang::run_yang(a),
        Command::TrainPatterns(a) => cli::train::run_train(a),
    };
    ExitCode::from(code)
}
