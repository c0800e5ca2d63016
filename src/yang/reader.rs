//! The reader of Jing Yang's pattern file (`hex99-3.txt`, format in `docs/yang.md`).
//!
//! Two passes. [`Strategy::parse`] reads the text and rejects what cannot be read at all:
//! a line that is not a quoted token list, a stray comma, a token that is not a number, a
//! count that disagrees with its list, a branch number out of order, a sub-pattern number
//! that names no pattern, a reply on one of its own trigger cells, a position 0. Each such
//! error names the line and the column. [`Strategy::defects`] then measures the parsed data
//! against itself: a position beyond the size of its pattern (outside its parent), two
//! positions of a sub-pattern mapped onto one cell of the parent, sub-patterns that overlap or
//! hold a cell just played or one of the branch's triggers. The real file has defects of
//! three of these kinds (pinned in the tests), so they are reported, not refused;
//! [`Strategy::parse_strict`] refuses them too.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A place in the file: 1-based line and column (the column of the token, in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Loc {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A local position number with where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// The 1-based local position.
    pub n: u32,
    /// Where it is written.
    pub at: Loc,
}

/// One sub-pattern of a decomposition: `PP r x1 x2 …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The sub-pattern's number `r`.
    pub pattern: u32,
    /// Where the `PP` line is.
    pub at: Loc,
    /// `map[i]`: the parent's local position of the sub-pattern's position `i + 1`.
    pub map: Vec<Pos>,
}

/// One branch: if White plays one of `triggers`, Black answers `reply` and the pattern
/// falls apart into `parts`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// `BN j`.
    pub number: u32,
    /// Where the `BN` line is.
    pub at: Loc,
    /// `WM m p1 … pm`: White's trigger positions.
    pub triggers: Vec<Pos>,
    /// `BM q`: Black's reply.
    pub reply: Pos,
    /// `ND d`, `PS …`, `PP …`: the sub-patterns after the reply.
    pub parts: Vec<Part>,
}

/// One pattern `RN k`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// `k`.
    pub number: u32,
    /// Where the `RN` line is.
    pub at: Loc,
    /// Its branches, `BN 0` first.
    pub branches: Vec<Branch>,
}

impl Pattern {
    /// The highest local position the pattern itself mentions (triggers, replies and the
    /// positions its sub-patterns are mapped onto).
    pub fn highest_position(&self) -> u32 {
        let mut m = 0;
        for b in &self.branches {
            m = m.max(b.reply.n);
            for p in b.triggers.iter().chain(b.parts.iter().flat_map(|p| &p.map)) {
                m = m.max(p.n);
            }
        }
        m
    }

    /// The positions some branch is triggered by.
    pub fn trigger_positions(&self) -> BTreeSet<u32> {
        self.branches
            .iter()
            .flat_map(|b| b.triggers.iter().map(|p| p.n))
            .collect()
    }
}

/// The whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// `#BOARDSIZE n`.
    pub board_size: u8,
    /// The patterns by number.
    pub patterns: BTreeMap<u32, Pattern>,
}

/// What is wrong, without the place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum YangErrorKind {
    /// The first line is not `#BOARDSIZE n` with 2 ≤ n ≤ 19.
    #[error("expected '#BOARDSIZE n' (n from 2 to 19) on the first line")]
    BoardSize,
    /// A line that is neither blank nor a quoted token list.
    #[error("expected a quoted token list such as \"RN 1\",")]
    Unquoted,
    /// A quote that is never closed.
    #[error("the quote is not closed")]
    Unclosed,
    /// A comma inside the quotes, or more than one after them.
    #[error("stray comma")]
    StrayComma,
    /// Text after the closing quote and its comma.
    #[error("unexpected text after the quoted list")]
    TrailingText,
    /// A token that is not a number where one is needed.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// The wrong keyword.
    #[error("expected '{expected}', found '{found}'")]
    Expected {
        /// The keyword wanted.
        expected: &'static str,
        /// What is there (empty at the end of the file).
        found: String,
    },
    /// A line with too few or too many numbers.
    #[error("'{keyword}' needs {expected} number(s), found {found}")]
    Arity {
        /// The keyword.
        keyword: &'static str,
        /// Numbers wanted.
        expected: usize,
        /// Numbers found.
        found: usize,
    },
    /// `WM m …` or `PS` with a count that disagrees with the list.
    #[error("'{keyword}' declares {declared} entries but lists {found}")]
    Count {
        /// `WM` or `PS`.
        keyword: &'static str,
        /// The declared count.
        declared: usize,
        /// The entries listed.
        found: usize,
    },
    /// `BN j` out of order.
    #[error("expected branch number {expected}, found {found}")]
    BranchNumber {
        /// The next branch number.
        expected: u32,
        /// The one written.
        found: u32,
    },
    /// A `PP r` line whose `r` is not the next pattern of `PS`.
    #[error("'PP {found}' does not match 'PS': expected pattern {expected}")]
    PartNumber {
        /// The pattern `PS` lists here.
        expected: u32,
        /// The one written.
        found: u32,
    },
    /// A second `RN k` with the same `k`.
    #[error("pattern {0} is defined twice")]
    DuplicatePattern(u32),
    /// `PS` naming a pattern that the file does not define.
    #[error("unknown pattern number {0}")]
    UnknownPattern(u32),
    /// No `RN 1`.
    #[error("the file has no pattern 1 (the whole board)")]
    NoPatternOne,
    /// Positions are 1-based.
    #[error("position 0 (positions are numbered from 1)")]
    PositionZero,
    /// `BM q` with `q` among the branch's own `WM` cells.
    #[error("the reply {0} is one of the branch's trigger cells")]
    ReplyOnTrigger(u32),
    /// A trigger listed twice in one branch, or in two branches of a pattern.
    #[error("trigger {position} already triggers branch {branch}")]
    TriggerTwice {
        /// The position.
        position: u32,
        /// The branch it triggers first.
        branch: u32,
    },
    /// A pattern mentions a position beyond its size (the length of the `PP` lines that place
    /// it, or the board's empty cells for pattern 1): the cell lies outside its parent.
    #[error(
        "position {position} is outside pattern {pattern}, which has {size} positions \
         (as its parent places it)"
    )]
    OutsideParent {
        /// The pattern.
        pattern: u32,
        /// The position.
        position: u32,
        /// Its size.
        size: u32,
    },
    /// Two `PP` lines placing one pattern with different lengths.
    #[error("pattern {pattern} is placed with {found} positions here but {size} elsewhere")]
    SizeDisagrees {
        /// The pattern.
        pattern: u32,
        /// The first length seen.
        size: u32,
        /// This line's length.
        found: u32,
    },
    /// A `PP` line mapping two positions of the sub-pattern onto one parent position.
    #[error("sub-pattern {pattern}: positions {first} and {second} both map to the parent's {to}")]
    Aliased {
        /// The sub-pattern.
        pattern: u32,
        /// The first of its positions.
        first: u32,
        /// The second.
        second: u32,
        /// The parent position both name.
        to: u32,
    },
    /// Two sub-patterns of one branch share a parent position.
    #[error("sub-patterns {first} and {second} both hold the parent's position {to}")]
    Overlap {
        /// The earlier sub-pattern.
        first: u32,
        /// The later one.
        second: u32,
        /// The shared position.
        to: u32,
    },
    /// A sub-pattern holding the reply, just played by Black.
    #[error("sub-pattern {pattern} holds the parent's position {to}, Black's reply")]
    HoldsPlayed {
        /// The sub-pattern.
        pattern: u32,
        /// The played position.
        to: u32,
    },
    /// A sub-pattern holding one of the branch's trigger cells: when White's move was that
    /// one, the sub-pattern starts with a White stone inside.
    #[error(
        "sub-pattern {pattern} holds the parent's position {to}, one of the branch's \
         triggers (White's stone when White played there)"
    )]
    HoldsTrigger {
        /// The sub-pattern.
        pattern: u32,
        /// The trigger position.
        to: u32,
    },
}

/// A located error of the pattern file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {kind}")]
pub struct YangError {
    /// Where.
    pub at: Loc,
    /// What.
    pub kind: YangErrorKind,
}

impl YangError {
    fn new(at: Loc, kind: YangErrorKind) -> YangError {
        YangError { at, kind }
    }
}

/// A defect found by [`Strategy::defects`]: the error, the pattern it is in, and whether that
/// pattern is reached from pattern 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defect {
    /// The pattern whose text holds the defect.
    pub pattern: u32,
    /// True when the pattern is reachable from pattern 1.
    pub reachable: bool,
    /// The located error.
    pub error: YangError,
}

/// One quoted line: its tokens with their columns.
struct Line {
    no: usize,
    tokens: Vec<(String, usize)>,
}

impl Line {
    fn loc(&self, column: usize) -> Loc {
        Loc {
            line: self.no,
            column,
        }
    }

    fn start(&self) -> Loc {
        self.loc(self.tokens.first().map_or(1, |t| t.1))
    }
}

/// Splits the text into quoted lines (blank lines skipped).
fn lines(text: &str) -> Result<(u8, Vec<Line>), YangError> {
    let mut out = Vec::new();
    let mut size = None;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let line = raw.trim_end_matches(['\r', ' ', '\t']);
        let at = |column: usize| Loc { line: no, column };
        if size.is_none() {
            let mut w = line.split_whitespace();
            let n = match (w.next(), w.next(), w.next()) {
                (Some("#BOARDSIZE"), Some(n), None) => n.parse::<u8>().ok(),
                _ => None,
            };
            match n {
                Some(n) if (2..=19).contains(&n) => size = Some(n),
                _ => return Err(YangError::new(at(1), YangErrorKind::BoardSize)),
            }
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        let body = &line[lead..];
        if body.is_empty() {
            continue;
        }
        if !body.starts_with('"') {
            return Err(YangError::new(at(lead + 1), YangErrorKind::Unquoted));
        }
        let close = match body[1..].find('"') {
            Some(k) => k + 1,
            None => return Err(YangError::new(at(lead + 1), YangErrorKind::Unclosed)),
        };
        let inner = &body[1..close];
        if let Some(k) = inner.find(',') {
            return Err(YangError::new(at(lead + 2 + k), YangErrorKind::StrayComma));
        }
        // After the closing quote: at most one comma, then nothing (spaces were trimmed).
        let tail = &body[close + 1..];
        let tail_col = lead + close + 2;
        let rest = tail.trim_start();
        let skip = tail.len() - rest.len();
        let after = rest.strip_prefix(',').unwrap_or(rest);
        let after_col = tail_col + skip + (rest.len() - after.len());
        let after_trim = after.trim_start();
        let col = after_col + (after.len() - after_trim.len());
        if after_trim.starts_with(',') {
            return Err(YangError::new(at(col), YangErrorKind::StrayComma));
        }
        if !after_trim.is_empty() {
            return Err(YangError::new(at(col), YangErrorKind::TrailingText));
        }
        let mut tokens = Vec::new();
        let mut k = 0;
        for w in inner.split(' ') {
            if !w.is_empty() {
                // Columns count characters; the file is ASCII, so bytes are characters.
                tokens.push((w.to_string(), lead + 2 + k));
            }
            k += w.len() + 1;
        }
        out.push(Line { no, tokens });
    }
    match size {
        Some(n) => Ok((n, out)),
        None => Err(YangError::new(
            Loc { line: 1, column: 1 },
            YangErrorKind::BoardSize,
        )),
    }
}

/// A cursor over the quoted lines.
struct Cursor {
    lines: Vec<Line>,
    next: usize,
    end: Loc,
}

impl Cursor {
    /// The next line, which must start with `keyword`; its numbers.
    fn take(&mut self, keyword: &'static str) -> Result<(Loc, Vec<(u32, Loc)>), YangError> {
        let Some(line) = self.lines.get(self.next) else {
            return Err(YangError::new(
                self.end,
                YangErrorKind::Expected {
                    expected: keyword,
                    found: String::new(),
                },
            ));
        };
        let first = line.tokens.first().map(|t| t.0.as_str()).unwrap_or("");
        if first != keyword {
            return Err(YangError::new(
                line.start(),
                YangErrorKind::Expected {
                    expected: keyword,
                    found: first.to_string(),
                },
            ));
        }
        self.next += 1;
        let mut nums = Vec::new();
        for (w, c) in &line.tokens[1..] {
            let at = line.loc(*c);
            let n = w
                .parse::<u32>()
                .map_err(|_| YangError::new(at, YangErrorKind::NotANumber(w.clone())))?;
            nums.push((n, at));
        }
        Ok((line.start(), nums))
    }

    /// The next line `keyword n`: exactly one number.
    fn one(&mut self, keyword: &'static str) -> Result<(Loc, u32, Loc), YangError> {
        let (at, nums) = self.take(keyword)?;
        match nums.as_slice() {
            [(n, c)] => Ok((at, *n, *c)),
            _ => Err(YangError::new(
                at,
                YangErrorKind::Arity {
                    keyword,
                    expected: 1,
                    found: nums.len(),
                },
            )),
        }
    }

    fn peek_keyword(&self) -> Option<&str> {
        self.lines
            .get(self.next)
            .and_then(|l| l.tokens.first())
            .map(|t| t.0.as_str())
    }
}

fn position((n, at): (u32, Loc)) -> Result<Pos, YangError> {
    if n == 0 {
        return Err(YangError::new(at, YangErrorKind::PositionZero));
    }
    Ok(Pos { n, at })
}

fn read_branch(cur: &mut Cursor, expected: u32) -> Result<Branch, YangError> {
    let (at, number, ncol) = cur.one("BN")?;
    if number != expected {
        return Err(YangError::new(
            ncol,
            YangErrorKind::BranchNumber {
                expected,
                found: number,
            },
        ));
    }
    let (wat, wm) = cur.take("WM")?;
    let Some((&(declared, _), list)) = wm.split_first() else {
        return Err(YangError::new(
            wat,
            YangErrorKind::Arity {
                keyword: "WM",
                expected: 1,
                found: 0,
            },
        ));
    };
    if declared as usize != list.len() {
        return Err(YangError::new(
            wat,
            YangErrorKind::Count {
                keyword: "WM",
                declared: declared as usize,
                found: list.len(),
            },
        ));
    }
    let triggers = list
        .iter()
        .map(|&p| position(p))
        .collect::<Result<Vec<_>, _>>()?;
    let (_, q, qcol) = cur.one("BM")?;
    let reply = position((q, qcol))?;
    if triggers.iter().any(|t| t.n == q) {
        return Err(YangError::new(qcol, YangErrorKind::ReplyOnTrigger(q)));
    }
    let (_, nd, _) = cur.one("ND")?;
    let mut parts = Vec::new();
    if nd > 0 {
        let (psat, ps) = cur.take("PS")?;
        if ps.len() != nd as usize {
            return Err(YangError::new(
                psat,
                YangErrorKind::Count {
                    keyword: "PS",
                    declared: nd as usize,
                    found: ps.len(),
                },
            ));
        }
        for &(r, _) in &ps {
            let (ppat, pp) = cur.take("PP")?;
            let Some((&(found, fcol), map)) = pp.split_first() else {
                return Err(YangError::new(
                    ppat,
                    YangErrorKind::Arity {
                        keyword: "PP",
                        expected: 1,
                        found: 0,
                    },
                ));
            };
            if found != r {
                return Err(YangError::new(
                    fcol,
                    YangErrorKind::PartNumber { expected: r, found },
                ));
            }
            let map = map
                .iter()
                .map(|&p| position(p))
                .collect::<Result<Vec<_>, _>>()?;
            parts.push(Part {
                pattern: r,
                at: ppat,
                map,
            });
        }
    }
    Ok(Branch {
        number,
        at,
        triggers,
        reply,
        parts,
    })
}

impl Strategy {
    /// Reads the file's text. Errors are located; nothing panics.
    pub fn parse(text: &str) -> Result<Strategy, YangError> {
        let (board_size, lines) = lines(text)?;
        let end = Loc {
            line: text.lines().count() + 1,
            column: 1,
        };
        let mut cur = Cursor {
            lines,
            next: 0,
            end,
        };
        let mut patterns = BTreeMap::new();
        while cur.peek_keyword().is_some() {
            let (at, number, ncol) = cur.one("RN")?;
            let (_, bt, _) = cur.one("BT")?;
            let mut branches = Vec::new();
            let mut seen: BTreeMap<u32, u32> = BTreeMap::new();
            for j in 0..bt {
                let b = read_branch(&mut cur, j)?;
                for t in &b.triggers {
                    if let Some(&branch) = seen.get(&t.n) {
                        return Err(YangError::new(
                            t.at,
                            YangErrorKind::TriggerTwice {
                                position: t.n,
                                branch,
                            },
                        ));
                    }
                    seen.insert(t.n, j);
                }
                branches.push(b);
            }
            let p = Pattern {
                number,
                at,
                branches,
            };
            if patterns.insert(number, p).is_some() {
                return Err(YangError::new(
                    ncol,
                    YangErrorKind::DuplicatePattern(number),
                ));
            }
        }
        for p in patterns.values() {
            for b in &p.branches {
                for part in &b.parts {
                    if !patterns.contains_key(&part.pattern) {
                        return Err(YangError::new(
                            part_number_loc(part),
                            YangErrorKind::UnknownPattern(part.pattern),
                        ));
                    }
                }
            }
        }
        if !patterns.contains_key(&1) {
            return Err(YangError::new(end, YangErrorKind::NoPatternOne));
        }
        Ok(Strategy {
            board_size,
            patterns,
        })
    }

    /// [`Strategy::parse`], then the first of [`Strategy::defects`] (if any) as the error.
    pub fn parse_strict(text: &str) -> Result<Strategy, YangError> {
        let s = Strategy::parse(text)?;
        match s.defects().into_iter().next() {
            Some(d) => Err(d.error),
            None => Ok(s),
        }
    }

    /// Number of branches over all patterns.
    pub fn branch_count(&self) -> usize {
        self.patterns.values().map(|p| p.branches.len()).sum()
    }

    /// The patterns reached from pattern 1 through decompositions.
    pub fn reachable(&self) -> BTreeSet<u32> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![1];
        while let Some(k) = stack.pop() {
            if !seen.insert(k) {
                continue;
            }
            if let Some(p) = self.patterns.get(&k) {
                for b in &p.branches {
                    stack.extend(b.parts.iter().map(|q| q.pattern));
                }
            }
        }
        seen
    }

    /// The size of each pattern: for pattern 1 the board's empty cells after the centre;
    /// for another, the length of the `PP` lines that place it (the first one read), or, for
    /// a pattern never placed, the highest position it mentions.
    pub fn sizes(&self) -> BTreeMap<u32, u32> {
        let mut sizes = BTreeMap::new();
        sizes.insert(1, self.pattern_one_size());
        for p in self.patterns.values() {
            for b in &p.branches {
                for part in &b.parts {
                    sizes.entry(part.pattern).or_insert(part.map.len() as u32);
                }
            }
        }
        for p in self.patterns.values() {
            sizes
                .entry(p.number)
                .or_insert_with(|| p.highest_position());
        }
        sizes
    }

    /// Pattern 1's positions: every cell but the centre.
    pub fn pattern_one_size(&self) -> u32 {
        let n = self.board_size as u32;
        n * n - 1
    }

    /// What the parsed data says against itself (see the module text), in file order.
    pub fn defects(&self) -> Vec<Defect> {
        let sizes = self.sizes();
        let reach = self.reachable();
        let mut out = Vec::new();
        let mut placed: BTreeMap<u32, u32> = BTreeMap::new();
        for p in self.patterns.values() {
            let size = sizes[&p.number];
            let mut push = |at: Loc, kind: YangErrorKind| {
                out.push(Defect {
                    pattern: p.number,
                    reachable: reach.contains(&p.number),
                    error: YangError::new(at, kind),
                })
            };
            for b in &p.branches {
                let mentioned = b
                    .triggers
                    .iter()
                    .chain(std::iter::once(&b.reply))
                    .chain(b.parts.iter().flat_map(|q| &q.map));
                for pos in mentioned {
                    if pos.n > size {
                        push(
                            pos.at,
                            YangErrorKind::OutsideParent {
                                pattern: p.number,
                                position: pos.n,
                                size,
                            },
                        );
                    }
                }
                let mut held: BTreeMap<u32, u32> = BTreeMap::new();
                for part in &b.parts {
                    let len = part.map.len() as u32;
                    match placed.get(&part.pattern) {
                        Some(&s) if s != len => push(
                            part.at,
                            YangErrorKind::SizeDisagrees {
                                pattern: part.pattern,
                                size: s,
                                found: len,
                            },
                        ),
                        Some(_) => {}
                        None => {
                            placed.insert(part.pattern, len);
                        }
                    }
                    let mut mine: BTreeMap<u32, u32> = BTreeMap::new();
                    for (i, pos) in part.map.iter().enumerate() {
                        let local = i as u32 + 1;
                        if let Some(&first) = mine.get(&pos.n) {
                            push(
                                pos.at,
                                YangErrorKind::Aliased {
                                    pattern: part.pattern,
                                    first,
                                    second: local,
                                    to: pos.n,
                                },
                            );
                            continue;
                        }
                        mine.insert(pos.n, local);
                        if let Some(&other) = held.get(&pos.n) {
                            push(
                                pos.at,
                                YangErrorKind::Overlap {
                                    first: other,
                                    second: part.pattern,
                                    to: pos.n,
                                },
                            );
                        }
                        let to = pos.n;
                        let pattern = part.pattern;
                        if to == b.reply.n {
                            push(pos.at, YangErrorKind::HoldsPlayed { pattern, to });
                        } else if b.triggers.iter().any(|t| t.n == to) {
                            push(pos.at, YangErrorKind::HoldsTrigger { pattern, to });
                        }
                    }
                    for (&to, _) in mine.iter() {
                        held.entry(to).or_insert(part.pattern);
                    }
                }
            }
        }
        out.sort_by_key(|d| d.error.at);
        out
    }
}

/// The column of the pattern number on a `PP` line (its first number).
fn part_number_loc(part: &Part) -> Loc {
    Loc {
        line: part.at.line,
        column: part.at.column + 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "#BOARDSIZE 3\n\
\"RN 1\",\n\"BT 1\",\n\"BN 0\",\n\"WM 2 1 2\",\n\"BM 3\",\n\"ND 1\",\n\"PS 2\",\n\"PP 2 5 6\",\n\
\"RN 2\",\n\"BT 2\",\n\"BN 0\",\n\"WM 1 1\",\n\"BM 2\",\n\"ND 0\",\n\
\"BN 1\",\n\"WM 1 2\",\n\"BM 1\",\n\"ND 0\",\n";

    fn err(text: &str) -> YangError {
        Strategy::parse(text).expect_err("should fail")
    }

    #[test]
    fn small_file_parses() {
        let s = Strategy::parse(SMALL).unwrap();
        assert_eq!(s.board_size, 3);
        assert_eq!(s.patterns.len(), 2);
        assert_eq!(s.branch_count(), 3);
        assert_eq!(s.sizes()[&2], 2);
        assert!(s.defects().is_empty());
        let p1 = &s.patterns[&1];
        assert_eq!(p1.branches[0].reply.at, Loc { line: 6, column: 5 });
        assert_eq!(p1.branches[0].parts[0].map[1].n, 6);
    }

    #[test]
    fn crlf_trailing_space_and_missing_comma_are_fine() {
        let t = SMALL
            .replace(",\n", ", \r\n")
            .replacen("\"BT 1\", ", "\"BT 1\"", 1);
        assert_eq!(
            Strategy::parse(&t).unwrap(),
            Strategy::parse(SMALL).unwrap()
        );
    }

    #[test]
    fn stray_comma_inside_the_quotes() {
        let e = err(&SMALL.replace("\"WM 2 1 2\"", "\"WM 2 1, 2\""));
        assert_eq!(e.kind, YangErrorKind::StrayComma);
        assert_eq!(e.at, Loc { line: 5, column: 8 });
        assert_eq!(e.to_string(), "line 5, column 8: stray comma");
    }

    #[test]
    fn stray_comma_after_the_quotes() {
        let e = err(&SMALL.replace("\"BM 3\",", "\"BM 3\",,"));
        assert_eq!(e.kind, YangErrorKind::StrayComma);
        assert_eq!(e.at, Loc { line: 6, column: 8 });
    }

    #[test]
    fn unknown_pattern_number() {
        let e = err(&SMALL.replace("\"PS 2\",\n\"PP 2 5 6\"", "\"PS 7\",\n\"PP 7 5 6\""));
        assert_eq!(e.kind, YangErrorKind::UnknownPattern(7));
        assert_eq!(e.at, Loc { line: 9, column: 5 });
        assert_eq!(e.to_string(), "line 9, column 5: unknown pattern number 7");
    }

    #[test]
    fn position_outside_its_parent() {
        // Pattern 1 on 3x3 has 8 positions; 9 is outside.
        let t = SMALL.replace("\"PP 2 5 6\"", "\"PP 2 5 9\"");
        let s = Strategy::parse(&t).unwrap();
        let d = s.defects();
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].error.kind,
            YangErrorKind::OutsideParent {
                pattern: 1,
                position: 9,
                size: 8
            }
        );
        assert_eq!(d[0].error.at, Loc { line: 9, column: 9 });
        assert_eq!(Strategy::parse_strict(&t).unwrap_err(), d[0].error);
        // Inside pattern 2, placed with 2 positions: its reply 3 is outside.
        let t = SMALL.replace("\"BM 1\"", "\"BM 3\"");
        let e = Strategy::parse_strict(&t).unwrap_err();
        assert_eq!(
            e.kind,
            YangErrorKind::OutsideParent {
                pattern: 2,
                position: 3,
                size: 2
            }
        );
        assert_eq!(e.at.line, 18);
    }

    #[test]
    fn reply_on_a_trigger_cell() {
        let e = err(&SMALL.replace("\"BM 3\"", "\"BM 2\""));
        assert_eq!(e.kind, YangErrorKind::ReplyOnTrigger(2));
        assert_eq!(e.at, Loc { line: 6, column: 5 });
    }

    #[test]
    fn counts_and_keywords() {
        let e = err(&SMALL.replace("\"WM 2 1 2\"", "\"WM 3 1 2\""));
        assert!(matches!(e.kind, YangErrorKind::Count { keyword: "WM", .. }));
        let e = err(&SMALL.replace("\"BT 1\"", "\"BT 2\""));
        assert_eq!(e.at.line, 10);
        assert!(matches!(
            e.kind,
            YangErrorKind::Expected { expected: "BN", .. }
        ));
        let e = err(&SMALL.replace("\"BN 1\"", "\"BN 4\""));
        assert_eq!(
            e.kind,
            YangErrorKind::BranchNumber {
                expected: 1,
                found: 4
            }
        );
        let e = err(&SMALL.replace("\"BM 3\"", "\"BM x3\""));
        assert_eq!(e.kind, YangErrorKind::NotANumber("x3".into()));
        let e = err(&SMALL.replace("\"PP 2 5 6\"", "\"PP 3 5 6\""));
        assert_eq!(
            e.kind,
            YangErrorKind::PartNumber {
                expected: 2,
                found: 3
            }
        );
        let e = err(&SMALL.replace("\"WM 2 1 2\"", "\"WM 2 0 2\""));
        assert_eq!(e.kind, YangErrorKind::PositionZero);
        let e = err(&SMALL.replace("\"RN 2\"", "\"RN 1\""));
        assert_eq!(e.kind, YangErrorKind::DuplicatePattern(1));
        let t = SMALL
            .replace("\"WM 1 1\"", "\"WM 2 1 3\"")
            .replace("\"WM 1 2\"", "\"WM 1 3\"");
        let e = err(&t);
        assert_eq!(
            e.kind,
            YangErrorKind::TriggerTwice {
                position: 3,
                branch: 0
            }
        );
        assert_eq!(
            e.at,
            Loc {
                line: 17,
                column: 7
            }
        );
    }

    #[test]
    fn broken_lines() {
        assert_eq!(err("").kind, YangErrorKind::BoardSize);
        assert_eq!(err("#BOARDSIZE 99\n").kind, YangErrorKind::BoardSize);
        let e = err(&SMALL.replace("\"BM 3\",", "BM 3,"));
        assert_eq!((e.kind, e.at.line), (YangErrorKind::Unquoted, 6));
        let e = err(&SMALL.replace("\"BM 3\",", "\"BM 3,\""));
        assert_eq!(e.kind, YangErrorKind::StrayComma);
        let e = err(&SMALL.replace("\"BM 3\",", "\"BM 3"));
        assert_eq!(e.kind, YangErrorKind::Unclosed);
        let e = err(&SMALL.replace("\"BM 3\",", "\"BM 3\", x"));
        assert_eq!(e.kind, YangErrorKind::TrailingText);
        let e = err(&SMALL.replace("\"ND 0\",\n\"BN 1\"", "\"ND 0\",\n\"BN 1\",\n\"WM 1 2\""));
        assert!(matches!(e.kind, YangErrorKind::Expected { .. }));
        let e = err(&SMALL[..SMALL.find("\"RN 2\"").unwrap()].replace("RN 1", "RN 3"));
        assert_eq!(e.kind, YangErrorKind::UnknownPattern(2));
        assert_eq!(err("#BOARDSIZE 3\n").kind, YangErrorKind::NoPatternOne);
    }

    #[test]
    fn aliased_overlapping_and_played() {
        let t = SMALL.replace("\"PP 2 5 6\"", "\"PP 2 5 5\"");
        let d = Strategy::parse(&t).unwrap().defects();
        assert!(matches!(
            d[0].error.kind,
            YangErrorKind::Aliased { to: 5, .. }
        ));
        let t = SMALL.replace(
            "\"ND 1\",\n\"PS 2\",\n\"PP 2 5 6\"",
            "\"ND 2\",\n\"PS 2 2\",\n\"PP 2 5 6\",\n\"PP 2 6 3\"",
        );
        let d = Strategy::parse(&t).unwrap().defects();
        let kinds: Vec<_> = d.iter().map(|d| d.error.kind.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                YangErrorKind::Overlap {
                    first: 2,
                    second: 2,
                    to: 6
                },
                YangErrorKind::HoldsPlayed { pattern: 2, to: 3 }
            ]
        );
        let t = SMALL.replace("\"PP 2 5 6\"", "\"PP 2 5 2\"");
        let d = Strategy::parse(&t).unwrap().defects();
        assert_eq!(
            d[0].error.kind,
            YangErrorKind::HoldsTrigger { pattern: 2, to: 2 }
        );
    }

    #[test]
    fn bad_bytes_never_panic() {
        for cut in 0..SMALL.len() {
            if SMALL.is_char_boundary(cut) {
                let _ = Strategy::parse(&SMALL[..cut]).map(|s| s.defects());
            }
        }
        let _ = Strategy::parse("#BOARDSIZE 3\n\"é, \"\n");
        let _ = Strategy::parse("#BOARDSIZE 3\n\"RN 99999999999\"\n");
    }
}
