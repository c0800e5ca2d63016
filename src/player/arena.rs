//! A small match harness: players (configurations) meet on balanced openings, each opening
//! played with both colours, at a fixed time per move; results go into an Elo table with
//! error bars.
//!
//! Openings: Pawlewicz et al. 2015 §VII-B use the 11×11 first moves a2–k2, a10–k10, b1–j1
//! and b11–j11 (each game starts with that Black stone, White to move, no swap), and every
//! opening is played twice, once with each player as Black. [`balanced_openings`] scales the
//! same rows and columns to other board sizes.
//!
//! Adjudication: a game stops as soon as one side has a winning VC with the other to move,
//! or a winning VSC with itself to move (connections are sound, so this result is exact);
//! otherwise it is played out.
//!
//! Elo: each player's rating is fitted by maximum likelihood (Bradley–Terry, logistic scale
//! 400) with the first player anchored at 0 and a small prior of one draw against the anchor
//! (so that a player with only wins gets a finite rating); the error bar is ±1.96 standard
//! errors from the Fisher information of that player's games, holding the others fixed.

use super::{genmove, Config, Decision};
use crate::board::{Board, Cell, Colour};
use crate::game::{Game, Move};
use crate::vc::{build_both, Variant, VcParams};
use std::time::Duration;

/// The balanced openings for `board` (scaled from Pawlewicz et al.'s 11×11 list): every cell
/// of row 2 and of row n−1, and the cells of rows 1 and n except the two end columns.
pub fn balanced_openings(board: &Board) -> Vec<Cell> {
    let (w, h) = (board.cols(), board.rows());
    let mut v = Vec::new();
    if h < 3 || w < 3 {
        return board.cells().iter().collect();
    }
    for c in 0..w {
        v.push(Cell::at(c, 1));
    }
    for c in 0..w {
        v.push(Cell::at(c, h - 2));
    }
    for c in 1..w - 1 {
        v.push(Cell::at(c, 0));
    }
    for c in 1..w - 1 {
        v.push(Cell::at(c, h - 1));
    }
    v
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Index of the player with Black.
    pub black: usize,
    /// Index of the player with White.
    pub white: usize,
    /// The opening stone.
    pub opening: Cell,
    /// Who won.
    pub winner: Colour,
    /// Moves played (opening included).
    pub moves: usize,
    /// True when decided by a winning connection before the board was joined.
    pub adjudicated: bool,
    /// The game record.
    pub sgf: String,
}

/// Plays one game from `opening` (a Black stone, White to move).
pub fn play_game(
    board: Board,
    opening: Cell,
    black: &Config,
    white: &Config,
    move_time: Duration,
) -> (Colour, usize, bool, Game) {
    let mut game = Game::new(board);
    game.play(Move::Stone(Colour::Black, opening))
        .expect("the opening is on an empty board");
    let mut adj = VcParams::new(Variant::Fast).classic();
    adj.budget.time = Some(Duration::from_secs(2));
    let mut hints = [None, None];
    loop {
        if let Some(w) = game.position().winner() {
            return (w, game.moves().len(), false, game);
        }
        let to_move = game.to_move();
        // Adjudication by sound connections.
        let (b, w) = build_both(game.position(), &adj);
        let (own, opp) = if to_move == Colour::Black {
            (&b, &w)
        } else {
            (&w, &b)
        };
        if !own.winning_vcs().is_empty() || !own.winning_vscs().is_empty() {
            return (to_move, game.moves().len(), true, game);
        }
        if !opp.winning_vcs().is_empty() {
            return (to_move.opponent(), game.moves().len(), true, game);
        }
        let cfg = if to_move == Colour::Black {
            black
        } else {
            white
        };
        let slot = (to_move == Colour::White) as usize;
        let r = genmove(cfg, game.position(), to_move, move_time, hints[slot]);
        hints[slot] = r.proof_set;
        match r.decision {
            Decision::Play(c) => game
                .play(Move::Stone(to_move, c))
                .expect("players return empty cells"),
            Decision::Resign | Decision::Swap => {
                return (to_move.opponent(), game.moves().len(), false, game);
            }
        }
    }
}

/// Wins of `i` against `j` and games between them.
pub fn pair_counts(results: &[GameResult], n: usize) -> Vec<Vec<(f64, f64)>> {
    let mut m = vec![vec![(0.0, 0.0); n]; n];
    for r in results {
        let (wi, li) = if r.winner == Colour::Black {
            (r.black, r.white)
        } else {
            (r.white, r.black)
        };
        m[wi][li].0 += 1.0;
        m[wi][li].1 += 1.0;
        m[li][wi].1 += 1.0;
    }
    m
}

/// Elo ratings and 95% error bars (see the module docs); player 0 is the anchor.
pub fn elo(results: &[GameResult], n: usize) -> Vec<(f64, f64)> {
    let m = pair_counts(results, n);
    let k = std::f64::consts::LN_10 / 400.0;
    let p = |d: f64| 1.0 / (1.0 + (-k * d).exp());
    let mut r = vec![0.0; n];
    for _ in 0..2000 {
        let mut delta = 0.0f64;
        for i in 1..n {
            // Newton step on player i's log-likelihood, prior: one draw vs the anchor.
            let (mut g, mut h) = (0.0, 0.0);
            for j in 0..n {
                if i == j {
                    continue;
                }
                let (w, games) = m[i][j];
                let e = p(r[i] - r[j]);
                g += k * (w - games * e);
                h += k * k * games * e * (1.0 - e);
            }
            let e0 = p(r[i] - r[0]);
            g += k * (0.5 - e0);
            h += k * k * e0 * (1.0 - e0);
            let step = (g / h).clamp(-200.0, 200.0);
            r[i] += step;
            delta = delta.max(step.abs());
        }
        if delta < 1e-6 {
            break;
        }
    }
    (0..n)
        .map(|i| {
            let mut h = 0.0;
            for j in 0..n {
                if i != j {
                    let e = p(r[i] - r[j]);
                    h += k * k * m[i][j].1 * e * (1.0 - e);
                }
            }
            let se = if h > 0.0 {
                1.0 / h.sqrt()
            } else {
                f64::INFINITY
            };
            (r[i], if i == 0 { 0.0 } else { 1.96 * se })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_on_11x11_are_the_papers_36() {
        let b = Board::square(11).unwrap();
        let o = balanced_openings(&b);
        assert_eq!(o.len(), 11 + 11 + 9 + 9);
        let names: Vec<String> = o
            .iter()
            .map(|&c| b.cell_name(c, crate::board::Notation::Letters))
            .collect();
        assert!(names.contains(&"a2".to_string()) && names.contains(&"k10".to_string()));
        assert!(names.contains(&"b1".to_string()) && names.contains(&"j11".to_string()));
        assert!(!names.contains(&"a1".to_string()) && !names.contains(&"k11".to_string()));
    }

    #[test]
    fn elo_orders_players() {
        let b = Board::square(3).unwrap();
        let g = |black, white, winner| GameResult {
            black,
            white,
            opening: Cell::at(0, 0),
            winner,
            moves: 0,
            adjudicated: false,
            sgf: String::new(),
        };
        let _ = b;
        // Player 1 wins 15 of 20 against player 0: about +190 Elo.
        let mut res = Vec::new();
        for i in 0..20 {
            let w = if i < 15 { 1 } else { 0 };
            res.push(if i % 2 == 0 {
                g(w, 1 - w, Colour::Black)
            } else {
                g(1 - w, w, Colour::White)
            });
        }
        let e = elo(&res, 2);
        assert!(e[1].0 > 120.0 && e[1].0 < 200.0, "{:?}", e);
        assert!(e[1].1 > 50.0 && e[1].1 < 400.0, "{:?}", e);
    }
}
