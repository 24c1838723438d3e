//! Killer's side of the puzzle contract: the analysis the archive stores
//! (propagation and the count from the cages and givens, progress checked
//! against them), the identity of a legacy string, and the contract.

use super::format;
use super::propagate::masks;
use super::{Error, Form, Killer, canon, version_b};
use crate::core::contract::Puzzle;
use crate::core::grid::CELLS;
use crate::core::mask::Mask;
use crate::core::progress;
use crate::core::version_b::Failed;
use crate::core::vocabulary::{Analysis, CanonError, PuzzleType};

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

impl Puzzle for Killer {
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
    fn analyse_version_b(s: &str) -> Result<Analysis, Failed<Error>> {
        version_b::analyse(s)
    }
    fn write_version_b(givens: &str, encoding: &str) -> Result<String, Failed<Error>> {
        version_b::write_stored(givens, encoding)
    }
}
