//! Locked candidates: pointing (a digit's places in a box all on one line
//! remove it from the rest of the line) and claiming (a line's places all
//! in one box remove it from the rest of the box). SE rates them 2.6 and
//! 2.8, and 1.7 and 1.9 in their "direct" form, which counts only when the
//! removals leave a hidden single of the digit in a house parallel to the
//! first: that single is placed in the same step.

use crate::core::logic::house::{House, HouseKind};
use crate::core::logic::marks::{Marks, bit};
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

pub struct Locking {
    pub direct: bool,
}

/// The pairs of house kinds SE scans, in its order: (box, column),
/// (box, row), (column, box), (row, box).
const KINDS: [(HouseKind, HouseKind); 4] = [
    (House::Box, House::Column),
    (House::Box, House::Row),
    (House::Column, House::Box),
    (House::Row, House::Box),
];

/// Whether two houses of different kinds share cells.
fn crosses(a: House, b: House) -> bool {
    match (a, b) {
        (House::Box(x), House::Row(r)) | (House::Row(r), House::Box(x)) => r / 3 == x / 3,
        (House::Box(x), House::Column(c)) | (House::Column(c), House::Box(x)) => c / 3 == x % 3,
        (House::Row(_), House::Column(_)) | (House::Column(_), House::Row(_)) => true,
        _ => a == b,
    }
}

impl Technique for Locking {
    fn name(&self) -> &'static str {
        if self.direct {
            "Direct Intersections"
        } else {
            "Intersections"
        }
    }

    fn find(&self, marks: &Marks, _work: &mut Work) -> Option<Step> {
        for (kind1, kind2) in KINDS {
            for d in 1..=9u8 {
                for i1 in 0..9u8 {
                    let h1 = kind1(i1);
                    let p1 = marks.positions(h1, d);
                    if p1.count_ones() < 2 {
                        continue;
                    }
                    let cells1: Vec<u8> = super::members(p1).map(|i| h1.cells()[i]).collect();
                    for i2 in 0..9u8 {
                        let h2 = kind2(i2);
                        if !crosses(h1, h2) || !cells1.iter().all(|&c| h2.contains(c as usize)) {
                            continue;
                        }
                        let eliminate: Vec<(u8, u8)> = h2
                            .cells()
                            .iter()
                            .filter(|&&c| {
                                !h1.contains(c as usize) && marks.cands(c as usize) & bit(d) != 0
                            })
                            .map(|&c| (c, d))
                            .collect();
                        if eliminate.is_empty() {
                            continue;
                        }
                        let pointing = h1.is_box();
                        let name = if pointing { "pointing" } else { "claiming" };
                        if !self.direct {
                            return Some(Step {
                                technique: if pointing { "Pointing" } else { "Claiming" },
                                rating: if pointing { 26 } else { 28 },
                                cells: cells1,
                                place: None,
                                eliminate,
                                reason: format!("{name} {d} in {h1} and {h2}"),
                            });
                        }
                        if let Some(step) =
                            following_single(marks, kind1, i1, h1, h2, d, &cells1, &eliminate)
                        {
                            return Some(step);
                        }
                    }
                }
            }
        }
        None
    }
}

/// The direct form: a house of `h1`'s kind crossing `h2` left with one
/// place for `d` outside `h2`.
#[allow(clippy::too_many_arguments)]
fn following_single(
    marks: &Marks,
    kind1: HouseKind,
    i1: u8,
    h1: House,
    h2: House,
    d: u8,
    cells1: &[u8],
    eliminate: &[(u8, u8)],
) -> Option<Step> {
    for i3 in (0..9u8).filter(|&i| i != i1) {
        let h3 = kind1(i3);
        if !crosses(h3, h2) {
            continue;
        }
        let p3 = marks.positions(h3, d);
        if p3.count_ones() < 2 {
            continue;
        }
        let outside: Vec<u8> = super::members(p3)
            .map(|i| h3.cells()[i])
            .filter(|&c| !h2.contains(c as usize))
            .collect();
        if let [cell] = outside[..] {
            let pointing = h1.is_box();
            let name = if pointing { "pointing" } else { "claiming" };
            return Some(Step {
                technique: if pointing {
                    "Direct Pointing"
                } else {
                    "Direct Claiming"
                },
                rating: if pointing { 17 } else { 19 },
                cells: cells1.to_vec(),
                place: Some((cell, d)),
                eliminate: eliminate.to_vec(),
                reason: format!("hidden single in {h3} after {name} {d} in {h1} and {h2}"),
            });
        }
    }
    None
}
