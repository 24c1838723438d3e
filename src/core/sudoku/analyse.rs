//! Classic Sudoku's side of the puzzle contract: reading either form,
//! the identity of a legacy string, and the analysis the archive stores
//! (the fast path for a clean legacy line, the checked path for the rest).

use super::format::{ascii_string, write_packed_cells};
use super::solve::{Legacy, Planes, count_solutions_in};
use super::{
    Error, Format, LEGACY_LEN, PACKED_LEN, Sudoku, canon, parse_legacy, parse_packed, propagate,
    validate, version_b, write_legacy, write_packed,
};
use crate::core::contract::Puzzle;
use crate::core::grid::CELLS;
use crate::core::mask::Mask;
use crate::core::progress;
use crate::core::version_b::Failed;
use crate::core::vocabulary::{Analysis, CanonError, PuzzleType, Status};

/// Parses either form by its length.
pub fn parse(s: &str) -> Result<(Sudoku, Format), Error> {
    match s.len() {
        LEGACY_LEN => Ok((parse_legacy(s)?, Format::Legacy)),
        PACKED_LEN => Ok((parse_packed(s)?, Format::Packed)),
        found => Err(Error::Length {
            format: Format::Any,
            expected: "81 or 162",
            found,
        }),
    }
}

/// The identity ([`Analysis::givens`]) of a legacy 81-character string,
/// which carries nothing but its givens, so its analysis is a function of
/// the identity alone. `None` for the packed form (its candidates count too)
/// and for strings that do not parse.
pub fn legacy_identity(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.len() != LEGACY_LEN {
        return None;
    }
    let mut digits = [0u8; LEGACY_LEN];
    for (d, &c) in digits.iter_mut().zip(b) {
        *d = match c {
            b'.' => b'0',
            b'0'..=b'9' => c,
            _ => return None,
        };
    }
    String::from_utf8(digits.to_vec()).ok()
}

/// Parses, validates, propagates and solves a bare (URL-free) 81 or 162
/// character string.
///
/// The stored `encoding` is the packed string of the propagated board with
/// the givens flagged, and `candidates` are the propagated sets; the search
/// starts from them, so a packed string's own eliminations count. When
/// propagation hits a contradiction there is no propagated board worth
/// keeping: `encoding` and `candidates` are then the parsed board's.
pub fn analyse(s: &str) -> Result<Analysis, Error> {
    // Nearly every imported line is a valid legacy string: one pass reads
    // it into placed planes. Anything it refuses takes the detailed path
    // below, which names the error.
    if let Some(a) = s
        .as_bytes()
        .try_into()
        .ok()
        .and_then(Legacy::read)
        .and_then(analyse_legacy)
    {
        return Ok(a);
    }
    let (board, format) = parse(s)?;
    analyse_board(board, format)
}

/// [`analyse`] of a parsed board, `format` naming it in errors: the path
/// every form other than a clean legacy string takes.
///
/// The board is checked as read, solved digits and candidates included,
/// but what is stored is counted from its givens alone, the puzzle's
/// identity: every form of one puzzle stores the same facts. A board whose
/// solved digits and candidates leave none of the puzzle's solutions is
/// rejected ([`progress::check`]).
pub(crate) fn analyse_board(board: Sudoku, format: Format) -> Result<Analysis, Error> {
    validate(&board, format)?;
    let puzzle = board.puzzle();
    let a = analyse_position(&puzzle);
    if progress::carries(board.masks(), board.given_flags()) {
        progress::check(&a.status, board.masks(), || analyse_position(&board).status)
            .map_err(|conflict| Error::Progress { format, conflict })?;
    }
    Ok(a)
}

/// Propagates and solves a checked board as it stands.
fn analyse_position(board: &Sudoku) -> Analysis {
    let given = *board.given_flags();
    let mut planes = Planes::from_board(board);
    let (status, candidates, encoding) = if planes.fixpoint() {
        let cands = planes.masks();
        // Given cells keep their digit through propagation, so the
        // propagated masks with the given flags are the shown board.
        let encoding = write_packed_cells(&cands, &given);
        let status = match planes.solved() {
            // Singles alone solved it: that is the one solution.
            Some(grid) => Status::Unique(digits_string(&grid)),
            None => solve_status(&planes),
        };
        (status, cands, encoding)
    } else {
        // Only the reference pass names the contradiction.
        let mut cands = board.all_candidates();
        let status = match propagate(&mut cands) {
            Err(c) => Status::Contradiction(super::rules::words(c)),
            Ok(()) => Status::Unsolvable,
        };
        (status, board.all_candidates(), write_packed(board))
    };
    Analysis {
        kind: PuzzleType::Sudoku,
        clues: board.clue_count(),
        givens: digits_string(&board.givens()),
        encoding,
        status,
        candidates,
        given,
        shading: [0; CELLS],
    }
}

/// [`analyse`] of a read legacy string, identical to the general path's
/// result; `None` on a contradiction, whose naming the general path owns.
fn analyse_legacy(legacy: Legacy) -> Option<Analysis> {
    let Legacy {
        mut planes,
        placed,
        digits,
        given,
        clues,
    } = legacy;
    if !planes.fixpoint_from(placed) {
        return None;
    }
    let (status, candidates) = match planes.solved() {
        // Singles alone solved it: the grid is the candidates too.
        Some(grid) => (
            Status::Unique(digits_string(&grid)),
            grid.map(|d| Mask::from_bits_truncate((1u16 << d) >> 1)),
        ),
        None => (solve_status(&planes), planes.masks()),
    };
    Some(Analysis {
        kind: PuzzleType::Sudoku,
        clues,
        givens: ascii_string(&digits),
        encoding: write_packed_cells(&candidates, &given),
        status,
        candidates,
        given,
        shading: [0; CELLS],
    })
}

fn solve_status(planes: &Planes) -> Status {
    count_solutions_in(planes, 2)
        .solutions()
        .map(|grid| digits_string(&grid))
}

/// Digit values (0 = empty) as the 81-character legacy string.
fn digits_string(digits: &[u8; CELLS]) -> String {
    ascii_string(&digits.map(|d| b'0' + d.min(9)))
}

impl Puzzle for Sudoku {
    const TYPE: PuzzleType = PuzzleType::Sudoku;
    type Error = Error;

    fn parse(s: &str) -> Result<Sudoku, Error> {
        let (board, format) = parse(s)?;
        validate(&board, format)?;
        Ok(board)
    }
    fn to_legacy(&self) -> String {
        write_legacy(self)
    }
    fn to_packed(&self) -> String {
        write_packed(self)
    }
    fn analyse(s: &str) -> Result<Analysis, Error> {
        analyse(s)
    }
    fn legacy_identity(s: &str) -> Option<String> {
        legacy_identity(s)
    }
    fn canonical(givens: &str) -> Result<String, CanonError> {
        canon::sudoku(givens)
    }
    fn code(error: &Error) -> &'static str {
        error.code()
    }
    fn analyse_version_b(s: &str) -> Result<Analysis, Failed<Error>> {
        version_b::analyse(s)
    }
    fn write_version_b(_givens: &str, encoding: &str) -> Result<String, Failed<Error>> {
        version_b::write_stored(encoding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::Cell;
    use crate::core::sudoku::corpus::{XWING_81, XWING_162, puzzles};
    use proptest::prelude::*;

    #[test]
    fn a_puzzle_whose_count_runs_past_the_node_limit_is_reported_as_given_up() {
        // Row 8 must hold 3, 5 and 6 in two cells: no solution, but not one
        // that singles or a bounded search find.
        let a = analyse(
            "000000000000000000000000000000000000000000000000000000000000365000007008365000007",
        )
        .unwrap();
        assert_eq!(a.status, Status::GaveUp);
    }

    #[test]
    fn analysis_of_a_legacy_puzzle_counts_givens_and_solves_it() {
        let puzzle =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let solution =
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
        let a = analyse(puzzle).unwrap();
        assert_eq!(a.kind, PuzzleType::Sudoku);
        assert_eq!(a.clues, 32);
        assert_eq!(a.givens, puzzle.replace('.', "0"));
        assert_eq!(a.status, Status::Unique(solution.to_owned()));
        assert_eq!(a.shading, [0; CELLS]);
        assert_eq!(a.given.iter().filter(|&&g| g).count(), 32);
        // Singles solve this one, so the propagated encoding is the solution
        // with the givens flagged.
        let solved = parse_packed(&a.encoding).unwrap();
        assert_eq!(write_legacy(&solved), solution);
        assert_eq!(solved.givens(), parse_legacy(puzzle).unwrap().givens());
    }

    #[test]
    fn analysis_of_the_packed_xwing_example_keeps_only_flagged_givens() {
        let a = analyse(XWING_162).unwrap();
        let b = analyse(XWING_81).unwrap();
        assert!(a.clues < b.clues, "{} vs {}", a.clues, b.clues);
        assert_eq!(a.status.count(), 1);
        assert_eq!(a.status, b.status);
        for c in Cell::all() {
            let i = c.index();
            assert!(!a.candidates[i].is_empty());
            if a.given[i] {
                assert_eq!(a.givens.as_bytes()[i], XWING_81.as_bytes()[i]);
            } else {
                assert_eq!(a.givens.as_bytes()[i], b'0');
            }
        }
        // Propagating an already propagated state changes nothing.
        assert_eq!(analyse(&a.encoding).unwrap().encoding, a.encoding);
    }

    #[test]
    fn lengths_other_than_81_or_162_are_rejected_by_analyse() {
        let e = analyse("123").unwrap_err();
        assert_eq!(e.code(), "length");
        assert_eq!(
            e.to_string(),
            "sudoku: expected 81 or 162 characters, found 3"
        );
    }

    #[test]
    fn a_contradiction_is_a_status_with_the_parsed_board_kept() {
        // r1c9 sees 1-7 in its row and 8, 9 in its column.
        let s = format!(
            "1234567..{}8{}9{}",
            ".".repeat(26),
            ".".repeat(8),
            ".".repeat(36)
        );
        let a = analyse(&s).unwrap();
        assert_eq!(
            a.status,
            Status::Contradiction("cell 8 (r1c9) has no candidate left".to_owned())
        );
        assert_eq!(a.status.count(), 0);
        assert_eq!(
            write_legacy(&parse_packed(&a.encoding).unwrap()),
            s.replace('.', "0")
        );
    }

    #[test]
    fn invalid_puzzles_are_rejected_or_have_no_solution_as_annotated() {
        for (p, note) in puzzles(include_str!(
            "../../../tests/data/classic/emerentius_invalid_annotated.txt"
        )) {
            match analyse(p) {
                Err(e) => {
                    assert!(
                        note.ends_with("duplicate"),
                        "{p}: rejected ({e}) but annotated {note:?}"
                    );
                    assert_eq!(e.code(), "repeated-digit");
                    assert!(
                        e.to_string().contains(note.trim_end_matches(" duplicate")),
                        "{e} vs {note}"
                    );
                }
                Ok(a) => {
                    assert!(
                        note.starts_with("unsolvable"),
                        "{p}: accepted but annotated {note:?}"
                    );
                    assert_eq!(a.status.count(), 0, "{p}: {:?}", a.status);
                }
            }
        }
    }

    #[test]
    fn multiple_solution_puzzles_analyse_as_multiple() {
        for (p, _) in puzzles(include_str!(
            "../../../tests/data/classic/serg_benchmark_multisolution.txt"
        ))
        .take(20)
        {
            assert_eq!(analyse(p).unwrap().status, Status::Multiple, "{p}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn analysing_any_legal_packed_string_never_panics_and_keeps_placed_digits(
            cells in prop::collection::vec(
                prop_oneof![
                    6 => Just(0u16),
                    1 => (0..9u16).prop_map(|d| (1 << d) << 1 | 1),
                    1 => (1..512u16).prop_map(|m| m << 1),
                ],
                CELLS,
            )
        ) {
            let mut s = String::new();
            for n in cells {
                crate::core::base32::encode_into(n, 2, &mut s);
            }
            if let Ok(a) = analyse(&s) {
                let board = parse_packed(&s).unwrap();
                if let Status::Unique(sol) = &a.status {
                    for c in Cell::all() {
                        if let Some(d) = board.placed(c) {
                            prop_assert_eq!(sol.as_bytes()[c.index()], d.to_ascii());
                        }
                    }
                }
            }
        }
    }
}
