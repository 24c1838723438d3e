//! `sudoku-archive import`: run the pipeline into an archive and report what
//! became of every line.

use std::sync::Arc;

use clap::Args;

use super::{DbArg, InputArgs, thousands};
use crate::archive::writer::{Counts, Dedup, ImportWriter};
use crate::archive::{Archive, Tuning};
use crate::pipeline::{self, Options, RunError, Settings, Stored};
use crate::progress::Progress;

#[derive(Debug, Args)]
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
    /// SQLite page cache in MiB: bounds memory; larger keeps big archives
    /// fast. Lookups of stored puzzles (re-runs) use half as much again.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    pub cache_mib: u32,
    /// Cap the archive at this many pages, as if the disk filled up (for tests).
    #[arg(long, value_name = "PAGES", hide = true)]
    pub max_pages: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DedupArg {
    Exact,
    Isomorphs,
}

#[derive(Debug, serde::Serialize)]
struct Summary<'a> {
    archive: String,
    import_id: i64,
    /// Earlier imports found killed, marked `interrupted` by this one.
    interrupted_imports: &'a [i64],
    files: Vec<String>,
    #[serde(flatten)]
    counts: Counts,
    seconds: f64,
    puzzles_per_second: f64,
    /// Peak resident memory of this process, where the OS tells it.
    peak_rss_kib: Option<u64>,
    first_rejects: &'a [String],
}

pub fn run(a: ImportArgs) -> anyhow::Result<u8> {
    let inputs = a.input.inputs();
    pipeline::check_inputs(&inputs).map_err(|(file, e)| anyhow::anyhow!("{file}: {e}"))?;
    a.db.announce_upgrade(a.input.quiet);
    let mut archive = Archive::open_or_create(
        &a.db.db,
        Tuning {
            cache_mib: a.cache_mib,
            max_pages: a.max_pages,
        },
    )?;
    let progress = Progress::new(a.input.total_bytes(&inputs), a.input.quiet);
    let arguments: Vec<String> = std::env::args().collect();
    let dedup = match a.dedup {
        DedupArg::Exact => Dedup::Exact,
        DedupArg::Isomorphs => Dedup::Isomorphs,
    };
    // The workers' lookup connections share half the writer's cache: a
    // re-run, where they matter, writes little.
    let workers = match a.input.jobs {
        0 => rayon::current_num_threads(),
        n => n,
    };
    let lookup_cache_kib = u64::from(a.cache_mib) * 1024 / 2 / workers.max(1) as u64;
    let stored = archive
        .stored_puzzles(a.dedup == DedupArg::Isomorphs, lookup_cache_kib)?
        .map(|s| Arc::new(s) as Arc<dyn Stored>);
    let mut writer = ImportWriter::begin(&mut archive, dedup, &arguments, inputs.len(), progress)?;
    let settings = Settings {
        hint: a.input.kind.hint(),
        canonical: !a.no_canonical,
    };
    let opts = Options {
        settings,
        jobs: a.input.jobs,
        stored,
    };
    let outcome = pipeline::run(&inputs, &opts, &mut writer);
    let error = outcome.as_ref().err().map(RunError::to_string);
    // Record the end even after a failure (a full disk included).
    let finished = writer.finish(error.as_deref());
    match (outcome, finished) {
        (Err(e), Err(f)) => anyhow::bail!("{e} (and the run could not be recorded as failed: {f})"),
        (Err(e), Ok(())) => return Err(e.into()),
        (Ok(_), finished) => finished?,
    }

    let seconds = writer.elapsed();
    let c = writer.counts;
    let puzzles = c.stored + c.duplicates + c.rejected;
    let summary = Summary {
        archive: a.db.db.display().to_string(),
        import_id: writer.import_id,
        interrupted_imports: &writer.interrupted,
        files: inputs.iter().map(|i| i.name()).collect(),
        counts: c,
        seconds,
        puzzles_per_second: puzzles as f64 / seconds.max(1e-9),
        first_rejects: &writer.first_rejects,
        peak_rss_kib: peak_rss_kib(),
    };
    if a.json {
        println!("{}", serde_json::to_string(&summary)?);
        return Ok(0);
    }
    if !writer.interrupted.is_empty() {
        let ids: Vec<String> = writer.interrupted.iter().map(i64::to_string).collect();
        eprintln!(
            "note: import {} stopped without finishing (killed?) and is now marked interrupted; \
             running the same files again completes it",
            ids.join(", ")
        );
    }
    for r in &writer.first_rejects {
        eprintln!("{r}");
    }
    if c.rejected > writer.first_rejects.len() as u64 {
        eprintln!(
            "... and {} more rejected lines: SELECT * FROM rejected_lines WHERE import_id = {}",
            thousands(c.rejected - writer.first_rejects.len() as u64),
            writer.import_id
        );
    }
    println!(
        "import {} into {}: {} lines",
        writer.import_id,
        summary.archive,
        thousands(c.lines)
    );
    println!("  stored      {:>12}", thousands(c.stored));
    println!("  duplicates  {:>12}", thousands(c.duplicates));
    if c.isomorphs > 0 {
        println!("    of which isomorphs {:>5}", thousands(c.isomorphs));
    }
    println!("  rejected    {:>12}", thousands(c.rejected));
    println!(
        "  skipped     {:>12}  (blank, comment and header lines)",
        thousands(c.skipped)
    );
    println!(
        "  {:.2} s, {} puzzles/s",
        seconds,
        thousands(summary.puzzles_per_second as u64)
    );
    Ok(0)
}

/// The process's peak resident set (`VmHWM`), on Linux.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
