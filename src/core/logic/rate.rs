//! The logical solution and its rating, as Sudoku Explainer 1.2.1 computes
//! them: at every step the first technique in [`ORDER`] that makes progress
//! is applied (the loop, [`run`], is generic over the position and the
//! order, so every puzzle type shares it); ER is the highest rating of any step, EP the highest up to
//! the first step that places a digit, ED the first step's.
//!
//! When no technique here applies, the ratings are bounds: SE would go on
//! with a technique this engine lacks, rated at least
//! [`lowest_missing`], so ER is at least that ("ER at least 9.0"), never a
//! guess. The work is counted (steps and search work) against a
//! [`Budget`], never timed.

use crate::core::grid::CELLS;

use super::marks::Marks;
use super::position::Position;
use super::step::{Rating10, Step};
use super::technique::{ORDER, Technique, Work, lowest_missing};

/// How much work one puzzle may take, counted, so every machine stops at
/// the same place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Steps (applied techniques); a position has at most 81 placements
    /// and 729 candidates, so the default never binds.
    pub steps: u32,
    /// Units of search work over the whole puzzle ([`Work`]): cells tried
    /// in loop searches, candidates reached in chains.
    pub work: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            steps: 1000,
            work: DEFAULT_WORK,
        }
    }
}

/// The default work budget (see docs/difficulty.md for what it costs).
pub const DEFAULT_WORK: u64 = 20_000_000;

/// How the solution ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every cell placed.
    Solved,
    /// No technique here applies: the ratings are lower bounds.
    Stuck,
    /// The budget ran out: the ratings are lower bounds.
    OverBudget,
    /// The givens clash, or a step left a cell or a house with no place:
    /// the puzzle has no solution.
    Invalid,
}

/// SE's three ratings, in tenths; `bound` marks them as lower bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    pub er: Rating10,
    pub ep: Rating10,
    pub ed: Rating10,
    /// ER is only "at least".
    pub bound: bool,
    /// EP is only "at least": no digit was placed before the bound.
    pub ep_bound: bool,
    /// ED is only "at least": no step was taken.
    pub ed_bound: bool,
}

/// The logical solution of one puzzle.
#[derive(Clone, Debug)]
pub struct Solution<P = Marks> {
    pub steps: Vec<Step>,
    pub rating: Rating,
    pub outcome: Outcome,
    /// The position reached.
    pub marks: P,
}

/// Solves `givens` (1..=9 a given, anything else empty) step by step.
pub fn solve(givens: &[u8; CELLS], budget: Budget) -> Solution {
    let Some(marks) = Marks::from_givens(givens) else {
        let marks = Marks::from_givens(&[0; CELLS]).unwrap_or_else(|| unreachable!());
        return invalid(marks);
    };
    run(marks, &ORDER, budget, lowest_missing())
}

/// The solution of a puzzle whose givens clash: no step, no rating.
pub fn invalid<P>(marks: P) -> Solution<P> {
    let rating = Rating {
        er: 0,
        ep: 0,
        ed: 0,
        bound: false,
        ep_bound: false,
        ed_bound: false,
    };
    Solution {
        steps: Vec::new(),
        rating,
        outcome: Outcome::Invalid,
        marks,
    }
}

/// The loop every puzzle type shares: from `marks`, at every step the
/// first technique of `order` that makes progress is applied, until the
/// position is solved, broken, stuck or over budget. When stuck, ER is at
/// least `stuck_floor` (the lowest rating of what the order lacks).
pub fn run<P: Position>(
    mut marks: P,
    order: &[&dyn Technique<P>],
    budget: Budget,
    stuck_floor: Rating10,
) -> Solution<P> {
    let mut steps: Vec<Step> = Vec::new();
    let mut er: Rating10 = 0;
    let mut ep: Option<Rating10> = None;
    let mut work = Work::new(budget.work);
    let outcome = loop {
        if marks.is_solved() {
            break Outcome::Solved;
        }
        if marks.is_broken() {
            break Outcome::Invalid;
        }
        if steps.len() as u32 >= budget.steps {
            break Outcome::OverBudget;
        }
        let found = order.iter().find_map(|t| {
            if work.exhausted() {
                return None;
            }
            t.find(&marks, &mut work)
        });
        let Some(step) = found else {
            if let Some(floor) = work.ran_out {
                // The search that ran out would have rated at least this.
                er = er.max(floor);
                break Outcome::OverBudget;
            }
            break Outcome::Stuck;
        };
        marks.apply(&step);
        er = er.max(step.rating);
        if ep.is_none() && step.place.is_some() {
            ep = Some(er);
        }
        steps.push(step);
    };
    let bound = matches!(outcome, Outcome::Stuck | Outcome::OverBudget);
    // Stuck: SE would go on with a technique not here. Over budget: the
    // rating reached (and the floor of the search that ran out) is all
    // that is known.
    let floor = if outcome == Outcome::Stuck {
        stuck_floor
    } else {
        0
    };
    let er = er.max(floor);
    let rating = Rating {
        er,
        ep: ep.unwrap_or(er),
        ed: steps.first().map_or(er, |s| s.rating),
        bound,
        ep_bound: bound && ep.is_none(),
        ed_bound: bound && steps.is_empty(),
    };
    Solution {
        steps,
        rating,
        outcome,
        marks,
    }
}
