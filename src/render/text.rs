//! A puzzle as text, for a terminal or a pipe: a grid drawn with the
//! Unicode box-drawing characters, the 3x3 boxes in heavy lines and the
//! cells in light ones, as printed. Killer cages are outlined: a light line
//! between two cages, none inside one, and a box line crossed by a cage
//! dashed; each cage's sum sits in the top line of its first cell. Str8ts
//! black cells are filled (`███`, a black given `█5█`).
//!
//! Colour (ANSI escapes) only when the caller asks: bold givens, blue
//! solved digits, yellow sums, black givens in reverse video. Without
//! colour the text is the same minus the escapes.

use super::Picture;
use crate::core::mask::Digit;
use crate::core::vocabulary::PuzzleType;

/// What one grid shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The puzzle as printed: givens only.
    Puzzle,
    /// Every cell's propagated candidates (givens marked `*5*`).
    Candidates,
    /// The solution (the picture's, when it has one).
    Solution,
}

/// One stretch of line between two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    None,
    Light,
    Heavy,
    /// A box line inside a Killer cage.
    Dashed,
}

impl Line {
    /// Its weight where it meets other lines: 0 none, 1 light, 2 heavy.
    fn arm(self) -> usize {
        match self {
            Line::None => 0,
            Line::Light => 1,
            Line::Heavy | Line::Dashed => 2,
        }
    }

    fn across(self) -> char {
        ['\u{20}', '─', '━', '╍'][self as usize]
    }

    fn down(self) -> char {
        ['\u{20}', '│', '┃', '╏'][self as usize]
    }
}

/// The box-drawing character of each junction, indexed by the weights of
/// its arms: up * 27 + right * 9 + down * 3 + left.
const JUNCTIONS: &str =
    " ╴╸╷┐┑╻┒┓╶─╾┌┬┭┎┰┱╺╼━┍┮┯┏┲┳╵┘┙│┤┥╽┧┪└┴┵├┼┽┟╁╅┕┶┷┝┾┿┢╆╈╹┚┛╿┦┩┃┨┫┖┸┹┞╀╃┠╂╉┗┺┻┡╄╇┣╊╋";

fn junction(up: Line, right: Line, down: Line, left: Line) -> char {
    let k = up.arm() * 27 + right.arm() * 9 + down.arm() * 3 + left.arm();
    JUNCTIONS.chars().nth(k).unwrap_or('+')
}

/// The line between two cells `a` and `b`, on a box line or not.
fn border(p: &Picture, a: usize, b: usize, box_line: bool) -> Line {
    match p.kind {
        PuzzleType::Sudoku if box_line => Line::Heavy,
        PuzzleType::Sudoku | PuzzleType::Str8ts => Line::Light,
        PuzzleType::Killer => match (box_line, p.cage[a] == p.cage[b]) {
            (true, false) => Line::Heavy,
            (true, true) => Line::Dashed,
            (false, false) => Line::Light,
            (false, true) => Line::None,
        },
    }
}

/// The line left of column `c` (0..=9) in row `r`.
fn vertical(p: &Picture, r: usize, c: usize) -> Line {
    match c {
        0 | 9 => Line::Heavy,
        _ => border(p, r * 9 + c - 1, r * 9 + c, c.is_multiple_of(3)),
    }
}

/// The line above row `r` (0..=9) in column `c`.
fn horizontal(p: &Picture, r: usize, c: usize) -> Line {
    match r {
        0 | 9 => Line::Heavy,
        _ => border(p, (r - 1) * 9 + c, r * 9 + c, r.is_multiple_of(3)),
    }
}

/// The escapes each kind of mark is drawn with, or none.
struct Ink {
    given: &'static str,
    solved: &'static str,
    sum: &'static str,
    on_black: &'static str,
    reset: &'static str,
}

const PLAIN: Ink = Ink {
    given: "",
    solved: "",
    sum: "",
    on_black: "",
    reset: "",
};

const COLOUR: Ink = Ink {
    given: "\x1b[1m",
    solved: "\x1b[34m",
    sum: "\x1b[33m",
    on_black: "\x1b[7m",
    reset: "\x1b[0m",
};

/// Appends the grid of `p` showing `layer`, with or without colour.
pub fn grid(p: &Picture, layer: Layer, colour: bool, out: &mut String) {
    let ink = if colour { &COLOUR } else { &PLAIN };
    let (width, body) = match layer {
        Layer::Candidates => (7, 3),
        _ if p.kind == PuzzleType::Killer => (5, 1),
        _ => (3, 1),
    };
    let sum_line = usize::from(p.kind == PuzzleType::Killer);
    for r in 0..=9 {
        for c in 0..=9 {
            let up = if r > 0 {
                vertical(p, r - 1, c)
            } else {
                Line::None
            };
            let down = if r < 9 { vertical(p, r, c) } else { Line::None };
            let left = if c > 0 {
                horizontal(p, r, c - 1)
            } else {
                Line::None
            };
            let right = if c < 9 {
                horizontal(p, r, c)
            } else {
                Line::None
            };
            out.push(junction(up, right, down, left));
            if c < 9 {
                out.extend(std::iter::repeat_n(right.across(), width));
            }
        }
        out.push('\n');
        if r == 9 {
            break;
        }
        for k in 0..sum_line + body {
            for c in 0..=9 {
                out.push(vertical(p, r, c).down());
                if c < 9 {
                    let cell = r * 9 + c;
                    if k < sum_line {
                        sum(p, cell, width, ink, out);
                    } else {
                        content(p, layer, cell, k - sum_line, (width, body), ink, out);
                    }
                }
            }
            out.push('\n');
        }
    }
}

/// A Killer cell's top line: its cage's sum at the cage's first cell.
fn sum(p: &Picture, cell: usize, width: usize, ink: &Ink, out: &mut String) {
    match p.sum[cell] {
        0 => out.extend(std::iter::repeat_n(' ', width)),
        s => {
            let text = s.to_string();
            out.push_str(ink.sum);
            out.push_str(&text);
            out.push_str(ink.reset);
            out.extend(std::iter::repeat_n(' ', width - text.len()));
        }
    }
}

/// Line `k` of a cell's body (`size`: its width and number of lines).
fn content(
    p: &Picture,
    layer: Layer,
    cell: usize,
    k: usize,
    (width, lines): (usize, usize),
    ink: &Ink,
    out: &mut String,
) {
    let middle = k == lines / 2;
    let black = p.black[cell];
    let fill = if black { '█' } else { ' ' };
    let given = p.given[cell];
    let candidates = p.candidates.map(|c| c[cell]);
    // One digit in the middle of the cell, or a line of candidates.
    let (digit, style) = match layer {
        _ if given != 0 => (given, if black { ink.on_black } else { ink.given }),
        Layer::Puzzle => (0, ""),
        Layer::Solution => (p.solution.map_or(0, |s| s[cell]), ink.solved),
        Layer::Candidates => match candidates.and_then(|m| m.single()) {
            Some(d) => (d.get(), ink.solved),
            None if black => (0, ""),
            None => {
                let m = candidates.unwrap_or_default();
                out.push(' ');
                for d in (1..=3).map(|i| (k * 3 + i) as u8) {
                    let has = Digit::new(d).is_some_and(|d| m.contains(d));
                    out.push(if has { char::from(b'0' + d) } else { '.' });
                    out.push(' ');
                }
                return;
            }
        },
    };
    if !middle || digit == 0 {
        out.extend(std::iter::repeat_n(fill, width));
        return;
    }
    let marked = layer == Layer::Candidates && given != 0 && !black;
    let text_width = if marked { 3 } else { 1 };
    let left = (width - text_width) / 2;
    out.extend(std::iter::repeat_n(fill, left));
    if marked {
        out.push('*');
    }
    out.push_str(style);
    out.push(char::from(b'0' + digit));
    out.push_str(if style.is_empty() { "" } else { ink.reset });
    if marked {
        out.push('*');
    }
    out.extend(std::iter::repeat_n(fill, width - left - text_width));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_junction_has_the_arms_it_is_indexed_by() {
        use Line::*;
        let cases = [
            ((None, None, None, None), ' '),
            ((None, Heavy, Heavy, None), '┏'),
            ((Heavy, Heavy, Heavy, Heavy), '╋'),
            ((Light, Light, Light, Light), '┼'),
            ((Heavy, Light, Heavy, Light), '╂'),
            ((Light, Heavy, Light, Heavy), '┿'),
            ((None, Light, None, Light), '─'),
            ((Dashed, None, Dashed, None), '┃'),
            ((Light, None, None, Light), '┘'),
        ];
        for ((u, r, d, l), want) in cases {
            assert_eq!(junction(u, r, d, l), want, "{u:?} {r:?} {d:?} {l:?}");
        }
        assert_eq!(JUNCTIONS.chars().count(), 81);
    }
}
