//! Classic Sudoku, in the folder layout every type shares: `board` (the
//! parsed position), `format` and `version_b` (its string forms),
//! `validate` (the checks across cells), `error` (rejections and their
//! codes), `rules` (the readable reference: the specification, the test
//! oracle and the words of a contradiction), `solve` (the fast engine and
//! its platform kernels), `canon` (the canonical form) and `analyse` (the
//! type's side of the puzzle contract). Pure: strings in, values out.

mod analyse;
mod board;
pub(crate) mod canon;
#[cfg(test)]
pub(crate) mod corpus;
mod error;
mod format;
mod minimal;
mod rules;
mod solve;
mod validate;
pub mod version_b;

pub(crate) use analyse::analyse_board;
pub use analyse::{analyse, legacy_identity, parse};
pub use board::Sudoku;
pub use error::{Error, Format};
pub use format::{LEGACY_LEN, PACKED_LEN, parse_legacy, parse_packed, write_legacy, write_packed};
pub use minimal::{is_minimal, is_minimal_str};
pub use rules::{Contradiction, propagate};
pub use solve::{Count, count_solutions, count_solutions_from};
pub use validate::{Unit, validate};
