//! The archive's side of isomorphs: the hash that indexes canonical forms,
//! and filling `puzzles.canonical` for rows that have none (archives
//! upgraded from schema 1, rows imported with `--no-canonical`). Fills run
//! inside the caller's transaction, in batches, computing on all cores.

use rayon::prelude::*;
use rusqlite::{Connection, params};
use xxhash_rust::xxh3::xxh3_64;

use super::ArchiveError;
use crate::core::canon;
use crate::core::puzzle::PuzzleType;

const BATCH: usize = 20_000;

/// `puzzles.canonical_hash`: 64 bits of (type, canonical form), the index
/// isomorph lookups go through (they then compare the form itself).
pub fn hash(kind: &str, form: &str) -> i64 {
    let mut buf = Vec::with_capacity(kind.len() + 1 + form.len());
    buf.extend_from_slice(kind.as_bytes());
    buf.push(0);
    buf.extend_from_slice(form.as_bytes());
    // The bits as SQLite's signed integer.
    xxh3_64(&buf) as i64
}

/// Computes `canonical_hash` for rows that have a form but no hash yet
/// (archives upgraded from schema 2), a batch at a time so memory stays
/// flat. Returns how many rows were filled.
pub fn fill_hashes(conn: &Connection) -> Result<u64, ArchiveError> {
    let e = |e| ArchiveError::sql("indexing canonical forms", e);
    let mut select = conn
        .prepare(
            "SELECT id, type, canonical FROM puzzles
             WHERE canonical IS NOT NULL AND canonical_hash IS NULL AND id > ?1
             ORDER BY id LIMIT ?2",
        )
        .map_err(e)?;
    let mut update = conn
        .prepare("UPDATE puzzles SET canonical_hash = ?2 WHERE id = ?1")
        .map_err(e)?;
    let (mut after, mut filled) = (0i64, 0u64);
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
        for (id, kind, form) in &rows {
            update.execute(params![id, hash(kind, form)]).map_err(e)?;
        }
        filled += rows.len() as u64;
    }
    Ok(filled)
}

/// Computes and stores the canonical form of every puzzle that lacks one.
/// Returns how many rows were filled.
pub fn fill_missing(conn: &Connection) -> Result<u64, ArchiveError> {
    let e = |e| ArchiveError::sql("filling canonical forms", e);
    let mut select = conn
        .prepare("SELECT id, type, givens FROM puzzles WHERE canonical IS NULL AND id > ?1 ORDER BY id LIMIT ?2")
        .map_err(e)?;
    let mut update = conn
        .prepare("UPDATE puzzles SET canonical = ?2, canonical_hash = ?3 WHERE id = ?1")
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
        let forms: Vec<(i64, Option<(String, i64)>)> = rows
            .par_iter()
            .map(|(id, kind, givens)| {
                let form = PuzzleType::from_name(kind).and_then(|k| canon::of(k, givens).ok());
                let hashed = form.map(|f| {
                    let h = hash(kind, &f);
                    (f, h)
                });
                (*id, hashed)
            })
            .collect();
        for (id, form) in forms {
            // A puzzle whose form cannot be computed keeps NULL and is never an isomorph.
            if let Some((form, hash)) = form {
                update.execute(params![id, form, hash]).map_err(e)?;
                filled += 1;
            }
        }
    }
    Ok(filled)
}
