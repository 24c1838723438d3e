//! Hidden pairs, triples and quads (3.4, 4.0, 5.4): `n` digits whose places
//! in a house are the same `n` cells, which then hold nothing else. SE's
//! direct form (pair 2.0, triple 2.5) counts only when those removals leave
//! a hidden single of another digit in the house, placed in the same step.

use crate::core::logic::house::House;
use crate::core::logic::marks::{Marks, bit};
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::{digit_list, members, subsets};

pub struct HiddenSubset {
    pub size: u32,
    pub direct: bool,
}

const NAMES: [&str; 3] = ["pair", "triple", "quad"];

impl Technique for HiddenSubset {
    fn name(&self) -> &'static str {
        match (self.size, self.direct) {
            (2, true) => "Direct Hidden Pairs",
            (3, true) => "Direct Hidden Triplets",
            (2, false) => "Hidden Pairs",
            (3, false) => "Hidden Triplets",
            _ => "Hidden Quads",
        }
    }

    fn find(&self, marks: &Marks, _work: &mut Work) -> Option<Step> {
        let n = self.size;
        for h in House::SE_ORDER {
            let empty = marks.empty_count(h);
            if !(empty > 2 * n || (self.direct && empty > n)) {
                continue;
            }
            for set in subsets(n) {
                let values: Vec<u8> = members(set).map(|i| i as u8 + 1).collect();
                let mut common = 0u16;
                let mut each_two = true;
                for &d in &values {
                    let p = marks.positions(h, d);
                    each_two &= p.count_ones() >= 2;
                    common |= p;
                }
                if !each_two || common.count_ones() != n {
                    continue;
                }
                let vmask: u16 = values.iter().map(|&d| bit(d)).fold(0, |a, b| a | b);
                let cells: Vec<u8> = members(common).map(|i| h.cells()[i]).collect();
                let eliminate: Vec<(u8, u8)> = cells
                    .iter()
                    .flat_map(|&c| {
                        super::digits(marks.cands(c as usize) & !vmask).map(move |d| (c, d))
                    })
                    .collect();
                let what = NAMES[n as usize - 2];
                let reason = format!("hidden {what} {} in {h}", digit_list(vmask));
                if !self.direct {
                    if eliminate.is_empty() {
                        continue;
                    }
                    return Some(Step {
                        technique: ["Hidden Pair", "Hidden Triplet", "Hidden Quad"][n as usize - 2],
                        rating: [34, 40, 54][n as usize - 2],
                        cells,
                        place: None,
                        eliminate,
                        reason,
                    });
                }
                for d in (1..=9u8).filter(|&d| vmask & bit(d) == 0) {
                    let p = marks.positions(h, d);
                    if p.count_ones() > 1 && (p & !common).count_ones() == 1 {
                        let cell = h.cells()[(p & !common).trailing_zeros() as usize];
                        return Some(Step {
                            technique: ["Direct Hidden Pair", "Direct Hidden Triplet"]
                                [n as usize - 2],
                            rating: [20, 25][n as usize - 2],
                            cells,
                            place: Some((cell, d)),
                            eliminate,
                            reason: format!("hidden single in {h} after the {reason}"),
                        });
                    }
                }
            }
        }
        None
    }
}
