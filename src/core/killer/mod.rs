//! Killer Sudoku, in the folder layout every type shares: `board` (the
//! puzzle: cages plus placed digits, its identity and encodings), `format`,
//! `version_b` and `krazydad` (its string forms), `validate` (building a
//! puzzle and the checks across cells), `error` (rejections and their
//! codes), `rules` (the readable reference the tests hold the solver to, and the
//! words of a contradiction), `propagate` (the count as stored),
//! `solve` (the fast engine), `canon` (the canonical form), `cages` (cage
//! geometry and combinations) and `analyse` (the type's side of the
//! contract). Pure: strings and arrays in, values out.

mod analyse;
mod board;
pub(crate) mod cages;
pub(crate) mod canon;
mod error;
mod format;
pub mod krazydad;
mod propagate;
mod rules;
mod solve;
mod validate;
pub mod version_b;

pub(crate) use analyse::analyse_puzzle;
pub use analyse::{analyse, legacy_identity};
pub use board::{COLOURS, Cage, Killer};
pub use cages::{MAX_SUM, combinations, sum_range};
pub use error::{Error, Form};
pub use propagate::Propagated;

#[cfg(test)]
mod tests;
