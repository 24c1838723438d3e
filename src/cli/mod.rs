//! The command line: argument definitions (clap derive; the doc comments are
//! the help text) and dispatch to one module per subcommand. Everything that
//! prints for people lives under here.

mod check;
mod export;
mod import;
mod show;
mod stats;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::core::puzzle::{PuzzleType, TypeHint};
use crate::input::{ColumnChoice, Origin, framing_for};
use crate::pipeline::Input;

/// Build and query SQLite archives of Sudoku, Killer Sudoku and Str8ts puzzles.
#[derive(Debug, Parser)]
#[command(name = "sudoku-archive", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Import puzzle files into an archive: every line is stored, a duplicate, or rejected with a reason.
    Import(import::ImportArgs),
    /// Run the import checks without an archive; print `file:line: reason` per rejected line.
    Check(check::CheckArgs),
    /// Counts by type and clue count, solution status, imports and rejects.
    Stats(stats::StatsArgs),
    /// Print stored puzzles, one per line.
    Export(export::ExportArgs),
    /// Decode one puzzle string and draw its grid, candidates and solution status.
    Show(show::ShowArgs),
}

/// Exit status: 0 done, 1 `check` found rejects, 2 the command could not run.
pub const EXIT_REJECTS: u8 = 1;
pub const EXIT_FAILURE: u8 = 2;

/// The archive file, shared by the commands that use one.
#[derive(Debug, Args)]
pub struct DbArg {
    /// The archive file.
    #[arg(long, value_name = "FILE", default_value = "puzzles.sqlite")]
    pub db: PathBuf,
}

impl DbArg {
    /// Says on stderr that the archive is about to be upgraded: a schema
    /// step may rebuild a table, which takes a while on a large archive.
    pub fn announce_upgrade(&self, quiet: bool) {
        if let (false, Some((from, to))) = (quiet, crate::archive::pending_upgrade(&self.db)) {
            eprintln!(
                "upgrading {} from schema {from} to {to} (a rebuild may take a few seconds a million puzzles)",
                self.db.display()
            );
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TypeArg {
    /// Recognise each string by its shape or URL.
    Auto,
    Sudoku,
    Killer,
    Str8ts,
}

impl TypeArg {
    pub fn hint(self) -> TypeHint {
        match self {
            TypeArg::Auto => TypeHint::Auto,
            TypeArg::Sudoku => TypeHint::Only(PuzzleType::Sudoku),
            TypeArg::Killer => TypeHint::Only(PuzzleType::Killer),
            TypeArg::Str8ts => TypeHint::Only(PuzzleType::Str8ts),
        }
    }
}

/// How input files are read, shared by `import` and `check`.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input files: text (one puzzle per line) or .csv/.tsv; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Read every input as CSV, whatever its extension.
    #[arg(long)]
    pub csv: bool,
    /// The CSV column holding the puzzles, by header name or 1-based number
    /// (default: a column named puzzle, quizzes, givens, ..., or the first that looks like one).
    #[arg(long, value_name = "NAME|N")]
    pub column: Option<String>,
    /// The puzzle type of every string, or auto to recognise each.
    #[arg(long = "type", value_enum, default_value = "auto")]
    pub kind: TypeArg,
    /// Worker threads (default: one per core). Results never depend on it.
    #[arg(long, short, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

impl InputArgs {
    pub fn inputs(&self) -> Vec<Input> {
        let column = self.column.as_deref().map(ColumnChoice::parse);
        self.files
            .iter()
            .map(|f| {
                let origin = Origin::from_arg(f);
                let framing = framing_for(&origin, self.csv, column.clone());
                Input { origin, framing }
            })
            .collect()
    }

    /// The sum of the inputs' sizes, when every input is a file.
    pub fn total_bytes(&self, inputs: &[Input]) -> Option<u64> {
        inputs.iter().try_fold(0u64, |acc, i| match &i.origin {
            Origin::Path(p) => std::fs::metadata(p).ok().map(|m| acc + m.len()),
            Origin::Stdin => None,
        })
    }
}

/// Runs the parsed command line; errors are printed here, at the edge.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Import(a) => import::run(a),
        Command::Check(a) => check::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Export(a) => export::run(a),
        Command::Show(a) => show::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("sudoku-archive: {}", render(&e));
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// An error and its causes, each said once: a cause whose text the message
/// already holds (an error that prints its source and also returns it) is
/// not repeated.
pub fn render(e: &anyhow::Error) -> String {
    let mut out = e.to_string();
    for cause in e.chain().skip(1) {
        let text = cause.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
    }
    out
}

/// Formats a count with thousands separators, as people read them.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn an_error_that_prints_its_source_is_rendered_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("{file}: {source}")]
        struct Read {
            file: String,
            source: std::io::Error,
        }
        let e = anyhow::Error::new(Read {
            file: "x.txt".into(),
            source: std::io::Error::other("gone"),
        });
        assert_eq!(render(&e), "x.txt: gone");
        let e = anyhow::anyhow!("gone").context("reading x.txt");
        assert_eq!(render(&e), "reading x.txt: gone");
    }

    #[test]
    fn thousands_are_separated() {
        for (n, s) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1234567, "1,234,567"),
        ] {
            assert_eq!(thousands(n), s);
        }
    }
}
