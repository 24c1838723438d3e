//! The progress bar: one factory that hides it when stderr is not a terminal
//! or the user asked for quiet, so no other module checks either.
//!
//! `SUDOKU_ARCHIVE_PROGRESS=lines` in the environment writes each of the
//! bar's messages as a plain line on stderr instead, terminal or not (for
//! the tests, which have no terminal, and for logs); `--quiet` still wins.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::thousands;

/// How often [`Progress::count`] says the count: rare enough that the
/// message costs nothing beside the work, often enough for a terminal.
pub const COUNT_EVERY: u64 = 16_384;

/// Progress over all inputs of one run: bytes when every size is known
/// (files), a puzzle counter otherwise (standard input).
pub struct Progress {
    bar: ProgressBar,
    /// Bytes of the inputs already finished.
    base: u64,
    by_bytes: bool,
    /// Messages as lines on stderr (see the module's doc).
    lines: bool,
    /// The count [`Progress::count`] said last.
    counted: AtomicU64,
}

impl Progress {
    /// `total` is the sum of the input sizes, if all are known.
    pub fn new(total: Option<u64>, quiet: bool) -> Progress {
        let bar = match total {
            Some(t) => {
                let style = ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} (eta {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar());
                ProgressBar::new(t).with_style(style)
            }
            None => ProgressBar::new_spinner(),
        };
        Progress::shown(bar, total.is_some(), quiet)
    }

    /// A bar over `total` things (puzzles of a pass), with the count done
    /// so far ([`Progress::position`]).
    pub fn things(total: u64, quiet: bool) -> Progress {
        let style = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {msg} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        Progress::shown(ProgressBar::new(total).with_style(style), true, quiet)
    }

    /// `n` of the bar's things are done.
    pub fn position(&self, n: u64) {
        self.bar.set_position(n);
    }

    /// A spinner with the time since it started and a message: for work
    /// whose size is not known ahead (`merge`).
    pub fn spinner(quiet: bool) -> Progress {
        Progress::shown(ProgressBar::new_spinner(), false, quiet)
    }

    fn shown(bar: ProgressBar, by_bytes: bool, quiet: bool) -> Progress {
        if !by_bytes {
            let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
        }
        let lines =
            !quiet && std::env::var_os("SUDOKU_ARCHIVE_PROGRESS").is_some_and(|v| v == "lines");
        if !quiet && !lines && std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
            bar.enable_steady_tick(Duration::from_millis(250));
        } else {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        Progress {
            bar,
            base: 0,
            by_bytes,
            lines,
            counted: AtomicU64::new(0),
        }
    }

    /// Reports `n` things done, as `{doing} {n} {what}`, each time `n`
    /// passes a multiple of [`COUNT_EVERY`], and when `last` (the final
    /// count).
    pub fn count(&self, doing: &str, n: u64, what: &str, last: bool) {
        if last || n / COUNT_EVERY > self.counted.load(Ordering::Relaxed) / COUNT_EVERY {
            self.counted.store(n, Ordering::Relaxed);
            self.message(format!("{doing} {} {what}", thousands(n)));
        }
    }

    /// Shows `message` beside the bar.
    pub fn message(&self, message: String) {
        if self.lines {
            // Nowhere to say it if stderr is gone.
            let _ = writeln!(std::io::stderr(), "progress: {message}");
        }
        self.bar.set_message(message);
    }

    /// The previous input is done; the next starts after `finished` bytes.
    pub fn input_done(&mut self, len: u64) {
        self.base += len;
    }

    /// Reports `offset` bytes into the current input and the run's counts:
    /// `lines` read, of which `puzzles` were puzzles (stored, known or
    /// valid; not rejected nor skipped). The rate is the bar's own, over
    /// the time it has been shown.
    pub fn update(&self, offset: u64, lines: u64, puzzles: u64) {
        if self.by_bytes {
            self.bar.set_position(self.base + offset);
        }
        self.message(message(lines, puzzles, self.bar.elapsed().as_secs_f64()));
    }

    /// Prints a line above the bar without tearing it.
    pub fn println(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Whether anything is shown (on a terminal, or as lines).
    pub fn is_shown(&self) -> bool {
        self.lines || !self.bar.is_hidden()
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The bar's text: what was read and how fast puzzles come.
fn message(lines: u64, puzzles: u64, seconds: f64) -> String {
    let rate = if seconds > 0.0 {
        puzzles as f64 / seconds
    } else {
        0.0
    };
    format!(
        "{} lines, {} puzzles, {} puzzles/s",
        thousands(lines),
        thousands(puzzles),
        thousands(rate as u64)
    )
}
