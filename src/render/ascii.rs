//! ASCII diagrams. Rows are shifted right as on a Hex board, so the two cells below (c, r)
//! are drawn below-left and below-right of it.

use crate::board::{Cell, Colour, Notation};
use crate::claim::SubGame;

/// A sub-game: `X` black stone, `O` white stone, `*` carrier cell, `e` empty endpoint,
/// `.` any other empty cell.
pub fn sub_game_diagram(game: &SubGame, notation: Notation) -> String {
    let p = game.position();
    let b = p.board();
    let carrier = game.carrier();
    let endpoints = game.claim().endpoints();
    let mut s = String::new();
    s.push_str("    ");
    for c in 0..b.cols() {
        match notation {
            Notation::Digits if b.cols() <= 9 => s.push_str(&format!("{} ", c + 1)),
            _ => s.push_str(&format!("{} ", (b'a' + c) as char)),
        }
    }
    s.push('\n');
    for r in 0..b.rows() {
        s.push_str(&format!("{:>2}  ", r + 1));
        s.push_str(&" ".repeat(r as usize));
        for c in 0..b.cols() {
            let cell = Cell::at(c, r);
            let ch = match p.colour_at(cell) {
                Some(Colour::Black) => 'X',
                Some(Colour::White) => 'O',
                None if carrier.contains(cell) => '*',
                None if endpoints.contains(cell) => 'e',
                None => '.',
            };
            s.push(ch);
            s.push(' ');
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    s
}
