//! Proof trees (docs/SEMANTICS.md "Proof trees"; Noshita 2005 §3;
//! docs/SEMANTICS.md "Proof trees").
//!
//! A tree claims: Black, to move at the root, wins. A Black node plays an empty cell and its
//! subtree must win with White to move. A White node (White to move in position P) is won
//! when every empty cell w of P is either precluded or has a case whose reply wins:
//! a precluding analysis `preclude by z { .. }` derives Black's `t - b` VC on a carrier S_z in
//! P + black z; a White move w outside S_z ∪ {z} leaves that connection intact, so Black
//! answers z and wins. The moves that survive every verified analysis are
//! `empty(P) ∩ ⋂ (S_z ∪ {z})`; each needs a case. A leaf derives `t - b` VC (White to move).

use super::fill::{check_fills_evidence, FillSpec};
use super::kcompose::{self, Answer};
use super::report::*;
use super::{Checker, SearchOut, Status};
use crate::board::{Border, Cell, CellSet, Colour};
use crate::claim::Claim;
use crate::dsl::ast::Span;
use crate::dsl::model::{Case, Fill, Preclude, SharedPosition, Step, TreeNode};
use crate::kernel::Verified;
use crate::local::Verdict;
use crate::position::Position;
use crate::trusted::SearchWin;
use crate::trusted::{rules, Basis, Unsearched};
use std::time::Instant;

/// The claim a lemma's proof tree must reach, on the lemma's carrier (docs/SEMANTICS.md,
/// "Lemma trees"). Without a goal the tree proves `t - b` on the whole board.
#[derive(Clone, Debug)]
pub(super) struct Goal {
    /// The lemma's claim (Black's VC or union, White first).
    pub claim: Claim,
    /// The lemma's carrier: the only cells either player may take.
    pub carrier: CellSet,
}

/// Figures of a checked tree.
#[derive(Default, Debug)]
pub(super) struct TreeCounts {
    pub black_nodes: usize,
    pub white_nodes: usize,
    pub leaves: usize,
    pub precludes: usize,
    pub cases: usize,
    /// Shared positions (each checked once) and `goto`s referring to them.
    pub shared: usize,
    pub gotos: usize,
}

/// What the checker knows of one shared position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SharedState {
    Unchecked,
    /// Being checked: a `goto` to it now would close a cycle.
    Checking,
    /// Checked: its verdict and proof set.
    Done(StepVerdict, CellSet),
}

/// The shared positions of the strategy being checked (docs/SEMANTICS.md, "Shared
/// positions"): each is checked once, at its first reference, and its verdict and proof set
/// answer every reference that reaches exactly its position.
struct Sharing<'a> {
    blocks: &'a [SharedPosition],
    state: Vec<SharedState>,
    outs: Vec<Vec<StepReport>>,
    refs: Vec<usize>,
    /// In a sharded check ([`super::shard`]): the shared positions another shard checks; their
    /// state is the injected `Done(verdict, proof set)` and is never checked here.
    foreign: Vec<bool>,
    /// The part being checked (0 the tree, 1 + j shared position j), innermost last.
    part: Vec<usize>,
    /// Every use of a foreign position's injected result: (the part using it, the position,
    /// the verdict and proof set used).
    assumed: Vec<(usize, usize, StepVerdict, CellSet)>,
    /// Each checked position's composed certificate ([`Checker::tree_cert`]).
    certs: Vec<Option<Verified>>,
}

impl<'a> Sharing<'a> {
    fn new(blocks: &'a [SharedPosition]) -> Self {
        Sharing {
            blocks,
            state: vec![SharedState::Unchecked; blocks.len()],
            outs: vec![Vec::new(); blocks.len()],
            refs: vec![0; blocks.len()],
            foreign: vec![false; blocks.len()],
            part: vec![0],
            assumed: Vec::new(),
            certs: vec![None; blocks.len()],
        }
    }
}

/// The verdict counts of report lines (as [`FileReport::finish`] counts them).
fn counts_of(lines: &[StepReport]) -> Counts {
    let mut c = Counts::default();
    for l in lines {
        c.add(l.verdict);
    }
    c
}

/// The kernel acceptance of a node's confirming search (or composition), when it held.
fn tree_cert_of(s: &Option<SearchOut>) -> Option<Verified> {
    match s.as_ref().map(|s| (s.verdict, &s.win)) {
        Some((Verdict::Holds, Some(SearchWin::Kernel(v)))) => Some(v.clone()),
        _ => None,
    }
}

/// How the stones of `here` differ from those of `there` (mapped by `turn`), named `pname`:
/// one line per colour and direction; empty when they are the same.
fn stone_diffs(
    names: &crate::dsl::model::CellNames,
    here: &Position,
    there: &Position,
    turn: impl Fn(CellSet) -> CellSet,
    pname: &str,
) -> Vec<String> {
    let mut diffs = Vec::new();
    for c in [Colour::Black, Colour::White] {
        let here = here.stones(c);
        let there = turn(there.stones(c));
        if here - there != CellSet::EMPTY {
            diffs.push(format!(
                "{c} {} here but not in {pname}",
                names.set(&(here - there)),
            ));
        }
        if there - here != CellSet::EMPTY {
            diffs.push(format!(
                "{c} {} in {pname} but not here",
                names.set(&(there - here)),
            ));
        }
    }
    diffs
}

fn worst(a: StepVerdict, b: StepVerdict) -> StepVerdict {
    a.max(b)
}

impl<'a> Checker<'a> {
    fn node_report(
        &self,
        span: Span,
        rule: &str,
        claim: String,
        verdict: StepVerdict,
        reasons: Vec<Reason>,
        notes: Vec<String>,
        start: Instant,
        parts: &[StepReport],
    ) -> StepReport {
        StepReport {
            at: self.at(span),
            label: None,
            claim,
            rule: rule.into(),
            rule_check: match verdict {
                StepVerdict::Failed => "failed".into(),
                StepVerdict::Verified => "passed".into(),
                _ => "n/a".into(),
            },
            search: None,
            verdict,
            // A verified node rests on the verified lines of its subtree.
            basis: if verdict == StepVerdict::Verified {
                Basis::tree(parts.iter().filter_map(|r| r.basis.as_ref()))
            } else {
                None
            },
            reasons,
            notes,
            micros: start.elapsed().as_micros() as u64,
            span,
        }
    }

    /// Checks a derivation of Black's `t - b` VC in `pos`; returns the step reports, the
    /// verdict and the carrier of the established `t - b` (if any).
    ///
    /// With fill-in (docs/SEMANTICS.md, "Fill-in in a leaf") the steps are about `pos` with
    /// the fills applied, each fill is then checked in `pos` restricted to the carrier of the
    /// established `t - b` and the filled cells, and that union is the returned carrier.
    fn derive_win(
        &mut self,
        steps: &'a [Step],
        fills: &[Fill],
        pos: &Position,
        span: Span,
        what: &str,
        out: &mut Vec<StepReport>,
    ) -> (StepVerdict, Option<CellSet>, Vec<Reason>) {
        if fills.is_empty() {
            return self.derive_plain(steps, pos, span, what, out);
        }
        let start = Instant::now();
        let mut filled = pos.clone();
        let mut specs = Vec::new();
        let mut all = CellSet::EMPTY;
        for f in fills {
            for c in f.cells.iter() {
                // The elaborator placed them in this very position: cannot fail.
                let _ = filled.play(f.colour, c);
            }
            all |= f.cells;
            specs.push(FillSpec {
                captured: f.captured,
                colour: f.colour,
                cells: f.cells,
            });
        }
        let first = out.len();
        let (mut v, carrier, mut reasons) = self.derive_plain(steps, &filled, span, what, out);
        let Some(c) = carrier else {
            return (v, None, reasons);
        };
        let region = c | all;
        let names = self.names();
        let (passed, failed) = if self.goal.is_some() {
            (
                Vec::new(),
                Some((
                    0,
                    "fill-in is checked only in a strategy's tree (a lemma's tree has its own goal)"
                        .to_string(),
                )),
            )
        } else {
            let (passed, r) = check_fills_evidence(pos, &specs, region, Colour::Black);
            (passed, r.err())
        };
        for (i, f) in fills.iter().enumerate() {
            let kind = if f.captured { "captured" } else { "dead" };
            let claim = format!("fill {kind} {} {}", f.colour, names.set(&f.cells));
            let (fv, rs) = match &failed {
                Some((j, why)) if *j == i => (
                    StepVerdict::Failed,
                    vec![self.reason(
                        "fill",
                        if f.captured {
                            "captured pair"
                        } else {
                            "dead set"
                        },
                        format!("{what}: {claim} is not justified: {why}"),
                        vec![self.place(f.span, "not justified")],
                    )],
                ),
                Some((j, _)) if *j < i => (StepVerdict::Failed, Vec::new()),
                _ => (StepVerdict::Verified, Vec::new()),
            };
            reasons.extend(rs.iter().cloned());
            // Reported before the steps, in the order written.
            let mut r = self.node_report(f.span, "fill", claim, fv, rs, Vec::new(), start, &[]);
            if fv == StepVerdict::Verified {
                r.basis = passed.get(i).cloned().map(Basis::tree_rule);
            }
            out.insert(first + i, r);
        }
        if failed.is_some() {
            v = StepVerdict::Failed;
            return (v, None, reasons);
        }
        (v, Some(region), reasons)
    }

    /// [`Self::derive_win`] without fill-in.
    fn derive_plain(
        &mut self,
        steps: &'a [Step],
        pos: &Position,
        span: Span,
        what: &str,
        out: &mut Vec<StepReport>,
    ) -> (StepVerdict, Option<CellSet>, Vec<Reason>) {
        let mark = self.with_cert.len();
        let saved_pos = std::mem::replace(&mut self.position, pos.clone());
        let saved_steps = std::mem::replace(&mut self.steps, steps);
        let saved_known = std::mem::take(&mut self.known);
        let mut v = StepVerdict::Verified;
        for (i, s) in steps.iter().enumerate() {
            let r = self.step(i, s);
            v = worst(v, r.verdict);
            out.push(r);
        }
        let t = Cell::border(Border::Top);
        let b = Cell::border(Border::Bottom);
        // A Black VC amounts to t - b when each of its pairs joins a cell of t's group to a
        // cell of b's group, the groups being t and b with the Black stones joined to them in
        // this position (so `t - b`, a union `x - b | t - y` with x and y stones on the top
        // and bottom groups, or `x - y` between such stones). Checked exactly, here.
        // In a lemma's tree the target pairs are the lemma's (each pair of the VC must join
        // the groups of one target pair) and the VC's carrier must lie in the lemma's.
        let black = pos.stones(Colour::Black) | pos.board().border_cells(Colour::Black);
        let (targets, within) = match &self.goal {
            Some(g) => (g.claim.pairs.clone(), Some(g.carrier)),
            None => (vec![(t, b)], None),
        };
        let groups: Vec<(CellSet, CellSet)> = targets
            .iter()
            .map(|&(p, q)| (pos.component(p, &black), pos.component(q, &black)))
            .collect();
        let is_win = |k: &&super::Known| {
            k.claim.owner == Colour::Black
                && !k.claim.owner_first
                && !k.claim.pairs.is_empty()
                && within.is_none_or(|c| k.carrier.is_subset(&c))
                && k.claim.pairs.iter().all(|&(x, y)| {
                    groups.iter().any(|(gp, gq)| {
                        (gp.contains(x) && gq.contains(y)) || (gp.contains(y) && gq.contains(x))
                    })
                })
        };
        // A verified t - b if there is one, else the last attempt (to say why it fails).
        let win = self
            .known
            .iter()
            .rev()
            .filter(is_win)
            .find(|k| k.status == Status::Established)
            .or_else(|| self.known.iter().rev().find(is_win));
        let mut reasons = Vec::new();
        // The established t - b's own search, when one ran on it here and held.
        self.goal_search = win
            .filter(|k| k.status == Status::Established)
            .and_then(|k| {
                let key = (
                    k.claim.clone(),
                    k.carrier,
                    pos.stones(Colour::Black),
                    pos.stones(Colour::White),
                    k.conj,
                );
                let s = self.cache.get(&key)?;
                (s.verdict == Verdict::Holds && s.win.is_some())
                    .then(|| (self.at(k.span).line, k.carrier, s.clone()))
            });
        let carrier = match win {
            Some(k) if k.status == Status::Established => Some(k.carrier),
            Some(k) => {
                let line = self.at(k.span).line;
                // A step short of budget leaves the node undecided, not failed.
                let (kv, why) = match k.status {
                    Status::Undecided => (
                        StepVerdict::Undecided,
                        "is undecided (give it more search budget)",
                    ),
                    Status::Unsupported => {
                        (StepVerdict::Unsupported, "is not checked (unsupported)")
                    }
                    _ => (StepVerdict::Failed, "is not verified"),
                };
                reasons.push(self.reason(
                    "tree",
                    "t - b derived",
                    format!("{what}: the step at line {line} concluding t - b {why}"),
                    vec![self.place(k.span, "not verified")],
                ));
                v = worst(v, kv);
                None
            }
            None => {
                reasons.push(self.reason(
                    "tree",
                    "t - b derived",
                    format!("{what}: no step concludes Black's t - b as a VC (White to move), nor a VC whose every pair joins t's group to b's"),
                    vec![self.place(span, "no t - b")],
                ));
                v = StepVerdict::Failed;
                None
            }
        };
        // Only this derivation's later steps copy its certificates (the t - b's own search,
        // taken above, keeps its copy): drop them from the cache (memory).
        self.drop_certs(mark);
        self.position = saved_pos;
        self.steps = saved_steps;
        self.known = saved_known;
        (v, carrier, reasons)
    }

    /// The cross-check of a node with White to move: Black's `t - b` VC on every empty cell,
    /// by exact search with a reduced budget (None when rule steps are not searched).
    ///
    /// With `proof_set` (a verified White node's K, see [`Self::check_subtree`]) the search
    /// is run on K alone: the tree claims Black wins even with every cell outside K white, a
    /// claim that implies the node's (a strategy confined to K wins on any larger set of empty
    /// cells) and is cheaper to search (White has fewer moves). Its "holds" confirms the node;
    /// "undecided" leaves it on the tree alone, as an undecided search of every empty cell
    /// does. Measured on proofs/solver/7x7-d4.hexp (docs/journal/prove-session21.md): of the
    /// 21 White nodes whose K is smaller than their empty cells, the search on K held at 4
    /// and the search on every empty cell at none. When the search on K *fails*, the node's
    /// own claim is searched on every empty cell as before, so only that search can fail a
    /// node (a "fails" there is the inconsistency `with_search` reports).
    fn node_search(&mut self, pos: &Position, proof_set: Option<CellSet>) -> Option<SearchOut> {
        if !self.opts.search_rule_steps {
            return None;
        }
        let budget = self.opts.confirm;
        let (claim, cells) = match &self.goal {
            Some(g) => (g.claim.clone(), pos.empty_cells() & g.carrier),
            None => (
                Claim {
                    owner: Colour::Black,
                    pairs: vec![(Cell::border(Border::Top), Cell::border(Border::Bottom))],
                    owner_first: false,
                },
                pos.empty_cells(),
            ),
        };
        let mark = self.with_cert.len();
        let saved = std::mem::replace(&mut self.position, pos.clone());
        if let Some(k) = proof_set.map(|k| k & cells).filter(|&k| k != cells) {
            let small = self.search_budget(&claim, k, &budget, false);
            if small.verdict != Verdict::Fails {
                self.position = saved;
                self.drop_certs(mark);
                return Some(small);
            }
        }
        let out = self.search_budget(&claim, cells, &budget, false);
        self.position = saved;
        // The returned copy keeps its certificate; the cache keeps the verdict (memory).
        self.drop_certs(mark);
        Some(out)
    }

    /// Combines a node's own verdict with the search of its position.
    fn with_search(&self, r: &mut StepReport, s: Option<SearchOut>) {
        let Some(s) = s else { return };
        match (r.verdict, s.verdict) {
            (StepVerdict::Verified, Verdict::Holds) => {
                let searched = s.searched();
                r.basis = r.basis.take().map(|b| b.with_search(searched));
            }
            (StepVerdict::Verified, Verdict::Fails) => {
                r.verdict = StepVerdict::Failed;
                r.basis = None;
                r.reasons.push(self.reason(
                    "checker",
                    "consistency",
                    "the tree checks but the search says White wins here; this is a bug in hexproof, please report it".into(),
                    vec![self.place(r.span, "inconsistent")],
                ));
            }
            (StepVerdict::Verified, Verdict::Undecided) => {
                let why = s
                    .report
                    .note
                    .clone()
                    .map_or(Unsearched::Undecided, Unsearched::Note);
                r.basis = r.basis.take().map(|b| b.with_search(Err(why)));
            }
            (_, Verdict::Holds) => r
                .notes
                .push("Black does win here (by search), but the tree does not show it".into()),
            (_, Verdict::Fails) => r.notes.push(format!(
                "by search White wins here{}",
                if s.report.refutation.is_empty() {
                    String::new()
                } else {
                    format!(": {}", s.report.refutation.join(", "))
                }
            )),
            _ => {}
        }
        r.search = Some(s.report);
    }

    /// Checks a node; its reports (the node's own line first) go to `out`.
    pub(super) fn check_tree(
        &mut self,
        node: &'a TreeNode,
        context: &str,
        out: &mut Vec<StepReport>,
        counts: &mut TreeCounts,
    ) -> StepVerdict {
        let mut sh = Sharing::new(&[]);
        self.check_subtree(node, context, out, counts, &mut sh).0
    }

    /// Checks a strategy's tree with its shared positions: each shared position once (at its
    /// first `goto`, or at the end when nothing refers to it), its reports after the tree's
    /// under a `shared position` line. The verdict is the worst of the tree's and of every
    /// shared position's (an unused but broken one is still a false statement of the file).
    pub(super) fn check_strategy(
        &mut self,
        node: &'a TreeNode,
        shared: &'a [SharedPosition],
        out: &mut Vec<StepReport>,
        counts: &mut TreeCounts,
    ) -> StepVerdict {
        let mut sh = Sharing::new(shared);
        // A sharded check (super::shard): this strategy's number, the parts it owns, and the
        // injected results of the parts it does not.
        let split = self.split;
        let strategy = split.map(|sp| sp.borrow_mut().next_strategy());
        let owns = |part: usize| match (split, strategy) {
            (Some(sp), Some(s)) => sp.borrow().owns((s, part)),
            _ => true,
        };
        if let (Some(sp), Some(s)) = (split, strategy) {
            let sp = sp.borrow();
            for j in 0..shared.len() {
                if !sp.owns((s, 1 + j)) {
                    let (v, k) = sp.injected(s, 1 + j);
                    sh.state[j] = SharedState::Done(v, k);
                    sh.foreign[j] = true;
                }
            }
        }
        let mut v = StepVerdict::Verified;
        if owns(0) {
            let start = Instant::now();
            let at = out.len();
            let (rv, rk) = self.check_subtree(node, "", out, counts, &mut sh);
            v = rv;
            if let (Some(sp), Some(s)) = (split, strategy) {
                sp.borrow_mut()
                    .record((s, 0), rv, rk, counts_of(&out[at..]), start.elapsed());
            }
        }
        for i in 0..shared.len() {
            if sh.state[i] == SharedState::Unchecked {
                self.check_shared(i, counts, &mut sh);
            }
        }
        let names = self.names();
        for (i, b) in shared.iter().enumerate() {
            let SharedState::Done(bv, bk) = sh.state[i] else {
                continue;
            };
            if sh.foreign[i] {
                continue;
            }
            v = worst(v, bv);
            let base = &self.position;
            let added = |c: Colour| b.position.stones(c) - base.stones(c);
            let claim = format!(
                "{}: black {} white {} added, White to move; {} reference(s)",
                b.name,
                names.set(&added(Colour::Black)),
                names.set(&added(Colour::White)),
                sh.refs[i]
            );
            let mut reasons = Vec::new();
            if bv != StepVerdict::Verified {
                reasons.push(self.reason(
                    "tree",
                    "shared position won",
                    format!("shared position {} is not shown won", b.name),
                    vec![self.place(b.head, "not shown won")],
                ));
            }
            let notes = if sh.refs[i] == 0 {
                vec!["no `goto` refers to it".to_string()]
            } else {
                Vec::new()
            };
            out.push(self.node_report(
                b.head,
                "shared position",
                claim,
                bv,
                reasons,
                notes,
                Instant::now(),
                &sh.outs[i],
            ));
            if let (Some(sp), Some(s)) = (split, strategy) {
                let mut c = counts_of(&sh.outs[i]);
                c.add(bv);
                sp.borrow_mut()
                    .record((s, 1 + i), bv, bk, c, std::time::Duration::ZERO);
            }
            out.append(&mut sh.outs[i]);
        }
        if let (Some(sp), Some(s)) = (split, strategy) {
            let mut sp = sp.borrow_mut();
            for &(from, j, av, ak) in &sh.assumed {
                sp.assume((s, from), (s, 1 + j), av, ak);
            }
        }
        v
    }

    /// `[black M] image "FILE" under rot180` (docs/LANGUAGE.md, "Images of another file's
    /// strategy"): the used file's one strategy is verified, and this position (Black to
    /// move; with `black M`, the position after M, White to move) is exactly the 180° turn of
    /// its position (with `black M`: of its position after its root's Black move). A turn by
    /// 180° maps the board onto itself, top to bottom and left to right, so every play of Hex
    /// onto one with the same winner: Black, to move, wins here. In a sharded check the used
    /// strategy's verdict is partial here, so the image is undecided.
    pub(super) fn check_image(
        &mut self,
        im: &'a crate::dsl::model::Image,
        out: &mut Vec<StepReport>,
    ) -> StepVerdict {
        let start = Instant::now();
        let names = self.names();
        let mut reasons = Vec::new();
        let mut v = StepVerdict::Verified;
        let mut here = self.position.clone();
        let claim = match im.black {
            Some(c) => format!(
                "black {}: the position is the image of {} after its first move, turned by 180°",
                names.name(c),
                im.path
            ),
            None => format!("the position is the image of {}, turned by 180°", im.path),
        };
        if let Some(c) = im.black {
            if here.play(Colour::Black, c).is_err() {
                reasons.push(self.reason(
                    "tree",
                    "a legal move",
                    format!("black {} is not a legal move here", names.name(c)),
                    vec![self.place(im.span, "not legal")],
                ));
                v = StepVerdict::Failed;
            }
        }
        let facts = self.images.get(&im.file).map_or(&[][..], |f| &f[..]);
        let mut bases = Vec::new();
        if self.split.is_some() {
            reasons.push(self.reason(
                "tree",
                "the used strategy checked whole",
                format!(
                    "a sharded check splits {}'s strategy over several processes: its verdict is not known here",
                    im.path
                ),
                vec![self.place(im.span, "not known here")],
            ));
            v = worst(v, StepVerdict::Undecided);
        } else if facts.len() != 1 {
            reasons.push(self.reason(
                "tree",
                "one strategy in the used file",
                format!(
                    "{} has {} strategies: an image needs exactly one",
                    im.path,
                    facts.len()
                ),
                vec![self.place(im.span, "which strategy?")],
            ));
            v = StepVerdict::Failed;
        } else {
            let f = &facts[0];
            let there = match im.black {
                None => Some(f.position.clone()),
                Some(_) => f.first.and_then(|m| {
                    let mut p = f.position.clone();
                    p.play(Colour::Black, m).ok().map(|_| p)
                }),
            };
            match there {
                None => {
                    reasons.push(self.reason(
                        "tree",
                        "the used strategy starts with a Black move",
                        format!(
                            "{}'s strategy (line {}) does not start with `black MOVE`: `black M image` has nothing to turn",
                            im.path, f.line
                        ),
                        vec![self.place(im.span, "no first move there")],
                    ));
                    v = StepVerdict::Failed;
                }
                Some(there) => {
                    let board = *here.board();
                    let turn = |s: CellSet| s.rotated180(&board);
                    let pname = format!("{}'s position turned by 180°", im.path);
                    let diffs = if *there.board() != board {
                        vec![format!("{} is for another board", im.path)]
                    } else {
                        stone_diffs(names, &here, &there, turn, &pname)
                    };
                    if !diffs.is_empty() {
                        reasons.push(self.reason(
                            "tree",
                            "the image of the used strategy's position",
                            format!(
                                "image of {}: a different position: {}",
                                im.path,
                                diffs.join("; ")
                            ),
                            vec![self.place(im.span, "a different position")],
                        ));
                        v = StepVerdict::Failed;
                    }
                    if f.verdict != StepVerdict::Verified {
                        reasons.push(self.reason(
                            "tree",
                            "the used strategy won",
                            format!("{}'s strategy (line {}) is not shown won", im.path, f.line),
                            vec![self.place(im.span, "not shown won")],
                        ));
                        v = worst(v, f.verdict);
                    }
                    bases = f.bases.clone();
                }
            }
        }
        let mut r = self.node_report(im.span, "image", claim, v, reasons, Vec::new(), start, &[]);
        r.basis = if v == StepVerdict::Verified {
            Basis::tree(bases.iter())
        } else {
            None
        };
        if v == StepVerdict::Verified && r.basis.is_none() {
            // A verified strategy has verified lines; without them, nothing rests here.
            r.verdict = StepVerdict::Failed;
            r.rule_check = "failed".into();
        }
        let v = r.verdict;
        out.push(r);
        v
    }

    /// Checks shared position `i` (once); its reports go to `sh.outs[i]`.
    fn check_shared(&mut self, i: usize, counts: &mut TreeCounts, sh: &mut Sharing<'a>) {
        counts.shared += 1;
        sh.state[i] = SharedState::Checking;
        sh.part.push(1 + i);
        let start = Instant::now();
        let tree = &sh.blocks[i].tree;
        let mut o = Vec::new();
        let (v, k) = self.check_subtree(tree, "", &mut o, counts, sh);
        sh.certs[i] = self.tree_cert.take();
        sh.outs[i] = o;
        sh.state[i] = SharedState::Done(v, k);
        sh.part.pop();
        if let Some(sp) = self.split {
            sp.borrow_mut().time_part(1 + i, start.elapsed());
        }
    }

    /// [`Self::check_tree`], also returning the node's **proof set** K: the cells Black's
    /// strategy may occupy (a leaf's carrier; at a White node the precluding carriers with
    /// their moves and each reply with its subtree's set). A verified tree shows more than a
    /// win: Black wins even when every empty cell outside K holds a White stone
    /// (docs/SEMANTICS.md, "Proof-set pruning in a tree"). A failed node's K is every empty
    /// cell of its position.
    fn check_subtree(
        &mut self,
        node: &'a TreeNode,
        context: &str,
        out: &mut Vec<StepReport>,
        counts: &mut TreeCounts,
        sh: &mut Sharing<'a>,
    ) -> (StepVerdict, CellSet) {
        let mark = self.with_cert.len();
        let r = match node {
            TreeNode::Black { .. } => self.black_node(node, context, out, counts, sh),
            TreeNode::Goto { .. } => self.goto_node(node, out, counts, sh),
            TreeNode::Leaf { .. } => self.leaf_node(node, out, counts),
            TreeNode::White { .. } => self.white_node(node, out, counts, sh),
        };
        // The node's certificates are composed into its `tree_cert` (a kernel acceptance) by
        // now; the cache keeps the verdicts, not the certificates (memory).
        self.drop_certs(mark);
        r
    }

    /// [`Self::check_subtree`] of a node of this kind: A Black move and the subtree after it.
    fn black_node(
        &mut self,
        node: &'a TreeNode,
        context: &str,
        out: &mut Vec<StepReport>,
        counts: &mut TreeCounts,
        sh: &mut Sharing<'a>,
    ) -> (StepVerdict, CellSet) {
        let start = Instant::now();
        let names = self.names();
        let TreeNode::Black {
            cell, span, next, ..
        } = node
        else {
            unreachable!("a Black node")
        };
        counts.black_nodes += 1;
        let at = out.len();
        let claim = format!("{context}black {}", names.name(*cell));
        out.push(self.node_report(
            *span,
            "black move",
            claim.clone(),
            StepVerdict::Verified,
            Vec::new(),
            Vec::new(),
            start,
            &[],
        ));
        let (mut v, k) = self.check_subtree(next, "", out, counts, sh);
        // The subtree's composed certificate (its `tree_cert`) is passed up as it is.
        let cert = self.tree_cert.take();
        let mut reasons = Vec::new();
        if let Some(g) = &self.goal {
            if !g.carrier.contains(*cell) {
                reasons.push(self.reason(
                    "tree",
                    "moves in the carrier",
                    format!("black {} is outside the lemma's carrier", names.name(*cell)),
                    vec![self.place(*span, "outside the carrier")],
                ));
                v = StepVerdict::Failed;
            }
        }
        if v != StepVerdict::Verified {
            reasons.push(self.reason(
                "tree",
                "subtree wins",
                format!(
                    "the position after black {} is not shown won",
                    names.name(*cell)
                ),
                vec![self.place(Span::new(span.start, span.start + 5), "not shown won")],
            ));
        }
        let r = self.node_report(
            *span,
            "black move",
            claim,
            v,
            reasons,
            Vec::new(),
            start,
            &out[at + 1..],
        );
        out[at] = r;
        self.tree_cert = cert.filter(|_| v == StepVerdict::Verified);
        (v, k | CellSet::single(*cell))
    }
    /// [`Self::check_subtree`] of a node of this kind: `goto P` (docs/SEMANTICS.md, "Shared positions").
    fn goto_node(
        &mut self,
        node: &'a TreeNode,
        out: &mut Vec<StepReport>,
        counts: &mut TreeCounts,
        sh: &mut Sharing<'a>,
    ) -> (StepVerdict, CellSet) {
        let start = Instant::now();
        let names = self.names();
        let TreeNode::Goto {
            target,
            rotated,
            position,
            span,
        } = node
        else {
            unreachable!("a Goto node")
        };
        // `goto P` (docs/SEMANTICS.md, "Shared positions"): P's proof answers here when
        // P is exactly this position (the same stones of each colour, White to move
        // in both); its verdict and proof set are P's, computed once.
        counts.gotos += 1;
        let empty = position.empty_cells();
        let mut reasons = Vec::new();
        let Some(b) = sh.blocks.get(*target) else {
            reasons.push(self.reason(
                "tree",
                "shared position exists",
                "no such shared position in this tree".into(),
                vec![self.place(*span, "unknown")],
            ));
            let r = self.node_report(
                *span,
                "goto",
                String::new(),
                StepVerdict::Failed,
                reasons,
                Vec::new(),
                start,
                &[],
            );
            out.push(r);
            return (StepVerdict::Failed, empty);
        };
        sh.refs[*target] += 1;
        if sh.state[*target] == SharedState::Unchecked {
            self.check_shared(*target, counts, sh);
        }
        let mut v = StepVerdict::Verified;
        let line = self.at(b.span).line;
        let (bv, bk) = match sh.state[*target] {
            SharedState::Done(bv, bk) => {
                if sh.foreign[*target] {
                    let from = *sh.part.last().expect("a part is being checked");
                    sh.assumed.push((from, *target, bv, bk));
                }
                (bv, bk)
            }
            _ => {
                reasons.push(self.reason(
                    "tree",
                    "references are acyclic",
                    format!(
                        "goto {} is reached while {} itself is being checked: the references form a cycle",
                        b.name, b.name
                    ),
                    vec![self.place(*span, "cycle")],
                ));
                (StepVerdict::Failed, empty)
            }
        };
        // `under rot180`: P turned by 180° (docs/SEMANTICS.md, "Shared positions").
        let turn = |s: CellSet| {
            if *rotated {
                s.rotated180(position.board())
            } else {
                s
            }
        };
        let pname = if *rotated {
            format!("{} turned by 180°", b.name)
        } else {
            b.name.clone()
        };
        let diffs = stone_diffs(names, position, &b.position, turn, &pname);
        if !diffs.is_empty() {
            reasons.push(self.reason(
                "tree",
                "reaches the shared position",
                format!(
                    "goto {} reaches a different position: {}",
                    b.name,
                    diffs.join("; ")
                ),
                vec![self.place(*span, "a different position")],
            ));
            v = StepVerdict::Failed;
        }
        if bv != StepVerdict::Verified {
            if reasons.is_empty() {
                reasons.push(self.reason(
                    "tree",
                    "shared position won",
                    format!("shared position {} (line {line}) is not shown won", b.name),
                    vec![self.place(*span, "not shown won")],
                ));
            }
            v = worst(v, bv);
        }
        let claim = format!("{pname} (line {line}): the same position");
        let parts: &[StepReport] = sh.outs.get(*target).map_or(&[], |o| o);
        out.push(self.node_report(*span, "goto", claim, v, reasons, Vec::new(), start, parts));
        let k = if v == StepVerdict::Verified {
            turn(bk) & empty
        } else {
            empty
        };
        // The shared position's kernel acceptance answers here (turned by 180° with it:
        // `Verified::rotated180`; the parent's kernel check compares the positions).
        self.tree_cert = match sh.certs.get(*target) {
            Some(Some(c)) if v == StepVerdict::Verified => {
                if *rotated {
                    c.rotated180()
                } else {
                    Some(c.clone())
                }
            }
            _ => None,
        };
        (v, k)
    }
    /// [`Self::check_subtree`] of a node of this kind: A leaf: steps deriving the goal, with fill-in.
    fn leaf_node(
        &mut self,
        node: &'a TreeNode,
        out: &mut Vec<StepReport>,
        counts: &mut TreeCounts,
    ) -> (StepVerdict, CellSet) {
        let start = Instant::now();
        let names = self.names();
        let TreeNode::Leaf {
            position,
            span,
            steps,
            fills,
        } = node
        else {
            unreachable!("a Leaf node")
        };
        counts.leaves += 1;
        let at = out.len();
        out.push(self.node_report(
            *span,
            "leaf",
            String::new(),
            StepVerdict::Verified,
            Vec::new(),
            Vec::new(),
            start,
            &[],
        ));
        self.goal_search = None;
        let (v, carrier, reasons) = self.derive_win(steps, fills, position, *span, "the leaf", out);
        let goal_search = self.goal_search.take();
        let claim = match carrier {
            Some(c) if self.goal.is_some() => {
                format!("the claim on {} (White to move)", names.set(&c))
            }
            Some(c) => format!("t - b on {} (White to move)", names.set(&c)),
            None => "t - b (White to move)".into(),
        };
        let mut r = self.node_report(
            *span,
            "leaf",
            claim,
            v,
            reasons,
            Vec::new(),
            start,
            &out[at + 1..],
        );
        self.tree_cert = match &goal_search {
            Some((_, _, s))
                if fills.is_empty() && self.goal.is_none() && v == StepVerdict::Verified =>
            {
                match &s.win {
                    Some(SearchWin::Kernel(k)) => Some(k.clone()),
                    _ => None,
                }
            }
            _ => None,
        };
        // A fill-in leaf: its t - b on C ∪ F in this position, accepted by the kernel from
        // the established t - b's acceptance in the filled position (condition 7b).
        let filled = match (&goal_search, carrier) {
            (Some((line, _, s)), Some(region))
                if !fills.is_empty()
                    && self.goal.is_none()
                    && v == StepVerdict::Verified
                    && self.opts.search_rule_steps =>
            {
                match &s.win {
                    Some(SearchWin::Kernel(lemma)) => {
                        let specs: Vec<(bool, Colour, CellSet)> = fills
                            .iter()
                            .map(|f| (f.captured, f.colour, f.cells))
                            .collect();
                        let fstart = Instant::now();
                        kcompose::compose_filled(position, &specs, region, lemma).map(|k| {
                            self.tree_cert = Some(k.clone());
                            let mut s = SearchOut::composed(fstart, "", k, None);
                            s.report.note = Some(format!(
                                "kernel certificate: the established t - b (line {line}) with the fills given to Black, each dead or captured in the restricted position (kernel condition 7b, no search)"
                            ));
                            s
                        })
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let ns_leaf = match goal_search {
            _ if filled.is_some() => filled,
            // The leaf's t - b on its carrier C was itself searched and held (a kernel-checked
            // certificate): Black's strategy plays only in C, so it wins on every empty cell
            // of the position too — that search confirms the leaf, and the search of the
            // whole board (a weaker claim, often far harder) is not run again.
            Some((line, c, s))
                if fills.is_empty() && self.goal.is_none() && self.opts.search_rule_steps =>
            {
                r.notes.push(format!(
                    "confirmed by the search of its t - b on {} (line {line}): a win on part of the empty cells is a win on all of them",
                    names.set(&c)
                ));
                let mut s = s;
                s.report.micros = 0;
                Some(s)
            }
            _ => self.node_search(position, None),
        };
        if self.tree_cert.is_none() && fills.is_empty() && self.goal.is_none() {
            self.tree_cert = tree_cert_of(&ns_leaf);
        }
        if v != StepVerdict::Verified {
            self.tree_cert = None;
        }
        self.with_search(&mut r, ns_leaf);
        let v = r.verdict;
        out[at] = r;
        let k = match carrier {
            Some(c) if v == StepVerdict::Verified => c & position.empty_cells(),
            _ => position.empty_cells(),
        };
        (v, k)
    }
    /// [`Self::check_subtree`] of a node of this kind: A White node: precluding analyses and cases.
    fn white_node(
        &mut self,
        node: &'a TreeNode,
        out: &mut Vec<StepReport>,
        counts: &mut TreeCounts,
        sh: &mut Sharing<'a>,
    ) -> (StepVerdict, CellSet) {
        let start = Instant::now();
        let names = self.names();
        let TreeNode::White {
            position,
            span,
            precludes,
            cases,
        } = node
        else {
            unreachable!("a White node")
        };
        counts.white_nodes += 1;
        let at = out.len();
        out.push(self.node_report(
            *span,
            "white node",
            String::new(),
            StepVerdict::Verified,
            Vec::new(),
            Vec::new(),
            start,
            &[],
        ));
        let mut v = StepVerdict::Verified;
        let mut reasons = Vec::new();
        let mut empty = position.empty_cells();
        if let Some(g) = &self.goal {
            // In a lemma's game White moves only in the carrier; with no carrier cell
            // left the node would hold vacuously, so it must be a leaf.
            empty &= g.carrier;
            if empty.is_empty() {
                reasons.push(self.reason(
                    "tree",
                    "White has a move",
                    "no carrier cell is empty here: close this node with steps (a leaf)".into(),
                    vec![self.place(Span::new(span.start, span.start + 5), "no move")],
                ));
                v = StepVerdict::Failed;
            }
        }
        // The node's proof set (see `check_subtree`) and the moves no analysis precludes.
        let (pv, mut survivors, mut k, mut answers) =
            self.check_precludes(precludes, empty, out, counts);
        v = worst(v, pv);
        // Each reply, with its proof set K_c: a `| *` case also answers every empty
        // cell outside K_c (proof-set pruning, Henderson, Arneson & Hayward 2009 §5:
        // with White's move w and every cell outside K_c white, Black wins after its
        // reply m; another White move w' outside K_c ∪ {m} gives a position with fewer
        // white stones than that one).
        for c in cases {
            counts.cases += 1;
            let ctx = format!("white {} → ", names.name(c.white));
            let (cv, ck) = self.check_subtree(&c.reply, &ctx, out, counts, sh);
            if let (TreeNode::Black { cell, .. }, Some(cert)) = (&c.reply, self.tree_cert.take()) {
                answers.push((*cell, cert));
            }
            v = worst(v, cv);
            let ck = if cv == StepVerdict::Verified {
                ck
            } else {
                empty
            };
            k |= ck & empty;
            if c.rest {
                survivors &= ck | CellSet::single(c.white);
            }
        }
        let (covered_ok, notes, claim) =
            self.coverage(position, *span, cases, survivors, &mut reasons);
        if !covered_ok {
            v = StepVerdict::Failed;
        }
        let mut r = self.node_report(
            *span,
            "white node",
            claim,
            v,
            reasons,
            notes,
            start,
            &out[at + 1..],
        );
        if r.verdict == StepVerdict::Verified && r.basis.is_none() {
            // No White move left and no line below: Black has won already.
            r.basis = rules::won_already(position, Colour::Black).map(Basis::tree_rule);
        }
        let composed = (r.verdict == StepVerdict::Verified
            && self.goal.is_none()
            && self.opts.search_rule_steps)
            .then(|| self.compose_white(position, &answers))
            .flatten();
        let ns = match composed {
            Some(s) => Some(s),
            None => self.node_search(position, (r.verdict == StepVerdict::Verified).then_some(k)),
        };
        self.tree_cert = tree_cert_of(&ns).filter(|_| self.goal.is_none());
        self.with_search(&mut r, ns);
        let v = r.verdict;
        if v != StepVerdict::Verified {
            self.tree_cert = None;
        }
        out[at] = r;
        (v, if v == StepVerdict::Verified { k } else { empty })
    }

    /// The confirmation of a verified White node by the kernel instead of a search
    /// ([`kcompose::compose_white`]): one or-node over Black's answers (each analysis's move
    /// and each case's reply) with the kernel acceptances of the positions after them (an
    /// analysis's `t - b` searched or composed here, a case's subtree's `tree_cert`). `None`
    /// when the kernel refuses (a White move with no certified answer): the search runs.
    fn compose_white(&mut self, pos: &Position, answers: &[(Cell, Verified)]) -> Option<SearchOut> {
        let start = Instant::now();
        let parts: Vec<Answer> = answers
            .iter()
            .map(|(c, v)| Answer {
                reply: *c,
                verified: v,
            })
            .collect();
        let v = kcompose::compose_white(pos, &parts)?;
        Some(SearchOut::composed(
            start,
            "the analyses' and cases'",
            v,
            None,
        ))
    }

    /// A White node's precluding analyses: their verdict, the moves that survive them all
    /// (of `empty`), their part of the node's proof set, and for each verified analysis whose
    /// `t - b` has a kernel acceptance here, its move with that acceptance.
    fn check_precludes(
        &mut self,
        precludes: &'a [Preclude],
        empty: CellSet,
        out: &mut Vec<StepReport>,
        counts: &mut TreeCounts,
    ) -> (StepVerdict, CellSet, CellSet, Vec<(Cell, Verified)>) {
        let names = self.names();
        let mut v = StepVerdict::Verified;
        let mut survivors = empty;
        let mut k = CellSet::EMPTY;
        let mut answers = Vec::new();
        for p in precludes {
            counts.precludes += 1;
            let pstart = Instant::now();
            let pat = out.len();
            out.push(self.node_report(
                p.span,
                "preclude",
                String::new(),
                StepVerdict::Verified,
                Vec::new(),
                Vec::new(),
                pstart,
                &[],
            ));
            let what = format!("the precluding analysis by {}", names.name(p.z));
            self.goal_search = None;
            let (pv, carrier, reasons) =
                self.derive_win(&p.steps, &p.fills, &p.position, p.span, &what, out);
            if let Some((_, _, s)) = self.goal_search.take() {
                if let (Some(SearchWin::Kernel(cert)), true, true) =
                    (s.win, p.fills.is_empty(), pv == StepVerdict::Verified)
                {
                    answers.push((p.z, cert));
                }
            }
            let z_outside = self.goal.as_ref().is_some_and(|g| !g.carrier.contains(p.z));
            let claim = match carrier {
                Some(_) if z_outside => {
                    format!("black {}: outside the lemma's carrier", names.name(p.z))
                }
                Some(c) => {
                    let mut keep = c;
                    keep.insert(p.z);
                    survivors &= keep;
                    k |= keep & empty;
                    format!(
                        "black {}: {} on {}; White must play in {}",
                        names.name(p.z),
                        if self.goal.is_some() {
                            "the claim"
                        } else {
                            "t - b"
                        },
                        names.set(&c),
                        names.set(&(keep & empty))
                    )
                }
                None => {
                    k = empty;
                    format!("black {}: t - b not derived", names.name(p.z))
                }
            };
            let pv = if z_outside { StepVerdict::Failed } else { pv };
            if pv != StepVerdict::Verified {
                v = worst(v, pv);
            }
            let r = self.node_report(
                p.span,
                "preclude",
                claim,
                pv,
                reasons,
                Vec::new(),
                pstart,
                &out[pat + 1..],
            );
            out[pat] = r;
        }
        (v, survivors, k, answers)
    }

    /// A White node's coverage: the game is not lost, and every surviving White move has a
    /// case. Whether it holds (reasons added when not), notes, and the node's line.
    fn coverage(
        &self,
        position: &Position,
        span: Span,
        cases: &[Case],
        survivors: CellSet,
        reasons: &mut Vec<Reason>,
    ) -> (bool, Vec<String>, String) {
        let names = self.names();
        let mut ok = true;
        let mut notes = Vec::new();
        // Hex has no draws: with no empty cell left someone has won, and it must be
        // Black (otherwise "every move precluded" would hold vacuously).
        if position.winner() == Some(Colour::White) {
            reasons.push(self.reason(
                "tree",
                "game not lost",
                "White has already won in this position".into(),
                vec![self.place(Span::new(span.start, span.start + 5), "White has won")],
            ));
            ok = false;
        }
        let covered: CellSet = cases.iter().map(|c| c.white).collect();
        let missing = survivors - covered;
        for w in missing.iter() {
            reasons.push(self.reason(
                "tree",
                "every White move has a case",
                format!(
                    "White's move {} survives every precluding analysis and has no case",
                    names.name(w)
                ),
                vec![self.place(
                    Span::new(span.start, span.start + 5),
                    format!("no case for {}", names.name(w)),
                )],
            ));
        }
        if !missing.is_empty() {
            ok = false;
        }
        let extra = covered - survivors;
        if !extra.is_empty() {
            notes.push(format!(
                "cases for precluded moves {} (not needed)",
                names.set(&extra)
            ));
        }
        let claim = if survivors.is_empty() {
            "every White move is precluded".to_string()
        } else {
            format!(
                "White's surviving moves {}: {} with a case",
                names.set(&survivors),
                (survivors & covered).len()
            )
        };
        (ok, notes, claim)
    }
}
