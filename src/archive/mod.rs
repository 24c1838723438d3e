//! The SQLite archive: opening and upgrading it, and the connection settings
//! every command shares. The only module that talks to SQLite; its
//! submodules own writing an import ([`writer`]) and reading for `stats` and
//! `export` ([`query`]).
//!
//! It stores what [`crate::record`] defines (the outcome of each line, and
//! the hashes that key puzzles and forms), and takes nothing else from
//! [`crate::pipeline`] but the traits it implements
//! ([`Sink`](crate::pipeline::Sink), [`Stored`](crate::pipeline::Stored))
//! and the data they hand it.
//!
//! Opening never writes to a file it has not recognised. [`inspect`] reads
//! the SQLite header and, through a read-only connection, the
//! `application_id` (set by migration 0008), `user_version` and table names;
//! it opens with `immutable=1` (no lock, no `-wal` or `-shm` created) when
//! the header says WAL and no `-wal` file exists, since the file then holds
//! everything. Only a file that is ours (or empty, or absent) is then opened
//! read-write and switched to WAL; anything else is refused byte for byte
//! unchanged.
//!
//! Reading (`stats`, `export`) never upgrades or writes an archive it may
//! not write: a writable archive is read through a read-write connection
//! with `query_only` (so the last one to close cleans up `-wal` and `-shm`
//! as SQLite does), a read-only one through a read-only connection, or with
//! `immutable=1` when its folder cannot be written and no `-wal` file
//! exists (SQLite's rule for read-only WAL databases: the `-shm` and `-wal`
//! files exist, or can be created, or the database is immutable).

mod borrowed;
pub mod canonical;
mod earlier;
pub mod export;
pub mod forget;
mod lines;
pub mod lock;
pub mod lookup;
pub mod merge;
mod pending;
pub mod query;
pub mod remove;
mod run;
pub mod schema;
pub mod stored;
pub mod writer;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// How long a command waits for another process's write lock without
/// seeing the archive change.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

/// `PRAGMA application_id` of an archive ("SDKA"), from schema 8 on.
pub const APPLICATION_ID: i64 = 0x5344_4b41;

/// The tables every archive has had since schema 1: how an archive from
/// before `application_id` is recognised.
const CORE_TABLES: [&str; 5] = ["files", "imports", "puzzles", "rejects", "sources"];

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
            cause: source,
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
    /// How it was opened for writing (the default when only read).
    tuning: Tuning,
}

/// Options that shape how an import uses SQLite.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// The most the import's page cache may grow to, in MiB: the bound on
    /// its memory. The cache starts at [`BASE_CACHE_MIB`] and grows with
    /// the archive ([`Scale`]) up to this.
    pub cache_mib: u32,
    /// A cap on the archive's size in pages (`PRAGMA max_page_count`), to
    /// rehearse a full disk.
    pub max_pages: Option<u64>,
    /// Puzzles counted as stored on top of those the archive holds when
    /// its batches and cache are sized ([`Scale`]): 0 but in tests, which
    /// rehearse a large archive's batches on a small one.
    pub assume_puzzles: u64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            cache_mib: default_cache_mib(),
            max_pages: None,
            assume_puzzles: 0,
        }
    }
}

/// The page cache of an import into a small archive, in MiB: what every
/// import had before the cache grew with the archive.
pub const BASE_CACHE_MIB: u64 = 256;

/// The cache an import adds per million puzzles the archive holds, in
/// MiB. The two lookup tables (`puzzles_by_key`, `puzzles_by_form`) take
/// about 19 bytes a puzzle each (385 and 366 MiB at 20M puzzles, 16 KiB
/// pages nine tenths full): 36 MiB a million, and the rest is room for the
/// pages of the batch being written.
pub const CACHE_MIB_PER_MILLION: u64 = 40;

/// The default of [`Tuning::cache_mib`]: a quarter of the machine's memory
/// (`MemTotal` of `/proc/meminfo`; 4 GiB where that cannot be read), never
/// less than [`BASE_CACHE_MIB`]. At 40 MiB a million puzzles, a quarter of
/// 8 GiB keeps the indexes of 45 million puzzles in memory.
pub fn default_cache_mib() -> u32 {
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .unwrap_or(16 << 20);
    let mib = (total_kib / 1024 / 4).max(BASE_CACHE_MIB);
    u32::try_from(mib).unwrap_or(u32::MAX)
}

/// The page cache an archive's connection starts with, before an import
/// sizes it for the archive ([`Scale`]).
fn starting_cache_mib(tuning: Tuning) -> u64 {
    BASE_CACHE_MIB.min(u64::from(tuning.cache_mib))
}

/// How an import writes into an archive of a given size: its batches and
/// its page cache. Every batch's commit writes each page it changed, and
/// the key and form lookup tables take new puzzles at random places (in
/// one sorted sweep per batch, `archive::pending`): past about a million puzzles
/// a 131,072-line batch changes nearly every page of both, so a commit
/// (and the checkpoint after it) costs the size of the tables, whatever
/// the batch. Batches therefore grow with the archive (an eighth of its
/// puzzles, so that each line pays the same share of the tables' pages at
/// any size), and the cache grows to hold both tables (which the writer's
/// and the workers' lookups also read at random). An eighth rather than a sixteenth: at 10M-20M
/// puzzles a batch's own cost (those pages and its checkpoint) is about
/// 2 s, which twice as many lines then share (`docs/performance.md`,
/// issue 24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    /// A batch commits after this many lines ...
    pub lines: usize,
    /// ... or this long after it began, whichever comes first.
    pub time: Duration,
    /// The writer's page cache, in MiB.
    pub cache_mib: u64,
}

/// Batches of a small archive, in lines.
pub const BATCH_LINES: usize = 131_072;
/// ... and in time: a batch holds the write lock, and a concurrent import
/// waits for its commit.
pub const BATCH_TIME: Duration = Duration::from_secs(4);
/// The longest a batch of a large archive may last: half the
/// [`BUSY_TIMEOUT`] a waiting import gives a writer that shows no change
/// (a 20M-puzzle archive's 2.5M-line batch takes about 19 s when idle).
pub const BATCH_TIME_MAX: Duration = Duration::from_secs(24);

impl Scale {
    /// The scale of an import into an archive holding `puzzles`, its cache
    /// at most `cap_mib`.
    pub fn of(puzzles: u64, cap_mib: u32) -> Scale {
        let lines = BATCH_LINES.max(usize::try_from(puzzles / 8).unwrap_or(usize::MAX));
        // The time grows with the lines, so that a batch of a large
        // archive is not cut short by the clock on a loaded machine.
        let time = BATCH_TIME
            .mul_f64(lines as f64 / BATCH_LINES as f64)
            .min(BATCH_TIME_MAX);
        let cache_mib =
            (BASE_CACHE_MIB + CACHE_MIB_PER_MILLION * puzzles / 1_000_000).min(u64::from(cap_mib));
        Scale {
            lines,
            time,
            cache_mib,
        }
    }
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

/// The file beside the archive that SQLite names `<archive><suffix>`.
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// The folder a path is in (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A `file:` URI for SQLite, every byte outside the unreserved set escaped.
fn file_uri(path: &Path, query: &str) -> String {
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
fn open_read_only(path: &Path, immutable: bool) -> rusqlite::Result<Connection> {
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

/// Why this process may not write the archive at `path` (and the files
/// SQLite keeps beside it), if it may not.
pub fn write_denied(path: &Path) -> Option<String> {
    let folder = folder_of(path);
    if path.exists()
        && let Some(why) = access_denied(path)
    {
        return Some(why.describe("the file"));
    }
    access_denied(folder).map(|why| why.describe("its folder"))
}

enum Denied {
    ReadOnlyFileSystem,
    Permission,
}

impl Denied {
    fn describe(&self, what: &str) -> String {
        match self {
            Denied::ReadOnlyFileSystem => "it is on a read-only file system".into(),
            Denied::Permission => format!("no permission to write {what}"),
        }
    }
}

#[cfg(target_os = "linux")]
fn access_denied(path: &Path) -> Option<Denied> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c` is a NUL-terminated path that outlives the call.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0 {
        return None;
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::EROFS) => Some(Denied::ReadOnlyFileSystem),
        Some(libc::EACCES | libc::EPERM) => Some(Denied::Permission),
        _ => None,
    }
}

#[cfg(not(target_os = "linux"))]
fn access_denied(path: &Path) -> Option<Denied> {
    let readonly = std::fs::metadata(path).ok()?.permissions().readonly();
    readonly.then_some(Denied::Permission)
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

    /// A small archive's import writes as it always did; a large one's
    /// batches take an eighth of its puzzles, within a time that a
    /// waiting import never mistakes for a dead writer, and its cache
    /// grows to hold both lookup tables, never past the bound.
    #[test]
    fn batches_and_cache_grow_with_the_archive_within_their_bounds() {
        let small = Scale::of(1_000_000, 4096);
        assert_eq!(
            small,
            Scale {
                lines: BATCH_LINES,
                time: BATCH_TIME,
                cache_mib: BASE_CACHE_MIB + CACHE_MIB_PER_MILLION,
            }
        );
        assert_eq!(Scale::of(0, 4096).cache_mib, BASE_CACHE_MIB);
        let big = Scale::of(20_000_000, 4096);
        assert_eq!(big.lines, 2_500_000);
        assert_eq!(big.time, BATCH_TIME_MAX);
        assert!(BATCH_TIME_MAX * 2 <= BUSY_TIMEOUT);
        // Both lookup tables of 20M puzzles: about 385 + 366 MiB.
        assert_eq!(big.cache_mib, 256 + 800);
        assert_eq!(Scale::of(20_000_000, 512).cache_mib, 512);
        assert_eq!(Scale::of(0, 64).cache_mib, 64);
        let mid = Scale::of(4_000_000, 4096);
        assert_eq!(mid.lines, 500_000);
        assert!(mid.time > BATCH_TIME && mid.time < BATCH_TIME_MAX);
        assert!(default_cache_mib() as u64 >= BASE_CACHE_MIB);
    }

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
