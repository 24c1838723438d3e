//! The fixed part of one puzzle that the worklist's rules read: the 18
//! lines (rows 0..9, then columns 9..18) as cell lists, each cell's line
//! peers, the compartments as runs along the lines, and the compartments of
//! each white cell. Built once per puzzle from the colours; the search never
//! changes it.
//!
//! Invariants: compartments are numbered line by line, rows first and in
//! order along each line, so a line's compartments are consecutive
//! (`line_runs`); there are at most 90 (nine lines of at most five runs,
//! each way); a white cell lies in exactly two, one per direction (`pair`),
//! a black cell in none.

use crate::core::grid::CELLS;

/// The cell at position `k` of line `l` (rows 0..9, then columns 9..18).
pub(super) const fn line_cell(l: usize, k: usize) -> usize {
    if l < 9 { l * 9 + k } else { k * 9 + (l - 9) }
}

/// The nine cells of each line, in order.
pub(super) const LINE_CELLS: [[u8; 9]; 18] = {
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
pub(super) struct Run {
    pub(super) line: u8,
    pub(super) start: u8,
    pub(super) len: u8,
}

/// The fixed layout the rules read: colours, compartments, and the two
/// compartments of each white cell (as bits of a set over compartments).
pub(super) struct Layout {
    pub(super) black: [bool; CELLS],
    pub(super) runs: [Run; 90],
    pub(super) member: [u128; CELLS],
    /// The two compartments of each white cell, by index.
    pub(super) pair: [[u8; 2]; CELLS],
    /// Per line, its first compartment and how many it has.
    pub(super) line_runs: [(u8, u8); 18],
    pub(super) all: u128,
}

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

    /// The compartment of white cell `c` along line `l`.
    pub(super) fn run_of(&self, c: usize, l: usize) -> usize {
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
}
