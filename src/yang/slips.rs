//! `hexproof yang check --read-slips`: the three "position outside its parent" slips of
//! Yang's file read as intended, by rule (docs/yang.md, "The data slips as findings" and
//! "Reading the slips: --read-slips").
//!
//! Each reading is fixed here: a pattern, a branch, the `PP` line exactly as written and the
//! line it is read as. A reading applies at a site only when the parsed file holds that line
//! in that branch, the line as written *is* a slip (a position beyond the parent's size, or
//! a map shorter than the positions its sub-pattern uses), and the line as read is not (every
//! position inside the parent, none twice, none on the branch's triggers or reply, enough
//! positions). Otherwise the site is reported as not applied, with the reason, and the data
//! is left as written. Nothing else is changed; line numbers stay those of the file.

use super::reader::{Part, Pos, Strategy};
use serde::Serialize;

/// One site of a reading: a `PP` line of one branch, as written and as read.
struct Site {
    branch: u32,
    written: &'static str,
    read: &'static str,
}

/// One named reading: where, and why.
struct Rule {
    name: &'static str,
    pattern: u32,
    why: &'static str,
    sites: &'static [Site],
}

const RULES: [Rule; 3] = [
    Rule {
        name: "364-parent-numbers",
        pattern: 364,
        why: "the parent's numbers of i1 i2 h2 g3 written for 364's own (51 48 49 47), \
              as 364's branch 1 writes them",
        sites: &[
            Site {
                branch: 11,
                written: "PP 13 59 56 57 54",
                read: "PP 13 51 48 49 47",
            },
            Site {
                branch: 12,
                written: "PP 13 59 56 57 54",
                read: "PP 13 51 48 49 47",
            },
        ],
    },
    Rule {
        name: "639-g4",
        pattern: 639,
        why: "47 is the parent's number of g4; 639's own is 44 (its branches 8 and 11)",
        sites: &[
            Site {
                branch: 9,
                written: "PP 113 47 40 39 38 31 30 29 23 22 21 20 15 14 13 12 11 7 6 5 4 3 2",
                read: "PP 113 44 40 39 38 31 30 29 23 22 21 20 15 14 13 12 11 7 6 5 4 3 2",
            },
            Site {
                branch: 10,
                written: "PP 559 47 40 39 31 30 23 22 21 16 15 14 13 12 8 7 6 4 3",
                read: "PP 559 44 40 39 31 30 23 22 21 16 15 14 13 12 8 7 6 4 3",
            },
        ],
    },
    Rule {
        name: "584-585-completed",
        pattern: 584,
        why: "the map stops two short of the 28 positions 585 uses; completed with 584's \
              29 30 (h9 i9)",
        sites: &[Site {
            branch: 3,
            written: "PP 585 1 2 3 4 5 6 7 8 9 10 11 12 15 16 17 18 19 20 21 22 23 24 25 26 27 28",
            read: "PP 585 1 2 3 4 5 6 7 8 9 10 11 12 15 16 17 18 19 20 21 22 23 24 25 26 27 28 \
                   29 30",
        }],
    },
];

/// What became of one site of a reading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlipReading {
    /// The reading's name (`364-parent-numbers`, `639-g4`, `584-585-completed`).
    pub name: &'static str,
    /// The pattern whose branch holds the line.
    pub pattern: u32,
    /// The branch.
    pub branch: u32,
    /// The file line of the `PP` line (none when it was not found).
    pub line: Option<usize>,
    /// The line as written (as the rule expects it).
    pub written: &'static str,
    /// The line as read.
    pub read: &'static str,
    /// Whether the data was read this way.
    pub applied: bool,
    /// Why the reading holds (applied) or why it was not applied.
    pub note: String,
}

fn numbers(s: &str) -> Vec<u32> {
    s.split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// Applies every reading that fits the parsed file (see the module text) and returns what
/// became of each site, in the order of the rules. The sizes the checks use are those of
/// the file as written.
pub fn read_slips(s: &mut Strategy) -> Vec<SlipReading> {
    let sizes = s.sizes();
    let mut out = Vec::new();
    for rule in &RULES {
        for site in rule.sites {
            let (w, r) = (numbers(site.written), numbers(site.read));
            let mut reading = SlipReading {
                name: rule.name,
                pattern: rule.pattern,
                branch: site.branch,
                line: None,
                written: site.written,
                read: site.read,
                applied: false,
                note: String::new(),
            };
            match fit(s, &sizes, rule.pattern, site.branch, &w, &r) {
                Ok((idx, line)) => {
                    reading.line = Some(line);
                    reading.applied = true;
                    reading.note = rule.why.to_string();
                    if let Some(part) = s
                        .patterns
                        .get_mut(&rule.pattern)
                        .and_then(|p| p.branches.iter_mut().find(|b| b.number == site.branch))
                        .and_then(|b| b.parts.get_mut(idx))
                    {
                        set_map(part, &r[1..]);
                    }
                }
                Err((line, why)) => {
                    reading.line = line;
                    reading.note = format!("not applied: {why}");
                }
            }
            out.push(reading);
        }
    }
    out
}

/// The new map: the written positions' places kept where there is one, the extra positions
/// placed at the line's last token.
fn set_map(part: &mut Part, read: &[u32]) {
    let last = part.map.last().map_or(part.at, |p| p.at);
    part.map = read
        .iter()
        .enumerate()
        .map(|(i, &n)| Pos {
            n,
            at: part.map.get(i).map_or(last, |p| p.at),
        })
        .collect();
}

type Fit = Result<(usize, usize), (Option<usize>, String)>;

/// The index of the part to read and its line, or why the reading does not apply.
fn fit(
    s: &Strategy,
    sizes: &std::collections::BTreeMap<u32, u32>,
    pattern: u32,
    branch: u32,
    written: &[u32],
    read: &[u32],
) -> Fit {
    let Some(p) = s.patterns.get(&pattern) else {
        return Err((None, format!("the file has no pattern {pattern}")));
    };
    let Some(b) = p.branches.iter().find(|b| b.number == branch) else {
        return Err((None, format!("pattern {pattern} has no branch {branch}")));
    };
    let (&child, wmap) = written.split_first().unwrap_or((&0, &[]));
    let found: Vec<usize> = (0..b.parts.len())
        .filter(|&i| {
            let q = &b.parts[i];
            q.pattern == child && q.map.iter().map(|x| x.n).eq(wmap.iter().copied())
        })
        .collect();
    let [idx] = found[..] else {
        return Err((
            Some(b.at.line),
            format!(
                "pattern {pattern} branch {branch} (line {}) has {} lines '{}' (one expected)",
                b.at.line,
                found.len(),
                written_line(written)
            ),
        ));
    };
    let line = b.parts[idx].at.line;
    let size = sizes.get(&pattern).copied().unwrap_or(0);
    let uses = s.patterns.get(&child).map_or(0, |c| c.highest_position()) as usize;
    let slip = wmap.iter().any(|&n| n > size) || wmap.len() < uses;
    if !slip {
        return Err((
            Some(line),
            format!(
                "the line as written is not a slip here (pattern {pattern} has {size} \
                 positions, {child} uses {uses})"
            ),
        ));
    }
    let rmap = &read[1..];
    let mut seen = std::collections::BTreeSet::new();
    let held = |n: u32| b.reply.n == n || b.triggers.iter().any(|t| t.n == n);
    if let Some(&n) = rmap
        .iter()
        .find(|&&n| n == 0 || n > size || !seen.insert(n) || held(n))
    {
        return Err((
            Some(line),
            format!(
                "the reading would place position {n} outside pattern {pattern} ({size} \
                 positions), twice, or on the branch's trigger or reply"
            ),
        ));
    }
    if rmap.len() < uses {
        return Err((
            Some(line),
            format!("the reading is shorter than the {uses} positions {child} uses"),
        ));
    }
    Ok((idx, line))
}

fn written_line(ns: &[u32]) -> String {
    let v: Vec<String> = ns.iter().map(|n| n.to_string()).collect();
    format!("PP {}", v.join(" "))
}

/// The readings as the report carries them (`read_slips` in `--json`).
#[derive(Clone, Debug, Serialize)]
pub struct SlipsReport {
    /// What the figures of the report are for.
    pub figures_for: &'static str,
    /// Sites read as intended.
    pub applied: usize,
    /// Sites of the three readings.
    pub sites: usize,
    /// Each site, applied or not.
    pub readings: Vec<SlipReading>,
}

/// What a report read with `--read-slips` is a report of.
pub const FIGURES_FOR: &str = "the file READ WITH THE REPAIRS applied below (--read-slips), \
not the file as written; the file's own verdict is the report without --read-slips";

impl SlipsReport {
    /// Wraps the sites.
    pub fn new(readings: Vec<SlipReading>) -> SlipsReport {
        SlipsReport {
            figures_for: FIGURES_FOR,
            applied: readings.iter().filter(|r| r.applied).count(),
            sites: readings.len(),
            readings,
        }
    }
}
