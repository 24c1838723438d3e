//! The rows earlier reads of a file left for the lines of a chunk read
//! now, and which of them a line supersedes: every row of the line that is
//! not the row the line makes now (another puzzle, relation or fields;
//! another reject; a row where the line now makes none). A row equal to
//! the new one stays as it is, so an unchanged line costs no write.
//!
//! Loaded only for the chunks of a file that the archive holds rows of at
//! or past their first line (see [`super::writer`]): one range read of
//! each table's primary key or unique index a chunk, then a walk in line
//! order beside the chunk's. Nothing is taken out here: the caller hands
//! what is superseded to [`super::remove`].

use rusqlite::{Connection, params};

/// A provenance row left by an earlier read.
struct OldSource {
    line: i64,
    puzzle_id: i64,
    /// Its relation is `isomorph` (else `exact`): read as a flag, so that
    /// a chunk's rows cost no allocation but for their rare fields.
    isomorph: bool,
    fields: Option<String>,
}

/// A reject row left by an earlier read.
struct OldReject {
    line: i64,
    id: i64,
    reason: String,
    raw: String,
    message: String,
}

/// What a line read now comes to.
pub(super) enum Now<'a> {
    Source {
        puzzle_id: i64,
        relation: &'a str,
        fields: Option<&'a str>,
    },
    Reject {
        reason: &'a str,
        raw: &'a str,
        message: &'a str,
    },
    /// No row (a comment, a blank line, a grid's later line).
    Nothing,
}

/// The earlier rows of one chunk's lines, in line order.
pub(super) struct Earlier {
    sources: Vec<OldSource>,
    rejects: Vec<OldReject>,
    /// How far the walk has gone in each.
    s: usize,
    r: usize,
}

/// What a line supersedes: provenance rows (by their puzzle) and rejects
/// (by id).
#[derive(Debug, Default)]
pub(super) struct Superseded {
    pub sources: Vec<(i64, i64)>,
    pub rejects: Vec<i64>,
}

impl Earlier {
    /// The rows of the file's lines `first..=last`; `None` if there are none.
    pub fn load(
        tx: &Connection,
        file_id: i64,
        first: i64,
        last: i64,
    ) -> rusqlite::Result<Option<Earlier>> {
        let sources: Vec<OldSource> = tx
            .prepare_cached(
                "SELECT line, puzzle_id, relation = 'isomorph', fields FROM sources
                 WHERE file_id = ?1 AND line BETWEEN ?2 AND ?3 ORDER BY line",
            )?
            .query_map(params![file_id, first, last], |r| {
                Ok(OldSource {
                    line: r.get(0)?,
                    puzzle_id: r.get(1)?,
                    isomorph: r.get(2)?,
                    fields: r.get(3)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let rejects: Vec<OldReject> = tx
            .prepare_cached(
                "SELECT line, id, reason, raw, message FROM rejects
                 WHERE file_id = ?1 AND line BETWEEN ?2 AND ?3 ORDER BY line",
            )?
            .query_map(params![file_id, first, last], |r| {
                Ok(OldReject {
                    line: r.get(0)?,
                    id: r.get(1)?,
                    reason: r.get(2)?,
                    raw: r.get(3)?,
                    message: r.get(4)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok(
            (!sources.is_empty() || !rejects.is_empty()).then_some(Earlier {
                sources,
                rejects,
                s: 0,
                r: 0,
            }),
        )
    }

    /// Adds to `out` the earlier rows of `line` that `now` does not equal;
    /// says whether one of them is the provenance row `now` makes (which
    /// then needs no writing). Lines come in ascending order.
    pub fn supersede(&mut self, line: i64, now: &Now<'_>, out: &mut Superseded) -> bool {
        let mut kept = false;
        while let Some(old) = self.sources.get(self.s) {
            if old.line > line {
                break;
            }
            self.s += 1;
            if old.line < line {
                continue;
            }
            let same = matches!(now, Now::Source { puzzle_id, relation, fields }
                if *puzzle_id == old.puzzle_id
                    && (*relation == "isomorph") == old.isomorph
                    && *fields == old.fields.as_deref());
            if same {
                kept = true;
            } else {
                out.sources.push((line, old.puzzle_id));
            }
        }
        while let Some(old) = self.rejects.get(self.r) {
            if old.line > line {
                break;
            }
            self.r += 1;
            if old.line < line {
                continue;
            }
            let same = matches!(now, Now::Reject { reason, raw, message }
                if *reason == old.reason && *raw == old.raw && *message == old.message);
            if !same {
                out.rejects.push(old.id);
            }
        }
        kept
    }
}
