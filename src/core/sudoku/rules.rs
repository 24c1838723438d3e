//! Classic Sudoku's rules, written to be read: propagation exactly as
//! docs/formats.md "Propagation" defines it (*deduce* clears the lines
//! through a placed digit, *eliminate* places a line's last position, to a
//! fixpoint), cell by cell in that order. It is the specification, the
//! oracle the fast engine (`solve`) is tested against, and the only code
//! that words a [`Contradiction`] ([`words`]).
//!
//! [`propagate`] runs the engine and falls back to this order only to name
//! a contradiction. Must stay plain: no tables, no platform code.

use super::solve::Planes;
use super::validate::Unit;
use crate::core::grid::{CELLS, Cell, PEERS, UNITS};
use crate::core::mask::{Digit, Mask, Remaining};

/// A line of the cube with no possible position left: a cell
/// ([`Contradiction::Cell`]) or a digit in a unit ([`Contradiction::Unit`]).
pub use crate::core::contradiction::Contradiction;

/// The words of a contradiction.
pub fn words(c: Contradiction) -> String {
    let cell = |i: u8| Cell::new(usize::from(i)).map_or_else(String::new, |c| c.to_string());
    let digit = |d: u8| Digit::new(d).map_or_else(|| d.to_string(), |d| d.to_string());
    match c {
        Contradiction::Cell(i) => format!("cell {i} ({}) has no candidate left", cell(i)),
        Contradiction::Unit { unit, digit: d } => format!(
            "digit {} has no place left in {}",
            digit(d),
            Unit::from_index(usize::from(unit))
        ),
        Contradiction::Twice {
            digit: d,
            cell: a,
            other,
        } => format!(
            "digit {} twice: cell {a} ({}) and cell {other} ({})",
            digit(d),
            cell(a),
            cell(other)
        ),
        Contradiction::Group(_) | Contradiction::Needed { .. } => {
            "a contradiction in a group Sudoku does not have".to_string()
        }
    }
}

/// Runs deduce and eliminate on all four line kinds until nothing changes.
///
/// `cands` are full candidate sets (an empty mask is a cell with no
/// candidate, i.e. a contradiction, not "no information"). On a
/// contradiction `cands` holds the state reached when it was found.
pub fn propagate(cands: &mut [Mask; CELLS]) -> Result<(), Contradiction> {
    // Both rules only remove candidates, so every order of applying them
    // reaches the same fixpoint: the fast pass finds it in a fraction of
    // the time. Which contradiction is met first does depend on the order,
    // so when there is one the reference pass runs to name it.
    let mut planes = Planes::from_masks(cands);
    if planes.fixpoint() {
        *cands = planes.masks();
        return Ok(());
    }
    reference(cands)
}

/// The rules applied in the order docs/formats.md gives them; slow, but its
/// first contradiction is the one reported.
fn reference(cands: &mut [Mask; CELLS]) -> Result<(), Contradiction> {
    // A placed cell clears its peers once; masks only shrink, so once is enough.
    let mut cleared = [false; CELLS];
    loop {
        let mut changed = false;
        for cell in Cell::all() {
            let i = cell.index();
            match cands[i].remaining() {
                Remaining::None => return Err(Contradiction::Cell(cell.index() as u8)),
                Remaining::One(d) if !cleared[i] => {
                    cleared[i] = true;
                    changed |= deduce(cands, cell, d)?;
                }
                _ => {}
            }
        }
        for (k, unit) in UNITS.iter().enumerate() {
            for digit in Digit::all() {
                changed |= eliminate(cands, unit, digit).map_err(|()| Contradiction::Unit {
                    unit: k as u8,
                    digit: digit.get(),
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
                return Err(Contradiction::Cell(p as u8));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sudoku::corpus::{XWING_162, puzzles};
    use crate::core::sudoku::{count_solutions, parse_legacy, parse_packed};
    use proptest::prelude::*;

    fn propagated(p: &str) -> Result<[Mask; CELLS], Contradiction> {
        let mut cands = parse_legacy(p).unwrap().all_candidates();
        propagate(&mut cands).map(|()| cands)
    }

    fn keeps_solution(cands: &[Mask; CELLS], solution: &[u8]) -> bool {
        cands
            .iter()
            .zip(solution)
            .all(|(m, &s)| Digit::from_ascii(s).is_some_and(|d| m.contains(d)))
    }

    #[test]
    fn propagation_never_removes_the_solution_digit_of_emerentius_puzzles() {
        let pairs = [
            (
                include_str!("../../../tests/data/classic/emerentius_easy.txt"),
                include_str!("../../../tests/data/classic/emerentius_easy_solutions.txt"),
            ),
            (
                include_str!("../../../tests/data/classic/emerentius_hard.txt"),
                include_str!("../../../tests/data/classic/emerentius_hard_solutions.txt"),
            ),
        ];
        for (ps, ss) in pairs {
            for ((p, _), (s, _)) in puzzles(ps).zip(puzzles(ss)) {
                let cands = propagated(p).unwrap();
                assert!(keeps_solution(&cands, s.as_bytes()), "{p}");
            }
        }
    }

    #[test]
    fn propagation_never_removes_the_solution_digit_of_top1465_puzzles() {
        for (p, _) in puzzles(include_str!("../../../tests/data/classic/top1465.txt")).step_by(7) {
            let board = parse_legacy(p).unwrap();
            let solution = count_solutions(&board.givens(), 2)
                .first
                .unwrap()
                .map(|d| b'0' + d);
            assert!(keeps_solution(&propagated(p).unwrap(), &solution), "{p}");
        }
    }

    #[test]
    fn singles_alone_solve_an_easy_puzzle() {
        let p = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let s = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
        let cands = propagated(p).unwrap();
        assert!(
            cands
                .iter()
                .zip(s.bytes())
                .all(|(m, c)| m.single().map(Digit::to_ascii) == Some(c))
        );
    }

    #[test]
    fn propagation_only_narrows_a_packed_state_and_is_idempotent() {
        let board = parse_packed(XWING_162).unwrap();
        let mut once = board.all_candidates();
        propagate(&mut once).unwrap();
        assert!(Cell::all().all(|c| once[c.index()].minus(board.candidates(c)).is_empty()));
        let mut twice = once;
        propagate(&mut twice).unwrap();
        assert_eq!(once, twice);
    }

    #[test]
    fn contradictions_name_the_empty_line() {
        let cases = [
            // r1c9 sees 1-7 in its row and 8, 9 in its column.
            (
                format!(
                    "1234567..{}8{}9{}",
                    ".".repeat(26),
                    ".".repeat(8),
                    ".".repeat(36)
                ),
                "cell 8 (r1c9) has no candidate left",
            ),
            // 5s in r1c4 and r2c7 shut row 3 out of boxes 2 and 3; r3c1-3 are full.
            (
                format!("...5.....{}5..123......{}", ".".repeat(6), ".".repeat(54)),
                "digit 5 has no place left in row 3",
            ),
        ];
        for (p, message) in cases {
            assert_eq!(
                words(propagated(&p).map(|_| ()).unwrap_err()),
                message,
                "{p}"
            );
        }
        let boxed = Contradiction::Unit { unit: 24, digit: 4 };
        assert_eq!(words(boxed), "digit 4 has no place left in box 7");
    }

    #[test]
    fn the_annotated_unsolvable_puzzles_end_in_a_contradiction_or_no_solution() {
        for (p, note) in puzzles(include_str!(
            "../../../tests/data/classic/emerentius_invalid_annotated.txt"
        )) {
            if note.starts_with("unsolvable") {
                let board = parse_legacy(p).unwrap();
                let dead = propagated(p).is_err() || count_solutions(&board.givens(), 2).count == 0;
                assert!(dead, "{p} {note}");
            }
        }
    }

    /// The first emerentius easy solution, for the property below.
    const SOLUTION: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    /// Runs both passes on the same start; they must agree on whether there
    /// is a contradiction and, when there is none, on the fixpoint.
    fn fast_matches_reference(start: [Mask; CELLS]) -> bool {
        let mut slow = start;
        let slow_ok = reference(&mut slow).is_ok();
        let mut planes = Planes::from_masks(&start);
        let fast_ok = planes.fixpoint();
        fast_ok == slow_ok && (!fast_ok || planes.masks() == slow)
    }

    #[test]
    fn the_fast_pass_reaches_the_reference_fixpoint_on_real_corpora() {
        let files = [
            include_str!("../../../tests/data/classic/top1465.txt"),
            include_str!("../../../tests/data/classic/17clue_royle_first2000.txt"),
            include_str!("../../../tests/data/classic/forum_hardest_1106.txt"),
            include_str!("../../../tests/data/classic/emerentius_invalid_annotated.txt"),
            include_str!("../../../tests/data/classic/serg_benchmark_multisolution.txt"),
        ];
        for text in files {
            for (p, _) in puzzles(text) {
                let Ok(board) = parse_legacy(p) else { continue };
                assert!(fast_matches_reference(board.all_candidates()), "{p}");
            }
        }
    }

    proptest! {
        #[test]
        fn the_fast_pass_reaches_the_reference_fixpoint_on_random_boards(
            cells in proptest::collection::vec(0u16..10, CELLS),
            noise in proptest::collection::vec(0u16..0x200, CELLS)
        ) {
            // Random givens (often contradictory) and random candidate sets.
            let start: [Mask; CELLS] = std::array::from_fn(|i| match cells[i] {
                0 => Mask::from_bits_truncate(noise[i] | 0x100),
                d => Mask::from_bits_truncate(1 << (d - 1)),
            });
            prop_assert!(fast_matches_reference(start));
        }

        #[test]
        fn the_fast_pass_reaches_the_reference_fixpoint_on_solvable_boards(
            keep in proptest::collection::vec(0u8..4, CELLS),
            noise in proptest::collection::vec(0u16..0x200, CELLS)
        ) {
            // Givens from one solution (a quarter of the cells), random
            // candidate sets that keep the solution's digit elsewhere:
            // long chains of singles, no contradiction.
            let start: [Mask; CELLS] = std::array::from_fn(|i| {
                let d = Digit::from_ascii(SOLUTION.as_bytes()[i]).map_or(Mask::ALL, Digit::mask);
                match keep[i] {
                    0 => d,
                    1 => d.union(Mask::from_bits_truncate(noise[i])),
                    _ => Mask::ALL,
                }
            });
            prop_assert!(fast_matches_reference(start));
        }

        #[test]
        fn propagation_keeps_the_solution_digit_for_any_subset_of_givens(
            keep in proptest::collection::vec(any::<bool>(), CELLS)
        ) {
            let p: String = SOLUTION.chars().zip(&keep).map(|(c, &k)| if k { c } else { '0' }).collect();
            let cands = propagated(&p).unwrap();
            prop_assert!(keeps_solution(&cands, SOLUTION.as_bytes()));
        }
    }
}
