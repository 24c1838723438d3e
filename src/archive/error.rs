//! The archive's errors, and SQLite's message for a failure said once.

use std::path::PathBuf;

use super::scale::BUSY_TIMEOUT;

#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("{path}: no archive there (import something first)", path = path.display())]
    Missing { path: PathBuf },
    #[error("{path}: the folder {folder} does not exist", path = path.display(), folder = folder.display())]
    NoFolder { path: PathBuf, folder: PathBuf },
    #[error("{path}: {what}", path = path.display(), what = if *wal_missing {
        format!("the archive holds no tables, and its write-ahead log {}-wal is missing (deleted?): what was not yet copied from it into the archive is lost", path.display())
    } else {
        "the archive is empty (import something first)".to_string()
    })]
    Empty { path: PathBuf, wal_missing: bool },
    #[error("{path}: not a sudoku-archive archive: {why}", path = path.display())]
    NotAnArchive { path: PathBuf, why: String },
    #[error(
        "{path}: the archive has schema version {found}, newer than this sudoku-archive knows ({known}): upgrade sudoku-archive", path = path.display()
    )]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("{path}: the archive is read-only ({why}): an import needs write access", path = path.display())]
    ReadOnly { path: PathBuf, why: String },
    #[error(
        "{path}: the archive has schema version {found} and must be upgraded to {known} before it can be read, but it is read-only ({why}): run this once with write access", path = path.display()
    )]
    ReadOnlyOld {
        path: PathBuf,
        why: String,
        found: i64,
        known: i64,
    },
    #[error("{path}: cannot open: {why}", path = path.display())]
    Open { path: PathBuf, why: String },
    #[error("the archive is locked by another process that has not written anything for {}s", BUSY_TIMEOUT.as_secs())]
    Locked,
    /// A stop was asked for ([`crate::stop`]) while waiting for another
    /// process's write lock: the wait was given up.
    #[error("stopped while waiting for another process's write lock on the archive")]
    Stopped,
    #[error(
        "{context}: the disk is full (or the archive reached its page limit); nothing of the failed batch was kept"
    )]
    Full { context: String },
    #[error("{context}: {}", sqlite_message(cause))]
    Sql {
        context: String,
        cause: rusqlite::Error,
    },
}

/// SQLite's message for an error, once: rusqlite's `Display` of a failure
/// is SQLite's message, and its `source` the same code again.
pub fn sqlite_message(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqliteFailure(_, Some(message)) => message.clone(),
        rusqlite::Error::SqliteFailure(f, None) => f.to_string(),
        other => other.to_string(),
    }
}

impl ArchiveError {
    pub fn sql(context: &str, source: rusqlite::Error) -> ArchiveError {
        if let rusqlite::Error::SqliteFailure(f, _) = &source
            && matches!(
                f.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            )
        {
            return if crate::stop::requested() {
                ArchiveError::Stopped
            } else {
                ArchiveError::Locked
            };
        }
        if let rusqlite::Error::SqliteFailure(f, _) = &source
            && f.code == rusqlite::ErrorCode::DiskFull
        {
            return ArchiveError::Full {
                context: context.to_string(),
            };
        }
        ArchiveError::Sql {
            context: context.to_string(),
            cause: source,
        }
    }
}
