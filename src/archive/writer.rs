//! Writing one import: the `imports` row, then the processed chunks in batch
//! transactions (puzzles, provenance, rejects and the running counts
//! together), so a killed run leaves only whole batches and counts that
//! match them. Deduplication is the unique index on `puzzles.key`; a key
//! match with different givens (a hash collision) is reported, never merged.

use std::sync::LazyLock;
use std::time::Instant;

use rusqlite::{OptionalExtension, params};

use super::lock::ImportLock;
use super::{Archive, ArchiveError, set_foreign_keys};
use crate::input::Item;
use crate::pipeline::process::Canonical;
use crate::pipeline::{Input, Outcome, Processed, Sink};
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
/// index page the batch touched, and the key indexes are random.
const BATCH_LINES: usize = 65_536;
const BATCH_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// What became of an accepted line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    /// Its puzzle is new: stored now.
    Stored,
    /// The same puzzle is stored.
    Duplicate,
    /// An isomorph of it is stored (`--dedup isomorphs`).
    Isomorph,
}

/// Stores a puzzle unless its key is already there.
pub(super) const INSERT_PUZZLE: &str = "INSERT INTO puzzles
    (type, clues, givens, encoding, solutions, solution, import_id, key, canonical, canonical_hash)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT (key) DO NOTHING";

/// Records where a line's puzzle came from (once per file and line).
pub(super) const INSERT_SOURCE: &str = "INSERT OR IGNORE INTO sources
    (file_id, line, puzzle_id, import_id, relation) VALUES (?1, ?2, ?3, ?4, ?5)";

/// Provenance rows written by one statement. Each execution of a statement
/// opens cursors, binds, halts and unbinds; doing that once per line was
/// an eighth of the writer's instructions, and it runs on the thread
/// every line waits for.
const SOURCES_PER_INSERT: usize = 128;

/// [`INSERT_SOURCE`] for [`SOURCES_PER_INSERT`] rows: `?1` the file, `?2`
/// the import, then line, puzzle and relation of each row.
pub(super) static INSERT_SOURCES: LazyLock<String> = LazyLock::new(|| {
    let rows: Vec<String> = (0..SOURCES_PER_INSERT)
        .map(|i| {
            let at = 3 + 3 * i;
            format!("(?1, ?{at}, ?{}, ?2, ?{})", at + 1, at + 2)
        })
        .collect();
    format!(
        "INSERT OR IGNORE INTO sources (file_id, line, puzzle_id, import_id, relation) VALUES {}",
        rows.join(", ")
    )
});

/// Raw lines are kept up to this many bytes in `rejects.raw`.
const RAW_KEEP: usize = 1000;

/// How many reject messages an import prints (all are in the archive).
pub const SHOWN_REJECTS: usize = 10;

pub struct ImportWriter<'a> {
    archive: &'a mut Archive,
    dedup: Dedup,
    pub import_id: i64,
    /// Earlier imports found killed, now marked `interrupted`.
    pub interrupted: Vec<i64>,
    /// Tells later imports this one is alive.
    _lock: Option<ImportLock>,
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
            _lock: lock,
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

    /// Marks the import finished (or failed, with the reason).
    pub fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        self.progress.finish();
        if error.is_some() {
            self.rollback();
        } else {
            self.commit()?;
        }
        set_foreign_keys(&self.archive.conn, true)?;
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

    /// Drops the open batch after a failure: the archive keeps only whole batches.
    fn rollback(&mut self) {
        if self.batch_started.take().is_some() {
            self.batch_lines = 0;
            // A failed ROLLBACK means SQLite already rolled back (e.g. on SQLITE_FULL).
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
        let import_id = self.import_id;
        let dedup = self.dedup;
        let mut counts = self.counts;
        let mut shown = Vec::new();
        let sql = |e| ArchiveError::sql("writing a batch", e);
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
        {
            let mut insert = tx.prepare_cached(INSERT_PUZZLE).map_err(sql)?;
            let mut by_key = tx
                .prepare_cached("SELECT id, type, givens FROM puzzles WHERE key = ?1")
                .map_err(sql)?;
            let mut by_canonical = tx
                .prepare_cached(
                    "SELECT id, givens FROM puzzles
                     WHERE canonical_hash = ?1 AND type = ?2 AND canonical = ?3 ORDER BY id LIMIT 1",
                )
                .map_err(sql)?;
            let mut source = tx.prepare_cached(INSERT_SOURCE).map_err(sql)?;
            let mut reject = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO rejects (import_id, file_id, line, raw, reason, message)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(sql)?;
            let mut add_reject =
                |item: &Item, code: &str, message: &str| -> Result<(), ArchiveError> {
                    let raw = p.chunk.bytes(&item.raw);
                    let raw = String::from_utf8_lossy(&raw[..raw.len().min(RAW_KEEP)]);
                    reject
                        .execute(params![import_id, file_id, item.line, raw, code, message])
                        .map_err(sql)?;
                    counts.rejected += 1;
                    if shown.len() < SHOWN_REJECTS {
                        shown.push(format!("{name}:{}: {message}", item.line));
                    }
                    Ok(())
                };
            // With --dedup isomorphs, the first stored puzzle equivalent to
            // a line's (maybe that very puzzle) takes the line.
            let mut isomorph = |kind: &str,
                                canonical: &Option<Canonical>,
                                givens: &str|
             -> Result<Option<(i64, Fate)>, ArchiveError> {
                let (Dedup::Isomorphs, Some(c)) = (dedup, canonical) else {
                    return Ok(None);
                };
                let found = by_canonical
                    .query_row(params![c.hash, kind, c.form], |r| {
                        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
                    })
                    .optional()
                    .map_err(sql)?;
                Ok(found.map(|(id, stored)| {
                    let fate = if stored == givens {
                        Fate::Duplicate
                    } else {
                        Fate::Isomorph
                    };
                    (id, fate)
                }))
            };
            // (line, puzzle, relation) of each accepted line, written together.
            let mut sources = Vec::with_capacity(p.outcomes.len());
            for (item, outcome) in p.chunk.items.iter().zip(&p.outcomes) {
                counts.lines += 1;
                let (puzzle_id, fate) = match outcome {
                    Outcome::Skipped => {
                        counts.skipped += 1;
                        continue;
                    }
                    Outcome::Rejected(r) => {
                        add_reject(item, r.code, &r.message)?;
                        continue;
                    }
                    Outcome::Known(k) => {
                        match isomorph(k.kind.as_str(), &k.canonical, &k.givens)? {
                            Some(found) => found,
                            // Found by the workers: the line's own puzzle.
                            None => (k.id, Fate::Duplicate),
                        }
                    }
                    Outcome::Accepted(rec) => {
                        let kind = rec.kind.as_str();
                        if let Some(found) = isomorph(kind, &rec.canonical, &rec.givens)? {
                            found
                        } else if insert
                            .execute(params![
                                kind,
                                rec.clues,
                                rec.givens,
                                rec.encoding,
                                rec.solutions,
                                rec.solution,
                                import_id,
                                &rec.key[..],
                                rec.canonical.as_ref().map(|c| &c.form),
                                rec.canonical.as_ref().map(|c| c.hash)
                            ])
                            .map_err(sql)?
                            == 1
                        {
                            (tx.last_insert_rowid(), Fate::Stored)
                        } else {
                            let (id, t, g): (i64, String, String) = by_key
                                .query_row([&rec.key[..]], |r| {
                                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                                })
                                .map_err(sql)?;
                            if t != kind || g != rec.givens {
                                let why = format!(
                                    "{kind}: its 128-bit key equals that of stored puzzle {id}, which differs"
                                );
                                add_reject(item, "hash-collision", &why)?;
                                continue;
                            }
                            (id, Fate::Duplicate)
                        }
                    }
                };
                let relation = match fate {
                    Fate::Stored => {
                        counts.stored += 1;
                        "exact"
                    }
                    Fate::Duplicate => {
                        counts.duplicates += 1;
                        "exact"
                    }
                    Fate::Isomorph => {
                        counts.duplicates += 1;
                        counts.isomorphs += 1;
                        "isomorph"
                    }
                };
                sources.push((item.line, puzzle_id, relation));
            }
            let mut many = tx.prepare_cached(&INSERT_SOURCES).map_err(sql)?;
            let mut groups = sources.chunks_exact(SOURCES_PER_INSERT);
            for group in &mut groups {
                many.raw_bind_parameter(1, file_id).map_err(sql)?;
                many.raw_bind_parameter(2, import_id).map_err(sql)?;
                for (i, (line, puzzle_id, relation)) in group.iter().enumerate() {
                    let at = 3 + 3 * i;
                    many.raw_bind_parameter(at, line).map_err(sql)?;
                    many.raw_bind_parameter(at + 1, puzzle_id).map_err(sql)?;
                    many.raw_bind_parameter(at + 2, relation).map_err(sql)?;
                }
                many.raw_execute().map_err(sql)?;
            }
            for (line, puzzle_id, relation) in groups.remainder() {
                source
                    .execute(params![file_id, line, puzzle_id, import_id, relation])
                    .map_err(sql)?;
            }
            tx.execute(
                "UPDATE imports SET lines = ?2, stored = ?3, duplicates = ?4, rejected = ?5, skipped = ?6,
                     isomorphs = ?7
                 WHERE id = ?1",
                params![
                    import_id,
                    counts.lines,
                    counts.stored,
                    counts.duplicates,
                    counts.rejected,
                    counts.skipped,
                    counts.isomorphs
                ],
            )
            .map_err(sql)?;
        }
        self.batch_lines += p.chunk.items.len();
        if self.batch_lines >= BATCH_LINES || batch_started.elapsed() >= BATCH_TIME {
            self.commit()?;
        }
        self.counts = counts;
        for line in shown {
            if self.first_rejects.len() < SHOWN_REJECTS {
                self.first_rejects.push(line);
            }
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
