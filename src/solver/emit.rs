//! Exporting a solved win as a `.hexp` strategy (docs/LANGUAGE.md §9) for `hexproof check`.
//!
//! The solver's word is not final: the exported tree is re-proved by the checker, whose leaves
//! and precluding analyses are decided by the exact search under the certificate kernel.
//! The tree follows the search on the *real* positions (not the filled ones):
//!
//! - at a White-to-move position whose fill-in gives Black a winning VC on carrier C, a
//!   **leaf** `t - b on [C ∪ B] by search`, where B are the cells the fill-in gave Black
//!   (dead cells and Black-captured pairs: inside the sub-game they stay dead, or Black
//!   answers inside the pair, so the local claim holds);
//! - otherwise a **White node**: every winning VSC of Black (carrier S, key Z found by the
//!   exact search within [`KEY_NODES`]) becomes `preclude by Z { t - b on [S \ Z ∪ B] by
//!   search }` (the mustplay, Henderson, Arneson & Hayward 2009 §2); each White move left
//!   over, in the solver's move order, gets a `case`, answered by the solver's winning move.
//!   When the reply's proof set K (the cells its subtree may occupy, computed as the checker
//!   does) leaves out some of the moves still to answer, the case is written `case w | * =>`:
//!   those moves are refuted by the same reply (proof-set pruning, §5; docs/SEMANTICS.md,
//!   "Proof-set pruning in a tree").
//!
//! A win of White is written for the transposed board with the colours swapped (a symmetry of
//! Hex), since a strategy proves a win of Black.

use super::dfpn::Dfpn;
use super::tt::INF;
use super::{confirmed_move, key_move_within, make_search, SolveParams};
use crate::board::{Board, Cell, CellSet, Colour, Notation};
use crate::position::Position;
use std::fmt::Write;
use std::time::Instant;

/// Most nodes (black moves + white nodes + leaves) in an exported tree.
pub const MAX_TREE_NODES: usize = 200_000;

/// Node budget of the exact search that finds a VSC's key for a precluding analysis.
pub const KEY_NODES: u64 = 30_000;

/// Largest leaf or precluding carrier written (cells): the checker decides each by the exact
/// search, which is quick up to about this size on 7×7; a larger connection is split into
/// White's moves and Black's replies instead.
pub const LEAF_MAX: usize = 22;

/// Writes the win of the player who wins `pos` (`to_move` to play) as a `.hexp` file.
pub fn emit(pos: &Position, to_move: Colour, params: &SolveParams) -> Result<String, String> {
    emit_with(pos, to_move, params, LEAF_MAX)
}

/// [`emit`] with leaves (and precluding carriers) of at most `leaf_max` cells.
pub fn emit_with(
    pos: &Position,
    to_move: Colour,
    params: &SolveParams,
    leaf_max: usize,
) -> Result<String, String> {
    super::check_position(pos).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut d = make_search(params, params.order.order(), start);
    let filled = d.filled(pos, to_move);
    let (pn, dn) = d.mid(&filled, to_move, INF, INF);
    let black_wins = match (to_move, pn, dn) {
        (Colour::Black, 0, _) | (Colour::White, _, 0) => true,
        (Colour::White, 0, _) | (Colour::Black, _, 0) => false,
        _ => return Err("the solver could not decide the position within its budget".into()),
    };
    let (p, tm, swapped) = if black_wins {
        (pos.clone(), to_move, false)
    } else {
        (swap_colours(pos), to_move.opponent(), true)
    };
    let board = *p.board();
    let mut e = Emitter {
        d,
        out: String::new(),
        board,
        count: 0,
        leaf_max,
    };
    let (setup, first): (Position, Option<Cell>) = match tm {
        Colour::Black => (p.clone(), None),
        Colour::White => {
            // Unplay one black stone: Black "moves" there first.
            let s = p
                .stones(Colour::Black)
                .iter()
                .last()
                .ok_or("White to move on an empty board is not a Hex position")?;
            let mut q = p.clone();
            q.clear(s);
            (q, Some(s))
        }
    };
    let name = |c: Cell| board.cell_name(c, Notation::Letters);
    let mut head = String::new();
    let _ = writeln!(
        head,
        "// Emitted by `hexproof solve --emit-proof`: {} wins{}.",
        if black_wins { "Black" } else { "White" },
        if swapped {
            " (written for the transposed board with the colours swapped, so Black's strategy below is White's)"
        } else {
            ""
        }
    );
    let _ = writeln!(head, "// Check it with `hexproof check FILE`.\n");
    let _ = writeln!(
        head,
        "board {}x{} notation letters",
        board.cols(),
        board.rows()
    );
    for colour in [Colour::Black, Colour::White] {
        let stones: Vec<String> = setup.stones(colour).iter().map(name).collect();
        if !stones.is_empty() {
            let _ = writeln!(head, "{} {}", colour.name(), stones.join(", "));
        }
    }
    let _ = writeln!(head, "\nstrategy solved \"Black, to move, wins\" {{");
    match first {
        Some(s) => {
            let _ = writeln!(e.out, "  black {} {{", name(s));
            e.white(&p, 2)?;
            let _ = writeln!(e.out, "  }}");
        }
        None => {
            e.black(&p, 1)?;
        }
    }
    let _ = writeln!(e.out, "}}");
    let _ = writeln!(
        e.out,
        "// {} tree nodes (Black moves, White nodes, leaves).",
        e.count
    );
    Ok(head + &e.out)
}

/// `pos` transposed with the colours exchanged ([`Position::colours_swapped`]).
pub fn swap_colours(pos: &Position) -> Position {
    pos.colours_swapped()
}

struct Emitter<'a> {
    d: Dfpn<'a>,
    out: String,
    board: Board,
    count: usize,
    leaf_max: usize,
}

impl Emitter<'_> {
    fn name(&self, c: Cell) -> String {
        self.board.cell_name(c, Notation::Letters)
    }

    fn list(&self, s: CellSet) -> String {
        let v: Vec<String> = s.iter().map(|c| self.name(c)).collect();
        format!("[{}]", v.join(", "))
    }

    fn tick(&mut self) -> Result<(), String> {
        self.count += 1;
        if self.count > MAX_TREE_NODES {
            return Err(format!("the proof tree exceeds {MAX_TREE_NODES} nodes"));
        }
        Ok(())
    }

    /// Proves and writes: Black to move in `q` wins. Returns the proof set of the written
    /// subtree (the move and its White node's set), as the checker computes it.
    fn black(&mut self, q: &Position, ind: usize) -> Result<CellSet, String> {
        self.tick()?;
        let f = self.d.filled(q, Colour::Black);
        let (pn, _) = self.d.mid(&f, Colour::Black, INF, INF);
        if pn != 0 {
            return Err(format!(
                "the solver could not prove Black's win in a sub-position ({} nodes)",
                self.d.nodes
            ));
        }
        let e = self.d.entry(&f, Colour::Black);
        let mv = match e.best {
            Some(m) => Some(m),
            None if f.winner() == Some(Colour::Black) => q.empty_cells().first(),
            None => confirmed_move(&mut self.d, &f, Colour::Black, e.moves),
        };
        let mv = mv.ok_or("no confirmed winning move for Black")?;
        let pad = "  ".repeat(ind);
        let _ = writeln!(self.out, "{pad}black {} {{", self.name(mv));
        let mut q2 = q.clone();
        q2.play(Colour::Black, mv).map_err(|e| e.to_string())?;
        let k = self.white(&q2, ind + 1)?;
        let _ = writeln!(self.out, "{pad}}}");
        Ok(k | CellSet::single(mv))
    }

    /// Writes a leaf: Black's `t - b` on `carrier` by the exact search.
    fn leaf(&mut self, carrier: CellSet, pad: &str) -> CellSet {
        let _ = writeln!(self.out, "{pad}t - b on {} by search", self.list(carrier));
        carrier
    }

    /// Proves and writes: White to move in `q` loses. Returns the proof set of the written
    /// subtree (docs/SEMANTICS.md, "Proof-set pruning in a tree"): a leaf's carrier; at a
    /// White node the precluding carriers with their moves and every reply's set.
    fn white(&mut self, q: &Position, ind: usize) -> Result<CellSet, String> {
        self.tick()?;
        let pad = "  ".repeat(ind);
        let f = self.d.filled(q, Colour::White);
        let given = f.stones(Colour::Black) - q.stones(Colour::Black);
        if f.winner() == Some(Colour::Black) {
            return Ok(self.leaf(given, &pad));
        }
        let (black_vcs, _) = self.d.eval.build_full(&f);
        let vcs = black_vcs.winning_vcs();
        // Black's winning VSCs in the filled position.
        let mut semis = black_vcs.winning_vscs();
        if let Some(c) = vcs
            .into_iter()
            .map(|c| c | given)
            .filter(|c| c.len() <= self.leaf_max)
            .min_by_key(|c| c.len())
        {
            return Ok(self.leaf(c, &pad));
        }
        semis.sort_by_key(|s| s.len());
        let _ = writeln!(self.out, "{pad}white {{");
        let empty = q.empty_cells();
        let mut k = CellSet::EMPTY;
        // Mustplay: each small winning VSC of Black, as a precluding analysis.
        let mut left = empty;
        for s in semis
            .into_iter()
            .filter(|s| (*s | given).len() <= self.leaf_max + 1)
        {
            if (s & left) == left {
                continue; // would not shrink the moves left
            }
            // A VSC whose key the exact search cannot find quickly would be as slow for the
            // checker to verify: leave its moves to the cases.
            let Some(z) = key_move_within(&f, Colour::Black, s, KEY_NODES) else {
                continue;
            };
            let carrier = (s - CellSet::single(z)) | given;
            let _ = writeln!(self.out, "{pad}  preclude by {} {{", self.name(z));
            let _ = writeln!(
                self.out,
                "{pad}    t - b on {} by search",
                self.list(carrier)
            );
            let _ = writeln!(self.out, "{pad}  }}");
            let keep = carrier | CellSet::single(z);
            left &= keep;
            k |= keep & empty;
        }
        // The moves left, in the solver's order; each reply's proof set refutes every move
        // outside it (`| *`, proof-set pruning, Henderson, Arneson & Hayward 2009 §5).
        let mut order = Vec::new();
        self.d.order.scores(&f, Colour::White, left, &mut order);
        // Cells the fill-in gave a colour are not scored on `f`: they come last.
        let scored: CellSet = order.iter().map(|&(_, c)| c).collect();
        order.sort_unstable();
        let mut moves: Vec<Cell> = order.into_iter().map(|(_, c)| c).collect();
        moves.extend((left - scored).iter());
        for w in moves {
            if !left.contains(w) {
                continue;
            }
            let mut q2 = q.clone();
            q2.play(Colour::White, w).map_err(|e| e.to_string())?;
            let outer = std::mem::take(&mut self.out);
            let kc = self.black(&q2, ind + 1);
            let inner = std::mem::replace(&mut self.out, outer);
            let kc = kc?;
            left.remove(w);
            let rest = if (left - kc).is_empty() { "" } else { " | *" };
            left &= kc;
            k |= kc & empty;
            // `black` writes its own indentation; strip it for the `case` line.
            let _ = write!(
                self.out,
                "{pad}  case {}{rest} => {}",
                self.name(w),
                inner.trim_start()
            );
        }
        let _ = writeln!(self.out, "{pad}}}");
        Ok(k)
    }
}
