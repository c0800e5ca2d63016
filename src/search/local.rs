//! The local graph of a sub-game: carrier cells renumbered 0..n (n ≤ 128) so that sets of
//! them are single `u128` words, and the owner's fixed cells (stones of the position, its
//! borders, empty endpoints) contracted into at most 64 groups.

use crate::board::{Cell, CellSet};
use crate::claim::{ClaimError, SubGame};

/// A set of local cells.
pub type Set = u128;

/// Largest carrier the exact search handles.
pub const MAX_CARRIER: usize = 128;
const MAX_GROUPS: usize = 64;

/// Iterates the members of a local set.
#[inline]
pub fn bits(mut s: Set) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if s == 0 {
            None
        } else {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            Some(i)
        }
    })
}

/// The sub-game as a small graph.
#[derive(Clone, Debug)]
pub struct Local {
    /// Number of carrier cells.
    pub n: usize,
    /// Local index → board cell.
    pub cells: Vec<Cell>,
    /// Carrier-cell adjacency.
    pub adj: Vec<Set>,
    /// For each carrier cell, the owner groups it touches.
    pub cell_groups: Vec<u64>,
    /// For each group, the carrier cells it touches.
    pub group_adj: Vec<Set>,
    /// Goal pairs as group indices.
    pub pairs: Vec<(u8, u8)>,
    /// Every carrier cell.
    pub all: Set,
    /// True when a pair is joined before any move.
    pub joined_at_start: bool,
}

impl Local {
    /// Builds the local graph of a sub-game.
    pub fn new(game: &SubGame) -> Result<Local, ClaimError> {
        let board = game.board();
        let carrier = game.carrier();
        let cells: Vec<Cell> = carrier.iter().collect();
        let n = cells.len();
        if n > MAX_CARRIER {
            return Err(ClaimError::CarrierTooLarge(n, MAX_CARRIER));
        }
        let mut index = vec![usize::MAX; 400];
        for (i, c) in cells.iter().enumerate() {
            index[c.index()] = i;
        }
        let owned = game.owner_cells();
        // Groups: components of owned cells that touch the carrier or hold an endpoint.
        let endpoints = game.claim().endpoints();
        let mut group_of = vec![usize::MAX; 400];
        let mut group_sets: Vec<CellSet> = Vec::new();
        let mut touching = CellSet::EMPTY;
        for c in cells.iter() {
            touching |= board.neighbours(*c) & owned;
        }
        for start in (touching | endpoints).iter() {
            if group_of[start.index()] != usize::MAX {
                continue;
            }
            let comp = game.position().component(start, &owned);
            let g = group_sets.len();
            if g >= MAX_GROUPS {
                return Err(ClaimError::CarrierTooLarge(n, MAX_CARRIER));
            }
            for x in comp.iter() {
                group_of[x.index()] = g;
            }
            group_sets.push(comp);
        }
        let mut adj = vec![0; n];
        let mut cell_groups = vec![0u64; n];
        let mut group_adj = vec![0; group_sets.len()];
        for (i, c) in cells.iter().enumerate() {
            for y in board.neighbours(*c).iter() {
                if index[y.index()] != usize::MAX {
                    adj[i] |= 1 << index[y.index()];
                } else if group_of[y.index()] != usize::MAX {
                    let g = group_of[y.index()];
                    cell_groups[i] |= 1 << g;
                    group_adj[g] |= 1 << i;
                }
            }
        }
        let pairs: Vec<(u8, u8)> = game
            .claim()
            .pairs
            .iter()
            .map(|(a, b)| (group_of[a.index()] as u8, group_of[b.index()] as u8))
            .collect();
        let joined_at_start = pairs.iter().any(|(a, b)| a == b);
        let all = if n == 128 { u128::MAX } else { (1u128 << n) - 1 };
        Ok(Local {
            n,
            cells,
            adj,
            cell_groups,
            group_adj,
            pairs,
            all,
            joined_at_start,
        })
    }

    /// Cells and groups reachable from group `g` through owner-usable cells in `mask`.
    #[inline]
    pub fn reach(&self, g: u8, mask: Set) -> (Set, u64) {
        let mut groups: u64 = 1 << g;
        let mut cells: Set = 0;
        let mut frontier = self.group_adj[g as usize] & mask;
        while frontier != 0 {
            cells |= frontier;
            let mut next: Set = 0;
            let mut new_groups: u64 = 0;
            for i in bits(frontier) {
                next |= self.adj[i];
                new_groups |= self.cell_groups[i];
            }
            new_groups &= !groups;
            groups |= new_groups;
            let mut ng = new_groups;
            while ng != 0 {
                let h = ng.trailing_zeros() as usize;
                ng &= ng - 1;
                next |= self.group_adj[h];
            }
            frontier = next & mask & !cells;
        }
        (cells, groups)
    }

    /// True when some pair is joined using the owner cells in `mask`.
    #[inline]
    pub fn joined(&self, mask: Set) -> bool {
        self.pairs
            .iter()
            .any(|&(a, b)| a == b || self.reach(a, mask).1 >> b & 1 == 1)
    }

    /// Board cells of a local set.
    pub fn to_cells(&self, s: Set) -> CellSet {
        bits(s).map(|i| self.cells[i]).collect()
    }

    /// Local set of board cells (cells outside the carrier are ignored).
    pub fn from_cells(&self, s: &CellSet) -> Set {
        let mut out = 0;
        for (i, c) in self.cells.iter().enumerate() {
            if s.contains(*c) {
                out |= 1 << i;
            }
        }
        out
    }
}
