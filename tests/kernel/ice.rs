//! The certified ICE pattern library (templates/ice.json, docs/ice.md): every pattern is
//! re-checked by the trusted checker, tampered patterns are refused (per class), the file is
//! exactly what the generator writes, every placement on real boards keeps its claim, and
//! on random small positions each placed claim agrees with an exact game search.

use hexproof::board::{Board, Cell, CellSet, Colour};
use hexproof::ice::generate::{library, DEFAULT};
use hexproof::ice::local::Local;
use hexproof::ice::{IceFile, Pattern, PatternClass, Placement, Placements};
use hexproof::position::Position;
use hexproof::trusted::ice::{check_file, check_pattern};
use proptest::prelude::*;
use std::collections::HashMap;

fn embedded() -> IceFile {
    IceFile::embedded().expect("the embedded library parses")
}

#[test]
fn every_pattern_of_the_library_is_verified() {
    let r = check_file(hexproof::ice::EMBEDDED).expect("parses");
    assert!(r.refused.is_empty(), "{:?}", r.refused);
    for (class, n) in &r.accepted {
        assert!(*n > 0, "no {} pattern", class.name());
    }
    // Captured sets of three and four cells: the ones the solver's pair rule misses.
    let big = r
        .file
        .patterns
        .iter()
        .filter(|p| p.class == PatternClass::Captured && p.set.len() >= 3)
        .count();
    assert!(big >= 20, "{big}");
    for c in &r.file.classes {
        assert!(!c.completeness.is_empty());
    }
}

#[test]
fn the_library_is_the_generator_output() {
    // Not a hand-typed list: regenerating gives the file, pattern for pattern.
    let (generated, _) = library(&DEFAULT);
    assert_eq!(generated, embedded());
}

fn refused(p: &Pattern) -> bool {
    check_pattern(p).is_err()
}

#[test]
fn tampered_patterns_are_refused_in_every_class() {
    let f = embedded();
    let mut tampered = HashMap::new();
    for p in &f.patterns {
        assert!(!refused(p));
        // A changed cell: each required stone removed (the patterns are stone-minimal, so
        // each removal breaks the proof) ...
        for i in 0..p.black.len() {
            let mut q = p.clone();
            q.black.remove(i);
            assert!(refused(&q), "{p:?} without black {i}");
            *tampered.entry(p.class).or_insert(0) += 1;
        }
        for i in 0..p.white.len() {
            let mut q = p.clone();
            q.white.remove(i);
            assert!(refused(&q), "{p:?} without white {i}");
            *tampered.entry(p.class).or_insert(0) += 1;
        }
        // ... a stone on a cell of the set, a set cell off the instance, a far stone.
        let mut q = p.clone();
        q.black.push(p.set[0].clone());
        assert!(refused(&q));
        let mut q = p.clone();
        q.set[0] = "z9".into();
        assert!(refused(&q));
        let mut q = p.clone();
        q.white.push("i9".into());
        assert!(refused(&q), "a stone outside the ring");
        match p.class {
            PatternClass::Captured => {
                // A wrong reply: the opponent's own cell, a cell outside the set, a missing
                // reply, an extra one.
                for (k, _) in p.replies.iter() {
                    let last: usize = k.rsplit('.').next().unwrap().parse().unwrap();
                    let mut q = p.clone();
                    q.replies.insert(k.clone(), last);
                    assert!(refused(&q), "{p:?}: reply {k} -> its own cell");
                    let mut q = p.clone();
                    q.replies.insert(k.clone(), p.set.len());
                    assert!(refused(&q), "{p:?}: reply {k} out of the set");
                    let mut q = p.clone();
                    q.replies.remove(k);
                    assert!(refused(&q), "{p:?}: reply {k} missing");
                }
                let mut q = p.clone();
                q.replies.insert("9.9".into(), 0);
                assert!(refused(&q), "an unused reply");
            }
            PatternClass::Vulnerable => {
                let mut q = p.clone();
                q.killer = None;
                assert!(refused(&q));
                let mut q = p.clone();
                q.killer = Some(p.set[0].clone());
                assert!(refused(&q));
            }
            PatternClass::Dead => {
                let mut q = p.clone();
                q.killer = Some(p.set[0].clone());
                assert!(refused(&q));
            }
        }
    }
    for c in PatternClass::ALL {
        assert!(tampered.get(&c).copied().unwrap_or(0) > 10, "{c:?}");
    }
    // Some captured reply, changed to another empty cell of the set, breaks the strategy.
    let wrong_reply = f.patterns.iter().any(|p| {
        p.replies.iter().any(|(k, &r)| {
            (0..p.set.len()).any(|alt| {
                let mut q = p.clone();
                q.replies.insert(k.clone(), alt);
                alt != r && !k.split('.').any(|x| x == alt.to_string()) && refused(&q)
            })
        })
    });
    assert!(wrong_reply);
}

fn all_placements(board: &Board) -> Placements {
    Placements::new(board, &embedded().patterns, |_| true)
}

/// The claim of a placement, re-proved on the real board with only its stones.
fn claim_holds(local: &Local, p: &Placement) -> bool {
    let set: Vec<Cell> = p.set.iter().collect();
    match p.class {
        PatternClass::Dead => local.dead(p.black, p.white, p.set),
        PatternClass::Vulnerable => {
            let (mut b, mut w) = (p.black, p.white);
            match p.colour.opponent() {
                Colour::Black => b.insert(p.killer.unwrap()),
                Colour::White => w.insert(p.killer.unwrap()),
            };
            local.dead(b, w, p.set)
        }
        PatternClass::Captured => local.capture(p.black, p.white, &set, p.colour).is_some(),
    }
}

#[test]
fn every_placement_keeps_its_claim_on_real_boards() {
    for (c, r) in [(5, 5), (7, 7), (8, 8), (6, 9)] {
        let board = Board::new(c, r).unwrap();
        let local = Local::new(board);
        let pl = all_placements(&board);
        assert!(pl.all.len() > 100, "{c}x{r}: {}", pl.all.len());
        for p in &pl.all {
            assert!(claim_holds(&local, p), "{c}x{r}: {p:?}");
        }
        // Both colours' claims are placed.
        for colour in [Colour::Black, Colour::White] {
            assert!(pl.all.iter().any(|p| p.class == PatternClass::Captured
                && p.colour == colour
                && p.set.len() >= 3));
        }
    }
}

/// Exact value: does `to_move` win?
fn wins(
    pos: &Position,
    to_move: Colour,
    memo: &mut HashMap<(CellSet, CellSet, Colour), bool>,
) -> bool {
    if let Some(w) = pos.winner() {
        return w == to_move;
    }
    let key = (
        pos.stones(Colour::Black),
        pos.stones(Colour::White),
        to_move,
    );
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut win = false;
    for c in pos.empty_cells().iter() {
        let mut p = pos.clone();
        p.play(to_move, c).unwrap();
        if !wins(&p, to_move.opponent(), memo) {
            win = true;
            break;
        }
    }
    memo.insert(key, win);
    win
}

fn with(pos: &Position, cells: CellSet, colour: Colour) -> Position {
    let mut p = pos.clone();
    for c in cells.iter() {
        p.play(colour, c).unwrap();
    }
    p
}

#[test]
fn placed_claims_agree_with_exact_search_on_small_boards() {
    let boards = [
        Board::new(5, 5).unwrap(),
        Board::new(4, 5).unwrap(),
        Board::new(5, 4).unwrap(),
    ];
    let pls: Vec<Placements> = boards.iter().map(all_placements).collect();
    let checked: std::cell::RefCell<HashMap<PatternClass, u32>> = Default::default();
    proptest!(ProptestConfig { cases: 160, ..ProptestConfig::default() }, |(
        b in 0usize..3,
        which in any::<prop::sample::Index>(),
        extra in prop::collection::vec((0u8..5, 0u8..5, any::<bool>()), 0..12),
    )| {
        let board = boards[b];
        let pl = &pls[b];
        prop_assume!(!pl.all.is_empty());
        let p = pl.all[which.index(pl.all.len())];
        let (mut black, mut white) = (p.black, p.white);
        let mut keep = p.set;
        if let Some(k) = p.killer { keep.insert(k); }
        for (c, r, is_black) in extra {
            if let Some(cell) = board.cell(c as i32, r as i32) {
                if !keep.contains(cell) && !black.contains(cell) && !white.contains(cell) {
                    if is_black { black.insert(cell); } else { white.insert(cell); }
                }
            }
        }
        let pos = Position::new(board, black, white).unwrap();
        prop_assume!(pos.winner().is_none());
        prop_assume!(pos.empty_cells().len() <= 13);
        let mut memo = HashMap::new();
        for to_move in [Colour::Black, Colour::White] {
            match p.class {
                PatternClass::Captured => {
                    let v = wins(&pos, to_move, &mut memo);
                    let f = with(&pos, p.set, p.colour);
                    prop_assert_eq!(wins(&f, to_move, &mut memo), v, "{:?} {:?}", p, to_move);
                }
                PatternClass::Dead => {
                    let a = with(&pos, p.set, Colour::Black);
                    let z = with(&pos, p.set, Colour::White);
                    prop_assert_eq!(wins(&a, to_move, &mut memo), wins(&z, to_move, &mut memo), "{:?}", p);
                }
                PatternClass::Vulnerable => {
                    let k = with(&pos, CellSet::single(p.killer.unwrap()), p.colour.opponent());
                    let a = with(&k, p.set, Colour::Black);
                    let z = with(&k, p.set, Colour::White);
                    prop_assert_eq!(wins(&a, to_move, &mut memo), wins(&z, to_move, &mut memo), "{:?}", p);
                }
            }
        }
        *checked.borrow_mut().entry(p.class).or_insert(0) += 1;
    });
    let checked = checked.into_inner();
    for c in PatternClass::ALL {
        assert!(
            checked.get(&c).copied().unwrap_or(0) >= 5,
            "{c:?}: {checked:?}"
        );
    }
}

#[test]
fn bad_library_files_are_clear_errors() {
    assert!(check_file("{").is_err());
    assert!(
        check_file(r#"{"format":"other","instance":"9x9","classes":[],"patterns":[]}"#).is_err()
    );
    assert!(check_file(
        r#"{"format":"hexproof-ice-1","instance":"7x7","classes":[],"patterns":[]}"#
    )
    .is_err());
}

#[test]
fn solver_fill_in_with_installed_patterns_keeps_the_winner() {
    use hexproof::dfpn::inferior::{fill_in, InferiorRules};
    use hexproof::dfpn::{solve, SolveParams, Winner};
    // Install the checked library (as `hexproof solve` does), then on 5×5 positions holding
    // a placed captured set of 3–4 cells plus random stones: the fill-in uses the pattern,
    // keeps the exact value, and the solver's winner is the exact one.
    hexproof::ice::install(hexproof::trusted::ice::accepted_patterns(
        hexproof::ice::EMBEDDED,
    ));
    let board = Board::new(5, 5).unwrap();
    let big = Placements::new(&board, &embedded().patterns, |p| {
        p.class == PatternClass::Captured && p.set.len() >= 3
    });
    assert!(!big.all.is_empty());
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut used, mut solved) = (0, 0);
    for _ in 0..60 {
        let p = big.all[(next() % big.all.len() as u64) as usize];
        let (mut black, mut white) = (p.black, p.white);
        for cell in board.cells().iter() {
            if p.set.contains(cell) || black.contains(cell) || white.contains(cell) {
                continue;
            }
            match next() % 4 {
                0 => black.insert(cell),
                1 => white.insert(cell),
                _ => false,
            };
        }
        let pos = Position::new(board, black, white).unwrap();
        if pos.winner().is_some() || pos.empty_cells().len() > 13 {
            continue;
        }
        let mut memo = HashMap::new();
        for to_move in [Colour::Black, Colour::White] {
            let v = wins(&pos, to_move, &mut memo);
            let mut f = pos.clone();
            let filled = fill_in(&mut f, InferiorRules::ALL, to_move);
            used += usize::from(!filled.patterns.is_empty());
            assert_eq!(wins(&f, to_move, &mut memo), v, "{pos:?} {to_move}");
            let out = solve(&pos, to_move, &SolveParams::default()).unwrap();
            let w = match (v, to_move) {
                (true, Colour::Black) | (false, Colour::White) => Winner::Black,
                _ => Winner::White,
            };
            assert_eq!(out.winner, w, "{pos:?} {to_move}");
            solved += 1;
        }
    }
    assert!(used >= 5 && solved >= 20, "{used} {solved}");
}
