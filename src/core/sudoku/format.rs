//! The two classic Sudoku strings of FORMATS.md, read and written: legacy
//! (81 characters, `1`-`9` given, `0`/`.` empty) and packed (162 characters,
//! two base-32 characters per cell, `n = (mask << 1) | clue`).
//!
//! Owns character-level parsing and the per-cell rules of each format (a clue
//! bit needs exactly one digit). Rules between cells (duplicates, candidates
//! against placed digits) are `validate`'s; nothing here solves.

use super::board::Board;
use super::{Error, Format};
use crate::core::base32;
use crate::core::grid::{CELLS, Cell};
use crate::core::mask::{Digit, Mask};

/// Length of a legacy string.
pub const LEGACY_LEN: usize = CELLS;
/// Length of a packed string.
pub const PACKED_LEN: usize = 2 * CELLS;

/// Reads a legacy 81-character string: every digit is a given.
pub fn parse_legacy(s: &str) -> Result<Board, Error> {
    let b = s.as_bytes();
    if b.len() != LEGACY_LEN {
        return Err(Error::Length {
            format: Format::Legacy,
            expected: "81",
            found: b.len(),
        });
    }
    let mut board = Board::new();
    for (cell, &c) in Cell::all().zip(b) {
        if c == b'0' || c == b'.' {
            continue;
        }
        match Digit::from_ascii(c) {
            Some(d) => board.set_given(cell, d),
            None => return Err(bad_character(s, Format::Legacy, cell.index(), cell)),
        }
    }
    Ok(board)
}

/// Writes the legacy form: placed digits (given or solved), `0` elsewhere.
pub fn write_legacy(board: &Board) -> String {
    Cell::all()
        .map(|c| board.placed(c).map_or('0', |d| d.to_ascii() as char))
        .collect()
}

/// Reads a packed 162-character string, either case.
///
/// Two base-32 characters hold at most 1023 (`vv`), whose mask is all nine
/// digits with the clue bit: so "above `vu`" is exactly the clue-on-a-set
/// error and is reported as such.
pub fn parse_packed(s: &str) -> Result<Board, Error> {
    let b = s.as_bytes();
    if b.len() != PACKED_LEN {
        return Err(Error::Length {
            format: Format::Packed,
            expected: "162",
            found: b.len(),
        });
    }
    let mut board = Board::new();
    for (cell, pair) in Cell::all().zip(b.chunks_exact(2)) {
        let pos = 2 * cell.index();
        let n = base32::decode(pair)
            .map_err(|off| bad_character(s, Format::Packed, pos + off, cell))?;
        let mask = Mask::from_bits_truncate(n >> 1);
        if n & 1 == 0 {
            board.set_mask(cell, mask);
            continue;
        }
        match mask.single() {
            Some(d) => board.set_given(cell, d),
            None => {
                let value = String::from_utf8_lossy(pair).into_owned();
                return Err(Error::ClueFlag { cell, value, mask });
            }
        }
    }
    Ok(board)
}

/// Writes the packed form in lowercase; an empty mask stays `00`.
pub fn write_packed(board: &Board) -> String {
    let mut out = String::with_capacity(PACKED_LEN);
    for c in Cell::all() {
        let n = (board.mask(c).bits() << 1) | u16::from(board.is_given(c));
        base32::encode_into(n, 2, &mut out);
    }
    out
}

/// The error for the byte at `pos`. Scanning stops at the first non-ASCII
/// byte, so `pos` is always a character boundary and the whole character
/// can be quoted.
fn bad_character(s: &str, format: Format, pos: usize, cell: Cell) -> Error {
    let found = s
        .get(pos..)
        .and_then(|t| t.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    Error::Character {
        format,
        pos,
        cell,
        found,
    }
}
