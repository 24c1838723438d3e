//! Grids on nine lines: what a line of a grid is, and how nine rows (or,
//! for Str8ts, two blocks of nine) become one of the archive's own legacy
//! strings. Which lines form a grid is [`super::layout`]'s, which calls
//! [`classify`] on each short line.
//!
//! Pure string handling over bytes, no I/O. The characters of a row and of
//! a separator line: docs/architecture.md "Module notes".

/// The longest line read as a grid row or separator.
pub const MAX_ROW: usize = 64;

/// What a short line is, for grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// Cells: how many, and the first [`CELLS_KEPT`] of them.
    Row(Row),
    /// `---+---+---` and the like.
    Separator,
    /// Anything else.
    Other,
}

const CELLS_KEPT: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub count: usize,
    pub cells: [u8; CELLS_KEPT],
}

fn is_cell(c: u8) -> bool {
    matches!(c, b'0'..=b'9' | b'.' | b'_' | b'*' | b'-' | b'#' | b'a'..=b'i' | b'x' | b'X')
}

/// What a line is; a line longer than [`MAX_ROW`] is [`Line::Other`] at once.
pub fn classify(line: &[u8]) -> Line {
    if line.len() > MAX_ROW {
        return Line::Other;
    }
    let mut row = Row {
        count: 0,
        cells: [0; CELLS_KEPT],
    };
    let (mut dashes, mut other) = (0, false);
    for &c in line {
        match c {
            b' ' | b'\t' | b'|' | b'+' => {}
            b'=' => dashes += 1,
            c if is_cell(c) => {
                if c == b'-' {
                    dashes += 1;
                } else {
                    other = true;
                }
                if let Some(slot) = row.cells.get_mut(row.count) {
                    *slot = c;
                }
                row.count += 1;
            }
            _ => return Line::Other,
        }
    }
    if !other {
        return if dashes >= 3 {
            Line::Separator
        } else {
            Line::Other
        };
    }
    Line::Row(row)
}

/// A blank line (only spaces and tabs).
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|c| matches!(c, b' ' | b'\t'))
}

/// A line of words (a grid's title or note): short, not a row, with a word
/// of two or more letters, and no word as long as a puzzle string.
pub fn is_prose(line: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(line) else {
        return false;
    };
    let s = s.trim();
    s.len() <= 120
        && !s.starts_with('#')
        && s.split_whitespace().all(|w| w.len() < 60)
        && s.split_whitespace()
            .any(|w| w.chars().filter(char::is_ascii_alphabetic).count() >= 2)
        && classify(line) == Line::Other
}

/// The kind of grid a block of rows is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Classic,
    /// `.` white, `#` black, `1`-`9` white given, `a`-`i` black given.
    Str8ts,
    /// `x` black and `.` white only: the colours of a Str8ts grid whose
    /// digits follow in a second block.
    Colours,
}

/// A complete block of nine rows of nine cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub kind: Kind,
    /// Row by row.
    pub cells: Vec<u8>,
}

/// Why a block of lines is not a grid: the message names the line (its
/// number, given by the caller as `line_of(row)`).
pub fn block(rows: &[(u64, Row)]) -> Result<Block, String> {
    let first = rows.first().map_or(0, |r| r.0);
    if let Some((line, r)) = rows.iter().find(|(_, r)| r.count != 9) {
        return Err(format!(
            "grid starting at line {first}: line {line} has {} {}, expected 9",
            r.count,
            if r.count == 1 { "cell" } else { "cells" }
        ));
    }
    if rows.len() != 9 {
        let last = rows.last().map_or(first, |r| r.0);
        return Err(format!(
            "grid starting at line {first}: {} rows (lines {first}-{last}), expected 9",
            rows.len()
        ));
    }
    let cells: Vec<u8> = rows
        .iter()
        .flat_map(|(_, r)| r.cells[..9].to_vec())
        .collect();
    let has = |f: fn(u8) -> bool| cells.iter().any(|&c| f(c));
    let kind = if has(|c| matches!(c, b'x' | b'X')) {
        Kind::Colours
    } else if has(|c| matches!(c, b'#' | b'a'..=b'i')) {
        Kind::Str8ts
    } else {
        Kind::Classic
    };
    let allowed: fn(u8) -> bool = match kind {
        Kind::Colours => |c| matches!(c, b'x' | b'X' | b'.'),
        Kind::Str8ts => |c| matches!(c, b'0'..=b'9' | b'.' | b'#' | b'a'..=b'i'),
        Kind::Classic => |c| matches!(c, b'0'..=b'9' | b'.' | b'_' | b'*' | b'-'),
    };
    if let Some(at) = cells.iter().position(|&c| !allowed(c)) {
        let (line, _) = rows[at / 9];
        let what = match kind {
            Kind::Colours => "a Str8ts colour grid (x black, . white)",
            Kind::Str8ts => "a Str8ts grid (. white, # black, a-i black givens)",
            Kind::Classic => "a classic grid",
        };
        return Err(format!(
            "grid starting at line {first}: line {line} cell {} is {:?}, not a cell of {what}",
            at % 9 + 1,
            char::from(cells[at])
        ));
    }
    Ok(Block { kind, cells })
}

/// The puzzle string of a classic or Str8ts block.
pub fn puzzle_string(b: &Block) -> String {
    let digit = |c: u8| match c {
        b'1'..=b'9' => c,
        b'a'..=b'i' => c - b'a' + b'1',
        _ => b'0',
    };
    let digits = b.cells.iter().map(|&c| char::from(digit(c)));
    match b.kind {
        Kind::Classic => digits.collect(),
        Kind::Str8ts => digits
            .chain(b.cells.iter().map(|&c| {
                if matches!(c, b'#' | b'a'..=b'i') {
                    '1'
                } else {
                    '0'
                }
            }))
            .collect(),
        Kind::Colours => String::new(),
    }
}

/// The Str8ts string of a colour block and the block of its digits.
pub fn str8ts_string(colours: &Block, digits: &Block, digits_line: u64) -> Result<String, String> {
    if digits.kind != Kind::Classic {
        return Err(format!(
            "the digits grid of a Str8ts colour grid, at line {digits_line}, holds more than digits and empties"
        ));
    }
    let digits = digits.cells.iter().map(|&c| match c {
        b'1'..=b'9' => char::from(c),
        _ => '0',
    });
    let flags = colours
        .cells
        .iter()
        .map(|&c| if c == b'.' { '0' } else { '1' });
    Ok(digits.chain(flags).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<(u64, Row)> {
        text.lines()
            .enumerate()
            .filter_map(|(i, l)| match classify(l.as_bytes()) {
                Line::Row(r) => Some((i as u64 + 1, r)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn spellings_of_a_row() {
        for row in [
            "003020600",
            "..3.2.6..",
            "0 0 3 0 2 0 6 0 0",
            "| . . 3 | . 2 . | 6 . . |",
            "__3_2_6__",
            "**3*2*6**",
        ] {
            assert!(
                matches!(classify(row.as_bytes()), Line::Row(r) if r.count == 9),
                "{row}"
            );
        }
        for sep in [
            "------+-------+------",
            "+---+---+---+",
            "=========",
            " - - - - -",
        ] {
            assert_eq!(classify(sep.as_bytes()), Line::Separator, "{sep}");
        }
        for other in ["Grid 01", "# comment", "", &"1".repeat(81)] {
            assert!(
                !matches!(classify(other.as_bytes()), Line::Row(_)),
                "{other}"
            );
        }
        assert!(is_prose(b"Grid 01"));
        assert!(is_prose(b"From str8ts.com 9. Feb. 2016"));
        assert!(!is_prose(b"#f9.#..##"));
    }

    #[test]
    fn a_damaged_block_names_its_line() {
        let mut text = "123456789\n".repeat(9);
        text = text.replacen("123456789\n", "1234567890\n", 2).replacen(
            "1234567890\n",
            "123456789\n",
            1,
        );
        let e = block(&rows(&text)).unwrap_err();
        assert_eq!(
            e,
            "grid starting at line 1: line 2 has 10 cells, expected 9"
        );
        let e = block(&rows(&"123456789\n".repeat(8))).unwrap_err();
        assert!(e.contains("8 rows (lines 1-8)"), "{e}");
    }

    #[test]
    fn str8ts_grids_become_legacy_strings() {
        let b = block(&rows(
            "#f9.#..##\n.........\n..ai..#.6\n1...#..##\n#.......#\nh#..#...2\n..#..##..\n..3...8..\n##..#..g#\n",
        ))
        .unwrap();
        assert_eq!(b.kind, Kind::Str8ts);
        let s = puzzle_string(&b);
        assert_eq!(&s[..9], "069000000");
        assert_eq!(&s[81..90], "110010011");
    }
}
