//! The order of the Str8ts techniques, rising in rating, and the solve:
//! the shared loop takes the first that makes progress and the hardest
//! step decides. Stuck, the rating is a bound ("at least" the technique
//! this engine lacks); over budget, the bound is what was reached.

use crate::core::logic::rate::{Budget, invalid, run};
use crate::core::logic::step::{Rating10, Step};
use crate::core::logic::techniques::{naked_single::NakedSingle, naked_subset::NakedSubset};
use crate::core::logic::{Technique, Work};
use crate::core::str8ts::Str8ts;

use super::Str8tsMarks;
use super::{
    fit::Fit, hidden_single::HiddenSingle, high_low::HighLow, range::Range, setti::Setti,
    stranded::Stranded, sure_digits::SureDigits, trial::Trial,
};

/// The logical solution of one Str8ts; `rating.er` is its rating.
pub type Solution = crate::core::logic::Solution<Str8tsMarks>;

/// A shared technique rated on this scale: the classic naked single is
/// SE's 2.3, the first thing a Str8ts player sees, here 1.0.
struct OnScale<T>(T, Rating10);

impl<T: Technique<Str8tsMarks>> Technique<Str8tsMarks> for OnScale<T> {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn find(&self, p: &Str8tsMarks, work: &mut Work) -> Option<Step> {
        let mut step = self.0.find(p, work)?;
        step.rating = self.1;
        Some(step)
    }
}

/// The techniques in rising order of rating.
pub static ORDER: [&dyn Technique<Str8tsMarks>; 12] = [
    &OnScale(NakedSingle, 10),
    &Range,
    &HiddenSingle,
    &SureDigits,
    &Stranded,
    &NakedSubset { size: 2 },
    &Fit,
    &NakedSubset { size: 3 },
    &HighLow,
    &Setti,
    &NakedSubset { size: 4 },
    &Trial,
];

/// What a trial follows: the techniques up to compartment fit (3.4),
/// the ones a player runs through in the head; the line subsets of three
/// and more, high/low and Setti's rule would cost each trial more than
/// they find.
pub(super) static EASIER: &[&dyn Technique<Str8tsMarks>] = {
    let (easier, _) = ORDER.split_at(7);
    easier
};

/// The rating when no technique here applies: the next one up (a trial
/// inside a trial) would rate at least this.
pub const fn lowest_missing() -> Rating10 {
    75
}

/// Solves a board's givens step by step.
pub fn solve(board: &Str8ts, budget: Budget) -> Solution {
    match Str8tsMarks::from_board(board) {
        Ok(p) => run(p, &ORDER, budget, lowest_missing()),
        Err(colours) => invalid(*colours),
    }
}
