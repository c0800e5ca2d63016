//! One refereed game between two GTP engines.
//!
//! The referee keeps the game itself ([`Game`]): every move an engine generates is checked
//! on its own board, the winner is read from that board (a side joins its borders) or from
//! a resignation, and any fault of an engine loses the game with its reason: an illegal move
//! (occupied cell, a swap: these matches have no swap rule), a reply later than the move's
//! time plus the margin, a crash, a garbage or error reply, or an engine refusing the setup,
//! the opening or the opponent's legal move. Engines' own `final_score` is never asked.
//!
//! **Adjudicated crashes** (`crash-lost`): an engine that crashes on `genmove` in a position
//! where its opponent already has a proven winning connection — a VC joining the opponent's
//! borders, built by this crate's connection engine ([`crate::vc::VcSet`]) with the crasher to
//! move, so that no reply of the crasher breaks it — loses as it would by connection, and the
//! game is logged with kind `crash-lost` (the carrier in the reason), apart from other
//! crashes (`crash`). The winner is the same either way; only the tally says which losses
//! were a game already decided on the board. Why it exists: Benzene's Wolve (2.0, release
//! build) crashes with SIGSEGV in such positions — its fill-in completes the opponent's
//! connection, it recomputes without fill-in, its "most blocking move" finds no cell
//! (`curMostHits == 0`, an assertion compiled out) and it plays the invalid point
//! (docs/journal/player-session23.md). The connection engine is sound (every VC it stores is
//! checked true by exact local search in tests/search/vc_soundness.rs), so a `crash-lost` game is one the crasher could not
//! have saved; a crash where no winning VC is found stays `crash`.

use super::engine::{Fault, GtpProcess};
use super::openings::Opening;
use crate::board::CellSet;
use crate::board::{Board, Colour, Notation};
use crate::game::{colour_letter, Game, Move};
use crate::position::Position;
use std::time::{Duration, Instant};

/// How games are played.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// The board.
    pub board: Board,
    /// Time per move (sent as `time_settings 0 T 1`, and `time_left c T 1` before each
    /// `genmove` to the engines that accepted it).
    pub time: Duration,
    /// Extra time a `genmove` reply may take before it loses on time.
    pub margin: Duration,
    /// Time allowed for every other command (setup, `play`).
    pub setup_timeout: Duration,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winning colour.
    pub winner: Colour,
    /// `connection`, `resign`, or the loser's fault: `illegal`, `time`, `crash`, `garbage`,
    /// `error`; `crash-lost` for a crash in a position the opponent had won by a proven
    /// connection (module docs).
    pub kind: &'static str,
    /// One line for the log, e.g. `white resigned` or `black: genmove b: no reply within
    /// 1500 ms`.
    pub reason: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game as the referee saw it (the opening included).
    pub game: Game,
    /// How it ended.
    pub ending: Ending,
    /// The longest `genmove` of Black's and of White's engine.
    pub longest: [Duration; 2],
    /// Per colour: the engine faulted and should be restarted before its next game.
    pub faulted: [bool; 2],
}

fn slot(c: Colour) -> usize {
    (c == Colour::White) as usize
}

/// Plays one game: `engines[0]` has Black, `engines[1]` White.
pub fn play_game(engines: [&mut GtpProcess; 2], opening: &Opening, rules: &Rules) -> Played {
    let mut g = Referee {
        engines,
        game: Game::new(rules.board),
        rules,
        longest: [Duration::ZERO; 2],
        faulted: [false; 2],
        timed: [false; 2],
    };
    let ending = g.run(opening);
    Played {
        game: g.game,
        ending,
        longest: g.longest,
        faulted: g.faulted,
    }
}

struct Referee<'a> {
    engines: [&'a mut GtpProcess; 2],
    game: Game,
    rules: &'a Rules,
    longest: [Duration; 2],
    faulted: [bool; 2],
    /// Per colour: the engine accepted `time_settings`.
    timed: [bool; 2],
}

/// The smallest carrier of a winning VC of `winner` in `position` (its borders joined whatever
/// the other side plays, the other side to move), if the connection engine finds one within
/// its budget (a few seconds at most on 11×11); `None` also when `winner` has no such VC.
pub fn proven_connection(position: &Position, winner: Colour) -> Option<CellSet> {
    let params = crate::player::Config::default().vc_params(Duration::from_secs(5));
    let vcs = crate::vc::VcSet::build(position, winner, params);
    vcs.winning_vcs().into_iter().min_by_key(|c| c.len())
}

impl Referee<'_> {
    /// The loss of `c` for a crash on `genmove`: `crash-lost` when the opponent has a proven
    /// winning connection (module docs), else the plain fault.
    fn crash(&mut self, c: Colour, cmd: &str, f: &Fault) -> Ending {
        let mut e = self.fault(c, cmd, f);
        let position = self.game.position();
        if let Some(carrier) = proven_connection(position, c.opponent()) {
            let board = position.board();
            let cells: Vec<String> = carrier
                .iter()
                .map(|x| board.cell_name(x, Notation::Letters))
                .collect();
            e.kind = "crash-lost";
            e.reason = format!(
                "{}; adjudicated: {} had a proven winning connection (VC carrier {{{}}})",
                e.reason,
                c.opponent(),
                cells.join(" ")
            );
        }
        e
    }

    /// The loss of `c` for a fault of its engine.
    fn fault(&mut self, c: Colour, what: &str, f: &Fault) -> Ending {
        self.faulted[slot(c)] = !matches!(f, Fault::Refused(_));
        Ending {
            winner: c.opponent(),
            kind: f.kind(),
            reason: format!("{c}: {what}: {f}"),
        }
    }

    /// The loss of `c` for an illegal move in reply to `cmd`.
    fn illegal(&mut self, c: Colour, cmd: &str, reason: String) -> Ending {
        self.faulted[slot(c)] = true;
        Ending {
            winner: c.opponent(),
            kind: "illegal",
            reason: format!("{c}: {cmd}: {reason}"),
        }
    }

    /// Sends a setup or `play` command to `c`'s engine.
    fn send(&mut self, c: Colour, cmd: &str) -> Result<String, Ending> {
        let t = self.rules.setup_timeout;
        self.engines[slot(c)]
            .command(cmd, t)
            .map_err(|f| self.fault(c, cmd, &f))
    }

    fn run(&mut self, opening: &Opening) -> Ending {
        match self.setup(opening) {
            Ok(()) => self.moves(),
            Err(e) => e,
        }
    }

    fn setup(&mut self, opening: &Opening) -> Result<(), Ending> {
        let n = self.rules.board.cols();
        let t = self.rules.time.as_secs_f64();
        for c in [Colour::Black, Colour::White] {
            self.send(c, &format!("boardsize {n}"))?;
            self.send(c, "clear_board")?;
            // Optional: engines without time_settings (Wolve) are told their time by their
            // own parameters.
            let i = slot(c);
            self.timed[i] = match self.engines[i]
                .command(&format!("time_settings 0 {t} 1"), self.rules.setup_timeout)
            {
                Ok(_) => true,
                Err(Fault::Refused(_)) => false,
                Err(f) => return Err(self.fault(c, "time_settings", &f)),
            };
        }
        let mut mover = Colour::Black;
        for &cell in &opening.moves {
            let name = self.rules.board.cell_name(cell, Notation::Letters);
            let cmd = format!("play {} {name}", colour_letter(mover));
            for c in [Colour::Black, Colour::White] {
                self.send(c, &cmd)?;
            }
            self.game
                .play(Move::Stone(mover, cell))
                .expect("openings are checked when read");
            mover = mover.opponent();
        }
        Ok(())
    }

    fn moves(&mut self) -> Ending {
        loop {
            if let Some(w) = self.game.winner() {
                return Ending {
                    winner: w,
                    kind: "connection",
                    reason: format!("{w} joined its borders"),
                };
            }
            let c = self.game.to_move();
            let i = slot(c);
            let letter = colour_letter(c);
            let t = self.rules.time.as_secs_f64();
            if self.timed[i] {
                if let Err(e) = self.send(c, &format!("time_left {letter} {t} 1")) {
                    return e;
                }
            }
            let cmd = format!("genmove {letter}");
            let start = Instant::now();
            let reply = self.engines[i].command(&cmd, self.rules.time + self.rules.margin);
            self.longest[i] = self.longest[i].max(start.elapsed());
            let reply = match reply {
                Ok(r) => r.to_ascii_lowercase(),
                Err(f @ Fault::Crashed(_)) => return self.crash(c, &cmd, &f),
                Err(f) => return self.fault(c, &cmd, &f),
            };
            let word = reply.split_whitespace().next().unwrap_or("");
            match word {
                "resign" => {
                    self.game.play(Move::Resign(c)).expect("the game is open");
                    return Ending {
                        winner: c.opponent(),
                        kind: "resign",
                        reason: format!("{c} resigned"),
                    };
                }
                "swap-pieces" | "swap-sides" | "swap" => {
                    return self.illegal(c, &cmd, format!("{word} (this match has no swap rule)"))
                }
                _ => {}
            }
            let Ok(cell) = self.rules.board.parse_cell(word, Notation::Letters) else {
                return self.fault(c, &cmd, &Fault::Garbage(reply.chars().take(60).collect()));
            };
            if let Err(e) = self.game.play(Move::Stone(c, cell)) {
                return self.illegal(c, &cmd, e.to_string());
            }
            if let Err(e) = self.send(c.opponent(), &format!("play {letter} {word}")) {
                return e;
            }
        }
    }
}
