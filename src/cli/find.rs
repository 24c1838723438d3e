//! `sudoku-archive find`: is this puzzle in the archive? For each string
//! (arguments, or the records of `--file F` / standard input, read through
//! the import's readers) whether the archive holds it exactly, holds an
//! isomorph of it, or neither, with the stored puzzle and its lines; a
//! record an import would reject is reported with its reason at `file:line`.
//!
//! Index reads only ([`crate::archive::lookup`]): never writes. Exit status
//! like grep's: 0 found, 1 nothing found, 2 trouble. How strings are
//! looked up and in what order: docs/architecture.md "Module notes".

use std::path::{Path, PathBuf};

use clap::Args;
use rayon::prelude::*;
use rusqlite::Connection;

use super::output::Out;
use super::{DbArg, EXIT_FAILURE, LayoutArgs, TypeArg};
use crate::archive::Archive;
use crate::archive::lookup::{self, Puzzle, Source};
use crate::core::canon::{self, CanonError};
use crate::core::puzzle::{self, PuzzleType, Status, TypeHint};
use crate::input::{self, Chunk, Item, Origin};
use crate::pipeline::Outcome;
use crate::pipeline::process::puzzle_string;
use crate::progress::Progress;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  sudoku-archive find 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
  sudoku-archive find --file candidates.txt            every record, read as import reads it
  sudoku-archive find --json - < strings.txt")]
pub struct FindArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// One JSON object per string, one per line.
    #[arg(long)]
    pub json: bool,
    /// Read the strings from this file (`-`: standard input) as `import`
    /// reads it: text, grids or delimited records, plain or compressed;
    /// each record is answered at its `file:line`.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// The puzzle type of every string, or auto to recognise each.
    #[arg(long = "type", value_enum, default_value = "auto")]
    pub kind: TypeArg,
    /// No progress spinner while a file is read (there is none when
    /// stderr is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,
    /// Puzzle strings in any form an import reads, or URLs; `-` reads
    /// them from standard input (as `--file -`).
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
/// Strings from the command line handled together (a file's come in the
/// reader's chunks).
const CHUNK: usize = 4096;

/// One string to look up.
struct Query {
    /// The puzzle string; for a record that holds none, what was read of it.
    input: String,
    /// The record's line, for strings from a file.
    line: Option<u64>,
    /// Why the record holds no puzzle string (the import's reject reason).
    unread: Option<String>,
}

/// What the pure work found out about a string.
enum Probe {
    Puzzle {
        kind: PuzzleType,
        givens: String,
        /// The string's own status, when it was analysed (a legacy form's
        /// identity is read off without solving).
        status: Option<Status>,
    },
    Invalid(String),
}

/// The answer for one string.
enum Answer {
    Exact(i64),
    Isomorphs {
        /// The first stored isomorphs (checked), and how many there are.
        ids: Vec<i64>,
        total: u64,
        /// The string's own unique solution: the stored puzzle's is that of
        /// another arrangement.
        solution: Option<String>,
    },
    Missing {
        /// Why the isomorph lookup could not be made, if it could not.
        no_form: Option<String>,
    },
    Invalid(String),
}

pub fn run(a: FindArgs) -> anyhow::Result<u8> {
    let archive = Archive::open_existing(&a.db.db)?;
    // Lookups are random over the key and form indexes and the puzzles:
    // SQLite's default cache (2 MiB, 125 pages) misses nearly every one.
    archive
        .conn
        .pragma_update(None, "cache_size", -i64::from(CACHE_MIB) * 1024)
        .map_err(|e| crate::archive::ArchiveError::sql("setting the page cache", e))?;
    let mut finder = Finder {
        conn: &archive.conn,
        hint: a.kind.hint(),
        json: a.json,
        out: Out::stdout(),
        tally: Tally::default(),
        progress: Progress::spinner(a.quiet),
        answered: 0,
    };
    let stdin_strings = a.strings.len() == 1 && a.strings[0] == "-";
    let read = match &a.file {
        Some(_) if !a.strings.is_empty() => anyhow::bail!("give strings or --file, not both"),
        Some(file) => finder.read_file(file, &a.layout),
        None if stdin_strings => finder.read_file(Path::new("-"), &a.layout),
        None => a.strings.chunks(CHUNK).try_for_each(|chunk| {
            let queries: Vec<Query> = chunk
                .iter()
                .map(|s| Query {
                    input: s.trim().to_string(),
                    line: None,
                    unread: None,
                })
                .collect();
            finder.answer(None, &queries)
        }),
    };
    if finder.answered > 0 {
        finder
            .progress
            .count("answered", finder.answered, "records", true);
    }
    finder.progress.finish();
    // What was answered before a read failed is printed before its error.
    finder.out.flush()?;
    read?;
    let tally = finder.tally;
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

/// Looks strings up and prints the answers, in input order.
struct Finder<'a> {
    conn: &'a Connection,
    hint: TypeHint,
    json: bool,
    out: Out,
    tally: Tally,
    /// Records of a file answered so far, and the spinner that counts them.
    progress: Progress,
    answered: u64,
}

/// The query of an item read from a file; `None` for one an import skips
/// (a blank or comment line, a header, a grid's lines after its first).
fn query(chunk: &Chunk, item: &Item) -> Option<Query> {
    match puzzle_string(chunk, item) {
        Ok(s) => Some(Query {
            input: s.into_owned(),
            line: Some(item.line),
            unread: None,
        }),
        Err(Outcome::Rejected(r)) => Some(Query {
            input: String::from_utf8_lossy(chunk.bytes(&item.raw)).into_owned(),
            line: Some(item.line),
            unread: Some(r.message),
        }),
        Err(_) => None,
    }
}

/// The type and identity of a string: read off a legacy form, else by
/// analysing it as an import would.
fn probe(q: &Query, hint: TypeHint) -> Probe {
    if let Some(why) = &q.unread {
        return Probe::Invalid(why.clone());
    }
    if let Some((kind, givens)) = puzzle::identity(&q.input, hint) {
        return Probe::Puzzle {
            kind,
            givens,
            status: None,
        };
    }
    match puzzle::analyse(&q.input, hint) {
        Ok(a) => Probe::Puzzle {
            kind: a.kind,
            givens: a.givens,
            status: Some(a.status),
        },
        Err(e) => Probe::Invalid(e.to_string()),
    }
}

/// The string's own unique solution, analysing it if the probe did not.
fn own_solution(q: &Query, probe: &Probe, hint: TypeHint) -> Option<String> {
    let analysed;
    let status = match probe {
        Probe::Puzzle {
            status: Some(s), ..
        } => s,
        Probe::Puzzle { status: None, .. } => {
            analysed = puzzle::analyse(&q.input, hint).ok()?.status;
            &analysed
        }
        Probe::Invalid(_) => return None,
    };
    match status {
        Status::Unique(s) => Some(s.clone()),
        _ => None,
    }
}

impl Finder<'_> {
    /// Answers every record of a file (`-`: standard input), read as an
    /// import reads it.
    fn read_file(&mut self, path: &Path, layout: &LayoutArgs) -> anyhow::Result<()> {
        let origin = Origin::from_arg(path, "-");
        let name = origin.display_name();
        let failed = |e: std::io::Error| anyhow::anyhow!("{name}: {e}");
        let opened = input::open(&origin).map_err(failed)?;
        let (mut reader, _) =
            input::reader(opened, &layout.framing(&origin), None).map_err(failed)?;
        while let Some(chunk) = reader.next_chunk().map_err(failed)? {
            let queries: Vec<Query> = chunk
                .items
                .iter()
                .filter_map(|item| query(&chunk, item))
                .collect();
            self.answer(Some(&name), &queries)?;
            self.answered += queries.len() as u64;
            self.progress
                .count("answered", self.answered, "records", false);
        }
        Ok(())
    }

    /// Answers a chunk of strings read from `file` (or the command line).
    fn answer(&mut self, file: Option<&str>, chunk: &[Query]) -> anyhow::Result<()> {
        let (conn, hint) = (self.conn, self.hint);
        let probes: Vec<Probe> = chunk.par_iter().map(|q| probe(q, hint)).collect();
        let mut answers: Vec<Option<Answer>> = Vec::with_capacity(chunk.len());
        for p in &probes {
            answers.push(match p {
                Probe::Invalid(why) => Some(Answer::Invalid(why.clone())),
                Probe::Puzzle { kind, givens, .. } => {
                    lookup::by_identity(conn, *kind, givens)?.map(Answer::Exact)
                }
            });
        }
        // Canonical forms, for the strings not stored as they are.
        let forms: Vec<Option<Result<String, CanonError>>> = probes
            .par_iter()
            .zip(&answers)
            .map(|(p, a)| match (p, a) {
                (Probe::Puzzle { kind, givens, .. }, None) => Some(canon::of(*kind, givens)),
                _ => None,
            })
            .collect();
        for ((answer, form), p) in answers.iter_mut().zip(forms).zip(&probes) {
            if let (Some(form), Probe::Puzzle { kind, .. }) = (form, p) {
                *answer = Some(match form {
                    Ok(form) => match lookup::by_canonical(conn, *kind, &form, SHOWN_ISOMORPHS)? {
                        (ids, _) if ids.is_empty() => Answer::Missing { no_form: None },
                        (ids, total) => Answer::Isomorphs {
                            ids,
                            total,
                            solution: None,
                        },
                    },
                    Err(e) => Answer::Missing {
                        no_form: Some(e.to_string()),
                    },
                });
            }
        }
        // The isomorphs' own solutions (a legacy form solved only now).
        answers
            .par_iter_mut()
            .zip(chunk.par_iter().zip(&probes))
            .for_each(|(answer, (q, p))| {
                if let Some(Answer::Isomorphs { solution, .. }) = answer {
                    *solution = own_solution(q, p, hint);
                }
            });
        for (q, answer) in chunk.iter().zip(answers) {
            let answer = answer.unwrap_or(Answer::Missing { no_form: None });
            match answer {
                Answer::Exact(_) | Answer::Isomorphs { .. } => self.tally.found += 1,
                Answer::Invalid(_) => self.tally.invalid += 1,
                Answer::Missing { .. } => {}
            }
            let at = file.zip(q.line);
            if self.json {
                self.write_json(at, q, &answer)?;
            } else {
                self.write_text(at, q, &answer)?;
            }
        }
        Ok(())
    }
}

/// Where a string was read: its file and line (none for an argument).
type At<'a> = Option<(&'a str, u64)>;

/// The string's name in the text output: where it was read, or itself.
fn label(at: At, q: &Query) -> String {
    match at {
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

/// `ER 7.2 (Forcing Chain)`, `ER at least 9.0 (...)`, or for a puzzle its
/// type's rater has not rated yet, that; `None` where there is no rating
/// to have (not one solution, or no rater for the type).
fn rating_line(p: &Puzzle) -> Option<String> {
    let kind = PuzzleType::from_name(&p.r#type)?;
    let scale = crate::core::logic::stored::scale(kind);
    match &p.rating {
        Some(r) => Some(format!(
            "{scale} {}{} ({})",
            if r.bound { "at least " } else { "" },
            crate::core::logic::tenths(r.tenths),
            r.technique
        )),
        None if p.solutions == 1 && crate::core::logic::stored::version(kind).is_some() => {
            Some("not rated yet (`sudoku-archive rate` rates it)".to_string())
        }
        None => None,
    }
}

impl Finder<'_> {
    /// The answer for people; `at` is where the string was read.
    fn write_text(&mut self, at: At, q: &Query, answer: &Answer) -> anyhow::Result<()> {
        let (conn, out) = (self.conn, &mut self.out);
        let label = label(at, q);
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
            Answer::Isomorphs { ids, .. } => &ids[..1],
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
            if let Some(r) = rating_line(&p) {
                writeln!(out, "  rating:   {r}")?;
            }
            if let Answer::Isomorphs {
                ids: all, total, ..
            } = answer
            {
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
            if let Answer::Isomorphs {
                solution: Some(own),
                ..
            } = answer
            {
                writeln!(out, "  solution of the string: {own}")?;
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
                    "            ... and {}: SELECT * FROM provenance WHERE puzzle_id = {id}",
                    super::output::count_of(
                        (total - i64::from(SHOWN_SOURCES)) as u64,
                        "more line",
                        "more lines"
                    )
                )?;
            }
        }
        Ok(())
    }
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
    /// For `isomorph`: the string's own unique solution (the puzzle's is
    /// that of its stored arrangement), how many stored puzzles share the
    /// form, and the ids of the first of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    input_solution: Option<&'a str>,
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

impl Finder<'_> {
    /// The answer as one line of JSON; `at` is where the string was read.
    fn write_json(&mut self, at: At, q: &Query, answer: &Answer) -> anyhow::Result<()> {
        let (conn, out) = (self.conn, &mut self.out);
        let (found, error, ids): (_, Option<&str>, &[i64]) = match answer {
            Answer::Exact(id) => ("exact", None, std::slice::from_ref(id)),
            Answer::Isomorphs { ids, .. } => ("isomorph", None, &ids[..1]),
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
            file: at.map(|(f, _)| f),
            line: at.map(|(_, l)| l),
            found,
            error,
            puzzles,
            input_solution: match answer {
                Answer::Isomorphs { solution, .. } => solution.as_deref(),
                _ => None,
            },
            isomorphs: match answer {
                Answer::Isomorphs { total, .. } => Some(*total),
                _ => None,
            },
            isomorph_ids: match answer {
                Answer::Isomorphs { ids, .. } => Some(ids),
                _ => None,
            },
        };
        writeln!(out, "{}", serde_json::to_string(&a)?)?;
        Ok(())
    }
}
