//! Filling `puzzles.canonical` and `canonical_hash` for rows that have none
//! (archives upgraded from schemas 1 and 2, rows imported with
//! `--no-canonical`). Fills run inside the caller's transaction, in
//! batches, computing on all cores; the hash is the pipeline's, so both
//! paths index a form alike. Each form is bounded as in the pipeline
//! (`canon`'s limits: tens of milliseconds a row at most); a row whose form
//! reaches the limit, which only a `--no-canonical` import can have stored,
//! keeps NULL like one no map can write, is never an isomorph, and is tried
//! again, at the same bounded cost, by the next fill.
//!
//! Each hash set on a row also goes into `puzzles_by_form`, in the same
//! transaction, a batch's entries in hash order: the lookup tables'
//! invariant ([`super::lookup`]). Migration 0003 runs these fills on very
//! old archives before 0012 has created that table (0012 then builds it
//! from the column); so the table is written only when it exists.

use rayon::prelude::*;
use rusqlite::{Connection, params};

use super::ArchiveError;
use super::pending::write_forms;
use crate::core::canon;
use crate::core::puzzle::PuzzleType;
use crate::record::canonical_hash as hash;

const BATCH: usize = 20_000;

/// A selected row: id, type, and the text to work on.
type Row = (i64, String, String);

/// Runs `each` over the rows `select` picks, `BATCH` at a time in id order
/// so memory stays flat; `select` takes `?1`, the last id seen, and `?2`,
/// the batch size. Returns the sum of what `each` returns.
fn in_batches(
    conn: &Connection,
    select: &str,
    what: &str,
    mut each: impl FnMut(&[Row]) -> Result<u64, ArchiveError>,
) -> Result<u64, ArchiveError> {
    let e = |e| ArchiveError::sql(what, e);
    let mut select = conn.prepare(select).map_err(e)?;
    let (mut after, mut done) = (0i64, 0u64);
    loop {
        let rows: Vec<Row> = select
            .query_map(params![after, BATCH as i64], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .map_err(e)?
            .collect::<Result<_, _>>()
            .map_err(e)?;
        let Some(last) = rows.last() else {
            return Ok(done);
        };
        after = last.0;
        done += each(&rows)?;
    }
}

/// Whether `puzzles_by_form` exists yet (not during migration 0003).
fn form_table_exists(conn: &Connection, what: &str) -> Result<bool, ArchiveError> {
    conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'puzzles_by_form'",
        [],
        |r| r.get(0),
    )
    .map_err(|e| ArchiveError::sql(what, e))
}

/// Adds a batch's `(hash, id)` entries to `puzzles_by_form` when it exists.
fn add_forms(
    conn: &Connection,
    exists: bool,
    mut entries: Vec<(i64, i64)>,
    what: &str,
) -> Result<(), ArchiveError> {
    if !exists {
        return Ok(());
    }
    write_forms(conn, &mut entries).map_err(|e| ArchiveError::sql(what, e))
}

/// Computes `canonical_hash` for rows that have a form but no hash yet
/// (archives upgraded from schema 2). Returns how many rows were filled.
pub fn fill_hashes(conn: &Connection) -> Result<u64, ArchiveError> {
    const WHAT: &str = "indexing canonical forms";
    let mut update = conn
        .prepare("UPDATE puzzles SET canonical_hash = ?2 WHERE id = ?1")
        .map_err(|e| ArchiveError::sql(WHAT, e))?;
    let by_form = form_table_exists(conn, WHAT)?;
    in_batches(
        conn,
        "SELECT id, type, canonical FROM puzzles
         WHERE canonical IS NOT NULL AND canonical_hash IS NULL AND id > ?1
         ORDER BY id LIMIT ?2",
        WHAT,
        |rows| {
            let mut entries = Vec::with_capacity(rows.len());
            for (id, kind, form) in rows {
                let h = hash(kind, form);
                update
                    .execute(params![id, h])
                    .map_err(|e| ArchiveError::sql(WHAT, e))?;
                entries.push((h, *id));
            }
            add_forms(conn, by_form, entries, WHAT)?;
            Ok(rows.len() as u64)
        },
    )
}

/// Computes and stores the canonical form of every puzzle that lacks one.
/// Returns how many rows were filled.
pub fn fill_missing(conn: &Connection) -> Result<u64, ArchiveError> {
    const WHAT: &str = "filling canonical forms";
    let mut update = conn
        .prepare("UPDATE puzzles SET canonical = ?2, canonical_hash = ?3 WHERE id = ?1")
        .map_err(|e| ArchiveError::sql(WHAT, e))?;
    let by_form = form_table_exists(conn, WHAT)?;
    in_batches(
        conn,
        "SELECT id, type, givens FROM puzzles WHERE canonical IS NULL AND id > ?1
         ORDER BY id LIMIT ?2",
        WHAT,
        |rows| {
            let forms: Vec<(i64, Option<String>)> = rows
                .par_iter()
                .map(|(id, kind, givens)| {
                    let form = PuzzleType::from_name(kind).and_then(|k| canon::of(k, givens).ok());
                    (*id, form)
                })
                .collect();
            let mut entries = Vec::with_capacity(rows.len());
            for ((id, form), (_, kind, _)) in forms.iter().zip(rows) {
                // A puzzle whose form cannot be computed keeps NULL and is never an isomorph.
                if let Some(form) = form {
                    let h = hash(kind, form);
                    update
                        .execute(params![id, form, h])
                        .map_err(|e| ArchiveError::sql(WHAT, e))?;
                    entries.push((h, *id));
                }
            }
            let filled = entries.len() as u64;
            add_forms(conn, by_form, entries, WHAT)?;
            Ok(filled)
        },
    )
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::*;
    use crate::archive::lookup::{by_canonical, invariant};
    use crate::record::key_of;

    const STORED: &str =
        "400000805030000000000700000020000060000080400000010000000603070500200000104000000";

    /// Rows without a form (as `--no-canonical` stores them) get it, its
    /// hash, and their `puzzles_by_form` rows; one whose form cannot be
    /// computed keeps NULL and has none.
    #[test]
    fn a_fill_adds_the_forms_to_the_isomorph_table() {
        let mut c = Connection::open_in_memory().unwrap();
        crate::archive::schema::migrate(&mut c).unwrap();
        let transposed: String = (0..81)
            .map(|i| STORED.as_bytes()[(i % 9) * 9 + i / 9] as char)
            .collect();
        c.execute("INSERT INTO imports (id, arguments) VALUES (1, '[]')", [])
            .unwrap();
        for (id, kind, givens) in [
            (1, "sudoku", STORED),
            (2, "str8ts", "not a str8ts"),
            (3, "sudoku", transposed.as_str()),
        ] {
            c.execute(
                "INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key)
                 VALUES (?1, ?2, 17, ?3, 'e', 1, 1, ?4)",
                params![id, kind, givens, key_of(kind, givens)],
            )
            .unwrap();
        }
        c.execute_batch("INSERT INTO puzzles_by_key (key, puzzle_id) SELECT key, id FROM puzzles")
            .unwrap();
        invariant::assert_holds(&c);
        assert_eq!(fill_missing(&c).unwrap(), 2);
        invariant::assert_holds(&c);
        let form = canon::of(PuzzleType::Sudoku, STORED).unwrap();
        assert_eq!(
            by_canonical(&c, PuzzleType::Sudoku, &form, 10).unwrap(),
            (vec![1, 3], 2)
        );
        // Nothing left to fill; the row without a form is tried again.
        assert_eq!(fill_missing(&c).unwrap(), 0);
        invariant::assert_holds(&c);
    }
}
