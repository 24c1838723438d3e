//! SIGINT and SIGTERM during a long run (`import`, `check`, `merge`): the first asks
//! the pipeline to stop at the next chunk ([`Interrupt::flag`]), so the
//! command can end cleanly and say so; a second one kills the process at
//! once, by the signal's default action, leaving what a SIGKILL would
//! (for an import: a consistent archive whose run a later import marks
//! `interrupted`). Handlers are installed only by the commands that can
//! stop cleanly; the others keep the default action.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;

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
