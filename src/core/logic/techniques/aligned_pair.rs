//! Aligned pair exclusion (6.2): two cells, each seen by the same two or
//! more bivalue cells. A pair of digits for the two cells is impossible
//! when the cells see each other and the digits are equal, or when it
//! would empty one of those bivalue cells; a digit of one cell that is in
//! no possible pair leaves it. As SE, the cells are taken in its order
//! (every cell with two or more candidates, seen by a bivalue cell and by
//! no cell with one candidate) and the first pair that removes something
//! is applied.

use crate::core::grid::PEERS;
use crate::core::logic::marks::{Marks, bit, sees};
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::digits;

pub struct AlignedPair;

impl Technique for AlignedPair {
    fn name(&self) -> &'static str {
        "Aligned Pair Exclusion"
    }

    fn find(&self, marks: &Marks, _work: &mut Work) -> Option<Step> {
        let mut cands: Vec<(usize, Vec<usize>)> = Vec::new();
        for (c, peers) in PEERS.iter().enumerate() {
            if marks.cands(c).count_ones() < 2 {
                continue;
            }
            let peers = peers.iter().map(|&p| p as usize);
            if peers.clone().any(|p| marks.cands(p).count_ones() == 1) {
                continue;
            }
            let excl: Vec<usize> = peers
                .filter(|&p| marks.cands(p).count_ones() == 2)
                .collect();
            if !excl.is_empty() {
                cands.push((c, excl));
            }
        }
        for (i, (a, ea)) in cands.iter().enumerate() {
            for (b, eb) in &cands[i + 1..] {
                let common: Vec<usize> = ea.iter().copied().filter(|e| eb.contains(e)).collect();
                if common.len() < 2 {
                    continue;
                }
                let (ma, mb) = (marks.cands(*a), marks.cands(*b));
                let (mut ok_a, mut ok_b) = (0u16, 0u16);
                for da in digits(ma) {
                    for db in digits(mb) {
                        if da == db && sees(*a, *b) {
                            continue;
                        }
                        let both = bit(da) | bit(db);
                        if common.iter().any(|&e| marks.cands(e) & !both == 0) {
                            continue;
                        }
                        ok_a |= bit(da);
                        ok_b |= bit(db);
                    }
                }
                let mut eliminate: Vec<(u8, u8)> =
                    digits(ma & !ok_a).map(|d| (*a as u8, d)).collect();
                eliminate.extend(digits(mb & !ok_b).map(|d| (*b as u8, d)));
                if eliminate.is_empty() {
                    continue;
                }
                return Some(Step {
                    technique: "Aligned Pair Exclusion",
                    rating: 62,
                    cells: vec![*a as u8, *b as u8],
                    place: None,
                    eliminate,
                    reason: format!(
                        "aligned pair exclusion on {},{}",
                        crate::core::grid::cell_at(*a),
                        crate::core::grid::cell_at(*b)
                    ),
                });
            }
        }
        None
    }
}
