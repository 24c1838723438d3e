//! Reading the archive for `stats` and `export`: plain SQL over the public
//! schema, the same queries the README shows for the `sqlite3` shell.

use rusqlite::params;

use super::{Archive, ArchiveError};

#[derive(Debug, Default, serde::Serialize)]
pub struct Stats {
    pub puzzles: i64,
    /// (type, clues, count), by type then clue count.
    pub by_clues: Vec<ClueRow>,
    /// (type, solutions, count).
    pub by_solutions: Vec<SolutionRow>,
    pub imports: Vec<ImportRow>,
    /// (reason, count), most frequent first.
    pub rejects: Vec<RejectRow>,
    /// Accepted lines recorded in provenance.
    pub sources: i64,
    /// Per type: stored puzzles that share their canonical form with another
    /// stored puzzle, and how many forms are shared.
    pub isomorphs: Vec<IsomorphRow>,
    /// Puzzles whose canonical form is not computed yet (`--no-canonical`).
    pub without_canonical: i64,
    /// The archive's size in pages, in bytes (the WAL not counted).
    pub file_bytes: i64,
    /// Of those, free pages: left by an upgrade that rebuilt a table, and
    /// reused by later imports (`VACUUM` gives them back to the disk).
    pub free_bytes: i64,
}

#[derive(Debug, serde::Serialize)]
pub struct IsomorphRow {
    pub r#type: String,
    pub puzzles: i64,
    pub forms: i64,
}

#[derive(Debug, serde::Serialize)]
pub struct ClueRow {
    pub r#type: String,
    pub clues: i64,
    pub count: i64,
}

#[derive(Debug, serde::Serialize)]
pub struct SolutionRow {
    pub r#type: String,
    pub solutions: i64,
    pub count: i64,
}

#[derive(Debug, serde::Serialize)]
pub struct ImportRow {
    pub id: i64,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub status: String,
    pub lines: i64,
    pub stored: i64,
    pub duplicates: i64,
    pub rejected: i64,
    pub skipped: i64,
}

#[derive(Debug, serde::Serialize)]
pub struct RejectRow {
    pub reason: String,
    pub count: i64,
}

/// What `export` selects; `None` means no filter.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    pub kind: Option<String>,
    pub min_clues: Option<u32>,
    pub max_clues: Option<u32>,
    pub solutions: Option<u8>,
}

/// Which column `export` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The readable identity (`givens`): 81 characters for classic Sudoku.
    Givens,
    /// The packed string of the propagated board (`encoding`).
    Packed,
    /// The packed string inside the solver page's URL.
    Url,
    /// The Version B string (`S9B`, `L9B`, `T9B`) of the stored puzzle.
    VersionB,
}

fn rows<T>(
    a: &Archive,
    what: &str,
    sql: &str,
    f: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, ArchiveError> {
    let e = |e| ArchiveError::sql(what, e);
    let mut st = a.conn.prepare(sql).map_err(e)?;
    st.query_map([], |r| f(r))
        .map_err(e)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)
}

pub fn stats(a: &Archive) -> Result<Stats, ArchiveError> {
    let count = |sql: &str| -> Result<i64, ArchiveError> {
        a.conn
            .query_row(sql, [], |r| r.get(0))
            .map_err(|e| ArchiveError::sql("counting", e))
    };
    let page = count("PRAGMA page_size")?;
    Ok(Stats {
        file_bytes: count("PRAGMA page_count")? * page,
        free_bytes: count("PRAGMA freelist_count")? * page,
        puzzles: count("SELECT count(*) FROM puzzles")?,
        sources: count("SELECT count(*) FROM sources")?,
        without_canonical: count("SELECT count(*) FROM puzzles WHERE canonical_hash IS NULL")?,
        isomorphs: rows(
            a,
            "counting isomorphs",
            // Forms are told apart by their 64-bit hash here (it covers the
            // type), so the count reads one index, and one row per group
            // for its type. A collision (odds about 3 in 10^8 for a million
            // forms) would merge two groups in this count only; the
            // isomorph check on import compares the forms.
            "SELECT p.type, sum(g.n), count(*) FROM (
                 SELECT canonical_hash AS h, count(*) AS n FROM puzzles
                 WHERE canonical_hash IS NOT NULL
                 GROUP BY canonical_hash HAVING n > 1) AS g
             JOIN puzzles AS p
               ON p.id = (SELECT min(id) FROM puzzles WHERE canonical_hash = g.h)
             GROUP BY p.type ORDER BY p.type",
            |r| {
                Ok(IsomorphRow {
                    r#type: r.get(0)?,
                    puzzles: r.get(1)?,
                    forms: r.get(2)?,
                })
            },
        )?,
        by_clues: rows(
            a,
            "counting puzzles by clues",
            "SELECT type, clues, count(*) FROM puzzles GROUP BY type, clues ORDER BY type, clues",
            |r| Ok(ClueRow { r#type: r.get(0)?, clues: r.get(1)?, count: r.get(2)? }),
        )?,
        by_solutions: rows(
            a,
            "counting puzzles by solutions",
            "SELECT type, solutions, count(*) FROM puzzles GROUP BY type, solutions ORDER BY type, solutions",
            |r| Ok(SolutionRow { r#type: r.get(0)?, solutions: r.get(1)?, count: r.get(2)? }),
        )?,
        imports: rows(
            a,
            "listing imports",
            "SELECT id, started_at, finished_at, status, lines, stored, duplicates, rejected, skipped
             FROM imports ORDER BY id",
            |r| {
                Ok(ImportRow {
                    id: r.get(0)?,
                    started_at: r.get(1)?,
                    finished_at: r.get(2)?,
                    status: r.get(3)?,
                    lines: r.get(4)?,
                    stored: r.get(5)?,
                    duplicates: r.get(6)?,
                    rejected: r.get(7)?,
                    skipped: r.get(8)?,
                })
            },
        )?,
        rejects: rows(
            a,
            "counting rejects",
            "SELECT reason, count(*) FROM rejects GROUP BY reason ORDER BY count(*) DESC, reason",
            |r| Ok(RejectRow { reason: r.get(0)?, count: r.get(1)? }),
        )?,
    })
}

/// Calls `out` with each selected puzzle's string, in archive order.
pub fn export(
    a: &Archive,
    filter: &Filter,
    form: Form,
    mut out: impl FnMut(&str) -> std::io::Result<()>,
) -> Result<u64, ExportError> {
    let e = |e| ExportError::Archive(ArchiveError::sql("exporting", e));
    let mut st = a
        .conn
        .prepare(
            "SELECT type, givens, encoding FROM puzzles
             WHERE (?1 IS NULL OR type = ?1)
               AND clues BETWEEN ?2 AND ?3
               AND (?4 IS NULL OR solutions = ?4)
             ORDER BY id",
        )
        .map_err(e)?;
    let mut q = st
        .query(params![
            filter.kind,
            filter.min_clues.unwrap_or(0),
            filter.max_clues.unwrap_or(u32::MAX),
            filter.solutions
        ])
        .map_err(e)?;
    let mut n = 0;
    let mut line = String::new();
    while let Some(r) = q.next().map_err(e)? {
        let kind: String = r.get(0).map_err(e)?;
        line.clear();
        match form {
            Form::Givens => line.push_str(&r.get::<_, String>(1).map_err(e)?),
            Form::Packed => line.push_str(&r.get::<_, String>(2).map_err(e)?),
            Form::Url => {
                let prefix = crate::core::puzzle::PuzzleType::from_name(&kind)
                    .map(|t| t.url_prefix())
                    .unwrap_or_default();
                line.push_str(prefix);
                line.push_str(&r.get::<_, String>(2).map_err(e)?);
            }
            Form::VersionB => {
                let t = crate::core::puzzle::PuzzleType::from_name(&kind)
                    .ok_or_else(|| ExportError::Stored(format!("unknown type {kind:?}")))?;
                let givens = r.get::<_, String>(1).map_err(e)?;
                let encoding = r.get::<_, String>(2).map_err(e)?;
                let vb = crate::core::version_b::write_stored(t, &givens, &encoding)
                    .map_err(|err| ExportError::Stored(format!("{t} {encoding:?}: {err}")))?;
                line.push_str(&vb);
            }
        }
        out(&line).map_err(ExportError::Write)?;
        n += 1;
    }
    Ok(n)
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error("writing output: {0}")]
    Write(std::io::Error),
    /// A stored puzzle that does not read back (a damaged archive).
    #[error("stored puzzle cannot be written as version b: {0}")]
    Stored(String),
}
