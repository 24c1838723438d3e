//! Naked pairs, triples and quads (3.0, 3.6, 5.0): `n` cells of a house
//! whose candidates are `n` digits together, which then leave the house's
//! other cells. Shared by every type, over the houses the position has
//! ([`Houses`]: a Str8ts row or column, its black cells without candidates).

use crate::core::logic::house::Houses;
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::{digit_list, digits, members, subsets};

pub struct NakedSubset {
    pub size: u32,
}

impl<P: Houses> Technique<P> for NakedSubset {
    fn name(&self) -> &'static str {
        ["Naked Pairs", "Naked Triplets", "Naked Quads"][self.size as usize - 2]
    }

    fn find(&self, marks: &P, _work: &mut Work) -> Option<Step> {
        let n = self.size;
        for &h in marks.houses() {
            if marks.empty_count(h) < 2 * n {
                continue;
            }
            for set in subsets(n) {
                let mut common = 0u16;
                let mut each_two = true;
                for i in members(set) {
                    let m = marks.cands(h.cells()[i] as usize);
                    each_two &= m.count_ones() >= 2;
                    common |= m;
                }
                if !each_two || common.count_ones() != n {
                    continue;
                }
                let eliminate: Vec<(u8, u8)> = (0..9)
                    .filter(|i| set & (1 << i) == 0)
                    .map(|i| h.cells()[i])
                    .flat_map(|c| digits(marks.cands(c as usize) & common).map(move |d| (c, d)))
                    .collect();
                if eliminate.is_empty() {
                    continue;
                }
                let what = ["pair", "triple", "quad"][n as usize - 2];
                return Some(Step {
                    technique: ["Naked Pair", "Naked Triplet", "Naked Quad"][n as usize - 2],
                    rating: [30, 36, 50][n as usize - 2],
                    cells: members(set).map(|i| h.cells()[i]).collect(),
                    place: None,
                    eliminate,
                    reason: format!("naked {what} {} in {h}", digit_list(common)),
                });
            }
        }
        None
    }
}
