//! Pass 3: checking an elaborated program, step by step.
//!
//! Every step is checked twice where the budget allows (docs/SEMANTICS.md and docs/ARCHITECTURE.md "Trust"):
//! 1. by its rule: the side conditions ([`rules`]) on the premises as stated, and each premise
//!    established — an earlier conclusion of the same block (up to monotonicity: same pairs,
//!    a carrier inside the premise's, a VC where a VSC is asked), or a base fact (its ends are
//!    already joined, e.g. adjacent cells with an empty carrier);
//! 2. by the exhaustive search ([`crate::local::decide`]) of the conclusion's sub-game, whose
//!    "holds" is backed by a kernel-checked certificate.
//!
//! Verdicts: a `by search` step is verified only when the search holds. A rule step is
//! verified when its rule applies to established premises and the search does not refute the
//! conclusion; when the search is over budget the report says the step rests on its rule
//! alone. A rule that applies while the search refutes the conclusion is reported as a failure
//! (it would be a bug in the rules or the search) — never as verified. Nothing is verified
//! "because the search could not refute it".
//!
//! A failed step whose conclusion the search proves true still counts as an established fact
//! for later steps (it is true, with a certificate); a failed, undecided or unsupported
//! conclusion is not, and steps that use it say so.

mod kcompose;
pub mod report;
pub mod shard;
mod tree;
// The side conditions and exact games moved to the trusted folder; their old paths stay.
pub use crate::trusted::{ab, compose, conj, fill, place, rules};

use crate::board::{Cell, CellSet};
use crate::claim::{Claim, SubGame};
use crate::dsl::ast::Span;
use crate::dsl::diag::DiagCode;
use crate::dsl::diag::{Diag, FileId, Sources};
use crate::dsl::load::{Loader, RootStatus};
use crate::dsl::model::{
    Block, BlockKind, CellNames, Fact, Just, LemmaRef, Premise, Program, Step,
};
use crate::local::{decide, Budget, Verdict};
use crate::position::Position;
use crate::trusted::{Basis, RuleChecked, SearchWin, Searched, Unsearched};
use report::*;
use rules::{Ctx, Input, Violation};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Checker settings.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Budget for each exhaustive search that is the authority for a verdict: `by search`
    /// steps and lemmas proved by search.
    pub budget: Budget,
    /// Budget for each *confirming* search: the second check of a step that its rule already
    /// justifies (rule steps, lemma uses, lemmas proved by steps, proof-tree nodes), and the
    /// search that explains a failed premise. When it runs out the step rests on its rule
    /// alone, which the report says; soundness never depends on it. Kept well below `budget`
    /// so that proofs of hundreds of steps (Noshita's) check in CI time, and bounded by nodes
    /// first so that reports do not depend on the machine's load.
    pub confirm: Budget,
    /// Run the search on rule steps too (the second check). `by search` steps always search.
    pub search_rule_steps: bool,
}

/// Steps checked so far by this process, over all files: read by the command line's
/// progress display (`hexproof check`, `render`).
pub static STEPS_CHECKED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The default [`Options::confirm`] budget: a quarter of a million nodes (about half a second).
pub const CONFIRM_NODES: u64 = 250_000;

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: Budget {
                nodes: 20_000_000,
                time: Some(Duration::from_secs(60)),
                ..Budget::default()
            },
            confirm: Budget {
                nodes: CONFIRM_NODES,
                time: Some(Duration::from_secs(20)),
                ..Budget::default()
            },
            search_rule_steps: true,
        }
    }
}

/// The result of checking files: the report and the sources it points into.
pub struct Checked {
    /// The report.
    pub report: Report,
    /// Every file read.
    pub sources: Sources,
    /// For each file of the report, its id in `sources` (`None` if it could not be read).
    pub file_ids: Vec<Option<FileId>>,
}

impl Checked {
    /// The human-readable report.
    pub fn human(&self) -> String {
        self.report.human(&self.sources, &self.file_ids)
    }

    /// The report's first `n` lines joined by " / ": why a proof was rejected, in one line.
    pub fn headline(&self, n: usize) -> String {
        self.human().lines().take(n).collect::<Vec<_>>().join(" / ")
    }
}

/// Loads and checks files named by the user (and the files they `use`).
pub fn check_files(paths: &[std::path::PathBuf], opts: &Options) -> Checked {
    check_files_in(paths, opts, None)
}

/// [`check_files`] of a sharded check: the strategies' parts as `split` says ([`shard`]).
pub fn check_files_split(
    paths: &[std::path::PathBuf],
    opts: &Options,
    split: &std::cell::RefCell<shard::Split>,
) -> Checked {
    check_files_in(paths, opts, Some(split))
}

fn check_files_in(
    paths: &[std::path::PathBuf],
    opts: &Options,
    split: Option<&std::cell::RefCell<shard::Split>>,
) -> Checked {
    let mut loader = Loader::new();
    let mut roots = Vec::new();
    for p in paths {
        let (d0, s0) = (loader.diag_count(), loader.source_count());
        let st = loader.load_path(p);
        roots.push((p.display().to_string(), st, d0..loader.diag_count(), s0));
    }
    finish(loader, roots, opts, split)
}

/// Checks one source text (tests, tools); `use` paths resolve relative to `name`.
pub fn check_source(name: &str, text: &str, opts: &Options) -> Checked {
    let mut loader = Loader::new();
    let st = loader.load_source(name, text);
    let d1 = loader.diag_count();
    finish(loader, vec![(name.to_string(), st, 0..d1, 0)], opts, None)
}

type Root = (String, RootStatus, std::ops::Range<usize>, usize);

fn finish(
    loader: Loader,
    roots: Vec<Root>,
    opts: &Options,
    split: Option<&std::cell::RefCell<shard::Split>>,
) -> Checked {
    let loaded = loader.finish();
    let sources = &loaded.program.sources;
    let mut files = Vec::new();
    let mut ids = Vec::new();
    let mut done: Vec<FileId> = Vec::new();
    let mut db: LemmaDb = HashMap::new();
    let mut images: ImageDb = HashMap::new();
    for (name, st, diags, first_source) in roots {
        match st {
            RootStatus::Unreadable(e) => {
                let message = e.to_string();
                files.push(FileReport {
                    file: name,
                    status: "bad input".into(),
                    board: None,
                    blocks: Vec::new(),
                    errors: vec![ErrorReport {
                        at: crate::dsl::diag::LineCol { line: 0, column: 0 },
                        code: DiagCode::Unreadable.to_string(),
                        message: message.clone(),
                        rendered: format!("hexproof: error: {message}\n"),
                    }],
                    counts: Counts::default(),
                });
                ids.push(None);
            }
            RootStatus::Loaded(id) => {
                // The files it uses first (each once), then itself.
                let mut order = Vec::new();
                dependency_order(&loaded.program, id, &mut order);
                for fid in order {
                    if done.contains(&fid) {
                        continue;
                    }
                    done.push(fid);
                    let m = loaded
                        .program
                        .modules
                        .iter()
                        .find(|m| m.file == fid)
                        .expect("a loaded file has a module");
                    files.push(check_module(
                        &loaded.program,
                        m,
                        opts,
                        &mut db,
                        &mut images,
                        split,
                    ));
                    ids.push(Some(fid));
                }
            }
            RootStatus::BadInput(_) => {
                let fid = (first_source < sources.files.len()).then_some(first_source);
                let errs: Vec<&Diag> = loaded.diags[diags].iter().collect();
                files.push(FileReport {
                    file: fid.map_or(name, |i| sources.name(i).to_string()),
                    status: "bad input".into(),
                    board: None,
                    blocks: Vec::new(),
                    errors: errs
                        .iter()
                        .map(|d| ErrorReport {
                            at: sources.line_col(d.file, d.span().start),
                            code: d.code.to_string(),
                            message: d.message.clone(),
                            rendered: sources.render(d),
                        })
                        .collect(),
                    counts: Counts::default(),
                });
                ids.push(fid);
            }
        }
    }
    let mut report = Report {
        files,
        counts: Counts::default(),
        exit_code: 0,
    };
    report.finish();
    Checked {
        report,
        sources: loaded.program.sources,
        file_ids: ids,
    }
}

fn dependency_order(p: &Program, id: FileId, out: &mut Vec<FileId>) {
    if out.contains(&id) {
        return;
    }
    if let Some(m) = p.modules.iter().find(|m| m.file == id) {
        for u in &m.uses {
            dependency_order(p, *u, out);
        }
    }
    out.push(id);
}

/// Checks one elaborated program (every module), e.g. from [`crate::dsl::load_str`].
pub fn check_program(p: &Program, opts: &Options) -> Report {
    let mut db: LemmaDb = HashMap::new();
    let mut images: ImageDb = HashMap::new();
    let mut report = Report {
        files: p
            .modules
            .iter()
            .map(|m| check_module(p, m, opts, &mut db, &mut images, None))
            .collect(),
        counts: Counts::default(),
        exit_code: 0,
    };
    report.finish();
    report
}

/// The note on a guarantee that also holds as an interface for another area.
const INTERFACE_NOTE: &str = "usable across two areas";

/// Certified lemmas by name: the block, whether its claim is verified, and its verified AB
/// guarantees `(A, B)`.
pub(crate) type LemmaDb<'p> = HashMap<
    String,
    (
        &'p Block,
        bool,
        Vec<(crate::board::Cell, crate::board::Cell)>,
    ),
>;

/// A checked strategy, for `image "FILE" under rot180` in a file that uses FILE
/// (docs/LANGUAGE.md, "Images of another file's strategy").
pub(crate) struct StrategyFact {
    /// Its position (Black to move).
    pub position: Position,
    /// Its root's Black move, when the root is one (`black M { .. }` or `black M goto ..`).
    pub first: Option<Cell>,
    /// The strategy's verdict (the worst of its lines).
    pub verdict: StepVerdict,
    /// The bases of its verified lines.
    pub bases: Vec<Basis>,
    /// Where it starts (line).
    pub line: usize,
}

/// Checked strategies by file, filled as each file is checked (a used file first).
pub(crate) type ImageDb = HashMap<FileId, Vec<StrategyFact>>;

fn check_module<'p>(
    p: &'p Program,
    m: &'p crate::dsl::model::Module,
    opts: &Options,
    db: &mut LemmaDb<'p>,
    images: &mut ImageDb,
    split: Option<&std::cell::RefCell<shard::Split>>,
) -> FileReport {
    let sources = &p.sources;
    let mut blocks = Vec::new();
    for b in &m.blocks {
        let r = Checker {
            sources,
            file: m.file,
            block: b,
            opts,
            known: Vec::new(),
            cache: HashMap::new(),
            with_cert: Vec::new(),
            goal_search: None,
            tree_cert: None,
            lemmas: db,
            images,
            position: b.position.clone(),
            steps: &b.steps,
            lemma_uses: 0,
            goal: None,
            split,
        }
        .run();
        if b.kind == BlockKind::Lemma {
            if let Some(n) = &b.name {
                // The lemma's claim is its last step report; only a verified claim may be used.
                let ok = r
                    .steps
                    .iter()
                    .rev()
                    .find(|s| {
                        s.rule == "lemma claim"
                            || s.rule == "lemma proof"
                            || s.rule == "lemma claim (assisted)"
                    })
                    .is_some_and(|s| s.verdict == StepVerdict::Verified);
                let gs: Vec<_> = r
                    .steps
                    .iter()
                    .filter(|s| s.rule == "AB guarantee")
                    .zip(b.lemma.iter().flat_map(|l| l.guarantees.iter()))
                    .filter(|(s, _)| {
                        s.verdict == StepVerdict::Verified
                            && s.notes.iter().any(|n| n.starts_with(INTERFACE_NOTE))
                    })
                    .map(|(_, g)| (g.a, g.b))
                    .collect();
                db.insert(n.clone(), (b, ok, gs));
            }
        }
        blocks.push(r);
    }
    let facts = m
        .blocks
        .iter()
        .zip(&blocks)
        .filter(|(b, _)| b.kind == BlockKind::Strategy)
        .map(|(b, r)| StrategyFact {
            position: b.position.clone(),
            first: match &b.tree {
                Some(crate::dsl::model::TreeNode::Black { cell, .. }) => Some(*cell),
                _ => None,
            },
            verdict: r.verdict,
            bases: r.steps.iter().filter_map(|s| s.basis.clone()).collect(),
            line: r.at.line,
        })
        .collect();
    images.insert(m.file, facts);
    let mut f = FileReport {
        file: sources.name(m.file).to_string(),
        status: "checked".into(),
        board: Some(m.board.to_string()),
        blocks,
        errors: Vec::new(),
        counts: Counts::default(),
    };
    f.finish();
    f
}

/// What is known about a conclusion once its step is checked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    /// True: verified.
    Established,
    /// The step failed, but the search proved its conclusion (a kernel-checked certificate):
    /// true, usable by later steps, yet not derived.
    SearchOnly,
    /// The step failed and the search did not prove the conclusion.
    Failed,
    /// Undecided.
    Undecided,
    /// Not checked (unsupported construct).
    Unsupported,
}

struct Known {
    claim: Claim,
    /// A conjunction (every pair), not a union.
    conj: bool,
    carrier: CellSet,
    status: Status,
    step: usize,
    span: Span,
    /// The step's basis when it is established.
    basis: Option<Basis>,
}

#[derive(Clone)]
struct SearchOut {
    verdict: Verdict,
    report: SearchReport,
    /// The evidence of a "holds": the kernel's acceptance or the conjunction game's win.
    win: Option<SearchWin>,
    /// The certificate the kernel accepted for that win, when a search made it (kept so an
    /// OR step can compose its premises' certificates, [`kcompose::compose_or`]).
    cert: Option<std::sync::Arc<crate::kernel::Certificate>>,
    /// `cert` was dropped once the derivation that made it ended ([`Checker::drop_certs`]):
    /// verdict and win stand as they are; a later composition needing the certificate
    /// re-runs the search ([`Checker::cached_with_cert`]).
    dropped: bool,
}

impl SearchOut {
    /// A "holds" confirmed by a kernel certificate composed of kernel-checked ones ([`kcompose`]),
    /// without a search: `what` names the certificates it was composed of; `cert` the composed
    /// certificate when an OR step may reuse it.
    fn composed(
        start: Instant,
        what: &str,
        v: crate::kernel::Verified,
        cert: Option<std::sync::Arc<crate::kernel::Certificate>>,
    ) -> SearchOut {
        SearchOut {
            verdict: Verdict::Holds,
            report: SearchReport {
                verdict: "holds".into(),
                nodes: 0,
                micros: start.elapsed().as_micros() as u64,
                refutation: Vec::new(),
                note: Some(format!(
                    "kernel certificate composed of {what} kernel-checked certificates (no search)"
                )),
            },
            win: Some(SearchWin::Kernel(v)),
            cert,
            dropped: false,
        }
    }

    /// The search as a basis part: its win, or that it was undecided.
    fn searched(&self) -> Searched {
        self.win.clone().ok_or(Unsearched::Undecided)
    }
}

/// What a step's rule part established (see [`Checker::premises_part`]).
struct RulePart {
    /// Side conditions and premises hold.
    ok: bool,
    /// The side conditions' evidence (a rule or a lemma placement).
    checked: Option<RuleChecked>,
    /// A premise resting on an undecided or unsupported step: (status, step, its span).
    rests: Option<(Status, usize, Span)>,
    /// The conclusion's carrier names a cell twice.
    dup_fail: bool,
}

/// Why a template-library lemma is rejected ([`Checker::library_claim`]; the report prints
/// it after `the library's record NAME is rejected: `).
#[derive(Debug, thiserror::Error)]
enum LibraryLemmaError {
    /// The record, or its stored certificate, is malformed.
    #[error(transparent)]
    Template(#[from] crate::templates::TemplateError),
    /// The lemma's sub-game is not one.
    #[error(transparent)]
    Claim(#[from] crate::claim::ClaimError),
    /// The kernel refuses the certificate.
    #[error("kernel: {0}")]
    Kernel(#[source] crate::kernel::KernelError),
}

/// Why a search did not confirm a step: its note, or that it did not run.
fn over_budget(search: Option<&SearchOut>) -> Unsearched {
    search.map_or(Unsearched::NotRun, |x| {
        x.report
            .note
            .clone()
            .map_or(Unsearched::Exhausted, Unsearched::Note)
    })
}

/// Placements tried per lemma of a `by S, T` step.
const LEMMA_PLACEMENTS: usize = 48;
/// Combinations of placements tried in all for a `by S, T` step.
const LEMMA_COMBINATIONS: usize = 50_000;

/// A search cache key: the claim, its carrier, the position's Black and White stones, and
/// whether the claim is a conjunction.
type CacheKey = (Claim, CellSet, CellSet, CellSet, bool);

struct Checker<'a> {
    sources: &'a Sources,
    file: FileId,
    block: &'a Block,
    opts: &'a Options,
    known: Vec<Known>,
    cache: HashMap<CacheKey, SearchOut>,
    /// The cache's keys whose entries got a certificate, in order; [`Checker::drop_certs`]
    /// drops the certificates of those after a mark once their derivation has ended.
    with_cert: Vec<CacheKey>,
    /// Lemmas checked so far (this file's earlier lemmas and the used files').
    lemmas: &'a LemmaDb<'a>,
    /// Strategies of the files checked so far (for `image`).
    images: &'a ImageDb,
    /// The position the current steps are about (the block's, or a tree node's).
    position: Position,
    /// The current list of steps (the block's, or a tree leaf's), for premise labels.
    steps: &'a [Step],
    /// Lemma instances verified so far.
    lemma_uses: usize,
    /// In a lemma's proof tree: the claim and carrier its leaves must reach.
    goal: Option<tree::Goal>,
    /// Set by the last derivation of a tree leaf or analysis ([`tree`]): the label's line
    /// and carrier of its established `t - b`, and that fact's own search when one was run
    /// and held (the leaf's confirming search reuses it, see `tree::leaf_node`).
    goal_search: Option<(usize, CellSet, SearchOut)>,
    /// A sharded check's split of the strategies' parts ([`shard`]); `None`: check all.
    split: Option<&'a std::cell::RefCell<shard::Split>>,
    /// Set by the last checked tree node with White to move (and passed up through a Black
    /// node): the kernel's acceptance of Black's `t - b` in its position, on a carrier inside
    /// its empty cells, when its leaves' and analyses' certificates compose
    /// ([`tree`]'s `compose_white`); `None` otherwise.
    tree_cert: Option<crate::kernel::Verified>,
}

/// How a premise stands.
enum Standing {
    /// Established by an earlier step or as a base fact; the kind it is known at, and the
    /// step if that step failed while its conclusion holds by search.
    Yes {
        semi: bool,
        search_only: Option<Span>,
    },
    /// Resting on a step that is not established.
    Rests(Status, usize, Span),
    /// Not established; why.
    No(Reason),
}

impl<'a> Checker<'a> {
    fn names(&self) -> &'a CellNames {
        &self.block.names
    }

    fn pos(&self) -> &Position {
        &self.position
    }

    fn at(&self, span: Span) -> crate::dsl::diag::LineCol {
        self.sources.line_col(self.file, span.start)
    }

    fn place(&self, span: Span, text: impl Into<String>) -> Place {
        Place {
            at: self.at(span),
            text: text.into(),
            span,
        }
    }

    fn reason(&self, rule: &str, condition: &str, message: String, places: Vec<Place>) -> Reason {
        Reason {
            rule: rule.into(),
            condition: condition.into(),
            message,
            places,
        }
    }

    fn violation_reason(&self, rule: &str, v: Violation) -> Reason {
        let places = v
            .labels
            .into_iter()
            .map(|(s, t)| self.place(s, t))
            .collect();
        self.reason(rule, v.condition, v.message, places)
    }

    /// Caches a search's (or a composition's) outcome, noting its key when it holds a
    /// certificate.
    fn remember(&mut self, key: CacheKey, out: SearchOut) {
        if out.cert.is_some() {
            self.with_cert.push(key.clone());
        }
        self.cache.insert(key, out);
    }

    /// The memory bound of the search cache: drops the certificates cached since `mark` (a
    /// length of [`Self::with_cert`]), keeping each entry's verdict, kernel acceptance and
    /// report. Called when a derivation (or a node's search) ends: a certificate is only
    /// copied into a composition ([`Self::and_first_by_kernel`], [`Self::or_by_kernel`]) by a
    /// later step of the same derivation, and a later derivation that needs one has it made
    /// again by [`Self::cached_with_cert`]. The verdicts are unchanged: a dropped
    /// certificate was accepted by the kernel when the entry was made, and its acceptance
    /// (the entry's win) stays.
    fn drop_certs(&mut self, mark: usize) {
        if mark >= self.with_cert.len() {
            return;
        }
        for key in self.with_cert.split_off(mark) {
            if let Some(o) = self.cache.get_mut(&key) {
                if o.cert.take().is_some() {
                    o.dropped = true;
                }
            }
        }
    }

    /// The cached entry of `key` (stones of the current position) with its certificate: when
    /// [`Self::drop_certs`] dropped it, the search is run again (the authoritative budget) and,
    /// if it holds with a certificate, replaces the entry; otherwise the entry stays as it was.
    fn cached_with_cert(&mut self, key: &CacheKey) -> Option<SearchOut> {
        let old = self.cache.get(key)?.clone();
        if !old.dropped || old.verdict != Verdict::Holds || key.4 {
            return Some(old);
        }
        self.cache.remove(key);
        let budget = self.opts.budget;
        let fresh = self.search_budget(&key.0, key.1, &budget, false);
        if fresh.verdict == Verdict::Holds && fresh.cert.is_some() {
            return Some(fresh);
        }
        self.cache.insert(key.clone(), old.clone());
        Some(old)
    }

    /// A confirming search (budget [`Options::confirm`]) of a union (`conj` false) or a
    /// conjunction.
    fn confirm_fact(&mut self, claim: &Claim, carrier: CellSet, conj: bool) -> SearchOut {
        let budget = self.opts.confirm;
        self.search_budget(claim, carrier, &budget, conj)
    }

    /// The confirmation of an AND step by the kernel ([`kcompose`]): when every premise is a
    /// single-pair VC whose own search here held (a kernel acceptance in the search cache),
    /// the kernel checks a certificate of the conclusion made of those acceptances under one
    /// and-node. The result stands for the conclusion's confirming search (and is cached as
    /// it); `None` when it does not apply or the kernel refuses, and the search runs instead.
    fn and_by_kernel(&mut self, s: &Step, premises: &[Premise]) -> Option<SearchOut> {
        let start = Instant::now();
        let f = &s.fact;
        if f.conj {
            return None;
        }
        if f.claim.owner_first {
            return self.and_first_by_kernel(s, premises);
        }
        let black = self.position.stones(crate::board::Colour::Black);
        let white = self.position.stones(crate::board::Colour::White);
        let mut found: Vec<(Claim, CellSet, crate::kernel::Verified)> = Vec::new();
        for p in premises {
            let pf = match p {
                Premise::Step { index, .. } => &self.steps.get(*index)?.fact,
                Premise::Inline { fact, .. } => fact,
            };
            let mut claim = pf.claim.clone();
            claim.owner_first = false;
            if pf.conj || claim.pairs.len() != 1 {
                return None;
            }
            let out = self
                .cache
                .get(&(claim.clone(), pf.carrier, black, white, false))?;
            let Some(SearchWin::Kernel(v)) = &out.win else {
                return None;
            };
            found.push((claim, pf.carrier, v.clone()));
        }
        let game = SubGame::new(self.position.clone(), f.carrier, f.claim.clone()).ok()?;
        let parts: Vec<kcompose::Part> = found
            .iter()
            .map(|(c, carrier, v)| kcompose::Part {
                pair: c.pairs[0],
                carrier: *carrier,
                verified: v,
            })
            .collect();
        let v = kcompose::compose_and(&game, &parts)?;
        let out = SearchOut::composed(start, "the premises'", v, None);
        self.remember(
            (f.claim.clone(), f.carrier, black, white, false),
            out.clone(),
        );
        Some(out)
    }

    /// [`Self::and_by_kernel`] of an AND step concluding a semi-connection (Black first):
    /// Black's first move is a premise's (a VSC's certificate's first move, or the empty end
    /// of a premise on no cell, `(t, [], g3)`), or else the empty cell the premises' pairs
    /// meet at; then one and-node over the premises' certificates (searched or composed here,
    /// copied in) or acceptances (lemma leaves), [`kcompose::compose_and_first`]. The result
    /// is cached as the conclusion's search with its certificate (an OR step above copies it).
    fn and_first_by_kernel(&mut self, s: &Step, premises: &[Premise]) -> Option<SearchOut> {
        let start = Instant::now();
        let f = &s.fact;
        let black = self.position.stones(crate::board::Colour::Black);
        let white = self.position.stones(crate::board::Colour::White);
        let empty = self.position.empty_cells();
        // Per premise: its pair, carrier, and the search that held on it (None: on no cell).
        let mut found: Vec<((Cell, Cell), CellSet, Option<SearchOut>)> = Vec::new();
        let mut firsts: Vec<Cell> = Vec::new();
        for p in premises {
            let pf = match p {
                Premise::Step { index, .. } => &self.steps.get(*index)?.fact,
                Premise::Inline { fact, .. } => fact,
            };
            if pf.conj || pf.claim.pairs.len() != 1 {
                return None;
            }
            let pair = pf.claim.pairs[0];
            if pf.carrier.is_empty() {
                let ends: Vec<Cell> = [pair.0, pair.1]
                    .into_iter()
                    .filter(|&c| empty.contains(c))
                    .collect();
                firsts.extend(ends);
                found.push((pair, pf.carrier, None));
                continue;
            }
            let mut out = self
                .cached_with_cert(&(pf.claim.clone(), pf.carrier, black, white, false))
                .filter(|o| o.verdict == Verdict::Holds);
            if out.is_none() && pf.claim.owner_first {
                let mut vc = pf.claim.clone();
                vc.owner_first = false;
                out = self
                    .cached_with_cert(&(vc, pf.carrier, black, white, false))
                    .filter(|o| o.verdict == Verdict::Holds);
            }
            // Kernel evidence only (a conjunction game's win has none).
            let out =
                out.filter(|o| o.cert.is_some() || matches!(o.win, Some(SearchWin::Kernel(_))))?;
            if let Some(m) = out.cert.as_ref().and_then(|c| c.first) {
                firsts.push(m);
            }
            found.push((pair, pf.carrier, Some(out)));
        }
        firsts.sort();
        firsts.dedup();
        let candidates: Vec<Cell> = if firsts.is_empty() {
            // The empty cells where two premises' pairs meet.
            let mut ends: Vec<Cell> = found
                .iter()
                .flat_map(|(p, _, _)| [p.0, p.1])
                .filter(|&c| empty.contains(c) && f.carrier.contains(c))
                .collect();
            ends.sort();
            ends.dedup();
            ends
        } else {
            firsts
        };
        let game = SubGame::new(self.position.clone(), f.carrier, f.claim.clone()).ok()?;
        let links: Vec<kcompose::Link> = found
            .iter()
            .map(|(pair, carrier, out)| kcompose::Link {
                pair: *pair,
                carrier: *carrier,
                evidence: match out {
                    None => kcompose::Evidence::Adjacent,
                    Some(o) => match (&o.cert, &o.win) {
                        (Some(c), _) => kcompose::Evidence::Cert(c),
                        (None, Some(SearchWin::Kernel(v))) => kcompose::Evidence::Lemma(v),
                        _ => unreachable!("filtered above: kernel evidence only"),
                    },
                },
            })
            .collect();
        let (v, cert) = candidates
            .iter()
            .find_map(|&m| kcompose::compose_and_first(&game, m, &links))?;
        let out = SearchOut::composed(start, "the premises'", v, cert.map(std::sync::Arc::new));
        self.remember(
            (f.claim.clone(), f.carrier, black, white, false),
            out.clone(),
        );
        Some(out)
    }

    /// The confirmation of an OR step by the kernel ([`kcompose::compose_or`]): when every
    /// premise is a semi-connection whose own search here held with a first move, the kernel
    /// checks a certificate of the conclusion made of one or-node whose options are those
    /// first moves followed by the premises' certificates (copied in, checked again in full).
    /// As [`Self::and_by_kernel`], the result stands for the conclusion's confirming search;
    /// `None` when it does not apply or the kernel refuses, and the search runs instead.
    fn or_by_kernel(&mut self, s: &Step, premises: &[Premise]) -> Option<SearchOut> {
        let start = Instant::now();
        let f = &s.fact;
        if f.conj || f.claim.owner_first {
            return None;
        }
        let black = self.position.stones(crate::board::Colour::Black);
        let white = self.position.stones(crate::board::Colour::White);
        let mut certs: Vec<std::sync::Arc<crate::kernel::Certificate>> = Vec::new();
        for p in premises {
            let pf = match p {
                Premise::Step { index, .. } => &self.steps.get(*index)?.fact,
                Premise::Inline { fact, .. } => fact,
            };
            if pf.conj || !pf.claim.owner_first {
                return None;
            }
            let out =
                self.cached_with_cert(&(pf.claim.clone(), pf.carrier, black, white, false))?;
            if out.verdict != Verdict::Holds {
                return None;
            }
            certs.push(out.cert.clone()?);
        }
        let game = SubGame::new(self.position.clone(), f.carrier, f.claim.clone()).ok()?;
        let refs: Vec<&crate::kernel::Certificate> = certs.iter().map(|c| c.as_ref()).collect();
        let (v, cert) = kcompose::compose_or(&game, &refs)?;
        let out = SearchOut::composed(start, "the premises'", v, Some(std::sync::Arc::new(cert)));
        self.remember(
            (f.claim.clone(), f.carrier, black, white, false),
            out.clone(),
        );
        Some(out)
    }

    /// The authoritative search of a union (`conj` false) or a conjunction.
    fn search_fact(&mut self, claim: &Claim, carrier: CellSet, conj: bool) -> SearchOut {
        let budget = self.opts.budget;
        self.search_budget(claim, carrier, &budget, conj)
    }

    /// The exact game of a conjunction ([`conj::decide_conj`]).
    fn conj_search(&mut self, claim: &Claim, carrier: CellSet, budget: &Budget) -> SearchOut {
        let skipped = |note: String| SearchOut {
            verdict: Verdict::Undecided,
            report: SearchReport {
                verdict: "skipped".into(),
                nodes: 0,
                micros: 0,
                refutation: Vec::new(),
                note: Some(note),
            },
            win: None,
            cert: None,
            dropped: false,
        };
        match conj::decide_conj(self.pos(), carrier, claim, budget) {
            Err(e) => skipped(e.to_string()),
            Ok(o) => {
                let names = self.names();
                SearchOut {
                    verdict: o.verdict,
                    report: SearchReport {
                        verdict: verdict_word(o.verdict).into(),
                        nodes: o.nodes,
                        micros: o.micros as u64,
                        refutation: o
                            .refutation
                            .iter()
                            .map(|mv| format!("{} {}", mv.colour, names.name(mv.cell)))
                            .collect(),
                        note: (o.verdict == Verdict::Undecided)
                            .then(|| "search budget exhausted".to_string()),
                    },
                    win: o.won.map(SearchWin::Game),
                    cert: None,
                    dropped: false,
                }
            }
        }
    }

    /// [`Self::search`] with an explicit budget.
    fn search_budget(
        &mut self,
        claim: &Claim,
        carrier: CellSet,
        budget: &Budget,
        conj: bool,
    ) -> SearchOut {
        let key = (
            claim.clone(),
            carrier,
            self.position.stones(crate::board::Colour::Black),
            self.position.stones(crate::board::Colour::White),
            conj,
        );
        if let Some(s) = self.cache.get(&key) {
            return s.clone();
        }
        if conj {
            let out = self.conj_search(claim, carrier, budget);
            self.remember(key, out.clone());
            return out;
        }
        let out = match SubGame::new(self.pos().clone(), carrier, claim.clone()) {
            Err(e) => SearchOut {
                verdict: Verdict::Undecided,
                report: SearchReport {
                    verdict: "skipped".into(),
                    nodes: 0,
                    micros: 0,
                    refutation: Vec::new(),
                    note: Some(e.to_string()),
                },
                win: None,
                cert: None,
                dropped: false,
            },
            Ok(game) => match decide(&game, budget) {
                Err(e) => SearchOut {
                    verdict: Verdict::Undecided,
                    report: SearchReport {
                        verdict: "skipped".into(),
                        nodes: 0,
                        micros: 0,
                        refutation: Vec::new(),
                        note: Some(e.to_string()),
                    },
                    win: None,
                    cert: None,
                    dropped: false,
                },
                Ok(o) => {
                    let names = self.names();
                    SearchOut {
                        verdict: o.verdict,
                        report: SearchReport {
                            verdict: verdict_word(o.verdict).into(),
                            nodes: o.stats.nodes,
                            micros: o.stats.micros as u64,
                            refutation: o
                                .refutation
                                .iter()
                                .map(|mv| format!("{} {}", mv.colour, names.name(mv.cell)))
                                .collect(),
                            note: match (o.verdict, &o.kernel_error) {
                                (Verdict::Undecided, Some(e)) => Some(format!(
                                    "the kernel rejected the search's certificate ({e}); please report this bug"
                                )),
                                (Verdict::Undecided, None) => Some("search budget exhausted".into()),
                                _ => None,
                            },
                        },
                        cert: o
                            .certificate
                            .filter(|_| o.verified.is_some())
                            .map(std::sync::Arc::new),
                        win: o.verified.map(SearchWin::Kernel),
                        dropped: false,
                    }
                }
            },
        };
        self.remember(key, out.clone());
        out
    }

    fn run(mut self) -> BlockReport {
        let b = self.block;
        let mut rep = BlockReport {
            kind: match b.kind {
                BlockKind::Lemma => "lemma",
                BlockKind::Derive => "derive",
                BlockKind::Strategy => "strategy",
            }
            .into(),
            name: b.name.clone(),
            title: b.title.clone(),
            at: self.at(b.span),
            verdict: StepVerdict::Verified,
            steps: Vec::new(),
            summary: None,
            library: b.lemma.as_ref().is_some_and(|l| l.library.is_some()),
        };
        for (i, s) in b.steps.iter().enumerate() {
            let r = self.step(i, s);
            rep.steps.push(r);
        }
        // A lemma proved by a tree (docs/SEMANTICS.md, "Lemma trees"): the tree's leaves must
        // reach the lemma's claim inside its carrier; a verified tree establishes the claim.
        let mut lemma_tree_summary = None;
        if let (Some(l), Some(t), BlockKind::Lemma) = (&b.lemma, &b.tree, &b.kind) {
            self.goal = Some(tree::Goal {
                claim: l.claim.claim.clone(),
                carrier: l.claim.carrier,
            });
            let mut counts = tree::TreeCounts::default();
            let mut out = Vec::new();
            let v = self.check_tree(t, "", &mut out, &mut counts);
            self.goal = None;
            // The tree's root line comes first; its basis is the tree's.
            let root_basis = out.first().and_then(|r| r.basis.clone());
            rep.steps.extend(out);
            if v == StepVerdict::Verified {
                self.known.push(Known {
                    claim: l.claim.claim.clone(),
                    conj: false,
                    carrier: l.claim.carrier,
                    status: Status::Established,
                    step: usize::MAX,
                    span: l.claim.span,
                    basis: root_basis,
                });
            }
            lemma_tree_summary = Some(tree_summary(
                "the lemma's claim by its tree",
                v,
                &counts,
                self.lemma_uses,
            ));
        }
        if let Some(l) = &b.lemma {
            let r = match (l.assumes.first(), &l.library) {
                (_, Some(lib)) => self.library_claim(&l.claim, lib),
                (Some(g), None) => self.assisted_claim(&l.claim, g),
                (None, None) => self.lemma_claim(&l.claim, l.has_proof),
            };
            rep.steps.push(r);
            for g in &l.guarantees {
                let r = self.guarantee(&l.claim, g);
                rep.steps.push(r);
            }
        }
        if let Some(sum) = lemma_tree_summary {
            rep.summary = Some(sum);
        } else if let Some(t) = &b.tree {
            let mut counts = tree::TreeCounts::default();
            let mut out = Vec::new();
            let v = self.check_strategy(t, &b.shared, &mut out, &mut counts);
            rep.steps.extend(out);
            rep.summary = Some(tree_summary(
                "Black, to move, wins",
                v,
                &counts,
                self.lemma_uses,
            ));
        } else if let Some(im) = &b.image {
            let v = self.check_image(im, &mut rep.steps);
            rep.summary = Some(format!(
                "{}: Black, to move, wins, as the image of {}",
                match v {
                    StepVerdict::Verified => "proved",
                    StepVerdict::Failed => "not proved",
                    _ => "undecided",
                },
                im.path
            ));
        } else if self.lemma_uses > 0 {
            rep.summary = Some(format!("{} lemma instance(s)", self.lemma_uses));
        }
        for (sp, what) in &b.unsupported {
            rep.steps.push(StepReport {
                at: self.at(*sp),
                label: None,
                claim: self
                    .sources
                    .snippet(self.file, *sp)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string(),
                rule: "unsupported".into(),
                rule_check: "n/a".into(),
                search: None,
                verdict: StepVerdict::Unsupported,
                basis: None,
                reasons: vec![self.reason(
                    "checker",
                    "supported construct",
                    what.clone(),
                    vec![self.place(*sp, "not checked")],
                )],
                notes: Vec::new(),
                micros: 0,
                span: *sp,
            });
        }
        rep.finish();
        rep
    }

    /// Is a premise established? `need_semi_ok`: a semi suffices (else a VC is needed).
    fn standing(&mut self, p: &Premise, semi_ok: bool) -> (Standing, Fact) {
        match p {
            Premise::Step { index, .. } => {
                let k = self
                    .known
                    .iter()
                    .find(|k| k.step == *index)
                    .expect("earlier step is known");
                let f = self.steps[*index].fact.clone();
                let st = match k.status {
                    Status::Established | Status::SearchOnly => Standing::Yes {
                        semi: k.claim.owner_first,
                        search_only: (k.status == Status::SearchOnly).then_some(k.span),
                    },
                    // Where that step is (not where its label is used).
                    s => Standing::Rests(s, *index, k.span),
                };
                (st, f)
            }
            Premise::Inline { fact, stated_first } => {
                let want_semi = stated_first.unwrap_or(semi_ok);
                let mut f = fact.clone();
                // A base fact: the ends are joined already.
                if rules::joined_now(self.pos(), fact) {
                    f.claim.owner_first = stated_first.unwrap_or(false);
                    return (
                        Standing::Yes {
                            semi: stated_first.unwrap_or(false),
                            search_only: None,
                        },
                        f,
                    );
                }
                let mine = norm_pairs(&fact.claim);
                // The most recent verified match; else a match true by search only; else one
                // that is not established.
                let mut verified: Option<&Known> = None;
                let mut search_only: Option<&Known> = None;
                let mut blocked: Option<&Known> = None;
                for k in self.known.iter().rev() {
                    // A conjunction premise needs a conjunction; a union premise is also
                    // established by the conjunction of the same pairs (it is stronger).
                    if k.claim.owner != fact.claim.owner
                        || norm_pairs(&k.claim) != mine
                        || (fact.conj && !k.conj)
                    {
                        continue;
                    }
                    let kind_ok = !k.claim.owner_first || want_semi;
                    if k.carrier.is_subset(&fact.carrier) && kind_ok {
                        match k.status {
                            Status::Established => {
                                verified = Some(k);
                                break;
                            }
                            Status::SearchOnly => {
                                search_only = search_only.or(Some(k));
                            }
                            _ => blocked = blocked.or(Some(k)),
                        }
                    }
                }
                if let Some(k) = verified.or(search_only) {
                    let semi = k.claim.owner_first;
                    f.claim.owner_first = stated_first.unwrap_or(semi);
                    return (
                        Standing::Yes {
                            semi: stated_first.unwrap_or(semi),
                            search_only: (k.status == Status::SearchOnly).then_some(k.span),
                        },
                        f,
                    );
                }
                f.claim.owner_first = want_semi;
                if let Some(k) = blocked {
                    return (Standing::Rests(k.status, k.step, k.span), f);
                }
                (Standing::No(self.not_established(&f, want_semi)), f)
            }
        }
    }

    /// Explains why an inline premise is not established, with the nearest earlier facts and
    /// the search's opinion of the premise itself.
    fn not_established(&mut self, f: &Fact, want_semi: bool) -> Reason {
        let names = self.names();
        let text = names.fact(&f.claim, &f.carrier);
        let mine = norm_pairs(&f.claim);
        let mut details = Vec::new();
        let mut places = vec![self.place(f.span, "not established")];
        // The nearest earlier fact with the same ends: fewest cells missing from the premise.
        let near = self
            .known
            .iter()
            .rev()
            .filter(|k| k.claim.owner == f.claim.owner && norm_pairs(&k.claim) == mine)
            .min_by_key(|k| (k.carrier - f.carrier).len());
        if let Some(k) = near {
            let missing = k.carrier - f.carrier;
            let line = self.at(k.span).line;
            if !missing.is_empty() && missing.len() <= 3 {
                details.push(format!(
                    "the nearest, at line {line}, has the carrier {}: this premise omits {}",
                    names.set(&k.carrier),
                    names.set(&missing)
                ));
                places.push(self.place(k.span, format!("has {} too", names.set(&missing))));
            } else if missing.is_empty() && k.claim.owner_first && !want_semi {
                details.push(format!("line {line} proves only a VSC; a VC is needed"));
                places.push(self.place(k.span, "only a VSC"));
            }
        }
        let mut claim = f.claim.clone();
        claim.owner_first = want_semi;
        let s = self.confirm_fact(&claim, f.carrier, f.conj);
        let verdict = match s.verdict {
            Verdict::Holds => {
                "it does hold (by search), but the derivation must prove it".to_string()
            }
            Verdict::Fails => {
                if s.report.refutation.is_empty() {
                    format!(
                        "by search it is false: {} cannot join its ends even holding every carrier cell",
                        f.claim.owner
                    )
                } else {
                    format!("by search it is false: {}", s.report.refutation.join(", "))
                }
            }
            Verdict::Undecided => "the search could not decide it".to_string(),
        };
        let mut msg = format!("the premise {text} is neither an earlier conclusion nor a base fact (its ends are not joined already)");
        for d in details {
            msg.push_str("; ");
            msg.push_str(&d);
        }
        msg.push_str("; ");
        msg.push_str(&verdict);
        self.reason("premise", "premise established", msg, places)
    }

    fn step(&mut self, index: usize, s: &'a Step) -> StepReport {
        STEPS_CHECKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let start = Instant::now();
        let names = self.names();
        let mut reasons: Vec<Reason> = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        let claim_text = names.fact_of(&s.fact);
        let position = self.position.clone();
        let ctx = Ctx {
            position: &position,
            names,
        };
        for v in rules::duplicates(&ctx, &s.fact, "the conclusion") {
            reasons.push(self.violation_reason("carrier", v));
        }
        // Rule-specific part: side conditions and premises.
        let (lemma_ok, lemma_checked) = self.lemma_part(s, &mut reasons, &mut notes);
        let mut part = if matches!(s.just, Just::Search | Just::Lemma(_)) {
            RulePart {
                ok: true,
                checked: lemma_checked,
                rests: None,
                dup_fail: false,
            }
        } else {
            self.premises_part(s, &ctx, &mut reasons, &mut notes)
        };
        part.ok &= lemma_ok;
        part.dup_fail = !s.fact.dups.is_empty();
        // The search on the conclusion.
        let run_search = match s.just {
            Just::Search => true,
            Just::Lemma(_) => self.opts.search_rule_steps,
            _ => self.opts.search_rule_steps,
        };
        let search = run_search.then(|| match &s.just {
            Just::Search => self.search_fact(&s.fact.claim, s.fact.carrier, s.fact.conj),
            Just::And(ps) => self
                .and_by_kernel(s, ps)
                .unwrap_or_else(|| self.confirm_fact(&s.fact.claim, s.fact.carrier, s.fact.conj)),
            Just::Or(ps) => self
                .or_by_kernel(s, ps)
                .unwrap_or_else(|| self.confirm_fact(&s.fact.claim, s.fact.carrier, s.fact.conj)),
            _ => self.confirm_fact(&s.fact.claim, s.fact.carrier, s.fact.conj),
        });
        let sv = search.as_ref().map(|x| x.verdict);
        // Verdict.
        let (verdict, basis, rule_check) = match &s.just {
            Just::Search => self.search_verdict(s, search.as_ref(), part.dup_fail, &mut reasons),
            _ => self.rule_verdict(s, search.as_ref(), part, &mut reasons, &mut notes),
        };
        // What later steps may use.
        let status = match verdict {
            StepVerdict::Verified => Status::Established,
            _ if sv == Some(Verdict::Holds) => Status::SearchOnly,
            StepVerdict::Failed => Status::Failed,
            StepVerdict::Undecided => Status::Undecided,
            StepVerdict::Unsupported => Status::Unsupported,
        };
        self.known.push(Known {
            claim: s.fact.claim.clone(),
            conj: s.fact.conj,
            carrier: s.fact.carrier,
            status,
            step: index,
            span: s.fact.span,
            basis: basis.clone(),
        });
        StepReport {
            at: self.at(s.span),
            label: s.label.clone(),
            claim: claim_text,
            rule: s.just.name().into(),
            rule_check: rule_check.into(),
            search: search.map(|x| x.report),
            verdict,
            basis,
            reasons,
            notes,
            micros: start.elapsed().as_micros() as u64,
            span: s.span,
        }
    }

    /// A step's lemma uses (`by LEMMA`, `by S, T`) and whether its rule may conclude a
    /// conjunction: whether they hold (reasons and notes added), and the placement's evidence.
    fn lemma_part(
        &mut self,
        s: &'a Step,
        reasons: &mut Vec<Reason>,
        notes: &mut Vec<String>,
    ) -> (bool, Option<RuleChecked>) {
        let mut rule_ok = true;
        let mut checked: Option<RuleChecked> = None;
        if let Just::Lemma(refs) = &s.just {
            let r = if refs.len() == 1 {
                self.lemma_use(&refs[0], &s.fact)
            } else {
                self.lemmas_use(refs, &s.fact)
            };
            match r {
                Ok((note, ev)) => {
                    notes.push(note);
                    checked = Some(ev);
                }
                Err(rs) => {
                    rule_ok = false;
                    reasons.extend(rs);
                }
            }
        }
        if s.fact.conj {
            let ok = match &s.just {
                Just::Search | Just::Mono(_) => true,
                Just::Lemma(refs) => refs.len() == 1,
                _ => false,
            };
            if !ok {
                rule_ok = false;
                reasons.push(self.reason(
                    s.just.name(),
                    "conjunction concluded",
                    format!(
                        "{} does not conclude a conjunction (`&`: every pair against one opponent); a conjunction comes from search, one conjunction lemma, or monotonicity from a conjunction",
                        if let Just::Lemma(_) = s.just { "a step naming several lemmas".to_string() } else { format!("the rule {}", s.just.name()) }
                    ),
                    vec![self.place(s.fact.span, "a conjunction")],
                ));
            }
        }
        (rule_ok, checked)
    }

    /// A rule step's premises (each established?) and the rule's side conditions on them:
    /// whether they hold (reasons and notes added), the rule's evidence, and a premise that
    /// rests on an undecided or unsupported step.
    fn premises_part(
        &mut self,
        s: &'a Step,
        ctx: &Ctx,
        reasons: &mut Vec<Reason>,
        notes: &mut Vec<String>,
    ) -> RulePart {
        let mut rule_ok = true;
        let mut checked: Option<RuleChecked> = None;
        let mut rests: Option<(Status, usize, Span)> = None;
        {
            let (premises, semi_ok): (Vec<&Premise>, Vec<bool>) = match &s.just {
                Just::And(ps) => (ps.iter().collect(), vec![false; ps.len()]),
                Just::Or(ps) => (ps.iter().collect(), vec![true; ps.len()]),
                Just::Rule1(p) | Just::Mono(p) => (vec![p], vec![true]),
                Just::Rule2(p, q) => (vec![p, q], vec![true, false]),
                _ => unreachable!(),
            };
            let roles: Vec<String> = (0..premises.len())
                .map(|i| match (premises.len(), i) {
                    (1, _) => "the premise".to_string(),
                    (_, 0) => "the first premise".to_string(),
                    (_, 1) => "the second premise".to_string(),
                    (_, 2) => "the third premise".to_string(),
                    (_, k) => format!("premise {}", k + 1),
                })
                .collect();
            let mut facts: Vec<Fact> = Vec::new();
            let mut semis: Vec<bool> = Vec::new();
            for (k, p) in premises.iter().enumerate() {
                let (st, f) = self.standing(p, semi_ok[k]);
                if let Premise::Inline { fact, .. } = p {
                    for v in rules::duplicates(ctx, fact, &roles[k]) {
                        reasons.push(self.violation_reason("premise", v));
                        rule_ok = false;
                    }
                }
                match st {
                    Standing::Yes { semi, search_only } => {
                        semis.push(semi);
                        if let Some(sp) = search_only {
                            notes.push(format!(
                                "{} is the conclusion of the step at line {}, which failed but holds by search",
                                roles[k],
                                self.at(sp).line
                            ));
                        }
                    }
                    Standing::Rests(status, step, span) => {
                        semis.push(f.claim.owner_first);
                        if status == Status::Failed {
                            rule_ok = false;
                            let line = self.at(span).line;
                            reasons.push(self.reason(
                                "premise",
                                "premise established",
                                format!(
                                    "{} rests on the step at line {line}, which failed",
                                    roles[k]
                                ),
                                vec![
                                    self.place(p.span(), "rests on a failed step"),
                                    self.place(span, "failed"),
                                ],
                            ));
                        } else if rests.is_none() {
                            rests = Some((status, step, span));
                        }
                    }
                    Standing::No(r) => {
                        semis.push(f.claim.owner_first);
                        rule_ok = false;
                        reasons.push(r);
                    }
                }
                facts.push(f);
            }
            let inputs: Vec<Input> = facts
                .iter()
                .zip(semis.iter())
                .zip(roles.iter())
                .map(|((f, s), r)| Input {
                    fact: f,
                    semi: *s,
                    role: r,
                })
                .collect();
            let which = match &s.just {
                Just::And(_) => rules::Rule::And,
                Just::Or(_) => rules::Rule::Or,
                Just::Rule1(_) => rules::Rule::Rule1,
                Just::Rule2(..) => rules::Rule::Rule2,
                Just::Mono(_) => rules::Rule::Mono,
                _ => unreachable!(),
            };
            let rule = s.just.name();
            match rules::check(which, ctx, &inputs, &s.fact) {
                Ok(ev) => checked = Some(ev),
                Err(vs) => {
                    for v in vs {
                        rule_ok = false;
                        reasons.push(self.violation_reason(rule, v));
                    }
                }
            }
        }
        RulePart {
            ok: rule_ok,
            checked,
            rests,
            dup_fail: false,
        }
    }

    /// The verdict of a `by search` step: the search holds (and the carrier has no
    /// duplicate), or why not.
    fn search_verdict(
        &mut self,
        s: &'a Step,
        search: Option<&SearchOut>,
        dup_fail: bool,
        reasons: &mut Vec<Reason>,
    ) -> (StepVerdict, Option<Basis>, &'static str) {
        let sv = search.map(|x| x.verdict);
        let won = search.and_then(|x| x.win.clone());
        let over_budget = over_budget(search);
        match (sv, won) {
            (Some(Verdict::Holds), Some(w)) if !dup_fail => {
                (StepVerdict::Verified, Some(Basis::search(w)), "n/a")
            }
            (Some(Verdict::Holds), _) => (StepVerdict::Failed, None, "n/a"),
            (Some(Verdict::Fails), _) => {
                reasons.push(self.refuted(s, search.expect("ran")));
                (StepVerdict::Failed, None, "n/a")
            }
            _ => {
                if dup_fail {
                    (StepVerdict::Failed, None, "n/a")
                } else {
                    reasons.push(self.reason(
                        "search",
                        "decided",
                        format!("the search could not decide the claim: {over_budget}"),
                        vec![self.place(s.fact.span, "undecided")],
                    ));
                    (StepVerdict::Undecided, None, "n/a")
                }
            }
        }
    }

    /// The verdict of a rule or lemma step: its side conditions and premises (`part`), with
    /// the search of its conclusion when it ran.
    fn rule_verdict(
        &mut self,
        s: &'a Step,
        search: Option<&SearchOut>,
        part: RulePart,
        reasons: &mut Vec<Reason>,
        notes: &mut Vec<String>,
    ) -> (StepVerdict, Option<Basis>, &'static str) {
        let sv = search.map(|x| x.verdict);
        let won = search.and_then(|x| x.win.clone());
        let over_budget = over_budget(search);
        let rc = if part.ok { "passed" } else { "failed" };
        // The rule's evidence exists exactly when its side conditions hold.
        match part.checked.filter(|_| part.ok && !part.dup_fail) {
            None => {
                if sv == Some(Verdict::Holds) {
                    notes.push("the conclusion itself holds by search (kernel-checked), but it does not follow by this step".into());
                } else if sv == Some(Verdict::Fails) {
                    reasons.push(self.refuted(s, search.expect("ran")));
                }
                (StepVerdict::Failed, None, rc)
            }
            Some(ev) => {
                if sv == Some(Verdict::Fails) {
                    reasons.push(self.refuted(s, search.expect("ran")));
                    reasons.push(self.reason(
                "checker",
                "consistency",
                "the rule's side conditions hold but the search refutes the conclusion; this is a bug in hexproof, please report it".into(),
                vec![self.place(s.span, "inconsistent")],
            ));
                    (StepVerdict::Failed, None, rc)
                } else if let Some((status, _, span)) = part.rests {
                    // A premise is undecided or unsupported: the rule cannot carry the step.
                    let line = self.at(span).line;
                    if let Some(w) = won {
                        notes.push(format!(
                    "a premise rests on the {} step at line {line}; the conclusion is verified by search alone",
                    if status == Status::Undecided { "undecided" } else { "unsupported" }
                ));
                        (StepVerdict::Verified, Some(Basis::search(w)), rc)
                    } else {
                        reasons.push(self.reason(
                            "premise",
                            "premise established",
                            format!(
                                "a premise rests on the {} step at line {line}",
                                if status == Status::Undecided {
                                    "undecided"
                                } else {
                                    "unsupported"
                                }
                            ),
                            vec![self.place(span, "not verified")],
                        ));
                        let v = if status == Status::Undecided {
                            StepVerdict::Undecided
                        } else {
                            StepVerdict::Unsupported
                        };
                        (v, None, rc)
                    }
                } else {
                    let searched = won.ok_or(over_budget);
                    (StepVerdict::Verified, Some(Basis::rule(ev, searched)), rc)
                }
            }
        }
    }

    /// Several lemmas in one step (`by S, T, …`): each placed with its ends on the owner's
    /// cells of the step, carriers pairwise disjoint, assumptions discharged by guarantees,
    /// and every combination of joined pairs joining a pair of the step
    /// ([`compose`]; docs/SEMANTICS.md, "Several lemmas in one step").
    fn lemmas_use(
        &mut self,
        refs: &[LemmaRef],
        concl: &Fact,
    ) -> Result<(String, RuleChecked), Vec<Reason>> {
        let options = self.lemma_placements(refs, concl)?;
        // Every combination of placements, first fit wins; else the reasons of the one with
        // the fewest violations.
        let (best, tried) = match self.first_composition(&options, concl) {
            Ok(found) => return Ok(found),
            Err(misfit) => misfit,
        };
        Err(self.composition_reasons(best, tried, concl))
    }

    /// The placements of each lemma of `refs` for the step `concl` (at most
    /// [`LEMMA_PLACEMENTS`] each), as composition parts; or why some lemma cannot be used.
    fn lemma_placements(
        &mut self,
        refs: &[LemmaRef],
        concl: &Fact,
    ) -> Result<Vec<Vec<compose::Part>>, Vec<Reason>> {
        let names = self.names();
        let own = compose::owner_cells(&self.position, &concl.claim);
        let mut options: Vec<Vec<compose::Part>> = Vec::new();
        let mut reasons = Vec::new();
        for r in refs {
            let here = vec![self.place(r.span, "does not fit")];
            let Some((lb, certified, gs)) = self.lemmas.get(&r.name) else {
                reasons.push(self.reason(
                    "lemma",
                    "lemma certified",
                    format!(
                        "the lemma `{}` is not checked before this step (a lemma must come before its use)",
                        r.name
                    ),
                    here,
                ));
                continue;
            };
            if !*certified {
                reasons.push(self.reason(
                    "lemma",
                    "lemma certified",
                    format!(
                        "the lemma `{}` is not verified, so it cannot be used",
                        r.name
                    ),
                    here,
                ));
                continue;
            }
            let info = lb.lemma.as_ref().expect("a lemma block has a claim");
            match place::place_all(
                lb,
                &info.claim,
                r,
                &self.position,
                concl,
                names,
                place::Ends::OwnerCells(&own),
                LEMMA_PLACEMENTS,
            ) {
                Err(bad) => {
                    for (cond, msg) in bad {
                        reasons.push(self.reason(
                            "lemmas",
                            cond,
                            format!("lemma {}: {msg}", r.name),
                            here.clone(),
                        ));
                    }
                }
                Ok(ps) => {
                    let board = *self.position.board();
                    let img = |t: &crate::board::Transform, c| t.apply(c, &board);
                    let parts = ps
                        .into_iter()
                        .filter_map(|p| {
                            let guarantees = gs
                                .iter()
                                .map(|&(a, b)| Some((img(&p.t, a)?, img(&p.t, b)?)))
                                .collect::<Option<Vec<_>>>()?;
                            let assumes = info
                                .assumes
                                .iter()
                                .map(|g| Some((img(&p.t, g.a)?, img(&p.t, g.b)?)))
                                .collect::<Option<Vec<_>>>()?;
                            Some(compose::Part {
                                name: format!("{} ({})", r.name, p.desc),
                                claim: p.claim,
                                carrier: p.carrier,
                                guarantees,
                                assumes,
                            })
                        })
                        .collect();
                    options.push(parts);
                }
            }
        }
        if !reasons.is_empty() {
            return Err(reasons);
        }
        Ok(options)
    }

    /// Tries the combinations of `options` (one placement per lemma, at most
    /// [`LEMMA_COMBINATIONS`]): the first that composes into `concl`, with its rule text and
    /// evidence; else the misfit with the fewest violations and how many were tried.
    fn first_composition(
        &mut self,
        options: &[Vec<compose::Part>],
        concl: &Fact,
    ) -> Result<(String, RuleChecked), (Option<compose::Misfit>, usize)> {
        let names = self.names();
        let mut best: Option<compose::Misfit> = None;
        let mut idx = vec![0usize; options.len()];
        let mut tried = 0usize;
        if options.iter().all(|o| !o.is_empty()) {
            loop {
                let parts: Vec<compose::Part> = options
                    .iter()
                    .zip(&idx)
                    .map(|(o, &i)| o[i].clone())
                    .collect();
                let bad = match compose::check_composition(
                    &self.position,
                    &parts,
                    &concl.claim,
                    concl.carrier,
                    names,
                ) {
                    Ok(ev) => {
                        self.lemma_uses += parts.len();
                        let what: Vec<String> = parts
                            .iter()
                            .map(|p| format!("{}: {}", p.name, names.fact(&p.claim, &p.carrier)))
                            .collect();
                        return Ok((format!(
                            "lemmas placed with disjoint carriers, every combination of their pairs joins the step: {}",
                            what.join("; ")
                        ), ev));
                    }
                    Err(bad) => bad,
                };
                if best.as_ref().is_none_or(|b| bad.len() < b.len()) {
                    best = Some(bad);
                }
                tried += 1;
                if tried >= LEMMA_COMBINATIONS {
                    break;
                }
                let mut k = 0;
                while k < idx.len() {
                    idx[k] += 1;
                    if idx[k] < options[k].len() {
                        break;
                    }
                    idx[k] = 0;
                    k += 1;
                }
                if k == idx.len() {
                    break;
                }
            }
        }
        Err((best, tried))
    }

    /// The reasons of a lemma step whose placements do not compose: those of the `best`
    /// misfit, and whether the combinations ran out.
    fn composition_reasons(
        &self,
        best: Option<compose::Misfit>,
        tried: usize,
        concl: &Fact,
    ) -> Vec<Reason> {
        let place_at = vec![self.place(concl.span, "does not follow")];
        let mut out: Vec<Reason> = best
            .unwrap_or_default()
            .into_iter()
            .map(|(cond, msg)| self.reason("lemmas", cond, msg, place_at.clone()))
            .collect();
        if tried >= LEMMA_COMBINATIONS {
            out.push(self.reason(
                "lemmas",
                "placements tried",
                format!("only the first {LEMMA_COMBINATIONS} combinations of placements were tried; name the placements (`under`, `at`)"),
                place_at.clone(),
            ));
        }
        if out.is_empty() {
            out.push(self.reason(
                "lemmas",
                "ends match",
                "no placement of the lemmas fits".into(),
                place_at,
            ));
        }
        out
    }

    /// A template-library lemma (`use templates`): the record's integrity
    /// ([`crate::templates::library::verify_record`]) and its stored certificate, decoded onto
    /// the lemma's own cells and re-checked by the kernel on the lemma's sub-game. No search.
    fn library_claim(&mut self, f: &Fact, lib: &crate::dsl::model::LibraryLemma) -> StepReport {
        use crate::templates::library::{decode_certificate, verify_record};
        let start = Instant::now();
        let names = self.names();
        let text = names.fact(&f.claim, &f.carrier);
        let checked = (|| -> Result<_, LibraryLemmaError> {
            verify_record(&lib.record)?;
            let game = SubGame::new(self.position.clone(), f.carrier, f.claim.clone())?;
            let cert = decode_certificate(&lib.record.certificate, &lib.carrier, &lib.stones)?;
            let accepted = crate::kernel::check(&game, &cert).map_err(LibraryLemmaError::Kernel)?;
            Ok((cert.nodes.len(), accepted))
        })();
        let (verdict, basis, reasons, notes) = match checked {
            Ok((n, accepted)) => (
                StepVerdict::Verified,
                Some(Basis::library(&accepted)),
                Vec::new(),
                vec![format!(
                    "template {} of the library: its certificate ({n} nodes) is accepted by the kernel on these cells",
                    lib.record.name
                )],
            ),
            Err(e) => (
                StepVerdict::Failed,
                None,
                vec![self.reason(
                    "template library",
                    "certificate accepted",
                    format!("the library's record {} is rejected: {e}", lib.record.name),
                    vec![self.place(f.span, "rejected")],
                )],
                Vec::new(),
            ),
        };
        StepReport {
            at: self.at(f.span),
            label: None,
            claim: text,
            rule: "lemma claim".into(),
            rule_check: "n/a".into(),
            search: None,
            verdict,
            basis,
            reasons,
            notes,
            micros: start.elapsed().as_micros() as u64,
            span: f.span,
        }
    }

    /// The claim of a lemma with an assumption, in its assisted game (src/trusted/ab.rs).
    fn assisted_claim(&mut self, f: &Fact, g: &crate::dsl::model::Guarantee) -> StepReport {
        let start = Instant::now();
        let names = self.names();
        let owner = f.claim.owner;
        let text = format!(
            "{} assuming {} {} => {owner} {}",
            names.fact(&f.claim, &f.carrier),
            owner.opponent(),
            names.name(g.a),
            names.name(g.b)
        );
        let mut reasons = Vec::new();
        let position = self.position.clone();
        let ctx = Ctx {
            position: &position,
            names,
        };
        for v in rules::duplicates(&ctx, f, "the lemma's claim") {
            reasons.push(self.violation_reason("carrier", v));
        }
        let mut basis = None;
        let verdict = match ab::won(
            ab::AbGame::Assisted,
            &self.position,
            f.carrier,
            &f.claim,
            g.a,
            g.b,
        ) {
            Some(Some(won)) if reasons.is_empty() => {
                basis = Some(Basis::game(won));
                StepVerdict::Verified
            }
            Some(Some(_)) => StepVerdict::Failed,
            Some(None) => {
                reasons.push(self.reason(
                    "assisted game",
                    "claim holds",
                    format!(
                        "{owner} cannot win {} on {} even when every {} {} is answered by {owner} {} (exact search of the assisted game)",
                        names.claim(&f.claim),
                        names.set(&f.carrier),
                        owner.opponent(),
                        names.name(g.a),
                        names.name(g.b)
                    ),
                    vec![self.place(f.span, "false")],
                ));
                StepVerdict::Failed
            }
            None => {
                reasons.push(self.reason(
                    "assisted game",
                    "decided",
                    format!(
                        "the carrier has more than {} cells, or the assisted game needs more than {} positions: not decided",
                        ab::MAX_CELLS,
                        ab::MAX_POSITIONS
                    ),
                    vec![self.place(f.span, "undecided")],
                ));
                StepVerdict::Undecided
            }
        };
        StepReport {
            at: self.at(f.span),
            label: None,
            claim: text,
            rule: "lemma claim (assisted)".into(),
            rule_check: "n/a".into(),
            search: None,
            verdict,
            basis,
            reasons,
            notes: vec![
                "usable only in a step that names a lemma guaranteeing the assumption".into(),
            ],
            micros: start.elapsed().as_micros() as u64,
            span: f.span,
        }
    }

    /// Places a certified lemma onto a step's conclusion; a note on success.
    fn lemma_use(
        &mut self,
        r: &LemmaRef,
        concl: &Fact,
    ) -> Result<(String, RuleChecked), Vec<Reason>> {
        let place_at = |me: &Self, t: &str| vec![me.place(r.span, t.to_string())];
        let Some((lb, certified, _)) = self.lemmas.get(&r.name) else {
            return Err(vec![self.reason(
                "lemma",
                "lemma certified",
                format!(
                    "the lemma `{}` is not checked before this step (a lemma must come before its use)",
                    r.name
                ),
                place_at(self, "not certified yet"),
            )]);
        };
        let (lb, certified) = (*lb, *certified);
        if !certified {
            return Err(vec![self.reason(
                "lemma",
                "lemma certified",
                format!(
                    "the lemma `{}` is not verified, so it cannot be used",
                    r.name
                ),
                place_at(self, "not certified"),
            )]);
        }
        let info = lb.lemma.as_ref().expect("a lemma block has a claim");
        if let Some(g) = info.assumes.first() {
            let ln = &lb.names;
            return Err(vec![self.reason(
                "lemma",
                "assumption discharged",
                format!(
                    "the lemma `{}` assumes {} {} => {} {}: it holds only together with a lemma that guarantees this, named in the same step (`by {}, OTHER`)",
                    r.name,
                    info.claim.claim.owner.opponent(),
                    ln.name(g.a),
                    info.claim.claim.owner,
                    ln.name(g.b),
                    r.name
                ),
                place_at(self, "assumption not discharged"),
            )]);
        }
        let lf = &info.claim;
        let names = self.names();
        match place::place(lb, lf, r, &self.position, concl, names) {
            Ok((p, ev)) => {
                self.lemma_uses += 1;
                let mut text = names.fact(&p.claim, &p.carrier);
                if lf.conj {
                    text = text.replace(" | ", " & ");
                }
                Ok((format!("lemma {} placed {}: {text}", r.name, p.desc), ev))
            }
            Err(bad) => Err(bad
                .into_iter()
                .map(|(cond, msg)| {
                    self.reason(
                        "lemma",
                        cond,
                        format!("lemma {}: {msg}", r.name),
                        place_at(self, "does not fit"),
                    )
                })
                .collect()),
        }
    }

    /// A lemma's AB guarantee, by exact minimax (src/trusted/ab.rs).
    fn guarantee(&mut self, f: &Fact, g: &crate::dsl::model::Guarantee) -> StepReport {
        let start = Instant::now();
        let mut notes: Vec<String> = Vec::new();
        let names = self.names();
        let (a, b) = (names.name(g.a), names.name(g.b));
        let owner = f.claim.owner;
        let text = format!(
            "{}: {} {a} => {owner} {b}",
            names.fact(&f.claim, &f.carrier),
            owner.opponent()
        );
        let mut reasons = Vec::new();
        let mut basis = None;
        let verdict = if f.claim.owner_first {
            reasons.push(self.reason(
                "AB guarantee",
                "supported construct",
                "a guarantee on a semi-connection (owner first) is not checked".into(),
                vec![self.place(g.span, "not checked")],
            ));
            StepVerdict::Unsupported
        } else {
            match ab::won(
                ab::AbGame::Guarantee,
                &self.position,
                f.carrier,
                &f.claim,
                g.a,
                g.b,
            ) {
                Some(Some(won)) => {
                    basis = Some(Basis::game(won));
                    match ab::interface_holds(&self.position, f.carrier, &f.claim, g.a, g.b) {
                        Some(true) => notes.push(format!(
                            "{INTERFACE_NOTE}: after {} {b}, {} {a} needs no answer here (exact search)",
                            owner.opponent(),
                            owner.opponent()
                        )),
                        Some(false) => notes.push(format!(
                            "not usable across two areas: after {} {b}, {} {a} still needs an answer here",
                            owner.opponent(),
                            owner.opponent()
                        )),
                        None => notes.push(format!(
                            "use across two areas not decided (over {} positions): treat it as not usable",
                            ab::MAX_POSITIONS
                        )),
                    }
                    StepVerdict::Verified
                }
                Some(None) => {
                    reasons.push(self.reason(
                    "AB guarantee",
                    "guarantee holds",
                    format!(
                        "{owner} has no strategy that wins {} and answers {}'s {a} with {b} (exact search)",
                        names.claim(&f.claim),
                        owner.opponent()
                    ),
                    vec![self.place(g.span, "does not hold")],
                ));
                    StepVerdict::Failed
                }
                None => {
                    reasons.push(self.reason(
                        "AB guarantee",
                        "decided",
                        format!(
                            "the carrier has more than {} cells, or the guarantee game needs more than {} positions: not decided",
                            ab::MAX_CELLS,
                            ab::MAX_POSITIONS
                        ),
                        vec![self.place(g.span, "undecided")],
                    ));
                    StepVerdict::Undecided
                }
            }
        };
        StepReport {
            at: self.at(g.span),
            label: None,
            claim: text,
            rule: "AB guarantee".into(),
            rule_check: "n/a".into(),
            search: None,
            verdict,
            basis,
            reasons,
            notes,
            micros: start.elapsed().as_micros() as u64,
            span: g.span,
        }
    }

    fn refuted(&self, s: &Step, out: &SearchOut) -> Reason {
        self.refuted_fact(&s.fact, out)
    }

    /// A lemma's own claim: by search, and (with a proof) established by its steps.
    fn lemma_claim(&mut self, f: &Fact, has_proof: bool) -> StepReport {
        let start = Instant::now();
        let names = self.names();
        let text = names.fact_of(f);
        let mut reasons = Vec::new();
        let mut notes = Vec::new();
        let position = self.position.clone();
        let ctx = Ctx {
            position: &position,
            names,
        };
        for v in rules::duplicates(&ctx, f, "the lemma's claim") {
            reasons.push(self.violation_reason("carrier", v));
        }
        // A lemma proved by search rests on this search; one proved by steps is confirmed.
        let search = if has_proof {
            self.confirm_fact(&f.claim, f.carrier, f.conj)
        } else {
            self.search_fact(&f.claim, f.carrier, f.conj)
        };
        let (verdict, basis, rule, rule_check) = if !has_proof {
            self.lemma_by_search(f, &search, &mut reasons)
        } else {
            let proved = self.lemma_proof_step(f, &text, &mut reasons);
            self.lemma_by_proof(f, &search, proved, &mut reasons, &mut notes)
        };
        StepReport {
            at: self.at(f.span),
            label: None,
            claim: text,
            rule: if rule == "search" {
                "lemma claim".into()
            } else {
                "lemma proof".into()
            },
            rule_check: rule_check.into(),
            search: Some(search.report),
            verdict,
            basis,
            reasons,
            notes,
            micros: start.elapsed().as_micros() as u64,
            span: f.span,
        }
    }

    /// A lemma proved by search: the verdict, basis, rule and rule check of its claim.
    fn lemma_by_search(
        &mut self,
        f: &Fact,
        search: &SearchOut,
        reasons: &mut Vec<Reason>,
    ) -> (StepVerdict, Option<Basis>, &'static str, &'static str) {
        let sv = search.verdict;
        match (sv, search.win.clone()) {
            (Verdict::Holds, Some(w)) if reasons.is_empty() => (
                StepVerdict::Verified,
                Some(Basis::search(w)),
                "search",
                "n/a",
            ),
            (Verdict::Holds, _) => (StepVerdict::Failed, None, "search", "n/a"),
            (Verdict::Fails, _) => {
                reasons.push(self.refuted_fact(f, search));
                (StepVerdict::Failed, None, "search", "n/a")
            }
            (Verdict::Undecided, _) => {
                let why = search.report.note.clone().unwrap_or_default();
                reasons.push(self.reason(
                    "search",
                    "decided",
                    format!("the search could not decide the lemma: {why}"),
                    vec![self.place(f.span, "undecided")],
                ));
                (StepVerdict::Undecided, None, "search", "n/a")
            }
        }
    }

    /// The basis of the proof's step that concludes the lemma's claim `f` (`text`), or `None`
    /// with the reason: no step concludes it, or that step is not verified.
    fn lemma_proof_step(
        &mut self,
        f: &Fact,
        text: &str,
        reasons: &mut Vec<Reason>,
    ) -> Option<Basis> {
        // Established by the proof's steps?
        let mine = norm_pairs(&f.claim);
        let hit = self.known.iter().rev().find(|k| {
            k.claim.owner == f.claim.owner
                && norm_pairs(&k.claim) == mine
                && k.carrier.is_subset(&f.carrier)
                && (!k.claim.owner_first || f.claim.owner_first)
        });
        match hit {
            Some(k) if k.status == Status::Established => k.basis.clone(),
            Some(k) => {
                let line = self.at(k.span).line;
                reasons.push(self.reason(
                    "proof",
                    "claim derived",
                    format!(
                        "the proof reaches the claim at line {line}, but that step {}",
                        match k.status {
                            Status::SearchOnly => "failed (its conclusion holds by search only)",
                            Status::Failed => "failed",
                            Status::Undecided => "is undecided",
                            _ => "is not checked",
                        }
                    ),
                    vec![
                        self.place(k.span, "not verified"),
                        self.place(f.span, "the claim"),
                    ],
                ));
                None
            }
            None => {
                reasons.push(self.reason(
                    "proof",
                    "claim derived",
                    format!("no step of the proof concludes {text} (or the same pairs on a smaller carrier)"),
                    vec![self.place(f.span, "not derived")],
                ));
                None
            }
        }
    }

    /// A lemma proved by steps: the verdict, basis, rule and rule check of its claim from the
    /// basis of its concluding step (`proved`) and the confirming search.
    fn lemma_by_proof(
        &mut self,
        f: &Fact,
        search: &SearchOut,
        proved: Option<Basis>,
        reasons: &mut Vec<Reason>,
        notes: &mut Vec<String>,
    ) -> (StepVerdict, Option<Basis>, &'static str, &'static str) {
        let sv = search.verdict;
        match (proved.filter(|_| reasons.is_empty()), sv) {
            (Some(step), Verdict::Holds) => (
                StepVerdict::Verified,
                Some(Basis::proof(&step, search.searched())),
                "proof",
                "passed",
            ),
            (Some(step), Verdict::Undecided) => {
                notes.push(
                    "the search could not decide the lemma; it rests on its proof alone".into(),
                );
                (
                    StepVerdict::Verified,
                    Some(Basis::proof(&step, Err(Unsearched::Undecided))),
                    "proof",
                    "passed",
                )
            }
            (Some(_), Verdict::Fails) => {
                reasons.push(self.refuted_fact(f, search));
                reasons.push(self.reason("checker", "consistency", "the proof checks but the search refutes the claim; this is a bug in hexproof, please report it".into(), vec![self.place(f.span, "inconsistent")]));
                (StepVerdict::Failed, None, "proof", "passed")
            }
            (None, v) => {
                if v == Verdict::Fails {
                    reasons.push(self.refuted_fact(f, search));
                } else if v == Verdict::Holds {
                    notes.push(
                        "the claim itself holds by search, but the proof does not establish it"
                            .into(),
                    );
                }
                (StepVerdict::Failed, None, "proof", "failed")
            }
        }
    }

    fn refuted_fact(&self, f: &Fact, out: &SearchOut) -> Reason {
        let opp = f.claim.owner.opponent();
        let msg = if out.report.refutation.is_empty() {
            format!("the claim is false: {opp} wins without moving — no pair can be joined inside the carrier")
        } else {
            format!(
                "the claim is false: {opp}'s refuting line is {}",
                out.report.refutation.join(", ")
            )
        };
        self.reason(
            "search",
            "claim holds",
            msg,
            vec![self.place(f.span, "false")],
        )
    }
}

/// The goal as a sorted set of unordered pairs.
fn norm_pairs(c: &Claim) -> Vec<(crate::board::Cell, crate::board::Cell)> {
    let mut v: Vec<_> = c
        .pairs
        .iter()
        .map(|&(a, b)| if a <= b { (a, b) } else { (b, a) })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The one-line summary of a checked tree: what it shows, and its size.
fn tree_summary(what: &str, v: StepVerdict, c: &tree::TreeCounts, lemma_uses: usize) -> String {
    format!(
        "{}: {what} ({} black node(s), {} white node(s), {} precluding analyses, {} case(s), {} leaves, {} lemma instance(s))",
        if v == StepVerdict::Verified { "proved" } else { "not proved" },
        c.black_nodes,
        c.white_nodes,
        c.precludes,
        c.cases,
        c.leaves,
        lemma_uses
    ) + &if c.shared + c.gotos > 0 {
        // Shared positions (docs/SEMANTICS.md, "Shared positions"), each counted once.
        format!(
            "; {} shared position(s), {} goto(s)",
            c.shared, c.gotos
        )
    } else {
        String::new()
    }
}

/// The word a search report uses for a verdict.
fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Fails => "fails",
        Verdict::Undecided => "undecided",
    }
}
