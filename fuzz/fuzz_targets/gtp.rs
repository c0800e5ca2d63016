//! Fuzzes the GTP engine (`hexproof::gtp::Engine::handle`) with the input read line by line
//! exactly as `hexproof gtp` reads stdin (`read_until(b'\n')`, invalid UTF-8 replaced, stop
//! after `quit`). Each reply must be framed — never a panic.
//!
//! Commands that start a search or touch the file system are skipped (not sent to the
//! engine), because their cost is set by their arguments or the clock, not by the input's
//! shape: `genmove`, `reg_genmove`, `solve-state` (searches; up to 3600 s per move, 30 s per
//! solve), `bidding-*` (100,000 samples by default, exact search on small boards),
//! `loadsgf`/`savesgf` (read/write any path; the SGF reader has its own target, `sgf`).
//! The remaining commands (board setup, moves, undo, swap, clocks, parameters, showboard,
//! printsgf, the VC/mustplay/template/circuit analysis commands) all run.
#![no_main]

#[path = "stack.rs"]
mod stack;

use hexproof::gtp::{clean, Engine};
use hexproof::player::Config;
use libfuzzer_sys::fuzz_target;
use std::io::BufRead;
use std::time::Duration;

const SKIPPED: &[&str] = &[
    "genmove",
    "reg_genmove",
    "solve-state",
    "bidding-bid",
    "bidding-criticality",
    "bidding-loser",
    "bidding-value",
    "loadsgf",
    "savesgf",
];

/// The command name of a line as `Engine::handle` finds it.
fn command(line: &str) -> Option<String> {
    let line = clean(line);
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if first.parse::<u64>().is_ok() {
        words.next().map(str::to_string)
    } else {
        Some(first.to_string())
    }
}

fuzz_target!(init: stack::catch_stack_overflow(), |data: &[u8]| {
    let mut engine = Engine::new(Config {
        move_time: Duration::from_millis(10),
        solver_thread: false,
        ..Config::default()
    });
    let mut input = data;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        if command(&line).is_some_and(|c| SKIPPED.contains(&c.as_str())) {
            continue;
        }
        if let Some(reply) = engine.handle(&line) {
            assert!(reply.ends_with("\n\n"), "unframed reply {reply:?}");
        }
        if engine.quit {
            break;
        }
    }
});
