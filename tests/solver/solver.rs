//! The whole-board solver: winners against published tables and the exact search, emitted
//! proofs accepted by the checker, bad input.
//!
//! Slow extras are `#[ignore]`d: run them with
//! `cargo test --release --test solver -- --ignored` (all 36 6×6 openings, all 49 7×7
//! openings, the emitted 6×6 centre proof).

use hexproof::board::{Board, Cell, Colour, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::dfpn::{self, SolveParams, Winner};
use hexproof::local::{self, Budget, Verdict};
use hexproof::position::Position;

use crate::rng;

const TABLES: &str = include_str!("../fixtures/solver/solved-openings-6x6-7x7.md");

/// The published winner table of an n×n board: `table[row][col]` = Black wins.
fn table(n: usize) -> Vec<Vec<bool>> {
    let header = format!("## {n}×{n}");
    let start = TABLES.find(&header).expect("table present");
    let rest = &TABLES[start..];
    let grid = rest.split("```").nth(1).expect("grid block");
    let rows: Vec<Vec<bool>> = grid
        .lines()
        .filter_map(|l| {
            let t = l.trim();
            let (num, cells) = t.split_once(' ')?;
            num.parse::<usize>().ok()?;
            Some(
                cells
                    .split_whitespace()
                    .map(|c| c == "B")
                    .collect::<Vec<bool>>(),
            )
        })
        .collect();
    assert_eq!(rows.len(), n, "{n}x{n} table rows");
    assert!(rows.iter().all(|r| r.len() == n));
    rows
}

fn opening(n: u32, col: u8, row: u8) -> Position {
    let mut p = Position::empty(Board::square(n).unwrap());
    p.play(Colour::Black, Cell::at(col, row)).unwrap();
    p
}

fn solve_opening(n: u32, col: u8, row: u8, params: &SolveParams) -> Winner {
    let p = opening(n, col, row);
    let o = dfpn::solve(&p, Colour::White, params).unwrap();
    // Whoever wins, a winning move is reported when the player to move wins.
    if o.winner == Winner::White {
        let m = o.winning_move.expect("a winning move");
        assert!(p.empty_cells().contains(m));
    }
    o.winner
}

fn check_table(n: u32, cells: &[(u8, u8)]) {
    check_table_with(n, cells, &SolveParams::default());
}

fn check_table_with(n: u32, cells: &[(u8, u8)], params: &SolveParams) {
    let t = table(n as usize);
    for &(c, r) in cells {
        let want = if t[r as usize][c as usize] {
            Winner::Black
        } else {
            Winner::White
        };
        let got = solve_opening(n, c, r, params);
        assert_eq!(got, want, "{n}x{n} opening {:?}", Cell::at(c, r));
    }
}

fn all_cells(n: u8) -> Vec<(u8, u8)> {
    (0..n).flat_map(|r| (0..n).map(move |c| (c, r))).collect()
}

/// The exact search's verdict on the whole board: does Black win with `to_move` to play?
fn exact_black_wins(p: &Position, to_move: Colour) -> bool {
    let game = SubGame::new(
        p.clone(),
        p.empty_cells(),
        Claim {
            owner: Colour::Black,
            pairs: vec![(
                Cell::border(hexproof::board::Border::Top),
                Cell::border(hexproof::board::Border::Bottom),
            )],
            owner_first: to_move == Colour::Black,
        },
    )
    .unwrap();
    let out = local::decide(&game, &Budget::nodes(50_000_000)).unwrap();
    assert_ne!(out.verdict, Verdict::Undecided);
    out.verdict == Verdict::Holds
}

/// `stones` stones played alternately (Black first) on random empty cells of an n×n board.
fn random_position(rng: &mut rng::Rng, n: u32, stones: usize) -> Position {
    let mut p = Position::empty(Board::square(n).unwrap());
    let mut colour = Colour::Black;
    for _ in 0..stones {
        let empty: Vec<Cell> = p.empty_cells().iter().collect();
        let c = empty[rng.below(empty.len() as u64) as usize];
        p.play(colour, c).unwrap();
        colour = colour.opponent();
    }
    p
}

fn random_side(rng: &mut rng::Rng) -> Colour {
    if rng.below(2) == 0 {
        Colour::Black
    } else {
        Colour::White
    }
}

/// Vulnerable-cell pruning with proof sets and without capture domination (their lost nodes
/// keep proof sets), and the decompositions alone.
fn vulnerable_and_decompose_only() -> (SolveParams, SolveParams) {
    let mut vul_only = SolveParams::default();
    vul_only.features.dominated = false;
    vul_only.features.decompose = false;
    let mut dec_only = SolveParams::default();
    dec_only.features.dominated = false;
    dec_only.features.vulnerable = false;
    (vul_only, dec_only)
}

/// Solves `p` and checks the verdict against the exact search's (`exact`: Black wins).
fn solve_agreeing(
    p: &Position,
    to_move: Colour,
    params: &SolveParams,
    exact: bool,
) -> dfpn::SolveOutcome {
    let o = dfpn::solve(p, to_move, params).unwrap();
    assert_ne!(o.winner, Winner::Undecided, "{p:?}");
    assert_eq!(
        o.winner == Winner::Black,
        exact,
        "{p:?} {to_move} {:?}",
        params.features
    );
    o
}

/// [`solve_agreeing`] with and without the AND over captured cells (session 29): with it the
/// connections decide most small positions, so the pruning a test exercises fires mostly
/// without it; both answers are checked.
fn solve_agreeing_both(
    p: &Position,
    to_move: Colour,
    params: &SolveParams,
    exact: bool,
) -> [dfpn::SolveOutcome; 2] {
    [true, false].map(|capture| {
        let params = SolveParams {
            vc_capture_and: capture,
            ..params.clone()
        };
        solve_agreeing(p, to_move, &params, exact)
    })
}

#[test]
fn small_boards_agree_with_the_exact_search() {
    let params = SolveParams::default();
    for n in 3..=5u32 {
        let b = Board::square(n).unwrap();
        // The empty board, Black to move, and every one-stone opening, White to move.
        let mut cases = vec![(Position::empty(b), Colour::Black)];
        // (5x5: every other opening, to keep the test fast.)
        let step = if n == 5 { 2 } else { 1 };
        for (c, r) in all_cells(n as u8).into_iter().step_by(step) {
            cases.push((opening(n, c, r), Colour::White));
        }
        // Some two-stone positions too (Black to move).
        for (c, r) in all_cells(n as u8).into_iter().step_by(3) {
            let mut p = opening(n, c, r);
            let w = Cell::at((n as u8 - 1) - c, (n as u8 - 1) - r);
            if p.play(Colour::White, w).is_ok() {
                cases.push((p, Colour::Black));
            }
        }
        for (p, to_move) in cases {
            let o = dfpn::solve(&p, to_move, &params).unwrap();
            assert_ne!(o.winner, Winner::Undecided, "{p:?}");
            let exact = exact_black_wins(&p, to_move);
            assert_eq!(o.winner == Winner::Black, exact, "{n}x{n} {p:?} {to_move}");
        }
    }
}

/// Random mid-game positions on 4×4 and 5×5 (2 to 7 stones, either player to move): the
/// solver with every pruning on, and with capture-domination pruning off and on its own
/// (with proof sets off, which it interacts with), with incremental connection updates, and
/// with vulnerable-cell pruning or decompositions on their own, agrees with the exact search.
#[test]
fn random_positions_agree_with_the_exact_search() {
    let mut rng = rng::Rng(0x5eed_7001);
    let full = SolveParams::default();
    let mut no_dom = SolveParams::default();
    no_dom.features.dominated = false;
    let mut dom_only = SolveParams::default();
    dom_only.features.proof_sets = false;
    // Connections updated along the search path with undo, one stone per update and up to
    // eight (the rest rebuilt without losing the path).
    let incremental = |stones: usize| {
        let mut p = SolveParams::default();
        p.features.incremental = true;
        p.update_stones = stones;
        p
    };
    let (incr1, incr8) = (incremental(1), incremental(8));
    let (vul_only, dec_only) = vulnerable_and_decompose_only();
    // Proof-set reduction off, and children searched before their siblings are evaluated
    // (a larger initial disproof number).
    let mut no_reduction = SolveParams::default();
    no_reduction.features.reduction = false;
    let deep = SolveParams {
        child_dn: 8,
        ..SolveParams::default()
    };
    // Every node evaluated with both win tests (the default skips the mover's at most
    // children and makes it at expansion).
    let mut own_tested = SolveParams::default();
    own_tested.features.skip_own_wins = false;
    // Weak disproof numbers (max + open children − 1 instead of the sum).
    let mut weak = SolveParams::default();
    weak.features.weak_dn = true;
    let mut checked = 0;
    let mut own_skipped = 0;
    let mut own_tests = 0;
    let mut dominated_pruned = 0;
    let mut updates = 0;
    let mut vulnerable_pruned = 0;
    let mut region_filled = 0;
    while checked < 60 {
        let n = 4 + (checked % 2) as u32;
        let stones = 2 + rng.below(6) as usize;
        let p = random_position(&mut rng, n, stones);
        if p.winner().is_some() {
            continue;
        }
        let to_move = random_side(&mut rng);
        let exact = exact_black_wins(&p, to_move);
        for params in [
            &full,
            &no_dom,
            &dom_only,
            &incr1,
            &incr8,
            &vul_only,
            &dec_only,
            &no_reduction,
            &deep,
            &own_tested,
            &weak,
        ] {
            for o in solve_agreeing_both(&p, to_move, params, exact) {
                own_skipped += o.profile.own_builds_skipped;
                own_tests += o.profile.own_tests_at_expansion;
                dominated_pruned += o.profile.dominated_pruned;
                vulnerable_pruned += o.profile.vulnerable_pruned;
                region_filled += o.profile.region_filled;
                updates += o.profile.vc_updates;
            }
        }
        checked += 1;
    }
    // The pruning and the updates under test were exercised.
    assert!(own_skipped > 0 && own_tests > 0);
    assert!(dominated_pruned > 0);
    assert!(updates > 0);
    let _ = (vulnerable_pruned, region_filled);
}

/// A random position on an n×n board that is its own colour-swapped image under the
/// long-diagonal reflection (`diagonal`) or that reflection after the 180° rotation: `pairs`
/// Black stones off the symmetry's fixed cells and their images as White stones.
fn symmetric_position(rng: &mut rng::Rng, n: u8, pairs: usize, diagonal: bool) -> Position {
    let image = |c: Cell| {
        let (x, y) = c.coords();
        if diagonal {
            Cell::at(y, x)
        } else {
            Cell::at(n - 1 - y, n - 1 - x)
        }
    };
    let mut p = Position::empty(Board::square(n as u32).unwrap());
    for _ in 0..pairs {
        let free: Vec<Cell> = p
            .empty_cells()
            .iter()
            .filter(|&c| image(c) != c && p.empty_cells().contains(image(c)))
            .collect();
        if free.is_empty() {
            break;
        }
        let c = free[rng.below(free.len() as u64) as usize];
        p.play(Colour::Black, c).unwrap();
        p.play(Colour::White, image(c)).unwrap();
    }
    p
}

/// Strategy stealing (issue 25, session 23): random 3×3–5×5 positions that are their own
/// colour-swapped mirror image are recognised by `dfpn::mid::stolen` and are won by the
/// player to move, whichever it is, by the exact search — the theorem the solver's pruning
/// rests on. A position one stone off such a mirror image is not recognised.
#[test]
fn strategy_stealing_positions_are_won_by_the_player_to_move() {
    let mut rng = rng::Rng(0x5eed_7023);
    let mut checked = 0;
    while checked < 40 {
        let n = 3 + (checked % 3) as u8;
        let pairs = 1 + rng.below(if n == 3 { 2 } else { 4 }) as usize;
        let diagonal = rng.below(2) == 0;
        let p = symmetric_position(&mut rng, n, pairs, diagonal);
        if p.winner().is_some() || p.empty_cells().is_empty() {
            continue;
        }
        assert!(dfpn::mid::stolen(&p), "{p:?}");
        for to_move in [Colour::Black, Colour::White] {
            let exact = exact_black_wins(&p, to_move);
            assert_eq!(exact, to_move == Colour::Black, "{p:?} {to_move}");
        }
        // One stone more for Black: the stone counts differ, no longer a mirror image.
        let mut q = p.clone();
        q.play(Colour::Black, p.empty_cells().first().unwrap())
            .unwrap();
        assert!(!dfpn::mid::stolen(&q), "{q:?}");
        checked += 1;
    }
}

/// Session 23's search changes against the exact search: lost nodes that keep their union
/// proof set when capture domination pruned moves outside a refuted child's set, and
/// children refuted by strategy stealing, each on and off, on random 4×4/5×5 positions one
/// stone off a colour-swapped mirror image (the player to move can restore it) and on plain
/// random positions (fixed seed). Both were exercised.
#[test]
fn dominated_proofs_and_strategy_stealing_agree_with_the_exact_search() {
    let mut rng = rng::Rng(0x5eed_7123);
    let full = SolveParams::default();
    let mut no_steal = SolveParams::default();
    no_steal.features.strategy_stealing = false;
    let mut no_dom_proofs = SolveParams::default();
    no_dom_proofs.features.dominated_proofs = false;
    let mut neither = no_dom_proofs.clone();
    neither.features.strategy_stealing = false;
    let mut no_reduction = SolveParams::default();
    no_reduction.features.reduction = false;
    let (mut checked, mut stolen, mut kept) = (0, 0, 0);
    while checked < 48 {
        let n = 4 + (checked % 2) as u8;
        let (p, to_move) = if checked % 3 == 2 {
            let stones = 2 + rng.below(6) as usize;
            (
                random_position(&mut rng, n as u32, stones),
                random_side(&mut rng),
            )
        } else {
            // A mirror image with one stone of X taken back: X to move.
            let pairs = 1 + rng.below(3) as usize;
            let diagonal = rng.below(2) == 0;
            let mut p = symmetric_position(&mut rng, n, pairs, diagonal);
            let x = random_side(&mut rng);
            let stones: Vec<Cell> = p.stones(x).iter().collect();
            if stones.is_empty() {
                continue;
            }
            let drop = stones[rng.below(stones.len() as u64) as usize];
            let mut q = Position::empty(*p.board());
            for c in p.stones(Colour::Black).iter() {
                if !(x == Colour::Black && c == drop) {
                    q.play(Colour::Black, c).unwrap();
                }
            }
            for c in p.stones(Colour::White).iter() {
                if !(x == Colour::White && c == drop) {
                    q.play(Colour::White, c).unwrap();
                }
            }
            p = q;
            (p, x)
        };
        if p.winner().is_some() {
            continue;
        }
        let exact = exact_black_wins(&p, to_move);
        for params in [&full, &no_steal, &no_dom_proofs, &neither, &no_reduction] {
            let o = solve_agreeing(&p, to_move, params, exact);
            stolen += o.profile.stolen;
            kept += o.profile.dominated_proofs_kept;
        }
        checked += 1;
    }
    assert!(stolen > 0, "no child refuted by strategy stealing");
    assert!(kept > 0, "no lost node kept its proof set past domination");
}

/// The move order by the current through each cell (issue 25, session 24): after 7×7 b4 f2
/// (Black to move, no mustplay: 39 moves after fill-in and vulnerable pruning) Black's winning move c5 (White's mustplay after it
/// is c4 and c7) is 14th by circuit energy, outside the widening window, so the search
/// refutes harder moves first (728 nodes); by current it is 5th and the position is solved
/// in 17 nodes (Benzene's DFPN: 4 connection builds, c5 first). Pinned as a budget the
/// energy order exceeds.
#[test]
fn current_order_solves_b4_f2_where_the_energy_order_needs_many_more_nodes() {
    let b = Board::square(7).unwrap();
    let p = Position::from_names(b, "b4", "f2", Notation::Letters).unwrap();
    let quick = SolveParams {
        nodes: 100,
        ..SolveParams::default()
    };
    let o = dfpn::solve(&p, Colour::Black, &quick).unwrap();
    assert_eq!(o.winner, Winner::Black, "{} nodes", o.nodes);
    let m = o.winning_move.expect("a winning move");
    let mut q = p.clone();
    q.play(Colour::Black, m).unwrap();
    let after = dfpn::solve(&q, Colour::White, &SolveParams::default()).unwrap();
    assert_eq!(after.winner, Winner::Black, "{m:?} wins");
    let energy = SolveParams {
        order: dfpn::Ordering::Connections,
        ..quick.clone()
    };
    let o = dfpn::solve(&p, Colour::Black, &energy).unwrap();
    assert_eq!(o.winner, Winner::Undecided, "{} nodes", o.nodes);
}

/// The search order (issue 25, session 21): the default (children ordered by the circuits
/// of the node's own connections, kept from its evaluation, and progressive widening) and
/// each of them alone, against the exact search on random sparse 4×4 and 5×5 positions
/// (1 to 5 stones, either player to move), with one thread and with two on one tree (the
/// virtual picks look inside the widening window). Ordering and widening change which node
/// is searched next, never a value; this checks that nothing else depends on them. Also
/// Benzene's conductances (`VcLinks::Overlap`) with sticky selection and ε = 0.5.
#[test]
fn connection_ordering_and_widening_agree_with_the_exact_search() {
    let mut rng = rng::Rng(0x5eed_7021);
    let full = SolveParams::default();
    assert_eq!(full.order, dfpn::Ordering::Flow);
    assert!(full.widening.is_some());
    // The energy score of the same circuits (the default before session 24), and soft
    // widening.
    let energy = SolveParams {
        order: dfpn::Ordering::Connections,
        ..SolveParams::default()
    };
    let soft = SolveParams {
        widening_step: 2,
        ..SolveParams::default()
    };
    let no_widening = SolveParams {
        widening: None,
        ..SolveParams::default()
    };
    let resistance_widening = SolveParams {
        order: dfpn::Ordering::Resistance,
        ..SolveParams::default()
    };
    let wide = SolveParams {
        widening: Some((dfpn::WIDENING_BASE, 0.1)),
        ..SolveParams::default()
    };
    let threads = SolveParams {
        threads: 2,
        ..SolveParams::default()
    };
    // Benzene's conductances in the ordering circuits, and its sticky selection (session 25).
    let overlap = SolveParams {
        conductance: hexproof::eval::VcLinks::Overlap,
        sticky: true,
        epsilon: 0.5,
        ..SolveParams::default()
    };
    // An evaluated position's disproof number from its children's count, with its children
    // kept between expansions (session 27), and the vulnerable-only count.
    let children_dn = SolveParams {
        eval_dn: dfpn::mid::EvalDn::Children,
        keep_children: true,
        ..SolveParams::default()
    };
    let vulnerable_dn = SolveParams {
        eval_dn: dfpn::mid::EvalDn::Vulnerable,
        ..SolveParams::default()
    };
    // "Threats first", every threat move and the best two (session 32).
    let threats = SolveParams {
        threat_order: 1,
        ..SolveParams::default()
    };
    let threats3 = SolveParams {
        threat_order: 3,
        ..SolveParams::default()
    };
    // A larger ε within two plies of the root (session 33), for every child there.
    let top_epsilon = SolveParams {
        top_epsilon: Some((2.0, 2)),
        top_first: false,
        ..SolveParams::default()
    };
    // The rule off (the default before session 34: ε 0.25 everywhere).
    let top_off = SolveParams {
        top_epsilon: None,
        top_first: false,
        ..SolveParams::default()
    };
    let top_first = SolveParams {
        top_epsilon: Some((3.0, 3)),
        top_first: true,
        ..SolveParams::default()
    };
    let mut checked = 0;
    while checked < 24 {
        let n = 4 + (checked % 2) as u32;
        let stones = 1 + rng.below(5) as usize;
        let p = random_position(&mut rng, n, stones);
        if p.winner().is_some() {
            continue;
        }
        let to_move = random_side(&mut rng);
        let exact = exact_black_wins(&p, to_move);
        for params in [
            &full,
            &energy,
            &soft,
            &no_widening,
            &resistance_widening,
            &wide,
            &threads,
            &overlap,
            &children_dn,
            &vulnerable_dn,
            &threats,
            &threats3,
            &top_epsilon,
            &top_first,
            &top_off,
        ] {
            let o = solve_agreeing(&p, to_move, params, exact);
            if (o.winner == Winner::Black) == (to_move == Colour::Black) {
                // A reported winning move wins.
                let m = o.winning_move.expect("a winning move");
                let mut q = p.clone();
                q.play(to_move, m).unwrap();
                assert_eq!(
                    exact_black_wins(&q, to_move.opponent()),
                    exact,
                    "{p:?} {m:?}"
                );
            }
        }
        checked += 1;
    }
}

/// The circuits kept from an open position's evaluation ([`dfpn::vc_eval::Evaluator`]'s
/// `keep_circuits`) give the scores of circuits built afresh at expansion (up to the
/// rounding of the kept values), with fewer connection builds.
#[test]
fn kept_circuits_order_as_fresh_builds() {
    use hexproof::dfpn::vc_eval::{Eval, Evaluator};
    use hexproof::vc::{Variant, VcParams};
    let mut rng = rng::Rng(0x5eed_7022);
    let mut kept = Evaluator::new(VcParams::new(Variant::Fast), true, true);
    kept.keep_circuits = true;
    let mut opened = Vec::new();
    while opened.len() < 12 {
        let stones = 1 + rng.below(6) as usize;
        let p = random_position(&mut rng, 7, stones);
        if p.winner().is_some() {
            continue;
        }
        let to_move = random_side(&mut rng);
        if let Eval::Open { moves, .. } = kept.evaluate(&p, to_move) {
            opened.push((p, moves));
        }
    }
    let builds = kept.stats.builds;
    // The same positions with the circuits solved at evaluation instead of at the first
    // expansion (`lazy_circuits` off): the same circuits, so exactly the same scores.
    let mut eager = Evaluator::new(VcParams::new(Variant::Fast), true, true);
    eager.keep_circuits = true;
    eager.lazy_circuits = false;
    for (p, _) in &opened {
        let to_move = if p.stones(Colour::Black).len() > p.stones(Colour::White).len() {
            Colour::White
        } else {
            Colour::Black
        };
        let _ = (
            eager.evaluate(p, to_move),
            eager.evaluate(p, to_move.opponent()),
        );
    }
    let mut compared = 0;
    for (p, moves) in &opened {
        let mut a = Vec::new();
        kept.connection_scores(p, *moves, &mut a);
        let mut e = Vec::new();
        eager.connection_scores(p, *moves, &mut e);
        assert_eq!(a, e, "{p:?}: lazy and eager kept circuits differ");
        let mut fresh = Evaluator::new(VcParams::new(Variant::Fast), true, true);
        let mut b = Vec::new();
        fresh.connection_scores(p, *moves, &mut b);
        assert_eq!(a.len(), b.len());
        for ((sa, ca), (sb, cb)) in a.iter().zip(&b) {
            assert_eq!(ca, cb);
            assert!((sa - sb).abs() <= 2, "{p:?} {ca:?}: {sa} vs {sb}");
            compared += 1;
        }
    }
    assert!(compared > 50);
    // Every position's circuits were kept at its evaluation: no build at "expansion".
    assert_eq!(kept.stats.builds, builds);
}

/// Sparser random 5×5 positions (1 to 4 stones), where the search expands nodes: every
/// pruning on, vulnerable-cell pruning alone (with proof sets, without capture domination),
/// and the decompositions alone agree with the exact search, and the new rules fire.
#[test]
fn vulnerable_and_decompositions_agree_with_the_exact_search() {
    let mut rng = rng::Rng(0x5eed_7005);
    let full = SolveParams::default();
    let (vul_only, dec_only) = vulnerable_and_decompose_only();
    let (mut vulnerable, mut regions, mut splits) = (0, 0, 0);
    let mut checked = 0;
    while checked < 16 {
        let stones = 1 + rng.below(4) as usize;
        let p = random_position(&mut rng, 5, stones);
        let to_move = random_side(&mut rng);
        let exact = exact_black_wins(&p, to_move);
        for params in [&full, &vul_only, &dec_only] {
            for o in solve_agreeing_both(&p, to_move, params, exact) {
                vulnerable += o.profile.vulnerable_pruned;
                regions += o.profile.region_filled;
                splits += o.profile.splits;
            }
        }
        checked += 1;
    }
    eprintln!("vulnerable {vulnerable} regions {regions} splits {splits}");
    assert!(vulnerable > 0, "vulnerable pruning never fired");
    assert!(regions + splits > 0, "no decomposition was used");
}

/// One table of solved positions and evaluations shared by many searches (as `--openings
/// all` shares it across openings and threads): random sparse 5×5 positions, each followed by
/// its children, all agree with the exact search, and later searches do use what earlier
/// ones stored.
#[test]
fn searches_sharing_solved_positions_agree_with_the_exact_search() {
    let mut rng = rng::Rng(0x5eed_7007);
    let shared = std::sync::Arc::new(dfpn::shared::SharedSolved::default());
    let params = SolveParams {
        shared: Some(shared.clone()),
        ..SolveParams::default()
    };
    let (mut hits, mut evals, mut checked) = (0, 0, 0);
    for _ in 0..5 {
        let stones = 1 + rng.below(3) as usize;
        let p = random_position(&mut rng, 5, stones);
        let to_move = random_side(&mut rng);
        let mut positions = vec![(p.clone(), to_move)];
        let empty: Vec<Cell> = p.empty_cells().iter().collect();
        for _ in 0..3 {
            let mut q = p.clone();
            q.play(to_move, empty[rng.below(empty.len() as u64) as usize])
                .unwrap();
            positions.push((q, to_move.opponent()));
        }
        // A search of the position cut short leaves open evaluations in the table.
        let short = SolveParams {
            nodes: 4,
            ..params.clone()
        };
        if p.winner().is_none() {
            let o = dfpn::solve(&p, to_move, &short).unwrap();
            if o.winner != Winner::Undecided {
                assert_eq!(o.winner == Winner::Black, exact_black_wins(&p, to_move));
            }
        }
        // The children first, then the position itself, then again its first child.
        positions.rotate_left(1);
        positions.push(positions[0].clone());
        for (q, side) in &positions {
            if q.winner().is_some() {
                continue;
            }
            let exact = exact_black_wins(q, *side);
            let o = solve_agreeing(q, *side, &params, exact);
            hits += o.profile.shared_hits;
            evals += o.profile.shared_evals;
            checked += 1;
        }
    }
    eprintln!("{checked} positions, shared: {hits} solved, {evals} evaluations");
    assert!(hits > 0, "no solved position came from the shared table");
    assert!(evals > 0, "no evaluation came from the shared table");
    assert!(!shared.is_empty());
}

/// Weak disproof numbers (`Features::weak_dn`): the published winners of a few 6×6 openings,
/// and a different search (node count) than the default sum on some (since the library
/// seeds, a2 is decided in so few nodes that both searches coincide; since the current order
/// of session 24, f1 too: c3 is searched instead of a2), so the option reaches the search.
#[test]
fn weak_disproof_numbers_match_published_winners_with_another_search() {
    let t = table(6);
    // Without the AND over captured cells (session 29) and with the uniform semi limit
    // (session 30's edge-pair rule off): with them the connections decide these openings in
    // so few nodes that the two searches coincide.
    let sum = SolveParams {
        vc_capture_and: false,
        edge_semi_limit: None,
        ..SolveParams::default()
    };
    let mut weak = sum.clone();
    weak.features.weak_dn = true;
    let mut differ = 0;
    for (col, row) in [(2u8, 2u8), (5, 0), (4, 2)] {
        let p = opening(6, col, row);
        let w = dfpn::solve(&p, Colour::White, &weak).unwrap();
        let s = dfpn::solve(&p, Colour::White, &sum).unwrap();
        let black = t[row as usize][col as usize];
        assert_eq!(w.winner == Winner::Black, black, "{col},{row}");
        assert_eq!(s.winner, w.winner, "{col},{row}");
        differ += usize::from(w.nodes != s.nodes);
    }
    assert!(
        differ >= 2,
        "weak and sum searched alike on {} of 3",
        3 - differ
    );
}

#[test]
fn six_by_six_sample_matches_published_winners() {
    // Corner, edge and centre openings, both winners.
    check_table(6, &[(5, 0), (2, 2), (1, 5)]);
}

#[test]
#[ignore = "slow: about 1-2 min on 2 cores"]
fn six_by_six_all_openings_match_published_winners() {
    check_table(6, &all_cells(6));
}

/// Two threads on one tree ([`dfpn::parallel`]).
fn two_threads() -> SolveParams {
    SolveParams {
        threads: 2,
        ..SolveParams::default()
    }
}

#[test]
fn six_by_six_sample_with_two_threads_on_one_tree_matches_published_winners() {
    // The sample above, and the openings next to White's edges (the longer 6×6 searches).
    check_table_with(
        6,
        &[(5, 0), (2, 2), (1, 5), (0, 1), (0, 2), (1, 3)],
        &two_threads(),
    );
}

#[test]
#[ignore = "slow: about 1-2 min on 2 cores"]
fn six_by_six_all_openings_with_two_threads_on_one_tree_match_published_winners() {
    check_table_with(6, &all_cells(6), &two_threads());
}

/// A plain minimax over every empty cell, from the rules alone (few empty cells only): does
/// `to_move` win?
fn minimax_wins(p: &Position, to_move: Colour) -> bool {
    if let Some(w) = p.winner() {
        return w == to_move;
    }
    p.empty_cells().iter().any(|c| {
        let mut q = p.clone();
        q.play(to_move, c).unwrap();
        !minimax_wins(&q, to_move.opponent())
    })
}

/// Threads on one tree against the exact search (and, with at most 9 empty cells, a plain
/// minimax): random 3×3 to 5×5 positions with 1 to 8 stones, either player to move, from a
/// fixed proptest seed (`PROPTEST_RNG_SEED=<n>` tries another). Two and three threads, with
/// every pruning on and with proof sets off; the winner must match and, when the player to
/// move wins, the reported move must win.
#[test]
fn threads_on_one_tree_agree_with_the_exact_search() {
    use proptest::prelude::*;
    let mut config = ProptestConfig {
        cases: 40,
        ..ProptestConfig::default()
    };
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(0x5450_4446_504e);
        // "TPDFPN"
    }
    let three = SolveParams {
        threads: 3,
        ..SolveParams::default()
    };
    let mut no_sets = two_threads();
    no_sets.features.proof_sets = false;
    let virtual_picks = std::sync::atomic::AtomicU64::new(0);
    let expanded = std::sync::atomic::AtomicU64::new(0);
    proptest!(config, |(
        n in 3u32..=5,
        stones in 1usize..=8,
        order in Just((0..25usize).collect::<Vec<_>>()).prop_shuffle(),
        black_to_move in any::<bool>(),
    )| {
        let board = Board::square(n).unwrap();
        let mut p = Position::empty(board);
        let mut colour = Colour::Black;
        for &i in order.iter().filter(|&&i| i < (n * n) as usize).take(stones) {
            p.play(colour, Cell::at((i % n as usize) as u8, (i / n as usize) as u8)).unwrap();
            colour = colour.opponent();
        }
        prop_assume!(p.winner().is_none());
        let to_move = if black_to_move { Colour::Black } else { Colour::White };
        let exact = exact_black_wins(&p, to_move);
        if p.empty_cells().len() <= 9 {
            prop_assert_eq!(minimax_wins(&p, to_move), exact == (to_move == Colour::Black));
        }
        for params in [&two_threads(), &three, &no_sets] {
            let o = solve_agreeing(&p, to_move, params, exact);
            if let Some(m) = o.winning_move {
                let mut q = p.clone();
                q.play(to_move, m).unwrap();
                let after = exact_black_wins(&q, to_move.opponent());
                prop_assert_eq!(after, to_move == Colour::Black, "{:?} {:?}", p, m);
            }
            virtual_picks.fetch_add(o.profile.virtual_picks, std::sync::atomic::Ordering::Relaxed);
            expanded.fetch_add(o.profile.expansions, std::sync::atomic::Ordering::Relaxed);
        }
    });
    let (v, e) = (virtual_picks.into_inner(), expanded.into_inner());
    eprintln!("threads on one tree: {e} expansions, {v} virtual picks");
    assert!(e > 0, "no search was exercised");
}

/// Threads on one tree on a position where they do diverge (7×7, d4 answered by e3):
/// the published winner, and some children chosen by the virtual numbers.
#[test]
fn threads_on_one_tree_diverge_and_solve_a_seven_by_seven_position() {
    let b = Board::square(7).unwrap();
    let p = Position::from_names(b, "d4", "e3", Notation::Letters).unwrap();
    let o = dfpn::solve(&p, Colour::Black, &two_threads()).unwrap();
    assert_eq!(o.winner, Winner::Black);
    let m = o.winning_move.expect("a winning move");
    assert!(p.empty_cells().contains(m));
    eprintln!(
        "d4 e3, 2 threads: {} nodes, {} virtual picks, {} shared evaluations",
        o.nodes, o.profile.virtual_picks, o.profile.shared_evals
    );
}

/// Budgets hold with threads on one tree: the node budget counts every thread's nodes (at
/// most one node over per thread), and a time budget ends the search undecided.
#[test]
fn threads_on_one_tree_keep_the_budgets() {
    let p = opening(7, 3, 3);
    for threads in [2, 4] {
        let params = SolveParams {
            nodes: 3,
            threads,
            ..SolveParams::default()
        };
        let o = dfpn::solve(&p, Colour::White, &params).unwrap();
        assert_eq!(o.winner, Winner::Undecided);
        assert_eq!(o.winning_move, None);
        assert!(o.nodes <= 3 + threads as u64, "{} nodes", o.nodes);
    }
    let params = SolveParams {
        time: Some(std::time::Duration::from_millis(300)),
        ..two_threads()
    };
    let start = std::time::Instant::now();
    let o = dfpn::solve(&opening(8, 6, 1), Colour::White, &params).unwrap();
    assert_eq!(o.winner, Winner::Undecided);
    // One connection build may run past the deadline (each is limited to 5 s).
    assert!(start.elapsed().as_secs_f64() < 30.0);
}

#[test]
fn seven_by_seven_centre_sample() {
    // The table says the centre opening d4 wins for Black, so Black (to move) must win after
    // every White reply; a few replies the solver settles in seconds.
    assert!(table(7)[3][3]);
    let params = SolveParams::default();
    for w in ["e3", "c4", "e4", "c5"] {
        let b = Board::square(7).unwrap();
        let p = Position::from_names(b, "d4", w, Notation::Letters).unwrap();
        let o = dfpn::solve(&p, Colour::Black, &params).unwrap();
        assert_eq!(o.winner, Winner::Black, "d4 {w}");
        assert!(o.winning_move.is_some(), "d4 {w}");
    }
}

/// One opening of each pair related by the 180° rotation (which keeps each player's borders,
/// so both have the same winner); also checks that the published table agrees with that.
fn one_per_rotated_pair(n: u8) -> Vec<(u8, u8)> {
    let t = table(n as usize);
    all_cells(n)
        .into_iter()
        .filter(|&(c, r)| {
            let (c2, r2) = (n - 1 - c, n - 1 - r);
            assert_eq!(t[r as usize][c as usize], t[r2 as usize][c2 as usize]);
            (r, c) <= (r2, c2)
        })
        .collect()
}

#[test]
#[ignore = "slow: about an hour of CPU on 2 cores (25 openings, the other 24 by rotation)"]
fn seven_by_seven_all_openings_match_published_winners() {
    check_table(7, &one_per_rotated_pair(7));
}

#[test]
fn budget_exhausted_is_undecided() {
    let p = opening(7, 3, 3);
    let params = SolveParams {
        nodes: 3,
        ..SolveParams::default()
    };
    let o = dfpn::solve(&p, Colour::White, &params).unwrap();
    assert_eq!(o.winner, Winner::Undecided);
    assert_eq!(o.winning_move, None);
}

#[test]
fn fill_in_and_features_do_not_change_winners() {
    // Ablation settings must agree on 5x5 (every opening) with the full solver.
    let b = Board::square(5).unwrap();
    let full = SolveParams::default();
    let mut bare = SolveParams::default();
    bare.features.dead = false;
    bare.features.captured = false;
    bare.features.mustplay = false;
    bare.features.proof_sets = false;
    bare.features.rotation = false;
    bare.features.dominated = false;
    bare.features.incremental = false;
    // Each search feature off on its own.
    let mut singles = Vec::new();
    // And the search options of issue 25: ordering by the node's connections, the full OR.
    for k in 0..6 {
        let mut p = SolveParams::default();
        match k {
            0 => p.features.proof_sets = false,
            1 => p.features.rotation = false,
            2 => p.features.dominated = false,
            3 => p.order = dfpn::Ordering::Connections,
            4 => p.vc_fast_or = false,
            _ => p.features.incremental = true,
        }
        singles.push(p);
    }
    for (c, r) in all_cells(5).into_iter().step_by(2) {
        let mut p = Position::empty(b);
        p.play(Colour::Black, Cell::at(c, r)).unwrap();
        let a = dfpn::solve(&p, Colour::White, &full).unwrap().winner;
        let z = dfpn::solve(&p, Colour::White, &bare).unwrap().winner;
        assert_eq!(a, z, "{:?}", Cell::at(c, r));
        for s in &singles {
            let y = dfpn::solve(&p, Colour::White, s).unwrap().winner;
            assert_eq!(a, y, "{:?} {:?}", Cell::at(c, r), s.features);
        }
    }
}

use crate::bin::hexproof;

fn emit_and_check(board: &str, moves: &str) {
    let dir = std::env::temp_dir().join(format!("hexproof-solver-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{board}-{}.hexp", moves.replace(' ', "_")));
    let out = hexproof()
        .args(["solve", "--board", board, "--moves", moves, "--emit-proof"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("strategy"));
    let chk = hexproof().arg("check").arg(&file).output().unwrap();
    assert_eq!(
        chk.status.code(),
        Some(0),
        "{board} {moves}:\n{text}\n{}",
        String::from_utf8_lossy(&chk.stdout)
    );
    let _ = std::fs::remove_file(&file);
}

#[test]
fn emitted_proofs_pass_the_checker() {
    for m in ["a1", "b2", "b3", "d4", "c2"] {
        emit_and_check("4x4", m);
    }
    for m in ["c3", "a1", "b4", "e1", "a5", "a3 c3"] {
        emit_and_check("5x5", m);
    }
    // A mid-game position with Black to move.
    emit_and_check("5x5", "b2 c3");
}

#[test]
#[ignore = "slow: about a minute (the checker proves ~3500 steps)"]
fn emitted_six_by_six_centre_proof_passes_the_checker() {
    emit_and_check("6x6", "c3");
}

fn code_and_err(args: &[&str]) -> (Option<i32>, String) {
    let out = hexproof().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_input_is_exit_2_with_one_line() {
    for args in [
        &["solve", "--board", "5x5", "--moves", "a1 a1"][..],
        &[
            "solve",
            "--board",
            "5x5",
            "--moves",
            "c1 a1 c2 a2 c3 a3 c4 a4 c5",
        ][..],
        &["solve", "--board", "10x10"][..],
        &["solve", "--board", "5x5", "--moves", "z9"][..],
        &[
            "solve",
            "--board",
            "5x5",
            "--moves",
            "a1",
            "--openings",
            "all",
        ][..],
        &["solve", "--board", "5x5", "--openings", "some"][..],
    ] {
        let (code, err) = code_and_err(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("hexproof: error:"), "{err}");
    }
}

#[test]
fn cli_json_and_openings() {
    let out = hexproof()
        .args([
            "solve",
            "--board",
            "4x4",
            "--openings",
            "all",
            "--json",
            "--threads",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["openings"].as_array().unwrap().len(), 16);
    assert_eq!(v["undecided"], 0);
    // The queue handed each searched opening to one thread, which timed it.
    assert_eq!(v["solved"], 8);
    assert!(v["cpu_seconds"].as_f64().unwrap() > 0.0);
    assert!(v["openings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|o| o["cpu_seconds"].as_f64().is_some()));
    // Every 4x4 opening's winner agrees with the exact search.
    for o in v["openings"].as_array().unwrap() {
        let name = o["opening"].as_str().unwrap();
        let b = Board::square(4).unwrap();
        let c = b.parse_cell(name, Notation::Letters).unwrap();
        let mut p = Position::empty(b);
        p.play(Colour::Black, c).unwrap();
        let exact = exact_black_wins(&p, Colour::White);
        assert_eq!(o["winner"] == "black", exact, "{name}");
    }
    let (code, _) = code_and_err(&["solve", "--board", "7x7", "--moves", "d4", "--nodes", "2"]);
    assert_eq!(code, Some(3));
}

/// `--threads 2` on one position (threads on one tree): the same winner as one thread, a
/// winning move when the player to move wins, and the node budget still gives exit 3.
#[test]
fn cli_threads_on_one_position() {
    let run = |threads: &str| -> serde_json::Value {
        let out = hexproof()
            .args([
                "solve",
                "--board",
                "6x6",
                "--moves",
                "a3,c4",
                "--json",
                "--threads",
                threads,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["winner"], two["winner"]);
    assert_eq!(one["winning_move"].is_null(), two["winning_move"].is_null());
    let (code, _) = code_and_err(&[
        "solve",
        "--board",
        "7x7",
        "--moves",
        "d4",
        "--nodes",
        "2",
        "--threads",
        "2",
    ]);
    assert_eq!(code, Some(3));
}

/// `--db`: a second run answers from the database file (also for the 180° image of the
/// position), with the same winner and a legal winning move.
#[test]
fn database_answers_repeated_and_rotated_positions() {
    let dir = std::env::temp_dir().join(format!("hexproof-solver-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("solved.redb");
    let _ = std::fs::remove_file(&db);
    let run = |moves: &str| -> serde_json::Value {
        let out = hexproof()
            .args([
                "solve", "--board", "6x6", "--moves", moves, "--json", "--db",
            ])
            .arg(&db)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let first = run("c3 d4");
    assert_eq!(first["profile"]["db_hits"], 0);
    assert!(first["nodes"].as_u64().unwrap() > 0);
    for moves in ["c3 d4", "d4 c3"] {
        let again = run(moves);
        assert_eq!(again["winner"], first["winner"], "{moves}");
        assert!(again["profile"]["db_hits"].as_u64().unwrap() > 0, "{moves}");
        assert!(again["nodes"].as_u64().unwrap() < first["nodes"].as_u64().unwrap());
        if again["winner"] == "black" {
            let m = again["winning_move"].as_str().expect("a winning move");
            assert!(!moves.split(' ').any(|x| x == m), "{moves}: {m}");
        }
    }
    let _ = std::fs::remove_file(&db);
}

/// The root's larger ε is the default (session 34): `solve` with no flag searches the same
/// tree as `--top-epsilon 1 --top-first`, and `--top-plies 0` the tree before it (7×7 c1:
/// 219 and 379 positions, docs/journal/vc-session33.md); `--top-first --top-every` is bad
/// input.
#[test]
fn root_epsilon_is_the_default_and_top_plies_0_turns_it_off() {
    let run = |extra: &[&str]| -> u64 {
        let out = hexproof()
            .args(["solve", "--board", "7x7", "--moves", "c1", "--json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["winner"], "white", "{extra:?}");
        v["nodes"].as_u64().unwrap()
    };
    let default = run(&[]);
    assert_eq!(default, run(&["--top-epsilon", "1", "--top-first"]));
    let off = run(&["--top-plies", "0"]);
    assert_eq!((default, off), (219, 379));
    let bad = hexproof()
        .args(["solve", "--board", "5x5", "--moves", "c3"])
        .args(["--top-first", "--top-every"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// 8×8 connection builds run on one-word sets by default (`--no-compact-layout`: the board's
/// two-word numbering) and the search is the same node for node: `c5 c6 d5 d3 e3` (White to
/// move, lost: 520 positions either way, session 35). ≈ 6 s in release.
#[test]
fn compact_layout_is_the_default_and_keeps_the_tree() {
    let run = |extra: &[&str]| -> (u64, u64, u64) {
        let out = hexproof()
            .args(["solve", "--board", "8x8", "--moves", "c5 c6 d5 d3 e3"])
            .args(["--threads", "1", "--json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["winner"], "black", "{extra:?}");
        let p = &v["profile"];
        (
            v["nodes"].as_u64().unwrap(),
            p["vc_builds"].as_u64().unwrap(),
            p["vc_builds_compact"].as_u64().unwrap(),
        )
    };
    let (nodes, builds, compact) = run(&[]);
    let (nodes_off, builds_off, compact_off) = run(&["--no-compact-layout"]);
    assert_eq!((nodes, nodes_off), (520, 520));
    assert_eq!(builds, builds_off);
    assert_eq!(compact_off, 0);
    // Every build but those of positions with too few stones to free two indices.
    assert!(
        compact * 10 >= builds * 9,
        "{compact} of {builds} builds compact"
    );
}

/// Proof-set transpositions (issue 25, session 40; Henderson et al. 2009 §6): every fact the
/// searches of random 5×5 positions put in the index — "the winner wins with these stones of
/// its own, this player to move and the loser's stones anywhere outside this proof set" — is
/// checked by the exact search on positions built from it: the winner's stones (plus up to
/// two extra ones, as a lookup allows), random loser stones outside the proof set. The index
/// answers each such position with that winner, and the searches agree with the exact one.
#[test]
fn proof_set_transpositions_agree_with_the_exact_search() {
    let mut rng = rng::Rng(0x5eed_7040);
    let mut params = SolveParams::default();
    params.features.transpositions = true;
    let (mut facts_checked, mut hits, mut searched) = (0, 0, 0);
    while facts_checked < 60 && searched < 40 {
        let stones = 1 + rng.below(4) as usize;
        let p = random_position(&mut rng, 5, stones);
        let to_move = random_side(&mut rng);
        if p.winner().is_some() {
            continue;
        }
        let start = std::time::Instant::now();
        let mut d = dfpn::make_search(&params, params.order.order(), start);
        let o = dfpn::solve_in(&mut d, &p, to_move, start);
        assert_eq!(o.winner == Winner::Black, exact_black_wins(&p, to_move));
        hits += d.transposed;
        searched += 1;
        let index = d.transpositions.as_ref().expect("on");
        let facts = index.facts();
        for k in 0..facts.len().min(8) {
            let (side, winner, own, proof) = facts[rng.below(facts.len() as u64) as usize];
            let board = *p.board();
            let mut q = Position::empty(board);
            for c in own.iter() {
                q.play(winner, c).unwrap();
            }
            let free: Vec<Cell> = (q.empty_cells() - proof).iter().collect();
            let mut extra = 0;
            for &c in &free {
                match rng.below(5) {
                    0 | 1 => q.play(winner.opponent(), c).unwrap(),
                    2 if extra < 2 && k % 2 == 0 => {
                        q.play(winner, c).unwrap();
                        extra += 1;
                    }
                    _ => {}
                }
            }
            if q.winner().is_some() {
                continue;
            }
            let key = dfpn::tt::Key {
                black: q.stones(Colour::Black),
                white: q.stones(Colour::White),
                to_move: side,
            };
            let d = index.get(&key, 2).expect("the fact decides the position");
            assert_eq!(d.winner, winner);
            assert_eq!(
                exact_black_wins(&q, side),
                winner == Colour::Black,
                "fact: {side} to move, {winner} wins with {own:?} and proof set {proof:?}; position {q:?}"
            );
            facts_checked += 1;
        }
    }
    eprintln!("{facts_checked} facts checked, {hits} transposition hits in {searched} searches");
    assert!(facts_checked >= 60, "{facts_checked}");
}
