//! Taking rows out of the archive inside the open transaction: the
//! provenance and rejects of lines that no longer hold what they held (a
//! file read again: [`Reason::Changed`]), everything a failed read wrote
//! ([`Reason::Failed`]), and then ([`Removal::settle`], before the commit)
//! the puzzles no line holds any more, with their lookup entries, and a
//! tally per file in `removals` (migration 0013). `forget` takes an import
//! back the same way ([`Reason::Forgotten`], [`super::forget`]).
//!
//! The lookup tables stay as an import of what is left would have made
//! them: a key freed in `puzzles_by_key` is filled again by the next puzzle
//! whose walk from its hash passed over it (deletion from an open-addressed
//! table by shifting back), so no free key lies between a puzzle's hash
//! and its key, the rule every lookup relies on.
//!
//! It decides nothing about which rows go: the writer ([`super::lines`],
//! [`super::writer`]) says which; this only takes them out and counts.

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, params};

use super::lookup::BY_KEY;
use crate::record::{key_of, next_key};

/// Why rows were taken out, as `removals.reason` records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The line holds something else now, or is past the file's end.
    Changed,
    /// The read that wrote them failed.
    Failed,
    /// `forget` took back the import that wrote them.
    Forgotten,
}

impl Reason {
    fn as_str(self) -> &'static str {
        match self {
            Reason::Changed => "changed",
            Reason::Failed => "failed",
            Reason::Forgotten => "forgotten",
        }
    }
}

/// Rows taken out of one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Taken {
    pub sources: u64,
    pub rejects: u64,
    pub puzzles: u64,
}

/// What the open transaction took out, until [`Removal::settle`].
#[derive(Debug, Default)]
pub struct Removal {
    /// Puzzles that lost a provenance row, with the file and reason of
    /// the first row they lost.
    unheld: HashMap<i64, (i64, Reason)>,
    /// Counts by file and reason, not yet in `removals`.
    taken: HashMap<(i64, Reason), Taken>,
    /// Every puzzle the run removed, over all its transactions: a lookup
    /// made before may still name one.
    pub removed: HashSet<i64>,
}

impl Removal {
    fn tally(&mut self, file_id: i64, reason: Reason) -> &mut Taken {
        self.taken.entry((file_id, reason)).or_default()
    }

    fn unhold(&mut self, puzzle_id: i64, file_id: i64, reason: Reason) {
        self.unheld.entry(puzzle_id).or_insert((file_id, reason));
    }

    /// Takes out the provenance row of `line` naming `puzzle_id`.
    pub fn source(
        &mut self,
        tx: &Connection,
        file_id: i64,
        line: i64,
        puzzle_id: i64,
        reason: Reason,
    ) -> rusqlite::Result<()> {
        let n = tx
            .prepare_cached(
                "DELETE FROM sources WHERE file_id = ?1 AND line = ?2 AND puzzle_id = ?3",
            )?
            .execute(params![file_id, line, puzzle_id])?;
        if n > 0 {
            self.tally(file_id, reason).sources += n as u64;
            self.unhold(puzzle_id, file_id, reason);
        }
        Ok(())
    }

    /// Takes out the reject row `id`.
    pub fn reject(
        &mut self,
        tx: &Connection,
        file_id: i64,
        id: i64,
        reason: Reason,
    ) -> rusqlite::Result<()> {
        let n = tx
            .prepare_cached("DELETE FROM rejects WHERE id = ?1")?
            .execute([id])?;
        self.tally(file_id, reason).rejects += n as u64;
        Ok(())
    }

    /// Takes out the rows of the file's lines past `last_line` (a file
    /// read again to its end that is shorter now).
    pub fn past_end(
        &mut self,
        tx: &Connection,
        file_id: i64,
        last_line: i64,
    ) -> rusqlite::Result<()> {
        self.rows_where(
            tx,
            file_id,
            "line > ?2",
            params![file_id, last_line],
            Reason::Changed,
        )
    }

    /// Takes out every row import `import_id` wrote of the file, its read
    /// included: what a failed read leaves must not stay.
    pub fn read_of(
        &mut self,
        tx: &Connection,
        file_id: i64,
        import_id: i64,
    ) -> rusqlite::Result<()> {
        self.rows_of(tx, file_id, import_id, Reason::Failed)?;
        // Recorded even if it took nothing out: the file's earlier reads
        // no longer say what the archive holds of it once this one began.
        self.tally(file_id, Reason::Failed);
        Ok(())
    }

    /// Takes out every row import `import_id` wrote of the file, its read
    /// included, for `forget`. Recorded only if it took rows out: the
    /// earlier reads of the file still say what the archive holds of it
    /// (`forget` refuses an import that took their rows out).
    pub fn forgotten_read(
        &mut self,
        tx: &Connection,
        file_id: i64,
        import_id: i64,
    ) -> rusqlite::Result<()> {
        self.rows_of(tx, file_id, import_id, Reason::Forgotten)
    }

    /// The rows and the read of the file that `import_id` wrote.
    fn rows_of(
        &mut self,
        tx: &Connection,
        file_id: i64,
        import_id: i64,
        reason: Reason,
    ) -> rusqlite::Result<()> {
        self.rows_where(
            tx,
            file_id,
            "import_id = ?2",
            params![file_id, import_id],
            reason,
        )?;
        tx.execute(
            "DELETE FROM file_reads WHERE file_id = ?1 AND import_id = ?2",
            params![file_id, import_id],
        )?;
        Ok(())
    }

    /// Takes out the file's provenance and rejects that match `filter`
    /// (over `?1` the file and `?2`).
    fn rows_where(
        &mut self,
        tx: &Connection,
        file_id: i64,
        filter: &str,
        args: impl rusqlite::Params + Clone,
        reason: Reason,
    ) -> rusqlite::Result<()> {
        let puzzles: Vec<i64> = tx
            .prepare(&format!(
                "SELECT DISTINCT puzzle_id FROM sources WHERE file_id = ?1 AND {filter}"
            ))?
            .query_map(args.clone(), |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let sources = tx.execute(
            &format!("DELETE FROM sources WHERE file_id = ?1 AND {filter}"),
            args.clone(),
        )?;
        let rejects = tx.execute(
            &format!("DELETE FROM rejects WHERE file_id = ?1 AND {filter}"),
            args,
        )?;
        if sources + rejects > 0 || reason != Reason::Forgotten {
            let t = self.tally(file_id, reason);
            t.sources += sources as u64;
            t.rejects += rejects as u64;
        }
        for p in puzzles {
            self.unhold(p, file_id, reason);
        }
        Ok(())
    }

    /// Whether anything was taken out since the last [`Removal::settle`].
    pub fn is_empty(&self) -> bool {
        self.taken.is_empty() && self.unheld.is_empty()
    }

    /// Before the commit: removes each puzzle that lost a row and that no
    /// line holds now, and adds the counts to `removals` under `import_id`.
    pub fn settle(&mut self, tx: &Connection, import_id: i64) -> rusqlite::Result<()> {
        if self.is_empty() {
            return Ok(());
        }
        let mut unheld: Vec<(i64, (i64, Reason))> = self.unheld.drain().collect();
        unheld.sort_unstable_by_key(|&(id, _)| id);
        for (id, (file_id, reason)) in unheld {
            let held: bool = tx
                .prepare_cached("SELECT EXISTS (SELECT 1 FROM sources WHERE puzzle_id = ?1)")?
                .query_row([id], |r| r.get(0))?;
            if !held && remove_puzzle(tx, id)? {
                self.tally(file_id, reason).puzzles += 1;
                self.removed.insert(id);
            }
        }
        let mut record = tx.prepare_cached(
            "INSERT INTO removals (import_id, file_id, reason, sources, rejects, puzzles)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (import_id, file_id, reason) DO UPDATE SET
                 sources = sources + excluded.sources, rejects = rejects + excluded.rejects,
                 puzzles = puzzles + excluded.puzzles",
        )?;
        for ((file_id, reason), t) in self.taken.drain() {
            record.execute(params![
                import_id,
                file_id,
                reason.as_str(),
                t.sources,
                t.rejects,
                t.puzzles
            ])?;
        }
        Ok(())
    }

    /// Forgets what the rolled-back transaction took out.
    pub fn rolled_back(&mut self) {
        self.unheld.clear();
        self.taken.clear();
    }
}

/// Puzzles removed from the archive so far, by every run: a run that sees
/// this grow while it runs knows that lookups made before may name a
/// puzzle that is gone.
pub fn puzzles_removed(conn: &Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached("SELECT ifnull(sum(puzzles), 0) FROM removals")?
        .query_row([], |r| r.get(0))
}

/// Removes puzzle `id` and its lookup entries; false if there is none.
fn remove_puzzle(tx: &Connection, id: i64) -> rusqlite::Result<bool> {
    remove_puzzle_with(tx, id, key_of)
}

/// [`remove_puzzle`], with `home` the hash each puzzle's key walk starts
/// from (the tests' own, to make puzzles collide).
fn remove_puzzle_with(
    tx: &Connection,
    id: i64,
    home: impl Fn(&str, &str) -> i64,
) -> rusqlite::Result<bool> {
    let Some((key, hash)) = tx
        .prepare_cached("SELECT key, canonical_hash FROM puzzles WHERE id = ?1")?
        .query_row([id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?))
        })
        .optional()?
    else {
        return Ok(false);
    };
    if let Some(hash) = hash {
        tx.prepare_cached(
            "DELETE FROM puzzles_by_form WHERE canonical_hash = ?1 AND puzzle_id = ?2",
        )?
        .execute(params![hash, id])?;
    }
    tx.prepare_cached("DELETE FROM puzzles_by_key WHERE key = ?1 AND puzzle_id = ?2")?
        .execute(params![key, id])?;
    tx.prepare_cached("DELETE FROM puzzles WHERE id = ?1")?
        .execute([id])?;
    close_gap(tx, key, home)?;
    Ok(true)
}

/// Fills the free key `hole` again: each puzzle after it (up to the next
/// free key) whose walk from its hash passed over the hole moves into it,
/// and the key it leaves is the next hole.
fn close_gap(
    tx: &Connection,
    mut hole: i64,
    home: impl Fn(&str, &str) -> i64,
) -> rusqlite::Result<()> {
    let mut at = next_key(hole);
    loop {
        let held = tx
            .prepare_cached(BY_KEY)?
            .query_row([at], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .optional()?;
        let Some((id, kind, givens)) = held else {
            return Ok(());
        };
        // Distances along the walk, wrapping: the hole lies on the way
        // from its hash to where it is.
        if at.wrapping_sub(home(&kind, &givens)) as u64 >= at.wrapping_sub(hole) as u64 {
            tx.prepare_cached("UPDATE puzzles_by_key SET key = ?1 WHERE key = ?2")?
                .execute(params![hole, at])?;
            tx.prepare_cached("UPDATE puzzles SET key = ?1 WHERE id = ?2")?
                .execute(params![hole, id])?;
            hole = at;
        }
        at = next_key(at);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::archive::lookup::invariant_breaks;
    use crate::archive::schema::migrate;

    /// Hashes close together and across the wrap, as in `lines`' test.
    const HASHES: [i64; 5] = [i64::MAX - 1, i64::MAX, i64::MIN, 0, 1];

    /// Stores puzzle `g{i}` for each `i` of `ids`, in that order, under the
    /// first key from its hash up that is free (as the importer does).
    fn store(c: &Connection, ids: &[usize], hash_of: &[usize]) {
        c.execute_batch("DELETE FROM puzzles_by_key; DELETE FROM puzzles;")
            .unwrap();
        let mut taken = HashSet::new();
        for &i in ids {
            let mut key = HASHES[hash_of[i]];
            while !taken.insert(key) {
                key = next_key(key);
            }
            c.execute(
                "INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key)
                 VALUES (?1, 'sudoku', 0, ?2, '', 0, 1, ?3)",
                params![i as i64 + 1, format!("g{i}"), key],
            )
            .unwrap();
            c.execute(
                "INSERT INTO puzzles_by_key (key, puzzle_id) VALUES (?1, ?2)",
                params![key, i as i64 + 1],
            )
            .unwrap();
        }
    }

    fn keys(c: &Connection) -> Vec<(i64, i64)> {
        c.prepare("SELECT id, key FROM puzzles ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Puzzles whose hashes collide, some removed: the rest keep the
        /// lookup invariant, and hold the keys an import of only them, in
        /// id order, would have given them.
        #[test]
        fn removing_puzzles_leaves_the_keys_an_import_of_the_rest_gives(
            hash_of in prop::collection::vec(0..HASHES.len(), 1..10),
            gone in prop::collection::vec(any::<bool>(), 10),
        ) {
            let mut c = Connection::open_in_memory().unwrap();
            migrate(&mut c).unwrap();
            c.execute_batch("INSERT INTO imports (id, arguments) VALUES (1, '[]');").unwrap();
            let all: Vec<usize> = (0..hash_of.len()).collect();
            store(&c, &all, &hash_of);
            let home = |_: &str, givens: &str| {
                let i: usize = givens[1..].parse().unwrap();
                HASHES[hash_of[i]]
            };
            for &i in all.iter().filter(|&&i| gone[i]) {
                prop_assert!(remove_puzzle_with(&c, i as i64 + 1, home).unwrap());
            }
            prop_assert!(invariant_breaks(&c).unwrap().is_empty());
            let after = keys(&c);
            let kept: Vec<usize> = all.iter().copied().filter(|&i| !gone[i]).collect();
            store(&c, &kept, &hash_of);
            prop_assert_eq!(after, keys(&c));
        }
    }
}
