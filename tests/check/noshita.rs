//! Noshita's 7x7 tree (`proofs/noshita-7x7.hexp`, issue 5): its shape, and two independent
//! cross-checks of its leaves, neither of which uses the proof.
//!
//! The first (normal suite) solves every leaf position, White to move, with the whole-board
//! solver (`hexproof::dfpn`): about 6 s for all 39 distinct leaves.
//!
//! The second decides every leaf position by the exact search with the carrier = every empty
//! cell, i.e. "Black wins this position".
//! On a loaded 2-core machine the whole-board search of one leaf takes minutes or more (the
//! leaf of case a was still undecided after 120 s, that of g.u after 420 s and 53 million
//! nodes), so that test is `#[ignore]`d:
//!
//! ```sh
//! cargo test --release --test noshita -- --ignored --nocapture
//! NOSHITA_LEAF_SECONDS=1800 cargo test --release --test noshita -- --ignored --nocapture
//! ```
//!
//! It fails on any leaf the search refutes (a bug in the proof or in the checker) and on any
//! leaf it leaves undecided (raise the budget); it prints one line per leaf.

use hexproof::board::{Border, Cell, Colour};
use hexproof::claim::{Claim, SubGame};
use hexproof::dsl::model::{BlockKind, TreeNode};
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;
use std::time::Duration;

const FILE: &str = "proofs/noshita-7x7.hexp";

/// Every leaf position of the tree, with the line of its leaf.
fn leaves() -> Vec<(usize, Position)> {
    let text = std::fs::read_to_string(FILE).expect("the proof file");
    let program = match hexproof::dsl::load_str(FILE, &text) {
        Ok(p) => p,
        Err(_) => panic!("{FILE} does not load"),
    };
    let module = program.modules.last().expect("a module");
    let tree = module
        .blocks
        .iter()
        .find(|b| b.kind == BlockKind::Strategy)
        .and_then(|b| b.tree.as_ref())
        .expect("a strategy");
    let mut out = Vec::new();
    walk(tree, &text, &mut out);
    out
}

fn walk(node: &TreeNode, text: &str, out: &mut Vec<(usize, Position)>) {
    match node {
        TreeNode::Black { next, .. } => walk(next, text, out),
        TreeNode::White { cases, .. } => {
            for c in cases {
                walk(&c.reply, text, out);
            }
        }
        TreeNode::Leaf { position, span, .. } => {
            let line = text[..span.start].matches('\n').count() + 1;
            out.push((line, position.clone()));
        }
        // Noshita's trees share no positions.
        TreeNode::Goto { .. } => {}
    }
}

/// Black's winning claim: `t - b` with White to move, on every empty cell.
fn wins(position: &Position, seconds: u64) -> Verdict {
    let claim = Claim {
        owner: Colour::Black,
        pairs: vec![(Cell::border(Border::Top), Cell::border(Border::Bottom))],
        owner_first: false,
    };
    let game = SubGame::new(position.clone(), position.empty_cells(), claim).expect("a claim");
    let budget = Budget {
        nodes: u64::MAX,
        time: Some(Duration::from_secs(seconds)),
        ..Budget::default()
    };
    decide(&game, &budget).expect("decide").verdict
}

#[test]
fn the_tree_has_the_papers_shape() {
    // Noshita's 20 leaves below a-g, once as in the paper and once turned by 180 degrees
    // (the upper-right twins he covers by "top-bottom symmetry"); a case naming two or three
    // White moves (`case 27 | 36 => ..`) gives one leaf position per move.
    let ls = leaves();
    assert_eq!(ls.len(), 2 * 20, "leaf positions");
    // Distinct, except for one transposition: g.u (W45 B35 W43 B53) and its twin (W43 B53
    // W45 B35) reach the same position, which is symmetric under the 180-degree turn.
    let mut same = Vec::new();
    for (i, (li, a)) in ls.iter().enumerate() {
        for (lj, b) in &ls[i + 1..] {
            if a.stones(Colour::Black) == b.stones(Colour::Black)
                && a.stones(Colour::White) == b.stones(Colour::White)
            {
                same.push((*li, *lj));
            }
        }
    }
    assert_eq!(same.len(), 1, "repeated leaf positions (lines): {same:?}");
    // Every leaf comes after Black's second or third move, with White to move.
    for (line, p) in &ls {
        let blacks = p.stones(Colour::Black).len();
        let whites = p.stones(Colour::White).len();
        assert!(
            (2..=3).contains(&blacks),
            "line {line}: {blacks} black stones"
        );
        assert_eq!(whites + 1, blacks, "line {line}: White to move");
    }
    // Noshita's 20 leaves per half: 5 after Black's second move (a-e), 15 after the third
    // (f.p-f.w, g.p-g.v).
    let second = ls
        .iter()
        .filter(|(_, p)| p.stones(Colour::Black).len() == 2)
        .count();
    assert_eq!(second, 2 * 5, "leaves after Black's second move");
}

#[test]
#[ignore = "whole-board searches: minutes per leaf; run with --ignored"]
fn every_leaf_is_won_by_a_whole_board_search() {
    let seconds: u64 = std::env::var("NOSHITA_LEAF_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(900);
    let mut bad = Vec::new();
    for (line, p) in leaves() {
        let t = std::time::Instant::now();
        let v = wins(&p, seconds);
        println!(
            "leaf at line {line}: {v:?} in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        if v != Verdict::Holds {
            bad.push(format!("line {line}: {v:?}"));
        }
    }
    assert!(bad.is_empty(), "leaves not confirmed: {bad:?}");
}

/// The cross-check by the whole-board solver (`hexproof solve`, DFPN over the VC engine's
/// connections): independent of the proof and of the checker. Every leaf position, White to
/// move, must come out as a win for Black.
fn leaves_by_solver(budget_seconds: u64) -> Vec<String> {
    use hexproof::dfpn::{solve, SolveParams, Winner};
    let mut bad = Vec::new();
    let mut seen: Vec<Position> = Vec::new();
    for (line, p) in leaves() {
        // g.u and its twin reach the same position (the shape test pins this): solve it once.
        if seen.iter().any(|q| {
            q.stones(Colour::Black) == p.stones(Colour::Black)
                && q.stones(Colour::White) == p.stones(Colour::White)
        }) {
            continue;
        }
        seen.push(p.clone());
        let params = SolveParams {
            time: Some(Duration::from_secs(budget_seconds)),
            ..SolveParams::default()
        };
        let t = std::time::Instant::now();
        let out = solve(&p, Colour::White, &params).expect("a legal leaf position");
        println!(
            "leaf at line {line}: {:?}, {} nodes, {:.1} s",
            out.winner,
            out.nodes,
            t.elapsed().as_secs_f64()
        );
        if out.winner != Winner::Black {
            bad.push(format!("line {line}: {:?}", out.winner));
        }
    }
    bad
}

#[test]
fn every_leaf_is_won_according_to_the_solver() {
    let bad = leaves_by_solver(120);
    assert!(
        bad.is_empty(),
        "leaves not confirmed by the solver: {bad:?}"
    );
}
