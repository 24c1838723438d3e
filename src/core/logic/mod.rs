//! The logical solver and rater for classic Sudoku: a second, readable
//! engine beside the fast counters, which solves a puzzle one technique at
//! a time and rates it on Sudoku Explainer's scale (ER, EP, ED; see
//! docs/difficulty.md).
//!
//! `marks` owns the candidate grid, `house` the houses, `chain` the
//! implication graph, `step` one application, `technique` the contract
//! (generic over the position) and SE's order, `position` what the loop
//! needs of a position, `techniques/` one file each, `rate` the loop and
//! ratings, `stored` what the archive keeps of a rating (every type's,
//! versioned).
//!
//! Pure: givens in, steps and ratings out; no I/O, threads, SQLite or
//! command line. Work is counted, never timed.

mod chain;
mod house;
pub mod killer;
mod marks;
mod position;
mod rate;
mod step;
pub mod stored;
pub mod str8ts;
mod technique;
mod techniques;
#[cfg(test)]
mod tests;

pub use house::House;
pub use marks::Marks;
pub use position::Position;
pub use rate::{Budget, Outcome, Rating, Solution, invalid, run, solve};
pub use step::{Rating10, Step, tenths};
pub use technique::{Classic, ORDER, Technique, Work, lowest_missing};
