//! High/low (4.0): a compartment that can hold a low or a high straight
//! (1-3 or 7-9) loses the one that would leave another compartment of its
//! line with no straight: that straight's digits would leave the other
//! compartment, a digit appearing once in a line. What no remaining
//! straight holds leaves the compartment.

use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::Str8tsMarks;
use super::marks::Run;
use super::straight::{fitting_lows, lows_name, straight, union};

pub struct HighLow;

impl Technique<Str8tsMarks> for HighLow {
    fn name(&self) -> &'static str {
        "High/Low"
    }

    fn find(&self, p: &Str8tsMarks, _work: &mut Work) -> Option<Step> {
        for run in p.runs() {
            let len = run.cells.len();
            let lows = fitting_lows(&p.masks(run), 0);
            if lows.count_ones() < 2 {
                continue;
            }
            let mut gone = 0u16;
            let mut blocked: Option<&Run> = None;
            for low in 0..9 {
                if lows & (1 << low) == 0 {
                    continue;
                }
                let s = straight(low, len);
                let other = p.runs().iter().find(|o| {
                    o.direction == run.direction
                        && o.line == run.line
                        && o.cells != run.cells
                        && fitting_lows(&p.masks(o).iter().map(|m| m & !s).collect::<Vec<_>>(), 0)
                            == 0
                });
                if let Some(o) = other {
                    gone |= 1 << low;
                    blocked.get_or_insert(o);
                }
            }
            let left = lows & !gone;
            let (Some(o), true) = (blocked, left != 0) else {
                continue;
            };
            let keep = union(left, len);
            let eliminate: Vec<(u8, u8)> = run
                .cells
                .iter()
                .flat_map(|&c| super::digits(p.cands(usize::from(c)) & !keep).map(move |d| (c, d)))
                .collect();
            if eliminate.is_empty() {
                continue;
            }
            return Some(Step {
                technique: "High/Low",
                rating: 40,
                cells: run.cells.clone(),
                place: None,
                eliminate,
                reason: format!(
                    "compartment {run} cannot hold {}: compartment {o} would have no straight left, so it holds {}",
                    lows_name(gone, len),
                    lows_name(left, len)
                ),
            });
        }
        None
    }
}
