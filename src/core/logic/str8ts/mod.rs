//! The logical solver and rater for Str8ts: one technique at a time, the
//! easiest that makes progress, from the strategies str8ts.com describes
//! (compartment ranges, sure digits, stranded digits, high/low, naked
//! subsets across compartments, Setti's rule), on a scale of this
//! project's own (docs/difficulty.md, "Str8ts").
//!
//! `marks` owns the candidate grid and its compartments, `straight` the
//! straights a person reads off candidates, one file per technique (naked
//! singles and subsets are the classic ones), `rate` the order and the
//! rating; the loop is the shared one. Pure; work counted, never timed.

mod fit;
mod hidden_single;
mod high_low;
mod marks;
mod range;
mod rate;
mod setti;
mod straight;
mod stranded;
mod sure_digits;
#[cfg(test)]
mod tests;
mod trial;

pub use marks::{Run, Str8tsMarks};
pub use rate::{ORDER, Solution, lowest_missing, solve};

pub(crate) use crate::core::logic::techniques::{digit_list, digits};
