//! The whole-board engine (`local::encode`, `local::whole`) against the exact local search
//! on random small claims of Black (3×3 to 6×6 boards, carriers of up to 10 cells, VC and
//! semi, endpoints a Black stone, an empty cell or Black's other border):
//!
//! - the encoding is exact: plain minimax on the encoded whole-board position says Black wins
//!   iff the local search says the claim holds (no solver involved);
//! - the engine's verdicts agree with the local search: "holds" (kernel-checked) and "fails"
//!   (White's line confirmed) where the local search says so; never the opposite.
//!
//! Both verdicts must occur, and the encoding must apply to at least a fifth of the instances,
//! so the test cannot pass vacuously.

use hexproof::board::{Board, Border, Cell, CellSet, Colour};
use hexproof::claim::{Claim, SubGame};
use hexproof::dfpn::{self, Ordering, SolveParams};
use hexproof::engine::encode::encode;
use hexproof::engine::whole::{decide_whole, solver_params, Capture, Fill, WholeParams};
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::cell::Cell as StdCell;
use std::collections::HashMap;

#[derive(Clone, Debug)]
struct Inst {
    cols: u32,
    rows: u32,
    stones: Vec<(usize, bool)>,
    carrier_bits: u64,
    endpoint: u8,
    goal_top: bool,
    owner_first: bool,
}

fn instances() -> impl Strategy<Value = Inst> {
    (
        3u32..=6,
        3u32..=6,
        prop::collection::vec((0usize..36, any::<bool>()), 0..=10),
        any::<u64>(),
        any::<u8>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(cols, rows, stones, carrier_bits, endpoint, goal_top, owner_first)| Inst {
                cols,
                rows,
                stones,
                carrier_bits,
                endpoint,
                goal_top,
                owner_first,
            },
        )
}

/// The sub-game of an instance (`None` when it has no valid claim).
fn sub_game(inst: &Inst) -> Option<SubGame> {
    let board = Board::new(inst.cols, inst.rows).ok()?;
    let cells: Vec<Cell> = board.cells().iter().collect();
    let (mut black, mut white) = (CellSet::EMPTY, CellSet::EMPTY);
    for &(i, is_black) in &inst.stones {
        let c = cells[i % cells.len()];
        if black.contains(c) || white.contains(c) {
            continue;
        }
        if is_black {
            black.insert(c);
        } else {
            white.insert(c);
        }
    }
    let position = Position::new(board, black, white).ok()?;
    let empty: Vec<Cell> = position.empty_cells().iter().collect();
    let (goal, far) = if inst.goal_top {
        (Border::Top, Border::Bottom)
    } else {
        (Border::Bottom, Border::Top)
    };
    // The endpoint: Black's far border, a Black stone or an empty cell.
    let blacks: Vec<Cell> = black.iter().collect();
    let k = inst.endpoint as usize;
    let end = match k % 3 {
        1 if !blacks.is_empty() => blacks[(k / 3) % blacks.len()],
        2 if !empty.is_empty() => empty[(k / 3) % empty.len()],
        _ => Cell::border(far),
    };
    let mut carrier = CellSet::EMPTY;
    for (j, &c) in empty.iter().enumerate() {
        if c != end && inst.carrier_bits >> (j % 64) & 1 == 1 && carrier.len() < 10 {
            carrier.insert(c);
        }
    }
    let claim = Claim {
        owner: Colour::Black,
        pairs: vec![(end, Cell::border(goal))],
        owner_first: inst.owner_first,
    };
    SubGame::new(position, carrier, claim).ok()
}

/// Plain minimax with a table: does `to_move` win the whole-board position?
fn minimax(pos: &Position, to_move: Colour, memo: &mut HashMap<(CellSet, CellSet), bool>) -> bool {
    if let Some(w) = pos.winner() {
        return w == to_move;
    }
    let key = (pos.stones(Colour::Black), pos.stones(Colour::White));
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut win = false;
    for c in pos.empty_cells().iter() {
        let mut p = pos.clone();
        p.play(to_move, c).expect("an empty cell");
        if !minimax(&p, to_move.opponent(), memo) {
            win = true;
            break;
        }
    }
    memo.insert(key, win);
    win
}

#[derive(Default)]
struct Counts {
    cases: StdCell<u32>,
    applicable: StdCell<u32>,
    holds: StdCell<u32>,
    fails: StdCell<u32>,
    engine_holds: StdCell<u32>,
    engine_fails: StdCell<u32>,
}

fn bump(c: &StdCell<u32>) {
    c.set(c.get() + 1);
}

#[test]
fn encoding_and_engine_agree_with_local_search() {
    let mut runner = TestRunner::new(Config {
        cases: 3000,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x0005_eed5),
        ..Config::default()
    });
    let counts = Counts::default();
    let params = WholeParams {
        leaf_nodes: 100_000,
        max_certificate_nodes: 100_000,
        tt_entries: 10_000,
        ..WholeParams::default()
    };
    let result = runner.run(&instances(), |inst| {
        let Some(game) = sub_game(&inst) else {
            return Ok(());
        };
        bump(&counts.cases);
        let local = decide(&game, &Budget::nodes(2_000_000)).expect("a valid game");
        prop_assert_ne!(
            local.verdict,
            Verdict::Undecided,
            "small claims are decided"
        );
        let Ok(e) = encode(&game) else {
            return Ok(());
        };
        bump(&counts.applicable);
        bump(if local.verdict == Verdict::Holds {
            &counts.holds
        } else {
            &counts.fails
        });
        // The encoding is exact (no solver involved).
        let black_wins = {
            let mover_wins = minimax(&e.position, e.to_move, &mut HashMap::new());
            mover_wins == (e.to_move == Colour::Black)
        };
        prop_assert_eq!(
            black_wins,
            local.verdict == Verdict::Holds,
            "encoding disagrees: {:?}\n{}",
            game.describe(hexproof::board::Notation::Letters),
            e.position.to_ascii(hexproof::board::Notation::Letters)
        );
        // The engine never contradicts the local search, and decides these small claims
        // (a semi it cannot confirm as failing is undecided by design).
        let (o, r) = decide_whole(&game, &Budget::nodes(200_000), &params);
        prop_assert!(
            o.kernel_error.is_none(),
            "kernel error {:?}",
            o.kernel_error
        );
        match o.verdict {
            Verdict::Holds => {
                prop_assert_eq!(local.verdict, Verdict::Holds);
                prop_assert!(o.verified.is_some());
                bump(&counts.engine_holds);
            }
            Verdict::Fails => {
                prop_assert_eq!(local.verdict, Verdict::Fails);
                if let Some(m) = o.refutation.first() {
                    prop_assert_eq!(m.colour, Colour::White);
                }
                bump(&counts.engine_fails);
            }
            Verdict::Undecided => prop_assert!(
                game.claim().owner_first && local.verdict == Verdict::Fails,
                "undecided: {:?} {:?}",
                r.failure,
                game.describe(hexproof::board::Notation::Letters)
            ),
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (cases, applicable) = (counts.cases.get(), counts.applicable.get());
    println!(
        "{cases} claims, {applicable} encoded: {} hold, {} fail; engine: {} holds, {} fails",
        counts.holds.get(),
        counts.fails.get(),
        counts.engine_holds.get(),
        counts.engine_fails.get()
    );
    assert!(applicable * 5 >= cases, "the encoding applies too rarely");
    assert!(counts.engine_holds.get() >= 50 && counts.engine_fails.get() >= 50);
}

/// The whole-board engine of `verify --engine solver|auto` and `templates import-published`
/// searches with the solver's defaults (issue 28 item 4: the solver's gains carried over to
/// template proofs): the connection move order (cells scored by the current through them,
/// session 24) with the circuits kept from each evaluation,
/// progressive widening and the root rule (`top_epsilon`, `top_first`; session 34) — only the budget, the table size, (for `Fill::Off`) the
/// fill-in and the capture AND (`WholeParams::capture`) differ.
#[test]
fn engine_uses_the_solvers_default_order_and_widening() {
    let defaults = SolveParams::default();
    assert_eq!(defaults.order, Ordering::Flow);
    assert!(defaults.widening.is_some());
    for fill_in in [Fill::White, Fill::Full, Fill::Off] {
        let params = WholeParams {
            fill_in,
            tt_entries: 12_345,
            ..WholeParams::default()
        };
        let budget = Budget::nodes(777);
        let sp = solver_params(&budget, &params);
        assert_eq!(sp.order, defaults.order, "{fill_in:?}");
        assert_eq!(sp.widening, defaults.widening, "{fill_in:?}");
        assert_eq!(sp.library_seeds, defaults.library_seeds, "{fill_in:?}");
        assert_eq!(sp.vc_fast_or, defaults.vc_fast_or, "{fill_in:?}");
        assert_eq!(sp.child_dn, defaults.child_dn, "{fill_in:?}");
        assert_eq!(sp.semi_limit, defaults.semi_limit, "{fill_in:?}");
        assert_eq!(sp.edge_semi_limit, defaults.edge_semi_limit, "{fill_in:?}");
        assert_eq!((sp.nodes, sp.tt_entries, sp.threads), (777, 12_345, 1));
        assert_eq!(sp.features.dead, fill_in != Fill::Off);
        // The root rule (session 34's solver default), unless HEXPROOF_WHOLE_TOP=off.
        if std::env::var("HEXPROOF_WHOLE_TOP").as_deref() != Ok("off") {
            assert_eq!(sp.top_epsilon, defaults.top_epsilon, "{fill_in:?}");
            assert_eq!(sp.top_first, defaults.top_first, "{fill_in:?}");
        }
        let off = WholeParams {
            top_epsilon: None,
            ..params
        };
        let d_off = dfpn::make_search(
            &solver_params(&budget, &off),
            sp.order.order(),
            std::time::Instant::now(),
        );
        assert_eq!(d_off.top_plies, 0, "the root rule off: plain ε everywhere");
        for (capture, on) in [
            (Capture::On, true),
            (Capture::Root, true),
            (Capture::Off, false),
        ] {
            let p = WholeParams { capture, ..params };
            assert_eq!(solver_params(&budget, &p).vc_capture_and, on, "{capture:?}");
        }
        let d = dfpn::make_search(&sp, sp.order.order(), std::time::Instant::now());
        assert_eq!(d.widening, defaults.widening);
        assert!(d.vc_order, "connection ordering on");
        if let Some((e, plies)) = defaults.top_epsilon {
            if std::env::var("HEXPROOF_WHOLE_TOP").as_deref() != Ok("off") {
                assert_eq!((d.top_epsilon, d.top_plies), (e, plies));
            }
        }
        if std::env::var_os("HEXPROOF_KEEP_CIRCUITS").is_none() {
            assert!(d.eval.keep_circuits, "circuits kept from each evaluation");
        }
    }
}
