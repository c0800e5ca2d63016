//! The deduction rules' side conditions (docs/SEMANTICS.md, "Deduction rules").
//!
//! Each function takes the premises *as stated* (with the kind each is used at) and the stated
//! conclusion, and returns every violated side condition — empty when the rule applies and
//! yields exactly the stated conclusion. Whether the premises are themselves established is
//! checked by the checker (src/check/mod.rs). These functions decide nothing by search. [`check`]
//! runs one of them and is the only maker of a [`RuleChecked`] for the five rules.
//!
//! Conventions: a fact is a claim (owner, goal pairs, who moves first) on a carrier, in the
//! block's position. "Black" below means the claim's owner; a cell is *black* when it holds an
//! owner stone or is an owner border.

use crate::board::{Cell, CellSet, Colour};
use crate::dsl::ast::Span;
use crate::dsl::model::{CellNames, Fact};
use crate::position::Position;
use crate::trusted::RuleChecked;

/// One violated side condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// A short name of the condition, e.g. `A ∩ B = ∅`.
    pub condition: &'static str,
    /// The explanation.
    pub message: String,
    /// Where to point: (span, label).
    pub labels: Vec<(Span, String)>,
}

fn v(condition: &'static str, message: String, labels: Vec<(Span, String)>) -> Violation {
    Violation {
        condition,
        message,
        labels,
    }
}

/// A premise as the rule sees it: the fact, the kind it is used at (`true` = semi), and a
/// name for messages ("the first premise").
#[derive(Clone, Copy)]
pub struct Input<'a> {
    /// The fact.
    pub fact: &'a Fact,
    /// Used as a semi-connection (owner moves first)?
    pub semi: bool,
    /// "the first premise", …
    pub role: &'a str,
}

/// Context shared by the rules.
pub struct Ctx<'a> {
    /// The position of the block.
    pub position: &'a Position,
    /// Cell names for messages.
    pub names: &'a CellNames,
}

impl Ctx<'_> {
    fn black(&self, owner: Colour, c: Cell) -> bool {
        self.position.colour_at(c) == Some(owner)
    }

    fn set(&self, s: &CellSet) -> String {
        self.names.set(s)
    }

    fn n(&self, c: Cell) -> String {
        self.names.name(c)
    }

    /// Labels on the cells of `s` as written in `f`'s carrier.
    fn cell_labels(&self, f: &Fact, s: &CellSet, text: &str) -> Vec<(Span, String)> {
        s.iter()
            .map(|c| (f.cell_span(c), text.to_string()))
            .collect()
    }
}

fn kind_word(semi: bool) -> &'static str {
    if semi {
        "VSC"
    } else {
        "VC"
    }
}

/// Unordered pair.
fn upair(a: Cell, b: Cell) -> (Cell, Cell) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The goal as a set of unordered pairs (Noshita: order and repetition do not matter).
fn pair_set(f: &Fact) -> Vec<(Cell, Cell)> {
    let mut v: Vec<_> = f.claim.pairs.iter().map(|&(a, b)| upair(a, b)).collect();
    v.sort();
    v.dedup();
    v
}

/// Carrier cells listed twice (a carrier is a set; a repetition is a misprint).
pub fn duplicates(ctx: &Ctx, f: &Fact, role: &str) -> Vec<Violation> {
    if f.dups.is_empty() {
        return Vec::new();
    }
    let cells: CellSet = f.dups.iter().map(|d| d.0).collect();
    vec![v(
        "carrier is a set",
        format!(
            "{role}'s carrier lists {} more than once; a carrier is a set of cells, so this is a misprint",
            ctx.set(&cells)
        ),
        f.dups
            .iter()
            .map(|(c, sp)| (*sp, format!("{} again", ctx.n(*c))))
            .collect(),
    )]
}

fn same_owner(ctx: &Ctx, ins: &[Input], concl: &Fact) -> Vec<Violation> {
    let _ = ctx;
    ins.iter()
        .filter(|i| i.fact.claim.owner != concl.claim.owner)
        .map(|i| {
            v(
                "one owner",
                format!(
                    "{} is a {} connection but the conclusion is {}'s",
                    i.role, i.fact.claim.owner, concl.claim.owner
                ),
                vec![(i.fact.span, "other colour".into())],
            )
        })
        .collect()
}

fn single_pair(f: &Fact, role: &str, rule: &str) -> Option<Violation> {
    (f.claim.pairs.len() != 1).then(|| {
        v(
            "one pair",
            format!(
                "the {rule} rule is about connections between two ends; {role} has {} pairs",
                f.claim.pairs.len()
            ),
            vec![(f.span, "a union-connection".into())],
        )
    })
}

fn carrier_equals(ctx: &Ctx, concl: &Fact, expected: &CellSet, how: &str) -> Option<Violation> {
    if concl.carrier == *expected {
        return None;
    }
    let missing = *expected - concl.carrier;
    let extra = concl.carrier - *expected;
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("it lacks {}", ctx.set(&missing)));
    }
    if !extra.is_empty() {
        parts.push(format!("it has {} in addition", ctx.set(&extra)));
    }
    let mut labels = vec![(
        concl.carrier_span,
        format!("should be {}", ctx.set(expected)),
    )];
    labels.extend(ctx.cell_labels(concl, &extra, "not from the premises"));
    Some(v(
        "carrier",
        format!(
            "the conclusion's carrier must be {how} = {}; {}",
            ctx.set(expected),
            parts.join(" and ")
        ),
        labels,
    ))
}

/// Anshelevich's AND rule. From VCs `(x, A, u)` and `(u, B, y)` with `x ≠ y`, `x ∉ B`,
/// `y ∉ A`, `A ∩ B = ∅`: if `u` is black, `(x, A ∪ B, y)` is a VC; if `u` is empty,
/// `(x, A ∪ {u} ∪ B, y)` is a VSC.
pub fn and_rule(ctx: &Ctx, ins: &[Input], concl: &Fact) -> Vec<Violation> {
    let mut out = same_owner(ctx, ins, concl);
    if !and_shape(ins, concl, &mut out) {
        return out;
    }
    let (p, q) = (ins[0].fact, ins[1].fact);
    let Some((x, u, y)) = and_ends(ctx, p, q, &mut out) else {
        return out;
    };
    and_side_conditions(ctx, (p, q), (x, u, y), concl, &mut out);
    and_kind_and_carrier(ctx, (p, q), u, concl, &mut out);
    out
}

/// The AND rule's shape: two VC premises and a conclusion of one pair each; false when the
/// ends cannot be read.
fn and_shape(ins: &[Input], concl: &Fact, out: &mut Vec<Violation>) -> bool {
    if ins.len() != 2 {
        out.push(v(
            "two premises",
            format!(
                "the AND rule combines exactly two VCs; this step gives {}",
                ins.len()
            ),
            ins.iter().map(|i| (i.fact.span, String::new())).collect(),
        ));
        return false;
    }
    let mut shape_ok = true;
    for i in ins {
        if let Some(x) = single_pair(i.fact, i.role, "AND") {
            out.push(x);
            shape_ok = false;
        }
    }
    if let Some(x) = single_pair(concl, "the conclusion", "AND") {
        out.push(x);
        shape_ok = false;
    }
    for i in ins {
        if i.semi {
            out.push(v(
                "premises are VCs",
                format!("the AND rule needs two VCs; {} is used as a VSC", i.role),
                vec![(i.fact.span, "a VSC".into())],
            ));
        }
    }
    shape_ok
}

/// The AND rule's ends: the common end `u` of the premises and their outer ends `x ≠ y`
/// (`x` of the first, `y` of the second); `None` when they do not exist.
fn and_ends(ctx: &Ctx, p: &Fact, q: &Fact, out: &mut Vec<Violation>) -> Option<(Cell, Cell, Cell)> {
    let (p1, p2) = p.claim.pairs[0];
    let (q1, q2) = q.claim.pairs[0];
    let common: Vec<Cell> = [p1, p2]
        .into_iter()
        .filter(|c| *c == q1 || *c == q2)
        .collect();
    let common: Vec<Cell> = {
        let mut c = common;
        c.dedup();
        c
    };
    if common.is_empty() {
        out.push(v(
            "common end u",
            format!(
                "the premises share no end ({} - {} and {} - {}); AND needs (x, A, u) and (u, B, y)",
                ctx.n(p1),
                ctx.n(p2),
                ctx.n(q1),
                ctx.n(q2)
            ),
            vec![(p.span, "first".into()), (q.span, "second".into())],
        ));
        return None;
    }
    if common.len() == 2 || p1 == p2 {
        out.push(v(
            "x ≠ y",
            format!(
                "both premises join {} and {}; AND needs different outer ends x ≠ y",
                ctx.n(p1),
                ctx.n(p2)
            ),
            vec![(p.span, String::new()), (q.span, String::new())],
        ));
        return None;
    }
    let u = common[0];
    let x = if p1 == u { p2 } else { p1 };
    let y = if q1 == u { q2 } else { q1 };
    if x == u || y == u || x == y {
        out.push(v(
            "x ≠ y",
            "a premise joins a cell to itself; AND needs three different cells x, u, y".into(),
            vec![(p.span, String::new()), (q.span, String::new())],
        ));
        return None;
    }
    Some((x, u, y))
}

/// The AND rule's side conditions: the conclusion joins `x` and `y`, `A ∩ B = ∅`, `x ∉ B`,
/// `y ∉ A`.
fn and_side_conditions(
    ctx: &Ctx,
    (p, q): (&Fact, &Fact),
    (x, u, y): (Cell, Cell, Cell),
    concl: &Fact,
    out: &mut Vec<Violation>,
) {
    let (a, b) = (p.carrier, q.carrier);
    let (c1, c2) = concl.claim.pairs[0];
    if upair(c1, c2) != upair(x, y) {
        out.push(v(
            "conclusion ends",
            format!(
                "AND through the common end {} joins {} and {}, but the conclusion joins {} and {}",
                ctx.n(u),
                ctx.n(x),
                ctx.n(y),
                ctx.n(c1),
                ctx.n(c2)
            ),
            vec![(
                concl.span,
                format!("should be ({}, …, {})", ctx.n(x), ctx.n(y)),
            )],
        ));
    }
    let overlap = a & b;
    if !overlap.is_empty() {
        let mut labels = ctx.cell_labels(p, &overlap, "in both carriers");
        labels.extend(ctx.cell_labels(q, &overlap, "in both carriers"));
        out.push(v(
            "A ∩ B = ∅",
            format!(
                "the premises' carriers overlap in {}; White could attack both connections with one move",
                ctx.set(&overlap)
            ),
            labels,
        ));
    }
    if b.contains(x) {
        out.push(v(
            "x ∉ B",
            format!(
                "the end {} of the first premise lies in the second premise's carrier",
                ctx.n(x)
            ),
            vec![(
                q.cell_span(x),
                format!("{} is an end of the first premise", ctx.n(x)),
            )],
        ));
    }
    if a.contains(y) {
        out.push(v(
            "y ∉ A",
            format!(
                "the end {} of the second premise lies in the first premise's carrier",
                ctx.n(y)
            ),
            vec![(
                p.cell_span(y),
                format!("{} is an end of the second premise", ctx.n(y)),
            )],
        ));
    }
}

/// The AND rule's conclusion: a VC when `u` is the owner's, else a VSC, with carrier
/// `A ∪ B` (or `A ∪ {u} ∪ B`).
fn and_kind_and_carrier(
    ctx: &Ctx,
    (p, q): (&Fact, &Fact),
    u: Cell,
    concl: &Fact,
    out: &mut Vec<Violation>,
) {
    let (a, b) = (p.carrier, q.carrier);
    let owner = concl.claim.owner;
    let u_black = ctx.black(owner, u);
    let (expected, how) = if u_black {
        (a | b, "A ∪ B")
    } else {
        (a | b | CellSet::single(u), "A ∪ {u} ∪ B")
    };
    if concl.claim.owner_first == u_black {
        out.push(if u_black {
            v(
                "u black ⇒ VC",
                format!(
                    "the common end {} is {owner}, so AND gives a VC (case i); the step states a VSC",
                    ctx.n(u)
                ),
                vec![(concl.span, "should be VC".into())],
            )
        } else {
            v(
                "u empty ⇒ VSC",
                format!(
                    "the common end {} is an empty cell, so AND gives only a VSC (case ii: {owner} must first play {}); the step states a VC",
                    ctx.n(u),
                    ctx.n(u)
                ),
                vec![(concl.span, "should be VSC".into())],
            )
        });
    }
    if let Some(x) = carrier_equals(ctx, concl, &expected, how) {
        out.push(x);
    }
}

/// Anshelevich's OR rule: from semi-connections `(x, A_k, y)`, k = 1..n, n > 1, with
/// `⋂ A_k = ∅`, the sub-game `(x, ⋃ A_k, y)` is a VC. (A VC premise serves as a semi.)
pub fn or_rule(ctx: &Ctx, ins: &[Input], concl: &Fact) -> Vec<Violation> {
    let mut out = same_owner(ctx, ins, concl);
    if ins.len() < 2 {
        out.push(v(
            "n > 1",
            "the OR rule needs at least two semi-connections".into(),
            ins.iter().map(|i| (i.fact.span, String::new())).collect(),
        ));
    }
    let mut shape_ok = true;
    for i in ins {
        if let Some(x) = single_pair(i.fact, i.role, "OR") {
            out.push(x);
            shape_ok = false;
        }
    }
    if let Some(x) = single_pair(concl, "the conclusion", "OR") {
        out.push(x);
        shape_ok = false;
    }
    if !shape_ok || ins.is_empty() {
        return out;
    }
    let (c1, c2) = concl.claim.pairs[0];
    for i in ins {
        let (a, b) = i.fact.claim.pairs[0];
        if upair(a, b) != upair(c1, c2) {
            out.push(v(
                "common ends",
                format!(
                    "{} joins {} and {}; every premise of OR must join the conclusion's ends {} and {}",
                    i.role,
                    ctx.n(a),
                    ctx.n(b),
                    ctx.n(c1),
                    ctx.n(c2)
                ),
                vec![(i.fact.span, "other ends".into())],
            ));
        }
    }
    if concl.claim.owner_first {
        out.push(v(
            "OR gives a VC",
            "the OR rule concludes a VC, but the step states a VSC (by Anshelevich's Definition 3 a VSC is not a VC; write VC)".into(),
            vec![(concl.span, "should be VC".into())],
        ));
    }
    let mut inter = ins[0].fact.carrier;
    let mut union = CellSet::EMPTY;
    for i in ins {
        inter &= i.fact.carrier;
        union |= i.fact.carrier;
    }
    if !inter.is_empty() {
        let mut labels = Vec::new();
        for i in ins {
            labels.extend(ctx.cell_labels(i.fact, &inter, "in every carrier"));
        }
        out.push(v(
            "⋂ A_k = ∅",
            format!(
                "the carriers' intersection is {}, not empty: a White move there may break every semi-connection at once",
                ctx.set(&inter)
            ),
            labels,
        ));
    }
    if let Some(x) = carrier_equals(ctx, concl, &union, "⋃ A_k") {
        out.push(x);
    }
    out
}

/// Noshita's rule (1): `S[ab | ab σ]` ⇒ `S[ab σ]` — a goal is a set of pairs.
pub fn rule1(ctx: &Ctx, p: &Input, concl: &Fact) -> Vec<Violation> {
    let mut out = same_owner(ctx, std::slice::from_ref(p), concl);
    if pair_set(p.fact) != pair_set(concl) {
        out.push(v(
            "same pairs",
            format!(
                "rule (1) only removes repeated pairs; the premise's pairs are {} and the conclusion's {}",
                ctx.names.claim(&p.fact.claim),
                ctx.names.claim(&concl.claim)
            ),
            vec![(concl.span, "other pairs".into())],
        ));
    }
    if p.semi != concl.claim.owner_first {
        out.push(v(
            "same kind",
            format!(
                "rule (1) keeps the kind: the premise is used as a {} and the conclusion states a {}",
                kind_word(p.semi),
                kind_word(concl.claim.owner_first)
            ),
            vec![(concl.span, String::new())],
        ));
    }
    if let Some(x) = carrier_equals(ctx, concl, &p.fact.carrier, "the premise's carrier S") {
        out.push(x);
    }
    out
}

/// Noshita's rule (2): `S1[ab σ]`, `S2[bc]`, `S1 ∩ S2 = ∅` ⇒ `(S1 ∪ S2)[ac σ]`; `b` must be
/// black in the conclusion, and no end of one premise may lie in the other's carrier.
/// The first premise may be a semi-connection (then so is the conclusion); the second must
/// be a VC. Two extensions (docs/SEMANTICS.md, "Deduction rules"):
/// - the second premise may be a **union** `S2[bc1 | bc2 | …]` whose pairs all share the end
///   `b`: the conclusion is `[ac1 | ac2 | … σ]`;
/// - the second premise may be a **conjunction** `S2[b1c1 & b2c2 & …]` (every pair joined):
///   each pair `ab_k` of the first premise may be replaced by `ac_k` (and kept or not), and
///   every pair of the conclusion must come from a pair of the first premise this way.
pub fn rule2(ctx: &Ctx, p: &Input, q: &Input, concl: &Fact) -> Vec<Violation> {
    let mut out = same_owner(ctx, &[*p, *q], concl);
    if q.semi {
        out.push(v(
            "S2[bc] is a VC",
            format!(
                "rule (2) needs the second premise S2[bc] to be a VC; {} is used as a VSC",
                q.role
            ),
            vec![(q.fact.span, "a VSC".into())],
        ));
    }
    if p.semi != concl.claim.owner_first {
        out.push(v(
            "kind of S1[ab σ]",
            format!(
                "rule (2) keeps the first premise's kind: it is used as a {} and the conclusion states a {}",
                kind_word(p.semi),
                kind_word(concl.claim.owner_first)
            ),
            vec![(concl.span, String::new())],
        ));
    }
    let target = pair_set(concl);
    // The joints b used and the new ends c, if the conclusion's pairs follow.
    let found = if q.fact.conj {
        rule2_conj(p.fact, q.fact, &target)
    } else {
        rule2_union(p.fact, q.fact, &target)
    };
    let Some((joints, news)) = found else {
        let how = if q.fact.conj {
            "with pairs a - b_k replaced by a - c_k, where b_k - c_k are pairs of the conjunction S2"
        } else if q.fact.claim.pairs.len() > 1 {
            "with one pair a - b replaced by a - c1 | a - c2 | …, where S2 is the union b - c1 | b - c2 | … (all its pairs must share the end b)"
        } else {
            "with one pair a - b replaced by a - c"
        };
        out.push(v(
            "S[ac σ]",
            format!(
                "the conclusion {} is not the first premise {} {how}; S2 is {}",
                ctx.names.claim(&concl.claim),
                ctx.names.claim(&p.fact.claim),
                ctx.names.fact_of(q.fact)
            ),
            vec![(concl.span, "does not follow".into())],
        ));
        return out;
    };
    let (s1, s2) = (p.fact.carrier, q.fact.carrier);
    let overlap = s1 & s2;
    if !overlap.is_empty() {
        let mut labels = ctx.cell_labels(p.fact, &overlap, "in both carriers");
        labels.extend(ctx.cell_labels(q.fact, &overlap, "in both carriers"));
        out.push(v(
            "S1 ∩ S2 = ∅",
            format!("the premises' carriers overlap in {}", ctx.set(&overlap)),
            labels,
        ));
    }
    // Ends of each premise must not lie in the other premise's carrier.
    for e in p.fact.claim.endpoints().iter() {
        if s2.contains(e) {
            out.push(v(
                "ends outside the other carrier",
                format!(
                    "the end {} of the first premise lies in the second premise's carrier",
                    ctx.n(e)
                ),
                vec![(q.fact.cell_span(e), "an end of the first premise".into())],
            ));
        }
    }
    for c in news.iter() {
        if s1.contains(c) {
            out.push(v(
                "ends outside the other carrier",
                format!(
                    "the end {} of the second premise lies in the first premise's carrier",
                    ctx.n(c)
                ),
                vec![(p.fact.cell_span(c), "an end of the second premise".into())],
            ));
        }
    }
    let owner = concl.claim.owner;
    for b in joints.iter() {
        let b_black = ctx.black(owner, b) || concl.claim.endpoints().contains(b) && !b.is_border();
        if !b_black {
            out.push(v(
                "b is black",
                format!(
                    "rule (2) joins through {}, which is an empty cell; it must be a {owner} stone or border (for an empty joint use AND, which adds it to the carrier and gives a VSC)",
                    ctx.n(b)
                ),
                vec![(q.fact.end_span(b), "empty".into())],
            ));
        }
    }
    if let Some(x) = carrier_equals(ctx, concl, &(s1 | s2), "S1 ∪ S2") {
        out.push(x);
    }
    out
}

/// Rule (2) with a VC or a union `b - c1 | b - c2 | …` (one common end b) as second premise:
/// the joint {b} and the new ends {c_i} when replacing one pair a - b of `p` by the pairs
/// a - c_i gives exactly `target`.
fn rule2_union(p: &Fact, q: &Fact, target: &[(Cell, Cell)]) -> Option<(CellSet, CellSet)> {
    let (q1, q2) = q.claim.pairs[0];
    for b in [q1, q2] {
        let cs: Option<Vec<Cell>> = q
            .claim
            .pairs
            .iter()
            .map(|&(x, y)| {
                if x == b {
                    Some(y)
                } else if y == b {
                    Some(x)
                } else {
                    None
                }
            })
            .collect();
        let Some(cs) = cs else { continue };
        for &(x, y) in &p.claim.pairs {
            for (a, bb) in [(x, y), (y, x)] {
                if bb != b {
                    continue;
                }
                let mut pairs: Vec<(Cell, Cell)> = p
                    .claim
                    .pairs
                    .iter()
                    .filter(|&&pr| upair(pr.0, pr.1) != upair(a, b))
                    .map(|&(s, t)| upair(s, t))
                    .collect();
                pairs.extend(cs.iter().map(|&c| upair(a, c)));
                pairs.sort();
                pairs.dedup();
                if pairs == target {
                    return Some((CellSet::single(b), cs.iter().copied().collect()));
                }
            }
        }
    }
    None
}

/// Rule (2) with a conjunction as second premise: every pair of `target` is a pair of `p` or
/// one with an end b replaced by c, b - c a pair of `q`; every pair of `p` has such an image
/// in `target`. Returns the joints b and new ends c used.
fn rule2_conj(p: &Fact, q: &Fact, target: &[(Cell, Cell)]) -> Option<(CellSet, CellSet)> {
    let conj: Vec<(Cell, Cell)> = q
        .claim
        .pairs
        .iter()
        .flat_map(|&(x, y)| [(x, y), (y, x)])
        .collect();
    // The images of one pair of p: itself, and each end replaced through a conjunct.
    let images = |(u, w): (Cell, Cell)| {
        let mut v = vec![(upair(u, w), None)];
        for &(b, c) in &conj {
            if b == w && c != u {
                v.push((upair(u, c), Some((b, c))));
            }
            if b == u && c != w {
                v.push((upair(w, c), Some((b, c))));
            }
        }
        v
    };
    let mut joints = CellSet::EMPTY;
    let mut news = CellSet::EMPTY;
    let mut explained = vec![false; target.len()];
    for &pr in &p.claim.pairs {
        let mut hit = false;
        for (img, via) in images(pr) {
            if let Some(k) = target.iter().position(|t| *t == img) {
                hit = true;
                explained[k] = true;
                if let Some((b, c)) = via {
                    joints.insert(b);
                    news.insert(c);
                }
            }
        }
        if !hit {
            return None;
        }
    }
    explained.iter().all(|&e| e).then_some((joints, news))
}

/// Monotonicity: a claim true on S stays true on S' ⊇ S, with more pairs to choose from, and
/// a VC is also a VSC.
pub fn mono(ctx: &Ctx, p: &Input, concl: &Fact) -> Vec<Violation> {
    let mut out = same_owner(ctx, std::slice::from_ref(p), concl);
    if !p.fact.carrier.is_subset(&concl.carrier) {
        let missing = p.fact.carrier - concl.carrier;
        out.push(v(
            "S ⊆ S'",
            format!(
                "monotonicity only enlarges the carrier; the conclusion lacks {}",
                ctx.set(&missing)
            ),
            vec![(concl.carrier_span, format!("lacks {}", ctx.set(&missing)))],
        ));
    }
    let ps = pair_set(p.fact);
    let cs = pair_set(concl);
    let lost: Vec<_> = ps.iter().filter(|x| !cs.contains(x)).collect();
    if concl.conj {
        // A conjunction may drop pairs (fewer to join), never add or come from a union.
        let added: Vec<_> = cs.iter().filter(|x| !ps.contains(x)).collect();
        if !p.fact.conj {
            out.push(v(
                "conjunction from a conjunction",
                "monotonicity gives a conjunction (`&`) only from a conjunction; the premise is a union (one pair of several)".into(),
                vec![(p.fact.span, "a union".into())],
            ));
        } else if !added.is_empty() {
            out.push(v(
                "pairs kept",
                format!(
                    "a conjunction may drop pairs but not add them; the conclusion adds {}",
                    added
                        .iter()
                        .map(|(a, b)| format!("{} - {}", ctx.n(*a), ctx.n(*b)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                vec![(concl.span, String::new())],
            ));
        }
    } else if p.fact.conj {
        // Every pair of a conjunction is joined: a union keeping one of them follows.
        if !ps.iter().any(|x| cs.contains(x)) {
            out.push(v(
                "pairs kept",
                "the conclusion keeps no pair of the conjunction".into(),
                vec![(concl.span, String::new())],
            ));
        }
    } else if !lost.is_empty() {
        out.push(v(
            "pairs kept",
            format!(
                "monotonicity may add pairs but not drop them; the conclusion drops {}",
                lost.iter()
                    .map(|(a, b)| format!("{} - {}", ctx.n(*a), ctx.n(*b)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            vec![(concl.span, String::new())],
        ));
    }
    if p.semi && !concl.claim.owner_first {
        out.push(v(
            "VSC ⇏ VC",
            "a VSC does not give a VC".into(),
            vec![(concl.span, "should be VSC".into())],
        ));
    }
    out
}

/// True when some pair of `claim` is joined with no move: by the owner's stones and borders
/// and the claim's empty endpoints (the base facts of a derivation: adjacent ends).
pub fn joined_now(position: &Position, f: &Fact) -> bool {
    let board = position.board();
    let owner = f.claim.owner;
    let empty_ends: CellSet = f
        .claim
        .endpoints()
        .iter()
        .filter(|c| position.colour_at(*c).is_none())
        .collect();
    let own = position.owned(owner) | empty_ends;
    let joined = |&(a, b): &(Cell, Cell)| {
        let comp = position.component(a, &own);
        comp.contains(b) || board.adjacent(a, b)
    };
    if f.conj {
        f.claim.pairs.iter().all(joined)
    } else {
        f.claim.pairs.iter().any(joined)
    }
}

/// The five deduction rules [`check`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// [`and_rule`].
    And,
    /// [`or_rule`].
    Or,
    /// [`rule1`].
    Rule1,
    /// [`rule2`] (two premises: the semi first).
    Rule2,
    /// [`mono`].
    Mono,
}

impl Rule {
    /// The rule's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Rule::And => "AND",
            Rule::Or => "OR",
            Rule::Rule1 => "rule (1)",
            Rule::Rule2 => "rule (2)",
            Rule::Mono => "monotonicity",
        }
    }
}

/// Applies `rule` to the premises `ins` and the conclusion `concl`: its evidence when every
/// side condition holds, else the violations. Rules (1) and monotonicity read `ins[0]`,
/// rule (2) `ins[0]` and `ins[1]`.
pub fn check(
    rule: Rule,
    ctx: &Ctx,
    ins: &[Input],
    concl: &Fact,
) -> Result<RuleChecked, Vec<Violation>> {
    let vs = match rule {
        Rule::And => and_rule(ctx, ins, concl),
        Rule::Or => or_rule(ctx, ins, concl),
        Rule::Rule1 => rule1(ctx, &ins[0], concl),
        Rule::Rule2 => rule2(ctx, &ins[0], &ins[1], concl),
        Rule::Mono => mono(ctx, &ins[0], concl),
    };
    if vs.is_empty() {
        Ok(RuleChecked::new(rule.name()))
    } else {
        Err(vs)
    }
}

/// A position where the game is over and `owner` has won (a proof-tree White node with no
/// move left): the tree rule's evidence.
pub fn won_already(position: &Position, owner: Colour) -> Option<RuleChecked> {
    (position.winner() == Some(owner)).then(|| RuleChecked::new("tree"))
}
