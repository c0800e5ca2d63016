//! Command implementations for the `hexproof` binary. Each module owns one command family;
//! helpers shared by them live here.

pub mod arena;
pub mod args;
pub mod bid;
pub mod certificate;
pub mod check;
pub mod check_jobs;
pub mod error;
pub mod gtp;
pub mod ice;
pub mod progress;
pub mod published;
pub mod render;
pub mod solve;
pub mod solve_jobs;
pub mod templates;
pub mod train;
pub mod vc;
pub mod verify;
pub mod yang;

use hexproof::board::{Colour, Notation};

pub use error::CliError;

/// Exit code: the claim holds / the command succeeded.
pub const EXIT_HOLDS: u8 = 0;
/// Exit code: a claim fails.
pub const EXIT_FAILS: u8 = 1;
/// Exit code: bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: the budget ran out.
pub const EXIT_UNDECIDED: u8 = 3;

/// Prints a one-line error and returns exit code 2.
pub fn fail_input(msg: impl std::fmt::Display) -> u8 {
    eprintln!("hexproof: error: {msg}");
    EXIT_BAD_INPUT
}

/// Reads `black`/`white` (or `b`/`w`) from a file's field (flags are [`args::ColourArg`]).
pub fn parse_colour(s: &str) -> Result<Colour, CliError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Colour::Black),
        "white" | "w" => Ok(Colour::White),
        _ => Err(CliError::Colour(s.into())),
    }
}

/// Reads `letters`/`digits` from a file's field (flags are [`args::NotationArg`]).
pub fn parse_notation(s: &str) -> Result<Notation, CliError> {
    Notation::parse(s).ok_or_else(|| CliError::Notation(s.into()))
}

/// Prints a command's `--json` result on stdout and returns `exit_code`: the one place every
/// command's JSON goes through, so the shape documented in `docs/JSON.md` cannot drift.
///
/// `v` must be an object (a command's result is never a bare array or value). This adds
/// `"version"` (the crate version) and `"exit_code"` (the process's exit code) and converts
/// times to seconds as floats, whatever struct they were serialised from: a key `micros`
/// becomes `seconds` (÷ 10⁶), `*_micros` becomes `*_seconds`, `time_ms` becomes `seconds`
/// and `*_ms` becomes `*_seconds` (÷ 10³). The internal types keep their units.
pub fn print_json(v: serde_json::Value, exit_code: u8) -> u8 {
    println!(
        "{}",
        serde_json::to_string_pretty(&json_shape(v, exit_code))
            .expect("JSON values always serialise")
    );
    exit_code
}

/// The object [`print_json`] prints (see there).
pub fn json_shape(v: serde_json::Value, exit_code: u8) -> serde_json::Value {
    let serde_json::Value::Object(mut m) = seconds_everywhere(v) else {
        panic!("a command's --json result must be an object");
    };
    m.insert("version".into(), env!("CARGO_PKG_VERSION").into());
    m.insert("exit_code".into(), exit_code.into());
    serde_json::Value::Object(m)
}

/// Renames time fields to seconds, recursively (see [`print_json`]).
fn seconds_everywhere(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Array(a) => Value::Array(a.into_iter().map(seconds_everywhere).collect()),
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let scaled = |d: f64| match v.as_f64() {
                        Some(x) => Value::from(x / d),
                        None => v.clone(),
                    };
                    if k == "micros" {
                        ("seconds".to_string(), scaled(1e6))
                    } else if let Some(stem) = k.strip_suffix("_micros") {
                        (format!("{stem}_seconds"), scaled(1e6))
                    } else if k == "time_ms" {
                        ("seconds".to_string(), scaled(1e3))
                    } else if let Some(stem) = k.strip_suffix("_ms") {
                        (format!("{stem}_seconds"), scaled(1e3))
                    } else {
                        (k, seconds_everywhere(v))
                    }
                })
                .collect(),
        ),
        other => other,
    }
}

/// The cells of a `--moves` string (already replayed, so valid) as cell names in `n`, for the
/// `moves` arrays of the JSON output (`"a1 b2,c3"` → `["a1", "b2", "c3"]`).
pub fn move_list(board: &hexproof::board::Board, moves: &str, n: Notation) -> Vec<String> {
    board
        .parse_cells(moves, n)
        .map(|cs| cs.iter().map(|&c| board.cell_name(c, n)).collect())
        .unwrap_or_default()
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
) -> Result<&'a str, CliError> {
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
    Err(CliError::UnknownName {
        what: what.into(),
        name: name.into(),
        place: place.into(),
        hint,
    })
}
