//! Pictures of positions and sub-games: ASCII for terminals ([`ascii`]) and the SVG board
//! figures shared by every drawer ([`svg`]). A leaf layer: it knows boards, positions and
//! claims only, so every higher layer (templates, VC engine, proof pages, bidding) draws with
//! it. A checked proof as pictures is `pages`.

pub mod ascii;
pub mod svg;
