//! Finding puzzles in an archive by their identity or canonical form, for
//! `find`: each lookup is an index read, never a scan, through the lookup
//! tables `puzzles_by_key` and `puzzles_by_form` (migration 0012), never
//! through `puzzles`' own columns.
//!
//! It owns the invariant every writer keeps and the tests check
//! ([`invariant_breaks`]): each puzzle has one `puzzles_by_key` row (its
//! `key`) and, with a `canonical_hash`, one `puzzles_by_form` row, and no
//! free key lies between a puzzle's hash and its key. [`plans`] are the
//! statements whose query plans a test checks. It writes nothing. In full:
//! docs/architecture.md "Module notes".

use rusqlite::{Connection, OptionalExtension};

use super::{ArchiveError, puzzle_row};
use crate::core::puzzle::PuzzleType;
use crate::record::{canonical_hash, key_of, next_key};

/// A row by key, with the type and givens [`seek`] compares.
pub(super) const BY_KEY: &str = "SELECT p.id, p.type, p.givens
    FROM puzzles_by_key AS k JOIN puzzles AS p ON p.id = k.puzzle_id
    WHERE k.key = ?1";

/// Read from `puzzles_by_form` alone (its key is the hash, then the id).
const BY_HASH: &str =
    "SELECT puzzle_id FROM puzzles_by_form WHERE canonical_hash = ?1 ORDER BY puzzle_id";

const SAME_FORM: &str = "SELECT type = ?2 AND canonical = ?3 FROM puzzles WHERE id = ?1";

const SOURCES: &str = "SELECT f.path, s.line, s.relation, s.import_id
    FROM sources AS s JOIN files AS f ON f.id = s.file_id
    WHERE s.puzzle_id = ?1 ORDER BY s.import_id, s.file_id, s.line LIMIT ?2";

const SOURCE_COUNT: &str = "SELECT count(*) FROM sources WHERE puzzle_id = ?1";

/// The lookups, for a test of their query plans.
pub fn plans() -> [&'static str; 6] {
    [
        BY_KEY,
        BY_HASH,
        SAME_FORM,
        &puzzle_row::BY_ID,
        SOURCES,
        SOURCE_COUNT,
    ]
}

/// The lookup tables' invariant (see the module doc), as queries that each
/// list the rows breaking one side of it, one text a row: what
/// [`invariant_breaks`] runs. Each reads whole tables: for tests and for a
/// user who suspects a damaged archive, not for the import's path.
pub const INVARIANT: &[(&str, &str)] = &[
    (
        "puzzles sharing a key",
        "SELECT 'key ' || key || ': puzzles ' || group_concat(id, ', ')
         FROM puzzles GROUP BY key HAVING count(*) > 1",
    ),
    (
        "puzzles whose key is not theirs in puzzles_by_key",
        "SELECT 'puzzle ' || p.id || ', key ' || p.key || ': '
                || ifnull('puzzles_by_key gives puzzle ' || k.puzzle_id, 'not in puzzles_by_key')
         FROM puzzles AS p LEFT JOIN puzzles_by_key AS k ON k.key = p.key
         WHERE k.puzzle_id IS NOT p.id",
    ),
    (
        "puzzles_by_key rows that are not their puzzle's key",
        "SELECT 'key ' || k.key || ' -> puzzle ' || k.puzzle_id || ': '
                || ifnull('its key is ' || p.key, 'no such puzzle')
         FROM puzzles_by_key AS k LEFT JOIN puzzles AS p ON p.id = k.puzzle_id
         WHERE p.key IS NOT k.key",
    ),
    (
        "puzzles whose canonical hash is not in puzzles_by_form",
        "SELECT 'puzzle ' || p.id || ', canonical_hash ' || p.canonical_hash
         FROM puzzles AS p
         WHERE p.canonical_hash IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM puzzles_by_form AS f
             WHERE f.canonical_hash = p.canonical_hash AND f.puzzle_id = p.id)",
    ),
    (
        "puzzles_by_form rows that are not their puzzle's canonical hash",
        "SELECT 'canonical_hash ' || f.canonical_hash || ' -> puzzle ' || f.puzzle_id || ': '
                || CASE WHEN p.id IS NULL THEN 'no such puzzle'
                        ELSE 'its hash is ' || ifnull(p.canonical_hash, 'NULL') END
         FROM puzzles_by_form AS f LEFT JOIN puzzles AS p ON p.id = f.puzzle_id
         WHERE p.canonical_hash IS NOT f.canonical_hash",
    ),
    (
        "row counts that differ",
        "SELECT 'puzzles ' || a || ', puzzles_by_key ' || b || ', with a canonical hash '
                || c || ', puzzles_by_form ' || d
         FROM (SELECT (SELECT count(*) FROM puzzles) AS a,
                      (SELECT count(*) FROM puzzles_by_key) AS b,
                      (SELECT count(*) FROM puzzles WHERE canonical_hash IS NOT NULL) AS c,
                      (SELECT count(*) FROM puzzles_by_form) AS d)
         WHERE a != b OR c != d",
    ),
];

/// What breaks the lookup tables' invariant ([`INVARIANT`]): for each
/// query that finds rows, its name and up to ten of them; empty when it
/// holds.
pub fn invariant_breaks(conn: &Connection) -> Result<Vec<String>, ArchiveError> {
    let e = |e| ArchiveError::sql("checking the lookup tables", e);
    let mut breaks = Vec::new();
    for (what, select) in INVARIANT {
        let rows: Vec<String> = conn
            .prepare(&format!("{select} LIMIT 10"))
            .map_err(e)?
            .query_map([], |r| r.get(0))
            .map_err(e)?
            .collect::<Result<_, _>>()
            .map_err(e)?;
        if !rows.is_empty() {
            breaks.push(format!("{what}: {}", rows.join("; ")));
        }
    }
    Ok(breaks)
}

/// A stored puzzle, as `find` shows it.
pub use super::puzzle_row::Puzzle;

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
/// no free key lies before a puzzle's own). `select` reads the puzzle of
/// key `?1` (through `puzzles_by_key`, as [`BY_KEY`] does) with the type
/// and givens as its columns 1 and 2. The
/// statement's rows are dropped before it returns (no snapshot outlives
/// the lookup).
pub(super) fn seek<T>(
    conn: &Connection,
    select: &str,
    kind: &str,
    givens: &str,
    key: i64,
    read: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Result<T, i64>> {
    let mut statement = conn.prepare_cached(select)?;
    walk(key, |key| held_at(&mut statement, kind, givens, key, &read))
}

/// What holds `key` in the archive, as `select` (see [`seek`]) reads it;
/// the row is dropped before it returns.
pub(super) fn held_at<T>(
    select: &mut rusqlite::Statement<'_>,
    kind: &str,
    givens: &str,
    key: i64,
    read: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Holder<T>> {
    let mut rows = select.query([key])?;
    let Some(r) = rows.next()? else {
        return Ok(Holder::Free);
    };
    if r.get_ref(1)?.as_str()? == kind && r.get_ref(2)?.as_str()? == givens {
        read(r).map(Holder::Sought)
    } else {
        Ok(Holder::Other)
    }
}

/// What holds a key, for [`walk`].
pub(super) enum Holder<T> {
    /// Nothing: the puzzle is not stored, and goes here.
    Free,
    /// The puzzle looked for (what the caller takes of it).
    Sought(T),
    /// Another puzzle whose hash was the same: step on.
    Other,
}

/// The key walk every lookup by identity makes: from `key` up, asking
/// `at` what holds each key, stepping past other puzzles with
/// [`next_key`]. `Ok` with the puzzle looked for, or `Err` with the first
/// free key. [`seek`] asks the archive; an import or a merge asks its open
/// batch first, then the archive ([`super::pending::Pending::walk`]).
pub(super) fn walk<T, E>(
    mut key: i64,
    mut at: impl FnMut(i64) -> Result<Holder<T>, E>,
) -> Result<Result<T, i64>, E> {
    loop {
        match at(key)? {
            Holder::Free => return Ok(Err(key)),
            Holder::Sought(found) => return Ok(Ok(found)),
            Holder::Other => key = next_key(key),
        }
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
    puzzle_row::by_id(conn, id).map_err(sql)
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

/// For the library's tests: the invariant checked on a connection.
#[cfg(test)]
pub(crate) mod invariant {
    use rusqlite::Connection;

    /// Panics with the rows that break the lookup tables' invariant.
    pub(crate) fn assert_holds(conn: &Connection) {
        let breaks = super::invariant_breaks(conn).unwrap();
        assert!(breaks.is_empty(), "lookup tables: {}", breaks.join("\n"));
    }
}

/// For the library's tests: what a statement's query plan reads.
#[cfg(test)]
pub(crate) mod plan {
    use rusqlite::{Connection, Params};

    /// The steps of `EXPLAIN QUERY PLAN` of `sql`, `params` bound.
    pub(crate) fn of(conn: &Connection, sql: &str, params: impl Params) -> Vec<String> {
        conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap()
            .query_map(params, |r| r.get(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    /// The same, its parameters bound to 1, 2, ...
    pub(crate) fn numbered(conn: &Connection, sql: &str) -> Vec<String> {
        let count = conn.prepare(sql).unwrap().parameter_count() as i64;
        of(conn, sql, rusqlite::params_from_iter(1..=count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use plan::numbered as plan;

    /// Each lookup reads an index (or the table by its key), never scans.
    #[test]
    fn every_lookup_is_an_index_read() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::migrate(&mut conn).unwrap();
        for sql in plans() {
            let plan = plan(&conn, sql);
            assert!(!plan.is_empty(), "{sql}");
            for step in &plan {
                let indexed =
                    step.starts_with("SEARCH") || step.starts_with("USE TEMP B-TREE FOR ORDER BY");
                assert!(indexed, "{sql}: {step} (whole plan: {plan:?})");
            }
        }
        // The two lookups go through their tables' primary keys, and read
        // the hash's ids in order from `puzzles_by_form` alone.
        assert_eq!(
            plan(&conn, BY_KEY),
            [
                "SEARCH k USING INTEGER PRIMARY KEY (rowid=?)",
                "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"
            ]
        );
        assert_eq!(
            plan(&conn, BY_HASH),
            ["SEARCH puzzles_by_form USING PRIMARY KEY (canonical_hash=?)"]
        );
    }

    /// A key stepped past a collision and a puzzle without a form are
    /// found as stored; each break of the invariant is named with its rows.
    #[test]
    fn lookups_go_through_the_tables_and_the_invariant_check_names_what_breaks_it() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::migrate(&mut conn).unwrap();
        let key = key_of("sudoku", "mine");
        let form = canonical_hash("sudoku", "f");
        conn.execute_batch(&format!(
            "INSERT INTO imports (id, arguments) VALUES (1, '[]');
             INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key,
                                  canonical, canonical_hash)
                 VALUES (1, 'sudoku', 1, 'other', 'e', 2, 1, {key}, 'f', {form}),
                        (2, 'sudoku', 1, 'mine', 'e', 2, 1, {}, 'f', {form}),
                        (3, 'killer', 1, 'mine', 'e', 2, 1, {}, NULL, NULL);
             INSERT INTO puzzles_by_key (key, puzzle_id) SELECT key, id FROM puzzles;
             INSERT INTO puzzles_by_form (canonical_hash, puzzle_id)
                 SELECT canonical_hash, id FROM puzzles WHERE canonical_hash IS NOT NULL;",
            next_key(key),
            key_of("killer", "mine"),
        ))
        .unwrap();
        invariant::assert_holds(&conn);
        let id = |kind, givens| by_identity(&conn, kind, givens).unwrap();
        assert_eq!(id(PuzzleType::Sudoku, "mine"), Some(2));
        assert_eq!(id(PuzzleType::Killer, "mine"), Some(3));
        assert_eq!(id(PuzzleType::Sudoku, "none"), None);
        assert_eq!(id(PuzzleType::Killer, "other"), None);
        assert_eq!(
            by_canonical(&conn, PuzzleType::Sudoku, "f", 10).unwrap(),
            (vec![1, 2], 2)
        );
        assert_eq!(
            by_canonical(&conn, PuzzleType::Killer, "f", 10).unwrap(),
            (vec![], 0)
        );

        conn.execute_batch(&format!(
            "DELETE FROM puzzles_by_key WHERE puzzle_id = 3;
             INSERT INTO puzzles_by_key (key, puzzle_id) VALUES (7, 2);
             DELETE FROM puzzles_by_form WHERE puzzle_id = 1;
             INSERT INTO puzzles_by_form (canonical_hash, puzzle_id) VALUES ({form}, 3);"
        ))
        .unwrap();
        let breaks = invariant_breaks(&conn).unwrap();
        let killer = key_of("killer", "mine");
        assert_eq!(
            breaks,
            [
                format!(
                    "puzzles whose key is not theirs in puzzles_by_key: puzzle 3, key {killer}: not in puzzles_by_key"
                ),
                format!(
                    "puzzles_by_key rows that are not their puzzle's key: key 7 -> puzzle 2: its key is {}",
                    next_key(key)
                ),
                format!(
                    "puzzles whose canonical hash is not in puzzles_by_form: puzzle 1, canonical_hash {form}"
                ),
                format!(
                    "puzzles_by_form rows that are not their puzzle's canonical hash: canonical_hash {form} -> puzzle 3: its hash is NULL"
                ),
            ]
        );
        // Two puzzles under one key, and a form row without its puzzle.
        conn.execute_batch(&format!(
            "PRAGMA foreign_keys = OFF;
             UPDATE puzzles SET key = {key} WHERE id = 2;
             INSERT INTO puzzles_by_form (canonical_hash, puzzle_id) VALUES (5, 9);"
        ))
        .unwrap();
        let breaks = invariant_breaks(&conn).unwrap();
        assert_eq!(
            breaks[0],
            format!("puzzles sharing a key: key {key}: puzzles 1, 2")
        );
        assert!(
            breaks
                .iter()
                .any(|b| b.ends_with("canonical_hash 5 -> puzzle 9: no such puzzle")),
            "{breaks:?}"
        );
        assert!(
            breaks.iter().any(|b| b.starts_with("row counts that differ: puzzles 3, puzzles_by_key 3, with a canonical hash 2, puzzles_by_form 3")),
            "{breaks:?}"
        );
    }
}
