//! An SVG heat map of `L_H` (hand-written SVG text; every number is printed with a fixed
//! number of decimals, so the output is byte-for-byte reproducible).
//!
//! Each empty cell is coloured by its criticality relative to the most critical cell
//! (`1 − 2 L_H`, Proposition 5.1; pale = rarely critical, dark red = the best moves) and
//! labelled with `L_H` in percent. Stones are drawn black and white, Black's borders (top,
//! bottom) as thick black lines and White's (left, right) as thick grey ones, and the
//! recommended move is ringed in blue. Rows are shifted half a cell right of the row above,
//! as in the ASCII diagrams (docs/SEMANTICS.md "Board and conventions").

use super::Analysis;
use crate::board::{Cell, Colour, Notation};
use crate::position::Position;
use std::fmt::Write;

const S: f64 = 22.0; // hex radius
const MARGIN: f64 = 34.0;

fn w() -> f64 {
    3f64.sqrt() * S
}

fn centre(c: u8, r: u8) -> (f64, f64) {
    let w = w();
    (
        MARGIN + w / 2.0 + c as f64 * w + r as f64 * w / 2.0,
        MARGIN + S + r as f64 * 1.5 * S,
    )
}

/// Vertex of a pointy-top hex at `deg` degrees (0 = east, 90 = south, as SVG's y grows down).
fn vertex(c: u8, r: u8, deg: f64) -> (f64, f64) {
    let (x, y) = centre(c, r);
    let t = deg.to_radians();
    (x + S * t.cos(), y + S * t.sin())
}

fn pts(v: &[(f64, f64)]) -> String {
    v.iter()
        .map(|(x, y)| format!("{x:.2},{y:.2}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// YlOrRd-like ramp: t = 0 pale yellow, 0.5 orange, 1 dark red.
fn ramp(t: f64) -> String {
    let t = t.clamp(0.0, 1.0);
    let stops = [
        (255.0, 255.0, 204.0),
        (253.0, 141.0, 60.0),
        (189.0, 0.0, 38.0),
    ];
    let (a, b, u) = if t < 0.5 {
        (stops[0], stops[1], t * 2.0)
    } else {
        (stops[1], stops[2], t * 2.0 - 1.0)
    };
    let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// The heat map of `analysis` (computed from `pos`) as an SVG document. `title` is printed at
/// the top (escaped).
pub fn heat_map(pos: &Position, analysis: &Analysis, notation: Notation, title: &str) -> String {
    let b = pos.board();
    let (cols, rows) = (b.cols(), b.rows());
    let w = w();
    let width = (2.0 * MARGIN + (cols as f64 + (rows as f64 - 1.0) / 2.0) * w).max(480.0);
    let height = 2.0 * MARGIN + (1.5 * rows as f64 + 0.5) * S + 44.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.2} {height:.2}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let max_crit = (0..analysis.cells.len())
        .map(|i| analysis.critical_prob(i))
        .fold(0.0f64, f64::max);
    let best = analysis.best().map(|i| analysis.cells[i].cell);
    let index: std::collections::HashMap<Cell, usize> = analysis
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| (c.cell, i))
        .collect();
    for r in 0..rows {
        for c in 0..cols {
            let cell = Cell::at(c, r);
            let poly: Vec<_> = (0..6)
                .map(|k| vertex(c, r, -90.0 + 60.0 * k as f64))
                .collect();
            let (fill, label, text_fill) = match pos.colour_at(cell) {
                Some(Colour::Black) => ("#222222".to_string(), None, ""),
                Some(Colour::White) => ("#fafafa".to_string(), None, ""),
                None => {
                    let i = index.get(&cell).copied();
                    let crit = i.map_or(0.0, |i| analysis.critical_prob(i));
                    let t = if max_crit > 0.0 { crit / max_crit } else { 0.0 };
                    let l = i.map_or(0.5, |i| analysis.loser_prob(i));
                    let tf = if t > 0.7 { "#ffffff" } else { "#000000" };
                    (ramp(t), Some(format!("{:.1}", 100.0 * l)), tf)
                }
            };
            let _ = writeln!(
                s,
                r##"<polygon points="{}" fill="{fill}" stroke="#555555" stroke-width="1"><title>{}</title></polygon>"##,
                pts(&poly),
                b.cell_name(cell, notation)
            );
            if pos.colour_at(cell) == Some(Colour::White) {
                let (x, y) = centre(c, r);
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="#ffffff" stroke="#222222" stroke-width="1.5"/>"##,
                    S * 0.6
                );
            }
            if let Some(text) = label {
                let (x, y) = centre(c, r);
                let _ = writeln!(
                    s,
                    r#"<text x="{x:.2}" y="{:.2}" font-size="9" text-anchor="middle" fill="{text_fill}">{text}</text>"#,
                    y + 3.0
                );
            }
            if Some(cell) == best {
                let (x, y) = centre(c, r);
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="none" stroke="#1f5fd6" stroke-width="3"/>"##,
                    S * 0.82
                );
            }
        }
    }
    draw_borders(&mut s, cols, rows);
    draw_coordinates(&mut s, cols, rows, notation);
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}" font-size="11">{}</text>"#,
        MARGIN / 2.0,
        height - 36.0,
        escape(title)
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.2}" y="{:.2}" font-size="10" fill="#444444">numbers: L_H in % (chance the cell ends in the loser's colour; Payne &amp; Robeva §5)</text>"##,
        MARGIN / 2.0,
        height - 22.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.2}" y="{:.2}" font-size="10" fill="#444444">colour: criticality 1 - 2 L_H relative to the maximum; blue ring: best move</text>"##,
        MARGIN / 2.0,
        height - 8.0
    );
    s.push_str("</svg>\n");
    s
}

/// The four borders: Black's (top, bottom) dark, White's (left, right) light.
fn draw_borders(s: &mut String, cols: u8, rows: u8) {
    let line = |v: Vec<(f64, f64)>, colour: &str| {
        format!(
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>"#,
            pts(&v)
        )
    };
    let top: Vec<_> = (0..cols)
        .flat_map(|c| [210.0, 270.0, 330.0].map(|d| vertex(c, 0, d)))
        .collect();
    let bottom: Vec<_> = (0..cols)
        .flat_map(|c| [150.0, 90.0, 30.0].map(|d| vertex(c, rows - 1, d)))
        .collect();
    let left: Vec<_> = (0..rows)
        .flat_map(|r| [210.0, 150.0].map(|d| vertex(0, r, d)))
        .collect();
    let right: Vec<_> = (0..rows)
        .flat_map(|r| [330.0, 30.0].map(|d| vertex(cols - 1, r, d)))
        .collect();
    let _ = writeln!(s, "{}", line(top, "#000000"));
    let _ = writeln!(s, "{}", line(bottom, "#000000"));
    let _ = writeln!(s, "{}", line(left, "#b0b0b0"));
    let _ = writeln!(s, "{}", line(right, "#b0b0b0"));
}

/// Column letters (or digits) above the board and row numbers on its left.
fn draw_coordinates(s: &mut String, cols: u8, rows: u8, notation: Notation) {
    let w = w();
    for c in 0..cols {
        let (x, y) = centre(c, 0);
        let col = match notation {
            Notation::Digits if cols <= 9 && rows <= 9 => (c + 1).to_string(),
            _ => ((b'a' + c) as char).to_string(),
        };
        let _ = writeln!(
            s,
            r#"<text x="{x:.2}" y="{:.2}" font-size="11" text-anchor="middle">{col}</text>"#,
            y - S - 8.0
        );
    }
    for r in 0..rows {
        let (x, y) = centre(0, r);
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" font-size="11" text-anchor="end">{}</text>"#,
            x - w / 2.0 - 8.0,
            y + 4.0,
            r + 1
        );
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn ramp_ends() {
        assert_eq!(ramp(0.0), "#ffffcc");
        assert_eq!(ramp(1.0), "#bd0026");
        assert_eq!(ramp(0.5), "#fd8d3c");
    }

    #[test]
    fn svg_is_well_formed_and_reproducible() {
        let b = Board::square(3).unwrap();
        let p = Position::from_names(b, "b2", "a1", Notation::Letters).unwrap();
        let a = crate::bidding::exact(&p).unwrap();
        let s1 = heat_map(&p, &a, Notation::Letters, "test <3x3>");
        let s2 = heat_map(&p, &a, Notation::Letters, "test <3x3>");
        assert_eq!(s1, s2);
        assert!(s1.starts_with("<svg ") && s1.ends_with("</svg>\n"));
        assert_eq!(s1.matches("<polygon").count(), 9);
        assert_eq!(s1.matches("<text").count(), 7 + 3 + 3 + 3);
        assert!(s1.contains("test &lt;3x3&gt;"));
    }
}
