//! Classic Sudoku as a Version B string (`S9B` + 81 fields of two base-36
//! characters, docs/formats.md "Version B"), and the cell content transform
//! it uses, which Killer's `L9B` reuses: `0` empty (no candidate
//! information), `1`-`9` a given, `9 + d` a solved digit, `18 + mask`
//! candidates.
//!
//! Unlike the packed form, a single candidate stays a candidate here: the
//! decoded [`Content`]s keep every distinction the string makes, so a string
//! re-encodes byte for byte. The [`Sudoku`] built from them for analysis
//! reads a single candidate as a placed (solved) digit, as solving does.
//! Pure: strings in, values out.

use super::{Format, Sudoku, analyse_board, parse_packed};
use crate::core::grid::{CELLS, Cell};
use crate::core::mask::{Digit, Mask};
use crate::core::version_b::{
    self, Error, Failed, Kind, cell, field_text, push_field, read_fields,
};
use crate::core::vocabulary::Analysis;

impl From<super::Error> for Failed<super::Error> {
    fn from(e: super::Error) -> Self {
        Failed::Board(e)
    }
}

/// What one cell holds, as Version B says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// `0`: nothing written, no candidate information.
    Empty,
    /// `1`-`9`: a given digit.
    Given(Digit),
    /// `10`-`18`: a digit placed by the solver, not a given.
    Solved(Digit),
    /// `19`-`529`: the cell's candidates (one or more).
    Candidates(Mask),
}

impl Content {
    /// The largest legal value: all nine candidates, `18 + 511`.
    pub const MAX: u32 = 18 + 511;

    /// The content of a field value; `None` above [`Content::MAX`].
    pub fn from_value(v: u32) -> Option<Content> {
        let digit = |d: u32| Digit::new(d as u8);
        Some(match v {
            0 => Content::Empty,
            1..=9 => Content::Given(digit(v)?),
            10..=18 => Content::Solved(digit(v - 9)?),
            19..=Content::MAX => Content::Candidates(Mask::new((v - 18) as u16)?),
            _ => return None,
        })
    }

    /// The field value.
    pub fn value(self) -> u32 {
        match self {
            Content::Empty => 0,
            Content::Given(d) => u32::from(d.get()),
            Content::Solved(d) => 9 + u32::from(d.get()),
            Content::Candidates(m) => 18 + u32::from(m.bits()),
        }
    }

    /// The digits the cell may hold: the placed digit, the candidates, or
    /// none for an empty cell.
    pub fn mask(self) -> Mask {
        match self {
            Content::Empty => Mask::EMPTY,
            Content::Given(d) | Content::Solved(d) => d.mask(),
            Content::Candidates(m) => m,
        }
    }

    /// The content of a cell of a propagated (or parsed) board: a given, a
    /// placed digit that is not a given (solved), candidates, or empty.
    pub fn of(mask: Mask, given: bool) -> Content {
        match (mask.single(), given) {
            (Some(d), true) => Content::Given(d),
            (Some(d), false) => Content::Solved(d),
            (None, _) if mask.is_empty() => Content::Empty,
            (None, _) => Content::Candidates(mask),
        }
    }
}

/// Reads an `S9B` string (header included) cell by cell.
pub fn decode(s: &str) -> Result<[Content; CELLS], Error> {
    let values = read_fields(s, Kind::Sudoku)?;
    let mut out = [Content::Empty; CELLS];
    for (i, (c, &v)) in out.iter_mut().zip(&values).enumerate() {
        *c = Content::from_value(v).ok_or_else(|| Error::Value {
            kind: Kind::Sudoku,
            cell: cell(i),
            text: field_text(s, Kind::Sudoku, i),
            value: v,
            max: Content::MAX,
        })?;
    }
    Ok(out)
}

/// Writes an `S9B` string: uppercase header, lowercase fields.
pub fn encode(cells: &[Content; CELLS]) -> String {
    let mut out = version_b::start(Kind::Sudoku);
    for c in cells {
        push_field(c.value(), Kind::Sudoku.width(), &mut out);
    }
    out
}

/// The board solving works on: givens flagged, everything else as masks.
pub fn board(cells: &[Content; CELLS]) -> Sudoku {
    let mut board = Sudoku::new();
    for (c, content) in Cell::all().zip(cells) {
        match *content {
            Content::Given(d) => board.set_given(c, d),
            other => board.set_mask(c, other.mask()),
        }
    }
    board
}

/// Parses, validates, propagates and solves an `S9B` string.
pub fn analyse(s: &str) -> Result<Analysis, Failed<super::Error>> {
    let cells = decode(s)?;
    analyse_board(board(&cells), Format::VersionB).map_err(Failed::Board)
}

/// The `S9B` string of a stored puzzle, from its packed encoding.
pub fn write_stored(encoding: &str) -> Result<String, Failed<super::Error>> {
    Ok(encode(&from_board(&parse_packed(encoding)?)))
}

/// The contents of a parsed board.
pub fn from_board(board: &Sudoku) -> [Content; CELLS] {
    let mut out = [Content::Empty; CELLS];
    for (c, o) in Cell::all().zip(out.iter_mut()) {
        *o = Content::of(board.mask(c), board.is_given(c));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::puzzle::{self, Status, TypeHint};
    use crate::core::sudoku::corpus::{XWING_81, XWING_162, puzzles};
    use proptest::prelude::*;

    /// Real strings (tests/data/version_b/SOURCES.md), one per line after `#` notes.
    const REAL: &str = include_str!("../../../tests/data/version_b/sudoku_real.txt");

    fn real() -> impl Iterator<Item = &'static str> {
        REAL.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
    }

    #[test]
    fn content_values_cover_the_range_once() {
        for v in 0..=Content::MAX {
            let c = Content::from_value(v).unwrap();
            assert_eq!(c.value(), v);
        }
        assert_eq!(Content::from_value(530), None);
    }

    #[test]
    fn real_strings_reencode_byte_for_byte() {
        let mut n = 0;
        for s in real() {
            let cells = decode(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(encode(&cells), s);
            n += 1;
        }
        assert_eq!(n, 4);
    }

    #[test]
    fn the_easiest_sudoku_decodes_to_its_legacy_twin() {
        // SudokuWiki's "Easiest Sudoku", as its puzzle-coding test spells it.
        let legacy =
            "3..967..1.4.3.2.8..2.....7..7.....9....873...5...1...3..47.51..9.5...2.78..621..4";
        let s = real().next().unwrap();
        let cells = decode(s).unwrap();
        for (i, (c, l)) in cells.iter().zip(legacy.bytes()).enumerate() {
            match Digit::from_ascii(l) {
                Some(d) => assert_eq!(*c, Content::Given(d), "cell {i}"),
                None => assert_eq!(*c, Content::Candidates(Mask::ALL), "cell {i}"),
            }
        }
        let a = analyse(s).unwrap();
        let b = puzzle::analyse(legacy, TypeHint::Auto).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn hand_checked_positions_of_the_guide_decode_as_its_text_says() {
        // tests/data/version_b/SOURCES.md: the bent naked triple {5,6,9} in
        // G6, H4, J4 (rows G-J are 7-9), the 5 still in C4; r1c1 a solved 7.
        let s = real().nth(1).unwrap();
        let cells = decode(s).unwrap();
        let at = |r: usize, c: usize| cells[(r - 1) * 9 + (c - 1)];
        let set = |ds: &[u8]| ds.iter().filter_map(|&d| Digit::new(d)).collect::<Mask>();
        assert_eq!(at(7, 6), Content::Candidates(set(&[6, 9])));
        assert_eq!(at(8, 4), Content::Candidates(set(&[5, 6, 9])));
        assert_eq!(at(9, 4), Content::Candidates(set(&[5, 6, 9])));
        assert_eq!(at(3, 4), Content::Candidates(set(&[3, 5, 9])));
        assert_eq!(at(1, 1), Content::Solved(Digit::new(7).unwrap()));
        assert_eq!(at(1, 3), Content::Given(Digit::new(1).unwrap()));
        // The naked quad {1,3,4,9} of column 7, and the 3 of G9 it removes.
        let q = decode(real().nth(2).unwrap()).unwrap();
        let at = |r: usize, c: usize| q[(r - 1) * 9 + (c - 1)];
        for (r, ds) in [
            (4, &[4, 9][..]),
            (7, &[1, 3, 4, 9]),
            (8, &[1, 3, 4]),
            (9, &[1, 4, 9]),
        ] {
            assert_eq!(at(r, 7), Content::Candidates(set(ds)), "r{r}c7");
        }
        assert_eq!(at(7, 9), Content::Candidates(set(&[3, 4, 9])));
        // Both positions are sound and solve to one solution.
        for s in real().skip(1).take(2) {
            assert_eq!(analyse(s).unwrap().status.count(), 1, "{s}");
        }
    }

    #[test]
    fn corpus_puzzles_and_their_version_b_twins_analyse_alike() {
        let text = include_str!("../../../tests/data/classic/top1465.txt");
        let mut n = 0;
        for (p, _) in puzzles(text)
            .take(200)
            .chain([(XWING_81, ""), (XWING_162, "")])
        {
            let a = puzzle::analyse(p, TypeHint::Auto).unwrap();
            // The twin: the same board as read, givens, solved cells and all.
            let (board, _) = super::super::parse(p).unwrap();
            let twin = encode(&from_board(&board));
            assert_eq!(twin.len(), Kind::Sudoku.string_len());
            assert_eq!(puzzle::analyse(&twin, TypeHint::Auto).unwrap(), a, "{p}");
            // The stored puzzle written as version B reads back as itself.
            let stored = write_stored(&a.encoding).unwrap();
            assert_eq!(puzzle::analyse(&stored, TypeHint::Auto).unwrap(), a, "{p}");
            n += 1;
        }
        assert_eq!(n, 202);
    }

    #[test]
    fn bad_strings_name_the_cell_and_the_value() {
        let mut s = format!("S9B{}", "00".repeat(81));
        s.replace_range(3 + 2 * 10..3 + 2 * 11, "ev");
        let e = puzzle::analyse(&s, TypeHint::Auto).unwrap_err();
        assert_eq!(e.code(), "value");
        assert_eq!(
            e.to_string(),
            "sudoku version b: cell 10 (r2c2) is \"ev\" = 535, above the largest value 529"
        );
        let mut s = format!("S9B{}", "00".repeat(81));
        s.replace_range(3..5, "05");
        s.replace_range(3 + 2 * 8..3 + 2 * 9, "0e");
        let e = puzzle::analyse(&s, TypeHint::Auto).unwrap_err();
        assert_eq!(e.code(), "repeated-digit");
        assert_eq!(
            e.to_string(),
            "sudoku version b: digit 5 twice in row 1: r1c1 and r1c9"
        );
    }

    #[test]
    fn a_single_candidate_stays_a_candidate_in_the_string() {
        let mut s = format!("S9B{}", "00".repeat(81));
        // 18 + 16 = 34 = "0y": the candidate set {5}, not a solved 5 (14 = "0e").
        s.replace_range(3..5, "0y");
        let cells = decode(&s).unwrap();
        assert_eq!(cells[0], Content::Candidates(Digit::new(5).unwrap().mask()));
        assert_eq!(encode(&cells), s);
        let a = analyse(&s).unwrap();
        assert!(!a.given[0]);
        assert_eq!(a.clues, 0);
        assert!(matches!(a.status, Status::Multiple));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn any_legal_string_decodes_and_reencodes_byte_for_byte(
            values in prop::collection::vec(0..=Content::MAX, CELLS),
            upper in any::<bool>(),
        ) {
            let mut s = version_b::start(Kind::Sudoku);
            for v in values {
                push_field(v, 2, &mut s);
            }
            let cells = decode(&s).unwrap();
            prop_assert_eq!(encode(&cells), s.clone());
            // Input may be uppercase; output is always the canonical spelling.
            let read = if upper { s.to_ascii_uppercase() } else { s.clone() };
            prop_assert_eq!(encode(&decode(&read).unwrap()), s);
        }
    }
}
