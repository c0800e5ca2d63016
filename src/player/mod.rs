//! Move generation: a HEXY-style selective alpha-beta ([`alphabeta`], Anshelevich 2002 §6)
//! and a MoHex-style Monte Carlo tree search ([`mcts`]), both on top of the proven-win and
//! mustplay logic of [`proven`].
//!
//! Every player first asks [`proven::proven_move`]: if the side to move has a winning
//! connection that the exact solver (kernel-checked) can turn into a first move, that move is
//! played. Only then does the heuristic search run, restricted to the mustplay region when the
//! opponent threatens to win.

pub mod alphabeta;
pub mod arena;
pub mod clock;
pub mod mcts;
pub mod patterns;
pub mod proven;
mod spec;

pub use spec::SpecError;

use crate::board::{Cell, Colour};
use crate::position::Position;
use crate::vc::{Variant, VcBudget, VcParams};
use std::time::Duration;

/// Which player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Selective alpha-beta with circuit evaluation.
    AlphaBeta,
    /// Monte Carlo tree search.
    Mcts,
}

impl Kind {
    /// Parses `alphabeta` / `ab` / `mcts`.
    pub fn parse(s: &str) -> Option<Kind> {
        match s.to_ascii_lowercase().as_str() {
            "alphabeta" | "ab" | "alpha-beta" => Some(Kind::AlphaBeta),
            "mcts" | "mohex" => Some(Kind::Mcts),
            _ => None,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::AlphaBeta => "alphabeta",
            Kind::Mcts => "mcts",
        }
    }
}

/// Settings shared by both players (GTP `param_player` edits them).
#[derive(Clone, Debug)]
pub struct Config {
    /// The player.
    pub kind: Kind,
    /// Alpha-beta depth D (HEXY: 3).
    pub depth: u32,
    /// H-search M: connections per pair (HEXY: 20). 0 = no connections at all (neighbour
    /// links only, HEXY's "M = 0").
    pub m: usize,
    /// H-search K: most VSCs per OR rule (HEXY: 4–5).
    pub k: usize,
    /// Alpha-beta: moves tried per node, best energy first (the selectivity).
    pub width: usize,
    /// Alpha-beta: both colours' connections are rebuilt at the nodes down to this ply (the
    /// root is ply 0); the nodes below keep those of their ancestor at this ply while their
    /// carriers hold (see [`alphabeta`]). 20 (more than any depth): rebuilt at every node,
    /// HEXY's search.
    pub ab_vc_plies: u32,
    /// Alpha-beta: both colours' connections are built once at the root and updated
    /// incrementally along the search path (the engine's undoable play: fresh connections at
    /// every node for the cost of an update, not a build; Anshelevich §6, as Wolve does).
    /// Takes precedence over `ab_vc_plies`.
    pub ab_incremental: bool,
    /// Alpha-beta with `ab_incremental`: the last `ab_kept_plies` plies of the search are
    /// not updated; their nodes keep the path connections of their ancestor that many plies
    /// up, as far as the carriers hold (the `ab_vc_plies` rule, [`alphabeta`]). 0: every
    /// node updated (exact connections everywhere).
    pub ab_kept_plies: u32,
    /// Alpha-beta: most VSC carriers the connection sets of the search below the root keep
    /// per endpoint pair (the engine's soft semi limit; the pair of the two borders, which
    /// makes the mustplay, is never limited). 0: uncapped, as the root's. Smaller lists make
    /// every build and update cheaper.
    pub ab_semi_limit: usize,
    /// Alpha-beta: order (and cut to `width`) the moves by the current through each cell
    /// ([`crate::eval::Evaluation::flow`], as Benzene's Wolve orders them) instead of the
    /// energy dissipated around it (Anshelevich §6). Off by default.
    pub ab_order_flow: bool,
    /// Alpha-beta: most VSC carriers kept below the root for a pair with exactly one border
    /// endpoint ([`crate::vc::VcParams::edge_semi_limit`]); such pairs feed the win test and
    /// the mustplay through the border pair's OR, and a short list drops the ingredients of
    /// the opponent's winning VCs (journal vc-session35.md §2b). 0: no limit for them (the
    /// default); `ab_semi_limit` applies to the other pairs either way.
    pub ab_edge_semi_limit: usize,
    /// Seed the connection engine (with [`Config::templates`]) with the certified template
    /// library ([`crate::templates::seeds::library_seeds`], as `hexproof vc` and the solver
    /// do) instead of HexWiki's five edge templates. Root and search builds, both players;
    /// HexWiki's five until the library's certificates are checked ([`warm_library_seeds`]).
    /// On by default (journal player-session36.md); off: HexWiki's five, as before.
    pub library_seeds: bool,
    /// Connection engine inside the searches: `hsearch` uses M and K; the FastVC variants
    /// ignore them.
    pub variant: Variant,
    /// Seed the connection engine with edge templates.
    pub templates: bool,
    /// Circuit links for connections.
    pub links: crate::eval::VcLinks,
    /// MCTS: visits after which a tree node gets connections and mustplay.
    pub knowledge_threshold: u32,
    /// MCTS: run the exact solver on a second thread.
    pub solver_thread: bool,
    /// Nodes for each exact-solver call of the proven-win check.
    pub proof_nodes: u64,
    /// Resign when the opponent has a winning VC (sound: connections are never wrong).
    pub resign: bool,
    /// Answer the swap question when asked to move second after one Black stone. Off by
    /// default, as in Benzene (`param_game allow_swap`): in a match without the swap rule a
    /// `swap-pieces` answer would be an illegal move.
    pub allow_swap: bool,
    /// Default time per move when no time control was set.
    pub move_time: Duration,
    /// The clock that times a move: wall time (GTP default) or the search thread's CPU time
    /// (fair matches on a loaded machine, see [`clock`]).
    pub clock: clock::Clock,
    /// Random seed (MCTS playouts).
    pub seed: u64,
    /// MCTS: the learned move priors ([`patterns`]) in the tree.
    pub priors: bool,
    /// MCTS: weight of the priors' progressive-bias term.
    pub prior_weight: f64,
    /// MCTS: inferior-cell fill-in (dead cells and captured pairs, Henderson, Arneson &
    /// Hayward 2009 §3, as MoHex does at its knowledge nodes) at the root and at the nodes
    /// that get connections; filled cells are not searched and playouts from the root see them
    /// filled. Alpha-beta: the same fill-in at the root only (its search runs on the filled
    /// position).
    pub inferior: bool,
    /// MCTS: RAVE (all-moves-as-first) values in the selection (off: plain UCT).
    pub rave: bool,
    /// MCTS: what an unvisited child is worth on top of its RAVE value (0.5 without one).
    /// 1 makes every child be tried once before any is tried twice (hexproof before session
    /// 18); 0 lets RAVE pick among the unvisited children as among the visited ones, as
    /// MoHex does (its first-play urgency; Arneson, Hayward & Henderson 2010).
    pub fpu_bonus: f64,
    /// MCTS: the circuit prior (Anshelevich 2002 §6, the knowledge Wolve searches with): at the
    /// root and at every knowledge node the circuit evaluation with both colours' connections
    /// is solved and each open child starts with this many virtual all-moves-as-first
    /// playouts, won in proportion to its cell's energy (0.3 for no energy, 0.7 for the
    /// largest). 0: off. Default 40.
    pub circuit_prior: f64,
    /// MCTS: the circuit prior carried down the tree. The cell energies of the nearest
    /// knowledge node (or the root) above a node give the children of every node expanded
    /// below it this many virtual all-moves-as-first playouts, shared as in
    /// [`Config::circuit_prior`], without solving a circuit of their own (the energies of a
    /// position a few moves up: heuristic only, it never proves or prunes). 0: off.
    pub circuit_inherit: f64,
    /// MCTS: UCT exploration constant.
    pub uct_c: f64,
    /// MCTS: RAVE equivalence parameter (the visits at which RAVE and the mean weigh about
    /// equally, up to a factor).
    pub rave_k: f64,
    /// MCTS: the ladder rule in the playouts. When the last stone is on the second or third
    /// row from one of its owner's borders with one of its two cells toward that border held
    /// by the opponent and the other empty (the head of a ladder), the opponent pushes: takes
    /// the empty one (on the third row only when that cell's two first-row cells are empty).
    /// Uniformly random playouts let a ladder's attacker reach the border about half the time
    /// whether or not it has an escape; a defender that pushes stops a ladder without an
    /// escape, as in real play (HexWiki, "Ladder handling"). Off by default: measured +0
    /// (20 of 40, 0.2 s CPU self-play against the rule off; journal player-session25.md).
    pub ladders: bool,
    /// MCTS, with `ladders`: the attacker's side of the ladder rule. When the defender has
    /// just pushed against a second-row ladder and the ladder has an escape ahead (a stone of
    /// the attacker's on the second row, or on the first, before any of the defender's; HexWiki,
    /// "Ladder escape"), the attacker plays the next ladder cell, so that a playout runs a
    /// ladder with an escape to the border instead of abandoning it at random. Off by
    /// default: measured worse (journal player-session25.md).
    pub ladder_escape: bool,
    /// MCTS: the playout policy. 0: uniformly random moves (after the bridge and ladder
    /// rules). 1: moves drawn in proportion to the learned radius-1 pattern gammas of
    /// [`patterns`] (the 6 neighbours, edge-aware), kept up to date around each stone. 2: the
    /// radius-1 and radius-2 gammas (18 cells), MoHex 2.0's playout policy (Huang, Arneson,
    /// Hayward, Müller & Pawlewicz 2013). Heuristic only: it never proves or prunes.
    pub playout_patterns: u8,
    /// MCTS, with `playout_patterns`: the playout weights are the gammas raised to this power
    /// (1: the learned gammas; below 1 flatter, toward uniform at 0).
    pub playout_power: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            kind: Kind::Mcts,
            depth: 3,
            m: 20,
            k: 4,
            width: 8,
            ab_vc_plies: 20,
            ab_incremental: false,
            ab_kept_plies: 0,
            ab_semi_limit: 0,
            ab_order_flow: false,
            // Measured on the move-choice set (journal player-session36.md).
            ab_edge_semi_limit: 0,
            library_seeds: true,
            variant: Variant::Fast,
            templates: true,
            links: crate::eval::VcLinks::Both,
            knowledge_threshold: 400,
            solver_thread: true,
            proof_nodes: 20_000,
            resign: false,
            allow_swap: false,
            move_time: Duration::from_secs(2),
            clock: clock::Clock::Wall,
            seed: 1,
            // Off by default: measured no gain yet (BENCHMARKS.md, "Learned priors").
            priors: false,
            prior_weight: 0.08,
            inferior: true,
            rave: true,
            fpu_bonus: 0.0,
            // Measured: 0.2 s CPU self-play, 11×11 (journal player-session22.md).
            circuit_prior: 40.0,
            circuit_inherit: 0.0,
            uct_c: 0.25,
            rave_k: 1000.0,
            ladders: false,
            ladder_escape: false,
            playout_patterns: 0,
            playout_power: 1.0,
        }
    }
}

impl Config {
    /// Connection parameters for a search node: the configured engine under a budget that
    /// scales with `time`.
    pub fn vc_params(&self, time: Duration) -> VcParams {
        let mut p = VcParams::new(self.variant);
        if self.variant == Variant::HSearch {
            p.hsearch.m = Some(self.m.max(1));
            p.hsearch.k = Some(self.k.max(1));
        }
        if !self.templates {
            p = p.unseeded();
        } else if self.library_seeds {
            // Never waits for the library's certificate check: until it is done (on a
            // thread of its own), HexWiki's five seeds.
            match crate::templates::seeds::library_seeds_if_ready() {
                Some(s) => p.seeds = s.to_vec(),
                None => warm_library_seeds(),
            }
        }
        p.budget = VcBudget {
            max_connections: 200_000,
            time: Some(time.max(Duration::from_millis(2))),
        };
        p.stop_at_win = true;
        // Uncapped semi lists (the engine's speed cap drops ingredients the proven-win checks
        // need; the player builds connections once per move, so the cost is small).
        p.semi_limit = None;
        // The fast semis-combiner, as before issue 25 (semis-combiner finds more, e.g. gm6's
        // win, but costs about twice as much per build; not measured in play yet). The semi
        // lists stay uncapped (above).
        p.full_or = false;
        p
    }

    /// True when connections are used at all (M > 0).
    pub fn uses_vcs(&self) -> bool {
        self.m > 0
    }

    /// A short description, e.g. `alphabeta D3 M20 fast templates`.
    pub fn describe(&self) -> String {
        match self.kind {
            Kind::AlphaBeta => format!(
                "alphabeta D{} M{} W{} {}{}{}",
                self.depth,
                self.m,
                self.width,
                self.variant,
                if self.templates { "" } else { " no-templates" },
                if self.ab_incremental && self.ab_kept_plies > 0 {
                    format!(" incremental kept-plies {}", self.ab_kept_plies)
                } else if self.ab_incremental {
                    " incremental".to_string()
                } else if self.ab_vc_plies < self.depth {
                    format!(" vc-plies {}", self.ab_vc_plies)
                } else {
                    String::new()
                }
            ),
            Kind::Mcts => format!(
                "mcts {}{}{}",
                self.variant,
                if self.templates { "" } else { " no-templates" },
                if self.priors {
                    format!(" priors pb={}", self.prior_weight)
                } else {
                    " no-priors".into()
                }
            ),
        }
    }
}

/// Starts the re-check of the template library's seeds
/// ([`crate::templates::seeds::library_seeds`], about 0.4 s of CPU) on a thread of its own,
/// once per process, so that [`Config::library_seeds`] takes effect without a move paying for
/// it; until it is done the players' builds use HexWiki's five seeds.
pub fn warm_library_seeds() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        std::thread::spawn(|| {
            crate::templates::seeds::library_seeds();
        });
    });
}

/// A generated move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play a stone.
    Play(Cell),
    /// Swap (second move only).
    Swap,
    /// Resign.
    Resign,
}

/// What a player reports with its move.
#[derive(Clone, Debug)]
pub struct Report {
    /// The move.
    pub decision: Decision,
    /// True when the move keeps a proven win: it follows a kernel-checked winning strategy,
    /// or it leaves the mover a winning VC (see [`proven::vsc_key_move`]).
    pub proven_win: bool,
    /// True when the opponent has a winning VC (the engine believes it has lost).
    pub proven_loss: bool,
    /// The carrier of the proven strategy (pass it back as the next call's `hint`).
    pub proof_set: Option<crate::board::CellSet>,
    /// Search nodes (alpha-beta) or playouts (MCTS).
    pub nodes: u64,
    /// A one-line summary for logs.
    pub info: String,
}

/// Generates a move for `to_move` in `position` within `time`. `position` must not be over.
/// `hint`: the proof set of this side's last proven move, if any (its strategy is looked for
/// again inside it).
pub fn genmove(
    config: &Config,
    position: &Position,
    to_move: Colour,
    time: Duration,
    hint: Option<crate::board::CellSet>,
) -> Report {
    match config.kind {
        Kind::AlphaBeta => alphabeta::genmove(config, position, to_move, time, hint),
        Kind::Mcts => mcts::genmove(config, position, to_move, time, hint),
    }
}

/// The swap rule (played as the second move, Benzene's `swap-pieces` with swap-sides
/// meaning): swap a first stone that is off the outer ring — a geometric rule of thumb
/// (central openings win for the first player, most edge openings are weak).
pub fn should_swap(position: &Position) -> bool {
    let black = position.stones(Colour::Black);
    if black.len() != 1 || !position.stones(Colour::White).is_empty() {
        return false;
    }
    let c = black.first().expect("one stone");
    let (x, y) = c.coords();
    let b = position.board();
    let (w, h) = (b.cols(), b.rows());
    let edge = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
    !edge
}
