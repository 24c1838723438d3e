//! Killer propagation and search over candidate masks: the Sudoku cube
//! rules plus each cage as a line whose distinct digits add to its sum, run
//! from a worklist to their fixpoint, and a search that counts solutions up
//! to two (with the rule of 45 below the root only). Here: the solver's
//! fixed data and the driver; one file beside it per rule or job (`board`,
//! `cells`, `singles`, `cage`, `rule_of_45`, `search`).
//!
//! Knows nothing of strings and must not allocate in the search. A
//! contradiction at the root is named by rerunning the old fixed order;
//! the readable rules the tests hold this to are `killer/rules.rs`. Design
//! and measurements: docs/performance.md "Module notes".

use crate::core::grid::{CELLS, UNITS};

use cage::Line;
use cells::{ALL_CELLS, PEER_LISTS, PEERS_AND_SELF, bits};
use rule_of_45::{MAX_UNIT_SUMS, unit_sums};
use singles::{hidden_singles, unit_singles};

use board::Dirty;
pub use board::{Board, Contradiction};

mod board;
mod cage;
mod cells;
mod rule_of_45;
mod search;
mod singles;

/// The fixed data of one puzzle: cages and each cell's neighbours (its 20
/// Sudoku peers plus cage mates outside them), built once before searching.
#[derive(Clone, Debug)]
pub struct Solver {
    /// The cages, then the unit sums the search adds (see [`unit_sums`]).
    lines: Vec<Line>,
    /// How many of `lines` are cages.
    cages: usize,
    neighbours: [[u8; 28]; CELLS],
    neighbour_len: [u8; CELLS],
}

/// What the search found: 0, 1 or 2 (two or more) solutions, and the first.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    pub found: u8,
    /// Search nodes visited; past
    /// [`KILLER_SEARCH_LIMIT`](crate::core::vocabulary::KILLER_SEARCH_LIMIT) the
    /// search gives up.
    pub nodes: u64,
    pub solution: [u16; CELLS],
}

impl Solver {
    /// `cages`: the cells of each cage (at most nine each) and its sum.
    pub fn new<C: AsRef<[u8]>>(cages: &[(C, u8)]) -> Solver {
        // The cages, and room for the unit sums.
        let mut lines = Vec::with_capacity(cages.len() + MAX_UNIT_SUMS);
        let mut neighbours = PEER_LISTS;
        let mut neighbour_len = [20u8; CELLS];
        // A cell's neighbours so far (itself included: never its own).
        let mut around = PEERS_AND_SELF;
        for (cells, sum) in cages {
            let line = Line::new(cells.as_ref(), *sum);
            let len = line.len;
            // Each cell's cage mates not yet among its neighbours, in the
            // cage's order (which fixes the order deductions, and so the
            // first conflict, are met in); a bit set, not a scan, says which.
            for &a in &line.cells[..len] {
                let a = a as usize;
                if line.bits & !around[a] == 0 {
                    // Every cage mate is a peer already (the usual case).
                    continue;
                }
                for &b in &line.cells[..len] {
                    let (len, bit) = (neighbour_len[a] as usize, 1u128 << b);
                    if around[a] & bit == 0 && len < 28 {
                        around[a] |= bit;
                        neighbours[a][len] = b;
                        neighbour_len[a] += 1;
                    }
                }
            }
            lines.push(line);
        }
        Solver {
            cages: lines.len(),
            lines,
            neighbours,
            neighbour_len,
        }
    }

    /// Adds the lines of the rule of 45 ([`unit_sums`]) for [`Solver::count`]
    /// to use. Not worth building for a board the root propagation solved.
    pub fn add_unit_sums(&mut self) {
        if self.lines.len() > self.cages {
            return;
        }
        let shared = unit_sums(&mut self.lines);
        for line in &mut self.lines[..self.cages] {
            line.alone = line.bits & !shared;
        }
    }

    /// Applies every rule until nothing changes. On a contradiction the board
    /// and the conflict are those of the fixed order (see the module text).
    pub fn propagate(&self, b: &mut Board) -> Result<(), Contradiction> {
        let start = *b;
        if self.fixpoint(b, Dirty::all(b), self.cages).is_ok() {
            return Ok(());
        }
        *b = start;
        self.propagate_in_order(b)
    }

    /// The rules on what changed, cheapest first, until nothing has; the
    /// first `lines` of [`Solver::lines`] (the cages, or the unit sums too).
    fn fixpoint(&self, b: &mut Board, mut dirty: Dirty, lines: usize) -> Result<(), Contradiction> {
        loop {
            let todo = dirty.push & !b.pushed;
            if todo != 0 {
                dirty.push = 0;
                for c in bits(todo) {
                    self.push_cell(c, b, &mut dirty)?;
                }
                continue;
            }
            if dirty.units != 0 {
                let mut todo = dirty.units;
                dirty.units = 0;
                while todo != 0 {
                    let u = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let digits = std::mem::take(&mut dirty.singles[u]);
                    hidden_singles(u, digits, b, &mut dirty)?;
                }
                continue;
            }
            if dirty.cages != 0 {
                let changed = dirty.cages;
                dirty.cages = 0;
                for k in 0..lines {
                    if self.lines[k].bits & changed != 0 {
                        self.cage(k, lines, b, &mut dirty)?;
                    }
                }
                continue;
            }
            return Ok(());
        }
    }

    /// The fixed order: all naked singles, then hidden singles in all 27
    /// units, then all cages, from the top after any change.
    fn propagate_in_order(&self, b: &mut Board) -> Result<(), Contradiction> {
        let mut dirty = Dirty::NONE;
        'again: loop {
            // Deduce: each placed digit leaves its neighbours.
            loop {
                let mut pushed = false;
                for c in bits(!b.pushed & ALL_CELLS) {
                    pushed |= self.push_cell(c, b, &mut dirty)?;
                }
                if !pushed {
                    break;
                }
            }
            let mut changed = false;
            for u in 0..UNITS.len() {
                changed |= unit_singles(u, b, &mut dirty)?;
            }
            if changed {
                continue 'again;
            }
            for k in 0..self.cages {
                changed |= self.cage(k, self.cages, b, &mut dirty)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// The cells of cage `k`, for naming it in messages.
    pub fn cage_cells(&self, k: usize) -> &[u8] {
        self.lines.get(k).map_or(&[], |l| &l.cells[..l.len])
    }
}

#[cfg(test)]
mod reference {
    pub use super::super::rules::*;
}

#[cfg(test)]
mod tests;
