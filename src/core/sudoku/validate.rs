//! Rules between cells that make a parsed board unacceptable as a record:
//! a digit placed twice in a unit, or (packed strings) candidate sets that
//! contradict the digits already placed around them.
//!
//! A board that passes may still be unsolvable; finding that out is
//! `propagate`'s and `solve`'s job, and their answer is a status, not an error.

use std::fmt;

use super::board::Board;
use super::{Error, Format};
use crate::core::grid::{Cell, PEERS, UNITS};
use crate::core::mask::Mask;

/// A row, column or box, named 1-based as people read them (`row 3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    Row(u8),
    Column(u8),
    Box(u8),
}

impl Unit {
    /// The unit of `grid::UNITS[k]`: 0..9 rows, 9..18 columns, 18..27 boxes.
    pub const fn from_index(k: usize) -> Unit {
        let n = (k % 9) as u8;
        match k / 9 {
            0 => Unit::Row(n),
            1 => Unit::Column(n),
            _ => Unit::Box(n),
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(n) => write!(f, "row {}", n + 1),
            Unit::Column(n) => write!(f, "column {}", n + 1),
            Unit::Box(n) => write!(f, "box {}", n + 1),
        }
    }
}

/// Runs every check on a parsed board.
///
/// 1. `duplicate`: no digit is placed (given or solved) twice in a row,
///    column or box. This covers a solved digit clashing with a given.
/// 2. `candidates`: a cell that lists two or more candidates must keep at
///    least one that none of its peers has placed. Stale candidates are
///    tolerated (solvers publish states mid-way and propagation removes
///    them), but a listed set that its own placed digits wholly rule out
///    means the string contradicts itself. A cell without candidate
///    information (`00`, or empty in the legacy form) is not checked here:
///    if its peers use all nine digits that is an unsolvable puzzle, which
///    propagation reports as a contradiction, the same as for the 81 form.
pub fn validate(board: &Board, format: Format) -> Result<(), Error> {
    check_duplicates(board, format)?;
    check_candidates(board)
}

fn check_duplicates(board: &Board, format: Format) -> Result<(), Error> {
    for (k, unit) in UNITS.iter().enumerate() {
        let mut seen: [Option<Cell>; 9] = [None; 9];
        for cell in unit.iter().filter_map(|&i| Cell::new(i.into())) {
            let Some(digit) = board.placed(cell) else {
                continue;
            };
            let slot = &mut seen[usize::from(digit.get() - 1)];
            if let Some(first) = *slot {
                return Err(Error::Duplicate {
                    format,
                    digit,
                    unit: Unit::from_index(k),
                    first,
                    second: cell,
                });
            }
            *slot = Some(cell);
        }
    }
    Ok(())
}

fn check_candidates(board: &Board) -> Result<(), Error> {
    for cell in Cell::all() {
        let candidates = board.mask(cell);
        if candidates.len() < 2 {
            continue;
        }
        let placed: Mask = PEERS[cell.index()]
            .iter()
            .filter_map(|&p| Cell::new(p.into()).and_then(|p| board.placed(p)))
            .collect();
        if candidates.minus(placed).is_empty() {
            return Err(Error::Candidates { cell, candidates });
        }
    }
    Ok(())
}
