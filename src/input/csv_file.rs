//! CSV and TSV input: finds the header (if any) and the puzzle column, and
//! hands the pipeline one field per record. A Killer string spread over two
//! adjacent fields (its comma taken as a delimiter) is joined back together.
//!
//! Records are physical lines: the input is split into lines first (by
//! [`TextReader`], which also bounds their length), and each line's fields
//! are parsed on their own. A quoted field therefore never runs past its
//! line: a line whose quote is not closed is rejected as a `csv` record
//! (`csv: unterminated quoted field`) and the next line is read as usual,
//! where a CSV parser reading the whole stream would take the rest of the
//! file into that one field. Quoted fields holding a line break, which no
//! puzzle string needs, are given up for this. Lines without a quote (all
//! of a Kaggle file) are split on the delimiter directly, and the puzzle
//! field is a range of the line as read: no copy, no parser state.
//!
//! Blank lines are skipped, as in text files; the header is looked for in
//! the first line that parses, and a byte order mark at the start of the
//! file is dropped.

use std::io::{self, Read};
use std::ops::Range;

use super::text::TextReader;
use super::{Chunk, ChunkReader, ColumnChoice, ItemKind, PuzzleColumn};
use crate::core::puzzle::strip_url;

/// Header names that mean "the puzzle is in this column", most specific first.
const PUZZLE_HEADERS: &[&str] = &[
    "puzzle", "puzzles", "quizzes", "quiz", "givens", "sudoku", "killer", "str8ts", "board",
    "grid", "bd", "problem", "question",
];

/// The longest CSV line kept: other columns (notes, sources) may be long,
/// so the limit is higher than a text line's. A longer line is rejected as
/// `too-long` without being held whole.
pub const CSV_LINE_CAP: usize = 64 * 1024;

const BOM: &[u8] = "\u{feff}".as_bytes();

pub struct CsvReader<R> {
    lines: TextReader<R>,
    delimiter: u8,
    choice: Option<ColumnChoice>,
    /// Resolved from the first record that parses.
    column: Option<usize>,
    /// The same, with its header name, for messages.
    described: Option<PuzzleColumn>,
    parser: csv_core::Reader,
    /// A quoted line's fields, unquoted, one after the other.
    parsed: Vec<u8>,
    /// Where each of them ends in `parsed`.
    ends: Vec<usize>,
    /// The current line's fields: ranges of the chunk's data (a line
    /// without quotes) or of `parsed`.
    spans: Vec<Range<usize>>,
}

impl<R: Read> CsvReader<R> {
    pub fn new(read: R, delimiter: u8, choice: Option<ColumnChoice>) -> Self {
        CsvReader {
            lines: TextReader::with_limit(read, CSV_LINE_CAP),
            delimiter,
            choice,
            column: None,
            described: None,
            parser: csv_core::ReaderBuilder::new().delimiter(delimiter).build(),
            parsed: Vec::new(),
            ends: Vec::new(),
            spans: Vec::new(),
        }
    }
}

/// Where a line's fields are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fields {
    /// Ranges of the chunk's data: the line had no quote.
    InLine,
    /// Ranges of `parsed`: quotes were taken off.
    Parsed,
}

/// Whether a field has the shape of some supported puzzle string.
fn looks_like_puzzle(field: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(field) else {
        return false;
    };
    let (bare, _) = strip_url(s.trim());
    matches!(bare.len(), 81 | 162 | 243)
        || (bare.contains(',') && bare.len() >= 163)
        || crate::core::version_b::claim(bare).is_some()
}

/// The first half of a Killer string: 81 colours `1`-`5`, or 162 base-32.
fn killer_first_half(f: &[u8]) -> bool {
    (f.len() == 81 && f.iter().all(|c| (b'1'..=b'5').contains(c)))
        || (f.len() == 162 && f.iter().all(|&c| crate::core::base32::value(c).is_some()))
}

/// Decides, from the first record, whether it is a header and which column
/// holds the puzzles.
fn resolve(first: &[&[u8]], choice: &Option<ColumnChoice>) -> Result<(bool, usize), String> {
    let names: Vec<String> = first
        .iter()
        .map(|f| String::from_utf8_lossy(f).trim().to_ascii_lowercase())
        .collect();
    let has_header = !first.iter().any(|f| looks_like_puzzle(f));
    match choice {
        Some(ColumnChoice::Number(n)) => Ok((has_header, n - 1)),
        Some(ColumnChoice::Name(want)) => {
            let want = want.to_ascii_lowercase();
            names
                .iter()
                .position(|n| *n == want)
                .map(|i| (true, i))
                .ok_or_else(|| {
                    format!(
                        "column {want:?} is not in the header ({})",
                        names.join(", ")
                    )
                })
        }
        None => {
            if has_header {
                for want in PUZZLE_HEADERS {
                    if let Some(i) = names.iter().position(|n| n == want) {
                        return Ok((true, i));
                    }
                }
                // No known name: the first column is the usual place.
                Ok((true, 0))
            } else {
                Ok((
                    false,
                    first.iter().position(|f| looks_like_puzzle(f)).unwrap_or(0),
                ))
            }
        }
    }
}

impl<R: Read> CsvReader<R> {
    /// Finds the fields of `line` (a range of `data`) in `spans`; `None`
    /// when a quoted field is not closed by the end of the line.
    fn split(&mut self, data: &[u8], line: Range<usize>) -> Option<Fields> {
        self.spans.clear();
        let bytes = &data[line.clone()];
        if memchr::memchr(b'"', bytes).is_none() {
            let mut start = line.start;
            for i in memchr::memchr_iter(self.delimiter, bytes) {
                self.spans.push(start..line.start + i);
                start = line.start + i + 1;
            }
            self.spans.push(start..line.end);
            return Some(Fields::InLine);
        }
        // Room for every field: unquoting never makes a line longer.
        self.parsed.resize(bytes.len() + 1, 0);
        self.ends.resize(bytes.len() + 1, 0);
        self.parser.reset();
        let (mut input, mut out, mut nends) = (bytes, 0, 0);
        // The line, then a line break: a record ends at the break unless a
        // quote is still open, which then takes the break into its field.
        for feed in [0, 1] {
            if feed == 1 {
                input = b"\n";
            }
            loop {
                let (result, nin, nout, ne) = self.parser.read_record(
                    input,
                    &mut self.parsed[out..],
                    &mut self.ends[nends..],
                );
                input = &input[nin..];
                out += nout;
                nends += ne;
                match result {
                    csv_core::ReadRecordResult::Record => {
                        let mut start = 0;
                        for &end in &self.ends[..nends] {
                            self.spans.push(start..end);
                            start = end;
                        }
                        return Some(Fields::Parsed);
                    }
                    csv_core::ReadRecordResult::InputEmpty => break,
                    // Cannot happen with the room made above; grow anyway.
                    csv_core::ReadRecordResult::OutputFull => {
                        self.parsed.resize(self.parsed.len() * 2 + 1, 0)
                    }
                    csv_core::ReadRecordResult::OutputEndsFull => {
                        self.ends.resize(self.ends.len() * 2 + 1, 0)
                    }
                    csv_core::ReadRecordResult::End => break,
                }
            }
        }
        None
    }

    /// The bytes of field `i` of the current line.
    fn field<'a>(&'a self, data: &'a [u8], fields: Fields, i: usize) -> Option<&'a [u8]> {
        let span = self.spans.get(i)?.clone();
        Some(match fields {
            Fields::InLine => &data[span],
            Fields::Parsed => &self.parsed[span],
        })
    }

    /// Turns item `i` of `chunk`, a line, into a header, a puzzle field, a
    /// bad record, or leaves it a (blank) line to skip.
    fn frame(&mut self, chunk: &mut Chunk, i: usize) -> io::Result<()> {
        let item = &chunk.items[i];
        let mut line = item.raw.clone();
        if item.line == 1 && chunk.data[line.clone()].starts_with(BOM) {
            line.start += BOM.len();
        }
        if chunk.data[line.clone()].iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let Some(fields) = self.split(&chunk.data, line) else {
            chunk.items[i].kind = ItemKind::BadRecord("csv: unterminated quoted field".into());
            return Ok(());
        };
        let column = match self.column {
            Some(c) => c,
            None => {
                let first: Vec<&[u8]> = (0..self.spans.len())
                    .filter_map(|f| self.field(&chunk.data, fields, f))
                    .collect();
                let (header, column) = resolve(&first, &self.choice)
                    .map_err(|m| io::Error::new(io::ErrorKind::InvalidData, m))?;
                let name = first
                    .get(column)
                    .filter(|_| header)
                    .map(|f| String::from_utf8_lossy(f).trim().to_string());
                self.column = Some(column);
                self.described = Some(PuzzleColumn {
                    number: column + 1,
                    name,
                });
                if header {
                    chunk.items[i].kind = ItemKind::Header;
                    return Ok(());
                }
                column
            }
        };
        let kind = match self.field(&chunk.data, fields, column) {
            None => ItemKind::BadRecord(format!(
                "csv: record has {} fields, no column {}",
                self.spans.len(),
                column + 1
            )),
            Some(f) => {
                let joined = self
                    .field(&chunk.data, fields, column + 1)
                    .filter(|n| n.len() == 162 && killer_first_half(f));
                match (fields, joined) {
                    // The field as read, or the two as read with their comma.
                    (Fields::InLine, None) => ItemKind::Field(self.spans[column].clone()),
                    (Fields::InLine, Some(_)) if self.delimiter == b',' => {
                        ItemKind::Field(self.spans[column].start..self.spans[column + 1].end)
                    }
                    (_, joined) => {
                        let mut copy = Vec::with_capacity(f.len() + 163);
                        copy.extend_from_slice(f);
                        if let Some(n) = joined {
                            copy.push(b',');
                            copy.extend_from_slice(n);
                        }
                        let start = chunk.data.len();
                        chunk.data.extend_from_slice(&copy);
                        ItemKind::Field(start..chunk.data.len())
                    }
                }
            }
        };
        chunk.items[i].kind = kind;
        Ok(())
    }
}

impl<R: Read + Send> ChunkReader for CsvReader<R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let Some(mut chunk) = self.lines.next_chunk()? else {
            return Ok(None);
        };
        for i in 0..chunk.items.len() {
            if chunk.items[i].kind == ItemKind::Line {
                self.frame(&mut chunk, i)?;
            }
        }
        chunk.column = self.described.clone();
        Ok(Some(chunk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(input: &str, choice: Option<ColumnChoice>) -> Vec<(u64, String)> {
        let mut r = CsvReader::new(input.as_bytes(), b',', choice);
        let mut out = vec![];
        while let Some(c) = r.next_chunk().unwrap() {
            for it in &c.items {
                let s = match &it.kind {
                    ItemKind::Field(f) => String::from_utf8_lossy(c.bytes(f)).into_owned(),
                    ItemKind::Header => "<header>".into(),
                    other => format!("{other:?}"),
                };
                out.push((it.line, s));
            }
        }
        out
    }

    #[test]
    fn kaggle_header_is_found_and_quizzes_chosen() {
        let q = "0".repeat(81);
        let s = "1".repeat(81);
        let got = fields(&format!("quizzes,solutions\n{q},{s}\n"), None);
        assert_eq!(got, vec![(1, "<header>".into()), (2, q)]);
    }

    #[test]
    fn headerless_file_takes_the_column_that_looks_like_a_puzzle() {
        let q = "0".repeat(81);
        let got = fields(&format!("7,{q}\n8,{q}\n"), None);
        assert_eq!(got, vec![(1, q.clone()), (2, q)]);
    }

    #[test]
    fn killer_split_over_two_fields_is_joined() {
        let a = "1".repeat(81);
        let b = "0".repeat(162);
        let got = fields(&format!("{a},{b},extra\n"), None);
        assert_eq!(got, vec![(1, format!("{a},{b}"))]);
        let quoted = fields(&format!("\"{a},{b}\",extra\n"), None);
        assert_eq!(quoted, vec![(1, format!("{a},{b}"))]);
    }

    #[test]
    fn named_column_must_exist() {
        let mut r = CsvReader::new(
            "a,b\n1,2\n".as_bytes(),
            b',',
            Some(ColumnChoice::Name("zz".into())),
        );
        let e = r.next_chunk().unwrap_err();
        assert!(
            e.to_string().contains("\"zz\" is not in the header (a, b)"),
            "{e}"
        );
    }

    #[test]
    fn an_endless_line_is_too_long_and_the_next_record_survives() {
        let q = "0".repeat(81);
        let long = "9".repeat(3 * CSV_LINE_CAP);
        let got = fields(&format!("puzzle\n{long}\n{q}\n"), None);
        assert_eq!(got.len(), 3);
        assert!(got[1].1.starts_with("TooLong"), "{:?}", got[1]);
        assert_eq!(got[2], (3, q));
    }

    #[test]
    fn an_unclosed_quote_rejects_its_line_only() {
        let q = "0".repeat(81);
        let input =
            format!("quizzes,solutions\n{q},1\n{q},\"1\n{q},\"1\"\n\"{q}\",2\n\"{q}\n{q},3\n");
        let got = fields(&input, None);
        let bad = "BadRecord(\"csv: unterminated quoted field\")".to_string();
        assert_eq!(
            got,
            vec![
                (1, "<header>".into()),
                (2, q.clone()),
                (3, bad.clone()),
                (4, q.clone()),
                (5, q.clone()),
                (6, bad),
                (7, q),
            ]
        );
    }

    #[test]
    fn blank_lines_are_lines_a_bom_is_dropped_and_crlf_ends_a_record() {
        let q = "0".repeat(81);
        let got = fields(&format!("\u{feff}puzzle\r\n\r\n{q}\r\n  \n{q}"), None);
        assert_eq!(
            got,
            vec![
                (1, "<header>".into()),
                (2, "Line".into()),
                (3, q.clone()),
                (4, "Line".into()),
                (5, q),
            ]
        );
    }

    #[test]
    fn tab_separated_killer_halves_are_joined_with_a_comma() {
        let a = "1".repeat(81);
        let b = "0".repeat(162);
        let input = format!("x\t{a}\t{b}\n");
        let mut r = CsvReader::new(input.as_bytes(), b'\t', None);
        let c = r.next_chunk().unwrap().unwrap();
        let ItemKind::Field(f) = &c.items[0].kind else {
            panic!("{:?}", c.items[0])
        };
        assert_eq!(c.bytes(f), format!("{a},{b}").as_bytes());
    }

    #[test]
    fn short_record_is_a_bad_record() {
        let q = "0".repeat(81);
        let got = fields(&format!("id,puzzle\n1,{q}\n2\n"), None);
        assert_eq!(got[2].0, 3);
        assert!(got[2].1.contains("no column 2"), "{:?}", got[2]);
    }
}
