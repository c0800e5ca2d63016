//! An H-search derivation as a kernel certificate.
//!
//! The explainer ([`crate::vc::explain`]) proves a connection by Anshelevich's rules
//! (*A hierarchical approach to computer Hex*, AI 134 (2002), §4 and Appendix A): base facts
//! (adjacency), edge templates, the AND rule and the OR rule. Each rule is already one of the
//! kernel's node kinds (`src/trusted/kernel.rs`), so a derivation becomes a certificate with about one
//! node per fact, no search and no new kernel rule:
//!
//! - a **base fact** `(x, ∅, y)` is a `Joined` node with goal `(x, y)`;
//! - the **AND rule through a group** `u`: VCs `(x, A, u)`, `(u, B, y)`, `A ∩ B = ∅`, give the
//!   VC `(x, A ∪ B, y)`: an and-node whose children are the two VCs with goals `(x, u)` and
//!   `(u, y)` (the kernel's condition 4: disjoint carriers, chained through the group `u`);
//! - the **AND rule through an empty cell** `u` gives the VSC `(x, A ∪ {u} ∪ B, y)` with key
//!   `u`; it is only used inside an OR, as the option "reply `u`, then the and-node of the two
//!   VCs, with a stone on `u`" (their carriers avoid `u`, an end of both, so they read the
//!   same with the stone there);
//! - the **OR rule**: VSCs `(x, S_k, y)` with `⋂ S_k = ∅` give the VC `(x, ⋃ S_k, y)`: an
//!   or-node with one option per VSC (condition 3: the intersection of the options'
//!   `{reply} ∪ next.carrier` is exactly `⋂ S_k`);
//! - an **edge template** (a seed of [`crate::vc::seed`], at most 22 cells) is proved by the
//!   exact local search on its carrier ([`super::decide`], a few nodes) and its certificate is
//!   spliced in with the template's goal.
//!
//! Nothing here is trusted: the caller checks the result with [`crate::kernel::check`]
//! before it uses it (and falls back to a search when the kernel refuses it).

use super::{decide, Budget, Verdict};
use crate::board::{Cell, CellSet, Colour};
use crate::claim::{Claim, ClaimError, SubGame};
use crate::kernel::{Certificate, Node, NodeId, NodeKind, Reply};
use crate::position::{Position, PositionError};
use crate::vc::explain::{Derivation, Why};
use std::collections::HashMap;

/// Why a derivation could not be translated ([`certificate`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DerivedError {
    /// The claim is owner-first or the derivation is empty.
    #[error("not an opponent-first claim with a derivation")]
    NotOpponentFirst,
    /// An AND premise does not end at the midpoint.
    #[error("premise {0} does not end at the AND's midpoint")]
    AndMidpoint(usize),
    /// A VSC where a VC is needed.
    #[error("fact {0}: a VSC used as a VC")]
    VscAsVc(usize),
    /// An OR premise that is no VSC.
    #[error("fact {0}: an OR premise that is not a VSC")]
    OrPremise(usize),
    /// The template's position is not a position.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The template's sub-game or its search was refused.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// The search did not prove the template.
    #[error("an edge template the search did not prove")]
    TemplateUnproved,
    /// The search proved the template by moving first.
    #[error("an edge template proved by moving first")]
    TemplateFirstMove,
}

/// Node budget of the local search that proves one edge template (II–IV1b need at most a
/// few dozen).
pub const TEMPLATE_NODES: u64 = 20_000;

/// What the translation of one derivation cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct DerivedStats {
    /// Local searches run for edge-template facts.
    pub template_searches: u64,
    /// Their search nodes.
    pub template_nodes: u64,
}

/// The certificate of `game` (opponent first) read off `d`, a derivation in `game`'s cells
/// whose last fact joins the ends of `game`'s claim pair, or why it could not be built.
/// Check the result with the kernel before using it.
///
/// A union claim `(g1, z), (g2, z), …` (pairs sharing the end `z`: the whole-board engine's
/// encoding joins g1, g2, … into one group) is read with `g1` standing for that group: every
/// goal with the end `g1` becomes the union of the same goal with each `g` in its place
/// (the kernel's `either`, condition 6), and an edge template at the group is searched as
/// that union. An AND through the group itself does not hold in the sub-game (the ends are
/// joined only in the encoding); the kernel refuses such a translation.
pub fn certificate(
    game: &SubGame,
    d: &Derivation,
    stats: &mut DerivedStats,
) -> Result<Certificate, DerivedError> {
    if game.claim().owner_first || d.facts.is_empty() {
        return Err(DerivedError::NotOpponentFirst);
    }
    let mut t = Translator {
        game,
        d,
        nodes: Vec::new(),
        memo: HashMap::new(),
        stats,
        union: union_ends(&game.claim().pairs),
    };
    let root = t.fact(d.facts.len() - 1, CellSet::EMPTY, None)?;
    Ok(Certificate {
        nodes: t.nodes,
        first: None,
        root,
    })
}

type Goal = Option<(Cell, Cell)>;

/// The ends of a union claim's pairs `(g1, z), (g2, z), …` that share the end `z`: `g1`
/// stands for the union in a derivation (see [`certificate`]) and `[g2, …]` are the others.
/// `None` for a single pair, or pairs without one common end.
fn union_ends(pairs: &[(Cell, Cell)]) -> Option<(Cell, Vec<Cell>)> {
    let [(a, z), rest @ ..] = pairs else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    for common in [*a, *z] {
        let other = |&(x, y): &(Cell, Cell)| {
            if x == common {
                Some(y)
            } else if y == common {
                Some(x)
            } else {
                None
            }
        };
        if let Some(ends) = pairs.iter().map(other).collect::<Option<Vec<Cell>>>() {
            return Some((ends[0], ends[1..].to_vec()));
        }
    }
    None
}

struct Translator<'a> {
    game: &'a SubGame,
    d: &'a Derivation,
    nodes: Vec<Node>,
    /// (fact, owner stones, goal) → node: a fact used twice in the same context is one node.
    memo: HashMap<(usize, CellSet, Goal), NodeId>,
    stats: &'a mut DerivedStats,
    /// A union claim's ends ([`union_ends`]): the first stands for all of them.
    union: Option<(Cell, Vec<Cell>)>,
}

impl Translator<'_> {
    /// Stores `n`, its goal made a union (`either`) when one end is the union's stand-in.
    fn push(&mut self, mut n: Node) -> NodeId {
        n.either = self.either(n.goal);
        self.nodes.push(n);
        (self.nodes.len() - 1) as NodeId
    }

    /// The other pairs of `goal` when an end is the union's stand-in `g1` (each other end
    /// `g` of the claim in its place): a fact about the claim's merged group `{g1, g2, …}`
    /// joins one of them. Empty for a single claim pair or a goal away from the group.
    fn either(&self, goal: Goal) -> Vec<(Cell, Cell)> {
        let (Some((x, y)), Some((g1, others))) = (goal, &self.union) else {
            return Vec::new();
        };
        others
            .iter()
            .map(|&g| {
                if x == *g1 {
                    (g, y)
                } else if y == *g1 {
                    (x, g)
                } else {
                    (x, y)
                }
            })
            .filter(|&p| Some(p) != goal)
            .collect()
    }

    /// The ends of premise `i` with `u` second: `(other end, u)`.
    fn towards(&self, i: usize, u: Cell) -> Result<(Cell, Cell), DerivedError> {
        let f = &self.d.facts[i];
        if f.y == u {
            Ok((f.x, u))
        } else if f.x == u {
            Ok((f.y, u))
        } else {
            Err(DerivedError::AndMidpoint(i))
        }
    }

    /// The and-node of the AND rule's two premises `a`, `b` through `u` (a group, or an
    /// empty cell already in `stones`).
    fn and(
        &mut self,
        (a, b, u): (usize, usize, Cell),
        stones: CellSet,
        carrier: CellSet,
        goal: Goal,
    ) -> Result<NodeId, DerivedError> {
        let (xa, _) = self.towards(a, u)?;
        let (yb, _) = self.towards(b, u)?;
        let ka = self.fact(a, stones, Some((xa, u)))?;
        let kb = self.fact(b, stones, Some((u, yb)))?;
        Ok(self.push(Node {
            stones,
            carrier,
            goal,
            either: Vec::new(),
            with: Vec::new(),
            kind: NodeKind::And(vec![ka, kb]),
        }))
    }

    /// The node of fact `i` (a VC) with the owner's extra `stones` and `goal` (`None`: the
    /// claim's pair, for the last fact and the or-options under it).
    fn fact(&mut self, i: usize, stones: CellSet, goal: Goal) -> Result<NodeId, DerivedError> {
        if let Some(&id) = self.memo.get(&(i, stones, goal)) {
            return Ok(id);
        }
        let f = &self.d.facts[i];
        if f.semi {
            return Err(DerivedError::VscAsVc(i));
        }
        let carrier = f.carrier;
        let id = match &f.why {
            Why::Base => self.push(Node {
                stones,
                carrier: CellSet::EMPTY,
                goal,
                either: Vec::new(),
                with: Vec::new(),
                kind: NodeKind::Joined,
            }),
            Why::Template(_) => self.template(f.x, f.y, carrier, stones, goal)?,
            &Why::And(a, b, u) => self.and((a, b, u), stones, carrier, goal)?,
            Why::Or(semis) => {
                let mut options = Vec::with_capacity(semis.len());
                for &s in semis {
                    let g = &self.d.facts[s];
                    let (true, &Why::And(a, b, u)) = (g.semi, &g.why) else {
                        return Err(DerivedError::OrPremise(i));
                    };
                    let mut next_carrier = g.carrier;
                    next_carrier.remove(u);
                    let next =
                        self.and((a, b, u), stones | CellSet::single(u), next_carrier, goal)?;
                    options.push(Reply { reply: u, next });
                }
                self.push(Node {
                    stones,
                    carrier,
                    goal,
                    either: Vec::new(),
                    with: Vec::new(),
                    kind: NodeKind::Or(options),
                })
            }
        };
        self.memo.insert((i, stones, goal), id);
        Ok(id)
    }

    /// An edge template `(x, carrier, y)`: the local search's certificate of it, with the
    /// owner's extra `stones` added and the goal set.
    fn template(
        &mut self,
        x: Cell,
        y: Cell,
        carrier: CellSet,
        stones: CellSet,
        goal: Goal,
    ) -> Result<NodeId, DerivedError> {
        let p = self.game.position();
        let pos = Position::new(
            *p.board(),
            p.stones(Colour::Black) | stones,
            p.stones(Colour::White),
        )?;
        let mut pairs = vec![(x, y)];
        pairs.extend(self.either(Some((x, y))));
        let claim = Claim {
            owner: self.game.claim().owner,
            pairs,
            owner_first: false,
        };
        let g = SubGame::new(pos, carrier, claim)?;
        let o = decide(&g, &Budget::nodes(TEMPLATE_NODES))?;
        self.stats.template_searches += 1;
        self.stats.template_nodes += o.stats.nodes;
        let (Verdict::Holds, Some(cert)) = (o.verdict, o.certificate) else {
            return Err(DerivedError::TemplateUnproved);
        };
        if cert.first.is_some() {
            return Err(DerivedError::TemplateFirstMove);
        }
        let off = self.nodes.len() as NodeId;
        for n in cert.nodes {
            let mut m = n;
            m.stones |= stones;
            // Single goals inside (and-node children) stay; the template's own goal is
            // `goal` (`None` only for the last fact: then the claim's pair is `(x, y)`).
            if m.goal.is_none() {
                m.goal = goal;
                m.either = self.either(goal);
            }
            shift(&mut m.kind, off);
            self.nodes.push(m);
        }
        Ok(cert.root + off)
    }
}

/// Adds `off` to every node a node refers to (splicing a certificate after `off` others).
pub fn shift(kind: &mut NodeKind, off: NodeId) {
    match kind {
        NodeKind::Joined => {}
        NodeKind::Or(opts) => opts.iter_mut().for_each(|o| o.next += off),
        NodeKind::And(kids) => kids.iter_mut().for_each(|k| *k += off),
    }
}
