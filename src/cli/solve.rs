//! `hexproof solve`: who wins a whole Hex position, or every one-stone opening of a board.

use super::args::{exact_choice, ConductanceArg, OpeningsArg, OrderArg, PositionArgs};
use super::{fail_input, move_list, print_json, CliError, EXIT_HOLDS, EXIT_UNDECIDED};
use clap::Args;
use hexproof::board::{Board, Cell, Colour, Notation};
use hexproof::dfpn::{self, jobs, openings, Features, SolveOutcome, SolveParams, Winner};
use hexproof::position::Position;
use hexproof::prove::emit;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

/// Solves a Hex position (who wins with perfect play, and a winning move), or every one-stone
/// opening of a board.
///
/// The solver is a depth-first proof-number search (DFPN with the 1+ε trick) after
/// Henderson, Arneson & Hayward, "Solving 8x8 Hex" (IJCAI 2009): positions are decided by
/// virtual connections (the player to move has a winning VSC, or the opponent a winning VC),
/// only the mustplay (cells in every carrier of the opponent's winning VSCs) is searched, and
/// dead cells and captured pairs are filled in. Moves into vulnerable cells (a reply of the
/// opponent makes them dead) are skipped; regions cut off by opposite-colour bridges are
/// filled in when dead or held by a bridge, and a position whose groups split the board into
/// two independent halves is searched as the two halves (§4 of the paper). Every answer is
/// proved; when the budget runs out the answer is "undecided" (exit 3).
///
/// The position is reached by --moves, alternating and starting with Black. With
/// --openings all, each cell of the empty board is tried as Black's first move (White then to
/// move) and the table of winners is printed: B where the opening wins for Black. An opening
/// and its 180° rotation have the same winner, so only one of each pair is searched (all of
/// them with --no-rotation).
///
/// --emit-proof FILE writes the win as a strategy in the hexproof language (for a position
/// where Black wins with Black to move, or where White to move loses; White wins are written
/// for the transposed board, colours swapped); check it with `hexproof check FILE`.
///
/// Examples:
///   hexproof solve --board 6x6 --moves c3
///   hexproof solve --board 7x7 --openings all --threads 2
///   hexproof solve --board 5x5 --moves c3 --emit-proof c3.hexp && hexproof check c3.hexp
///   hexproof solve --board 7x7 --moves a1 --json
///   hexproof solve --board 7x7 --openings all --shard 3/13 --out results   (one cluster job)
///   hexproof solve --board 7x7 --combine results                         (docs/cluster.md)
///
/// Exit codes: 0 solved, 2 bad input (unknown or occupied cell, position already won, board
/// too big), 3 undecided (budget).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
#[command(mut_arg("board", |a| a.default_value("7x7")))]
pub struct SolveArgs {
    /// The board (default 7x7), the moves played and the notation.
    #[command(flatten)]
    position: PositionArgs,
    /// Solve every one-stone opening instead ("all").
    #[arg(long, value_name = "all", value_parser = exact_choice::<OpeningsArg>(|o| format!("--openings '{o}': only 'all' is supported")))]
    openings: Option<OpeningsArg>,
    /// Threads. With --openings: each thread takes the next opening from a queue, openings
    /// nearest an edge (the slowest on 7×7) first. On one position: the threads search its
    /// tree together (shared table, SPDFPN-style virtual numbers); the winner is the same,
    /// the node count varies from run to run. 1: the serial search. At most 256 (as `bid`).
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
    /// Budget: most nodes (position evaluations) per position.
    #[arg(long, default_value_t = 5_000_000, value_name = "N")]
    nodes: u64,
    /// Budget: seconds per position.
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Transposition-table entries per position (about 140 bytes each).
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    tt_entries: usize,
    /// ε of the 1+ε trick (0 = plain DFPN).
    #[arg(long, default_value_t = 0.25, value_name = "EPS")]
    epsilon: f64,
    /// ε of the 1+ε trick at the nodes within --top-plies of the root, for the first child
    /// in move order (a search parameter only; docs/journal/vc-session33.md,
    /// solver-session34.md). `--top-plies 0`: --epsilon everywhere (the rule before session 34)
    #[arg(long, default_value_t = dfpn::DEFAULT_TOP_EPSILON.0, value_name = "EPS")]
    top_epsilon: f64,
    /// The plies below the root (the root is ply 0) that use --top-epsilon; 0: none.
    #[arg(long, default_value_t = dfpn::DEFAULT_TOP_EPSILON.1, value_name = "N")]
    top_plies: u32,
    /// --top-epsilon only for the first child in move order, the others keep --epsilon (the
    /// default; the flag is kept for older command lines).
    #[arg(long, conflicts_with = "top_every")]
    top_first: bool,
    /// --top-epsilon for every child within --top-plies, not only the first in move order.
    #[arg(long)]
    top_every: bool,
    /// The first child keeps --top-epsilon only while its proof number is at least R times
    /// its disproof number (it looks won for the mover); 0: always (a search parameter only,
    /// off by default; docs/journal/solver-session34.md).
    #[arg(long, default_value_t = 0.0, value_name = "R")]
    top_pn_ratio: f64,
    /// Ablation: no virtual connections (and hence no mustplay).
    #[arg(long)]
    no_vcs: bool,
    /// Ablation: no mustplay pruning.
    #[arg(long)]
    no_mustplay: bool,
    /// Ablation: no dead-cell fill-in.
    #[arg(long)]
    no_dead: bool,
    /// Ablation: no captured-pair fill-in.
    #[arg(long)]
    no_captured: bool,
    /// Ablation: no proof-set pruning (a refuted move's proof set refutes every move outside
    /// it).
    #[arg(long)]
    no_proof_sets: bool,
    /// Ablation: no rotation transpositions (the table stores a position and its 180°
    /// rotation separately; --openings all then solves every opening instead of one of each
    /// rotated pair).
    #[arg(long)]
    no_rotation: bool,
    /// Ablation: no capture-domination pruning (a move into a cell that another move's
    /// fill-in would give to the mover is skipped).
    #[arg(long)]
    no_dominated: bool,
    /// Ablation: no vulnerable-cell pruning (a move that some reply of the opponent makes
    /// dead is skipped).
    #[arg(long)]
    no_vulnerable: bool,
    /// Ablation: no decompositions (regions cut off by opposite-colour bridges: dead ones, and
    /// ones with a bridge between their two groups of one colour, are filled in).
    #[arg(long)]
    no_decompose: bool,
    /// Ablation: no proof-set reduction (Theorem 3: a solved node's proof set loses the
    /// cells that become dead or loser-captured once the loser holds every cell outside it).
    #[arg(long)]
    no_proof_set_reduction: bool,
    /// Ablation: test the win of the player to move at every node (by default a child whose
    /// parent's connections found no such win avoiding the move gets one connection build,
    /// not two).
    #[arg(long)]
    no_skip_own_wins: bool,
    /// Weak disproof numbers: a node's disproof number is its children's largest proof
    /// number plus the number of its other open children, not their sum (Ueda et al. 2008).
    #[arg(long)]
    weak_dn: bool,
    /// Ablation: no fill-in with the certified ICE patterns (captured sets of three and four
    /// cells from templates/ice.json, re-checked by the trusted checker at start-up).
    #[arg(long)]
    no_ice_patterns: bool,
    /// Ablation: a lost node where capture domination pruned moves gets no proof set (by
    /// default it keeps the union of its children's sets when every pruned move lies outside
    /// a refuted child's set).
    #[arg(long)]
    no_dominated_proofs: bool,
    /// Ablation: no strategy-stealing refutations (by default a move after which the
    /// position is its own colour-swapped mirror image is lost without search; always off
    /// with --emit-proof).
    #[arg(long)]
    no_strategy_stealing: bool,
    /// Proof-set transpositions (Henderson et al. 2009 §6; off by default): a position the
    /// table lacks is answered by a solved one with the same player to move and the same
    /// winner's stones (or all but one) whose proof set avoids its loser's stones. Measured:
    /// 8×8 g2 −6 % positions, e4 +172 %, 7×7's 49 +0.5 %. Ignored with --emit-proof.
    #[arg(long)]
    transpositions: bool,
    /// Initial disproof number of a child not yet evaluated: 1 evaluates every child of a
    /// node before going deeper; larger values go deeper into a child with a narrow
    /// mustplay first (a search parameter only, sound for any value).
    #[arg(long, default_value_t = dfpn::DEFAULT_CHILD_DN, value_name = "N")]
    child_dn: u32,
    /// Progressive widening: a node chooses among its first 1 + ⌈FACTOR · live⌉ live
    /// children (in move order) and evaluates the others only once those are refuted, as
    /// Benzene's DFPN does (default 0.25, Benzene's); `none` looks at every child.
    #[arg(long, value_name = "FACTOR|none", value_parser = parse_widening)]
    widening: Option<Widening>,
    /// Soft widening: the first child beyond the widening window that was never searched
    /// competes with the disproof number STEP·(k + 1), k the children beyond the window
    /// already searched (which then compete with their own numbers), so a hard window lets
    /// the next moves in; 0: the window slides only when its children are refuted (a search
    /// parameter only, sound for any value)
    #[arg(long, default_value_t = SolveParams::default().widening_step, value_name = "STEP")]
    widening_step: u32,
    /// Threats first (a knob, off by default; with --order flow or connections): the moves
    /// after which the mover's connections give it a winning semi-connection through the
    /// move go first, by the size of the opponent's resulting mustplay as estimated from
    /// the node's own connections; 1: every such move first, K >= 2: only the K - 1 best
    /// (a search parameter only; docs/journal/vc-session32.md)
    #[arg(long, default_value_t = SolveParams::default().threat_order, value_name = "K")]
    threat_order: usize,
    /// Sticky selection: keep the child selected last while its disproof number stays below
    /// the 1+ε threshold of the least one, as Benzene's DFPN does (a search parameter only).
    #[arg(long)]
    sticky: bool,
    /// The conductances of the circuits the moves are ordered by: hexproof (a VC link of
    /// resistance r(x) + r(y) + 1, the default), overlap (Benzene's: a VC link weakened by
    /// the common cells of the pair's carriers, none between two groups) or weakened
    /// (hexproof's, each VC link divided by 1 + those common cells); a search parameter only.
    #[arg(long, default_value = "hexproof", value_name = "KIND", value_parser = exact_choice::<ConductanceArg>(|c| format!("--conductance '{c}': use hexproof, overlap or weakened")))]
    conductance: ConductanceArg,
    /// The connection engine: fast (default), limited, unlimited or hsearch (see `hexproof
    /// vc --help`).
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant)]
    vc: Option<hexproof::vc::Variant>,
    /// Ablation: seed the connection engine with HexWiki's five one-stone edge templates
    /// only, not the certified library and the published templates that hold.
    #[arg(long)]
    no_library_seeds: bool,
    /// Update the connections along the search path (`VcSet::play_undoable`, undone on the
    /// way back) instead of rebuilding them at every node.
    #[arg(long, conflicts_with = "fresh_builds")]
    incremental: bool,
    /// Rebuild both colours' connections from scratch at every node (no incremental
    /// updates): slower, for cross-checking verdicts.
    #[arg(long)]
    fresh_builds: bool,
    /// Most stones added since the nearest built ancestor for an incremental update (more:
    /// a rebuild).
    #[arg(long, default_value_t = dfpn::vc_eval::MAX_UPDATE_STONES, value_name = "N")]
    update_stones: usize,
    /// A database file (redb) of solved positions with few stones, read and extended by
    /// this run (created if missing): later runs and other openings look them up.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Most stones of a position stored in --db.
    #[arg(long, default_value_t = dfpn::db::DEFAULT_MAX_STONES, value_name = "N")]
    db_stones: usize,
    /// Write the win as a .hexp strategy to this file (single position only).
    #[arg(long, value_name = "FILE")]
    emit_proof: Option<PathBuf>,
    /// Largest leaf (and precluding) carrier of the emitted proof, in cells: the checker
    /// decides each by the exact search; a larger connection is split into White's moves
    /// and Black's replies.
    #[arg(long, default_value_t = emit::LEAF_MAX, value_name = "CELLS")]
    emit_leaf_max: usize,
    /// Most nodes of the checker's exact search a connection written `by search` must fit in
    /// (0: no test); a larger one is split. Capped at the checker's first-phase budget.
    #[arg(long, default_value_t = emit::LEAF_NODES, value_name = "N", hide_short_help = true)]
    emit_leaf_nodes: u64,
    /// The explainer's work budget per explanation (emitted proofs; experiments).
    #[arg(long, value_name = "N", hide_short_help = true)]
    explain_work: Option<u64>,
    /// The explainer's longest list of facts (emitted proofs; experiments).
    #[arg(long, value_name = "N", hide_short_help = true)]
    explain_list: Option<usize>,
    /// The explainer's largest OR (emitted proofs; experiments).
    #[arg(long, value_name = "N", hide_short_help = true)]
    explain_or: Option<usize>,
    /// Print the explainer's counters and one line per `by search` leaf on stderr.
    #[arg(long, hide_short_help = true)]
    emit_stats: bool,
    /// Emitted proofs: how many of the winner's moves (the solver's first, then in its move
    /// order) are tried for one after which the position is a leaf at once, before the
    /// solver's move is followed into a subtree (0: always follow the solver).
    #[arg(long, value_name = "N", default_value_t = hexproof::prove::emit::REPLY_TRIES)]
    emit_reply_tries: usize,
    /// Emitted proofs: the checker's node budget for a `by search` leaf tested after one of
    /// those tried moves other than the solver's (0: --emit-leaf-nodes); a smaller budget
    /// makes the failing tries cheap (8×8).
    #[arg(long, value_name = "N", default_value_t = 0, hide_short_help = true)]
    emit_reply_leaf_nodes: u64,
    /// Emitted proofs: derived facts on at most this many cells are written as one
    /// `by search` step instead of their AND/OR derivation (0: all written out).
    #[arg(long, value_name = "CELLS", default_value_t = 0)]
    emit_collapse: usize,
    /// Emitted proofs: leave out a precluding analysis when the node's other analyses and its
    /// cases (with their `| *`) already answer every White move it excludes.
    #[arg(long)]
    emit_drop_redundant: bool,
    /// Emitted proofs: do not close a leaf by the fill-in the checker justifies and a search
    /// in the filled position (`fill …` then `t - b on [..] by search`); as before that form.
    #[arg(long, hide_short_help = true)]
    emit_no_fill_search: bool,
    /// Emitted proofs: the checker's node budget for the search of a leaf by fill-in and
    /// search on at most --emit-fill-small searched cells (0: --emit-leaf-nodes); at most
    /// the checker's first-phase budget (200,000), which `hexproof check` runs with.
    #[arg(long, value_name = "N", default_value_t = 0, hide_short_help = true)]
    emit_fill_nodes: u64,
    /// Emitted proofs: the most searched cells for --emit-fill-nodes (0: no limit).
    #[arg(
        long,
        value_name = "CELLS",
        default_value_t = 0,
        hide_short_help = true
    )]
    emit_fill_small: usize,
    /// Emitted proofs: a second node budget for a leaf's search (plain or after fill-in) or
    /// a precluding analysis's search after fill-in that ran out of its first one (0: none);
    /// at most the checker's budget per step (20,000,000).
    #[arg(long, value_name = "N", default_value_t = 0, hide_short_help = true)]
    emit_fill_retry: u64,
    /// Emitted proofs: the most searched cells for --emit-fill-retry (0: no limit); a larger
    /// search out of its first budget is not run again.
    #[arg(
        long,
        value_name = "CELLS",
        default_value_t = 0,
        hide_short_help = true
    )]
    emit_fill_retry_small: usize,
    /// Emitted proofs: a precluding analysis the explainer does not derive is tried as the
    /// fill-in the checker justifies and a search in the filled position (`preclude by Z {
    /// fill … t - b on [..] by search }`), as a leaf is.
    #[arg(long, hide_short_help = true)]
    emit_fill_preclude: bool,
    /// Emitted proofs: after the tree is built, answer two White moves with one Black reply
    /// where one subtree serves both (`case c2 | d2 => …`), and leave out the cases the
    /// others' `| *` already answer (docs/prove.md, "Grouped replies").
    #[arg(long)]
    emit_group: bool,
    /// --emit-group: merge two cases only when they cost at most this many Black moves
    /// together (0: only leave out the cases the others answer).
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::GROUP_MAX_COST)]
    emit_group_cost: usize,
    /// Emitted proofs: the winner's moves to follow instead of comparing them (the proof-size
    /// objective), one a line: `BLACK-STONES / WHITE-STONES / MOVE` (cells in letters,
    /// space-separated; the position with the winner to move), e.g. a previous export's
    /// choices; for reworking a tree with --emit-group without re-running the comparisons.
    #[arg(long, value_name = "FILE", hide_short_help = true)]
    emit_follow: Option<std::path::PathBuf>,
    /// Emitted proofs: write the winner's moves of the tree as built (before --emit-group
    /// reworks it) to FILE, in --emit-follow's format, so the same tree can be re-emitted
    /// from them without the proof-size objective's comparisons.
    #[arg(long, value_name = "FILE", hide_short_help = true)]
    emit_choices_out: Option<std::path::PathBuf>,
    /// Emitted proofs: the cheap proof-size objective (docs/prove.md, "The least
    /// mustplay"): at each of the winner's moves that no closing reply ends, compare the
    /// solver's move and the next N-1 in its order by the loser's mustplay after them and
    /// follow the smallest that the solver proves winning (0: the solver's move).
    #[arg(long, value_name = "N", default_value_t = 0)]
    emit_mustplay: usize,
    /// --emit-mustplay: follow another move only when its mustplay is at most this
    /// percentage of the solver's move's (100: any smaller one).
    #[arg(long, value_name = "PCT", default_value_t = emit::MUSTPLAY_PERCENT, hide_short_help = true)]
    emit_mustplay_percent: usize,
    /// Emitted proofs: compact (docs/prove.md): union-connection leaves (Noshita's rule 2),
    /// small leaves `by search` before derivations, and among the winner's moves near the
    /// root the one with the smallest subtree.
    #[arg(long)]
    compact: bool,
    /// --compact: node budget of a union leaf's search the solver's pre-filter finds
    /// promising, at the root and after the winner's first reply.
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().union_nodes)]
    compact_union_nodes: u64,
    /// --compact: the same budget deeper in the tree.
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().union_deep)]
    compact_union_deep: u64,
    /// --compact: node budget of a union leaf's search the VC engine does not find
    /// promising (0: not tried).
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().union_small)]
    compact_union_small: u64,
    /// --compact: (group, border) candidates tried for a union leaf per position.
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().union_groups)]
    compact_union_groups: usize,
    /// --compact: winner's moves tried for a union leaf after them when none closes the
    /// branch with a plain leaf.
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().union_replies)]
    compact_union_replies: usize,
    /// --compact: solver nodes of the pre-filter of a union leaf's search.
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().filter_nodes)]
    compact_filter_nodes: u64,
    /// --compact: winner's moves compared by subtree size (1: the solver's only).
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().size_tries)]
    compact_size_tries: usize,
    /// --compact: the size objective applies to winner's moves at most this deep (1: the
    /// replies to the loser's first moves).
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().size_depth)]
    compact_size_depth: usize,
    /// --compact: solver nodes within which an alternative move must be proved winning.
    #[arg(long, value_name = "N", hide_short_help = true, default_value_t = emit::CompactOptions::default().size_nodes)]
    compact_size_nodes: u64,
    /// Move ordering: "flow" (the default: the resistor circuits with a link for each of the
    /// node's virtual connections, cells carrying the most current first, as Benzene's DFPN
    /// orders; each colour's circuit is kept from the node's evaluation, so an expansion
    /// builds at most one colour), "connections" (the same circuits, cells of high energy
    /// first: the default before session 24), "resistance" (cells of high energy in the
    /// plain resistor circuits, Anshelevich §6) or "centre" (cells near the centre first).
    #[arg(long, default_value = "flow", value_name = "ORDER", value_parser = exact_choice::<OrderArg>(|o| format!("--order '{o}': use centre, resistance, connections or flow")))]
    order: OrderArg,
    /// The connection engine's OR rule: "fast" (the fast semis-combiner, Pawlewicz et al.
    /// Algorithm 4, the solver's default: cheaper builds) or "full" (semis-combiner,
    /// Algorithm 2, the default of `hexproof vc`: finds more, e.g. the win of gm6).
    #[arg(long, default_value = "fast", value_name = "fast|full", value_parser = ["fast", "full"])]
    vc_or: String,
    /// FastVC's soft limit on VSCs stored per endpoint pair: a number, or "none" (no
    /// limit). Tighter limits make each build cheaper but weaken the mustplay and the win
    /// detection (8×8 g2: 18,420 positions with 16, 11,996 with none, in about the same CPU
    /// time; the six hardest 7×7 openings ≈ 20 % more CPU with none).
    #[arg(long, default_value = "16", value_name = "N|none")]
    vc_semi_limit: String,
    /// The VSC limit of the pairs with one border endpoint (an edge and a cell or group): a
    /// number, "none" (no limit: the default; 8×8 g2 7,676 positions instead of 15,152) or
    /// "same" (--vc-semi-limit's, the rule before session 30).
    #[arg(long, default_value = "none", value_name = "N|none|same")]
    vc_edge_semi_limit: String,
    /// --vc-edge-semi-limit also applies to the pairs with a stone group as an endpoint.
    #[arg(long)]
    vc_edge_semi_limit_groups: bool,
    /// A full VSC list also takes a carrier smaller than its largest, dropping that one
    /// (keeps the smallest carriers instead of the first).
    #[arg(long)]
    vc_semi_keep_smallest: bool,
    /// The VSCs of the AND over captured cells are not refused by a full VSC list.
    #[arg(long)]
    vc_capture_semis_unlimited: bool,
    /// Ablation: no AND over captured cells in the connection engine (by default two
    /// connections through an empty cell may share the two cells of its bridge to an edge of
    /// the colour, which it captures when played: Benzene's captured-set intersection)
    #[arg(long)]
    no_vc_capture_and: bool,
    /// Ablation: build 8x8 connections on the board's two-word cell numbering. By default a
    /// build whose position numbers at most 64 cells (its empty cells, one stone per group
    /// without an edge, its two edges) runs on one-word sets: the same connections in the
    /// same order, so the same tree, for about a quarter less CPU (issue 25, session 35)
    #[arg(long)]
    no_compact_layout: bool,
    /// Ablation (--openings all): search each opening with its own table only. By default
    /// the openings' searches (and threads) share their solved positions with proof sets
    /// (Black a4, White x, Black d4 is reached from a4 and from d4).
    #[arg(long)]
    no_share_openings: bool,
    /// Cluster jobs (docs/cluster.md), with --openings all: solve only shard i of n (1 <= i
    /// <= n) of the openings, each opening alone (no table shared with the others), and write
    /// one checksummed result file per opening to --out, atomically (a temporary file
    /// renamed). An opening whose valid, decided result is already there is skipped, so a
    /// killed or repeated job changes nothing. Slurm: --shard $SLURM_ARRAY_TASK_ID/N.
    #[arg(long, value_name = "i/n", value_parser = jobs::Shard::parse, requires = "out")]
    shard: Option<jobs::Shard>,
    /// Cluster jobs of one position (docs/cluster.md): split the position of --moves into
    /// its sub-positions K moves deeper (1 or 2; every legal move, no pruning), solve shard
    /// i/n of them (--shard, default 1/1), one checksummed file each in --out; --combine
    /// re-derives the frontier and computes the position's winner by minimax.
    #[arg(long, value_name = "K", requires = "out", conflicts_with_all = ["openings", "emit_proof"])]
    frontier: Option<usize>,
    /// The folder of the result files of --shard (created if missing; alone: shard 1/1).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// With --openings all --out DIR: take only these openings, in this order (cells
    /// separated by commas or spaces), e.g. the cheap ones first in a sweep that may be
    /// stopped: `--only d4,e2,f2`. --shard then splits this list.
    #[arg(long, value_name = "CELLS", requires = "out")]
    only: Option<String>,
    /// Assemble the openings table of --board from the result files in DIR (repeatable),
    /// re-checking each file (checksum, board, opening, a possible winning move) and the
    /// files against each other (duplicates and 180° images agree); exit 2 naming the bad
    /// file or the missing openings and their shards, 3 if an opening is undecided.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["openings", "out", "moves", "emit_proof"])]
    combine: Vec<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

struct Setup {
    position: Position,
    to_move: Colour,
    notation: Notation,
    params: SolveParams,
}

/// The most threads `--threads` may ask for (as `bid --threads`).
const MAX_THREADS: usize = 256;

fn setup(a: &SolveArgs) -> Result<Setup, CliError> {
    let notation = a.position.notation();
    let (position, played) = a.position.position()?;
    let to_move = PositionArgs::to_move(played);
    dfpn::check_position(&position)?;
    if let Some(t) = a.time {
        if !t.is_finite() || t <= 0.0 {
            return Err(CliError::NotPositiveSeconds {
                flag: "--time",
                seconds: t,
            });
        }
    }
    if a.nodes == 0 {
        return Err(CliError::Zero("--nodes"));
    }
    for e in [a.epsilon, a.top_epsilon, a.top_pn_ratio] {
        if !e.is_finite() || e < 0.0 {
            return Err(CliError::Epsilon(e));
        }
    }
    if a.threads == 0 {
        return Err(CliError::Zero("--threads"));
    }
    if a.threads > MAX_THREADS {
        return Err(CliError::TooManyThreads {
            given: a.threads as u64,
            max: MAX_THREADS as u64,
        });
    }
    if a.child_dn == 0 {
        return Err(CliError::Zero("--child-dn"));
    }
    if a.out.is_some() && a.openings.is_none() && a.frontier.is_none() {
        return Err(CliError::Usage(
            "--shard/--out are jobs of --openings all or --frontier K: add --openings all or --frontier K",
        ));
    }
    if a.out.is_some() && a.db.as_deref().is_some_and(|d| !dfpn::db::is_server_url(d)) {
        return Err(CliError::Usage(
            "--db FILE (redb) has one writer: jobs of --shard cannot share it; drop --db or use --db postgres://…",
        ));
    }
    if let Some(OpeningsArg::All) = a.openings {
        if played > 0 {
            return Err(CliError::Usage(
                "--openings all starts from the empty board: drop --moves",
            ));
        }
        if a.emit_proof.is_some() {
            return Err(CliError::Usage(
                "--emit-proof works on one position: use --moves instead of --openings",
            ));
        }
    }
    let order = a.order.into();
    let semi_limit = match a.vc_semi_limit.as_str() {
        "none" => None,
        n => Some(
            n.parse::<usize>()
                .map_err(|_| CliError::SemiLimit(n.into()))?,
        ),
    };
    let edge_semi_limit = match a.vc_edge_semi_limit.as_str() {
        "same" => None,
        "none" => Some(usize::MAX),
        n => Some(
            n.parse::<usize>()
                .map_err(|_| CliError::SemiLimit(n.into()))?,
        ),
    };
    let db = match &a.db {
        Some(path) => {
            let db = dfpn::db::SolvedDb::open(path, a.db_stones)?;
            if db.legacy_records > 0 {
                eprintln!(
                    "hexproof: warning: database {}: {} record(s) of the first format (no checksum) are not used",
                    path.display(),
                    db.legacy_records
                );
            }
            if db.bad_records > 0 {
                eprintln!(
                    "hexproof: warning: database {}: {} record(s) fail their checksum and are ignored",
                    path.display(),
                    db.bad_records
                );
            }
            Some(std::sync::Arc::new(db))
        }
        None => None,
    };
    let params = SolveParams {
        db,
        order,
        semi_limit,
        edge_semi_limit,
        edge_semi_limit_groups: a.vc_edge_semi_limit_groups,
        semi_keep_smallest: a.vc_semi_keep_smallest,
        capture_semis_unlimited: a.vc_capture_semis_unlimited,
        nodes: a.nodes,
        time: a.time.map(|t| Duration::from_secs_f64(t.min(1e9))),
        tt_entries: a.tt_entries,
        epsilon: a.epsilon,
        top_epsilon: (a.top_plies > 0).then_some((a.top_epsilon, a.top_plies)),
        top_first: !a.top_every,
        top_pn_ratio: a.top_pn_ratio,
        features: Features {
            vcs: !a.no_vcs,
            mustplay: !a.no_mustplay,
            dead: !a.no_dead,
            captured: !a.no_captured,
            proof_sets: !a.no_proof_sets,
            rotation: !a.no_rotation,
            dominated: !a.no_dominated,
            vulnerable: !a.no_vulnerable,
            decompose: !a.no_decompose,
            incremental: (Features::ALL.incremental || a.incremental) && !a.fresh_builds,
            reduction: !a.no_proof_set_reduction,
            skip_own_wins: !a.no_skip_own_wins,
            weak_dn: a.weak_dn,
            ice_patterns: !a.no_ice_patterns,
            dominated_proofs: !a.no_dominated_proofs,
            // A stolen child has no winning move for the proof writer to follow.
            strategy_stealing: !a.no_strategy_stealing && a.emit_proof.is_none(),
            // A transposed position has no subtree for the proof writer to follow.
            transpositions: a.transpositions && a.emit_proof.is_none(),
        },
        child_dn: a.child_dn,
        widening_step: a.widening_step,
        sticky: a.sticky,
        threat_order: a.threat_order,
        conductance: a.conductance.into(),
        widening: match a.widening {
            None => SolveParams::default().widening,
            Some(Widening(w)) => w.map(|f| (dfpn::WIDENING_BASE, f)),
        },
        update_stones: a.update_stones,
        vc_variant: a.vc.unwrap_or(SolveParams::default().vc_variant),
        library_seeds: !a.no_library_seeds,
        vc_fast_or: a.vc_or == "fast",
        vc_capture_and: !a.no_vc_capture_and,
        compact_layout: !a.no_compact_layout,
        // --openings all parallelises across openings (one thread each); frontier jobs too.
        threads: if a.openings.is_some() || a.frontier.is_some() {
            1
        } else {
            a.threads
        },
        ..SolveParams::default()
    };
    Ok(Setup {
        position,
        to_move,
        notation,
        params,
    })
}

fn winner_name(w: Winner) -> &'static str {
    match w {
        Winner::Black => "Black",
        Winner::White => "White",
        Winner::Undecided => "undecided",
    }
}

fn outcome_json(o: &SolveOutcome, board: &Board, n: Notation) -> serde_json::Value {
    json!({
        "winner": o.winner,
        "to_move": o.to_move,
        "winning_move": o.winning_move.map(|c| board.cell_name(c, n)),
        "nodes": o.nodes,
        "vc_decided": o.vc_decided,
        "tt_entries": o.tt_entries,
        "seconds": o.micros as f64 / 1e6,
        "profile": o.profile,
    })
}

/// Runs `hexproof solve`.
pub fn run_solve(a: SolveArgs) -> u8 {
    let s = match setup(&a) {
        Ok(s) => s,
        Err(e) => return fail_input(&e),
    };
    if !a.no_ice_patterns {
        // Only the patterns the trusted checker accepts reach the solver (docs/ice.md).
        hexproof::ice::install(hexproof::trusted::ice::accepted_patterns(
            hexproof::ice::EMBEDDED,
        ));
    }
    if !a.combine.is_empty() {
        match dfpn::frontier::frontier_files(&a.combine) {
            Ok(f) if !f.is_empty() => {
                return super::solve_jobs::run_frontier_combine(&a.combine, s.notation, a.json)
            }
            Err(e) => return fail_input(e),
            Ok(_) => {}
        }
        return super::solve_jobs::run_combine(&a.combine, s.position.board(), s.notation, a.json);
    }
    if let (Some(k), Some(out)) = (a.frontier, &a.out) {
        let board = *s.position.board();
        let moves = match board.parse_cells(&a.position.moves, s.notation) {
            Ok(m) => m,
            Err(e) => return fail_input(e),
        };
        let root = match dfpn::frontier::Root::new(board, &moves, k) {
            Ok(r) => r,
            Err(e) => return fail_input(format!("--frontier: {e}")),
        };
        let shard = a.shard.unwrap_or(jobs::Shard::ALL);
        return super::solve_jobs::run_frontier_job(
            &s.params, &root, shard, out, s.notation, a.json,
        );
    }
    if a.openings.is_some() {
        if let Some(out) = &a.out {
            let shard = a.shard.unwrap_or(jobs::Shard::ALL);
            let only = match a
                .only
                .as_deref()
                .map(|l| only_openings(s.position.board(), l, s.notation))
            {
                None => None,
                Some(Ok(cells)) => Some(cells),
                Some(Err(e)) => return fail_input(e),
            };
            return super::solve_jobs::run_job(
                &s.params,
                s.position.board(),
                shard,
                only.as_deref(),
                out,
                s.notation,
                a.json,
            );
        }
        return run_openings(&a, &s);
    }
    let board = *s.position.board();
    // With --emit-proof the search is kept: the proof is written from its table (one solve).
    let start = std::time::Instant::now();
    let (out, mut search) = if s.params.threads > 1 {
        match dfpn::parallel::solve_parallel(&s.position, s.to_move, &s.params) {
            Ok(r) => r,
            Err(e) => return fail_input(e),
        }
    } else {
        let mut search = dfpn::make_search(&s.params, s.params.order.order(), start);
        match dfpn::check_position(&s.position) {
            Ok(()) => (
                dfpn::solve_in(&mut search, &s.position, s.to_move, start),
                search,
            ),
            Err(e) => return fail_input(e),
        }
    };
    let mut proof_note = None;
    if let (Some(path), true) = (&a.emit_proof, out.winner != Winner::Undecided) {
        let mut explain = hexproof::vc::explain::ExplainLimits::default();
        if let Some(w) = a.explain_work {
            explain.work = w;
        }
        if let Some(v) = a.explain_list {
            explain.list_max = v;
        }
        if let Some(v) = a.explain_or {
            explain.or_max = v;
        }
        let follow = match &a.emit_follow {
            // Read once per run: the options are `Copy`, so the list lives to the end.
            Some(p) => match read_follow(p, &s.position) {
                Ok(v) => &*Box::leak(v.into_boxed_slice()),
                Err(msg) => return fail_input(msg),
            },
            None => &[],
        };
        let opts = emit::EmitOptions {
            leaf_max: a.emit_leaf_max,
            leaf_nodes: a.emit_leaf_nodes,
            explain,
            stats: a.emit_stats,
            reply_tries: a.emit_reply_tries,
            reply_leaf_nodes: a.emit_reply_leaf_nodes,
            collapse: a.emit_collapse,
            drop_redundant: a.emit_drop_redundant,
            fill_search: !a.emit_no_fill_search,
            fill_nodes: a.emit_fill_nodes,
            fill_small: a.emit_fill_small,
            fill_retry: a.emit_fill_retry,
            fill_retry_small: a.emit_fill_retry_small,
            fill_preclude: a.emit_fill_preclude,
            group: a.emit_group,
            group_cost: a.emit_group_cost,
            follow,
            mustplay_tries: a.emit_mustplay,
            mustplay_percent: a.emit_mustplay_percent,
            compact: a.compact.then_some(emit::CompactOptions {
                union_nodes: a.compact_union_nodes,
                union_deep: a.compact_union_deep,
                union_small: a.compact_union_small,
                union_groups: a.compact_union_groups,
                union_replies: a.compact_union_replies,
                filter_nodes: a.compact_filter_nodes,
                size_tries: a.compact_size_tries,
                size_depth: a.compact_size_depth,
                size_nodes: a.compact_size_nodes,
            }),
            ..emit::EmitOptions::default()
        }
        .for_params(&s.params);
        match emit::emit_solved_with_choices(&mut search, &s.position, s.to_move, &opts) {
            Ok((text, choices)) => {
                let mut files = vec![(path, text)];
                if let Some(c) = &a.emit_choices_out {
                    files.push((c, emit::write_choices(&board, &choices)));
                }
                for (p, text) in files {
                    if let Err(source) = std::fs::write(p, text) {
                        return fail_input(CliError::Write {
                            path: p.clone(),
                            source,
                        });
                    }
                }
                proof_note = Some(path.display().to_string());
            }
            Err(e) => {
                eprintln!("hexproof: no proof written: {e}");
            }
        }
    }
    if a.json {
        let mut v = outcome_json(&out, &board, s.notation);
        v["board"] = json!(format!("{}x{}", board.cols(), board.rows()));
        v["moves"] = json!(move_list(&board, &a.position.moves, s.notation));
        v["proof"] = json!(proof_note);
        return print_json(v, solve_exit(out.winner == Winner::Undecided));
    } else {
        print!("{}", s.position.to_ascii(s.notation));
        println!("to move: {}", capital(s.to_move));
        match out.winner {
            Winner::Undecided => println!("winner:  undecided (budget exhausted)"),
            w => println!("winner:  {}", winner_name(w)),
        }
        if let Some(m) = out.winning_move {
            println!("winning move: {}", board.cell_name(m, s.notation));
        }
        println!(
            "nodes:   {} ({} decided by connections), table {} entries, {:.3} s",
            out.nodes,
            out.vc_decided,
            out.tt_entries,
            out.micros as f64 / 1e6
        );
        if let Some(p) = proof_note {
            println!("proof:   written to {p} (check it with `hexproof check {p}`)");
        }
    }
    solve_exit(out.winner == Winner::Undecided)
}

/// `solve`'s exit code: 3 when something stayed undecided, else 0.
fn solve_exit(undecided: bool) -> u8 {
    if undecided {
        EXIT_UNDECIDED
    } else {
        EXIT_HOLDS
    }
}

fn capital(c: Colour) -> &'static str {
    match c {
        Colour::Black => "Black",
        Colour::White => "White",
    }
}

/// The cells of `--only`: each a cell of the board, none twice.
fn only_openings(board: &Board, list: &str, n: Notation) -> Result<Vec<Cell>, String> {
    let mut cells: Vec<Cell> = Vec::new();
    for name in list
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        let cell = board
            .parse_cell(name, n)
            .ok()
            .filter(|c| c.as_border().is_none())
            .ok_or_else(|| {
                format!(
                    "--only: '{name}' is not a cell of the {} board",
                    jobs::board_name(board)
                )
            })?;
        if cells.contains(&cell) {
            return Err(format!("--only: '{name}' is given twice"));
        }
        cells.push(cell);
    }
    if cells.is_empty() {
        return Err("--only: no cell given".into());
    }
    Ok(cells)
}

fn run_openings(a: &SolveArgs, s: &Setup) -> u8 {
    let board = *s.position.board();
    let bar = if a.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(openings::search_order(&board, s.params.features.rotation).len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} openings, {elapsed} {msg}")
            .expect("valid template"),
    );
    let progress = |o: &openings::Opening| {
        let line = format!(
            "{}: {} ({} nodes, {:.2} s, {:.2} CPU-s)",
            board.cell_name(o.cell, s.notation),
            winner_name(o.outcome.winner),
            o.outcome.nodes,
            o.outcome.micros as f64 / 1e6,
            o.cpu_seconds
        );
        if !a.json {
            if bar.is_hidden() {
                eprintln!("{line}");
            } else {
                bar.println(line);
            }
        }
        bar.inc(1);
    };
    let all = match openings::solve_openings(
        board,
        &s.params,
        a.threads,
        !a.no_share_openings,
        hexproof::player::clock::thread_cpu_time,
        progress,
    ) {
        Ok(all) => all,
        Err(e) => return fail_input(&e),
    };
    bar.finish_and_clear();
    let results: Vec<(hexproof::board::Cell, SolveOutcome, bool, f64)> = all
        .openings
        .iter()
        .map(|o| (o.cell, o.outcome.clone(), o.by_rotation, o.cpu_seconds))
        .collect();
    let (nodes, wall_sum, cpu_seconds, wall) = (
        all.nodes,
        all.sum_seconds,
        all.cpu_seconds,
        all.wall_seconds,
    );
    let (undecided, black_wins) = (all.undecided, all.black_wins);
    if a.json {
        let rows: Vec<_> = results
            .iter()
            .map(|(c, o, by_rotation, cpu)| {
                let mut v = outcome_json(o, &board, s.notation);
                v["opening"] = json!(board.cell_name(*c, s.notation));
                v["by_rotation"] = json!(by_rotation);
                v["cpu_seconds"] = json!(cpu);
                v
            })
            .collect();
        return print_json(
            json!({
                "board": format!("{}x{}", board.cols(), board.rows()),
                "openings": rows,
                "black_wins": black_wins,
                "undecided": undecided,
                "nodes": nodes,
                "solved": all.searched,
                "sum_seconds": wall_sum,
                "cpu_seconds": cpu_seconds,
                "wall_seconds": wall,
                "threads": a.threads,
                "shared_entries": all.shared_entries,
                "shared_hits": all.shared_hits,
                "shared_evals": all.shared_evals,
            }),
            solve_exit(undecided > 0),
        );
    } else {
        print_table(&board, |cell| {
            results
                .iter()
                .find(|(c, _, _, _)| *c == cell)
                .map_or(Winner::Undecided, |r| r.1.winner)
        });
        println!(
            "{} searched ({} by rotation); nodes: {nodes} in total, {cpu_seconds:.2} CPU-s ({wall_sum:.2} s wall) summed over openings, wall {wall:.2} s with {}",
            super::plural(all.searched, "opening"),
            results.len() - all.searched,
            super::plural(a.threads, "thread")
        );
    }
    solve_exit(undecided > 0)
}

/// Prints the openings table of `board` (B: the opening wins for Black, `.`: it loses, `?`:
/// undecided) and the legend line.
pub(super) fn print_table(board: &Board, winner: impl Fn(hexproof::board::Cell) -> Winner) {
    let mut s2 = String::from("  ");
    for c in 0..board.cols() {
        s2.push_str(&format!(" {}", (b'a' + c) as char));
    }
    println!("{s2}");
    let (mut black_wins, mut undecided, mut total) = (0, 0, 0);
    for r in 0..board.rows() {
        let mut line = format!("{:>2} {}", r + 1, " ".repeat(r as usize));
        for col in 0..board.cols() {
            let w = winner(hexproof::board::Cell::at(col, r));
            total += 1;
            black_wins += usize::from(w == Winner::Black);
            undecided += usize::from(w == Winner::Undecided);
            line.push(match w {
                Winner::Black => 'B',
                Winner::White => '.',
                Winner::Undecided => '?',
            });
            line.push(' ');
        }
        println!("{}", line.trim_end());
    }
    println!(
        "B = the opening wins for Black ({black_wins} of {total}), . = it loses, ? = undecided ({undecided})"
    );
}

/// The solver settings a job records in its result files (everything that can change an
/// answer's budget or search, not the machine).
pub(super) fn settings_line(p: &SolveParams) -> String {
    format!(
        "nodes={} time={:?} tt={} epsilon={} order={:?} features={:?} child_dn={} widening={:?} vc={:?} library_seeds={} vc_fast_or={} semi_limit={:?} update_stones={} vc_capture_and={} edge_semi_limit={:?} edge_semi_limit_groups={} semi_keep_smallest={} capture_semis_unlimited={}",
        p.nodes, p.time, p.tt_entries, p.epsilon, p.order, p.features, p.child_dn, p.widening,
        p.vc_variant, p.library_seeds, p.vc_fast_or, p.semi_limit, p.update_stones,
        p.vc_capture_and, p.edge_semi_limit, p.edge_semi_limit_groups, p.semi_keep_smallest,
        p.capture_semis_unlimited
    )
}

/// `--widening`: a factor, or `none` (`Widening(None)`).
#[derive(Clone, Copy, Debug)]
struct Widening(Option<f64>);

fn parse_widening(s: &str) -> Result<Widening, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(Widening(None));
    }
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 && f <= 1.0 => Ok(Widening(Some(f))),
        _ => Err(format!("'{s}': expected a factor in (0, 1] or 'none'")),
    }
}

fn parse_variant(s: &str) -> Result<hexproof::vc::Variant, String> {
    hexproof::vc::Variant::parse(s)
        .ok_or_else(|| format!("'{s}': expected fast, limited, unlimited or hsearch"))
}

/// Reads `--emit-follow`: one `BLACK / WHITE / MOVE` line per winner-to-move position (cells
/// in letters), as (Black's stones, White's stones, move) on the board of `pos` as solved (a
/// White win's export is written transposed; its choices are read untransposed).
fn read_follow(
    path: &std::path::Path,
    pos: &hexproof::position::Position,
) -> Result<Vec<emit::Choice>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--emit-follow {}: {e}", path.display()))?;
    emit::read_choices(pos.board(), &text)
        .map_err(|(line, why)| format!("--emit-follow {} line {line}: {why}", path.display()))
}
