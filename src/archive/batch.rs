//! The batch lifecycle of a run that writes (import, merge, a pass over
//! stored puzzles): its recorded run ([`super::run`]), the open
//! transaction and when it began, the lines it holds, when it must close
//! (the archive's [`super::Scale`]: lines or time), the commit with the
//! run's counts, what comes after a commit (the WAL bound, a waiting
//! import let in, the next scale), and the run's end (`finished`,
//! `failed` with the open batch rolled back, or `interrupted` with it
//! committed). It writes no row of its own but the run's: what a batch
//! holds, and what must go in just before its commit, are the caller's.

use std::time::Instant;

use rusqlite::Connection;

use super::lines::Counts;
use super::run::{Kind, Run};
use super::{Archive, ArchiveError, Scale};

/// One run's batches.
pub struct Batch {
    run: Run,
    /// When the open transaction began, if one is open.
    started: Option<Instant>,
    /// Lines (or rows) written in it.
    lines: usize,
    /// A fixed number of lines a batch, in place of the scale's (tests).
    pub fixed_lines: Option<usize>,
}

impl Batch {
    /// Records the start of a run with its command line (see
    /// [`Run::begin`]); also returns the runs marked `interrupted` on
    /// taking the lock.
    pub fn begin(
        archive: &Archive,
        kind: &'static Kind,
        arguments: &[String],
    ) -> Result<(Batch, Vec<i64>), ArchiveError> {
        let (run, interrupted) = Run::begin(archive, kind, arguments)?;
        let batch = Batch {
            run,
            started: None,
            lines: 0,
            fixed_lines: None,
        };
        Ok((batch, interrupted))
    }

    /// The run's `imports` id.
    pub fn run_id(&self) -> i64 {
        self.run.id
    }

    /// The batches and cache of the archive's size now.
    pub fn scale(&self) -> Scale {
        self.run.scale()
    }

    /// When the open batch began, if one is open.
    pub fn started(&self) -> Option<Instant> {
        self.started
    }

    /// Opens a batch transaction unless one is open. Returns when it began
    /// and whether it began now.
    pub fn open(&mut self, conn: &Connection) -> Result<(Instant, bool), ArchiveError> {
        match self.started {
            Some(t) => Ok((t, false)),
            None => {
                conn.execute_batch("BEGIN IMMEDIATE")
                    .map_err(|e| ArchiveError::sql("starting a batch", e))?;
                Ok((*self.started.insert(Instant::now()), true))
            }
        }
    }

    /// Counts `lines` more written in the open batch.
    pub fn add(&mut self, lines: usize) {
        self.lines += lines;
    }

    /// Whether the open batch is due to close: its lines or its time.
    pub fn full(&self) -> bool {
        let scale = self.scale();
        let lines = self.fixed_lines.unwrap_or(scale.lines);
        self.started
            .is_some_and(|t| self.lines >= lines || t.elapsed() >= scale.time)
    }

    /// When the open batch must close, if one is open.
    pub fn deadline(&self) -> Option<Instant> {
        self.started.map(|t| t + self.scale().time)
    }

    /// Commits the open batch, if any, after `before` (what must go in
    /// with it: lookup entries, removals, counts); returns whether one was
    /// open. A batch whose `before` or commit failed is no longer open
    /// here: the run's end rolls it back.
    pub fn commit(
        &mut self,
        conn: &Connection,
        before: impl FnOnce(&Connection) -> Result<(), ArchiveError>,
    ) -> Result<bool, ArchiveError> {
        if self.started.take().is_none() {
            return Ok(false);
        }
        self.lines = 0;
        before(conn)?;
        conn.execute_batch("COMMIT")
            .map_err(|e| ArchiveError::sql("committing a batch", e))?;
        Ok(true)
    }

    /// The open batch was rolled back (or ended by the run's end): none is
    /// open now.
    pub fn forget(&mut self) {
        self.started = None;
        self.lines = 0;
    }

    /// Rolls the open batch back, if one is open.
    pub fn roll_back(&mut self, conn: &Connection) -> Result<(), ArchiveError> {
        self.lines = 0;
        if self.started.take().is_some() {
            conn.execute_batch("ROLLBACK")
                .map_err(|e| ArchiveError::sql("rolling back a batch", e))?;
        }
        Ok(())
    }

    /// After a commit: bounds the WAL, lets a waiting import in, and sizes
    /// the next batch and the cache for the archive with the `stored`
    /// puzzles the run added (see [`Run::after_commit`]).
    pub fn after_commit(&mut self, archive: &Archive, stored: u64) -> Result<(), ArchiveError> {
        self.run.after_commit(archive, stored)
    }

    /// Writes the run's running counts into its row (in the open batch).
    pub fn write_counts(&self, conn: &Connection, counts: Counts) -> Result<(), ArchiveError> {
        super::run::write_counts(conn, self.run.id, counts)
            .map_err(|e| ArchiveError::sql("writing a batch", e))
    }

    /// Ends the run: `finished` after `committed` (the last batch's commit,
    /// not tried when the caller brings an `error`), or `failed` with the
    /// first failure and the open batch rolled back (see [`Run::finish`]).
    pub fn finish(
        &mut self,
        conn: &Connection,
        committed: Result<(), ArchiveError>,
        error: Option<&str>,
    ) -> Result<(), ArchiveError> {
        self.forget();
        self.run.finish(conn, committed, error)
    }

    /// Ends the run with `status` (`interrupted`), its last batch committed
    /// by the caller.
    pub fn end(&mut self, conn: &Connection, status: &str) -> Result<(), ArchiveError> {
        self.forget();
        self.run.end(conn, status, None)
    }
}
