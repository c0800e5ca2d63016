//! The GTP engine in the Hex dialect of Benzene and HexGui (ECOSYSTEM.md §1).
//!
//! [`Engine::handle`] takes one input line and returns the framed reply (`=id text\n\n` or
//! `?id message\n\n`), or nothing for empty and comment lines. Nothing a client sends can make
//! it panic: every argument is checked and every failure becomes a `?` reply.
//!
//! Conventions are Benzene's and HexGui's, which are also hexproof's: cells `a1`…, `a1` the
//! acute corner, Black joins top and bottom and moves first; colours `b`, `black`, `w`,
//! `white` in any case. The swap is `play w swap-pieces` (also `swap`, `swap-sides`) with
//! Benzene's meaning: the stone stays and White moves again ([`crate::game`]).
//!
//! The command table is [`COMMANDS`]; the analysis commands for HexGui are in [`analyze`],
//! the bidding extension in [`crate::gtp::bidding`].

pub mod analyze;
pub mod bidding;
mod error;

pub use error::GtpError;

use crate::board::{Board, Cell, Colour, Notation};
use crate::game::{colour_letter, Game, Move};
use crate::player::{self, Config, Decision, Kind};
use crate::vc::Variant;
use std::time::Duration;

/// Standard and Benzene commands (the analysis and bidding commands are added to these).
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "all_legal_moves",
    "time_settings",
    "time_left",
    "param_game",
    "param_player",
    "loadsgf",
    "savesgf",
    "printsgf",
    "hexgui-analyze_commands",
];

/// Where in [`COMMANDS`] the commands about the board and the moves are (`boardsize` …
/// `all_legal_moves`).
const GAME_COMMANDS: std::ops::Range<usize> = 6..15;
/// Where the commands that set the clock and parameters are (`time_settings` …
/// `param_player`).
const SETTINGS_COMMANDS: std::ops::Range<usize> = 15..19;
/// Where the commands about game records are (`loadsgf` … `printsgf`).
const SGF_COMMANDS: std::ops::Range<usize> = 19..22;

/// `Err` unless `args` has `n` arguments.
fn arity(name: &str, args: &[&str], n: usize) -> Result<(), GtpError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(GtpError::Arity {
            command: name.into(),
            expected: n,
            got: args.len(),
        })
    }
}

/// Time control state (GTP `time_settings` / `time_left`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Main time, byo-yomi time and stones from `time_settings`.
    pub settings: Option<(f64, f64, u32)>,
    /// Seconds left for Black and White from `time_left` (or the main time, or the first
    /// byo-yomi period when the main time is 0, from `time_settings`).
    pub left: [Option<f64>; 2],
    /// Stones that `left` must cover (0: main time; n > 0: in byo-yomi), per colour.
    pub stones: [u32; 2],
}

/// The engine: a game, a player configuration, a clock.
pub struct Engine {
    /// The game.
    pub game: Game,
    /// The player's settings.
    pub config: Config,
    /// The clock.
    pub clock: Clock,
    /// Set by `quit`.
    pub quit: bool,
    /// Proof set of the last proven move per colour (for the next move's proof).
    hint: [Option<crate::board::CellSet>; 2],
    /// Last genmove report (for logs).
    pub last_info: String,
    /// Jing Yang's 9×9 strategy (`gtp --yang FILE`): Black follows it while the game does.
    pub yang: Option<crate::yang::Strategy>,
}

fn slot(c: Colour) -> usize {
    match c {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

/// Reads a GTP colour.
pub fn parse_colour(s: &str) -> Result<Colour, GtpError> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Colour::Black),
        "w" | "white" => Ok(Colour::White),
        _ => Err(GtpError::InvalidColour(s.into())),
    }
}

/// Cleans a raw line as GTP asks: control characters dropped, tabs to spaces, comments cut.
pub fn clean(line: &str) -> String {
    let mut s: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    if let Some(i) = s.find('#') {
        s.truncate(i);
    }
    s.trim().to_string()
}

/// Frames a reply; multi-line text never contains an empty line.
pub fn frame(id: Option<u64>, result: &Result<String, GtpError>) -> String {
    let (mark, text) = match result {
        Ok(t) => ('=', t.clone()),
        Err(e) => ('?', e.to_string()),
    };
    let id = id.map_or(String::new(), |i| i.to_string());
    let body: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end())
        .filter(|l| !l.is_empty())
        .collect();
    let body = body.join("\n");
    if body.is_empty() {
        format!("{mark}{id}\n\n")
    } else {
        format!("{mark}{id} {body}\n\n")
    }
}

impl Engine {
    /// An engine on an 11×11 board with `config`.
    pub fn new(config: Config) -> Engine {
        Engine {
            game: Game::new(Board::square(11).expect("11x11")),
            config,
            clock: Clock::default(),
            quit: false,
            hint: [None, None],
            last_info: String::new(),
            yang: None,
        }
    }

    /// Handles one input line: `None` for empty lines and comments, else the framed reply.
    pub fn handle(&mut self, line: &str) -> Option<String> {
        let line = clean(line);
        if line.is_empty() {
            return None;
        }
        let mut words = line.split_whitespace();
        let first = words.next()?;
        let (id, name) = match first.parse::<u64>() {
            Ok(id) => match words.next() {
                Some(n) => (Some(id), n),
                None => return Some(frame(Some(id), &Err(GtpError::MissingCommand))),
            },
            Err(_) => (None, first),
        };
        let args: Vec<&str> = words.collect();
        let result = self.run(name, &args);
        Some(frame(id, &result))
    }

    /// Every command name, in `list_commands` order.
    pub fn command_names() -> Vec<&'static str> {
        let mut v: Vec<&str> = COMMANDS.to_vec();
        v.extend(analyze::COMMANDS.iter().copied());
        v.extend(crate::gtp::bidding::GTP_COMMANDS.iter().copied());
        v
    }

    fn run(&mut self, name: &str, args: &[&str]) -> Result<String, GtpError> {
        let argc = |n: usize| arity(name, args, n);
        match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("hexproof".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                argc(1)?;
                Ok(Engine::command_names().contains(&args[0]).to_string())
            }
            "list_commands" => Ok(Engine::command_names().join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "hexgui-analyze_commands" => Ok(format!(
                "{}\n{}",
                analyze::HEXGUI_ANALYZE,
                crate::gtp::bidding::HEXGUI_ANALYZE
            )),
            _ if COMMANDS[GAME_COMMANDS].contains(&name) => self.game_command(name, args),
            _ if COMMANDS[SETTINGS_COMMANDS].contains(&name) => self.settings_command(name, args),
            _ if COMMANDS[SGF_COMMANDS].contains(&name) => self.sgf_command(name, args),
            _ => {
                if let Some(r) = analyze::dispatch(self, name, args) {
                    return r;
                }
                if let Some(r) = crate::gtp::bidding::dispatch(name, self.game.position(), args) {
                    return r;
                }
                Err(GtpError::UnknownCommand(name.into()))
            }
        }
    }

    /// The board and the moves (`COMMANDS[GAME_COMMANDS]`).
    fn game_command(&mut self, name: &str, args: &[&str]) -> Result<String, GtpError> {
        let argc = |n: usize| arity(name, args, n);
        match name {
            "boardsize" => {
                let (c, r) = match args {
                    [n] => (n, n),
                    [c, r] => (c, r),
                    _ => return Err(GtpError::Usage("boardsize: expected N or W H")),
                };
                let num = |s: &str| s.parse::<u32>().map_err(|_| GtpError::UnacceptableSize);
                let b = Board::new(num(c)?, num(r)?).map_err(|_| GtpError::UnacceptableSize)?;
                self.game = Game::new(b);
                self.hint = [None, None];
                Ok(String::new())
            }
            "clear_board" => {
                self.game = Game::new(*self.game.board());
                self.hint = [None, None];
                Ok(String::new())
            }
            "play" => {
                argc(2)?;
                let c = parse_colour(args[0])?;
                let m = self.parse_move(c, args[1])?;
                // Without the swap rule (Benzene's default, `param_game allow_swap 0`) a swap
                // is not a move of this game: reject it rather than let it stand.
                if matches!(m, Move::Swap(_)) && !self.config.allow_swap {
                    return Err(GtpError::SwapOff(colour_letter(c)));
                }
                self.game.play(m)?;
                Ok(String::new())
            }
            "genmove" | "reg_genmove" => {
                argc(1)?;
                let c = parse_colour(args[0])?;
                // A decided game stays decided: the winner has no move (it never resigns);
                // the loser's `genmove` answers `resign`, which confirms the result.
                if self.game.winner() == Some(c) {
                    return Err(GtpError::AlreadyWon(colour_letter(c)));
                }
                let m = self.generate(c);
                let text = self.move_text(m);
                if name == "genmove" {
                    self.game.play(m)?;
                }
                Ok(text)
            }
            "undo" => {
                argc(0)?;
                self.game.undo()?;
                Ok(String::new())
            }
            "showboard" => Ok(showboard(&self.game)),
            "final_score" => Ok(match self.game.winner() {
                Some(Colour::Black) => "B+".into(),
                Some(Colour::White) => "W+".into(),
                None => "cannot score".into(),
            }),
            "all_legal_moves" => {
                let b = self.game.board();
                let mut v: Vec<String> = if self.game.winner().is_some() {
                    Vec::new()
                } else {
                    self.game
                        .position()
                        .empty_cells()
                        .iter()
                        .map(|c| b.cell_name(c, Notation::Letters))
                        .collect()
                };
                if self.game.swap_legal() && self.config.allow_swap {
                    v.push("swap-pieces".into());
                }
                Ok(v.join(" "))
            }
            _ => Err(GtpError::UnknownCommand(name.into())),
        }
    }

    /// The clock and the parameters (`COMMANDS[SETTINGS_COMMANDS]`).
    fn settings_command(&mut self, name: &str, args: &[&str]) -> Result<String, GtpError> {
        let argc = |n: usize| arity(name, args, n);
        match name {
            "time_settings" => {
                argc(3)?;
                let main = nonneg(args[0])?;
                let byo = nonneg(args[1])?;
                let stones = args[2]
                    .parse::<u32>()
                    .map_err(|_| GtpError::BadStoneCount(args[2].into()))?;
                self.clock.settings = Some((main, byo, stones));
                // With no main time the first byo-yomi period starts at once.
                let (left, n) = if main > 0.0 { (main, 0) } else { (byo, stones) };
                self.clock.left = [Some(left); 2];
                self.clock.stones = [n; 2];
                Ok(String::new())
            }
            "time_left" => {
                argc(3)?;
                let c = parse_colour(args[0])?;
                let left = nonneg(args[1])?;
                let stones = args[2]
                    .parse::<u32>()
                    .map_err(|_| GtpError::BadStoneCount(args[2].into()))?;
                self.clock.left[slot(c)] = Some(left);
                self.clock.stones[slot(c)] = stones;
                Ok(String::new())
            }
            "param_game" => match args {
                [] => Ok(format!(
                    "[bool] allow_swap {}",
                    self.config.allow_swap as u8
                )),
                ["allow_swap", v] => {
                    self.config.allow_swap = parse_bool(v)?;
                    Ok(String::new())
                }
                _ => Err(GtpError::Usage("param_game: known parameter: allow_swap")),
            },
            "param_player" => self.param_player(args),
            _ => Err(GtpError::UnknownCommand(name.into())),
        }
    }

    /// Game records (`COMMANDS[SGF_COMMANDS]`).
    fn sgf_command(&mut self, name: &str, args: &[&str]) -> Result<String, GtpError> {
        let argc = |n: usize| arity(name, args, n);
        match name {
            "loadsgf" => {
                if args.is_empty() || args.len() > 2 {
                    return Err(GtpError::Usage("loadsgf: expected file [move_number]"));
                }
                let upto = match args.get(1) {
                    Some(n) => Some(
                        n.parse::<usize>()
                            .map_err(|_| GtpError::BadMoveNumber(n.to_string()))?,
                    ),
                    None => None,
                };
                let text = std::fs::read_to_string(args[0]).map_err(|source| GtpError::Read {
                    path: args[0].into(),
                    source,
                })?;
                self.game = crate::sgf::read(&text, upto)?;
                self.hint = [None, None];
                Ok(String::new())
            }
            "savesgf" => {
                argc(1)?;
                std::fs::write(args[0], crate::sgf::write(&self.game) + "\n").map_err(
                    |source| GtpError::Write {
                        path: args[0].into(),
                        source,
                    },
                )?;
                Ok(String::new())
            }
            "printsgf" => Ok(crate::sgf::write(&self.game)),
            _ => Err(GtpError::UnknownCommand(name.into())),
        }
    }

    fn parse_move(&self, c: Colour, s: &str) -> Result<Move, GtpError> {
        match s.to_ascii_lowercase().as_str() {
            "swap-pieces" | "swap" | "swap-sides" => Ok(Move::Swap(c)),
            "resign" => Ok(Move::Resign(c)),
            other => {
                let cell = self
                    .game
                    .board()
                    .parse_cell(other, Notation::Letters)
                    .map_err(|_| GtpError::NotACell {
                        colour: colour_letter(c),
                        text: s.into(),
                    })?;
                Ok(Move::Stone(c, cell))
            }
        }
    }

    fn move_text(&self, m: Move) -> String {
        match m {
            Move::Stone(_, c) => self.game.board().cell_name(c, Notation::Letters),
            Move::Swap(_) => "swap-pieces".into(),
            Move::Resign(_) => "resign".into(),
        }
    }

    /// Time for the next move of `c` (GTP 2 §4.2 time controls):
    /// - no `time_settings`, or byo-yomi time > 0 with 0 stones (no time limit), or all zero:
    ///   the configured move time;
    /// - in byo-yomi (`time_left c T n` with n > 0): `T / n`, less a safety margin (5 % and
    ///   20 ms, for the pipes and the client's own timing);
    /// - in main time: a share of what is left (`left / (empty/2 + 5)`), at least the
    ///   byo-yomi period with its margin when one follows, else at most half of `left`.
    pub fn move_time(&self, c: Colour) -> Duration {
        let safe = |t: f64| t * 0.95 - 0.02;
        let unlimited = match self.clock.settings {
            None => true,
            Some((main, byo, stones)) => (byo > 0.0 && stones == 0) || (main == 0.0 && byo == 0.0),
        };
        let t = match self.clock.left[slot(c)] {
            Some(left) if !unlimited => {
                let stones = self.clock.stones[slot(c)];
                if stones > 0 {
                    safe(left / stones as f64)
                } else {
                    let empty = self.game.position().empty_cells().len().max(1) as f64;
                    let share = left / (empty / 2.0 + 5.0);
                    let period =
                        self.clock
                            .settings
                            .map_or(0.0, |(_, b, s)| if s > 0 { b / s as f64 } else { 0.0 });
                    if period > 0.0 {
                        share.max(safe(period))
                    } else {
                        share.min(left * 0.5)
                    }
                }
            }
            _ => self.config.move_time.as_secs_f64(),
        };
        Duration::from_secs_f64(t.clamp(0.01, 3600.0))
    }

    /// Chooses a move for `c` without playing it.
    pub fn generate(&mut self, c: Colour) -> Move {
        if self.game.winner().is_some() {
            return Move::Resign(c);
        }
        if c == Colour::White
            && self.config.allow_swap
            && self.game.swap_legal()
            && player::should_swap(self.game.position())
        {
            return Move::Swap(c);
        }
        if let Some(cell) = self.yang_move(c) {
            self.last_info = "yang: the strategy's move".into();
            return Move::Stone(c, cell);
        }
        let t = self.move_time(c);
        let r = player::genmove(&self.config, self.game.position(), c, t, self.hint[slot(c)]);
        self.hint[slot(c)] = r.proof_set;
        self.last_info = r.info.clone();
        match r.decision {
            Decision::Play(cell) => Move::Stone(c, cell),
            Decision::Swap => Move::Swap(c),
            Decision::Resign => Move::Resign(c),
        }
    }

    /// Black's move by Jing Yang's strategy, when one is loaded, the board is its size and
    /// the game so far follows it ([`crate::yang::follow::next_move`]).
    fn yang_move(&self, c: Colour) -> Option<crate::board::Cell> {
        let s = self.yang.as_ref()?;
        let b = self.game.position().board();
        if c != Colour::Black || b.cols() != s.board_size || b.rows() != s.board_size {
            return None;
        }
        let moves: Option<Vec<_>> = self
            .game
            .moves()
            .iter()
            .map(|m| match *m {
                Move::Stone(colour, cell) => Some((colour, cell)),
                _ => None,
            })
            .collect();
        crate::yang::follow::next_move(s, &moves?)
    }

    fn param_player(&mut self, args: &[&str]) -> Result<String, GtpError> {
        let c = &mut self.config;
        match args {
            [] => Ok(format!(
                "[list/alphabeta/mcts] player {}\n[string] depth {}\n[string] m {}\n[string] k {}\n[string] width {}\n[string] ab_vc_plies {}\n[bool] ab_incremental {}\n[string] ab_kept_plies {}\n[string] ab_semi_limit {}\n[string] ab_edge_semi_limit {}\n[bool] ab_order_flow {}\n[list/hsearch/unlimited/limited/fast] variant {}\n[bool] templates {}\n[bool] library_seeds {}\n[list/none/direct/shared/both] links {}\n[string] move_time {}\n[string] knowledge_threshold {}\n[bool] solver_thread {}\n[string] proof_nodes {}\n[bool] resign {}\n[string] seed {}\n[bool] priors {}\n[string] prior_weight {}\n[bool] inferior {}\n[bool] rave {}\n[string] fpu_bonus {}\n[string] circuit_prior {}\n[string] circuit_inherit {}\n[string] uct_c {}\n[string] rave_k {}\n[bool] ladders {}\n[bool] ladder_escape {}\n[list/off/r1/r2] playout_patterns {}\n[string] playout_power {}",
                c.kind.name(),
                c.depth,
                c.m,
                c.k,
                c.width,
                c.ab_vc_plies,
                c.ab_incremental as u8,
                c.ab_kept_plies,
                c.ab_semi_limit,
                c.ab_edge_semi_limit,
                c.ab_order_flow as u8,
                c.variant,
                c.templates as u8,
                c.library_seeds as u8,
                links_name(c.links),
                c.move_time.as_secs_f64(),
                c.knowledge_threshold,
                c.solver_thread as u8,
                c.proof_nodes,
                c.resign as u8,
                c.seed,
                c.priors as u8,
                c.prior_weight,
                c.inferior as u8,
                c.rave as u8,
                c.fpu_bonus,
                c.circuit_prior,
                c.circuit_inherit,
                c.uct_c,
                c.rave_k,
                c.ladders as u8,
                c.ladder_escape as u8,
                ["off", "r1", "r2"][c.playout_patterns.min(2) as usize],
                c.playout_power
            )),
            [name, v] => {
                let num = |v: &str| {
                    v.parse::<u64>().map_err(|_| GtpError::NotANumber {
                        name: name.to_string(),
                        value: v.into(),
                    })
                };
                match *name {
                    "player" => c.kind = Kind::parse(v).ok_or_else(|| GtpError::UnknownPlayer(v.to_string()))?,
                    "depth" => c.depth = num(v)?.clamp(1, 20) as u32,
                    "m" => c.m = num(v)? as usize,
                    "k" => c.k = num(v)?.max(1) as usize,
                    "width" => c.width = num(v)?.max(1) as usize,
                    "ab_vc_plies" => c.ab_vc_plies = num(v)?.min(20) as u32,
                    "ab_incremental" => c.ab_incremental = parse_bool(v)?,
                    "ab_kept_plies" => c.ab_kept_plies = num(v)?.min(20) as u32,
                    "ab_semi_limit" => c.ab_semi_limit = num(v)? as usize,
                    "ab_edge_semi_limit" => c.ab_edge_semi_limit = num(v)? as usize,
                    "ab_order_flow" => c.ab_order_flow = parse_bool(v)?,
                    "variant" => c.variant = Variant::parse(v).ok_or_else(|| GtpError::UnknownVariant(v.to_string()))?,
                    "templates" => c.templates = parse_bool(v)?,
                    "library_seeds" => c.library_seeds = parse_bool(v)?,
                    "links" => c.links = crate::eval::VcLinks::parse(v).ok_or_else(|| GtpError::UnknownLinks(v.to_string()))?,
                    "move_time" => c.move_time = Duration::from_secs_f64(nonneg(v)?.clamp(0.01, 3600.0)),
                    "knowledge_threshold" => c.knowledge_threshold = num(v)? as u32,
                    "solver_thread" => c.solver_thread = parse_bool(v)?,
                    "proof_nodes" => c.proof_nodes = num(v)?,
                    "resign" => c.resign = parse_bool(v)?,
                    "seed" => c.seed = num(v)?,
                    "priors" => c.priors = parse_bool(v)?,
                    "prior_weight" => c.prior_weight = nonneg(v)?.min(100.0),
                    "inferior" => c.inferior = parse_bool(v)?,
                    "rave" => c.rave = parse_bool(v)?,
                    "fpu_bonus" => c.fpu_bonus = nonneg(v)?.min(10.0),
                    "circuit_prior" => c.circuit_prior = nonneg(v)?.min(100_000.0),
                    "circuit_inherit" => c.circuit_inherit = nonneg(v)?.min(100_000.0),
                    "uct_c" => c.uct_c = nonneg(v)?.min(100.0),
                    "rave_k" => c.rave_k = nonneg(v)?.clamp(1.0, 1e9),
                    "ladders" => c.ladders = parse_bool(v)?,
                    "ladder_escape" => c.ladder_escape = parse_bool(v)?,
                    "playout_power" => c.playout_power = nonneg(v)?.min(10.0),
                    "playout_patterns" => {
                        c.playout_patterns = match *v {
                            "off" | "0" => 0,
                            "r1" | "1" => 1,
                            "r2" | "2" => 2,
                            _ => return Err(GtpError::UnknownPlayoutPatterns(v.to_string())),
                        }
                    }
                    _ => return Err(GtpError::UnknownParameter(name.to_string())),
                }
                Ok(String::new())
            }
            _ => Err(GtpError::Usage(
                "param_player: expected no arguments or NAME VALUE",
            )),
        }
    }
}

/// Name of a links setting.
pub fn links_name(l: crate::eval::VcLinks) -> &'static str {
    use crate::eval::VcLinks::*;
    match l {
        None => "none",
        Direct => "direct",
        SharedNeighbours => "shared",
        Both => "both",
        Overlap => "overlap",
        DirectOverlap => "direct-overlap",
    }
}

fn nonneg(s: &str) -> Result<f64, GtpError> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(GtpError::NotNonNegative(s.into())),
    }
}

fn parse_bool(s: &str) -> Result<bool, GtpError> {
    match s.to_ascii_lowercase().as_str() {
        "1" | "true" | "on" => Ok(true),
        "0" | "false" | "off" => Ok(false),
        _ => Err(GtpError::NotBoolean(s.into())),
    }
}

/// Benzene's `showboard` layout (ECOSYSTEM.md §1.6): letters, rows indented one more space
/// each, `N\` cells `\N`, `B`/`W` stones, `.` empty.
pub fn showboard(game: &Game) -> String {
    let b = game.board();
    let pos = game.position();
    let letters: String = (0..b.cols())
        .map(|c| format!("{}  ", (b'a' + c) as char))
        .collect::<String>();
    let letters = letters.trim_end();
    let to_move = match game.winner() {
        Some(w) => format!("{w} won"),
        None => format!("{} to move", game.to_move()),
    };
    let mut s = format!("{to_move}\n  {letters}\n");
    for r in 0..b.rows() {
        let label = format!("{}", r + 1);
        s += &" ".repeat(r as usize + 2 - label.len().min(2));
        s += &format!("{label}\\");
        let cells: Vec<&str> = (0..b.cols())
            .map(|c| match pos.colour_at(Cell::at(c, r)) {
                Some(Colour::Black) => "B",
                Some(Colour::White) => "W",
                None => ".",
            })
            .collect();
        s += &cells.join("  ");
        s += &format!("\\{label}\n");
    }
    s += &" ".repeat(b.rows() as usize + 3);
    s += letters;
    s
}

/// The longest input line the GTP loop reads (1 MiB): a longer line is answered
/// [`line_too_long`] and skipped to its end, so that memory stays bounded whatever a client
/// sends (an endless line without a newline is consumed and dropped as it arrives).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What [`read_line_capped`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// End of input, nothing read.
    Eof,
    /// A line (in the buffer, with its newline if it had one).
    Line,
    /// A line longer than the cap: the buffer holds its first `cap` bytes only; the rest up to
    /// the next newline (or the end of input) is still to be skipped with [`skip_line`].
    TooLong,
}

/// Reads one line into `buf` (cleared first), at most `cap` bytes of it.
pub fn read_line_capped<R: std::io::BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<LineRead> {
    buf.clear();
    loop {
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(if buf.is_empty() {
                LineRead::Eof
            } else {
                LineRead::Line
            });
        }
        let room = cap - buf.len();
        let (take, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) if i < room => (i + 1, true),
            _ => (avail.len().min(room), false),
        };
        buf.extend_from_slice(&avail[..take]);
        input.consume(take);
        if done {
            return Ok(LineRead::Line);
        }
        if buf.len() >= cap {
            return Ok(LineRead::TooLong);
        }
    }
}

/// Skips input up to and including the next newline (or to the end of input), in constant
/// memory.
pub fn skip_line<R: std::io::BufRead>(input: &mut R) -> std::io::Result<()> {
    let mut scratch = Vec::new();
    while read_line_capped(input, &mut scratch, 1 << 16)? == LineRead::TooLong {}
    Ok(())
}

/// The reply to a line longer than [`MAX_LINE_BYTES`] (`?` with the command's id when its
/// first bytes show one).
pub fn line_too_long(start: &[u8]) -> String {
    let head = String::from_utf8_lossy(&start[..start.len().min(32)]);
    let id = head
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|d| d.parse::<u64>().ok());
    frame(id, &Err(GtpError::LineTooLong(MAX_LINE_BYTES)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_standard_command_is_dispatched() {
        // The command groups of `Engine::run` cover COMMANDS exactly.
        let mut e = Engine::new(Config::default());
        for name in COMMANDS {
            let r = e.run(name, &[]);
            assert!(
                !matches!(r, Err(GtpError::UnknownCommand(_))),
                "{name}: {r:?}"
            );
        }
        let ends = |r: std::ops::Range<usize>| (COMMANDS[r.start], COMMANDS[r.end - 1]);
        assert_eq!(ends(GAME_COMMANDS), ("boardsize", "all_legal_moves"));
        assert_eq!(ends(SETTINGS_COMMANDS), ("time_settings", "param_player"));
        assert_eq!(ends(SGF_COMMANDS), ("loadsgf", "printsgf"));
    }

    #[test]
    fn long_lines_are_capped_and_skipped() {
        // Issue 24 item 10: a line is read into at most `cap` bytes; the rest is skipped.
        let text = format!("{}\nname\n{}", "x".repeat(100), "y".repeat(50));
        let mut r = std::io::BufReader::with_capacity(7, text.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 16).unwrap(),
            LineRead::TooLong
        );
        assert_eq!(buf.len(), 16);
        skip_line(&mut r).unwrap();
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 16).unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"name\n");
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 16).unwrap(),
            LineRead::TooLong
        );
        skip_line(&mut r).unwrap();
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 16).unwrap(),
            LineRead::Eof
        );
        // A line of exactly the cap, newline included, is a line.
        let mut r = std::io::BufReader::new(&b"0123456789abcde\nz"[..]);
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 16).unwrap(),
            LineRead::Line
        );
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 16).unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"z");
        assert_eq!(
            line_too_long(b"12 play b a1 aaaa"),
            format!("?12 line too long (more than {MAX_LINE_BYTES} bytes); ignored\n\n")
        );
    }

    fn engine() -> Engine {
        Engine::new(Config {
            kind: Kind::AlphaBeta,
            depth: 1,
            move_time: Duration::from_millis(100),
            solver_thread: false,
            ..Config::default()
        })
    }

    #[test]
    fn framing_and_errors() {
        let mut e = engine();
        assert_eq!(e.handle(""), None);
        assert_eq!(e.handle("# comment"), None);
        assert_eq!(e.handle("12 name").unwrap(), "=12 hexproof\n\n");
        assert_eq!(e.handle("protocol_version").unwrap(), "= 2\n\n");
        assert_eq!(e.handle("boardsize 5 5").unwrap(), "=\n\n");
        assert!(e.handle("play b c3").unwrap().starts_with('='));
        assert_eq!(
            e.handle("play w C3").unwrap(),
            "? illegal move: w C3 (occupied)\n\n".replace("C3", "c3")
        );
        assert!(e
            .handle("\u{1}\u{7f}frobnicate\t x")
            .unwrap()
            .starts_with("? unknown command"));
        assert!(e.handle("7 play x y z").unwrap().starts_with("?7 "));
        assert!(e
            .handle("boardsize 99")
            .unwrap()
            .starts_with("? unacceptable size"));
        assert!(e.handle("known_command genmove").unwrap().contains("true"));
        assert!(e
            .handle("known_command bidding-bid")
            .unwrap()
            .contains("true"));
        assert!(e.handle("known_command foo").unwrap().contains("false"));
    }

    #[test]
    fn param_player_sets_the_search_knobs() {
        // Session 18: the ablation switches of the MCTS player.
        let mut e = engine();
        let list = e.handle("param_player").unwrap();
        assert!(list.contains("[bool] inferior 1"), "{list}");
        assert!(list.contains("[bool] rave 1"), "{list}");
        assert!(list.contains("[string] fpu_bonus 0"), "{list}");
        assert!(list.contains("[string] uct_c 0.25"), "{list}");
        assert!(list.contains("[string] circuit_prior 40"), "{list}");
        assert!(list.contains("[string] circuit_inherit 0"), "{list}");
        assert!(list.contains("[string] rave_k 1000"), "{list}");
        assert!(list.contains("[string] knowledge_threshold 400"), "{list}");
        assert!(list.contains("[bool] ladders 0"), "{list}");
        assert!(list.contains("[bool] ladder_escape 0"), "{list}");
        assert!(
            list.contains("[list/off/r1/r2] playout_patterns off"),
            "{list}"
        );
        assert!(list.contains("[string] playout_power 1"), "{list}");
        assert!(list.contains("[string] ab_vc_plies 20"), "{list}");
        assert!(list.contains("[bool] ab_incremental 0"), "{list}");
        assert!(list.contains("[string] ab_semi_limit 0"), "{list}");
        assert!(list.contains("[string] ab_kept_plies 0"), "{list}");
        assert!(list.contains("[bool] ab_order_flow 0"), "{list}");
        assert!(list.contains("[string] ab_edge_semi_limit 0"), "{list}");
        assert!(list.contains("[bool] library_seeds 1"), "{list}");
        for cmd in [
            "param_player ab_vc_plies 1",
            "param_player ab_incremental 1",
            "param_player ab_semi_limit 4",
            "param_player ab_kept_plies 2",
            "param_player ab_order_flow 1",
            "param_player ab_edge_semi_limit 3",
            "param_player library_seeds 0",
            "param_player ladders 1",
            "param_player ladder_escape 1",
            "param_player playout_patterns r2",
            "param_player playout_power 0.5",
            "param_player knowledge_threshold 1000",
            "param_player circuit_prior 0",
            "param_player circuit_inherit 20",
            "param_player uct_c 0.3",
            "param_player rave_k 500",
            "param_player inferior 0",
            "param_player rave 0",
            "param_player fpu_bonus 1",
        ] {
            assert_eq!(e.handle(cmd).unwrap(), "=\n\n", "{cmd}");
        }
        let list = e.handle("param_player").unwrap();
        assert!(list.contains("[string] ab_vc_plies 1"), "{list}");
        assert!(list.contains("[bool] ab_incremental 1"), "{list}");
        assert!(list.contains("[string] ab_semi_limit 4"), "{list}");
        assert!(list.contains("[string] ab_kept_plies 2"), "{list}");
        assert!(list.contains("[bool] ab_order_flow 1"), "{list}");
        assert!(list.contains("[string] ab_edge_semi_limit 3"), "{list}");
        assert!(list.contains("[bool] library_seeds 0"), "{list}");
        assert!(list.contains("[bool] inferior 0"), "{list}");
        assert!(list.contains("[bool] rave 0"), "{list}");
        assert!(list.contains("[string] fpu_bonus 1"), "{list}");
        assert!(list.contains("[string] circuit_prior 0"), "{list}");
        assert!(list.contains("[string] circuit_inherit 20"), "{list}");
        assert!(list.contains("[string] uct_c 0.3"), "{list}");
        assert!(list.contains("[string] rave_k 500"), "{list}");
        assert!(list.contains("[string] knowledge_threshold 1000"), "{list}");
        assert!(list.contains("[bool] ladders 1"), "{list}");
        assert!(list.contains("[bool] ladder_escape 1"), "{list}");
        assert!(
            list.contains("[list/off/r1/r2] playout_patterns r2"),
            "{list}"
        );
        assert!(list.contains("[string] playout_power 0.5"), "{list}");
        assert!(e
            .handle("param_player playout_patterns r3")
            .unwrap()
            .starts_with('?'));
        assert!(e
            .handle("param_player circuit_prior -1")
            .unwrap()
            .starts_with('?'));
        assert!(e
            .handle("param_player fpu_bonus x")
            .unwrap()
            .starts_with('?'));
    }

    #[test]
    fn showboard_format() {
        let mut e = engine();
        e.handle("boardsize 3");
        e.handle("play b b2");
        e.handle("play w a3");
        let s = e.handle("showboard").unwrap();
        assert!(s.contains(" 1\\.  .  .\\1\n"), "{s}");
        assert!(s.contains("  2\\.  B  .\\2\n"), "{s}");
        assert!(s.contains("   3\\W  .  .\\3\n"), "{s}");
    }
}
