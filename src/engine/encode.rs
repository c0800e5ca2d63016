//! A local claim as a whole-board Hex position: the bridge from a sub-game to the solver.
//!
//! A claim "Black joins G to its border b inside carrier C" (G: one or more Black groups or
//! empty endpoints, or Black's other border) is a plain game of Hex in disguise: fill every
//! cell outside C, Black on a chain H joining G to Black's far border F and White on the rest,
//! and Black wins the whole board (joins F to b) iff Black wins the sub-game. The trick is
//! Noshita's (2005, §4: a lemma is a position of a smaller game) as used for the 8×8 huge
//! lemma (`tools/noshita8_huge.py`); it lets the whole-board DFPN solver ([`crate::dfpn`],
//! Henderson, Arneson & Hayward 2009) decide claims that the local search cannot.
//!
//! # The position
//!
//! - The **window**: rows at distance `0..=D` from b, where `D` is one more than the largest
//!   distance of a cell of C or a Black cell (so the window's far border F' touches none of
//!   them and is new), or the whole board when that does not fit or when F is an endpoint
//!   (then F' = F); columns from
//!   the leftmost to the rightmost cell of C, of the Black cells and of H. Hex adjacency is
//!   invariant under translation and Black's connections never use White's borders, so the
//!   window is the board up to a translation, with b kept in place.
//! - Black: every Black stone, every empty endpoint, and the chain H; White: every other
//!   window cell outside C; C stays empty; White moves first for a VC, Black for a semi.
//!
//! # Why it is exact
//!
//! Let G be the Black component(s) (stones, empty endpoints, Black borders) of the claim's
//! endpoints other than b, before any move. A cell h of H is **harmless**: it is outside C,
//! not a Black cell, not next to b, every Black cell next to it is in G and every cell of C
//! next to it is already next to G. The same holds of F' when F' = F and F ∉ G (every cell of
//! C next to F is next to G, every Black cell next to F is in G); a new F' touches nothing but
//! window cells outside C.
//!
//! Take any set M ⊆ C of Black moves. In the whole board, the Black component of G ∪ H ∪ F'
//! is the local component of G plus H and F': a path leaving H ∪ {F'} enters either G or a
//! cell of M next to G, both in G's local component; it never enters b (no cell of H touches
//! b, F' and b are not adjacent). Every other Black cell of the whole board is a Black cell
//! of the sub-game. So F' ~ b on the whole board iff G ~ b in the sub-game: the two games have
//! the same moves (cells of C; the moves outside C are gone, which changes nothing since the
//! sub-game's winner depends on C alone), the same player first and the same winner.
//!
//! Out of scope (answer: not applicable): claims of White (transpose first), pairs not
//! ending on one Black border, a group already touching b, no harmless chain, a window that
//! does not fit.

use super::EngineError;
use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::claim::SubGame;
use crate::position::Position;

/// A sub-game as a whole-board position.
#[derive(Clone, Debug)]
pub struct Encoded {
    /// The filled window.
    pub position: Position,
    /// Who moves first (White for a VC).
    pub to_move: Colour,
    /// Column and row of the original cell that became the window's a1.
    origin: (i32, i32),
    /// The original board.
    board: Board,
    /// The chain H (original cells).
    pub chain: CellSet,
}

impl Encoded {
    /// The window cell of an original cell (`None` outside the window).
    pub fn to_window(&self, c: Cell) -> Option<Cell> {
        let (x, y) = c.coords();
        self.position
            .board()
            .cell(x as i32 - self.origin.0, y as i32 - self.origin.1)
    }

    /// The original cell of a window cell.
    pub fn to_original(&self, c: Cell) -> Option<Cell> {
        let (x, y) = c.coords();
        self.board
            .cell(x as i32 + self.origin.0, y as i32 + self.origin.1)
    }

    /// A set of original cells in the window.
    pub fn set_to_window(&self, s: CellSet) -> CellSet {
        s.iter().filter_map(|c| self.to_window(c)).collect()
    }
}

/// The goal border `b` of a claim's pairs (every pair must end on the same Black border) and
/// the pairs' other ends.
fn goal_border(pairs: &[(Cell, Cell)]) -> Result<(Cell, Vec<Cell>), EngineError> {
    let black_border = |c: Cell| matches!(c.as_border(), Some(Border::Top | Border::Bottom));
    let mut b: Option<Cell> = None;
    let mut ends = Vec::new();
    for &(p, q) in pairs {
        let (e, z) = if black_border(q) && !black_border(p) {
            (p, q)
        } else if black_border(p) && !black_border(q) {
            (q, p)
        } else if black_border(p) && black_border(q) && p != q {
            // t - b: either border may serve as the goal; take the second.
            (p, q)
        } else {
            return Err(EngineError::PairNotOnBlackBorder);
        };
        if e.is_border() && !black_border(e) {
            return Err(EngineError::PairOnWhiteBorder);
        }
        if b.is_some_and(|x| x != z) {
            return Err(EngineError::DifferentBorders);
        }
        b = Some(z);
        ends.push(e);
    }
    Ok((b.ok_or(EngineError::NoPairs)?, ends))
}

/// Encodes `game` (see the module docs); `Err` says why the encoding does not apply.
pub fn encode(game: &SubGame) -> Result<Encoded, EngineError> {
    let claim = game.claim();
    if claim.owner != Colour::Black {
        return Err(EngineError::NotBlack);
    }
    let board = *game.board();
    let pos = game.position();
    let carrier = game.carrier();
    let (b, ends) = goal_border(&claim.pairs)?;
    let far = if b == Cell::border(Border::Top) {
        Cell::border(Border::Bottom)
    } else {
        Cell::border(Border::Top)
    };
    let rows = board.rows() as i32;
    let depth = |c: Cell| -> i32 {
        let r = c.coords().1 as i32;
        if b == Cell::border(Border::Top) {
            r
        } else {
            rows - 1 - r
        }
    };
    // Black cells: stones, empty endpoints, both Black borders.
    let endpoints: CellSet = ends.iter().copied().filter(|c| !c.is_border()).collect();
    let black_stones = pos.stones(Colour::Black) | endpoints;
    let black_nodes = black_stones | board.border_cells(Colour::Black);
    // G: the components of the endpoints.
    let mut g = CellSet::EMPTY;
    for &e in &ends {
        g |= component(&board, e, black_nodes);
    }
    if g.contains(b) {
        return Err(EngineError::Joined);
    }
    let g_cells = g - board.border_cells(Colour::Black);
    let near = |c: Cell| !board.neighbours(c).is_disjoint(&g);
    // The window's depth.
    let max_depth = (carrier | black_stones)
        .iter()
        .map(depth)
        .max()
        .unwrap_or(0);
    // (When G holds F itself, F must stay where it is: the window is the whole depth.)
    let (d, far_is_new) = if max_depth + 1 < rows && !g.contains(far) {
        (max_depth + 1, true)
    } else {
        (rows - 1, false)
    };
    if !far_is_new && !g.contains(far) {
        let touching = board.neighbours(far);
        if (touching & carrier).iter().any(|c| !near(c))
            || !(touching & black_stones).is_subset(&g_cells)
        {
            return Err(EngineError::FarBorderTouches);
        }
    }
    let harmless = |h: Cell| -> bool {
        let dh = depth(h);
        if dh < 1 || dh > d || carrier.contains(h) || black_stones.contains(h) {
            return false;
        }
        board.neighbours(h).iter().all(|n| {
            if n.is_border() {
                return n != b;
            }
            if carrier.contains(n) {
                return near(n);
            }
            !black_stones.contains(n) || g_cells.contains(n)
        })
    };
    // H: a shortest harmless path from each component of G to the far row.
    let mut chain = CellSet::EMPTY;
    if !g.contains(far) {
        let mut done = CellSet::EMPTY;
        for &e in &ends {
            if done.contains(e) {
                continue;
            }
            let comp = component(&board, e, black_nodes);
            done |= comp;
            let path = chain_to_far(&board, comp, d, &depth, &harmless)
                .ok_or(EngineError::NoHarmlessChain)?;
            chain |= path;
        }
    }
    window(game, b, d, black_stones, chain)
}

/// The encoded position: the window of depth `d` below the goal border `b` over the columns of
/// the carrier, the Black stones and the chain, with White on every other cell.
fn window(
    game: &SubGame,
    b: Cell,
    d: i32,
    black_stones: CellSet,
    chain: CellSet,
) -> Result<Encoded, EngineError> {
    let claim = game.claim();
    let board = *game.board();
    let carrier = game.carrier();
    let rows = board.rows() as i32;
    // The window's columns.
    let cols: Vec<i32> = (carrier | black_stones | chain)
        .iter()
        .map(|c| c.coords().0 as i32)
        .collect();
    let (c0, c1) = match (cols.iter().min(), cols.iter().max()) {
        (Some(&a), Some(&z)) => (a, z),
        _ => (0, board.cols() as i32 - 1),
    };
    let r0 = if b == Cell::border(Border::Top) {
        0
    } else {
        rows - 1 - d
    };
    let window = Board::new((c1 - c0 + 1) as u32, (d + 1) as u32)?;
    let enc = Encoded {
        position: Position::empty(window),
        to_move: if claim.owner_first {
            Colour::Black
        } else {
            Colour::White
        },
        origin: (c0, r0),
        board,
        chain,
    };
    let black = enc.set_to_window(black_stones | chain);
    let white = window.cells() - black - enc.set_to_window(carrier);
    let position = Position::new(window, black, white)?;
    if position.winner().is_some() {
        return Err(EngineError::EncodedWon);
    }
    Ok(Encoded { position, ..enc })
}

/// The component of `start` in `nodes` (cells and borders).
fn component(board: &Board, start: Cell, nodes: CellSet) -> CellSet {
    let mut comp = CellSet::single(start);
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        for n in (board.neighbours(c) & nodes).iter() {
            if comp.insert(n) {
                stack.push(n);
            }
        }
    }
    comp
}

/// A shortest path of harmless cells from a neighbour of `comp` to a cell at depth `d`.
fn chain_to_far(
    board: &Board,
    comp: CellSet,
    d: i32,
    depth: &dyn Fn(Cell) -> i32,
    harmless: &dyn Fn(Cell) -> bool,
) -> Option<CellSet> {
    let mut prev: std::collections::HashMap<Cell, Option<Cell>> = Default::default();
    let mut queue = std::collections::VecDeque::new();
    for c in comp.iter() {
        for n in board.neighbours(c).iter() {
            if !n.is_border() && !prev.contains_key(&n) && harmless(n) {
                prev.insert(n, None);
                queue.push_back(n);
            }
        }
    }
    while let Some(c) = queue.pop_front() {
        if depth(c) == d {
            let mut path = CellSet::single(c);
            let mut at = c;
            while let Some(Some(p)) = prev.get(&at) {
                path.insert(*p);
                at = *p;
            }
            return Some(path);
        }
        for n in board.neighbours(c).iter() {
            if !n.is_border() && !prev.contains_key(&n) && harmless(n) {
                prev.insert(n, Some(c));
                queue.push_back(n);
            }
        }
    }
    None
}
