//! Diagrams of library records: ASCII (the edge at the bottom, as in HexWiki's drawings) and a
//! hand-written SVG with fixed float formatting (two decimals, `render::svg`), so output is
//! byte-stable.

use super::library::Record;
use super::Rc;
use crate::render::svg::{escape, hexagon, points};
use std::fmt::Write as _;

/// ASCII diagram: `A` the goal stone, `O` another stone, `.` a carrier cell; the row further
/// from the edge is shifted right by half a cell (cell `[r, c]` at column `2c + r`).
pub fn ascii(r: &Record) -> String {
    let cells: Vec<(Rc, char)> = r
        .stones
        .iter()
        .enumerate()
        .map(|(i, &s)| (s, if i == 0 { 'A' } else { 'O' }))
        .chain(r.carrier.iter().map(|&c| (c, '.')))
        .collect();
    let min_x = cells
        .iter()
        .map(|(rc, _)| 2 * rc[1] + rc[0])
        .min()
        .unwrap_or(0);
    let max_x = cells
        .iter()
        .map(|(rc, _)| 2 * rc[1] + rc[0])
        .max()
        .unwrap_or(0);
    let max_r = cells.iter().map(|(rc, _)| rc[0]).max().unwrap_or(1);
    let mut out = String::new();
    for row in (1..=max_r).rev() {
        let mut line = vec![' '; (max_x - min_x + 1) as usize];
        for (rc, ch) in &cells {
            if rc[0] == row {
                line[(2 * rc[1] + rc[0] - min_x) as usize] = *ch;
            }
        }
        let s: String = line.into_iter().collect();
        out.push_str(s.trim_end());
        out.push('\n');
    }
    out.push_str(&"-".repeat((max_x - min_x + 1) as usize));
    out.push_str("  (edge)\n");
    out
}

/// SVG diagram: pointy-top hexagons of radius 20, the edge as a thick line below row 1.
pub fn svg(r: &Record) -> String {
    svg_cells(
        &format!("{} ({} carrier cells)", r.name, r.carrier.len()),
        r.goal_stones(),
        r.helper_stones(),
        &r.carrier,
    )
}

/// The SVG diagram of any edge template given by its cells (edge-relative `[row, col]`): the
/// goal stones dark red, the helper stones light red, the carrier shaded; `title` (escaped)
/// is the picture's title. [`svg`] draws a record this way.
pub fn svg_cells(title: &str, goals: &[Rc], helpers: &[Rc], carrier: &[Rc]) -> String {
    const R: f64 = 20.0;
    let w = 3f64.sqrt() * R;
    let cells: Vec<(Rc, u8)> = goals
        .iter()
        .map(|&s| (s, 2))
        .chain(helpers.iter().map(|&s| (s, 1)))
        .chain(carrier.iter().map(|&c| (c, 0)))
        .collect();
    let xs = |rc: &Rc| (rc[1] as f64 + rc[0] as f64 / 2.0) * w;
    let min_x = cells.iter().map(|(rc, _)| xs(rc)).fold(f64::MAX, f64::min);
    let max_x = cells.iter().map(|(rc, _)| xs(rc)).fold(f64::MIN, f64::max);
    let (min_x, max_x) = if cells.is_empty() {
        (0.0, 0.0)
    } else {
        (min_x, max_x)
    };
    let max_r = cells.iter().map(|(rc, _)| rc[0]).max().unwrap_or(1);
    let margin = R * 1.5;
    let width = max_x - min_x + 2.0 * margin;
    let height = (max_r as f64 - 1.0) * 1.5 * R + 2.0 * margin + R;
    let centre = |rc: &Rc| {
        (
            xs(rc) - min_x + margin,
            (max_r - rc[0]) as f64 * 1.5 * R + margin,
        )
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.2}\" height=\"{height:.2}\" viewBox=\"0 0 {width:.2} {height:.2}\">"
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    for (rc, kind) in &cells {
        let (cx, cy) = centre(rc);
        let pts = points(&hexagon(cx, cy, R, -30.0));
        let fill = if *kind == 0 { "#f3e9c6" } else { "#ffffff" };
        let _ = writeln!(
            s,
            "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"#555555\" stroke-width=\"1.00\"/>",
            pts
        );
        if *kind > 0 {
            let stone = if *kind == 2 { "#c0392b" } else { "#e8867a" };
            let _ = writeln!(
                s,
                "<circle cx=\"{cx:.2}\" cy=\"{cy:.2}\" r=\"{:.2}\" fill=\"{stone}\"/>",
                R * 0.7
            );
        }
    }
    let y = (max_r - 1) as f64 * 1.5 * R + margin + R;
    let _ = writeln!(
        s,
        "<line x1=\"{:.2}\" y1=\"{y:.2}\" x2=\"{:.2}\" y2=\"{y:.2}\" stroke=\"#c0392b\" stroke-width=\"4.00\"/>",
        margin - w / 2.0,
        width - margin + w / 2.0
    );
    s.push_str("</svg>\n");
    s
}
