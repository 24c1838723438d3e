//! The threads of every run, whatever it reads and computes: a reader
//! thread sends units (chunks of items, or marks) into a bounded queue, the
//! dispatcher starts each unit's work on the rayon pool (workers at a lower
//! priority) as soon as it is read, and the calling thread takes the
//! results in reading order ([`Take`]), watching the stop flag and telling
//! the taker when its deadline passes while it waits. Knows nothing of
//! files, lines or archives: the source is the reader function, the work a
//! function of one unit.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};

use super::{Ended, RunError, priority};

/// What takes the results, in order, on the calling thread.
pub(super) trait Take<D> {
    type Error: std::error::Error + Send + Sync + 'static;
    /// The next result, in reading order.
    fn take(&mut self, done: D) -> Result<(), RunError<Self::Error>>;
    /// When [`Take::idle`] is due if no result has come by then.
    fn deadline(&self) -> Option<Instant>;
    /// The deadline passed while waiting for the next result.
    fn idle(&mut self) -> Result<(), Self::Error>;
}

/// What waiting for the next message came to.
pub(super) enum Wait<T> {
    Got(T),
    /// Its senders are gone.
    Closed,
    /// The stop flag was raised while waiting.
    Stopped,
}

/// How often a run waiting for input looks at its stop flag.
pub(super) const STOP_POLL: Duration = Duration::from_millis(100);

pub(super) fn raised(stop: &Option<Arc<AtomicBool>>) -> bool {
    stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
}

/// The next message from `rx`. Waits in slices of [`STOP_POLL`], to see the
/// stop flag while nothing comes (a silent pipe, slow items), and tells the
/// taker it is idle once its deadline passes: so a batch closes on time
/// however long the items take, and a stop is seen within a slice.
pub(super) fn next_or_idle<T, D, K: Take<D>>(
    rx: &Receiver<T>,
    taker: &mut K,
    stop: &Option<Arc<AtomicBool>>,
) -> Result<Wait<T>, K::Error> {
    loop {
        if raised(stop) {
            return Ok(Wait::Stopped);
        }
        let deadline = taker.deadline();
        let poll = Instant::now() + STOP_POLL;
        match rx.recv_deadline(deadline.map_or(poll, |d| d.min(poll))) {
            Ok(msg) => return Ok(Wait::Got(msg)),
            Err(RecvTimeoutError::Disconnected) => return Ok(Wait::Closed),
            Err(RecvTimeoutError::Timeout) => {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    taker.idle()?;
                }
            }
        }
    }
}

/// A run's shape: how many workers, the stop flag, and whether what was
/// read must all be taken after a stop (a pipe's lines cannot be read
/// again).
pub(super) struct Shape {
    pub workers: usize,
    pub stop: Option<Arc<AtomicBool>>,
    pub drain: bool,
}

/// Starts the pool: `workers` threads at a lower priority.
fn pool(workers: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("worker-{i}"))
        .start_handler(|_| priority::lower_this_thread())
        .build()
        .map_err(|e| e.to_string())
}

/// Runs `read` on a thread of its own (it sends units in order and returns
/// false if it stopped early for the stop flag), `work` on the pool for each
/// unit (given the pool's size), and hands the results in order to `taker`.
/// Several units are in flight at once, so the workers never wait for the
/// slowest item of one before starting the next; the bounded queues cap how
/// many are held: 4 read ahead, 8 waiting for the taker (it pauses while
/// SQLite syncs a checkpoint, and the workers fill the time only as far as
/// this queue lets them run ahead; 8 rather than 4: 3% faster, about 30 MiB
/// more at the peak).
pub(super) fn drive<U, D, K>(
    shape: Shape,
    read: impl FnOnce(Sender<U>) -> bool + Send + 'static,
    work: impl Fn(U, usize) -> D + Send + Sync + 'static,
    taker: &mut K,
) -> Result<Ended, RunError<K::Error>>
where
    U: Send + 'static,
    D: Send + 'static,
    K: Take<D>,
{
    let pool = pool(shape.workers).map_err(RunError::Threads)?;
    let (read_tx, read_rx) = bounded::<U>(4);
    let (done_tx, done_rx) = bounded::<Receiver<D>>(8);
    // The reader and the dispatcher are not scoped: after a stop the reader
    // may be blocked reading a pipe or terminal that sends nothing, and the
    // run must not wait for it. Each ends at its next send once the
    // receivers are gone (or with the process).
    let reader = thread::spawn(move || read(read_tx));
    thread::spawn(move || dispatch(read_rx, done_tx, pool, work));
    // Once a stop is seen with a pipe among the inputs, the flag is no
    // longer watched: the run ends when the reader has handed on all it
    // read.
    let mut stop = shape.stop;
    loop {
        let pending = match next_or_idle(&done_rx, taker, &stop).map_err(RunError::Sink)? {
            Wait::Got(pending) => pending,
            Wait::Closed => break,
            Wait::Stopped if shape.drain => {
                stop = None;
                continue;
            }
            Wait::Stopped => return Ok(Ended::Stopped),
        };
        // A unit's sender is dropped unanswered only if its job died.
        let done = loop {
            match next_or_idle(&pending, taker, &stop).map_err(RunError::Sink)? {
                Wait::Got(done) => break done,
                Wait::Closed => return Err(RunError::WorkerStopped),
                Wait::Stopped if shape.drain => stop = None,
                Wait::Stopped => return Ok(Ended::Stopped),
            }
        };
        taker.take(done)?;
    }
    // The reader stopped early only if the flag was raised before the end.
    match reader.join() {
        Ok(true) => Ok(Ended::Complete),
        Ok(false) => Ok(Ended::Stopped),
        Err(_) => Err(RunError::WorkerStopped),
    }
}

/// Starts each unit's work on the pool as soon as it is read and passes on,
/// in reading order, a receiver for its result.
fn dispatch<U, D>(
    rx: Receiver<U>,
    tx: Sender<Receiver<D>>,
    pool: rayon::ThreadPool,
    work: impl Fn(U, usize) -> D + Send + Sync + 'static,
) where
    U: Send + 'static,
    D: Send + 'static,
{
    let work = Arc::new(work);
    let threads = pool.current_num_threads();
    for unit in rx {
        let (one_tx, one_rx) = bounded::<D>(1);
        let work = Arc::clone(&work);
        pool.spawn(move || {
            // The receiver is gone only when the run already stopped.
            let _ = one_tx.send(work(unit, threads));
        });
        if tx.send(one_rx).is_err() {
            return;
        }
    }
}
