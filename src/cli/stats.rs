//! `sudoku-archive stats`: what the archive holds.

use clap::Args;

use super::output::Out;
use super::{DbArg, thousands};
use crate::archive::{Archive, query};

#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: StatsArgs) -> anyhow::Result<u8> {
    a.db.announce_upgrade(false);
    let archive = Archive::open_existing(&a.db.db)?;
    let s = query::stats(&archive)?;
    let mut out = Out::stdout();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&s)?)?;
        out.flush()?;
        return Ok(0);
    }
    let n = |v: i64| thousands(v.max(0) as u64);
    writeln!(
        out,
        "{}: {} puzzles from {} accepted lines",
        a.db.db.display(),
        n(s.puzzles),
        n(s.sources)
    )?;
    let mib = |bytes: i64| thousands((bytes.max(0) as u64).div_ceil(1 << 20));
    if s.free_bytes > 0 {
        writeln!(
            out,
            "{} MiB, of which {} MiB free (later imports reuse it; `sqlite3 {} VACUUM` gives it back now)",
            mib(s.file_bytes),
            mib(s.free_bytes),
            a.db.db.display()
        )?;
    } else {
        writeln!(out, "{} MiB", mib(s.file_bytes))?;
    }
    writeln!(out)?;
    writeln!(out, "by type and clues:")?;
    for r in &s.by_clues {
        writeln!(
            out,
            "  {:<7} {:>3} clues {:>12}",
            r.r#type,
            r.clues,
            n(r.count)
        )?;
    }
    writeln!(out, "by solutions:")?;
    for r in &s.by_solutions {
        let what = match r.solutions {
            1 => "unique",
            2 => "two or more",
            _ => "none",
        };
        writeln!(out, "  {:<7} {:<12} {:>12}", r.r#type, what, n(r.count))?;
    }
    writeln!(
        out,
        "isomorphs (stored puzzles sharing a canonical form with another):"
    )?;
    if s.isomorphs.is_empty() {
        writeln!(out, "  none")?;
    }
    for r in &s.isomorphs {
        writeln!(
            out,
            "  {:<7} {:>12} puzzles in {} forms",
            r.r#type,
            n(r.puzzles),
            n(r.forms)
        )?;
    }
    if s.without_canonical > 0 {
        writeln!(
            out,
            "  ({} puzzles have no canonical form yet: imported with --no-canonical)",
            n(s.without_canonical)
        )?;
    }
    writeln!(out, "rejects:")?;
    if s.rejects.is_empty() {
        writeln!(out, "  none")?;
    }
    for r in &s.rejects {
        writeln!(out, "  {:<20} {:>12}", r.reason, n(r.count))?;
    }
    writeln!(out, "imports:")?;
    for i in &s.imports {
        writeln!(
            out,
            "  #{:<4} {} {:<11} lines {:>10}  stored {:>10}  duplicates {:>10}  rejected {:>8}  skipped {:>8}",
            i.id,
            i.started_at,
            i.status,
            n(i.lines),
            n(i.stored),
            n(i.duplicates),
            n(i.rejected),
            n(i.skipped)
        )?;
    }
    out.flush()?;
    Ok(0)
}
