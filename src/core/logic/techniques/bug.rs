//! Bivalue universal grave, BUG (5.6, 5.7): when every empty cell but a
//! few has two candidates and, without some extra candidates of those
//! few, every digit would have two places in each house it is missing
//! from, that position would have two solutions or none; so a puzzle with
//! one solution needs one of the extra candidates. Type 1 (5.6): one
//! extra candidate, which is then placed. Type 2 (5.7): the extras are all
//! one digit, which then leaves every cell that sees all of them.
//!
//! SE's types 3 and 4 (5.7-6.0) are not here (see docs/difficulty.md).

use crate::core::grid::{CELLS, PEERS};
use crate::core::logic::house::House;
use crate::core::logic::marks::{Marks, bit};
use crate::core::logic::step::{Step, cell_list};
use crate::core::logic::technique::{Technique, Work};

use super::digits;

pub struct Bug;

impl Technique for Bug {
    fn name(&self) -> &'static str {
        "Bivalue Universal Grave"
    }

    fn find(&self, marks: &Marks, _work: &mut Work) -> Option<Step> {
        let bug_cells: Vec<usize> = (0..CELLS)
            .filter(|&c| marks.cands(c).count_ones() > 2)
            .collect();
        if bug_cells.is_empty() || bug_cells.len() > 8 {
            return None;
        }
        // Each extra cell's extra digits: those with three places in a
        // house where it is the only extra cell.
        let mut extra = [0u16; CELLS];
        for &c in &bug_cells {
            for h in House::SE_ORDER {
                if !h.contains(c) || bug_cells.iter().any(|&o| o != c && h.contains(o)) {
                    continue;
                }
                for d in digits(marks.cands(c)) {
                    if marks.positions(h, d).count_ones() == 3 {
                        extra[c] |= bit(d);
                    }
                }
            }
            if extra[c] == 0 {
                return None;
            }
        }
        // Without the extras, every cell has two candidates and every
        // house two places (or none) for each digit.
        let rest = |c: usize| marks.cands(c) & !extra[c];
        if (0..CELLS).any(|c| marks.value(c) == 0 && rest(c).count_ones() != 2) {
            return None;
        }
        for h in House::SE_ORDER {
            for d in 1..=9 {
                let n = h
                    .cells()
                    .iter()
                    .filter(|&&c| rest(c as usize) & bit(d) != 0)
                    .count();
                if n != 0 && n != 2 {
                    return None;
                }
            }
        }
        let cells: Vec<u8> = bug_cells.iter().map(|&c| c as u8).collect();
        if let [c] = bug_cells[..] {
            if extra[c].count_ones() == 1 {
                let d = extra[c].trailing_zeros() as u8 + 1;
                return Some(Step {
                    technique: "BUG type 1",
                    rating: 56,
                    cells,
                    place: Some((c as u8, d)),
                    eliminate: Vec::new(),
                    reason: "BUG type 1: the only cell with a third candidate".to_string(),
                });
            }
            return None;
        }
        let common = bug_cells.iter().fold(0x1ff, |m, &c| m & extra[c]);
        if common.count_ones() != 1 || bug_cells.iter().any(|&c| extra[c] != common) {
            return None;
        }
        let d = common.trailing_zeros() as u8 + 1;
        let eliminate: Vec<(u8, u8)> = (0..CELLS)
            .filter(|&c| marks.cands(c) & common != 0 && !bug_cells.contains(&c))
            .filter(|&c| bug_cells.iter().all(|&b| PEERS[b].contains(&(c as u8))))
            .map(|c| (c as u8, d))
            .collect();
        if eliminate.is_empty() {
            return None;
        }
        Some(Step {
            technique: "BUG type 2",
            rating: 57,
            reason: format!("BUG type 2: one of {} is {d}", cell_list(&cells)),
            cells,
            place: None,
            eliminate,
        })
    }
}
