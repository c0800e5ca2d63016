//! The report of `hexproof yang check` (first version, docs/yang.md): the file read, its
//! structure measured against itself per pattern, and an honest verdict.
//!
//! What this version decides: that the file reads; for each pattern its size, branches,
//! trigger coverage and structural defects (positions outside the parent, aliased positions,
//! overlapping sub-patterns, a sub-pattern holding the reply or a trigger). What it does **not**
//! decide yet: whether any pattern achieves its goal — the goals are not inferred and no
//! local search is run. So no pattern is ever reported verified or refuted here, the verdict
//! is never "verified", and the exit code is 2 (a defect in a reachable pattern: bad data) or
//! 3 (undecided: goals unchecked).

use super::reader::{Defect, Strategy};
use serde::Serialize;

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
    /// Patterns whose goal was verified (always 0 in this version).
    pub verified: usize,
    /// Patterns refuted (always 0 in this version).
    pub refuted: usize,
    /// Reachable patterns left undecided (goal unchecked).
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
    /// The process exit code.
    #[serde(skip)]
    pub exit_code: u8,
}

/// What this version checks (printed with every report).
pub const SCOPE: &str = "read and structure only: sizes, trigger coverage, positions \
outside their parent, aliased and overlapping sub-patterns; no pattern's goal is inferred \
or searched yet, so nothing is verified";

/// Builds the report of a parsed strategy.
pub fn report(s: &Strategy) -> Report {
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
    let exit_code = if defective > 0 {
        EXIT_BAD_DATA
    } else {
        EXIT_UNDECIDED
    };
    Report {
        board_size: s.board_size,
        patterns: s.patterns.len(),
        branches: s.branch_count(),
        reachable: reach.len(),
        verified: 0,
        refuted: 0,
        undecided,
        defective,
        verdict: if defective > 0 {
            "bad data"
        } else {
            "undecided"
        },
        scope: SCOPE,
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
        exit_code,
    }
}

impl Report {
    /// The human-readable text: summary, defects, then the table of reachable patterns
    /// (`all`: every pattern).
    pub fn human(&self, all: bool) -> String {
        use std::fmt::Write;
        let mut o = String::new();
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
        let _ = writeln!(o, "verdict: {}", self.verdict);
        o
    }
}
