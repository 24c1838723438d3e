//! The set tally, for a search that wanders: for every set `D` of digits,
//! the cells holding a digit of `D` number as many counted by rows as by
//! columns, and a line holds between the sums over its compartments of the
//! fewest and the most digits of `D` a fitting straight there holds (plus
//! its black digits in `D`). `D = {d}` is the tally; larger sets see what
//! no digit alone does: an 8-cell run holds exactly one of 1 and 9.
//!
//! Every set costs a pass over 512 bytes per fitting straight, too much for
//! every node of a real puzzle, so the search runs it only from
//! [`SETS_AFTER`] nodes on, for [`SETS_FOR`] nodes: the early choice it
//! refutes lies far above, so it runs on every node in that window, not
//! only when a line's straights changed.

use super::super::straights::{ones, reach_down, reachable};
use super::layout::{LINE_CELLS, Layout};
use super::work::{Cells, Dead, Fits};

/// Search nodes after which the set tally ([`Layout::sets`]) runs too.
pub(super) const SETS_AFTER: u64 = 128;

/// Search nodes for which it then runs. The fuzz boards it settles need
/// under 40; a board it does not settle stops paying for it here, so one
/// that runs to the node limit costs at most some 2,048 x 60k
/// instructions more than it did without the rule (about 40 ms).
pub(super) const SETS_FOR: u64 = 2048;

impl Layout {
    /// The set tally: for every set `D` of digits, the cells holding a
    /// digit of `D` number as many counted by rows as by columns. A line
    /// holds at least (most) the sum over its compartments of the fewest
    /// (most) digits of `D` a straight that fits there holds, plus its
    /// black digits in `D`; a side's least past the other side's most is a
    /// contradiction. With `D` one digit this is the tally's own check; with
    /// more it sees what no digit alone does: an 8-cell run holds exactly
    /// one of 1 and 9, so three such rows cannot all give both digits the
    /// rows the columns need.
    pub(super) fn sets(&self, cells: &Cells, fits: &Fits) -> Result<(), Dead> {
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
}

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
