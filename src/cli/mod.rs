//! Command implementations for the `hexproof` binary. Each module owns one command family;
//! helpers shared by them live here.

pub mod bid;
pub mod certificate;
pub mod check;
pub mod gtp;
pub mod progress;
pub mod render;
pub mod solve;
pub mod templates;
pub mod vc;
pub mod verify;

use hexproof::board::{Colour, Notation};

/// Exit code: the claim holds / the command succeeded.
pub const EXIT_HOLDS: u8 = 0;
/// Exit code: a claim fails.
pub const EXIT_FAILS: u8 = 1;
/// Exit code: bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: the budget ran out.
pub const EXIT_UNDECIDED: u8 = 3;

/// Prints a one-line error and returns exit code 2.
pub fn fail_input(msg: &str) -> u8 {
    eprintln!("hexproof: error: {msg}");
    EXIT_BAD_INPUT
}

/// Reads `black`/`white` (or `b`/`w`).
pub fn parse_colour(s: &str) -> Result<Colour, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Colour::Black),
        "white" | "w" => Ok(Colour::White),
        _ => Err(format!("'{s}' is not a colour (expected black or white)")),
    }
}

/// Reads `letters`/`digits`.
pub fn parse_notation(s: &str) -> Result<Notation, String> {
    Notation::parse(s)
        .ok_or_else(|| format!("'{s}' is not a notation (expected letters or digits)"))
}

/// Pretty-prints JSON on stdout.
pub fn print_json(v: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(v).expect("JSON values always serialise")
    );
}
