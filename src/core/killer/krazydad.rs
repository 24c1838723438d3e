//! krazydad's Killer layout (docs/formats.md, "krazydad Killer CSV"): a
//! `puzz_color` of `K` and one letter per cell naming its cage (`A`-`Z`,
//! then `a`-`z`, in any order), and a `puzz_hint` of the cage sums in the
//! order of the letters (`11,25,14,...`). Pure: turns the two fields into a
//! Killer legacy string, which the rest of the core then reads as any other.

use super::{Error, Killer};
use crate::core::grid::CELLS;

/// Why a krazydad pair of fields is not a Killer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KrazydadError {
    #[error("krazydad puzz_color: expected K and 81 cage letters, found {len} characters")]
    Length { len: usize },
    #[error("krazydad puzz_color: character {pos} is {found:?}, expected a cage letter A-Z or a-z")]
    Letter { pos: usize, found: char },
    #[error("krazydad puzz_hint: sum {index} is {found:?}, expected a number from 1 to 45")]
    Sum { index: usize, found: String },
    #[error("krazydad: {letters} cage letters but {sums} sums in puzz_hint")]
    Count { letters: usize, sums: usize },
    #[error(transparent)]
    Killer(#[from] Error),
}

impl KrazydadError {
    /// The archive's `rejects.reason` for it.
    pub fn code(&self) -> &'static str {
        match self {
            KrazydadError::Killer(e) => e.code(),
            _ => "krazydad",
        }
    }
}

/// The Killer legacy string of a krazydad `puzz_color` and `puzz_hint`.
pub fn killer_string(colour: &str, hint: &str) -> Result<String, KrazydadError> {
    let letters = colour.trim().as_bytes();
    let cells = match letters {
        [b'K', cells @ ..] if cells.len() == CELLS => cells,
        _ => return Err(KrazydadError::Length { len: letters.len() }),
    };
    let mut cage_of = [0u8; CELLS];
    let mut used = 0usize;
    for (i, (&c, id)) in cells.iter().zip(cage_of.iter_mut()).enumerate() {
        *id = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => 26 + c - b'a',
            _ => {
                return Err(KrazydadError::Letter {
                    pos: i + 2,
                    found: char::from(c),
                });
            }
        };
        used = used.max(usize::from(*id) + 1);
    }
    let sums = hint
        .split(',')
        .enumerate()
        .map(|(i, s)| match s.trim().parse::<u8>() {
            Ok(v @ 1..=45) => Ok(v),
            _ => Err(KrazydadError::Sum {
                index: i + 1,
                found: s.trim().chars().take(20).collect(),
            }),
        })
        .collect::<Result<Vec<u8>, _>>()?;
    if sums.len() != used {
        return Err(KrazydadError::Count {
            letters: used,
            sums: sums.len(),
        });
    }
    Ok(Killer::from_cages(&cage_of, &sums)?.to_legacy())
}

/// krazydad's CSV rows (SOURCES.md "killer/"), read for the tests of the
/// Killer modules.
#[cfg(test)]
mod test_rows {
    use crate::core::grid::CELLS;

    /// The first 500 rows, the repository's own copy.
    pub const FIRST500: &str =
        include_str!("../../../tests/data/killer/krazydad_intermediate_first500.csv");

    /// One row: each cell's cage letter (A-Z then a-z, as 0..52), the sums
    /// in letter order, and the solution.
    pub struct Row {
        pub ids: [u8; CELLS],
        pub sums: Vec<u8>,
        pub solved: String,
    }

    /// The rows of a krazydad CSV, its header skipped.
    pub fn rows(text: &str) -> impl Iterator<Item = Row> + '_ {
        text.lines().skip(1).map(row)
    }

    pub fn row(line: &str) -> Row {
        let fields: Vec<&str> = line.splitn(6, ',').collect();
        let (layout, rest) = fields[5].split_once(",\"").unwrap();
        let (hints, rest) = rest.split_once("\",").unwrap();
        let solved = rest.split(',').next().unwrap().to_string();
        let mut ids = [0u8; CELLS];
        for (id, ch) in ids.iter_mut().zip(layout[1..].bytes()) {
            *id = if ch.is_ascii_uppercase() {
                ch - b'A'
            } else {
                26 + ch - b'a'
            };
        }
        let sums = hints.split(',').map(|h| h.parse().unwrap()).collect();
        Row { ids, sums, solved }
    }
}

#[cfg(test)]
pub(crate) use test_rows::{FIRST500, Row, row, rows};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_rows_give_the_legacy_strings_of_the_repository_copy() {
        let csv = include_str!("../../../tests/data/killer/krazydad_intermediate_first500.csv");
        let legacy =
            include_str!("../../../tests/data/killer/krazydad_intermediate_first500_legacy.txt");
        let mut rows = csv::ReaderBuilder::new().from_reader(csv.as_bytes());
        for (row, want) in rows.records().zip(legacy.lines()) {
            let row = row.unwrap();
            let got = killer_string(&row[5], &row[6]).unwrap();
            assert_eq!(
                Killer::parse(&got).unwrap().identity(),
                Killer::parse(want).unwrap().identity()
            );
        }
    }

    #[test]
    fn damaged_fields_name_what_is_wrong() {
        let ok = format!("K{}", "A".repeat(81));
        assert_eq!(
            killer_string("KAB", "1"),
            Err(KrazydadError::Length { len: 3 })
        );
        assert_eq!(
            killer_string(&ok.replace("KA", "K1"), "45"),
            Err(KrazydadError::Letter { pos: 2, found: '1' })
        );
        assert!(matches!(
            killer_string(&ok, "x"),
            Err(KrazydadError::Sum { index: 1, .. })
        ));
        assert_eq!(
            killer_string(&ok, "45,3"),
            Err(KrazydadError::Count {
                letters: 1,
                sums: 2
            })
        );
    }
}
