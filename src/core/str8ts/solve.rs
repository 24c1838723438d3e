//! Propagation and search for Str8ts: row and column uniqueness (digits in
//! black cells count), compartment straights, naked singles, then a
//! depth-first search that counts solutions up to two. Works on candidate
//! masks only; knows nothing of the string formats.
//!
//! There are no boxes, and no hidden singles along rows or columns: a Str8ts
//! row need not hold every digit, so "one place left for 5 in this row" proves
//! nothing. The only hidden-single rule is inside a compartment, for a digit
//! that every straight still possible there needs.

use crate::core::grid::CELLS;
use crate::core::mask::{Digit, Mask, Remaining};

use super::CELL;
use super::board::Board;
use super::compartment::{Compartment, Direction};

/// The 16 cells sharing a row or a column with each cell.
const LINE_PEERS: [[u8; 16]; CELLS] = {
    let mut p = [[0u8; 16]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut n = 0;
        let mut o = 0;
        while o < CELLS {
            if o != c && (o / 9 == c / 9 || o % 9 == c % 9) {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    p
};

/// The straight of `len` consecutive digits starting at `low` (1-based), as a mask.
const fn straight(low: usize, len: usize) -> u16 {
    ((1u16 << len) - 1) << (low - 1)
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// Propagation from the start contradicts itself; the message says where.
    Contradiction(String),
    /// The search tried everything and found nothing.
    None,
    /// Exactly one; the board has every white cell placed.
    Unique(Box<Board>),
    /// Two or more (the search stopped at the second).
    Multiple,
}

/// The fixed part of a puzzle that propagation reads: colours and compartments.
struct Rules<'a> {
    black: &'a [bool; CELLS],
    compartments: &'a [Compartment],
}

/// Runs propagation to its fixpoint. `Err` holds the contradiction's message.
pub fn propagate(board: &Board) -> Result<Board, String> {
    let rules = Rules {
        black: board.black(),
        compartments: board.compartments(),
    };
    let mut cells = *board.masks();
    rules.propagate(&mut cells)?;
    Ok(board.with_masks(cells))
}

/// Counts solutions, stopping at two, and keeps the solution when it is unique.
pub fn solve(board: &Board) -> Solutions {
    let rules = Rules {
        black: board.black(),
        compartments: board.compartments(),
    };
    let mut cells = *board.masks();
    if let Err(why) = rules.propagate(&mut cells) {
        return Solutions::Contradiction(why);
    }
    let mut found = None;
    let mut count = 0;
    rules.search(cells, &mut count, &mut found);
    match (count, found) {
        (0, _) => Solutions::None,
        (1, Some(cells)) => Solutions::Unique(Box::new(board.with_masks(cells))),
        _ => Solutions::Multiple,
    }
}

impl Rules<'_> {
    /// Depth-first search over a propagated board, branching on the white
    /// cell with the fewest candidates; stops once two solutions are known.
    fn search(&self, cells: [Mask; CELLS], count: &mut u32, found: &mut Option<[Mask; CELLS]>) {
        let mut best: Option<(usize, u32)> = None;
        for (i, m) in cells.iter().enumerate() {
            let n = m.len();
            if !self.black[i] && n >= 2 && best.is_none_or(|(_, b)| n < b) {
                best = Some((i, n));
                if n == 2 {
                    break;
                }
            }
        }
        let Some((i, _)) = best else {
            // Propagation at its fixpoint checked every line and compartment,
            // so a board with every white cell placed is a solution.
            *count += 1;
            if found.is_none() {
                *found = Some(cells);
            }
            return;
        };
        for d in cells[i].digits() {
            let mut next = cells;
            next[i] = d.mask();
            if self.propagate(&mut next).is_ok() {
                self.search(next, count, found);
                if *count >= 2 {
                    return;
                }
            }
        }
    }

    /// Applies the rules until nothing changes.
    fn propagate(&self, cells: &mut [Mask; CELLS]) -> Result<(), String> {
        // Which placed digits have already been removed from their lines.
        let mut spread = [false; CELLS];
        loop {
            let mut changed = false;
            for i in 0..CELLS {
                if spread[i] {
                    continue;
                }
                match cells[i].remaining() {
                    Remaining::One(d) => {
                        spread[i] = true;
                        changed |= self.spread(cells, i, d)?;
                    }
                    Remaining::None if !self.black[i] => {
                        return Err(format!("cell {i} ({}) has no candidate left", CELL[i]));
                    }
                    _ => {}
                }
            }
            for comp in self.compartments {
                changed |= compartment(cells, comp)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Removes the digit placed in cell `i` from its row and column.
    fn spread(&self, cells: &mut [Mask; CELLS], i: usize, d: Digit) -> Result<bool, String> {
        let mut changed = false;
        for &p in &LINE_PEERS[i] {
            let p = usize::from(p);
            if !cells[p].contains(d) {
                continue;
            }
            if self.black[p] || cells[p].len() == 1 {
                let line = if p / 9 == i / 9 { "row" } else { "column" };
                return Err(format!(
                    "digit {d} twice in a {line}: cell {i} ({}) and cell {p} ({})",
                    CELL[i], CELL[p]
                ));
            }
            cells[p] = cells[p].without(d);
            changed = true;
        }
        Ok(changed)
    }
}

/// The compartment rule: only digits of straights that still fit survive, and
/// a digit every fitting straight needs goes to its only place, if it has one.
fn compartment(cells: &mut [Mask; CELLS], comp: &Compartment) -> Result<bool, String> {
    let len = comp.len();
    let mut allowed = [0u16; 9];
    for (k, c) in comp.cells().iter().enumerate() {
        allowed[k] = cells[c.index()].bits();
    }
    let allowed = &allowed[..len];
    let mut union = 0u16;
    let mut needed = Mask::ALL.bits();
    for low in 1..=10 - len {
        let s = straight(low, len);
        if fits(allowed, s) {
            union |= s;
            needed &= s;
        }
    }
    if union == 0 {
        return Err(format!("{comp} fits no straight of {len}"));
    }
    let union = Mask::from_bits_truncate(union);
    let mut changed = false;
    for c in comp.cells() {
        let m = cells[c.index()];
        let narrowed = m.intersect(union);
        if narrowed != m {
            if narrowed.is_empty() {
                return Err(format!(
                    "cell {} ({c}) has no candidate left in {comp}",
                    c.index()
                ));
            }
            cells[c.index()] = narrowed;
            changed = true;
        }
    }
    for d in Mask::from_bits_truncate(needed).digits() {
        let mut places = comp.cells().iter().filter(|c| cells[c.index()].contains(d));
        match (places.next(), places.next()) {
            (None, _) => return Err(format!("{comp} needs digit {d} and has no place for it")),
            (Some(c), None) if cells[c.index()] != d.mask() => {
                cells[c.index()] = d.mask();
                changed = true;
            }
            _ => {}
        }
        // The compartment will hold `d`, so the rest of its row or column cannot.
        for other in line_outside(comp) {
            let m = cells[other];
            if !m.contains(d) {
                continue;
            }
            if m.len() == 1 {
                return Err(format!(
                    "{comp} needs digit {d}, which cell {other} ({}) already holds",
                    CELL[other]
                ));
            }
            cells[other] = m.without(d);
            changed = true;
        }
    }
    Ok(changed)
}

/// The cells of a compartment's row or column that are not in it.
fn line_outside(comp: &Compartment) -> impl Iterator<Item = usize> {
    let (first, last) = (comp.first(), comp.last());
    let (line, from, to, row) = match comp.direction {
        Direction::Row => (first.row(), first.col(), last.col(), true),
        Direction::Column => (first.col(), first.row(), last.row(), false),
    };
    (0..9)
        .filter(move |k| *k < from || *k > to)
        .map(move |k| if row { line * 9 + k } else { k * 9 + line })
}

/// Whether the cells (with candidate bits `allowed`) can hold the straight `s`
/// exactly: a perfect matching of cells to its digits (Kuhn's augmenting
/// paths; at most nine cells, so this is a few dozen steps).
fn fits(allowed: &[u16], s: u16) -> bool {
    let mut cover = 0u16;
    for &a in allowed {
        if a & s == 0 {
            return false;
        }
        cover |= a & s;
    }
    if cover != s {
        return false;
    }
    // owner[d] = 1 + the cell holding digit bit d, 0 for none.
    let mut owner = [0u8; 9];
    for k in 0..allowed.len() {
        let mut visited = 0u16;
        if !augment(k, allowed, s, &mut visited, &mut owner) {
            return false;
        }
    }
    true
}

fn augment(k: usize, allowed: &[u16], s: u16, visited: &mut u16, owner: &mut [u8; 9]) -> bool {
    let mut free = allowed[k] & s & !*visited;
    while free != 0 {
        let bit = free.trailing_zeros() as usize;
        free &= free - 1;
        *visited |= 1 << bit;
        let holder = usize::from(owner[bit]);
        if holder == 0 || augment(holder - 1, allowed, s, visited, owner) {
            owner[bit] = k as u8 + 1;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(digits: &[u8]) -> u16 {
        digits
            .iter()
            .filter_map(|&d| Digit::new(d))
            .collect::<Mask>()
            .bits()
    }

    #[test]
    fn fits_needs_a_matching_not_just_cover() {
        // cells {1,2},{1,2},{1,2,3}: straight 123 fits; {1},{1},{2,3} covers 123 but
        // two cells want the 1.
        let cases: [(&[&[u8]], u16, bool); 5] = [
            (&[&[1, 2], &[1, 2], &[1, 2, 3]], straight(1, 3), true),
            (&[&[1], &[1], &[2, 3]], straight(1, 3), false),
            (&[&[4, 5], &[5, 6]], straight(4, 2), true),
            (&[&[4, 5], &[5, 6]], straight(5, 2), true),
            (&[&[4], &[6]], straight(4, 2), false),
        ];
        for (cells, s, want) in cases {
            let allowed: Vec<u16> = cells.iter().map(|c| bits(c)).collect();
            assert_eq!(fits(&allowed, s), want, "{cells:?} {s:b}");
        }
    }

    #[test]
    fn straights_are_consecutive_bits() {
        assert_eq!(straight(1, 9), 0x1ff);
        assert_eq!(straight(3, 2), 0b1100);
        assert_eq!(straight(9, 1), 0x100);
    }
}
