//! Deduplication, one path for import and merge: where the puzzle of a
//! type, givens and form is held (stored by the open batch, [`Pending`],
//! or by an earlier one), or the free key a new one goes under.
//!
//! By identity: the key walk from the puzzle's hash
//! ([`crate::record::key_of`], stepping past other puzzles with
//! [`crate::record::next_key`]) over the batch's keys and `puzzles_by_key`.
//! With [`Dedup::Isomorphs`], first: the first stored puzzle of the same
//! type and canonical form, by `puzzles_by_form` and then the batch's
//! puzzles of that hash. It reads; the caller stores.

use rusqlite::{Connection, OptionalExtension, params};

use super::lookup::BY_KEY;
use super::pending::Pending;
use super::puzzle_row::Held;

/// What makes a line a duplicate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dedup {
    /// The same type and givens as a stored puzzle.
    #[default]
    Exact,
    /// Or the same canonical form: relabelled, permuted, rotated copies.
    Isomorphs,
}

/// The first stored puzzle (of earlier batches) with this canonical hash,
/// type and form: `puzzles_by_form` holds each hash's puzzles in id order.
pub(super) const BY_CANONICAL: &str = "SELECT p.id, p.givens
    FROM puzzles_by_form AS f JOIN puzzles AS p ON p.id = f.puzzle_id
    WHERE f.canonical_hash = ?1 AND p.type = ?2 AND p.canonical = ?3
    ORDER BY f.puzzle_id LIMIT 1";

/// Where a puzzle sought is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// Held as `id`: the same puzzle, or (`isomorph`) one of its form.
    Held { id: i64, isomorph: bool },
    /// Not held: a new puzzle goes under this key.
    Free(i64),
}

/// A puzzle sought: its type, givens, the hash its key walk starts from,
/// and its canonical form with that form's hash, if it has one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sought<'a> {
    pub kind: &'a str,
    pub givens: &'a str,
    pub key: i64,
    pub canonical: Option<(&'a str, i64)>,
}

/// The deduplication of one batch: its connection (inside the open
/// transaction), the batch's new puzzles, and the rule.
pub(super) struct Dedupe<'a> {
    pub conn: &'a Connection,
    pub pending: &'a Pending,
    pub dedup: Dedup,
}

impl Dedupe<'_> {
    /// Where `p` is: with isomorphs the first puzzle of its form, else
    /// (or when none is) the one of its identity, else its free key.
    /// `row(id)` reads a puzzle of the open batch (the caller knows where
    /// its rows are).
    pub fn place(
        &self,
        p: Sought<'_>,
        mut row: impl FnMut(i64) -> rusqlite::Result<Held>,
    ) -> rusqlite::Result<Place> {
        if let Some(found) = self.isomorph(p.kind, p.canonical, p.givens, &mut row)? {
            return Ok(found);
        }
        let mut by_key = self.conn.prepare_cached(BY_KEY)?;
        let walked = self
            .pending
            .walk(p.key, &mut by_key, p.kind, p.givens, |id| {
                let held = row(id)?;
                Ok(held.kind == p.kind && held.givens == p.givens)
            })?;
        Ok(match walked {
            Ok(id) => Place::Held {
                id,
                isomorph: false,
            },
            Err(free) => Place::Free(free),
        })
    }

    /// With [`Dedup::Isomorphs`], the first stored puzzle of the type and
    /// form given (maybe the puzzle itself): of earlier batches, else of
    /// this one; an isomorph when its givens are not `givens`.
    pub fn isomorph(
        &self,
        kind: &str,
        canonical: Option<(&str, i64)>,
        givens: &str,
        mut row: impl FnMut(i64) -> rusqlite::Result<Held>,
    ) -> rusqlite::Result<Option<Place>> {
        let (Dedup::Isomorphs, Some((form, hash))) = (self.dedup, canonical) else {
            return Ok(None);
        };
        let mut found = self
            .conn
            .prepare_cached(BY_CANONICAL)?
            .query_row(params![hash, kind, form], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })
            .optional()?;
        if found.is_none() {
            for id in self.pending.with_hash(hash) {
                let held = row(id)?;
                if held.kind == kind && held.canonical.as_deref() == Some(form) {
                    found = Some((id, held.givens));
                    break;
                }
            }
        }
        Ok(found.map(|(id, stored)| Place::Held {
            id,
            isomorph: stored != givens,
        }))
    }
}
