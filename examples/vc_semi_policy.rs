//! The solver's connection build under several VSC storage policies on random positions
//! (issue 25, docs/journal/vc-session30.md): build time, stored VSCs and how often the build
//! decides the position (a winning VSC for the player to move or a winning VC for the
//! opponent). Usage: `cargo run --release --example vc_semi_policy -- BOARD OPENING COUNT
//! [STONES_MIN STONES_MAX [SEED]]`. Positions: the opening, then random legal moves
//! (alternating) until the stone count is reached, then the solver's fill-in.
use hexproof::board::{Board, Colour, Notation};
use hexproof::dfpn::inferior::{fill_in, InferiorRules};
use hexproof::position::Position;
use hexproof::vc::{Variant, VcParams, VcSet};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn params(policy: &str) -> VcParams {
    let mut p = VcParams::new(Variant::Fast);
    p.semi_limit = Some(16);
    p.full_or = false;
    p.capture_and = true;
    p.seeds = hexproof::templates::seeds::library_seeds().to_vec();
    p.budget = hexproof::vc::VcBudget {
        max_connections: 200_000,
        time: Some(std::time::Duration::from_secs(5)),
    };
    for part in policy.split('+') {
        match part {
            "16" => {}
            "none" => p.semi_limit = None,
            "edge" => p.edge_semi_limit = Some(usize::MAX),
            "small" => p.semi_keep_smallest = true,
            "cap" => p.capture_semis_unlimited = true,
            "grp" => {
                p.edge_semi_limit = Some(usize::MAX);
                p.edge_semi_limit_groups = true;
            }
            s if s.starts_with('L') => p.semi_limit = s[1..].parse().ok(),
            s if s.starts_with('E') => p.edge_semi_limit = s[1..].parse().ok(),
            s => panic!("policy part {s}"),
        }
    }
    p
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let b = Board::parse(&args[0]).expect("board");
    let opening = &args[1];
    let count: usize = args[2].parse().expect("count");
    let lo: usize = args.get(3).map_or(6, |s| s.parse().expect("min"));
    let hi: usize = args.get(4).map_or(14, |s| s.parse().expect("max"));
    let seed: u64 = args.get(5).map_or(1, |s| s.parse().expect("seed"));
    let policies: Vec<String> = std::env::var("POLICIES")
        .unwrap_or_else(|_| "16,none,edge,small,cap".into())
        .split(',')
        .map(String::from)
        .collect();
    if std::env::var("ICE").is_ok() {
        hexproof::ice::install(hexproof::trusted::ice::accepted_patterns(
            hexproof::ice::EMBEDDED,
        ));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut p = Position::from_moves(b, opening, Notation::Letters).expect("opening");
        let mut to_move = if opening.split_whitespace().count().is_multiple_of(2) {
            Colour::Black
        } else {
            Colour::White
        };
        let stones = rng.random_range(lo..=hi);
        let mut ok = true;
        while p.stones(Colour::Black).len() + p.stones(Colour::White).len() < stones {
            let empty: Vec<_> = p.empty_cells().into_iter().collect();
            let Some(&c) = empty.choose(&mut rng) else {
                ok = false;
                break;
            };
            p.play(to_move, c).expect("legal");
            to_move = to_move.opponent();
            if p.winner().is_some() {
                ok = false;
                break;
            }
        }
        if !ok {
            continue;
        }
        fill_in(&mut p, InferiorRules::ALL, to_move);
        if p.winner().is_some() {
            continue;
        }
        positions.push((p, to_move));
    }
    // Rounds over the policies in turn; the least time of each (a loaded machine).
    let rounds: usize = std::env::var("ROUNDS").map_or(3, |v| v.parse().expect("rounds"));
    let mut best = vec![u128::MAX; policies.len()];
    let mut semis = vec![0usize; policies.len()];
    let mut decided = vec![0usize; policies.len()];
    for _ in 0..rounds {
        for (k, pol) in policies.iter().enumerate() {
            let prm = params(pol);
            // One warm engine a colour, rebuilt for each position (as the solver does).
            let mut sets = [
                VcSet::new(Colour::Black, prm.clone()),
                VcSet::new(Colour::White, prm.clone()),
            ];
            let (mut micros, mut n, mut d) = (0u128, 0usize, 0usize);
            for (p, to_move) in &positions {
                let t = Instant::now();
                for v in sets.iter_mut() {
                    v.rebuild(p);
                }
                micros += t.elapsed().as_micros();
                let (own, opp) = if *to_move == Colour::Black {
                    (&sets[0], &sets[1])
                } else {
                    (&sets[1], &sets[0])
                };
                n += own.counts().vscs + opp.counts().vscs;
                if !own.winning_vscs().is_empty() || !opp.winning_vcs().is_empty() {
                    d += 1;
                }
            }
            best[k] = best[k].min(micros);
            semis[k] = n;
            decided[k] = d;
        }
    }
    for (k, pol) in policies.iter().enumerate() {
        println!(
            "{pol:>14}: {:8.1} ms  {:6.3} ms/position  VSCs {:8}  decided {}/{}",
            best[k] as f64 / 1e3,
            best[k] as f64 / 1e3 / positions.len() as f64,
            semis[k],
            decided[k],
            positions.len()
        );
    }
}
