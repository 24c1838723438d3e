//! Isomorph canonical forms: one representative string per class of
//! puzzles that differ only by a symmetry of their type, so the archive can
//! spot the same puzzle published twice in disguise. Each type's search is
//! in its own folder and reached through
//! [`Puzzle::canonical`](crate::core::contract::Puzzle::canonical); this
//! module gathers their names and [`of`], the dispatch by type.
//!
//! Exact, never sampled; every search is bounded by counted work, not time
//! ([`CanonError::Limit`] past it). Pure: no I/O, no archive knowledge.
//! Limits and references: docs/performance.md "Module notes".

pub use crate::core::killer::canon::MAPS as KILLER_MAPS;
pub use crate::core::killer::canon::killer;
#[cfg(any(test, feature = "bench-reference"))]
pub use crate::core::killer::canon::killer_reference;
pub use crate::core::puzzle::canonical as of;
pub use crate::core::str8ts::canon::str8ts;
pub use crate::core::sudoku::canon::STEPS as SUDOKU_STEPS;
pub use crate::core::sudoku::canon::sudoku;
#[cfg(any(test, feature = "bench-reference"))]
pub use crate::core::sudoku::canon::sudoku_reference;
pub use crate::core::vocabulary::CanonError;

/// A Killer whose canonical form meets its bound, for the pipeline's tests.
#[cfg(test)]
pub(crate) use crate::core::killer::canon::tests::single_cells as killer_past_its_bound;

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
