//! Version B strings ("String Definitions 2.0", docs/formats.md "Version
//! B"), the envelope shared by the three types: the 3-character header, the
//! fixed-width base-36 fields that follow it, and the rejection by name of
//! the Version B types the archive does not hold.
//!
//! What a field *means* is the type's (`sudoku`, `killer`, `str8ts`
//! `version_b`, reached through the `Puzzle` contract). Must not slow the
//! one-line path: [`claim`] rejects a legacy or packed line in one or two
//! comparisons. Pure: no I/O.

use std::fmt;

use crate::core::grid::{CELLS, Cell};
use crate::core::vocabulary::PuzzleType;

/// Length of the header: type letter, size, version letter.
pub const HEADER_LEN: usize = 3;

/// The alphabet of the fields, value order; written lowercase.
const ALPHABET: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// Every puzzle type a Version B header can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Sudoku,
    Killer,
    Str8ts,
    SudokuX,
    Windoku,
    Jigsaw,
    KillerJigsaw,
    KenKen,
    KenDoku,
    Str8tsX,
    Str8tsB,
    Str8tsBX,
}

impl Kind {
    /// The kind a header's first letter names, either case.
    pub const fn from_letter(c: u8) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            b'S' => Kind::Sudoku,
            b'L' => Kind::Killer,
            b'T' => Kind::Str8ts,
            b'X' => Kind::SudokuX,
            b'W' => Kind::Windoku,
            b'J' => Kind::Jigsaw,
            b'M' => Kind::KillerJigsaw,
            b'K' => Kind::KenKen,
            b'D' => Kind::KenDoku,
            b'V' => Kind::Str8tsX,
            b'B' => Kind::Str8tsB,
            b'U' => Kind::Str8tsBX,
            _ => return None,
        })
    }

    /// The header letter, as the sites write it (uppercase).
    pub const fn letter(self) -> char {
        match self {
            Kind::Sudoku => 'S',
            Kind::Killer => 'L',
            Kind::Str8ts => 'T',
            Kind::SudokuX => 'X',
            Kind::Windoku => 'W',
            Kind::Jigsaw => 'J',
            Kind::KillerJigsaw => 'M',
            Kind::KenKen => 'K',
            Kind::KenDoku => 'D',
            Kind::Str8tsX => 'V',
            Kind::Str8tsB => 'B',
            Kind::Str8tsBX => 'U',
        }
    }

    /// The archive's type for the three it holds.
    pub const fn puzzle_type(self) -> Option<PuzzleType> {
        match self {
            Kind::Sudoku => Some(PuzzleType::Sudoku),
            Kind::Killer => Some(PuzzleType::Killer),
            Kind::Str8ts => Some(PuzzleType::Str8ts),
            _ => None,
        }
    }

    /// The kind of one of the archive's types.
    pub const fn of(t: PuzzleType) -> Kind {
        match t {
            PuzzleType::Sudoku => Kind::Sudoku,
            PuzzleType::Killer => Kind::Killer,
            PuzzleType::Str8ts => Kind::Str8ts,
        }
    }

    /// Characters per cell field for the three held types (9x9).
    pub const fn width(self) -> usize {
        match self {
            Kind::Killer => 4,
            _ => 2,
        }
    }

    /// Length of a 9x9 string of this kind: header plus 81 fields.
    pub const fn string_len(self) -> usize {
        HEADER_LEN + CELLS * self.width()
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Sudoku => "sudoku",
            Kind::Killer => "killer",
            Kind::Str8ts => "str8ts",
            Kind::SudokuX => "sudoku x",
            Kind::Windoku => "windoku",
            Kind::Jigsaw => "jigsaw sudoku",
            Kind::KillerJigsaw => "killer jigsaw",
            Kind::KenKen => "kenken",
            Kind::KenDoku => "kendoku",
            Kind::Str8tsX => "str8ts x",
            Kind::Str8tsB => "str8ts b",
            Kind::Str8tsBX => "str8ts bx",
        })
    }
}

/// A header as read: its kind, size (base 36, so `9` is 9, `g` 16) and
/// version letter (uppercase).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub kind: Kind,
    pub size: u32,
    pub version: u8,
}

impl Header {
    /// The archive's type, if the header is one the archive reads: one of
    /// its three types, 9x9, version B. Otherwise the reason, naming the type.
    pub fn puzzle_type(self) -> Result<PuzzleType, Error> {
        let header = self.text();
        let Some(t) = self.kind.puzzle_type() else {
            return Err(Error::OtherType {
                kind: self.kind,
                header,
            });
        };
        if self.version != b'B' {
            return Err(Error::Version {
                kind: self.kind,
                header,
                version: char::from(self.version),
            });
        }
        if self.size != 9 {
            return Err(Error::Size {
                kind: self.kind,
                header,
                size: self.size,
            });
        }
        Ok(t)
    }

    /// The header's three characters, as the sites write them.
    fn text(self) -> String {
        let size = char::from_digit(self.size, 36)
            .unwrap_or('?')
            .to_ascii_uppercase();
        format!("{}{size}{}", self.kind.letter(), char::from(self.version))
    }
}

/// Why a Version B string was rejected: the envelope's and the fields'
/// reasons. Rules across cells (duplicates, cages, compartments) are the
/// types' own errors, with their form named "version b".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(
        "version b: {header:?} is a {kind} string; the archive holds sudoku (S9B), killer (L9B) and str8ts (T9B)"
    )]
    OtherType { kind: Kind, header: String },
    #[error("version b: {header:?} is {kind} version {version}, expected version B")]
    Version {
        kind: Kind,
        header: String,
        version: char,
    },
    #[error("version b: {header:?} is a {size}x{size} {kind}, expected 9x9")]
    Size {
        kind: Kind,
        header: String,
        size: u32,
    },
    #[error("version b: the string is {kind} ({}9B), but the type was given as {hint}", .kind.letter())]
    TypeMismatch { kind: Kind, hint: PuzzleType },
    #[error(
        "{kind} version b: expected {} characters (3 of header, then {} per cell), found {found}",
        .kind.string_len(), .kind.width()
    )]
    Length { kind: Kind, found: usize },
    #[error(
        "{kind} version b: cell {} ({cell}) has {found:?} at position {pos}, expected a base-36 character 0-9 or a-z",
        .cell.index()
    )]
    Character {
        kind: Kind,
        pos: usize,
        cell: Cell,
        found: char,
    },
    #[error(
        "{kind} version b: cell {} ({cell}) is {text:?} = {value}, above the largest value {max}",
        .cell.index()
    )]
    Value {
        kind: Kind,
        cell: Cell,
        text: String,
        value: u32,
        max: u32,
    },
    #[error("killer version b: cell {} ({cell}) is {text:?}: cage colour {shape}, expected 1 to 5", .cell.index())]
    Shape {
        cell: Cell,
        text: String,
        shape: u32,
    },
    #[error("killer version b: cell {} ({cell}) is {text:?}: sum {sum}, at most 45", .cell.index())]
    Sum { cell: Cell, text: String, sum: u32 },
    #[error(
        "killer version b: cell {} ({cell}) is {text:?}: cell content {content}, above the largest value 529",
        .cell.index()
    )]
    Content {
        cell: Cell,
        text: String,
        content: u32,
    },
    #[error(
        "str8ts version b: cell {} ({live}) is {live_text:?} = 540, str8ts.com's candidates, but cell {} ({spec}) is {spec_text:?} = 29, the specification's: the two conventions are mixed",
        .live.index(), .spec.index()
    )]
    Mixed {
        live: Cell,
        live_text: String,
        spec: Cell,
        spec_text: String,
    },
}

impl Error {
    /// A short stable code for the archive's `rejects.reason` column.
    pub fn code(&self) -> &'static str {
        match self {
            Error::OtherType { .. } | Error::TypeMismatch { .. } => "type",
            Error::Version { .. } => "version",
            Error::Size { .. } => "size",
            Error::Length { .. } => "length",
            Error::Character { .. } => "character",
            Error::Value { .. } | Error::Content { .. } => "value",
            Error::Shape { .. } => "colour",
            Error::Sum { .. } => "sum",
            Error::Mixed { .. } => "convention",
        }
    }
}

/// The header of a string that has the shape of a Version B one: a type
/// letter, a size (`3`-`9`, `G` or `P`), a version letter, and a length
/// that no legacy or packed form has (81, 162, 243, or a comma). The
/// archive's own headers (`S9`, `L9`, `T9` and a letter) are claimed
/// whatever follows, so a damaged field is reported as such; any other
/// header only with base-36 characters after it, a whole number of them per
/// cell of its size, so that words (`solutions`, `difficulty`, a CSV
/// header) are not taken for strings. `None` for everything else, which the other forms then
/// read or reject as before.
pub fn claim(s: &str) -> Option<Header> {
    let b = s.as_bytes();
    // Third byte first: a digit or '.' in every legacy string.
    if b.len() <= HEADER_LEN || !b[2].is_ascii_alphabetic() {
        return None;
    }
    if matches!(b.len(), 81 | 162 | 243) {
        return None;
    }
    let kind = Kind::from_letter(b[0])?;
    let size = match b[1] {
        b'3'..=b'9' => u32::from(b[1] - b'0'),
        b'g' | b'G' => 16,
        b'p' | b'P' => 25,
        _ => return None,
    };
    let ours = kind.puzzle_type().is_some() && size == 9;
    let body = &b[HEADER_LEN..];
    let cells = (size * size) as usize;
    if !ours && (!body.len().is_multiple_of(cells) || !body.iter().all(u8::is_ascii_alphanumeric)) {
        return None;
    }
    if b.contains(&b',') {
        return None;
    }
    Some(Header {
        kind,
        size,
        version: b[2].to_ascii_uppercase(),
    })
}

/// Why a Version B string of a type the archive holds is not a puzzle:
/// its fields ([`Error`], this module's) or the rules of its type (`E`,
/// the type's own error). Each type's reader returns it; the dispatch
/// (`puzzle`) turns it into the error of the string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failed<E> {
    Field(Error),
    Board(E),
}

impl<E> From<Error> for Failed<E> {
    fn from(e: Error) -> Self {
        Failed::Field(e)
    }
}

/// The value of one base-36 character, either case.
pub const fn digit_value(c: u8) -> Option<u32> {
    match c {
        b'0'..=b'9' => Some((c - b'0') as u32),
        b'a'..=b'z' => Some((c - b'a' + 10) as u32),
        b'A'..=b'Z' => Some((c - b'A' + 10) as u32),
        _ => None,
    }
}

/// Reads every cell field of a string of `kind` (header already claimed):
/// checks the length and the characters, returns the 81 values.
pub(crate) fn read_fields(s: &str, kind: Kind) -> Result<[u32; CELLS], Error> {
    let b = s.as_bytes();
    if b.len() != kind.string_len() {
        return Err(Error::Length {
            kind,
            found: s.chars().count(),
        });
    }
    let width = kind.width();
    let mut out = [0u32; CELLS];
    for (i, (v, field)) in out
        .iter_mut()
        .zip(b[HEADER_LEN..].chunks_exact(width))
        .enumerate()
    {
        for (k, &c) in field.iter().enumerate() {
            let Some(d) = digit_value(c) else {
                let pos = HEADER_LEN + i * width + k;
                return Err(Error::Character {
                    kind,
                    pos,
                    cell: cell(i),
                    // Everything before `pos` was ASCII, so it is a boundary.
                    found: s.get(pos..).and_then(|t| t.chars().next()).unwrap_or('?'),
                });
            };
            *v = *v * 36 + d;
        }
    }
    Ok(out)
}

/// The text of cell `i`'s field in a string whose fields were read.
pub(crate) fn field_text(s: &str, kind: Kind, i: usize) -> String {
    let at = HEADER_LEN + i * kind.width();
    s.get(at..at + kind.width()).unwrap_or_default().to_owned()
}

/// A string of `kind` with room for its fields, header written.
pub(crate) fn start(kind: Kind) -> String {
    let mut out = String::with_capacity(kind.string_len());
    out.push(kind.letter());
    out.push('9');
    out.push('B');
    out
}

/// Appends `n` as exactly `width` lowercase base-36 characters. `n` must be
/// below `36^width`; the high digits are dropped otherwise.
pub(crate) fn push_field(n: u32, width: usize, out: &mut String) {
    for k in (0..width).rev() {
        let d = (n / 36u32.pow(k as u32)) % 36;
        out.push(char::from(ALPHABET[d as usize]));
    }
}

/// The cell of an index known to be below 81.
pub(crate) fn cell(i: usize) -> Cell {
    Cell::new(i % CELLS).unwrap_or_else(|| unreachable!("cell index below 81"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sudoku;

    #[test]
    fn legacy_and_packed_shapes_are_never_claimed() {
        let x81 = sudoku::corpus::XWING_81;
        let x162 = sudoku::corpus::XWING_162;
        // A packed string may start like a header: its length tells it apart.
        let packed_like = format!("s9b{}", &x162[3..]);
        let killer_like = format!("l9b{},{}", "0".repeat(159), "0".repeat(162));
        // Nor are words and headers that start like one.
        let words = [
            "solutions",
            "difficulty",
            "Sudoku X puzzles",
            "kenken4x4",
            "T9 rating",
        ];
        // A foreign header whose body is no whole number of fields.
        let odd = format!("j3a{}", "0".repeat(77));
        for s in [x81, x162, &packed_like, &killer_like, &odd, "", "S9", "S9B"]
            .into_iter()
            .chain(words)
        {
            assert_eq!(claim(s), None, "{s}");
        }
    }

    #[test]
    fn headers_are_claimed_in_either_case_and_name_their_type() {
        let h = claim(&format!("s9b{}", "0".repeat(162))).unwrap();
        assert_eq!(h.puzzle_type(), Ok(PuzzleType::Sudoku));
        let cases = [
            (
                "X9B",
                "version b: \"X9B\" is a sudoku x string; the archive holds sudoku (S9B), killer (L9B) and str8ts (T9B)",
            ),
            (
                "J9B",
                "version b: \"J9B\" is a jigsaw sudoku string; the archive holds sudoku (S9B), killer (L9B) and str8ts (T9B)",
            ),
            (
                "K6C",
                "version b: \"K6C\" is a kenken string; the archive holds sudoku (S9B), killer (L9B) and str8ts (T9B)",
            ),
            (
                "U9B",
                "version b: \"U9B\" is a str8ts bx string; the archive holds sudoku (S9B), killer (L9B) and str8ts (T9B)",
            ),
            (
                "S9C",
                "version b: \"S9C\" is sudoku version C, expected version B",
            ),
            ("S4B", "version b: \"S4B\" is a 4x4 sudoku, expected 9x9"),
            ("TGB", "version b: \"TGB\" is a 16x16 str8ts, expected 9x9"),
        ];
        for (head, message) in cases {
            // Two characters per cell of the header's size.
            let size = char::from(head.as_bytes()[1]).to_digit(36).unwrap_or(0) as usize;
            let h = claim(&format!("{head}{}", "00".repeat(size * size))).expect(head);
            assert_eq!(h.puzzle_type().unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn fields_are_base_36_either_case_and_written_lowercase() {
        let s = format!("S9B{}EP{}", "ep".repeat(79), "0z");
        let v = read_fields(&s, Kind::Sudoku).unwrap();
        assert_eq!((v[0], v[79], v[80]), (529, 529, 35));
        let mut out = String::new();
        push_field(529, 2, &mut out);
        push_field(308_753, 4, &mut out);
        assert_eq!(out, "ep6m8h");
        let bad = format!("S9B{}e!{}", "00".repeat(40), "00".repeat(40));
        assert_eq!(
            read_fields(&bad, Kind::Sudoku).unwrap_err().to_string(),
            "sudoku version b: cell 40 (r5c5) has '!' at position 84, expected a base-36 character 0-9 or a-z"
        );
        assert_eq!(
            read_fields("S9B00", Kind::Sudoku).unwrap_err().to_string(),
            "sudoku version b: expected 165 characters (3 of header, then 2 per cell), found 5"
        );
    }
}
