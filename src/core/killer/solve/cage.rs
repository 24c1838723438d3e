//! The cage rule: each cage is a line whose distinct digits add to its
//! sum. Only the digits of the combinations that fit the cells survive; a
//! digit every fitting combination needs goes to its one place, or leaves
//! the rest of a unit its places share. Unit sums of the rule of 45 are
//! cages to this rule.
//!
//! Invariant: a look at a cage sees every change to its cells so far, so it
//! needs no second look until one changes again. The shortcuts and their
//! order: docs/performance.md "Module notes".

use crate::core::grid::UNITS;
use crate::core::mask::DIGIT_COUNTS;
use crate::core::matching::perfect;

use super::super::cages::combinations;
use super::Solver;
use super::board::{BASE, Board, Contradiction, Dirty, narrow};
use super::cells::{PLACES, UNITS_OF};

/// One cage as the solver sees it: up to nine cells, a sum and the digit
/// sets of that size and sum.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    pub(super) cells: [u8; 9],
    pub(super) len: usize,
    pub(super) bits: u128,
    pub(super) combos: &'static [u16],
    /// The digits of any of `combos`, and those of all (all nine when
    /// there is none): what the cage allows and requires while every cell
    /// still has every digit of `union`.
    pub(super) union: u16,
    pub(super) common: u16,
    pub(super) sum: u8,
    /// For each unit, the positions (0..9 in [`UNITS`]) of its cells in the
    /// cage: what a digit confined to the cage keeps there.
    pub(super) inside: [u16; 27],
    /// The cells no unit sum shares: a look at the cage accounts for their
    /// changes for every line of the search (see [`Solver::cage`]).
    pub(super) alone: u128,
}

impl Line {
    pub(super) fn new(cells: &[u8], sum: u8) -> Line {
        let len = cells.len().min(9);
        let mut line = Line {
            cells: [0; 9],
            len,
            bits: 0,
            combos: combinations(len, sum),
            union: 0,
            common: 0x1ff,
            sum,
            inside: [0; 27],
            alone: 0,
        };
        line.cells[..len].copy_from_slice(&cells[..len]);
        for &set in line.combos {
            line.union |= set;
            line.common &= set;
        }
        for &a in &line.cells[..len] {
            line.bits |= 1 << a;
            for (u, i) in PLACES[usize::from(a)] {
                line.inside[usize::from(u)] |= 1 << i;
            }
        }
        line
    }
}

impl Solver {
    /// Cage `k` as a line: only digits of combinations that fit survive, and
    /// a digit every fitting combination needs, with one place left, goes there.
    ///
    /// `lines` says which lines are in play: with the unit sums, a change to
    /// a cell they share stays for them to see.
    pub(super) fn cage(
        &self,
        k: usize,
        lines: usize,
        b: &mut Board,
        dirty: &mut Dirty,
    ) -> Result<bool, Contradiction> {
        let line = &self.lines[k];
        let cells = &line.cells[..line.len];
        let mut masks = [0u16; 9];
        let mut every = 0x1ff;
        for (m, &c) in masks.iter_mut().zip(cells) {
            *m = b.cand[c as usize];
            every &= *m;
        }
        let (allowed, required, placed) = match *cells {
            // The commonest cage, by arithmetic rather than a walk of its pairs.
            [_, _] if !line.combos.is_empty() => pair_digits(masks[0], masks[1], line.sum),
            // Every cell has every digit of every combination (as on the
            // first look from an open board): all of them fit, none is
            // placed (a combination of two cells or more has two digits or
            // more), and the walk would find `union` and `common`.
            [_, _, ..] if every & line.union == line.union => (line.union, line.common, 0),
            _ => cage_digits(&masks[..line.len], line.combos),
        };
        if allowed == 0 {
            return Err(Contradiction::Group(k as u8));
        }
        let mut changed = false;
        // `masks` stays each cell's candidates: only narrowing a cell
        // changes it, and the cells of a cage are distinct.
        for (m, &c) in masks.iter_mut().zip(cells) {
            if *m & !allowed != 0 {
                *m &= allowed;
                narrow(b, dirty, usize::from(c), *m)?;
                changed = true;
            }
        }
        // This look saw every change to the cage's cells so far, and cutting
        // them to `allowed` keeps every combination that fits: the cage needs
        // no second look unless a digit is placed below (which can leave
        // another required digit one place). With the unit sums in play a
        // cell may belong to two lines, and only the cells of no unit sum
        // are this line's alone to clear: a cage must see every change to
        // its cells, or a board breaking its sum could pass for a solution.
        // A unit sum clears nothing.
        dirty.cages &= if lines == self.cages {
            !line.bits
        } else {
            !line.alone
        };
        let mut need = required & !placed;
        while need != 0 {
            let bit = need & need.wrapping_neg();
            need ^= bit;
            // Where the digit can go, and the units holding all those places.
            let (mut at, mut count, mut common) = (0usize, 0u64, u32::MAX);
            for (i, (&m, &c)) in masks.iter().zip(cells).enumerate() {
                if m & bit != 0 {
                    at = i;
                    count += 1;
                    common &= UNITS_OF[usize::from(c)];
                }
            }
            match (count, masks.get_mut(at), cells.get(at)) {
                (0, ..) => {
                    return Err(Contradiction::Needed {
                        group: k as u8,
                        digit: bit.trailing_zeros() as u8 + 1,
                        held_at: None,
                    });
                }
                (1, Some(m), Some(&c)) if *m != bit => {
                    *m = bit;
                    narrow(b, dirty, usize::from(c), bit)?;
                    changed = true;
                }
                (1, ..) => {}
                _ => {
                    // The digit is in the cage, at one of these places; if they share
                    // a row, column or box, it can be nowhere else in that unit
                    // (the cage's other cells no longer have it to lose).
                    // The unit's count of places says, without a scan,
                    // whether any lies outside the cage.
                    let shift = 4 * bit.trailing_zeros();
                    while common != 0 {
                        let u = common.trailing_zeros() as usize;
                        common &= common - 1;
                        if (b.places[u] >> shift & 0xf) - (BASE & 0xf) > count {
                            let unit = &UNITS[u];
                            changed |= remove_outside(b, dirty, unit, line.inside[u], bit)?;
                        }
                    }
                }
            }
        }
        Ok(changed)
    }
}

/// The digits of the combinations that fit cells with candidates `masks`
/// (each cell a different digit of the set), the digits all of them share
/// (all nine when none fits), and the digits already placed in the cells.
// Inlined into its one hot caller: out of line, the call costs more than
// the small cages' work (callgrind).
#[inline(always)]
fn cage_digits(masks: &[u16], combos: &[u16]) -> (u16, u16, u16) {
    // A placed cell can only take its own digit: the rest of each set must
    // go to the open cells, which is a smaller matching.
    let (mut union, mut placed, mut placed_cells) = (0u16, 0u16, 0u32);
    let mut open = [0u16; 9];
    let mut n = 0;
    for &m in masks {
        union |= m;
        if m & (m.wrapping_sub(1)) == 0 {
            // An empty cell counts as placed with no digit: nothing fits.
            placed |= m;
            placed_cells += 1;
        } else {
            open[n] = m;
            n += 1;
        }
    }
    let (mut allowed, mut required) = (0u16, 0x1ffu16);
    if placed.count_ones() != placed_cells {
        // A digit placed twice, or a cell with none.
        return (allowed, required, placed);
    }
    let open = &open[..n];
    for &set in combos {
        if set & !union != 0
            || placed & !set != 0
            || allowed | set == allowed && required & set == required
        {
            // Needs a digit no cell has, misses a placed digit, or adds nothing.
            continue;
        }
        if fits(open, set & !placed) {
            allowed |= set;
            required &= set;
            if allowed == union && required == placed {
                // No set can add a digit no cell has, nor lose a placed one.
                break;
            }
        }
    }
    (allowed, required, placed)
}

/// Each 9-bit mask reversed: digit `d` becomes digit `10 - d`.
const REVERSED: [u16; 512] = {
    let mut out = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut d = 0;
        while d < 9 {
            if m & (1 << d) != 0 {
                out[m] |= 1 << (8 - d);
            }
            d += 1;
        }
        m += 1;
    }
    out
};

/// [`cage_digits`] for two cells `a` and `b` adding to `sum` (3 to 17: one
/// that has pairs). A pair fits when one cell has a digit and the other its
/// partner, so the allowed digits are each cell's digits whose partner the
/// other has (not itself: the digits differ); two pairs of one sum share no
/// digit, so every fitting pair shares a digit only when there is one.
fn pair_digits(a: u16, b: u16, sum: u8) -> (u16, u16, u16) {
    // The digits `sum - e` for each digit `e` of `m`: `10 - e`, shifted.
    let partners = |m: u16| {
        let r = REVERSED[usize::from(m & 0x1ff)];
        if sum >= 10 {
            r << (sum - 10) & 0x1ff
        } else {
            r >> (10 - sum)
        }
    };
    let half = if sum & 1 == 0 { 1 << (sum / 2 - 1) } else { 0 };
    let allowed = (a & partners(b) | b & partners(a)) & !half;
    let single = |m: u16| if m & m.wrapping_sub(1) == 0 { m } else { 0 };
    let placed = single(a) | single(b);
    let required = match DIGIT_COUNTS[usize::from(allowed)] {
        0 => 0x1ff,
        2 => allowed,
        _ => 0,
    };
    (allowed, required, placed)
}

/// Whether the cells can take the digits of `set` (as many as cells) one
/// each. Up to five cells by Hall's condition (every group of cells sees at
/// least as many digits of the set), which is cheap and branch-light; more
/// by augmenting paths.
#[inline]
fn fits(masks: &[u16], set: u16) -> bool {
    // Two or more digits of the set.
    let two = |u: u16| u & u.wrapping_sub(1) != 0;
    match *masks {
        [] => true,
        [a] => a & set != 0,
        [a, b] => {
            let (x, y) = (a & set, b & set);
            x != 0 && y != 0 && x | y == set
        }
        [a, b, c] => {
            let (x, y, z) = (a & set, b & set, c & set);
            x != 0 && y != 0 && z != 0 && two(x | y) && two(x | z) && two(y | z) && x | y | z == set
        }
        [a, b, c, d] => {
            let (x, y, z, w) = (a & set, b & set, c & set, d & set);
            let three = |u: u16| DIGIT_COUNTS[usize::from(u)] >= 3;
            x != 0
                && y != 0
                && z != 0
                && w != 0
                && two(x | y)
                && two(x | z)
                && two(x | w)
                && two(y | z)
                && two(y | w)
                && two(z | w)
                && three(x | y | z)
                && three(x | y | w)
                && three(x | z | w)
                && three(y | z | w)
                && x | y | z | w == set
        }
        // Each cell in turn the lowest digit it can still take: when that
        // works (wide masks, nearly always) it is a matching, found without
        // the search for one.
        [..] if greedy(masks, set) || greedy_high(masks, set) => true,
        [..] if masks.len() <= 5 => {
            let mut seen = [0u16; 32];
            for group in 1..1usize << masks.len() {
                let u = seen[group & (group - 1)] | masks[group.trailing_zeros() as usize] & set;
                if DIGIT_COUNTS[usize::from(u)] < DIGIT_COUNTS[group] {
                    return false;
                }
                seen[group] = u;
            }
            true
        }
        [..] => masks.iter().all(|&m| m & set != 0) && perfect(masks, set),
    }
}

/// [`greedy`] from the last cell, giving each its highest digit: another
/// cheap try before the search for a matching.
fn greedy_high(masks: &[u16], set: u16) -> bool {
    let mut free = set;
    for &m in masks.iter().rev() {
        let options = m & free;
        if options == 0 {
            return false;
        }
        free ^= 0x8000 >> (options.leading_zeros());
    }
    true
}

/// Whether giving each cell in turn the lowest digit of `set` it can still
/// take gives every cell one.
fn greedy(masks: &[u16], set: u16) -> bool {
    let mut free = set;
    for &m in masks {
        let options = m & free;
        if options == 0 {
            return false;
        }
        free ^= options & options.wrapping_neg();
    }
    true
}

/// Removes `bit` from the cells of `unit` but those at positions `keep`;
/// whether anything changed.
#[inline]
fn remove_outside(
    b: &mut Board,
    dirty: &mut Dirty,
    unit: &[u8; 9],
    keep: u16,
    bit: u16,
) -> Result<bool, Contradiction> {
    let mut changed = false;
    for (i, &o) in unit.iter().enumerate() {
        let o = o as usize;
        if b.cand[o] & bit != 0 && keep >> i & 1 == 0 {
            narrow(b, dirty, o, b.cand[o] & !bit)?;
            changed = true;
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cells_allow_and_require_what_a_walk_of_their_pairs_does() {
        for sum in 0..=20 {
            let combos = combinations(2, sum);
            if combos.is_empty() {
                continue;
            }
            for a in 0..512u16 {
                for b in (0..512u16).step_by(7).chain([1 << 8, 0x1ff]) {
                    let (got, want) = (pair_digits(a, b, sum), cage_digits(&[a, b], combos));
                    // Nothing fitting is a conflict whatever else is said.
                    if want.0 == 0 {
                        assert_eq!(got.0, 0, "{sum} {a:b} {b:b}");
                    } else {
                        assert_eq!(got, want, "{sum} {a:b} {b:b}");
                    }
                }
            }
        }
    }
}
