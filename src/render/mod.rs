//! Pictures of positions, sub-games and proofs: ASCII for terminals ([`ascii`]), SVG board
//! figures shared by every drawer ([`svg`]), a checked proof as pictures ([`proof`]) and as
//! one self-contained HTML page ([`html`]).

pub mod ascii;
pub mod html;
pub mod proof;
pub mod svg;
