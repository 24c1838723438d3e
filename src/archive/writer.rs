//! Writing one import: the `imports` row, files and their reads, then the
//! processed chunks in batch transactions ([`super::batch::Batch`]:
//! puzzles, provenance, rejects and the running counts together), a file
//! read again superseding what its earlier reads left, a failed read taken
//! back. It must not read input files: which are unchanged is the import
//! side's to prove ([`ImportWriter::complete_reads`] answers what was read
//! completely). Design notes: docs/architecture.md, "src/archive/writer.rs".

use std::collections::HashSet;
use std::time::Instant;

use rusqlite::{OptionalExtension, params};

use super::batch::Batch;
pub use super::dedup::Dedup;
use super::earlier::Earlier;
pub use super::lines::Counts;
use super::lines::{ChunkLines, SHOWN_REJECTS};
use super::pending::Pending;
use super::remove::{Removal, puzzles_removed};
use super::run::IMPORT;
use super::{Archive, ArchiveError};
use crate::core::puzzle::TypeHint;
use crate::input::{Content, Framing, Identity, PuzzleColumn};
use crate::pipeline::{Input, Outcome, Processed, Sink};
use crate::record::Settings;

/// What became of the lines of one input of the run so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileCounts {
    pub counts: Counts,
    /// The number of the last line written (0 before the first).
    pub last_line: u64,
    /// The CSV column its puzzles were taken from (None for text).
    pub column: Option<PuzzleColumn>,
}

// A batch transaction is committed after [`super::Scale::lines`] lines or
// [`super::Scale::time`], whichever comes first; the pipeline calls [`Sink::idle`]
// when the time is up while it waits for the next chunk, so a batch closes
// on time however slow the lines or the reader. Large batches matter: every
// commit writes each index page the batch touched, and the key indexes are
// random. Doubling them from 65,536 lines (2 s) wrote a fifth less to disk
// on a 1M-line import and took about a tenth less time; a kill loses at
// most one. Past two million puzzles they grow with the archive (see
// [`super::Scale`]).

/// What an import does with its inputs, decided before reading any.
#[derive(Debug, Default)]
pub struct Plan {
    /// The inputs to read, in command-line order.
    pub read: Vec<Input>,
    /// Where each of them stands among the inputs planned.
    pub read_index: Vec<usize>,
    /// The files left unread: their content was imported in full before.
    pub unchanged: Vec<Input>,
    /// Their size in bytes, done before anything is read.
    pub unchanged_bytes: u64,
}

/// How an input's lines are read, as `file_reads.read_as` records it: a
/// file is skipped only if it was read to the end the same way before
/// (another column, type or deduplication can make other rows of the same
/// lines). The version is in it because a new version may judge lines
/// differently.
pub fn read_as(framing: &Framing, settings: Settings, dedup: Dedup) -> String {
    let format = match framing {
        // Grids and delimited lines are read since schema 10: a file read
        // as "text" before is read again.
        Framing::Text => "text: one string per line, grids or delimited lines".to_string(),
        Framing::Csv { delimiter, column } => {
            let column = match column {
                Some(crate::input::ColumnChoice::Name(n)) => format!("column {n:?}"),
                Some(crate::input::ColumnChoice::Number(n)) => format!("column {n}"),
                None => "column found by header or content".to_string(),
            };
            match delimiter {
                Some(d) => format!("csv delimited by {:?}, {column}", char::from(*d)),
                None => format!("csv, delimiter sniffed, {column}"),
            }
        }
    };
    let kind = match settings.hint {
        TypeHint::Auto => "auto",
        TypeHint::Only(t) => t.as_str(),
    };
    let dedup = match dedup {
        Dedup::Exact => "exact",
        Dedup::Isomorphs => "isomorphs",
    };
    let canonical = if settings.canonical {
        "with canonical forms"
    } else {
        "no canonical forms"
    };
    format!(
        "sudoku-archive {}: {format}, type {kind}, dedup {dedup}, {canonical}",
        env!("CARGO_PKG_VERSION")
    )
}

pub struct ImportWriter<'a> {
    archive: &'a mut Archive,
    dedup: Dedup,
    pub import_id: i64,
    /// Earlier imports found killed, now marked `interrupted`.
    pub interrupted: Vec<i64>,
    /// The run (which tells later imports this one is alive) and its open
    /// batch.
    batch: Batch,
    pub counts: Counts,
    /// The same per input, in the order given.
    pub files: Vec<FileCounts>,
    /// `file:line: message` of the first rejects, for the summary.
    pub first_rejects: Vec<String>,
    /// The `files` row of each input read, by its index in the run.
    file_ids: Vec<i64>,
    /// How the lines are read, for `file_reads.read_as`.
    settings: Settings,
    /// The lookup entries of the puzzles the open batch stored, written at
    /// its commit.
    pending: Pending,
    started: Instant,
    /// The input being read, from its `begin_input` to its `end_input`.
    open: Option<OpenRead>,
    /// The import's counts as of its last commit.
    committed: Counts,
    /// Rows the open batch took out, and every puzzle the run removed.
    removal: Removal,
    /// Puzzles removed from the archive by every run, when this one began.
    removed_before: i64,
    /// Set once another run removed puzzles while this one ran: each
    /// stored puzzle the workers found is looked at again before a line
    /// names it (the lookup may be older than the removal).
    recheck_known: bool,
}

/// The input being read.
#[derive(Clone, Copy, Debug)]
struct OpenRead {
    index: usize,
    file_id: i64,
    /// The last line earlier reads left rows of (provenance or rejects),
    /// if any: the lines up to it are compared with those rows.
    earlier_end: Option<i64>,
    /// Its counts as of the last commit.
    committed: Counts,
}

impl<'a> ImportWriter<'a> {
    /// Records the start of an import with its command line.
    pub fn begin(
        archive: &'a mut Archive,
        dedup: Dedup,
        arguments: &[String],
    ) -> Result<ImportWriter<'a>, ArchiveError> {
        // Every reference the writer makes is to a row it has just read or
        // written (this import, the file, the puzzle just stored or found),
        // so SQLite's own checks, four lookups per line and an eighth of the
        // writing time, are off for the import; the tests check the result
        // with `foreign_key_check`. Enforcement is back on in `finish`.
        let (batch, interrupted) = Batch::begin(archive, &IMPORT, arguments)?;
        let removed_before = puzzles_removed(&archive.conn)
            .map_err(|e| ArchiveError::sql("reading what earlier runs removed", e))?;
        let import_id = batch.run_id();
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
            batch,
            counts: Counts::default(),
            files: Vec::new(),
            first_rejects: Vec::new(),
            file_ids: Vec::new(),
            settings: Settings::default(),
            pending: Pending::new(dedup == Dedup::Isomorphs),
            started: Instant::now(),
            open: None,
            committed: Counts::default(),
            removal: Removal::default(),
            removed_before,
            recheck_known: false,
        })
    }

    /// Marks the import finished, or failed with the reason (its own
    /// failure to commit the last batch included), then shrinks the WAL
    /// (on a full disk giving back the lock file's reserve first: [`super::run`]).
    pub fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        let committed = match error {
            Some(_) => Ok(()),
            None => self.commit(),
        };
        // Committed or rolled back by the run's end: no batch is left open.
        self.pending.clear();
        self.removal.rolled_back();
        self.batch.finish(&self.archive.conn, committed, error)
    }

    /// Marks the import `interrupted` after the pipeline stopped early on
    /// request: the open batch holds whole lines, so it is committed.
    pub fn interrupt(&mut self) -> Result<(), ArchiveError> {
        self.commit()?;
        self.batch.end(&self.archive.conn, "interrupted")
    }

    /// Commits the open batch, if any: the lookup entries of its puzzles
    /// first, then the puzzles no line holds any more taken out.
    fn commit(&mut self) -> Result<(), ArchiveError> {
        let (pending, removal, import_id) = (&mut self.pending, &mut self.removal, self.import_id);
        let committed = self.batch.commit(&self.archive.conn, |c| {
            let e = |e| ArchiveError::sql("committing a batch", e);
            pending.write(c).map_err(e)?;
            removal.settle(c, import_id).map_err(e)
        })?;
        if committed {
            self.committed = self.counts;
            if let Some(open) = &mut self.open
                && let Some(f) = self.files.get(open.index)
            {
                open.committed = f.counts;
            }
        }
        Ok(())
    }

    /// After the read of the input being read failed (corrupt compressed
    /// data, a file that changed while it was read): rolls back the open
    /// batch, then takes out everything this import wrote of that file
    /// (its provenance, rejects and read, and the puzzles only those lines
    /// held) and its lines from the import's counts, in one transaction.
    /// Returns the lines taken back; none when no input was being read.
    pub fn discard_read(&mut self) -> Result<u64, ArchiveError> {
        let Some(open) = self.open.take() else {
            return Ok(0);
        };
        self.batch.roll_back(&self.archive.conn)?;
        self.pending.clear();
        self.removal.rolled_back();
        let mut counts = self.committed;
        counts.take(open.committed);
        self.batch()?;
        let e = |e| ArchiveError::sql("taking out what a failed read wrote", e);
        let conn = &self.archive.conn;
        self.removal
            .read_of(conn, open.file_id, self.import_id)
            .map_err(e)?;
        super::run::write_counts(conn, self.import_id, counts).map_err(e)?;
        self.counts = counts;
        if let Some(f) = self.files.get_mut(open.index) {
            *f = FileCounts::default();
        }
        self.commit()?;
        Ok(open.committed.lines)
    }

    /// After a batch's commit: bound the WAL, let a waiting import in, and
    /// size the next batch and the cache for the archive as it is now.
    fn after_commit(&mut self) -> Result<(), ArchiveError> {
        self.batch.after_commit(self.archive, self.counts.stored)
    }

    /// Opens a batch transaction unless one is open; returns when it began.
    /// Under the write lock, sees whether another run removed puzzles
    /// since this one began.
    fn batch(&mut self) -> Result<(), ArchiveError> {
        let (_, began) = self.batch.open(&self.archive.conn)?;
        if began && !self.recheck_known {
            let removed = puzzles_removed(&self.archive.conn)
                .map_err(|e| ArchiveError::sql("starting a batch", e))?;
            let own = self.removal.removed.len() as i64;
            self.recheck_known = removed != self.removed_before + own;
        }
        Ok(())
    }

    /// The chunk's outcomes, with each stored puzzle the workers found that
    /// may be gone since (removed by this run, or by another while this
    /// one ran) looked at again, and its line analysed anew if it is.
    /// `None` when every outcome stands as it is (nearly always).
    fn fresh_outcomes(&self, p: &Processed) -> Result<Option<Vec<Outcome>>, ArchiveError> {
        if !self.recheck_known && self.removal.removed.is_empty() {
            return Ok(None);
        }
        let e = |e| ArchiveError::sql("looking at a stored puzzle again", e);
        let mut fresh: Option<Vec<Outcome>> = None;
        for (i, (item, outcome)) in p.chunk.items.iter().zip(&p.outcomes).enumerate() {
            let Outcome::Known(k) = outcome else {
                continue;
            };
            let gone = self.removal.removed.contains(&k.id)
                || (self.recheck_known && {
                    let row: Option<(String, String)> = self
                        .archive
                        .conn
                        .prepare_cached("SELECT type, givens FROM puzzles WHERE id = ?1")
                        .and_then(|mut st| {
                            st.query_row([k.id], |r| Ok((r.get(0)?, r.get(1)?)))
                                .optional()
                        })
                        .map_err(e)?;
                    row.is_none_or(|(kind, givens)| kind != k.kind.as_str() || givens != k.givens)
                });
            if gone {
                let outcomes = fresh.get_or_insert_with(|| p.outcomes.clone());
                outcomes[i] =
                    crate::pipeline::process::process(&p.chunk, item, self.settings, None);
            }
        }
        Ok(fresh)
    }

    /// Records which inputs the run reads: gives each its `files` row (by
    /// its identity, `identities[i]`), and leaves out, recording them as
    /// `unchanged`, those the import side proved unchanged (`unchanged[i]`:
    /// the content it found equal to a complete read, [`Self::complete_reads`]).
    /// The lines are read with `settings`.
    pub fn plan(
        &mut self,
        inputs: &[Input],
        identities: &[Identity],
        unchanged: &[Option<Content>],
        settings: Settings,
    ) -> Result<Plan, ArchiveError> {
        self.settings = settings;
        let mut plan = Plan::default();
        let mut file_ids = Vec::with_capacity(inputs.len());
        self.batch()?;
        for (index, ((input, identity), same)) in
            inputs.iter().zip(identities).zip(unchanged).enumerate()
        {
            let id = self.file_row(identity, &input.name())?;
            match same {
                Some(content) => {
                    self.record_read(id, "unchanged", &input.framing, Some(*content))?;
                    plan.unchanged_bytes += content.bytes;
                    plan.unchanged.push(input.clone());
                }
                None => {
                    file_ids.push(id);
                    plan.read.push(input.clone());
                    plan.read_index.push(index);
                }
            }
        }
        self.commit()?;
        self.file_ids = file_ids;
        self.files = vec![FileCounts::default(); plan.read.len()];
        Ok(plan)
    }

    /// The content hashes of the complete reads of the input `identity`
    /// (spelled `name`) that were `bytes` long, read as `framing` and
    /// `settings` read it, by finished imports, and neither read again nor
    /// taken out since: was this identity, size and read-as read
    /// completely? Empty when not. Whether the file is unchanged is the
    /// import side's to prove (its hash against these).
    pub fn complete_reads(
        &self,
        identity: &Identity,
        name: &str,
        bytes: u64,
        framing: &Framing,
        settings: Settings,
    ) -> Result<HashSet<String>, ArchiveError> {
        let Some(id) = self.find_file(identity, name)? else {
            return Ok(HashSet::new());
        };
        let e = |e| ArchiveError::sql("looking up earlier reads of a file", e);
        self.archive
            .conn
            .prepare_cached(
                "SELECT r.content_hash FROM file_reads AS r JOIN imports AS i ON i.id = r.import_id
                 WHERE r.file_id = ?1 AND r.complete = 1 AND r.bytes = ?2 AND r.read_as = ?3
                   AND r.content_hash IS NOT NULL AND i.status = 'finished'
                   AND NOT EXISTS (SELECT 1 FROM file_reads AS later
                       WHERE later.file_id = r.file_id AND later.import_id > r.import_id
                         AND later.action = 'read')
                   AND NOT EXISTS (SELECT 1 FROM removals AS m
                       WHERE m.file_id = r.file_id AND m.import_id > r.import_id)",
            )
            .map_err(e)?
            .query_map(
                params![id, bytes, read_as(framing, settings, self.dedup)],
                |r| r.get(0),
            )
            .map_err(e)?
            .collect::<Result<_, _>>()
            .map_err(e)
    }

    /// The `files` row of an input, if it has one: for a file, the row of
    /// its real path, or else a row from before real paths were recorded
    /// whose path is this spelling or the real path (see [`Self::file_row`]).
    fn find_file(&self, identity: &Identity, name: &str) -> Result<Option<i64>, ArchiveError> {
        let c = &self.archive.conn;
        let e = |e| ArchiveError::sql("looking up the input file", e);
        match identity {
            Identity::Stdin { name } => c
                .query_row(
                    "SELECT id FROM files WHERE kind = 'stdin' AND path = ?1",
                    [name],
                    |r| r.get(0),
                )
                .optional()
                .map_err(e),
            Identity::File { real_path } => {
                let found = c
                    .query_row(
                        "SELECT id FROM files WHERE real_path = ?1",
                        [real_path],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(e)?;
                if found.is_some() {
                    return Ok(found);
                }
                // An absolute path that is the real path names this file
                // wherever the import ran; a relative one is the best guess.
                c.query_row(
                    "SELECT id FROM files
                     WHERE kind = 'file' AND real_path IS NULL AND path IN (?1, ?2)
                     ORDER BY path = ?2 DESC, id LIMIT 1",
                    [name, real_path.as_str()],
                    |r| r.get(0),
                )
                .optional()
                .map_err(e)
            }
        }
    }

    /// The `files` row of an input, made if it has none. A row recorded
    /// before real paths were (schema 8) is taken by the first file
    /// imported under its path, as the old importer matched it, and gets
    /// that file's real path: the same spelling from another folder is then
    /// another file. Must run inside a batch.
    fn file_row(&mut self, identity: &Identity, name: &str) -> Result<i64, ArchiveError> {
        let found = self.find_file(identity, name)?;
        let c = &self.archive.conn;
        let e = |e| ArchiveError::sql("recording the input file", e);
        match (identity, found) {
            (Identity::File { real_path }, Some(id)) => {
                c.execute(
                    "UPDATE files SET real_path = ?2 WHERE id = ?1 AND real_path IS NULL",
                    params![id, real_path],
                )
                .map_err(e)?;
                Ok(id)
            }
            (Identity::Stdin { .. }, Some(id)) => Ok(id),
            (Identity::File { real_path }, None) => {
                c.execute(
                    "INSERT INTO files (path, real_path, kind) VALUES (?1, ?2, 'file')",
                    params![name, real_path],
                )
                .map_err(e)?;
                Ok(c.last_insert_rowid())
            }
            (Identity::Stdin { name }, None) => {
                c.execute(
                    "INSERT INTO files (path, kind) VALUES (?1, 'stdin')",
                    params![name],
                )
                .map_err(e)?;
                Ok(c.last_insert_rowid())
            }
        }
    }

    /// Records this import's read of a file: `content` when it is known
    /// (the read reached the end), which makes the read complete.
    fn record_read(
        &mut self,
        file_id: i64,
        action: &str,
        framing: &Framing,
        content: Option<Content>,
    ) -> Result<(), ArchiveError> {
        self.batch()?;
        self.archive
            .conn
            .prepare_cached(
                "INSERT INTO file_reads
                     (file_id, import_id, action, read_as, bytes, content_hash, complete)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (file_id, import_id) DO UPDATE SET
                     action = excluded.action, read_as = excluded.read_as,
                     bytes = excluded.bytes, content_hash = excluded.content_hash,
                     complete = excluded.complete",
            )
            .and_then(|mut st| {
                st.execute(params![
                    file_id,
                    self.import_id,
                    action,
                    read_as(framing, self.settings, self.dedup),
                    content.map(|c| c.bytes),
                    content.map(|c| c.hash_hex()),
                    content.is_some(),
                ])
            })
            .map(|_| ())
            .map_err(|e| ArchiveError::sql("recording the read of a file", e))
    }

    /// The `files` row of input `index` of the run, found by [`Self::plan`].
    fn file_id_of(&self, index: usize) -> Result<i64, ArchiveError> {
        self.file_ids
            .get(index)
            .copied()
            .ok_or_else(|| ArchiveError::Sql {
                context: format!("input {index} of the run was not planned"),
                cause: rusqlite::Error::InvalidQuery,
            })
    }

    fn write_chunk(&mut self, name: &str, file_id: i64, p: &Processed) -> Result<(), ArchiveError> {
        self.batch()?;
        let fresh = self.fresh_outcomes(p)?;
        let outcomes = fresh.as_deref().unwrap_or(&p.outcomes);
        let tx = &self.archive.conn;
        let e = |e| ArchiveError::sql("writing a batch", e);
        // Only the lines up to the last one earlier reads left rows of are
        // compared with them.
        let span = match (p.chunk.items.first(), p.chunk.items.last()) {
            (Some(first), Some(last)) => Some((first.line as i64, last.line as i64)),
            _ => None,
        };
        let earlier = match (self.open.and_then(|o| o.earlier_end), span) {
            (Some(end), Some((first, last))) if first <= end => {
                Earlier::load(tx, file_id, first, last).map_err(e)?
            }
            _ => None,
        };
        let lines = ChunkLines::new(
            tx,
            &mut self.pending,
            &p.chunk,
            name,
            file_id,
            self.import_id,
            self.dedup,
            self.counts,
        );
        let lines = match earlier {
            Some(earlier) => lines.superseding(earlier, &mut self.removal),
            None => lines,
        };
        let (c, shown) = lines.write(outcomes)?;
        self.batch.write_counts(tx, c)?;
        for line in shown {
            if self.first_rejects.len() < SHOWN_REJECTS {
                self.first_rejects.push(line);
            }
        }
        if let Some(f) = self.files.get_mut(p.input) {
            f.counts.add(c.since(self.counts));
            f.last_line = p.chunk.items.last().map_or(f.last_line, |i| i.line);
            if p.chunk.column.is_some() {
                f.column.clone_from(&p.chunk.column);
            }
        }
        self.counts = c;
        self.batch.add(p.chunk.items.len());
        if self.batch.full() {
            self.commit()?;
            self.after_commit()?;
        }
        Ok(())
    }

    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

impl Sink for ImportWriter<'_> {
    type Error = ArchiveError;

    /// Records the read, and where the rows earlier reads left of the
    /// file end (a file read again supersedes those its lines differ from).
    fn begin_input(
        &mut self,
        index: usize,
        input: &Input,
        _len: Option<u64>,
    ) -> Result<(), ArchiveError> {
        let id = self.file_id_of(index)?;
        self.record_read(id, "read", &input.framing, None)?;
        let earlier_end: Option<i64> = self
            .archive
            .conn
            .prepare_cached(
                "SELECT nullif(max(ifnull((SELECT max(line) FROM sources WHERE file_id = ?1), 0),
                                   ifnull((SELECT max(line) FROM rejects WHERE file_id = ?1), 0)),
                               0)",
            )
            .and_then(|mut st| st.query_row([id], |r| r.get(0)))
            .map_err(|e| ArchiveError::sql("looking up earlier reads of a file", e))?;
        self.open = Some(OpenRead {
            index,
            file_id: id,
            earlier_end,
            committed: Counts::default(),
        });
        Ok(())
    }

    fn write(&mut self, inputs: &[Input], p: &Processed) -> Result<(), ArchiveError> {
        let Some(input) = inputs.get(p.input) else {
            return Ok(());
        };
        let name = input.name();
        let file_id = self.file_id_of(p.input)?;
        self.write_chunk(&name, file_id, p)
    }

    /// Records the read complete when it reached the end; a file that is
    /// shorter than an earlier read found it loses the rows of the lines
    /// past its end.
    fn end_input(
        &mut self,
        index: usize,
        input: &Input,
        content: Option<Content>,
    ) -> Result<(), ArchiveError> {
        let id = self.file_id_of(index)?;
        let open = self.open.take();
        let last = self.files.get(index).map_or(0, |f| f.last_line) as i64;
        if content.is_some()
            && let Some(end) = open.and_then(|o| o.earlier_end)
            && end > last
        {
            self.batch()?;
            self.removal
                .past_end(&self.archive.conn, id, last)
                .map_err(|e| ArchiveError::sql("taking out the lines past a file's end", e))?;
        }
        self.record_read(id, "read", &input.framing, content)
    }

    /// An open batch must close [`super::Scale::time`] after it began.
    fn deadline(&self) -> Option<Instant> {
        self.batch.deadline()
    }

    /// The next chunk is late (slow lines, a slow reader): the open batch
    /// is committed now rather than held, with the write lock, until it
    /// comes.
    fn idle(&mut self) -> Result<(), ArchiveError> {
        self.commit()?;
        self.after_commit()
    }
}
