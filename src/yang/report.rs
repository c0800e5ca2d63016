//! The report of `hexproof yang check` (docs/yang.md): the file read, its structure
//! measured against itself per pattern (sizes, branches, trigger coverage, structural
//! defects), then — when no reachable pattern is defective, or with `lenient` — the goal
//! check of [`super::verify`], summarised per placement and per pattern. The verdict is
//! "verified" (exit 0) only when the kernel accepted the whole strategy's certificate.

use super::reader::{Defect, Strategy};
use super::refute::RefuteReport;
use super::slips::SlipsReport;
use super::verify::{self, InstanceResult, Status};
use serde::Serialize;

/// Exit code: the whole strategy verified by the kernel.
pub const EXIT_VERIFIED: u8 = 0;
/// Exit code: a pattern refuted (White's line shown).
pub const EXIT_REFUTED: u8 = 1;
/// Exit code: the data is inconsistent in a pattern reached from pattern 1.
pub const EXIT_BAD_DATA: u8 = 2;
/// Exit code: nothing wrong found, but the goals are not checked.
pub const EXIT_UNDECIDED: u8 = 3;

/// One pattern's line of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The pattern number.
    pub pattern: u32,
    /// Reached from pattern 1.
    pub reachable: bool,
    /// Its positions.
    pub size: u32,
    /// Its branches.
    pub branches: usize,
    /// Positions that trigger a branch.
    pub triggers: usize,
    /// Positions no branch answers (White may play there "for free").
    pub unanswered: usize,
    /// Structural defects in its text.
    pub defects: usize,
    /// `undecided` (structure sound, goal unchecked) or `defective`.
    pub status: &'static str,
}

/// One defect, located.
#[derive(Clone, Debug, Serialize)]
pub struct DefectRow {
    /// The pattern whose text holds it.
    pub pattern: u32,
    /// Reached from pattern 1.
    pub reachable: bool,
    /// Line.
    pub line: usize,
    /// Column.
    pub column: usize,
    /// The message.
    pub message: String,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The board size of the file.
    pub board_size: u8,
    /// Patterns in the file.
    pub patterns: usize,
    /// Branches in the file.
    pub branches: usize,
    /// Patterns reached from pattern 1.
    pub reachable: usize,
    /// Patterns verified at every placement by the goal check (0 when it did not run).
    pub verified: usize,
    /// Patterns refuted at some placement (0 when the goal check did not run).
    pub refuted: usize,
    /// Reachable patterns left undecided (goal unchecked, or the goal check undecided).
    pub undecided: usize,
    /// Reachable patterns with a structural defect.
    pub defective: usize,
    /// `bad data` or `undecided`.
    pub verdict: &'static str,
    /// What was and was not checked, in one sentence.
    pub scope: &'static str,
    /// The defects, in file order.
    pub defects: Vec<DefectRow>,
    /// The per-pattern table, by pattern number.
    pub rows: Vec<Row>,
    /// The goal check (none: not run, because of structural defects without `--lenient`).
    pub semantic: Option<Semantic>,
    /// The slip readings applied while reading (`--read-slips`; absent without it). When
    /// present, every figure above is for the file read with them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_slips: Option<SlipsReport>,
    /// The refutation search (absent with `--no-refute`): a certified refutation makes the
    /// verdict "refuted" (exit 1) whatever the rest of the report says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refutation: Option<RefuteReport>,
    /// The process exit code.
    #[serde(skip)]
    pub exit_code: u8,
}

/// One pattern's line of the goal check: its placements and their verdicts.
#[derive(Clone, Debug, Serialize)]
pub struct PatternCheck {
    /// The pattern.
    pub pattern: u32,
    /// Its largest placement, in cells.
    pub cells: usize,
    /// Placements checked.
    pub instances: usize,
    /// Placements the kernel verified.
    pub verified: usize,
    /// Placements refuted.
    pub refuted: usize,
    /// Placements undecided.
    pub undecided: usize,
    /// Certificate nodes over its placements (sub-patterns included).
    pub nodes: usize,
    /// Microseconds over its placements (sub-patterns included).
    pub micros: u128,
    /// `verified` (every placement), `refuted` (some placement), or `undecided`.
    pub status: Status,
}

/// One row of the table of what is not verified, by cause (docs/yang.md "What is not
/// verified, by cause").
#[derive(Clone, Debug, Serialize)]
pub struct CauseRow {
    /// The kind of first failure (`verify::cause_of`), or `several kinds` for the placements
    /// above first failures of more than one kind.
    pub cause: String,
    /// First failures of this kind: placements not verified with none not verified below.
    pub first: usize,
    /// Their patterns, with the first failures of each, most first.
    pub patterns: Vec<(u32, usize)>,
    /// Placements not verified above first failures of this kind only.
    pub above: usize,
}

/// The goal check's results (docs/yang.md, "The goal check").
#[derive(Clone, Debug, Serialize)]
pub struct Semantic {
    /// The kernel accepted the certificate of the whole strategy (`t - b` after e5).
    pub whole_verified: bool,
    /// Certificate nodes of the whole strategy.
    pub certificate_nodes: usize,
    /// Placed patterns (instances) checked.
    pub instances: usize,
    /// Instances verified, refuted, undecided.
    pub instances_verified: usize,
    /// Instances refuted (for their inferred goals).
    pub instances_refuted: usize,
    /// Pattern 1 itself is refuted: its goal (top to bottom after e5) is not inferred, so this
    /// alone makes the whole verdict "refuted" (exit 1).
    pub root_refuted: bool,
    /// Instances undecided.
    pub instances_undecided: usize,
    /// Undecided instances whose *inferred* goal the exact search proves lost inside the
    /// pattern (White's line shown): "goal not established", a wrong guess of the goal as
    /// far as the whole-board solver was asked, never counted as refuted.
    pub instances_goal_lost: usize,
    /// Patterns with such a placement.
    pub patterns_goal_lost: usize,
    /// Instances whose goal could not be inferred.
    pub goal_unknown: usize,
    /// Instances verified whose own step is a union AND (kernel condition 6).
    pub instances_verified_union_and: usize,
    /// Instances left "not composed" (union goals that do not compose, or a part not
    /// verified for its union goal).
    pub not_composed: usize,
    /// Instances verified whose own step composed only with revised goals for its parts
    /// (docs/yang.md "Goal revision").
    pub instances_verified_revised: usize,
    /// Instances verified whose own step composed only as a widened chain (docs/yang.md
    /// "Widened goals").
    pub instances_verified_widened: usize,
    /// Instances verified whose goal is a conjunction or whose own step composed through
    /// conjunctive goals (kernel condition 8; docs/yang.md "Conjunctive goals").
    pub instances_verified_conjunction: usize,
    /// Instances built (tries of other goals included), and builds answered from the memo.
    pub builds: u64,
    /// Builds answered from the memo of built instances (not built again).
    pub memo_hits: u64,
    /// Patterns (of those placed) verified at every placement.
    pub patterns_verified: usize,
    /// Patterns refuted at some placement.
    pub patterns_refuted: usize,
    /// Patterns undecided.
    pub patterns_undecided: usize,
    /// The largest instance the kernel verified, in cells.
    pub largest_verified_cells: usize,
    /// Its pattern.
    pub largest_verified_pattern: Option<u32>,
    /// Seconds of the check.
    pub seconds: f64,
    /// The first instance (in the unfolding's order) whose own step fails.
    pub first_break: Option<InstanceResult>,
    /// Every instance whose own step fails (refuted or undecided), in order.
    pub failures: Vec<InstanceResult>,
    /// The placements not verified, by cause: each is counted once, as a first failure of
    /// its kind or above first failures (of one kind, or of several).
    pub causes: Vec<CauseRow>,
    /// Per pattern.
    pub patterns: Vec<PatternCheck>,
}

/// Runs the goal check and summarises it.
pub fn semantic(s: &Strategy, params: verify::Params) -> Semantic {
    let start = std::time::Instant::now();
    let o = verify::check(s, params);
    let seconds = start.elapsed().as_secs_f64();
    let mut by: std::collections::BTreeMap<u32, PatternCheck> = Default::default();
    for r in &o.instances {
        let e = by.entry(r.pattern).or_insert(PatternCheck {
            pattern: r.pattern,
            cells: 0,
            instances: 0,
            verified: 0,
            refuted: 0,
            undecided: 0,
            nodes: 0,
            micros: 0,
            status: Status::Verified,
        });
        e.cells = e.cells.max(r.cells);
        e.instances += 1;
        match r.status {
            Status::Verified => e.verified += 1,
            Status::Refuted => e.refuted += 1,
            Status::Undecided => e.undecided += 1,
        }
        e.nodes += r.nodes;
        e.micros += r.micros;
        e.status = match (e.status, r.status) {
            (Status::Refuted, _) | (_, Status::Refuted) => Status::Refuted,
            (Status::Undecided, _) | (_, Status::Undecided) => Status::Undecided,
            _ => Status::Verified,
        };
    }
    let count = |st: Status| o.instances.iter().filter(|r| r.status == st).count();
    let pcount = |st: Status| by.values().filter(|r| r.status == st).count();
    let largest = o
        .instances
        .iter()
        .filter(|r| r.status == Status::Verified)
        .max_by_key(|r| r.cells);
    let failures: Vec<InstanceResult> = o
        .instances
        .iter()
        .filter(|r| r.own && r.status != Status::Verified)
        .cloned()
        .collect();
    let causes = cause_rows(&o.instances);
    Semantic {
        whole_verified: o.whole,
        certificate_nodes: o.nodes,
        instances: o.instances.len(),
        instances_verified: count(Status::Verified),
        instances_refuted: count(Status::Refuted),
        root_refuted: o
            .instances
            .iter()
            .any(|r| r.placed_at.is_none() && r.status == Status::Refuted),
        instances_undecided: count(Status::Undecided),
        instances_goal_lost: o.instances.iter().filter(|r| r.goal_lost).count(),
        patterns_goal_lost: o
            .instances
            .iter()
            .filter(|r| r.goal_lost)
            .map(|r| r.pattern)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        goal_unknown: o
            .instances
            .iter()
            .filter(|r| r.reason.starts_with("goal unknown"))
            .count(),
        instances_verified_union_and: o
            .instances
            .iter()
            .filter(|r| r.union_and && r.status == Status::Verified)
            .count(),
        not_composed: o
            .instances
            .iter()
            .filter(|r| r.reason.starts_with("not composed"))
            .count(),
        instances_verified_revised: o
            .instances
            .iter()
            .filter(|r| r.revised && r.status == Status::Verified)
            .count(),
        instances_verified_widened: o
            .instances
            .iter()
            .filter(|r| r.widened && r.status == Status::Verified)
            .count(),
        instances_verified_conjunction: o
            .instances
            .iter()
            .filter(|r| r.conjunction && r.status == Status::Verified)
            .count(),
        builds: o.builds,
        memo_hits: o.memo_hits,
        patterns_verified: pcount(Status::Verified),
        patterns_refuted: pcount(Status::Refuted),
        patterns_undecided: pcount(Status::Undecided),
        largest_verified_cells: largest.map_or(0, |r| r.cells),
        largest_verified_pattern: largest.map(|r| r.pattern),
        seconds,
        first_break: failures.first().cloned(),
        failures,
        causes,
        patterns: by.into_values().collect(),
    }
}

/// The table of [`Semantic::causes`], commonest first.
fn cause_rows(instances: &[InstanceResult]) -> Vec<CauseRow> {
    use std::collections::BTreeMap;
    const SEVERAL: &str = "several kinds";
    let mut rows: BTreeMap<&str, (usize, BTreeMap<u32, usize>, usize)> = BTreeMap::new();
    for r in instances.iter().filter(|r| r.status != Status::Verified) {
        if !r.cause.is_empty() {
            let e = rows.entry(r.cause.as_str()).or_default();
            e.0 += 1;
            *e.1.entry(r.pattern).or_default() += 1;
        } else if let [one] = &r.causes_below[..] {
            rows.entry(one.as_str()).or_default().2 += 1;
        } else {
            rows.entry(SEVERAL).or_default().2 += 1;
        }
    }
    let mut out: Vec<CauseRow> = rows
        .into_iter()
        .map(|(cause, (first, pats, above))| {
            let mut patterns: Vec<(u32, usize)> = pats.into_iter().collect();
            patterns.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
            CauseRow {
                cause: cause.to_string(),
                first,
                patterns,
                above,
            }
        })
        .collect();
    out.sort_by_key(|r| (r.cause == SEVERAL, std::cmp::Reverse(r.first + r.above)));
    out
}

/// What this version checks (printed with every report).
pub const SCOPE: &str = "read and structure only: sizes, trigger coverage, positions \
outside their parent, aliased and overlapping sub-patterns; no pattern's goal is inferred \
or searched yet, so nothing is verified";

/// What the goal check adds (printed when it ran).
pub const SCOPE_GOALS: &str = "structure, then the goal check: each placed pattern's goal \
inferred from its context (one pair of Black components), Yang's branches written as a \
certificate for it and judged by the kernel; a failing step searched exactly for White's win";

/// Builds the report of a parsed strategy: the structure, then (when no reachable pattern
/// has a structural defect, or `lenient`) the goal check.
pub fn report(s: &Strategy, lenient: bool) -> Report {
    report_with(s, lenient, verify::Params::default())
}

/// [`report`] with the goal check's parameters.
pub fn report_with(s: &Strategy, lenient: bool, params: verify::Params) -> Report {
    report_for(s, lenient, params, true)
}

/// What [`report_for`] says when the goal check was left out (`--refute-only`).
pub const SCOPE_NO_GOALS: &str = "structure only: the goal check was left out (--refute-only)";

/// [`report_with`], the goal check run only when `goals` (else the verdict is "undecided",
/// or "bad data" for a reachable structural defect without `lenient`).
pub fn report_for(s: &Strategy, lenient: bool, params: verify::Params, goals: bool) -> Report {
    let defects: Vec<Defect> = s.defects();
    let reach = s.reachable();
    let sizes = s.sizes();
    let rows: Vec<Row> = s
        .patterns
        .values()
        .map(|p| {
            let size = sizes[&p.number];
            let triggers = p
                .trigger_positions()
                .into_iter()
                .filter(|&t| t <= size)
                .count();
            let n = defects.iter().filter(|d| d.pattern == p.number).count();
            Row {
                pattern: p.number,
                reachable: reach.contains(&p.number),
                size,
                branches: p.branches.len(),
                triggers,
                unanswered: size as usize - triggers,
                defects: n,
                status: if n > 0 { "defective" } else { "undecided" },
            }
        })
        .collect();
    let defective = rows.iter().filter(|r| r.reachable && r.defects > 0).count();
    let undecided = rows
        .iter()
        .filter(|r| r.reachable && r.defects == 0)
        .count();
    let semantic = (goals && (defective == 0 || lenient)).then(|| semantic(s, params));
    let exit_code = match &semantic {
        None if defective > 0 && !lenient => EXIT_BAD_DATA,
        None => EXIT_UNDECIDED,
        Some(m) if m.whole_verified => EXIT_VERIFIED,
        // Only pattern 1's goal (join top and bottom after e5) is known; every other goal is
        // inferred, so losing it may mean the inference was wrong, not Yang: undecided.
        Some(m) if m.root_refuted => EXIT_REFUTED,
        Some(_) => EXIT_UNDECIDED,
    };
    let verdict = match exit_code {
        EXIT_VERIFIED => "verified",
        EXIT_REFUTED => "refuted",
        EXIT_BAD_DATA => "bad data",
        _ => "undecided",
    };
    Report {
        board_size: s.board_size,
        patterns: s.patterns.len(),
        branches: s.branch_count(),
        reachable: reach.len(),
        verified: semantic.as_ref().map_or(0, |m| m.patterns_verified),
        refuted: semantic.as_ref().map_or(0, |m| m.patterns_refuted),
        undecided: semantic.as_ref().map_or(undecided, |m| {
            reach.len() - m.patterns_verified - m.patterns_refuted
        }),
        defective,
        verdict,
        scope: if semantic.is_some() {
            SCOPE_GOALS
        } else if goals {
            SCOPE
        } else {
            SCOPE_NO_GOALS
        },
        defects: defects
            .iter()
            .map(|d| DefectRow {
                pattern: d.pattern,
                reachable: d.reachable,
                line: d.error.at.line,
                column: d.error.at.column,
                message: d.error.kind.to_string(),
            })
            .collect(),
        rows,
        semantic,
        read_slips: None,
        refutation: None,
        exit_code,
    }
}

impl Report {
    /// The report with the refutation search's result. A certified refutation is a verdict
    /// of its own: "refuted", exit 1, whatever the goal check left undecided and even where
    /// structural defects without `--lenient` would make it "bad data" (the search needs no
    /// goal, only the follower). Apply before [`Report::with_slips`], which turns it into 3
    /// when readings were applied.
    pub fn with_refutation(mut self, r: RefuteReport) -> Report {
        if r.refutation.is_some() {
            self.exit_code = EXIT_REFUTED;
            self.verdict = "refuted";
        }
        self.refutation = Some(r);
        self
    }

    /// The report marked as one of the file read with `--read-slips`. When some reading
    /// applied, a whole verification or a refutation is of the read file, not of the file as
    /// written, so the exit code is 3 (undecided) instead of 0 or 1; the verdict printed says
    /// which file it is for.
    pub fn with_slips(mut self, slips: SlipsReport) -> Report {
        if slips.applied > 0 && matches!(self.exit_code, EXIT_VERIFIED | EXIT_REFUTED) {
            self.exit_code = EXIT_UNDECIDED;
        }
        self.read_slips = Some(slips);
        self
    }

    /// The human-readable text: summary, defects, then the table of reachable patterns
    /// (`all`: every pattern).
    pub fn human(&self, all: bool) -> String {
        use std::fmt::Write;
        let mut o = String::new();
        if let Some(r) = &self.read_slips {
            let _ = writeln!(
                o,
                "--read-slips: {} of {} sites read as intended; every figure below is for {}",
                r.applied, r.sites, r.figures_for
            );
            for x in &r.readings {
                let _ = writeln!(
                    o,
                    "  {} (pattern {} branch {}, {}): '{}' read as '{}': {}{}",
                    x.name,
                    x.pattern,
                    x.branch,
                    x.line
                        .map_or("line not found".to_string(), |l| format!("line {l}")),
                    x.written,
                    x.read,
                    if x.applied { "applied; " } else { "" },
                    x.note
                );
            }
        }
        let _ = writeln!(
            o,
            "{}x{} strategy: {} patterns, {} branches, {} reachable from pattern 1",
            self.board_size, self.board_size, self.patterns, self.branches, self.reachable
        );
        let _ = writeln!(
            o,
            "reachable patterns: {} verified, {} refuted, {} undecided, {} defective",
            self.verified, self.refuted, self.undecided, self.defective
        );
        let _ = writeln!(o, "checked: {}", self.scope);
        if !self.defects.is_empty() {
            let _ = writeln!(o, "defects ({}):", self.defects.len());
            for d in &self.defects {
                let _ = writeln!(
                    o,
                    "  line {}, column {}: pattern {}{}: {}",
                    d.line,
                    d.column,
                    d.pattern,
                    if d.reachable { "" } else { " (unreachable)" },
                    d.message
                );
            }
        }
        let _ = writeln!(
            o,
            "{:>7} {:>5} {:>8} {:>8} {:>10} {:>7}  status",
            "pattern", "size", "branches", "triggers", "unanswered", "defects"
        );
        for r in self.rows.iter().filter(|r| all || r.reachable) {
            let _ = writeln!(
                o,
                "{:>7} {:>5} {:>8} {:>8} {:>10} {:>7}  {}{}",
                r.pattern,
                r.size,
                r.branches,
                r.triggers,
                r.unanswered,
                r.defects,
                r.status,
                if r.reachable { "" } else { " (unreachable)" }
            );
        }
        if let Some(m) = &self.semantic {
            m.human(&mut o, all);
        }
        if let Some(r) = &self.refutation {
            r.human(&mut o);
        }
        match &self.read_slips {
            Some(r) if r.applied > 0 => {
                let _ = writeln!(
                    o,
                    "verdict on the file read with {} repaired sites (--read-slips), not on the file as written: {}",
                    r.applied, self.verdict
                );
            }
            _ => {
                let _ = writeln!(o, "verdict: {}", self.verdict);
            }
        }
        o
    }
}

impl Semantic {
    /// The goal check's part of the human report.
    fn human(&self, o: &mut String, all: bool) {
        use std::fmt::Write;
        let _ = writeln!(
            o,
            "goal check: {} placed patterns: {} verified ({} through a union AND), {} refuted, {} undecided ({} with the goal unknown, {} not composed, {} goal not established: an inferred goal lost locally, no refutation); {:.1} s",
            self.instances,
            self.instances_verified,
            self.instances_verified_union_and,
            self.instances_refuted,
            self.instances_undecided,
            self.goal_unknown,
            self.not_composed,
            self.instances_goal_lost,
            self.seconds
        );
        let _ = writeln!(
            o,
            "goal revision: {} placements verified only with revised goals for their parts; widened chains: {}; conjunctive goals: {} placements verified; {} instances built, {} more answered from the memo",
            self.instances_verified_revised, self.instances_verified_widened, self.instances_verified_conjunction, self.builds, self.memo_hits
        );
        let _ = writeln!(
            o,
            "patterns: {} verified at every placement, {} refuted, {} undecided; largest verified: {} cells{}",
            self.patterns_verified,
            self.patterns_refuted,
            self.patterns_undecided,
            self.largest_verified_cells,
            self.largest_verified_pattern
                .map_or(String::new(), |p| format!(" (pattern {p})"))
        );
        let _ = writeln!(
            o,
            "whole strategy (t - b after the centre, {} certificate nodes): {}",
            self.certificate_nodes,
            if self.whole_verified {
                "verified by the kernel"
            } else {
                "not verified"
            }
        );
        let show = |o: &mut String, r: &InstanceResult| {
            let _ = writeln!(
                o,
                "  pattern {} at {}{} ({} cells, goal {}): {:?}: {}",
                r.pattern,
                r.path,
                r.placed_at
                    .map_or(String::new(), |l| format!(", placed at line {}", l.line)),
                r.cells,
                r.goal.as_deref().unwrap_or("unknown"),
                r.status,
                r.reason
            );
            if !r.white_line.is_empty() {
                let what = if r.goal_lost {
                    "White's line against the inferred goal"
                } else {
                    "White's line"
                };
                let _ = writeln!(o, "    {what}: {}", r.white_line.join(" "));
            }
        };
        if !self.causes.is_empty() {
            let _ = writeln!(
                o,
                "not verified, by cause (first failures: none below them not verified):"
            );
            for c in &self.causes {
                let pats: Vec<String> = c
                    .patterns
                    .iter()
                    .map(|(p, n)| format!("{p} ({n})"))
                    .collect();
                let _ = writeln!(
                    o,
                    "  {}: {} first failures{}, {} placements above them",
                    c.cause,
                    c.first,
                    if pats.is_empty() {
                        String::new()
                    } else {
                        format!(" in patterns {}", pats.join(", "))
                    },
                    c.above
                );
            }
        }
        if let Some(r) = &self.first_break {
            let _ = writeln!(o, "first break:");
            show(o, r);
        }
        if !self.failures.is_empty() {
            let limit = if all { usize::MAX } else { 20 };
            let _ = writeln!(o, "failing steps ({}):", self.failures.len());
            for r in self.failures.iter().take(limit) {
                show(o, r);
            }
            if self.failures.len() > limit {
                let _ = writeln!(
                    o,
                    "  … {} more (--all lists them)",
                    self.failures.len() - limit
                );
            }
        }
        let _ = writeln!(
            o,
            "{:>7} {:>5} {:>9} {:>8} {:>7} {:>9} {:>9} {:>9}  status",
            "pattern", "cells", "placements", "verified", "refuted", "undecided", "nodes", "ms"
        );
        for r in &self.patterns {
            let _ = writeln!(
                o,
                "{:>7} {:>5} {:>9} {:>8} {:>7} {:>9} {:>9} {:>9.1}  {:?}",
                r.pattern,
                r.cells,
                r.instances,
                r.verified,
                r.refuted,
                r.undecided,
                r.nodes,
                r.micros as f64 / 1000.0,
                r.status
            );
        }
    }
}
