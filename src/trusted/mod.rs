//! The trusted code: what a "verified" rests on (src/trusted/README.md lists it all, and why).
//!
//! Everything a report may call *verified* carries a [`Basis`]. A `Basis` has private fields
//! and no public way to make one from nothing: every constructor demands evidence that only
//! trusted code can produce —
//!
//! - [`crate::kernel::Verified`]: the kernel accepted a certificate (only
//!   [`crate::kernel::check`] makes one; its file is `src/trusted/kernel.rs`, declared as
//!   `crate::kernel` in the core layer because the search below needs it);
//! - [`RuleChecked`]: a named rule's side conditions hold ([`rules::check`], lemma
//!   placement [`place::place`], several lemmas [`compose::check_composition`]);
//! - [`GameWon`]: an exact game of this folder is won by the owner (the AB guarantee and
//!   assisted games of [`ab`], the conjunction game of [`conj`]);
//! - another `Basis`: a proof-tree node or a lemma's proof rests on the bases of its parts.
//!
//! Outside this folder nothing can forge one:
//!
//! ```compile_fail
//! // A `Basis` has private fields: it cannot be written down outside `trusted`.
//! let b = hexproof::trusted::Basis { kind: todo!(), rests_on: todo!() };
//! ```
//!
//! ```compile_fail
//! // Neither can the evidence a constructor asks for.
//! let r = hexproof::trusted::RuleChecked { rule: "AND" };
//! let b = hexproof::trusted::Basis::rule(r, Err("no search".into()));
//! ```
//!
//! ```compile_fail
//! let g = hexproof::trusted::GameWon { game: "AB guarantee" };
//! let b = hexproof::trusted::Basis::game(g);
//! ```
//!
//! This module sits in the proof layer, above [`crate::dsl`] (the rules read its facts) and
//! below the checker (`check`, one layer up), which drives it: `check` decides which rule to apply to which
//! premises and builds the report, and a step is reported verified only with a `Basis`.

pub mod ab;
pub mod compose;
pub mod conj;
pub mod fill;
pub mod ice;
pub mod place;
pub mod rules;

use crate::kernel::Verified;
use std::fmt;

/// Evidence that a named rule's side conditions were checked and hold. Only the code of this
/// folder makes one (private field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleChecked {
    rule: &'static str,
}

impl RuleChecked {
    /// Made by the side-condition checks of this folder only.
    pub(in crate::trusted) fn new(rule: &'static str) -> RuleChecked {
        RuleChecked { rule }
    }

    /// The rule: `AND`, `OR`, `rule (1)`, `rule (2)`, `monotonicity`, `lemma`, `lemmas`.
    pub fn rule(&self) -> &'static str {
        self.rule
    }
}

/// Evidence that an exact game of this folder (no certificate) is won by the claim's owner.
/// Only the games of [`ab`] and [`conj`] make one (private field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameWon {
    game: &'static str,
}

impl GameWon {
    /// Made by the exact games of this folder only.
    pub(in crate::trusted) fn new(game: &'static str) -> GameWon {
        GameWon { game }
    }

    /// Which game: `AB guarantee`, `assisted game`, `conjunction game`.
    pub fn game(&self) -> &'static str {
        self.game
    }
}

/// A search's "holds": a kernel-accepted certificate (the local search) or an exact game won
/// (a conjunction).
#[derive(Clone, Debug)]
pub enum SearchWin {
    /// The kernel accepted the search's certificate.
    Kernel(Verified),
    /// An exact game of this folder.
    Game(GameWon),
}

/// The kind of evidence a [`Basis`] finally rests on (for tests and reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BasisKind {
    /// A kernel certificate (the search's, or a library record's).
    Kernel,
    /// A named rule with its side conditions checked.
    Rule,
    /// An exact game of this folder.
    Game,
    /// A proof-tree node: the bases of its parts.
    Tree,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// `search`: the search holds (kernel certificate or exact game).
    Search,
    /// `kernel certificate (template library)`.
    Library,
    /// `rule and search` (`Ok`) or `rule alone (WHY)` (`Err(WHY)`).
    Rule(Result<(), Unsearched>),
    /// `tree`, `tree and search` (`Some(Ok)`), `tree alone (WHY)` (`Some(Err(WHY))`).
    Tree(Option<Result<(), Unsearched>>),
}

/// Why a step is verified. Only trusted evidence makes one (see the module docs); it prints
/// as the report's `basis` text (`search`, `rule and search`, `rule alone (…)`, `tree`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Basis {
    kind: Kind,
    rests_on: BasisKind,
}

/// Why a search is no part of a basis: the WHY of `rule alone (WHY)` and `tree alone (WHY)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsearched {
    /// The search did not decide.
    #[error("search undecided")]
    Undecided,
    /// The search did not run.
    #[error("search not run")]
    NotRun,
    /// The search ran out of budget.
    #[error("search budget exhausted")]
    Exhausted,
    /// The search's own note (`search budget exhausted`, …).
    #[error("{0}")]
    Note(String),
}

/// A search's outcome as a basis part: won, or why not.
pub type Searched = Result<SearchWin, Unsearched>;

fn search_kind(w: &SearchWin) -> BasisKind {
    match w {
        SearchWin::Kernel(_) => BasisKind::Kernel,
        SearchWin::Game(_) => BasisKind::Game,
    }
}

impl Basis {
    /// `search`: the conclusion's search holds.
    pub fn search(win: SearchWin) -> Basis {
        Basis {
            kind: Kind::Search,
            rests_on: search_kind(&win),
        }
    }

    /// `search`: an exact game of this folder is won (an AB guarantee, an assisted claim).
    pub fn game(won: GameWon) -> Basis {
        Basis::search(SearchWin::Game(won))
    }

    /// `kernel certificate (template library)`: a library record's certificate accepted.
    pub fn library(_accepted: &Verified) -> Basis {
        Basis {
            kind: Kind::Library,
            rests_on: BasisKind::Kernel,
        }
    }

    /// `rule and search` or `rule alone (WHY)`: a rule's side conditions hold (and the
    /// search confirms the conclusion, or says why not).
    pub fn rule(rule: RuleChecked, search: Searched) -> Basis {
        let _ = rule;
        Basis {
            kind: Kind::Rule(search.map(|_| ())),
            rests_on: BasisKind::Rule,
        }
    }

    /// A lemma established by the steps of its proof: the step's basis, with the lemma's
    /// own search (`rule and search` or `rule alone (WHY)`).
    pub fn proof(step: &Basis, search: Searched) -> Basis {
        Basis {
            kind: Kind::Rule(search.map(|_| ())),
            rests_on: step.rests_on,
        }
    }

    /// `tree`: a proof-tree node whose parts (its subtree's verified lines) are all it needs;
    /// `None` when there is no part to rest on.
    pub fn tree<'a>(parts: impl IntoIterator<Item = &'a Basis>) -> Option<Basis> {
        parts.into_iter().next().map(|_| Basis {
            kind: Kind::Tree(None),
            rests_on: BasisKind::Tree,
        })
    }

    /// `tree`: a tree line that rests on a rule of its own: a fill-in justified
    /// ([`fill::check_fills_evidence`]), or a White node where the game is over and the owner
    /// has won ([`rules::won_already`]).
    pub fn tree_rule(rule: RuleChecked) -> Basis {
        let _ = rule;
        Basis {
            kind: Kind::Tree(None),
            rests_on: BasisKind::Rule,
        }
    }

    /// A tree node's basis with the search of its position: `tree and search`, or
    /// `tree alone (WHY)`. Other bases are returned unchanged.
    pub fn with_search(self, search: Searched) -> Basis {
        match self.kind {
            Kind::Tree(_) => Basis {
                kind: Kind::Tree(Some(search.map(|_| ()))),
                rests_on: self.rests_on,
            },
            _ => self,
        }
    }

    /// What this basis finally rests on.
    pub fn kind(&self) -> BasisKind {
        self.rests_on
    }

    /// A rule (or a proof's steps) without a confirming search: `rule alone (…)`.
    pub fn rule_alone(&self) -> bool {
        matches!(self.kind, Kind::Rule(Err(_)))
    }
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Search => f.write_str("search"),
            Kind::Library => f.write_str("kernel certificate (template library)"),
            Kind::Rule(Ok(())) => f.write_str("rule and search"),
            Kind::Rule(Err(why)) => write!(f, "rule alone ({why})"),
            Kind::Tree(None) => f.write_str("tree"),
            Kind::Tree(Some(Ok(()))) => f.write_str("tree and search"),
            Kind::Tree(Some(Err(why))) => write!(f, "tree alone ({why})"),
        }
    }
}
