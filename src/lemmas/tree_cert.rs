//! Kernel certificates composed from a lemma's proof tree (docs/SEMANTICS.md, "Lemma trees";
//! docs/templates.md, "Lemma records").
//!
//! A lemma tree (Noshita 2005 §3: White's moves into the carrier and Black's answers, each
//! leaf a claim settled by search or by an earlier lemma) *is* a kernel certificate in
//! outline: a White node with its cases is an or-node whose options are (Black's answer, the
//! node that follows), and a leaf is the certificate of its own claim. Composing them gives
//! one certificate of the whole lemma, which [`crate::kernel::check`] then checks like any
//! other; so `hexproof templates verify` re-checks such a lemma by the kernel alone, without
//! re-running the checker (whose leaf searches are the slow part).
//!
//! Nothing here is trusted: a composition that is wrong in any way (a case missing, a leaf
//! whose carrier meets an intrusion it should answer) is rejected by the kernel, and the
//! record then keeps `recheck: checker`. Precluding analyses (`preclude by z { .. }`: an
//! option `(z, the derivation's certificate)`) are composed like cases; shared positions,
//! multi-step derivations and lemma uses under a symmetry make [`compose`] give up (an error,
//! not a wrong certificate).

use crate::board::{Cell, CellSet};
use crate::claim::{ClaimError, SubGame};
use crate::dsl::model::{Just, TreeNode};
use crate::kernel::{Certificate, Node, NodeId, NodeKind, Reply};
use crate::local::{decide, Budget, Verdict};
use crate::position::Position;
use std::collections::HashMap;

/// An earlier lemma of the same file whose kernel certificate a leaf `by NAME` may use.
#[derive(Clone, Debug)]
pub struct KnownLemma {
    /// The lemma's position (its certificate's stones are relative to it).
    pub position: Position,
    /// Its carrier.
    pub carrier: CellSet,
    /// Its pairs (a union).
    pub pairs: Vec<(Cell, Cell)>,
    /// Its certificate (opponent first).
    pub certificate: Certificate,
}

impl KnownLemma {
    /// A verified lemma's sub-game with its certificate.
    pub fn of(game: &SubGame, certificate: Certificate) -> KnownLemma {
        KnownLemma {
            position: game.position().clone(),
            carrier: game.carrier(),
            pairs: game.claim().pairs.clone(),
            certificate,
        }
    }
}

/// What [`compose`] built.
#[derive(Clone, Debug)]
pub struct Composed {
    /// The certificate of the lemma's claim (not yet checked: the caller runs the kernel).
    pub certificate: Certificate,
    /// Leaf searches run.
    pub searches: u64,
    /// Leaves answered by an earlier lemma's certificate.
    pub lemma_leaves: u64,
}

struct Composer<'a> {
    root: &'a SubGame,
    budget: &'a Budget,
    lemmas: &'a HashMap<String, KnownLemma>,
    nodes: Vec<Node>,
    /// Black nodes already built, by their place in the source: the same written reply
    /// answers every White move of its `case` (White's stone is outside the reply's carrier,
    /// so the reply's certificate does not depend on which of them was played).
    built: HashMap<(usize, usize), NodeId>,
    searches: u64,
    lemma_leaves: u64,
}

/// Why a proof tree could not be composed into a certificate ([`compose`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ComposeError {
    /// The claim is owner-first.
    #[error("a proof tree proves an opponent-first claim")]
    OpponentFirst,
    /// A leaf's certificate starts with a move.
    #[error("a leaf certificate with a first move")]
    LeafFirstMove,
    /// A White move's case has no Black answer.
    #[error("a case without Black's answer")]
    NoAnswer,
    /// A Black node where White is to move.
    #[error("Black to move where White is")]
    BlackToMove,
    /// A `goto`.
    #[error("shared positions are not composed")]
    Goto,
    /// A leaf of several steps.
    #[error("a leaf derivation of more than one step")]
    LongLeaf,
    /// A leaf stating another claim.
    #[error("a leaf that does not state the lemma's claim")]
    LeafClaim,
    /// The search refused a leaf's sub-game.
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// A leaf's search did not hold.
    #[error("a leaf search says {0:?}")]
    LeafSearch(Verdict),
    /// A leaf by several lemmas.
    #[error("a leaf by several lemmas")]
    SeveralLemmas,
    /// A lemma under a symmetry or translation.
    #[error("a lemma placed under a symmetry")]
    Symmetry,
    /// The lemma has no certificate.
    #[error("no certificate of lemma {0}")]
    NoLemma(String),
    /// The lemma is not stated on the leaf.
    #[error("lemma {0} is not stated on this leaf")]
    NotStated(String),
    /// A leaf by another justification.
    #[error("a leaf by {0}")]
    LeafBy(&'static str),
}

/// Composes the certificate of `game` (a lemma's claim: the owner to connect, the opponent
/// first) from the lemma's proof tree `tree` (White to move at its root), deciding each
/// `by search` leaf with `budget` and taking `by NAME` leaves from `lemmas`.
pub fn compose(
    game: &SubGame,
    tree: &TreeNode,
    lemmas: &HashMap<String, KnownLemma>,
    budget: &Budget,
) -> Result<Composed, ComposeError> {
    if game.claim().owner_first {
        return Err(ComposeError::OpponentFirst);
    }
    let mut c = Composer {
        root: game,
        budget,
        lemmas,
        nodes: Vec::new(),
        built: HashMap::new(),
        searches: 0,
        lemma_leaves: 0,
    };
    let root = c.white_to_move(tree)?;
    Ok(Composed {
        certificate: Certificate {
            nodes: c.nodes,
            first: None,
            root,
        },
        searches: c.searches,
        lemma_leaves: c.lemma_leaves,
    })
}

impl Composer<'_> {
    /// The owner's stones added since the lemma's position.
    fn added(&self, p: &Position) -> CellSet {
        let owner = self.root.claim().owner;
        p.stones(owner) - self.root.position().stones(owner)
    }

    fn push(&mut self, n: Node) -> NodeId {
        self.nodes.push(n);
        (self.nodes.len() - 1) as NodeId
    }

    /// Appends `cert`'s nodes with `extra` owner stones added to each; returns its root.
    fn embed(&mut self, cert: &Certificate, extra: CellSet) -> Result<NodeId, ComposeError> {
        if cert.first.is_some() {
            return Err(ComposeError::LeafFirstMove);
        }
        let off = self.nodes.len() as NodeId;
        for n in &cert.nodes {
            let mut m = n.clone();
            m.stones |= extra;
            match &mut m.kind {
                NodeKind::Joined => {}
                NodeKind::Or(opts) => opts.iter_mut().for_each(|o| o.next += off),
                NodeKind::And(kids) => kids.iter_mut().for_each(|k| *k += off),
            }
            self.nodes.push(m);
        }
        Ok(cert.root + off)
    }

    /// A position with the opponent to move: a White node (an or-node over its cases) or a
    /// leaf.
    fn white_to_move(&mut self, t: &TreeNode) -> Result<NodeId, ComposeError> {
        match t {
            TreeNode::White {
                position,
                precludes,
                cases,
                ..
            } => {
                let mut options: Vec<Reply> = Vec::new();
                // `preclude by z { .. }`: Black's fictitious z and the claim derived after it
                // answer every White move outside z and that derivation's carrier: an option
                // (z, the derivation's certificate) like any case.
                for p in precludes {
                    let next = self.leaf(&p.position, &p.steps)?;
                    let r = Reply { reply: p.z, next };
                    if !options.contains(&r) {
                        options.push(r);
                    }
                }
                for case in cases {
                    let TreeNode::Black {
                        cell, next, span, ..
                    } = &case.reply
                    else {
                        return Err(ComposeError::NoAnswer);
                    };
                    let key = (span.start, span.end);
                    let id = match self.built.get(&key) {
                        Some(&id) => id,
                        None => {
                            let id = self.white_to_move(next)?;
                            self.built.insert(key, id);
                            id
                        }
                    };
                    let r = Reply {
                        reply: *cell,
                        next: id,
                    };
                    if !options.contains(&r) {
                        options.push(r);
                    }
                }
                let mut carrier = CellSet::EMPTY;
                for o in &options {
                    carrier |= self.nodes[o.next as usize].carrier;
                    carrier.insert(o.reply);
                }
                let node = Node {
                    stones: self.added(position),
                    carrier,
                    goal: None,
                    either: Vec::new(),
                    with: Vec::new(),
                    kind: NodeKind::Or(options),
                };
                Ok(self.push(node))
            }
            TreeNode::Leaf {
                position, steps, ..
            } => self.leaf(position, steps),
            TreeNode::Black { .. } => Err(ComposeError::BlackToMove),
            TreeNode::Goto { .. } => Err(ComposeError::Goto),
        }
    }

    /// A leaf: one step deriving (some of) the lemma's pairs, by search or by an earlier
    /// lemma stated on exactly this position.
    fn leaf(
        &mut self,
        position: &Position,
        steps: &[crate::dsl::model::Step],
    ) -> Result<NodeId, ComposeError> {
        let [step] = steps else {
            return Err(ComposeError::LongLeaf);
        };
        let f = &step.fact;
        let goal = &self.root.claim();
        if f.conj
            || f.claim.owner != goal.owner
            || f.claim.owner_first
            || !f.claim.pairs.iter().all(|p| goal.pairs.contains(p))
        {
            return Err(ComposeError::LeafClaim);
        }
        let extra = self.added(position);
        match &step.just {
            Just::Search => {
                let game = SubGame::new(position.clone(), f.carrier, f.claim.clone())?;
                self.searches += 1;
                let o = decide(&game, self.budget)?;
                match (o.verdict, o.certificate) {
                    (Verdict::Holds, Some(cert)) => self.embed(&cert, extra),
                    (v, _) => Err(ComposeError::LeafSearch(v)),
                }
            }
            Just::Lemma(refs) => {
                let [r] = refs.as_slice() else {
                    return Err(ComposeError::SeveralLemmas);
                };
                if !r.under.is_empty() || r.at.is_some() {
                    return Err(ComposeError::Symmetry);
                }
                let l = self
                    .lemmas
                    .get(&r.name)
                    .ok_or_else(|| ComposeError::NoLemma(r.name.clone()))?;
                let owner = goal.owner;
                if l.position.stones(owner) != position.stones(owner)
                    || !l.carrier.is_subset(&f.carrier)
                    || !l.pairs.iter().all(|p| goal.pairs.contains(p))
                {
                    return Err(ComposeError::NotStated(r.name.clone()));
                }
                self.lemma_leaves += 1;
                let cert = l.certificate.clone();
                self.embed(&cert, extra)
            }
            _ => Err(ComposeError::LeafBy(step.just.name())),
        }
    }
}
