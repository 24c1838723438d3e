//! A puzzle as SVG, drawn the way the puzzle sites draw it: givens in
//! large digits; thin cell lines and heavy box lines (Str8ts has no boxes);
//! Killer cages as dashed outlines inset from the cell edges, the sum in
//! small digits at the cage's first (top-left) cell; Str8ts black cells
//! filled with their givens in white. Candidates are small digits in a 3x3
//! layout; solved digits are blue.
//!
//! Each mark carries what it stands for (`class`, `data-cell`, a cage's
//! `data-sum` and `data-cells`), so a reader can take the drawing back
//! apart. No ids, no external references: many drawings can sit inline in
//! one HTML page.

use std::fmt::Write as _;

use super::Picture;
use crate::core::grid::CELLS;
use crate::core::vocabulary::PuzzleType;

/// One cell's side in user units (pixels when drawn at its own size).
pub const CELL: u32 = 50;
/// The space around the grid, for the outer line's width.
const MARGIN: u32 = 3;
/// The drawing's width and height.
pub const SIZE: u32 = 9 * CELL + 2 * MARGIN;
/// How far a cage's outline sits inside its cells' edges.
pub const INSET: u32 = 5;

/// The left (or top) edge of column (or row) `i`.
fn edge(i: usize) -> u32 {
    MARGIN + i as u32 * CELL
}

/// Appends the SVG document (or inline `<svg>` element) of `p`.
pub fn svg(p: &Picture, out: &mut String) {
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="puzzle" data-type="{kind}" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif"><rect width="{SIZE}" height="{SIZE}" fill="#fff"/>"##,
        kind = p.kind
    );
    for cell in (0..CELLS).filter(|&c| p.black[c]) {
        let _ = write!(
            out,
            r##"<rect class="black" data-cell="{cell}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#000"/>"##,
            x = edge(cell % 9),
            y = edge(cell / 9),
        );
    }
    grid_lines(p.kind, out);
    if p.kind == PuzzleType::Killer {
        cages(p, out);
    }
    for cell in 0..CELLS {
        digits(p, cell, out);
    }
    out.push_str("</svg>");
}

/// Thin lines between cells, heavy ones around boxes and the grid.
fn grid_lines(kind: PuzzleType, out: &mut String) {
    let (a, b) = (edge(0), edge(9));
    let thin = if kind == PuzzleType::Str8ts {
        "#777"
    } else {
        "#000"
    };
    let _ = write!(
        out,
        r#"<path class="cells" fill="none" stroke="{thin}" stroke-width="1" d=""#
    );
    for i in 1..9 {
        let _ = write!(out, "M{a} {e}H{b}M{e} {a}V{b}", e = edge(i));
    }
    out.push_str(r#""/>"#);
    if kind != PuzzleType::Str8ts {
        out.push_str(r##"<path class="boxes" fill="none" stroke="#000" stroke-width="3" d=""##);
        for i in [3, 6] {
            let _ = write!(out, "M{a} {e}H{b}M{e} {a}V{b}", e = edge(i));
        }
        out.push_str(r#""/>"#);
    }
    let _ = write!(
        out,
        r##"<rect class="frame" x="{a}" y="{a}" width="{w}" height="{w}" fill="none" stroke="#000" stroke-width="3"/>"##,
        w = 9 * CELL
    );
}

/// Each cage's dashed outline, inset from its cells' edges, and its sum.
///
/// A cell draws the sides it shares with another cage (or the grid's
/// edge), `INSET` inside. Each side runs to where its neighbours' sides
/// meet it: stopping `INSET` short of a corner where the cage turns away,
/// reaching `INSET` past it where the cage turns around (an inner corner),
/// and to the cell's edge where the cage goes straight on.
fn cages(p: &Picture, out: &mut String) {
    let same = |cell: usize, dr: isize, dc: isize| -> bool {
        let (r, c) = ((cell / 9) as isize + dr, (cell % 9) as isize + dc);
        (0..9).contains(&r) && (0..9).contains(&c) && p.cage[(r * 9 + c) as usize] == p.cage[cell]
    };
    let d = INSET as isize;
    let n = p.cage_count();
    for k in 0..n {
        let cells = (0..CELLS).filter(|&c| usize::from(p.cage[c]) == k);
        let first = cells.clone().next().unwrap_or(0);
        let _ = write!(
            out,
            r#"<path class="cage" data-cage="{k}" data-sum="{}" data-cells=""#,
            p.sum[first]
        );
        for (i, c) in cells.clone().enumerate() {
            let _ = write!(out, "{}{c}", if i > 0 { " " } else { "" });
        }
        out.push_str(
            r##"" fill="none" stroke="#000" stroke-width="1.2" stroke-dasharray="4 3" d=""##,
        );
        for cell in cells {
            let (x0, y0) = (edge(cell % 9) as isize, edge(cell / 9) as isize);
            let (x1, y1) = (x0 + CELL as isize, y0 + CELL as isize);
            // Where a side ends: short of the corner, past it, or at it.
            let end = |along: bool, diagonal: bool, at: isize, sign: isize| match (along, diagonal)
            {
                (false, _) => at - sign * d,
                (true, true) => at + sign * d,
                (true, false) => at,
            };
            if !same(cell, -1, 0) {
                let (a, b) = (
                    end(same(cell, 0, -1), same(cell, -1, -1), x0, -1),
                    end(same(cell, 0, 1), same(cell, -1, 1), x1, 1),
                );
                let _ = write!(out, "M{a} {}H{b}", y0 + d);
            }
            if !same(cell, 1, 0) {
                let (a, b) = (
                    end(same(cell, 0, -1), same(cell, 1, -1), x0, -1),
                    end(same(cell, 0, 1), same(cell, 1, 1), x1, 1),
                );
                let _ = write!(out, "M{a} {}H{b}", y1 - d);
            }
            if !same(cell, 0, -1) {
                let (a, b) = (
                    end(same(cell, -1, 0), same(cell, -1, -1), y0, -1),
                    end(same(cell, 1, 0), same(cell, 1, -1), y1, 1),
                );
                let _ = write!(out, "M{} {a}V{b}", x0 + d);
            }
            if !same(cell, 0, 1) {
                let (a, b) = (
                    end(same(cell, -1, 0), same(cell, -1, 1), y0, -1),
                    end(same(cell, 1, 0), same(cell, 1, 1), y1, 1),
                );
                let _ = write!(out, "M{} {a}V{b}", x1 - d);
            }
        }
        out.push_str(r#""/>"#);
        let sum = p.sum[first];
        if sum > 0 {
            let (x, y) = (edge(first % 9), edge(first / 9));
            let w = if sum >= 10 { 16 } else { 9 };
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="{w}" height="13" fill="#fff"/><text class="sum" data-cell="{first}" x="{}" y="{}" font-size="12">{sum}</text>"##,
                x + 2,
                y + 2,
                x + 3,
                y + 13,
            );
        }
    }
}

/// A cell's digits: its given, else its solution digit, else its
/// candidates, as far as the picture has them.
fn digits(p: &Picture, cell: usize, out: &mut String) {
    let (x, y) = (edge(cell % 9), edge(cell / 9));
    let big = |class: &str, digit: u8, fill: &str, out: &mut String| {
        let _ = write!(
            out,
            r#"<text class="{class}" data-cell="{cell}" x="{}" y="{}" font-size="30" text-anchor="middle" fill="{fill}">{digit}</text>"#,
            x + CELL / 2,
            y + CELL / 2 + 11,
        );
    };
    if p.given[cell] != 0 {
        let fill = if p.black[cell] { "#fff" } else { "#000" };
        big("given", p.given[cell], fill, out);
        return;
    }
    if p.black[cell] {
        return;
    }
    if let Some(d) = p.solution.map(|s| s[cell]).filter(|&d| d != 0) {
        big("solution", d, "#1c5bb8", out);
        return;
    }
    let Some(m) = p.candidates.map(|c| c[cell]) else {
        return;
    };
    if let Some(d) = m.single() {
        big("solution", d.get(), "#1c5bb8", out);
        return;
    }
    for d in m.digits() {
        let i = u32::from(d.get() - 1);
        let _ = write!(
            out,
            r##"<text class="candidate" data-cell="{cell}" x="{}" y="{}" font-size="11" text-anchor="middle" fill="#555">{}</text>"##,
            x + 11 + (i % 3) * 14,
            y + 16 + (i / 3) * 14,
            d.get()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::puzzle::{TypeHint, analyse};
    use crate::render::Layers;

    /// A cage that is one cell draws a closed square `INSET` inside it; an
    /// L of three cells draws six sides meeting at its corners, the inner
    /// one reaching past the cell corner.
    #[test]
    fn cage_outlines_meet_at_their_corners() {
        let killer = "212112111212112223213331443231221241134412231124133132322122212344411312111411312,171510200026110000000000000000000011000011000017160000001101060000090016110017000900000900001800160800040010160000001100002100001800001800140000080000000000000000";
        let a = analyse(killer, TypeHint::Auto).unwrap();
        let p = Picture::from_analysis(&a, Layers::default()).unwrap();
        let mut s = String::new();
        svg(&p, &mut s);
        let cages = s.matches(r#"class="cage""#).count();
        assert_eq!(cages, p.cage_count());
        // Every path's pen moves pair up into closed outlines: each point a
        // side ends at is the end of exactly one other side.
        for path in s.split(r#"class="cage""#).skip(1) {
            let d = path
                .split(" d=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let mut ends: std::collections::HashMap<(i64, i64), u32> = Default::default();
            for seg in d.split('M').filter(|x| !x.is_empty()) {
                let (start, rest) = seg.split_at(seg.find(['H', 'V']).unwrap());
                let mut xy = start.split(' ').map(|v| v.parse::<i64>().unwrap());
                let (x, y) = (xy.next().unwrap(), xy.next().unwrap());
                let to: i64 = rest[1..].parse().unwrap();
                let end = if rest.starts_with('H') {
                    (to, y)
                } else {
                    (x, to)
                };
                *ends.entry((x, y)).or_default() += 1;
                *ends.entry(end).or_default() += 1;
            }
            assert!(ends.values().all(|&n| n == 2), "{d}: {ends:?}");
        }
    }
}
