//! The local graph of a sub-game: carrier cells renumbered 0..n (n ≤ 128) so that sets of
//! them are single `u128` words, and the owner's fixed cells (stones of the position, its
//! borders, empty endpoints) contracted into at most 64 groups.

use crate::board::{Cell, CellSet};
use crate::claim::{ClaimError, SubGame};

/// A set of local cells.
pub type Set = u128;

/// Largest carrier the exact search handles.
pub const MAX_CARRIER: usize = 128;
const MAX_GROUPS: usize = 64;

/// Iterates the members of a local set.
#[inline]
pub fn bits(mut s: Set) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if s == 0 {
            None
        } else {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            Some(i)
        }
    })
}

/// The sub-game as a small graph.
#[derive(Clone, Debug)]
pub struct Local {
    /// Number of carrier cells.
    pub n: usize,
    /// Local index → board cell.
    pub cells: Vec<Cell>,
    /// Carrier-cell adjacency.
    pub adj: Vec<Set>,
    /// For each carrier cell, the owner groups it touches.
    pub cell_groups: Vec<u64>,
    /// For each group, the carrier cells it touches.
    pub group_adj: Vec<Set>,
    /// Goal pairs as group indices.
    pub pairs: Vec<(u8, u8)>,
    /// Every carrier cell.
    pub all: Set,
    /// True when a pair is joined before any move.
    pub joined_at_start: bool,
    /// Edge-template instances available as known sub-connections.
    pub templates: Vec<TemplateLink>,
    /// A board cell (stone, border or empty endpoint) of each group.
    pub group_rep: Vec<Cell>,
    /// The goal pairs as board cells.
    pub pair_cells: Vec<(Cell, Cell)>,
}

/// Where an edge template's stone sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// A carrier cell (the link is usable once the owner holds it).
    Cell(usize),
    /// A cell of a fixed owner group.
    Group(u8),
}

/// An edge template instance: if the owner holds the anchor and every carrier cell is
/// empty, the anchor is virtually connected to the border group.
#[derive(Clone, Copy, Debug)]
pub struct TemplateLink {
    /// The template's stone.
    pub anchor: Anchor,
    /// The border's group.
    pub border: u8,
    /// The template's empty cells.
    pub carrier: Set,
}

impl TemplateLink {
    /// A placeholder for fixed-size arrays.
    pub const EMPTY: TemplateLink = TemplateLink {
        anchor: Anchor::Group(0),
        border: 0,
        carrier: 0,
    };
}

/// Edge-relative `[row, col]` cells of a template, and its stone.
type EdgeTemplateCells = (&'static [(i32, i32)], (i32, i32));

/// One-stone edge templates used as known sub-connections, in HexWiki's edge-relative
/// coordinates `[row, col]` (row 1 touches the edge; see tests/fixtures/
/// edge-templates-hexwiki.README.md): III1a (the ziggurat), IV1a, III1b, IV1b, IV1d and V1a.
/// Their truth does not matter for soundness — every certificate, with the templates' own
/// proofs spliced in, is re-checked by the kernel — only for speed; tests/search/hexwiki_templates.rs
/// proves all six (a template is never used inside its own proof: only smaller ones are).
/// IV1d and V1a are the known sub-connections that let the search reach the 5th and 6th row
/// (V1b, V1c, VI1a): after the owner's move on row 5 or 4, the lookahead of rule 6 sees the
/// template at once. Their own proofs cost about 0.2 s CPU each (V1a with rule 9), paid once
/// per instance used by a certificate. Larger templates are not listed: IV1c's own proof takes
/// seconds (Henderson, Arneson & Hayward 2009, §3: templates as precomputed VCs; Anshelevich
/// 2002 §3: edge templates as known connections in the AND/OR hierarchy).
const EDGE_TEMPLATES: &[EdgeTemplateCells] = &[
    (
        &[
            (3, 1),
            (2, 0),
            (2, 1),
            (2, 2),
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
        ],
        (3, 0),
    ),
    (
        &[
            (4, 1),
            (3, -1),
            (3, 0),
            (3, 1),
            (3, 2),
            (3, 3),
            (2, -1),
            (2, 0),
            (2, 1),
            (2, 2),
            (2, 3),
            (2, 4),
            (1, -1),
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 4),
            (1, 5),
        ],
        (4, 0),
    ),
    // III1b
    (
        &[
            (3, -1),
            (3, 1),
            (2, -1),
            (2, 0),
            (2, 1),
            (2, 2),
            (1, -1),
            (1, 0),
            (1, 2),
            (1, 3),
        ],
        (3, 0),
    ),
    // IV1b
    (
        &[
            (4, -1),
            (4, 1),
            (3, -2),
            (3, -1),
            (3, 0),
            (3, 1),
            (3, 2),
            (3, 3),
            (2, -2),
            (2, -1),
            (2, 0),
            (2, 2),
            (2, 3),
            (2, 4),
            (1, -2),
            (1, -1),
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 4),
            (1, 5),
        ],
        (4, 0),
    ),
    // IV1d (31 cells)
    (
        &[
            (5, 2),
            (5, 1),
            (5, 0),
            (4, 4),
            (4, 3),
            (4, 2),
            (4, 1),
            (3, 6),
            (3, 5),
            (3, 4),
            (3, 3),
            (3, 2),
            (3, 1),
            (3, 0),
            (2, 7),
            (2, 6),
            (2, 5),
            (2, 4),
            (2, 3),
            (2, 2),
            (2, 1),
            (2, 0),
            (1, 8),
            (1, 7),
            (1, 6),
            (1, 5),
            (1, 4),
            (1, 3),
            (1, 2),
            (1, 1),
            (1, 0),
        ],
        (4, 0),
    ),
    // V1a (34 cells)
    (
        &[
            (5, 1),
            (5, -1),
            (4, 3),
            (4, 2),
            (4, 1),
            (4, 0),
            (4, -1),
            (3, 5),
            (3, 4),
            (3, 3),
            (3, 2),
            (3, 1),
            (3, 0),
            (3, -1),
            (3, -2),
            (2, 6),
            (2, 5),
            (2, 4),
            (2, 3),
            (2, 2),
            (2, 1),
            (2, 0),
            (2, -1),
            (2, -2),
            (1, 7),
            (1, 6),
            (1, 5),
            (1, 4),
            (1, 3),
            (1, 2),
            (1, 1),
            (1, 0),
            (1, -1),
            (1, -2),
        ],
        (5, 0),
    ),
];

/// Built-in edge templates ([`EDGE_TEMPLATES`]) with more carrier cells than this are not
/// used (process-wide; default: all are used). The template generator lowers it so that its
/// finding of a template does not rest on the search knowing that template already
/// (`hexproof templates generate --max-builtin-template N`, docs/templates.md).
static MAX_TEMPLATE_CELLS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(usize::MAX);

/// Sets the largest built-in edge template (carrier cells) the local search may use; 0 turns
/// them all off. Only speed depends on it: every certificate is kernel-checked either way.
pub fn set_max_edge_template_cells(cells: usize) {
    MAX_TEMPLATE_CELLS.store(cells, std::sync::atomic::Ordering::Relaxed);
}

impl Local {
    /// Builds the local graph of a sub-game.
    pub fn new(game: &SubGame) -> Result<Local, ClaimError> {
        let board = game.board();
        let carrier = game.carrier();
        let cells: Vec<Cell> = carrier.iter().collect();
        let n = cells.len();
        if n > MAX_CARRIER {
            return Err(ClaimError::CarrierTooLarge(n, MAX_CARRIER));
        }
        let mut index = vec![usize::MAX; 400];
        for (i, c) in cells.iter().enumerate() {
            index[c.index()] = i;
        }
        let owned = game.owner_cells();
        // Groups: components of owned cells that touch the carrier or hold an endpoint.
        let endpoints = game.claim().endpoints();
        let mut group_of = vec![usize::MAX; 400];
        let mut group_sets: Vec<CellSet> = Vec::new();
        let mut touching = CellSet::EMPTY;
        for c in cells.iter() {
            touching |= board.neighbours(*c) & owned;
        }
        for start in (touching | endpoints).iter() {
            if group_of[start.index()] != usize::MAX {
                continue;
            }
            let comp = game.position().component(start, &owned);
            let g = group_sets.len();
            if g >= MAX_GROUPS {
                return Err(ClaimError::CarrierTooLarge(n, MAX_CARRIER));
            }
            for x in comp.iter() {
                group_of[x.index()] = g;
            }
            group_sets.push(comp);
        }
        let mut adj = vec![0; n];
        let mut cell_groups = vec![0u64; n];
        let mut group_adj = vec![0; group_sets.len()];
        for (i, c) in cells.iter().enumerate() {
            for y in board.neighbours(*c).iter() {
                if index[y.index()] != usize::MAX {
                    adj[i] |= 1 << index[y.index()];
                } else if group_of[y.index()] != usize::MAX {
                    let g = group_of[y.index()];
                    cell_groups[i] |= 1 << g;
                    group_adj[g] |= 1 << i;
                }
            }
        }
        let pairs: Vec<(u8, u8)> = game
            .claim()
            .pairs
            .iter()
            .map(|(a, b)| (group_of[a.index()] as u8, group_of[b.index()] as u8))
            .collect();
        let joined_at_start = pairs.iter().any(|(a, b)| a == b);
        let templates = edge_template_links(game, &index, &group_of, n);
        let group_rep = group_sets
            .iter()
            .map(|set| {
                // Prefer a border, then any cell: all are owner cells.
                set.iter()
                    .find(|c| c.is_border())
                    .or_else(|| set.first())
                    .expect("groups are non-empty")
            })
            .collect();
        let pair_cells = game.claim().pairs.clone();
        let all = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        Ok(Local {
            n,
            cells,
            adj,
            cell_groups,
            group_adj,
            pairs,
            all,
            joined_at_start,
            templates,
            group_rep,
            pair_cells,
        })
    }

    /// Cells and groups reachable from group `g` through owner-usable cells in `mask`.
    #[inline]
    pub fn reach(&self, g: u8, mask: Set) -> (Set, u64) {
        let mut groups: u64 = 1 << g;
        let mut cells: Set = 0;
        let mut frontier = self.group_adj[g as usize] & mask;
        while frontier != 0 {
            cells |= frontier;
            let mut next: Set = 0;
            let mut new_groups: u64 = 0;
            for i in bits(frontier) {
                next |= self.adj[i];
                new_groups |= self.cell_groups[i];
            }
            new_groups &= !groups;
            groups |= new_groups;
            let mut ng = new_groups;
            while ng != 0 {
                let h = ng.trailing_zeros() as usize;
                ng &= ng - 1;
                next |= self.group_adj[h];
            }
            frontier = next & mask & !cells;
        }
        (cells, groups)
    }

    /// True when some pair is joined using the owner cells in `mask`.
    #[inline]
    pub fn joined(&self, mask: Set) -> bool {
        self.pairs
            .iter()
            .any(|&(a, b)| a == b || self.reach(a, mask).1 >> b & 1 == 1)
    }

    /// Board cells of a local set.
    pub fn to_cells(&self, s: Set) -> CellSet {
        bits(s).map(|i| self.cells[i]).collect()
    }

    /// Local set of board cells (cells outside the carrier are ignored).
    pub fn from_cells(&self, s: &CellSet) -> Set {
        let mut out = 0;
        for (i, c) in self.cells.iter().enumerate() {
            if s.contains(*c) {
                out |= 1 << i;
            }
        }
        out
    }
}

/// Every placement of the known edge templates (both mirror images) at the owner's borders
/// whose carrier lies inside the sub-game's carrier and is smaller than it (so that no
/// template is ever used to prove itself).
fn edge_template_links(
    game: &SubGame,
    index: &[usize],
    group_of: &[usize],
    n: usize,
) -> Vec<TemplateLink> {
    use crate::board::{Border, Colour};
    let board = game.board();
    let owner = game.claim().owner;
    let mut out = Vec::new();
    for border in owner.borders() {
        let gb = group_of[Cell::border(border).index()];
        if gb == usize::MAX {
            continue;
        }
        // Edge-relative (row, col) to 0-based board (c, r), `offset` = the stone's position
        // along the edge: the top edge directly, the bottom by 180° rotation, the left by the
        // long-diagonal reflection, the right by both.
        let place = |row: i32, col: i32, offset: i32| -> (i32, i32) {
            match (owner, border) {
                (Colour::Black, Border::Top) => (offset + col, row - 1),
                (Colour::Black, _) => (offset - col, board.rows() as i32 - row),
                (Colour::White, Border::Left) => (row - 1, offset + col),
                (Colour::White, _) => (board.cols() as i32 - row, offset - col),
            }
        };
        let max_cells = MAX_TEMPLATE_CELLS.load(std::sync::atomic::Ordering::Relaxed);
        for (cells, stone) in EDGE_TEMPLATES.iter().filter(|t| t.0.len() <= max_cells) {
            for mirror in [false, true] {
                let tr = |(r, c): (i32, i32)| if mirror { (r, -c - r) } else { (r, c) };
                let (sr, sc) = tr(*stone);
                // Slide along the edge.
                let len = match owner {
                    Colour::Black => board.cols() as i32,
                    Colour::White => board.rows() as i32,
                };
                for offset in -12..len + 12 {
                    let pos = |r: i32, c: i32| place(r, c - sc, offset);
                    let (ac, ar) = pos(sr, sc);
                    let Some(anchor_cell) = board.cell(ac, ar) else {
                        continue;
                    };
                    let mut carrier: Set = 0;
                    let mut ok = true;
                    for &rc in cells.iter() {
                        let (r, c) = tr(rc);
                        let (x, y) = pos(r, c);
                        match board.cell(x, y) {
                            Some(cell) if index[cell.index()] != usize::MAX => {
                                carrier |= 1 << index[cell.index()];
                            }
                            _ => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    if !ok || (carrier.count_ones() as usize) >= n {
                        continue;
                    }
                    let anchor = if index[anchor_cell.index()] != usize::MAX {
                        Anchor::Cell(index[anchor_cell.index()])
                    } else if group_of[anchor_cell.index()] != usize::MAX
                        && game.position().colour_at(anchor_cell) == Some(owner)
                    {
                        Anchor::Group(group_of[anchor_cell.index()] as u8)
                    } else {
                        continue;
                    };
                    out.push(TemplateLink {
                        anchor,
                        border: gb as u8,
                        carrier,
                    });
                }
            }
        }
    }
    out
}
