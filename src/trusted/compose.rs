//! Several lemmas in one step, and the AB-property across two areas (docs/SEMANTICS.md,
//! "Several lemmas in one step" and "AB-property"; Noshita 2005, §3 "We have t − y and y − x
//! and x − b by T-, S- and T-lemmas. Hence we have t − b", and §4, Figs. 38–39).
//!
//! The placed lemmas are *parts*: claims about the step's position with pairwise disjoint
//! carriers, whose ends are all the owner's cells in the step (owner stones, the owner's
//! borders, the step's empty endpoints). The owner plays every part's strategy in its own
//! carrier; each part ends with one of its pairs joined, so the step holds when **every**
//! choice of one joined pair per part links some pair of the step — checked here by a
//! union-find over the ends, where two ends are also linked when they lie in one group of the
//! owner's cells of the step.
//!
//! A part with an assumption `A => B` (its claim holds only in the assisted game, see
//! [`super::ab::assisted_holds`]) needs another part whose verified guarantee has the same
//! A and B after placement.

use crate::board::{Cell, CellSet};
use crate::claim::Claim;
use crate::dsl::model::CellNames;
use crate::position::Position;

/// One placed lemma.
#[derive(Clone, Debug)]
pub struct Part {
    /// The lemma's name (for messages).
    pub name: String,
    /// The placed claim.
    pub claim: Claim,
    /// The placed carrier.
    pub carrier: CellSet,
    /// Placed verified guarantees `(A, B)`.
    pub guarantees: Vec<(Cell, Cell)>,
    /// Placed assumptions `(A, B)`.
    pub assumes: Vec<(Cell, Cell)>,
}

/// A violated side condition: (condition, message).
pub type Misfit = Vec<(&'static str, String)>;

/// The owner's cells of a step: the owner's stones and borders, and its empty endpoints.
pub fn owner_cells(pos: &Position, claim: &Claim) -> CellSet {
    let owner = claim.owner;
    let mut own = pos.stones(owner) | pos.board().border_cells(owner);
    for &(a, b) in &claim.pairs {
        for e in [a, b] {
            if pos.colour_at(e).is_none() {
                own.insert(e);
            }
        }
    }
    own
}

/// Checks the side conditions of a composition of placed parts for the step
/// `(claim, carrier)`. Empty when the step follows.
pub fn check(
    pos: &Position,
    parts: &[Part],
    claim: &Claim,
    carrier: CellSet,
    names: &CellNames,
) -> Misfit {
    let mut bad: Misfit = Vec::new();
    check_carriers(parts, claim, carrier, names, &mut bad);
    check_semis(parts, claim, &mut bad);
    check_assumptions(parts, claim, names, &mut bad);
    if let Some(choice) = unjoined_choice(pos, parts, claim) {
        let what: Vec<String> = parts
            .iter()
            .zip(&choice)
            .map(|(p, &(a, b))| format!("{} joins {} - {}", p.name, names.name(a), names.name(b)))
            .collect();
        bad.push((
            "pairs joined",
            format!(
                "when {}, no pair of the step ({}) is joined",
                what.join(" and "),
                names.claim(claim)
            ),
        ));
    }
    bad
}

/// Each part is the step owner's, inside the step's carrier, and disjoint from the others.
fn check_carriers(
    parts: &[Part],
    claim: &Claim,
    carrier: CellSet,
    names: &CellNames,
    bad: &mut Misfit,
) {
    for (i, p) in parts.iter().enumerate() {
        if p.claim.owner != claim.owner {
            bad.push((
                "ends match",
                format!(
                    "lemma {} gives a {} claim; the step is {}'s",
                    p.name, p.claim.owner, claim.owner
                ),
            ));
        }
        if !p.carrier.is_subset(&carrier) {
            bad.push((
                "carrier inside the step's",
                format!(
                    "lemma {} uses {}, which is not in the step's carrier",
                    p.name,
                    names.set(&(p.carrier - carrier))
                ),
            ));
        }
        for q in &parts[i + 1..] {
            let common = p.carrier & q.carrier;
            if !common.is_empty() {
                bad.push((
                    "carriers disjoint",
                    format!(
                        "the carriers of lemmas {} and {} share {}",
                        p.name,
                        q.name,
                        names.set(&common)
                    ),
                ));
            }
        }
    }
}

/// At most one part is a semi-connection, and then the step is one too.
fn check_semis(parts: &[Part], claim: &Claim, bad: &mut Misfit) {
    let semis: Vec<&Part> = parts.iter().filter(|p| p.claim.owner_first).collect();
    if semis.len() > 1 {
        bad.push((
            "one semi at most",
            format!(
                "lemmas {} and {} are both semi-connections: the owner cannot move first in both",
                semis[0].name, semis[1].name
            ),
        ));
    } else if semis.len() == 1 && !claim.owner_first {
        bad.push((
            "kind",
            format!(
                "lemma {} is a semi-connection, so the step gives only a VSC",
                semis[0].name
            ),
        ));
    }
}

/// Every assumption is discharged by another part's guarantee, and one guarantee serves one
/// assumption.
fn check_assumptions(parts: &[Part], claim: &Claim, names: &CellNames, bad: &mut Misfit) {
    for (j, p) in parts.iter().enumerate() {
        for &(a, b) in &p.assumes {
            let ok = parts
                .iter()
                .enumerate()
                .any(|(i, q)| i != j && q.guarantees.contains(&(a, b)));
            if !ok {
                bad.push((
                    "assumption discharged",
                    format!(
                        "lemma {} assumes {} {} => {} {}, and no other lemma of the step guarantees it (a verified `guarantee` with the same cells after placement)",
                        p.name,
                        claim.owner.opponent(),
                        names.name(a),
                        claim.owner,
                        names.name(b)
                    ),
                ));
            }
        }
    }
    // One guarantee serves one assumption: after the opponent's B and A, the guaranteeing area
    // leaves one answer to give, not one per assuming area.
    for (i, q) in parts.iter().enumerate() {
        for g in &q.guarantees {
            let users: Vec<&str> = parts
                .iter()
                .enumerate()
                .filter(|(j, p)| *j != i && p.assumes.contains(g))
                .map(|(_, p)| p.name.as_str())
                .collect();
            if users.len() > 1 {
                bad.push((
                    "assumption discharged",
                    format!(
                        "the guarantee of lemma {} on {} and {} is assumed by {} lemmas ({}); one guarantee serves one assumption",
                        q.name,
                        names.name(g.0),
                        names.name(g.1),
                        users.len(),
                        users.join(", ")
                    ),
                ));
            }
        }
    }
}

/// A choice of one pair per part after which no pair of the step is linked, if any.
pub fn unjoined_choice(pos: &Position, parts: &[Part], claim: &Claim) -> Option<Vec<(Cell, Cell)>> {
    let own = owner_cells(pos, claim);
    // Every cell that matters, and its group of the owner's cells.
    let mut nodes: Vec<Cell> = Vec::new();
    let add = |c: Cell, nodes: &mut Vec<Cell>| {
        if !nodes.contains(&c) {
            nodes.push(c);
        }
    };
    for &(a, b) in &claim.pairs {
        add(a, &mut nodes);
        add(b, &mut nodes);
    }
    for p in parts {
        for &(a, b) in &p.claim.pairs {
            add(a, &mut nodes);
            add(b, &mut nodes);
        }
    }
    let comps: Vec<CellSet> = nodes
        .iter()
        .map(|&c| {
            if own.contains(c) {
                pos.component(c, &own)
            } else {
                let mut s = CellSet::new();
                s.insert(c);
                s
            }
        })
        .collect();
    let idx = |c: Cell| nodes.iter().position(|&x| x == c).expect("node");
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    // Ends in one group of the owner's cells are linked whatever the parts do.
    let mut base: Vec<usize> = (0..nodes.len()).collect();
    for (i, comp) in comps.iter().enumerate() {
        for (j, &n) in nodes.iter().enumerate().skip(i + 1) {
            if comp.contains(n) {
                let (ri, rj) = (find(&mut base, i), find(&mut base, j));
                base[ri] = rj;
            }
        }
    }
    let mut choice = vec![0usize; parts.len()];
    loop {
        // Union-find over the nodes.
        let mut parent = base.clone();
        for (p, &k) in parts.iter().zip(&choice) {
            let (a, b) = p.claim.pairs[k];
            let (ra, rb) = (find(&mut parent, idx(a)), find(&mut parent, idx(b)));
            parent[ra] = rb;
        }
        let joined = claim
            .pairs
            .iter()
            .any(|&(a, b)| find(&mut parent, idx(a)) == find(&mut parent, idx(b)));
        if !joined {
            return Some(
                parts
                    .iter()
                    .zip(&choice)
                    .map(|(p, &k)| p.claim.pairs[k])
                    .collect(),
            );
        }
        // Next choice.
        let mut i = 0;
        loop {
            if i == parts.len() {
                return None;
            }
            choice[i] += 1;
            if choice[i] < parts[i].claim.pairs.len() {
                break;
            }
            choice[i] = 0;
            i += 1;
        }
    }
}

/// [`check`] as evidence: the composition's rule (`lemmas`) when every side condition holds.
pub fn check_composition(
    pos: &Position,
    parts: &[Part],
    claim: &Claim,
    carrier: CellSet,
    names: &CellNames,
) -> Result<crate::trusted::RuleChecked, Misfit> {
    let bad = check(pos, parts, claim, carrier, names);
    if bad.is_empty() {
        Ok(crate::trusted::RuleChecked::new("lemmas"))
    } else {
        Err(bad)
    }
}
