//! One self-contained HTML page for a checked proof: inline CSS, inline SVG, no scripts and no
//! external resources. The page is also well-formed XML (XHTML-compatible: every element
//! closed, every text escaped), so tests can parse it with an XML parser.

use super::proof::{Item, Proof, Section};
use crate::check::report::StepVerdict;
use crate::render::svg::escape;
use std::fmt::Write as _;

const CSS: &str = "
body { font-family: sans-serif; margin: 20px; color: #222; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px 0; }
h2 { font-size: 18px; margin: 28px 0 6px 0; border-bottom: 1px solid #ccc; padding-bottom: 3px; }
h3 { font-size: 15px; margin: 0 0 6px 0; }
p.summary { margin: 4px 0 10px 0; color: #444; }
nav ul { columns: 3; font-size: 13px; margin: 6px 0; }
.item { display: flex; gap: 16px; align-items: flex-start; border: 1px solid #ddd;
  border-radius: 6px; padding: 10px; margin: 10px 0; background: #fcfcfa; break-inside: avoid; }
.item .fig { flex: none; }
.item .info { flex: 1; font-size: 13px; min-width: 260px; }
table.facts td, table.facts th { text-align: left; padding: 1px 8px 1px 0; vertical-align: top; }
table.steps { border-collapse: collapse; margin-top: 6px; font-size: 12px; }
table.steps td, table.steps th { border-top: 1px solid #e3e3e3; padding: 2px 6px; text-align: left;
  vertical-align: top; }
.v { display: inline-block; padding: 0 6px; border-radius: 4px; font-weight: bold; font-size: 12px; }
.v.verified { background: #d8f0d2; color: #1d5e12; }
.v.failed { background: #f7d4d2; color: #8a1610; }
.v.undecided { background: #fbecc4; color: #6b4c00; }
.v.unsupported { background: #e4e4e4; color: #444; }
ul.notes { margin: 4px 0; padding-left: 18px; }
li.reason { color: #8a1610; }
code { font-size: 12px; }
";

fn badge(v: StepVerdict) -> String {
    let (class, word) = match v {
        StepVerdict::Verified => ("verified", "holds"),
        StepVerdict::Failed => ("failed", "fails"),
        StepVerdict::Undecided => ("undecided", "undecided"),
        StepVerdict::Unsupported => ("unsupported", "unsupported"),
    };
    format!(r#"<span class="v {class}">{word}</span>"#)
}

fn anchor(id: &str) -> String {
    format!("item-{}", escape(id))
}

/// The whole page.
pub fn page(proof: &Proof, title: &str) -> String {
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n");
    s.push_str("<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n");
    s.push_str("<meta charset=\"utf-8\"/>\n");
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(s, "<style>{CSS}</style>\n</head>\n<body>");
    let _ = writeln!(s, "<h1>{}</h1>", escape(title));
    let verdict = match proof.exit_code {
        0 => "every step verified",
        1 => "a step fails",
        2 => "bad input",
        _ => "not everything could be verified",
    };
    let _ = writeln!(
        s,
        "<p class=\"summary\">Checked by <code>hexproof check</code>: {verdict}. Black joins top and bottom (black edges), White left and right (white edges); shaded cells are carriers.</p>"
    );
    let _ = writeln!(s, "<nav><ul>");
    for it in proof.items() {
        let _ = writeln!(
            s,
            "<li><a href=\"#{}\">{}</a> {}</li>",
            anchor(&it.id),
            escape(&it.id),
            badge(it.verdict)
        );
    }
    let _ = writeln!(s, "</ul></nav>");
    for f in &proof.files {
        let c = &f.counts;
        let _ = writeln!(
            s,
            "<h2>{}{}</h2>\n<p class=\"summary\">{} step(s): {} verified, {} failed, {} undecided, {} unsupported</p>",
            escape(&f.file),
            f.board
                .as_ref()
                .map(|b| format!(" ({} board)", escape(b)))
                .unwrap_or_default(),
            c.steps,
            c.verified,
            c.failed,
            c.undecided,
            c.unsupported
        );
        for sec in &f.sections {
            section(&mut s, sec);
        }
    }
    s.push_str("</body>\n</html>\n");
    s
}

fn section(s: &mut String, sec: &Section) {
    let what = match (&sec.name, &sec.title) {
        (Some(n), Some(t)) => format!("{} {n} — “{t}”", sec.kind),
        (Some(n), None) => format!("{} {n}", sec.kind),
        (None, Some(t)) => format!("{} “{t}”", sec.kind),
        (None, None) => sec.kind.clone(),
    };
    let _ = writeln!(
        s,
        "<h3>{} <small>(line {})</small> {}</h3>",
        escape(&what),
        sec.line,
        badge(sec.verdict)
    );
    if let Some(sm) = &sec.summary {
        let _ = writeln!(s, "<p class=\"summary\">{}</p>", escape(sm));
    }
    for it in &sec.items {
        item(s, it);
    }
}

fn item(s: &mut String, it: &Item) {
    let _ = writeln!(
        s,
        "<div class=\"item\" id=\"{}\" style=\"margin-left: {}px\">",
        anchor(&it.id),
        24 * it.depth.min(12)
    );
    let _ = write!(s, "<div class=\"fig\">\n{}</div>\n", it.svg);
    let _ = writeln!(s, "<div class=\"info\">");
    let _ = writeln!(s, "<h3>{} {}</h3>", escape(&it.heading), badge(it.verdict));
    let _ = writeln!(s, "<table class=\"facts\">");
    let mut fact = |k: &str, v: &str| {
        if !v.is_empty() {
            let _ = writeln!(s, "<tr><th>{k}</th><td>{}</td></tr>", escape(v));
        }
    };
    fact("item", &it.id);
    fact("rule", &it.rule);
    fact("proves", &it.claim);
    fact("verdict", it.verdict.word());
    fact("basis", &it.basis);
    fact("search nodes", &it.nodes.to_string());
    fact("time", &format!("{:.1} ms", it.micros as f64 / 1000.0));
    fact("line", &it.line.to_string());
    s.push_str("</table>\n");
    if !it.notes.is_empty() || !it.reasons.is_empty() {
        s.push_str("<ul class=\"notes\">\n");
        for r in &it.reasons {
            let _ = writeln!(s, "<li class=\"reason\">{}</li>", escape(r));
        }
        for n in &it.notes {
            let _ = writeln!(s, "<li>{}</li>", escape(n));
        }
        s.push_str("</ul>\n");
    }
    if !it.steps.is_empty() {
        s.push_str(
            "<table class=\"steps\">\n<tr><th>line</th><th>rule</th><th>conclusion</th><th>verdict</th><th>search</th></tr>\n",
        );
        for r in &it.steps {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                r.line,
                escape(&r.rule),
                escape(&r.claim),
                badge(r.verdict),
                escape(&r.detail)
            );
        }
        s.push_str("</table>\n");
    }
    s.push_str("</div>\n</div>\n");
}
