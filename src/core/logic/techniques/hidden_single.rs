//! Full house (1.0) and hidden single (1.2 in a box, 1.5 in a row or
//! column): a digit with one place left in a house. SE looks for the last
//! empty cells of houses first, then for the others, boxes before columns
//! before rows.

use crate::core::logic::house::House;
use crate::core::logic::marks::Marks;
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

pub struct HiddenSingle;

impl Technique for HiddenSingle {
    fn name(&self) -> &'static str {
        "Hidden Singles"
    }

    fn find(&self, marks: &Marks, _work: &mut Work) -> Option<Step> {
        // Each house's digits with one place, and whether it has one
        // empty cell, in SE's order.
        let houses = House::SE_ORDER.map(|h| {
            let (mut once, mut twice, mut empty) = (0u16, 0u16, 0);
            for &c in h.cells() {
                let m = marks.cands(c as usize);
                twice |= once & m;
                once |= m;
                empty += u32::from(marks.value(c as usize) == 0);
            }
            (once & !twice, empty == 1)
        });
        for alone in [true, false] {
            for (h, &(single, last)) in House::SE_ORDER.iter().zip(&houses) {
                if single == 0 || last != alone {
                    continue;
                }
                let h = *h;
                let d = single.trailing_zeros() as u8 + 1;
                let p = marks.positions(h, d);
                let cell = h.cells()[p.trailing_zeros() as usize];
                let (technique, rating, reason) = match (alone, h.is_box()) {
                    (true, _) => ("Full House", 10, format!("full house in {h}")),
                    (false, true) => ("Hidden Single", 12, format!("hidden single in {h}")),
                    (false, false) => ("Hidden Single", 15, format!("hidden single in {h}")),
                };
                return Some(Step {
                    technique,
                    rating,
                    cells: vec![cell],
                    place: Some((cell, d)),
                    eliminate: Vec::new(),
                    reason,
                });
            }
        }
        None
    }
}
