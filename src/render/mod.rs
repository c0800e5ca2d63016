//! Pictures of positions and sub-games: ASCII for terminals (SVG and HTML come with the
//! proof-rendering work).

pub mod ascii;
