//! One input item in, one [`Outcome`] out: decode the bytes, extract the
//! puzzle string, and run it through the domain core (parse, validate,
//! propagate, count, encode). Runs on the rayon workers, so it is pure and
//! allocation-light; the writer decides what is new and what is a duplicate.
//!
//! Every stage's work is bounded, by counted steps and never by time, so the
//! outcome of a line does not depend on the machine: a line is at most
//! 4 KiB (`MAX_LINE`), parsing and validation are linear in it, propagation
//! removes at most 729 candidates, the solution count visits at most its
//! type's [`PuzzleType::search_limit`] nodes (`search-limit` beyond), and a
//! canonical form at most its type's steps (`canonical-limit` beyond; see
//! [`canon`]). A line's worst case is some tens of milliseconds.

use xxhash_rust::xxh3::xxh3_64;

use crate::core::canon::{self, CanonError};
use crate::core::puzzle::{self, Analysis, PuzzleType, Status, TypeHint};
use crate::input::extract::{Extracted, puzzle_token, puzzle_token_before_bad_bytes};
use crate::input::{Chunk, Item, ItemKind};

/// A puzzle ready to store.
///
/// Its texts (identity, encoding, solution, canonical form) share one
/// allocation. Records are made on the workers and freed on another thread,
/// where freeing each allocation takes a lock on the heap of the worker that
/// made it, and the worker's next allocation cannot reuse it: one allocation
/// a line instead of five.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub kind: PuzzleType,
    pub clues: u32,
    pub solutions: u8,
    /// 64-bit hash of (type, givens): where the archive's unique key
    /// starts looking (see [`key_of`]).
    pub key: i64,
    /// The texts one after the other.
    texts: String,
    /// Where givens, encoding, solution and canonical form end in `texts`
    /// (the solution is empty unless `solutions` is 1).
    ends: [usize; 4],
    /// [`canonical_hash`] of the form, when there is a form.
    canonical_hash: Option<i64>,
}

impl Record {
    /// The record of an analysed puzzle whose count is settled (a unique
    /// solution or several), with its canonical form if there is one.
    fn new(a: &Analysis, form: Option<&str>) -> Record {
        let solution = a.status.solution().unwrap_or_default();
        let parts = [
            a.givens.as_str(),
            &a.encoding,
            solution,
            form.unwrap_or_default(),
        ];
        let mut texts = String::with_capacity(parts.iter().map(|t| t.len()).sum());
        let mut ends = [0; 4];
        for (end, text) in ends.iter_mut().zip(parts) {
            texts.push_str(text);
            *end = texts.len();
        }
        Record {
            kind: a.kind,
            clues: a.clues,
            solutions: a.status.count(),
            key: key_of(a.kind.as_str(), &a.givens),
            texts,
            ends,
            canonical_hash: form.map(|form| canonical_hash(a.kind.as_str(), form)),
        }
    }

    fn text(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.texts[start..self.ends[i]]
    }

    /// The puzzle's identity (`puzzles.givens`).
    pub fn givens(&self) -> &str {
        self.text(0)
    }

    /// The packed string of the propagated board.
    pub fn encoding(&self) -> &str {
        self.text(1)
    }

    /// The unique solution, if the puzzle has exactly one.
    pub fn solution(&self) -> Option<&str> {
        (self.solutions == 1).then(|| self.text(2))
    }

    /// The canonical form and its hash, when computed.
    pub fn canonical(&self) -> Option<(&str, i64)> {
        self.canonical_hash.map(|hash| (self.text(3), hash))
    }
}

/// A puzzle's isomorph canonical form and the hash the archive indexes it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    pub form: String,
    /// [`canonical_hash`] of the type and form.
    pub hash: i64,
}

impl Canonical {
    /// The form and hash, borrowed, as [`Record::canonical`] gives them.
    pub fn parts(&self) -> (&str, i64) {
        (&self.form, self.hash)
    }
}

/// What the per-line stage does besides the checks every line gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub hint: TypeHint,
    /// Compute each puzzle's isomorph canonical form (the costliest step
    /// after solving; `import --no-canonical` leaves it for later).
    pub canonical: bool,
}

/// Why a line was rejected: a stable code and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub code: &'static str,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Blank, comment or header line.
    Skipped,
    Accepted(Box<Record>),
    /// Already in the archive: recognised by its identity, not analysed again.
    Known(Box<Known>),
    Rejected(Rejection),
}

/// A line whose puzzle the archive already holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    /// The stored puzzle's `puzzles.id`.
    pub id: i64,
    pub kind: PuzzleType,
    pub givens: String,
    /// The stored canonical form, if it has one.
    pub canonical: Option<Canonical>,
}

/// Finds stored puzzles for the workers, so that a re-run does not solve
/// again what the archive already holds.
pub trait Stored: Send + Sync {
    /// The id and canonical form of the stored puzzle with this key, type
    /// and givens. A failed lookup is `None`: the line is then analysed and
    /// the writer deduplicates it as usual.
    fn find(&self, kind: PuzzleType, givens: &str, key: i64) -> Option<(i64, Option<Canonical>)>;
}

/// The hash behind a puzzle's unique key (`puzzles.key`): 64 bits of the
/// type and identity string. A puzzle is stored under the first key from
/// this one up (wrapping) that no other puzzle holds, so lookups step on
/// while they find other puzzles and stop at a free key: rows are never
/// deleted, so no free key ever lies before a puzzle's own.
pub fn key_of(kind: &str, givens: &str) -> i64 {
    // The bits as SQLite's signed integer.
    tagged(kind, givens, xxh3_64) as i64
}

/// The key tried after `key` when another puzzle holds it: the next one up,
/// wrapping. The writer, the workers' lookups and the upgrade to integer
/// keys (migration 0006) all step with this.
pub fn next_key(key: i64) -> i64 {
    key.wrapping_add(1)
}

/// `puzzles.canonical_hash`: 64 bits of (type, canonical form), the index
/// isomorph lookups go through (they then compare the form itself).
pub fn canonical_hash(kind: &str, form: &str) -> i64 {
    // The bits as SQLite's signed integer.
    tagged(kind, form, xxh3_64) as i64
}

/// The bytes both hashes take: the type name, a NUL, the text.
/// Built on the stack when it fits (every identity and form of the three
/// types does): two heap allocations a line fewer on the workers.
fn tagged<T>(kind: &str, text: &str, hash: impl Fn(&[u8]) -> T) -> T {
    let len = kind.len() + 1 + text.len();
    let mut stack = [0u8; 512];
    let mut heap = Vec::new();
    let buf = match stack.get_mut(..len) {
        Some(buf) => buf,
        None => {
            heap.resize(len, 0);
            &mut heap[..]
        }
    };
    let (head, rest) = buf.split_at_mut(kind.len());
    head.copy_from_slice(kind.as_bytes());
    rest[0] = 0;
    rest[1..].copy_from_slice(text.as_bytes());
    hash(buf)
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
    match token(chunk, item) {
        Err(outcome) => outcome,
        Ok(token) => match stored.and_then(|s| known(token, settings, s)) {
            Some(k) => Outcome::Known(Box::new(k)),
            None => analyse_token(token, settings),
        },
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

/// An item's puzzle string, or its outcome when it has none.
pub fn token<'a>(chunk: &'a Chunk, item: &Item) -> Result<&'a str, Outcome> {
    match &item.kind {
        ItemKind::Header => Err(Outcome::Skipped),
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

    /// The hashes are stored in archives: they must never change.
    #[test]
    fn keys_and_canonical_hashes_are_the_hashes_of_type_nul_text() {
        let givens = "1".repeat(81);
        let long = "2".repeat(600); // past the stack buffer
        for text in [&givens, &long, &String::new()] {
            let bytes = |kind: &str| [kind.as_bytes(), b"\0", text.as_bytes()].concat();
            assert_eq!(key_of("killer", text), xxh3_64(&bytes("killer")) as i64);
            assert_eq!(
                canonical_hash("str8ts", text),
                xxh3_64(&bytes("str8ts")) as i64
            );
        }
        // One value written down, so that the definition itself is pinned.
        assert_eq!(canonical_hash("sudoku", "c"), 6_458_787_727_004_533_822);
    }

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
