//! Printing for people and pipes: every command writes its standard output
//! through [`Out`] and its notes on standard error through `note!`, never
//! with `println!`/`eprintln!`, which panic when the stream is gone.
//!
//! A reader that goes away (`stats | head -3`, `import ... | true`) is a
//! normal way to stop reading, not a failure: a write that finds the pipe
//! closed ends in [`OutputError::Closed`], which the dispatcher turns into a
//! quiet exit with the status the command had earned (0, unless the work
//! done before printing said otherwise). Any other write error (a full disk
//! under `> file`) is reported. A note that cannot be written to standard
//! error is dropped: there is nowhere left to say so.

use std::fmt;
use std::io::{self, BufWriter, ErrorKind, StdoutLock, Write};

#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The reader of standard output went away.
    #[error("standard output was closed")]
    Closed,
    #[error("cannot write to standard output: {0}")]
    Write(io::Error),
}

impl From<io::Error> for OutputError {
    fn from(e: io::Error) -> Self {
        if e.kind() == ErrorKind::BrokenPipe {
            OutputError::Closed
        } else {
            OutputError::Write(e)
        }
    }
}

/// Buffered standard output. Use with `write!`/`writeln!`, which return
/// `Result<(), OutputError>` here; call [`Out::flush`] at the end, since a
/// dropped buffer loses its error.
pub struct Out {
    inner: BufWriter<StdoutLock<'static>>,
}

impl Out {
    pub fn stdout() -> Out {
        Out {
            inner: BufWriter::new(io::stdout().lock()),
        }
    }

    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), OutputError> {
        Ok(self.inner.write_fmt(args)?)
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        Ok(self.inner.write_all(bytes)?)
    }

    pub fn flush(&mut self) -> Result<(), OutputError> {
        Ok(self.inner.flush()?)
    }
}

/// Writes one line on standard error, ignoring a closed stream.
pub fn note_line(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|_| err.write_all(b"\n"));
}

/// `eprintln!` that cannot panic: see [`note_line`].
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::cli::output::note_line(format_args!($($arg)*))
    };
}
pub(crate) use note;

/// `part` as a share of `whole`, with as many decimals as it takes to show
/// two significant digits (`0.042%`, not `0.0%` beside a limit of 0.01%).
pub fn percent(part: u64, whole: u64) -> String {
    let share = 100.0 * part as f64 / whole.max(1) as f64;
    let decimals = if share >= 1.0 || share == 0.0 {
        1
    } else {
        (1 - share.log10().floor() as i32).max(1) as usize
    };
    format!("{share:.decimals$}%")
}

/// `n` and the noun, singular or plural: `1 archive`, `2 archives`.
pub fn count_of(n: u64, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        super::thousands(n),
        if n == 1 { one } else { many }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_shows_its_first_two_digits() {
        for (part, whole, want) in [
            (1, 2362, "0.042%"),
            (1, 2, "50.0%"),
            (1, 200, "0.50%"),
            (0, 5, "0.0%"),
            (3, 3, "100.0%"),
            (1, 0, "100.0%"),
        ] {
            assert_eq!(percent(part, whole), want, "{part} of {whole}");
        }
    }
}
