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
//!
//! Each type's search lives in its own folder (`sudoku/canon.rs`,
//! `killer/canon.rs`, `str8ts/canon.rs`) and is reached through its
//! [`PuzzleKind::canonical`](crate::core::kind::PuzzleKind::canonical); this
//! module gathers their public names and [`of`], the dispatch by type. The
//! readable reference searches the fast ones are held to
//! (`sudoku_reference`, `killer_reference`) are built only for tests
//! and with the `bench-reference` feature (`benches/canon.rs`).

pub use crate::core::killer::canon::MAPS as KILLER_MAPS;
pub use crate::core::killer::canon::killer;
#[cfg(any(test, feature = "bench-reference"))]
pub use crate::core::killer::canon::killer_reference;
pub use crate::core::kind::CanonError;
pub use crate::core::puzzle::canonical as of;
pub use crate::core::str8ts::canon::str8ts;
pub use crate::core::sudoku::canon::STEPS as SUDOKU_STEPS;
pub use crate::core::sudoku::canon::sudoku;
#[cfg(any(test, feature = "bench-reference"))]
pub use crate::core::sudoku::canon::sudoku_reference;

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
