//! `sudoku-archive rate`: rates the stored puzzles that have no current
//! rating (see [`crate::archive::rating`] for which, and the guarantees),
//! with a progress bar, and says what it did.
//!
//! SIGINT and SIGTERM stop it as they stop an import ([`super::signals`]):
//! the first ends the run before the next puzzle, what was rated committed
//! and the run recorded `interrupted`; the status is 130 or 143 and running
//! the same command again goes on. A second signal kills at once.

use clap::Args;

use super::fill::PassArgs;
use super::output::{Out, OutputError, count_of, note};
use super::signals::{Interrupt, Signal};
use super::thousands;
use crate::archive::rating::{self, RateRun};
use crate::archive::{Archive, Tuning};
use crate::progress::Progress;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  sudoku-archive rate --db puzzles.sqlite        rate what has no current rating
  sudoku-archive rate --db puzzles.sqlite --jobs 1 --quiet   one core, no progress bar

Import does not rate; a nightly job chains the two:
  sudoku-archive import --db puzzles.sqlite new/ && sudoku-archive rate --db puzzles.sqlite

Rates each stored puzzle with exactly one solution (classic Sudoku on Sudoku Explainer's scale,
Killer and Str8ts on this tool's own, docs/difficulty.md) that has no rating of the current rater yet: archives made before
ratings, puzzles imported since, and ratings of an older rater. Batches are committed as they
are rated: a kill loses at most the batch in flight, and the same command goes on from there.")]
pub struct RateArgs {
    #[command(flatten)]
    pub pass: PassArgs,
}

pub fn run(a: RateArgs) -> anyhow::Result<u8> {
    // First, so that a signal at any point ends the run at a puzzle.
    let interrupt = Interrupt::install();
    // Refuses a missing or empty archive as every reading command does,
    // then opens it for writing (which also upgrades it).
    drop(Archive::open_existing(&a.pass.db.db)?);
    a.pass.db.announce_upgrade(a.pass.quiet || a.pass.json);
    let stopped = |e: anyhow::Error| interrupt.stopped_instead("rating run", "rated", e);
    let archive = match Archive::open_or_create(&a.pass.db.db, Tuning::default()) {
        Ok(archive) => archive,
        Err(e) => return stopped(e.into()),
    };
    let jobs = crate::pipeline::workers(a.pass.jobs.unwrap_or(0));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    if let Some(status) = interrupt.stopped_before("rating run", "rated") {
        return Ok(status);
    }
    let todo = rating::count_unrated(&archive.conn)?;
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let mut run = match RateRun::begin(&archive, &arguments) {
        Ok(run) => run,
        Err(e) => return stopped(e.into()),
    };
    if let Some(n) = a.pass.batch_puzzles {
        run.batch = n.max(1);
    }
    run.stop_on(interrupt.flag());
    let progress = Progress::things(todo, a.pass.quiet || a.pass.json);
    let started = std::time::Instant::now();
    let result = run.rate(&pool, |n| {
        progress.position(n);
        progress.message(format!("{} of {} rated", thousands(n), thousands(todo)));
    });
    progress.finish();
    let seconds = started.elapsed().as_secs_f64();
    let signal = interrupt.record_end(&mut run, result)?;
    if let Some(s) = signal {
        note!(
            "sudoku-archive: interrupted by {}: rating run {} rated {} of {}; running the same command again goes on",
            s.name(),
            run.id,
            thousands(run.rated),
            thousands(todo)
        );
    }
    let code = signal.map_or(0, Signal::exit_status);
    match summary(&a, &run, todo, seconds, signal.is_some()) {
        Ok(()) | Err(OutputError::Closed) => Ok(code),
        Err(e) => Err(e.into()),
    }
}

/// The summary on stdout: one JSON object, or a count a line.
fn summary(
    a: &RateArgs,
    run: &RateRun,
    todo: u64,
    seconds: f64,
    interrupted: bool,
) -> Result<(), OutputError> {
    let mut out = Out::stdout();
    let left = todo.saturating_sub(run.rated + run.failed);
    if a.pass.json {
        let summary = serde_json::json!({
            "archive": a.pass.db.db.display().to_string(),
            "run": run.id,
            "status": if interrupted { "interrupted" } else { "finished" },
            "to_rate": todo,
            "rated": run.rated,
            "not_rated": run.failed,
            "not_rated_first": run.failed_ids,
            "left": left,
            "interrupted_runs": run.interrupted,
        });
        writeln!(out, "{summary}")?;
        return out.flush();
    }
    let how = if interrupted { " (interrupted)" } else { "" };
    writeln!(
        out,
        "rated {} of {} (run {}){how}",
        count_of(run.rated, "puzzle", "puzzles"),
        a.pass.db.db.display(),
        run.id
    )?;
    if run.failed > 0 {
        let ids: Vec<String> = run.failed_ids.iter().map(i64::to_string).collect();
        writeln!(
            out,
            "  {} the rater found no solution for, left unrated: puzzle {}{}",
            count_of(run.failed, "puzzle", "puzzles"),
            ids.join(", "),
            if run.failed > ids.len() as u64 {
                ", ..."
            } else {
                ""
            }
        )?;
    }
    if left > 0 {
        writeln!(
            out,
            "  {} still to rate: run the same command again",
            thousands(left)
        )?;
    }
    // Not for the tests' snapshots: the time varies.
    if !a.pass.quiet && !a.pass.json && run.rated > 0 && seconds > 0.0 {
        note!(
            "{:.2} s, {} puzzles/s",
            seconds,
            thousands((run.rated as f64 / seconds) as u64)
        );
    }
    out.flush()
}
