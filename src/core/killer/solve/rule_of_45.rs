//! The rule of 45, for the search only (below the root): each row, column
//! and box adds to 45, so the cells of a unit left over by the cages inside
//! it ("innies"), or those outside it of the cages covering it ("outies"),
//! add to a known sum and, lying in one unit, take distinct digits: a cage
//! in all but name, which the cage rule narrows as any.
//!
//! Made once per puzzle that the root left open, for sets of one to
//! [`MAX_UNIT_SUM_CELLS`] cells; never for cages that overlap, whose sums
//! count a cell twice.

use super::cage::Line;
use super::cells::{PLACES, UNIT_BITS, UNITS_OF, bits};

/// The lines the rule of 45 adds for the search. A row, column or box holds
/// each digit once, so its cells add to 45. Its cells outside the cages
/// that lie inside it ("innies") then add to 45 less those cages' sums, and
/// the cells outside it of the cages that cover it ("outies") to their sums
/// less 45. Such a set of cells in one unit takes distinct digits with a
/// known sum: a cage in all but name, which the cage rule narrows as any.
/// Not for the root, whose rules docs/formats.md "Propagation" fixes (the stored board is their
/// fixpoint), and not for cages that overlap, whose sums count a cell twice.
///
/// Appends them to `lines` (the cages) and returns the cells they hold.
#[inline]
pub(super) fn unit_sums(lines: &mut Vec<Line>) -> u128 {
    // Per unit: the cells and sum of the cages inside it, and of those
    // that touch it.
    let mut inside = [(0u128, 0u32); 27];
    let mut touched = [(0u128, 0u32); 27];
    let mut covered = 0u128;
    for cage in lines.iter() {
        if cage.bits & covered != 0 {
            return 0;
        }
        covered |= cage.bits;
        let (mut within, mut touches) = (u32::MAX, 0u32);
        for &c in &cage.cells[..cage.len] {
            within &= UNITS_OF[usize::from(c)];
            touches |= UNITS_OF[usize::from(c)];
        }
        while touches != 0 {
            let u = touches.trailing_zeros() as usize;
            touches &= touches - 1;
            touched[u].0 |= cage.bits;
            touched[u].1 += u32::from(cage.sum);
            if within >> u & 1 != 0 {
                inside[u].0 |= cage.bits;
                inside[u].1 += u32::from(cage.sum);
            }
        }
    }
    // The cells of each sum so far, to add none twice.
    let mut sets = [0u128; MAX_UNIT_SUMS];
    let mut count = 0;
    for (u, &unit) in UNIT_BITS.iter().enumerate() {
        let ((inside, inside_sum), (touched, touched_sum)) = (inside[u], touched[u]);
        let innies = (unit & !inside, 45u32.checked_sub(inside_sum));
        // Outies only when the cages that touch the unit cover it. A sum
        // no distinct digits make (say 255) is a conflict, as it should be.
        let covers = unit & !touched == 0;
        let outies = (
            touched & !unit,
            touched_sum.checked_sub(45).filter(|_| covers),
        );
        for (set, sum) in [innies, outies] {
            let Some(sum) = sum else { continue };
            // One to MAX_UNIT_SUM_CELLS cells, without counting them all.
            let mut rest = set;
            for _ in 0..MAX_UNIT_SUM_CELLS {
                rest &= rest.wrapping_sub(1);
            }
            if set == 0 || rest != 0 {
                continue;
            }
            // In one unit: the row, column or box of its first cell.
            let first = set.trailing_zeros() as usize;
            let in_one_unit = PLACES[first]
                .iter()
                .any(|&(u, _)| set & !UNIT_BITS[usize::from(u)] == 0);
            // Never a cage's cells (inside cages are left out, and outies
            // are parts of cages that touch the unit), maybe another sum's.
            if in_one_unit && !sets[..count].contains(&set) && count < sets.len() {
                sets[count] = set;
                count += 1;
                let mut list = [0u8; 9];
                let mut len = 0;
                for (slot, c) in list.iter_mut().zip(bits(set)) {
                    *slot = c as u8;
                    len += 1;
                }
                lines.push(Line::new(
                    &list[..len],
                    u8::try_from(sum).unwrap_or(u8::MAX),
                ));
            }
        }
    }
    sets.iter().fold(0, |all, set| all | set)
}

/// The largest unit sum the search takes on.
const MAX_UNIT_SUM_CELLS: usize = 3;

/// At most an innie and an outie set for each unit.
pub(super) const MAX_UNIT_SUMS: usize = 54;
