//! Compartment fit (3.4): a candidate with which the compartment's cells
//! cannot take a straight one digit each (with r1c2=5, the other cells
//! would need one digit twice) leaves its cell. The stranded-digit test
//! with cells matched to digits, as a naked subset inside the compartment.

use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::Str8tsMarks;
use super::straight::{fitting_lows, misfits};

pub struct Fit;

impl Technique<Str8tsMarks> for Fit {
    fn name(&self) -> &'static str {
        "Compartment Fit"
    }

    fn find(&self, p: &Str8tsMarks, _work: &mut Work) -> Option<Step> {
        for run in p.runs() {
            let eliminate = misfits(p, run, |m| fitting_lows(m, 0) != 0);
            if eliminate.is_empty() {
                continue;
            }
            return Some(Step {
                technique: "Compartment Fit",
                rating: 34,
                cells: run.cells.clone(),
                place: None,
                eliminate,
                reason: format!(
                    "in compartment {run} these leave no straight the cells can hold one digit each"
                ),
            });
        }
        None
    }
}
