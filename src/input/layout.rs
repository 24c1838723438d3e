//! Text input: tells, per file, how its records are laid out (strings one
//! per line, grids on nine lines, or delimited lines handed to
//! [`csv_file`]) and frames them into items.
//!
//! Every line stays one item, in order: a grid is the item of its first row
//! and [`ItemKind::Part`]s after it, carried whole into the next chunk when
//! it straddles one, with bounded lookahead ([`MAX_RUN_ROWS`]). The one-line
//! fast path must stay one. In full: docs/architecture.md "Module notes".
//!
//! [`csv_file`]: super::csv_file

use std::io::{self, Read};

use super::csv_file::{
    self, CsvFramer, DELIMITERS, PUZZLE_HEADERS, delimiter_name, looks_like_puzzle,
};
use super::extract::{Extracted, puzzle_token};
use super::grid::{self, Kind, Line};
use super::text::TextReader;
use super::{Chunk, ChunkReader, Item, ItemKind, feed, fields};

/// The most rows one run of grid lines holds before it is cut: twelve
/// grids written back to back.
pub const MAX_RUN_ROWS: usize = 108;

/// The most lines (rows and separator lines) of one run.
const MAX_RUN_LINES: usize = 4 * MAX_RUN_ROWS;

/// The most blank lines looked past for a Str8ts digits grid or a note.
const MAX_GAP: usize = 16;

/// Lines looked at to choose between one string per line and delimited
/// lines.
const SAMPLE_LINES: usize = 200;

enum Mode {
    Text,
    Delimited(Box<CsvFramer>),
}

pub struct TextLayout<R> {
    lines: TextReader<R>,
    /// Lines of an unfinished grid at the end of the last chunk.
    carry: Option<Chunk>,
    mode: Option<Mode>,
    ended: bool,
    /// An error met with lines carried: reported after them.
    failed: Option<io::Error>,
    classic: u64,
    str8ts: u64,
    strings: bool,
    /// What the file looks like when its lines do not start with puzzles.
    looks: Option<String>,
}

impl<R: Read> TextLayout<R> {
    pub fn new(read: R) -> Self {
        TextLayout {
            lines: TextReader::new(read),
            carry: None,
            mode: None,
            ended: false,
            failed: None,
            classic: 0,
            str8ts: 0,
            strings: false,
            looks: None,
        }
    }
}

/// The lines of `chunk` from item `from` on, as a chunk of their own.
fn split_off(chunk: &mut Chunk, from: usize) -> Chunk {
    let mut carry = Chunk {
        offset: chunk.offset,
        ..Chunk::default()
    };
    for item in chunk.items.drain(from..) {
        let start = carry.data.len();
        carry
            .data
            .extend_from_slice(chunk.data.get(item.raw.clone()).unwrap_or_default());
        carry.items.push(Item {
            raw: start..carry.data.len(),
            ..item
        });
    }
    carry
}

/// `carry`'s lines, then `next`'s.
fn merge(mut carry: Chunk, next: Chunk) -> Chunk {
    let shift = carry.data.len();
    carry.data.extend_from_slice(&next.data);
    carry.items.extend(next.items.into_iter().map(|i| Item {
        raw: i.raw.start + shift..i.raw.end + shift,
        kind: match i.kind {
            ItemKind::TooLong { len, limit } => ItemKind::TooLong { len, limit },
            _ => ItemKind::Line,
        },
        line: i.line,
    }));
    carry.offset = next.offset;
    carry
}

/// A line's bytes, a byte order mark at the start of the file dropped.
fn text<'a>(chunk: &'a Chunk, item: &Item) -> &'a [u8] {
    let b = chunk.bytes(&item.raw);
    if item.line == 1 {
        b.strip_prefix("\u{feff}".as_bytes()).unwrap_or(b)
    } else {
        b
    }
}

/// Marks the first line of a text file of one string per line as a header
/// when it names its columns (`puzzle,rating`, `Puzzle Rating`): two or
/// more fields split at its delimiter, none a number, one of them a known
/// puzzle column name, and as many as the next line has.
fn header_line(chunk: &mut Chunk) {
    let Some(i) = chunk.items.iter().position(|i| {
        i.kind == ItemKind::Line && {
            let t = text(chunk, i).trim_ascii();
            !t.is_empty() && !t.starts_with(b"#")
        }
    }) else {
        return;
    };
    let line = text(chunk, &chunk.items[i]);
    // Its delimiter, and the fields of a line split by it.
    let Some(&d) = DELIMITERS.iter().find(|d| line.trim_ascii().contains(d)) else {
        return;
    };
    let fields = |l: &[u8]| -> Vec<String> {
        l.trim_ascii()
            .split(|&c| c == d || (d == b' ' && c == b'\t'))
            .filter(|w| !w.is_empty() || d != b' ')
            .map(|w| String::from_utf8_lossy(w.trim_ascii()).into_owned())
            .collect()
    };
    let words = fields(line);
    // The next line that is not blank has as many fields.
    let next = chunk.items[i + 1..]
        .iter()
        .filter(|n| n.kind == ItemKind::Line)
        .map(|n| text(chunk, n))
        .find(|t| !t.trim_ascii().is_empty());
    // Names, not a title like `Grid 01` nor a sentence: two or more, none
    // a number, one a puzzle column's name, as many as the next line's fields.
    let named = line.len() < 81
        && words.len() >= 2
        && next.is_some_and(|n| fields(n).len() == words.len())
        && !words.iter().any(|w| w.bytes().all(|c| c.is_ascii_digit()))
        && words
            .iter()
            .any(|w| PUZZLE_HEADERS.iter().any(|h| w.eq_ignore_ascii_case(h)));
    if named {
        chunk.items[i].kind = ItemKind::Header;
    }
}

/// What a grid search at some line came to.
enum Step {
    /// Framed up to (not including) this item.
    Done(usize),
    /// The chunk ended inside it: carry from the first line.
    More,
    /// Not a grid.
    No,
}

/// What each line of a chunk is, for grids.
struct Lines {
    class: Vec<Line>,
    blank: Vec<bool>,
}

impl Lines {
    fn of(chunk: &Chunk) -> Lines {
        let mut class = Vec::with_capacity(chunk.items.len());
        let mut blank = Vec::with_capacity(chunk.items.len());
        for item in &chunk.items {
            let (c, b) = match item.kind {
                ItemKind::Line => {
                    let t = text(chunk, item);
                    (
                        grid::classify(t),
                        t.len() <= grid::MAX_ROW && grid::is_blank(t),
                    )
                }
                _ => (Line::Other, false),
            };
            class.push(c);
            blank.push(b);
        }
        Lines { class, blank }
    }

    fn grid_line(&self, i: usize) -> bool {
        matches!(self.class.get(i), Some(Line::Row(_) | Line::Separator))
    }
}

/// What the description of a file of pencilmarks says (see
/// `cli::import::all_rejected`, which then names the form instead of a
/// wrong option).
pub const PENCILMARKS: &str = "the length of pencilmarks (9 candidates for each of 81 cells)";

/// A line's length for people: in characters, its bytes too when they
/// differ, and what it looks like when its length says so.
fn length(line: &[u8]) -> String {
    let chars = String::from_utf8_lossy(line).chars().count();
    if chars != line.len() {
        format!("{chars} characters ({} bytes)", line.len())
    } else if chars == 729 && line.iter().all(|c| c.is_ascii_digit() || *c == b'.') {
        format!("{chars} characters, {PENCILMARKS}")
    } else {
        format!("{chars} characters")
    }
}

impl<R: Read> TextLayout<R> {
    /// Decides from the first chunk whether the lines start with their
    /// puzzle or hold it in another field.
    fn sniff(&mut self, chunk: &Chunk) -> Mode {
        let sample: Vec<&[u8]> = chunk
            .items
            .iter()
            .filter(|i| i.kind == ItemKind::Line)
            .map(|i| text(chunk, i))
            .filter(|l| l.len() >= 81 && !l.starts_with(b"#"))
            .take(SAMPLE_LINES)
            .collect();
        if sample.is_empty() {
            return Mode::Text;
        }
        let first_word = sample
            .iter()
            .filter(|l| {
                std::str::from_utf8(l).is_ok_and(|s| {
                    matches!(puzzle_token(s), Extracted::Puzzle(t) if looks_like_puzzle(t.as_bytes()))
                })
            })
            .count();
        let sniffed = csv_file::sniff(chunk, DELIMITERS);
        // Two fields shaped like puzzles (a puzzle and its solution, in
        // either order): the record's fields decide which is the puzzle.
        // (81-character grids only: a Killer's halves are one string.)
        let two = sniffed
            .as_ref()
            .is_some_and(|s| csv_file::legacy_grids(sample[0], s.delimiter) >= 2);
        if 2 * first_word >= sample.len() && !two {
            return Mode::Text;
        }
        if let Some(s) = sniffed
            && let Some(best) = s.best()
            && 2 * s.hits[best] >= s.sampled
        {
            return Mode::Delimited(Box::new(CsvFramer::new(s, None)));
        }
        let first = sample[0];
        let split: Vec<String> = DELIMITERS
            .iter()
            .filter_map(|&d| {
                let n = first.iter().filter(|&&c| c == d).count();
                (n > 0).then(|| format!("{} fields split by {}", n + 1, delimiter_name(d)))
            })
            .collect();
        self.looks = Some(format!(
            "its first long line is {}{}{}, none shaped like a puzzle string",
            length(first),
            if split.is_empty() { "" } else { ", " },
            split.join(", ")
        ));
        Mode::Text
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.classic > 0 {
            parts.push("9-line grids");
        }
        if self.str8ts > 0 {
            parts.push("9-line Str8ts grids");
        }
        if self.strings || parts.is_empty() {
            parts.push("one string per line");
        }
        let mut d = parts.join(" and ");
        if let Some(l) = &self.looks {
            d.push_str("; ");
            d.push_str(l);
        }
        d
    }

    /// A one-line record: keeps its trailing text as its fields.
    fn text_line(&mut self, chunk: &mut Chunk, i: usize) {
        let item = &chunk.items[i];
        if item.kind != ItemKind::Line {
            return;
        }
        let line = text(chunk, item);
        if line.len() < 17 {
            return;
        }
        self.strings = true;
        if memchr::memchr3(b' ', b'\t', b';', line).is_none()
            && memchr::memchr3(b'#', b',', b'|', line).is_none()
        {
            return;
        }
        let Ok(s) = std::str::from_utf8(line) else {
            return;
        };
        let Extracted::Puzzle(token) = puzzle_token(s) else {
            return;
        };
        let end = token.as_ptr() as usize - s.as_ptr() as usize + token.len();
        let rest = s[end..].trim();
        let (delimiter, rest) = match rest.as_bytes().first() {
            Some(&c @ (b',' | b';' | b'|' | b'\t' | b'#')) => (c, &rest[1..]),
            _ => (b' ', rest),
        };
        let parts: Vec<&[u8]> = if delimiter == b' ' {
            rest.split_whitespace().map(str::as_bytes).collect()
        } else {
            rest.split(char::from(delimiter))
                .map(str::as_bytes)
                .collect()
        };
        if let Some(f) = fields::array(parts) {
            let line = item.line;
            chunk.push_fields(line, &f);
        }
    }

    /// Looks for a grid whose rows start at item `r`, with a title line
    /// at `title`; frames it when whole.
    fn grid(
        &mut self,
        chunk: &mut Chunk,
        l: &Lines,
        r: usize,
        title: Option<usize>,
        eof: bool,
    ) -> Step {
        let n = chunk.items.len();
        let run = |from: usize| {
            let mut j = from;
            let mut rows = Vec::new();
            while j < n && l.grid_line(j) && rows.len() < MAX_RUN_ROWS && j - from < MAX_RUN_LINES {
                if let Line::Row(row) = l.class[j] {
                    rows.push((j, row));
                }
                j += 1;
            }
            (j, rows)
        };
        let (j, rows) = run(r);
        if j == n && !eof && rows.len() < MAX_RUN_ROWS && j - r < MAX_RUN_LINES {
            return Step::More;
        }
        if rows.len() < 3 || !rows.iter().any(|(_, row)| row.count == 9) {
            return Step::No;
        }
        let line_of = |i: usize| chunk.items[i].line;
        let numbered = |rows: &[(usize, grid::Row)]| -> Vec<(u64, grid::Row)> {
            rows.iter().map(|&(i, row)| (line_of(i), row)).collect()
        };
        // Grids written back to back: nine rows each.
        let groups: Vec<&[(usize, grid::Row)]> = if rows.len() > 9
            && rows.len() % 9 == 0
            && rows.iter().all(|(_, row)| row.count == 9)
        {
            rows.chunks(9).collect()
        } else {
            vec![&rows[..]]
        };
        let mut records = Vec::new();
        let mut end = j;
        for (g, group) in groups.iter().enumerate() {
            let first = if g == 0 { r } else { group[0].0 };
            let last = groups.get(g + 1).map_or(j, |next| next[0].0);
            let made = match grid::block(&numbered(group)) {
                Err(e) => Err(e),
                Ok(b) if b.kind == Kind::Colours && groups.len() == 1 => {
                    let mut k = j;
                    while k < n && l.blank[k] && k - j < MAX_GAP {
                        k += 1;
                    }
                    let (m, digits) = run(k);
                    if m == n && !eof && digits.len() < MAX_RUN_ROWS && m - k < MAX_RUN_LINES {
                        return Step::More;
                    }
                    if digits.len() < 3 || !digits.iter().any(|(_, row)| row.count == 9) {
                        Err(format!(
                            "grid starting at line {}: a Str8ts colour grid (x black, . white) must be followed by the grid of its digits",
                            line_of(group[0].0)
                        ))
                    } else {
                        end = m;
                        grid::block(&numbered(&digits))
                            .and_then(|d| grid::str8ts_string(&b, &d, line_of(digits[0].0)))
                            .map(|s| (s, Kind::Str8ts))
                            .map_err(|e| {
                                format!(
                                    "the digits of the Str8ts colour grid at line {}: {e}",
                                    line_of(group[0].0)
                                )
                            })
                    }
                }
                Ok(b) if b.kind == Kind::Colours => Err(format!(
                    "grid starting at line {}: a Str8ts colour grid (x black, . white) must be followed by the grid of its digits",
                    line_of(group[0].0)
                )),
                Ok(b) => Ok((grid::puzzle_string(&b), b.kind)),
            };
            records.push((
                first,
                group[0].0,
                if g + 1 == groups.len() { end } else { last },
                made,
            ));
        }
        // A note after the grid: a line of words, after blank lines, not
        // the title of the next grid.
        let mut k = end;
        while k < n && l.blank[k] && k - end < MAX_GAP {
            k += 1;
        }
        if k == n && !eof && k - end < MAX_GAP {
            // A note may follow in the next chunk.
            return Step::More;
        }
        let note = if k < n
            && chunk.items[k].kind == ItemKind::Line
            && grid::is_prose(text(chunk, &chunk.items[k]))
        {
            if k + 1 == n && !eof {
                return Step::More;
            }
            (!l.grid_line(k + 1)).then_some(k)
        } else {
            None
        };
        let title_text = title.map(|t| {
            String::from_utf8_lossy(text(chunk, &chunk.items[t]))
                .trim()
                .to_string()
        });
        let note_text = note.map(|t| {
            String::from_utf8_lossy(text(chunk, &chunk.items[t]))
                .trim()
                .to_string()
        });
        let count = records.len();
        for (g, (first, row, stop, made)) in records.into_iter().enumerate() {
            for i in first..stop {
                chunk.items[i].kind = ItemKind::Part;
            }
            let kind = match made {
                Ok((s, kind)) => {
                    match kind {
                        Kind::Str8ts => self.str8ts += 1,
                        _ => self.classic += 1,
                    }
                    let start = chunk.data.len();
                    chunk.data.extend_from_slice(s.as_bytes());
                    ItemKind::Grid(start..chunk.data.len())
                }
                Err(e) => {
                    self.classic += 1;
                    ItemKind::BadGrid(e)
                }
            };
            chunk.items[row].kind = kind;
            let mut named: Vec<(String, &[u8])> = Vec::new();
            if g == 0
                && let Some(t) = &title_text
            {
                named.push(("title".into(), t.as_bytes()));
            }
            if g + 1 == count
                && let Some(t) = &note_text
            {
                named.push(("note".into(), t.as_bytes()));
            }
            if let Some(t) = title.filter(|_| g == 0) {
                chunk.items[t].kind = ItemKind::Part;
            }
            if let Some(f) = fields::object(named) {
                let line = chunk.items[row].line;
                chunk.push_fields(line, &f);
            }
        }
        if let Some(k) = note {
            chunk.items[k].kind = ItemKind::Part;
            return Step::Done(k + 1);
        }
        Step::Done(end)
    }

    /// Frames the lines of a text chunk; returns the item from which on
    /// lines are carried to the next chunk (the chunk's length if none).
    fn frame_text(&mut self, chunk: &mut Chunk, eof: bool) -> usize {
        let l = Lines::of(chunk);
        let n = chunk.items.len();
        let mut i = 0;
        while i < n {
            let step = match l.class[i] {
                Line::Row(_) | Line::Separator => self.grid(chunk, &l, i, None, eof),
                Line::Other
                    if chunk.items[i].kind == ItemKind::Line
                        && chunk.items[i].raw.len() <= 120
                        && l.grid_line(i + 1)
                        && grid::is_prose(text(chunk, &chunk.items[i])) =>
                {
                    self.grid(chunk, &l, i + 1, Some(i), eof)
                }
                Line::Other
                    if i + 1 == n
                        && !eof
                        && chunk.items[i].raw.len() <= 120
                        && grid::is_prose(text(chunk, &chunk.items[i])) =>
                {
                    // Maybe the title of a grid in the next chunk.
                    Step::More
                }
                _ => Step::No,
            };
            match step {
                Step::Done(next) => i = next,
                Step::More => return i,
                Step::No => {
                    self.text_line(chunk, i);
                    i += 1;
                }
            }
        }
        n
    }
}

impl<R: Read + Send> ChunkReader for TextLayout<R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        loop {
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            let next = if self.ended {
                None
            } else {
                match self.lines.next_chunk() {
                    Ok(next) => next,
                    // No line came for a while: a grid carried waits for its rest.
                    Err(e) if feed::is_stall(&e) => return Err(e),
                    Err(e) if self.carry.is_some() => {
                        self.failed = Some(e);
                        self.ended = true;
                        None
                    }
                    Err(e) => return Err(e),
                }
            };
            self.ended |= next.is_none();
            let (mut chunk, eof) = match (self.carry.take(), next) {
                (None, None) => return Ok(None),
                (Some(c), None) => (c, true),
                (None, Some(c)) => (c, false),
                (Some(c), Some(n)) => (merge(c, n), false),
            };
            if self.mode.is_none() {
                let mode = self.sniff(&chunk);
                if matches!(mode, Mode::Text) {
                    header_line(&mut chunk);
                }
                self.mode = Some(mode);
            }
            if let Some(Mode::Delimited(framer)) = &mut self.mode {
                for item in &mut chunk.items {
                    if item.kind == ItemKind::Line {
                        let b = chunk.data.get(item.raw.clone()).unwrap_or_default();
                        if b.trim_ascii_start().starts_with(b"#") {
                            item.kind = ItemKind::Comment;
                        }
                    }
                }
                framer.frame_chunk(&mut chunk)?;
                return Ok(Some(chunk));
            }
            let keep = self.frame_text(&mut chunk, eof);
            if keep < chunk.items.len() {
                self.carry = Some(split_off(&mut chunk, keep));
            }
            if chunk.items.is_empty() {
                continue;
            }
            chunk.layout = Some(self.describe());
            return Ok(Some(chunk));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &str) -> Vec<(u64, String, Option<String>)> {
        let mut r = TextLayout::new(text.as_bytes());
        let mut out = vec![];
        while let Some(c) = r.next_chunk().unwrap() {
            for it in &c.items {
                let s = match &it.kind {
                    ItemKind::Grid(g) | ItemKind::Field(g) => {
                        String::from_utf8_lossy(c.bytes(g)).into_owned()
                    }
                    other => format!("{other:?}"),
                };
                out.push((it.line, s, c.fields_of(it.line).map(String::from)));
            }
        }
        out
    }

    #[test]
    fn a_titled_grid_is_one_record_and_a_one_line_puzzle_follows() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let g = "Grid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\n";
        let got = frame(&format!("{g}{p} 11.2\n"));
        assert_eq!(got.len(), 11);
        assert_eq!(got[0].1, "Part");
        assert_eq!(got[1].1.len(), 81);
        assert!(got[1].1.starts_with("003020600900305001"));
        assert_eq!(got[1].2.as_deref(), Some(r#"{"title":"Grid 01"}"#));
        assert!(got[2..10].iter().all(|g| g.1 == "Part"));
        assert_eq!(got[10].1, "Line");
        assert_eq!(got[10].2.as_deref(), Some(r#"["11.2"]"#));
    }

    #[test]
    fn a_grid_across_chunks_is_carried_whole() {
        let filler = "1".repeat(81) + "\n";
        let grid = "+-------+-------+-------+\n| 1 . . | . . . | . . 9 |\n".to_string()
            + &"| . . . | . . . | . . . |\n".repeat(8)
            + "+-------+-------+-------+\n";
        // The grid starts two lines before the first chunk ends.
        let text = filler.repeat(crate::input::CHUNK_LINES - 2) + &grid;
        let got = frame(&text);
        assert_eq!(got.len(), crate::input::CHUNK_LINES - 2 + 11);
        let start = crate::input::CHUNK_LINES - 2;
        assert_eq!(got[start].1, "Part");
        assert_eq!(got[start + 1].0 as usize, start + 2);
        assert!(
            got[start + 1].1.starts_with("100000009"),
            "{:?}",
            got[start + 1]
        );
    }

    #[test]
    fn str8ts_two_block_layout_and_a_note() {
        let colours = "xx...x...\n.........\n...xx...x\n..x......\n.xx...xx.\n......x..\nx...xx...\n.........\n...x...xx\n";
        let digits = ".5.......\n.3.......\n...2.67..\n.........\n.14..5...\n..9......\n......54.\n6........\n.6..2...9\n";
        let got = frame(&format!("{colours}\n{digits}\n\nFrom somewhere 2016"));
        let records: Vec<_> = got
            .iter()
            .filter(|g| !g.1.starts_with("Part") && g.1 != "Line")
            .collect();
        assert_eq!(records.len(), 1, "{got:?}");
        assert_eq!(records[0].0, 1);
        assert_eq!(records[0].1.len(), 162);
        assert_eq!(
            records[0].2.as_deref(),
            Some(r#"{"note":"From somewhere 2016"}"#)
        );
        assert_eq!(got.last().unwrap().1, "Part");
    }

    #[test]
    fn endless_separators_or_blanks_are_not_carried_whole() {
        let rows = "003020600\n".repeat(3);
        for tail in ["------\n", "\n"] {
            let text = format!("{rows}{}", tail.repeat(3 * crate::input::CHUNK_LINES));
            let mut r = TextLayout::new(text.as_bytes());
            let (mut items, mut biggest) = (0, 0);
            while let Some(c) = r.next_chunk().unwrap() {
                items += c.items.len();
                biggest = biggest.max(c.items.len());
            }
            assert_eq!(items, 3 + 3 * crate::input::CHUNK_LINES);
            assert!(
                biggest <= crate::input::CHUNK_LINES + MAX_RUN_LINES + MAX_GAP,
                "{biggest}"
            );
        }
        let colours = "xx...x...\n".repeat(9);
        let text = format!("{colours}{}", "\n".repeat(3 * crate::input::CHUNK_LINES));
        let got = frame(&text);
        assert_eq!(got.len(), 9 + 3 * crate::input::CHUNK_LINES);
        assert!(got[0].1.starts_with("BadGrid"), "{:?}", got[0]);
    }

    #[test]
    fn a_text_file_s_column_names_are_its_header() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let got = frame(&format!("Puzzle Rating\n{p} 4.5\n"));
        assert_eq!(got[0].1, "Header");
        let got = frame(&format!("not a header\n{p}\n"));
        assert_eq!(got[0].1, "Line");
        let got = frame(&format!("not a puzzle\n{p}\n"));
        assert_eq!(got[0].1, "Line");
        let got = frame(&format!("puzzle;rating\n{p};4.5\n"));
        assert_eq!(got[0].1, "Header");
    }

    #[test]
    fn delimited_lines_are_sniffed() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let got = frame(&format!("# c\n17;{p};4.5\n18;{p};3\n"));
        assert_eq!(got[0].1, "Comment");
        assert_eq!(got[1].1, p);
        assert_eq!(got[1].2.as_deref(), Some(r#"["17","4.5"]"#));
    }
}
