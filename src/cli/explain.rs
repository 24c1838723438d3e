//! `sudoku-archive explain`: the logical solution of one puzzle, step by
//! step as a person would read it, each step with its rating (classic on
//! Sudoku Explainer's scale, then ER/EP/ED; Killer and Str8ts on this
//! project's own, then their rating). The solving and rating are `core::logic`'s; this file
//! only reads the argument and prints.

use std::fmt::Write as _;

use clap::Args;

use super::TypeArg;
use super::output::Out;
use crate::core::grid::CELLS;
use crate::core::logic::{self, Budget, Outcome, Rating, Step, tenths};
use crate::core::puzzle::{self, PuzzleType, Solutions};
use crate::core::str8ts::Str8ts;

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A classic Sudoku, Killer or Str8ts string in any supported format, or a solver URL.
    pub string: String,
    /// The puzzle type, or auto to recognise it.
    #[arg(long = "type", value_enum, default_value = "auto")]
    pub kind: TypeArg,
}

pub fn run(a: ExplainArgs) -> anyhow::Result<u8> {
    let analysis = puzzle::analyse(a.string.trim(), a.kind.hint())?;
    if analysis.kind == PuzzleType::Str8ts {
        return print(&render_str8ts(&analysis)?);
    }
    // The givens alone: pencil marks a packed string may carry are not a
    // step anybody took.
    let mut givens = [0u8; CELLS];
    for (c, g) in givens.iter_mut().enumerate() {
        if analysis.given[c] {
            *g = analysis.candidates[c].single().map_or(0, |d| d.get());
        }
    }
    match analysis.kind {
        PuzzleType::Killer => print(&render_killer(&analysis, &givens)),
        _ => print(&render(&givens, &analysis.status)),
    }
}

fn print(text: &str) -> anyhow::Result<u8> {
    let mut out = Out::stdout();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}

/// A Str8ts's numbered steps and the closing line with its rating, from
/// its givens and colours (the analysis's legacy form).
pub fn render_str8ts(analysis: &puzzle::Analysis) -> anyhow::Result<String> {
    let board = Str8ts::from_legacy(&analysis.givens)?;
    let sol = logic::str8ts::solve(&board, Budget::default());
    let stuck = format!(
        "; the next would rate {} or more",
        tenths(logic::str8ts::lowest_missing())
    );
    let (mut s, end) = steps_and_end(&sol.steps, sol.outcome, &analysis.status, &stuck);
    let multiple = if matches!(analysis.status, Solutions::Multiple) {
        " (the puzzle has more than one solution: it gets no rating)"
    } else {
        ""
    };
    let at_least = if sol.rating.bound { "at least " } else { "" };
    let _ = writeln!(
        s,
        "Str8ts rating {at_least}{}; {end}{multiple}",
        tenths(sol.rating.er)
    );
    Ok(s)
}

/// The numbered steps and the closing line with the ratings.
pub fn render(givens: &[u8; CELLS], status: &puzzle::Status) -> String {
    let sol = logic::solve(givens, Budget::default());
    let stuck = format!(
        "; Sudoku Explainer would go on with one rated {} or more",
        tenths(logic::lowest_missing())
    );
    let (mut s, end) = steps_and_end(&sol.steps, sol.outcome, status, &stuck);
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

/// The numbered steps, and how the solution ended in words (`stuck`: what
/// would come next).
fn steps_and_end(
    steps: &[Step],
    outcome: Outcome,
    status: &puzzle::Status,
    stuck: &str,
) -> (String, String) {
    let mut s = String::new();
    for (n, step) in steps.iter().enumerate() {
        let _ = writeln!(s, "{:>3}. [{}] {step}", n + 1, tenths(step.rating));
    }
    let n = steps.len();
    let end = match outcome {
        Outcome::Solved => format!("solved in {n} steps"),
        Outcome::Stuck => format!("stuck after {n} steps: no technique here applies{stuck}"),
        Outcome::OverBudget => format!("stopped after {n} steps: the budget ran out"),
        Outcome::Invalid if matches!(status, Solutions::Unsolvable) => {
            "the puzzle has no solution".to_string()
        }
        Outcome::Invalid => format!("no solution after {n} steps"),
    };
    (s, end)
}

/// A Killer's numbered steps and its rating (docs/difficulty.md "Killer"):
/// the cages are the analysis's (`shading` is each cell's cage number + 1,
/// the identity's sums sit at each cage's first cell).
fn render_killer(a: &puzzle::Analysis, givens: &[u8; CELLS]) -> String {
    let mut cage_of = [0u8; CELLS];
    let mut sums: Vec<u8> = Vec::new();
    let sum_digits = a.givens.as_bytes().get(CELLS + 1..CELLS + 1 + 2 * CELLS);
    for (c, k) in cage_of.iter_mut().enumerate() {
        *k = a.shading[c].saturating_sub(1);
        if usize::from(*k) == sums.len() {
            let sum = sum_digits
                .and_then(|s| std::str::from_utf8(&s[2 * c..2 * c + 2]).ok())
                .and_then(|t| t.parse().ok())
                .unwrap_or(0);
            sums.push(sum);
        }
    }
    let sol = logic::killer::solve_cages(&cage_of, &sums, givens, Budget::default());
    let (mut s, end) = steps_and_end(&sol.steps, sol.outcome, &a.status, "");
    let hardest = sol
        .steps
        .iter()
        .filter(|st| st.rating == sol.rating.er)
        .map(|st| format!(" (hardest: {})", st.technique))
        .next()
        .unwrap_or_default();
    let multiple = if matches!(a.status, Solutions::Multiple) {
        " (the puzzle has more than one solution: it is not rated)"
    } else {
        ""
    };
    let at_least = if sol.rating.bound { "at least " } else { "" };
    let _ = writeln!(
        s,
        "Killer rating {at_least}{}{hardest}; {end}{multiple}",
        tenths(sol.rating.er)
    );
    s
}
