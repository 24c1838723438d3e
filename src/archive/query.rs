//! Reading the archive for `stats`: plain SQL over the public schema, the
//! same queries the README shows for the `sqlite3` shell (`export` reads
//! through [`super::export`], `find` through [`super::lookup`]).

use super::{Archive, ArchiveError};

#[derive(Debug, Default, serde::Serialize)]
pub struct Stats {
    pub puzzles: i64,
    /// (type, clues, count), by type then clue count.
    pub by_clues: Vec<ClueRow>,
    /// (type, solutions, count).
    pub by_solutions: Vec<SolutionRow>,
    /// The uniquely solvable classic puzzles by `minimal`, once any has it
    /// (`sudoku-archive fill minimal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal: Option<MinimalCount>,
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
    /// Per type and band of 1.0, the rated puzzles.
    pub by_rating: Vec<super::rating::BandRow>,
    /// Puzzles with one solution that have no rating of the current rater
    /// of their type (`rate` rates them).
    pub unrated: i64,
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
    /// What the run was when it was not an import of lines: `rate` (its
    /// count in `rated`) or `fill minimal` (its count in `lines`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<String>,
    pub rated: i64,
}

/// Uniquely solvable classic puzzles: minimal, not minimal, not computed.
#[derive(Debug, Default, serde::Serialize)]
pub struct MinimalCount {
    pub minimal: i64,
    pub not_minimal: i64,
    pub not_computed: i64,
}

#[derive(Debug, serde::Serialize)]
pub struct RejectRow {
    pub reason: String,
    pub count: i64,
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

/// Puzzles without a canonical hash: those without a `puzzles_by_form`
/// row (the lookup tables' invariant, see [`super::lookup`]), counted on
/// the smallest index and that table, not by reading every row.
const WITHOUT_CANONICAL: &str =
    "SELECT (SELECT count(*) FROM puzzles) - (SELECT count(*) FROM puzzles_by_form)";

/// Per type: puzzles sharing a form with another, and the forms shared.
/// Forms are told apart by their 64-bit hash here (it covers the type), so
/// the count reads `puzzles_by_form` in its order (hash, then id: each
/// group's first id is its least) and one row per group for its type. A
/// collision (odds about 3 in 10^8 for a million forms) would merge two
/// groups in this count only; the isomorph check on import compares the
/// forms.
const ISOMORPHS: &str = "SELECT p.type, sum(g.n), count(*) FROM (
         SELECT min(puzzle_id) AS first, count(*) AS n FROM puzzles_by_form
         GROUP BY canonical_hash HAVING n > 1) AS g
     JOIN puzzles AS p ON p.id = g.first
     GROUP BY p.type ORDER BY p.type";

pub fn stats(a: &Archive) -> Result<Stats, ArchiveError> {
    let count = |sql: &str| -> Result<i64, ArchiveError> {
        a.conn
            .query_row(sql, [], |r| r.get(0))
            .map_err(|e| ArchiveError::sql("counting", e))
    };
    let page = count("PRAGMA page_size")?;
    // One scan for both: the minimal counts come with the solutions'.
    let by_solutions = rows(
        a,
        "counting puzzles by solutions",
        "SELECT type, solutions, count(*), ifnull(sum(minimal = 1), 0), ifnull(sum(minimal = 0), 0)
         FROM puzzles GROUP BY type, solutions ORDER BY type, solutions",
        |r| {
            let row = SolutionRow {
                r#type: r.get(0)?,
                solutions: r.get(1)?,
                count: r.get(2)?,
            };
            Ok((row, (r.get::<_, i64>(3)?, r.get::<_, i64>(4)?)))
        },
    )?;
    let minimal = by_solutions
        .iter()
        .find(|(row, _)| row.r#type == "sudoku" && row.solutions == 1)
        .filter(|(_, (yes, no))| yes + no > 0)
        .map(|(row, (yes, no))| MinimalCount {
            minimal: *yes,
            not_minimal: *no,
            not_computed: row.count - yes - no,
        });
    Ok(Stats {
        file_bytes: count("PRAGMA page_count")? * page,
        free_bytes: count("PRAGMA freelist_count")? * page,
        puzzles: count("SELECT count(*) FROM puzzles")?,
        sources: count("SELECT count(*) FROM sources")?,
        without_canonical: count(WITHOUT_CANONICAL)?,
        by_rating: super::rating::bands(&a.conn)?,
        unrated: super::rating::count_unrated(&a.conn)? as i64,
        isomorphs: rows(
            a,
            "counting isomorphs",
            ISOMORPHS,
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
        by_solutions: by_solutions.into_iter().map(|(row, _)| row).collect(),
        minimal,
        imports: rows(
            a,
            "listing imports",
            "SELECT id, started_at, finished_at, status, lines, stored, duplicates, rejected, skipped,
                    CASE json_extract(arguments, '$[0]')
                        WHEN 'rate' THEN 'rate'
                        WHEN 'fill' THEN 'fill ' || json_extract(arguments, '$[1]')
                    END,
                    rated
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
                    pass: r.get(9)?,
                    rated: r.get(10)?,
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

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    /// The isomorph counts read `puzzles_by_form` in its own order and
    /// `puzzles` by id only; the count without a form reads no row.
    #[test]
    fn the_isomorph_counts_read_the_form_table_in_order() {
        let mut c = Connection::open_in_memory().unwrap();
        crate::archive::schema::migrate(&mut c).unwrap();
        let plan = |sql: &str| crate::archive::lookup::plan::of(&c, sql, []);
        // The one sort is of the groups' types (the outer GROUP BY), not
        // of the forms: the inner groups come in the table's order.
        assert_eq!(
            plan(super::ISOMORPHS),
            [
                "CO-ROUTINE g",
                "SCAN puzzles_by_form",
                "SCAN g",
                "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)",
                "USE TEMP B-TREE FOR GROUP BY"
            ]
        );
        // Counted on a covering index and on the form table: no row read.
        assert_eq!(
            plan(super::WITHOUT_CANONICAL),
            [
                "SCAN CONSTANT ROW",
                "SCALAR SUBQUERY 1",
                "SCAN puzzles USING COVERING INDEX puzzles_type_rating",
                "SCALAR SUBQUERY 2",
                "SCAN puzzles_by_form"
            ]
        );
    }
}
