//! Str8ts' rules, written to be read: propagation exactly as
//! docs/formats.md "Propagation" defines it (*spread* a placed digit along
//! its row and column, then keep in each changed compartment only the
//! digits of the straights that still fit), in a fixed order to the
//! fixpoint. The specification, the test oracle ([`count`]) and the words
//! of every contradiction ([`in_order`]).
//!
//! The engine (`solve`) reaches the same fixpoint faster and hands a root
//! that contradicts itself here for its message. Must stay plain. In
//! full: docs/performance.md "Module notes".

use crate::core::grid::CELLS;
use crate::core::mask::{Digit, Mask, Remaining};

use crate::core::grid::LINE_PEERS;

use super::CELL;
use super::board::Str8ts;
use super::compartment::{Compartment, Direction};
use super::straights::fitting;

/// Propagation to the fixpoint in the reference order: every cell and
/// every changed compartment rescanned each pass. `Err` holds the message
/// of the first contradiction met that way.
pub(super) fn in_order(board: &Str8ts) -> Result<Str8ts, String> {
    let rules = Rules::new(board);
    let mut cells = *board.masks();
    let mut spread = [false; CELLS];
    rules
        .propagate(&mut cells, &mut spread, ALL_DIRTY)
        .map_err(|c| rules.describe(c))?;
    Ok(board.with_masks(cells))
}

/// Why propagation stopped: kept small and cheap because the search meets
/// thousands of these; only the one at the root becomes a message.
use crate::core::contradiction::Contradiction;

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
    fn new(board: &'a Str8ts) -> Rules<'a> {
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

    fn describe(&self, conflict: Contradiction) -> String {
        let comp = |k: u8| {
            self.compartments
                .get(usize::from(k))
                .map(ToString::to_string)
                .unwrap_or_default()
        };
        let cell = |i: u8| CELL[usize::from(i)];
        match conflict {
            Contradiction::Cell(i) => format!("cell {i} ({}) has no candidate left", cell(i)),
            Contradiction::Twice {
                digit: d,
                cell: i,
                other: p,
            } => {
                let line = if p / 9 == i / 9 { "row" } else { "column" };
                format!(
                    "digit {d} twice in a {line}: cell {i} ({}) and cell {p} ({})",
                    cell(i),
                    cell(p)
                )
            }
            Contradiction::Group(k) => format!("{} fits no straight", comp(k)),
            Contradiction::Needed {
                group: k,
                digit: d,
                held_at: Some(other),
            } => {
                format!(
                    "{} needs digit {d}, which cell {other} ({}) already holds",
                    comp(k),
                    cell(other)
                )
            }
            Contradiction::Needed {
                group: k,
                digit: d,
                held_at: None,
            } => format!("{} has no place for digit {d}", comp(k)),
            Contradiction::Unit { unit, digit: d } => {
                format!("unit {unit} has no place for digit {d}")
            }
        }
    }
}

impl Rules<'_> {
    /// Applies the rules until nothing changes. `spread` says which placed
    /// digits were already removed from their lines; `dirty` which
    /// compartments may have changed since their rule last ran.
    fn propagate(
        &self,
        cells: &mut [Mask; CELLS],
        spread: &mut [bool; CELLS],
        mut dirty: u128,
    ) -> Result<(), Contradiction> {
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
                    Remaining::None if !self.black[i] => return Err(Contradiction::Cell(i as u8)),
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

    /// Removes the digit placed in cell `i` from its row and column, the
    /// other cells in reading order.
    fn spread(&self, cells: &mut [Mask; CELLS], i: usize, d: Digit) -> Result<(), Contradiction> {
        for p in LINE_PEERS[i].map(usize::from) {
            if !cells[p].contains(d) {
                continue;
            }
            if self.black[p] || cells[p].len() == 1 {
                return Err(Contradiction::Twice {
                    digit: d.get(),
                    cell: i as u8,
                    other: p as u8,
                });
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
    fn at(self, k: usize) -> Contradiction {
        match self {
            Local::NoStraight => Contradiction::Group(k as u8),
            Local::Taken(d, other) => Contradiction::Needed {
                group: k as u8,
                digit: d.get(),
                held_at: Some(other as u8),
            },
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
    let mut fit = [0u16; 9];
    let n = fitting(allowed, &mut fit);
    for &s in &fit[..n] {
        union |= s;
        needed &= s;
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

/// The oracle's own node limit. It deduces less below the root than the
/// solver and so needs more nodes (5,001 and more where the solver needs
/// 32, on a variant of a real puzzle): it keeps the limit all types shared
/// before each had its own.
#[cfg(test)]
const ORACLE_LIMIT: u64 = 50_000;

/// The plain search over these rules, for the tests: depth first,
/// branching on the white cell with the fewest candidates, propagating
/// after each choice, up to two solutions; with the nodes it visited.
#[cfg(test)]
pub(super) fn count(board: &Str8ts) -> (super::Solutions, u64) {
    use super::Solutions;

    let rules = Rules::new(board);
    let mut cells = *board.masks();
    let mut spread = [false; CELLS];
    if let Err(c) = rules.propagate(&mut cells, &mut spread, ALL_DIRTY) {
        return (Solutions::Contradiction(rules.describe(c)), 0);
    }
    let mut search = Search {
        rules: &rules,
        found: None,
        count: 0,
        nodes: 0,
    };
    search.run(cells, spread);
    let solutions = match (search.count, search.found) {
        (0 | 1, _) if search.nodes > ORACLE_LIMIT => Solutions::GaveUp,
        (0, _) => Solutions::Unsolvable,
        (1, Some(cells)) => Solutions::Unique(Box::new(board.with_masks(cells))),
        _ => Solutions::Multiple,
    };
    (solutions, search.nodes)
}

#[cfg(test)]
struct Search<'a, 'b> {
    rules: &'a Rules<'b>,
    found: Option<[Mask; CELLS]>,
    count: u32,
    nodes: u64,
}

#[cfg(test)]
impl Search<'_, '_> {
    fn done(&self) -> bool {
        self.count >= 2 || self.nodes > ORACLE_LIMIT
    }

    fn run(&mut self, cells: [Mask; CELLS], spread: [bool; CELLS]) {
        self.nodes += 1;
        if self.nodes > ORACLE_LIMIT {
            return;
        }
        let open = (0..CELLS).filter(|&i| !self.rules.black[i] && cells[i].len() >= 2);
        let Some(i) = open.min_by_key(|&i| cells[i].len()) else {
            // At the fixpoint every line and compartment was checked, so a
            // board with every white cell placed is a solution.
            self.count += 1;
            self.found.get_or_insert(cells);
            return;
        };
        for d in cells[i].digits() {
            let (mut next, mut next_spread) = (cells, spread);
            next[i] = d.mask();
            let dirty = self.rules.member[i];
            if self
                .rules
                .propagate(&mut next, &mut next_spread, dirty)
                .is_ok()
            {
                self.run(next, next_spread);
                if self.done() {
                    return;
                }
            }
        }
    }
}
