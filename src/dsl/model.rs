//! The elaborated program: every name resolved to a cell, every claim validated against its
//! position. This is what the checker (`check`) consumes.

use super::ast::Span;
use super::diag::{FileId, Sources};
use crate::board::{Board, Cell, CellSet, Colour, Notation};
use crate::claim::Claim;
use crate::position::Position;
use std::collections::HashMap;

/// Every loaded file, elaborated.
#[derive(Clone, Debug)]
pub struct Program {
    /// The text of every file (for diagnostics).
    pub sources: Sources,
    /// One module per file, each after the files it uses.
    pub modules: Vec<Module>,
}

/// One elaborated file.
#[derive(Clone, Debug)]
pub struct Module {
    /// Its source.
    pub file: FileId,
    /// The board.
    pub board: Board,
    /// The notation names are read (and printed) in.
    pub notation: Notation,
    /// Lemmas, derivations and strategies, in file order.
    pub blocks: Vec<Block>,
    /// Files named by `use`.
    pub uses: Vec<FileId>,
}

/// What kind of block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `lemma`.
    Lemma,
    /// `derive`.
    Derive,
    /// `strategy` (a proof tree; not checked yet).
    Strategy,
}

/// A lemma, a derivation or a strategy.
#[derive(Clone, Debug)]
pub struct Block {
    /// Which.
    pub kind: BlockKind,
    /// Its name.
    pub name: Option<String>,
    /// Its title string.
    pub title: Option<String>,
    /// The whole block.
    pub span: Span,
    /// The keyword and name (where to point at the block itself).
    pub head: Span,
    /// The position its claims are about.
    pub position: Position,
    /// How to print cells inside this block.
    pub names: CellNames,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// For a lemma: its claim and how it is proved.
    pub lemma: Option<LemmaInfo>,
    /// For a strategy: its proof tree (Black to move at the root).
    pub tree: Option<TreeNode>,
    /// For a strategy: its shared positions, referred to by [`TreeNode::Goto`].
    pub shared: Vec<SharedPosition>,
    /// For a strategy written as `[black M] image "FILE" under rot180` (then `tree` is
    /// `None`): the used file whose strategy it turns.
    pub image: Option<Image>,
    /// Constructs the checker does not handle yet: (where, what).
    pub unsupported: Vec<(Span, String)>,
}

/// `[black M] image "FILE" under rot180`: the strategy's position (Black to move; or, with
/// `black M`, the position after M, White to move) is the 180° turn of a position the used
/// file's one strategy shows won (its root; or the position after its root's Black move).
#[derive(Clone, Debug)]
pub struct Image {
    /// The used file.
    pub file: FileId,
    /// The file's name as written.
    pub path: String,
    /// `black M`: Black's move before the image.
    pub black: Option<Cell>,
    /// Where (the whole statement).
    pub span: Span,
}

/// A lemma's statement.
#[derive(Clone, Debug)]
pub struct LemmaInfo {
    /// The claim with its carrier.
    pub claim: Fact,
    /// True when a `proof { .. }` block gives steps; false for `by search`.
    pub has_proof: bool,
    /// AB guarantees: `guarantee <opponent> A => <owner> B`.
    pub guarantees: Vec<Guarantee>,
    /// AB assumptions: `assume <opponent> A => <owner> B` (A, B outside the carrier); the
    /// claim is checked in the assisted game and the lemma is usable only in a step that
    /// names, with it, a lemma whose guarantee discharges the assumption.
    pub assumes: Vec<Guarantee>,
    /// For a lemma of the template library (`use templates`): its record and the board cells
    /// of the record's carrier and stones lists, in order (for its kernel certificate).
    pub library: Option<LibraryLemma>,
}

/// A template-library record placed on a file's board as a lemma.
#[derive(Clone, Debug)]
pub struct LibraryLemma {
    /// The record (with its stored certificate).
    pub record: crate::templates::library::Record,
    /// The carrier list's cells.
    pub carrier: Vec<Cell>,
    /// The stones list's cells.
    pub stones: Vec<Cell>,
}

/// An AB guarantee of a lemma (Noshita 2005, §4; docs/SEMANTICS.md "AB-property").
#[derive(Clone, Debug)]
pub struct Guarantee {
    /// The opponent's move A.
    pub a: Cell,
    /// The owner's answer B.
    pub b: Cell,
    /// Where.
    pub span: Span,
}

/// A claim on a carrier, as written at one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Owner, pairs, who moves first.
    pub claim: Claim,
    /// A conjunction (`x - b & y - b`: every pair is joined, against one opponent) rather
    /// than a union (`|`: one of the pairs). A one-pair claim is both; it is stored as a
    /// union. See docs/SEMANTICS.md, "Conjunctions".
    pub conj: bool,
    /// The carrier.
    pub carrier: CellSet,
    /// Carrier cells listed more than once (the repeated mentions).
    pub dups: Vec<(Cell, Span)>,
    /// The whole fact.
    pub span: Span,
    /// The carrier as written.
    pub carrier_span: Span,
    /// Each endpoint as written (in pair order: a1, b1, a2, b2, …).
    pub end_spans: Vec<Span>,
    /// Each carrier cell and where it is written (first mention).
    pub cell_spans: Vec<(Cell, Span)>,
}

impl Fact {
    /// Where a carrier cell is written, or the carrier span.
    pub fn cell_span(&self, c: Cell) -> Span {
        self.cell_spans
            .iter()
            .find(|(x, _)| *x == c)
            .map_or(self.carrier_span, |(_, s)| *s)
    }

    /// Where an endpoint is written, or the whole fact.
    pub fn end_span(&self, c: Cell) -> Span {
        let ends = self.claim.pairs.iter().flat_map(|&(a, b)| [a, b]);
        ends.zip(self.end_spans.iter())
            .find(|(x, _)| *x == c)
            .map_or(self.span, |(_, s)| *s)
    }
}

/// A premise of a rule.
#[derive(Clone, Debug)]
pub enum Premise {
    /// Written inline; `stated_first` is the stated kind (`Some(true)` = VSC), if any.
    Inline {
        /// The claim (its `owner_first` is meaningless when `stated_first` is `None`).
        fact: Fact,
        /// The stated kind.
        stated_first: Option<bool>,
    },
    /// An earlier step, by label.
    Step {
        /// Index into the block's steps.
        index: usize,
        /// Where the label is written.
        span: Span,
    },
}

impl Premise {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            Premise::Inline { fact, .. } => fact.span,
            Premise::Step { span, .. } => *span,
        }
    }
}

/// The rule a step names.
#[derive(Clone, Debug)]
pub enum Just {
    /// Exhaustive search (the default).
    Search,
    /// Anshelevich's AND rule.
    And(Vec<Premise>),
    /// Anshelevich's OR rule.
    Or(Vec<Premise>),
    /// Noshita's rule (1).
    Rule1(Premise),
    /// Noshita's rule (2).
    Rule2(Premise, Premise),
    /// Monotonicity.
    Mono(Premise),
    /// Lemma use: the lemmas named, each with its (optional) named placement.
    Lemma(Vec<LemmaRef>),
}

/// A lemma named after `by`.
#[derive(Clone, Debug)]
pub struct LemmaRef {
    /// The lemma's name.
    pub name: String,
    /// Where it is named (with its placement).
    pub span: Span,
    /// `under ..`: symmetry words (`id`, `rot180`, `mirror`, `vmirror`, `swap`), composed
    /// right to left as written (`under swap rot180` = swap after rot180). Empty: any.
    pub under: Vec<String>,
    /// `at NAME = CELL`: the lemma's cell (by its name in the lemma) and its image.
    pub at: Option<(String, Cell, Span)>,
}

impl Just {
    /// The rule's name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            Just::Search => "search",
            Just::And(_) => "AND",
            Just::Or(_) => "OR",
            Just::Rule1(_) => "rule (1)",
            Just::Rule2(..) => "rule (2)",
            Just::Mono(_) => "monotonicity",
            Just::Lemma(_) => "lemma",
        }
    }
}

/// One step: a conclusion and its justification.
#[derive(Clone, Debug)]
pub struct Step {
    /// `label:`.
    pub label: Option<String>,
    /// The conclusion.
    pub fact: Fact,
    /// Its justification.
    pub just: Just,
    /// The whole step.
    pub span: Span,
    /// Where the rule is named (the whole step for the default `by search`).
    pub rule_span: Span,
}

/// Display names for cells: declared names first (`x`, `16`, `y`), else the notation.
#[derive(Clone, Debug)]
pub struct CellNames {
    /// The board.
    pub board: Board,
    /// The notation.
    pub notation: Notation,
    /// Declared names.
    pub map: HashMap<Cell, String>,
}

impl CellNames {
    /// No declared names.
    pub fn plain(board: Board, notation: Notation) -> CellNames {
        CellNames {
            board,
            notation,
            map: HashMap::new(),
        }
    }

    /// The name of one cell.
    pub fn name(&self, c: Cell) -> String {
        self.map
            .get(&c)
            .cloned()
            .unwrap_or_else(|| self.board.cell_name(c, self.notation))
    }

    /// Names of a set, sorted (numbers numerically), comma-separated, in brackets.
    pub fn set(&self, s: &CellSet) -> String {
        format!("[{}]", self.list(s).join(", "))
    }

    /// Names of a set, sorted.
    pub fn list(&self, s: &CellSet) -> Vec<String> {
        let mut v: Vec<(Option<u64>, usize, String)> = s
            .iter()
            .map(|c| {
                let n = self.name(c);
                (n.parse::<u64>().ok(), c.index(), n)
            })
            .collect();
        v.sort_by(|a, b| match (a.0, b.0) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.1.cmp(&b.1),
        });
        v.into_iter().map(|t| t.2).collect()
    }

    /// `a - b | c - d`.
    pub fn claim(&self, c: &Claim) -> String {
        c.pairs
            .iter()
            .map(|&(a, b)| format!("{} - {}", self.name(a), self.name(b)))
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// A fact's pairs: `a - b | c - d` for a union, `a - b & c - d` for a conjunction.
    pub fn pairs_of(&self, f: &Fact) -> String {
        if !f.conj {
            return self.claim(&f.claim);
        }
        f.claim
            .pairs
            .iter()
            .map(|&(a, b)| format!("{} - {}", self.name(a), self.name(b)))
            .collect::<Vec<_>>()
            .join(" & ")
    }

    /// A fact as [`Self::fact`] writes it, with `&` between the pairs of a conjunction.
    pub fn fact_of(&self, f: &Fact) -> String {
        if !f.conj {
            return self.fact(&f.claim, &f.carrier);
        }
        let pairs = self.pairs_of(f);
        let mut s = format!("{pairs} on {}", self.set(&f.carrier));
        if f.claim.owner == crate::board::Colour::White {
            s.push_str(" for white");
        }
        if f.claim.owner_first {
            s.push_str(&format!(" first {}", f.claim.owner));
        }
        s
    }

    /// A fact in the paper's notation when it has one pair: `(x, [16, 19], 15) VC`;
    /// otherwise `a - b | c - d on [..]` with `first` for a semi.
    pub fn fact(&self, claim: &Claim, carrier: &CellSet) -> String {
        let owner = if claim.owner == crate::board::Colour::White {
            " for white"
        } else {
            ""
        };
        if claim.pairs.len() == 1 {
            let (a, b) = claim.pairs[0];
            format!(
                "({}, {}, {}) {}{}",
                self.name(a),
                self.set(carrier),
                self.name(b),
                if claim.owner_first { "VSC" } else { "VC" },
                owner
            )
        } else {
            format!(
                "{} on {}{}{}",
                self.claim(claim),
                self.set(carrier),
                owner,
                if claim.owner_first {
                    format!(" first {}", claim.owner)
                } else {
                    String::new()
                }
            )
        }
    }
}

/// A node of an elaborated proof tree. Every node carries its position.
#[derive(Clone, Debug)]
pub enum TreeNode {
    /// Black plays `cell`; `next` is White to move.
    Black {
        /// The move.
        cell: Cell,
        /// The position before the move.
        position: Position,
        /// Where.
        span: Span,
        /// What follows (White to move).
        next: Box<TreeNode>,
    },
    /// White to move: precluding analyses and cases.
    White {
        /// The position.
        position: Position,
        /// Where.
        span: Span,
        /// `preclude by z { .. }`.
        precludes: Vec<Preclude>,
        /// One entry per White move named in a `case`.
        cases: Vec<Case>,
    },
    /// White to move: `goto NAME`, the shared position `shared[target]` of the strategy must
    /// be exactly this position (docs/SEMANTICS.md, "Shared positions").
    Goto {
        /// The index of the shared position in [`Block::shared`].
        target: usize,
        /// `under rot180`: this position is the shared one turned by 180°.
        rotated: bool,
        /// The position reached (White to move).
        position: Position,
        /// Where (the `goto NAME` words).
        span: Span,
    },
    /// White to move; the steps must derive Black's `t - b`.
    Leaf {
        /// The position.
        position: Position,
        /// Where.
        span: Span,
        /// The derivation.
        steps: Vec<Step>,
        /// Fill-in stated before the steps (applied in order; the steps are about the filled
        /// position).
        fills: Vec<Fill>,
    },
}

/// A fill-in statement of a leaf or precluding analysis (docs/SEMANTICS.md, "Fill-in in a
/// leaf"): `fill dead [..]` gives a dead set a colour, `fill captured C [a, b]` a pair
/// captured by C to C.
#[derive(Clone, Debug)]
pub struct Fill {
    /// A captured pair (else a dead set).
    pub captured: bool,
    /// The colour the cells receive (a captured pair's captor).
    pub colour: Colour,
    /// The cells.
    pub cells: CellSet,
    /// Where.
    pub span: Span,
}

/// `position NAME black [..] white [..] { .. }`: a White-to-move position of a strategy with
/// its proof, checked once however many `goto NAME` refer to it.
#[derive(Clone, Debug)]
pub struct SharedPosition {
    /// Its name.
    pub name: String,
    /// The whole block.
    pub span: Span,
    /// `position NAME` (where to point at it).
    pub head: Span,
    /// The position: the strategy's with the listed stones (White to move).
    pub position: Position,
    /// Its proof (a White node or a leaf).
    pub tree: TreeNode,
}

/// A precluding analysis: a fictitious Black move and a derivation of `t - b` after it.
#[derive(Clone, Debug)]
pub struct Preclude {
    /// The fictitious move.
    pub z: Cell,
    /// Where.
    pub span: Span,
    /// The position with z played (White to move).
    pub position: Position,
    /// The derivation.
    pub steps: Vec<Step>,
    /// Fill-in stated before the steps.
    pub fills: Vec<Fill>,
}

/// One White move of a `case` and Black's reply.
#[derive(Clone, Debug)]
pub struct Case {
    /// White's move.
    pub white: Cell,
    /// Where the move is written.
    pub span: Span,
    /// Black's reply (a `Black` node), in the position after White's move.
    pub reply: TreeNode,
    /// Written `| *`: the reply also answers every empty cell outside its proof set
    /// (docs/SEMANTICS.md, "Proof-set pruning in a tree").
    pub rest: bool,
}
