//! A string's progress: the solved digits and candidates that the packed
//! and Version B forms carry beside a puzzle's givens. What the archive
//! stores about a puzzle is counted from its identity alone (givens, cages,
//! colours), so that every form of one puzzle stores the same facts; the
//! progress is only checked against that puzzle, here: a string whose
//! progress leaves none of its puzzle's solutions is rejected.
//!
//! Shared by the three types, which call it with their own cells. Pure.

use std::fmt;

use crate::core::grid::{CELLS, Cell};
use crate::core::mask::{Digit, Mask};
use crate::core::vocabulary::Status;

/// How a string's progress contradicts its puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// The puzzle has one solution, and a cell's digits leave it out.
    Excludes {
        cell: Cell,
        held: Mask,
        digit: Digit,
    },
    /// The puzzle has several solutions, none of which the progress allows.
    NoSolution(String),
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Conflict::Excludes { cell, held, digit } => write!(
                f,
                "cell {} ({cell}) holds {held}, but the one solution of the givens has {digit} there",
                cell.index()
            ),
            Conflict::NoSolution(why) => write!(
                f,
                "the solved digits and candidates leave no solution of the givens: {why}"
            ),
        }
    }
}

/// Whether `cells` (`EMPTY` or all nine: nothing known) say more than the
/// givens: some cell narrowed to fewer than nine digits that is not a
/// given.
pub fn carries(cells: &[Mask; CELLS], given: &[bool; CELLS]) -> bool {
    cells
        .iter()
        .zip(given)
        .any(|(m, &g)| !g && !m.is_empty() && *m != Mask::ALL)
}

/// Checks a string's progress `cells` against the status of its puzzle
/// (counted from the givens). One solution: each cell must allow its
/// digit there (no search needed). Several: `carried` counts the string's
/// own board, which must keep at least one (a count it gave up on is
/// given the benefit of the doubt). No solution: nothing to check, the
/// puzzle itself is rejected.
pub fn check(
    puzzle: &Status,
    cells: &[Mask; CELLS],
    carried: impl FnOnce() -> Status,
) -> Result<(), Conflict> {
    match puzzle {
        Status::Unique(solution) => {
            for (c, (m, s)) in Cell::all().zip(cells.iter().zip(solution.bytes())) {
                if let Some(digit) = Digit::from_ascii(s)
                    && !m.is_empty()
                    && !m.contains(digit)
                {
                    return Err(Conflict::Excludes {
                        cell: c,
                        held: *m,
                        digit,
                    });
                }
            }
            Ok(())
        }
        Status::Multiple => match carried() {
            Status::Contradiction(why) => Err(Conflict::NoSolution(why)),
            Status::Unsolvable => Err(Conflict::NoSolution("the search finds none".into())),
            Status::Unique(_) | Status::Multiple | Status::GaveUp => Ok(()),
        },
        Status::Contradiction(_) | Status::Unsolvable | Status::GaveUp => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digit(d: u8) -> Digit {
        Digit::new(d).unwrap()
    }

    #[test]
    fn one_solution_is_checked_cell_by_cell() {
        let solution: String = (0..CELLS)
            .map(|i| char::from(b'1' + (i % 9) as u8))
            .collect();
        let mut cells = [Mask::EMPTY; CELLS];
        cells[3] = digit(4).mask().with(digit(7));
        let never = || unreachable!("no search for a unique puzzle");
        assert_eq!(
            check(&Status::Unique(solution.clone()), &cells, never),
            Ok(())
        );
        cells[4] = digit(7).mask();
        assert_eq!(
            check(&Status::Unique(solution), &cells, never)
                .unwrap_err()
                .to_string(),
            "cell 4 (r1c5) holds 7, but the one solution of the givens has 5 there"
        );
    }

    #[test]
    fn several_solutions_ask_the_carried_board() {
        let cells = [Mask::EMPTY; CELLS];
        let why = || Status::Contradiction("cell 8 (r1c9) has no candidate left".into());
        assert_eq!(
            check(&Status::Multiple, &cells, why)
                .unwrap_err()
                .to_string(),
            "the solved digits and candidates leave no solution of the givens: cell 8 (r1c9) has no candidate left"
        );
        assert_eq!(check(&Status::Multiple, &cells, || Status::GaveUp), Ok(()));
        assert!(check(&Status::Multiple, &cells, || Status::Unsolvable).is_err());
    }

    #[test]
    fn all_nine_and_givens_are_no_progress() {
        let mut cells = [Mask::ALL; CELLS];
        let mut given = [false; CELLS];
        cells[0] = digit(5).mask();
        given[0] = true;
        cells[1] = Mask::EMPTY;
        assert!(!carries(&cells, &given));
        cells[2] = digit(5).mask();
        assert!(carries(&cells, &given));
    }
}
