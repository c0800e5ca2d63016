//! Kernel condition 6, the union AND (docs/SEMANTICS.md, "Union AND"), on small random
//! instances: and-nodes whose children have union goals (`goal` plus `either`).
//!
//! Each case: a random 4×4 position, two or three parts with disjoint random carriers and
//! random union goals over Black stones and Black's borders, and a random goal for the whole.
//! Each part's own claim is decided by the exact search (its certificate kernel-checked);
//! when every part holds, their certificates are put side by side under one and-node with
//! their union goals, and the kernel judges the whole. Whenever the kernel accepts, a naive
//! exact minimax (written here, independent of the crate's searches) must find the whole
//! claim won by Black. Mutants of every accepted certificate must be rejected for the right
//! reason (a union on a node without a goal; an or-node whose next node has another union;
//! every part given the trivial extra pair `x - x` as well, which must fail condition 6 since
//! the whole is not joined before any move).

use hexproof::board::{Board, Border, Cell, CellSet, Colour};
use hexproof::claim::{Claim, SubGame};
use hexproof::kernel::{self, Certificate, KernelError, Node, NodeId, NodeKind};
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use std::collections::HashMap;

const COLS: u8 = 4;
const ROWS: u8 = 4;

fn board() -> Board {
    Board::new(COLS as u32, ROWS as u32).unwrap()
}

/// Cells 0–15, then Black's borders.
fn cell(i: u8) -> Cell {
    match i {
        16 => Cell::border(Border::Top),
        17 => Cell::border(Border::Bottom),
        _ => Cell::at(i % COLS, i / COLS),
    }
}

#[derive(Debug, Clone)]
struct Setup {
    black: Vec<u8>,
    white: Vec<u8>,
    /// Per cell: the part whose carrier holds it (≥ parts: none; = parts: the whole's only).
    assign: Vec<u8>,
    parts: usize,
    /// Goal pairs, as indices into the ends (Black stones, then the borders).
    unions: Vec<Vec<(u8, u8)>>,
    whole: Vec<(u8, u8)>,
}

fn setup() -> impl Strategy<Value = Setup> {
    // A union shares one end, as Yang's do (`x - y1 | x - y2`); the whole is mostly t - b.
    let union = (0u8..8, proptest::collection::vec(0u8..8, 1..=3))
        .prop_map(|(x, ys)| ys.into_iter().map(|y| (x, y)).collect::<Vec<_>>());
    let whole = prop_oneof![
        Just(vec![(254u8, 255u8)]),
        proptest::collection::vec((0u8..8, 0u8..8), 1..=2)
    ];
    (
        proptest::collection::vec(0u8..16, 1..5),
        proptest::collection::vec(0u8..16, 0..3),
        proptest::collection::vec(0u8..5, 16),
        2usize..=3,
        proptest::collection::vec(union, 3),
        whole,
    )
        .prop_map(|(black, white, assign, parts, unions, whole)| Setup {
            black,
            white,
            assign,
            parts,
            unions,
            whole,
        })
}

/// A naive exact game: does Black, White to move, join a pair of `pairs` on `carrier`?
struct Naive {
    board: Board,
    base: CellSet,
    pairs: Vec<(Cell, Cell)>,
    cells: Vec<Cell>,
    memo: HashMap<(u32, u32), bool>,
}

impl Naive {
    fn joined(&self, owned: CellSet) -> bool {
        self.pairs.iter().any(|&(a, z)| {
            let mut seen = CellSet::single(a);
            let mut stack = vec![a];
            while let Some(x) = stack.pop() {
                if x == z {
                    return true;
                }
                for y in (self.board.neighbours(x) & owned).iter() {
                    if seen.insert(y) {
                        stack.push(y);
                    }
                }
            }
            false
        })
    }

    fn set(&self, m: u32) -> CellSet {
        (0..self.cells.len())
            .filter(|i| m >> i & 1 == 1)
            .map(|i| self.cells[i])
            .collect()
    }

    fn black_wins(&mut self, own: u32, opp: u32, black_to_move: bool) -> bool {
        if self.joined(self.base | self.set(own)) {
            return true;
        }
        let full = (1u32 << self.cells.len()) - 1;
        let empty = full & !own & !opp;
        if empty == 0 || !self.joined(self.base | self.set(own | empty)) {
            return false;
        }
        if let Some(&w) = self.memo.get(&(own, opp)) {
            return w;
        }
        let moves = (0..self.cells.len()).filter(|i| empty >> i & 1 == 1);
        let w = if black_to_move {
            moves
                .collect::<Vec<_>>()
                .into_iter()
                .any(|i| self.black_wins(own | 1 << i, opp, false))
        } else {
            moves
                .collect::<Vec<_>>()
                .into_iter()
                .all(|i| self.black_wins(own, opp | 1 << i, true))
        };
        self.memo.insert((own, opp), w);
        w
    }
}

fn naive_holds(game: &SubGame) -> bool {
    let mut n = Naive {
        board: *game.board(),
        base: game.owner_cells(),
        pairs: game.claim().pairs.clone(),
        cells: game.carrier().iter().collect(),
        memo: HashMap::new(),
    };
    n.black_wins(0, 0, false)
}

/// One random case, built: the whole game and its union-AND certificate (none: skipped).
struct Built {
    game: SubGame,
    cert: Certificate,
    /// The root node of each part inside `cert`, and the range of its nodes.
    parts: Vec<(NodeId, std::ops::Range<usize>)>,
}

fn build(s: &Setup) -> Option<Built> {
    let black: CellSet = s.black.iter().map(|&i| cell(i)).collect();
    let white: CellSet = s.white.iter().map(|&i| cell(i)).collect();
    let pos = Position::new(board(), black, white).ok()?;
    let mut ends: Vec<Cell> = black.iter().collect();
    ends.push(cell(16));
    ends.push(cell(17));
    let end = |i: u8| match i {
        254 => cell(16),
        255 => cell(17),
        _ => ends[i as usize % ends.len()],
    };
    let pairs = |ps: &[(u8, u8)]| -> Vec<(Cell, Cell)> {
        let mut out: Vec<(Cell, Cell)> = Vec::new();
        for &(a, z) in ps {
            let p = (end(a), end(z));
            if p.0 != p.1 && !out.contains(&p) {
                out.push(p);
            }
        }
        out
    };
    let empty = |i: usize| pos.colour_at(cell(i as u8)).is_none();
    let mut whole_carrier = CellSet::EMPTY;
    let mut nodes: Vec<Node> = Vec::new();
    let mut parts = Vec::new();
    let mut unions = 0;
    for k in 0..s.parts {
        let carrier: CellSet = (0..16)
            .filter(|&i| s.assign[i] as usize == k && empty(i))
            .map(|i| cell(i as u8))
            .collect();
        let goal = pairs(&s.unions[k]);
        if goal.is_empty() || carrier.is_empty() {
            return None;
        }
        unions += usize::from(goal.len() > 1);
        let claim = Claim {
            owner: Colour::Black,
            pairs: goal.clone(),
            owner_first: false,
        };
        let part = SubGame::new(pos.clone(), carrier, claim).ok()?;
        let o = decide(&part, &Budget::nodes(200_000)).ok()?;
        if o.verdict != Verdict::Holds {
            return None;
        }
        let c = o.certificate?;
        let off = nodes.len() as NodeId;
        for n in c.nodes {
            let kind = n.kind.shifted(off);
            let (g, either) = match n.goal {
                Some(g) => (g, n.either),
                None => (goal[0], goal[1..].to_vec()),
            };
            nodes.push(Node {
                stones: n.stones,
                carrier: n.carrier,
                goal: Some(g),
                either,
                with: Vec::new(),
                kind,
            });
        }
        parts.push((c.root + off, off as usize..nodes.len()));
        whole_carrier |= carrier;
    }
    if unions == 0 {
        return None;
    }
    // Cells of the whole that no part holds.
    whole_carrier |= (0..16)
        .filter(|&i| s.assign[i] as usize == s.parts && empty(i))
        .map(|i| cell(i as u8))
        .collect::<CellSet>();
    if whole_carrier.len() > 11 {
        return None;
    }
    let claim = Claim {
        owner: Colour::Black,
        pairs: pairs(&s.whole),
        owner_first: false,
    };
    if claim.pairs.is_empty() {
        return None;
    }
    let game = SubGame::new(pos, whole_carrier, claim).ok()?;
    // A claim joined before any move says nothing about the rule.
    if kernel::joined(&game, &game.claim().pairs, &game.owner_cells()) {
        return None;
    }
    nodes.push(Node {
        stones: CellSet::EMPTY,
        carrier: whole_carrier,
        goal: None,
        either: Vec::new(),
        with: Vec::new(),
        kind: NodeKind::And(parts.iter().map(|p| p.0).collect()),
    });
    let root = (nodes.len() - 1) as NodeId;
    Some(Built {
        game,
        cert: Certificate {
            nodes,
            first: None,
            root,
        },
        parts,
    })
}

/// What the cases exercised: [skipped, rejected, accepted, mutant x - x rejected].
type Counts = [u32; 4];

fn case(s: Setup, counts: &std::cell::Cell<Counts>) -> Result<(), TestCaseError> {
    let mut c = counts.get();
    let Some(b) = build(&s) else {
        c[0] += 1;
        counts.set(c);
        return Ok(());
    };
    let root = b.cert.root;
    match kernel::check(&b.game, &b.cert) {
        Err(KernelError::BadAnd(id, why)) => {
            prop_assert_eq!(id, root);
            prop_assert!(why.contains("some choice"), "{}", why);
            c[1] += 1;
        }
        Err(e) => return Err(TestCaseError::fail(format!("unexpected rejection: {e}"))),
        Ok(_) => {
            prop_assert!(
                naive_holds(&b.game),
                "the kernel accepted a union AND for a claim that Black loses: {:?}",
                b.game.describe(hexproof::board::Notation::Letters)
            );
            c[2] += 1;
            // Mutant 1: a union on a node without a goal.
            let mut m = b.cert.clone();
            m.nodes[root as usize].either = vec![(cell(16), cell(17))];
            prop_assert!(matches!(
                kernel::check(&b.game, &m),
                Err(KernelError::GoalNotOwned(id)) if id == root
            ));
            for (part_root, _) in &b.parts {
                // Mutant 2: an or-node whose next nodes keep the old union.
                if matches!(b.cert.nodes[*part_root as usize].kind, NodeKind::Or(_)) {
                    let mut m = b.cert.clone();
                    m.nodes[*part_root as usize]
                        .either
                        .push((cell(16), cell(16)));
                    prop_assert!(matches!(
                        kernel::check(&b.game, &m),
                        Err(KernelError::NextGoal(id, _)) if id == *part_root
                    ));
                }
            }
            // Mutant 3: every part may also "join" the trivial pair x - x (always joined):
            // the choice of those pairs joins nothing (the goal is not joined before any
            // move), so condition 6 must fail.
            let mut m = b.cert.clone();
            for (part_root, range) in &b.parts {
                let top = &b.cert.nodes[*part_root as usize];
                let x = top.goal.unwrap().0;
                for n in &mut m.nodes[range.clone()] {
                    if n.goal == top.goal && n.either == top.either {
                        n.either.push((x, x));
                    }
                }
            }
            match kernel::check(&b.game, &m) {
                Err(KernelError::BadAnd(_, why)) => {
                    prop_assert!(why.contains("some choice"), "{}", why);
                    c[3] += 1;
                }
                Err(e) => return Err(TestCaseError::fail(format!("mutant 3: {e}"))),
                Ok(_) => return Err(TestCaseError::fail("mutant 3 accepted")),
            }
        }
    }
    counts.set(c);
    Ok(())
}

/// With the fixed seed: 200,000 cases (about 3 s), of which 73 reach an accepted union AND
/// whose claim is not joined before any move (each then won by the naive minimax, and its
/// three mutants rejected) and 7,678 a rejected one; the rest are skipped (a part's claim
/// fails, no union, or the whole joined already). The floors (about half) make a vacuous run
/// fail.
#[test]
fn union_and_agrees_with_exact_search() {
    const CASES: u32 = 200_000;
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x0a_11_d0_27),
        ..Config::default()
    });
    let counts = std::cell::Cell::new([0u32; 4]);
    let result = runner.run(&setup(), |s| case(s, &counts));
    if let Err(e) = result {
        panic!("union AND: {e}");
    }
    let [skipped, rejected, accepted, mutant] = counts.get();
    eprintln!(
        "union AND: {accepted} accepted, {rejected} rejected, {skipped} skipped of {CASES}; x - x mutant rejected {mutant} times"
    );
    assert!(accepted >= FLOOR_ACCEPTED && rejected >= FLOOR_REJECTED && mutant >= FLOOR_MUTANT);
}

const FLOOR_ACCEPTED: u32 = 36;
const FLOOR_REJECTED: u32 = 3800;
const FLOOR_MUTANT: u32 = 36;

/// A union on a node with no goal, and too many choices, are refused outright.
#[test]
fn union_and_refuses_malformed_unions() {
    let t = cell(16);
    let b = cell(17);
    let pos = Position::new(board(), CellSet::single(cell(5)), CellSet::EMPTY).unwrap();
    let claim = Claim {
        owner: Colour::Black,
        pairs: vec![(t, b)],
        owner_first: false,
    };
    let game = SubGame::new(pos, CellSet::EMPTY, claim).unwrap();
    // 13 joined children, each with the union t - t | b - b: 2^13 > MAX_CHOICES choices.
    let mut nodes: Vec<Node> = (0..13)
        .map(|_| Node {
            stones: CellSet::EMPTY,
            carrier: CellSet::EMPTY,
            goal: Some((t, t)),
            either: vec![(b, b)],
            with: Vec::new(),
            kind: NodeKind::Joined,
        })
        .collect();
    nodes.push(Node {
        stones: CellSet::EMPTY,
        carrier: CellSet::EMPTY,
        goal: None,
        either: Vec::new(),
        with: Vec::new(),
        kind: NodeKind::And((0..13).collect()),
    });
    let cert = Certificate {
        nodes,
        first: None,
        root: 13,
    };
    let err = kernel::check(&game, &cert).unwrap_err();
    assert!(
        matches!(err, KernelError::BadAnd(13, why) if why.contains("too many")),
        "{err}"
    );
}
