//! A small bidding-Hex game on the terminal (two humans, human against engine, or engine
//! against engine), written against `BufRead`/`Write` so tests can script it.
//!
//! Rules (Payne & Robeva §1): the players hold chips whose total is fixed. Before every move
//! each player bids; the higher bid pays that many chips to the other player and moves. Ties
//! go to the holder of the tie-break token, who then hands the token to the other player (one
//! simple discrete tie rule; the paper does not fix one). The engine bids
//! `⌊(1/2 − L_H) · total⌋` capped at its chips and, when it wins the bid, plays `argmin L_H`
//! (§5 steps 3–4).
//!
//! Input is read line by line; anything that is not a number, a cell or a command gets a
//! one-line complaint and the question again. End of input ends the game cleanly.

use super::{analyse, Analysis, McConfig};
use crate::board::{Board, Cell, Colour, Notation};
use crate::position::Position;
use std::io::{self, BufRead, Write};

/// Who chooses a side's bids and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Typed at the terminal.
    Human,
    /// The Monte Carlo / exact engine.
    Engine,
}

/// Game settings.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The board.
    pub board: Board,
    /// Total chips in the game.
    pub total_chips: u64,
    /// Black's chips at the start (White has the rest).
    pub black_chips: u64,
    /// Who plays Black.
    pub black: Player,
    /// Who plays White.
    pub white: Player,
    /// Monte Carlo fillings per engine decision.
    pub samples: u64,
    /// Master seed; the engine uses `seed + move number` for each decision.
    pub seed: u64,
    /// Enumerate exactly when at most this many cells are empty.
    pub exact_limit: usize,
    /// Worker threads for the engine (`None`: all cores).
    pub threads: Option<usize>,
    /// Cell names.
    pub notation: Notation,
    /// Who holds the tie-break token at the start.
    pub tie_token: Colour,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// A player joined their borders.
    Won(Colour),
    /// A player typed `quit`.
    Quit,
    /// The input ended.
    EndOfInput,
}

const HELP: &str =
    "commands: a number (your bid), a cell such as c3 (your move, after winning a bid), \
hint (the engine's advice), board, help, quit";

struct Game<'a, R, W> {
    cfg: &'a GameConfig,
    input: R,
    out: W,
    pos: Position,
    chips: [u64; 2],
    token: Colour,
    moves: u64,
    analysis: Option<Analysis>,
}

fn idx(c: Colour) -> usize {
    match c {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

fn title(c: Colour) -> &'static str {
    match c {
        Colour::Black => "Black",
        Colour::White => "White",
    }
}

enum Answer<T> {
    Value(T),
    Stop(GameEnd),
}

/// Plays one game. Returns how it ended; I/O errors (e.g. a closed output) are passed on.
pub fn play<R: BufRead, W: Write>(cfg: &GameConfig, input: R, out: W) -> io::Result<GameEnd> {
    if cfg.black_chips > cfg.total_chips {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "Black cannot hold more chips than the game has",
        ));
    }
    let mut g = Game {
        cfg,
        input,
        out,
        pos: Position::empty(cfg.board),
        chips: [cfg.black_chips, cfg.total_chips - cfg.black_chips],
        token: cfg.tie_token,
        moves: 0,
        analysis: None,
    };
    g.run()
}

impl<R: BufRead, W: Write> Game<'_, R, W> {
    fn player(&self, c: Colour) -> Player {
        match c {
            Colour::Black => self.cfg.black,
            Colour::White => self.cfg.white,
        }
    }

    fn read_line(&mut self) -> io::Result<Option<String>> {
        self.out.flush()?;
        let mut buf = Vec::new();
        if self.input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(None);
        }
        Ok(Some(String::from_utf8_lossy(&buf).trim().to_string()))
    }

    fn status(&mut self) -> io::Result<()> {
        let board = self.pos.to_ascii(self.cfg.notation);
        writeln!(self.out, "{board}")?;
        writeln!(
            self.out,
            "chips: Black {}, White {} (total {}); tie-break token: {}",
            self.chips[0],
            self.chips[1],
            self.cfg.total_chips,
            title(self.token)
        )
    }

    fn analysis(&mut self) -> &Analysis {
        if self.analysis.is_none() {
            let mc = McConfig {
                samples: self.cfg.samples.max(1),
                seed: self.cfg.seed.wrapping_add(self.moves),
                threads: self.cfg.threads,
            };
            // Errors here can only come from a thread pool that cannot start; fall back to the
            // global pool.
            let a = analyse(&self.pos, self.cfg.exact_limit, &mc)
                .or_else(|_| {
                    analyse(
                        &self.pos,
                        self.cfg.exact_limit,
                        &McConfig {
                            threads: None,
                            ..mc
                        },
                    )
                })
                .expect("analysis of a valid position with at least one sample succeeds");
            self.analysis = Some(a);
        }
        self.analysis.as_ref().expect("just computed")
    }

    fn engine_bid(&mut self, c: Colour) -> (u64, Option<Cell>) {
        let (total, mine) = (self.cfg.total_chips, self.chips[idx(c)]);
        let adv = self
            .analysis()
            .advice(total, mine)
            .expect("a player never holds more chips than the total");
        (adv.bid, adv.cell)
    }

    fn hint(&mut self, c: Colour) -> io::Result<()> {
        let (total, mine) = (self.cfg.total_chips, self.chips[idx(c)]);
        let a = self.analysis().clone();
        let adv = a.advice(total, mine).expect("chips never exceed the total");
        let name = adv
            .cell
            .map(|x| self.cfg.board.cell_name(x, self.cfg.notation))
            .unwrap_or_else(|| "-".into());
        writeln!(
            self.out,
            "hint: move {name}, bid {} (L_H = {:.3}{}); {} wins the random-turn game with probability {:.3}",
            adv.bid,
            adv.loser_prob,
            if a.is_exact() { ", exact" } else { "" },
            title(c),
            a.win_prob(c)
        )
    }

    /// Handles a command word; `None` if `line` is not one.
    fn command(&mut self, c: Colour, line: &str) -> io::Result<Option<Answer<()>>> {
        match line.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => Ok(Some(Answer::Stop(GameEnd::Quit))),
            "help" | "?" | "h" => {
                writeln!(self.out, "{HELP}")?;
                Ok(Some(Answer::Value(())))
            }
            "board" => {
                self.status()?;
                Ok(Some(Answer::Value(())))
            }
            "hint" => {
                self.hint(c)?;
                Ok(Some(Answer::Value(())))
            }
            _ => Ok(None),
        }
    }

    fn ask_bid(&mut self, c: Colour) -> io::Result<Answer<u64>> {
        loop {
            let mine = self.chips[idx(c)];
            write!(self.out, "{} (holding {mine} chips), your bid: ", title(c))?;
            let Some(line) = self.read_line()? else {
                return Ok(Answer::Stop(GameEnd::EndOfInput));
            };
            if line.is_empty() {
                continue;
            }
            match self.command(c, &line)? {
                Some(Answer::Stop(e)) => return Ok(Answer::Stop(e)),
                Some(Answer::Value(())) => continue,
                None => {}
            }
            match line.parse::<u64>() {
                Ok(b) if b <= mine => return Ok(Answer::Value(b)),
                Ok(_) => writeln!(self.out, "error: you hold only {mine} chips")?,
                Err(_) => writeln!(
                    self.out,
                    "error: '{}' is not a bid (a whole number of chips from 0 to {mine}); type help",
                    shorten(&line)
                )?,
            }
        }
    }

    fn ask_move(&mut self, c: Colour) -> io::Result<Answer<Cell>> {
        loop {
            write!(self.out, "{}, your move: ", title(c))?;
            let Some(line) = self.read_line()? else {
                return Ok(Answer::Stop(GameEnd::EndOfInput));
            };
            if line.is_empty() {
                continue;
            }
            match self.command(c, &line)? {
                Some(Answer::Stop(e)) => return Ok(Answer::Stop(e)),
                Some(Answer::Value(())) => continue,
                None => {}
            }
            match self.cfg.board.parse_cell(&line, self.cfg.notation) {
                Ok(cell) if cell.is_border() => writeln!(
                    self.out,
                    "error: '{}' is a border, not a cell",
                    shorten(&line)
                )?,
                Ok(cell) if self.pos.colour_at(cell).is_some() => writeln!(
                    self.out,
                    "error: {} is occupied",
                    self.cfg.board.cell_name(cell, self.cfg.notation)
                )?,
                Ok(cell) => return Ok(Answer::Value(cell)),
                Err(e) => writeln!(self.out, "error: {e}")?,
            }
        }
    }

    fn run(&mut self) -> io::Result<GameEnd> {
        writeln!(
            self.out,
            "Bidding Hex on {}: Black joins top and bottom, White left and right. \
             Each move is auctioned; the higher bid pays the other player. Type help for commands.",
            self.cfg.board
        )?;
        loop {
            if let Some(w) = self.pos.winner() {
                writeln!(self.out, "{}", self.pos.to_ascii(self.cfg.notation))?;
                writeln!(self.out, "{} wins.", title(w))?;
                return Ok(GameEnd::Won(w));
            }
            self.analysis = None;
            self.status()?;
            let mut bids = [0u64; 2];
            let mut engine_move = [None, None];
            for c in [Colour::Black, Colour::White] {
                match self.player(c) {
                    Player::Engine => {
                        let (b, m) = self.engine_bid(c);
                        bids[idx(c)] = b;
                        engine_move[idx(c)] = m;
                    }
                    Player::Human => match self.ask_bid(c)? {
                        Answer::Value(b) => bids[idx(c)] = b,
                        Answer::Stop(e) => return self.stop(e),
                    },
                }
            }
            let (winner, tie) = match bids[0].cmp(&bids[1]) {
                std::cmp::Ordering::Greater => (Colour::Black, false),
                std::cmp::Ordering::Less => (Colour::White, false),
                std::cmp::Ordering::Equal => (self.token, true),
            };
            let loser = winner.opponent();
            let paid = bids[idx(winner)];
            self.chips[idx(winner)] -= paid;
            self.chips[idx(loser)] += paid;
            write!(
                self.out,
                "bids: Black {}, White {}. {} wins the bid",
                bids[0],
                bids[1],
                title(winner)
            )?;
            if tie {
                self.token = loser;
                write!(self.out, " on the tie-break token (now {}'s)", title(loser))?;
            }
            writeln!(self.out, " and pays {paid} chips to {}.", title(loser))?;
            let cell = match (self.player(winner), engine_move[idx(winner)]) {
                (Player::Engine, Some(m)) => m,
                _ => match self.ask_move(winner)? {
                    Answer::Value(m) => m,
                    Answer::Stop(e) => return self.stop(e),
                },
            };
            self.pos
                .play(winner, cell)
                .expect("moves are checked to be on empty cells");
            self.moves += 1;
            writeln!(
                self.out,
                "{} plays {}.",
                title(winner),
                self.cfg.board.cell_name(cell, self.cfg.notation)
            )?;
        }
    }

    fn stop(&mut self, e: GameEnd) -> io::Result<GameEnd> {
        match e {
            GameEnd::EndOfInput => writeln!(self.out, "\nend of input: game abandoned.")?,
            GameEnd::Quit => writeln!(self.out, "game abandoned.")?,
            GameEnd::Won(_) => {}
        }
        Ok(e)
    }
}

fn shorten(s: &str) -> String {
    let t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        format!("{t}…")
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(black: Player, white: Player) -> GameConfig {
        GameConfig {
            board: Board::square(2).unwrap(),
            total_chips: 10,
            black_chips: 5,
            black,
            white,
            samples: 1000,
            seed: 3,
            exact_limit: 16,
            threads: Some(1),
            notation: Notation::Letters,
            tie_token: Colour::White,
        }
    }

    #[test]
    fn two_humans_scripted() {
        // Black outbids twice and plays a1, a2: a top-bottom chain on 2x2.
        let script = "7\n3\n1\na1\n2\n0\nzz\nb3\na1\na2\n";
        let mut out = Vec::new();
        let end = play(
            &cfg(Player::Human, Player::Human),
            script.as_bytes(),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(end, GameEnd::Won(Colour::Black), "{text}");
        assert!(text.contains("error: you hold only 5 chips"), "{text}");
        assert!(text.contains("is occupied"), "{text}");
        assert!(text.contains("off the 2x2 board"), "{text}");
        // Black paid 3 for the first move: 5 - 3 = 2, White 5 + 3 = 8.
        assert!(text.contains("chips: Black 2, White 8"), "{text}");
        assert!(text.contains("is not a cell name"), "{text}");
    }

    #[test]
    fn eof_and_garbage_end_cleanly() {
        let mut out = Vec::new();
        let end = play(
            &cfg(Player::Human, Player::Engine),
            &b"\xff\xfe garbage\n"[..],
            &mut out,
        )
        .unwrap();
        assert_eq!(end, GameEnd::EndOfInput);
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("is not a bid"), "{text}");
        let end = play(
            &cfg(Player::Human, Player::Engine),
            &b"quit\n"[..],
            Vec::new(),
        )
        .unwrap();
        assert_eq!(end, GameEnd::Quit);
    }

    #[test]
    fn engine_against_engine_finishes() {
        let mut out = Vec::new();
        let end = play(&cfg(Player::Engine, Player::Engine), &b""[..], &mut out).unwrap();
        assert!(
            matches!(end, GameEnd::Won(_)),
            "{}",
            String::from_utf8_lossy(&out)
        );
    }
}
