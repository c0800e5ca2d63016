//! Writes the Kirchhoff systems of a few circuits (Anshelevich §5) as plain text, for the
//! faer comparison in `benches/faer-compare/` (which reads them and so does not depend on
//! this crate). Usage:
//! `cargo run --release --example kirchhoff_systems > benches/faer-compare/systems.txt`
//!
//! Format, per system: a line `system NAME N NNZ`, then the lines `diag`, `row`, `col`, `val`
//! and `rhs`, each the keyword followed by its numbers (the `Sparse` fields of
//! `eval::solve`: CSR off-diagonal part plus the diagonal).

use hexproof::board::{Board, Colour, Notation};
use hexproof::eval::{Circuit, VcLinks};
use hexproof::position::Position;
use hexproof::vc::{build_both, Variant, VcParams};

fn line<T: std::fmt::Display>(key: &str, v: &[T]) {
    let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    println!("{key} {}", s.join(" "));
}

fn main() {
    let cases = [
        ("11x11-empty", 11, "", ""),
        ("11x11-middle", 11, "f6 d8 h4 c9", "e7 g5 f8"),
        ("19x19-middle", 19, "j10 g13 m7", "k9 h12"),
    ];
    for (name, n, black, white) in cases {
        let board = Board::square(n).expect("board");
        let p = Position::from_names(board, black, white, Notation::Letters).expect("position");
        let (vb, _) = build_both(&p, &VcParams::new(Variant::Fast));
        for (suffix, vcs, how) in [
            ("plain", None, VcLinks::None),
            ("vc-both", Some(&vb), VcLinks::Both),
        ] {
            let c = Circuit::build(&p, Colour::Black, vcs, how);
            let Some((m, b, _)) = c.system() else {
                continue;
            };
            println!("system {name}-{suffix} {} {}", b.len(), m.col.len());
            line("diag", &m.diag);
            line("row", &m.row);
            line("col", &m.col);
            line("val", &m.val);
            line("rhs", &b);
        }
    }
}
