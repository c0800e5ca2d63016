//! Typed arguments shared by the commands: the choices of a flag as clap [`ValueEnum`]s (so
//! `--help` lists them), read by [`choice`] with hexproof's one-line error, and the
//! [`BoardArgs`] / [`PositionArgs`] that describe a position.

use super::error::CliError;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, ValueEnum};
use hexproof::board::{Board, Colour, Notation};
use hexproof::position::Position;
use std::marker::PhantomData;

/// A flag's value that is none of its choices: `main` prints the message as
/// `hexproof: error: MESSAGE` and exits 2, as for any other bad input (clap's own several-line
/// report is kept for the other parse errors).
#[derive(Debug)]
pub struct BadChoice(pub String);

impl std::fmt::Display for BadChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadChoice {}

/// The [`BadChoice`] inside a clap error, if that is what it is.
pub fn bad_choice(e: &clap::Error) -> Option<&BadChoice> {
    std::error::Error::source(e).and_then(|s| s.downcast_ref::<BadChoice>())
}

/// The value parser of a [`ValueEnum`] flag: its choices for `--help`, and `invalid(value)` as
/// the message when the value is none of them.
#[derive(Clone)]
pub struct Choice<T> {
    invalid: fn(&str) -> String,
    loose: bool,
    choices: PhantomData<fn() -> T>,
}

/// [`Choice`] ignoring case and surrounding blanks (as the hand-written parsers did).
pub fn choice<T>(invalid: fn(&str) -> String) -> Choice<T> {
    Choice {
        invalid,
        loose: true,
        choices: PhantomData,
    }
}

/// [`Choice`] of the exact spellings only.
pub fn exact_choice<T>(invalid: fn(&str) -> String) -> Choice<T> {
    Choice {
        invalid,
        loose: false,
        choices: PhantomData,
    }
}

impl<T: ValueEnum + Clone + Send + Sync + 'static> TypedValueParser for Choice<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let (invalid, loose) = (self.invalid, self.loose);
        let parse = move |s: &str| -> Result<T, BadChoice> {
            let t = if loose { s.trim() } else { s };
            T::from_str(t, loose).map_err(|_| BadChoice(invalid(s)))
        };
        parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            T::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourArg {
    /// Black: joins top and bottom, moves first.
    #[value(alias = "b")]
    Black,
    /// White: joins left and right.
    #[value(alias = "w")]
    White,
}

impl From<ColourArg> for Colour {
    fn from(c: ColourArg) -> Colour {
        match c {
            ColourArg::Black => Colour::Black,
            ColourArg::White => Colour::White,
        }
    }
}

/// The message of a colour that is neither black nor white.
pub fn not_a_colour(s: &str) -> String {
    CliError::Colour(s.into()).to_string()
}

/// How cells are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NotationArg {
    /// Column letter, row number: d4.
    #[value(aliases = ["letter", "a1"])]
    Letters,
    /// Noshita's column digit, row digit: 44 (boards up to 9x9).
    #[value(aliases = ["digit", "noshita", "11"])]
    Digits,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            NotationArg::Letters => Notation::Letters,
            NotationArg::Digits => Notation::Digits,
        }
    }
}

/// The message of a notation that is neither letters nor digits.
pub fn not_a_notation(s: &str) -> String {
    CliError::Notation(s.into()).to_string()
}

/// The VC engine (`hexproof::vc::Variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// FastVC, fast variant.
    Fast,
    /// FastVC, limited variant.
    Limited,
    /// FastVC, unlimited variant.
    Unlimited,
    /// H-search (HEXY's limits M and K).
    #[value(aliases = ["h-search", "h"])]
    Hsearch,
}

impl From<VariantArg> for hexproof::vc::Variant {
    fn from(v: VariantArg) -> hexproof::vc::Variant {
        use hexproof::vc::Variant;
        match v {
            VariantArg::Fast => Variant::Fast,
            VariantArg::Limited => Variant::Limited,
            VariantArg::Unlimited => Variant::Unlimited,
            VariantArg::Hsearch => Variant::HSearch,
        }
    }
}

/// The game-playing algorithm (`hexproof::player::Kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlayerKindArg {
    /// MoHex-style Monte Carlo tree search.
    #[value(alias = "mohex")]
    Mcts,
    /// HEXY's selective alpha-beta.
    #[value(aliases = ["ab", "alpha-beta"])]
    Alphabeta,
}

impl From<PlayerKindArg> for hexproof::player::Kind {
    fn from(k: PlayerKindArg) -> hexproof::player::Kind {
        match k {
            PlayerKindArg::Mcts => hexproof::player::Kind::Mcts,
            PlayerKindArg::Alphabeta => hexproof::player::Kind::AlphaBeta,
        }
    }
}

/// How connections enter the resistor circuit (`hexproof::eval::VcLinks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LinksArg {
    /// No links for connections.
    None,
    /// A link between the two ends of each connection.
    Direct,
    /// Links through shared neighbours.
    Shared,
    /// Both.
    Both,
    /// A link between the two ends of each connection, weakened by its carriers' common
    /// cells; none between two groups (Benzene's conductances).
    Overlap,
    /// A link between the two ends of each connection, weakened by its carriers' common
    /// cells (two groups included).
    DirectOverlap,
}

impl From<LinksArg> for hexproof::eval::VcLinks {
    fn from(l: LinksArg) -> hexproof::eval::VcLinks {
        use hexproof::eval::VcLinks;
        match l {
            LinksArg::None => VcLinks::None,
            LinksArg::Direct => VcLinks::Direct,
            LinksArg::Shared => VcLinks::SharedNeighbours,
            LinksArg::Both => VcLinks::Both,
            LinksArg::Overlap => VcLinks::Overlap,
            LinksArg::DirectOverlap => VcLinks::DirectOverlap,
        }
    }
}

/// Which engine decides a claim (`hexproof::engine::whole::Engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The exact local search.
    Local,
    /// The whole-board DFPN solver, its win rebuilt as a certificate.
    Solver,
    /// The local search first, then the solver when it is undecided.
    Auto,
}

impl From<EngineArg> for hexproof::engine::whole::Engine {
    fn from(e: EngineArg) -> hexproof::engine::whole::Engine {
        use hexproof::engine::whole::Engine;
        match e {
            EngineArg::Local => Engine::Local,
            EngineArg::Solver => Engine::Solver,
            EngineArg::Auto => Engine::Auto,
        }
    }
}

/// The solver's move ordering (`hexproof::dfpn::Ordering`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// Cells of high energy in the resistor circuits first (Anshelevich §6).
    Resistance,
    /// Cells near the centre first.
    #[value(alias = "center")]
    Centre,
    /// Cells of high energy in the circuits built with the node's own virtual connections
    /// (a link per VC pair, Anshelevich §5's first way), as Benzene's DFPN orders.
    Connections,
    /// The same circuits, cells scored by the share of the current through them (the score
    /// of Benzene's resistance evaluation) instead of their energy.
    Flow,
}

impl From<OrderArg> for hexproof::dfpn::Ordering {
    fn from(o: OrderArg) -> hexproof::dfpn::Ordering {
        match o {
            OrderArg::Resistance => hexproof::dfpn::Ordering::Resistance,
            OrderArg::Centre => hexproof::dfpn::Ordering::Centre,
            OrderArg::Connections => hexproof::dfpn::Ordering::Connections,
            OrderArg::Flow => hexproof::dfpn::Ordering::Flow,
        }
    }
}

/// The conductances of the circuits the solver orders its moves by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConductanceArg {
    /// hexproof's: a VC link of resistance r(x) + r(y) + 1, between any two ends.
    Hexproof,
    /// Benzene's: a VC link of conductance 1 / ((r(x) + r(y)) · (1 + common cells of the
    /// pair's carriers)), none between two groups or a group and its border.
    Overlap,
    /// hexproof's links (two groups included), each divided by 1 + the common cells of the
    /// pair's carriers.
    Weakened,
}

impl From<ConductanceArg> for hexproof::eval::VcLinks {
    fn from(c: ConductanceArg) -> hexproof::eval::VcLinks {
        match c {
            ConductanceArg::Hexproof => hexproof::eval::VcLinks::Direct,
            ConductanceArg::Overlap => hexproof::eval::VcLinks::Overlap,
            ConductanceArg::Weakened => hexproof::eval::VcLinks::DirectOverlap,
        }
    }
}

/// Which openings `solve --openings` solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpeningsArg {
    /// Every one-stone opening.
    All,
}

/// Who plays a colour in `bid-game`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WhoArg {
    /// A person at the terminal.
    #[value(alias = "h")]
    Human,
    /// The Monte Carlo engine.
    #[value(aliases = ["e", "computer"])]
    Engine,
}

impl From<WhoArg> for hexproof::bidding::game::Player {
    fn from(w: WhoArg) -> hexproof::bidding::game::Player {
        match w {
            WhoArg::Human => hexproof::bidding::game::Player::Human,
            WhoArg::Engine => hexproof::bidding::game::Player::Engine,
        }
    }
}

/// The board and how its cells are named: shared by the commands that take a position.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// Board size, e.g. 11x11 (columns x rows) or 11.
    #[arg(long, default_value = "11x11")]
    pub board: String,
    /// Cell names: letters (d4) or digits (Noshita's 44, boards up to 9x9).
    #[arg(long, default_value = "letters", value_parser = choice::<NotationArg>(not_a_notation))]
    pub notation: NotationArg,
}

impl BoardArgs {
    /// The board of `--board`.
    pub fn board(&self) -> Result<Board, CliError> {
        Ok(Board::parse(&self.board)?)
    }

    /// The notation of `--notation`.
    pub fn notation(&self) -> Notation {
        self.notation.into()
    }
}

/// A position given as a board and the moves played on it: shared by `bid`, `solve`, `vc`
/// and `templates match`.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The moves played, alternating and starting with Black, e.g. "d4 c5".
    #[arg(long, default_value = "", value_name = "MOVES")]
    pub moves: String,
}

impl PositionArgs {
    /// The notation of `--notation`.
    pub fn notation(&self) -> Notation {
        self.board.notation()
    }

    /// `start` after `--moves` ([`Position::play_moves`]), and how many moves were played.
    pub fn play_on(&self, mut start: Position) -> Result<(Position, usize), CliError> {
        let played = start.play_moves(&self.moves, self.notation())?;
        Ok((start, played))
    }

    /// Who moves after `played` moves of `--moves` (Black first, alternating).
    pub fn to_move(played: usize) -> Colour {
        if played.is_multiple_of(2) {
            Colour::Black
        } else {
            Colour::White
        }
    }

    /// The empty board after `--moves`, and how many moves were played.
    pub fn position(&self) -> Result<(Position, usize), CliError> {
        self.play_on(Position::empty(self.board.board()?))
    }
}
