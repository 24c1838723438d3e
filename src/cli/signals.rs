//! SIGINT and SIGTERM during a long run (`import`, `check`, `merge`, `rate`): the first asks
//! the pipeline to stop at the next chunk (the lines already read from a
//! pipe still written: see [`crate::pipeline`]) ([`Interrupt::flag`]), so the
//! command can end cleanly and say so; a second one kills the process at
//! once, by the signal's default action, leaving what a SIGKILL would
//! (for an import: a consistent archive whose run a later import marks
//! `interrupted`). Handlers are installed only by the commands that can
//! stop cleanly; the others keep the default action. Those commands record
//! how their run ended the same way: [`Interrupt::record_end`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;

use super::output::note;
use crate::archive::ArchiveError;
use crate::archive::fill::FillWriter;
use crate::archive::merge::MergeRun;
use crate::archive::rating::RateRun;
use crate::archive::writer::ImportWriter;
use crate::pipeline::Ended;

pub struct Interrupt {
    flag: Arc<AtomicBool>,
    /// The number of the signal that arrived; 0 for none yet.
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Installs the handlers. If that fails the signals keep their default
    /// action (the process dies, as after SIGKILL): worth no error.
    pub fn install() -> Interrupt {
        let flag = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        for sig in [SIGINT, SIGTERM] {
            // Registered first, so it sees the flag as the previous signal left
            // it: the first signal only raises the flag, the second kills.
            let _ = flag::register_conditional_default(sig, Arc::clone(&flag));
            // A second signal kills before it could overwrite the first.
            let _ = flag::register_usize(sig, Arc::clone(&signal), sig as usize);
            let _ = flag::register(sig, Arc::clone(&flag));
        }
        // The waits no flag is handed to (a lock, a named pipe, hashing
        // ahead) look at it there.
        crate::stop::watch(Arc::clone(&flag));
        Interrupt { flag, signal }
    }

    /// Whether a signal has asked to stop.
    pub fn raised(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// The flag the pipeline watches.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// The signal that asked to stop, if one did.
    pub fn signal(&self) -> Option<Signal> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            n if n == SIGTERM as usize => Some(Signal::Term),
            _ => Some(Signal::Int),
        }
    }

    /// When a signal came before the run began (while the archive was
    /// opened or upgraded): says so, that nothing was `done`, and gives the
    /// exit status. `run` names the run: `import`, `merge`.
    pub fn stopped_before(&self, run: &str, done: &str) -> Option<u8> {
        if !self.raised() {
            return None;
        }
        let s = self.signal().unwrap_or(Signal::Int);
        note!(
            "sudoku-archive: interrupted by {} before the {run} began; nothing was {done}",
            s.name()
        );
        Some(s.exit_status())
    }

    /// For an error before the run began: when a signal came first (the
    /// error is most likely a wait it cut short: a named pipe no writer
    /// opened, another process's lock), what [`Self::stopped_before`] says
    /// and returns; else the error.
    pub fn stopped_instead(
        &self,
        run: &str,
        done: &str,
        error: impl Into<anyhow::Error>,
    ) -> anyhow::Result<u8> {
        self.stopped_before(run, done).ok_or_else(|| error.into())
    }

    /// Records how a run ended, even after a failure: `finished` when it
    /// completed, `interrupted` when it stopped on request (`failed` if
    /// committing its last batch fails), `failed` with the error otherwise.
    /// Returns the signal that stopped it, if one did; else the run's error,
    /// or the recording's.
    pub fn record_end<E>(
        &self,
        run: &mut impl Recorded,
        outcome: Result<Ended, E>,
    ) -> anyhow::Result<Option<Signal>>
    where
        E: std::fmt::Display + Into<anyhow::Error>,
    {
        let finished = match &outcome {
            Ok(Ended::Complete) => run.finish(None),
            Ok(Ended::Stopped) => match run.interrupt() {
                // Another process holds the write lock and the stop cut the
                // wait for it short: the run stays `running`, as after a
                // kill, with whole batches only (the one that could not
                // begin wrote nothing).
                Err(ArchiveError::Stopped) => {
                    note!(
                        "sudoku-archive: another process holds the archive's write lock, so the run \
                         could not be marked interrupted now; the next import marks it"
                    );
                    Ok(())
                }
                r => r.inspect_err(|e| {
                    // The commit failed (a full disk?): the batch is rolled back instead.
                    let _ = run.finish(Some(&e.to_string()));
                }),
            },
            Err(e) => run.finish(Some(&e.to_string())),
        };
        match (outcome, finished) {
            (Err(e), Err(f)) => {
                anyhow::bail!("{e} (and the run could not be recorded as failed: {f})")
            }
            (Err(e), Ok(())) => Err(e.into()),
            (Ok(ended), finished) => {
                finished?;
                Ok((ended == Ended::Stopped).then(|| self.signal().unwrap_or(Signal::Int)))
            }
        }
    }
}

/// A run recorded in `imports` that a signal can stop: an import, a merge.
pub trait Recorded {
    /// Ends it `finished` (the open batch committed), or `failed` with the
    /// error (the open batch rolled back).
    fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError>;
    /// Ends it `interrupted`, the open batch committed.
    fn interrupt(&mut self) -> Result<(), ArchiveError>;
}

impl Recorded for ImportWriter<'_> {
    fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        ImportWriter::finish(self, error)
    }

    fn interrupt(&mut self) -> Result<(), ArchiveError> {
        ImportWriter::interrupt(self)
    }
}

impl Recorded for RateRun<'_> {
    fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        RateRun::finish(self, error)
    }

    fn interrupt(&mut self) -> Result<(), ArchiveError> {
        RateRun::interrupt(self)
    }
}

impl Recorded for FillWriter<'_> {
    fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        FillWriter::finish(self, error)
    }

    fn interrupt(&mut self) -> Result<(), ArchiveError> {
        FillWriter::interrupt(self)
    }
}

impl Recorded for MergeRun<'_> {
    fn finish(&mut self, error: Option<&str>) -> Result<(), ArchiveError> {
        MergeRun::finish(self, error)
    }

    fn interrupt(&mut self) -> Result<(), ArchiveError> {
        MergeRun::interrupt(self)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    Int,
    Term,
}

impl Signal {
    pub fn name(self) -> &'static str {
        match self {
            Signal::Int => "SIGINT",
            Signal::Term => "SIGTERM",
        }
    }

    /// The shell's status for a command a signal ended: 128 + its number.
    pub fn exit_status(self) -> u8 {
        match self {
            Signal::Int => 130,
            Signal::Term => 143,
        }
    }
}
