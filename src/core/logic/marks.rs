//! The pencil marks of a position: each cell's placed digit or its
//! remaining candidates. A placed cell has no candidates, as in Sudoku
//! Explainer, so a house's "potential positions" of a digit are its empty
//! cells that still allow it.

use crate::core::grid::{CELLS, PEERS, UNITS};

use super::house::{House, Houses};

/// One bit a digit: bit `d - 1` for digit `d`.
pub(crate) const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The cells of each house of `UNITS` as a bit set over the 81 cells.
pub(crate) const UNIT_CELLS: [u128; 27] = {
    let mut m = [0u128; 27];
    let mut h = 0;
    while h < 27 {
        let mut i = 0;
        while i < 9 {
            m[h] |= 1 << UNITS[h][i];
            i += 1;
        }
        h += 1;
    }
    m
};

/// The houses (indices into `UNITS`) of each cell: row, column, box.
const CELL_UNITS: [[usize; 3]; CELLS] = {
    let mut u = [[0; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        u[c] = [c / 9, 9 + c % 9, 18 + crate::core::grid::box_of(c)];
        c += 1;
    }
    u
};

/// A candidate grid: placed digits (0 = empty) and candidate masks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    values: [u8; CELLS],
    cands: [u16; CELLS],
    /// Each digit's cells, as candidate or placed (index `d - 1`).
    held: [u128; 9],
    /// Whether the position has no solution (see [`Marks::is_broken`]),
    /// kept up to date by `place` and `eliminate`.
    broken: bool,
}

impl Marks {
    /// The position of `givens` (1..=9 a given, anything else empty), every
    /// empty cell with the digits its peers' givens leave; `None` when two
    /// givens clash.
    pub fn from_givens(givens: &[u8; CELLS]) -> Option<Marks> {
        let mut m = Marks {
            values: [0; CELLS],
            cands: [0x1ff; CELLS],
            held: [(1u128 << CELLS) - 1; 9],
            broken: false,
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
        let others = self.cands[c] & !bit(d);
        let was_candidate = self.cands[c] & bit(d) != 0;
        self.values[c] = d;
        self.cands[c] = 0;
        for &p in &PEERS[c] {
            let p = p as usize;
            if self.cands[p] & bit(d) != 0 {
                self.cands[p] &= !bit(d);
                self.held[d as usize - 1] &= !(1 << p);
                self.broken |= self.cands[p] == 0;
            }
        }
        self.held[d as usize - 1] |= 1 << c;
        for e in 0..9 {
            if others & (1 << e) != 0 {
                self.held[e] &= !(1 << c);
                self.broken |= self.lacks(c, e);
            }
        }
        let held = self.held[d as usize - 1];
        self.broken |= UNIT_CELLS.iter().any(|&u| held & u == 0);
        if !was_candidate {
            // Not a step any technique takes: what it mended or broke is
            // found the long way.
            self.broken = self.find_broken();
        }
    }

    /// Removes candidate `d` from cell `c`.
    pub fn eliminate(&mut self, c: usize, d: u8) {
        if self.cands[c] & bit(d) == 0 {
            return;
        }
        self.cands[c] &= !bit(d);
        self.held[d as usize - 1] &= !(1 << c);
        self.broken |= self.cands[c] == 0 || self.lacks(c, d as usize - 1);
    }

    /// Whether a house of cell `c` has no place left for digit index `e`.
    fn lacks(&self, c: usize, e: usize) -> bool {
        CELL_UNITS[c]
            .iter()
            .any(|&u| self.held[e] & UNIT_CELLS[u] == 0)
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
        debug_assert_eq!(self.broken, self.find_broken());
        self.broken
    }

    /// [`Marks::is_broken`] the long way, from the cells.
    fn find_broken(&self) -> bool {
        // Each cell's candidates, or its placed digit's bit.
        let mut held = [0u16; CELLS];
        for (c, h) in held.iter_mut().enumerate() {
            *h = self.cands[c];
            if self.values[c] != 0 {
                *h |= bit(self.values[c]);
            } else if *h == 0 {
                return true;
            }
        }
        UNITS
            .iter()
            .any(|u| u.iter().fold(0, |s, &c| s | held[c as usize]) != 0x1ff)
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
