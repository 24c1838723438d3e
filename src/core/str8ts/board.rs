//! The Str8ts board and its two string forms: reading (with every rejection a
//! typed [`Error`] naming the cell or compartment), validating, and writing.
//! Pure: no propagation here beyond checking what the string itself states.

use crate::core::base32;
use crate::core::grid::{CELLS, Cell};
use crate::core::mask::{Digit, Mask};

use super::compartment::{Compartment, compartments};
use super::{CELL, Error, Form};

/// Length of the legacy form: 81 digits then 81 colours.
pub const LEGACY_LEN: usize = 2 * CELLS;
/// Length of the packed form: three base-32 characters per cell.
pub const PACKED_LEN: usize = 3 * CELLS;
/// The largest legal packed cell value: white with all nine candidates, `1vs`.
const PACKED_MAX: u16 = 511 << 2;

/// A Str8ts position: colours, given flags and each cell's digits.
///
/// A black cell holds `Mask::EMPTY` or its given digit; a white cell holds its
/// candidates (one bit = placed). The invariants are the ones the parsers
/// check, so every `Board` writes back to a string that reads again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    black: [bool; CELLS],
    given: [bool; CELLS],
    cells: [Mask; CELLS],
    compartments: Vec<Compartment>,
}

impl Board {
    /// Reads either form, told apart by length (162 legacy, 243 packed).
    pub fn parse(s: &str) -> Result<Board, Error> {
        match s.len() {
            LEGACY_LEN => Board::from_legacy(s),
            PACKED_LEN => Board::from_packed(s),
            len => Err(Error::Length { len }),
        }
    }

    /// Reads the legacy form: 81 of `0`-`9`, then 81 of `0` (white) / `1` (black).
    /// A white `0` has all nine candidates; a black `0` is an empty black cell.
    pub fn from_legacy(s: &str) -> Result<Board, Error> {
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
        Board::checked(black, given, cells, Form::Legacy)
    }

    /// Reads the packed form: per cell `n = (mask << 2) | (black << 1) | given`,
    /// three base-32 characters, either case.
    pub fn from_packed(s: &str) -> Result<Board, Error> {
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
        Board::checked(black, given, cells, Form::Packed)
    }

    /// [`Board::checked`] for the other string readers of this crate: the
    /// per-cell invariants (a black cell empty or a given, a white one with
    /// candidates) are the caller's to ensure.
    pub(crate) fn from_parts(
        black: [bool; CELLS],
        given: [bool; CELLS],
        cells: [Mask; CELLS],
        form: Form,
    ) -> Result<Board, Error> {
        Board::checked(black, given, cells, form)
    }

    /// Checks what spans several cells: no digit twice in a row or column,
    /// and each compartment's placed digits within one straight of its length.
    fn checked(
        black: [bool; CELLS],
        given: [bool; CELLS],
        cells: [Mask; CELLS],
        form: Form,
    ) -> Result<Board, Error> {
        for line in 0..9 {
            for (along, step) in [("row", 1), ("column", 9)] {
                let start = if step == 1 { line * 9 } else { line };
                let mut seen: [Option<Cell>; 9] = [None; 9];
                for k in 0..9 {
                    let i = start + k * step;
                    let Some(d) = cells[i].single() else { continue };
                    let slot = &mut seen[usize::from(d.get() - 1)];
                    if let Some(first) = *slot {
                        return Err(Error::Duplicate {
                            form,
                            digit: d,
                            along,
                            number: line + 1,
                            first,
                            second: CELL[i],
                        });
                    }
                    *slot = Some(CELL[i]);
                }
            }
        }
        let compartments = compartments(&black);
        for comp in &compartments {
            let placed: Mask = comp
                .cells()
                .iter()
                .filter_map(|c| cells[c.index()].single())
                .collect();
            // Duplicates were rejected above (a compartment lies in one line),
            // so only the spread can be wrong.
            if let (Some(lo), Some(hi)) = (placed.lowest(), placed.highest())
                && usize::from(hi.get() - lo.get()) >= comp.len()
            {
                return Err(Error::Straight {
                    form,
                    compartment: *comp,
                    digits: placed,
                });
            }
        }
        Ok(Board {
            black,
            given,
            cells,
            compartments,
        })
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

    pub fn is_black(&self, c: Cell) -> bool {
        self.black[c.index()]
    }

    pub fn is_given(&self, c: Cell) -> bool {
        self.given[c.index()]
    }

    /// A white cell's candidates (one bit = placed); a black cell's given or empty.
    pub fn candidates(&self, c: Cell) -> Mask {
        self.cells[c.index()]
    }

    /// Number of given digits, white and black.
    pub fn clues(&self) -> u32 {
        self.given.iter().map(|&g| u32::from(g)).sum()
    }

    pub fn compartments(&self) -> &[Compartment] {
        &self.compartments
    }

    pub fn black(&self) -> &[bool; CELLS] {
        &self.black
    }

    pub fn given(&self) -> &[bool; CELLS] {
        &self.given
    }

    pub fn masks(&self) -> &[Mask; CELLS] {
        &self.cells
    }

    /// The same puzzle with new cell contents: propagation's output. Black
    /// cells and givens keep what they had; the solver never changes them.
    pub(super) fn with_masks(&self, cells: [Mask; CELLS]) -> Board {
        Board {
            cells,
            ..self.clone()
        }
    }

    /// The solution string when every white cell is placed: each white cell's
    /// digit and each black given, `0` for an empty black cell.
    pub fn digits(&self) -> String {
        self.cells
            .iter()
            .map(|m| m.single().map_or('0', |d| char::from(d.to_ascii())))
            .collect()
    }
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
