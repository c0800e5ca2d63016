//! Diagnostics: one type for every error the language passes report, rendered with miette.
//!
//! A [`Diag`] names its file by [`FileId`] and points into it with byte [`Span`]s over the
//! whole file. [`Sources`] holds every loaded file's text; [`Sources::render`] draws a
//! diagnostic with `file:line:column`, the source snippet and the labels, deterministically
//! (no colour, fixed width), so reports can be snapshot-tested.

use super::ast::Span;
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, Severity,
    SourceCode,
};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// Index of a file in [`Sources`].
pub type FileId = usize;

/// Width used when rendering diagnostics.
pub const RENDER_WIDTH: usize = 100;

/// The longest source line (in bytes) a snippet draws. A diagnostic whose labels touch a longer
/// line (or have one beside them, as context) names its places by `file:line:column` without
/// the snippet: the renderer cannot draw columns past 65,535, and such a line is no use on
/// screen (nor fifty copies of it in a report).
pub const MAX_SNIPPET_COLUMN: usize = 1000;

/// How bad it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Stops the file from being checked, or a step failed.
    Error,
    /// Worth knowing; does not change the verdict.
    Warning,
    /// Extra information.
    Note,
}

/// One labelled span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say under it.
    pub text: String,
}

/// The machine-readable code of a diagnostic, printed as `hexp::NAME`: one per kind of
/// mistake, so scripts and tests can match on it (docs/LANGUAGE.md lists what each means).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagCode {
    /// `hexp::assume`
    Assume,
    /// `hexp::bad-claim`
    BadClaim,
    /// `hexp::bad-pair`
    BadPair,
    /// `hexp::board`
    Board,
    /// `hexp::border`
    Border,
    /// `hexp::carrier-twice`
    CarrierTwice,
    /// `hexp::conj-lemma`
    ConjLemma,
    /// `hexp::diagram-mark`
    DiagramMark,
    /// `hexp::diagram-shape`
    DiagramShape,
    /// `hexp::diagram-symbol`
    DiagramSymbol,
    /// `hexp::duplicate-case`
    DuplicateCase,
    /// `hexp::duplicate-label`
    DuplicateLabel,
    /// `hexp::duplicate-lemma`
    DuplicateLemma,
    /// `hexp::duplicate-name`
    DuplicateName,
    /// `hexp::duplicate-position`
    DuplicatePosition,
    /// `hexp::endpoint-in-carrier`
    EndpointInCarrier,
    /// `hexp::fill`
    Fill,
    /// `hexp::forward-label`
    ForwardLabel,
    /// `hexp::goto`
    Goto,
    /// `hexp::goto-cycle`
    GotoCycle,
    /// `hexp::guarantee`
    Guarantee,
    /// `hexp::lemma-tree`
    LemmaTree,
    /// `hexp::mixed-claim`
    MixedClaim,
    /// `hexp::no-carrier`
    NoCarrier,
    /// `hexp::no-claim`
    NoClaim,
    /// `hexp::notation`
    Notation,
    /// `hexp::occupied`
    Occupied,
    /// `hexp::occupied-move`
    OccupiedMove,
    /// `hexp::off-board`
    OffBoard,
    /// `hexp::opponent-endpoint`
    OpponentEndpoint,
    /// `hexp::position`
    Position,
    /// `hexp::repeated`
    Repeated,
    /// `hexp::shadowing`
    Shadowing,
    /// `hexp::step-failed`
    StepFailed,
    /// `hexp::syntax`
    Syntax,
    /// `hexp::too-many-errors`
    TooManyErrors,
    /// `hexp::tree-shape`
    TreeShape,
    /// `hexp::unknown-label`
    UnknownLabel,
    /// `hexp::unknown-lemma`
    UnknownLemma,
    /// `hexp::unknown-name`
    UnknownName,
    /// `hexp::unreadable`
    Unreadable,
    /// `hexp::use-cycle`
    UseCycle,
    /// `hexp::use-failed`
    UseFailed,
    /// `hexp::use-unreadable`
    UseUnreadable,
}

impl DiagCode {
    /// Every code, in alphabetical order of its name.
    pub const ALL: [DiagCode; 44] = [
        DiagCode::Assume,
        DiagCode::BadClaim,
        DiagCode::BadPair,
        DiagCode::Board,
        DiagCode::Border,
        DiagCode::CarrierTwice,
        DiagCode::ConjLemma,
        DiagCode::DiagramMark,
        DiagCode::DiagramShape,
        DiagCode::DiagramSymbol,
        DiagCode::DuplicateCase,
        DiagCode::DuplicateLabel,
        DiagCode::DuplicateLemma,
        DiagCode::DuplicateName,
        DiagCode::DuplicatePosition,
        DiagCode::EndpointInCarrier,
        DiagCode::Fill,
        DiagCode::ForwardLabel,
        DiagCode::Goto,
        DiagCode::GotoCycle,
        DiagCode::Guarantee,
        DiagCode::LemmaTree,
        DiagCode::MixedClaim,
        DiagCode::NoCarrier,
        DiagCode::NoClaim,
        DiagCode::Notation,
        DiagCode::Occupied,
        DiagCode::OccupiedMove,
        DiagCode::OffBoard,
        DiagCode::OpponentEndpoint,
        DiagCode::Position,
        DiagCode::Repeated,
        DiagCode::Shadowing,
        DiagCode::StepFailed,
        DiagCode::Syntax,
        DiagCode::TooManyErrors,
        DiagCode::TreeShape,
        DiagCode::UnknownLabel,
        DiagCode::UnknownLemma,
        DiagCode::UnknownName,
        DiagCode::Unreadable,
        DiagCode::UseCycle,
        DiagCode::UseFailed,
        DiagCode::UseUnreadable,
    ];

    /// The printed form, `hexp::NAME`.
    pub fn as_str(self) -> &'static str {
        match self {
            DiagCode::Assume => "hexp::assume",
            DiagCode::BadClaim => "hexp::bad-claim",
            DiagCode::BadPair => "hexp::bad-pair",
            DiagCode::Board => "hexp::board",
            DiagCode::Border => "hexp::border",
            DiagCode::CarrierTwice => "hexp::carrier-twice",
            DiagCode::ConjLemma => "hexp::conj-lemma",
            DiagCode::DiagramMark => "hexp::diagram-mark",
            DiagCode::DiagramShape => "hexp::diagram-shape",
            DiagCode::DiagramSymbol => "hexp::diagram-symbol",
            DiagCode::DuplicateCase => "hexp::duplicate-case",
            DiagCode::DuplicateLabel => "hexp::duplicate-label",
            DiagCode::DuplicateLemma => "hexp::duplicate-lemma",
            DiagCode::DuplicateName => "hexp::duplicate-name",
            DiagCode::DuplicatePosition => "hexp::duplicate-position",
            DiagCode::EndpointInCarrier => "hexp::endpoint-in-carrier",
            DiagCode::Fill => "hexp::fill",
            DiagCode::ForwardLabel => "hexp::forward-label",
            DiagCode::Goto => "hexp::goto",
            DiagCode::GotoCycle => "hexp::goto-cycle",
            DiagCode::Guarantee => "hexp::guarantee",
            DiagCode::LemmaTree => "hexp::lemma-tree",
            DiagCode::MixedClaim => "hexp::mixed-claim",
            DiagCode::NoCarrier => "hexp::no-carrier",
            DiagCode::NoClaim => "hexp::no-claim",
            DiagCode::Notation => "hexp::notation",
            DiagCode::Occupied => "hexp::occupied",
            DiagCode::OccupiedMove => "hexp::occupied-move",
            DiagCode::OffBoard => "hexp::off-board",
            DiagCode::OpponentEndpoint => "hexp::opponent-endpoint",
            DiagCode::Position => "hexp::position",
            DiagCode::Repeated => "hexp::repeated",
            DiagCode::Shadowing => "hexp::shadowing",
            DiagCode::StepFailed => "hexp::step-failed",
            DiagCode::Syntax => "hexp::syntax",
            DiagCode::TooManyErrors => "hexp::too-many-errors",
            DiagCode::TreeShape => "hexp::tree-shape",
            DiagCode::UnknownLabel => "hexp::unknown-label",
            DiagCode::UnknownLemma => "hexp::unknown-lemma",
            DiagCode::UnknownName => "hexp::unknown-name",
            DiagCode::Unreadable => "hexp::unreadable",
            DiagCode::UseCycle => "hexp::use-cycle",
            DiagCode::UseFailed => "hexp::use-failed",
            DiagCode::UseUnreadable => "hexp::use-unreadable",
        }
    }
}

impl fmt::Display for DiagCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A diagnostic about one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    /// The file.
    pub file: FileId,
    /// Severity.
    pub level: Level,
    /// A short machine-readable code, e.g. `hexp::unknown-name`.
    pub code: DiagCode,
    /// The message (one sentence).
    pub message: String,
    /// Labelled spans; the first is the primary one.
    pub labels: Vec<Label>,
    /// Extra advice.
    pub help: Option<String>,
}

impl Diag {
    /// An error with a primary label.
    pub fn error(
        file: FileId,
        code: DiagCode,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diag {
        Diag {
            file,
            level: Level::Error,
            code,
            message: message.into(),
            labels: vec![Label {
                span,
                text: label.into(),
            }],
            help: None,
        }
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Diag {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Adds advice.
    pub fn with_help(mut self, help: impl Into<String>) -> Diag {
        self.help = Some(help.into());
        self
    }

    /// The primary span.
    pub fn span(&self) -> Span {
        self.labels.first().map(|l| l.span).unwrap_or_default()
    }
}

/// One loaded file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (the path as given).
    pub name: String,
    /// The text.
    pub text: Arc<String>,
    /// Byte offset of the start of each line (the first is 0), so that [`Sources::line_col`]
    /// is a binary search: a checker reports the place of every step, and an exported solver
    /// proof has hundreds of thousands of lines.
    pub line_starts: Arc<Vec<usize>>,
}

/// Every loaded file.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// Indexed by [`FileId`].
    pub files: Vec<SourceFile>,
}

/// `line:column` (both 1-based; columns count characters).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct LineCol {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

impl Sources {
    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let text: String = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        self.files.push(SourceFile {
            name: name.into(),
            text: Arc::new(text),
            line_starts: Arc::new(line_starts),
        });
        self.files.len() - 1
    }

    /// The file's name.
    pub fn name(&self, file: FileId) -> &str {
        &self.files[file].name
    }

    /// The file's text.
    pub fn text(&self, file: FileId) -> &str {
        &self.files[file].text
    }

    /// Line and column of a byte offset (clamped to the text, snapped to a char boundary).
    pub fn line_col(&self, file: FileId, offset: usize) -> LineCol {
        let text = self.text(file);
        let mut off = offset.min(text.len());
        while !text.is_char_boundary(off) {
            off -= 1;
        }
        // The last line starting at or before `off`.
        let starts = &self.files[file].line_starts;
        let line = starts.partition_point(|&st| st <= off);
        let line_start = starts[line - 1];
        let column = text[line_start..off].chars().count() + 1;
        LineCol { line, column }
    }

    /// The length in bytes of line `line` (from 1; 0 for a line that does not exist).
    fn line_len(&self, file: FileId, line: usize) -> usize {
        let starts = &self.files[file].line_starts;
        let text_len = self.text(file).len();
        match line.checked_sub(1).and_then(|i| starts.get(i)) {
            Some(&start) => starts.get(line).map_or(text_len, |&next| next) - start,
            None => 0,
        }
    }

    /// The source text of a span (clamped).
    pub fn snippet(&self, file: FileId, span: Span) -> &str {
        let text = self.text(file);
        let (mut s, mut e) = (span.start.min(text.len()), span.end.min(text.len()));
        while !text.is_char_boundary(s) {
            s -= 1;
        }
        while !text.is_char_boundary(e) {
            e += 1;
        }
        &text[s..e.max(s)]
    }

    /// `name:line:column` of a span's start.
    pub fn location(&self, file: FileId, span: Span) -> String {
        format!("{}:{}", self.name(file), self.line_col(file, span.start))
    }

    /// Renders a diagnostic: header, `file:line:column`, snippet with labels, help. A label
    /// past [`MAX_SNIPPET_COLUMN`] gives the places as `file:line:column` lines instead of
    /// the snippet.
    pub fn render(&self, d: &Diag) -> String {
        let too_wide = d.labels.iter().any(|l| {
            let first = self.line_col(d.file, l.span.start).line;
            let last = self.line_col(d.file, l.span.end).line;
            (first.saturating_sub(1)..=last + 1)
                .any(|i| self.line_len(d.file, i) > MAX_SNIPPET_COLUMN)
        });
        if too_wide {
            return self.render_without_snippet(d);
        }
        let wrapped = Rendered {
            diag: d,
            source: NamedSource::new(self.name(d.file), self.files[d.file].text.clone()),
            text_len: self.text(d.file).len(),
        };
        let mut out = String::new();
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_width(RENDER_WIDTH)
            .with_links(false);
        handler
            .render_report(&mut out, &wrapped)
            .expect("rendering to a String cannot fail");
        out
    }

    fn render_without_snippet(&self, d: &Diag) -> String {
        let mut out = format!("{}\n\n  × {}\n", d.code, d.message);
        for l in &d.labels {
            let at = self.location(d.file, l.span);
            if l.text.is_empty() {
                out.push_str(&format!("   at {at}\n"));
            } else {
                out.push_str(&format!("   at {at}: {}\n", l.text));
            }
        }
        out.push_str(&format!(
            "   (the source line is too long to show: over {MAX_SNIPPET_COLUMN} bytes)\n"
        ));
        if let Some(h) = &d.help {
            out.push_str(&format!("  help: {h}\n"));
        }
        out
    }

    /// Renders several diagnostics, separated by blank lines.
    pub fn render_all(&self, ds: &[Diag]) -> String {
        ds.iter()
            .map(|d| self.render(d))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The known name closest to `written` for a "did you mean" hint: the fewest edits (insert,
/// delete, replace, ignoring ASCII case), at most a third of the name's length (at least 1),
/// ties broken alphabetically. `None` when nothing is that close.
pub fn closest_name<'n>(
    written: &str,
    known: impl IntoIterator<Item = &'n str>,
) -> Option<&'n str> {
    let w: Vec<char> = written.chars().map(|c| c.to_ascii_lowercase()).collect();
    let limit = (w.len() / 3).max(1);
    known
        .into_iter()
        .filter(|k| *k != written)
        .filter_map(|k| {
            let d = edit_distance(&w, k);
            (d <= limit).then_some((d, k))
        })
        .min()
        .map(|(_, k)| k)
}

/// Levenshtein distance between `a` (lowercased) and `b`, ignoring ASCII case.
fn edit_distance(a: &[char], b: &str) -> usize {
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// A diagnostic together with its source, as miette wants it.
struct Rendered<'a> {
    diag: &'a Diag,
    source: NamedSource<Arc<String>>,
    text_len: usize,
}

impl fmt::Debug for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rendered").field("diag", self.diag).finish()
    }
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl std::error::Error for Rendered<'_> {}

impl Diagnostic for Rendered<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diag.code))
    }

    fn severity(&self) -> Option<Severity> {
        Some(match self.diag.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Note => Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        // A span past the end makes miette drop the snippet silently: clamp every span.
        let n = self.text_len;
        let labels: Vec<LabeledSpan> = self
            .diag
            .labels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let start = l.span.start.min(n);
                let end = l.span.end.min(n).max(start);
                let text = if l.text.is_empty() {
                    None
                } else {
                    Some(l.text.clone())
                };
                if i == 0 {
                    LabeledSpan::new_primary_with_span(text, (start, end - start))
                } else {
                    LabeledSpan::new_with_span(text, (start, end - start))
                }
            })
            .collect();
        Some(Box::new(labels.into_iter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostic_codes_are_distinct_and_named_alike() {
        let names: Vec<&str> = DiagCode::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, names, "ALL is sorted and has no repeats");
        for n in names {
            let rest = n.strip_prefix("hexp::").expect("hexp:: prefix");
            assert!(!rest.is_empty() && rest.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
        }
    }

    #[test]
    fn closest_name_suggests_near_names_only() {
        let known = ["bridge", "ziggurat", "III1a", "IIIa"];
        assert_eq!(closest_name("brigde", known), Some("bridge"));
        assert_eq!(closest_name("Bridge", known), Some("bridge"));
        assert_eq!(closest_name("iii1a", known), Some("III1a"));
        assert_eq!(closest_name("ladder", known), None);
        assert_eq!(closest_name("bridge", known), None);
    }

    /// The line index gives the places the plain count of newlines gives.
    #[test]
    fn line_col_agrees_with_counting_newlines() {
        let text = "board 3x3\n\nstrategy {\n  black b2 é\n}\n";
        let mut s = Sources::default();
        let f = s.add("t.hexp", text);
        for off in 0..=text.len() + 2 {
            let mut o = off.min(text.len());
            while !text.is_char_boundary(o) {
                o -= 1;
            }
            let before = &text[..o];
            let line = before.matches('\n').count() + 1;
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = text[start..o].chars().count() + 1;
            assert_eq!(s.line_col(f, off), LineCol { line, column }, "offset {off}");
        }
    }
}
