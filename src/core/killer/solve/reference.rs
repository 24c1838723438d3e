//! The Killer solver as it was before the dirty-set rewrite, kept verbatim
//! (test builds only) so the tests can hold the new one to the same
//! fixpoints, conflicts, counts and solutions on any input.

#![allow(dead_code)]

use crate::core::grid::{CELLS, PEERS, UNITS, box_of};
use crate::core::kind::KILLER_SEARCH_LIMIT;

use super::super::cages::combinations;

/// Candidates of all cells (9-bit masks) and which placed cells have already
/// been removed from their neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub cand: [u16; CELLS],
    pushed: u128,
}

impl Board {
    pub fn new(cand: [u16; CELLS]) -> Board {
        Board { cand, pushed: 0 }
    }
}

pub use super::Conflict;

/// One cage as the solver sees it: up to nine cells and a sum.
#[derive(Clone, Copy, Debug)]
struct Line {
    cells: [u8; 9],
    len: usize,
    sum: u8,
}

/// The fixed data of one puzzle: cages and each cell's neighbours (its 20
/// Sudoku peers plus cage mates outside them), built once before searching.
#[derive(Clone, Debug)]
pub struct Solver {
    lines: Vec<Line>,
    neighbours: [[u8; 28]; CELLS],
    neighbour_len: [u8; CELLS],
}

/// What the search found: 0, 1 or 2 (two or more) solutions, and the first.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    pub found: u8,
    /// Search nodes visited; past [`KILLER_SEARCH_LIMIT`] the search gives up.
    pub nodes: u64,
    pub solution: [u16; CELLS],
}

impl Solver {
    /// `cages`: the cells of each cage (at most nine each) and its sum.
    pub fn new(cages: &[(Vec<u8>, u8)]) -> Solver {
        let mut lines = Vec::with_capacity(cages.len());
        let mut neighbours = [[0u8; 28]; CELLS];
        let mut neighbour_len = [0u8; CELLS];
        for (c, peers) in PEERS.iter().enumerate() {
            neighbours[c][..20].copy_from_slice(peers);
            neighbour_len[c] = 20;
        }
        for (cells, sum) in cages {
            let mut line = Line {
                cells: [0; 9],
                len: cells.len().min(9),
                sum: *sum,
            };
            line.cells[..line.len].copy_from_slice(&cells[..line.len]);
            for &a in &line.cells[..line.len] {
                for &b in &line.cells[..line.len] {
                    let (a, b) = (a as usize, b as usize);
                    let len = neighbour_len[a] as usize;
                    if a != b && !neighbours[a][..len].contains(&(b as u8)) {
                        neighbours[a][len] = b as u8;
                        neighbour_len[a] += 1;
                    }
                }
            }
            lines.push(line);
        }
        Solver {
            lines,
            neighbours,
            neighbour_len,
        }
    }

    /// Applies every rule until nothing changes.
    pub fn propagate(&self, b: &mut Board) -> Result<(), Conflict> {
        loop {
            self.push_placed(b)?;
            if self.hidden_singles(b)? {
                continue;
            }
            if self.cage_lines(b)? {
                continue;
            }
            return Ok(());
        }
    }

    /// Deduce: each placed digit leaves its neighbours.
    fn push_placed(&self, b: &mut Board) -> Result<(), Conflict> {
        loop {
            let mut todo = !b.pushed & ((1u128 << CELLS) - 1);
            if todo == 0 {
                return Ok(());
            }
            let mut any = false;
            while todo != 0 {
                let c = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let m = b.cand[c];
                if m == 0 {
                    return Err(Conflict::Cell(c));
                }
                if m & (m - 1) != 0 {
                    continue;
                }
                b.pushed |= 1 << c;
                any = true;
                for &n in &self.neighbours[c][..self.neighbour_len[c] as usize] {
                    let n = n as usize;
                    if b.cand[n] & m != 0 {
                        b.cand[n] &= !m;
                        if b.cand[n] == 0 {
                            return Err(Conflict::Cell(n));
                        }
                    }
                }
            }
            if !any {
                return Ok(());
            }
        }
    }

    /// Eliminate along row, column and box lines: a digit with one place goes there.
    fn hidden_singles(&self, b: &mut Board) -> Result<bool, Conflict> {
        let mut changed = false;
        for (u, unit) in UNITS.iter().enumerate() {
            let (mut once, mut twice) = (0u16, 0u16);
            for &c in unit {
                let m = b.cand[c as usize];
                twice |= once & m;
                once |= m;
            }
            if once != 0x1ff {
                return Err(Conflict::Unit(u, (!once & 0x1ff).trailing_zeros()));
            }
            let mut single = once & !twice;
            while single != 0 {
                let bit = single & single.wrapping_neg();
                single ^= bit;
                for &c in unit {
                    let m = &mut b.cand[c as usize];
                    if *m & bit != 0 {
                        if *m != bit {
                            *m = bit;
                            changed = true;
                        }
                        break;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// The cage lines: only digits of combinations that fit survive, and a
    /// digit every fitting combination needs, with one place left, goes there.
    fn cage_lines(&self, b: &mut Board) -> Result<bool, Conflict> {
        let mut changed = false;
        for (k, line) in self.lines.iter().enumerate() {
            let cells = &line.cells[..line.len];
            let mut masks = [0u16; 9];
            let mut union = 0;
            let mut placed = 0;
            for (m, &c) in masks.iter_mut().zip(cells) {
                *m = b.cand[c as usize];
                union |= *m;
                if *m & (*m - 1) == 0 {
                    placed |= *m;
                }
            }
            let masks = &masks[..line.len];
            let (mut allowed, mut required) = (0u16, 0x1ffu16);
            for &set in combinations(line.len, line.sum) {
                if set & !union != 0
                    || placed & !set != 0
                    || allowed | set == allowed && required & set == required
                {
                    // Needs a digit no cell has, misses a placed digit, or adds nothing.
                    continue;
                }
                if masks.iter().all(|&m| m & set != 0) && has_matching(masks, set) {
                    allowed |= set;
                    required &= set;
                }
            }
            if allowed == 0 {
                return Err(Conflict::Cage(k));
            }
            for &c in cells {
                let m = &mut b.cand[c as usize];
                if *m & !allowed != 0 {
                    *m &= allowed;
                    if *m == 0 {
                        return Err(Conflict::Cell(c as usize));
                    }
                    changed = true;
                }
            }
            let mut need = required & !placed;
            while need != 0 {
                let bit = need & need.wrapping_neg();
                need ^= bit;
                let (mut at, mut places) = (0usize, 0u128);
                let (mut rows, mut cols, mut boxes) = (0u16, 0u16, 0u16);
                for &c in cells {
                    let c = c as usize;
                    if b.cand[c] & bit != 0 {
                        at = c;
                        places |= 1 << c;
                        rows |= 1 << (c / 9);
                        cols |= 1 << (c % 9);
                        boxes |= 1 << box_of(c);
                    }
                }
                match places.count_ones() {
                    0 => return Err(Conflict::CageDigit(k, bit.trailing_zeros())),
                    1 if b.cand[at] != bit => {
                        b.cand[at] = bit;
                        changed = true;
                    }
                    1 => {}
                    _ => {
                        // The digit is in the cage, at one of these places; if they share
                        // a row, column or box, it can be nowhere else in that unit.
                        for (lines, base) in [(rows, 0), (cols, 9), (boxes, 18)] {
                            if lines.count_ones() == 1 {
                                let unit = &UNITS[base + lines.trailing_zeros() as usize];
                                changed |= remove_outside(b, unit, places, bit)?;
                            }
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
        let mut best = None;
        let mut fewest = u32::MAX;
        for (c, &m) in b.cand.iter().enumerate() {
            let n = m.count_ones();
            if n > 1 && n < fewest {
                fewest = n;
                best = Some(c);
                if n == 2 {
                    break;
                }
            }
        }
        let Some(c) = best else {
            if count.found == 0 {
                count.solution = b.cand;
            }
            count.found += 1;
            return;
        };
        let mut options = b.cand[c];
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            let mut next = *b;
            next.cand[c] = bit;
            if self.propagate(&mut next).is_ok() {
                self.search(&next, count);
                if count.found >= 2 || count.nodes > KILLER_SEARCH_LIMIT {
                    return;
                }
            }
        }
    }

    /// The cells of cage `k`, for naming it in messages.
    pub fn cage_cells(&self, k: usize) -> &[u8] {
        self.lines.get(k).map_or(&[], |l| &l.cells[..l.len])
    }
}

/// Removes `bit` from the cells of `unit` outside `keep`; whether anything changed.
fn remove_outside(b: &mut Board, unit: &[u8; 9], keep: u128, bit: u16) -> Result<bool, Conflict> {
    let mut changed = false;
    for &o in unit {
        let o = o as usize;
        if keep >> o & 1 == 0 && b.cand[o] & bit != 0 {
            b.cand[o] &= !bit;
            if b.cand[o] == 0 {
                return Err(Conflict::Cell(o));
            }
            changed = true;
        }
    }
    Ok(changed)
}

/// Whether the cells can take the digits of `set` (as many as cells) one each:
/// a perfect matching by augmenting paths, at most 9x9 steps per cell.
fn has_matching(masks: &[u16], set: u16) -> bool {
    fn augment(i: usize, masks: &[u16], set: u16, owner: &mut [usize; 9], seen: &mut u16) -> bool {
        let mut options = masks[i] & set & !*seen;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            *seen |= bit;
            let d = bit.trailing_zeros() as usize;
            if owner[d] == usize::MAX || augment(owner[d], masks, set, owner, seen) {
                owner[d] = i;
                return true;
            }
        }
        false
    }
    let mut owner = [usize::MAX; 9];
    (0..masks.len()).all(|i| augment(i, masks, set, &mut owner, &mut 0))
}
