//! A player that follows the strategy: Black, first move the centre, answers each White move
//! with the reply of the active pattern that White's move triggers.
//!
//! The state is a list of active pattern *instances*: a pattern number and, for each of its
//! local positions, the board cell it stands for (or none, where the data places a position
//! outside its parent). It starts with pattern 1 on the whole board (positions 1…n²−1 row by
//! row, the centre skipped). If White's first move is past the centre (row-major), the game
//! is played in the 180° rotation of the strategy, as Benzene's player does. A White move that
//! triggers a branch of an instance is answered by the branch's reply; the instance is replaced
//! by its sub-patterns, each placed through its `PP` map. A White move that triggers nothing
//! (a cell no pattern claims, or a position its pattern leaves unanswered) gets a *free*
//! Black move: the reply of branch 0 of an active instance that does not contain White's cell,
//! as if White had played that branch's first trigger (which stays empty, a cell that can only
//! help Black). Free moves are normal: a branch triggered by any of several cells leaves the
//! others to no pattern, so White may play there and Black has a move to spare. A reply that
//! cannot be played (its cell occupied or placed outside its parent) is written down in
//! [`Follower::notes`]: a place where the data does not say what to do.

use super::reader::{Branch, Loc, Strategy};
use crate::board::{Board, Cell, Colour};
use crate::position::Position;
use std::collections::BTreeSet;

/// One active pattern on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The pattern number.
    pub pattern: u32,
    /// `cells[i]`: the cell of local position `i + 1` (none: placed outside its parent).
    pub cells: Vec<Option<Cell>>,
    /// The `PP` line that placed it (none for pattern 1).
    pub placed_at: Option<Loc>,
    /// The first `PP` line, on the way down from pattern 1 to this instance, that placed an
    /// instance on an occupied cell (none: no such line).
    pub tainted_at: Option<Loc>,
}

impl Instance {
    fn cell(&self, local: u32) -> Option<Cell> {
        self.cells.get(local as usize - 1).copied().flatten()
    }

    fn contains(&self, c: Cell) -> bool {
        self.cells.contains(&Some(c))
    }
}

/// How Black's move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The first move (the centre).
    Opening,
    /// The reply of branch `branch` of pattern `pattern`, triggered by White's move.
    Branch {
        /// The pattern.
        pattern: u32,
        /// The branch.
        branch: u32,
    },
    /// A free move (White's move triggered nothing): branch `branch` of `pattern` played
    /// without its trigger.
    Free {
        /// The pattern.
        pattern: u32,
        /// The branch.
        branch: u32,
    },
    /// No pattern left to play in: the first empty cell.
    Any,
}

/// Black's move and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The cell.
    pub cell: Cell,
    /// Why.
    pub source: Source,
}

/// The strategy player's state for one game.
#[derive(Clone, Debug)]
pub struct Follower<'a> {
    strategy: &'a Strategy,
    board: Board,
    rotated: Option<bool>,
    active: Vec<Instance>,
    /// Places where the data did not say what to do (unplayable replies).
    pub notes: Vec<Note>,
}

/// A reply the follower could not play: White's move triggered `branch` of an instance of
/// `pattern` (placed by the `PP` line `placed_at`) whose reply cell is occupied (`cell`) or
/// was placed outside its parent (`cell` none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Stones on the board when it happened (White's move included).
    pub move_number: usize,
    /// The pattern.
    pub pattern: u32,
    /// The branch.
    pub branch: u32,
    /// The `PP` line that placed the instance (none: pattern 1).
    pub placed_at: Option<Loc>,
    /// The `PP` line above it that placed an instance on an occupied cell, if any.
    pub tainted_at: Option<Loc>,
    /// The reply's cell, if it has one.
    pub cell: Option<Cell>,
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "move {}: pattern {} branch {}",
            self.move_number, self.pattern, self.branch
        )?;
        if let Some(at) = self.placed_at {
            write!(f, " (placed by the PP line at {at})")?;
        }
        if let Some(at) = self.tainted_at {
            write!(
                f,
                " (below the PP line at {at}, which placed a pattern on a stone)"
            )?;
        }
        match self.cell {
            Some(c) => write!(f, ": the reply's cell {c:?} is occupied"),
            None => write!(f, ": the reply is placed outside its parent"),
        }
    }
}

/// Why a follower cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FollowError {
    /// The board has no centre.
    #[error("the strategy's board size {0} is even: no centre cell")]
    EvenBoard(u8),
}

impl<'a> Follower<'a> {
    /// A new game: Black to play the centre.
    pub fn new(strategy: &'a Strategy) -> Result<Follower<'a>, FollowError> {
        let n = strategy.board_size;
        if n.is_multiple_of(2) {
            return Err(FollowError::EvenBoard(n));
        }
        let board = Board::square(n as u32).expect("2 ≤ n ≤ 19 checked by the reader");
        let centre = Self::centre_index(n);
        let cells = (0..n as usize * n as usize)
            .filter(|&i| i != centre)
            .map(|i| Some(Cell::at((i % n as usize) as u8, (i / n as usize) as u8)))
            .collect();
        Ok(Follower {
            strategy,
            board,
            rotated: None,
            active: vec![Instance {
                pattern: 1,
                cells,
                placed_at: None,
                tainted_at: None,
            }],
            notes: Vec::new(),
        })
    }

    fn centre_index(n: u8) -> usize {
        n as usize * n as usize / 2
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The active patterns (in the strategy's orientation).
    pub fn active(&self) -> &[Instance] {
        &self.active
    }

    /// For each branch of each active instance, the cells (in the board's orientation) that
    /// trigger it; before White's first move also their 180° images (pattern 1's other half).
    pub fn trigger_groups(&self) -> Vec<Vec<Cell>> {
        let mut out = Vec::new();
        for inst in &self.active {
            for b in &self.strategy.patterns[&inst.pattern].branches {
                let mut group = Vec::new();
                for t in &b.triggers {
                    if let Some(c) = inst.cell(t.n) {
                        group.push(self.orient(c));
                        if self.rotated.is_none() {
                            group.push(orient(Some(true), self.strategy.board_size, c));
                        }
                    }
                }
                out.push(group);
            }
        }
        out
    }

    /// Black's first move: the centre.
    pub fn opening(&self) -> Move {
        let n = self.strategy.board_size as usize;
        let c = Self::centre_index(self.strategy.board_size);
        Move {
            cell: Cell::at((c % n) as u8, (c / n) as u8),
            source: Source::Opening,
        }
    }

    fn orient(&self, c: Cell) -> Cell {
        orient(self.rotated, self.strategy.board_size, c)
    }

    /// Black's answer to White's move `white` in `position` (White's stone already on it).
    pub fn answer(&mut self, position: &Position, white: Cell) -> Move {
        if self.rotated.is_none() {
            let (x, y) = white.coords();
            let n = self.strategy.board_size as usize;
            self.rotated = Some(y as usize * n + x as usize > Self::centre_index(n as u8));
        }
        let strategy = self.strategy;
        let w = self.orient(white);
        // The stones in the strategy's orientation.
        let (rot, n) = (self.rotated, strategy.board_size);
        let empty = |c: Cell| position.colour_at(orient(rot, n, c)).is_none();
        let hit = self.active.iter().enumerate().find_map(|(k, inst)| {
            strategy.patterns[&inst.pattern]
                .branches
                .iter()
                .find(|b| b.triggers.iter().any(|t| inst.cell(t.n) == Some(w)))
                .map(|b| (k, b))
        });
        if let Some((k, b)) = hit {
            let inst = self.active.remove(k);
            match inst.cell(b.reply.n).filter(|&c| empty(c)) {
                Some(c) => {
                    self.split(position, &inst, b);
                    return Move {
                        cell: self.orient(c),
                        source: Source::Branch {
                            pattern: inst.pattern,
                            branch: b.number,
                        },
                    };
                }
                None => {
                    self.notes.push(Note {
                        move_number: position.stones(Colour::White).len()
                            + position.stones(Colour::Black).len(),
                        pattern: inst.pattern,
                        branch: b.number,
                        placed_at: inst.placed_at,
                        tainted_at: inst.tainted_at,
                        cell: inst.cell(b.reply.n).map(|c| self.orient(c)),
                    });
                    self.active.insert(k, inst);
                }
            }
        }
        self.free_move(position, w)
    }

    /// Black moves without a trigger (see the module text).
    fn free_move(&mut self, position: &Position, w: Cell) -> Move {
        let strategy = self.strategy;
        let (rot, n) = (self.rotated, strategy.board_size);
        let pick = self.active.iter().enumerate().rev().find_map(|(k, inst)| {
            if inst.contains(w) {
                return None;
            }
            let b = strategy.patterns[&inst.pattern].branches.first()?;
            let c = inst.cell(b.reply.n)?;
            position
                .colour_at(orient(rot, n, c))
                .is_none()
                .then_some((k, b, c))
        });
        if let Some((k, b, c)) = pick {
            let inst = self.active.remove(k);
            self.split(position, &inst, b);
            return Move {
                cell: self.orient(c),
                source: Source::Free {
                    pattern: inst.pattern,
                    branch: b.number,
                },
            };
        }
        let cell = position
            .empty_cells()
            .first()
            .expect("the game is not over, so a cell is empty");
        Move {
            cell,
            source: Source::Any,
        }
    }

    /// Replaces `inst` (already removed) by the sub-patterns of branch `b` (`position`: the
    /// board before Black's reply).
    fn split(&mut self, position: &Position, inst: &Instance, b: &Branch) {
        for part in &b.parts {
            let cells: Vec<Option<Cell>> = part.map.iter().map(|p| inst.cell(p.n)).collect();
            let occupied = cells
                .iter()
                .flatten()
                .any(|&c| position.colour_at(self.orient(c)).is_some());
            let tainted_at = inst.tainted_at.or(occupied.then_some(part.at));
            self.active.push(Instance {
                pattern: part.pattern,
                cells,
                placed_at: Some(part.at),
                tainted_at,
            });
        }
    }
}

/// `c` in the strategy's orientation (`rotated`: the 180° rotation of an `n`×`n` board).
fn orient(rotated: Option<bool>, n: u8, c: Cell) -> Cell {
    if rotated == Some(true) {
        let (x, y) = c.coords();
        Cell::at(n - 1 - x, n - 1 - y)
    } else {
        c
    }
}

/// The result of one game of the strategy (Black) against a White move chooser.
#[derive(Clone, Debug)]
pub struct Game {
    /// The moves, Black's first.
    pub moves: Vec<Cell>,
    /// The winner.
    pub winner: Colour,
    /// The follower's notes (unplayable replies).
    pub notes: Vec<Note>,
    /// Black moves that came from a triggered branch.
    pub branch_moves: usize,
    /// Black's free moves (White's move triggered nothing).
    pub free_moves: usize,
    /// The (pattern, branch) pairs whose reply Black played.
    pub branches: BTreeSet<(u32, u32)>,
}

/// Plays one game: the strategy as Black (first move the centre) against `white`, which gets
/// the position and the follower (to see the active patterns) and returns an empty cell.
pub fn play(strategy: &Strategy, mut white: impl FnMut(&Position, &Follower) -> Cell) -> Game {
    let mut f = Follower::new(strategy).expect("odd board");
    let mut pos = Position::empty(*f.board());
    let mut moves = Vec::new();
    let (mut branch_moves, mut free_moves) = (0, 0);
    let mut branches = BTreeSet::new();
    let first = f.opening().cell;
    pos.play(Colour::Black, first).expect("empty board");
    moves.push(first);
    let winner = loop {
        if let Some(w) = pos.winner() {
            break w;
        }
        let wm = white(&pos, &f);
        pos.play(Colour::White, wm)
            .expect("White plays an empty cell");
        moves.push(wm);
        if let Some(w) = pos.winner() {
            break w;
        }
        let m = f.answer(&pos, wm);
        match m.source {
            Source::Branch { pattern, branch } => {
                branch_moves += 1;
                branches.insert((pattern, branch));
            }
            Source::Free { .. } | Source::Any => free_moves += 1,
            Source::Opening => {}
        }
        pos.play(Colour::Black, m.cell)
            .expect("the follower plays an empty cell");
        moves.push(m.cell);
    };
    Game {
        moves,
        winner,
        notes: f.notes,
        branch_moves,
        free_moves,
        branches,
    }
}

/// Black's move by the strategy after `moves` (alternating, Black first), or `None` when the
/// game has left it: Black did not open at the centre or did not play the strategy's answer,
/// the moves do not alternate, a move is off the board, or the strategy has no answer of
/// its own to White's last move (a reply that cannot be played, or no pattern left). The
/// GTP engine's `--yang` uses it, so that Black follows the strategy while it can.
pub fn next_move(strategy: &Strategy, moves: &[(Colour, Cell)]) -> Option<Cell> {
    let mut f = Follower::new(strategy).ok()?;
    let mut pos = Position::empty(*f.board());
    let mut answer = Some(f.opening());
    for (i, &(colour, cell)) in moves.iter().enumerate() {
        let want = if i % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        if colour != want || !pos.board().contains(cell) {
            return None;
        }
        if colour == Colour::Black && answer.map(|m| m.cell) != Some(cell) {
            return None;
        }
        pos.play(colour, cell).ok()?;
        answer = match colour {
            Colour::White if pos.winner().is_none() => {
                let notes = f.notes.len();
                let m = f.answer(&pos, cell);
                (f.notes.len() == notes && m.source != Source::Any).then_some(m)
            }
            _ => None,
        };
    }
    answer.map(|m| m.cell)
}
