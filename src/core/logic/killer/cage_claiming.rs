//! Cage claiming (2.9): a digit's places in a row, column or box all lie
//! in one cage, so the cage holds it there: it leaves the cage's other
//! cells, and the cage's combinations without it go (with the digits only
//! they allowed). Killer's form of claiming, with a cage for the box.

use crate::core::logic::house::House;
use crate::core::logic::marks::bit;
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};
use crate::core::logic::techniques::{digits, members};

use super::position::KillerMarks;
use super::sums;

pub struct CageClaiming;

impl Technique<KillerMarks> for CageClaiming {
    fn name(&self) -> &'static str {
        "Cage Claiming"
    }

    fn find(&self, pos: &KillerMarks, _work: &mut Work) -> Option<Step> {
        let marks = pos.marks();
        for h in House::SE_ORDER {
            for d in 1..=9u8 {
                let p = marks.positions(h, d);
                if p.count_ones() < 2 {
                    continue;
                }
                let places: Vec<u8> = members(p).map(|i| h.cells()[i]).collect();
                let k = pos.cage_of(places[0] as usize);
                if places.iter().any(|&c| pos.cage_of(c as usize) != k) {
                    continue;
                }
                let cage = &pos.cages()[k];
                let left = pos.left(k);
                let cands: Vec<u16> = left
                    .empty()
                    .iter()
                    .map(|&c| {
                        let m = marks.cands(c as usize);
                        if places.contains(&c) { m } else { m & !bit(d) }
                    })
                    .collect();
                let Some(ways) = sums::distinct(&cands, left.sum, bit(d)) else {
                    continue;
                };
                let eliminate: Vec<(u8, u8)> = left
                    .empty()
                    .iter()
                    .zip(ways.allowed)
                    .flat_map(|(&c, a)| digits(marks.cands(c as usize) & !a).map(move |e| (c, e)))
                    .collect();
                if eliminate.is_empty() {
                    continue;
                }
                return Some(Step {
                    technique: "Cage Claiming",
                    rating: 29,
                    reason: format!("{d} in {h} is only in {}, which so holds it", cage.name()),
                    cells: places,
                    place: None,
                    eliminate,
                });
            }
        }
        None
    }
}
