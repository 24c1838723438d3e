//! Test-only copy of the solver as it was before the search got its own
//! stronger rules: the reference the new solver is compared against (root
//! fixpoint, contradiction message, count, solution) and timed against in the
//! speed test. Do not change it.

use crate::core::grid::CELLS;
use crate::core::mask::{Digit, Mask, Remaining};

use super::super::CELL;
use super::super::board::Board;
use super::super::compartment::{Compartment, Direction};
use super::Solutions;

/// The reference deduces less below the root and so needs more nodes (5,001
/// and more where the search needs 32, on a variant of a real puzzle); as
/// the oracle it keeps the limit all types shared before each had its own.
const STR8TS_SEARCH_LIMIT: u64 = 50_000;

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

/// Why propagation stopped: kept small and cheap because the search meets
/// thousands of these; only the one at the root becomes a message.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    /// A white cell has no candidate left.
    Empty(usize),
    /// A digit placed twice in a row or column.
    Twice(Digit, usize, usize),
    /// Compartment `k` fits no straight.
    NoStraight(usize),
    /// Compartment `k` needs a digit that already sits elsewhere in its line.
    Taken(usize, Digit, usize),
}

/// The fixed part of a puzzle that propagation reads: colours, compartments,
/// and which compartments each cell belongs to (as a bit set).
struct Rules<'a> {
    black: &'a [bool; CELLS],
    compartments: &'a [Compartment],
    member: [u128; CELLS],
}

/// Every compartment: 9 lines of at most 5 runs each way, 90 at most.
const ALL_DIRTY: u128 = u128::MAX;

impl<'a> Rules<'a> {
    fn new(board: &'a Board) -> Rules<'a> {
        let compartments = board.compartments();
        let mut member = [0u128; CELLS];
        for (k, comp) in compartments.iter().enumerate() {
            for c in comp.cells() {
                member[c.index()] |= 1 << k;
            }
        }
        Rules {
            black: board.black(),
            compartments,
            member,
        }
    }

    fn describe(&self, conflict: Conflict) -> String {
        let comp = |k: usize| {
            self.compartments
                .get(k)
                .map(ToString::to_string)
                .unwrap_or_default()
        };
        match conflict {
            Conflict::Empty(i) => format!("cell {i} ({}) has no candidate left", CELL[i]),
            Conflict::Twice(d, i, p) => {
                let line = if p / 9 == i / 9 { "row" } else { "column" };
                format!(
                    "digit {d} twice in a {line}: cell {i} ({}) and cell {p} ({})",
                    CELL[i], CELL[p]
                )
            }
            Conflict::NoStraight(k) => format!("{} fits no straight", comp(k)),
            Conflict::Taken(k, d, other) => {
                format!(
                    "{} needs digit {d}, which cell {other} ({}) already holds",
                    comp(k),
                    CELL[other]
                )
            }
        }
    }
}

/// Runs propagation to its fixpoint. `Err` holds the contradiction's message.
pub fn propagate(board: &Board) -> Result<Board, String> {
    let rules = Rules::new(board);
    let mut cells = *board.masks();
    let mut spread = [false; CELLS];
    rules
        .propagate(&mut cells, &mut spread, ALL_DIRTY)
        .map_err(|c| rules.describe(c))?;
    Ok(board.with_masks(cells))
}

/// Counts solutions, stopping at two, and keeps the solution when it is unique.
pub fn solve(board: &Board) -> Solutions {
    solve_counting(board).0
}

/// [`solve`] with the number of search nodes it visited.
pub fn solve_counting(board: &Board) -> (Solutions, u64) {
    let rules = Rules::new(board);
    let mut cells = *board.masks();
    let mut spread = [false; CELLS];
    if let Err(c) = rules.propagate(&mut cells, &mut spread, ALL_DIRTY) {
        return (Solutions::Contradiction(rules.describe(c)), 0);
    }
    let mut found = None;
    let mut count = 0;
    let mut nodes = 0;
    rules.search(cells, spread, &mut count, &mut found, &mut nodes);
    if nodes > STR8TS_SEARCH_LIMIT && count < 2 {
        return (Solutions::GaveUp, nodes);
    }
    let s = match (count, found) {
        (0, _) => Solutions::Unsolvable,
        (1, Some(cells)) => Solutions::Unique(Box::new(board.with_masks(cells))),
        _ => Solutions::Multiple,
    };
    (s, nodes)
}

impl Rules<'_> {
    /// Depth-first search over a propagated board, branching on the white
    /// cell with the fewest candidates; stops once two solutions are known.
    fn search(
        &self,
        cells: [Mask; CELLS],
        spread: [bool; CELLS],
        count: &mut u32,
        found: &mut Option<[Mask; CELLS]>,
        nodes: &mut u64,
    ) {
        *nodes += 1;
        if *nodes > STR8TS_SEARCH_LIMIT {
            return;
        }
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
            let mut next_spread = spread;
            next[i] = d.mask();
            if self
                .propagate(&mut next, &mut next_spread, self.member[i])
                .is_ok()
            {
                self.search(next, next_spread, count, found, nodes);
                if *count >= 2 || *nodes > STR8TS_SEARCH_LIMIT {
                    return;
                }
            }
        }
    }

    /// Applies the rules until nothing changes. `spread` says which placed
    /// digits were already removed from their lines; `dirty` which
    /// compartments may have changed since their rule last ran.
    fn propagate(
        &self,
        cells: &mut [Mask; CELLS],
        spread: &mut [bool; CELLS],
        mut dirty: u128,
    ) -> Result<(), Conflict> {
        loop {
            let before = *cells;
            for i in 0..CELLS {
                if spread[i] {
                    continue;
                }
                match cells[i].remaining() {
                    Remaining::One(d) => {
                        spread[i] = true;
                        self.spread(cells, i, d)?;
                    }
                    Remaining::None if !self.black[i] => return Err(Conflict::Empty(i)),
                    _ => {}
                }
            }
            for (k, comp) in self.compartments.iter().enumerate() {
                if dirty & (1 << k) != 0 {
                    compartment(cells, comp).map_err(|c| c.at(k))?;
                }
            }
            dirty = 0;
            for i in 0..CELLS {
                if cells[i] != before[i] {
                    dirty |= self.member[i];
                }
            }
            if dirty == 0 {
                // Nothing changed in this pass, so no new single to spread either.
                return Ok(());
            }
        }
    }

    /// Removes the digit placed in cell `i` from its row and column.
    fn spread(&self, cells: &mut [Mask; CELLS], i: usize, d: Digit) -> Result<(), Conflict> {
        for &p in &LINE_PEERS[i] {
            let p = usize::from(p);
            if !cells[p].contains(d) {
                continue;
            }
            if self.black[p] || cells[p].len() == 1 {
                return Err(Conflict::Twice(d, i, p));
            }
            cells[p] = cells[p].without(d);
        }
        Ok(())
    }
}

/// A conflict found inside one compartment, before it knows its number.
enum Local {
    NoStraight,
    Taken(Digit, usize),
}

impl Local {
    fn at(self, k: usize) -> Conflict {
        match self {
            Local::NoStraight => Conflict::NoStraight(k),
            Local::Taken(d, other) => Conflict::Taken(k, d, other),
        }
    }
}

/// The compartment rule: only digits of straights that still fit survive; a
/// digit every fitting straight needs goes to its only place, if it has one,
/// and leaves the rest of the compartment's row or column.
fn compartment(cells: &mut [Mask; CELLS], comp: &Compartment) -> Result<(), Local> {
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
        return Err(Local::NoStraight);
    }
    let union = Mask::from_bits_truncate(union);
    for c in comp.cells() {
        // A fitting straight gives every cell a digit of `union`, so this
        // never empties a cell.
        cells[c.index()] = cells[c.index()].intersect(union);
    }
    for d in Mask::from_bits_truncate(needed).digits() {
        let mut places = comp.cells().iter().filter(|c| cells[c.index()].contains(d));
        match (places.next(), places.next()) {
            (None, _) => return Err(Local::NoStraight),
            (Some(c), None) => cells[c.index()] = d.mask(),
            _ => {}
        }
        for other in line_outside(comp) {
            let m = cells[other];
            if m.contains(d) {
                if m.len() == 1 {
                    return Err(Local::Taken(d, other));
                }
                // `m` held `d` and more, so something is left.
                cells[other] = m.without(d);
            }
        }
    }
    Ok(())
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
