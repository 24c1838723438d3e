//! Basic fish: X-Wing, Swordfish, Jellyfish (3.2, 3.8, 5.2). When a digit's
//! places in `n` columns (or rows) lie in `n` rows (or columns) together,
//! it leaves those rows' other cells. SE scans columns as the base first.

use crate::core::logic::house::{House, HouseKind};
use crate::core::logic::marks::{Marks, bit};
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::{members, subsets};

pub struct Fish {
    pub size: u32,
}

const NAMES: [&str; 3] = ["X-Wing", "Swordfish", "Jellyfish"];

/// `rows 1 and 6`, `columns 2, 5 and 9`.
fn lines(kind: &str, set: u16) -> String {
    let ns: Vec<String> = members(set).map(|i| (i + 1).to_string()).collect();
    match ns.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{kind}s {} and {last}", rest.join(", ")),
        _ => format!("{kind} {}", ns.join("")),
    }
}

impl Technique for Fish {
    fn name(&self) -> &'static str {
        NAMES[self.size as usize - 2]
    }

    fn find(&self, marks: &Marks, _work: &mut Work) -> Option<Step> {
        let n = self.size;
        let kinds: [(HouseKind, HouseKind, &str, &str); 2] = [
            (House::Column, House::Row, "column", "row"),
            (House::Row, House::Column, "row", "column"),
        ];
        let placed: [u32; 10] = std::array::from_fn(|d| {
            if d == 0 {
                0
            } else {
                marks.placed_count(d as u8)
            }
        });
        for (base_kind, cover_kind, base_name, cover_name) in kinds {
            for base in subsets(n) {
                for d in 1..=9u8 {
                    if placed[d as usize] + 2 * n > 9 {
                        continue;
                    }
                    let mut cover = 0u16;
                    let mut each_two = true;
                    for i in members(base) {
                        let p = marks.positions(base_kind(i as u8), d);
                        each_two &= p.count_ones() >= 2;
                        cover |= p;
                    }
                    if !each_two || cover.count_ones() != n {
                        continue;
                    }
                    let mut eliminate = Vec::new();
                    for j in members(cover) {
                        let h = cover_kind(j as u8);
                        for (i, &c) in h.cells().iter().enumerate() {
                            if base & (1 << i) == 0 && marks.cands(c as usize) & bit(d) != 0 {
                                eliminate.push((c, d));
                            }
                        }
                    }
                    if eliminate.is_empty() {
                        continue;
                    }
                    let cells: Vec<u8> = members(base)
                        .flat_map(|i| {
                            let h = base_kind(i as u8);
                            members(cover).map(move |j| h.cells()[j])
                        })
                        .filter(|&c| marks.cands(c as usize) & bit(d) != 0)
                        .collect();
                    let name = NAMES[n as usize - 2];
                    return Some(Step {
                        technique: name,
                        rating: [32, 38, 52][n as usize - 2],
                        cells,
                        place: None,
                        eliminate,
                        reason: format!(
                            "{name} on {d} in {} and {}",
                            lines(base_name, base),
                            lines(cover_name, cover)
                        ),
                    });
                }
            }
        }
        None
    }
}
