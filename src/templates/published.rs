//! Published edge templates (HexWiki, David King, Peter Selinger) as certified entries:
//! `templates/published.json`, written by `hexproof templates import-published` (the search
//! lives one layer up, in `enumerate::published`) and re-checked here without search.
//!
//! Each [`Entry`] keeps the template exactly as published (collection, name, address, goal
//! stones, helper stones, carrier, holes) and what `hexproof` decided about it: a [`Record`]
//! on the published carrier with its kernel certificate when it holds, a second record on a
//! strictly smaller carrier when the proof needs fewer cells, White's refuting line when it
//! fails, what was tried when it stayed undecided. The file is kept apart from the seeded
//! library ([`super::builtin::FILES`]): the solver's seeds do not change with it.

use super::library::{canonical_goals, digest_json, placements, verify_record, ClaimTag, Record};
use super::{Rc, TemplateError};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The file name of the published templates in a library directory.
pub const PUBLISHED_FILE: &str = "published.json";

/// What `hexproof` found about a published template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PublishedVerdict {
    /// It holds: `record` carries a kernel certificate.
    Holds,
    /// It fails: `refutation` is White's line.
    Fails,
    /// Not decided within the budget: `tried` says what was tried.
    Undecided,
}

/// How a published template relates to a record of the seeded library.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LibraryLink {
    /// The library record.
    pub name: String,
    /// `same` (same stones and carrier up to the mirror) or `smaller` (same stones, the
    /// library's carrier strictly inside the published one).
    pub relation: String,
}

/// One move of a refuting line, in the published coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineMove {
    /// `white` or `black`.
    pub colour: String,
    /// The cell.
    pub cell: Rc,
}

/// One published template and its verdict (fields in stored order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// `hexwiki`, `drking` or `selinger` (the `set` of the source file).
    pub collection: String,
    /// The name in the source, e.g. `IV1a`, `DK-row4-06`, `Selinger:template-4-l-1`.
    pub name: String,
    /// The page it was transcribed from.
    pub url: String,
    /// Row of the highest goal stone, as published.
    pub row: i32,
    /// Goal stones as published (the claim: some goal stone to the edge).
    pub goal_stones: Vec<Rc>,
    /// Helper stones as published.
    pub helper_stones: Vec<Rc>,
    /// The published carrier (empty cells).
    pub carrier: Vec<Rc>,
    /// Cells inside the drawn outline that are not part of the template.
    pub holes: Vec<Rc>,
    /// The verdict.
    pub verdict: PublishedVerdict,
    /// A record of the seeded library with the same template, or a strictly smaller carrier.
    pub library: Option<LibraryLink>,
    /// When it holds: the published template in canonical form, its certificate proving the
    /// published carrier (the root may declare cells the strategy never uses).
    pub record: Option<Record>,
    /// When the strategy uses strictly fewer cells than published: the template on those cells,
    /// its own certificate using exactly them.
    pub minimized: Option<Record>,
    /// When it fails: White's refuting line (White first).
    pub refutation: Option<Vec<LineMove>>,
    /// What was tried: engines, budgets, time.
    pub tried: String,
    /// FNV-1a 64 of the entry with an empty digest.
    pub digest: String,
}

/// `templates/published.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedFile {
    /// The source files the entries were read from.
    pub sources: Vec<String>,
    /// The command that wrote the file.
    pub command: String,
    /// The entries, in source order.
    pub templates: Vec<Entry>,
}

impl Entry {
    /// The digest of this entry (computed with `digest` empty).
    pub fn compute_digest(&self) -> String {
        let mut e = self.clone();
        e.digest.clear();
        digest_json(&e)
    }

    /// The published template in canonical form: (stones, goals, carrier).
    pub fn canonical(&self) -> (Vec<Rc>, usize, Vec<Rc>) {
        let c = canonical_goals(&self.goal_stones, &self.helper_stones, &self.carrier);
        (c.stones, c.goals, c.carrier)
    }

    /// The claim tag of the template: a VC with one goal stone, else a union.
    pub fn claim(&self) -> ClaimTag {
        if self.goal_stones.len() > 1 {
            ClaimTag::Union
        } else {
            ClaimTag::Vc
        }
    }
}

/// True when `small` has the same goal and helper stones as `big` (up to the mirror) and a
/// carrier inside `big`'s; `strict` asks for a strictly smaller one.
pub fn inside(small: &Record, big: &Record, strict: bool) -> bool {
    if small.goals != big.goals || small.stones.len() != big.stones.len() {
        return false;
    }
    if strict && small.carrier.len() >= big.carrier.len() {
        return false;
    }
    let (.., (bg, bh, bc)) = &placements(big.goal_stones(), big.helper_stones(), &big.carrier)[0];
    placements(small.goal_stones(), small.helper_stones(), &small.carrier)
        .iter()
        .any(|(.., (g, h, c))| g == bg && h == bh && c.iter().all(|x| bc.binary_search(x).is_ok()))
}

/// Why a published entry did not re-check.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    /// The digest does not match.
    #[error("digest {stored} stored, {computed} computed")]
    Digest {
        /// Stored.
        stored: String,
        /// Computed.
        computed: String,
    },
    /// The verdict and the stored fields disagree.
    #[error("{0}")]
    Inconsistent(&'static str),
    /// The record is not the published template.
    #[error("the {0} record is not the published template")]
    NotPublished(&'static str),
    /// A record failed [`verify_record`].
    #[error("{which} record {name}: {source}")]
    Record {
        /// `published` or `minimized`.
        which: &'static str,
        /// The record's name.
        name: String,
        /// Why.
        source: TemplateError,
    },
    /// The library link names no record, or one with another relation.
    #[error("library record {0}: not found, or not {1}")]
    Library(String, String),
}

/// Parses a published file and checks the shape of every record in it
/// ([`super::library::check_record_shape`]); errors name the file and the entry.
pub fn parse_published(p: &std::path::Path, text: &str) -> Result<PublishedFile, TemplateError> {
    let f: PublishedFile =
        serde_json::from_str(text).map_err(|source| TemplateError::NotLibraryFile {
            path: p.to_path_buf(),
            source,
        })?;
    for (i, e) in f.templates.iter().enumerate() {
        for r in e.record.iter().chain(&e.minimized) {
            super::library::check_record_shape(r).map_err(|err| TemplateError::Record {
                path: p.to_path_buf(),
                index: i + 1,
                name: e.name.chars().take(40).collect(),
                source: Box::new(err),
            })?;
        }
    }
    Ok(f)
}

/// Re-checks one entry without search: its digest; for a template that holds, that `record` is
/// the published template in canonical form (same stones, goal stones, carrier and claim) and
/// that the kernel accepts its certificate; that `minimized`, if any, has the same stones, a
/// carrier strictly inside the published one and a certificate the kernel accepts; that the
/// library link, if any, is right against `library`. Returns the certificate nodes checked.
/// A refutation is not re-played here (it has no certificate form; `import-published` took
/// it from an exact search).
pub fn verify_entry(e: &Entry, library: &[Record]) -> Result<usize, EntryError> {
    let computed = e.compute_digest();
    if computed != e.digest {
        return Err(EntryError::Digest {
            stored: e.digest.clone(),
            computed,
        });
    }
    if e.goal_stones.is_empty() {
        return Err(EntryError::Inconsistent("no goal stones"));
    }
    let check = |which: &'static str, r: &Record| -> Result<usize, EntryError> {
        verify_record(r)
            .map(|v| v.nodes)
            .map_err(|source| EntryError::Record {
                which,
                name: r.name.clone(),
                source,
            })
    };
    let mut nodes = 0;
    match e.verdict {
        PublishedVerdict::Holds => {
            let (Some(r), None) = (&e.record, &e.refutation) else {
                return Err(EntryError::Inconsistent(
                    "a template that holds needs a record and no refutation",
                ));
            };
            let (stones, goals, carrier) = e.canonical();
            if r.stones != stones
                || r.goals != goals
                || r.carrier != carrier
                || r.claim != e.claim()
            {
                return Err(EntryError::NotPublished("published"));
            }
            nodes += check("published", r)?;
            if let Some(m) = &e.minimized {
                if m.claim != r.claim || !inside(m, r, true) {
                    return Err(EntryError::NotPublished("minimized"));
                }
                nodes += check("minimized", m)?;
            }
            if let Some(link) = &e.library {
                let ok = library.iter().any(|l| {
                    l.name == link.name
                        && l.claim == r.claim
                        && match link.relation.as_str() {
                            "same" => inside(l, r, false) && l.carrier.len() == r.carrier.len(),
                            "smaller" => inside(l, r, true),
                            _ => false,
                        }
                });
                if !ok {
                    return Err(EntryError::Library(
                        link.name.clone(),
                        link.relation.clone(),
                    ));
                }
            }
        }
        PublishedVerdict::Fails => {
            if e.record.is_some() || e.minimized.is_some() || e.refutation.is_none() {
                return Err(EntryError::Inconsistent(
                    "a template that fails needs a refutation and no record",
                ));
            }
        }
        PublishedVerdict::Undecided => {
            if e.record.is_some() || e.minimized.is_some() || e.refutation.is_some() {
                return Err(EntryError::Inconsistent(
                    "an undecided template has no record and no refutation",
                ));
            }
        }
    }
    Ok(nodes)
}

fn cells_json(v: &[Rc]) -> String {
    serde_json::to_string(v).expect("cells serialise")
}

/// Writes the published file: one entry field per line, each record in the library layout
/// ([`super::library::format_file`]'s, indented), its certificate's nodes packed into one
/// line ([`super::cert_pack`]; one node per line for a certificate that does not pack).
pub fn format_published(f: &PublishedFile) -> String {
    let j = |v: &serde_json::Value| v.to_string();
    let mut s = String::from("{\n");
    let _ = writeln!(s, "  \"sources\": {},", j(&serde_json::json!(f.sources)));
    let _ = writeln!(s, "  \"command\": {},", j(&serde_json::json!(f.command)));
    s.push_str("  \"templates\": [");
    for (i, e) in f.templates.iter().enumerate() {
        s.push_str(if i == 0 { "\n" } else { ",\n" });
        s.push_str("    {\n");
        let _ = writeln!(
            s,
            "      \"collection\": {},",
            j(&e.collection.as_str().into())
        );
        let _ = writeln!(s, "      \"name\": {},", j(&e.name.as_str().into()));
        let _ = writeln!(s, "      \"url\": {},", j(&e.url.as_str().into()));
        let _ = writeln!(s, "      \"row\": {},", e.row);
        let _ = writeln!(s, "      \"goal_stones\": {},", cells_json(&e.goal_stones));
        let _ = writeln!(
            s,
            "      \"helper_stones\": {},",
            cells_json(&e.helper_stones)
        );
        let _ = writeln!(s, "      \"carrier\": {},", cells_json(&e.carrier));
        let _ = writeln!(s, "      \"holes\": {},", cells_json(&e.holes));
        let _ = writeln!(
            s,
            "      \"verdict\": {},",
            j(&serde_json::json!(e.verdict))
        );
        let _ = writeln!(
            s,
            "      \"library\": {},",
            j(&serde_json::json!(e.library))
        );
        for (key, r) in [("record", &e.record), ("minimized", &e.minimized)] {
            match r {
                None => {
                    let _ = writeln!(s, "      \"{key}\": null,");
                }
                Some(r) => {
                    let one = super::library::format_file_as(
                        &super::library::LibraryFile {
                            row: r.row,
                            stones: r.stones.len(),
                            region: r.provenance.region.clone(),
                            complete: false,
                            templates: vec![r.clone()],
                        },
                        true,
                    );
                    // The record's lines inside the file layout's "templates" list.
                    let body: Vec<&str> = one.lines().collect();
                    let start = body.iter().position(|l| *l == "    {").unwrap_or(0);
                    let end = body.iter().rposition(|l| *l == "    }").unwrap_or(0);
                    let _ = write!(s, "      \"{key}\": {{");
                    // Certificate nodes unindented (hundreds of thousands of lines).
                    for l in &body[start + 1..end] {
                        if l.trim_start().starts_with("{\"") {
                            let _ = write!(s, "\n{}", l.trim_start());
                        } else {
                            let _ = write!(s, "\n    {l}");
                        }
                    }
                    s.push_str("\n      },\n");
                }
            }
        }
        let _ = writeln!(
            s,
            "      \"refutation\": {},",
            j(&serde_json::json!(e.refutation))
        );
        let _ = writeln!(s, "      \"tried\": {},", j(&e.tried.as_str().into()));
        let _ = writeln!(s, "      \"digest\": {}", j(&e.digest.as_str().into()));
        s.push_str("    }");
    }
    s.push_str("\n  ]\n}\n");
    s
}
