//! The certified template library, built on the shapes of [`crate::edge_template`]:
//! [`library`] (records, compact certificates, the kernel re-check), [`lemma_record`] (the records of
//! proved lemmas), [`matching`] (instances on a position),
//! [`cert_shrink`] (smaller certificates read off a certificate, re-checked by the kernel) and
//! [`draw`] (ASCII and SVG diagrams) and [`page`] (the HTML page of the whole library).
//! Schema: docs/templates.md.
//!
//! Enumerating templates needs the whole-board solver and the checker and lives above them,
//! in `enumerate`.
//! The lemmas of `proofs/` as records live one layer up, in `lemmas` (they need the
//! checker); a one-stone template refuted on the whole board by the DFPN solver lives in
//! `prove::whole_board`.

pub mod builtin;
pub mod cert_pack;
pub mod cert_shrink;
pub mod draw;
mod error;
pub mod lemma_record;
pub mod library;
pub mod matching;
pub mod page;
pub mod published;
pub mod seed_select;
pub mod seeds;

pub use crate::edge_template::{EdgeTemplate, PlaceError, Rc};
pub use error::TemplateError;
