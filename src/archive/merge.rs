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
//!   is never one of the inputs.
//! - **Same result as importing the files.** The inputs are taken in
//!   command-line order, and each input's puzzles in its id order (the
//!   order it first saw them), so the output's new puzzles get ids in the
//!   order an import of the inputs' files, in the same order, would give.
//!   A puzzle is a duplicate when the output holds the same type and
//!   givens (found in `puzzles_by_key` through [`crate::record::key_of`],
//!   stepping past collisions with [`crate::record::next_key`] as the
//!   importer does) or, with [`Dedup::Isomorphs`], the same canonical form
//!   (found through `puzzles_by_form`); its provenance lines then point to
//!   the held puzzle (`isomorph` for the latter). A new puzzle goes in
//!   under the free key the lookup ended on, with its `puzzles_by_key` row
//!   and, when it has a canonical hash, its `puzzles_by_form` row, in the
//!   same transaction (the lookup tables' invariant, [`super::lookup`]).
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
//! - **The import's guarantees.** The merge is a run in `imports` (status,
//!   counts, `finished_at`) under the import lock, begun and ended as an
//!   import's ([`super::run`]). Rows are written in batch transactions of
//!   at most [`BATCH_PUZZLES`] puzzles with all their provenance lines (or
//!   [`BATCH_REJECTS`] rejects) and the run's counts: a kill loses at most the batch in flight. Every write is
//!   idempotent (puzzles by key, provenance and rejects by their unique
//!   keys, files and imports by identity), so a re-run completes a killed
//!   merge and a re-merge adds nothing.
//! - **A stop request ends it cleanly**, as it does an import: the flag
//!   given to [`MergeRun::stop_on`] is read before every row copied; once
//!   it is raised no further row is read, the batch in flight (whole
//!   puzzles with all their provenance lines, or whole rejects) is
//!   committed, [`MergeRun::merge`] returns [`Ended::Stopped`], and
//!   [`MergeRun::interrupt`] records the run `interrupted` with its counts.
//!   [`MergeRun::reached`] says how far it got; a re-run completes it.
//! - **Bounded memory.** Only the current batch's id map (input puzzle id
//!   to output id) and the small file and import maps are held.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::{Connection, OptionalExtension, params};

use super::lines::{BY_CANONICAL, Counts, Dedup};
use super::lookup::{BY_KEY, seek};
use super::run::{MERGE, Run};
use super::{Archive, ArchiveError, Found, beside, inspect, open_read_only, schema};
use crate::core::canon;
use crate::core::puzzle::PuzzleType;
pub use crate::pipeline::Ended;
use crate::record::{canonical_hash, key_of};

/// Puzzles (with their provenance lines) per batch transaction.
pub const BATCH_PUZZLES: i64 = 100_000;
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
    if let (Ok(a), Ok(b)) = (std::fs::canonicalize(path), std::fs::canonicalize(output))
        && a == b
    {
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
    })
}

/// An input's imports and files, by their ids there, as rows here.
struct Here {
    imports: HashMap<i64, i64>,
    files: HashMap<i64, i64>,
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
    /// Puzzles per batch transaction ([`BATCH_PUZZLES`]; tests take fewer).
    pub batch_puzzles: i64,
    /// The last row committed, once one is.
    pub reached: Option<Reached>,
    run: Run,
    in_batch: bool,
    /// Raised to ask the merge to stop at the next row.
    stop: Option<Arc<AtomicBool>>,
}

fn sql(what: &'static str) -> impl Fn(rusqlite::Error) -> ArchiveError {
    move |e| ArchiveError::sql(what, e)
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
        let (run, interrupted) = Run::begin(out, &MERGE, arguments)?;
        let merge_id = run.id;
        if dedup == Dedup::Isomorphs {
            super::canonical::fill_missing(&out.conn)?;
        }
        Ok(MergeRun {
            out,
            dedup,
            merge_id,
            counts: Counts::default(),
            new_imports: 0,
            interrupted,
            batch_puzzles: BATCH_PUZZLES,
            reached: None,
            run,
            in_batch: false,
            stop: None,
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

    fn batch(&mut self) -> Result<(), ArchiveError> {
        if !self.in_batch {
            self.out
                .conn
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(sql("starting a batch"))?;
            self.in_batch = true;
        }
        Ok(())
    }

    /// Commits the open batch with the run's counts.
    fn commit(&mut self) -> Result<(), ArchiveError> {
        if !self.in_batch {
            return Ok(());
        }
        let c = self.counts;
        self.out
            .conn
            .execute(
                "UPDATE imports SET lines = ?2, stored = ?3, duplicates = ?4, rejected = ?5,
                     skipped = ?6, isomorphs = ?7
                 WHERE id = ?1",
                params![
                    self.merge_id,
                    c.lines,
                    c.stored,
                    c.duplicates,
                    c.rejected,
                    c.skipped,
                    c.isomorphs
                ],
            )
            .map_err(sql("writing a batch"))?;
        self.in_batch = false;
        self.out
            .conn
            .execute_batch("COMMIT")
            .map_err(sql("committing a batch"))?;
        self.run.yield_to_waiting();
        Ok(())
    }

    /// Folds one input in; [`Ended::Stopped`] when a stop was asked for
    /// first (what was written is committed).
    pub fn merge(&mut self, input: &Input) -> Result<Ended, ArchiveError> {
        if self.stopping() {
            return Ok(Ended::Stopped);
        }
        let name = input.path.display().to_string();
        self.batch()?;
        let here = Here {
            imports: self.map_imports(input, &name)?,
            files: self.map_files(input)?,
        };
        self.copy_file_reads(input, &here)?;
        self.commit()?;
        if self.copy_puzzles(input, &here)? == Ended::Stopped {
            return Ok(Ended::Stopped);
        }
        self.copy_rejects(input, &here)
    }

    /// Ends the run: `finished`, or `failed` with the error (the open batch
    /// rolled back), then shrinks the WAL ([`Run::finish`]).
    pub fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        let committed = match error {
            None => self.commit(),
            Some(_) => Ok(()),
        };
        self.in_batch = false;
        self.run.finish(&self.out.conn, committed, error)
    }

    /// Ends the run `interrupted` after [`Ended::Stopped`]: the open batch,
    /// if any, holds whole rows, so it is committed with the counts.
    pub fn interrupt(&mut self) -> Result<(), ArchiveError> {
        self.commit()?;
        self.run.end(&self.out.conn, "interrupted", None)
    }

    /// The output's `imports` row of each import of the input, made or
    /// brought up to date.
    fn map_imports(
        &mut self,
        input: &Input,
        name: &str,
    ) -> Result<HashMap<i64, i64>, ArchiveError> {
        let read = sql("reading the imports of an input");
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
        for row in rows {
            let (id, started, finished, status, arguments, n, error) = row.map_err(&read)?;
            let status = if status == "running" {
                "interrupted".to_string()
            } else {
                status
            };
            let here: Option<i64> = c
                .query_row(
                    "SELECT id FROM imports WHERE started_at = ?1 AND arguments = ?2 AND id != ?3
                     ORDER BY id LIMIT 1",
                    params![started, arguments, self.merge_id],
                    |r| r.get(0),
                )
                .optional()
                .map_err(&write)?;
            let here = match here {
                Some(here) => {
                    // A merged import is brought up to date (the input may
                    // have gone on since); an import of this archive's own
                    // is left as it is.
                    c.execute(
                        "UPDATE imports SET finished_at = ?2, status = ?3, lines = ?4, stored = ?5,
                             duplicates = ?6, rejected = ?7, skipped = ?8, isomorphs = ?9,
                             error = ?10
                         WHERE id = ?1 AND id IN (SELECT import_id FROM merged_imports)
                           AND lines <= ?4",
                        params![
                            here, finished, status, n[0], n[1], n[2], n[3], n[4], n[5], error
                        ],
                    )
                    .map_err(&write)?;
                    here
                }
                None => {
                    c.execute(
                        "INSERT INTO imports (started_at, finished_at, status, arguments, lines,
                             stored, duplicates, rejected, skipped, isomorphs, error)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                        params![
                            started, finished, status, arguments, n[0], n[1], n[2], n[3], n[4],
                            n[5], error
                        ],
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
        }
        Ok(map)
    }

    /// The output's `files` row of each file of the input, by identity.
    fn map_files(&mut self, input: &Input) -> Result<HashMap<i64, i64>, ArchiveError> {
        let read = sql("reading the files of an input");
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
        let read = sql("reading the file reads of an input");
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
    /// transactions of at most `limit` rows, until they end or a stop is
    /// asked for. `select` takes the id to start after and `limit`
    /// (`... WHERE id > ?1 ORDER BY id LIMIT ?2`); `copy` writes the rows of
    /// one batch (given the id they start after), reads none once a stop is
    /// asked for, and returns the last id it copied, if any. Each batch is
    /// committed with the run's counts and becomes [`MergeRun::reached`],
    /// the row called `what`.
    fn in_batches(
        &mut self,
        input: &Input,
        what: &'static str,
        select: &mut rusqlite::Statement<'_>,
        limit: i64,
        read: &dyn Fn(rusqlite::Error) -> ArchiveError,
        mut copy: impl FnMut(&mut Self, i64, rusqlite::Rows<'_>) -> Result<Option<i64>, ArchiveError>,
    ) -> Result<Ended, ArchiveError> {
        let mut after = 0i64;
        loop {
            self.batch()?;
            let rows = select.query(params![after, limit]).map_err(read)?;
            let last = copy(self, after, rows)?;
            self.commit()?;
            let Some(last) = last else {
                return Ok(if self.stopping() {
                    Ended::Stopped
                } else {
                    Ended::Complete
                });
            };
            after = last;
            self.reached = Some(Reached {
                input: input.path.clone(),
                what,
                id: last,
            });
            if self.stopping() {
                return Ok(Ended::Stopped);
            }
        }
    }

    /// The input's puzzles in id order, in batches with their provenance.
    fn copy_puzzles(&mut self, input: &Input, here: &Here) -> Result<Ended, ArchiveError> {
        let read = sql("reading the puzzles of an input");
        let mut select = input
            .conn
            .prepare(
                "SELECT id, type, clues, givens, encoding, solutions, solution, import_id,
                        canonical, canonical_hash
                 FROM puzzles WHERE id > ?1 ORDER BY id LIMIT ?2",
            )
            .map_err(&read)?;
        let mut select_sources = input
            .conn
            .prepare(
                "SELECT puzzle_id, file_id, line, import_id, relation FROM sources
                 WHERE puzzle_id BETWEEN ?1 AND ?2",
            )
            .map_err(&read)?;
        let limit = self.batch_puzzles;
        self.in_batches(
            input,
            "puzzle",
            &mut select,
            limit,
            &read,
            |this, after, rows| {
                let mut map = HashMap::new();
                let Some(last) = this.store_puzzles(rows, &here.imports, &mut map)? else {
                    return Ok(None);
                };
                this.copy_sources(&mut select_sources, after + 1, last, &map, here)?;
                Ok(Some(last))
            },
        )
    }

    /// One batch of puzzles (`rows`: id, type, clues, givens, encoding,
    /// solutions, solution, import_id, canonical, canonical_hash), each
    /// stored or found held; `map` gets each input id's puzzle here and
    /// whether it is held as an isomorph. Returns the last id copied.
    fn store_puzzles(
        &mut self,
        mut rows: rusqlite::Rows<'_>,
        imports: &HashMap<i64, i64>,
        map: &mut HashMap<i64, (i64, bool)>,
    ) -> Result<Option<i64>, ArchiveError> {
        let read = sql("reading the puzzles of an input");
        let write = sql("writing a batch");
        let c = &self.out.conn;
        let mut by_form = c.prepare_cached(BY_CANONICAL).map_err(&write)?;
        let mut insert = c
            .prepare_cached(
                "INSERT INTO puzzles (type, clues, givens, encoding, solutions, solution,
                     import_id, key, canonical, canonical_hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )
            .map_err(&write)?;
        let mut insert_key = c
            .prepare_cached("INSERT INTO puzzles_by_key (key, puzzle_id) VALUES (?1, ?2)")
            .map_err(&write)?;
        let mut insert_form = c
            .prepare_cached(
                "INSERT INTO puzzles_by_form (canonical_hash, puzzle_id) VALUES (?1, ?2)",
            )
            .map_err(&write)?;
        let mut last = None;
        while let Some(r) = rows.next().map_err(&read)? {
            if self.stopping() {
                break;
            }
            let id: i64 = r.get(0).map_err(&read)?;
            let kind: String = r.get(1).map_err(&read)?;
            let givens: String = r.get(3).map_err(&read)?;
            let mut canonical: Option<String> = r.get(8).map_err(&read)?;
            let mut hash: Option<i64> = r.get(9).map_err(&read)?;
            last = Some(id);
            self.counts.lines += 1;
            let import = r
                .get::<_, i64>(7)
                .ok()
                .and_then(|i| imports.get(&i).copied())
                .unwrap_or(self.merge_id);
            let clues: i64 = r.get(2).map_err(&read)?;
            let encoding: String = r.get(4).map_err(&read)?;
            let solutions: i64 = r.get(5).map_err(&read)?;
            let solution: Option<String> = r.get(6).map_err(&read)?;
            // The held puzzle of the same identity; else the free key,
            // where it is stored unless an isomorph is held.
            let key = match seek(c, BY_KEY, &kind, &givens, key_of(&kind, &givens), |r| {
                r.get(0)
            })
            .map_err(&write)?
            {
                Ok(here) => {
                    self.counts.duplicates += 1;
                    map.insert(id, (here, false));
                    continue;
                }
                Err(free) => free,
            };
            if self.dedup == Dedup::Isomorphs {
                if canonical.is_none()
                    && let Some(t) = PuzzleType::from_name(&kind)
                    && let Ok(form) = canon::of(t, &givens)
                {
                    hash = Some(canonical_hash(&kind, &form));
                    canonical = Some(form);
                }
                if let (Some(form), Some(h)) = (&canonical, hash)
                    && let Some(here) = by_form
                        .query_row(params![h, kind, form], |r| r.get::<_, i64>(0))
                        .optional()
                        .map_err(&write)?
                {
                    self.counts.duplicates += 1;
                    self.counts.isomorphs += 1;
                    map.insert(id, (here, true));
                    continue;
                }
            }
            // The row and its lookup entries, in this batch's transaction:
            // the lookup tables' invariant (see `lookup`).
            insert
                .execute(params![
                    kind, clues, givens, encoding, solutions, solution, import, key, canonical,
                    hash,
                ])
                .map_err(&write)?;
            let stored = c.last_insert_rowid();
            insert_key.execute(params![key, stored]).map_err(&write)?;
            if let Some(h) = hash {
                insert_form.execute(params![h, stored]).map_err(&write)?;
            }
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
        from: i64,
        to: i64,
        map: &HashMap<i64, (i64, bool)>,
        here: &Here,
    ) -> Result<(), ArchiveError> {
        let read = sql("reading the provenance of an input");
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
        let read = sql("reading the rejects of an input");
        let mut select = input
            .conn
            .prepare(
                "SELECT id, import_id, file_id, line, raw, reason, message FROM rejects
                 WHERE id > ?1 ORDER BY id LIMIT ?2",
            )
            .map_err(&read)?;
        self.in_batches(
            input,
            "reject",
            &mut select,
            BATCH_REJECTS,
            &read,
            |this, _, rows| this.store_rejects(rows, here),
        )
    }

    /// One batch of rejects (`rows`: id, import_id, file_id, line, raw,
    /// reason, message). Returns the last id copied.
    fn store_rejects(
        &mut self,
        mut rows: rusqlite::Rows<'_>,
        here: &Here,
    ) -> Result<Option<i64>, ArchiveError> {
        let read = sql("reading the rejects of an input");
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
            if self.stopping() {
                break;
            }
            last = Some(r.get::<_, i64>(0).map_err(&read)?);
            self.counts.lines += 1;
            self.counts.rejected += 1;
            let Some((file, import)) = here.file_and_import(r, 2, 1).map_err(&read)? else {
                continue;
            };
            insert
                .execute(params![
                    import,
                    file,
                    r.get::<_, i64>(3).map_err(&read)?,
                    r.get::<_, String>(4).map_err(&read)?,
                    r.get::<_, String>(5).map_err(&read)?,
                    r.get::<_, String>(6).map_err(&read)?,
                ])
                .map_err(&write)?;
        }
        Ok(last)
    }
}
