//! SE's Nishio (7.5), multiple (8.0) and dynamic (8.5) forcing chains,
//! each plus the length bonus, on the shared chain engine: from every
//! candidate of a cell, assumed on and then off, a contradiction, a double
//! implication, a cell's or a region's common consequence. Of all found,
//! the easiest is applied, as SE sorts them. In full: docs/difficulty.md
//! "Module notes".

use crate::core::grid::{CELLS, UNITS};
use std::rc::Rc;

use crate::core::logic::chain::{
    Arena, Chainer, Node, OutOfWork, Outcome, Pot, Set, cand_of, is_on, length_bonus, node,
};
use crate::core::logic::marks::Marks;
use crate::core::logic::step::{Rating10, Step};
use crate::core::logic::technique::{Technique, Work};

use super::cycles::{Easiest, chain_text};
use super::{digits, node_name};

/// Which of SE's chaining producers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Nishio,
    Multiple,
    Dynamic,
}

pub struct Chains {
    pub kind: Kind,
}

impl Chains {
    fn base(&self) -> Rating10 {
        match self.kind {
            Kind::Nishio => 75,
            Kind::Multiple => 80,
            Kind::Dynamic => 85,
        }
    }

    fn dynamic(&self) -> bool {
        self.kind != Kind::Multiple
    }

    fn prefix(&self) -> &'static str {
        match self.kind {
            Kind::Nishio => "Nishio ",
            Kind::Multiple => "",
            Kind::Dynamic => "Dynamic ",
        }
    }
}

impl Technique for Chains {
    fn name(&self) -> &'static str {
        match self.kind {
            Kind::Nishio => "Nishio Forcing Chains",
            Kind::Multiple => "Multiple Forcing Chains",
            Kind::Dynamic => "Dynamic Forcing Chains",
        }
    }

    fn find(&self, marks: &Marks, work: &mut Work) -> Option<Step> {
        let grid: [u16; CELLS] = std::array::from_fn(|c| marks.cands(c));
        let mut hints = Easiest::default();
        // One chainer for the whole search: an assumption's outcome is
        // the same from every cell and region that asks for it.
        let mut ch = Chainer::new(
            &grid,
            self.kind != Kind::Nishio,
            self.dynamic(),
            work,
            self.base(),
        );
        for (c, m) in grid.iter().enumerate() {
            let n = m.count_ones();
            if (n > 2 || (n > 1 && self.dynamic())) && self.cell(&mut ch, c, &mut hints).is_err() {
                return None;
            }
        }
        hints.step()
    }
}

/// What a target node removes: an on node the cell's other digits, an off
/// node itself.
fn removal(grid: &[u16; CELLS], n: Node) -> Vec<(u8, u8)> {
    let (c, d) = (cand_of(n) / 9, cand_of(n) % 9);
    if is_on(n) {
        digits(grid[c] & !(1 << d)).map(|e| (c as u8, e)).collect()
    } else {
        vec![(c as u8, d as u8 + 1)]
    }
}

impl Chains {
    /// Offers the application of a chain (or chains) of `complexity` to
    /// `target`, worded by `why` only if it is kept.
    #[allow(clippy::too_many_arguments)]
    fn hint(
        &self,
        grid: &[u16; CELLS],
        target: Node,
        complexity: usize,
        sort_key: u8,
        what: &str,
        why: impl FnOnce() -> String,
        hints: &mut Easiest,
    ) {
        let (c, d) = (cand_of(target) / 9, cand_of(target) % 9);
        if is_on(target) && grid[c] & !(1 << d) == 0 {
            return;
        }
        let rating = self.base() + length_bonus(complexity);
        hints.offer((rating, complexity, sort_key), || {
            let technique = match (self.kind, what) {
                (Kind::Nishio, _) => "Nishio Forcing Chains",
                (Kind::Dynamic, "contradiction") => "Dynamic Contradiction Forcing Chains",
                (Kind::Dynamic, "double") => "Dynamic Double Forcing Chains",
                (Kind::Dynamic, "cell") => "Dynamic Cell Forcing Chains",
                (Kind::Dynamic, _) => "Dynamic Region Forcing Chains",
                (_, "cell") => "Cell Forcing Chains",
                _ => "Region Forcing Chains",
            };
            Step {
                technique,
                rating,
                cells: vec![c as u8],
                place: None,
                eliminate: removal(grid, target),
                reason: format!(
                    "{}{what} forcing chains: {}",
                    self.prefix().to_lowercase(),
                    why()
                ),
            }
        });
    }

    /// SE's chains from the candidates of cell `c`.
    fn cell(&self, ch: &mut Chainer<'_>, c: usize, hints: &mut Easiest) -> Result<(), OutOfWork> {
        let grid = *ch.orig;
        let count = grid[c].count_ones();
        let nishio = self.kind == Kind::Nishio;
        let double = count >= 3 && !nishio && self.dynamic();
        let contradiction = self.dynamic();
        let mut outcomes: Vec<Rc<Outcome>> = Vec::new();
        let (mut off_on, mut off_off) = (Set::new(), Set::new());
        for d in digits(grid[c]) {
            let cand = c * 9 + d as usize - 1;
            let on = ch.assume_on(cand)?;
            if contradiction && let Some((a, b)) = on.absurd {
                let cx = both(&ch.arena, a, b);
                let why = || both_text(&ch.arena, a, b);
                self.hint(&grid, node(cand, false), cx, 7, "contradiction", why, hints);
            }
            off_on.clear();
            off_off.clear();
            let s = ch.assume(node(cand, false));
            off_off.insert(node(cand, false), s);
            let absurd = ch.run(&mut off_on, &mut off_off)?;
            if contradiction && let Some((a, b)) = absurd {
                let cx = both(&ch.arena, a, b);
                let why = || both_text(&ch.arena, a, b);
                self.hint(&grid, node(cand, true), cx, 7, "contradiction", why, hints);
            }
            if double {
                for (from, other) in [(&on.on, &off_on), (&on.off, &off_off)] {
                    for &p in &from.order {
                        let n = ch.arena.node(p);
                        if let Some(q) = other.get(n) {
                            let cx = both(&ch.arena, p, q);
                            let why = || both_text(&ch.arena, p, q);
                            self.hint(&grid, n, cx, 1, "double", why, hints);
                        }
                    }
                }
            }
            if !nishio {
                self.regions(ch, c, d, &on, hints)?;
            }
            outcomes.push(on);
        }
        if !nishio {
            let why = || format!("every digit of {}", cell_name(c));
            self.common(ch, &grid, &outcomes, "cell", 5, why, hints);
        }
        Ok(())
    }

    /// SE's region chains for digit `d` from cell `c`, in the houses where
    /// `c` is the digit's first place.
    fn regions(
        &self,
        ch: &mut Chainer<'_>,
        c: usize,
        d: u8,
        on: &Rc<Outcome>,
        hints: &mut Easiest,
    ) -> Result<(), OutOfWork> {
        let grid = *ch.orig;
        let bit = 1u16 << (d - 1);
        for h in crate::core::logic::chain::houses(c) {
            let places: Vec<usize> = UNITS[h]
                .iter()
                .map(|&o| o as usize)
                .filter(|&o| grid[o] & bit != 0)
                .collect();
            let n = places.len();
            if !(n == 2 || (self.kind != Kind::Nishio && n > 2)) || places[0] != c {
                continue;
            }
            let mut outcomes: Vec<Rc<Outcome>> = Vec::new();
            for &o in &places {
                if o == c {
                    outcomes.push(Rc::clone(on));
                    continue;
                }
                outcomes.push(ch.assume_on(o * 9 + d as usize - 1)?);
            }
            let why = || format!("every place of {d} in {}", house_name(h));
            self.common(ch, &grid, &outcomes, "region", 6, why, hints);
        }
        Ok(())
    }

    /// What every outcome implies (on, then off), as hints.
    #[allow(clippy::too_many_arguments)]
    fn common(
        &self,
        ch: &Chainer<'_>,
        grid: &[u16; CELLS],
        outcomes: &[Rc<Outcome>],
        what: &str,
        sort_key: u8,
        why: impl Fn() -> String,
        hints: &mut Easiest,
    ) {
        let Some((first, rest)) = outcomes.split_first() else {
            return;
        };
        for side in [0, 1] {
            fn pick(o: &Outcome, side: usize) -> &Set {
                if side == 0 { &o.on } else { &o.off }
            }
            'node: for &p in &pick(first, side).order {
                let n = ch.arena.node(p);
                for o in rest {
                    if !pick(o, side).contains(n) {
                        continue 'node;
                    }
                }
                let mut cx = ch.arena.ancestors(p);
                for o in rest {
                    if let Some(q) = pick(o, side).get(n) {
                        cx += ch.arena.ancestors(q);
                    }
                }
                let why = || format!("{} gives {}", why(), node_name(n));
                self.hint(grid, n, cx, sort_key, what, why, hints);
            }
        }
    }
}

fn cell_name(c: usize) -> String {
    crate::core::grid::cell_at(c).to_string()
}

fn house_name(h: usize) -> String {
    match h {
        0..=8 => format!("row {}", h + 1),
        9..=17 => format!("column {}", h - 8),
        _ => format!("box {}", h - 17),
    }
}

/// Two chains that end in one conclusion: their complexity together.
fn both(arena: &Arena, a: Pot, b: Pot) -> usize {
    arena.ancestors(a) + arena.ancestors(b)
}

/// Two chains that end in one conclusion, in words.
fn both_text(arena: &Arena, a: Pot, b: Pot) -> String {
    format!("{} and {}", chain_text(arena, a), chain_text(arena, b))
}
