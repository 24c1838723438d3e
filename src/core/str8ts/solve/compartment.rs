//! The compartment rule, a root rule, run from the worklist: only digits of
//! straights that fit survive; a digit every fitting straight needs goes to
//! its only place, if it has one, and leaves the rest of the compartment's
//! row or column.
//!
//! Invariant: `Fits::lows[k]` holds the straights that fitted when the rule
//! last ran on `k`, and `Work::lost[k]` the digits lost since: a rerun
//! checks only what those can change. In full: docs/performance.md "Module
//! notes".

use super::super::straights::{fitting_lows, needed, reach_down, reach_up};
use super::layout::{LINE_CELLS, Layout};
use super::work::{Cells, Dead, Fits, Work};

impl Layout {
    /// The compartment rule on compartment `k`: only digits of straights
    /// that fit survive; a digit every fitting straight needs goes to its
    /// only place, if it has one, and leaves the rest of the line.
    ///
    /// `fits[k]` holds the straights that fitted when the rule last ran
    /// here (none: not run yet). Cells only lose digits, so only those can
    /// fit now; and while they all still do, the cells already hold only
    /// their digits and the needed digits already left the line, so only
    /// the single places of needed digits are left to look for.
    pub(super) fn compartment(
        &self,
        cells: &mut Cells,
        fits: &mut Fits,
        k: usize,
        work: &mut Work,
    ) -> Result<(), Dead> {
        let (Some(run), Some(before)) = (self.runs.get(k), fits.lows.get_mut(k)) else {
            return Ok(());
        };
        let (l, start, len) = (
            usize::from(run.line),
            usize::from(run.start),
            usize::from(run.len),
        );
        let line = &LINE_CELLS[l];
        let lost = work.lost.get_mut(k).map_or(0, std::mem::take);
        // Straights without a lost digit still fit: the cells lost none of
        // their digits. With none of them to recheck, and no needed digit
        // lost (so each still has the holders it had), nothing is new.
        let suspect = if *before == 0 {
            0
        } else {
            *before & reach_down(lost, len)
        };
        if *before != 0 && suspect == 0 && lost & needed(*before, len) == 0 {
            return Ok(());
        }
        let mut allowed = [0u16; 9];
        for (a, &c) in allowed.iter_mut().zip(&line[start..start + len]) {
            *a = cells[usize::from(c)];
        }
        let lows = if *before == 0 {
            fitting_lows(&allowed[..len], 0)
        } else if suspect == 0 {
            *before
        } else {
            *before & !suspect | fitting_lows(&allowed[..len], suspect)
        };
        if lows == 0 {
            return Err(Dead);
        }
        let changed = lows != *before;
        *before = lows;
        if changed {
            work.strong |= 1 << k;
            work.lines |= 1 << run.line;
        }
        // The straights' digits: `lows` spread up over `len` places.
        let union = reach_up(lows, len);
        let needed = needed(lows, len);
        if changed {
            for (&a, &c) in allowed.iter().zip(&line[start..start + len]) {
                if a & !union != 0 {
                    // A fitting straight meets every cell: nothing empties.
                    let c = usize::from(c);
                    work.narrow(self, cells, c, a & union);
                }
            }
        }
        if needed == 0 {
            return Ok(());
        }
        // Digits held by one cell of the compartment, and by two or more.
        // `allowed` serves: narrowing to `union` above took no needed digit.
        let (mut once, mut twice) = (0u16, 0u16);
        for &m in &allowed[..len] {
            twice |= once & m;
            once |= m;
        }
        if needed & !once != 0 {
            return Err(Dead);
        }
        let mut lonely = needed & !twice;
        for (&a, &c) in allowed.iter().zip(&line[start..start + len]) {
            if lonely == 0 {
                break;
            }
            let c = usize::from(c);
            let m = a & lonely;
            if m != 0 {
                if m & (m - 1) != 0 {
                    // One cell the only place for two needed digits.
                    return Err(Dead);
                }
                lonely &= !m;
                if cells[c] != m {
                    work.narrow(self, cells, c, m);
                }
            }
        }
        if !changed {
            return Ok(());
        }
        // Taking the needed digits out of the rest of the line one by one
        // fails exactly when a cell would be left with nothing.
        let (left, right) = (&line[..start], &line[start + len..]);
        for &c in left.iter().chain(right) {
            let c = usize::from(c);
            let m = cells[c];
            if m & needed != 0 {
                let rest = m & !needed;
                if rest == 0 {
                    return Err(Dead);
                }
                work.narrow(self, cells, c, rest);
            }
        }
        Ok(())
    }
}
