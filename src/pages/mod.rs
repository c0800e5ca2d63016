//! A checked proof file as pictures: one figure per lemma, derivation and proof-tree node with
//! the checker's verdict ([`proof`]), and one self-contained HTML page ([`html`],
//! `hexproof render`). Board geometry comes from the leaf layer [`crate::render::svg`].

pub mod html;
pub mod proof;
