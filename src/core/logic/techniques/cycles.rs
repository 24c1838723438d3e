//! SE's "Forcing Chains & Cycles" (6.5-7.0 and the length bonus): from
//! each candidate assumed on, chains of X links only, Y links only, then
//! both. A chain that comes back to its start is a bidirectional cycle
//! (6.5, 7.0 with both kinds): either way round it holds, so a candidate
//! seeing an on and an off node of its digit leaves. A chain from a
//! candidate to its own opposite is a forcing chain (6.6 with X links
//! only, 7.0 with both): the candidate is off (or, from off, on). Of all
//! found, the easiest is applied (then the shortest), as SE sorts them.

use crate::core::grid::{CELLS, PEERS};
use crate::core::logic::chain::{
    Arena, Cands, Node, OutOfWork, Pot, Set, cand_of, is_on, length_bonus, node, off_to_on,
    on_to_off,
};
use crate::core::logic::marks::Marks;
use crate::core::logic::step::{Rating10, Step};
use crate::core::logic::technique::{Technique, Work};

use super::{digits, node_name};

pub struct Cycles;

/// SE's sort key of a chain's application: rating, then complexity, then
/// its kind.
pub(crate) type Key = (Rating10, usize, u8);

/// The easiest application found so far, as SE's stable sort of all it
/// found gives it (the first found among equals). A step is only worded
/// when it would be kept.
#[derive(Default)]
pub(crate) struct Easiest {
    best: Option<(Key, Step)>,
}

impl Easiest {
    /// Whether an application with `key` would be kept over the one kept.
    pub(crate) fn beats(&self, key: Key) -> bool {
        self.best.as_ref().is_none_or(|(k, _)| key < *k)
    }

    /// Keeps the step `make` words if `key` beats the one kept.
    pub(crate) fn offer(&mut self, key: Key, make: impl FnOnce() -> Step) {
        if self.beats(key) {
            self.best = Some((key, make()));
        }
    }

    pub(crate) fn step(self) -> Option<Step> {
        self.best.map(|(_, s)| s)
    }
}

const FLOOR: Rating10 = 65;

impl Technique for Cycles {
    fn name(&self) -> &'static str {
        "Forcing Chains & Cycles"
    }

    fn find(&self, marks: &Marks, work: &mut Work) -> Option<Step> {
        let grid: [u16; CELLS] = std::array::from_fn(|c| marks.cands(c));
        let cands = Cands::new(&grid);
        let mut hints = Easiest::default();
        let mut bufs = Bufs {
            arena: Arena::default(),
            on: Set::new(),
            off: Set::new(),
        };
        for (y, x) in [(false, true), (true, false), (true, true)] {
            for (c, &m) in grid.iter().enumerate() {
                if m.count_ones() < 2 || (!x && m.count_ones() > 2) {
                    continue;
                }
                for d in digits(m) {
                    let cand = c * 9 + d as usize - 1;
                    if unary(&cands, cand, y, x, &mut hints, work, &mut bufs).is_err() {
                        return None;
                    }
                }
            }
        }
        hints.step()
    }
}

fn spend(work: &mut Work) -> Result<(), OutOfWork> {
    if work.spend(1, FLOOR) {
        Ok(())
    } else {
        Err(OutOfWork)
    }
}

/// SE's `doUnaryChaining` from `cand` on: its cycles, and with X links its
/// forcing chains from on and from off.
/// What one search reuses from the last: the arena and two sets.
struct Bufs {
    arena: Arena,
    on: Set,
    off: Set,
}

fn unary(
    cands: &Cands,
    cand: usize,
    y: bool,
    x: bool,
    hints: &mut Easiest,
    work: &mut Work,
    bufs: &mut Bufs,
) -> Result<(), OutOfWork> {
    let Bufs { arena, on, off } = bufs;
    arena.clear();
    let source = node(cand, true);
    let mut cycles = Vec::new();
    {
        on.clear();
        off.clear();
        let s = arena.push(source, &[]);
        on.insert(source, s);
        let (mut pend_on, mut pend_off) = (vec![s], Vec::new());
        let (mut offs, mut ons) = (Vec::new(), Vec::new());
        let mut length = 0;
        while !pend_on.is_empty() || !pend_off.is_empty() {
            length += 1;
            for p in std::mem::take(&mut pend_on) {
                spend(work)?;
                on_to_off(cands, cand_of(arena.node(p)), y, &mut offs);
                for &q in &offs {
                    let n = node(q, false);
                    if !arena.above(p, n) {
                        let f = arena.push(n, &[p]);
                        pend_off.push(f);
                        off.insert(n, f);
                    }
                }
            }
            length += 1;
            for p in std::mem::take(&mut pend_off) {
                spend(work)?;
                off_to_on(cands, cand_of(arena.node(p)), y, x, &mut ons);
                for &(q, _) in &ons {
                    let n = node(q, true);
                    if length >= 4 && n == source {
                        cycles.push(arena.push(n, &[p]));
                    }
                    if !on.contains(n) {
                        let f = arena.push(n, &[p]);
                        pend_on.push(f);
                        on.insert(n, f);
                    }
                }
            }
        }
    }
    let grid = &cands.cells;
    for dst in cycles {
        cycle_hint(grid, arena, dst, y, x, hints);
    }
    if x {
        let mut targets = Vec::new();
        for source in [source, node(cand, false)] {
            on.clear();
            off.clear();
            forcing(cands, arena, (on, off), source, y, &mut targets, work)?;
        }
        for t in targets {
            forcing_hint(grid, arena, t, y, hints);
        }
    }
    Ok(())
}

/// SE's `doForcingChains` from `source`: every chain reaching its
/// opposite, added to `targets` once each.
fn forcing(
    grid: &Cands,
    arena: &mut Arena,
    (on, off): (&mut Set, &mut Set),
    source: Node,
    y: bool,
    targets: &mut Vec<Pot>,
    work: &mut Work,
) -> Result<(), OutOfWork> {
    let s = arena.push(source, &[]);
    let opposite = source ^ 1;
    let (mut pend_on, mut pend_off) = (Vec::new(), Vec::new());
    if is_on(source) {
        on.insert(source, s);
        pend_on.push(s);
    } else {
        off.insert(source, s);
        pend_off.push(s);
    }
    let (mut offs, mut ons) = (Vec::new(), Vec::new());
    while !pend_on.is_empty() || !pend_off.is_empty() {
        for p in std::mem::take(&mut pend_on) {
            spend(work)?;
            on_to_off(grid, cand_of(arena.node(p)), y, &mut offs);
            for &q in &offs {
                let n = node(q, false);
                let known = off.contains(n);
                if n == opposite || !known {
                    let f = arena.push(n, &[p]);
                    if n == opposite && !targets.iter().any(|&t| arena.node(t) == n) {
                        targets.push(f);
                    }
                    if !known {
                        off.insert(n, f);
                        pend_off.push(f);
                    }
                }
            }
        }
        for p in std::mem::take(&mut pend_off) {
            spend(work)?;
            off_to_on(grid, cand_of(arena.node(p)), y, true, &mut ons);
            for &(q, _) in &ons {
                let n = node(q, true);
                let known = on.contains(n);
                if n == opposite || !known {
                    let f = arena.push(n, &[p]);
                    if n == opposite && !targets.iter().any(|&t| arena.node(t) == n) {
                        targets.push(f);
                    }
                    if !known {
                        on.insert(n, f);
                        pend_on.push(f);
                    }
                }
            }
        }
    }
    Ok(())
}

fn cycle_hint(grid: &[u16; CELLS], arena: &Arena, dst: Pot, y: bool, x: bool, hints: &mut Easiest) {
    let path = arena.path(dst);
    let links = &path[..path.len() - 1];
    let cells: Vec<usize> = links.iter().map(|&p| cand_of(arena.node(p)) / 9).collect();
    let mut forw: Vec<(u8, u8)> = Vec::new();
    let mut back: Vec<(u8, u8)> = Vec::new();
    for &p in links {
        let n = arena.node(p);
        let (c, d) = (cand_of(n) / 9, cand_of(n) % 9);
        for &o in &PEERS[c] {
            let o = o as usize;
            if !cells.contains(&o) && grid[o] & (1 << d) != 0 {
                let e = (o as u8, d as u8 + 1);
                let set = if is_on(n) { &mut forw } else { &mut back };
                if !set.contains(&e) {
                    set.push(e);
                }
            }
        }
    }
    let eliminate: Vec<(u8, u8)> = forw.into_iter().filter(|e| back.contains(e)).collect();
    if eliminate.is_empty() {
        return;
    }
    let complexity = arena.ancestors(dst);
    let rating = if x && y { 70 } else { 65 } + length_bonus(complexity);
    let sort_key = if x && y {
        4
    } else if y {
        3
    } else {
        2
    };
    hints.offer((rating, complexity, sort_key), || {
        let name = match (x, y) {
            (true, true) => "Bidirectional Cycle",
            (false, true) => "Bidirectional Y-Cycle",
            _ => "Bidirectional X-Cycle",
        };
        let mut cells: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
        cells.dedup();
        Step {
            technique: name,
            rating,
            reason: format!("{} through {}", name.to_lowercase(), chain_text(arena, dst)),
            cells,
            place: None,
            eliminate,
        }
    });
}

fn forcing_hint(grid: &[u16; CELLS], arena: &Arena, target: Pot, y: bool, hints: &mut Easiest) {
    let n = arena.node(target);
    let (c, d) = (cand_of(n) / 9, cand_of(n) % 9 + 1);
    let complexity = arena.ancestors(target);
    let rating = if y { 70 } else { 66 } + length_bonus(complexity);
    hints.offer((rating, complexity, if y { 4 } else { 2 }), || {
        let eliminate: Vec<(u8, u8)> = if is_on(n) {
            digits(grid[c] & !(1 << (d - 1)))
                .map(|e| (c as u8, e))
                .collect()
        } else {
            vec![(c as u8, d as u8)]
        };
        let name = if y {
            "Forcing Chain"
        } else {
            "Forcing X-Chain"
        };
        Step {
            technique: name,
            rating,
            reason: format!("{} {}", name.to_lowercase(), chain_text(arena, target)),
            cells: vec![c as u8],
            place: None,
            eliminate,
        }
    });
}

/// `r1c2=5 -> r1c7<>5 -> ...`, from the assumption to `p`.
pub(crate) fn chain_text(arena: &Arena, p: Pot) -> String {
    let mut path = arena.path(p);
    path.reverse();
    let names: Vec<String> = path.iter().map(|&q| node_name(arena.node(q))).collect();
    names.join(" -> ")
}
