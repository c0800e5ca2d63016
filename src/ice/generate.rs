//! Generating the library: every set shape of a size (fixed polyhexes), placed on the
//! instance board in the interior and against each kind of border at depth 0 (S touches the
//! border) and 1 (S on the second row), with every colouring of its ring (each ring cell
//! empty, Black or White; at most [`Spec::max_stones`] stones), in increasing number of
//! stones. A colouring whose claim the exact local test proves ([`super::local`]) and that
//! contains no smaller proved colouring of the same set is **stone-minimal** and kept
//! (claims are monotone in added stones, so nothing else is lost); a captured set that the
//! solver's own rules already fill (dead cells and captured pairs, and for four cells
//! captured triples, iterated inside the set) is dropped as implied. Patterns equal up to
//! the symmetries of their frame ([`super::symmetry`]) are kept once.

use super::local::Local;
use super::record::{instance_board, name, ClassNote, IceFile, Pattern, PatternClass, FORMAT};
use crate::board::{Cell, CellSet, Colour};
use std::collections::{BTreeMap, BTreeSet, HashSet};

type Xy = (i32, i32);

/// What to enumerate for one class.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The class.
    pub class: PatternClass,
    /// The size of S.
    pub size: usize,
    /// The most stones in a colouring of the ring (`usize::MAX`: all).
    pub max_stones: usize,
}

/// The library's default classes (docs/ice.md).
pub const DEFAULT: [Spec; 5] = [
    Spec {
        class: PatternClass::Dead,
        size: 1,
        max_stones: usize::MAX,
    },
    Spec {
        class: PatternClass::Vulnerable,
        size: 1,
        max_stones: usize::MAX,
    },
    Spec {
        class: PatternClass::Captured,
        size: 2,
        max_stones: usize::MAX,
    },
    Spec {
        class: PatternClass::Captured,
        size: 3,
        max_stones: usize::MAX,
    },
    Spec {
        class: PatternClass::Captured,
        size: 4,
        max_stones: 5,
    },
];

/// The fixed polyhexes of `n` cells, translated to non-negative coordinates with both
/// minima 0.
pub fn shapes(n: usize) -> Vec<Vec<Xy>> {
    const D: [Xy; 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
    let norm = |s: &BTreeSet<Xy>| -> Vec<Xy> {
        let mc = s.iter().map(|x| x.0).min().unwrap_or(0);
        let mr = s.iter().map(|x| x.1).min().unwrap_or(0);
        let mut v: Vec<Xy> = s.iter().map(|&(c, r)| (c - mc, r - mr)).collect();
        v.sort();
        v
    };
    let mut level: BTreeSet<Vec<Xy>> = BTreeSet::from([vec![(0, 0)]]);
    for _ in 1..n {
        let mut next = BTreeSet::new();
        for s in &level {
            let set: BTreeSet<Xy> = s.iter().copied().collect();
            for &(c, r) in s {
                for (dc, dr) in D {
                    let mut t = set.clone();
                    if t.insert((c + dc, r + dr)) {
                        next.insert(norm(&t));
                    }
                }
            }
        }
        level = next;
    }
    level.into_iter().collect()
}

/// Where a shape goes on the instance: the interior, or the top (Black's) or left (White's)
/// border at depth 0 or 1. Black's claims only: White's are their images under the
/// colour-exchanging transpose.
const PLACES: [(&str, i32, i32); 5] = [
    ("interior", 3, 3),
    ("top0", 3, 0),
    ("top1", 3, 1),
    ("left0", 0, 3),
    ("left1", 1, 3),
];

/// The symmetries of a frame, on instance coordinates, each followed by a normalising
/// translation (the key of a pattern up to them).
fn canonical_key(
    frame: &str,
    set: &[Cell],
    black: CellSet,
    white: CellSet,
    killer: Option<Cell>,
) -> Vec<Vec<Xy>> {
    let xy = |c: Cell| {
        let (x, y) = c.coords();
        (x as i32, y as i32)
    };
    let parts: Vec<Vec<Xy>> = vec![
        set.iter().map(|&c| xy(c)).collect(),
        black.iter().map(xy).collect(),
        white.iter().map(xy).collect(),
        killer.iter().map(|&c| xy(c)).collect(),
    ];
    let maps: Vec<Box<dyn Fn(Xy) -> Xy>> = match frame {
        "interior" => {
            let mut v: Vec<Box<dyn Fn(Xy) -> Xy>> = Vec::new();
            for k in 0..6 {
                let rot = move |mut p: Xy| {
                    for _ in 0..k {
                        p = (-p.1, p.0 + p.1);
                    }
                    p
                };
                v.push(Box::new(rot));
                v.push(Box::new(move |p: Xy| {
                    let q = rot(p);
                    (q.1, q.0)
                }));
            }
            v
        }
        f if f.starts_with("top") => vec![Box::new(|p| p), Box::new(|(c, r): Xy| (-c - r, r))],
        _ => vec![Box::new(|p| p), Box::new(|(c, r): Xy| (c, -c - r))],
    };
    let mut best: Option<Vec<Vec<Xy>>> = None;
    for m in maps {
        let mapped: Vec<Vec<Xy>> = parts
            .iter()
            .map(|v| v.iter().map(|&p| m(p)).collect())
            .collect();
        let mc = mapped[0].iter().map(|x| x.0).min().unwrap_or(0);
        let mr = mapped[0].iter().map(|x| x.1).min().unwrap_or(0);
        let (tc, tr) = match frame {
            "interior" => (mc, mr),
            f if f.starts_with("top") => (mc, 0),
            _ => (0, mr),
        };
        let key: Vec<Vec<Xy>> = mapped
            .into_iter()
            .map(|v| {
                let mut v: Vec<Xy> = v.into_iter().map(|(c, r)| (c - tc, r - tr)).collect();
                v.sort();
                v
            })
            .collect();
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    }
    best.unwrap_or_default()
}

/// Counts of the generation, per class and size.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Colourings tested.
    pub tested: u64,
    /// Stone-minimal colourings proved.
    pub minimal: u64,
    /// Of those, dropped as implied by the solver's own rules.
    pub implied: u64,
    /// Kept after symmetry.
    pub kept: u64,
}

/// True when the solver's own rules (dead cells, captured pairs and, for four cells,
/// captured triples), iterated inside `set`, fill all of it.
fn implied(local: &Local, mut black: CellSet, mut white: CellSet, set: &[Cell], p: Colour) -> bool {
    let mut empty: Vec<Cell> = set.to_vec();
    loop {
        let before = empty.len();
        let mut i = 0;
        while i < empty.len() {
            if local.dead(black, white, CellSet::single(empty[i])) {
                let c = empty.remove(i);
                match p {
                    Colour::Black => white.insert(c),
                    Colour::White => black.insert(c),
                };
            } else {
                i += 1;
            }
        }
        let n = empty.len();
        'sub: for k in 2..n.min(set.len() - 1) + 1 {
            if k >= set.len() {
                break;
            }
            for sub in subsets(&empty, k) {
                // The solver's pair rule takes adjacent pairs only.
                if k == 2 && !local.nbrs(sub[0]).contains(sub[1]) {
                    continue;
                }
                if local.capture(black, white, &sub, p).is_some() {
                    for c in &sub {
                        match p {
                            Colour::Black => black.insert(*c),
                            Colour::White => white.insert(*c),
                        };
                    }
                    empty.retain(|c| !sub.contains(c));
                    break 'sub;
                }
            }
        }
        if empty.is_empty() {
            return true;
        }
        if empty.len() == before {
            return false;
        }
    }
}

fn subsets(v: &[Cell], k: usize) -> Vec<Vec<Cell>> {
    if k == 0 {
        return vec![vec![]];
    }
    if v.len() < k {
        return vec![];
    }
    let mut out = subsets(&v[1..], k - 1);
    for s in out.iter_mut() {
        s.insert(0, v[0]);
    }
    out.extend(subsets(&v[1..], k));
    out
}

/// The patterns of one spec.
pub fn generate(spec: Spec, counts: &mut Counts) -> Vec<Pattern> {
    let board = instance_board();
    let local = Local::new(board);
    let mut out = Vec::new();
    let mut seen: HashSet<Vec<Vec<Xy>>> = HashSet::new();
    let places: &[(&str, i32, i32)] = if spec.class == PatternClass::Dead {
        &PLACES[..3] // dead claims have no colour: the left border is the top's image
    } else {
        &PLACES
    };
    for shape in shapes(spec.size) {
        for &(frame, dc, dr) in places {
            let set: Vec<Cell> = shape
                .iter()
                .map(|&(c, r)| board.cell(c + dc, r + dr).expect("on the instance"))
                .collect();
            let s: CellSet = set.iter().copied().collect();
            let ring: Vec<Cell> = local.ring(s).iter().filter(|c| !c.is_border()).collect();
            let killers: Vec<Option<Cell>> = if spec.class == PatternClass::Vulnerable {
                ring.iter().map(|&k| Some(k)).collect()
            } else {
                vec![None]
            };
            for killer in killers {
                let free: Vec<Cell> = ring
                    .iter()
                    .copied()
                    .filter(|&c| Some(c) != killer)
                    .collect();
                let mut found: Vec<(CellSet, CellSet)> = Vec::new();
                for k in 0..=free.len().min(spec.max_stones) {
                    for stones in subsets(&free, k) {
                        for mask in 0u32..(1 << k) {
                            let (mut b, mut w) = (CellSet::EMPTY, CellSet::EMPTY);
                            for (i, &c) in stones.iter().enumerate() {
                                if mask >> i & 1 == 1 {
                                    w.insert(c);
                                } else {
                                    b.insert(c);
                                }
                            }
                            if found
                                .iter()
                                .any(|(fb, fw)| fb.is_subset(&b) && fw.is_subset(&w))
                            {
                                continue;
                            }
                            counts.tested += 1;
                            let mut replies = BTreeMap::new();
                            let ok = match spec.class {
                                PatternClass::Dead => local.dead(b, w, s),
                                PatternClass::Vulnerable => {
                                    let mut w2 = w;
                                    w2.insert(killer.expect("a killer"));
                                    local.dead(b, w2, s)
                                }
                                PatternClass::Captured => {
                                    match local.capture(b, w, &set, Colour::Black) {
                                        Some(r) => {
                                            replies = r;
                                            true
                                        }
                                        None => false,
                                    }
                                }
                            };
                            if !ok {
                                continue;
                            }
                            found.push((b, w));
                            counts.minimal += 1;
                            let drop = match spec.class {
                                PatternClass::Vulnerable => local.dead(b, w, s),
                                PatternClass::Captured => {
                                    spec.size >= 3 && implied(&local, b, w, &set, Colour::Black)
                                }
                                PatternClass::Dead => false,
                            };
                            if drop {
                                counts.implied += 1;
                                continue;
                            }
                            if !seen.insert(canonical_key(frame, &set, b, w, killer)) {
                                continue;
                            }
                            counts.kept += 1;
                            out.push(Pattern {
                                class: spec.class,
                                colour: Colour::Black,
                                set: set.iter().map(|&c| name(c)).collect(),
                                black: b.iter().map(name).collect(),
                                white: w.iter().map(name).collect(),
                                killer: killer.map(name),
                                replies,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// The completeness statement of a spec.
pub fn completeness(spec: Spec) -> String {
    let stones = if spec.max_stones == usize::MAX {
        "any number of stones".to_string()
    } else {
        format!("at most {} stones", spec.max_stones)
    };
    let what = match spec.class {
        PatternClass::Dead => "every dead cell".to_string(),
        PatternClass::Vulnerable => {
            "every vulnerable cell with its killer in the cell's ring".to_string()
        }
        PatternClass::Captured => format!("every captured set of {} cells", spec.size),
    };
    format!(
        "{what} whose claim the neighbourhood-clique criterion proves from the stones of its radius-1 ring ({stones}), in the interior and against each border at depth 0 and 1, up to symmetry, as stone-minimal patterns{}",
        if spec.class == PatternClass::Captured && spec.size >= 3 {
            "; sets that dead cells and smaller captured sets inside the set already fill are left out"
        } else {
            ""
        }
    )
}

/// The whole library for `specs`, with counts.
pub fn library(specs: &[Spec]) -> (IceFile, Vec<(Spec, Counts)>) {
    let mut patterns = Vec::new();
    let mut notes: Vec<ClassNote> = Vec::new();
    let mut all_counts = Vec::new();
    for &spec in specs {
        let mut c = Counts::default();
        patterns.extend(generate(spec, &mut c));
        match notes.iter_mut().find(|n| n.class == spec.class) {
            Some(n) => {
                n.sizes.push(spec.size);
                n.completeness.push_str(" | ");
                n.completeness.push_str(&completeness(spec));
            }
            None => notes.push(ClassNote {
                class: spec.class,
                sizes: vec![spec.size],
                completeness: completeness(spec),
            }),
        }
        all_counts.push((spec, c));
    }
    (
        IceFile {
            format: FORMAT.into(),
            instance: format!("{0}x{0}", super::INSTANCE),
            classes: notes,
            patterns,
        },
        all_counts,
    )
}
