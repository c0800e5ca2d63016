//! Fuzzes the solved-position database (`hexproof::dfpn::db::SolvedDb`, `solve --db FILE`):
//! the input is written to a file, opened as `solve` opens it, then looked up (the empty 5×5
//! board and two one-stone positions), counted, and written to (one record, flushed) as a
//! solve does. Any file must open or give an error, and lookups must answer — never a panic.
//! (A flipped winner inside a valid file cannot be caught here; issue 24 item 7 adds
//! checksums for that.)
#![no_main]

#[path = "stack.rs"]
mod stack;

use hexproof::board::{Board, CellSet, Colour, Notation};
use hexproof::dfpn::db::{Solved, SolvedDb, DEFAULT_MAX_STONES};
use hexproof::dfpn::tt::Key;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("hexproof-fuzz-db-{}.redb", std::process::id()))
    })
}

/// With `HEXPROOF_FUZZ_DB_SEEDS=DIR` (set by `fuzz/run.sh`), writes seed databases into DIR
/// first: an empty one and ones holding a few records, as `solve --db` leaves them.
fn write_seeds() {
    let Some(dir) = std::env::var_os("HEXPROOF_FUZZ_DB_SEEDS") else {
        return;
    };
    let dir = PathBuf::from(dir);
    let board = Board::square(5).expect("5x5");
    let cells: Vec<_> = ["a1", "c3", "e5", "b2"]
        .iter()
        .map(|n| board.parse_cell(n, Notation::Letters).expect("cell"))
        .collect();
    for n in 0..3 {
        let p = dir.join(format!("seed{n}.redb"));
        let _ = std::fs::remove_file(&p);
        let db = SolvedDb::open(&p, DEFAULT_MAX_STONES).expect("seed db");
        for i in 0..n * 2 {
            let mut black = CellSet::EMPTY;
            black.insert(cells[i % cells.len()]);
            let key = Key {
                black,
                white: CellSet::EMPTY,
                to_move: Colour::White,
            };
            db.put(
                &board,
                &key,
                Solved {
                    to_move_wins: i % 2 == 0,
                    best: Some(cells[(i + 1) % cells.len()]),
                },
            );
        }
        db.put(
            &board,
            &Key {
                black: CellSet::EMPTY,
                white: CellSet::EMPTY,
                to_move: Colour::Black,
            },
            Solved {
                to_move_wins: true,
                best: Some(cells[1]),
            },
        );
        db.flush().expect("seed flush");
    }
}

fuzz_target!(init: { stack::catch_stack_overflow(); write_seeds() }, |data: &[u8]| {
    let path = path();
    std::fs::write(path, data).expect("write");
    let Ok(db) = SolvedDb::open(path, DEFAULT_MAX_STONES) else {
        return;
    };
    let board = Board::square(5).expect("5x5");
    let a1 = board.parse_cell("a1", Notation::Letters).expect("a1");
    let c3 = board.parse_cell("c3", Notation::Letters).expect("c3");
    let one = |c| {
        let mut s = CellSet::EMPTY;
        s.insert(c);
        s
    };
    let keys = [
        Key { black: CellSet::EMPTY, white: CellSet::EMPTY, to_move: Colour::Black },
        Key { black: one(c3), white: CellSet::EMPTY, to_move: Colour::White },
        Key { black: one(c3), white: one(a1), to_move: Colour::Black },
    ];
    for k in &keys {
        let _ = db.get(&board, k);
    }
    let _ = db.len();
    db.put(&board, &keys[1], Solved { to_move_wins: true, best: Some(a1) });
    let _ = db.flush();
    let _ = db.get(&board, &keys[1]);
});
