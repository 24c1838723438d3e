//! Why a Str8ts string was rejected: the form being read, the error with
//! its cell and its words, and the stable reason code the archive stores
//! for each.

use std::fmt;

use super::Compartment;
use crate::core::grid::Cell;
use crate::core::mask::{Digit, Mask};
use crate::core::progress::Conflict;

/// Which of the two string forms an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// 81 digits then 81 colours.
    Legacy,
    /// Three base-32 characters per cell.
    Packed,
    /// `T9B`, two base-36 characters per cell (`version_b`).
    VersionB,
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Form::Legacy => "legacy",
            Form::Packed => "packed",
            Form::VersionB => "version b",
        })
    }
}

/// Why a str8ts string was rejected. Each variant names the cell (index and
/// r1c1) or the compartment, and quotes what it found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(
        "str8ts: {}, expected 162 (legacy: 81 digits then 81 colours) or 243 (packed)",
        crate::core::vocabulary::characters(*len)
    )]
    Length { len: usize },
    #[error(
        "str8ts {form}: character {pos} ({part} of cell {} ({cell})) is {found:?}, expected {expected}",
        .cell.index()
    )]
    Character {
        form: Form,
        pos: usize,
        part: &'static str,
        cell: Cell,
        found: char,
        expected: &'static str,
    },
    #[error("str8ts packed: cell {} ({cell}) is {found:?} = {value}, above \"1vs\" = 2044", .cell.index())]
    Value {
        cell: Cell,
        found: String,
        value: u16,
    },
    #[error("str8ts packed: cell {} ({cell}) is {found:?}: black but has candidates {mask}", .cell.index())]
    BlackCandidates {
        cell: Cell,
        found: String,
        mask: Mask,
    },
    #[error(
        "str8ts packed: cell {} ({cell}) is {found:?}: black with digit {mask} not flagged as a given",
        .cell.index()
    )]
    BlackUnflagged {
        cell: Cell,
        found: String,
        mask: Mask,
    },
    #[error(
        "str8ts packed: cell {} ({cell}) is {found:?}: flagged as a given but holds {count} digits, expected one",
        .cell.index()
    )]
    ClueFlag {
        cell: Cell,
        found: String,
        count: u32,
    },
    #[error("str8ts packed: cell {} ({cell}) is {found:?}: white and empty but has no candidates", .cell.index())]
    NoCandidates { cell: Cell, found: String },
    #[error(
        "str8ts {form}: digit {digit} twice in {along} {number}: cell {} ({first}) and cell {} ({second})",
        .first.index(), .second.index()
    )]
    Duplicate {
        form: Form,
        digit: Digit,
        along: &'static str,
        number: usize,
        first: Cell,
        second: Cell,
    },
    #[error(
        "str8ts {form}: {compartment} holds digits \"{digits}\", which no straight of {} contains",
        .compartment.len()
    )]
    Straight {
        form: Form,
        compartment: Compartment,
        digits: Mask,
    },
    /// The string's solved digits and candidates leave none of the
    /// solutions of its givens and colours ([`progress::check`]).
    #[error("str8ts {form}: {conflict}")]
    Progress { form: Form, conflict: Conflict },
}

impl Error {
    /// A short stable code for the archive's `rejects.reason` column.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Length { .. } => "length",
            Error::Character { .. } => "character",
            Error::Value { .. } => "value",
            Error::BlackCandidates { .. } | Error::BlackUnflagged { .. } => "black-cell",
            Error::ClueFlag { .. } => "clue-flag",
            Error::NoCandidates { .. } => "no-candidates",
            Error::Duplicate { .. } => "repeated-digit",
            Error::Straight { .. } => "straight",
            Error::Progress { .. } => "contradiction",
        }
    }
}
