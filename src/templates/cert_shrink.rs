//! Shrinking a kernel certificate before it is stored (docs/templates.md, "Compact
//! certificates").
//!
//! A certificate composed from a lemma tree ([`super::tree_cert`]) or made by the exact
//! search answers every intrusion it met, with the carriers the search happened to use, and
//! repeats the same sub-strategy wherever it was reached again. The kernel's conditions
//! (docs/SEMANTICS.md, "Certificates") are monotone in a way that lets a smaller certificate
//! be read off the same strategy, bottom-up (children before parents):
//!
//! - a `Joined` node needs no carrier and only the stones that actually join a pair;
//! - an or-node needs only enough options for the intersection of their `{reply} ∪
//!   next.carrier` to be empty (Anshelevich's OR rule needs no more; chosen greedily, a set
//!   cover), and its carrier need only be the union of those sets, its stones only those its
//!   options' next nodes assume; an or-node whose stones already join a pair is `Joined`;
//! - an and-node's carrier need only be the union of its children's;
//! - nodes that end up identical are stored once (hash-consing: the same sub-strategy reached
//!   by several paths, a transposition, becomes one node of the DAG).
//!
//! Every rewrite keeps the kernel's local conditions (smaller carriers only make condition 3
//! easier, smaller stones only make `next.stones ⊆ stones ∪ {reply}` easier), but nothing
//! here is trusted: the caller checks the result with [`crate::kernel::check`] and keeps the
//! original when the kernel refuses it.

use crate::board::{Cell, CellSet};
use crate::claim::SubGame;
use crate::kernel::{Certificate, Node, NodeId, NodeKind, Reply};
use std::collections::HashMap;

/// True when some pair is joined by `owned` (flood fill over the board's adjacency).
fn joins(game: &SubGame, pairs: &[(Cell, Cell)], owned: CellSet) -> bool {
    let board = game.board();
    pairs.iter().any(|&(a, z)| {
        if !owned.contains(a) || !owned.contains(z) {
            return false;
        }
        let mut seen = CellSet::single(a);
        let mut stack = vec![a];
        while let Some(x) = stack.pop() {
            if x == z {
                return true;
            }
            for y in (board.neighbours(x) & owned).iter() {
                if seen.insert(y) {
                    stack.push(y);
                }
            }
        }
        false
    })
}

/// A node's identity for hash-consing (`Node` itself is not `Hash`).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    stones: CellSet,
    carrier: CellSet,
    goal: Option<(Cell, Cell)>,
    either: Vec<(Cell, Cell)>,
    /// 0 joined, 1 or (reply, next)…, 2 and (child)…
    kind: u8,
    links: Vec<(Option<Cell>, NodeId)>,
}

fn key(n: &Node) -> Key {
    let (kind, links) = match &n.kind {
        NodeKind::Joined => (0, Vec::new()),
        NodeKind::Or(rs) => (1, rs.iter().map(|r| (Some(r.reply), r.next)).collect()),
        NodeKind::And(cs) => (2, cs.iter().map(|&c| (None, c)).collect()),
    };
    Key {
        stones: n.stones,
        carrier: n.carrier,
        goal: n.goal,
        either: n.either.clone(),
        kind,
        links,
    }
}

struct Shrinker<'a> {
    game: &'a SubGame,
    input: &'a Certificate,
    out: Vec<Node>,
    /// Input node → output node.
    done: Vec<Option<NodeId>>,
    interned: HashMap<Key, NodeId>,
}

/// A smaller certificate of the same claim, read off `cert` (which should be one the kernel
/// accepts for `game`); only the nodes reachable from the root are kept, children before
/// parents. Check the result with the kernel before using it.
pub fn shrink(game: &SubGame, cert: &Certificate) -> Certificate {
    let mut s = Shrinker {
        game,
        input: cert,
        out: Vec::new(),
        done: vec![None; cert.nodes.len()],
        interned: HashMap::new(),
    };
    if (cert.root as usize) >= cert.nodes.len() {
        return cert.clone();
    }
    // Iterative post-order from the root (the DAG is acyclic when the kernel accepts it; a
    // cycle in a malformed input is cut by the `entered` marks, and the kernel then decides).
    let mut entered = vec![false; cert.nodes.len()];
    let mut stack: Vec<(NodeId, bool)> = vec![(cert.root, false)];
    while let Some((id, expanded)) = stack.pop() {
        let i = id as usize;
        if s.done[i].is_some() {
            continue;
        }
        if expanded {
            s.build(id);
            continue;
        }
        if entered[i] {
            continue;
        }
        entered[i] = true;
        stack.push((id, true));
        let kids: Vec<NodeId> = match &cert.nodes[i].kind {
            NodeKind::Joined => Vec::new(),
            NodeKind::Or(rs) => rs.iter().map(|r| r.next).collect(),
            NodeKind::And(cs) => cs.clone(),
        };
        for k in kids.into_iter().rev() {
            if (k as usize) < cert.nodes.len() && s.done[k as usize].is_none() {
                stack.push((k, false));
            }
        }
    }
    match s.done[cert.root as usize] {
        Some(root) => reachable(Certificate {
            nodes: s.out,
            first: cert.first,
            root,
        }),
        None => cert.clone(),
    }
}

/// Only the nodes reachable from the root (the options [`cover`] left out had their nodes
/// built too), in the same order, so children still come before parents.
fn reachable(cert: Certificate) -> Certificate {
    let n = cert.nodes.len();
    let mut keep = vec![false; n];
    let mut stack = vec![cert.root];
    while let Some(id) = stack.pop() {
        let i = id as usize;
        if i >= n || keep[i] {
            continue;
        }
        keep[i] = true;
        match &cert.nodes[i].kind {
            NodeKind::Joined => {}
            NodeKind::Or(rs) => stack.extend(rs.iter().map(|r| r.next)),
            NodeKind::And(cs) => stack.extend(cs.iter().copied()),
        }
    }
    let mut new_id = vec![0 as NodeId; n];
    let mut nodes = Vec::with_capacity(keep.iter().filter(|&&k| k).count());
    for (i, node) in cert.nodes.into_iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let mut node = node;
        match &mut node.kind {
            NodeKind::Joined => {}
            NodeKind::Or(rs) => rs.iter_mut().for_each(|r| r.next = new_id[r.next as usize]),
            NodeKind::And(cs) => cs.iter_mut().for_each(|c| *c = new_id[*c as usize]),
        }
        new_id[i] = nodes.len() as NodeId;
        nodes.push(node);
    }
    Certificate {
        nodes,
        first: cert.first,
        root: new_id[cert.root as usize],
    }
}

impl Shrinker<'_> {
    /// The goal's pairs: `goal` and the union's `either`, or the claim's.
    fn pairs(&self, goal: Option<(Cell, Cell)>, either: &[(Cell, Cell)]) -> Vec<(Cell, Cell)> {
        match goal {
            Some(p) => std::iter::once(p).chain(either.iter().copied()).collect(),
            None => self.game.claim().pairs.clone(),
        }
    }

    fn intern(&mut self, n: Node) -> NodeId {
        let k = key(&n);
        if let Some(&id) = self.interned.get(&k) {
            return id;
        }
        self.out.push(n);
        let id = (self.out.len() - 1) as NodeId;
        self.interned.insert(k, id);
        id
    }

    /// A `Joined` node with the fewest stones (greedy: drop each stone that is not needed).
    fn joined(
        &mut self,
        stones: CellSet,
        goal: Option<(Cell, Cell)>,
        either: Vec<(Cell, Cell)>,
    ) -> NodeId {
        let base = self.game.owner_cells();
        let pairs = self.pairs(goal, &either);
        let mut kept = stones;
        for c in stones.iter() {
            let mut without = kept;
            without.remove(c);
            if joins(self.game, &pairs, base | without) {
                kept = without;
            }
        }
        self.intern(Node {
            stones: kept,
            carrier: CellSet::EMPTY,
            goal,
            either,
            with: Vec::new(),
            kind: NodeKind::Joined,
        })
    }

    fn mapped(&self, id: NodeId) -> Option<NodeId> {
        self.done.get(id as usize).copied().flatten()
    }

    /// Builds the output node of input node `id` (its children are built).
    fn build(&mut self, id: NodeId) {
        let node = &self.input.nodes[id as usize];
        let (stones, goal, either) = (node.stones, node.goal, node.either.clone());
        let new = match &node.kind {
            NodeKind::Joined => self.joined(stones, goal, either),
            NodeKind::And(cs) => {
                let kids: Option<Vec<NodeId>> = cs.iter().map(|&c| self.mapped(c)).collect();
                match kids {
                    Some(kids) => {
                        let carrier = kids
                            .iter()
                            .fold(CellSet::EMPTY, |a, &k| a | self.out[k as usize].carrier);
                        self.intern(Node {
                            stones,
                            carrier,
                            goal,
                            either,
                            with: Vec::new(),
                            kind: NodeKind::And(kids),
                        })
                    }
                    // A dangling child: copy nothing, let the kernel refuse the input.
                    None => return,
                }
            }
            NodeKind::Or(rs) => {
                if joins(
                    self.game,
                    &self.pairs(goal, &either),
                    self.game.owner_cells() | stones,
                ) {
                    self.joined(stones, goal, either)
                } else {
                    let mut opts: Vec<(Reply, CellSet)> = Vec::with_capacity(rs.len());
                    for r in rs {
                        let Some(next) = self.mapped(r.next) else {
                            return;
                        };
                        let mut covered = self.out[next as usize].carrier;
                        covered.insert(r.reply);
                        let reply = Reply {
                            reply: r.reply,
                            next,
                        };
                        if !opts.iter().any(|(o, _)| *o == reply) {
                            opts.push((reply, covered));
                        }
                    }
                    let chosen = cover(&opts);
                    let mut carrier = CellSet::EMPTY;
                    let mut need = CellSet::EMPTY;
                    let mut replies = Vec::with_capacity(chosen.len());
                    for &k in &chosen {
                        let (r, covered) = opts[k];
                        carrier |= covered;
                        let mut s = self.out[r.next as usize].stones;
                        s.remove(r.reply);
                        need |= s;
                        replies.push(r);
                    }
                    self.intern(Node {
                        stones: need & stones,
                        carrier,
                        goal,
                        either,
                        with: Vec::new(),
                        kind: NodeKind::Or(replies),
                    })
                }
            }
        };
        self.done[id as usize] = Some(new);
    }
}

/// Options whose covered sets have an empty intersection, few of them (greedy: each step
/// takes the option that leaves the smallest intersection, ties to the smaller set); all of
/// them when the greedy choice gets stuck.
fn cover(opts: &[(Reply, CellSet)]) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::new();
    let mut cur: Option<CellSet> = None;
    loop {
        if cur.is_some_and(|c| c.is_empty()) {
            return chosen;
        }
        let best = (0..opts.len())
            .filter(|k| !chosen.contains(k))
            .min_by_key(|&k| {
                let c = opts[k].1;
                let left = cur.map_or(c, |x| x & c);
                (left.len(), c.len())
            });
        match best {
            Some(k) => {
                let c = opts[k].1;
                let next = cur.map_or(c, |x| x & c);
                if cur == Some(next) {
                    // No progress: the options cannot be thinned this way.
                    return (0..opts.len()).collect();
                }
                cur = Some(next);
                chosen.push(k);
            }
            None => return (0..opts.len()).collect(),
        }
    }
}
