//! Vulnerable cells (Henderson, Arneson & Hayward 2009, §3; Björnsson et al. 2007): an empty
//! cell c is **P-vulnerable** when some Q reply k (the *killer*) makes c dead. The solver
//! does not search P's moves into P-vulnerable cells.
//!
//! # Why pruning every vulnerable move is sound
//!
//! Deadness here is the neighbourhood-clique test of [`super::inferior`], or membership of a
//! dead region ([`super::decompose`]); both prove real deadness (the colour of c never
//! changes the winner of any completion). Real deadness is
//! monotone: more stones of either colour keep a dead cell dead. Let V be the P-vulnerable
//! empty cells of a position S (P to move, not yet won), each c with a killer k(c) found in S.
//!
//! **Claim: if P wins S, P has a winning move outside V.** Suppose every winning move is in
//! V. Build S₀ = S, and while P (to move) wins Sᵢ pick a winning move cᵢ of Sᵢ. Sᵢ is S plus
//! Q stones only, so cᵢ also wins in S (fewer Q stones), hence cᵢ ∈ V with killer kᵢ, which
//! is empty or Q in Sᵢ (never P, never cᵢ):
//!
//! - kᵢ empty: cᵢ is dead in Sᵢ + Q kᵢ (monotone). P wins Sᵢ + P cᵢ, so also after the Q
//!   reply kᵢ; there cᵢ is dead, so its colour may be flipped: P wins Sᵢ₊₁ = Sᵢ + Q kᵢ + Q cᵢ
//!   with P to move.
//! - kᵢ already Q: cᵢ is dead in Sᵢ; P wins Sᵢ + P cᵢ with Q to move, so (flipping cᵢ) P
//!   wins Sᵢ + Q cᵢ with Q to move, hence also with P to move (in Hex a move never hurts):
//!   Sᵢ₊₁ = Sᵢ + Q cᵢ.
//!
//! Each step adds a Q stone and keeps "P to move wins", so the board fills up with P's stones
//! unchanged and P winning: P's stones of S already join its borders, a contradiction.
//!
//! Capture-domination pruning ([`super::mid`]) is applied afterwards to the moves that are
//! left (a dominated move is pruned only for a kept dominator), so together they keep a
//! winning move whenever there is one: there is a winning move outside V, and domination
//! among the moves outside V keeps one of those.
//!
//! # Proof sets
//!
//! At a lost node, each pruned move c adds {c, k(c)} to Q's proof set: against P's c, Q
//! plays k(c) and treats c as its own stone (dead), then continues as against P's next move.
//! The argument above, run in the position where P owns every empty cell outside the proof
//! set Π, shows that Q still wins there: every P move in Π is a searched child (refuted
//! within its own proof set ⊆ Π), a move pruned by a proof set (as without this rule), or a
//! vulnerable one, whose killer lies in Π; and that position is not already won by P, since
//! Π contains the mustplay's carriers (Q wins it by a VSC) or a refuted child's proof set,
//! or, with no mustplay and no searched child, every empty cell.
//!
//! # Cost
//!
//! Only the killers that can change the clique test are tried: the empty neighbours of c and
//! the empty neighbours of the Q chains (and Q borders) touching c. A Q stone elsewhere
//! changes neither colour's usable neighbours of c nor how Q's neighbouring chains merge.
//! The same cells are tried, second, as replies closing a dead region around c (a subset of
//! the possible killers for regions: fewer prunings, never a wrong one).

use super::decompose::in_dead_region;
use super::inferior::Geometry;
use crate::board::{Cell, CellSet, Colour};

/// A Q reply (Q = `mover`'s opponent) after which empty `c` is dead, with `black`, `white`
/// stones: `c` is `mover`-vulnerable to it.
pub fn killer(
    geo: &Geometry,
    black: CellSet,
    white: CellSet,
    c: Cell,
    mover: Colour,
) -> Option<Cell> {
    let q = mover.opponent();
    let empty = geo.cells() - black - white;
    let q_owned = geo.owned(q, black, white);
    let nc = geo.nbrs(c);
    let mut zone = nc;
    let mut chains = CellSet::EMPTY;
    for x in (nc & q_owned).iter() {
        if chains.contains(x) {
            continue;
        }
        let chain = geo.component(x, q_owned);
        chains |= chain;
        for y in chain.iter() {
            zone |= geo.nbrs(y);
        }
    }
    let mut candidates = zone & empty;
    candidates.remove(c);
    if let Some(k) = candidates
        .iter()
        .find(|&k| geo.dead(black, white, c, Some((k, q))))
    {
        return Some(k);
    }
    // Then a reply that closes a dead region around c (super::decompose).
    candidates.iter().find(|&k| {
        let (b, w) = match q {
            Colour::Black => (black | CellSet::single(k), white),
            Colour::White => (black, white | CellSet::single(k)),
        };
        in_dead_region(geo, b, w, c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::dfpn::inferior::{geometry, is_dead_with};
    use crate::position::Position;

    #[test]
    fn killers_make_the_cell_dead_and_none_is_missed() {
        // Every killer found is one (the cell is dead after it), and on random 5x5 positions
        // no empty cell outside the searched zone is a killer that the zone misses.
        let b = Board::square(5).unwrap();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        let mut found = 0;
        for _ in 0..300 {
            let mut p = Position::empty(b);
            let mut colour = Colour::Black;
            for _ in 0..(2 + next(10)) {
                let empty: Vec<Cell> = p.empty_cells().iter().collect();
                p.play(colour, empty[next(empty.len())]).unwrap();
                colour = colour.opponent();
            }
            let geo = geometry(&b);
            let (bl, wh) = (p.stones(Colour::Black), p.stones(Colour::White));
            for mover in [Colour::Black, Colour::White] {
                for c in p.empty_cells().iter() {
                    let any = p
                        .empty_cells()
                        .iter()
                        .filter(|&k| k != c)
                        .any(|k| is_dead_with(&p, c, Some((k, mover.opponent()))));
                    match killer(&geo, bl, wh, c, mover) {
                        Some(k) => {
                            found += 1;
                            let q = mover.opponent();
                            let mut after = p.clone();
                            after.play(q, k).unwrap();
                            let (b2, w2) =
                                (after.stones(Colour::Black), after.stones(Colour::White));
                            assert!(
                                is_dead_with(&p, c, Some((k, q)))
                                    || in_dead_region(&geo, b2, w2, c)
                            );
                        }
                        None => assert!(!any, "{p:?} {c:?} {mover}"),
                    }
                }
            }
        }
        assert!(found > 0);
        let _ = Notation::Letters;
    }
}
