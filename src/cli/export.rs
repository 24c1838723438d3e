//! `sudoku-archive export`: selected puzzles on stdout, one row each, in
//! first-seen order: one string per line by default, or chosen columns as
//! CSV, TSV or NDJSON. The forms (`--form`, and the form columns of
//! `--columns`) come from one list, [`crate::archive::export::FORMS`].
//! Or drawn: one SVG file per puzzle (`--format svg --out DIR`), or one
//! printable HTML page of them all with their solutions after
//! (`--format html`); the drawing is `render`'s, streamed a puzzle at a
//! time.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, ValueEnum};

use super::DbArg;
use super::output::OutputError;
use crate::archive::Archive;
use crate::archive::export::{
    self, COLUMN_NAMES, Column, ExportError, FORMS, Filter, Form, Format,
};
use crate::core::puzzle::PuzzleType;
use crate::progress::Progress;
use crate::render::html::{Book, Caption, Paper};
use crate::render::{Layers, Picture, svg};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// The columns separated by spaces, no header (by default the --form string alone).
    Lines,
    /// Comma-separated values with a header row.
    Csv,
    /// Tab-separated values with a header row.
    Tsv,
    /// One JSON object per line.
    Ndjson,
    /// One SVG drawing per puzzle, `ID.svg` in the folder --out names.
    Svg,
    /// One self-contained printable HTML page: the puzzles --per-page to a
    /// printed page, then their solutions (to --out FILE, or stdout).
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PaperArg {
    A4,
    Letter,
}

/// `--empty`: how an empty cell of a classic Sudoku is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EmptyArg {
    /// As stored: `0`.
    #[value(name = "0")]
    Zero,
    /// A dot, the form solvers and forums use.
    #[value(name = ".")]
    Dot,
}

/// The 81 form with `.` for the empty cells of classic Sudoku: the
/// column of that name when `--empty .`.
static DOTTED_81: Form = Form {
    name: "81",
    aliases: &[],
    help: "",
    write: |kind, givens, _, out| {
        if kind == PuzzleType::Sudoku {
            out.extend(givens.chars().map(|c| if c == '0' { '.' } else { c }));
        } else {
            out.push_str(givens);
        }
        Ok(())
    },
};

fn forms() -> PossibleValuesParser {
    PossibleValuesParser::new(
        FORMS
            .iter()
            .map(|f| PossibleValue::new(f.name).aliases(f.aliases).help(f.help)),
    )
}

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  sudoku-archive export --type sudoku --clues 17                   17-clue classics, one a line
  sudoku-archive export --format csv --columns id,type,clues,81,solution --limit 10
  sudoku-archive export --source feed.csv --form url               SudokuWiki links of one file's puzzles
  sudoku-archive export --type sudoku --empty .                    classics with . for empty cells
  sudoku-archive export --format html --type killer --limit 24 --out book.html
  sudoku-archive export --format svg --clues 17 --out drawings/")]
pub struct ExportArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Only this type: sudoku, killer or str8ts.
    #[arg(long = "type", value_name = "T", value_parser = ["sudoku", "killer", "str8ts"])]
    pub kind: Option<String>,
    /// Only puzzles with exactly this clue count.
    #[arg(long, value_name = "N", conflicts_with_all = ["min_clues", "max_clues"])]
    pub clues: Option<u32>,
    /// Only puzzles with at least this many clues.
    #[arg(long, value_name = "N")]
    pub min_clues: Option<u32>,
    /// Only puzzles with at most this many clues.
    #[arg(long, value_name = "N")]
    pub max_clues: Option<u32>,
    /// Only puzzles with this solution count (1 unique, 2 two or more).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=2))]
    pub solutions: Option<u8>,
    /// Only puzzles first stored by this import (`imports.id`).
    #[arg(long, value_name = "ID")]
    pub import: Option<i64>,
    /// Only puzzles with a line in this input file (the path it was first
    /// imported under, or the file itself).
    #[arg(long, value_name = "FILE")]
    pub source: Option<String>,
    /// Only one puzzle of each group of isomorphs: the first stored.
    #[arg(long)]
    pub representatives: bool,
    /// Only puzzles rated at least this, on their type's scale (classic:
    /// Sudoku Explainer's ER, e.g. 7.2); unrated puzzles are left out
    /// (`sudoku-archive rate` rates them).
    #[arg(long, value_name = "R", value_parser = rating_arg)]
    pub min_rating: Option<f64>,
    /// Only puzzles rated at most this (unrated ones left out).
    #[arg(long, value_name = "R", value_parser = rating_arg)]
    pub max_rating: Option<f64>,
    /// At most this many rows.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// The string form of the puzzles (the `lines` format's default column).
    #[arg(long, value_parser = forms(), default_value = "81")]
    pub form: String,
    /// The character for the empty cells of classic Sudoku in the 81 form
    /// (as --form and in --columns): 0, as the archive stores them, or `.`,
    /// as most solvers and forums write them. Killer and Str8ts strings
    /// are written as they are.
    #[arg(long, value_enum, value_name = "CHAR", default_value = "0")]
    pub empty: EmptyArg,
    /// How rows are written.
    #[arg(long, value_enum, default_value = "lines")]
    pub format: FormatArg,
    /// The columns, comma-separated: id, type, clues, givens, solutions,
    /// solution, canonical, import, file, line (the first line it came
    /// from), sources (how many lines), minimal (1, 0, or empty when not
    /// computed: `fill minimal`), rating, technique, rating_bound (1 when
    /// the rating is only "at least"), or a form (81, packed, url, vb).
    /// Default: the --form string for lines, else id,type,clues,FORM,solutions,solution.
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    pub columns: Vec<String>,
    /// Where drawings go: the folder for svg (made if missing), the file
    /// for html (default: stdout).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// html: puzzles to a printed page.
    #[arg(long, value_name = "N", default_value = "6", value_parser = clap::value_parser!(u16).range(1..=12))]
    pub per_page: u16,
    /// html: the paper the page is laid out for.
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: PaperArg,
    /// svg: draw each cell's propagated candidates in.
    #[arg(long)]
    pub candidates: bool,
    /// svg: draw the solution in (html has them on the pages after).
    #[arg(long)]
    pub solution: bool,
    /// No progress spinner (there is none when stderr is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(a: ExportArgs) -> anyhow::Result<u8> {
    let form = export::form(&a.form).ok_or_else(|| anyhow::anyhow!("unknown form {}", a.form))?;
    let format = match a.format {
        FormatArg::Lines => Format::Lines,
        FormatArg::Csv => Format::Csv,
        FormatArg::Tsv => Format::Tsv,
        FormatArg::Ndjson => Format::Ndjson,
        FormatArg::Svg | FormatArg::Html => return drawn(a),
    };
    if a.out.is_some() {
        anyhow::bail!("--out is for --format svg or html; rows go to stdout");
    }
    let columns: Vec<Column> = if a.columns.is_empty() {
        match format {
            Format::Lines => vec![Column::Form(form)],
            _ => vec![
                Column::Id,
                Column::Type,
                Column::Clues,
                Column::Form(form),
                Column::Solutions,
                Column::Solution,
            ],
        }
    } else {
        a.columns
            .iter()
            .map(|name| {
                Column::parse(name.trim()).ok_or_else(|| {
                    let forms: Vec<&str> = FORMS.iter().map(|f| f.name).collect();
                    anyhow::anyhow!(
                        "--columns: no column {name:?} (there are {}, {})",
                        COLUMN_NAMES.join(", "),
                        forms.join(", ")
                    )
                })
            })
            .collect::<anyhow::Result<_>>()?
    };
    let columns: Vec<Column> = match a.empty {
        EmptyArg::Zero => columns,
        EmptyArg::Dot => columns
            .into_iter()
            .map(|c| match c {
                Column::Form(f) if f.name == "81" => Column::Form(&DOTTED_81),
                c => c,
            })
            .collect(),
    };
    a.db.announce_upgrade(false);
    let archive = Archive::open_existing(&a.db.db)?;
    let filter = filter(&a);
    named_ones_exist(&archive, &filter, &a.db.db.display().to_string())?;
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut head = String::new();
    export::header(format, &columns, &mut head);
    let progress = Progress::spinner(a.quiet);
    let mut rows = 0;
    let result = out
        .write_all(head.as_bytes())
        .map_err(ExportError::Write)
        .and_then(|_| {
            export::export(&archive, &filter, format, &columns, |s| {
                rows += 1;
                progress.count("exported", rows, "rows", false);
                out.write_all(s.as_bytes())
            })
        })
        .and_then(|n| out.flush().map(|_| n).map_err(ExportError::Write));
    progress.count("exported", rows, "rows", true);
    progress.finish();
    match result {
        Ok(_) => Ok(0),
        // `export | head` closing the pipe early is a normal way to stop.
        Err(ExportError::Write(e)) => Err(OutputError::from(e).into()),
        Err(e) => Err(e.into()),
    }
}

/// Fails when `--import` or `--source` names nothing the archive holds: a
/// typo must not read as "no puzzles".
fn named_ones_exist(archive: &Archive, filter: &Filter, db: &str) -> anyhow::Result<()> {
    let sql = |e| crate::archive::ArchiveError::sql("checking the export's filters", e);
    if let Some(id) = filter.import {
        let (found, last): (bool, Option<i64>) = archive
            .conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM imports WHERE id = ?1), max(id) FROM imports",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(sql)?;
        if !found {
            let held = match last {
                Some(1) => "its only import is 1".to_string(),
                Some(last) => format!("its imports are numbered 1 to {last}"),
                None => "it has no imports yet".to_string(),
            };
            anyhow::bail!("--import {id}: {db} has no import {id} ({held})");
        }
    }
    if let Some((path, real)) = &filter.source {
        let found: bool = archive
            .conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM files WHERE path = ?1 OR real_path = ?2)",
                rusqlite::params![path, real],
                |r| r.get(0),
            )
            .map_err(sql)?;
        if !found {
            anyhow::bail!(
                "--source {path}: {db} has no file read under that name{} (`sqlite3 {db} 'SELECT path FROM files'` lists them)",
                if real.is_some() { " or path" } else { "" }
            );
        }
    }
    Ok(())
}

/// What the selection options select.
fn filter(a: &ExportArgs) -> Filter {
    Filter {
        kind: a.kind.as_deref().and_then(PuzzleType::from_name),
        min_clues: a.clues.or(a.min_clues),
        max_clues: a.clues.or(a.max_clues),
        solutions: a.solutions,
        import: a.import,
        source: a.source.clone().map(|s| {
            let real = std::fs::canonicalize(&s)
                .ok()
                .map(|p| p.to_string_lossy().into_owned());
            (s, real)
        }),
        representatives: a.representatives,
        limit: a.limit,
        min_rating: a.min_rating,
        max_rating: a.max_rating,
    }
}

/// `--min-rating`, `--max-rating`: a number from 0, as ratings are written.
pub fn rating_arg(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a rating (a number such as 7.2)")),
    }
}

/// `--format svg` and `--format html`: the selected puzzles drawn.
fn drawn(a: ExportArgs) -> anyhow::Result<u8> {
    if !a.columns.is_empty() {
        anyhow::bail!("--columns is for the row formats; svg and html draw whole puzzles");
    }
    a.db.announce_upgrade(false);
    let archive = Archive::open_existing(&a.db.db)?;
    let filter = filter(&a);
    named_ones_exist(&archive, &filter, &a.db.db.display().to_string())?;
    let layers = Layers {
        candidates: a.candidates,
        solution: a.solution,
    };
    let result = match (a.format, &a.out) {
        (FormatArg::Svg, Some(dir)) => svg_files(&archive, &filter, layers, dir),
        (FormatArg::Svg, None) => {
            anyhow::bail!(
                "--format svg writes one file per puzzle: name their folder with --out DIR"
            )
        }
        (_, Some(file)) => {
            // Written beside, then renamed: a failed export leaves no
            // half a book under the name asked for. Not onto what is not
            // a plain file (`--out /dev/stdout`): that is written to.
            let plain = std::fs::metadata(file).map_or(true, |m| m.is_file());
            let part = if plain { part_path(file) } else { file.clone() };
            let f =
                File::create(&part).with_context(|| format!("cannot create {}", part.display()))?;
            let mut w = BufWriter::with_capacity(1 << 16, f);
            let r = book(&archive, &filter, &a, &mut w)
                .and_then(|n| w.flush().map(|_| n).map_err(ExportError::Write));
            match r {
                Ok(_) if !plain => {}
                Ok(_) => std::fs::rename(&part, file).with_context(|| {
                    format!("cannot rename {} to {}", part.display(), file.display())
                })?,
                Err(e) => {
                    if plain {
                        let _ = std::fs::remove_file(&part);
                    }
                    return Err(
                        anyhow::Error::from(e).context(format!("writing {}", file.display()))
                    );
                }
            }
            Ok(())
        }
        (_, None) => {
            let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            match book(&archive, &filter, &a, &mut out)
                .and_then(|n| out.flush().map(|_| n).map_err(ExportError::Write))
            {
                Ok(_) => Ok(()),
                Err(ExportError::Write(e)) => Err(OutputError::from(e).into()),
                Err(e) => Err(e.into()),
            }
        }
    };
    result.map(|_| 0)
}

/// `path` with `.part` added to its name.
fn part_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".part");
    p.into()
}

/// One `ID.svg` per selected puzzle in `dir`, each written whole (beside,
/// then renamed).
fn svg_files(archive: &Archive, filter: &Filter, layers: Layers, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut drawing = String::with_capacity(1 << 16);
    let mut failed: Option<anyhow::Error> = None;
    let r = export::each(archive, filter, false, |p| {
        let picture = Picture::from_stored(p.kind, p.givens, p.encoding, p.solution, layers)
            .map_err(|e| ExportError::Stored(format!("puzzle {}: {e}", p.id)))?;
        drawing.clear();
        svg::svg(&picture, &mut drawing);
        drawing.push('\n');
        let path = dir.join(format!("{}.svg", p.id));
        let part = part_path(&path);
        let written =
            std::fs::write(&part, drawing.as_bytes()).and_then(|_| std::fs::rename(&part, &path));
        written.map_err(|e| {
            let _ = std::fs::remove_file(&part);
            failed =
                Some(anyhow::Error::from(e).context(format!("cannot write {}", path.display())));
            ExportError::Write(std::io::Error::other("see above"))
        })
    });
    match (r, failed) {
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(e.into()),
        (Ok(_), None) => Ok(()),
    }
}

/// The printable book of the selection into `w`: the puzzles, then (a
/// second pass over the same selection, in the same read) their solutions.
/// Two streamed passes: nothing is kept from one puzzle to the next.
fn book(
    archive: &Archive,
    filter: &Filter,
    a: &ExportArgs,
    w: &mut impl Write,
) -> Result<u64, ExportError> {
    let paper = match a.paper {
        PaperArg::A4 => Paper::A4,
        PaperArg::Letter => Paper::Letter,
    };
    let mut buf = String::with_capacity(1 << 16);
    let title = format!("Puzzles from {}", a.db.db.display());
    let mut book = Book::start(&title, usize::from(a.per_page), paper, &mut buf);
    let flush = |buf: &mut String, w: &mut dyn Write| {
        let r = w.write_all(buf.as_bytes()).map_err(ExportError::Write);
        buf.clear();
        r
    };
    flush(&mut buf, w)?;
    fn caption<'a>(p: &export::Stored<'a>) -> Caption<'a> {
        Caption {
            id: p.id,
            kind: p.kind,
            clues: p.clues,
            source: p.source,
        }
    }
    let layers = Layers {
        candidates: a.candidates,
        solution: false,
    };
    let n = export::in_one_read(archive, || {
        let n = export::each(archive, filter, true, |p| {
            let picture = Picture::from_stored(p.kind, p.givens, p.encoding, None, layers)
                .map_err(|e| ExportError::Stored(format!("puzzle {}: {e}", p.id)))?;
            book.puzzle(&caption(p), &picture, &mut buf);
            flush(&mut buf, w)
        })?;
        book.start_solutions(&mut buf);
        let solutions = Layers {
            candidates: false,
            solution: true,
        };
        export::each(archive, filter, false, |p| {
            let picture = Picture::from_stored(p.kind, p.givens, p.encoding, p.solution, solutions)
                .map_err(|e| ExportError::Stored(format!("puzzle {}: {e}", p.id)))?;
            book.solution(&caption(p), &picture, &mut buf);
            flush(&mut buf, w)
        })?;
        Ok(n)
    })?;
    book.finish(&mut buf);
    flush(&mut buf, w)?;
    Ok(n)
}
