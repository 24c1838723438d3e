//! CSV and TSV input: finds the header (if any) and the puzzle column, and
//! hands the pipeline one field per record. A Killer string spread over two
//! adjacent fields (its comma taken as a delimiter) is joined back together.

use std::io::{self, Read};

use super::{
    CHUNK_LINES, Chunk, ChunkReader, ColumnChoice, Item, ItemKind, MAX_LINE, PuzzleColumn,
};
use crate::core::puzzle::strip_url;

/// Header names that mean "the puzzle is in this column", most specific first.
const PUZZLE_HEADERS: &[&str] = &[
    "puzzle", "puzzles", "quizzes", "quiz", "givens", "sudoku", "killer", "str8ts", "board",
    "grid", "bd", "problem", "question",
];

/// The longest CSV line kept. The csv crate holds a whole record in memory,
/// so a longer line is cut here (the rest up to its newline is dropped) and
/// its record is then rejected like any other malformed one.
const CSV_LINE_CAP: usize = 64 * 1024;

/// Passes bytes through, except those beyond [`CSV_LINE_CAP`] in a line.
struct LineCap<R> {
    inner: R,
    in_line: usize,
    /// Bytes kept per line: [`CSV_LINE_CAP`] (smaller in tests).
    cap: usize,
}

impl<R: Read> Read for LineCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.inner.read(buf)?;
            if n == 0 {
                return Ok(0);
            }
            let kept = self.keep(&mut buf[..n]);
            // A read that was all dropped bytes must not look like the end.
            if kept > 0 {
                return Ok(kept);
            }
        }
    }
}

impl<R> LineCap<R> {
    /// Compacts `buf` in place, dropping each line's bytes past the cap;
    /// returns how many bytes are kept. Whole line pieces move at once, so
    /// ordinary input (every line short) costs one newline search.
    fn keep(&mut self, buf: &mut [u8]) -> usize {
        let mut kept = 0;
        let mut start = 0;
        while start < buf.len() {
            let newline = memchr::memchr(b'\n', &buf[start..]).map(|i| start + i);
            let end = newline.unwrap_or(buf.len());
            let content = end - start;
            let take = content.min(self.cap.saturating_sub(self.in_line));
            buf.copy_within(start..start + take, kept);
            kept += take;
            match newline {
                Some(i) => {
                    buf[kept] = b'\n';
                    kept += 1;
                    self.in_line = 0;
                    start = i + 1;
                }
                None => {
                    self.in_line += content;
                    start = end;
                }
            }
        }
        kept
    }
}

pub struct CsvReader<R> {
    inner: csv::Reader<LineCap<R>>,
    choice: Option<ColumnChoice>,
    /// Resolved once the first record is seen.
    column: Option<usize>,
    /// The same, with its header name, for messages.
    described: Option<PuzzleColumn>,
    record: csv::ByteRecord,
    done: bool,
    /// Data bytes of the last chunk: the next one is presized to match.
    last_bytes: usize,
}

impl<R: Read> CsvReader<R> {
    pub fn new(read: R, delimiter: u8, choice: Option<ColumnChoice>) -> Self {
        let inner = csv::ReaderBuilder::new()
            .buffer_capacity(1 << 16)
            .has_headers(false)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(LineCap {
                inner: read,
                in_line: 0,
                cap: CSV_LINE_CAP,
            });
        CsvReader {
            inner,
            choice,
            column: None,
            described: None,
            record: csv::ByteRecord::new(),
            done: false,
            last_bytes: 0,
        }
    }
}

/// Whether a field has the shape of some supported puzzle string.
fn looks_like_puzzle(field: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(field) else {
        return false;
    };
    let (bare, _) = strip_url(s.trim());
    matches!(bare.len(), 81 | 162 | 243) || (bare.contains(',') && bare.len() >= 163)
}

/// The first half of a Killer string: 81 colours `1`-`5`, or 162 base-32.
fn killer_first_half(f: &[u8]) -> bool {
    (f.len() == 81 && f.iter().all(|c| (b'1'..=b'5').contains(c)))
        || (f.len() == 162 && f.iter().all(|&c| crate::core::base32::value(c).is_some()))
}

/// Decides, from the first record, whether it is a header and which column
/// holds the puzzles.
fn resolve(
    first: &csv::ByteRecord,
    choice: &Option<ColumnChoice>,
) -> Result<(bool, usize), String> {
    let names: Vec<String> = first
        .iter()
        .map(|f| String::from_utf8_lossy(f).trim().to_ascii_lowercase())
        .collect();
    let has_header = !first.iter().any(looks_like_puzzle);
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
                Ok((false, first.iter().position(looks_like_puzzle).unwrap_or(0)))
            }
        }
    }
}

impl<R: Read + Send> CsvReader<R> {
    fn push_record(&mut self, chunk: &mut Chunk, line: u64, is_header: bool) {
        // The record again as one line (fields joined by commas, at most
        // MAX_LINE bytes), for a reject's `raw`.
        let start = chunk.data.len();
        for (i, f) in self.record.iter().enumerate() {
            if i > 0 {
                chunk.data.push(b',');
            }
            chunk.data.extend_from_slice(f);
            if chunk.data.len() - start > MAX_LINE {
                chunk.data.truncate(start + MAX_LINE);
                break;
            }
        }
        let raw = start..chunk.data.len();
        let col = self.column.unwrap_or(0);
        let kind = if is_header {
            ItemKind::Header
        } else {
            match self.record.get(col) {
                None => ItemKind::BadRecord(format!(
                    "csv: record has {} fields, no column {}",
                    self.record.len(),
                    col + 1
                )),
                Some(f) => {
                    let next = self.record.get(col + 1).filter(|n| n.len() == 162);
                    let start = chunk.data.len();
                    chunk.data.extend_from_slice(f);
                    if let Some(n) = next.filter(|_| killer_first_half(f)) {
                        chunk.data.push(b',');
                        chunk.data.extend_from_slice(n);
                    }
                    ItemKind::Field(start..chunk.data.len())
                }
            }
        };
        chunk.items.push(Item { line, raw, kind });
    }
}

impl<R: Read + Send> ChunkReader for CsvReader<R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        if self.done {
            return Ok(None);
        }
        let mut chunk = Chunk::with_capacity(self.last_bytes);
        while chunk.items.len() < CHUNK_LINES {
            let line = self.inner.position().line();
            match self.inner.read_byte_record(&mut self.record) {
                Ok(false) => {
                    self.done = true;
                    break;
                }
                Ok(true) => {
                    let line = self.record.position().map_or(line, |p| p.line());
                    let mut is_header = false;
                    if self.column.is_none() {
                        let (header, col) = resolve(&self.record, &self.choice)
                            .map_err(|m| io::Error::new(io::ErrorKind::InvalidData, m))?;
                        self.column = Some(col);
                        self.described = Some(PuzzleColumn {
                            number: col + 1,
                            name: self
                                .record
                                .get(col)
                                .filter(|_| header)
                                .map(|f| String::from_utf8_lossy(f).trim().to_string()),
                        });
                        is_header = header;
                    }
                    self.push_record(&mut chunk, line, is_header);
                }
                Err(e) => {
                    if let csv::ErrorKind::Io(_) = e.kind() {
                        return Err(io::Error::other(e.to_string()));
                    }
                    let raw = chunk.push_raw(&[]);
                    let line = e.position().map_or(line, |p| p.line());
                    chunk.items.push(Item {
                        line,
                        raw,
                        kind: ItemKind::BadRecord(format!("csv: {e}")),
                    });
                }
            }
        }
        chunk.offset = self.inner.position().byte();
        chunk.column = self.described.clone();
        self.last_bytes = chunk.data.len();
        Ok((!chunk.items.is_empty()).then_some(chunk))
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
    fn an_endless_line_is_cut_and_the_next_record_survives() {
        let q = "0".repeat(81);
        let long = "9".repeat(3 * CSV_LINE_CAP);
        let got = fields(&format!("puzzle\n{long}\n{q}\n"), None);
        assert_eq!(got.len(), 3);
        assert_eq!(got[1].1.len(), CSV_LINE_CAP);
        assert_eq!(got[2], (3, q));
    }

    /// Reads `input` through a `LineCap` of `cap` bytes per line, the
    /// source handing out at most `step` bytes per read.
    fn capped(input: &[u8], cap: usize, step: usize) -> Vec<u8> {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut r = LineCap {
            inner: Trickle(input, step),
            in_line: 0,
            cap,
        };
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        out
    }

    proptest::proptest! {
        #[test]
        fn line_cap_keeps_the_first_cap_bytes_of_every_line(
            input in proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', b'\n']), 0..200),
            cap in 0usize..8,
            step in 1usize..20,
        ) {
            let want: Vec<u8> = input
                .split_inclusive(|&b| b == b'\n')
                .flat_map(|line| {
                    let content = line.strip_suffix(b"\n").unwrap_or(line);
                    let mut kept = content[..content.len().min(cap)].to_vec();
                    kept.extend_from_slice(&line[content.len()..]);
                    kept
                })
                .collect();
            proptest::prop_assert_eq!(capped(&input, cap, step), want);
        }
    }

    #[test]
    fn short_record_is_a_bad_record() {
        let q = "0".repeat(81);
        let got = fields(&format!("id,puzzle\n1,{q}\n2\n"), None);
        assert_eq!(got[2].0, 3);
        assert!(got[2].1.contains("no column 2"), "{:?}", got[2]);
    }
}
