//! Every one-stone opening of a board (`hexproof solve --openings all`).
//!
//! Each cell of the empty board is tried as Black's first move, White then to move. An opening
//! and its 180° image have the same winner (the rotation keeps each player's borders), so with
//! rotation transpositions on only the first of each pair is searched and the other is read
//! off it, its winning reply rotated. The openings are searched by `threads` workers from one
//! queue, sharing solved positions ([`SharedSolved`]) unless told not to.
//!
//! The queue starts with the openings in the columns next to White's edges and the middle
//! rows before the corners: on 7×7 these are the long searches (a4, a3, a2, g2, g1, b4 and b2
//! took 30–140 CPU-s each, the rest under 30), and starting the long jobs first keeps every
//! thread busy to the end.

use super::shared::SharedSolved;
use super::{solve, SolveError, SolveOutcome, SolveParams, Winner};
use crate::board::{Board, Cell, Colour, Transform};
use crate::position::Position;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One opening's answer.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Black's first move.
    pub cell: Cell,
    /// The answer, with White to move. For an opening read off its image
    /// (`by_rotation`), the image's figures, with the winning move rotated back.
    pub outcome: SolveOutcome,
    /// Whether this opening was not searched but read off its 180° image.
    pub by_rotation: bool,
    /// CPU seconds of the thread that searched it (or its image).
    pub cpu_seconds: f64,
}

/// Every opening, in board order, and the totals over the searched ones.
#[derive(Clone, Debug)]
pub struct Openings {
    /// One per cell of the board, in board order.
    pub openings: Vec<Opening>,
    /// Openings actually searched.
    pub searched: usize,
    /// Nodes, summed over the searched openings.
    pub nodes: u64,
    /// Wall seconds of each search, summed.
    pub sum_seconds: f64,
    /// CPU seconds of the searches, summed.
    pub cpu_seconds: f64,
    /// Wall seconds for the whole run.
    pub wall_seconds: f64,
    /// Openings Black wins.
    pub black_wins: usize,
    /// Openings left undecided by the budget.
    pub undecided: usize,
    /// Entries of the shared table at the end, when shared.
    pub shared_entries: Option<usize>,
    /// Lookups answered from the shared table, summed.
    pub shared_hits: u64,
    /// Evaluations taken from the shared table, summed.
    pub shared_evals: u64,
}

/// The openings to search, in the order to search them: one of each 180° pair when
/// `rotation` is on (the one with the smaller index), long searches first.
pub fn search_order(board: &Board, rotation: bool) -> Vec<Cell> {
    let rot = Transform::rotate180(board);
    let image = |c: Cell| {
        rot.apply(c, board)
            .expect("a rotation maps the board onto itself")
    };
    let mut cells: Vec<Cell> = board
        .cells()
        .iter()
        .filter(|&c| !rotation || c.index() <= image(c).index())
        .collect();
    let key = |c: Cell| {
        let (x, y) = c.coords();
        let col = x.min(board.cols() - 1 - x);
        let row = y.min(board.rows() - 1 - y);
        (col, std::cmp::Reverse(row), c.index())
    };
    cells.sort_by_key(|&c| key(c));
    cells
}

/// Why [`solve_openings`] failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// An opening stone could not be placed.
    #[error(transparent)]
    Position(#[from] crate::position::PositionError),
    /// The solver refused an opening.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A worker thread panicked.
    #[error("a solver thread failed")]
    ThreadFailed,
    /// An opening whose result neither was searched nor follows by rotation.
    #[error("opening {0:?}: neither it nor its image was searched")]
    Missing(Cell),
}

/// Solves every opening of `board` with `threads` workers (at least one).
///
/// `cpu_time` reads the calling thread's CPU clock (the binary passes the players' thread
/// clock; a caller without one may pass a wall clock). `on_solved` is called from the worker
/// threads as each searched opening is answered (for progress lines). The search itself is
/// [`solve`] with `params`, whose budget applies to each opening; `share` adds a table of
/// solved positions shared by all the openings' searches (replacing `params.shared`).
pub fn solve_openings(
    board: Board,
    params: &SolveParams,
    threads: usize,
    share: bool,
    cpu_time: fn() -> Duration,
    on_solved: impl Fn(&Opening) + Sync,
) -> Result<Openings, OpeningsError> {
    let start = Instant::now();
    let order = search_order(&board, params.features.rotation);
    let shared = share.then(|| Arc::new(SharedSolved::default()));
    // Parallelism across openings: each opening is searched by one thread.
    let params = SolveParams {
        shared: shared.clone(),
        threads: 1,
        ..params.clone()
    };
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Opening>> = Mutex::new(Vec::new());
    let failed: Mutex<Option<OpeningsError>> = Mutex::new(None);
    let worker = || loop {
        let Some(&cell) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
            return;
        };
        let mut p = Position::empty(board);
        let solved = p
            .play(Colour::Black, cell)
            .map_err(OpeningsError::from)
            .and_then(|()| {
                let cpu0 = cpu_time();
                let o = solve(&p, Colour::White, &params)?;
                Ok((o, (cpu_time() - cpu0).as_secs_f64()))
            });
        match solved {
            Ok((outcome, cpu_seconds)) => {
                let opening = Opening {
                    cell,
                    outcome,
                    by_rotation: false,
                    cpu_seconds,
                };
                on_solved(&opening);
                if let Ok(mut d) = done.lock() {
                    d.push(opening);
                }
            }
            Err(e) => {
                if let Ok(mut f) = failed.lock() {
                    f.get_or_insert(e);
                }
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(worker);
        }
    });
    if let Some(e) = failed
        .into_inner()
        .map_err(|_| OpeningsError::ThreadFailed)?
    {
        return Err(e);
    }
    let searched = done.into_inner().map_err(|_| OpeningsError::ThreadFailed)?;
    let rot = Transform::rotate180(&board);
    let image = |c: Cell| {
        rot.apply(c, &board)
            .expect("a rotation maps the board onto itself")
    };
    let mut openings = Vec::with_capacity(board.cells().len());
    for cell in board.cells().iter() {
        if let Some(o) = searched.iter().find(|o| o.cell == cell) {
            openings.push(o.clone());
            continue;
        }
        let twin = searched
            .iter()
            .find(|o| o.cell == image(cell))
            .ok_or(OpeningsError::Missing(cell))?;
        let mut outcome = twin.outcome.clone();
        outcome.winning_move = outcome.winning_move.map(image);
        openings.push(Opening {
            cell,
            outcome,
            by_rotation: true,
            cpu_seconds: twin.cpu_seconds,
        });
    }
    Ok(Openings {
        searched: searched.len(),
        nodes: searched.iter().map(|o| o.outcome.nodes).sum(),
        sum_seconds: searched.iter().map(|o| o.outcome.micros as f64 / 1e6).sum(),
        cpu_seconds: searched.iter().map(|o| o.cpu_seconds).sum(),
        wall_seconds: start.elapsed().as_secs_f64(),
        black_wins: openings
            .iter()
            .filter(|o| o.outcome.winner == Winner::Black)
            .count(),
        undecided: openings
            .iter()
            .filter(|o| o.outcome.winner == Winner::Undecided)
            .count(),
        shared_entries: shared.as_ref().map(|t| t.len()),
        shared_hits: searched.iter().map(|o| o.outcome.profile.shared_hits).sum(),
        shared_evals: searched
            .iter()
            .map(|o| o.outcome.profile.shared_evals)
            .sum(),
        openings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_order_takes_one_of_each_pair_and_every_cell_is_covered() {
        let board = Board::new(5, 5).unwrap();
        let rot = Transform::rotate180(&board);
        let order = search_order(&board, true);
        assert_eq!(order.len(), 13); // 12 pairs and the centre
        for c in board.cells().iter() {
            let i = rot.apply(c, &board).unwrap();
            assert!(order.contains(&c) ^ order.contains(&i) || c == i, "{c:?}");
        }
        assert_eq!(search_order(&board, false).len(), 25);
    }

    #[test]
    fn openings_of_3x3_match_the_single_solves() {
        let board = Board::new(3, 3).unwrap();
        let params = SolveParams::default();
        let all = solve_openings(board, &params, 2, true, Duration::default, |_| {}).unwrap();
        assert_eq!(all.openings.len(), 9);
        assert_eq!(all.searched, 5);
        for o in &all.openings {
            let mut p = Position::empty(board);
            p.play(Colour::Black, o.cell).unwrap();
            let single = solve(&p, Colour::White, &params).unwrap();
            assert_eq!(o.outcome.winner, single.winner, "{:?}", o.cell);
        }
        assert_eq!(all.undecided, 0);
        let centre = all
            .openings
            .iter()
            .find(|o| o.cell == Cell::at(1, 1))
            .unwrap();
        assert_eq!(centre.outcome.winner, Winner::Black);
    }
}
