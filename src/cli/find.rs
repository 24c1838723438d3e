//! `sudoku-archive find`: is this puzzle in the archive? For each string
//! (arguments, or the lines of `--file F` / standard input, read as an
//! import reads a text file), whether the archive holds it exactly, holds
//! an isomorph of it, or neither; with the stored puzzle and the lines it
//! came from.
//!
//! Each string costs index reads only ([`crate::archive::lookup`]): the
//! identity's key, then, when it is not stored, the canonical form's hash.
//! The legacy forms carry their identity and are not solved at all; a
//! packed string (whose candidates count) is analysed like an import line.
//! Strings are handled in chunks: the pure work (identities, analyses,
//! canonical forms) on all cores, the lookups on the one connection, the
//! output in input order. Exit status like grep's: 0 something found, 1
//! nothing found, 2 trouble (a string that is not a puzzle, an unreadable
//! file, no archive).

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;
use rusqlite::Connection;

use super::output::Out;
use super::{DbArg, EXIT_FAILURE, TypeArg};
use crate::archive::Archive;
use crate::archive::lookup::{self, Puzzle, Source};
use crate::core::canon::{self, CanonError};
use crate::core::puzzle::{self, PuzzleType, TypeHint};
use crate::input::extract::{Extracted, puzzle_token};

#[derive(Debug, Args)]
pub struct FindArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// One JSON object per string, one per line.
    #[arg(long)]
    pub json: bool,
    /// Read the strings from this file, one per line (`-`: standard input),
    /// as an import reads a text file: blank and `#` lines skipped, text
    /// after the puzzle ignored.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The puzzle type of every string, or auto to recognise each.
    #[arg(long = "type", value_enum, default_value = "auto")]
    pub kind: TypeArg,
    /// Puzzle strings in any form an import reads, or URLs; `-` reads
    /// them from standard input.
    #[arg(value_name = "STRING", required_unless_present = "file")]
    pub strings: Vec<String>,
}

/// Stored isomorphs of a string named (all are counted); the first is shown.
const SHOWN_ISOMORPHS: usize = 10;
/// Provenance lines shown per puzzle (all are counted).
const SHOWN_SOURCES: u32 = 10;
/// Provenance lines in each puzzle's JSON (all are counted).
const JSON_SOURCES: u32 = 1000;
/// The page cache of the lookups, in MiB.
const CACHE_MIB: u32 = 128;
/// Strings handled together.
const CHUNK: usize = 4096;

/// One string to look up.
struct Query {
    /// The string as given.
    input: String,
    /// Where it was read, for strings from a file.
    at: Option<(String, u64)>,
}

/// What the pure work found out about a string.
enum Probe {
    Puzzle { kind: PuzzleType, givens: String },
    Invalid(String),
}

/// The answer for one string.
enum Answer {
    Exact(i64),
    /// The first stored isomorphs (checked), and how many there are.
    Isomorphs(Vec<i64>, u64),
    Missing {
        /// Why the isomorph lookup could not be made, if it could not.
        no_form: Option<String>,
    },
    Invalid(String),
}

pub fn run(a: FindArgs) -> anyhow::Result<u8> {
    let hint = a.kind.hint();
    let archive = Archive::open_existing(&a.db.db)?;
    // Lookups are random over the key and form indexes and the puzzles:
    // SQLite's default cache (2 MiB, 125 pages) misses nearly every one.
    archive
        .conn
        .pragma_update(None, "cache_size", -i64::from(CACHE_MIB) * 1024)
        .map_err(|e| crate::archive::ArchiveError::sql("setting the page cache", e))?;
    let mut out = Out::stdout();
    let mut tally = Tally::default();
    let stdin_strings = a.strings.len() == 1 && a.strings[0] == "-";
    if let Some(file) = &a.file {
        if !a.strings.is_empty() {
            anyhow::bail!("give strings or --file, not both");
        }
        let name = file.display().to_string();
        let reader: Box<dyn Read> = if name == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(std::fs::File::open(file).map_err(|e| anyhow::anyhow!("{name}: {e}"))?)
        };
        read_lines(reader, &name, |chunk| {
            answer_chunk(&archive.conn, chunk, hint, a.json, &mut out, &mut tally)
        })?;
    } else if stdin_strings {
        read_lines(Box::new(std::io::stdin().lock()), "-", |chunk| {
            answer_chunk(&archive.conn, chunk, hint, a.json, &mut out, &mut tally)
        })?;
    } else {
        let queries: Vec<Query> = a
            .strings
            .iter()
            .map(|s| Query {
                input: s.trim().to_string(),
                at: None,
            })
            .collect();
        for chunk in queries.chunks(CHUNK) {
            answer_chunk(&archive.conn, chunk, hint, a.json, &mut out, &mut tally)?;
        }
    }
    out.flush()?;
    Ok(if tally.invalid > 0 {
        EXIT_FAILURE
    } else if tally.found > 0 {
        0
    } else {
        1
    })
}

#[derive(Default)]
struct Tally {
    found: u64,
    invalid: u64,
}

/// Calls `each` with the puzzle lines of `reader` in chunks.
fn read_lines(
    reader: Box<dyn Read + '_>,
    name: &str,
    mut each: impl FnMut(&[Query]) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut lines = BufReader::new(reader);
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut buf = Vec::new();
    let mut number = 0u64;
    loop {
        buf.clear();
        let n = lines
            .read_until(b'\n', &mut buf)
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        if n == 0 {
            break;
        }
        number += 1;
        let text = String::from_utf8_lossy(&buf);
        if let Extracted::Puzzle(token) = puzzle_token(&text) {
            chunk.push(Query {
                input: token.to_string(),
                at: Some((name.to_string(), number)),
            });
        }
        if chunk.len() == CHUNK {
            each(&chunk)?;
            chunk.clear();
        }
    }
    if !chunk.is_empty() {
        each(&chunk)?;
    }
    Ok(())
}

/// The type and identity of a string: read off a legacy form, else by
/// analysing it as an import would.
fn probe(input: &str, hint: TypeHint) -> Probe {
    if let Some((kind, givens)) = puzzle::identity(input, hint) {
        return Probe::Puzzle { kind, givens };
    }
    match puzzle::analyse(input, hint) {
        Ok(a) => Probe::Puzzle {
            kind: a.kind,
            givens: a.givens,
        },
        Err(e) => Probe::Invalid(e.to_string()),
    }
}

fn answer_chunk(
    conn: &Connection,
    chunk: &[Query],
    hint: TypeHint,
    json: bool,
    out: &mut Out,
    tally: &mut Tally,
) -> anyhow::Result<()> {
    let probes: Vec<Probe> = chunk.par_iter().map(|q| probe(&q.input, hint)).collect();
    let mut answers: Vec<Option<Answer>> = Vec::with_capacity(chunk.len());
    for p in &probes {
        answers.push(match p {
            Probe::Invalid(why) => Some(Answer::Invalid(why.clone())),
            Probe::Puzzle { kind, givens } => {
                lookup::by_identity(conn, *kind, givens)?.map(Answer::Exact)
            }
        });
    }
    // Canonical forms, for the strings not stored as they are.
    let forms: Vec<Option<Result<String, CanonError>>> = probes
        .par_iter()
        .zip(&answers)
        .map(|(p, a)| match (p, a) {
            (Probe::Puzzle { kind, givens }, None) => Some(canon::of(*kind, givens)),
            _ => None,
        })
        .collect();
    for ((answer, form), p) in answers.iter_mut().zip(forms).zip(&probes) {
        if let (Some(form), Probe::Puzzle { kind, .. }) = (form, p) {
            *answer = Some(match form {
                Ok(form) => match lookup::by_canonical(conn, *kind, &form, SHOWN_ISOMORPHS)? {
                    (ids, _) if ids.is_empty() => Answer::Missing { no_form: None },
                    (ids, total) => Answer::Isomorphs(ids, total),
                },
                Err(e) => Answer::Missing {
                    no_form: Some(e.to_string()),
                },
            });
        }
    }
    for (q, answer) in chunk.iter().zip(answers) {
        let answer = answer.unwrap_or(Answer::Missing { no_form: None });
        match answer {
            Answer::Exact(_) | Answer::Isomorphs(..) => tally.found += 1,
            Answer::Invalid(_) => tally.invalid += 1,
            Answer::Missing { .. } => {}
        }
        if json {
            write_json(conn, q, &answer, out)?;
        } else {
            write_text(conn, q, &answer, out)?;
        }
    }
    Ok(())
}

/// The string's name in the text output: where it was read, or itself.
fn label(q: &Query) -> String {
    match &q.at {
        Some((file, line)) => format!("{file}:{line}"),
        None => q.input.clone(),
    }
}

fn solutions(p: &Puzzle) -> &'static str {
    match p.solutions {
        0 => "no solution",
        1 => "unique solution",
        _ => "two or more solutions",
    }
}

fn write_text(conn: &Connection, q: &Query, answer: &Answer, out: &mut Out) -> anyhow::Result<()> {
    let label = label(q);
    let ids: &[i64] = match answer {
        Answer::Invalid(why) => {
            writeln!(out, "{label}: not a puzzle: {why}")?;
            return Ok(());
        }
        Answer::Missing { no_form: None } => {
            writeln!(out, "{label}: not found")?;
            return Ok(());
        }
        Answer::Missing { no_form: Some(why) } => {
            writeln!(
                out,
                "{label}: not found (not stored as it is; isomorphs not looked for: {why})"
            )?;
            return Ok(());
        }
        Answer::Exact(id) => std::slice::from_ref(id),
        // The first stored is shown; the others are named.
        Answer::Isomorphs(ids, _) => &ids[..1],
    };
    for &id in ids {
        let p = lookup::puzzle(conn, id)?;
        let relation = match answer {
            Answer::Exact(_) => "found",
            _ => "isomorph of", // the same canonical form
        };
        writeln!(
            out,
            "{label}: {relation} puzzle {} ({}, {} clues, {})",
            p.id,
            p.r#type,
            p.clues,
            solutions(&p)
        )?;
        writeln!(out, "  givens:   {}", p.givens)?;
        if let Answer::Isomorphs(all, total) = answer {
            if let Some(c) = &p.canonical {
                writeln!(out, "  canonical form: {c} (shared with the string)")?;
            }
            if *total > 1 {
                let others: Vec<String> = all[1..].iter().map(i64::to_string).collect();
                let more = *total as usize - all.len();
                let more = if more > 0 {
                    format!(", and {more} more")
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "  also isomorphs of it: {total} stored in all (puzzles {}{more})",
                    others.join(", ")
                )?;
            }
        }
        if let Some(s) = &p.solution {
            writeln!(out, "  solution: {s}")?;
        }
        let (sources, total) = lookup::sources(conn, id, SHOWN_SOURCES)?;
        for (i, s) in sources.iter().enumerate() {
            let head = if i == 0 { "  from:    " } else { "           " };
            let how = if s.relation == "exact" {
                String::new()
            } else {
                format!(" ({})", s.relation)
            };
            writeln!(
                out,
                "{head} {}:{} (import {}){how}",
                s.file, s.line, s.import_id
            )?;
        }
        if total > i64::from(SHOWN_SOURCES) {
            writeln!(
                out,
                "            ... and {} more lines: SELECT * FROM provenance WHERE puzzle_id = {id}",
                total - i64::from(SHOWN_SOURCES)
            )?;
        }
    }
    Ok(())
}

#[derive(serde::Serialize)]
struct JsonAnswer<'a> {
    input: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    /// `exact`, `isomorph`, `none` or `invalid`.
    found: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    /// The stored puzzle (exact), or the first stored isomorph.
    puzzles: Vec<JsonPuzzle>,
    /// For `isomorph`: how many stored puzzles share the form, and the ids
    /// of the first of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    isomorphs: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    isomorph_ids: Option<&'a [i64]>,
}

#[derive(serde::Serialize)]
struct JsonPuzzle {
    #[serde(flatten)]
    puzzle: Puzzle,
    sources: Vec<Source>,
    sources_total: i64,
}

fn write_json(conn: &Connection, q: &Query, answer: &Answer, out: &mut Out) -> anyhow::Result<()> {
    let (found, error, ids): (_, Option<&str>, &[i64]) = match answer {
        Answer::Exact(id) => ("exact", None, std::slice::from_ref(id)),
        Answer::Isomorphs(ids, _) => ("isomorph", None, &ids[..1]),
        Answer::Missing { no_form } => ("none", no_form.as_deref(), &[]),
        Answer::Invalid(why) => ("invalid", Some(why.as_str()), &[]),
    };
    let mut puzzles = Vec::with_capacity(ids.len());
    for &id in ids {
        let (sources, total) = lookup::sources(conn, id, JSON_SOURCES)?;
        puzzles.push(JsonPuzzle {
            puzzle: lookup::puzzle(conn, id)?,
            sources,
            sources_total: total,
        });
    }
    let a = JsonAnswer {
        input: &q.input,
        file: q.at.as_ref().map(|(f, _)| f.as_str()),
        line: q.at.as_ref().map(|(_, l)| *l),
        found,
        error,
        puzzles,
        isomorphs: match answer {
            Answer::Isomorphs(_, total) => Some(*total),
            _ => None,
        },
        isomorph_ids: match answer {
            Answer::Isomorphs(ids, _) => Some(ids),
            _ => None,
        },
    };
    writeln!(out, "{}", serde_json::to_string(&a)?)?;
    Ok(())
}
