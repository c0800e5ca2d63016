//! The AND rule over the cells an empty midpoint captures ([`super::VcParams::capture_and`]).
//!
//! # What Benzene's build has that the plain AND rule lacks (issue 25, session 29)
//!
//! In 8×8 `g2 e6 d5 e4 d4` (White to move) Black has a winning VC that Benzene's `vc-build`
//! finds and hexproof's build did not. One of its semi-connections is (c4, key b7, south)
//! with carrier {b5 c5 b6 d6 b7 c7 d7 a8 b8 c8 d8}: the VC (c4, b7) with carrier
//! {b5 c5 b6 d6 c7 d7 a8 b8 c8 d8} (it may go round through Black's bottom edge) and b7's
//! edge bridge (b7, {a8, b8}, south). The two carriers share a8 and b8, so the AND rule
//! cannot combine them; but once Black plays b7, {a8, b8} is Black-captured (White's move
//! in it is answered by the other cell, and the White stone is then dead), and with those
//! two cells filled the two connections no longer overlap. Benzene's build keeps, for each
//! empty cell, the set it captures when played, and lets the two carriers of an AND at that
//! midpoint meet inside it (*captured set intersection*, which Pawlewicz et al. §II list
//! among H-search's enhancements, their refs. [12], [17]–[19]); without it the (c4, south)
//! VC, and with it Black's win, is not found.
//!
//! # The rule, and why it is sound
//!
//! Let u be an empty cell, B a border of P, and {e₁, e₂} = S the *edge bridge* of u to B:
//! two adjacent empty cells, each adjacent to u and to B ([`edge_bridge`] checks the shape
//! on the board, it is not assumed). Given the VCs (x, C₁, u) and (u, C₂, y), x, y ∉ S, with
//! C₁ ∩ C₂ ⊆ S (and, as in the plain rule, x ∉ C₂, y ∉ C₁), the rule derives the VSC
//! (x, C₁ ∪ C₂ ∪ S ∪ {u}, y), key u.
//!
//! P plays u. Let I be the position with S filled with P stones as well. In I both
//! connections still hold, with carriers C₁ − S and C₂ − S (P stones on carrier cells never
//! hurt P: a strategy answering into such a cell answers anywhere instead), and these are
//! disjoint, so P answers each opponent move in the carrier it falls in, and joins x to u to
//! y — in I. In the real game P plays that strategy, except that an opponent move on one
//! cell of S is answered on the other. At the end S holds two P stones, or one P stone and
//! one opponent stone on e (the opponent never gets both). Such an e is dead for P in every
//! completion: each of its neighbours that P may use is u, the other cell of S, B, or a cell
//! adjacent to one of them ([`edge_bridge`] checks this too), and u, the other cell and B are
//! one P chain; so a P stone on e would join no two P chains, and the final position
//! connects exactly what the final position of I connects. Hence x and y are joined.
//!
//! The argument is about P's paths only (a P stone on e would join nothing), so it holds for
//! any connection x–y, not only for the winning one, and the derived VSC may be combined
//! further like any other.

use crate::board::{Board, Cell, CellSet, Colour};
use crate::position::Position;

/// The cells empty `u` captures for `colour` when `colour` plays it: the union of its edge
/// bridges (see the module docs) to `colour`'s borders; empty when it has none.
pub fn captured_by(position: &Position, colour: Colour, u: Cell) -> CellSet {
    let mut s = CellSet::EMPTY;
    for b in colour.borders() {
        if let Some(pair) = edge_bridge(position, colour, u, Cell::border(b)) {
            s |= pair;
        }
    }
    s
}

/// The edge bridge of empty `u` to `colour`'s border `border`, when it has one whose
/// captured cells are dead once filled as the module docs say: two adjacent empty cells,
/// each adjacent to `u` and to `border` (`u` itself not adjacent to `border`), and every
/// neighbour of each that `colour` may use (empty cells, its stones, its borders) is `u`, the
/// other cell, `border`, or adjacent to one of them.
pub fn edge_bridge(position: &Position, colour: Colour, u: Cell, border: Cell) -> Option<CellSet> {
    let board: &Board = position.board();
    let empty = position.empty_cells();
    if !empty.contains(u) {
        return None;
    }
    let nu = board.neighbours(u);
    if nu.contains(border) {
        return None;
    }
    let nb = board.neighbours(border);
    let pair = nu & nb & empty;
    if pair.len() != 2 {
        return None;
    }
    let mut it = pair.iter();
    let (e1, e2) = (it.next()?, it.next()?);
    if !board.adjacent(e1, e2) {
        return None;
    }
    let opponent = colour.opponent();
    let opp_stones = position.stones(opponent);
    let opp_borders = board.border_cells(opponent);
    let own_borders = board.border_cells(colour);
    for (e, other) in [(e1, e2), (e2, e1)] {
        for n in board.neighbours(e).iter() {
            if n == u || n == other || n == border {
                continue;
            }
            if opp_stones.contains(n) || opp_borders.contains(n) {
                continue;
            }
            // The colour's other border would be a second P chain next to e.
            if own_borders.contains(n) {
                return None;
            }
            let nn = board.neighbours(n);
            if !(nn.contains(u) || nn.contains(other) || nn.contains(border)) {
                return None;
            }
        }
    }
    Some(pair)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Border, Notation};

    fn cells(b: &Board, s: &str) -> CellSet {
        b.parse_cells(s, Notation::Letters)
            .unwrap()
            .into_iter()
            .collect()
    }

    #[test]
    fn second_row_cells_capture_their_edge_bridge() {
        let b = Board::square(8).unwrap();
        let p = Position::empty(b);
        let c = |s: &str| b.parse_cell(s, Notation::Letters).unwrap();
        assert_eq!(captured_by(&p, Colour::Black, c("b7")), cells(&b, "a8 b8"));
        assert_eq!(captured_by(&p, Colour::Black, c("g2")), cells(&b, "g1 h1"));
        // The last cell of row 2 touches one cell of row 1 only: no bridge.
        assert!(captured_by(&p, Colour::Black, c("h2")).is_empty());
        // Not on the second row: nothing.
        assert!(captured_by(&p, Colour::Black, c("d4")).is_empty());
        // White's edges are the columns.
        assert_eq!(captured_by(&p, Colour::White, c("b4")), cells(&b, "a4 a5"));
        assert!(captured_by(&p, Colour::White, c("d7")).is_empty());
    }

    #[test]
    fn an_occupied_bridge_cell_or_midpoint_gives_nothing() {
        let b = Board::square(8).unwrap();
        let c = |s: &str| b.parse_cell(s, Notation::Letters).unwrap();
        // White a8: b7's bridge to the bottom is broken.
        let p = Position::from_moves(b, "d4 a8", Notation::Letters).unwrap();
        assert!(captured_by(&p, Colour::Black, c("b7")).is_empty());
        // b7 occupied: not an empty midpoint.
        let p = Position::from_moves(b, "b7", Notation::Letters).unwrap();
        assert!(captured_by(&p, Colour::Black, c("b7")).is_empty());
        assert!(edge_bridge(&p, Colour::Black, c("c7"), Cell::border(Border::Top)).is_none());
    }
}
