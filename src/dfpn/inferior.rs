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
//! - **ICE patterns** ([`crate::ice`]): captured sets of three and four cells matched by the
//!   certified pattern library (each pattern's strategy re-checked by `trusted::ice` before
//!   the CLI installs the library); they get P stones like captured pairs (§3).
//! - **Fill-in**: dead cells get a stone (the colour does not matter; we use the opponent of
//!   the player the position is evaluated for, so a fill never creates spurious own
//!   connections), captured pairs get P stones, repeated until nothing changes.
//!
//! Every fill preserves the game value, so the solver may search the filled position instead
//! of the original one; a proof exported from the solver is written for the original
//! position and re-proved by the checker (see `prove::emit`).

use crate::board::{Board, Cell, CellSet, Colour};
use crate::position::Position;
use std::cell::RefCell;
use std::rc::Rc;

/// Which inferior-cell rules are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InferiorRules {
    /// Fill dead cells.
    pub dead: bool,
    /// Fill captured pairs.
    pub captured: bool,
    /// Fill regions cut off by opposite-colour bridges ([`super::decompose`]): dead regions,
    /// and regions with a bridge between their two groups of one colour (Theorem 2).
    pub decompose: bool,
    /// Fill captured sets matched by the certified ICE patterns ([`crate::ice`], three or
    /// more cells; the installed library only, see [`crate::ice::install`]).
    pub patterns: bool,
    /// When set, fill-in gives cells to this colour only: dead cells (either colour is
    /// exact) and this colour's captured pairs and regions; the other colour's captures stay
    /// empty. With `Some(White)`, a Black win found in the filled position is a Black win in
    /// the real one (White's extra stones only take cells from Black), which the whole-board
    /// engine's certificates need (`engine::whole`).
    pub only: Option<Colour>,
}

impl InferiorRules {
    /// Everything on.
    pub const ALL: InferiorRules = InferiorRules {
        dead: true,
        captured: true,
        decompose: true,
        patterns: true,
        only: None,
    };
    /// Everything off.
    pub const NONE: InferiorRules = InferiorRules {
        dead: false,
        captured: false,
        decompose: false,
        patterns: false,
        only: None,
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
    /// Cells filled as regions ([`super::decompose`]), dead or captured (also in the sets
    /// above).
    pub regions: CellSet,
    /// Cells filled as captured sets matched by ICE patterns (also in the captured sets
    /// above).
    pub patterns: CellSet,
}

/// The cell geometry of one board, precomputed: the board's cells and each cell's (and
/// border's) neighbours, so the inferior-cell tests run on bitsets only.
#[derive(Clone, Debug)]
pub struct Geometry {
    board: Board,
    cells: CellSet,
    nbrs: Vec<CellSet>,
    borders: [CellSet; 2],
}

impl Geometry {
    /// The geometry of `board`.
    pub fn new(board: &Board) -> Geometry {
        Geometry {
            board: *board,
            cells: board.cells(),
            nbrs: crate::ice::local::neighbour_table(board),
            borders: [
                board.border_cells(Colour::Black),
                board.border_cells(Colour::White),
            ],
        }
    }

    /// The board's cells.
    pub fn cells(&self) -> CellSet {
        self.cells
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The neighbours of a cell or border.
    #[inline]
    pub fn nbrs(&self, c: Cell) -> CellSet {
        self.nbrs[c.index()]
    }

    /// The chain of `c` within `cells` (flood fill).
    #[inline]
    pub fn component(&self, c: Cell, cells: CellSet) -> CellSet {
        crate::ice::local::flood(&self.nbrs, c, cells)
    }

    /// Who has joined their borders with `black`, `white` stones (as
    /// [`Position::winner`]).
    pub fn winner(&self, black: CellSet, white: CellSet) -> Option<Colour> {
        [Colour::Black, Colour::White].into_iter().find(|&colour| {
            let [a, b] = colour.borders();
            let own = self.owned(colour, black, white);
            self.component(Cell::border(a), own)
                .contains(Cell::border(b))
        })
    }

    /// The cells `colour` owns: its stones and its two borders.
    #[inline]
    pub fn owned(&self, colour: Colour, black: CellSet, white: CellSet) -> CellSet {
        match colour {
            Colour::Black => black | self.borders[0],
            Colour::White => white | self.borders[1],
        }
    }

    /// True when the usable neighbours of empty `cell` form a clique for a player owning
    /// `owned` with `empty` the other usable cells (see the module docs).
    #[inline]
    fn clique(&self, owned: CellSet, mut empty: CellSet, cell: Cell) -> bool {
        empty.remove(cell);
        let nb = self.nbrs(cell);
        let own_nb = nb & owned;
        let empty_nb = nb & empty;
        // The tests are a conjunction, so their order does not change the answer: the
        // cheap ones first, the flood fill of the player's chain last and only when needed.
        // The empty neighbours are pairwise adjacent.
        let mut far = CellSet::EMPTY;
        for a in empty_nb.iter() {
            let na = self.nbrs(a);
            let mut others = empty_nb;
            others.remove(a);
            if !others.is_subset(&na) {
                return false;
            }
            if (na & own_nb).is_empty() {
                far.insert(a);
            }
        }
        // At most one chain of the player among the neighbours, and every empty neighbour
        // touches it. An empty neighbour next to an owned neighbour touches the chain once
        // the owned neighbours are in it; they are when they are connected among
        // themselves (a flood within the few owned neighbours, no board-wide fill).
        let Some(first) = own_nb.first() else {
            return true;
        };
        if far.is_empty() && crate::ice::local::flood(&self.nbrs, first, own_nb) == own_nb {
            return true;
        }
        let chain = self.component(first, owned);
        if !(own_nb - chain).is_empty() {
            return false;
        }
        far.iter().all(|a| !(self.nbrs(a) & chain).is_empty())
    }

    /// True when empty `cell` is dead with `black`, `white` stones and an extra `extra.1`
    /// stone on `extra.0`.
    pub fn dead(
        &self,
        black: CellSet,
        white: CellSet,
        cell: Cell,
        extra: Option<(Cell, Colour)>,
    ) -> bool {
        let mut usable = self.cells - black - white;
        // An extra stone of either colour removes a usable cell; one of the colour tested
        // also joins its owned cells.
        if let Some((x, _)) = extra {
            usable.remove(x);
        }
        // The test on the empty neighbours does not depend on the colour: made once.
        if !self.empty_clique(usable, cell) {
            return false;
        }
        [Colour::Black, Colour::White].into_iter().any(|colour| {
            let mut owned = self.owned(colour, black, white);
            if let Some((x, c)) = extra {
                if c == colour {
                    owned.insert(x);
                }
            }
            self.clique(owned, usable, cell)
        })
    }

    /// True when the neighbours of `cell` in `usable` (other than `cell`) are pairwise
    /// adjacent: the part of [`Geometry::dead`]'s test that does not depend on the colour
    /// (a cell failing it is dead for neither colour).
    #[inline]
    pub fn empty_clique(&self, mut usable: CellSet, cell: Cell) -> bool {
        usable.remove(cell);
        let empty_nb = self.nbrs(cell) & usable;
        empty_nb.iter().all(|a| {
            let mut others = empty_nb;
            others.remove(a);
            others.is_subset(&self.nbrs(a))
        })
    }
}

thread_local! {
    static GEOMETRY: RefCell<Option<Rc<Geometry>>> = const { RefCell::new(None) };
}

/// The geometry of `board`, cached per thread (the solver works on one board at a time).
pub fn geometry(board: &Board) -> Rc<Geometry> {
    GEOMETRY.with(|g| {
        let mut g = g.borrow_mut();
        match &*g {
            Some(geo) if geo.board == *board => geo.clone(),
            _ => {
                let geo = Rc::new(Geometry::new(board));
                *g = Some(geo.clone());
                geo
            }
        }
    })
}

/// True when empty `cell` is dead in `pos` (with an extra `extra.1` stone on `extra.0`).
pub fn is_dead_with(pos: &Position, cell: Cell, extra: Option<(Cell, Colour)>) -> bool {
    let geo = geometry(pos.board());
    geo.dead(
        pos.stones(Colour::Black),
        pos.stones(Colour::White),
        cell,
        extra,
    )
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
    if !rules.dead && !rules.captured && !rules.decompose && !rules.patterns {
        return filled;
    }
    let geo = geometry(pos.board());
    let mut black = pos.stones(Colour::Black);
    let mut white = pos.stones(Colour::White);
    let dead_to_black = match rules.only {
        Some(c) => c == Colour::Black,
        None => for_colour == Colour::White,
    };
    let fills = |c: Colour| rules.only.is_none_or(|o| o == c);
    loop {
        let mut changed = false;
        if rules.dead {
            for c in (geo.cells - black - white).iter() {
                if geo.dead(black, white, c, None) {
                    if dead_to_black {
                        black.insert(c);
                    } else {
                        white.insert(c);
                    }
                    filled.dead.insert(c);
                    changed = true;
                }
            }
        }
        if rules.captured {
            'pairs: for a in (geo.cells - black - white).iter() {
                let empty = geo.cells - black - white;
                if !empty.contains(a) {
                    continue;
                }
                let nb = geo.nbrs(a) & empty;
                for b in nb.iter() {
                    if b.index() < a.index() {
                        continue;
                    }
                    // The colour-independent half of both tests below, made once.
                    let (mut without_a, mut without_b) = (empty, empty);
                    without_a.remove(a);
                    without_b.remove(b);
                    if !geo.empty_clique(without_a, b) || !geo.empty_clique(without_b, a) {
                        continue;
                    }
                    for colour in [Colour::Black, Colour::White] {
                        if fills(colour)
                            && geo.dead(black, white, b, Some((a, colour)))
                            && geo.dead(black, white, a, Some((b, colour)))
                        {
                            let (stones, set) = match colour {
                                Colour::Black => (&mut black, &mut filled.black_captured),
                                Colour::White => (&mut white, &mut filled.white_captured),
                            };
                            stones.insert(a);
                            stones.insert(b);
                            set.insert(a);
                            set.insert(b);
                            changed = true;
                            continue 'pairs;
                        }
                    }
                }
            }
        }
        if rules.patterns {
            let placements = crate::ice::placements(geo.board());
            for m in placements.matching(black, white) {
                // An earlier fill of this round may have taken a cell of the set.
                if fills(m.colour) && m.matches(black, white) {
                    let (stones, set) = match m.colour {
                        Colour::Black => (&mut black, &mut filled.black_captured),
                        Colour::White => (&mut white, &mut filled.white_captured),
                    };
                    *stones |= m.set;
                    *set |= m.set;
                    filled.patterns |= m.set;
                    changed = true;
                }
            }
        }
        if rules.decompose {
            for colour in [Colour::Black, Colour::White] {
                let (dead, captured) = super::decompose::regions(&geo, black, white, colour);
                if !dead.is_empty() {
                    if dead_to_black {
                        black |= dead;
                    } else {
                        white |= dead;
                    }
                    filled.dead |= dead;
                    filled.regions |= dead;
                    changed = true;
                }
                if !captured.is_empty() && fills(colour) {
                    match colour {
                        Colour::Black => {
                            black |= captured;
                            filled.black_captured |= captured;
                        }
                        Colour::White => {
                            white |= captured;
                            filled.white_captured |= captured;
                        }
                    }
                    filled.regions |= captured;
                    changed = true;
                }
            }
        }
        if !changed || geo.winner(black, white).is_some() {
            break;
        }
    }
    for c in (black - pos.stones(Colour::Black)).iter() {
        let _ = pos.play(Colour::Black, c);
    }
    for c in (white - pos.stones(Colour::White)).iter() {
        let _ = pos.play(Colour::White, c);
    }
    filled
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

    /// The clique test as it was written before the flood fill was made lazy (session 22):
    /// the player's chain first, then every empty neighbour.
    fn clique_reference(geo: &Geometry, owned: CellSet, mut empty: CellSet, cell: Cell) -> bool {
        empty.remove(cell);
        let nb = geo.nbrs(cell);
        let own_nb = nb & owned;
        let empty_nb = nb & empty;
        let mut chain = CellSet::EMPTY;
        if let Some(first) = own_nb.first() {
            chain = geo.component(first, owned);
            if !(own_nb - chain).is_empty() {
                return false;
            }
        }
        for a in empty_nb.iter() {
            let na = geo.nbrs(a);
            if !chain.is_empty() && (na & chain).is_empty() {
                return false;
            }
            let mut others = empty_nb;
            others.remove(a);
            if !others.is_subset(&na) {
                return false;
            }
        }
        true
    }

    /// The lazy clique test answers as the reference on random positions (fixed seed), for
    /// every empty cell, both colours, with and without an extra stone.
    #[test]
    fn lazy_clique_matches_the_reference() {
        let mut seed: u64 = 0x5eed_2222_c11c_0e55;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        let (mut checked, mut cliques) = (0, 0);
        for n in [4u32, 5, 6, 7] {
            let b = Board::square(n).unwrap();
            let geo = Geometry::new(&b);
            let cells: Vec<Cell> = b.cells().iter().collect();
            for _ in 0..300 {
                let (mut black, mut white) = (CellSet::EMPTY, CellSet::EMPTY);
                for _ in 0..next(cells.len()) {
                    let c = cells[next(cells.len())];
                    if black.contains(c) || white.contains(c) {
                        continue;
                    }
                    if next(2) == 0 {
                        black.insert(c);
                    } else {
                        white.insert(c);
                    }
                }
                let empty = geo.cells() - black - white;
                for c in empty.iter() {
                    for colour in [Colour::Black, Colour::White] {
                        let owned = geo.owned(colour, black, white);
                        let want = clique_reference(&geo, owned, empty, c);
                        assert_eq!(
                            geo.clique(owned, empty, c),
                            want,
                            "{black:?} {white:?} {c:?}"
                        );
                        cliques += want as usize;
                        let x = cells[next(cells.len())];
                        if empty.contains(x) && x != c {
                            let (mut o, mut u) = (owned, empty);
                            u.remove(x);
                            if next(2) == 0 {
                                o.insert(x);
                            }
                            let want = clique_reference(&geo, o, u, c);
                            assert_eq!(
                                geo.clique(o, u, c),
                                want,
                                "{black:?} {white:?} {c:?} {x:?}"
                            );
                        }
                        checked += 1;
                    }
                    // `dead` (its colour-independent test made first) against the
                    // reference clique test of each colour, without and with an extra stone.
                    let reference = |extra: Option<(Cell, Colour)>| {
                        [Colour::Black, Colour::White].into_iter().any(|colour| {
                            let (mut o, mut u) = (geo.owned(colour, black, white), empty);
                            if let Some((x, xc)) = extra {
                                u.remove(x);
                                if xc == colour {
                                    o.insert(x);
                                }
                            }
                            clique_reference(&geo, o, u, c)
                        })
                    };
                    assert_eq!(geo.dead(black, white, c, None), reference(None));
                    let x = cells[next(cells.len())];
                    if empty.contains(x) && x != c {
                        for xc in [Colour::Black, Colour::White] {
                            let e = Some((x, xc));
                            assert_eq!(geo.dead(black, white, c, e), reference(e), "{x:?}");
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000 && cliques > 100, "{checked} {cliques}");
    }

    #[test]
    fn fill_in_keeps_winner_on_small_boards() {
        // Exhaustive cross-check on 3x3: the fill-in never changes who wins with perfect play.
        use crate::dfpn::tests_support::minimax;
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
                            for only in [None, Some(Colour::White), Some(Colour::Black)] {
                                let rules = InferiorRules {
                                    only,
                                    ..InferiorRules::ALL
                                };
                                let mut f = p.clone();
                                fill_in(&mut f, rules, to_move);
                                assert_eq!(minimax(&f, to_move), v, "{p:?} {to_move} {only:?}");
                                // `only` gives cells to that colour alone.
                                if let Some(c) = only {
                                    let o = c.opponent();
                                    assert_eq!(f.stones(o), p.stones(o), "{p:?} {only:?}");
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 100);
    }
}
