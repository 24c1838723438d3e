//! The root rules of docs/formats.md ("Propagation") run from a
//! worklist, and the depth-first search that counts solutions up to two on
//! top of them. Works on candidate bits only; knows nothing of the strings.
//!
//! The rules only ever remove candidates, and each removal stays justified
//! after any other, so their fixpoint does not depend on the order they run
//! in: a worklist reaches the same board as the reference order in
//! `super::Rules`, which rescans every cell each pass. Which contradiction
//! shows first does depend on the order, so a contradiction here is only
//! `Dead`, and the caller reruns the reference order for the message.
//!
//! Most of the time goes to rerunning the compartment rule on compartments
//! whose cells lost a digit. Each compartment keeps, down the search, the
//! straights that fitted when its rule last ran: only those can fit now,
//! and while all of them still do, the cells already hold nothing else and
//! the needed digits already left the line, so only single places of needed
//! digits remain to look for. The worklist also keeps, per compartment, the
//! digits its cells lost since its rule last ran: only the straights holding
//! one of them are checked again, and with none such and no needed digit
//! lost the rerun stops there (board05_extreme 9.65M -> 9.62M instructions,
//! all seven real puzzles 12.32M -> 12.18M). Spreading straights' bits over
//! a compartment's length is a table lookup (9.62M -> 9.21M; 12.18M ->
//! 11.65M), and the search takes the first two-digit cell without counting
//! bits (9.21M -> 9.14M; 11.65M -> 11.54M); bits are counted by a lookup
//! (9.14M -> 9.09M; 11.54M -> 11.44M); the needed digits leave the rest of
//! the line by walking the cells on either side, not testing every place
//! (9.09M -> 8.96M; 11.44M -> 11.28M); the single places of needed digits
//! are found in the compartment's cells as read once (8.96M -> 8.77M;
//! 11.28M -> 11.05M).
//!
//! Below the root the search adds one rule the root must not use (the
//! stored root is the fixpoint of docs/formats.md "Propagation"): each cell keeps only the
//! digits it takes in some filling of a straight that fits its compartment.
//! It runs once the cheap rules are at their fixpoint, on the compartments
//! whose fitting straights changed since (and on every compartment where the
//! search starts), and costs one matching per straight plus Régin's
//! alternating cycles on bitmasks, skipped when a count shows no cell set can
//! be tight. Running it on every changed compartment cut more nodes (486 ->
//! 229 on the hardest real puzzle, against 288) but cost more than it saved.
//! Callgrind on propagate_and_solve: board05_extreme 486 -> 288 nodes,
//! 14.70M -> 9.65M instructions; all seven real puzzles 16.97M -> 12.32M.
//!
//! Below the root too, the tally rule (`Layout::tally`): for each digit the
//! rows holding it number as many as the columns, so when the rows that
//! surely hold it are as many as the columns that may, the other rows may
//! not and the other columns must (a line that must, with every place in
//! one compartment, narrows it to the straights through the digit). A
//! line's sure and possible digits come from the straights its
//! compartments can take together. Without it, near-empty boards thrashed:
//! an early choice that only a count across lines refutes (two short rows
//! both needing an 8 the columns can no longer give) was found out at the
//! bottom of the tree, again under every later choice, until the node
//! limit. Fuzz boards 50,001 nodes (gave up) -> 42-52; 27 of 60 generated
//! sparse boards gave up -> none, largest 534; board05_extreme 288 -> 51
//! nodes, 8.77M -> 2.00M instructions; all seven 11.05M -> 3.88M; but the
//! easy boards 02 and 03 pay for the rule at every node (524k -> 610k,
//! 470k -> 561k). Per-compartment counts alone (no joint choice of
//! straights) left 4 of the 60 giving up. Trimmed since, same nodes: the
//! per-digit counts move with each line that changes rather than being
//! summed over 18 lines per call, and are compared seven bits a lane all
//! at once; two compartments go together in a pass of bit masks instead
//! of a walk, and a walk of more ends on such a pair (610k -> 572k,
//! 561k -> 511k; board05_extreme 2.00M -> 1.95M). The rest is the number
//! of lines rechecked (about four per tally, most of them changed).
//!
//! Once the search has passed `SETS_AFTER` (128) nodes, more than twice
//! what any real puzzle needs, each node also runs the set tally
//! (`Layout::sets`): for every set D of digits, the cells holding a digit
//! of D number as many counted by rows as by columns, and a line holds
//! between the sums over its compartments of the fewest and the most
//! digits of D a fitting straight there holds (plus its black digits in
//! D). D = {d} is the tally above; larger sets see what no digit alone
//! does: an 8-cell run holds exactly one of 1 and 9, so three 8-cell rows
//! and six full ones hold 15 cells of {1, 9}, while eight full columns need
//! 16. Three near-empty fuzz boards ran to the 50,000-node limit without
//! it (0.53-0.93 s each in an import, release); two have no solution, the
//! third two solutions under early choices only such a count refutes. With
//! it they settle in 167, 129 and 129 nodes (1.7, 1.0 and 1.0 ms; the 60
//! generated sparse boards 2,289 -> 2,092 nodes, largest 534 -> 337).
//! All 511 sets are needed: pairs of digits, or the sets of both ends
//! {1..k, 10-k..9} (exact for runs of 9 - k cells or more), settle the
//! two unsolvable boards at the root but leave the third at the limit;
//! the sets that cut it there were {2,3,7,8}, {2,4,6,8} and
//! {1,2,4,5,7,8}. Every set costs a pass over 512 bytes per fitting
//! straight (callgrind: 2.5M instructions over the three boards' forty-odd
//! calls, about 60k a node), too much to pay on every
//! node of a real puzzle (boards 01 and 04 take 114k and 144k in all), so
//! it waits for a search that wanders; it runs on every node past that,
//! not only when a line's straights changed, as the early choice it
//! refutes lies far above, but only for the next `SETS_FOR` (2,048)
//! nodes, so that a board it cannot settle is not made dearer to give up
//! on by more than about 40 ms. Callgrind on propagate_and_solve, all seven
//! real puzzles: same nodes, 3.731M -> 3.697M instructions (board05 1.946M
//! -> 1.924M; boards 02 and 03 570k -> 567k, 509k -> 507k).
//!
//! Also measured for the search and dropped: compartments' straights
//! disjoint along a line (cut nothing on the hardest puzzle); branching on a
//! compartment's straights (ran past the node limit on boards with few
//! givens); naked pairs along a line (486 -> 481 nodes there); breaking ties
//! of the fewest-candidates choice by open cells in the cell's compartments
//! or lines, or by fitting straights (no fewer nodes there, and a variant
//! with few givens gave up); keeping each one-straight compartment's
//! matching to skip re-matching (the larger state to copy cost more than it
//! saved); the greedy matching taking each cell's highest digit first (more
//! augmenting paths), or its narrow cells first (counting cost more), or
//! giving cells one digit left before matching (9.62M -> 9.97M); a
//! shortcut for two open cells (no change); matching placed cells once per
//! compartment rather than per straight (9.62M -> 9.95M); the compartment
//! rule placing needed digits to its own fixpoint instead of rerunning
//! (9.62M -> 9.66M).

use crate::core::grid::CELLS;
use crate::core::mask::spread_lanes;
use crate::core::puzzle::STR8TS_SEARCH_LIMIT;

use super::LINE_PEERS;

/// The cell at position `k` of line `l` (rows 0..9, then columns 9..18).
const fn line_cell(l: usize, k: usize) -> usize {
    if l < 9 { l * 9 + k } else { k * 9 + (l - 9) }
}

/// The nine cells of each line, in order.
const LINE_CELLS: [[u8; 9]; 18] = {
    let mut t = [[0u8; 9]; 18];
    let mut l = 0;
    while l < 18 {
        let mut k = 0;
        while k < 9 {
            t[l][k] = line_cell(l, k) as u8;
            k += 1;
        }
        l += 1;
    }
    t
};

/// One compartment: its line, and its first position and length along it.
#[derive(Clone, Copy, Default)]
struct Run {
    line: u8,
    start: u8,
    len: u8,
}

/// The fixed layout the rules read: colours, compartments, and the two
/// compartments of each white cell (as bits of a set over compartments).
pub(super) struct Layout {
    black: [bool; CELLS],
    runs: [Run; 90],
    member: [u128; CELLS],
    /// The two compartments of each white cell, by index.
    pair: [[u8; 2]; CELLS],
    /// Per line, its first compartment and how many it has.
    line_runs: [(u8, u8); 18],
    all: u128,
}

/// A contradiction; which one is left to the reference order.
pub(super) struct Dead;

/// Candidate bits per cell (bit `d - 1` for digit `d`).
pub(super) type Cells = [u16; CELLS];

/// What the search keeps per node besides the cells.
#[derive(Clone, Copy)]
struct Fits {
    /// Per compartment, the straights that fitted when its rule last ran
    /// (bit `low - 1` for the straight from `low`); 0 before it first runs.
    lows: [u16; 90],
    /// Per line, the digits every choice of straights for its compartments
    /// holds, and those some choice holds, as the tally rule last found
    /// them: they change only with `lows`, far less often than the rule runs.
    lines: [(u16, u16); 18],
    /// Per line, the digits of its black cells, which never change.
    black: [u16; 18],
    /// Per digit, how many rows surely hold it and may hold it, then
    /// columns, a lane of `LANE` bits a digit: the sums over `lines` and
    /// `black`, kept as lines change rather than summed at every tally.
    counts: [u64; 4],
}

impl Fits {
    fn new() -> Fits {
        Fits {
            lows: [0; 90],
            lines: [(0, 0); 18],
            black: [0; 18],
            counts: [0; 4],
        }
    }

    /// Before any tally: the black digits of each line, counted.
    fn blacks(&mut self, layout: &Layout, cells: &Cells) {
        for (l, (black, row)) in self.black.iter_mut().zip(&LINE_CELLS).enumerate() {
            for &c in row {
                let c = usize::from(c);
                if layout.black[c] {
                    *black |= cells[c];
                }
            }
            let side = if l < 9 { 0 } else { 2 };
            self.counts[side] += lanes(*black);
            self.counts[side + 1] += lanes(*black);
        }
    }
}

/// Every line, as bits.
const ALL_LINES: u32 = (1 << 18) - 1;

impl Layout {
    pub(super) fn new(black: &[bool; CELLS]) -> Layout {
        let mut runs = [Run::default(); 90];
        let mut member = [0u128; CELLS];
        let mut n = 0;
        for l in 0..18 {
            let mut start = None;
            for k in 0..=9 {
                let white = k < 9 && !black[line_cell(l, k)];
                match (white, start) {
                    (true, None) => start = Some(k),
                    (false, Some(s)) => {
                        if let Some(run) = runs.get_mut(n) {
                            *run = Run {
                                line: l as u8,
                                start: s as u8,
                                len: (k - s) as u8,
                            };
                            for p in s..k {
                                member[line_cell(l, p)] |= 1 << n;
                            }
                            n += 1;
                        }
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        let mut pair = [[u8::MAX; 2]; CELLS];
        for (p, &m) in pair.iter_mut().zip(&member) {
            let (a, b) = (m.trailing_zeros(), 127 - m.leading_zeros().min(127));
            if m != 0 {
                *p = [a as u8, b as u8];
            }
        }
        let mut line_runs = [(0u8, 0u8); 18];
        for (k, run) in runs.iter().enumerate().take(n) {
            if let Some(lr) = line_runs.get_mut(usize::from(run.line)) {
                if lr.1 == 0 {
                    lr.0 = k as u8;
                }
                lr.1 += 1;
            }
        }
        Layout {
            black: *black,
            runs,
            member,
            pair,
            line_runs,
            all: if n == 128 { u128::MAX } else { (1 << n) - 1 },
        }
    }

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
            // than any real puzzle needs: see the module's doc.
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
    fn tally(&self, cells: &mut Cells, fits: &mut Fits, work: &mut Work) -> Result<(), Dead> {
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

    /// The set tally: for every set `D` of digits, the cells holding a
    /// digit of `D` number as many counted by rows as by columns. A line
    /// holds at least (most) the sum over its compartments of the fewest
    /// (most) digits of `D` a straight that fits there holds, plus its
    /// black digits in `D`; a side's least past the other side's most is a
    /// contradiction. With `D` one digit this is the tally's own check; with
    /// more it sees what no digit alone does: an 8-cell run holds exactly
    /// one of 1 and 9, so three such rows cannot all give both digits the
    /// rows the columns need.
    fn sets(&self, cells: &Cells, fits: &Fits) -> Result<(), Dead> {
        // Per side, the least and the most, a byte for each set `D`.
        let mut least = [[0u8; 512]; 2];
        let mut most = [[0u8; 512]; 2];
        let mut low = [0u8; 512];
        let mut high = [0u8; 512];
        for (l, (line, &black)) in LINE_CELLS.iter().zip(&fits.black).enumerate() {
            let side = usize::from(l >= 9);
            if black != 0 {
                let pop = black_counts(black);
                add(&mut least[side], &pop);
                add(&mut most[side], &pop);
            }
            let (first, n) = self.line_runs[l];
            let (first, n) = (usize::from(first), usize::from(n));
            let (Some(runs), Some(lows)) = (
                self.runs.get(first..first + n),
                fits.lows.get(first..first + n),
            ) else {
                continue;
            };
            for (run, &fit) in runs.iter().zip(lows) {
                let len = usize::from(run.len);
                let mut fit = fit;
                if fit == 0 {
                    // As in `choices`: every straight the cells reach.
                    let start = usize::from(run.start);
                    let run_cells = line[start..start + len].iter();
                    fit = reachable(run_cells.map(|&c| cells[usize::from(c)]), len)
                        & !reach_down(black, len);
                }
                let Some(first) = straight_counts(len, fit.trailing_zeros() as usize) else {
                    return Err(Dead);
                };
                low.copy_from_slice(first);
                high.copy_from_slice(first);
                let mut rest = fit & fit.wrapping_sub(1);
                while rest != 0 {
                    let at = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if let Some(counts) = straight_counts(len, at) {
                        for ((lo, hi), &c) in low.iter_mut().zip(high.iter_mut()).zip(counts) {
                            *lo = (*lo).min(c);
                            *hi = (*hi).max(c);
                        }
                    }
                }
                add(&mut least[side], &low);
                add(&mut most[side], &high);
            }
        }
        let [rows_least, cols_least] = &least;
        let [rows_most, cols_most] = &most;
        let mut past = false;
        for (((&rl, &rm), &cl), &cm) in rows_least
            .iter()
            .zip(rows_most)
            .zip(cols_least)
            .zip(cols_most)
        {
            past |= rl > cm || cl > rm;
        }
        if past { Err(Dead) } else { Ok(()) }
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

    /// The compartment of white cell `c` along line `l`.
    fn run_of(&self, c: usize, l: usize) -> usize {
        let [a, b] = self.pair[c];
        if self
            .runs
            .get(usize::from(a))
            .is_some_and(|r| usize::from(r.line) == l)
        {
            usize::from(a)
        } else {
            usize::from(b)
        }
    }

    /// The fillings rule on compartment `k`, at the cheap rules' fixpoint:
    /// each cell keeps only the digits it takes in some filling of a
    /// straight that fits. Never empties a cell: at the fixpoint every
    /// straight in `fits[k]` fits, and gives each cell a digit.
    fn fillings(&self, cells: &mut Cells, fits: &mut Fits, k: usize, work: &mut Work) {
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

    /// Removes the digit placed in cell `i` from its row and column.
    fn spread(&self, cells: &mut Cells, i: usize, work: &mut Work) -> Result<(), Dead> {
        let d = cells[i];
        for &p in &LINE_PEERS[i] {
            let p = usize::from(p);
            let m = cells[p];
            if m & d == 0 {
                continue;
            }
            if self.black[p] || m & (m - 1) == 0 {
                return Err(Dead);
            }
            work.narrow(self, cells, p, m & !d);
        }
        Ok(())
    }

    /// The compartment rule on compartment `k`: only digits of straights
    /// that fit survive; a digit every fitting straight needs goes to its
    /// only place, if it has one, and leaves the rest of the line.
    ///
    /// `fits[k]` holds the straights that fitted when the rule last ran
    /// here (none: not run yet). Cells only lose digits, so only those can
    /// fit now; and while they all still do, the cells already hold only
    /// their digits and the needed digits already left the line, so only
    /// the single places of needed digits are left to look for.
    fn compartment(
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

/// The straights of `allowed.len()` digits the cells can hold, written to
/// `out`; returns how many.
pub(super) fn fitting(allowed: &[u16], out: &mut [u16; 9]) -> usize {
    let len = allowed.len();
    let mut lows = fitting_lows(allowed, 0);
    let mut n = 0;
    while lows != 0 {
        out[n] = ((1u16 << len) - 1) << lows.trailing_zeros();
        lows &= lows - 1;
        n += 1;
    }
    n
}

/// Every straight of `len` digits that each of `cells` (candidate masks)
/// can reach, bit `low - 1` for the straight from `low`: what any test of
/// which straights fit starts from.
fn reachable(cells: impl IntoIterator<Item = u16>, len: usize) -> u16 {
    (cells.into_iter()).fold((1u16 << (10 - len)) - 1, |lows, a| {
        lows & reach_down(a, len)
    })
}

/// The straights among `within` (bit `low - 1` for the straight from `low`;
/// none: every straight of `allowed.len()` digits) that `allowed` can hold,
/// one digit a cell, as bits of the same kind.
fn fitting_lows(allowed: &[u16], within: u16) -> u16 {
    let len = allowed.len();
    let mut lows = within;
    if lows == 0 {
        lows = reachable(allowed.iter().copied(), len);
    }
    let mut out = 0;
    while lows != 0 {
        let low = lows.trailing_zeros() as usize;
        let bit = lows & lows.wrapping_neg();
        lows &= lows - 1;
        if holds(allowed, ((1u16 << len) - 1) << low) {
            out |= bit;
        }
    }
    out
}

/// The digits of the straight `s` that cells holding only one of them
/// take, and the cells (bits of positions) holding more; `None` when `s`
/// cannot fit: a cell holds none of it, two cells want one digit, or some
/// digit of it no cell holds.
#[inline(always)]
fn split(allowed: &[u16], s: u16) -> Option<(u16, u16)> {
    // A cell with one digit of `s` takes it; most cells are like that deep
    // in the search, and two of them wanting one digit settles it early.
    let (mut taken, mut cover, mut open) = (0u16, 0u16, 0u16);
    for (k, &a) in allowed.iter().enumerate() {
        let m = a & s;
        if m == 0 {
            return None;
        }
        cover |= m;
        if m & (m - 1) == 0 {
            if taken & m != 0 {
                return None;
            }
            taken |= m;
        } else {
            open |= 1 << k;
        }
    }
    (cover == s).then_some((taken, open))
}

/// Whether the cells can take the digits of the straight `s`, one each.
fn holds(allowed: &[u16], s: u16) -> bool {
    let Some((taken, open)) = split(allowed, s) else {
        return false;
    };
    // No open cell, or one: it gets the one digit the others left, which it
    // holds.
    if open & open.wrapping_sub(1) == 0 {
        return true;
    }
    let mut owner = [0u8; 16];
    fill(allowed, open, s & !taken, &mut owner)
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

/// The digits every straight of `lows` holds: from the highest low to the
/// lowest straight's top; none when they do not overlap.
fn needed(lows: u16, len: usize) -> u16 {
    if lows == 0 {
        return 0;
    }
    let (lo, hi) = (
        lows.trailing_zeros() as usize,
        15 - lows.leading_zeros() as usize,
    );
    if hi < lo + len {
        ((1u16 << (lo + len - hi)) - 1) << hi
    } else {
        0
    }
}

/// Search nodes after which the set tally ([`Layout::sets`]) runs too.
const SETS_AFTER: u64 = 128;

/// Search nodes for which it then runs. The fuzz boards it settles need
/// under 40; a board it does not settle stops paying for it here, so one
/// that runs to the node limit costs at most some 2,048 x 60k
/// instructions more than it did without the rule (about 40 ms).
const SETS_FOR: u64 = 2048;

/// Adds `b` to `a`, byte by byte (no byte passes 81: nine lines of nine).
fn add(a: &mut [u8; 512], b: &[u8; 512]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x = x.wrapping_add(y);
    }
}

/// For each set `D` of digits (bit `d - 1` for digit `d`), how many of
/// `black`'s digits it holds.
fn black_counts(black: u16) -> [u8; 512] {
    let mut t = [0u8; 512];
    for (d, c) in t.iter_mut().enumerate() {
        *c = ones(black & d as u16) as u8;
    }
    t
}

/// For each set `D` of digits, how many digits of the straight of `len`
/// from bit `at` it holds; none for no such straight.
fn straight_counts(len: usize, at: usize) -> Option<&'static [u8; 512]> {
    let first = STRAIGHT_FIRST.get(len)?;
    let k = usize::from(*first) + at;
    if len == 0 || at + len > 9 {
        return None;
    }
    STRAIGHT_COUNTS.get(k)
}

/// The index in [`STRAIGHT_COUNTS`] of each length's lowest straight.
const STRAIGHT_FIRST: [u8; 10] = {
    let mut t = [0u8; 10];
    let mut len = 1;
    let mut k = 0;
    while len < 10 {
        t[len] = k;
        k += (10 - len) as u8;
        len += 1;
    }
    t
};

static STRAIGHT_COUNTS: [[u8; 512]; 45] = {
    let mut t = [[0u8; 512]; 45];
    let mut len = 1;
    let mut k = 0;
    while len < 10 {
        let mut at = 0;
        while at + len <= 9 {
            let s = ((1u16 << len) - 1) << at;
            let mut d = 0;
            while d < 512 {
                t[k][d] = (s & d as u16).count_ones() as u8;
                d += 1;
            }
            k += 1;
            at += 1;
        }
        len += 1;
    }
    t
};

/// Bits of a lane in [`lanes`]: counts up to nine fit with a spare top
/// bit, so lanes compare without borrowing from each other.
const LANE: usize = 7;
const LANE_MASK: u64 = (1 << LANE) - 1;
/// The top bit of each of the nine lanes.
const LANE_TOPS: u64 = spread_lanes(0x1ff, LANE) << (LANE - 1);

/// The nine bits of `m` as nine lanes of `LANE` bits, so that adding up to
/// eighteen of these counts each digit in its own lane.
fn lanes(m: u16) -> u64 {
    LANES
        .get(usize::from(m))
        .copied()
        .unwrap_or_else(|| spread_lanes(m, LANE))
}

static LANES: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = spread_lanes(m as u16, LANE);
        m += 1;
    }
    t
};

/// Whether some lane of `least` passes the same lane of `most` (lanes hold
/// at most nine, so each lane of `most + top - least` stays positive).
fn clash(least: u64, most: u64) -> bool {
    ((most | LANE_TOPS) - least) & LANE_TOPS != LANE_TOPS
}

/// The top bits of the lanes where `a` and `b` agree.
fn equal(a: u64, b: u64) -> u64 {
    // A lane of `a ^ b` is below sixteen: adding a lane's mask less its top
    // bit reaches the top bit exactly when the lane is not zero.
    !(((a ^ b) + (LANE_MASK >> 1) * (LANE_TOPS >> (LANE - 1))) & LANE_TOPS) & LANE_TOPS
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

/// How many bits `m` has: a lookup for nine bits, as the base target has
/// no popcount instruction.
fn ones(m: u16) -> u32 {
    ONES.get(usize::from(m))
        .map_or_else(|| m.count_ones(), |&n| u32::from(n))
}

static ONES: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = (m as u16).count_ones() as u8;
        m += 1;
    }
    t
};

/// The bits of `a` spread up over `len` places: `a | a << 1 | ... | a << (len - 1)`.
fn reach_up(a: u16, len: usize) -> u16 {
    reach_table(a, len, true)
}

/// The bits of `a` spread down over `len` places: `a | a >> 1 | ... | a >> (len - 1)`.
fn reach_down(a: u16, len: usize) -> u16 {
    reach_table(a, len, false)
}

/// [`reach`] from [`REACH`], computed for what the table does not hold.
#[inline]
fn reach_table(a: u16, len: usize, up: bool) -> u16 {
    REACH[usize::from(up)]
        .get(len)
        .and_then(|t| t.get(usize::from(a)))
        .copied()
        .unwrap_or_else(|| reach(a, len, up))
}

/// `reach_down` and `reach_up` for every nine-bit `a` and length up to 9:
/// one load instead of a loop whose length the compiler does not know,
/// run a few times at each compartment rerun (board05_extreme 9.62M ->
/// 9.21M instructions).
static REACH: [[[u16; 512]; 10]; 2] = {
    let mut t = [[[0u16; 512]; 10]; 2];
    let mut len = 0;
    while len < 10 {
        let mut a = 0;
        while a < 512 {
            t[0][len][a] = reach(a as u16, len, false);
            t[1][len][a] = reach(a as u16, len, true);
            a += 1;
        }
        len += 1;
    }
    t
};

/// The bits of `a` spread over `len` places, up or down.
const fn reach(a: u16, len: usize, up: bool) -> u16 {
    let mut r = a;
    let mut k = 1;
    while k < len {
        r |= if up { a << k } else { a >> k };
        k += 1;
    }
    r
}

/// Gives each cell of `open` (positions) its own digit of `free`, recording
/// in `owner[bit]` 1 + the cell holding each digit; false when impossible.
/// Greedy first, which settles most cells; Kuhn's augmenting paths for the
/// cells the greedy pass left without a digit.
fn fill(allowed: &[u16], open: u16, free: u16, owner: &mut [u8; 16]) -> bool {
    let mut used = 0u16;
    let mut pending = 0u16;
    let mut cells = open;
    while cells != 0 {
        let k = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let m = allowed.get(k).map_or(0, |a| a & free & !used);
        if m == 0 {
            pending |= 1 << k;
        } else {
            let bit = m.trailing_zeros() as usize;
            used |= 1 << bit;
            owner[bit] = k as u8 + 1;
        }
    }
    while pending != 0 {
        let k = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let mut visited = 0;
        if !augment(k, allowed, free, &mut visited, owner) {
            return false;
        }
    }
    true
}

fn augment(k: usize, allowed: &[u16], s: u16, visited: &mut u16, owner: &mut [u8; 16]) -> bool {
    let mut free = allowed[k] & s & !*visited;
    while free != 0 {
        let bit = free.trailing_zeros() as usize;
        free &= free - 1;
        *visited |= 1 << bit;
        let holder = usize::from(owner[bit]);
        if holder == 0 || augment(holder - 1, allowed, s, visited, owner) {
            owner[bit] = k as u8 + 1;
            return true;
        }
    }
    false
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

/// What is left to do: cells newly placed, whose digit must leave their
/// lines, and compartments whose rule must run again.
///
/// A cell is pushed only when it becomes a single, which happens once, so
/// 81 places are enough.
struct Work {
    stack: [u8; CELLS],
    len: usize,
    dirty: u128,
    /// Compartments whose fitting straights changed since the fillings
    /// rule last ran on them.
    strong: u128,
    /// Per compartment, the digits its cells lost since its rule last ran.
    lost: [u16; 90],
    /// Lines whose compartments' fitting straights changed since the tally
    /// rule last looked at them.
    lines: u32,
}

impl Work {
    fn new() -> Work {
        Work {
            stack: [0; CELLS],
            len: 0,
            dirty: 0,
            strong: 0,
            lost: [0; 90],
            lines: 0,
        }
    }

    /// Cell `i` is newly placed; `member` its compartments.
    fn push(&mut self, i: usize, member: u128) {
        if let Some(slot) = self.stack.get_mut(self.len) {
            *slot = i as u8;
            self.len += 1;
        }
        self.dirty |= member;
    }

    fn pop(&mut self) -> Option<usize> {
        self.len = self.len.checked_sub(1)?;
        Some(usize::from(self.stack[self.len]))
    }

    /// Sets cell `c` to the non-empty `m`, a strict subset of what it held.
    fn narrow(&mut self, layout: &Layout, cells: &mut Cells, c: usize, m: u16) {
        let gone = cells[c] & !m;
        for &k in &layout.pair[c] {
            if let Some(lost) = self.lost.get_mut(usize::from(k)) {
                *lost |= gone;
            }
        }
        let member = layout.member[c];
        cells[c] = m;
        if m & (m - 1) == 0 {
            self.push(c, member);
        } else {
            self.dirty |= member;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(digits: &[u8]) -> u16 {
        digits.iter().map(|&d| 1u16 << (d - 1)).sum()
    }

    /// The straight of `len` digits from `low`.
    fn straight(low: usize, len: usize) -> u16 {
        ((1u16 << len) - 1) << (low - 1)
    }

    #[test]
    fn a_straight_fits_only_with_a_matching_not_just_a_cover() {
        const ALL: &[u8] = &[1, 2, 3, 4, 5, 6, 7, 8, 9];
        // {1},{1},{2,3} covers 123 but two cells want the 1.
        let cases: [(&[&[u8]], &[u16]); 6] = [
            (&[&[1, 2], &[1, 2], &[1, 2, 3]], &[straight(1, 3)]),
            (&[&[1], &[1], &[2, 3]], &[]),
            (&[&[4, 5], &[5, 6]], &[straight(4, 2), straight(5, 2)]),
            (&[&[4], &[6]], &[]),
            (
                &[&[7], &[1, 2, 3, 4, 5, 6, 7, 8, 9]],
                &[straight(6, 2), straight(7, 2)],
            ),
            (&[ALL; 9], &[straight(1, 9)]),
        ];
        for (cells, want) in cases {
            let allowed: Vec<u16> = cells.iter().map(|c| bits(c)).collect();
            let mut out = [0u16; 9];
            let n = fitting(&allowed, &mut out);
            assert_eq!(&out[..n], want, "{cells:?}");
        }
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

    #[test]
    fn fitting_agrees_with_trying_every_assignment() {
        // Every two- and three-cell compartment over digits 1..=5 with
        // cells drawn from a small family of sets.
        let sets: Vec<u16> = (1u16..32).filter(|m| m.count_ones() <= 2).collect();
        for &a in &sets {
            for &b in &sets {
                for &c in &sets {
                    let allowed = [a, b, c];
                    let mut out = [0u16; 9];
                    let n = fitting(&allowed, &mut out);
                    let brute: Vec<u16> = (1..=7)
                        .map(|low| straight(low, 3))
                        .filter(|&s| {
                            (0..3).any(|x| {
                                // x != y first: 3 - x - y underflows for x = y = 2.
                                (0..3).filter(|&y| y != x).any(|y| {
                                    let z = 3 - x - y;
                                    z != x
                                        && z != y
                                        && z < 3
                                        && [x, y, z].iter().zip(&allowed).all(|(&k, &m)| {
                                            m & (1 << (s.trailing_zeros() as usize + k)) != 0
                                        })
                                })
                            })
                        })
                        .collect();
                    assert_eq!(&out[..n], &brute[..], "{allowed:?}");
                }
            }
        }
    }
}
