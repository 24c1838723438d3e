//! The contract a puzzle type keeps: [`Puzzle`], implemented by
//! `sudoku::Sudoku`, `killer::Killer` and `str8ts::Str8ts`, each in its own
//! folder of the same layout; `puzzle` picks the implementation for a
//! [`PuzzleType`] in one place. Declares, implements nothing.

use crate::core::version_b::Failed;
use crate::core::vocabulary::{Analysis, CanonError, PuzzleType};

/// What a puzzle type provides. `Self` is a parsed, validated puzzle of
/// the type; the functions without `self` take the type's strings.
///
/// Invariants every implementation keeps: `parse` accepts exactly the
/// strings `analyse` accepts, with the same error; `to_legacy` and
/// `to_packed` write strings `parse` reads back as the same puzzle (the
/// legacy form drops what it cannot carry); `legacy_identity` of a string
/// is the [`Analysis::givens`] its analysis would have, and is `None`
/// whenever the string carries more than that identity; `canonical` is the
/// same for every symmetric disguise of one identity.
pub trait Puzzle: Sized {
    /// The name the archive stores.
    const TYPE: PuzzleType;
    /// Why a string of this type was rejected.
    type Error: std::error::Error;

    /// Reads either string form of the type (by its length) and validates it.
    fn parse(s: &str) -> Result<Self, Self::Error>;
    /// The legacy form: givens (and layout) only.
    fn to_legacy(&self) -> String;
    /// The packed form: every cell's candidates too.
    fn to_packed(&self) -> String;
    /// Parses, validates, propagates and solves a bare (URL-free) string.
    fn analyse(s: &str) -> Result<Analysis, Self::Error>;
    /// The identity ([`Analysis::givens`]) of a legacy string, which carries
    /// nothing else, so its analysis is a function of the identity alone:
    /// an import recognises lines already stored without solving them.
    /// `None` for the packed form (its candidates count too) and for
    /// strings that do not parse.
    fn legacy_identity(s: &str) -> Option<String>;
    /// The isomorph canonical form of an identity ([`Analysis::givens`]).
    fn canonical(givens: &str) -> Result<String, CanonError>;
    /// A short stable code for the archive's `rejects.reason` column.
    fn code(error: &Self::Error) -> &'static str;
    /// Parses, validates, propagates and solves a Version B string whose
    /// header names this type: its fields read as the type defines them.
    fn analyse_version_b(s: &str) -> Result<Analysis, Failed<Self::Error>>;
    /// The Version B string of a stored puzzle of this type, from its
    /// identity (`givens`) and the packed string of its propagated board.
    fn write_version_b(givens: &str, encoding: &str) -> Result<String, Failed<Self::Error>>;
}
