//! A prepared statement that binds text without copying it.
//!
//! rusqlite binds every string and blob with `SQLITE_TRANSIENT`: SQLite
//! allocates a copy, fills it, and frees it at the next bind. For the
//! import's multi-row inserts (four strings of 81 to 162 bytes per
//! puzzle) that was a tenth of the writer thread's instructions, on the
//! thread every line waits for. [`Borrowed::execute`] binds with
//! `SQLITE_STATIC` instead, which is sound because it holds the values'
//! borrow for the whole call and unbinds them (reset and clear) before it
//! returns, also when it fails or unwinds.

use std::ffi::{CStr, c_int};
use std::marker::PhantomData;
use std::ptr::{self, NonNull};

use rusqlite::{Connection, ffi};

/// One parameter value, borrowed for one execution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Param<'a> {
    Null,
    Int(i64),
    Text(&'a str),
}

impl<'a> From<Option<&'a str>> for Param<'a> {
    fn from(text: Option<&'a str>) -> Param<'a> {
        text.map_or(Param::Null, Param::Text)
    }
}

impl From<Option<i64>> for Param<'_> {
    fn from(n: Option<i64>) -> Self {
        n.map_or(Param::Null, Param::Int)
    }
}

/// A statement prepared on `'conn`'s connection, finalized on drop.
pub(super) struct Borrowed<'conn> {
    stmt: NonNull<ffi::sqlite3_stmt>,
    db: *mut ffi::sqlite3,
    _conn: PhantomData<&'conn Connection>,
}

impl<'conn> Borrowed<'conn> {
    /// Prepares `sql` (one statement) for repeated use.
    pub fn prepare(conn: &'conn Connection, sql: &str) -> rusqlite::Result<Borrowed<'conn>> {
        let len = c_int::try_from(sql.len())
            .map_err(|_| rusqlite::Error::ToSqlConversionFailure("statement too long".into()))?;
        // SAFETY: `handle` is the open connection `conn` borrows for
        // `'conn`, which outlives the statement; it is used on this thread
        // only (`Borrowed` holds raw pointers, so it is neither Send nor
        // Sync).
        let db = unsafe { conn.handle() };
        let mut stmt = ptr::null_mut();
        // SAFETY: `sql` is valid for `len` bytes; SQLite writes the new
        // statement (or null) to `stmt` and reads nothing past `len`.
        let rc = unsafe {
            ffi::sqlite3_prepare_v3(
                db,
                sql.as_ptr().cast(),
                len,
                ffi::SQLITE_PREPARE_PERSISTENT,
                &mut stmt,
                ptr::null_mut(),
            )
        };
        if rc != ffi::SQLITE_OK {
            // SAFETY: a failed prepare leaves `stmt` null or finalizable.
            unsafe { ffi::sqlite3_finalize(stmt) };
            return Err(failure(db, rc));
        }
        let stmt = NonNull::new(stmt).ok_or_else(|| {
            rusqlite::Error::SqliteFailure(
                ffi::Error::new(ffi::SQLITE_MISUSE),
                Some("no statement in the SQL".into()),
            )
        })?;
        Ok(Borrowed {
            stmt,
            db,
            _conn: PhantomData,
        })
    }

    /// Binds `params` to parameters 1, 2, ... (the statement's whole list),
    /// runs the statement to completion and returns the rows it changed.
    pub fn execute(&mut self, params: &[Param<'_>]) -> rusqlite::Result<usize> {
        let stmt = self.stmt.as_ptr();
        // SAFETY: `stmt` is a live statement of this connection.
        let count = unsafe { ffi::sqlite3_bind_parameter_count(stmt) };
        if usize::try_from(count).ok() != Some(params.len()) {
            return Err(rusqlite::Error::InvalidParameterCount(
                params.len(),
                count as usize,
            ));
        }
        // From here on the statement may point into `params`' values: the
        // guard unbinds them before this function returns or unwinds, and
        // the borrow of `params` lasts until then.
        let _unbind = Unbind(stmt);
        for (i, param) in params.iter().enumerate() {
            let at = i as c_int + 1;
            // SAFETY: `at` is in 1..=count; text pointers are
            // valid for their lengths for as long as they stay bound
            // (above); SQLITE_STATIC tells SQLite not to copy or free them.
            let rc = unsafe {
                match *param {
                    Param::Null => ffi::sqlite3_bind_null(stmt, at),
                    Param::Int(n) => ffi::sqlite3_bind_int64(stmt, at, n),
                    Param::Text(s) => ffi::sqlite3_bind_text(
                        stmt,
                        at,
                        s.as_ptr().cast(),
                        length(s.len())?,
                        ffi::SQLITE_STATIC(),
                    ),
                }
            };
            if rc != ffi::SQLITE_OK {
                return Err(failure(self.db, rc));
            }
        }
        loop {
            // SAFETY: a live statement with every parameter bound.
            match unsafe { ffi::sqlite3_step(stmt) } {
                ffi::SQLITE_DONE => break,
                ffi::SQLITE_ROW => continue,
                rc => return Err(failure(self.db, rc)),
            }
        }
        // SAFETY: the connection is open and on this thread.
        let changed = unsafe { ffi::sqlite3_changes64(self.db) };
        Ok(usize::try_from(changed).unwrap_or(0))
    }
}

impl Drop for Borrowed<'_> {
    fn drop(&mut self) {
        // SAFETY: the statement is live and finalized once, here.
        unsafe { ffi::sqlite3_finalize(self.stmt.as_ptr()) };
    }
}

/// Resets a statement and clears its bindings when dropped, so that no
/// borrowed value stays bound past [`Borrowed::execute`].
struct Unbind(*mut ffi::sqlite3_stmt);

impl Drop for Unbind {
    fn drop(&mut self) {
        // SAFETY: the statement is live (its `Borrowed` outlives the call);
        // reset's result repeats the step's error, already reported.
        unsafe {
            ffi::sqlite3_reset(self.0);
            ffi::sqlite3_clear_bindings(self.0);
        }
    }
}

fn length(n: usize) -> rusqlite::Result<c_int> {
    c_int::try_from(n).map_err(|_| rusqlite::Error::ToSqlConversionFailure("value too long".into()))
}

/// The connection's error for result code `rc`.
fn failure(db: *mut ffi::sqlite3, rc: c_int) -> rusqlite::Error {
    // SAFETY: the connection is open; SQLite returns a NUL-terminated
    // message it owns, copied here before any other call.
    let message = unsafe {
        let m = ffi::sqlite3_errmsg(db);
        (!m.is_null()).then(|| CStr::from_ptr(m).to_string_lossy().into_owned())
    };
    rusqlite::Error::SqliteFailure(ffi::Error::new(rc), message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (n INTEGER, s TEXT, k INTEGER UNIQUE)")
            .unwrap();
        conn
    }

    type Row = (Option<i64>, Option<String>, Option<i64>);

    #[test]
    fn binds_every_kind_and_counts_changes() {
        let conn = table();
        let mut insert =
            Borrowed::prepare(&conn, "INSERT INTO t VALUES (?1, ?2, ?3), (?4, ?5, ?6)").unwrap();
        for round in 0..3i64 {
            // Values that live for one round only: nothing may stay bound.
            let text = format!("row {round}");
            let params = [
                Param::Int(round),
                Param::Text(&text),
                Param::Int(round * 111),
                Param::Null,
                Param::from(None::<&str>),
                Param::from(None::<i64>),
            ];
            assert_eq!(insert.execute(&params).unwrap(), 2);
        }
        let rows: Vec<Row> = conn
            .prepare("SELECT n, s, k FROM t ORDER BY rowid")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(rows.len(), 6);
        assert_eq!(rows[2], (Some(1), Some("row 1".into()), Some(111)));
        assert_eq!(rows[3], (None, None, None));
    }

    #[test]
    fn errors_leave_the_statement_reusable() {
        let conn = table();
        let mut insert = Borrowed::prepare(&conn, "INSERT INTO t VALUES (?1, ?2, ?3)").unwrap();
        let row = [Param::Int(1), Param::Text("a"), Param::Int(7)];
        assert_eq!(insert.execute(&row).unwrap(), 1);
        let e = insert.execute(&row).unwrap_err();
        assert!(e.to_string().contains("UNIQUE"), "{e}");
        assert!(matches!(
            insert.execute(&row[..2]),
            Err(rusqlite::Error::InvalidParameterCount(2, 3))
        ));
        let row = [Param::Int(2), Param::Text("b"), Param::Int(8)];
        assert_eq!(insert.execute(&row).unwrap(), 1);
        assert!(Borrowed::prepare(&conn, "INSERT INTO nowhere VALUES (1)").is_err());
        assert!(Borrowed::prepare(&conn, "  ").is_err());
    }
}
