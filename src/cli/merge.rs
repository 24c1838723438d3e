//! `sudoku-archive merge`: other archives folded into one (see
//! [`crate::archive::merge`] for what is kept and the guarantees).
//!
//! SIGINT and SIGTERM stop it as they stop an import ([`super::signals`]):
//! the first ends the merge at the next row, the batch in flight committed
//! and the run recorded `interrupted`; one line on stderr says how far it
//! got, the summary says `interrupted`, and the status is 130 or 143. A
//! second signal kills at once.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args;
use rusqlite::{Connection, OpenFlags};

use super::import::DedupArg;
use super::output::{Out, OutputError, note};
use super::signals::{Interrupt, Signal};
use super::{DbArg, thousands};
use crate::archive::merge::{self, Ended, MergeRun};
use crate::archive::writer::Dedup;
use crate::archive::{Archive, Tuning};
use crate::progress::Progress;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  sudoku-archive merge --db all.sqlite host1.sqlite host2.sqlite
  sudoku-archive merge --db all.sqlite --dedup isomorphs shard-*.sqlite")]
pub struct MergeArgs {
    // Required, unlike other commands' `--db`: a merge into a default
    // `puzzles.sqlite` would make an archive where none was meant.
    /// The archive to merge into (made if there is none).
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// What makes a puzzle a duplicate: the same givens (exact), or also
    /// the same canonical form (isomorphs).
    #[arg(long, value_enum, default_value = "exact")]
    pub dedup: DedupArg,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No progress spinner.
    #[arg(long, short)]
    pub quiet: bool,
    /// Puzzles per batch transaction, in place of the batches that grow
    /// with the archive (for tests of a killed merge).
    #[arg(long, hide = true)]
    pub batch_puzzles: Option<i64>,
    /// Cap the archive at this many pages, as if the disk filled up (for
    /// tests).
    #[arg(long, value_name = "PAGES", hide = true)]
    pub max_pages: Option<u64>,
    /// The archives to merge, in this order; each is only read.
    #[arg(required = true, value_name = "ARCHIVE")]
    pub archives: Vec<PathBuf>,
}

pub fn run(a: MergeArgs) -> anyhow::Result<u8> {
    // First, so that a signal at any point ends the run at a row.
    let interrupt = Interrupt::install();
    // Every input is checked before the output is touched.
    let inputs = a
        .archives
        .iter()
        .map(|p| merge::open_input(p, &a.db))
        .collect::<Result<Vec<_>, _>>()?;
    DbArg { db: a.db.clone() }.announce_upgrade(a.json);
    let tuning = Tuning {
        max_pages: a.max_pages,
        ..Tuning::default()
    };
    // An error after a signal, before the run's row, is a wait it cut short.
    let stopped = |e: anyhow::Error| interrupt.stopped_instead("merge", "merged", e);
    let mut archive = match Archive::open_or_create(&a.db, tuning) {
        Ok(archive) => archive,
        Err(e) => return stopped(e.into()),
    };
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let dedup = match a.dedup {
        DedupArg::Exact => Dedup::Exact,
        DedupArg::Isomorphs => Dedup::Isomorphs,
    };
    // Stopped while the output was opened or upgraded: no run to record.
    if let Some(status) = interrupt.stopped_before("merge", "merged") {
        return Ok(status);
    }
    let mut run = match MergeRun::begin(&mut archive, dedup, &arguments) {
        Ok(run) => run,
        Err(e) => return stopped(e.into()),
    };
    run.batch_puzzles = a.batch_puzzles.map(|n| n.max(1));
    run.stop_on(interrupt.flag());
    let mut result = Ok(Ended::Complete);
    let progress = Progress::spinner(a.quiet);
    for (i, (input, path)) in inputs.iter().zip(&a.archives).enumerate() {
        let doing = format!("merging {} ({} of {})", path.display(), i + 1, inputs.len());
        progress.message(doing.clone());
        let (done, merge_id) = (AtomicBool::new(false), run.merge_id);
        result = std::thread::scope(|s| {
            if progress.is_shown() {
                s.spawn(|| show_counts(&a.db, merge_id, &doing, &progress, &done));
            }
            let r = match run.merge(input) {
                // A batch that could not begin for another process's lock.
                Err(crate::archive::ArchiveError::Stopped) => Ok(Ended::Stopped),
                r => r,
            };
            done.store(true, Ordering::Relaxed);
            r
        });
        progress.message(format!(
            "{doing}: {} rows, {} stored",
            thousands(run.counts.lines),
            thousands(run.counts.stored)
        ));
        if !matches!(result, Ok(Ended::Complete)) {
            break;
        }
    }
    progress.finish();
    let signal = interrupt.record_end(&mut run, result)?;
    if let Some(s) = signal {
        let done = match &run.reached {
            Some(r) => format!(
                "recorded {}, up to {} {} of {}",
                super::output::count_of(run.counts.lines, "row", "rows"),
                r.what,
                r.id,
                r.input.display()
            ),
            None => "stopped before its first row".to_string(),
        };
        note!(
            "sudoku-archive: interrupted by {}: merge {} {done}; running the same command again completes it",
            s.name(),
            run.merge_id,
        );
    }
    let code = signal.map_or(0, Signal::exit_status);
    match summary(&a, inputs.len(), &run, signal.is_some()) {
        // The status stands: the merge is done and recorded.
        Ok(()) | Err(OutputError::Closed) => Ok(code),
        Err(e) => Err(e.into()),
    }
}

/// Until `done`, shows the merge's counts as its batches commit them (its
/// `imports` row, read through a connection of its own).
fn show_counts(db: &Path, merge_id: i64, doing: &str, progress: &Progress, done: &AtomicBool) {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let Ok(conn) = Connection::open_with_flags(db, flags) else {
        return;
    };
    let mut shown = 0;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(COUNTS_EVERY);
        let counts = conn.query_row(
            "SELECT lines, stored FROM imports WHERE id = ?1",
            [merge_id],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)),
        );
        if let Ok((rows, stored)) = counts
            && rows > shown
        {
            shown = rows;
            progress.message(format!(
                "{doing}: {} rows, {} stored",
                thousands(rows.max(0) as u64),
                thousands(stored.max(0) as u64)
            ));
        }
    }
}

/// How often the merge's counts are read while it runs.
const COUNTS_EVERY: Duration = Duration::from_millis(250);

/// Prints the summary on stdout: one JSON object, or a count a line.
fn summary(
    a: &MergeArgs,
    inputs: usize,
    run: &MergeRun,
    interrupted: bool,
) -> Result<(), OutputError> {
    let mut out = Out::stdout();
    let c = run.counts;
    if a.json {
        let summary = serde_json::json!({
            "merge_id": run.merge_id,
            "status": if interrupted { "interrupted" } else { "finished" },
            "lines": c.lines,
            "stored": c.stored,
            "duplicates": c.duplicates,
            "isomorphs": c.isomorphs,
            "rejected": c.rejected,
            "rejects_held": c.skipped,
            "new_imports": run.new_imports,
            "interrupted_runs": run.interrupted,
        });
        writeln!(out, "{summary}")?;
    } else {
        let n = thousands;
        let (what, how) = if interrupted {
            ("merge of", " interrupted")
        } else {
            ("merged", "")
        };
        writeln!(
            out,
            "{what} {} into {} (run {}){how}",
            super::output::count_of(inputs as u64, "archive", "archives"),
            a.db.display(),
            run.merge_id,
        )?;
        writeln!(out, "  stored      {:>12}  (new puzzles)", n(c.stored))?;
        writeln!(
            out,
            "  duplicates  {:>12}  (already held; {} of them as isomorphs)",
            n(c.duplicates),
            n(c.isomorphs)
        )?;
        writeln!(
            out,
            "  rejects     {:>12}  (reject rows new here; {} already held)",
            n(c.rejected),
            n(c.skipped)
        )?;
        writeln!(
            out,
            "  imports     {:>12}  (of the inputs, new here)",
            n(run.new_imports)
        )?;
    }
    out.flush()
}
