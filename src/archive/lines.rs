//! Writing one chunk's lines inside the open batch transaction: each
//! accepted line's puzzle (stored, or found as a duplicate or isomorph),
//! its provenance, and each rejected line with its reason. Deduplication is
//! [`super::dedup`]'s; a new puzzle's lookup entries wait in [`Pending`]
//! for the batch's commit. Rows are written several to a statement
//! ([`PUZZLES_PER_INSERT`], [`SOURCES_PER_INSERT`]).
//!
//! It owns what the lines come to ([`Counts`]) and how many reject messages
//! are kept to show ([`SHOWN_REJECTS`]); nothing here uses the writer: the
//! import goes one way. In full: docs/architecture.md "Module notes".

use std::sync::LazyLock;

use rusqlite::{CachedStatement, Connection, params};

use super::ArchiveError;
use super::borrowed::{Borrowed, Param};
use super::dedup::{Dedup, Dedupe, Place, Sought};
use super::earlier::{Earlier, Now, Superseded};
use super::pending::Pending;
use super::puzzle_row::{
    self, Held, INSERT_PUZZLE, INSERT_PUZZLES, NewRow, PUZZLE_PARAMS, PUZZLES_PER_INSERT,
};
use super::remove::{Reason, Removal};
use crate::input::{Chunk, Item};
use crate::record::{Canonical, Outcome, Record};

/// Records where a line's puzzle came from (once per file and line).
pub(super) const INSERT_SOURCE: &str = "INSERT OR IGNORE INTO sources
    (file_id, line, puzzle_id, import_id, relation, fields) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// Provenance rows written by one statement.
const SOURCES_PER_INSERT: usize = 128;

/// [`INSERT_SOURCE`] for [`SOURCES_PER_INSERT`] rows: `?1` the file, `?2`
/// the import, then line, puzzle, relation and other fields (NULL for
/// most records) of each row.
pub(super) static INSERT_SOURCES: LazyLock<String> = LazyLock::new(|| {
    let rows: Vec<String> = (0..SOURCES_PER_INSERT)
        .map(|i| {
            let at = 3 + 4 * i;
            format!("(?1, ?{at}, ?{}, ?2, ?{}, ?{})", at + 1, at + 2, at + 3)
        })
        .collect();
    format!(
        "INSERT OR IGNORE INTO sources (file_id, line, puzzle_id, import_id, relation, fields) VALUES {}",
        rows.join(", ")
    )
});

const INSERT_REJECT: &str = "INSERT OR IGNORE INTO rejects
    (import_id, file_id, line, raw, reason, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// Raw lines are kept up to this many bytes in `rejects.raw`.
const RAW_KEEP: usize = 1000;

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

impl Counts {
    /// What was added since `before`, an earlier state of the same counts.
    pub(super) fn since(self, before: Counts) -> Counts {
        Counts {
            lines: self.lines - before.lines,
            stored: self.stored - before.stored,
            duplicates: self.duplicates - before.duplicates,
            rejected: self.rejected - before.rejected,
            skipped: self.skipped - before.skipped,
            isomorphs: self.isomorphs - before.isomorphs,
        }
    }

    /// Takes away `d`, a part of these counts.
    pub(super) fn take(&mut self, d: Counts) {
        *self = self.since(d);
    }

    pub(super) fn add(&mut self, d: Counts) {
        self.lines += d.lines;
        self.stored += d.stored;
        self.duplicates += d.duplicates;
        self.rejected += d.rejected;
        self.skipped += d.skipped;
        self.isomorphs += d.isomorphs;
    }
}

/// How many reject messages an import prints (all are in the archive).
pub const SHOWN_REJECTS: usize = 10;

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

fn sql(e: rusqlite::Error) -> ArchiveError {
    ArchiveError::sql("writing a batch", e)
}

/// One chunk's lines, written into the open transaction.
pub(super) struct ChunkLines<'a, 'p> {
    tx: &'a Connection,
    /// The batch's new puzzles, by key and hash.
    pending: &'p mut Pending,
    chunk: &'a Chunk,
    /// The input's name, for the reject messages shown.
    name: &'a str,
    file_id: i64,
    import_id: i64,
    dedup: Dedup,
    /// The import's counts, this chunk's lines added.
    counts: Counts,
    /// `file:line: message` of rejects, up to [`SHOWN_REJECTS`].
    shown: Vec<String>,
    /// (line, puzzle, relation) of each accepted line, written at the end.
    sources: Vec<(u64, i64, &'static str)>,
    /// New puzzles waiting for the next multi-row insert: (id, key, record).
    group: Vec<(i64, i64, &'a Record)>,
    /// [`INSERT_PUZZLES`], prepared once per chunk, binding the records'
    /// strings without copies.
    insert_group: Option<Borrowed<'a>>,
    /// [`INSERT_PUZZLE`], the same way.
    insert_one: Option<Borrowed<'a>>,
    /// The parameters of the next group or provenance insert.
    params: Vec<Param<'a>>,
    /// The rows earlier reads left for the chunk's lines, when there are
    /// any, and where those the lines supersede go.
    earlier: Option<(Earlier, &'p mut Removal)>,
    /// Earlier provenance rows superseded, taken out before the chunk's own
    /// are written.
    superseded: Superseded,
}

impl<'a, 'p> ChunkLines<'a, 'p> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tx: &'a Connection,
        pending: &'p mut Pending,
        chunk: &'a Chunk,
        name: &'a str,
        file_id: i64,
        import_id: i64,
        dedup: Dedup,
        counts: Counts,
    ) -> ChunkLines<'a, 'p> {
        ChunkLines {
            tx,
            pending,
            chunk,
            name,
            file_id,
            import_id,
            dedup,
            counts,
            shown: Vec::new(),
            sources: Vec::with_capacity(chunk.items.len()),
            group: Vec::with_capacity(PUZZLES_PER_INSERT),
            insert_group: None,
            insert_one: None,
            params: Vec::with_capacity(PUZZLE_PARAMS * PUZZLES_PER_INSERT),
            earlier: None,
            superseded: Superseded::default(),
        }
    }

    /// Compares each line with the rows `earlier` reads left for it, and
    /// has `removal` take out those it supersedes (see [`super::earlier`]).
    pub fn superseding(mut self, earlier: Earlier, removal: &'p mut Removal) -> Self {
        self.earlier = Some((earlier, removal));
        self
    }

    /// Notes the earlier rows of `line` that what it is `now` supersedes.
    /// Rejects go at once (a new reject equal but for its message would
    /// otherwise be kept out by the old one), provenance rows before the
    /// chunk's own are written. True when the provenance row `now` makes
    /// is already there.
    fn supersede(&mut self, line: u64, now: Now<'_>) -> Result<bool, ArchiveError> {
        let Some((earlier, removal)) = &mut self.earlier else {
            return Ok(false);
        };
        let line = line_number(line)?;
        let kept = earlier.supersede(line, &now, &mut self.superseded);
        for id in self.superseded.rejects.drain(..) {
            removal
                .reject(self.tx, self.file_id, id, Reason::Changed)
                .map_err(sql)?;
        }
        Ok(kept)
    }

    /// Takes out the superseded provenance rows.
    fn take_out_superseded(&mut self) -> Result<(), ArchiveError> {
        let Some((_, removal)) = &mut self.earlier else {
            return Ok(());
        };
        for (line, puzzle_id) in self.superseded.sources.drain(..) {
            removal
                .source(self.tx, self.file_id, line, puzzle_id, Reason::Changed)
                .map_err(sql)?;
        }
        Ok(())
    }

    fn statement(&self, sql_text: &str) -> Result<CachedStatement<'a>, ArchiveError> {
        self.tx.prepare_cached(sql_text).map_err(sql)
    }

    /// Writes every line of the chunk, given the outcome of each; returns
    /// the import's counts with the chunk's lines added, and the rejects
    /// to show.
    pub fn write(mut self, outcomes: &'a [Outcome]) -> Result<(Counts, Vec<String>), ArchiveError> {
        for (item, outcome) in self.chunk.items.iter().zip(outcomes) {
            self.counts.lines += 1;
            let (puzzle_id, fate) = match outcome {
                Outcome::Skipped => {
                    self.counts.skipped += 1;
                    self.supersede(item.line, Now::Nothing)?;
                    continue;
                }
                Outcome::Rejected(r) => {
                    self.reject(item, r.code, &r.message)?;
                    continue;
                }
                Outcome::Known(k) => {
                    let canonical = k.canonical.as_ref().map(Canonical::parts);
                    let found = self
                        .dedupe()
                        .isomorph(k.kind.as_str(), canonical, &k.givens, |id| self.row(id))
                        .map_err(sql)?;
                    match found.map(held) {
                        Some(Ok(found)) => found,
                        // Found by the workers: the line's own puzzle.
                        _ => (k.id, Fate::Duplicate),
                    }
                }
                Outcome::Accepted(rec) => self.store(rec)?,
            };
            let relation = self.account(item, puzzle_id, fate);
            if self.earlier.is_some() {
                let now = Now::Source {
                    puzzle_id,
                    relation,
                    fields: self.chunk.fields_of(item.line),
                };
                if self.supersede(item.line, now)? {
                    // The row is there as it would be written: an
                    // unchanged line of a file read again costs no write.
                    self.sources.pop();
                }
            }
        }
        self.flush()?;
        self.take_out_superseded()?;
        self.write_sources()?;
        Ok((self.counts, self.shown))
    }

    /// Counts an accepted line and queues its provenance; returns its
    /// relation.
    fn account(&mut self, item: &Item, puzzle_id: i64, fate: Fate) -> &'static str {
        let relation = match fate {
            Fate::Stored => {
                self.counts.stored += 1;
                "exact"
            }
            Fate::Duplicate => {
                self.counts.duplicates += 1;
                "exact"
            }
            Fate::Isomorph => {
                self.counts.duplicates += 1;
                self.counts.isomorphs += 1;
                "isomorph"
            }
        };
        self.sources.push((item.line, puzzle_id, relation));
        relation
    }

    fn reject(&mut self, item: &Item, code: &str, message: &str) -> Result<(), ArchiveError> {
        let raw = self.chunk.bytes(&item.raw);
        let raw = String::from_utf8_lossy(&raw[..raw.len().min(RAW_KEEP)]);
        let now = Now::Reject {
            reason: code,
            raw: &raw,
            message,
        };
        self.supersede(item.line, now)?;
        self.statement(INSERT_REJECT)?
            .execute(params![
                self.import_id,
                self.file_id,
                item.line,
                raw,
                code,
                message
            ])
            .map_err(sql)?;
        self.counts.rejected += 1;
        if self.shown.len() < SHOWN_REJECTS {
            self.shown
                .push(format!("{}:{}: {message}", self.name, item.line));
        }
        Ok(())
    }

    /// A puzzle this batch stored: from the group waiting for its insert,
    /// or the row written.
    fn row(&self, id: i64) -> rusqlite::Result<Held> {
        if let Some(&(_, _, rec)) = self.group.iter().find(|&&(gid, _, _)| gid == id) {
            return Ok(Held {
                kind: rec.kind.as_str().to_owned(),
                givens: rec.givens().to_owned(),
                canonical: rec.canonical().map(|(form, _)| form.to_owned()),
            });
        }
        puzzle_row::held(self.tx, id)
    }

    /// The deduplication of this batch.
    fn dedupe(&self) -> Dedupe<'_> {
        Dedupe {
            conn: self.tx,
            pending: self.pending,
            dedup: self.dedup,
        }
    }

    /// `rec`'s puzzle: the stored one it is (or, with --dedup isomorphs,
    /// the first of its form), or stored now under the free key
    /// ([`super::dedup`]).
    fn store(&mut self, rec: &'a Record) -> Result<(i64, Fate), ArchiveError> {
        let sought = Sought {
            kind: rec.kind.as_str(),
            givens: rec.givens(),
            key: rec.key,
            canonical: rec.canonical(),
        };
        let place = self
            .dedupe()
            .place(sought, |id| self.row(id))
            .map_err(sql)?;
        let key = match held(place) {
            Ok(found) => return Ok(found),
            Err(free) => free,
        };
        let id = self.pending.next_id(self.tx).map_err(sql)?;
        self.pending
            .add(key, id, rec.canonical().map(|(_, hash)| hash));
        self.group.push((id, key, rec));
        if self.group.len() == PUZZLES_PER_INSERT {
            self.flush()?;
        }
        Ok((id, Fate::Stored))
    }

    /// Writes the waiting new puzzles: a full group in one statement, the
    /// rest of a chunk's one by one.
    fn flush(&mut self) -> Result<(), ArchiveError> {
        if self.group.is_empty() {
            return Ok(());
        }
        let added = if self.group.len() == PUZZLES_PER_INSERT {
            let insert = match &mut self.insert_group {
                Some(insert) => insert,
                empty => empty.insert(Borrowed::prepare(self.tx, &INSERT_PUZZLES).map_err(sql)?),
            };
            self.params.clear();
            for &(id, key, rec) in &self.group {
                self.params
                    .extend(NewRow::of_record(rec, id, key, self.import_id).params());
            }
            insert.execute(&self.params).map_err(sql)?
        } else {
            let insert = match &mut self.insert_one {
                Some(insert) => insert,
                empty => empty.insert(Borrowed::prepare(self.tx, &INSERT_PUZZLE).map_err(sql)?),
            };
            let mut added = 0;
            for &(id, key, rec) in &self.group {
                added += insert
                    .execute(&NewRow::of_record(rec, id, key, self.import_id).params())
                    .map_err(sql)?;
            }
            added
        };
        if added != self.group.len() {
            // Only a failed CHECK can drop a row: the records make none fail.
            return Err(sql(rusqlite::Error::StatementChangedRows(added)));
        }
        self.group.clear();
        Ok(())
    }

    /// Writes the chunk's provenance rows, [`SOURCES_PER_INSERT`] at a time.
    fn write_sources(&mut self) -> Result<(), ArchiveError> {
        let mut groups = self.sources.chunks_exact(SOURCES_PER_INSERT);
        if groups.len() > 0 {
            let mut many = Borrowed::prepare(self.tx, &INSERT_SOURCES).map_err(sql)?;
            for group in &mut groups {
                self.params.clear();
                self.params
                    .extend([Param::Int(self.file_id), Param::Int(self.import_id)]);
                for &(line, puzzle_id, relation) in group {
                    self.params.extend([
                        Param::Int(line_number(line)?),
                        Param::Int(puzzle_id),
                        Param::Text(relation),
                        Param::from(self.chunk.fields_of(line)),
                    ]);
                }
                many.execute(&self.params).map_err(sql)?;
            }
        }
        let mut one = self.statement(INSERT_SOURCE)?;
        for &(line, puzzle_id, relation) in groups.remainder() {
            one.execute(params![
                self.file_id,
                line,
                puzzle_id,
                self.import_id,
                relation,
                self.chunk.fields_of(line)
            ])
            .map_err(sql)?;
        }
        Ok(())
    }
}

/// What a line held as `place` is: its puzzle's id and fate, or (free)
/// the key its new puzzle goes under.
fn held(place: Place) -> Result<(i64, Fate), i64> {
    match place {
        Place::Held { id, isomorph } if isomorph => Ok((id, Fate::Isomorph)),
        Place::Held { id, .. } => Ok((id, Fate::Duplicate)),
        Place::Free(key) => Err(key),
    }
}

/// A line number as SQLite's integer.
fn line_number(line: u64) -> Result<i64, ArchiveError> {
    i64::try_from(line).map_err(|e| sql(rusqlite::Error::ToSqlConversionFailure(e.into())))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::archive::schema::migrate;
    use crate::archive::stored::StoredPuzzles;
    use crate::core::puzzle::TypeHint;
    use crate::input::ItemKind;
    use crate::pipeline::Stored;
    use crate::pipeline::process::analyse_token;
    use crate::record::next_key;
    use crate::record::{Settings, key_of};

    /// Twelve real puzzles, analysed once.
    fn pool() -> Vec<Record> {
        let text = include_str!("../../tests/data/classic/magictour_top95.txt");
        let settings = Settings {
            hint: TypeHint::Auto,
            canonical: true,
        };
        text.lines()
            .filter(|l| l.len() >= 81)
            .take(12)
            .map(|l| match analyse_token(&l[..81], settings) {
                Outcome::Accepted(r) => *r,
                o => panic!("{o:?}"),
            })
            .collect()
    }

    /// Hashes close together, and across the wrap from the largest key to
    /// the least, so that puzzles share them and step past each other.
    const HASHES: [i64; 5] = [i64::MAX - 1, i64::MAX, i64::MIN, 0, 1];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Puzzles whose hashes collide, in lines split over chunks: each
        /// is stored once, under the first key from its hash up that was
        /// free, every later line is its duplicate, and the workers'
        /// lookups find each one.
        #[test]
        fn colliding_hashes_step_to_free_keys_and_are_found_again(
            hash_of in prop::collection::vec(0..HASHES.len(), 12),
            lines in prop::collection::vec(0usize..12, 1..120),
            chunk_lines in 1usize..70,
            isomorphs in any::<bool>(),
        ) {
            let pool: Vec<Record> = pool()
                .into_iter()
                .zip(&hash_of)
                .map(|(mut r, &h)| {
                    r.key = HASHES[h];
                    r
                })
                .collect();
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("a.sqlite");
            let mut conn = Connection::open(&path).unwrap();
            migrate(&mut conn).unwrap();
            conn.execute_batch(
                "INSERT INTO imports (id, arguments) VALUES (1, '[]');
                 INSERT INTO files (id, path) VALUES (1, 'f');",
            )
            .unwrap();
            let dedup = if isomorphs { Dedup::Isomorphs } else { Dedup::Exact };
            let mut counts = Counts::default();
            let mut number = 0;
            for part in lines.chunks(chunk_lines) {
                let mut chunk = Chunk::default();
                let mut outcomes = Vec::new();
                for &p in part {
                    number += 1;
                    chunk.items.push(Item { line: number, raw: 0..0, kind: ItemKind::Line });
                    outcomes.push(Outcome::Accepted(Box::new(pool[p].clone())));
                }
                let tx = conn.transaction().unwrap();
                let mut pending = Pending::new(isomorphs);
                let (c, _) = ChunkLines::new(&tx, &mut pending, &chunk, "f", 1, 1, dedup, counts)
                    .write(&outcomes)
                    .unwrap();
                pending.write(&tx).unwrap();
                tx.commit().unwrap();
                counts = c;
            }
            let mut distinct = lines.clone();
            distinct.sort_unstable();
            distinct.dedup();
            prop_assert_eq!(counts.stored, distinct.len() as u64);
            prop_assert_eq!(counts.duplicates, (lines.len() - distinct.len()) as u64);
            prop_assert_eq!(counts.isomorphs, 0);

            let rows: HashMap<String, (i64, i64)> = conn
                .prepare("SELECT givens, id, key FROM puzzles")
                .unwrap()
                .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            prop_assert_eq!(rows.len(), distinct.len());
            let taken: Vec<i64> = rows.values().map(|&(_, key)| key).collect();
            let stored = StoredPuzzles::new(&path, false, 1024);
            for &p in &distinct {
                let rec = &pool[p];
                let (id, key) = rows[rec.givens()];
                // No free key between a puzzle's hash and its key: the
                // rule lookups rely on.
                let mut k = rec.key;
                while k != key {
                    prop_assert!(taken.contains(&k), "free key {} before {}", k, key);
                    k = next_key(k);
                }
                let found = stored.find(rec.kind, rec.givens(), rec.key).map(|(id, _)| id);
                prop_assert_eq!(found, Some(id));
                // Its real hash is free (the test moved it), so looked up
                // from there it is not found: the lookup stops at a free key.
                prop_assert_eq!(
                    stored.find(rec.kind, rec.givens(), key_of("sudoku", rec.givens())),
                    None
                );
            }
            // Every line's provenance names its own puzzle.
            let sources: Vec<(u64, String)> = conn
                .prepare(
                    "SELECT s.line, p.givens FROM sources AS s
                     JOIN puzzles AS p ON p.id = s.puzzle_id ORDER BY s.line",
                )
                .unwrap()
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let expected: Vec<(u64, String)> = lines
                .iter()
                .enumerate()
                .map(|(i, &p)| (i as u64 + 1, pool[p].givens().to_string()))
                .collect();
            prop_assert_eq!(sources, expected);
        }
    }
}
