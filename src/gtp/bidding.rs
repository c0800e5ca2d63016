//! GTP extension commands for bidding Hex, as plain functions of a position and the command's
//! arguments, so that the GTP server (not written yet) can register them unchanged.
//!
//! Names follow the GTP convention for private extensions, `prefix-name` (ECOSYSTEM.md §1.2).
//! Each function returns `Ok(reply text)` or `Err(GtpError)` (its message); the server frames them as
//! `= text` / `? message`. Replies never contain an empty line.
//!
//! | command | arguments | reply |
//! |---|---|---|
//! | `bidding-bid` | `total_chips my_chips [samples [seed]]` | `cell bid`, e.g. `f6 19` |
//! | `bidding-criticality` | `[samples [seed]]` | `cell p cell p …`: P(critical) per empty cell (GoGui `pspairs`) |
//! | `bidding-loser` | `[samples [seed]]` | `cell L cell L …`: `L_H` per empty cell (`pspairs`) |
//! | `bidding-value` | `[samples [seed]]` | `P R`: Black's random-turn winning probability and Richman threshold |
//!
//! Positions with at most [`GTP_EXACT_LIMIT`] empty cells are analysed exactly (the sample
//! count and seed are then ignored); larger ones by Monte Carlo with [`GTP_DEFAULT_SAMPLES`]
//! fillings and seed 1 unless given.

use crate::bidding::{analyse, Analysis, McConfig};
use crate::board::{Colour, Notation};
use crate::position::Position;

use super::GtpError;

/// Positions with at most this many empty cells are enumerated exactly (2^20 fillings).
pub const GTP_EXACT_LIMIT: usize = 20;
/// Default Monte Carlo sample count.
pub const GTP_DEFAULT_SAMPLES: u64 = 100_000;

/// The commands this module implements, for `list_commands`.
pub const GTP_COMMANDS: [&str; 4] = [
    "bidding-bid",
    "bidding-criticality",
    "bidding-loser",
    "bidding-value",
];

/// Lines for `hexgui-analyze_commands` (GoGui analyze syntax `type/label/command`). Not yet
/// tried against HexGui.
pub const HEXGUI_ANALYZE: &str = "pspairs/Bidding criticality/bidding-criticality\n\
pspairs/Bidding L_H/bidding-loser\n\
string/Bidding value/bidding-value";

/// Runs one of [`GTP_COMMANDS`]; `None` if `name` is not one of them.
pub fn dispatch(name: &str, pos: &Position, args: &[&str]) -> Option<Result<String, GtpError>> {
    Some(match name {
        "bidding-bid" => gtp_bid(pos, args),
        "bidding-criticality" => gtp_criticality(pos, args),
        "bidding-loser" => gtp_loser(pos, args),
        "bidding-value" => gtp_value(pos, args),
        _ => return None,
    })
}

fn number(what: &'static str, s: &str) -> Result<u64, GtpError> {
    s.parse::<u64>().map_err(|_| GtpError::NotACount {
        what,
        value: s.into(),
    })
}

/// Reads the optional `[samples [seed]]` tail.
fn sampling(cmd: &'static str, args: &[&str]) -> Result<McConfig, GtpError> {
    if args.len() > 2 {
        return Err(GtpError::TooManyArguments(cmd));
    }
    let mut cfg = McConfig {
        samples: GTP_DEFAULT_SAMPLES,
        ..McConfig::default()
    };
    if let Some(s) = args.first() {
        cfg.samples = number("samples", s)?;
        if cfg.samples == 0 {
            return Err(GtpError::NoSamples);
        }
    }
    if let Some(s) = args.get(1) {
        cfg.seed = number("seed", s)?;
    }
    Ok(cfg)
}

fn analysis(pos: &Position, cfg: &McConfig) -> Result<Analysis, GtpError> {
    Ok(analyse(pos, GTP_EXACT_LIMIT, cfg)?)
}

/// `bidding-bid total_chips my_chips [samples [seed]]` → `cell bid`: the move `argmin L_H` and
/// the bid `⌊(1/2 − L_H) · total⌋` capped at `my_chips` (Payne & Robeva §5, Proposition 5.2).
/// The move and bid are the same for either colour. Fails if the game is over.
pub fn gtp_bid(pos: &Position, args: &[&str]) -> Result<String, GtpError> {
    if args.len() < 2 {
        return Err(GtpError::Usage(
            "bidding-bid: expected total_chips my_chips [samples [seed]]",
        ));
    }
    let total = number("total_chips", args[0])?;
    let mine = number("my_chips", args[1])?;
    let cfg = sampling("bidding-bid", &args[2..])?;
    let a = analysis(pos, &cfg)?;
    let adv = a.advice(total, mine)?;
    match adv.cell {
        Some(c) => Ok(format!(
            "{} {}",
            pos.board().cell_name(c, Notation::Letters),
            adv.bid
        )),
        None => Err(GtpError::GameOver),
    }
}

fn pairs(pos: &Position, a: &Analysis, value: impl Fn(usize) -> f64) -> String {
    a.cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "{} {:.3}",
                pos.board().cell_name(c.cell, Notation::Letters),
                value(i)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `bidding-criticality [samples [seed]]` → `cell p …`: the probability that each empty cell
/// is critical (§4), three decimals, cells in row order. Empty reply on a full board.
pub fn gtp_criticality(pos: &Position, args: &[&str]) -> Result<String, GtpError> {
    let a = analysis(pos, &sampling("bidding-criticality", args)?)?;
    Ok(pairs(pos, &a, |i| a.critical_prob(i)))
}

/// `bidding-loser [samples [seed]]` → `cell L …`: `L_H` for each empty cell (§5).
pub fn gtp_loser(pos: &Position, args: &[&str]) -> Result<String, GtpError> {
    let a = analysis(pos, &sampling("bidding-loser", args)?)?;
    Ok(pairs(pos, &a, |i| a.loser_prob(i)))
}

/// `bidding-value [samples [seed]]` → `P R`: Black's random-turn winning probability and
/// Black's Richman threshold `R = 1 − P` (§2), four decimals.
pub fn gtp_value(pos: &Position, args: &[&str]) -> Result<String, GtpError> {
    let a = analysis(pos, &sampling("bidding-value", args)?)?;
    Ok(format!(
        "{:.4} {:.4}",
        a.black_win_prob(),
        a.richman_threshold(Colour::Black)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn pos(size: u32, black: &str, white: &str) -> Position {
        Position::from_names(
            Board::square(size).unwrap(),
            black,
            white,
            Notation::Letters,
        )
        .unwrap()
    }

    #[test]
    fn bid_on_small_board_is_exact() {
        // 2x2 empty: by symmetry b1 and a2 (the obtuse corners) are the most critical.
        let p = pos(2, "", "");
        let r = gtp_bid(&p, &["100", "50"]).unwrap();
        let a = crate::bidding::exact(&p).unwrap();
        let adv = a.advice(100, 50).unwrap();
        let name = p.board().cell_name(adv.cell.unwrap(), Notation::Letters);
        assert_eq!(r, format!("{name} {}", adv.bid));
        // Cap at my chips.
        assert_eq!(gtp_bid(&p, &["100", "0"]).unwrap(), format!("{name} 0"));
    }

    #[test]
    fn errors() {
        let p = pos(3, "", "");
        assert!(gtp_bid(&p, &["100"]).is_err());
        assert!(gtp_bid(&p, &["x", "1"]).is_err());
        assert!(gtp_bid(&p, &["10", "20"]).is_err());
        assert!(gtp_bid(&p, &["10", "5", "0"]).is_err());
        assert!(gtp_bid(&p, &["10", "5", "1", "2", "3"]).is_err());
        assert!(gtp_criticality(&p, &["-3"]).is_err());
        let won = pos(2, "a1 a2", "");
        assert!(matches!(
            gtp_bid(&won, &["10", "5"]),
            Err(GtpError::GameOver)
        ));
        assert!(dispatch("genmove", &p, &[]).is_none());
    }

    #[test]
    fn maps_and_value() {
        let p = pos(3, "b2", "");
        let crit = gtp_criticality(&p, &[]).unwrap();
        assert_eq!(crit.split(' ').count(), 16, "{crit}");
        assert!(crit.starts_with("a1 "));
        let lose = gtp_loser(&p, &[]).unwrap();
        assert_eq!(lose.split(' ').count(), 16);
        let v = gtp_value(&p, &[]).unwrap();
        let nums: Vec<f64> = v.split(' ').map(|x| x.parse().unwrap()).collect();
        assert!((nums[0] + nums[1] - 1.0).abs() < 1e-9 && nums[0] > 0.5);
        // Large board: Monte Carlo with explicit samples and seed is reproducible.
        let big = pos(11, "f6", "");
        let a = dispatch("bidding-bid", &big, &["100", "60", "3000", "9"])
            .unwrap()
            .unwrap();
        let b = gtp_bid(&big, &["100", "60", "3000", "9"]).unwrap();
        assert_eq!(a, b);
    }
}
