//! Reading input: turns files, folders, pipes and standard input into
//! [`Chunk`]s of lines (or CSV fields) for the pipeline, with line numbers
//! and bounded memory, and says what each input is ([`Identity`],
//! [`Content`]) for the archive. One layer per file: `folder`, `open`,
//! `feed`, `decompress`, `text`, `csv_file`, `layout`, `grid`, `fields`.
//!
//! Owns file handling and framing only: what a line means is the pipeline's
//! and the core's. Every physical line becomes exactly one [`Item`]; a file
//! that changes while it is read is a read error ([`Changed`]), never a
//! short read. The layers and guarantees in full: docs/architecture.md
//! "Module notes".

pub mod binary;
pub mod csv_file;
pub mod decompress;
pub mod extract;
pub mod feed;
pub mod fields;
pub mod folder;
pub mod grid;
pub mod layout;
pub mod text;

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

use xxhash_rust::xxh3::Xxh3Default;

/// Longest line kept, in bytes. A line longer than any puzzle string plus a
/// generous trailing comment is rejected without being held whole.
pub const MAX_LINE: usize = 4096;

/// Lines per chunk: large enough to amortise a transaction and a rayon
/// fork-join, small enough to keep memory flat.
pub const CHUNK_LINES: usize = 8192;

/// Where input comes from: a path, or `-` for standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Standard input, under the name given with `--stdin-name` (`-` by default).
    Stdin {
        name: String,
    },
    Path(PathBuf),
}

/// What makes two inputs one file in the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// A file, by its canonical absolute path (symlinks, `.` and `..`
    /// resolved): `x.txt`, `./x.txt`, its absolute path and a link to it
    /// are one file; `x.txt` in another folder is another.
    File { real_path: String },
    /// Standard input, by its name: its content is not known before reading.
    Stdin { name: String },
}

impl Origin {
    /// The origin of a command-line argument; `stdin_name` names `-`.
    pub fn from_arg(arg: &Path, stdin_name: &str) -> Origin {
        if arg.as_os_str() == "-" {
            Origin::Stdin {
                name: stdin_name.to_string(),
            }
        } else {
            Origin::Path(arg.to_path_buf())
        }
    }

    /// The name used in messages and stored in the archive's `files.path`
    /// when the file is first imported.
    pub fn display_name(&self) -> String {
        match self {
            Origin::Stdin { name } => name.clone(),
            Origin::Path(p) => p.display().to_string(),
        }
    }

    /// The identity of the input. A path that cannot be resolved (a
    /// process substitution's `/dev/fd/63` leads to a pipe, not a path) is
    /// known by itself made absolute. (A path that is not UTF-8 is stored
    /// with its bad bytes replaced.)
    pub fn identity(&self) -> io::Result<Identity> {
        match self {
            Origin::Stdin { name } => Ok(Identity::Stdin { name: name.clone() }),
            Origin::Path(p) => {
                let real = std::fs::canonicalize(p).or_else(|_| std::path::absolute(p))?;
                Ok(Identity::File {
                    real_path: real.to_string_lossy().into_owned(),
                })
            }
        }
    }
}

/// The size and the XXH128 hash of an input's bytes as stored (before any
/// decompression): what tells an unchanged file from a changed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Content {
    pub bytes: u64,
    pub hash: u128,
}

impl Content {
    /// The hash as 32 hex digits, as `xxhsum -H2` prints it.
    pub fn hash_hex(&self) -> String {
        format!("{:032x}", self.hash)
    }
}

/// Hashes the bytes read through it; when the inner reader reaches its end,
/// the total is published for [`Tally::content`]. Wraps the raw file or
/// stream, beneath any decoding, so the hash is that of the bytes stored.
pub struct Hashing<R> {
    inner: R,
    state: Box<Xxh3Default>,
    bytes: u64,
    end: Tally,
}

/// The [`Content`] of an input once it has been read to its end.
#[derive(Clone, Debug, Default)]
pub struct Tally(Arc<OnceLock<Content>>);

impl Tally {
    /// `None` until the reader reached the end of its input.
    pub fn content(&self) -> Option<Content> {
        self.0.get().copied()
    }
}

impl<R: Read> Hashing<R> {
    pub fn new(inner: R) -> (Hashing<R>, Tally) {
        let end = Tally::default();
        let h = Hashing {
            inner,
            state: Box::new(Xxh3Default::new()),
            bytes: 0,
            end: end.clone(),
        };
        (h, end)
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        match buf.get(..n) {
            Some(read) if n > 0 => {
                self.state.update(read);
                self.bytes += n as u64;
            }
            // Zero bytes into a non-empty buffer: the end of the input.
            _ if !buf.is_empty() => {
                let _ = self.end.0.set(Content {
                    bytes: self.bytes,
                    hash: self.state.digest128(),
                });
            }
            _ => {}
        }
        Ok(n)
    }
}

/// A regular file's size and modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stat {
    len: u64,
    modified: Option<SystemTime>,
}

impl Stat {
    fn of(file: &File) -> io::Result<Option<Stat>> {
        let meta = file.metadata()?;
        Ok(meta.is_file().then(|| Stat {
            len: meta.len(),
            modified: meta.modified().ok(),
        }))
    }
}

/// A file that changed while it was read.
#[derive(Debug, thiserror::Error)]
#[error(
    "the file changed while it was read ({opened} bytes when its read began, {read} read, {now} at its end)"
)]
pub struct Changed {
    opened: u64,
    read: u64,
    now: u64,
}

/// Reads a regular file and, at its end, looks at it again: if its size
/// or modification time moved since the read began, or the bytes read are
/// not its size, the end is an error ([`Changed`]). Standard input, pipes
/// and devices are read as they come.
pub struct Steady {
    inner: Handle,
    /// The file as its read began (`None` for what is not a regular file).
    began: Option<Stat>,
    read: u64,
}

impl Steady {
    pub fn new(inner: Handle) -> io::Result<Steady> {
        let began = match &inner {
            Handle::File(f) => Stat::of(f)?,
            Handle::Stdin(_) | Handle::Closed(_) => None,
        };
        Ok(Steady {
            inner,
            began,
            read: 0,
        })
    }
}

impl Read for Steady {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if n == 0
            && !buf.is_empty()
            && let (Some(began), Handle::File(f)) = (self.began, &self.inner)
        {
            let now = Stat::of(f)?.unwrap_or(began);
            if now != began || now.len != self.read {
                return Err(io::Error::other(Changed {
                    opened: began.len,
                    read: self.read,
                    now: now.len,
                }));
            }
        }
        Ok(n)
    }
}

/// Reads a whole file to hash it: the proof that a file is unchanged.
/// (xxh3 hashes far faster than the disk or the page cache delivers.)
pub fn content_of(path: &Path) -> io::Result<Content> {
    let (mut read, tally) = Hashing::new(File::open(path)?);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        if crate::stop::requested() {
            return Err(crate::stop::stopped("hashing the file"));
        }
        match read.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    tally
        .content()
        .ok_or_else(|| io::Error::other("the read stopped before the end of the file"))
}

/// How a file's lines are framed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Text: one puzzle per line (trailing text kept as the record's
    /// fields), 9-line grids, or, when the first word of the lines is no
    /// puzzle, delimited lines whose delimiter and puzzle field are sniffed
    /// from the content (see [`layout`]).
    Text,
    /// Delimited records with a header or not; the puzzle is one column.
    /// The delimiter is sniffed from the first lines unless given.
    Csv {
        delimiter: Option<u8>,
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

/// Chooses the framing: `.csv`, `.tsv` and `.tab` files are delimited
/// records (their delimiter is sniffed from the content, not the name),
/// anything else text unless `force_csv` or a `delimiter` is given. A
/// compression suffix does not count: `x.csv.gz` is a CSV file (whether it
/// is compressed is told by its content, see [`decompress`]).
pub fn framing_for(
    origin: &Origin,
    force_csv: bool,
    delimiter: Option<u8>,
    column: Option<ColumnChoice>,
) -> Framing {
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
        Origin::Stdin { .. } => None,
    };
    match ext.as_deref() {
        Some("tsv") | Some("tab") | Some("csv") => Framing::Csv { delimiter, column },
        _ if force_csv || delimiter.is_some() => Framing::Csv { delimiter, column },
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
    /// The first line of a grid (see [`grid`]): the grid as one puzzle
    /// string, this range of the buffer.
    Grid(Range<usize>),
    /// The first line of a damaged grid: why it is not one.
    BadGrid(String),
    /// A line of the record that starts at an earlier line (a grid's rows
    /// after its first, its title): accounted for by that record.
    Part,
    /// A `#` comment line of a delimited text file.
    Comment,
    /// A krazydad Killer record: its `puzz_color` and `puzz_hint` fields.
    Krazydad {
        colour: Range<usize>,
        hint: Range<usize>,
    },
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
    /// What the reader understood of the file so far, for people:
    /// `9-line grids`, `krazydad Killer CSV, columns puzz_color + puzz_hint`.
    pub layout: Option<String>,
    /// The other fields of some records (their ids, ratings, titles), by
    /// the record's line, in line order: `(line, range of data)`, the text
    /// a JSON array or object (see [`fields`]).
    pub fields: Vec<(u64, Range<usize>)>,
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
    pub fn bytes(&self, r: &Range<usize>) -> &[u8] {
        self.data.get(r.clone()).unwrap_or_default()
    }

    /// The other fields of the record at `line`, if it has any.
    pub fn fields_of(&self, line: u64) -> Option<&str> {
        if self.fields.is_empty() {
            return None;
        }
        let at = self.fields.binary_search_by_key(&line, |f| f.0).ok()?;
        std::str::from_utf8(self.bytes(&self.fields[at].1)).ok()
    }

    /// Appends `text` to the buffer as the fields of the record at `line`
    /// (records come in line order).
    pub fn push_fields(&mut self, line: u64, text: &str) {
        let start = self.data.len();
        self.data.extend_from_slice(text.as_bytes());
        self.fields.push((line, start..self.data.len()));
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
        Origin::Stdin { .. } => Ok(Opened {
            handle: Handle::Stdin(io::stdin()),
            len: None,
        }),
        Origin::Path(p) => {
            use std::os::unix::fs::FileTypeExt;
            let fifo = std::fs::metadata(p).is_ok_and(|m| m.file_type().is_fifo());
            let f = if fifo {
                feed::open_pipe(p)?
            } else {
                File::open(p)?
            };
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

/// Frames an opened input: checks that a file holds still ([`Steady`]),
/// hashes its raw bytes (for `file_reads`), then
/// decompresses it if its first bytes say it is compressed, and splits it
/// into lines or CSV records. The [`Tally`] gets the content's size and hash
/// when the reader reaches the end of the raw bytes.
///
/// An input that cannot be read again (standard input, a pipe) is read on
/// a thread of its own ([`feed`]), so that its lines are handed on when it
/// goes quiet rather than held until a chunk fills; once `halt` is raised
/// it takes no more bytes from the input, and stalls for good when the
/// lines it has read are handed on.
pub fn reader(
    opened: Opened,
    framing: &Framing,
    halt: Option<Arc<AtomicBool>>,
) -> io::Result<(Box<dyn ChunkReader>, Tally)> {
    let regular = opened.len.is_some();
    let (hashed, tally) = Hashing::new(Steady::new(opened.reopen()?.handle)?);
    let (read, raw) = if regular {
        let d = decompress::decoded(hashed)?;
        (d.text, d.raw_bytes)
    } else {
        let (fed, raw) = feed::fed(hashed, halt);
        (Box::new(fed) as Box<dyn Read + Send>, Some(raw))
    };
    let r: Box<dyn ChunkReader> = match framing {
        Framing::Text => Box::new(layout::TextLayout::new(read)),
        Framing::Csv { delimiter, column } => {
            Box::new(csv_file::CsvReader::new(read, *delimiter, column.clone()))
        }
    };
    let r = match raw {
        Some(raw) => Box::new(decompress::RawOffset::new(r, raw)),
        None => r,
    };
    Ok((r, tally))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_is_published_at_the_end_only_and_equals_a_whole_file_hash() {
        let dir = tempfile::tempdir().unwrap();
        let text: Vec<u8> = (0..300_000u32).flat_map(|i| i.to_le_bytes()).collect();
        let path = dir.path().join("x.bin");
        std::fs::write(&path, &text).unwrap();
        let (mut read, tally) = Hashing::new(File::open(&path).unwrap());
        let mut buf = vec![0u8; 1000];
        read.read_exact(&mut buf).unwrap();
        assert_eq!(tally.content(), None, "not at the end yet");
        io::copy(&mut read, &mut io::sink()).unwrap();
        let whole = Content {
            bytes: text.len() as u64,
            hash: xxhash_rust::xxh3::xxh3_128(&text),
        };
        assert_eq!(tally.content(), Some(whole));
        assert_eq!(content_of(&path).unwrap(), whole);
    }

    #[test]
    fn a_file_that_grows_or_is_written_over_while_read_ends_in_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        let read_with = |change: &dyn Fn()| -> io::Result<Vec<u8>> {
            std::fs::write(&path, b"one\ntwo\nthree, half").unwrap();
            let mut steady = Steady::new(Handle::File(File::open(&path)?))?;
            let mut first = [0u8; 4];
            steady.read_exact(&mut first)?;
            change();
            let mut rest = Vec::new();
            steady.read_to_end(&mut rest)?;
            Ok(rest)
        };
        assert_eq!(read_with(&|| {}).unwrap(), b"two\nthree, half");
        let append = || {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            io::Write::write_all(&mut f, b" and the rest\n").unwrap();
        };
        let e = read_with(&append).unwrap_err();
        assert!(e.get_ref().is_some_and(|e| e.is::<Changed>()), "{e}");
        assert_eq!(
            e.to_string(),
            "the file changed while it was read (19 bytes when its read began, 33 read, 33 at its end)"
        );
        // Written over with other bytes of the same size: the time tells.
        let overwrite = || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            std::fs::write(&path, b"ONE\nTWO\nTHREE, HALF").unwrap();
        };
        assert!(read_with(&overwrite).is_err());
    }

    #[test]
    fn the_hash_reads_as_xxhsum_prints_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty");
        std::fs::write(&path, b"").unwrap();
        // `xxhsum -H2` of an empty file.
        assert_eq!(
            content_of(&path).unwrap().hash_hex(),
            "99aa06d3014798d86001c324468d497f"
        );
    }

    #[test]
    fn spellings_of_one_file_have_one_identity() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("d");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("x.txt"), b"1").unwrap();
        let one = |p: PathBuf| Origin::from_arg(&p, "-").identity().unwrap();
        let real = one(sub.join("x.txt"));
        assert_eq!(one(sub.join("./x.txt")), real);
        assert_eq!(one(dir.path().join("d/../d/x.txt")), real);
        assert_eq!(
            Origin::from_arg(Path::new("-"), "feed").identity().unwrap(),
            Identity::Stdin {
                name: "feed".into()
            }
        );
    }

    #[test]
    fn framing_follows_the_name_without_its_compression_suffix() {
        let csv = |_| Framing::Csv {
            delimiter: None,
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
            assert_eq!(framing_for(&origin, false, None, None), want, "{name}");
        }
        assert_eq!(
            framing_for(&Origin::Stdin { name: "-".into() }, false, None, None),
            Framing::Text
        );
        assert_eq!(
            framing_for(&Origin::Stdin { name: "-".into() }, true, None, None),
            csv(b',')
        );
        assert_eq!(
            framing_for(&Origin::Stdin { name: "-".into() }, false, Some(b';'), None),
            Framing::Csv {
                delimiter: Some(b';'),
                column: None
            }
        );
    }
}
