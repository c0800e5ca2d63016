//! One colour's resistor circuit (Anshelevich §5) and its solution.
//!
//! Nodes are the colour's endpoints ([`Endpoints`]): its groups with the borders they touch
//! (resistance 0, so a group is one node) and the empty cells (resistance 1). Opponent stones
//! (resistance ∞) are not nodes. Two adjacent nodes get a link of resistance `r(x) + r(y)`:
//! 2 between empty cells, 1 between an empty cell and a group (two groups are never adjacent:
//! they would be one group).

use super::solve::{cg, Sparse};
use crate::board::{Cell, Colour};
use crate::position::Position;
use crate::vc::endpoints::{Endpoints, CELL_SLOTS};
use crate::vc::VcSet;

/// How virtual connections enter the circuit (Anshelevich §5 describes two ways and reports
/// no conclusive difference).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VcLinks {
    /// Neighbour links only.
    None,
    /// First way: a link between the two ends of every VC whose ends are not neighbours, with
    /// resistance `r(x) + r(y) + 1`, higher than a neighbour link between the same kind of
    /// ends ("virtual connections between nearest neighbours are stronger").
    Direct,
    /// Second way: for a VC between two of the colour's groups x and y, every empty
    /// neighbour c of x is treated as a neighbour of y too (and vice versa): link c–y of
    /// resistance `r(c) + r(y)`.
    SharedNeighbours,
    /// Both ways: shared neighbours for VCs between groups, direct links for the others.
    Both,
    /// Benzene's conductances (read in its resistance evaluation, not copied): a link between
    /// the two ends of every VC whose ends are not neighbours and not both the colour's
    /// groups (two groups, or a group and its border, get no link), of conductance
    /// `1 / ((r(x) + r(y)) · (1 + k))`, k the number of cells in every stored VC carrier
    /// between the two ends: a connection whose carriers overlap is as easy to break as its
    /// common cells, while a pair joined by VCs with no common cell (a bridge) conducts as
    /// well as neighbours do.
    Overlap,
    /// The first way ([`VcLinks::Direct`], links between two groups included), each VC
    /// link's conductance divided by 1 + k as in [`VcLinks::Overlap`].
    DirectOverlap,
}

impl VcLinks {
    /// Parses `none`, `direct`, `shared`, `both`, `overlap`, `direct-overlap`.
    pub fn parse(s: &str) -> Option<VcLinks> {
        Some(match s {
            "none" => VcLinks::None,
            "direct" => VcLinks::Direct,
            "shared" => VcLinks::SharedNeighbours,
            "both" => VcLinks::Both,
            "overlap" => VcLinks::Overlap,
            "direct-overlap" => VcLinks::DirectOverlap,
            _ => return None,
        })
    }
}

/// The circuit of one colour.
pub struct Circuit {
    eps: Endpoints,
    /// Links `(x, y, conductance)` between endpoint indices.
    links: Vec<(u16, u16, f64)>,
}

/// A solved circuit.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Resistance between the colour's borders (0 when joined, `f64::INFINITY` when cut).
    pub resistance: f64,
    /// Total power at unit voltage, `1 / resistance` (0 when cut, ∞ when joined).
    pub total_power: f64,
    /// Energy dissipated on the links at each empty cell, by [`Cell::index`].
    pub cell_energy: Vec<f64>,
    /// Current through each empty cell (half the sum of `|current|` on its links), by
    /// [`Cell::index`]: the score Benzene's resistance evaluation gives a cell (there with a
    /// unit current, here at unit voltage; divide by [`Solution::total_power`], the total
    /// current, for the fraction of the current that passes through the cell).
    pub cell_flow: Vec<f64>,
    /// Conjugate-gradient iterations used.
    pub iterations: usize,
}

impl Circuit {
    /// Builds the circuit of `colour` in `position`, with links for the connections in `vcs`
    /// (which must be `colour`'s connections in `position`) as `how` says.
    pub fn build(
        position: &Position,
        colour: Colour,
        vcs: Option<&VcSet>,
        how: VcLinks,
    ) -> Circuit {
        // One link per endpoint pair with at least one VC, however many carriers
        // (`vc_pairs` walks the store's touched pairs, far cheaper than listing every
        // connection).
        let pairs = match (vcs, how != VcLinks::None) {
            (Some(v), true) => {
                debug_assert_eq!(v.colour(), colour);
                v.vc_pairs_overlap()
            }
            _ => Vec::new(),
        };
        Circuit::build_with_pairs(position, colour, &pairs, how)
    }

    /// [`Circuit::build`] from the connections' endpoint pairs as
    /// [`VcSet::vc_pairs_overlap`] lists them (taken from `colour`'s connections in
    /// `position`, possibly earlier: the same pairs give the same circuit).
    pub fn build_with_pairs(
        position: &Position,
        colour: Colour,
        pairs: &[(Cell, Cell, usize)],
        how: VcLinks,
    ) -> Circuit {
        let eps = Endpoints::new(position, colour);
        let mut links = Vec::with_capacity(eps.len() * 4);
        let r = |i: u16| if eps.coloured[i as usize] { 0.0 } else { 1.0 };
        for x in 0..eps.len() as u16 {
            for yc in eps.adj_empty[x as usize].iter() {
                let y = eps.index[yc.index()];
                // Each pair once: groups list their empty neighbours, two empty cells list
                // each other (keep x < y).
                if eps.coloured[x as usize] || x < y {
                    links.push((x, y, 1.0 / (r(x) + r(y))));
                }
            }
        }
        if how != VcLinks::None {
            for &(ci, cj, common) in pairs {
                let (Some(x), Some(y)) = (eps.of(ci), eps.of(cj)) else {
                    continue;
                };
                let (x, y) = (x.min(y), x.max(y));
                if x == y {
                    continue;
                }
                let adjacent = !(eps.adj_empty[x as usize] & eps.members[y as usize]).is_empty()
                    || !(eps.adj_empty[y as usize] & eps.members[x as usize]).is_empty();
                if adjacent {
                    continue;
                }
                let both_groups = eps.coloured[x as usize] && eps.coloured[y as usize];
                if how == VcLinks::Overlap {
                    if !both_groups {
                        let k = 1.0 + common as f64;
                        links.push((x, y, 1.0 / ((r(x) + r(y)) * k)));
                    }
                    continue;
                }
                let shared = matches!(how, VcLinks::SharedNeighbours)
                    || (how == VcLinks::Both && both_groups);
                if shared {
                    if !both_groups {
                        continue;
                    }
                    for (a, b) in [(x, y), (y, x)] {
                        let already = eps.adj_empty[b as usize];
                        for cc in (eps.adj_empty[a as usize] - already).iter() {
                            let ci = eps.index[cc.index()];
                            links.push((ci, b, 1.0 / (r(ci) + r(b))));
                        }
                    }
                } else {
                    let k = match how {
                        VcLinks::DirectOverlap => 1.0 + common as f64,
                        _ => 1.0,
                    };
                    links.push((x, y, 1.0 / ((r(x) + r(y) + 1.0) * k)));
                }
            }
        }
        Circuit { eps, links }
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.eps.len()
    }

    /// Number of links.
    pub fn links(&self) -> usize {
        self.links.len()
    }

    /// The reduced Kirchhoff system: unknown potentials of the nodes (other than the two
    /// borders) that are linked to a border, with the source border at potential 1 and the
    /// sink at 0. Returns the matrix, the right-hand side and the node of each unknown.
    pub fn system(&self) -> Option<(Sparse, Vec<f64>, Vec<u16>)> {
        let (s, t) = self.eps.border_endpoints();
        if s == t {
            return None;
        }
        let n = self.eps.len();
        let mut adj: Vec<Vec<(u16, f64)>> = vec![Vec::new(); n];
        for &(x, y, g) in &self.links {
            adj[x as usize].push((y, g));
            adj[y as usize].push((x, g));
        }
        // Nodes reachable from a border.
        let mut seen = vec![false; n];
        let mut stack = vec![s, t];
        seen[s as usize] = true;
        seen[t as usize] = true;
        while let Some(x) = stack.pop() {
            for &(y, _) in &adj[x as usize] {
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    stack.push(y);
                }
            }
        }
        let mut var = vec![u32::MAX; n];
        let mut nodes = Vec::new();
        for i in 0..n as u16 {
            if seen[i as usize] && i != s && i != t {
                var[i as usize] = nodes.len() as u32;
                nodes.push(i);
            }
        }
        let mut m = Sparse::default();
        let mut b = vec![0.0; nodes.len()];
        m.row.push(0);
        for (k, &i) in nodes.iter().enumerate() {
            let mut d = 0.0;
            for &(j, g) in &adj[i as usize] {
                d += g;
                if j == s {
                    b[k] += g;
                } else if j != t {
                    m.col.push(var[j as usize]);
                    m.val.push(-g);
                }
            }
            m.diag.push(d);
            m.row.push(m.col.len() as u32);
        }
        Some((m, b, nodes))
    }

    /// Solves the circuit (see [`Solution`]).
    pub fn solve(&self) -> Solution {
        let mut cell_energy = vec![0.0; CELL_SLOTS];
        let mut cell_flow = vec![0.0; CELL_SLOTS];
        let Some((m, b, nodes)) = self.system() else {
            return Solution {
                resistance: 0.0,
                total_power: f64::INFINITY,
                cell_energy,
                cell_flow,
                iterations: 0,
            };
        };
        let mut x = vec![0.0; nodes.len()];
        let iterations = cg(&m, &b, &mut x, 1e-10, 4 * nodes.len() + 50);
        let (s, t) = self.eps.border_endpoints();
        let mut v = vec![0.0; self.eps.len()];
        v[s as usize] = 1.0;
        for (k, &i) in nodes.iter().enumerate() {
            v[i as usize] = x[k];
        }
        let _ = t;
        let mut current = 0.0;
        for &(x, y, g) in &self.links {
            let d = v[x as usize] - v[y as usize];
            if x == s {
                current += g * d;
            } else if y == s {
                current -= g * d;
            }
            let p = g * d * d;
            let i = 0.5 * (g * d).abs();
            for e in [x, y] {
                if !self.eps.coloured[e as usize] {
                    let c: Cell = self.eps.reps[e as usize];
                    cell_energy[c.index()] += p;
                    cell_flow[c.index()] += i;
                }
            }
        }
        let resistance = if current > 0.0 {
            1.0 / current
        } else {
            f64::INFINITY
        };
        Solution {
            resistance,
            total_power: current.max(0.0),
            cell_energy,
            cell_flow,
            iterations,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::eval::solve::dense_solve;

    #[test]
    fn cg_agrees_with_gaussian_elimination() {
        let p = Position::from_names(
            Board::square(9).unwrap(),
            "e5 c3 g2",
            "d6 f4",
            Notation::Letters,
        )
        .unwrap();
        let c = Circuit::build(&p, Colour::Black, None, VcLinks::None);
        let (m, b, _) = c.system().unwrap();
        let mut x = vec![0.0; b.len()];
        cg(&m, &b, &mut x, 1e-12, 2000);
        let y = dense_solve(m.to_dense(), b);
        for (a, b) in x.iter().zip(&y) {
            assert!((a - b).abs() < 1e-8);
        }
    }

    #[test]
    fn overlap_links_join_no_two_groups_and_keep_a_bridge_as_strong_as_a_neighbour() {
        use crate::vc::{Variant, VcParams};
        // A Black stone bridged to both edges: its VCs to the borders are links between two
        // coloured endpoints in the first way, none with Benzene's conductances.
        let p =
            Position::from_names(Board::square(5).unwrap(), "c3", "", Notation::Letters).unwrap();
        let v = VcSet::build(&p, Colour::Black, VcParams::new(Variant::Fast));
        let direct = Circuit::build(&p, Colour::Black, Some(&v), VcLinks::Direct);
        let overlap = Circuit::build(&p, Colour::Black, Some(&v), VcLinks::Overlap);
        let coloured = |c: &Circuit, x: u16| c.eps.coloured[x as usize];
        let both = |c: &Circuit| {
            c.links
                .iter()
                .filter(|&&(x, y, _)| coloured(c, x) && coloured(c, y))
                .count()
        };
        assert!(both(&direct) > 0);
        assert_eq!(both(&overlap), 0);
        // A VC link whose carriers share no cell (a bridge from the stone to an empty cell)
        // conducts as a neighbour link between the same kinds of ends (1 for group–empty);
        // a link with shared cells conducts less.
        let adjacent = |c: &Circuit, x: u16, y: u16| {
            !(c.eps.adj_empty[x as usize] & c.eps.members[y as usize]).is_empty()
                || !(c.eps.adj_empty[y as usize] & c.eps.members[x as usize]).is_empty()
        };
        let vc_links: Vec<f64> = overlap
            .links
            .iter()
            .filter(|&&(x, y, _)| !adjacent(&overlap, x, y))
            .filter(|&&(x, y, _)| coloured(&overlap, x) != coloured(&overlap, y))
            .map(|l| l.2)
            .collect();
        assert!(
            vc_links.iter().any(|&g| (g - 1.0).abs() < 1e-12),
            "{vc_links:?}"
        );
        assert!(vc_links.iter().all(|&g| g <= 1.0 + 1e-12), "{vc_links:?}");
        let (r0, r1) = (direct.solve().resistance, overlap.solve().resistance);
        assert!(r0.is_finite() && r1.is_finite() && r0 > 0.0 && r1 > 0.0);
    }

    #[test]
    fn one_by_one_and_one_row() {
        // 1×1: top – cell – bottom, two links of resistance 1 in series.
        let p = Position::empty(Board::square(1).unwrap());
        let s = Circuit::build(&p, Colour::Black, None, VcLinks::None).solve();
        assert!((s.resistance - 2.0).abs() < 1e-9);
        // 3 columns × 1 row for Black: three parallel paths of resistance 2.
        let p = Position::empty(Board::new(3, 1).unwrap());
        let s = Circuit::build(&p, Colour::Black, None, VcLinks::None).solve();
        assert!((s.resistance - 2.0 / 3.0).abs() < 1e-9, "{}", s.resistance);
    }
}
