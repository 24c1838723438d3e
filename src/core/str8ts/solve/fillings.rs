//! The fillings rule, for the search only (below the root): each cell of a
//! compartment keeps only the digits it takes in some filling, one digit a
//! cell, of a straight that fits there.
//!
//! One matching per straight ([`crate::core::matching`]), then Régin's
//! alternating cycles on bitmasks. Runs once the cheap rules are at their
//! fixpoint, only on compartments whose fitting straights changed, and
//! never empties a cell. In full: docs/performance.md "Module notes".

use crate::core::matching::fill;

use super::super::straights::{ones, reachable, split};
use super::layout::{LINE_CELLS, Layout};
use super::work::{Cells, Fits, Work};

impl Layout {
    /// The fillings rule on compartment `k`, at the cheap rules' fixpoint:
    /// each cell keeps only the digits it takes in some filling of a
    /// straight that fits. Never empties a cell: at the fixpoint every
    /// straight in `fits[k]` fits, and gives each cell a digit.
    pub(super) fn fillings(&self, cells: &mut Cells, fits: &mut Fits, k: usize, work: &mut Work) {
        let (Some(run), Some(lows)) = (self.runs.get(k), fits.lows.get_mut(k)) else {
            return;
        };
        let was = *lows;
        let (l, start, len) = (
            usize::from(run.line),
            usize::from(run.start),
            usize::from(run.len),
        );
        let line = &LINE_CELLS[l];
        let mut allowed = [0u16; 9];
        let mut open = 0;
        for (a, &c) in allowed.iter_mut().zip(&line[start..start + len]) {
            *a = cells[usize::from(c)];
            open += usize::from(*a & a.wrapping_sub(1) != 0);
        }
        // With one open cell the compartment rule is already exact.
        if open < 2 {
            return;
        }
        let allowed = &allowed[..len];
        // Not known yet (at the start of the search): every straight the
        // cells reach is tried, and those that fit are kept.
        let mut rest = *lows;
        if rest == 0 {
            rest = reachable(allowed.iter().copied(), len);
        }
        let mut keep = [0u16; 9];
        *lows = 0;
        while rest != 0 {
            let low = rest.trailing_zeros() as usize;
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if possible(allowed, ((1u16 << len) - 1) << low, &mut keep) {
                *lows |= bit;
            }
        }
        if *lows != was {
            work.lines |= 1 << run.line;
        }
        for ((&a, &m), &c) in allowed.iter().zip(&keep).zip(&line[start..start + len]) {
            let m = a & m;
            if m != a && m != 0 {
                let c = usize::from(c);
                work.narrow(self, cells, c, m);
            }
        }
    }
}

/// Adds to `keep[k]` the digits cell `k` takes in some filling of the
/// straight `s` (one digit a cell); false, adding nothing, if `s` does not
/// fit.
///
/// One matching, then Régin's rule for all-different: a digit another cell
/// holds in the matching is also possible for cell `k` exactly when an
/// alternating path leads from that cell back to `k`, closing a cycle along
/// which the digits can move round. The paths are closed over cells as
/// bitmasks.
#[inline]
fn possible(allowed: &[u16], s: u16, keep: &mut [u16; 9]) -> bool {
    let Some((taken, open)) = split(allowed, s) else {
        return false;
    };
    let free = s & !taken;
    // A proper set H of open cells whose digits number |H| is what takes
    // digits from the others (and none such, with a matching, leaves every
    // digit to every cell). Such a set has |H| >= the fewest digits of an
    // open cell, and the digits left outside it, held by the other cells
    // only, have n - |H| >= the fewest holders of a digit; so when those two
    // least counts add up past n there is a filling and nothing to take.
    let n = ones(open) as usize;
    let mut fewest = n;
    let mut cells = open;
    while cells != 0 {
        let k = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let m = allowed[k] & free;
        if m == 0 {
            return false;
        }
        fewest = fewest.min(ones(m) as usize);
    }
    // `held[j]`: the digits of at least j open cells, up to j = n + 1 - fewest.
    let t = n + 1 - fewest;
    let mut held = [0u16; 10];
    held[0] = free;
    let mut cells = open;
    while cells != 0 {
        let k = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let m = allowed[k] & free;
        for j in (1..=t).rev() {
            held[j] |= held[j - 1] & m;
        }
    }
    if held[t] == free {
        for (k, (&a, out)) in allowed.iter().zip(keep.iter_mut()).enumerate() {
            *out |= if open & (1 << k) == 0 {
                a & s
            } else {
                a & free
            };
        }
        return true;
    }
    let mut owner = [0u8; 16];
    if !fill(allowed, open, free, &mut owner) {
        return false;
    }
    // Cells moving round a cycle: `reach[k]`, the cells an alternating
    // path from `k` gets to (cell `k` giving up its digit for one of
    // another cell's), itself included.
    let mut reach = [0u16; 16];
    let mut cells = open;
    while cells != 0 {
        let k = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let mut m = allowed[k] & free;
        let mut r = 0u16;
        while m != 0 {
            let bit = m.trailing_zeros() as usize;
            m &= m - 1;
            // Every digit of `free` has an owner: the matching is perfect.
            r |= 1 << (owner[bit].wrapping_sub(1) & 15);
        }
        reach[k] = r;
    }
    let mut via = open;
    while via != 0 {
        let v = via.trailing_zeros() as usize;
        via &= via - 1;
        let mut cells = open;
        while cells != 0 {
            let k = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            if reach[k] & (1 << v) != 0 {
                reach[k] |= reach[v];
            }
        }
    }
    for (k, (&a, out)) in allowed.iter().zip(keep.iter_mut()).enumerate() {
        let m = a & s;
        if open & (1 << k) == 0 {
            *out |= m;
            continue;
        }
        let mut ds = m & free;
        while ds != 0 {
            let bit = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            if reach[usize::from(owner[bit].wrapping_sub(1) & 15)] & (1 << k) != 0 {
                *out |= 1 << bit;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The straight of `len` digits from `low`.
    fn straight(low: usize, len: usize) -> u16 {
        ((1u16 << len) - 1) << (low - 1)
    }

    /// Every order of the straight's digits over the cells, by swaps.
    fn orders(digits: &mut Vec<u16>, at: usize, out: &mut Vec<Vec<u16>>) {
        if at == digits.len() {
            out.push(digits.clone());
        }
        for i in at..digits.len() {
            digits.swap(at, i);
            orders(digits, at + 1, out);
            digits.swap(at, i);
        }
    }

    #[test]
    fn possible_keeps_exactly_the_digits_of_some_filling() {
        // Compartments of 2 to 6 cells, cells drawn by a fixed generator
        // over digits 1..=8, against every filling of every straight.
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for _ in 0..3000 {
            let len = 2 + (next() % 5) as usize;
            let allowed: Vec<u16> = (0..len)
                .map(|_| {
                    let m = (next() & 0xff) as u16;
                    if next() % 3 == 0 {
                        m & m.wrapping_sub(1)
                    } else {
                        m
                    }
                })
                .collect();
            for low in 1..=(10 - len) {
                let s = straight(low, len);
                let mut keep = [0u16; 9];
                let fits = possible(&allowed, s, &mut keep);
                let mut digits: Vec<u16> = (0..len).map(|k| 1 << (low - 1 + k)).collect();
                let mut all = Vec::new();
                orders(&mut digits, 0, &mut all);
                let mut want = [0u16; 9];
                let mut any = false;
                for order in all {
                    if order.iter().zip(&allowed).all(|(&d, &a)| d & a != 0) {
                        any = true;
                        for (w, &d) in want.iter_mut().zip(&order) {
                            *w |= d;
                        }
                    }
                }
                assert_eq!(fits, any, "{allowed:?} {s:b}");
                assert_eq!(keep, want, "{allowed:?} {s:b}");
            }
        }
    }
}
