//! Killer Sudoku as a Version B string (`L9B` + 81 fields of four base-36
//! characters, docs/formats.md "Version B"): each field packs the cage's
//! colour, the cage sum written in the cell and the cell content,
//! `((colour - 1) << 16) | (sum << 10) | content`, where content is the
//! Sudoku cell transform (`sudoku::version_b::Content`).
//!
//! Cages are read as in the other forms: maximal orthogonally connected
//! groups of one colour, one sum each. Unlike the legacy and packed forms,
//! this one tells a given digit from a solved one, and the distinction is
//! kept: the puzzle's identity and clue count hold its cages and givens
//! only, while solved digits and candidates are progress that propagation
//! starts from. Pure: strings in, values out.

use super::{Form, Killer, format};
use crate::core::grid::CELLS;
use crate::core::mask::Digit;
use crate::core::sudoku::version_b::Content;
use crate::core::version_b::{
    self, Error, Failed, Kind, cell, field_text, push_field, read_fields,
};
use crate::core::vocabulary::Analysis;

impl From<super::Error> for Failed<super::Error> {
    fn from(e: super::Error) -> Self {
        Failed::Board(e)
    }
}

/// The largest colour: five colours draw any cage layout.
const SHAPES: u32 = super::COLOURS as u32;

/// One cell of an `L9B` string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KillerCell {
    /// The cage's colour, 1..=5.
    pub shape: u8,
    /// The sum written in this cell, 0 = none (a cage's sum sits at its first cell).
    pub sum: u8,
    pub content: Content,
}

impl KillerCell {
    fn value(self) -> u32 {
        (u32::from(self.shape - 1) << 16) | (u32::from(self.sum) << 10) | self.content.value()
    }
}

/// Reads an `L9B` string (header included) cell by cell.
pub fn decode(s: &str) -> Result<[KillerCell; CELLS], Error> {
    let values = read_fields(s, Kind::Killer)?;
    let mut out = [KillerCell {
        shape: 1,
        sum: 0,
        content: Content::Empty,
    }; CELLS];
    for (i, (o, &v)) in out.iter_mut().zip(&values).enumerate() {
        let text = || field_text(s, Kind::Killer, i);
        let (shape, sum, content) = ((v >> 16) + 1, (v >> 10) & 63, v & 1023);
        if shape > SHAPES {
            return Err(Error::Shape {
                cell: cell(i),
                text: text(),
                shape,
            });
        }
        if sum > u32::from(super::MAX_SUM) {
            return Err(Error::Sum {
                cell: cell(i),
                text: text(),
                sum,
            });
        }
        let Some(content) = Content::from_value(content) else {
            return Err(Error::Content {
                cell: cell(i),
                text: text(),
                content,
            });
        };
        *o = KillerCell {
            shape: shape as u8,
            sum: sum as u8,
            content,
        };
    }
    Ok(out)
}

/// Writes an `L9B` string: uppercase header, lowercase fields.
pub fn encode(cells: &[KillerCell; CELLS]) -> String {
    let mut out = version_b::start(Kind::Killer);
    for c in cells {
        push_field(c.value(), Kind::Killer.width(), &mut out);
    }
    out
}

/// Parses, validates, propagates and solves an `L9B` string.
///
/// Every placed digit (given or solved) is checked against the others;
/// what is stored is counted from the cages and givens alone, the solved
/// digits and candidates only checked against it (`killer::analyse_puzzle`).
pub fn analyse(s: &str) -> Result<Analysis, Failed<super::Error>> {
    let cells = decode(s)?;
    let full = Killer::from_parts(
        Form::VersionB,
        cells.map(|c| c.shape),
        cells.map(|c| c.sum),
        cells.map(|c| c.content.mask()),
    )?;
    let given = cells.map(|c| matches!(c.content, Content::Given(_)));
    Ok(super::analyse_puzzle(&full, Form::VersionB, given)?)
}

/// The `L9B` string of a stored puzzle: colours and sums from its packed
/// encoding, candidates and placed digits from the same, and which placed
/// digits are givens from its identity (`layout,sums[,digits]`).
pub fn write_stored(givens: &str, encoding: &str) -> Result<String, Failed<super::Error>> {
    let f = format::read(encoding)?;
    let digits = givens.split(',').nth(2).unwrap_or_default().as_bytes();
    let mut cells = [KillerCell {
        shape: 1,
        sum: 0,
        content: Content::Empty,
    }; CELLS];
    for (i, c) in cells.iter_mut().enumerate() {
        let given = digits.get(i).and_then(|&d| Digit::from_ascii(d));
        *c = KillerCell {
            shape: f.colour[i],
            sum: f.clue[i],
            content: match given {
                Some(d) => Content::Given(d),
                None => Content::of(f.cells[i], false),
            },
        };
    }
    Ok(encode(&cells))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::killer::krazydad;
    use crate::core::mask::Mask;
    use crate::core::puzzle::{self, PuzzleType, TypeHint};
    use proptest::prelude::*;

    /// SudokuWiki's "gentle example 1" (tests/data/version_b/killer_real.txt).
    const REAL: &str = include_str!("../../../tests/data/version_b/killer_real.txt");

    fn real() -> &'static str {
        REAL.lines()
            .find(|l| l.starts_with("L9B"))
            .unwrap_or_default()
    }

    /// The same puzzle by hand from the package's own test data: the cage
    /// layout in colours, the sums at each cage's first cell.
    const LAYOUT: &str =
        "112211211112122333231131231212331221212441321121141341133233142133244132131113332";
    const SUMS: [u8; CELLS] = [
        24, 0, 6, 0, 17, 0, 2, 10, 0, 0, 0, 0, 12, 10, 0, 23, 0, 0, 16, 8, 0, 0, 10, 20, 18, 0, 23,
        0, 7, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 10, 0, 0, 19, 6, 7, 0, 0, 0, 0, 12, 0, 0,
        24, 0, 15, 4, 0, 5, 0, 11, 0, 0, 0, 0, 12, 0, 0, 25, 0, 0, 0, 13, 0, 0, 0, 0, 0, 0,
    ];

    fn legacy_twin() -> String {
        let mut s = LAYOUT.to_owned();
        s.push(',');
        for sum in SUMS {
            s.push_str(&format!("{sum:02}"));
        }
        s
    }

    #[test]
    fn the_real_string_decodes_to_the_hand_written_puzzle_and_reencodes() {
        let s = real();
        let cells = decode(s).unwrap();
        assert_eq!(encode(&cells), s);
        for (i, c) in cells.iter().enumerate() {
            assert_eq!(c.shape, LAYOUT.as_bytes()[i] - b'0', "cell {i}");
            assert_eq!(c.sum, SUMS[i], "cell {i}");
            // SudokuWiki sends the three one-cell cages' digits as solved,
            // every other cell with all nine candidates.
            let expected = match i {
                6 => Content::Solved(Digit::new(2).unwrap()),
                19 => Content::Solved(Digit::new(8).unwrap()),
                46 => Content::Solved(Digit::new(6).unwrap()),
                _ => Content::Candidates(Mask::ALL),
            };
            assert_eq!(c.content, expected, "cell {i}");
        }
    }

    #[test]
    fn the_real_string_and_its_legacy_twin_are_the_same_puzzle() {
        let a = puzzle::analyse(real(), TypeHint::Auto).unwrap();
        let b = puzzle::analyse(&legacy_twin(), TypeHint::Auto).unwrap();
        assert_eq!(a.kind, PuzzleType::Killer);
        // Solved digits are progress, not givens: same identity and count.
        assert_eq!((&a.givens, a.clues, a.given), (&b.givens, b.clues, b.given));
        assert_eq!((&a.encoding, &a.status), (&b.encoding, &b.status));
        assert_eq!(a.status.count(), 1);
    }

    #[test]
    fn a_given_digit_stays_a_given_and_a_solved_one_does_not() {
        let mut cells = decode(real()).unwrap();
        let base = analyse(real()).unwrap();
        let solution = base.status.solution().unwrap().as_bytes();
        let five = Digit::from_ascii(solution[1]).unwrap();
        assert_eq!(five.get(), 5);
        // r1c2 in a 24 cage: a given 5 there, its digit in the solution.
        cells[1].content = Content::Given(five);
        let s = encode(&cells);
        assert_eq!(decode(&s).unwrap()[1].content, Content::Given(five));
        let a = analyse(&s).unwrap();
        assert_eq!(a.clues, base.clues + 1);
        assert_eq!(a.status, base.status);
        assert!(a.given[1] && !a.given[6]);
        assert!(a.givens.ends_with(&format!(",0500{}", "0".repeat(77))));
        // Written back from what the archive stores, the given is a given
        // again and the solved digits are solved.
        let back = write_stored(&a.givens, &a.encoding).unwrap();
        let again = decode(&back).unwrap();
        assert_eq!(again[1].content, Content::Given(five));
        assert_eq!(again[6].content, Content::Solved(Digit::new(2).unwrap()));
        assert_eq!(analyse(&back).unwrap(), a);
    }

    #[test]
    fn krazydad_puzzles_and_their_version_b_twins_analyse_alike() {
        let mut n = 0;
        for row in krazydad::rows(krazydad::FIRST500).take(60) {
            let k = Killer::from_cages(&row.ids, &row.sums).unwrap();
            let a = k.analysis();
            let stored = write_stored(&a.givens, &a.encoding).unwrap();
            assert_eq!(stored.len(), Kind::Killer.string_len());
            let b = puzzle::analyse(&stored, TypeHint::Auto).unwrap();
            assert_eq!(a, b);
            assert_eq!(encode(&decode(&stored).unwrap()), stored);
            n += 1;
        }
        assert_eq!(n, 60);
    }

    #[test]
    fn bad_fields_name_the_cell_and_the_value() {
        let mut cells = decode(real()).unwrap();
        cells[0].sum = 0;
        let mut s = encode(&cells);
        // colour 6: (5 << 16) = 327680 = "71ts".
        s.replace_range(3 + 4 * 2..3 + 4 * 3, "71ts");
        let e = puzzle::analyse(&s, TypeHint::Auto).unwrap_err();
        assert_eq!(
            (e.code(), e.to_string()),
            (
                "colour",
                "killer version b: cell 2 (r1c3) is \"71ts\": cage colour 6, expected 1 to 5"
                    .to_owned()
            )
        );
        // sum 46: 46 << 10 = 47104 = "10ug".
        s.replace_range(3 + 4 * 2..3 + 4 * 3, "10ug");
        let e = puzzle::analyse(&s, TypeHint::Auto).unwrap_err();
        assert_eq!(e.code(), "sum");
        assert_eq!(
            e.to_string(),
            "killer version b: cell 2 (r1c3) is \"10ug\": sum 46, at most 45"
        );
        // The cage of r1c1 lost its sum: a rule across cells, the killer error.
        let e = puzzle::analyse(&encode(&cells), TypeHint::Auto).unwrap_err();
        assert_eq!(e.code(), "cage-sum");
        assert!(
            e.to_string().starts_with("killer version b: cage at r1c1"),
            "{e}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn any_legal_field_decodes_and_reencodes_byte_for_byte(
            fields in prop::collection::vec((1..=5u8, 0..=45u8, 0..=Content::MAX), CELLS),
        ) {
            let mut s = version_b::start(Kind::Killer);
            for (shape, sum, content) in fields {
                let v = (u32::from(shape - 1) << 16) | (u32::from(sum) << 10) | content;
                push_field(v, 4, &mut s);
            }
            let cells = decode(&s).unwrap();
            prop_assert_eq!(encode(&cells), s.clone());
            prop_assert_eq!(encode(&decode(&s.to_ascii_uppercase()).unwrap()), s);
        }
    }
}
