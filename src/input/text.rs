//! Splits a byte stream into physical lines for the pipeline: `\n`, `\r\n`
//! and a lone `\r` all end a line; a line longer than the limit
//! ([`MAX_LINE`] for text) is cut and flagged, never held whole.
//!
//! Does not decode bytes. A read error or a stall ([`super::feed`]) hands
//! on the whole lines read before it first, never a line it cut short. In
//! full: docs/architecture.md "Module notes".

use std::io::{self, BufRead, BufReader, Read};

use super::{CHUNK_LINES, Chunk, ChunkReader, Item, ItemKind, MAX_LINE, feed};

/// Chunks of at most this many buffered bytes, so long lines keep chunks small.
const CHUNK_BYTES: usize = 1 << 20;

pub struct TextReader<R> {
    inner: BufReader<R>,
    line: u64,
    offset: u64,
    /// The previous line ended in `\r`: a `\n` right after belongs to it.
    after_cr: bool,
    done: bool,
    /// Bytes kept of a line; longer lines are [`ItemKind::TooLong`].
    limit: usize,
    /// An error met after some lines of a chunk: reported on the next call.
    failed: Option<io::Error>,
    /// The bytes kept of a line a stall cut short, and its length so far.
    begun: Option<(Vec<u8>, u64)>,
}

impl<R: Read> TextReader<R> {
    pub fn new(read: R) -> Self {
        Self::with_limit(read, MAX_LINE)
    }

    /// A reader that keeps up to `limit` bytes of a line.
    pub fn with_limit(read: R, limit: usize) -> Self {
        TextReader {
            inner: BufReader::with_capacity(256 * 1024, read),
            line: 0,
            offset: 0,
            after_cr: false,
            done: false,
            limit,
            failed: None,
            begun: None,
        }
    }

    /// Bytes of the input consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Reads one line into `chunk`; `false` at end of input.
    fn read_line(&mut self, chunk: &mut Chunk) -> io::Result<bool> {
        let start = chunk.data.len();
        let mut len: u64 = 0;
        let mut saw_any = false;
        if let Some((kept, so_far)) = self.begun.take() {
            chunk.data.extend_from_slice(&kept);
            (len, saw_any) = (so_far, true);
        }
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if feed::is_stall(&e) => {
                    // The bytes of the line begun wait for the rest of it.
                    if saw_any {
                        self.begun = Some((chunk.data.split_off(start), len));
                    }
                    return Err(e);
                }
                Err(e) => {
                    // The line cut short is not a line.
                    chunk.data.truncate(start);
                    return Err(e);
                }
            };
            if buf.is_empty() {
                if !saw_any {
                    return Ok(false);
                }
                break;
            }
            if self.after_cr {
                self.after_cr = false;
                if buf[0] == b'\n' {
                    self.inner.consume(1);
                    self.offset += 1;
                    continue;
                }
            }
            saw_any = true;
            match memchr::memchr2(b'\n', b'\r', buf) {
                Some(i) => {
                    keep(chunk, start, &buf[..i], self.limit);
                    len += i as u64;
                    self.after_cr = buf[i] == b'\r';
                    self.inner.consume(i + 1);
                    self.offset += i as u64 + 1;
                    break;
                }
                None => {
                    let n = buf.len();
                    keep(chunk, start, buf, self.limit);
                    len += n as u64;
                    self.inner.consume(n);
                    self.offset += n as u64;
                }
            }
        }
        self.line += 1;
        let kind = if len > self.limit as u64 {
            ItemKind::TooLong {
                len,
                limit: self.limit,
            }
        } else {
            ItemKind::Line
        };
        chunk.items.push(Item {
            line: self.line,
            raw: start..chunk.data.len(),
            kind,
        });
        Ok(true)
    }
}

/// Appends bytes of the current line, up to `limit` in all.
fn keep(chunk: &mut Chunk, start: usize, bytes: &[u8], limit: usize) {
    let room = (start + limit).saturating_sub(chunk.data.len());
    chunk
        .data
        .extend_from_slice(&bytes[..bytes.len().min(room)]);
}

impl<R: Read + Send> ChunkReader for TextReader<R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        if let Some(e) = self.failed.take() {
            self.done = true;
            return Err(e);
        }
        if self.done {
            return Ok(None);
        }
        let mut chunk = Chunk {
            data: Vec::with_capacity(CHUNK_BYTES / 2),
            ..Chunk::default()
        };
        while chunk.items.len() < CHUNK_LINES && chunk.data.len() < CHUNK_BYTES {
            match self.read_line(&mut chunk) {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    break;
                }
                // The lines so far go on now; the input goes on after.
                Err(e) if feed::is_stall(&e) && !chunk.items.is_empty() => break,
                Err(e) if feed::is_stall(&e) => return Err(e),
                Err(e) if chunk.items.is_empty() => {
                    self.done = true;
                    return Err(e);
                }
                Err(e) => {
                    self.failed = Some(e);
                    break;
                }
            }
        }
        chunk.offset = self.offset;
        Ok((!chunk.items.is_empty()).then_some(chunk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(u64, Vec<u8>, bool)> {
        let mut r = TextReader::new(input);
        let mut out = vec![];
        while let Some(c) = r.next_chunk().unwrap() {
            for it in &c.items {
                out.push((
                    it.line,
                    c.bytes(&it.raw).to_vec(),
                    matches!(it.kind, ItemKind::TooLong { .. }),
                ));
            }
        }
        out
    }

    #[test]
    fn every_line_ending_ends_a_line() {
        let got = lines(b"a\nb\r\nc\rd\n\ne");
        let texts: Vec<&[u8]> = got.iter().map(|(_, t, _)| t.as_slice()).collect();
        assert_eq!(texts, vec![&b"a"[..], b"b", b"c", b"d", b"", b"e"]);
        assert_eq!(got.last().unwrap().0, 6);
    }

    #[test]
    fn a_long_line_is_cut_and_flagged_and_the_next_one_survives() {
        let mut input = vec![b'x'; MAX_LINE * 3];
        input.extend_from_slice(b"\nok\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1.len(), MAX_LINE);
        assert!(got[0].2);
        assert_eq!(
            (got[1].0, got[1].1.as_slice(), got[1].2),
            (2, &b"ok"[..], false)
        );
    }

    #[test]
    fn lines_read_before_an_error_are_handed_on_and_the_error_follows() {
        struct Failing(&'static [u8]);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("disk on fire"));
                }
                let n = self.0.len().min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut r = TextReader::new(Failing(b"a\nb\ncut sho"));
        let c = r.next_chunk().unwrap().unwrap();
        let got: Vec<&[u8]> = c.items.iter().map(|i| c.bytes(&i.raw)).collect();
        assert_eq!(got, [&b"a"[..], b"b"]);
        assert_eq!(c.data, b"ab", "the cut line is not kept");
        assert_eq!(r.next_chunk().unwrap_err().to_string(), "disk on fire");
        assert!(r.next_chunk().unwrap().is_none());
    }

    /// Reads its pieces one a call, saying "stalled" where a piece is `None`.
    struct Stalling(Vec<Option<&'static [u8]>>);
    impl Read for Stalling {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            match self.0.remove(0) {
                None => Err(io::Error::new(io::ErrorKind::WouldBlock, "stalled")),
                Some(piece) => {
                    buf[..piece.len()].copy_from_slice(piece);
                    Ok(piece.len())
                }
            }
        }
    }

    #[test]
    fn a_stall_hands_on_the_whole_lines_so_far_and_keeps_the_line_begun() {
        let mut r = TextReader::new(Stalling(vec![
            Some(b"a\r"),
            None,
            Some(b"\nb\nhal"),
            None,
            None,
            Some(b"f\nc\n"),
        ]));
        let texts = |c: &Chunk| -> Vec<(u64, Vec<u8>)> {
            c.items
                .iter()
                .map(|i| (i.line, c.bytes(&i.raw).to_vec()))
                .collect()
        };
        let c = r.next_chunk().unwrap().unwrap();
        assert_eq!(texts(&c), [(1, b"a".to_vec())]);
        let c = r.next_chunk().unwrap().unwrap();
        assert_eq!(texts(&c), [(2, b"b".to_vec())], "the \\r\\n is one ending");
        // Nothing whole to give: the stall itself.
        assert!(crate::input::feed::is_stall(&r.next_chunk().unwrap_err()));
        let c = r.next_chunk().unwrap().unwrap();
        assert_eq!(texts(&c), [(3, b"half".to_vec()), (4, b"c".to_vec())]);
        assert!(r.next_chunk().unwrap().is_none());
    }

    #[test]
    fn empty_input_has_no_lines_and_a_final_newline_adds_none() {
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"a\n").len(), 1);
    }
}
