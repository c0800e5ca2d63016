//! Known facts of Hex, decided by `decide` and checked by the kernel (issue 2, "Must show").
//!
//! Every fact is stated once, for Black, and also checked
//! - transposed: cell (c, r) ↦ (r, c), Black ↔ White, t/b ↔ l/r (the long-diagonal
//!   reflection, docs/SEMANTICS.md "Board and conventions"), which must give the same verdict for White;
//! - rotated by 180° (keeps colours, t ↔ b, l ↔ r).
//!
//! The symmetries are computed here on cell names, independently of `board::Transform`.

use hexproof::board::{Board, Colour, Notation};
use hexproof::claim::{Claim, SubGame};
use hexproof::kernel;
use hexproof::local::{decide, decide_with, Budget, OracleParams, Verdict};
use hexproof::position::Position;
use std::time::Duration;

/// A claim about a position, as text (letters notation).
#[derive(Clone, Debug)]
struct Fact {
    cols: u8,
    rows: u8,
    black: String,
    white: String,
    /// Cell names, or `all` for every empty cell.
    carrier: String,
    claim: String,
    owner: Colour,
    owner_first: bool,
}

fn fact(board: &str, black: &str, carrier: &str, claim: &str) -> Fact {
    let b = Board::parse(board).unwrap();
    Fact {
        cols: b.cols(),
        rows: b.rows(),
        black: black.into(),
        white: String::new(),
        carrier: carrier.into(),
        claim: claim.into(),
        owner: Colour::Black,
        owner_first: false,
    }
}

impl Fact {
    fn semi(mut self) -> Fact {
        self.owner_first = true;
        self
    }

    fn white(mut self, white: &str) -> Fact {
        self.white = white.into();
        self
    }

    fn board(&self) -> Board {
        Board::new(self.cols as u32, self.rows as u32).unwrap()
    }

    /// The carrier without one cell.
    fn without(&self, cell: &str) -> Fact {
        let carrier: Vec<&str> = self
            .carrier
            .split_whitespace()
            .filter(|c| *c != cell)
            .collect();
        assert_eq!(
            carrier.len() + 1,
            self.carrier.split_whitespace().count(),
            "{cell} not in the carrier"
        );
        Fact {
            carrier: carrier.join(" "),
            ..self.clone()
        }
    }

    fn game(&self) -> SubGame {
        let board = self.board();
        let n = Notation::Letters;
        let position = Position::from_names(board, &self.black, &self.white, n).unwrap();
        let carrier = if self.carrier.trim() == "all" {
            position.empty_cells()
        } else {
            board
                .parse_cells(&self.carrier, n)
                .unwrap()
                .into_iter()
                .collect()
        };
        let claim = Claim::parse(&board, &self.claim, self.owner, self.owner_first, n).unwrap();
        SubGame::new(position, carrier, claim).unwrap()
    }

    fn mapped(
        &self,
        cols: u8,
        rows: u8,
        owner: Colour,
        cell: impl Fn(u8, u8) -> (u8, u8) + Copy,
        border: impl Fn(char) -> char + Copy,
    ) -> Fact {
        let names = |text: &str| -> String {
            if text.trim() == "all" {
                return "all".into();
            }
            text.split_whitespace()
                .map(|t| map_name(t, &cell, &border))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let claim = self
            .claim
            .split('|')
            .map(|pair| {
                pair.split('-')
                    .map(|e| map_name(e.trim(), &cell, &border))
                    .collect::<Vec<_>>()
                    .join(" - ")
            })
            .collect::<Vec<_>>()
            .join(" | ");
        let (black, white) = if owner == self.owner {
            (names(&self.black), names(&self.white))
        } else {
            (names(&self.white), names(&self.black))
        };
        Fact {
            cols,
            rows,
            black,
            white,
            carrier: names(&self.carrier),
            claim,
            owner,
            owner_first: self.owner_first,
        }
    }

    /// The long-diagonal reflection: (c, r) ↦ (r, c), Black ↔ White, t ↔ l, b ↔ r.
    fn transposed(&self) -> Fact {
        let border = |b: char| match b {
            't' => 'l',
            'b' => 'r',
            'l' => 't',
            'r' => 'b',
            x => x,
        };
        self.mapped(
            self.rows,
            self.cols,
            self.owner.opponent(),
            |c, r| (r, c),
            border,
        )
    }

    /// The 180° rotation: (c, r) ↦ (cols−1−c, rows−1−r), t ↔ b, l ↔ r.
    fn rotated(&self) -> Fact {
        let (cols, rows) = (self.cols, self.rows);
        let border = |b: char| match b {
            't' => 'b',
            'b' => 't',
            'l' => 'r',
            'r' => 'l',
            x => x,
        };
        self.mapped(
            cols,
            rows,
            self.owner,
            move |c, r| (cols - 1 - c, rows - 1 - r),
            border,
        )
    }

    fn describe(&self) -> String {
        format!(
            "hexproof verify --board {}x{} --black \"{}\" --white \"{}\" --for {} --first {} --carrier \"{}\" \"{}\"",
            self.cols,
            self.rows,
            self.black,
            self.white,
            self.owner,
            if self.owner_first { self.owner } else { self.owner.opponent() },
            self.carrier,
            self.claim
        )
    }
}

/// `d5` ↦ image name; borders by letter.
fn map_name(
    name: &str,
    cell: &impl Fn(u8, u8) -> (u8, u8),
    border: &impl Fn(char) -> char,
) -> String {
    let name = name.trim();
    if name.len() == 1 {
        return border(name.chars().next().unwrap()).to_string();
    }
    let col = name.as_bytes()[0] - b'a';
    let row: u8 = name[1..].parse::<u8>().unwrap() - 1;
    let (c, r) = cell(col, row);
    format!("{}{}", (b'a' + c) as char, r + 1)
}

fn budget() -> Budget {
    Budget {
        nodes: 2_000_000_000,
        time: Some(Duration::from_secs(300)),
        ..Budget::default()
    }
}

/// Decides one fact and checks the outcome's evidence.
fn verdict_of(f: &Fact) -> Verdict {
    let game = f.game();
    let o = decide(&game, &budget()).unwrap();
    match o.verdict {
        Verdict::Holds => {
            let cert = o.certificate.as_ref().expect("a certificate");
            assert!(
                kernel::check(&game, cert).is_ok(),
                "kernel rejects: {}",
                f.describe()
            );
            assert!(o.verified.is_some());
        }
        Verdict::Fails => {
            let carrier = game.carrier();
            let mut seen = hexproof::board::CellSet::EMPTY;
            for m in &o.refutation {
                assert!(
                    carrier.contains(m.cell) && seen.insert(m.cell),
                    "bad refutation: {}",
                    f.describe()
                );
            }
        }
        Verdict::Undecided => {}
    }
    o.verdict
}

/// Checks the fact, its transpose (for White) and its 180° rotation.
fn assert_fact(f: &Fact, expected: Verdict) {
    for (what, g) in [
        ("as stated", f.clone()),
        ("transposed", f.transposed()),
        ("rotated", f.rotated()),
    ] {
        assert_eq!(verdict_of(&g), expected, "{what}: {}", g.describe());
    }
}

/// Holds on the carrier, and fails on the carrier minus any one cell.
fn assert_minimal(f: &Fact) {
    assert_fact(f, Verdict::Holds);
    for cell in f.carrier.split_whitespace() {
        assert_fact(&f.without(cell), Verdict::Fails);
    }
}

// ---------------------------------------------------------------------------------------

#[test]
fn symmetries_map_names_as_expected() {
    let f = fact("7x5", "d5 a1", "c5 b5", "d5 - b | a1 - t").white("g2");
    let t = f.transposed();
    assert_eq!((t.cols, t.rows), (5, 7));
    assert_eq!(t.white, "e4 a1");
    assert_eq!(t.black, "b7");
    assert_eq!(t.carrier, "e3 e2");
    assert_eq!(t.claim, "e4 - r | a1 - l");
    assert_eq!(t.owner, Colour::White);
    let r = f.rotated();
    assert_eq!(r.black, "d1 g5");
    assert_eq!(r.carrier, "e1 f1");
    assert_eq!(r.claim, "d1 - t | g5 - b");
    // Twice is the identity.
    assert_eq!(t.transposed().carrier, f.carrier);
    assert_eq!(r.rotated().claim, f.claim);
}

/// Two stones with two common empty neighbours: a VC on exactly those two cells, in each of
/// the three bridge directions.
#[test]
fn bridge() {
    for (black, cells) in [
        ("b2 c3", ["c2", "b3"]), // (c, r)–(c+1, r+1)
        ("b3 d2", ["c2", "c3"]), // (c, r)–(c+2, r−1)
        ("c2 b4", ["b3", "c3"]), // (c, r)–(c−1, r+2)
    ] {
        let stones: Vec<&str> = black.split(' ').collect();
        let claim = format!("{} - {}", stones[0], stones[1]);
        let f = fact("5x5", black, &cells.join(" "), &claim);
        assert_minimal(&f);
        // One cell: a semi-connection, not a VC. None: not even that.
        assert_fact(&f.without(cells[0]).semi(), Verdict::Holds);
        assert_fact(
            &f.without(cells[0]).without(cells[1]).semi(),
            Verdict::Fails,
        );
        // A white stone on a bridge cell is the same as the cell missing.
        assert_fact(&f.without(cells[0]).white(cells[0]), Verdict::Fails);
    }
}

/// Adjacent stones are joined with an empty carrier.
#[test]
fn adjacent_stones() {
    assert_fact(&fact("5x5", "c3 d3", "", "c3 - d3"), Verdict::Holds);
    assert_fact(&fact("5x5", "c3 b4", "", "c3 - b4"), Verdict::Holds);
    // c3 and d2 are adjacent ((c+1, r−1)); c3 and d4 are not.
    assert_fact(&fact("5x5", "c3 d2", "", "c3 - d2"), Verdict::Holds);
    assert_fact(&fact("5x5", "c3 d4", "", "c3 - d4").semi(), Verdict::Fails);
}

/// A one-cell gap: a semi-connection and not a VC.
#[test]
fn one_cell_gap() {
    let f = fact("5x5", "c3 e3", "d3", "c3 - e3");
    assert_fact(&f, Verdict::Fails);
    assert_fact(&f.clone().semi(), Verdict::Holds);
    // A stone one cell from the edge: the same.
    let g = fact("5x5", "c2", "c1", "c2 - t");
    assert_fact(&g, Verdict::Fails);
    assert_fact(&g.semi(), Verdict::Holds);
}

/// Edge template II: the bridge to the edge.
#[test]
fn edge_template_ii() {
    assert_minimal(&fact("5x5", "c2", "c1 d1", "c2 - t"));
    assert_minimal(&fact("5x5", "c4", "b5 c5", "c4 - b"));
}

/// Edge template IIIa, the ziggurat (Noshita's trapezoid lemma): 8 empty cells.
#[test]
fn ziggurat() {
    let z = fact("7x7", "d5", "c5 b6 c6 d6 a7 b7 c7 d7", "d5 - b");
    assert_minimal(&z);
    // Its mirror image along the edge, (c, r) ↦ (10 − c − r, r), which fixes d5.
    let m = fact("7x7", "d5", "e5 c6 d6 e6 b7 c7 d7 e7", "d5 - b");
    assert_minimal(&m);
    // Written out on the top edge (the 180° rotation of `z`, also checked by `assert_fact`).
    assert_minimal(&fact("7x7", "d3", "e3 d2 e2 f2 d1 e1 f1 g1", "d3 - t"));
}

/// Edge template IVa (HexWiki IV1a): 19 empty cells, minimal.
#[test]
fn edge_template_iva() {
    // HexWiki coordinates [r, c] placed on the top edge with the stone on column b.
    let f = fact(
        "7x7",
        "b4",
        "c4 a3 b3 c3 d3 e3 a2 b2 c2 d2 e2 f2 a1 b1 c1 d1 e1 f1 g1",
        "b4 - t",
    );
    assert_eq!(f.carrier.split_whitespace().count(), 19);
    assert_minimal(&f);
}

/// Small empty boards: the first player wins (t - b, carrier = the whole board).
#[test]
fn empty_3x3_and_4x4_are_first_player_wins() {
    for n in ["3x3", "4x4"] {
        let f = fact(n, "", "all", "t - b");
        assert_fact(&f.clone().semi(), Verdict::Holds);
        assert_fact(&f, Verdict::Fails);
    }
}

/// The empty 5×5 board, both colours and both symmetries (the slowest fact here: 25-cell
/// carriers).
#[test]
fn empty_5x5_is_a_first_player_win() {
    let f = fact("5x5", "", "all", "t - b");
    assert_fact(&f.clone().semi(), Verdict::Holds);
    assert_fact(&f, Verdict::Fails);
}

/// Non-square boards: the player with the shorter distance (fewer rows to cross) wins even
/// moving second (a classical fact: on n×(n+1) boards the "short" side wins).
#[test]
fn non_square_boards_favour_the_short_side() {
    // 3 columns, 4 rows would make Black's t - b longer; here 4 columns × 3 rows: Black's
    // distance (3 rows) is shorter than White's (4 columns), so Black wins moving second.
    let f = fact("4x3", "", "all", "t - b");
    assert_fact(&f, Verdict::Holds);
    // And White on the same board loses even moving first.
    let w = Fact {
        owner: Colour::White,
        claim: "l - r".into(),
        owner_first: true,
        ..f.clone()
    };
    assert_fact(&w, Verdict::Fails);
}

/// Rule 9 of the search (the VC engine's connections as known sub-connections, each proved
/// again by its own search when the certificate is made): with the engine consulted at every
/// node, the ziggurat and IVa hold with certificates the kernel accepts, in all three
/// orientations, and fail on their carriers minus any one cell.
#[test]
fn templates_with_the_oracle_at_every_node() {
    let z = fact("7x7", "d5", "c5 b6 c6 d6 a7 b7 c7 d7", "d5 - b");
    let iva = fact(
        "7x7",
        "b4",
        "c4 a3 b3 c3 d3 e3 a2 b2 c2 d2 e2 f2 a1 b1 c1 d1 e1 f1 g1",
        "b4 - t",
    );
    let decide_everywhere = |f: &Fact| {
        let game = f.game();
        let o = decide_with(&game, &budget(), &OracleParams::EVERYWHERE).unwrap();
        if o.verdict == Verdict::Holds {
            let cert = o.certificate.as_ref().expect("a certificate");
            assert!(kernel::check(&game, cert).is_ok(), "{}", f.describe());
        }
        o
    };
    for f in [z, iva] {
        for g in [f.clone(), f.transposed(), f.rotated()] {
            let o = decide_everywhere(&g);
            assert_eq!(o.verdict, Verdict::Holds, "{}", g.describe());
            assert!(o.stats.oracle_calls > 0, "the oracle was consulted");
        }
        let cells: Vec<&str> = f.carrier.split_whitespace().collect();
        for skip in 0..cells.len() {
            let carrier: Vec<&str> = cells
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != skip)
                .map(|(_, c)| *c)
                .collect();
            let g = Fact {
                carrier: carrier.join(" "),
                ..f.clone()
            };
            assert_eq!(
                decide_everywhere(&g).verdict,
                Verdict::Fails,
                "{}",
                g.describe()
            );
        }
    }
}

/// IV1a and the ziggurat (both hold) and the ziggurat minus a cell (fails): the small facts
/// that pin each optional rule of the search to the plain verdicts.
fn iva_ziggurat_and_short() -> [(Fact, Verdict); 3] {
    let iva = fact(
        "7x7",
        "b4",
        "c4 a3 b3 c3 d3 e3 a2 b2 c2 d2 e2 f2 a1 b1 c1 d1 e1 f1 g1",
        "b4 - t",
    );
    let z = fact("7x7", "d5", "c5 b6 c6 d6 a7 b7 c7 d7", "d5 - b");
    let short = fact("7x7", "d5", "c5 b6 c6 d6 a7 b7 c7", "d5 - b");
    [
        (iva, Verdict::Holds),
        (z, Verdict::Holds),
        (short, Verdict::Fails),
    ]
}

/// The restart of `decide_with` (`OracleParams::first_nodes`): when the search with the
/// oracle is still undecided after that many nodes, it starts again without it on the rest of
/// the budget. With one node for the first phase, IVa and the ziggurat still hold and the
/// ziggurat minus a cell still fails (after the restart, with the nodes of both phases
/// counted).
#[test]
fn restart_without_the_oracle() {
    let facts = iva_ziggurat_and_short();
    let params = OracleParams {
        first_nodes: 1,
        ..OracleParams::EVERYWHERE
    };
    for (f, want) in &facts {
        let want = *want;
        let game = f.game();
        let plain = decide_with(&game, &budget(), &OracleParams::OFF).unwrap();
        let o = decide_with(&game, &budget(), &params).unwrap();
        assert_eq!(o.verdict, want, "{}", f.describe());
        if o.verdict == Verdict::Holds {
            let cert = o.certificate.as_ref().expect("a certificate");
            assert!(kernel::check(&game, cert).is_ok(), "{}", f.describe());
        }
        assert_eq!(o.verdict, plain.verdict, "{}", f.describe());
        if want == Verdict::Fails {
            // Failing takes more than one node, so the restart happened: its search is the
            // plain one, plus the first phase's node or two.
            let extra = o.stats.nodes - plain.stats.nodes;
            assert!((1..=2).contains(&extra), "{}: {extra}", f.describe());
        }
    }
}

/// Rule 11 of the search (iterative widening by node budgets) at every node with the
/// smallest budgets, with the oracle off and on: IV1a and the ziggurat still hold with
/// kernel-checked certificates, the ziggurat minus a cell still fails, the node budgets did
/// stop child searches (so the rule really ran), and the verdicts equal rule 11 switched off.
#[test]
fn rule_11_widening_keeps_verdicts() {
    let facts = iva_ziggurat_and_short();
    for base in [OracleParams::OFF, OracleParams::EVERYWHERE] {
        let widened = OracleParams {
            widen_plies: 1_000,
            widen_first: 1,
            ..base
        };
        let plain = OracleParams {
            widen_plies: 0,
            ..base
        };
        let mut stops = 0;
        for (f, want) in &facts {
            let want = *want;
            let game = f.game();
            let o = decide_with(&game, &budget(), &widened).unwrap();
            assert_eq!(o.verdict, want, "{}", f.describe());
            let p = decide_with(&game, &budget(), &plain).unwrap();
            assert_eq!(p.verdict, want, "{}", f.describe());
            assert_eq!(p.stats.widen_stops, 0, "{}", f.describe());
            if want == Verdict::Holds {
                let cert = o.certificate.as_ref().expect("a certificate");
                assert!(kernel::check(&game, cert).is_ok(), "{}", f.describe());
            }
            stops += o.stats.widen_stops;
        }
        assert!(stops > 0, "rule 11 never stopped a child search");
    }
}

/// VI2a's hard intrusion (BENCHMARKS.md, "Rule 11 … and VI2a's hard intrusion"): on the
/// bottom edge of 11×11, after White's h7 (template cell [5, 1], touching both stones) and
/// Black's g7 ([5, 2]), Black still connects (White to move, 35 cells). Decided with rule 11
/// at the first 3 plies and the oracle on throughout with `LARGE_SEEDS`, as
/// `WIDEN=3 ONLY=g7 cargo run --release --example intrusions -- VI2a 60000000 w:h7` runs it:
/// holds in 27 654 175 nodes, 85 s CPU (2–10 minutes of wall time on the loaded 2-core
/// machine, 0.55 GB). Slow, so ignored: `cargo test --release --test known_facts -- --ignored
/// vi2a_after_h7_g7`.
#[test]
#[ignore]
fn vi2a_after_h7_g7_holds() {
    use hexproof::board::{Border, Notation};
    use hexproof::edge_template::EdgeTemplate;
    use hexproof::local::oracle::LARGE_SEEDS;
    let all = EdgeTemplate::parse_list(include_str!("../fixtures/edge-templates-hexwiki.json"))
        .expect("the fixture parses");
    let t = all.iter().find(|t| t.name == "VI2a").expect("VI2a");
    let g = t.place_fitting(Border::Bottom).expect("it fits");
    let mut pos = g.position().clone();
    let mut carrier = g.carrier();
    for (colour, name) in [(Colour::White, "h7"), (Colour::Black, "g7")] {
        let c = pos.board().parse_cell(name, Notation::Letters).unwrap();
        assert!(carrier.contains(c), "{name} is a carrier cell");
        pos.play(colour, c).unwrap();
        carrier.remove(c);
    }
    let game = SubGame::new(pos, carrier, g.claim().clone()).unwrap();
    let params = OracleParams {
        first_nodes: u64::MAX,
        seeds: &LARGE_SEEDS,
        widen_plies: 3,
        ..OracleParams::default()
    };
    // VI2A_NODES=N overrides the budget (a smaller one checks the set-up quickly; the
    // assertion then fails with the verdict printed).
    let nodes = std::env::var("VI2A_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60_000_000);
    let budget = Budget {
        nodes,
        time: None,
        max_entries: 4_000_000,
        stop: None,
    };
    let o = decide_with(&game, &budget, &params).unwrap();
    println!(
        "{:?} {} nodes, {} empty cells",
        o.verdict,
        o.stats.nodes,
        game.carrier().len()
    );
    assert_eq!(o.verdict, Verdict::Holds);
    let cert = o.certificate.as_ref().expect("a certificate");
    assert!(kernel::check(&game, cert).is_ok());
}
