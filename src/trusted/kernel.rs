//! The certificate kernel: the only code that can say a claim holds.
//!
//! The search proposes, the kernel disposes (docs/ARCHITECTURE.md "Trust"). This module depends on nothing but
//! `board`, `position` and `claim` — no search, no caches, no heuristics — and is meant to be
//! audited in one sitting. Only [`check`] constructs a [`Verified`] value (private field, no
//! public constructor: the LCF idea).
//!
//! # Certificates
//!
//! A certificate is a DAG of [`Node`]s. Node `n` asserts:
//!
//! > with the owner's extra stones `n.stones` added to the position, the owner wins the
//! > sub-game on carrier `n.carrier` with the opponent to move.
//!
//! Its goal is the claim's pairs, or a single pair `n.goal = (a, z)` of owner cells (a
//! sub-connection inside an and-node). A node is one of:
//!
//! - `Joined`: some goal pair is already joined by owner cells and `n.stones`;
//! - an **or-node**: a list of options `(reply, next)`. The opponent's move `w` into the
//!   carrier is answered by any option with `w ∉ {reply} ∪ next.carrier`: the owner plays
//!   `reply`, and `next` (whose carrier avoids `w`) takes over. This is Anshelevich's OR rule
//!   generalised, as in HexProver's `build_case_strategy`;
//! - an **and-node**: children with pairwise disjoint carriers whose goals form a chain
//!   from `a` to `z` through owner components (Anshelevich's AND rule): each opponent move
//!   falls in at most one child's carrier and is answered there. A child's goal may be a
//!   union (`goal` or any pair of `either`); then every choice of one pair per child must
//!   link a goal pair (condition 6).
//!
//! # Local conditions checked for every node
//!
//! 1. `stones ∩ carrier = ∅`, and both lie in the claim's carrier (so they are empty in P).
//! 2. `Joined`: some pair is joined by the owner cells plus `stones`.
//! 3. Or-node: at least one option; for each option `reply ∈ carrier`,
//!    `next.stones ⊆ stones ∪ {reply}`, `next.carrier ⊆ carrier ∖ {reply}`,
//!    `next.goal = goal` and `next.either = either`; and the intersection over all options of `{reply} ∪ next.carrier`
//!    is empty.
//! 4. And-node: at least one child; every child has a smaller index than the node, a single
//!    goal pair, `stones ⊆ n.stones` and `carrier ⊆ n.carrier`; the children's carriers are
//!    pairwise disjoint; their goals, in order, `(s1, e1), …, (sk, ek)`, chain a goal pair
//!    `(a, z)` of `n`: `a ~ s1`, `e_i ~ s_{i+1}`, `ek ~ z`, where `x ~ y` means x and y are
//!    already joined by the node's owner cells (owner cells of the position and `n.stones`).
//! 5. A single goal pair's two ends are owner cells: owner cells of the position (stones,
//!    borders, empty endpoints) or `n.stones`. So are both ends of every pair of a union
//!    goal (`goal` plus `either`); `either` is empty when `goal` is `None`.
//! 6. **Union AND** (an and-node with a child whose goal is a union, `either` non-empty —
//!    Noshita's several-lemmas step, "every choice of joined pairs joins the step"): instead
//!    of the chain of condition 4, for **every** choice of one goal pair per child, the
//!    chosen pairs together with the joins `~` of the node's owner cells link the two ends
//!    of some goal pair of the node (union-find over the ends); at most
//!    [`MAX_CHOICES`] choices, else rejected. The other conditions of 4 stand.
//! 8. **Conjunctive goals** (`with`): the goal of a node with `goal` is the disjunction over
//!    `i` of the conjunctions `{pair_i} ∪ with[i]` (`pair_i`: the `i`-th of `goal` then
//!    `either`; [`conjuncts`]); without `goal`, the claim's pairs one by one. `with` is empty
//!    when `goal` is `None`, has at most one list per pair, each under [`MAX_CONJUNCT`]
//!    pairs, and its pairs' ends are owner cells (5); an or-node's next node has the same
//!    `with` (3); `Joined` needs every pair of some conjunction joined (2); an and-node with a
//!    conjunction of two or more pairs in its own goal or a child's is judged as in 6 with
//!    conjunctions for pairs: for **every** choice of one conjunction per child, the pairs of
//!    the chosen conjunctions and the joins `~` of the node's owner cells link both ends of
//!    **every** pair of **some** conjunction of the node ([`every_choice_links_all`], at most
//!    [`MAX_CHOICES`] choices); a lemma leaf (7) also needs every conjunction of the lemma's
//!    goal ([`Verified::goal`], the root's conjunctions) to hold all pairs of one of the
//!    node's; the root's pairs, `with` included, are claim pairs.
//!
//! # Why that suffices (soundness)
//!
//! By induction on (`|carrier|`, index): or-edges strictly shrink the carrier, and-edges
//! never grow it and strictly lower the index, so the DAG has no cycle and no recursion is
//! needed. Suppose every cell of `n.carrier` is empty and the owner holds `n.stones`.
//! A lemma leaf (7): the board now is the game's position plus `n.stones` (and opponent
//! stones outside `n.carrier`, where the lemma's strategy never plays and which cannot cut
//! owner cells), with `n.carrier` empty — the lemma's position, or one with other opponent
//! stones outside its carrier and off its goal's ends and the same owner cells, which poses
//! the same sub-game (7a) — so the lemma's own strategy, which
//! the kernel accepted earlier (by induction on the order in which `Verified` values are
//! made), joins one of its pairs, which are the node's pairs. Its owner cells are no more
//! than the node's: its stones are the game's plus `n.stones`, and its empty endpoints are
//! ends of the node's pairs, owner cells of the node by condition 5 (or the claim's
//! endpoints when the node has no goal of its own).
//! An and-node: the opponent's move lies in at most one child's carrier (they are disjoint)
//! and is answered by that child's strategy; every child wins on its own (the others' stones
//! only help), so every child pair gets joined, and with the joins `~` that the node's owner
//! cells already make, the chain joins `a` to `z`. A union-AND node (6): every child wins on
//! its own as before, so at the end each child has joined *some* pair of its union goal; the
//! pairs actually joined are one of the choices enumerated, each joined pair puts its two ends
//! in one owner group, and owner groups of the node only grow (owner stones are never
//! removed), so the ends the union-find links for that choice are linked on the board: a goal
//! pair of the node is joined. A node with conjunctions (8): the induction hypothesis is
//! that the node's strategy joins *every* pair of *some* conjunction of its goal. `Joined`:
//! by (2). Or-node: the next node has the same conjunctions (3). And-node: each child wins on
//! its own as before, so each child has joined all the pairs of some conjunction of its
//! goal; those conjunctions are one of the choices enumerated; every pair joined puts its
//! ends in one owner group and groups only grow, so every link the union-find makes is a
//! link on the board, and the node's conjunction it found fully linked is joined. A lemma
//! leaf: the lemma's strategy joins one of the conjunctions its root stated (recorded in the
//! [`Verified`] value by [`check_with`], from the root the kernel accepted), which holds all
//! pairs of one of the node's. A root with conjunctions proves its claim, since each of its
//! conjunctions holds a claim pair. Without `with`, every conjunction is one pair and (8)
//! says exactly what (2)–(7) said, so no certificate without conjunctions changes verdict.
//! An or-node: The opponent moves `w`. If `w ∉ n.carrier` it does not matter (strict
//! alternation inside the sub-game's carrier; monotonicity). Otherwise by (3) some option
//! has `w ∉ {reply} ∪ next.carrier`; `reply ∈ carrier`, `reply ≠ w`, so it is empty and the
//! owner plays it. Now every cell of `next.carrier` is still empty (it avoids `w` and `reply`)
//! and the owner holds `stones ∪ {reply} ⊇ next.stones`; extra owner stones never hurt, so
//! `next`'s assertion applies. A `Joined` node is a win by (2).
//!
//! 7. **Lemma leaves** (only through [`check_with`]): a node given with a [`Verified`] claim
//!    `V` is an and-node *without children* (which [`check`] always rejects, so a certificate
//!    that relies on lemmas can never pass without them) whose assertion is exactly `V`'s:
//!    `V`'s board and owner are the game's; the opponent moves first in `V`; `V`'s owner
//!    stones are the game's with the node's `stones` added, nothing else; `V`'s opponent
//!    stones are the game's except on cells outside the node's carrier that are not ends of
//!    its goal pairs (7a, below); `V`'s carrier is the node's carrier; `V`'s pairs are the
//!    node's goal pairs (its own goal and `either`, or the claim's pairs when it has none),
//!    as sets. Conditions 1 and 5 are checked on the node as on any other.
//!
//!    **7a, why the opponent's stones outside the carrier do not matter.** A sub-game is
//!    decided by its carrier, its pairs and the owner's cells alone: both players move only in
//!    the carrier, and a pair is joined by a chain of owner cells (the owner's stones, borders
//!    and empty endpoints, plus the owner's moves in the carrier). A cell outside the carrier
//!    that is not an owner cell is never part of such a chain, whether it is empty or holds
//!    an opponent stone; so two positions with the same owner stones, the carrier empty in
//!    both, and the same colour on every end of a goal pair (the ends decide the empty
//!    endpoints) pose the same sub-game, and a strategy winning one wins the other move for
//!    move. This lets a tree's node (`check`'s composed White nodes, src/check/tree.rs)
//!    cite the win of a position further down the tree, which has White's later stones on
//!    cells outside its carrier, as the win of the same carrier with those cells empty.
//!
//! 7b. **Filled lemma leaves** (only through [`check_filled`]; Henderson, Arneson & Hayward
//!    2009 §3, fill-in, as in src/trusted/fill.rs): a node given with a [`Verified`] claim
//!    `V` and a list of fills `F1, …, Fk` ([`Fill`], each a dead set or a pair, given to the
//!    owner) is an and-node without children whose assertion follows from `V`'s when:
//!    the node has no goal of its own and the claim is the single pair of the owner's two
//!    borders; `V`'s board and owner are the game's and the opponent moves first in `V`; the
//!    fills are non-empty and pairwise disjoint, their union `F` lies in the node's carrier
//!    `K`, misses `V`'s carrier, and `V`'s carrier ∪ `F` = `K`; `V`'s owner stones are the
//!    game's with the node's `stones` and `F` added, nothing else; `V`'s opponent stones
//!    differ from the game's only outside `K` and off the claim's ends (7a); `V`'s pairs are
//!    the claim's, as sets; and, in the **restricted** position `R` (the game's position
//!    plus the node's stones, every empty cell outside `K` an opponent stone), each `Fi`,
//!    with `F1 … F(i−1)` already given to the owner, passes [`is_dead`] (the clique test for
//!    some colour: the relevant neighbours of the set, outside it, pairwise adjacent or one
//!    chain) or, for a pair, [`is_captured`] by the owner (with the owner on either cell the
//!    other one is dead).
//!
//!    **Why 7b suffices.** The node asserts that the owner, holding the node's stones, wins
//!    the sub-game on `K` joining its two borders with the opponent to move. Both players
//!    move only in `K` and cells outside it never join the owner's cells (7a), so this is the
//!    whole game on `R` (every cell outside `K` the opponent's, `K` empty): the owner wins
//!    that game iff it wins the sub-game. On a full board exactly one player joins its two
//!    borders, so the owner's winning condition *is* the winner of every completion of `R`
//!    — this is where the border claim is needed; for an inner pair `x – y` the owner may
//!    lose the pair in a completion the owner wins, and the fill-in theorem says nothing
//!    about it, so such a claim is refused. (a) A set `D` that passes the clique test for a
//!    colour X in a position `Q` is dead there: in every completion of `Q`, an X path
//!    through `D` enters it from a neighbour `u` and leaves to a neighbour `v` that are X's,
//!    and `u`, `v` are adjacent or one X chain, so the path has a short cut avoiding `D`;
//!    hence X's win, and so (one winner) the winner, of every completion of `Q` does not
//!    depend on the colours of `D`. Then if the owner wins `Q + D` (D the owner's) with the
//!    opponent to move by a strategy `S`, it wins `Q`: it plays `S`, answering a move into
//!    `D` by any move (an extra owner stone never hurts: `S` ignores it and, should it ask
//!    for that cell later, any other move is played), and the final board, with `D`
//!    recoloured to the owner, has at least the owner cells of a play of `S`, so the owner
//!    wins it, and so (dead) the actual final board. (b) A pair `{a, b}` captured by the
//!    owner in `Q`: the owner plays `S` of `Q + {a, b}` and answers `a` by `b` and `b` by
//!    `a`; the final board is a completion of `Q` with the owner on one of them, say `b`,
//!    where `a` is dead (tested in `Q + b`, and deadness is about every completion), so its
//!    winner is that of the same board with `a` the owner's, a board where `S` won (as in
//!    (a), extra owner stones elsewhere only help). (c) By induction from `i = k` down to 1,
//!    each `Fi` tested in `R + F1 … F(i−1)`: the owner wins `R + F` (by `V`'s strategy: `V`'s
//!    position restricted to its carrier is `R + F`, 7a), hence `R + F1 … F(k−1)`, …, hence
//!    `R`, which is the node's assertion. Only owner-coloured fills are accepted, so the
//!    opponent's fills (dead cells given to the opponent, pairs it captures) are not part of
//!    7b.
//!
//! A lemma leaf is how a checked sub-certificate is reused without being checked again
//! (`yang check` composes thousands of verified sub-patterns; re-checking each embedded copy
//! at every level above cost most of its time): the sub-certificate was accepted by
//! [`check`] for exactly the sub-game the leaf stands for — the same position, carrier,
//! goal and player to move — so checking it again could only give the same answer. The
//! kernel still checks everything it is asked to trust: the lemma is a [`Verified`] value,
//! which only [`check`] / [`check_with`] construct (private field), and the match of its
//! sub-game with the leaf is checked here, cell set by cell set.
//!
//! The root: for a claim with the opponent first, a node with no stones and a carrier inside
//! the claim's carrier. With the owner first, either such a node or a first move `m` in the
//! carrier and a node with `stones ⊆ {m}` and `carrier ⊆ claim carrier ∖ {m}`.

use crate::board::{Cell, CellSet, Colour};
use crate::claim::SubGame;
use crate::position::Position;
use serde::{Deserialize, Serialize};

/// Index of a node in [`Certificate::nodes`].
pub type NodeId = u32;

/// One owner reply in an or-node.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Reply {
    /// The owner's answer.
    pub reply: Cell,
    /// The node that takes over after it.
    pub next: NodeId,
}

/// What a node says (see the module docs).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum NodeKind {
    /// A goal pair is joined.
    Joined,
    /// The opponent's intrusions are answered by these options.
    Or(Vec<Reply>),
    /// Sub-connections on disjoint carriers, chained through owner cells.
    And(Vec<NodeId>),
}

impl NodeKind {
    /// The same kind with every node index moved by `off` (a certificate copied into
    /// another's node list; used by builders, not by [`check`]).
    pub fn shifted(&self, off: NodeId) -> NodeKind {
        match self {
            NodeKind::Joined => NodeKind::Joined,
            NodeKind::Or(rs) => NodeKind::Or(
                rs.iter()
                    .map(|r| Reply {
                        reply: r.reply,
                        next: r.next + off,
                    })
                    .collect(),
            ),
            NodeKind::And(cs) => NodeKind::And(cs.iter().map(|c| c + off).collect()),
        }
    }
}

/// One certificate node.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Node {
    /// Owner stones added so far (inside the claim's carrier).
    pub stones: CellSet,
    /// The cells this node's strategy may use.
    pub carrier: CellSet,
    /// A single pair to join (inside an and-node), or `None` for the claim's pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<(Cell, Cell)>,
    /// More pairs of a union goal (Noshita's union-connection, inside an and-node): the node's
    /// goal is `goal` *or* any of these; empty for a single pair (and always when `goal` is
    /// `None`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub either: Vec<(Cell, Cell)>,
    /// Conjunctive goals (condition 8): `with[i]` are further pairs that must be joined
    /// *together with* the `i`-th pair of `goal` then `either` for that disjunct to count, so
    /// the goal is the disjunction over `i` of the conjunctions `{pair_i} ∪ with[i]`; entries
    /// past `with.len()` are empty. Empty for a goal without conjunctions (and always when
    /// `goal` is `None`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<Vec<(Cell, Cell)>>,
    /// Joined, or the replies, or the sub-connections.
    pub kind: NodeKind,
}

/// A strategy for the claim's owner.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Certificate {
    /// The DAG.
    pub nodes: Vec<Node>,
    /// The owner's first move, for a semi-connection proved by moving first.
    pub first: Option<Cell>,
    /// The root node.
    pub root: NodeId,
}

/// A claim the kernel has accepted. Only [`check`] can make one.
#[derive(Clone, Debug)]
pub struct Verified {
    sub_game: SubGame,
    /// What the root's strategy joins: one of these conjunctions of pairs (each a pair of the
    /// claim, so the claim follows); the claim's pairs one by one when the root has no goal
    /// of its own.
    goal: Vec<Vec<(Cell, Cell)>>,
}

impl Verified {
    /// The sub-game whose claim holds.
    pub fn sub_game(&self) -> &SubGame {
        &self.sub_game
    }
    /// The goal the strategy joins, a disjunction of conjunctions of the claim's pairs: at
    /// least as strong as the claim (condition 8; for a certificate without conjunctions, the
    /// root's pairs one by one).
    pub fn goal(&self) -> &[Vec<(Cell, Cell)>] {
        &self.goal
    }

    /// The same claim turned by 180° (the position's stones, the carrier and the goal's
    /// pairs mapped by `(c, r) ↦ (cols − 1 − c, rows − 1 − r)`, each border to the opposite
    /// one): accepted as it stands, without a certificate of its own.
    ///
    /// Soundness: the turn is an automorphism of the board's cell graph with its four border
    /// nodes (the six neighbour offsets are closed under negation; the top row goes to the
    /// bottom row and the left column to the right one, so each border goes to the opposite
    /// border *of the same colour*). A sub-game is defined by adjacency, the cells' colours
    /// and the borders' owners alone, so the owner's winning strategy, turned move by move,
    /// wins the turned sub-game: every opponent move there is the image of one here, and a
    /// chain of owner cells joining a pair maps to a chain joining the image pair. `None`
    /// when the turned sub-game is not one (never expected).
    pub fn rotated180(&self) -> Option<Verified> {
        let g = &self.sub_game;
        let board = *g.board();
        let turn = crate::board::Transform::rotate180(&board);
        let cell = |c: Cell| turn.apply(c, &board);
        let pair = |&(a, z): &(Cell, Cell)| Some((cell(a)?, cell(z)?));
        let pos = g.position();
        let position = crate::position::Position::new(
            board,
            pos.stones(crate::board::Colour::Black).rotated180(&board),
            pos.stones(crate::board::Colour::White).rotated180(&board),
        )
        .ok()?;
        let mut claim = g.claim().clone();
        claim.pairs = claim.pairs.iter().map(pair).collect::<Option<_>>()?;
        let sub_game = SubGame::new(position, g.carrier().rotated180(&board), claim).ok()?;
        let goal = self
            .goal
            .iter()
            .map(|c| c.iter().map(pair).collect::<Option<Vec<_>>>())
            .collect::<Option<_>>()?;
        Some(Verified { sub_game, goal })
    }
}

/// Why the kernel rejected a certificate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// A node index out of range.
    #[error("node {0}: refers to missing node {1}")]
    BadNodeId(NodeId, NodeId),
    /// Condition 1.
    #[error("node {0}: its stones and carrier overlap, or leave the claim's carrier")]
    BadCells(NodeId),
    /// Condition 2.
    #[error("node {0}: claims a pair is joined, but none is")]
    NotJoined(NodeId),
    /// Condition 3, no options.
    #[error("node {0}: an or-node without any reply")]
    NoReplies(NodeId),
    /// Condition 3, reply outside the carrier.
    #[error("node {0}: reply {1:?} is not an empty carrier cell of the node")]
    ReplyOutside(NodeId, Cell),
    /// Condition 3, next node's stones.
    #[error("node {0}: after reply {1:?}, the next node assumes stones the owner does not hold")]
    NextStones(NodeId, Cell),
    /// Condition 3, next node's carrier.
    #[error("node {0}: after reply {1:?}, the next node's carrier is not inside this carrier minus the reply")]
    NextCarrier(NodeId, Cell),
    /// Condition 3, an intrusion with no answer.
    #[error("node {0}: the opponent's move {1:?} has no answer")]
    Unanswered(NodeId, Cell),
    /// Condition 5.
    #[error("node {0}: a goal end is not an owner cell")]
    GoalNotOwned(NodeId),
    /// Condition 3, goals.
    #[error("node {0}: after reply {1:?}, the next node has another goal")]
    NextGoal(NodeId, Cell),
    /// Condition 4.
    #[error("node {0}: and-node: {1}")]
    BadAnd(NodeId, &'static str),
    /// Root conditions.
    #[error("the root does not match the claim: {0}")]
    BadRoot(&'static str),
    /// Condition 8: more conjunction lists than disjuncts, or a conjunction too long.
    #[error("node {0}: a conjunctive goal with more conjunctions than pairs, or one of {MAX_CONJUNCT} pairs or more")]
    BadConjunction(NodeId),
    /// Condition 7: a lemma leaf whose lemma does not state the node's claim.
    #[error("node {0}: lemma leaf: {1}")]
    BadLemma(NodeId, &'static str),
}

/// True when some pair is joined by `owned` (a flood fill over board adjacency).
pub fn joined(game: &SubGame, pairs: &[(Cell, Cell)], owned: &CellSet) -> bool {
    let board = game.board();
    pairs.iter().any(|&(a, b)| {
        let mut seen = CellSet::single(a);
        let mut stack = vec![a];
        while let Some(x) = stack.pop() {
            if x == b {
                return true;
            }
            for y in (board.neighbours(x) & *owned).iter() {
                if seen.insert(y) {
                    stack.push(y);
                }
            }
        }
        false
    })
}

/// Condition 4's chain: the goals `ends` of an and-node's children, in order, lead from one
/// end of a pair of `pairs` to the other, consecutive links meeting in one component of
/// `owned` (the node's owner cells).
pub fn chained(
    game: &SubGame,
    pairs: &[(Cell, Cell)],
    ends: &[(Cell, Cell)],
    owned: &CellSet,
) -> bool {
    let meet = |x: Cell, y: Cell| joined(game, &[(x, y)], owned);
    !ends.is_empty()
        && ends.windows(2).all(|w| meet(w[0].1, w[1].0))
        && pairs.iter().any(|&(a, z)| {
            let (s, e) = (ends[0].0, ends[ends.len() - 1].1);
            (meet(a, s) && meet(e, z)) || (meet(z, s) && meet(e, a))
        })
}

/// The most choices of one pair per child that a union-AND node may need (condition 6).
pub const MAX_CHOICES: usize = 4096;

/// The most pairs in one conjunction of a goal (condition 8).
pub const MAX_CONJUNCT: usize = 8;

/// A node's own goal pairs: `goal` then `either`, then every pair of `with` (empty when `goal`
/// is `None`).
fn goal_pairs(node: &Node) -> Vec<(Cell, Cell)> {
    let mut v: Vec<(Cell, Cell)> = node
        .goal
        .into_iter()
        .chain(node.either.iter().copied())
        .collect();
    for p in node.with.iter().flatten() {
        if !v.contains(p) {
            v.push(*p);
        }
    }
    v
}

/// A node's goal as a disjunction of conjunctions (condition 8): `{pair_i} ∪ with[i]` for
/// the `i`-th pair of `goal` then `either`; `claim` one pair at a time when `goal` is `None`.
pub fn conjuncts(node: &Node, claim: &[(Cell, Cell)]) -> Vec<Vec<(Cell, Cell)>> {
    if node.goal.is_none() {
        return claim.iter().map(|&p| vec![p]).collect();
    }
    node.goal
        .into_iter()
        .chain(node.either.iter().copied())
        .enumerate()
        .map(|(i, p)| {
            let mut c = vec![p];
            c.extend(node.with.get(i).into_iter().flatten().copied());
            c
        })
        .collect()
}

/// True when every pair of some conjunction of `dnf` is joined by `owned`.
pub fn joined_all(game: &SubGame, dnf: &[Vec<(Cell, Cell)>], owned: &CellSet) -> bool {
    dnf.iter()
        .any(|c| c.iter().all(|&p| joined(game, &[p], owned)))
}

/// Condition 8's AND: for every choice of one conjunction of each child's goal in
/// `children`, the pairs of the chosen conjunctions and the groups of `owned` link both ends
/// of every pair of some conjunction of `node` (union-find over the ends). `None` when there
/// are more than [`MAX_CHOICES`] choices.
pub fn every_choice_links_all(
    game: &SubGame,
    node: &[Vec<(Cell, Cell)>],
    children: &[Vec<Vec<(Cell, Cell)>>],
    owned: &CellSet,
) -> Option<bool> {
    let mut count: usize = 1;
    for u in children {
        count = count.checked_mul(u.len()).filter(|&c| c <= MAX_CHOICES)?;
    }
    let mut ends: Vec<Cell> = Vec::new();
    for &(a, z) in node
        .iter()
        .flatten()
        .chain(children.iter().flatten().flatten())
    {
        for e in [a, z] {
            if !ends.contains(&e) {
                ends.push(e);
            }
        }
    }
    let at = |c: Cell| ends.iter().position(|&e| e == c).expect("an end");
    fn find(up: &mut [usize], mut i: usize) -> usize {
        while up[i] != i {
            i = up[i];
        }
        i
    }
    let mut base: Vec<usize> = (0..ends.len()).collect();
    for i in 0..ends.len() {
        for j in i + 1..ends.len() {
            if joined(game, &[(ends[i], ends[j])], owned) {
                let (ri, rj) = (find(&mut base, i), find(&mut base, j));
                base[ri] = rj;
            }
        }
    }
    let mut choice = vec![0usize; children.len()];
    for _ in 0..count {
        let mut up = base.clone();
        for (u, &k) in children.iter().zip(&choice) {
            for &(a, z) in &u[k] {
                let (ra, rz) = (find(&mut up, at(a)), find(&mut up, at(z)));
                up[ra] = rz;
            }
        }
        if !node.iter().any(|c| {
            c.iter()
                .all(|&(a, z)| find(&mut up, at(a)) == find(&mut up, at(z)))
        }) {
            return Some(false);
        }
        for (k, u) in choice.iter_mut().zip(children) {
            *k += 1;
            if *k < u.len() {
                break;
            }
            *k = 0;
        }
    }
    Some(true)
}

/// Condition 6: for every choice of one pair of each union in `unions`, the chosen pairs and
/// the groups of `owned` link both ends of some pair of `pairs`. `None` when there are more
/// than [`MAX_CHOICES`] choices.
pub fn every_choice_links(
    game: &SubGame,
    pairs: &[(Cell, Cell)],
    unions: &[Vec<(Cell, Cell)>],
    owned: &CellSet,
) -> Option<bool> {
    let single = |ps: &[(Cell, Cell)]| ps.iter().map(|&p| vec![p]).collect::<Vec<_>>();
    let children: Vec<Vec<Vec<(Cell, Cell)>>> = unions.iter().map(|u| single(u)).collect();
    every_choice_links_all(game, &single(pairs), &children, owned)
}

/// Checks `cert` against `game` and, if every condition holds, returns the [`Verified`] claim:
/// conditions 1–6 on every node ([`check_node`]), then the root ([`check_root`]).
pub fn check(game: &SubGame, cert: &Certificate) -> Result<Verified, KernelError> {
    check_with(game, cert, &[])
}

/// [`check`], with some nodes proved by claims the kernel accepted before (lemma leaves,
/// condition 7): `lemmas` pairs a node with its [`Verified`] claim. A node listed twice, or
/// out of range, is rejected.
pub fn check_with(
    game: &SubGame,
    cert: &Certificate,
    lemmas: &[(NodeId, &Verified)],
) -> Result<Verified, KernelError> {
    check_filled(game, cert, lemmas, &[])
}

/// [`check_with`], with some nodes proved by filled lemma leaves (condition 7b): `filled`
/// pairs a node with its [`Verified`] claim and the fills given to the owner. A node listed
/// twice (in either list), or out of range, is rejected.
pub fn check_filled(
    game: &SubGame,
    cert: &Certificate,
    lemmas: &[(NodeId, &Verified)],
    filled: &[(NodeId, &Verified, &[Fill])],
) -> Result<Verified, KernelError> {
    let base = game.owner_cells();
    let mut lemma_of: Vec<Option<(&Verified, Option<&[Fill]>)>> = vec![None; cert.nodes.len()];
    let plain = lemmas.iter().map(|&(id, v)| (id, v, None));
    let with_fills = filled.iter().map(|&(id, v, f)| (id, v, Some(f)));
    for (id, v, f) in plain.chain(with_fills) {
        let slot = lemma_of
            .get_mut(id as usize)
            .ok_or(KernelError::BadNodeId(id, id))?;
        if slot.replace((v, f)).is_some() {
            return Err(KernelError::BadLemma(id, "two lemmas for one node"));
        }
    }
    for id in 0..cert.nodes.len() as NodeId {
        check_node(game, cert, id, base, lemma_of[id as usize])?;
    }
    check_root(game, cert)?;
    let root = &cert.nodes[cert.root as usize];
    Ok(Verified {
        sub_game: game.clone(),
        goal: conjuncts(root, &game.claim().pairs),
    })
}

/// 7 and 7a: `there` has exactly `owner_stones` for `owner`, and the opponent's stones of
/// `here` except outside `carrier` and off the ends of `pairs`.
fn same_position(
    owner: Colour,
    here: &Position,
    there: &Position,
    owner_stones: CellSet,
    carrier: CellSet,
    pairs: &[(Cell, Cell)],
) -> bool {
    let (theirs_o, ours_o) = (
        there.stones(owner.opponent()),
        here.stones(owner.opponent()),
    );
    let differ = (theirs_o - ours_o) | (ours_o - theirs_o);
    there.stones(owner) == owner_stones
        && differ.is_disjoint(&carrier)
        && !pairs
            .iter()
            .any(|&(a, z)| differ.contains(a) || differ.contains(z))
}

/// The same pairs, as sets.
fn same_pairs(theirs: &[(Cell, Cell)], pairs: &[(Cell, Cell)]) -> bool {
    theirs.iter().all(|p| pairs.contains(p)) && pairs.iter().all(|p| theirs.contains(p))
}

/// Condition 7: `lemma` states exactly node `node`'s claim (`pairs`, its goal pairs) in `game`.
fn check_lemma(
    game: &SubGame,
    id: NodeId,
    node: &Node,
    pairs: &[(Cell, Cell)],
    dnf: &[Vec<(Cell, Cell)>],
    lemma: &Verified,
) -> Result<(), KernelError> {
    let bad = |why| Err(KernelError::BadLemma(id, why));
    if !matches!(&node.kind, NodeKind::And(children) if children.is_empty()) {
        return bad("a lemma leaf must be an and-node without children");
    }
    let v = &lemma.sub_game;
    let (here, there) = (game.position(), v.position());
    let owner = game.claim().owner;
    if v.board() != game.board() || v.claim().owner != owner || v.claim().owner_first {
        return bad("the lemma is for another board or player, or the owner moves first");
    }
    // 7a. The opponent's stones may differ only outside the carrier and the goal's ends.
    if !same_position(
        owner,
        here,
        there,
        here.stones(owner) | node.stones,
        node.carrier,
        pairs,
    ) {
        return bad("the lemma's position is not the node's");
    }
    if v.carrier() != node.carrier {
        return bad("the lemma's carrier is not the node's");
    }
    if !same_pairs(&v.claim().pairs, pairs) {
        return bad("the lemma's goal is not the node's");
    }
    // 8. Every conjunction the lemma may join holds all the pairs of one of the node's.
    if !lemma
        .goal
        .iter()
        .all(|l| dnf.iter().any(|c| c.iter().all(|p| l.contains(p))))
    {
        return bad("a conjunction of the lemma's goal states no conjunction of the node's");
    }
    Ok(())
}

/// `pos` with every empty cell outside `region` a stone of `owner`'s opponent (White for
/// Black's leaf).
pub fn restricted(pos: &Position, region: CellSet, owner: Colour) -> Position {
    let outside = pos.empty_cells() - region;
    let (mut black, mut white) = (pos.stones(Colour::Black), pos.stones(Colour::White));
    match owner {
        Colour::Black => white |= outside,
        Colour::White => black |= outside,
    }
    Position::new(*pos.board(), black, white).expect("filling empty cells keeps a position valid")
}

/// The union of the neighbours of the cells of `s` (borders included).
fn neighbourhood(pos: &Position, s: CellSet) -> CellSet {
    let mut n = CellSet::EMPTY;
    for c in s.iter() {
        n |= pos.board().neighbours(c);
    }
    n
}

/// The clique test for `colour`: two X-relevant neighbours of `d` that are neither the same
/// X-chain nor adjacent (chains as sets of cells), if any.
pub fn clique_violation(pos: &Position, d: CellSet, colour: Colour) -> Option<(Cell, Cell)> {
    let own = pos.owned(colour);
    let empty = pos.empty_cells();
    let around = neighbourhood(pos, d) - d;
    let mut nodes: Vec<(Cell, CellSet)> = Vec::new();
    for n in around.iter() {
        let node = if empty.contains(n) {
            CellSet::single(n)
        } else if own.contains(n) {
            pos.component(n, &own)
        } else {
            continue; // the opponent's stone or border: never on X's path
        };
        if !nodes.iter().any(|(_, s)| *s == node) {
            nodes.push((n, node));
        }
    }
    for (i, &(a, sa)) in nodes.iter().enumerate() {
        let na = neighbourhood(pos, sa);
        for &(b, sb) in &nodes[i + 1..] {
            if (na & sb).is_empty() {
                return Some((a, b));
            }
        }
    }
    None
}

/// One fill of a filled lemma leaf (condition 7b): `cells` given to the claim's owner, a dead
/// set (`captured == false`) or a pair captured by the owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fill {
    /// A captured pair (else a dead set).
    pub captured: bool,
    /// The cells the owner receives.
    pub cells: CellSet,
}

/// True when `d` (empty cells of `pos`) is dead: the clique test passes for some colour
/// (7b; the argument is in the module docs).
pub fn is_dead(pos: &Position, d: CellSet) -> bool {
    !d.is_empty()
        && d.is_subset(&pos.empty_cells())
        && [Colour::Black, Colour::White]
            .into_iter()
            .any(|x| clique_violation(pos, d, x).is_none())
}

/// True when the pair `p` (two empty cells of `pos`) is captured by `colour`: with `colour`
/// on either cell, the other one is dead (7b).
pub fn is_captured(pos: &Position, p: CellSet, colour: Colour) -> bool {
    let cells: Vec<Cell> = p.iter().collect();
    cells.len() == 2
        && p.is_subset(&pos.empty_cells())
        && [(cells[0], cells[1]), (cells[1], cells[0])]
            .into_iter()
            .all(|(a, b)| {
                let mut q = pos.clone();
                q.play(colour, b).is_ok() && is_dead(&q, CellSet::single(a))
            })
}

/// Condition 7b: `lemma` states node `node`'s claim in `game` once the fills `fills` are given
/// to the owner (see the module docs for the conditions and why they suffice).
fn check_filled_lemma(
    game: &SubGame,
    id: NodeId,
    node: &Node,
    lemma: &Verified,
    fills: &[Fill],
) -> Result<(), KernelError> {
    let bad = |why| Err(KernelError::BadLemma(id, why));
    if !matches!(&node.kind, NodeKind::And(children) if children.is_empty()) {
        return bad("a lemma leaf must be an and-node without children");
    }
    let owner = game.claim().owner;
    let board = game.board();
    let borders: Vec<Cell> = board.border_cells(owner).iter().collect();
    let pairs = &game.claim().pairs;
    let border_pair = |&(a, z): &(Cell, Cell)| {
        borders.len() == 2
            && ((a, z) == (borders[0], borders[1]) || (z, a) == (borders[0], borders[1]))
    };
    if node.goal.is_some() || pairs.len() != 1 || !border_pair(&pairs[0]) {
        return bad("fill-in is sound only for the claim between the owner's two borders");
    }
    let v = &lemma.sub_game;
    if v.board() != board || v.claim().owner != owner || v.claim().owner_first {
        return bad("the lemma is for another board or player, or the owner moves first");
    }
    let mut filled = CellSet::EMPTY;
    for f in fills {
        if f.cells.is_empty() || !f.cells.is_disjoint(&filled) {
            return bad("a fill is empty or overlaps an earlier one");
        }
        filled |= f.cells;
    }
    if fills.is_empty() {
        return bad("a filled lemma leaf without fills");
    }
    if !filled.is_subset(&node.carrier) {
        return bad("the node's carrier does not contain the filled cells");
    }
    if !filled.is_disjoint(&v.carrier()) {
        return bad("the filled cells overlap the lemma's carrier");
    }
    if (v.carrier() | filled) != node.carrier {
        return bad("the node's carrier is not the lemma's and the filled cells");
    }
    let (here, there) = (game.position(), v.position());
    let owner_stones = here.stones(owner) | node.stones | filled;
    if !same_position(owner, here, there, owner_stones, node.carrier, pairs) {
        return bad("the lemma's position is not the node's with the fills given to the owner");
    }
    if !same_pairs(&v.claim().pairs, pairs) {
        return bad("the lemma's goal is not the node's");
    }
    if !lemma
        .goal
        .iter()
        .all(|l| pairs.iter().any(|p| l.contains(p)))
    {
        return bad("a conjunction of the lemma's goal states no pair of the node's");
    }
    // The fills, in order, in the node's position restricted to its carrier.
    let (mut black, mut white) = (here.stones(Colour::Black), here.stones(Colour::White));
    match owner {
        Colour::Black => black |= node.stones,
        Colour::White => white |= node.stones,
    }
    let Ok(at_node) = Position::new(*board, black, white) else {
        return bad("the node's stones are not empty cells");
    };
    let mut q = restricted(&at_node, node.carrier, owner);
    for f in fills {
        let ok = if f.captured {
            is_captured(&q, f.cells, owner)
        } else {
            is_dead(&q, f.cells)
        };
        if !ok {
            return bad(if f.captured {
                "a filled pair is not captured by the owner in the node's restricted position"
            } else {
                "a filled set is not dead in the node's restricted position"
            });
        }
        for c in f.cells.iter() {
            if q.play(owner, c).is_err() {
                return bad("a filled cell is not empty");
            }
        }
    }
    Ok(())
}

/// Node `id` of `cert` (referred to by node `from`).
fn node_at(cert: &Certificate, from: NodeId, id: NodeId) -> Result<&Node, KernelError> {
    cert.nodes
        .get(id as usize)
        .ok_or(KernelError::BadNodeId(from, id))
}

/// Conditions 1 (cells) and 5 (a single goal joins owner cells) on node `id`, then 7 when it
/// is a lemma leaf, else 2, 3 or 4 by its kind; `base` is the game's owner cells.
fn check_node(
    game: &SubGame,
    cert: &Certificate,
    id: NodeId,
    base: CellSet,
    lemma: Option<(&Verified, Option<&[Fill]>)>,
) -> Result<(), KernelError> {
    let node = &cert.nodes[id as usize];
    let owned = base | node.stones;
    let own_pairs;
    let pairs: &[(Cell, Cell)] = match node.goal {
        Some(_) => {
            own_pairs = goal_pairs(node);
            &own_pairs
        }
        None => &game.claim().pairs,
    };
    // 1. Cells.
    if !node.stones.is_disjoint(&node.carrier)
        || !(node.stones | node.carrier).is_subset(&game.carrier())
    {
        return Err(KernelError::BadCells(id));
    }
    // 5. Every pair of a node's own goal joins owner cells; no union without a first pair.
    if node.goal.is_none() && !(node.either.is_empty() && node.with.is_empty()) {
        return Err(KernelError::GoalNotOwned(id));
    }
    // 8. Conjunctions: one list per disjunct at most, each small.
    if node.with.len() > 1 + node.either.len() || node.with.iter().any(|w| w.len() >= MAX_CONJUNCT)
    {
        return Err(KernelError::BadConjunction(id));
    }
    let dnf = conjuncts(node, &game.claim().pairs);
    if node.goal.is_some()
        && pairs
            .iter()
            .any(|&(a, z)| !owned.contains(a) || !owned.contains(z))
    {
        return Err(KernelError::GoalNotOwned(id));
    }
    // 7. A lemma leaf.
    match lemma {
        Some((v, None)) => return check_lemma(game, id, node, pairs, &dnf, v),
        // 7b. A filled lemma leaf.
        Some((v, Some(fills))) => return check_filled_lemma(game, id, node, v, fills),
        None => {}
    }
    match &node.kind {
        // 2. Joined.
        NodeKind::Joined => {
            if !joined_all(game, &dnf, &owned) {
                return Err(KernelError::NotJoined(id));
            }
            Ok(())
        }
        NodeKind::Or(replies) => check_or(cert, id, node, replies),
        NodeKind::And(children) => check_and(game, cert, id, node, children, &dnf, &owned),
    }
}

/// Condition 3, or-node `id`: every reply is a carrier cell, its next node follows it
/// (stones, carrier, goal), and every carrier cell is answered.
fn check_or(
    cert: &Certificate,
    id: NodeId,
    node: &Node,
    replies: &[Reply],
) -> Result<(), KernelError> {
    if replies.is_empty() {
        return Err(KernelError::NoReplies(id));
    }
    let mut unanswered = node.carrier;
    for r in replies {
        let next = node_at(cert, id, r.next)?;
        if !node.carrier.contains(r.reply) {
            return Err(KernelError::ReplyOutside(id, r.reply));
        }
        let mut held = node.stones;
        held.insert(r.reply);
        if !next.stones.is_subset(&held) {
            return Err(KernelError::NextStones(id, r.reply));
        }
        let mut room = node.carrier;
        room.remove(r.reply);
        if !next.carrier.is_subset(&room) {
            return Err(KernelError::NextCarrier(id, r.reply));
        }
        if next.goal != node.goal || next.either != node.either || next.with != node.with {
            return Err(KernelError::NextGoal(id, r.reply));
        }
        let mut covered = next.carrier;
        covered.insert(r.reply);
        unanswered &= covered;
    }
    if let Some(w) = unanswered.first() {
        return Err(KernelError::Unanswered(id, w));
    }
    Ok(())
}

/// Condition 4, and-node `id`: earlier children with single goals, inside the node, with
/// disjoint carriers, whose goals chain from one end of a goal pair to the other.
fn check_and(
    game: &SubGame,
    cert: &Certificate,
    id: NodeId,
    node: &Node,
    children: &[NodeId],
    dnf: &[Vec<(Cell, Cell)>],
    owned: &CellSet,
) -> Result<(), KernelError> {
    let mut used = CellSet::EMPTY;
    let mut ends: Vec<(Cell, Cell)> = Vec::with_capacity(children.len());
    let mut unions: Vec<Vec<Vec<(Cell, Cell)>>> = Vec::with_capacity(children.len());
    for &c in children {
        if c >= id {
            return Err(KernelError::BadAnd(
                id,
                "a child does not come before the node",
            ));
        }
        let child = node_at(cert, id, c)?;
        let Some(goal) = child.goal else {
            return Err(KernelError::BadAnd(id, "a child has no single goal pair"));
        };
        if !child.stones.is_subset(&node.stones) || !child.carrier.is_subset(&node.carrier) {
            return Err(KernelError::BadAnd(
                id,
                "a child assumes stones or cells the node lacks",
            ));
        }
        if !child.carrier.is_disjoint(&used) {
            return Err(KernelError::BadAnd(id, "two children's carriers overlap"));
        }
        used |= child.carrier;
        ends.push(goal);
        unions.push(conjuncts(child, &[]));
    }
    if unions.iter().any(|u| u.len() > 1) || unions.iter().flatten().chain(dnf).any(|c| c.len() > 1)
    {
        // 6. Union AND (8: with conjunctions).
        return match every_choice_links_all(game, dnf, &unions, owned) {
            Some(true) => Ok(()),
            Some(false) => Err(KernelError::BadAnd(
                id,
                "some choice of one pair per child's union goal links no goal pair",
            )),
            None => Err(KernelError::BadAnd(
                id,
                "too many choices of pairs in the children's union goals",
            )),
        };
    }
    let pairs: Vec<(Cell, Cell)> = dnf.iter().map(|c| c[0]).collect();
    if !chained(game, &pairs, &ends, owned) {
        return Err(KernelError::BadAnd(
            id,
            "the children's goals do not chain from one end of a goal pair to the other",
        ));
    }
    Ok(())
}

/// The root: its goal is a pair of the claim, and it follows the first move (or, without one,
/// assumes no owner stones).
fn check_root(game: &SubGame, cert: &Certificate) -> Result<(), KernelError> {
    let root = node_at(cert, cert.nodes.len() as NodeId, cert.root)?;
    // Every pair of the root's own goal (its union included) is a pair of the claim.
    if !goal_pairs(root)
        .iter()
        .all(|p| game.claim().pairs.contains(p))
    {
        return Err(KernelError::BadRoot(
            "the root's goal is not a pair of the claim",
        ));
    }
    match cert.first {
        None => {
            if !root.stones.is_empty() {
                return Err(KernelError::BadRoot("the root node assumes owner stones"));
            }
        }
        Some(m) => {
            if !game.claim().owner_first {
                return Err(KernelError::BadRoot(
                    "a first move, but the opponent moves first",
                ));
            }
            if !game.carrier().contains(m) {
                return Err(KernelError::BadRoot("the first move is not a carrier cell"));
            }
            if !root.stones.is_subset(&CellSet::single(m)) || root.carrier.contains(m) {
                return Err(KernelError::BadRoot(
                    "the root node does not follow the first move",
                ));
            }
        }
    }
    Ok(())
}
