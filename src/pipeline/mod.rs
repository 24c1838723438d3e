//! The import pipeline: a reader thread streams chunks from the inputs in
//! order, rayon workers turn each chunk's items into [`Outcome`]s, and the
//! calling thread hands the results, still in input order, to a [`Sink`]
//! (the archive writer, or `check`'s reporter). Channels are bounded, so
//! memory stays flat however large the input; results never depend on the
//! number of worker threads.

pub mod process;

use std::io;
use std::thread;

use crossbeam_channel::{Receiver, Sender, bounded};
use rayon::prelude::*;

use crate::input::{self, Chunk, Framing, Origin};
pub use process::{Outcome, Record, Rejection, Settings};

/// One input to read, and how its lines are framed.
#[derive(Clone, Debug)]
pub struct Input {
    pub origin: Origin,
    pub framing: Framing,
}

impl Input {
    pub fn name(&self) -> String {
        self.origin.display_name()
    }
}

/// A chunk of one input together with the outcome of each of its items.
#[derive(Debug)]
pub struct Processed {
    pub input: usize,
    pub chunk: Chunk,
    pub outcomes: Vec<Outcome>,
}

/// Where processed chunks go. Called on the pipeline's calling thread only.
pub trait Sink {
    type Error: std::error::Error + Send + Sync + 'static;
    /// An input is about to be read; `len` is its size in bytes when known.
    fn begin_input(
        &mut self,
        index: usize,
        input: &Input,
        len: Option<u64>,
    ) -> Result<(), Self::Error>;
    /// The next chunk, in input order.
    fn write(&mut self, inputs: &[Input], processed: Processed) -> Result<(), Self::Error>;
}

#[derive(Debug, thiserror::Error)]
pub enum RunError<E: std::error::Error + 'static> {
    #[error("{file}: {source}")]
    Read { file: String, source: io::Error },
    #[error(transparent)]
    Sink(E),
    #[error("could not start worker threads: {0}")]
    Threads(String),
    #[error("a worker thread stopped before finishing its lines")]
    WorkerStopped,
}

pub struct Options {
    pub settings: Settings,
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
}

enum Read {
    Begin { input: usize, len: Option<u64> },
    Chunk { input: usize, chunk: Chunk },
    Failed { input: usize, error: io::Error },
}

enum Done {
    Begin { input: usize, len: Option<u64> },
    Chunk(Processed),
    Failed { input: usize, error: io::Error },
}

/// Checks that every input can be opened before any work starts, so a typo
/// in the last file name does not leave a half-done import behind.
pub fn check_inputs(inputs: &[Input]) -> Result<(), (String, io::Error)> {
    for i in inputs {
        if let Origin::Path(_) = i.origin {
            input::open(&i.origin).map_err(|e| (i.name(), e))?;
        }
    }
    Ok(())
}

fn read_all(inputs: Vec<Input>, tx: Sender<Read>) {
    for (index, inp) in inputs.iter().enumerate() {
        let (mut reader, len) = match input::reader(&inp.origin, &inp.framing) {
            Ok(r) => r,
            Err(error) => {
                let _ = tx.send(Read::Failed {
                    input: index,
                    error,
                });
                return;
            }
        };
        if tx.send(Read::Begin { input: index, len }).is_err() {
            return;
        }
        loop {
            match reader.next_chunk() {
                Ok(Some(chunk)) => {
                    if tx
                        .send(Read::Chunk {
                            input: index,
                            chunk,
                        })
                        .is_err()
                    {
                        return;
                    }
                }
                Ok(None) => break,
                Err(error) => {
                    let _ = tx.send(Read::Failed {
                        input: index,
                        error,
                    });
                    return;
                }
            }
        }
    }
}

/// Starts each chunk on the pool as soon as it is read and passes on, in
/// input order, a receiver for its result. Several chunks are in flight at
/// once, so the workers never wait for the slowest line of a chunk (a hard
/// puzzle at its end) before starting the next; the bounded queue of
/// receivers still caps how many chunks are held.
fn process_all(
    rx: Receiver<Read>,
    tx: Sender<Receiver<Done>>,
    pool: rayon::ThreadPool,
    settings: Settings,
) {
    for msg in rx {
        let (one_tx, one_rx) = bounded::<Done>(1);
        match msg {
            Read::Begin { input, len } => {
                let _ = one_tx.send(Done::Begin { input, len });
            }
            Read::Failed { input, error } => {
                let _ = one_tx.send(Done::Failed { input, error });
            }
            Read::Chunk { input, chunk } => pool.spawn(move || {
                let outcomes = chunk
                    .items
                    .par_iter()
                    .with_min_len(64)
                    .map(|item| process::process(&chunk, item, settings))
                    .collect();
                // The receiver is gone only when the run already stopped.
                let _ = one_tx.send(Done::Chunk(Processed {
                    input,
                    chunk,
                    outcomes,
                }));
            }),
        }
        if tx.send(one_rx).is_err() {
            return;
        }
    }
}

/// Runs the whole pipeline over `inputs`, feeding `sink` in input order.
pub fn run<S: Sink>(
    inputs: &[Input],
    opts: &Options,
    sink: &mut S,
) -> Result<(), RunError<S::Error>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs)
        .thread_name(|i| format!("worker-{i}"))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))?;
    // A few chunks in flight each way: enough to keep every stage busy.
    let (read_tx, read_rx) = bounded::<Read>(4);
    let (done_tx, done_rx) = bounded::<Receiver<Done>>(4);
    let owned = inputs.to_vec();
    let settings = opts.settings;
    thread::scope(|s| {
        s.spawn(move || read_all(owned, read_tx));
        s.spawn(move || process_all(read_rx, done_tx, pool, settings));
        // Dropping `done_rx` on an early return stops both threads at their next send.
        for pending in done_rx {
            // A chunk's sender is dropped unanswered only if its job died.
            let msg = pending.recv().map_err(|_| RunError::WorkerStopped)?;
            match msg {
                Done::Begin { input, len } => sink
                    .begin_input(input, &inputs[input], len)
                    .map_err(RunError::Sink)?,
                Done::Chunk(p) => sink.write(inputs, p).map_err(RunError::Sink)?,
                Done::Failed { input, error } => {
                    return Err(RunError::Read {
                        file: inputs[input].name(),
                        source: error,
                    });
                }
            }
        }
        Ok(())
    })
}
