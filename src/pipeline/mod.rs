//! The import pipeline over files: a reader thread streams chunks of the
//! inputs in order (opened once, before the run: [`open_inputs`]), rayon
//! workers turn each chunk's items into [`Outcome`]s, and the calling
//! thread hands them, in input order, to a [`Sink`]. The threads, bounded
//! queues, stop flag and idle deadline are [`engine`]'s, shared with a
//! pass over stored puzzles ([`pass`]). Must not touch SQL: the archive is
//! reached only through [`Sink`] and [`Stored`]. Stop, pipe and deadline
//! rules: docs/architecture.md, "src/pipeline/mod.rs".

mod engine;
pub mod pass;
mod priority;
pub mod process;

use std::io;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::Instant;

use crossbeam_channel::{Sender, bounded};
use engine::raised;
use rayon::prelude::*;

use crate::input::{self, Chunk, Content, Framing, Opened, Origin, feed};
pub use crate::record::{Known, Outcome, Record, Rejection, Settings};
pub use process::Stored;

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
    fn write(&mut self, inputs: &[Input], processed: &Processed) -> Result<(), Self::Error>;
    /// Every line of an input has been written; `content` is the size and
    /// hash of what was read, when the reader saw the input's end.
    fn end_input(
        &mut self,
        index: usize,
        input: &Input,
        content: Option<Content>,
    ) -> Result<(), Self::Error> {
        let _ = (index, input, content);
        Ok(())
    }
    /// When the sink wants [`Sink::idle`] called if no chunk has come by
    /// then (the writer: when its open batch must close); none if it can
    /// wait for ever.
    fn deadline(&self) -> Option<Instant> {
        None
    }
    /// The deadline passed while the pipeline waited for the next chunk
    /// (for the reader, or for workers on slow lines): finish what is open
    /// (the writer commits its batch and lets go of the write lock).
    fn idle(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RunError<E: std::error::Error + 'static> {
    /// The cause is part of the message and not also a `source`: the CLI
    /// prints an error's chain, which would say it twice.
    #[error("{file}: {error}")]
    Read { file: String, error: io::Error },
    #[error(transparent)]
    Sink(E),
    #[error("could not start worker threads: {0}")]
    Threads(String),
    #[error("a worker thread stopped before finishing its lines")]
    WorkerStopped,
}

pub struct Options {
    pub settings: Settings,
    /// Worker threads; 0 means one per core, and more than one per core
    /// are not started (see [`workers`]).
    pub jobs: usize,
    /// The archive's puzzles, for recognising lines it already holds.
    pub stored: Option<Arc<dyn Stored>>,
    /// Raised (by a signal handler) to end the run early, at a line
    /// boundary (see the module's doc).
    pub stop: Option<Arc<AtomicBool>>,
}

/// How a run that did not fail ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every line of every input went to the sink.
    Complete,
    /// The stop flag was raised first: the sink got the lines before some
    /// point, in order, and none after it.
    Stopped,
}

/// The worker threads a run starts when `jobs` are asked for (0: one per
/// core): never more than one per core. A line's work is all computation,
/// so threads past the cores only take turns on them, and each costs its
/// start, its stack and its share of every chunk's fork-join: `--jobs
/// 100000` started 14,098 threads and took 742 s over 20 lines.
pub fn workers(jobs: usize) -> usize {
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    match jobs {
        0 => cores,
        n => n.min(cores),
    }
}

/// How many lines of a chunk are looked up before deciding whether the
/// rest are worth looking up.
const SAMPLE: usize = 32;

/// Whether most sampled lines of a chunk are already stored: a re-run, or
/// a file that grew since its last import. Otherwise (new puzzles) the
/// lookups would cost more than they save, and the chunk is analysed as is.
fn mostly_stored(chunk: &Chunk, settings: Settings, stored: &dyn Stored) -> bool {
    let (mut tried, mut found) = (0, 0);
    for token in chunk
        .items
        .iter()
        .filter_map(|item| process::token(chunk, item).ok())
        .take(SAMPLE)
    {
        tried += 1;
        found += usize::from(process::known(token, settings, stored).is_some());
    }
    2 * found > tried
}

/// What the reader says of an input besides its chunks: passed on to the
/// sink unchanged, in order with them.
enum Mark {
    Begin { len: Option<u64> },
    End { content: Option<Content> },
    Failed(io::Error),
}

enum Read {
    Mark { input: usize, mark: Mark },
    Chunk { input: usize, chunk: Chunk },
}

enum Done {
    Mark { input: usize, mark: Mark },
    Chunk(Processed),
}

/// An input that could not be opened: its name and why.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {error}")]
pub struct OpenError {
    pub file: String,
    pub error: io::Error,
}

/// Opens every input, in order, before any work starts: a typo in the last
/// file name does not leave a half-done import behind, and each handle is
/// the one [`run`] reads (a named pipe, or `<(zcat x.gz)`, can be opened
/// only once). Opening a named pipe waits for its writer. Regular files past
/// the first [`held_open`] held are closed again, and opened anew when
/// read, so that a large folder does not run out of file descriptors.
pub fn open_inputs(inputs: &[Input]) -> Result<Vec<Opened>, OpenError> {
    let most = held_open();
    let mut held = 0;
    inputs
        .iter()
        .map(|i| {
            let mut opened = input::open(&i.origin).map_err(|error| OpenError {
                file: i.name(),
                error,
            })?;
            match &i.origin {
                Origin::Path(p) if held >= most => opened.close_if_reopenable(p),
                _ => {}
            }
            held += usize::from(opened.file().is_some() || opened.len.is_none());
            Ok(opened)
        })
        .collect()
}

/// Descriptors kept for the rest of the run whatever the limit: the
/// archive and its companions, the workers' lookup connections, the
/// standard streams, the file being read.
const RESERVED_FILES: u64 = 32;

/// How many inputs [`open_inputs`] holds open: [`input::HELD_OPEN`], or
/// fewer under a low limit on open files (`ulimit -n 40`), so that what the
/// run itself opens later still fits: half of what the limit leaves past
/// [`RESERVED_FILES`].
fn held_open() -> usize {
    let limit = open_file_limit().unwrap_or(1024);
    let spare = limit.saturating_sub(RESERVED_FILES) / 2;
    usize::try_from(spare).map_or(input::HELD_OPEN, |n| n.min(input::HELD_OPEN))
}

/// The process's (soft) limit on open files, where the system has one.
#[cfg(target_os = "linux")]
fn open_file_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit struct, ours, and reads nothing.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0;
    (ok && lim.rlim_cur != libc::RLIM_INFINITY).then_some(lim.rlim_cur)
}

#[cfg(not(target_os = "linux"))]
fn open_file_limit() -> Option<u64> {
    None
}

/// Sends every input's chunks in order; returns false if it stopped early
/// because `stop` was raised.
fn read_all(
    inputs: Vec<Input>,
    opened: Vec<Opened>,
    tx: Sender<Read>,
    stop: Option<Arc<AtomicBool>>,
) -> bool {
    for (index, (inp, handle)) in inputs.iter().zip(opened).enumerate() {
        if raised(&stop) {
            return false;
        }
        // False once the run is gone: nothing more to send.
        let mark = |mark| tx.send(Read::Mark { input: index, mark }).is_ok();
        let len = handle.len;
        // A pipe's lines, once read, are handed on even after a stop.
        let fed = len.is_none();
        let (mut reader, tally) = match input::reader(handle, &inp.framing, stop.clone()) {
            Ok(r) => r,
            Err(error) => {
                mark(Mark::Failed(error));
                return true;
            }
        };
        if !mark(Mark::Begin { len }) {
            return true;
        }
        loop {
            if raised(&stop) && !fed {
                return false;
            }
            match reader.next_chunk() {
                Ok(Some(chunk)) => {
                    if tx
                        .send(Read::Chunk {
                            input: index,
                            chunk,
                        })
                        .is_err()
                    {
                        return true;
                    }
                }
                Ok(None) => {
                    if !mark(Mark::End {
                        content: tally.content(),
                    }) {
                        return true;
                    }
                    break;
                }
                // A quiet pipe: its lines so far are handed on; after a
                // stop, every line it gave is.
                Err(error) if feed::is_stall(&error) => {
                    if raised(&stop) {
                        return false;
                    }
                }
                Err(error) => {
                    mark(Mark::Failed(error));
                    return true;
                }
            }
        }
    }
    true
}

/// The fewest items a worker takes from a chunk of `len` at a time: 64
/// for a full chunk, where a line costs microseconds and fewer would cost
/// more in scheduling than they gain, but down to one for a small chunk, so
/// that a file of a few slow lines still uses every core (some eight
/// pieces a thread, for the fast ones to take over from the slow).
fn min_len(len: usize, threads: usize) -> usize {
    (len / (8 * threads.max(1))).clamp(1, 64)
}

/// A chunk's outcomes, on the pool: looked up in the archive first when
/// most of its sampled lines are stored there.
fn process_chunk(
    chunk: Chunk,
    input: usize,
    threads: usize,
    settings: Settings,
    stored: Option<&dyn Stored>,
) -> Processed {
    let stored = stored.filter(|s| mostly_stored(&chunk, settings, *s));
    let outcomes = chunk
        .items
        .par_iter()
        .with_min_len(min_len(chunk.items.len(), threads))
        .map(|item| process::process(&chunk, item, settings, stored))
        .collect();
    Processed {
        input,
        chunk,
        outcomes,
    }
}

/// Hands the files' results to the sink, and each written chunk to the
/// thread that frees it.
struct Files<'s, S> {
    inputs: &'s [Input],
    sink: &'s mut S,
    free: Sender<Processed>,
}

impl<S: Sink> engine::Take<Done> for Files<'_, S> {
    type Error = S::Error;

    fn take(&mut self, done: Done) -> Result<(), RunError<S::Error>> {
        let inputs = self.inputs;
        match done {
            Done::Chunk(p) => {
                self.sink.write(inputs, &p).map_err(RunError::Sink)?;
                // The thread is gone only if it panicked: free here then.
                let _ = self.free.send(p);
                Ok(())
            }
            Done::Mark { input, mark } => match mark {
                Mark::Begin { len } => self
                    .sink
                    .begin_input(input, &inputs[input], len)
                    .map_err(RunError::Sink),
                Mark::End { content } => self
                    .sink
                    .end_input(input, &inputs[input], content)
                    .map_err(RunError::Sink),
                Mark::Failed(error) => Err(RunError::Read {
                    file: inputs[input].name(),
                    error,
                }),
            },
        }
    }

    fn deadline(&self) -> Option<Instant> {
        self.sink.deadline()
    }

    fn idle(&mut self) -> Result<(), S::Error> {
        self.sink.idle()
    }
}

/// Runs the whole pipeline over `inputs`, feeding `sink` in input order;
/// `opened` holds their handles from [`open_inputs`], in the same order.
pub fn run<S: Sink>(
    inputs: &[Input],
    opened: Vec<Opened>,
    opts: &Options,
    sink: &mut S,
) -> Result<Ended, RunError<S::Error>> {
    let owned = inputs.to_vec();
    let settings = opts.settings;
    let stored = opts.stored.clone();
    let stop = opts.stop.clone();
    // Lines read from a pipe cannot be read again: after a stop, those the
    // reader has read are still written (it stops taking more at once).
    let drain = opened.iter().any(|o| o.len.is_none());
    let shape = engine::Shape {
        workers: workers(opts.jobs),
        stop: opts.stop.clone(),
        drain,
    };
    let read = move |tx: Sender<Read>| read_all(owned, opened, tx, stop);
    let work = move |unit: Read, threads: usize| match unit {
        Read::Mark { input, mark } => Done::Mark { input, mark },
        Read::Chunk { input, chunk } => Done::Chunk(process_chunk(
            chunk,
            input,
            threads,
            settings,
            stored.as_deref(),
        )),
    };
    // Written chunks are freed on a thread of their own: a chunk is some
    // 40,000 allocations made by the workers, and freeing them was 3-6% of
    // the sink's time, on the thread every line waits for.
    let (free_tx, free_rx) = bounded::<Processed>(4);
    thread::scope(|s| {
        s.spawn(move || free_rx.into_iter().for_each(drop));
        // Owned by the taker, so dropped when the run returns: the freeing
        // thread then ends, and the scope can join it.
        let mut files = Files {
            inputs,
            sink,
            free: free_tx,
        };
        engine::drive(shape, read, work, &mut files)
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::engine::{Take, Wait, next_or_idle};
    use super::*;
    use crate::core::puzzle::PuzzleType;
    use crate::input::ChunkReader;
    use crate::input::text::TextReader;
    use crate::record::Canonical;

    /// An archive that knows some givens, and counts how often it is asked.
    #[derive(Default)]
    struct Archive {
        ids: HashMap<String, i64>,
        asked: AtomicUsize,
    }

    impl Stored for Archive {
        fn find(
            &self,
            kind: PuzzleType,
            givens: &str,
            key: i64,
        ) -> Option<(i64, Option<Canonical>)> {
            self.asked.fetch_add(1, Ordering::Relaxed);
            assert_eq!(
                (kind, key),
                (
                    PuzzleType::Sudoku,
                    crate::record::key_of(kind.as_str(), givens)
                )
            );
            self.ids.get(givens).map(|&id| (id, None))
        }
    }

    fn outcomes(text: &str, archive: &Archive) -> Vec<Outcome> {
        let mut reader = TextReader::new(Box::new(std::io::Cursor::new(text.to_owned())));
        let chunk = reader.next_chunk().unwrap().unwrap();
        let settings = Settings::default();
        let stored = Some(archive as &dyn Stored).filter(|s| mostly_stored(&chunk, settings, *s));
        chunk
            .items
            .iter()
            .map(|item| process::process(&chunk, item, settings, stored))
            .collect()
    }

    fn top1465() -> Vec<&'static str> {
        crate::core::sudoku::corpus::puzzles(include_str!("../../tests/data/classic/top1465.txt"))
            .map(|(p, _)| p)
            .collect()
    }

    #[test]
    fn lines_the_archive_holds_are_known_without_being_analysed() {
        let top = top1465();
        // Stored under their identities: digits, 0 for an empty cell.
        let identity = |p: &str| p.replace('.', "0");
        let archive = Archive {
            ids: HashMap::from([
                (identity(top[0]), 7),
                (identity(top[1]), 8),
                (identity(top[2]), 9),
            ]),
            ..Archive::default()
        };
        // The corpus writes empty cells as dots; line 4 spells them 0.
        let text = format!(
            "# comment\n{}\n{} trailing text\n{}\n{}\nnot a puzzle\n",
            top[0],
            top[1],
            identity(top[2]),
            top[3]
        );
        let got = outcomes(&text, &archive);
        let known: Vec<Option<i64>> = got
            .iter()
            .map(|o| match o {
                Outcome::Known(k) => Some(k.id),
                _ => None,
            })
            .collect();
        assert_eq!(known, [None, Some(7), Some(8), Some(9), None, None]);
        assert_eq!(got[0], Outcome::Skipped);
        assert!(
            matches!(&got[4], Outcome::Accepted(r) if r.givens() == identity(top[3])),
            "{:?}",
            got[4]
        );
        assert!(
            matches!(&got[5], Outcome::Rejected(r) if r.code == "format"),
            "{:?}",
            got[5]
        );
        match &got[3] {
            Outcome::Known(k) => assert_eq!(k.givens, identity(top[2])),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn new_puzzles_are_looked_up_only_as_a_sample() {
        let top = top1465();
        let archive = Archive::default();
        let text: String = top[..100].iter().map(|p| format!("{p}\n")).collect();
        let got = outcomes(&text, &archive);
        assert!(got.iter().all(|o| matches!(o, Outcome::Accepted(_))));
        assert_eq!(archive.asked.load(Ordering::Relaxed), SAMPLE);
    }

    #[test]
    fn a_small_chunk_is_split_to_single_lines_and_a_full_one_is_not() {
        for (len, threads, want) in [
            (10, 2, 1),
            (20, 2, 1),
            (100, 2, 6),
            (8192, 2, 64),
            (8192, 64, 16),
            (0, 0, 1),
        ] {
            assert_eq!(min_len(len, threads), want, "{len} {threads}");
        }
    }

    /// Records when it was told it is idle, and clears its deadline then,
    /// as the writer's commit does.
    struct Batch {
        deadline: Option<Instant>,
        idle: Vec<Instant>,
    }

    impl Take<u32> for Batch {
        type Error = std::io::Error;
        fn take(&mut self, _: u32) -> Result<(), RunError<std::io::Error>> {
            Ok(())
        }
        fn deadline(&self) -> Option<Instant> {
            self.deadline
        }
        fn idle(&mut self) -> std::io::Result<()> {
            self.idle.push(Instant::now());
            self.deadline = None;
            Ok(())
        }
    }

    fn got<T>(w: Wait<T>) -> Option<T> {
        match w {
            Wait::Got(t) => Some(t),
            Wait::Closed => None,
            Wait::Stopped => panic!("no stop flag was raised"),
        }
    }

    #[test]
    fn a_raised_stop_flag_ends_a_wait_on_a_silent_channel() {
        let mut sink = Batch {
            deadline: None,
            idle: Vec::new(),
        };
        let (_tx, rx) = bounded::<u32>(1);
        let stop = Some(Arc::new(AtomicBool::new(false)));
        let flag = stop.clone();
        let raise = thread::spawn(move || {
            thread::sleep(std::time::Duration::from_millis(150));
            flag.iter().for_each(|f| f.store(true, Ordering::SeqCst));
        });
        assert!(matches!(
            next_or_idle(&rx, &mut sink, &stop).unwrap(),
            Wait::Stopped
        ));
        raise.join().unwrap();
    }

    #[test]
    fn a_late_message_makes_the_sink_idle_at_its_deadline_and_is_still_received() {
        let start = Instant::now();
        let deadline = start + std::time::Duration::from_millis(50);
        let mut sink = Batch {
            deadline: Some(deadline),
            idle: Vec::new(),
        };
        let (tx, rx) = bounded::<u32>(1);
        let late = thread::spawn(move || {
            thread::sleep(std::time::Duration::from_millis(300));
            tx.send(7).unwrap();
        });
        assert_eq!(got(next_or_idle(&rx, &mut sink, &None).unwrap()), Some(7));
        late.join().unwrap();
        assert_eq!(sink.idle.len(), 1);
        assert!(sink.idle[0] >= deadline);
        // A message already there: no idle call, however near the deadline.
        let (tx, rx) = bounded::<u32>(1);
        tx.send(8).unwrap();
        sink.deadline = Some(Instant::now());
        assert_eq!(got(next_or_idle(&rx, &mut sink, &None).unwrap()), Some(8));
        assert_eq!(sink.idle.len(), 1);
        // Senders gone: none, without waiting for the deadline.
        drop(tx);
        sink.deadline = Some(Instant::now() + std::time::Duration::from_secs(60));
        assert_eq!(got(next_or_idle(&rx, &mut sink, &None).unwrap()), None);
        assert_eq!(sink.idle.len(), 1);
    }
}
