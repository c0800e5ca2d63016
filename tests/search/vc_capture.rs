//! Connection strength on 8×8 after Black's g2 (issue 25, session 29): positions of the g2
//! solve tree that Benzene's `vc-build` decides at once and the solver's build did not
//! (docs/journal/solver-session28.md §1, docs/journal/vc-session29.md). The AND rule over the
//! cells an empty midpoint captures (`VcParams::capture_and`, `hexproof::vc::capture`) is
//! what was missing: Black's (c4, bottom) VC in `g2 e6 d5 e4 d4` needs b7's and d7's edge
//! bridges inside the carriers they are combined with.
//!
//! The winners of these positions are checked against the solver's own search (with the rule
//! switched off) and, for the connection, against the exact local search.

use hexproof::board::{Board, Border, Cell, CellSet, Colour, Notation};
use hexproof::dfpn::vc_eval::Eval;
use hexproof::dfpn::{make_search, solve, SolveParams, Winner};
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;
use hexproof::vc::{Kind, Variant, VcParams, VcSet};
use std::time::{Duration, Instant};

fn board() -> Board {
    Board::square(8).unwrap()
}

fn position(moves: &str) -> (Position, Colour) {
    let p = Position::from_moves(board(), moves, Notation::Letters).unwrap();
    let n = moves.split_whitespace().count();
    (
        p,
        if n.is_multiple_of(2) {
            Colour::Black
        } else {
            Colour::White
        },
    )
}

fn cells(s: &str) -> CellSet {
    board()
        .parse_cells(s, Notation::Letters)
        .unwrap()
        .into_iter()
        .collect()
}

/// The solver's evaluation of the filled position: its own build, as `hexproof solve` makes it.
fn solver_eval(moves: &str, params: &SolveParams) -> Eval {
    let (p, to_move) = position(moves);
    let mut d = make_search(params, params.order.order(), Instant::now());
    let root = d.filled(&p, to_move);
    d.eval.evaluate_hint(&root, to_move, false)
}

fn without_capture() -> SolveParams {
    SolveParams {
        vc_capture_and: false,
        ..SolveParams::default()
    }
}

/// The solver's connection settings (`SolveParams::vc_params`), budget aside.
fn solver_vc_params(capture: bool) -> VcParams {
    let mut p = VcParams::new(Variant::Fast);
    p.semi_limit = hexproof::dfpn::SOLVER_SEMI_LIMIT;
    p.full_or = false;
    p.seeds = hexproof::templates::seeds::library_seeds().to_vec();
    p.capture_and = capture;
    p
}

#[test]
fn c4_reaches_the_bottom_through_two_edge_bridges() {
    // `g2 e6 d5 e4 d4` as the solver searches it (g1 h1 filled: captured by g2).
    let p = Position::from_names(board(), "g2 d5 d4 g1 h1", "e6 e4", Notation::Letters).unwrap();
    let c4 = board().parse_cell("c4", Notation::Letters).unwrap();
    let bottom = Cell::border(Border::Bottom);
    // Benzene's carrier of the (c4, south) VC.
    let want = cells("b5 c5 b6 c6 d6 b7 c7 d7 a8 b8 c8 d8");
    let plain = VcSet::build(&p, Colour::Black, solver_vc_params(false));
    assert!(plain.vcs(c4, bottom).is_empty(), "found without the rule");
    let v = VcSet::build(&p, Colour::Black, solver_vc_params(true));
    assert!(v.vcs(c4, bottom).contains(&want), "{:?}", v.vcs(c4, bottom));
    // Its two VSCs through b7 and d7 (carriers meeting in a8 b8, c8 d8) are new too.
    for key in ["b7", "d7"] {
        let k = board().parse_cell(key, Notation::Letters).unwrap();
        assert!(
            v.vscs(c4, bottom).iter().any(|c| c.contains(k)),
            "no VSC through {key}"
        );
    }
    // The VC is true: the exact local search proves it.
    let c = hexproof::vc::Connection {
        kind: Kind::Vc,
        x: c4,
        y: bottom,
        carrier: want,
    };
    let game = v.sub_game(&c).unwrap();
    let budget = Budget {
        nodes: 20_000_000,
        time: Some(Duration::from_secs(60)),
        ..Budget::default()
    };
    assert_eq!(decide(&game, &budget).unwrap().verdict, Verdict::Holds);
}

#[test]
fn the_solvers_build_decides_these_positions_at_evaluation() {
    // (moves, the player to move wins by a winning VSC). Benzene's `vc-build` gives the
    // player to move a winning semi in each; main's solver searched 723 and 117 positions.
    for moves in ["g2 e6 d5 d3 c7", "g2 e6 d5 b8 c7 f2"] {
        assert!(
            matches!(solver_eval(moves, &SolveParams::default()), Eval::Win(_)),
            "{moves}: not decided"
        );
        assert!(
            matches!(solver_eval(moves, &without_capture()), Eval::Open { .. }),
            "{moves}: decided without the rule"
        );
    }
}

#[test]
fn blacks_winning_vcs_after_d4_and_c4() {
    // Benzene's build gives Black a winning VC at once in both (White to move); main's
    // solver needed 500 and 487 positions. Without a semi limit the rule finds the VC at the
    // evaluation; with the solver's limit the search is short.
    let unlimited = SolveParams {
        semi_limit: None,
        ..SolveParams::default()
    };
    let unlimited_plain = SolveParams {
        vc_capture_and: false,
        ..unlimited.clone()
    };
    for moves in ["g2 e6 d5 e4 d4", "g2 e6 d5 d3 c4"] {
        assert!(
            matches!(solver_eval(moves, &unlimited), Eval::Loss(_)),
            "{moves}: no winning VC"
        );
        assert!(
            matches!(solver_eval(moves, &unlimited_plain), Eval::Open { .. }),
            "{moves}: found without the rule"
        );
        let (p, to_move) = position(moves);
        let o = solve(&p, to_move, &SolveParams::default()).unwrap();
        assert_eq!(o.winner, Winner::Black, "{moves}");
        assert!(o.nodes <= 60, "{moves}: {} positions", o.nodes);
        let off = solve(&p, to_move, &without_capture()).unwrap();
        assert_eq!(off.winner, Winner::Black, "{moves}");
    }
}

#[test]
fn no_limit_on_edge_pairs_decides_d4_at_evaluation() {
    // Session 30 (docs/journal/vc-session30.md): the solver's default keeps every VSC of a
    // pair with a border endpoint (`SolveParams::edge_semi_limit`). Black's winning VC in
    // `g2 e6 d5 e4 d4` needs (top, b7)-side connections that a full list of 16 refused: the
    // default finds it at the evaluation, the uniform limit 16 (the rule before) does not.
    let moves = "g2 e6 d5 e4 d4";
    assert_eq!(
        SolveParams::default().edge_semi_limit,
        Some(usize::MAX),
        "the default"
    );
    assert!(
        matches!(solver_eval(moves, &SolveParams::default()), Eval::Loss(_)),
        "no winning VC with the default"
    );
    let uniform = SolveParams {
        edge_semi_limit: None,
        ..SolveParams::default()
    };
    assert!(
        matches!(solver_eval(moves, &uniform), Eval::Open { .. }),
        "found with the uniform limit"
    );
    // The same at the engine: the default stores more VSCs between Black's borders and cells
    // (and only there), and reaches the bottom from c4's side.
    let (p, to_move) = position(moves);
    let d = make_search(
        &SolveParams::default(),
        SolveParams::default().order.order(),
        Instant::now(),
    );
    let root = d.filled(&p, to_move);
    let mut edge = solver_vc_params(true);
    edge.edge_semi_limit = Some(usize::MAX);
    let e = VcSet::build(&root, Colour::Black, edge);
    let u = VcSet::build(&root, Colour::Black, solver_vc_params(true));
    assert!(!e.winning_vcs().is_empty() && u.winning_vcs().is_empty());
    assert!(e.counts().vscs > u.counts().vscs);
}
