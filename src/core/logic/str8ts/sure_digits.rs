//! Sure digits (2.0): the digits every straight a compartment can hold
//! needs (a run of 3 within 5-8 needs 6 and 7) leave the rest of its row
//! or column, by the rule that a digit appears once in a line.

use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::marks::line_name;
use super::straight::{needed, simple_lows};
use super::{Str8tsMarks, digit_list};

pub struct SureDigits;

impl Technique<Str8tsMarks> for SureDigits {
    fn name(&self) -> &'static str {
        "Sure Digits"
    }

    fn find(&self, p: &Str8tsMarks, _work: &mut Work) -> Option<Step> {
        for run in p.runs() {
            let masks = p.masks(run);
            let sure = needed(simple_lows(&masks), masks.len());
            if sure == 0 {
                continue;
            }
            let line = run.line_index();
            let eliminate: Vec<(u8, u8)> = Str8tsMarks::line(line)
                .into_iter()
                .filter(|c| !run.cells.contains(c))
                .flat_map(|c| super::digits(p.cands(usize::from(c)) & sure).map(move |d| (c, d)))
                .collect();
            if eliminate.is_empty() {
                continue;
            }
            return Some(Step {
                technique: "Sure Digits",
                rating: 20,
                cells: run.cells.clone(),
                place: None,
                eliminate,
                reason: format!(
                    "every straight compartment {run} can hold has {}, so the rest of {} has not",
                    digit_list(sure),
                    line_name(line)
                ),
            });
        }
        None
    }
}
