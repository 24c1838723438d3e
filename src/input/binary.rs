//! Telling an input that is plainly not text (an archive named without
//! `--db`, a zip, a UTF-16 file) before anything is written, so that a
//! slip of the command line is a message and not an archive of rejects.
//! (The command refuses such a file named on its command line, and leaves
//! one found in a folder out with a warning, as it does an unreadable
//! entry.)
//!
//! Looks at the first bytes of regular files only, without moving their
//! read position: a pipe or standard input cannot be looked into without
//! consuming it, and is read as it comes. Compressed files are left to the
//! decoder (their bytes are binary by design).

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use super::decompress;
use super::{Handle, Opened};

/// Bytes looked at: enough for a text file's NUL-free start to say "text".
const HEAD: usize = 8192;

/// What a binary input is, as far as its first bytes tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    /// An SQLite database: most likely an archive given without `--db`.
    Sqlite,
    Zip,
    /// UTF-16 text, known by its byte order mark.
    Utf16,
    /// Anything else holding NUL bytes among many control bytes (over one
    /// in 20 of those looked at), which no text file does.
    Other {
        nul_at: usize,
    },
}

impl std::fmt::Display for Binary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Binary::Sqlite => write!(f, "an SQLite database, not puzzle text"),
            Binary::Zip => write!(
                f,
                "a zip archive, not puzzle text (gzip, zstd, xz and bzip2 are read; unzip it first)"
            ),
            Binary::Utf16 => write!(
                f,
                "UTF-16 text (its byte order mark says so), not UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)"
            ),
            Binary::Other { nul_at } => {
                write!(
                    f,
                    "binary data, not puzzle text (a NUL byte at offset {nul_at})"
                )
            }
        }
    }
}

/// An input refused for not being text: its name, what it is, and what
/// was probably meant.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {what}{}", hint(*.what, .file))]
pub struct NotText {
    pub file: String,
    pub what: Binary,
}

fn hint(what: Binary, file: &str) -> String {
    match what {
        Binary::Sqlite => format!(
            "; to import into that archive, name it with --db {file}; to add its puzzles to another, merge --db OTHER {file}"
        ),
        _ => String::new(),
    }
}

/// Classifies the first bytes of an input; `None` for text or compressed
/// data.
pub fn sniff(head: &[u8]) -> Option<Binary> {
    if head.starts_with(b"SQLite format 3\0") {
        return Some(Binary::Sqlite);
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Binary::Zip);
    }
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return Some(Binary::Utf16);
    }
    if decompress::detect(head).is_some() {
        return None;
    }
    // A stray NUL in text is a damaged line, rejected as such; binary data
    // is full of control bytes.
    let nul_at = head.iter().position(|&b| b == 0)?;
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a))
        .count();
    (control * 20 > head.len()).then_some(Binary::Other { nul_at })
}

/// What an opened regular file is, if plainly binary. Reads its first bytes
/// at offset 0 without moving the handle's position.
pub fn look(opened: &Opened) -> io::Result<Option<Binary>> {
    if opened.len.is_none() {
        return Ok(None);
    }
    let mut head = vec![0u8; HEAD];
    let n = match &opened.handle {
        Handle::File(f) => read_head(f, &mut head)?,
        Handle::Closed(p) => read_head(&File::open(p)?, &mut head)?,
        Handle::Stdin(_) => return Ok(None),
    };
    Ok(sniff(head.get(..n).unwrap_or_default()))
}

fn read_head(f: &File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read_at(&mut buf[n..], n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_bytes_tell_binary_from_text() {
        for (what, head, want) in [
            (
                "an archive",
                &b"SQLite format 3\0\x10\x00"[..],
                Some(Binary::Sqlite),
            ),
            ("a zip", b"PK\x03\x04\x14\x00", Some(Binary::Zip)),
            ("UTF-16", b"\xff\xfe4\x00.\x00", Some(Binary::Utf16)),
            (
                "an image",
                b"\x89PNG\r\n\x1a\n\0\0",
                Some(Binary::Other { nul_at: 8 }),
            ),
            ("gzip", b"\x1f\x8b\x08\x00\x00\x00", None),
            ("text", b"4.....8.5.3...\n", None),
            ("UTF-8 with a BOM", b"\xef\xbb\xbf4....\n", None),
            ("a DOS end-of-file byte", b"4....\r\n\x1a", None),
            ("empty", b"", None),
            (
                "text with a stray NUL",
                b"4....\0..8.5.3..........7......2.....\n",
                None,
            ),
        ] {
            assert_eq!(sniff(head), want, "{what}");
        }
    }
}
