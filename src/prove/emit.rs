//! Exporting a solved win as a `.hexp` strategy (docs/LANGUAGE.md §9) for `hexproof check`.
//!
//! The solver's word is not final: the exported tree is re-proved by the checker. The tree
//! follows the search on the *real* positions (not the filled ones). Below, the winner is
//! "Black" (see the end for a win of White):
//!
//! - at a White-to-move position whose fill-in gives Black a winning VC on carrier C, a
//!   **leaf**: Black's connection written as its **AND/OR derivation** (Anshelevich's rules,
//!   base facts = adjacency, lemma uses of the certified edge templates via `use templates`),
//!   found by the explainer ([`crate::vc::explain`]) inside C ∪ B in the real position, where
//!   B are the cells the fill-in gave Black. The checker verifies it rule by rule, so its size
//!   does not matter. When the explainer finds none (it has no counterpart of fill-in, and
//!   bounds its OR rule), the leaf is `t - b on [C ∪ B] by search` if it has at most
//!   `leaf_max` cells (dead cells and Black-captured pairs: inside the sub-game they stay
//!   dead, or Black answers inside the pair, so the local claim holds) *and* the checker's
//!   exact search proves it within [`LEAF_NODES`] nodes (the emitter runs that very search:
//!   on 7×7 a quarter of the search leaves cost 0.5–20 s each and were nearly all of a
//!   check's time), else the position is split into a White node. Before falling back to the search, the emitter tries
//!   **fill-in**: the cells B that the checker's own test justifies (dead cells and regions,
//!   captured pairs: [`crate::check::fill`], tested in the leaf's restricted position, one at a
//!   time with the earlier ones applied) are written `fill dead [..]` / `fill captured black
//!   [a, b]` before the steps, and the explainer derives the connection in the filled
//!   position (docs/SEMANTICS.md, "Fill-in in a leaf"); a cell the test does not justify is
//!   never written as a fill. The same for a precluding analysis. With no derivation, the
//!   justified fills are written before the search instead (`fill …`, then `t - b on
//!   [C ∪ B \ F] by search`, searched in the filled position: the filled cells F leave the
//!   search), before the plain search leaf (docs/prove.md, "Leaves by fill-in and search");
//! - otherwise a **White node**: every winning VSC of Black (carrier S) whose key Z the
//!   explainer finds (an AND through the empty cell Z; for small carriers also the exact
//!   search within [`KEY_NODES`]) becomes `preclude by Z { … }` with the derivation of the
//!   VC that the fictitious stone on Z gives (or `t - b on [S \ Z ∪ B] by search` if small)
//!   (the mustplay, Henderson, Arneson & Hayward 2009 §2); each White move left
//!   over, in the solver's move order, gets a `case`, answered by the solver's winning move.
//!   When the reply's proof set K (the cells its subtree may occupy, computed as the checker
//!   does) leaves out some of the moves still to answer, the case is written `case w | * =>`:
//!   those moves are refuted by the same reply (proof-set pruning, §5; docs/SEMANTICS.md,
//!   "Proof-set pruning in a tree").
//!
//! **Transpositions are written once.** The solver's search is a DAG (its table merges
//! positions reached in different move orders) while a tree writes every transposition
//! again. The emitter keeps one node per White-to-move position (the exact stones of each
//! colour); a position reached by two or more branches becomes a shared position
//! `position Pn black [..] white [..] { .. }` after the tree, and each branch ends in
//! `black M goto Pn` (docs/SEMANTICS.md, "Shared positions": the checker verifies it once
//! and checks that each reference reaches exactly that position). A position whose 180° image
//! was met before (the solver's table merges those too) refers to it as `goto Pn under
//! rot180`. Positions only grow along a branch, so the references are acyclic.
//!
//! A win of White is written for the transposed board with the colours swapped (a symmetry of
//! Hex), since a strategy proves a win of Black: the emitter follows the solver's own search
//! (White as the winner, so the table of the solve is reused) and maps every cell when
//! writing.

use crate::board::{Board, Cell, CellSet, Colour, Notation};
use crate::check::fill::{captured_violation, check_fills, dead_violation, restricted, FillSpec};
use crate::claim::{Claim, SubGame};
use crate::dfpn::mid::Dfpn;
use crate::dfpn::tt::{Symmetry, INF};
use crate::dfpn::{confirmed_move, key_move_within, make_search, SolveParams};
use crate::local::{decide, Budget, Verdict};
use crate::position::Position;
use crate::prove::ProveError;
use crate::vc::explain::{
    explain_key_vc, explain_win, Derivation, ExplainLimits, ExplainedFact, Why,
};
use crate::vc::seed::SeedTemplate;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Most nodes (black moves + white nodes + leaves, each shared position counted once) in an
/// exported proof.
pub const MAX_TREE_NODES: usize = 200_000;

/// Node budget of the exact search that finds a VSC's key for a precluding analysis.
pub const KEY_NODES: u64 = 30_000;

/// How many of a position's winning VCs (smallest first) the explainer tries.
pub const EXPLAIN_TRIES: usize = 3;

/// Largest leaf or precluding carrier written `by search` (cells) when the explainer finds no
/// derivation: the checker decides each by the exact search, which is quick up to about this
/// size on 7×7; a larger connection is split into White's moves and Black's replies instead.
pub const LEAF_MAX: usize = 22;

/// How a win is written: the experiment knobs of the export, each a parameter (no
/// environment variables), all with tested defaults.
#[derive(Clone, Copy, Debug)]
pub struct EmitOptions {
    /// Largest leaf or precluding carrier written `by search` ([`LEAF_MAX`]).
    pub leaf_max: usize,
    /// Write connections as AND/OR derivations when the explainer finds them; without, every
    /// leaf and precluding carrier is written `by search` (at most `leaf_max` cells), as
    /// before the explainer — kept to compare the two and to test the tree alone.
    pub derive: bool,
    /// Most nodes of the checker's search a `by search` leaf must fit in ([`LEAF_NODES`];
    /// 0 turns the test off), capped at the checker's first-phase budget.
    pub leaf_nodes: u64,
    /// The explainer's bounds (work per explanation, list length, OR size).
    pub explain: ExplainLimits,
    /// Print the explainer's counters and one line per search leaf on stderr.
    pub stats: bool,
    /// Node budget of the checker's search in a leaf by fill-in and search whose searched
    /// cells are at most [`EmitOptions::fill_small`] (0: [`EmitOptions::leaf_nodes`]), capped
    /// at the checker's first-phase budget, which `hexproof check` runs with. The filled
    /// game is smaller than the plain one, so a larger budget there splits fewer leaves at a
    /// bounded cost (issue 26, session 34).
    pub fill_nodes: u64,
    /// The most searched cells for [`EmitOptions::fill_nodes`] (0: no limit).
    pub fill_small: usize,
    /// A second, larger node budget for a leaf's search (plain or after fill-in) or a
    /// precluding analysis's search after fill-in that ran out of its first budget (not in a
    /// speculative reply try); 0: none. Capped at [`CHECK_STEP_NODES`], the budget `hexproof
    /// check` gives each step, so the checker decides every such leaf within its own budget
    /// (issue 26, session 36: most of 7×7 b3's split leaves were searches out of budget).
    pub fill_retry: u64,
    /// The most searched cells for [`EmitOptions::fill_retry`] (0: no limit): a search of
    /// more cells out of its first budget is not run again. Off by default: on 7×7 b3
    /// (session 42, 2,000,000 nodes) the retries of 28–30 cells held a third to a half of
    /// the time (every retry of at most 27 cells but a few held), so a cap trades split
    /// leaves for the time of the failing retries (issue 26, docs/journal/prove-session42.md).
    pub fill_retry_small: usize,
    /// A precluding analysis whose fictitious stone's VC the explainer does not derive is
    /// tried as fill-in and a search in the filled position too (the leaf form of
    /// [`EmitOptions::fill_search`] inside a White node's `preclude by Z { … }`), before the
    /// plain search of a small carrier: a precluding analysis that holds removes the White
    /// moves outside its carrier from the node's cases (Henderson, Arneson & Hayward 2009
    /// §2, the mustplay). Off: as before (issue 26, session 35).
    pub fill_preclude: bool,
    /// How many of the winner's moves (the solver's first, then in its move order) are tried
    /// for one that closes the branch at once (a leaf, or a position already written) before
    /// the solver's move is followed; 0: follow the solver ([`REPLY_TRIES`]).
    pub reply_tries: usize,
    /// Node budget of the checker's search when a `by search` leaf is tested after one of
    /// those tried moves other than the solver's own (a speculative try: if it fails, the
    /// solver's move is followed anyway); 0: [`EmitOptions::leaf_nodes`], as before. On 8×8
    /// most of an export's time was such searches that fail at the full budget
    /// (docs/journal/proof8-session28.md).
    pub reply_leaf_nodes: u64,
    /// Compact proofs (`solve --compact`, docs/prove.md): union-connection leaves (Noshita's
    /// rule 2), small leaves `by search` before derivations, and the proof-size objective
    /// near the root. Off: the export is the one above, unchanged.
    pub compact: Option<CompactOptions>,
    /// Derived facts whose carrier has at most this many cells are written as one `by search`
    /// step, their own derivation left out (0: every rule step written, as before). The
    /// checker's search of such a step is the one it runs anyway to confirm a rule step, so
    /// a small fact costs it no more; the file loses the repeated bridges and edge templates
    /// spelled out as AND/OR steps (docs/prove.md, "Collapsed derivations").
    pub collapse: usize,
    /// Drop a precluding analysis when the node's other analyses and its cases (with their
    /// `| *` proof-set pruning) already answer every White move it excludes
    /// ([`drop_redundant_precludes`]); off: every analysis found is written, as before.
    pub drop_redundant: bool,
    /// After the tree is built, rework each White node (docs/prove.md, "Grouped replies"):
    /// answer two or more White moves with one Black reply where one subtree, proved in the
    /// position with all of those White stones, serves each of them (`case c2 | d2 => …`),
    /// and keep the cheapest set of cases that still answers every White move (with `| *`).
    /// Off: the tree is written as built.
    pub group: bool,
    /// [`EmitOptions::group`] tries to merge two cases only when they cost at most this many
    /// winner's moves together (0: no merging, only the cheapest set of cases); a larger pair
    /// is dear to re-emit and seldom merges.
    pub group_cost: usize,
    /// Winner's moves to follow, as (Black's stones, White's stones) of a winner-to-move
    /// position on the board as solved → the move: played at that position before any other
    /// is tried (closing replies, the proof-size objective), so a previous export's choices
    /// ([`emit_with_choices`]) rebuild its tree without comparing again. Empty: none.
    pub follow: &'static [(CellSet, CellSet, Cell)],
    /// The cheap proof-size objective (docs/prove.md, "The least mustplay"): at every
    /// winner-to-move position that no closing reply ends, the solver's move and the next
    /// moves in its order, this many in all, are scored by the loser's mustplay after them
    /// (the empty cells every winning VSC of the winner's filled position needs: the White
    /// moves a node must answer) and the move with the smallest one that the solver proves
    /// winning within [`MUSTPLAY_NODES`] is followed (0 or 1: the solver's move, as before).
    /// No subtree is emitted to compare, so it costs a VC build per move scored.
    pub mustplay_tries: usize,
    /// [`EmitOptions::mustplay_tries`] follows another move than the solver's only when its
    /// mustplay is at most this percentage of the solver's move's (100: any smaller one).
    /// On 7×7 d5 any smaller one more than doubled the tree: a mustplay of 16 against 18
    /// says little about the subtrees (docs/prove.md, "The least mustplay").
    pub mustplay_percent: usize,
    /// Close a leaf whose derivation is not found by the checker-justified fill-in of the
    /// solver's fill-in cells and a search in the filled position (`fill …` lines, then
    /// `t - b on [..] by search`), before the plain search leaf; off: as before.
    pub fill_search: bool,
}

/// The knobs of a compact export ([`EmitOptions::compact`]).
#[derive(Clone, Copy, Debug)]
pub struct CompactOptions {
    /// Node budget of the checker's search for a union `t - g | t - b` that the solver's
    /// pre-filter finds promising, near the root (the winner's first two moves).
    pub union_nodes: u64,
    /// The same budget below the replies to the loser's first moves (the root's unions are
    /// the ones that pay: 7×7 d4 after b7 e5 needs 1.33 M nodes).
    pub union_deep: u64,
    /// Node budget of the same search for a union the pre-filter leaves undecided (0: such
    /// unions are not tried).
    pub union_small: u64,
    /// Most (group, border) candidates tried for a union leaf at one position.
    pub union_groups: usize,
    /// How many of the winner's moves (in the order of `closing_reply`) are tried for a union
    /// leaf after them, when none closes the branch with a plain leaf.
    pub union_replies: usize,
    /// Solver nodes of the pre-filter of a union search (the win with the group's VC carrier
    /// filled, [`Emitter::union_promising`]).
    pub filter_nodes: u64,
    /// Winner's moves tried by the proof-size objective (the solver's first).
    pub size_tries: usize,
    /// Winner's moves at most this many moves of the winner from the root get the objective.
    pub size_depth: usize,
    /// Solver nodes within which an alternative move must be proved winning to be tried.
    pub size_nodes: u64,
}

impl Default for CompactOptions {
    fn default() -> Self {
        CompactOptions {
            union_nodes: 1_500_000,
            union_deep: 300_000,
            union_small: 50_000,
            union_groups: 6,
            union_replies: 4,
            filter_nodes: 3_000,
            size_tries: 4,
            size_depth: 2,
            size_nodes: 20_000,
        }
    }
}

/// Default of [`EmitOptions::group_cost`].
pub const GROUP_MAX_COST: usize = 12;

/// The solver's node budget for one merge of two cases (its positions are new to the
/// table).
const GROUP_NODES: u64 = 400_000;

/// The depth a grouped case's subtree is emitted at: below any `size_depth`, so its winner's
/// moves are the solver's, without the size objective's comparisons.
const GROUP_DEPTH: usize = 1 << 20;

/// Default of [`EmitOptions::reply_tries`].
pub const REPLY_TRIES: usize = 8;

/// Solver nodes within which a move [`EmitOptions::mustplay_tries`] prefers to the solver's
/// must be proved winning.
pub const MUSTPLAY_NODES: u64 = 20_000;

/// Default of [`EmitOptions::mustplay_percent`].
pub const MUSTPLAY_PERCENT: usize = 50;

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions {
            leaf_max: LEAF_MAX,
            derive: true,
            leaf_nodes: LEAF_NODES,
            explain: ExplainLimits::default(),
            stats: false,
            reply_tries: REPLY_TRIES,
            reply_leaf_nodes: 0,
            compact: None,
            collapse: 0,
            drop_redundant: false,
            group: false,
            group_cost: GROUP_MAX_COST,
            follow: &[],
            mustplay_tries: 0,
            mustplay_percent: MUSTPLAY_PERCENT,
            fill_search: true,
            fill_nodes: 0,
            fill_small: 0,
            fill_retry: 0,
            fill_retry_small: 0,
            fill_preclude: false,
        }
    }
}

impl EmitOptions {
    /// These options for a search with `params`: the explainer cites the same certified
    /// templates the solver's VC engine was seeded with (helper stones included), so a
    /// connection the solver found by a library template is written as that lemma's use
    /// (`use templates` gives the checker all of them).
    pub fn for_params(mut self, params: &SolveParams) -> Self {
        if params.library_seeds && self.explain.seeds.is_none() {
            self.explain.seeds = Some(crate::templates::seeds::library_seeds());
        }
        self
    }
}

/// One choice of the winner: (Black's stones, White's stones) of a winner-to-move position on
/// the board as solved, and the move played there ([`EmitOptions::follow`]).
pub type Choice = (CellSet, CellSet, Cell);

/// Writes the win of the player who wins `pos` (`to_move` to play) as a `.hexp` file.
pub fn emit(
    pos: &Position,
    to_move: Colour,
    params: &SolveParams,
    opts: &EmitOptions,
) -> Result<String, ProveError> {
    emit_with_choices(pos, to_move, params, opts).map(|(text, _)| text)
}

/// [`emit`], and the winner's moves of the tree as built (before [`EmitOptions::group`]
/// reworks it), one per winner-to-move position: given back as [`EmitOptions::follow`], they
/// rebuild the same tree without the proof-size objective's comparisons ([`write_choices`]
/// writes them as an `--emit-follow` file).
pub fn emit_with_choices(
    pos: &Position,
    to_move: Colour,
    params: &SolveParams,
    opts: &EmitOptions,
) -> Result<(String, Vec<Choice>), ProveError> {
    crate::dfpn::check_position(pos)?;
    let start = Instant::now();
    // A child refuted by strategy stealing has no winning move to write.
    let mut params = params.clone();
    params.features.strategy_stealing = false;
    params.features.transpositions = false;
    let params = &params;
    let mut d = make_search(params, params.order.order(), start);
    let filled = d.filled(pos, to_move);
    d.mid(&filled, to_move, INF, INF);
    emit_solved_with_choices(&mut d, pos, to_move, &opts.for_params(params))
}

/// Writes the win at `pos` from a search `d` that has already solved it (as
/// [`crate::dfpn::solve_in`] leaves it): the emitter follows that search's table, so the root
/// is not solved twice.
pub fn emit_solved(
    d: &mut Dfpn,
    pos: &Position,
    to_move: Colour,
    opts: &EmitOptions,
) -> Result<String, ProveError> {
    emit_solved_with_choices(d, pos, to_move, opts).map(|(text, _)| text)
}

/// [`emit_solved`], and the winner's moves of the tree as built ([`emit_with_choices`]).
pub fn emit_solved_with_choices(
    d: &mut Dfpn,
    pos: &Position,
    to_move: Colour,
    opts: &EmitOptions,
) -> Result<(String, Vec<Choice>), ProveError> {
    let filled = d.filled(pos, to_move);
    let e = d.entry(&filled, to_move);
    let winner = match (e.pn, e.dn) {
        (0, _) => to_move,
        (_, 0) => to_move.opponent(),
        _ => return Err(ProveError::Undecided),
    };
    let swapped = winner == Colour::White;
    let board = if swapped {
        pos.board().transposed()
    } else {
        *pos.board()
    };
    let mut limits = opts.explain;
    if let Some(seeds) = limits.seeds {
        limits.seeds = Some(importable(seeds, &board));
    }
    let mut e = Emitter {
        d,
        board,
        winner,
        swapped,
        nodes: Vec::new(),
        memo: HashMap::new(),
        rot: Symmetry::new(pos.board()),
        count: 0,
        leaf_max: opts.leaf_max,
        derive: opts.derive,
        derived: 0,
        searched: 0,
        filled_leaves: 0,
        fill_searched: 0,
        fill_search: opts.fill_search,
        fill_nodes: opts
            .fill_nodes
            .min(crate::local::oracle::DEFAULT_FIRST_NODES),
        fill_small: opts.fill_small,
        fill_retry: opts.fill_retry.min(CHECK_STEP_NODES),
        fill_retry_small: opts.fill_retry_small,
        retried: 0,
        fill_preclude: opts.fill_preclude,
        fill_precluded: 0,
        limits,
        vc_memo: HashMap::new(),
        key_memo: HashMap::new(),
        memo_hits: 0,
        prof: Profile::default(),
        started: Instant::now(),
        leaf_nodes: opts
            .leaf_nodes
            .min(crate::local::oracle::DEFAULT_FIRST_NODES),
        stats: opts.stats,
        reply_tries: opts.reply_tries,
        reply_leaf_nodes: opts.reply_leaf_nodes,
        in_try: false,
        compact: opts.compact,
        collapse: opts.collapse,
        search_memo: HashMap::new(),
        last_search: SearchOutcome::Holds,
        leaf_diag: Vec::new(),
        unions: 0,
        union_tries: 0,
        depth: 0,
        cap: None,
        drop_redundant: opts.drop_redundant,
        dropped: 0,
        size_choice: HashMap::new(),
        follow: opts
            .follow
            .iter()
            .map(|&(b, wh, m)| {
                let key = if winner == Colour::Black {
                    (b, wh)
                } else {
                    (wh, b)
                };
                (key, m)
            })
            .collect(),
        no_share: false,
        grouped: 0,
        covered: 0,
        group: opts.group,
        group_cost: opts.group_cost,
        group_extra: CellSet::EMPTY,
        mustplay_tries: opts.mustplay_tries,
        mustplay_percent: opts.mustplay_percent,
        mustplay_moved: 0,
    };
    // The strategy starts with the winner to move: when the loser is to move, one stone of
    // the winner is unplayed and becomes the winner's first move.
    let (setup, first): (Position, Option<Cell>) = if to_move == winner {
        (pos.clone(), None)
    } else {
        let s = pos
            .stones(winner)
            .iter()
            .last()
            .ok_or(ProveError::LoserOnEmpty)?;
        let mut q = pos.clone();
        q.clear(s);
        (q, Some(s))
    };
    let (mv, root) = match first {
        Some(s) => {
            let mut q = setup.clone();
            q.play(winner, s)?;
            (s, e.white(&q)?.0)
        }
        None => {
            let (mv, id, _, _) = e.black(&setup)?;
            (mv, id)
        }
    };
    if opts.stats {
        eprintln!(
            "explain (calls, found, work) for VCs and keys: {:?}; {} answered from the memo; {} White-to-move nodes",
            crate::vc::explain::counters(),
            e.memo_hits,
            e.nodes.len()
        );
        eprintln!(
            "emit profile ({:.1} s): {}",
            e.started.elapsed().as_secs_f64(),
            e.prof.line()
        );
        if e.mustplay_tries > 1 {
            eprintln!(
                "least mustplay: a move other than the solver's at {} positions",
                e.mustplay_moved
            );
        }
    }
    let choices = e.choices(&setup, first.is_none().then_some(mv), root);
    if opts.group {
        let mut seen = HashSet::new();
        e.regroup(root, *pos.board(), &mut seen)?;
        e.recount(root);
    }
    Ok((e.write(&setup, mv, root), choices))
}

/// Writes `choices` as an `--emit-follow` file for `board` (the board as solved): one
/// `BLACK / WHITE / MOVE` line each, cells in letters ([`read_choices`] reads it back).
pub fn write_choices(board: &Board, choices: &[Choice]) -> String {
    let names = |s: CellSet| {
        s.iter()
            .map(|c| board.cell_name(c, Notation::Letters))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = String::new();
    for &(b, w, m) in choices {
        let _ = writeln!(
            out,
            "{} / {} / {}",
            names(b),
            names(w),
            board.cell_name(m, Notation::Letters)
        );
    }
    out
}

/// Reads an `--emit-follow` file ([`write_choices`]) for `board`: blank lines and lines
/// starting with `#` are skipped. An error names the line (1-based) and what is wrong.
pub fn read_choices(board: &Board, text: &str) -> Result<Vec<Choice>, (usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| (n + 1, why);
        let parts: Vec<&str> = line.split('/').collect();
        let [b, w, m] = parts[..] else {
            return Err(bad("expected `BLACK / WHITE / MOVE`".into()));
        };
        let cells = |s: &str| -> Result<CellSet, (usize, String)> {
            s.split_whitespace()
                .map(|c| board.parse_cell(c, Notation::Letters))
                .collect::<Result<CellSet, _>>()
                .map_err(|e| bad(e.to_string()))
        };
        let (b, w) = (cells(b)?, cells(w)?);
        if !(b & w).is_empty() {
            return Err(bad("a cell is both Black's and White's".into()));
        }
        let m = board
            .parse_cell(m.trim(), Notation::Letters)
            .map_err(|e| bad(e.to_string()))?;
        if (b | w).contains(m) {
            return Err(bad("the move is on a stone".into()));
        }
        out.push((b, w, m));
    }
    Ok(out)
}

/// The templates of `seeds` that `use templates` gives the checker on `board` (a record is
/// drawn at the top edge, and one too wide to be drawn there on a small board is left out,
/// though it may fit elsewhere: the explainer must not cite it), cached per seed list and
/// board size.
fn importable(seeds: &'static [SeedTemplate], board: &Board) -> &'static [SeedTemplate] {
    type Key = (usize, u8, u8);
    static CACHE: OnceLock<Mutex<HashMap<Key, &'static [SeedTemplate]>>> = OnceLock::new();
    let key = (seeds.as_ptr() as usize, board.cols(), board.rows());
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    cache.entry(key).or_insert_with(|| {
        let span = crate::dsl::ast::Span::default();
        let names: HashSet<String> =
            crate::dsl::template_import::template_lemmas(*board, Notation::Letters, span)
                .into_iter()
                .filter_map(|b| b.name)
                .collect();
        let kept: Vec<SeedTemplate> = seeds
            .iter()
            .filter(|t| {
                names.contains(&crate::dsl::template_import::lemma_name(
                    t.name.trim_end_matches('\''),
                ))
            })
            .cloned()
            .collect();
        Box::leak(kept.into_boxed_slice())
    })
}

/// Most nodes of the checker's exact search for a connection written `by search` (a leaf or
/// a precluding carrier); one that needs more is split (see `Emitter::search_cheap`). At most
/// the checker's first-phase budget ([`crate::local::oracle::DEFAULT_FIRST_NODES`]).
pub const LEAF_NODES: u64 = 100_000;

/// The node budget `hexproof check` gives each `by search` step by default (its `--nodes`):
/// the most [`EmitOptions::fill_retry`] may ask for, so the checker decides every leaf the
/// emitter's search decided (the same search, deterministic in nodes). A step also has 60 s
/// of wall time in the checker; the retry budget should stay well inside it.
pub const CHECK_STEP_NODES: u64 = 20_000_000;

/// What an explanation depends on: the owner's stones and the empty cells of the area. The
/// explainer counts every other cell as the opponent's, so positions that differ only outside
/// the area (opponent stones, empty cells) get the same answer, and a derivation found for one
/// reads the same in the other (its facts name only the owner's stones, the borders and cells
/// of the area).
type ExplainKey = (CellSet, CellSet);

/// `pos` transposed with the colours exchanged ([`Position::colours_swapped`]).
pub fn swap_colours(pos: &Position) -> Position {
    pos.colours_swapped()
}

/// A loser-to-move position of the proof DAG.
enum Node {
    /// The winner's connection on these cells, as a derivation when the explainer found one
    /// (else decided by the checker's search).
    /// With fill-in (docs/SEMANTICS.md, "Fill-in in a leaf"): the fills, written before the
    /// derivation, which is about the filled position; the carrier includes the filled cells.
    Leaf(CellSet, Option<Derivation>, Vec<FillSpec>),
    /// A union-connection leaf (Noshita's rules; docs/prove.md): the winner's group `g` (a
    /// stone) has a VC to its border `x` (0: `t`, 1: `b`) on `v`, and on `a` (disjoint) the
    /// union "the other border – g, or t – b"; rule (2) joins them into `t - b` on `a ∪ v`.
    Union {
        g: Cell,
        x: usize,
        v: CellSet,
        a: CellSet,
    },
    /// Precluding analyses (key, carrier, derivation, fill-in) and cases.
    White {
        precludes: Vec<PrecludeOut>,
        cases: Vec<CaseOut>,
    },
}

/// A case of a White node: the loser's move, `| *`, the winner's reply and the node after it
/// (`rotated`: the position after the reply is that node's turned by 180°).
struct CaseOut {
    w: Cell,
    /// More of the loser's moves the same reply and subtree answer (`case w | x | y => …`).
    also: Vec<Cell>,
    rest: bool,
    reply: Cell,
    child: usize,
    rotated: bool,
}

impl CaseOut {
    /// The loser's moves this case answers by name.
    fn moves(&self) -> impl Iterator<Item = Cell> + '_ {
        std::iter::once(self.w).chain(self.also.iter().copied())
    }
}

/// A precluding analysis as emitted: key, carrier, derivation, fill-in.
type PrecludeOut = (Cell, CellSet, Option<Derivation>, Vec<FillSpec>);

/// The White moves of a White node (`empty` its empty cells) that survive the precluding
/// analyses `precludes` and the cases `cases` (with the replies' proof sets `kcs`), as the
/// checker computes them (src/check/tree.rs, `white_node`): each analysis keeps its carrier
/// and key; each case answers its move and, written `| *`, every move outside its reply's
/// proof set. Sets each case's `| *` where it removes a move (the emitter's convention).
fn survivors(
    precludes: &[PrecludeOut],
    cases: &mut [CaseOut],
    kcs: &[CellSet],
    empty: CellSet,
) -> CellSet {
    let mut left = precludes
        .iter()
        .fold(empty, |s, p| s & (p.1 | CellSet::single(p.0)));
    for (c, &kc) in cases.iter_mut().zip(kcs) {
        left.remove(c.w);
        for &x in &c.also {
            left.remove(x);
        }
        c.rest = !(left - kc).is_empty();
        left &= kc;
    }
    left
}

/// [`survivors`] without setting the `| *` marks (each case taken as written `| *`).
fn left_after(
    precludes: &[PrecludeOut],
    cases: &[CaseOut],
    kcs: &[CellSet],
    empty: CellSet,
) -> CellSet {
    let left = precludes
        .iter()
        .fold(empty, |s, p| s & (p.1 | CellSet::single(p.0)));
    cases.iter().zip(kcs).fold(left, |s, (c, &kc)| {
        c.moves().fold(s, |s, m| s - CellSet::single(m)) & kc
    })
}

/// A White node's proof set: its analyses' carriers and keys and its replies' sets, on its
/// empty cells.
fn node_k(precludes: &[PrecludeOut], kcs: &[CellSet], empty: CellSet) -> CellSet {
    let pk = precludes.iter().fold(CellSet::EMPTY, |s, p| {
        s | ((p.1 | CellSet::single(p.0)) & empty)
    });
    kcs.iter().fold(pk, |s, &kc| s | (kc & empty))
}

/// Drops the precluding analyses of a White node that the others and the cases make
/// redundant: an analysis is left out when, without it, every White move still has a case or
/// is excluded by another analysis or by a case's `| *` (largest carriers tried first, one at
/// a time). The cases' `| *` marks are recomputed. Returns the node's proof set, as the
/// checker computes it from what is written: the kept analyses' carriers and keys and the
/// replies' proof sets (smaller than or equal to the one with every analysis).
///
/// Only what is written changes, never what is claimed: the checker recomputes the
/// survivors and requires a case for each (`coverage`), so a wrong drop is rejected there.
fn drop_redundant_precludes(
    precludes: &mut Vec<PrecludeOut>,
    cases: &mut [CaseOut],
    kcs: &[CellSet],
    empty: CellSet,
) -> CellSet {
    let moves: CellSet = cases.iter().flat_map(CaseOut::moves).collect();
    let mut order: Vec<usize> = (0..precludes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(precludes[i].1.len()));
    let mut gone = vec![false; precludes.len()];
    for i in order {
        gone[i] = true;
        let kept: Vec<PrecludeOut> = precludes
            .iter()
            .zip(&gone)
            .filter(|(_, &g)| !g)
            .map(|(p, _)| (p.0, p.1, None, Vec::new()))
            .collect();
        if !(survivors(&kept, cases, kcs, empty) - moves).is_empty() {
            gone[i] = false;
        }
    }
    let mut it = gone.iter();
    precludes.retain(|_| !*it.next().expect("one mark per analysis"));
    let left = survivors(precludes, cases, kcs, empty);
    debug_assert!((left - moves).is_empty());
    node_k(precludes, kcs, empty)
}

/// One loser-to-move position: its stones (winner, loser), node, proof set, references.
struct Entry {
    stones: (CellSet, CellSet),
    node: Node,
    k: CellSet,
    refs: usize,
}

struct Emitter<'b, 'a> {
    d: &'b mut Dfpn<'a>,
    /// The board as written (transposed when White wins).
    board: Board,
    winner: Colour,
    swapped: bool,
    nodes: Vec<Entry>,
    /// Loser-to-move positions already emitted: (winner's stones, loser's stones) → node.
    memo: HashMap<(CellSet, CellSet), usize>,
    /// The 180° rotation of the solved board (a position whose image was emitted refers to it).
    rot: Symmetry,
    count: usize,
    leaf_max: usize,
    /// Write connections as derivations when the explainer finds them?
    derive: bool,
    /// Derivations written, and leaves or precluding carriers left to the search.
    derived: usize,
    searched: usize,
    /// Derivations written with fill-in (included in `derived`).
    filled_leaves: usize,
    /// Leaves written as fill-in and a search in the filled position (included in
    /// `searched`): [`Emitter::filled_searched_leaf`].
    fill_searched: usize,
    /// [`EmitOptions::fill_search`].
    fill_search: bool,
    /// [`EmitOptions::fill_nodes`] (capped at the checker's first-phase budget).
    fill_nodes: u64,
    /// [`EmitOptions::fill_small`].
    fill_small: usize,
    /// [`EmitOptions::fill_retry`] (capped at [`CHECK_STEP_NODES`]).
    fill_retry: u64,
    /// [`EmitOptions::fill_retry_small`].
    fill_retry_small: usize,
    /// Retried searches that held after running out of their first budget.
    retried: usize,
    /// [`EmitOptions::fill_preclude`].
    fill_preclude: bool,
    /// Precluding analyses written as fill-in and a search (included in `searched`).
    fill_precluded: usize,
    /// The explainer's bounds.
    limits: ExplainLimits,
    /// Explanations already tried (found or not), within a node and across nodes.
    vc_memo: HashMap<ExplainKey, Option<Derivation>>,
    key_memo: HashMap<ExplainKey, Option<(Cell, Derivation)>>,
    memo_hits: u64,
    /// Node budget of the checker's search that a `by search` leaf must fit in (0: no test).
    leaf_nodes: u64,
    /// Diagnostics on stderr ([`EmitOptions::stats`]).
    stats: bool,
    /// [`EmitOptions::reply_tries`].
    reply_tries: usize,
    /// [`EmitOptions::reply_leaf_nodes`].
    reply_leaf_nodes: u64,
    /// A leaf is being tested after a tried move other than the solver's (`closing_reply`).
    in_try: bool,
    /// [`EmitOptions::compact`].
    compact: Option<CompactOptions>,
    /// [`EmitOptions::collapse`].
    collapse: usize,
    /// The checker's searches already run: (winner's stones, loser's stones, carrier, pairs
    /// as written, budget) → proved.
    search_memo: HashMap<SearchKey, SearchOutcome>,
    /// The outcome of the last [`Self::search_holds`] (for `--emit-stats`).
    last_search: SearchOutcome,
    /// `--emit-stats`: the leaf tries of the White node being proved (carrier, fill and
    /// search sizes and each search's outcome), printed when the node is split.
    leaf_diag: Vec<String>,
    /// Union leaves written, and union searches run.
    unions: usize,
    union_tries: usize,
    /// Winner's moves from the root to the position being proved.
    depth: usize,
    /// The proof-size objective's cut-off: `count` may not pass it ([`ProveError::Cutoff`]).
    cap: Option<usize>,
    /// The proof-size objective's choices: (winner's stones, loser's stones) of a
    /// winner-to-move position → the move whose subtree was the smallest. A position met
    /// again (the kept try re-emitted after the rollback, or the same position in another
    /// try) follows its choice at once instead of comparing its moves again, so each
    /// position's moves are compared once and re-emitting a kept subtree costs one pass.
    /// Only a choice among moves the emitter then proves: soundness does not depend on it.
    size_choice: HashMap<(CellSet, CellSet), Cell>,
    /// [`EmitOptions::follow`], keyed as `size_choice`: played first at its position.
    follow: HashMap<(CellSet, CellSet), Cell>,
    /// Emitting a grouped case's subtree ([`EmitOptions::group`]): it is checked in each of
    /// its White moves' positions, which differ, so no node in it may be shared (`goto`).
    no_share: bool,
    /// White moves answered by a grouped case instead of a case of their own.
    grouped: usize,
    /// Cases left out by [`EmitOptions::group`] as answered by the others.
    covered: usize,
    /// [`EmitOptions::group`], [`EmitOptions::group_cost`].
    group: bool,
    group_cost: usize,
    /// While a grouped case's subtree is emitted: its White moves but the first (the position
    /// with them taken away is one of the tree's, whose kept move is followed first).
    group_extra: CellSet,
    /// [`EmitOptions::drop_redundant`], and the analyses it dropped.
    drop_redundant: bool,
    dropped: usize,
    /// [`EmitOptions::mustplay_tries`], and the positions where it followed a move other
    /// than the solver's.
    mustplay_tries: usize,
    mustplay_moved: usize,
    /// [`EmitOptions::mustplay_percent`].
    mustplay_percent: usize,
    /// Where the export's time goes (`--emit-stats`): see [`Profile`].
    prof: Profile,
    /// When the export started (after the solve), for `--emit-stats`.
    started: Instant,
}

/// Where an export's time goes, printed by `--emit-stats` (a progress line every
/// [`PROGRESS_EVERY`] nodes and a summary at the end): calls and seconds of the checker's
/// exact searches run to test `by search` leaves and carriers (those that hold, those that do
/// not), of the explainer (derivations, found or not), of the solver's re-solves in the
/// emitter (the winner's move at each position) and of the VC engine's builds. Diagnostics
/// only: nothing written depends on it.
#[derive(Clone, Copy, Debug, Default)]
struct Profile {
    /// Checker's searches (`search_holds`, not memoised): that held, that did not.
    search_hold: (u64, f64),
    search_fail: (u64, f64),
    /// Of those that fail: the ones tested after a tried move other than the solver's.
    search_fail_try: (u64, f64),
    /// Of all of them: the second searches with [`EmitOptions::fill_retry`] nodes.
    retry_hold: (u64, f64),
    retry_fail: (u64, f64),
    /// Explainer runs (VC and key derivations), found or not.
    explain_found: (u64, f64),
    explain_none: (u64, f64),
    /// The solver's searches in the emitter (`black`'s re-solve, the keys' exact search).
    solver: (u64, f64),
    /// The VC engine's full builds (`vcs_of`).
    vcs: (u64, f64),
}

/// `--emit-stats`: one progress line each time this many more nodes are emitted.
const PROGRESS_EVERY: usize = 500;

impl Profile {
    fn add(slot: &mut (u64, f64), t: Instant) {
        slot.0 += 1;
        slot.1 += t.elapsed().as_secs_f64();
    }

    fn line(&self) -> String {
        let f = |(n, t): (u64, f64)| format!("{n} in {t:.1} s");
        format!(
            "checker searches that hold {}, that fail {} ({} after a tried move; retries hold {}, fail {}); explainer found {}, none {}; solver {}; VC builds {}",
            f(self.search_hold),
            f(self.search_fail),
            f(self.search_fail_try),
            f(self.retry_hold),
            f(self.retry_fail),
            f(self.explain_found),
            f(self.explain_none),
            f(self.solver),
            f(self.vcs)
        )
    }
}

/// What one of [`Emitter::search_holds`]'s searches found: the claim holds, is false, or the
/// node budget ran out first (`--emit-stats` tells the last two apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SearchOutcome {
    Holds,
    Refuted,
    Budget,
}

impl SearchOutcome {
    fn word(self) -> &'static str {
        match self {
            SearchOutcome::Holds => "holds",
            SearchOutcome::Refuted => "false",
            SearchOutcome::Budget => "budget",
        }
    }
}

/// A search of [`Emitter::search_holds`]: stones, carrier, pairs, node budget.
type SearchKey = (CellSet, CellSet, CellSet, Vec<(Cell, Cell)>, u64);

/// What the proof-size objective rolls back: the node list's length, every node's
/// reference count, the node count and the counters.
struct Snapshot {
    len: usize,
    refs: Vec<usize>,
    count: usize,
    counters: [usize; 6],
}

impl Emitter<'_, '_> {
    /// A cell as written (transposed when White wins).
    fn map(&self, c: Cell) -> Cell {
        if self.swapped {
            let (x, y) = c.coords();
            Cell::at(y, x)
        } else {
            c
        }
    }

    /// One leaf try of the White node being proved, kept for its `--emit-stats` line.
    fn diag(&mut self, line: impl FnOnce() -> String) {
        if self.stats {
            self.leaf_diag.push(line());
        }
    }

    /// One line of `--emit-stats` diagnostics on stderr, made only when they are on.
    fn trace(&self, line: impl FnOnce() -> String) {
        if self.stats {
            eprintln!("{}", line());
        }
    }

    fn name(&self, c: Cell) -> String {
        self.board.cell_name(self.map(c), Notation::Letters)
    }

    fn list(&self, s: CellSet) -> String {
        let mut v: Vec<Cell> = s.iter().map(|c| self.map(c)).collect();
        v.sort();
        let v: Vec<String> = v
            .into_iter()
            .map(|c| self.board.cell_name(c, Notation::Letters))
            .collect();
        format!("[{}]", v.join(", "))
    }

    fn tick(&mut self) -> Result<(), ProveError> {
        self.count += 1;
        if self.stats && self.count.is_multiple_of(PROGRESS_EVERY) {
            eprintln!(
                "emit progress: {} nodes ({} loser-to-move, {} derived, {} by search, {} of them after fill-in) at {:.1} s: {}",
                self.count,
                self.nodes.len(),
                self.derived,
                self.searched,
                self.fill_searched,
                self.started.elapsed().as_secs_f64(),
                self.prof.line()
            );
        }
        if self.count > MAX_TREE_NODES {
            return Err(ProveError::TooLarge);
        }
        if self.cap.is_some_and(|c| self.count > c) {
            return Err(ProveError::Cutoff);
        }
        Ok(())
    }

    /// Proves: the winner to move in `q` wins. Returns its move, the node after it and the
    /// proof set (the move and its node's set), as the checker computes it.
    fn black(&mut self, q: &Position) -> Result<(Cell, usize, bool, CellSet), ProveError> {
        self.tick()?;
        let w = self.winner;
        let f = self.d.filled(q, w);
        let t = Instant::now();
        let (pn, _) = self.d.mid(&f, w, INF, INF);
        Profile::add(&mut self.prof.solver, t);
        if pn != 0 {
            return Err(ProveError::SubPosition(self.d.nodes));
        }
        let e = self.d.entry(&f, w);
        let mv = match e.best {
            Some(m) => Some(m),
            None if f.winner() == Some(w) => q.empty_cells().first(),
            None => confirmed_move(self.d, &f, w, e.moves),
        };
        let mv = mv.ok_or(ProveError::NoWinningMove)?;
        // A move given to follow (`EmitOptions::follow`) is played whether it closes the
        // branch or not, so a tree is rebuilt from its choices whatever the solver's table
        // holds; the checker decides it as any other.
        let followed = self
            .follow
            .get(&(q.stones(w), q.stones(w.opponent())))
            .copied()
            .filter(|&m| q.empty_cells().contains(m));
        // Proof size first: a reply after which the position is a leaf at once (or one
        // already written) ends the branch here, where the solver's move may need a subtree.
        if let Some(found) =
            self.closing_reply(q, &f, followed.unwrap_or(mv), followed.is_some())?
        {
            return Ok(found);
        }
        self.depth += 1;
        let r = match followed {
            Some(m) => {
                let mut q2 = q.clone();
                q2.play(w, m)?;
                self.white(&q2)
                    .map(|(id, rotated, k)| (m, id, rotated, k | CellSet::single(m)))
            }
            None => self.black_subtree(q, &f, mv),
        };
        self.depth -= 1;
        r
    }

    /// The winner's move in `q` (`f` filled, `mv` the solver's move) followed into a subtree;
    /// in a compact export near the root, the smallest of several winning moves' subtrees
    /// (the proof-size objective).
    fn black_subtree(
        &mut self,
        q: &Position,
        f: &Position,
        mv: Cell,
    ) -> Result<(Cell, usize, bool, CellSet), ProveError> {
        let w = self.winner;
        // In a grouped case's subtree: the move kept at the same position without the
        // group's other White moves, when the solver proves it wins here too.
        if !self.group_extra.is_empty() {
            let key = (q.stones(w), q.stones(w.opponent()) - self.group_extra);
            if let Some(&m) = self.size_choice.get(&key).or(self.follow.get(&key)) {
                if m != mv && q.empty_cells().contains(m) && self.wins_within(q, m, 20_000) {
                    let mut q2 = q.clone();
                    q2.play(w, m)?;
                    let (id, rotated, k) = self.white(&q2)?;
                    return Ok((m, id, rotated, k | CellSet::single(m)));
                }
            }
        }
        if let Some(c) = self
            .compact
            .filter(|c| self.depth <= c.size_depth && c.size_tries > 1)
        {
            if let Some(done) = self.smallest_reply(q, f, mv, c)? {
                return Ok(done);
            }
        }
        let mv = if self.mustplay_tries > 1 && !self.no_share {
            self.least_mustplay(q, f, mv)?
        } else {
            mv
        };
        let mut q2 = q.clone();
        q2.play(w, mv)?;
        let (id, rotated, k) = self.white(&q2)?;
        Ok((mv, id, rotated, k | CellSet::single(mv)))
    }

    /// The loser's mustplay after the winner plays `m` in `q`: the empty cells of the
    /// loser-to-move position that every winning VSC of the winner (in the filled position,
    /// with the fill-in's cells) needs, i.e. the White moves a node there must answer; the
    /// empty set when the fill-in alone wins. `None` when `m` cannot be played.
    fn mustplay_after(&mut self, q: &Position, m: Cell) -> Option<CellSet> {
        let (w, l) = (self.winner, self.winner.opponent());
        let mut q2 = q.clone();
        q2.play(w, m).ok()?;
        let f2 = self.d.filled(&q2, l);
        if f2.winner() == Some(w) {
            return Some(CellSet::EMPTY);
        }
        let given = f2.stones(w) - q2.stones(w);
        let (semis, _) = self.vcs_of(&f2, given);
        let mut left = q2.empty_cells();
        for s in semis {
            left &= s | given;
        }
        Some(left)
    }

    /// The cheap proof-size objective ([`EmitOptions::mustplay_tries`]): among the solver's
    /// move `mv` and the next moves in its order, the one leaving the loser the smallest
    /// mustplay (the solver's move on a tie, and unless the other's is at most
    /// [`EmitOptions::mustplay_percent`] of the solver's) that the solver proves winning. The choice is
    /// remembered for the position (`size_choice`), so a position met again follows it.
    fn least_mustplay(&mut self, q: &Position, f: &Position, mv: Cell) -> Result<Cell, ProveError> {
        let w = self.winner;
        let key = (q.stones(w), q.stones(w.opponent()));
        if let Some(&m) = self.size_choice.get(&key) {
            if q.empty_cells().contains(m) {
                return Ok(m);
            }
        }
        let mut order = Vec::new();
        self.d.order.scores(f, w, f.empty_cells(), &mut order);
        order.sort_unstable();
        let mut cands = vec![mv];
        cands.extend(
            order
                .into_iter()
                .map(|(_, c)| c)
                .filter(|&c| c != mv && q.empty_cells().contains(c))
                .take(self.mustplay_tries - 1),
        );
        let mut scored: Vec<(usize, usize, Cell)> = Vec::new();
        for (i, &m) in cands.iter().enumerate() {
            if let Some(left) = self.mustplay_after(q, m) {
                scored.push((left.len(), i, m));
            }
        }
        scored.sort_unstable();
        let mv_score = scored.iter().find(|&&(_, _, m)| m == mv).map(|s| s.0);
        let mut chosen = mv;
        for &(score, _, m) in &scored {
            let clear = |s: usize| score < s && score * 100 <= s * self.mustplay_percent;
            if m == mv || !mv_score.is_some_and(clear) {
                break;
            }
            let t = Instant::now();
            let wins = self.wins_within(q, m, MUSTPLAY_NODES);
            Profile::add(&mut self.prof.solver, t);
            if wins {
                chosen = m;
                break;
            }
        }
        if chosen != mv {
            self.mustplay_moved += 1;
            self.trace(|| {
                format!(
                    "least mustplay: {} instead of the solver's {} ({:?} against {:?} cells)",
                    self.name(chosen),
                    self.name(mv),
                    scored.iter().find(|s| s.2 == chosen).map(|s| s.0),
                    mv_score
                )
            });
        }
        self.size_choice.insert(key, chosen);
        Ok(chosen)
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            len: self.nodes.len(),
            refs: self.nodes.iter().map(|n| n.refs).collect(),
            count: self.count,
            counters: [
                self.derived,
                self.searched,
                self.filled_leaves,
                self.fill_searched,
                self.unions,
                self.dropped,
            ],
        }
    }

    fn rollback(&mut self, s: &Snapshot) {
        self.nodes.truncate(s.len);
        for (n, &r) in self.nodes.iter_mut().zip(&s.refs) {
            n.refs = r;
        }
        self.memo.retain(|_, id| *id < s.len);
        self.count = s.count;
        [
            self.derived,
            self.searched,
            self.filled_leaves,
            self.fill_searched,
            self.unions,
            self.dropped,
        ] = s.counters;
    }

    /// True when the solver proves, within [`CompactOptions::size_nodes`] nodes, that the
    /// winner's move `m` in `q` wins.
    fn wins_within(&mut self, q: &Position, m: Cell, nodes: u64) -> bool {
        let l = self.winner.opponent();
        let mut q2 = q.clone();
        if q2.play(self.winner, m).is_err() {
            return false;
        }
        let f2 = self.d.filled(&q2, l);
        let (max, aborted) = (self.d.max_nodes, self.d.aborted);
        self.d.max_nodes = self.d.nodes.saturating_add(nodes).min(max);
        self.d.aborted = false;
        let (_, dn) = self.d.mid(&f2, l, INF, INF);
        self.d.max_nodes = max;
        self.d.aborted = aborted;
        dn == 0
    }

    /// The proof-size objective: the solver's move `mv` and the next winning moves (each
    /// proved by the solver within a small budget) are emitted tentatively; the smallest
    /// subtree is kept (a try that outgrows the best so far is cut off). Returns the kept
    /// move with its node, or `None` when only `mv` is left to follow.
    fn smallest_reply(
        &mut self,
        q: &Position,
        f: &Position,
        mv: Cell,
        c: CompactOptions,
    ) -> Result<Option<(Cell, usize, bool, CellSet)>, ProveError> {
        let w = self.winner;
        let key = (q.stones(w), q.stones(w.opponent()));
        if let Some(&m) = self.size_choice.get(&key) {
            let mut q2 = q.clone();
            q2.play(w, m)?;
            let (id, rotated, k) = self.white(&q2)?;
            return Ok(Some((m, id, rotated, k | CellSet::single(m))));
        }
        let mut order = Vec::new();
        self.d.order.scores(f, w, f.empty_cells(), &mut order);
        order.sort_unstable();
        let mut cands = vec![mv];
        for (_, m) in order {
            if cands.len() >= c.size_tries {
                break;
            }
            if m != mv && q.empty_cells().contains(m) && self.wins_within(q, m, c.size_nodes) {
                cands.push(m);
            }
        }
        if cands.len() == 1 {
            self.size_choice.insert(key, mv);
            return Ok(None);
        }
        let outer = self.cap;
        let mut best: Option<(usize, Cell)> = None;
        let last = cands.len() - 1;
        for (i, &m) in cands.iter().enumerate() {
            let snap = self.snapshot();
            let inner = match best {
                Some((size, _)) => {
                    Some(outer.map_or(snap.count + size, |o| o.min(snap.count + size)))
                }
                None => outer,
            };
            let binding_outer = inner == outer;
            self.cap = inner;
            let mut q2 = q.clone();
            q2.play(w, m)?;
            let r = self.white(&q2);
            self.cap = outer;
            match r {
                Ok((id, rotated, k)) => {
                    let size = self.count - snap.count;
                    let better = best.is_none_or(|(s, _)| size < s);
                    if better {
                        best = Some((size, m));
                    }
                    if better && i == last {
                        self.size_choice.insert(key, m);
                        return Ok(Some((m, id, rotated, k | CellSet::single(m))));
                    }
                    self.rollback(&snap);
                }
                Err(ProveError::Cutoff) => {
                    self.rollback(&snap);
                    if binding_outer {
                        return Err(ProveError::Cutoff);
                    }
                }
                Err(e) => {
                    self.rollback(&snap);
                    if m == mv {
                        return Err(e);
                    }
                }
            }
        }
        let Some((_, m)) = best else {
            return Ok(None);
        };
        self.size_choice.insert(key, m);
        let mut q2 = q.clone();
        q2.play(w, m)?;
        let (id, rotated, k) = self.white(&q2)?;
        Ok(Some((m, id, rotated, k | CellSet::single(m))))
    }

    /// Among the winner's first [`EmitOptions::reply_tries`] moves of `q` in the solver's
    /// order (`f`: `q` filled for the winner; the solver's move `best` first), one after which
    /// the loser-to-move position is already written or is a leaf by itself; with its node.
    /// A leaf is a proof of its own (the checker re-proves it), so any such move wins.
    fn closing_reply(
        &mut self,
        q: &Position,
        f: &Position,
        best: Cell,
        only: bool,
    ) -> Result<Option<(Cell, usize, bool, CellSet)>, ProveError> {
        if self.reply_tries == 0 {
            return Ok(None);
        }
        let (w, l) = (self.winner, self.winner.opponent());
        let mut moves = vec![best];
        if !only {
            let mut order = Vec::new();
            self.d.order.scores(f, w, f.empty_cells(), &mut order);
            order.sort_unstable();
            moves.extend(
                order
                    .into_iter()
                    .map(|(_, c)| c)
                    .filter(|&c| c != best)
                    .take(self.reply_tries - 1),
            );
        }
        for &m in &moves {
            let mut q2 = q.clone();
            q2.play(w, m)?;
            let key = (q2.stones(w), q2.stones(l));
            if !self.no_share
                && (self.memo.contains_key(&key)
                    || self
                        .memo
                        .contains_key(&(self.rot.set(key.0), self.rot.set(key.1))))
            {
                let (id, rotated, k) = self.white(&q2)?;
                return Ok(Some((m, id, rotated, k | CellSet::single(m))));
            }
            self.in_try = m != best;
            let leaf = self.leaf_only(&q2);
            self.in_try = false;
            if let Some((node, k)) = leaf {
                self.tick()?;
                let id = self.record(key, node, k);
                return Ok(Some((m, id, false, k | CellSet::single(m))));
            }
        }
        // Compact: no move closes the branch with a plain leaf; one may with a union leaf.
        let tries = self.compact.map_or(0, |c| c.union_replies);
        for &m in moves.iter().take(tries) {
            let mut q2 = q.clone();
            q2.play(w, m)?;
            let key = (q2.stones(w), q2.stones(l));
            if let Some((node, k)) = self.union_leaf(&q2) {
                self.tick()?;
                let id = self.record(key, node, k);
                return Ok(Some((m, id, false, k | CellSet::single(m))));
            }
        }
        Ok(None)
    }

    /// A union-connection leaf closing `q` (the loser to move; docs/prove.md): a group g of
    /// the winner with a VC to one border (the VC engine's smallest carrier V, proved by the
    /// checker's search), and on every other empty cell A the union "the other border – g,
    /// or t – b" proved by the checker's search within the compact budgets. Rule (2) joins
    /// them: `t - b` on A ∪ V.
    fn union_leaf(&mut self, q: &Position) -> Option<(Node, CellSet)> {
        let c = self.compact?;
        let w = self.winner;
        let empty = q.empty_cells();
        let stones = q.stones(w);
        let borders = w.borders().map(Cell::border);
        let mut cands: Vec<(Cell, usize, CellSet)> = Vec::new();
        {
            let (bv, wv) = self.d.eval.build_full(q);
            let vcs = if w == Colour::Black { bv } else { wv };
            let ends: Vec<(Cell, CellSet)> = vcs.endpoints().collect();
            for (rep, cells) in ends {
                let Some(g) = (cells & stones).first() else {
                    continue;
                };
                if rep.as_border().is_some() {
                    continue;
                }
                let touch = |i: usize| vcs.endpoint(borders[i]) == Some(rep);
                if touch(0) || touch(1) {
                    continue;
                }
                for x in 0..2 {
                    let mut vs = vcs.vcs(rep, borders[x]);
                    vs.sort_by_key(|v| v.len());
                    cands.extend(vs.into_iter().take(2).map(|v| (g, x, v & empty)));
                }
            }
        }
        cands.sort_by_key(|&(_, _, v)| v.len());
        for (g, x, v) in cands.into_iter().take(c.union_groups) {
            let a = empty - v;
            let union = [(borders[1 - x], g), (borders[0], borders[1])];
            let promising = self.union_promising(q, v, c.filter_nodes);
            let budget = match promising {
                Some(true) if self.depth <= 1 => c.union_nodes,
                Some(true) => c.union_deep,
                Some(false) => 0,
                None => c.union_small,
            };
            if budget == 0 {
                self.trace(|| {
                    format!(
                        "union ruled out by the solver: group {}, V {} cells",
                        self.name(g),
                        v.len()
                    )
                });
                continue;
            }
            if !self.search_holds(q, v, &[(g, borders[x])], self.leaf_nodes.max(LEAF_NODES)) {
                self.trace(|| {
                    format!(
                        "union: VC of group {} on {} cells not proved",
                        self.name(g),
                        v.len()
                    )
                });
                continue;
            }
            self.union_tries += 1;
            let t0 = Instant::now();
            let ok = self.search_holds(q, a, &union, budget);
            self.trace(|| {
                format!(
                    "union {}: group {}, V {} cells, A {} cells, pre-filter {promising:?}, budget {budget}: {ok} ({:.2} s)",
                    if ok { "leaf" } else { "tried" },
                    self.name(g),
                    v.len(),
                    a.len(),
                    t0.elapsed().as_secs_f64()
                )
            });
            if ok {
                self.unions += 1;
                return Some((Node::Union { g, x, v, a }, a | v));
            }
        }
        None
    }

    /// The pre-filter of a union search: the solver on `q` with the VC carrier `v` filled
    /// with the winner's stones (the group then touches its border), the loser to move,
    /// within [`CompactOptions::filter_nodes`] nodes. The union implies that win (a pair of
    /// the union joined on A joins the borders through g and the filled V), so `Some(false)`
    /// (the loser wins there) rules the union out; `Some(true)` makes it likely (it differs
    /// only by paths through V that miss g); `None`: undecided.
    fn union_promising(&mut self, q: &Position, v: CellSet, nodes: u64) -> Option<bool> {
        let (w, l) = (self.winner, self.winner.opponent());
        let mut qv = q.clone();
        for c in v.iter() {
            qv.play(w, c).ok()?;
        }
        if qv.winner() == Some(w) {
            return Some(true);
        }
        let f = self.d.filled(&qv, l);
        let (max, aborted) = (self.d.max_nodes, self.d.aborted);
        self.d.max_nodes = self.d.nodes.saturating_add(nodes).min(max);
        self.d.aborted = false;
        let (pn, dn) = self.d.mid(&f, l, INF, INF);
        self.d.max_nodes = max;
        self.d.aborted = aborted;
        match (pn, dn) {
            (_, 0) => Some(true),
            (0, _) => Some(false),
            _ => None,
        }
    }

    /// `q` (the loser to move) as a leaf, if the winner's fill-in or a winning VC closes it.
    fn leaf_only(&mut self, q: &Position) -> Option<(Node, CellSet)> {
        let (w, l) = (self.winner, self.winner.opponent());
        let f = self.d.filled(q, l);
        let given = f.stones(w) - q.stones(w);
        if f.winner() == Some(w) {
            return self.won_leaf(q, given);
        }
        let (_, wins) = self.vcs_of(&f, given);
        self.leaf_from(q, &f, &wins, given)
    }

    /// A leaf on the cells `given` by the solver's fill-in when they alone win `q`: after the
    /// fill-in the checker justifies, else (none justified) plain, when the search is cheap.
    fn won_leaf(&mut self, q: &Position, given: CellSet) -> Option<(Node, CellSet)> {
        match self.filled_searched_leaf(q, &[given], given) {
            Ok(leaf) => Some(leaf),
            Err(failed) if failed.is_empty() && self.search_cheap(q, given) => {
                Some((Node::Leaf(given, None, Vec::new()), given))
            }
            Err(_) => None,
        }
    }

    /// Proves: the loser to move in `q` loses; returns its node and proof set (docs/SEMANTICS.md,
    /// "Proof-set pruning in a tree"): a leaf's carrier; at a White node the precluding
    /// carriers with their moves and every reply's set. A position met before is not proved
    /// again: its node gets one more reference.
    fn white(&mut self, q: &Position) -> Result<(usize, bool, CellSet), ProveError> {
        let (w, l) = (self.winner, self.winner.opponent());
        let key = (q.stones(w), q.stones(l));
        if self.no_share {
            self.tick()?;
            let (node, k) = self.prove_white(q)?;
            return Ok((self.record(key, node, k), false, k));
        }
        if let Some(&id) = self.memo.get(&key) {
            self.nodes[id].refs += 1;
            return Ok((id, false, self.nodes[id].k));
        }
        // Its 180° image met before: `goto Pn under rot180`, with the image of Pn's proof set.
        let image = (self.rot.set(key.0), self.rot.set(key.1));
        if let Some(&id) = self.memo.get(&image) {
            self.nodes[id].refs += 1;
            return Ok((id, true, self.rot.set(self.nodes[id].k)));
        }
        self.tick()?;
        let (node, k) = self.prove_white(q)?;
        Ok((self.record(key, node, k), false, k))
    }

    /// Adds the node of the loser-to-move position `key` (winner's, loser's stones).
    fn record(&mut self, key: (CellSet, CellSet), node: Node, k: CellSet) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Entry {
            stones: key,
            node,
            k,
            refs: 1,
        });
        if !self.no_share {
            self.memo.insert(key, id);
        }
        id
    }

    fn prove_white(&mut self, q: &Position) -> Result<(Node, CellSet), ProveError> {
        let (w, l) = (self.winner, self.winner.opponent());
        let f = self.d.filled(q, l);
        let given = f.stones(w) - q.stones(w);
        self.leaf_diag.clear();
        // The fill-in alone wins: a leaf on the filled cells, when the checker's search
        // proves it cheaply (7×7 c4 had two such leaves of 28 cells that 20 M nodes did not
        // decide); else White's moves are answered one by one below.
        let won = f.winner() == Some(w);
        if won {
            if let Some(leaf) = self.won_leaf(q, given) {
                return Ok(leaf);
            }
        }
        let (semis, wins) = if won {
            (Vec::new(), Vec::new())
        } else {
            self.vcs_of(&f, given)
        };
        if let Some(leaf) = self.leaf_from(q, &f, &wins, given) {
            return Ok(leaf);
        }
        if let Some(leaf) = self.union_leaf(q) {
            return Ok(leaf);
        }
        if self.stats {
            // Why no leaf closed `q` (issue 26, session 34): the winning carriers' sizes and
            // each leaf try (`fill C/G: F filled, S searched: outcome`, `plain C: outcome`).
            let sizes: Vec<String> = wins.iter().take(8).map(|c| c.len().to_string()).collect();
            eprintln!(
                "split leaf: empty {}, fill-in {}{}, {} winning carriers [{}], semis {}; tries: {}",
                q.empty_cells().len(),
                given.len(),
                if won { " (wins alone)" } else { "" },
                wins.len(),
                sizes.join(" "),
                semis.len(),
                self.leaf_diag.join("; ")
            );
        }
        self.split(q, &f, semis, given)
    }

    /// The winner's winning VSCs and VCs (with the fill-in cells `given`, smallest first) in
    /// the filled position `f` of `q`.
    fn vcs_of(&mut self, f: &Position, given: CellSet) -> (Vec<CellSet>, Vec<CellSet>) {
        let w = self.winner;
        let t = Instant::now();
        let (black_vcs, white_vcs) = self.d.eval.build_full(f);
        Profile::add(&mut self.prof.vcs, t);
        let vcs = if w == Colour::Black {
            black_vcs
        } else {
            white_vcs
        };
        // The winner's winning VSCs in the filled position.
        let semis = vcs.winning_vscs();
        // A winning VC: written as its derivation when the explainer finds one inside the
        // carrier (any size), else as a search leaf when it is small enough.
        let mut wins: Vec<CellSet> = vcs.winning_vcs().into_iter().map(|c| c | given).collect();
        wins.sort_by_key(|c| c.len());
        (semis, wins)
    }

    /// The first of the winning carriers (at most [`EXPLAIN_TRIES`], each of at most
    /// `leaf_max` cells) that the cheap search confirms, counted as a searched leaf.
    /// Carriers in `skip` (their search after fill-in failed: the filled game is this one with
    /// dead and captured cells decided, no harder to search) are not searched again.
    fn small_searched_leaf(
        &mut self,
        q: &Position,
        wins: &[CellSet],
        skip: &[CellSet],
    ) -> Option<CellSet> {
        let small: Vec<CellSet> = wins
            .iter()
            .copied()
            .filter(|c| c.len() <= self.leaf_max)
            .take(EXPLAIN_TRIES)
            .filter(|c| !skip.contains(c))
            .collect();
        let c = small.into_iter().find(|&c| {
            let holds = self.search_cheap(q, c) || self.retry(q, c);
            let outcome = self.last_search;
            self.diag(|| format!("plain {}: {}", c.len(), outcome.word()));
            holds
        })?;
        self.searched += 1;
        Some(c)
    }

    /// A leaf closing `q` by a winning carrier `c` of `wins` (at most [`EXPLAIN_TRIES`] tried,
    /// each with the fill-in cells `given`): the fill-in of `given` that the checker's test
    /// justifies ([`Self::fill_plan`] in `q` restricted to `c`), then `t - b on [c \ F] by
    /// search` in the filled position, when the checker's search proves it within the leaf
    /// budget and `c \ F` has at most `leaf_max` cells. Written `fill …` lines and one search
    /// line; the checker verifies the search in the filled position and every fill in the
    /// restricted position, as for a derivation after fill-in (docs/SEMANTICS.md, "Fill-in in
    /// a leaf"), and composes the kernel certificate of the whole (kernel condition 7b). The
    /// leaf's carrier (proof set) is `c`. The solver's fill-in cells that the test does not
    /// justify stay empty cells of the search.
    ///
    /// Without one: the carriers whose search after fill-in was run and failed.
    fn filled_searched_leaf(
        &mut self,
        q: &Position,
        wins: &[CellSet],
        given: CellSet,
    ) -> Result<(Node, CellSet), Vec<CellSet>> {
        let mut failed = Vec::new();
        if !self.fill_search || given.is_empty() || self.leaf_nodes == 0 {
            return Err(failed);
        }
        let w = self.winner;
        for &c in wins.iter().take(EXPLAIN_TRIES) {
            let (fills, filled) = self.fill_plan(q, w, c, given);
            if fills.is_empty() {
                self.diag(|| format!("fill {}/{}: none justified", c.len(), given.len()));
                continue;
            }
            let cells = fills.iter().fold(CellSet::EMPTY, |a, f| a | f.cells);
            let rest = (c - cells) & q.empty_cells();
            // (All of `c` filled: no search line to write; the plain search has it.)
            if rest.is_empty()
                || rest.len() > self.leaf_max
                || check_fills(q, &fills, c, w).is_err()
            {
                self.diag(|| {
                    format!(
                        "fill {}/{}: {} filled, {} left: not searched",
                        c.len(),
                        given.len(),
                        cells.len(),
                        rest.len()
                    )
                });
                continue;
            }
            let holds = self.filled_search(&filled, rest);
            let outcome = self.last_search;
            self.diag(|| {
                format!(
                    "fill {}/{}: {} filled, {} searched: {}",
                    c.len(),
                    given.len(),
                    cells.len(),
                    rest.len(),
                    outcome.word()
                )
            });
            if holds {
                self.searched += 1;
                self.fill_searched += 1;
                self.trace(|| {
                    format!(
                        "fill-in search leaf: {} cells, {} filled ({} given by the solver's fill-in), {} searched",
                        c.len(),
                        cells.len(),
                        given.len(),
                        rest.len()
                    )
                });
                return Ok((Node::Leaf(c, None, fills), c));
            }
            failed.push(c);
        }
        Err(failed)
    }

    /// The search of `rest` in the filled position `filled` (a leaf or a precluding analysis
    /// by fill-in and search): [`EmitOptions::fill_nodes`] nodes when `rest` has at most
    /// [`EmitOptions::fill_small`] cells (not in a speculative reply try), else the leaf
    /// budget of [`Self::search_cheap`].
    fn filled_search(&mut self, filled: &Position, rest: CellSet) -> bool {
        let larger = self.fill_nodes > self.leaf_nodes
            && !self.in_try
            && (self.fill_small == 0 || rest.len() <= self.fill_small);
        let holds = if larger {
            let pair = self.winner.borders().map(Cell::border);
            self.search_holds(filled, rest, &[(pair[0], pair[1])], self.fill_nodes)
        } else {
            self.search_cheap(filled, rest)
        };
        holds || self.retry(filled, rest)
    }

    /// After a search of `carrier` in `q` ran out of its budget ([`SearchOutcome::Budget`],
    /// the last search): the same search with [`EmitOptions::fill_retry`] nodes, outside the
    /// speculative reply tries, when `carrier` has at most [`EmitOptions::fill_retry_small`]
    /// cells. The checker gives each step more ([`CHECK_STEP_NODES`]), so a leaf that holds
    /// here is decided there by the same search.
    fn retry(&mut self, q: &Position, carrier: CellSet) -> bool {
        if self.fill_retry == 0
            || self.in_try
            || self.last_search != SearchOutcome::Budget
            || (self.fill_retry_small != 0 && carrier.len() > self.fill_retry_small)
        {
            return false;
        }
        let pair = self.winner.borders().map(Cell::border);
        let t = Instant::now();
        let holds = self.search_holds(q, carrier, &[(pair[0], pair[1])], self.fill_retry);
        if self.stats {
            let p = &mut self.prof;
            Profile::add(
                if holds {
                    &mut p.retry_hold
                } else {
                    &mut p.retry_fail
                },
                t,
            );
            let outcome = self.last_search;
            self.diag(|| format!("retry {}: {}", carrier.len(), outcome.word()));
            let secs = t.elapsed().as_secs_f64();
            self.trace(|| {
                format!(
                    "retry: {} cells, {}, {secs:.2} s",
                    carrier.len(),
                    outcome.word()
                )
            });
        }
        if holds {
            self.retried += 1;
        }
        holds
    }

    /// A precluding analysis by fill-in and search ([`EmitOptions::fill_preclude`]): in `qz`
    /// (the fictitious stone on the key already played), the fill-in of `given` that the
    /// checker's test justifies in `qz` restricted to the carrier `c` ([`Self::fill_plan`]),
    /// then the search of `c \ F` in the filled position, as [`Self::filled_searched_leaf`]
    /// does for a leaf (the same budgets; at most `leaf_max` searched cells). The checker
    /// verifies a `preclude by Z { fill …  t - b on [..] by search }` as a leaf in the position
    /// with the stone on Z (docs/SEMANTICS.md, "Fill-in in a leaf"). The fills, or `None`.
    fn filled_searched_preclude(
        &mut self,
        qz: &Position,
        c: CellSet,
        given: CellSet,
    ) -> Option<Vec<FillSpec>> {
        let w = self.winner;
        let (fills, filled) = self.fill_plan(qz, w, c, given);
        if fills.is_empty() {
            return None;
        }
        let cells = fills.iter().fold(CellSet::EMPTY, |a, f| a | f.cells);
        let rest = (c - cells) & qz.empty_cells();
        if rest.is_empty() || rest.len() > self.leaf_max || check_fills(qz, &fills, c, w).is_err() {
            return None;
        }
        let holds = self.filled_search(&filled, rest);
        let outcome = self.last_search;
        self.trace(|| {
            format!(
                "fill-in preclude: {} cells, {} filled, {} searched: {}",
                c.len(),
                cells.len(),
                rest.len(),
                outcome.word()
            )
        });
        holds.then_some(fills)
    }

    /// A leaf closing `q` by one of the winning VCs `wins`: derived, derived after fill-in,
    /// `by search` after fill-in, or `by search` when small and cheap for the checker.
    fn leaf_from(
        &mut self,
        q: &Position,
        f: &Position,
        wins: &[CellSet],
        given: CellSet,
    ) -> Option<(Node, CellSet)> {
        let w = self.winner;
        // Compact: a small leaf is one `by search` line, before any derivation.
        if self.compact.is_some() {
            if let Some(c) = self.small_searched_leaf(q, wins, &[]) {
                return Some((Node::Leaf(c, None, Vec::new()), c));
            }
        }
        for &c in wins.iter().take(EXPLAIN_TRIES) {
            if let Some(d) = self.explained(q, w, c) {
                self.derived += 1;
                let k = d.carrier();
                return Some((Node::Leaf(k, Some(d), Vec::new()), k));
            }
        }
        // The fill-in the checker can justify (dead cells, captured pairs), then the
        // derivation in the filled position.
        for &c in wins.iter().take(EXPLAIN_TRIES) {
            if let Some((k, d, fills)) = self.explained_filled(q, w, c, given) {
                self.derived += 1;
                self.filled_leaves += 1;
                return Some((Node::Leaf(k, Some(d), fills), k));
            }
        }
        // The fill-in the checker can justify, then the search in the filled position: the
        // filled cells leave the search (often the difference between a search within the
        // budget and a split of the leaf).
        let failed = match self.filled_searched_leaf(q, wins, given) {
            Ok(leaf) => return Some(leaf),
            Err(failed) => failed,
        };
        if let Some(c) = self.small_searched_leaf(q, wins, &failed) {
            if self.stats {
                // Diagnosis: would the explainer derive it with the fill-in as stones?
                let inf = explain_win(f, w, c, self.limits).is_some();
                let (plan, _) = self.fill_plan(q, w, c, given);
                let justified = plan.iter().fold(0, |a, f| a + f.cells.len());
                eprintln!(
                    "search leaf: {} cells, {} given by the fill-in ({justified} justified by the checker's test), derivable in the filled position: {inf}",
                    c.len(),
                    given.len()
                );
            }
            return Some((Node::Leaf(c, None, Vec::new()), c));
        }
        None
    }

    /// A White node for `q` (`f` its filled position): each winning VSC of `semis` whose key
    /// is found as a precluding analysis, then a case for every move left.
    fn split(
        &mut self,
        q: &Position,
        f: &Position,
        mut semis: Vec<CellSet>,
        given: CellSet,
    ) -> Result<(Node, CellSet), ProveError> {
        let (w, l) = (self.winner, self.winner.opponent());
        semis.sort_by_key(|s| s.len());
        let empty = q.empty_cells();
        let mut k = CellSet::EMPTY;
        let mut precludes = Vec::new();
        // Mustplay: each small winning VSC, as a precluding analysis.
        let mut left = empty;
        for s in semis {
            if (s & left) == left {
                continue; // would not shrink the moves left
            }
            // The key and, with the fictitious stone on it, the VC's derivation: both from one
            // run of the explainer (its VSC is an AND through the empty key); else the key by
            // the exact search and the carrier left to the checker's search when small; else
            // the moves are left to the cases.
            let explained = match self.explained_key(q, w, s | given) {
                Some((z, d)) => Some((z, d.carrier(), d, Vec::new())),
                None => self.explained_key_filled(q, w, s, given),
            };
            let (z, carrier, d, fills) = match explained {
                Some((z, k, d, fills)) => {
                    self.derived += 1;
                    if !fills.is_empty() {
                        self.filled_leaves += 1;
                    }
                    (z, k, Some(d), fills)
                }
                None => {
                    let small = (s | given).len() <= self.leaf_max + 1;
                    let try_fill = self.fill_preclude
                        && self.fill_search
                        && !given.is_empty()
                        && self.leaf_nodes > 0;
                    if !small && !try_fill {
                        continue;
                    }
                    let t = Instant::now();
                    let key = key_move_within(f, w, s, KEY_NODES);
                    Profile::add(&mut self.prof.solver, t);
                    let Some(z) = key else { continue };
                    let c = (s - CellSet::single(z)) | given;
                    let mut qz = q.clone();
                    if qz.play(w, z).is_err() {
                        continue;
                    }
                    let filled = if try_fill {
                        self.filled_searched_preclude(&qz, c, given)
                    } else {
                        None
                    };
                    match filled {
                        Some(fills) => {
                            self.searched += 1;
                            self.fill_precluded += 1;
                            (z, c, None, fills)
                        }
                        None if small && self.search_cheap(&qz, c) => {
                            self.searched += 1;
                            (z, c, None, Vec::new())
                        }
                        None => continue,
                    }
                }
            };
            precludes.push((z, carrier, d, fills));
            let keep = carrier | CellSet::single(z);
            left &= keep;
            k |= keep & empty;
        }
        // The moves left, in the solver's order; each reply's proof set refutes every move
        // outside it (`| *`, proof-set pruning, Henderson, Arneson & Hayward 2009 §5).
        let mut order = Vec::new();
        self.d.order.scores(f, l, left, &mut order);
        // Cells the fill-in gave a colour are not scored on `f`: they come last.
        let scored: CellSet = order.iter().map(|&(_, c)| c).collect();
        order.sort_unstable();
        let mut moves: Vec<Cell> = order.into_iter().map(|(_, c)| c).collect();
        moves.extend((left - scored).iter());
        let mut cases = Vec::new();
        let mut kcs = Vec::new();
        for m in moves {
            if !left.contains(m) {
                continue;
            }
            let mut q2 = q.clone();
            q2.play(l, m)?;
            let (reply, child, rotated, kc) = self.black(&q2)?;
            left.remove(m);
            let rest = !(left - kc).is_empty();
            left &= kc;
            k |= kc & empty;
            kcs.push(kc);
            cases.push(CaseOut {
                w: m,
                also: Vec::new(),
                rest,
                reply,
                child,
                rotated,
            });
        }
        if self.drop_redundant {
            let before = precludes.len();
            k = drop_redundant_precludes(&mut precludes, &mut cases, &kcs, empty);
            self.dropped += before - precludes.len();
        }
        Ok((Node::White { precludes, cases }, k))
    }

    /// The whole file: header, the tree from the root (the winner plays `mv` in `setup`, then
    /// node `root`), and every node referred to twice or more as a shared position.
    fn write(&self, setup: &Position, mv: Cell, root: usize) -> String {
        let (w, l) = (self.winner, self.winner.opponent());
        let mut head = String::new();
        let _ = writeln!(
            head,
            "// Emitted by `hexproof solve --emit-proof`: {} wins{}.",
            if self.swapped { "White" } else { "Black" },
            if self.swapped {
                " (written for the transposed board with the colours swapped, so Black's strategy below is White's)"
            } else {
                ""
            }
        );
        let _ = writeln!(head, "// Check it with `hexproof check FILE`.\n");
        let _ = writeln!(
            head,
            "board {}x{} notation letters",
            self.board.cols(),
            self.board.rows()
        );
        for (colour, as_written) in [(w, "black"), (l, "white")] {
            let s = setup.stones(colour);
            if !s.is_empty() {
                let v = self.list(s);
                let _ = writeln!(head, "{as_written} {}", &v[1..v.len() - 1]);
            }
        }
        if self.uses_templates() {
            let _ = writeln!(head, "use templates");
        }
        let _ = writeln!(head, "\nstrategy solved \"Black, to move, wins\" {{");
        let mut out = head;
        let mut names: HashMap<usize, usize> = HashMap::new();
        let mut queue: Vec<usize> = Vec::new();
        let _ = writeln!(out, "  black {} {{", self.name(mv));
        self.write_node(root, 2, &mut out, &mut names, &mut queue);
        let _ = writeln!(out, "  }}");
        // Shared positions, in the order they are first referred to.
        let mut i = 0;
        while i < queue.len() {
            let id = queue[i];
            i += 1;
            let (sw, sl) = self.nodes[id].stones;
            let _ = writeln!(
                out,
                "  position P{} black {} white {} {{",
                names[&id],
                self.list(sw - setup.stones(w)),
                self.list(sl - setup.stones(l))
            );
            self.write_node(id, 2, &mut out, &mut names, &mut queue);
            let _ = writeln!(out, "  }}");
        }
        let _ = writeln!(out, "}}");
        let refs: usize = self
            .nodes
            .iter()
            .filter(|n| n.refs >= 2)
            .map(|n| n.refs)
            .sum();
        // Nodes no longer reached (a case replaced by `group`) have no references.
        let written = || self.nodes.iter().filter(|n| n.refs > 0);
        let (black_moves, leaves) = written().fold((1, 0), |(b, l), n| match &n.node {
            Node::Leaf(..) | Node::Union { .. } => (b, l + 1),
            Node::White { cases, .. } => (b + cases.len(), l),
        });
        // The nodes written (the replies and the loser-to-move nodes; the first move is the
        // root's): after `group`, the emitted count includes replaced cases.
        let count = if self.group {
            black_moves - 1 + written().count()
        } else {
            self.count
        };
        let _ = writeln!(
            out,
            "// {count} nodes (Black moves, White nodes, leaves); {} shared position(s), {refs} goto(s).",
            queue.len(),
        );
        let _ = writeln!(
            out,
            "// {black_moves} Black-move node(s) (the first move and one per case, a shared position counted once), {leaves} lea{}.",
            if leaves == 1 { "f" } else { "ves" }
        );
        let _ = writeln!(
            out,
            "// {} connection(s) written as AND/OR derivations, {} left to the search.",
            self.derived, self.searched,
        );
        if self.compact.is_some() {
            let _ = writeln!(
                out,
                "// Compact: {} union-connection leaves (rule 2), {} union searches tried.",
                self.unions, self.union_tries
            );
        }
        if self.drop_redundant {
            let _ = writeln!(
                out,
                "// {} redundant precluding analyses left out.",
                self.dropped
            );
        }
        if self.filled_leaves > 0 {
            let _ = writeln!(
                out,
                "// {} of the derivations follow fill-in (dead cells, captured pairs).",
                self.filled_leaves
            );
        }
        if self.fill_searched > 0 {
            let _ = writeln!(
                out,
                "// {} of the searches follow fill-in (dead cells, captured pairs).",
                self.fill_searched
            );
        }
        if self.fill_precluded > 0 {
            let _ = writeln!(
                out,
                "// {} precluding analyses found as fill-in and a search (before redundant ones were left out).",
                self.fill_precluded
            );
        }
        if self.retried > 0 {
            let _ = writeln!(
                out,
                "// {} searches held only with the second budget of {} nodes (--emit-fill-retry; before redundant ones were left out).",
                self.retried, self.fill_retry
            );
        }
        let _ = writeln!(
            out,
            "// Written as a plain tree: {} White-to-move nodes instead of {}.",
            self.unfolded(root),
            written().count()
        );
        if self.group {
            let _ = writeln!(
                out,
                "// Grouped replies: {} merge(s) of two cases into one (`case x | y`), {} case(s) left out as answered by the others' `| *` (the counts above the tree's, those of the comparisons and of replaced cases included).",
                self.grouped, self.covered
            );
        }
        out
    }

    /// The winner's VC in `q` inside `area`, as a derivation by the explainer
    /// (src/vc/explain.rs), unless derivations are off.
    fn explained(&mut self, q: &Position, w: Colour, area: CellSet) -> Option<Derivation> {
        if !self.derive {
            return None;
        }
        let key = (q.stones(w), q.empty_cells() & area);
        if let Some(d) = self.vc_memo.get(&key) {
            self.memo_hits += 1;
            return d.clone();
        }
        let t = Instant::now();
        let d = explain_win(q, w, area, self.limits);
        let slot = if d.is_some() {
            &mut self.prof.explain_found
        } else {
            &mut self.prof.explain_none
        };
        Profile::add(slot, t);
        self.vc_memo.insert(key, d.clone());
        d
    }

    /// A key of the winner's VSC in `q` inside `area` with the derivation of the VC a stone
    /// there gives (src/vc/explain.rs, [`explain_key_vc`]), unless derivations are off.
    fn explained_key(
        &mut self,
        q: &Position,
        w: Colour,
        area: CellSet,
    ) -> Option<(Cell, Derivation)> {
        if !self.derive {
            return None;
        }
        let key = (q.stones(w), q.empty_cells() & area);
        if let Some(d) = self.key_memo.get(&key) {
            self.memo_hits += 1;
            return d.clone();
        }
        let t = Instant::now();
        let d = explain_key_vc(q, w, area, self.limits);
        let slot = if d.is_some() {
            &mut self.prof.explain_found
        } else {
            &mut self.prof.explain_none
        };
        Profile::add(slot, t);
        self.key_memo.insert(key, d.clone());
        d
    }

    /// The fill-in of `given` (the cells the solver's fill-in gave the winner) that the
    /// checker's test justifies in `q` restricted to `region` ([`crate::check::fill`]): dead
    /// cells one at a time, else captured pairs of adjacent cells, repeated while one is found.
    /// Returns the fills and the filled position.
    fn fill_plan(
        &self,
        q: &Position,
        w: Colour,
        region: CellSet,
        given: CellSet,
    ) -> (Vec<FillSpec>, Position) {
        let mut qr = restricted(q, region, w);
        let mut filled = q.clone();
        let mut left = given & q.empty_cells();
        let mut fills = Vec::new();
        loop {
            let mut found = None;
            for x in left.iter() {
                if dead_violation(&qr, CellSet::single(x)).is_none() {
                    found = Some((false, CellSet::single(x)));
                    break;
                }
            }
            if found.is_none() {
                'pairs: for x in left.iter() {
                    for y in (q.board().neighbours(x) & left).iter() {
                        let p = CellSet::single(x) | CellSet::single(y);
                        if captured_violation(&qr, p, w).is_none() {
                            found = Some((true, p));
                            break 'pairs;
                        }
                    }
                }
            }
            if found.is_none() {
                // A dead region: each connected part of what is left, then all of it.
                let mut parts = Vec::new();
                let mut rest = left;
                while let Some(x) = rest.first() {
                    let part = q.component(x, &left);
                    rest -= part;
                    if part.len() > 1 {
                        parts.push(part);
                    }
                }
                parts.push(left);
                found = parts
                    .into_iter()
                    .find(|&p| !p.is_empty() && dead_violation(&qr, p).is_none())
                    .map(|p| (false, p));
            }
            let Some((captured, cells)) = found else {
                break;
            };
            for c in cells.iter() {
                let _ = qr.play(w, c);
                let _ = filled.play(w, c);
            }
            left -= cells;
            fills.push(FillSpec {
                captured,
                colour: w,
                cells,
            });
        }
        (fills, filled)
    }

    /// A leaf with fill-in: the winner's VC on `c` (a carrier in the solver's filled position,
    /// `given` included) derived in the position with the justified fills applied. Returns
    /// the leaf's carrier (derivation carrier and filled cells), the derivation and the fills,
    /// after checking the fills as the checker will.
    fn explained_filled(
        &mut self,
        q: &Position,
        w: Colour,
        c: CellSet,
        given: CellSet,
    ) -> Option<(CellSet, Derivation, Vec<FillSpec>)> {
        if !self.derive || given.is_empty() {
            return None;
        }
        let (fills, filled) = self.fill_plan(q, w, c | given, given);
        if fills.is_empty() {
            return None;
        }
        let cells = fills.iter().fold(CellSet::EMPTY, |a, f| a | f.cells);
        let d = self.explained(&filled, w, (c | given) - cells)?;
        if d.facts.last().is_none_or(|g| g.why == Why::Base) {
            return None;
        }
        let k = d.carrier() | cells;
        check_fills(q, &fills, k, w).ok()?;
        Some((k, d, fills))
    }

    /// A precluding analysis with fill-in: the key and the VC's derivation found in the
    /// filled position; the fills are then checked in the position with the key played.
    fn explained_key_filled(
        &mut self,
        q: &Position,
        w: Colour,
        s: CellSet,
        given: CellSet,
    ) -> Option<(Cell, CellSet, Derivation, Vec<FillSpec>)> {
        if !self.derive || given.is_empty() {
            return None;
        }
        let (fills, filled) = self.fill_plan(q, w, s | given, given);
        if fills.is_empty() {
            return None;
        }
        let cells = fills.iter().fold(CellSet::EMPTY, |a, f| a | f.cells);
        let (z, d) = self.explained_key(&filled, w, (s | given) - cells)?;
        if d.facts.last().is_none_or(|g| g.why == Why::Base) {
            return None;
        }
        let k = d.carrier() | cells;
        let mut qz = q.clone();
        qz.play(w, z).ok()?;
        check_fills(&qz, &fills, k, w).ok()?;
        Some((z, k, d, fills))
    }

    /// True when the checker's exact search ([`crate::local::decide`], as `hexproof check`
    /// runs it on `t - b on [carrier] by search`: the position as written, the loser to move)
    /// proves the winner's connection in `q` on `carrier` within [`Self::leaf_nodes`] nodes.
    /// A leaf that needs more is split into the loser's moves and the winner's replies
    /// instead, whose connections are smaller (or derived): the search's cost grows steeply
    /// with the carrier, and a few such leaves made most of a 7×7 check (BENCHMARKS.md,
    /// "Exported proofs"). The budget is at most the checker's first phase
    /// ([`crate::local::oracle::DEFAULT_FIRST_NODES`]), which is meant to run the same
    /// search, so the checker should decide such a leaf within the same nodes; that the two
    /// agree is not tested yet (a cost expectation only, not a soundness matter). The
    /// checker, not this test, decides the leaf.
    fn search_cheap(&mut self, q: &Position, carrier: CellSet) -> bool {
        if self.leaf_nodes == 0 {
            return true;
        }
        let nodes = match self.reply_leaf_nodes {
            n if n > 0 && self.in_try => n.min(self.leaf_nodes),
            _ => self.leaf_nodes,
        };
        let [a, b] = self.winner.borders().map(Cell::border);
        self.search_holds(q, carrier, &[(a, b)], nodes)
    }

    /// True when the checker's exact search ([`crate::local::decide`], as `hexproof check`
    /// runs a `by search` step: the position as written, the loser to move) proves the
    /// winner's claim with `pairs` (cells and the winner's borders, as solved) on `carrier`
    /// in `q` within `nodes` nodes. Memoised.
    fn search_holds(
        &mut self,
        q: &Position,
        carrier: CellSet,
        pairs: &[(Cell, Cell)],
        nodes: u64,
    ) -> bool {
        // As written: a White win on the transposed board with the colours swapped (the
        // winner's borders become Black's).
        let map = |c: Cell| -> Cell {
            if let Some(bd) = c.as_border() {
                let i = usize::from(self.winner.borders()[1] == bd);
                return Cell::border(Colour::Black.borders()[i]);
            }
            if self.swapped {
                let (x, y) = c.coords();
                Cell::at(y, x)
            } else {
                c
            }
        };
        let carrier: CellSet = carrier.iter().map(map).collect();
        let pairs: Vec<(Cell, Cell)> = pairs.iter().map(|&(x, y)| (map(x), map(y))).collect();
        let pos = if self.swapped {
            q.colours_swapped()
        } else {
            q.clone()
        };
        let key = (
            pos.stones(Colour::Black),
            pos.stones(Colour::White),
            carrier,
            pairs.clone(),
            nodes,
        );
        if let Some(&r) = self.search_memo.get(&key) {
            self.memo_hits += 1;
            self.last_search = r;
            return r == SearchOutcome::Holds;
        }
        let claim = Claim {
            owner: Colour::Black,
            pairs,
            owner_first: false,
        };
        let t = Instant::now();
        let outcome = match SubGame::new(pos, carrier, claim) {
            Ok(game) => {
                let budget = Budget {
                    nodes,
                    time: None,
                    ..Budget::default()
                };
                match decide(&game, &budget) {
                    Ok(o) if o.verdict == Verdict::Holds => SearchOutcome::Holds,
                    Ok(o) if o.verdict == Verdict::Fails => SearchOutcome::Refuted,
                    _ => SearchOutcome::Budget,
                }
            }
            Err(_) => SearchOutcome::Refuted,
        };
        self.last_search = outcome;
        let r = outcome == SearchOutcome::Holds;
        if self.stats {
            let slot = if r {
                &mut self.prof.search_hold
            } else {
                &mut self.prof.search_fail
            };
            Profile::add(slot, t);
            if !r && self.in_try {
                Profile::add(&mut self.prof.search_fail_try, t);
            }
        }
        self.search_memo.insert(key, outcome);
        r
    }

    /// True when some derivation uses an edge template (then the file needs `use templates`).
    fn uses_templates(&self) -> bool {
        let uses = |d: &Option<Derivation>| {
            d.as_ref()
                .is_some_and(|d| d.facts.iter().any(|f| matches!(f.why, Why::Template(_))))
        };
        self.nodes.iter().any(|n| match &n.node {
            Node::Leaf(_, d, _) => uses(d),
            Node::Union { .. } => false,
            Node::White { precludes, .. } => precludes.iter().any(|(_, _, d, _)| uses(d)),
        })
    }

    /// An end of a derivation's fact as written: `t`/`b` for the winner's borders (White's
    /// left and right become the top and bottom on the transposed board), else the cell.
    fn end(&self, c: Cell) -> String {
        match c.as_border() {
            Some(b) if b == self.winner.borders()[0] => "t".into(),
            Some(_) => "b".into(),
            None => self.name(c),
        }
    }

    /// A fact of a derivation as a triple `(x, [..], y) VC`.
    fn triple(&self, f: &ExplainedFact) -> String {
        format!(
            "({}, {}, {})",
            self.end(f.x),
            self.list(f.carrier),
            self.end(f.y)
        )
    }

    /// A leaf (or the body of a precluding analysis): the winner's VC on `c` — its AND/OR
    /// derivation, one labelled step per rule application (base facts written inline as
    /// premises), the last step concluding `t - b`; without one, `t - b on [c] by search`.
    fn write_leaf(
        &self,
        c: CellSet,
        d: Option<&Derivation>,
        fills: &[FillSpec],
        pad: &str,
        out: &mut String,
    ) {
        let mut filled = CellSet::EMPTY;
        for f in fills {
            let colour = if f.colour == self.winner {
                "black"
            } else {
                "white"
            };
            let _ = if f.captured {
                writeln!(out, "{pad}fill captured {colour} {}", self.list(f.cells))
            } else if f.colour == self.winner {
                writeln!(out, "{pad}fill dead {}", self.list(f.cells))
            } else {
                writeln!(out, "{pad}fill dead {colour} {}", self.list(f.cells))
            };
            filled |= f.cells;
        }
        let Some(d) = d.filter(|d| d.facts.last().is_some_and(|g| g.why != Why::Base)) else {
            let _ = writeln!(out, "{pad}t - b on {} by search", self.list(c - filled));
            return;
        };
        // A rule step on a small carrier is written `by search` (its premises are then not
        // needed); the steps written are the ones the goal needs through the others.
        let collapsed = |i: usize| {
            let f = &d.facts[i];
            self.collapse > 0
                && matches!(f.why, Why::And(..) | Why::Or(_))
                && f.carrier.len() <= self.collapse
        };
        let last = d.facts.len() - 1;
        let mut needed = vec![false; d.facts.len()];
        needed[last] = true;
        for i in (0..d.facts.len()).rev() {
            if !needed[i] || collapsed(i) {
                continue;
            }
            match &d.facts[i].why {
                Why::And(a, b, _) => {
                    needed[*a] = true;
                    needed[*b] = true;
                }
                Why::Or(v) => v.iter().for_each(|&a| needed[a] = true),
                Why::Base | Why::Template(_) => {}
            }
        }
        let premise = |i: usize| -> String {
            let f = &d.facts[i];
            if f.why == Why::Base {
                self.triple(f)
            } else {
                format!("s_{i}")
            }
        };
        if collapsed(last) {
            // The whole connection is small: one line, as a search leaf.
            let c = d.facts[last].carrier;
            let _ = writeln!(out, "{pad}t - b on {} by search", self.list(c));
            return;
        }
        for (i, f) in d.facts.iter().enumerate() {
            if !needed[i] {
                continue;
            }
            let kind = if f.semi { "VSC" } else { "VC" };
            // The goal is written (t, C, b) so that it reads `t - b`.
            let text = if i == last && f.x.as_border() != Some(self.winner.borders()[0]) {
                format!(
                    "({}, {}, {})",
                    self.end(f.y),
                    self.list(f.carrier),
                    self.end(f.x)
                )
            } else {
                self.triple(f)
            };
            let by = match &f.why {
                Why::Base => continue,
                _ if collapsed(i) => "search".to_string(),
                Why::Template(name) => crate::dsl::template_import::lemma_name(name),
                Why::And(a, b, _) => format!("AND {} {}", premise(*a), premise(*b)),
                Why::Or(v) => {
                    let v: Vec<String> = v.iter().map(|&a| premise(a)).collect();
                    format!("OR {}", v.join(" "))
                }
            };
            let _ = writeln!(out, "{pad}s_{i}: {text} {kind} by {by}");
        }
    }

    /// A union-connection leaf (Noshita's rules (2), docs/SEMANTICS.md): the union on `a`
    /// and the group's VC on `v`, each by the checker's search, joined by rule (2) (its goal
    /// `t - b | t - b` is the set `t - b`).
    fn write_union(&self, g: Cell, x: usize, v: CellSet, a: CellSet, pad: &str, out: &mut String) {
        let g = self.name(g);
        let (union, vc) = if x == 0 {
            (format!("{g} - b | t - b"), format!("t - {g}"))
        } else {
            (format!("t - {g} | t - b"), format!("{g} - b"))
        };
        let _ = writeln!(out, "{pad}u: {union} on {} by search", self.list(a));
        let _ = writeln!(out, "{pad}v: {vc} on {} by search", self.list(v));
        let _ = writeln!(out, "{pad}t - b on {} by rule2 u v", self.list(a | v));
    }

    /// The loser-to-move position of node `id` on `board` (the solved board).
    fn position_of(&self, id: usize, board: Board) -> Result<Position, ProveError> {
        let (ws, ls) = self.nodes[id].stones;
        let (b, wh) = if self.winner == Colour::Black {
            (ws, ls)
        } else {
            (ls, ws)
        };
        Ok(Position::new(board, b, wh)?)
    }

    /// A case's proof set, in its White node's orientation: the reply and its node's set.
    fn case_k(&self, c: &CaseOut) -> CellSet {
        let k = self.nodes[c.child].k;
        let k = if c.rotated { self.rot.set(k) } else { k };
        k | CellSet::single(c.reply)
    }

    /// Distinct winner's-move nodes below node `id` (one per case; a node counted once).
    fn black_below(&self, id: usize, seen: &mut HashSet<usize>) -> usize {
        if !seen.insert(id) {
            return 0;
        }
        match &self.nodes[id].node {
            Node::White { cases, .. } => cases
                .iter()
                .map(|c| 1 + self.black_below(c.child, seen))
                .sum(),
            _ => 0,
        }
    }

    /// What a case costs the proof: its winner's move and, when no other case refers to its
    /// node, the winner's moves below it.
    fn case_cost(&self, c: &CaseOut) -> usize {
        1 + if self.nodes[c.child].refs <= 1 {
            self.black_below(c.child, &mut HashSet::new())
        } else {
            0
        }
    }

    /// [`EmitOptions::group`]: reworks the White nodes below `id` (children first), each
    /// once: grouped replies, then the cheapest set of cases.
    fn regroup(
        &mut self,
        id: usize,
        board: Board,
        seen: &mut HashSet<usize>,
    ) -> Result<(), ProveError> {
        if !seen.insert(id) {
            return Ok(());
        }
        let children: Vec<usize> = match &self.nodes[id].node {
            Node::White { cases, .. } => cases.iter().map(|c| c.child).collect(),
            _ => return Ok(()),
        };
        for c in children {
            self.regroup(c, board, seen)?;
        }
        self.group_cases(id, board)?;
        self.cover_cases(id, board)
    }

    /// Merges cases of White node `id`: for two cases, one reply (either case's) after
    /// which the winner wins with *both* White moves on the board; its subtree, emitted in
    /// that position without shared nodes, answers each move in its own position (a proof
    /// with more loser's stones holds with fewer: the carriers avoid them, and every White
    /// node in it excludes them, which is checked here). Kept when it costs fewer winner's
    /// moves than the two cases and the node's proof set does not grow (the parents' `| *`
    /// stay valid); else rolled back.
    fn group_cases(&mut self, id: usize, board: Board) -> Result<(), ProveError> {
        let q = self.position_of(id, board)?;
        let (w, l) = (self.winner, self.winner.opponent());
        let empty = q.empty_cells();
        let old_k = self.nodes[id].k;
        let nodes = self.compact.map_or(20_000, |c| c.size_nodes);
        let mut i = 0;
        loop {
            let n = match &self.nodes[id].node {
                Node::White { cases, .. } => cases.len(),
                _ => return Ok(()),
            };
            if i + 1 >= n {
                return Ok(());
            }
            let mut j = i + 1;
            while j < self.case_count(id) {
                if !self.try_group(id, i, j, &q, empty, old_k, nodes, (w, l))? {
                    j += 1;
                }
            }
            i += 1;
        }
    }

    fn case_count(&self, id: usize) -> usize {
        match &self.nodes[id].node {
            Node::White { cases, .. } => cases.len(),
            _ => 0,
        }
    }

    /// One merge of [`Emitter::group_cases`]: cases `i` and `j` of node `id` (position `q`,
    /// empty cells `empty`, proof set `old_k`). True when merged (case `j` is gone).
    #[allow(clippy::too_many_arguments)]
    fn try_group(
        &mut self,
        id: usize,
        i: usize,
        j: usize,
        q: &Position,
        empty: CellSet,
        old_k: CellSet,
        nodes: u64,
        (w, l): (Colour, Colour),
    ) -> Result<bool, ProveError> {
        let Node::White { cases, .. } = &self.nodes[id].node else {
            return Ok(false);
        };
        let (ci, cj) = (&cases[i], &cases[j]);
        let g: Vec<Cell> = ci.moves().chain(cj.moves()).collect();
        let gs: CellSet = g.iter().copied().collect();
        let old_cost = self.case_cost(ci) + self.case_cost(cj);
        if old_cost > self.group_cost {
            return Ok(false);
        }
        let mut replies = vec![ci.reply];
        if cj.reply != ci.reply {
            replies.push(cj.reply);
        }
        for r in replies {
            if gs.contains(r) {
                continue;
            }
            let mut q2 = q.clone();
            for &m in &g {
                q2.play(l, m)?;
            }
            // A budget of its own: the solver's may be spent by now (the positions of the
            // tree are in its table; these are new).
            let (max, aborted) = (self.d.max_nodes, self.d.aborted);
            self.d.max_nodes = self.d.nodes.saturating_add(GROUP_NODES);
            self.d.aborted = false;
            let restore = |e: &mut Self| {
                e.d.max_nodes = max;
                e.d.aborted = aborted;
            };
            if !self.wins_within(&q2, r, nodes) {
                restore(self);
                continue;
            }
            let snap = self.snapshot();
            self.no_share = true;
            self.cap = Some(self.count + 3 * old_cost + 2);
            // The solver's moves below, not the size objective's comparisons (their cost is
            // what the cap is for).
            let depth = std::mem::replace(&mut self.depth, GROUP_DEPTH);
            self.group_extra = gs - CellSet::single(g[0]);
            let mut q3 = q2.clone();
            q3.play(w, r)?;
            let res = self.white(&q3);
            self.depth = depth;
            self.group_extra = CellSet::EMPTY;
            self.no_share = false;
            self.cap = None;
            restore(self);
            let Ok((cid, _, _)) = res else {
                self.trace(|| {
                    format!(
                        "group {} with reply {}: {:?} ({old_cost} to beat)",
                        self.list(gs),
                        self.name(r),
                        res.as_ref().err()
                    )
                });
                self.rollback(&snap);
                continue;
            };
            let new_cost = 1 + self.black_below(cid, &mut HashSet::new());
            self.trace(|| {
                format!(
                    "group {} with reply {}: {new_cost} winner's moves against {old_cost}",
                    self.list(gs),
                    self.name(r)
                )
            });
            if new_cost >= old_cost || !self.excludes(cid, gs, q3.board())? {
                self.rollback(&snap);
                continue;
            }
            let node = std::mem::replace(
                &mut self.nodes[id].node,
                Node::Leaf(CellSet::EMPTY, None, Vec::new()),
            );
            let Node::White {
                precludes,
                mut cases,
            } = node
            else {
                unreachable!("a White node");
            };
            let merged = CaseOut {
                w: g[0],
                also: g[1..].to_vec(),
                rest: false,
                reply: r,
                child: cid,
                rotated: false,
            };
            let old_i = std::mem::replace(&mut cases[i], merged);
            let old_j = cases.remove(j);
            let kcs: Vec<CellSet> = cases.iter().map(|c| self.case_k(c)).collect();
            let moves: CellSet = cases.iter().flat_map(CaseOut::moves).collect();
            let left = survivors(&precludes, &mut cases, &kcs, empty);
            let k = node_k(&precludes, &kcs, empty);
            if (left - moves).is_empty() && (k - old_k).is_empty() {
                self.nodes[id].k = k;
                self.nodes[id].node = Node::White { precludes, cases };
                self.grouped += 1;
                return Ok(true);
            }
            cases.insert(j, old_j);
            cases[i] = old_i;
            let kcs: Vec<CellSet> = cases.iter().map(|c| self.case_k(c)).collect();
            survivors(&precludes, &mut cases, &kcs, empty);
            self.nodes[id].node = Node::White { precludes, cases };
            self.rollback(&snap);
        }
        Ok(false)
    }

    /// True when every White node of the (unshared) subtree `id` leaves no survivor among
    /// the cells `g` were they empty: its analyses' carriers or its cases' `| *` exclude
    /// them, so the subtree answers in each position where some of `g` are empty.
    fn excludes(&self, id: usize, g: CellSet, board: &Board) -> Result<bool, ProveError> {
        let Node::White { precludes, cases } = &self.nodes[id].node else {
            return Ok(true);
        };
        let empty = self.position_of(id, *board)?.empty_cells() | g;
        let kcs: Vec<CellSet> = cases.iter().map(|c| self.case_k(c)).collect();
        let moves: CellSet = cases.iter().flat_map(CaseOut::moves).collect();
        if !(left_after(precludes, cases, &kcs, empty) - moves).is_empty() {
            return Ok(false);
        }
        for c in cases {
            if !self.excludes(c.child, g, board)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Keeps the cheapest set of cases of White node `id` that still answers every White
    /// move (named by a kept case, or outside a kept reply's proof set: `| *`), by trying
    /// every subset (at most 16 cases). The node's proof set only shrinks.
    fn cover_cases(&mut self, id: usize, board: Board) -> Result<(), ProveError> {
        let empty = self.position_of(id, board)?.empty_cells();
        let Node::White { precludes, cases } = &self.nodes[id].node else {
            return Ok(());
        };
        let n = cases.len();
        if !(2..=16).contains(&n) {
            return Ok(());
        }
        let kcs: Vec<CellSet> = cases.iter().map(|c| self.case_k(c)).collect();
        let costs: Vec<usize> = cases.iter().map(|c| self.case_cost(c)).collect();
        let named: Vec<CellSet> = cases.iter().map(|c| c.moves().collect()).collect();
        let surv = precludes
            .iter()
            .fold(empty, |s, p| s & (p.1 | CellSet::single(p.0)));
        let full = (1u32 << n) - 1;
        let mut best = (costs.iter().sum::<usize>(), full);
        for mask in 1..full {
            let kept = (0..n).filter(|&b| (mask >> b) & 1 == 1);
            let cost: usize = kept.clone().map(|b| costs[b]).sum();
            if cost >= best.0 {
                continue;
            }
            let answered = kept.fold(CellSet::EMPTY, |s, b| s | named[b] | (empty - kcs[b]));
            if (surv - answered).is_empty() {
                best = (cost, mask);
            }
        }
        if best.1 == full {
            return Ok(());
        }
        let node = std::mem::replace(
            &mut self.nodes[id].node,
            Node::Leaf(CellSet::EMPTY, None, Vec::new()),
        );
        let Node::White {
            mut precludes,
            cases,
        } = node
        else {
            unreachable!("a White node");
        };
        let (mut cases, kcs): (Vec<CaseOut>, Vec<CellSet>) = cases
            .into_iter()
            .zip(kcs)
            .enumerate()
            .filter(|(b, _)| (best.1 >> b) & 1 == 1)
            .map(|(_, x)| x)
            .unzip();
        self.covered += n - cases.len();
        let k = if self.drop_redundant {
            drop_redundant_precludes(&mut precludes, &mut cases, &kcs, empty)
        } else {
            survivors(&precludes, &mut cases, &kcs, empty);
            node_k(&precludes, &kcs, empty)
        };
        self.nodes[id].k = k;
        self.nodes[id].node = Node::White { precludes, cases };
        Ok(())
    }

    /// The winner's moves of the tree from `root` (each node once): `first` at `setup` when
    /// the winner moves first, and each case's reply in its node's position with the case's
    /// White moves played, as (Black's stones, White's stones, move) on the board as solved.
    fn choices(&self, setup: &Position, first: Option<Cell>, root: usize) -> Vec<Choice> {
        let (w, l) = (self.winner, self.winner.opponent());
        let as_colours = |ws: CellSet, ls: CellSet| {
            if w == Colour::Black {
                (ws, ls)
            } else {
                (ls, ws)
            }
        };
        let mut out = Vec::new();
        if let Some(m) = first {
            let (b, wh) = as_colours(setup.stones(w), setup.stones(l));
            out.push((b, wh, m));
        }
        let mut stack = vec![root];
        let mut seen = HashSet::from([root]);
        while let Some(id) = stack.pop() {
            let Node::White { cases, .. } = &self.nodes[id].node else {
                continue;
            };
            let (ws, ls) = self.nodes[id].stones;
            for c in cases {
                for m in c.moves() {
                    let (b, wh) = as_colours(ws, ls | CellSet::single(m));
                    out.push((b, wh, c.reply));
                }
            }
            // Children in reverse, so they are visited in the order written.
            for c in cases.iter().rev() {
                if seen.insert(c.child) {
                    stack.push(c.child);
                }
            }
        }
        out
    }

    /// Reference counts from the root (a node no longer reached, after
    /// [`EmitOptions::group`] replaced its case, counts 0 and is not written).
    fn recount(&mut self, root: usize) {
        for n in &mut self.nodes {
            n.refs = 0;
        }
        self.nodes[root].refs = 1;
        let mut stack = vec![root];
        let mut seen = HashSet::from([root]);
        while let Some(id) = stack.pop() {
            let children: Vec<usize> = match &self.nodes[id].node {
                Node::White { cases, .. } => cases.iter().map(|c| c.child).collect(),
                _ => Vec::new(),
            };
            for c in children {
                self.nodes[c].refs += 1;
                if seen.insert(c) {
                    stack.push(c);
                }
            }
        }
    }

    /// How many loser-to-move nodes the proof would have written as a plain tree (saturating).
    fn unfolded(&self, root: usize) -> u64 {
        fn size(e: &Emitter, id: usize, memo: &mut [Option<u64>]) -> u64 {
            if let Some(n) = memo[id] {
                return n;
            }
            let n = match &e.nodes[id].node {
                Node::Leaf(..) | Node::Union { .. } => 1,
                Node::White { cases, .. } => cases
                    .iter()
                    .fold(1u64, |a, c| a.saturating_add(size(e, c.child, memo))),
            };
            memo[id] = Some(n);
            n
        }
        // A grouped case's node was pushed after its parent, so the list is no post-order.
        size(self, root, &mut vec![None; self.nodes.len()])
    }

    /// Writes node `id` at depth `ind`; a case leading to a node referred to twice or more
    /// ends in `goto Pn` (the node is queued to be written once, as shared position Pn).
    fn write_node(
        &self,
        id: usize,
        ind: usize,
        out: &mut String,
        names: &mut HashMap<usize, usize>,
        queue: &mut Vec<usize>,
    ) {
        let pad = "  ".repeat(ind);
        match &self.nodes[id].node {
            Node::Leaf(c, d, f) => self.write_leaf(*c, d.as_ref(), f, &pad, out),
            &Node::Union { g, x, v, a } => self.write_union(g, x, v, a, &pad, out),
            Node::White { precludes, cases } => {
                let _ = writeln!(out, "{pad}white {{");
                for (z, carrier, d, f) in precludes {
                    let _ = writeln!(out, "{pad}  preclude by {} {{", self.name(*z));
                    self.write_leaf(*carrier, d.as_ref(), f, &format!("{pad}    "), out);
                    let _ = writeln!(out, "{pad}  }}");
                }
                for c in cases {
                    let rest = if c.rest { " | *" } else { "" };
                    let head = format!(
                        "{pad}  case {}{rest} => black {}",
                        c.moves()
                            .map(|m| self.name(m))
                            .collect::<Vec<_>>()
                            .join(" | "),
                        self.name(c.reply)
                    );
                    if self.nodes[c.child].refs >= 2 {
                        let next = names.len() + 1;
                        let n = *names.entry(c.child).or_insert_with(|| {
                            queue.push(c.child);
                            next
                        });
                        let under = if c.rotated { " under rot180" } else { "" };
                        let _ = writeln!(out, "{head} goto P{n}{under}");
                    } else {
                        let _ = writeln!(out, "{head} {{");
                        self.write_node(c.child, ind + 2, out, names, queue);
                        let _ = writeln!(out, "{pad}  }}");
                    }
                }
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }
}
