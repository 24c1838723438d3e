//! The SQLite archive: opening and upgrading it, and the connection settings
//! every command shares. The only module that talks to SQLite; its
//! submodules own writing an import ([`writer`]) and reading for `stats` and
//! `export` ([`query`]).

mod borrowed;
pub mod canonical;
mod lines;
pub mod lock;
pub mod query;
pub mod schema;
pub mod stored;
pub mod writer;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// How long a command waits for another process's write lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("{path}: no archive there (import something first)")]
    Missing { path: PathBuf },
    #[error("{path}: not a sudoku-archive archive: {why}")]
    NotAnArchive { path: PathBuf, why: String },
    #[error(
        "the archive has schema version {found}, newer than this sudoku-archive knows ({known}): upgrade sudoku-archive"
    )]
    TooNew { found: i64, known: i64 },
    #[error("the archive is locked by another process (waited {}s)", BUSY_TIMEOUT.as_secs())]
    Locked,
    #[error(
        "{context}: the disk is full (or the archive reached its page limit); nothing of the failed batch was kept"
    )]
    Full { context: String },
    #[error("{context}: {source}")]
    Sql {
        context: String,
        source: rusqlite::Error,
    },
}

impl ArchiveError {
    pub fn sql(context: &str, source: rusqlite::Error) -> ArchiveError {
        if let rusqlite::Error::SqliteFailure(f, _) = &source
            && matches!(
                f.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            )
        {
            return ArchiveError::Locked;
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
            source,
        }
    }
}

/// Turns SQLite's foreign key enforcement on or off for the connection
/// (a no-op inside a transaction, so callers set it between them).
fn set_foreign_keys(conn: &Connection, on: bool) -> Result<(), ArchiveError> {
    conn.pragma_update(None, "foreign_keys", on)
        .map_err(|e| ArchiveError::sql("setting foreign key enforcement", e))
}

/// Page size of new archives, in bytes.
const PAGE_SIZE: i64 = 16 * 1024;

/// An open archive.
pub struct Archive {
    pub conn: Connection,
    pub path: PathBuf,
}

/// Options that shape how an import uses SQLite.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Page cache, in MiB: bounds memory and keeps the unique index hot.
    pub cache_mib: u32,
    /// A cap on the archive's size in pages (`PRAGMA max_page_count`), to
    /// rehearse a full disk.
    pub max_pages: Option<u64>,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            cache_mib: 256,
            max_pages: None,
        }
    }
}

/// The schema versions an existing archive at `path` will be upgraded
/// from and to when it is opened, if it is one of an older schema. Read
/// without a lock, for a notice: the upgrade itself checks again.
pub fn pending_upgrade(path: &Path) -> Option<(i64, i64)> {
    if !path.exists() {
        return None;
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).ok()?;
    let found = schema::user_version(&conn).ok()?;
    (found > 0 && found < schema::VERSION).then_some((found, schema::VERSION))
}

impl Archive {
    /// Opens an archive for writing, creating and upgrading it as needed.
    pub fn open_or_create(path: &Path, tuning: Tuning) -> Result<Archive, ArchiveError> {
        let conn =
            Connection::open(path).map_err(|e| ArchiveError::sql("opening the archive", e))?;
        let mut a = Archive {
            conn,
            path: path.to_path_buf(),
        };
        if a.recognise()? == 0 {
            // A new archive: 16 KiB pages (before WAL fixes the size) make
            // the b-trees shallower; the writer spent 8% less time on a
            // million puzzles, and the file is 7% smaller.
            a.conn
                .pragma_update(None, "page_size", PAGE_SIZE)
                .map_err(|e| ArchiveError::sql("setting the page size", e))?;
        }
        a.configure(tuning)?;
        schema::migrate(&mut a.conn)?;
        Ok(a)
    }

    /// Opens an existing archive for reading.
    pub fn open_existing(path: &Path) -> Result<Archive, ArchiveError> {
        if !path.exists() {
            return Err(ArchiveError::Missing {
                path: path.to_path_buf(),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| ArchiveError::sql("opening the archive", e))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| ArchiveError::sql("setting the busy timeout", e))?;
        let a = Archive {
            conn,
            path: path.to_path_buf(),
        };
        let version = a.recognise()?;
        if version == 0 {
            return Err(ArchiveError::NotAnArchive {
                path: a.path.clone(),
                why: "it has no schema".into(),
            });
        }
        if version < schema::VERSION {
            // An archive from an older version is upgraded in place first.
            drop(a);
            return Archive::open_or_create(path, Tuning::default());
        }
        Ok(a)
    }

    /// Checks, before anything is written, that the file is a SQLite database
    /// that is either empty or one of ours of a version we know.
    fn recognise(&self) -> Result<i64, ArchiveError> {
        let not_ours = |why: String| ArchiveError::NotAnArchive {
            path: self.path.clone(),
            why,
        };
        let version = match schema::check_version(&self.conn) {
            Err(ArchiveError::Sql { source, .. }) => return Err(not_ours(source.to_string())),
            other => other?,
        };
        if version == 0 {
            let tables: i64 = self
                .conn
                .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
                .map_err(|e| not_ours(e.to_string()))?;
            if tables > 0 {
                return Err(not_ours("it is a SQLite database with other tables".into()));
            }
        }
        Ok(version)
    }

    /// Lookups of this archive's puzzles for the pipeline's workers, unless
    /// it holds none (a first import would only pay for them): `canonical`
    /// says whether they return canonical forms, `cache_kib` is the page
    /// cache of each of their connections.
    pub fn stored_puzzles(
        &self,
        canonical: bool,
        cache_kib: u64,
    ) -> Result<Option<stored::StoredPuzzles>, ArchiveError> {
        let any: bool = self
            .conn
            .query_row("SELECT EXISTS (SELECT 1 FROM puzzles)", [], |r| r.get(0))
            .map_err(|e| ArchiveError::sql("counting stored puzzles", e))?;
        Ok(any.then(|| stored::StoredPuzzles::new(&self.path, canonical, cache_kib)))
    }

    fn configure(&self, tuning: Tuning) -> Result<(), ArchiveError> {
        let c = &self.conn;
        c.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| ArchiveError::sql("setting the busy timeout", e))?;
        // WAL: readers see committed batches while an import runs, and a kill
        // loses at most the batch in flight.
        let mode: String = c
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| ArchiveError::sql("switching to WAL", e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(ArchiveError::Sql {
                context: format!("switching to WAL (journal mode stayed {mode})"),
                source: rusqlite::Error::InvalidQuery,
            });
        }
        c.execute_batch(&format!(
            "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -{};",
            u64::from(tuning.cache_mib) * 1024
        ))
        .map_err(|e| ArchiveError::sql("configuring the connection", e))?;
        if let Some(pages) = tuning.max_pages {
            c.query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))
                .map_err(|e| ArchiveError::sql("limiting the archive size", e))?;
        }
        Ok(())
    }
}
