//! The endpoints of one colour's connections: its groups and the empty cells.
//!
//! Pawlewicz et al. §II-B: "an endpoint is either an empty cell or a P-chain or a P-colored
//! side". Anshelevich's Appendix A list `G` is the same thing ("a group of connected black
//! cells is considered as a single cell"). A chain that touches a side is one group with that
//! side, so a side is always an endpoint (possibly together with stones).
//!
//! Each endpoint is named by a representative cell: the empty cell itself; for a group, its
//! border if it has one (Top before Bottom, Left before Right), otherwise its smallest stone.
//! Representatives are what the public API hands out, and they are valid endpoints of a
//! [`crate::claim::SubGame`] (owner stone, owner border or empty cell).

use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::position::Position;

/// "No endpoint" in [`Endpoints::index`].
pub const NONE: u16 = u16::MAX;

/// Number of cell indices ([`Cell::index`] is below this).
pub const CELL_SLOTS: usize = 19 * 19 + 4;

/// Groups and empty cells of one colour in one position.
#[derive(Clone, Debug)]
pub struct Endpoints {
    /// The board.
    pub board: Board,
    /// Whose connections.
    pub colour: Colour,
    /// Endpoint index → representative cell.
    pub reps: Vec<Cell>,
    /// Endpoint index → its cells (group: stones and borders; empty cell: itself).
    pub members: Vec<CellSet>,
    /// Endpoint index → true for a group of the colour (a "coloured" AND midpoint).
    pub coloured: Vec<bool>,
    /// Endpoint index → adjacent empty cells.
    pub adj_empty: Vec<CellSet>,
    /// Cell index → endpoint index ([`NONE`] for opponent stones and the opponent's borders).
    pub index: Vec<u16>,
    /// Empty cells of the position.
    pub empty: CellSet,
    /// Representatives of all endpoints.
    pub rep_set: CellSet,
    /// Every on-board cell and the four borders: the "all cells" set (a stand-in for the
    /// universe in intersections; every carrier and endpoint is a subset of it).
    pub universe: CellSet,
}

impl Endpoints {
    /// The endpoints of `colour` in `position`.
    pub fn new(position: &Position, colour: Colour) -> Endpoints {
        let board = *position.board();
        let empty = position.empty_cells();
        let owned = position.owned(colour);
        let mut universe = board.cells();
        for b in Border::ALL {
            universe.insert(Cell::border(b));
        }
        let mut e = Endpoints {
            board,
            colour,
            reps: Vec::new(),
            members: Vec::new(),
            coloured: Vec::new(),
            adj_empty: Vec::new(),
            index: vec![NONE; CELL_SLOTS],
            empty,
            rep_set: CellSet::EMPTY,
            universe,
        };
        // Groups first: the borders (so their groups get the border as representative), then
        // remaining stones in index order.
        let [b1, b2] = colour.borders();
        let starts = [Cell::border(b1), Cell::border(b2)]
            .into_iter()
            .chain(position.stones(colour).iter());
        for start in starts {
            if e.index[start.index()] != NONE {
                continue;
            }
            let comp = position.component(start, &owned);
            let mut adj = CellSet::EMPTY;
            for x in comp.iter() {
                adj |= board.neighbours(x);
            }
            e.push(start, comp, true, adj & empty);
        }
        for c in empty.iter() {
            e.push(c, CellSet::single(c), false, board.neighbours(c) & empty);
        }
        e
    }

    fn push(&mut self, rep: Cell, members: CellSet, coloured: bool, adj: CellSet) {
        let i = self.reps.len() as u16;
        for m in members.iter() {
            self.index[m.index()] = i;
        }
        self.reps.push(rep);
        self.members.push(members);
        self.coloured.push(coloured);
        self.adj_empty.push(adj);
        self.rep_set.insert(rep);
    }

    /// Number of endpoints.
    #[inline]
    pub fn len(&self) -> usize {
        self.reps.len()
    }

    /// True when there is no endpoint (never: the borders are always there).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.reps.is_empty()
    }

    /// The endpoint holding `cell` (a stone of the colour, its border or an empty cell).
    #[inline]
    pub fn of(&self, cell: Cell) -> Option<u16> {
        match self.index[cell.index()] {
            NONE => None,
            i => Some(i),
        }
    }

    /// The endpoint indices of the colour's two borders.
    pub fn border_endpoints(&self) -> (u16, u16) {
        let [b1, b2] = self.colour.borders();
        (
            self.index[Cell::border(b1).index()],
            self.index[Cell::border(b2).index()],
        )
    }

    /// True when the colour's two borders are already one group (the game is won).
    pub fn joined(&self) -> bool {
        let (a, b) = self.border_endpoints();
        a == b
    }
}
