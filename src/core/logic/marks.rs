//! The pencil marks of a position: each cell's placed digit or its
//! remaining candidates. A placed cell has no candidates, as in Sudoku
//! Explainer, so a house's "potential positions" of a digit are its empty
//! cells that still allow it.

use crate::core::grid::{CELLS, PEERS};

use super::house::{House, Houses};

/// One bit a digit: bit `d - 1` for digit `d`.
pub(crate) const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// A candidate grid: placed digits (0 = empty) and candidate masks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    values: [u8; CELLS],
    cands: [u16; CELLS],
}

impl Marks {
    /// The position of `givens` (1..=9 a given, anything else empty), every
    /// empty cell with the digits its peers' givens leave; `None` when two
    /// givens clash.
    pub fn from_givens(givens: &[u8; CELLS]) -> Option<Marks> {
        let mut m = Marks {
            values: [0; CELLS],
            cands: [0x1ff; CELLS],
        };
        for (c, &g) in givens.iter().enumerate() {
            if (1..=9).contains(&g) {
                if m.cands[c] & bit(g) == 0 {
                    return None;
                }
                m.place(c, g);
            }
        }
        Some(m)
    }

    /// The digit placed in cell `c`, 0 when empty.
    pub fn value(&self, c: usize) -> u8 {
        self.values[c]
    }

    /// The candidates of cell `c` (none once placed).
    pub fn cands(&self, c: usize) -> u16 {
        self.cands[c]
    }

    /// Places `d` in `c` and removes it from the peers' candidates.
    pub fn place(&mut self, c: usize, d: u8) {
        self.values[c] = d;
        self.cands[c] = 0;
        for &p in &PEERS[c] {
            self.cands[p as usize] &= !bit(d);
        }
    }

    /// Removes candidate `d` from cell `c`.
    pub fn eliminate(&mut self, c: usize, d: u8) {
        self.cands[c] &= !bit(d);
    }

    /// The positions (0..9 within the house) of the empty cells that allow `d`.
    pub fn positions(&self, h: House, d: u8) -> u16 {
        let mut p = 0;
        for (i, &c) in h.cells().iter().enumerate() {
            if self.cands[c as usize] & bit(d) != 0 {
                p |= 1 << i;
            }
        }
        p
    }

    /// How many cells of the house are still empty.
    pub fn empty_count(&self, h: House) -> u32 {
        h.cells()
            .iter()
            .filter(|&&c| self.values[c as usize] == 0)
            .count() as u32
    }

    /// How many cells hold `d`.
    pub fn placed_count(&self, d: u8) -> u32 {
        self.values.iter().filter(|&&v| v == d).count() as u32
    }

    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Whether some empty cell has no candidate left, or a house has a
    /// missing digit with no place: the position has no solution.
    pub fn is_broken(&self) -> bool {
        (0..CELLS).any(|c| self.values[c] == 0 && self.cands[c] == 0)
            || House::SE_ORDER.iter().any(|&h| {
                let mut seen = 0u16;
                for &c in h.cells() {
                    let c = c as usize;
                    seen |= self.cands[c];
                    if self.values[c] != 0 {
                        seen |= bit(self.values[c]);
                    }
                }
                seen != 0x1ff
            })
    }

    /// The placed digits, 0 for empty cells.
    pub fn values(&self) -> &[u8; CELLS] {
        &self.values
    }
}

/// Whether two cells see each other (same row, column or box, not equal).
pub(crate) fn sees(a: usize, b: usize) -> bool {
    a != b
        && (a / 9 == b / 9
            || a % 9 == b % 9
            || crate::core::grid::box_of(a) == crate::core::grid::box_of(b))
}

impl Houses for Marks {
    fn houses(&self) -> &'static [House] {
        &House::SE_ORDER
    }

    #[inline]
    fn cands(&self, c: usize) -> u16 {
        self.cands[c]
    }

    fn empty_count(&self, h: House) -> u32 {
        Marks::empty_count(self, h)
    }
}
