//! The archive's schema, as numbered SQL files under `migrations/`, applied
//! in order in one transaction each and tracked by `PRAGMA user_version`.
//! An archive written by a newer version is refused, never touched.

use rusqlite::{Connection, TransactionBehavior};

use super::ArchiveError;

/// Rust code run after a migration's SQL, inside its transaction.
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
        fill: Some(|c| super::canonical::fill_missing(c).map(|_| ())),
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
            found,
            known: VERSION,
        });
    }
    Ok(found)
}

/// Applies every migration the archive has not had yet.
pub fn migrate(conn: &mut Connection) -> Result<(), ArchiveError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| ArchiveError::sql("starting the schema upgrade", e))?;
    // Read again inside the write lock: another process may have migrated first.
    let found = check_version(&tx)?;
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
    tx.commit()
        .map_err(|e| ArchiveError::sql("committing the schema upgrade", e))
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

    #[test]
    fn a_newer_archive_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", VERSION + 1)
            .unwrap();
        let e = migrate(&mut conn).unwrap_err();
        assert!(matches!(e, ArchiveError::TooNew { .. }), "{e}");
    }
}
