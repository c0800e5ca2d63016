//! Fast local tests on one board, for the generator: the neighbourhood-clique test of a dead
//! set (the same criterion as `trusted::fill`, on bitsets), and the exact local search of a
//! captured set's strategy. The trusted checker re-checks whatever these find.

use crate::board::{Board, Border, Cell, CellSet, Colour};
use std::collections::BTreeMap;

/// One board's neighbour table.
#[derive(Clone, Debug)]
pub struct Local {
    board: Board,
    nbrs: Vec<CellSet>,
}

/// The neighbours of every cell and border of `board`, indexed by [`Cell::index`] (shared
/// with `dfpn::inferior`'s geometry).
pub fn neighbour_table(board: &Board) -> Vec<CellSet> {
    let all = [Border::Top, Border::Bottom, Border::Left, Border::Right];
    let len = all
        .iter()
        .map(|&b| Cell::border(b).index() + 1)
        .max()
        .unwrap_or(0);
    let mut nbrs = vec![CellSet::EMPTY; len];
    for c in board
        .cells()
        .iter()
        .chain(all.iter().map(|&b| Cell::border(b)))
    {
        nbrs[c.index()] = board.neighbours(c);
    }
    nbrs
}

/// The component of `c` within `cells` by the neighbour table `nbrs` (flood fill).
#[inline]
pub fn flood(nbrs: &[CellSet], c: Cell, cells: CellSet) -> CellSet {
    let mut seen = CellSet::single(c);
    let mut frontier = seen;
    while !frontier.is_empty() {
        let mut next = CellSet::EMPTY;
        for x in frontier.iter() {
            next |= nbrs[x.index()];
        }
        frontier = (next & cells) - seen;
        seen |= frontier;
    }
    seen
}

impl Local {
    /// The table of `board`.
    pub fn new(board: Board) -> Local {
        Local {
            nbrs: neighbour_table(&board),
            board,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The neighbours of a cell or border.
    #[inline]
    pub fn nbrs(&self, c: Cell) -> CellSet {
        self.nbrs[c.index()]
    }

    /// The union of the neighbours of `s`.
    pub fn ring(&self, s: CellSet) -> CellSet {
        let mut n = CellSet::EMPTY;
        for c in s.iter() {
            n |= self.nbrs(c);
        }
        n - s
    }

    fn component(&self, c: Cell, cells: CellSet) -> CellSet {
        flood(&self.nbrs, c, cells)
    }

    /// True when the `x`-relevant neighbours of the empty set `d` (empty cells and x's chains,
    /// borders included) are pairwise adjacent or one chain (`trusted::fill`).
    pub fn clique(&self, black: CellSet, white: CellSet, d: CellSet, x: Colour) -> bool {
        let own = match x {
            Colour::Black => black | self.board.border_cells(Colour::Black),
            Colour::White => white | self.board.border_cells(Colour::White),
        };
        let stones = black | white;
        let mut nodes: Vec<CellSet> = Vec::new();
        for n in self.ring(d).iter() {
            let node = if own.contains(n) {
                self.component(n, own)
            } else if n.is_border() || stones.contains(n) {
                continue;
            } else {
                CellSet::single(n)
            };
            if !nodes.contains(&node) {
                nodes.push(node);
            }
        }
        for (i, a) in nodes.iter().enumerate() {
            let na = self.ring(*a);
            if nodes[i + 1..].iter().any(|b| (na & *b).is_empty()) {
                return false;
            }
        }
        true
    }

    /// True when the empty set `d` is dead by the clique test of either colour.
    pub fn dead(&self, black: CellSet, white: CellSet, d: CellSet) -> bool {
        self.clique(black, white, d, Colour::Black) || self.clique(black, white, d, Colour::White)
    }

    /// The end of a captured set's strategy: the opponent's cells `d` are dead as a set, or
    /// each on its own with the others empty (then flipping them one at a time keeps the
    /// winner).
    pub fn leaf_dead(&self, black: CellSet, white: CellSet, d: CellSet) -> bool {
        d.is_empty()
            || self.dead(black, white, d)
            || d.iter()
                .all(|c| self.dead(black, white, CellSet::single(c)))
    }

    /// The capturing strategy of `p` for the empty set `set` (file order) with `black`,
    /// `white` stones, if one exists: the reply to each sequence of the opponent's moves
    /// (see [`super::Pattern::replies`]). Exhaustive over every order of the opponent's moves.
    pub fn capture(
        &self,
        black: CellSet,
        white: CellSet,
        set: &[Cell],
        p: Colour,
    ) -> Option<BTreeMap<String, usize>> {
        let mut out = BTreeMap::new();
        let all: Vec<usize> = (0..set.len()).collect();
        let ok = self.capture_rec(
            black,
            white,
            set,
            p,
            &all,
            CellSet::EMPTY,
            &mut Vec::new(),
            &mut out,
        );
        ok.then_some(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn capture_rec(
        &self,
        black: CellSet,
        white: CellSet,
        set: &[Cell],
        p: Colour,
        rem: &[usize],
        q_cells: CellSet,
        hist: &mut Vec<usize>,
        out: &mut BTreeMap<String, usize>,
    ) -> bool {
        if rem.is_empty() {
            return self.leaf_dead(black, white, q_cells);
        }
        for &q in rem {
            let rest: Vec<usize> = rem.iter().copied().filter(|&i| i != q).collect();
            let mut qc = q_cells;
            qc.insert(set[q]);
            hist.push(q);
            let ok = if rest.is_empty() {
                self.leaf_dead(black, white, qc)
            } else {
                let mut found = false;
                for &r in &rest {
                    let rest2: Vec<usize> = rest.iter().copied().filter(|&i| i != r).collect();
                    let (mut b, mut w) = (black, white);
                    match p {
                        Colour::Black => b.insert(set[r]),
                        Colour::White => w.insert(set[r]),
                    };
                    let mark = out.len();
                    let keys: Vec<String> = out.keys().cloned().collect();
                    if self.capture_rec(b, w, set, p, &rest2, qc, hist, out) {
                        out.insert(key(hist), r);
                        found = true;
                        break;
                    }
                    // Undo what the failed branch wrote.
                    if out.len() != mark {
                        out.retain(|k, _| keys.contains(k));
                    }
                }
                found
            };
            hist.pop();
            if !ok {
                return false;
            }
        }
        true
    }
}

/// The key of a sequence of the opponent's moves.
pub fn key(hist: &[usize]) -> String {
    hist.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(".")
}
