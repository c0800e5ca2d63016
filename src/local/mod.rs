//! Deciding a claim exactly: search, certificate extraction, kernel check.
//!
//! [`decide`] runs the exact local search ([`solver`]) within a [`Budget`]. A win is turned
//! into a [`Certificate`] (an or-node DAG, see [`crate::kernel`]) and handed to the kernel; the
//! verdict is [`Verdict::Holds`] only when the kernel accepted it. A loss comes with the
//! opponent's refuting line. Running out of budget gives [`Verdict::Undecided`].

pub mod cells;
pub mod derived;
pub mod minimax;
mod minimize;
pub mod oracle;

pub use minimize::{minimize, minimize_with, Minimality, MinimizeReport, MAX_SUBSETS};
pub use oracle::OracleParams;

use crate::board::{Cell, CellSet, Colour};
use crate::claim::{ClaimError, SubGame};
use crate::kernel::{self, Certificate, KernelError, Node, NodeId, NodeKind, Reply, Verified};
use cells::{bits, Local, Set};
use hashbrown::HashMap;
use minimax::{Limits, Res, Solver, NONE};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How much work a search may do before answering "undecided".
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Maximum search nodes.
    pub nodes: u64,
    /// Maximum wall time.
    pub time: Option<Duration>,
    /// Maximum transposition-table entries (about 64 bytes each).
    pub max_entries: usize,
    /// A stop flag another thread may set: the search (and the certificate building after
    /// it) stops as soon as it sees the flag, as if its time had run out (the player's
    /// solver thread, cancelled when its move is due).
    pub stop: Option<StopFlag>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            nodes: 200_000_000,
            time: Some(Duration::from_secs(600)),
            max_entries: 30_000_000,
            stop: None,
        }
    }
}

impl Budget {
    /// A budget of `nodes` nodes and no time limit.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            nodes,
            time: None,
            ..Budget::default()
        }
    }
}

/// A stop flag for a search ([`Budget::stop`]): `Copy` like the budget, valid while the
/// [`Stop`] it came from lives.
#[derive(Clone, Copy, Debug)]
pub struct StopFlag(&'static AtomicBool);

impl StopFlag {
    /// True once the owner has asked the search to stop.
    pub fn is_set(self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Stop flags not in use (a flag is `'static` so that budgets stay `Copy`; flags are reused,
/// so at most as many exist as searches ever ran at once).
static STOP_POOL: Mutex<Vec<&'static AtomicBool>> = Mutex::new(Vec::new());

/// The owner of a stop flag: [`Stop::set`] stops every search whose budget carries
/// [`Stop::flag`]. Share it (e.g. in an `Arc`) between the thread that searches and the one
/// that cancels; the flag goes back to the pool, cleared, when the owner is dropped.
#[derive(Debug)]
pub struct Stop(&'static AtomicBool);

impl Stop {
    /// A cleared flag.
    pub fn new() -> Stop {
        let pooled = STOP_POOL.lock().ok().and_then(|mut p| p.pop());
        Stop(pooled.unwrap_or_else(|| Box::leak(Box::new(AtomicBool::new(false)))))
    }

    /// The flag to put in a [`Budget`].
    pub fn flag(&self) -> StopFlag {
        StopFlag(self.0)
    }

    /// Asks the searches to stop.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`Stop::set`] was called.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl Default for Stop {
    fn default() -> Self {
        Stop::new()
    }
}

impl Drop for Stop {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
        if let Ok(mut p) = STOP_POOL.lock() {
            p.push(self.0);
        }
    }
}

/// The answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The claim holds and the kernel accepted the certificate.
    Holds,
    /// The claim is false.
    Fails,
    /// The budget ran out (or, never expected, the kernel rejected the search's certificate).
    Undecided,
}

/// Work done.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Stats {
    /// Search nodes.
    pub nodes: u64,
    /// Transposition-table entries at the end.
    pub tt_entries: usize,
    /// Certificate nodes.
    pub certificate_nodes: usize,
    /// Wall time in microseconds.
    pub micros: u128,
    /// Connection-engine builds of the oracle (rule 9), this search only.
    pub oracle_calls: u64,
    /// Owner-to-move nodes won by the engine's key move (rule 10), this search only.
    pub oracle_keys: u64,
    /// Child searches stopped by a node budget of rule 11 (and resumed later).
    pub widen_stops: u64,
}

/// A move of a refuting line.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct Move {
    /// Who plays.
    pub colour: Colour,
    /// Where.
    pub cell: Cell,
}

/// The outcome of [`decide`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Holds, fails or undecided.
    pub verdict: Verdict,
    /// The owner's strategy (when it holds).
    pub certificate: Option<Certificate>,
    /// The kernel's acceptance (when it holds).
    pub verified: Option<Verified>,
    /// The opponent's refuting line (when it fails): moves alternate, starting with the
    /// player who moves first; it ends when the owner can no longer join any pair.
    pub refutation: Vec<Move>,
    /// Work done.
    pub stats: Stats,
    /// Set if the kernel rejected the search's certificate (a bug in the search).
    pub kernel_error: Option<KernelError>,
    /// The proof set of the win: the carrier cells the strategy uses.
    pub proof_set: CellSet,
}

impl Outcome {
    /// Nothing decided yet: the start of every engine's outcome.
    pub fn undecided() -> Outcome {
        Outcome {
            verdict: Verdict::Undecided,
            certificate: None,
            verified: None,
            refutation: Vec::new(),
            stats: Stats::default(),
            kernel_error: None,
            proof_set: CellSet::EMPTY,
        }
    }
}

fn limits(budget: &Budget, start: Instant) -> Limits {
    Limits {
        nodes: budget.nodes,
        deadline: budget.time.map(|t| start + t),
        max_entries: budget.max_entries,
        stop: budget.stop,
    }
}

/// Decides the sub-game's claim exactly, within `budget` (with the default
/// [`OracleParams`]).
pub fn decide(game: &SubGame, budget: &Budget) -> Result<Outcome, ClaimError> {
    decide_with(game, budget, &OracleParams::default())
}

/// [`decide`] with explicit parameters of the VC-engine oracle (rule 9 of [`solver`]).
///
/// With rule 9 on for this sub-game and [`OracleParams::first_nodes`] below the budget, the
/// search with the oracle gets only that many nodes; if it is still undecided, it restarts
/// without the oracle ([`OracleParams::OFF`]) on the rest of the budget. Measured: the oracle
/// settles some claims (V1a) in a few hundred nodes and costs others (IV1c) several times the
/// nodes of the plain search; the restart bounds that cost. Both phases count nodes, so the
/// answer within a node budget does not depend on the machine's load.
pub fn decide_with(
    game: &SubGame,
    budget: &Budget,
    params: &OracleParams,
) -> Result<Outcome, ClaimError> {
    let start = Instant::now();
    let oracle_on = oracle::Oracle::new(game, params).is_some();
    if !oracle_on || params.first_nodes >= budget.nodes {
        return decide_once(game, budget, params, start);
    }
    let first = Budget {
        nodes: params.first_nodes,
        ..*budget
    };
    let o = decide_once(game, &first, params, start)?;
    if o.verdict != Verdict::Undecided || o.kernel_error.is_some() {
        return Ok(o);
    }
    let rest = Budget {
        nodes: budget.nodes.saturating_sub(o.stats.nodes),
        ..*budget
    };
    let off = OracleParams {
        widen_plies: params.widen_plies,
        widen_first: params.widen_first,
        widen_opp: params.widen_opp,
        widen_skip: params.widen_skip,
        ..OracleParams::OFF
    };
    let mut o2 = decide_once(game, &rest, &off, start)?;
    o2.stats.nodes += o.stats.nodes;
    o2.stats.oracle_calls += o.stats.oracle_calls;
    o2.stats.oracle_keys += o.stats.oracle_keys;
    o2.stats.widen_stops += o.stats.widen_stops;
    Ok(o2)
}

/// One search of [`decide_with`] with fixed oracle parameters.
fn decide_once(
    game: &SubGame,
    budget: &Budget,
    params: &OracleParams,
    start: Instant,
) -> Result<Outcome, ClaimError> {
    let g = Local::new(game)?;
    let owner = game.claim().owner;
    let mut solver = Solver::new(&g, limits(budget, start));
    solver.oracle = oracle::Oracle::new(game, params);
    if params.widen_plies > 0 {
        solver.widen_min_empty = (g.n as u32 + 1).saturating_sub(params.widen_plies);
        solver.widen_first = params.widen_first.max(1);
        solver.widen_opp = params.widen_opp;
        solver.widen_max_empty = (g.n as u32).saturating_sub(params.widen_skip);
    }
    let owner_first = game.claim().owner_first;
    let res = if g.joined_at_start {
        Res::Win(0)
    } else if owner_first {
        solver.owner_to_move(0, 0, NONE)
    } else {
        solver.opp_to_move(0, 0, NONE)
    };
    let mut outcome = Outcome::undecided();
    match res {
        Res::Unknown | Res::Shallow => {}
        Res::Loss(_) => {
            outcome.verdict = Verdict::Fails;
            outcome.refutation = refuting_line(&mut solver, owner, owner_first);
        }
        Res::Win(_) => {
            let mut builder = Builder {
                solver: &mut solver,
                nodes: Vec::new(),
                memo: HashMap::new(),
                game,
                budget,
                start,
                template_memo: HashMap::new(),
                sub_memo: HashMap::new(),
                params,
            };
            let cert = if owner_first && !g.joined_at_start {
                builder.semi_root()
            } else {
                builder.opp_node(0, 0).map(|root| (None, root))
            };
            if let Some((first, root)) = cert {
                let cert = Certificate {
                    nodes: builder.nodes,
                    first,
                    root,
                };
                outcome.stats.certificate_nodes = cert.nodes.len();
                let root_node = &cert.nodes[root as usize];
                outcome.proof_set =
                    root_node.carrier | first.map_or(CellSet::EMPTY, CellSet::single);
                match kernel::check(game, &cert) {
                    Ok(v) => {
                        outcome.verdict = Verdict::Holds;
                        outcome.verified = Some(v);
                    }
                    Err(e) => outcome.kernel_error = Some(e),
                }
                outcome.certificate = Some(cert);
            }
        }
    }
    outcome.stats.nodes = solver.nodes;
    outcome.stats.tt_entries = solver.tt_len();
    outcome.stats.oracle_calls = solver.oracle.as_ref().map_or(0, |o| o.calls);
    outcome.stats.oracle_keys = solver.oracle_keys;
    outcome.stats.widen_stops = solver.widen_stops;
    outcome.stats.micros = start.elapsed().as_micros();
    Ok(outcome)
}

/// Opponent cells after the owner's move at (b, w): dead cells are filled for the opponent,
/// exactly as [`Solver::owner_to_move`] does before recursing.
fn owner_child_w(solver: &Solver, b: Set, w: Set) -> Set {
    let e = solver.g.all & !b & !w;
    w | (e & !solver.useful(b, e))
}

struct Builder<'s, 'g> {
    solver: &'s mut Solver<'g>,
    nodes: Vec<Node>,
    memo: HashMap<(Set, Set), NodeId>,
    game: &'s SubGame,
    budget: &'s Budget,
    start: Instant,
    /// Spliced template certificates, by (anchor cell, template carrier).
    template_memo: HashMap<(Cell, Set), NodeId>,
    /// Spliced certificates of the oracle's connections, by (owner cells, carrier, semi):
    /// the first move (semi) and the root.
    sub_memo: HashMap<(Set, Set, bool), (Option<Cell>, NodeId)>,
    params: &'s OracleParams,
}

impl Builder<'_, '_> {
    fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }

    /// An and-node for a chain of bridges and edge templates (rule 6 of the solver), or
    /// `None` if a template's own certificate cannot be made within the budget.
    fn chain_node(&mut self, b: Set, chain: &minimax::Chain) -> Option<NodeId> {
        let g = self.solver.g;
        let stones = g.to_cells(b);
        let rep = |x: u8| -> Cell {
            let cells = chain.comp_cells[x as usize];
            if cells != 0 {
                g.cells[cells.trailing_zeros() as usize]
            } else {
                g.group_rep[chain.comp_groups[x as usize].trailing_zeros() as usize]
            }
        };
        if chain.steps.is_empty() {
            return Some(self.push(Node {
                stones,
                carrier: CellSet::EMPTY,
                goal: None,
                either: Vec::new(),
                with: Vec::new(),
                kind: NodeKind::Joined,
            }));
        }
        let mut children = Vec::with_capacity(chain.steps.len());
        let mut carrier = CellSet::EMPTY;
        for step in &chain.steps {
            let cells = g.to_cells(step.carrier);
            carrier |= cells;
            let child = match step.link {
                minimax::Link::Template(ti) => {
                    let t = g.templates[ti as usize];
                    let (anchor, played) = match t.anchor {
                        cells::Anchor::Cell(i) => (g.cells[i], true),
                        cells::Anchor::Group(h) => (g.group_rep[h as usize], false),
                    };
                    let border = g.group_rep[t.border as usize];
                    self.template_node(anchor, played, border, t.carrier)?
                }
                _ => {
                    let goal = Some((rep(step.from), rep(step.to)));
                    let mut options = Vec::new();
                    for c in bits(step.carrier) {
                        let next = self.push(Node {
                            stones: stones | CellSet::single(g.cells[c]),
                            carrier: CellSet::EMPTY,
                            goal,
                            either: Vec::new(),
                            with: Vec::new(),
                            kind: NodeKind::Joined,
                        });
                        options.push(Reply {
                            reply: g.cells[c],
                            next,
                        });
                    }
                    self.push(Node {
                        stones,
                        carrier: cells,
                        goal,
                        either: Vec::new(),
                        with: Vec::new(),
                        kind: NodeKind::Or(options),
                    })
                }
            };
            children.push(child);
        }
        Some(self.push(Node {
            stones,
            carrier,
            goal: None,
            either: Vec::new(),
            with: Vec::new(),
            kind: NodeKind::And(children),
        }))
    }

    /// The certificate of an edge template `anchor − border` on `carrier`, proved by its own
    /// search and spliced in with that single goal.
    fn template_node(
        &mut self,
        anchor: Cell,
        played: bool,
        border: Cell,
        carrier: Set,
    ) -> Option<NodeId> {
        if let Some(&id) = self.template_memo.get(&(anchor, carrier)) {
            return Some(id);
        }
        let g = self.solver.g;
        let owner = self.game.claim().owner;
        let mut position = self.game.position().clone();
        if played {
            position.play(owner, anchor).ok()?;
        }
        let claim = crate::claim::Claim {
            owner,
            pairs: vec![(anchor, border)],
            owner_first: false,
        };
        let sub = SubGame::new(position, g.to_cells(carrier), claim).ok()?;
        let mut budget = *self.budget;
        budget.time = budget.time.map(|t| t.saturating_sub(self.start.elapsed()));
        let outcome = decide_with(&sub, &budget, self.params).ok()?;
        let cert = outcome
            .certificate
            .filter(|_| outcome.verdict == Verdict::Holds)?;
        let extra = if played {
            CellSet::single(anchor)
        } else {
            CellSet::EMPTY
        };
        let id = self.splice(cert, extra, Some((anchor, border)));
        self.template_memo.insert((anchor, carrier), id);
        Some(id)
    }

    /// Appends a certificate's nodes, adding `extra` owner stones to each and giving goal-less
    /// nodes the goal `goal` (if any); returns the new index of its root.
    fn splice(&mut self, cert: Certificate, extra: CellSet, goal: Option<(Cell, Cell)>) -> NodeId {
        let offset = self.nodes.len() as NodeId;
        for node in cert.nodes {
            let kind = node.kind.shifted(offset);
            self.nodes.push(Node {
                stones: node.stones | extra,
                carrier: node.carrier,
                goal: node.goal.or(goal),
                either: Vec::new(),
                with: Vec::new(),
                kind,
            });
        }
        cert.root + offset
    }

    /// Rule 9's certificates: the claim on the smaller carrier `carrier` with the owner
    /// holding `b` (opponent first, or the owner first when `semi`), decided by its own
    /// search and spliced in. The engine that found the connection is not trusted: only
    /// this search's kernel-checkable strategy is used.
    fn sub_connection(
        &mut self,
        b: Set,
        carrier: Set,
        semi: bool,
    ) -> Option<(Option<Cell>, NodeId)> {
        if let Some(&r) = self.sub_memo.get(&(b, carrier, semi)) {
            return Some(r);
        }
        let g = self.solver.g;
        let owner = self.game.claim().owner;
        let mut position = self.game.position().clone();
        for c in bits(b) {
            position.play(owner, g.cells[c]).ok()?;
        }
        let claim = crate::claim::Claim {
            owner_first: semi,
            ..self.game.claim().clone()
        };
        let sub = SubGame::new(position, g.to_cells(carrier), claim).ok()?;
        let mut budget = *self.budget;
        budget.time = budget.time.map(|t| t.saturating_sub(self.start.elapsed()));
        let params = OracleParams {
            min_carrier: self.params.min_carrier.min(self.params.sub_min_carrier),
            ..*self.params
        };
        let outcome = decide_with(&sub, &budget, &params).ok()?;
        let cert = outcome
            .certificate
            .filter(|_| outcome.verdict == Verdict::Holds)?;
        let first = cert.first;
        let root = self.splice(cert, g.to_cells(b), None);
        self.sub_memo.insert((b, carrier, semi), (first, root));
        Some((first, root))
    }

    /// The owner's winning reply at (b, w), searching again if the table lost it.
    fn winning_reply(&mut self, b: Set, w: Set) -> Option<usize> {
        match self.solver.owner_to_move(b, w, NONE) {
            Res::Win(_) => {}
            _ => return None,
        }
        let mv = self.solver.owner_move(b, w);
        if mv == NONE {
            // Joined already, or the entry was evicted: any cell will do if joined.
            return None;
        }
        Some(mv as usize)
    }

    /// The owner's winning reply at the owner-to-move position (b, w) and the node that takes
    /// over after it.
    fn owner_option(&mut self, b: Set, w: Set) -> Option<(usize, NodeId)> {
        if let Some(r) = self.winning_reply(b, w) {
            let next = self.opp_node(b | 1 << r, owner_child_w(self.solver, b, w))?;
            return Some((r, next));
        }
        // Won without a stored move: by a connection of the oracle (rule 9), proved here by
        // its own search.
        let g = self.solver.g;
        let ans = self.solver.oracle_at(b, w)?;
        let (first, root) = match ans.vc {
            Some(c) => (None, self.sub_connection(b, c, false)?.1),
            None if self.params.owner_semis => {
                let s = ans.semis.iter().copied().min_by_key(|s| s.count_ones())?;
                self.sub_connection(b, s, true)?
            }
            None => return None,
        };
        let r = match first {
            Some(c) => g.from_cells(&CellSet::single(c)).trailing_zeros() as usize,
            None => {
                // Any other empty cell: an extra stone never hurts.
                let used = g.from_cells(&self.nodes[root as usize].carrier);
                bits(g.all & !b & !w & !used).next()?
            }
        };
        Some((r, root))
    }

    fn semi_root(&mut self) -> Option<(Option<Cell>, NodeId)> {
        let (r, root) = self.owner_option(0, 0)?;
        Some((Some(self.solver.g.cells[r]), root))
    }

    /// The certificate node for an opponent-to-move position the search proved won.
    fn opp_node(&mut self, b: Set, w: Set) -> Option<NodeId> {
        if let Some(&id) = self.memo.get(&(b, w)) {
            return Some(id);
        }
        let g = self.solver.g;
        let e = g.all & !b & !w;
        let id = if g.joined(b) {
            self.push(Node {
                stones: g.to_cells(b),
                carrier: CellSet::EMPTY,
                goal: None,
                either: Vec::new(),
                with: Vec::new(),
                kind: NodeKind::Joined,
            })
        } else if let Some(id) = self
            .solver
            .chain(b, e)
            .and_then(|chain| self.chain_node(b, &chain))
        {
            id
        } else {
            let mut options = Vec::new();
            let mut union: Set = 0;
            // The pass option first (mustplay), then intrusions into what is still uncovered,
            // in the search's own order so that its table answers them. With the oracle
            // (rule 9), its connections come first instead of the pass.
            let mut must = e;
            let mut intrusion: Option<usize> = None;
            let mut pass = true;
            if let Some(ans) = self.solver.oracle_at(b, w) {
                if let Some(c) = ans.vc {
                    let (_, root) = self.sub_connection(b, c, false)?;
                    self.memo.insert((b, w), root);
                    return Some(root);
                }
                // Greedily, the semi that removes most of the opponent's remaining
                // candidates first; one that removes none is not needed (nor proved).
                let mut semis = ans.semis.clone();
                while let Some(i) = (0..semis.len())
                    .filter(|&i| must & !semis[i] != 0)
                    .max_by_key(|&i| (must & !semis[i]).count_ones())
                {
                    let s = semis.swap_remove(i);
                    let (first, root) = self.sub_connection(b, s, true)?;
                    let Some(first) = first else {
                        // Won without a first move: a VC inside s.
                        self.memo.insert((b, w), root);
                        return Some(root);
                    };
                    let covered = g.from_cells(&self.nodes[root as usize].carrier)
                        | g.from_cells(&CellSet::single(first));
                    must &= covered;
                    union |= covered;
                    options.push(Reply {
                        reply: first,
                        next: root,
                    });
                }
                pass = false;
            }
            let mut scores = [u16::MAX; 128];
            self.solver.move_scores(b, e, &mut scores);
            loop {
                if !pass {
                    if must == 0 {
                        break;
                    }
                    let x = bits(must)
                        .min_by_key(|&c| scores[c])
                        .expect("must is not empty");
                    intrusion = Some(x);
                }
                pass = true;
                let wx = w | intrusion.map_or(0, |x| 1 << x);
                let (r, next) = self.owner_option(b, wx)?;
                let covered = g.from_cells(&self.nodes[next as usize].carrier) | 1 << r;
                must &= covered;
                union |= covered;
                options.push(Reply {
                    reply: g.cells[r],
                    next,
                });
                if must == 0 {
                    break;
                }
                intrusion = Some(if must >> r & 1 == 1 {
                    r
                } else {
                    bits(must)
                        .min_by_key(|&c| scores[c])
                        .expect("must is not empty")
                });
            }
            self.push(Node {
                stones: g.to_cells(b),
                carrier: g.to_cells(union),
                goal: None,
                either: Vec::new(),
                with: Vec::new(),
                kind: NodeKind::Or(options),
            })
        };
        self.memo.insert((b, w), id);
        Some(id)
    }
}

/// The opponent's refuting line from the root of a lost sub-game: it goes on until the owner
/// can no longer join any pair.
fn refuting_line(solver: &mut Solver, owner: Colour, owner_first: bool) -> Vec<Move> {
    let g = solver.g;
    let mut line = Vec::new();
    let (mut b, mut w): (Set, Set) = (0, 0);
    let mut owner_turn = owner_first;
    for _ in 0..=g.n {
        let e = g.all & !b & !w;
        if solver.useful(b, e) == 0 {
            break; // the owner cannot join any pair any more
        }
        if owner_turn {
            if !matches!(solver.owner_to_move(b, w, NONE), Res::Loss(_)) {
                break;
            }
            // The owner's first try, or any useful cell (every move loses).
            let mut mv = solver.owner_move(b, w) as usize;
            if mv == NONE as usize || (b | w) >> mv & 1 == 1 {
                mv = bits(solver.useful(b, e))
                    .next()
                    .expect("useful is not empty");
            }
            line.push(Move {
                colour: owner,
                cell: g.cells[mv],
            });
            let nw = owner_child_w(solver, b, w);
            b |= 1 << mv;
            w = nw & !b;
        } else {
            if !matches!(solver.opp_to_move(b, w, NONE), Res::Loss(_)) {
                break;
            }
            let mut mv = solver.opp_move(b, w) as usize;
            if mv == NONE as usize || (b | w) >> mv & 1 == 1 {
                // The loss came from a reuse cache: find a refuting move explicitly.
                let Some(x) = bits(e)
                    .find(|&x| matches!(solver.owner_to_move(b, w | 1 << x, NONE), Res::Loss(_)))
                else {
                    break;
                };
                mv = x;
            }
            line.push(Move {
                colour: owner.opponent(),
                cell: g.cells[mv],
            });
            w |= 1 << mv;
        }
        owner_turn = !owner_turn;
    }
    line
}
