//! Killer propagation and search over candidate masks.
//!
//! The Sudoku cube rules (deduce along every cell, row-digit, column-digit and
//! box-digit line; eliminate hidden and naked singles) plus each cage as a line
//! whose distinct digits add to its sum. The search counts solutions up to two
//! branching on the cell that strikes the most (few candidates, shared by
//! many neighbours); its hot loop copies a fixed-size
//! board on the stack and never allocates. Knows nothing of strings.
//!
//! One file per rule or job:
//!
//! - `board`: the candidates and each unit's place counters, and `narrow`,
//!   the one way a cell changes, which keeps the counters and the worklist
//!   (`Dirty`) true.
//! - `cells`: cells, peers and units as bit sets and tables, built at
//!   compile time.
//! - `singles`: naked singles (a placed digit leaves its neighbours) and
//!   hidden singles (a digit with one place left in a unit goes there).
//! - `cage`: the cage rule, each cage a line whose distinct digits add to
//!   its sum.
//! - `rule_of_45`: the unit sums that only the search adds.
//! - `search`: the count up to two, and the choice of the cell to branch on.
//! - here: the solver's fixed data, and the driver: the rules from the
//!   worklist to their fixpoint, or in the fixed order for the message.
//! - `reference` (tests only): the rules exactly as docs/formats.md states
//!   them, in the fixed order, and a plain search: the specification and
//!   the oracle the tests hold this solver to, board for board.
//!
//! Propagation only looks again at what changed. Every cell narrowed to one
//! digit is queued for naked singles, every narrowed cell for the cages
//! holding it, and a cage none of whose cells changed since it was last
//! examined is skipped. The board counts the places of each digit in each
//! unit (nine 4-bit counters in a word per unit, all lowered by one
//! subtraction when a cell narrows), so hidden singles visit only the digits
//! whose count just fell to one or none, and a cage pushes a required digit
//! out of a unit only when the count shows a place outside the cage. The
//! rules are monotone, so the fixpoint does not depend on that order, and
//! whether a contradiction is met does not either; *which* one is met first
//! does. So when the root propagation meets one, it starts again from the
//! board it was given in the old fixed order (all naked singles, then all 27
//! units scanned, then all cages, from the top after any change), which
//! names the conflict the archive has always stored. The search only needs
//! to know that there was one.
//!
//! Below the root the search adds the rule of 45 ([`unit_sums`]): each
//! row, column and box adds to 45, so the cells of a unit left over by the
//! cages inside it, or those outside it of the cages covering it, add to a
//! known sum and, lying in one unit, take distinct digits: a cage in all
//! but name. The root must not use it (docs/formats.md "Propagation" fixes the root's rules,
//! and the stored board is their fixpoint). It is built only for a board
//! the root left open, and only for sets of one to three cells: larger ones
//! cut few more nodes and cost more. How each of these choices was
//! measured, and what was dropped, is in `docs/performance.md`.

use crate::core::grid::{CELLS, UNITS};

use cage::Line;
use cells::{ALL_CELLS, PEER_LISTS, PEERS_AND_SELF, bits};
use rule_of_45::{MAX_UNIT_SUMS, unit_sums};
use singles::{hidden_singles, unit_singles};

use board::Dirty;
pub use board::{Board, Conflict};

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
    /// [`KILLER_SEARCH_LIMIT`](crate::core::kind::KILLER_SEARCH_LIMIT) the
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
    pub fn propagate(&self, b: &mut Board) -> Result<(), Conflict> {
        let start = *b;
        if self.fixpoint(b, Dirty::all(b), self.cages).is_ok() {
            return Ok(());
        }
        *b = start;
        self.propagate_in_order(b)
    }

    /// The rules on what changed, cheapest first, until nothing has; the
    /// first `lines` of [`Solver::lines`] (the cages, or the unit sums too).
    fn fixpoint(&self, b: &mut Board, mut dirty: Dirty, lines: usize) -> Result<(), Conflict> {
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
    fn propagate_in_order(&self, b: &mut Board) -> Result<(), Conflict> {
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
mod reference;

#[cfg(test)]
mod tests;
