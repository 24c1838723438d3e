//! The chain engine the chain techniques share: an implication graph over
//! candidates, on or off, grown breadth first from an assumption as SE
//! 1.2.1 grows its chains (static, or dynamic with every off taken out of
//! the grid reasoned on). Each node keeps its parents, so a chain's length
//! (SE's complexity and length bonus) follows; every node expanded spends
//! one unit of [`Work`].
//!
//! Owns no technique and no rating: `techniques/cycles.rs` and
//! `techniques/chains.rs` decide what a chain proves. In full:
//! docs/difficulty.md "Module notes".

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::core::grid::{CELLS, UNITS, box_of};

use super::marks::UNIT_CELLS;
use super::step::Rating10;
use super::technique::Work;

/// A node: `cand * 2 + on`, with `cand = cell * 9 + digit - 1`.
pub(crate) type Node = u16;
/// The index of a node's occurrence in an [`Arena`].
pub(crate) type Pot = u32;

const NODES: usize = CELLS * 9 * 2;
const NONE: u32 = u32::MAX;

pub(crate) const fn node(cand: usize, on: bool) -> Node {
    (cand * 2 + on as usize) as Node
}

pub(crate) const fn cand_of(n: Node) -> usize {
    n as usize / 2
}

pub(crate) const fn is_on(n: Node) -> bool {
    n % 2 == 1
}

/// The search ran out of its counted work.
#[derive(Debug)]
pub(crate) struct OutOfWork;

/// Occurrences of nodes with their parents (a node reached twice along
/// different ways, as cycles do, has two occurrences).
#[derive(Default)]
pub(crate) struct Arena {
    nodes: Vec<(Node, u32, u32)>,
    links: Vec<Pot>,
    /// The stack `ancestors` reuses.
    todo: RefCell<Vec<Pot>>,
}

impl Arena {
    /// Empties the arena, keeping its memory.
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.links.clear();
    }

    pub(crate) fn push(&mut self, n: Node, parents: &[Pot]) -> Pot {
        let start = self.links.len() as u32;
        self.links.extend_from_slice(parents);
        self.nodes.push((n, start, parents.len() as u32));
        (self.nodes.len() - 1) as Pot
    }

    pub(crate) fn node(&self, p: Pot) -> Node {
        self.nodes[p as usize].0
    }

    pub(crate) fn parents(&self, p: Pot) -> &[Pot] {
        let (_, s, n) = self.nodes[p as usize];
        &self.links[s as usize..(s + n) as usize]
    }

    /// The first parent's first parent, and so on: a chain back to its
    /// assumption (for cycles and the sentence).
    pub(crate) fn path(&self, p: Pot) -> Vec<Pot> {
        let mut out = vec![p];
        let mut q = p;
        while let Some(&up) = self.parents(q).first() {
            out.push(up);
            q = up;
        }
        out
    }

    /// How many distinct nodes `p` rests on, itself included (SE's
    /// complexity of a chain).
    pub(crate) fn ancestors(&self, p: Pot) -> usize {
        let mut seen = [0u64; NODES.div_ceil(64)];
        let mut todo = self.todo.take();
        todo.clear();
        todo.push(p);
        let mut count = 0;
        while let Some(q) = todo.pop() {
            let n = self.node(q) as usize;
            if seen[n / 64] & (1 << (n % 64)) != 0 {
                continue;
            }
            seen[n / 64] |= 1 << (n % 64);
            count += 1;
            todo.extend_from_slice(self.parents(q));
        }
        self.todo.replace(todo);
        count
    }

    /// Whether `n` is on the first-parent chain above `p` (`p` left out).
    pub(crate) fn above(&self, p: Pot, n: Node) -> bool {
        let mut q = p;
        while let Some(&up) = self.parents(q).first() {
            if self.node(up) == n {
                return true;
            }
            q = up;
        }
        false
    }
}

/// Nodes reached, in the order reached, each with its first occurrence.
#[derive(Clone)]
pub(crate) struct Set {
    pub order: Vec<Pot>,
    /// The nodes of `order`, to clear the map by.
    keys: Vec<Node>,
    map: Vec<u32>,
}

impl Set {
    pub(crate) fn new() -> Set {
        Set {
            order: Vec::new(),
            keys: Vec::new(),
            map: vec![NONE; NODES],
        }
    }

    /// Empties the set, keeping its memory.
    pub(crate) fn clear(&mut self) {
        for &n in &self.keys {
            self.map[n as usize] = NONE;
        }
        self.keys.clear();
        self.order.clear();
    }

    pub(crate) fn get(&self, n: Node) -> Option<Pot> {
        let p = self.map[n as usize];
        (p != NONE).then_some(p)
    }

    pub(crate) fn contains(&self, n: Node) -> bool {
        self.map[n as usize] != NONE
    }

    /// Adds `p` (node `n`) unless `n` is in already.
    pub(crate) fn insert(&mut self, n: Node, p: Pot) -> bool {
        if self.contains(n) {
            return false;
        }
        self.map[n as usize] = p;
        self.keys.push(n);
        self.order.push(p);
        true
    }
}

/// The candidates a chain reasons on: each cell's digits, and each
/// digit's cells as a bit set (so a house's places of a digit are one
/// `and`, in cell order, which is `UNITS`' order).
#[derive(Clone)]
pub(crate) struct Cands {
    pub cells: [u16; CELLS],
    places: [u128; 9],
}

impl Cands {
    pub(crate) fn new(cells: &[u16; CELLS]) -> Cands {
        let mut places = [0u128; 9];
        for (c, &m) in cells.iter().enumerate() {
            for (d, p) in places.iter_mut().enumerate() {
                if m & (1 << d) != 0 {
                    *p |= 1 << c;
                }
            }
        }
        Cands {
            cells: *cells,
            places,
        }
    }

    /// Takes candidate `cand` out.
    fn remove(&mut self, cand: usize) {
        let (c, d) = (cand / 9, cand % 9);
        self.cells[c] &= !(1 << d);
        self.places[d] &= !(1 << c);
    }

    /// The cells of house `h` (an index into `UNITS`) that allow digit
    /// index `d`.
    fn places_in(&self, h: usize, d: usize) -> u128 {
        self.places[d] & UNIT_CELLS[h]
    }
}

/// The three houses of a cell in SE's order for chains: box, row, column
/// (indices into `UNITS`).
pub(crate) fn houses(c: usize) -> [usize; 3] {
    [18 + box_of(c), c / 9, 9 + c % 9]
}

/// The candidates `cand` being on turns off: with `y` the cell's other
/// digits, then the digit's other places in the box, row and column.
pub(crate) fn on_to_off(grid: &Cands, cand: usize, y: bool, out: &mut Vec<usize>) {
    out.clear();
    let (c, d) = (cand / 9, cand % 9);
    if y {
        let mut m = grid.cells[c] & !(1 << d);
        while m != 0 {
            out.push(c * 9 + m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }
    let mut seen = 1u128 << c;
    for h in houses(c) {
        // The house's cells in order, each once over the three houses.
        let mut m = grid.places_in(h, d) & !seen;
        seen |= m;
        while m != 0 {
            out.push(m.trailing_zeros() as usize * 9 + d);
            m &= m - 1;
        }
    }
}

/// The candidates `cand` being off turns on, each with the house that
/// forces it (`None`: the cell's last digit, when `y`; a house only when
/// `x`).
pub(crate) fn off_to_on(
    grid: &Cands,
    cand: usize,
    y: bool,
    x: bool,
    out: &mut Vec<(usize, Option<usize>)>,
) {
    out.clear();
    let (c, d) = (cand / 9, cand % 9);
    let cell = grid.cells[c];
    if y && cell.count_ones() == 2 {
        let other = (cell & !(1 << d)).trailing_zeros() as usize;
        if other < 9 {
            out.push((c * 9 + other, None));
        }
    }
    if x {
        for h in houses(c) {
            let others = grid.places_in(h, d) & !(1u128 << c);
            // A place reached through two houses counts once.
            if others.count_ones() == 1 {
                let q = others.trailing_zeros() as usize * 9 + d;
                if !out.iter().any(|&(o, _)| o == q) {
                    out.push((q, Some(h)));
                }
            }
        }
    }
}

/// What assuming a candidate on led to: every consequence, on and off,
/// and the two occurrences of a candidate found both (on first), if any.
pub(crate) struct Outcome {
    pub on: Set,
    pub off: Set,
    pub absurd: Option<(Pot, Pot)>,
    /// The work the run took, spent again each time it is asked for.
    spent: u64,
}

/// Buffers a run reuses.
#[derive(Default)]
struct Scratch {
    pending_on: VecDeque<Pot>,
    pending_off: VecDeque<Pot>,
    offs: Vec<usize>,
    ons: Vec<(usize, Option<usize>)>,
    parents: Vec<Pot>,
}

/// One run of SE's `doChaining`: from the nodes in `on` and `off`, every
/// consequence, until none is new or a candidate would be both on and off
/// (then the two occurrences are returned, on first).
pub(crate) struct Chainer<'a> {
    pub orig: &'a [u16; CELLS],
    base: Cands,
    pub arena: Arena,
    /// Y links (the cell's digits); SE's Nishio has none.
    pub y: bool,
    /// Offs leave the grid the chain reasons on.
    pub dynamic: bool,
    pub work: &'a mut Work,
    /// The rating kept as the bound if the work runs out.
    pub floor: Rating10,
    scratch: Scratch,
    /// The outcome of each candidate assumed on so far (a run depends
    /// only on the grid and the assumption, so it is the same each time).
    ons: Vec<Option<Rc<Outcome>>>,
}

impl<'a> Chainer<'a> {
    pub(crate) fn new(
        orig: &'a [u16; CELLS],
        y: bool,
        dynamic: bool,
        work: &'a mut Work,
        floor: Rating10,
    ) -> Chainer<'a> {
        Chainer {
            orig,
            base: Cands::new(orig),
            arena: Arena::default(),
            y,
            dynamic,
            work,
            floor,
            scratch: Scratch::default(),
            ons: vec![None; CELLS * 9],
        }
    }

    /// An assumption: a fresh occurrence of `n` with no parent.
    pub(crate) fn assume(&mut self, n: Node) -> Pot {
        self.arena.push(n, &[])
    }

    pub(crate) fn spend(&mut self, n: u64) -> Result<(), OutOfWork> {
        if self.work.spend(n, self.floor) {
            Ok(())
        } else {
            Err(OutOfWork)
        }
    }

    /// Every consequence of `cand` on. Asked again, the outcome of the
    /// first time is given back and its work spent again, so the work
    /// counted is as if the run were done each time (SE does it again).
    pub(crate) fn assume_on(&mut self, cand: usize) -> Result<Rc<Outcome>, OutOfWork> {
        if let Some(o) = &self.ons[cand] {
            let o = Rc::clone(o);
            self.spend(o.spent)?;
            return Ok(o);
        }
        let before = self.work.left;
        let (mut on, mut off) = (Set::new(), Set::new());
        let s = self.assume(node(cand, true));
        on.insert(node(cand, true), s);
        let absurd = self.run(&mut on, &mut off)?;
        let o = Rc::new(Outcome {
            on,
            off,
            absurd,
            spent: before - self.work.left,
        });
        self.ons[cand] = Some(Rc::clone(&o));
        Ok(o)
    }

    /// Grows `on` and `off` to every consequence; `Some((on, off))` when
    /// a candidate turns out both.
    pub(crate) fn run(
        &mut self,
        on: &mut Set,
        off: &mut Set,
    ) -> Result<Option<(Pot, Pot)>, OutOfWork> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let found = self.run_with(&mut scratch, on, off);
        self.scratch = scratch;
        found
    }

    fn run_with(
        &mut self,
        s: &mut Scratch,
        on: &mut Set,
        off: &mut Set,
    ) -> Result<Option<(Pot, Pot)>, OutOfWork> {
        let mut grid = self.base.clone();
        s.pending_on.clear();
        s.pending_on.extend(on.order.iter().copied());
        s.pending_off.clear();
        s.pending_off.extend(off.order.iter().copied());
        loop {
            if let Some(p) = s.pending_on.pop_front() {
                self.spend(1)?;
                on_to_off(&grid, cand_of(self.arena.node(p)), self.y, &mut s.offs);
                for &q in &s.offs {
                    if let Some(o) = on.get(node(q, true)) {
                        let f = self.arena.push(node(q, false), &[p]);
                        return Ok(Some((o, f)));
                    }
                    if !off.contains(node(q, false)) {
                        let f = self.arena.push(node(q, false), &[p]);
                        off.insert(node(q, false), f);
                        s.pending_off.push_back(f);
                    }
                }
                continue;
            }
            let Some(p) = s.pending_off.pop_front() else {
                return Ok(None);
            };
            self.spend(1)?;
            let cand = cand_of(self.arena.node(p));
            off_to_on(&grid, cand, self.y, true, &mut s.ons);
            for &(q, house) in &s.ons {
                s.parents.clear();
                s.parents.push(p);
                if self.dynamic {
                    self.hidden_parents(&grid.cells, cand, q, house, off, &mut s.parents);
                }
                if let Some(o) = off.get(node(q, false)) {
                    let n = self.arena.push(node(q, true), &s.parents);
                    return Ok(Some((n, o)));
                }
                if !on.contains(node(q, true)) {
                    let n = self.arena.push(node(q, true), &s.parents);
                    on.insert(node(q, true), n);
                    s.pending_on.push_back(n);
                }
            }
            if self.dynamic {
                grid.remove(cand);
            }
        }
    }

    /// In dynamic mode, the offs that made `q` the last digit of its cell
    /// or the last place in `house`: candidates the grid had and has lost.
    fn hidden_parents(
        &self,
        grid: &[u16; CELLS],
        from: usize,
        q: usize,
        house: Option<usize>,
        off: &Set,
        parents: &mut Vec<Pot>,
    ) {
        let (c, d) = (q / 9, q % 9);
        let mut add = |cand: usize| {
            if cand != from
                && let Some(p) = off.get(node(cand, false))
            {
                parents.push(p);
            }
        };
        match house {
            None => {
                for e in 0..9 {
                    if self.orig[c] & !grid[c] & (1 << e) != 0 {
                        add(c * 9 + e);
                    }
                }
            }
            Some(h) => {
                for &o in &UNITS[h] {
                    let o = o as usize;
                    if self.orig[o] & !grid[o] & (1 << d) != 0 {
                        add(o * 9 + d);
                    }
                }
            }
        }
    }
}

/// SE's chain-length bonus for a chain resting on `complexity` nodes:
/// 0.1 each time the length minus 2 passes a ceiling that starts at 4 and
/// grows by 3/2 and 4/3 in turn (4, 6, 8, 12, 16, 24, ...).
pub(crate) fn length_bonus(complexity: usize) -> Rating10 {
    let length = complexity as i64 - 2;
    let (mut ceil, mut added, mut odd) = (4i64, 0, false);
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::length_bonus;

    #[test]
    fn the_length_bonus_grows_at_ses_ceilings() {
        let at: Vec<u16> = [6, 7, 8, 10, 11, 14, 15, 18, 19, 26]
            .iter()
            .map(|&n| length_bonus(n))
            .collect();
        assert_eq!(at, [0, 1, 1, 2, 3, 3, 4, 4, 5, 5]);
    }
}
