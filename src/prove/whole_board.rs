//! A one-stone edge template's sub-game as a whole-board Hex position, for the solver
//! (docs/templates.md, "Refutations by the whole-board solver").
//!
//! The claim "stone S − the edge, on carrier C, White first" is a plain Hex game once every
//! cell outside C is filled (the idea of tools/noshita8_huge.py for Noshita's huge lemma):
//!
//! - the template's edge is the board's top edge: `[r, c]` is board column `c − lo`, row
//!   `r − 1` (`[r, c]`'s neighbours `[r+1, c−1]`, `[r+1, c]` are the board's);
//! - S is joined to the bottom edge by Black stones outside C: a chain from a cell above S
//!   straight down to the last row (below the template's rows, so that no carrier cell
//!   touches the bottom edge, which is part of S's group), and every cell below the
//!   template's rows whose carrier neighbours are all neighbours of S;
//! - every other cell outside C is White; White is to move.
//!
//! Then Black joins top and bottom iff Black joins S to the edge in the sub-game: the Black
//! stones outside C form groups whose carrier neighbours are S's own (so taking a carrier cell
//! next to them is taking a cell next to S), and none of them touches the top edge (all lie
//! below the template's first row, and the cells of the template's rows outside C are White);
//! a Black path from top to bottom must therefore enter those groups from a Black carrier cell
//! next to S, and its carrier part joins S to the edge. Conversely S's connection to the edge
//! plus the chain is such a path. Since the positions agree on every carrier cell, the games
//! are the same game, and the solver's verdict (an exact DFPN search, every answer proved) is
//! the sub-game's. [`encode`] returns `None` when there is no such chain (both cells above S
//! in C, or the chain's column meeting C) or the board would exceed the solver's 81 cells.

use super::emit;
use crate::board::{Board, CellSet, Colour, Notation};
use crate::check::{check_source, Options};
use crate::dfpn::{self, SolveParams, Winner};
use crate::edge_template::Rc;
use crate::local::Budget;
use crate::position::Position;
use std::time::Instant;

/// Largest board the solver takes (cells).
const MAX_CELLS: i32 = 81;

fn neighbours([r, c]: Rc) -> [Rc; 6] {
    [
        [r, c - 1],
        [r, c + 1],
        [r - 1, c],
        [r - 1, c + 1],
        [r + 1, c - 1],
        [r + 1, c],
    ]
}

/// The whole-board position of the sub-game "stone − edge on `carrier`, White first" (see the
/// module docs); White is to move in it. `None` when it cannot be encoded.
pub fn encode(stone: Rc, carrier: &[Rc]) -> Option<Position> {
    let in_c = |p: Rc| carrier.contains(&p);
    let rows = carrier.iter().map(|p| p[0]).chain([stone[0]]).max()?;
    let lo = carrier.iter().map(|p| p[1]).chain([stone[1]]).min()?;
    let hi = carrier.iter().map(|p| p[1]).chain([stone[1]]).max()?;
    let stone_nb: Vec<Rc> = neighbours(stone).into_iter().filter(|&p| in_c(p)).collect();
    let harmless = |p: Rc| {
        neighbours(p)
            .into_iter()
            .all(|q| !in_c(q) || stone_nb.contains(&q))
    };
    let start = [[stone[0] + 1, stone[1] - 1], [stone[0] + 1, stone[1]]]
        .into_iter()
        .find(|&p| !in_c(p) && harmless(p))?;
    // The chain runs straight down from `start` to the last row, which lies below the
    // template's rows: the bottom edge belongs to S's group, so no carrier cell may touch it.
    let height = (rows + 1).max(start[0]);
    let chain: Vec<Rc> = (start[0]..=height).map(|r| [r, start[1]]).collect();
    if chain.iter().any(|&p| in_c(p) || !harmless(p)) {
        return None;
    }
    let (lo, hi) = (lo.min(start[1]), hi.max(start[1]));
    let width = hi - lo + 1;
    if width * height > MAX_CELLS {
        return None;
    }
    let board = Board::new(width as u32, height as u32).ok()?;
    let at = |[r, c]: Rc| board.cell(c - lo, r - 1);
    let (mut black, mut white) = (CellSet::EMPTY, CellSet::EMPTY);
    for r in 1..=height {
        for c in lo..=hi {
            let p = [r, c];
            let cell = at(p)?;
            if in_c(p) {
                continue;
            }
            if p == stone || chain.contains(&p) || (r > rows && harmless(p)) {
                black.insert(cell);
            } else {
                white.insert(cell);
            }
        }
    }
    Position::new(board, black, white).ok()
}

/// The solver's verdict on the sub-game (`Some(true)`: Black joins the stone to the edge,
/// `Some(false)`: White prevents it), within `nodes`; `None` when undecided or not encodable.
pub fn solve(stone: Rc, carrier: &[Rc], nodes: u64) -> Option<bool> {
    let pos = encode(stone, carrier)?;
    let params = SolveParams {
        nodes,
        ..SolveParams::default()
    };
    match dfpn::solve(&pos, Colour::White, &params) {
        Ok(o) => match o.winner {
            Winner::Black => Some(true),
            Winner::White => Some(false),
            Winner::Undecided => None,
        },
        // Already won: by Black when S's group already touches the top (S on row 1), by
        // White when White's stones outside C already cut S off; either way the sub-game's
        // verdict (the module docs' equivalence holds for finished games too).
        Err(dfpn::SolveError::AlreadyWon(c)) => Some(c == Colour::Black),
        Err(_) => None,
    }
}

/// What [`refute_checked`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// White wins, and the checker accepted the solver's exported proof of it (or White has
    /// already won: S is cut off by the stones outside the carrier, a fact of the board).
    Checked {
        /// Solver nodes.
        nodes: u64,
        /// Lines of the exported proof (0 when already won).
        lines: usize,
    },
    /// The solver did not find a win of White within its budget (Black wins, undecided, or
    /// the carrier cannot be encoded): nothing is claimed.
    NotFound,
    /// The solver says White wins but its proof could not be exported or did not check: the
    /// claim is not used (this would be a bug in the solver, the emitter or the checker).
    Unconfirmed(String),
}

/// The export of a win may re-solve sub-positions: it gets this many times the solve's node
/// budget on top of the nodes the solve used.
pub const EMIT_FACTOR: u64 = 4;

/// The node budget of each search the checker runs on the exported proof (leaves written
/// `by search`); nodes only, so the verdict does not depend on the machine's load.
pub const CHECK_NODES: u64 = 20_000_000;

/// A refutation of the sub-game "stone − edge on `carrier`, White first" that does not rest on
/// the solver's word: the solver (within `nodes`) finds White's win, the win is exported as a
/// `.hexp` strategy ([`crate::prove::emit`], written for the transposed board with the
/// colours swapped), the header of that file is compared with the encoded position, and the
/// checker ([`crate::check`]) re-proves the strategy. Only then is the refutation
/// [`Refutation::Checked`]; anything else leaves the sub-game undecided for the caller.
pub fn refute_checked(stone: Rc, carrier: &[Rc], nodes: u64) -> Refutation {
    refute_checked_opts(stone, carrier, nodes, true, false)
}

/// [`refute_checked`], choosing how the exported proof writes its leaves: with `derive`, as
/// AND/OR derivations found by the explainer ([`crate::prove::emit`]); without, every leaf
/// `by search` (the checker re-proves it with a search of at most [`CHECK_NODES`] nodes).
/// The explainer can cost far more than the solve on large carriers (row 5's 50-cell
/// complements); `by search` leaves move that work to the checker's search, which is
/// exact too, so both are equally sound. With `trace`, one line of timings on stderr.
pub fn refute_checked_opts(
    stone: Rc,
    carrier: &[Rc],
    nodes: u64,
    derive: bool,
    trace: bool,
) -> Refutation {
    let Some(pos) = encode(stone, carrier) else {
        return Refutation::NotFound;
    };
    match dfpn::check_position(&pos) {
        Ok(()) => {}
        // The board is decided without a move: White's stones outside C already cut S off.
        Err(dfpn::SolveError::AlreadyWon(Colour::White)) => {
            return Refutation::Checked { nodes: 0, lines: 0 }
        }
        Err(_) => return Refutation::NotFound,
    }
    let mut params = SolveParams {
        nodes,
        ..SolveParams::default()
    };
    // The export follows the table: no child refuted by strategy stealing (no winning move).
    params.features.strategy_stealing = false;
    params.features.transpositions = false;
    let start = Instant::now();
    let mut d = dfpn::make_search(&params, params.order.order(), start);
    let out = dfpn::solve_in(&mut d, &pos, Colour::White, start);
    if out.winner != Winner::White {
        return Refutation::NotFound;
    }
    // The export re-solves sub-positions the table has lost; it gets its own budget.
    d.max_nodes = d.nodes.saturating_add(nodes.saturating_mul(EMIT_FACTOR));
    let solved = start.elapsed();
    let text = match emit::emit_solved(
        &mut d,
        &pos,
        Colour::White,
        &emit::EmitOptions {
            derive,
            ..emit::EmitOptions::default()
        },
    ) {
        Ok(t) => t,
        Err(e) => return Refutation::Unconfirmed(format!("no proof exported: {e}")),
    };
    if let Err(e) = header_matches(&text, &pos.colours_swapped()) {
        return Refutation::Unconfirmed(e.to_string());
    }
    let budget = Budget {
        nodes: CHECK_NODES,
        time: None,
        ..Budget::default()
    };
    let opts = Options {
        budget,
        confirm: budget,
        // Rule steps are verified by their rules; the second check by search is not needed
        // for soundness (crate::check) and would dominate the time.
        search_rule_steps: false,
    };
    let emitted = start.elapsed();
    let checked = check_source("refutation.hexp", &text, &opts);
    if trace {
        // Diagnostics only: where a refutation's time goes.
        eprintln!(
            "refutation of {} cells: solve {:.2} s, export {:.2} s ({} lines), check {:.2} s",
            carrier.len(),
            solved.as_secs_f64(),
            (emitted - solved).as_secs_f64(),
            text.lines().count(),
            (start.elapsed() - emitted).as_secs_f64()
        );
    }
    if checked.report.exit_code != 0 {
        let first = checked.headline(3);
        return Refutation::Unconfirmed(format!("the checker rejects the proof: {first}"));
    }
    Refutation::Checked {
        nodes: out.nodes,
        lines: text.lines().count(),
    }
}

/// Checks that an exported proof states the position `swapped` (the encoded position
/// transposed, colours exchanged): its board size and its `black`/`white` stone lines.
pub fn header_matches(text: &str, swapped: &Position) -> Result<(), super::ProveError> {
    let b = swapped.board();
    let names = |c: Colour| {
        let mut v: Vec<_> = swapped.stones(c).iter().collect();
        v.sort();
        v.iter()
            .map(|&x| b.cell_name(x, Notation::Letters))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let head: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("strategy"))
        .collect();
    let want_board = format!("board {}x{} notation letters", b.cols(), b.rows());
    let line = |prefix: &str| {
        head.iter()
            .find(|l| l.starts_with(prefix))
            .map(|l| l[prefix.len()..].to_string())
            .unwrap_or_default()
    };
    if !head.contains(&want_board.as_str())
        || line("black ") != names(Colour::Black)
        || line("white ") != names(Colour::White)
    {
        return Err(super::ProveError::OtherPosition);
    }
    Ok(())
}
