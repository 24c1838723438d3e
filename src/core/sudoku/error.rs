//! Why a classic string was rejected: the form being read, the error
//! with its cell and its words, and the stable reason code the archive
//! stores for each.

use std::fmt;

use super::Unit;
use crate::core::grid::Cell;
use crate::core::mask::{Digit, Mask};
use crate::core::progress::Conflict;

/// Which classic string was being read; the prefix of every error message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 81 characters, one per cell.
    Legacy,
    /// 162 characters, two base-32 characters per cell.
    Packed,
    /// Not yet known: the length matched neither.
    Any,
    /// `S9B`, two base-36 characters per cell (`version_b`).
    VersionB,
}

impl Format {
    /// What a cell's characters may be, for error messages.
    const fn expected(self) -> &'static str {
        match self {
            Format::Legacy => "a digit 1-9, 0 or '.'",
            Format::Packed | Format::Any => "a base-32 character 0-9 or a-v",
            Format::VersionB => "a base-36 character 0-9 or a-z",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Legacy => "sudoku legacy",
            Format::Packed => "sudoku packed",
            Format::Any => "sudoku",
            Format::VersionB => "sudoku version b",
        })
    }
}

/// Why a classic Sudoku string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("{format}: expected {expected} characters, found {found}")]
    Length {
        format: Format,
        expected: &'static str,
        found: usize,
    },

    #[error("{format}: cell {} ({cell}) has {found:?} at position {pos}, expected {}", .cell.index(), .format.expected())]
    Character {
        format: Format,
        pos: usize,
        cell: Cell,
        found: char,
    },

    /// The clue bit is set on an empty mask (`01`) or on a set (e.g. `vv`).
    #[error("sudoku packed: cell {} ({cell}) value {value:?} flags a clue on {}", .cell.index(), clue_target(*.mask))]
    ClueFlag {
        cell: Cell,
        value: String,
        mask: Mask,
    },

    #[error("{format}: digit {digit} twice in {unit}: {first} and {second}")]
    Duplicate {
        format: Format,
        digit: Digit,
        unit: Unit,
        first: Cell,
        second: Cell,
    },

    /// See [`validate`] for the rule.
    #[error("{format}: cell {} ({cell}) lists candidates {candidates} but its peers have placed them all", .cell.index())]
    Candidates {
        format: Format,
        cell: Cell,
        candidates: Mask,
    },

    /// The string's solved digits and candidates leave none of the
    /// solutions of its givens ([`progress::check`]).
    #[error("{format}: {conflict}")]
    Progress { format: Format, conflict: Conflict },
}

fn clue_target(mask: Mask) -> String {
    if mask.is_empty() {
        "an empty cell".to_owned()
    } else {
        format!("the set {mask}, not one digit")
    }
}

impl Error {
    /// A short stable code for the archive's `rejects.reason` column.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Length { .. } => "length",
            Error::Character { .. } => "character",
            Error::ClueFlag { .. } => "clue-flag",
            Error::Duplicate { .. } => "repeated-digit",
            Error::Candidates { .. } => "candidates",
            Error::Progress { .. } => "contradiction",
        }
    }
}
