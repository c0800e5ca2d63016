//! The refutation search of `hexproof yang check` (docs/yang.md, "The refutation search"):
//! does the strategy *as written* lose a game in which every Black move is its own reply?
//!
//! A seeded attacker plays White against the strategy's [`Follower`]. White plays only
//! trigger cells of active patterns, so every Black move is the reply of a triggered branch
//! (no free move). The attacker is guided by what the file's structure says against itself,
//! not by any line: the branches whose sub-parts hold one of their own trigger cells
//! ([`YangErrorKind::HoldsTrigger`], the "trigger slips") are its targets; a trigger that is
//! such a held cell weighs most, then any trigger inside an instance placed below such a slip
//! (the follower's `tainted_at`), then the triggers of branches whose sub-patterns lead to a
//! target pattern, then the rest. A game stops where the data has no answer (the follower
//! writes a [`super::follow::Note`]: the reply's cell is occupied or outside its parent) or
//! where White has won on the board.
//!
//! There the whole-board solver (DFPN with the VC engine, [`crate::dfpn`]) is asked, within
//! a node budget, whether Black to move has lost. When it has, the line is walked back with
//! the solver, one Black move at a time, to the first Black move after which the position is
//! lost while before it Black won: the losing reply. Its position (White to move) is solved
//! again, written as a proof by the solver's exporter ([`crate::prove::emit`], colour-swapped
//! on the transposed board since the winner is White) and judged by the checker and its kernel
//! ([`crate::check`]); only then is the line a refutation. The won position before the losing
//! move is certified the same way when [`Params::certify_won`] asks for it. A solve that runs
//! out of budget, an exporter error or a rejected proof leaves the search undecided at that
//! game, and it goes on with the next.
//!
//! Soundness: the refutation rests on the kernel-checked proof of White's win at a position
//! reached by the follower (every Black move its reply, which the report lists with its
//! pattern, branch and file lines), never on the attacker's choices or on the solver alone.
//! That the follower is the strategy's reading (triggers, replies, sub-pattern maps) is
//! stated in [`super::follow`]. The solver is the one of Henderson, Arneson and Hayward,
//! *Solving 8×8 Hex* (`../shared/papers/001_daa05b354444f0cc.txt`, sections 2-7: VCs and
//! mustplay, inferior cells, DFPN); a strategy is refuted by one line it loses.

use super::follow::{Follower, Note, Source};
use super::reader::{Strategy, YangErrorKind};
use crate::board::{Board, Cell, Colour, Notation};
use crate::check::{check_source, Options};
use crate::dfpn::{self, SolveParams, Winner};
use crate::local::Budget;
use crate::position::Position;
use crate::prove::{emit, whole_board};
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::time::Instant;

/// CPU time of this thread (the search is single-threaded); wall time where the platform
/// has no thread clock. Its own few lines: the play layer's clock lies above `yang`
/// (docs/ARCHITECTURE.md).
fn thread_cpu_time() -> std::time::Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec that the call only writes into.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return std::time::Duration::new(ts.tv_sec.max(0) as u64, ts.tv_nsec.max(0) as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The search's budget and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Params {
    /// Attacker games.
    pub games: u32,
    /// The attacker's seed.
    pub seed: u64,
    /// Solver nodes at a position where the data has no answer (the screen).
    pub screen_nodes: u64,
    /// Solver nodes for each position of the walk back and each certificate.
    pub nodes: u64,
    /// Also certify the won position before the losing move (Black to move wins).
    pub certify_won: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            games: 3000,
            seed: 1,
            screen_nodes: 1_000,
            nodes: 2_000_000,
            certify_won: true,
        }
    }
}

/// The attacker's weights: a held trigger cell, a trigger below a slip, a trigger leading to
/// a target pattern, any other trigger.
const WEIGHTS: [u32; 4] = [64, 32, 16, 1];

/// One move of the line, with the branch it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineMove {
    /// 1-based move number (Black's e5 is 1).
    pub number: usize,
    /// `Black` or `White`.
    pub colour: &'static str,
    /// The cell.
    pub cell: String,
    /// The pattern whose branch White's move triggered / Black's move answers (none: the
    /// opening, or White's move that the data does not answer).
    pub pattern: Option<u32>,
    /// The branch (`BN j`).
    pub branch: Option<u32>,
    /// The file line of the branch's `BN`.
    pub branch_line: Option<usize>,
    /// The file line of the `PP` that placed the pattern's instance (none: pattern 1).
    pub placed_line: Option<usize>,
    /// The first `PP` line above the instance that placed a pattern on a stone.
    pub below_line: Option<usize>,
}

/// A position's win, written as a proof and judged by the checker.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Certificate {
    /// The moves that lead to it.
    pub moves: String,
    /// `Black` or `White`.
    pub to_move: &'static str,
    /// `Black` or `White`.
    pub winner: &'static str,
    /// The winner's move (when the winner is to move).
    pub winning_move: Option<String>,
    /// Solver nodes of the solve the proof was written from.
    pub solver_nodes: u64,
    /// Lines of the proof.
    pub proof_lines: usize,
    /// Steps of the proof, all verified by the checker.
    pub steps: usize,
    /// How the proof is written.
    pub written: &'static str,
    /// CPU seconds: solve, export and check.
    pub cpu_seconds: f64,
}

/// A certified refutation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refutation {
    /// The attacker's game that found it (0-based).
    pub game: u32,
    /// The whole line, Black's e5 first, up to the point where the data has no answer.
    pub line: String,
    /// Each move with its branch.
    pub moves: Vec<LineMove>,
    /// Where the data has no answer (none: White won on the board).
    pub gap: Option<String>,
    /// The move number of the losing Black move (the first after which Black has lost).
    pub losing_move: usize,
    /// Its cell.
    pub losing_cell: String,
    /// The position after it, White to move: White wins (the refutation's certificate).
    pub lost: Certificate,
    /// The position before it, Black to move: Black wins (certified when asked and found).
    pub won_before: Option<Certificate>,
    /// The solver's verdict before it when not certified (`Black wins with …`).
    pub won_before_solver: Option<String>,
}

/// What the search did and found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefuteReport {
    /// The parameters.
    pub params: Params,
    /// Target patterns: reachable patterns with a branch whose sub-part holds a trigger.
    pub targets: Vec<u32>,
    /// Games played.
    pub games: u32,
    /// Games that reached a White move the data does not answer.
    pub gaps: u32,
    /// Games White won on the board, every Black move a reply.
    pub white_won: u32,
    /// Distinct positions screened by the solver.
    pub screened: u32,
    /// Screened positions the solver found lost for Black.
    pub lost: u32,
    /// Losses found by the solver that could not be certified (why), in order.
    pub unconfirmed: Vec<String>,
    /// The refutation, when one was certified.
    pub refutation: Option<Refutation>,
    /// CPU seconds of the whole search.
    pub cpu_seconds: f64,
}

/// A White trigger the attacker may play, with what it triggers.
struct Option_ {
    cell: Cell,
    weight: u32,
    pattern: u32,
    branch: u32,
    branch_line: usize,
    placed_line: Option<usize>,
    below_line: Option<usize>,
}

/// The target patterns (reachable, a branch's sub-part holding one of its triggers) and every
/// pattern from which one of them is reached.
pub fn targets(s: &Strategy) -> (BTreeSet<u32>, BTreeSet<u32>) {
    let targets: BTreeSet<u32> = s
        .defects()
        .into_iter()
        .filter(|d| d.reachable && matches!(d.error.kind, YangErrorKind::HoldsTrigger { .. }))
        .map(|d| d.pattern)
        .collect();
    let mut parents: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for p in s.patterns.values() {
        for part in p.branches.iter().flat_map(|b| &b.parts) {
            parents.entry(part.pattern).or_default().insert(p.number);
        }
    }
    let mut toward = targets.clone();
    let mut stack: Vec<u32> = targets.iter().copied().collect();
    while let Some(x) = stack.pop() {
        for &p in parents.get(&x).into_iter().flatten() {
            if toward.insert(p) {
                stack.push(p);
            }
        }
    }
    (targets, toward)
}

/// White's moves: each empty trigger cell of an active instance, with the branch the follower
/// will take for it (the first instance and branch it triggers, as [`Follower::answer`]
/// looks them up). Before White's first move only the half of the board before the centre
/// (the other half is its 180° image, which the follower plays rotated).
fn options(s: &Strategy, f: &Follower, pos: &Position, toward: &BTreeSet<u32>) -> Vec<Option_> {
    let n = s.board_size as usize;
    let first = pos.stones(Colour::White).is_empty();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for inst in f.active() {
        for b in &s.patterns[&inst.pattern].branches {
            let held: BTreeSet<u32> = b
                .parts
                .iter()
                .flat_map(|p| p.map.iter().map(|q| q.n))
                .collect();
            let leads = b.parts.iter().any(|p| toward.contains(&p.pattern));
            for t in &b.triggers {
                let Some(c) = inst.cells.get(t.n as usize - 1).copied().flatten() else {
                    continue;
                };
                let (x, y) = c.coords();
                if pos.colour_at(c).is_some()
                    || (first && y as usize * n + x as usize > n * n / 2)
                    || !seen.insert(c)
                {
                    continue;
                }
                let weight = if held.contains(&t.n) && toward.contains(&inst.pattern) {
                    WEIGHTS[0]
                } else if inst.tainted_at.is_some() {
                    WEIGHTS[1]
                } else if leads {
                    WEIGHTS[2]
                } else {
                    WEIGHTS[3]
                };
                out.push(Option_ {
                    cell: c,
                    weight,
                    pattern: inst.pattern,
                    branch: b.number,
                    branch_line: b.at.line,
                    placed_line: inst.placed_at.map(|l| l.line),
                    below_line: inst.tainted_at.map(|l| l.line),
                });
            }
        }
    }
    out
}

/// One attacker game: the line, each move's branch, and how it ended.
struct Game {
    line: Vec<Cell>,
    moves: Vec<LineMove>,
    /// The data had no answer to White's last move.
    gap: Option<Note>,
    /// White won on the board.
    white_won: bool,
}

fn play(s: &Strategy, toward: &BTreeSet<u32>, rng: &mut impl Rng, board: &Board) -> Game {
    let name = |c: Cell| board.cell_name(c, Notation::Letters);
    let mut f = Follower::new(s).expect("a board with a centre");
    let mut pos = Position::empty(*board);
    let first = f.opening().cell;
    pos.play(Colour::Black, first).expect("empty board");
    let mut line = vec![first];
    let mut moves = vec![LineMove {
        number: 1,
        colour: "Black",
        cell: name(first),
        pattern: None,
        branch: None,
        branch_line: None,
        placed_line: None,
        below_line: None,
    }];
    loop {
        let opts = options(s, &f, &pos, toward);
        let total: u32 = opts.iter().map(|o| o.weight).sum();
        if total == 0 {
            return Game {
                line,
                moves,
                gap: None,
                white_won: false,
            };
        }
        let mut r = rng.random_range(0..total);
        let o = opts
            .iter()
            .find(|o| {
                let hit = r < o.weight;
                r = r.saturating_sub(o.weight);
                hit
            })
            .expect("r < total");
        pos.play(Colour::White, o.cell).expect("an empty cell");
        line.push(o.cell);
        let mv = |number, colour, cell| LineMove {
            number,
            colour,
            cell,
            pattern: Some(o.pattern),
            branch: Some(o.branch),
            branch_line: Some(o.branch_line),
            placed_line: o.placed_line,
            below_line: o.below_line,
        };
        moves.push(mv(line.len(), "White", name(o.cell)));
        if pos.winner() == Some(Colour::White) {
            return Game {
                line,
                moves,
                gap: None,
                white_won: true,
            };
        }
        let notes = f.notes.len();
        let m = f.answer(&pos, o.cell);
        if f.notes.len() > notes || !matches!(m.source, Source::Branch { .. }) {
            let gap = f.notes.get(notes).cloned();
            return Game {
                line,
                moves,
                gap,
                white_won: false,
            };
        }
        pos.play(Colour::Black, m.cell)
            .expect("the follower plays an empty cell");
        line.push(m.cell);
        moves.push(mv(line.len(), "Black", name(m.cell)));
        if pos.winner().is_some() {
            return Game {
                line,
                moves,
                gap: None,
                white_won: false,
            };
        }
    }
}

/// The position after `line[..k]` and the player to move there.
fn position(board: &Board, line: &[Cell], k: usize) -> (Position, Colour) {
    let mut pos = Position::empty(*board);
    for (i, &c) in line[..k].iter().enumerate() {
        let colour = if i % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        pos.play(colour, c).expect("the line's cells are distinct");
    }
    let to_move = if k.is_multiple_of(2) {
        Colour::Black
    } else {
        Colour::White
    };
    (pos, to_move)
}

fn solver_params(nodes: u64) -> SolveParams {
    let mut params = SolveParams {
        nodes,
        ..SolveParams::default()
    };
    // The export follows the table: no child refuted by strategy stealing (no winning move).
    params.features.strategy_stealing = false;
    params.features.transpositions = false;
    params
}

/// The solver's verdict at `pos` within `nodes`, and the winner's move.
fn solve(pos: &Position, to_move: Colour, nodes: u64) -> (Winner, Option<Cell>) {
    if let Some(w) = pos.winner() {
        return (
            if w == Colour::Black {
                Winner::Black
            } else {
                Winner::White
            },
            None,
        );
    }
    let params = solver_params(nodes);
    let start = Instant::now();
    let mut d = dfpn::make_search(&params, params.order.order(), start);
    let out = dfpn::solve_in(&mut d, pos, to_move, start);
    (out.winner, out.winning_move)
}

fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::Black => "Black",
        Colour::White => "White",
    }
}

/// Solves `pos`, writes the win as a proof and has the checker judge it: the certificate
/// when every step is verified and the proof states `pos` (colour-swapped on the transposed
/// board when White wins), else why not.
pub fn certify(
    pos: &Position,
    to_move: Colour,
    nodes: u64,
    moves: String,
) -> Result<Certificate, String> {
    let cpu0 = thread_cpu_time();
    let params = solver_params(nodes);
    let start = Instant::now();
    let mut d = dfpn::make_search(&params, params.order.order(), start);
    dfpn::check_position(pos).map_err(|e| e.to_string())?;
    let out = dfpn::solve_in(&mut d, pos, to_move, start);
    let winner = match out.winner {
        Winner::Black => Colour::Black,
        Winner::White => Colour::White,
        Winner::Undecided => return Err(format!("undecided within {nodes} solver nodes")),
    };
    // The export re-solves sub-positions the table has lost; it gets its own budget.
    d.max_nodes = d
        .nodes
        .saturating_add(nodes.saturating_mul(whole_board::EMIT_FACTOR));
    let text = emit::emit_solved(
        &mut d,
        pos,
        to_move,
        &emit::EmitOptions::default().for_params(&params),
    )
    .map_err(|e| format!("no proof exported: {e}"))?;
    let stated = if winner == Colour::White {
        pos.colours_swapped()
    } else {
        pos.clone()
    };
    whole_board::header_matches(&text, &stated).map_err(|e| e.to_string())?;
    let checked = check_source(
        "yang-refutation.hexp",
        &text,
        &Options {
            budget: Budget {
                nodes: whole_board::CHECK_NODES,
                time: None,
                ..Budget::default()
            },
            // As for the template refutations (crate::prove::whole_board): rule steps are
            // verified by their rules; the second check by search is not needed for
            // soundness.
            search_rule_steps: false,
            ..Options::default()
        },
    );
    let c = &checked.report.counts;
    if checked.report.exit_code != 0 || c.verified != c.steps {
        let first = checked.headline(3);
        return Err(format!("the checker rejects the proof: {first}"));
    }
    let board = pos.board();
    Ok(Certificate {
        moves,
        to_move: colour_name(to_move),
        winner: colour_name(winner),
        winning_move: out
            .winning_move
            .map(|m| board.cell_name(m, Notation::Letters)),
        solver_nodes: out.nodes,
        proof_lines: text.lines().count(),
        steps: c.steps,
        written: if winner == Colour::White {
            "for the transposed board with the colours swapped (Black's strategy there is White's)"
        } else {
            "as the position stands"
        },
        cpu_seconds: (thread_cpu_time().saturating_sub(cpu0)).as_secs_f64(),
    })
}

/// The line walked back from `end` (the position after `line[..end]`, lost for Black): the
/// index of the losing Black move and Black's winning move before it, or `None` when a
/// solve is undecided first. Only positions with Black to move are solved: once the
/// position after a White move is lost for Black, so is the one before that White move.
fn walk_back(board: &Board, line: &[Cell], end: usize, nodes: u64) -> Option<(usize, Cell)> {
    // Black's moves are the even indices; `k`: the lost position's length.
    let mut k = end;
    loop {
        let b = if k.is_multiple_of(2) {
            k.checked_sub(2)?
        } else {
            k - 1
        };
        if b == 0 {
            return None;
        }
        let (pos, to_move) = position(board, line, b);
        match solve(&pos, to_move, nodes) {
            (Winner::Black, m) => return m.map(|m| (b, m)),
            (Winner::White, _) => k = b,
            (Winner::Undecided, _) => return None,
        }
    }
}

/// Runs the search (see the module text).
pub fn search(s: &Strategy, params: Params) -> RefuteReport {
    let cpu0 = thread_cpu_time();
    let (targets, toward) = targets(s);
    let mut report = RefuteReport {
        params,
        targets: targets.iter().copied().collect(),
        games: 0,
        gaps: 0,
        white_won: 0,
        screened: 0,
        lost: 0,
        unconfirmed: Vec::new(),
        refutation: None,
        cpu_seconds: 0.0,
    };
    let n = s.board_size as u32;
    let Ok(board) = Board::square(n) else {
        return report;
    };
    if n.is_multiple_of(2) {
        return report;
    }
    let names = |cells: &[Cell]| {
        cells
            .iter()
            .map(|&c| board.cell_name(c, Notation::Letters))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(params.seed);
    let mut seen = HashSet::new();
    for game in 0..params.games {
        report.games += 1;
        let g = play(s, &toward, &mut rng, &board);
        if g.gap.is_some() {
            report.gaps += 1;
        } else if g.white_won {
            report.white_won += 1;
        } else {
            continue;
        }
        let end = g.line.len();
        let (pos, to_move) = position(&board, &g.line, end);
        let key = (pos.stones(Colour::Black), pos.stones(Colour::White));
        if !seen.insert(key) {
            continue;
        }
        report.screened += 1;
        if solve(&pos, to_move, params.screen_nodes).0 != Winner::White {
            continue;
        }
        report.lost += 1;
        let Some((b, won_with)) = walk_back(&board, &g.line, end, params.nodes) else {
            report.unconfirmed.push(format!(
                "game {game}: {}: the walk back is undecided within {} nodes",
                names(&g.line),
                params.nodes
            ));
            continue;
        };
        let (after, to_move) = position(&board, &g.line, b + 1);
        let lost = match certify(&after, to_move, params.nodes, names(&g.line[..=b])) {
            Ok(c) => c,
            Err(e) => {
                report
                    .unconfirmed
                    .push(format!("game {game}: {}: {e}", names(&g.line[..=b])));
                continue;
            }
        };
        let won_before = params
            .certify_won
            .then(|| {
                let (before, to_move) = position(&board, &g.line, b);
                certify(&before, to_move, params.nodes, names(&g.line[..b])).ok()
            })
            .flatten();
        report.refutation = Some(Refutation {
            game,
            line: names(&g.line),
            moves: g.moves,
            gap: g.gap.map(|n| n.to_string()),
            losing_move: b + 1,
            losing_cell: board.cell_name(g.line[b], Notation::Letters),
            lost,
            won_before_solver: won_before.is_none().then(|| {
                format!(
                    "Black wins with {} (solver, not certified)",
                    board.cell_name(won_with, Notation::Letters)
                )
            }),
            won_before,
        });
        break;
    }
    report.cpu_seconds = (thread_cpu_time().saturating_sub(cpu0)).as_secs_f64();
    report
}

impl RefuteReport {
    /// The human-readable part of `yang check`'s report.
    pub fn human(&self, o: &mut String) {
        use std::fmt::Write;
        let p = &self.params;
        let _ = writeln!(
            o,
            "refutation search (seed {}, {} games; White plays triggers only, guided by the {} target patterns whose sub-parts hold a trigger: {:?}): {} games reached a White move the data does not answer, {} won by White on the board; {} positions screened ({} solver nodes), {} lost for Black; {:.1} s CPU",
            p.seed,
            self.games,
            self.targets.len(),
            self.targets,
            self.gaps,
            self.white_won,
            self.screened,
            p.screen_nodes,
            self.lost,
            self.cpu_seconds
        );
        for u in &self.unconfirmed {
            let _ = writeln!(o, "  not certified: {u}");
        }
        let Some(r) = &self.refutation else {
            let _ = writeln!(
                o,
                "  no refutation certified (undecided: a bounded search, not a proof that none exists)"
            );
            return;
        };
        let _ = writeln!(
            o,
            "REFUTATION (kernel-checked): the strategy as written loses; every Black move below is the reply of a triggered branch"
        );
        let _ = writeln!(o, "  line: {}", r.line);
        for m in &r.moves {
            let what = match (m.pattern, m.branch) {
                (Some(pat), Some(br)) => {
                    let mut s = format!(
                        "pattern {pat} branch {br} (BN at line {})",
                        m.branch_line.unwrap_or(0)
                    );
                    if let Some(l) = m.placed_line {
                        let _ = write!(s, ", placed by the PP at line {l}");
                    }
                    if let Some(l) = m.below_line {
                        let _ = write!(
                            s,
                            ", below the PP at line {l} (a pattern placed on a stone)"
                        );
                    }
                    s
                }
                _ => "the opening".to_string(),
            };
            let role = if m.colour == "White" {
                "triggers"
            } else {
                "reply of"
            };
            let mark = if m.number == r.losing_move {
                "   <- the losing move"
            } else {
                ""
            };
            let _ = writeln!(
                o,
                "  {:>3}. {:<5} {:<4} {role} {what}{mark}",
                m.number, m.colour, m.cell
            );
        }
        if let Some(g) = &r.gap {
            let _ = writeln!(o, "  where the data has no answer: {g}");
        }
        let cert = |o: &mut String, label: &str, c: &Certificate| {
            let _ = writeln!(
                o,
                "  {label} ({} to move): {} wins{}; proof of {} lines, {} steps verified by the kernel, written {}; {} solver nodes, {:.2} s CPU",
                c.to_move,
                c.winner,
                c.winning_move
                    .as_ref()
                    .map_or(String::new(), |m| format!(" with {m}")),
                c.proof_lines,
                c.steps,
                c.written,
                c.solver_nodes,
                c.cpu_seconds
            );
        };
        match (&r.won_before, &r.won_before_solver) {
            (Some(c), _) => cert(o, &format!("before move {}", r.losing_move), c),
            (None, Some(s)) => {
                let _ = writeln!(o, "  before move {}: {s}", r.losing_move);
            }
            _ => {}
        }
        cert(
            o,
            &format!("after move {} ({})", r.losing_move, r.losing_cell),
            &r.lost,
        );
    }
}
