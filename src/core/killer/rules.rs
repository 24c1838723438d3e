//! Killer propagation and search exactly as docs/formats.md "Propagation"
//! defines them, written to be read: *deduce*, *eliminate* and *cages* in a
//! fixed order from the top after any change, and a search branching on
//! the first cell with the fewest candidates. The specification, the
//! oracle the solver (`solve`) is held to, board for board (tests only),
//! and the words of every contradiction ([`words`]).
//!
//! Must stay plain: the solver's worklist, counters and extra rules do not
//! belong here. The rules in full: docs/performance.md "Module notes".

#[cfg(test)]
use crate::core::grid::{CELLS, PEERS, UNITS, box_of};
#[cfg(test)]
use crate::core::matching::perfect;
#[cfg(test)]
use crate::core::vocabulary::KILLER_SEARCH_LIMIT;

use super::board::Killer;
#[cfg(test)]
use super::cages::combinations;
pub use super::solve::Contradiction;
use crate::core::grid::cell_at;

/// The words of a contradiction the solver (`solve`) or these rules met
/// in `killer`, by cell, unit and cage.
pub(super) fn words(killer: &Killer, solver: &super::solve::Solver, c: Contradiction) -> String {
    let cage = |k: u8| {
        let k = usize::from(k);
        let first = solver.cage_cells(k).first().map_or(0, |&c| usize::from(c));
        let sum = killer.cages.get(k).map_or(0, |c| c.sum);
        format!(
            "cage at {} (sum {sum}, {} cells)",
            cell_at(first),
            solver.cage_cells(k).len()
        )
    };
    let cell = |c: u8| cell_at(usize::from(c));
    match c {
        Contradiction::Cell(c) => format!("killer: {} has no candidate left", cell(c)),
        Contradiction::Unit { unit: u, digit } => {
            let unit = match u {
                0..9 => format!("row {}", u + 1),
                9..18 => format!("column {}", u - 8),
                _ => format!("box {}", u - 17),
            };
            format!("killer: {unit} has no place for {digit}")
        }
        Contradiction::Twice {
            digit,
            cell: a,
            other,
        } => {
            format!(
                "killer: digit {digit} twice: {} and {}",
                cell(a),
                cell(other)
            )
        }
        Contradiction::Group(k) => format!("killer: {} has no combination that fits", cage(k)),
        Contradiction::Needed {
            group,
            digit,
            held_at: None,
        } => format!(
            "killer: {} has no place for {digit}, which every combination needs",
            cage(group)
        ),
        Contradiction::Needed {
            group,
            digit,
            held_at: Some(at),
        } => format!(
            "killer: {} needs {digit}, which {} already holds",
            cage(group),
            cell(at)
        ),
    }
}

#[cfg(test)]
/// Every digit.
const ALL: u16 = 0x1ff;

#[cfg(test)]
/// Candidates of all cells, and which placed cells have already been
/// removed from their neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub cand: [u16; CELLS],
    deduced: [bool; CELLS],
}

#[cfg(test)]
impl Board {
    pub fn new(cand: [u16; CELLS]) -> Board {
        Board {
            cand,
            deduced: [false; CELLS],
        }
    }
}

#[cfg(test)]
/// One cage: its cells in the order given, and its sum.
#[derive(Clone, Debug)]
struct Cage {
    cells: Vec<usize>,
    sum: u8,
}

#[cfg(test)]
/// The puzzle's cages and each cell's neighbours: its 20 Sudoku peers,
/// then its cage mates that are not among them, in cage order.
#[derive(Clone, Debug)]
pub struct Solver {
    cages: Vec<Cage>,
    neighbours: Vec<Vec<usize>>,
}

#[cfg(test)]
/// What the search found: 0, 1 or 2 (two or more) solutions, and the first.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    pub found: u8,
    /// Search nodes visited; past [`KILLER_SEARCH_LIMIT`] the search gives up.
    pub nodes: u64,
    pub solution: [u16; CELLS],
}

#[cfg(test)]
fn is_single(m: u16) -> bool {
    m.count_ones() == 1
}

#[cfg(test)]
impl Solver {
    /// `cages`: the cells of each cage (at most nine each) and its sum.
    pub fn new(cages: &[(Vec<u8>, u8)]) -> Solver {
        let cages: Vec<Cage> = cages
            .iter()
            .map(|(cells, sum)| Cage {
                cells: cells.iter().take(9).map(|&c| usize::from(c)).collect(),
                sum: *sum,
            })
            .collect();
        let mut neighbours: Vec<Vec<usize>> = PEERS
            .iter()
            .map(|peers| peers.iter().map(|&p| usize::from(p)).collect())
            .collect();
        for cage in &cages {
            for &a in &cage.cells {
                for &b in &cage.cells {
                    if a != b && !neighbours[a].contains(&b) {
                        neighbours[a].push(b);
                    }
                }
            }
        }
        Solver { cages, neighbours }
    }

    /// Applies the rules in their order until nothing changes.
    pub fn propagate(&self, b: &mut Board) -> Result<(), Contradiction> {
        loop {
            self.deduce(b)?;
            if self.eliminate(b)? || self.cage_rule(b)? {
                continue;
            }
            return Ok(());
        }
    }

    /// Rule 1, in passes over the cells in reading order until a pass
    /// places nothing new. A cell with no candidate is a contradiction.
    fn deduce(&self, b: &mut Board) -> Result<(), Contradiction> {
        loop {
            let mut placed_any = false;
            for c in 0..CELLS {
                if b.deduced[c] {
                    continue;
                }
                let digit = b.cand[c];
                if digit == 0 {
                    return Err(Contradiction::Cell(c as u8));
                }
                if !is_single(digit) {
                    continue;
                }
                b.deduced[c] = true;
                placed_any = true;
                for &n in &self.neighbours[c] {
                    if b.cand[n] & digit != 0 {
                        b.cand[n] &= !digit;
                        if b.cand[n] == 0 {
                            return Err(Contradiction::Cell(n as u8));
                        }
                    }
                }
            }
            if !placed_any {
                return Ok(());
            }
        }
    }

    /// Rule 2 over the 27 units in order (rows, columns, boxes), digits in
    /// order; whether anything changed.
    fn eliminate(&self, b: &mut Board) -> Result<bool, Contradiction> {
        let mut changed = false;
        for (u, unit) in UNITS.iter().enumerate() {
            let places = |b: &Board, d: u32| {
                unit.iter()
                    .filter(|&&c| b.cand[usize::from(c)] >> d & 1 != 0)
                    .count()
            };
            if let Some(d) = (0..9).find(|&d| places(b, d) == 0) {
                return Err(Contradiction::Unit {
                    unit: u as u8,
                    digit: d as u8 + 1,
                });
            }
            let singles: Vec<u32> = (0..9).filter(|&d| places(b, d) == 1).collect();
            for d in singles {
                let bit = 1 << d;
                // The one place, if an earlier single of this unit has not
                // taken it.
                let place = unit
                    .iter()
                    .map(|&c| usize::from(c))
                    .find(|&c| b.cand[c] & bit != 0);
                if let Some(c) = place
                    && b.cand[c] != bit
                {
                    b.cand[c] = bit;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Rule 3 over the cages in order; whether anything changed.
    fn cage_rule(&self, b: &mut Board) -> Result<bool, Contradiction> {
        let mut changed = false;
        for (k, cage) in self.cages.iter().enumerate() {
            let masks: Vec<u16> = cage.cells.iter().map(|&c| b.cand[c]).collect();
            let placed = masks
                .iter()
                .filter(|&&m| is_single(m))
                .fold(0, |p, &m| p | m);
            // The combinations the cells can hold, one digit each.
            let fitting = combinations(cage.cells.len(), cage.sum)
                .iter()
                .filter(|&&set| perfect(&masks, set));
            let (allowed, required) = fitting.fold((0, ALL), |(a, r), &set| (a | set, r & set));
            if allowed == 0 {
                return Err(Contradiction::Group(k as u8));
            }
            for &c in &cage.cells {
                if b.cand[c] & !allowed != 0 {
                    b.cand[c] &= allowed;
                    if b.cand[c] == 0 {
                        return Err(Contradiction::Cell(c as u8));
                    }
                    changed = true;
                }
            }
            for d in (0..9).filter(|&d| (required & !placed) >> d & 1 != 0) {
                let bit = 1u16 << d;
                let places: Vec<usize> = cage
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| b.cand[c] & bit != 0)
                    .collect();
                match places[..] {
                    [] => {
                        return Err(Contradiction::Needed {
                            group: k as u8,
                            digit: d as u8 + 1,
                            held_at: None,
                        });
                    }
                    [c] => {
                        if b.cand[c] != bit {
                            b.cand[c] = bit;
                            changed = true;
                        }
                    }
                    _ => {
                        // The digit is in the cage, at one of these places:
                        // a row, column or box holding them all holds it
                        // nowhere else.
                        let row = places[0] / 9;
                        let col = places[0] % 9;
                        let boxed = box_of(places[0]);
                        let units = [
                            places.iter().all(|&c| c / 9 == row).then_some(row),
                            places.iter().all(|&c| c % 9 == col).then_some(9 + col),
                            places
                                .iter()
                                .all(|&c| box_of(c) == boxed)
                                .then_some(18 + boxed),
                        ];
                        for u in units.into_iter().flatten() {
                            changed |= remove_outside(b, &UNITS[u], &places, bit)?;
                        }
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Counts solutions of an already propagated board, stopping at two.
    pub fn count(&self, b: &Board) -> Count {
        let mut count = Count {
            found: 0,
            nodes: 0,
            solution: [0; CELLS],
        };
        self.search(b, &mut count);
        count
    }

    fn search(&self, b: &Board, count: &mut Count) {
        count.nodes += 1;
        if count.nodes > KILLER_SEARCH_LIMIT {
            return;
        }
        let open = (0..CELLS).filter(|&c| b.cand[c].count_ones() > 1);
        let Some(c) = open.min_by_key(|&c| b.cand[c].count_ones()) else {
            if count.found == 0 {
                count.solution = b.cand;
            }
            count.found += 1;
            return;
        };
        for d in (0..9).filter(|&d| b.cand[c] >> d & 1 != 0) {
            let mut next = *b;
            next.cand[c] = 1 << d;
            if self.propagate(&mut next).is_ok() {
                self.search(&next, count);
                if count.found >= 2 || count.nodes > KILLER_SEARCH_LIMIT {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
/// Removes `bit` from the cells of `unit` outside `keep`; whether anything
/// changed.
fn remove_outside(
    b: &mut Board,
    unit: &[u8; 9],
    keep: &[usize],
    bit: u16,
) -> Result<bool, Contradiction> {
    let mut changed = false;
    for o in unit.iter().map(|&o| usize::from(o)) {
        if !keep.contains(&o) && b.cand[o] & bit != 0 {
            b.cand[o] &= !bit;
            if b.cand[o] == 0 {
                return Err(Contradiction::Cell(o as u8));
            }
            changed = true;
        }
    }
    Ok(changed)
}
