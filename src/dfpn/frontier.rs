//! One position split into a frontier of sub-positions at depth k, each solved as its own
//! cluster job (`hexproof solve --moves … --frontier K --shard i/n --out DIR`), and the
//! position's winner recombined from the jobs' files (`hexproof solve --combine DIR`);
//! docs/cluster.md.
//!
//! **Frontier.** From the root (the board and `--moves`, side to move by parity) every legal
//! move is played, to depth k (1 or 2), full width: no pruning (no mustplay, no dead cells,
//! no rotation), so the combiner needs no trust in any pruning rule. A line whose last move
//! completes a chain is a *terminal* leaf: not a job, the combiner scores it itself (the
//! player who made the move wins). The other lines of length k are the jobs, in board order
//! of their moves ([`frontier_lines`]), dealt round-robin to the shards ([`Shard::of`]).
//!
//! **Result file** `frontier-<m1>-<m2>.json` ([`FrontierRecord`]): the board, the root's moves,
//! k, the line from the root, the winner of the sub-position (its side to move by parity), a
//! winning move for its side to move when that side wins, nodes, CPU and wall microseconds,
//! shard, settings, version and an FNV-1a checksum, written atomically as the opening jobs'
//! files are ([`super::jobs`]).
//!
//! **Combination** ([`combine`]) groups the files by (board, root, k); the group with the
//! most files is the root, and a file of another root is rejected by name, as is a damaged
//! file, a line that is not a job of the frontier (illegal, terminal, wrong length), a file
//! name that disagrees with its line, or an impossible winning move (not an empty cell of the
//! sub-position, or given for a loss). Duplicates of a line must agree. The frontier is
//! re-derived from the root and every job line must be present (the missing ones are named
//! with their shards). The root's winner is then the minimax of the tree of depth k: the side
//! to move wins iff some child is its win, loses iff every child is the opponent's win. What
//! the combiner cannot re-check is each job's winner (the same trust as a one-process solve).

use super::jobs::{read_sealed, write_atomic, JobError, Sealed, Shard};
use super::{solve, SolveParams, Winner};
use crate::board::{Board, Cell, Colour, Notation};
use crate::position::Position;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The format tag of a frontier result file.
pub const FORMAT: &str = "hexproof-frontier-result v1";

const CHECKSUM_SEED: &[u8] = b"hexproof frontier-result v1\n";

/// The deepest frontier allowed.
pub const MAX_DEPTH: usize = 2;

/// One sub-position's result file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontierRecord {
    /// [`FORMAT`].
    pub format: String,
    /// `COLSxROWS`.
    pub board: String,
    /// The root's moves (letters notation, Black first), blank-separated.
    pub root: String,
    /// The frontier depth k.
    pub depth: usize,
    /// The moves from the root to the sub-position, blank-separated.
    pub line: String,
    /// `black`, `white` or `undecided`.
    pub winner: String,
    /// A winning move of the sub-position's side to move, when that side wins.
    pub winning_move: Option<String>,
    /// Nodes of the search.
    pub nodes: u64,
    /// CPU microseconds of the search.
    pub cpu_micros: u64,
    /// Wall microseconds of the search.
    pub wall_micros: u64,
    /// The shard that wrote it (`i/n`).
    pub shard: String,
    /// The solver settings.
    pub settings: String,
    /// The hexproof version that wrote it.
    pub version: String,
    /// FNV-1a 64 (hex) of the seed and the record without this field.
    #[serde(default)]
    pub fnv64: String,
}

crate::sealed_record!(FrontierRecord, FORMAT, CHECKSUM_SEED);

fn winner_of_word(w: &str) -> Option<Winner> {
    match w {
        "black" => Some(Winner::Black),
        "white" => Some(Winner::White),
        "undecided" => Some(Winner::Undecided),
        _ => None,
    }
}

fn word(w: Winner) -> &'static str {
    match w {
        Winner::Black => "black",
        Winner::White => "white",
        Winner::Undecided => "undecided",
    }
}

fn win_of(c: Colour) -> Winner {
    match c {
        Colour::Black => Winner::Black,
        Colour::White => Winner::White,
    }
}

/// A root position: the board, its moves, the side to move.
#[derive(Clone, Debug)]
pub struct Root {
    /// The position after the root's moves.
    pub position: Position,
    /// The root's moves.
    pub moves: Vec<Cell>,
    /// Who moves at the root.
    pub to_move: Colour,
    /// The frontier depth.
    pub depth: usize,
}

impl Root {
    /// The root after `moves` (letters notation, Black first) on `board`, split at `depth`.
    pub fn parse(board: Board, moves: &str, depth: usize) -> Result<Root, String> {
        let cells = board
            .parse_cells(moves, Notation::Letters)
            .map_err(|e| e.to_string())?;
        Root::new(board, &cells, depth)
    }

    /// The root after `moves` (Black first, alternating) on `board`, split at `depth`.
    pub fn new(board: Board, moves: &[Cell], depth: usize) -> Result<Root, String> {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(format!(
                "frontier depth {depth}: expected 1 ..= {MAX_DEPTH}"
            ));
        }
        let mut position = Position::empty(board);
        let mut who = Colour::Black;
        for &c in moves {
            if c.is_border() || position.play(who, c).is_err() {
                return Err(format!(
                    "move {} is not on an empty cell",
                    board.cell_name(c, Notation::Letters)
                ));
            }
            who = who.opponent();
        }
        if let Some(w) = position.winner() {
            return Err(format!("the root is already won by {w:?}"));
        }
        Ok(Root {
            position,
            moves: moves.to_vec(),
            to_move: who,
            depth,
        })
    }

    /// The root's moves as written in a record.
    pub fn moves_text(&self) -> String {
        line_text(self.position.board(), &self.moves)
    }

    /// The position after `line` from the root, and who moves there.
    pub fn after(&self, line: &[Cell]) -> Option<(Position, Colour)> {
        let mut p = self.position.clone();
        let mut who = self.to_move;
        for &c in line {
            if p.winner().is_some() || c.is_border() {
                return None;
            }
            p.play(who, c).ok()?;
            who = who.opponent();
        }
        Some((p, who))
    }
}

/// Moves written blank-separated in letters notation.
pub fn line_text(board: &Board, line: &[Cell]) -> String {
    line.iter()
        .map(|&c| board.cell_name(c, Notation::Letters))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The file name of a line's result.
pub fn file_name(board: &Board, line: &[Cell]) -> String {
    let parts: Vec<_> = line
        .iter()
        .map(|&c| board.cell_name(c, Notation::Letters))
        .collect();
    format!("frontier-{}.json", parts.join("-"))
}

/// The job lines of the frontier: every line of `root.depth` legal moves none of which ends
/// the game, in board order (the module doc).
pub fn frontier_lines(root: &Root) -> Vec<Vec<Cell>> {
    frontier_split(root).0
}

/// The job lines of the frontier ([`frontier_lines`]) and the number of terminal lines (a
/// move completes a chain) of length at most k.
pub fn frontier_split(root: &Root) -> (Vec<Vec<Cell>>, usize) {
    fn walk(
        p: &Position,
        who: Colour,
        line: &mut Vec<Cell>,
        depth: usize,
        out: &mut (Vec<Vec<Cell>>, usize),
    ) {
        for c in p.empty_cells().iter() {
            let mut q = p.clone();
            q.play(who, c).expect("an empty cell");
            if q.winner().is_some() {
                out.1 += 1;
                continue;
            }
            line.push(c);
            if line.len() == depth {
                out.0.push(line.clone());
            } else {
                walk(&q, who.opponent(), line, depth, out);
            }
            line.pop();
        }
    }
    let mut out = (Vec::new(), 0);
    walk(
        &root.position,
        root.to_move,
        &mut Vec::new(),
        root.depth,
        &mut out,
    );
    out
}

/// The job lines of `shard`.
pub fn shard_lines(root: &Root, shard: Shard) -> Vec<Vec<Cell>> {
    frontier_lines(root)
        .into_iter()
        .enumerate()
        .filter(|(k, _)| Shard::of(*k, shard.count) == shard.index)
        .map(|(_, l)| l)
        .collect()
}

/// What [`run_shard`] did with one line.
#[derive(Clone, Debug)]
pub struct FrontierLine {
    /// The line from the root.
    pub line: Vec<Cell>,
    /// Its record (read or written).
    pub record: FrontierRecord,
    /// Whether a valid decided result was there already.
    pub skipped: bool,
}

/// Solves the lines of `shard`, each alone on one thread, writing each result to `out`
/// (created if missing); a valid decided result already there is kept.
pub fn run_shard(
    root: &Root,
    params: &SolveParams,
    shard: Shard,
    out: &Path,
    settings: &str,
    cpu_time: fn() -> std::time::Duration,
    mut on_line: impl FnMut(&FrontierLine),
) -> Result<Vec<FrontierLine>, JobError> {
    std::fs::create_dir_all(out).map_err(|source| JobError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    let params = SolveParams {
        shared: None,
        threads: 1,
        ..params.clone()
    };
    let board = *root.position.board();
    let mut lines = Vec::new();
    for line in shard_lines(root, shard) {
        let path = out.join(file_name(&board, &line));
        if path.exists() {
            if let Ok((l, record)) = read_record(&path, root) {
                if l == line && record.winner != "undecided" {
                    let fl = FrontierLine {
                        line,
                        record,
                        skipped: true,
                    };
                    on_line(&fl);
                    lines.push(fl);
                    continue;
                }
            }
        }
        let (p, who) = root.after(&line).expect("a frontier line is legal");
        let cpu0 = cpu_time();
        let o = solve(&p, who, &params)?;
        let cpu = cpu_time().saturating_sub(cpu0);
        let mut record = FrontierRecord {
            format: FORMAT.into(),
            board: super::jobs::board_name(&board),
            root: root.moves_text(),
            depth: root.depth,
            line: line_text(&board, &line),
            winner: word(o.winner).into(),
            winning_move: o
                .winning_move
                .filter(|_| o.winner == win_of(who))
                .map(|m| board.cell_name(m, Notation::Letters)),
            nodes: o.nodes,
            cpu_micros: cpu.as_micros() as u64,
            wall_micros: o.micros,
            shard: shard.to_string(),
            settings: settings.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            fnv64: String::new(),
        };
        record.fnv64 = record.computed_checksum();
        let mut text = serde_json::to_string_pretty(&record).expect("a record serialises");
        text.push('\n');
        write_atomic(&path, &text)?;
        let fl = FrontierLine {
            line,
            record,
            skipped: false,
        };
        on_line(&fl);
        lines.push(fl);
    }
    Ok(lines)
}

/// Reads one file of `root`'s frontier and checks it (module doc); returns its line.
pub fn read_record(path: &Path, root: &Root) -> Result<(Vec<Cell>, FrontierRecord), JobError> {
    let reject = |reason: String| JobError::Rejected {
        path: path.to_path_buf(),
        reason,
    };
    let r: FrontierRecord = read_sealed(path, "a frontier result file")?;
    let board = *root.position.board();
    if r.board != super::jobs::board_name(&board)
        || r.root != root.moves_text()
        || r.depth != root.depth
    {
        return Err(reject(format!(
            "from another root: {} '{}' at depth {}, the others are {} '{}' at depth {}",
            r.board,
            r.root,
            r.depth,
            super::jobs::board_name(&board),
            root.moves_text(),
            root.depth
        )));
    }
    let line = board
        .parse_cells(&r.line, Notation::Letters)
        .map_err(|e| reject(format!("line '{}': {e}", r.line)))?;
    let Some((p, who)) = root.after(&line) else {
        return Err(reject(format!(
            "line '{}' is not legal from the root",
            r.line
        )));
    };
    if line.len() != root.depth || p.winner().is_some() {
        return Err(reject(format!(
            "line '{}' is not a sub-position of the frontier (wrong length or game over)",
            r.line
        )));
    }
    let fname = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if fname != file_name(&board, &line) {
        return Err(reject(format!(
            "it holds line '{}' but is named {fname}",
            r.line
        )));
    }
    let winner =
        winner_of_word(&r.winner).ok_or_else(|| reject(format!("winner '{}'", r.winner)))?;
    match (&r.winning_move, winner == win_of(who)) {
        (Some(m), true) => {
            let ok = board
                .parse_cell(m, Notation::Letters)
                .ok()
                .is_some_and(|c| !c.is_border() && p.colour_at(c).is_none());
            if !ok {
                return Err(reject(format!("winning move '{m}' is not an empty cell")));
            }
        }
        (None, false) => {}
        (Some(m), false) => {
            return Err(reject(format!(
                "winning move {m}, but the side to move does not win"
            )))
        }
        (None, true) => return Err(reject("the side to move wins but no winning move".into())),
    }
    Ok((line, r))
}

/// The result of [`combine`].
#[derive(Clone, Debug)]
pub struct FrontierResult {
    /// The root (from the files).
    pub root: Root,
    /// The root's winner.
    pub winner: Winner,
    /// A winning first move of the root's side to move, when it wins.
    pub winning_move: Option<Cell>,
    /// Job lines of the frontier.
    pub jobs: usize,
    /// Terminal lines (a move completes a chain) of the frontier, scored by the combiner.
    pub terminal: usize,
    /// Result files read.
    pub files: usize,
    /// Nodes summed over the jobs (one record per line).
    pub nodes: u64,
    /// CPU microseconds summed over the jobs.
    pub cpu_micros: u64,
}

/// The frontier files (`frontier-*.json`) in `dirs`, sorted per folder.
pub fn frontier_files(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, JobError> {
    let mut files = Vec::new();
    for dir in dirs {
        let rd = std::fs::read_dir(dir).map_err(|source| JobError::Io {
            path: dir.clone(),
            source,
        })?;
        let mut names: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        names.sort();
        files.extend(names.into_iter().filter(|p| {
            let n = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            n.starts_with("frontier-") && n.ends_with(".json") && p.is_file()
        }));
    }
    Ok(files)
}

/// Recombines the frontier files of `dirs` into the root's winner (module doc).
pub fn combine(dirs: &[PathBuf]) -> Result<FrontierResult, JobError> {
    let files = frontier_files(dirs)?;
    // The root: the (board, root, depth) of the most files (checksums first).
    let mut groups: HashMap<(String, String, usize), usize> = HashMap::new();
    for path in &files {
        let r: FrontierRecord = read_sealed(path, "a frontier result file")?;
        *groups.entry((r.board, r.root, r.depth)).or_default() += 1;
    }
    let Some(((board, moves, depth), _)) = groups
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
    else {
        return Err(JobError::Empty {
            dirs: dirs.to_vec(),
        });
    };
    let path0 = files[0].clone();
    let bad_root = |reason: String| JobError::Rejected {
        path: path0.clone(),
        reason,
    };
    let board = Board::parse(&board).map_err(|e| bad_root(format!("board '{board}': {e}")))?;
    let root = Root::parse(board, &moves, depth).map_err(bad_root)?;
    let mut results: HashMap<Vec<Cell>, (Winner, FrontierRecord, PathBuf)> = HashMap::new();
    for path in &files {
        let (line, r) = read_record(path, &root)?;
        let w = winner_of_word(&r.winner).unwrap_or(Winner::Undecided);
        if let Some((w0, r0, p0)) = results.get(&line) {
            if *w0 != Winner::Undecided && w != Winner::Undecided && *w0 != w {
                return Err(JobError::Conflict {
                    opening: r.line.clone(),
                    first: p0.clone(),
                    first_winner: r0.winner.clone(),
                    second: path.clone(),
                    second_winner: r.winner.clone(),
                });
            }
            if *w0 != Winner::Undecided {
                continue;
            }
        }
        results.insert(line, (w, r, path.clone()));
    }
    let (lines, terminal) = frontier_split(&root);
    let shard_count = results
        .values()
        .filter_map(|(_, r, _)| Shard::parse(&r.shard).ok())
        .map(|s| s.count)
        .max()
        .unwrap_or(1);
    let missing: Vec<(String, String)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !results.contains_key(*l))
        .map(|(k, l)| {
            let shard = Shard {
                index: Shard::of(k, shard_count),
                count: shard_count,
            };
            (line_text(&board, l), shard.to_string())
        })
        .collect();
    if !missing.is_empty() {
        return Err(JobError::MissingLines { missing });
    }
    // Minimax over the tree of depth k.
    fn value(
        p: &Position,
        who: Colour,
        line: &mut Vec<Cell>,
        depth: usize,
        results: &HashMap<Vec<Cell>, (Winner, FrontierRecord, PathBuf)>,
    ) -> (Winner, Option<Cell>) {
        let mut all_lost = true;
        for c in p.empty_cells().iter() {
            let mut q = p.clone();
            q.play(who, c).expect("an empty cell");
            line.push(c);
            let w = if q.winner().is_some() {
                win_of(who)
            } else if line.len() == depth {
                results[line.as_slice()].0
            } else {
                value(&q, who.opponent(), line, depth, results).0
            };
            line.pop();
            if w == win_of(who) {
                return (w, Some(c));
            }
            all_lost &= w == win_of(who.opponent());
        }
        if all_lost {
            (win_of(who.opponent()), None)
        } else {
            (Winner::Undecided, None)
        }
    }
    let (winner, winning_move) = value(
        &root.position,
        root.to_move,
        &mut Vec::new(),
        root.depth,
        &results,
    );
    Ok(FrontierResult {
        winner,
        winning_move,
        jobs: lines.len(),
        terminal,
        files: files.len(),
        nodes: results.values().map(|(_, r, _)| r.nodes).sum(),
        cpu_micros: results.values().map(|(_, r, _)| r.cpu_micros).sum(),
        root,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_partition_the_frontier_and_terminal_lines_are_left_out() {
        let board = Board::new(3, 3).unwrap();
        let root = Root::parse(board, "b1 a2 b2", 2).unwrap();
        let all = frontier_lines(&root);
        // White to move, then Black; Black's b3 wins (b1 b2 b3) and is not a job.
        assert!(all.iter().all(|l| l.len() == 2));
        let b3 = board.parse_cell("b3", Notation::Letters).unwrap();
        assert!(!all.iter().any(|l| l[1] == b3));
        let mut seen: Vec<_> = (1..=3)
            .flat_map(|i| shard_lines(&root, Shard { index: i, count: 3 }))
            .collect();
        seen.sort();
        let mut want = all.clone();
        want.sort();
        assert_eq!(seen, want);
    }
}
