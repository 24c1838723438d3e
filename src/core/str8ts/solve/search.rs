//! The driver: the rules run from the worklist to their fixpoint, cheapest
//! first (the root rules alone at the root, the search's own below it), and
//! the depth-first search that counts solutions up to two, branching on a
//! white cell with the fewest candidates and stopping past
//! [`STR8TS_SEARCH_LIMIT`] nodes.
//!
//! Works on candidate bits only; knows nothing of the strings. The order of
//! the rules and when the set tally runs: docs/performance.md "Module
//! notes".

use crate::core::vocabulary::STR8TS_SEARCH_LIMIT;

use super::super::straights::ones;
use super::layout::Layout;
use super::sets::{SETS_AFTER, SETS_FOR};
use super::work::{Cells, Dead, Fits, Work};

/// Every line, as bits.
const ALL_LINES: u32 = (1 << 18) - 1;

impl Layout {
    /// Brings `cells` to the rules' fixpoint from scratch.
    pub(super) fn root(&self, cells: &mut Cells) -> Result<(), Dead> {
        let mut work = Work::new();
        for (i, &m) in cells.iter().enumerate() {
            if m == 0 && !self.black[i] {
                return Err(Dead);
            }
            if m != 0 && m & (m - 1) == 0 {
                work.push(i, 0);
            }
        }
        work.dirty = self.all;
        self.propagate(cells, &mut Fits::new(), work, false)
    }

    /// Counts solutions below a fixpoint, stopping at two; keeps the first
    /// solution found. Returns the nodes visited.
    pub(super) fn count(&self, cells: &Cells, count: &mut u32, found: &mut Option<Cells>) -> u64 {
        let mut nodes = 0;
        // The root is the cheap rules' fixpoint; the fillings rule on every
        // compartment learns which straights fit there and starts the
        // search from a stronger board.
        let mut start = *cells;
        let mut fits = Fits::new();
        if cells.iter().all(|&m| m & m.wrapping_sub(1) == 0) {
            // Solved at the root: nothing to learn.
            self.search(&start, &fits, count, found, &mut nodes);
            return nodes;
        }
        fits.blacks(self, cells);
        let mut work = Work::new();
        work.strong = self.all;
        work.lines = ALL_LINES;
        if self.propagate(&mut start, &mut fits, work, true).is_err() {
            return 1;
        }
        self.search(&start, &fits, count, found, &mut nodes);
        nodes
    }

    /// Depth-first search, branching on the white cell with the fewest
    /// candidates; stops once two solutions are known.
    fn search(
        &self,
        cells: &Cells,
        fits: &Fits,
        count: &mut u32,
        found: &mut Option<Cells>,
        nodes: &mut u64,
    ) {
        *nodes += 1;
        if *nodes > STR8TS_SEARCH_LIMIT {
            return;
        }
        let mut best: Option<(usize, u32)> = None;
        for (i, &m) in cells.iter().enumerate() {
            let rest = m & m.wrapping_sub(1);
            if rest == 0 || self.black[i] {
                continue;
            }
            // Two digits is the fewest: take it without counting (no
            // popcount instruction on the base target).
            if rest & (rest - 1) == 0 {
                best = Some((i, 2));
                break;
            }
            let n = ones(m);
            if best.is_none_or(|(_, b)| n < b) {
                best = Some((i, n));
            }
        }
        let Some((i, _)) = best else {
            // Every rule holds at the fixpoint, so a board with every white
            // cell placed is a solution.
            *count += 1;
            if found.is_none() {
                *found = Some(*cells);
            }
            return;
        };
        let mut digits = cells[i];
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            let mut next = *cells;
            let mut next_fits = *fits;
            let mut work = Work::new();
            work.narrow(self, &mut next, i, bit);
            // The set tally only once the search has taken more nodes
            // than any real puzzle needs: see `sets`.
            let sets = (SETS_AFTER + 1..=SETS_AFTER + SETS_FOR).contains(nodes);
            if self
                .propagate(&mut next, &mut next_fits, work, true)
                .is_ok()
                && (!sets || self.sets(&next, &next_fits).is_ok())
            {
                self.search(&next, &next_fits, count, found, nodes);
                if *count >= 2 || *nodes > STR8TS_SEARCH_LIMIT {
                    return;
                }
            }
        }
    }

    /// Spreads new singles, then reruns a dirty compartment, until nothing
    /// is left to do; with `strong`, then the fillings rule on compartments
    /// whose fitting straights changed since it last ran there, and the
    /// cheap rules again after any removal it makes.
    fn propagate(
        &self,
        cells: &mut Cells,
        fits: &mut Fits,
        mut work: Work,
        strong: bool,
    ) -> Result<(), Dead> {
        loop {
            while let Some(i) = work.pop() {
                self.spread(cells, i, &mut work)?;
            }
            if work.dirty != 0 {
                let k = work.dirty.trailing_zeros() as usize;
                work.dirty &= work.dirty - 1;
                self.compartment(cells, fits, k, &mut work)?;
                continue;
            }
            if !strong {
                return Ok(());
            }
            if work.strong == 0 {
                if work.lines == 0 {
                    // No line's straights changed since the tally last ran.
                    return Ok(());
                }
                self.tally(cells, fits, &mut work)?;
                if work.len == 0 && work.dirty == 0 && work.strong == 0 {
                    return Ok(());
                }
                continue;
            }
            let k = work.strong.trailing_zeros() as usize;
            work.strong &= work.strong - 1;
            self.fillings(cells, fits, k, &mut work);
        }
    }
}
