//! A position as the solver sees it (after its fill-in) and what the solver's connection
//! build finds there, for both colours (issue 25, docs/journal/vc-session29.md). Usage:
//! `cargo run --release --example vc_filled -- BOARD "MOVES" [ice]` (moves alternate, Black
//! first; `ice` installs the certified ICE patterns as `hexproof solve` does). Environment:
//! `HEXPROOF_VC_SEMI_LIMIT` (a number or `none`), `HEXPROOF_VC_CAPTURE=1`
//! (`VcParams::capture_and`), `HEXPROOF_VC_FULL_OR=1`, `HEXPROOF_STOP=1` (stop at a win),
//! `HEXPROOF_EXTRA_BLACK` / `HEXPROOF_EXTRA_WHITE` (cells given stones after the moves),
//! `HEXPROOF_DUMP="x y"` (every Black VC and VSC of that pair; cells or t b l r),
//! `HEXPROOF_SOLVER_EVAL=1` (also the solver's own evaluation of the position).
use hexproof::board::{Board, Colour, Notation};
use hexproof::dfpn::inferior::{fill_in, InferiorRules};
use hexproof::position::Position;
use hexproof::vc::{Variant, VcParams, VcSet};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let b = Board::parse(&args[0]).expect("board");
    let moves = args.get(1).map_or("", String::as_str);
    if args.iter().any(|a| a == "ice") {
        hexproof::ice::install(hexproof::trusted::ice::accepted_patterns(
            hexproof::ice::EMBEDDED,
        ));
    }
    let mut p = Position::from_moves(b, moves, Notation::Letters).expect("legal moves");
    let n = moves.split_whitespace().count();
    // HEXPROOF_EXTRA_BLACK / _WHITE: stones added after the moves (the side to move unchanged).
    for (k, c) in [
        ("HEXPROOF_EXTRA_BLACK", Colour::Black),
        ("HEXPROOF_EXTRA_WHITE", Colour::White),
    ] {
        if let Ok(v) = std::env::var(k) {
            for cell in b.parse_cells(&v, Notation::Letters).expect("cells") {
                let (mut bl, mut wh) = (p.stones(Colour::Black), p.stones(Colour::White));
                if c == Colour::Black {
                    bl.insert(cell);
                } else {
                    wh.insert(cell);
                }
                p = Position::new(b, bl, wh).expect("position");
            }
        }
    }
    let to_move = if n.is_multiple_of(2) {
        Colour::Black
    } else {
        Colour::White
    };
    let f = fill_in(&mut p, InferiorRules::ALL, to_move);
    let names = |s| b.set_names(&s, Notation::Letters);
    println!(
        "to move {}; dead {} | black captured {} | white captured {}",
        to_move.name(),
        names(f.dead),
        names(f.black_captured),
        names(f.white_captured)
    );
    println!("{}", p.to_ascii(Notation::Letters));
    if std::env::var("HEXPROOF_SOLVER_EVAL").is_ok() {
        let params = hexproof::dfpn::SolveParams::default();
        let order = params.order.order();
        let mut d = hexproof::dfpn::make_search(&params, order, std::time::Instant::now());
        let pos0 = Position::from_moves(b, moves, Notation::Letters).expect("legal moves");
        let root = d.filled(&pos0, to_move);
        println!("solver root == probe position: {}", root == p);
        let e = d.eval.evaluate_hint(&root, to_move, false);
        match e {
            hexproof::dfpn::vc_eval::Eval::Open { moves, .. } => {
                println!("solver eval: open, {} moves {}", moves.len(), names(moves))
            }
            other => println!("solver eval: {other:?}"),
        }
    }
    for c in [Colour::Black, Colour::White] {
        let mut params = VcParams::new(Variant::Fast);
        params.semi_limit = Some(16);
        params.full_or = false;
        params.seeds = hexproof::templates::seeds::library_seeds().to_vec();
        if let Ok(v) = std::env::var("HEXPROOF_VC_SEMI_LIMIT") {
            params.semi_limit = v.parse().ok();
        }
        params.stop_at_win = std::env::var("HEXPROOF_STOP").is_ok();
        params.budget = hexproof::vc::VcBudget {
            max_connections: 200_000,
            time: Some(std::time::Duration::from_secs(5)),
        };
        params.capture_and = std::env::var("HEXPROOF_VC_CAPTURE").is_ok_and(|v| v == "1");
        if std::env::var("HEXPROOF_VC_FULL_OR").is_ok_and(|v| v == "1") {
            params.full_or = true;
        }
        let t = std::time::Instant::now();
        let v = VcSet::build(&p, c, params);
        println!(
            "  {:?} {:?} {:.1} ms",
            v.status(),
            v.stats(),
            t.elapsed().as_secs_f64() * 1e3
        );
        let (w, s) = (v.winning_vcs(), v.winning_vscs());
        println!(
            "{}: {:?} winning VCs {} VSCs {}",
            c.name(),
            v.counts(),
            w.len(),
            s.len()
        );
        // HEXPROOF_DUMP="x y": every VC and VSC of that pair (cells, or t b l r), one a line.
        if let Ok(q) = std::env::var("HEXPROOF_DUMP") {
            let ends: Vec<_> = q
                .split_whitespace()
                .map(|t| match t {
                    "t" => hexproof::board::Cell::border(hexproof::board::Border::Top),
                    "b" => hexproof::board::Cell::border(hexproof::board::Border::Bottom),
                    "l" => hexproof::board::Cell::border(hexproof::board::Border::Left),
                    "r" => hexproof::board::Cell::border(hexproof::board::Border::Right),
                    _ => b.parse_cell(t, Notation::Letters).expect("cell"),
                })
                .collect();
            if c == Colour::Black {
                for x in v.vcs(ends[0], ends[1]) {
                    println!("  FULL {}", names(x));
                }
                for x in v.vscs(ends[0], ends[1]) {
                    println!("  SEMI {}", names(x));
                }
            }
        }
        if !s.is_empty() {
            let mut i = s[0];
            for x in &s {
                i &= *x;
            }
            println!("  winning VSCs' intersection: {}", names(i));
        }
        for x in w.iter().take(2) {
            println!("  VC  {} {}", x.len(), names(*x));
        }
        for x in s.iter().take(2) {
            println!("  VSC {} {}", x.len(), names(*x));
        }
    }
}
