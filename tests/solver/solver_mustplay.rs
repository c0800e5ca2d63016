//! The cheap proof-size objective (`solve --emit-mustplay N`, docs/prove.md "The least
//! mustplay"): at each winner's move the emitter follows the winning move that leaves the loser
//! the smallest mustplay instead of the solver's move; the tree it writes is smaller and the
//! checker accepts it.

use crate::solver_compact::{assert_smaller_and_checked, played};
use hexproof::dfpn::SolveParams;
use hexproof::prove::emit::{self, EmitOptions};

/// The export of `moves` on an n×n board (facts on at most 16 cells collapsed, redundant
/// analyses dropped) with the least-mustplay objective over `tries` moves (0: the solver's).
fn exported(n: u32, moves: &[&str], params: &SolveParams, tries: usize) -> String {
    let (p, colour) = played(n, moves);
    emit::emit(
        &p,
        colour,
        params,
        &EmitOptions {
            collapse: 16,
            drop_redundant: true,
            mustplay_tries: tries,
            ..EmitOptions::default()
        },
    )
    .unwrap()
}

/// 6×6 a1 (White wins): the solver's own moves give 8 Black-move nodes and 3 leaves (measured);
/// with the least-mustplay objective over 8 moves the emitter follows, where the loser's
/// mustplay is smaller, another winning move, and the tree is 6 Black-move nodes and one leaf.
/// The smaller proof passes the checker with its confirming searches on. Without the objective
/// (`mustplay_tries` ignored) both exports are the same tree and the comparison fails.
#[test]
fn the_least_mustplay_objective_writes_a_smaller_six_by_six_proof() {
    let params = SolveParams::default();
    let base = exported(6, &["a1"], &params, 0);
    let small = exported(6, &["a1"], &params, 8);
    assert_smaller_and_checked(&small, &base);
    // One try is the solver's move alone: the same tree as without the objective.
    assert_eq!(exported(6, &["a1"], &params, 1), base);
}
