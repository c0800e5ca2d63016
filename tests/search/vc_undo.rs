//! Undo of an incremental update (`VcSet::play_undoable` / `VcSet::unplay`), the way a
//! depth-first search uses it: one engine per colour along the search path.
//!
//! On random move trees of 5×5–7×7 boards, for every variant:
//! - after `play_undoable` the engine stores exactly what a plain `play` stores on an engine
//!   brought to the same node by `rebuild` at the root and plain `play`s along the path;
//! - after `unplay` it stores exactly what it stored before the move (every carrier of every
//!   pair, counts, status, winning connections, endpoints), so the next sibling's update
//!   starts from the right state (checked by the first point again).

use crate::rng;

use hexproof::board::{Board, Cell, CellSet, Colour};
use hexproof::position::Position;
use hexproof::vc::{Kind, Status, Variant, VcParams, VcSet};
use rng::Rng;
use std::collections::BTreeSet;

/// Everything observable about the engine's state.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    position: String,
    endpoints: Vec<(Cell, CellSet)>,
    connections: BTreeSet<(bool, Cell, Cell, CellSet)>,
    status: Status,
    winning_vcs: BTreeSet<CellSet>,
    winning_vscs: BTreeSet<CellSet>,
}

fn snapshot(v: &VcSet) -> Snapshot {
    Snapshot {
        position: format!("{:?}", v.position()),
        endpoints: v.endpoints().collect(),
        connections: v
            .connections()
            .into_iter()
            .map(|c| (c.kind == Kind::Vc, c.x.min(c.y), c.x.max(c.y), c.carrier))
            .collect(),
        status: v.status(),
        winning_vcs: v.winning_vcs().into_iter().collect(),
        winning_vscs: v.winning_vscs().into_iter().collect(),
    }
}

fn random_empty(p: &Position, rng: &mut Rng) -> Option<Cell> {
    let empty: Vec<Cell> = p.empty_cells().iter().collect();
    (!empty.is_empty()).then(|| empty[rng.below(empty.len() as u64) as usize])
}

/// Walks a random tree below the engine's current node (reached from `root` by `path`),
/// checking play_undoable against a replay with plain `play`, and unplay against the state
/// before.
#[allow(clippy::too_many_arguments)]
fn walk(
    v: &mut VcSet,
    root: &Position,
    path: &mut Vec<(Colour, Cell)>,
    to_move: Colour,
    depth: u32,
    branching: u32,
    rng: &mut Rng,
    checked: &mut usize,
) {
    if depth == 0 {
        return;
    }
    let before = snapshot(v);
    for _ in 0..branching {
        let Some(cell) = random_empty(v.position(), rng) else {
            return;
        };
        v.play_undoable(to_move, cell).unwrap();
        path.push((to_move, cell));
        let mut replay = VcSet::new(v.colour(), v.params().clone());
        replay.rebuild(root);
        for &(c, m) in path.iter() {
            replay.play(c, m).unwrap();
        }
        assert_eq!(
            snapshot(v),
            snapshot(&replay),
            "after play_undoable {path:?}"
        );
        *checked += 1;
        walk(
            v,
            root,
            path,
            to_move.opponent(),
            depth - 1,
            branching,
            rng,
            checked,
        );
        path.pop();
        assert!(v.unplay());
        assert_eq!(snapshot(v), before, "after unplay back to {path:?}");
    }
}

#[test]
fn play_undoable_then_unplay_restores_every_connection() {
    let mut rng = Rng(0x5eed_0bad_cafe_f00d);
    let mut checked = 0;
    for side in [5u32, 6, 7] {
        let b = Board::square(side).unwrap();
        for variant in [
            Variant::Fast,
            Variant::Limited,
            Variant::Unlimited,
            Variant::HSearch,
        ] {
            // The closure variants take longer on 7×7; 5×5 and 6×6 cover them.
            if side == 7 && matches!(variant, Variant::Unlimited | Variant::HSearch) {
                continue;
            }
            for colour in [Colour::Black, Colour::White] {
                // A few random stones first, so that groups exist.
                let mut root = Position::empty(b);
                let mut who = Colour::Black;
                for _ in 0..rng.below(5) {
                    let c = random_empty(&root, &mut rng).unwrap();
                    root.play(who, c).unwrap();
                    who = who.opponent();
                }
                let mut params = VcParams::new(variant);
                if rng.below(2) == 0 {
                    // Also exercise the update proper, never the rebuild fallback.
                    params.rebuild_above = None;
                }
                let mut v = VcSet::new(colour, params);
                v.rebuild(&root);
                let mut path = Vec::new();
                walk(&mut v, &root, &mut path, who, 3, 2, &mut rng, &mut checked);
                assert_eq!(v.undo_depth(), 0);
                assert!(!v.unplay(), "nothing left to undo");
            }
        }
    }
    eprintln!(
        "play_undoable_then_unplay_restores_every_connection: {checked} nodes checked (floor 100)"
    );
    assert!(checked > 100, "only {checked} nodes checked");
}

#[test]
fn rebuild_forgets_saved_states_and_errors_save_nothing() {
    let b = Board::square(5).unwrap();
    let root = Position::empty(b);
    let mut v = VcSet::build(&root, Colour::Black, VcParams::new(Variant::Fast));
    let c3 = Cell::at(2, 2);
    v.play_undoable(Colour::Black, c3).unwrap();
    assert_eq!(v.undo_depth(), 1);
    // An illegal move (occupied cell) changes nothing.
    let before = snapshot(&v);
    assert!(v.play_undoable(Colour::White, c3).is_err());
    assert_eq!(v.undo_depth(), 1);
    assert_eq!(snapshot(&v), before);
    v.rebuild(&root);
    assert_eq!(v.undo_depth(), 0);
    assert!(!v.unplay());
}
