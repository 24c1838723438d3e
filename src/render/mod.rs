//! Drawing puzzles for people: the puzzle as printed ([`Picture`]), drawn
//! as terminal text (`text`), as SVG (`svg`), as a printable HTML page of
//! many (`html`), and the archive's counts as inline-SVG charts (`chart`).
//!
//! Pure: stored strings and analyses in, strings out. No I/O, no archive,
//! no command line; callers write what is drawn. Every drawing appends to a
//! caller's buffer, so a stream of puzzles reuses one.

pub mod chart;
pub mod html;
pub mod svg;
pub mod text;

use crate::core::grid::CELLS;
use crate::core::killer::cages::Regions;
use crate::core::mask::Mask;
use crate::core::vocabulary::{Analysis, PuzzleType};
use crate::core::{base32, sudoku};

/// Why a stored puzzle cannot be drawn: its strings do not read back (a
/// damaged archive), said with the string's type and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} {what} cannot be drawn: {why}")]
pub struct DrawError {
    pub kind: PuzzleType,
    pub what: &'static str,
    pub why: String,
}

/// What a drawing shows besides the puzzle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Layers {
    /// The propagated candidates of the cells not placed.
    pub candidates: bool,
    /// The unique solution, when there is one.
    pub solution: bool,
}

/// A puzzle as it is printed: its givens and, by type, its cages and sums
/// or its black cells; optionally the propagated candidates and the
/// solution. Fixed arrays: drawing a stream of puzzles allocates nothing
/// per puzzle here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub kind: PuzzleType,
    /// The given digit of each cell, 0 for none.
    pub given: [u8; CELLS],
    /// Str8ts: the black cells.
    pub black: [bool; CELLS],
    /// Killer: each cell's cage, numbered in reading order of the cages'
    /// first cells (0 for the other types).
    pub cage: [u8; CELLS],
    /// Killer: the sum, written at its cage's first cell (0 elsewhere).
    pub sum: [u8; CELLS],
    /// The propagated candidates, when asked for.
    pub candidates: Option<[Mask; CELLS]>,
    /// The unique solution's digit of each cell (0 for a black cell), when
    /// asked for and there is one.
    pub solution: Option<[u8; CELLS]>,
}

impl Picture {
    /// The picture of a stored puzzle: its type, `givens` (the identity),
    /// `encoding` (the packed string of the propagated board, read only
    /// for the candidates) and unique solution. Reads the strings, solves
    /// nothing.
    pub fn from_stored(
        kind: PuzzleType,
        givens: &str,
        encoding: &str,
        solution: Option<&str>,
        layers: Layers,
    ) -> Result<Picture, DrawError> {
        let mut p = Picture::of_identity(kind, givens)?;
        if layers.candidates {
            p.candidates = Some(candidates(kind, encoding)?);
        }
        if layers.solution {
            p.solution = solution.map(|s| digits(kind, "solution", s)).transpose()?;
        }
        Ok(p)
    }

    /// The picture of an analysed puzzle (what `show` draws).
    pub fn from_analysis(a: &Analysis, layers: Layers) -> Result<Picture, DrawError> {
        let mut p = Picture::of_identity(a.kind, &a.givens)?;
        if layers.candidates {
            p.candidates = Some(a.candidates);
        }
        if layers.solution {
            p.solution = a
                .status
                .solution()
                .map(|s| digits(a.kind, "solution", s))
                .transpose()?;
        }
        Ok(p)
    }

    /// The givens and layout of an identity string ([`Analysis::givens`]):
    /// Sudoku 81 digits; Killer `81 cage labels,162 sum digits[,81 digits]`
    /// (touching cages never share a label); Str8ts 81 digits then 81
    /// colours (`1` black).
    fn of_identity(kind: PuzzleType, s: &str) -> Result<Picture, DrawError> {
        let bad = |why: String| DrawError {
            kind,
            what: "identity",
            why,
        };
        let mut p = Picture {
            kind,
            given: [0; CELLS],
            black: [false; CELLS],
            cage: [0; CELLS],
            sum: [0; CELLS],
            candidates: None,
            solution: None,
        };
        let b = s.as_bytes();
        match kind {
            PuzzleType::Sudoku => p.given = digits(kind, "identity", s)?,
            PuzzleType::Str8ts => {
                if b.len() != 2 * CELLS {
                    return Err(bad(format!("{} characters, expected 162", b.len())));
                }
                p.given = digits(kind, "identity", &s[..CELLS])?;
                for (black, &c) in p.black.iter_mut().zip(&b[CELLS..]) {
                    *black = c == b'1';
                }
            }
            PuzzleType::Killer => {
                let mut parts = s.split(',');
                let (Some(layout), Some(sums)) = (parts.next(), parts.next()) else {
                    return Err(bad("no comma".into()));
                };
                let layout: &[u8; CELLS] = layout
                    .as_bytes()
                    .try_into()
                    .map_err(|_| bad(format!("{} layout characters, expected 81", layout.len())))?;
                if sums.len() != 2 * CELLS || !sums.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(bad(format!("sums {sums:?}, expected 162 digits")));
                }
                let regions = Regions::new(layout);
                p.cage = regions.of;
                for (sum, pair) in p.sum.iter_mut().zip(sums.as_bytes().chunks_exact(2)) {
                    *sum = (pair[0] - b'0') * 10 + (pair[1] - b'0');
                }
                if let Some(placed) = parts.next() {
                    p.given = digits(kind, "identity", placed)?;
                }
            }
        }
        Ok(p)
    }

    /// Whether `cell` is a Str8ts black cell.
    pub fn is_black(&self, cell: usize) -> bool {
        self.black[cell]
    }

    /// The number of cages (Killer), else 0.
    pub fn cage_count(&self) -> usize {
        match self.kind {
            PuzzleType::Killer => self
                .cage
                .iter()
                .map(|&k| usize::from(k) + 1)
                .max()
                .unwrap_or(0),
            _ => 0,
        }
    }
}

/// 81 characters read as digits, `0` (or anything not 1-9) for none.
fn digits(kind: PuzzleType, what: &'static str, s: &str) -> Result<[u8; CELLS], DrawError> {
    let b: &[u8; CELLS] = s.as_bytes().try_into().map_err(|_| DrawError {
        kind,
        what,
        why: format!("{} characters, expected 81", s.len()),
    })?;
    Ok(b.map(|c| match c {
        b'1'..=b'9' => c - b'0',
        _ => 0,
    }))
}

/// The candidates of a stored packed string: per cell, `width` base-32
/// characters holding the mask shifted left by `shift` (Sudoku 2 and 1,
/// Killer's second field 2 and 1, Str8ts 3 and 2). An empty white mask
/// means "no information": all nine.
fn candidates(kind: PuzzleType, encoding: &str) -> Result<[Mask; CELLS], DrawError> {
    let (field, width, shift) = match kind {
        PuzzleType::Sudoku => (encoding, 2, 1),
        PuzzleType::Killer => (encoding.split(',').nth(1).unwrap_or_default(), 2, 1),
        PuzzleType::Str8ts => (encoding, 3, 2),
    };
    let bad = |why: String| DrawError {
        kind,
        what: "encoding",
        why,
    };
    if field.len() != width * CELLS {
        return Err(bad(format!(
            "{} characters, expected {}",
            field.len(),
            width * CELLS
        )));
    }
    let mut out = [Mask::EMPTY; CELLS];
    for (m, chunk) in out.iter_mut().zip(field.as_bytes().chunks_exact(width)) {
        let n = base32::decode(chunk).map_err(|k| bad(format!("character {k} of {chunk:?}")))?;
        let black = kind == PuzzleType::Str8ts && n & 2 != 0;
        *m = match Mask::from_bits_truncate(n >> shift) {
            Mask::EMPTY if !black => Mask::ALL,
            m => m,
        };
    }
    debug_assert_eq!(sudoku::PACKED_LEN, 2 * CELLS);
    Ok(out)
}

/// Appends `s` with the five characters XML and HTML reserve escaped.
pub fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::puzzle::{self, TypeHint};

    fn sample(name: &str) -> String {
        let path = format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap()
    }

    /// The picture drawn from the stored strings is the one drawn from the
    /// analysis: same givens, cages, sums, black cells, candidates, solution.
    #[test]
    fn the_stored_strings_draw_what_the_analysis_draws() {
        let layers = Layers {
            candidates: true,
            solution: true,
        };
        let mut seen = [0; 3];
        for file in ["classic.txt", "killer.txt", "str8ts.txt"] {
            let text = sample(file);
            let lines = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
            for line in lines.filter_map(|l| l.split_whitespace().next()) {
                let Ok(a) = puzzle::analyse(line, TypeHint::Auto) else {
                    continue;
                };
                let from_analysis = Picture::from_analysis(&a, layers).unwrap();
                let stored = Picture::from_stored(
                    a.kind,
                    &a.givens,
                    &a.encoding,
                    a.status.solution(),
                    layers,
                )
                .unwrap();
                assert_eq!(stored, from_analysis, "{line}");
                for (cell, &given) in a.given.iter().enumerate() {
                    assert_eq!(stored.given[cell] != 0, given, "{line} cell {cell}");
                }
                if a.kind == PuzzleType::Killer {
                    for cell in 0..CELLS {
                        assert_eq!(
                            usize::from(stored.cage[cell]) + 1,
                            usize::from(a.shading[cell])
                        );
                    }
                    let total: u32 = stored.sum.iter().map(|&s| u32::from(s)).sum();
                    assert_eq!(total, 405, "{line}");
                }
                if a.kind == PuzzleType::Str8ts {
                    assert_eq!(stored.black.map(u8::from), a.shading);
                }
                seen[a.kind as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }
}
