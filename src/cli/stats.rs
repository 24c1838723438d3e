//! `sudoku-archive stats`: what the archive holds, as text, JSON, or a
//! self-contained HTML page of charts (`--html FILE`; the charts are
//! `render::chart`'s inline SVG).

use std::path::Path;

use anyhow::Context as _;
use clap::Args;

use super::output::{Out, count_of};
use super::{DbArg, thousands};
use crate::archive::query::Stats;
use crate::archive::{Archive, query};
use crate::progress::Progress;
use crate::render::chart::{self, Bar};
use crate::render::{escape, html};

#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Print the statistics as one JSON object.
    #[arg(long, conflicts_with = "html")]
    pub json: bool,
    /// Write the statistics as one self-contained HTML page of charts.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// No progress spinner (there is none when stderr is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(a: StatsArgs) -> anyhow::Result<u8> {
    a.db.announce_upgrade(false);
    let archive = Archive::open_existing(&a.db.db)?;
    // One query over every table: a spinner with the time it has taken.
    let progress = Progress::spinner(a.quiet);
    progress.message(format!("counting what {} holds", a.db.db.display()));
    let s = query::stats(&archive);
    progress.finish();
    let s = s?;
    if let Some(file) = &a.html {
        return write_page(&a.db.db, &s, file).map(|_| 0);
    }
    let mut out = Out::stdout();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&s)?)?;
        out.flush()?;
        return Ok(0);
    }
    let n = |v: i64| thousands(v.max(0) as u64);
    writeln!(
        out,
        "{}: {} from {}",
        a.db.db.display(),
        count_of(s.puzzles.max(0) as u64, "puzzle", "puzzles"),
        count_of(s.sources.max(0) as u64, "accepted line", "accepted lines")
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
        let what = solved(r.solutions);
        writeln!(out, "  {:<7} {:<12} {:>12}", r.r#type, what, n(r.count))?;
    }
    if let Some(m) = &s.minimal {
        writeln!(
            out,
            "minimal (uniquely solvable classic puzzles no given of which can go): {} of {}{}",
            n(m.minimal),
            n(m.minimal + m.not_minimal + m.not_computed),
            match m.not_computed {
                0 => String::new(),
                k => format!(
                    " ({} not computed yet: `sudoku-archive fill minimal`)",
                    n(k)
                ),
            }
        )?;
    }
    writeln!(
        out,
        "by rating (bands of 1.0; sudoku: Sudoku Explainer's ER; killer, str8ts: this tool's scales, docs/difficulty.md):"
    )?;
    if s.by_rating.is_empty() {
        writeln!(out, "  none rated")?;
    }
    for r in &s.by_rating {
        writeln!(
            out,
            "  {:<7} {:>4}-{:<4} {:>12}",
            r.r#type,
            format!("{}.0", r.band),
            format!("{}.9", r.band),
            n(r.count)
        )?;
    }
    if s.unrated > 0 {
        writeln!(
            out,
            "  ({} with one solution not rated yet: `sudoku-archive rate` rates {})",
            count_of(s.unrated as u64, "puzzle", "puzzles"),
            if s.unrated == 1 { "it" } else { "them" }
        )?;
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
            "  {:<7} {:>12} puzzles in {}",
            r.r#type,
            n(r.puzzles),
            count_of(r.forms.max(0) as u64, "form", "forms")
        )?;
    }
    if s.without_canonical > 0 {
        writeln!(
            out,
            "  ({} no canonical form yet: imported with --no-canonical)",
            if s.without_canonical == 1 {
                "1 puzzle has".to_string()
            } else {
                format!("{} puzzles have", n(s.without_canonical))
            }
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
        // A pass over stored puzzles read no lines: its count is said as what it did.
        match i.pass.as_deref() {
            Some("rate") => {
                writeln!(
                    out,
                    "  #{:<4} {} {:<11} rate: {} rated",
                    i.id,
                    i.started_at,
                    i.status,
                    n(i.rated)
                )?;
                continue;
            }
            Some(pass) => {
                writeln!(
                    out,
                    "  #{:<4} {} {:<11} {pass}: {} computed",
                    i.id,
                    i.started_at,
                    i.status,
                    n(i.lines)
                )?;
                continue;
            }
            None => {}
        }
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

/// The page of charts, written beside `file` and renamed onto it.
fn write_page(db: &Path, s: &Stats, file: &Path) -> anyhow::Result<()> {
    let page = page(db, s);
    // Not renamed onto what is not a plain file (`--html /dev/stdout`).
    if !std::fs::metadata(file).map_or(true, |m| m.is_file()) {
        return std::fs::write(file, page.as_bytes())
            .with_context(|| format!("cannot write {}", file.display()));
    }
    let mut part = file.as_os_str().to_owned();
    part.push(".part");
    std::fs::write(&part, page.as_bytes())
        .and_then(|_| std::fs::rename(&part, file))
        .with_context(|| format!("cannot write {}", file.display()))
}

const CSS: &str =
    "body { font-family: 'DejaVu Sans', Arial, sans-serif; margin: 2em; color: #111; }
section { margin: 1.5em 0; break-inside: avoid; }
svg.chart { display: block; margin: 0.5em 0; }
p.note { color: #555; }";

/// The archive at a glance: puzzles by type and clue count, solution
/// status, rejects by reason, imports over time.
fn page(db: &Path, s: &Stats) -> String {
    let mut out = String::with_capacity(1 << 16);
    let title = format!(
        "{}: {}",
        db.display(),
        count_of(s.puzzles.max(0) as u64, "puzzle", "puzzles")
    );
    html::page_start(&title, CSS, &mut out);
    out.push_str("<h1>");
    escape(&title, &mut out);
    out.push_str("</h1>\n<p>");
    escape(
        &format!(
            "from {} in {}",
            count_of(s.sources.max(0) as u64, "accepted line", "accepted lines"),
            count_of(s.imports.len() as u64, "import", "imports")
        ),
        &mut out,
    );
    out.push_str("</p>\n");
    let mut types: Vec<&str> = s.by_clues.iter().map(|r| r.r#type.as_str()).collect();
    types.dedup();
    let per_type: Vec<(String, i64)> = types
        .iter()
        .map(|t| {
            let n = s
                .by_clues
                .iter()
                .filter(|r| r.r#type == *t)
                .map(|r| r.count)
                .sum();
            (t.to_string(), n)
        })
        .collect();
    section(&mut out, |out| {
        chart::bars("Puzzles by type", &bars(&per_type), out);
    });
    for t in &types {
        let rows: Vec<(String, i64)> = s
            .by_clues
            .iter()
            .filter(|r| r.r#type == *t)
            .map(|r| (r.clues.to_string(), r.count))
            .collect();
        section(&mut out, |out| {
            chart::columns(&format!("{t}: puzzles by clue count"), &bars(&rows), out);
        });
    }
    let status: Vec<(String, i64)> = s
        .by_solutions
        .iter()
        .map(|r| (format!("{} {}", r.r#type, solved(r.solutions)), r.count))
        .collect();
    section(&mut out, |out| {
        chart::bars("Solution status", &bars(&status), out);
    });
    let rejects: Vec<(String, i64)> = s
        .rejects
        .iter()
        .map(|r| (r.reason.clone(), r.count))
        .collect();
    section(&mut out, |out| {
        chart::bars("Rejected lines by reason", &bars(&rejects), out);
    });
    let imports: Vec<(String, i64)> = s
        .imports
        .iter()
        .map(|i| {
            (
                format!(
                    "#{} {}",
                    i.id,
                    i.started_at.get(..10).unwrap_or(&i.started_at)
                ),
                i.stored,
            )
        })
        .collect();
    section(&mut out, |out| {
        chart::columns(
            "Imports over time: puzzles stored by each",
            &bars(&imports),
            out,
        );
    });
    out.push_str("<p class=\"note\">Difficulty bands: this archive has no ratings yet.</p>\n");
    html::page_end(&mut out);
    out
}

fn bars(rows: &[(String, i64)]) -> Vec<Bar<'_>> {
    rows.iter()
        .map(|(label, value)| Bar {
            label,
            value: *value,
        })
        .collect()
}

fn section(out: &mut String, f: impl FnOnce(&mut String)) {
    out.push_str("<section>");
    f(out);
    out.push_str("</section>\n");
}

/// The words for a `solutions` count.
fn solved(solutions: i64) -> &'static str {
    match solutions {
        1 => "unique",
        2 => "two or more",
        _ => "none",
    }
}
