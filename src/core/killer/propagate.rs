//! Propagation and the solution count of a Killer puzzle as the archive
//! stores them. The rules and the search are `solve`'s, on candidate
//! masks; this file hands them the puzzle's cages and board, and has
//! `rules` word what they report.

use crate::core::grid::CELLS;
use crate::core::mask::Mask;
use crate::core::vocabulary::{KILLER_SEARCH_LIMIT, Status};

use super::board::Killer;
use super::solve::{Board, Solver};

/// The board after propagation: candidates of every cell (one bit = placed)
/// and the contradiction, if one was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Propagated {
    pub candidates: [Mask; CELLS],
    pub contradiction: Option<String>,
}

impl Killer {
    fn solver(&self) -> Solver {
        let lines: Vec<(CageCells, u8)> = self
            .cages
            .iter()
            .map(|cage| {
                let mut cells = CageCells([0; 9], cage.len);
                for (slot, c) in cells.0.iter_mut().zip(cage.cells()) {
                    *slot = c.index() as u8;
                }
                (cells, cage.sum)
            })
            .collect();
        Solver::new(&lines)
    }

    /// The starting board: what the string said, all nine where it said nothing.
    pub(super) fn board(&self) -> Board {
        Board::new(self.cells.map(|m| {
            if m.is_empty() {
                Mask::ALL.bits()
            } else {
                m.bits()
            }
        }))
    }

    /// Propagates to a fixpoint (docs/formats.md "Propagation", cages as lines).
    pub fn propagate(&self) -> Propagated {
        let solver = self.solver();
        let mut board = self.board();
        let result = solver.propagate(&mut board);
        Propagated {
            candidates: masks(board.cand()),
            contradiction: result.err().map(|c| super::rules::words(self, &solver, c)),
        }
    }

    /// Propagates, then counts solutions up to two.
    pub fn solve(&self) -> Status {
        self.propagate_and_solve().1
    }

    /// The board to store and the status. A contradiction stops propagation
    /// part way, at a board that is no fixpoint (analysing it again narrows
    /// further) and may hold a cell with no candidate, which the packed form
    /// cannot tell from "nothing written". So, as for Sudoku and Str8ts, a
    /// contradiction keeps the board as read: its encoding reads back and
    /// re-analyses to itself.
    pub(super) fn propagate_and_solve(&self) -> (Board, Status) {
        let mut solver = self.solver();
        let mut board = self.board();
        if let Err(conflict) = solver.propagate(&mut board) {
            return (
                self.board(),
                Status::Contradiction(super::rules::words(self, &solver, conflict)),
            );
        }
        if board.cand().iter().any(|m| m & m.wrapping_sub(1) != 0) {
            solver.add_unit_sums();
        }
        let count = solver.count(&board);
        let status = match count.found {
            0 | 1 if count.nodes > KILLER_SEARCH_LIMIT => Status::GaveUp,
            0 => Status::Unsolvable,
            1 => Status::Unique(count.solution.iter().map(|&m| digit_char(m)).collect()),
            _ => Status::Multiple,
        };
        (board, status)
    }
}

/// A cage's cell indexes as the solver takes them, without an allocation.
struct CageCells([u8; 9], u8);

impl AsRef<[u8]> for CageCells {
    fn as_ref(&self) -> &[u8] {
        &self.0[..usize::from(self.1).min(9)]
    }
}

pub(super) fn masks(cand: &[u16; CELLS]) -> [Mask; CELLS] {
    cand.map(Mask::from_bits_truncate)
}

fn digit_char(m: u16) -> char {
    Mask::from_bits_truncate(m)
        .single()
        .map_or('0', |d| char::from(d.to_ascii()))
}
