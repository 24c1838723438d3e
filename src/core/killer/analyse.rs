//! Killer Sudoku: its two string forms, cages and their validation, the
//! puzzle's identity, propagation, solution counting and the [`Analysis`]
//! the archive stores, behind the [`PuzzleKind`] contract ([`Killer`]
//! implements it).
//!
//! A puzzle is its cages (4-connected regions of one colour, one sum each)
//! plus any placed digits; colours carry no meaning, so the identity
//! ([`Killer::identity`]) recolours canonically. Pure: strings and arrays in,
//! values out; no I/O.
//!
//! The same layout as each type's folder: `board` (the puzzle, its
//! identity and encodings), `format` (the characters of the two forms),
//! `validate` (building a puzzle and the rules across cells), `propagate`
//! (propagation and the count as stored, and the contradiction messages),
//! `solve` (the rules and the search on candidate masks, with their
//! readable reference), `canon` (the isomorph canonical form), and beside `format` `version_b`
//! (the `L9B` string) and `krazydad` (the krazydad CSV's two fields). `cages`
//! holds cage geometry, combinations and colouring, which several of them
//! share. Here: the errors and their codes, and the analysis.

mod board;
pub(crate) mod cages;
pub(crate) mod canon;
mod format;
pub mod krazydad;
mod propagate;
mod solve;
mod validate;
pub mod version_b;

use std::fmt;

use crate::core::grid::{CELLS, Cell};
use crate::core::kind::{Analysis, CanonError, PuzzleKind, PuzzleType};
use crate::core::mask::{Digit, Mask};
use crate::core::progress::{self, Conflict};

pub use cages::{MAX_SUM, combinations, sum_range};

pub use board::{Cage, Killer};
pub use propagate::Propagated;
use propagate::masks;

/// The most colours a Killer string can draw with.
pub const COLOURS: u8 = 5;

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
            "killer: {first} characters and no comma, expected 81,162 (legacy) or 162,162 (packed)"
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

impl Killer {
    /// Everything the archive stores about this position as it stands,
    /// every placed digit a given (see [`analyse_puzzle`]). `encoding` is the
    /// packed string of `candidates`: the propagated board, or the board as
    /// read when propagation contradicts itself.
    pub fn analysis(&self) -> Analysis {
        let (board, status) = self.propagate_and_solve();
        let candidates = masks(board.cand());
        let mut shading = [0u8; CELLS];
        for (s, &k) in shading.iter_mut().zip(&self.cage_of) {
            *s = k + 1;
        }
        let colours = self.canonical_colours();
        Analysis {
            kind: PuzzleType::Killer,
            clues: self.clues(),
            givens: self.identity_in(&colours),
            encoding: self.encode_in(&colours, &candidates),
            status,
            candidates,
            given: self.cells.map(|m| m.single().is_some()),
            shading,
        }
    }
}

/// Parses, validates, propagates and solves a bare Killer string. A
/// packed string's placed digits are its givens; its other cells'
/// candidates are progress ([`analyse_puzzle`]).
pub fn analyse(s: &str) -> Result<Analysis, Error> {
    let f = format::read(s)?;
    let k = Killer::from_parts(f.form, f.colour, f.clue, f.cells)?;
    let given = k.cells.map(|m| m.single().is_some());
    analyse_puzzle(&k, f.form, given)
}

/// What the archive stores about the puzzle of a checked position `k`:
/// counted from its cages and the digits `given` flags alone, the puzzle's
/// identity, so that every form of one puzzle stores the same facts. The
/// position's other digits and candidates are only checked against that
/// puzzle: when they leave none of its solutions the string is rejected
/// ([`progress::check`]).
pub(crate) fn analyse_puzzle(
    k: &Killer,
    form: Form,
    given: [bool; CELLS],
) -> Result<Analysis, Error> {
    let mut puzzle = k.clone();
    for (m, &g) in puzzle.cells.iter_mut().zip(&given) {
        if !g {
            *m = Mask::EMPTY;
        }
    }
    let a = puzzle.analysis();
    if progress::carries(&k.cells, &given) {
        progress::check(&a.status, &k.cells, || k.solve())
            .map_err(|conflict| Error::Progress { form, conflict })?;
    }
    Ok(a)
}

/// The identity of a legacy string (`81 colours,162 sums`), which carries
/// nothing but its cages and sums, so its analysis is a function of the
/// identity alone. `None` for the packed form (its candidates count too)
/// and for strings that do not parse.
pub fn legacy_identity(s: &str) -> Option<String> {
    let legacy = s.len() == CELLS + 1 + 2 * CELLS && s.find(',') == Some(CELLS);
    legacy
        .then(|| Killer::parse(s).ok())
        .flatten()
        .map(|k| k.identity())
}

impl PuzzleKind for Killer {
    const TYPE: PuzzleType = PuzzleType::Killer;
    type Error = Error;

    fn parse(s: &str) -> Result<Killer, Error> {
        Killer::parse(s)
    }
    fn to_legacy(&self) -> String {
        Killer::to_legacy(self)
    }
    fn to_packed(&self) -> String {
        Killer::to_packed(self)
    }
    fn analyse(s: &str) -> Result<Analysis, Error> {
        analyse(s)
    }
    fn legacy_identity(s: &str) -> Option<String> {
        legacy_identity(s)
    }
    fn canonical(givens: &str) -> Result<String, CanonError> {
        canon::killer(givens)
    }
    fn code(error: &Error) -> &'static str {
        error.code()
    }
}

#[cfg(test)]
mod tests;
