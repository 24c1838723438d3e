//! Filling `puzzles.canonical` and `canonical_hash` for rows that have none
//! (archives upgraded from schemas 1 and 2, rows imported with
//! `--no-canonical`). Fills run inside the caller's transaction, in
//! batches, computing on all cores; the hash is the pipeline's, so both
//! paths index a form alike. Each form is bounded as in the pipeline
//! (`canon`'s limits: tens of milliseconds a row at most); a row whose form
//! reaches the limit, which only a `--no-canonical` import can have stored,
//! keeps NULL like one no map can write, is never an isomorph, and is tried
//! again, at the same bounded cost, by the next fill.

use rayon::prelude::*;
use rusqlite::{Connection, params};

use super::ArchiveError;
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

/// Computes `canonical_hash` for rows that have a form but no hash yet
/// (archives upgraded from schema 2). Returns how many rows were filled.
pub fn fill_hashes(conn: &Connection) -> Result<u64, ArchiveError> {
    const WHAT: &str = "indexing canonical forms";
    let mut update = conn
        .prepare("UPDATE puzzles SET canonical_hash = ?2 WHERE id = ?1")
        .map_err(|e| ArchiveError::sql(WHAT, e))?;
    in_batches(
        conn,
        "SELECT id, type, canonical FROM puzzles
         WHERE canonical IS NOT NULL AND canonical_hash IS NULL AND id > ?1
         ORDER BY id LIMIT ?2",
        WHAT,
        |rows| {
            for (id, kind, form) in rows {
                update
                    .execute(params![id, hash(kind, form)])
                    .map_err(|e| ArchiveError::sql(WHAT, e))?;
            }
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
            let mut filled = 0;
            for ((id, form), (_, kind, _)) in forms.iter().zip(rows) {
                // A puzzle whose form cannot be computed keeps NULL and is never an isomorph.
                if let Some(form) = form {
                    update
                        .execute(params![id, form, hash(kind, form)])
                        .map_err(|e| ArchiveError::sql(WHAT, e))?;
                    filled += 1;
                }
            }
            Ok(filled)
        },
    )
}
