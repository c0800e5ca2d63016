//! Gale's boundary walk: a second, independent winner test for a full board (Payne & Robeva
//! §3, after Gale 1979).
//!
//! The paper draws the board as a diamond; in our orientation (docs/SEMANTICS.md "Board and conventions") the four corners
//! where a Black border meets a White border are top-left (`a1`, acute), top-right, bottom-left
//! and bottom-right. Colour the cells outside the board like the borders: rows above row 1 and
//! below the last row Black, columns left of `a` and right of the last column White (the four
//! outer corner cells count as Black; any choice works). The boundary between the black and the
//! white region consists of loops and two paths joining the four corners in pairs; the pairing
//! cannot cross, so the path leaving the top-left corner ends at the top-right or the
//! bottom-left corner.
//!
//! We walk that path edge by edge. The current edge separates a black hex `k` from a white hex
//! `w`; the vertex ahead is shared with a third hex `x`. If `x` is black the next edge is
//! (`x`, `w`), otherwise (`k`, `x`) — the walk keeps black on one side and white on the other.
//! It stops when both hexes of the edge lie outside the board, i.e. at a corner. If that corner
//! is the bottom-left one, the black hexes along the path join top to bottom and Black wins;
//! if it is the top-right one, the white hexes along it join left to right and White wins.
//!
//! The walk visits each boundary edge at most once, so it runs in time proportional to the
//! path length; it is branchy and slower than the bit-parallel flood fill in
//! [`super::grid::Grid::black_wins_full`], and exists as a cross-check (tests compare them on
//! random full boards).

use super::bits::Bits;
use super::grid::Grid;
use crate::board::Colour;

/// The six neighbour directions in cyclic order around a hex; consecutive entries are
/// themselves neighbours of each other, so the two hexes adjacent to both `p` and `p + D[i]`
/// are `p + D[i−1]` and `p + D[i+1]`.
const DIRS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Which corner the walk from the top-left corner reached.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Corner {
    /// Top-right: White has a left–right chain.
    TopRight,
    /// Bottom-left: Black has a top–bottom chain.
    BottomLeft,
}

/// The winner of a full filling (`black` = Black's cells, the rest White's) by Gale's walk.
pub fn gale_winner<B: Bits>(grid: &Grid<B>, black: B) -> Colour {
    match gale_walk(grid, black).0 {
        Corner::BottomLeft => Colour::Black,
        Corner::TopRight => Colour::White,
    }
}

/// Gale's walk; returns the corner reached and the number of edges walked.
pub fn gale_walk<B: Bits>(grid: &Grid<B>, black: B) -> (Corner, usize) {
    let board = grid.board();
    let (cols, rows) = (board.cols() as i32, board.rows() as i32);
    let on_board = |(c, r): (i32, i32)| c >= 0 && r >= 0 && c < cols && r < rows;
    let is_black = |(c, r): (i32, i32)| {
        if r < 0 || r >= rows {
            true
        } else if c < 0 || c >= cols {
            false
        } else {
            black.test(grid.index(c as u32, r as u32))
        }
    };
    let dir_index = |p: (i32, i32), q: (i32, i32)| {
        let d = (q.0 - p.0, q.1 - p.1);
        DIRS.iter()
            .position(|&x| x == d)
            .expect("Gale's walk only ever pairs adjacent hexes")
    };
    // The first edge: top border hex (0, −1) against left border hex (−1, 0); the corner hex
    // (−1, −1) is behind, the cell a1 = (0, 0) ahead.
    let mut k = (0, -1);
    let mut w = (-1, 0);
    let mut behind = (-1, -1);
    // Each edge of the extended grid is walked at most once.
    let limit = 6 * (cols as usize + 2) * (rows as usize + 2);
    for steps in 1..=limit {
        let i = dir_index(k, w);
        let a = DIRS[(i + 5) % 6];
        let b = DIRS[(i + 1) % 6];
        let c1 = (k.0 + a.0, k.1 + a.1);
        let c2 = (k.0 + b.0, k.1 + b.1);
        let ahead = if c1 == behind { c2 } else { c1 };
        if is_black(ahead) {
            behind = k;
            k = ahead;
        } else {
            behind = w;
            w = ahead;
        }
        if !on_board(k) && !on_board(w) {
            let corner = if k.1 < 0 || w.1 < 0 {
                Corner::TopRight
            } else {
                Corner::BottomLeft
            };
            return (corner, steps);
        }
    }
    unreachable!("Gale's walk on a {board} board exceeded {limit} steps")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn trivial_boards() {
        for (c, r) in [(1, 1), (1, 4), (4, 1), (3, 3), (11, 11)] {
            let g: Grid<u128> = Grid::new(Board::new(c, r).unwrap()).unwrap();
            assert_eq!(gale_winner(&g, g.all()), Colour::Black);
            assert_eq!(gale_winner(&g, 0), Colour::White);
        }
    }
}
