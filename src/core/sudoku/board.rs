//! The classic Sudoku board as the formats describe it: 81 candidate masks
//! plus a given flag per cell. A one-bit mask is a placed digit (given or
//! solved); an empty mask means "no candidate information" (packed `00`,
//! legacy `0`/`.`), which solving reads as all nine digits.
//!
//! Owns the representation only; parsing, checking and solving live in the
//! sibling modules.

use crate::core::grid::{CELLS, Cell};
use crate::core::mask::{Digit, Mask};

/// A classic Sudoku position: candidates and givens.
///
/// Invariant: a given cell holds exactly one digit. The mask `EMPTY` is kept
/// as written (not widened to all nine) so a packed `00` re-encodes as `00`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sudoku {
    cells: [Mask; CELLS],
    given: [bool; CELLS],
}

impl Default for Sudoku {
    fn default() -> Sudoku {
        Sudoku {
            cells: [Mask::EMPTY; CELLS],
            given: [false; CELLS],
        }
    }
}

impl Sudoku {
    /// A board with no information: every cell empty.
    pub fn new() -> Sudoku {
        Sudoku::default()
    }

    /// Places a given digit.
    pub fn set_given(&mut self, cell: Cell, d: Digit) {
        self.cells[cell.index()] = d.mask();
        self.given[cell.index()] = true;
    }

    /// Sets a cell's candidates (one bit = solved, not given); clears the given flag.
    pub fn set_mask(&mut self, cell: Cell, m: Mask) {
        self.cells[cell.index()] = m;
        self.given[cell.index()] = false;
    }

    /// The mask as stored: `EMPTY` for "no information".
    pub fn mask(&self, cell: Cell) -> Mask {
        self.cells[cell.index()]
    }

    /// The candidates solving should assume: "no information" reads as all nine.
    pub fn candidates(&self, cell: Cell) -> Mask {
        match self.cells[cell.index()] {
            Mask::EMPTY => Mask::ALL,
            m => m,
        }
    }

    pub fn is_given(&self, cell: Cell) -> bool {
        self.given[cell.index()]
    }

    /// The placed digit (given or solved) of a cell, if any.
    pub fn placed(&self, cell: Cell) -> Option<Digit> {
        self.cells[cell.index()].single()
    }

    /// Every cell's stored mask.
    pub fn masks(&self) -> &[Mask; CELLS] {
        &self.cells
    }

    /// Every cell's candidates, "no information" widened to all nine.
    pub fn all_candidates(&self) -> [Mask; CELLS] {
        let mut out = self.cells;
        for m in &mut out {
            if m.is_empty() {
                *m = Mask::ALL;
            }
        }
        out
    }

    /// Which cells are givens.
    pub fn given_flags(&self) -> &[bool; CELLS] {
        &self.given
    }

    /// The number of givens: the archive's clue count.
    pub fn clue_count(&self) -> u32 {
        self.given.iter().filter(|&&g| g).count() as u32
    }

    /// The givens as digit values, 0 elsewhere: what the solver takes.
    pub fn givens(&self) -> [u8; CELLS] {
        let mut out = [0u8; CELLS];
        for c in Cell::all() {
            if let (true, Some(d)) = (self.is_given(c), self.placed(c)) {
                out[c.index()] = d.get();
            }
        }
        out
    }

    /// The givens alone, every other cell without information: the
    /// puzzle as its legacy string says it.
    pub fn puzzle(&self) -> Sudoku {
        let mut out = Sudoku::new();
        for c in Cell::all() {
            if let (true, Some(d)) = (self.is_given(c), self.placed(c)) {
                out.set_given(c, d);
            }
        }
        out
    }

    /// The same givens with new candidates for every cell (e.g. after
    /// propagation); given cells keep their digit.
    pub fn with_candidates(&self, cands: &[Mask; CELLS]) -> Sudoku {
        let mut out = self.clone();
        for c in Cell::all() {
            if !self.is_given(c) {
                out.cells[c.index()] = cands[c.index()];
            }
        }
        out
    }
}
