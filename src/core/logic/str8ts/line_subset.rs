//! Naked pairs, triples and quads in a line (3.0, 3.6, 5.0): `n` white
//! cells of a row or column, in one compartment or several, whose
//! candidates are `n` digits together; those digits leave the line's other
//! cells, since a digit appears once in a line.

use crate::core::logic::step::Step;
use crate::core::logic::technique::Work;
use crate::core::logic::techniques::{digit_list, digits, members, subsets};

use super::position::line_name;
use super::{Position, Str8tsTechnique};

pub struct LineSubset {
    pub size: u32,
}

impl Str8tsTechnique for LineSubset {
    fn name(&self) -> &'static str {
        ["Naked Pairs", "Naked Triplets", "Naked Quads"][self.size as usize - 2]
    }

    fn find(&self, p: &Position, _work: &mut Work) -> Option<Step> {
        let n = self.size;
        for line in 0..18 {
            let cells = Position::line(line);
            let open = cells
                .iter()
                .filter(|&&c| p.cands(usize::from(c)) != 0)
                .count();
            if open < 2 * n as usize {
                continue;
            }
            for set in subsets(n) {
                let mut common = 0u16;
                let mut each_two = true;
                for i in members(set) {
                    let m = p.cands(usize::from(cells[i]));
                    each_two &= m.count_ones() >= 2;
                    common |= m;
                }
                if !each_two || common.count_ones() != n {
                    continue;
                }
                let eliminate: Vec<(u8, u8)> = (0..9)
                    .filter(|i| set & (1 << i) == 0)
                    .map(|i| cells[i])
                    .flat_map(|c| digits(p.cands(usize::from(c)) & common).map(move |d| (c, d)))
                    .collect();
                if eliminate.is_empty() {
                    continue;
                }
                let what = ["pair", "triple", "quad"][n as usize - 2];
                return Some(Step {
                    technique: ["Naked Pair", "Naked Triplet", "Naked Quad"][n as usize - 2],
                    rating: [30, 36, 50][n as usize - 2],
                    cells: members(set).map(|i| cells[i]).collect(),
                    place: None,
                    eliminate,
                    reason: format!("naked {what} {} in {}", digit_list(common), line_name(line)),
                });
            }
        }
        None
    }
}
