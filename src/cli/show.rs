//! `sudoku-archive show`: one puzzle string, decoded and drawn: as printed
//! (givens, cages and sums, black cells), with its candidates or solution
//! on request, as text or as SVG. The drawing is `render`'s; this module
//! chooses what to draw and whether the terminal gets colour.

use std::io::IsTerminal;

use clap::{Args, ValueEnum};

use super::TypeArg;
use super::output::Out;
use crate::core::puzzle::{self, Analysis, Status};
use crate::render::text::{self, Layer};
use crate::render::{Layers, Picture, svg};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowForm {
    /// The drawn grid with the puzzle's strings and solution status.
    Grid,
    /// Only the Version B string of the analysed puzzle (S9B, L9B, T9B).
    #[value(name = "vb", alias = "version-b")]
    VersionB,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// A puzzle string in any supported format, or a solver URL.
    pub string: String,
    /// The puzzle type, or auto to recognise it.
    #[arg(long = "type", value_enum, default_value = "auto")]
    pub kind: TypeArg,
    /// What to print: the grid, or the puzzle as a Version B string.
    #[arg(long, value_enum, default_value = "grid")]
    pub form: ShowForm,
    /// Also draw every cell's candidates after propagation.
    #[arg(long)]
    pub candidates: bool,
    /// Also draw the solution, when there is exactly one.
    #[arg(long)]
    pub solution: bool,
    /// Print the puzzle as an SVG image instead (with the candidates or
    /// the solution drawn in when asked for).
    #[arg(long, conflicts_with = "form")]
    pub svg: bool,
}

pub fn run(a: ShowArgs) -> anyhow::Result<u8> {
    let analysis = puzzle::analyse(a.string.trim(), a.kind.hint())?;
    let layers = Layers {
        candidates: a.candidates,
        solution: a.solution,
    };
    let text = if a.svg {
        let mut s = String::new();
        svg::svg(&Picture::from_analysis(&analysis, layers)?, &mut s);
        s + "\n"
    } else {
        match a.form {
            ShowForm::Grid => {
                // Colour for a person at a terminal only, and never against
                // their NO_COLOR (https://no-color.org).
                let colour =
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
                drawn(&analysis, layers, colour)?
            }
            ShowForm::VersionB => puzzle::version_b_of(&analysis)? + "\n",
        }
    };
    let mut out = Out::stdout();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}

/// The puzzle as printed, then the layers asked for, then its strings and
/// solution status.
pub fn drawn(
    a: &Analysis,
    layers: Layers,
    colour: bool,
) -> Result<String, crate::render::DrawError> {
    let p = Picture::from_analysis(a, layers)?;
    let mut s = String::new();
    text::grid(&p, Layer::Puzzle, colour, &mut s);
    if layers.candidates {
        s.push_str("candidates:\n");
        text::grid(&p, Layer::Candidates, colour, &mut s);
    }
    if layers.solution {
        if p.solution.is_some() {
            s.push_str("solution:\n");
            text::grid(&p, Layer::Solution, colour, &mut s);
        } else {
            s.push_str("solution: none to draw (not exactly one)\n");
        }
    }
    s.push_str(&format!("type:      {}\n", a.kind));
    s.push_str(&format!("clues:     {}\n", a.clues));
    s.push_str(&format!("givens:    {}\n", a.givens));
    s.push_str(&format!("encoding:  {}\n", a.encoding));
    let status = match &a.status {
        Status::Contradiction(why) => format!("no solution (contradiction: {why})"),
        Status::Unsolvable => "no solution".to_string(),
        Status::Unique(sol) => format!("unique: {sol}"),
        Status::Multiple => "two or more solutions".to_string(),
        Status::GaveUp => "unknown: the search limit was reached".to_string(),
    };
    s.push_str(&format!("solutions: {status}\n"));
    Ok(s)
}

/// What `show` prints for a puzzle by default, without colour (the
/// `sudoku_grid` SQL function of `sqlite-ext` too).
pub fn render(a: &Analysis) -> String {
    drawn(a, Layers::default(), false).unwrap_or_else(|e| format!("{e}\n"))
}
