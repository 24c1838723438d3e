//! The two classic Sudoku strings of docs/formats.md "Classic Sudoku", read and written: legacy
//! (81 characters, `1`-`9` given, `0`/`.` empty) and packed (162 characters,
//! two base-32 characters per cell, `n = (mask << 1) | clue`).
//!
//! Owns character-level parsing and the per-cell rules of each format (a clue
//! bit needs exactly one digit). Rules between cells (duplicates, candidates
//! against placed digits) are `validate`'s; nothing here solves.

use super::board::Sudoku;
use super::{Error, Format};
use crate::core::base32;
use crate::core::grid::{CELLS, Cell};
use crate::core::mask::{Digit, Mask};

/// Length of a legacy string.
pub const LEGACY_LEN: usize = CELLS;
/// Length of a packed string.
pub const PACKED_LEN: usize = 2 * CELLS;

/// Reads a legacy 81-character string: every digit is a given.
pub fn parse_legacy(s: &str) -> Result<Sudoku, Error> {
    let b = s.as_bytes();
    if b.len() != LEGACY_LEN {
        return Err(Error::Length {
            format: Format::Legacy,
            expected: "81",
            found: b.len(),
        });
    }
    let mut board = Sudoku::new();
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
pub fn write_legacy(board: &Sudoku) -> String {
    Cell::all()
        .map(|c| board.placed(c).map_or('0', |d| d.to_ascii() as char))
        .collect()
}

/// Reads a packed 162-character string, either case.
///
/// Two base-32 characters hold at most 1023 (`vv`), whose mask is all nine
/// digits with the clue bit: so "above `vu`" is exactly the clue-on-a-set
/// error and is reported as such.
pub fn parse_packed(s: &str) -> Result<Sudoku, Error> {
    let b = s.as_bytes();
    if b.len() != PACKED_LEN {
        return Err(Error::Length {
            format: Format::Packed,
            expected: "162",
            found: b.len(),
        });
    }
    let mut board = Sudoku::new();
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
pub fn write_packed(board: &Sudoku) -> String {
    write_packed_cells(board.masks(), board.given_flags())
}

/// [`write_packed`] from the parts: each cell's mask and given flag.
pub(super) fn write_packed_cells(masks: &[Mask; CELLS], given: &[bool; CELLS]) -> String {
    let mut out = [0u8; PACKED_LEN];
    for ((pair, m), &g) in out.chunks_exact_mut(2).zip(masks).zip(given) {
        let n = usize::from((m.bits() << 1) | u16::from(g));
        pair.copy_from_slice(&PAIRS[n % PAIRS.len()]);
    }
    ascii_string(&out)
}

/// The two characters of every cell value: one load per cell, where
/// splitting the value into two alphabet lookups costs several.
const PAIRS: [[u8; 2]; 1024] = {
    let mut t = [[0u8; 2]; 1024];
    let mut n = 0;
    while n < 1024 {
        t[n] = [base32::ALPHABET[n >> 5], base32::ALPHABET[n & 31]];
        n += 1;
    }
    t
};

/// A String of ASCII bytes (anything else would become empty, which the
/// callers' tests would catch). Strict UTF-8 checking has a fast path for
/// ASCII that the lossy one lacks: this runs three times per imported line.
pub(super) fn ascii_string(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sudoku::corpus::{XWING_81, XWING_162, puzzles};
    use proptest::prelude::*;

    #[test]
    fn parse_errors_name_the_rule_the_cell_and_the_value() {
        let zeros = |n: usize| "0".repeat(n);
        let cases: [(&str, Result<Sudoku, Error>, &str, &str); 8] = [
            (
                "legacy too short",
                parse_legacy("123"),
                "length",
                "sudoku legacy: expected 81 characters, found 3",
            ),
            (
                "packed too short",
                parse_packed(&zeros(161)),
                "length",
                "sudoku packed: expected 162 characters, found 161",
            ),
            (
                "legacy letter",
                parse_legacy(&format!("{}x{}", zeros(40), zeros(40))),
                "character",
                "sudoku legacy: cell 40 (r5c5) has 'x' at position 40, expected a digit 1-9, 0 or '.'",
            ),
            (
                "legacy non-ascii",
                parse_legacy(&format!("é{}", zeros(79))),
                "character",
                "sudoku legacy: cell 0 (r1c1) has 'é' at position 0, expected a digit 1-9, 0 or '.'",
            ),
            (
                "packed beyond v",
                parse_packed(&format!("{}0w{}", zeros(80), zeros(80))),
                "character",
                "sudoku packed: cell 40 (r5c5) has 'w' at position 81, expected a base-32 character 0-9 or a-v",
            ),
            (
                "clue on empty",
                parse_packed(&format!("{}01", zeros(160))),
                "clue-flag",
                "sudoku packed: cell 80 (r9c9) value \"01\" flags a clue on an empty cell",
            ),
            (
                "clue on all nine (above vu)",
                parse_packed(&format!("vv{}", zeros(160))),
                "clue-flag",
                "sudoku packed: cell 0 (r1c1) value \"vv\" flags a clue on the set 123456789, not one digit",
            ),
            (
                "clue on a pair, upper case",
                parse_packed(&format!("00{}07", zeros(158))),
                "clue-flag",
                "sudoku packed: cell 80 (r9c9) value \"07\" flags a clue on the set 12, not one digit",
            ),
        ];
        for (name, result, code, message) in cases {
            let e = result.expect_err(name);
            assert_eq!(
                (e.code(), e.to_string().as_str()),
                (code, message),
                "{name}"
            );
        }
    }

    #[test]
    fn the_xwing_example_decodes_to_the_same_placed_digits_in_both_forms() {
        let legacy = parse_legacy(XWING_81).unwrap();
        let packed = parse_packed(XWING_162).unwrap();
        for c in Cell::all() {
            assert_eq!(packed.placed(c), legacy.placed(c), "{c}");
        }
        assert_eq!(write_legacy(&packed), XWING_81);
        // Only some placed digits are givens in the packed form.
        assert!(packed.clue_count() < legacy.clue_count());
        assert!(Cell::all().all(|c| !packed.is_given(c) || legacy.is_given(c)));
    }

    #[test]
    fn legacy_strings_round_trip_with_dots_normalised_to_zeros() {
        for (p, _) in puzzles(include_str!("../../../tests/data/classic/top1465.txt")) {
            let zeros = p.replace('.', "0");
            assert_eq!(write_legacy(&parse_legacy(p).unwrap()), zeros);
            assert_eq!(write_legacy(&parse_legacy(&zeros).unwrap()), zeros);
        }
    }

    #[test]
    fn packed_strings_round_trip_and_are_written_lowercase() {
        assert_eq!(write_packed(&parse_packed(XWING_162).unwrap()), XWING_162);
        assert_eq!(
            write_packed(&parse_packed(&XWING_162.to_uppercase()).unwrap()),
            XWING_162
        );
        let empty = "0".repeat(PACKED_LEN);
        assert_eq!(write_packed(&parse_packed(&empty).unwrap()), empty);
    }

    #[test]
    fn a_legacy_board_packs_with_its_givens_flagged() {
        let board = parse_legacy(XWING_81).unwrap();
        let packed = write_packed(&board);
        assert_eq!(&packed[..4], "0300"); // given 1 = 1<<1|1; empty = 00
        assert_eq!(parse_packed(&packed).unwrap(), board);
    }

    /// One legal packed cell value: empty, a given, a solved digit or a set.
    fn legal_cell() -> impl Strategy<Value = u16> {
        prop_oneof![
            Just(0u16),
            (0..9u16).prop_map(|d| (1 << d) << 1 | 1),
            (0..9u16).prop_map(|d| (1 << d) << 1),
            (3..512u16)
                .prop_filter("two or more digits", |m| m.count_ones() >= 2)
                .prop_map(|m| m << 1),
        ]
    }

    proptest! {
        #[test]
        fn every_legal_packed_string_decodes_and_reencodes_byte_for_byte(
            cells in proptest::collection::vec(legal_cell(), CELLS)
        ) {
            let mut s = String::new();
            for n in cells {
                base32::encode_into(n, 2, &mut s);
            }
            let board = parse_packed(&s).unwrap();
            prop_assert_eq!(write_packed(&board), s.clone());
            prop_assert_eq!(parse_packed(&s.to_uppercase()).unwrap(), board);
        }
    }
}
