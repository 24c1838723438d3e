//! Trial (6.0-7.0): a candidate that, once placed, lets the easier
//! techniques (up to compartment fit) reach a contradiction (a cell without candidates, a
//! compartment with no straight) is removed. The shortest such chain of
//! easier steps is taken; its length sets the rating, 6.0 plus 0.1 every
//! two steps up to 7.0. Each easier step tried spends one unit of work.

use crate::core::grid::CELLS;
use crate::core::logic::step::{Rating10, Step};
use crate::core::logic::technique::{Technique, Work};

use crate::core::logic::Position;

use super::Str8tsMarks;
use super::rate::EASIER;

pub struct Trial;

/// The lowest rating of a trial.
pub const FLOOR: Rating10 = 60;
/// The longest chain of easier steps a trial follows.
const LONGEST: usize = 20;

impl Technique<Str8tsMarks> for Trial {
    fn name(&self) -> &'static str {
        "Trial"
    }

    fn find(&self, p: &Str8tsMarks, work: &mut Work) -> Option<Step> {
        let mut best: Option<(usize, u8, u8)> = None;
        for c in 0..CELLS {
            for d in super::digits(p.cands(c)) {
                let most = best.map_or(LONGEST, |b| b.0.saturating_sub(1));
                match contradiction(p, c, d, most, work) {
                    Some(n) => best = Some((n, c as u8, d)),
                    None if work.exhausted() => return None,
                    None => {}
                }
                if best.is_some_and(|b| b.0 == 0) {
                    break;
                }
            }
        }
        let (n, c, d) = best?;
        Some(Step {
            technique: "Trial",
            rating: FLOOR + (n as Rating10).div_ceil(2).min(10),
            cells: vec![c],
            place: None,
            eliminate: vec![(c, d)],
            reason: format!(
                "with {}={d} the easier techniques reach a contradiction in {n} steps",
                super::marks::name(c)
            ),
        })
    }
}

/// The number of easier steps after placing `d` in `c` until the position
/// breaks, if it does within `most`.
fn contradiction(p: &Str8tsMarks, c: usize, d: u8, most: usize, work: &mut Work) -> Option<usize> {
    let mut q = p.clone();
    q.place(c, d);
    for n in 0..=most {
        if q.is_broken() {
            return Some(n);
        }
        if n == most || q.is_solved() || !work.spend(1, FLOOR) {
            return None;
        }
        let step = EASIER.iter().find_map(|t| t.find(&q, work))?;
        q.apply(&step);
    }
    None
}
