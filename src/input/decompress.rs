//! Compressed input: gzip (several members too), zstd, xz and bzip2 are
//! recognised by their first bytes, never by the file's name, and decoded
//! as a stream, so memory does not grow with the file. Anything else is
//! read as it is.
//!
//! A decoding error is an `io::Error` naming the format and why; the lines
//! decoded before it have been handed on already. An error from beneath
//! ([`super::Changed`]) is passed on as it is. In full:
//! docs/architecture.md "Module notes".

use std::fmt;
use std::io::{self, BufRead, BufReader, Chain, Cursor, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{Changed, Chunk, ChunkReader};

/// Name endings that say a file is compressed: not used to decide how it
/// is read (its bytes decide), only to find the name's real extension
/// (`x.csv.gz` is a CSV file).
pub const SUFFIXES: &[&str] = &[".gz", ".gzip", ".zst", ".zstd", ".xz", ".bz2"];

/// The bytes looked at to tell a format: enough for every magic below.
const PEEK: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    Gzip,
    Zstd,
    Xz,
    Bzip2,
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
            Compression::Bzip2 => "bzip2",
        })
    }
}

/// The format whose magic bytes `head` (the first bytes of the input, up to
/// [`PEEK`]) starts with. bzip2's `BZh` is checked with its block-size digit
/// and the magic of the first block (or of the end of an empty stream), so
/// a text file that happens to start with `BZh` is still text.
pub fn detect(head: &[u8]) -> Option<Compression> {
    const BZ_BLOCK: [u8; 6] = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
    const BZ_END: [u8; 6] = [0x17, 0x72, 0x45, 0x38, 0x50, 0x90];
    match head {
        [0x1f, 0x8b, ..] => Some(Compression::Gzip),
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
        [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Some(Compression::Xz),
        [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..]
            if rest.get(..6) == Some(&BZ_BLOCK) || rest.get(..6) == Some(&BZ_END) =>
        {
            Some(Compression::Bzip2)
        }
        _ => None,
    }
}

/// The input's bytes after the first [`PEEK`] were looked at.
type Peeked<R> = Chain<Cursor<Vec<u8>>, R>;

/// Reads the first bytes of `read` (from a pipe, as many reads as it takes)
/// and gives them back in front of the rest.
fn peek<R: Read>(mut read: R) -> io::Result<(Vec<u8>, R)> {
    let mut head = vec![0; PEEK];
    let mut n = 0;
    while n < PEEK {
        match read.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    head.truncate(n);
    Ok((head, read))
}

/// An input's text, and how far into the input it has read.
pub struct Decoded {
    pub text: Box<dyn Read + Send>,
    /// For compressed input, the count of input bytes read so far (progress
    /// goes by the size on disk); `None` when the text is the input.
    pub raw_bytes: Option<Arc<AtomicU64>>,
}

/// The input as text: decoded if its first bytes are a compression format's.
pub fn decoded<R: Read + Send + 'static>(read: R) -> io::Result<Decoded> {
    let (head, rest) = peek(read)?;
    let format = detect(&head);
    let whole: Peeked<R> = Cursor::new(head).chain(rest);
    let Some(format) = format else {
        return Ok(Decoded {
            text: Box::new(whole),
            raw_bytes: None,
        });
    };
    let count = Arc::new(AtomicU64::new(0));
    let raw = Counted {
        inner: whole,
        count: count.clone(),
    };
    let inner: Box<dyn Read + Send> = match format {
        Compression::Gzip => Box::new(GzMembers::new(raw)),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(raw)?),
        Compression::Xz => Box::new(liblzma::read::XzDecoder::new_multi_decoder(raw)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(raw)),
    };
    Ok(Decoded {
        text: Box::new(Decoding { inner, format }),
        raw_bytes: Some(count),
    })
}

/// Counts the bytes read through it.
struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// gzip members one after another, as `gzip -d` reads them: after each,
/// the input ends or the next member begins. Bytes after the last member
/// that are not gzip are an error that says so (flate2's multi-member
/// decoder reads them as a header cut short: "the data ends before...").
struct GzMembers<R: Read> {
    /// The member being decoded; `None` once the input ended.
    member: Option<flate2::bufread::GzDecoder<BufReader<Counted<R>>>>,
}

/// Bytes after the last gzip member that do not start another.
#[derive(Debug, thiserror::Error)]
#[error(
    "gzip data ends at byte {at} and is followed by bytes that are not gzip (trailing garbage)"
)]
struct TrailingGarbage {
    at: u64,
}

impl<R: Read> GzMembers<R> {
    fn new(raw: Counted<R>) -> GzMembers<R> {
        GzMembers {
            member: Some(flate2::bufread::GzDecoder::new(BufReader::new(raw))),
        }
    }
}

impl<R: Read> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(member) = &mut self.member else {
                return Ok(0);
            };
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member ended, its checksum verified: what follows?
            let Some(member) = self.member.take() else {
                return Ok(0);
            };
            let mut rest = member.into_inner();
            let next = rest.fill_buf()?;
            let (gzip, buffered) = (matches!(next, [0x1f] | [0x1f, 0x8b, ..]), next.len());
            match buffered {
                0 => return Ok(0),
                _ if gzip => {
                    self.member = Some(flate2::bufread::GzDecoder::new(rest));
                }
                _ => {
                    let at = rest.get_ref().count.load(Ordering::Relaxed) - buffered as u64;
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        TrailingGarbage { at },
                    ));
                }
            }
        }
    }
}

/// A decoder whose errors say which format could not be decoded.
struct Decoding {
    inner: Box<dyn Read + Send>,
    format: Compression,
}

impl Read for Decoding {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            // Not a decoding failure, or one that says so in its own words.
            _ if e
                .get_ref()
                .is_some_and(|inner| inner.is::<Changed>() || inner.is::<TrailingGarbage>()) =>
            {
                e
            }
            kind => io::Error::new(
                kind,
                format!(
                    "{} data is corrupt or truncated: {}",
                    self.format,
                    describe(&e)
                ),
            ),
        })
    }
}

/// A decoder's error in words: an early end is said as such (the decoders
/// word it as a failed buffer fill, or not at all).
fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    if e.kind() == io::ErrorKind::UnexpectedEof || text.is_empty() {
        "the data ends before the end of the compressed stream".to_string()
    } else {
        text
    }
}

/// Reports progress in bytes of the compressed input, not of the text.
pub struct RawOffset {
    inner: Box<dyn ChunkReader>,
    raw: Arc<AtomicU64>,
}

impl RawOffset {
    pub fn new(inner: Box<dyn ChunkReader>, raw: Arc<AtomicU64>) -> RawOffset {
        RawOffset { inner, raw }
    }
}

impl ChunkReader for RawOffset {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut chunk = self.inner.next_chunk()?;
        if let Some(c) = &mut chunk {
            c.offset = self.raw.load(Ordering::Relaxed);
        }
        Ok(chunk)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const TEXT: &[u8] = b"line one\nline two\n";

    fn compressed(format: Compression, data: &[u8]) -> Vec<u8> {
        match format {
            Compression::Gzip => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), Default::default());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            // With a checksum, as the `zstd` command writes by default:
            // without one, corrupt data can decode to other bytes unseen.
            Compression::Zstd => {
                let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
                e.include_checksum(true).unwrap();
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Compression::Xz => {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Compression::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), Default::default());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
        }
    }

    fn decode(bytes: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decoded(Cursor::new(bytes))?.text.read_to_end(&mut out)?;
        Ok(out)
    }

    const ALL: [Compression; 4] = [
        Compression::Gzip,
        Compression::Zstd,
        Compression::Xz,
        Compression::Bzip2,
    ];

    #[test]
    fn each_format_is_told_by_its_bytes_and_decoded_whole_even_when_concatenated() {
        for format in ALL {
            let one = compressed(format, TEXT);
            assert_eq!(detect(&one[..PEEK.min(one.len())]), Some(format));
            let two = [one.clone(), compressed(format, b"line three\n")].concat();
            assert_eq!(
                decode(two).unwrap(),
                b"line one\nline two\nline three\n",
                "{format}"
            );
            // An empty text compressed is still that format, and empty.
            assert_eq!(decode(compressed(format, b"")).unwrap(), b"", "{format}");
        }
    }

    #[test]
    fn plain_input_is_passed_through_however_short() {
        for text in [&b""[..], b"x", b"BZh9 is not bzip2\n", TEXT] {
            assert_eq!(detect(text), None);
            assert_eq!(decode(text.to_vec()).unwrap(), text);
        }
    }

    #[test]
    fn bytes_after_the_last_gzip_member_are_called_trailing_garbage_not_an_early_end() {
        let whole = [
            compressed(Compression::Gzip, TEXT),
            compressed(Compression::Gzip, TEXT),
        ]
        .concat();
        for garbage in [&b"x"[..], b"garbage\n", &[0u8; 64]] {
            let bytes = [whole.clone(), garbage.to_vec()].concat();
            let Err(e) = decode(bytes) else {
                panic!("{garbage:?}: trailing garbage decoded without an error")
            };
            assert_eq!(
                e.to_string(),
                format!(
                    "gzip data ends at byte {} and is followed by bytes that are not gzip \
                     (trailing garbage)",
                    whole.len()
                ),
                "{garbage:?}"
            );
        }
        // A member cut short is still an early end.
        let Err(e) = decode(whole[..whole.len() - 3].to_vec()) else {
            panic!("a truncated member decoded without an error")
        };
        assert!(
            e.to_string()
                .ends_with("the data ends before the end of the compressed stream"),
            "{e}"
        );
    }

    #[test]
    fn a_truncated_or_corrupt_stream_is_an_error_naming_the_format() {
        let big: Vec<u8> = (0..20_000u32)
            .flat_map(|i| format!("{i:08}\n").into_bytes())
            .collect();
        for format in ALL {
            let whole = compressed(format, &big);
            let cut = whole[..whole.len() / 2].to_vec();
            let Err(e) = decode(cut) else {
                panic!("{format}: a truncated stream decoded without an error")
            };
            assert!(
                e.to_string()
                    .starts_with(&format!("{format} data is corrupt or truncated: ")),
                "{format}: {e}"
            );
            let mut bad = whole.clone();
            let mid = bad.len() / 2;
            for b in &mut bad[mid..mid + 16] {
                *b ^= 0x5a;
            }
            let Err(e) = decode(bad) else {
                panic!("{format}: a corrupt stream decoded without an error")
            };
            assert!(e.to_string().contains(&format.to_string()), "{format}: {e}");
        }
    }
}
