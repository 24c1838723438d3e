//! The progress bar: one factory that hides it when stderr is not a terminal
//! or the user asked for quiet, so no other module checks either.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress over all inputs of one run: bytes when every size is known
/// (files), a puzzle counter otherwise (standard input).
pub struct Progress {
    bar: ProgressBar,
    /// Bytes of the inputs already finished.
    base: u64,
    by_bytes: bool,
}

impl Progress {
    /// `total` is the sum of the input sizes, if all are known.
    pub fn new(total: Option<u64>, quiet: bool) -> Progress {
        let visible = !quiet && std::io::stderr().is_terminal();
        let bar = match total {
            Some(t) => {
                let style = ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} (eta {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar());
                ProgressBar::new(t).with_style(style)
            }
            None => {
                let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
                ProgressBar::new_spinner().with_style(style)
            }
        };
        if visible {
            bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
            bar.enable_steady_tick(Duration::from_millis(250));
        } else {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        Progress {
            bar,
            base: 0,
            by_bytes: total.is_some(),
        }
    }

    /// The previous input is done; the next starts after `finished` bytes.
    pub fn input_done(&mut self, len: u64) {
        self.base += len;
    }

    /// Reports `offset` bytes into the current input and the run's counts.
    pub fn update(&self, offset: u64, lines: u64, per_sec: f64) {
        if self.by_bytes {
            self.bar.set_position(self.base + offset);
        }
        self.bar
            .set_message(format!("{lines} lines, {per_sec:.0} puzzles/s"));
    }

    /// Prints a line above the bar without tearing it.
    pub fn println(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
