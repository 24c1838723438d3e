//! XY-Wing (4.2) and XYZ-Wing (4.4): a pivot with candidates xy (xyz) and
//! two pincers it sees, xz and yz. Whichever the pivot holds, one pincer
//! is z, so z leaves every cell that sees both pincers (and, for XYZ, the
//! pivot too).

use crate::core::grid::{CELLS, PEERS};
use crate::core::logic::marks::{Marks, sees};
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::digit_list;

pub struct XyWing {
    pub xyz: bool,
}

impl Technique for XyWing {
    fn name(&self) -> &'static str {
        if self.xyz { "XYZ-Wing" } else { "XY-Wing" }
    }

    fn find(&self, marks: &Marks, _work: &mut Work) -> Option<Step> {
        let pivot_size = if self.xyz { 3 } else { 2 };
        for (pivot, peers) in PEERS.iter().enumerate() {
            let xy = marks.cands(pivot);
            if xy.count_ones() != pivot_size {
                continue;
            }
            let wings: Vec<usize> = peers
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| marks.cands(p).count_ones() == 2)
                .collect();
            for (k, &a) in wings.iter().enumerate() {
                for &b in &wings[k + 1..] {
                    let (ma, mb) = (marks.cands(a), marks.cands(b));
                    let z = ma & mb;
                    if z.count_ones() != 1 || ma == mb {
                        continue;
                    }
                    let ok = if self.xyz {
                        z & xy != 0 && (ma | mb) == xy
                    } else {
                        z & xy == 0 && (ma | mb) == xy | z
                    };
                    if !ok {
                        continue;
                    }
                    let d = z.trailing_zeros() as u8 + 1;
                    let eliminate: Vec<(u8, u8)> = (0..CELLS)
                        .filter(|&c| c != pivot && c != a && c != b && marks.cands(c) & z != 0)
                        .filter(|&c| sees(c, a) && sees(c, b) && (!self.xyz || sees(c, pivot)))
                        .map(|c| (c as u8, d))
                        .collect();
                    if eliminate.is_empty() {
                        continue;
                    }
                    let name = self.name();
                    return Some(Step {
                        technique: name,
                        rating: if self.xyz { 44 } else { 42 },
                        cells: vec![pivot as u8, a as u8, b as u8],
                        place: None,
                        eliminate,
                        reason: format!(
                            "{name} on {} with pivot {}",
                            digit_list(xy | z),
                            crate::core::grid::cell_at(pivot)
                        ),
                    });
                }
            }
        }
        None
    }
}
