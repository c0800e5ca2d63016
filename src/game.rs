//! A game record: board, setup stones, and the moves played, with the swap rule.
//!
//! The swap is Benzene's `swap-pieces` as an engine sees it (ECOSYSTEM.md §1.5): White
//! swaps as the second move, the stone stays where it is, and **White moves again** (the
//! players, not the stones, change colour; SGF calls this `swap-sides`). A true SGF
//! `swap-pieces` (stone reflected and recoloured, Black to move) is read from SGF as the
//! equivalent setup (`sgf`).

use crate::board::{Board, Cell, CellSet, Colour, Notation};
use crate::position::Position;

/// One move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A stone.
    Stone(Colour, Cell),
    /// The swap (Benzene `swap-pieces` / SGF `swap-sides`), by the given colour (White).
    Swap(Colour),
    /// A resignation by the given colour.
    Resign(Colour),
}

impl Move {
    /// Who made the move.
    pub fn colour(&self) -> Colour {
        match *self {
            Move::Stone(c, _) | Move::Swap(c) | Move::Resign(c) => c,
        }
    }
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    setup: Position,
    first: Colour,
    moves: Vec<Move>,
    position: Position,
}

impl Game {
    /// A new game on `board`, Black to move.
    pub fn new(board: Board) -> Game {
        Game::with_setup(Position::empty(board), Colour::Black)
    }

    /// A game starting from setup stones with `first` to move.
    pub fn with_setup(setup: Position, first: Colour) -> Game {
        Game {
            position: setup.clone(),
            setup,
            first,
            moves: Vec::new(),
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.position.board()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The setup position.
    pub fn setup(&self) -> &Position {
        &self.setup
    }

    /// Who moves first after the setup.
    pub fn first(&self) -> Colour {
        self.first
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The player to move: after a stone the opponent, after a swap the swapper again.
    pub fn to_move(&self) -> Colour {
        match self.moves.last() {
            None => self.first,
            Some(Move::Stone(c, _)) | Some(Move::Resign(c)) => c.opponent(),
            Some(Move::Swap(c)) => *c,
        }
    }

    /// True when a swap is legal now: exactly one move so far, a Black stone, no setup.
    pub fn swap_legal(&self) -> bool {
        self.setup.stones(Colour::Black).is_empty()
            && self.setup.stones(Colour::White).is_empty()
            && matches!(self.moves.as_slice(), [Move::Stone(Colour::Black, _)])
    }

    /// The winner: by connection, or by the opponent's resignation. The first decisive event
    /// counts and is never overturned: no stone follows a resignation and no resignation is
    /// accepted after the game is decided (see [`Game::play`]), except the loser's after a
    /// won board, which confirms the result.
    pub fn winner(&self) -> Option<Colour> {
        self.position.winner().or_else(|| {
            self.moves.iter().find_map(|m| match m {
                Move::Resign(c) => Some(c.opponent()),
                _ => None,
            })
        })
    }

    /// Plays a move; errors are one-line messages in GTP's style.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        match m {
            Move::Stone(c, cell) => {
                if matches!(self.moves.last(), Some(Move::Resign(_))) {
                    return Err(GameError::Over);
                }
                self.position
                    .play(c, cell)
                    .map_err(|_| GameError::Occupied {
                        colour: colour_letter(c),
                        cell: self.board().cell_name(cell, Notation::Letters),
                    })?;
            }
            Move::Swap(c) => {
                if !self.swap_legal() || c != Colour::White {
                    return Err(GameError::IllegalSwap(colour_letter(c)));
                }
            }
            Move::Resign(c) => {
                if self.moves.iter().any(|m| matches!(m, Move::Resign(_))) {
                    return Err(GameError::Over);
                }
                if self.position.winner() == Some(c) {
                    return Err(GameError::WinnerResigns(colour_letter(c)));
                }
            }
        }
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        let m = self.moves.pop().ok_or(GameError::NothingToUndo)?;
        if let Move::Stone(_, cell) = m {
            self.position.clear(cell);
        }
        Ok(m)
    }

    /// Stones on the board that were played (not setup), as a set.
    pub fn played(&self) -> CellSet {
        self.moves
            .iter()
            .filter_map(|m| match m {
                Move::Stone(_, c) => Some(*c),
                _ => None,
            })
            .collect()
    }
}

/// Why a move could not be played or taken back (one-line messages in GTP's style).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A stone after a resignation.
    #[error("game is over (resigned)")]
    Over,
    /// A stone on an occupied cell (`colour` is `b` or `w`, `cell` in letters notation).
    #[error("illegal move: {colour} {cell} (occupied)")]
    Occupied {
        /// `b` or `w`.
        colour: char,
        /// The cell, letters notation.
        cell: String,
    },
    /// A swap that is not White's second move (the colour letter).
    #[error("illegal move: {0} swap-pieces (only White's second move may swap)")]
    IllegalSwap(char),
    /// A resignation by the side that has already joined its borders (the result stands).
    #[error("illegal move: {0} resign (the game is already won by {0})")]
    WinnerResigns(char),
    /// `undo` with no moves.
    #[error("cannot undo: no moves")]
    NothingToUndo,
}

/// `b` / `w`.
pub fn colour_letter(c: Colour) -> char {
    match c {
        Colour::Black => 'b',
        Colour::White => 'w',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_keeps_white_to_move_and_undo_restores() {
        let b = Board::square(5).unwrap();
        let mut g = Game::new(b);
        let c3 = b.parse_cell("c3", Notation::Letters).unwrap();
        assert!(g.play(Move::Swap(Colour::White)).is_err());
        g.play(Move::Stone(Colour::Black, c3)).unwrap();
        assert!(g.swap_legal());
        g.play(Move::Swap(Colour::White)).unwrap();
        assert_eq!(g.to_move(), Colour::White);
        assert!(g.play(Move::Swap(Colour::White)).is_err());
        assert!(g.play(Move::Stone(Colour::White, c3)).is_err());
        g.undo().unwrap();
        assert_eq!(g.to_move(), Colour::White);
        g.undo().unwrap();
        assert!(g.position().empty_cells().contains(c3));
        assert!(g.undo().is_err());
    }

    #[test]
    fn a_decided_game_stays_decided() {
        // Issue 29 item 5: no resignation by the winner, no second resignation.
        let b = Board::square(2).unwrap();
        let cell = |s| b.parse_cell(s, Notation::Letters).unwrap();
        let mut g = Game::new(b);
        g.play(Move::Stone(Colour::Black, cell("a1"))).unwrap();
        g.play(Move::Stone(Colour::White, cell("b1"))).unwrap();
        g.play(Move::Stone(Colour::Black, cell("a2"))).unwrap();
        assert_eq!(g.winner(), Some(Colour::Black));
        assert_eq!(
            g.play(Move::Resign(Colour::Black)),
            Err(GameError::WinnerResigns('b'))
        );
        assert_eq!(g.winner(), Some(Colour::Black));
        g.play(Move::Resign(Colour::White)).unwrap();
        assert_eq!(g.winner(), Some(Colour::Black));
        assert_eq!(g.play(Move::Resign(Colour::Black)), Err(GameError::Over));
        assert_eq!(g.play(Move::Resign(Colour::White)), Err(GameError::Over));
        // A resignation on an undecided board decides it; a second one is rejected.
        let mut g = Game::new(b);
        g.play(Move::Stone(Colour::Black, cell("a1"))).unwrap();
        g.play(Move::Resign(Colour::White)).unwrap();
        assert_eq!(g.winner(), Some(Colour::Black));
        assert_eq!(g.play(Move::Resign(Colour::Black)), Err(GameError::Over));
        assert_eq!(g.winner(), Some(Colour::Black));
    }
}
