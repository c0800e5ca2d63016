//! Published edge templates decided and certified: `hexproof templates import-published`
//! (docs/templates.md, "Published templates"). The entries and their search-free re-check
//! are [`crate::templates::published`]; this is the part that searches.
//!
//! Each template is placed as published on Black's top edge of a 19×19 board (one free column
//! on the left, which the whole-board engine's chain needs) or, with
//! [`ImportOptions::fitting`], on Black's bottom edge of the smallest board that holds it,
//! with the claim "some goal stone
//! − the edge", White first, on exactly the published carrier, and decided by
//! [`decide_engine`]. A win's certificate (already accepted by the kernel) is shrunk, its
//! root widened to the whole published carrier when the strategy uses fewer cells (sound by
//! monotonicity; the kernel checks it again), and stored under the canonical form of the
//! template; when it used strictly fewer cells, a second record on exactly those cells is
//! stored too (`minimized`). Every record is re-verified ([`verify_record`]) before it is
//! kept: nothing unproved enters the file.

use super::EnumerateError;
use crate::board::{Board, Border, Cell, CellSet, Colour};
use crate::claim::{Claim, SubGame};
use crate::edge_template::{EdgeTemplate, Rc};
use crate::engine::encode::encode;
use crate::engine::whole::{
    answer_after, decide_engine, decide_split_with, Engine, NamedReplies, SplitStore, SubPart,
    WholeParams,
};
use crate::kernel::{self, Certificate};
use crate::local::{Budget, Verdict};
use crate::position::Position;
use crate::templates::cert_pack::pack_nodes;
use crate::templates::cert_shrink;
use crate::templates::library::{
    canonical_goals, decode_certificate, encode_certificate_compact, orient, placements, sorted,
    verify_record, ClaimTag, Frame, MinimalityTag, Provenance, Record, Region, StoredCert,
};
use crate::templates::published::{inside, Entry, LibraryLink, LineMove, PublishedVerdict};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A template as the published collections' files give it (`edge-templates-hexwiki.json`,
/// `edge-templates-king-selinger.json`; other fields are ignored).
#[derive(Clone, Debug, Deserialize)]
pub struct Source {
    /// Name in the collection.
    pub name: String,
    /// Collection (`hexwiki`, `drking`, `selinger`).
    pub set: String,
    /// Row of the highest goal stone.
    pub row: i32,
    /// Goal stones (the claim: some goal stone to the edge).
    pub goal_stones: Vec<Rc>,
    /// Other stones of the owner.
    pub helper_stones: Vec<Rc>,
    /// Empty cells.
    pub carrier: Vec<Rc>,
    /// Cells inside the outline that are not part of the template.
    #[serde(default)]
    pub holes: Vec<Rc>,
    /// The page.
    #[serde(default)]
    pub source: String,
}

/// Budgets of one template's decision.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The engine (`verify --engine`).
    pub engine: Engine,
    /// With [`Engine::Auto`]: the local search's share of the nodes.
    pub local_nodes: u64,
    /// Node budget (both engines together).
    pub nodes: u64,
    /// Wall-clock budget in seconds.
    pub seconds: f64,
    /// Place the template on Black's bottom edge of the smallest square board that holds it
    /// (as `examples/solver_probe` does) instead of the top edge of 19×19; a template too wide
    /// for 19×19 that way keeps the 19×19 placement. Only the search's speed changes: the
    /// record is stored edge-relative and re-verified on its canonical board either way.
    pub fitting: bool,
    /// The whole-board engine's transposition-table entries ([`WholeParams::tt_entries`]):
    /// the table the solver proves the root in and the certificate rebuild then reads the
    /// proof from (about 230 bytes an entry with the map's overhead, measured in
    /// docs/journal/templates-session24.md).
    pub tt_entries: usize,
    /// Most certificate nodes the whole-board engine builds for one template
    /// ([`WholeParams::max_certificate_nodes`]; `--max-certificate-nodes`).
    pub max_certificate_nodes: usize,
    /// Progress lines of the whole-board engine on stderr ([`WholeParams::trace`]).
    pub trace: bool,
    /// The whole-board engine splits the claim by White's first move
    /// ([`WholeParams::split`]; also on with `HEXPROOF_WHOLE_SPLIT=on`).
    pub split: bool,
    /// With the split and [`Engine::Solver`]: the folder where each White first move's
    /// certificate is kept between runs ([`SplitFiles`]; `--split-dir`).
    pub split_dir: Option<PathBuf>,
    /// With the split: seconds each White first move may take before it is left open and the
    /// next is tried ([`WholeParams::split_option_time`]; `--split-option-time`).
    pub split_option_seconds: Option<f64>,
    /// With the split: a White first move with no stored certificate is decided by a second
    /// split after Black's reply ([`WholeParams::split_deep`]; `--split-deep`), its parts kept
    /// under the split folder ([`SplitFiles`]'s nested store).
    pub split_deep: bool,
    /// With the deep split: before the direct attempt ([`WholeParams::split_deep_first`];
    /// `--split-deep-first`).
    pub split_deep_first: bool,
    /// With the split: only these White first moves are tried (cell names on the board the
    /// template is placed on, as the engine's trace and the undecided entry's "open" list
    /// name them; [`WholeParams::split_moves`]; `--split-moves`). Empty: every open move.
    pub split_moves: Vec<String>,
    /// With the deep split: Black's replies its deep step tries first, in this order, before
    /// its usual ones (cell names as for `split_moves`;
    /// [`WholeParams::split_deep_replies`]; `--split-deep-replies`). Empty: the usual ones.
    pub split_deep_replies: Vec<String>,
    /// With the deep split: only these White second moves are tried by its second split
    /// (cell names as for `split_moves`; [`WholeParams::split_deep_moves`];
    /// `--split-deep-moves`). Empty: every open one.
    pub split_deep_moves: Vec<String>,
    /// With the deep split: Black's replies a third-level deep step tries, inside the deep
    /// step's second split ([`WholeParams::split_deeper_replies`]; `--split-deeper-replies`).
    /// Empty: two levels.
    pub split_deeper_replies: Vec<String>,
    /// With [`ImportOptions::split_deeper_replies`]: only these White third moves are tried
    /// ([`WholeParams::split_deeper_moves`]; `--split-deeper-moves`). Empty: every open one.
    pub split_deeper_moves: Vec<String>,
}

impl ImportOptions {
    /// The options' whole-board engine parameters (the defaults but the table and trace).
    pub fn whole_params(&self) -> WholeParams {
        WholeParams {
            tt_entries: self.tt_entries,
            max_certificate_nodes: self.max_certificate_nodes,
            trace: self.trace,
            split: self.split || WholeParams::default().split,
            split_option_time: self
                .split_option_seconds
                .map(|t| std::time::Duration::from_secs_f64(t.clamp(0.0, 1e9))),
            split_deep: self.split_deep || WholeParams::default().split_deep,
            split_deep_first: self.split_deep_first,
            ..WholeParams::default()
        }
    }

    /// What was tried, in words (stored in each entry).
    pub fn describe(&self) -> String {
        match self.engine {
            Engine::Auto => {
                format!(
                    "engine auto (local search {} nodes, then the solver), {} nodes, {} s",
                    self.local_nodes, self.nodes, self.seconds
                ) + &self.placement()
            }
            e => {
                format!(
                    "engine {}, {} nodes, {} s",
                    serde_json::to_value(e)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default(),
                    self.nodes,
                    self.seconds
                ) + &self.placement()
            }
        }
    }

    fn placement(&self) -> String {
        let mut s = String::new();
        if self.engine != Engine::Local && self.tt_entries != WholeParams::default().tt_entries {
            s += &format!(", table {} entries", self.tt_entries);
        }
        let cap = self.max_certificate_nodes;
        if self.engine != Engine::Local && cap != WholeParams::default().max_certificate_nodes {
            s += &format!(", at most {cap} certificate nodes");
        }
        if self.engine != Engine::Local && self.whole_params().split {
            s += ", split by White's first move";
            if let Some(t) = self.split_option_seconds {
                s += &format!(" (at most {t} s each)");
            }
            if self.whole_params().split_deep {
                s += ", a move without a stored certificate split again after Black's reply";
            }
            if self.split_dir.is_some() && self.engine == Engine::Solver {
                s += ", its options kept between runs";
            }
        }
        if self.fitting {
            s += ", fitting board";
        }
        s
    }
}

/// One decided template and what it cost.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The entry (digest set).
    pub entry: Entry,
    /// The engine that answered.
    pub engine: Engine,
    /// Search nodes (both engines).
    pub nodes: u64,
    /// Certificate nodes stored for the published carrier (0 when it does not hold).
    pub certificate_nodes: usize,
    /// With [`ImportOptions::split_dir`]: White first moves whose stored certificate the
    /// kernel accepted, and stored certificates it rejected.
    pub split_loaded: u64,
    /// See [`Imported::split_loaded`].
    pub split_rejected: u64,
    /// With [`ImportOptions::split_dir`]: proved sub-trees of an earlier unfinished rebuild
    /// (`white-<row>-<col>.subparts.json`) the kernel accepted and a rebuild reused, and
    /// those it rejected.
    pub subparts_loaded: u64,
    /// See [`Imported::subparts_loaded`].
    pub subparts_rejected: u64,
}

/// The sources of a collection file (a JSON list).
pub fn parse_sources(text: &str) -> Result<Vec<Source>, serde_json::Error> {
    serde_json::from_str(text)
}

/// The published template on Black's top edge of a 19×19 board, one free column left of its
/// leftmost cell (holes included), or with `fitting` on Black's bottom edge of the smallest
/// square board that holds it (`EdgeTemplate::place_fitting`'s size and offset; the 19×19
/// placement when it does not fit): the sub-game and the board cell of each published cell.
pub fn place(s: &Source, fitting: bool) -> Result<(SubGame, HashMap<Rc, Cell>), EnumerateError> {
    let all = || {
        s.goal_stones
            .iter()
            .chain(&s.helper_stones)
            .chain(&s.carrier)
            .chain(&s.holes)
    };
    let min_c = all().map(|rc| rc[1]).min().unwrap_or(0);
    let max_c = all().map(|rc| rc[1]).max().unwrap_or(0);
    let max_r = all().map(|rc| rc[0]).max().unwrap_or(1);
    let n = (max_c - min_c + 3).max(max_r + 1);
    let (board, border, offset) = if fitting && n <= 19 {
        let board = Board::square(n as u32).expect("size is between 1 and 19");
        (board, Border::Bottom, n - 2 + min_c)
    } else {
        let board = Board::square(19).expect("19 is a board size");
        (board, Border::Top, 1 - min_c)
    };
    let mut at = HashMap::new();
    for &rc in all() {
        let c = EdgeTemplate::cell_at(&board, border, offset, rc)
            .filter(|_| rc[0] >= 1)
            .ok_or(EnumerateError::OffEdge(rc))?;
        at.insert(rc, c);
    }
    let cells = |v: &[Rc]| -> CellSet { v.iter().map(|rc| at[rc]).collect() };
    let stones = cells(&s.goal_stones) | cells(&s.helper_stones);
    let position = Position::new(board, stones, CellSet::EMPTY)
        .map_err(|e| EnumerateError::Template(e.into()))?;
    let edge = Cell::border(border);
    let claim = Claim {
        owner: Colour::Black,
        pairs: s.goal_stones.iter().map(|g| (at[g], edge)).collect(),
        owner_first: false,
    };
    let game = SubGame::new(position, cells(&s.carrier), claim)?;
    Ok((game, at))
}

/// The bounding region of a canonical template: rows 1..=highest row, and the smallest width
/// (with the parity of `row`) holding every cell.
fn bounding_region(row: i32, stones: &[Rc], carrier: &[Rc]) -> Region {
    let cells = || stones.iter().chain(carrier);
    let height = cells().map(|rc| rc[0]).max().unwrap_or(row);
    let mut width = cells()
        .map(|rc| (2 * rc[1] + rc[0] - row).abs() + 1)
        .max()
        .unwrap_or(1);
    if (width - row).rem_euclid(2) != 0 {
        width += 1;
    }
    Region { height, width }
}

/// The record of `s`'s stones on `carrier` (published coordinates, a subset of the published
/// carrier) with `cert` (a certificate on [`place`]'s board whose root uses at most
/// `carrier`), in canonical form, re-verified.
fn record_of(
    s: &Source,
    name: String,
    carrier: &[Rc],
    at: &HashMap<Rc, Cell>,
    cert: &Certificate,
) -> Result<Record, EnumerateError> {
    let c = canonical_goals(&s.goal_stones, &s.helper_stones, carrier);
    // The orientation of the published template that gives the canonical placement, as a
    // map from canonical cells to board cells.
    let target = (
        sorted(c.stones[..c.goals].to_vec()),
        sorted(c.stones[c.goals..].to_vec()),
        c.carrier.clone(),
    );
    let map: HashMap<Rc, Cell> = placements(&s.goal_stones, &s.helper_stones, carrier)
        .into_iter()
        .find(|(.., p)| *p == target)
        .map(|(flip, anchor, _)| {
            s.goal_stones
                .iter()
                .chain(&s.helper_stones)
                .chain(carrier)
                .map(|&x| (orient(x, flip, anchor), at[&x]))
                .collect()
        })
        .unwrap_or_default();
    let cells = |v: &[Rc]| {
        v.iter()
            .map(|rc| map.get(rc).copied())
            .collect::<Option<Vec<_>>>()
    };
    let (Some(stone_cells), Some(carrier_cells)) = (cells(&c.stones), cells(&c.carrier)) else {
        return Err(EnumerateError::NotProved {
            name,
            verdict: Verdict::Undecided,
        });
    };
    let mut rec = Record {
        name,
        row: c.row,
        owner: "edge-owner".into(),
        frame: Frame::Edge,
        claim: if c.goals > 1 {
            ClaimTag::Union
        } else {
            ClaimTag::Vc
        },
        minimality: MinimalityTag::Unknown,
        symmetry: c.symmetry,
        stones: c.stones.clone(),
        goals: c.goals,
        carrier: c.carrier.clone(),
        provenance: Provenance {
            source: format!("published: {} {}", s.set, s.name),
            region: bounding_region(c.row, &c.stones, &c.carrier),
            hexwiki: (s.set == "hexwiki").then(|| s.name.clone()),
        },
        certificate: StoredCert {
            root: 0,
            first: None,
            nodes: Vec::new(),
        },
        digest: String::new(),
    };
    // The stored certificate names the edge as Black's top edge (`-1`), whatever edge the
    // search used (see `place`); the record is re-verified on its canonical board below.
    let mut cert = cert.clone();
    for n in &mut cert.nodes {
        for (a, z) in n.goal.iter_mut().chain(n.either.iter_mut()) {
            for c in [a, z] {
                if *c == Cell::border(Border::Bottom) {
                    *c = Cell::border(Border::Top);
                }
            }
        }
    }
    rec.certificate = encode_certificate_compact(&cert, &carrier_cells, &stone_cells)?;
    rec.digest = rec.compute_digest();
    verify_record(&rec).map_err(|source| EnumerateError::Unverified {
        name: rec.name.clone(),
        source,
    })?;
    Ok(rec)
}

/// The seeded library's record with the same template as `r` (relation `same`), else the one
/// with the smallest carrier strictly inside `r`'s (same stones; `smaller`).
pub fn library_link(r: &Record, library: &[Record]) -> Option<LibraryLink> {
    let same = library
        .iter()
        .find(|l| l.claim == r.claim && l.size() == r.size() && inside(l, r, false));
    let link = |l: &Record, relation: &str| LibraryLink {
        name: l.name.clone(),
        relation: relation.into(),
    };
    same.map(|l| link(l, "same")).or_else(|| {
        library
            .iter()
            .filter(|l| l.claim == r.claim && inside(l, r, true))
            .min_by_key(|l| (l.size(), l.name.clone()))
            .map(|l| link(l, "smaller"))
    })
}

/// The entry of `s` as published, undecided, with `tried` (digest set).
pub fn undecided_entry(s: &Source, tried: String) -> Entry {
    let mut e = Entry {
        collection: s.set.clone(),
        name: s.name.clone(),
        url: s.source.clone(),
        row: s.row,
        goal_stones: s.goal_stones.clone(),
        helper_stones: s.helper_stones.clone(),
        carrier: s.carrier.clone(),
        holes: s.holes.clone(),
        verdict: PublishedVerdict::Undecided,
        library: None,
        record: None,
        minimized: None,
        refutation: None,
        tried,
        digest: String::new(),
    };
    e.digest = e.compute_digest();
    e
}

/// Decides one published template within `opts` and makes its entry (see the module docs).
/// `library` is the seeded library, for the entry's link to it.
pub fn import_one(
    s: &Source,
    library: &[Record],
    opts: &ImportOptions,
) -> Result<Imported, EnumerateError> {
    let (game, at) = place(s, opts.fitting)?;
    let budget = Budget {
        nodes: opts.nodes,
        time: Some(std::time::Duration::from_secs_f64(
            opts.seconds.clamp(0.0, 1e9),
        )),
        ..Budget::default()
    };
    let mut params = opts.whole_params();
    // The cells named by a flag, each a carrier cell of the placed template, else `bad`'s
    // error naming it.
    let carrier_cells = |names: &[String],
                         bad: fn(String, String) -> EnumerateError|
     -> Result<Vec<Cell>, EnumerateError> {
        names
            .iter()
            .map(|m| {
                game.board()
                    .parse_cell(m, crate::board::Notation::Letters)
                    .ok()
                    .filter(|&c| game.carrier().contains(c))
                    .ok_or_else(|| bad(s.name.clone(), m.clone()))
            })
            .collect()
    };
    if !opts.split_moves.is_empty() {
        let cells = carrier_cells(&opts.split_moves, |name, cell| EnumerateError::SplitMove {
            name,
            cell,
        })?;
        params.split_moves = Some(cells.into_iter().collect());
    }
    if !opts.split_deep_moves.is_empty() {
        let cells = carrier_cells(&opts.split_deep_moves, |name, cell| {
            EnumerateError::SplitDeepMove { name, cell }
        })?;
        params.split_deep_moves = Some(cells.into_iter().collect());
    }
    if !opts.split_deep_replies.is_empty() {
        let cells = carrier_cells(&opts.split_deep_replies, |name, cell| {
            EnumerateError::SplitDeepReply { name, cell }
        })?;
        params.split_deep_replies =
            NamedReplies::new(&cells).ok_or(EnumerateError::SplitDeepReplies {
                count: cells.len(),
                most: NamedReplies::MAX,
            })?;
    }
    if !opts.split_deeper_moves.is_empty() {
        let cells = carrier_cells(&opts.split_deeper_moves, |name, cell| {
            EnumerateError::SplitFlagCell {
                flag: "--split-deeper-moves",
                name,
                cell,
            }
        })?;
        params.split_deeper_moves = Some(cells.into_iter().collect());
    }
    if !opts.split_deeper_replies.is_empty() {
        let cells = carrier_cells(&opts.split_deeper_replies, |name, cell| {
            EnumerateError::SplitFlagCell {
                flag: "--split-deeper-replies",
                name,
                cell,
            }
        })?;
        params.split_deeper_replies =
            NamedReplies::new(&cells).ok_or(EnumerateError::SplitFlagCount {
                flag: "--split-deeper-replies",
                count: cells.len(),
                most: NamedReplies::MAX,
            })?;
    }
    let eo = match &opts.split_dir {
        Some(dir) if params.split && opts.engine == Engine::Solver && encode(&game).is_ok() => {
            let mut files = SplitFiles::new(dir, s, opts.fitting, &game, &at);
            let (o, r) = decide_split_with(&game, &budget, &params, &mut files);
            for e in &files.errors {
                eprintln!("{}: {e}", s.name);
            }
            crate::engine::whole::EngineOutcome {
                outcome: o,
                decided_by: Engine::Solver,
                whole: Some(r),
            }
        }
        _ => decide_engine(&game, &budget, opts.engine, opts.local_nodes, &params)?,
    };
    let o = &eo.outcome;
    let mut entry = undecided_entry(s, opts.describe());
    let mut certificate_nodes = 0;
    match (o.verdict, &o.certificate) {
        (Verdict::Holds, Some(cert)) => {
            let small = cert_shrink::shrink(&game, cert);
            let cert =
                if kernel::check(&game, &small).is_ok() && small.nodes.len() <= cert.nodes.len() {
                    small
                } else {
                    cert.clone()
                };
            let used = cert.nodes[cert.root as usize].carrier;
            // The published carrier: the root widened to every published cell.
            let mut wide = cert.clone();
            wide.nodes[wide.root as usize].carrier = game.carrier();
            kernel::check(&game, &wide).map_err(|e| EnumerateError::Unverified {
                name: s.name.clone(),
                source: crate::templates::TemplateError::Kernel(e),
            })?;
            let rec = record_of(s, s.name.clone(), &s.carrier, &at, &wide)?;
            certificate_nodes = rec.certificate.nodes.len();
            if used != game.carrier() {
                let cells: Vec<Rc> = s
                    .carrier
                    .iter()
                    .copied()
                    .filter(|rc| used.contains(at[rc]))
                    .collect();
                let mut m = record_of(s, format!("{} (minimized)", s.name), &cells, &at, &cert)?;
                m.provenance.source =
                    format!("published: {} {}, the cells its proof uses", s.set, s.name);
                m.digest = m.compute_digest();
                entry.minimized = Some(m);
            }
            entry.library = library_link(&rec, library);
            entry.record = Some(rec);
            entry.verdict = PublishedVerdict::Holds;
            entry.tried = format!(
                "{}: held, decided by {}",
                opts.describe(),
                engine_name(eo.decided_by)
            );
        }
        (Verdict::Fails, _) => {
            let back: HashMap<Cell, Rc> = at.iter().map(|(&rc, &c)| (c, rc)).collect();
            entry.refutation = Some(
                o.refutation
                    .iter()
                    .map(|m| LineMove {
                        colour: m.colour.name().to_string(),
                        cell: back.get(&m.cell).copied().unwrap_or([0, 0]),
                    })
                    .collect(),
            );
            entry.verdict = PublishedVerdict::Fails;
            entry.tried = format!(
                "{}: failed, decided by {}",
                opts.describe(),
                engine_name(eo.decided_by)
            );
        }
        _ => {
            let why = eo
                .whole
                .as_ref()
                .and_then(|w| w.failure.clone().or(w.not_applicable.clone()))
                .unwrap_or_else(|| "budget spent".into());
            entry.tried = format!(
                "{}: undecided ({why}; {} nodes)",
                opts.describe(),
                o.stats.nodes
            );
        }
    }
    entry.digest = entry.compute_digest();
    let split = |f: fn(&crate::engine::whole::WholeReport) -> u64| eo.whole.as_ref().map_or(0, f);
    Ok(Imported {
        entry,
        engine: eo.decided_by,
        nodes: o.stats.nodes,
        certificate_nodes,
        split_loaded: split(|w| w.split_loaded),
        split_rejected: split(|w| w.split_rejected),
        subparts_loaded: split(|w| w.subparts_loaded),
        subparts_rejected: split(|w| w.subparts_rejected),
    })
}

/// The split's certificates of one published template kept in files (issue 28; a
/// [`SplitStore`]): `DIR/<name>/white-<row>-<col>.json` (`:` in the name as `_`), one file per White first
/// move (published coordinates), holding the template's name, the placement, the White move
/// and the certificate of the claim after it (packed as in `templates/published.json`, its
/// cells as indices into the published carrier and stones, the edge as `-1`). Nothing read is
/// trusted: a file that does not parse or belongs to another template or placement is
/// ignored (and reported), and every certificate read is checked by the kernel by the split
/// before it is used.
pub struct SplitFiles {
    dir: PathBuf,
    template: String,
    placement: &'static str,
    carrier: Vec<Cell>,
    stones: Vec<Cell>,
    edge: Cell,
    at: HashMap<Rc, Cell>,
    /// What went wrong reading or writing (the split goes on without the file).
    pub errors: Vec<String>,
    /// A nested store ([`SplitStore::nested`]) prints its errors on stderr at once (nobody
    /// reads its `errors`).
    echo: bool,
    /// A nested store's parent (its folder and template key) and the sequence (White's `w`,
    /// Black's `b`): a White second move `v` with no file of its own is read from the
    /// parent's file of `v` when that one starts with `b` ([`answer_after`], a transposition).
    parent: Option<(PathBuf, String, Cell, Cell)>,
}

impl SplitFiles {
    /// The files of template `s` under `dir`, placed as [`place`] with `fitting` gives `game`
    /// and `at`.
    pub fn new(
        dir: &Path,
        s: &Source,
        fitting: bool,
        game: &SubGame,
        at: &HashMap<Rc, Cell>,
    ) -> SplitFiles {
        let safe: String = s
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        SplitFiles {
            dir: dir.join(safe),
            template: format!("{}:{}", s.set, s.name),
            placement: if fitting { "fitting" } else { "wide" },
            carrier: s.carrier.iter().map(|rc| at[rc]).collect(),
            stones: s
                .goal_stones
                .iter()
                .chain(&s.helper_stones)
                .map(|rc| at[rc])
                .collect(),
            edge: game
                .claim()
                .pairs
                .first()
                .map_or(Cell::border(Border::Top), |p| p.1),
            at: at.clone(),
            errors: Vec::new(),
            echo: false,
            parent: None,
        }
    }

    /// The published coordinates of cell `c`.
    fn rc(&self, c: Cell) -> Option<Rc> {
        self.at.iter().find(|(_, &x)| x == c).map(|(rc, _)| *rc)
    }

    /// The store of the deep split after White's `w` and Black's `b`:
    /// `DIR/<name>/white-<row>-<col>-black-<row>-<col>/white-<row>-<col>.json` (one file per
    /// White second move), the template key naming the two moves, so a file of one sequence
    /// is not read for another.
    pub fn deeper(&self, w: Cell, b: Cell) -> Option<SplitFiles> {
        let (rw, rb) = (self.rc(w)?, self.rc(b)?);
        Some(SplitFiles {
            dir: self.dir.join(format!(
                "white-{}-{}-black-{}-{}",
                rw[0], rw[1], rb[0], rb[1]
            )),
            template: format!(
                "{} after White {},{} Black {},{}",
                self.template, rw[0], rw[1], rb[0], rb[1]
            ),
            placement: self.placement,
            carrier: self.carrier.clone(),
            stones: self.stones.clone(),
            edge: self.edge,
            at: self.at.clone(),
            errors: Vec::new(),
            echo: true,
            parent: Some((self.dir.clone(), self.template.clone(), w, b)),
        })
    }

    /// Black's replies after White's `w` with a [`SplitFiles::deeper`] folder holding part
    /// files, the most files first (ties by cell): what a deep step resumes.
    pub fn stored_replies(&self, w: Cell) -> Vec<Cell> {
        let Some(rw) = self.rc(w) else {
            return Vec::new();
        };
        let prefix = format!("white-{}-{}-black-", rw[0], rw[1]);
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut v: Vec<(usize, Cell)> = Vec::new();
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(rest) = name.strip_prefix(&prefix) else {
                continue;
            };
            // `<row>-<col>`: the row is positive, the column may be negative.
            let Some((r, c)) = rest.split_once('-') else {
                continue;
            };
            let (Ok(r), Ok(c)) = (r.parse::<i32>(), c.parse::<i32>()) else {
                continue;
            };
            let Some(&b) = self.at.get(&[r, c]) else {
                continue;
            };
            let files = std::fs::read_dir(e.path()).map_or(0, |d| {
                d.flatten()
                    .filter(|f| f.path().extension().is_some_and(|x| x == "json"))
                    .count()
            });
            if files > 0 {
                v.push((files, b));
            }
        }
        v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.index().cmp(&b.1.index())));
        v.into_iter().map(|(_, b)| b).collect()
    }

    /// The file of White's move `w`.
    pub fn path(&self, w: Cell) -> Option<PathBuf> {
        let rc = self.at.iter().find(|(_, &c)| c == w)?.0;
        Some(self.dir.join(format!("white-{}-{}.json", rc[0], rc[1])))
    }

    fn read(&self, w: Cell) -> Result<Option<Certificate>, String> {
        self.read_in(&self.dir, &self.template, w)
    }

    /// The certificate of White's `w` in folder `dir` under the template key `template`.
    fn read_in(&self, dir: &Path, template: &str, w: Cell) -> Result<Option<Certificate>, String> {
        let Some(rc) = self.rc(w) else {
            return Ok(None);
        };
        let path = dir.join(format!("white-{}-{}.json", rc[0], rc[1]));
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let f: SplitFile =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if f.template != template || f.placement != self.placement || f.white != rc {
            return Err(format!(
                "{}: the file of another template, placement or White move",
                path.display()
            ));
        }
        self.unpack(&f.certificate)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// A stored certificate read back: published cells to cells, the stored edge to the
    /// claim's.
    fn unpack(&self, stored: &StoredCert) -> Result<Certificate, String> {
        let mut cert =
            decode_certificate(stored, &self.carrier, &self.stones).map_err(|e| e.to_string())?;
        for n in &mut cert.nodes {
            let pairs = n.goal.iter_mut().chain(n.either.iter_mut());
            for (a, z) in pairs.chain(n.with.iter_mut().flatten()) {
                for c in [a, z] {
                    if *c == Cell::border(Border::Top) {
                        *c = self.edge;
                    }
                }
            }
        }
        Ok(cert)
    }

    fn write(&self, w: Cell, cert: &Certificate) -> Result<(), String> {
        let Some(path) = self.path(w) else {
            return Err(format!("White's move {w:?} is not a published cell"));
        };
        let certificate = self.pack(cert)?;
        let white = self.at.iter().find(|(_, &x)| x == w).map(|(rc, _)| *rc);
        let text = serde_json::to_string(&serde_json::json!({
            "template": self.template,
            "placement": self.placement,
            "white": white,
            "certificate_nodes": cert.nodes.len(),
            "certificate": certificate,
        }))
        .map_err(|e| e.to_string())?;
        self.put(&path, text)
    }

    /// Writes `text` to `path` (through a temporary file and a rename, so a file is whole or
    /// absent).
    fn put(&self, path: &Path, text: String) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let tmp = path.with_extension("json.part");
        std::fs::write(&tmp, text + "\n").map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// `cert` as stored: the claim's edge as the top edge, cells as published indices,
    /// nodes packed.
    fn pack(&self, cert: &Certificate) -> Result<serde_json::Value, String> {
        let mut c = cert.clone();
        for n in &mut c.nodes {
            for (a, z) in n.goal.iter_mut().chain(n.either.iter_mut()) {
                for x in [a, z] {
                    if *x == self.edge {
                        *x = Cell::border(Border::Top);
                    }
                }
            }
        }
        let sc = encode_certificate_compact(&c, &self.carrier, &self.stones)
            .map_err(|e| e.to_string())?;
        Ok(match pack_nodes(&sc.nodes) {
            Some(p) => serde_json::json!({"root": sc.root, "first": sc.first, "packed": p}),
            None => serde_json::to_value(&sc).map_err(|e| e.to_string())?,
        })
    }

    /// The file of the sub-parts kept after White's move `w` ([`SplitStore::save_subparts`]):
    /// `white-<row>-<col>.subparts.json` next to the move's certificate file.
    pub fn subparts_path(&self, w: Cell) -> Option<PathBuf> {
        let rc = self.rc(w)?;
        Some(
            self.dir
                .join(format!("white-{}-{}.subparts.json", rc[0], rc[1])),
        )
    }

    fn read_subparts(&self, w: Cell) -> Result<Vec<SubPart>, String> {
        let Some(path) = self.subparts_path(w) else {
            return Ok(Vec::new());
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let at = |e: String| format!("{}: {e}", path.display());
        let f: SubPartsFile = serde_json::from_str(&text).map_err(|e| at(e.to_string()))?;
        if f.template != self.template
            || f.placement != self.placement
            || Some(f.white) != self.rc(w)
        {
            return Err(format!(
                "{}: the file of another template, placement or White move",
                path.display()
            ));
        }
        let cells = |v: &[Rc]| -> Result<CellSet, String> {
            v.iter()
                .map(|rc| {
                    self.at
                        .get(rc)
                        .copied()
                        .ok_or_else(|| at(format!("cell {rc:?}")))
                })
                .collect()
        };
        f.subparts
            .iter()
            .map(|p| {
                Ok(SubPart {
                    black: cells(&p.black)?,
                    white: cells(&p.white)?,
                    cert: self.unpack(&p.certificate).map_err(at)?,
                })
            })
            .collect()
    }

    fn write_subparts(&self, w: Cell, parts: &[SubPart]) -> Result<(), String> {
        let Some(path) = self.subparts_path(w) else {
            return Err(format!("White's move {w:?} is not a published cell"));
        };
        if parts.is_empty() {
            return match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(format!("{}: {e}", path.display()))
                }
                _ => Ok(()),
            };
        }
        let rcs = |s: CellSet| -> Vec<Option<Rc>> { s.iter().map(|c| self.rc(c)).collect() };
        let mut list = Vec::with_capacity(parts.len());
        for p in parts {
            list.push(serde_json::json!({
                "black": rcs(p.black),
                "white": rcs(p.white),
                "certificate": self.pack(&p.cert)?,
            }));
        }
        let text = serde_json::to_string(&serde_json::json!({
            "template": self.template,
            "placement": self.placement,
            "white": self.rc(w),
            "certificate_nodes": parts.iter().map(|p| p.cert.nodes.len()).sum::<usize>(),
            "subparts": list,
        }))
        .map_err(|e| e.to_string())?;
        self.put(&path, text)
    }
}

/// The file of [`SplitFiles::write_subparts`] as read.
#[derive(Deserialize)]
struct SubPartsFile {
    template: String,
    placement: String,
    white: Rc,
    subparts: Vec<StoredSubPart>,
}

/// One sub-part of a [`SubPartsFile`]: the added stones (published cells) and the certificate.
#[derive(Deserialize)]
struct StoredSubPart {
    black: Vec<Rc>,
    white: Vec<Rc>,
    certificate: StoredCert,
}

impl SplitFiles {
    fn error(&mut self, e: String) {
        if self.echo {
            eprintln!("{}: {e}", self.template);
        } else {
            self.errors.push(e);
        }
    }
}

/// One file of [`SplitFiles`] as read.
#[derive(Deserialize)]
struct SplitFile {
    template: String,
    placement: String,
    white: Rc,
    certificate: StoredCert,
}

impl SplitStore for SplitFiles {
    fn load(&mut self, w: Cell) -> Option<Certificate> {
        let own = self.read(w).unwrap_or_else(|e| {
            self.error(e);
            None
        });
        if own.is_some() {
            return own;
        }
        // A transposition: the parent's certificate after White's `w` may start with this
        // store's Black reply and answer its White move (checked by the kernel by the split,
        // as every certificate loaded).
        let (dir, template, pw, pb) = self.parent.clone()?;
        let cert = self.read_in(&dir, &template, w).ok()??;
        let cut = answer_after(&cert, pb, pw)?;
        let rc = self.rc(w).unwrap_or_default();
        eprintln!(
            "{}: White {},{}: cut out of {}/white-{}-{}.json ({} of its {} certificate nodes)",
            self.template,
            rc[0],
            rc[1],
            dir.display(),
            rc[0],
            rc[1],
            cut.nodes.len(),
            cert.nodes.len()
        );
        Some(cut)
    }

    fn save(&mut self, w: Cell, cert: &Certificate) {
        if let Err(e) = self.write(w, cert) {
            self.error(e);
        }
    }

    fn nested(&mut self, w: Cell, b: Cell) -> Option<Box<dyn SplitStore>> {
        self.deeper(w, b)
            .map(|f| Box::new(f) as Box<dyn SplitStore>)
    }
    fn stored_replies(&self, w: Cell) -> Vec<Cell> {
        SplitFiles::stored_replies(self, w)
    }

    fn load_subparts(&mut self, w: Cell) -> Vec<SubPart> {
        self.read_subparts(w).unwrap_or_else(|e| {
            self.error(e);
            Vec::new()
        })
    }

    fn save_subparts(&mut self, w: Cell, parts: &[SubPart]) {
        if let Err(e) = self.write_subparts(w, parts) {
            self.error(e);
        }
    }
}

fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Local => "the local search",
        Engine::Solver => "the solver",
        Engine::Auto => "auto",
    }
}
