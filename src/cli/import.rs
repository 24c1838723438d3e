//! `sudoku-archive import`: run the pipeline into an archive and report what
//! became of every line.
//!
//! The exit status is decided by the run, before anything is printed (0
//! completed, 1 more rejects than `--max-rejects`, 130 or 143 a signal, 2
//! failed) and printing cannot change it. Files an earlier finished import
//! read in full are skipped unread unless `--reread`. The progress bar is
//! drawn here, never by the archive. In full: docs/architecture.md "Module
//! notes".

use std::fmt::Write as _;
use std::str::FromStr;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use super::output::{Out, OutputError, count_of, note};
use super::signals::{Interrupt, Signal};
use super::{DbArg, EXIT_REJECTS, InputArgs, thousands};
use crate::archive::lock::Killed;
use crate::archive::writer::{Counts, Dedup, ImportWriter, Plan};
use crate::archive::{Archive, ArchiveError, Tuning};
use crate::input::{Content, Framing, Identity, Origin, content_of};
use crate::pipeline::{self, Input, Options, Processed, RunError, Settings, Sink, Stored};
use crate::progress::Progress;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  sudoku-archive import samples/*.txt samples/*.csv      into ./puzzles.sqlite
  sudoku-archive import --db all.sqlite downloads/       every file under a folder
  sudoku-archive import --dedup isomorphs feed.csv.gz    relabelled copies are duplicates too
  zcat feed.gz | sudoku-archive import --stdin-name feed -
  sudoku-archive import --silent --max-rejects 1% nightly/   for cron: quiet unless something is wrong")]
pub struct ImportArgs {
    #[command(flatten)]
    pub db: DbArg,
    #[command(flatten)]
    pub input: InputArgs,
    /// What counts as a duplicate: the same givens (exact), or also any
    /// relabelled, permuted or rotated form of a stored puzzle (isomorphs).
    #[arg(long, value_enum, default_value = "exact")]
    pub dedup: DedupArg,
    /// Skip computing canonical forms (faster; `--dedup isomorphs` fills them in later).
    #[arg(long, conflicts_with = "dedup")]
    pub no_canonical: bool,
    /// Print the summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Exit with status 1 if more lines were rejected than this: a count
    /// (`100`) or a share of the lines read (`0.5%`). The run is still
    /// completed, recorded and summarised.
    #[arg(long, value_name = "N|P%")]
    pub max_rejects: Option<RejectLimit>,
    /// For cron: print nothing at all if the import succeeds (exit status
    /// 0); otherwise print everything, the summary on stderr. Implies --quiet.
    #[arg(long)]
    pub silent: bool,
    /// Read every file, even one whose content was imported in full before
    /// (by default such a file is skipped unread: same size, same hash).
    #[arg(long)]
    pub reread: bool,
    /// The most the SQLite page cache may grow to, in MiB: bounds memory.
    /// It starts at 256 and grows by 40 a million puzzles in the archive,
    /// so that big archives stay fast; lookups of stored puzzles (re-runs)
    /// use half as much again. Default: a quarter of the machine's memory.
    #[arg(long, value_name = "MIB")]
    pub cache_mib: Option<u32>,
    /// Cap the archive at this many pages, as if the disk filled up (for tests).
    #[arg(long, value_name = "PAGES", hide = true)]
    pub max_pages: Option<u64>,
    /// Size batches and cache as if the archive held this many more
    /// puzzles (for tests of a large archive's batches).
    #[arg(long, value_name = "N", hide = true, default_value_t = 0)]
    pub assume_puzzles: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DedupArg {
    Exact,
    Isomorphs,
}

/// `--max-rejects`: the most rejected lines an import may have and succeed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RejectLimit {
    Count(u64),
    /// Percent of the lines read.
    Percent(f64),
}

impl FromStr for RejectLimit {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.strip_suffix('%') {
            Some(p) => match p.trim().parse::<f64>() {
                Ok(v) if (0.0..=100.0).contains(&v) => Ok(RejectLimit::Percent(v)),
                _ => Err(format!("{s:?} is not a share from 0% to 100%")),
            },
            None => s
                .trim()
                .parse::<u64>()
                .map(RejectLimit::Count)
                .map_err(|_| format!("{s:?} is neither a count (100) nor a share (0.5%)")),
        }
    }
}

impl std::fmt::Display for RejectLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RejectLimit::Count(n) => write!(f, "{n}"),
            RejectLimit::Percent(p) => write!(f, "{p}%"),
        }
    }
}

impl RejectLimit {
    /// Whether `c` rejected more lines than the limit allows.
    pub fn exceeded_by(self, c: &Counts) -> bool {
        match self {
            RejectLimit::Count(n) => c.rejected > n,
            RejectLimit::Percent(p) => c.rejected as f64 > p / 100.0 * c.lines as f64,
        }
    }
}

#[derive(Debug, serde::Serialize)]
struct Summary<'a> {
    archive: String,
    import_id: i64,
    /// `finished`, or `interrupted` when a signal stopped the run.
    status: &'static str,
    /// Whether more lines were rejected than `--max-rejects` allows.
    max_rejects_exceeded: bool,
    /// Earlier imports found killed, marked `interrupted` by this one.
    interrupted_imports: &'a [i64],
    files: Vec<String>,
    /// Files left unread: their content was imported in full before.
    unchanged_files: usize,
    /// Entries of the folders that could not be read, and were left out.
    unreadable_entries: usize,
    #[serde(flatten)]
    counts: Counts,
    seconds: f64,
    /// Puzzles (stored and duplicates; not rejected nor skipped lines).
    puzzles_per_second: f64,
    lines_per_second: f64,
    /// Peak resident memory of this process, where the OS tells it.
    peak_rss_kib: Option<u64>,
    first_rejects: &'a [String],
    /// How each file read was understood.
    layouts: Vec<FileLayout>,
}

/// What the reader understood of one file.
#[derive(Debug, serde::Serialize)]
pub struct FileLayout {
    pub file: String,
    /// `9-line grids`, `krazydad Killer CSV, columns puzz_color + puzz_hint`, ...
    pub layout: String,
}

/// Per file, the layout each input was read as (the last a chunk said).
pub fn note_layout(layouts: &mut Vec<Option<String>>, p: &Processed) {
    if let Some(l) = &p.chunk.layout {
        if layouts.len() <= p.input {
            layouts.resize(p.input + 1, None);
        }
        if layouts[p.input].as_ref() != Some(l) {
            layouts[p.input] = Some(l.clone());
        }
    }
}

/// The lines that say how the files were read: one a file for a few files,
/// else one a layout with its number of files.
pub fn layout_lines(layouts: &[FileLayout]) -> Vec<String> {
    if layouts.len() <= 10 {
        return layouts
            .iter()
            .map(|l| format!("{}: {}", l.file, l.layout))
            .collect();
    }
    let mut by: Vec<(&str, u64)> = Vec::new();
    for l in layouts {
        match by.iter_mut().find(|(k, _)| *k == l.layout) {
            Some((_, n)) => *n += 1,
            None => by.push((&l.layout, 1)),
        }
    }
    by.iter()
        .map(|(k, n)| format!("{k}: {}", count_of(*n, "file", "files")))
        .collect()
}

/// The archive writer as the pipeline's sink, drawing the progress bar
/// from what it reports after each chunk: storage counts, the CLI draws.
struct Drawn<'w, 'a> {
    writer: &'w mut ImportWriter<'a>,
    progress: &'w mut Progress,
    /// Size of the input being read, added to the bar's base when it ends.
    current_len: u64,
    /// How each input was understood, by its index in the run.
    layouts: Vec<Option<String>>,
}

impl Sink for Drawn<'_, '_> {
    type Error = ArchiveError;

    fn begin_input(
        &mut self,
        index: usize,
        input: &Input,
        len: Option<u64>,
    ) -> Result<(), ArchiveError> {
        if index > 0 {
            self.progress.input_done(self.current_len);
        }
        self.current_len = len.unwrap_or(0);
        self.writer.begin_input(index, input, len)
    }

    fn write(&mut self, inputs: &[Input], p: &Processed) -> Result<(), ArchiveError> {
        self.writer.write(inputs, p)?;
        note_layout(&mut self.layouts, p);
        if inputs.get(p.input).is_some() {
            let c = self.writer.counts;
            self.progress
                .update(p.chunk.offset, c.lines, c.stored + c.duplicates);
        }
        Ok(())
    }

    fn end_input(
        &mut self,
        index: usize,
        input: &Input,
        content: Option<Content>,
    ) -> Result<(), ArchiveError> {
        self.writer.end_input(index, input, content)
    }

    fn deadline(&self) -> Option<std::time::Instant> {
        self.writer.deadline()
    }

    fn idle(&mut self) -> Result<(), ArchiveError> {
        self.writer.idle()
    }
}

/// Why the files of an import could not be planned.
#[derive(Debug, thiserror::Error)]
enum PlanError {
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error("{file}: {source}")]
    Input {
        file: String,
        source: std::io::Error,
    },
}

/// Before anything is read: each input's identity, and the content of
/// those whose content an earlier finished import read completely, read
/// the same way (unless `reread`). A file's size is compared first
/// (cheap), then the whole file is hashed (the proof; a timestamp never
/// is). The files are hashed before the write lock is taken, so a
/// concurrent import waits only for the few rows the plan writes.
fn unchanged_inputs(
    writer: &ImportWriter<'_>,
    inputs: &[Input],
    settings: Settings,
    reread: bool,
) -> Result<(Vec<Identity>, Vec<Option<Content>>), PlanError> {
    let mut identities = Vec::with_capacity(inputs.len());
    let mut unchanged = Vec::with_capacity(inputs.len());
    for input in inputs {
        let failed = |source| PlanError::Input {
            file: input.name(),
            source,
        };
        let identity = input.origin.identity().map_err(failed)?;
        let same = match (&input.origin, reread) {
            (Origin::Path(path), false) => {
                let meta = std::fs::metadata(path).map_err(failed)?;
                // A pipe or a device is known only by reading it, which consumes it.
                let hashes = match meta.is_file() {
                    true => writer.complete_reads(
                        &identity,
                        &input.name(),
                        meta.len(),
                        &input.framing,
                        settings,
                    )?,
                    false => Default::default(),
                };
                if hashes.is_empty() {
                    None
                } else {
                    let content = content_of(path).map_err(failed)?;
                    (content.bytes == meta.len() && hashes.contains(&content.hash_hex()))
                        .then_some(content)
                }
            }
            _ => None,
        };
        identities.push(identity);
        unchanged.push(same);
    }
    Ok((identities, unchanged))
}

pub fn run(a: ImportArgs) -> anyhow::Result<u8> {
    // First, so that a signal at any point ends the run at a chunk boundary.
    let interrupt = Interrupt::install();
    let quiet = a.input.quiet || a.silent;
    // Until the run's row is written, an error after a signal is the
    // signal's doing (a wait it cut short): said as a stop before the run.
    let stopped = |e: anyhow::Error| interrupt.stopped_instead("import", "imported", e);
    let (inputs, opened, unreadable) = match super::open_inputs(&a.input, &a.db.files()) {
        Ok(o) => o,
        Err(e) => return stopped(e),
    };
    a.db.announce_upgrade(quiet);
    let tuning = Tuning {
        cache_mib: a
            .cache_mib
            .unwrap_or_else(crate::archive::default_cache_mib),
        max_pages: a.max_pages,
        assume_puzzles: a.assume_puzzles,
    };
    let mut archive = match Archive::open_or_create(&a.db.db, tuning) {
        Ok(archive) => archive,
        Err(e) => return stopped(e.into()),
    };
    let mut progress = Progress::new(InputArgs::total_bytes(&opened), quiet);
    let arguments: Vec<String> = std::env::args().collect();
    let dedup = match a.dedup {
        DedupArg::Exact => Dedup::Exact,
        DedupArg::Isomorphs => Dedup::Isomorphs,
    };
    // The workers' lookup connections share half the writer's cache: a
    // re-run, where they matter, writes little.
    let workers = a.input.workers(quiet);
    let lookup_cache_kib = archive.scale()?.cache_mib * 1024 / 2 / workers.max(1) as u64;
    let stored = archive
        .stored_puzzles(a.dedup == DedupArg::Isomorphs, lookup_cache_kib)?
        .map(|s| Arc::new(s) as Arc<dyn Stored>);
    // Stopped while the archive was opened or upgraded: no run to record.
    if let Some(status) = interrupt.stopped_before("import", "imported") {
        return Ok(status);
    }
    let mut writer = match ImportWriter::begin(&mut archive, dedup, &arguments) {
        Ok(writer) => writer,
        Err(e) => return stopped(e.into()),
    };
    let settings = Settings {
        hint: a.input.kind.hint(),
        canonical: !a.no_canonical,
    };
    let planned = unchanged_inputs(&writer, &inputs, settings, a.reread).and_then(
        |(identities, unchanged)| Ok(writer.plan(&inputs, &identities, &unchanged, settings)?),
    );
    let (plan, planned) = match planned {
        Ok(plan) => (plan, true),
        // Stopped while hashing files ahead (or waiting for the lock):
        // nothing read yet, the run ends `interrupted` before its first line.
        Err(_) if interrupt.raised() => (Plan::default(), false),
        Err(e) => {
            progress.finish();
            writer.finish(Some(&e.to_string()))?;
            return Err(e.into());
        }
    };
    progress.input_done(plan.unchanged_bytes);
    let opts = Options {
        settings,
        jobs: workers,
        stored,
        stop: Some(interrupt.flag()),
    };
    // The handles of the files to read; those of unchanged files close here.
    // (The plan's indices are in ascending order: one walk takes them.)
    let mut read = plan.read_index.iter().copied().peekable();
    let opened: Vec<_> = opened
        .into_iter()
        .enumerate()
        .filter(|(i, _)| read.next_if_eq(i).is_some())
        .map(|(_, o)| o)
        .collect();
    let mut drawn = Drawn {
        writer: &mut writer,
        progress: &mut progress,
        current_len: 0,
        layouts: Vec::new(),
    };
    let outcome = match planned.then(|| pipeline::run(&plan.read, opened, &opts, &mut drawn)) {
        None => Ok(pipeline::Ended::Stopped),
        // A batch that could not begin for another process's lock: a stop.
        Some(Err(RunError::Sink(ArchiveError::Stopped))) => Ok(pipeline::Ended::Stopped),
        Some(outcome) => outcome,
    };
    let layouts = drawn.layouts;
    progress.finish();
    if let Err(RunError::Read { file, .. }) = &outcome {
        // What the file's read wrote may be garbage decoded before its
        // checksum failed, or lines of a file that changed under it.
        let lines = writer.discard_read()?;
        if lines > 0 {
            note!(
                "sudoku-archive: the {} read from {file} {} taken back out of the archive",
                count_of(lines, "line", "lines"),
                if lines == 1 { "was" } else { "were" }
            );
        }
    }
    let signal = interrupt.record_end(&mut writer, outcome)?;
    let c = writer.counts;
    let exceeded = a.max_rejects.is_some_and(|m| m.exceeded_by(&c));
    let code = match (signal, exceeded || unreadable > 0) {
        (Some(s), _) => s.exit_status(),
        (None, true) => EXIT_REJECTS,
        (None, false) => 0,
    };
    if a.silent && code == 0 {
        return Ok(0);
    }
    let ended = Ended {
        signal,
        exceeded,
        unreadable,
    };
    match report(&a, &inputs, &plan, &writer, &layouts, ended) {
        // The status stands: the archive work is done and recorded.
        Ok(()) | Err(OutputError::Closed) => Ok(code),
        Err(e) => Err(e.into()),
    }
}

/// How a run ended, besides its counts: what the summary and the status say.
#[derive(Clone, Copy)]
struct Ended {
    signal: Option<Signal>,
    exceeded: bool,
    /// Entries of the folders that could not be read (named on stderr).
    unreadable: usize,
}

/// Prints the summary (on stdout; on stderr with `--silent`) and the notes
/// on stderr.
fn report(
    a: &ImportArgs,
    inputs: &[Input],
    plan: &Plan,
    writer: &ImportWriter,
    layouts: &[Option<String>],
    ended: Ended,
) -> Result<(), OutputError> {
    let Ended {
        signal,
        exceeded,
        unreadable,
    } = ended;
    let seconds = writer.elapsed();
    let c = writer.counts;
    let puzzles = c.stored + c.duplicates;
    let summary = Summary {
        archive: a.db.db.display().to_string(),
        import_id: writer.import_id,
        status: if signal.is_some() {
            "interrupted"
        } else {
            "finished"
        },
        max_rejects_exceeded: exceeded,
        interrupted_imports: &writer.interrupted,
        files: inputs.iter().map(|i| i.name()).collect(),
        unchanged_files: plan.unchanged.len(),
        unreadable_entries: unreadable,
        counts: c,
        seconds,
        puzzles_per_second: puzzles as f64 / seconds.max(1e-9),
        lines_per_second: c.lines as f64 / seconds.max(1e-9),
        first_rejects: &writer.first_rejects,
        peak_rss_kib: peak_rss_kib(),
        layouts: plan
            .read
            .iter()
            .zip(layouts.iter().chain(std::iter::repeat(&None)))
            .filter_map(|(i, l)| {
                Some(FileLayout {
                    file: i.name(),
                    layout: l.clone()?,
                })
            })
            .collect(),
    };
    let text = if a.json {
        serde_json::to_string(&summary).map_err(|e| OutputError::Write(e.into()))? + "\n"
    } else {
        if !writer.interrupted.is_empty() {
            killed_note(&a.db.db, &writer.interrupted);
        }
        for r in &writer.first_rejects {
            note!("{r}");
        }
        if c.rejected > writer.first_rejects.len() as u64 {
            note!(
                "... and {}: SELECT * FROM rejected_lines WHERE import_id = {}",
                count_of(
                    c.rejected - writer.first_rejects.len() as u64,
                    "more rejected line",
                    "more rejected lines"
                ),
                writer.import_id
            );
        }
        human_summary(&summary, signal.is_some())
    };
    // The notes below go to stderr even if stdout is closed.
    let printed = if a.silent {
        note!("{}", text.trim_end());
        Ok(())
    } else {
        let mut out = Out::stdout();
        out.write_all(text.as_bytes()).and_then(|_| out.flush())
    };
    for (i, (input, f)) in plan.read.iter().zip(&writer.files).enumerate() {
        let layout = layouts.get(i).cloned().flatten();
        if let Some(w) = all_rejected(a.input.kind, input, &f.counts, layout.as_deref()) {
            note!("{w}");
        }
    }
    if exceeded && let Some(limit) = a.max_rejects {
        note!(
            "sudoku-archive: {} of {} rejected ({}), more than --max-rejects {limit} allows",
            thousands(c.rejected),
            count_of(c.lines, "line", "lines"),
            super::output::percent(c.rejected, c.lines),
        );
    }
    if let Some(s) = signal {
        let reached = plan
            .read
            .iter()
            .zip(&writer.files)
            .rev()
            .find(|(_, f)| f.last_line > 0)
            .map(|(i, f)| format!("{}:{}", i.name(), f.last_line));
        let done = match reached {
            Some(at) => format!(
                "recorded {}, up to {at}",
                count_of(c.lines, "line", "lines")
            ),
            None => "stopped before its first line".to_string(),
        };
        note!(
            "sudoku-archive: interrupted by {}: import {} {done}; running the same command again completes it",
            s.name(),
            writer.import_id,
        );
    }
    printed
}

/// Says which runs this import found killed and marked `interrupted`, and
/// what completes each: the imports together, each merge by its archives
/// and its command line.
fn killed_note(archive: &std::path::Path, ids: &[i64]) {
    let runs = crate::archive::lock::killed_runs(archive, ids);
    let imports: Vec<String> = runs
        .iter()
        .filter_map(|r| match r {
            Killed::Import { id } => Some(id.to_string()),
            Killed::Merge { .. } | Killed::Pass { .. } => None,
        })
        .collect();
    if !imports.is_empty() {
        note!(
            "note: import {} stopped without finishing (killed?) and is now marked interrupted; \
             running the same files again completes it",
            imports.join(", ")
        );
    }
    for r in &runs {
        match r {
            Killed::Merge {
                id,
                inputs,
                command,
            } => note!(
                "note: merge {id} of {} stopped without finishing (killed?) and is now marked \
                 interrupted; running it again completes it: {command}",
                inputs.join(", ")
            ),
            Killed::Pass { id, name, command } => note!(
                "note: {name} run {id} stopped without finishing (killed?) and is now marked \
                 interrupted; running it again completes it: {command}"
            ),
            Killed::Import { .. } => {}
        }
    }
}

/// The summary for people, one count a line.
fn human_summary(s: &Summary, interrupted: bool) -> String {
    let c = &s.counts;
    let mut t = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        t,
        "import {} into {}: {}{}",
        s.import_id,
        s.archive,
        count_of(c.lines, "line", "lines"),
        if interrupted { " (interrupted)" } else { "" }
    );
    if s.unchanged_files > 0 {
        let _ = writeln!(
            t,
            "  unchanged files {:>8}  (skipped: imported in full before; --reread reads them)",
            thousands(s.unchanged_files as u64)
        );
    }
    if s.unreadable_entries > 0 {
        let _ = writeln!(
            t,
            "  unreadable  {:>12}  (folder entries left out: see the warnings)",
            thousands(s.unreadable_entries as u64)
        );
    }
    let lines = layout_lines(&s.layouts);
    if !lines.is_empty() {
        let _ = writeln!(t, "  read as:");
        for l in lines {
            let _ = writeln!(t, "    {l}");
        }
    }
    let _ = writeln!(t, "  stored      {:>12}", thousands(c.stored));
    let _ = writeln!(t, "  duplicates  {:>12}", thousands(c.duplicates));
    if c.isomorphs > 0 {
        let _ = writeln!(t, "    of which isomorphs {:>5}", thousands(c.isomorphs));
    }
    let _ = writeln!(t, "  rejected    {:>12}", thousands(c.rejected));
    let _ = writeln!(
        t,
        "  skipped     {:>12}  (blank, comment and header lines, grid lines after the first)",
        thousands(c.skipped)
    );
    let _ = writeln!(
        t,
        "  {:.2} s, {} lines/s, {} puzzles/s",
        s.seconds,
        thousands(s.lines_per_second as u64),
        thousands(s.puzzles_per_second as u64)
    );
    t
}

/// The warning for an input whose every record (but blank, comment and
/// header lines) was rejected, naming how it was read and what else it
/// looks like: a wrong column or type is the usual cause, and the summary
/// alone does not show it.
pub fn all_rejected(
    kind: super::TypeArg,
    input: &Input,
    c: &Counts,
    layout: Option<&str>,
) -> Option<String> {
    if c.rejected == 0 || c.rejected != c.lines - c.skipped {
        return None;
    }
    let kind = match kind {
        super::TypeArg::Auto => String::new(),
        k => k
            .to_possible_value()
            .map(|v| format!(", --type {}", v.get_name()))
            .unwrap_or_default(),
    };
    let how = layout.unwrap_or("no record read");
    let (what, hint) = match &input.framing {
        Framing::Csv { .. } => (
            ("record", "records"),
            "a wrong --column, --delimiter or --type is the usual cause",
        ),
        Framing::Text if how.contains(crate::input::layout::PENCILMARKS) => (
            ("line", "lines"),
            "pencilmarks are not a form this tool reads: the givens are, 81 characters a puzzle",
        ),
        Framing::Text => (
            ("line", "lines"),
            "a wrong --type, or a delimiter the content did not show (--delimiter), is the usual cause",
        ),
    };
    Some(format!(
        "warning: {}: {} rejected (read as {how}{kind}); {hint}",
        input.name(),
        match c.rejected {
            1 => format!("its only {}", what.0),
            n => format!("all {} {}", thousands(n), what.1),
        },
    ))
}

/// The process's peak resident set (`VmHWM`), on Linux.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
