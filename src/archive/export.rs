//! `export`: stored puzzles streamed out as rows of chosen columns, in one
//! of four formats, filtered in SQL; or, for drawings, as the stored
//! strings themselves ([`each`]), read in one transaction when a book takes
//! two passes ([`in_one_read`]).
//!
//! Every string form is one entry of [`FORMS`]; rows are read by one
//! `SELECT ... ORDER BY id` into one reused buffer, so memory does not grow
//! with the archive; filters are bound SQL parameters. It writes nothing.
//! In full: docs/architecture.md "Module notes".

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::LazyLock;

use rusqlite::types::ValueRef;
use rusqlite::{OptionalExtension, params};

use super::puzzle_row::{
    self, CANONICAL, CLUES, ENCODING, GIVENS, ID, IMPORT_ID, MINIMAL, READ_RATING as RATING,
    SOLUTION, SOLUTIONS, TYPE,
};
use super::{Archive, ArchiveError};
use crate::core::puzzle::{self, PuzzleType};

/// One string form of a stored puzzle.
pub struct Form {
    /// Its name for `--form` and `--columns`.
    pub name: &'static str,
    /// Other names it is known by.
    pub aliases: &'static [&'static str],
    /// One line for `--help`.
    pub help: &'static str,
    /// Appends the puzzle in this form: from its type, `givens` and
    /// `encoding` (the stored packed string). Fails only on a stored row
    /// that does not read back (a damaged archive), saying why.
    pub write:
        fn(kind: PuzzleType, givens: &str, encoding: &str, out: &mut String) -> Result<(), String>,
}

/// Every form the tool writes, in the order `--help` lists them.
pub const FORMS: &[Form] = &[
    Form {
        name: "81",
        aliases: &["givens"],
        help: "The readable givens (81 characters for classic Sudoku; the identity string for Killer and Str8ts)",
        write: |_, givens, _, out| {
            out.push_str(givens);
            Ok(())
        },
    },
    Form {
        name: "packed",
        aliases: &["encoding"],
        help: "The packed string of the propagated board",
        write: |_, _, encoding, out| {
            out.push_str(encoding);
            Ok(())
        },
    },
    Form {
        name: "url",
        aliases: &[],
        help: "The packed string as a SudokuWiki / str8ts.com URL",
        write: |kind, _, encoding, out| {
            out.push_str(kind.url_prefix());
            out.push_str(encoding);
            Ok(())
        },
    },
    Form {
        name: "vb",
        aliases: &["version-b"],
        help: "The Version B string the sites emit today (S9B, L9B, T9B)",
        write: |kind, givens, encoding, out| {
            let vb = puzzle::write_version_b(kind, givens, encoding)
                .map_err(|e| format!("{kind} {encoding:?}: {e}"))?;
            out.push_str(&vb);
            Ok(())
        },
    },
];

/// The form named `name` (or one of its aliases).
pub fn form(name: &str) -> Option<&'static Form> {
    FORMS
        .iter()
        .find(|f| f.name == name || f.aliases.contains(&name))
}

/// One column of an export.
#[derive(Clone, Copy)]
pub enum Column {
    Id,
    Type,
    Clues,
    /// `puzzles.givens`, the identity.
    Givens,
    Solutions,
    /// The unique solution, empty (null) otherwise.
    Solution,
    /// The isomorph canonical form (null when not computed).
    Canonical,
    /// The import that first stored the puzzle.
    Import,
    /// The file of the puzzle's first provenance line.
    File,
    /// The line number of that line.
    Line,
    /// How many input lines the puzzle came from.
    Sources,
    /// The puzzle's rating on its type's scale (`7.2`; null when none).
    Rating,
    /// The technique that set it.
    Technique,
    /// 1 when the rating is only "at least", 0 when exact.
    RatingBound,
    /// Whether it is minimal: 1 or 0 (null when not computed).
    Minimal,
    /// The puzzle in one of [`FORMS`].
    Form(&'static Form),
}

/// The column names `--columns` takes besides the forms' names.
pub const COLUMN_NAMES: &[&str] = &[
    "id",
    "type",
    "clues",
    "givens",
    "solutions",
    "solution",
    "canonical",
    "import",
    "file",
    "line",
    "sources",
    "rating",
    "technique",
    "rating_bound",
    "minimal",
];

impl Column {
    /// The column called `name`: one of [`COLUMN_NAMES`] or a form's name.
    pub fn parse(name: &str) -> Option<Column> {
        Some(match name {
            "id" => Column::Id,
            "type" => Column::Type,
            "clues" => Column::Clues,
            "givens" => Column::Givens,
            "solutions" => Column::Solutions,
            "solution" => Column::Solution,
            "canonical" => Column::Canonical,
            "import" => Column::Import,
            "file" => Column::File,
            "line" => Column::Line,
            "sources" => Column::Sources,
            "rating" => Column::Rating,
            "technique" | "rating_technique" => Column::Technique,
            "rating_bound" => Column::RatingBound,
            "minimal" => Column::Minimal,
            other => Column::Form(form(other)?),
        })
    }

    /// The header name.
    pub fn name(self) -> &'static str {
        match self {
            Column::Id => "id",
            Column::Type => "type",
            Column::Clues => "clues",
            Column::Givens => "givens",
            Column::Solutions => "solutions",
            Column::Solution => "solution",
            Column::Canonical => "canonical",
            Column::Import => "import",
            Column::File => "file",
            Column::Line => "line",
            Column::Sources => "sources",
            Column::Rating => "rating",
            Column::Technique => "technique",
            Column::RatingBound => "rating_bound",
            Column::Minimal => "minimal",
            Column::Form(f) => f.name,
        }
    }
}

/// How rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The columns separated by one space, no header.
    Lines,
    /// RFC 4180: a header, fields quoted where needed.
    Csv,
    /// The same with tabs.
    Tsv,
    /// One JSON object per line, keyed by column name.
    Ndjson,
}

/// What `export` selects; `None` means no filter.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    pub kind: Option<PuzzleType>,
    pub min_clues: Option<u32>,
    pub max_clues: Option<u32>,
    pub solutions: Option<u8>,
    /// Puzzles first stored by this import.
    pub import: Option<i64>,
    /// Puzzles with a provenance line in a file recorded under this path
    /// (as first imported) or this real path.
    pub source: Option<(String, Option<String>)>,
    /// Only the first stored of each group of isomorphs.
    pub representatives: bool,
    pub limit: Option<u64>,
    /// Only puzzles rated at least / at most this (on their type's scale;
    /// a puzzle without a rating is left out by either).
    pub min_rating: Option<f64>,
    pub max_rating: Option<f64>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error("writing output: {0}")]
    Write(std::io::Error),
    /// A stored puzzle that does not read back (a damaged archive).
    #[error("stored puzzle cannot be written in that form: {0}")]
    Stored(String),
}

/// The selection's SQL: the `puzzles` row's columns a reader needs
/// ([`puzzle_row::reader_list`]).
static SELECT: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {} {SELECTION}", puzzle_row::reader_list("p.")));

/// Which rows [`SELECT`] reads.
const SELECTION: &str = "
    FROM puzzles AS p
    WHERE (?1 IS NULL OR p.type = ?1)
      AND p.clues BETWEEN ?2 AND ?3
      AND (?4 IS NULL OR p.solutions = ?4)
      AND (?5 IS NULL OR p.import_id = ?5)
      AND (?6 IS NULL OR EXISTS (
            SELECT 1 FROM sources AS s WHERE s.puzzle_id = p.id AND s.file_id IN (
                SELECT id FROM files WHERE path = ?6 OR real_path = ?7)))
      AND (?8 = 0 OR p.canonical_hash IS NULL OR NOT EXISTS (
            SELECT 1 FROM puzzles_by_form AS f JOIN puzzles AS q ON q.id = f.puzzle_id
            WHERE f.canonical_hash = p.canonical_hash AND f.puzzle_id < p.id
              AND q.type = p.type AND q.canonical = p.canonical))
      AND (?10 IS NULL OR p.rating >= ?10)
      AND (?11 IS NULL OR p.rating <= ?11)
    ORDER BY p.id
    LIMIT ?9";

/// The first provenance line of a puzzle: of the import that stored it
/// first, then by file and line.
const FIRST_SOURCE: &str = "SELECT file_id, line FROM sources WHERE puzzle_id = ?1
    ORDER BY import_id, file_id, line LIMIT 1";

/// Writes the header (csv, tsv) into `buf`, if the format has one.
pub fn header(format: Format, columns: &[Column], buf: &mut String) {
    let sep = match format {
        Format::Csv => ',',
        Format::Tsv => '\t',
        Format::Lines | Format::Ndjson => return,
    };
    for (i, c) in columns.iter().enumerate() {
        if i > 0 {
            buf.push(sep);
        }
        buf.push_str(c.name());
    }
    buf.push('\n');
}

/// One field's value.
enum Value<'a> {
    Null,
    Int(i64),
    Text(&'a str),
    /// Written into the row's scratch buffer (a form).
    Scratch,
    /// A decimal number written into the scratch buffer (a rating).
    Number,
}

fn sql_error(e: rusqlite::Error) -> ExportError {
    ExportError::Archive(ArchiveError::sql("exporting", e))
}

/// The lookups beside the selection's scan, prepared once: a puzzle's
/// first provenance line and its count of lines, with file names cached.
struct Lookups<'c> {
    first: rusqlite::Statement<'c>,
    count: rusqlite::Statement<'c>,
    path_of: rusqlite::Statement<'c>,
    paths: HashMap<i64, String>,
}

impl<'c> Lookups<'c> {
    fn prepare(a: &'c Archive) -> Result<Lookups<'c>, ExportError> {
        let e = sql_error;
        Ok(Lookups {
            first: a.conn.prepare(FIRST_SOURCE).map_err(e)?,
            count: a
                .conn
                .prepare("SELECT count(*) FROM sources WHERE puzzle_id = ?1")
                .map_err(e)?,
            path_of: a
                .conn
                .prepare("SELECT path FROM files WHERE id = ?1")
                .map_err(e)?,
            paths: HashMap::new(),
        })
    }

    /// The first provenance line of puzzle `id`: its file's id (whose path
    /// is then in `paths`) and its line number.
    fn first_source(&mut self, id: i64) -> Result<Option<(i64, i64)>, ExportError> {
        let e = sql_error;
        let found = self
            .first
            .query_row([id], |s| Ok((s.get::<_, i64>(0)?, s.get::<_, i64>(1)?)))
            .optional()
            .map_err(e)?;
        if let Some((file_id, _)) = found
            && let std::collections::hash_map::Entry::Vacant(v) = self.paths.entry(file_id)
        {
            v.insert(self.path_of.query_row([file_id], |s| s.get(0)).map_err(e)?);
        }
        Ok(found)
    }

    fn sources(&mut self, id: i64) -> Result<i64, ExportError> {
        self.count.query_row([id], |s| s.get(0)).map_err(sql_error)
    }
}

/// Runs the selection of `filter` (the statement of [`SELECT`]), calling
/// `row` with each row in first-seen order; returns the count.
fn select(
    st: &mut rusqlite::Statement<'_>,
    filter: &Filter,
    mut row: impl FnMut(&rusqlite::Row<'_>) -> Result<(), ExportError>,
) -> Result<u64, ExportError> {
    let e = sql_error;
    let (source, real) = match &filter.source {
        Some((p, r)) => (Some(p.as_str()), r.as_deref()),
        None => (None, None),
    };
    let mut q = st
        .query(params![
            filter.kind.map(|k| k.as_str()),
            filter.min_clues.unwrap_or(0),
            filter.max_clues.unwrap_or(u32::MAX),
            filter.solutions,
            filter.import,
            source,
            real,
            filter.representatives,
            filter
                .limit
                .map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX)),
            filter.min_rating,
            filter.max_rating,
        ])
        .map_err(e)?;
    let mut n = 0;
    while let Some(r) = q.next().map_err(e)? {
        row(r)?;
        n += 1;
    }
    Ok(n)
}

/// Column `i` of a row as text, `None` for anything else.
fn text<'r>(r: &'r rusqlite::Row<'_>, i: usize) -> Result<Option<&'r str>, ExportError> {
    match r.get_ref(i).map_err(sql_error)? {
        ValueRef::Text(t) => Ok(std::str::from_utf8(t).ok()),
        _ => Ok(None),
    }
}

/// Streams the selected puzzles: calls `out` with each row's bytes (one
/// line, its newline included), in first-seen order; returns the count.
pub fn export(
    a: &Archive,
    filter: &Filter,
    format: Format,
    columns: &[Column],
    mut out: impl FnMut(&str) -> std::io::Result<()>,
) -> Result<u64, ExportError> {
    let e = sql_error;
    let needs_source = columns
        .iter()
        .any(|c| matches!(c, Column::File | Column::Line));
    let needs_count = columns.iter().any(|c| matches!(c, Column::Sources));
    let mut st = a.conn.prepare(&SELECT).map_err(e)?;
    let mut look = Lookups::prepare(a)?;
    let mut line = String::with_capacity(512);
    let mut scratch = String::with_capacity(512);
    select(&mut st, filter, |r| {
        let int = |i: usize| -> Result<i64, ExportError> { r.get(i).map_err(e) };
        let id = int(ID)?;
        let kind_name = text(r, TYPE)?.unwrap_or_default();
        let kind = PuzzleType::from_name(kind_name);
        let (first_file, first_line) = match needs_source {
            true => look.first_source(id)?.unzip(),
            false => (None, None),
        };
        let sources = if needs_count { look.sources(id)? } else { 0 };
        line.clear();
        if format == Format::Ndjson {
            line.push('{');
        }
        for (i, c) in columns.iter().enumerate() {
            scratch.clear();
            let v = match c {
                Column::Id => Value::Int(id),
                Column::Type => Value::Text(kind_name),
                Column::Clues => Value::Int(int(CLUES)?),
                Column::Givens => Value::Text(text(r, GIVENS)?.unwrap_or_default()),
                Column::Solutions => Value::Int(int(SOLUTIONS)?),
                Column::Solution => text(r, SOLUTION)?.map_or(Value::Null, Value::Text),
                Column::Canonical => text(r, CANONICAL)?.map_or(Value::Null, Value::Text),
                Column::Import => Value::Int(int(IMPORT_ID)?),
                Column::File => first_file
                    .and_then(|f| look.paths.get(&f))
                    .map_or(Value::Null, |p| Value::Text(p)),
                Column::Line => first_line.map_or(Value::Null, Value::Int),
                Column::Sources => Value::Int(sources),
                Column::Rating => match r.get::<_, Option<f64>>(RATING).map_err(e)? {
                    Some(v) => {
                        let _ = write!(scratch, "{:.1}", v);
                        Value::Number
                    }
                    None => Value::Null,
                },
                Column::Technique => text(r, RATING + 1)?.map_or(Value::Null, Value::Text),
                Column::RatingBound => r
                    .get::<_, Option<i64>>(RATING + 2)
                    .map_err(e)?
                    .map_or(Value::Null, Value::Int),
                Column::Minimal => r
                    .get::<_, Option<i64>>(MINIMAL)
                    .map_err(e)?
                    .map_or(Value::Null, Value::Int),
                Column::Form(f) => match kind {
                    Some(kind) => {
                        let givens = text(r, GIVENS)?.unwrap_or_default();
                        let encoding = text(r, ENCODING)?.unwrap_or_default();
                        (f.write)(kind, givens, encoding, &mut scratch)
                            .map_err(ExportError::Stored)?;
                        Value::Scratch
                    }
                    None => Value::Null,
                },
            };
            let v = match v {
                Value::Scratch => Field::Text(&scratch),
                Value::Number => Field::Number(&scratch),
                Value::Text(t) => Field::Text(t),
                Value::Int(i) => Field::Int(i),
                Value::Null => Field::Null,
            };
            write_field(format, i, c.name(), v, &mut line);
        }
        line.push_str(if format == Format::Ndjson {
            "}\n"
        } else {
            "\n"
        });
        out(&line).map_err(ExportError::Write)
    })
}

/// One selected puzzle as stored, handed to [`each`]'s caller.
pub struct Stored<'a> {
    pub id: i64,
    pub kind: PuzzleType,
    pub clues: i64,
    /// The identity (`puzzles.givens`).
    pub givens: &'a str,
    /// The packed string of the propagated board.
    pub encoding: &'a str,
    /// The unique solution, if any.
    pub solution: Option<&'a str>,
    /// The first provenance line as `file:line`, when asked for.
    pub source: Option<&'a str>,
}

/// Streams the selected puzzles as stored, in first-seen order, to `each`
/// (for drawings, which read the strings rather than columns); looks each
/// one's first provenance line up when `sources` says so. Returns the count.
pub fn each(
    a: &Archive,
    filter: &Filter,
    sources: bool,
    mut each: impl FnMut(&Stored<'_>) -> Result<(), ExportError>,
) -> Result<u64, ExportError> {
    let mut st = a.conn.prepare(&SELECT).map_err(sql_error)?;
    let mut look = Lookups::prepare(a)?;
    let mut source = String::new();
    select(&mut st, filter, |r| {
        let id: i64 = r.get(ID).map_err(sql_error)?;
        let name = text(r, TYPE)?.unwrap_or_default();
        let kind = PuzzleType::from_name(name)
            .ok_or_else(|| ExportError::Stored(format!("puzzle {id}: unknown type {name:?}")))?;
        source.clear();
        if sources && let Some((file, line)) = look.first_source(id)? {
            let path = look.paths.get(&file).map_or("", String::as_str);
            let _ = write!(source, "{path}:{line}");
        }
        each(&Stored {
            id,
            kind,
            clues: r.get(CLUES).map_err(sql_error)?,
            givens: text(r, GIVENS)?.unwrap_or_default(),
            encoding: text(r, ENCODING)?.unwrap_or_default(),
            solution: text(r, SOLUTION)?,
            source: (!source.is_empty()).then_some(source.as_str()),
        })
    })
}

/// Runs `f` inside one read transaction, so that every selection it makes
/// sees the same archive (a book's puzzles and, after them, their
/// solutions), whatever an import commits meanwhile.
pub fn in_one_read<T>(
    a: &Archive,
    f: impl FnOnce() -> Result<T, ExportError>,
) -> Result<T, ExportError> {
    a.conn.execute_batch("BEGIN").map_err(sql_error)?;
    let result = f();
    let end = a.conn.execute_batch("COMMIT").map_err(sql_error);
    let value = result?;
    end.map(|_| value)
}

enum Field<'a> {
    Null,
    Int(i64),
    Text(&'a str),
    /// A number already written as text (`7.2`): bare in every format.
    Number(&'a str),
}

/// Appends field number `i` of a row in `format`.
fn write_field(format: Format, i: usize, name: &str, v: Field<'_>, line: &mut String) {
    match format {
        Format::Lines | Format::Csv | Format::Tsv => {
            if i > 0 {
                line.push(match format {
                    Format::Lines => ' ',
                    Format::Csv => ',',
                    _ => '\t',
                });
            }
            match v {
                Field::Null => {}
                Field::Int(n) => {
                    let _ = write!(line, "{n}");
                }
                Field::Number(t) => line.push_str(t),
                Field::Text(t) if format == Format::Lines => line.push_str(t),
                Field::Text(t) => {
                    let sep = if format == Format::Csv { ',' } else { '\t' };
                    if t.contains([sep, '"', '\n', '\r']) {
                        line.push('"');
                        line.push_str(&t.replace('"', "\"\""));
                        line.push('"');
                    } else {
                        line.push_str(t);
                    }
                }
            }
        }
        Format::Ndjson => {
            if i > 0 {
                line.push(',');
            }
            json_string(name, line);
            line.push(':');
            match v {
                Field::Null => line.push_str("null"),
                Field::Int(n) => {
                    let _ = write!(line, "{n}");
                }
                Field::Number(t) => line.push_str(t),
                Field::Text(t) => json_string(t, line),
            }
        }
    }
}

/// Appends `s` as a JSON string.
fn json_string(s: &str, line: &mut String) {
    if s.bytes()
        .all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b < 0x7f)
    {
        line.push('"');
        line.push_str(s);
        line.push('"');
    } else {
        line.push_str(&serde_json::Value::from(s).to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The selection reads `puzzles` once in id order; `representatives`
    /// looks each row's earlier isomorphs up in `puzzles_by_form` by its
    /// key and reads only those rows by id.
    #[test]
    fn representatives_are_range_reads_of_the_form_table() {
        let mut c = rusqlite::Connection::open_in_memory().unwrap();
        super::super::schema::migrate(&mut c).unwrap();
        let plan = crate::archive::lookup::plan::of(
            &c,
            &SELECT,
            params![
                None::<String>,
                0,
                81,
                None::<i64>,
                None::<i64>,
                None::<String>,
                None::<String>,
                1,
                -1,
                None::<f64>,
                None::<f64>
            ],
        );
        let scans: Vec<&String> = plan.iter().filter(|s| s.starts_with("SCAN")).collect();
        assert_eq!(scans, ["SCAN p"], "{plan:?}");
        for step in [
            "SEARCH f USING PRIMARY KEY (canonical_hash=? AND puzzle_id<?)",
            "SEARCH q USING INTEGER PRIMARY KEY (rowid=?)",
        ] {
            assert!(plan.iter().any(|s| s == step), "{step}: {plan:?}");
        }
        assert!(!plan.iter().any(|s| s.contains("TEMP B-TREE")), "{plan:?}");
    }

    #[test]
    fn every_form_and_column_is_found_by_its_name() {
        for f in FORMS {
            assert!(matches!(Column::parse(f.name), Some(Column::Form(g)) if g.name == f.name));
            for alias in f.aliases {
                assert_eq!(form(alias).map(|g| g.name), Some(f.name));
            }
            assert!(!COLUMN_NAMES.contains(&f.name), "{}", f.name);
        }
        for name in COLUMN_NAMES {
            assert_eq!(Column::parse(name).map(Column::name), Some(*name));
        }
    }

    #[test]
    fn fields_are_quoted_only_where_the_format_needs_it() {
        let mut line = String::new();
        write_field(Format::Csv, 0, "a", Field::Text("1,2"), &mut line);
        write_field(Format::Csv, 1, "b", Field::Text("x\"y"), &mut line);
        write_field(Format::Csv, 2, "c", Field::Null, &mut line);
        write_field(Format::Csv, 3, "d", Field::Int(7), &mut line);
        assert_eq!(line, "\"1,2\",\"x\"\"y\",,7");
        line.clear();
        write_field(Format::Ndjson, 0, "a", Field::Text("q\"\n"), &mut line);
        write_field(Format::Ndjson, 1, "b", Field::Null, &mut line);
        assert_eq!(line, "\"a\":\"q\\\"\\n\",\"b\":null");
    }
}
