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

/// A diagnostic about one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    /// The file.
    pub file: FileId,
    /// Severity.
    pub level: Level,
    /// A short machine-readable code, e.g. `hexp::unknown-name`.
    pub code: &'static str,
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
        code: &'static str,
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
    /// Byte offset of each line's start (0 first), so [`Sources::line_col`] is a binary
    /// search: a diagnostic per step of a large proof (7×7 exports have ~10⁵ steps in a
    /// 7 MB file) made counting newlines from the start quadratic — 97 % of a check.
    line_starts: Arc<Vec<usize>>,
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
        // Lines starting at or before `off` (a line starts after its '\n', so a '\n' at
        // `off` itself belongs to the line before).
        let starts = &self.files[file].line_starts;
        let line = starts.partition_point(|&s| s <= off);
        let line_start = starts[line - 1];
        let column = text[line_start..off].chars().count() + 1;
        LineCol { line, column }
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

    /// Renders a diagnostic: header, `file:line:column`, snippet with labels, help.
    pub fn render(&self, d: &Diag) -> String {
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

    /// Renders several diagnostics, separated by blank lines.
    pub fn render_all(&self, ds: &[Diag]) -> String {
        ds.iter()
            .map(|d| self.render(d))
            .collect::<Vec<_>>()
            .join("\n")
    }
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

    /// The indexed `line_col` agrees with counting newlines, at every offset (line ends,
    /// the end of the text, beyond it, inside a multi-byte character).
    #[test]
    fn line_col_matches_counting_newlines() {
        let text = "ab\n\nc·d\ne\n";
        let mut s = Sources::default();
        let f = s.add("t", text);
        for off in 0..text.len() + 3 {
            let mut o = off.min(text.len());
            while !text.is_char_boundary(o) {
                o -= 1;
            }
            let before = &text[..o];
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            let want = LineCol {
                line: before.matches('\n').count() + 1,
                column: text[start..o].chars().count() + 1,
            };
            assert_eq!(s.line_col(f, off), want, "offset {off}");
        }
    }
}
