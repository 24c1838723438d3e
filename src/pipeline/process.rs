//! One input item in, one [`Outcome`] out: decode the bytes, extract the
//! puzzle string, and run it through the domain core (parse, validate,
//! propagate, count, encode). Runs on the rayon workers, so it is pure and
//! allocation-light; the writer decides what is new and what is a duplicate.
//! What an outcome is, and the hashes a record carries, are the storage
//! contract's ([`crate::record`]), not this module's.
//!
//! Every stage's work is bounded, by counted steps and never by time, so the
//! outcome of a line does not depend on the machine: a line is at most
//! 4 KiB (`MAX_LINE`), parsing and validation are linear in it, propagation
//! removes at most 729 candidates, the solution count visits at most its
//! type's [`PuzzleType::search_limit`] nodes (`search-limit` beyond), and a
//! canonical form at most its type's steps (`canonical-limit` beyond; see
//! [`canon`]). A line's worst case is some tens of milliseconds.

use std::borrow::Cow;
use std::ops::Range;

use crate::core::canon::{self, CanonError};
use crate::core::killer::krazydad;
use crate::core::puzzle::{self, PuzzleType, Status};
use crate::input::extract::{Extracted, puzzle_token, puzzle_token_before_bad_bytes};
use crate::input::{Chunk, Item, ItemKind};
use crate::record::{Canonical, Known, Record, Rejection, key_of};
// The outcome and settings of a line, re-exported for the callers of
// [`process`].
pub use crate::record::{Outcome, Settings};

/// Finds stored puzzles for the workers, so that a re-run does not solve
/// again what the archive already holds.
pub trait Stored: Send + Sync {
    /// The id and canonical form of the stored puzzle with this key, type
    /// and givens. A failed lookup is `None`: the line is then analysed and
    /// the writer deduplicates it as usual.
    fn find(&self, kind: PuzzleType, givens: &str, key: i64) -> Option<(i64, Option<Canonical>)>;
}

fn reject(code: &'static str, message: impl Into<String>) -> Outcome {
    Outcome::Rejected(Rejection {
        code,
        message: message.into(),
    })
}

/// Analyses one puzzle string (already extracted from its line or field).
pub fn analyse_token(token: &str, settings: Settings) -> Outcome {
    match puzzle::analyse(token, settings.hint) {
        Err(e) => reject(e.code(), e.to_string()),
        Ok(a) => match a.status {
            Status::Contradiction(why) => reject(
                "contradiction",
                format!("{}: propagation reached a contradiction: {why}", a.kind),
            ),
            Status::GaveUp => reject(
                "search-limit",
                format!(
                    "{}: the solution count was not settled within {} search nodes",
                    a.kind,
                    a.kind.search_limit()
                ),
            ),
            Status::Unsolvable => reject(
                "unsolvable",
                format!("{}: the puzzle has no solution", a.kind),
            ),
            Status::Unique(_) | Status::Multiple => {
                let form = if settings.canonical {
                    match canon::of(a.kind, &a.givens) {
                        Ok(form) => Some(form),
                        // Too costly to settle: rejected like a solution
                        // count that reaches its limit, so that every
                        // puzzle an import with forms stores has one.
                        Err(e @ CanonError::Limit { .. }) => {
                            return reject(e.code(), e.to_string());
                        }
                        // A layout no map can write (more than 35 cage
                        // colours): stored, never an isomorph.
                        Err(_) => None,
                    }
                } else {
                    None
                };
                Outcome::Accepted(Box::new(Record::new(&a, form.as_deref())))
            }
        },
    }
}

/// The reject of a line whose puzzle is not UTF-8: `at` is the 0-based
/// offset of the first bad byte.
fn bad_utf8(at: usize) -> Outcome {
    reject(
        "encoding",
        format!("invalid UTF-8 at byte {} of the line", at + 1),
    )
}

/// Decodes a field's bytes as UTF-8, naming the first bad byte.
fn utf8(bytes: &[u8]) -> Result<&str, Outcome> {
    std::str::from_utf8(bytes).map_err(|e| bad_utf8(e.valid_up_to()))
}

/// A text line's puzzle string. The puzzle is judged by its own bytes:
/// trailing text after a separator is ignored whatever its encoding, and a
/// line is an `encoding` reject only when its bad bytes are in (or may be
/// in) the puzzle. A clean line (nearly all) is decoded once, as a whole.
fn line_token(bytes: &[u8]) -> Result<Extracted<'_>, Outcome> {
    match std::str::from_utf8(bytes) {
        Ok(line) => Ok(puzzle_token(line)),
        Err(e) => {
            let at = e.valid_up_to();
            // The prefix up to the first bad byte is valid UTF-8.
            let valid = std::str::from_utf8(&bytes[..at]).map_err(|_| bad_utf8(at))?;
            puzzle_token_before_bad_bytes(valid, &bytes[at..]).ok_or_else(|| bad_utf8(at))
        }
    }
}

/// The outcome of one item of a chunk. With `stored`, a line whose puzzle
/// the archive holds is [`Outcome::Known`] without being analysed.
pub fn process(
    chunk: &Chunk,
    item: &Item,
    settings: Settings,
    stored: Option<&dyn Stored>,
) -> Outcome {
    if let ItemKind::Krazydad { colour, hint } = &item.kind {
        return match krazydad_string(chunk, colour, hint) {
            Err(outcome) => outcome,
            Ok(s) => match stored.and_then(|st| known(&s, settings, st)) {
                Some(k) => Outcome::Known(Box::new(k)),
                None => analyse_token(&s, settings),
            },
        };
    }
    match token(chunk, item) {
        Err(outcome) => outcome,
        Ok(token) => match stored.and_then(|s| known(token, settings, s)) {
            Some(k) => Outcome::Known(Box::new(k)),
            None => analyse_token(token, settings),
        },
    }
}

/// A krazydad record's puzzle string, made from its two fields.
fn krazydad_string(
    chunk: &Chunk,
    colour: &Range<usize>,
    hint: &Range<usize>,
) -> Result<String, Outcome> {
    let c = utf8(chunk.bytes(colour))?;
    let h = utf8(chunk.bytes(hint))?;
    krazydad::killer_string(c, h).map_err(|e| reject(e.code(), e.to_string()))
}

/// An item's puzzle string as an import reads it (a krazydad record's made
/// from its fields), or its outcome when it has none: for the callers that
/// look strings up rather than analyse them (`find`).
pub fn puzzle_string<'a>(chunk: &'a Chunk, item: &Item) -> Result<Cow<'a, str>, Outcome> {
    match &item.kind {
        ItemKind::Krazydad { colour, hint } => krazydad_string(chunk, colour, hint).map(Cow::Owned),
        _ => token(chunk, item).map(Cow::Borrowed),
    }
}

/// The stored puzzle a token is, if its form says all there is to it.
pub fn known(token: &str, settings: Settings, stored: &dyn Stored) -> Option<Known> {
    let (kind, givens) = puzzle::identity(token, settings.hint)?;
    let (id, canonical) = stored.find(kind, &givens, key_of(kind.as_str(), &givens))?;
    Some(Known {
        id,
        kind,
        givens,
        canonical,
    })
}

/// An item's puzzle string, or its outcome when it has none. (A krazydad
/// record has no string to borrow: [`process`] makes one, and here it is
/// skipped.)
pub fn token<'a>(chunk: &'a Chunk, item: &Item) -> Result<&'a str, Outcome> {
    match &item.kind {
        ItemKind::Header | ItemKind::Part | ItemKind::Comment | ItemKind::Krazydad { .. } => {
            Err(Outcome::Skipped)
        }
        ItemKind::BadGrid(msg) => Err(reject("grid", msg.clone())),
        ItemKind::Grid(range) => Ok(utf8(chunk.bytes(range))?),
        ItemKind::BadRecord(msg) => Err(reject("csv", msg.clone())),
        ItemKind::TooLong { len, limit } => Err(reject(
            "too-long",
            format!("line is {len} bytes, longer than any puzzle string (limit {limit})"),
        )),
        ItemKind::Line => match line_token(chunk.bytes(&item.raw))? {
            Extracted::Skip => Err(Outcome::Skipped),
            Extracted::Puzzle(token) => Ok(token),
        },
        ItemKind::Field(range) => {
            let field = utf8(chunk.bytes(range))?;
            let field = field.trim_start_matches('\u{feff}').trim();
            if field.is_empty() {
                Err(reject("empty", "csv: the puzzle field is empty"))
            } else {
                Ok(field)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::puzzle::TypeHint;
    use crate::record::canonical_hash;

    /// The texts share one buffer: each must come back whole, and the
    /// absent ones absent.
    #[test]
    fn a_record_gives_back_each_text_it_was_made_of() {
        let puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let record = |canonical| match analyse_token(
            puzzle,
            Settings {
                hint: TypeHint::Auto,
                canonical,
            },
        ) {
            Outcome::Accepted(r) => r,
            o => panic!("{o:?}"),
        };
        let a = puzzle::analyse(puzzle, TypeHint::Auto).unwrap();
        let Status::Unique(solution) = &a.status else {
            panic!("{:?}", a.status)
        };
        let form = canon::of(PuzzleType::Sudoku, &a.givens).unwrap();
        let with = record(true);
        assert_eq!(with.givens(), a.givens);
        assert_eq!(with.encoding(), a.encoding);
        assert_eq!(with.solution(), Some(solution.as_str()));
        assert_eq!(with.solutions, 1);
        assert_eq!(
            with.canonical(),
            Some((form.as_str(), canonical_hash("sudoku", &form)))
        );
        assert_eq!(with.key, key_of("sudoku", &a.givens));
        let without = record(false);
        assert_eq!(without.canonical(), None);
        assert_eq!(without.encoding(), a.encoding);

        let multiple =
            "........1..2..3..45.....6..7..5.8..9..........1..6..2..8.1....7....4..3...9.2....";
        match analyse_token(multiple, Settings::default()) {
            Outcome::Accepted(r) => {
                assert_eq!((r.solutions, r.solution()), (2, None));
                assert_eq!(r.givens().len(), 81);
            }
            o => panic!("{o:?}"),
        }
    }

    /// A valid puzzle whose canonical form meets its bound is rejected with
    /// its own reason, and stored as usual when no form is asked for.
    #[test]
    fn a_form_past_its_bound_is_a_canonical_limit_reject() {
        let killer = crate::core::canon::killer_past_its_bound();
        let settings = |canonical| Settings {
            hint: TypeHint::Auto,
            canonical,
        };
        assert_eq!(
            analyse_token(&killer, settings(true)),
            Outcome::Rejected(Rejection {
                code: "canonical-limit",
                message: format!(
                    "killer legacy: the canonical form was not settled within {} candidate maps",
                    canon::KILLER_MAPS
                ),
            })
        );
        match analyse_token(&killer, settings(false)) {
            Outcome::Accepted(r) => {
                assert_eq!((r.solutions, r.canonical()), (1, None));
            }
            o => panic!("{o:?}"),
        }
    }
}
