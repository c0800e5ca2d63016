//! Fuzzes the SGF reader (`hexproof::sgf::read`) as GTP `loadsgf FILE [N]` uses it: the whole
//! game and the game cut before a move number; a game that loads is written back and read
//! again (`savesgf`/`printsgf`). Any input must give a game or an error — never a panic.
#![no_main]

#[path = "stack.rs"]
mod stack;

use libfuzzer_sys::fuzz_target;

fuzz_target!(init: stack::catch_stack_overflow(), |data: &[u8]| {
    let Some((&upto, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    for n in [None, Some(upto as usize)] {
        if let Ok(game) = hexproof::sgf::read(text, n) {
            let written = hexproof::sgf::write(&game);
            let _ = hexproof::sgf::read(&written, None);
        }
    }
});
