//! A checked proof file as a list of pictures: one item per lemma, per derivation and per
//! proof-tree node (each Black move with what follows it, each precluding analysis), each with
//! its board figure ([`crate::render::svg::Figure`]) and the checker's verdict for it.
//!
//! The data come from the elaborated program (`crate::dsl::model`: positions, carriers, marked
//! cells) and the checker's report (`crate::check::report`: verdicts, rules, search nodes and
//! times); a report line is matched to its model node by the node's source span and rule. A
//! tree node's picture follows Noshita's figures (ICGA J. 28(1), 2005, §3, Figs. 11–29): the
//! position after White's case move (ringed) and Black's reply (ringed), with the carrier of
//! the leaf's winning connection shaded, or White's moves that survive the precluding
//! analyses dotted; a precluding analysis shows its fictitious Black stone dashed and the
//! carrier of the connection it derives.

use crate::board::{Border, Cell, CellSet, Colour};
use crate::check::report::{FileReport, Report, StepReport, StepVerdict};
use crate::dsl::ast::Span;
use crate::dsl::model::{
    Block, BlockKind, Case, CellNames, Program, SharedPosition, Step, TreeNode,
};
use crate::position::Position;
use crate::render::svg::Figure;
use serde::Serialize;

/// One derivation step as a row of an item's table.
#[derive(Clone, Debug, Serialize)]
pub struct StepRow {
    /// Source line.
    pub line: usize,
    /// The verdict.
    pub verdict: StepVerdict,
    /// The rule.
    pub rule: String,
    /// The conclusion.
    pub claim: String,
    /// Search figures and remarks, one line.
    pub detail: String,
}

/// One picture with its verdict.
#[derive(Clone, Debug, Serialize)]
pub struct Item {
    /// Unique name (`--item`): a lemma's or derivation's name; for a tree node the strategy's
    /// name and the White moves leading to it, e.g. `corner/c2`, `corner/preclude-c3`.
    pub id: String,
    /// `lemma`, `derive`, `black move` or `preclude`.
    pub kind: String,
    /// What the picture shows, e.g. `white c2 → black d2`.
    pub heading: String,
    /// Source line.
    pub line: usize,
    /// Depth in its proof tree (0 for lemmas and derivations).
    pub depth: usize,
    /// The checker's verdict for the item.
    pub verdict: StepVerdict,
    /// The rule (or kind of node) the verdict is about.
    pub rule: String,
    /// What is proved.
    pub claim: String,
    /// What the verdict rests on (`search`, `rule and search`, `tree and search`, …).
    pub basis: String,
    /// Search nodes spent on the item (its searches and its steps').
    pub nodes: u64,
    /// Checking time, microseconds.
    pub micros: u64,
    /// Remarks.
    pub notes: Vec<String>,
    /// Why it is not verified.
    pub reasons: Vec<String>,
    /// Its derivation steps.
    pub steps: Vec<StepRow>,
    /// The figure (not in `--json`).
    #[serde(skip)]
    pub svg: String,
}

/// A lemma, derivation or strategy and its items.
#[derive(Clone, Debug, Serialize)]
pub struct Section {
    /// `lemma`, `derive` or `strategy`.
    pub kind: String,
    /// Its name.
    pub name: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// Source line.
    pub line: usize,
    /// The block's verdict.
    pub verdict: StepVerdict,
    /// The checker's summary (a strategy's node counts).
    pub summary: Option<String>,
    /// Its pictures.
    pub items: Vec<Item>,
}

/// One checked file.
#[derive(Clone, Debug, Serialize)]
pub struct FilePart {
    /// The path.
    pub file: String,
    /// Board size.
    pub board: Option<String>,
    /// Its blocks.
    pub sections: Vec<Section>,
    /// Step counts: all, verified, failed, undecided, unsupported.
    pub counts: crate::check::report::Counts,
}

/// A whole rendered proof.
#[derive(Clone, Debug, Serialize)]
pub struct Proof {
    /// Per file: the file given first, then the files it `use`s.
    pub files: Vec<FilePart>,
    /// The checker's exit code (0 all verified, 1 a step fails, 3 undecided/unsupported).
    pub exit_code: u8,
}

impl Proof {
    /// Every item, in page order.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.files
            .iter()
            .flat_map(|f| f.sections.iter().flat_map(|s| s.items.iter()))
    }
}

/// Builds the pictures of a program checked into `report` (from
/// [`crate::check::check_program`], whose files are the program's modules in order).
pub fn build(program: &Program, report: &Report) -> Proof {
    let mut ids: Vec<String> = Vec::new();
    let mut files = Vec::new();
    for (m, fr) in program.modules.iter().zip(&report.files) {
        let mut sections = Vec::new();
        for (b, br) in m.blocks.iter().zip(&fr.blocks) {
            let mut cx = Ctx {
                block: b,
                line: br.at.line,
                steps: &br.steps,
                items: Vec::new(),
                ids: &mut ids,
            };
            cx.block_items(b);
            sections.push(Section {
                kind: br.kind.clone(),
                name: br.name.clone(),
                title: br.title.clone(),
                line: br.at.line,
                verdict: br.verdict,
                summary: br.summary.clone(),
                items: cx.items,
            });
        }
        files.push(file_part(fr, sections));
    }
    // The file given comes last in the program (after the files it uses); show it first.
    if let Some(root) = files.pop() {
        files.insert(0, root);
    }
    Proof {
        files,
        exit_code: report.exit_code,
    }
}

fn file_part(fr: &FileReport, sections: Vec<Section>) -> FilePart {
    FilePart {
        file: fr.file.clone(),
        board: fr.board.clone(),
        sections,
        counts: fr.counts,
    }
}

const NODE_RULES: [&str; 4] = ["black move", "white node", "leaf", "preclude"];

struct Ctx<'a, 'i> {
    block: &'a Block,
    /// The block's first line (names unnamed blocks).
    line: usize,
    steps: &'a [StepReport],
    items: Vec<Item>,
    ids: &'i mut Vec<String>,
}

/// The one-line summary of a step's search, as in the text report.
fn detail(s: &StepReport) -> String {
    let mut parts = Vec::new();
    if let Some(r) = &s.search {
        if r.verdict == "skipped" {
            parts.push("search skipped".to_string());
        } else {
            parts.push(format!(
                "search {}: {}, {:.1} ms",
                r.verdict,
                nodes(r.nodes),
                r.micros as f64 / 1000.0
            ));
        }
        if let Some(n) = &r.note {
            parts.push(n.clone());
        }
    }
    if let Some(b) = &s.basis {
        parts.push(format!("basis: {b}"));
    }
    parts.join(" · ")
}

fn nodes(n: u64) -> String {
    if n == 1 {
        "1 node".into()
    } else {
        format!("{n} nodes")
    }
}

/// A move's cell for headings: `d1`, or `d1 (x)` when the file names it.
fn move_name(names: &CellNames, c: Cell) -> String {
    let plain = names.board.cell_name(c, names.notation);
    let n = names.name(c);
    if n == plain {
        n
    } else {
        format!("{plain} ({n})")
    }
}

fn reasons(s: &StepReport) -> Vec<String> {
    s.reasons
        .iter()
        .map(|r| format!("{} [{}]: {}", r.rule, r.condition, r.message))
        .collect()
}

fn row(s: &StepReport) -> StepRow {
    StepRow {
        line: s.at.line,
        verdict: s.verdict,
        rule: s.rule.clone(),
        claim: s.claim.clone(),
        detail: detail(s),
    }
}

fn search_nodes(s: &StepReport) -> u64 {
    s.search.as_ref().map_or(0, |r| r.nodes)
}

/// Is this Black's `t - b` with White to move (a winning connection)?
fn is_win(step: &Step) -> bool {
    let (t, b) = (Cell::border(Border::Top), Cell::border(Border::Bottom));
    let c = &step.fact.claim;
    c.owner == Colour::Black
        && !c.owner_first
        && !c.pairs.is_empty()
        && c.pairs.iter().all(|&p| p == (t, b) || p == (b, t))
}

/// Cells with a declared name (`x`, `A`, `16`) on the board, with that name.
fn named_cells(names: &CellNames, pos: &Position) -> Vec<(Cell, String)> {
    let mut v: Vec<(Cell, String)> = names
        .map
        .iter()
        .filter(|(c, n)| {
            !c.is_border()
                && pos.board().contains(**c)
                && **n != names.board.cell_name(**c, names.notation)
        })
        .map(|(c, n)| (*c, n.clone()))
        .collect();
    v.sort();
    v
}

impl<'a, 'i> Ctx<'a, 'i> {
    fn report(&self, span: Span, rule: &str) -> Option<&'a StepReport> {
        self.steps.iter().find(|s| s.span == span && s.rule == rule)
    }

    fn step_report(&self, step: &Step) -> Option<&'a StepReport> {
        self.steps
            .iter()
            .find(|s| s.span == step.span && !NODE_RULES.contains(&s.rule.as_str()))
    }

    fn unique(&mut self, id: String) -> String {
        let mut u = id.clone();
        let mut k = 2;
        while self.ids.contains(&u) {
            u = format!("{id}-{k}");
            k += 1;
        }
        self.ids.push(u.clone());
        u
    }

    fn base_name(&self) -> String {
        let b = self.block;
        b.name.clone().unwrap_or_else(|| {
            let kind = match b.kind {
                BlockKind::Lemma => "lemma",
                BlockKind::Derive => "derive",
                BlockKind::Strategy => "strategy",
            };
            format!("{kind}-{}", self.line)
        })
    }

    /// The carrier of the winning connection a list of steps establishes: the last verified
    /// Black `t - b`, else the last attempted one (as the checker picks it), and whether it is
    /// verified.
    /// In a lemma tree (docs/SEMANTICS.md, "Lemma trees") the winning step is a Black VC or
    /// union in the lemma's carrier that joins the claim's ends; the drawing takes the last
    /// such step.
    fn win_carrier(&self, steps: &[Step]) -> Option<(CellSet, bool)> {
        let lemma = match (&self.block.kind, &self.block.lemma) {
            (BlockKind::Lemma, Some(l)) => Some(l.claim.carrier),
            _ => None,
        };
        let wins: Vec<&Step> = steps
            .iter()
            .filter(|s| match lemma {
                Some(c) => {
                    let cl = &s.fact.claim;
                    cl.owner == Colour::Black
                        && !cl.owner_first
                        && !s.fact.conj
                        && !cl.pairs.is_empty()
                        && s.fact.carrier.is_subset(&c)
                }
                None => is_win(s),
            })
            .collect();
        let ok = |s: &&Step| {
            self.step_report(s)
                .is_some_and(|r| r.verdict == StepVerdict::Verified)
        };
        if let Some(s) = wins.iter().rev().find(|s| ok(s)) {
            return Some((s.fact.carrier, true));
        }
        wins.last().map(|s| (s.fact.carrier, false))
    }

    fn empty_item(&self, id: String, kind: &str, heading: String, line: usize) -> Item {
        Item {
            id,
            kind: kind.into(),
            heading,
            line,
            depth: 0,
            verdict: StepVerdict::Unsupported,
            rule: String::new(),
            claim: String::new(),
            basis: String::new(),
            nodes: 0,
            micros: 0,
            notes: Vec::new(),
            reasons: Vec::new(),
            steps: Vec::new(),
            svg: String::new(),
        }
    }

    fn block_items(&mut self, b: &'a Block) {
        let names = &b.names;
        match b.kind {
            BlockKind::Lemma => {
                let id = self.unique(self.base_name());
                let line = self.line;
                let heading = match &b.title {
                    Some(t) => format!("lemma {} — {t}", self.base_name()),
                    None => format!("lemma {}", self.base_name()),
                };
                let mut it = self.empty_item(id, "lemma", heading, line);
                let claim = self
                    .steps
                    .iter()
                    .rev()
                    .find(|s| s.rule == "lemma claim" || s.rule == "lemma proof");
                if let Some(c) = claim {
                    it.verdict = c.verdict;
                    it.rule = c.rule.clone();
                    it.claim = c.claim.clone();
                    it.basis = c.basis_text();
                    it.notes = c.notes.clone();
                    it.reasons = reasons(c);
                    it.line = c.at.line;
                }
                it.nodes = self.steps.iter().map(search_nodes).sum();
                it.micros = self.steps.iter().map(|s| s.micros).sum();
                it.steps = self.steps.iter().map(row).collect();
                let mut f = Figure::new(&b.position, names.notation);
                f.labels = named_cells(names, &b.position);
                if let Some(l) = &b.lemma {
                    f.carrier = l.claim.carrier;
                    add_endpoint_labels(&mut f, names, &l.claim.claim);
                    f.caption
                        .push(format!("claim: {}", names.claim(&l.claim.claim)));
                }
                // A lemma proved by a tree (docs/SEMANTICS.md, "Lemma trees"): its root White
                // node is drawn on the lemma's figure (White's moves left by the precluding
                // analyses dotted), its cases and analyses as items below it.
                if let Some(t @ TreeNode::White { .. }) = &b.tree {
                    let survivors = self.survivors(t);
                    f.dots = survivors;
                    f.caption.push(format!(
                        "proved by a tree; dots: White's {} move(s) with a case",
                        survivors.len()
                    ));
                }
                f.title = it.heading.clone();
                it.svg = f.svg();
                self.items.push(it);
                if let Some(t @ TreeNode::White { .. }) = &b.tree {
                    let base = self.base_name();
                    self.white_items(t, &base, 0);
                }
            }
            BlockKind::Derive => {
                let id = self.unique(self.base_name());
                let line = self.line;
                let heading = match &b.title {
                    Some(t) => format!("derivation {} — {t}", self.base_name()),
                    None => format!("derivation {}", self.base_name()),
                };
                let mut it = self.empty_item(id, "derive", heading, line);
                it.verdict = self
                    .steps
                    .iter()
                    .map(|s| s.verdict)
                    .max()
                    .unwrap_or(StepVerdict::Verified);
                it.rule = format!("derivation ({} steps)", self.steps.len());
                if let Some(last) = self.steps.last() {
                    it.claim = last.claim.clone();
                    it.basis = last.basis_text();
                }
                it.reasons = self.steps.iter().flat_map(reasons).collect();
                it.nodes = self.steps.iter().map(search_nodes).sum();
                it.micros = self.steps.iter().map(|s| s.micros).sum();
                it.steps = self.steps.iter().map(row).collect();
                let mut f = Figure::new(&b.position, names.notation);
                f.labels = named_cells(names, &b.position);
                if let Some(last) = b.steps.last() {
                    f.carrier = last.fact.carrier;
                    add_endpoint_labels(&mut f, names, &last.fact.claim);
                    f.caption.push(format!(
                        "last step: {}",
                        names.fact(&last.fact.claim, &last.fact.carrier)
                    ));
                }
                f.title = it.heading.clone();
                it.svg = f.svg();
                self.items.push(it);
            }
            BlockKind::Strategy => {
                let base = self.base_name();
                if let Some(t) = &b.tree {
                    self.tree_items(t, &base, None, 0);
                }
                for (i, sh) in b.shared.iter().enumerate() {
                    self.shared_items(i, sh, &base);
                }
            }
        }
    }

    /// Items of a tree node: a Black move (with the node after it) and the precluding
    /// analyses and cases below it, depth first. `case` is the White case leading here.
    fn tree_items(&mut self, node: &'a TreeNode, path: &str, case: Option<&Case>, depth: usize) {
        let b = self.block;
        let names = &b.names;
        let TreeNode::Black {
            cell,
            position,
            span,
            next,
        } = node
        else {
            return;
        };
        let white = case.map(|c| c.white);
        let star = if case.is_some_and(|c| c.rest) {
            " | *"
        } else {
            ""
        };
        let id = self.unique(path.to_string());
        let heading = match white {
            Some(w) => format!(
                "white {}{star} → black {}",
                move_name(names, w),
                move_name(names, *cell)
            ),
            None => format!("black {}", move_name(names, *cell)),
        };
        let br = self.report(*span, "black move");
        let mut it = self.empty_item(id, "black move", heading, br.map_or(0, |r| r.at.line));
        it.depth = depth;
        it.rule = "black move".into();
        if let Some(r) = br {
            it.verdict = r.verdict;
            it.micros = r.micros;
            it.reasons = reasons(r);
        }
        let mut after = position.clone();
        let _ = after.play(Colour::Black, *cell);
        let mut f = Figure::new(&after, names.notation);
        f.labels = named_cells(names, &after);
        f.rings.insert(*cell);
        if let Some(w) = white {
            f.rings.insert(w);
        }
        let (next_span, next_rule) = match next.as_ref() {
            TreeNode::Leaf { span, .. } => (*span, "leaf"),
            TreeNode::White { span, .. } => (*span, "white node"),
            TreeNode::Black { span, .. } => (*span, "black move"),
            TreeNode::Goto { span, .. } => (*span, "goto"),
        };
        if let Some(r) = self.report(next_span, next_rule) {
            it.claim = r.claim.clone();
            it.basis = r.basis_text();
            it.nodes += search_nodes(r);
            it.notes.extend(r.notes.iter().cloned());
            it.reasons.extend(reasons(r));
            if let Some(s) = &r.search {
                it.notes.push(format!(
                    "whole-position search: {} ({}, {:.1} ms)",
                    s.verdict,
                    nodes(s.nodes),
                    s.micros as f64 / 1000.0
                ));
            }
        }
        self.draw_next(&mut f, &mut it, next);
        if let Some(c) = case.filter(|c| c.rest) {
            let k = self.proof_set(&c.reply, 0);
            f.caption.push(format!(
                "| *: black {} also answers every White move outside its proof set ({} cells)",
                move_name(names, *cell),
                k.len()
            ));
        }
        if let Some(w) = white {
            f.caption.insert(
                0,
                format!(
                    "rings: white {} and black {}",
                    move_name(names, w),
                    move_name(names, *cell)
                ),
            );
        } else {
            f.caption
                .insert(0, format!("ring: black {}", move_name(names, *cell)));
        }
        f.title = it.heading.clone();
        it.svg = f.svg();
        self.items.push(it);
        if let TreeNode::White { .. } = next.as_ref() {
            self.white_items(next, path, depth);
        }
    }

    /// What a figure shows of the White-to-move node `next`: a leaf's winning carrier shaded,
    /// a White node's surviving moves dotted, a `goto`'s shared position named.
    fn draw_next(&self, f: &mut Figure, it: &mut Item, next: &'a TreeNode) {
        let names = &self.block.names;
        match next {
            TreeNode::Leaf { steps, .. } => {
                for s in steps {
                    if let Some(r) = self.step_report(s) {
                        it.nodes += search_nodes(r);
                        it.steps.push(row(r));
                    }
                }
                if let Some((c, ok)) = self.win_carrier(steps) {
                    f.carrier = c;
                    f.caption.push(format!(
                        "shaded: carrier of {} ({} cells){}",
                        self.goal_name(),
                        c.len(),
                        if ok { "" } else { ", not verified" }
                    ));
                }
            }
            TreeNode::White { .. } => {
                let survivors = self.survivors(next);
                f.dots = survivors;
                f.caption.push(format!(
                    "dots: White's {} move(s) left by the precluding analyses",
                    survivors.len()
                ));
            }
            TreeNode::Goto {
                target, rotated, ..
            } => {
                if let Some(sh) = self.block.shared.get(*target) {
                    let line = self.report(sh.head, "shared position").map(|r| r.at.line);
                    f.caption.push(format!(
                        "then: the shared position {}{}{}",
                        sh.name,
                        if *rotated { " turned by 180°" } else { "" },
                        line.map_or(String::new(), |l| format!(" (line {l})"))
                    ));
                    let _ = names;
                }
            }
            TreeNode::Black { .. } => {}
        }
    }

    /// `t - b` in a strategy; the lemma's claim in a lemma tree.
    fn goal_name(&self) -> &'static str {
        if self.block.kind == BlockKind::Lemma {
            "the claim"
        } else {
            "t - b"
        }
    }

    /// White's moves at a White node that have a case: the empty cells (of the lemma's
    /// carrier, in a lemma tree) outside every verified precluding analysis's carrier and
    /// fictitious move and outside every `| *` case's proof set, as the checker computes them.
    fn survivors(&self, node: &'a TreeNode) -> CellSet {
        let TreeNode::White {
            position,
            precludes,
            cases,
            ..
        } = node
        else {
            return CellSet::EMPTY;
        };
        let mut survivors = self.empty_here(position);
        for p in precludes {
            if let Some((c, true)) = self.win_carrier(&p.steps) {
                let mut keep = c;
                keep.insert(p.z);
                survivors &= keep;
            }
        }
        for c in cases.iter().filter(|c| c.rest) {
            survivors &= self.proof_set(&c.reply, 0) | CellSet::single(c.white);
        }
        survivors
    }

    /// The empty cells White may play at a node: of the lemma's carrier in a lemma tree.
    fn empty_here(&self, position: &crate::position::Position) -> CellSet {
        let empty = position.empty_cells();
        match (&self.block.kind, &self.block.lemma) {
            (BlockKind::Lemma, Some(l)) => empty & l.claim.carrier,
            _ => empty,
        }
    }

    /// The proof set of a verified subtree (the cells its proof depends on), as the checker
    /// computes it for `| *` cases (src/check/tree.rs, `check_subtree`); a node the report
    /// does not show verified counts as all its empty cells.
    fn proof_set(&self, node: &'a TreeNode, depth: usize) -> CellSet {
        let ok = |span: Span, rule: &str| {
            self.report(span, rule)
                .is_some_and(|r| r.verdict == StepVerdict::Verified)
        };
        match node {
            TreeNode::Black {
                cell,
                span,
                next,
                position,
            } => {
                let k = if ok(*span, "black move") {
                    self.proof_set(next, depth + 1)
                } else {
                    position.empty_cells()
                };
                k | CellSet::single(*cell)
            }
            TreeNode::Leaf {
                position, steps, ..
            } => match self.win_carrier(steps) {
                Some((c, true)) => c & position.empty_cells(),
                _ => position.empty_cells(),
            },
            TreeNode::White {
                position,
                span,
                precludes,
                cases,
            } => {
                let empty = self.empty_here(position);
                if !ok(*span, "white node") {
                    return position.empty_cells();
                }
                let mut k = CellSet::EMPTY;
                for p in precludes {
                    match self.win_carrier(&p.steps) {
                        Some((c, true)) => {
                            let mut keep = c;
                            keep.insert(p.z);
                            k |= keep & empty;
                        }
                        _ => k = empty,
                    }
                }
                for c in cases {
                    k |= self.proof_set(&c.reply, depth + 1) & empty;
                }
                k
            }
            TreeNode::Goto {
                target,
                rotated,
                position,
                span,
            } => {
                let empty = position.empty_cells();
                match self.block.shared.get(*target) {
                    // Depth-limited: shared positions refer to each other acyclically.
                    Some(sh) if ok(*span, "goto") && depth < 10_000 => {
                        let k = self.proof_set(&sh.tree, depth + 1);
                        let k = if *rotated {
                            k.rotated180(position.board())
                        } else {
                            k
                        };
                        k & empty
                    }
                    _ => empty,
                }
            }
        }
    }

    /// The items of a White node's precluding analyses and cases (`path` names the node).
    fn white_items(&mut self, node: &'a TreeNode, path: &str, depth: usize) {
        let b = self.block;
        let names = &b.names;
        let TreeNode::White {
            precludes, cases, ..
        } = node
        else {
            return;
        };
        let board = *b.position.board();
        for p in precludes {
            let z = board.cell_name(p.z, names.notation);
            let pid = self.unique(format!("{path}/preclude-{z}"));
            let heading = format!("preclude by {}", move_name(names, p.z));
            let pr = self.report(p.span, "preclude");
            let mut it = self.empty_item(pid, "preclude", heading, pr.map_or(0, |r| r.at.line));
            it.depth = depth + 1;
            it.rule = "preclude".into();
            if let Some(r) = pr {
                fill_from(&mut it, r);
            }
            for s in &p.steps {
                if let Some(r) = self.step_report(s) {
                    it.nodes += search_nodes(r);
                    it.steps.push(row(r));
                }
            }
            let mut f = Figure::new(&p.position, names.notation);
            f.labels = named_cells(names, &p.position);
            f.ghost = Some(p.z);
            if !f.labels.iter().any(|(c, _)| *c == p.z) {
                f.labels.push((p.z, names.name(p.z)));
            }
            f.caption.push(format!(
                "dashed: fictitious black {}",
                move_name(names, p.z)
            ));
            if let Some((c, ok)) = self.win_carrier(&p.steps) {
                f.carrier = c;
                f.caption.push(format!(
                    "shaded: carrier of {} ({} cells){}",
                    self.goal_name(),
                    c.len(),
                    if ok { "" } else { ", not verified" }
                ));
            }
            f.title = it.heading.clone();
            it.svg = f.svg();
            self.items.push(it);
        }
        for c in cases {
            let w = board.cell_name(c.white, names.notation);
            self.tree_items(&c.reply, &format!("{path}/{w}"), Some(c), depth + 1);
        }
    }

    /// A shared position (`position P black [..] white [..] { .. }`, docs/SEMANTICS.md
    /// "Shared positions"): one item for the position (its added stones ringed, what its proof
    /// shows drawn as after a Black move), then its analyses and cases.
    fn shared_items(&mut self, _i: usize, sh: &'a SharedPosition, base: &str) {
        let b = self.block;
        let names = &b.names;
        let path = format!("{base}/position-{}", sh.name);
        let id = self.unique(path.clone());
        let heading = format!("position {}", sh.name);
        let r = self.report(sh.head, "shared position");
        let mut it = self.empty_item(id, "position", heading, r.map_or(0, |r| r.at.line));
        it.rule = "shared position".into();
        if let Some(r) = r {
            fill_from(&mut it, r);
        }
        let mut f = Figure::new(&sh.position, names.notation);
        f.labels = named_cells(names, &sh.position);
        let added = (sh.position.stones(Colour::Black) - b.position.stones(Colour::Black))
            | (sh.position.stones(Colour::White) - b.position.stones(Colour::White));
        f.rings = added;
        f.caption.push(format!(
            "rings: the {} stone(s) the position adds; White to move",
            added.len()
        ));
        self.draw_next(&mut f, &mut it, &sh.tree);
        f.title = it.heading.clone();
        it.svg = f.svg();
        self.items.push(it);
        if let TreeNode::White { .. } = &sh.tree {
            self.white_items(&sh.tree, &path, 0);
        }
    }
}

/// An item's verdict, claim, basis, time, notes and reasons from its node's report.
fn fill_from(it: &mut Item, r: &StepReport) {
    it.verdict = r.verdict;
    it.claim = r.claim.clone();
    it.basis = r.basis_text();
    it.micros = r.micros;
    it.notes = r.notes.clone();
    it.reasons = reasons(r);
}

/// Labels the claim's on-board endpoints (stones or empty cells) that carry no label yet.
fn add_endpoint_labels(f: &mut Figure, names: &CellNames, claim: &crate::claim::Claim) {
    for &(a, b) in &claim.pairs {
        for c in [a, b] {
            if !c.is_border() && !f.labels.iter().any(|(x, _)| *x == c) {
                f.labels.push((c, names.name(c)));
            }
        }
    }
}

/// Why a file could not be rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file could not be read (one line).
    Unreadable(crate::dsl::load::ReadError),
    /// The file, or one it uses, is malformed: the rendered diagnostics
    /// (`file:line:column` with the source line).
    Malformed(String),
}

/// Loads `path` (and the files it `use`s), checks it and builds its pictures.
pub fn load_and_check(
    path: &std::path::Path,
    opts: &crate::check::Options,
) -> Result<Proof, LoadError> {
    use crate::dsl::load::{Loader, RootStatus};
    let mut loader = Loader::new();
    let st = loader.load_path(path);
    let loaded = loader.finish();
    match st {
        RootStatus::Unreadable(m) => Err(LoadError::Unreadable(m)),
        RootStatus::Loaded(_) => {
            let report = crate::check::check_program(&loaded.program, opts);
            Ok(build(&loaded.program, &report))
        }
        _ => Err(LoadError::Malformed(
            loaded.program.sources.render_all(&loaded.diags),
        )),
    }
}
