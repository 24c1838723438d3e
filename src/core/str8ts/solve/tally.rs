//! The tally rule, for the search only (below the root): per digit, the
//! rows holding it number as many as the columns, so when the rows that
//! surely hold it are as many as the columns that may, the other rows may
//! not and those columns must (and the other way round).
//!
//! A line's sure and possible digits are kept per line in `Fits` and
//! recomputed only for lines whose straights changed. In full:
//! docs/performance.md "Module notes".

use super::super::straights::{needed, reach_down, reach_up, reachable};
use super::lanes::{LANE, LANE_MASK, LANE_TOPS, clash, equal, lanes};
use super::layout::{LINE_CELLS, Layout};
use super::work::{Cells, Dead, Fits, Work};

impl Layout {
    /// The tally rule, once the other rules are at their fixpoint: each
    /// cell holding a digit lies in one row and one column, and a line holds
    /// a digit at most once, so for each digit the rows holding it number
    /// as many as the columns holding it. A line surely holds the digit when
    /// it is placed there (black givens too) or a compartment there needs
    /// it; it may when some cell there still has it. When the rows' least
    /// count is the columns' most, the columns that may hold it must, and
    /// the rows that may hold it must not (and the other way round); the
    /// least past the most is a contradiction. A line that must hold a digit
    /// with every place for it in one compartment keeps there only the
    /// digits within reach of it, as every straight through it is.
    ///
    /// The line rules see one line at a time, so without this an early
    /// choice that leaves, say, the two short rows needing an 8 that the
    /// columns can no longer give is found out only at the bottom of the
    /// tree, again under every later choice: near-empty boards ran to the
    /// node limit that way.
    pub(super) fn tally(
        &self,
        cells: &mut Cells,
        fits: &mut Fits,
        work: &mut Work,
    ) -> Result<(), Dead> {
        let mut stale = std::mem::take(&mut work.lines);
        while stale != 0 {
            let l = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            let new = self.choices(cells, &fits.lows, l, fits.black[l])?;
            let old = std::mem::replace(&mut fits.lines[l], new);
            if new != old {
                // The counts move by this line's change alone.
                let side = if l < 9 { 0 } else { 2 };
                fits.counts[side] = fits.counts[side] - lanes(old.0) + lanes(new.0);
                fits.counts[side + 1] = fits.counts[side + 1] - lanes(old.1) + lanes(new.1);
            }
        }
        let [rows_least, rows_most, cols_least, cols_most] = fits.counts;
        if clash(rows_least, cols_most) || clash(cols_least, rows_most) {
            return Err(Dead);
        }
        // A least count meeting the other side's most forces the lines that
        // may hold the digit but not surely, on a side that has such lines.
        let open = !(equal(rows_least, rows_most) & equal(cols_least, cols_most)) & LANE_TOPS;
        let mut forced = (equal(rows_least, cols_most) | equal(rows_most, cols_least)) & open;
        while forced != 0 {
            let d = forced.trailing_zeros() as usize / LANE;
            forced &= forced - 1;
            let bit = 1u16 << d;
            let lane = |t: u64| ((t >> (LANE * d)) & LANE_MASK) as usize;
            let (row_least, row_most) = (lane(rows_least), lane(rows_most));
            let (col_least, col_most) = (lane(cols_least), lane(cols_most));
            for (lines, least, most, other_least, other_most) in [
                (0..9, row_least, row_most, col_least, col_most),
                (9..18, col_least, col_most, row_least, row_most),
            ] {
                let none = least == other_most && least < most;
                let all = most == other_least && least < most;
                if !none && !all {
                    continue;
                }
                for l in lines {
                    let (sure, may) = fits.lines[l];
                    if sure & bit != 0 || may & bit == 0 {
                        continue;
                    }
                    if none {
                        for &c in &LINE_CELLS[l] {
                            let c = usize::from(c);
                            let m = cells[c];
                            if m & bit != 0 {
                                // Placed by an earlier removal in this pass
                                // (`sure` would have held it before).
                                if m == bit {
                                    return Err(Dead);
                                }
                                work.narrow(self, cells, c, m & !bit);
                            }
                        }
                    } else {
                        self.must_hold(cells, l, bit, work)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The digits every choice of straights for line `l`'s compartments
    /// holds (one straight each, from those in `lows`, no digit twice, none
    /// of the line's black digits `black`), and those some choice holds;
    /// black digits left out. No choice at all is a contradiction.
    fn choices(
        &self,
        cells: &Cells,
        lows: &[u16; 90],
        l: usize,
        black: u16,
    ) -> Result<(u16, u16), Dead> {
        let (first, n) = self.line_runs[l];
        let (first, n) = (usize::from(first), usize::from(n).min(5));
        let mut runs = [(0u16, 0u8); 5];
        for ((slot, run), &fit) in runs
            .iter_mut()
            .zip(&self.runs[first..first + n])
            .zip(&lows[first..first + n])
        {
            let len = usize::from(run.len);
            let mut fit = fit;
            if fit == 0 {
                // Not known here yet: every straight the cells reach. The
                // compartment rule sets it, marking the line, when they change.
                let start = usize::from(run.start);
                let run_cells = LINE_CELLS[l][start..start + len].iter();
                fit = reachable(run_cells.map(|&c| cells[usize::from(c)]), len)
                    & !reach_down(black, len);
            }
            // Known straights fit, so they hold no black digit of the line:
            // the root took those from every white cell of it.
            *slot = (fit, run.len);
        }
        let runs = &runs[..n];
        // Each compartment on its own: the digits all its straights hold,
        // and those some straight holds. Exact with one compartment; with
        // more, choosing them together may hold more for sure, and less.
        let (mut all, mut any, mut shared) = (0u16, 0u16, 0u16);
        for &(fit, len) in runs {
            if fit == 0 {
                return Err(Dead);
            }
            all |= needed(fit, usize::from(len));
            let some = reach_up(fit, usize::from(len)) & 0x1ff;
            shared |= any & some;
            any |= some;
        }
        // No digit two compartments might both hold: every choice of
        // straights goes together, and the digits surely held are those
        // each compartment surely holds.
        if shared == 0 {
            return Ok((all, any));
        }
        if let [(fa, la), (fb, lb)] = *runs {
            return pairs(fa, usize::from(la), fb, usize::from(lb)).ok_or(Dead);
        }
        let mut both = Choices {
            all: 0x1ff,
            any: 0,
            floor: all,
            ceiling: any,
            budget: 256,
        };
        both.walk(runs, 0);
        if both.budget == 0 {
            return Ok((all, any));
        }
        if both.any == 0 {
            return Err(Dead);
        }
        Ok((both.all, both.any))
    }

    /// Line `l` must hold the digit `bit`, which none of its cells has yet
    /// placed: if all its places lie in one compartment, that compartment's
    /// cells keep only digits a straight through it can hold.
    fn must_hold(
        &self,
        cells: &mut Cells,
        l: usize,
        bit: u16,
        work: &mut Work,
    ) -> Result<(), Dead> {
        let mut home = None;
        for &c in &LINE_CELLS[l] {
            let c = usize::from(c);
            if cells[c] & bit == 0 {
                continue;
            }
            let k = self.run_of(c, l);
            match home {
                None => home = Some(k),
                Some(h) if h != k => return Ok(()),
                _ => {}
            }
        }
        // No place at all: the caller counted this line as able to hold it.
        let Some(k) = home else { return Err(Dead) };
        let Some(run) = self.runs.get(k) else {
            return Ok(());
        };
        let (start, len) = (usize::from(run.start), usize::from(run.len));
        let window = (reach_up(bit, len) | reach_down(bit, len)) & 0x1ff;
        for &c in &LINE_CELLS[l][start..start + len] {
            let c = usize::from(c);
            let m = cells[c] & window;
            if m == 0 {
                return Err(Dead);
            }
            if m != cells[c] {
                work.narrow(self, cells, c, m);
            }
        }
        Ok(())
    }
}

/// [`Layout::choices`] for two compartments, straights from `fa` of length
/// `la` and from `fb` of `lb`; none when no pair goes together. A straight
/// of one has a partner when the other's lowest ends below it or its
/// highest starts past it, so the digits some pair holds take two lookups;
/// those every pair holds, a pass over the first's straights.
fn pairs(fa: u16, la: usize, fb: u16, lb: usize) -> Option<(u16, u16)> {
    if fa == 0 || fb == 0 {
        return None;
    }
    let low = |m: u16| m.trailing_zeros() as usize;
    let high = |m: u16| 15 - m.leading_zeros() as usize;
    // Lows from `k` up, and lows up to `top - minus` (none below zero).
    let from = |k: usize| ((0x1ffu32 >> k.min(31)) << k.min(31)) as u16;
    let upto = |top: usize, minus: usize| {
        top.checked_sub(minus)
            .map_or(0, |k| ((2u32 << k.min(30)) - 1) as u16)
    };
    let fa = fa & (from(low(fb) + lb) | upto(high(fb), la));
    let fb = fb & (from(low(fa | 0x200) + la) | upto(high(fa | 1), lb));
    if fa == 0 || fb == 0 {
        return None;
    }
    let any = (reach_up(fa, la) | reach_up(fb, lb)) & 0x1ff;
    // The second's straights clear of the first's from `a`: ending below
    // it, or starting past its end (never both held for sure).
    let with = |a: usize| {
        let clear = fb & (upto(a + 1, lb + 1) | from(a + la));
        (((1u16 << la) - 1) << a) | needed(clear, lb)
    };
    // No pair holds less than each compartment's own sure digits, which
    // the two extreme straights of the first often reach already.
    let floor = needed(fa, la) | needed(fb, lb);
    let (first, last) = (low(fa), high(fa));
    let mut all = with(first) & with(last);
    let mut rest = fa & !(1 << first) & !(1 << last);
    while rest != 0 && all != floor {
        let a = low(rest);
        rest &= rest - 1;
        all &= with(a);
    }
    Some((all, any))
}

/// The straights a line's compartments can take together, one each and
/// no digit twice: the digits all such choices hold, and those any holds.
struct Choices {
    all: u16,
    any: u16,
    /// What `all` and `any` cannot pass (the compartments on their own):
    /// once both reach them, the walk stops.
    floor: u16,
    ceiling: u16,
    /// Choices left to look at; at none, the walk stops and its answer is
    /// not used (lines of many short compartments only).
    budget: u32,
}

impl Choices {
    /// Chooses a straight for each compartment of `runs` (fitting lows and
    /// length) in turn, with `used` the digits taken so far.
    fn walk(&mut self, runs: &[(u16, u8)], used: u16) {
        if let [(fa, la), (fb, lb)] = *runs {
            // The last two at once, clear of the digits taken.
            let (la, lb) = (usize::from(la), usize::from(lb));
            let (fa, fb) = (fa & !reach_down(used, la), fb & !reach_down(used, lb));
            self.budget = self.budget.saturating_sub(1);
            if let Some((all, any)) = pairs(fa, la, fb, lb) {
                self.all &= used | all;
                self.any |= used | any;
                if self.all == self.floor && self.any == self.ceiling {
                    // Settled: the answer is the compartments' own, which
                    // the caller also gets by running out of budget.
                    self.budget = 0;
                }
            }
            return;
        }
        let Some((&(lows, len), rest)) = runs.split_first() else {
            return;
        };
        let mut lows = lows;
        while lows != 0 {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
            let s = ((1u16 << len) - 1) << lows.trailing_zeros();
            lows &= lows - 1;
            if s & used == 0 {
                self.walk(rest, used | s);
            }
        }
    }
}
