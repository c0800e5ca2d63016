//! Combinatorial decompositions: regions cut off by opposite-colour bridges (Henderson,
//! Arneson & Hayward 2009, §4, Lemma 1 and Theorem 2), used as fill-in.
//!
//! # Definitions (§4)
//!
//! Two opposite-colour stones *crowd* when they touch or form a bridge (two common empty
//! neighbours). **Lemma 1**: for an opposite-colour bridge x–y (x of P, y of Q) with common
//! empty cells r, e, deleting the adjacency r–e does not change the value: a P path through
//! r–e is rerouted through x, a common neighbour of both, and a Q path through r–e through y.
//! Borders count as stones of their colour (a stone on the second row next to the opponent's
//! border forms such a bridge with that border).
//!
//! For a colour P, delete every such adjacency (r–e empty and adjacent, with a common
//! neighbour owned by P and one owned by Q) and split the empty cells into the connected
//! components of what is left: the *regions*. For a region R, let the *P groups of R* be the
//! chains of P (stones and P's borders) with a cell adjacent to R.
//!
//! # What is filled, and why it is sound
//!
//! Every P winning path of a completed board, followed through a maximal run r₁…rₘ of cells
//! of R, enters the run from a cell u outside R and leaves it to a cell v outside R. Each of u,
//! v is a P stone of a P group of R, a P border, or an empty cell e whose adjacency to r₁ (or
//! rₘ) was deleted, hence with a common P neighbour x of e and r₁ (x then is in a P group of
//! R, since it touches r₁): the path can step e → x instead. So every run through R joins two
//! P groups of R (possibly the same one).
//!
//! - **At most one P group** (this is the clique-cutset dead region of §3, Fig. 6, with
//!   Lemma 1's cuts): a run joins the group to itself, and replacing it by the group's own
//!   stones keeps the path, so no cell of R is on a minimal winning path: R is **dead** and is
//!   filled like a dead cell (either colour; the value is unchanged).
//! - **Two P groups A and B, and a P virtual connection between them with its carrier inside
//!   R** (the 4-cycle of Theorem 2: A, B and the Q groups around R crowd in a cycle): R is
//!   filled with P. The winner does not change: with R filled P is no worse off (an extra
//!   stone never hurts); conversely, P plays the filled position's strategy outside R, answers
//!   a Q move in the carrier inside the carrier (the VC's strategy) and any other Q move in R
//!   anywhere (an extra stone). At the end the filled board's winning path exists outside R,
//!   and each run through R joins A to A, B to B (replace it by the group) or A to B (replace
//!   it by the VC's path in the carrier): P wins. The VC used is a bridge: two cells of R each
//!   adjacent to both A and B (P answers a Q move in one with the other).
//!
//! # Proof sets
//!
//! A region filled with P stones is a fill-in for P: when P wins, the filled cells are
//! added to its proof set as for captured cells (they contain the VC's carrier, which P's
//! strategy uses); when Q wins, its strategy in the filled position never plays in R and
//! also wins with R empty (fewer P stones), so nothing is added. Dead regions are dead cells.
//!
//! # Splits (Theorem 1)
//!
//! Theorem 1: a P group crowding both Q borders splits the game: P wins iff P wins both
//! halves. We use the general form: take the P groups as vertices and each region as joining
//! the P groups it touches. If a P group G (not a border) separates P's two borders T and B
//! in this graph, let side 1 be the cells of the regions reachable from T without passing
//! G, and side 2 the other empty cells. In every completed board P wins iff P joins T to G
//! through side 1 (C₁) and G to B through side 2 (C₂): by the run argument above a winning
//! path is a sequence of P groups joined by runs through regions; its part before the first
//! visit of G only meets groups reachable from T without G, hence side-1 regions; its part
//! after the last visit of G only meets groups reachable from B without G, and no region of
//! side 1 touches one of those (else B would be reachable from T without G). C₁ depends on
//! the side-1 cells only and C₂ on the side-2 cells only, so the game is a conjunctive sum
//! for P. In Hex an extra stone never hurts, so with Q to move **P wins iff P wins both
//! halves with Q to move**, where half 1 is the position with side 2 filled with P stones
//! (then C₂ holds, or can never hold and P loses both the half and the whole) and half 2
//! likewise. The search uses this at nodes where the player to move is Q: Q wins iff it wins
//! one half, an OR over two positions with the same player to move ([`super::mid`]).
//!
//! Proof sets: when Q wins half i, its strategy there never needs the filled side (P's
//! stones), so the half's proof set is the node's. When P wins both, it plays each half's
//! strategy on its side: the node's proof set is the union of each half's set restricted to
//! its own side.

use super::inferior::Geometry;
use crate::board::{Cell, CellSet, Colour};

/// The regions of `p` found with `black`, `white` stones: (dead cells, cells `p` may fill).
pub fn regions(geo: &Geometry, black: CellSet, white: CellSet, p: Colour) -> (CellSet, CellSet) {
    let empty = geo.cells() - black - white;
    let own = geo.owned(p, black, white);
    let opp = geo.owned(p.opponent(), black, white);
    let mut seen = CellSet::EMPTY;
    let mut dead = CellSet::EMPTY;
    let mut captured = CellSet::EMPTY;
    for start in empty.iter() {
        if seen.contains(start) {
            continue;
        }
        let region = region_of(geo, start, empty, own, opp);
        seen |= region;
        let mut around = CellSet::EMPTY;
        for r in region.iter() {
            around |= geo.nbrs(r);
        }
        let touching = around & own;
        let Some(first) = touching.first() else {
            dead |= region;
            continue;
        };
        let a = geo.component(first, own);
        let rest = touching - a;
        let Some(second) = rest.first() else {
            dead |= region;
            continue;
        };
        let b = geo.component(second, own);
        if !(rest - b).is_empty() {
            continue; // three or more P groups
        }
        let common = region & neighbours_of(geo, a) & neighbours_of(geo, b);
        if common.len() >= 2 {
            captured |= region;
        }
    }
    (dead, captured)
}

/// True when empty `c` lies in a region (for either colour: the cuts are the same) that
/// touches at most one group of Black or at most one group of White: a dead region, so `c`
/// is dead (module docs).
pub fn in_dead_region(geo: &Geometry, black: CellSet, white: CellSet, c: Cell) -> bool {
    let empty = geo.cells() - black - white;
    let (bo, wo) = (
        geo.owned(Colour::Black, black, white),
        geo.owned(Colour::White, black, white),
    );
    let region = region_of(geo, c, empty, bo, wo);
    let around = neighbours_of(geo, region);
    [bo, wo].into_iter().any(|own| {
        let touching = around & own;
        match touching.first() {
            None => true,
            Some(first) => (touching - geo.component(first, own)).is_empty(),
        }
    })
}

/// A split of the game for `x` (Theorem 1, in the form proved in the module docs, "Splits"):
/// the empty cells on the side of `x`'s first border and on the side of its second border of
/// an `x` group G that every `x` winning path must pass, or `None`.
pub fn split(
    geo: &Geometry,
    black: CellSet,
    white: CellSet,
    x: Colour,
) -> Option<(CellSet, CellSet)> {
    let empty = geo.cells() - black - white;
    let own = geo.owned(x, black, white);
    let opp = geo.owned(x.opponent(), black, white);
    // The groups of x (its borders included), as bitsets of at most 64 groups.
    let mut groups: Vec<CellSet> = Vec::new();
    let mut left = own;
    while let Some(c) = left.first() {
        let g = geo.component(c, own);
        left -= g;
        groups.push(g);
    }
    if groups.len() > 64 {
        return None;
    }
    let [tb, bb] = x.borders();
    let index = |c: Cell| groups.iter().position(|g| g.contains(c));
    let (t, b) = (index(Cell::border(tb))?, index(Cell::border(bb))?);
    if t == b {
        return None;
    }
    let reach: Vec<CellSet> = groups.iter().map(|&g| neighbours_of(geo, g)).collect();
    // The regions and the groups each touches.
    let mut regions: Vec<(CellSet, u64)> = Vec::new();
    let mut seen = CellSet::EMPTY;
    for start in empty.iter() {
        if seen.contains(start) {
            continue;
        }
        let region = region_of(geo, start, empty, own, opp);
        seen |= region;
        let mut mask = 0u64;
        for (i, r) in reach.iter().enumerate() {
            if !(*r & region).is_empty() {
                mask |= 1 << i;
            }
        }
        regions.push((region, mask));
    }
    for g in 0..groups.len() {
        if g == t || g == b {
            continue;
        }
        let cut = !(1u64 << g);
        let mut from_t = 1u64 << t;
        loop {
            let mut next = from_t;
            for &(_, m) in &regions {
                if m & from_t != 0 {
                    next |= m & cut;
                }
            }
            if next == from_t {
                break;
            }
            from_t = next;
        }
        if from_t & (1 << b) != 0 {
            continue;
        }
        let mut side1 = CellSet::EMPTY;
        for &(r, m) in &regions {
            if m & from_t != 0 {
                side1 |= r;
            }
        }
        let side2 = empty - side1;
        if !side1.is_empty() && !side2.is_empty() {
            return Some((side1, side2));
        }
    }
    None
}

/// The cells adjacent to some cell of `set`.
fn neighbours_of(geo: &Geometry, set: CellSet) -> CellSet {
    let mut n = CellSet::EMPTY;
    for c in set.iter() {
        n |= geo.nbrs(c);
    }
    n
}

/// The region of `start` among `empty`: flood fill over adjacencies that are not cut by an
/// opposite-colour bridge (a common neighbour in `own` and one in `opp`).
fn region_of(geo: &Geometry, start: Cell, empty: CellSet, own: CellSet, opp: CellSet) -> CellSet {
    let mut region = CellSet::single(start);
    let mut frontier = region;
    while !frontier.is_empty() {
        let mut next = CellSet::EMPTY;
        for r in frontier.iter() {
            let nr = geo.nbrs(r);
            for e in (nr & (empty - region - next)).iter() {
                let common = nr & geo.nbrs(e);
                if (common & own).is_empty() || (common & opp).is_empty() {
                    next.insert(e);
                }
            }
        }
        region |= next;
        frontier = next;
    }
    region
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::dfpn::inferior::geometry;
    use crate::dfpn::tests_support::minimax;
    use crate::position::Position;

    fn pos(n: u32, b: &str, w: &str) -> Position {
        Position::from_names(Board::square(n).unwrap(), b, w, Notation::Letters).unwrap()
    }

    /// Exhaustive cross-check on 4×4 positions reached by random play: filling a region
    /// (dead, or captured with its bridge) never changes the winner, for either player to
    /// move; a split's halves decide the position; and each rule fires.
    #[test]
    fn region_fill_keeps_winner() {
        let b = Board::square(4).unwrap();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        let (mut fired_dead, mut fired_captured, mut fired_split) = (0, 0, 0);
        for _ in 0..250 {
            let mut p = Position::empty(b);
            let stones = 6 + next(4);
            let mut colour = Colour::Black;
            for _ in 0..stones {
                let empty: Vec<Cell> = p.empty_cells().iter().collect();
                p.play(colour, empty[next(empty.len())]).unwrap();
                colour = colour.opponent();
            }
            if p.winner().is_some() {
                continue;
            }
            let geo = geometry(&b);
            let (bl, wh) = (p.stones(Colour::Black), p.stones(Colour::White));
            let mut v: [Option<bool>; 2] = [None, None];
            let mut value =
                |to_move: Colour| *v[to_move as usize].get_or_insert_with(|| minimax(&p, to_move));
            for pc in [Colour::Black, Colour::White] {
                let (dead, captured) = regions(&geo, bl, wh, pc);
                if let Some((side1, side2)) = split(&geo, bl, wh, pc) {
                    // The opponent of pc to move wins iff it wins one half.
                    fired_split += 1;
                    let y = pc.opponent();
                    let half = |side: CellSet| {
                        let mut h = p.clone();
                        for c in side.iter() {
                            h.play(pc, c).unwrap();
                        }
                        minimax(&h, y)
                    };
                    let either = half(side1) || half(side2);
                    assert_eq!(value(y), either, "{p:?} split for {pc}");
                }
                for to_move in [Colour::Black, Colour::White] {
                    if !dead.is_empty() {
                        fired_dead += 1;
                        for fill in [Colour::Black, Colour::White] {
                            let mut f = p.clone();
                            for c in dead.iter() {
                                f.play(fill, c).unwrap();
                            }
                            let want = value(to_move);
                            assert_eq!(minimax(&f, to_move), want, "{p:?} dead {dead:?}");
                        }
                    }
                    if !captured.is_empty() {
                        fired_captured += 1;
                        let mut f = p.clone();
                        for c in captured.iter() {
                            f.play(pc, c).unwrap();
                        }
                        let want = value(to_move);
                        assert_eq!(minimax(&f, to_move), want, "{p:?} {pc} fills {captured:?}");
                    }
                }
            }
        }
        assert!(
            fired_dead > 0 && fired_captured > 0 && fired_split > 0,
            "{fired_dead} {fired_captured} {fired_split}"
        );
    }

    #[test]
    fn bridge_pocket_is_captured() {
        // 5x5: Black's b2 and c3 form a bridge on c2 and b3, and White's stones close the
        // region {c2, b3} all around: it touches two Black groups and holds their bridge.
        let p = pos(5, "b2 c3", "a3 a4 b4 c1 d1 d2");
        let geo = geometry(p.board());
        let (_, captured) = regions(
            &geo,
            p.stones(Colour::Black),
            p.stones(Colour::White),
            Colour::Black,
        );
        let c2 = p.board().parse_cell("c2", Notation::Letters).unwrap();
        let b3 = p.board().parse_cell("b3", Notation::Letters).unwrap();
        assert!(
            captured.contains(c2) && captured.contains(b3),
            "{captured:?}"
        );
    }
}
