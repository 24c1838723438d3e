//! Why a Killer string was rejected: the form being read, the error with
//! its cell and its words, and the stable reason code the archive stores
//! for each.

use std::fmt;

use super::sum_range;
use crate::core::grid::Cell;
use crate::core::mask::Digit;
use crate::core::progress::Conflict;

/// Which reader or builder met a problem: the first words of its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `81 colours,162 decimal sums`.
    Legacy,
    /// `162,162` base-32.
    Packed,
    /// Cage ids and sums ([`Killer::from_cages`]).
    Cages,
    /// `L9B`, four base-36 characters per cell (`version_b`).
    VersionB,
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Form::Legacy => "killer legacy",
            Form::Packed => "killer packed",
            Form::Cages => "killer cages",
            Form::VersionB => "killer version b",
        })
    }
}

/// Why a Killer string (or cage list) was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("{}", length_message(*.first, *.second))]
    Length { first: usize, second: Option<usize> },
    #[error("{form}: character {pos} (cell {}, {cell}) is {found:?}, expected {expected}", cell.index())]
    Character {
        form: Form,
        pos: usize,
        cell: Cell,
        found: char,
        expected: &'static str,
    },
    #[error("{form}: cell {} ({cell}) has colour {found:?}, expected {expected}", cell.index())]
    Colour {
        form: Form,
        cell: Cell,
        found: String,
        expected: &'static str,
    },
    #[error("{form}: cell {} ({cell}) has sum {found} ({text:?}), at most 45", cell.index())]
    Sum {
        form: Form,
        cell: Cell,
        found: u16,
        text: String,
    },
    #[error("killer packed: cell {} ({cell}) has candidates {found} ({text:?}), expected an even value (mask << 1)", cell.index())]
    Mask {
        cell: Cell,
        found: u16,
        text: String,
    },
    #[error("{form}: cage at {first} ({size} cells) has no sum")]
    NoSum {
        form: Form,
        first: Cell,
        size: usize,
    },
    #[error("{form}: cage at {first} has {count} sums ({a} at {at_a}, {b} at {at_b}), expected one", a = .sums.0, at_a = .sums.1, b = .sums.2, at_b = .sums.3)]
    Sums {
        form: Form,
        first: Cell,
        count: usize,
        sums: (u8, Cell, u8, Cell),
    },
    #[error("{form}: cage at {first} has {size} cells, at most 9")]
    CageSize {
        form: Form,
        first: Cell,
        size: usize,
    },
    #[error("{form}: cage at {first} has {size} cells and sum {sum}, but {size} distinct digits make {min} to {max}", min = sum_range(*.size).0, max = sum_range(*.size).1)]
    CageRange {
        form: Form,
        first: Cell,
        size: usize,
        sum: u8,
    },
    #[error("{form}: cage sums total {total}, expected 405")]
    Total { form: Form, total: u32 },
    #[error("{form}: digit {digit} at {cell} repeats the one at {other} in {place}")]
    Duplicate {
        form: Form,
        digit: Digit,
        cell: Cell,
        other: Cell,
        place: String,
    },
    #[error("killer cages: cell {} ({cell}) has cage id {id}, expected below {count} (one id per sum)", cell.index())]
    CageId { cell: Cell, id: u8, count: usize },
    #[error("killer cages: cage id {id} has no cell")]
    UnusedId { id: u8 },
    #[error("killer cages: cage id {id} is split: {at} is not connected to {first}")]
    Split { id: u8, first: Cell, at: Cell },
    #[error("killer cages: cannot colour {count} cages with 5 colours")]
    Colouring { count: usize },
    /// The string's solved digits and candidates leave none of the
    /// solutions of its cages and givens ([`progress::check`]).
    #[error("{form}: {conflict}")]
    Progress { form: Form, conflict: Conflict },
}

fn length_message(first: usize, second: Option<usize>) -> String {
    match second {
        None => format!(
            "killer: {} and no comma, expected 81,162 (legacy) or 162,162 (packed)",
            crate::core::vocabulary::characters(first)
        ),
        Some(b) => {
            format!("killer: {first},{b} characters, expected 81,162 (legacy) or 162,162 (packed)")
        }
    }
}

impl Error {
    /// A short stable code for the archive's `rejects.reason` column.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Length { .. } => "length",
            Error::Character { .. } => "character",
            Error::Colour { .. } | Error::Colouring { .. } => "colour",
            Error::Sum { .. } => "sum",
            Error::Mask { .. } => "mask",
            Error::NoSum { .. } | Error::Sums { .. } => "cage-sum",
            Error::CageSize { .. } => "cage-size",
            Error::CageRange { .. } => "cage-range",
            Error::Total { .. } => "total",
            Error::Duplicate { .. } => "repeated-digit",
            Error::CageId { .. } | Error::UnusedId { .. } | Error::Split { .. } => "cage-id",
            Error::Progress { .. } => "contradiction",
        }
    }
}
