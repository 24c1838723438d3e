//! Str8ts' side of the puzzle contract: reading either form, the analysis
//! the archive stores (counted from the givens and colours, progress
//! checked against them), the identity of a legacy string, and the
//! contract.

use super::{Error, Form, LEGACY_LEN, Str8ts, canon, solve, version_b};
use crate::core::contract::Puzzle;
use crate::core::mask::Mask;
use crate::core::progress;
use crate::core::version_b::Failed;
use crate::core::vocabulary::{Analysis, CanonError, PuzzleType, Status};

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
    analyse_board(Str8ts::parse(s)?, form)
}

/// [`analyse`] of a read and checked board, `form` naming it in errors.
///
/// What is stored is counted from the givens and colours alone, the
/// puzzle's identity, so that every form of one puzzle stores the same
/// facts. The board's solved digits and candidates are only checked
/// against that puzzle: when they leave none of its solutions the string
/// is rejected ([`progress::check`]).
pub(crate) fn analyse_board(board: Str8ts, form: Form) -> Result<Analysis, Error> {
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
fn analyse_position(board: Str8ts) -> Analysis {
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
    Str8ts::from_legacy(s).ok().map(|b| b.to_legacy())
}

impl Puzzle for Str8ts {
    const TYPE: PuzzleType = PuzzleType::Str8ts;
    type Error = Error;

    fn parse(s: &str) -> Result<Str8ts, Error> {
        Str8ts::parse(s)
    }
    fn to_legacy(&self) -> String {
        Str8ts::to_legacy(self)
    }
    fn to_packed(&self) -> String {
        Str8ts::to_packed(self)
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
    fn analyse_version_b(s: &str) -> Result<Analysis, Failed<Error>> {
        version_b::analyse(s)
    }
    fn write_version_b(_givens: &str, encoding: &str) -> Result<String, Failed<Error>> {
        version_b::write_stored(encoding)
    }
}
