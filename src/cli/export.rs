//! `sudoku-archive export`: selected puzzles, one per line, on stdout.

use std::io::{BufWriter, Write};

use clap::{Args, ValueEnum};

use super::DbArg;
use super::output::OutputError;
use crate::archive::Archive;
use crate::archive::query::{self, ExportError, Filter, Form};
use crate::core::puzzle::PuzzleType;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormArg {
    /// The readable givens (81 characters for classic Sudoku; the identity string for Killer and Str8ts).
    #[value(name = "81", alias = "givens")]
    Givens,
    /// The packed string of the propagated board.
    Packed,
    /// The packed string as a SudokuWiki / str8ts.com URL.
    Url,
    /// The Version B string the sites emit today (S9B, L9B, T9B).
    #[value(name = "vb", alias = "version-b")]
    VersionB,
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
    #[arg(long, value_name = "N")]
    pub min_clues: Option<u32>,
    #[arg(long, value_name = "N")]
    pub max_clues: Option<u32>,
    /// Only puzzles with this solution count (1 unique, 2 two or more).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=2))]
    pub solutions: Option<u8>,
    /// What to print for each puzzle.
    #[arg(long, value_enum, default_value = "81")]
    pub form: FormArg,
}

pub fn run(a: ExportArgs) -> anyhow::Result<u8> {
    a.db.announce_upgrade(false);
    let archive = Archive::open_existing(&a.db.db)?;
    let filter = Filter {
        kind: a.kind.filter(|k| PuzzleType::from_name(k).is_some()),
        min_clues: a.clues.or(a.min_clues),
        max_clues: a.clues.or(a.max_clues),
        solutions: a.solutions,
    };
    let form = match a.form {
        FormArg::Givens => Form::Givens,
        FormArg::Packed => Form::Packed,
        FormArg::Url => Form::Url,
        FormArg::VersionB => Form::VersionB,
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let result = query::export(&archive, &filter, form, |s| writeln!(out, "{s}"))
        .and_then(|n| out.flush().map(|_| n).map_err(ExportError::Write));
    match result {
        Ok(_) => Ok(0),
        // `export | head` closing the pipe early is a normal way to stop.
        Err(ExportError::Write(e)) => Err(OutputError::from(e).into()),
        Err(e) => Err(e.into()),
    }
}
