//! krazydad's Killer layout (`../shared/FORMATS.md`, "Other layouts"): a
//! `puzz_color` of `K` and one letter per cell naming its cage (`A`-`Z`,
//! then `a`-`z`, in any order), and a `puzz_hint` of the cage sums in the
//! order of the letters (`11,25,14,...`). Pure: turns the two fields into a
//! Killer legacy string, which the rest of the core then reads as any other.

use super::grid::CELLS;
use super::killer::{self, Killer};

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
    Killer(#[from] killer::Error),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_rows_give_the_legacy_strings_of_the_repository_copy() {
        let csv = include_str!("../../tests/data/killer/krazydad_intermediate_first500.csv");
        let legacy =
            include_str!("../../tests/data/killer/krazydad_intermediate_first500_legacy.txt");
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
