//! Filling `puzzles.canonical` for rows that have none: archives upgraded
//! from schema 1, and rows imported with `--no-canonical`. Runs inside the
//! caller's transaction, in batches, computing the forms on all cores.

use rayon::prelude::*;
use rusqlite::{Connection, params};

use super::ArchiveError;
use crate::core::canon;
use crate::core::puzzle::PuzzleType;

const BATCH: usize = 20_000;

/// Computes and stores the canonical form of every puzzle that lacks one.
/// Returns how many rows were filled.
pub fn fill_missing(conn: &Connection) -> Result<u64, ArchiveError> {
    let e = |e| ArchiveError::sql("filling canonical forms", e);
    let mut select = conn
        .prepare("SELECT id, type, givens FROM puzzles WHERE canonical IS NULL AND id > ?1 ORDER BY id LIMIT ?2")
        .map_err(e)?;
    let mut update = conn
        .prepare("UPDATE puzzles SET canonical = ?2 WHERE id = ?1")
        .map_err(e)?;
    let mut after = 0i64;
    let mut filled = 0;
    loop {
        let rows: Vec<(i64, String, String)> = select
            .query_map(params![after, BATCH as i64], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .map_err(e)?
            .collect::<Result<_, _>>()
            .map_err(e)?;
        let Some(last) = rows.last() else { break };
        after = last.0;
        let forms: Vec<(i64, Option<String>)> = rows
            .par_iter()
            .map(|(id, kind, givens)| {
                let form = PuzzleType::from_name(kind).and_then(|k| canon::of(k, givens).ok());
                (*id, form)
            })
            .collect();
        for (id, form) in forms {
            // A puzzle whose form cannot be computed keeps NULL and is never an isomorph.
            if let Some(form) = form {
                update.execute(params![id, form]).map_err(e)?;
                filled += 1;
            }
        }
    }
    Ok(filled)
}
