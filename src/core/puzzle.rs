//! The one entry point the pipeline calls: recognise which form a puzzle
//! string is in, hand it to its type through the [`Puzzle`] contract, and
//! get back an [`Analysis`] or a canonical form. [`with_type!`] is the one
//! place a [`PuzzleType`] picks its implementation. Pure: strings in,
//! values out. The vocabulary lives in `vocabulary` and is re-exported
//! here, where callers have always found it.

pub use crate::core::contract::Puzzle;
use crate::core::killer::{self, Killer};
use crate::core::str8ts::{self, Str8ts};
use crate::core::sudoku::{self, Sudoku};
use crate::core::version_b;
pub use crate::core::vocabulary::{
    Analysis, KILLER_SEARCH_LIMIT, PuzzleType, STR8TS_SEARCH_LIMIT, SUDOKU_SEARCH_LIMIT, Solutions,
    Status, TypeHint,
};
use crate::core::vocabulary::{CanonError, characters};

/// Evaluates `$body` with `$K` naming the type that implements [`Puzzle`]
/// for the [`PuzzleType`] `$t`: the only `match` from a type's name to its
/// code. Each arm is compiled for its own type, as a hand-written match is.
macro_rules! with_type {
    ($t:expr, $K:ident => $body:expr) => {
        match $t {
            PuzzleType::Sudoku => {
                type $K = Sudoku;
                $body
            }
            PuzzleType::Killer => {
                type $K = Killer;
                $body
            }
            PuzzleType::Str8ts => {
                type $K = Str8ts;
                $body
            }
        }
    };
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
        "unrecognised puzzle string: {}{}; expected 81 or 162 (sudoku), 81,162 or 162,162 (killer), 162 or 243 (str8ts)",
        characters(*.len), looks_like(*.len, *.non_ascii)
    )]
    Unrecognised {
        /// In characters, not bytes.
        len: usize,
        /// The first character that is not ASCII, and its 1-based position.
        non_ascii: Option<(char, usize)>,
    },
    /// A string of a type given (`--type`, a URL's page) with a character
    /// no form of any type has: said in characters, not the bytes the
    /// type's own length check would count.
    #[error("{kind}: {found:?} at character {at} is not ASCII (the string is {})", characters(*.len))]
    NotAscii {
        kind: PuzzleType,
        /// In characters.
        len: usize,
        found: char,
        /// 1-based, in characters.
        at: usize,
    },
    #[error("empty puzzle string")]
    Empty,
}

/// `1 character`, `81 characters`.
/// What an unrecognised string of `len` characters may be, for its message:
/// a character no form has, or a form this tool does not read.
fn looks_like(len: usize, non_ascii: Option<(char, usize)>) -> String {
    match non_ascii {
        Some((c, at)) => format!(" ({c:?} at character {at} is not ASCII)"),
        None if len == 729 => " (the length of pencilmarks, 9 candidates for each of 81 cells, \
             which are not a puzzle form this tool reads)"
            .to_string(),
        None => String::new(),
    }
}

impl PuzzleError {
    /// A short stable code for the archive's `rejects.reason` column.
    pub fn code(&self) -> &'static str {
        match self {
            PuzzleError::Sudoku(e) => Sudoku::code(e),
            PuzzleError::Killer(e) => Killer::code(e),
            PuzzleError::Str8ts(e) => Str8ts::code(e),
            PuzzleError::VersionB(e) => e.code(),
            PuzzleError::Unrecognised { .. } => "format",
            PuzzleError::NotAscii { .. } => "character",
            PuzzleError::Empty => "empty",
        }
    }
}

/// Strips a URL down to its `bd=` value and says which type its page implies.
/// `https://www.str8ts.com/str8ts.aspx?bd=XYZ&x=1` -> (`XYZ`, Some(Str8ts)).
pub fn strip_url(s: &str) -> (&str, Option<PuzzleType>) {
    // Nearly every string has no `=` at all: one byte scan answers for it
    // instead of a substring search set up for each string.
    if !s.as_bytes().contains(&b'=') {
        return (s, None);
    }
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
        _ => Err(PuzzleError::Unrecognised {
            len: s.chars().count(),
            non_ascii: first_non_ascii(s),
        }),
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
    let identity = with_type!(kind, K => K::legacy_identity(bare));
    Some((kind, identity?))
}

/// Parses, validates, propagates and solves one puzzle string (bare or URL).
/// A Version B string names its own type ([`version_b::claim`]).
pub fn analyse(s: &str, hint: TypeHint) -> Result<Analysis, PuzzleError> {
    let (bare, url_type) = strip_url(s);
    match version_b::claim(bare) {
        Some(header) => analyse_version_b(bare, header, hint),
        None => {
            Ok(with_type!(not_ascii(bare, kind_of(bare, url_type, hint)?)?, K => K::analyse(bare)?))
        }
    }
}

/// The first character of `s` that is not ASCII, and its 1-based place.
fn first_non_ascii(s: &str) -> Option<(char, usize)> {
    if s.is_ascii() {
        return None;
    }
    s.chars().zip(1..).find(|(c, _)| !c.is_ascii())
}

/// `kind`, unless `s` has a character that is not ASCII (no form has one).
fn not_ascii(s: &str, kind: PuzzleType) -> Result<PuzzleType, PuzzleError> {
    let Some((found, at)) = first_non_ascii(s) else {
        return Ok(kind);
    };
    Err(PuzzleError::NotAscii {
        kind,
        len: s.chars().count(),
        found,
        at,
    })
}

/// Analyses a claimed Version B string. The header names the type; a
/// `--type` that says otherwise is a mismatch, not a reason to read the
/// fields another way. A URL page's type is not consulted: the header wins.
/// Cold: kept out of line so the legacy path's result is built in place.
#[cold]
#[inline(never)]
fn analyse_version_b(
    s: &str,
    header: version_b::Header,
    hint: TypeHint,
) -> Result<Analysis, PuzzleError> {
    let t = header.puzzle_type()?;
    if let TypeHint::Only(h) = hint
        && h != t
    {
        return Err(version_b::Error::TypeMismatch {
            kind: header.kind,
            hint: h,
        }
        .into());
    }
    with_type!(t, K => Ok(K::analyse_version_b(s)?))
}

/// The Version B string of a stored puzzle, from the archive's columns:
/// `givens` (the identity) and `encoding` (the packed string of the
/// propagated board). Givens stay givens, placed digits that are not
/// givens are written as solved, other cells as their candidates; reading
/// the result back gives the same identity and the same propagated board.
pub fn write_version_b(t: PuzzleType, givens: &str, encoding: &str) -> Result<String, PuzzleError> {
    with_type!(t, K => Ok(K::write_version_b(givens, encoding)?))
}

/// [`write_version_b`] of an analysis (what `show` prints).
pub fn version_b_of(a: &Analysis) -> Result<String, PuzzleError> {
    write_version_b(a.kind, &a.givens, &a.encoding)
}

/// A Version B string's failure is the string's: in its fields, or in the
/// rules of its type.
macro_rules! from_version_b {
    ($($variant:ident: $error:ty),*) => {$(
        impl From<version_b::Failed<$error>> for PuzzleError {
            fn from(f: version_b::Failed<$error>) -> Self {
                match f {
                    version_b::Failed::Field(e) => PuzzleError::VersionB(e),
                    version_b::Failed::Board(e) => PuzzleError::$variant(e),
                }
            }
        }
    )*};
}
from_version_b!(Sudoku: sudoku::Error, Killer: killer::Error, Str8ts: str8ts::Error);

/// The isomorph canonical form of a puzzle of any type, from its identity
/// ([`Analysis::givens`]): see each type's `canon` module.
pub fn canonical(kind: PuzzleType, givens: &str) -> Result<String, CanonError> {
    with_type!(kind, K => K::canonical(givens))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::mask::{Digit, Mask};

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

    /// The first real legacy string of each type, and its analysis.
    fn first_legacy_of_each_type() -> [(String, Analysis); 3] {
        let killer =
            include_str!("../../tests/data/killer/krazydad_intermediate_first500_legacy.txt");
        let str8ts = include_str!("../../tests/data/str8ts/real_legacy.txt");
        [
            sudoku::corpus::XWING_81,
            killer.lines().next().unwrap_or_default(),
            &str8ts[..162],
        ]
        .map(|s| (s.to_owned(), analyse(s, TypeHint::Auto).unwrap()))
    }

    /// The Version B string of an analysed legacy puzzle with progress:
    /// each cell that is not a given (nor black) holds `progress(cell)`,
    /// solved when one digit, candidates when more.
    fn version_b_with(a: &Analysis, progress: impl Fn(usize) -> Mask) -> String {
        use crate::core::sudoku::version_b::Content;
        let content = |i: usize| {
            let m = progress(i);
            m.single().map_or(Content::Candidates(m), Content::Solved)
        };
        match a.kind {
            PuzzleType::Sudoku => {
                let mut cells = sudoku::version_b::decode(&version_b_of(a).unwrap()).unwrap();
                for (i, c) in cells.iter_mut().enumerate() {
                    if !a.given[i] {
                        *c = content(i);
                    }
                }
                sudoku::version_b::encode(&cells)
            }
            PuzzleType::Killer => {
                let mut cells = killer::version_b::decode(&version_b_of(a).unwrap()).unwrap();
                for (i, c) in cells.iter_mut().enumerate() {
                    if !a.given[i] {
                        c.content = content(i);
                    }
                }
                killer::version_b::encode(&cells)
            }
            PuzzleType::Str8ts => {
                use str8ts::version_b::{Content, Convention, decode, encode};
                let mut cells = decode(&version_b_of(a).unwrap()).unwrap().cells;
                for (i, c) in cells.iter_mut().enumerate() {
                    if let Content::Candidates(_) | Content::Solved(_) | Content::Empty = *c {
                        let m = progress(i);
                        *c = m.single().map_or(Content::Candidates(m), Content::Solved);
                    }
                }
                encode(&cells, Convention::Spec)
            }
        }
    }

    /// A solution's digit at a cell, as a set.
    fn digit_at(solution: &[u8], i: usize) -> Mask {
        Digit::from_ascii(solution[i]).map_or(Mask::ALL, Digit::mask)
    }

    #[test]
    fn a_string_that_carries_a_solution_stores_what_its_givens_alone_say() {
        // The empty grid, legacy, and as an S9B string with all 81 cells
        // solved and no given (issue 36, item 5): one puzzle, one analysis.
        let empty = analyse(&"0".repeat(81), TypeHint::Auto).unwrap();
        assert_eq!(empty.status, Status::Multiple);
        let grid =
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
        let solved = version_b_with(&empty, |i| digit_at(grid.as_bytes(), i));
        assert_eq!(analyse(&solved, TypeHint::Auto), Ok(empty.clone()));
        // The packed form's solved cells are progress too.
        let mut packed = String::new();
        for d in grid.bytes() {
            crate::core::base32::encode_into(1 << (d - b'0'), 2, &mut packed);
        }
        assert_eq!(analyse(&packed, TypeHint::Auto), Ok(empty));
        // A real puzzle of each type, its solution written in as solved.
        for (legacy, a) in first_legacy_of_each_type() {
            let solution = a.status.solution().unwrap().as_bytes();
            let solved = version_b_with(&a, |i| digit_at(solution, i));
            assert_eq!(
                analyse(&solved, TypeHint::Auto).as_ref(),
                Ok(&a),
                "{legacy}"
            );
        }
    }

    #[test]
    fn progress_that_leaves_no_solution_of_the_givens_is_rejected_naming_the_form() {
        for (legacy, a) in first_legacy_of_each_type() {
            let solution = a.status.solution().unwrap().as_bytes();
            // The first open cell lists every digit but its solution's.
            let open = (0..81)
                .find(|&i| !a.given[i] && solution[i] != b'0')
                .unwrap();
            let s = version_b_with(&a, |i| {
                if i == open {
                    Mask::ALL.minus(digit_at(solution, i))
                } else {
                    Mask::ALL
                }
            });
            let e = analyse(&s, TypeHint::Auto).unwrap_err();
            assert_eq!(e.code(), "contradiction", "{legacy}: {e}");
            let start = format!("{} version b: cell {open} (", a.kind);
            assert!(e.to_string().starts_with(&start), "{e}");
            assert!(
                e.to_string()
                    .contains("but the one solution of the givens has"),
                "{e}"
            );
        }
        // Several solutions: the string's own board is searched. Row 1
        // solved 1 to 7, an 8 and a 9 below r1c8 and r1c9: r1c8 has none.
        let mut cells = [sudoku::version_b::Content::Empty; crate::core::grid::CELLS];
        for (i, d) in [
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 5),
            (5, 6),
            (6, 7),
            (16, 8),
            (25, 9),
        ] {
            cells[i] = sudoku::version_b::Content::Solved(Digit::new(d).unwrap());
        }
        let e = analyse(&sudoku::version_b::encode(&cells), TypeHint::Auto).unwrap_err();
        assert_eq!(e.code(), "contradiction");
        assert!(
            e.to_string().starts_with(
                "sudoku version b: the solved digits and candidates leave no solution of the givens: "
            ),
            "{e}"
        );
    }

    #[test]
    fn a_version_b_string_whose_candidates_its_peers_rule_out_names_its_form() {
        // r1c1 lists {1, 2} (18 + 3 = "0l"); r1c2 is a given 1, r2c1 a solved 2.
        let mut s = format!("S9B{}", "00".repeat(81));
        s.replace_range(3..5, "0l");
        s.replace_range(5..7, "01");
        s.replace_range(3 + 18..3 + 20, "0b");
        let e = analyse(&s, TypeHint::Auto).unwrap_err();
        assert_eq!(e.code(), "candidates");
        assert_eq!(
            e.to_string(),
            "sudoku version b: cell 0 (r1c1) lists candidates 12 but its peers have placed them all"
        );
    }

    /// The invariants [`Puzzle`] states, on one real legacy string.
    fn keeps_the_contract<K: Puzzle + std::fmt::Debug>(legacy: &str) {
        let k = K::parse(legacy).unwrap();
        let (legacy_form, packed_form) = (k.to_legacy(), k.to_packed());
        assert_eq!(K::parse(&legacy_form).unwrap().to_legacy(), legacy_form);
        assert_eq!(K::parse(&packed_form).unwrap().to_packed(), packed_form);
        let a = K::analyse(legacy).unwrap();
        assert_eq!(a.kind, K::TYPE);
        assert_eq!(K::legacy_identity(legacy), Some(a.givens.clone()));
        assert_eq!(K::legacy_identity(&packed_form), None);
        let form = K::canonical(&a.givens).unwrap();
        assert_eq!(canonical(K::TYPE, &a.givens), Ok(form));
        let error = K::parse("x").unwrap_err();
        assert_eq!(K::code(&error), "length", "{error}");
        let error = analyse("x", TypeHint::Only(K::TYPE)).unwrap_err();
        assert_eq!(error.code(), "length", "{error}");
    }

    #[test]
    fn each_type_keeps_the_puzzle_kind_contract() {
        let killers =
            include_str!("../../tests/data/killer/krazydad_intermediate_first500_legacy.txt");
        let str8ts = include_str!("../../tests/data/str8ts/real_legacy.txt");
        keeps_the_contract::<Sudoku>(sudoku::corpus::XWING_81);
        keeps_the_contract::<Killer>(killers.lines().next().unwrap());
        keeps_the_contract::<Str8ts>(&str8ts[..162]);
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
        assert_eq!(
            recognise("123"),
            Err(PuzzleError::Unrecognised {
                len: 3,
                non_ascii: None
            })
        );
        assert_eq!(recognise(""), Err(PuzzleError::Empty));
    }

    /// Lengths are said in characters, whatever the type (given or
    /// recognised), and one character is singular.
    #[test]
    fn lengths_are_said_in_characters_under_every_type() {
        let wide = format!("{}\u{ff11}{}", "0".repeat(10), "0".repeat(70));
        let with_type = |t| analyse(&wide, TypeHint::Only(t)).unwrap_err().to_string();
        assert_eq!(
            with_type(PuzzleType::Sudoku),
            "sudoku: '１' at character 11 is not ASCII (the string is 81 characters)"
        );
        assert!(with_type(PuzzleType::Killer).starts_with("killer: '１' at character 11"));
        assert!(with_type(PuzzleType::Str8ts).contains("(the string is 81 characters)"));
        // 78 ASCII and one 3-byte character: 81 bytes, recognised by
        // shape as a sudoku; still 79 characters.
        let short = format!("{}\u{ff11}", "0".repeat(78));
        assert_eq!(
            analyse(&short, TypeHint::Auto).unwrap_err().to_string(),
            "sudoku: '１' at character 79 is not ASCII (the string is 79 characters)"
        );
        assert_eq!(
            analyse("5", TypeHint::Auto).unwrap_err().to_string(),
            "unrecognised puzzle string: 1 character; expected 81 or 162 (sudoku), 81,162 or 162,162 (killer), 162 or 243 (str8ts)"
        );
        assert_eq!(
            analyse(&short, TypeHint::Auto).unwrap_err().code(),
            "character"
        );
    }
}
