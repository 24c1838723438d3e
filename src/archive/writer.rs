//! Writing one import: the `imports` row, then the processed chunks in batch
//! transactions (puzzles, provenance, rejects and the running counts
//! together), so a killed run leaves only whole batches and counts that
//! match them. Deduplication is the unique index on `puzzles.key`; a key
//! match with different givens (a hash collision) is reported, never merged.
//!
//! The WAL stays bounded beside readers: after a commit that leaves it
//! over [`WAL_BOUND`], a `wal_checkpoint(RESTART)` waits (at most
//! [`CHECKPOINT_WAIT`]) for readers still on older snapshots, so that the
//! next batch writes the WAL from its start again instead of growing it;
//! `journal_size_limit` trims the file to [`WAL_TRIM`] then, and the end of an
//! import truncates it. A reader that holds one snapshot for longer (an
//! open `sqlite3` transaction) keeps the WAL growing until it ends.
//!
//! A failed run is recorded as `failed` with its error even on a full
//! disk: if the WAL has no room for that row, the reserve held by the
//! import lock file ([`super::lock`]) is given back first.

use std::time::{Duration, Instant};

use rusqlite::params;

use super::lines::ChunkLines;
use super::lock::ImportLock;
use super::{Archive, ArchiveError, set_foreign_keys};
use crate::pipeline::{Input, Processed, Sink};
use crate::progress::Progress;

/// What became of the lines of one import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub lines: u64,
    pub stored: u64,
    pub duplicates: u64,
    pub rejected: u64,
    pub skipped: u64,
    /// Duplicates that were isomorphs, not exact copies (`--dedup isomorphs`).
    pub isomorphs: u64,
}

/// What makes a line a duplicate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dedup {
    /// The same type and givens as a stored puzzle.
    #[default]
    Exact,
    /// Or the same canonical form: relabelled, permuted, rotated copies.
    Isomorphs,
}

/// A batch transaction is committed after this many lines or this long,
/// whichever comes first. Large batches matter: every commit writes each
/// index page the batch touched, and the key indexes are random. Doubling
/// them from 65,536 lines (2 s) wrote a fifth less to disk on a 1M-line
/// import and took about a tenth less time; a kill loses at most one.
const BATCH_LINES: usize = 131_072;
const BATCH_TIME: std::time::Duration = std::time::Duration::from_secs(4);

/// The WAL size past which a commit is followed by a checkpoint that waits
/// for readers.
pub const WAL_BOUND: u64 = 64 << 20;
/// The size the WAL file is trimmed to when it restarts
/// (`journal_size_limit`): above a batch's usual size (about 95 MB for
/// 131,072 new puzzles), so that the file is not shortened and grown again
/// at every batch.
pub const WAL_TRIM: u64 = 4 * WAL_BOUND;
/// How long that checkpoint waits for readers.
const CHECKPOINT_WAIT: Duration = Duration::from_millis(200);
/// How long the checkpoint at the end of an import waits for readers.
const FINAL_CHECKPOINT_WAIT: Duration = Duration::from_secs(1);

/// How many reject messages an import prints (all are in the archive).
pub const SHOWN_REJECTS: usize = 10;

pub struct ImportWriter<'a> {
    archive: &'a mut Archive,
    dedup: Dedup,
    pub import_id: i64,
    /// Earlier imports found killed, now marked `interrupted`.
    pub interrupted: Vec<i64>,
    /// Tells later imports this one is alive.
    lock: Option<ImportLock>,
    pub counts: Counts,
    /// `file:line: message` of the first rejects, for the summary.
    pub first_rejects: Vec<String>,
    file_ids: Vec<Option<i64>>,
    progress: Progress,
    /// When the open batch transaction began, if one is open.
    batch_started: Option<Instant>,
    /// Lines written in the open batch.
    batch_lines: usize,
    /// Size of the input being read, added to the bar's base when it ends.
    current_len: u64,
    started: Instant,
}

impl<'a> ImportWriter<'a> {
    /// Records the start of an import with its command line.
    pub fn begin(
        archive: &'a mut Archive,
        dedup: Dedup,
        arguments: &[String],
        inputs: usize,
        progress: Progress,
    ) -> Result<ImportWriter<'a>, ArchiveError> {
        let args = serde_json::to_string(arguments).unwrap_or_default();
        // Every reference the writer makes is to a row it has just read or
        // written (this import, the file, the puzzle just stored or found),
        // so SQLite's own checks, four lookups per line and an eighth of the
        // writing time, are off for the import; the tests check the result
        // with `foreign_key_check`. Enforcement is back on in `finish`.
        set_foreign_keys(&archive.conn, false)?;
        let (lock, interrupted) = ImportLock::take(&archive.path, &archive.conn)?;
        archive
            .conn
            .execute("INSERT INTO imports (arguments) VALUES (?1)", [args])
            .map_err(|e| ArchiveError::sql("recording the import", e))?;
        let import_id = archive.conn.last_insert_rowid();
        if dedup == Dedup::Isomorphs {
            // Rows imported with --no-canonical get their form now, or an
            // isomorph of them would be stored as new.
            super::canonical::fill_missing(&archive.conn)?;
        }
        Ok(ImportWriter {
            archive,
            dedup,
            import_id,
            interrupted,
            lock,
            counts: Counts::default(),
            first_rejects: Vec::new(),
            file_ids: vec![None; inputs],
            progress,
            current_len: 0,
            batch_started: None,
            batch_lines: 0,
            started: Instant::now(),
        })
    }

    /// Marks the import finished, or failed with the reason (its own
    /// failure to commit the last batch included), then shrinks the WAL.
    pub fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        self.progress.finish();
        let committed = match error {
            Some(_) => Ok(()),
            None => self.commit(),
        };
        let failure = match (&committed, error) {
            (Err(e), _) => Some(e.to_string()),
            (Ok(()), e) => e.map(str::to_string),
        };
        if failure.is_some() {
            self.rollback();
        }
        set_foreign_keys(&self.archive.conn, true)?;
        let recorded = match self.record_end(failure.as_deref()) {
            // No room in the WAL for the row's page: give the reserve back.
            Err(ArchiveError::Full { .. }) if self.lock.is_some() => {
                if let Some(lock) = &self.lock {
                    lock.release_reserve();
                }
                self.record_end(failure.as_deref())
            }
            other => other,
        };
        self.checkpoint("TRUNCATE", FINAL_CHECKPOINT_WAIT);
        committed.and(recorded)
    }

    fn record_end(&self, error: Option<&str>) -> Result<(), ArchiveError> {
        let status = if error.is_some() {
            "failed"
        } else {
            "finished"
        };
        self.archive
            .conn
            .execute(
                "UPDATE imports SET status = ?2, error = ?3,
                     finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                 WHERE id = ?1",
                params![self.import_id, status, error],
            )
            .map(|_| ())
            .map_err(|e| ArchiveError::sql("recording the end of the import", e))
    }

    /// A checkpoint that waits for readers at most `wait`; one that cannot
    /// finish now is left to a later one.
    fn checkpoint(&self, mode: &str, wait: Duration) {
        let conn = &self.archive.conn;
        super::lock::with_deadline(wait, || {
            let _ = conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |_| Ok(()));
        });
    }

    /// Commits the open batch, if any.
    fn commit(&mut self) -> Result<(), ArchiveError> {
        if self.batch_started.take().is_some() {
            self.batch_lines = 0;
            self.archive
                .conn
                .execute_batch("COMMIT")
                .map_err(|e| ArchiveError::sql("committing a batch", e))?;
        }
        Ok(())
    }

    /// After a batch's commit: bound the WAL, and let a waiting import in.
    fn after_commit(&self) {
        let wal = super::beside(&self.archive.path, "-wal");
        if std::fs::metadata(wal).is_ok_and(|m| m.len() > WAL_BOUND) {
            self.checkpoint("RESTART", CHECKPOINT_WAIT);
        }
        if self.lock.as_ref().is_some_and(ImportLock::someone_waits) {
            std::thread::sleep(super::lock::YIELD);
        }
    }

    /// Drops the open batch after a failure: the archive keeps only whole
    /// batches. A COMMIT that failed may have left its transaction open
    /// (SQLite rolls back by itself after some errors, not all).
    fn rollback(&mut self) {
        self.batch_started = None;
        self.batch_lines = 0;
        if !self.archive.conn.is_autocommit() {
            let _ = self.archive.conn.execute_batch("ROLLBACK");
        }
    }

    fn file_id(&mut self, path: &str) -> Result<i64, ArchiveError> {
        let c = &self.archive.conn;
        c.execute("INSERT OR IGNORE INTO files (path) VALUES (?1)", [path])
            .map_err(|e| ArchiveError::sql("recording the input file", e))?;
        c.query_row("SELECT id FROM files WHERE path = ?1", [path], |r| r.get(0))
            .map_err(|e| ArchiveError::sql("looking up the input file", e))
    }

    fn write_chunk(&mut self, name: &str, file_id: i64, p: &Processed) -> Result<(), ArchiveError> {
        let batch_started = match self.batch_started {
            Some(t) => t,
            None => {
                self.archive
                    .conn
                    .execute_batch("BEGIN IMMEDIATE")
                    .map_err(|e| ArchiveError::sql("starting a batch", e))?;
                *self.batch_started.insert(Instant::now())
            }
        };
        let tx = &self.archive.conn;
        let (c, shown) = ChunkLines::new(
            tx,
            &p.chunk,
            name,
            file_id,
            self.import_id,
            self.dedup,
            self.counts,
        )
        .write(&p.outcomes)?;
        tx.execute(
            "UPDATE imports SET lines = ?2, stored = ?3, duplicates = ?4, rejected = ?5, skipped = ?6,
                 isomorphs = ?7
             WHERE id = ?1",
            params![
                self.import_id,
                c.lines,
                c.stored,
                c.duplicates,
                c.rejected,
                c.skipped,
                c.isomorphs
            ],
        )
        .map_err(|e| ArchiveError::sql("writing a batch", e))?;
        for line in shown {
            if self.first_rejects.len() < SHOWN_REJECTS {
                self.first_rejects.push(line);
            }
        }
        self.counts = c;
        self.batch_lines += p.chunk.items.len();
        if self.batch_lines >= BATCH_LINES || batch_started.elapsed() >= BATCH_TIME {
            self.commit()?;
            self.after_commit();
        }
        Ok(())
    }

    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

impl Sink for ImportWriter<'_> {
    type Error = ArchiveError;

    fn begin_input(
        &mut self,
        index: usize,
        input: &Input,
        len: Option<u64>,
    ) -> Result<(), ArchiveError> {
        if index > 0 {
            self.progress.input_done(self.current_len);
        }
        self.current_len = len.unwrap_or(0);
        let id = self.file_id(&input.name())?;
        if let Some(slot) = self.file_ids.get_mut(index) {
            *slot = Some(id);
        }
        Ok(())
    }

    fn write(&mut self, inputs: &[Input], p: &Processed) -> Result<(), ArchiveError> {
        let name = inputs.get(p.input).map(Input::name).unwrap_or_default();
        let file_id = match self.file_ids.get(p.input).copied().flatten() {
            Some(id) => id,
            None => self.file_id(&name)?,
        };
        self.write_chunk(&name, file_id, p)?;
        let secs = self.elapsed().max(1e-9);
        let done = self.counts.stored + self.counts.duplicates + self.counts.rejected;
        self.progress
            .update(p.chunk.offset, self.counts.lines, done as f64 / secs);
        Ok(())
    }
}
