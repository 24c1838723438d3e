//! The vocabulary every puzzle type shares: [`PuzzleType`] (the three
//! types as the archive stores them), [`Solutions`] and its stored form
//! [`Status`], the search limits, [`Analysis`] (the archive's view of one
//! puzzle), [`TypeHint`] and [`CanonError`]. What a type provides is the
//! [`Puzzle`](crate::core::contract::Puzzle) contract, beside this file.
//!
//! Imports nothing from the types (only the grid and masks below them),
//! so each type can use the vocabulary without a loop back.

use std::fmt;

use crate::core::grid::{CELLS, Cell};
use crate::core::mask::Mask;

/// The three puzzle types, as stored in the archive's `type` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PuzzleType {
    Sudoku,
    Killer,
    Str8ts,
}

impl PuzzleType {
    pub const ALL: [PuzzleType; 3] = [PuzzleType::Sudoku, PuzzleType::Killer, PuzzleType::Str8ts];

    /// The name stored in the archive and accepted on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            PuzzleType::Sudoku => "sudoku",
            PuzzleType::Killer => "killer",
            PuzzleType::Str8ts => "str8ts",
        }
    }

    pub fn from_name(s: &str) -> Option<PuzzleType> {
        PuzzleType::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The search nodes a solution count of this type may visit before it
    /// gives up ([`Solutions::GaveUp`]): each type's limit costs tens of
    /// milliseconds at most.
    pub const fn search_limit(self) -> u64 {
        match self {
            PuzzleType::Sudoku => SUDOKU_SEARCH_LIMIT,
            PuzzleType::Killer => KILLER_SEARCH_LIMIT,
            PuzzleType::Str8ts => STR8TS_SEARCH_LIMIT,
        }
    }

    /// The page a packed string of this type is opened with (`export --form url`).
    pub const fn url_prefix(self) -> &'static str {
        match self {
            PuzzleType::Sudoku => "https://www.sudokuwiki.org/sudoku.htm?bd=",
            PuzzleType::Killer => "https://www.sudokuwiki.org/killersudoku.aspx?bd=",
            PuzzleType::Str8ts => "https://www.str8ts.com/str8ts.aspx?bd=",
        }
    }
}

impl fmt::Display for PuzzleType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a solver found after propagation: the one outcome all three types
/// report. `S` is the solution as the solver holds it (a board, a grid);
/// [`Status`], with the solution as a string, is what the archive stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solutions<S> {
    /// Propagation reached a contradiction; the message says where.
    Contradiction(String),
    /// The search found no solution.
    Unsolvable,
    /// Exactly one solution.
    Unique(S),
    /// Two or more solutions (the search stopped at the second).
    Multiple,
    /// The search visited its type's node limit ([`PuzzleType::search_limit`])
    /// without settling the count: no published puzzle comes near, but a
    /// near-empty board of a weakly constrained type could search for hours.
    GaveUp,
}

/// What the solver found, as stored: a unique solution is its 81
/// characters, as the type defines them.
pub type Status = Solutions<String>;

impl<S> Solutions<S> {
    /// The archive's `solutions` value: 0, 1, or 2 for "two or more".
    pub const fn count(&self) -> u8 {
        match self {
            Solutions::Contradiction(_) | Solutions::Unsolvable | Solutions::GaveUp => 0,
            Solutions::Unique(_) => 1,
            Solutions::Multiple => 2,
        }
    }

    /// The same outcome with the solution written another way.
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> Solutions<T> {
        match self {
            Solutions::Contradiction(why) => Solutions::Contradiction(why),
            Solutions::Unsolvable => Solutions::Unsolvable,
            Solutions::Unique(s) => Solutions::Unique(f(s)),
            Solutions::Multiple => Solutions::Multiple,
            Solutions::GaveUp => Solutions::GaveUp,
        }
    }
}

impl Status {
    pub fn solution(&self) -> Option<&str> {
        match self {
            Solutions::Unique(s) => Some(s),
            _ => None,
        }
    }
}

/// Search nodes the classic Sudoku solver may visit for one puzzle. A node
/// costs well under a tenth of a microsecond, so the limit is some 4 ms (the
/// pigeonhole board in `sudoku::solve`'s tests reaches it in 3.9 ms);
/// the hardest real puzzles need 1,295 at most (forum hardest 1905).
pub const SUDOKU_SEARCH_LIMIT: u64 = 50_000;

/// Search nodes the Killer solver may visit for one puzzle. Its nodes cost
/// some 5.5 us (cage sums are propagated at each), so 50,000 took 0.27 s on
/// a loose random layout; 5,000 is about 30 ms. Real puzzles need a few
/// hundred at most (the 8,000 krazydad puzzles: under 200, all but three
/// under 50).
pub const KILLER_SEARCH_LIMIT: u64 = 5_000;

/// Search nodes the Str8ts solver may visit for one puzzle: some 3.6 us a
/// node (50,000 took 0.18 s on a near-empty board), so about 20 ms. Real
/// puzzles need 51 at most, random sparse boards settle within 5,000.
pub const STR8TS_SEARCH_LIMIT: u64 = 5_000;

/// One puzzle, analysed: everything the archive stores plus what `show` draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub kind: PuzzleType,
    /// Givens (Killer: cages plus givens), the indexed clue count.
    pub clues: u32,
    /// The puzzle's identity, readable: see each type's module for its form.
    pub givens: String,
    /// The packed string of the propagated board (the type's packed format).
    pub encoding: String,
    pub status: Status,
    /// Candidates of every cell after propagation (one bit = placed).
    pub candidates: [Mask; CELLS],
    /// Which cells hold givens.
    pub given: [bool; CELLS],
    /// Per-cell region mark for drawing: Killer cage number (1-based),
    /// Str8ts 1 for black cells; 0 everywhere for classic Sudoku.
    pub shading: [u8; CELLS],
}

/// Which type the caller says the strings are, or `Auto` to recognise them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TypeHint {
    #[default]
    Auto,
    Only(PuzzleType),
}

/// Why a string could not be canonicalised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// The string is not one of the lengths the format allows.
    #[error("{format}: expected {expected} characters, found {found}")]
    Length {
        format: &'static str,
        expected: &'static str,
        found: usize,
    },
    /// A character that has no meaning at its position.
    #[error("{format}: character {index} (cell {} {cell}) should be {expected}, found {found:?}", cell.index())]
    Character {
        format: &'static str,
        /// Byte offset in the input string.
        index: usize,
        cell: Cell,
        expected: &'static str,
        found: char,
    },
    /// A field separator is missing.
    #[error("{format}: character {index} should be ',', found {found:?}")]
    Separator {
        format: &'static str,
        index: usize,
        found: char,
    },
    /// A Killer sum written somewhere other than its cage's first cell, where
    /// moving the cage would silently lose it.
    #[error(
        "killer legacy: cell {} ({cell}) holds sum {sum:?} but its cage starts at cell {} ({first})",
        cell.index(),
        first.index()
    )]
    CageSum {
        cell: Cell,
        first: Cell,
        sum: String,
    },
    /// The search reached its work bound before settling the form: a
    /// pattern with so many symmetries that the exact answer costs too much.
    #[error("{format}: the canonical form was not settled within {limit} {what}")]
    Limit {
        format: &'static str,
        limit: u64,
        what: &'static str,
    },
    /// The greedy recolouring ran past the 35 colour characters.
    #[error("killer legacy: cell {} ({cell}) would need more than 35 cage colours", cell.index())]
    Colours { cell: Cell },
}

impl CanonError {
    /// Short stable reason code for the archive's reject table.
    pub fn code(&self) -> &'static str {
        match self {
            CanonError::Length { .. } => "length",
            CanonError::Character { .. } | CanonError::Separator { .. } => "character",
            CanonError::CageSum { .. } => "cage-sum",
            CanonError::Colours { .. } => "colours",
            CanonError::Limit { .. } => "canonical-limit",
        }
    }
}

/// `n` characters, said in the singular for one: the length in messages.
pub fn characters(n: usize) -> String {
    if n == 1 {
        "1 character".to_string()
    } else {
        format!("{n} characters")
    }
}
