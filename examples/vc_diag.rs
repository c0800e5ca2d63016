//! Diagnoses a missed connection: builds one colour's connections on an 11×11 position and
//! lists the VCs and VSCs of the endpoint pairs asked for, so that the derivation of a
//! connection one variant finds can be followed pair by pair in another. Usage:
//! `cargo run --release --example vc_diag -- "MOVES" black|white VARIANT "x1 y1, x2 y2, ..."`
//! (moves alternate, Black first; cells or borders l r t b). Environment:
//! `HEXPROOF_VC_SEMI_LIMIT` (a number or `none`), `HEXPROOF_VC_LIBRARY_SEEDS=1`,
//! `HEXPROOF_VC_FULL_OR=0|1` ([`VcParams::full_or`]), `HEXPROOF_VC_FULL_KEEP=N`
//! ([`VcParams::full_keep`]), `HEXPROOF_VC_BOUNDED_OR=N|none` ([`VcParams::bounded_or`]), `HEXPROOF_VC_REPEAT=N` (time N warm
//! rebuilds), `HEXPROOF_VC_DIFF=1` (also build with `full_or` switched and list the
//! connections of that build that this one lacks, smallest first; with
//! `HEXPROOF_VC_REGION="cells"` only those whose carrier lies in the region),
//! `HEXPROOF_VC_FILL=1` (first fill the inferior cells as the solver does, for the colour's
//! opponent to move, and print what was filled; session 35), `HEXPROOF_VC_ADD_BLACK="cells"`
//! and `HEXPROOF_VC_ADD_WHITE="cells"` (stones added first, e.g. another engine's fill-in),
//! `HEXPROOF_VC_EDGE_SEMI_LIMIT=N|none` ([`VcParams::edge_semi_limit`]), and the library's
//! `HEXPROOF_VC_FAST_SUBSETS=1` (docs/journal/vc-session35.md).

use hexproof::board::{Board, Colour, Notation};
use hexproof::position::Position;
use hexproof::vc::{Variant, VcParams, VcSet};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &'static str| args.get(i).map_or(default, String::as_str);
    let (moves, queries) = (arg(0, ""), arg(3, ""));
    let colour = [Colour::Black, Colour::White]
        .into_iter()
        .find(|c| c.name() == arg(1, "black"))
        .expect("colour: black or white");
    let variant =
        Variant::parse(arg(2, "fast")).expect("variant: fast, limited, unlimited or hsearch");
    let b = Board::square(11).unwrap();
    let mut p = Position::from_moves(b, moves, Notation::Letters).expect("legal moves");
    for (var, who) in [
        ("HEXPROOF_VC_ADD_BLACK", Colour::Black),
        ("HEXPROOF_VC_ADD_WHITE", Colour::White),
    ] {
        for m in std::env::var(var).unwrap_or_default().split_whitespace() {
            let c = b.parse_cell(m, Notation::Letters).expect("cell");
            p.play(who, c).expect("an empty cell");
        }
    }
    if std::env::var("HEXPROOF_VC_FILL").is_ok_and(|v| v == "1") {
        let rules = hexproof::dfpn::inferior::InferiorRules {
            decompose: false,
            ..hexproof::dfpn::inferior::InferiorRules::ALL
        };
        let f = hexproof::dfpn::inferior::fill_in(&mut p, rules, colour.opponent());
        let list = |s: hexproof::board::CellSet| {
            s.iter()
                .map(|c| b.cell_name(c, Notation::Letters))
                .collect::<Vec<_>>()
                .join(" ")
        };
        println!(
            "fill: dead [{}] black captured [{}] white captured [{}]",
            list(f.dead),
            list(f.black_captured),
            list(f.white_captured)
        );
    }
    let mut params = VcParams::new(variant);
    if let Ok(v) = std::env::var("HEXPROOF_VC_SEMI_LIMIT") {
        params.semi_limit = v.parse().ok();
    }
    if std::env::var("HEXPROOF_VC_LIBRARY_SEEDS").is_ok_and(|v| v == "1") {
        params.seeds = hexproof::templates::seeds::library_seeds().to_vec();
    }
    if let Ok(v) = std::env::var("HEXPROOF_VC_FULL_OR") {
        params.full_or = v == "1";
    }
    if let Ok(v) = std::env::var("HEXPROOF_VC_FULL_KEEP") {
        params.full_keep = v.parse().expect("HEXPROOF_VC_FULL_KEEP: a number");
    }
    if let Ok(v) = std::env::var("HEXPROOF_VC_EDGE_SEMI_LIMIT") {
        params.edge_semi_limit = if v == "none" {
            Some(usize::MAX)
        } else {
            v.parse().ok()
        };
    }
    if let Ok(v) = std::env::var("HEXPROOF_VC_BOUNDED_OR") {
        params.bounded_or = v.parse().ok();
    }
    let diff = std::env::var("HEXPROOF_VC_DIFF").is_ok_and(|v| v == "1");
    let region = std::env::var("HEXPROOF_VC_REGION")
        .ok()
        .map(|r| b.parse_cells(&r, Notation::Letters).expect("cells"));
    let mut other = params.clone();
    let repeat: usize = std::env::var("HEXPROOF_VC_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut set = VcSet::new(colour, params);
    set.rebuild(&p);
    let t = Instant::now();
    for _ in 0..repeat {
        set.rebuild(&p);
    }
    let ms = t.elapsed().as_secs_f64() * 1e3 / repeat as f64;
    let name = |c| b.cell_name(c, Notation::Letters);
    let names = |s: hexproof::board::CellSet| {
        let v: Vec<String> = s.iter().map(name).collect();
        format!("{} [{}]", s.len(), v.join(" "))
    };
    println!(
        "{variant} {colour}: {ms:.2} ms, {:?}, {:?}",
        set.status(),
        set.counts()
    );
    if diff {
        other.full_or = !other.full_or;
        let o = VcSet::build(&p, colour, other);
        let mut reg = hexproof::board::CellSet::EMPTY;
        for c in region.unwrap_or_default() {
            reg.insert(c);
        }
        let mut missing: Vec<_> = o
            .connections()
            .into_iter()
            .filter(|c| reg.is_empty() || c.carrier.is_subset(&reg))
            .filter(|c| {
                let have = match c.kind {
                    hexproof::vc::Kind::Vc => set.vcs(c.x, c.y),
                    hexproof::vc::Kind::Semi => {
                        let mut v = set.vscs(c.x, c.y);
                        v.extend(set.vcs(c.x, c.y));
                        v
                    }
                };
                !have.iter().any(|h| h.is_subset(&c.carrier))
            })
            .collect();
        missing.sort_by_key(|c| c.carrier.len());
        for c in missing.iter().take(40) {
            println!(
                "missing {:?} {} {}: {}",
                c.kind,
                name(c.x),
                name(c.y),
                names(c.carrier)
            );
        }
    }
    for w in set.winning_vscs() {
        println!("winning VSC {}", names(w));
    }
    for w in set.winning_vcs() {
        println!("winning VC {}", names(w));
    }
    for q in queries.split(',') {
        let cells: Vec<_> = q.split_whitespace().collect();
        if cells.len() != 2 {
            continue;
        }
        let x = b.parse_cell(cells[0], Notation::Letters).expect("cell");
        let y = b.parse_cell(cells[1], Notation::Letters).expect("cell");
        let mut vcs = set.vcs(x, y);
        vcs.sort_by_key(|c| c.len());
        let mut vscs = set.vscs(x, y);
        vscs.sort_by_key(|c| c.len());
        println!(
            "{} {}: {} VCs, {} VSCs",
            name(x),
            name(y),
            vcs.len(),
            vscs.len()
        );
        for c in vcs {
            println!("  VC  {}", names(c));
        }
        for c in vscs {
            println!("  VSC {}", names(c));
        }
    }
}
