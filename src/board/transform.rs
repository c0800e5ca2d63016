//! Hex symmetries as integer affine maps on 0-based (column, row) coordinates, with the
//! matching permutation of the borders.
//!
//! The maps that preserve hex adjacency and that Hex strategy uses (docs/SEMANTICS.md "Board and conventions"):
//! - 180° rotation `(c, r) ↦ (n−1−c, m−1−r)`: a board automorphism that keeps colours;
//! - the long-diagonal reflection `(c, r) ↦ (r, c)`: swaps colours and sides (t↔l, b↔r);
//! - translation `(c, r) ↦ (c+dx, r+dy)` of a local pattern;
//! - mirror of a pattern along a horizontal edge `(c, r) ↦ (k−c−r, r)` (keeps rows, so keeps
//!   the distance to the top and bottom edges), and along a vertical edge `(c, r) ↦ (c, k−r−c)`.

use super::{Board, Border, Cell};

/// An adjacency-preserving affine map `(c, r) ↦ (a·c + b·r + e, c2·c + d·r + f)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Transform {
    m: [[i32; 2]; 2],
    t: [i32; 2],
    /// Image of Top, Bottom, Left, Right.
    borders: [Border; 4],
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        m: [[1, 0], [0, 1]],
        t: [0, 0],
        borders: [Border::Top, Border::Bottom, Border::Left, Border::Right],
    };

    /// Translation by (dx, dy).
    pub fn translate(dx: i32, dy: i32) -> Transform {
        Transform {
            t: [dx, dy],
            ..Transform::IDENTITY
        }
    }

    /// 180° rotation of `board` onto itself.
    pub fn rotate180(board: &Board) -> Transform {
        Transform {
            m: [[-1, 0], [0, -1]],
            t: [board.cols() as i32 - 1, board.rows() as i32 - 1],
            borders: [Border::Bottom, Border::Top, Border::Right, Border::Left],
        }
    }

    /// Reflection in the long diagonal: `(c, r) ↦ (r, c)`, from `board` onto its transpose.
    /// It swaps the colours' roles: t↔l, b↔r.
    pub fn transpose() -> Transform {
        Transform {
            m: [[0, 1], [1, 0]],
            t: [0, 0],
            borders: [Border::Left, Border::Right, Border::Top, Border::Bottom],
        }
    }

    /// Mirror along a horizontal (top/bottom) edge: `(c, r) ↦ (k − c − r, r)`.
    pub fn mirror_horizontal_edge(k: i32) -> Transform {
        Transform {
            m: [[-1, -1], [0, 1]],
            t: [k, 0],
            borders: [Border::Top, Border::Bottom, Border::Right, Border::Left],
        }
    }

    /// Mirror along a vertical (left/right) edge: `(c, r) ↦ (c, k − r − c)`.
    pub fn mirror_vertical_edge(k: i32) -> Transform {
        Transform {
            m: [[1, 0], [-1, -1]],
            t: [0, k],
            borders: [Border::Bottom, Border::Top, Border::Left, Border::Right],
        }
    }

    /// `self` after `first`: `(self ∘ first)(p) = self(first(p))`.
    pub fn after(&self, first: &Transform) -> Transform {
        let a = &self.m;
        let b = &first.m;
        let m = [
            [
                a[0][0] * b[0][0] + a[0][1] * b[1][0],
                a[0][0] * b[0][1] + a[0][1] * b[1][1],
            ],
            [
                a[1][0] * b[0][0] + a[1][1] * b[1][0],
                a[1][0] * b[0][1] + a[1][1] * b[1][1],
            ],
        ];
        let t = [
            a[0][0] * first.t[0] + a[0][1] * first.t[1] + self.t[0],
            a[1][0] * first.t[0] + a[1][1] * first.t[1] + self.t[1],
        ];
        let borders = first.borders.map(|b| self.borders[b as usize]);
        Transform { m, t, borders }
    }

    /// Image of 0-based coordinates.
    pub fn apply_coords(&self, c: i32, r: i32) -> (i32, i32) {
        (
            self.m[0][0] * c + self.m[0][1] * r + self.t[0],
            self.m[1][0] * c + self.m[1][1] * r + self.t[1],
        )
    }

    /// Image of a border.
    pub fn apply_border(&self, b: Border) -> Border {
        self.borders[b as usize]
    }

    /// Image of a cell onto board `to`, or `None` when it falls off that board.
    pub fn apply(&self, cell: Cell, to: &Board) -> Option<Cell> {
        if let Some(b) = cell.as_border() {
            return Some(Cell::border(self.apply_border(b)));
        }
        let (c, r) = cell.coords();
        let (c2, r2) = self.apply_coords(c as i32, r as i32);
        to.cell(c2, r2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::CellSet;

    fn preserves_adjacency(t: &Transform, from: &Board, to: &Board) {
        for x in from.cells().iter() {
            for y in from.neighbours(x).iter() {
                if let (Some(a), Some(b)) = (t.apply(x, to), t.apply(y, to)) {
                    if y.is_border() {
                        // Only claim border adjacency for maps that are board automorphisms.
                        continue;
                    }
                    assert!(to.adjacent(a, b), "{t:?}: {x:?}~{y:?} but {a:?}!~{b:?}");
                }
            }
        }
    }

    #[test]
    fn symmetries_preserve_adjacency() {
        let b = Board::new(6, 4).unwrap();
        let big = Board::square(19).unwrap();
        preserves_adjacency(&Transform::rotate180(&b), &b, &b);
        preserves_adjacency(&Transform::transpose(), &b, &b.transposed());
        preserves_adjacency(&Transform::mirror_horizontal_edge(12), &b, &big);
        preserves_adjacency(&Transform::mirror_vertical_edge(12), &b, &big);
        preserves_adjacency(&Transform::translate(3, 2), &b, &big);
    }

    #[test]
    fn rotation_and_transpose_are_automorphisms_with_borders() {
        let b = Board::square(5).unwrap();
        for t in [Transform::rotate180(&b), Transform::transpose()] {
            let all: CellSet = b.cells()
                | b.border_cells(crate::board::Colour::Black)
                | b.border_cells(crate::board::Colour::White);
            for x in all.iter() {
                for y in b.neighbours(x).iter() {
                    let (a, c) = (t.apply(x, &b).unwrap(), t.apply(y, &b).unwrap());
                    assert!(b.adjacent(a, c));
                }
            }
            // Involutions.
            let tt = t.after(&t);
            for x in all.iter() {
                assert_eq!(tt.apply(x, &b), Some(x));
            }
        }
    }
}
