//! The Str8ts board: colours, given flags and each cell's digits, with its
//! compartments. Reading and writing the two forms is `format`, the checks
//! across cells `validate`.

use crate::core::grid::{CELLS, Cell};
use crate::core::mask::Mask;

use super::compartment::Compartment;

/// Every cell by index, for loops and tables that already know `i < 81`.
pub(super) const CELL: [Cell; CELLS] = {
    let mut t = [match Cell::new(0) {
        Some(c) => c,
        None => panic!("cell 0 exists"),
    }; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = match Cell::new(i) {
            Some(c) => c,
            None => panic!("cells below 81 exist"),
        };
        i += 1;
    }
    t
};

/// A Str8ts position: colours, given flags and each cell's digits.
///
/// A black cell holds `Mask::EMPTY` or its given digit; a white cell holds its
/// candidates (one bit = placed). The invariants are the ones the parsers
/// check, so every `Str8ts` writes back to a string that reads again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Str8ts {
    pub(super) black: [bool; CELLS],
    pub(super) given: [bool; CELLS],
    pub(super) cells: [Mask; CELLS],
    pub(super) compartments: Vec<Compartment>,
}

impl Str8ts {
    pub fn is_black(&self, c: Cell) -> bool {
        self.black[c.index()]
    }

    pub fn is_given(&self, c: Cell) -> bool {
        self.given[c.index()]
    }

    /// A white cell's candidates (one bit = placed); a black cell's given or empty.
    pub fn candidates(&self, c: Cell) -> Mask {
        self.cells[c.index()]
    }

    /// Number of given digits, white and black.
    pub fn clues(&self) -> u32 {
        self.given.iter().map(|&g| u32::from(g)).sum()
    }

    pub fn compartments(&self) -> &[Compartment] {
        &self.compartments
    }

    pub fn black(&self) -> &[bool; CELLS] {
        &self.black
    }

    pub fn given(&self) -> &[bool; CELLS] {
        &self.given
    }

    pub fn masks(&self) -> &[Mask; CELLS] {
        &self.cells
    }

    /// The same puzzle with new cell contents: propagation's output. Black
    /// cells and givens keep what they had; the solver never changes them.
    pub(super) fn with_masks(&self, cells: [Mask; CELLS]) -> Str8ts {
        Str8ts {
            cells,
            ..self.clone()
        }
    }

    /// The solution string when every white cell is placed: each white cell's
    /// digit and each black given, `0` for an empty black cell.
    pub fn digits(&self) -> String {
        self.cells
            .iter()
            .map(|m| m.single().map_or('0', |d| char::from(d.to_ascii())))
            .collect()
    }
}
