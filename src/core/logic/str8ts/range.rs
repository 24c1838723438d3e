//! Compartment range (1.2): the digits placed in a compartment bound its
//! straight. With lowest `lo` and highest `hi` placed in a run of `n`, the
//! straight lies within `hi - n + 1 ..= lo + n - 1`; the candidates outside
//! leave the run.

use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

use super::Str8tsMarks;
use super::straight::straight_name;

pub struct Range;

impl Technique<Str8tsMarks> for Range {
    fn name(&self) -> &'static str {
        "Compartment Range"
    }

    fn find(&self, p: &Str8tsMarks, _work: &mut Work) -> Option<Step> {
        for run in p.runs() {
            let n = run.cells.len() as u8;
            let placed: Vec<u8> = run
                .cells
                .iter()
                .map(|&c| p.value(usize::from(c)))
                .filter(|&v| v != 0)
                .collect();
            let (Some(&lo), Some(&hi)) = (placed.iter().min(), placed.iter().max()) else {
                continue;
            };
            let from = (hi + 1).saturating_sub(n).max(1);
            let to = (lo + n - 1).min(9);
            let window: u16 = (from..=to).fold(0, |m, d| m | 1 << (d - 1));
            let eliminate: Vec<(u8, u8)> = run
                .cells
                .iter()
                .flat_map(|&c| {
                    let out = p.cands(usize::from(c)) & !window;
                    super::digits(out).map(move |d| (c, d))
                })
                .collect();
            if eliminate.is_empty() {
                continue;
            }
            let holds = if lo == hi {
                format!("holds {lo}")
            } else {
                format!("holds {lo} and {hi}")
            };
            return Some(Step {
                technique: "Compartment Range",
                rating: 12,
                cells: run.cells.clone(),
                place: None,
                eliminate,
                reason: format!(
                    "compartment {run} {holds}, so its straight lies within {}",
                    straight_name(usize::from(from - 1), usize::from(to - from + 1))
                ),
            });
        }
        None
    }
}
