//! Propagation exactly as FORMATS.md "What propagate means" defines it: the
//! board is a 9x9x9 cube of (cell, digit) possibilities and every line of it
//! (a cell's digits; a digit along a row, down a column, within a box) holds
//! exactly one truth. *Deduce* clears the lines through each placed digit;
//! *eliminate* places a line's last possible position. Both run to a fixpoint.
//!
//! This is the readable, reference form run once per puzzle for the stored
//! candidates; the search in `solve` is the fast one. No parsing, no search.

use std::fmt;

use super::validate::Unit;
use crate::core::grid::{CELLS, Cell, PEERS, UNITS};
use crate::core::mask::{Digit, Mask, Remaining};

/// A line of the cube with no possible position left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// The cell line: no digit can go in this cell.
    Cell(Cell),
    /// A row/column/box line: the digit has no place in the unit.
    Digit { digit: Digit, unit: Unit },
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contradiction::Cell(c) => write!(f, "cell {} ({c}) has no candidate left", c.index()),
            Contradiction::Digit { digit, unit } => {
                write!(f, "digit {digit} has no place left in {unit}")
            }
        }
    }
}

/// Runs deduce and eliminate on all four line kinds until nothing changes.
///
/// `cands` are full candidate sets (an empty mask is a cell with no
/// candidate, i.e. a contradiction, not "no information"). On a
/// contradiction `cands` holds the state reached when it was found.
pub fn propagate(cands: &mut [Mask; CELLS]) -> Result<(), Contradiction> {
    // A placed cell clears its peers once; masks only shrink, so once is enough.
    let mut cleared = [false; CELLS];
    loop {
        let mut changed = false;
        for cell in Cell::all() {
            let i = cell.index();
            match cands[i].remaining() {
                Remaining::None => return Err(Contradiction::Cell(cell)),
                Remaining::One(d) if !cleared[i] => {
                    cleared[i] = true;
                    changed |= deduce(cands, cell, d)?;
                }
                _ => {}
            }
        }
        for (k, unit) in UNITS.iter().enumerate() {
            for digit in Digit::all() {
                changed |= eliminate(cands, unit, digit).map_err(|()| Contradiction::Digit {
                    digit,
                    unit: Unit::from_index(k),
                })?;
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// Removes a placed digit from its peers; true when anything changed.
fn deduce(cands: &mut [Mask; CELLS], cell: Cell, d: Digit) -> Result<bool, Contradiction> {
    let mut changed = false;
    for &p in &PEERS[cell.index()] {
        let p = usize::from(p);
        if cands[p].contains(d) {
            cands[p] = cands[p].without(d);
            changed = true;
            if cands[p].is_empty() {
                return Err(Contradiction::Cell(Cell::new(p).unwrap_or(cell)));
            }
        }
    }
    Ok(changed)
}

/// Places `d` where it has a single position left in `unit`; `Err` when it has none.
fn eliminate(cands: &mut [Mask; CELLS], unit: &[u8; 9], d: Digit) -> Result<bool, ()> {
    let mut at = None;
    for &c in unit {
        if cands[usize::from(c)].contains(d) {
            if at.is_some() {
                return Ok(false);
            }
            at = Some(usize::from(c));
        }
    }
    let i = at.ok_or(())?;
    let placed = d.mask();
    let changed = cands[i] != placed;
    cands[i] = placed;
    Ok(changed)
}
