//! Cage combinations: the digits of a cage's cells that no set of distinct
//! digits of its size making its sum allows. The unique form (2.0) takes a
//! cage whose sum and size allow one set alone (`3` in two cells is 1+2)
//! and removes every other digit; the general form (2.4) weighs every set
//! against the cells' candidates and the digits placed in the cage.

use crate::core::killer::combinations;
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};
use crate::core::logic::techniques::{digit_list, digits};

use super::position::KillerMarks;

pub struct Combinations {
    /// Only cages with one combination by sum and size.
    pub unique: bool,
}

impl Technique<KillerMarks> for Combinations {
    fn name(&self) -> &'static str {
        if self.unique {
            "Cage Unique Combination"
        } else {
            "Cage Combinations"
        }
    }

    fn find(&self, pos: &KillerMarks, _work: &mut Work) -> Option<Step> {
        let marks = pos.marks();
        for (k, cage) in pos.cages().iter().enumerate() {
            let left = pos.left(k);
            if left.empty().is_empty() {
                continue;
            }
            let eliminate: Vec<(u8, u8)>;
            let reason;
            if self.unique {
                let [set] = combinations(cage.cells.len(), cage.sum) else {
                    continue;
                };
                eliminate = left
                    .empty()
                    .iter()
                    .flat_map(|&c| digits(marks.cands(c as usize) & !set).map(move |d| (c, d)))
                    .collect();
                reason = format!("{} can only be {}", cage.name(), digit_list(*set));
            } else {
                let Some(ways) = pos.ways(k) else {
                    continue;
                };
                eliminate = left
                    .empty()
                    .iter()
                    .zip(ways.allowed)
                    .flat_map(|(&c, a)| digits(marks.cands(c as usize) & !a).map(move |d| (c, d)))
                    .collect();
                reason = format!("combinations of {}", cage.name());
            }
            if eliminate.is_empty() {
                continue;
            }
            return Some(Step {
                technique: self.name(),
                rating: if self.unique { 20 } else { 24 },
                cells: cage.cells.clone(),
                place: None,
                eliminate,
                reason,
            });
        }
        None
    }
}
