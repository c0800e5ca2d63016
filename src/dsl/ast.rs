//! The abstract syntax tree of a `.hexp` file, straight from the parser: words are unresolved
//! (a [`Name`] may be a declared name, a cell or a border), and every node carries the byte
//! [`Span`] of its source text so later passes can point at it.

#![allow(clippy::large_enum_variant)] // AST nodes are built once and read once.

use serde::Serialize;

/// A byte range `start..end` in one source file.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash, Serialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// True for an empty span.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// A word as written: a cell (`d4`, `44`), a border (`t`), a number or a declared name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Name {
    /// The text.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// A colour keyword.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColourWord {
    /// `black`
    Black,
    /// `white`
    White,
}

/// A whole file.
#[derive(Clone, Debug)]
pub struct File {
    /// `board NxM [notation K]`.
    pub board: BoardDecl,
    /// Everything after the header, in order.
    pub statements: Vec<Statement>,
}

/// The board header.
#[derive(Clone, Debug)]
pub struct BoardDecl {
    /// The size text, e.g. `7x7`.
    pub size: Name,
    /// The notation keyword, if given.
    pub notation: Option<(NotationWord, Span)>,
    /// The whole header.
    pub span: Span,
}

/// `letters` or `digits`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NotationWord {
    /// `letters`: `d4`.
    Letters,
    /// `digits`: Noshita's `44`.
    Digits,
}

/// A top-level statement.
#[derive(Clone, Debug)]
pub enum Statement {
    /// `use "file"`.
    Use {
        /// The path as written.
        path: String,
        /// Where.
        span: Span,
    },
    /// `use templates`: the certified template library's records become lemmas.
    UseTemplates(Span),
    /// `notation letters|digits`.
    Notation(NotationWord, Span),
    /// A declaration.
    Setup(Setup),
    /// `lemma NAME "title" { … }`.
    Lemma(Lemma),
    /// `derive NAME "title" { … }`.
    Derive(Derive),
    /// `strategy NAME "title" { … }`.
    Strategy(Strategy),
}

/// A declaration: names, numbered cells, cell sets, stones.
#[derive(Clone, Debug)]
pub enum Setup {
    /// `cell x = 44`.
    Cell {
        /// The new name.
        name: Name,
        /// What it names.
        target: Name,
        /// Where.
        span: Span,
    },
    /// `cells { 1 = c3, 2 = d3 }`.
    Cells {
        /// The bindings.
        bindings: Vec<(Name, Name)>,
        /// Where.
        span: Span,
    },
    /// `set S = [..]`.
    Set {
        /// The new name.
        name: Name,
        /// The cells.
        cells: CellList,
        /// Where.
        span: Span,
    },
    /// `black x, h8 as a` / `white c3`.
    Stones {
        /// Whose stones.
        colour: ColourWord,
        /// Each stone and an optional new name for it.
        stones: Vec<(Name, Option<Name>)>,
        /// Where.
        span: Span,
    },
}

/// `[a, b, c]`.
#[derive(Clone, Debug)]
pub struct CellList {
    /// The items in order (duplicates kept: the elaborator reports them).
    pub items: Vec<Name>,
    /// Where, brackets included.
    pub span: Span,
}

/// A carrier: an explicit list or the name of a `set`.
#[derive(Clone, Debug)]
pub enum CarrierSpec {
    /// `[..]`.
    List(CellList),
    /// A `set` name.
    Named(Name),
}

impl CarrierSpec {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            CarrierSpec::List(l) => l.span,
            CarrierSpec::Named(n) => n.span,
        }
    }
}

/// `a - b | c - d` with options.
#[derive(Clone, Debug)]
pub struct ClaimAst {
    /// The pairs.
    pub pairs: Vec<(Name, Name)>,
    /// Written with `&`: a conjunction (every pair), not a union (one pair).
    pub conj: bool,
    /// Where `|` and `&` are mixed in one claim (an error), if they are.
    pub mixed: Option<Span>,
    /// `for white`.
    pub owner: Option<(ColourWord, Span)>,
    /// `first black`.
    pub first: Option<(ColourWord, Span)>,
    /// The pairs' text span.
    pub span: Span,
}

/// `VC` or `VSC`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KindWord {
    /// Virtual connection: the opponent moves first.
    Vc,
    /// Virtual semi-connection: the owner moves first.
    Vsc,
}

/// `(x, [16, 19], 15)`.
#[derive(Clone, Debug)]
pub struct Triple {
    /// First end.
    pub a: Name,
    /// The carrier.
    pub carrier: CellList,
    /// Second end.
    pub b: Name,
    /// Where, parentheses included.
    pub span: Span,
}

/// A stated fact: a triple with its kind, or a general claim on a carrier.
#[derive(Clone, Debug)]
pub enum FactAst {
    /// `(x, [..], y) VC [for white]`.
    Triple {
        /// The triple.
        triple: Triple,
        /// Its kind.
        kind: KindWord,
        /// `for white`.
        owner: Option<(ColourWord, Span)>,
        /// The whole fact.
        span: Span,
    },
    /// `a - b | c - d on [..]`.
    General {
        /// The claim.
        claim: ClaimAst,
        /// Its carrier.
        carrier: CarrierSpec,
        /// The whole fact.
        span: Span,
    },
}

impl FactAst {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            FactAst::Triple { span, .. } | FactAst::General { span, .. } => *span,
        }
    }
}

/// A premise of a rule: an inline triple or an earlier step's label.
#[derive(Clone, Debug)]
pub enum PremiseAst {
    /// A triple (its kind may be stated, as in the paper style).
    Triple {
        /// The triple.
        triple: Triple,
        /// The stated kind, if any.
        kind: Option<KindWord>,
        /// `for white`.
        owner: Option<(ColourWord, Span)>,
        /// Where.
        span: Span,
    },
    /// A label.
    Label(Name),
}

impl PremiseAst {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            PremiseAst::Triple { span, .. } => *span,
            PremiseAst::Label(n) => n.span,
        }
    }
}

/// The rule named after `by`.
#[derive(Clone, Debug)]
pub enum JustAst {
    /// `by search` (also the default).
    Search(Span),
    /// `by AND p q`.
    And(Vec<PremiseAst>, Span),
    /// `by OR p q ..`.
    Or(Vec<PremiseAst>, Span),
    /// `by rule1 p` (Noshita (1)).
    Rule1(PremiseAst, Span),
    /// `by rule2 p q` (Noshita (2)).
    Rule2(PremiseAst, PremiseAst, Span),
    /// `by mono p`.
    Mono(PremiseAst, Span),
    /// `by NAME [under SYM..] [at NAME = CELL], ..` — lemma use.
    Lemma(Vec<LemmaRefAst>, Span),
}

/// One lemma named after `by`, with an optional named placement.
#[derive(Clone, Debug)]
pub struct LemmaRefAst {
    /// The lemma.
    pub name: Name,
    /// `under rot180 swap`: the symmetry words.
    pub under: Vec<Name>,
    /// `at x = e5`: a cell of the lemma and its image.
    pub at: Option<(Name, Name)>,
    /// Where.
    pub span: Span,
}

impl JustAst {
    /// Where.
    pub fn span(&self) -> Span {
        match self {
            JustAst::Search(s)
            | JustAst::And(_, s)
            | JustAst::Or(_, s)
            | JustAst::Rule1(_, s)
            | JustAst::Rule2(_, _, s)
            | JustAst::Mono(_, s)
            | JustAst::Lemma(_, s) => *s,
        }
    }
}

/// One step of a derivation or proof.
#[derive(Clone, Debug)]
pub struct StepAst {
    /// `label:`.
    pub label: Option<Name>,
    /// The body.
    pub body: StepBody,
    /// Where.
    pub span: Span,
}

/// What a step says.
#[derive(Clone, Debug)]
pub enum StepBody {
    /// `FACT [by RULE]`.
    Rule {
        /// The conclusion.
        fact: FactAst,
        /// The justification (`None` = by search).
        just: Option<JustAst>,
    },
    /// `P is VC, Q is VC. Apply AND: C is VSC.` (the paper's wording).
    Paper {
        /// The premises with their stated kinds.
        premises: Vec<PremiseAst>,
        /// `AND` or `OR`.
        rule: PaperRule,
        /// Where the rule name is.
        rule_span: Span,
        /// The conclusion.
        fact: FactAst,
    },
    /// `QED` (no content).
    Qed,
}

/// The rule of a paper-style step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PaperRule {
    /// AND.
    And,
    /// OR.
    Or,
}

/// A setup declaration or a step, in order (inside derivations and proofs).
#[derive(Clone, Debug)]
pub enum BlockItem {
    /// A declaration.
    Setup(Setup),
    /// A step.
    Step(StepAst),
}

/// `lemma NAME "title" { … }`.
#[derive(Clone, Debug)]
pub struct Lemma {
    /// The lemma's name.
    pub name: Name,
    /// The title string.
    pub title: Option<String>,
    /// Declarations.
    pub setup: Vec<Setup>,
    /// `diagram { .. }`: the raw body and its span.
    pub diagram: Option<(String, Span)>,
    /// `carrier [..]`.
    pub carrier: Option<CellList>,
    /// `claim ..` (with an optional `on` carrier and `by search`).
    pub claim: Option<ClaimDecl>,
    /// `guarantee white A => black B` (AB-property): (colour, cell) twice, and the span.
    pub guarantees: Vec<(ColourWord, Name, ColourWord, Name, Span)>,
    /// `assume white A => black B`: the claim is proved in the assisted game (the other side
    /// of the AB-property), same shape as `guarantees`.
    pub assumes: Vec<(ColourWord, Name, ColourWord, Name, Span)>,
    /// `proof { .. }`.
    pub proof: Option<(Vec<BlockItem>, Span)>,
    /// `proof { white { .. } }`: a proof tree inside the lemma's carrier (White first).
    pub tree: Option<(TreeNode, Span)>,
    /// Repeated sections, reported by the elaborator: (what, where).
    pub repeated: Vec<(&'static str, Span)>,
    /// Where.
    pub span: Span,
}

/// `claim a - b [on ..] [by search]`.
#[derive(Clone, Debug)]
pub struct ClaimDecl {
    /// The claim.
    pub claim: ClaimAst,
    /// `on ..`.
    pub carrier: Option<CarrierSpec>,
    /// Where.
    pub span: Span,
}

/// `derive NAME "title" { … }`.
#[derive(Clone, Debug)]
pub struct Derive {
    /// The name, if any.
    pub name: Option<Name>,
    /// The title string.
    pub title: Option<String>,
    /// Declarations and steps in order.
    pub items: Vec<BlockItem>,
    /// Where.
    pub span: Span,
}

/// `strategy NAME "title" { … }` — a proof tree (parsed, not yet checked).
#[derive(Clone, Debug)]
pub struct Strategy {
    /// The name, if any.
    pub name: Option<Name>,
    /// The title string.
    pub title: Option<String>,
    /// `cell`, `cells` and `set` declarations at its start.
    pub setup: Vec<Setup>,
    /// The tree.
    pub body: Vec<TreeNode>,
    /// `position NAME black [..] white [..] { .. }`: shared positions, after the tree.
    pub shared: Vec<SharedPosition>,
    /// `[black M] image "FILE" under SYM`: the body is another file's strategy turned.
    pub image: Option<ImageOf>,
    /// Where.
    pub span: Span,
}

/// `[black M] image "FILE" under SYM` as a strategy's whole body (parsed, not yet checked).
#[derive(Clone, Debug)]
pub struct ImageOf {
    /// `black M`: the move played first (then the image is of the position after the used
    /// strategy's root move, White to move).
    pub black: Option<Name>,
    /// The used file, as written.
    pub path: String,
    /// The symmetry word.
    pub sym: Name,
    /// Where (the whole `image` statement).
    pub span: Span,
}

/// `position NAME black [..] white [..] { .. }`: a position shared by several branches of a
/// strategy (the strategy's position plus these stones, White to move), proved once; a
/// `black M goto NAME` refers to it (docs/SEMANTICS.md, "Shared positions").
#[derive(Clone, Debug)]
pub struct SharedPosition {
    /// Its name.
    pub name: Name,
    /// The Black stones added to the strategy's position.
    pub black: Option<CellList>,
    /// The White stones added to the strategy's position.
    pub white: Option<CellList>,
    /// The proof (White to move): a White node or a leaf's steps.
    pub body: Vec<TreeNode>,
    /// Where.
    pub span: Span,
}

/// A node of a proof tree.
#[derive(Clone, Debug)]
pub enum TreeNode {
    /// `black CELL [as NAME] [{ .. }]`.
    Black {
        /// The move.
        cell: Name,
        /// Its new name.
        alias: Option<Name>,
        /// What follows.
        body: Vec<TreeNode>,
        /// `goto NAME`: what follows is the shared position NAME.
        goto: Option<Name>,
        /// `goto NAME under SYM`: the symmetry word (only `rot180` is accepted).
        goto_under: Option<Name>,
        /// Where.
        span: Span,
    },
    /// `white { preclude ..; case .. }`.
    White {
        /// `preclude by Z { .. }`: the fictitious move and its argument.
        precludes: Vec<(Name, Vec<TreeNode>, Span)>,
        /// `case A | B [| *] => black ..`; the flag is the `| *` (the reply also answers every
        /// White move outside its proof set).
        cases: Vec<(Vec<Name>, Box<TreeNode>, Span, bool)>,
        /// Where.
        span: Span,
    },
    /// A step of a leaf or of a precluding analysis.
    Step(StepAst),
    /// `fill dead [..]` / `fill captured COLOUR [a, b]` at the start of a leaf or precluding
    /// analysis (docs/SEMANTICS.md, "Fill-in in a leaf").
    Fill(FillAst),
}

/// `fill dead [black|white] [..]` or `fill captured black|white [a, b]`.
#[derive(Clone, Debug)]
pub struct FillAst {
    /// `captured` (else `dead`).
    pub captured: bool,
    /// The colour written, if any (`dead` defaults to black).
    pub colour: Option<ColourWord>,
    /// The cells.
    pub cells: CellList,
    /// Where.
    pub span: Span,
}
