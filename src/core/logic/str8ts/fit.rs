//! Compartment fit (3.4): a candidate with which the compartment's cells
//! cannot take a straight one digit each (with r1c2=5, the other cells
//! would need one digit twice) leaves its cell. The stranded-digit test
//! with cells matched to digits, as a naked subset inside the compartment.

use crate::core::logic::step::Step;
use crate::core::logic::technique::Work;

use super::straight::fitting_lows;
use super::{Position, Str8tsTechnique};

pub struct Fit;

impl Str8tsTechnique for Fit {
    fn name(&self) -> &'static str {
        "Compartment Fit"
    }

    fn find(&self, p: &Position, _work: &mut Work) -> Option<Step> {
        for run in p.runs() {
            let mut masks = p.masks(run);
            let mut eliminate = Vec::new();
            for (k, &c) in run.cells.iter().enumerate() {
                let own = masks[k];
                for d in super::digits(p.cands(usize::from(c))) {
                    masks[k] = 1 << (d - 1);
                    if fitting_lows(&masks, 0) == 0 {
                        eliminate.push((c, d));
                    }
                }
                masks[k] = own;
            }
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
