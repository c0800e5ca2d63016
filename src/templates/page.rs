//! One self-contained HTML page listing the library with a figure per template:
//! `hexproof templates show --html OUT` (docs/templates.md, "The page").
//!
//! Every record of the library files and every published entry gets an inline SVG figure
//! ([`super::draw::svg_cells`]) and a caption: name, source, verdict, carrier size, stones,
//! certificate nodes. The verdicts are **re-checked while the page is written** (the kernel
//! on each certificate, [`verify_record`] and [`verify_entry`], no search): a record or entry
//! that does not re-check is shown as such, never as holding. Undecided published templates
//! are marked undecided with what was tried. The page is well-formed XML (XHTML5 syntax:
//! every element closed, no named entities but XML's own), so a plain XML parser reads it;
//! no script, no external file.

use super::library::{verify_record, Library, Record};
use super::published::{verify_entry, Entry, PublishedVerdict};
use crate::render::svg::escape;
use std::fmt::Write as _;

/// What the page found when it re-checked the library.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageSummary {
    /// Records of the library files drawn.
    pub records: usize,
    /// Of them, re-checked by the kernel.
    pub records_ok: usize,
    /// Published entries drawn.
    pub published: usize,
    /// Published entries that hold and re-check.
    pub holds: usize,
    /// Published entries that fail (White's line stored).
    pub fails: usize,
    /// Published entries left undecided.
    pub undecided: usize,
    /// Records or entries that did not re-check (shown as failed re-checks).
    pub not_rechecked: usize,
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222}\
h2{border-bottom:1px solid #999;margin-top:2em}\
.grid{display:flex;flex-wrap:wrap;gap:12px}\
figure{margin:0;padding:8px;border:1px solid #ccc;border-radius:6px;max-width:360px;background:#fff}\
figure svg{max-width:340px;height:auto;display:block}\
figcaption{font-size:13px;line-height:1.35}\
.holds{border-color:#2e7d32}.undecided{border-color:#f9a825;background:#fffbe6}\
.fails{border-color:#6a1b9a}.bad{border-color:#c62828;background:#fdecea}\
.v{font-weight:bold}.holds .v{color:#2e7d32}.undecided .v{color:#b26a00}\
.fails .v{color:#6a1b9a}.bad .v{color:#c62828}\
.tried{color:#555;font-size:12px}table{border-collapse:collapse}\
td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}";

/// An `id` attribute value for a name: letters and digits kept, anything else `-`.
fn slug(prefix: &str, name: &str) -> String {
    let body: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("{prefix}-{body}")
}

fn lower<T: std::fmt::Debug>(v: &T) -> String {
    format!("{v:?}").to_lowercase()
}

/// The page for `lib` (its library files and its published entries; lemma records are in
/// board coordinates and not drawn) and what the re-check found. `title` heads the page.
pub fn html(lib: &Library, title: &str) -> (String, PageSummary) {
    let mut sum = PageSummary::default();
    let mut lib_part = String::new();
    for (path, f) in &lib.files {
        let _ = writeln!(
            lib_part,
            "<h3 id=\"{}\">{}: row {}, {} stone{}, region {}×{}, {} ({} template{})</h3>",
            slug("file", &path.display().to_string()),
            escape(&path.display().to_string()),
            f.row,
            f.stones,
            if f.stones == 1 { "" } else { "s" },
            f.region.height,
            f.region.width,
            if f.complete {
                "complete enumeration"
            } else {
                "seeds only, not an enumeration"
            },
            f.templates.len(),
            if f.templates.len() == 1 { "" } else { "s" },
        );
        lib_part.push_str("<div class=\"grid\">\n");
        for r in &f.templates {
            sum.records += 1;
            let check = verify_record(r).map(|v| v.nodes);
            if check.is_ok() {
                sum.records_ok += 1;
            } else {
                sum.not_rechecked += 1;
            }
            record_card(&mut lib_part, r, &check.map_err(|e| e.to_string()));
        }
        lib_part.push_str("</div>\n");
    }
    let mut pub_part = String::new();
    if let Some((path, pf)) = &lib.published {
        let seeded: Vec<Record> = lib.records().cloned().collect();
        let _ = writeln!(
            pub_part,
            "<p>{} ({} entries; not seeds of the solver). Coordinates and carriers as \
             published; the figure shows the published carrier.</p>",
            escape(&path.display().to_string()),
            pf.templates.len()
        );
        let mut collections: Vec<&str> = Vec::new();
        for e in &pf.templates {
            if !collections.contains(&e.collection.as_str()) {
                collections.push(&e.collection);
            }
        }
        for c in collections {
            let entries: Vec<&Entry> = pf.templates.iter().filter(|e| e.collection == c).collect();
            let _ = writeln!(
                pub_part,
                "<h3 id=\"{}\">{} ({} templates)</h3>\n<div class=\"grid\">",
                slug("collection", c),
                escape(collection_name(c)),
                entries.len()
            );
            for e in entries {
                sum.published += 1;
                let check = verify_entry(e, &seeded).map_err(|e| e.to_string());
                match (&check, e.verdict) {
                    (Err(_), _) => sum.not_rechecked += 1,
                    (Ok(_), PublishedVerdict::Holds) => sum.holds += 1,
                    (Ok(_), PublishedVerdict::Fails) => sum.fails += 1,
                    (Ok(_), PublishedVerdict::Undecided) => sum.undecided += 1,
                }
                entry_card(&mut pub_part, e, &check);
            }
            pub_part.push_str("</div>\n");
        }
    }
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n");
    let _ = writeln!(
        s,
        "<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>",
        escape(title)
    );
    let _ = writeln!(s, "<h1>{}</h1>", escape(title));
    let _ = writeln!(
        s,
        "<p>Edge templates for the owner of the edge, drawn on the edge (the thick line at \
         the bottom; row 1 touches it): <b>dark red</b> the goal stone(s), <b>light red</b> \
         helper stones, <b>shaded</b> the carrier (the empty cells the template needs), the \
         opponent moving first. Every verdict below was re-checked by the kernel from its \
         stored certificate when this page was written (no search).</p>"
    );
    s.push_str("<table>\n<tr><th>part</th><th>drawn</th><th>holds (re-checked)</th><th>fails</th><th>undecided</th><th>did not re-check</th></tr>\n");
    let _ = writeln!(
        s,
        "<tr><td><a href=\"#library\">library</a></td><td>{}</td><td>{}</td><td>0</td><td>0</td><td>{}</td></tr>",
        sum.records,
        sum.records_ok,
        sum.records - sum.records_ok
    );
    let _ = writeln!(
        s,
        "<tr><td><a href=\"#published\">published</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n</table>",
        sum.published,
        sum.holds,
        sum.fails,
        sum.undecided,
        sum.published - sum.holds - sum.fails - sum.undecided
    );
    s.push_str("<h2 id=\"library\">The certified library (seeds of the solver)</h2>\n");
    s.push_str(&lib_part);
    s.push_str(
        "<h2 id=\"published\">Published templates: HexWiki, David King, Peter Selinger</h2>\n",
    );
    if lib.published.is_none() {
        s.push_str("<p>No published templates in this library.</p>\n");
    }
    s.push_str(&pub_part);
    s.push_str("</body>\n</html>\n");
    (s, sum)
}

fn collection_name(c: &str) -> &str {
    match c {
        "hexwiki" => "HexWiki",
        "drking" => "David King",
        "selinger" => "Peter Selinger",
        other => other,
    }
}

fn record_card(out: &mut String, r: &Record, check: &Result<usize, String>) {
    let (class, verdict) = match check {
        Ok(n) => (
            "holds",
            format!("holds: kernel re-checked {n} certificate nodes"),
        ),
        Err(e) => ("bad", format!("did not re-check: {e}")),
    };
    let _ = writeln!(
        out,
        "<figure class=\"{class}\" id=\"{}\">",
        slug("lib", &r.name)
    );
    out.push_str(&super::draw::svg(r));
    let source = match (&r.provenance.hexwiki, r.provenance.source.as_str()) {
        (Some(h), src) => format!("HexWiki {h}; {src}"),
        (None, src) => src.to_string(),
    };
    let _ = writeln!(
        out,
        "<figcaption><b>{}</b><br/>row {}, {} carrier cells, {} stone{} ({} goal), {}, {}, {}<br/>\
         source: {}<br/><span class=\"v\">{}</span></figcaption>\n</figure>",
        escape(&r.name),
        r.row,
        r.carrier.len(),
        r.stones.len(),
        if r.stones.len() == 1 { "" } else { "s" },
        r.goal_stones().len(),
        lower(&r.claim),
        lower(&r.symmetry),
        lower(&r.minimality),
        escape(&source),
        escape(&verdict)
    );
}

fn entry_card(out: &mut String, e: &Entry, check: &Result<usize, String>) {
    let (class, verdict) = match (check, e.verdict) {
        (Err(err), _) => ("bad", format!("did not re-check: {err}")),
        (Ok(n), PublishedVerdict::Holds) => (
            "holds",
            format!("holds: kernel re-checked {n} certificate nodes"),
        ),
        (Ok(_), PublishedVerdict::Fails) => (
            "fails",
            format!(
                "fails: White's line {}",
                e.refutation
                    .iter()
                    .flatten()
                    .map(|m| format!("{} [{}, {}]", m.colour, m.cell[0], m.cell[1]))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        (Ok(_), PublishedVerdict::Undecided) => ("undecided", "undecided".to_string()),
    };
    let _ = writeln!(
        out,
        "<figure class=\"{class}\" id=\"{}\">",
        slug("pub", &format!("{}-{}", e.collection, e.name))
    );
    let title = format!(
        "{} ({} carrier cells, as published)",
        e.name,
        e.carrier.len()
    );
    out.push_str(&super::draw::svg_cells(
        &title,
        &e.goal_stones,
        &e.helper_stones,
        &e.carrier,
    ));
    let mut notes = String::new();
    if let Some(m) = &e.minimized {
        let _ = write!(
            notes,
            "<br/>its proof uses {} of the {} cells (record “{}”)",
            m.carrier.len(),
            e.carrier.len(),
            escape(&m.name)
        );
    }
    if let Some(l) = &e.library {
        let _ = write!(
            notes,
            "<br/>library: {} ({})",
            escape(&l.name),
            escape(&l.relation)
        );
    }
    let tried = if e.verdict == PublishedVerdict::Holds {
        String::new()
    } else {
        format!(
            "<br/><span class=\"tried\">tried: {}</span>",
            escape(&e.tried)
        )
    };
    let _ = writeln!(
        out,
        "<figcaption><b><a href=\"{}\">{}</a></b><br/>row {}, {} carrier cells, {} goal + {} helper \
         stone{}{}<br/><span class=\"v\">{}</span>{}</figcaption>\n</figure>",
        escape(&e.url),
        escape(&e.name),
        e.row,
        e.carrier.len(),
        e.goal_stones.len(),
        e.helper_stones.len(),
        if e.helper_stones.len() == 1 { "" } else { "s" },
        notes,
        escape(&verdict),
        tried
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_attribute_safe() {
        assert_eq!(
            slug("pub", "Selinger:template-4-l-1"),
            "pub-Selinger-template-4-l-1"
        );
        assert_eq!(slug("lib", "IV2n (minimized)"), "lib-IV2n--minimized-");
    }
}
