//! The one entry point the pipeline calls: recognise which format a puzzle
//! string is in, hand it to its type's module, and get back an [`Analysis`]:
//! the archive's view of one puzzle (identity, clue count, propagated
//! encoding, solution status). Pure: strings in, values out.

use std::fmt;

use crate::core::grid::CELLS;
use crate::core::mask::Mask;
use crate::core::{killer, str8ts, sudoku, version_b};

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

    /// The page a packed string of this type is opened with (`export --form url`).
    /// The search nodes a solution count of this type may visit before it
    /// gives up ([`Status::GaveUp`]): each type's limit costs tens of
    /// milliseconds at most.
    pub const fn search_limit(self) -> u64 {
        match self {
            PuzzleType::Sudoku => SUDOKU_SEARCH_LIMIT,
            PuzzleType::Killer => KILLER_SEARCH_LIMIT,
            PuzzleType::Str8ts => STR8TS_SEARCH_LIMIT,
        }
    }

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

/// What the solver found after propagation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Propagation reached a contradiction; the message says where.
    Contradiction(String),
    /// The search found no solution.
    Unsolvable,
    /// Exactly one solution: 81 characters, as the type defines them.
    Unique(String),
    /// Two or more solutions (the search stopped at the second).
    Multiple,
    /// The search visited its type's node limit ([`PuzzleType::search_limit`])
    /// without settling the count: no published puzzle comes near, but a
    /// near-empty board of a weakly constrained type could search for hours.
    GaveUp,
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

impl Status {
    /// The archive's `solutions` value: 0, 1, or 2 for "two or more".
    pub const fn count(&self) -> u8 {
        match self {
            Status::Contradiction(_) | Status::Unsolvable | Status::GaveUp => 0,
            Status::Unique(_) => 1,
            Status::Multiple => 2,
        }
    }

    pub fn solution(&self) -> Option<&str> {
        match self {
            Status::Unique(s) => Some(s),
            _ => None,
        }
    }
}

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

/// Why a string is not an acceptable puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    // Transparent, not `{0}` with a source: a caller that prints the
    // error's chain would otherwise say everything twice.
    #[error(transparent)]
    Sudoku(#[from] sudoku::Error),
    #[error(transparent)]
    Killer(#[from] killer::Error),
    #[error(transparent)]
    Str8ts(#[from] str8ts::Error),
    #[error(transparent)]
    VersionB(#[from] version_b::Error),
    #[error(
        "unrecognised puzzle string: {len} characters; expected 81 or 162 (sudoku), 81,162 or 162,162 (killer), 162 or 243 (str8ts)"
    )]
    Unrecognised { len: usize },
    #[error("empty puzzle string")]
    Empty,
}

impl PuzzleError {
    /// A short stable code for the archive's `rejects.reason` column.
    pub fn code(&self) -> &'static str {
        match self {
            PuzzleError::Sudoku(e) => e.code(),
            PuzzleError::Killer(e) => e.code(),
            PuzzleError::Str8ts(e) => e.code(),
            PuzzleError::VersionB(e) => e.code(),
            PuzzleError::Unrecognised { .. } => "format",
            PuzzleError::Empty => "empty",
        }
    }
}

/// Strips a URL down to its `bd=` value and says which type its page implies.
/// `https://www.str8ts.com/str8ts.aspx?bd=XYZ&x=1` -> (`XYZ`, Some(Str8ts)).
pub fn strip_url(s: &str) -> (&str, Option<PuzzleType>) {
    let Some(at) = s.find("bd=") else {
        return (s, None);
    };
    let page = s[..at].to_ascii_lowercase();
    let hint = if page.contains("killer") {
        Some(PuzzleType::Killer)
    } else if page.contains("str8ts") {
        Some(PuzzleType::Str8ts)
    } else if page.contains("sudoku") {
        Some(PuzzleType::Sudoku)
    } else {
        None
    };
    let value = &s[at + 3..];
    let end = value.find(['&', '#']).unwrap_or(value.len());
    (&value[..end], hint)
}

/// Recognises the type of a bare (URL-free) string by its shape.
///
/// A comma means Killer; 243 characters mean Str8ts packed; 81 classic legacy.
/// 162 characters are classic packed unless they have the Str8ts legacy shape
/// (81 digits, then 81 of `0`/`1`); pass a [`TypeHint`] to overrule.
pub fn recognise(s: &str) -> Result<PuzzleType, PuzzleError> {
    let b = s.as_bytes();
    if b.contains(&b',') {
        return Ok(PuzzleType::Killer);
    }
    match b.len() {
        0 => Err(PuzzleError::Empty),
        81 => Ok(PuzzleType::Sudoku),
        162 if str8ts::looks_like_legacy(s) => Ok(PuzzleType::Str8ts),
        162 => Ok(PuzzleType::Sudoku),
        243 => Ok(PuzzleType::Str8ts),
        len => Err(PuzzleError::Unrecognised { len }),
    }
}

/// The bare string and its type: the hint's, else the URL page's, else the shape's.
fn resolve(s: &str, hint: TypeHint) -> Result<(&str, PuzzleType), PuzzleError> {
    let (bare, url_type) = strip_url(s);
    Ok((bare, kind_of(bare, url_type, hint)?))
}

fn kind_of(
    bare: &str,
    url_type: Option<PuzzleType>,
    hint: TypeHint,
) -> Result<PuzzleType, PuzzleError> {
    match (hint, url_type) {
        (TypeHint::Only(t), _) => Ok(t),
        (TypeHint::Auto, Some(t)) => Ok(t),
        (TypeHint::Auto, None) => recognise(bare),
    }
}

/// The identity a puzzle string would be stored under, when the string
/// carries nothing else, so that analysing it again would give the same
/// result as any stored puzzle with that identity: the legacy form of each
/// type. An import uses it to recognise lines already in the archive
/// without solving them again. `None` for the packed and Version B forms,
/// whose candidates count too.
pub fn identity(s: &str, hint: TypeHint) -> Option<(PuzzleType, String)> {
    let (bare, kind) = resolve(s, hint).ok()?;
    let identity = match kind {
        PuzzleType::Sudoku => sudoku::identity(bare),
        PuzzleType::Killer => killer::legacy_identity(bare),
        PuzzleType::Str8ts => str8ts::legacy_identity(bare),
    };
    Some((kind, identity?))
}

/// Parses, validates, propagates and solves one puzzle string (bare or URL).
/// A Version B string names its own type ([`version_b::claim`]).
pub fn analyse(s: &str, hint: TypeHint) -> Result<Analysis, PuzzleError> {
    let (bare, url_type) = strip_url(s);
    match version_b::claim(bare) {
        Some(header) => version_b::analyse(bare, header, hint),
        None => Ok(match kind_of(bare, url_type, hint)? {
            PuzzleType::Sudoku => sudoku::analyse(bare)?,
            PuzzleType::Killer => killer::analyse(bare)?,
            PuzzleType::Str8ts => str8ts::analyse(bare)?,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_is_the_stored_givens_of_strings_that_carry_nothing_else() {
        let top = include_str!("../../tests/data/classic/top1465.txt");
        let invalid = include_str!("../../tests/data/classic/emerentius_invalid_annotated.txt");
        let killers =
            include_str!("../../tests/data/killer/krazydad_intermediate_first500_legacy.txt");
        let str8ts = include_str!("../../tests/data/str8ts/real_legacy.txt");
        let dotted = sudoku::corpus::XWING_81.replace('0', ".");
        let url = format!("https://www.sudokuwiki.org/sudoku.htm?bd={dotted}");
        // Recoloured cages and a string that does not parse, too.
        let recoloured = killers.lines().next().unwrap_or_default().replace('1', "7");
        let lines = sudoku::corpus::puzzles(top)
            .chain(sudoku::corpus::puzzles(invalid))
            .map(|(p, _)| p.to_owned())
            .chain(killers.lines().map(str::to_owned))
            .chain(str8ts.lines().map(|l| l[..162].to_owned()))
            .chain([
                dotted,
                url,
                recoloured,
                format!("{},{}", "1".repeat(81), "9".repeat(162)),
            ]);
        let mut compared = 0;
        for s in lines {
            let analysis = analyse(&s, TypeHint::Auto);
            match identity(&s, TypeHint::Auto) {
                Some((kind, givens)) => {
                    if let Ok(a) = analysis {
                        assert_eq!((kind, givens), (a.kind, a.givens), "{s}");
                        compared += 1;
                    }
                }
                None => assert!(analysis.is_err(), "{s}: no identity, but it parses"),
            }
        }
        assert!(compared > 1465 + 500 + 6, "only {compared} compared");
    }

    #[test]
    fn forms_with_more_than_givens_have_no_identity() {
        // Packed strings of each type: the stored encodings of legacy ones.
        let packed = |legacy: &str| analyse(legacy, TypeHint::Auto).map(|a| a.encoding);
        let killer =
            include_str!("../../tests/data/killer/krazydad_intermediate_first500_legacy.txt");
        let str8ts = include_str!("../../tests/data/str8ts/real_legacy.txt");
        let killer_packed = packed(killer.lines().next().unwrap_or_default()).unwrap();
        let str8ts_packed = packed(&str8ts[..162]).unwrap();
        assert_eq!((killer_packed.len(), str8ts_packed.len()), (325, 243));
        let cases = [
            (sudoku::corpus::XWING_162, TypeHint::Auto),
            (&killer_packed, TypeHint::Auto),
            (&str8ts_packed, TypeHint::Auto),
            // A hint that the string is not classic overrules its shape.
            (sudoku::corpus::XWING_81, TypeHint::Only(PuzzleType::Killer)),
            (&"x".repeat(81), TypeHint::Auto),
            ("", TypeHint::Auto),
        ];
        for (s, hint) in cases {
            assert_eq!(identity(s, hint), None, "{s}");
        }
    }

    #[test]
    fn urls_strip_to_their_value_and_name_their_type() {
        let cases = [
            (
                "https://www.sudokuwiki.org/sudoku.htm?bd=abc",
                "abc",
                Some(PuzzleType::Sudoku),
            ),
            (
                "https://www.sudokuwiki.org/killersudoku.aspx?bd=a,b&x=1",
                "a,b",
                Some(PuzzleType::Killer),
            ),
            (
                "https://www.str8ts.com/str8ts.aspx?bd=xyz#top",
                "xyz",
                Some(PuzzleType::Str8ts),
            ),
            ("plain", "plain", None),
        ];
        for (url, value, t) in cases {
            assert_eq!(strip_url(url), (value, t), "{url}");
        }
    }

    #[test]
    fn shapes_are_recognised() {
        assert_eq!(recognise(&"0".repeat(81)), Ok(PuzzleType::Sudoku));
        assert_eq!(recognise(&"0".repeat(243)), Ok(PuzzleType::Str8ts));
        assert_eq!(
            recognise(&format!("{},{}", "1".repeat(81), "0".repeat(162))),
            Ok(PuzzleType::Killer)
        );
        assert_eq!(
            recognise(&format!("{}{}", "0".repeat(81), "01".repeat(40) + "1")),
            Ok(PuzzleType::Str8ts)
        );
        assert_eq!(recognise(&"a".repeat(162)), Ok(PuzzleType::Sudoku));
        assert_eq!(recognise("123"), Err(PuzzleError::Unrecognised { len: 3 }));
        assert_eq!(recognise(""), Err(PuzzleError::Empty));
    }
}
