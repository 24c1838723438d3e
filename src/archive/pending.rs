//! The lookup entries of the puzzles the open batch has stored, held in
//! memory until its commit and then written to `puzzles_by_key` and
//! `puzzles_by_form` sorted, as one sweep (docs/performance.md, issue 24).
//!
//! A key is either here or in `puzzles_by_key`, never both; everything here
//! belongs to the open transaction ([`Pending::write`] before its commit,
//! [`Pending::clear`] on a rollback); ids are given in order from the
//! largest stored one ([`Pending::next_id`]). Its memory is bounded by the
//! batch (about 45 bytes a new puzzle). It decides no deduplication. In
//! full: docs/architecture.md "Module notes".

use std::collections::HashMap;

use rusqlite::{Connection, Statement};

use super::lookup::{Holder, held_at, walk};

/// What the open batch has stored, by key and by canonical hash.
#[derive(Debug, Default)]
pub struct Pending {
    /// Each key this batch took, with its puzzle.
    by_key: HashMap<i64, i64>,
    /// (canonical hash, puzzle) of each puzzle of this batch with a form,
    /// in the order they were stored.
    forms: Vec<(i64, i64)>,
    /// For isomorph lookups: the index in `forms` of the first puzzle of
    /// this batch with each hash (kept only when asked for).
    first_form: Option<HashMap<i64, usize>>,
    /// The largest puzzle id, once read in this batch.
    last_id: Option<i64>,
}

impl Pending {
    /// An empty batch; `isomorphs` keeps what [`Pending::with_hash`] needs.
    pub fn new(isomorphs: bool) -> Pending {
        Pending {
            first_form: isomorphs.then(HashMap::new),
            ..Pending::default()
        }
    }

    /// The puzzle this batch stored under `key`, if any.
    pub fn key(&self, key: i64) -> Option<i64> {
        self.by_key.get(&key).copied()
    }

    /// Where the puzzle of `kind` and `givens` is held, of this batch or an
    /// earlier one, or the key it goes under: the key walk from `hash`
    /// ([`walk`]) over this batch's keys, then the archive's (`by_key`, a
    /// prepared [`super::lookup::BY_KEY`]). `Ok` with the puzzle held,
    /// `Err` with the first key free in both. `is_it(id)` says whether this
    /// batch's puzzle `id` has that type and those givens (the caller
    /// knows where its rows are).
    pub fn walk(
        &self,
        hash: i64,
        by_key: &mut Statement<'_>,
        kind: &str,
        givens: &str,
        mut is_it: impl FnMut(i64) -> rusqlite::Result<bool>,
    ) -> rusqlite::Result<Result<i64, i64>> {
        walk(hash, |key| match self.key(key) {
            Some(id) => Ok(if is_it(id)? {
                Holder::Sought(id)
            } else {
                Holder::Other
            }),
            None => held_at(by_key, kind, givens, key, |r| r.get(0)),
        })
    }

    /// The id the next stored puzzle takes: one past the largest stored.
    pub fn next_id(&mut self, conn: &Connection) -> rusqlite::Result<i64> {
        let last = match self.last_id {
            Some(id) => id,
            None => conn.query_row("SELECT ifnull(max(id), 0) FROM puzzles", [], |r| r.get(0))?,
        };
        self.last_id = Some(last + 1);
        Ok(last + 1)
    }

    /// Records a puzzle this batch stored, under `key`, with its canonical
    /// hash if it has a form.
    pub fn add(&mut self, key: i64, id: i64, hash: Option<i64>) {
        self.by_key.insert(key, id);
        if let Some(hash) = hash {
            if let Some(first) = &mut self.first_form {
                first.entry(hash).or_insert(self.forms.len());
            }
            self.forms.push((hash, id));
        }
    }

    /// The puzzles this batch stored with this canonical hash, first
    /// stored first (only when made for isomorphs; else none).
    pub fn with_hash(&self, hash: i64) -> impl Iterator<Item = i64> + '_ {
        let from = self
            .first_form
            .as_ref()
            .and_then(|first| first.get(&hash).copied())
            .unwrap_or(self.forms.len());
        self.forms[from..]
            .iter()
            .filter(move |&&(h, _)| h == hash)
            .map(|&(_, id)| id)
    }

    /// Writes the batch's entries, each table's in its own order, inside
    /// the open transaction, and empties this for the next batch.
    pub fn write(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let mut keys: Vec<(i64, i64)> = self.by_key.drain().collect();
        keys.sort_unstable();
        insert_pairs(conn, "puzzles_by_key (key, puzzle_id)", &keys)?;
        write_forms(conn, &mut self.forms)?;
        self.clear();
        Ok(())
    }

    /// Forgets the batch (rolled back, or written).
    pub fn clear(&mut self) {
        self.by_key.clear();
        self.forms.clear();
        if let Some(first) = &mut self.first_form {
            first.clear();
        }
        self.last_id = None;
    }
}

/// Adds `(canonical hash, puzzle)` entries to `puzzles_by_form`, sorted
/// first: the batch's here, and those of [`super::canonical`]'s fills.
pub(super) fn write_forms(conn: &Connection, forms: &mut [(i64, i64)]) -> rusqlite::Result<()> {
    forms.sort_unstable();
    insert_pairs(conn, "puzzles_by_form (canonical_hash, puzzle_id)", forms)
}

/// Pairs written by one statement: a statement execution costs about as
/// much as the rows it writes when they are this small.
const PAIRS_PER_INSERT: usize = 128;

/// Inserts `pairs` into `table (a, b)`, [`PAIRS_PER_INSERT`] at a time.
/// OR IGNORE, as the puzzles' rows: a statement that may abort half way
/// journals every page it touches first. A pair it ignored (its key
/// already there: a broken invariant) fails the batch instead.
fn insert_pairs(conn: &Connection, table: &str, pairs: &[(i64, i64)]) -> rusqlite::Result<()> {
    let sql = |n: usize| {
        let rows = vec!["(?, ?)"; n].join(", ");
        format!("INSERT OR IGNORE INTO {table} VALUES {rows}")
    };
    let mut added = 0;
    let mut groups = pairs.chunks_exact(PAIRS_PER_INSERT);
    if groups.len() > 0 {
        let mut many = conn.prepare(&sql(PAIRS_PER_INSERT))?;
        for group in &mut groups {
            added += many.execute(rusqlite::params_from_iter(
                group.iter().flat_map(|&(a, b)| [a, b]),
            ))?;
        }
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        added += conn.execute(
            &sql(rest.len()),
            rusqlite::params_from_iter(rest.iter().flat_map(|&(a, b)| [a, b])),
        )?;
    }
    if added != pairs.len() {
        return Err(rusqlite::Error::StatementChangedRows(added));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive() -> (tempfile::TempDir, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let mut c = Connection::open(dir.path().join("a.sqlite")).unwrap();
        crate::archive::schema::migrate(&mut c).unwrap();
        // No puzzle rows here: the entries alone are what is tested.
        c.pragma_update(None, "foreign_keys", false).unwrap();
        (dir, c)
    }

    /// The entries of a batch go to both tables, whatever order they came
    /// in and however many statements they take, and then nothing is left.
    #[test]
    fn a_batch_is_written_whole_and_then_forgotten() {
        let (_dir, c) = archive();
        let mut p = Pending::new(true);
        let n = 3 * PAIRS_PER_INSERT as i64 + 5;
        for id in 1..=n {
            // Keys and hashes out of order; every third puzzle without a form.
            let key = (id * 7919) % 1009 - 500;
            let hash = (id % 3 != 0).then_some(-id * 31 % 97);
            p.add(key, id, hash);
        }
        p.write(&c).unwrap();
        let count = |sql: &str| -> i64 { c.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(count("SELECT count(*) FROM puzzles_by_key"), n);
        assert_eq!(
            count("SELECT count(*) FROM puzzles_by_form"),
            (1..=n).filter(|id| id % 3 != 0).count() as i64
        );
        assert_eq!(p.key((7919 % 1009) - 500), None);
        assert_eq!(p.with_hash(-31).count(), 0);
        // Written again, the same keys would be taken twice: refused.
        p.add((7919 % 1009) - 500, n + 1, None);
        assert!(p.write(&c).is_err());
    }

    /// Isomorph lookups see a batch's puzzles of a hash first stored first.
    #[test]
    fn puzzles_of_a_hash_come_in_the_order_stored() {
        let mut p = Pending::new(true);
        p.add(10, 1, Some(5));
        p.add(11, 2, Some(6));
        p.add(12, 3, Some(5));
        p.add(13, 4, None);
        assert_eq!(p.with_hash(5).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(p.with_hash(6).collect::<Vec<_>>(), [2]);
        assert_eq!(p.with_hash(7).count(), 0);
        assert_eq!(p.key(13), Some(4));
        // Without isomorph lookups nothing is kept for them.
        let mut q = Pending::new(false);
        q.add(10, 1, Some(5));
        assert_eq!(q.with_hash(5).count(), 0);
    }
}
