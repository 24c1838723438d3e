//! Stranded digits (2.5): a candidate that makes no straight with the
//! candidates of the other cells of its compartment (2457, 456, 4567: no 3
//! joins the 2 to the rest) leaves its cell.

use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::Str8tsMarks;
use super::straight::{misfits, simple_lows};

pub struct Stranded;

impl Technique<Str8tsMarks> for Stranded {
    fn name(&self) -> &'static str {
        "Stranded Digits"
    }

    fn find(&self, p: &Str8tsMarks, _work: &mut Work) -> Option<Step> {
        for run in p.runs() {
            let eliminate = misfits(p, run, |m| simple_lows(m) != 0);
            if eliminate.is_empty() {
                continue;
            }
            return Some(Step {
                technique: "Stranded Digits",
                rating: 25,
                cells: run.cells.clone(),
                place: None,
                eliminate,
                reason: format!(
                    "in compartment {run} these make no straight with the other cells' candidates"
                ),
            });
        }
        None
    }
}
