//! SVG drawing shared by every picture hexproof makes: the hexagon geometry with the board's
//! shear (row r is drawn half a cell further right than row r − 1, so `a1` is the top-left,
//! acute corner; docs/SEMANTICS.md "Board and conventions"), the four borders (Black's top and bottom drawn as black
//! edges, White's left and right as white edges), fixed two-decimal number formatting (output
//! is byte-for-byte reproducible) and text escaping.
//!
//! [`Figure`] draws a whole board in the manner of Noshita's figures (ICGA J. 28(1), 2005,
//! Figs. 8–29): stones, the carrier shaded, marked cells lettered, the moves of a proof-tree
//! node ringed, a fictitious stone of a precluding analysis dashed, and White's surviving
//! moves dotted. The template drawer (`templates::draw`) and the VC picture (`vc::render`)
//! use the same primitives.

use crate::board::{Border, Cell, CellSet, Colour, Notation};
use crate::position::Position;
use std::fmt::Write as _;

/// `x,y x,y …` with two decimals.
pub fn points(v: &[(f64, f64)]) -> String {
    v.iter()
        .map(|(x, y)| format!("{x:.2},{y:.2}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The six corners of a pointy-top hexagon of circumradius `r` centred at (`cx`, `cy`),
/// starting at `start_deg` (degrees, clockwise on screen since y grows downwards).
pub fn hexagon(cx: f64, cy: f64, r: f64, start_deg: f64) -> [(f64, f64); 6] {
    std::array::from_fn(|k| {
        let t = (start_deg + 60.0 * k as f64).to_radians();
        (cx + r * t.cos(), cy + r * t.sin())
    })
}

/// Escapes text for SVG/XML content and attribute values.
pub fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Where the cells of a board go: hexagons of circumradius `size`, the board `margin` away from
/// the picture's top-left corner, row r shifted right by r half-cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Circumradius of a cell.
    pub size: f64,
    /// Space left of column a and above row 1 (for the coordinates).
    pub margin: f64,
}

impl Grid {
    /// Width of a cell (√3 · size).
    pub fn cell_width(&self) -> f64 {
        3f64.sqrt() * self.size
    }

    /// Centre of cell (c, r).
    pub fn centre(&self, c: u8, r: u8) -> (f64, f64) {
        let w = self.cell_width();
        (
            self.margin + w / 2.0 + c as f64 * w + r as f64 * w / 2.0,
            self.margin + self.size + r as f64 * 1.5 * self.size,
        )
    }

    /// A corner of cell (c, r) at `deg` degrees (−90 / 270 is the top corner).
    pub fn vertex(&self, c: u8, r: u8, deg: f64) -> (f64, f64) {
        let (x, y) = self.centre(c, r);
        let t = deg.to_radians();
        (x + self.size * t.cos(), y + self.size * t.sin())
    }

    /// The outline of cell (c, r), from its top corner clockwise.
    pub fn cell_outline(&self, c: u8, r: u8) -> [(f64, f64); 6] {
        std::array::from_fn(|k| self.vertex(c, r, -90.0 + 60.0 * k as f64))
    }

    /// The zigzag along one border of a `cols`×`rows` board.
    pub fn border(&self, cols: u8, rows: u8, side: Border) -> Vec<(f64, f64)> {
        match side {
            Border::Top => (0..cols)
                .flat_map(|c| [210.0, 270.0, 330.0].map(|d| self.vertex(c, 0, d)))
                .collect(),
            Border::Bottom => (0..cols)
                .flat_map(|c| [150.0, 90.0, 30.0].map(|d| self.vertex(c, rows - 1, d)))
                .collect(),
            Border::Left => (0..rows)
                .flat_map(|r| [210.0, 150.0].map(|d| self.vertex(0, r, d)))
                .collect(),
            Border::Right => (0..rows)
                .flat_map(|r| [330.0, 30.0].map(|d| self.vertex(cols - 1, r, d)))
                .collect(),
        }
    }

    /// Width and height of the board drawing with its margins (nothing below the last row).
    pub fn board_extent(&self, cols: u8, rows: u8) -> (f64, f64) {
        let w = self.cell_width();
        (
            2.0 * self.margin + (cols as f64 + (rows as f64 - 1.0) / 2.0) * w,
            2.0 * self.margin + (1.5 * rows as f64 + 0.5) * self.size,
        )
    }
}

/// Column name of column `c` as printed above the board.
pub fn column_name(c: u8, cols: u8, rows: u8, notation: Notation) -> String {
    match notation {
        Notation::Digits if cols <= 9 && rows <= 9 => (c + 1).to_string(),
        _ => ((b'a' + c) as char).to_string(),
    }
}

/// Colours of a [`Figure`] (paper-like: cream board, grey-blue carrier).
const BOARD_FILL: &str = "#f6f1e1";
const CARRIER_FILL: &str = "#b9c9e0";
const RING: &str = "#d62728";

/// A board diagram in the style of the paper figures.
#[derive(Clone, Debug)]
pub struct Figure<'a> {
    /// The stones.
    pub position: &'a Position,
    /// How to name columns and rows.
    pub notation: Notation,
    /// Shaded cells (the carrier).
    pub carrier: CellSet,
    /// Text drawn on cells: marked cells (`A`, `B`), named stones (`x`), endpoints.
    pub labels: Vec<(Cell, String)>,
    /// Ringed cells: the moves of this node (White's case move, Black's reply).
    pub rings: CellSet,
    /// A fictitious Black stone (a precluding analysis), drawn dashed.
    pub ghost: Option<Cell>,
    /// Dotted cells: White's moves that survive the precluding analyses.
    pub dots: CellSet,
    /// The picture's title (a tooltip in browsers).
    pub title: String,
    /// Lines of text under the board.
    pub caption: Vec<String>,
}

impl<'a> Figure<'a> {
    /// A plain picture of a position.
    pub fn new(position: &'a Position, notation: Notation) -> Figure<'a> {
        Figure {
            position,
            notation,
            carrier: CellSet::EMPTY,
            labels: Vec::new(),
            rings: CellSet::EMPTY,
            ghost: None,
            dots: CellSet::EMPTY,
            title: String::new(),
            caption: Vec::new(),
        }
    }

    /// The SVG document (no XML prolog, so it can also be inlined in HTML).
    pub fn svg(&self) -> String {
        const S: f64 = 18.0;
        let g = Grid {
            size: S,
            margin: 26.0,
        };
        let b = self.position.board();
        let (cols, rows) = (b.cols(), b.rows());
        let (bw, bh) = g.board_extent(cols, rows);
        // Captions are 11-pixel text: about 6 pixels a character.
        let text = self
            .caption
            .iter()
            .map(|l| 16.0 + 6.0 * l.chars().count() as f64)
            .fold(0.0, f64::max);
        let width = bw.max(240.0).max(text);
        let height = bh + 15.0 * self.caption.len() as f64 + 4.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.2} {height:.2}" font-family="sans-serif">"#
        );
        if !self.title.is_empty() {
            let _ = writeln!(s, "<title>{}</title>", escape(&self.title));
        }
        for r in 0..rows {
            for c in 0..cols {
                let cell = Cell::at(c, r);
                let fill = if self.carrier.contains(cell) {
                    CARRIER_FILL
                } else {
                    BOARD_FILL
                };
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="{fill}" stroke="#6b6b6b" stroke-width="1"><title>{}</title></polygon>"##,
                    points(&g.cell_outline(c, r)),
                    b.cell_name(cell, self.notation)
                );
            }
        }
        // Borders: Black's as thick black edges, White's as white edges outlined in black.
        let line = |v: &[(f64, f64)], colour: &str, width: f64| {
            format!(
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="{width:.1}" stroke-linecap="round" stroke-linejoin="round"/>"#,
                points(v)
            )
        };
        for side in [Border::Left, Border::Right] {
            let v = g.border(cols, rows, side);
            let _ = writeln!(s, "{}", line(&v, "#555555", 6.0));
            let _ = writeln!(s, "{}", line(&v, "#ffffff", 4.0));
        }
        for side in [Border::Top, Border::Bottom] {
            let _ = writeln!(s, "{}", line(&g.border(cols, rows, side), "#111111", 5.0));
        }
        for r in 0..rows {
            for c in 0..cols {
                self.cell_marks(&mut s, &g, Cell::at(c, r));
            }
        }
        for c in 0..cols {
            let (x, y) = g.centre(c, 0);
            let _ = writeln!(
                s,
                r#"<text x="{x:.2}" y="{:.2}" font-size="11" text-anchor="middle">{}</text>"#,
                y - S - 8.0,
                column_name(c, cols, rows, self.notation)
            );
        }
        for r in 0..rows {
            let (x, y) = g.centre(0, r);
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}" font-size="11" text-anchor="end">{}</text>"#,
                x - g.cell_width() / 2.0 - 7.0,
                y + 4.0,
                r + 1
            );
        }
        let mut y = bh + 2.0;
        for l in &self.caption {
            let _ = writeln!(
                s,
                r##"<text x="8.00" y="{y:.2}" font-size="11" fill="#333333">{}</text>"##,
                escape(l)
            );
            y += 15.0;
        }
        s.push_str("</svg>\n");
        s
    }

    /// Stone, ghost, dot, ring and label of one cell.
    fn cell_marks(&self, s: &mut String, g: &Grid, cell: Cell) {
        let (c, r) = cell.coords();
        let (x, y) = g.centre(c, r);
        let size = g.size;
        let mut text_fill = "#000000";
        if self.ghost == Some(cell) {
            let _ = writeln!(
                s,
                r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="#8a8a8a" stroke="#111111" stroke-width="1.5" stroke-dasharray="3,2"/>"##,
                size * 0.68
            );
            text_fill = "#ffffff";
        } else {
            match self.position.colour_at(cell) {
                Some(Colour::Black) => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="#111111"/>"##,
                        size * 0.72
                    );
                    text_fill = "#ffffff";
                }
                Some(Colour::White) => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="#ffffff" stroke="#111111" stroke-width="1.5"/>"##,
                        size * 0.68
                    );
                }
                None => {}
            }
        }
        if self.dots.contains(cell) {
            let _ = writeln!(
                s,
                r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{RING}"/>"##,
                size * 0.2
            );
        }
        if self.rings.contains(cell) {
            let _ = writeln!(
                s,
                r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="none" stroke="{RING}" stroke-width="2.5"/>"##,
                size * 0.86
            );
        }
        if let Some((_, t)) = self.labels.iter().find(|(c, _)| *c == cell) {
            let fs = if t.chars().count() > 2 { 9.0 } else { 12.0 };
            let _ = writeln!(
                s,
                r#"<text x="{x:.2}" y="{:.2}" font-size="{fs:.0}" font-weight="bold" text-anchor="middle" fill="{text_fill}">{}</text>"#,
                y + fs * 0.36,
                escape(t)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn hexagon_matches_vertices() {
        let g = Grid {
            size: 20.0,
            margin: 34.0,
        };
        let (x, y) = g.centre(1, 2);
        assert_eq!(
            points(&hexagon(x, y, 20.0, -90.0)),
            points(&g.cell_outline(1, 2))
        );
        // Row r + 1 is shifted half a cell right of row r.
        let w = g.cell_width();
        assert!((g.centre(0, 1).0 - g.centre(0, 0).0 - w / 2.0).abs() < 1e-9);
    }

    #[test]
    fn figure_draws_everything_it_is_given() {
        let b = Board::square(3).unwrap();
        let p = Position::from_names(b, "b2", "a1", Notation::Letters).unwrap();
        let mut f = Figure::new(&p, Notation::Letters);
        f.carrier.insert(Cell::at(2, 0));
        f.rings.insert(Cell::at(1, 1));
        f.dots.insert(Cell::at(0, 2));
        f.ghost = Some(Cell::at(2, 2));
        f.labels.push((Cell::at(1, 1), "x".into()));
        f.caption.push("a <caption> & more".into());
        let s = f.svg();
        assert_eq!(s.matches("<polygon").count(), 9);
        assert_eq!(s.matches(CARRIER_FILL).count(), 1);
        assert!(s.contains("stroke-dasharray"));
        assert!(s.contains("a &lt;caption&gt; &amp; more"));
        assert!(s.contains(">x</text>"));
        assert!(s.ends_with("</svg>\n"));
    }
}
