//! The two Str8ts string forms (docs/formats.md "Str8ts"): reading, with
//! every rejection of a character or a cell value a typed [`Error`] naming
//! the cell, and writing. What spans several cells is `validate`'s.

use crate::core::base32;
use crate::core::grid::CELLS;
use crate::core::mask::{Digit, Mask};

use super::board::Str8ts;
use super::{CELL, Error, Form};

/// Length of the legacy form: 81 digits then 81 colours.
pub const LEGACY_LEN: usize = 2 * CELLS;
/// Length of the packed form: three base-32 characters per cell.
pub const PACKED_LEN: usize = 3 * CELLS;
/// The largest legal packed cell value: white with all nine candidates, `1vs`.
const PACKED_MAX: u16 = 511 << 2;

impl Str8ts {
    /// Reads either form, told apart by length (162 legacy, 243 packed).
    pub fn parse(s: &str) -> Result<Str8ts, Error> {
        match s.len() {
            LEGACY_LEN => Str8ts::from_legacy(s),
            PACKED_LEN => Str8ts::from_packed(s),
            len => Err(Error::Length { len }),
        }
    }

    /// Reads the legacy form: 81 of `0`-`9`, then 81 of `0` (white) / `1` (black).
    /// A white `0` has all nine candidates; a black `0` is an empty black cell.
    pub fn from_legacy(s: &str) -> Result<Str8ts, Error> {
        let b = s.as_bytes();
        if b.len() != LEGACY_LEN {
            return Err(Error::Length { len: b.len() });
        }
        // Characters first, in string order, so the error names the first bad one.
        for (pos, &c) in b.iter().enumerate() {
            if pos < CELLS && !c.is_ascii_digit() {
                return Err(bad_char(s, Form::Legacy, pos, "digit", "0-9"));
            }
            if pos >= CELLS && c != b'0' && c != b'1' {
                return Err(bad_char(
                    s,
                    Form::Legacy,
                    pos,
                    "colour",
                    "0 (white) or 1 (black)",
                ));
            }
        }
        let mut black = [false; CELLS];
        let mut given = [false; CELLS];
        let mut cells = [Mask::ALL; CELLS];
        for (i, (&d, &colour)) in b[..CELLS].iter().zip(&b[CELLS..]).enumerate() {
            black[i] = colour == b'1';
            if let Some(digit) = Digit::from_ascii(d) {
                given[i] = true;
                cells[i] = digit.mask();
            } else if black[i] {
                cells[i] = Mask::EMPTY;
            }
        }
        Str8ts::checked(black, given, cells, Form::Legacy)
    }

    /// Reads the packed form: per cell `n = (mask << 2) | (black << 1) | given`,
    /// three base-32 characters, either case.
    pub fn from_packed(s: &str) -> Result<Str8ts, Error> {
        let b = s.as_bytes();
        if b.len() != PACKED_LEN {
            return Err(Error::Length { len: b.len() });
        }
        let mut black = [false; CELLS];
        let mut given = [false; CELLS];
        let mut cells = [Mask::EMPTY; CELLS];
        for (i, chunk) in b.chunks_exact(3).enumerate() {
            let cell = CELL[i];
            let n = base32::decode(chunk)
                .map_err(|k| bad_char(s, Form::Packed, 3 * i + k, "value", "0-9 or a-v"))?;
            // `chunk` is three ASCII base-32 characters once decoded.
            let found = String::from_utf8_lossy(chunk).into_owned();
            if n > PACKED_MAX {
                return Err(Error::Value {
                    cell,
                    found,
                    value: n,
                });
            }
            let mask = Mask::from_bits_truncate(n >> 2);
            let (is_black, is_given) = (n & 2 != 0, n & 1 != 0);
            if is_black && mask.len() >= 2 {
                return Err(Error::BlackCandidates { cell, found, mask });
            }
            if is_given && mask.len() != 1 {
                return Err(Error::ClueFlag {
                    cell,
                    found,
                    count: mask.len(),
                });
            }
            if is_black && mask.len() == 1 && !is_given {
                return Err(Error::BlackUnflagged { cell, found, mask });
            }
            if !is_black && mask.is_empty() {
                return Err(Error::NoCandidates { cell, found });
            }
            black[i] = is_black;
            given[i] = is_given;
            cells[i] = mask;
        }
        Str8ts::checked(black, given, cells, Form::Packed)
    }

    /// The legacy form of the givens and colours: a white cell that is not a
    /// given is `0`, whatever its candidates.
    pub fn to_legacy(&self) -> String {
        let mut out = String::with_capacity(LEGACY_LEN);
        for i in 0..CELLS {
            let d = self.cells[i].single().filter(|_| self.given[i]);
            out.push(d.map_or('0', |d| char::from(d.to_ascii())));
        }
        for &b in &self.black {
            out.push(if b { '1' } else { '0' });
        }
        out
    }

    /// The packed form, lowercase.
    pub fn to_packed(&self) -> String {
        let mut out = String::with_capacity(PACKED_LEN);
        for i in 0..CELLS {
            let n = (self.cells[i].bits() << 2)
                | (u16::from(self.black[i]) << 1)
                | u16::from(self.given[i]);
            base32::encode_into(n, 3, &mut out);
        }
        out
    }
}

/// 81 digits then 81 colour flags `0`/`1`: the legacy 162 shape.
pub fn looks_like_legacy(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == LEGACY_LEN
        && b[..CELLS].iter().all(u8::is_ascii_digit)
        && b[CELLS..].iter().all(|&c| c == b'0' || c == b'1')
}

/// A bad character at byte `pos` of `s`: everything before it was ASCII (or the
/// scan would have stopped earlier), so `pos` is a char boundary.
fn bad_char(s: &str, form: Form, pos: usize, part: &'static str, expected: &'static str) -> Error {
    let found = s
        .get(pos..)
        .and_then(|t| t.chars().next())
        .unwrap_or('\u{fffd}');
    let per_cell = match form {
        Form::Legacy => 1,
        Form::Packed => 3,
        Form::VersionB => 2,
    };
    let cell = CELL[(pos / per_cell) % CELLS];
    Error::Character {
        form,
        pos,
        part,
        cell,
        found,
        expected,
    }
}
