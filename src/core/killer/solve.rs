//! Killer propagation and search over candidate masks.
//!
//! The Sudoku cube rules (deduce along every cell, row-digit, column-digit and
//! box-digit line; eliminate hidden and naked singles) plus each cage as a line
//! whose distinct digits add to its sum. The search counts solutions up to two
//! branching on the cell that strikes the most (few candidates, shared by
//! many neighbours); its hot loop copies a fixed-size
//! board on the stack and never allocates. Knows nothing of strings.
//!
//! Propagation only looks again at what changed. Every cell narrowed to one
//! digit is queued for naked singles, every narrowed cell for the cages
//! holding it, and a cage none of whose cells changed since it was last
//! examined is skipped. The board counts the places of each digit in each
//! unit (nine 4-bit counters in a word per unit, all lowered by one
//! subtraction when a cell narrows), so hidden singles visit only the digits
//! whose count just fell to one or none, and a cage pushes a required digit
//! out of a unit only when the count shows a place outside the cage. The
//! rules are monotone, so the fixpoint does not depend on that order, and
//! whether a contradiction is met does not either; *which* one is met first
//! does. So when the root propagation meets one, it starts again from the
//! board it was given in the old fixed order (all naked singles, then all 27
//! units scanned, then all cages, from the top after any change), which
//! names the conflict the archive has always stored. The search only needs
//! to know that there was one.
//!
//! Below the root the search adds the rule of 45 ([`unit_sums`]): each
//! row, column and box adds to 45, so the cells of a unit left over by the
//! cages inside it, or those outside it of the cages covering it, add to a
//! known sum and, lying in one unit, take distinct digits: a cage in all
//! but name. The root must not use it (docs/formats.md "Propagation" fixes the root's rules,
//! and the stored board is their fixpoint). It is built only for a board
//! the root left open, and only for sets of one to three cells: larger ones
//! cut few more nodes and cost more (callgrind, import of `killer-8000.txt`
//! -j 1, whole run: 3,533M instructions without the rule; cells up to 1:
//! 3,197M, 2: 3,093M, 3: 3,059M, 4: 3,077M, 5: 3,194M, 8: 3,388M, all built
//! for every board; 3 and built only when needed: 2,945M). On the first 500
//! krazydad puzzles the search then needs 623 nodes, not 1,435, and settles
//! 455 without branching, not 234.
//!
//! Measured (callgrind on propagate_and_solve, bench --killers 500): the
//! place counters instead of a 9-cell scan of every unit holding a changed
//! cell, about 730 scans a krazydad puzzle (478.0M -> 426.4M instructions;
//! narrowing stays out of line, inlined into its callers it cost 28M more);
//! queueing only cells narrowed to one digit for naked singles, most queued
//! cells being found open (426.4M -> 389.3M); the count test before pushing
//! a cage's digit out of a unit (389.3M -> 386.3M); building the solver
//! without the cage-mate walk for a cell whose mates are all peers
//! (386.3M -> 380.2M); a cell's bit read from a table rather than shifted out
//! as 128 bits (380.2M -> 375.3M). Dropped: finding the cages to look at from
//! a table of each changed cell's cages instead of testing every cage's cells
//! against the changed ones (380.2M -> 392.0M).
//!
//! The root, measured with callgrind on an import of `killer-8000.txt` -j 1
//! (`Solver::propagate` inclusive, then the whole run): a cage whose cells
//! all still have every digit of its combinations (the first look from an
//! open board) takes the union and the common digits of its combinations,
//! precomputed, without the walk (630.2M -> 604.2M; 2,599.0M -> 2,589.3M);
//! the start queues only cells with one digit or none for naked singles
//! and units with a digit in one place or none for hidden singles, where
//! each of the 81 cells and 27 units was looked at (604.2M -> 577.1M;
//! 2,589.3M -> 2,562.2M); the cage rule reads its cells' candidates once
//! and keeps them as it narrows (577.1M -> 573.3M; 2,562.2M -> 2,554.5M).
//! Dropped: looking in the same pass at a cage whose cells an earlier cage
//! of the pass changed (577.1M -> 578.0M), and back to naked and hidden
//! singles after each cage that changes something (577.1M -> 654.9M).

use crate::core::grid::{CELLS, PEERS, UNITS, box_of};
use crate::core::mask::spread_lanes;
use crate::core::puzzle::KILLER_SEARCH_LIMIT;

use super::cages::combinations;

/// Every cell as a bit set.
const ALL_CELLS: u128 = (1 << CELLS) - 1;

/// Each cell as a bit set of its own.
const CELL_BITS: [u128; CELLS] = {
    let mut out = [0u128; CELLS];
    let mut c = 0;
    while c < CELLS {
        out[c] = 1 << c;
        c += 1;
    }
    out
};

/// The peers of each cell as a bit set.
const PEER_BITS: [u128; CELLS] = cell_sets(&PEERS);

/// Each list of cells as a bit set.
const fn cell_sets<const N: usize, const K: usize>(lists: &[[u8; K]; N]) -> [u128; N] {
    let mut out = [0u128; N];
    let mut n = 0;
    while n < N {
        let mut i = 0;
        while i < K {
            out[n] |= 1 << lists[n][i];
            i += 1;
        }
        n += 1;
    }
    out
}

/// Each cell's peers, then room for eight cage mates that are not peers:
/// where every solver's neighbour lists start.
const PEER_LISTS: [[u8; 28]; CELLS] = {
    let mut out = [[0u8; 28]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut i = 0;
        while i < 20 {
            out[c][i] = PEERS[c][i];
            i += 1;
        }
        c += 1;
    }
    out
};

/// Each cell with its peers, as a bit set.
const PEERS_AND_SELF: [u128; CELLS] = {
    let mut out = PEER_BITS;
    let mut c = 0;
    while c < CELLS {
        out[c] |= 1 << c;
        c += 1;
    }
    out
};

/// The units holding each cell as a bit set over unit indices (its row,
/// column and box).
const UNITS_OF: [u32; CELLS] = {
    let mut out = [0u32; CELLS];
    let mut c = 0;
    while c < CELLS {
        out[c] = 1 << (c / 9) | 1 << (9 + c % 9) | 1 << (18 + box_of(c));
        c += 1;
    }
    out
};

/// Each cell's row, column and box, with its position (0..9) in each.
const PLACES: [[(u8, u8); 3]; CELLS] = {
    let mut out = [[(0u8, 0u8); 3]; CELLS];
    let mut u = 0;
    while u < 27 {
        let mut i = 0;
        while i < 9 {
            out[UNITS[u][i] as usize][u / 9] = (u as u8, i as u8);
            i += 1;
        }
        u += 1;
    }
    out
};

/// Each 9-bit mask as nine 4-bit counters, one per digit: 1 in the counter
/// of each digit the mask has.
const SPREAD: [u64; 512] = {
    let mut out = [0u64; 512];
    let mut m = 0;
    while m < 512 {
        out[m] = spread_lanes(m as u16, 4);
        m += 1;
    }
    out
};

/// Bit 0 of every digit's counter.
const ONES: u64 = 0x1_1111_1111;

/// What each counter starts from, so that one of 0 or 1 place (6 or 7) is
/// the one whose top bit is clear, and none (6) is still above zero.
const BASE: u64 = 6 * ONES;

/// The counters of `places` standing for 0 or 1 place, as their bit 0.
#[inline]
fn few(places: u64) -> u64 {
    !(places >> 3) & ONES
}

/// Candidates of all cells (9-bit masks), which placed cells have already
/// been removed from their neighbours, and for each unit how many places
/// each digit has there (counters as [`SPREAD`] makes them), kept as cells
/// narrow so a hidden single is seen without a scan of its unit. The
/// candidates are read-only outside this module: every change goes through
/// `narrow`, which keeps the counters true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    cand: [u16; CELLS],
    pushed: u128,
    places: [u64; 27],
}

impl Board {
    /// The candidates of each cell, as 9-bit masks.
    pub fn cand(&self) -> &[u16; CELLS] {
        &self.cand
    }

    pub fn new(cand: [u16; CELLS]) -> Board {
        let mut places = [BASE; 27];
        for (u, unit) in UNITS.iter().enumerate() {
            for &c in unit {
                places[u] += SPREAD[usize::from(cand[usize::from(c)] & 0x1ff)];
            }
        }
        Board {
            cand,
            pushed: 0,
            places,
        }
    }
}

/// Where propagation found a line with no possible position; turned into
/// words only once, outside the hot loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// A cell with no candidate left.
    Cell(usize),
    /// A row, column or box (unit 0..27) with no place for digit index 0..9.
    Unit(usize, u32),
    /// A cage with no combination of its size and sum that fits.
    Cage(usize),
    /// A cage whose every combination needs digit index 0..9, with no place for it.
    CageDigit(usize, u32),
}

/// What each rule has yet to look at again since it changed.
#[derive(Clone, Copy, Debug)]
struct Dirty {
    /// For naked singles: a cell that became single pushes its digit out.
    push: u128,
    /// For hidden singles (and their conflicts): the units with a digit
    /// down to one place or none, and those digits as counter bits.
    units: u32,
    singles: [u64; 27],
    /// For the cages holding them.
    cages: u128,
}

impl Dirty {
    /// Nothing changed.
    const NONE: Dirty = Dirty {
        push: 0,
        units: 0,
        singles: [0; 27],
        cages: 0,
    };

    /// Every cell and unit: nothing is known to hold yet. Only a cell with
    /// one digit or none has anything to push, and only a unit with a digit
    /// in one place or none a hidden single to look at, so only those are
    /// queued (the rest would be looked at and found to have nothing).
    fn all(b: &Board) -> Dirty {
        let mut push = 0;
        for (&m, &bit) in b.cand.iter().zip(&CELL_BITS) {
            if m & m.wrapping_sub(1) == 0 {
                push |= bit;
            }
        }
        let singles = b.places.map(few);
        let mut units = 0;
        for (u, &s) in singles.iter().enumerate() {
            if s != 0 {
                units |= 1 << u;
            }
        }
        Dirty {
            push,
            units,
            singles,
            cages: ALL_CELLS,
        }
    }
}

/// Narrows cell `c` to `m`, a subset of its candidates, for every rule to see.
#[inline(never)]
fn narrow(b: &mut Board, dirty: &mut Dirty, c: usize, m: u16) -> Result<(), Conflict> {
    let gone = SPREAD[usize::from(b.cand[c] & !m & 0x1ff)];
    b.cand[c] = m;
    // A load, where shifting a 128-bit one is a dozen instructions.
    let bit = CELL_BITS[c];
    // Only a cell left with one digit (or none) has something to push.
    if m & m.wrapping_sub(1) == 0 {
        dirty.push |= bit;
    }
    dirty.cages |= bit;
    for (u, _) in PLACES[c] {
        let u = usize::from(u);
        b.places[u] -= gone;
        let down = few(b.places[u]) & gone;
        if down != 0 {
            dirty.units |= 1 << u;
            dirty.singles[u] |= down;
        }
    }
    if m == 0 {
        return Err(Conflict::Cell(c));
    }
    Ok(())
}

/// One cage as the solver sees it: up to nine cells, a sum and the digit
/// sets of that size and sum.
#[derive(Clone, Copy, Debug)]
struct Line {
    cells: [u8; 9],
    len: usize,
    bits: u128,
    combos: &'static [u16],
    /// The digits of any of `combos`, and those of all (all nine when
    /// there is none): what the cage allows and requires while every cell
    /// still has every digit of `union`.
    union: u16,
    common: u16,
    sum: u8,
    /// For each unit, the positions (0..9 in [`UNITS`]) of its cells in the
    /// cage: what a digit confined to the cage keeps there.
    inside: [u16; 27],
    /// The cells no unit sum shares: a look at the cage accounts for their
    /// changes for every line of the search (see [`Solver::cage`]).
    alone: u128,
}

impl Line {
    fn new(cells: &[u8], sum: u8) -> Line {
        let len = cells.len().min(9);
        let mut line = Line {
            cells: [0; 9],
            len,
            bits: 0,
            combos: combinations(len, sum),
            union: 0,
            common: 0x1ff,
            sum,
            inside: [0; 27],
            alone: 0,
        };
        line.cells[..len].copy_from_slice(&cells[..len]);
        for &set in line.combos {
            line.union |= set;
            line.common &= set;
        }
        for &a in &line.cells[..len] {
            line.bits |= 1 << a;
            for (u, i) in PLACES[usize::from(a)] {
                line.inside[usize::from(u)] |= 1 << i;
            }
        }
        line
    }
}

/// The fixed data of one puzzle: cages and each cell's neighbours (its 20
/// Sudoku peers plus cage mates outside them), built once before searching.
#[derive(Clone, Debug)]
pub struct Solver {
    /// The cages, then the unit sums the search adds (see [`unit_sums`]).
    lines: Vec<Line>,
    /// How many of `lines` are cages.
    cages: usize,
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
    pub fn new<C: AsRef<[u8]>>(cages: &[(C, u8)]) -> Solver {
        // The cages, and room for the unit sums.
        let mut lines = Vec::with_capacity(cages.len() + MAX_UNIT_SUMS);
        let mut neighbours = PEER_LISTS;
        let mut neighbour_len = [20u8; CELLS];
        // A cell's neighbours so far (itself included: never its own).
        let mut around = PEERS_AND_SELF;
        for (cells, sum) in cages {
            let line = Line::new(cells.as_ref(), *sum);
            let len = line.len;
            // Each cell's cage mates not yet among its neighbours, in the
            // cage's order (which fixes the order deductions, and so the
            // first conflict, are met in); a bit set, not a scan, says which.
            for &a in &line.cells[..len] {
                let a = a as usize;
                if line.bits & !around[a] == 0 {
                    // Every cage mate is a peer already (the usual case).
                    continue;
                }
                for &b in &line.cells[..len] {
                    let (len, bit) = (neighbour_len[a] as usize, 1u128 << b);
                    if around[a] & bit == 0 && len < 28 {
                        around[a] |= bit;
                        neighbours[a][len] = b;
                        neighbour_len[a] += 1;
                    }
                }
            }
            lines.push(line);
        }
        Solver {
            cages: lines.len(),
            lines,
            neighbours,
            neighbour_len,
        }
    }

    /// Adds the lines of the rule of 45 ([`unit_sums`]) for [`Solver::count`]
    /// to use. Not worth building for a board the root propagation solved.
    pub fn add_unit_sums(&mut self) {
        if self.lines.len() > self.cages {
            return;
        }
        let shared = unit_sums(&mut self.lines);
        for line in &mut self.lines[..self.cages] {
            line.alone = line.bits & !shared;
        }
    }

    /// Applies every rule until nothing changes. On a contradiction the board
    /// and the conflict are those of the fixed order (see the module text).
    pub fn propagate(&self, b: &mut Board) -> Result<(), Conflict> {
        let start = *b;
        if self.fixpoint(b, Dirty::all(b), self.cages).is_ok() {
            return Ok(());
        }
        *b = start;
        self.propagate_in_order(b)
    }

    /// The rules on what changed, cheapest first, until nothing has; the
    /// first `lines` of [`Solver::lines`] (the cages, or the unit sums too).
    fn fixpoint(&self, b: &mut Board, mut dirty: Dirty, lines: usize) -> Result<(), Conflict> {
        loop {
            let todo = dirty.push & !b.pushed;
            if todo != 0 {
                dirty.push = 0;
                for c in bits(todo) {
                    self.push_cell(c, b, &mut dirty)?;
                }
                continue;
            }
            if dirty.units != 0 {
                let mut todo = dirty.units;
                dirty.units = 0;
                while todo != 0 {
                    let u = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let digits = std::mem::take(&mut dirty.singles[u]);
                    hidden_singles(u, digits, b, &mut dirty)?;
                }
                continue;
            }
            if dirty.cages != 0 {
                let changed = dirty.cages;
                dirty.cages = 0;
                for k in 0..lines {
                    if self.lines[k].bits & changed != 0 {
                        self.cage(k, lines, b, &mut dirty)?;
                    }
                }
                continue;
            }
            return Ok(());
        }
    }

    /// The fixed order: all naked singles, then hidden singles in all 27
    /// units, then all cages, from the top after any change.
    fn propagate_in_order(&self, b: &mut Board) -> Result<(), Conflict> {
        let mut dirty = Dirty::NONE;
        'again: loop {
            // Deduce: each placed digit leaves its neighbours.
            loop {
                let mut pushed = false;
                for c in bits(!b.pushed & ALL_CELLS) {
                    pushed |= self.push_cell(c, b, &mut dirty)?;
                }
                if !pushed {
                    break;
                }
            }
            let mut changed = false;
            for u in 0..UNITS.len() {
                changed |= unit_singles(u, b, &mut dirty)?;
            }
            if changed {
                continue 'again;
            }
            for k in 0..self.cages {
                changed |= self.cage(k, self.cages, b, &mut dirty)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Deduce: a placed digit at `c` leaves its neighbours; whether `c` was placed.
    fn push_cell(&self, c: usize, b: &mut Board, dirty: &mut Dirty) -> Result<bool, Conflict> {
        let m = b.cand[c];
        if m == 0 {
            return Err(Conflict::Cell(c));
        }
        if m & (m - 1) != 0 {
            return Ok(false);
        }
        b.pushed |= 1 << c;
        for &n in &self.neighbours[c][..self.neighbour_len[c] as usize] {
            let n = n as usize;
            if b.cand[n] & m != 0 {
                narrow(b, dirty, n, b.cand[n] & !m)?;
            }
        }
        Ok(true)
    }

    /// Cage `k` as a line: only digits of combinations that fit survive, and
    /// a digit every fitting combination needs, with one place left, goes there.
    ///
    /// `lines` says which lines are in play: with the unit sums, a change to
    /// a cell they share stays for them to see.
    fn cage(
        &self,
        k: usize,
        lines: usize,
        b: &mut Board,
        dirty: &mut Dirty,
    ) -> Result<bool, Conflict> {
        let line = &self.lines[k];
        let cells = &line.cells[..line.len];
        let mut masks = [0u16; 9];
        let mut every = 0x1ff;
        for (m, &c) in masks.iter_mut().zip(cells) {
            *m = b.cand[c as usize];
            every &= *m;
        }
        let (allowed, required, placed) = match *cells {
            // The commonest cage, by arithmetic rather than a walk of its pairs.
            [_, _] if !line.combos.is_empty() => pair_digits(masks[0], masks[1], line.sum),
            // Every cell has every digit of every combination (as on the
            // first look from an open board): all of them fit, none is
            // placed (a combination of two cells or more has two digits or
            // more), and the walk would find `union` and `common`.
            [_, _, ..] if every & line.union == line.union => (line.union, line.common, 0),
            _ => cage_digits(&masks[..line.len], line.combos),
        };
        if allowed == 0 {
            return Err(Conflict::Cage(k));
        }
        let mut changed = false;
        // `masks` stays each cell's candidates: only narrowing a cell
        // changes it, and the cells of a cage are distinct.
        for (m, &c) in masks.iter_mut().zip(cells) {
            if *m & !allowed != 0 {
                *m &= allowed;
                narrow(b, dirty, usize::from(c), *m)?;
                changed = true;
            }
        }
        // This look saw every change to the cage's cells so far, and cutting
        // them to `allowed` keeps every combination that fits: the cage needs
        // no second look unless a digit is placed below (which can leave
        // another required digit one place). With the unit sums in play a
        // cell may belong to two lines, and only the cells of no unit sum
        // are this line's alone to clear: a cage must see every change to
        // its cells, or a board breaking its sum could pass for a solution.
        // A unit sum clears nothing.
        dirty.cages &= if lines == self.cages {
            !line.bits
        } else {
            !line.alone
        };
        let mut need = required & !placed;
        while need != 0 {
            let bit = need & need.wrapping_neg();
            need ^= bit;
            // Where the digit can go, and the units holding all those places.
            let (mut at, mut count, mut common) = (0usize, 0u64, u32::MAX);
            for (i, (&m, &c)) in masks.iter().zip(cells).enumerate() {
                if m & bit != 0 {
                    at = i;
                    count += 1;
                    common &= UNITS_OF[usize::from(c)];
                }
            }
            match (count, masks.get_mut(at), cells.get(at)) {
                (0, ..) => return Err(Conflict::CageDigit(k, bit.trailing_zeros())),
                (1, Some(m), Some(&c)) if *m != bit => {
                    *m = bit;
                    narrow(b, dirty, usize::from(c), bit)?;
                    changed = true;
                }
                (1, ..) => {}
                _ => {
                    // The digit is in the cage, at one of these places; if they share
                    // a row, column or box, it can be nowhere else in that unit
                    // (the cage's other cells no longer have it to lose).
                    // The unit's count of places says, without a scan,
                    // whether any lies outside the cage.
                    let shift = 4 * bit.trailing_zeros();
                    while common != 0 {
                        let u = common.trailing_zeros() as usize;
                        common &= common - 1;
                        if (b.places[u] >> shift & 0xf) - (BASE & 0xf) > count {
                            let unit = &UNITS[u];
                            changed |= remove_outside(b, dirty, unit, line.inside[u], bit)?;
                        }
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Counts solutions of an already propagated board, stopping at two;
    /// with the unit sums, if [`Solver::add_unit_sums`] added them.
    pub fn count(&self, b: &Board) -> Count {
        let mut count = Count {
            found: 0,
            nodes: 0,
            solution: [0; CELLS],
        };
        // The board is the cages' fixpoint: only the unit sums are new.
        let mut b = *b;
        let mut dirty = Dirty::NONE;
        let all = self.lines.len();
        let start =
            (self.cages..all).try_for_each(|k| self.cage(k, all, &mut b, &mut dirty).map(drop));
        if start.is_ok() && self.fixpoint(&mut b, dirty, all).is_ok() {
            self.search(&b, &mut count);
        } else {
            count.nodes = 1;
        }
        count
    }

    fn search(&self, b: &Board, count: &mut Count) {
        count.nodes += 1;
        if count.nodes > KILLER_SEARCH_LIMIT {
            return;
        }
        let Some(c) = self.branch_cell(b) else {
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
            let mut dirty = Dirty::NONE;
            // The board was a fixpoint: only what follows from `c` can
            // change. `bit` is one of its candidates, so no conflict here.
            if narrow(&mut next, &mut dirty, c, bit).is_ok()
                && self.fixpoint(&mut next, dirty, self.lines.len()).is_ok()
            {
                self.search(&next, count);
                if count.found >= 2 || count.nodes > KILLER_SEARCH_LIMIT {
                    return;
                }
            }
        }
    }

    /// The open cell to branch on: the one with the most neighbours sharing
    /// a candidate with it, less four for each candidate it has. Such a
    /// choice strikes the most whichever digit it takes, so more branches
    /// die at once: on krazydad puzzles 2.9 nodes a puzzle where the first
    /// cell of fewest candidates takes 5.7 (both before the unit sums, with
    /// which the first 500 take 1.25). `None` when every cell is placed.
    fn branch_cell(&self, b: &Board) -> Option<usize> {
        let mut best = None;
        let mut top = 0usize;
        for (c, &m) in b.cand.iter().enumerate() {
            let n = usize::from(DIGITS[usize::from(m)]);
            if n <= 1 {
                continue;
            }
            let len = usize::from(self.neighbour_len[c]);
            // A candidate costs as much as four neighbours sharing one.
            let rest = 4 * (10 - n);
            if len + rest <= top {
                continue;
            }
            let shared = self.neighbours[c][..len]
                .iter()
                .filter(|&&o| b.cand[usize::from(o)] & m != 0)
                .count();
            if shared + rest > top {
                top = shared + rest;
                best = Some(c);
            }
        }
        best
    }

    /// The cells of cage `k`, for naming it in messages.
    pub fn cage_cells(&self, k: usize) -> &[u8] {
        self.lines.get(k).map_or(&[], |l| &l.cells[..l.len])
    }
}

/// Each row, column and box (unit 0..27) as a bit set of cells.
const UNIT_BITS: [u128; 27] = cell_sets(&UNITS);

/// The lines the rule of 45 adds for the search. A row, column or box holds
/// each digit once, so its cells add to 45. Its cells outside the cages
/// that lie inside it ("innies") then add to 45 less those cages' sums, and
/// the cells outside it of the cages that cover it ("outies") to their sums
/// less 45. Such a set of cells in one unit takes distinct digits with a
/// known sum: a cage in all but name, which the cage rule narrows as any.
/// Not for the root, whose rules docs/formats.md "Propagation" fixes (the stored board is their
/// fixpoint), and not for cages that overlap, whose sums count a cell twice.
///
/// Appends them to `lines` (the cages) and returns the cells they hold.
fn unit_sums(lines: &mut Vec<Line>) -> u128 {
    // Per unit: the cells and sum of the cages inside it, and of those
    // that touch it.
    let mut inside = [(0u128, 0u32); 27];
    let mut touched = [(0u128, 0u32); 27];
    let mut covered = 0u128;
    for cage in lines.iter() {
        if cage.bits & covered != 0 {
            return 0;
        }
        covered |= cage.bits;
        let (mut within, mut touches) = (u32::MAX, 0u32);
        for &c in &cage.cells[..cage.len] {
            within &= UNITS_OF[usize::from(c)];
            touches |= UNITS_OF[usize::from(c)];
        }
        while touches != 0 {
            let u = touches.trailing_zeros() as usize;
            touches &= touches - 1;
            touched[u].0 |= cage.bits;
            touched[u].1 += u32::from(cage.sum);
            if within >> u & 1 != 0 {
                inside[u].0 |= cage.bits;
                inside[u].1 += u32::from(cage.sum);
            }
        }
    }
    // The cells of each sum so far, to add none twice.
    let mut sets = [0u128; MAX_UNIT_SUMS];
    let mut count = 0;
    for (u, &unit) in UNIT_BITS.iter().enumerate() {
        let ((inside, inside_sum), (touched, touched_sum)) = (inside[u], touched[u]);
        let innies = (unit & !inside, 45u32.checked_sub(inside_sum));
        // Outies only when the cages that touch the unit cover it. A sum
        // no distinct digits make (say 255) is a conflict, as it should be.
        let covers = unit & !touched == 0;
        let outies = (
            touched & !unit,
            touched_sum.checked_sub(45).filter(|_| covers),
        );
        for (set, sum) in [innies, outies] {
            let Some(sum) = sum else { continue };
            // One to MAX_UNIT_SUM_CELLS cells, without counting them all.
            let mut rest = set;
            for _ in 0..MAX_UNIT_SUM_CELLS {
                rest &= rest.wrapping_sub(1);
            }
            if set == 0 || rest != 0 {
                continue;
            }
            // In one unit: the row, column or box of its first cell.
            let first = set.trailing_zeros() as usize;
            let in_one_unit = PLACES[first]
                .iter()
                .any(|&(u, _)| set & !UNIT_BITS[usize::from(u)] == 0);
            // Never a cage's cells (inside cages are left out, and outies
            // are parts of cages that touch the unit), maybe another sum's.
            if in_one_unit && !sets[..count].contains(&set) && count < sets.len() {
                sets[count] = set;
                count += 1;
                let mut list = [0u8; 9];
                let mut len = 0;
                for (slot, c) in list.iter_mut().zip(bits(set)) {
                    *slot = c as u8;
                    len += 1;
                }
                lines.push(Line::new(
                    &list[..len],
                    u8::try_from(sum).unwrap_or(u8::MAX),
                ));
            }
        }
    }
    sets.iter().fold(0, |all, set| all | set)
}

/// The largest unit sum the search takes on.
const MAX_UNIT_SUM_CELLS: usize = 3;

/// At most an innie and an outie set for each unit.
const MAX_UNIT_SUMS: usize = 54;

/// The cells of a bit set, lowest first.
fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let c = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(c)
    })
}

/// [`unit_singles`] for the digits of unit `u` (counter bits) whose places
/// fell to one or none: a digit with none is a conflict, one with a single
/// place goes there.
fn hidden_singles(
    u: usize,
    mut digits: u64,
    b: &mut Board,
    dirty: &mut Dirty,
) -> Result<(), Conflict> {
    while digits != 0 {
        let at = digits.trailing_zeros();
        digits &= digits - 1;
        let d = at / 4;
        if b.places[u] >> at & 0xf == BASE & 0xf {
            return Err(Conflict::Unit(u, d));
        }
        place_single(&UNITS[u], 1 << d, b, dirty)?;
    }
    Ok(())
}

/// Places digit `bit` at its one place in `unit`; whether that narrowed
/// the cell (it may be placed there already). Inlined into both callers:
/// as a call, the solver bench took 3% more instructions (callgrind).
#[inline(always)]
fn place_single(
    unit: &[u8; 9],
    bit: u16,
    b: &mut Board,
    dirty: &mut Dirty,
) -> Result<bool, Conflict> {
    for &c in unit {
        let c = usize::from(c);
        if b.cand[c] & bit != 0 {
            if b.cand[c] == bit {
                return Ok(false);
            }
            narrow(b, dirty, c, bit)?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// Eliminate along the row-, column- or box-digit lines of unit `u`: a digit
/// with one place goes there; whether anything changed.
fn unit_singles(u: usize, b: &mut Board, dirty: &mut Dirty) -> Result<bool, Conflict> {
    let unit = &UNITS[u];
    let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
    for &c in unit {
        let m = b.cand[c as usize];
        twice |= once & m;
        once |= m;
        if m & m.wrapping_sub(1) == 0 {
            placed |= m;
        }
    }
    if once != 0x1ff {
        return Err(Conflict::Unit(u, (!once & 0x1ff).trailing_zeros()));
    }
    let mut changed = false;
    // A placed digit is its own only place: nothing to do for it.
    let mut single = once & !twice & !placed;
    while single != 0 {
        let bit = single & single.wrapping_neg();
        single ^= bit;
        changed |= place_single(unit, bit, b, dirty)?;
    }
    Ok(changed)
}

/// The digits of the combinations that fit cells with candidates `masks`
/// (each cell a different digit of the set), the digits all of them share
/// (all nine when none fits), and the digits already placed in the cells.
// Inlined into its one hot caller: out of line, the call costs more than
// the small cages' work (callgrind).
#[inline(always)]
fn cage_digits(masks: &[u16], combos: &[u16]) -> (u16, u16, u16) {
    // A placed cell can only take its own digit: the rest of each set must
    // go to the open cells, which is a smaller matching.
    let (mut union, mut placed, mut placed_cells) = (0u16, 0u16, 0u32);
    let mut open = [0u16; 9];
    let mut n = 0;
    for &m in masks {
        union |= m;
        if m & (m.wrapping_sub(1)) == 0 {
            // An empty cell counts as placed with no digit: nothing fits.
            placed |= m;
            placed_cells += 1;
        } else {
            open[n] = m;
            n += 1;
        }
    }
    let (mut allowed, mut required) = (0u16, 0x1ffu16);
    if placed.count_ones() != placed_cells {
        // A digit placed twice, or a cell with none.
        return (allowed, required, placed);
    }
    let open = &open[..n];
    for &set in combos {
        if set & !union != 0
            || placed & !set != 0
            || allowed | set == allowed && required & set == required
        {
            // Needs a digit no cell has, misses a placed digit, or adds nothing.
            continue;
        }
        if fits(open, set & !placed) {
            allowed |= set;
            required &= set;
            if allowed == union && required == placed {
                // No set can add a digit no cell has, nor lose a placed one.
                break;
            }
        }
    }
    (allowed, required, placed)
}

/// Each 9-bit mask reversed: digit `d` becomes digit `10 - d`.
const REVERSED: [u16; 512] = {
    let mut out = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut d = 0;
        while d < 9 {
            if m & (1 << d) != 0 {
                out[m] |= 1 << (8 - d);
            }
            d += 1;
        }
        m += 1;
    }
    out
};

/// [`cage_digits`] for two cells `a` and `b` adding to `sum` (3 to 17: one
/// that has pairs). A pair fits when one cell has a digit and the other its
/// partner, so the allowed digits are each cell's digits whose partner the
/// other has (not itself: the digits differ); two pairs of one sum share no
/// digit, so every fitting pair shares a digit only when there is one.
fn pair_digits(a: u16, b: u16, sum: u8) -> (u16, u16, u16) {
    // The digits `sum - e` for each digit `e` of `m`: `10 - e`, shifted.
    let partners = |m: u16| {
        let r = REVERSED[usize::from(m & 0x1ff)];
        if sum >= 10 {
            r << (sum - 10) & 0x1ff
        } else {
            r >> (10 - sum)
        }
    };
    let half = if sum & 1 == 0 { 1 << (sum / 2 - 1) } else { 0 };
    let allowed = (a & partners(b) | b & partners(a)) & !half;
    let single = |m: u16| if m & m.wrapping_sub(1) == 0 { m } else { 0 };
    let placed = single(a) | single(b);
    let required = match DIGITS[usize::from(allowed)] {
        0 => 0x1ff,
        2 => allowed,
        _ => 0,
    };
    (allowed, required, placed)
}

/// The number of digits in each 9-bit mask: a load, where `count_ones`
/// without the popcnt instruction (not in the baseline target) is a dozen.
const DIGITS: [u8; 512] = {
    let mut out = [0u8; 512];
    let mut m = 1;
    while m < 512 {
        out[m] = out[m >> 1] + (m & 1) as u8;
        m += 1;
    }
    out
};

/// Whether the cells can take the digits of `set` (as many as cells) one
/// each. Up to five cells by Hall's condition (every group of cells sees at
/// least as many digits of the set), which is cheap and branch-light; more
/// by augmenting paths.
fn fits(masks: &[u16], set: u16) -> bool {
    // Two or more digits of the set.
    let two = |u: u16| u & u.wrapping_sub(1) != 0;
    match *masks {
        [] => true,
        [a] => a & set != 0,
        [a, b] => {
            let (x, y) = (a & set, b & set);
            x != 0 && y != 0 && x | y == set
        }
        [a, b, c] => {
            let (x, y, z) = (a & set, b & set, c & set);
            x != 0 && y != 0 && z != 0 && two(x | y) && two(x | z) && two(y | z) && x | y | z == set
        }
        [a, b, c, d] => {
            let (x, y, z, w) = (a & set, b & set, c & set, d & set);
            let three = |u: u16| DIGITS[usize::from(u)] >= 3;
            x != 0
                && y != 0
                && z != 0
                && w != 0
                && two(x | y)
                && two(x | z)
                && two(x | w)
                && two(y | z)
                && two(y | w)
                && two(z | w)
                && three(x | y | z)
                && three(x | y | w)
                && three(x | z | w)
                && three(y | z | w)
                && x | y | z | w == set
        }
        // Each cell in turn the lowest digit it can still take: when that
        // works (wide masks, nearly always) it is a matching, found without
        // the search for one.
        [..] if greedy(masks, set) || greedy_high(masks, set) => true,
        [..] if masks.len() <= 5 => {
            let mut seen = [0u16; 32];
            for group in 1..1usize << masks.len() {
                let u = seen[group & (group - 1)] | masks[group.trailing_zeros() as usize] & set;
                if DIGITS[usize::from(u)] < DIGITS[group] {
                    return false;
                }
                seen[group] = u;
            }
            true
        }
        [..] => masks.iter().all(|&m| m & set != 0) && has_matching(masks, set),
    }
}

/// [`greedy`] from the last cell, giving each its highest digit: another
/// cheap try before the search for a matching.
fn greedy_high(masks: &[u16], set: u16) -> bool {
    let mut free = set;
    for &m in masks.iter().rev() {
        let options = m & free;
        if options == 0 {
            return false;
        }
        free ^= 0x8000 >> (options.leading_zeros());
    }
    true
}

/// Whether giving each cell in turn the lowest digit of `set` it can still
/// take gives every cell one.
fn greedy(masks: &[u16], set: u16) -> bool {
    let mut free = set;
    for &m in masks {
        let options = m & free;
        if options == 0 {
            return false;
        }
        free ^= options & options.wrapping_neg();
    }
    true
}

/// Removes `bit` from the cells of `unit` but those at positions `keep`;
/// whether anything changed.
fn remove_outside(
    b: &mut Board,
    dirty: &mut Dirty,
    unit: &[u8; 9],
    keep: u16,
    bit: u16,
) -> Result<bool, Conflict> {
    let mut changed = false;
    for (i, &o) in unit.iter().enumerate() {
        let o = o as usize;
        if b.cand[o] & bit != 0 && keep >> i & 1 == 0 {
            narrow(b, dirty, o, b.cand[o] & !bit)?;
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

#[cfg(test)]
mod reference;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::killer::Killer;
    use crate::core::killer::krazydad::{FIRST500, rows};
    use proptest::prelude::*;

    /// The puzzles of a krazydad CSV with their solutions.
    fn krazydad(text: &str) -> Vec<(Killer, String)> {
        rows(text)
            .map(|r| (Killer::from_cages(&r.ids, &r.sums).unwrap(), r.solved))
            .collect()
    }

    /// FNV-1a over what the archive keeps of each puzzle: the propagated
    /// candidates and contradiction, the status (count and unique solution)
    /// and the encoding.
    fn digest(puzzles: &[(Killer, String)]) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        };
        for (k, _) in puzzles {
            let p = k.propagate();
            for m in p.candidates {
                eat(&m.bits().to_le_bytes());
            }
            eat(format!("{:?}", p.contradiction).as_bytes());
            let a = k.analysis();
            eat(format!("{:?}", a.status).as_bytes());
            eat(a.encoding.as_bytes());
        }
        h
    }

    /// Recorded from the solver before the dirty-set rewrite.
    const FIRST500_DIGEST: u64 = 0x34e9_44ea_c7ce_240e;
    const ALL8000_DIGEST: u64 = 0x953f_7ac9_c553_ad2f;

    #[test]
    fn the_first_500_krazydad_puzzles_analyse_as_they_did_before_the_rewrite() {
        let puzzles = krazydad(FIRST500);
        assert_eq!(puzzles.len(), 500);
        assert_eq!(digest(&puzzles), FIRST500_DIGEST, "{:#x}", digest(&puzzles));
    }

    /// Needs the shared corpora (not on users' machines): run with
    /// `cargo test --release -- --ignored krazydad_8000`.
    #[test]
    #[ignore]
    fn all_8000_krazydad_puzzles_analyse_as_they_did_before_the_rewrite_krazydad_8000() {
        let dir = std::env::var("SUDOKU_CORPORA").unwrap_or_else(|_| "/work/shared/corpora".into());
        let text = std::fs::read_to_string(format!("{dir}/killer/krazydad_intermediate_8000.csv"))
            .unwrap();
        let puzzles = krazydad(&text);
        assert_eq!(puzzles.len(), 8000);
        assert_eq!(digest(&puzzles), ALL8000_DIGEST, "{:#x}", digest(&puzzles));
    }

    type Cages = Vec<(Vec<u8>, u8)>;

    /// The cage list of a puzzle, as `Killer::solver` builds it.
    fn lines(k: &Killer) -> Cages {
        k.cages()
            .iter()
            .map(|cage| {
                let cells = cage.cells().iter().map(|c| c.index() as u8).collect();
                (cells, cage.sum())
            })
            .collect()
    }

    /// Runs both solvers from the same cages and board and insists on the
    /// same propagation (result and board, even part way on a conflict),
    /// then the same count and unique solution.
    fn same_as_reference(cages: &[(Vec<u8>, u8)], cand: [u16; CELLS]) -> Result<(), TestCaseError> {
        let (mut new, old) = (Solver::new(cages), reference::Solver::new(cages));
        let (mut b, mut r) = (Board::new(cand), reference::Board::new(cand));
        let (got, want) = (new.propagate(&mut b), old.propagate(&mut r));
        prop_assert_eq!(got, want);
        prop_assert_eq!(b.cand, r.cand);
        if got.is_ok() {
            new.add_unit_sums();
            let (got, want) = (new.count(&b), old.count(&r));
            prop_assert_eq!(got.found, want.found);
            // The branching differs from the reference's, so the node
            // counts do; both stay within the limit's bound.
            prop_assert!(got.nodes <= KILLER_SEARCH_LIMIT + 1);
            if got.found == 1 {
                prop_assert_eq!(got.solution, want.solution);
            }
        }
        Ok(())
    }

    #[test]
    fn odd_boards_propagate_and_count_as_the_reference_does() {
        let (k, solved) = &krazydad(FIRST500)[0];
        let all = lines(k);
        let digit = |c: usize| 1u16 << (solved.as_bytes()[c] - b'1');
        let mut placed = [0x1ff; CELLS];
        for c in (0..CELLS).step_by(7) {
            placed[c] = digit(c);
        }
        let mut wrong = [0x1ff; CELLS];
        wrong[40] = digit(40) << 1 & 0x1ff | 1;
        let mut clash = [0x1ff; CELLS];
        clash[0] = 1;
        clash[1] = 1;
        let cases: Vec<(&str, Cages, [u16; CELLS])> = vec![
            ("no cages at all", vec![], [0x1ff; CELLS]),
            ("no cages, some digits", vec![], placed),
            ("every cage", all.clone(), [0x1ff; CELLS]),
            ("every cage, some digits", all.clone(), placed),
            ("every cage, a wrong digit", all.clone(), wrong),
            ("every cage, a digit twice in a row", all.clone(), clash),
            (
                "every other cage",
                all.iter().step_by(2).cloned().collect(),
                [0x1ff; CELLS],
            ),
            ("a sum-3 pair only", vec![(vec![0, 1], 3)], [0x1ff; CELLS]),
        ];
        for (name, cages, cand) in cases {
            if let Err(e) = same_as_reference(&cages, cand) {
                panic!("{name}: {e}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn variants_of_real_puzzles_propagate_and_count_as_the_reference_does(
            row in 0usize..500,
            keep in prop::collection::vec(0u8..4, 40),
            cells in prop::collection::vec(0u16..1200, CELLS),
        ) {
            let (k, solved) = &krazydad(FIRST500)[row];
            // About a quarter of the cages dropped: more solutions, less pruning.
            let cages: Vec<_> = lines(k)
                .into_iter()
                .zip(keep.iter().chain(std::iter::repeat(&1)))
                .filter(|&(_, &keep)| keep != 0)
                .map(|(cage, _)| cage)
                .collect();
            // Mostly open cells; some the solution's digit, some any digit
            // (often a contradiction), some any candidate set.
            let cand: [u16; CELLS] = std::array::from_fn(|c| match cells[c] {
                v @ 0..1000 => if v < 900 { 0x1ff } else { 1 << (solved.as_bytes()[c] - b'1') },
                v @ 1000..1040 => 1 << (v % 9),
                v => (v * 37 + 1) & 0x1ff | 1 << (solved.as_bytes()[c] - b'1'),
            });
            same_as_reference(&cages, cand)?;
        }
    }

    #[test]
    fn every_unit_sum_of_a_real_puzzle_lies_in_one_unit_and_adds_up_in_its_solution() {
        let mut lines_seen = 0;
        for (k, solved) in krazydad(FIRST500) {
            let mut solver = Solver::new(&lines(&k));
            solver.add_unit_sums();
            for line in &solver.lines[solver.cages..] {
                let cells = &line.cells[..line.len];
                assert!(UNIT_BITS.iter().any(|&u| line.bits & !u == 0), "{cells:?}");
                let digits: u32 = cells
                    .iter()
                    .map(|&c| u32::from(solved.as_bytes()[usize::from(c)] - b'0'))
                    .sum();
                assert_eq!(digits, u32::from(line.sum), "{cells:?}");
                lines_seen += 1;
            }
        }
        // Some four a puzzle, of one to three cells each.
        assert!(lines_seen > 1000, "{lines_seen}");
    }

    #[test]
    fn overlapping_cages_get_no_unit_sums() {
        // Row 1 minus these would be r1c8-9 adding to 13, but r1c4 is
        // counted twice: nothing follows.
        let mut solver = Solver::new(&[(vec![0u8, 1, 2, 3], 10), (vec![3, 4, 5, 6], 22)]);
        solver.add_unit_sums();
        assert_eq!(solver.lines.len(), 2);
    }

    /// The rule of 45 below the root is what settles most krazydad puzzles
    /// without a branch: 234 of the first 500 without it, 1,435 nodes in all.
    #[test]
    fn most_krazydad_puzzles_need_no_branch_once_the_search_adds_unit_sums() {
        let (mut nodes, mut unbranched) = (0, 0);
        for (k, _) in krazydad(FIRST500) {
            let mut solver = Solver::new(&lines(&k));
            let mut b = Board::new([0x1ff; CELLS]);
            solver.propagate(&mut b).unwrap();
            solver.add_unit_sums();
            let count = solver.count(&b);
            assert_eq!(count.found, 1);
            nodes += count.nodes;
            unbranched += usize::from(count.nodes == 1);
        }
        assert!(unbranched >= 450, "{unbranched}");
        assert!(nodes <= 650, "{nodes}");
    }

    #[test]
    fn two_cells_allow_and_require_what_a_walk_of_their_pairs_does() {
        for sum in 0..=20 {
            let combos = combinations(2, sum);
            if combos.is_empty() {
                continue;
            }
            for a in 0..512u16 {
                for b in (0..512u16).step_by(7).chain([1 << 8, 0x1ff]) {
                    let (got, want) = (pair_digits(a, b, sum), cage_digits(&[a, b], combos));
                    // Nothing fitting is a conflict whatever else is said.
                    if want.0 == 0 {
                        assert_eq!(got.0, 0, "{sum} {a:b} {b:b}");
                    } else {
                        assert_eq!(got, want, "{sum} {a:b} {b:b}");
                    }
                }
            }
        }
    }

    #[test]
    fn matching_needs_distinct_digits_for_every_cell() {
        let cases: [(&[u16], u16, bool); 4] = [
            (&[0b11, 0b11], 0b11, true),
            (&[0b01, 0b01], 0b11, false),
            (&[0b111, 0b001, 0b010], 0b111, true),
            (&[0b011, 0b011, 0b011], 0b111, false),
        ];
        for (masks, set, want) in cases {
            assert_eq!(has_matching(masks, set), want, "{masks:?} {set:b}");
        }
    }

    #[test]
    fn a_two_cell_cage_of_three_places_one_and_two_and_keeps_them_out_of_its_row() {
        // Cage r1c1+r1c2 = 3 needs both 1 and 2, both within row 1 and box 1.
        let solver = Solver::new(&[(vec![0, 1], 3)]);
        let mut b = Board::new([0x1ff; CELLS]);
        solver.propagate(&mut b).unwrap();
        assert_eq!((b.cand[0], b.cand[1]), (0b11, 0b11));
        assert!([2, 3, 8, 9, 10, 20].iter().all(|&c| b.cand[c] & 0b11 == 0));
        assert_eq!(b.cand[27], 0x1ff);
    }

    #[test]
    fn a_cage_that_cannot_be_filled_is_a_conflict() {
        let solver = Solver::new(&[(vec![0, 1], 3)]);
        let mut cand = [0x1ff; CELLS];
        cand[0] = 0b1;
        cand[1] = 0b1;
        let err = solver.propagate(&mut Board::new(cand)).unwrap_err();
        assert!(
            matches!(err, Conflict::Cell(_) | Conflict::Cage(0)),
            "{err:?}"
        );
    }
}
