//! The command line: argument definitions (clap derive; the doc comments are
//! the help text) and dispatch to one module per subcommand. Everything that
//! prints for people lives under here, and prints through `output` (a
//! closed pipe is a quiet stop, never a panic); `signals` turns SIGINT and
//! SIGTERM into a clean stop for the commands that run the pipeline;
//! `huge_pages` starts the process over with huge pages for `malloc`
//! where that makes a large archive's page cache faster.

mod check;
mod explain;
mod export;
mod fill;
mod find;
mod forget;
mod generate;
pub mod huge_pages;
mod import;
mod merge;
mod output;
mod rate;
pub mod show;
mod signals;
mod stats;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::core::puzzle::{PuzzleType, TypeHint};
use crate::input::folder::{self, FolderError, Selection, Unreadable};
use crate::input::{ColumnChoice, Framing, Opened, Origin, binary, framing_for};
use crate::pipeline::Input;
use output::{OutputError, note};

/// Build and query SQLite archives of Sudoku, Killer Sudoku and Str8ts puzzles.
#[derive(Debug, Parser)]
#[command(name = "sudoku-archive", version, about, long_about = None)]
#[command(after_help = "Examples:
  sudoku-archive import --db puzzles.sqlite samples/        import every file under a folder
  sudoku-archive stats --db puzzles.sqlite                  what the archive holds
  sudoku-archive export --db puzzles.sqlite --type killer   the Killer puzzles, one per line
  sudoku-archive find --db puzzles.sqlite STRING            is this puzzle (or an isomorph) stored?
  sudoku-archive show STRING                                draw one puzzle

Run `sudoku-archive COMMAND --help` for a command's flags, `sudoku-archive man` for the manual.")]
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
    /// Print stored puzzles: one string per line, or chosen columns as CSV, TSV or NDJSON.
    Export(export::ExportArgs),
    /// Look puzzle strings up: stored exactly, as an isomorph, or not at all (exit 0 found, 1 none, 2 trouble).
    Find(find::FindArgs),
    /// Fold other archives into one: puzzles deduplicated, every provenance and reject line kept.
    Merge(merge::MergeArgs),
    /// Rate the stored puzzles that have no current rating (classic on Sudoku Explainer's ER, Killer and Str8ts on this tool's own scales), in batches, resumable.
    Rate(rate::RateArgs),
    /// Compute a stored value for the archive's puzzles that lack it (minimal), resumably.
    Fill(fill::FillArgs),
    /// Take an import back: its lines, rejects and file reads go, and the puzzles no other line holds.
    Forget(forget::ForgetArgs),
    /// Decode one puzzle string and draw its grid, candidates and solution status.
    Show(show::ShowArgs),
    /// Solve one classic puzzle step by step as a person would, with each step's rating and the ER/EP/ED of Sudoku Explainer's scale.
    Explain(explain::ExplainArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(generate::CompletionsArgs),
    /// Print the manual page (roff), every command on one page.
    Man(generate::ManArgs),
}

/// Exit status: 0 done, 1 `check` found rejects or `import` more than
/// `--max-rejects`, or an entry of a folder could not be read (the rest
/// were), 2 the command could not run; 128 + the signal's number
/// (130 SIGINT, 143 SIGTERM) when a signal stopped an import or a check.
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
    /// The archive and the files SQLite and the import keep beside it:
    /// never to be read as input.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut out = vec![self.db.clone()];
        for suffix in ["-wal", "-shm", "-journal", "-import-lock"] {
            let mut p = self.db.clone().into_os_string();
            p.push(suffix);
            out.push(p.into());
        }
        out
    }

    /// Says on stderr that the archive is about to be upgraded: a schema
    /// step may rebuild a table, which takes a while on a large archive.
    pub fn announce_upgrade(&self, quiet: bool) {
        if let (false, Some((from, to))) = (quiet, crate::archive::pending_upgrade(&self.db)) {
            note!(
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
    /// Input files: text (one puzzle per line, 9-line grids, or delimited lines) or .csv/.tsv, plain or compressed
    /// (gzip, zstd, xz, bzip2); a folder reads every file under it; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// In folders, read only the files whose path below the folder matches
    /// PATTERN (`*` matches across `/`; repeatable: any may match).
    #[arg(long, value_name = "PATTERN")]
    pub glob: Vec<String>,
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// The puzzle type of every string, or auto to recognise each.
    #[arg(long = "type", value_name = "TYPE", value_enum, default_value = "auto")]
    pub kind: TypeArg,
    /// Worker threads [default: one per core]. At most one per core is
    /// started: the work is all computation, and more only take turns.
    /// Results never depend on it.
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// The name standard input (`-`) goes by, in messages and in the
    /// archive: imports of the same name are one file there.
    #[arg(long, value_name = "NAME", default_value = "-")]
    pub stdin_name: String,
}

/// How the records of a file are told apart, shared by `import`, `check`
/// and `find --file` (the rest is sniffed from the content).
#[derive(Debug, Args)]
pub struct LayoutArgs {
    /// Read every input as CSV, whatever its extension.
    #[arg(long)]
    pub csv: bool,
    /// The CSV column holding the puzzles, by header name or 1-based number
    /// (default: a named column (puzzle, quizzes, givens, ...) that holds
    /// puzzles, else the one that does). Reads the input as delimited records.
    #[arg(long, value_name = "NAME|N")]
    pub column: Option<String>,
    /// The delimiter of delimited records: one character, or `tab`, `space`
    /// (default: sniffed from the content). Reads the input as delimited records.
    #[arg(long, value_name = "CHAR", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,
}

impl LayoutArgs {
    /// How `origin` is read, by its name and these flags.
    pub fn framing(&self, origin: &Origin) -> Framing {
        let column = self.column.as_deref().map(ColumnChoice::parse);
        framing_for(origin, self.csv, self.delimiter, column)
    }
}

/// `--delimiter`: one ASCII character, or `tab` or `space` by name.
fn parse_delimiter(s: &str) -> Result<u8, String> {
    match s {
        "tab" | "\\t" => Ok(b'\t'),
        "space" => Ok(b' '),
        _ if s.len() == 1 && s.is_ascii() && s != "\"" && s != "\n" && s != "\r" => {
            Ok(s.as_bytes()[0])
        }
        _ => Err(format!(
            "{s:?} is not a delimiter: give one character (, ; | ...), or tab or space"
        )),
    }
}

impl InputArgs {
    /// The inputs to read, folders expanded, and the entries of the folders
    /// that could not be read; `exclude` are files never to read (the
    /// archive and its companions, see [`DbArg::files`]).
    pub fn inputs(
        &self,
        exclude: &[PathBuf],
    ) -> Result<(Vec<Input>, Vec<Unreadable>), FolderError> {
        let selection = Selection::new(&self.glob, exclude)?;
        let expanded = folder::expand(&self.files, &selection, &self.stdin_name)?;
        let inputs = expanded
            .origins
            .into_iter()
            .map(|origin| Input {
                framing: self.layout.framing(&origin),
                origin,
            })
            .collect();
        Ok((inputs, expanded.unreadable))
    }

    /// The worker threads to start for `--jobs` (see [`crate::pipeline::workers`]),
    /// saying on stderr, unless `quiet`, when fewer are started than asked.
    pub fn workers(&self, quiet: bool) -> usize {
        let asked = self.jobs.unwrap_or(0);
        let workers = crate::pipeline::workers(asked);
        if asked > workers && !quiet {
            note!(
                "note: --jobs {asked}: starting {workers} worker threads, one per core (more would only take turns)"
            );
        }
        workers
    }

    /// The sum of the inputs' sizes, when every input is a regular file.
    pub fn total_bytes(opened: &[Opened]) -> Option<u64> {
        opened.iter().try_fold(0u64, |acc, o| Some(acc + o.len?))
    }
}

/// The inputs of `args`, folders expanded, opened (each once, before any
/// work), leaving out the `exclude` files; and how many entries of the
/// folders could not be read, each named on stderr as it is left out.
pub fn open_inputs(
    args: &InputArgs,
    exclude: &[PathBuf],
) -> anyhow::Result<(Vec<Input>, Vec<Opened>, usize)> {
    let (inputs, unreadable) = args.inputs(exclude)?;
    for u in &unreadable {
        note!("warning: {u}: left out, the rest of the folder is read");
    }
    let opened = crate::pipeline::open_inputs(&inputs)?;
    // A file named that is plainly not text is refused before anything is
    // written; one found in a folder is left out like an unreadable entry.
    let mut left_out = unreadable.len();
    let mut kept = (
        Vec::with_capacity(inputs.len()),
        Vec::with_capacity(inputs.len()),
    );
    for (input, o) in inputs.into_iter().zip(opened) {
        if let Some(what) = binary::look(&o).map_err(|error| crate::pipeline::OpenError {
            file: input.name(),
            error,
        })? {
            let named = matches!(&input.origin, Origin::Path(p) if args.files.contains(p));
            if named {
                return Err(binary::NotText {
                    file: input.name(),
                    what,
                }
                .into());
            }
            note!(
                "warning: {}: {what}: left out, the rest of the folder is read (--glob chooses the files read)",
                input.name()
            );
            left_out += 1;
            continue;
        }
        kept.0.push(input);
        kept.1.push(o);
    }
    if kept.0.is_empty() {
        anyhow::bail!("no file to read: every file found was left out (see the warnings)");
    }
    Ok((kept.0, kept.1, left_out))
}

/// Parses the process's arguments; `--version` also names the archive
/// schema this build writes and the SQLite it was built with.
pub fn parse() -> Cli {
    use clap::FromArgMatches;
    let matches = generate::command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// `sudoku-archive 0.1.0 (archive schema 12, SQLite 3.50.2)`.
pub fn long_version() -> String {
    format!(
        "{} (archive schema {}, SQLite {})",
        env!("CARGO_PKG_VERSION"),
        crate::archive::schema::VERSION,
        rusqlite::version()
    )
}

/// Runs the parsed command line; errors are printed here, at the edge.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Import(a) => import::run(a),
        Command::Check(a) => check::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Export(a) => export::run(a),
        Command::Find(a) => find::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Fill(a) => fill::run(a),
        Command::Forget(a) => forget::run(a),
        Command::Rate(a) => rate::run(a),
        Command::Show(a) => show::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Completions(a) => generate::completions(a),
        Command::Man(a) => generate::man(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // The reader went away: nothing more to say, and nothing failed.
        Err(e) if matches!(e.downcast_ref(), Some(OutputError::Closed)) => ExitCode::SUCCESS,
        Err(e) => {
            note!("sudoku-archive: {}", render(&e));
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
    fn every_example_in_the_help_parses() {
        let cli = Cli::command();
        let helps = std::iter::once(&cli)
            .chain(cli.get_subcommands())
            .filter_map(|c| c.get_after_help().map(|h| h.to_string()));
        let mut seen = 0;
        for help in helps {
            for line in help.lines().map(str::trim_start) {
                let Some(example) = line.strip_prefix("sudoku-archive ") else {
                    continue;
                };
                // What follows three spaces is a comment; `>` a redirection.
                let example = example.split("   ").next().unwrap_or_default();
                // `&&` chains another command: checked when it is ours.
                let chained = example.split(" && ").skip(1);
                let ours = chained.filter_map(|c| c.strip_prefix("sudoku-archive "));
                for command in
                    std::iter::once(example.split(" && ").next().unwrap_or_default()).chain(ours)
                {
                    let words = command
                        .split_whitespace()
                        .take_while(|w| !w.starts_with('>'));
                    let args = std::iter::once("sudoku-archive").chain(words);
                    if let Err(e) = Cli::try_parse_from(args) {
                        panic!("{line}: {e}");
                    }
                    seen += 1;
                }
            }
        }
        assert!(seen >= 15, "{seen} examples");
    }

    #[test]
    fn every_flag_of_every_command_has_help_text() {
        let cli = Cli::command();
        let mut missing = Vec::new();
        for sub in cli.get_subcommands() {
            for arg in sub.get_arguments() {
                if arg.get_help().is_none() && !arg.is_hide_set() {
                    missing.push(format!("{} --{}", sub.get_name(), arg.get_id()));
                }
            }
        }
        assert!(missing.is_empty(), "flags without help: {missing:?}");
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
