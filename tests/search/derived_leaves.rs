//! Derivation leaves (`local::derived`): an H-search derivation of the explainer
//! (`vc::explain`) written as kernel nodes, and the whole-board engine that uses them.
//!
//! - the translation of a derivation is accepted by the kernel, and single-edit tamperings
//!   of it (an OR option dropped, a base fact's stone taken away, an AND's children made to
//!   overlap) are rejected, each for its own reason;
//! - small HexWiki templates (fixture: tests/fixtures/edge-templates-hexwiki.json) forced
//!   through the whole-board engine hold, kernel-checked, with at least one derivation leaf;
//!   a larger one (Selinger's 6a-1) gets leaves from its key moves' derivations.

use hexproof::board::{Board, Border, CellSet, Colour, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::edge_template::EdgeTemplate;
use hexproof::engine::encode::encode;
use hexproof::engine::whole::{decide_whole, split_order, WholeParams, WholeReport};
use hexproof::kernel::{self, Certificate, KernelError, NodeKind};
use hexproof::local::derived::{certificate, DerivedStats};
use hexproof::local::{Budget, Verdict};
use hexproof::position::Position;
use hexproof::vc::explain::{explain_win, ExplainLimits};

/// `t - b` on an n×n board with Black stones `black`, carrier = every empty cell; the
/// explainer's derivation of Black's win translated to a certificate.
fn derived(n: u32, black: &[&str]) -> (SubGame, Certificate) {
    let board = Board::square(n).unwrap();
    let stones: CellSet = black
        .iter()
        .map(|c| board.parse_cell(c, Notation::Letters).unwrap())
        .collect();
    let p = Position::new(board, stones, CellSet::EMPTY).unwrap();
    let [t, b] = Colour::Black.borders().map(hexproof::board::Cell::border);
    let game = SubGame::new(
        p.clone(),
        p.empty_cells(),
        Claim {
            owner: Colour::Black,
            pairs: vec![(t, b)],
            owner_first: false,
        },
    )
    .unwrap();
    let d = explain_win(&p, Colour::Black, p.empty_cells(), ExplainLimits::default())
        .expect("a derivation");
    let cert = certificate(&game, &d, &mut DerivedStats::default()).expect("a translation");
    (game, cert)
}

#[test]
fn a_derivation_is_a_certificate_the_kernel_accepts() {
    for (n, black) in [
        (3, &["b2"][..]),
        (4, &["b2", "c3"][..]),
        (5, &["c2", "c4"][..]),
    ] {
        let (game, cert) = derived(n, black);
        kernel::check(&game, &cert).unwrap_or_else(|e| panic!("{n}x{n} {black:?}: {e}"));
    }
}

#[test]
fn tampered_derivations_are_rejected() {
    let (game, cert) = derived(3, &["b2"]);
    kernel::check(&game, &cert).unwrap();
    let or_nodes: Vec<usize> = (0..cert.nodes.len())
        .filter(|&i| matches!(&cert.nodes[i].kind, NodeKind::Or(r) if r.len() > 1))
        .collect();
    assert!(!or_nodes.is_empty(), "the two bridges are OR rules");
    // An OR option dropped: an intrusion has no answer.
    for &i in &or_nodes {
        let mut bad = cert.clone();
        if let NodeKind::Or(r) = &mut bad.nodes[i].kind {
            r.pop();
        }
        assert!(
            matches!(kernel::check(&game, &bad), Err(KernelError::Unanswered(id, _)) if id as usize == i),
            "{:?}",
            kernel::check(&game, &bad)
        );
    }
    // A base fact whose key stone is taken away: its goal end is not an owner cell.
    let joined = (0..cert.nodes.len())
        .find(|&i| cert.nodes[i].kind == NodeKind::Joined && !cert.nodes[i].stones.is_empty())
        .expect("a base fact at a key");
    let mut bad = cert.clone();
    bad.nodes[joined].stones = CellSet::EMPTY;
    assert!(matches!(
        kernel::check(&game, &bad),
        Err(KernelError::GoalNotOwned(_) | KernelError::NotJoined(_))
    ));
    // An AND whose second child is the first again: the carriers overlap.
    let (game, cert) = derived(5, &["c2", "c4"]);
    let and = (0..cert.nodes.len())
        .find(|&i| {
            matches!(&cert.nodes[i].kind,
                NodeKind::And(k) if k.len() == 2 && !cert.nodes[k[0] as usize].carrier.is_empty())
        })
        .expect("an AND rule of two VCs with carriers");
    let mut bad = cert.clone();
    if let NodeKind::And(k) = &mut bad.nodes[and].kind {
        k[1] = k[0];
    }
    assert!(matches!(
        kernel::check(&game, &bad),
        Err(KernelError::BadAnd(id, m)) if id as usize == and && m.contains("overlap")
    ));
}

#[test]
fn small_templates_hold_through_the_whole_board_engine() {
    let all = EdgeTemplate::parse_list(include_str!("../fixtures/edge-templates-hexwiki.json"))
        .expect("the fixture parses");
    let mut derived_leaves = 0;
    for name in ["III1a", "IV1a", "IV2n"] {
        let t = all.iter().find(|t| t.name == name).unwrap();
        let g = t.place_fitting(Border::Bottom).expect("fits");
        let (o, r) = decide_whole(&g, &Budget::nodes(2_000_000), &WholeParams::default());
        assert_eq!(o.verdict, Verdict::Holds, "{name}: {r:?}");
        let cert = o.certificate.as_ref().expect("a certificate");
        kernel::check(&g, cert).expect("kernel-checked");
        derived_leaves += r.derived_leaves;
    }
    assert!(derived_leaves > 0);
}

#[test]
fn union_templates_get_derivation_leaves_through_the_whole_board_engine() {
    // Two goal stones, either joined to the edge (King's and Selinger's union templates;
    // fixture: tests/fixtures/edge-templates-king-selinger.json). The far border of the
    // encoding is the goal stones' merged group: its derivation facts become union goals.
    let all = EdgeTemplate::parse_list(include_str!(
        "../fixtures/edge-templates-king-selinger.json"
    ))
    .expect("the fixture parses");
    let mut derived_leaves = 0;
    for name in [
        "DK-row4-08",
        "DK-row4-11",
        "DK-row5-24",
        "Selinger:template-6l",
    ] {
        let t = all.iter().find(|t| t.name == name).unwrap();
        let g = t.place_fitting(Border::Bottom).expect("fits");
        assert!(g.claim().pairs.len() > 1, "{name} is a union claim");
        let (o, r) = decide_whole(&g, &Budget::nodes(2_000_000), &WholeParams::default());
        assert_eq!(o.verdict, Verdict::Holds, "{name}: {r:?}");
        let cert = o.certificate.as_ref().expect("a certificate");
        kernel::check(&g, cert).expect("kernel-checked");
        derived_leaves += r.derived_leaves;
    }
    assert!(derived_leaves > 0, "no union derivation leaf");
}

/// Selinger's 6a-1 (37 cells, one goal stone and a helper; fixture:
/// tests/fixtures/edge-templates-king-selinger.json) through `decide_whole` with `params`: it
/// holds and its certificate is kernel-checked; the certificate and the engine's report.
fn whole_6a_1_with(params: &WholeParams) -> (Certificate, WholeReport) {
    let g = game_6a_1();
    let (o, r) = decide_whole(&g, &Budget::nodes(20_000_000), params);
    assert_eq!(o.verdict, Verdict::Holds, "{r:?}");
    let cert = o.certificate.expect("a certificate");
    kernel::check(&g, &cert).expect("kernel-checked");
    (cert, r)
}

/// Selinger's 6a-1 on Black's bottom edge of its fitting board.
fn game_6a_1() -> SubGame {
    let all = EdgeTemplate::parse_list(include_str!(
        "../fixtures/edge-templates-king-selinger.json"
    ))
    .expect("the fixture parses");
    let t = all
        .iter()
        .find(|t| t.name == "Selinger:template-6a-1")
        .unwrap();
    t.place_fitting(Border::Bottom).expect("fits")
}

/// [`whole_6a_1_with`] with the default parameters, split off: the report.
fn whole_6a_1() -> WholeReport {
    whole_6a_1_with(&WholeParams {
        split: false,
        ..WholeParams::default()
    })
    .1
}

#[test]
fn a_claim_split_by_whites_first_move_is_certified_as_one() {
    // 6a-1 with the split: each White first move that no option answers yet is a claim of its
    // own (Black to move), decided and certified alone; the certificates are joined under
    // one root or-node, and the kernel checks the joined certificate on the template itself
    // (above). The count fails if the split is off; the root is that or-node (the shrink may
    // drop options, never add them).
    let (cert, r) = whole_6a_1_with(&WholeParams {
        split: true,
        ..WholeParams::default()
    });
    assert!(r.split_options >= 2, "{r:?}");
    let root = &cert.nodes[cert.root as usize];
    assert_eq!(cert.first, None);
    assert!(root.stones.is_empty());
    match &root.kind {
        NodeKind::Or(options) => {
            assert!(
                !options.is_empty() && options.len() as u64 <= r.split_options,
                "{r:?}"
            )
        }
        k => panic!("the root is not an or-node: {k:?}"),
    }
}

#[test]
fn the_split_tries_whites_cheap_first_moves_first() {
    // 6a-1 (session 33): White's first moves in `split_order` are the carrier, the cells
    // outside White's mustplay (Black's winning VSCs' intersection on the encoded position)
    // first, then those inside it by increasing circuit energy. Fails with the carrier's own
    // order (session 31's lowest cell first).
    use hexproof::vc::{mustplay, Mustplay, Variant, VcParams, VcSet};
    let g = game_6a_1();
    let order = split_order(&g);
    assert_eq!(order.len(), g.carrier().len());
    assert_eq!(order.iter().copied().collect::<CellSet>(), g.carrier());
    let enc = encode(&g).unwrap();
    let black = VcSet::build(&enc.position, Colour::Black, VcParams::new(Variant::Fast));
    let Mustplay::Restricted(m) = mustplay(&black) else {
        panic!("Black has a winning VSC in 6a-1 with White to move");
    };
    let energy = hexproof::eval::evaluate_plain(&enc.position).energy;
    let key: Vec<(bool, f64)> = order
        .iter()
        .map(|&c| {
            let w = enc.to_window(c).unwrap();
            (m.contains(w), energy[w.index()])
        })
        .collect();
    assert!(
        key.iter().any(|k| !k.0) && key.iter().any(|k| k.0),
        "{key:?}"
    );
    assert!(
        key.windows(2)
            .all(|p| (!p[0].0 && p[1].0) || (p[0].0 == p[1].0 && p[0].1 <= p[1].1)),
        "{key:?}"
    );
}

#[test]
fn a_split_with_a_time_per_move_goes_on_past_an_undecided_move() {
    // 6a-1 with no time for any White first move (`split_option_time` zero): each is
    // undecided, stays open, and the next is tried — every carrier cell once — and the claim
    // is undecided, never holds. Without the per-move time the split stops at the first.
    let g = game_6a_1();
    let n = g.carrier().len();
    let (o, r) = decide_whole(
        &g,
        &Budget::nodes(20_000_000),
        &WholeParams {
            split: true,
            split_option_time: Some(std::time::Duration::ZERO),
            ..WholeParams::default()
        },
    );
    assert_eq!(o.verdict, Verdict::Undecided, "{r:?}");
    assert_eq!(r.split_options, 0);
    let f = r.failure.expect("a failure");
    assert!(
        f.contains(&format!("{n} White moves open ({n} tried and undecided: ")),
        "{f}"
    );
    // The open moves are named (the next run's work): every carrier cell, none untried.
    let tried = f
        .split("undecided: ")
        .nth(1)
        .unwrap()
        .split(';')
        .next()
        .unwrap();
    assert_eq!(tried.split(' ').count(), n, "{f}");
    assert!(f.contains("not tried: )"), "{f}");
}

#[test]
fn key_move_derivations_become_leaves_through_the_whole_board_engine() {
    // 6a-1: where the solver stored no winning move, Black's key move comes from the
    // explainer's winning VSC, and its derivation (the VC once the key is Black's) is the
    // next White-to-move node's leaf, with no second explainer call. The certificate is
    // kernel-checked as every other.
    let r = whole_6a_1();
    assert!(
        r.key_leaves > 0,
        "no leaf from a key move's derivation: {r:?}"
    );
    assert!(r.key_leaves <= r.derived_leaves, "{r:?}");
}

#[test]
fn earlier_nodes_prove_the_positions_they_subsume() {
    // 6a-1 again: a White-to-move position of the rebuild whose Black stones include those
    // of a node built before, with that node's carrier still empty, takes that node (no
    // leaf, no search); an or-node keeps only the stones its options assume, so it can be
    // reused so too. The kernel checks the certificate as every other; the count fails if
    // the reuse is off.
    let r = whole_6a_1();
    assert!(
        r.subsumed > 0,
        "no position proved by an earlier node: {r:?}"
    );
}

#[test]
fn black_replies_read_off_the_key_need_no_solver_search() {
    // 6a-1 with and without the direct keys: where the root's proof names no move, Black's
    // reply is first the explainer's key, taken with no solver search when the position after
    // it is proved at once (a node built before, or the key's derivation as a leaf the kernel
    // accepts). Both certificates are kernel-checked (above); with the keys the rebuild
    // evaluates fewer solver positions. The count fails if the direct keys are off.
    let on = whole_6a_1();
    let off = whole_6a_1_with(&WholeParams {
        split: false,
        direct_keys: false,
        ..WholeParams::default()
    })
    .1;
    assert!(on.direct_keys > 0, "{on:?}");
    assert_eq!(off.direct_keys, 0, "{off:?}");
    assert!(
        on.solver_nodes < off.solver_nodes,
        "on {} solver positions, off {}",
        on.solver_nodes,
        off.solver_nodes
    );
}
