//! `sudoku-archive explain`: the logical solution of one classic puzzle,
//! step by step as a person would read it, each step with its rating on
//! Sudoku Explainer's scale, then ER/EP/ED. The solving and rating are
//! `core::logic`'s; this file only reads the argument and prints.

use std::fmt::Write as _;

use clap::Args;

use super::TypeArg;
use super::output::Out;
use crate::core::grid::CELLS;
use crate::core::logic::{self, Budget, Outcome, Rating, tenths};
use crate::core::puzzle::{self, PuzzleType, Solutions};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A classic Sudoku string in any supported format, or a solver URL.
    pub string: String,
    /// The puzzle type, or auto to recognise it (only classic Sudoku is rated so far).
    #[arg(long = "type", value_enum, default_value = "auto")]
    pub kind: TypeArg,
}

pub fn run(a: ExplainArgs) -> anyhow::Result<u8> {
    let analysis = puzzle::analyse(a.string.trim(), a.kind.hint())?;
    if analysis.kind != PuzzleType::Sudoku {
        anyhow::bail!(
            "explain: only classic Sudoku has a logical solver so far, this is {}",
            analysis.kind
        );
    }
    // The givens alone: pencil marks a packed string may carry are not a
    // step anybody took.
    let mut givens = [0u8; CELLS];
    for (c, g) in givens.iter_mut().enumerate() {
        if analysis.given[c] {
            *g = analysis.candidates[c].single().map_or(0, |d| d.get());
        }
    }
    let text = render(&givens, &analysis.status);
    let mut out = Out::stdout();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}

/// The numbered steps and the closing line with the ratings.
pub fn render(givens: &[u8; CELLS], status: &puzzle::Status) -> String {
    let sol = logic::solve(givens, Budget::default());
    let mut s = String::new();
    for (n, step) in sol.steps.iter().enumerate() {
        let _ = writeln!(s, "{:>3}. [{}] {step}", n + 1, tenths(step.rating));
    }
    let n = sol.steps.len();
    let end = match sol.outcome {
        Outcome::Solved => format!("solved in {n} steps"),
        Outcome::Stuck => format!(
            "stuck after {n} steps: no technique here applies; Sudoku Explainer would go on with one rated {} or more",
            tenths(logic::lowest_missing())
        ),
        Outcome::OverBudget => format!("stopped after {n} steps: the budget ran out"),
        Outcome::Invalid if matches!(status, Solutions::Unsolvable) => {
            "the puzzle has no solution".to_string()
        }
        Outcome::Invalid => format!("no solution after {n} steps"),
    };
    let multiple = if matches!(status, Solutions::Multiple) {
        " (the puzzle has more than one solution: SE does not rate it)"
    } else {
        ""
    };
    let _ = writeln!(s, "{}; {end}{multiple}", ratings(&sol.rating));
    s
}

/// `ER 2.6, EP 1.2, ED 1.2`, with "at least" on a bound.
fn ratings(r: &Rating) -> String {
    let at_least = |b: bool| if b { "at least " } else { "" };
    format!(
        "ER {}{}, EP {}{}, ED {}{}",
        at_least(r.bound),
        tenths(r.er),
        at_least(r.ep_bound),
        tenths(r.ep),
        at_least(r.ed_bound),
        tenths(r.ed)
    )
}
