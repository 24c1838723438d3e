//! What is left to do, and what the search carries per node: `Work`, the
//! worklist one propagation drains (new singles, dirty compartments and
//! their lost digits, compartments and lines to recheck), and `Fits`,
//! copied down each branch (the straights that still fit, the tallies).
//!
//! Invariant: every rule narrows a cell through [`Work::narrow`], which
//! keeps all of these true; a change made any other way would leave a rule
//! unrun.

use crate::core::grid::CELLS;

use super::lanes::lanes;
use super::layout::{LINE_CELLS, Layout};

/// A contradiction; which one is left to the reference order.
pub(super) struct Dead;

/// Candidate bits per cell (bit `d - 1` for digit `d`).
pub(super) type Cells = [u16; CELLS];

/// What the search keeps per node besides the cells.
#[derive(Clone, Copy)]
pub(super) struct Fits {
    /// Per compartment, the straights that fitted when its rule last ran
    /// (bit `low - 1` for the straight from `low`); 0 before it first runs.
    pub(super) lows: [u16; 90],
    /// Per line, the digits every choice of straights for its compartments
    /// holds, and those some choice holds, as the tally rule last found
    /// them: they change only with `lows`, far less often than the rule runs.
    pub(super) lines: [(u16, u16); 18],
    /// Per line, the digits of its black cells, which never change.
    pub(super) black: [u16; 18],
    /// Per digit, how many rows surely hold it and may hold it, then
    /// columns, a lane of `LANE` bits a digit: the sums over `lines` and
    /// `black`, kept as lines change rather than summed at every tally.
    pub(super) counts: [u64; 4],
}

impl Fits {
    pub(super) fn new() -> Fits {
        Fits {
            lows: [0; 90],
            lines: [(0, 0); 18],
            black: [0; 18],
            counts: [0; 4],
        }
    }

    /// Before any tally: the black digits of each line, counted.
    #[inline]
    pub(super) fn blacks(&mut self, layout: &Layout, cells: &Cells) {
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

/// What is left to do: cells newly placed, whose digit must leave their
/// lines, and compartments whose rule must run again.
///
/// A cell is pushed only when it becomes a single, which happens once, so
/// 81 places are enough.
pub(super) struct Work {
    stack: [u8; CELLS],
    pub(super) len: usize,
    pub(super) dirty: u128,
    /// Compartments whose fitting straights changed since the fillings
    /// rule last ran on them.
    pub(super) strong: u128,
    /// Per compartment, the digits its cells lost since its rule last ran.
    pub(super) lost: [u16; 90],
    /// Lines whose compartments' fitting straights changed since the tally
    /// rule last looked at them.
    pub(super) lines: u32,
}

impl Work {
    pub(super) fn new() -> Work {
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
    pub(super) fn push(&mut self, i: usize, member: u128) {
        if let Some(slot) = self.stack.get_mut(self.len) {
            *slot = i as u8;
            self.len += 1;
        }
        self.dirty |= member;
    }

    pub(super) fn pop(&mut self) -> Option<usize> {
        self.len = self.len.checked_sub(1)?;
        Some(usize::from(self.stack[self.len]))
    }

    /// Sets cell `c` to the non-empty `m`, a strict subset of what it held.
    pub(super) fn narrow(&mut self, layout: &Layout, cells: &mut Cells, c: usize, m: u16) {
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
