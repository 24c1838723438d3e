//! Finding puzzles in an archive by their identity or canonical form, for
//! `find`: each lookup is an index read, never a scan.
//!
//! - By identity: [`crate::record::key_of`] of type and givens is where the
//!   unique index on `puzzles.key` is searched; a row there with other
//!   givens (a hash collision, stepped past on import) means "try
//!   [`crate::record::next_key`]", a free key means "not stored" (rows are
//!   never deleted, so no free key lies before a puzzle's own).
//! - By canonical form: [`crate::record::canonical_hash`] through the
//!   `puzzles_canonical_hash` index (the ids read from the index alone),
//!   then type and form compared on the rows shown (a hash collision costs
//!   a second look, never a false match). A form can be shared by many
//!   stored puzzles; only those shown are read.
//!
//! [`PLANS`] are the statements whose query plans a test checks for index
//! use (`EXPLAIN QUERY PLAN`).

use rusqlite::{Connection, OptionalExtension};

use super::ArchiveError;
use crate::core::puzzle::PuzzleType;
use crate::record::{canonical_hash, key_of, next_key};

/// A row by key, with the type and givens [`seek`] compares.
pub(super) const BY_KEY: &str = "SELECT p.id, p.type, p.givens FROM puzzles_by_key AS k JOIN puzzles AS p ON p.id = k.puzzle_id WHERE k.key = ?1";

/// Read from the index alone (it holds the hash and the row id).
const BY_HASH: &str = "SELECT id FROM puzzles WHERE canonical_hash = ?1 ORDER BY id";

const SAME_FORM: &str = "SELECT type = ?2 AND canonical = ?3 FROM puzzles WHERE id = ?1";

const PUZZLE: &str = "SELECT id, type, clues, givens, encoding, solutions, solution, canonical,
        import_id
    FROM puzzles WHERE id = ?1";

const SOURCES: &str = "SELECT f.path, s.line, s.relation, s.import_id
    FROM sources AS s JOIN files AS f ON f.id = s.file_id
    WHERE s.puzzle_id = ?1 ORDER BY s.import_id, s.file_id, s.line LIMIT ?2";

const SOURCE_COUNT: &str = "SELECT count(*) FROM sources WHERE puzzle_id = ?1";

/// The lookups, for a test of their query plans.
pub const PLANS: &[&str] = &[BY_KEY, BY_HASH, SAME_FORM, PUZZLE, SOURCES, SOURCE_COUNT];

/// A stored puzzle, as `find` shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Puzzle {
    pub id: i64,
    pub r#type: String,
    pub clues: i64,
    pub givens: String,
    pub encoding: String,
    pub solutions: i64,
    pub solution: Option<String>,
    pub canonical: Option<String>,
    /// The import that first stored it.
    pub import_id: i64,
}

/// One line a puzzle came from.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Source {
    pub file: String,
    pub line: i64,
    /// `exact`, or `isomorph` (the line was an isomorph of the puzzle).
    pub relation: String,
    pub import_id: i64,
}

fn sql(e: rusqlite::Error) -> ArchiveError {
    ArchiveError::sql("looking up a puzzle", e)
}

/// The id of the stored puzzle of this type and identity, if any.
pub fn by_identity(
    conn: &Connection,
    kind: PuzzleType,
    givens: &str,
) -> Result<Option<i64>, ArchiveError> {
    probe(
        conn,
        BY_KEY,
        kind.as_str(),
        givens,
        key_of(kind.as_str(), givens),
        |r| r.get(0),
    )
    .map_err(sql)
}

/// The row of the stored puzzle of this type and givens, looked for from
/// `key` up, or None: see [`seek`].
pub(super) fn probe<T>(
    conn: &Connection,
    select: &str,
    kind: &str,
    givens: &str,
    key: i64,
    read: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Option<T>> {
    seek(conn, select, kind, givens, key, read).map(Result::ok)
}

/// The puzzle of this type and givens, looked for from `key` up: a key
/// held by another puzzle means "step on", a free key "not stored". `Ok`
/// with what `read` takes of the matching row, or `Err` with the first
/// free key, where the puzzle is to be stored (rows are never deleted, so
/// no free key lies before a puzzle's own). `select` reads `puzzles`
/// `WHERE key = ?1` with the type and givens as its columns 1 and 2. The
/// statement's rows are dropped before it returns (no snapshot outlives
/// the lookup).
pub(super) fn seek<T>(
    conn: &Connection,
    select: &str,
    kind: &str,
    givens: &str,
    mut key: i64,
    read: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Result<T, i64>> {
    let mut statement = conn.prepare_cached(select)?;
    loop {
        let mut rows = statement.query([key])?;
        let Some(r) = rows.next()? else {
            return Ok(Err(key));
        };
        if r.get_ref(1)?.as_str()? == kind && r.get_ref(2)?.as_str()? == givens {
            return read(r).map(Ok);
        }
        key = next_key(key);
    }
}

/// The stored puzzles with this canonical form: the ids of the first
/// `limit` (in id order, each checked: type and form compared), and how
/// many puzzles share the form's hash in all (counted on the index alone;
/// a hash shared by another form, odds about 3 in 10^8 for a million
/// forms, would be counted too).
pub fn by_canonical(
    conn: &Connection,
    kind: PuzzleType,
    form: &str,
    limit: usize,
) -> Result<(Vec<i64>, u64), ArchiveError> {
    let ids: Vec<i64> = conn
        .prepare_cached(BY_HASH)
        .map_err(sql)?
        .query_map([canonical_hash(kind.as_str(), form)], |r| r.get(0))
        .map_err(sql)?
        .collect::<Result<_, _>>()
        .map_err(sql)?;
    let mut check = conn.prepare_cached(SAME_FORM).map_err(sql)?;
    let mut same = Vec::new();
    for &id in &ids {
        if same.len() == limit {
            break;
        }
        let matches: Option<bool> = check
            .query_row(rusqlite::params![id, kind.as_str(), form], |r| r.get(0))
            .optional()
            .map_err(sql)?;
        if matches == Some(true) {
            same.push(id);
        }
    }
    Ok((same, ids.len() as u64))
}

/// The stored puzzle `id`.
pub fn puzzle(conn: &Connection, id: i64) -> Result<Puzzle, ArchiveError> {
    conn.prepare_cached(PUZZLE)
        .map_err(sql)?
        .query_row([id], |r| {
            Ok(Puzzle {
                id: r.get(0)?,
                r#type: r.get(1)?,
                clues: r.get(2)?,
                givens: r.get(3)?,
                encoding: r.get(4)?,
                solutions: r.get(5)?,
                solution: r.get(6)?,
                canonical: r.get(7)?,
                import_id: r.get(8)?,
            })
        })
        .map_err(sql)
}

/// The first `limit` lines puzzle `id` came from (by import, file and
/// line), and how many there are in all.
pub fn sources(conn: &Connection, id: i64, limit: u32) -> Result<(Vec<Source>, i64), ArchiveError> {
    let total: i64 = conn
        .prepare_cached(SOURCE_COUNT)
        .map_err(sql)?
        .query_row([id], |r| r.get(0))
        .map_err(sql)?;
    let rows = conn
        .prepare_cached(SOURCES)
        .map_err(sql)?
        .query_map(rusqlite::params![id, limit], |r| {
            Ok(Source {
                file: r.get(0)?,
                line: r.get(1)?,
                relation: r.get(2)?,
                import_id: r.get(3)?,
            })
        })
        .map_err(sql)?
        .collect::<Result<_, _>>()
        .map_err(sql)?;
    Ok((rows, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each lookup reads an index (or the table by its key), never scans.
    #[test]
    fn every_lookup_is_an_index_read() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::migrate(&mut conn).unwrap();
        for sql in PLANS {
            let mut st = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let params: Vec<i64> = (1..=st.parameter_count() as i64).collect();
            let plan: Vec<String> = st
                .query_map(rusqlite::params_from_iter(params), |r| {
                    r.get::<_, String>(3)
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert!(!plan.is_empty(), "{sql}");
            for step in &plan {
                let indexed =
                    step.starts_with("SEARCH") || step.starts_with("USE TEMP B-TREE FOR ORDER BY");
                assert!(indexed, "{sql}: {step} (whole plan: {plan:?})");
            }
        }
    }
}
