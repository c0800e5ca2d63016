//! Position evaluation by electric resistor circuits (V. V. Anshelevich, *A hierarchical
//! approach to computer Hex*, AI 134 (2002), §5 and §6).
//!
//! Each colour P gets a circuit ([`circuit`]): every cell has a resistance `r(c)` — 1 when
//! empty, 0 when P's, ∞ when the opponent's — and two neighbouring cells are joined by a link
//! of resistance `r(c1) + r(c2)`. P's groups (with the borders they touch) have resistance 0,
//! so they are contracted to one node each (the endpoints of [`crate::vc::endpoints`]);
//! opponent stones are left out. Links for P's virtual connections are added in either of the
//! paper's two ways ([`VcLinks`]). The resistance `R_P` between P's two borders is computed
//! from Kirchhoff's laws ([`solve`]), and
//!
//! `E = log(R_B / R_W)`
//!
//! is the evaluation: negative is good for Black. [`Evaluation::score`] gives it from one
//! side's point of view. The energy dissipated on the links around an empty cell orders moves
//! (§6: "Moves played in the cells with a higher energy have a higher priority").

pub mod circuit;
pub mod solve;

pub use circuit::{Circuit, VcLinks};

use crate::board::{Cell, CellSet, Colour};
use crate::position::Position;
use crate::vc::VcSet;

/// Smallest resistance reported (a joined or virtually joined side); `E` stays finite.
pub const R_MIN: f64 = 1e-6;
/// Largest resistance reported (a side cut off from the other).
pub const R_MAX: f64 = 1e6;

/// Both circuits of a position, solved.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// Black's resistance top–bottom, clamped to [`R_MIN`, `R_MAX`].
    pub r_black: f64,
    /// White's resistance left–right, clamped likewise.
    pub r_white: f64,
    /// Per-cell energy (both circuits, each normalised by its total power), indexed by
    /// [`Cell::index`]; zero on occupied cells.
    pub energy: Vec<f64>,
    /// Per-cell current (both circuits, each as the fraction of its total current that
    /// passes through the cell), indexed by [`Cell::index`]; zero on occupied cells. The
    /// score by which Benzene's Wolve orders its moves (read in its resistance evaluation,
    /// not copied): linear in the current where the energy is quadratic, so a cell on a
    /// single narrow path does not outrank the cells that carry most of the current.
    pub flow: Vec<f64>,
}

impl Evaluation {
    /// `E = log(R_B / R_W)` (Anshelevich §5): negative favours Black.
    pub fn e(&self) -> f64 {
        (self.r_black / self.r_white).ln()
    }

    /// The evaluation from `colour`'s point of view (higher is better for `colour`).
    pub fn score(&self, colour: Colour) -> f64 {
        match colour {
            Colour::Black => -self.e(),
            Colour::White => self.e(),
        }
    }

    /// Empty cells sorted by decreasing energy (ties by cell index, so the order is
    /// deterministic).
    pub fn ordered_moves(&self, cells: CellSet) -> Vec<Cell> {
        Self::ordered_by(&self.energy, cells)
    }

    /// Empty cells sorted by decreasing [`Evaluation::flow`] (ties by cell index).
    pub fn ordered_moves_by_flow(&self, cells: CellSet) -> Vec<Cell> {
        Self::ordered_by(&self.flow, cells)
    }

    fn ordered_by(score: &[f64], cells: CellSet) -> Vec<Cell> {
        let mut v: Vec<Cell> = cells.iter().filter(|c| !c.is_border()).collect();
        v.sort_by(|a, b| {
            score[b.index()]
                .total_cmp(&score[a.index()])
                .then(a.index().cmp(&b.index()))
        });
        v
    }
}

/// Evaluates `position` with neighbour links only (no virtual connections).
pub fn evaluate_plain(position: &Position) -> Evaluation {
    evaluate(position, None, VcLinks::None)
}

/// Evaluates `position`; `vcs` = (Black's, White's) connections, added as `links` says.
pub fn evaluate(position: &Position, vcs: Option<(&VcSet, &VcSet)>, links: VcLinks) -> Evaluation {
    let (pb, pw) = match vcs {
        Some((b, w)) if links != VcLinks::None => {
            debug_assert_eq!((b.colour(), w.colour()), (Colour::Black, Colour::White));
            (b.vc_pairs_overlap(), w.vc_pairs_overlap())
        }
        _ => (Vec::new(), Vec::new()),
    };
    evaluate_pairs(position, (&pb, &pw), links)
}

/// [`evaluate`] from the connections' endpoint pairs (Black's, White's) as
/// [`VcSet::vc_pairs_overlap`] lists them: `(x, y, cells common to the pair's carriers)`.
/// The pairs may come from an earlier position (a search keeping its root's connections
/// whose carriers no opponent stone has entered since): a pair whose end is now an opponent
/// stone is skipped, and own stones played since are merged into the ends' groups.
pub fn evaluate_pairs(
    position: &Position,
    pairs: (&[(Cell, Cell, usize)], &[(Cell, Cell, usize)]),
    links: VcLinks,
) -> Evaluation {
    let cb = Circuit::build_with_pairs(position, Colour::Black, pairs.0, links).solve();
    let cw = Circuit::build_with_pairs(position, Colour::White, pairs.1, links).solve();
    let mut energy = vec![0.0; crate::vc::endpoints::CELL_SLOTS];
    let mut flow = vec![0.0; crate::vc::endpoints::CELL_SLOTS];
    for (sol, _) in [(&cb, 0), (&cw, 1)] {
        // At unit voltage the total power and the total current are both 1 / R.
        let total = sol.total_power.max(1e-300);
        for (i, e) in sol.cell_energy.iter().enumerate() {
            energy[i] += e / total;
        }
        if sol.total_power.is_finite() {
            for (i, f) in sol.cell_flow.iter().enumerate() {
                flow[i] += f / total;
            }
        }
    }
    Evaluation {
        r_black: cb.resistance.clamp(R_MIN, R_MAX),
        r_white: cw.resistance.clamp(R_MIN, R_MAX),
        energy,
        flow,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::vc::{build_both, Variant, VcParams};

    fn pos(n: u32, b: &str, w: &str) -> Position {
        Position::from_names(Board::square(n).unwrap(), b, w, Notation::Letters).unwrap()
    }

    /// The position with colours swapped and mirrored in the long diagonal (a legal Hex
    /// symmetry that exchanges the players' roles).
    fn swapped(p: &Position) -> Position {
        p.colours_swapped()
    }

    #[test]
    fn empty_board_is_balanced() {
        let e = evaluate_plain(&pos(7, "", ""));
        assert!(e.e().abs() < 1e-9, "{}", e.e());
        // 7 columns of 2-resistor paths with cross links: R well below a single path's 8.
        assert!(e.r_black > 0.5 && e.r_black < 8.0, "{}", e.r_black);
    }

    #[test]
    fn colour_swap_flips_sign() {
        let cases = [("d4 b2", "c5"), ("a1 c3 e5", "b4 f2"), ("g7", "")];
        for (b, w) in cases {
            let p = pos(7, b, w);
            let q = swapped(&p);
            for links in [
                VcLinks::None,
                VcLinks::Direct,
                VcLinks::SharedNeighbours,
                VcLinks::Both,
                VcLinks::Overlap,
                VcLinks::DirectOverlap,
            ] {
                // The unlimited engine's closure does not depend on processing order (the
                // fast one's acceptance heuristic does), so both sides see mirrored VCs.
                let params = VcParams::new(Variant::Unlimited);
                let (pb, pw) = build_both(&p, &params);
                let (qb, qw) = build_both(&q, &params);
                let ep = evaluate(&p, Some((&pb, &pw)), links);
                let eq = evaluate(&q, Some((&qb, &qw)), links);
                assert!(
                    (ep.e() + eq.e()).abs() < 1e-6,
                    "{b}/{w} {links:?}: {} vs {}",
                    ep.e(),
                    eq.e()
                );
            }
        }
    }

    #[test]
    fn won_positions_are_extreme() {
        let black_won = pos(4, "a1 a2 a3 a4", "");
        let e = evaluate_plain(&black_won);
        assert_eq!(e.r_black, R_MIN);
        assert!(e.e() < -10.0 && e.score(Colour::Black) > 10.0);
        assert_eq!(e.r_white, R_MAX, "White is cut off");
        let white_won = pos(4, "", "a2 b2 c2 d2");
        assert!(evaluate_plain(&white_won).e() > 10.0);
    }

    #[test]
    fn centre_stone_beats_corner_stone() {
        // Known ordering: a Black stone in the centre is worth more to Black than one in the
        // acute corner, and the centre carries the most energy on the empty board.
        let centre = evaluate_plain(&pos(7, "d4", ""));
        let corner = evaluate_plain(&pos(7, "a1", ""));
        let empty = evaluate_plain(&pos(7, "", ""));
        assert!(centre.score(Colour::Black) > corner.score(Colour::Black));
        assert!(corner.score(Colour::Black) > empty.score(Colour::Black));
        let p = pos(7, "", "");
        let order = empty.ordered_moves(p.empty_cells());
        let d4 = p.board().parse_cell("d4", Notation::Letters).unwrap();
        let a1 = p.board().parse_cell("a1", Notation::Letters).unwrap();
        let rank = |c: Cell| order.iter().position(|&x| x == c).unwrap();
        assert!(rank(d4) < rank(a1), "d4 {} a1 {}", rank(d4), rank(a1));
    }

    #[test]
    fn flow_is_the_fraction_of_each_circuit_current() {
        // Every unit of a circuit's current (a sum of acyclic paths, the potentials falling
        // along each) passes at most once through a cell and at least once through each row
        // (Black's, top to bottom) or column (White's): each cell's flow, the fractions of
        // both circuits summed, lies in (0, 2], and on 7×7 the flows sum to at least 7 + 7.
        let p = pos(7, "", "");
        let e = evaluate_plain(&p);
        let b = p.board();
        let mut sum = 0.0;
        for c in p.empty_cells().iter().filter(|c| !c.is_border()) {
            let f = e.flow[c.index()];
            assert!(f > 0.0 && f <= 2.0 + 1e-9, "{f}");
            sum += f;
        }
        assert!(sum >= 14.0 - 1e-6, "{sum}");
        let order = e.ordered_moves_by_flow(p.empty_cells());
        let d4 = b.parse_cell("d4", Notation::Letters).unwrap();
        let a1 = b.parse_cell("a1", Notation::Letters).unwrap();
        let rank = |c: Cell| order.iter().position(|&x| x == c).unwrap();
        assert!(rank(d4) < rank(a1));
        assert_eq!(order.len(), 49);
    }

    #[test]
    fn evaluate_pairs_is_evaluate_on_the_same_pairs() {
        let p = pos(7, "d4 b2", "c5 e3");
        let (b, w) = build_both(&p, &VcParams::new(Variant::Fast));
        let (pb, pw) = (b.vc_pairs_overlap(), w.vc_pairs_overlap());
        assert!(!pb.is_empty());
        for links in [VcLinks::Both, VcLinks::Overlap] {
            let a = evaluate(&p, Some((&b, &w)), links);
            let e = evaluate_pairs(&p, (&pb, &pw), links);
            assert_eq!(a.e(), e.e());
            assert_eq!(a.energy, e.energy);
        }
        // Without the pairs the circuit is the plain one, and different.
        let plain = evaluate_pairs(&p, (&[], &[]), VcLinks::Both);
        assert_eq!(plain.e(), evaluate_plain(&p).e());
        assert_ne!(plain.e(), evaluate(&p, Some((&b, &w)), VcLinks::Both).e());
    }

    #[test]
    fn vc_links_lower_the_resistance() {
        // A Black stone bridged to both edges: with VC links Black's resistance drops.
        let p = pos(5, "c3", "");
        let params = VcParams::new(Variant::Fast);
        let (b, w) = build_both(&p, &params);
        let plain = evaluate_plain(&p);
        for links in [
            VcLinks::Direct,
            VcLinks::SharedNeighbours,
            VcLinks::Both,
            VcLinks::Overlap,
            VcLinks::DirectOverlap,
        ] {
            let with = evaluate(&p, Some((&b, &w)), links);
            assert!(with.r_black < plain.r_black, "{links:?}");
        }
    }
}
