//! `merge`: folding other archives into this one, without solving anything
//! again: the rows are copied, deduplicated as an import deduplicates.
//!
//! Design and invariants:
//! - **Inputs are only read.** Each input is first recognised by
//!   [`super::inspect`] (which writes nothing) and refused unless it is an
//!   archive of schema 8 (file identities and reads) up to this binary's;
//!   it is then read through a read-only connection inside one read
//!   transaction: one consistent snapshot, never upgraded or written. An
//!   input without a `-wal` file (a closed archive, as copied from another
//!   machine) is opened `immutable`, which creates nothing beside it; so
//!   it must not be imported into while it is merged. The output archive
//!   is never one of the inputs, whatever its name (a hard link, a
//!   symlink): files are compared by device and inode.
//! - **Same result as importing the files.** The inputs are taken in
//!   command-line order, and each input's puzzles in its id order (the
//!   order it first saw them), so the output's new puzzles get ids in the
//!   order an import of the inputs' files, in the same order, would give.
//!   A puzzle is a duplicate when the output holds the same type and
//!   givens or, with [`Dedup::Isomorphs`], the same canonical form; its
//!   provenance lines then point to the held puzzle (`isomorph` for the
//!   latter). Both lookups ask what the open batch stored first, then the
//!   tables of earlier batches, as the importer's ([`super::lines`]): by
//!   identity the importer's key walk ([`Pending::walk`] from
//!   [`crate::record::key_of`], stepping past collisions with
//!   [`crate::record::next_key`]) over the batch's keys and
//!   `puzzles_by_key`; by form `puzzles_by_form`, then the batch's puzzles
//!   of the same canonical hash. A new puzzle goes in under the next id and
//!   the free key the walk ended on; its lookup entries wait in
//!   [`Pending`] and are written sorted just before the batch's commit, in
//!   the same transaction (the lookup tables' invariant,
//!   [`super::lookup`]), and forgotten when the batch is rolled back.
//!   Files are matched by identity (real path; standard input by name;
//!   rows from before real paths by path), so a file that both inputs
//!   imported is one file, and its lines one set of provenance rows.
//! - **Imports are kept.** Each import of an input becomes one `imports`
//!   row here (copied; a `running` one as `interrupted`, since nothing runs
//!   it here), recorded in `merged_imports` with the input and its id
//!   there; its puzzles, provenance lines, rejects and file reads keep it.
//!   An import already here (the same `started_at` and `arguments`:
//!   merged before, or reached through two inputs) is reused, and its
//!   counts and status brought up to date.
//! - **An import says it finished only with all its rows.** A new import
//!   row is made `interrupted` (no `finished_at`) and without file reads;
//!   its status, end and counts, and its file reads (`complete`), are
//!   written in the transaction that commits the input's last row (the
//!   batch that reaches the end of a table is left open for the next one
//!   and for them). A merge killed, stopped or failed before then leaves
//!   them unfinished, so that an import of their files reads them instead
//!   of skipping them as unchanged, and a re-run of the merge ends them.
//! - **Counts.** The run's `lines` are the puzzles and reject rows read;
//!   `stored` the puzzles new here, `duplicates` those held (`isomorphs`
//!   by form), `rejected` the reject rows new here, `skipped` those held
//!   already. A failure to read an input names it.
//! - **The import's guarantees.** The merge is a run in `imports` (status,
//!   counts, `finished_at`) under the import lock, begun and ended as an
//!   import's, its WAL bounded beside readers between batches as an
//!   import's ([`super::run`]). Rows are written in batch transactions
//!   with all their provenance lines (or of [`BATCH_REJECTS`] rejects) and
//!   the run's counts: a kill loses at most the batch in flight. A batch
//!   of puzzles grows with the output as an import's ([`super::Scale`]: an
//!   eighth of the puzzles it holds, at least [`super::BATCH_LINES`]),
//!   so that the sweep of its lookup entries through the two tables is
//!   shared by many puzzles, and ends after [`super::Scale::time`] whatever its
//!   size, as an import's does, so that another writer never waits long
//!   for the lock; the page cache grows with the output as an import's
//!   ([`Archive::apply_scale`]). Every write is idempotent (puzzles by
//!   key, provenance and rejects by their unique keys, files and imports
//!   by identity), so a re-run completes a killed merge and a re-merge
//!   adds nothing.
//! - **A stop request ends it cleanly**, as it does an import: the flag
//!   given to [`MergeRun::stop_on`] is read before every row copied; once
//!   it is raised no further row is read, the batch in flight (whole
//!   puzzles with all their provenance lines, or whole rejects) is
//!   committed, [`MergeRun::merge`] returns [`Ended::Stopped`], and
//!   [`MergeRun::interrupt`] records the run `interrupted` with its counts.
//!   [`MergeRun::reached`] says how far it got; a re-run completes it.
//! - **Bounded memory.** Besides the page cache (sized as an import's),
//!   only the current batch's id map (input puzzle id to output id) and
//!   its pending lookup entries (about 45 bytes a new puzzle, [`Pending`])
//!   and the small file and import maps are held.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use super::batch::Batch;
use super::borrowed::Borrowed;
use super::dedup::{Dedup, Dedupe, Place, Sought};
use super::lines::Counts;
use super::pending::Pending;
use super::puzzle_row::{self, INSERT_PUZZLE, Puzzle};
use super::run::MERGE;
use super::{Archive, ArchiveError, Found, beside, inspect, open_read_only, schema};
use crate::core::canon;
use crate::core::puzzle::PuzzleType;
pub use crate::pipeline::Ended;
use crate::record::canonical_hash;

/// Reject rows per batch transaction.
const BATCH_REJECTS: i64 = 100_000;
/// The oldest schema an input may have: files by identity, file reads.
const OLDEST_INPUT: i64 = 8;

#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error(
        "{path}: the archive has schema version {found}; merge reads archives from schema {OLDEST_INPUT} on and never upgrades an input: run `sudoku-archive stats --db {path}` once to upgrade it",
        path = path.display()
    )]
    OldInput { path: PathBuf, found: i64 },
    #[error("{path}: the output archive cannot be one of its inputs", path = path.display())]
    SelfMerge { path: PathBuf },
}

/// What a merge did, per input and in all.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct Merged {
    pub merge_id: i64,
    pub counts: Counts,
    /// Imports of the inputs recorded here for the first time.
    pub new_imports: u64,
    pub interrupted: Vec<i64>,
}

/// The last row a merge committed: of which input, which table, which id
/// there (rows are copied in id order, puzzles before rejects).
#[derive(Debug, Clone)]
pub struct Reached {
    pub input: PathBuf,
    /// `puzzle` or `reject`.
    pub what: &'static str,
    pub id: i64,
}

/// An input archive, open for reading.
pub struct Input {
    pub path: PathBuf,
    conn: Connection,
    /// Its schema version.
    version: i64,
}

/// Opens an input archive read-only, refusing what is not an archive (or
/// is the output), touching nothing.
pub fn open_input(path: &Path, output: &Path) -> Result<Input, MergeError> {
    let version = match inspect(path)? {
        Found::Archive { version } => version,
        Found::Nothing => {
            return Err(ArchiveError::Missing {
                path: path.to_path_buf(),
            }
            .into());
        }
        Found::Empty { wal_missing } => {
            return Err(ArchiveError::Empty {
                path: path.to_path_buf(),
                wal_missing,
            }
            .into());
        }
    };
    if version > schema::VERSION {
        return Err(ArchiveError::TooNew {
            path: path.to_path_buf(),
            found: version,
            known: schema::VERSION,
        }
        .into());
    }
    if version < OLDEST_INPUT {
        return Err(MergeError::OldInput {
            path: path.to_path_buf(),
            found: version,
        });
    }
    if same_file(path, output) {
        return Err(MergeError::SelfMerge {
            path: path.to_path_buf(),
        });
    }
    // Without a `-wal` file the file holds everything: read as it is,
    // creating nothing beside it. With one (an archive in use, or not
    // closed cleanly) SQLite needs its `-shm` index, made if missing.
    let immutable = !beside(path, "-wal").exists();
    let open_error = |e: rusqlite::Error| ArchiveError::Open {
        path: path.to_path_buf(),
        why: super::sqlite_message(&e),
    };
    let conn = open_read_only(path, immutable).map_err(open_error)?;
    conn.busy_timeout(super::BUSY_TIMEOUT).map_err(open_error)?;
    // One snapshot for the whole merge of this input.
    conn.execute_batch("BEGIN").map_err(open_error)?;
    conn.query_row("SELECT count(*) FROM imports", [], |_| Ok(()))
        .map_err(open_error)?;
    Ok(Input {
        path: path.to_path_buf(),
        conn,
        version,
    })
}

/// Whether `a` and `b` are one file, however named (a hard link, a
/// symlink, another spelling): the same device and inode on Unix, the same
/// canonical path elsewhere. A path that does not exist is no file.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    }
}

/// An input's imports and files, by their ids there, as rows here.
struct Here {
    imports: HashMap<i64, i64>,
    files: HashMap<i64, i64>,
    /// How each import of the input ended there, written here only with
    /// the last of the input's rows ([`MergeRun::end_imports`]).
    ends: Vec<ImportEnd>,
}

/// An import's row as the input has it, for its row here.
struct ImportEnd {
    here: i64,
    finished_at: Option<String>,
    status: String,
    /// lines, stored, duplicates, rejected, skipped, isomorphs.
    counts: [i64; 6],
    error: Option<String>,
}

impl Here {
    /// The file and import here of an input row naming them (by their ids
    /// there) in columns `file` and `import`; none when either is not here.
    fn file_and_import(
        &self,
        r: &rusqlite::Row<'_>,
        file: usize,
        import: usize,
    ) -> rusqlite::Result<Option<(i64, i64)>> {
        let file = self.files.get(&r.get::<_, i64>(file)?);
        let import = self.imports.get(&r.get::<_, i64>(import)?);
        Ok(file.copied().zip(import.copied()))
    }
}

/// One merge run into `out`.
pub struct MergeRun<'a> {
    out: &'a mut Archive,
    dedup: Dedup,
    pub merge_id: i64,
    pub counts: Counts,
    pub new_imports: u64,
    pub interrupted: Vec<i64>,
    /// Puzzles per batch transaction, in place of [`super::Scale::lines`] (for
    /// tests).
    pub batch_puzzles: Option<i64>,
    /// The last row committed, once one is.
    pub reached: Option<Reached>,
    /// The run and its open batch.
    batch: Batch,
    /// The lookup entries of the puzzles the open batch stored, written at
    /// its commit.
    pending: Pending,
    /// How long a batch lasts at most, in place of [`super::Scale::time`] (for
    /// tests).
    batch_time: Option<Duration>,
    /// The hash a puzzle's key walk starts from: [`crate::record::key_of`]
    /// (tests make puzzles collide).
    key_of: fn(&str, &str) -> i64,
    /// Raised to ask the merge to stop at the next row.
    stop: Option<Arc<AtomicBool>>,
    /// The output had no provenance rows, so the index of them by line was
    /// dropped at the start, to be built once at the end
    /// ([`schema::SOURCES_BY_LINE`]): copied row by row it cost a tenth of
    /// a merge's instructions.
    index_after: bool,
}

/// The run's counts, written into its row in the batch about to commit.
fn batch_counts(conn: &Connection, merge_id: i64, counts: Counts) -> Result<(), ArchiveError> {
    super::run::write_counts(conn, merge_id, counts).map_err(sql("writing a batch"))
}

fn sql(what: &'static str) -> impl Fn(rusqlite::Error) -> ArchiveError {
    move |e| ArchiveError::sql(what, e)
}

/// A failure to read `what` of the input at `path`, named with the input
/// (a corrupt input is then told from the output).
fn reading<'p>(
    path: &'p Path,
    what: &'static str,
) -> impl Fn(rusqlite::Error) -> ArchiveError + 'p {
    move |e| ArchiveError::sql(&format!("{}: reading {what}", path.display()), e)
}

impl<'a> MergeRun<'a> {
    /// Records the start of a merge with its command line.
    pub fn begin(
        out: &'a mut Archive,
        dedup: Dedup,
        arguments: &[String],
    ) -> Result<MergeRun<'a>, ArchiveError> {
        // As the import does (see `writer`): every reference is to a row
        // just read or written; the tests check `foreign_key_check`.
        let (batch, interrupted) = Batch::begin(out, &MERGE, arguments)?;
        let merge_id = batch.run_id();
        if dedup == Dedup::Isomorphs {
            super::canonical::fill_missing(&out.conn)?;
        }
        let index_after = schema::drop_sources_by_line_if_empty(&out.conn)?;
        Ok(MergeRun {
            out,
            dedup,
            merge_id,
            counts: Counts::default(),
            new_imports: 0,
            interrupted,
            batch_puzzles: None,
            reached: None,
            batch,
            pending: Pending::new(dedup == Dedup::Isomorphs),
            batch_time: None,
            key_of: crate::record::key_of,
            stop: None,
            index_after,
        })
    }

    /// Makes the merge stop at the next row once `flag` is raised.
    pub fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Whether a stop was asked for.
    fn stopping(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether the open batch takes no further row: a stop was asked for,
    /// or it holds rows (`holds_rows`) and its time is up.
    fn batch_ends(&self, holds_rows: bool) -> bool {
        let time = self.batch_time.unwrap_or(self.batch.scale().time);
        self.stopping() || (holds_rows && self.batch.started().is_some_and(|t| t.elapsed() >= time))
    }

    /// Puzzles per batch: an eighth of the output's, at least
    /// [`super::BATCH_LINES`] ([`super::Scale`]), unless set for a test.
    fn puzzles_per_batch(&self) -> i64 {
        self.batch_puzzles
            .unwrap_or_else(|| i64::try_from(self.batch.scale().lines).unwrap_or(i64::MAX))
    }

    fn batch(&mut self) -> Result<(), ArchiveError> {
        self.batch.open(&self.out.conn).map(|_| ())
    }

    /// Commits the open batch with its lookup entries and the run's
    /// counts, then lets a waiting import in and sizes the next batch and
    /// the cache for the output as it is now.
    fn commit(&mut self) -> Result<(), ArchiveError> {
        let (pending, batch, counts) = (&mut self.pending, &mut self.batch, self.counts);
        let committed = batch.commit(&self.out.conn, |c| {
            pending.write(c).map_err(sql("committing a batch"))?;
            batch_counts(c, self.merge_id, counts)
        })?;
        if !committed {
            return Ok(());
        }
        self.batch.after_commit(self.out, self.counts.stored)
    }

    /// Folds one input in; [`Ended::Stopped`] when a stop was asked for
    /// first (what was written is committed). Its imports say how they
    /// ended there, and their file reads whether they were complete, only
    /// in the transaction that commits the input's last row: until then
    /// they are `interrupted` here, without reads, so that an import of
    /// their files after a killed or failed merge reads them again.
    pub fn merge(&mut self, input: &Input) -> Result<Ended, ArchiveError> {
        if self.stopping() {
            return Ok(Ended::Stopped);
        }
        let name = input.path.display().to_string();
        self.batch()?;
        let (imports, ends) = self.map_imports(input, &name)?;
        let here = Here {
            imports,
            files: self.map_files(input)?,
            ends,
        };
        self.commit()?;
        if self.copy_puzzles(input, &here)? == Ended::Stopped
            || self.copy_rejects(input, &here)? == Ended::Stopped
        {
            return Ok(Ended::Stopped);
        }
        // The batch of the last rows is still open.
        self.batch()?;
        self.end_imports(&here)?;
        self.copy_file_reads(input, &here)?;
        self.commit()?;
        Ok(Ended::Complete)
    }

    /// Ends the run: `finished`, or `failed` with the error (the open batch
    /// rolled back), then shrinks the WAL ([`Run::finish`]).
    pub fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        let committed = match error {
            None => self.commit(),
            Some(_) => Ok(()),
        };
        // Committed or rolled back by the run's end: no batch is left open.
        self.pending.clear();
        let ended = self.batch.finish(&self.out.conn, committed, error);
        // After the run's end, in a transaction of its own. Should it fail
        // (a full disk), the next opening for writing builds it.
        let indexed = self.build_index();
        ended.and(if error.is_none() { indexed } else { Ok(()) })
    }

    /// Ends the run `interrupted` after [`Ended::Stopped`]: the open batch,
    /// if any, holds whole rows, so it is committed with the counts.
    pub fn interrupt(&mut self) -> Result<(), ArchiveError> {
        self.commit()?;
        self.batch.end(&self.out.conn, "interrupted")?;
        self.build_index()
    }

    /// Builds the index dropped at the start, if it was.
    fn build_index(&mut self) -> Result<(), ArchiveError> {
        if std::mem::take(&mut self.index_after) {
            self.out
                .conn
                .execute_batch(schema::SOURCES_BY_LINE)
                .map_err(sql("building the sources_file_line index"))?;
        }
        Ok(())
    }

    /// The output's `imports` row of each import of the input, found by
    /// its start and command line or made (`interrupted`, unfinished:
    /// none of its rows is here yet), and how it ended there, for
    /// [`Self::end_imports`].
    fn map_imports(
        &mut self,
        input: &Input,
        name: &str,
    ) -> Result<(HashMap<i64, i64>, Vec<ImportEnd>), ArchiveError> {
        let read = reading(&input.path, "its imports");
        let write = sql("recording the imports of an input");
        let mut st = input
            .conn
            .prepare(
                "SELECT id, started_at, finished_at, status, arguments, lines, stored,
                        duplicates, rejected, skipped, error, isomorphs
                 FROM imports ORDER BY id",
            )
            .map_err(&read)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    [
                        r.get::<_, i64>(5)?,
                        r.get::<_, i64>(6)?,
                        r.get::<_, i64>(7)?,
                        r.get::<_, i64>(8)?,
                        r.get::<_, i64>(9)?,
                        r.get::<_, i64>(11)?,
                    ],
                    r.get::<_, Option<String>>(10)?,
                ))
            })
            .map_err(&read)?;
        let c = &self.out.conn;
        let mut map = HashMap::new();
        let mut ends = Vec::new();
        for row in rows {
            let (id, started, finished_at, status, arguments, counts, error) =
                row.map_err(&read)?;
            let status = if status == "running" {
                "interrupted".to_string()
            } else {
                status
            };
            let found: Option<i64> = c
                .query_row(
                    "SELECT id FROM imports WHERE started_at = ?1 AND arguments = ?2 AND id != ?3
                     ORDER BY id LIMIT 1",
                    params![started, arguments, self.merge_id],
                    |r| r.get(0),
                )
                .optional()
                .map_err(&write)?;
            let here = match found {
                Some(here) => here,
                None => {
                    let n = counts;
                    c.execute(
                        "INSERT INTO imports (started_at, status, arguments, lines, stored,
                             duplicates, rejected, skipped, isomorphs)
                         VALUES (?1, 'interrupted', ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                        params![started, arguments, n[0], n[1], n[2], n[3], n[4], n[5]],
                    )
                    .map_err(&write)?;
                    let here = c.last_insert_rowid();
                    c.execute(
                        "INSERT INTO merged_imports (import_id, merge_id, archive, source_id)
                         VALUES (?1, ?2, ?3, ?4)",
                        params![here, self.merge_id, name, id],
                    )
                    .map_err(&write)?;
                    self.new_imports += 1;
                    here
                }
            };
            map.insert(id, here);
            ends.push(ImportEnd {
                here,
                finished_at,
                status,
                counts,
                error,
            });
        }
        Ok((map, ends))
    }

    /// Each merged import of the input as it ended there (the input may
    /// have gone on since an earlier merge); an import of this archive's
    /// own is left as it is. Written with the input's last rows.
    fn end_imports(&mut self, here: &Here) -> Result<(), ArchiveError> {
        let mut update = self
            .out
            .conn
            .prepare_cached(
                "UPDATE imports SET finished_at = ?2, status = ?3, lines = ?4, stored = ?5,
                     duplicates = ?6, rejected = ?7, skipped = ?8, isomorphs = ?9, error = ?10
                 WHERE id = ?1 AND id IN (SELECT import_id FROM merged_imports)
                   AND lines <= ?4",
            )
            .map_err(sql("recording the imports of an input"))?;
        for e in &here.ends {
            let n = e.counts;
            update
                .execute(params![
                    e.here,
                    e.finished_at,
                    e.status,
                    n[0],
                    n[1],
                    n[2],
                    n[3],
                    n[4],
                    n[5],
                    e.error
                ])
                .map_err(sql("recording the imports of an input"))?;
        }
        Ok(())
    }

    /// The output's `files` row of each file of the input, by identity.
    fn map_files(&mut self, input: &Input) -> Result<HashMap<i64, i64>, ArchiveError> {
        let read = reading(&input.path, "its files");
        let write = sql("recording the files of an input");
        let mut st = input
            .conn
            .prepare("SELECT id, path, real_path, kind FROM files ORDER BY id")
            .map_err(&read)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .map_err(&read)?;
        let c = &self.out.conn;
        let mut map = HashMap::new();
        for row in rows {
            let (id, path, real_path, kind) = row.map_err(&read)?;
            let found: Option<i64> = match (&real_path, kind.as_str()) {
                (_, "stdin") => c
                    .query_row(
                        "SELECT id FROM files WHERE kind = 'stdin' AND path = ?1",
                        [&path],
                        |r| r.get(0),
                    )
                    .optional(),
                (Some(real), _) => c
                    .query_row("SELECT id FROM files WHERE real_path = ?1", [real], |r| {
                        r.get(0)
                    })
                    .optional(),
                (None, _) => c
                    .query_row(
                        "SELECT id FROM files WHERE kind = 'file' AND real_path IS NULL
                             AND path = ?1 ORDER BY id LIMIT 1",
                        [&path],
                        |r| r.get(0),
                    )
                    .optional(),
            }
            .map_err(&write)?;
            let here = match found {
                Some(here) => here,
                None => {
                    c.execute(
                        "INSERT INTO files (path, real_path, kind) VALUES (?1, ?2, ?3)",
                        params![path, real_path, kind],
                    )
                    .map_err(&write)?;
                    c.last_insert_rowid()
                }
            };
            map.insert(id, here);
        }
        Ok(map)
    }

    fn copy_file_reads(&mut self, input: &Input, here: &Here) -> Result<(), ArchiveError> {
        let read = reading(&input.path, "its file reads");
        let write = sql("recording the file reads of an input");
        let mut st = input
            .conn
            .prepare(
                "SELECT file_id, import_id, action, read_as, bytes, content_hash, complete
                 FROM file_reads",
            )
            .map_err(&read)?;
        let mut insert = self
            .out
            .conn
            .prepare(
                "INSERT INTO file_reads
                     (file_id, import_id, action, read_as, bytes, content_hash, complete)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (file_id, import_id) DO UPDATE SET
                     action = excluded.action, read_as = excluded.read_as,
                     bytes = excluded.bytes, content_hash = excluded.content_hash,
                     complete = excluded.complete
                 WHERE excluded.complete >= file_reads.complete",
            )
            .map_err(&write)?;
        let mut rows = st.query([]).map_err(&read)?;
        while let Some(r) = rows.next().map_err(&read)? {
            let Some((file, import)) = here.file_and_import(r, 0, 1).map_err(&read)? else {
                continue;
            };
            insert
                .execute(params![
                    file,
                    import,
                    r.get::<_, String>(2).map_err(&read)?,
                    r.get::<_, String>(3).map_err(&read)?,
                    r.get::<_, Option<i64>>(4).map_err(&read)?,
                    r.get::<_, Option<String>>(5).map_err(&read)?,
                    r.get::<_, i64>(6).map_err(&read)?,
                ])
                .map_err(&write)?;
        }
        Ok(())
    }

    /// Copies the rows of one table of `input` in id order, in batch
    /// transactions of at most `limit` rows (asked before each batch),
    /// until they end or a stop is asked for. `select` takes the id to
    /// start after and the limit (`... WHERE id > ?1 ORDER BY id LIMIT
    /// ?2`); `copy` writes the rows of one batch (given the id they start
    /// after), reads none once the batch ends ([`MergeRun::batch_ends`]:
    /// a stop asked for, or its time up), and returns the last id it
    /// copied, if any. Each batch becomes [`MergeRun::reached`], the row
    /// called `what`, and is committed with the run's counts, but for the
    /// one that reaches the table's end: it is left open, for the input's
    /// next table and its end ([`MergeRun::merge`]).
    fn in_batches(
        &mut self,
        input: &Input,
        what: &'static str,
        select: &mut rusqlite::Statement<'_>,
        limit: fn(&Self) -> i64,
        read: &dyn Fn(rusqlite::Error) -> ArchiveError,
        mut copy: impl FnMut(&mut Self, i64, rusqlite::Rows<'_>) -> Result<Option<i64>, ArchiveError>,
    ) -> Result<Ended, ArchiveError> {
        let mut after = 0i64;
        loop {
            self.batch()?;
            let rows = select.query(params![after, limit(self)]).map_err(read)?;
            let last = copy(self, after, rows)?;
            if let Some(last) = last {
                after = last;
                self.reached = Some(Reached {
                    input: input.path.clone(),
                    what,
                    id: last,
                });
            }
            if self.stopping() {
                self.commit()?;
                return Ok(Ended::Stopped);
            }
            let more = last.is_some()
                && select
                    .query(params![after, 1])
                    .and_then(|mut rows| rows.next().map(|r| r.is_some()))
                    .map_err(read)?;
            if !more {
                return Ok(Ended::Complete);
            }
            self.commit()?;
        }
    }

    /// The input's puzzles in id order, in batches with their provenance.
    fn copy_puzzles(&mut self, input: &Input, here: &Here) -> Result<Ended, ArchiveError> {
        let read = reading(&input.path, "its puzzles");
        let mut select = input
            .conn
            .prepare(&puzzle_row::after(input.version))
            .map_err(&read)?;
        let mut select_sources = input
            .conn
            .prepare(
                "SELECT puzzle_id, file_id, line, import_id, relation FROM sources
                 WHERE puzzle_id BETWEEN ?1 AND ?2",
            )
            .map_err(&read)?;
        self.in_batches(
            input,
            "puzzle",
            &mut select,
            Self::puzzles_per_batch,
            &read,
            |this, after, rows| {
                let mut map = HashMap::new();
                let Some(last) = this.store_puzzles(rows, &input.path, &here.imports, &mut map)?
                else {
                    return Ok(None);
                };
                this.copy_sources(
                    &mut select_sources,
                    &input.path,
                    after + 1,
                    last,
                    &map,
                    here,
                )?;
                Ok(Some(last))
            },
        )
    }

    /// One batch of puzzles (`rows`: [`puzzle_row::after`]), each stored
    /// or found held; `map` gets each input id's puzzle here and whether it
    /// is held as an isomorph. Returns the last id copied.
    fn store_puzzles(
        &mut self,
        mut rows: rusqlite::Rows<'_>,
        input: &Path,
        imports: &HashMap<i64, i64>,
        map: &mut HashMap<i64, (i64, bool)>,
    ) -> Result<Option<i64>, ArchiveError> {
        let read = reading(input, "its puzzles");
        let write = sql("writing a batch");
        let c = &self.out.conn;
        let mut insert = Borrowed::prepare(c, &INSERT_PUZZLE).map_err(&write)?;
        let mut last = None;
        while let Some(r) = rows.next().map_err(&read)? {
            if self.batch_ends(last.is_some()) {
                break;
            }
            let p = Puzzle::read(r).map_err(&read)?;
            let (id, kind, givens) = (p.id, p.r#type.as_str(), p.givens.as_str());
            last = Some(id);
            self.counts.lines += 1;
            let import = imports.get(&p.import_id).copied().unwrap_or(self.merge_id);
            let mut canonical = p.canonical.clone().zip(p.canonical_hash);
            if self.dedup == Dedup::Isomorphs
                && canonical.is_none()
                && let Some(t) = PuzzleType::from_name(kind)
                && let Ok(form) = canon::of(t, givens)
            {
                let hash = canonical_hash(kind, &form);
                canonical = Some((form, hash));
            }
            let form = canonical.as_ref().map(|(f, h)| (f.as_str(), *h));
            let sought = Sought {
                kind,
                givens,
                key: (self.key_of)(kind, givens),
                canonical: form,
            };
            let dedupe = Dedupe {
                conn: c,
                pending: &self.pending,
                dedup: self.dedup,
            };
            let key = match dedupe
                .place(sought, |held| puzzle_row::held(c, held))
                .map_err(&write)?
            {
                Place::Held { id: here, isomorph } => {
                    self.counts.duplicates += 1;
                    self.counts.isomorphs += u64::from(isomorph);
                    map.insert(id, (here, isomorph));
                    continue;
                }
                Place::Free(free) => free,
            };
            // The row now, its lookup entries at the batch's commit, in
            // this batch's transaction: the lookup tables' invariant (see
            // `lookup`).
            let stored = self.pending.next_id(c).map_err(&write)?;
            let added = insert
                .execute(&p.copy(stored, key, import, form).params())
                .map_err(&write)?;
            if added != 1 {
                return Err(write(rusqlite::Error::StatementChangedRows(added)));
            }
            self.pending.add(key, stored, form.map(|(_, h)| h));
            self.counts.stored += 1;
            map.insert(id, (stored, false));
        }
        Ok(last)
    }

    /// The provenance lines of the input's puzzles `from..=to`, pointing to
    /// the puzzles they are here.
    fn copy_sources(
        &mut self,
        select: &mut rusqlite::Statement<'_>,
        input: &Path,
        from: i64,
        to: i64,
        map: &HashMap<i64, (i64, bool)>,
        here: &Here,
    ) -> Result<(), ArchiveError> {
        let read = reading(input, "its provenance lines");
        let write = sql("writing a batch");
        let mut insert = self
            .out
            .conn
            .prepare_cached(
                "INSERT OR IGNORE INTO sources (file_id, line, puzzle_id, import_id, relation)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .map_err(&write)?;
        let mut rows = select.query(params![from, to]).map_err(&read)?;
        while let Some(r) = rows.next().map_err(&read)? {
            let puzzle: i64 = r.get(0).map_err(&read)?;
            let (Some(&(held, isomorph)), Some((file, import))) = (
                map.get(&puzzle),
                here.file_and_import(r, 1, 3).map_err(&read)?,
            ) else {
                continue;
            };
            let relation: String = r.get(4).map_err(&read)?;
            let relation = if isomorph { "isomorph" } else { &relation };
            insert
                .execute(params![
                    file,
                    r.get::<_, i64>(2).map_err(&read)?,
                    held,
                    import,
                    relation
                ])
                .map_err(&write)?;
        }
        Ok(())
    }

    /// The input's rejected lines, in batches.
    fn copy_rejects(&mut self, input: &Input, here: &Here) -> Result<Ended, ArchiveError> {
        let read = reading(&input.path, "its rejects");
        let mut select = input
            .conn
            .prepare(
                // An input older than schema 14 calls a repeated digit
                // `duplicate` (migration 0014); it is kept under today's name.
                "SELECT id, import_id, file_id, line, raw,
                    CASE reason WHEN 'duplicate' THEN 'repeated-digit' ELSE reason END,
                    message FROM rejects
                 WHERE id > ?1 ORDER BY id LIMIT ?2",
            )
            .map_err(&read)?;
        self.in_batches(
            input,
            "reject",
            &mut select,
            |_| BATCH_REJECTS,
            &read,
            |this, _, rows| this.store_rejects(rows, &input.path, here),
        )
    }

    /// One batch of rejects (`rows`: id, import_id, file_id, line, raw,
    /// reason, message): each kept here (`rejected`) unless the output
    /// holds it already (`skipped`). Returns the last id copied.
    fn store_rejects(
        &mut self,
        mut rows: rusqlite::Rows<'_>,
        input: &Path,
        here: &Here,
    ) -> Result<Option<i64>, ArchiveError> {
        let read = reading(input, "its rejects");
        let write = sql("writing a batch");
        let mut insert = self
            .out
            .conn
            .prepare_cached(
                "INSERT OR IGNORE INTO rejects (import_id, file_id, line, raw, reason, message)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .map_err(&write)?;
        let mut last = None;
        while let Some(r) = rows.next().map_err(&read)? {
            if self.batch_ends(last.is_some()) {
                break;
            }
            last = Some(r.get::<_, i64>(0).map_err(&read)?);
            self.counts.lines += 1;
            let kept = match here.file_and_import(r, 2, 1).map_err(&read)? {
                Some((file, import)) => insert
                    .execute(params![
                        import,
                        file,
                        r.get::<_, i64>(3).map_err(&read)?,
                        r.get::<_, String>(4).map_err(&read)?,
                        r.get::<_, String>(5).map_err(&read)?,
                        r.get::<_, String>(6).map_err(&read)?,
                    ])
                    .map_err(&write)?,
                None => 0,
            };
            if kept == 1 {
                self.counts.rejected += 1;
            } else {
                self.counts.skipped += 1;
            }
        }
        Ok(last)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::archive::Tuning;
    use crate::archive::lookup::invariant;
    use crate::record::next_key;

    /// Key hashes close together, and across the wrap from the largest key
    /// to the least, as the importer's test has them ([`super::super::lines`]),
    /// so that puzzles share them and step past each other.
    const HASHES: [i64; 5] = [i64::MAX - 1, i64::MAX, i64::MIN, 0, 1];

    /// The key hash of a test puzzle: its givens begin with an index into
    /// [`HASHES`].
    fn colliding(_kind: &str, givens: &str) -> i64 {
        HASHES[givens[..1].parse::<usize>().unwrap()]
    }

    /// A test puzzle: its type, givens, and canonical form with its hash.
    #[derive(Clone, Debug, PartialEq)]
    struct Puzzle {
        kind: &'static str,
        givens: String,
        form: Option<(String, i64)>,
    }

    /// Puzzle `i` of the pool: a Sudoku for even `i`, a Killer with the same
    /// givens (so the same key hash) for odd; the key hash `hashes[i]` (of
    /// the even one); the form `forms[i]`, whose hash only its parity makes
    /// (forms 0 and 2 collide, as do 1 and 3), or none.
    fn pool(hashes: &[usize], forms: &[Option<usize>]) -> Vec<Puzzle> {
        (0..hashes.len())
            .map(|i| Puzzle {
                kind: if i % 2 == 0 { "sudoku" } else { "killer" },
                givens: format!("{}:{}", hashes[i - i % 2], i / 2),
                form: forms[i].map(|f| (format!("form {f}"), (f % 2) as i64)),
            })
            .collect()
    }

    /// An input archive holding `puzzles` as its rows 1, 2, ..., each with
    /// one provenance line (its row's number, in a file named as the
    /// archive). Duplicates and all, which no import leaves (nor its lookup
    /// tables, left empty here): the merge reads the rows and their lines.
    fn input(dir: &Path, name: &str, puzzles: &[Puzzle]) -> PathBuf {
        let path = dir.join(name);
        let a = Archive::open_or_create(&path, Tuning::default()).unwrap();
        a.conn
            .execute_batch(&format!(
                "INSERT INTO imports (id, arguments, status) VALUES (1, '[\"{name}\"]', 'finished');
                 INSERT INTO files (id, path, real_path) VALUES (1, '{name}', '/{name}');"
            ))
            .unwrap();
        for (i, p) in puzzles.iter().enumerate() {
            let form = p.form.as_ref();
            a.conn
                .execute(
                    "INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id,
                         key, canonical, canonical_hash)
                     VALUES (?1, ?2, 0, ?3, 'e', 2, 1, ?1, ?4, ?5)",
                    params![
                        i as i64 + 1,
                        p.kind,
                        p.givens,
                        form.map(|f| &f.0),
                        form.map(|f| f.1)
                    ],
                )
                .unwrap();
            a.conn
                .execute(
                    "INSERT INTO sources (puzzle_id, file_id, line, import_id) VALUES (?1, 1, ?1, 1)",
                    [i as i64 + 1],
                )
                .unwrap();
        }
        path
    }

    /// Merges `inputs` into `out` in batches of `batch` puzzles, or of one
    /// each when every batch's time is up at once (`no_time`), keys from
    /// [`colliding`].
    fn merge(out: &Path, inputs: &[PathBuf], dedup: Dedup, batch: i64, no_time: bool) -> Counts {
        let inputs: Vec<Input> = inputs.iter().map(|p| open_input(p, out).unwrap()).collect();
        let mut archive = Archive::open_or_create(out, Tuning::default()).unwrap();
        let mut run = MergeRun::begin(&mut archive, dedup, &[]).unwrap();
        run.key_of = colliding;
        run.batch_puzzles = Some(batch);
        if no_time {
            run.batch_time = Some(Duration::ZERO);
        }
        for input in &inputs {
            assert_eq!(run.merge(input).unwrap(), Ended::Complete);
        }
        run.finish(None).unwrap();
        run.counts
    }

    /// What a merge of `inputs` (into an empty archive, in order) makes,
    /// one puzzle at a time: the puzzles stored, in id order, each with its
    /// key, and for each input row the puzzle that holds it and whether as
    /// an isomorph.
    #[allow(clippy::type_complexity)]
    fn expected(
        inputs: &[Vec<Puzzle>],
        isomorphs: bool,
    ) -> (Vec<(Puzzle, i64)>, Vec<Vec<(i64, bool)>>) {
        let mut stored: Vec<(Puzzle, i64)> = Vec::new();
        let mut keys: HashMap<i64, usize> = HashMap::new();
        let mut held = Vec::new();
        for rows in inputs {
            let mut of_rows = Vec::new();
            for p in rows {
                let mut key = colliding(p.kind, &p.givens);
                let same = loop {
                    match keys.get(&key) {
                        None => break None,
                        Some(&i)
                            if stored[i].0.kind == p.kind && stored[i].0.givens == p.givens =>
                        {
                            break Some(i);
                        }
                        Some(_) => key = next_key(key),
                    }
                };
                let form = |q: &Puzzle| q.form.as_ref().map(|f| f.0.clone());
                let isomorph = || {
                    stored.iter().position(|(q, _)| {
                        isomorphs && p.form.is_some() && q.kind == p.kind && form(q) == form(p)
                    })
                };
                let (i, as_isomorph) = match (same, isomorph()) {
                    (Some(i), _) => (i, false),
                    (None, Some(i)) => (i, true),
                    (None, None) => {
                        keys.insert(key, stored.len());
                        stored.push((p.clone(), key));
                        (stored.len() - 1, false)
                    }
                };
                of_rows.push((i as i64 + 1, as_isomorph));
            }
            held.push(of_rows);
        }
        (stored, held)
    }

    /// The rows of `sql`, four columns each.
    fn four<A, B, C, D>(conn: &Connection, sql: &str) -> Vec<(A, B, C, D)>
    where
        A: rusqlite::types::FromSql,
        B: rusqlite::types::FromSql,
        C: rusqlite::types::FromSql,
        D: rusqlite::types::FromSql,
    {
        let mut st = conn.prepare(sql).unwrap();
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)));
        rows.unwrap().collect::<Result<_, _>>().unwrap()
    }

    fn has_line_index(path: &Path) -> bool {
        Connection::open(path)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'sources_file_line'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .unwrap()
            == 1
    }

    #[test]
    fn a_merge_into_an_archive_without_provenance_builds_the_line_index_once_and_an_opening_puts_back_a_lost_one()
     {
        let dir = tempfile::tempdir().unwrap();
        let a = input(dir.path(), "a.sqlite", &pool(&[0, 1, 2, 3], &[None; 4]));
        let out = dir.path().join("out.sqlite");
        let mut archive = Archive::open_or_create(&out, Tuning::default()).unwrap();
        let mut run = MergeRun::begin(&mut archive, Dedup::Exact, &[]).unwrap();
        assert!(run.index_after, "the output had no provenance rows");
        assert!(!has_line_index(&out), "dropped for the merge");
        let input_a = open_input(&a, &out).unwrap();
        assert_eq!(run.merge(&input_a).unwrap(), Ended::Complete);
        // A merge killed here leaves no index; the next opening for
        // writing builds it.
        drop(run);
        drop(archive);
        assert!(!has_line_index(&out));
        let mut archive = Archive::open_or_create(&out, Tuning::default()).unwrap();
        assert!(has_line_index(&out), "put back by the opening");
        // An output with provenance keeps its index through a merge.
        let mut run = MergeRun::begin(&mut archive, Dedup::Exact, &[]).unwrap();
        assert!(!run.index_after);
        run.finish(None).unwrap();
        assert!(has_line_index(&out));
        drop(run);
        drop(archive);
        // One that builds it at its end.
        let fresh = dir.path().join("fresh.sqlite");
        merge(&fresh, &[a], Dedup::Exact, 2, false);
        assert!(has_line_index(&fresh), "built at the merge's end");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Inputs whose puzzles repeat (exact duplicates and isomorphs, of
        /// puzzles of the same batch or of earlier ones) and whose key and
        /// form hashes collide, merged in batches of every size (or cut
        /// short by their time after each puzzle): each puzzle is stored
        /// once, under the first key from its hash up that was free, each
        /// row points to the puzzle it is or the first isomorph stored, as
        /// one puzzle at a time would make it; the lookup tables hold their
        /// invariant; a re-merge adds nothing.
        #[test]
        fn repeats_and_collisions_in_and_across_batches_are_merged_as_one_at_a_time(
            hashes in prop::collection::vec(0..HASHES.len(), 10),
            forms in prop::collection::vec(prop::option::of(0usize..4), 10),
            inputs in prop::collection::vec(prop::collection::vec(0usize..10, 0..25), 1..4),
            batch in prop_oneof![1i64..6, Just(1000i64)],
            no_time in any::<bool>(),
            isomorphs in any::<bool>(),
        ) {
            let pool = pool(&hashes, &forms);
            let inputs: Vec<Vec<Puzzle>> = inputs
                .iter()
                .map(|rows| rows.iter().map(|&i| pool[i].clone()).collect())
                .collect();
            let dir = tempfile::tempdir().unwrap();
            let paths: Vec<PathBuf> = inputs
                .iter()
                .enumerate()
                .map(|(k, rows)| input(dir.path(), &format!("in{k}.sqlite"), rows))
                .collect();
            let out = dir.path().join("out.sqlite");
            let dedup = if isomorphs { Dedup::Isomorphs } else { Dedup::Exact };
            let counts = merge(&out, &paths, dedup, batch, no_time);

            let (stored, held) = expected(&inputs, isomorphs);
            let rows: u64 = inputs.iter().map(|r| r.len() as u64).sum();
            let as_isomorphs = held.iter().flatten().filter(|h| h.1).count() as u64;
            prop_assert_eq!(
                (counts.lines, counts.stored, counts.duplicates, counts.isomorphs),
                (rows, stored.len() as u64, rows - stored.len() as u64, as_isomorphs)
            );
            let conn = Connection::open(&out).unwrap();
            invariant::assert_holds(&conn);
            let puzzles: Vec<(i64, String, String, i64)> =
                four(&conn, "SELECT id, type, givens, key FROM puzzles ORDER BY id");
            let want: Vec<(i64, String, String, i64)> = stored
                .iter()
                .enumerate()
                .map(|(i, (p, key))| (i as i64 + 1, p.kind.to_string(), p.givens.clone(), *key))
                .collect();
            prop_assert_eq!(&puzzles, &want);
            let mut lines: Vec<(String, i64, i64, String)> = four(
                &conn,
                "SELECT f.path, s.line, s.puzzle_id, s.relation
                 FROM sources AS s JOIN files AS f ON f.id = s.file_id",
            );
            lines.sort();
            let mut want: Vec<(String, i64, i64, String)> = held
                .iter()
                .enumerate()
                .flat_map(|(k, rows)| {
                    rows.iter().enumerate().map(move |(line, &(id, isomorph))| {
                        let relation = if isomorph { "isomorph" } else { "exact" };
                        (format!("in{k}.sqlite"), line as i64 + 1, id, relation.to_string())
                    })
                })
                .collect();
            want.sort();
            prop_assert_eq!(lines, want);
            drop(conn);

            let again = merge(&out, &paths, dedup, batch, no_time);
            prop_assert_eq!((again.lines, again.stored), (rows, 0));
            let conn = Connection::open(&out).unwrap();
            invariant::assert_holds(&conn);
            let count: i64 = conn
                .query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0))
                .unwrap();
            prop_assert_eq!(count, stored.len() as i64);
        }
    }
}
