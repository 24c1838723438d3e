//! A pass over items that are not lines: a [`Source`] of chunks in order
//! (the stored puzzles of an archive, by id), one pure function per item
//! on the workers, and a [`Writer`] that takes the results in order on the
//! calling thread. The same threads, queues, stop flag and idle deadline
//! as an import ([`super::engine`]); nothing here knows SQL or a column.

use std::time::Instant;

use crossbeam_channel::Sender;
use rayon::prelude::*;

use super::engine::{self, Shape, raised};
use super::{Ended, RunError, min_len, workers};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Chunks of items, in order, read on a thread of their own.
pub trait Source: Send + 'static {
    type Item: Send + Sync + 'static;
    type Error: std::error::Error + Send + Sync + 'static;
    /// The next items; `None` at the end.
    fn next_chunk(&mut self) -> Result<Option<Vec<Self::Item>>, Self::Error>;
}

/// Where the results go, in order, on the calling thread.
pub trait Writer<I, O> {
    type Error: std::error::Error + Send + Sync + 'static;
    /// The next chunk's items and what the work gave for each.
    fn write(&mut self, items: &[I], outs: &[O]) -> Result<(), Self::Error>;
    /// When [`Writer::idle`] is due if no chunk has come by then.
    fn deadline(&self) -> Option<Instant> {
        None
    }
    /// The deadline passed while waiting for the next chunk.
    fn idle(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// How a pass runs: worker threads (0: one per core) and the stop flag.
#[derive(Clone, Default)]
pub struct Options {
    pub jobs: usize,
    pub stop: Option<Arc<AtomicBool>>,
}

type Unit<I, E> = Result<Vec<I>, E>;

struct Taken<'w, W, I, O> {
    writer: &'w mut W,
    _items: std::marker::PhantomData<(I, O)>,
}

impl<W, I, O, E> engine::Take<Result<(Vec<I>, Vec<O>), E>> for Taken<'_, W, I, O>
where
    W: Writer<I, O>,
    W::Error: From<E>,
{
    type Error = W::Error;

    fn take(&mut self, done: Result<(Vec<I>, Vec<O>), E>) -> Result<(), RunError<W::Error>> {
        let (items, outs) = done.map_err(|e| RunError::Sink(e.into()))?;
        self.writer.write(&items, &outs).map_err(RunError::Sink)
    }

    fn deadline(&self) -> Option<Instant> {
        self.writer.deadline()
    }

    fn idle(&mut self) -> Result<(), W::Error> {
        self.writer.idle()
    }
}

/// Runs `work` over every item of `source` on the workers, handing the
/// results to `writer` in order. A failure to read ends the run with the
/// source's error, as the writer's.
pub fn run<S, O, W>(
    source: S,
    work: impl Fn(&S::Item) -> O + Send + Sync + 'static,
    opts: &Options,
    writer: &mut W,
) -> Result<Ended, RunError<W::Error>>
where
    S: Source,
    O: Send + 'static,
    W: Writer<S::Item, O>,
    W::Error: From<S::Error>,
{
    let stop = opts.stop.clone();
    let read = move |tx: Sender<Unit<S::Item, S::Error>>| read_all(source, tx, stop);
    let work = move |unit: Unit<S::Item, S::Error>, threads: usize| {
        unit.map(|items| {
            let outs = items
                .par_iter()
                .with_min_len(min_len(items.len(), threads))
                .map(&work)
                .collect();
            (items, outs)
        })
    };
    let shape = Shape {
        workers: workers(opts.jobs),
        stop: opts.stop.clone(),
        drain: false,
    };
    let mut taken = Taken {
        writer,
        _items: std::marker::PhantomData,
    };
    engine::drive(shape, read, work, &mut taken)
}

/// Sends the source's chunks in order; returns false if it stopped early
/// for the stop flag. An error is sent on, and ends the reading.
fn read_all<S: Source>(
    mut source: S,
    tx: Sender<Unit<S::Item, S::Error>>,
    stop: Option<Arc<AtomicBool>>,
) -> bool {
    loop {
        if raised(&stop) {
            return false;
        }
        match source.next_chunk() {
            Ok(Some(items)) => {
                if tx.send(Ok(items)).is_err() {
                    return true;
                }
            }
            Ok(None) => return true,
            Err(e) => {
                let _ = tx.send(Err(e));
                return true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers 1..=n in chunks of 7.
    struct Numbers {
        next: u64,
        last: u64,
    }

    impl Source for Numbers {
        type Item = u64;
        type Error = std::io::Error;
        fn next_chunk(&mut self) -> std::io::Result<Option<Vec<u64>>> {
            if self.next > self.last {
                return Ok(None);
            }
            let end = (self.next + 7).min(self.last + 1);
            let chunk = (self.next..end).collect();
            self.next = end;
            Ok(Some(chunk))
        }
    }

    #[derive(Default)]
    struct Collect(Vec<(u64, u64)>);

    impl Writer<u64, u64> for Collect {
        type Error = std::io::Error;
        fn write(&mut self, items: &[u64], outs: &[u64]) -> std::io::Result<()> {
            self.0
                .extend(items.iter().copied().zip(outs.iter().copied()));
            Ok(())
        }
    }

    #[test]
    fn every_item_comes_back_in_order_with_its_result_whatever_the_workers() {
        for jobs in [1, 2, 0] {
            let mut out = Collect::default();
            let ended = run(
                Numbers {
                    next: 1,
                    last: 1000,
                },
                |n: &u64| n * n,
                &Options { jobs, stop: None },
                &mut out,
            )
            .unwrap();
            assert_eq!(ended, Ended::Complete);
            let want: Vec<(u64, u64)> = (1..=1000).map(|n| (n, n * n)).collect();
            assert_eq!(out.0, want, "jobs {jobs}");
        }
    }

    #[test]
    fn a_raised_stop_flag_ends_the_pass_with_a_prefix() {
        let stop = Arc::new(AtomicBool::new(true));
        let mut out = Collect::default();
        let ended = run(
            Numbers {
                next: 1,
                last: 1000,
            },
            |n: &u64| *n,
            &Options {
                jobs: 1,
                stop: Some(stop),
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(ended, Ended::Stopped);
        assert!(out.0.iter().map(|p| p.0).eq(1..=out.0.len() as u64));
    }
}
