//! Checking a lemma's AB guarantee (Noshita 2005, §4; docs/SEMANTICS.md "AB-property"):
//! the owner has one strategy for the lemma's sub-game (opponent first) that wins its claim
//! and answers the opponent's A, while B is empty, with B. Exact minimax over the carrier,
//! with a memo; carriers larger than [`MAX_CELLS`] are left undecided.

use crate::board::{Cell, CellSet};
use crate::claim::Claim;
use crate::position::Position;
use std::collections::HashMap;

/// Largest carrier searched.
pub const MAX_CELLS: usize = 16;

/// The verdict: `Some(true)` the guarantee holds, `Some(false)` it does not, `None` too large.
pub fn guarantee_holds(
    pos: &Position,
    carrier: CellSet,
    claim: &Claim,
    a: Cell,
    b: Cell,
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
        memo: HashMap::new(),
    };
    Some(g.win(0, 0))
}

struct Game<'a> {
    pos: &'a Position,
    cells: Vec<Cell>,
    base: CellSet,
    pairs: Vec<(Cell, Cell)>,
    ia: usize,
    ib: usize,
    memo: HashMap<(u32, u32), bool>,
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
