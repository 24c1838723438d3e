//! Delimited records (CSV, TSV, `;`- or `|`-separated, or words split by
//! spaces): finds the delimiter, the header and the puzzle column, and
//! hands the pipeline one field per record with its other fields
//! ([`super::fields`]); joins a Killer split at its comma and pairs a
//! krazydad Killer CSV's two fields.
//!
//! Records are physical lines, parsed one at a time: a quote never runs
//! past its line. Must not guess from a file's name. How the delimiter and
//! column are chosen: docs/architecture.md "Module notes".

use std::io::{self, Read};
use std::ops::Range;

use super::text::TextReader;
use super::{Chunk, ChunkReader, ColumnChoice, ItemKind, PuzzleColumn, fields};
use crate::core::puzzle::strip_url;

/// Header names that mean "the puzzle is in this column", most specific first.
pub const PUZZLE_HEADERS: &[&str] = &[
    "puzzle", "puzzles", "quizzes", "quiz", "givens", "sudoku", "killer", "str8ts", "board",
    "grid", "bd", "problem", "question",
];

/// The delimiters sniffed, in order of preference on a tie.
pub const DELIMITERS: &[u8] = b",;\t| ";

/// The longest CSV line kept: other columns (notes, sources) may be long,
/// so the limit is higher than a text line's. A longer line is rejected as
/// `too-long` without being held whole.
pub const CSV_LINE_CAP: usize = 64 * 1024;

/// Lines of the first chunk looked at to sniff the delimiter and column.
const SAMPLE_LINES: usize = 200;

const BOM: &[u8] = "\u{feff}".as_bytes();

/// The name of a delimiter in messages: `','`, `tab`, `space`.
pub fn delimiter_name(d: u8) -> String {
    match d {
        b'\t' => "tab".into(),
        b' ' => "space".into(),
        d => format!("'{}'", char::from(d)),
    }
}

/// What the first lines say of a delimited file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sniffed {
    pub delimiter: u8,
    /// Per column, how many sampled lines hold a puzzle-shaped field there.
    pub hits: Vec<usize>,
    /// Lines sampled (long enough to hold a puzzle).
    pub sampled: usize,
}

impl Sniffed {
    /// The column that most often holds a puzzle, if any does.
    pub fn best(&self) -> Option<usize> {
        let max = *self.hits.iter().max()?;
        (max > 0).then(|| self.hits.iter().position(|&h| h == max))?
    }
}

/// Splits `line` on `delimiter` outside double quotes (for sniffing; the
/// quotes are kept), a space delimiter on runs of blanks.
fn rough_split(line: &[u8], delimiter: u8) -> Vec<&[u8]> {
    if delimiter == b' ' {
        return line
            .split(|c| matches!(c, b' ' | b'\t'))
            .filter(|f| !f.is_empty())
            .collect();
    }
    let mut quoted = false;
    line.split(|&c| {
        quoted ^= c == b'"';
        c == delimiter && !quoted
    })
    .map(|f| {
        f.strip_prefix(b"\"")
            .and_then(|f| f.strip_suffix(b"\""))
            .unwrap_or(f)
    })
    .collect()
}

/// Whether a field has the exact shape of a puzzle string: 81, 162 or
/// 243 characters, or a Killer's two parts (for sniffing, stricter than
/// [`looks_like_puzzle`]: a whole line of commas is no Killer).
fn shaped(field: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(field) else {
        return false;
    };
    let (bare, _) = strip_url(s.trim());
    match bare.split_once(',') {
        None => matches!(bare.len(), 81 | 162 | 243),
        Some((a, b)) => matches!(a.len(), 81 | 162) && b.len() == 162,
    }
}

/// Sniffs the delimiter among `candidates` from the lines of `chunk`: the
/// one whose fields hold a puzzle-shaped string on the most lines; with
/// none, the one the first non-blank line holds most of (`None` if it
/// holds none).
pub fn sniff(chunk: &Chunk, candidates: &[u8]) -> Option<Sniffed> {
    let lines: Vec<&[u8]> = chunk
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::Line)
        .map(|i| chunk.bytes(&i.raw))
        .map(|l| l.strip_prefix(BOM).unwrap_or(l))
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace) && !l.starts_with(b"#"))
        .take(SAMPLE_LINES)
        .collect();
    let long: Vec<&[u8]> = lines.iter().copied().filter(|l| l.len() >= 81).collect();
    let mut best: Option<Sniffed> = None;
    for &d in candidates {
        let mut hits = Vec::new();
        for l in &long {
            for (i, f) in rough_split(l, d).into_iter().enumerate() {
                if hits.len() <= i {
                    hits.resize(i + 1, 0);
                }
                hits[i] += usize::from(shaped(f) || killer_first_half(trim(f)));
            }
        }
        let score = hits.iter().max().copied().unwrap_or(0);
        if score > 0
            && best
                .as_ref()
                .is_none_or(|b| score > b.hits.iter().max().copied().unwrap_or(0))
        {
            best = Some(Sniffed {
                delimiter: d,
                hits,
                sampled: long.len(),
            });
        }
    }
    if best.is_some() {
        return best;
    }
    let first = lines.first()?;
    let (count, d) = candidates
        .iter()
        .filter(|&&d| d != b' ')
        .map(|&d| (first.iter().filter(|&&c| c == d).count(), d))
        .max_by_key(|&(n, d)| {
            (
                n,
                std::cmp::Reverse(candidates.iter().position(|&c| c == d)),
            )
        })?;
    (count > 0).then_some(Sniffed {
        delimiter: d,
        hits: Vec::new(),
        sampled: long.len(),
    })
}

fn trim(f: &[u8]) -> &[u8] {
    f.trim_ascii()
}

/// Whether a field has the shape of some supported puzzle string.
pub fn looks_like_puzzle(field: &[u8]) -> bool {
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

/// How the records were understood, decided from the first record.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Resolved {
    header: bool,
    column: usize,
    /// krazydad: the column of `puzz_hint` (`column` is `puzz_color`'s).
    hint: Option<usize>,
    /// Why `column` among other puzzle-shaped fields, for the layout.
    why: Option<String>,
}

/// A legacy grid's cells, if `f` is one: 81 of `1`-`9`, or `0`/`.` empty.
fn legacy_grid(f: &[u8]) -> Option<&[u8]> {
    let f = trim(f);
    (f.len() == 81 && f.iter().all(|c| c.is_ascii_digit() || *c == b'.')).then_some(f)
}

/// How many fields of `line`, split at `delimiter`, are legacy grids.
pub fn legacy_grids(line: &[u8], delimiter: u8) -> usize {
    rough_split(line, delimiter)
        .into_iter()
        .filter(|f| legacy_grid(f).is_some())
        .count()
}

fn is_blank(c: u8) -> bool {
    c == b'0' || c == b'.'
}

/// Whether `a` is the solution of `b`: `a` keeps every given of `b` and
/// fills blanks that `b` leaves.
fn fills(a: &[u8], b: &[u8]) -> bool {
    a.iter().zip(b).all(|(&x, &y)| is_blank(y) || x == y)
        && a.iter().filter(|&&c| is_blank(c)).count() < b.iter().filter(|&&c| is_blank(c)).count()
}

/// Of a headerless record's fields that are shaped like puzzles, the
/// puzzle's: a complete grid, or one that fills another's blanks, is a
/// solution. The column, and why it was taken when others were there.
fn puzzle_among(first: &[&[u8]]) -> Option<(usize, Option<String>)> {
    let shaped: Vec<usize> = (0..first.len())
        .filter(|&i| looks_like_puzzle(first[i]))
        .collect();
    let (&only, rest) = shaped.split_first()?;
    // A Killer split over two fields is one string, not two.
    let killer = shaped.iter().copied().find(|&i| {
        killer_first_half(trim(first[i])) && first.get(i + 1).is_some_and(|n| trim(n).len() == 162)
    });
    if rest.is_empty() || killer.is_some() {
        return Some((killer.unwrap_or(only), None));
    }
    let solved = |i: usize| {
        legacy_grid(first[i]).is_some_and(|a| {
            !a.iter().any(|&c| is_blank(c))
                || shaped
                    .iter()
                    .any(|&j| j != i && legacy_grid(first[j]).is_some_and(|b| fills(a, b)))
        })
    };
    let (solutions, puzzles): (Vec<usize>, Vec<usize>) = shaped.iter().partition(|&&i| solved(i));
    let fields = |v: &[usize]| {
        v.iter()
            .map(|i| (i + 1).to_string())
            .collect::<Vec<_>>()
            .join(" and ")
    };
    Some(match (puzzles.as_slice(), solutions.as_slice()) {
        ([one], solutions) => (
            *one,
            Some(format!(
                "field {} holds its solution{}",
                fields(solutions),
                if solutions.len() > 1 { "s" } else { "" }
            )),
        ),
        _ => (
            puzzles.first().copied().unwrap_or(only),
            Some(format!(
                "the first of fields {} shaped like puzzles, none of them the other's solution: --column chooses",
                fields(&shaped)
            )),
        ),
    })
}

/// Decides, from the first record, whether it is a header and which column
/// holds the puzzles.
fn resolve(
    first: &[&[u8]],
    choice: &Option<ColumnChoice>,
    sniffed: &Sniffed,
) -> Result<Resolved, String> {
    let names: Vec<String> = first
        .iter()
        .map(|f| String::from_utf8_lossy(f).trim().to_ascii_lowercase())
        .collect();
    let header = !first
        .iter()
        .any(|f| looks_like_puzzle(f) || killer_first_half(trim(f)));
    let plain = |column| Resolved {
        header,
        column,
        hint: None,
        why: None,
    };
    let named = |want: &str| names.iter().position(|n| n == want);
    if header
        && let (Some(colour), Some(hint)) = (named("puzz_color"), named("puzz_hint"))
        && matches!(choice, None | Some(ColumnChoice::Name(_)))
        && choice.as_ref().is_none_or(
            |c| matches!(c, ColumnChoice::Name(n) if n.eq_ignore_ascii_case("puzz_color")),
        )
    {
        return Ok(Resolved {
            header,
            column: colour,
            hint: Some(hint),
            why: None,
        });
    }
    let holds = |i: usize| sniffed.hits.get(i).is_some_and(|&h| h > 0);
    match choice {
        Some(ColumnChoice::Number(n)) => Ok(plain(n - 1)),
        Some(ColumnChoice::Name(want)) => {
            let want = want.to_ascii_lowercase();
            named(&want)
                .map(|i| Resolved {
                    header: true,
                    column: i,
                    hint: None,
                    why: None,
                })
                .ok_or_else(|| {
                    format!(
                        "column {want:?} is not in the header ({})",
                        names.join(", ")
                    )
                })
        }
        None if header => {
            let by_name = PUZZLE_HEADERS.iter().find_map(|w| named(w));
            Ok(plain(match (by_name, sniffed.best()) {
                (Some(i), _) if holds(i) => i,
                (_, Some(i)) => i,
                (Some(i), None) => i,
                // No known name: the first column is the usual place.
                (None, None) => 0,
            }))
        }
        None => Ok(match puzzle_among(first) {
            Some((column, why)) => Resolved {
                why,
                ..plain(column)
            },
            None => plain(sniffed.best().unwrap_or(0)),
        }),
    }
}

/// Frames the lines of a chunk as delimited records.
pub struct CsvFramer {
    delimiter: u8,
    choice: Option<ColumnChoice>,
    sniffed: Sniffed,
    /// Resolved from the first record that parses.
    resolved: Option<Resolved>,
    /// The header's names, as written, if the file has a header.
    names: Vec<String>,
    /// The same, with its header name, for messages.
    described: Option<PuzzleColumn>,
    layout: Option<String>,
    parser: csv_core::Reader,
    /// A quoted line's fields, unquoted, one after the other.
    parsed: Vec<u8>,
    /// Where each of them ends in `parsed`.
    ends: Vec<usize>,
    /// The current line's fields: ranges of the chunk's data (a line
    /// without quotes) or of `parsed`.
    spans: Vec<Range<usize>>,
}

/// Where a line's fields are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fields {
    /// Ranges of the chunk's data: the line had no quote.
    InLine,
    /// Ranges of `parsed`: quotes were taken off.
    Parsed,
}

/// Appends `bytes` to the chunk's buffer; their range there.
fn put(chunk: &mut Chunk, bytes: &[u8]) -> Range<usize> {
    let start = chunk.data.len();
    chunk.data.extend_from_slice(bytes);
    start..chunk.data.len()
}

impl CsvFramer {
    pub fn new(sniffed: Sniffed, choice: Option<ColumnChoice>) -> Self {
        let delimiter = sniffed.delimiter;
        CsvFramer {
            delimiter,
            choice,
            sniffed,
            resolved: None,
            names: Vec::new(),
            described: None,
            layout: None,
            parser: csv_core::ReaderBuilder::new().delimiter(delimiter).build(),
            parsed: Vec::new(),
            ends: Vec::new(),
            spans: Vec::new(),
        }
    }

    /// Finds the fields of `line` (a range of `data`) in `spans`; `None`
    /// when a quoted field is not closed by the end of the line.
    fn split(&mut self, data: &[u8], line: Range<usize>) -> Option<Fields> {
        self.spans.clear();
        let bytes = &data[line.clone()];
        if self.delimiter == b' ' {
            let mut start = None;
            for (i, &c) in bytes.iter().enumerate() {
                match (matches!(c, b' ' | b'\t'), start) {
                    (true, Some(s)) => {
                        self.spans.push(line.start + s..line.start + i);
                        start = None;
                    }
                    (false, None) => start = Some(i),
                    _ => {}
                }
            }
            if let Some(s) = start {
                self.spans.push(line.start + s..line.end);
            }
            return Some(Fields::InLine);
        }
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

    /// The description of the layout, once the first record is read.
    fn describe(&self, r: &Resolved) -> String {
        let d = delimiter_name(self.delimiter);
        let name = |i: usize| self.names.get(i).map(|n| n.trim()).unwrap_or("");
        if let Some(hint) = r.hint {
            return format!(
                "krazydad Killer CSV, columns {} + {} (fields {} and {} of {d}-separated)",
                name(r.column),
                name(hint),
                r.column + 1,
                hint + 1
            );
        }
        let mut text = if r.header {
            format!(
                "records with a header, column {:?} (field {} of {d}-separated)",
                name(r.column),
                r.column + 1
            )
        } else if r.column == 0 && self.spans.len() <= 1 {
            "one string per line".to_string()
        } else {
            format!(
                "one string per line, field {} of {d}-separated",
                r.column + 1
            )
        };
        if let Some(why) = &r.why {
            text.push_str(&format!(" ({why})"));
        } else if let Some(best) = self.sniffed.best().filter(|&b| b != r.column) {
            // What else the file looks like, should its records be rejected.
            text.push_str(&format!(
                "; field {} holds puzzle-shaped strings{}",
                best + 1,
                match name(best) {
                    "" => String::new(),
                    n => format!(" (column {n:?})"),
                }
            ));
        }
        text
    }

    /// The other fields of the current record, all but `skip`.
    fn others(&self, data: &[u8], fields: Fields, skip: &[usize]) -> Option<String> {
        if self.spans.len() <= skip.len() {
            return None;
        }
        let kept = (0..self.spans.len()).filter(|i| {
            !skip.contains(i)
                && self
                    .field(data, fields, *i)
                    .is_some_and(|f| !fields::is_grid_string(f))
        });
        if self.names.is_empty() {
            fields::array(kept.filter_map(|i| self.field(data, fields, i)))
        } else {
            fields::object(kept.filter_map(|i| {
                let name = match self.names.get(i).map(|n| n.trim()) {
                    Some(n) if !n.is_empty() => n.to_string(),
                    _ => format!("field {}", i + 1),
                };
                Some((name, self.field(data, fields, i)?))
            }))
        }
    }

    /// Turns item `i` of `chunk`, a line, into a header, a puzzle field, a
    /// bad record, or leaves it a (blank) line to skip.
    fn frame(&mut self, chunk: &mut Chunk, i: usize) -> io::Result<()> {
        let item = &chunk.items[i];
        let number = item.line;
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
        let resolved = match &self.resolved {
            Some(r) => r.clone(),
            None => {
                let first: Vec<&[u8]> = (0..self.spans.len())
                    .filter_map(|f| self.field(&chunk.data, fields, f))
                    .collect();
                let r = resolve(&first, &self.choice, &self.sniffed)
                    .map_err(|m| io::Error::new(io::ErrorKind::InvalidData, m))?;
                if r.header {
                    self.names = first
                        .iter()
                        .map(|f| String::from_utf8_lossy(f).into_owned())
                        .collect();
                }
                let name = self.names.get(r.column).map(|n| n.trim().to_string());
                self.described = Some(PuzzleColumn {
                    number: r.column + 1,
                    name,
                });
                self.layout = Some(self.describe(&r));
                self.resolved = Some(r.clone());
                if r.header {
                    chunk.items[i].kind = ItemKind::Header;
                    return Ok(());
                }
                r
            }
        };
        let column = resolved.column;
        if let Some(hint) = resolved.hint {
            let (Some(c), Some(h)) = (
                self.field(&chunk.data, fields, column),
                self.field(&chunk.data, fields, hint),
            ) else {
                chunk.items[i].kind = ItemKind::BadRecord(format!(
                    "csv: record has {} fields, no column {}",
                    self.spans.len(),
                    column.max(hint) + 1
                ));
                return Ok(());
            };
            let (c, h) = (c.to_vec(), h.to_vec());
            let others = self.others(&chunk.data, fields, &[column, hint]);
            let colour = put(chunk, &c);
            let hint = put(chunk, &h);
            chunk.items[i].kind = ItemKind::Krazydad { colour, hint };
            if let Some(text) = others {
                chunk.push_fields(number, &text);
            }
            return Ok(());
        }
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
                let others = if joined.is_some() {
                    self.others(&chunk.data, fields, &[column, column + 1])
                } else {
                    self.others(&chunk.data, fields, &[column])
                };
                let kind = match (fields, joined) {
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
                        ItemKind::Field(put(chunk, &copy))
                    }
                };
                if let Some(text) = others {
                    chunk.push_fields(number, &text);
                }
                kind
            }
        };
        chunk.items[i].kind = kind;
        Ok(())
    }

    /// Frames every line of `chunk`.
    pub fn frame_chunk(&mut self, chunk: &mut Chunk) -> io::Result<()> {
        for i in 0..chunk.items.len() {
            if chunk.items[i].kind == ItemKind::Line {
                self.frame(chunk, i)?;
            }
        }
        chunk.column = self.described.clone();
        chunk.layout.clone_from(&self.layout);
        Ok(())
    }
}

pub struct CsvReader<R> {
    lines: TextReader<R>,
    delimiter: Option<u8>,
    choice: Option<ColumnChoice>,
    framer: Option<CsvFramer>,
}

impl<R: Read> CsvReader<R> {
    /// A reader of delimited records; `delimiter` `None` sniffs it.
    pub fn new(read: R, delimiter: Option<u8>, choice: Option<ColumnChoice>) -> Self {
        CsvReader {
            lines: TextReader::with_limit(read, CSV_LINE_CAP),
            delimiter,
            choice,
            framer: None,
        }
    }
}

impl<R: Read + Send> ChunkReader for CsvReader<R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let Some(mut chunk) = self.lines.next_chunk()? else {
            return Ok(None);
        };
        let framer = match &mut self.framer {
            Some(f) => f,
            None => {
                let candidates = match self.delimiter {
                    Some(d) => vec![d],
                    None => DELIMITERS.iter().copied().filter(|&d| d != b' ').collect(),
                };
                let sniffed = sniff(&chunk, &candidates).unwrap_or(Sniffed {
                    delimiter: self.delimiter.unwrap_or(b','),
                    ..Sniffed::default()
                });
                self.framer
                    .insert(CsvFramer::new(sniffed, self.choice.clone()))
            }
        };
        framer.frame_chunk(&mut chunk)?;
        Ok(Some(chunk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(input: &str, choice: Option<ColumnChoice>) -> Vec<(u64, String)> {
        let mut r = CsvReader::new(input.as_bytes(), Some(b','), choice);
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
            Some(b','),
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
        let mut r = CsvReader::new(input.as_bytes(), None, None);
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
