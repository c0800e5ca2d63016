//! Inferior cells: dead cells and captured pairs, and the fill-in they allow.
//!
//! Henderson, Arneson & Hayward, *Solving 8×8 Hex* (IJCAI 2009), §3 ("Inferior cells"):
//!
//! - An empty cell is **dead** when its colour can never change the winner. We use the
//!   neighbourhood test: for a colour P, collect the P-usable neighbours of the cell (empty
//!   cells and P's chains, borders included, opponent stones left out). If they are pairwise
//!   adjacent (at most one P chain, every empty one adjacent to every other and to that
//!   chain), every P path through the cell can short-cut it, so the cell lies on no minimal
//!   P winning path. In Hex exactly one colour wins a filled board, so a cell on no minimal
//!   Black winning path is on no minimal White one either: it is dead. The test is run for
//!   both colours (each may see a different clique).
//! - A set of empty cells is **P-captured** when P has a second-player strategy inside it that
//!   leaves each of its cells P-coloured or dead; filling it with P stones does not change the
//!   value for either player to move (§3). We *derive* captured pairs instead of typing in
//!   patterns: two adjacent empty cells {a, b} are P-captured when b is dead after a P stone
//!   on a, and a is dead after a P stone on b (P answers the opponent's move in the pair with
//!   the other cell). Deadness is monotone (more stones never make a dead cell live), so the
//!   strategy stays valid whatever happens elsewhere.
//! - **Fill-in**: dead cells get a stone (the colour does not matter; we use the opponent of
//!   the player the position is evaluated for, so a fill never creates spurious own
//!   connections), captured pairs get P stones, repeated until nothing changes.
//!
//! Every fill preserves the game value, so the solver may search the filled position instead
//! of the original one; a proof exported from the solver is written for the original
//! position and re-proved by the checker (see [`super::emit`]).

use crate::board::{Board, Cell, CellSet, Colour};
use crate::position::Position;

/// Which inferior-cell rules are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InferiorRules {
    /// Fill dead cells.
    pub dead: bool,
    /// Fill captured pairs.
    pub captured: bool,
}

impl InferiorRules {
    /// Everything on.
    pub const ALL: InferiorRules = InferiorRules {
        dead: true,
        captured: true,
    };
    /// Everything off.
    pub const NONE: InferiorRules = InferiorRules {
        dead: false,
        captured: false,
    };
}

/// What a fill-in did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filled {
    /// Dead cells filled.
    pub dead: CellSet,
    /// Black-captured cells filled black.
    pub black_captured: CellSet,
    /// White-captured cells filled white.
    pub white_captured: CellSet,
}

/// True when the `colour`-usable neighbours of empty `cell` form a clique (see the module
/// docs), in `pos` with an extra `colour` stone on `extra` (if any).
fn clique_for(
    board: &Board,
    pos: &Position,
    colour: Colour,
    cell: Cell,
    extra: Option<Cell>,
) -> bool {
    let mut owned = pos.owned(colour);
    let mut empty = pos.empty_cells();
    if let Some(x) = extra {
        owned.insert(x);
        empty.remove(x);
    }
    empty.remove(cell);
    let nb = board.neighbours(cell);
    let own_nb = nb & owned;
    let empty_nb = nb & empty;
    // At most one chain of `colour` among the neighbours.
    let mut chain = CellSet::EMPTY;
    if let Some(first) = own_nb.first() {
        chain = pos_component(board, first, &owned);
        if !(own_nb - chain).is_empty() {
            return false;
        }
    }
    let cells: Vec<Cell> = empty_nb.iter().collect();
    for (i, &a) in cells.iter().enumerate() {
        let na = board.neighbours(a);
        if !chain.is_empty() && (na & chain).is_empty() {
            return false;
        }
        for &b in &cells[i + 1..] {
            if !na.contains(b) {
                return false;
            }
        }
    }
    true
}

/// Flood fill of `c` within `cells`.
fn pos_component(board: &Board, c: Cell, cells: &CellSet) -> CellSet {
    let mut seen = CellSet::single(c);
    let mut frontier = seen;
    while !frontier.is_empty() {
        let mut next = CellSet::EMPTY;
        for x in frontier.iter() {
            next |= board.neighbours(x) & *cells;
        }
        frontier = next - seen;
        seen |= next;
    }
    seen
}

/// True when empty `cell` is dead in `pos` (with an extra `extra.1` stone on `extra.0`).
pub fn is_dead_with(pos: &Position, cell: Cell, extra: Option<(Cell, Colour)>) -> bool {
    let board = *pos.board();
    [Colour::Black, Colour::White].into_iter().any(|colour| {
        // An extra stone of the other colour only removes usable cells: treat it as an
        // opponent stone by leaving it out of both the empty and the owned sets.
        match extra {
            Some((x, c)) if c == colour => clique_for(&board, pos, colour, cell, Some(x)),
            Some((x, _)) => {
                let mut p = pos.clone();
                let _ = p.play(colour.opponent(), x);
                clique_for(&board, &p, colour, cell, None)
            }
            None => clique_for(&board, pos, colour, cell, None),
        }
    })
}

/// True when empty `cell` is dead in `pos`.
pub fn is_dead(pos: &Position, cell: Cell) -> bool {
    is_dead_with(pos, cell, None)
}

/// True when the adjacent empty cells `a`, `b` are `colour`-captured (module docs).
pub fn is_captured_pair(pos: &Position, colour: Colour, a: Cell, b: Cell) -> bool {
    is_dead_with(pos, b, Some((a, colour))) && is_dead_with(pos, a, Some((b, colour)))
}

/// Fills dead cells and captured pairs until nothing changes; `for_colour` is the player
/// the position is evaluated for (dead cells get the other colour). Stops early when the
/// position is won.
pub fn fill_in(pos: &mut Position, rules: InferiorRules, for_colour: Colour) -> Filled {
    let mut filled = Filled::default();
    if !rules.dead && !rules.captured {
        return filled;
    }
    let board = *pos.board();
    loop {
        let mut changed = false;
        if rules.dead {
            for c in pos.empty_cells().iter() {
                if is_dead(pos, c) {
                    let _ = pos.play(for_colour.opponent(), c);
                    filled.dead.insert(c);
                    changed = true;
                }
            }
        }
        if rules.captured {
            'pairs: for a in pos.empty_cells().iter() {
                let nb = board.neighbours(a) & pos.empty_cells();
                for b in nb.iter() {
                    if b.index() < a.index() {
                        continue;
                    }
                    for colour in [Colour::Black, Colour::White] {
                        if is_captured_pair(pos, colour, a, b) {
                            let _ = pos.play(colour, a);
                            let _ = pos.play(colour, b);
                            let set = match colour {
                                Colour::Black => &mut filled.black_captured,
                                Colour::White => &mut filled.white_captured,
                            };
                            set.insert(a);
                            set.insert(b);
                            changed = true;
                            continue 'pairs;
                        }
                    }
                }
            }
        }
        if !changed || pos.winner().is_some() {
            return filled;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;

    fn pos(n: u32, b: &str, w: &str) -> Position {
        Position::from_names(Board::square(n).unwrap(), b, w, Notation::Letters).unwrap()
    }

    fn cell(p: &Position, s: &str) -> Cell {
        p.board().parse_cell(s, Notation::Letters).unwrap()
    }

    #[test]
    fn surrounded_cell_is_dead() {
        // c3 on 5x5: White holds b3, c2, d2, d3 and Black the chain b4-c4, so Black's usable
        // neighbours are that one chain: a clique, c3 is dead.
        let p = pos(5, "b4 c4", "b3 c2 d2 d3");
        assert!(is_dead(&p, cell(&p, "c3")));
        // The empty board has no dead cell.
        let e = pos(5, "", "");
        for c in e.empty_cells().iter() {
            assert!(!is_dead(&e, c), "{c:?}");
        }
    }

    #[test]
    fn fill_in_keeps_winner_on_small_boards() {
        // Exhaustive cross-check on 3x3: the fill-in never changes who wins with perfect play.
        use crate::solver::tests_support::minimax;
        let b = Board::square(3).unwrap();
        let cells: Vec<Cell> = b.cells().iter().collect();
        // Every position with up to 4 stones reached by alternating play is too many; take
        // all positions with 2 black and 2 white stones.
        let mut checked = 0;
        for i in 0..cells.len() {
            for j in i + 1..cells.len() {
                for k in 0..cells.len() {
                    for l in k + 1..cells.len() {
                        let set: CellSet = [cells[i], cells[j]].into_iter().collect();
                        let wset: CellSet = [cells[k], cells[l]].into_iter().collect();
                        if !(set & wset).is_empty() {
                            continue;
                        }
                        let p = Position::new(b, set, wset).unwrap();
                        if p.winner().is_some() {
                            continue;
                        }
                        for to_move in [Colour::Black, Colour::White] {
                            let v = minimax(&p, to_move);
                            let mut f = p.clone();
                            fill_in(&mut f, InferiorRules::ALL, to_move);
                            assert_eq!(minimax(&f, to_move), v, "{p:?} {to_move}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 100);
    }
}
