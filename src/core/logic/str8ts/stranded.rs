//! Stranded digits (2.5): a candidate that makes no straight with the
//! candidates of the other cells of its compartment (2457, 456, 4567: no 3
//! joins the 2 to the rest) leaves its cell.

use crate::core::logic::step::Step;
use crate::core::logic::technique::Work;

use super::straight::simple_lows;
use super::{Position, Str8tsTechnique};

pub struct Stranded;

impl Str8tsTechnique for Stranded {
    fn name(&self) -> &'static str {
        "Stranded Digits"
    }

    fn find(&self, p: &Position, _work: &mut Work) -> Option<Step> {
        for run in p.runs() {
            let mut masks = p.masks(run);
            let mut eliminate = Vec::new();
            for (k, &c) in run.cells.iter().enumerate() {
                let own = masks[k];
                for d in super::digits(p.cands(usize::from(c))) {
                    masks[k] = 1 << (d - 1);
                    if simple_lows(&masks) == 0 {
                        eliminate.push((c, d));
                    }
                }
                masks[k] = own;
            }
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
