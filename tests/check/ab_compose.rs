//! The AB-property used across two areas (docs/SEMANTICS.md, "AB-property"): every composed
//! verdict is tested against a direct exact search of the union.
//!
//! Instances: a 5×5 board, a black stone u (and sometimes a second black or a white stone),
//! two disjoint random carriers S1 and S2, and cells A, B of S1. The composition says t − b
//! holds on S1 ∪ S2 when (i) Black's t − u on S1 holds with the guarantee "White A ⇒ Black B"
//! (src/trusted/ab.rs, exact), (ii) u − b on S2 holds in the assisted game that assumes it, and
//! (iii) the pairs chain t − u − b. Whenever the composition says so, the kernel-backed search
//! of t − b on S1 ∪ S2 must hold. The test also counts the instances where the assumption is
//! really needed (u − b on S2 alone is false), so it cannot pass vacuously.

use hexproof::board::{Board, Border, Cell, CellSet, Colour, Notation};
use hexproof::check::ab::{assisted_holds, interface_holds};
use hexproof::check::compose::{self, Part};
use hexproof::claim::{Claim, SubGame};
use hexproof::dsl::model::CellNames;
use hexproof::local::{decide, Budget, Verdict};
use hexproof::position::Position;

const COLS: u8 = 5;
const ROWS: u8 = 5;

use crate::rng;
use rng::Rng;

fn board() -> Board {
    Board::new(COLS as u32, ROWS as u32).unwrap()
}

fn claim(a: Cell, b: Cell) -> Claim {
    Claim {
        owner: Colour::Black,
        pairs: vec![(a, b)],
        owner_first: false,
    }
}

fn search(pos: &Position, carrier: CellSet, c: &Claim) -> Verdict {
    let g = SubGame::new(pos.clone(), carrier, c.clone()).expect("well formed");
    decide(&g, &Budget::nodes(2_000_000))
        .expect("decide")
        .verdict
}

struct Instance {
    pos: Position,
    u: Cell,
    s1: CellSet,
    s2: CellSet,
    a: Cell,
    b: Cell,
}

fn instance(rng: &mut Rng) -> Option<Instance> {
    let u = Cell::at(1 + rng.below(3) as u8, 2);
    let mut black = CellSet::new();
    black.insert(u);
    let mut white = CellSet::new();
    match rng.below(4) {
        0 => {
            black.insert(Cell::at(
                rng.below(COLS as u64) as u8,
                rng.below(ROWS as u64) as u8,
            ));
        }
        1 => {
            white.insert(Cell::at(
                rng.below(COLS as u64) as u8,
                rng.below(ROWS as u64) as u8,
            ));
        }
        _ => {}
    }
    let pos = Position::new(board(), black, white).ok()?;
    // S1 around and above u, S2 below it, each with random holes; A and B in S1, mostly
    // next to u, where they can serve the lower area.
    let ur = u.coords().1;
    let (mut s1, mut s2) = (CellSet::new(), CellSet::new());
    for c in pos.empty_cells().iter() {
        let r = c.coords().1;
        if r <= ur && rng.below(100) < 85 {
            s1.insert(c);
        } else if r > ur && rng.below(100) < 95 {
            s2.insert(c);
        }
    }
    if s1.len() < 2 || s1.len() > 13 || s2.len() > 13 {
        return None;
    }
    let near: Vec<Cell> = s1
        .iter()
        .filter(|&c| pos.board().adjacent(c, u) || rng.below(4) == 0)
        .collect();
    if near.len() < 2 {
        return None;
    }
    let a = near[rng.below(near.len() as u64) as usize];
    let b = near[rng.below(near.len() as u64) as usize];
    (a != b).then_some(Instance {
        pos,
        u,
        s1,
        s2,
        a,
        b,
    })
}

#[test]
fn composed_verdicts_agree_with_the_search_of_the_union() {
    let (t, bot) = (Cell::border(Border::Top), Cell::border(Border::Bottom));
    let names = CellNames::plain(board(), Notation::Letters);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut instances, mut composed, mut needed, mut guaranteed) = (0, 0, 0, 0);
    while instances < 3000 {
        let Some(it) = instance(&mut rng) else {
            continue;
        };
        instances += 1;
        let (g1, g2) = (claim(t, it.u), claim(it.u, bot));
        if interface_holds(&it.pos, it.s1, &g1, it.a, it.b) != Some(true) {
            continue;
        }
        guaranteed += 1;
        if std::env::var("AB_DEBUG").is_ok() {
            eprintln!(
                "{}S2 {} A {} B {} plain {:?} assisted {:?}",
                it.pos.to_ascii(Notation::Letters),
                names.set(&it.s2),
                names.name(it.a),
                names.name(it.b),
                search(&it.pos, it.s2, &g2),
                assisted_holds(&it.pos, it.s2, &g2, it.a, it.b)
            );
        }
        if assisted_holds(&it.pos, it.s2, &g2, it.a, it.b) != Some(true) {
            continue;
        }
        // The composition's own side conditions (disjoint, discharged, pairs joined).
        let parts = [
            Part {
                name: "L1".into(),
                claim: g1.clone(),
                carrier: it.s1,
                guarantees: vec![(it.a, it.b)],
                assumes: Vec::new(),
            },
            Part {
                name: "L2".into(),
                claim: g2.clone(),
                carrier: it.s2,
                guarantees: Vec::new(),
                assumes: vec![(it.a, it.b)],
            },
        ];
        let goal = claim(t, bot);
        let union = it.s1 | it.s2;
        let bad = compose::check(&it.pos, &parts, &goal, union, &names);
        assert!(bad.is_empty(), "{bad:?}");
        composed += 1;
        assert_eq!(
            search(&it.pos, union, &goal),
            Verdict::Holds,
            "composition verified t - b but the search of the union refutes it:\n{}\nS1 = {}, S2 = {}, A = {}, B = {}",
            it.pos.to_ascii(Notation::Letters),
            names.set(&it.s1),
            names.set(&it.s2),
            names.name(it.a),
            names.name(it.b)
        );
        if search(&it.pos, it.s2, &g2) == Verdict::Fails {
            needed += 1;
            if std::env::var("AB_SHOW").is_ok() {
                eprintln!(
                    "{}S1 {} S2 {} A {} B {}",
                    it.pos.to_ascii(Notation::Letters),
                    names.set(&it.s1),
                    names.set(&it.s2),
                    names.name(it.a),
                    names.name(it.b)
                );
            }
        }
    }
    println!(
        "{instances} instances, {guaranteed} with the guarantee, {composed} composed (each confirmed by the search of the union), {needed} of them need the assumption"
    );
    assert!(composed >= 20, "too few composed instances: {composed}");
    assert!(
        needed >= 3,
        "too few instances need the assumption: {needed}"
    );
}

#[test]
fn the_assisted_game_is_weaker_than_a_free_b() {
    // u - b where the only links are B (interface) and c (carrier): without the assumption
    // White takes c; with it White still wins by taking B first (an event Black cannot
    // answer here), so the assisted claim is false — the assumption gives B only after A.
    let pos = Position::new(
        board(),
        [Cell::at(1, 3)].into_iter().collect(),
        CellSet::new(),
    )
    .unwrap();
    let u = Cell::at(1, 3);
    let bot = Cell::border(Border::Bottom);
    let mut s2 = CellSet::new();
    s2.insert(Cell::at(1, 4));
    let (a, b) = (Cell::at(3, 1), Cell::at(0, 4));
    assert_eq!(assisted_holds(&pos, s2, &claim(u, bot), a, b), Some(false));
    // With both links in the carrier it is an ordinary VC.
    s2.insert(Cell::at(0, 4));
    assert_eq!(search(&pos, s2, &claim(u, bot)), Verdict::Holds);
}

#[test]
fn several_lemmas_agree_with_the_search_of_the_union() {
    // Random positions with two or three Black stones; two or three parts with disjoint random
    // carriers, each a VC (confirmed by search) between Black cells (stones, t, b). Whenever
    // the composition's side conditions accept t - b, the search of the union must hold.
    let (t, bot) = (Cell::border(Border::Top), Cell::border(Border::Bottom));
    let names = CellNames::plain(board(), Notation::Letters);
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let (mut tried, mut composed) = (0, 0);
    while tried < 8000 {
        let mut black = CellSet::new();
        for _ in 0..2 + rng.below(2) {
            black.insert(Cell::at(
                rng.below(COLS as u64) as u8,
                rng.below(ROWS as u64) as u8,
            ));
        }
        let Ok(pos) = Position::new(board(), black, CellSet::new()) else {
            continue;
        };
        tried += 1;
        let ends: Vec<Cell> = black.iter().chain([t, bot]).collect();
        let k = 2 + rng.below(2) as usize;
        // A chain t = e0, e1, …, ek = b through stones sorted by row; part i gets the empty
        // cells between the rows of its ends (a shared row goes either way), with holes.
        let mut stones: Vec<Cell> = black.iter().collect();
        stones.sort_by_key(|c| c.coords().1);
        let mut chain = vec![t];
        for _ in 1..k {
            chain.push(stones[rng.below(stones.len() as u64) as usize]);
        }
        chain[1..].sort_by_key(|c| c.coords().1);
        chain.push(bot);
        let row = |c: Cell| -> i32 {
            if c == t {
                -1
            } else if c == bot {
                ROWS as i32
            } else {
                c.coords().1 as i32
            }
        };
        let mut carriers = vec![CellSet::new(); k];
        for c in pos.empty_cells().iter() {
            let r = c.coords().1 as i32;
            let fits: Vec<usize> = (0..k)
                .filter(|&i| row(chain[i]) <= r && r <= row(chain[i + 1]))
                .collect();
            if !fits.is_empty() && rng.below(10) != 0 {
                carriers[fits[rng.below(fits.len() as u64) as usize]].insert(c);
            }
        }
        let mut parts = Vec::new();
        for (i, s) in carriers.iter().enumerate() {
            let (mut a, mut b) = (chain[i], chain[i + 1]);
            if rng.below(5) == 0 {
                a = ends[rng.below(ends.len() as u64) as usize];
            }
            if rng.below(5) == 0 {
                b = ends[rng.below(ends.len() as u64) as usize];
            }
            if a == b || s.len() > 12 || search(&pos, *s, &claim(a, b)) != Verdict::Holds {
                break;
            }
            parts.push(Part {
                name: format!("L{i}"),
                claim: claim(a, b),
                carrier: *s,
                guarantees: Vec::new(),
                assumes: Vec::new(),
            });
        }
        if parts.len() < k {
            continue;
        }
        let union = carriers.iter().fold(CellSet::new(), |u, s| u | *s);
        let goal = claim(t, bot);
        if !compose::check(&pos, &parts, &goal, union, &names).is_empty() {
            continue;
        }
        composed += 1;
        assert_eq!(
            search(&pos, union, &goal),
            Verdict::Holds,
            "composed t - b refuted:\n{}{parts:?}",
            pos.to_ascii(Notation::Letters)
        );
    }
    println!("{tried} positions, {composed} compositions confirmed by the search of the union");
    assert!(composed >= 20, "too few compositions: {composed}");
}
