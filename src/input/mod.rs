//! Reading input: turns files, folders, pipes and standard input into
//! [`Chunk`]s of lines (or CSV fields) for the pipeline, with line numbers
//! and bounded memory.
//!
//! Owns file handling and framing only; what a line means is decided by the
//! pipeline and the domain core. Every outside-world read of puzzle input
//! happens here. The layers, each in its own file:
//!
//! - [`folder`]: a folder on the command line becomes its files, sorted;
//! - [`open`]: each input is opened exactly once (a named pipe or
//!   `/dev/fd/N` cannot be opened twice), up front, and the handle is what
//!   the reader thread reads;
//! - [`decompress`]: gzip, zstd, xz and bzip2 are recognised by their magic
//!   bytes and decoded as a stream;
//! - [`text`] splits the (decoded) bytes into physical lines, and [`csv_file`]
//!   parses each line of a CSV/TSV file on its own, so that no quote can
//!   reach past its line.
//!
//! Line numbers are always physical lines of the decoded text, and every
//! physical line becomes exactly one [`Item`].

pub mod csv_file;
pub mod decompress;
pub mod extract;
pub mod folder;
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
/// anything else text unless `force_csv`. A compression suffix does not
/// count: `x.csv.gz` is a CSV file (whether it is compressed is told by its
/// content, see [`decompress`]).
pub fn framing_for(origin: &Origin, force_csv: bool, column: Option<ColumnChoice>) -> Framing {
    let ext = match origin {
        Origin::Path(p) => {
            let mut name = p
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase());
            if let Some(n) = &mut name
                && let Some(stem) = decompress::SUFFIXES.iter().find_map(|s| n.strip_suffix(s))
            {
                *n = stem.to_string();
            }
            name.and_then(|n| n.rsplit_once('.').map(|(_, e)| e.to_string()))
        }
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
    /// 1-based physical line number in the (decompressed) input.
    pub line: u64,
    /// The line as read (at most [`MAX_LINE`] bytes, or
    /// [`csv_file::CSV_LINE_CAP`] in a CSV file), without its terminator.
    pub raw: Range<usize>,
    pub kind: ItemKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A text line (or a blank CSV line): the pipeline extracts the puzzle
    /// itself.
    Line,
    /// A line longer than `limit` ([`MAX_LINE`] for text); `len` is its
    /// full length. Only its first `limit` bytes are kept.
    TooLong { len: u64, limit: usize },
    /// A CSV record whose puzzle field is this range of the buffer.
    Field(Range<usize>),
    /// A CSV header record (not a puzzle).
    Header,
    /// A CSV record without the puzzle column, or that CSV could not read
    /// (an unterminated quote): the reason.
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
}

impl Chunk {
    pub fn bytes(&self, r: &Range<usize>) -> &[u8] {
        self.data.get(r.clone()).unwrap_or_default()
    }
}

/// Anything that yields chunks: a text or a CSV reader.
pub trait ChunkReader: Send {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>>;
}

/// Inputs held open at once before the run: a folder of thousands of
/// files must not use up the process's file descriptors (often 1,024).
/// Past this many, a regular file is checked (opened, then closed) and
/// opened again when its turn comes; pipes, devices and standard input are
/// always held, since they cannot be opened twice.
pub const HELD_OPEN: usize = 64;

/// An input opened for reading. Each input is opened before any work
/// starts, so a typo in the last file name fails the run up front, and this
/// handle is then read by the pipeline's reader thread: a named pipe or
/// process substitution (`/dev/fd/N`) is opened exactly once.
#[derive(Debug)]
pub struct Opened {
    pub handle: Handle,
    /// The size of a regular file in bytes (as stored, compressed or not),
    /// for progress; `None` for standard input, pipes and devices.
    pub len: Option<u64>,
}

/// What an [`Opened`] input reads from.
#[derive(Debug)]
pub enum Handle {
    Stdin(io::Stdin),
    File(File),
    /// A regular file that opened, closed again to spare file descriptors
    /// (see [`HELD_OPEN`]); [`Opened::reopen`] opens it when it is read.
    Closed(PathBuf),
}

impl Opened {
    /// The open file, if the input is one held open (not standard input).
    pub fn file(&self) -> Option<&File> {
        match &self.handle {
            Handle::File(f) => Some(f),
            Handle::Stdin(_) | Handle::Closed(_) => None,
        }
    }

    /// Closes a regular file's handle, to be opened again by [`reopen`];
    /// anything else stays held.
    ///
    /// [`reopen`]: Opened::reopen
    pub fn close_if_reopenable(&mut self, path: &Path) {
        if self.len.is_some() && matches!(self.handle, Handle::File(_)) {
            self.handle = Handle::Closed(path.to_path_buf());
        }
    }

    /// The input with its handle open.
    pub fn reopen(self) -> io::Result<Opened> {
        match self.handle {
            Handle::Closed(p) => Ok(Opened {
                handle: Handle::File(File::open(p)?),
                len: self.len,
            }),
            _ => Ok(self),
        }
    }
}

impl Read for Handle {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Handle::Stdin(s) => s.read(buf),
            Handle::File(f) => f.read(buf),
            Handle::Closed(_) => Err(io::Error::other("the file was not opened again")),
        }
    }
}

/// Opens an origin for reading; the error says why the file could not be
/// opened (the caller names the file). Opening a named pipe waits for its
/// writer, as `cat` does.
pub fn open(origin: &Origin) -> io::Result<Opened> {
    match origin {
        Origin::Stdin => Ok(Opened {
            handle: Handle::Stdin(io::stdin()),
            len: None,
        }),
        Origin::Path(p) => {
            let f = File::open(p)?;
            let meta = f.metadata()?;
            if meta.is_dir() {
                return Err(io::Error::other("is a directory"));
            }
            Ok(Opened {
                len: meta.is_file().then_some(meta.len()),
                handle: Handle::File(f),
            })
        }
    }
}

/// Frames an opened input: decompresses it if its first bytes say it is
/// compressed, then splits it into lines or CSV records.
pub fn reader(opened: Opened, framing: &Framing) -> io::Result<Box<dyn ChunkReader>> {
    let decompress::Decoded {
        text: read,
        raw_bytes: raw,
    } = decompress::decoded(opened.reopen()?.handle)?;
    let r: Box<dyn ChunkReader> = match framing {
        Framing::Text => Box::new(text::TextReader::new(read)),
        Framing::Csv { delimiter, column } => {
            Box::new(csv_file::CsvReader::new(read, *delimiter, column.clone()))
        }
    };
    Ok(match raw {
        Some(raw) => Box::new(decompress::RawOffset::new(r, raw)),
        None => r,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_follows_the_name_without_its_compression_suffix() {
        let csv = |d| Framing::Csv {
            delimiter: d,
            column: None,
        };
        for (name, want) in [
            ("a.csv", csv(b',')),
            ("a.CSV.GZ", csv(b',')),
            ("a.tsv.zst", csv(b'\t')),
            ("a.tab.bz2", csv(b'\t')),
            ("a.csv.xz", csv(b',')),
            ("a.txt.gz", Framing::Text),
            ("a.gz", Framing::Text),
            ("csv", Framing::Text),
        ] {
            let origin = Origin::Path(PathBuf::from("dir.csv").join(name));
            assert_eq!(framing_for(&origin, false, None), want, "{name}");
        }
        assert_eq!(framing_for(&Origin::Stdin, false, None), Framing::Text);
        assert_eq!(framing_for(&Origin::Stdin, true, None), csv(b','));
    }
}
