//! `hexproof match`: a twogtp-style match between two external GTP engines, refereed here.
//!
//! Any program that speaks GTP in the Hex dialect (ECOSYSTEM.md §1) can play, `hexproof gtp`
//! included: each engine runs as `sh -c COMMAND` ([`engine`]). Every opening of an openings
//! file ([`openings`]) is played twice, once with each engine as Black (game `2k` gives A
//! Black on opening `k`, game `2k + 1` gives B Black); the referee ([`referee`]) keeps the
//! board itself, checks every move, decides the winner from its own board or a resignation,
//! and turns every fault (illegal move, time, crash, garbage) into a loss with its reason.
//!
//! With an output folder every finished game is written at once: `game-NNNN.sgf` (FF[4]
//! GM[11] as [`crate::sgf::write`] writes it, plus PB/PW, RE and the reason in GC), one JSON
//! line in `games.jsonl` ([`GameLog`]), and `match.json` (the match's settings). Running the
//! same match again with the same folder plays only the games that are not in the log; a
//! folder that holds another match (other engines, board, time or openings) is refused. The
//! result is rated in [`rating`].

pub mod engine;
pub mod openings;
pub mod rating;
pub mod referee;

use crate::board::{Board, Colour};
use engine::{Fault, GtpProcess};
use openings::Opening;
use referee::{play_game, Played, Rules};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The settings of a match (written to `match.json`; a rerun must match them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSpec {
    /// Engine A's command.
    pub a: String,
    /// Engine B's command.
    pub b: String,
    /// GTP commands sent to A after it starts (parameters such as its time per move).
    #[serde(default)]
    pub a_gtp: Vec<String>,
    /// GTP commands sent to B after it starts.
    #[serde(default)]
    pub b_gtp: Vec<String>,
    /// Board size (square).
    pub size: u32,
    /// Seconds per move.
    pub time: f64,
    /// Seconds a `genmove` may run past `time` before it loses on time.
    pub margin: f64,
    /// The openings, as their text.
    pub openings: Vec<String>,
}

/// One finished game, as a line of `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLog {
    /// Game number, from 0.
    pub game: usize,
    /// The opening.
    pub opening: String,
    /// Which engine had Black: `a` or `b`.
    pub black: String,
    /// Which engine won: `a` or `b`.
    pub winner: String,
    /// The winning colour: `black` or `white`.
    pub winner_colour: String,
    /// How it ended: `connection`, `resign`, or the loser's fault (`illegal`, `time`, `crash`,
    /// `garbage`, `error`); `crash-lost`: a crash where the opponent had a proven winning
    /// connection ([`referee`]).
    pub kind: String,
    /// The reason in words.
    pub reason: String,
    /// Moves on the referee's board, the opening and a resignation included.
    pub moves: usize,
    /// Engine A's longest `genmove` in this game, in milliseconds.
    pub a_longest_ms: u64,
    /// Engine B's longest `genmove` in this game, in milliseconds.
    pub b_longest_ms: u64,
    /// The SGF file (in the output folder), if one was written.
    pub sgf: Option<String>,
}

/// Why a match could not be played (the CLI's exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// `sh` could not be started for an engine.
    #[error("engine {engine}: cannot start '{command}': {source}")]
    Start {
        /// `a` or `b`.
        engine: char,
        /// The command.
        command: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// An engine that exits before answering its first command (e.g. an unknown program).
    #[error("engine {engine} ('{command}') exited before answering 'name': {fault}")]
    Dead {
        /// `a` or `b`.
        engine: char,
        /// The command.
        command: String,
        /// What happened.
        fault: Fault,
    },
    /// A set-up command (`--a-gtp`/`--b-gtp`) that the engine did not accept.
    #[error("engine {engine}: '{command}' failed: {fault}")]
    Setup {
        /// `a` or `b`.
        engine: char,
        /// The GTP command.
        command: String,
        /// What happened.
        fault: Fault,
    },
    /// A file of the output folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The output folder holds another match.
    #[error("{path} holds another match (engines, board, time, margin or openings differ); use another --out folder")]
    Mismatch {
        /// Its `match.json`.
        path: PathBuf,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> MatchError + '_ {
    move |source| MatchError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The opening and Black's engine (0 = A, 1 = B) of game `i`.
pub fn schedule(i: usize, openings: usize) -> (usize, usize) {
    ((i / 2) % openings.max(1), i % 2)
}

/// Reads the finished games of `games.jsonl` in `dir` (lines that do not parse, such as a
/// line cut short by an interrupted run, are skipped: those games are played again).
pub fn read_log(dir: &Path) -> Result<BTreeMap<usize, GameLog>, MatchError> {
    let path = dir.join("games.jsonl");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io_err(&path)(e)),
    };
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<GameLog>(l).ok())
        .map(|g| (g.game, g))
        .collect())
}

/// Checks or writes `match.json` in `dir` (created if missing).
fn claim_folder(dir: &Path, spec: &MatchSpec) -> Result<(), MatchError> {
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    let path = dir.join("match.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => match serde_json::from_str::<MatchSpec>(&text) {
            Ok(old) if old == *spec => Ok(()),
            _ => Err(MatchError::Mismatch { path }),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let text = serde_json::to_string_pretty(spec).expect("plain data") + "\n";
            std::fs::write(&path, text).map_err(io_err(&path))
        }
        Err(e) => Err(io_err(&path)(e)),
    }
}

/// A running engine and its name (from `name`).
struct Player {
    proc: GtpProcess,
    name: String,
}

/// Starts engine `engine` (`a` or `b`), asks its name and sends it its set-up commands.
fn start(
    engine: char,
    command: &str,
    gtp: &[String],
    setup: Duration,
) -> Result<Player, MatchError> {
    let mut proc = GtpProcess::start(command).map_err(|source| MatchError::Start {
        engine,
        command: command.into(),
        source,
    })?;
    let name = match proc.command("name", setup) {
        Ok(n) => n.lines().next().unwrap_or("").to_string(),
        Err(fault @ Fault::Crashed(_)) => {
            return Err(MatchError::Dead {
                engine,
                command: command.into(),
                fault,
            })
        }
        // Not a GTP engine after all: it plays, and loses with the reason.
        Err(_) => String::new(),
    };
    let name = if name.is_empty() {
        command.to_string()
    } else {
        name
    };
    for cmd in gtp {
        proc.command(cmd, setup)
            .map_err(|fault| MatchError::Setup {
                engine,
                command: cmd.clone(),
                fault,
            })?;
    }
    Ok(Player { proc, name })
}

/// SGF text: `]` and `\` escaped.
fn sgf_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// `sgf` (as [`crate::sgf::write`] writes it) with the players, the result and the reason
/// added to its root node.
fn annotate(sgf: &str, black: &str, white: &str, p: &Played) -> String {
    let w = if p.ending.winner == Colour::Black {
        'B'
    } else {
        'W'
    };
    let how = match p.ending.kind {
        // A crash in a position already won by a proven connection counts as the connection.
        "connection" | "crash-lost" => "",
        "resign" => "R",
        "time" => "T",
        _ => "F",
    };
    let props = format!(
        "PB[{}]PW[{}]RE[{w}+{how}]GC[{}]",
        sgf_text(black),
        sgf_text(white),
        sgf_text(&p.ending.reason)
    );
    let at = sgf[2..].find(';').map_or(sgf.len() - 1, |k| k + 2);
    format!("{}{props}{}", &sgf[..at], &sgf[at..])
}

/// Plays games `0..games` of the match that are not yet in `out`'s log (all of them without
/// `out`), calling `on_game` after each; returns every finished game of `0..games`, the
/// earlier ones read from the log included, in order.
pub fn run_match(
    spec: &MatchSpec,
    openings: &[Opening],
    games: usize,
    out: Option<&Path>,
    mut on_game: impl FnMut(&GameLog),
) -> Result<Vec<GameLog>, MatchError> {
    let board = Board::square(spec.size).expect("the size is checked by the caller");
    let rules = Rules {
        board,
        time: Duration::from_secs_f64(spec.time),
        margin: Duration::from_secs_f64(spec.margin),
        setup_timeout: Duration::from_secs(30).max(Duration::from_secs_f64(spec.time * 5.0)),
    };
    let mut done = match out {
        Some(dir) => {
            claim_folder(dir, spec)?;
            read_log(dir)?
        }
        None => BTreeMap::new(),
    };
    done.retain(|&i, _| i < games);
    let pending: Vec<usize> = (0..games).filter(|i| !done.contains_key(i)).collect();
    if pending.is_empty() {
        return Ok(done.into_values().collect());
    }
    let commands = [spec.a.as_str(), spec.b.as_str()];
    let setups = [spec.a_gtp.as_slice(), spec.b_gtp.as_slice()];
    let letters = ['a', 'b'];
    let restart = |e: usize| start(letters[e], commands[e], setups[e], rules.setup_timeout);
    let mut players = [restart(0)?, restart(1)?];
    let mut log = match out {
        Some(dir) => {
            let path = dir.join("games.jsonl");
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(io_err(&path))?;
            // A line cut short by an interrupted run: start the next one on a line of its own.
            let len = f.metadata().map_err(io_err(&path))?.len();
            if len > 0 {
                let text = std::fs::read(&path).map_err(io_err(&path))?;
                if text.last() != Some(&b'\n') {
                    writeln!(f).map_err(io_err(&path))?;
                }
            }
            Some((f, path))
        }
        None => None,
    };
    for i in pending {
        let (k, black) = schedule(i, openings.len());
        let [pa, pb] = &mut players;
        let engines = if black == 0 {
            [&mut pa.proc, &mut pb.proc]
        } else {
            [&mut pb.proc, &mut pa.proc]
        };
        let played = play_game(engines, &openings[k], &rules);
        // Engine index of each colour.
        let of = [black, 1 - black];
        let winner = of[(played.ending.winner == Colour::White) as usize];
        let mut longest = [0u64; 2];
        for (colour, &e) in of.iter().enumerate() {
            longest[e] = played.longest[colour].as_millis() as u64;
        }
        let sgf_name = out.map(|_| format!("game-{:04}.sgf", i + 1));
        if let (Some(dir), Some(name)) = (out, &sgf_name) {
            let text = crate::sgf::write(&played.game);
            let text = annotate(&text, &players[of[0]].name, &players[of[1]].name, &played);
            let path = dir.join(name);
            std::fs::write(&path, text + "\n").map_err(io_err(&path))?;
        }
        let entry = GameLog {
            game: i,
            opening: openings[k].text.clone(),
            black: ["a", "b"][black].into(),
            winner: ["a", "b"][winner].into(),
            winner_colour: played.ending.winner.to_string(),
            kind: played.ending.kind.into(),
            reason: played.ending.reason.clone(),
            moves: played.game.moves().len(),
            a_longest_ms: longest[0],
            b_longest_ms: longest[1],
            sgf: sgf_name,
        };
        if let Some((f, path)) = &mut log {
            let line = serde_json::to_string(&entry).expect("plain data");
            writeln!(f, "{line}")
                .and_then(|()| f.flush())
                .map_err(io_err(path))?;
        }
        on_game(&entry);
        done.insert(i, entry);
        // An engine that faulted is replaced by a fresh process for its next game (the old one
        // is killed, not asked to quit).
        for (colour, &e) in of.iter().enumerate() {
            if played.faulted[colour] {
                // The old process is dropped (killed), not asked to quit: it may be stuck.
                players[e] = restart(e)?;
            }
        }
    }
    for p in players {
        p.proc.quit();
    }
    Ok(done.into_values().collect())
}

/// The tally of a match's games.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// A's rating against B over all games.
    pub rating: rating::Rating,
    /// A's wins and games as Black.
    pub a_black: (usize, usize),
    /// A's wins and games as White.
    pub a_white: (usize, usize),
    /// Games won by Black.
    pub black_wins: usize,
    /// The longest `genmove` of A and of B over all games, in milliseconds.
    pub longest_ms: [u64; 2],
    /// Losses of A and of B by each kind of ending (`resign`, `time`, …; `connection` is
    /// the loser's board being cut).
    pub losses: BTreeMap<String, [usize; 2]>,
}

impl Summary {
    /// The summary of `games`.
    pub fn of(games: &[GameLog]) -> Summary {
        let mut s = Summary {
            rating: rating::Rating::new(0, 0),
            a_black: (0, 0),
            a_white: (0, 0),
            black_wins: 0,
            longest_ms: [0, 0],
            losses: BTreeMap::new(),
        };
        let mut wins = 0;
        for g in games {
            let a_won = g.winner == "a";
            wins += a_won as usize;
            let side = if g.black == "a" {
                &mut s.a_black
            } else {
                &mut s.a_white
            };
            side.0 += a_won as usize;
            side.1 += 1;
            s.black_wins += (g.winner_colour == "black") as usize;
            s.longest_ms[0] = s.longest_ms[0].max(g.a_longest_ms);
            s.longest_ms[1] = s.longest_ms[1].max(g.b_longest_ms);
            s.losses.entry(g.kind.clone()).or_default()[a_won as usize] += 1;
        }
        s.rating = rating::Rating::new(wins, games.len());
        s
    }
}
