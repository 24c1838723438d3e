//! `sudoku-archive fill VALUE`: computes a stored value for the puzzles
//! of an existing archive that do not have it yet, on all cores, committed
//! in batches and recorded as a run. A killed fill leaves whole batches and
//! the next one resumes it; SIGINT and SIGTERM stop it as they stop an
//! import ([`super::signals`]). Each value is a [`Pass`]: what the archive
//! stores ([`Filled`], owned by `archive::puzzle_row`) and the pure work
//! that computes it for one stored puzzle.

use clap::Args;

use super::output::{Out, OutputError, count_of, note};
use super::signals::{Interrupt, Signal};
use super::{DbArg, thousands};
use crate::archive::fill::{FillWriter, Filled, Unfilled, unfilled_count};
use crate::archive::puzzle_row::MINIMAL_FILLED;
use crate::archive::{Archive, ArchiveError, Found, Tuning, inspect};
use crate::core::puzzle::PuzzleType;
use crate::pipeline::pass::{self, Writer};
use crate::pipeline::{Ended, RunError};
use crate::progress::Progress;
use crate::record::{StoredPuzzle, Value, Values};

/// A pass over stored puzzles: the value it fills in, and the work that
/// computes it for one puzzle (pure; run on the workers).
pub struct Pass {
    pub filled: &'static Filled,
    pub work: fn(&StoredPuzzle) -> Values,
}

/// Every value `fill` knows, by [`Filled::name`].
pub const PASSES: &[Pass] = &[Pass {
    filled: &MINIMAL_FILLED,
    work: minimal,
}];

/// `minimal`: 1 when no single given of a uniquely solvable classic
/// puzzle can be removed with its solution staying unique, else 0.
fn minimal(p: &StoredPuzzle) -> Values {
    if p.kind != PuzzleType::Sudoku || p.solutions != 1 {
        return None;
    }
    let minimal = crate::core::sudoku::is_minimal_str(&p.givens)?;
    Some(vec![Value::Int(i64::from(minimal))])
}

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  sudoku-archive fill minimal --db puzzles.sqlite    whether each classic puzzle is minimal")]
pub struct FillArgs {
    /// The value to compute: minimal (whether no single given of a uniquely
    /// solvable classic puzzle can be removed).
    #[arg(value_name = "VALUE", value_parser = pass_names())]
    pub value: String,
    #[command(flatten)]
    pub pass: PassArgs,
}

/// The flags every pass over the stored puzzles takes (`fill`, `rate`).
#[derive(Debug, Args)]
pub struct PassArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Worker threads [default: one per core]. Results never depend on it.
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Puzzles per batch transaction, in place of the archive's batches
    /// (for tests of a killed run).
    #[arg(long, hide = true)]
    pub batch_puzzles: Option<usize>,
}

fn pass_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(PASSES.iter().map(|p| p.filled.name))
}

/// Hands the writer's work on and draws how far it got.
struct Drawn<'w, 'a> {
    writer: &'w mut FillWriter<'a>,
    progress: &'w Progress,
}

impl Writer<StoredPuzzle, Values> for Drawn<'_, '_> {
    type Error = ArchiveError;

    fn write(&mut self, items: &[StoredPuzzle], outs: &[Values]) -> Result<(), ArchiveError> {
        self.writer.write(items, outs)?;
        self.progress.position(self.writer.counts.lines);
        Ok(())
    }

    fn deadline(&self) -> Option<std::time::Instant> {
        self.writer.deadline()
    }

    fn idle(&mut self) -> Result<(), ArchiveError> {
        self.writer.idle()
    }
}

pub fn run(a: FillArgs) -> anyhow::Result<u8> {
    let interrupt = Interrupt::install();
    let Some(pass) = PASSES.iter().find(|p| p.filled.name == a.value) else {
        anyhow::bail!("no value named {:?} to fill", a.value);
    };
    let path = &a.pass.db.db;
    match inspect(path)? {
        Found::Archive { .. } => {}
        Found::Nothing => return Err(ArchiveError::Missing { path: path.clone() }.into()),
        Found::Empty { wal_missing } => {
            return Err(ArchiveError::Empty {
                path: path.clone(),
                wal_missing,
            }
            .into());
        }
    }
    a.pass.db.announce_upgrade(a.pass.quiet || a.pass.json);
    let what = format!("filled ({})", pass.filled.name);
    let stopped = |e: anyhow::Error| interrupt.stopped_instead("fill", &what, e);
    let archive = match Archive::open_or_create(path, Tuning::default()) {
        Ok(archive) => archive,
        Err(e) => return stopped(e.into()),
    };
    if let Some(status) = interrupt.stopped_before("fill", &what) {
        return Ok(status);
    }
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let mut writer = match FillWriter::begin(&archive, pass.filled, &arguments) {
        Ok(writer) => writer,
        Err(e) => return stopped(e.into()),
    };
    if let Some(n) = a.pass.batch_puzzles {
        writer.fixed_batches(n);
    }
    let outcome = fill(&a, pass, &archive, &mut writer, &interrupt);
    let outcome = match outcome {
        // A batch that could not begin for another process's lock: a stop.
        Err(RunError::Sink(ArchiveError::Stopped)) => Ok(Ended::Stopped),
        o => o,
    };
    let signal = interrupt.record_end(&mut writer, outcome)?;
    if let Some(s) = signal {
        note!(
            "sudoku-archive: interrupted by {}: fill {} computed {}; running the same command again completes it",
            s.name(),
            writer.run_id(),
            count_of(writer.counts.lines, "puzzle", "puzzles"),
        );
    }
    let code = signal.map_or(0, Signal::exit_status);
    match summary(&a, pass, &writer, signal.is_some()) {
        Ok(()) | Err(OutputError::Closed) => Ok(code),
        Err(e) => Err(e.into()),
    }
}

/// The pass itself: the archive's puzzles without the value, through the
/// workers, into the writer.
fn fill(
    a: &FillArgs,
    pass: &Pass,
    archive: &Archive,
    writer: &mut FillWriter<'_>,
    interrupt: &Interrupt,
) -> Result<Ended, RunError<ArchiveError>> {
    let total = unfilled_count(archive, pass.filled).map_err(RunError::Sink)?;
    let source = Unfilled::open(&a.pass.db.db, pass.filled, 0).map_err(RunError::Sink)?;
    let progress = Progress::things(total, a.pass.quiet || a.pass.json);
    let opts = pass::Options {
        jobs: crate::pipeline::workers(a.pass.jobs.unwrap_or(0)),
        stop: Some(interrupt.flag()),
    };
    let mut drawn = Drawn {
        writer,
        progress: &progress,
    };
    let ended = pass::run(source, pass.work, &opts, &mut drawn);
    progress.finish();
    ended
}

fn summary(
    a: &FillArgs,
    pass: &Pass,
    writer: &FillWriter<'_>,
    interrupted: bool,
) -> Result<(), OutputError> {
    let mut out = Out::stdout();
    let c = writer.counts;
    let status = if interrupted {
        "interrupted"
    } else {
        "finished"
    };
    if a.pass.json {
        let summary = serde_json::json!({
            "run_id": writer.run_id(),
            "value": pass.filled.name,
            "status": status,
            "puzzles": c.lines,
            "filled": c.stored,
            "seconds": writer.elapsed(),
        });
        writeln!(out, "{summary}")?;
    } else {
        writeln!(
            out,
            "fill {} of {} (run {}){}",
            pass.filled.name,
            a.pass.db.db.display(),
            writer.run_id(),
            if interrupted { " interrupted" } else { "" }
        )?;
        writeln!(out, "  computed    {:>12}  (puzzles)", thousands(c.lines))?;
        writeln!(
            out,
            "  filled      {:>12}  (values stored; the rest could not be told)",
            thousands(c.stored)
        )?;
    }
    out.flush()
}
