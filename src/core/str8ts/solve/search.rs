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
pub(super) struct Dead;

pub(super) type Cells = [u16; CELLS];

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
        // The root rules' fixpoint is weaker than the search's: tighten it first.
        let mut start = *cells;
        let mut work = Work::new();
        work.dirty = (1 << LINES) - 1;
        if self.propagate(&mut start, work).is_err() {
            return 1;
        }
        let mut nodes = 0;
        self.search(&start, count, found, &mut nodes);
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

    /// The root rules of FORMATS.md ("What propagate means"), brought to
    /// their fixpoint with a worklist: singles leave their row and column;
    /// a compartment keeps the digits of the straights that fit; a digit
    /// every such straight needs goes to its only place and leaves the rest
    /// of the line. The rules only ever remove candidates and each removal
    /// stays justified after any other, so the fixpoint does not depend on
    /// the order they run in: it is the one the reference order reaches.
    /// Which contradiction comes first does depend on the order, so on
    /// `Err` the caller reruns the rules in their reference order for the
    /// message.
    pub(super) fn root(&self, cells: &mut Cells) -> Result<(), Dead> {
        let mut work = Work::new();
        for (i, &m) in cells.iter().enumerate() {
            if m == 0 && !self.black[i] {
                return Err(Dead);
            }
            if m != 0 && m & (m - 1) == 0 {
                work.push(i);
            }
        }
        work.dirty = (1 << LINES) - 1;
        loop {
            while let Some(i) = work.pop() {
                self.spread(cells, i, &mut work)?;
            }
            if work.dirty == 0 {
                return Ok(());
            }
            let l = work.dirty.trailing_zeros() as usize;
            work.dirty &= work.dirty - 1;
            for j in 0..self.runs[l].n {
                self.compartment(cells, l, j, &mut work)?;
            }
        }
    }

    /// The root's compartment rule on compartment `j` of line `l`.
    fn compartment(
        &self,
        cells: &mut Cells,
        l: usize,
        j: usize,
        work: &mut Work,
    ) -> Result<(), Dead> {
        let line = &LINE_CELLS[l];
        let (start, len) = self.runs[l].run[j];
        let (start, len) = (usize::from(start), usize::from(len));
        let comp = &line[start..start + len];
        let mut allowed = [0u16; 9];
        for (a, &c) in allowed.iter_mut().zip(comp) {
            *a = cells[usize::from(c)];
        }
        let mut fit = [0u16; 9];
        let n = fitting(&allowed[..len], &mut fit);
        let (mut union, mut needed) = (0u16, 0x1ffu16);
        for &s in &fit[..n] {
            union |= s;
            needed &= s;
        }
        if union == 0 {
            return Err(Dead);
        }
        for (k, &c) in comp.iter().enumerate() {
            let m = allowed[k] & union;
            if m != allowed[k] {
                work.narrow(cells, usize::from(c), m);
            }
        }
        if needed == 0 {
            return Ok(());
        }
        // Digits held by one cell of the compartment, and by two or more.
        let (mut once, mut twice) = (0u16, 0u16);
        for &c in comp {
            let m = cells[usize::from(c)];
            twice |= once & m;
            once |= m;
        }
        if needed & !once != 0 {
            return Err(Dead);
        }
        let mut lonely = needed & !twice;
        if lonely != 0 {
            for &c in comp {
                let c = usize::from(c);
                let m = cells[c] & lonely;
                if m != 0 {
                    if m & (m - 1) != 0 {
                        // One cell the only place for two needed digits.
                        return Err(Dead);
                    }
                    lonely &= !m;
                    if cells[c] != m {
                        work.narrow(cells, c, m);
                    }
                }
            }
        }
        // Taking the needed digits out of the rest of the line one by one
        // fails exactly when a cell would be left with nothing.
        for (k, &c) in line.iter().enumerate() {
            let c = usize::from(c);
            let m = cells[c];
            if (k < start || k >= start + len) && m & needed != 0 {
                let rest = m & !needed;
                if rest == 0 {
                    return Err(Dead);
                }
                work.narrow(cells, c, rest);
            }
        }
        Ok(())
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
        let mut allowed = [[0u16; 9]; 5];
        let mut fit = [[0u16; 9]; 5];
        let mut nfit = [0usize; 5];
        // Digits of the compartment's placed cells, and whether any is open.
        let mut placed = [0u16; 5];
        let mut open = 0u8;
        for j in 0..runs.n {
            let (start, len) = runs.run[j];
            let (start, len) = (usize::from(start), usize::from(len));
            for k in 0..len {
                let m = cells[usize::from(line[start + k])];
                allowed[j][k] = m;
                if m & (m - 1) == 0 {
                    placed[j] |= m;
                } else {
                    open |= 1 << j;
                }
            }
            if open & (1 << j) == 0 {
                // All placed (and distinct, by the spreading): the straight
                // is theirs if they are consecutive.
                let low = placed[j].trailing_zeros();
                if placed[j] >> low != (1 << len) - 1 {
                    return Err(Dead);
                }
                fit[j][0] = placed[j];
                nfit[j] = 1;
            } else {
                nfit[j] = fitting(&allowed[j][..len], &mut fit[j]);
                if nfit[j] == 0 {
                    return Err(Dead);
                }
            }
        }
        let support = match runs.n {
            1 => [(1 << nfit[0]) - 1, 0, 0, 0, 0],
            2 => {
                let mut support = [0u16; 5];
                for t in 0..nfit[0] {
                    for u in 0..nfit[1] {
                        if fit[0][t] & fit[1][u] == 0 {
                            support[0] |= 1 << t;
                            support[1] |= 1 << u;
                        }
                    }
                }
                support
            }
            _ => {
                let mut combos = Combos {
                    fit: &fit,
                    nfit: &nfit,
                    n: runs.n,
                    seen: [[0; 8]; 5],
                    good: [[0; 8]; 5],
                    support: [0; 5],
                };
                combos.any(0, 0);
                combos.support
            }
        };
        for j in 0..runs.n {
            if support[j] == 0 {
                return Err(Dead);
            }
            if open & (1 << j) == 0 {
                continue;
            }
            let (start, len) = runs.run[j];
            let comp = &line[usize::from(start)..usize::from(start + len)];
            let allowed = &allowed[j][..comp.len()];
            // Each cell keeps the digits it takes in some filling of some
            // supported straight; a supported straight fills every cell, so
            // none is left empty.
            let mut keep = [0u16; 9];
            let mut supported = support[j];
            while supported != 0 {
                let t = supported.trailing_zeros() as usize;
                supported &= supported - 1;
                matchable(allowed, fit[j][t], placed[j], &mut keep);
            }
            for (k, &c) in comp.iter().enumerate() {
                let m = allowed[k] & keep[k];
                if m != allowed[k] {
                    work.narrow_by(cells, usize::from(c), m, l);
                }
            }
        }
        Ok(())
    }
}

/// Adds to `keep[k]` the digits of straight `s` that cell `k` takes in some
/// filling of the cells with `s`, one digit each (`s` fits). A cell may take
/// digit `d`, held by cell `h` in one filling, iff `h` can reach `k` along
/// "can take the digit held by": then each cell on the way moves up one.
fn matchable(allowed: &[u16], s: u16, placed: u16, keep: &mut [u16; 9]) {
    let len = allowed.len();
    // Placed cells keep their digit, which no other cell may take; the open
    // cells share what is left of `s`.
    let free = s & !placed;
    let mut open = 0usize;
    let mut last = 0;
    for (k, &a) in allowed.iter().enumerate() {
        if a & (a - 1) == 0 {
            keep[k] |= a;
        } else {
            open += 1;
            last = k;
        }
    }
    if open == 1 {
        keep[last] |= free;
        return;
    }
    let mut owner = [0u8; 16];
    let mut open_cells = 0u16;
    for (k, &a) in allowed.iter().enumerate() {
        if a & (a - 1) != 0 {
            open_cells |= 1 << k;
        }
    }
    fill(allowed, open_cells, free, &mut owner);
    let mut mate = [0u16; 9];
    for bit in 0..9 {
        if free & (1 << bit) != 0 && owner[bit] != 0 {
            mate[usize::from(owner[bit]) - 1] = 1 << bit;
        }
    }
    // reach[k]: the cells k can reach, as a bit set over positions.
    let mut reach = [0u16; 9];
    for k in 0..len {
        let mut other = allowed[k] & free & !mate[k];
        while other != 0 {
            let bit = other.trailing_zeros() as usize;
            other &= other - 1;
            reach[k] |= 1 << (usize::from(owner[bit]).wrapping_sub(1) & 15);
        }
    }
    for m in 0..len {
        for k in 0..len {
            if reach[k] & (1 << m) != 0 {
                reach[k] |= reach[m];
            }
        }
    }
    for k in 0..len {
        let a = allowed[k];
        if a & (a - 1) == 0 {
            continue;
        }
        let mut can = mate[k];
        let mut other = a & free & !mate[k];
        while other != 0 {
            let bit = other.trailing_zeros() as usize;
            other &= other - 1;
            let h = usize::from(owner[bit]).wrapping_sub(1) & 15;
            if reach.get(h).is_some_and(|r| r & (1 << k) != 0) {
                can |= 1 << bit;
            }
        }
        keep[k] |= can;
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
        lows &= reach_down(a, len);
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

/// The bits of `a` spread down over `len` places: `a | a >> 1 | ... | a >> (len - 1)`.
fn reach_down(a: u16, len: usize) -> u16 {
    let mut r = a;
    let mut w = 1;
    while 2 * w <= len {
        r |= r >> w;
        w *= 2;
    }
    // `r` covers windows of `w`; one more shift covers the remaining `len - w`.
    r | r >> (len - w)
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
    let mut open = 0u16;
    for (k, &a) in allowed.iter().enumerate() {
        let m = a & s;
        if m & (m - 1) != 0 {
            open |= 1 << k;
        }
    }
    fill(allowed, open, s & !taken, &mut owner)
}

/// Gives each cell of `open` (positions) its own digit of `free`, recording
/// in `owner[bit]` 1 + the cell holding each digit; false when impossible.
/// Greedy first, which settles most cells; Kuhn's augmenting paths for the
/// cells the greedy pass left without a digit.
fn fill(allowed: &[u16], open: u16, free: u16, owner: &mut [u8; 16]) -> bool {
    let mut used = 0u16;
    let mut pending = 0u16;
    let mut cells = open;
    while cells != 0 {
        let k = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let m = allowed.get(k).map_or(0, |a| a & free & !used);
        if m == 0 {
            pending |= 1 << k;
        } else {
            let bit = m.trailing_zeros() as usize;
            used |= 1 << bit;
            owner[bit] = k as u8 + 1;
        }
    }
    while pending != 0 {
        let k = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let mut visited = 0;
        if !augment(k, allowed, free, &mut visited, owner) {
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
    /// Bit `t` of entry `j`: straight `fit[j][t]` takes part in some choice.
    support: [u16; 5],
}

impl Combos<'_> {
    /// Whether compartments `j..` can take disjoint straights avoiding `used`,
    /// marking every straight that does in `support`.
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
                self.support[j] |= 1 << t;
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

    /// [`Work::narrow`] by line `l`'s own rule, which is settled for `l`
    /// afterwards (a rerun would find the same straights and fillings), so
    /// only the cell's other line needs it again. A new single is still
    /// spread: its digit leaves the other line.
    fn narrow_by(&mut self, cells: &mut Cells, c: usize, m: u16, l: usize) {
        cells[c] = m;
        if m & (m - 1) == 0
            && let Some(slot) = self.stack.get_mut(self.len)
        {
            *slot = c as u8;
            self.len += 1;
        }
        self.dirty |= lines_of(c) & !(1 << l);
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
