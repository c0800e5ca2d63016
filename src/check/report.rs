//! The checker's report: per file, per block, per step. Serialisable (`--json`) and printable.

use crate::dsl::ast::Span;
use crate::dsl::diag::DiagCode;
use crate::dsl::diag::{Diag, Label, Level, LineCol, Sources};
use crate::trusted::Basis;
use serde::{Serialize, Serializer};
use std::fmt::Write;

/// A step's verdict.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum StepVerdict {
    /// The step holds (by its rule, by search, or both; see `basis`).
    Verified,
    /// The search ran out of budget and no rule settles it.
    Undecided,
    /// A construct the checker does not handle yet (never counted as verified).
    Unsupported,
    /// The step is wrong: a violated side condition, an unestablished premise, or a false claim.
    Failed,
}

impl StepVerdict {
    /// Text for people.
    pub fn word(self) -> &'static str {
        match self {
            StepVerdict::Verified => "verified",
            StepVerdict::Undecided => "undecided",
            StepVerdict::Unsupported => "unsupported",
            StepVerdict::Failed => "FAILED",
        }
    }

    fn mark(self) -> &'static str {
        match self {
            StepVerdict::Verified => "✓",
            StepVerdict::Undecided => "?",
            StepVerdict::Unsupported => "-",
            StepVerdict::Failed => "✗",
        }
    }
}

/// The outcome of the exhaustive search on a step's conclusion.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SearchReport {
    /// `holds` (kernel-checked certificate), `fails`, `undecided`, or `skipped`.
    pub verdict: String,
    /// Search nodes.
    pub nodes: u64,
    /// Wall time in microseconds.
    pub micros: u64,
    /// The opponent's refuting line, when the claim fails (e.g. `white e5`).
    pub refutation: Vec<String>,
    /// Why the search was skipped or undecided, if so.
    pub note: Option<String>,
}

/// The `basis` field as the report writes it: the basis's text, or `none`.
fn basis_text<S: Serializer>(b: &Option<Basis>, s: S) -> Result<S::Ok, S::Error> {
    match b {
        Some(b) => s.collect_str(b),
        None => s.serialize_str("none"),
    }
}

/// A labelled place in the file.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Place {
    /// Line and column.
    #[serde(flatten)]
    pub at: LineCol,
    /// The label.
    pub text: String,
    /// Byte span (not serialised).
    #[serde(skip)]
    pub span: Span,
}

/// Why a step is not verified.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Reason {
    /// Which rule or check: `AND`, `OR`, `rule (2)`, `premise`, `search`, ….
    pub rule: String,
    /// The side condition, e.g. `A ∩ B = ∅`.
    pub condition: String,
    /// The explanation.
    pub message: String,
    /// Where.
    pub places: Vec<Place>,
}

/// One checked step.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct StepReport {
    /// Where the step starts.
    #[serde(flatten)]
    pub at: LineCol,
    /// The step's label, if any.
    pub label: Option<String>,
    /// The conclusion, e.g. `(x, [16, 19], 15) VC`.
    pub claim: String,
    /// The rule: `AND`, `OR`, `rule (1)`, `rule (2)`, `monotonicity`, `search`, `lemma`,
    /// `lemma claim`, `proof`, or the unsupported construct.
    pub rule: String,
    /// The rule's side conditions: `passed`, `failed`, or `n/a` (a search step).
    pub rule_check: String,
    /// The exhaustive search on the conclusion.
    pub search: Option<SearchReport>,
    /// The verdict.
    pub verdict: StepVerdict,
    /// What the verdict rests on (`Some` exactly when verified): printed `rule and search`,
    /// `rule alone (…)`, `search`, `tree`, …; `none` when not verified. Only trusted code
    /// makes a [`Basis`].
    #[serde(serialize_with = "basis_text")]
    pub basis: Option<Basis>,
    /// Why it is not verified (empty when verified).
    pub reasons: Vec<Reason>,
    /// Remarks that do not change the verdict.
    pub notes: Vec<String>,
    /// Total time for the step, microseconds (rule check and searches).
    pub micros: u64,
    /// The step's span (not serialised).
    #[serde(skip)]
    pub span: Span,
}

impl StepReport {
    /// The basis as text: what the verdict rests on, or `none`.
    pub fn basis_text(&self) -> String {
        self.basis
            .as_ref()
            .map_or_else(|| "none".to_string(), Basis::to_string)
    }
}

/// One lemma, derivation or strategy.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct BlockReport {
    /// `lemma`, `derive` or `strategy`.
    pub kind: String,
    /// Its name.
    pub name: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// Where it starts.
    #[serde(flatten)]
    pub at: LineCol,
    /// The worst step verdict (verified when every step is).
    pub verdict: StepVerdict,
    /// Its steps (for a lemma, the lemma's claim last; for a strategy, its nodes in order).
    pub steps: Vec<StepReport>,
    /// For a strategy: what it proves and its figures; else the lemma instances used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// A lemma of the template library (`use templates`), certified by its stored kernel
    /// certificate: not a step of the file, so not counted while verified, and listed as one
    /// line in the human report.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub library: bool,
}

/// Step counts.
#[derive(Clone, Copy, Debug, Default, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Counts {
    /// All steps.
    pub steps: usize,
    /// Verified.
    pub verified: usize,
    /// Failed.
    pub failed: usize,
    /// Undecided.
    pub undecided: usize,
    /// Unsupported.
    pub unsupported: usize,
}

impl Counts {
    pub(crate) fn add(&mut self, v: StepVerdict) {
        self.steps += 1;
        match v {
            StepVerdict::Verified => self.verified += 1,
            StepVerdict::Failed => self.failed += 1,
            StepVerdict::Undecided => self.undecided += 1,
            StepVerdict::Unsupported => self.unsupported += 1,
        }
    }

    pub(crate) fn merge(&mut self, o: &Counts) {
        self.steps += o.steps;
        self.verified += o.verified;
        self.failed += o.failed;
        self.undecided += o.undecided;
        self.unsupported += o.unsupported;
    }
}

/// One file.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FileReport {
    /// The path as given.
    pub file: String,
    /// `checked`, or `bad input` (then `errors` says why and nothing was checked).
    pub status: String,
    /// Board size, e.g. `7x7`.
    pub board: Option<String>,
    /// Lemmas, derivations, strategies.
    pub blocks: Vec<BlockReport>,
    /// Errors that stopped the file from being checked.
    pub errors: Vec<ErrorReport>,
    /// Step counts.
    pub counts: Counts,
}

/// A bad-input error.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ErrorReport {
    /// Where.
    #[serde(flatten)]
    pub at: LineCol,
    /// Code, e.g. `hexp::unknown-name`.
    pub code: String,
    /// Message.
    pub message: String,
    /// The rendered diagnostic (snippet and labels), as printed.
    pub rendered: String,
}

/// The whole report.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Report {
    /// Per file, in the order given (files pulled in by `use` after the file using them).
    pub files: Vec<FileReport>,
    /// Totals.
    pub counts: Counts,
    /// Exit code: 0 all verified, 1 a step fails, 2 bad input, 3 undecided or unsupported.
    pub exit_code: u8,
}

impl BlockReport {
    pub(crate) fn finish(&mut self) {
        self.verdict = self
            .steps
            .iter()
            .map(|s| s.verdict)
            .max()
            .unwrap_or(StepVerdict::Verified);
    }
}

impl FileReport {
    pub(crate) fn finish(&mut self) {
        let mut c = Counts::default();
        for b in &self.blocks {
            if b.library && b.verdict == StepVerdict::Verified {
                continue;
            }
            for s in &b.steps {
                c.add(s.verdict);
            }
        }
        self.counts = c;
    }
}

impl Report {
    pub(crate) fn finish(&mut self) {
        let mut c = Counts::default();
        let mut bad = false;
        for f in &self.files {
            c.merge(&f.counts);
            bad |= !f.errors.is_empty();
        }
        self.counts = c;
        self.exit_code = if bad {
            2
        } else if c.failed > 0 {
            1
        } else if c.undecided > 0 || c.unsupported > 0 {
            3
        } else {
            0
        };
    }

    /// The report as people read it: one line per step, then every failure drawn with its
    /// source snippet, then the totals.
    pub fn human(&self, sources: &Sources, file_ids: &[Option<usize>]) -> String {
        let mut out = String::new();
        let mut failures: Vec<String> = Vec::new();
        for (fi, f) in self.files.iter().enumerate() {
            let _ = writeln!(
                out,
                "{}{}",
                f.file,
                f.board
                    .as_ref()
                    .map(|b| format!(" ({b} board)"))
                    .unwrap_or_default()
            );
            if !f.errors.is_empty() {
                let _ = writeln!(
                    out,
                    "  bad input: {} error(s); nothing checked",
                    f.errors.len()
                );
                for e in &f.errors {
                    failures.push(e.rendered.clone());
                }
                out.push('\n');
                continue;
            }
            let library = f
                .blocks
                .iter()
                .filter(|b| b.library && b.verdict == StepVerdict::Verified)
                .count();
            if library > 0 {
                let _ = writeln!(
                    out,
                    "  use templates: {}, each certified by its kernel certificate (not counted as steps)",
                    plural(library as u64, "library lemma")
                );
            }
            for b in &f.blocks {
                if b.library && b.verdict == StepVerdict::Verified {
                    continue;
                }
                let what = match (&b.name, &b.title) {
                    (Some(n), Some(t)) => format!("{} {n} \"{t}\"", b.kind),
                    (Some(n), None) => format!("{} {n}", b.kind),
                    (None, Some(t)) => format!("{} \"{t}\"", b.kind),
                    (None, None) => b.kind.clone(),
                };
                let _ = writeln!(out, "  {what} (line {}): {}", b.at.line, b.verdict.word());
                if let Some(sm) = &b.summary {
                    let _ = writeln!(out, "    {sm}");
                }
                for s in &b.steps {
                    let _ = writeln!(
                        out,
                        "    {} {:<7} {:<13} {}{}  [{}]",
                        s.verdict.mark(),
                        s.at.to_string(),
                        s.rule,
                        s.label
                            .as_ref()
                            .map(|l| format!("{l}: "))
                            .unwrap_or_default(),
                        s.claim,
                        detail(s)
                    );
                    for n in &s.notes {
                        let _ = writeln!(out, "              note: {n}");
                    }
                    if s.verdict != StepVerdict::Verified {
                        for r in &s.reasons {
                            let _ = writeln!(
                                out,
                                "              - {} [{}]: {}",
                                r.rule, r.condition, r.message
                            );
                        }
                    }
                    if s.verdict == StepVerdict::Failed {
                        if let Some(Some(id)) = file_ids.get(fi) {
                            failures.push(sources.render(&failure_diag(*id, s)));
                        }
                    }
                }
            }
            let c = &f.counts;
            let _ = writeln!(
                out,
                "  {} step(s): {} verified, {} failed, {} undecided, {} unsupported\n",
                c.steps, c.verified, c.failed, c.undecided, c.unsupported
            );
        }
        if !failures.is_empty() {
            out.push_str(&failures.join("\n"));
            out.push('\n');
        }
        out.push_str(&self.short_of_budget());
        let c = &self.counts;
        let _ = writeln!(
            out,
            "total: {} file(s), {} step(s): {} verified, {} failed, {} undecided, {} unsupported — {}",
            self.files.len(),
            c.steps,
            c.verified,
            c.failed,
            c.undecided,
            c.unsupported,
            match self.exit_code {
                0 => "all verified",
                1 => "a step fails",
                2 => "bad input",
                _ => "not everything could be verified",
            }
        );
        out
    }
}

/// At most this many undecided steps are listed by [`Report::short_of_budget`].
const BUDGET_LIST: usize = 20;

impl Report {
    /// The steps that are undecided because their own search ran out of budget (not those
    /// undecided because of them), one line each with `file:line:column`.
    fn short_of_budget(&self) -> String {
        let steps: Vec<(&str, &StepReport)> = self
            .files
            .iter()
            .flat_map(|f| {
                f.blocks
                    .iter()
                    .flat_map(|b| b.steps.iter())
                    .map(move |s| (f.file.as_str(), s))
            })
            .filter(|(_, s)| {
                s.verdict == StepVerdict::Undecided
                    && s.search.as_ref().is_some_and(|r| r.verdict == "undecided")
            })
            .collect();
        if steps.is_empty() {
            return String::new();
        }
        let mut out = format!(
            "undecided for want of search budget ({}; rerun with a larger --nodes or --time to give them more budget):\n",
            plural(steps.len() as u64, "step")
        );
        for (file, s) in steps.iter().take(BUDGET_LIST) {
            let _ = writeln!(out, "  {file}:{} {} {}", s.at, s.rule, s.claim);
        }
        if steps.len() > BUDGET_LIST {
            let _ = writeln!(out, "  … and {} more", steps.len() - BUDGET_LIST);
        }
        out.push('\n');
        out
    }
}

fn plural(n: u64, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// The bracketed summary after a step: rule check, search, basis.
fn detail(s: &StepReport) -> String {
    let mut parts = Vec::new();
    match s.rule_check.as_str() {
        "passed" => parts.push("rule ✓".to_string()),
        "failed" => parts.push("rule ✗".to_string()),
        _ => {}
    }
    match &s.search {
        None if s.verdict == StepVerdict::Unsupported => parts.push("not checked".into()),
        None => parts.push("no search".into()),
        Some(r) => {
            let mut t = format!("search: {}", r.verdict);
            if r.verdict != "skipped" {
                let _ = write!(
                    t,
                    ", {}, {:.1} ms",
                    plural(r.nodes, "node"),
                    r.micros as f64 / 1000.0
                );
            }
            if let Some(n) = &r.note {
                let _ = write!(t, " ({n})");
            }
            parts.push(t);
        }
    }
    if s.verdict == StepVerdict::Verified && s.basis.as_ref().is_some_and(Basis::rule_alone) {
        parts.push("rests on the rule alone".into());
    }
    parts.join(" · ")
}

/// A failed step as a diagnostic: every reason's labels, the first reason as the message.
pub fn failure_diag(file: usize, s: &StepReport) -> Diag {
    let mut labels: Vec<Label> = Vec::new();
    for r in &s.reasons {
        for p in &r.places {
            if !labels.iter().any(|l| l.span == p.span && l.text == p.text) {
                labels.push(Label {
                    span: p.span,
                    text: p.text.clone(),
                });
            }
        }
    }
    if labels.is_empty() {
        labels.push(Label {
            span: s.span,
            text: "this step".into(),
        });
    }
    let message = match s.reasons.as_slice() {
        [] => format!("step {} fails", s.claim),
        [r] => format!("{}: {}", r.rule, r.message),
        rs => format!("{} problems with {}", rs.len(), s.claim),
    };
    let help = if s.reasons.len() > 1 {
        Some(
            s.reasons
                .iter()
                .map(|r| format!("{} [{}]: {}", r.rule, r.condition, r.message))
                .collect::<Vec<_>>()
                .join("\n"),
        )
    } else {
        None
    };
    Diag {
        file,
        level: Level::Error,
        code: DiagCode::StepFailed,
        message,
        labels,
        help,
    }
}
