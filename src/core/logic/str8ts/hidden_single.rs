//! Hidden single (1.5): a digit every straight a compartment can hold
//! needs (a sure digit) with one place left in the compartment.

use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::Str8tsMarks;
use super::straight::{needed, simple_lows};

pub struct HiddenSingle;

impl Technique<Str8tsMarks> for HiddenSingle {
    fn name(&self) -> &'static str {
        "Hidden Singles"
    }

    fn find(&self, p: &Str8tsMarks, _work: &mut Work) -> Option<Step> {
        for run in p.runs() {
            let masks = p.masks(run);
            let placed = run
                .cells
                .iter()
                .fold(0u16, |m, &c| match p.value(usize::from(c)) {
                    0 => m,
                    d => m | 1 << (d - 1),
                });
            let sure = needed(simple_lows(&masks), masks.len()) & !placed;
            for d in super::digits(sure) {
                let mut at = run
                    .cells
                    .iter()
                    .filter(|&&c| p.cands(usize::from(c)) & (1 << (d - 1)) != 0);
                if let (Some(&c), None) = (at.next(), at.next()) {
                    return Some(Step {
                        technique: "Hidden Single",
                        rating: 15,
                        cells: vec![c],
                        place: Some((c, d)),
                        eliminate: Vec::new(),
                        reason: format!(
                            "compartment {run} needs {d} and only this cell can hold it"
                        ),
                    });
                }
            }
        }
        None
    }
}
