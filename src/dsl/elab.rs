//! Pass 2: elaboration. AST → [`Module`]: names resolved to cells, diagrams read, stones
//! placed, every claim checked to be well formed in its position. All problems are collected
//! as [`Diag`]s with spans; a file with any error is not checked.
//!
//! Scopes: a block (lemma, derivation) sees its own declarations, then the file's. A
//! declared name may not look like a cell or border name of the file's notation (so `16` can
//! number a cell in `letters` files but not in `digits` files, where it is a cell).
//! Positions: a derivation sees the file's stones plus its own; a lemma is self-contained and
//! sees only its own stones and diagram.

use super::ast::{self, Name, Span};
use super::diag::DiagCode;
use super::diag::{Diag, FileId};
use super::model::*;
use crate::board::{Board, Cell, CellSet, Colour, Notation, ParseCellError};
use crate::claim::{Claim, SubGame};
use crate::position::Position;
use std::collections::HashMap;

/// A carrier as read: the set, repeated mentions, and where each cell is written.
type CarrierParts = (CellSet, Vec<(Cell, Span)>, Vec<(Cell, Span)>);

/// Where a template-library lemma (`use templates`) is defined, in a [`LemmaTable`].
const LIBRARY: &str = "the template library";

/// Lemma names visible from other files: name → where it is defined (`file:line:column`).
pub type LemmaTable = HashMap<String, String>;

#[derive(Clone, Default, Debug)]
struct Scope {
    cells: HashMap<String, (Cell, Span)>,
    sets: HashMap<String, (CellSet, Span)>,
    /// Declaration order, for display names.
    order: Vec<(Cell, String)>,
    black: CellSet,
    white: CellSet,
    stone_spans: HashMap<Cell, Span>,
}

struct Elab {
    file: FileId,
    board: Board,
    notation: Notation,
    diags: Vec<Diag>,
    global: Scope,
    lemmas: LemmaTable,
    /// While elaborating a strategy: its shared positions' names (`goto NAME`).
    gotos: Option<HashMap<String, usize>>,
    /// While elaborating a shared position: its index (the source of its `goto` edges).
    in_shared: Option<usize>,
    /// `goto` edges of the strategy being elaborated: (from shared position, to, where).
    goto_edges: Vec<(Option<usize>, usize, Span)>,
    /// The files named by `use "…"`, as written, with their ids (for `image "…"`).
    use_paths: Vec<(String, FileId)>,
}

/// Elaborates one parsed file. `imported` holds the lemmas of the files it uses.
pub fn elaborate(
    file: FileId,
    name: &str,
    ast: &ast::File,
    imported: &LemmaTable,
    uses: Vec<FileId>,
) -> Result<Module, Vec<Diag>> {
    let mut diags = Vec::new();
    let Some((board, notation)) = board_and_notation(file, ast, &mut diags) else {
        return Err(diags);
    };
    let mut e = Elab {
        file,
        board,
        notation,
        diags,
        global: Scope::default(),
        lemmas: imported.clone(),
        gotos: None,
        in_shared: None,
        goto_edges: Vec::new(),
        // The loader pushes one id per `use "…"`, in order (a file is elaborated only when
        // all its uses loaded).
        use_paths: ast
            .statements
            .iter()
            .filter_map(|st| match st {
                ast::Statement::Use { path, .. } => Some(path.clone()),
                _ => None,
            })
            .zip(uses.iter().copied())
            .collect(),
    };
    // Lemma names first, so blocks may refer to lemmas defined later in the file.
    e.declare_lemmas(ast, name);
    // File-level declarations (in order, before any block is elaborated).
    for st in &ast.statements {
        if let ast::Statement::Setup(s) = st {
            let mut g = std::mem::take(&mut e.global);
            e.setup(&mut g, s);
            e.global = g;
        }
    }
    // `use templates`: the library's records, as lemmas checked before the file's blocks.
    let mut blocks = e.template_blocks(ast);
    for st in &ast.statements {
        let b = match st {
            ast::Statement::Lemma(l) => e.lemma(l),
            ast::Statement::Derive(d) => e.derive(d),
            ast::Statement::Strategy(s) => e.strategy(s),
            _ => None,
        };
        blocks.extend(b);
    }
    if e.diags.is_empty() {
        Ok(Module {
            file,
            board,
            notation,
            blocks,
            uses,
        })
    } else {
        Err(e.diags)
    }
}

/// The file's board and notation (the last `notation` statement wins); `None` with the error
/// in `diags` when the size is not a board or digits do not fit it.
fn board_and_notation(
    file: FileId,
    ast: &ast::File,
    diags: &mut Vec<Diag>,
) -> Option<(Board, Notation)> {
    let board = match Board::parse(&ast.board.size.text) {
        Ok(b) => b,
        Err(e) => {
            diags.push(Diag::error(
                file,
                DiagCode::Board,
                e.to_string(),
                ast.board.size.span,
                "this board size",
            ));
            return None;
        }
    };
    let mut notation = match ast.board.notation {
        Some((ast::NotationWord::Digits, _)) => Notation::Digits,
        _ => Notation::Letters,
    };
    for st in &ast.statements {
        if let ast::Statement::Notation(w, sp) = st {
            notation = match w {
                ast::NotationWord::Digits => Notation::Digits,
                ast::NotationWord::Letters => Notation::Letters,
            };
            let _ = sp;
        }
    }
    if notation == Notation::Digits && (board.cols() > 9 || board.rows() > 9) {
        let sp = ast.board.notation.map_or(ast.board.span, |n| n.1);
        diags.push(
            Diag::error(
                file,
                DiagCode::Notation,
                format!("digit notation needs a board of at most 9x9; this one is {board}"),
                sp,
                "digits notation",
            )
            .with_help("use `notation letters` (cells a1 … s19)"),
        );
        return None;
    }
    Some((board, notation))
}

impl Elab {
    /// Records the names of the file's lemmas (an error for a name defined twice).
    fn declare_lemmas(&mut self, ast: &ast::File, name: &str) {
        // Lemma names first, so blocks may refer to lemmas defined later in the file.
        for st in &ast.statements {
            if let ast::Statement::Lemma(l) = st {
                if let Some(other) = self.lemmas.get(&l.name.text) {
                    let msg = format!("lemma `{}` is already defined in {other}", l.name.text);
                    self.err(
                        DiagCode::DuplicateLemma,
                        msg,
                        l.name.span,
                        "defined again here",
                    );
                } else {
                    self.lemmas.insert(l.name.text.clone(), name.to_string());
                }
            }
        }
    }

    /// The template library's records as lemma blocks, when the file says `use templates`.
    fn template_blocks(&mut self, ast: &ast::File) -> Vec<Block> {
        let mut blocks = Vec::new();
        if let Some(sp) = ast.statements.iter().find_map(|st| match st {
            ast::Statement::UseTemplates(sp) => Some(*sp),
            _ => None,
        }) {
            for b in super::template_import::template_lemmas(self.board, self.notation, sp) {
                let n = b.name.clone().expect("a template has a name");
                if let Some(other) = self.lemmas.get(&n) {
                    let msg =
                        format!("the template library's lemma `{n}` is already defined in {other}");
                    self.err(DiagCode::DuplicateLemma, msg, sp, "templates used here");
                } else {
                    self.lemmas.insert(n, LIBRARY.into());
                    blocks.push(b);
                }
            }
        }
        blocks
    }
}

/// The lemma names a file defines, with where (for files that `use` it).
pub fn lemma_names(ast: &ast::File) -> Vec<(String, Span)> {
    ast.statements
        .iter()
        .filter_map(|s| match s {
            ast::Statement::Lemma(l) => Some((l.name.text.clone(), l.name.span)),
            _ => None,
        })
        .collect()
}

fn colour_of(w: ast::ColourWord) -> Colour {
    match w {
        ast::ColourWord::Black => Colour::Black,
        ast::ColourWord::White => Colour::White,
    }
}

impl Elab {
    /// The lemma a step names: the name as written, or a template-library lemma's name
    /// written in another case when no other lemma has that name in any case. Else an error
    /// with the nearest known name, if one is near.
    fn lemma_name(&mut self, n: &Name) -> Option<String> {
        if self.lemmas.contains_key(&n.text) {
            return Some(n.text.clone());
        }
        let same: Vec<(&String, &String)> = self
            .lemmas
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(&n.text))
            .collect();
        if let [(k, origin)] = same.as_slice() {
            if origin.as_str() == LIBRARY {
                return Some(k.to_string());
            }
        }
        let mut d = Diag::error(
            self.file,
            DiagCode::UnknownLemma,
            format!("unknown lemma `{}`", n.text),
            n.span,
            "no lemma of this name",
        );
        if let Some(near) =
            super::diag::closest_name(&n.text, self.lemmas.keys().map(String::as_str))
        {
            d = d.with_help(format!("did you mean `{near}`?"));
        }
        self.diags.push(d);
        None
    }

    fn err(
        &mut self,
        code: DiagCode,
        msg: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) {
        self.diags
            .push(Diag::error(self.file, code, msg, span, label));
    }

    fn cell_text(&self, c: Cell) -> String {
        self.board.cell_name(c, self.notation)
    }

    // -----------------------------------------------------------------------------------------
    // Names.

    /// True when `text` reads as a cell or border name in this file's notation.
    fn looks_like_cell(&self, text: &str) -> bool {
        !matches!(
            self.board.parse_cell(text, self.notation),
            Err(ParseCellError::Syntax(_))
        )
    }

    /// Resolves a name to a cell or border; reports and returns `None` on failure.
    fn resolve(&mut self, n: &Name, local: Option<&Scope>) -> Option<Cell> {
        if let Some(s) = local {
            if let Some((c, _)) = s.cells.get(&n.text) {
                return Some(*c);
            }
        }
        if let Some((c, _)) = self.global.cells.get(&n.text) {
            return Some(*c);
        }
        match self.board.parse_cell(&n.text, self.notation) {
            Ok(c) => Some(c),
            Err(ParseCellError::OffBoard(..)) => {
                let msg = format!("cell `{}` is off the {} board", n.text, self.board);
                self.err(DiagCode::OffBoard, msg, n.span, "not on the board");
                None
            }
            Err(ParseCellError::DigitsTooLarge(..)) => {
                let msg = format!("digit names need a board of at most 9x9 (`{}`)", n.text);
                self.err(DiagCode::Notation, msg, n.span, "digit name");
                None
            }
            Err(ParseCellError::Syntax(_)) => {
                let is_set = local.is_some_and(|s| s.sets.contains_key(&n.text))
                    || self.global.sets.contains_key(&n.text);
                let mut d = Diag::error(
                    self.file,
                    DiagCode::UnknownName,
                    if is_set {
                        format!("`{}` is a cell set, not a cell", n.text)
                    } else {
                        format!("unknown name `{}`", n.text)
                    },
                    n.span,
                    if is_set {
                        "a set"
                    } else {
                        "not a cell, a border or a declared name"
                    },
                );
                if !is_set {
                    d = d.with_help(if n.text.chars().all(|c| c.is_ascii_digit()) {
                        match self.notation {
                            Notation::Letters => format!(
                                "numbers name cells only when declared, e.g. `cells {{ {} = c3 }}`, or in `notation digits`",
                                n.text
                            ),
                            Notation::Digits => "digit cell names have two digits: column, row (`44`)".to_string(),
                        }
                    } else {
                        format!(
                            "declare it, e.g. `cell {} = {}`",
                            n.text,
                            match self.notation {
                                Notation::Letters => "d4",
                                Notation::Digits => "44",
                            }
                        )
                    });
                }
                self.diags.push(d);
                None
            }
        }
    }

    /// Resolves a name that must be an on-board cell (not a border).
    fn resolve_cell(&mut self, n: &Name, local: Option<&Scope>, what: &str) -> Option<Cell> {
        let c = self.resolve(n, local)?;
        if c.is_border() {
            let msg = format!("`{}` is a border; {what} must be a cell", n.text);
            self.err(DiagCode::Border, msg, n.span, "a border");
            return None;
        }
        Some(c)
    }

    /// Declares in `local` every move alias (`name = cell`) of the tree `roots`; one name for two
    /// different moves is an error.
    fn declare_aliases(&mut self, local: &mut Scope, roots: &[ast::TreeNode]) {
        let mut aliases = Vec::new();
        collect_aliases(roots, &mut |n: &Name, cell: &Name| {
            aliases.push((n.clone(), cell.clone()));
        });
        for (n, cell) in &aliases {
            if let Some(c) = self.resolve_cell(cell, Some(local), "a move") {
                if local.cells.get(&n.text).is_some_and(|(c0, _)| *c0 != c) {
                    let msg = format!("`{}` names two different moves", n.text);
                    self.err(DiagCode::DuplicateName, msg, n.span, "again here");
                } else if !local.cells.contains_key(&n.text) {
                    self.declare(local, n, c);
                }
            }
        }
    }

    fn declare(&mut self, scope: &mut Scope, n: &Name, c: Cell) {
        if self.looks_like_cell(&n.text) {
            let msg = format!(
                "`{}` already names a cell or border in {} notation; it cannot be declared",
                n.text,
                match self.notation {
                    Notation::Letters => "letters",
                    Notation::Digits => "digits",
                }
            );
            let mut d = Diag::error(
                self.file,
                DiagCode::Shadowing,
                msg,
                n.span,
                "would shadow a cell name",
            );
            if self.notation == Notation::Digits && n.text.chars().all(|c| c.is_ascii_digit()) {
                d = d.with_help("number cells in a `notation letters` file, or use other names");
            }
            self.diags.push(d);
            return;
        }
        if let Some((old, sp)) = scope.cells.get(&n.text).copied() {
            if old != c {
                let msg = format!("`{}` is declared twice", n.text);
                let d = Diag::error(
                    self.file,
                    DiagCode::DuplicateName,
                    msg,
                    n.span,
                    "declared again here",
                )
                .with_label(sp, "first declared here");
                self.diags.push(d);
            }
            return;
        }
        if scope.sets.contains_key(&n.text) {
            let msg = format!("`{}` is already a cell set", n.text);
            self.err(DiagCode::DuplicateName, msg, n.span, "declared again here");
            return;
        }
        scope.cells.insert(n.text.clone(), (c, n.span));
        scope.order.push((c, n.text.clone()));
    }

    /// Applies a declaration to `scope` (targets resolve in `scope`, then the file's scope).
    fn setup(&mut self, scope: &mut Scope, s: &ast::Setup) {
        match s {
            ast::Setup::Cell { name, target, .. } => {
                let snapshot = scope.clone();
                if let Some(c) = self.resolve(target, Some(&snapshot)) {
                    self.declare(scope, name, c);
                }
            }
            ast::Setup::Cells { bindings, .. } => {
                for (n, t) in bindings {
                    let snapshot = scope.clone();
                    if let Some(c) = self.resolve_cell(t, Some(&snapshot), "a numbered cell") {
                        if let Some(other) = snapshot.order.iter().find(|(x, nm)| {
                            *x == c
                                && nm != &n.text
                                && nm.parse::<u64>().is_ok()
                                && n.text.parse::<u64>().is_ok()
                        }) {
                            let msg = format!(
                                "cell {} is numbered twice ({} and {})",
                                self.cell_text(c),
                                other.1,
                                n.text
                            );
                            self.err(DiagCode::DuplicateName, msg, t.span, "already numbered");
                            continue;
                        }
                        self.declare(scope, n, c);
                    }
                }
            }
            ast::Setup::Set { name, cells, .. } => {
                let snapshot = scope.clone();
                let mut set = CellSet::EMPTY;
                for it in &cells.items {
                    if let Some(c) = self.resolve_cell(it, Some(&snapshot), "a set member") {
                        set.insert(c);
                    }
                }
                if self.looks_like_cell(&name.text)
                    || scope.cells.contains_key(&name.text)
                    || scope.sets.contains_key(&name.text)
                {
                    let msg = format!(
                        "`{}` cannot name a set: it already names a cell or set",
                        name.text
                    );
                    self.err(DiagCode::DuplicateName, msg, name.span, "already a name");
                } else {
                    scope.sets.insert(name.text.clone(), (set, name.span));
                }
            }
            ast::Setup::Stones { colour, stones, .. } => {
                let col = colour_of(*colour);
                for (n, alias) in stones {
                    let snapshot = scope.clone();
                    let Some(c) = self.resolve_cell(n, Some(&snapshot), "a stone") else {
                        continue;
                    };
                    self.place(scope, col, c, n.span);
                    if let Some(a) = alias {
                        self.declare(scope, a, c);
                    }
                }
            }
        }
    }

    fn place(&mut self, scope: &mut Scope, col: Colour, c: Cell, span: Span) {
        let (mine, theirs) = match col {
            Colour::Black => (&mut scope.black, scope.white),
            Colour::White => (&mut scope.white, scope.black),
        };
        if theirs.contains(c) || mine.contains(c) {
            let prev = scope.stone_spans.get(&c).copied();
            let msg = format!("cell {} already holds a stone", self.cell_text(c));
            let mut d = Diag::error(
                self.file,
                DiagCode::Occupied,
                msg,
                span,
                "placed again here",
            );
            if let Some(p) = prev {
                d = d.with_label(p, "first placed here");
            }
            self.diags.push(d);
            return;
        }
        mine.insert(c);
        scope.stone_spans.insert(c, span);
    }

    fn names_for(&self, local: &Scope) -> CellNames {
        let mut n = CellNames::plain(self.board, self.notation);
        for (c, s) in &local.order {
            n.map.entry(*c).or_insert_with(|| s.clone());
        }
        for (c, s) in &self.global.order {
            n.map.entry(*c).or_insert_with(|| s.clone());
        }
        n
    }

    // -----------------------------------------------------------------------------------------
    // Claims.

    fn carrier_list(&mut self, l: &ast::CellList, local: &Scope) -> CarrierParts {
        let mut set = CellSet::EMPTY;
        let mut dups = Vec::new();
        let mut spans = Vec::new();
        for it in &l.items {
            if let Some(c) = self.resolve_cell(it, Some(local), "a carrier member") {
                if set.insert(c) {
                    spans.push((c, it.span));
                } else if !dups.iter().any(|d: &(Cell, Span)| d.0 == c) {
                    // Each repeated cell once, at its first repetition.
                    dups.push((c, it.span));
                }
            }
        }
        (set, dups, spans)
    }

    fn carrier_spec(&mut self, s: &ast::CarrierSpec, local: &Scope) -> CarrierParts {
        match s {
            ast::CarrierSpec::List(l) => self.carrier_list(l, local),
            ast::CarrierSpec::Named(n) => {
                if let Some((set, _)) = local
                    .sets
                    .get(&n.text)
                    .or_else(|| self.global.sets.get(&n.text))
                {
                    let spans = set.iter().map(|c| (c, n.span)).collect();
                    (*set, Vec::new(), spans)
                } else {
                    let msg = format!("unknown cell set `{}`", n.text);
                    let d = Diag::error(
                        self.file,
                        DiagCode::UnknownName,
                        msg,
                        n.span,
                        "not a declared set",
                    )
                    .with_help(format!(
                        "declare it with `set {} = [..]`, or write the cells in brackets",
                        n.text
                    ));
                    self.diags.push(d);
                    (CellSet::EMPTY, Vec::new(), Vec::new())
                }
            }
        }
    }

    /// Builds and validates a fact. `first` = who moves first (`None`: the opponent).
    #[allow(clippy::too_many_arguments)]
    fn make_fact(
        &mut self,
        pos: &Position,
        local: &Scope,
        pairs: &[(Name, Name)],
        owner: Colour,
        owner_first: bool,
        carrier: CarrierParts,
        carrier_span: Span,
        span: Span,
    ) -> Option<Fact> {
        let before = self.diags.len();
        let mut rp = Vec::new();
        let mut end_spans = Vec::new();
        for (a, b) in pairs {
            let ca = self.resolve(a, Some(local));
            let cb = self.resolve(b, Some(local));
            if let (Some(x), Some(y)) = (ca, cb) {
                if x == y {
                    let msg = format!("the pair `{} - {}` joins a cell to itself", a.text, b.text);
                    self.err(
                        DiagCode::BadPair,
                        msg,
                        a.span.join(b.span),
                        "same cell twice",
                    );
                }
                rp.push((x, y));
                end_spans.push(a.span);
                end_spans.push(b.span);
            }
        }
        let (set, dups, cell_spans) = carrier;
        // Carrier cells must be empty.
        for &(c, sp) in &cell_spans {
            if let Some(col) = pos.colour_at(c) {
                let msg = format!(
                    "carrier cell {} is not empty: it holds a {col} stone",
                    self.cell_text(c)
                );
                self.err(DiagCode::Occupied, msg, sp, format!("{col} stone here"));
            }
        }
        // Endpoints: the owner's, outside the carrier.
        for ((x, y), sps) in rp.iter().zip(end_spans.chunks(2)) {
            for (c, sp) in [(*x, sps[0]), (*y, sps[1])] {
                if let Some(col) = pos.colour_at(c) {
                    if col != owner {
                        let what = if c.is_border() { "border" } else { "stone" };
                        let msg = format!(
                            "endpoint {} is a {col} {what}, but the claim is {owner}'s",
                            self.cell_text(c)
                        );
                        let d = Diag::error(
                            self.file,
                            DiagCode::OpponentEndpoint,
                            msg,
                            sp,
                            format!("{col}'s"),
                        )
                        .with_help(if c.is_border() {
                            format!(
                                "{owner} joins {}",
                                match owner {
                                    Colour::Black => "t and b",
                                    Colour::White => "l and r",
                                }
                            )
                        } else {
                            "write `for white` after the claim for a White connection".to_string()
                        });
                        self.diags.push(d);
                    }
                }
                if set.contains(c) {
                    let msg = format!(
                        "endpoint {} lies in the claim's own carrier",
                        self.cell_text(c)
                    );
                    let d = Diag::error(
                        self.file,
                        DiagCode::EndpointInCarrier,
                        msg,
                        sp,
                        "endpoint",
                    )
                    .with_label(carrier_span, "carrier")
                    .with_help(
                        "an endpoint is a stone, a border or an empty cell outside the carrier",
                    );
                    self.diags.push(d);
                }
            }
        }
        if self.diags.len() > before || rp.is_empty() {
            return None;
        }
        let claim = Claim {
            owner,
            pairs: rp,
            owner_first,
        };
        if let Err(err) = SubGame::new(pos.clone(), set, claim.clone()) {
            self.err(DiagCode::BadClaim, err.to_string(), span, "this claim");
            return None;
        }
        Some(Fact {
            claim,
            conj: false,
            carrier: set,
            dups,
            span,
            carrier_span,
            end_spans,
            cell_spans,
        })
    }

    fn owner_first(&self, owner: Colour, first: Option<(ast::ColourWord, Span)>) -> bool {
        first.is_some_and(|(c, _)| colour_of(c) == owner)
    }

    /// Marks a fact written with `&` as a conjunction (a one-pair claim stays a plain VC);
    /// `|` and `&` mixed in one claim is an error.
    fn conj_fact(&mut self, f: Option<Fact>, claim: &ast::ClaimAst) -> Option<Fact> {
        if let Some(sp) = claim.mixed {
            self.err(
                DiagCode::MixedClaim,
                "a claim is a union (`|`: one of the pairs) or a conjunction (`&`: all of them), not both".to_string(),
                sp,
                "`|` and `&` mixed",
            );
            return None;
        }
        let mut f = f?;
        f.conj = claim.conj && f.claim.pairs.len() > 1;
        Some(f)
    }

    fn fact(&mut self, f: &ast::FactAst, pos: &Position, local: &Scope) -> Option<Fact> {
        match f {
            ast::FactAst::Triple {
                triple,
                kind,
                owner,
                span,
            } => {
                let owner = owner.map_or(Colour::Black, |o| colour_of(o.0));
                let car = self.carrier_list(&triple.carrier, local);
                self.make_fact(
                    pos,
                    local,
                    &[(triple.a.clone(), triple.b.clone())],
                    owner,
                    *kind == ast::KindWord::Vsc,
                    car,
                    triple.carrier.span,
                    *span,
                )
            }
            ast::FactAst::General {
                claim,
                carrier,
                span,
            } => {
                let owner = claim.owner.map_or(Colour::Black, |o| colour_of(o.0));
                let of = self.owner_first(owner, claim.first);
                let car = self.carrier_spec(carrier, local);
                let f = self.make_fact(
                    pos,
                    local,
                    &claim.pairs,
                    owner,
                    of,
                    car,
                    carrier.span(),
                    *span,
                );
                self.conj_fact(f, claim)
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Steps.

    fn steps(&mut self, items: &[&ast::StepAst], pos: &Position, local: &Scope) -> Vec<Step> {
        let mut out: Vec<Step> = Vec::new();
        let mut labels: HashMap<String, (usize, Span)> = HashMap::new();
        let all_labels: HashMap<String, Span> = items
            .iter()
            .filter_map(|s| s.label.as_ref().map(|l| (l.text.clone(), l.span)))
            .collect();
        for s in items {
            let before = self.diags.len();
            let step = match &s.body {
                ast::StepBody::Qed => continue,
                ast::StepBody::Rule { fact, just } => {
                    let f = self.fact(fact, pos, local);
                    let (j, rs) = match just {
                        None => (Some(Just::Search), fact.span()),
                        Some(j) => (self.just(j, pos, local, &labels, &all_labels), j.span()),
                    };
                    match (f, j) {
                        (Some(f), Some(j)) => Some(Step {
                            label: s.label.as_ref().map(|l| l.text.clone()),
                            fact: f,
                            just: j,
                            span: s.span,
                            rule_span: rs,
                        }),
                        _ => None,
                    }
                }
                ast::StepBody::Paper {
                    premises,
                    rule,
                    rule_span,
                    fact,
                } => {
                    let f = self.fact(fact, pos, local);
                    let ps: Vec<Option<Premise>> = premises
                        .iter()
                        .map(|p| self.premise(p, pos, local, &labels, &all_labels))
                        .collect();
                    if let (Some(f), true) = (f, ps.iter().all(Option::is_some)) {
                        let ps: Vec<Premise> = ps.into_iter().flatten().collect();
                        Some(Step {
                            label: s.label.as_ref().map(|l| l.text.clone()),
                            fact: f,
                            just: match rule {
                                ast::PaperRule::And => Just::And(ps),
                                ast::PaperRule::Or => Just::Or(ps),
                            },
                            span: s.span,
                            rule_span: *rule_span,
                        })
                    } else {
                        None
                    }
                }
            };
            if let Some(l) = &s.label {
                if let Some((_, first)) = labels.get(&l.text) {
                    let msg = format!("label `{}` is used twice", l.text);
                    let d = Diag::error(
                        self.file,
                        DiagCode::DuplicateLabel,
                        msg,
                        l.span,
                        "again here",
                    )
                    .with_label(*first, "first here");
                    self.diags.push(d);
                }
            }
            if let (Some(step), true) = (step, self.diags.len() == before) {
                if let Some(l) = &s.label {
                    labels.entry(l.text.clone()).or_insert((out.len(), l.span));
                }
                out.push(step);
            }
        }
        out
    }

    fn premise(
        &mut self,
        p: &ast::PremiseAst,
        pos: &Position,
        local: &Scope,
        labels: &HashMap<String, (usize, Span)>,
        all_labels: &HashMap<String, Span>,
    ) -> Option<Premise> {
        match p {
            ast::PremiseAst::Triple {
                triple,
                kind,
                owner,
                span,
            } => {
                let owner = owner.map_or(Colour::Black, |o| colour_of(o.0));
                let car = self.carrier_list(&triple.carrier, local);
                let f = self.make_fact(
                    pos,
                    local,
                    &[(triple.a.clone(), triple.b.clone())],
                    owner,
                    *kind == Some(ast::KindWord::Vsc),
                    car,
                    triple.carrier.span,
                    *span,
                )?;
                Some(Premise::Inline {
                    fact: f,
                    stated_first: kind.map(|k| k == ast::KindWord::Vsc),
                })
            }
            ast::PremiseAst::Label(n) => match labels.get(&n.text) {
                Some((i, _)) => Some(Premise::Step {
                    index: *i,
                    span: n.span,
                }),
                None => {
                    let mut d = if let Some(sp) = all_labels.get(&n.text) {
                        Diag::error(
                            self.file,
                            DiagCode::ForwardLabel,
                            format!(
                                "step `{}` comes later; a premise must be an earlier step",
                                n.text
                            ),
                            n.span,
                            "used here",
                        )
                        .with_label(*sp, "defined here")
                    } else {
                        Diag::error(
                            self.file,
                            DiagCode::UnknownLabel,
                            format!("no earlier step is labelled `{}`", n.text),
                            n.span,
                            "unknown label",
                        )
                    };
                    if self.lemmas.contains_key(&n.text) {
                        d = d.with_help(format!(
                            "`{}` is a lemma; lemma use is written `by {}`",
                            n.text, n.text
                        ));
                    }
                    self.diags.push(d);
                    None
                }
            },
        }
    }

    fn just(
        &mut self,
        j: &ast::JustAst,
        pos: &Position,
        local: &Scope,
        labels: &HashMap<String, (usize, Span)>,
        all_labels: &HashMap<String, Span>,
    ) -> Option<Just> {
        let prem = |e: &mut Elab, p: &ast::PremiseAst| e.premise(p, pos, local, labels, all_labels);
        match j {
            ast::JustAst::Search(_) => Some(Just::Search),
            ast::JustAst::And(ps, _) => {
                let v: Vec<Option<Premise>> = ps.iter().map(|p| prem(self, p)).collect();
                v.into_iter().collect::<Option<Vec<_>>>().map(Just::And)
            }
            ast::JustAst::Or(ps, _) => {
                let v: Vec<Option<Premise>> = ps.iter().map(|p| prem(self, p)).collect();
                v.into_iter().collect::<Option<Vec<_>>>().map(Just::Or)
            }
            ast::JustAst::Rule1(p, _) => prem(self, p).map(Just::Rule1),
            ast::JustAst::Rule2(p, q, _) => {
                let a = prem(self, p);
                let b = prem(self, q);
                Some(Just::Rule2(a?, b?))
            }
            ast::JustAst::Mono(p, _) => prem(self, p).map(Just::Mono),
            ast::JustAst::Lemma(refs, _) => {
                let mut out = Vec::new();
                let mut ok = true;
                for r in refs {
                    let name = self.lemma_name(&r.name);
                    if name.is_none() {
                        ok = false;
                    }
                    let at = match &r.at {
                        Some((from, to)) => match self.resolve_cell(to, Some(local), "a placement")
                        {
                            Some(c) => Some((from.text.clone(), c, from.span)),
                            None => {
                                ok = false;
                                None
                            }
                        },
                        None => None,
                    };
                    out.push(LemmaRef {
                        name: name.unwrap_or_else(|| r.name.text.clone()),
                        span: r.span,
                        under: r.under.iter().map(|n| n.text.clone()).collect(),
                        at,
                    });
                }
                ok.then_some(Just::Lemma(out))
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Blocks.

    fn lemma(&mut self, l: &ast::Lemma) -> Option<Block> {
        let before = self.diags.len();
        for (what, sp) in &l.repeated {
            let msg = format!("the lemma has a second {what}");
            self.err(DiagCode::Repeated, msg, *sp, "repeated");
        }
        let mut local = Scope::default();
        for s in &l.setup {
            self.setup(&mut local, s);
        }
        if let Some((ps, _)) = &l.proof {
            for it in ps {
                if let ast::BlockItem::Setup(s) = it {
                    self.setup(&mut local, s);
                }
            }
        }
        let diagram_carrier = self.lemma_diagram(l, &mut local)?;
        let position = match Position::new(self.board, local.black, local.white) {
            Ok(p) => p,
            Err(e) => {
                self.err(DiagCode::Position, e.to_string(), l.span, "in this lemma");
                return None;
            }
        };
        let Some(cd) = &l.claim else {
            let msg = format!("lemma `{}` has no claim", l.name.text);
            let d = Diag::error(self.file, DiagCode::NoClaim, msg, l.name.span, "this lemma")
                .with_help("add e.g. `claim x - b`");
            self.diags.push(d);
            return None;
        };
        let (carrier, carrier_span) = self.lemma_carrier(l, cd, &local, diagram_carrier)?;
        let owner = cd.claim.owner.map_or(Colour::Black, |o| colour_of(o.0));
        let of = self.owner_first(owner, cd.claim.first);
        let claim = self.make_fact(
            &position,
            &local,
            &cd.claim.pairs,
            owner,
            of,
            carrier,
            carrier_span,
            cd.span,
        );
        let claim = self.conj_fact(claim, &cd.claim);
        if claim.as_ref().is_some_and(|f| f.conj)
            && (l.proof.is_some()
                || l.tree.is_some()
                || !l.guarantees.is_empty()
                || !l.assumes.is_empty())
        {
            self.err(
                DiagCode::ConjLemma,
                "a conjunction lemma is proved by search only: `proof`, `guarantee` and `assume` are not supported with `&`",
                cd.span,
                "a conjunction",
            );
        }
        let steps = match &l.proof {
            Some((items, _)) => {
                let ss: Vec<&ast::StepAst> = items
                    .iter()
                    .filter_map(|i| match i {
                        ast::BlockItem::Step(s) => Some(s),
                        _ => None,
                    })
                    .collect();
                self.steps(&ss, &position, &local)
            }
            None => Vec::new(),
        };
        // A proof tree (docs/SEMANTICS.md, "Lemma trees"): Black's VC, White first.
        let tree = self.lemma_tree(l, &claim, &mut local, &position);
        let guarantees = self.lemma_guarantees(l, &claim, &local);
        let assumes = self.lemma_assumes(l, &claim, &local, &position);
        let unsupported = Vec::new();
        if self.diags.len() > before {
            return None;
        }
        Some(Block {
            kind: BlockKind::Lemma,
            name: Some(l.name.text.clone()),
            title: l.title.clone(),
            span: l.span,
            head: Span::new(l.span.start, l.name.span.end),
            position,
            names: self.names_for(&local),
            steps,
            tree,
            shared: Vec::new(),
            image: None,
            lemma: claim.map(|c| LemmaInfo {
                claim: c,
                has_proof: l.proof.is_some() || l.tree.is_some(),
                guarantees,
                assumes,
                library: None,
            }),
            unsupported,
        })
    }

    /// A lemma's proof tree: a Black VC or union with White first (errors reported).
    fn lemma_tree(
        &mut self,
        l: &ast::Lemma,
        claim: &Option<Fact>,
        local: &mut Scope,
        position: &Position,
    ) -> Option<TreeNode> {
        match (&l.tree, claim) {
            (Some((node, tsp)), Some(f)) => {
                if f.claim.owner != Colour::Black || f.claim.owner_first || f.conj {
                    self.err(
                        DiagCode::LemmaTree,
                        "a proof tree proves a Black VC or union (White moves first), not a semi, a conjunction or a White claim",
                        *tsp,
                        "proof tree",
                    );
                    None
                } else {
                    self.declare_aliases(local, std::slice::from_ref(node));
                    self.tree(
                        std::slice::from_ref(node),
                        position.clone(),
                        false,
                        local,
                        *tsp,
                    )
                }
            }
            _ => None,
        }
    }

    /// A lemma's `diagram`: its stones and marks into `local` (a single Black stone is `x`),
    /// and its `*` cells; `None` when the diagram has errors (reported).
    #[allow(clippy::type_complexity)]
    fn lemma_diagram(
        &mut self,
        l: &ast::Lemma,
        local: &mut Scope,
    ) -> Option<Option<(CellSet, Vec<(Cell, Span)>, Span)>> {
        if let Some((body, sp)) = &l.diagram {
            if let Some(d) = self.diagram(body, *sp) {
                let mut black_from_diagram = Vec::new();
                for (c, col, csp) in &d.stones {
                    self.place(local, *col, *c, *csp);
                    if *col == Colour::Black {
                        black_from_diagram.push(*c);
                    }
                }
                for (letter, c, csp) in &d.marks {
                    let n = Name {
                        text: letter.to_string(),
                        span: *csp,
                    };
                    self.declare(local, &n, *c);
                }
                if black_from_diagram.len() == 1 && !local.cells.contains_key("x") {
                    local.cells.insert("x".into(), (black_from_diagram[0], *sp));
                    local.order.push((black_from_diagram[0], "x".into()));
                }
                return Some(Some((d.carrier, d.carrier_spans, *sp)));
            } else {
                // The diagram's errors are reported; its lemma cannot be read further.
                return None;
            }
        }
        Some(None)
    }

    /// A lemma's carrier: exactly one of `claim .. on`, `carrier [..]`, the diagram's `*`
    /// cells; `None` when there are several or none (reported).
    fn lemma_carrier(
        &mut self,
        l: &ast::Lemma,
        cd: &ast::ClaimDecl,
        local: &Scope,
        diagram_carrier: Option<(CellSet, Vec<(Cell, Span)>, Span)>,
    ) -> Option<(CarrierParts, Span)> {
        // The carrier: exactly one of `claim .. on`, `carrier [..]`, the diagram's `*` cells.
        let mut sources: Vec<(&str, Span)> = Vec::new();
        if let Some(c) = &cd.carrier {
            sources.push(("`on`", c.span()));
        }
        if let Some(c) = &l.carrier {
            sources.push(("`carrier`", c.span));
        }
        let diagram_has_stars = diagram_carrier.as_ref().is_some_and(|d| !d.0.is_empty());
        if diagram_has_stars {
            sources.push((
                "the diagram",
                diagram_carrier.as_ref().map(|d| d.2).unwrap_or_default(),
            ));
        }
        if sources.len() > 1 {
            let msg = format!(
                "the lemma's carrier is given twice ({} and {})",
                sources[0].0, sources[1].0
            );
            let d = Diag::error(
                self.file,
                DiagCode::CarrierTwice,
                msg,
                sources[1].1,
                "second carrier",
            )
            .with_label(sources[0].1, "first carrier");
            self.diags.push(d);
            return None;
        }
        let found = if let Some(c) = &cd.carrier {
            (self.carrier_spec(c, local), c.span())
        } else if let Some(c) = &l.carrier {
            (self.carrier_list(c, local), c.span)
        } else if let Some((set, spans, sp)) = diagram_carrier {
            ((set, Vec::new(), spans), sp)
        } else {
            let msg = format!("lemma `{}` has no carrier", l.name.text);
            let d = Diag::error(
                self.file,
                DiagCode::NoCarrier,
                msg,
                cd.span,
                "carrier of this claim?",
            )
            .with_help("draw `*` cells in a diagram, write `carrier [..]`, or `claim .. on [..]`");
            self.diags.push(d);
            return None;
        };
        Some(found)
    }

    /// A lemma's guarantees `guarantee OPP A => OWNER B` (errors reported).
    fn lemma_guarantees(
        &mut self,
        l: &ast::Lemma,
        claim: &Option<Fact>,
        local: &Scope,
    ) -> Vec<Guarantee> {
        let mut guarantees = Vec::new();
        for (c1, a, c2, b, sp) in &l.guarantees {
            let (Some(ac), Some(bc)) = (
                self.resolve_cell(a, Some(local), "a guarantee's cell"),
                self.resolve_cell(b, Some(local), "a guarantee's cell"),
            ) else {
                continue;
            };
            let Some(f) = claim else { continue };
            let owner = f.claim.owner;
            if colour_of(*c1) != owner.opponent() || colour_of(*c2) != owner {
                let msg = format!(
                    "a guarantee of a {owner} lemma reads `guarantee {} A => {owner} B`",
                    owner.opponent()
                );
                self.err(DiagCode::Guarantee, msg, *sp, "colours");
                continue;
            }
            for (n, c) in [(a, ac), (b, bc)] {
                if !f.carrier.contains(c) {
                    let msg = format!(
                        "the guarantee's cell {} is not in the lemma's carrier",
                        n.text
                    );
                    self.err(DiagCode::Guarantee, msg, n.span, "outside the carrier");
                }
            }
            if ac == bc {
                self.err(DiagCode::Guarantee, "A and B must differ", *sp, "same cell");
            }
            guarantees.push(Guarantee {
                a: ac,
                b: bc,
                span: *sp,
            });
        }
        guarantees
    }

    /// A lemma's assumption `assume OPP A => OWNER B` (at most one; not with a proof or a
    /// guarantee; errors reported).
    fn lemma_assumes(
        &mut self,
        l: &ast::Lemma,
        claim: &Option<Fact>,
        local: &Scope,
        position: &Position,
    ) -> Vec<Guarantee> {
        let mut assumes = Vec::new();
        for (c1, a, c2, b, sp) in &l.assumes {
            let (Some(ac), Some(bc)) = (
                self.resolve_cell(a, Some(local), "an assumption's cell"),
                self.resolve_cell(b, Some(local), "an assumption's cell"),
            ) else {
                continue;
            };
            let Some(f) = claim else { continue };
            let owner = f.claim.owner;
            if colour_of(*c1) != owner.opponent() || colour_of(*c2) != owner {
                let msg = format!(
                    "an assumption of a {owner} lemma reads `assume {} A => {owner} B`",
                    owner.opponent()
                );
                self.err(DiagCode::Assume, msg, *sp, "colours");
                continue;
            }
            let ends: Vec<Cell> = f.claim.pairs.iter().flat_map(|&(x, y)| [x, y]).collect();
            for (n, c) in [(a, ac), (b, bc)] {
                let why = if c.is_border() {
                    Some("is a border")
                } else if f.carrier.contains(c) {
                    Some("is in the lemma's carrier (the interface lies in the other area)")
                } else if position.colour_at(c).is_some() {
                    Some("is not empty")
                } else if ends.contains(&c) {
                    Some("is an endpoint of the claim")
                } else {
                    None
                };
                if let Some(why) = why {
                    let msg = format!("the assumption's cell {} {why}", n.text);
                    self.err(DiagCode::Assume, msg, n.span, "not an interface cell");
                }
            }
            if ac == bc {
                self.err(DiagCode::Assume, "A and B must differ", *sp, "same cell");
            }
            assumes.push(Guarantee {
                a: ac,
                b: bc,
                span: *sp,
            });
        }
        if let Some((_, sp)) = l.assumes.get(1).map(|x| ((), x.4)) {
            self.err(
                DiagCode::Assume,
                "a lemma takes at most one assumption",
                sp,
                "second assumption",
            );
        }
        if let (Some(x), Some((_, psp))) = (
            l.assumes.first(),
            l.proof
                .as_ref()
                .map(|p| ((), p.1))
                .or(l.tree.as_ref().map(|t| ((), t.1))),
        ) {
            let d = Diag::error(
                self.file,
                DiagCode::Assume,
                "a lemma with an assumption is proved by its assisted game only, not by steps",
                psp,
                "proof",
            )
            .with_label(x.4, "assumption");
            self.diags.push(d);
        }
        if let (Some(x), Some(g)) = (l.assumes.first(), l.guarantees.first()) {
            let d = Diag::error(
                self.file,
                DiagCode::Assume,
                "a lemma with an assumption cannot also give a guarantee",
                g.4,
                "guarantee",
            )
            .with_label(x.4, "assumption");
            self.diags.push(d);
        }
        assumes
    }

    fn derive(&mut self, d: &ast::Derive) -> Option<Block> {
        let before = self.diags.len();
        let mut local = Scope {
            black: self.global.black,
            white: self.global.white,
            stone_spans: self.global.stone_spans.clone(),
            ..Scope::default()
        };
        for it in &d.items {
            if let ast::BlockItem::Setup(s) = it {
                self.setup(&mut local, s);
            }
        }
        let position = match Position::new(self.board, local.black, local.white) {
            Ok(p) => p,
            Err(e) => {
                self.err(
                    DiagCode::Position,
                    e.to_string(),
                    d.span,
                    "in this derivation",
                );
                return None;
            }
        };
        let ss: Vec<&ast::StepAst> = d
            .items
            .iter()
            .filter_map(|i| match i {
                ast::BlockItem::Step(s) => Some(s),
                _ => None,
            })
            .collect();
        let steps = self.steps(&ss, &position, &local);
        if self.diags.len() > before {
            return None;
        }
        let head_end = d
            .name
            .as_ref()
            .map_or(d.span.start + "derive".len(), |n| n.span.end);
        Some(Block {
            kind: BlockKind::Derive,
            name: d.name.as_ref().map(|n| n.text.clone()),
            title: d.title.clone(),
            span: d.span,
            head: Span::new(d.span.start, head_end),
            position,
            names: self.names_for(&local),
            steps,
            lemma: None,
            tree: None,
            shared: Vec::new(),
            image: None,
            unsupported: Vec::new(),
        })
    }

    fn strategy(&mut self, s: &ast::Strategy) -> Option<Block> {
        let before = self.diags.len();
        // `as` aliases name their move anywhere in the tree.
        let mut local = Scope {
            black: self.global.black,
            white: self.global.white,
            stone_spans: self.global.stone_spans.clone(),
            ..Scope::default()
        };
        self.declare_aliases(&mut local, &s.body);
        for sh in &s.shared {
            self.declare_aliases(&mut local, &sh.body);
        }
        for st in &s.setup {
            self.setup(&mut local, st);
        }
        if self.diags.len() > before {
            return None;
        }
        let position = Position::new(self.board, self.global.black, self.global.white).ok()?;
        let (tree, shared, image) = match &s.image {
            Some(im) => (
                None,
                Vec::new(),
                Some(self.image_of(im, &position, &local)?),
            ),
            None => {
                let (tree, shared) = self.strategy_tree(s, &position, &local, before)?;
                (tree, shared, None)
            }
        };
        let head_end = s
            .name
            .as_ref()
            .map_or(s.span.start + "strategy".len(), |n| n.span.end);
        Some(Block {
            kind: BlockKind::Strategy,
            name: s.name.as_ref().map(|n| n.text.clone()),
            title: s.title.clone(),
            span: s.span,
            head: Span::new(s.span.start, head_end),
            position,
            names: self.names_for(&local),
            steps: Vec::new(),
            lemma: None,
            tree,
            shared,
            image,
            unsupported: Vec::new(),
        })
    }

    /// A strategy's tree and shared positions (errors reported; `None` when there are any
    /// since `before`).
    fn strategy_tree(
        &mut self,
        s: &ast::Strategy,
        position: &Position,
        local: &Scope,
        before: usize,
    ) -> Option<(Option<TreeNode>, Vec<SharedPosition>)> {
        // Shared positions: names first, so that any branch may refer to any of them.
        let mut names: HashMap<String, usize> = HashMap::new();
        for (i, sh) in s.shared.iter().enumerate() {
            if let Some(&j) = names.get(&sh.name.text) {
                let msg = format!("shared position `{}` is defined twice", sh.name.text);
                let d = Diag::error(
                    self.file,
                    DiagCode::DuplicatePosition,
                    msg,
                    sh.name.span,
                    "again here",
                )
                .with_label(s.shared[j].name.span, "first defined here");
                self.diags.push(d);
            } else {
                names.insert(sh.name.text.clone(), i);
            }
        }
        self.gotos = Some(names);
        self.goto_edges.clear();
        let tree = self.tree(&s.body, position.clone(), true, local, s.span);
        let mut shared = Vec::new();
        for (i, sh) in s.shared.iter().enumerate() {
            self.in_shared = Some(i);
            if let Some(p) = self.shared_position(sh, position, local) {
                shared.push(p);
            }
        }
        self.in_shared = None;
        self.gotos = None;
        self.goto_cycles(&s.shared);
        if self.diags.len() > before {
            return None;
        }
        Some((tree, shared))
    }

    /// `[black M] image "FILE" under rot180` (docs/LANGUAGE.md, "Images of another file's
    /// strategy"): FILE must be one this file uses, the word `rot180`, M an empty cell.
    fn image_of(&mut self, im: &ast::ImageOf, pos: &Position, local: &Scope) -> Option<Image> {
        if im.sym.text != "rot180" {
            let msg = format!(
                "`image \"{}\" under {}`: an image may only be turned by rot180",
                im.path, im.sym.text
            );
            self.err(DiagCode::Goto, msg, im.sym.span, "not rot180");
            return None;
        }
        let Some(&(_, file)) = self.use_paths.iter().find(|(p, _)| *p == im.path) else {
            let msg = format!(
                "`image \"{}\"`: the file must also be named by a `use \"{}\"` of this file",
                im.path, im.path
            );
            self.err(DiagCode::Goto, msg, im.span, "not used");
            return None;
        };
        let black = match &im.black {
            None => None,
            Some(n) => {
                let c = self.resolve_cell(n, Some(local), "a move")?;
                if let Some(col) = pos.colour_at(c) {
                    let msg = format!(
                        "Black plays {}, which already holds a {col} stone",
                        self.cell_text(c)
                    );
                    self.err(DiagCode::OccupiedMove, msg, n.span, "occupied");
                    return None;
                }
                Some(c)
            }
        };
        Some(Image {
            file,
            path: im.path.clone(),
            black,
            span: im.span,
        })
    }

    /// Elaborates `position NAME black [..] white [..] { .. }`: the strategy's position `base`
    /// with the listed stones, White to move.
    fn shared_position(
        &mut self,
        sh: &ast::SharedPosition,
        base: &Position,
        local: &Scope,
    ) -> Option<SharedPosition> {
        let before = self.diags.len();
        let mut pos = base.clone();
        for (list, colour) in [(&sh.black, Colour::Black), (&sh.white, Colour::White)] {
            let Some(list) = list else { continue };
            for it in &list.items {
                let Some(c) = self.resolve_cell(it, Some(local), "a stone") else {
                    continue;
                };
                if let Some(col) = pos.colour_at(c) {
                    let msg = format!(
                        "shared position `{}` puts a {colour} stone on {}, which already holds a {col} stone",
                        sh.name.text,
                        self.cell_text(c)
                    );
                    self.err(DiagCode::Occupied, msg, it.span, "occupied");
                    continue;
                }
                pos.play(colour, c).ok()?;
            }
        }
        if self.diags.len() > before {
            return None;
        }
        let tree = self.tree(&sh.body, pos.clone(), false, local, sh.span)?;
        Some(SharedPosition {
            name: sh.name.text.clone(),
            span: sh.span,
            head: Span::new(sh.span.start, sh.name.span.end),
            position: pos,
            tree,
        })
    }

    /// Rejects a cycle of `goto`s between shared positions (bad input: a cycle would let a
    /// position "prove" itself). Positions only grow along a branch, so a checked reference
    /// can never close a cycle; this names the mistake before anything is checked.
    fn goto_cycles(&mut self, shared: &[ast::SharedPosition]) {
        let n = shared.len();
        let mut next: Vec<Vec<(usize, Span)>> = vec![Vec::new(); n];
        for &(from, to, sp) in &self.goto_edges {
            if let Some(f) = from {
                next[f].push((to, sp));
            }
        }
        // Iterative depth-first search: 0 unvisited, 1 on the stack, 2 done.
        let mut state = vec![0u8; n];
        for root in 0..n {
            if state[root] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
            state[root] = 1;
            while let Some(&mut (v, ref mut k)) = stack.last_mut() {
                if let Some(&(w, sp)) = next[v].get(*k) {
                    *k += 1;
                    match state[w] {
                        0 => {
                            state[w] = 1;
                            stack.push((w, 0));
                        }
                        1 => {
                            let from = stack.iter().position(|&(u, _)| u == w).unwrap_or(0);
                            let mut path: Vec<&str> = stack[from..]
                                .iter()
                                .map(|&(u, _)| shared[u].name.text.as_str())
                                .collect();
                            path.push(shared[w].name.text.as_str());
                            let msg = format!(
                                "shared positions refer to each other in a cycle: {}",
                                path.join(" → ")
                            );
                            self.err(DiagCode::GotoCycle, msg, sp, "closes the cycle");
                            return;
                        }
                        _ => {}
                    }
                } else {
                    state[v] = 2;
                    stack.pop();
                }
            }
        }
    }

    /// Elaborates a tree body in `pos`; `black_to_move` says whose turn it is.
    fn tree(
        &mut self,
        items: &[ast::TreeNode],
        pos: Position,
        black_to_move: bool,
        local: &Scope,
        outer: Span,
    ) -> Option<TreeNode> {
        let Some(first) = items.first() else {
            let msg = if black_to_move {
                "the tree stops here with Black to move: expected `black MOVE`"
            } else {
                "the tree stops here with White to move: expected `white { .. }` or steps deriving t - b"
            };
            self.err(DiagCode::TreeShape, msg, outer, "incomplete");
            return None;
        };
        if black_to_move {
            return self.tree_black(items, first, pos, local);
        }
        if let ast::TreeNode::White { .. } = first {
            return self.tree_white(items, first, pos, local);
        }
        let span = Span::new(
            span_of(first).start,
            span_of(items.last().expect("non-empty")).end,
        );
        let (fills, steps) = self.tree_steps(items, &pos, local, span)?;
        Some(TreeNode::Leaf {
            position: pos,
            span,
            steps,
            fills,
        })
    }

    /// [`Self::tree`] with Black to move: `black MOVE`, then the subtree, a body, or a `goto`.
    fn tree_black(
        &mut self,
        items: &[ast::TreeNode],
        first: &ast::TreeNode,
        pos: Position,
        local: &Scope,
    ) -> Option<TreeNode> {
        let ast::TreeNode::Black {
            cell,
            body,
            span,
            goto,
            goto_under,
            ..
        } = first
        else {
            self.err(
                DiagCode::TreeShape,
                "Black is to move here: expected `black MOVE`",
                span_of(first),
                "not a black move",
            );
            return None;
        };
        let c = self.resolve_cell(cell, Some(local), "a move")?;
        let mut after = pos.clone();
        if let Some(col) = pos.colour_at(c) {
            let msg = format!(
                "Black plays {}, which already holds a {col} stone",
                self.cell_text(c)
            );
            self.err(DiagCode::OccupiedMove, msg, cell.span, "occupied");
            return None;
        }
        after.play(Colour::Black, c).ok()?;
        let next = if let Some(g) = goto {
            self.tree_goto(items, g, goto_under.as_ref(), after)?
        } else if body.is_empty() {
            self.tree(&items[1..], after, false, local, *span)?
        } else {
            if let Some(extra) = items.get(1) {
                self.err(
                    DiagCode::TreeShape,
                    "nothing may follow a black move with a `{ .. }` body",
                    span_of(extra),
                    "unexpected",
                );
                return None;
            }
            self.tree(body, after, false, local, *span)?
        };
        Some(TreeNode::Black {
            cell: c,
            position: pos,
            span: *span,
            next: Box::new(next),
        })
    }

    /// `black MOVE goto NAME [under rot180]`: the shared position reached (`after`).
    fn tree_goto(
        &mut self,
        items: &[ast::TreeNode],
        g: &Name,
        goto_under: Option<&Name>,
        after: Position,
    ) -> Option<TreeNode> {
        if let Some(extra) = items.get(1) {
            self.err(
                DiagCode::TreeShape,
                "nothing may follow `black MOVE goto NAME`",
                span_of(extra),
                "unexpected",
            );
            return None;
        }
        let target = match self.gotos.as_ref() {
            None => {
                self.err(
                    DiagCode::Goto,
                    "`goto` refers to a shared position of a strategy; a lemma's tree has none",
                    g.span,
                    "not in a strategy",
                );
                return None;
            }
            Some(m) => m.get(&g.text).copied(),
        };
        let Some(target) = target else {
            let msg = format!("unknown shared position `{}`", g.text);
            let d = Diag::error(self.file, DiagCode::UnknownName, msg, g.span, "not defined")
                .with_help(format!(
                    "define it after the tree: `position {} black [..] white [..] {{ .. }}`",
                    g.text
                ));
            self.diags.push(d);
            return None;
        };
        let rotated = match goto_under {
            None => false,
            Some(u) if u.text == "rot180" => true,
            Some(u) => {
                let msg = format!(
                    "`goto {} under {}`: a shared position may only be turned by rot180",
                    g.text, u.text
                );
                self.err(DiagCode::Goto, msg, u.span, "not rot180");
                return None;
            }
        };
        self.goto_edges.push((self.in_shared, target, g.span));
        Some(TreeNode::Goto {
            target,
            rotated,
            position: after,
            span: g.span,
        })
    }

    /// [`Self::tree`] with White to move: `white { preclude .. case .. }`.
    fn tree_white(
        &mut self,
        items: &[ast::TreeNode],
        first: &ast::TreeNode,
        pos: Position,
        local: &Scope,
    ) -> Option<TreeNode> {
        let ast::TreeNode::White {
            precludes,
            cases,
            span,
        } = first
        else {
            unreachable!("a White node")
        };
        if let Some(extra) = items.get(1) {
            self.err(
                DiagCode::TreeShape,
                "nothing may follow a `white { .. }` node",
                span_of(extra),
                "unexpected",
            );
            return None;
        }
        let mut ps = Vec::new();
        for (z, body, psp) in precludes {
            let Some(zc) = self.resolve_cell(z, Some(local), "a fictitious move") else {
                continue;
            };
            if let Some(col) = pos.colour_at(zc) {
                let msg = format!(
                    "the fictitious Black move {} is on a cell that already holds a {col} stone",
                    self.cell_text(zc)
                );
                self.err(DiagCode::OccupiedMove, msg, z.span, "occupied");
                continue;
            }
            let mut after = pos.clone();
            after.play(Colour::Black, zc).ok()?;
            let (fills, steps) = self.tree_steps(body, &after, local, *psp)?;
            ps.push(Preclude {
                z: zc,
                span: *psp,
                position: after,
                steps,
                fills,
            });
        }
        let mut cs = Vec::new();
        let mut seen: HashMap<Cell, Span> = HashMap::new();
        for (moves, reply, _, rest) in cases {
            for m in moves {
                let Some(w) = self.resolve_cell(m, Some(local), "a White move") else {
                    continue;
                };
                if let Some(first) = seen.get(&w) {
                    let msg = format!("White's move {} has two cases", self.cell_text(w));
                    let d = Diag::error(
                        self.file,
                        DiagCode::DuplicateCase,
                        msg,
                        m.span,
                        "again here",
                    )
                    .with_label(*first, "first case here");
                    self.diags.push(d);
                    continue;
                }
                seen.insert(w, m.span);
                if let Some(col) = pos.colour_at(w) {
                    let msg = format!(
                        "White's move {} is on a cell that already holds a {col} stone",
                        self.cell_text(w)
                    );
                    self.err(DiagCode::OccupiedMove, msg, m.span, "occupied");
                    continue;
                }
                let mut after = pos.clone();
                after.play(Colour::White, w).ok()?;
                if let Some(r) = self.tree(
                    std::slice::from_ref(reply.as_ref()),
                    after,
                    true,
                    local,
                    m.span,
                ) {
                    cs.push(Case {
                        white: w,
                        span: m.span,
                        reply: r,
                        rest: *rest,
                    });
                }
            }
        }
        Some(TreeNode::White {
            position: pos,
            span: *span,
            precludes: ps,
            cases: cs,
        })
    }

    /// Steps of a leaf or a precluding analysis (White to move in `pos`), after its fill-in
    /// statements (docs/SEMANTICS.md, "Fill-in in a leaf"): the steps are elaborated in the
    /// position with the fills applied; whether each fill is justified is the checker's work.
    fn tree_steps(
        &mut self,
        items: &[ast::TreeNode],
        pos: &Position,
        local: &Scope,
        outer: Span,
    ) -> Option<(Vec<Fill>, Vec<Step>)> {
        let mut ss = Vec::new();
        let mut fills = Vec::new();
        let mut filled = pos.clone();
        for it in items {
            match it {
                ast::TreeNode::Step(s) => ss.push(s),
                ast::TreeNode::Fill(f) => {
                    if !ss.is_empty() {
                        self.err(
                            DiagCode::TreeShape,
                            "fill-in comes before the steps of a leaf",
                            f.span,
                            "after a step",
                        );
                        return None;
                    }
                    fills.push(self.fill(f, &mut filled, local)?);
                }
                ast::TreeNode::Black { span, .. } | ast::TreeNode::White { span, .. } => {
                    self.err(
                        DiagCode::TreeShape,
                        "White is to move here: only steps deriving t - b may follow",
                        *span,
                        "not a step",
                    );
                    return None;
                }
            }
        }
        if ss.is_empty() {
            self.err(
                DiagCode::TreeShape,
                "expected steps deriving t - b",
                outer,
                "empty",
            );
            return None;
        }
        let before = self.diags.len();
        let steps = self.steps(&ss, &filled, local);
        (self.diags.len() == before).then_some((fills, steps))
    }

    /// One `fill` statement, applied to `filled`: its cells must be distinct empty cells (a
    /// captured set exactly two); `dead` without a colour gives Black.
    fn fill(&mut self, f: &ast::FillAst, filled: &mut Position, local: &Scope) -> Option<Fill> {
        let colour = match f.colour {
            Some(ast::ColourWord::White) => Colour::White,
            Some(ast::ColourWord::Black) => Colour::Black,
            None if f.captured => {
                self.err(
                    DiagCode::Fill,
                    "a captured fill names its captor: `fill captured black [a, b]`",
                    f.span,
                    "whose capture?",
                );
                return None;
            }
            None => Colour::Black,
        };
        let mut cells = CellSet::EMPTY;
        for n in &f.cells.items {
            let c = self.resolve_cell(n, Some(local), "a filled cell")?;
            if let Some(col) = filled.colour_at(c) {
                let msg = format!(
                    "the filled cell {} already holds a {col} stone",
                    self.cell_text(c)
                );
                self.err(DiagCode::OccupiedMove, msg, n.span, "occupied");
                return None;
            }
            if !cells.insert(c) {
                let msg = format!("the cell {} is filled twice", self.cell_text(c));
                self.err(DiagCode::Fill, msg, n.span, "again");
                return None;
            }
        }
        if cells.is_empty() || (f.captured && cells.len() != 2) {
            let msg = if f.captured {
                "a captured fill names exactly two cells"
            } else {
                "a dead fill names at least one cell"
            };
            self.err(DiagCode::Fill, msg, f.cells.span, "here");
            return None;
        }
        for c in cells.iter() {
            filled.play(colour, c).ok()?;
        }
        Some(Fill {
            captured: f.captured,
            colour,
            cells,
            span: f.span,
        })
    }

    // -----------------------------------------------------------------------------------------
    // Diagrams.

    fn diagram(&mut self, body: &str, span: Span) -> Option<Diagram> {
        let before = self.diags.len();
        let mut rows: Vec<Vec<(char, Span)>> = Vec::new();
        let mut row_spans = Vec::new();
        let mut offset = span.start;
        for line in body.split_inclusive('\n') {
            let content = match line.find("//") {
                Some(i) => &line[..i],
                None => line,
            };
            let toks: Vec<(char, Span)> = content
                .char_indices()
                .filter(|(_, c)| !c.is_whitespace())
                .map(|(i, c)| (c, Span::new(offset + i, offset + i + c.len_utf8())))
                .collect();
            if !toks.is_empty() {
                row_spans.push(Span::new(toks[0].1.start, toks[toks.len() - 1].1.end));
                rows.push(toks);
            }
            offset += line.len();
        }
        let (nc, nr) = (self.board.cols() as usize, self.board.rows() as usize);
        if rows.len() != nr {
            let msg = format!(
                "the diagram has {} rows; the {} board has {nr}",
                rows.len(),
                self.board
            );
            let d = Diag::error(self.file, DiagCode::DiagramShape, msg, span, "this diagram")
                .with_help("draw the whole board: one text row per board row, one symbol per cell");
            self.diags.push(d);
            return None;
        }
        let mut d = Diagram::default();
        let mut seen_marks: HashMap<char, Span> = HashMap::new();
        for (r, row) in rows.iter().enumerate() {
            if row.len() != nc {
                let msg = format!(
                    "diagram row {} has {} cells; the {} board has {nc} columns",
                    r + 1,
                    row.len(),
                    self.board
                );
                self.err(
                    DiagCode::DiagramShape,
                    msg,
                    row_spans[r],
                    format!("{} cells", row.len()),
                );
                continue;
            }
            for (c, &(ch, sp)) in row.iter().enumerate() {
                let cell = Cell::at(c as u8, r as u8);
                match ch {
                    '.' => {}
                    '*' => {
                        d.carrier.insert(cell);
                        d.carrier_spans.push((cell, sp));
                    }
                    'x' | 'X' => d.stones.push((cell, Colour::Black, sp)),
                    'o' | 'O' => d.stones.push((cell, Colour::White, sp)),
                    'A'..='Z' => {
                        if let Some(first) = seen_marks.get(&ch) {
                            let msg = format!("mark `{ch}` appears twice in the diagram");
                            let dg = Diag::error(
                                self.file,
                                DiagCode::DiagramMark,
                                msg,
                                sp,
                                "again here",
                            )
                            .with_label(*first, "first here");
                            self.diags.push(dg);
                        } else {
                            seen_marks.insert(ch, sp);
                            d.marks.push((ch, cell, sp));
                        }
                    }
                    _ => {
                        let msg = format!("unknown diagram symbol `{ch}`");
                        let dg = Diag::error(self.file, DiagCode::DiagramSymbol, msg, sp, "not in the legend")
                            .with_help("legend: x black stone, o white stone, * carrier cell, . other cell, A–Z marked cells");
                        self.diags.push(dg);
                    }
                }
            }
        }
        if self.diags.len() > before {
            None
        } else {
            Some(d)
        }
    }
}

/// Where a tree item is written.
fn span_of(n: &ast::TreeNode) -> Span {
    match n {
        ast::TreeNode::Black { span, .. } | ast::TreeNode::White { span, .. } => *span,
        ast::TreeNode::Step(s) => s.span,
        ast::TreeNode::Fill(f) => f.span,
    }
}

#[derive(Default)]
struct Diagram {
    stones: Vec<(Cell, Colour, Span)>,
    carrier: CellSet,
    carrier_spans: Vec<(Cell, Span)>,
    marks: Vec<(char, Cell, Span)>,
}

fn collect_aliases(nodes: &[ast::TreeNode], f: &mut dyn FnMut(&Name, &Name)) {
    for n in nodes {
        match n {
            ast::TreeNode::Black {
                cell, alias, body, ..
            } => {
                if let Some(a) = alias {
                    f(a, cell);
                }
                collect_aliases(body, f);
            }
            ast::TreeNode::White {
                precludes, cases, ..
            } => {
                for (_, body, _) in precludes {
                    collect_aliases(body, f);
                }
                for (_, reply, ..) in cases {
                    collect_aliases(std::slice::from_ref(reply.as_ref()), f);
                }
            }
            ast::TreeNode::Step(_) | ast::TreeNode::Fill(_) => {}
        }
    }
}
