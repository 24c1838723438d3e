//! Setti's rule (4.5): the white cells holding a digit lie in as many rows
//! as columns, one a line. Per digit, a line is sure (holds it, or a
//! compartment of it needs it), out (no cell of it can) or open. When the
//! rows allow exactly the count the columns demand (or the other way
//! round), the open lines of that side all hold the digit, or none does.

use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::Str8tsMarks;
use super::marks::line_name;
use super::straight::{fitting_lows, needed};

pub struct Setti;

/// A digit's lines on one side: how many are sure, and the open ones.
struct Side {
    sure: u32,
    open: Vec<usize>,
}

/// Per line (rows 0..9, columns 9..18), the digits placed in its white
/// cells or needed by one of its compartments: the lines sure to hold them.
fn sure_digits(p: &Str8tsMarks) -> [u16; 18] {
    let mut sure = [0u16; 18];
    for run in p.runs() {
        let line = run.line_index();
        sure[line] |= needed(fitting_lows(&p.masks(run), 0), run.cells.len());
        for &c in &run.cells {
            if let d @ 1..=9 = p.value(usize::from(c)) {
                sure[line] |= 1 << (d - 1);
            }
        }
    }
    sure
}

fn side(p: &Str8tsMarks, sure: &[u16; 18], d: u8, lines: std::ops::Range<usize>) -> Side {
    let b = 1u16 << (d - 1);
    let mut s = Side {
        sure: 0,
        open: Vec::new(),
    };
    for line in lines {
        if sure[line] & b != 0 {
            s.sure += 1;
        } else if Str8tsMarks::line(line)
            .iter()
            .any(|&c| p.cands(usize::from(c)) & b != 0)
        {
            s.open.push(line);
        }
    }
    s
}

impl Technique<Str8tsMarks> for Setti {
    fn name(&self) -> &'static str {
        "Setti's Rule"
    }

    fn find(&self, p: &Str8tsMarks, _work: &mut Work) -> Option<Step> {
        let sure = sure_digits(p);
        for d in 1..=9u8 {
            let b = 1u16 << (d - 1);
            let rows = side(p, &sure, d, 0..9);
            let cols = side(p, &sure, d, 9..18);
            for (this, that, word, other) in [
                (&rows, &cols, "rows", "columns"),
                (&cols, &rows, "columns", "rows"),
            ] {
                if this.open.is_empty() {
                    continue;
                }
                let most = that.sure + that.open.len() as u32;
                if most == this.sure {
                    // The other side allows no more than this side's sure
                    // lines: the open ones hold no `d`.
                    let eliminate: Vec<(u8, u8)> = this
                        .open
                        .iter()
                        .flat_map(|&l| Str8tsMarks::line(l))
                        .filter(|&c| p.cands(usize::from(c)) & b != 0)
                        .map(|c| (c, d))
                        .collect();
                    return Some(Step {
                        technique: "Setti's Rule",
                        rating: 45,
                        cells: eliminate.iter().map(|e| e.0).collect(),
                        place: None,
                        eliminate,
                        reason: format!(
                            "Setti's rule: {d} sits in as many rows as columns; at most {most} {other} can hold it and {} {word} must",
                            this.sure
                        ),
                    });
                }
                if that.sure == this.sure + this.open.len() as u32 {
                    // Every open line of this side must hold `d`: one with
                    // a single place for it takes it there.
                    for &l in &this.open {
                        let mut at = Str8tsMarks::line(l)
                            .into_iter()
                            .filter(|&c| p.cands(usize::from(c)) & b != 0);
                        if let (Some(c), None) = (at.next(), at.next()) {
                            return Some(Step {
                                technique: "Setti's Rule",
                                rating: 45,
                                cells: vec![c],
                                place: Some((c, d)),
                                eliminate: Vec::new(),
                                reason: format!(
                                    "Setti's rule: {d} sits in as many rows as columns; {} {other} must hold it, so every {} that can does, and {} has one place for it",
                                    that.sure,
                                    &word[..word.len() - 1],
                                    line_name(l)
                                ),
                            });
                        }
                    }
                }
            }
        }
        None
    }
}
