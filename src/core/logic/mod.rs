//! The logical solver and rater for classic Sudoku: a second, readable
//! engine beside the fast counters, which solves a puzzle the way a person
//! does, one technique at a time, and rates it on Sudoku Explainer's scale
//! (ER, EP, ED; see docs/difficulty.md).
//!
//! `marks` owns the candidate grid, `house` the rows, columns and boxes,
//! `chain` the implication graph the chain techniques share, `step` what one application of a technique found, `technique` the
//! contract every technique implements and SE's order of them, one file per
//! technique under `techniques/`, and `rate` the loop that applies the
//! first technique that makes progress and keeps the ratings.
//!
//! Pure: givens in, steps and ratings out. No I/O, threads, SQLite or
//! command line; the work is counted, never timed, so the same puzzle gets
//! the same answer on every machine.

mod chain;
mod house;
mod marks;
mod rate;
mod step;
mod technique;
mod techniques;
#[cfg(test)]
mod tests;

pub use house::House;
pub use marks::Marks;
pub use rate::{Budget, Outcome, Rating, Solution, solve};
pub use step::{Rating10, Step, tenths};
pub use technique::{ORDER, Technique, lowest_missing};
