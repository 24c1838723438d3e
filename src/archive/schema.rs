//! The archive's schema, as numbered SQL files under `migrations/`, applied
//! in order in one transaction and tracked by `PRAGMA user_version`.
//! An archive written by a newer version is refused, never touched. An
//! archive that is up to date is only read: the write lock is taken only
//! for an actual upgrade, so opening never waits for a running import.

use std::path::PathBuf;

use rusqlite::functions::FunctionFlags;
use rusqlite::{Connection, TransactionBehavior};

use super::{ArchiveError, set_foreign_keys};
use crate::record::{key_of, next_key};

/// Rust code run after a migration's SQL, inside the one transaction of
/// the whole upgrade (see [`migrate`]).
pub type Fill = fn(&Connection) -> Result<(), ArchiveError>;

/// One schema step: a SQL file, and optionally Rust code that fills what
/// SQL alone cannot compute (run in the same transaction).
pub struct Migration {
    pub name: &'static str,
    pub sql: &'static str,
    pub fill: Option<Fill>,
}

/// The migrations, in order: migration `i` takes `user_version` from `i` to `i + 1`.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        name: "0001_initial.sql",
        sql: include_str!("../../migrations/0001_initial.sql"),
        fill: None,
    },
    Migration {
        name: "0002_canonical.sql",
        sql: include_str!("../../migrations/0002_canonical.sql"),
        // The forms are computed after 0003, which adds the column of their
        // hashes; all steps commit together, so the result is the same.
        fill: None,
    },
    Migration {
        name: "0003_faster_writes.sql",
        sql: include_str!("../../migrations/0003_faster_writes.sql"),
        fill: Some(|c| {
            super::canonical::fill_hashes(c)?;
            super::canonical::fill_missing(c).map(|_| ())
        }),
    },
    Migration {
        name: "0004_interrupted_imports.sql",
        sql: include_str!("../../migrations/0004_interrupted_imports.sql"),
        fill: None,
    },
    Migration {
        name: "0005_narrower_isomorph_index.sql",
        sql: include_str!("../../migrations/0005_narrower_isomorph_index.sql"),
        fill: None,
    },
    Migration {
        name: "0006_integer_key.sql",
        // Its keys come from `archive_key`, registered for the upgrade.
        sql: include_str!("../../migrations/0006_integer_key.sql"),
        fill: Some(step_past_taken_keys),
    },
    Migration {
        name: "0007_integer_key_in_place.sql",
        sql: include_str!("../../migrations/0007_integer_key_in_place.sql"),
        fill: None,
    },
    Migration {
        name: "0008_file_identity_and_reads.sql",
        sql: include_str!("../../migrations/0008_file_identity_and_reads.sql"),
        fill: None,
    },
    Migration {
        name: "0009_application_id.sql",
        sql: include_str!("../../migrations/0009_application_id.sql"),
        fill: None,
    },
    Migration {
        name: "0010_source_fields.sql",
        sql: include_str!("../../migrations/0010_source_fields.sql"),
        fill: None,
    },
    Migration {
        name: "0011_merges.sql",
        sql: include_str!("../../migrations/0011_merges.sql"),
        fill: None,
    },
    Migration {
        name: "0012_key_and_form_tables.sql",
        sql: include_str!("../../migrations/0012_key_and_form_tables.sql"),
        fill: None,
    },
    Migration {
        name: "0013_removals.sql",
        sql: include_str!("../../migrations/0013_removals.sql"),
        fill: None,
    },
    Migration {
        name: "0014_repeated_digit.sql",
        sql: include_str!("../../migrations/0014_repeated_digit.sql"),
        fill: None,
    },
    Migration {
        name: "0015_forgotten_imports.sql",
        sql: include_str!("../../migrations/0015_forgotten_imports.sql"),
        fill: None,
    },
    Migration {
        name: "0016_minimal.sql",
        sql: include_str!("../../migrations/0016_minimal.sql"),
        fill: None,
    },
    Migration {
        name: "0017_ratings.sql",
        sql: include_str!("../../migrations/0017_ratings.sql"),
        fill: None,
    },
];

/// The schema version this binary writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

pub fn user_version(conn: &Connection) -> Result<i64, ArchiveError> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| ArchiveError::sql("reading the schema version", e))
}

/// Fails unless the archive's version is one this binary can read.
pub fn check_version(conn: &Connection) -> Result<i64, ArchiveError> {
    let found = user_version(conn)?;
    if found > VERSION {
        return Err(ArchiveError::TooNew {
            path: conn.path().map(PathBuf::from).unwrap_or_default(),
            found,
            known: VERSION,
        });
    }
    Ok(found)
}

/// Applies every migration the archive has not had yet, all in one
/// transaction: an upgrade that fails anywhere leaves the archive as it was.
///
/// Foreign keys are off while they run, as SQLite's procedure for
/// rebuilding a table asks (a parent table is dropped and replaced), and
/// `foreign_key_check` must find nothing before the upgrade commits.
/// The index of provenance rows by file and line (migration 0013), which
/// only makes reads faster: a merge into an archive with no provenance yet
/// builds it once at its end instead of row by row, and every opening for
/// writing puts it back should such a merge have been killed before.
pub const SOURCES_BY_LINE: &str =
    "CREATE INDEX IF NOT EXISTS sources_file_line ON sources (file_id, line)";

/// Drops [`SOURCES_BY_LINE`]'s index when `sources` is empty (then
/// rebuilding it costs only the rows written since); says whether it did.
pub fn drop_sources_by_line_if_empty(conn: &Connection) -> Result<bool, ArchiveError> {
    let empty: bool = conn
        .query_row("SELECT NOT EXISTS (SELECT 1 FROM sources)", [], |r| {
            r.get(0)
        })
        .map_err(|e| ArchiveError::sql("looking for provenance rows", e))?;
    if empty {
        conn.execute_batch("DROP INDEX IF EXISTS sources_file_line")
            .map_err(|e| ArchiveError::sql("dropping the sources_file_line index", e))?;
    }
    Ok(empty)
}

pub fn migrate(conn: &mut Connection) -> Result<(), ArchiveError> {
    // Read without a lock first: only an upgrade needs the write lock.
    if check_version(conn)? == VERSION {
        return Ok(());
    }
    let enforced: bool = conn
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .map_err(|e| ArchiveError::sql("reading the foreign key setting", e))?;
    set_foreign_keys(conn, false)?;
    let applied = apply(conn);
    set_foreign_keys(conn, enforced)?;
    applied
}

fn apply(conn: &mut Connection) -> Result<(), ArchiveError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| ArchiveError::sql("starting the schema upgrade", e))?;
    // Read again inside the write lock: another process may have migrated first.
    let found = check_version(&tx)?;
    if found == VERSION {
        return Ok(());
    }
    register_archive_key(&tx).map_err(|e| ArchiveError::sql("preparing the schema upgrade", e))?;
    for (i, m) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let name = m.name;
        tx.execute_batch(m.sql)
            .map_err(|e| ArchiveError::sql(&format!("applying migration {name}"), e))?;
        if let Some(fill) = m.fill {
            fill(&tx)?;
        }
        tx.pragma_update(None, "user_version", i as i64 + 1)
            .map_err(|e| ArchiveError::sql("recording the schema version", e))?;
    }
    let dangling: i64 = tx
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .map_err(|e| ArchiveError::sql("checking foreign keys after the upgrade", e))?;
    if dangling > 0 {
        return Err(ArchiveError::Sql {
            context: format!("upgrading the schema: {dangling} rows would lose their parent row"),
            cause: rusqlite::Error::InvalidQuery,
        });
    }
    tx.commit()
        .map_err(|e| ArchiveError::sql("committing the schema upgrade", e))?;
    conn.remove_function("archive_key", 2)
        .map_err(|e| ArchiveError::sql("finishing the schema upgrade", e))
}

/// `archive_key(type, givens)`: the hash a puzzle's key starts from
/// ([`key_of`]), for migration 0006.
fn register_archive_key(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function("archive_key", 2, flags, |ctx| {
        let text = |i| -> rusqlite::Result<&str> {
            ctx.get_raw(i)
                .as_str()
                .map_err(|e| rusqlite::Error::UserFunctionError(e.into()))
        };
        Ok(key_of(text(0)?, text(1)?))
    })
}

/// The rows migration 0006 left out, because an earlier row took their
/// hash, go in under the first free key after it, in id order: as the
/// importer would have stored them. (Two puzzles of 64-bit hashes alike:
/// almost never any.)
fn step_past_taken_keys(conn: &Connection) -> Result<(), ArchiveError> {
    let e = |e| ArchiveError::sql("giving puzzles their keys", e);
    let left_out: Vec<(i64, i64)> = conn
        .prepare(
            "SELECT id, archive_key(type, givens) FROM puzzles
             WHERE id NOT IN (SELECT id FROM puzzles_rebuilt) ORDER BY id",
        )
        .map_err(e)?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(e)?
        .collect::<Result<_, _>>()
        .map_err(e)?;
    let mut taken = conn
        .prepare("SELECT count(*) FROM puzzles_rebuilt WHERE key = ?1")
        .map_err(e)?;
    let mut copy = conn
        .prepare(
            "INSERT INTO puzzles_rebuilt
                 (id, type, clues, givens, encoding, solutions, solution, import_id, key,
                  canonical, canonical_hash)
             SELECT id, type, clues, givens, encoding, solutions, solution, import_id, ?2,
                  canonical, canonical_hash
             FROM puzzles WHERE id = ?1",
        )
        .map_err(e)?;
    for (id, hash) in left_out {
        let mut key = hash;
        while taken.query_row([key], |r| r.get::<_, i64>(0)).map_err(e)? > 0 {
            key = next_key(key);
        }
        copy.execute([id, key]).map_err(e)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_to_an_empty_database_and_set_the_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        assert_eq!(user_version(&conn).unwrap(), VERSION);
        // Applying again is a no-op.
        migrate(&mut conn).unwrap();
        assert_eq!(user_version(&conn).unwrap(), VERSION);
        let n: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master WHERE name IN ('puzzles','imports','rejects','sources','files')", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 5);
    }

    #[test]
    fn migration_files_are_numbered_in_order() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert!(m.name.starts_with(&format!("{:04}_", i + 1)), "{}", m.name);
        }
    }

    /// Applies the first `n` migrations only, as an older binary did.
    fn at_version(n: usize) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        // 0006 calls it (with no rows to call it on here); migrate
        // registers it again.
        register_archive_key(&conn).unwrap();
        for (i, m) in MIGRATIONS.iter().take(n).enumerate() {
            conn.execute_batch(m.sql).unwrap();
            conn.pragma_update(None, "user_version", i as i64 + 1)
                .unwrap();
        }
        conn
    }

    #[test]
    fn a_version_2_archive_keeps_its_rows_indexes_and_links_through_the_rebuild() {
        let mut conn = at_version(2);
        conn.execute_batch(
            "INSERT INTO imports (id, arguments) VALUES (1, '[]');
             INSERT INTO files (id, path) VALUES (1, 'a.txt');
             INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key, canonical)
                 VALUES (7, 'sudoku', 17, 'g', 'e', 2, 1, x'01', 'c');
             INSERT INTO sources (file_id, line, puzzle_id, import_id) VALUES (1, 3, 7, 1);",
        )
        .unwrap();
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        migrate(&mut conn).unwrap();
        let row: (i64, String, String, i64) = conn
            .query_row(
                "SELECT p.id, p.givens, p.canonical, s.line
                 FROM puzzles AS p JOIN sources AS s ON s.puzzle_id = p.id",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        assert_eq!(row, (7, "g".into(), "c".into(), 3));
        let hash: i64 = conn
            .query_row("SELECT canonical_hash FROM puzzles", [], |r| r.get(0))
            .unwrap();
        assert_eq!(hash, crate::record::canonical_hash("sudoku", "c"));
        let indexes: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'index'
                     AND tbl_name IN ('puzzles', 'sources', 'puzzles_by_key', 'puzzles_by_form')
                 ORDER BY name",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        // sources' own key leads with the puzzle; its lines by file and
        // line have an index of their own (0013). The key and the form are
        // looked up in tables of their own, each ordered by its key (the
        // rowid; a table without rowid): no index. Ratings by type (0017).
        assert_eq!(
            indexes,
            [
                "puzzles_type_clues",
                "puzzles_type_rating",
                "sources_file_line"
            ]
        );
        crate::archive::lookup::invariant::assert_holds(&conn);
        let form: (i64, i64) = conn
            .query_row(
                "SELECT canonical_hash, puzzle_id FROM puzzles_by_form",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(form, (hash, 7));
        let from: (i64, String, i64) = conn
            .query_row("SELECT puzzle_id, file, line FROM provenance", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!(from, (7, "a.txt".into(), 3));
        // Enforcement is back on, and the checks still hold.
        let fk: bool = conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert!(fk);
        for bad in [
            "INSERT INTO puzzles (type, clues, givens, encoding, solutions, import_id, key) VALUES ('kakuro', 1, 'g', 'e', 1, 1, x'02')",
            "INSERT INTO puzzles (type, clues, givens, encoding, solutions, import_id, key) VALUES ('sudoku', 1, 'g', 'e', 3, 1, x'03')",
            "INSERT INTO puzzles (type, clues, givens, encoding, solutions, import_id, key) VALUES ('sudoku', 1, 'g', 'e', 1, 9, x'04')",
            "INSERT INTO sources (puzzle_id, file_id, line, import_id, relation) VALUES (7, 1, 4, 1, 'near')",
            "INSERT INTO sources (puzzle_id, file_id, line, import_id) VALUES (8, 1, 4, 1)",
        ] {
            assert!(conn.execute(bad, []).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_version_3_archive_keeps_its_imports_and_can_mark_one_interrupted() {
        let mut conn = at_version(3);
        conn.execute_batch(
            "INSERT INTO imports (id, arguments, status, lines, isomorphs) VALUES (1, '[\"a\"]', 'finished', 5, 2);
             INSERT INTO imports (id, arguments) VALUES (2, '[]');
             INSERT INTO files (id, path) VALUES (1, 'a.txt');
             INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key)
                 VALUES (7, 'sudoku', 17, 'g', 'e', 2, 1, x'01');
             INSERT INTO rejects (import_id, file_id, line, raw, reason, message)
                 VALUES (2, 1, 4, 'x', 'length', 'm');",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let kept: Vec<(i64, String, String, i64, i64)> = conn
            .prepare("SELECT id, arguments, status, lines, isomorphs FROM imports ORDER BY id")
            .unwrap()
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            kept,
            [
                (1, r#"["a"]"#.into(), "finished".into(), 5, 2),
                (2, "[]".into(), "running".into(), 0, 0)
            ]
        );
        conn.execute("UPDATE imports SET status = 'interrupted' WHERE id = 2", [])
            .unwrap();
        assert!(
            conn.execute("UPDATE imports SET status = 'paused' WHERE id = 2", [])
                .is_err()
        );
        // The rows that name imports still find them.
        let orphans: i64 = conn
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(orphans, 0);
        assert!(
            conn.execute("DELETE FROM imports WHERE id = 1", [])
                .is_err()
        );
    }

    #[test]
    fn the_isomorph_table_holds_the_hash_and_id_alone_and_serves_the_lookup() {
        let mut conn = at_version(4);
        conn.execute_batch(
            "INSERT INTO imports (id, arguments) VALUES (1, '[]');
             INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key, canonical, canonical_hash)
                 VALUES (7, 'sudoku', 17, 'g', 'e', 2, 1, x'01', 'c', 99);",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let columns: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info('puzzles_by_form') ORDER BY pk")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(columns, ["canonical_hash", "puzzle_id"]);
        let mut explain = conn
            .prepare(&format!(
                "EXPLAIN QUERY PLAN {}",
                super::super::dedup::BY_CANONICAL
            ))
            .unwrap();
        // Listed without binding the statement's parameters.
        let mut rows = explain.raw_query();
        let mut plan: Vec<String> = Vec::new();
        while let Some(r) = rows.next().unwrap() {
            plan.push(r.get(3).unwrap());
        }
        assert!(
            plan.iter()
                .any(|s| s.ends_with("USING PRIMARY KEY (canonical_hash=?)")),
            "{plan:?}"
        );
        assert!(plan.iter().all(|s| s.starts_with("SEARCH")), "{plan:?}");
        let found: i64 = conn
            .query_row(
                super::super::dedup::BY_CANONICAL,
                rusqlite::params![99, "sudoku", "c"],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(found, 7);
    }

    #[test]
    fn keys_become_the_puzzles_hashes_stepped_past_the_keys_given_before() {
        let mut conn = at_version(5);
        // Rows 3 and 8 are one puzzle (a forged archive: the old keys
        // differ): the later one takes the next key, as the importer
        // stores a puzzle whose hash another holds.
        conn.execute_batch(
            "INSERT INTO imports (id, arguments) VALUES (1, '[]');
             INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key)
                 VALUES (8, 'sudoku', 1, 'g', 'e', 2, 1, x'01'),
                        (3, 'sudoku', 1, 'g', 'e', 2, 1, x'02'),
                        (5, 'killer', 1, 'g', 'e', 2, 1, x'03');",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let rows: Vec<(i64, i64)> = conn
            .prepare("SELECT id, key FROM puzzles ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let sudoku = key_of("sudoku", "g");
        assert_eq!(
            rows,
            [
                (3, sudoku),
                (5, key_of("killer", "g")),
                (8, sudoku.wrapping_add(1))
            ]
        );
        crate::archive::lookup::invariant::assert_holds(&conn);
        // A key is taken once: in `puzzles_by_key`.
        assert!(
            conn.execute(
                "INSERT INTO puzzles_by_key (key, puzzle_id) VALUES (?1, 5)",
                [sudoku]
            )
            .is_err()
        );
        // The function is gone with the upgrade.
        assert!(
            conn.query_row("SELECT archive_key('a', 'b')", [], |_| Ok(()))
                .is_err()
        );
    }

    /// Schema 11 to 12: the unique key and the isomorph index become
    /// `puzzles_by_key` and `puzzles_by_form`, holding every row's key and
    /// every hash there is (none for a NULL form); the rows keep their ids
    /// and columns, and every lookup finds what it found before.
    #[test]
    fn a_version_11_archive_gets_its_key_and_form_tables_and_finds_every_puzzle() {
        use crate::archive::lookup::{BY_KEY, by_canonical, by_identity, invariant, probe};
        use crate::core::canon;
        use crate::core::puzzle::PuzzleType;
        use crate::record::canonical_hash;

        const STORED: &str =
            "400000805030000000000700000020000060000080400000010000000603070500200000104000000";
        let transposed: String = (0..81)
            .map(|i| STORED.as_bytes()[(i % 9) * 9 + i / 9] as char)
            .collect();
        let form = canon::of(PuzzleType::Sudoku, STORED).unwrap();
        let hash = canonical_hash("sudoku", &form);
        let mut conn = at_version(11);
        assert_eq!(user_version(&conn).unwrap(), 11);
        conn.execute("INSERT INTO imports (id, arguments) VALUES (1, '[]')", [])
            .unwrap();
        // 1 and 3 are isomorphs; 5 holds the key 7's hash starts at (a
        // forged collision), so 7 was stepped to the next key; 9 has no
        // form (`--no-canonical`).
        let b = key_of("sudoku", "b");
        for (id, kind, givens, key, canonical) in [
            (
                1,
                "sudoku",
                STORED,
                key_of("sudoku", STORED),
                Some(form.as_str()),
            ),
            (
                3,
                "sudoku",
                transposed.as_str(),
                key_of("sudoku", &transposed),
                Some(form.as_str()),
            ),
            (5, "sudoku", "a", b, None),
            (7, "sudoku", "b", next_key(b), None),
            (9, "killer", "k", key_of("killer", "k"), None),
        ] {
            conn.execute(
                "INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key,
                                      canonical, canonical_hash)
                 VALUES (?1, ?2, 17, ?3, 'e', 1, 1, ?4, ?5, ?6)",
                rusqlite::params![id, kind, givens, key, canonical, canonical.map(|_| hash)],
            )
            .unwrap();
        }
        let rows = |c: &Connection| -> Vec<String> {
            c.prepare(
                "SELECT id || type || givens || key || ifnull(canonical, '-')
                     || ifnull(canonical_hash, '-') FROM puzzles ORDER BY id",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
        };
        let before = rows(&conn);
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        migrate(&mut conn).unwrap();
        assert_eq!(user_version(&conn).unwrap(), VERSION);
        assert_eq!(rows(&conn), before);
        invariant::assert_holds(&conn);
        let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(count("SELECT count(*) FROM puzzles_by_key"), 5);
        assert_eq!(count("SELECT count(*) FROM puzzles_by_form"), 2);
        // No index on the columns is left: lookups go through the tables.
        assert_eq!(
            count(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'puzzles'
                 AND name <> 'puzzles_type_rating'"
            ),
            1
        );
        let id = |kind, givens: &str| by_identity(&conn, kind, givens).unwrap();
        assert_eq!(id(PuzzleType::Sudoku, STORED), Some(1));
        assert_eq!(id(PuzzleType::Sudoku, &transposed), Some(3));
        assert_eq!(id(PuzzleType::Sudoku, "b"), Some(7));
        assert_eq!(id(PuzzleType::Killer, "k"), Some(9));
        // The forged one is found where its forged hash says.
        let a: Option<i64> = probe(&conn, BY_KEY, "sudoku", "a", b, |r| r.get(0)).unwrap();
        assert_eq!(a, Some(5));
        assert_eq!(
            by_canonical(&conn, PuzzleType::Sudoku, &form, 10).unwrap(),
            (vec![1, 3], 2)
        );
        let found: i64 = conn
            .query_row(
                super::super::dedup::BY_CANONICAL,
                rusqlite::params![hash, "sudoku", form],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(found, 1);
        // Foreign keys hold, and enforcement is back on.
        assert_eq!(count("SELECT count(*) FROM pragma_foreign_key_check"), 0);
        assert!(
            conn.execute(
                "INSERT INTO puzzles_by_key (key, puzzle_id) VALUES (1, 99)",
                []
            )
            .is_err()
        );
    }

    #[test]
    fn storing_a_puzzle_builds_no_temporary_table() {
        // A CHECK written as `IN (a, b, c)` makes SQLite build a b-tree of
        // the list on every insert: half the writer's time, once.
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        for sql in [
            &super::super::puzzle_row::INSERT_PUZZLE,
            &super::super::puzzle_row::INSERT_PUZZLES,
            super::super::lines::INSERT_SOURCE,
            &super::super::lines::INSERT_SOURCES,
        ] {
            let mut explain = conn.prepare(&format!("EXPLAIN {sql}")).unwrap();
            // The program is listed without binding the statement's parameters.
            let mut rows = explain.raw_query();
            let mut ops = Vec::new();
            while let Some(r) = rows.next().unwrap() {
                ops.push(r.get::<_, String>(1).unwrap());
            }
            assert!(ops.len() > 10, "{ops:?}");
            assert!(ops.iter().all(|op| op != "OpenEphemeral"), "{sql}");
        }
    }

    #[test]
    fn files_from_before_schema_8_keep_their_names_and_one_name_can_be_two_files() {
        // (0006 needs the importer's key function: migrate from 5.)
        let mut conn = at_version(5);
        conn.execute_batch(
            "INSERT INTO imports (id, arguments) VALUES (1, '[]');
             INSERT INTO files (id, path) VALUES (1, 'a.txt'), (2, '-'), (3, './a.txt');
             INSERT INTO rejects (import_id, file_id, line, raw, reason, message)
                 VALUES (1, 3, 4, 'x', 'length', 'm');",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let rows: Vec<(i64, String, Option<String>, String)> = conn
            .prepare("SELECT id, path, real_path, kind FROM files ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            rows,
            [
                (1, "a.txt".into(), None, "file".into()),
                (2, "-".into(), None, "stdin".into()),
                (3, "./a.txt".into(), None, "file".into()),
            ]
        );
        let file: String = conn
            .query_row("SELECT file FROM rejected_lines", [], |r| r.get(0))
            .unwrap();
        assert_eq!(file, "./a.txt");
        // One spelling, two folders: two files; one real path: one file.
        conn.execute_batch(
            "INSERT INTO files (path, real_path) VALUES ('a.txt', '/x/a.txt'), ('a.txt', '/y/a.txt')",
        )
        .unwrap();
        for bad in [
            "INSERT INTO files (path, real_path) VALUES ('b.txt', '/x/a.txt')",
            "INSERT INTO files (path, kind) VALUES ('-', 'stdin')",
            "INSERT INTO files (path, kind) VALUES ('c.txt', 'pipe')",
            "INSERT INTO file_reads (file_id, import_id, action, read_as) VALUES (1, 1, 'parsed', '')",
        ] {
            assert!(conn.execute(bad, []).is_err(), "{bad}");
        }
        conn.execute(
            "INSERT INTO file_reads (file_id, import_id, action, read_as) VALUES (1, 1, 'read', '')",
            [],
        )
        .unwrap();
    }

    #[test]
    fn an_up_to_date_archive_is_opened_without_the_write_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.sqlite");
        let mut conn = Connection::open(&path).unwrap();
        let _: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .unwrap();
        migrate(&mut conn).unwrap();
        let writer = Connection::open(&path).unwrap();
        writer.execute_batch("BEGIN IMMEDIATE").unwrap();
        let mut second = Connection::open(&path).unwrap();
        second.busy_timeout(std::time::Duration::ZERO).unwrap();
        migrate(&mut second).unwrap();
        writer.execute_batch("COMMIT").unwrap();
    }

    #[test]
    fn a_newer_archive_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", VERSION + 1)
            .unwrap();
        let e = migrate(&mut conn).unwrap_err();
        assert!(matches!(e, ArchiveError::TooNew { .. }), "{e}");
    }
}
