//! What a processed line is, and the hashes that identify it in an
//! archive: the storage contract between the per-line stage (`pipeline`),
//! which makes [`Outcome`]s, and the archive (`archive`), which stores them.
//!
//! [`key_of`], [`next_key`] and [`canonical_hash`] are written into users'
//! archives (`puzzles.key`, `puzzles.canonical_hash`, and migration 0006
//! steps with [`next_key`]): their values must never change, and a test
//! pins them. This module depends on `core` only (and the hash crate), so
//! that both sides of the contract can depend on it without depending on
//! each other.

use xxhash_rust::xxh3::xxh3_64;

use crate::core::puzzle::{Analysis, PuzzleType, TypeHint};

/// A puzzle as an archive holds it, as a pass over stored puzzles hands it
/// to its work (`pipeline::pass`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPuzzle {
    pub id: i64,
    pub kind: PuzzleType,
    pub clues: u32,
    /// Its identity (`puzzles.givens`).
    pub givens: String,
    /// 0, 1 or 2 (more than one), as stored.
    pub solutions: u8,
}

/// One value a pass computes for a stored puzzle's column.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Real(f64),
    Text(String),
}

/// What a pass's work gives for one puzzle: a value per column it fills,
/// in the columns' order, or `None` when it cannot tell (the row keeps
/// NULL, and the next run of the pass tries it again).
pub type Values = Option<Vec<Value>>;

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
    pub(crate) fn new(a: &Analysis, form: Option<&str>) -> Record {
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
}
