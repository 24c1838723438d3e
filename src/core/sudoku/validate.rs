//! Rules between cells that make a parsed board unacceptable as a record:
//! a digit placed twice in a unit, or (packed strings) candidate sets that
//! contradict the digits already placed around them.
//!
//! A board that passes may still be unsolvable; finding that out is
//! `propagate`'s and `solve`'s job, and their answer is a status, not an error.

use std::fmt;

use super::board::Sudoku;
use super::{Error, Format};
use crate::core::grid::{CELLS, Cell, PEERS, UNITS, box_of};
use crate::core::mask::Mask;

/// A row, column or box, named 1-based as people read them (`row 3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    Row(u8),
    Column(u8),
    Box(u8),
}

impl Unit {
    /// The unit of `grid::UNITS[k]`: 0..9 rows, 9..18 columns, 18..27 boxes.
    pub const fn from_index(k: usize) -> Unit {
        let n = (k % 9) as u8;
        match k / 9 {
            0 => Unit::Row(n),
            1 => Unit::Column(n),
            _ => Unit::Box(n),
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(n) => write!(f, "row {}", n + 1),
            Unit::Column(n) => write!(f, "column {}", n + 1),
            Unit::Box(n) => write!(f, "box {}", n + 1),
        }
    }
}

/// Runs every check on a parsed board.
///
/// 1. `duplicate`: no digit is placed (given or solved) twice in a row,
///    column or box. This covers a solved digit clashing with a given.
/// 2. `candidates`: a cell that lists two or more candidates must keep at
///    least one that none of its peers has placed. Stale candidates are
///    tolerated (solvers publish states mid-way and propagation removes
///    them), but a listed set that its own placed digits wholly rule out
///    means the string contradicts itself. A cell without candidate
///    information (`00`, or empty in the legacy form) is not checked here:
///    if its peers use all nine digits that is an unsolvable puzzle, which
///    propagation reports as a contradiction, the same as for the 81 form.
pub fn validate(board: &Sudoku, format: Format) -> Result<(), Error> {
    // Nearly every board passes: one pass over bitmasks says so, and the
    // checks below run only to name the first failure.
    if passes(board) {
        return Ok(());
    }
    check_duplicates(board, format)?;
    check_candidates(board, format)
}

/// Row, column and box of each cell.
const UNITS_OF: [[u8; 3]; CELLS] = {
    let mut t = [[0u8; 3]; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = [(i / 9) as u8, (i % 9) as u8, box_of(i) as u8];
        i += 1;
    }
    t
};

/// Both checks at once on bitmasks, without saying what fails.
fn passes(board: &Sudoku) -> bool {
    // Placed digits per row, column and box; a digit met twice fails.
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    let mut sets = false;
    for (m, [r, c, b]) in board.masks().iter().zip(&UNITS_OF) {
        let bits = m.bits();
        if bits & bits.wrapping_sub(1) != 0 {
            sets = true;
            continue;
        }
        if bits == 0 {
            continue;
        }
        let (r, c, b) = (usize::from(*r), usize::from(*c), usize::from(*b));
        if (rows[r] | cols[c] | boxes[b]) & bits != 0 {
            return false;
        }
        rows[r] |= bits;
        cols[c] |= bits;
        boxes[b] |= bits;
    }
    // Listed sets (packed strings only) must keep a digit no peer placed.
    !sets
        || board.masks().iter().zip(&UNITS_OF).all(|(m, [r, c, b])| {
            let placed = rows[usize::from(*r)] | cols[usize::from(*c)] | boxes[usize::from(*b)];
            m.len() < 2 || m.bits() & !placed != 0
        })
}

fn check_duplicates(board: &Sudoku, format: Format) -> Result<(), Error> {
    for (k, unit) in UNITS.iter().enumerate() {
        let mut seen: [Option<Cell>; 9] = [None; 9];
        for cell in unit.iter().filter_map(|&i| Cell::new(i.into())) {
            let Some(digit) = board.placed(cell) else {
                continue;
            };
            let slot = &mut seen[usize::from(digit.get() - 1)];
            if let Some(first) = *slot {
                return Err(Error::Duplicate {
                    format,
                    digit,
                    unit: Unit::from_index(k),
                    first,
                    second: cell,
                });
            }
            *slot = Some(cell);
        }
    }
    Ok(())
}

fn check_candidates(board: &Sudoku, format: Format) -> Result<(), Error> {
    for cell in Cell::all() {
        let candidates = board.mask(cell);
        if candidates.len() < 2 {
            continue;
        }
        let placed: Mask = PEERS[cell.index()]
            .iter()
            .filter_map(|&p| Cell::new(p.into()).and_then(|p| board.placed(p)))
            .collect();
        if candidates.minus(placed).is_empty() {
            return Err(Error::Candidates {
                format,
                cell,
                candidates,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sudoku::{parse_legacy, parse_packed};

    /// A legacy string with the given (cell, digit) pairs.
    fn legacy(given: &[(usize, u8)]) -> String {
        let mut s = vec![b'.'; 81];
        for &(c, d) in given {
            s[c] = b'0' + d;
        }
        String::from_utf8(s).unwrap()
    }

    /// A packed string with the given (cell, two characters) pairs, `00` elsewhere.
    fn packed(cells: &[(usize, &str)]) -> String {
        let mut s = vec!["00"; 81];
        for &(c, v) in cells {
            s[c] = v;
        }
        s.concat()
    }

    fn check_legacy(s: &str) -> Result<(), Error> {
        validate(&parse_legacy(s).unwrap(), Format::Legacy)
    }

    fn check_packed(s: &str) -> Result<(), Error> {
        validate(&parse_packed(s).unwrap(), Format::Packed)
    }

    #[test]
    fn a_digit_placed_twice_in_a_unit_names_the_digit_the_unit_and_both_cells() {
        let cases = [
            (
                "row",
                check_legacy(&legacy(&[(0, 5), (8, 5)])),
                "sudoku legacy: digit 5 twice in row 1: r1c1 and r1c9",
            ),
            (
                "column",
                check_legacy(&legacy(&[(4, 7), (76, 7)])),
                "sudoku legacy: digit 7 twice in column 5: r1c5 and r9c5",
            ),
            (
                "box",
                check_legacy(&legacy(&[(60, 2), (80, 2)])),
                "sudoku legacy: digit 2 twice in box 9: r7c7 and r9c9",
            ),
            (
                "a solved digit against a given",
                check_packed(&packed(&[(0, "11"), (10, "10")])),
                "sudoku packed: digit 5 twice in box 1: r1c1 and r2c2",
            ),
        ];
        for (name, result, message) in cases {
            let e = result.expect_err(name);
            assert_eq!(
                (e.code(), e.to_string().as_str()),
                ("repeated-digit", message),
                "{name}"
            );
        }
    }

    #[test]
    fn listed_candidates_all_placed_in_peers_are_rejected() {
        // r1c1 lists {1,2}; r1c2 holds a given 1, r2c1 a solved 2.
        let e = check_packed(&packed(&[(0, "06"), (1, "03"), (9, "04")])).unwrap_err();
        assert_eq!(e.code(), "candidates");
        assert_eq!(
            e.to_string(),
            "sudoku packed: cell 0 (r1c1) lists candidates 12 but its peers have placed them all"
        );
    }

    #[test]
    fn stale_candidates_and_cells_without_information_are_accepted() {
        let cases = [
            (
                "one listed candidate survives",
                packed(&[(0, "0e"), (1, "03"), (9, "04")]),
            ),
            (
                "no candidate information",
                packed(&[(0, "00"), (1, "03"), (9, "04")]),
            ),
            (
                "every digit around an empty cell is left to propagation",
                packed(&[
                    (1, "03"),
                    (2, "05"),
                    (3, "09"),
                    (4, "0h"),
                    (5, "11"),
                    (6, "21"),
                    (7, "41"),
                    (8, "81"),
                    (9, "g1"),
                ]),
            ),
        ];
        for (name, s) in cases {
            assert_eq!(check_packed(&s), Ok(()), "{name}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_bitmask_pass_agrees_with_the_named_checks(
            cells in proptest::collection::vec((0u16..0x200, 0u8..10), CELLS)
        ) {
            // Mostly empty cells, some placed digits, some listed sets: a
            // good share of these boards fail one check or the other.
            let mut board = Sudoku::new();
            for (cell, &(set, kind)) in Cell::all().zip(&cells) {
                match kind {
                    0 => board.set_mask(cell, Mask::from_bits_truncate(set)),
                    1 => board.set_mask(cell, Mask::from_bits_truncate(1 << (set % 9))),
                    _ => {}
                }
            }
            let named = check_duplicates(&board, Format::Packed).is_ok() && check_candidates(&board, Format::Packed).is_ok();
            proptest::prop_assert_eq!(passes(&board), named);
        }
    }

    #[test]
    fn units_are_named_one_based() {
        assert_eq!(Unit::from_index(2).to_string(), "row 3");
        assert_eq!(Unit::from_index(13).to_string(), "column 5");
        assert_eq!(Unit::from_index(24).to_string(), "box 7");
    }
}
