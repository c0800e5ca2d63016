//! Move ordering: which child the search tries first among equally promising ones.
//!
//! Ordering changes the speed of the search, never its answer. The default is a cheap
//! geometric score (cells near the centre first, Henderson et al. 2009 §5 order by
//! resistance; the electric-circuit evaluation lives on another branch). [`MoveOrder`] is the
//! hook for a better evaluation: implement it and pass it in [`super::SolveParams`].

use crate::board::{Cell, CellSet, Colour};
use crate::position::Position;

/// Scores moves; lower scores are tried first.
pub trait MoveOrder: Send + Sync {
    /// Scores every cell of `moves` for `to_move` in `pos` (same order as `moves.iter()`).
    fn scores(&self, pos: &Position, to_move: Colour, moves: CellSet, out: &mut Vec<(i32, Cell)>);
}

/// Cells nearer the board's centre first (hex distance in the doubled grid).
#[derive(Clone, Copy, Debug, Default)]
pub struct Centrality;

impl MoveOrder for Centrality {
    fn scores(&self, pos: &Position, _to_move: Colour, moves: CellSet, out: &mut Vec<(i32, Cell)>) {
        let b = pos.board();
        let (cx2, cy2) = (b.cols() as i32 - 1, b.rows() as i32 - 1);
        for c in moves.iter() {
            let (x, y) = c.coords();
            let (dx, dy) = (2 * x as i32 - cx2, 2 * y as i32 - cy2);
            // Hex distance with axial coordinates (x, y): (|dx| + |dy| + |dx + dy|) / 2.
            let d = (dx.abs() + dy.abs() + (dx + dy).abs()) / 2;
            out.push((d, c));
        }
    }
}

/// Cells of higher energy in the position's resistor circuits first (Anshelevich 2002 §6,
/// [`crate::eval`]; Henderson et al. 2009 §7 order by "electric circuit model evaluation"):
/// both colours' circuits with neighbour links only, about a hundred microseconds on 7×7.
#[derive(Clone, Copy, Debug, Default)]
pub struct Resistance;

impl MoveOrder for Resistance {
    fn scores(&self, pos: &Position, _to_move: Colour, moves: CellSet, out: &mut Vec<(i32, Cell)>) {
        let e = crate::eval::evaluate_plain(pos);
        for c in moves.iter() {
            // Energies are fractions of the total power (at most 2 summed over both
            // circuits): scaled to integers, higher energy = lower score.
            let s = -(e.energy[c.index()] * 1e6).round() as i32;
            out.push((s, c));
        }
    }
}
