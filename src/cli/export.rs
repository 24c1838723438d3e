//! `sudoku-archive export`: selected puzzles on stdout, one row each, in
//! first-seen order: one string per line by default, or chosen columns as
//! CSV, TSV or NDJSON. The forms (`--form`, and the form columns of
//! `--columns`) come from one list, [`crate::archive::export::FORMS`].

use std::io::{BufWriter, Write};

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, ValueEnum};

use super::DbArg;
use super::output::OutputError;
use crate::archive::Archive;
use crate::archive::export::{self, COLUMN_NAMES, Column, ExportError, FORMS, Filter, Format};
use crate::core::puzzle::PuzzleType;

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
}

fn forms() -> PossibleValuesParser {
    PossibleValuesParser::new(
        FORMS
            .iter()
            .map(|f| PossibleValue::new(f.name).aliases(f.aliases).help(f.help)),
    )
}

#[derive(Debug, Args)]
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
    /// At most this many rows.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// The string form of the puzzles (the `lines` format's default column).
    #[arg(long, value_parser = forms(), default_value = "81")]
    pub form: String,
    /// How rows are written.
    #[arg(long, value_enum, default_value = "lines")]
    pub format: FormatArg,
    /// The columns, comma-separated: id, type, clues, givens, solutions,
    /// solution, canonical, import, file, line (the first line it came
    /// from), sources (how many lines), or a form (81, packed, url, vb).
    /// Default: the --form string for lines, else id,type,clues,FORM,solutions,solution.
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    pub columns: Vec<String>,
}

pub fn run(a: ExportArgs) -> anyhow::Result<u8> {
    let form = export::form(&a.form).ok_or_else(|| anyhow::anyhow!("unknown form {}", a.form))?;
    let format = match a.format {
        FormatArg::Lines => Format::Lines,
        FormatArg::Csv => Format::Csv,
        FormatArg::Tsv => Format::Tsv,
        FormatArg::Ndjson => Format::Ndjson,
    };
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
    a.db.announce_upgrade(false);
    let archive = Archive::open_existing(&a.db.db)?;
    let filter = Filter {
        kind: a.kind.as_deref().and_then(PuzzleType::from_name),
        min_clues: a.clues.or(a.min_clues),
        max_clues: a.clues.or(a.max_clues),
        solutions: a.solutions,
        import: a.import,
        source: a.source.map(|s| {
            let real = std::fs::canonicalize(&s)
                .ok()
                .map(|p| p.to_string_lossy().into_owned());
            (s, real)
        }),
        representatives: a.representatives,
        limit: a.limit,
    };
    named_ones_exist(&archive, &filter, &a.db.db.display().to_string())?;
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut head = String::new();
    export::header(format, &columns, &mut head);
    let result = out
        .write_all(head.as_bytes())
        .map_err(ExportError::Write)
        .and_then(|_| {
            export::export(&archive, &filter, format, &columns, |s| {
                out.write_all(s.as_bytes())
            })
        })
        .and_then(|n| out.flush().map(|_| n).map_err(ExportError::Write));
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
