//! Opening an archive: recognising what a path holds without writing to
//! it, creating and upgrading an archive, and the connection settings
//! every command shares (see `docs/architecture.md`, "Opening").

use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::access::{access_denied, beside, folder_of, write_denied};
use super::error::{ArchiveError, sqlite_message};
use super::scale::{BUSY_TIMEOUT, Scale, Tuning, starting_cache_mib};
use super::{lock, run, schema, stored};

/// `PRAGMA application_id` of an archive ("SDKA"), from schema 8 on.
pub const APPLICATION_ID: i64 = 0x5344_4b41;

/// The tables every archive has had since schema 1: how an archive from
/// before `application_id` is recognised.
const CORE_TABLES: [&str; 5] = ["files", "imports", "puzzles", "rejects", "sources"];

/// Turns SQLite's foreign key enforcement on or off for the connection
/// (a no-op inside a transaction, so callers set it between them).
pub(super) fn set_foreign_keys(conn: &Connection, on: bool) -> Result<(), ArchiveError> {
    conn.pragma_update(None, "foreign_keys", on)
        .map_err(|e| ArchiveError::sql("setting foreign key enforcement", e))
}

/// Page size of new archives, in bytes.
const PAGE_SIZE: i64 = 16 * 1024;

/// An open archive.
pub struct Archive {
    pub conn: Connection,
    pub path: PathBuf,
    /// How it was opened for writing (the default when only read).
    tuning: Tuning,
}

/// What a path holds, as [`inspect`] found it without writing anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// No file: a new archive goes there.
    Nothing,
    /// An empty file or a SQLite database without tables or schema
    /// version; `wal_missing` when a `-shm` file says it had a write-ahead
    /// log that is gone (its content went with it).
    Empty { wal_missing: bool },
    /// A sudoku-archive archive of this schema version (possibly newer
    /// than this binary's).
    Archive { version: i64 },
}

/// A `file:` URI for SQLite, every byte outside the unreserved set escaped.
pub(super) fn file_uri(path: &Path, query: &str) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut uri = String::from("file:");
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/._-~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push('?');
    uri.push_str(query);
    uri
}

/// Opens `path` read-only, as `immutable` (no locks, no `-wal` or `-shm`
/// read or created) when asked.
pub(super) fn open_read_only(path: &Path, immutable: bool) -> rusqlite::Result<Connection> {
    let query = if immutable {
        "mode=ro&immutable=1"
    } else {
        "mode=ro"
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    Connection::open_with_flags(file_uri(path, query), flags)
}

/// SQLite's reason for not opening `path`, or the cause behind it where
/// SQLite's says only "unable to open database file".
fn why_not_opened(path: &Path, e: &rusqlite::Error) -> String {
    let (wal, shm) = (beside(path, "-wal"), beside(path, "-shm"));
    if e.sqlite_error_code() == Some(rusqlite::ErrorCode::CannotOpen)
        && wal.exists()
        && !shm.exists()
        && access_denied(folder_of(path)).is_some()
    {
        return format!(
            "its write-ahead log {} is there but not its index {}, which SQLite must create \
             and cannot in a read-only folder: read it once with write access to the folder",
            wal.display(),
            shm.display()
        );
    }
    sqlite_message(e)
}

/// Finds out what `path` holds without writing anything, not even a lock
/// or a `-wal` file where it can be helped (see the module docs).
pub fn inspect(path: &Path) -> Result<Found, ArchiveError> {
    let open_error = |why: String| ArchiveError::Open {
        path: path.to_path_buf(),
        why,
    };
    let not_ours = |why: &str| ArchiveError::NotAnArchive {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = folder_of(path);
            return match std::fs::metadata(folder) {
                Ok(m) if m.is_dir() => Ok(Found::Nothing),
                Ok(_) => Err(open_error(format!("{} is not a folder", folder.display()))),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(ArchiveError::NoFolder {
                    path: path.to_path_buf(),
                    folder: folder.to_path_buf(),
                }),
                Err(e) => Err(open_error(e.to_string())),
            };
        }
        Err(e) => return Err(open_error(e.to_string())),
    };
    if meta.is_dir() {
        return Err(not_ours("it is a folder"));
    }
    let wal = std::fs::metadata(beside(path, "-wal")).ok();
    let wal_missing = wal.is_none() && beside(path, "-shm").exists();
    if meta.len() == 0 && wal.as_ref().is_none_or(|w| w.len() == 0) {
        return Ok(Found::Empty { wal_missing });
    }
    let mut header = Vec::with_capacity(100);
    std::fs::File::open(path)
        .and_then(|f| f.take(100).read_to_end(&mut header))
        .map_err(|e| open_error(e.to_string()))?;
    if meta.len() > 0 && (header.len() < 100 || !header.starts_with(b"SQLite format 3\0")) {
        return Err(not_ours("it is not a SQLite database"));
    }
    // A WAL database without a `-wal` file is all in the file: read it as
    // it is, creating nothing beside it.
    let immutable = header.get(18) == Some(&2) && wal.is_none();
    let sql_error = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => not_ours("it is not a SQLite database"),
        _ => open_error(why_not_opened(path, &e)),
    };
    let conn = open_read_only(path, immutable).map_err(sql_error)?;
    let (version, application_id): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT user_version FROM pragma_user_version),
                    (SELECT application_id FROM pragma_application_id)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(sql_error)?;
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             ORDER BY name",
        )
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(sql_error)?;
    classify(version, application_id, &tables, wal_missing).map_err(|why| not_ours(&why))
}

/// Tells an archive from an empty database and from another program's,
/// by the header's `application_id` or, before schema 8 set it, the tables.
fn classify(
    version: i64,
    application_id: i64,
    tables: &[String],
    wal_missing: bool,
) -> Result<Found, String> {
    if application_id == APPLICATION_ID {
        return Ok(Found::Archive { version });
    }
    if application_id != 0 {
        return Err(format!(
            "its application id is {application_id:#010x} (sudoku-archive's is {APPLICATION_ID:#010x})"
        ));
    }
    if tables.is_empty() && version == 0 {
        return Ok(Found::Empty { wal_missing });
    }
    let has_core = CORE_TABLES
        .iter()
        .all(|t| tables.iter().any(|have| have == t));
    if version > 0 && has_core {
        return Ok(Found::Archive { version });
    }
    if tables.is_empty() {
        return Err(format!(
            "it is a SQLite database with no tables and user_version {version}"
        ));
    }
    let mut names = tables
        .iter()
        .take(5)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if tables.len() > 5 {
        names.push_str(", ...");
    }
    Err(format!(
        "it is a SQLite database with other tables ({names}) and user_version {version}"
    ))
}

/// The schema versions an existing archive at `path` will be upgraded
/// from and to when it is opened, if it is one of an older schema that
/// this process may write. Read without a lock, for a notice: the upgrade
/// itself checks again.
pub fn pending_upgrade(path: &Path) -> Option<(i64, i64)> {
    match inspect(path) {
        Ok(Found::Archive { version })
            if version < schema::VERSION && write_denied(path).is_none() =>
        {
            Some((version, schema::VERSION))
        }
        _ => None,
    }
}

impl Archive {
    /// Opens an archive for writing, creating and upgrading it as needed.
    /// Refuses, before writing anything, a file that is not an archive,
    /// one from a newer version, and one this process may not write.
    pub fn open_or_create(path: &Path, tuning: Tuning) -> Result<Archive, ArchiveError> {
        let version = match inspect(path)? {
            Found::Nothing | Found::Empty { .. } => 0,
            Found::Archive { version } if version > schema::VERSION => {
                return Err(ArchiveError::TooNew {
                    path: path.to_path_buf(),
                    found: version,
                    known: schema::VERSION,
                });
            }
            Found::Archive { version } => version,
        };
        if let Some(why) = write_denied(path) {
            return Err(ArchiveError::ReadOnly {
                path: path.to_path_buf(),
                why,
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(file_uri(path, "mode=rwc"), flags).map_err(|e| {
            ArchiveError::Open {
                path: path.to_path_buf(),
                why: sqlite_message(&e),
            }
        })?;
        if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            return Err(ArchiveError::ReadOnly {
                path: path.to_path_buf(),
                why: "SQLite could only open it for reading".into(),
            });
        }
        let mut a = Archive {
            conn,
            path: path.to_path_buf(),
            tuning,
        };
        if version == 0 {
            // A new archive: 16 KiB pages (before WAL fixes the size) make
            // the b-trees shallower; the writer spent 8% less time on a
            // million puzzles, and the file is 7% smaller.
            a.conn
                .pragma_update(None, "page_size", PAGE_SIZE)
                .map_err(|e| a.error("setting the page size", e))?;
        }
        a.configure(tuning)?;
        if version > 0 && version < schema::VERSION {
            // An upgrade that rebuilds `puzzles` reads the whole table back
            // at random places (`foreign_key_check` of the lookup tables):
            // it gets the whole cache the setting allows, for its duration.
            a.set_cache_mib(u64::from(tuning.cache_mib))?;
            schema::migrate(&mut a.conn)?;
            a.set_cache_mib(starting_cache_mib(tuning))?;
        } else {
            schema::migrate(&mut a.conn)?;
        }
        a.conn
            .execute_batch(schema::SOURCES_BY_LINE)
            .map_err(|e| a.error("putting back the sources_file_line index", e))?;
        Ok(a)
    }

    /// Opens an existing archive for reading. One of an older schema is
    /// upgraded first, where this process may write it; a read-only one
    /// is read as it is, never written.
    pub fn open_existing(path: &Path) -> Result<Archive, ArchiveError> {
        match inspect(path)? {
            Found::Nothing => Err(ArchiveError::Missing {
                path: path.to_path_buf(),
            }),
            Found::Empty { wal_missing } => Err(ArchiveError::Empty {
                path: path.to_path_buf(),
                wal_missing,
            }),
            Found::Archive { version } if version > schema::VERSION => Err(ArchiveError::TooNew {
                path: path.to_path_buf(),
                found: version,
                known: schema::VERSION,
            }),
            Found::Archive { version } if version < schema::VERSION => match write_denied(path) {
                Some(why) => Err(ArchiveError::ReadOnlyOld {
                    path: path.to_path_buf(),
                    why,
                    found: version,
                    known: schema::VERSION,
                }),
                None => Archive::open_or_create(path, Tuning::default()),
            },
            Found::Archive { .. } => Archive::open_for_reading(path),
        }
    }

    fn open_for_reading(path: &Path) -> Result<Archive, ArchiveError> {
        let open_error = |e: rusqlite::Error| ArchiveError::Open {
            path: path.to_path_buf(),
            why: why_not_opened(path, &e),
        };
        let conn = match write_denied(path) {
            None => {
                // Read-write but query-only: the last connection to close
                // checkpoints and removes `-wal` and `-shm`, as SQLite does.
                let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
                    | OpenFlags::SQLITE_OPEN_URI
                    | OpenFlags::SQLITE_OPEN_NO_MUTEX;
                let c = Connection::open_with_flags(file_uri(path, "mode=rw"), flags)
                    .map_err(open_error)?;
                c.pragma_update(None, "query_only", true)
                    .map_err(open_error)?;
                c
            }
            Some(_) => {
                // Without a `-wal` file and a folder to create one in, the
                // file holds everything and nobody can be writing it.
                let wal = beside(path, "-wal").exists();
                let immutable = !wal && access_denied(folder_of(path)).is_some();
                open_read_only(path, immutable).map_err(open_error)?
            }
        };
        conn.busy_timeout(BUSY_TIMEOUT).map_err(open_error)?;
        // Reading the schema opens the WAL: its errors surface here, once.
        let version = schema::check_version(&conn).map_err(|e| match e {
            ArchiveError::Sql { cause, .. } => open_error(cause),
            other => other,
        })?;
        if version < schema::VERSION {
            // Rolled back by another process in between: read it again.
            drop(conn);
            return Archive::open_existing(path);
        }
        Ok(Archive {
            conn,
            path: path.to_path_buf(),
            tuning: Tuning::default(),
        })
    }

    /// How it was opened.
    pub fn tuning(&self) -> Tuning {
        self.tuning
    }

    /// The number of puzzles it holds (the largest id: rows are never
    /// deleted), read from the end of the table.
    pub fn puzzle_count(&self) -> Result<u64, ArchiveError> {
        self.conn
            .query_row("SELECT ifnull(max(id), 0) FROM puzzles", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n.max(0) as u64)
            .map_err(|e| ArchiveError::sql("counting stored puzzles", e))
    }

    /// How an import into it now writes: [`Scale::of`] its size.
    pub fn scale(&self) -> Result<Scale, ArchiveError> {
        Ok(self.scale_at(self.puzzle_count()?))
    }

    /// [`Scale::of`] the archive holding `puzzles`, with this tuning.
    pub fn scale_at(&self, puzzles: u64) -> Scale {
        Scale::of(
            puzzles.saturating_add(self.tuning.assume_puzzles),
            self.tuning.cache_mib,
        )
    }

    /// Sizes the page cache, and the WAL file's size kept between batches
    /// (`journal_size_limit`: at least a batch's usual writes, so that the
    /// file is not shortened and grown again at every batch), for `scale`.
    pub fn apply_scale(&self, scale: Scale) -> Result<(), ArchiveError> {
        self.conn
            .execute_batch(&format!(
                "PRAGMA cache_size = -{}; PRAGMA journal_size_limit = {};",
                scale.cache_mib * 1024,
                run::WAL_TRIM.max(scale.cache_mib << 20)
            ))
            .map_err(|e| ArchiveError::sql("sizing the page cache", e))
    }

    /// Sizes the page cache of the archive's connection.
    fn set_cache_mib(&self, mib: u64) -> Result<(), ArchiveError> {
        self.conn
            .execute_batch(&format!("PRAGMA cache_size = -{}", mib * 1024))
            .map_err(|e| self.error("sizing the page cache", e))
    }

    /// A SQL error while opening, naming the archive.
    fn error(&self, doing: &str, e: rusqlite::Error) -> ArchiveError {
        ArchiveError::sql(&format!("{}: {doing}", self.path.display()), e)
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
        lock::wait_for_writers(c).map_err(|e| self.error("setting the busy handler", e))?;
        // WAL: readers see committed batches while an import runs, and a kill
        // loses at most the batch in flight.
        let mode: String = c
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| self.error("switching to WAL", e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(ArchiveError::Open {
                path: self.path.clone(),
                why: format!("switching to WAL failed: the journal mode stayed {mode}"),
            });
        }
        c.execute_batch(&format!(
            "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
             PRAGMA journal_size_limit = {};",
            run::WAL_TRIM
        ))
        .map_err(|e| self.error("configuring the connection", e))?;
        self.set_cache_mib(starting_cache_mib(tuning))?;
        if let Some(pages) = tuning.max_pages {
            c.query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()))
                .map_err(|e| self.error("limiting the archive size", e))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn archives_are_told_from_other_databases_by_id_or_tables() {
        let ours = names(&CORE_TABLES);
        assert_eq!(
            classify(8, APPLICATION_ID, &[], false),
            Ok(Found::Archive { version: 8 })
        );
        assert_eq!(
            classify(3, 0, &ours, false),
            Ok(Found::Archive { version: 3 })
        );
        assert_eq!(
            classify(99, 0, &ours, false),
            Ok(Found::Archive { version: 99 })
        );
        assert_eq!(
            classify(0, 0, &[], true),
            Ok(Found::Empty { wal_missing: true })
        );
        for version in [0, 3, 7, 99] {
            let e = classify(version, 0, &names(&["customers"]), false).unwrap_err();
            assert_eq!(
                e,
                format!(
                    "it is a SQLite database with other tables (customers) and user_version {version}"
                )
            );
        }
        assert!(classify(7, 0, &names(&["imports", "puzzles"]), false).is_err());
        assert!(classify(7, 0x1234, &ours, false).is_err());
        assert!(classify(5, 0, &[], false).is_err());
    }

    #[test]
    fn uris_escape_what_sqlite_would_read_as_syntax() {
        assert_eq!(
            file_uri(Path::new("/a b/c?d#e%.sqlite"), "mode=ro"),
            "file:/a%20b/c%3Fd%23e%25.sqlite?mode=ro"
        );
    }
}
