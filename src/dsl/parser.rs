//! Pass 1: text → [`ast::File`], with byte spans over the whole file.
//!
//! The grammar is `grammar/hexproof.pest`. A syntax error becomes a [`ParseError`] whose span
//! is a byte range of the whole file (not pest's one-line excerpt), with the expected items
//! described in words.

use super::ast::*;
use pest::iterators::Pair;
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/hexproof.pest"]
struct HexpParser;

/// Deepest `{ … }` nesting accepted (proof trees nest; this bounds the recursion).
pub const MAX_NESTING: usize = 64;

/// A syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where (byte offsets into the whole file).
    pub span: Span,
    /// What went wrong, in words.
    pub message: String,
    /// The label under the snippet.
    pub label: String,
}

/// Parses a whole file.
pub fn parse(src: &str) -> Result<File, ParseError> {
    check_nesting(src)?;
    // Track the tokens expected at the furthest position, for "expected `,` or `]`".
    pest::set_error_detail(true);
    let mut pairs = HexpParser::parse(Rule::file, src).map_err(|e| convert_error(src, e))?;
    let file = pairs.next().expect("the file rule always yields one pair");
    Ok(build_file(file))
}

/// Rejects absurdly deep brace nesting before pest or the AST builder recurse into it.
///
/// Every recursion of the grammar goes through a `{`, so counting braces bounds it, provided
/// the count reads the text as the grammar does: braces in `//` comments and in `"strings"`
/// do not count, and a `diagram { … }` body is raw text up to its first `}` outside a `//`
/// comment (a `"` in a diagram starts no string). A text the grammar rejects stops pest at
/// the first token it cannot read, so braces after it never reach the recursion either.
fn check_nesting(src: &str) -> Result<(), ParseError> {
    let bytes = src.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'\'';
    // The end of a `//` comment starting at `i` (its newline, or the end of the text).
    let comment_end = |i: usize| {
        bytes[i..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(bytes.len(), |n| i + n)
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            i = comment_end(i);
            continue;
        }
        if c == b'"' {
            // A string: up to an unescaped `"` or a newline (the grammar's `string_inner`).
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if c == b'd'
            && bytes[i..].starts_with(b"diagram")
            && (i == 0 || !word(bytes[i - 1]))
            && !bytes.get(i + 7).is_some_and(|&b| word(b))
        {
            // `diagram`, then whitespace and comments, then `{`: a raw body up to `}`.
            let mut j = i + 7;
            loop {
                match bytes.get(j) {
                    Some(b' ' | b'\t' | b'\r' | b'\n') => j += 1,
                    Some(b'/') if bytes.get(j + 1) == Some(&b'/') => j = comment_end(j),
                    _ if src[j..].starts_with('\u{feff}') => j += '\u{feff}'.len_utf8(),
                    _ => break,
                }
            }
            if bytes.get(j) == Some(&b'{') {
                let open = j;
                j += 1;
                while j < bytes.len() && bytes[j] != b'}' {
                    if bytes[j] == b'/' && bytes.get(j + 1) == Some(&b'/') {
                        j = comment_end(j);
                    } else {
                        j += 1;
                    }
                }
                // The body's braces open and close one level: never deeper than here + 1.
                if depth + 1 > MAX_NESTING {
                    return Err(too_deep(open));
                }
                i = j + 1;
                continue;
            }
            i = j;
            continue;
        }
        if c == b'{' {
            depth += 1;
            if depth > MAX_NESTING {
                return Err(too_deep(i));
            }
        } else if c == b'}' {
            depth = depth.saturating_sub(1);
        }
        i += 1;
    }
    Ok(())
}

fn too_deep(at: usize) -> ParseError {
    ParseError {
        span: Span::new(at, at + 1),
        message: format!("blocks are nested more than {MAX_NESTING} deep"),
        label: "too deep".into(),
    }
}

/// Words for a grammar rule in "expected …" messages.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::name | Rule::label | Rule::lemma_ref | Rule::premise_label => "a name or cell",
        Rule::string => "a \"string\"",
        Rule::board_decl | Rule::kw_board => "`board NxM`",
        Rule::board_size => "a board size such as 7x7",
        Rule::notation_kind | Rule::kw_letters | Rule::kw_digits => "`letters` or `digits`",
        Rule::colour | Rule::kw_black | Rule::kw_white => "`black` or `white`",
        Rule::use_decl | Rule::kw_use => "`use`",
        Rule::notation_decl | Rule::kw_notation => "`notation`",
        Rule::cell_decl | Rule::kw_cell => "`cell`",
        Rule::cells_decl | Rule::kw_cells => "`cells`",
        Rule::cell_binding => "`NAME = CELL`",
        Rule::set_decl | Rule::kw_set => "`set`",
        Rule::stones_decl | Rule::stone => "stones",
        Rule::cell_list => "a cell list `[..]`",
        Rule::pair => "a pair `a - b`",
        Rule::claim => "a claim `a - b`",
        Rule::owner_clause | Rule::kw_for => "`for`",
        Rule::first_clause | Rule::kw_first => "`first`",
        Rule::carrier_spec => "a carrier `[..]` or a set name",
        Rule::triple => "a triple `(a, [..], b)`",
        Rule::kind | Rule::kw_vc | Rule::kw_vsc => "`VC` or `VSC`",
        Rule::triple_fact | Rule::paper_premise => "a fact `(a, [..], b) VC`",
        Rule::general_fact => "a claim on a carrier `a - b on [..]`",
        Rule::fact => "a fact",
        Rule::step | Rule::rule_step | Rule::paper_step => "a step",
        Rule::qed | Rule::kw_qed => "`QED`",
        Rule::rule_name | Rule::kw_and | Rule::kw_or => "`AND` or `OR`",
        Rule::kw_apply => "`Apply`",
        Rule::justification | Rule::kw_by => "`by`",
        Rule::by_search | Rule::kw_search => "`search`",
        Rule::by_and => "`AND`",
        Rule::by_or => "`OR`",
        Rule::by_rule1 | Rule::kw_rule1 => "`rule1`",
        Rule::by_rule2 | Rule::kw_rule2 => "`rule2`",
        Rule::by_mono | Rule::kw_mono => "`mono`",
        Rule::by_lemma => "a lemma name",
        Rule::premise | Rule::premise_triple => "a premise (a triple or a label)",
        Rule::lemma | Rule::kw_lemma => "`lemma`",
        Rule::diagram | Rule::kw_diagram => "`diagram`",
        Rule::diagram_body => "diagram rows",
        Rule::carrier_decl | Rule::kw_carrier => "`carrier`",
        Rule::claim_decl | Rule::kw_claim => "`claim`",
        Rule::kw_on => "`on`",
        Rule::guarantee | Rule::kw_guarantee => "`guarantee`",
        Rule::assume | Rule::kw_assume => "`assume`",
        Rule::proof_block | Rule::proof_tree | Rule::kw_proof => "`proof`",
        Rule::derive | Rule::kw_derive => "`derive`",
        Rule::strategy | Rule::kw_strategy => "`strategy`",
        Rule::tree_body => "a proof-tree node",
        Rule::black_move => "a black move",
        Rule::white_node => "`white { .. }`",
        Rule::preclude | Rule::kw_preclude => "`preclude`",
        Rule::case_arm | Rule::kw_case => "`case`",
        Rule::under_clause | Rule::kw_under => "`under`",
        Rule::at_clause | Rule::kw_at => "`at`",
        Rule::kw_is => "`is`",
        Rule::kw_as => "`as`",
        Rule::goto_ref | Rule::kw_goto => "`goto`",
        Rule::shared_pos | Rule::kw_position => "`position`",
        Rule::fill_stmt | Rule::fill_word => "`fill`",
        Rule::fill_kind | Rule::fill_dead | Rule::fill_captured => "`dead` or `captured`",
        _ => return None,
    })
}

fn convert_error(src: &str, e: pest::error::Error<Rule>) -> ParseError {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((s, t)) => (s, t),
    };
    let mut start = start.min(src.len());
    let rule_pos = start;
    let mut token_words: Vec<String> = Vec::new();
    if let Some(pa) = e.parse_attempts() {
        if pa.max_position >= start && pa.max_position <= src.len() {
            for t in pa.expected_tokens() {
                if let Some(w) = describe_token(&t.to_string()) {
                    token_words.push(w);
                }
            }
            // Attempts inside look-aheads can reach further without naming anything useful;
            // then the rules' position is the better one.
            if !token_words.is_empty() {
                start = pa.max_position;
            }
        }
    }
    let end = end.max(start);
    // Point at the offending word (or character), never past the end of the file.
    let found_end = if end > start {
        end.min(src.len())
    } else {
        let rest = &src[start..];
        let word: usize = rest
            .char_indices()
            .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '\'')
            .map(|(i, c)| i + c.len_utf8())
            .last()
            .unwrap_or(0);
        let w = if word > 0 {
            word
        } else {
            rest.chars().next().map_or(0, |c| c.len_utf8())
        };
        start + w
    };
    let found = &src[start..found_end];
    let found_desc = if found.is_empty() {
        "end of file".to_string()
    } else if found.trim().is_empty() {
        "a line break".to_string()
    } else {
        format!("`{found}`")
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let mut exp: Vec<&str> = if start == rule_pos {
                positives
                    .iter()
                    .filter_map(|r| describe(*r))
                    .filter(|d| token_words.is_empty() || !d.starts_with('`'))
                    .collect()
            } else {
                Vec::new()
            };
            exp.extend(token_words.iter().map(String::as_str));
            exp.sort_unstable();
            exp.dedup();
            let mut neg: Vec<&str> = negatives.iter().filter_map(|r| describe(*r)).collect();
            neg.sort_unstable();
            neg.dedup();
            if !exp.is_empty() {
                format!("unexpected {found_desc}; expected {}", join_or(&exp))
            } else if !neg.is_empty() {
                format!(
                    "unexpected {found_desc} ({} is not allowed here)",
                    join_or(&neg)
                )
            } else {
                format!("unexpected {found_desc}")
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    ParseError {
        span: Span::new(start, found_end),
        message,
        label: "here".into(),
    }
}

/// Words for an expected literal token (as pest displays it), or `None` for tokens not worth
/// naming (whitespace, comment starts, characters inside a word).
fn describe_token(tok: &str) -> Option<String> {
    let skip = ["x", "X", "×", "_", "'", "//", "\u{feff}", "BUILTIN_RULE"];
    if tok.trim().is_empty() || skip.contains(&tok) || tok.contains("..") {
        None
    } else {
        Some(format!("`{tok}`"))
    }
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [a] => a.to_string(),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

// ---------------------------------------------------------------------------------------------
// Pairs → AST.

/// A rule's span, without the blanks and `//` comments the grammar skips after its last
/// token (so that a label under a step or a lemma name ends on its line). Raw text (a diagram
/// body, a string) is kept as it is.
fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    if matches!(
        p.as_rule(),
        Rule::diagram_body | Rule::string | Rule::string_inner
    ) {
        return Span::new(s.start(), s.end());
    }
    Span::new(s.start(), s.start() + trimmed_len(p.as_str()))
}

/// The length of a rule's text without trailing blanks and `//` comments.
fn trimmed_len(text: &str) -> usize {
    let mut t = text;
    loop {
        let trimmed = t.trim_end_matches([' ', '\t', '\r', '\n', '\u{feff}']);
        let line_start = trimmed.rfind('\n').map_or(0, |i| i + 1);
        match comment_start(&trimmed[line_start..]) {
            Some(c) => t = &trimmed[..line_start + c],
            None => return trimmed.len(),
        }
    }
}

/// Where a `//` comment starts in a line, outside `"strings"`.
fn comment_start(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        match b[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'/' if !in_string && b.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

fn name(p: Pair<Rule>) -> Name {
    // `label`, `lemma_ref` and `premise_label` wrap a `name`; use the inner word's span.
    let inner = if p.as_rule() == Rule::name {
        p
    } else {
        p.into_inner()
            .find(|q| q.as_rule() == Rule::name)
            .expect("wrapper rules contain a name")
    };
    Name {
        text: inner.as_str().to_string(),
        span: span(&inner),
    }
}

fn colour(p: Pair<Rule>) -> ColourWord {
    let inner = if p.as_rule() == Rule::colour {
        p.into_inner().next().expect("colour has a keyword")
    } else {
        p
    };
    match inner.as_rule() {
        Rule::kw_black => ColourWord::Black,
        _ => ColourWord::White,
    }
}

fn string(p: Pair<Rule>) -> String {
    let raw = p.into_inner().next().map(|q| q.as_str()).unwrap_or("");
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn notation_word(p: Pair<Rule>) -> NotationWord {
    match p.into_inner().next().map(|q| q.as_rule()) {
        Some(Rule::kw_digits) => NotationWord::Digits,
        _ => NotationWord::Letters,
    }
}

fn build_file(p: Pair<Rule>) -> File {
    let mut inner = p.into_inner();
    let board = build_board(inner.next().expect("file starts with the board"));
    let mut statements = Vec::new();
    for q in inner {
        match q.as_rule() {
            Rule::EOI => {}
            Rule::use_decl
                if q.clone()
                    .into_inner()
                    .any(|r| r.as_rule() == Rule::use_templates) =>
            {
                statements.push(Statement::UseTemplates(span(&q)));
            }
            Rule::use_decl => {
                let sp = span(&q);
                let s = q
                    .into_inner()
                    .find(|r| r.as_rule() == Rule::string)
                    .map(string)
                    .unwrap_or_default();
                statements.push(Statement::Use { path: s, span: sp });
            }
            Rule::notation_decl => {
                let sp = span(&q);
                let k = q
                    .into_inner()
                    .find(|r| r.as_rule() == Rule::notation_kind)
                    .map(notation_word)
                    .unwrap_or(NotationWord::Letters);
                statements.push(Statement::Notation(k, sp));
            }
            Rule::cell_decl | Rule::cells_decl | Rule::set_decl | Rule::stones_decl => {
                statements.push(Statement::Setup(build_setup(q)))
            }
            Rule::lemma => statements.push(Statement::Lemma(build_lemma(q))),
            Rule::derive => statements.push(Statement::Derive(build_derive(q))),
            Rule::strategy => statements.push(Statement::Strategy(build_strategy(q))),
            r => unreachable!("unexpected top-level rule {r:?}"),
        }
    }
    File { board, statements }
}

fn build_board(p: Pair<Rule>) -> BoardDecl {
    let sp = span(&p);
    let mut size = None;
    let mut notation = None;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::board_size => {
                size = Some(Name {
                    text: q.as_str().to_string(),
                    span: span(&q),
                })
            }
            Rule::notation_kind => {
                let s = span(&q);
                notation = Some((notation_word(q), s));
            }
            _ => {}
        }
    }
    BoardDecl {
        size: size.expect("board has a size"),
        notation,
        span: sp,
    }
}

fn build_setup(p: Pair<Rule>) -> Setup {
    let sp = span(&p);
    match p.as_rule() {
        Rule::cell_decl => {
            let mut names = p.into_inner().filter(|q| q.as_rule() == Rule::name);
            let n = name(names.next().expect("cell name"));
            let t = name(names.next().expect("cell target"));
            Setup::Cell {
                name: n,
                target: t,
                span: sp,
            }
        }
        Rule::cells_decl => {
            let bindings = p
                .into_inner()
                .filter(|q| q.as_rule() == Rule::cell_binding)
                .map(|b| {
                    let mut it = b.into_inner();
                    let n = name(it.next().expect("binding name"));
                    let t = name(it.next().expect("binding target"));
                    (n, t)
                })
                .collect();
            Setup::Cells { bindings, span: sp }
        }
        Rule::set_decl => {
            let mut n = None;
            let mut cells = None;
            for q in p.into_inner() {
                match q.as_rule() {
                    Rule::name => n = Some(name(q)),
                    Rule::cell_list => cells = Some(cell_list(q)),
                    _ => {}
                }
            }
            Setup::Set {
                name: n.expect("set name"),
                cells: cells.expect("set cells"),
                span: sp,
            }
        }
        Rule::stones_decl => {
            let mut c = ColourWord::Black;
            let mut stones = Vec::new();
            for q in p.into_inner() {
                match q.as_rule() {
                    Rule::colour => c = colour(q),
                    Rule::stone => {
                        let mut it = q.into_inner().filter(|r| r.as_rule() == Rule::name);
                        let cell = name(it.next().expect("stone cell"));
                        let alias = it.next().map(name);
                        stones.push((cell, alias));
                    }
                    _ => {}
                }
            }
            Setup::Stones {
                colour: c,
                stones,
                span: sp,
            }
        }
        r => unreachable!("not a setup rule: {r:?}"),
    }
}

fn cell_list(p: Pair<Rule>) -> CellList {
    let sp = span(&p);
    CellList {
        items: p
            .into_inner()
            .filter(|q| q.as_rule() == Rule::name)
            .map(name)
            .collect(),
        span: sp,
    }
}

fn carrier_spec(p: Pair<Rule>) -> CarrierSpec {
    let q = p.into_inner().next().expect("carrier spec content");
    match q.as_rule() {
        Rule::cell_list => CarrierSpec::List(cell_list(q)),
        _ => CarrierSpec::Named(name(q)),
    }
}

/// Builds a claim from a `claim` pair plus the option pairs that follow it.
fn claim_ast(p: Pair<Rule>) -> ClaimAst {
    let sp = span(&p);
    let seps: Vec<(Rule, Span)> = p
        .clone()
        .into_inner()
        .filter(|q| matches!(q.as_rule(), Rule::union_sep | Rule::conj_sep))
        .map(|q| (q.as_rule(), span(&q)))
        .collect();
    let conj = seps.iter().any(|s| s.0 == Rule::conj_sep);
    let mixed = (conj && seps.iter().any(|s| s.0 == Rule::union_sep)).then_some(sp);
    let pairs = p
        .into_inner()
        .filter(|q| q.as_rule() == Rule::pair)
        .map(|q| {
            let mut it = q.into_inner();
            (
                name(it.next().expect("pair end")),
                name(it.next().expect("pair end")),
            )
        })
        .collect();
    ClaimAst {
        pairs,
        conj,
        mixed,
        owner: None,
        first: None,
        span: sp,
    }
}

fn owner_of(q: Pair<Rule>) -> (ColourWord, Span) {
    let sp = span(&q);
    let col = q
        .into_inner()
        .find(|r| r.as_rule() == Rule::colour)
        .map(colour)
        .unwrap_or(ColourWord::Black);
    (col, sp)
}

/// Reads a sequence of `claim`, options, `on SPEC`, options (in any of the grammar's orders).
fn claim_with_options<'i>(
    items: impl Iterator<Item = Pair<'i, Rule>>,
) -> (Option<ClaimAst>, Option<CarrierSpec>, Vec<Pair<'i, Rule>>) {
    let mut claim: Option<ClaimAst> = None;
    let mut carrier = None;
    let mut rest = Vec::new();
    for q in items {
        match q.as_rule() {
            Rule::claim => claim = Some(claim_ast(q)),
            Rule::owner_clause => {
                if let Some(c) = claim.as_mut() {
                    if c.owner.is_none() {
                        c.owner = Some(owner_of(q));
                    }
                }
            }
            Rule::first_clause => {
                if let Some(c) = claim.as_mut() {
                    if c.first.is_none() {
                        c.first = Some(owner_of(q));
                    }
                }
            }
            Rule::carrier_spec => carrier = Some(carrier_spec(q)),
            Rule::kw_on => {}
            _ => rest.push(q),
        }
    }
    (claim, carrier, rest)
}

fn triple(p: Pair<Rule>) -> Triple {
    let sp = span(&p);
    let mut it = p.into_inner();
    let a = name(it.next().expect("triple end"));
    let carrier = cell_list(it.next().expect("triple carrier"));
    let b = name(it.next().expect("triple end"));
    Triple {
        a,
        carrier,
        b,
        span: sp,
    }
}

fn kind(p: Pair<Rule>) -> KindWord {
    match p.into_inner().next().map(|q| q.as_rule()) {
        Some(Rule::kw_vsc) => KindWord::Vsc,
        _ => KindWord::Vc,
    }
}

fn triple_fact(p: Pair<Rule>) -> FactAst {
    let sp = span(&p);
    let mut t = None;
    let mut k = KindWord::Vc;
    let mut owner = None;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::triple => t = Some(triple(q)),
            Rule::kind => k = kind(q),
            Rule::owner_clause => owner = Some(owner_of(q)),
            _ => {}
        }
    }
    FactAst::Triple {
        triple: t.expect("triple fact has a triple"),
        kind: k,
        owner,
        span: sp,
    }
}

fn fact(p: Pair<Rule>) -> FactAst {
    let q = p.into_inner().next().expect("fact content");
    match q.as_rule() {
        Rule::triple_fact => triple_fact(q),
        Rule::general_fact => {
            let sp = span(&q);
            let (claim, carrier, _) = claim_with_options(q.into_inner());
            FactAst::General {
                claim: claim.expect("general fact has a claim"),
                carrier: carrier.expect("general fact has a carrier"),
                span: sp,
            }
        }
        r => unreachable!("not a fact: {r:?}"),
    }
}

fn premise(p: Pair<Rule>) -> PremiseAst {
    let q = p.into_inner().next().expect("premise content");
    match q.as_rule() {
        Rule::premise_triple => {
            let t = triple(q.into_inner().next().expect("premise triple"));
            let sp = t.span;
            PremiseAst::Triple {
                triple: t,
                kind: None,
                owner: None,
                span: sp,
            }
        }
        _ => PremiseAst::Label(name(q)),
    }
}

fn paper_premise(p: Pair<Rule>) -> PremiseAst {
    let f = triple_fact(p.into_inner().next().expect("paper premise"));
    match f {
        FactAst::Triple {
            triple,
            kind,
            owner,
            span,
        } => PremiseAst::Triple {
            triple,
            kind: Some(kind),
            owner,
            span,
        },
        FactAst::General { .. } => unreachable!("paper premises are triples"),
    }
}

fn justification(p: Pair<Rule>) -> JustAst {
    let sp = span(&p);
    let q = p
        .into_inner()
        .find(|r| r.as_rule() != Rule::kw_by)
        .expect("justification content");
    let premises = |q: Pair<Rule>| -> Vec<PremiseAst> {
        q.into_inner()
            .filter(|r| r.as_rule() == Rule::premise)
            .map(premise)
            .collect()
    };
    match q.as_rule() {
        Rule::by_search => JustAst::Search(sp),
        Rule::by_and => JustAst::And(premises(q), sp),
        Rule::by_or => JustAst::Or(premises(q), sp),
        Rule::by_rule1 => {
            let mut ps = premises(q);
            JustAst::Rule1(ps.remove(0), sp)
        }
        Rule::by_rule2 => {
            let mut ps = premises(q);
            let b = ps.remove(1);
            let a = ps.remove(0);
            JustAst::Rule2(a, b, sp)
        }
        Rule::by_mono => {
            let mut ps = premises(q);
            JustAst::Mono(ps.remove(0), sp)
        }
        Rule::by_lemma => JustAst::Lemma(
            q.into_inner()
                .filter(|r| r.as_rule() == Rule::lemma_ref)
                .map(lemma_ref)
                .collect(),
            sp,
        ),
        r => unreachable!("not a justification: {r:?}"),
    }
}

fn lemma_ref(p: Pair<Rule>) -> LemmaRefAst {
    let sp = span(&p);
    let mut it = p.into_inner();
    let n = name(it.next().expect("lemma name"));
    let mut under = Vec::new();
    let mut at = None;
    for q in it {
        match q.as_rule() {
            Rule::under_clause => {
                for r in q.into_inner() {
                    if r.as_rule() == Rule::sym_name {
                        under.push(Name {
                            text: r.as_str().to_string(),
                            span: span(&r),
                        });
                    }
                }
            }
            Rule::at_clause => {
                let ns: Vec<Name> = q
                    .into_inner()
                    .filter(|r| r.as_rule() == Rule::name)
                    .map(name)
                    .collect();
                if ns.len() == 2 {
                    at = Some((ns[0].clone(), ns[1].clone()));
                }
            }
            _ => {}
        }
    }
    LemmaRefAst {
        name: n,
        under,
        at,
        span: sp,
    }
}

fn step(p: Pair<Rule>) -> StepAst {
    let sp = span(&p);
    let mut label = None;
    let mut body = StepBody::Qed;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::label => label = Some(name(q)),
            Rule::qed => body = StepBody::Qed,
            Rule::rule_step => {
                let mut f = None;
                let mut j = None;
                for r in q.into_inner() {
                    match r.as_rule() {
                        Rule::fact => f = Some(fact(r)),
                        Rule::justification => j = Some(justification(r)),
                        _ => {}
                    }
                }
                body = StepBody::Rule {
                    fact: f.expect("rule step has a fact"),
                    just: j,
                };
            }
            Rule::paper_step => {
                let mut premises = Vec::new();
                let mut rule = PaperRule::And;
                let mut rule_span = sp;
                let mut f = None;
                for r in q.into_inner() {
                    match r.as_rule() {
                        Rule::paper_premise => premises.push(paper_premise(r)),
                        Rule::rule_name => {
                            rule_span = span(&r);
                            rule = match r.into_inner().next().map(|x| x.as_rule()) {
                                Some(Rule::kw_or) => PaperRule::Or,
                                _ => PaperRule::And,
                            };
                        }
                        Rule::triple_fact => f = Some(triple_fact(r)),
                        _ => {}
                    }
                }
                body = StepBody::Paper {
                    premises,
                    rule,
                    rule_span,
                    fact: f.expect("paper step has a conclusion"),
                };
            }
            _ => {}
        }
    }
    StepAst {
        label,
        body,
        span: sp,
    }
}

fn block_items<'i>(items: impl Iterator<Item = Pair<'i, Rule>>) -> Vec<BlockItem> {
    items
        .filter_map(|q| match q.as_rule() {
            Rule::cell_decl | Rule::cells_decl | Rule::set_decl | Rule::stones_decl => {
                Some(BlockItem::Setup(build_setup(q)))
            }
            Rule::step => Some(BlockItem::Step(step(q))),
            _ => None,
        })
        .collect()
}

fn name_and_title<'i>(items: &mut Vec<Pair<'i, Rule>>) -> (Option<Name>, Option<String>) {
    let mut n = None;
    let mut t = None;
    items.retain(|q| match q.as_rule() {
        Rule::name if n.is_none() => {
            n = Some(name(q.clone()));
            false
        }
        Rule::string if t.is_none() => {
            t = Some(string(q.clone()));
            false
        }
        _ => true,
    });
    (n, t)
}

fn build_lemma(p: Pair<Rule>) -> Lemma {
    let sp = span(&p);
    let mut items: Vec<Pair<Rule>> = p
        .into_inner()
        .filter(|q| q.as_rule() != Rule::kw_lemma)
        .collect();
    let (n, title) = name_and_title(&mut items);
    let mut lemma = Lemma {
        name: n.expect("lemma has a name"),
        title,
        setup: Vec::new(),
        diagram: None,
        carrier: None,
        claim: None,
        guarantees: Vec::new(),
        assumes: Vec::new(),
        proof: None,
        tree: None,
        repeated: Vec::new(),
        span: sp,
    };
    for q in items {
        let qs = span(&q);
        match q.as_rule() {
            Rule::cell_decl | Rule::cells_decl | Rule::set_decl | Rule::stones_decl => {
                lemma.setup.push(build_setup(q))
            }
            Rule::diagram => {
                if lemma.diagram.is_some() {
                    lemma.repeated.push(("diagram", qs));
                    continue;
                }
                let body = q
                    .into_inner()
                    .find(|r| r.as_rule() == Rule::diagram_body)
                    .expect("diagram body");
                lemma.diagram = Some((body.as_str().to_string(), span(&body)));
            }
            Rule::carrier_decl => {
                if lemma.carrier.is_some() {
                    lemma.repeated.push(("carrier", qs));
                    continue;
                }
                let l = q
                    .into_inner()
                    .find(|r| r.as_rule() == Rule::cell_list)
                    .expect("carrier list");
                lemma.carrier = Some(cell_list(l));
            }
            Rule::claim_decl => {
                if lemma.claim.is_some() {
                    lemma.repeated.push(("claim", qs));
                    continue;
                }
                let (claim, carrier, _) = claim_with_options(q.into_inner());
                lemma.claim = Some(ClaimDecl {
                    claim: claim.expect("claim decl has a claim"),
                    carrier,
                    span: qs,
                });
            }
            Rule::guarantee | Rule::assume => {
                let is_assume = q.as_rule() == Rule::assume;
                let mut cols = Vec::new();
                let mut names = Vec::new();
                for r in q.into_inner() {
                    match r.as_rule() {
                        Rule::colour => cols.push(colour(r)),
                        Rule::name => names.push(name(r)),
                        _ => {}
                    }
                }
                if cols.len() == 2 && names.len() == 2 {
                    let list = if is_assume {
                        &mut lemma.assumes
                    } else {
                        &mut lemma.guarantees
                    };
                    list.push((cols[0], names[0].clone(), cols[1], names[1].clone(), qs));
                }
            }
            Rule::proof_tree => {
                if lemma.proof.is_some() || lemma.tree.is_some() {
                    lemma.repeated.push(("proof", qs));
                    continue;
                }
                if let Some(w) = q.into_inner().find(|r| r.as_rule() == Rule::white_node) {
                    lemma.tree = Some((tree_node(w), qs));
                }
            }
            Rule::proof_block => {
                if lemma.proof.is_some() || lemma.tree.is_some() {
                    lemma.repeated.push(("proof", qs));
                    continue;
                }
                lemma.proof = Some((block_items(q.into_inner()), qs));
            }
            _ => {}
        }
    }
    lemma
}

fn build_derive(p: Pair<Rule>) -> Derive {
    let sp = span(&p);
    let mut items: Vec<Pair<Rule>> = p
        .into_inner()
        .filter(|q| q.as_rule() != Rule::kw_derive)
        .collect();
    let (n, title) = name_and_title(&mut items);
    Derive {
        name: n,
        title,
        items: block_items(items.into_iter()),
        span: sp,
    }
}

fn build_strategy(p: Pair<Rule>) -> Strategy {
    let sp = span(&p);
    let mut items: Vec<Pair<Rule>> = p
        .into_inner()
        .filter(|q| q.as_rule() != Rule::kw_strategy)
        .collect();
    let (n, title) = name_and_title(&mut items);
    let setup = items
        .iter()
        .filter(|q| {
            matches!(
                q.as_rule(),
                Rule::cell_decl | Rule::cells_decl | Rule::set_decl
            )
        })
        .cloned()
        .map(build_setup)
        .collect();
    let body = items
        .iter()
        .find(|q| q.as_rule() == Rule::tree_body)
        .cloned()
        .map(tree_body)
        .unwrap_or_default();
    let image = items
        .iter()
        .find(|q| q.as_rule() == Rule::image_of)
        .cloned()
        .map(image_of);
    let shared = items
        .into_iter()
        .filter(|q| q.as_rule() == Rule::shared_pos)
        .map(shared_position)
        .collect();
    Strategy {
        name: n,
        title,
        setup,
        body,
        shared,
        image,
        span: sp,
    }
}

/// `[black M] image "FILE" under SYM`.
fn image_of(p: Pair<Rule>) -> ImageOf {
    let sp = span(&p);
    let mut names = Vec::new();
    let mut path = String::new();
    let mut black = false;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::kw_black => black = true,
            Rule::name => names.push(name(q)),
            Rule::string => path = string(q),
            _ => {}
        }
    }
    let sym = names.pop().expect("the grammar requires a symmetry word");
    ImageOf {
        black: if black { names.pop() } else { None },
        path,
        sym,
        span: sp,
    }
}

fn shared_position(p: Pair<Rule>) -> SharedPosition {
    let sp = span(&p);
    let mut n = None;
    let mut lists = Vec::new();
    let mut colours = Vec::new();
    let mut body = Vec::new();
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::name => n = Some(name(q)),
            Rule::kw_black => colours.push(true),
            Rule::kw_white => colours.push(false),
            Rule::cell_list => lists.push(cell_list(q)),
            Rule::tree_body => body = tree_body(q),
            _ => {}
        }
    }
    let mut black = None;
    let mut white = None;
    for (is_black, l) in colours.into_iter().zip(lists) {
        if is_black {
            black = Some(l);
        } else {
            white = Some(l);
        }
    }
    SharedPosition {
        name: n.expect("shared position name"),
        black,
        white,
        body,
        span: sp,
    }
}

fn tree_body(p: Pair<Rule>) -> Vec<TreeNode> {
    p.into_inner().map(tree_node).collect()
}

fn tree_node(p: Pair<Rule>) -> TreeNode {
    let sp = span(&p);
    match p.as_rule() {
        Rule::black_move => {
            let mut names = Vec::new();
            let mut body = Vec::new();
            let mut goto = None;
            let mut goto_under = None;
            for q in p.into_inner() {
                match q.as_rule() {
                    Rule::name => names.push(name(q)),
                    Rule::tree_body => body = tree_body(q),
                    Rule::goto_ref => {
                        let mut it = q.into_inner().filter(|r| r.as_rule() == Rule::name);
                        goto = it.next().map(name);
                        goto_under = it.next().map(name);
                    }
                    _ => {}
                }
            }
            let mut it = names.into_iter();
            TreeNode::Black {
                cell: it.next().expect("black move cell"),
                alias: it.next(),
                body,
                goto,
                goto_under,
                span: sp,
            }
        }
        Rule::white_node => {
            let mut precludes = Vec::new();
            let mut cases = Vec::new();
            for q in p.into_inner() {
                let qs = span(&q);
                match q.as_rule() {
                    Rule::preclude => {
                        let mut z = None;
                        let mut body = Vec::new();
                        for r in q.into_inner() {
                            match r.as_rule() {
                                Rule::name => z = Some(name(r)),
                                Rule::tree_body => body = tree_body(r),
                                _ => {}
                            }
                        }
                        precludes.push((z.expect("preclude move"), body, qs));
                    }
                    Rule::case_arm => {
                        let mut moves = Vec::new();
                        let mut reply = None;
                        let mut rest = false;
                        for r in q.into_inner() {
                            match r.as_rule() {
                                Rule::name => moves.push(name(r)),
                                Rule::case_rest => rest = true,
                                Rule::black_move => reply = Some(Box::new(tree_node(r))),
                                _ => {}
                            }
                        }
                        cases.push((moves, reply.expect("case reply"), qs, rest));
                    }
                    _ => {}
                }
            }
            TreeNode::White {
                precludes,
                cases,
                span: sp,
            }
        }
        Rule::step => TreeNode::Step(step(p)),
        Rule::fill_stmt => {
            let mut captured = false;
            let mut col = None;
            let mut cells = None;
            for q in p.into_inner() {
                match q.as_rule() {
                    Rule::fill_kind => {
                        captured =
                            q.into_inner().next().map(|r| r.as_rule()) == Some(Rule::fill_captured)
                    }
                    Rule::colour => col = Some(colour(q)),
                    Rule::cell_list => cells = Some(cell_list(q)),
                    _ => {}
                }
            }
            TreeNode::Fill(FillAst {
                captured,
                colour: col,
                cells: cells.expect("fill cell list"),
                span: sp,
            })
        }
        r => unreachable!("not a tree node: {r:?}"),
    }
}

#[cfg(test)]
mod tests;
