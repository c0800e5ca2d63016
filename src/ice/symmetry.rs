//! Placing the patterns on a real board: each pattern's images under the symmetries that
//! keep its claim, and every translation that keeps its cells on the board.
//!
//! - A pattern whose cells (S and its ring) touch no border of the instance is **free**: the
//!   clique tests read adjacency only, so every symmetry of the hexagonal lattice (six
//!   rotations, and the transpose) keeps it, and so does every translation.
//! - A pattern touching the top row (Black's border) keeps its rows: it may move along the
//!   border and be mirrored by (c, r) ↦ (−c−r, r), which keeps adjacency and rows. A pattern
//!   touching the left column (White's border) likewise, with (c, r) ↦ (c, −c−r).
//! - The board's symmetries then give the rest: the 180° rotation (top ↔ bottom, left ↔
//!   right, colours kept) and the transpose with colours exchanged (Black's claims become
//!   White's, top ↔ left).
//!
//! A placement needs every cell of S and of its ring on the board; then S is adjacent to the
//! same borders as in the instance, and a ring cell may touch more borders than it did there,
//! which only merges chains (module docs of [`super`]: the tests are monotone).

use super::local::Local;
use super::record::{instance_board, Pattern, PatternClass};
use crate::board::{Board, Cell, CellSet, Colour};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

/// Where a pattern's coordinates are measured from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Frame {
    Free,
    Top,
    Bottom,
    Left,
    Right,
}

type Xy = (i32, i32);

/// A pattern in relative coordinates: free ones relative to an origin; edge ones with the
/// distance to their border absolute (the row for top and bottom, the column for left and
/// right) and the other coordinate relative.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Rel {
    frame: Frame,
    class: PatternClass,
    colour: Colour,
    set: Vec<Xy>,
    ring: Vec<Xy>,
    black: Vec<Xy>,
    white: Vec<Xy>,
    killer: Option<Xy>,
}

/// The instance frame of a pattern: its ring, and which border it touches. Errors: a cell
/// of S or its ring on the last row or column of the instance, or touching both the top row
/// and the left column; a stone or killer outside the ring.
pub fn frame_of(p: &Pattern) -> Result<(CellSet, Option<crate::board::Border>), String> {
    let parsed = p.parse()?;
    let local = Local::new(instance_board());
    let s: CellSet = parsed.set.iter().copied().collect();
    if s.len() != parsed.set.len() || s.is_empty() {
        return Err("the set is empty or names a cell twice".into());
    }
    let ring = local.ring(s) - border_set();
    let mut req = parsed.black | parsed.white;
    if let Some(k) = parsed.killer {
        req.insert(k);
    }
    if !req.is_subset(&ring) || !(parsed.black & parsed.white).is_empty() {
        return Err("a required stone or the killer is not in the ring of the set, or a cell is both colours".into());
    }
    let n = super::INSTANCE as u8 - 1;
    let (mut top, mut left) = (false, false);
    for c in (s | ring).iter() {
        let (x, y) = c.coords();
        if x == n || y == n {
            return Err("the pattern touches the last row or column of the instance".into());
        }
        top |= y == 0;
        left |= x == 0;
    }
    match (top, left) {
        (true, true) => Err("the pattern touches two borders".into()),
        (true, false) => Ok((ring, Some(crate::board::Border::Top))),
        (false, true) => Ok((ring, Some(crate::board::Border::Left))),
        (false, false) => Ok((ring, None)),
    }
}

fn border_set() -> CellSet {
    use crate::board::Border::*;
    [Top, Bottom, Left, Right]
        .into_iter()
        .map(Cell::border)
        .collect()
}

fn rel(p: &Pattern) -> Result<Rel, String> {
    let (ring, border) = frame_of(p)?;
    let parsed = p.parse()?;
    let (frame, dc, dr) = match border {
        None => (Frame::Free, 4, 4),
        Some(crate::board::Border::Top) => (Frame::Top, 4, 0),
        _ => (Frame::Left, 0, 4),
    };
    let xy = |c: Cell| {
        let (x, y) = c.coords();
        (x as i32 - dc, y as i32 - dr)
    };
    Ok(Rel {
        frame,
        class: p.class,
        colour: p.colour,
        set: parsed.set.iter().map(|&c| xy(c)).collect(),
        ring: ring.iter().map(xy).collect(),
        black: parsed.black.iter().map(xy).collect(),
        white: parsed.white.iter().map(xy).collect(),
        killer: parsed.killer.map(xy),
    })
}

impl Rel {
    fn map(&self, frame: Frame, f: impl Fn(Xy) -> Xy, swap: bool) -> Rel {
        let m = |v: &Vec<Xy>| v.iter().map(|&x| f(x)).collect::<Vec<_>>();
        let (black, white) = if swap {
            (m(&self.white), m(&self.black))
        } else {
            (m(&self.black), m(&self.white))
        };
        Rel {
            frame,
            class: self.class,
            colour: if swap {
                self.colour.opponent()
            } else {
                self.colour
            },
            set: m(&self.set),
            ring: m(&self.ring),
            black,
            white,
            killer: self.killer.map(&f),
        }
    }

    /// The images under the symmetries of the pattern's own frame.
    fn local_images(&self) -> Vec<Rel> {
        match self.frame {
            Frame::Free => {
                let mut out = Vec::new();
                let mut r = self.clone();
                for _ in 0..6 {
                    out.push(r.map(Frame::Free, |(c, r)| (r, c), false));
                    r = r.map(Frame::Free, |(c, r)| (-r, c + r), false);
                    out.push(r.clone());
                }
                out
            }
            Frame::Top => vec![
                self.clone(),
                self.map(Frame::Top, |(c, r)| (-c - r, r), false),
            ],
            Frame::Left => vec![
                self.clone(),
                self.map(Frame::Left, |(c, r)| (c, -c - r), false),
            ],
            _ => vec![self.clone()],
        }
    }

    fn rot180(&self) -> Rel {
        match self.frame {
            Frame::Free => self.map(Frame::Free, |(c, r)| (-c, -r), false),
            Frame::Top => self.map(Frame::Bottom, |(c, r)| (-c, r), false),
            Frame::Bottom => self.map(Frame::Top, |(c, r)| (-c, r), false),
            Frame::Left => self.map(Frame::Right, |(c, r)| (c, -r), false),
            Frame::Right => self.map(Frame::Left, |(c, r)| (c, -r), false),
        }
    }

    fn transpose_swap(&self) -> Rel {
        let frame = match self.frame {
            Frame::Free => Frame::Free,
            Frame::Top => Frame::Left,
            Frame::Left => Frame::Top,
            Frame::Bottom => Frame::Right,
            Frame::Right => Frame::Bottom,
        };
        self.map(frame, |(c, r)| (r, c), true)
    }

    /// Every placement on `board`.
    fn place(&self, board: &Board, out: &mut Vec<Placement>) {
        let (w, h) = (board.cols() as i32, board.rows() as i32);
        let all: Vec<Xy> = self.set.iter().chain(&self.ring).copied().collect();
        let lo_c = all.iter().map(|x| x.0).min().unwrap_or(0);
        let hi_c = all.iter().map(|x| x.0).max().unwrap_or(0);
        let lo_r = all.iter().map(|x| x.1).min().unwrap_or(0);
        let hi_r = all.iter().map(|x| x.1).max().unwrap_or(0);
        let trans: Vec<Box<dyn Fn(Xy) -> Xy>> = match self.frame {
            Frame::Free => {
                let mut v: Vec<Box<dyn Fn(Xy) -> Xy>> = Vec::new();
                for tc in -lo_c..w - hi_c {
                    for tr in -lo_r..h - hi_r {
                        v.push(Box::new(move |(c, r)| (c + tc, r + tr)));
                    }
                }
                v
            }
            Frame::Top => (-lo_c..w - hi_c)
                .map(|tc| Box::new(move |(c, r): Xy| (c + tc, r)) as Box<dyn Fn(Xy) -> Xy>)
                .collect(),
            Frame::Bottom => (-lo_c..w - hi_c)
                .map(|tc| Box::new(move |(c, d): Xy| (c + tc, h - 1 - d)) as Box<dyn Fn(Xy) -> Xy>)
                .collect(),
            Frame::Left => (-lo_r..h - hi_r)
                .map(|tr| Box::new(move |(c, r): Xy| (c, r + tr)) as Box<dyn Fn(Xy) -> Xy>)
                .collect(),
            Frame::Right => (-lo_r..h - hi_r)
                .map(|tr| Box::new(move |(d, r): Xy| (w - 1 - d, r + tr)) as Box<dyn Fn(Xy) -> Xy>)
                .collect(),
        };
        't: for t in trans {
            let mut cells = Vec::with_capacity(all.len());
            for &x in &all {
                let (c, r) = t(x);
                match board.cell(c, r) {
                    Some(cell) => cells.push(cell),
                    None => continue 't,
                }
            }
            let at = |x: Xy| {
                let (c, r) = t(x);
                board.cell(c, r).expect("checked on the board")
            };
            out.push(Placement {
                class: self.class,
                colour: self.colour,
                set: self.set.iter().map(|&x| at(x)).collect(),
                black: self.black.iter().map(|&x| at(x)).collect(),
                white: self.white.iter().map(|&x| at(x)).collect(),
                killer: self.killer.map(at),
            });
        }
    }
}

/// A pattern placed on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The claim.
    pub class: PatternClass,
    /// The claim's colour (captured: the capturer; vulnerable: the mover).
    pub colour: Colour,
    /// S.
    pub set: CellSet,
    /// Black stones required.
    pub black: CellSet,
    /// White stones required.
    pub white: CellSet,
    /// The killer (vulnerable).
    pub killer: Option<Cell>,
}

impl Placement {
    /// True when the pattern matches: S empty, the required stones present.
    #[inline]
    pub fn matches(&self, black: CellSet, white: CellSet) -> bool {
        self.black.is_subset(&black)
            && self.white.is_subset(&white)
            && (self.set & (black | white)).is_empty()
    }
}

/// Every placement of a list of patterns on one board, indexed by a required stone.
#[derive(Debug, Default)]
pub struct Placements {
    /// All placements.
    pub all: Vec<Placement>,
    by_stone: HashMap<(usize, Colour), Vec<u32>>,
    no_stone: Vec<u32>,
}

impl Placements {
    /// The placements of `patterns` (those of `classes`, with sets of at least `min_size`
    /// cells) on `board`. Patterns that do not place (bad cells) are skipped: the caller
    /// passes checked patterns.
    pub fn new(board: &Board, patterns: &[Pattern], keep: impl Fn(&Pattern) -> bool) -> Placements {
        let mut all = Vec::new();
        for p in patterns.iter().filter(|p| keep(p)) {
            let Ok(r) = rel(p) else { continue };
            // Distinct images in a fixed order (not a hash set's), so that the placements,
            // and with them the solver's fill-in and node counts, are the same every run.
            let mut seen: HashSet<Rel> = HashSet::new();
            let mut images: Vec<Rel> = Vec::new();
            for l in r.local_images() {
                for x in [l.clone(), l.rot180()] {
                    for y in [x.transpose_swap(), x] {
                        if seen.insert(y.clone()) {
                            images.push(y);
                        }
                    }
                }
            }
            for im in images {
                im.place(board, &mut all);
            }
        }
        let mut seen = HashSet::new();
        all.retain(|p| seen.insert(*p));
        let mut by_stone: HashMap<(usize, Colour), Vec<u32>> = HashMap::new();
        let mut no_stone = Vec::new();
        for (i, p) in all.iter().enumerate() {
            if let Some(c) = p.black.first() {
                by_stone
                    .entry((c.index(), Colour::Black))
                    .or_default()
                    .push(i as u32);
            } else if let Some(c) = p.white.first() {
                by_stone
                    .entry((c.index(), Colour::White))
                    .or_default()
                    .push(i as u32);
            } else {
                no_stone.push(i as u32);
            }
        }
        Placements {
            all,
            by_stone,
            no_stone,
        }
    }

    /// The placements that match `black`, `white` stones.
    pub fn matching(&self, black: CellSet, white: CellSet) -> Vec<&Placement> {
        let mut out = Vec::new();
        let mut check = |i: u32| {
            let p = &self.all[i as usize];
            if p.matches(black, white) {
                out.push(p);
            }
        };
        for &i in &self.no_stone {
            check(i);
        }
        for (stones, colour) in [(black, Colour::Black), (white, Colour::White)] {
            for c in stones.iter() {
                if let Some(v) = self.by_stone.get(&(c.index(), colour)) {
                    v.iter().for_each(|&i| check(i));
                }
            }
        }
        out
    }
}

thread_local! {
    /// The last board's placements, with the address of the installed list they were made
    /// from: a list installed after the cache was filled (tests, or a thread that searched
    /// before the CLI installed the library) makes the entry stale.
    static CACHE: RefCell<Option<(Board, usize, Rc<Placements>)>> = const { RefCell::new(None) };
}

/// The placements of the installed patterns ([`super::installed`]) that the solver fills
/// with: captured sets of three or more cells (pairs are found on the real board by
/// `dfpn::inferior`, which subsumes the pair patterns). Cached per thread and board.
pub fn placements(board: &Board) -> Rc<Placements> {
    let pats = super::installed();
    let key = Arc::as_ptr(&pats) as usize;
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        match &*c {
            Some((b, k, p)) if b == board && *k == key => p.clone(),
            _ => {
                let p = Rc::new(Placements::new(board, &pats, |p| {
                    p.class == PatternClass::Captured && p.set.len() >= 3
                }));
                *c = Some((*board, key, p.clone()));
                p
            }
        }
    })
}
