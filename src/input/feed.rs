//! A pipe's text, read ahead by a thread of its own, so that the line
//! reader above it is never stuck in a read while it holds lines: when no
//! bytes come for [`STALL`], a read says so ([`io::ErrorKind::WouldBlock`])
//! and the lines read so far go on; a stop request (`halt`) is seen within
//! a stall.
//!
//! Only inputs that cannot be read again are fed this way; opening a named
//! pipe waits for its writer on a thread of its own ([`open_pipe`]), so a
//! stop ends the wait at once. The thread owns the raw input and its
//! decoding and must not parse: it only moves bytes. In full:
//! docs/architecture.md "Module notes".

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, bounded};

use super::decompress;

/// How long a read waits for bytes before it says none came.
pub const STALL: Duration = Duration::from_millis(100);

/// The most bytes the thread reads at once, and blocks read ahead.
const BLOCK: usize = 256 * 1024;
const AHEAD: usize = 4;

enum Block {
    Bytes(Vec<u8>),
    End,
    Failed(io::Error),
    /// `halt` was raised: no more bytes will be taken.
    Halted,
}

/// The reading end: a [`Read`] whose reads wait at most [`STALL`].
pub struct Feed {
    rx: Receiver<Block>,
    block: Vec<u8>,
    at: usize,
    ended: bool,
    halted: bool,
}

/// `raw` decoded (if compressed) and read ahead on a thread until `halt`
/// is raised; the counter is the raw bytes read so far, for progress.
pub fn fed<R: Read + Send + 'static>(
    raw: R,
    halt: Option<Arc<AtomicBool>>,
) -> (Feed, Arc<AtomicU64>) {
    let halted = move || halt.as_ref().is_some_and(|h| h.load(Ordering::SeqCst));
    let (tx, rx) = bounded(AHEAD);
    let count = Arc::new(AtomicU64::new(0));
    let counted = Arc::clone(&count);
    // Not joined: a silent pipe may hold it in a read for ever, and the run
    // must not wait for it. It ends at its next send once the Feed is gone.
    thread::spawn(move || {
        if halted() {
            let _ = tx.send(Block::Halted);
            return;
        }
        let decoded = match decompress::decoded(raw) {
            Ok(d) => d,
            Err(e) => {
                let _ = tx.send(Block::Failed(e));
                return;
            }
        };
        let mut text = decoded.text;
        let mut read = 0u64;
        loop {
            if halted() {
                let _ = tx.send(Block::Halted);
                return;
            }
            let mut block = vec![0u8; BLOCK];
            match text.read(&mut block) {
                Ok(0) => {
                    let _ = tx.send(Block::End);
                    return;
                }
                Ok(n) => {
                    block.truncate(n);
                    read += n as u64;
                    let raw = decoded.raw_bytes.as_ref();
                    counted.store(
                        raw.map_or(read, |r| r.load(Ordering::Relaxed)),
                        Ordering::Relaxed,
                    );
                    if tx.send(Block::Bytes(block)).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // A descriptor left non-blocking by whoever gave it.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => thread::sleep(STALL / 10),
                Err(e) => {
                    let _ = tx.send(Block::Failed(e));
                    return;
                }
            }
        }
    });
    let feed = Feed {
        rx,
        block: Vec::new(),
        at: 0,
        ended: false,
        halted: false,
    };
    (feed, count)
}

impl Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.block.len() {
            if self.ended || buf.is_empty() {
                return Ok(0);
            }
            if self.halted {
                return Err(stalled());
            }
            match self.rx.recv_timeout(STALL) {
                Ok(Block::Bytes(b)) => (self.block, self.at) = (b, 0),
                Ok(Block::End) => self.ended = true,
                Ok(Block::Halted) => self.halted = true,
                Ok(Block::Failed(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => return Err(stalled()),
                Err(RecvTimeoutError::Disconnected) => {
                    self.ended = true;
                    return Err(io::Error::other("the input's reading thread stopped"));
                }
            }
        }
        let n = buf.len().min(self.block.len() - self.at);
        buf[..n].copy_from_slice(&self.block[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Opens the named pipe at `path` for reading, waiting for a writer to
/// open it until a stop is asked for ([`crate::stop`]). The open is made
/// on a thread of its own, left waiting in it after a stop: the process is
/// about to end (a writer that comes later finds the pipe closed).
pub fn open_pipe(path: &Path) -> io::Result<File> {
    let (tx, rx) = bounded(1);
    let p = path.to_path_buf();
    thread::spawn(move || {
        let _ = tx.send(File::open(p));
    });
    loop {
        if crate::stop::requested() {
            return Err(crate::stop::stopped(
                "waiting for a writer to open the named pipe",
            ));
        }
        match rx.recv_timeout(STALL) {
            Ok(opened) => return opened,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other("the pipe's opening thread stopped"));
            }
        }
    }
}

fn stalled() -> io::Error {
    io::Error::new(
        io::ErrorKind::WouldBlock,
        "no bytes came within the stall time",
    )
}

/// Whether an error from a chunk reader only says that no bytes came for a
/// while (from a [`Feed`]): the input goes on, and the read may be tried again.
pub fn is_stall(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::WouldBlock
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn a_quiet_pipe_makes_a_read_say_so_and_the_bytes_after_still_come() {
        let (reader, mut writer) = io::pipe().unwrap();
        let (mut feed, count) = fed(reader, None);
        // (More than the bytes looked at for a compression format.)
        writer.write_all(b"one two three\n").unwrap();
        let mut buf = [0u8; 16];
        let mut got = Vec::new();
        // The first bytes may take a moment to pass the thread.
        while got.len() < 14 {
            match feed.read(&mut buf) {
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) => assert!(is_stall(&e), "{e}"),
            }
        }
        assert_eq!(got, b"one two three\n");
        assert!(is_stall(&feed.read(&mut buf).unwrap_err()));
        writer.write_all(b"two\n").unwrap();
        drop(writer);
        let mut rest = Vec::new();
        loop {
            match feed.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => rest.extend_from_slice(&buf[..n]),
                Err(e) => assert!(is_stall(&e), "{e}"),
            }
        }
        assert_eq!(rest, b"two\n");
        assert_eq!(count.load(Ordering::Relaxed), 18);
    }
}
