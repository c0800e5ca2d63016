//! `hexproof check`: verify `.hexp` proof files step by step.

use super::{fail_input, print_json};
use clap::Args;
use hexproof::check::{check_files, Options};
use hexproof::search::Budget;
use std::path::PathBuf;
use std::time::Duration;

/// Check proof files (.hexp): every step by its rule and by exhaustive search.
///
/// Examples:
///   hexproof check proofs/anshelevich-appendix-b.hexp      (Anshelevich's AND/OR derivations)
///   hexproof check proofs/examples/hex3-precluding.hexp    (a proof tree with preclusions)
///   hexproof check proofs/examples/ab-property.hexp        (two lemmas in one step, AB-property)
///
/// The language (lemmas, `by L1, L2`, `guarantee`/`assume`, `use templates`, strategies) is
/// described in docs/LANGUAGE.md; what each verdict means in docs/SEMANTICS.md.
///
/// Exit codes: 0 every step verified, 1 a step fails, 2 bad input (a syntax or name error is
/// printed as file:line:column with the source line), 3 a step is undecided (search budget)
/// or uses a construct the checker does not handle yet. With several files the worst wins,
/// in the order 2, 1, 3, 0.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The files to check (files they `use` are checked too).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Search budget per step: maximum nodes.
    #[arg(long, default_value_t = 20_000_000)]
    nodes: u64,
    /// Search budget per step: maximum seconds.
    #[arg(long, default_value_t = 60.0)]
    time: f64,
    /// Check rule steps by their rule only (no search of their conclusions).
    #[arg(long)]
    no_search: bool,
    /// Budget of each confirming search (the second check of a step its rule already
    /// justifies, and of each proof-tree node): maximum nodes. When it runs out the step
    /// rests on its rule alone and the report says so.
    #[arg(long, default_value_t = hexproof::check::CONFIRM_NODES)]
    confirm_nodes: u64,
    /// Budget of each confirming search: maximum seconds.
    #[arg(long, default_value_t = 20.0)]
    confirm_time: f64,
}

/// Runs `hexproof check`.
pub fn run_check(a: CheckArgs) -> u8 {
    if !a.time.is_finite() || a.time < 0.0 {
        return fail_input(&format!("--time {} is not a number of seconds", a.time));
    }
    if !a.confirm_time.is_finite() || a.confirm_time < 0.0 {
        return fail_input(&format!(
            "--confirm-time {} is not a number of seconds",
            a.confirm_time
        ));
    }
    let opts = Options {
        budget: Budget {
            nodes: a.nodes,
            time: Some(Duration::from_secs_f64(a.time.min(1e9))),
            ..Budget::default()
        },
        confirm: Budget {
            nodes: a.confirm_nodes,
            time: Some(Duration::from_secs_f64(a.confirm_time.min(1e9))),
            ..Budget::default()
        },
        search_rule_steps: !a.no_search,
    };
    let checked = check_files(&a.files, &opts);
    if a.json {
        print_json(&serde_json::to_value(&checked.report).expect("reports serialise"));
    } else {
        print!("{}", checked.human());
    }
    checked.report.exit_code
}
