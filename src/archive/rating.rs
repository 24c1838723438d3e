//! Puzzles' ratings in the archive (migration 0017): which stored puzzles
//! need one, the run of `rate` that writes them, and the counts `stats`
//! shows. The rating itself is `core::logic::stored`'s; the columns are
//! [`super::puzzle_row`]'s.
//!
//! Design and invariants:
//! - **Which puzzles**: those with exactly one solution, of a type that has
//!   a rater ([`stored::version`]), whose `rating_version` is not that
//!   rater's version (none yet, or an older rater's). Puzzles with 0 or 2+
//!   solutions, and types without a rater, keep NULL.
//! - **The form rated** is the stored canonical form (computed when the
//!   row has none), so that isomorphs get the same rating.
//! - **A run** is a row of `imports` (arguments starting with `rate`,
//!   counted in `rated`), under the import lock as an import's
//!   ([`super::run`]). Puzzles are read in id order a batch at a time,
//!   rated on all cores, and written in one transaction with the run's
//!   count. A kill loses at most the batch in flight; nothing else marks
//!   progress, so a re-run rates exactly what is still not rated.
//! - **A stop** (the flag of [`RateRun::stop_on`]) is read before each
//!   puzzle is rated: the puzzles rated by then are committed, the rest
//!   stay for the next run.
//!
//! It must not rate a puzzle a second way: every rating goes through
//! [`rate_one`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use rusqlite::{Connection, params};

use super::puzzle_row::{SET_RATING, decimal};
use super::run::{Kind, Run};
use super::{Archive, ArchiveError};
use crate::core::logic::stored::{self, Stored};
use crate::core::vocabulary::PuzzleType;
use crate::pipeline::Ended;

/// A `rate` run.
pub const RATE: Kind = Kind {
    recording: "recording the rating run",
    recording_end: "recording the end of the rating run",
};

/// Puzzles read, rated and committed together: small enough that a kill
/// loses seconds of work on the hardest puzzles (about 70 a second a
/// core), large enough that a commit costs nothing beside the rating.
pub const BATCH: usize = 1024;

/// A stored puzzle to rate.
#[derive(Clone, Debug)]
pub struct Unrated {
    pub id: i64,
    pub kind: PuzzleType,
    pub givens: String,
    pub canonical: Option<String>,
}

/// The rating of one stored puzzle, as the archive stores it: the one way
/// a rating is made. `None`: the rater gave none (its type has no rater,
/// or it found the puzzle has no solution).
pub fn rate_one(p: &Unrated) -> Option<Stored> {
    stored::rate_stored(p.kind, &p.givens, p.canonical.as_deref())
}

/// The SQL condition of a puzzle that needs rating now, for the alias
/// `p`; `0` when no type has a rater. Built from the raters' versions (the
/// binary's own constants, never input).
pub fn needs_rating(p: &str) -> String {
    let by_type: Vec<String> = PuzzleType::ALL
        .into_iter()
        .filter_map(|t| {
            stored::version(t).map(|v| {
                format!(
                    "({p}type = '{}' AND {p}rating_version IS NOT {v})",
                    t.as_str()
                )
            })
        })
        .collect();
    if by_type.is_empty() {
        return "0".to_string();
    }
    format!("{p}solutions = 1 AND ({})", by_type.join(" OR "))
}

fn sql(what: &'static str) -> impl Fn(rusqlite::Error) -> ArchiveError {
    move |e| ArchiveError::sql(what, e)
}

/// How many stored puzzles need rating now.
pub fn count_unrated(conn: &Connection) -> Result<u64, ArchiveError> {
    let q = format!("SELECT count(*) FROM puzzles WHERE {}", needs_rating(""));
    conn.query_row(&q, [], |r| r.get::<_, i64>(0))
        .map(|n| n.max(0) as u64)
        .map_err(sql("counting the puzzles to rate"))
}

/// Up to `limit` puzzles that need rating, of ids above `after`, in id order.
pub fn unrated_after(
    conn: &Connection,
    after: i64,
    limit: usize,
) -> Result<Vec<Unrated>, ArchiveError> {
    let q = format!(
        "SELECT id, type, givens, canonical FROM puzzles
         WHERE id > ?1 AND {} ORDER BY id LIMIT ?2",
        needs_rating("")
    );
    let e = sql("reading the puzzles to rate");
    let mut st = conn.prepare_cached(&q).map_err(&e)?;
    let rows = st
        .query_map(params![after, limit as i64], |r| {
            let name: String = r.get(1)?;
            Ok((r.get(0)?, name, r.get(2)?, r.get(3)?))
        })
        .map_err(&e)?;
    let mut out = Vec::new();
    for row in rows {
        let (id, name, givens, canonical): (i64, String, String, Option<String>) =
            row.map_err(&e)?;
        // Only types with a rater are selected, by their stored names.
        if let Some(kind) = PuzzleType::from_name(&name) {
            out.push(Unrated {
                id,
                kind,
                givens,
                canonical,
            });
        }
    }
    Ok(out)
}

/// Writes `rated`'s ratings (in the caller's transaction).
pub fn write(conn: &Connection, rated: &[(i64, PuzzleType, Stored)]) -> Result<(), ArchiveError> {
    let e = sql("writing ratings");
    let mut st = conn.prepare_cached(SET_RATING).map_err(&e)?;
    for (id, kind, s) in rated {
        // Only rated types are rated, so each has a version.
        let version = stored::version(*kind).unwrap_or(0);
        st.execute(params![
            id,
            decimal(s.rating),
            s.technique,
            s.bound,
            version
        ])
        .map_err(&e)?;
    }
    Ok(())
}

/// One run of `rate`.
pub struct RateRun<'a> {
    archive: &'a Archive,
    run: Run,
    pub id: i64,
    /// Ratings written.
    pub rated: u64,
    /// Puzzles the rater gave no rating (kept NULL; tried again by the next
    /// run): their ids, the first few.
    pub failed: u64,
    pub failed_ids: Vec<i64>,
    /// Runs marked `interrupted` on taking the lock.
    pub interrupted: Vec<i64>,
    /// Puzzles per batch (tests make it small).
    pub batch: usize,
    stop: Option<Arc<AtomicBool>>,
}

impl<'a> RateRun<'a> {
    /// Records the start of a run with its command line.
    pub fn begin(archive: &'a Archive, arguments: &[String]) -> Result<RateRun<'a>, ArchiveError> {
        let (run, interrupted) = Run::begin(archive, &RATE, arguments)?;
        Ok(RateRun {
            archive,
            id: run.id,
            run,
            rated: 0,
            failed: 0,
            failed_ids: Vec::new(),
            interrupted,
            batch: BATCH,
            stop: None,
        })
    }

    /// Makes the run stop before the next puzzle once `flag` is raised.
    pub fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    fn stopping(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Rates every puzzle that needs it, batch by batch, on `pool`'s
    /// threads; `done` is told the puzzles rated (or given none) so far
    /// after each commit.
    pub fn rate(
        &mut self,
        pool: &rayon::ThreadPool,
        done: impl Fn(u64),
    ) -> Result<Ended, ArchiveError> {
        let mut after = 0;
        loop {
            if self.stopping() {
                return Ok(Ended::Stopped);
            }
            let todo = unrated_after(&self.archive.conn, after, self.batch)?;
            let Some(last) = todo.last() else {
                return Ok(Ended::Complete);
            };
            after = last.id;
            let stop = self.stop.clone();
            let results: Vec<Option<Option<Stored>>> = pool.install(|| {
                todo.par_iter()
                    .map(|p| {
                        if stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                            return None;
                        }
                        Some(rate_one(p))
                    })
                    .collect()
            });
            let mut rated = Vec::with_capacity(todo.len());
            for (p, r) in todo.iter().zip(results) {
                match r {
                    Some(Some(s)) => rated.push((p.id, p.kind, s)),
                    Some(None) => {
                        self.failed += 1;
                        if self.failed_ids.len() < 10 {
                            self.failed_ids.push(p.id);
                        }
                    }
                    None => {}
                }
            }
            self.commit(&rated)?;
            done(self.rated + self.failed);
        }
    }

    /// Writes one batch's ratings and the run's count in one transaction.
    fn commit(&mut self, rated: &[(i64, PuzzleType, Stored)]) -> Result<(), ArchiveError> {
        let conn = &self.archive.conn;
        conn.execute_batch("BEGIN IMMEDIATE")
            .map_err(sql("starting a batch of ratings"))?;
        let written = write(conn, rated).and_then(|()| {
            conn.execute(
                "UPDATE imports SET rated = ?2 WHERE id = ?1",
                params![self.id, (self.rated + rated.len() as u64) as i64],
            )
            .map_err(sql("writing the run's count"))
        });
        if let Err(e) = written {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(e);
        }
        conn.execute_batch("COMMIT")
            .map_err(sql("committing a batch of ratings"))?;
        self.rated += rated.len() as u64;
        self.run.after_commit(self.archive, 0)
    }

    /// Ends the run `finished`, or `failed` with the error.
    pub fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        self.run.finish(&self.archive.conn, Ok(()), error)
    }

    /// Ends the run `interrupted` (every batch is committed already).
    pub fn interrupt(&mut self) -> Result<(), ArchiveError> {
        self.run.end(&self.archive.conn, "interrupted", None)
    }
}

/// Per type, how many puzzles have a rating in each band of 1.0 (`band`
/// 7 holds 7.0 to 7.9), read from the index on (type, rating).
#[derive(Debug, serde::Serialize)]
pub struct BandRow {
    pub r#type: String,
    pub band: i64,
    pub count: i64,
}

pub const BANDS: &str = "SELECT type, CAST(rating AS INTEGER) AS band, count(*) FROM puzzles
     WHERE rating IS NOT NULL GROUP BY type, band ORDER BY type, band";

pub fn bands(conn: &Connection) -> Result<Vec<BandRow>, ArchiveError> {
    let e = sql("counting puzzles by rating");
    let mut st = conn.prepare(BANDS).map_err(&e)?;
    st.query_map([], |r| {
        Ok(BandRow {
            r#type: r.get(0)?,
            band: r.get(1)?,
            count: r.get(2)?,
        })
    })
    .map_err(&e)?
    .collect::<Result<_, _>>()
    .map_err(&e)
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use crate::archive::lookup::plan;

    fn archive() -> Connection {
        let mut c = Connection::open_in_memory().unwrap();
        crate::archive::schema::migrate(&mut c).unwrap();
        c
    }

    /// The shell's question "the hard ones of a type" is a range read of
    /// the index on (type, rating), not a scan; so are the bands `stats`
    /// counts.
    #[test]
    fn the_hard_puzzles_of_a_type_and_the_bands_are_read_from_the_index() {
        let c = archive();
        assert_eq!(
            plan::of(
                &c,
                "SELECT id FROM puzzles WHERE type = 'sudoku' AND rating >= 7",
                []
            ),
            ["SEARCH puzzles USING COVERING INDEX puzzles_type_rating (type=? AND rating>?)"]
        );
        assert_eq!(
            plan::of(
                &c,
                "SELECT givens FROM puzzles WHERE type = 'sudoku' AND rating >= 7",
                []
            ),
            ["SEARCH puzzles USING INDEX puzzles_type_rating (type=? AND rating>?)"]
        );
        assert_eq!(
            plan::of(&c, super::BANDS, []),
            [
                "SCAN puzzles USING COVERING INDEX puzzles_type_rating",
                "USE TEMP B-TREE FOR GROUP BY"
            ]
        );
    }

    /// Which puzzles need rating, with the raters at version 1: one
    /// solution and no rating of this version.
    #[test]
    fn a_puzzle_needs_rating_only_with_one_solution_a_rater_and_no_current_rating() {
        let c = archive();
        c.execute_batch(
            "INSERT INTO imports (id, arguments) VALUES (1, '[]');
             INSERT INTO puzzles (id, type, clues, givens, encoding, solutions, import_id, key,
                                  rating_version)
             VALUES (1, 'sudoku', 0, 'a', 'e', 1, 1, 1, NULL),
                    (2, 'sudoku', 0, 'b', 'e', 1, 1, 2, 0),
                    (3, 'sudoku', 0, 'c', 'e', 1, 1, 3, 1),
                    (4, 'sudoku', 0, 'd', 'e', 2, 1, 4, NULL),
                    (5, 'sudoku', 0, 'f', 'e', 0, 1, 5, NULL),
                    (6, 'killer', 0, 'g', 'e', 1, 1, 6, NULL),
                    (7, 'killer', 0, 'h', 'e', 1, 1, 7, 1);",
        )
        .unwrap();
        let ids: Vec<i64> = super::unrated_after(&c, 0, 10)
            .unwrap()
            .iter()
            .map(|u| u.id)
            .collect();
        assert_eq!(ids, [1, 2, 6]);
        assert_eq!(super::count_unrated(&c).unwrap(), 3);
        assert_eq!(super::unrated_after(&c, 1, 10).unwrap().len(), 2);
    }
}
