//! `hexproof yang check`: Jing Yang's 9×9 strategy file read and measured (docs/yang.md).

use super::{fail_input, print_json, CliError};
use clap::{Args, Subcommand};
use hexproof::yang::{report, Strategy};
use std::path::PathBuf;

/// Jing Yang's 9×9 centre-opening strategy (Benzene's hex99-3.txt): read and check it.
#[derive(Args, Debug)]
pub struct YangArgs {
    #[command(subcommand)]
    command: YangCommand,
}

#[derive(Subcommand, Debug)]
enum YangCommand {
    Check(YangCheckArgs),
}

/// Read a pattern file and report per pattern: size, branches, trigger coverage and
/// structural defects (a position outside its parent, aliased or overlapping sub-patterns);
/// then (no defect in a reachable pattern, or --lenient) the goal check: each placed
/// pattern's goal inferred from its context, Yang's branches written as a certificate for
/// it and judged by the kernel, a failing step searched exactly for White's line
/// (docs/yang.md). A lost *inferred* goal is reported as "goal not established" (undecided,
/// White's line shown), never as a refutation.
///
/// Example:
///   hexproof yang check tests/fixtures/jing-yang-9x9/hex99-3.txt --lenient
///
/// Then the refutation search (docs/yang.md, "The refutation search"; --no-refute leaves it
/// out): a seeded attacker plays White's triggers against the strategy's follower, guided by
/// the file's trigger slips (sub-parts that hold a trigger), until the data has no answer;
/// there the whole-board solver is asked whether Black has lost, the line is walked back to
/// the losing Black reply, and White's win after it is written as a proof and judged by the
/// kernel. Only a kernel-checked loss is reported as a refutation: White's line, each Black
/// reply with its pattern, branch and file lines, the losing move, the certificates.
///
/// Example (the refutation alone, seconds):
///   hexproof yang check tests/fixtures/jing-yang-9x9/hex99-3.txt --refute-only
///
/// Exit codes: 0 the whole strategy verified by the kernel, 1 a refutation shown: a
/// certified losing line of the refutation search (whatever else is undecided, and also
/// without --lenient on a file with structural defects: the search needs only the
/// follower), or pattern 1 itself refuted by the goal check (other patterns whose inferred
/// goals are lost are shown as "goal not established" and leave the verdict undecided, as
/// the inference may be wrong), 2 bad data (a file that cannot be read, a syntax error
/// printed as line and column, or without --lenient a structural defect in a pattern reached
/// from pattern 1, when no refutation is found), 3 undecided somewhere (also: with
/// --read-slips, a refutation or verification of the read file, not the file as written;
/// with --refute-only and no refutation).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
struct YangCheckArgs {
    /// The pattern file (hex99-3.txt format).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// List every pattern in the table, not only those reached from pattern 1, and every
    /// failing step.
    #[arg(long)]
    all: bool,
    /// Report structural defects as warnings and run the goal check anyway (the kernel
    /// judges every placement, defective ones included).
    #[arg(long)]
    lenient: bool,
    /// Leave out the goal revision (smaller goals tried for the parts of a step whose union
    /// goals do not compose): the goal check as in session 17, for comparison.
    #[arg(long)]
    no_revise: bool,
    /// Leave out the widened chains (union goals that carry the links a part's siblings
    /// make, passed down level by level): the goal check as in session 20, for comparison.
    #[arg(long)]
    no_widen: bool,
    /// Leave out the retry with three-pair conjunctions (a conjunctive step that does not
    /// compose is tried once more with every minimal conjunction of up to three pairs
    /// offered to its parts): the goal check as in session 21, for comparison.
    #[arg(long)]
    no_triples: bool,
    /// Leave out the pending bridges (a bridge to an empty cell of a sibling part, carried
    /// down by that sibling until the cell is played): the goal check as in session 22.
    #[arg(long)]
    no_pending: bool,
    /// Leave out the carried parts (any part whose far end is an empty cell of a sibling,
    /// carried by that sibling; pending bridges stay): the goal check as in session 23.
    #[arg(long)]
    no_carry: bool,
    /// Leave out the extra option for a trigger cell inside a sub-part (the sub-part placed
    /// with that cell White's): the goal check as in session 24.
    #[arg(long)]
    no_white_trigger: bool,
    /// How deep carried parts nest: 1 as in session 25 (no carried-parts retry inside
    /// another, a part that carries others never carried); 2, the default, lets a part's
    /// far end lie in a sibling of its ancestor (docs/yang.md "A far end in a cousin").
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    carry_depth: u8,
    /// Leave out the goals below carried parts (other chains and union goals after a failure
    /// below a part that carries another; a pending bridge's empty end looked up in carried
    /// parts): the goal check as in session 27.
    #[arg(long)]
    no_carried_goals: bool,
    /// Leave out the open bridges (a bridge between two empty cells of one sibling carried
    /// by that sibling): the goal check as in session 28.
    #[arg(long)]
    no_open_bridges: bool,
    /// Leave out the capability goals (a bridge part given what its replies join, its
    /// siblings every pair that keeps the goal joined): the goal check as in session 31.
    #[arg(long)]
    no_capabilities: bool,
    /// Leave out the star goals and the retry with no part carried by a bridge (a part
    /// given every pair from one component it touches to the others; a bridge kept a part
    /// of its own so that it keeps its capability): the goal check as in session 32.
    #[arg(long)]
    no_stars: bool,
    /// Read the three "position outside its parent" slips as intended (docs/yang.md,
    /// "Reading the slips"): 364's `PP 13 59 56 57 54` as `51 48 49 47` (branches 11, 12),
    /// 639's 47 as 44 (branches 9, 10), 584's `PP 585` completed with `29 30` (branch 3).
    /// Each site is applied only where the file holds exactly that slip, and is listed with
    /// its line; every figure of the report is then for the file read with the repairs,
    /// not the file as written (a whole verification or refutation exits 3).
    #[arg(long)]
    read_slips: bool,
    /// Leave out the refutation search: the verdict from the structure and the goal check.
    #[arg(long, conflicts_with = "refute_only")]
    no_refute: bool,
    /// Leave out the goal check: the structure and the refutation search only (exit 1 with
    /// a certified refutation, else 2 for a structural defect without --lenient, else 3).
    #[arg(long)]
    refute_only: bool,
    /// Games of the refutation search's attacker (White plays triggers only; each game
    /// ends where the data has no answer, or White or Black has won).
    #[arg(long, value_name = "N", default_value_t = hexproof::yang::refute::Params::default().games)]
    refute_games: u32,
    /// The attacker's seed (the search is deterministic for a seed and its budgets).
    #[arg(long, value_name = "S", default_value_t = hexproof::yang::refute::Params::default().seed)]
    refute_seed: u64,
    /// Solver nodes for each position where the data has no answer (the screen).
    #[arg(long, value_name = "N", default_value_t = hexproof::yang::refute::Params::default().screen_nodes)]
    refute_screen_nodes: u64,
    /// Solver nodes for each position of the walk back and for each certificate.
    #[arg(long, value_name = "N", default_value_t = hexproof::yang::refute::Params::default().nodes)]
    refute_nodes: u64,
    /// Do not certify the won position before the losing move (only the loss after it,
    /// which is what the refutation rests on, is certified; the solver's win is shown).
    #[arg(long)]
    no_certify_won: bool,
}

/// Runs `hexproof yang …`.
pub fn run_yang(a: YangArgs) -> u8 {
    match a.command {
        YangCommand::Check(c) => run_check(c),
    }
}

fn run_check(a: YangCheckArgs) -> u8 {
    let text = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(source) => {
            return fail_input(CliError::Read {
                path: a.file,
                source,
            })
        }
    };
    let mut strategy = match Strategy::parse(&text) {
        Ok(s) => s,
        Err(e) => return fail_input(format_args!("{}: {e}", a.file.display())),
    };
    let params = hexproof::yang::verify::Params {
        revise: !a.no_revise,
        widen: !a.no_widen,
        triples: !a.no_triples,
        pending: !a.no_pending,
        carry: !a.no_carry,
        white_trigger: !a.no_white_trigger,
        carry_depth: a.carry_depth,
        carried_goals: !a.no_carried_goals,
        open_bridges: !a.no_open_bridges,
        capabilities: !a.no_capabilities,
        stars: !a.no_stars,
        ..Default::default()
    };
    let slips = a
        .read_slips
        .then(|| hexproof::yang::slips::read_slips(&mut strategy));
    let mut r = report::report_for(&strategy, a.lenient, params, !a.refute_only);
    if !a.no_refute {
        if a.refute_screen_nodes == 0 || a.refute_nodes == 0 {
            return fail_input("--refute-screen-nodes and --refute-nodes must be at least 1");
        }
        // The solver's move pruning by ICE patterns: only those the trusted checker accepts,
        // as `hexproof solve` installs them (docs/ice.md).
        hexproof::ice::install(hexproof::trusted::ice::accepted_patterns(
            hexproof::ice::EMBEDDED,
        ));
        let rp = hexproof::yang::refute::Params {
            games: a.refute_games,
            seed: a.refute_seed,
            screen_nodes: a.refute_screen_nodes,
            nodes: a.refute_nodes,
            certify_won: !a.no_certify_won,
        };
        r = r.with_refutation(hexproof::yang::refute::search(&strategy, rp));
    }
    if let Some(slips) = slips {
        r = r.with_slips(hexproof::yang::slips::SlipsReport::new(slips));
    }
    if a.json {
        let v = serde_json::to_value(&r).expect("reports serialise");
        return print_json(v, r.exit_code);
    }
    print!("{}", r.human(a.all));
    r.exit_code
}
