//! Str8ts: the legacy (162) and packed (243) string forms, validation with a
//! reason code per rejection, compartments, propagation and solution counting,
//! and the [`Analysis`] the archive stores, behind the [`PuzzleKind`]
//! contract ([`Board`] implements it). Pure: strings in, values out; no
//! I/O, no printing, no threads.
//!
//! The same layout as each type's folder: `board` (the position),
//! `format` (reading and writing the two forms), `validate` (the checks
//! across cells), `propagate` (the rules in their reference order: the
//! specification, the contradiction messages and the tests' oracle),
//! `solve` (the worklist solver and its search), `canon` (the isomorph
//! canonical form), and beside `format` `version_b` (the `T9B` string).
//! `compartment` finds the white runs and `straights`
//! does the arithmetic of straights on candidate bits, which most of them
//! read. Here: the errors and their codes, and the analysis.

mod board;
pub(crate) mod canon;
mod compartment;
mod format;
mod propagate;
mod solve;
mod straights;
mod validate;
pub mod version_b;

use std::fmt;

use crate::core::grid::{CELLS, Cell};
use crate::core::kind::{Analysis, CanonError, PuzzleKind, PuzzleType, Status};
use crate::core::mask::{Digit, Mask};
use crate::core::progress::{self, Conflict};

pub use board::Board;
pub use compartment::{Compartment, Direction, compartments};
pub use format::{LEGACY_LEN, PACKED_LEN, looks_like_legacy};
pub use solve::{Solutions, propagate, solve};

/// Every cell by index, for loops and tables that already know `i < 81`.
const CELL: [Cell; CELLS] = {
    let mut t = [match Cell::new(0) {
        Some(c) => c,
        None => panic!("cell 0 exists"),
    }; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = match Cell::new(i) {
            Some(c) => c,
            None => panic!("cells below 81 exist"),
        };
        i += 1;
    }
    t
};

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
        "str8ts: {len} characters, expected 162 (legacy: 81 digits then 81 colours) or 243 (packed)"
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

/// Parses (either form, by length), validates, propagates and solves.
///
/// `givens` is the legacy form of givens and colours; `encoding` the packed
/// form of the propagated board. When propagation contradicts itself the
/// encoding and candidates are those of the board as read, so the stored
/// string still reads back.
pub fn analyse(s: &str) -> Result<Analysis, Error> {
    let form = if s.len() == LEGACY_LEN {
        Form::Legacy
    } else {
        Form::Packed
    };
    analyse_board(Board::parse(s)?, form)
}

/// [`analyse`] of a read and checked board, `form` naming it in errors.
///
/// What is stored is counted from the givens and colours alone, the
/// puzzle's identity, so that every form of one puzzle stores the same
/// facts. The board's solved digits and candidates are only checked
/// against that puzzle: when they leave none of its solutions the string
/// is rejected ([`progress::check`]).
pub(crate) fn analyse_board(board: Board, form: Form) -> Result<Analysis, Error> {
    let mut cells = *board.masks();
    for (i, m) in cells.iter_mut().enumerate() {
        if !board.given[i] && !board.black[i] {
            *m = Mask::ALL;
        }
    }
    let a = analyse_position(board.with_masks(cells));
    if progress::carries(board.masks(), board.given()) {
        progress::check(&a.status, board.masks(), || {
            analyse_position(board.clone()).status
        })
        .map_err(|conflict| Error::Progress { form, conflict })?;
    }
    Ok(a)
}

/// Propagates and solves a checked board as it stands.
fn analyse_position(board: Board) -> Analysis {
    let (shown, status) = match solve::propagate_and_solve(&board) {
        Err(why) => (board.clone(), Status::Contradiction(why)),
        Ok((propagated, solutions)) => (propagated, solutions.map(|sol| sol.digits())),
    };
    Analysis {
        kind: PuzzleType::Str8ts,
        clues: board.clues(),
        givens: board.to_legacy(),
        encoding: shown.to_packed(),
        status,
        candidates: *shown.masks(),
        given: *board.given(),
        shading: board.black().map(u8::from),
    }
}

/// The identity ([`Analysis::givens`]) of a legacy 162-character string,
/// which carries nothing but its givens and colours, so its analysis is a
/// function of the identity alone. `None` for the packed form (its
/// candidates count too) and for strings that do not parse.
pub fn legacy_identity(s: &str) -> Option<String> {
    if s.len() != LEGACY_LEN {
        return None;
    }
    Board::from_legacy(s).ok().map(|b| b.to_legacy())
}

impl PuzzleKind for Board {
    const TYPE: PuzzleType = PuzzleType::Str8ts;
    type Error = Error;

    fn parse(s: &str) -> Result<Board, Error> {
        Board::parse(s)
    }
    fn to_legacy(&self) -> String {
        Board::to_legacy(self)
    }
    fn to_packed(&self) -> String {
        Board::to_packed(self)
    }
    fn analyse(s: &str) -> Result<Analysis, Error> {
        analyse(s)
    }
    fn legacy_identity(s: &str) -> Option<String> {
        legacy_identity(s)
    }
    fn canonical(givens: &str) -> Result<String, CanonError> {
        canon::str8ts(givens)
    }
    fn code(error: &Error) -> &'static str {
        error.code()
    }
}

#[cfg(test)]
mod tests;
