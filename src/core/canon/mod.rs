//! Isomorph canonical forms: one representative string per class of puzzles
//! that differ only by a symmetry of their type (relabelled digits, permuted
//! rows and bands, rotations ...), so the archive can spot the same puzzle
//! published twice in disguise.
//!
//! Each function takes the type's readable `givens` string and returns the
//! least string, in plain byte order, among all the forms the type's symmetry
//! group produces. The answer is exact: no sampling, no heuristics that could
//! give two disguises of one puzzle different forms.
//!
//! Pure functions only: no I/O, no archive knowledge, no allocation beyond the
//! search state.
//!
//! Every search is bounded by counted work, never by time, so whether a form
//! is found does not depend on the machine: classic Sudoku by
//! [`SUDOKU_STEPS`] search steps, Killer by [`KILLER_MAPS`] candidate maps
//! (its set-up is bounded too: at most 1,296 line orders each way), each
//! some 10-30 ms at most; Str8ts always writes its 16 forms. A pattern with
//! so many symmetries that the exact form would cost more (81 single-cell
//! Killer cages: 3,359,232 maps that all tie, 1.9 s) gets
//! [`CanonError::Limit`] instead, never a guess. Real puzzles stay far inside
//! (see each limit's note).

mod killer;
mod str8ts;
mod sudoku;

/// A Killer whose canonical form meets its bound, for the pipeline's tests.
#[cfg(test)]
pub(crate) use killer::tests::single_cells as killer_past_its_bound;

pub use killer::MAPS as KILLER_MAPS;
pub use killer::killer;
#[doc(hidden)]
pub use killer::killer_reference;
#[doc(hidden)]
pub use killer::killer_work;
pub use str8ts::str8ts;
pub use sudoku::STEPS as SUDOKU_STEPS;
pub use sudoku::sudoku;
#[doc(hidden)]
pub use sudoku::sudoku_reference;
#[doc(hidden)]
pub use sudoku::sudoku_work;

use crate::core::grid::Cell;
use crate::core::puzzle::PuzzleType;

/// The canonical form of a puzzle of any type, from its `givens` string.
pub fn of(kind: PuzzleType, givens: &str) -> Result<String, CanonError> {
    match kind {
        PuzzleType::Sudoku => sudoku(givens),
        PuzzleType::Killer => killer(givens),
        PuzzleType::Str8ts => str8ts(givens),
    }
}

/// Why a string could not be canonicalised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// The string is not one of the lengths the format allows.
    #[error("{format}: expected {expected} characters, found {found}")]
    Length {
        format: &'static str,
        expected: &'static str,
        found: usize,
    },
    /// A character that has no meaning at its position.
    #[error("{format}: character {index} (cell {} {cell}) should be {expected}, found {found:?}", cell.index())]
    Character {
        format: &'static str,
        /// Byte offset in the input string.
        index: usize,
        cell: Cell,
        expected: &'static str,
        found: char,
    },
    /// A field separator is missing.
    #[error("{format}: character {index} should be ',', found {found:?}")]
    Separator {
        format: &'static str,
        index: usize,
        found: char,
    },
    /// A Killer sum written somewhere other than its cage's first cell, where
    /// moving the cage would silently lose it.
    #[error(
        "killer legacy: cell {} ({cell}) holds sum {sum:?} but its cage starts at cell {} ({first})",
        cell.index(),
        first.index()
    )]
    CageSum {
        cell: Cell,
        first: Cell,
        sum: String,
    },
    /// The search reached its work bound before settling the form: a
    /// pattern with so many symmetries that the exact answer costs too much.
    #[error("{format}: the canonical form was not settled within {limit} {what}")]
    Limit {
        format: &'static str,
        limit: u64,
        what: &'static str,
    },
    /// The greedy recolouring ran past the 35 colour characters.
    #[error("killer legacy: cell {} ({cell}) would need more than 35 cage colours", cell.index())]
    Colours { cell: Cell },
}

impl CanonError {
    /// Short stable reason code for the archive's reject table.
    pub fn code(&self) -> &'static str {
        match self {
            CanonError::Length { .. } => "length",
            CanonError::Character { .. } | CanonError::Separator { .. } => "character",
            CanonError::CageSum { .. } => "cage-sum",
            CanonError::Colours { .. } => "colours",
            CanonError::Limit { .. } => "canonical-limit",
        }
    }
}

/// The cell of a cell index known to be below 81 (callers index 81-cell
/// parts); saturates rather than panics so an error path never crashes.
fn cell_at(i: usize) -> Cell {
    match Cell::new(i.min(80)) {
        Some(c) => c,
        None => unreachable!("80 is a cell index"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_has_a_short_code_and_a_lower_case_message_naming_the_format() {
        let cases = [
            (sudoku("123").unwrap_err(), "length", "sudoku legacy: "),
            (
                sudoku(&format!("{}x", "0".repeat(80))).unwrap_err(),
                "character",
                "sudoku legacy: ",
            ),
            (killer("1").unwrap_err(), "length", "killer legacy: "),
            (str8ts("").unwrap_err(), "length", "str8ts legacy: "),
        ];
        for (err, code, prefix) in cases {
            assert_eq!(err.code(), code, "{err}");
            let msg = err.to_string();
            assert!(msg.starts_with(prefix), "{msg}");
            assert_eq!(msg, msg.to_lowercase(), "{msg}");
        }
    }

    #[test]
    fn a_bad_character_is_named_by_cell_and_quoted() {
        let err = sudoku(&format!("{}x{}", "0".repeat(40), "0".repeat(40))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "sudoku legacy: character 40 (cell 40 r5c5) should be a digit 0-9, found 'x'"
        );
    }
}
