//! `hexproof check`: verify `.hexp` proof files step by step.

use super::{fail_input, print_json};
use clap::Args;
use hexproof::check::{check_files, Options};
use hexproof::local::Budget;
use std::path::PathBuf;
use std::time::Duration;

/// Check proof files (.hexp): every step by its rule and by exhaustive search.
///
/// While it runs, a spinner on stderr says which file is being checked (only when stderr is
/// a terminal; never with --json).
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
///
/// As jobs (docs/cluster.md, "One proof as jobs"): `--shard i/n --out DIR` checks one part
/// of the proof (its strategy tree and shared positions are dealt to n jobs) and writes
/// DIR/check-shard-i-of-n.json; `hexproof check --combine DIR` re-checks the joins and gives
/// the same counts and exit code as checking the file in one process.
///   hexproof check proofs/solver/7x7-d4.hexp --shard 2/4 --out parts/
///   hexproof check --combine parts/
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct CheckArgs {
    /// The files to check (files they `use` are checked too).
    #[arg(required_unless_present = "combine", value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Check only shard i of n of the (one) file's parts, writing the result to --out.
    #[arg(long, value_name = "i/n", requires = "out")]
    shard: Option<String>,
    /// The folder for the shard's result file (with --shard).
    #[arg(long, value_name = "DIR", requires = "shard")]
    out: Option<PathBuf>,
    /// Combine the shard files of these folders (instead of checking FILE); FILE, if given,
    /// is the proof (else the one the files name).
    #[arg(long, value_name = "DIR", conflicts_with = "shard")]
    combine: Vec<PathBuf>,
    #[command(flatten)]
    budget: CheckBudgetArgs,
}

/// Runs `hexproof check`.
pub fn run_check(a: CheckArgs) -> u8 {
    let opts = match a.budget.options() {
        Ok(o) => o,
        Err(code) => return code,
    };
    if !a.combine.is_empty() || a.shard.is_some() {
        return super::check_jobs::run(
            &a.files,
            a.shard.as_deref(),
            a.out.as_deref(),
            &a.combine,
            a.json,
            &opts,
        );
    }
    // Steps checked so far and the time, on stderr (hidden when it is not a terminal).
    let progress = super::progress::Steps::start(&checking_message(&a.files));
    let checked = check_files(&a.files, &opts);
    drop(progress);
    if a.json {
        return print_json(
            serde_json::to_value(&checked.report).expect("reports serialise"),
            checked.report.exit_code,
        );
    } else {
        print!("{}", checked.human());
    }
    checked.report.exit_code
}

/// `checking FILE` (`and N more files`) for the spinner of `check` and `render`.
pub fn checking_message(files: &[PathBuf]) -> String {
    let mut m = format!("checking {}", files[0].display());
    if files.len() > 1 {
        m += &format!(" and {} more", super::plural(files.len() - 1, "file"));
    }
    m
}

/// The checker's search budgets, shared by `check` and `render`.
#[derive(Args, Debug)]
pub struct CheckBudgetArgs {
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

impl CheckBudgetArgs {
    /// The checker options, or exit code 2 (after a one-line message) for a bad number.
    pub fn options(&self) -> Result<Options, u8> {
        for (flag, v) in [("--time", self.time), ("--confirm-time", self.confirm_time)] {
            if !v.is_finite() || v < 0.0 {
                return Err(fail_input(super::CliError::NotSeconds { flag, seconds: v }));
            }
        }
        let budget = |nodes: u64, secs: f64| Budget {
            nodes,
            time: Some(Duration::from_secs_f64(secs.min(1e9))),
            ..Budget::default()
        };
        Ok(Options {
            budget: budget(self.nodes, self.time),
            confirm: budget(self.confirm_nodes, self.confirm_time),
            search_rule_steps: !self.no_search,
        })
    }
}
