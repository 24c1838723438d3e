//! `sudoku-archive check`: the import pipeline without an archive. Prints
//! `file:line: reason` for every rejected line; exit status 1 if any.

use std::convert::Infallible;
use std::io::Write;

use clap::Args;

use super::{EXIT_REJECTS, InputArgs, thousands};
use crate::pipeline::{self, Input, Options, Outcome, Processed, Sink};
use crate::progress::Progress;

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Default)]
struct Report {
    lines: u64,
    accepted: u64,
    rejected: u64,
    skipped: u64,
    progress: Option<Progress>,
}

impl Sink for Report {
    type Error = Infallible;

    fn begin_input(
        &mut self,
        _index: usize,
        _input: &Input,
        _len: Option<u64>,
    ) -> Result<(), Infallible> {
        Ok(())
    }

    fn write(&mut self, inputs: &[Input], p: &Processed) -> Result<(), Infallible> {
        let name = inputs.get(p.input).map(Input::name).unwrap_or_default();
        let mut out = std::io::stdout().lock();
        for (item, outcome) in p.chunk.items.iter().zip(&p.outcomes) {
            self.lines += 1;
            match outcome {
                Outcome::Skipped => self.skipped += 1,
                // `check` has no archive to know puzzles from.
                Outcome::Accepted(_) | Outcome::Known(_) => self.accepted += 1,
                Outcome::Rejected(r) => {
                    self.rejected += 1;
                    // A closed pipe (`| head`) is not an error worth reporting.
                    let _ = writeln!(out, "{name}:{}: {}", item.line, r.message);
                }
            }
        }
        if let Some(pr) = &self.progress {
            pr.update(p.chunk.offset, self.lines, 0.0);
        }
        Ok(())
    }
}

pub fn run(a: CheckArgs) -> anyhow::Result<u8> {
    // No archive: nothing to leave out.
    let (inputs, opened) = super::open_inputs(&a.input, &[])?;
    let mut report = Report {
        progress: Some(Progress::new(None, a.input.quiet)),
        ..Report::default()
    };
    let opts = Options {
        settings: crate::pipeline::Settings {
            hint: a.input.kind.hint(),
            canonical: false,
        },
        jobs: a.input.jobs,
        stored: None,
    };
    let result = pipeline::run(&inputs, opened, &opts, &mut report);
    if let Some(p) = &report.progress {
        p.finish();
    }
    result?;
    eprintln!(
        "{} lines: {} valid, {} rejected, {} skipped",
        thousands(report.lines),
        thousands(report.accepted),
        thousands(report.rejected),
        thousands(report.skipped)
    );
    Ok(if report.rejected > 0 { EXIT_REJECTS } else { 0 })
}
