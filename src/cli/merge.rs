//! `sudoku-archive merge`: other archives folded into one (see
//! [`crate::archive::merge`] for what is kept and the guarantees).

use std::path::PathBuf;

use clap::Args;

use super::import::DedupArg;
use super::output::Out;
use super::{DbArg, thousands};
use crate::archive::merge::{self, MergeRun};
use crate::archive::writer::Dedup;
use crate::archive::{Archive, Tuning};

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The archive to merge into (made if there is none).
    #[command(flatten)]
    pub db: DbArg,
    /// What makes a puzzle a duplicate: the same givens (exact), or also
    /// the same canonical form (isomorphs).
    #[arg(long, value_enum, default_value = "exact")]
    pub dedup: DedupArg,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Puzzles per batch transaction (for tests of a killed merge).
    #[arg(long, hide = true, default_value_t = merge::BATCH_PUZZLES)]
    pub batch_puzzles: i64,
    /// The archives to merge, in this order; each is only read.
    #[arg(required = true, value_name = "ARCHIVE")]
    pub archives: Vec<PathBuf>,
}

pub fn run(a: MergeArgs) -> anyhow::Result<u8> {
    // Every input is checked before the output is touched.
    let inputs = a
        .archives
        .iter()
        .map(|p| merge::open_input(p, &a.db.db))
        .collect::<Result<Vec<_>, _>>()?;
    a.db.announce_upgrade(a.json);
    let mut archive = Archive::open_or_create(&a.db.db, Tuning::default())?;
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let dedup = match a.dedup {
        DedupArg::Exact => Dedup::Exact,
        DedupArg::Isomorphs => Dedup::Isomorphs,
    };
    let mut run = MergeRun::begin(&mut archive, dedup, &arguments)?;
    run.batch_puzzles = a.batch_puzzles.max(1);
    let mut result = Ok(());
    for input in &inputs {
        result = run.merge(input);
        if result.is_err() {
            break;
        }
    }
    let error = result.as_ref().err().map(|e| e.to_string());
    let finished = run.finish(error.as_deref());
    result?;
    finished?;
    let mut out = Out::stdout();
    let c = run.counts;
    if a.json {
        let summary = serde_json::json!({
            "merge_id": run.merge_id,
            "lines": c.lines,
            "stored": c.stored,
            "duplicates": c.duplicates,
            "isomorphs": c.isomorphs,
            "rejected": c.rejected,
            "new_imports": run.new_imports,
            "interrupted_runs": run.interrupted,
        });
        writeln!(out, "{summary}")?;
    } else {
        let n = thousands;
        writeln!(
            out,
            "merged {} archives into {} (run {})",
            inputs.len(),
            a.db.db.display(),
            run.merge_id
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
            "  rejects     {:>12}  (reject rows kept)",
            n(c.rejected)
        )?;
        writeln!(
            out,
            "  imports     {:>12}  (of the inputs, new here)",
            n(run.new_imports)
        )?;
    }
    out.flush()?;
    Ok(0)
}
