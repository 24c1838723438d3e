//! Looking up stored puzzles from the pipeline's workers, so that a re-run
//! recognises the lines the archive already holds instead of solving them
//! again: a small pool of read-only connections, one taken per lookup,
//! each holding its read snapshot for its one query only.
//!
//! A lookup never fails the import: any error means "not found", and the
//! writer deduplicates the line as before. It writes nothing. In full:
//! docs/architecture.md "Module notes".

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags};

use super::BUSY_TIMEOUT;
use super::lookup::{BY_KEY, probe};
use crate::core::puzzle::PuzzleType;
use crate::pipeline::Stored;
use crate::record::Canonical;

/// [`BY_KEY`] with the canonical form and its hash (columns 3 and 4).
const BY_KEY_WITH_FORM: &str = "SELECT p.id, p.type, p.givens, p.canonical, p.canonical_hash
    FROM puzzles_by_key AS k JOIN puzzles AS p ON p.id = k.puzzle_id
    WHERE k.key = ?1";

/// The archive's puzzles, by key.
pub struct StoredPuzzles {
    path: PathBuf,
    /// Whether lookups return canonical forms (`--dedup isomorphs` needs them).
    canonical: bool,
    /// Page cache of each connection, in KiB. Lookups are random over
    /// `puzzles_by_key`: what misses the cache costs a read of a whole page.
    cache_kib: u64,
    idle: Mutex<Vec<Connection>>,
}

impl StoredPuzzles {
    pub fn new(path: &Path, canonical: bool, cache_kib: u64) -> StoredPuzzles {
        StoredPuzzles {
            path: path.to_path_buf(),
            canonical,
            cache_kib,
            idle: Mutex::new(Vec::new()),
        }
    }

    fn open(&self) -> rusqlite::Result<Connection> {
        let c = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        c.busy_timeout(BUSY_TIMEOUT)?;
        c.pragma_update(None, "cache_size", -(self.cache_kib as i64))?;

        Ok(c)
    }

    /// The id and canonical form (when asked for) of the stored puzzle of
    /// this type and givens, looked for from `key` up: a key held by
    /// another puzzle means "step on", a free key "not stored".
    fn lookup(
        &self,
        c: &Connection,
        kind: PuzzleType,
        givens: &str,
        key: i64,
    ) -> rusqlite::Result<Option<(i64, Option<Canonical>)>> {
        let sql = if self.canonical {
            BY_KEY_WITH_FORM
        } else {
            BY_KEY
        };
        probe(c, sql, kind.as_str(), givens, key, |r| {
            let canonical = if self.canonical {
                let form: Option<String> = r.get(3)?;
                let hash: Option<i64> = r.get(4)?;
                form.zip(hash).map(|(form, hash)| Canonical { form, hash })
            } else {
                None
            };
            Ok((r.get(0)?, canonical))
        })
    }
}

impl Stored for StoredPuzzles {
    fn find(&self, kind: PuzzleType, givens: &str, key: i64) -> Option<(i64, Option<Canonical>)> {
        // A poisoned pool only means another worker panicked mid-lookup;
        // the connections in it are still good.
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match idle {
            Some(c) => c,
            None => self.open().ok()?,
        };
        let found = self.lookup(&conn, kind, givens, key);
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(conn);
        found.ok().flatten()
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    /// A puzzle whose hash another puzzle holds is stored under the next
    /// free key; the lookup steps there, and stops at a free key.
    #[test]
    fn lookups_step_past_other_puzzles_with_the_same_hash() {
        use super::*;
        use crate::record::key_of;

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.sqlite");
        let mut c = Connection::open(&path).unwrap();
        crate::archive::schema::migrate(&mut c).unwrap();
        let key = key_of("sudoku", "mine");
        c.execute_batch(&format!(
            "INSERT INTO imports (id, arguments) VALUES (1, '[]');
             INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key)
                 VALUES (1, 'sudoku', 1, 'other', 'e', 2, 1, {key}),
                        (2, 'killer', 1, 'mine', 'e', 2, 1, {}),
                        (3, 'sudoku', 1, 'mine', 'e', 2, 1, {});
             INSERT INTO puzzles_by_key (key, puzzle_id) SELECT key, id FROM puzzles;",
            key.wrapping_add(1),
            key.wrapping_add(2)
        ))
        .unwrap();
        let stored = StoredPuzzles::new(&path, false, 1024);
        let find = |kind, givens: &str| stored.find(kind, givens, key).map(|(id, _)| id);
        assert_eq!(find(PuzzleType::Sudoku, "mine"), Some(3));
        assert_eq!(find(PuzzleType::Sudoku, "other"), Some(1));
        assert_eq!(find(PuzzleType::Killer, "mine"), Some(2));
        assert_eq!(find(PuzzleType::Sudoku, "none"), None);
        // With the canonical form: read from the same row.
        c.execute_batch("UPDATE puzzles SET canonical = 'f', canonical_hash = 5 WHERE id = 3")
            .unwrap();
        let stored = StoredPuzzles::new(&path, true, 1024);
        let found = stored.find(PuzzleType::Sudoku, "mine", key).unwrap();
        assert_eq!(found.0, 3);
        let form = found.1.unwrap();
        assert_eq!((form.form.as_str(), form.hash), ("f", 5));
    }

    /// Each lookup reads `puzzles_by_key`, then the row, by primary keys.
    #[test]
    fn the_lookups_read_the_key_table_then_the_row() {
        use super::*;

        let mut c = Connection::open_in_memory().unwrap();
        crate::archive::schema::migrate(&mut c).unwrap();
        for sql in [BY_KEY, BY_KEY_WITH_FORM] {
            let plan = crate::archive::lookup::plan::of(&c, sql, [1]);
            assert_eq!(
                plan,
                [
                    "SEARCH k USING INTEGER PRIMARY KEY (rowid=?)",
                    "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"
                ],
                "{sql}"
            );
        }
    }

    /// An idle lookup connection holds no snapshot: a checkpoint that must
    /// wait for every reader (TRUNCATE) finishes at once after lookups.
    #[test]
    fn lookups_hold_no_snapshot_between_them() {
        use super::*;

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.sqlite");
        let mut c = Connection::open(&path).unwrap();
        let _: String = c
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .unwrap();
        crate::archive::schema::migrate(&mut c).unwrap();
        c.execute_batch("INSERT INTO imports (id, arguments) VALUES (1, '[]')")
            .unwrap();
        let stored = StoredPuzzles::new(&path, true, 1024);
        for key in 0..20 {
            assert_eq!(stored.find(PuzzleType::Sudoku, "none", key), None);
        }
        assert!(!stored.idle.lock().unwrap().is_empty());
        c.execute_batch("INSERT INTO imports (id, arguments) VALUES (2, '[]')")
            .unwrap();
        c.busy_timeout(std::time::Duration::ZERO).unwrap();
        let busy: i64 = c
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))
            .unwrap();
        assert_eq!(busy, 0);
        assert_eq!(
            std::fs::metadata(dir.path().join("a.sqlite-wal"))
                .unwrap()
                .len(),
            0
        );
    }

    /// `.cargo/config.toml` builds SQLite without the global mutexes the
    /// lookup connections would contend for; this fails if it stops doing so.
    #[test]
    fn sqlite_is_built_without_global_page_cache_and_statistics_mutexes() {
        let c = Connection::open_in_memory().unwrap();
        let options: Vec<String> = c
            .prepare("PRAGMA compile_options")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(options.iter().any(|o| o == "THREADSAFE=1"), "{options:?}");
        assert!(
            !options.iter().any(|o| o == "ENABLE_MEMORY_MANAGEMENT"),
            "{options:?}"
        );
        assert!(
            options.iter().any(|o| o == "DEFAULT_MEMSTATUS=0"),
            "{options:?}"
        );
    }
}
