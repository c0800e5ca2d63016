//! The alpha-beta player's connection builds on the positions of a move-choice set
//! (`tools/move-choice.py`, e.g. docs/journal/player-session35-move-choice.jsonl): their cost
//! and what they find, under the player's search parameters
//! ([`hexproof::player::alphabeta::search_vc_params`]) with the seeds and the border-pair VSC
//! limit switched (player session 36). For every position (the side to move = the player):
//! the root is filled as the player's root fills it, both colours' connections are built
//! (one warm rebuild timed), and the played move and the oracle's are each played and taken
//! back on both sets (the search's per-node update, timed). For the positions where the game
//! was lost (`--collapse game:ply,…`), the played move and the opponent's reply are played on
//! the sets as the search would, and the opponent's winning VCs are counted (and after a
//! fresh rebuild of that position).
//!
//! Usage: `cargo run --release --example player_vc_cost -- FILE.jsonl [--collapse 1:18,4:11]`.
//! Prints one line per configuration: `seeds` (hexwiki | library), `edge` (the border-pair
//! VSC limit below the root: 2 = as the inner pairs, none).

use hexproof::board::{Board, Colour, Notation};
use hexproof::dfpn::inferior::{fill_in, InferiorRules};
use hexproof::player::{alphabeta::search_vc_params, Config};
use hexproof::position::Position;
use hexproof::vc::{build_both, VcSet};
use std::time::{Duration, Instant};

struct Rec {
    game: String,
    ply: usize,
    size: u32,
    to_move: Colour,
    moves: Vec<String>,
    played: String,
    oracle: String,
}

fn read(path: &str) -> Vec<Rec> {
    let text = std::fs::read_to_string(path).expect("the set file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("one JSON object a line");
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            Rec {
                game: s("game"),
                ply: v["ply"].as_u64().expect("ply") as usize,
                size: v["size"].as_u64().unwrap_or(11) as u32,
                to_move: if s("colour") == "w" {
                    Colour::White
                } else {
                    Colour::Black
                },
                moves: v["moves"]
                    .as_array()
                    .expect("moves")
                    .iter()
                    .map(|m| {
                        let m = m.as_str().expect("a move");
                        m.split_whitespace().last().unwrap_or("").to_string()
                    })
                    .collect(),
                played: s("played"),
                oracle: s("oracle"),
            }
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args
        .first()
        .expect("usage: player_vc_cost FILE.jsonl [--collapse g:p,…]");
    let collapse: Vec<(String, usize)> = args
        .iter()
        .position(|a| a == "--collapse")
        .and_then(|i| args.get(i + 1))
        .map(|s| {
            s.split(',')
                .map(|gp| {
                    let (g, p) = gp.split_once(':').expect("game:ply");
                    (g.to_string(), p.parse().expect("ply"))
                })
                .collect()
        })
        .unwrap_or_default();
    let recs = read(file);
    let rules = InferiorRules {
        decompose: false,
        ..InferiorRules::ALL
    };
    for (lib, edge) in [(false, 2), (true, 0), (false, 0), (true, 2)] {
        let config = Config {
            ab_semi_limit: 2,
            ab_edge_semi_limit: edge,
            library_seeds: lib,
            ..Config::default()
        };
        let mut params = search_vc_params(&config, Duration::from_secs(10));
        params.stop_at_win = false;
        let (mut build_us, mut builds, mut upd_us, mut upds) = (0u128, 0u64, 0u128, 0u64);
        let mut found = Vec::new();
        let mut max_build = 0u128;
        for r in &recs {
            let b = Board::square(r.size).expect("size");
            let Ok(p) = Position::from_moves(b, &r.moves.join(" "), Notation::Letters) else {
                continue;
            };
            if p.winner().is_some() {
                continue;
            }
            let mut q = p.clone();
            fill_in(&mut q, rules, r.to_move);
            // As the player's root: a fill-in that ends the game is not used.
            let root = if q.winner().is_some() { p.clone() } else { q };
            let (mut bs, mut ws) = build_both(&root, &params);
            let t = Instant::now();
            bs.rebuild(&root);
            ws.rebuild(&root);
            let us = t.elapsed().as_micros();
            build_us += us;
            max_build = max_build.max(us);
            builds += 1;
            for m in [&r.played, &r.oracle] {
                let Ok(c) = b.parse_cell(m, Notation::Letters) else {
                    continue;
                };
                if !root.empty_cells().contains(c) {
                    continue;
                }
                let t = Instant::now();
                bs.play_undoable(r.to_move, c).expect("empty");
                ws.play_undoable(r.to_move, c).expect("empty");
                bs.unplay();
                ws.unplay();
                upd_us += t.elapsed().as_micros();
                upds += 1;
            }
            let key = (
                r.game
                    .trim_start_matches("game-")
                    .trim_end_matches(".sgf")
                    .trim_start_matches('0')
                    .to_string(),
                r.ply,
            );
            if !collapse.contains(&key) {
                continue;
            }
            // The opponent's reply: the next record of the game, two plies on.
            let Some(next) = recs.iter().find(|n| n.game == r.game && n.ply == r.ply + 2) else {
                found.push(format!("{}:{} no next record", key.0, key.1));
                continue;
            };
            let reply = &next.moves[r.ply + 1];
            let (m1, m2) = (
                b.parse_cell(&r.played, Notation::Letters).expect("cell"),
                b.parse_cell(reply, Notation::Letters).expect("cell"),
            );
            let opp = r.to_move.opponent();
            if !root.empty_cells().contains(m1) || !root.empty_cells().contains(m2) {
                found.push(format!("{}:{} filled", key.0, key.1));
                continue;
            }
            for s in [&mut bs, &mut ws] {
                s.play_undoable(r.to_move, m1).expect("empty");
            }
            // After the player's move: the opponent, to move, with a winning VSC is a loss
            // for the player at that node already (the search's `judge`).
            let n_vsc = if opp == Colour::Black { &bs } else { &ws }
                .winning_vscs()
                .len();
            for s in [&mut bs, &mut ws] {
                s.play_undoable(opp, m2).expect("empty");
            }
            let upd = if opp == Colour::Black { &bs } else { &ws };
            let n_upd = upd.winning_vcs().len();
            let mut after = root.clone();
            after.play(r.to_move, m1).expect("empty");
            after.play(opp, m2).expect("empty");
            let t = Instant::now();
            let fresh = VcSet::build(&after, opp, params.clone());
            let ms = t.elapsed().as_secs_f64() * 1e3;
            found.push(format!(
                "{}:{} {} {}: after the move, opponent's winning VSCs {}; after the reply, its winning VCs updated {} fresh {} ({:.0} ms)",
                key.0,
                key.1,
                r.played,
                reply,
                n_vsc,
                n_upd,
                fresh.winning_vcs().len(),
                ms
            ));
        }
        println!(
            "seeds {} edge {}: {} root builds (both colours) mean {:.1} ms max {:.1} ms; {} updates (both colours, play+unplay) mean {:.2} ms",
            if lib { "library" } else { "hexwiki" },
            if edge == 0 { "none".to_string() } else { edge.to_string() },
            builds,
            build_us as f64 / builds.max(1) as f64 / 1e3,
            max_build as f64 / 1e3,
            upds,
            upd_us as f64 / upds.max(1) as f64 / 1e3
        );
        for f in &found {
            println!("  collapse {f}");
        }
    }
}
