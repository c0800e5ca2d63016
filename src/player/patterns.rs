//! Learned move priors: local patterns around a move with Bradley–Terry weights, in the
//! style of MoHex 2.0 (Huang, Arneson, Hayward, Müller & Pawlewicz 2013), fitted by Coulom's
//! minorization–maximization (MM; Coulom 2007, "Computing Elo ratings of move patterns").
//!
//! **Pattern.** The 18 cells at hex distance 1 and 2 around the move, seen by the side to
//! move: each is empty, the mover's, the opponent's, or off the board. Off-board cells count
//! as stones of the border's owner (the edges are the players' "stones"), and a cell beyond
//! a corner (past two borders) is its own fourth state. White's patterns are read on the
//! transposed board, so that the mover always joins "top" to "bottom"; then a pattern and
//! its 180° rotation are the same pattern (the only symmetry of the board that keeps each
//! player's borders), and its key is the smaller of the two encodings.
//!
//! **Features.** Every move has two: its radius-1 pattern (the 6 neighbours) and its
//! radius-2 pattern (all 18 cells). A move's strength is the product of their weights
//! ("gammas"); a radius-2 pattern not in the table has weight 1, so a rare pattern falls
//! back on its radius-1 weight. The probability that a move is chosen is its strength over
//! the sum of the strengths of all legal moves.
//!
//! **Training** ([`train`]): self-play games of the MCTS player with a fixed number of
//! playouts per move (so that a seed reproduces them exactly, whatever the machine's
//! load), each move labelled as the winner among all empty cells of its position; MM fits
//! the gammas with one virtual win and one virtual loss against a gamma-1 opponent per
//! feature (Coulom's prior, which keeps rare patterns near 1).
//!
//! **Use** ([`super::mcts`]): at expansion a node's children get their probability, which
//! enters the selection as a progressive-bias term.

use crate::board::{Board, Cell, Colour};
use crate::game::{Game, Move};
use crate::position::Position;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The cells of a pattern: offsets (dx, dy) in the mover's frame, the 6 at distance 1 first
/// (hexproof's adjacency: (±1, 0), (0, ±1), (1, −1), (−1, 1)).
const OFFSETS: [(i8, i8); 18] = [
    (1, 0),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (1, -1),
    (2, 0),
    (2, -1),
    (2, -2),
    (1, -2),
    (0, -2),
    (-1, -1),
    (-2, 0),
    (-2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 1),
];

/// Cell states in a pattern (2 bits each).
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPP: u8 = 2;
const CORNER: u8 = 3;

/// A source of a pattern cell: a board cell index, or a fixed off-board state.
const FIXED: u16 = 0xFF00;

/// The first line of a weights file.
pub const HEADER: &str = "# hexproof move patterns v1";

/// The weights shipped with hexproof (`data/patterns-11.txt`, made by
/// `hexproof train-patterns`; the file's header says with which seed and games).
pub const BUILTIN: &str = include_str!("../../data/patterns-11.txt");

/// Why a weights file was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// The first line is not [`HEADER`].
    #[error("not a hexproof patterns file (the first line should be '{HEADER}')")]
    Header,
    /// A line that is not `r1|r2 KEY GAMMA`.
    #[error("line {line}: expected 'r1 KEY GAMMA' or 'r2 KEY GAMMA', got '{text}'")]
    Line {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
}

/// The gammas of the two features.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    r1: hashbrown::HashMap<u64, f32>,
    r2: hashbrown::HashMap<u64, f32>,
    /// The `#` lines after the header (provenance).
    pub comments: Vec<String>,
}

impl Table {
    /// Reads a weights file: the header, `#` comment lines, then `r1 KEY GAMMA` and
    /// `r2 KEY GAMMA` lines (keys in hexadecimal, gammas positive).
    pub fn parse(text: &str) -> Result<Table, PatternError> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(HEADER) {
            return Err(PatternError::Header);
        }
        let mut t = Table::default();
        for (i, raw) in lines.enumerate() {
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(c) = line.strip_prefix('#') {
                t.comments.push(c.trim().to_string());
                continue;
            }
            let bad = || PatternError::Line {
                line: i + 2,
                text: raw.to_string(),
            };
            let f: Vec<&str> = line.split_whitespace().collect();
            let [kind, key, gamma] = f[..] else {
                return Err(bad());
            };
            let key = u64::from_str_radix(key, 16).map_err(|_| bad())?;
            let gamma: f32 = gamma.parse().map_err(|_| bad())?;
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(bad());
            }
            match kind {
                "r1" if key < 1 << 12 => t.r1.insert(key, gamma),
                "r2" if key < 1 << 36 => t.r2.insert(key, gamma),
                _ => return Err(bad()),
            };
        }
        Ok(t)
    }

    /// The shipped weights ([`BUILTIN`]), parsed once.
    pub fn builtin() -> &'static Table {
        static T: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
        T.get_or_init(|| Table::parse(BUILTIN).expect("the shipped patterns file parses"))
    }

    /// Number of radius-1 and radius-2 patterns.
    pub fn len(&self) -> (usize, usize) {
        (self.r1.len(), self.r2.len())
    }

    /// True when the table has no pattern.
    pub fn is_empty(&self) -> bool {
        self.r1.is_empty() && self.r2.is_empty()
    }

    /// The strength of a move with these (canonical) keys.
    pub fn gamma(&self, keys: (u64, u64)) -> f32 {
        self.r1.get(&keys.0).copied().unwrap_or(1.0) * self.r2.get(&keys.1).copied().unwrap_or(1.0)
    }

    /// The same table with every gamma raised to `power` (0 makes every move weigh 1, 1
    /// keeps the table; between them the weights are flattened).
    pub fn powered(&self, power: f32) -> Table {
        let pow = |m: &hashbrown::HashMap<u64, f32>| {
            m.iter().map(|(&k, &g)| (k, g.powf(power))).collect()
        };
        Table {
            r1: pow(&self.r1),
            r2: pow(&self.r2),
            comments: self.comments.clone(),
        }
    }

    /// The radius-1 gammas as a dense array indexed by the (canonical, 12-bit) radius-1 key,
    /// 1 where the table has none: a lookup without hashing, for the playouts.
    pub fn dense_r1(&self) -> Vec<f32> {
        let mut d = vec![1.0f32; 1 << 12];
        for (&k, &g) in &self.r1 {
            d[k as usize] = g;
        }
        d
    }

    /// The radius-2 gamma of a (canonical) key, 1 where the table has none.
    #[inline]
    pub fn gamma_r2(&self, key: u64) -> f32 {
        self.r2.get(&key).copied().unwrap_or(1.0)
    }

    /// The file text: header, comments, then the patterns sorted by key.
    pub fn to_text(&self) -> String {
        let mut s = format!("{HEADER}\n");
        for c in &self.comments {
            let _ = writeln!(s, "# {c}");
        }
        for (kind, map) in [("r1", &self.r1), ("r2", &self.r2)] {
            let sorted: BTreeMap<u64, f32> = map.iter().map(|(&k, &g)| (k, g)).collect();
            for (k, g) in sorted {
                let _ = writeln!(s, "{kind} {k:x} {g:.4}");
            }
        }
        s
    }
}

/// Where the cells of every pattern are on one board, for each mover.
pub struct Locator {
    n: usize,
    /// `src[m][cell]`: the 18 sources of the pattern around `cell` for mover `m`
    /// (0 Black, 1 White).
    src: [Vec<[u16; 18]>; 2],
    /// Slot permutation of the 180° rotation.
    rot: [usize; 18],
}

impl Locator {
    /// The patterns' geometry on `board`.
    pub fn new(board: &Board) -> Locator {
        let (cols, rows) = (board.cols() as i32, board.rows() as i32);
        let n = (cols * rows) as usize;
        let mut src = [vec![[0u16; 18]; n], vec![[0u16; 18]; n]];
        for (m, table) in src.iter_mut().enumerate() {
            for (i, slots) in table.iter_mut().enumerate() {
                let (x, y) = ((i as i32) % cols, (i as i32) / cols);
                for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
                    // White reads the transposed board.
                    let (bx, by) = if m == 0 {
                        (dx as i32, dy as i32)
                    } else {
                        (dy as i32, dx as i32)
                    };
                    let (cx, cy) = (x + bx, y + by);
                    let off_rows = cy < 0 || cy >= rows; // past Black's borders
                    let off_cols = cx < 0 || cx >= cols; // past White's borders
                    slots[k] = match (off_rows, off_cols) {
                        (false, false) => (cy * cols + cx) as u16,
                        (true, true) => FIXED | CORNER as u16,
                        (true, false) => FIXED | if m == 0 { OWN } else { OPP } as u16,
                        (false, true) => FIXED | if m == 0 { OPP } else { OWN } as u16,
                    };
                }
            }
        }
        let mut rot = [0usize; 18];
        for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
            rot[k] = OFFSETS
                .iter()
                .position(|&o| o == (-dx, -dy))
                .expect("the rings are symmetric");
        }
        Locator { n, src, rot }
    }

    /// The canonical (radius-1, radius-2) keys of the move at cell index `cell` for `mover`
    /// on `board` (cells in row order: 0 empty, 1 Black, 2 White).
    pub fn keys(&self, board: &[u8], mover: Colour, cell: usize) -> (u64, u64) {
        let m = match mover {
            Colour::Black => 0,
            Colour::White => 1,
        };
        let (key, rot) = self.raw_keys(board, m, cell);
        canonical(key, rot)
    }

    /// The radius-2 pattern of the move at `cell` for mover `m` (0 Black, 1 White) as read
    /// (`key`) and rotated by 180° (`rot`), before [`canonical`] picks the smaller.
    pub fn raw_keys(&self, board: &[u8], m: usize, cell: usize) -> (u64, u64) {
        let me = if m == 0 { 1u8 } else { 2u8 };
        let mut key = 0u64;
        let mut rot = 0u64;
        for (k, &s) in self.src[m][cell].iter().enumerate() {
            let state = if s >= FIXED {
                (s & 0xFF) as u8
            } else {
                match board[s as usize] {
                    0 => EMPTY,
                    c if c == me => OWN,
                    _ => OPP,
                }
            } as u64;
            key |= state << (2 * k);
            rot |= state << (2 * self.rot[k]);
        }
        (key, rot)
    }

    /// For mover `m` and every cell c: the (cell j, slot k) pairs such that c is slot k of
    /// the pattern around j, i.e. the patterns a stone on c changes (at most 18).
    pub fn inverse(&self, m: usize) -> Vec<Vec<(u16, u8)>> {
        let mut inv = vec![Vec::new(); self.n];
        for (j, slots) in self.src[m].iter().enumerate() {
            for (k, &s) in slots.iter().enumerate() {
                if s < FIXED {
                    inv[s as usize].push((j as u16, k as u8));
                }
            }
        }
        inv
    }

    /// The slot that slot `k` goes to under the 180° rotation.
    pub fn rotated_slot(&self, k: usize) -> usize {
        self.rot[k]
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.n
    }
}

/// The canonical (radius-1, radius-2) keys of a pattern read as `key` and rotated as `rot`
/// ([`Locator::raw_keys`]): the smaller of each pair. The radius-1 ring (slots 0..6, the low
/// 12 bits) rotates onto itself.
#[inline]
pub fn canonical(key: u64, rot: u64) -> (u64, u64) {
    ((key & 0xFFF).min(rot & 0xFFF), key.min(rot))
}

/// The board of `position` as cell codes in row order (0 empty, 1 Black, 2 White).
pub fn codes(position: &Position) -> Vec<u8> {
    let b = position.board();
    let cols = b.cols() as usize;
    let n = cols * b.rows() as usize;
    (0..n)
        .map(
            |i| match position.colour_at(Cell::at((i % cols) as u8, (i / cols) as u8)) {
                Some(Colour::Black) => 1,
                Some(Colour::White) => 2,
                None => 0,
            },
        )
        .collect()
}

/// One training position: the (feature-1 id, feature-2 id) of every legal move, and which
/// of them was played.
struct Sample {
    moves: Vec<(u32, u32)>,
    chosen: usize,
}

/// How [`train`] runs.
#[derive(Clone, Copy, Debug)]
pub struct TrainParams {
    /// Seed of the self-play games.
    pub seed: u64,
    /// Number of games.
    pub games: usize,
    /// Board size.
    pub size: u8,
    /// MCTS playouts per move in the games.
    pub playouts: u64,
    /// Random moves that open each game (not training positions).
    pub random_opening: usize,
    /// A radius-2 pattern gets a weight of its own only when it occurs at least this many
    /// times among the legal moves of the training positions (others share weight 1).
    pub min_count: u32,
    /// MM iterations.
    pub iterations: usize,
}

/// What [`train`] made.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The weights.
    pub table: Table,
    /// Training positions.
    pub positions: usize,
    /// Games won by Black.
    pub black_wins: usize,
    /// Mean log-likelihood per position of the played move, before (all gammas 1) and
    /// after the fit.
    pub log_likelihood: (f64, f64),
}

/// splitmix64, for the seeds of the games and their random openings.
fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays the self-play games and fits the weights (see the module docs). Deterministic: the
/// same parameters give the same table, bit for bit. `progress` is called after each game.
pub fn train(p: &TrainParams, mut progress: impl FnMut(usize)) -> Trained {
    let board = Board::square(p.size as u32).expect("a valid board size");
    let loc = Locator::new(&board);
    let mut rng = p.seed;
    let config = super::Config {
        solver_thread: false,
        m: 0,
        knowledge_threshold: u32::MAX,
        priors: false,
        // The shipped weights were made without fill-in; keep the trainer reproducing them.
        inferior: false,
        ..super::Config::default()
    };
    // Feature ids: radius-1 keys by first sight, radius-2 keys counted first.
    let mut records: Vec<(Vec<u8>, Colour, usize)> = Vec::new();
    let mut black_wins = 0;
    for g in 0..p.games {
        let mut game = Game::new(board);
        let mut moves = 0;
        while game.winner().is_none() {
            let to_move = game.to_move();
            let pos = game.position().clone();
            let empty: Vec<Cell> = pos.empty_cells().iter().collect();
            let cell = if moves < p.random_opening {
                empty[(splitmix(&mut rng) % empty.len() as u64) as usize]
            } else {
                let cfg = super::Config {
                    seed: splitmix(&mut rng),
                    ..config.clone()
                };
                let c = super::mcts::playout_move(&cfg, &pos, to_move, p.playouts);
                let (x, y) = c.coords();
                records.push((
                    codes(&pos),
                    to_move,
                    y as usize * p.size as usize + x as usize,
                ));
                c
            };
            game.play(Move::Stone(to_move, cell))
                .expect("an empty cell of an unfinished game");
            moves += 1;
        }
        if game.winner() == Some(Colour::Black) {
            black_wins += 1;
        }
        progress(g + 1);
    }
    // Features of every legal move of every position.
    let mut keyed: Vec<(Vec<(u64, u64)>, usize)> = Vec::with_capacity(records.len());
    let mut count2: BTreeMap<u64, u32> = BTreeMap::new();
    for (cells, mover, chosen) in &records {
        let mut ks = Vec::new();
        let mut at = 0;
        for (i, &c) in cells.iter().enumerate() {
            if c == 0 {
                if i == *chosen {
                    at = ks.len();
                }
                ks.push(loc.keys(cells, *mover, i));
            }
        }
        for k in &ks {
            *count2.entry(k.1).or_default() += 1;
        }
        keyed.push((ks, at));
    }
    let mut ids1: BTreeMap<u64, u32> = BTreeMap::new();
    for (ks, _) in &keyed {
        for k in ks {
            let next = ids1.len() as u32;
            ids1.entry(k.0).or_insert(next);
        }
    }
    // Radius-2 id 0: every pattern below min_count (weight fixed at 1).
    let mut ids2: BTreeMap<u64, u32> = BTreeMap::new();
    for (&k, &c) in &count2 {
        if c >= p.min_count {
            let next = ids2.len() as u32 + 1;
            ids2.insert(k, next);
        }
    }
    let samples: Vec<Sample> = keyed
        .iter()
        .map(|(ks, at)| Sample {
            moves: ks
                .iter()
                .map(|k| (ids1[&k.0], ids2.get(&k.1).copied().unwrap_or(0)))
                .collect(),
            chosen: *at,
        })
        .collect();
    let mut g1 = vec![1.0f64; ids1.len()];
    let mut g2 = vec![1.0f64; ids2.len() + 1];
    let before = log_likelihood(&samples, &g1, &g2);
    for _ in 0..p.iterations {
        mm_step(&samples, &mut g1, &g2, 0);
        let g1c = g1.clone();
        mm_step(&samples, &mut g2, &g1c, 1);
        g2[0] = 1.0;
    }
    let after = log_likelihood(&samples, &g1, &g2);
    let mut table = Table::default();
    for (&k, &id) in &ids1 {
        table.r1.insert(k, g1[id as usize] as f32);
    }
    for (&k, &id) in &ids2 {
        table.r2.insert(k, g2[id as usize] as f32);
    }
    table.comments = vec![
        format!(
            "hexproof train-patterns --seed {} --games {} --size {} --playouts {}",
            p.seed, p.games, p.size, p.playouts
        ),
        format!(
            "{} positions; {} radius-1 and {} radius-2 patterns (min count {}); {} MM iterations",
            samples.len(),
            ids1.len(),
            ids2.len(),
            p.min_count,
            p.iterations
        ),
        format!("mean log-likelihood of the played move: {before:.4} (uniform) -> {after:.4}"),
    ];
    Trained {
        table,
        positions: samples.len(),
        black_wins,
        log_likelihood: (before, after),
    }
}

/// One MM update of the gammas `g` of feature group `group` (0: radius 1, 1: radius 2),
/// the other group's gammas `other` fixed (Coulom 2007, eq. for generalized Bradley–Terry
/// teams; with one virtual win and one virtual loss against a gamma-1 opponent).
fn mm_step(samples: &[Sample], g: &mut [f64], other: &[f64], group: usize) {
    let mut wins = vec![1.0f64; g.len()]; // the virtual win
    let mut denom = vec![0.0f64; g.len()];
    let feat = |m: &(u32, u32)| {
        if group == 0 {
            (m.0 as usize, m.1 as usize)
        } else {
            (m.1 as usize, m.0 as usize)
        }
    };
    for s in samples {
        let e: f64 = s
            .moves
            .iter()
            .map(|m| {
                let (a, b) = feat(m);
                g[a] * other[b]
            })
            .sum();
        wins[feat(&s.moves[s.chosen]).0] += 1.0;
        for m in &s.moves {
            let (a, b) = feat(m);
            denom[a] += other[b] / e;
        }
    }
    for (i, gi) in g.iter_mut().enumerate() {
        // The virtual opponent of gamma 1: a win and a loss, 2 / (gamma + 1).
        *gi = wins[i] / (denom[i] + 2.0 / (*gi + 1.0));
    }
}

/// Mean log-probability of the played move.
fn log_likelihood(samples: &[Sample], g1: &[f64], g2: &[f64]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let st = |m: &(u32, u32)| g1[m.0 as usize] * g2[m.1 as usize];
            let e: f64 = s.moves.iter().map(st).sum();
            (st(&s.moves[s.chosen]) / e).ln()
        })
        .sum();
    total / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Notation;

    #[test]
    fn rotation_and_colour_give_the_same_key() {
        // A Black stone above-right of c3 for Black equals, rotated 180°, the stone
        // below-left; and the same shape for White on the transposed board.
        let b = Board::square(7).unwrap();
        let loc = Locator::new(&b);
        let key = |black: &str, white: &str, mover: Colour, cell: &str| {
            let p = Position::from_names(b, black, white, Notation::Letters).unwrap();
            let c = b.parse_cell(cell, Notation::Letters).unwrap();
            let (x, y) = c.coords();
            loc.keys(&codes(&p), mover, y as usize * 7 + x as usize)
        };
        let a = key("e3", "", Colour::Black, "d4"); // offset (1, -1)
        let r = key("c5", "", Colour::Black, "d4"); // offset (-1, 1)
        assert_eq!(a, r);
        let w = key("", "c5", Colour::White, "d4"); // transposed (1, -1) is (-1, 1)
        assert_eq!(a, w);
        // An opponent stone differs from an own stone.
        assert_ne!(a, key("", "e3", Colour::Black, "d4"));
        // Edges: a1 for Black has Black's border above (own) and White's to the left.
        let corner = key("", "", Colour::Black, "a1");
        let centre = key("", "", Colour::Black, "d4");
        assert_ne!(corner, centre);
        assert_eq!(centre, (0, 0));
    }

    #[test]
    fn the_weights_file_round_trips_and_bad_files_are_refused() {
        let t = Table::builtin();
        assert!(t.len().0 > 10 && t.len().1 > 10, "{:?}", t.len());
        assert_eq!(&Table::parse(&t.to_text()).unwrap(), t);
        assert_eq!(Table::parse("r1 0 1"), Err(PatternError::Header));
        let bad = format!("{HEADER}\nr1 zz 1.0\n");
        assert!(matches!(
            Table::parse(&bad),
            Err(PatternError::Line { line: 2, .. })
        ));
        let neg = format!("{HEADER}\nr2 10 -1\n");
        assert!(Table::parse(&neg).is_err());
    }
}
