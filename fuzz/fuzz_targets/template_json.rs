//! Fuzzes the template library files and the lemma file as `templates list/show/match/verify
//! --dir DIR` read them: the input is written as one file of a library directory (the first
//! byte picks `row4.json` or `proofs.json`, the lemma file), `Library::load` reads the
//! directory, and every loaded record goes through what those commands do with it (size,
//! `show`'s ASCII and SVG drawings, `find` by name, `match` on two positions, `verify`'s
//! certificate check, the lemma records' sub-games). Any input must load or give an error —
//! never a panic.
#![no_main]

#[path = "stack.rs"]
mod stack;

use hexproof::board::{Board, Colour};
use hexproof::position::Position;
use hexproof::templates::library::{verify_record, Library, LEMMA_FILE};
use hexproof::templates::{draw, matching};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("hexproof-fuzz-template-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    })
}

fuzz_target!(init: stack::catch_stack_overflow(), |data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let dir = dir();
    let _ = std::fs::remove_file(dir.join("row4.json"));
    let _ = std::fs::remove_file(dir.join(LEMMA_FILE));
    let name = if which & 1 == 0 {
        "row4.json"
    } else {
        LEMMA_FILE
    };
    std::fs::write(dir.join(name), rest).expect("write");
    let Ok(lib) = Library::load(dir) else {
        return;
    };
    let mut names = Vec::new();
    for r in lib.records() {
        let _ = r.size();
        let _ = r.compute_digest();
        let _ = draw::ascii(r);
        let _ = draw::svg(r);
        let _ = r.sub_game();
        let _ = verify_record(r);
        names.push(r.name.clone());
    }
    for n in &names {
        let _ = lib.find(n);
    }
    // `templates match`: an empty board and one with a stone of each colour.
    for (n, stones) in [(5u32, false), (9, true)] {
        let board = Board::square(n).expect("board");
        let mut p = Position::empty(board);
        if stones {
            let b = board
                .parse_cell("e5", hexproof::board::Notation::Letters)
                .expect("e5");
            let w = board
                .parse_cell("c3", hexproof::board::Notation::Letters)
                .expect("c3");
            let _ = p.play(Colour::Black, b);
            let _ = p.play(Colour::White, w);
        }
        let _ = matching::find(&p, lib.records());
    }
    if let Some((_, lf)) = &lib.lemmas {
        for r in &lf.lemmas {
            let _ = r.compute_digest();
            let _ = r.sub_game();
            let _ = r.carrier.len();
        }
    }
});
