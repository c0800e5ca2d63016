//! Checking a lemma's AB guarantee (Noshita 2005, §4; docs/SEMANTICS.md "AB-property"):
//! the owner has one strategy for the lemma's sub-game (opponent first) that wins its claim
//! and answers the opponent's A, while B is empty, with B. Exact minimax over the carrier,
//! with a memo; carriers larger than [`MAX_CELLS`], and games that need more than
//! [`MAX_POSITIONS`] memoised positions, are left undecided (a budget, not a guess).

use crate::board::{Cell, CellSet};
use crate::claim::Claim;
use crate::position::Position;
use hashbrown::HashMap;

/// Largest carrier searched (the games' positions are bit masks: the assisted game adds A and
/// B, so 24 bits of a `u32`).
pub const MAX_CELLS: usize = 22;

/// The budget: most positions memoised in one game (about 20 bytes each). Noshita's Fig. 37
/// lower-right guarantee (21 cells) needs about 1.9 million.
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
    let owner = claim.owner;
    let mut base = pos.stones(owner) | pos.board().border_cells(owner);
    for &(x, y) in &claim.pairs {
        for e in [x, y] {
            if !carrier.contains(e) && pos.colour_at(e).is_none() {
                base.insert(e);
            }
        }
    }
    let ia = cells.iter().position(|&c| c == a)?;
    let ib = cells.iter().position(|&c| c == b)?;
    let mut g = Game {
        pos,
        cells,
        base,
        pairs: claim.pairs.clone(),
        ia,
        ib,
        interface,
        memo: HashMap::new(),
        over_budget: false,
    };
    let v = g.win(0, 0);
    (!g.over_budget).then_some(v)
}

struct Game<'a> {
    pos: &'a Position,
    cells: Vec<Cell>,
    base: CellSet,
    pairs: Vec<(Cell, Cell)>,
    ia: usize,
    ib: usize,
    interface: bool,
    memo: HashMap<(u32, u32), bool>,
    /// Set when the memo outgrew [`MAX_POSITIONS`]: every value computed since is void.
    over_budget: bool,
}

impl Game<'_> {
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

    /// Does the owner win with the opponent to move (the owner has answered every move)?
    fn win(&mut self, mine: u32, theirs: u32) -> bool {
        if let Some(&v) = self.memo.get(&(mine, theirs)) {
            return v;
        }
        if self.over_budget || self.memo.len() >= MAX_POSITIONS {
            // Unwind quickly; the caller discards the verdict.
            self.over_budget = true;
            return false;
        }
        let v = self.win_inner(mine, theirs);
        self.memo.insert((mine, theirs), v);
        v
    }

    fn win_inner(&mut self, mine: u32, theirs: u32) -> bool {
        if self.joined(mine) {
            return true;
        }
        let n = self.cells.len();
        let full = (1u32 << n) - 1;
        let free = full & !(mine | theirs);
        if free == 0 {
            return false;
        }
        for w in 0..n {
            if free >> w & 1 == 0 {
                continue;
            }
            let t2 = theirs | 1 << w;
            let ok = if w == self.ia && free >> self.ib & 1 == 1 {
                // The guarantee: A is answered by B, and by nothing else.
                self.win(mine | 1 << self.ib, t2)
            } else if self.interface && w == self.ia && theirs >> self.ib & 1 == 1 {
                // The interface: after the opponent's B, its A is answered elsewhere.
                self.win(mine, t2)
            } else {
                let free2 = free & !(1 << w);
                if free2 == 0 {
                    self.joined(mine)
                } else {
                    (0..n).any(|m| free2 >> m & 1 == 1 && self.win(mine | 1 << m, t2))
                }
            };
            if !ok {
                return false;
            }
        }
        true
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
/// memoised; `None` when `|S| > MAX_CELLS`.
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
    let owner = claim.owner;
    let mut base = pos.stones(owner) | pos.board().border_cells(owner);
    for &(x, y) in &claim.pairs {
        for e in [x, y] {
            if !carrier.contains(e) && e != a && e != b && pos.colour_at(e).is_none() {
                base.insert(e);
            }
        }
    }
    let mut g = Assisted {
        pos,
        cells,
        n,
        base,
        pairs: claim.pairs.clone(),
        memo: HashMap::new(),
        over_budget: false,
    };
    let v = if claim.owner_first {
        g.joined(0) || g.owner_moves(0, 0)
    } else {
        g.win(0, 0)
    };
    (!g.over_budget).then_some(v)
}

/// The assisted game: bits `0..n` are the carrier, bit `n` is A, bit `n + 1` is B.
struct Assisted<'a> {
    pos: &'a Position,
    cells: Vec<Cell>,
    n: usize,
    base: CellSet,
    pairs: Vec<(Cell, Cell)>,
    memo: HashMap<(u32, u32), bool>,
    /// As in [`Game`]: the budget ran out and the values are void.
    over_budget: bool,
}

impl Assisted<'_> {
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

    /// Does the owner win after one of its moves in `S ∪ {A, B}` (some empty cell)?
    fn owner_moves(&mut self, mine: u32, theirs: u32) -> bool {
        let all = (1u32 << (self.n + 2)) - 1;
        let free = all & !(mine | theirs);
        if free == 0 {
            return self.joined(mine);
        }
        (0..self.n + 2).any(|m| free >> m & 1 == 1 && self.win(mine | 1 << m, theirs))
    }

    /// Does the owner win with the opponent to move?
    fn win(&mut self, mine: u32, theirs: u32) -> bool {
        if let Some(&v) = self.memo.get(&(mine, theirs)) {
            return v;
        }
        if self.over_budget || self.memo.len() >= MAX_POSITIONS {
            // Unwind quickly; the caller discards the verdict.
            self.over_budget = true;
            return false;
        }
        let v = self.win_inner(mine, theirs);
        self.memo.insert((mine, theirs), v);
        v
    }

    fn win_inner(&mut self, mine: u32, theirs: u32) -> bool {
        if self.joined(mine) {
            return true;
        }
        let (n, ia, ib) = (self.n, self.n, self.n + 1);
        let all = (1u32 << (n + 2)) - 1;
        let free = all & !(mine | theirs);
        if free == 0 {
            return false;
        }
        // Moves in the carrier, answered here.
        for w in 0..n {
            if free >> w & 1 == 1 && !self.owner_moves(mine, theirs | 1 << w) {
                return false;
            }
        }
        // The opponent's A, and the other area's events.
        let a_free = free >> ia & 1 == 1;
        let b_free = free >> ib & 1 == 1;
        if a_free {
            let after_a = if b_free {
                self.win(mine | 1 << ib, theirs | 1 << ia)
            } else if theirs >> ib & 1 == 1 {
                self.owner_moves(mine, theirs | 1 << ia)
            } else {
                self.win(mine, theirs | 1 << ia)
            };
            if !after_a || !self.win(mine | 1 << ia, theirs) {
                return false;
            }
        }
        if b_free && (!self.win(mine, theirs | 1 << ib) || !self.win(mine | 1 << ib, theirs)) {
            return false;
        }
        true
    }
}
