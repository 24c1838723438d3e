//! The process's stop request (the first SIGINT or SIGTERM, see
//! `cli::signals`), for the waits no flag is handed to: the archive's busy
//! handler and import lock, opening a named pipe, hashing a file ahead.
//! Each such wait looks here between short sleeps or blocks and gives up
//! once a stop is asked for. Raised once, never lowered; nothing but the
//! signal handlers raises it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Makes `flag` (the signal handlers' flag) the process's stop request.
/// Only the first call counts: a process installs its handlers once.
pub fn watch(flag: Arc<AtomicBool>) {
    let _ = FLAG.set(flag);
}

/// Whether a stop has been asked for.
pub fn requested() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::SeqCst))
}

/// The error of a wait or a read given up for a stop: "stopped while
/// `doing`". (Not of kind `Interrupted`, which readers take as "try
/// again".)
pub fn stopped(doing: &str) -> std::io::Error {
    std::io::Error::other(format!("stopped while {doing}"))
}
