//! The workers yield to the thread that writes the archive.
//!
//! An import runs one more busy thread than there are cores: the workers
//! (one per core) and the writer, which every line passes through in order.
//! At equal priority the scheduler shares the cores three ways, so the
//! writer, the slower stage, loses a third of its core to workers that are
//! only running ahead of it; then they wait while it catches up alone. A
//! worker at a lower priority runs when the writer does not need the core:
//! the 1M-line benchmark import took 4.4% less time (8.94 s to 8.55 s, 3
//! alternating runs on an idle 2-core machine), re-runs no longer.
//!
//! Linux keeps a nice value per thread, so only the workers change. Elsewhere
//! the nice value belongs to the whole process, and nothing is done.

/// How much lower than the importing thread the workers run (nice levels).
pub const WORKER_NICENESS: i32 = 10;

/// Lowers the calling thread's priority by [`WORKER_NICENESS`], if the
/// platform keeps priorities per thread. A refusal (a sandbox, say) leaves
/// the thread as it was: the import is only slower.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    // SAFETY: nice(3) takes a plain integer and touches no memory of ours;
    // with NPTL it changes the nice value of the calling thread only.
    unsafe {
        libc::nice(WORKER_NICENESS);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The nice value of the calling thread.
    fn niceness() -> i32 {
        // SAFETY: getpriority takes plain integers; who = 0 is the calling
        // thread on Linux. The result is a nice value (-20..=19).
        unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) }
    }

    #[test]
    fn a_lowered_thread_runs_nicer_and_the_caller_does_not() {
        let before = niceness();
        let lowered = std::thread::spawn(|| {
            lower_this_thread();
            niceness()
        })
        .join()
        .unwrap();
        assert_eq!(lowered, (before + WORKER_NICENESS).min(19));
        assert_eq!(niceness(), before);
    }
}
