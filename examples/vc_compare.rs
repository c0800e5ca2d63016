//! Diagnostic: the solver's evaluation of 7×7 positions read from stdin, one per line:
//! `b|w MOVES…` (the player to move, then the moves from the empty board, alternating from
//! Black; with a lone `/`, the cells before it are Black's and after it White's). Prints `W`,
//! `L` or `O k m MOVES` (open: k moves searched after pruning, m in the mustplay); `SHOW=1`
//! prints the filled position, `FILLS=1` the number of cells filled in first. Used to compare
//! with Benzene's `vc-build` on the same positions (docs/journal/benchmarks-history.md).
use hexproof::board::{Board, Colour, Notation};
use hexproof::dfpn::vc_eval::Eval;
use hexproof::dfpn::{make_search, Ordering, SolveParams};
use hexproof::position::Position;
use std::io::BufRead;
use std::time::Instant;

fn main() {
    let params = SolveParams::default();
    let order = Ordering::Resistance.order();
    let mut d = make_search(&params, order, Instant::now());
    let board = Board::square(7).unwrap();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let mut it = line.split_whitespace();
        let to_move = match it.next() {
            Some("b") => Colour::Black,
            Some("w") => Colour::White,
            _ => continue,
        };
        let mut pos = Position::empty(board);
        let mut c = Colour::Black;
        let explicit = line.contains('/');
        for m in it {
            if m == "/" {
                c = Colour::White;
                continue;
            }
            let cell = board.parse_cell(m, Notation::Letters).unwrap();
            pos.play(c, cell).unwrap();
            if !explicit {
                c = c.opponent();
            }
        }
        let f = d.filled(&pos, to_move);
        if std::env::var("FILLS").is_ok() {
            print!("F {} ", pos.empty_cells().len() - f.empty_cells().len());
        }
        if std::env::var("SHOW").is_ok() {
            println!("{}", f.to_ascii(Notation::Letters));
        }
        match d.eval.evaluate(&f, to_move) {
            Eval::Win(_) => println!("W"),
            Eval::Loss(_) => println!("L"),
            Eval::Open { moves, .. } => {
                let kids = d.searched_moves(&f, to_move).map_or(0, |k| k.len());
                println!(
                    "O {} {} {}",
                    kids,
                    moves.len(),
                    d.searched_moves(&f, to_move)
                        .unwrap_or_default()
                        .iter()
                        .map(|c| board.cell_name(*c, Notation::Letters))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            }
        }
    }
}
