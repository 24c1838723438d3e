//! The logical solution of a Str8ts and its rating: the hardest step
//! decides. Stuck, the rating is a bound ("at least" the technique this
//! engine lacks); over budget, the bound is what was reached.

use crate::core::logic::rate::{Budget, Outcome};
use crate::core::logic::step::{Rating10, Step};
use crate::core::logic::technique::Work;
use crate::core::str8ts::Str8ts;

use super::{ORDER, Position, apply};

/// The rating when no technique here applies: the next one up (a nested
/// trial) would rate at least this.
pub const fn lowest_missing() -> Rating10 {
    75
}

/// The logical solution of one puzzle.
#[derive(Clone, Debug)]
pub struct Solution {
    pub steps: Vec<Step>,
    /// The hardest step's rating, or the bound.
    pub rating: Rating10,
    /// The rating is only "at least".
    pub bound: bool,
    pub outcome: Outcome,
    /// The position reached (`None` when the givens clash).
    pub position: Option<Position>,
}

/// Solves a board's givens step by step.
pub fn solve(board: &Str8ts, budget: Budget) -> Solution {
    let Some(mut p) = Position::from_board(board) else {
        return Solution {
            steps: Vec::new(),
            rating: 0,
            bound: false,
            outcome: Outcome::Invalid,
            position: None,
        };
    };
    let mut steps: Vec<Step> = Vec::new();
    let mut rating: Rating10 = 0;
    let mut work = Work::new(budget.work);
    let outcome = loop {
        if p.is_broken() {
            break Outcome::Invalid;
        }
        if p.is_solved() {
            break Outcome::Solved;
        }
        if steps.len() as u32 >= budget.steps {
            break Outcome::OverBudget;
        }
        let found = ORDER.iter().find_map(|t| {
            if work.exhausted() {
                return None;
            }
            t.find(&p, &mut work)
        });
        let Some(step) = found else {
            if let Some(floor) = work.ran_out {
                rating = rating.max(floor);
                break Outcome::OverBudget;
            }
            rating = rating.max(lowest_missing());
            break Outcome::Stuck;
        };
        apply(&mut p, &step);
        rating = rating.max(step.rating);
        steps.push(step);
    };
    Solution {
        steps,
        rating,
        bound: matches!(outcome, Outcome::Stuck | Outcome::OverBudget),
        outcome,
        position: Some(p),
    }
}
