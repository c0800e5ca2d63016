//! `hexproof vc`: virtual connections, winning connections and mustplay of a position.

use super::args::{choice, not_a_colour, ColourArg, PositionArgs, VariantArg};
use super::{fail_input, move_list, print_json, CliError, EXIT_HOLDS, EXIT_UNDECIDED};
use clap::Args;
use hexproof::board::{CellSet, Colour, Notation};
use hexproof::position::Position;
use hexproof::vc::{self, render, Mustplay, Status, VcBudget, VcParams, VcSet};
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

/// Virtual connections of one colour (H-search or FastVC), its winning connections and its
/// mustplay.
///
/// Builds the VCs (the colour connects even if the opponent moves first) and VSCs (it
/// connects moving first) of --color in the position reached by --moves, with Anshelevich's
/// AND and OR rules: H-search (Anshelevich 2002, Appendix A, with HEXY's limits M and K) or
/// FastVC Search (Pawlewicz, Hayward, Henderson, Arneson 2015) in its unlimited, limited or
/// fast variant. The search is seeded, as the solver's is, with the certified template
/// library (every edge template with one goal stone and the published templates of up to 32
/// cells that hold, each certificate re-checked by the kernel when the program starts);
/// `--hexwiki-seeds` seeds it with HexWiki's five templates II, III1a, III1b, IV1a and IV1b
/// only, `--no-seeds` with none. Every reported connection is true (the rules are sound); not
/// every true one is found. It also builds the opponent's connections to get the mustplay of --color: the
/// cells in every carrier of the opponent's winning VSCs (moving elsewhere loses).
///
/// Prints counts of VCs and VSCs (carriers and endpoint pairs), the winning VCs and VSCs
/// with their carriers, the mustplay, the build times, and two pictures: the cells
/// VC-connected to each of the colour's sides, and the mustplay.
///
/// Examples:
///   hexproof vc --board 11x11 --moves "a2 g5 d7 d8 e7 e8 f7 f8 g7 g8 c8 c9" --color black
///   hexproof vc --board 7x7 --moves "d4" --color black --variant unlimited --json
///   hexproof vc --moves "c1 f6 g6 g5 i4 i3" --color white --variant hsearch --svg vc.svg
///
/// Exit codes: 0 done, 2 bad input, 3 a build ran out of budget (the connections reported
/// are still true, but the search did not finish).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct VcArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Whose connections: black (joins top and bottom) or white (joins left and right).
    #[arg(long, alias = "colour", default_value = "black", value_name = "COLOUR", value_parser = choice::<ColourArg>(not_a_colour))]
    color: ColourArg,
    /// The engine: fast, limited, unlimited (FastVC variants) or hsearch.
    #[arg(long, default_value = "fast", value_parser = choice::<VariantArg>(|v| format!("'{v}' is not a variant (expected fast, limited, unlimited or hsearch)")))]
    variant: VariantArg,
    /// H-search's M: carriers kept per endpoint pair and list (0 = no limit).
    #[arg(long, default_value_t = 20, value_name = "M")]
    hsearch_m: usize,
    /// H-search's K: most VSCs combined by one OR rule (0 = no limit).
    #[arg(long, default_value_t = 4, value_name = "K")]
    hsearch_k: usize,
    /// Do not seed the search with edge templates (base VCs only).
    #[arg(long, conflicts_with = "hexwiki_seeds")]
    no_seeds: bool,
    /// Seed the search with HexWiki's five one-stone templates (II, III1a, III1b, IV1a, IV1b)
    /// instead of the whole certified library (the default before issue 25's win-detection
    /// work; it misses White's winning semi-connection of the 2011 Olympiad's gm11).
    #[arg(long)]
    hexwiki_seeds: bool,
    /// Seed the search with the whole certified template library (every edge template with
    /// one goal stone, helper stones included, and the published templates of up to 32 cells
    /// that hold, each certificate re-checked by the kernel), as the solver does. The
    /// default; the flag is kept for scripts written before it was.
    #[arg(long, conflicts_with_all = ["no_seeds", "hexwiki_seeds"])]
    library_seeds: bool,
    /// The fast variant's OR rule by the fast semis-combiner (Pawlewicz et al. Algorithm 4),
    /// as before issue 25, instead of semis-combiner (Algorithm 2).
    #[arg(long)]
    fast_or: bool,
    /// The AND rule at an empty midpoint also combines two connections that share only cells
    /// of its bridge to an edge of the colour (it captures them when played), as the solver
    /// does (FastVC variants)
    #[arg(long)]
    capture_and: bool,
    /// Do not allow the colour's borders as AND midpoints.
    #[arg(long)]
    no_and_over_borders: bool,
    /// Budget: most carriers held at once (per colour).
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    max_connections: usize,
    /// Budget: seconds per colour.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    time: f64,
    /// How many winning VCs and VSCs to list (smallest first).
    #[arg(long, default_value_t = 5, value_name = "N")]
    show: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also write an SVG picture (connected cells and mustplay) to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

struct Setup {
    position: Position,
    moves: usize,
    colour: Colour,
    notation: Notation,
    params: VcParams,
}

fn setup(a: &VcArgs) -> Result<Setup, CliError> {
    let notation = a.position.notation();
    let colour = a.color.into();
    let (position, played) = a.position.position()?;
    if !a.time.is_finite() || a.time <= 0.0 {
        return Err(CliError::NotPositiveSeconds {
            flag: "--time",
            seconds: a.time,
        });
    }
    if a.max_connections == 0 {
        return Err(CliError::Zero("--max-connections"));
    }
    let mut params = VcParams::new(a.variant.into());
    if a.no_seeds {
        params.seeds.clear();
    } else if a.library_seeds || !a.hexwiki_seeds {
        params.seeds = hexproof::templates::seeds::library_seeds().to_vec();
    }
    params.and_over_borders = !a.no_and_over_borders;
    params.capture_and = a.capture_and;
    if a.fast_or {
        params.full_or = false;
    }
    params.hsearch.m = (a.hsearch_m > 0).then_some(a.hsearch_m);
    params.hsearch.k = (a.hsearch_k > 0).then_some(a.hsearch_k);
    params.budget = VcBudget {
        max_connections: a.max_connections,
        time: Some(Duration::from_secs_f64(a.time.min(1e9))),
    };
    Ok(Setup {
        position,
        moves: played,
        colour,
        notation,
        params,
    })
}

fn status_text(s: Status) -> &'static str {
    match s {
        Status::Complete => "complete",
        Status::StoppedAtWin => "stopped at the first winning VC",
        Status::Incomplete(vc::Exhausted::Connections) => "INCOMPLETE: connection budget exhausted",
        Status::Incomplete(vc::Exhausted::Time) => "INCOMPLETE: time budget exhausted",
    }
}

fn sorted(mut v: Vec<CellSet>) -> Vec<CellSet> {
    v.sort_by_key(|c| (c.len(), *c));
    v
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Both colours' connections in the position, and what `vc` reports of them.
struct Built {
    mine: VcSet,
    theirs: VcSet,
    mp: Mustplay,
    /// The cells VC-connected to each of the colour's sides.
    sides: (CellSet, CellSet),
    to_move: Colour,
    win_vcs: Vec<CellSet>,
    win_vscs: Vec<CellSet>,
    /// The mustplay as cells (`None`: unrestricted).
    mp_cells: Option<CellSet>,
}

fn build(s: &Setup) -> Built {
    let mine = VcSet::build(&s.position, s.colour, s.params.clone());
    let theirs = VcSet::build(&s.position, s.colour.opponent(), s.params.clone());
    let mp = vc::mustplay(&theirs);
    let [b1, b2] = s.colour.borders();
    let sides = (mine.connected_to(b1), mine.connected_to(b2));
    let to_move = PositionArgs::to_move(s.moves);
    let mp_cells = match &mp {
        Mustplay::Lost { .. } => Some(CellSet::EMPTY),
        Mustplay::Restricted(m) => Some(*m),
        Mustplay::Unrestricted => None,
    };
    Built {
        win_vcs: sorted(mine.winning_vcs()),
        win_vscs: sorted(mine.winning_vscs()),
        mine,
        theirs,
        mp,
        sides,
        to_move,
        mp_cells,
    }
}

/// Runs `hexproof vc`.
pub fn run_vc(a: VcArgs) -> u8 {
    let s = match setup(&a) {
        Ok(s) => s,
        Err(e) => return fail_input(&e),
    };
    let v = build(&s);
    if let Some(path) = &a.svg {
        if let Err(source) = std::fs::write(path, svg(&s, &v)) {
            return fail_input(CliError::Write {
                path: path.clone(),
                source,
            });
        }
    }
    let incomplete = v.mine.status().is_incomplete() || v.theirs.status().is_incomplete();
    let code = if incomplete {
        EXIT_UNDECIDED
    } else {
        EXIT_HOLDS
    };
    if a.json {
        return print_json(vc_json(&a, &s, &v), code);
    }
    print_vc(&a, &s, &v);
    code
}

/// The `--svg` picture: the cells connected to each side and the mustplay, with a caption.
fn svg(s: &Setup, v: &Built) -> String {
    let mut lines = vec![format!(
        "{} connections ({} variant) after {}; {} to move",
        s.colour,
        s.params.variant,
        super::plural(s.moves, "move"),
        v.to_move
    )];
    lines.push(match &v.mp {
        Mustplay::Lost { .. } => format!(
            "{} has a winning VC: {} is lost",
            s.colour.opponent(),
            s.colour
        ),
        Mustplay::Restricted(m) => format!(
            "mustplay for {}: {}",
            s.colour,
            super::plural(m.len(), "cell")
        ),
        Mustplay::Unrestricted => {
            format!("no mustplay: {} has no winning VSC", s.colour.opponent())
        }
    });
    let (side1, side2) = v.sides;
    render::svg(
        &s.position,
        s.colour,
        side1,
        side2,
        v.mp_cells,
        s.notation,
        &lines,
    )
}

/// The `--json` result of `vc`.
fn vc_json(a: &VcArgs, s: &Setup, v: &Built) -> serde_json::Value {
    let b = *s.position.board();
    let n = s.notation;
    let names = |c: &CellSet| c.iter().map(|x| b.cell_name(x, n)).collect::<Vec<_>>();
    let side_json = |v: &VcSet| {
        let c = v.counts();
        json!({
            "colour": v.colour(),
            "status": v.status(),
            "seconds": v.stats().micros as f64 / 1e6,
            "vcs": c.vcs,
            "vscs": c.vscs,
            "vc_pairs": c.vc_pairs,
            "vsc_pairs": c.vsc_pairs,
            "winning_vcs": v.winning_vcs().len(),
            "winning_vscs": v.winning_vscs().len(),
            "stats": v.stats(),
        })
    };
    let [s1, s2] = s.colour.borders().map(|x| x.letter().to_string());
    let (side1, side2) = v.sides;
    json!({
        "board": b.to_string(),
        "moves": move_list(&b, &a.position.moves, n),
        "to_move": v.to_move,
        "colour": s.colour,
        "variant": s.params.variant,
        "seeded": !s.params.seeds.is_empty(),
        "connections": side_json(&v.mine),
        "opponent": side_json(&v.theirs),
        "winning_vcs": v.win_vcs.iter().map(names).collect::<Vec<_>>(),
        "winning_vscs": v.win_vscs.iter().map(names).collect::<Vec<_>>(),
        "mustplay": match &v.mp {
            Mustplay::Lost { carrier } => json!({"state": "lost", "opponent_winning_vc": names(carrier), "cells": []}),
            Mustplay::Restricted(m) => json!({"state": "restricted", "cells": names(m)}),
            Mustplay::Unrestricted => json!({"state": "unrestricted", "cells": names(&s.position.empty_cells())}),
        },
        "connected_to_side": { s1: names(&side1), s2: names(&side2) },
    })
}

/// The text report of `vc`: counts, winning connections, the opponent's side, the mustplay
/// and the pictures.
fn print_vc(a: &VcArgs, s: &Setup, v: &Built) {
    let b = *s.position.board();
    let n = s.notation;
    let (mine, theirs) = (&v.mine, &v.theirs);
    println!(
        "position: {b}, {}, {} to move",
        super::plural(s.moves, "move"),
        v.to_move
    );
    print!("{}", s.position.to_ascii(n));
    let c = mine.counts();
    println!(
        "{} connections, {} variant{}: {} in {:.3} ms",
        s.colour,
        s.params.variant,
        if s.params.seeds.is_empty() {
            ", no seeds"
        } else {
            ""
        },
        status_text(mine.status()),
        mine.stats().micros as f64 / 1000.0
    );
    println!(
        "  VCs:  {} carriers on {} endpoint pairs",
        c.vcs, c.vc_pairs
    );
    println!(
        "  VSCs: {} carriers on {} endpoint pairs",
        c.vscs, c.vsc_pairs
    );
    let list = |label: &str, v: &[CellSet]| {
        if v.is_empty() {
            println!("  {label}: none");
        } else {
            println!("  {label}: {} (smallest first)", v.len());
            for carrier in v.iter().take(a.show) {
                println!(
                    "    {}: {}",
                    super::plural(carrier.len(), "cell"),
                    b.set_names(carrier, n)
                );
            }
            if v.len() > a.show {
                println!("    … {} more (--show N)", v.len() - a.show);
            }
        }
    };
    if mine.is_won() {
        println!(
            "  {} has already connected its sides",
            capitalise(s.colour.name())
        );
    } else {
        list("winning VCs", &v.win_vcs);
        list("winning VSCs", &v.win_vscs);
    }
    let tc = theirs.counts();
    println!(
        "{} connections (for the mustplay): {} in {:.3} ms; {} VCs, {} VSCs; {} winning VCs, {} winning VSCs",
        s.colour.opponent(),
        status_text(theirs.status()),
        theirs.stats().micros as f64 / 1000.0,
        tc.vcs,
        tc.vscs,
        theirs.winning_vcs().len(),
        theirs.winning_vscs().len()
    );
    print_mustplay(s, &v.mp);
    let [l1, l2] = s.colour.borders().map(|x| x.letter());
    println!(
        "cells VC-connected to {}'s sides ({l1} = {}, {l2} = {}, + = both):",
        s.colour,
        if l1 == 't' { "top" } else { "left" },
        if l2 == 'b' { "bottom" } else { "right" }
    );
    let (side1, side2) = v.sides;
    print!(
        "{}",
        render::ascii_sides(&s.position, s.colour, side1, side2, n)
    );
    if let Some(m) = v.mp_cells {
        println!("mustplay for {} (!):", s.colour);
        print!("{}", render::ascii_mustplay(&s.position, m, n));
    }
    if let Some(p) = &a.svg {
        println!("SVG written to {}", p.display());
    }
}

/// The mustplay line of the text report.
fn print_mustplay(s: &Setup, mp: &Mustplay) {
    let b = *s.position.board();
    let n = s.notation;
    match mp {
        Mustplay::Lost { carrier } => println!(
            "mustplay for {}: none — {} has a winning VC on {}: {}",
            s.colour,
            s.colour.opponent(),
            super::plural(carrier.len(), "cell"),
            b.set_names(carrier, n)
        ),
        Mustplay::Restricted(m) => println!(
            "mustplay for {}: {}: {}",
            s.colour,
            super::plural(m.len(), "cell"),
            b.set_names(m, n)
        ),
        Mustplay::Unrestricted => println!(
            "mustplay for {}: no restriction ({} has no winning VSC)",
            s.colour,
            s.colour.opponent()
        ),
    }
}
