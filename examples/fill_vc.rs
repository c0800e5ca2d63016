//! Does filling the inferior cells (dead cells, captured pairs) let the VC engine find a
//! winning connection it misses on the bare position? (Player diagnosis, session 35.)
//! Usage: `cargo run --release --example fill_vc -- "MOVES" black|white fast|limited|unlimited|hsearch`
//! (moves alternate, Black first, on 11×11; the colour is the one whose connections are built).

use hexproof::board::{Board, Colour, Notation};
use hexproof::dfpn::inferior::{fill_in, InferiorRules};
use hexproof::position::Position;
use hexproof::vc::{Variant, VcParams, VcSet};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves = args.get(1).map(String::as_str).unwrap_or("");
    let colour = match args.get(2).map(String::as_str) {
        Some("white") => Colour::White,
        _ => Colour::Black,
    };
    let variant = Variant::parse(args.get(3).map(String::as_str).unwrap_or("fast"))
        .expect("variant: fast, limited, unlimited or hsearch");
    let b = Board::square(11).unwrap();
    let p = Position::from_moves(b, moves, Notation::Letters).expect("moves");
    for fill in [false, true] {
        let mut q = p.clone();
        let mut filled = 0;
        if fill {
            let rules = InferiorRules {
                decompose: false,
                ..InferiorRules::ALL
            };
            // Filled for the side to move next (the colour's opponent): the fill-in keeps
            // the value for either side.
            let f = fill_in(&mut q, rules, colour.opponent());
            filled = (f.dead | f.black_captured | f.white_captured).len();
        }
        let t = Instant::now();
        let v = VcSet::build(&q, colour, VcParams::new(variant));
        println!(
            "fill {fill} ({filled} cells, winner {:?}): winning VCs {} VSCs {} in {:.1} ms",
            q.winner(),
            v.winning_vcs().len(),
            v.winning_vscs().len(),
            t.elapsed().as_secs_f64() * 1e3
        );
    }
}
