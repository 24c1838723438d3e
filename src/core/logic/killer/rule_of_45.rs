//! Innies and outies, the rule of 45: the cells of `n` houses add up to
//! 45n, so the cells inside them of the cages that stick out (innies) add
//! up to 45n less the sums of the cages wholly inside, and the cells
//! outside of those cages (outies) to their sums less the innies'. Those
//! cells then act as a cage (distinct when they all see each other). The
//! regions: each house, and unions of 2, 3 or 4 consecutive rows or
//! columns, of 2 neighbouring boxes or 4 boxes in a square. A single
//! innie or outie of one house is placed at 1.7; a sum over one house
//! rates 2.5, over 2, 3, 4 houses 3.1, 3.3, 3.5.

use std::sync::OnceLock;

use crate::core::grid::{CELLS, box_of};
use crate::core::logic::marks::{bit, sees};
use crate::core::logic::step::{Rating10, Step, cell_list};
use crate::core::logic::technique::{Technique, Work};
use crate::core::logic::techniques::digits;

use super::position::KillerMarks;
use super::sums;

pub struct RuleOf45 {
    /// How many houses the regions span.
    pub houses: u8,
    /// One house, one innie or outie to place (else the sums).
    pub single: bool,
}

/// A union of houses: its name and its cells.
struct Region {
    houses: u8,
    name: String,
    cells: u128,
}

fn set(f: impl Fn(usize) -> bool) -> u128 {
    (0..CELLS).filter(|&c| f(c)).fold(0, |s, c| s | 1 << c)
}

/// `rows 1-3`, `boxes 1,2,4,5`.
fn lines(kind: &str, first: usize, n: usize) -> String {
    if n == 1 {
        format!("{kind} {}", first + 1)
    } else {
        format!("{kind}s {}-{}", first + 1, first + n)
    }
}

fn regions() -> &'static [Region] {
    static ALL: OnceLock<Vec<Region>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for n in 1..=4usize {
            for first in 0..=9 - n {
                let rows = first..first + n;
                all.push(Region {
                    houses: n as u8,
                    name: lines("row", first, n),
                    cells: set(|c| rows.contains(&(c / 9))),
                });
                all.push(Region {
                    houses: n as u8,
                    name: lines("column", first, n),
                    cells: set(|c| rows.contains(&(c % 9))),
                });
            }
            let boxes: Vec<Vec<usize>> = match n {
                1 => (0..9).map(|b| vec![b]).collect(),
                2 => (0..9)
                    .flat_map(|b| {
                        let right = (b % 3 < 2).then(|| vec![b, b + 1]);
                        let below = (b < 6).then(|| vec![b, b + 3]);
                        right.into_iter().chain(below)
                    })
                    .collect(),
                4 => [0, 1, 3, 4].map(|b| vec![b, b + 1, b + 3, b + 4]).to_vec(),
                _ => Vec::new(),
            };
            for bs in boxes {
                let names: Vec<String> = bs.iter().map(|b| (b + 1).to_string()).collect();
                let kind = if bs.len() == 1 { "box" } else { "boxes" };
                all.push(Region {
                    houses: n as u8,
                    name: format!("{kind} {}", names.join(",")),
                    cells: set(|c| bs.contains(&box_of(c))),
                });
            }
        }
        all
    })
}

fn cells_of(s: u128) -> Vec<u8> {
    (0..CELLS as u8).filter(|&c| s & (1 << c) != 0).collect()
}

impl RuleOf45 {
    fn rating(&self) -> Rating10 {
        match (self.houses, self.single) {
            (1, true) => 17,
            (1, false) => 25,
            (n, _) => 27 + 2 * Rating10::from(n),
        }
    }

    /// The step the sum of `cells` (the innies or outies of `region`)
    /// gives, if any.
    fn sum_step(
        &self,
        pos: &KillerMarks,
        region: &Region,
        side: &str,
        cells: u128,
        total: i32,
    ) -> Option<Step> {
        let marks = pos.marks();
        let all = cells_of(cells);
        let mut sum = total;
        let mut empty = Vec::new();
        for &c in &all {
            match marks.value(c as usize) {
                0 => empty.push(c),
                v => sum -= i32::from(v),
            }
        }
        let (eliminate, place) = match empty[..] {
            [] => return None,
            [c] => {
                let d = u8::try_from(sum).ok().filter(|d| (1..=9).contains(d))?;
                if !self.single && self.houses == 1 {
                    return None;
                }
                if marks.cands(c as usize) & bit(d) == 0 {
                    return None;
                }
                (Vec::new(), Some((c, d)))
            }
            _ if self.single => return None,
            _ => {
                let cands: Vec<u16> = empty.iter().map(|&c| marks.cands(c as usize)).collect();
                let differ = |a: u8, b: u8| {
                    sees(a as usize, b as usize)
                        || pos.cage_of(a as usize) == pos.cage_of(b as usize)
                };
                let ways = if empty
                    .iter()
                    .enumerate()
                    .all(|(i, &a)| empty[i + 1..].iter().all(|&b| differ(a, b)))
                {
                    sums::distinct(&cands, sum, 0)
                } else if empty.len() > sums::MAX_LOOSE {
                    None
                } else {
                    let masks: Vec<u16> = empty
                        .iter()
                        .map(|&a| {
                            empty
                                .iter()
                                .enumerate()
                                .filter(|&(_, &b)| a != b && differ(a, b))
                                .fold(0, |m, (j, _)| m | 1 << j)
                        })
                        .collect();
                    sums::loose(&cands, &masks, sum)
                }?;
                let eliminate: Vec<(u8, u8)> = empty
                    .iter()
                    .zip(ways.allowed)
                    .flat_map(|(&c, a)| digits(marks.cands(c as usize) & !a).map(move |d| (c, d)))
                    .collect();
                if eliminate.is_empty() {
                    return None;
                }
                (eliminate, None)
            }
        };
        let what = if all.len() == 1 {
            format!("{side} of {} is {total}", region.name)
        } else {
            format!("{side}s of {} make {total}", region.name)
        };
        Some(Step {
            technique: if all.len() == 1 {
                "Rule of 45 (single)"
            } else {
                "Rule of 45"
            },
            rating: self.rating(),
            reason: format!("rule of 45: the {what} ({})", cell_list(&all)),
            cells: all,
            place,
            eliminate,
        })
    }
}

impl Technique<KillerMarks> for RuleOf45 {
    fn name(&self) -> &'static str {
        "Rule of 45"
    }

    fn find(&self, pos: &KillerMarks, _work: &mut Work) -> Option<Step> {
        for region in regions().iter().filter(|r| r.houses == self.houses) {
            let (mut inside, mut across) = (0i32, 0i32);
            let (mut innies, mut outies) = (0u128, 0u128);
            for cage in pos.cages() {
                let within = cage.set & region.cells;
                if within == cage.set {
                    inside += i32::from(cage.sum);
                } else if within != 0 {
                    across += i32::from(cage.sum);
                    innies |= within;
                    outies |= cage.set & !region.cells;
                }
            }
            let total = 45 * i32::from(region.houses) - inside;
            if innies == 0 {
                continue;
            }
            if let Some(step) = self.sum_step(pos, region, "innie", innies, total) {
                return Some(step);
            }
            if let Some(step) = self.sum_step(pos, region, "outie", outies, across - total) {
                return Some(step);
            }
        }
        None
    }
}
