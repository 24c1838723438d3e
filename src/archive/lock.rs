//! Telling a running import from a dead one. Every import holds a shared
//! OS lock on the file `<archive>-import-lock` while it runs; the OS drops
//! it when the process ends, however it ends. An import that can first take
//! that lock exclusively knows that no other import is running, so every
//! `imports` row still `running` is a run that was killed: it marks them
//! `interrupted`. Concurrent imports hold the lock together and leave each
//! other's rows alone.
//!
//! The lock file is empty and stays beside the archive: removing it while
//! another process might be opening it would break the lock.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::ArchiveError;

/// Held while an import runs; released when dropped or when the process dies.
#[derive(Debug)]
pub struct ImportLock {
    _file: File,
}

/// The lock file of an archive.
pub fn path_of(archive: &Path) -> PathBuf {
    let mut p = archive.as_os_str().to_owned();
    p.push("-import-lock");
    PathBuf::from(p)
}

impl ImportLock {
    /// Takes the shared lock, first marking the runs no process holds any
    /// more as `interrupted` (their ids are returned). `None` where the file
    /// system offers no locks: the import then runs as before, and marks
    /// nothing.
    pub fn take(
        archive: &Path,
        conn: &Connection,
    ) -> Result<(Option<ImportLock>, Vec<i64>), ArchiveError> {
        let Ok(file) = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path_of(archive))
        else {
            return Ok((None, Vec::new()));
        };
        let mut interrupted = Vec::new();
        match file.try_lock() {
            Ok(()) => {
                interrupted = mark_interrupted(conn)?;
                // Shared from here on. Another import may take the lock
                // exclusively in between: this run's row does not exist yet.
                if file.unlock().is_err() {
                    return Ok((None, interrupted));
                }
            }
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(_)) => return Ok((None, interrupted)),
        }
        // Waits only while another import is marking rows.
        match file.lock_shared() {
            Ok(()) => Ok((Some(ImportLock { _file: file }), interrupted)),
            Err(_) => Ok((None, interrupted)),
        }
    }
}

fn mark_interrupted(conn: &Connection) -> Result<Vec<i64>, ArchiveError> {
    let sql = |e| ArchiveError::sql("marking killed imports interrupted", e);
    let mut statement = conn
        .prepare(
            "UPDATE imports SET status = 'interrupted' WHERE status = 'running'
             RETURNING id",
        )
        .map_err(sql)?;
    let mut ids = statement
        .query_map([], |r| r.get(0))
        .map_err(sql)?
        .collect::<Result<Vec<i64>, _>>()
        .map_err(sql)?;
    ids.sort_unstable();
    Ok(ids)
}
