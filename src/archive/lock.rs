//! Telling a running import from a dead one: every import or merge holds
//! a shared OS lock on `<archive>-import-lock` while it runs; one that can
//! take it exclusively marks every `imports` row still `running` as
//! `interrupted`. The lock file also holds a reserve of disk space
//! ([`RESERVE`]) for recording a failed run on a full disk, and a "waiting"
//! stamp ([`busy`]) by which two imports take turns batch by batch.
//!
//! Waiting has no fixed limit while another import is alive and committing;
//! a stop asked for ([`crate::stop`]) ends every wait here. It holds no data
//! and never removes the lock file. In full: docs/architecture.md "Module
//! notes".

use std::cell::RefCell;
use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use rusqlite::Connection;

use super::{ArchiveError, BUSY_TIMEOUT};

/// Disk space the lock file holds for recording a failed run.
pub const RESERVE: u64 = 1 << 20;
/// How long a writer leaves the write lock free after a commit when
/// another import waits for it (a waiting one polls every [`POLL`]).
pub const YIELD: Duration = Duration::from_millis(40);
/// How often a waiting connection tries the lock again.
const POLL: Duration = Duration::from_millis(4);
/// How long a writer still waits for the write lock once a stop is asked
/// for, all its waits together.
const STOP_GRACE: Duration = Duration::from_secs(1);
/// A stamp younger than this says an import is waiting now.
const FRESH_MS: u64 = 250;
/// The stamp: process id (4 bytes) and milliseconds since 1970 (8 bytes).
const STAMP_LEN: usize = 12;

/// Held while an import runs; released when dropped or when the process dies.
#[derive(Debug)]
pub struct ImportLock {
    file: File,
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
            .read(true)
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
        // Waits only while another import is marking rows (itself perhaps
        // waiting for the write lock), and not past a stop.
        let shared = loop {
            match file.try_lock_shared() {
                Err(TryLockError::WouldBlock) if crate::stop::requested() => {
                    return Err(ArchiveError::Stopped);
                }
                Err(TryLockError::WouldBlock) => std::thread::sleep(POLL),
                other => break other,
            }
        };
        match shared {
            Ok(()) => {
                reserve(&file);
                if let Ok(stamp) = file.try_clone() {
                    WAITING.with_borrow_mut(|w| {
                        if let Some(w) = w {
                            w.stamp = Some(stamp);
                        }
                    });
                }
                Ok((Some(ImportLock { file }), interrupted))
            }
            Err(_) => Ok((None, interrupted)),
        }
    }

    /// Whether another import stamped the file as waiting just now.
    pub fn someone_waits(&self) -> bool {
        let mut b = [0u8; STAMP_LEN];
        if self.file.read_exact_at(&mut b, 0).is_err() {
            return false;
        }
        let pid = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let mut ms = [0u8; 8];
        ms.copy_from_slice(&b[4..]);
        let at = u64::from_le_bytes(ms);
        pid != 0 && pid != std::process::id() && now_ms().saturating_sub(at) < FRESH_MS
    }

    /// Gives the reserved space back to the file system.
    pub fn release_reserve(&self) {
        let _ = self.file.set_len(0);
    }
}

impl Drop for ImportLock {
    fn drop(&mut self) {
        WAITING.with_borrow_mut(|w| {
            if let Some(w) = w {
                w.stamp = None;
            }
        });
    }
}

/// Fills the lock file up to [`RESERVE`] bytes, if there is room. Zeros
/// written (not a sparse length) take real blocks.
fn reserve(file: &File) {
    let Ok(len) = file.metadata().map(|m| m.len()) else {
        return;
    };
    if len < RESERVE {
        let zeros = vec![0u8; (RESERVE - len) as usize];
        let _ = file.write_all_at(&zeros, len);
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// What the busy handler of this thread's writer connection knows: SQLite
/// calls it with no context but a count, on the thread running the
/// statement (the pipeline's sink runs on the thread that opened the
/// archive).
struct Waiting {
    /// The archive and its `-wal`: another writer's commits change them.
    watched: [PathBuf; 2],
    seen: [Option<(u64, SystemTime)>; 2],
    /// When the wait began or the files last changed.
    since: Instant,
    /// The import lock file, stamped while waiting, once the import holds it.
    stamp: Option<File>,
    /// Set for a checkpoint: wait this long at most, whatever changes.
    deadline: Option<Duration>,
    /// How long to wait without seeing a change.
    patience: Duration,
    /// When a wait first saw a stop asked for ([`crate::stop`]).
    stopped: Option<Instant>,
}

thread_local! {
    static WAITING: RefCell<Option<Waiting>> = const { RefCell::new(None) };
}

fn look(path: &Path) -> Option<(u64, SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// Makes `conn` (the writer's connection) wait for other writers as long
/// as they make progress, see the module docs.
pub fn wait_for_writers(conn: &Connection) -> rusqlite::Result<()> {
    let archive = PathBuf::from(conn.path().unwrap_or_default());
    let wal = super::beside(&archive, "-wal");
    WAITING.with_borrow_mut(|w| {
        *w = Some(Waiting {
            watched: [archive, wal],
            seen: [None, None],
            since: Instant::now(),
            stamp: None,
            deadline: None,
            patience: BUSY_TIMEOUT,
            stopped: None,
        })
    });
    conn.busy_handler(Some(busy))
}

/// Runs `f` (a checkpoint) with the busy handler waiting at most `limit`:
/// readers finishing is all a checkpoint waits for, and it is optional.
pub fn with_deadline<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let set = |d| {
        WAITING.with_borrow_mut(|w| {
            if let Some(w) = w {
                w.deadline = d;
            }
        })
    };
    set(Some(limit));
    let out = f();
    set(None);
    out
}

/// SQLite's busy handler for the writer: `true` to try again.
fn busy(attempt: i32) -> bool {
    let go_on = WAITING.with_borrow_mut(|w| {
        let Some(w) = w else {
            return !crate::stop::requested()
                && Duration::from_millis(4) * (attempt.max(0) as u32) < BUSY_TIMEOUT;
        };
        let now = Instant::now();
        // After a stop, waiting goes on only for [`STOP_GRACE`] in all:
        // enough to record the run's end beside another import's batch.
        if crate::stop::requested()
            && now.duration_since(*w.stopped.get_or_insert(now)) >= STOP_GRACE
        {
            return false;
        }
        let seen = [look(&w.watched[0]), look(&w.watched[1])];
        if attempt == 0 {
            w.since = now;
            w.seen = seen;
        } else if let Some(limit) = w.deadline {
            return now.duration_since(w.since) < limit;
        } else if seen != w.seen {
            w.seen = seen;
            w.since = now;
        }
        if w.deadline.is_none()
            && let Some(f) = &w.stamp
        {
            let mut b = [0u8; STAMP_LEN];
            b[..4].copy_from_slice(&std::process::id().to_le_bytes());
            b[4..].copy_from_slice(&now_ms().to_le_bytes());
            let _ = f.write_all_at(&b, 0);
        }
        now.duration_since(w.since) < w.deadline.unwrap_or(w.patience)
    });
    if go_on {
        std::thread::sleep(POLL);
    }
    go_on
}

/// A run found killed and marked `interrupted`, as its `imports` row tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Killed {
    Import {
        id: i64,
    },
    /// A merge: the archives it was folding in, and its command line
    /// (`sudoku-archive merge ...`), which run again completes it.
    Merge {
        id: i64,
        inputs: Vec<String>,
        command: String,
    },
    /// A pass over the stored puzzles (`rate`, `fill minimal`) or a
    /// `forget`: its name and its command line, which run again completes it.
    Pass {
        id: i64,
        name: String,
        command: String,
    },
}

/// What the runs `ids` of the archive at `path` were, read through a
/// connection of its own (the writer's is busy with the run): a merge is
/// told by its command line, which starts with `merge`. A run whose row
/// cannot be read is called an import.
pub fn killed_runs(path: &Path, ids: &[i64]) -> Vec<Killed> {
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).ok();
    ids.iter()
        .map(|&id| {
            let arguments: Option<String> = conn.as_ref().and_then(|c| {
                c.query_row("SELECT arguments FROM imports WHERE id = ?1", [id], |r| {
                    r.get(0)
                })
                .ok()
            });
            let args: Vec<String> = arguments
                .and_then(|a| serde_json::from_str(&a).ok())
                .unwrap_or_default();
            match args.first().map(String::as_str) {
                Some("merge") => Killed::Merge {
                    id,
                    inputs: merge_inputs(&args[1..]),
                    command: command_line(&args),
                },
                Some(pass @ ("rate" | "fill" | "forget")) => Killed::Pass {
                    id,
                    name: match (pass, args.get(1)) {
                        ("fill", Some(what)) => format!("fill {what}"),
                        _ => pass.to_string(),
                    },
                    command: command_line(&args),
                },
                _ => Killed::Import { id },
            }
        })
        .collect()
}

/// The archives a merge's arguments (after `merge`) name: what is neither
/// a flag nor the value of one.
fn merge_inputs(args: &[String]) -> Vec<String> {
    const VALUED: [&str; 4] = ["--db", "--dedup", "--batch-puzzles", "--max-pages"];
    let mut inputs = Vec::new();
    let mut args = args.iter();
    while let Some(a) = args.next() {
        if VALUED.contains(&a.as_str()) {
            args.next();
        } else if a == "--" {
            inputs.extend(args.by_ref().cloned());
        } else if !a.starts_with('-') {
            inputs.push(a.clone());
        }
    }
    inputs
}

/// `sudoku-archive ARGS` as a shell reads it back: an argument with
/// anything but plain characters in single quotes.
fn command_line(args: &[String]) -> String {
    let plain = |a: &str| {
        !a.is_empty()
            && a.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    };
    let quoted = args.iter().map(|a| {
        if plain(a) {
            a.clone()
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    });
    std::iter::once("sudoku-archive".to_string())
        .chain(quoted)
        .collect::<Vec<_>>()
        .join(" ")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Another writer that commits without ever leaving a gap a poller
    /// could use, for `rounds` transactions of `hold` each.
    fn hog(path: PathBuf, rounds: u32, hold: Duration) -> std::thread::JoinHandle<()> {
        let c = Connection::open(&path).unwrap();
        c.execute_batch("BEGIN IMMEDIATE").unwrap();
        std::thread::spawn(move || {
            for i in 0..rounds {
                c.execute("INSERT INTO t VALUES (?1)", [i]).unwrap();
                std::thread::sleep(hold);
                c.execute_batch("COMMIT; BEGIN IMMEDIATE").unwrap();
            }
            c.execute_batch("COMMIT").unwrap();
        })
    }

    fn archive() -> (tempfile::TempDir, PathBuf, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.sqlite");
        let c = Connection::open(&path).unwrap();
        let _: String = c
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .unwrap();
        c.execute_batch("CREATE TABLE t (x)").unwrap();
        wait_for_writers(&c).unwrap();
        WAITING.with_borrow_mut(|w| w.as_mut().unwrap().patience = Duration::from_millis(300));
        (dir, path, c)
    }

    #[test]
    fn a_writer_that_keeps_committing_is_waited_for_past_the_patience() {
        let (_dir, path, _c) = archive();
        let wal = super::super::beside(&path, "-wal");
        let commit = |n: usize| std::fs::write(&wal, vec![1u8; n]).unwrap();
        assert!(busy(0));
        // Each change of the -wal (another writer's commit) restarts the
        // patience: 4 x 200 ms with changes, past its 300 ms.
        for n in 1..=4 {
            std::thread::sleep(Duration::from_millis(200));
            commit(n);
            assert!(busy(n as i32), "{n}");
        }
        // Then nothing changes for longer than the patience: give up.
        std::thread::sleep(Duration::from_millis(350));
        assert!(!busy(5));
    }

    #[test]
    fn a_writer_that_stalls_is_given_up_on_after_the_patience() {
        let (_dir, path, c) = archive();
        let other = hog(path, 1, Duration::from_millis(1500));
        let start = Instant::now();
        let e = c.execute_batch("BEGIN IMMEDIATE").unwrap_err();
        assert_eq!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy)
        );
        let waited = start.elapsed();
        assert!(
            waited >= Duration::from_millis(300) && waited < Duration::from_millis(1200),
            "{waited:?}"
        );
        other.join().unwrap();
    }
}
