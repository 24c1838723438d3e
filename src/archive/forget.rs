//! `forget --import N`: taking an import back, so that the archive is what
//! it would be had that import never run. Its provenance rows, rejects and
//! file reads go through [`Removal`] (the path a failed read's rows take
//! out), which also removes the puzzles no other line holds, with their
//! lookup entries; a puzzle it stored that another import's line holds
//! stays, credited to the first such import (as that import would have
//! stored it). Its `imports` row goes; the forget is a run of its own in
//! `imports` (its command line), with what it took out in `removals`
//! (`forgotten`).
//!
//! All of it is one transaction under the import lock taken exclusively:
//! a kill leaves the archive as it was or as it is after, never between,
//! and no import or merge runs meanwhile (a `running` row then is a killed
//! run, which may be forgotten like any other).
//!
//! It refuses, before anything is written, what it cannot take back
//! exactly ([`ForgetError`]): a file the import read that a later import
//! read again (that read keeps the rows of the lines that had not
//! changed), an import that replaced an earlier import's rows of a file
//! that changed (those rows are gone), and a puzzle it stored that another
//! import holds first as an isomorph (the archive keeps no givens of that
//! line to store instead). A merge run holds no lines of its own: the
//! imports it brought in are forgotten one by one (they are ordinary
//! imports here, their rows carry their own id).

use std::fs::{OpenOptions, TryLockError};
use std::path::PathBuf;

use rusqlite::{Connection, OptionalExtension, params};

use super::remove::Removal;
use super::{Archive, ArchiveError, lock, run, set_foreign_keys};

/// Why an import was not forgotten.
#[derive(Debug, thiserror::Error)]
pub enum ForgetError {
    #[error("{path}: there is no import {id} ({known}; `stats` lists them)", path = path.display())]
    NoSuchImport {
        path: PathBuf,
        id: i64,
        known: String,
    },
    #[error(
        "{path}: an import or a merge is running on this archive (it holds {lock}): forget when it has finished",
        path = path.display(), lock = lock.display()
    )]
    Busy { path: PathBuf, lock: PathBuf },
    #[error(
        "run {id} is a merge, which holds no lines of its own: forget the imports it brought in one by one ({imports})"
    )]
    Merge { id: i64, imports: String },
    #[error("run {id} is a forget, which cannot be taken back")]
    Forget { id: i64 },
    #[error(
        "run {id} is a rating run, which holds no lines of its own (its ratings stay true whatever is forgotten)"
    )]
    Rate { id: i64 },
    #[error(
        "import {later} read {file} again after import {id} did, and keeps import {id}'s rows of the lines that had not changed: forget import {later} first"
    )]
    ReadAgain { id: i64, later: i64, file: String },
    #[error(
        "import {id} read {file} again and replaced an earlier import's rows of lines that had changed: those rows are gone, so the archive cannot be put back as it was"
    )]
    Replaced { id: i64, file: String },
    #[error(
        "puzzle {puzzle}, stored by import {id}, is held first by import {holder} ({file}:{line}) as an isomorph: the archive keeps no givens of that line to store in its place: forget import {holder} first"
    )]
    Isomorph {
        id: i64,
        puzzle: i64,
        holder: i64,
        file: String,
        line: i64,
    },
    #[error(transparent)]
    Archive(#[from] ArchiveError),
}

/// What a forget took out (or, dry, would take out).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Forgotten {
    /// The forget's own run (rolled back when dry).
    pub run: i64,
    pub files: u64,
    pub reads: u64,
    pub sources: u64,
    pub rejects: u64,
    /// Puzzles removed: no other line held them.
    pub puzzles: u64,
    /// Puzzles the import stored that stay: another import's line holds
    /// them, and they are that import's now.
    pub kept: u64,
}

fn sql(doing: &'static str) -> impl Fn(rusqlite::Error) -> ArchiveError {
    move |e| ArchiveError::sql(doing, e)
}

/// Takes import `id` back (see the module doc); `dry` rolls it all back
/// and only says what would go. `arguments` is the command line recorded
/// as the forget's run.
pub fn forget(
    archive: &Archive,
    id: i64,
    arguments: &[String],
    dry: bool,
) -> Result<Forgotten, ForgetError> {
    // Held exclusively until the end: imports and merges wait for it, and
    // none is running now.
    let lock_path = lock::path_of(&archive.path);
    let _lock = match OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&lock_path)
    {
        Ok(file) => match file.try_lock() {
            Ok(()) => Some(file),
            Err(TryLockError::WouldBlock) => {
                return Err(ForgetError::Busy {
                    path: archive.path.clone(),
                    lock: lock_path,
                });
            }
            // No locks on this file system: imports run without too.
            Err(TryLockError::Error(_)) => None,
        },
        Err(_) => None,
    };
    let conn = &archive.conn;
    // Off as during an import (`super::run`): a puzzle's removal would
    // otherwise scan both lookup tables for rows naming it, which no index
    // serves. What it writes refers to rows it has just read; the tests
    // check `foreign_key_check`.
    set_foreign_keys(conn, false)?;
    conn.execute_batch("BEGIN IMMEDIATE")
        .map_err(sql("starting the forget"))?;
    let result = take_back(archive, id, arguments);
    let end = match (&result, dry) {
        (Ok(_), false) => "COMMIT",
        _ => "ROLLBACK",
    };
    let ended = conn.execute_batch(end).map_err(sql("ending the forget"));
    set_foreign_keys(conn, true)?;
    if result.is_ok() && !dry {
        run::checkpoint(conn, "TRUNCATE", run::FINAL_CHECKPOINT_WAIT);
    }
    let forgotten = result?;
    ended?;
    Ok(forgotten)
}

/// The forget inside its transaction.
fn take_back(archive: &Archive, id: i64, arguments: &[String]) -> Result<Forgotten, ForgetError> {
    let conn = &archive.conn;
    refuse_other_runs(archive, id)?;
    let files = files_of(conn, id)?;
    refuse_what_cannot_be_undone(conn, id, &files)?;
    let args = serde_json::to_string(arguments).unwrap_or_default();
    conn.execute(
        "INSERT INTO imports (arguments, status, finished_at)
         VALUES (?1, 'finished', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
        [args],
    )
    .map_err(sql("recording the forget"))?;
    let run = conn.last_insert_rowid();
    let reads: i64 = conn
        .query_row(
            "SELECT count(*) FROM file_reads WHERE import_id = ?1",
            [id],
            |r| r.get(0),
        )
        .map_err(sql("counting the import's file reads"))?;
    let mut removal = Removal::default();
    let e = sql("taking out the import's rows");
    for &file in &files {
        removal.forgotten_read(conn, file, id).map_err(&e)?;
    }
    removal.settle(conn, run).map_err(&e)?;
    // What stays of its puzzles is the first import's that holds them.
    let kept = conn
        .execute(
            "UPDATE puzzles SET import_id =
                 (SELECT min(s.import_id) FROM sources AS s WHERE s.puzzle_id = puzzles.id)
             WHERE import_id = ?1",
            [id],
        )
        .map_err(sql("crediting the puzzles other imports hold"))?;
    conn.execute_batch(&format!(
        "DELETE FROM removals WHERE import_id = {id};
         DELETE FROM merged_imports WHERE import_id = {id};
         DELETE FROM imports WHERE id = {id};"
    ))
    .map_err(sql("taking out the import's row"))?;
    let (sources, rejects, puzzles) = conn
        .query_row(
            "SELECT ifnull(sum(sources), 0), ifnull(sum(rejects), 0), ifnull(sum(puzzles), 0)
             FROM removals WHERE import_id = ?1",
            [run],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            },
        )
        .map_err(sql("counting what was taken out"))?;
    Ok(Forgotten {
        run,
        files: files.len() as u64,
        reads: reads as u64,
        sources: sources as u64,
        rejects: rejects as u64,
        puzzles: puzzles as u64,
        kept: kept as u64,
    })
}

/// Refuses a run that is not an import here: none of that number, a
/// merge, a forget.
fn refuse_other_runs(archive: &Archive, id: i64) -> Result<(), ForgetError> {
    let conn = &archive.conn;
    let first: Option<Option<String>> = conn
        .query_row(
            "SELECT json_extract(arguments, '$[0]') FROM imports WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql("looking the import up"))?;
    let Some(first) = first else {
        let (n, low, high): (i64, i64, i64) = conn
            .query_row(
                "SELECT count(*), ifnull(min(id), 0), ifnull(max(id), 0) FROM imports",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map_err(sql("looking the import up"))?;
        let known = match n {
            0 => "it has none".to_string(),
            1 => format!("its only run is {low}"),
            _ => format!("its runs are numbered {low} to {high}"),
        };
        return Err(ForgetError::NoSuchImport {
            path: archive.path.clone(),
            id,
            known,
        });
    };
    match first.as_deref() {
        Some("merge") => {
            let imports: Vec<String> = conn
                .prepare("SELECT import_id FROM merged_imports WHERE merge_id = ?1 ORDER BY 1")
                .and_then(|mut s| {
                    s.query_map([id], |r| Ok(r.get::<_, i64>(0)?.to_string()))?
                        .collect()
                })
                .map_err(sql("listing the merge's imports"))?;
            let imports = if imports.is_empty() {
                "it brought in none".to_string()
            } else {
                imports.join(", ")
            };
            Err(ForgetError::Merge { id, imports })
        }
        Some("forget") => Err(ForgetError::Forget { id }),
        Some("rate") => Err(ForgetError::Rate { id }),
        _ => Ok(()),
    }
}

/// The files import `id` read or wrote rows of.
fn files_of(conn: &Connection, id: i64) -> Result<Vec<i64>, ArchiveError> {
    conn.prepare(
        "SELECT file_id FROM file_reads WHERE import_id = ?1
         UNION SELECT file_id FROM sources WHERE import_id = ?1
         UNION SELECT file_id FROM rejects WHERE import_id = ?1
         ORDER BY 1",
    )
    .and_then(|mut s| s.query_map([id], |r| r.get(0))?.collect())
    .map_err(sql("listing the import's files"))
}

fn path_of_file(conn: &Connection, file: i64) -> Result<String, ArchiveError> {
    conn.query_row("SELECT path FROM files WHERE id = ?1", [file], |r| r.get(0))
        .map_err(sql("naming a file"))
}

/// Refuses what the module doc lists as impossible to take back exactly.
fn refuse_what_cannot_be_undone(
    conn: &Connection,
    id: i64,
    files: &[i64],
) -> Result<(), ForgetError> {
    for &file in files {
        let later: Option<i64> = conn
            .query_row(
                "SELECT min(import_id) FROM file_reads WHERE file_id = ?1 AND import_id > ?2",
                params![file, id],
                |r| r.get(0),
            )
            .map_err(sql("looking up later reads of the import's files"))?;
        if let Some(later) = later {
            return Err(ForgetError::ReadAgain {
                id,
                later,
                file: path_of_file(conn, file)?,
            });
        }
    }
    let replaced: Option<i64> = conn
        .query_row(
            "SELECT file_id FROM removals WHERE import_id = ?1 AND reason = 'changed'
               AND sources + rejects > 0 LIMIT 1",
            [id],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql("looking up what the import replaced"))?;
    if let Some(file) = replaced {
        return Err(ForgetError::Replaced {
            id,
            file: path_of_file(conn, file)?,
        });
    }
    refuse_isomorph_holders(conn, id)
}

/// A puzzle the import stored stays as it is only if the first line that
/// holds it without the import holds it exactly: that line would have
/// stored it. The lines of one import are in order within a file; across
/// files of the import the order is not recorded, so it must then be
/// exact on every line of that import.
fn refuse_isomorph_holders(conn: &Connection, id: i64) -> Result<(), ForgetError> {
    let e = sql("looking up other imports' lines of the import's puzzles");
    let mut st = conn
        .prepare(
            "SELECT s.puzzle_id, s.import_id, s.file_id, s.line, s.relation = 'isomorph'
             FROM puzzles AS p JOIN sources AS s ON s.puzzle_id = p.id
             WHERE p.import_id = ?1 AND s.import_id <> ?1
               AND EXISTS (SELECT 1 FROM sources AS i
                   WHERE i.puzzle_id = p.id AND i.import_id <> ?1 AND i.relation = 'isomorph')
             ORDER BY s.puzzle_id, s.import_id, s.file_id, s.line",
        )
        .map_err(&e)?;
    let rows: Vec<(i64, i64, i64, i64, bool)> = st
        .query_map([id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .map_err(&e)?
        .collect::<Result<_, _>>()
        .map_err(&e)?;
    for group in rows.chunk_by(|a, b| a.0 == b.0) {
        // The first import that holds it, and its lines of it.
        let first = group[0].1;
        let lines: Vec<_> = group.iter().take_while(|r| r.1 == first).collect();
        let one_file = lines.iter().all(|r| r.2 == lines[0].2);
        let exact = if one_file {
            !lines[0].4
        } else {
            lines.iter().all(|r| !r.4)
        };
        if !exact {
            let at = lines.iter().find(|r| r.4).unwrap_or(&lines[0]);
            return Err(ForgetError::Isomorph {
                id,
                puzzle: at.0,
                holder: at.1,
                file: path_of_file(conn, at.2)?,
                line: at.3,
            });
        }
    }
    Ok(())
}
