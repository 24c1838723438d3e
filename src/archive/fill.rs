//! Filling a stored value in for existing puzzles: what a value is to the
//! archive ([`Filled`]: its columns, the puzzles it applies to), the
//! stored puzzles still without it, in id order from an id ([`Unfilled`],
//! read through a connection of its own), and the writer of the values
//! ([`FillWriter`]: batches of updates with the run's counts, through
//! [`Batch`]). A row whose value is NULL is not filled yet, so a killed or
//! stopped fill resumes where its last commit left it. No computing here:
//! the values come from the pipeline's workers.

use std::path::Path;
use std::time::Instant;

use rusqlite::{Connection, params};

use super::batch::Batch;
use super::lines::Counts;
use super::run::Kind;
use super::{Archive, ArchiveError, BUSY_TIMEOUT, open_read_only};
use crate::core::puzzle::PuzzleType;
use crate::pipeline::pass::{Source, Writer};
use crate::record::{StoredPuzzle, Value, Values};

/// A stored value that a pass over stored puzzles fills in.
#[derive(Debug)]
pub struct Filled {
    /// Its name, as `fill` takes it.
    pub name: &'static str,
    /// The `puzzles` columns it writes, in the order the work gives them;
    /// the first is NULL until the value is filled.
    pub columns: &'static [&'static str],
    /// Which puzzles it applies to (SQL over `puzzles`); the others keep
    /// NULL.
    pub applies: &'static str,
}

impl Filled {
    /// The puzzles it applies to and has not been filled in for.
    fn unfilled(&self) -> String {
        format!("({}) AND {} IS NULL", self.applies, self.columns[0])
    }
}

/// The puzzles `filled` applies to still without it.
pub fn unfilled_count(archive: &Archive, filled: &Filled) -> Result<u64, ArchiveError> {
    archive
        .conn
        .query_row(
            &format!("SELECT count(*) FROM puzzles WHERE {}", filled.unfilled()),
            [],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n.max(0) as u64)
        .map_err(|e| ArchiveError::sql("counting the puzzles to fill", e))
}

/// Puzzles a chunk of [`Unfilled`] holds.
const CHUNK: i64 = 1024;

/// The stored puzzles `filled` applies to and has not been filled in for,
/// in id order after an id, in chunks: a [`Source`] for the pipeline.
/// Each chunk is one read of its own connection, so that the writer's
/// commits in between are seen and no snapshot is held.
pub struct Unfilled {
    conn: Connection,
    select: String,
    after: i64,
}

impl Unfilled {
    /// The puzzles of the archive at `path` after id `after`.
    pub fn open(path: &Path, filled: &Filled, after: i64) -> Result<Unfilled, ArchiveError> {
        let open_error = |e: rusqlite::Error| ArchiveError::Open {
            path: path.to_path_buf(),
            why: super::sqlite_message(&e),
        };
        let conn = open_read_only(path, false).map_err(open_error)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(open_error)?;
        let select = format!(
            "SELECT id, type, clues, givens, solutions FROM puzzles
             WHERE id > ?1 AND {} ORDER BY id LIMIT ?2",
            filled.unfilled()
        );
        Ok(Unfilled {
            conn,
            select,
            after,
        })
    }
}

impl Source for Unfilled {
    type Item = StoredPuzzle;
    type Error = ArchiveError;

    fn next_chunk(&mut self) -> Result<Option<Vec<StoredPuzzle>>, ArchiveError> {
        let e = |e| ArchiveError::sql("reading the puzzles to fill", e);
        let mut select = self.conn.prepare_cached(&self.select).map_err(e)?;
        let mut rows = select.query(params![self.after, CHUNK]).map_err(e)?;
        let mut chunk = Vec::with_capacity(CHUNK as usize);
        let mut last = None;
        while let Some(r) = rows.next().map_err(e)? {
            let id: i64 = r.get(0).map_err(e)?;
            last = Some(id);
            let kind: String = r.get(1).map_err(e)?;
            // A type this binary does not know is no puzzle it can compute.
            let Some(kind) = PuzzleType::from_name(&kind) else {
                continue;
            };
            chunk.push(StoredPuzzle {
                id,
                kind,
                clues: r.get(2).map_err(e)?,
                givens: r.get(3).map_err(e)?,
                solutions: r.get(4).map_err(e)?,
            });
        }
        Ok(last.map(|last| {
            self.after = last;
            chunk
        }))
    }
}

/// A fill's run, as `imports` records it.
pub const FILL: Kind = Kind {
    recording: "recording the fill",
    recording_end: "recording the end of the fill",
};

/// Writes the values the workers computed, in batches with the run's
/// counts (`lines`: puzzles computed, `stored`: values filled in).
pub struct FillWriter<'a> {
    archive: &'a Archive,
    filled: &'static Filled,
    batch: Batch,
    update: String,
    pub counts: Counts,
    /// Earlier runs found killed, now marked `interrupted`.
    pub interrupted: Vec<i64>,
    started: Instant,
}

impl<'a> FillWriter<'a> {
    /// Records the start of a fill with its command line.
    pub fn begin(
        archive: &'a Archive,
        filled: &'static Filled,
        arguments: &[String],
    ) -> Result<FillWriter<'a>, ArchiveError> {
        let (batch, interrupted) = Batch::begin(archive, &FILL, arguments)?;
        let sets: Vec<String> = filled
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c} = ?{}", i + 2))
            .collect();
        let update = format!("UPDATE puzzles SET {} WHERE id = ?1", sets.join(", "));
        Ok(FillWriter {
            archive,
            filled,
            batch,
            update,
            counts: Counts::default(),
            interrupted,
            started: Instant::now(),
        })
    }

    /// The run's `imports` id.
    pub fn run_id(&self) -> i64 {
        self.batch.run_id()
    }

    /// Batches of `lines` puzzles, in place of the archive's scale (tests).
    pub fn fixed_batches(&mut self, lines: usize) {
        self.batch.fixed_lines = Some(lines.max(1));
    }

    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    fn commit(&mut self) -> Result<(), ArchiveError> {
        self.batch.commit(&self.archive.conn, |_| Ok(()))?;
        Ok(())
    }

    /// Ends the fill `finished` (the open batch committed), or `failed`
    /// with the error (the open batch rolled back).
    pub fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        let committed = match error {
            Some(_) => Ok(()),
            None => self.commit(),
        };
        self.batch.finish(&self.archive.conn, committed, error)
    }

    /// Ends the fill `interrupted`, the open batch (whole chunks) committed.
    pub fn interrupt(&mut self) -> Result<(), ArchiveError> {
        self.commit()?;
        self.batch.end(&self.archive.conn, "interrupted")
    }
}

/// A value as SQLite stores it.
fn sql_value(v: &Value) -> rusqlite::types::Value {
    use rusqlite::types::Value as V;
    match v {
        Value::Int(n) => V::Integer(*n),
        Value::Real(x) => V::Real(*x),
        Value::Text(t) => V::Text(t.clone()),
    }
}

impl Writer<StoredPuzzle, Values> for FillWriter<'_> {
    type Error = ArchiveError;

    fn write(&mut self, items: &[StoredPuzzle], outs: &[Values]) -> Result<(), ArchiveError> {
        let conn = &self.archive.conn;
        self.batch.open(conn)?;
        let e = |e| ArchiveError::sql("writing a batch", e);
        let mut update = conn.prepare_cached(&self.update).map_err(e)?;
        for (item, values) in items.iter().zip(outs) {
            let Some(values) = values else {
                continue;
            };
            if values.len() != self.filled.columns.len() {
                return Err(ArchiveError::sql(
                    "writing a batch",
                    rusqlite::Error::InvalidParameterCount(values.len(), self.filled.columns.len()),
                ));
            }
            let mut params: Vec<rusqlite::types::Value> = Vec::with_capacity(values.len() + 1);
            params.push(item.id.into());
            params.extend(values.iter().map(sql_value));
            self.counts.stored += update
                .execute(rusqlite::params_from_iter(params))
                .map_err(e)? as u64;
        }
        drop(update);
        self.counts.lines += items.len() as u64;
        self.batch.write_counts(conn, self.counts)?;
        self.batch.add(items.len());
        if self.batch.full() {
            self.commit()?;
            self.batch.after_commit(self.archive, 0)?;
        }
        Ok(())
    }

    fn deadline(&self) -> Option<Instant> {
        self.batch.deadline()
    }

    fn idle(&mut self) -> Result<(), ArchiveError> {
        self.commit()?;
        self.batch.after_commit(self.archive, 0)
    }
}
