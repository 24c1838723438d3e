//! The search below the root: counts solutions up to two over a board that
//! the root rules already brought to their fixpoint. Owns stronger rules than
//! the root's, used only here, where nothing but "contradiction or not"
//! leaves a node, so they may differ from FORMATS.md's "What propagate
//! means" without changing any stored string. Must not be used at the root.
//!
//! The rule is per line (row or column) instead of per compartment: the
//! straights of a line's compartments must also be disjoint from each other,
//! so a straight survives only if the line's other compartments can take
//! disjoint straights beside it. This sees "stranded" digits and straights
//! crowded out by a neighbour, which the compartment rule alone does not, and
//! it subsumes the root's "needed digit leaves the line". Singles spread from
//! a worklist, and a line's rule reruns only when one of its cells changed.

use crate::core::grid::CELLS;
use crate::core::puzzle::SEARCH_LIMIT;

/// Lines: rows 0..9, then columns 9..18.
const LINES: usize = 18;

/// The nine cells of each line, in order.
const LINE_CELLS: [[u8; 9]; LINES] = {
    let mut t = [[0u8; 9]; LINES];
    let mut l = 0;
    while l < 9 {
        let mut k = 0;
        while k < 9 {
            t[l][k] = (l * 9 + k) as u8;
            t[9 + l][k] = (k * 9 + l) as u8;
            k += 1;
        }
        l += 1;
    }
    t
};

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

/// The two lines of each cell, as a bit set over lines.
const fn lines_of(i: usize) -> u32 {
    (1 << (i / 9)) | (1 << (9 + i % 9))
}

/// A line's compartments as runs `(first position, length)` along it.
#[derive(Clone, Copy, Default)]
struct Runs {
    n: usize,
    run: [(u8, u8); 5],
}

/// The fixed layout the search reads.
pub(super) struct Layout {
    black: [bool; CELLS],
    runs: [Runs; LINES],
}

/// The search found a contradiction; which one does not matter below the root.
struct Dead;

type Cells = [u16; CELLS];

impl Layout {
    pub(super) fn new(black: &[bool; CELLS]) -> Layout {
        let mut runs = [Runs::default(); LINES];
        for (l, r) in runs.iter_mut().enumerate() {
            let mut start = None;
            for k in 0..=9 {
                let white = k < 9 && !black[usize::from(LINE_CELLS[l][k])];
                match (white, start) {
                    (true, None) => start = Some(k),
                    (false, Some(s)) => {
                        r.run[r.n] = (s as u8, (k - s) as u8);
                        r.n += 1;
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        Layout {
            black: *black,
            runs,
        }
    }

    /// Counts solutions below a root fixpoint, stopping at two; keeps the
    /// first solution found. Returns the nodes visited.
    pub(super) fn count(&self, cells: &Cells, count: &mut u32, found: &mut Option<Cells>) -> u64 {
        let mut nodes = 0;
        self.search(cells, count, found, &mut nodes);
        nodes
    }

    /// Depth-first search, branching on the white cell with the fewest
    /// candidates; stops once two solutions are known.
    fn search(&self, cells: &Cells, count: &mut u32, found: &mut Option<Cells>, nodes: &mut u64) {
        *nodes += 1;
        if *nodes > SEARCH_LIMIT {
            return;
        }
        let mut best: Option<(usize, u32)> = None;
        for (i, m) in cells.iter().enumerate() {
            let n = m.count_ones();
            if !self.black[i] && n >= 2 && best.is_none_or(|(_, b)| n < b) {
                best = Some((i, n));
                if n == 2 {
                    break;
                }
            }
        }
        let Some((i, _)) = best else {
            // Every line's rule holds at the fixpoint, so a board with every
            // white cell placed is a solution.
            *count += 1;
            if found.is_none() {
                *found = Some(*cells);
            }
            return;
        };
        let mut digits = cells[i];
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            let mut next = *cells;
            next[i] = bit;
            let mut work = Work::new();
            work.push(i);
            if self.propagate(&mut next, work).is_ok() {
                self.search(&next, count, found, nodes);
                if *count >= 2 || *nodes > SEARCH_LIMIT {
                    return;
                }
            }
        }
    }

    /// Spreads new singles and reruns dirty lines until nothing changes.
    fn propagate(&self, cells: &mut Cells, mut work: Work) -> Result<(), Dead> {
        loop {
            while let Some(i) = work.pop() {
                self.spread(cells, i, &mut work)?;
            }
            if work.dirty == 0 {
                return Ok(());
            }
            let l = work.dirty.trailing_zeros() as usize;
            work.dirty &= work.dirty - 1;
            self.line(cells, l, &mut work)?;
        }
    }

    /// Removes the digit placed in cell `i` from its row and column.
    fn spread(&self, cells: &mut Cells, i: usize, work: &mut Work) -> Result<(), Dead> {
        let d = cells[i];
        for &p in &LINE_PEERS[i] {
            let p = usize::from(p);
            let m = cells[p];
            if m & d == 0 {
                continue;
            }
            if self.black[p] || m & (m - 1) == 0 {
                return Err(Dead);
            }
            work.narrow(cells, p, m & !d);
        }
        Ok(())
    }

    /// The line rule: each compartment keeps the digits of the straights it
    /// can hold while the line's other compartments hold disjoint ones; a
    /// digit all of those straights need goes to its only place, if it has one.
    fn line(&self, cells: &mut Cells, l: usize, work: &mut Work) -> Result<(), Dead> {
        let runs = &self.runs[l];
        let line = &LINE_CELLS[l];
        let mut fit = [[0u16; 9]; 5];
        let mut nfit = [0usize; 5];
        for j in 0..runs.n {
            let (start, len) = runs.run[j];
            let (start, len) = (usize::from(start), usize::from(len));
            let mut allowed = [0u16; 9];
            for k in 0..len {
                allowed[k] = cells[usize::from(line[start + k])];
            }
            nfit[j] = fitting(&allowed[..len], &mut fit[j]);
            if nfit[j] == 0 {
                return Err(Dead);
            }
        }
        let mut union = [0u16; 5];
        let mut need = [0x1ffu16; 5];
        if runs.n == 1 {
            for s in &fit[0][..nfit[0]] {
                union[0] |= s;
                need[0] &= s;
            }
        } else {
            let mut combos = Combos {
                fit: &fit,
                nfit: &nfit,
                n: runs.n,
                seen: [[0; 8]; 5],
                good: [[0; 8]; 5],
                union: &mut union,
                need: &mut need,
            };
            if !combos.any(0, 0) {
                return Err(Dead);
            }
        }
        for j in 0..runs.n {
            let (start, len) = runs.run[j];
            let comp = &line[usize::from(start)..usize::from(start + len)];
            for &c in comp {
                let c = usize::from(c);
                let m = cells[c];
                if m & !union[j] != 0 {
                    // A supported straight gives every cell a digit of it.
                    work.narrow(cells, c, m & union[j]);
                }
            }
            let mut needed = need[j];
            while needed != 0 {
                let bit = needed & needed.wrapping_neg();
                needed &= needed - 1;
                let mut places = comp
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| cells[c] & bit != 0);
                match (places.next(), places.next()) {
                    (None, _) => return Err(Dead),
                    (Some(c), None) if cells[c] != bit => work.narrow(cells, c, bit),
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// The straights of `allowed.len()` digits the cells can hold, written to
/// `out`; returns how many.
pub(super) fn fitting(allowed: &[u16], out: &mut [u16; 9]) -> usize {
    let len = allowed.len();
    // Bit `low - 1` set: the straight starting at `low` meets every cell.
    let mut lows = (1u16 << (10 - len)) - 1;
    let mut cover = 0u16;
    for &a in allowed {
        let mut reach = a;
        for t in 1..len {
            reach |= a >> t;
        }
        lows &= reach;
        cover |= a;
    }
    let mut n = 0;
    while lows != 0 {
        let low = lows.trailing_zeros() as usize;
        lows &= lows - 1;
        let s = ((1u16 << len) - 1) << low;
        if cover & s == s && matches(allowed, s) {
            out[n] = s;
            n += 1;
        }
    }
    n
}

/// Whether the cells can take the digits of `s` one each (every cell
/// already meets `s`, and together they cover it): Kuhn's augmenting paths.
fn matches(allowed: &[u16], s: u16) -> bool {
    // A cell with one digit of `s` takes it; most cells are like that deep
    // in the search, and two of them wanting one digit settles it early.
    let mut taken = 0u16;
    let mut rest = 0usize;
    for &a in allowed {
        let m = a & s;
        if m & (m - 1) == 0 {
            if taken & m != 0 {
                return false;
            }
            taken |= m;
        } else {
            rest += 1;
        }
    }
    if rest <= 1 {
        return true;
    }
    let mut owner = [0u8; 16];
    for k in 0..allowed.len() {
        let m = allowed[k] & s;
        if m & (m - 1) == 0 {
            continue;
        }
        let mut visited = taken;
        if !augment(k, allowed, s & !taken, &mut visited, &mut owner) {
            return false;
        }
    }
    true
}

fn augment(k: usize, allowed: &[u16], s: u16, visited: &mut u16, owner: &mut [u8; 16]) -> bool {
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

/// Which straights of a line's compartments take part in some choice of
/// pairwise disjoint straights, one per compartment. States `(j, used)` are
/// remembered, so the work is bounded by 5 x 512 states however many
/// choices there are.
struct Combos<'a> {
    fit: &'a [[u16; 9]; 5],
    nfit: &'a [usize; 5],
    n: usize,
    seen: [[u64; 8]; 5],
    good: [[u64; 8]; 5],
    union: &'a mut [u16; 5],
    need: &'a mut [u16; 5],
}

impl Combos<'_> {
    /// Whether compartments `j..` can take disjoint straights avoiding `used`,
    /// marking every straight that does in `union` and `need`.
    fn any(&mut self, j: usize, used: u16) -> bool {
        if j == self.n {
            return true;
        }
        let (word, bit) = (usize::from(used >> 6), 1u64 << (used & 63));
        if self.seen[j][word] & bit != 0 {
            return self.good[j][word] & bit != 0;
        }
        let mut ok = false;
        for t in 0..self.nfit[j] {
            let s = self.fit[j][t];
            if s & used == 0 && self.any(j + 1, used | s) {
                ok = true;
                self.union[j] |= s;
                self.need[j] &= s;
            }
        }
        self.seen[j][word] |= bit;
        if ok {
            self.good[j][word] |= bit;
        }
        ok
    }
}

/// What is left to do: cells newly placed, whose digit must leave their
/// lines, and lines whose rule must run again.
///
/// A cell is pushed only when it becomes a single, which happens once, so
/// 81 places are enough.
struct Work {
    stack: [u8; CELLS],
    len: usize,
    dirty: u32,
}

impl Work {
    fn new() -> Work {
        Work {
            stack: [0; CELLS],
            len: 0,
            dirty: 0,
        }
    }

    fn push(&mut self, i: usize) {
        if let Some(slot) = self.stack.get_mut(self.len) {
            *slot = i as u8;
            self.len += 1;
        }
        self.dirty |= lines_of(i);
    }

    fn pop(&mut self) -> Option<usize> {
        self.len = self.len.checked_sub(1)?;
        Some(usize::from(self.stack[self.len]))
    }

    /// Sets cell `c` to the non-empty `m`, a strict subset of what it held.
    fn narrow(&mut self, cells: &mut Cells, c: usize, m: u16) {
        cells[c] = m;
        if m & (m - 1) == 0 {
            self.push(c);
        } else {
            self.dirty |= lines_of(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(digits: &[u8]) -> u16 {
        digits.iter().map(|&d| 1u16 << (d - 1)).sum()
    }

    /// The straight of `len` digits from `low`.
    fn straight(low: usize, len: usize) -> u16 {
        ((1u16 << len) - 1) << (low - 1)
    }

    #[test]
    fn a_straight_fits_only_with_a_matching_not_just_a_cover() {
        const ALL: &[u8] = &[1, 2, 3, 4, 5, 6, 7, 8, 9];
        // {1},{1},{2,3} covers 123 but two cells want the 1.
        let cases: [(&[&[u8]], &[u16]); 6] = [
            (&[&[1, 2], &[1, 2], &[1, 2, 3]], &[straight(1, 3)]),
            (&[&[1], &[1], &[2, 3]], &[]),
            (&[&[4, 5], &[5, 6]], &[straight(4, 2), straight(5, 2)]),
            (&[&[4], &[6]], &[]),
            (
                &[&[7], &[1, 2, 3, 4, 5, 6, 7, 8, 9]],
                &[straight(6, 2), straight(7, 2)],
            ),
            (&[ALL; 9], &[straight(1, 9)]),
        ];
        for (cells, want) in cases {
            let allowed: Vec<u16> = cells.iter().map(|c| bits(c)).collect();
            let mut out = [0u16; 9];
            let n = fitting(&allowed, &mut out);
            assert_eq!(&out[..n], want, "{cells:?}");
        }
    }

    #[test]
    fn fitting_agrees_with_trying_every_assignment() {
        // Every two- and three-cell compartment over digits 1..=5 with
        // cells drawn from a small family of sets.
        let sets: Vec<u16> = (1u16..32).filter(|m| m.count_ones() <= 2).collect();
        for &a in &sets {
            for &b in &sets {
                for &c in &sets {
                    let allowed = [a, b, c];
                    let mut out = [0u16; 9];
                    let n = fitting(&allowed, &mut out);
                    let brute: Vec<u16> = (1..=7)
                        .map(|low| straight(low, 3))
                        .filter(|&s| {
                            (0..3).any(|x| {
                                (0..3).any(|y| {
                                    let z = 3 - x - y;
                                    x != y
                                        && z != x
                                        && z != y
                                        && z < 3
                                        && [x, y, z].iter().zip(&allowed).all(|(&k, &m)| {
                                            m & (1 << (s.trailing_zeros() as usize + k)) != 0
                                        })
                                })
                            })
                        })
                        .collect();
                    assert_eq!(&out[..n], &brute[..], "{allowed:?}");
                }
            }
        }
    }
}
