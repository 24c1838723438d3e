//! The two Killer string forms, character by character (docs/formats.md "Killer
//! Sudoku"): legacy `81 colours,162 decimal sums` and packed
//! `162 base-32 (sum << 3 | colour - 1),162 base-32 (mask << 1)`.
//!
//! Reads either form into per-cell fields and writes them back unchanged, so
//! round trips are byte for byte. Checks only what one cell's characters can
//! tell; cages and sums are validated by the caller.

use crate::core::base32;
use crate::core::grid::CELLS;
use crate::core::grid::cell_at;
use crate::core::mask::Mask;

use super::cages::MAX_SUM;
use super::{Error, Form};

/// One Killer string decoded cell by cell, nothing checked across cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fields {
    pub form: Form,
    /// Colour 1..=5 of each cell.
    pub colour: [u8; CELLS],
    /// The sum written in each cell (0 = none).
    pub clue: [u8; CELLS],
    /// The candidates written in each cell (packed only; empty = nothing written).
    pub cells: [Mask; CELLS],
}

/// Decodes a bare Killer string of either form.
pub fn read(s: &str) -> Result<Fields, Error> {
    let Some(comma) = s.find(',') else {
        return Err(Error::Length {
            first: s.len(),
            second: None,
        });
    };
    let (first, second) = (&s.as_bytes()[..comma], &s.as_bytes()[comma + 1..]);
    match (first.len(), second.len()) {
        (81, 162) => read_legacy(s),
        (162, 162) => read_packed(s),
        (a, b) => Err(Error::Length {
            first: a,
            second: Some(b),
        }),
    }
}

/// The character of `s` at byte offset `pos`, for quoting it (the offset may
/// fall inside a multi-byte character).
fn char_at(s: &str, pos: usize) -> char {
    s.char_indices()
        .take_while(|&(i, _)| i <= pos)
        .last()
        .map_or('\u{fffd}', |(_, c)| c)
}

fn bad_char(s: &str, form: Form, pos: usize, i: usize, expected: &'static str) -> Error {
    Error::Character {
        form,
        pos,
        cell: cell_at(i),
        found: char_at(s, pos),
        expected,
    }
}

fn read_legacy(s: &str) -> Result<Fields, Error> {
    let b = s.as_bytes();
    let form = Form::Legacy;
    let mut f = Fields {
        form,
        colour: [0; CELLS],
        clue: [0; CELLS],
        cells: [Mask::EMPTY; CELLS],
    };
    for (i, &c) in b[..CELLS].iter().enumerate() {
        if !c.is_ascii_digit() {
            return Err(bad_char(s, form, i, i, "a colour 1-5"));
        }
        if !(b'1'..=b'5').contains(&c) {
            return Err(Error::Colour {
                form,
                cell: cell_at(i),
                found: (c as char).to_string(),
                expected: "1-5",
            });
        }
        f.colour[i] = c - b'0';
    }
    for i in 0..CELLS {
        let pos = 82 + 2 * i;
        let mut sum = 0u8;
        for (p, &c) in b.iter().enumerate().skip(pos).take(2) {
            if !c.is_ascii_digit() {
                return Err(bad_char(s, form, p, i, "a decimal digit"));
            }
            sum = sum * 10 + (c - b'0');
        }
        if sum > MAX_SUM {
            return Err(Error::Sum {
                form,
                cell: cell_at(i),
                found: u16::from(sum),
                text: s[pos..pos + 2].to_string(),
            });
        }
        f.clue[i] = sum;
    }
    Ok(f)
}

fn read_packed(s: &str) -> Result<Fields, Error> {
    let b = s.as_bytes();
    let form = Form::Packed;
    let mut f = Fields {
        form,
        colour: [0; CELLS],
        clue: [0; CELLS],
        cells: [Mask::EMPTY; CELLS],
    };
    let number = |pos: usize, i: usize| {
        base32::decode(&b[pos..pos + 2])
            .map_err(|off| bad_char(s, form, pos + off, i, "a base-32 character 0-9a-v"))
    };
    for i in 0..CELLS {
        let pos = 2 * i;
        let n = number(pos, i)?;
        let text = || s[pos..pos + 2].to_string();
        let field = n & 7;
        if field > 4 {
            return Err(Error::Colour {
                form,
                cell: cell_at(i),
                found: text(),
                expected: "colour field 0-4 (colours 1-5)",
            });
        }
        let sum = n >> 3;
        if sum > u16::from(MAX_SUM) {
            return Err(Error::Sum {
                form,
                cell: cell_at(i),
                found: sum,
                text: text(),
            });
        }
        f.colour[i] = field as u8 + 1;
        f.clue[i] = sum as u8;
    }
    for i in 0..CELLS {
        let pos = 163 + 2 * i;
        let n = number(pos, i)?;
        let mask = Mask::new(n >> 1).filter(|_| n & 1 == 0);
        let Some(mask) = mask else {
            return Err(Error::Mask {
                cell: cell_at(i),
                found: n,
                text: s[pos..pos + 2].to_string(),
            });
        };
        f.cells[i] = mask;
    }
    Ok(f)
}

/// The legacy form: colours, then two decimal digits of sum per cell.
pub fn write_legacy(colour: &[u8; CELLS], clue: &[u8; CELLS]) -> String {
    let mut out = String::with_capacity(244);
    out.extend(colour.iter().map(|&c| (b'0' + c) as char));
    out.push(',');
    for &sum in clue {
        out.push((b'0' + sum / 10) as char);
        out.push((b'0' + sum % 10) as char);
    }
    out
}

/// The packed form, lowercase.
pub fn write_packed(colour: &[u8; CELLS], clue: &[u8; CELLS], cells: &[Mask; CELLS]) -> String {
    let mut out = String::with_capacity(325);
    for (&c, &sum) in colour.iter().zip(clue) {
        base32::encode_into(
            u16::from(sum) << 3 | u16::from(c.saturating_sub(1)),
            2,
            &mut out,
        );
    }
    out.push(',');
    for m in cells {
        base32::encode_into(m.bits() << 1, 2, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_cells_decode_as_formats_md_says() {
        // Cell 0: sum 45 colour 5 = 364 = "bc"; its candidates {1,9} = 257<<1 = 514 = "g2".
        let s = format!("bc{},g2{}", "01".repeat(80), "00".repeat(80));
        let f = read(&s).unwrap();
        assert_eq!(
            (f.form, f.colour[0], f.clue[0], f.cells[0].bits()),
            (Form::Packed, 5, 45, 257)
        );
        assert_eq!((f.colour[1], f.clue[1], f.cells[1]), (2, 0, Mask::EMPTY));
        assert_eq!(write_packed(&f.colour, &f.clue, &f.cells), s);
        assert_eq!(read(&s.to_uppercase()).unwrap(), f);
    }

    #[test]
    fn a_character_inside_a_multibyte_character_is_quoted_whole() {
        assert_eq!(char_at("aé", 2), 'é');
        assert_eq!(char_at("aé", 1), 'é');
        assert_eq!(char_at("ab", 0), 'a');
    }
}
