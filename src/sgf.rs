//! SGF for Hex (FF[4], GM[11]) as HexGui reads and writes it (ECOSYSTEM.md §2.1).
//!
//! Writing: `(;AP[hexproof:…]FF[4]GM[11]SZ[n]` (or `SZ[c:r]`), setup `AB`/`AW`/`PL` when
//! there is one, then one node per move: `;B[f6]`, `;W[swap-sides]` for the swap (the stone
//! stays and White moves again — its true SGF name), `;B[resign]`.
//!
//! Reading: the main line (first variation at every branch); `SZ`, `AB`, `AW`, `AE`, `PL`,
//! `B`, `W`; cells case-insensitive; `swap`, `swap-sides` and `swap-pieces` all accepted and,
//! because old HexGui files write `swap-pieces` for swap-sides, their meaning is taken from
//! the colour of the next move (ECOSYSTEM.md §0.4): White next → swap-sides; Black next → a
//! true swap-pieces, which is turned into the equivalent setup (the stone reflected in the
//! long diagonal, recoloured White, Black to move). Other properties are ignored.

use crate::board::{Board, BoardError, Cell, CellSet, Colour, Notation, ParseCellError};
use crate::game::{Game, GameError, Move};
use crate::position::{Position, PositionError};

/// Why an SGF text could not be read as a Hex game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    /// A `)` before any `(`.
    #[error("unbalanced ')'")]
    Unbalanced,
    /// A `[` without its `]`.
    #[error("unterminated property value")]
    Unterminated,
    /// A property identifier with no `[value]`.
    #[error("property {0} has no value")]
    NoValue(String),
    /// A property before the first `;`.
    #[error("property before the first node")]
    PropertyBeforeNode,
    /// A character that has no place in SGF.
    #[error("unexpected character '{0}' in SGF")]
    Unexpected(char),
    /// The game tree is not closed.
    #[error("missing ')' at the end of the game")]
    MissingClose,
    /// No `(` in the text.
    #[error("no SGF game tree found")]
    NoTree,
    /// A game tree without nodes.
    #[error("empty SGF")]
    Empty,
    /// `GM[…]` other than 11.
    #[error("GM[{0}] is not Hex (GM[11])")]
    NotHex(String),
    /// `SZ[…]` that is not a number or `c:r`.
    #[error("bad SZ[{0}]")]
    BadSizeSyntax(String),
    /// `SZ[…]` outside the supported sizes.
    #[error(transparent)]
    Size(#[from] BoardError),
    /// A cell that does not parse or is off the board.
    #[error(transparent)]
    Cell(#[from] ParseCellError),
    /// `PL[…]` other than `B` or `W`.
    #[error("bad PL[{0}]")]
    BadPlayer(String),
    /// Setup stones that do not make a position.
    #[error(transparent)]
    Setup(#[from] PositionError),
    /// A move the game refuses (the 1-based move number).
    #[error("move {index}: {source}")]
    Move {
        /// The 1-based move number.
        index: usize,
        /// Why the game refused it.
        #[source]
        source: GameError,
    },
    /// A move the game refuses, not numbered (a resignation).
    #[error(transparent)]
    Game(#[from] GameError),
    /// A true swap-pieces that is not White's second move.
    #[error("move {index}: swap-pieces is only White's second move (after {played} moves here)")]
    SwapNotSecond {
        /// The 1-based move number.
        index: usize,
        /// How many moves were played before it.
        played: usize,
    },
    /// A true swap-pieces with no Black stone to swap.
    #[error("move {0}: swap-pieces without a first stone")]
    SwapWithoutStone(usize),
    /// A true swap-pieces on a board that is not square.
    #[error("swap-pieces on a non-square board")]
    SwapNonSquare,
    /// A true swap-pieces after setup stones.
    #[error("swap-pieces after setup stones")]
    SwapAfterSetup,
}

/// Writes `game` as one line of SGF.
pub fn write(game: &Game) -> String {
    let b = game.board();
    let mut s = format!("(;AP[hexproof:{}]FF[4]GM[11]", env!("CARGO_PKG_VERSION"));
    if b.cols() == b.rows() {
        s += &format!("SZ[{}]", b.cols());
    } else {
        s += &format!("SZ[{}:{}]", b.cols(), b.rows());
    }
    let setup = game.setup();
    for (tag, c) in [("AB", Colour::Black), ("AW", Colour::White)] {
        let st = setup.stones(c);
        if !st.is_empty() {
            s += tag;
            for cell in st.iter() {
                s += &format!("[{}]", b.cell_name(cell, Notation::Letters));
            }
        }
    }
    let has_setup =
        !(setup.stones(Colour::Black).is_empty() && setup.stones(Colour::White).is_empty());
    if has_setup || game.first() != Colour::Black {
        s += &format!("PL[{}]", letter(game.first()));
    }
    for m in game.moves() {
        let v = match *m {
            Move::Stone(_, cell) => b.cell_name(cell, Notation::Letters),
            Move::Swap(_) => "swap-sides".into(),
            Move::Resign(_) => "resign".into(),
        };
        s += &format!(";{}[{}]", letter(m.colour()), v);
    }
    s += ")";
    s
}

fn letter(c: Colour) -> char {
    match c {
        Colour::Black => 'B',
        Colour::White => 'W',
    }
}

/// One property: identifier and values.
type Prop = (String, Vec<String>);

/// The main line's nodes.
fn main_line(text: &str) -> Result<Vec<Vec<Prop>>, SgfError> {
    let mut nodes: Vec<Vec<Prop>> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0;
    let mut started = false;
    while let Some(c) = chars.next() {
        match c {
            '(' => {
                depth += 1;
                started = true;
            }
            ')' => {
                // The first closing parenthesis ends the main line.
                if depth == 0 {
                    return Err(SgfError::Unbalanced);
                }
                return Ok(nodes);
            }
            ';' if started => nodes.push(Vec::new()),
            c if c.is_ascii_uppercase() && started => {
                let mut id = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_alphabetic() {
                        id.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                let mut values = Vec::new();
                loop {
                    while chars.peek().is_some_and(|d| d.is_whitespace()) {
                        chars.next();
                    }
                    if chars.peek() != Some(&'[') {
                        break;
                    }
                    chars.next();
                    let mut v = String::new();
                    loop {
                        match chars.next() {
                            None => return Err(SgfError::Unterminated),
                            Some('\\') => {
                                if let Some(e) = chars.next() {
                                    v.push(e);
                                }
                            }
                            Some(']') => break,
                            Some(x) => v.push(x),
                        }
                    }
                    values.push(v);
                }
                if values.is_empty() {
                    return Err(SgfError::NoValue(id));
                }
                let node = nodes.last_mut().ok_or(SgfError::PropertyBeforeNode)?;
                node.push((id, values));
            }
            c if c.is_whitespace() => {}
            c if !started => {
                let _ = c; // text before the game tree is ignored
            }
            c => return Err(SgfError::Unexpected(c)),
        }
    }
    if started {
        Err(SgfError::MissingClose)
    } else {
        Err(SgfError::NoTree)
    }
}

fn parse_size(v: &str) -> Result<Board, SgfError> {
    let v = v.trim();
    let b = match v.split_once(':') {
        Some((c, r)) => {
            let c = c
                .trim()
                .parse::<u32>()
                .map_err(|_| SgfError::BadSizeSyntax(v.into()))?;
            let r = r
                .trim()
                .parse::<u32>()
                .map_err(|_| SgfError::BadSizeSyntax(v.into()))?;
            Board::new(c, r)
        }
        None => Board::square(
            v.parse::<u32>()
                .map_err(|_| SgfError::BadSizeSyntax(v.into()))?,
        ),
    };
    Ok(b?)
}

/// What a move value says.
enum Value {
    Cell(Cell),
    Swap,
    Resign,
    Skip,
}

fn value(board: &Board, v: &str) -> Result<Value, SgfError> {
    let l = v.trim().to_ascii_lowercase();
    Ok(match l.as_str() {
        "swap" | "swap-sides" | "swap-pieces" => Value::Swap,
        "resign" | "forfeit" => Value::Resign,
        "" | "pass" => Value::Skip,
        _ => Value::Cell(board.parse_cell(&l, Notation::Letters)?),
    })
}

/// Reads a game; `upto` = stop before this move number (1-based, GTP `loadsgf file n`).
pub fn read(text: &str, upto: Option<usize>) -> Result<Game, SgfError> {
    let nodes = main_line(text)?;
    let root = nodes.first().ok_or(SgfError::Empty)?;
    let get = |id: &str| root.iter().find(|(k, _)| k == id).map(|(_, v)| v);
    if let Some(gm) = get("GM") {
        if gm[0].trim() != "11" {
            return Err(SgfError::NotHex(gm[0].clone()));
        }
    }
    let board = match get("SZ") {
        Some(v) => parse_size(&v[0])?,
        None => Board::square(11).expect("11x11"),
    };
    // Setup from every node's AB/AW/AE before the first move (HexGui puts them in the root).
    let (mut black, mut white) = (CellSet::EMPTY, CellSet::EMPTY);
    let mut first = Colour::Black;
    let mut moves: Vec<(Colour, String)> = Vec::new();
    for node in &nodes {
        for (id, vals) in node {
            match id.as_str() {
                "AB" | "AW" | "AE" => {
                    for v in vals {
                        let c = board.parse_cell(v.trim(), Notation::Letters)?;
                        black.remove(c);
                        white.remove(c);
                        if id == "AB" {
                            black.insert(c);
                        } else if id == "AW" {
                            white.insert(c);
                        }
                    }
                }
                "PL" => {
                    first = match vals[0].trim().to_ascii_uppercase().as_str() {
                        "B" => Colour::Black,
                        "W" => Colour::White,
                        o => return Err(SgfError::BadPlayer(o.into())),
                    }
                }
                "B" => moves.push((Colour::Black, vals[0].clone())),
                "W" => moves.push((Colour::White, vals[0].clone())),
                _ => {}
            }
        }
    }
    let setup = Position::new(board, black, white)?;
    let mut game = Game::with_setup(setup, first);
    let limit = upto.map_or(usize::MAX, |n| n.saturating_sub(1));
    for (i, (colour, v)) in moves.iter().enumerate() {
        if i >= limit {
            break;
        }
        match value(&board, v)? {
            Value::Cell(c) => {
                game.play(Move::Stone(*colour, c))
                    .map_err(|source| SgfError::Move {
                        index: i + 1,
                        source,
                    })?
            }
            Value::Resign => game.play(Move::Resign(*colour))?,
            Value::Skip => {}
            Value::Swap => {
                let next = moves.get(i + 1).map(|(c, _)| *c);
                if next == Some(Colour::Black) {
                    // A true swap-pieces: reflect and recolour the first stone. Only White's
                    // second move may swap; anywhere else it would drop the moves played.
                    if game.moves().len() != 1 || *colour != Colour::White {
                        return Err(SgfError::SwapNotSecond {
                            index: i + 1,
                            played: game.moves().len(),
                        });
                    }
                    let Some(Move::Stone(Colour::Black, c)) = game.moves().first().copied() else {
                        return Err(SgfError::SwapWithoutStone(i + 1));
                    };
                    let (x, y) = c.coords();
                    let t = board.transposed();
                    let mirrored = Cell::at(y, x);
                    if !t.contains(mirrored) || t != board {
                        return Err(SgfError::SwapNonSquare);
                    }
                    let setup = Position::new(board, CellSet::EMPTY, CellSet::single(mirrored))?;
                    if !board.cells().is_subset(&game.setup().empty_cells()) {
                        return Err(SgfError::SwapAfterSetup);
                    }
                    game = Game::with_setup(setup, Colour::Black);
                } else {
                    game.play(Move::Swap(*colour))
                        .map_err(|source| SgfError::Move {
                            index: i + 1,
                            source,
                        })?;
                }
            }
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let b = Board::square(5).unwrap();
        let mut g = Game::new(b);
        let c = |s: &str| b.parse_cell(s, Notation::Letters).unwrap();
        g.play(Move::Stone(Colour::Black, c("c3"))).unwrap();
        g.play(Move::Swap(Colour::White)).unwrap();
        g.play(Move::Stone(Colour::White, c("b2"))).unwrap();
        g.play(Move::Stone(Colour::Black, c("d4"))).unwrap();
        let s = write(&g);
        assert_eq!(
            s,
            format!(
                "(;AP[hexproof:{}]FF[4]GM[11]SZ[5];B[c3];W[swap-sides];W[b2];B[d4])",
                env!("CARGO_PKG_VERSION")
            )
        );
        let h = read(&s, None).unwrap();
        assert_eq!(h.moves(), g.moves());
        assert_eq!(write(&h), s);
        // Up to move 3: two moves played.
        assert_eq!(read(&s, Some(3)).unwrap().moves().len(), 2);
    }

    #[test]
    fn hexgui_files() {
        // Old HexGui: swap-pieces with swap-sides meaning (White moves next).
        let g = read(
            "(;AP[HexGui:1.0.]FF[4]GM[11]SZ[11];B[a2];W[swap-pieces];W[d8];B[g6])",
            None,
        )
        .unwrap();
        assert_eq!(g.moves()[1], Move::Swap(Colour::White));
        assert_eq!(g.to_move(), Colour::White);
        // True swap-pieces (Black next): the stone is mirrored and recoloured.
        let g = read(
            "(;AP[HexGui:0.10.GIT]FF[4]GM[11]SZ[11];B[c2];W[swap-pieces];B[f6];W[e7])",
            None,
        )
        .unwrap();
        let b2 = g.board().parse_cell("b3", Notation::Letters).unwrap();
        assert_eq!(g.position().colour_at(b2), Some(Colour::White));
        assert_eq!(g.moves().len(), 2);
        // Setup with side to move, non-square size.
        let g = read(
            "(;AP[HexGui:1.0.]FF[4]GM[11]SZ[10:8];AB[g3][b4][e4]AW[b2][g2]PL[W])",
            None,
        )
        .unwrap();
        assert_eq!(g.board().cols(), 10);
        assert_eq!(g.to_move(), Colour::White);
        assert_eq!(g.position().stones(Colour::Black).len(), 3);
        let s = write(&g);
        assert!(
            s.contains("SZ[10:8]AB[g3][b4][e4]AW[g2][b2]PL[W]") || s.contains("PL[W]"),
            "{s}"
        );
        // Errors.
        assert!(read("(;GM[1]SZ[19])", None).is_err());
        assert!(read("(;GM[11]SZ[5];B[z9])", None).is_err());
        assert!(read("(;GM[11]SZ[5];B[c3", None).is_err());
        assert!(read("garbage", None).is_err());
        assert!(read("(;GM[11]SZ[5];B[c3];W[c3])", None).is_err());
    }

    #[test]
    fn late_swap_is_rejected() {
        // Issue 24 item 17: a swap after move 1 used to restart the game from the first
        // stone, silently dropping the moves between.
        for sgf in [
            "(;GM[11]SZ[5];B[a1];W[b2];B[c3];W[swap-pieces];B[d4])",
            "(;GM[11]SZ[5];B[a1];W[b2];B[c3];W[swap-pieces])",
            "(;GM[11]SZ[5];B[a1];B[swap-pieces];B[d4])",
        ] {
            let e = read(sgf, None).unwrap_err();
            assert!(e.to_string().contains("swap"), "{sgf}: {e}");
        }
    }
}
