//! `sudoku-archive show`: one puzzle string, decoded and drawn.

use clap::{Args, ValueEnum};

use super::TypeArg;
use super::output::Out;
use crate::core::puzzle::{self, Analysis, PuzzleType, Status};

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
}

pub fn run(a: ShowArgs) -> anyhow::Result<u8> {
    let analysis = puzzle::analyse(a.string.trim(), a.kind.hint())?;
    let text = match a.form {
        ShowForm::Grid => render(&analysis),
        ShowForm::VersionB => puzzle::version_b_of(&analysis)? + "\n",
    };
    let mut out = Out::stdout();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}

/// The grid after propagation: each cell as a 3x3 block of its candidates,
/// givens marked with `*`, Str8ts black cells shaded, Killer cages numbered.
pub fn render(a: &Analysis) -> String {
    let mut s = String::new();
    let bar = "+-------+-------+-------+-------+-------+-------+-------+-------+-------+\n";
    for row in 0..9 {
        s.push_str(bar);
        for sub in 0..3 {
            s.push('|');
            for col in 0..9 {
                let cell = row * 9 + col;
                let m = a.candidates[cell];
                let black = a.kind == PuzzleType::Str8ts && a.shading[cell] == 1;
                let text = match (m.single(), sub) {
                    (Some(d), 1) if a.given[cell] => format!("  *{d}*  "),
                    (Some(d), 1) => format!("   {d}   "),
                    (Some(_), _) => "       ".to_string(),
                    (None, _) if black => " ##### ".to_string(),
                    (None, _) => {
                        let mut t = String::from(" ");
                        for k in 0..3u8 {
                            let d = sub as u8 * 3 + k + 1;
                            let has =
                                crate::core::mask::Digit::new(d).is_some_and(|d| m.contains(d));
                            t.push(if has { (b'0' + d) as char } else { '.' });
                            t.push(' ');
                        }
                        t
                    }
                };
                let text = if black && m.single().is_some() && sub != 1 {
                    " ##### ".to_string()
                } else {
                    text
                };
                s.push_str(&text);
                s.push('|');
            }
            s.push('\n');
        }
    }
    s.push_str(bar);
    if a.kind == PuzzleType::Killer {
        s.push_str("cages by cell:\n");
        for row in 0..9 {
            let line: Vec<String> = (0..9)
                .map(|c| format!("{:>3}", a.shading[row * 9 + c]))
                .collect();
            s.push_str(&line.join(""));
            s.push('\n');
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
    s
}
