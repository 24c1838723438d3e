//! One step of a logical solution: the technique, its rating, the cells of
//! the pattern, and what it placed or removed, readable as a sentence
//! (`r3c5=7: hidden single in box 2`).

use std::fmt;

use crate::core::grid::cell_at;

/// A rating in tenths: 23 is SE's 2.3 (integers keep ratings exact).
pub type Rating10 = u16;

/// What one technique found in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique's name as SE gives it (`Hidden Single`, `X-Wing`).
    pub technique: &'static str,
    pub rating: Rating10,
    /// The cells of the pattern (cell indices), for the sentence.
    pub cells: Vec<u8>,
    /// The digit placed, if any: (cell, digit).
    pub place: Option<(u8, u8)>,
    /// The candidates removed: (cell, digit).
    pub eliminate: Vec<(u8, u8)>,
    /// Why, in words (`hidden single in box 2`).
    pub reason: String,
}

/// `r1c2,r1c8` for a list of cell indices.
pub(crate) fn cell_list(cells: &[u8]) -> String {
    let names: Vec<String> = cells
        .iter()
        .map(|&c| cell_at(c as usize).to_string())
        .collect();
    names.join(",")
}

/// `1.2` for 12 tenths.
pub fn tenths(r: Rating10) -> String {
    format!("{}.{}", r / 10, r % 10)
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            Some((c, d)) => write!(f, "{}={d}: {}", cell_at(c as usize), self.reason)?,
            None => write!(f, "{}: {}", cell_list(&self.cells), self.reason)?,
        }
        let mut digits: Vec<u8> = self.eliminate.iter().map(|&(_, d)| d).collect();
        digits.sort_unstable();
        digits.dedup();
        for (i, d) in digits.into_iter().enumerate() {
            let mut cells: Vec<u8> = self
                .eliminate
                .iter()
                .filter(|e| e.1 == d)
                .map(|e| e.0)
                .collect();
            cells.sort_unstable();
            let sep = if i == 0 { " removes" } else { " and" };
            write!(f, "{sep} {d} from {}", cell_list(&cells))?;
        }
        Ok(())
    }
}
