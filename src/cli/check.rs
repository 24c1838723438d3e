//! `sudoku-archive check`: the import pipeline without an archive. Prints
//! `file:line: reason` for every rejected line; exit status 1 if any. At
//! the end it says, on stderr, how each file was read (its layout) and
//! warns of a file whose every record was rejected, as `import` does. A
//! closed standard output ends the check quietly (status 0); SIGINT or
//! SIGTERM ends it quietly with 130 or 143.

use clap::Args;

use super::import::{FileLayout, all_rejected, layout_lines, note_layout};
use super::output::{Out, OutputError, note};
use super::signals::{Interrupt, Signal};
use super::{EXIT_REJECTS, InputArgs, thousands};
use crate::archive::writer::Counts;
use crate::pipeline::{self, Ended, Input, Options, Outcome, Processed, RunError, Sink};
use crate::progress::Progress;

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
}

struct Report {
    /// Per input: its lines' fates, and how it was read.
    files: Vec<Counts>,
    layouts: Vec<Option<String>>,
    lines: u64,
    accepted: u64,
    rejected: u64,
    skipped: u64,
    progress: Progress,
    /// Size of the input being read, added to the bar's base when it ends.
    current_len: u64,
    out: Out,
}

impl Sink for Report {
    type Error = OutputError;

    fn begin_input(
        &mut self,
        index: usize,
        _input: &Input,
        len: Option<u64>,
    ) -> Result<(), OutputError> {
        if index > 0 {
            self.progress.input_done(self.current_len);
        }
        self.current_len = len.unwrap_or(0);
        Ok(())
    }

    fn write(&mut self, inputs: &[Input], p: &Processed) -> Result<(), OutputError> {
        let name = inputs.get(p.input).map(Input::name).unwrap_or_default();
        note_layout(&mut self.layouts, p);
        if self.files.len() <= p.input {
            self.files.resize(p.input + 1, Counts::default());
        }
        let file = &mut self.files[p.input];
        for (item, outcome) in p.chunk.items.iter().zip(&p.outcomes) {
            self.lines += 1;
            file.lines += 1;
            match outcome {
                Outcome::Skipped => {
                    self.skipped += 1;
                    file.skipped += 1;
                }
                // `check` has no archive to know puzzles from.
                Outcome::Accepted(_) | Outcome::Known(_) => {
                    self.accepted += 1;
                    file.stored += 1;
                }
                Outcome::Rejected(r) => {
                    self.rejected += 1;
                    file.rejected += 1;
                    writeln!(self.out, "{name}:{}: {}", item.line, r.message)?;
                }
            }
        }
        // A chunk's rejects at once, as they are found.
        self.out.flush()?;
        self.progress
            .update(p.chunk.offset, self.lines, self.accepted);
        Ok(())
    }
}

pub fn run(a: CheckArgs) -> anyhow::Result<u8> {
    // First, so that a signal also ends a wait while opening the inputs
    // (a named pipe no writer opened), as import's does.
    let interrupt = Interrupt::install();
    // No archive: nothing to leave out.
    let (inputs, opened, unreadable) = match super::open_inputs(&a.input, &[]) {
        Ok(o) => o,
        Err(e) => return interrupt.stopped_instead("check", "checked", e),
    };
    let mut report = Report {
        files: Vec::new(),
        layouts: Vec::new(),
        lines: 0,
        accepted: 0,
        rejected: 0,
        skipped: 0,
        progress: Progress::new(InputArgs::total_bytes(&opened), a.input.quiet),
        current_len: 0,
        out: Out::stdout(),
    };
    let opts = Options {
        settings: crate::pipeline::Settings {
            hint: a.input.kind.hint(),
            canonical: false,
        },
        jobs: a.input.workers(a.input.quiet),
        stored: None,
        stop: Some(interrupt.flag()),
    };
    let result = pipeline::run(&inputs, opened, &opts, &mut report);
    report.progress.finish();
    match result {
        Ok(Ended::Complete) => {}
        Ok(Ended::Stopped) => {
            return Ok(interrupt.signal().unwrap_or(Signal::Int).exit_status());
        }
        // `check | head`: the reader has seen what it wanted.
        Err(RunError::Sink(OutputError::Closed)) => return Ok(0),
        Err(e) => return Err(e.into()),
    }
    let layouts: Vec<FileLayout> = inputs
        .iter()
        .zip(report.layouts.iter().chain(std::iter::repeat(&None)))
        .filter_map(|(i, l)| {
            Some(FileLayout {
                file: i.name(),
                layout: l.clone()?,
            })
        })
        .collect();
    for l in layout_lines(&layouts) {
        note!("read as: {l}");
    }
    for (i, input) in inputs.iter().enumerate() {
        let layout = report.layouts.get(i).cloned().flatten();
        if let Some(c) = report.files.get(i)
            && let Some(w) = all_rejected(a.input.kind, input, c, layout.as_deref())
        {
            note!("{w}");
        }
    }
    note!(
        "{}: {} valid, {} rejected, {} skipped{}",
        super::output::count_of(report.lines, "line", "lines"),
        thousands(report.accepted),
        thousands(report.rejected),
        thousands(report.skipped),
        match unreadable {
            0 => String::new(),
            n => format!("; {} folder entries could not be read", thousands(n as u64)),
        }
    );
    Ok(if report.rejected > 0 || unreadable > 0 {
        EXIT_REJECTS
    } else {
        0
    })
}
