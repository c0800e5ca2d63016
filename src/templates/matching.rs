//! Instances of library templates on a position: both colours, all four edges, both mirror
//! images, every offset along the edge.
//!
//! An instance: every template stone is a stone of the edge's owner, and every carrier cell is
//! on the board and empty. Then the stone is virtually connected to the edge (the record's
//! certificate, carried over by the adjacency-preserving placement of [`EdgeTemplate::cell_at`]).

use super::library::{mirror, Record, Symmetry};
use super::{EdgeTemplate, Rc};
use crate::board::{Border, Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::position::Position;

/// One instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Template name.
    pub name: String,
    /// The edge (its owner is the instance's colour).
    pub border: Border,
    /// True for the mirror image of the stored record.
    pub mirrored: bool,
    /// The goal stone on the board.
    pub stone: Cell,
    /// The carrier on the board.
    pub carrier: CellSet,
}

impl Instance {
    /// The instance as a sub-game: the goal stone − the edge, opponent first.
    pub fn sub_game(&self, position: &Position) -> SubGame {
        let owner = self.border.owner();
        let claim = Claim {
            owner,
            pairs: vec![(self.stone, Cell::border(self.border))],
            owner_first: false,
        };
        SubGame::new(position.clone(), self.carrier, claim)
            .expect("an instance is a well-formed sub-game")
    }
}

fn place(
    position: &Position,
    border: Border,
    offset: i32,
    stones: &[Rc],
    carrier: &[Rc],
) -> Option<(Cell, CellSet)> {
    let board = position.board();
    let owner = border.owner();
    let mut goal = None;
    for rc in stones {
        let c = EdgeTemplate::cell_at(board, border, offset, *rc)?;
        if position.colour_at(c) != Some(owner) {
            return None;
        }
        goal.get_or_insert(c);
    }
    let mut set = CellSet::EMPTY;
    for rc in carrier {
        let c = EdgeTemplate::cell_at(board, border, offset, *rc)?;
        if position.colour_at(c).is_some() {
            return None;
        }
        set.insert(c);
    }
    Some((goal?, set))
}

/// Every instance of `records` on `position`, for both colours.
pub fn find<'a>(
    position: &Position,
    records: impl IntoIterator<Item = &'a Record>,
) -> Vec<Instance> {
    let mut out = Vec::new();
    let n = position.board().cols().max(position.board().rows()) as i32;
    for r in records {
        let images: Vec<(bool, Vec<Rc>, Vec<Rc>)> = {
            let mut v = vec![(false, r.stones.clone(), r.carrier.clone())];
            if r.symmetry == Symmetry::Chiral {
                v.push((
                    true,
                    r.stones.iter().map(|&s| mirror(s, r.row)).collect(),
                    r.carrier.iter().map(|&c| mirror(c, r.row)).collect(),
                ));
            }
            v
        };
        for colour in [Colour::Black, Colour::White] {
            for border in colour.borders() {
                for (mirrored, stones, carrier) in &images {
                    for offset in -2 * n..=3 * n {
                        if let Some((stone, set)) = place(position, border, offset, stones, carrier)
                        {
                            out.push(Instance {
                                name: r.name.clone(),
                                border,
                                mirrored: *mirrored,
                                stone,
                                carrier: set,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}
