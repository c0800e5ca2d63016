//! Command implementations for the `hexproof` binary. Each module owns one command family;
//! helpers shared by them live here.

pub mod bid;
pub mod certificate;
pub mod check;
pub mod gtp;
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

/// `1 template`, `2 templates`: a count with its noun (plural by a trailing `s`).
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A spinner on stderr saying what is being done, with the elapsed time. Hidden with `--json`
/// and (indicatif's stderr target) whenever stderr is not a terminal; never on stdout.
pub fn spinner(quiet: bool, msg: String) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            .expect("valid template"),
    );
    bar.set_message(msg);
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// A bar of `len` steps on stderr (hidden as [`spinner`] is), `{pos}/{len} WHAT`.
pub fn progress_bar(quiet: bool, len: usize, what: &str) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} {{msg}}"
        ))
        .expect("valid template"),
    );
    bar
}

/// `name`, or the unique name equal to it ignoring case, among `names`; otherwise an error
/// that names the closest ones ("did you mean …?", by edit distance).
pub fn resolve_name<'a>(
    name: &str,
    names: &[&'a str],
    what: &str,
    place: &str,
) -> Result<&'a str, String> {
    if let Some(n) = names.iter().find(|n| **n == name) {
        return Ok(n);
    }
    let folded: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.eq_ignore_ascii_case(name))
        .collect();
    if let [one] = folded[..] {
        return Ok(one);
    }
    let lower = name.to_lowercase();
    let mut near: Vec<(usize, &str)> = names
        .iter()
        .map(|n| (strsim::levenshtein(&lower, &n.to_lowercase()), *n))
        .filter(|(d, _)| *d <= 2.max(name.chars().count() / 3))
        .collect();
    near.sort();
    let hint = match &near[..] {
        [] if folded.len() > 1 => format!(" (names differing only in case: {})", folded.join(", ")),
        [] => String::new(),
        _ => format!(
            "; did you mean {}?",
            near.iter()
                .take(3)
                .map(|(_, n)| format!("'{n}'"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    };
    Err(format!("no {what} called '{name}' in {place}{hint}"))
}
