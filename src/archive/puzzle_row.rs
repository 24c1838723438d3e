//! The `puzzles` row: its column list ([`COLUMNS`], every index derived
//! from it by name), the single and grouped inserts, the reads of a stored
//! row, the copy a merge makes of another archive's row, and the rating
//! `rate` writes ([`RATING_COLUMNS`]). Adding a stored value is a change
//! here plus a migration.
//!
//! It knows nothing of deduplication or batches: callers give the id and
//! key a row goes under.

use std::sync::LazyLock;

use rusqlite::Connection;

use super::borrowed::Param;
pub use super::fill::Filled;
use crate::record::Record;

/// The columns of a `puzzles` row, in the order every statement here lists
/// them and every index below is taken from.
pub(super) const COLUMNS: [&str; 12] = [
    "id",
    "type",
    "clues",
    "givens",
    "encoding",
    "solutions",
    "solution",
    "import_id",
    "canonical",
    // Filled after storing, by a pass over stored puzzles (see [`MINIMAL_FILLED`]).
    "minimal",
    // The two lookup keys last: readers of a stored puzzle select the
    // columns before them ([`reader_list`]).
    "key",
    "canonical_hash",
];

/// The rating of a puzzle (migration 0017), NULL on insert and on a
/// merge's copy (an input archive may be older than them), written by
/// `rate` alone ([`SET_RATING`]). Readers select them after their columns
/// ([`reader_list`]), at [`READ_RATING`] on.
pub(super) const RATING_COLUMNS: [&str; 4] = [
    "rating",
    "rating_technique",
    "rating_bound",
    "rating_version",
];

/// The position of `name` in [`COLUMNS`]; a name not there fails the build.
const fn at(name: &str) -> usize {
    let mut i = 0;
    while i < COLUMNS.len() {
        if eq(COLUMNS[i].as_bytes(), name.as_bytes()) {
            return i;
        }
        i += 1;
    }
    panic!("no such column of puzzles")
}

const fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

pub(super) const ID: usize = at("id");
pub(super) const TYPE: usize = at("type");
pub(super) const CLUES: usize = at("clues");
pub(super) const GIVENS: usize = at("givens");
pub(super) const ENCODING: usize = at("encoding");
pub(super) const SOLUTIONS: usize = at("solutions");
pub(super) const SOLUTION: usize = at("solution");
pub(super) const IMPORT_ID: usize = at("import_id");
pub(super) const KEY: usize = at("key");
pub(super) const CANONICAL: usize = at("canonical");
pub(super) const CANONICAL_HASH: usize = at("canonical_hash");
pub(super) const MINIMAL: usize = at("minimal");

/// `minimal` (migration 0016), filled in by a pass over stored puzzles
/// (`sudoku-archive fill minimal`) for the uniquely solvable classic
/// puzzles; NULL until filled, and for the others.
pub const MINIMAL_FILLED: Filled = Filled {
    name: "minimal",
    columns: &["minimal"],
    applies: "type = 'sudoku' AND solutions = 1",
};

/// The columns added to the table after schema 8 (the oldest a merge reads),
/// with the schema that added each: an older archive's row reads NULL.
const ADDED: &[(&str, i64)] = &[("minimal", 16)];

/// Values of one row of an insert.
pub(super) const PUZZLE_PARAMS: usize = COLUMNS.len();

// The lookup keys end the list, so that the readers' columns are a prefix.
const _: () = assert!(KEY == COLUMNS.len() - 2 && CANONICAL_HASH == COLUMNS.len() - 1);

/// The columns of what a stored puzzle is and holds, without the lookup
/// keys only the writers need (a reader selecting them paid 5% more
/// instructions on an export), then its rating, each name after `prefix`;
/// the indexes above hold for them up to [`KEY`], the rating's from
/// [`READ_RATING`].
pub(super) fn reader_list(prefix: &str) -> String {
    format!(
        "{}, {}",
        listed(&COLUMNS[..KEY], prefix),
        listed(&RATING_COLUMNS, prefix)
    )
}

/// Where the rating starts in a row of [`reader_list`].
pub(super) const READ_RATING: usize = KEY;

/// The column list, each name after `prefix` (`"p."` in a join).
pub(super) fn column_list(prefix: &str) -> String {
    listed(&COLUMNS, prefix)
}

fn listed(columns: &[&str], prefix: &str) -> String {
    columns
        .iter()
        .map(|c| format!("{prefix}{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `rows` rows of placeholders, [`PUZZLE_PARAMS`] each, numbered on.
fn placeholders(rows: usize) -> String {
    (0..rows)
        .map(|i| {
            let at = PUZZLE_PARAMS * i;
            let params: Vec<String> = (1..=PUZZLE_PARAMS)
                .map(|j| format!("?{}", at + j))
                .collect();
            format!("({})", params.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Stores a puzzle under the id and key given. OR IGNORE rather than a
/// plain INSERT: a statement that may abort half way through its rows
/// journals every page it touches first, and a CHECK could (the rows'
/// values make it never fail, and nothing else can: no index of `puzzles`
/// is unique). The writer counts the rows added, so a row dropped would be
/// an error, not a loss.
pub(super) static INSERT_PUZZLE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "INSERT OR IGNORE INTO puzzles ({}) VALUES {}",
        column_list(""),
        placeholders(1)
    )
});

/// New puzzles written by one statement.
pub(super) const PUZZLES_PER_INSERT: usize = 32;

/// [`INSERT_PUZZLE`] for [`PUZZLES_PER_INSERT`] rows.
pub(super) static INSERT_PUZZLES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "INSERT OR IGNORE INTO puzzles ({}) VALUES {}",
        column_list(""),
        placeholders(PUZZLES_PER_INSERT)
    )
});

/// One row's values, borrowed from a record or a row read elsewhere.
#[derive(Clone, Copy, Debug)]
pub(super) struct NewRow<'a> {
    pub id: i64,
    pub kind: &'a str,
    pub clues: i64,
    pub givens: &'a str,
    pub encoding: &'a str,
    pub solutions: i64,
    pub solution: Option<&'a str>,
    pub import_id: i64,
    pub key: i64,
    pub canonical: Option<&'a str>,
    pub canonical_hash: Option<i64>,
    pub minimal: Option<bool>,
}

impl<'a> NewRow<'a> {
    /// The row of a processed line's puzzle, stored as `id` under `key`.
    pub fn of_record(rec: &'a Record, id: i64, key: i64, import_id: i64) -> NewRow<'a> {
        let canonical = rec.canonical();
        NewRow {
            id,
            kind: rec.kind.as_str(),
            clues: i64::from(rec.clues),
            givens: rec.givens(),
            encoding: rec.encoding(),
            solutions: i64::from(rec.solutions),
            solution: rec.solution(),
            import_id,
            key,
            canonical: canonical.map(|(form, _)| form),
            canonical_hash: canonical.map(|(_, hash)| hash),
            minimal: None,
        }
    }

    /// Its values in [`COLUMNS`]' order, for [`INSERT_PUZZLE`] and
    /// [`INSERT_PUZZLES`].
    pub fn params(&self) -> [Param<'a>; PUZZLE_PARAMS] {
        let mut p = [Param::Null; PUZZLE_PARAMS];
        p[ID] = Param::Int(self.id);
        p[TYPE] = Param::Text(self.kind);
        p[CLUES] = Param::Int(self.clues);
        p[GIVENS] = Param::Text(self.givens);
        p[ENCODING] = Param::Text(self.encoding);
        p[SOLUTIONS] = Param::Int(self.solutions);
        p[SOLUTION] = Param::from(self.solution);
        p[IMPORT_ID] = Param::Int(self.import_id);
        p[KEY] = Param::Int(self.key);
        p[CANONICAL] = Param::from(self.canonical);
        p[CANONICAL_HASH] = Param::from(self.canonical_hash);
        p[MINIMAL] = Param::from(self.minimal.map(i64::from));
        p
    }
}

/// A stored rating, as `rate` writes it and readers read it back.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rating {
    /// In tenths on the type's scale (72: 7.2); stored as the REAL 7.2.
    #[serde(rename = "rating", serialize_with = "as_decimal")]
    pub tenths: u16,
    #[serde(rename = "rating_technique")]
    pub technique: String,
    /// Only "at least".
    #[serde(rename = "rating_bound")]
    pub bound: bool,
    /// The rater's version that made it.
    #[serde(rename = "rating_version")]
    pub version: u32,
}

fn as_decimal<S: serde::Serializer>(t: &u16, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(decimal(*t))
}

/// The REAL a rating is stored as: 72 tenths are 7.2, the same double as
/// the literal `7.2` a shell query compares it with (one correctly
/// rounded division).
pub(super) fn decimal(tenths: u16) -> f64 {
    f64::from(tenths) / 10.0
}

/// A stored REAL back in tenths; `None` for one no rating could be.
pub(super) fn tenths(stored: f64) -> Option<u16> {
    let t = (stored * 10.0).round();
    (0.0..=f64::from(u16::MAX)).contains(&t).then_some(t as u16)
}

/// A rating read back: (rating, technique, bound, version) as selected by
/// [`RATING_COLUMNS`] from `at`; `None` where there is none.
pub(super) fn read_rating(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Option<Rating>> {
    let rating: Option<f64> = r.get(at)?;
    let technique: Option<String> = r.get(at + 1)?;
    let bound: Option<bool> = r.get(at + 2)?;
    let version: Option<u32> = r.get(at + 3)?;
    Ok(match (rating.and_then(tenths), technique, version) {
        (Some(tenths), Some(t), Some(version)) => Some(Rating {
            tenths,
            technique: t,
            bound: bound.unwrap_or(false),
            version,
        }),
        _ => None,
    })
}

/// Writes a puzzle's rating: `?1` the id, then [`RATING_COLUMNS`]' values.
pub(super) const SET_RATING: &str = "UPDATE puzzles
     SET rating = ?2, rating_technique = ?3, rating_bound = ?4, rating_version = ?5
     WHERE id = ?1";

/// A stored row, owned: as `find` shows it, and as a merge copies it from
/// another archive (its id and key there are not kept: the merge gives
/// its own).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Puzzle {
    pub id: i64,
    pub r#type: String,
    pub clues: i64,
    pub givens: String,
    pub encoding: String,
    pub solutions: i64,
    pub solution: Option<String>,
    pub canonical: Option<String>,
    #[serde(skip)]
    pub canonical_hash: Option<i64>,
    /// The import that first stored it.
    pub import_id: i64,
    /// Its rating, when the statement selected one and it has one (a
    /// merge's copy has none: `rate` rates it there).
    #[serde(flatten)]
    pub rating: Option<Rating>,
    /// Whether it is minimal, when filled in (see [`MINIMAL_FILLED`]).
    #[serde(skip)]
    pub minimal: Option<bool>,
}

impl Puzzle {
    /// Reads a row of a statement that selects [`column_list`], and the
    /// rating after it if the statement selects [`RATING_COLUMNS`] too.
    pub(super) fn read(r: &rusqlite::Row<'_>) -> rusqlite::Result<Puzzle> {
        let rated = r.as_ref().column_count() > PUZZLE_PARAMS;
        Ok(Puzzle {
            rating: if rated {
                read_rating(r, PUZZLE_PARAMS)?
            } else {
                None
            },
            id: r.get(ID)?,
            r#type: r.get(TYPE)?,
            clues: r.get(CLUES)?,
            givens: r.get(GIVENS)?,
            encoding: r.get(ENCODING)?,
            solutions: r.get(SOLUTIONS)?,
            solution: r.get(SOLUTION)?,
            canonical: r.get(CANONICAL)?,
            canonical_hash: r.get(CANONICAL_HASH)?,
            import_id: r.get(IMPORT_ID)?,
            minimal: r.get(MINIMAL)?,
        })
    }

    /// This row as stored here: `id` under `key`, of import `import_id`,
    /// with the canonical form given (a merge may fill one the input lacks).
    pub(super) fn copy<'a>(
        &'a self,
        id: i64,
        key: i64,
        import_id: i64,
        canonical: Option<(&'a str, i64)>,
    ) -> NewRow<'a> {
        NewRow {
            id,
            kind: &self.r#type,
            clues: self.clues,
            givens: &self.givens,
            encoding: &self.encoding,
            solutions: self.solutions,
            solution: self.solution.as_deref(),
            import_id,
            key,
            canonical: canonical.map(|(form, _)| form),
            canonical_hash: canonical.map(|(_, hash)| hash),
            minimal: self.minimal,
        }
    }
}

/// The stored puzzle `id`, with its rating.
pub(super) static BY_ID: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {}, {} FROM puzzles WHERE id = ?1",
        column_list(""),
        listed(&RATING_COLUMNS, "")
    )
});

/// The rows of an archive of schema `version` after id `?1`, at most
/// `?2`, in id order (a merge reads its inputs so); the columns added since
/// that schema read NULL.
pub(super) fn after(version: i64) -> String {
    let columns: Vec<String> = COLUMNS
        .iter()
        .map(|c| match ADDED.iter().find(|(name, _)| name == c) {
            Some((_, since)) if version < *since => format!("NULL AS {c}"),
            _ => c.to_string(),
        })
        .collect();
    format!(
        "SELECT {} FROM puzzles WHERE id > ?1 ORDER BY id LIMIT ?2",
        columns.join(", ")
    )
}

/// The stored puzzle `id`.
pub(super) fn by_id(conn: &Connection, id: i64) -> rusqlite::Result<Puzzle> {
    conn.prepare_cached(&BY_ID)?.query_row([id], Puzzle::read)
}

/// A stored puzzle's type, givens and form, as a line is compared with it.
#[derive(Debug)]
pub(super) struct Held {
    pub kind: String,
    pub givens: String,
    pub canonical: Option<String>,
}

/// [`Held`] of the puzzle `?1`.
pub(super) const HELD: &str = "SELECT type, givens, canonical FROM puzzles WHERE id = ?1";

/// The [`Held`] row of puzzle `id`.
pub(super) fn held(conn: &Connection, id: i64) -> rusqlite::Result<Held> {
    conn.prepare_cached(HELD)?.query_row([id], |r| {
        Ok(Held {
            kind: r.get("type")?,
            givens: r.get("givens")?,
            canonical: r.get("canonical")?,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column of the table is in the list, once, and nothing else:
    /// a stored value added by a migration and forgotten here fails.
    #[test]
    fn the_column_list_is_the_tables_columns() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::migrate(&mut conn).unwrap();
        let mut table: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info('puzzles')")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        table.sort();
        let mut ours: Vec<String> = COLUMNS
            .iter()
            .chain(&RATING_COLUMNS)
            .map(|c| c.to_string())
            .collect();
        ours.sort();
        assert_eq!(table, ours);
        assert_eq!(COLUMNS[GIVENS], "givens");
        assert_eq!(COLUMNS[CANONICAL_HASH], "canonical_hash");
    }
}
