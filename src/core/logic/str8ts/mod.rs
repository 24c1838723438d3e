//! The logical solver and rater for Str8ts: one technique at a time, the
//! easiest that makes progress, from the strategies str8ts.com describes
//! (compartment ranges, sure digits, stranded digits, high/low, naked
//! subsets across compartments, Setti's rule), on a scale of this
//! project's own (docs/difficulty.md, "Str8ts").
//!
//! `position` owns the candidate grid and its compartments, `straight`
//! the straights a person reads off candidates, one file per technique,
//! `rate` the loop. Pure; work counted, never timed.

mod fit;
mod hidden_single;
mod high_low;
mod line_subset;
mod naked_single;
mod position;
mod range;
mod rate;
mod setti;
mod straight;
mod stranded;
mod sure_digits;
#[cfg(test)]
mod tests;
mod trial;

pub use position::{Position, Run};
pub use rate::{Solution, lowest_missing, solve};

use crate::core::logic::step::Step;
use crate::core::logic::technique::Work;
pub(crate) use crate::core::logic::techniques::{digit_list, digits};

/// A way of making progress in a Str8ts position.
pub trait Str8tsTechnique: Sync {
    fn name(&self) -> &'static str;
    /// The first application in scan order, if any makes progress.
    fn find(&self, p: &Position, work: &mut Work) -> Option<Step>;
}

/// The techniques in rising order of rating: the solver takes the first
/// that makes progress.
pub static ORDER: [&dyn Str8tsTechnique; 12] = [
    &naked_single::NakedSingle,
    &range::Range,
    &hidden_single::HiddenSingle,
    &sure_digits::SureDigits,
    &stranded::Stranded,
    &line_subset::LineSubset { size: 2 },
    &fit::Fit,
    &line_subset::LineSubset { size: 3 },
    &high_low::HighLow,
    &setti::Setti,
    &line_subset::LineSubset { size: 4 },
    &trial::Trial,
];

/// Every technique but the trial: what a trial follows.
static EASIER: &[&dyn Str8tsTechnique] = {
    let (easier, _) = ORDER.split_at(ORDER.len() - 1);
    easier
};

/// Applies a step's removals and placement.
pub(crate) fn apply(p: &mut Position, step: &Step) {
    for &(c, d) in &step.eliminate {
        p.eliminate(usize::from(c), d);
    }
    if let Some((c, d)) = step.place {
        p.place(usize::from(c), d);
    }
}
