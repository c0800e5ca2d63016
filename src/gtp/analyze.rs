//! Analysis commands for HexGui's analyze menu (`hexgui-analyze_commands`, GoGui syntax
//! `type/Label/command`, ECOSYSTEM.md §1.4): connections between two cells, mustplay,
//! template matches, circuit resistance and energy, the exact solver's value.
//!
//! VC lines follow HexGui's `VC.java` layout, `from to color type source moves [ carrier ]`
//! (not yet tried against a running HexGui). Border endpoints are written Benzene's way
//! (`north`, `south`, `west`, `east`) and read in either form (`t`, `b`, `l`, `r` too).

use super::{parse_colour, Engine, GtpError};
use crate::board::{Border, Cell, CellSet, Colour, Notation};
use crate::claim::{Claim, SubGame};
use crate::eval::evaluate;
use crate::local::{decide, Budget, Verdict};
use crate::vc::{mustplay, seed, Mustplay, VcParams, VcSet};
use std::time::Duration;

/// The analysis commands.
pub const COMMANDS: &[&str] = &[
    "vc-between-cells-full",
    "vc-between-cells-semi",
    "vc-get-mustplay",
    "template-matches",
    "eval-resist",
    "eval-energy",
    "solve-state",
];

/// Lines for `hexgui-analyze_commands`.
pub const HEXGUI_ANALYZE: &str = "param/Game Param/param_game\n\
param/Player Param/param_player\n\
plist/All Legal Moves/all_legal_moves\n\
string/ShowBoard/showboard\n\
string/Final Score/final_score\n\
varc/Reg GenMove/reg_genmove %m\n\
vc/VC Between Cells Full/vc-between-cells-full %c %p %p\n\
vc/VC Between Cells Semi/vc-between-cells-semi %c %p %p\n\
plist/Mustplay/vc-get-mustplay %m\n\
string/Template Matches/template-matches %c\n\
string/Circuit Resistance/eval-resist\n\
pspairs/Circuit Energy/eval-energy\n\
string/Solve State/solve-state %m";

fn border_name(b: Border) -> &'static str {
    match b {
        Border::Top => "north",
        Border::Bottom => "south",
        Border::Left => "west",
        Border::Right => "east",
    }
}

fn point(e: &Engine, s: &str) -> Result<Cell, GtpError> {
    let b = match s.to_ascii_lowercase().as_str() {
        "north" | "t" => Some(Border::Top),
        "south" | "b" => Some(Border::Bottom),
        "west" | "l" => Some(Border::Left),
        "east" | "r" => Some(Border::Right),
        _ => None,
    };
    match b {
        Some(b) => Ok(Cell::border(b)),
        None => Ok(e.game.board().parse_cell(s, Notation::Letters)?),
    }
}

fn name(e: &Engine, c: Cell) -> String {
    match c.as_border() {
        Some(b) => border_name(b).into(),
        None => e.game.board().cell_name(c, Notation::Letters),
    }
}

fn names(e: &Engine, s: CellSet) -> String {
    s.iter().map(|c| name(e, c)).collect::<Vec<_>>().join(" ")
}

fn params(e: &Engine) -> VcParams {
    let mut p = e.config.vc_params(Duration::from_secs(5));
    p.stop_at_win = false;
    p
}

/// Runs an analysis command; `None` if `name` is not one.
pub fn dispatch(e: &mut Engine, cmd: &str, args: &[&str]) -> Option<Result<String, GtpError>> {
    Some(match cmd {
        "vc-between-cells-full" | "vc-between-cells-semi" => {
            between(e, cmd.ends_with("full"), args)
        }
        "vc-get-mustplay" => get_mustplay(e, args),
        "template-matches" => templates(e, args),
        "eval-resist" | "eval-energy" => circuit(e, cmd == "eval-energy", args),
        "solve-state" => solve(e, args),
        _ => return None,
    })
}

fn colour_arg(cmd: &'static str, args: &[&str], n: usize) -> Result<Colour, GtpError> {
    if args.len() != n {
        return Err(GtpError::ArityShort {
            command: cmd,
            expected: n,
        });
    }
    parse_colour(args[0])
}

fn between(e: &Engine, full: bool, args: &[&str]) -> Result<String, GtpError> {
    let c = colour_arg("vc-between-cells", args, 3)?;
    let (x, y) = (point(e, args[1])?, point(e, args[2])?);
    let v = VcSet::build(e.game.position(), c, params(e));
    let carriers = if full { v.vcs(x, y) } else { v.vscs(x, y) };
    let kind = if full { "full" } else { "semi" };
    Ok(carriers
        .iter()
        .map(|k| {
            format!(
                "{} {} {} {kind} hexproof 0 [ {} ]",
                name(e, x),
                name(e, y),
                c,
                names(e, *k)
            )
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

fn get_mustplay(e: &Engine, args: &[&str]) -> Result<String, GtpError> {
    let c = colour_arg("vc-get-mustplay", args, 1)?;
    let opp = VcSet::build(e.game.position(), c.opponent(), params(e));
    Ok(match mustplay(&opp) {
        Mustplay::Unrestricted => names(e, e.game.position().empty_cells()),
        Mustplay::Restricted(m) => names(e, m),
        Mustplay::Lost { .. } => String::new(),
    })
}

fn templates(e: &Engine, args: &[&str]) -> Result<String, GtpError> {
    let c = colour_arg("template-matches", args, 1)?;
    let pos = e.game.position();
    let seeds = seed::default_seeds();
    let mut lines = Vec::new();
    for inst in seed::instances(pos.board(), c, &seeds) {
        if pos.colour_at(inst.anchor) != Some(c) {
            continue;
        }
        if let Some(carrier) = inst.applies(pos, c) {
            lines.push(format!(
                "{} {} [ {} ]",
                name(e, inst.anchor),
                border_name(inst.border),
                names(e, carrier)
            ));
        }
    }
    Ok(lines.join("\n"))
}

fn circuit(e: &Engine, energy: bool, args: &[&str]) -> Result<String, GtpError> {
    if !args.is_empty() {
        return Err(GtpError::Usage("expected no arguments"));
    }
    let pos = e.game.position();
    let ev = if e.config.uses_vcs() {
        let (b, w) = crate::vc::build_both(pos, &params(e));
        evaluate(pos, Some((&b, &w)), e.config.links)
    } else {
        evaluate(pos, None, e.config.links)
    };
    if energy {
        Ok(pos
            .empty_cells()
            .iter()
            .map(|c| format!("{} {:.4}", name(e, c), ev.energy[c.index()]))
            .collect::<Vec<_>>()
            .join(" "))
    } else {
        Ok(format!(
            "E {:.4} R_black {:.4} R_white {:.4}",
            ev.e(),
            ev.r_black,
            ev.r_white
        ))
    }
}

fn solve(e: &Engine, args: &[&str]) -> Result<String, GtpError> {
    if args.is_empty() || args.len() > 2 {
        return Err(GtpError::Usage("solve-state: expected color [nodes]"));
    }
    let c = parse_colour(args[0])?;
    let nodes = match args.get(1) {
        Some(n) => n
            .parse::<u64>()
            .map_err(|_| GtpError::BadNodeCount(n.to_string()))?,
        None => 200_000,
    };
    let pos = e.game.position();
    if let Some(w) = pos.winner() {
        return Ok(format!("{w} has won"));
    }
    let empty = pos.empty_cells();
    if empty.len() > crate::player::proven::MAX_LOCAL {
        return Ok(format!(
            "unknown: {} empty cells (the solver takes at most 128)",
            empty.len()
        ));
    }
    let budget = Budget {
        nodes: nodes / 2 + 1,
        time: Some(Duration::from_secs(30)),
        max_entries: 5_000_000,
        stop: None,
    };
    // First: does c win moving first? Then: does the opponent win with c moving first?
    // Each question's "holds" comes with a kernel-checked certificate.
    let mut spent = 0;
    for (owner, owner_first) in [(c, true), (c.opponent(), false)] {
        let [b1, b2] = owner.borders();
        let game = SubGame::new(
            pos.clone(),
            empty,
            Claim {
                owner,
                pairs: vec![(Cell::border(b1), Cell::border(b2))],
                owner_first,
            },
        )?;
        let out = decide(&game, &budget)?;
        spent += out.stats.nodes;
        match (out.verdict, owner_first) {
            (Verdict::Holds, true) => {
                let first = out
                    .certificate
                    .as_ref()
                    .and_then(|k| k.first)
                    .map_or(String::from("?"), |m| name(e, m));
                return Ok(format!("{c} to move wins with {first} (kernel-checked)"));
            }
            (Verdict::Holds, false) => {
                return Ok(format!("{c} to move loses (kernel-checked)"));
            }
            (Verdict::Fails, true) => return Ok(format!("{c} to move loses (exact search)")),
            (Verdict::Fails, false) => return Ok(format!("{c} to move wins (exact search)")),
            (Verdict::Undecided, _) => {}
        }
    }
    Ok(format!("unknown after {spent} nodes"))
}
