//! `sudoku-archive forget --import N`: an import taken back (see
//! [`crate::archive::forget`] for what goes, what stays and what is
//! refused); prints what went, or with `--dry-run` what would.

use std::path::PathBuf;

use clap::Args;

use super::output::{Out, count_of};
use super::thousands;
use crate::archive::forget::{self, Forgotten};
use crate::archive::{Archive, Tuning};

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  sudoku-archive stats --db puzzles.sqlite                        the imports, by number
  sudoku-archive forget --db puzzles.sqlite --import 7 --dry-run   what taking import 7 back would remove
  sudoku-archive forget --db puzzles.sqlite --import 7            take it back

Afterwards the archive holds what it would hold had import 7 never run: its provenance lines,
rejects and file reads go, and so do the puzzles no other import's line holds (a puzzle another
import also holds stays, as that import's). All of it is one transaction: a kill leaves the
archive as it was. Refused while an import or merge runs on the archive, for a merge run (forget
the imports it brought in instead), and where the archive cannot be put back exactly (a later
import read the same file again: forget that one first).")]
pub struct ForgetArgs {
    // Required, like merge's: forgetting from a default archive by
    // accident is not something to make easy.
    /// The archive to take the import out of.
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// The number of the import to take back (the `id` of `stats` and of
    /// the `imports` table).
    #[arg(long = "import", value_name = "N")]
    pub import: i64,
    /// Say what would go, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: ForgetArgs) -> anyhow::Result<u8> {
    // Refuses a missing or empty archive as every reading command does,
    // then opens it for writing (which also upgrades it).
    drop(Archive::open_existing(&a.db)?);
    let archive = Archive::open_or_create(&a.db, Tuning::default())?;
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let done = forget::forget(&archive, a.import, &arguments, a.dry_run)?;
    summary(&a, &done)?;
    Ok(0)
}

/// The summary on stdout: one JSON object, or a count a line.
fn summary(a: &ForgetArgs, f: &Forgotten) -> Result<(), super::output::OutputError> {
    let mut out = Out::stdout();
    if a.json {
        let summary = serde_json::json!({
            "import": a.import,
            "dry_run": a.dry_run,
            "run": (!a.dry_run).then_some(f.run),
            "files": f.files,
            "file_reads": f.reads,
            "sources": f.sources,
            "rejects": f.rejects,
            "puzzles_removed": f.puzzles,
            "puzzles_kept": f.kept,
        });
        writeln!(out, "{summary}")?;
        return out.flush();
    }
    let n = thousands;
    if a.dry_run {
        writeln!(
            out,
            "forgetting import {} from {} would take out (nothing was changed):",
            a.import,
            a.db.display()
        )?;
    } else {
        writeln!(
            out,
            "forgot import {} of {} (run {})",
            a.import,
            a.db.display(),
            f.run
        )?;
    }
    writeln!(
        out,
        "  lines       {:>12}  (provenance lines of {})",
        n(f.sources),
        count_of(f.files, "file", "files")
    )?;
    writeln!(out, "  rejects     {:>12}", n(f.rejects))?;
    writeln!(out, "  file reads  {:>12}", n(f.reads))?;
    writeln!(
        out,
        "  puzzles     {:>12}  (no other line held them; {} that other imports hold stay)",
        n(f.puzzles),
        n(f.kept)
    )?;
    out.flush()
}
