//! Claims and sub-games (exact wording in docs/SEMANTICS.md "Sub-games" and "Claims").
//!
//! A sub-game is a position P, a carrier S (cells empty in P), a goal G (pairs of endpoints)
//! and who moves first. Play alternates strictly inside S. The claim's owner wins as soon as
//! some pair of G is joined by owner cells: owner stones of P anywhere, owner stones played
//! in S, the owner's borders, and every endpoint that is an empty cell outside S (such an
//! endpoint counts as an owner stone: Anshelevich's convention for connections between
//! empty cells). The opponent wins when S fills up with no pair joined.
//!
//! - VC `a - b`: owner wins with the opponent moving first (one pair).
//! - semi-connection: owner wins moving first.
//! - union-connection `a1 - b1 | … | ak - bk` (Noshita): several pairs; which one gets joined
//!   may depend on the opponent's play. Opponent first unless stated.

use crate::board::{Board, Cell, CellSet, Colour, Notation, ParseCellError};
use crate::position::Position;
use serde::Serialize;
use std::fmt;

/// What a claim asserts.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Claim {
    /// The player who must connect.
    pub owner: Colour,
    /// The goal: the owner must join at least one of these pairs.
    pub pairs: Vec<(Cell, Cell)>,
    /// True for a semi-connection (the owner moves first).
    pub owner_first: bool,
}

/// The kind of a claim, for reports.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum ClaimKind {
    /// One pair, opponent first.
    Vc,
    /// One pair, owner first.
    Semi,
    /// Several pairs, opponent first.
    Union,
    /// Several pairs, owner first.
    UnionSemi,
}

impl fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClaimKind::Vc => "VC",
            ClaimKind::Semi => "semi-connection",
            ClaimKind::Union => "union-connection",
            ClaimKind::UnionSemi => "union semi-connection",
        })
    }
}

/// Why a claim or sub-game is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError {
    /// A cell name problem.
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    /// A pair is not `x - y`.
    #[error("cannot read '{0}' as a pair of endpoints (expected e.g. 'd4 - b')")]
    BadPair(String),
    /// No pair at all.
    #[error("the claim has no pair of endpoints")]
    NoPairs,
    /// A pair joins an endpoint to itself (`check` rejects it too).
    #[error("the pair '{0}' joins an endpoint to itself")]
    SelfPair(String),
    /// A carrier cell is a border.
    #[error("the carrier contains the border '{0}'; carriers hold cells only")]
    BorderInCarrier(String),
    /// A carrier cell holds a stone.
    #[error("carrier cell {0} is not empty (it holds a {1} stone)")]
    CarrierOccupied(String, Colour),
    /// An endpoint is the opponent's stone or border.
    #[error("endpoint {0} belongs to {1}, the opponent of the claim's owner")]
    OpponentEndpoint(String, Colour),
    /// An endpoint lies in the carrier.
    #[error("endpoint {0} lies in the carrier; endpoints must be outside it")]
    EndpointInCarrier(String),
    /// Too many cells for the exact search's local representation.
    #[error("the carrier has {0} cells; the exact search handles at most {1}")]
    CarrierTooLarge(usize, usize),
}

impl Claim {
    /// Parses `a - b | c - d`.
    pub fn parse(
        board: &Board,
        text: &str,
        owner: Colour,
        owner_first: bool,
        notation: Notation,
    ) -> Result<Claim, ClaimError> {
        let mut pairs = Vec::new();
        for part in text.split('|') {
            let ends: Vec<&str> = part.split('-').map(str::trim).collect();
            if ends.len() != 2
                || ends
                    .iter()
                    .any(|e| e.is_empty() || e.contains(char::is_whitespace))
            {
                return Err(ClaimError::BadPair(part.trim().to_string()));
            }
            let (a, b) = (
                board.parse_cell(ends[0], notation)?,
                board.parse_cell(ends[1], notation)?,
            );
            if a == b {
                return Err(ClaimError::SelfPair(part.trim().to_string()));
            }
            pairs.push((a, b));
        }
        if pairs.is_empty() {
            return Err(ClaimError::NoPairs);
        }
        Ok(Claim {
            owner,
            pairs,
            owner_first,
        })
    }

    /// The claim's kind.
    pub fn kind(&self) -> ClaimKind {
        match (self.pairs.len() > 1, self.owner_first) {
            (false, false) => ClaimKind::Vc,
            (false, true) => ClaimKind::Semi,
            (true, false) => ClaimKind::Union,
            (true, true) => ClaimKind::UnionSemi,
        }
    }

    /// `a - b | c - d` in the given notation.
    pub fn display(&self, board: &Board, notation: Notation) -> String {
        self.pairs
            .iter()
            .map(|(a, b)| {
                format!(
                    "{} - {}",
                    board.cell_name(*a, notation),
                    board.cell_name(*b, notation)
                )
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// Every endpoint of every pair.
    pub fn endpoints(&self) -> CellSet {
        self.pairs.iter().flat_map(|&(a, b)| [a, b]).collect()
    }
}

/// A validated sub-game: position, carrier and claim (see the module docs).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SubGame {
    position: Position,
    carrier: CellSet,
    claim: Claim,
}

impl SubGame {
    /// Checks the side conditions: carrier cells are empty on-board cells; endpoints are owner
    /// stones, owner borders or empty cells outside the carrier.
    pub fn new(position: Position, carrier: CellSet, claim: Claim) -> Result<SubGame, ClaimError> {
        let board = *position.board();
        let name = |c: Cell| board.cell_name(c, Notation::Letters);
        if claim.pairs.is_empty() {
            return Err(ClaimError::NoPairs);
        }
        for c in carrier.iter() {
            if c.is_border() {
                return Err(ClaimError::BorderInCarrier(name(c)));
            }
            if !board.contains(c) {
                return Err(ClaimError::Cell(ParseCellError::OffBoard(
                    format!("{c:?}"),
                    board,
                )));
            }
            if let Some(col) = position.colour_at(c) {
                return Err(ClaimError::CarrierOccupied(name(c), col));
            }
        }
        for c in claim.endpoints().iter() {
            if !board.contains(c) {
                return Err(ClaimError::Cell(ParseCellError::OffBoard(
                    format!("{c:?}"),
                    board,
                )));
            }
            match position.colour_at(c) {
                Some(col) if col != claim.owner => {
                    return Err(ClaimError::OpponentEndpoint(name(c), col))
                }
                _ => {}
            }
            if carrier.contains(c) {
                return Err(ClaimError::EndpointInCarrier(name(c)));
            }
        }
        Ok(SubGame {
            position,
            carrier,
            claim,
        })
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.position.board()
    }

    /// The carrier.
    pub fn carrier(&self) -> CellSet {
        self.carrier
    }

    /// The claim.
    pub fn claim(&self) -> &Claim {
        &self.claim
    }

    /// The same sub-game on another carrier (must still satisfy the side conditions).
    pub fn with_carrier(&self, carrier: CellSet) -> Result<SubGame, ClaimError> {
        SubGame::new(self.position.clone(), carrier, self.claim.clone())
    }

    /// The same sub-game with the other player moving first.
    pub fn with_owner_first(&self, owner_first: bool) -> SubGame {
        let mut s = self.clone();
        s.claim.owner_first = owner_first;
        s
    }

    /// Cells that count for the owner before any move: its stones, its borders and the
    /// empty endpoints.
    pub fn owner_cells(&self) -> CellSet {
        let empty_endpoints = self.claim.endpoints()
            - self.position.stones(self.claim.owner)
            - self.position.stones(self.claim.owner.opponent());
        let empty_endpoints: CellSet = empty_endpoints.iter().filter(|c| !c.is_border()).collect();
        self.position.owned(self.claim.owner) | empty_endpoints
    }

    /// One-line description: `black VC d4 - b on [c5 d5 …]`.
    pub fn describe(&self, notation: Notation) -> String {
        format!(
            "{} {} {} on [{}]",
            self.claim.owner,
            self.claim.kind(),
            self.claim.display(self.board(), notation),
            self.board().set_names(&self.carrier, notation)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_claims() {
        let b = Board::square(7).unwrap();
        let c = Claim::parse(&b, "d4 - b", Colour::Black, false, Notation::Letters).unwrap();
        assert_eq!(c.kind(), ClaimKind::Vc);
        let c = Claim::parse(&b, "t - 44 | t - b", Colour::Black, false, Notation::Digits).unwrap();
        assert_eq!(c.kind(), ClaimKind::Union);
        assert_eq!(c.display(&b, Notation::Letters), "t - d4 | t - b");
        assert!(matches!(
            Claim::parse(&b, "d4 b", Colour::Black, false, Notation::Letters),
            Err(ClaimError::BadPair(_))
        ));
        assert!(Claim::parse(&b, "d4 - z9", Colour::Black, false, Notation::Letters).is_err());
        assert!(Claim::parse(&b, "d4 - b -c", Colour::Black, false, Notation::Letters).is_err());
    }

    #[test]
    fn side_conditions() {
        let b = Board::square(5).unwrap();
        let p = Position::from_names(b, "c3", "c4", Notation::Letters).unwrap();
        let claim = Claim::parse(&b, "c3 - b", Colour::Black, false, Notation::Letters).unwrap();
        let carrier: CellSet = b
            .parse_cells("c4 b4", Notation::Letters)
            .unwrap()
            .into_iter()
            .collect();
        assert!(matches!(
            SubGame::new(p.clone(), carrier, claim.clone()),
            Err(ClaimError::CarrierOccupied(..))
        ));
        let wc = Claim::parse(&b, "c4 - l", Colour::Black, false, Notation::Letters).unwrap();
        assert!(matches!(
            SubGame::new(p.clone(), CellSet::EMPTY, wc),
            Err(ClaimError::OpponentEndpoint(..))
        ));
        let inside = Claim::parse(&b, "b4 - b", Colour::Black, false, Notation::Letters).unwrap();
        let carrier: CellSet = b
            .parse_cells("b4", Notation::Letters)
            .unwrap()
            .into_iter()
            .collect();
        assert!(matches!(
            SubGame::new(p, carrier, inside),
            Err(ClaimError::EndpointInCarrier(..))
        ));
    }
}
