//! A recorded run under the import lock: the part an import
//! ([`super::writer`]) and a merge ([`super::merge`]) share of being one
//! row in `imports`. It begins the row (`running`, the command line, the
//! lock taken, foreign-key enforcement off) and ends it (`finished`,
//! `failed` with the error, or `interrupted`, even on a full disk: the lock
//! file's reserve is given back first), sizes batches and cache for the
//! archive ([`Scale`]), and between batches keeps the WAL bounded beside
//! readers and lets a waiting import in ([`Run::after_commit`]).
//!
//! It keeps no counts, batches or reports of its caller. The lock is
//! released when the [`Run`] is dropped. In full: docs/architecture.md
//! "Module notes".

use std::time::Duration;

use rusqlite::{Connection, params};

use super::lock::ImportLock;
use super::{Archive, ArchiveError, Scale, set_foreign_keys};

/// How long the checkpoint at the end of a run waits for readers.
pub const FINAL_CHECKPOINT_WAIT: Duration = Duration::from_secs(1);

/// The WAL size past which a commit is followed by a checkpoint that waits
/// for readers.
pub const WAL_BOUND: u64 = 64 << 20;
/// The least size the WAL file is trimmed to when it restarts
/// (`journal_size_limit`): above a batch's usual size into a small archive
/// (about 95 MB for 131,072 new puzzles), so that the file is not shortened
/// and grown again at every batch. Into a large archive it is the page
/// cache's size ([`Archive::apply_scale`]).
pub const WAL_TRIM: u64 = 4 * WAL_BOUND;
/// How long that checkpoint waits for readers.
const CHECKPOINT_WAIT: Duration = Duration::from_millis(200);

/// What differs between the kinds of run: the error contexts.
pub struct Kind {
    /// Context of a failure to insert the run's row.
    pub recording: &'static str,
    /// Context of a failure to record its end.
    pub recording_end: &'static str,
}

/// An import ([`super::writer`]).
pub const IMPORT: Kind = Kind {
    recording: "recording the import",
    recording_end: "recording the end of the import",
};

/// A merge ([`super::merge`]).
pub const MERGE: Kind = Kind {
    recording: "recording the merge",
    recording_end: "recording the end of the merge",
};

/// One run's `imports` row, the lock it holds, and the archive's scale.
pub struct Run {
    pub id: i64,
    kind: &'static Kind,
    lock: Option<ImportLock>,
    /// The archive's puzzles when the run began.
    puzzles_before: u64,
    /// Its batches and cache for the archive's size now.
    scale: Scale,
}

impl Run {
    /// Records the start of a run with its command line; also returns the
    /// runs marked `interrupted` on taking the lock.
    pub fn begin(
        archive: &Archive,
        kind: &'static Kind,
        arguments: &[String],
    ) -> Result<(Run, Vec<i64>), ArchiveError> {
        let args = serde_json::to_string(arguments).unwrap_or_default();
        set_foreign_keys(&archive.conn, false)?;
        let (lock, interrupted) = ImportLock::take(&archive.path, &archive.conn)?;
        archive
            .conn
            .execute("INSERT INTO imports (arguments) VALUES (?1)", [args])
            .map_err(|e| ArchiveError::sql(kind.recording, e))?;
        let id = archive.conn.last_insert_rowid();
        let puzzles_before = archive.puzzle_count()?;
        let scale = archive.scale_at(puzzles_before);
        archive.apply_scale(scale)?;
        let run = Run {
            id,
            kind,
            lock,
            puzzles_before,
            scale,
        };
        Ok((run, interrupted))
    }

    /// The batches and cache of the archive's size now.
    pub fn scale(&self) -> Scale {
        self.scale
    }

    /// After a batch's commit: bounds the WAL (see the module doc), lets
    /// an import that waits for the lock in, and sizes the next batch and
    /// the cache for the archive with the `stored` puzzles the run added.
    pub fn after_commit(&mut self, archive: &Archive, stored: u64) -> Result<(), ArchiveError> {
        let wal = super::beside(&archive.path, "-wal");
        if std::fs::metadata(wal).is_ok_and(|m| m.len() > WAL_BOUND) {
            checkpoint(&archive.conn, "RESTART", CHECKPOINT_WAIT);
        }
        self.yield_to_waiting();
        let scale = archive.scale_at(self.puzzles_before + stored);
        if scale != self.scale {
            archive.apply_scale(scale)?;
            self.scale = scale;
        }
        Ok(())
    }

    /// Lets an import that waits for the lock in.
    fn yield_to_waiting(&self) {
        if self.lock.as_ref().is_some_and(ImportLock::someone_waits) {
            std::thread::sleep(super::lock::YIELD);
        }
    }

    /// Ends the run after its last batch. `committed` is that batch's
    /// commit (not tried when the caller brings an `error`). The run is
    /// `finished`, or `failed` with the first failure (the commit's own
    /// first) and the open batch rolled back: the archive keeps only whole
    /// batches, and a COMMIT that failed may have left its transaction open
    /// (SQLite rolls back by itself after some errors, not all).
    pub fn finish(
        &self,
        conn: &Connection,
        committed: Result<(), ArchiveError>,
        error: Option<&str>,
    ) -> Result<(), ArchiveError> {
        let failure = match (&committed, error) {
            (Err(e), _) => Some(e.to_string()),
            (Ok(()), e) => e.map(str::to_string),
        };
        let status = match failure {
            Some(_) => {
                if !conn.is_autocommit() {
                    let _ = conn.execute_batch("ROLLBACK");
                }
                "failed"
            }
            None => "finished",
        };
        let recorded = self.end(conn, status, failure.as_deref());
        committed.and(recorded)
    }

    /// Records how the run ended, with the time, then shrinks the WAL.
    pub fn end(
        &self,
        conn: &Connection,
        status: &str,
        error: Option<&str>,
    ) -> Result<(), ArchiveError> {
        set_foreign_keys(conn, true)?;
        let recorded = match self.record_end(conn, status, error) {
            Err(ArchiveError::Full { .. }) if self.lock.is_some() => {
                if let Some(lock) = &self.lock {
                    lock.release_reserve();
                }
                self.record_end(conn, status, error)
            }
            other => other,
        };
        checkpoint(conn, "TRUNCATE", FINAL_CHECKPOINT_WAIT);
        recorded
    }

    fn record_end(
        &self,
        conn: &Connection,
        status: &str,
        error: Option<&str>,
    ) -> Result<(), ArchiveError> {
        conn.execute(
            "UPDATE imports SET status = ?2, error = ?3,
                 finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ?1",
            params![self.id, status, error],
        )
        .map(|_| ())
        .map_err(|e| ArchiveError::sql(self.kind.recording_end, e))
    }
}

/// A checkpoint that waits for readers at most `wait`; one that cannot
/// finish now is left to a later one.
pub fn checkpoint(conn: &Connection, mode: &str, wait: Duration) {
    super::lock::with_deadline(wait, || {
        let _ = conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |_| Ok(()));
    });
}

/// Writes a run's running counts (an import's or a merge's) into its row.
pub fn write_counts(
    conn: &Connection,
    import_id: i64,
    c: super::lines::Counts,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "UPDATE imports SET lines = ?2, stored = ?3, duplicates = ?4, rejected = ?5, skipped = ?6,
             isomorphs = ?7
         WHERE id = ?1",
    )?
    .execute(params![
        import_id,
        c.lines,
        c.stored,
        c.duplicates,
        c.rejected,
        c.skipped,
        c.isomorphs
    ])
    .map(|_| ())
}
