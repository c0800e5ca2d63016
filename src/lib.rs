//! hexproof: a proof checker and template verifier for the game of Hex.
//!
//! The modules form layers. A module may use only the modules listed before it in this text; the
//! test `architecture` (tests/kernel/architecture.rs) reads every `crate::` path in `src/` and
//! fails on an upward import. The picture is in docs/ARCHITECTURE.md.
//!
//! **Core** — what every verdict finally rests on:
//! - [`board`]: geometry, cells, `CellSet` bitsets, notation, symmetries;
//! - [`position`]: stones, chains, winner;
//! - [`claim`]: sub-games, endpoints, goals (VC, semi, union);
//! - [`kernel`]: the small certificate checker, the only maker of `Verified` values (its file
//!   is `src/trusted/kernel.rs`: all trusted code is in one folder, see [`trusted`]);
//! - [`render`]: ASCII and SVG board pictures (a leaf every higher layer draws with);
//! - [`edge_template`]: edge-template shapes and their placement.
//!
//! **Search** — clever and therefore suspect; every win it reports is re-checked by the kernel:
//! - [`vc`]: virtual connections (H-search, FastVC), mustplay, incremental update;
//! - [`local`]: the exact local search of one sub-game, certificates, carrier minimisation;
//! - [`templates`]: the certified template library, generation and matching;
//! - [`eval`]: Anshelevich's electric-circuit evaluation;
//! - [`ice`]: certified inferior-cell patterns (dead, captured, vulnerable): the library file,
//!   its generator and its placements on a board (docs/ice.md);
//! - [`dfpn`]: the whole-board DFPN solver with inferior-cell analysis;
//! - [`engine`]: the whole-board fallback of `verify` (local search undecided → DFPN → kernel).
//!
//! **Proof** — the language and the checker:
//! - [`dsl`]: the proof language — parser, AST, elaboration, diagnostics;
//! - [`trusted`]: what a "verified" rests on besides the kernel — the deduction rules' side
//!   conditions, lemma placement and composition, fill-in, the exact AB and conjunction games —
//!   and [`trusted::Basis`], the only way to say why a step is verified (src/trusted/README.md);
//! - [`check`]: the proof checker (deduction rules and search, per step) and its report;
//! - [`lemmas`]: the lemmas of `proofs/` as certified records;
//! - [`pages`]: a checked proof as pictures and one HTML page;
//! - [`prove`]: proofs written by the engine (`solve --emit-proof`) for the checker;
//! - [`enumerate`]: exhaustive enumeration of minimal edge templates (`templates generate`);
//! - [`yang`]: Jing Yang's 9×9 strategy file — reader, a player that follows it, the report of
//!   `hexproof yang check` (docs/yang.md).
//!
//! **Play** — games, players and protocols:
//! - [`game`], [`sgf`]: game records and SGF;
//! - [`bidding`]: random-turn and bidding Hex;
//! - [`player`]: alpha-beta and MCTS players, matches;
//! - [`gtp`]: the GTP engine (HexGui's dialect), with the bidding extension;
//! - [`arena`]: `hexproof match`, a refereed match between two external GTP engines.

pub mod board;
pub mod claim;
pub mod edge_template;
#[path = "trusted/kernel.rs"]
pub mod kernel;
pub mod position;
pub mod render;

pub mod dfpn;
pub mod engine;
pub mod eval;
pub mod ice;
pub mod local;
pub mod templates;
pub mod vc;

pub mod check;
pub mod dsl;
pub mod enumerate;
pub mod lemmas;
pub mod pages;
pub mod prove;
pub mod trusted;
pub mod yang;

pub mod arena;
pub mod bidding;
pub mod game;
pub mod gtp;
pub mod player;
pub mod sgf;
