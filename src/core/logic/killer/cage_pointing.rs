//! Cage pointing (2.7): a digit every remaining combination of a cage
//! needs is in one of the cage's cells that allow it, so it leaves every
//! cell outside the cage that sees all of those (the rest of a row, column
//! or box they share). Killer's form of pointing, with a cage for the box.

use crate::core::grid::CELLS;
use crate::core::logic::marks::{bit, sees};
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};
use crate::core::logic::techniques::digits;

use super::position::KillerMarks;

pub struct CagePointing;

impl Technique<KillerMarks> for CagePointing {
    fn name(&self) -> &'static str {
        "Cage Pointing"
    }

    fn find(&self, pos: &KillerMarks, _work: &mut Work) -> Option<Step> {
        let marks = pos.marks();
        for (k, cage) in pos.cages().iter().enumerate() {
            let left = pos.left(k);
            if left.empty().len() < 2 {
                continue;
            }
            let Some(ways) = pos.ways(k) else {
                continue;
            };
            for d in digits(ways.required) {
                let places: Vec<u8> = left
                    .empty()
                    .iter()
                    .copied()
                    .filter(|&c| marks.cands(c as usize) & bit(d) != 0)
                    .collect();
                let eliminate: Vec<(u8, u8)> = (0..CELLS)
                    .filter(|&c| cage.set & (1 << c) == 0 && marks.cands(c) & bit(d) != 0)
                    .filter(|&c| places.iter().all(|&p| sees(c, p as usize)))
                    .map(|c| (c as u8, d))
                    .collect();
                if eliminate.is_empty() {
                    continue;
                }
                return Some(Step {
                    technique: "Cage Pointing",
                    rating: 27,
                    reason: format!("every combination of {} needs {d}", cage.name()),
                    cells: places,
                    place: None,
                    eliminate,
                });
            }
        }
        None
    }
}
