//! Proof-set transpositions (Henderson, Arneson & Hayward 2009, §6: "any cells outside the
//! proof set can be assigned to the losing player without affecting the result").
//!
//! A solved position q with winner P and proof set S (empty cells of q, in the sense of
//! [`super::proof_set`]: P still wins when the loser Q gets every empty cell of q outside S)
//! decides every position q′ with
//! - the same player to move,
//! - exactly P's stones of q, and
//! - Q's stones anywhere outside S.
//!
//! Why: give Q every empty cell of q outside S; P wins that position f (the proof set's
//! definition). q′ has P's stones of f and, since its Q stones avoid S and P's stones, a
//! subset of f's Q stones: q′ is f with some Q stones removed, and removing opponent stones
//! never hurts in Hex (monotonicity; the same fact proof-set pruning rests on). S is again a
//! proof set of q′: giving Q every empty cell of q′ outside S gives f back.
//!
//! Henderson et al. enumerate the deduced positions into their database for positions of
//! at most k stones. Here the rule is applied at lookup time instead, to positions of any
//! size: solved positions are indexed by (player to move, winner, winner's stones), and a
//! position the table does not know is answered when one of its bucket's proof sets avoids
//! its loser's stones. A hit saves the connection build of the position and its subtree:
//! the typical one is a sub-strategy of the winner that does not depend on where the loser
//! played earlier (a transposition across the loser's alternatives higher up the tree).
//!
//! Keys are taken as the table takes them (after fill-in, canonical under the 180°
//! rotation), so a bucket holds a position and its image once. Within a bucket a proof set
//! that contains another one adds nothing (it decides fewer positions) and is not kept.
//! The index is bounded like the table: past its capacity it is cleared (any subset of
//! exact facts is exact, so that changes only the work).
//!
//! Off by default (`hexproof solve --transpositions`): measured in session 40, it answers
//! 1–4 % of the positions but does not shrink the trees overall (8×8 g2 8,257 → 7,749
//! positions, f1 −2 %, a1 −3 %, g1 +6 %, e4 5,003 → 13,627; 7×7's 49 47,578 → 47,830),
//! docs/journal/solver-session40.md.

use super::tt::Key;
use crate::board::{Cell, CellSet, Colour};
use hashbrown::HashMap;

/// Proof sets kept per bucket (same player to move, winner and winner's stones): the
/// oldest is dropped past it.
const PER_BUCKET: usize = 8;

/// A deduced answer: the winner, a proof set and (when the winner is to move) a winning move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deduced {
    /// Who wins.
    pub winner: Colour,
    /// A proof set of the position asked about (empty cells there).
    pub proof: CellSet,
    /// The stored winning move, when the winner is to move and it is empty here.
    pub best: Option<Cell>,
}

/// The index of solved positions by (to move, winner, winner's stones).
pub struct Transpositions {
    map: HashMap<(CellSet, u8), Vec<(CellSet, Option<Cell>)>>,
    entries: usize,
    capacity: usize,
    /// Times the index was cleared (past its capacity).
    pub clears: u64,
}

fn code(to_move: Colour, winner: Colour) -> u8 {
    (u8::from(to_move == Colour::White) << 1) | u8::from(winner == Colour::White)
}

fn stones(key: &Key, c: Colour) -> CellSet {
    match c {
        Colour::Black => key.black,
        Colour::White => key.white,
    }
}

impl Transpositions {
    /// An empty index of at most `capacity` proof sets.
    pub fn new(capacity: usize) -> Transpositions {
        Transpositions {
            map: HashMap::new(),
            entries: 0,
            capacity: capacity.max(1024),
            clears: 0,
        }
    }

    /// Proof sets held.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Records that `winner` wins the position of `key` with proof set `proof` (its cells
    /// that hold stones are ignored) and, when the winner is to move, winning move `best`.
    pub fn put(&mut self, key: &Key, winner: Colour, proof: CellSet, best: Option<Cell>) {
        let s = proof - key.black - key.white;
        let best = best.filter(|_| winner == key.to_move);
        let bucket = self
            .map
            .entry((stones(key, winner), code(key.to_move, winner)))
            .or_default();
        if bucket.iter().any(|(t, _)| t.is_subset(&s)) {
            return;
        }
        let before = bucket.len();
        bucket.retain(|(t, _)| !s.is_subset(t));
        if bucket.len() >= PER_BUCKET {
            bucket.remove(0);
        }
        bucket.push((s, best));
        let after = bucket.len();
        self.entries = self.entries + after - before;
        if self.entries > self.capacity {
            self.map.clear();
            self.entries = 0;
            self.clears += 1;
        }
    }

    /// The answer for the position of `key` deduced from a solved position with the same
    /// player to move, the same winner's stones or all but `extra` of them (an extra stone
    /// of the winner never hurts it), and a proof set that avoids the loser's stones of
    /// `key`; the winner to move is tried first.
    pub fn get(&self, key: &Key, extra: usize) -> Option<Deduced> {
        for winner in [key.to_move, key.to_move.opponent()] {
            let own = stones(key, winner);
            let loser = stones(key, winner.opponent());
            let c = code(key.to_move, winner);
            let found = self.find(own, c, loser).or_else(|| {
                if extra == 0 {
                    return None;
                }
                let cells: Vec<Cell> = own.iter().collect();
                for (i, &a) in cells.iter().enumerate() {
                    let mut fewer = own;
                    fewer.remove(a);
                    if let Some(f) = self.find(fewer, c, loser) {
                        return Some(f);
                    }
                    if extra >= 2 {
                        for &b in &cells[i + 1..] {
                            let mut two = fewer;
                            two.remove(b);
                            if let Some(f) = self.find(two, c, loser) {
                                return Some(f);
                            }
                        }
                    }
                }
                None
            });
            if let Some((proof, best)) = found {
                let occupied = key.black | key.white;
                return Some(Deduced {
                    winner,
                    proof: proof - occupied,
                    best: best.filter(|&c| !occupied.contains(c)),
                });
            }
        }
        None
    }

    /// Every fact held: (player to move, winner, winner's stones, proof set), for tests
    /// that check them against an exact search.
    pub fn facts(&self) -> Vec<(Colour, Colour, CellSet, CellSet)> {
        let colour = |white: bool| if white { Colour::White } else { Colour::Black };
        let mut out = Vec::new();
        for (&(own, c), bucket) in &self.map {
            for &(s, _) in bucket {
                out.push((colour(c & 2 != 0), colour(c & 1 != 0), own, s));
            }
        }
        out
    }

    /// A proof set of bucket (`own`, `c`) that avoids `loser`.
    fn find(&self, own: CellSet, c: u8, loser: CellSet) -> Option<(CellSet, Option<Cell>)> {
        self.map
            .get(&(own, c))?
            .iter()
            .find(|(s, _)| s.is_disjoint(&loser))
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Notation};
    use crate::position::Position;

    fn key(b: &Board, black: &str, white: &str, to_move: Colour) -> Key {
        let p = Position::from_names(*b, black, white, Notation::Letters).unwrap();
        Key {
            black: p.stones(Colour::Black),
            white: p.stones(Colour::White),
            to_move,
        }
    }

    fn cells(b: &Board, names: &str) -> CellSet {
        let mut s = CellSet::EMPTY;
        for n in names.split_whitespace() {
            s.insert(b.parse_cell(n, Notation::Letters).unwrap());
        }
        s
    }

    /// A solved position answers the positions with the same winner's stones whose loser's
    /// stones avoid its proof set, and no others.
    #[test]
    fn a_proof_set_decides_the_positions_whose_loser_stones_avoid_it() {
        let b = Board::square(5).unwrap();
        let mut t = Transpositions::new(1024);
        let c3 = b.parse_cell("c3", Notation::Letters).unwrap();
        // Black (to move) wins with c3, proof set c1 c2 c3 c4 c5.
        t.put(
            &key(&b, "b2", "a1", Colour::Black),
            Colour::Black,
            cells(&b, "c1 c2 c3 c4 c5"),
            Some(c3),
        );
        // White's stone elsewhere (not in the proof set): the same answer.
        let d = t.get(&key(&b, "b2", "e5", Colour::Black), 0).unwrap();
        assert_eq!((d.winner, d.best), (Colour::Black, Some(c3)));
        assert_eq!(d.proof, cells(&b, "c1 c2 c3 c4 c5"));
        // Two White stones outside it, or none: still decided.
        assert!(t.get(&key(&b, "b2", "a1 e5", Colour::Black), 0).is_some());
        assert!(t.get(&key(&b, "b2", "", Colour::Black), 0).is_some());
        // A White stone inside the proof set: not decided.
        assert_eq!(t.get(&key(&b, "b2", "c4", Colour::Black), 0), None);
        // Other Black stones, or the other player to move: not this bucket.
        assert_eq!(t.get(&key(&b, "b2 d4", "a1", Colour::Black), 0), None);
        assert_eq!(t.get(&key(&b, "d4", "a1", Colour::Black), 1), None);
        // One or two extra Black stones (not in the proof set's way): decided with `extra`.
        let d = t.get(&key(&b, "b2 d4", "a1", Colour::Black), 1).unwrap();
        assert_eq!(d.winner, Colour::Black);
        let d = t.get(&key(&b, "b2 c2 d4", "a1", Colour::Black), 2).unwrap();
        assert_eq!(
            d.proof,
            cells(&b, "c1 c3 c4 c5"),
            "the stone on c2 leaves the set"
        );
        assert_eq!(t.get(&key(&b, "b2 c2 d4", "a1", Colour::Black), 1), None);
        assert_eq!(
            t.get(&key(&b, "b2 c3 d4", "a1", Colour::Black), 2)
                .map(|d| d.best),
            Some(None)
        );
        assert_eq!(t.get(&key(&b, "b2", "a1", Colour::White), 0), None);
    }

    /// A proof set contained in another one replaces it; one containing a kept one is not
    /// kept; a bucket keeps at most [`PER_BUCKET`] sets; past its capacity the index clears.
    #[test]
    fn smaller_proof_sets_replace_larger_ones_and_the_index_is_bounded() {
        let b = Board::square(5).unwrap();
        let mut t = Transpositions::new(1024);
        let k = key(&b, "b2", "a1", Colour::White);
        t.put(&k, Colour::Black, cells(&b, "c1 c2 c3"), None);
        t.put(&k, Colour::Black, cells(&b, "c1 c2 c3 d1"), None);
        assert_eq!(t.len(), 1);
        t.put(&k, Colour::Black, cells(&b, "c1 c2"), None);
        assert_eq!(t.len(), 1);
        let d = t.get(&key(&b, "b2", "c3", Colour::White), 0).unwrap();
        assert_eq!((d.winner, d.proof), (Colour::Black, cells(&b, "c1 c2")));
        // A White win of the same position is its own bucket; stones in a proof set drop.
        t.put(&k, Colour::White, cells(&b, "a1 e5 e4"), None);
        let d = t.get(&key(&b, "b2", "a1", Colour::White), 0).unwrap();
        assert_eq!(d.winner, Colour::White, "the player to move is tried first");
        assert_eq!(t.len(), 2);
        // Bucket bound: disjoint singletons, never subsets of each other.
        let all: Vec<Cell> = b.cells().iter().collect();
        let e1 = key(&b, "e1", "", Colour::Black);
        for &c in all.iter().filter(|&&c| !e1.black.contains(c)).take(20) {
            let mut s = CellSet::EMPTY;
            s.insert(c);
            t.put(&e1, Colour::Black, s, None);
        }
        assert_eq!(t.len(), 2 + PER_BUCKET);
        // Capacity: many buckets.
        let mut small = Transpositions::new(1024);
        for (i, &c) in all.iter().enumerate() {
            for &d in &all[i + 1..] {
                let mut black = CellSet::EMPTY;
                black.insert(c);
                black.insert(d);
                let k = Key {
                    black,
                    white: CellSet::EMPTY,
                    to_move: Colour::White,
                };
                for e in all.iter().filter(|&&e| !black.contains(e)).take(4) {
                    let mut s = CellSet::EMPTY;
                    s.insert(*e);
                    small.put(&k, Colour::Black, s, None);
                }
            }
        }
        assert!(small.clears >= 1 && small.len() <= 1024);
    }
}
