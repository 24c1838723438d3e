//! Reading input: turns files and standard input into [`Chunk`]s of lines (or
//! CSV fields) for the pipeline, with line numbers and bounded memory.
//!
//! Owns file handling and framing only; what a line means is decided by the
//! pipeline and the domain core. Every outside-world read of puzzle input
//! happens here.

pub mod csv_file;
pub mod extract;
pub mod text;

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Longest line kept, in bytes. A line longer than any puzzle string plus a
/// generous trailing comment is rejected without being held whole.
pub const MAX_LINE: usize = 4096;

/// Lines per chunk: large enough to amortise a transaction and a rayon
/// fork-join, small enough to keep memory flat.
pub const CHUNK_LINES: usize = 8192;

/// Where input comes from: a path, or `-` for standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Stdin,
    Path(PathBuf),
}

impl Origin {
    pub fn from_arg(arg: &Path) -> Origin {
        if arg.as_os_str() == "-" {
            Origin::Stdin
        } else {
            Origin::Path(arg.to_path_buf())
        }
    }

    /// The name used in messages and stored in the archive's `files.path`.
    pub fn display_name(&self) -> String {
        match self {
            Origin::Stdin => "-".to_string(),
            Origin::Path(p) => p.display().to_string(),
        }
    }
}

/// How a file's lines are framed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Framing {
    /// One puzzle per line, trailing text ignored.
    Text,
    /// Delimited records; the puzzle is one column.
    Csv {
        delimiter: u8,
        column: Option<ColumnChoice>,
    },
}

/// A CSV column chosen on the command line: by header name or 1-based number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnChoice {
    Name(String),
    Number(usize),
}

impl ColumnChoice {
    pub fn parse(s: &str) -> ColumnChoice {
        match s.parse::<usize>() {
            Ok(n) if n >= 1 => ColumnChoice::Number(n),
            _ => ColumnChoice::Name(s.to_string()),
        }
    }
}

/// Chooses the framing: `.csv` is comma-separated, `.tsv`/`.tab` tab-separated,
/// anything else text unless `force_csv`.
pub fn framing_for(origin: &Origin, force_csv: bool, column: Option<ColumnChoice>) -> Framing {
    let ext = match origin {
        Origin::Path(p) => p
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase),
        Origin::Stdin => None,
    };
    match ext.as_deref() {
        Some("tsv") | Some("tab") => Framing::Csv {
            delimiter: b'\t',
            column,
        },
        Some("csv") => Framing::Csv {
            delimiter: b',',
            column,
        },
        _ if force_csv => Framing::Csv {
            delimiter: b',',
            column,
        },
        _ => Framing::Text,
    }
}

/// One input line (or CSV record) inside a chunk's buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// 1-based line number in the file.
    pub line: u64,
    /// The line as read (at most [`MAX_LINE`] bytes), without its terminator.
    pub raw: Range<usize>,
    pub kind: ItemKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A text line: the pipeline extracts the puzzle itself.
    Line,
    /// A text line longer than [`MAX_LINE`]; `len` is its full length.
    TooLong { len: u64 },
    /// A CSV record whose puzzle field is this range of the buffer.
    Field(Range<usize>),
    /// A CSV header record (not a puzzle).
    Header,
    /// A CSV record without the puzzle column, or that CSV could not read.
    BadRecord(String),
}

/// A batch of items sharing one buffer, so a million lines are not a
/// million allocations.
#[derive(Debug, Default)]
pub struct Chunk {
    pub data: Vec<u8>,
    pub items: Vec<Item>,
    /// Bytes of the file consumed up to the end of this chunk (for progress).
    pub offset: u64,
    /// The CSV column the puzzles were taken from, once known (for messages).
    pub column: Option<PuzzleColumn>,
}

/// The puzzle column a CSV reader settled on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleColumn {
    /// 1-based, as `--column` takes it.
    pub number: usize,
    /// Its header name, if the file has a header.
    pub name: Option<String>,
}

impl Chunk {
    /// An empty chunk with room for `CHUNK_LINES` items and `bytes` of data.
    pub fn with_capacity(bytes: usize) -> Chunk {
        Chunk {
            data: Vec::with_capacity(bytes),
            items: Vec::with_capacity(CHUNK_LINES),
            offset: 0,
            column: None,
        }
    }

    pub fn bytes(&self, r: &Range<usize>) -> &[u8] {
        self.data.get(r.clone()).unwrap_or_default()
    }

    fn push_raw(&mut self, bytes: &[u8]) -> Range<usize> {
        let start = self.data.len();
        self.data.extend_from_slice(bytes);
        start..self.data.len()
    }
}

/// Anything that yields chunks: a text or a CSV reader.
pub trait ChunkReader: Send {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>>;
}

/// Opens an origin for reading; the error says which file could not be read.
pub fn open(origin: &Origin) -> io::Result<(Box<dyn Read + Send>, Option<u64>)> {
    match origin {
        Origin::Stdin => Ok((Box::new(io::stdin()), None)),
        Origin::Path(p) => {
            let f = File::open(p)?;
            let meta = f.metadata()?;
            if meta.is_dir() {
                return Err(io::Error::other("is a directory"));
            }
            Ok((Box::new(f), Some(meta.len())))
        }
    }
}

/// Opens an origin and frames it.
pub fn reader(
    origin: &Origin,
    framing: &Framing,
) -> io::Result<(Box<dyn ChunkReader>, Option<u64>)> {
    let (read, len) = open(origin)?;
    let r: Box<dyn ChunkReader> = match framing {
        Framing::Text => Box::new(text::TextReader::new(read)),
        Framing::Csv { delimiter, column } => {
            Box::new(csv_file::CsvReader::new(read, *delimiter, column.clone()))
        }
    };
    Ok((r, len))
}
