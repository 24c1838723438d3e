//! Singles a cage gives: the last empty cell of a cage is its sum less the
//! digits placed (1.0, as a full house; a one-cell cage is one), and a
//! digit every remaining combination of a cage needs, with one place left
//! in it (2.1: it needs the combinations).

use crate::core::logic::marks::bit;
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};
use crate::core::logic::techniques::digits;

use super::position::KillerMarks;

pub struct CageSingle {
    /// The needed digit with one place (else the last cell).
    pub hidden: bool,
}

impl Technique<KillerMarks> for CageSingle {
    fn name(&self) -> &'static str {
        if self.hidden {
            "Cage Hidden Single"
        } else {
            "Cage Full House"
        }
    }

    fn find(&self, pos: &KillerMarks, _work: &mut Work) -> Option<Step> {
        let marks = pos.marks();
        for (k, cage) in pos.cages().iter().enumerate() {
            let left = pos.left(k);
            if left.empty().is_empty() {
                continue;
            }
            if !self.hidden {
                let [c] = left.empty()[..] else { continue };
                let Ok(d) = u8::try_from(left.sum) else {
                    continue;
                };
                if !(1..=9).contains(&d) || marks.cands(c as usize) & bit(d) == 0 {
                    continue;
                }
                let what = if cage.cells.len() == 1 {
                    "one-cell cage".to_string()
                } else {
                    format!("last cell of {}", cage.name())
                };
                return Some(Step {
                    technique: "Cage Full House",
                    rating: 10,
                    cells: cage.cells.clone(),
                    place: Some((c, d)),
                    eliminate: Vec::new(),
                    reason: what,
                });
            }
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
                if let [c] = places[..] {
                    if marks.cands(c as usize).count_ones() == 1 {
                        continue; // a naked single, not this
                    }
                    return Some(Step {
                        technique: "Cage Hidden Single",
                        rating: 21,
                        cells: cage.cells.clone(),
                        place: Some((c, d)),
                        eliminate: Vec::new(),
                        reason: format!(
                            "every combination of {} needs {d}, which has one place",
                            cage.name()
                        ),
                    });
                }
            }
        }
        None
    }
}
