//! Checking a lemma's AB guarantee (Noshita 2005, §4; docs/SEMANTICS.md "AB-property"):
//! the owner has one strategy for the lemma's sub-game (opponent first) that wins its claim
//! and answers the opponent's A, while B is empty, with B. Exact minimax over the carrier,
//! with a memo; carriers larger than [`MAX_CELLS`], and games that need more than
//! [`MAX_POSITIONS`] memoised positions, are left undecided (a budget, not a guess).
//!
//! The games run on bit masks: a position is the owner's and the opponent's carrier cells
//! (one `u64` memo key), "is a pair joined" is a flood over a contracted graph (the carrier
//! cells plus one node per component of the owner's fixed cells, [`Joiner`]), positions that
//! are joined or that the owner cannot join even with every empty cell are decided without a
//! memo entry, and the moves that last refuted or answered at the same depth are tried first
//! (move ordering only: every move is still searched until one refutes or answers).

use crate::board::{Cell, CellSet};
use crate::claim::Claim;
use crate::claim::SubGame;
use crate::local::{decide, Budget, Verdict};
use crate::position::Position;
use crate::trusted::GameWon;
use hashbrown::HashMap;

/// Largest carrier searched (the games' positions are bit masks: the assisted game adds A and
/// B, so 30 bits of a `u32`; the killer table holds 34 depths). Raised from 22 for Noshita's
/// Fig. 39 lower right (24 cells).
pub const MAX_CELLS: usize = 28;

/// The budget: most positions memoised in one game (about 50 bytes each with the hash map's
/// overhead: 8 million is ~430 MB). Positions with A or B taken are not explored here but
/// handed to the exact search ([`Plain`], at most [`LEAF_NODES`] nodes each), so the memo
/// holds the positions with A and B both empty (and one entry per hand-over): Fig. 39's
/// lower-right guarantee (24 cells) ran out of this budget before the hand-over and needs a few
/// hundred positions with it; the assisted game of Fig. 39's upper left (28 cells) ran out of
/// it (50 s CPU) before its positions with A or B taken were handed over too, and is now
/// refuted at its root's "the opponent takes B" in about 1 s CPU.
pub const MAX_POSITIONS: usize = 8_000_000;

/// The verdict: `Some(true)` the guarantee holds, `Some(false)` it does not, `None` too large
/// or over the [`MAX_POSITIONS`] budget.
pub fn guarantee_holds(
    pos: &Position,
    carrier: CellSet,
    claim: &Claim,
    a: Cell,
    b: Cell,
) -> Option<bool> {
    guarantee_game(pos, carrier, claim, a, b, false)
}

/// The two games whose win is evidence ([`won`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbGame {
    /// [`guarantee_holds`].
    Guarantee,
    /// [`assisted_holds`].
    Assisted,
}

/// [`guarantee_holds`] or [`assisted_holds`] as evidence: `Some(Some(won))` it holds,
/// `Some(None)` it does not, `None` undecided.
pub fn won(
    game: AbGame,
    pos: &Position,
    carrier: CellSet,
    claim: &Claim,
    a: Cell,
    b: Cell,
) -> Option<Option<GameWon>> {
    let (holds, name) = match game {
        AbGame::Guarantee => (guarantee_holds(pos, carrier, claim, a, b), "AB guarantee"),
        AbGame::Assisted => (assisted_holds(pos, carrier, claim, a, b), "assisted game"),
    };
    holds.map(|h| h.then(|| GameWon::new(name)))
}

/// The guarantee as an **interface** for another area (docs/SEMANTICS.md, "Use across two
/// areas"): as [`guarantee_holds`], and moreover the opponent's A, once the opponent holds B,
/// needs no answer in this area (the opponent moves again) — the answer goes to the other
/// area, as in Noshita's "If White has occupied both A and B, Black can make an additional
/// move in the upper-left area" (2005, §4, Fig. 38). Stronger than [`guarantee_holds`].
pub fn interface_holds(
    pos: &Position,
    carrier: CellSet,
    claim: &Claim,
    a: Cell,
    b: Cell,
) -> Option<bool> {
    guarantee_game(pos, carrier, claim, a, b, true)
}

fn guarantee_game(
    pos: &Position,
    carrier: CellSet,
    claim: &Claim,
    a: Cell,
    b: Cell,
    interface: bool,
) -> Option<bool> {
    let cells: Vec<Cell> = carrier.iter().collect();
    if cells.len() > MAX_CELLS {
        return None;
    }
    let ia = cells.iter().position(|&c| c == a)?;
    let ib = cells.iter().position(|&c| c == b)?;
    let joiner = Joiner::new(
        pos,
        &cells,
        base_of(pos, claim, |e| carrier.contains(e)),
        claim,
    )?;
    let mut g = Game {
        joiner,
        full: (1u32 << cells.len()) - 1,
        ia: ia as u32,
        ib: ib as u32,
        interface,
        plain: Plain {
            pos,
            claim,
            cells: &cells,
        },
        memo: HashMap::new(),
        over_budget: false,
        killers: [u8::MAX; 34],
        replies: [u8::MAX; 32],
    };
    let v = g.win(0, 0);
    (!g.over_budget).then_some(v)
}

/// The cells the owner holds whatever happens in the sub-game: its stones, its borders, and
/// the pairs' ends that are empty and outside `inside` (as in "Sub-games", docs/SEMANTICS.md).
fn base_of(pos: &Position, claim: &Claim, inside: impl Fn(Cell) -> bool) -> CellSet {
    let owner = claim.owner;
    let mut base = pos.stones(owner) | pos.board().border_cells(owner);
    for &(x, y) in &claim.pairs {
        for e in [x, y] {
            if !inside(e) && pos.colour_at(e).is_none() {
                base.insert(e);
            }
        }
    }
    base
}

/// Most nodes of a [`Joiner`]'s graph (a `u128` mask).
const MAX_NODES: usize = 128;

/// "Is a pair joined?" by bit masks, without allocation: the game's cells are nodes
/// `0..cells.len()` (bit i of the game's masks), each connected component of the fixed owner
/// cells (`base` outside the game's cells) is one node, and a pair end that is neither gets a
/// node of its own. A pair (x, y) is joined when y is x, or y is reached from x through nodes
/// the owner holds (x itself need not be held) — `Position::component(x, owned).contains(y)`,
/// computed on the contracted graph.
struct Joiner {
    /// Neighbours of each node, as a node mask.
    nbr: Vec<u128>,
    /// The nodes the owner always holds (base components, and game cells already in `base`).
    always: u128,
    /// Each pair as (x's node, y's node), one bit each.
    pairs: Vec<(u128, u128)>,
}

impl Joiner {
    /// `None` when the contracted graph has more than [`MAX_NODES`] nodes.
    fn new(pos: &Position, cells: &[Cell], base: CellSet, claim: &Claim) -> Option<Joiner> {
        let board = pos.board();
        let mut game = CellSet::new();
        for &c in cells {
            game.insert(c);
        }
        // Node sets, as cell sets: the game's cells one by one, then the components of the rest
        // of `base` that touch a game cell or hold a pair end, then the other pair ends.
        let mut nodes: Vec<CellSet> = cells.iter().map(|&c| CellSet::single(c)).collect();
        let rest = base - game;
        let ends: Vec<Cell> = claim.pairs.iter().flat_map(|&(x, y)| [x, y]).collect();
        let mut left = rest;
        while let Some(c) = left.first() {
            let comp = pos.component(c, &rest);
            left -= comp;
            let touches = comp
                .iter()
                .any(|k| !(board.neighbours(k) & game).is_empty());
            if touches || ends.iter().any(|&e| comp.contains(e)) {
                nodes.push(comp);
            }
        }
        for &e in &ends {
            if !nodes.iter().any(|s| s.contains(e)) {
                nodes.push(CellSet::single(e));
            }
        }
        if nodes.len() > MAX_NODES {
            return None;
        }
        let around: Vec<CellSet> = nodes
            .iter()
            .map(|s| {
                let mut r = CellSet::new();
                for k in s.iter() {
                    r |= board.neighbours(k);
                }
                r
            })
            .collect();
        let nbr = (0..nodes.len())
            .map(|i| {
                (0..nodes.len())
                    .filter(|&j| j != i && !(around[i] & nodes[j]).is_empty())
                    .fold(0u128, |m, j| m | 1 << j)
            })
            .collect();
        let mut always = 0u128;
        for (i, s) in nodes.iter().enumerate() {
            if (i >= cells.len() && !(*s & rest).is_empty())
                || (i < cells.len() && base.contains(cells[i]))
            {
                always |= 1 << i;
            }
        }
        let node_of = |e: Cell| 1u128 << nodes.iter().position(|s| s.contains(e)).unwrap_or(0);
        let pairs = claim
            .pairs
            .iter()
            .map(|&(x, y)| (node_of(x), node_of(y)))
            .collect();
        Some(Joiner { nbr, always, pairs })
    }

    /// Does the owner, holding the game cells of `mine`, join a pair?
    fn joined(&self, mine: u32) -> bool {
        let owned = self.always | mine as u128;
        self.pairs.iter().any(|&(x, y)| {
            if x == y {
                return true;
            }
            let (mut seen, mut frontier) = (x, x);
            while frontier != 0 {
                let mut next = 0u128;
                while frontier != 0 {
                    next |= self.nbr[frontier.trailing_zeros() as usize];
                    frontier &= frontier - 1;
                }
                next &= owned & !seen;
                if next & y != 0 {
                    return true;
                }
                seen |= next;
                frontier = next;
            }
            false
        })
    }
}

/// The memo key of a position: the owner's cells and the opponent's (at most 32 bits each).
fn key(mine: u32, theirs: u32) -> u64 {
    (mine as u64) << 32 | theirs as u64
}

struct Game<'a> {
    joiner: Joiner,
    full: u32,
    ia: u32,
    ib: u32,
    interface: bool,
    /// The ordinary game, for positions where A or B is taken.
    plain: Plain<'a>,
    memo: HashMap<u64, bool>,
    /// Set when the memo outgrew [`MAX_POSITIONS`]: every value computed since is void.
    over_budget: bool,
    /// Per depth (stones placed in the game), the move that last refuted (opponent) or
    /// answered (owner) there: tried first.
    killers: [u8; 34],
    /// Per opponent move, the owner's answer that last worked against it: tried first.
    replies: [u8; 32],
}

/// Node budget of one ordinary-game search ([`Plain::value`]); beyond it the game is undecided.
pub const LEAF_NODES: u64 = 2_000_000;

/// The ordinary game of the lemma (no guarantee): once A or B is occupied the guarantee can no
/// longer be invoked (it needs both empty), so the rest of the guarantee game *is* the lemma's
/// sub-game on the empty cells, opponent to move, and the project's exact search
/// ([`crate::local::decide`]: a win comes with a kernel-checked certificate) decides it far
/// faster than this module's plain minimax. In the interface game, when the opponent holds B
/// and A is empty, its A is a free stone it may take at any time; that game has the value of
/// the ordinary game with A the opponent's (it can take A at once; and an owner strategy for
/// that position, never playing A, wins whenever the opponent takes it). Fig. 39's lower right
/// (22 cells) needed more than 8 million positions without this, and a few hundred with it.
/// The assisted game reduces its positions with A or B taken likewise ([`Assisted::reduced`]).
struct Plain<'a> {
    pos: &'a Position,
    claim: &'a Claim,
    cells: &'a [Cell],
}

impl Plain<'_> {
    /// The ordinary game's value with the owner on `mine`, the opponent on `theirs`, the
    /// opponent to move; `None` when the search runs out of its [`LEAF_NODES`] budget,
    /// `Some(None)` when the sub-game rules reject the claim (the caller's minimax decides).
    fn value(&self, mine: u32, theirs: u32) -> Option<Option<bool>> {
        let owner = self.claim.owner;
        let mut pos = self.pos.clone();
        let mut carrier = CellSet::EMPTY;
        for (i, &c) in self.cells.iter().enumerate() {
            if mine >> i & 1 == 1 {
                if pos.play(owner, c).is_err() {
                    return Some(None);
                }
            } else if theirs >> i & 1 == 1 {
                if pos.play(owner.opponent(), c).is_err() {
                    return Some(None);
                }
            } else {
                carrier.insert(c);
            }
        }
        // A claim the sub-game rules reject (e.g. an end inside the carrier, which the games
        // of this module allow) stays with this module's minimax.
        // The games here are played opponent first, whatever the lemma's claim says.
        let claim = Claim {
            owner_first: false,
            ..self.claim.clone()
        };
        let Ok(game) = SubGame::new(pos, carrier, claim) else {
            return Some(None);
        };
        let Ok(out) = decide(&game, &Budget::nodes(LEAF_NODES)) else {
            return Some(None);
        };
        match out.verdict {
            Verdict::Holds => Some(Some(true)),
            Verdict::Fails => Some(Some(false)),
            Verdict::Undecided => None,
        }
    }
}

impl Game<'_> {
    /// Does the owner win with the opponent to move (the owner has answered every move)?
    /// Positions already joined, or lost even if the owner got every empty cell (the joined
    /// test is monotone in the owner's cells), are decided at once and not memoised; positions
    /// with A or B occupied are the ordinary game ([`Plain`]).
    fn win(&mut self, mine: u32, theirs: u32) -> bool {
        if self.joiner.joined(mine) {
            return true;
        }
        let free = self.full & !(mine | theirs);
        if free == 0 || !self.joiner.joined(mine | free) {
            return false;
        }
        if let Some(&v) = self.memo.get(&key(mine, theirs)) {
            return v;
        }
        if self.over_budget || self.memo.len() >= MAX_POSITIONS {
            // Unwind quickly; the caller discards the verdict.
            self.over_budget = true;
            return false;
        }
        let (a_free, b_free) = (free >> self.ia & 1 == 1, free >> self.ib & 1 == 1);
        let v = if a_free && b_free {
            self.win_inner(mine, theirs, free)
        } else {
            let theirs_a = self.interface && a_free && theirs >> self.ib & 1 == 1;
            let eff = if theirs_a {
                theirs | 1 << self.ia
            } else {
                theirs
            };
            match self.plain.value(mine, eff) {
                Some(Some(v)) => v,
                Some(None) => self.win_inner(mine, theirs, free),
                None => {
                    self.over_budget = true;
                    return false;
                }
            }
        };
        self.memo.insert(key(mine, theirs), v);
        v
    }

    fn win_inner(&mut self, mine: u32, theirs: u32, free: u32) -> bool {
        let d = (mine | theirs).count_ones() as usize;
        // The opponent's A first (A and B are both empty here: the owner's answer is forced,
        // so one search of the ordinary game settles it), then the last refutation at this
        // depth. Move ordering only.
        for w in Ordered::new(free, [self.ia as u8, self.killers[d]]) {
            let t2 = theirs | 1u32 << w;
            let ok = if w == self.ia && free >> self.ib & 1 == 1 {
                // The guarantee: A is answered by B, and by nothing else.
                self.win(mine | 1 << self.ib, t2)
            } else if self.interface && w == self.ia && theirs >> self.ib & 1 == 1 {
                // The interface: after the opponent's B, its A is answered elsewhere.
                self.win(mine, t2)
            } else {
                let free2 = free & !(1u32 << w);
                if free2 == 0 {
                    self.joiner.joined(mine)
                } else {
                    let mut found = false;
                    for m in Ordered::new(free2, [self.killers[d + 1], self.replies[w as usize]]) {
                        if self.win(mine | 1u32 << m, t2) {
                            self.killers[d + 1] = m as u8;
                            self.replies[w as usize] = m as u8;
                            found = true;
                            break;
                        }
                    }
                    found
                }
            };
            if !ok {
                self.killers[d] = w as u8;
                return false;
            }
        }
        true
    }
}

/// The bits of a mask, up to two preferred moves first (when they are in the mask): move
/// ordering only, the search stays exhaustive.
struct Ordered {
    first: [u32; 2],
    rest: u32,
}

impl Ordered {
    fn new(mask: u32, preferred: [u8; 2]) -> Ordered {
        let mut first = [u32::MAX; 2];
        let mut rest = mask;
        for (slot, &p) in first.iter_mut().zip(&preferred) {
            let k = p as u32;
            if k < 32 && rest >> k & 1 == 1 {
                *slot = k;
                rest &= !(1 << k);
            }
        }
        Ordered { first, rest }
    }
}

impl Iterator for Ordered {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        for slot in &mut self.first {
            if *slot != u32::MAX {
                return Some(std::mem::replace(slot, u32::MAX));
            }
        }
        if self.rest == 0 {
            return None;
        }
        let i = self.rest.trailing_zeros();
        self.rest &= self.rest - 1;
        Some(i)
    }
}

/// The value of a lemma's claim in the **assisted game** of an `assume A => B` lemma
/// (docs/SEMANTICS.md, "Use across two areas"; Noshita 2005, §4, Figs. 38–39): the carrier
/// `S` plus two interface cells A and B outside it, in the other area's carrier. The owner
/// answers in `S ∪ {A, B}`. At each of its turns the opponent either
/// - plays an empty cell of `S`, and the owner answers;
/// - plays A: if B is empty, B becomes the owner's (the other area's answer) and the opponent
///   moves again; if the opponent holds B, the owner answers here; if the owner holds B, the
///   other area answers and the opponent moves again;
/// - or makes an event of the other area, with no answer here: B becomes the opponent's, or
///   A or B becomes the owner's (the other area's own answers).
///
/// The owner wins when a pair is joined by its cells (those of "Sub-games" plus the interface
/// cells it holds); the opponent wins when `S`, A and B are all occupied and no pair is
/// joined. `owner_first`: the owner makes the first move (in `S ∪ {A, B}`). Exact minimax,
/// memoised, positions with A or B taken handed to the exact search ([`Assisted::reduced`]);
/// `None` when `|S| > MAX_CELLS` or over the [`MAX_POSITIONS`] / [`LEAF_NODES`] budgets.
pub fn assisted_holds(
    pos: &Position,
    carrier: CellSet,
    claim: &Claim,
    a: Cell,
    b: Cell,
) -> Option<bool> {
    let mut cells: Vec<Cell> = carrier.iter().collect();
    if cells.len() > MAX_CELLS || carrier.contains(a) || carrier.contains(b) || a == b {
        return None;
    }
    let n = cells.len();
    cells.push(a);
    cells.push(b);
    let base = base_of(pos, claim, |e| carrier.contains(e) || e == a || e == b);
    let joiner = Joiner::new(pos, &cells, base, claim)?;
    let mut g = Assisted {
        joiner,
        n,
        plain: Plain {
            pos,
            claim,
            cells: &cells,
        },
        memo: HashMap::new(),
        over_budget: false,
        killers: [u8::MAX; 34],
    };
    let v = if claim.owner_first {
        g.joiner.joined(0) || g.owner_moves(0, 0)
    } else {
        g.win(0, 0)
    };
    (!g.over_budget).then_some(v)
}

/// The assisted game: bits `0..n` are the carrier, bit `n` is A, bit `n + 1` is B.
struct Assisted<'a> {
    joiner: Joiner,
    n: usize,
    /// The ordinary game, for positions with A or B taken ([`Assisted::reduced`]).
    plain: Plain<'a>,
    memo: HashMap<u64, bool>,
    /// As in [`Game`]: the budget ran out and the values are void.
    over_budget: bool,
    /// Per depth, the owner's move that last won there: tried first.
    killers: [u8; 34],
}

impl Assisted<'_> {
    fn all(&self) -> u32 {
        (1u32 << (self.n + 2)) - 1
    }

    /// Does the owner win after one of its moves in `S ∪ {A, B}` (some empty cell)?
    fn owner_moves(&mut self, mine: u32, theirs: u32) -> bool {
        let free = self.all() & !(mine | theirs);
        if free == 0 {
            return self.joiner.joined(mine);
        }
        let d = (mine | theirs).count_ones() as usize;
        for m in Ordered::new(free, [self.killers[d], u8::MAX]) {
            if self.win(mine | 1u32 << m, theirs) {
                self.killers[d] = m as u8;
                return true;
            }
        }
        false
    }

    /// Does the owner win with the opponent to move? As in [`Game::win`], joined and hopeless
    /// positions are decided at once (the owner's cells only grow, from the empty ones).
    fn win(&mut self, mine: u32, theirs: u32) -> bool {
        if self.joiner.joined(mine) {
            return true;
        }
        let free = self.all() & !(mine | theirs);
        if free == 0 || !self.joiner.joined(mine | free) {
            return false;
        }
        if let Some(&v) = self.memo.get(&key(mine, theirs)) {
            return v;
        }
        if self.over_budget || self.memo.len() >= MAX_POSITIONS {
            // Unwind quickly; the caller discards the verdict.
            self.over_budget = true;
            return false;
        }
        // With A or B taken, the rest is an ordinary game ([`Assisted::reduced`]).
        let v = match self.reduced(mine, theirs) {
            Some(eff) => match self.plain.value(mine, eff) {
                Some(Some(v)) => v,
                Some(None) => self.win_inner(mine, theirs, free),
                None => {
                    self.over_budget = true;
                    return false;
                }
            },
            None => self.win_inner(mine, theirs, free),
        };
        self.memo.insert(key(mine, theirs), v);
        v
    }

    /// The ordinary game a position with A or B taken reduces to (opponent to move): the
    /// opponent's cells to use, the interface cells still empty being the ordinary game's
    /// cells. `None` while A and B are both empty (the assisted game proper), and for the
    /// opponent on A with B empty (not reachable: the opponent's A with B empty gives the owner
    /// B). The reductions, argued in docs/SEMANTICS.md ("Use across two areas", "Positions
    /// with A or B taken"):
    /// - A and B both taken: no event is left; the ordinary game on the empty cells of `S`.
    /// - the owner on B, A empty: the opponent may take A at any time with no answer (it moves
    ///   again), so A is the opponent's (it can take A at once; an owner strategy for that
    ///   position never plays A and wins whenever, or if ever, the opponent takes it).
    /// - the owner on A, B empty: likewise the opponent may take B at any time (an event with
    ///   no answer), so B is the opponent's.
    /// - the opponent on B, A empty: the opponent's A is answered like a move in `S`, so A is
    ///   an ordinary cell of the game (`S ∪ {A}`).
    ///
    /// In each case the remaining events only hand the owner an empty interface cell, and an
    /// extra owner stone never hurts (the owner plays as if the cell were empty).
    fn reduced(&self, mine: u32, theirs: u32) -> Option<u32> {
        let (a, b) = (1u32 << self.n, 1u32 << (self.n + 1));
        let taken = mine | theirs;
        match (taken & a != 0, taken & b != 0) {
            (true, true) => Some(theirs),
            (false, true) if mine & b != 0 => Some(theirs | a),
            (false, true) => Some(theirs),
            (true, false) if mine & a != 0 => Some(theirs | b),
            _ => None,
        }
    }

    fn win_inner(&mut self, mine: u32, theirs: u32, free: u32) -> bool {
        let (n, ia, ib) = (self.n, self.n, self.n + 1);
        let a_free = free >> ia & 1 == 1;
        let b_free = free >> ib & 1 == 1;
        // The opponent's options, the interface ones first (move ordering only: each leads to
        // a position with A or B taken, an ordinary game decided by one search, and a
        // refutation there ends the position without exploring the carrier's moves).
        // The opponent takes B (an event of the other area).
        if b_free && !self.win(mine, theirs | 1 << ib) {
            return false;
        }
        // The opponent's A.
        if a_free {
            let after_a = if b_free {
                self.win(mine | 1 << ib, theirs | 1 << ia)
            } else if theirs >> ib & 1 == 1 {
                self.owner_moves(mine, theirs | 1 << ia)
            } else {
                self.win(mine, theirs | 1 << ia)
            };
            if !after_a {
                return false;
            }
        }
        // Moves in the carrier, answered here.
        for w in 0..n {
            if free >> w & 1 == 1 && !self.owner_moves(mine, theirs | 1u32 << w) {
                return false;
            }
        }
        // The other area's gifts: A or B becomes the owner's.
        if a_free && !self.win(mine | 1 << ia, theirs) {
            return false;
        }
        if b_free && !self.win(mine | 1 << ib, theirs) {
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    //! The bit-mask games against a naive reference: the same rules played with
    //! `Position::component` on cell sets, a plain memo, no pruning and no move ordering.
    use super::*;
    use crate::board::{Board, Colour};
    use proptest::prelude::*;
    use rand::seq::{IndexedRandom, SliceRandom};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashMap as StdMap;

    struct Naive<'a> {
        pos: &'a Position,
        cells: Vec<Cell>,
        base: CellSet,
        pairs: Vec<(Cell, Cell)>,
        memo: StdMap<(u32, u32), bool>,
    }

    impl Naive<'_> {
        fn joined(&self, mine: u32) -> bool {
            let mut owned = self.base;
            for (i, &c) in self.cells.iter().enumerate() {
                if mine >> i & 1 == 1 {
                    owned.insert(c);
                }
            }
            self.pairs
                .iter()
                .any(|&(x, y)| self.pos.component(x, &owned).contains(y))
        }

        /// The guarantee (and interface) game, opponent to move.
        fn guarantee(&mut self, mine: u32, theirs: u32, ia: usize, ib: usize, iface: bool) -> bool {
            if let Some(&v) = self.memo.get(&(mine, theirs)) {
                return v;
            }
            let n = self.cells.len();
            let free = ((1u32 << n) - 1) & !(mine | theirs);
            let v = self.joined(mine)
                || free != 0
                    && (0..n).filter(|&w| free >> w & 1 == 1).all(|w| {
                        let t2 = theirs | 1 << w;
                        if w == ia && free >> ib & 1 == 1 {
                            self.guarantee(mine | 1 << ib, t2, ia, ib, iface)
                        } else if iface && w == ia && theirs >> ib & 1 == 1 {
                            self.guarantee(mine, t2, ia, ib, iface)
                        } else {
                            let free2 = free & !(1 << w);
                            if free2 == 0 {
                                self.joined(mine)
                            } else {
                                (0..n).any(|m| {
                                    free2 >> m & 1 == 1
                                        && self.guarantee(mine | 1 << m, t2, ia, ib, iface)
                                })
                            }
                        }
                    });
            self.memo.insert((mine, theirs), v);
            v
        }

        /// The assisted game: the owner moves somewhere in `S ∪ {A, B}`.
        fn owner_moves(&mut self, mine: u32, theirs: u32) -> bool {
            let all = (1u32 << self.cells.len()) - 1;
            let free = all & !(mine | theirs);
            if free == 0 {
                return self.joined(mine);
            }
            (0..self.cells.len())
                .any(|m| free >> m & 1 == 1 && self.assisted(mine | 1 << m, theirs))
        }

        /// The assisted game, opponent to move (A and B are the last two cells).
        fn assisted(&mut self, mine: u32, theirs: u32) -> bool {
            if let Some(&v) = self.memo.get(&(mine, theirs)) {
                return v;
            }
            let k = self.cells.len();
            let (n, ia, ib) = (k - 2, k - 2, k - 1);
            let free = ((1u32 << k) - 1) & !(mine | theirs);
            let v = if self.joined(mine) {
                true
            } else if free == 0 {
                false
            } else {
                let mut ok =
                    (0..n).all(|w| free >> w & 1 == 0 || self.owner_moves(mine, theirs | 1 << w));
                let (a_free, b_free) = (free >> ia & 1 == 1, free >> ib & 1 == 1);
                if ok && a_free {
                    let after_a = if b_free {
                        self.assisted(mine | 1 << ib, theirs | 1 << ia)
                    } else if theirs >> ib & 1 == 1 {
                        self.owner_moves(mine, theirs | 1 << ia)
                    } else {
                        self.assisted(mine, theirs | 1 << ia)
                    };
                    ok = after_a && self.assisted(mine | 1 << ia, theirs);
                }
                if ok && b_free {
                    ok = self.assisted(mine, theirs | 1 << ib)
                        && self.assisted(mine | 1 << ib, theirs);
                }
                ok
            };
            self.memo.insert((mine, theirs), v);
            v
        }
    }

    /// A random small sub-game on 4×4: carrier, stones, a claim of 1–3 pairs whose ends are
    /// borders, stones, carrier cells or empty cells outside, and two cells A, B of the carrier
    /// plus two empty cells outside it (for the assisted game).
    struct Instance {
        pos: Position,
        carrier: CellSet,
        claim: Claim,
        ab_in: (Cell, Cell),
        ab_out: Option<(Cell, Cell)>,
    }

    fn instance(seed: u64) -> Instance {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let board = Board::square(4).unwrap();
        let mut cells: Vec<Cell> = board.cells().iter().collect();
        cells.shuffle(&mut rng);
        let k = rng.random_range(3..=9);
        let carrier_cells = cells[..k].to_vec();
        let (mut black, mut white, mut empty) = (CellSet::new(), CellSet::new(), Vec::new());
        for &c in &cells[k..] {
            match rng.random_range(0..5) {
                0 => {
                    black.insert(c);
                }
                1 => {
                    white.insert(c);
                }
                _ => empty.push(c),
            }
        }
        let pos = Position::new(board, black, white).unwrap();
        let owner = if rng.random_bool(0.5) {
            Colour::Black
        } else {
            Colour::White
        };
        let mine = pos.stones(owner);
        let theirs = pos.stones(owner.opponent());
        let [b1, b2] = owner.borders();
        let [o1, _] = owner.opponent().borders();
        let end = |rng: &mut ChaCha8Rng| -> Cell {
            let pick = |rng: &mut ChaCha8Rng, v: Vec<Cell>, or: Cell| -> Cell {
                v.choose(rng).copied().unwrap_or(or)
            };
            match rng.random_range(0..10) {
                0..=2 => Cell::border(b1),
                3..=4 => Cell::border(b2),
                5..=6 => pick(rng, mine.iter().collect(), Cell::border(b1)),
                7 => pick(rng, carrier_cells.clone(), Cell::border(b2)),
                8 => pick(rng, empty.clone(), Cell::border(b1)),
                _ => {
                    if rng.random_bool(0.5) {
                        Cell::border(o1)
                    } else {
                        pick(rng, theirs.iter().collect(), Cell::border(b2))
                    }
                }
            }
        };
        let pairs = (0..rng.random_range(1..=3))
            .map(|_| (end(&mut rng), end(&mut rng)))
            .collect();
        let claim = Claim {
            owner,
            pairs,
            owner_first: rng.random_bool(0.3),
        };
        let mut carrier = CellSet::new();
        for &c in &carrier_cells {
            carrier.insert(c);
        }
        let ab_in = (carrier_cells[0], carrier_cells[1]);
        let free_ends: CellSet =
            claim
                .pairs
                .iter()
                .flat_map(|&(x, y)| [x, y])
                .fold(CellSet::new(), |mut s, e| {
                    s.insert(e);
                    s
                });
        let mut outside: Vec<Cell> = empty
            .iter()
            .copied()
            .filter(|&c| !free_ends.contains(c))
            .collect();
        // Mostly interface cells next to the carrier, where they matter (the hand-overs of
        // positions with A or B taken then decide real games).
        if rng.random_bool(0.8) {
            outside.sort_by_key(|&c| (pos.board().neighbours(c) & carrier).is_empty());
        }
        let ab_out = (outside.len() >= 2).then(|| (outside[0], outside[1]));
        Instance {
            pos,
            carrier,
            claim,
            ab_in,
            ab_out,
        }
    }

    fn naive<'a>(pos: &'a Position, cells: Vec<Cell>, base: CellSet, claim: &Claim) -> Naive<'a> {
        Naive {
            pos,
            cells,
            base,
            pairs: claim.pairs.clone(),
            memo: StdMap::new(),
        }
    }

    /// The guarantee and interface games on every instance, the assisted game on those with
    /// two interface cells outside the carrier: on at least 90% of the 6,000 instances (the
    /// seeds are random; 5,892 had them when written), so the test cannot pass by skipping it
    /// (issue 23). Failing seeds are kept in proptest-regressions/trusted/ab.txt.
    #[test]
    fn bit_mask_games_agree_with_the_naive_reference() {
        let config = ProptestConfig {
            source_file: Some(file!()),
            ..ProptestConfig::with_cases(6000)
        };
        let cases = config.cases as usize;
        let assisted = std::sync::atomic::AtomicUsize::new(0);
        let mut runner = proptest::test_runner::TestRunner::new(config);
        let result = runner.run(&any::<u64>(), |seed| {
            let t = instance(seed);
            let cells: Vec<Cell> = t.carrier.iter().collect();
            let (a, b) = t.ab_in;
            let (ia, ib) = (
                cells.iter().position(|&c| c == a).unwrap(),
                cells.iter().position(|&c| c == b).unwrap(),
            );
            let base = base_of(&t.pos, &t.claim, |e| t.carrier.contains(e));
            for iface in [false, true] {
                let want =
                    naive(&t.pos, cells.clone(), base, &t.claim).guarantee(0, 0, ia, ib, iface);
                let got = guarantee_game(&t.pos, t.carrier, &t.claim, a, b, iface);
                prop_assert_eq!(got, Some(want), "guarantee game, interface {}", iface);
            }
            if let Some((a, b)) = t.ab_out {
                let mut cells = cells.clone();
                cells.extend([a, b]);
                let base = base_of(&t.pos, &t.claim, |e| {
                    t.carrier.contains(e) || e == a || e == b
                });
                let mut g = naive(&t.pos, cells, base, &t.claim);
                let want = if t.claim.owner_first {
                    g.joined(0) || g.owner_moves(0, 0)
                } else {
                    g.assisted(0, 0)
                };
                prop_assert_eq!(
                    assisted_holds(&t.pos, t.carrier, &t.claim, a, b),
                    Some(want)
                );
                assisted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Ok(())
        });
        if let Err(e) = result {
            panic!("{e}");
        }
        let assisted = assisted.into_inner();
        eprintln!("the assisted game ran on {assisted} of {cases} instances");
        assert!(
            assisted * 10 >= cases * 9,
            "the assisted game ran on only {assisted} of {cases} instances"
        );
    }
}
