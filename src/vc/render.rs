//! Pictures of connection results: the cells VC-connected to a side (as in Pawlewicz et al.,
//! Fig. 6) and the mustplay (Fig. 7), as ASCII diagrams and as an SVG document (hand-written
//! SVG text with fixed decimals, so the output is byte-for-byte reproducible). Rows are shifted
//! half a cell right of the row above, as in every hexproof diagram (docs/SEMANTICS.md "Board and conventions").

use crate::board::{Border, Cell, CellSet, Colour, Notation};
use crate::position::Position;
use crate::render::svg::{column_name, escape, points, Grid};
use std::fmt::Write;

fn header(pos: &Position, notation: Notation) -> String {
    let b = pos.board();
    let mut s = String::from("    ");
    for c in 0..b.cols() {
        match notation {
            Notation::Digits if b.cols() <= 9 && b.rows() <= 9 => {
                s.push_str(&format!("{} ", c + 1))
            }
            _ => s.push_str(&format!("{} ", (b'a' + c) as char)),
        }
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    s
}

fn grid(pos: &Position, notation: Notation, mut mark: impl FnMut(Cell) -> char) -> String {
    let b = pos.board();
    let mut s = header(pos, notation);
    for r in 0..b.rows() {
        s.push_str(&format!("{:>2}  ", r + 1));
        s.push_str(&" ".repeat(r as usize));
        for c in 0..b.cols() {
            let cell = Cell::at(c, r);
            let ch = match pos.colour_at(cell) {
                Some(Colour::Black) => 'X',
                Some(Colour::White) => 'O',
                None => mark(cell),
            };
            s.push(ch);
            s.push(' ');
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    s
}

/// Empty cells VC-connected to `colour`'s first side (`t`/`l`), second side (`b`/`r`) or both
/// (`+`); `X`/`O` stones, `.` other empty cells.
pub fn ascii_sides(
    pos: &Position,
    colour: Colour,
    first: CellSet,
    second: CellSet,
    notation: Notation,
) -> String {
    let (a, b) = match colour {
        Colour::Black => ('t', 'b'),
        Colour::White => ('l', 'r'),
    };
    grid(pos, notation, |cell| {
        match (first.contains(cell), second.contains(cell)) {
            (true, true) => '+',
            (true, false) => a,
            (false, true) => b,
            (false, false) => '.',
        }
    })
}

/// The mustplay cells as `!`; `X`/`O` stones, `.` other empty cells.
pub fn ascii_mustplay(pos: &Position, mustplay: CellSet, notation: Notation) -> String {
    grid(pos, notation, |cell| {
        if mustplay.contains(cell) {
            '!'
        } else {
            '.'
        }
    })
}

/// The picture's grid: cells of radius 20, a 34-pixel margin (`render::svg` draws it).
const GRID: Grid = Grid {
    size: 20.0,
    margin: 34.0,
};

/// An SVG picture: stones; empty cells shaded by the sides of `colour` they are VC-connected
/// to (`first` = top/left, `second` = bottom/right); `mustplay` cells (if given) ringed in
/// red. `lines` are printed below the board (escaped).
pub fn svg(
    pos: &Position,
    colour: Colour,
    first: CellSet,
    second: CellSet,
    mustplay: Option<CellSet>,
    notation: Notation,
    lines: &[String],
) -> String {
    let b = pos.board();
    let (cols, rows) = (b.cols(), b.rows());
    let g = GRID;
    let legend = 4 + lines.len();
    let (board_w, board_h) = g.board_extent(cols, rows);
    let width = board_w.max(520.0);
    let height = board_h + 14.0 * legend as f64 + 10.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.2} {height:.2}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let (side_a, side_b) = match colour {
        Colour::Black => ("top", "bottom"),
        Colour::White => ("left", "right"),
    };
    svg_cells(&mut s, pos, (first, second), mustplay, notation);
    svg_frame(&mut s, cols, rows, notation);
    let mut y = board_h;
    let mut text = |t: &str, s: &mut String| {
        let _ = writeln!(
            s,
            r##"<text x="{:.2}" y="{y:.2}" font-size="10" fill="#333333">{}</text>"##,
            g.margin / 2.0,
            escape(t)
        );
        y += 14.0;
    };
    for l in lines {
        text(l, &mut s);
    }
    text(
        &format!("blue: empty cells with a {colour} VC to the {side_a} side"),
        &mut s,
    );
    text(
        &format!("green: with a {colour} VC to the {side_b} side; gold: to both"),
        &mut s,
    );
    text(
        "red rings: mustplay (cells in every opponent winning VSC carrier)",
        &mut s,
    );
    text(
        "Anshelevich 2002 (AND/OR rules); Pawlewicz et al. 2015 (FastVC), Figs. 6-7",
        &mut s,
    );
    s.push_str("</svg>\n");
    s
}

/// The cells of [`svg`]: stones, empty cells shaded by their VCs to the sides (`first`,
/// `second`), `mustplay` rings.
fn svg_cells(
    s: &mut String,
    pos: &Position,
    (first, second): (CellSet, CellSet),
    mustplay: Option<CellSet>,
    notation: Notation,
) {
    let b = pos.board();
    let (cols, rows) = (b.cols(), b.rows());
    let g = GRID;
    for r in 0..rows {
        for c in 0..cols {
            let cell = Cell::at(c, r);
            let fill = match pos.colour_at(cell) {
                Some(Colour::Black) => "#222222",
                Some(Colour::White) => "#fafafa",
                None => match (first.contains(cell), second.contains(cell)) {
                    (true, true) => "#f4c542",
                    (true, false) => "#9ec9f5",
                    (false, true) => "#a8e0a0",
                    (false, false) => "#f2ead8",
                },
            };
            let _ = writeln!(
                s,
                r##"<polygon points="{}" fill="{fill}" stroke="#555555" stroke-width="1"><title>{}</title></polygon>"##,
                points(&g.cell_outline(c, r)),
                b.cell_name(cell, notation)
            );
            let (x, y) = g.centre(c, r);
            if pos.colour_at(cell) == Some(Colour::White) {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="#ffffff" stroke="#222222" stroke-width="1.5"/>"##,
                    g.size * 0.6
                );
            }
            if mustplay.is_some_and(|m| m.contains(cell)) {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="none" stroke="#d62728" stroke-width="3"/>"##,
                    g.size * 0.7
                );
            }
        }
    }
}

/// The frame of [`svg`]: the four borders, column and row labels.
fn svg_frame(s: &mut String, cols: u8, rows: u8, notation: Notation) {
    let g = GRID;
    let w = g.cell_width();
    let line = |v: Vec<(f64, f64)>, colour: &str| {
        format!(
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>"#,
            points(&v)
        )
    };
    let _ = writeln!(s, "{}", line(g.border(cols, rows, Border::Top), "#000000"));
    let _ = writeln!(
        s,
        "{}",
        line(g.border(cols, rows, Border::Bottom), "#000000")
    );
    let _ = writeln!(s, "{}", line(g.border(cols, rows, Border::Left), "#b0b0b0"));
    let _ = writeln!(
        s,
        "{}",
        line(g.border(cols, rows, Border::Right), "#b0b0b0")
    );
    for c in 0..cols {
        let (x, y) = g.centre(c, 0);
        let col = column_name(c, cols, rows, notation);
        let _ = writeln!(
            s,
            r#"<text x="{x:.2}" y="{:.2}" font-size="11" text-anchor="middle">{col}</text>"#,
            y - g.size - 8.0
        );
    }
    for r in 0..rows {
        let (x, y) = g.centre(0, r);
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" font-size="11" text-anchor="end">{}</text>"#,
            x - w / 2.0 - 8.0,
            y + 4.0,
            r + 1
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn pictures() {
        let b = Board::square(3).unwrap();
        let p = Position::from_names(b, "b2", "a1", Notation::Letters).unwrap();
        let first: CellSet = b
            .parse_cells("b1 c1", Notation::Letters)
            .unwrap()
            .into_iter()
            .collect();
        let second: CellSet = b
            .parse_cells("c1 a3", Notation::Letters)
            .unwrap()
            .into_iter()
            .collect();
        let a = ascii_sides(&p, Colour::Black, first, second, Notation::Letters);
        assert_eq!(a, "    a b c\n 1  O t +\n 2   . X .\n 3    b . .\n");
        let m = ascii_mustplay(&p, first, Notation::Letters);
        assert!(m.contains("O ! !"));
        let s1 = svg(
            &p,
            Colour::Black,
            first,
            second,
            Some(first),
            Notation::Letters,
            &["x <y>".into()],
        );
        assert_eq!(
            s1,
            svg(
                &p,
                Colour::Black,
                first,
                second,
                Some(first),
                Notation::Letters,
                &["x <y>".into()]
            )
        );
        assert_eq!(s1.matches("<polygon").count(), 9);
        assert!(s1.contains("x &lt;y&gt;"));
        assert!(s1.ends_with("</svg>\n"));
    }
}
