//! SE's Nishio (7.5), multiple (8.0) and dynamic (8.5) forcing chains,
//! each plus the length bonus, on the shared chain engine: from every
//! candidate of a cell, assumed on and then off, a contradiction, a double
//! implication, a cell's or a region's common consequence. Of all found,
//! the easiest is applied, as SE sorts them. In full: docs/difficulty.md
//! "Module notes".

use crate::core::grid::{CELLS, UNITS};
use crate::core::logic::chain::{
    Arena, Chainer, Node, OutOfWork, Pot, Set, cand_of, is_on, length_bonus, node,
};
use crate::core::logic::marks::Marks;
use crate::core::logic::step::{Rating10, Step};
use crate::core::logic::technique::{Technique, Work};

use super::cycles::{Hint, chain_text, easiest};
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
        let mut hints = Vec::new();
        for c in 0..CELLS {
            let n = grid[c].count_ones();
            if n > 2 || (n > 1 && self.dynamic()) {
                let mut ch = Chainer::new(
                    &grid,
                    self.kind != Kind::Nishio,
                    self.dynamic(),
                    work,
                    self.base(),
                );
                if self.cell(&mut ch, c, &mut hints).is_err() {
                    return None;
                }
            }
        }
        easiest(hints)
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
    #[allow(clippy::too_many_arguments)]
    fn hint(
        &self,
        grid: &[u16; CELLS],
        target: Node,
        complexity: usize,
        sort_key: u8,
        what: &str,
        why: String,
        hints: &mut Vec<Hint>,
    ) {
        let eliminate = removal(grid, target);
        if eliminate.is_empty() {
            return;
        }
        let rating = self.base() + length_bonus(complexity);
        let technique = match (self.kind, what) {
            (Kind::Nishio, _) => "Nishio Forcing Chains",
            (Kind::Dynamic, "contradiction") => "Dynamic Contradiction Forcing Chains",
            (Kind::Dynamic, "double") => "Dynamic Double Forcing Chains",
            (Kind::Dynamic, "cell") => "Dynamic Cell Forcing Chains",
            (Kind::Dynamic, _) => "Dynamic Region Forcing Chains",
            (_, "cell") => "Cell Forcing Chains",
            _ => "Region Forcing Chains",
        };
        hints.push(Hint {
            rating,
            complexity,
            sort_key,
            step: Step {
                technique,
                rating,
                cells: vec![(cand_of(target) / 9) as u8],
                place: None,
                eliminate,
                reason: format!(
                    "{}{what} forcing chains: {why}",
                    self.prefix().to_lowercase()
                ),
            },
        });
    }

    /// SE's chains from the candidates of cell `c`.
    fn cell(&self, ch: &mut Chainer<'_>, c: usize, hints: &mut Vec<Hint>) -> Result<(), OutOfWork> {
        let grid = *ch.orig;
        let count = grid[c].count_ones();
        let nishio = self.kind == Kind::Nishio;
        let double = count >= 3 && !nishio && self.dynamic();
        let contradiction = self.dynamic();
        let mut outcomes: Vec<(Set, Set)> = Vec::new();
        for d in digits(grid[c]) {
            let cand = c * 9 + d as usize - 1;
            let (mut on_on, mut on_off) = (Set::new(), Set::new());
            let s = ch.assume(node(cand, true));
            on_on.insert(node(cand, true), s);
            let absurd = ch.run(&mut on_on, &mut on_off)?;
            if contradiction && let Some((a, b)) = absurd {
                let (cx, why) = both(&ch.arena, a, b);
                self.hint(&grid, node(cand, false), cx, 7, "contradiction", why, hints);
            }
            let (mut off_on, mut off_off) = (Set::new(), Set::new());
            let s = ch.assume(node(cand, false));
            off_off.insert(node(cand, false), s);
            let absurd = ch.run(&mut off_on, &mut off_off)?;
            if contradiction && let Some((a, b)) = absurd {
                let (cx, why) = both(&ch.arena, a, b);
                self.hint(&grid, node(cand, true), cx, 7, "contradiction", why, hints);
            }
            if double {
                for (from, other) in [(&on_on, &off_on), (&on_off, &off_off)] {
                    for &p in &from.order {
                        let n = ch.arena.node(p);
                        if let Some(q) = other.get(n) {
                            let (cx, why) = both(&ch.arena, p, q);
                            self.hint(&grid, n, cx, 1, "double", why, hints);
                        }
                    }
                }
            }
            if !nishio {
                self.regions(ch, c, d, &on_on, &on_off, hints)?;
            }
            outcomes.push((on_on, on_off));
        }
        if !nishio {
            self.common(
                ch,
                &grid,
                &outcomes,
                "cell",
                5,
                &format!("every digit of {}", cell_name(c)),
                hints,
            );
        }
        Ok(())
    }

    /// SE's region chains for digit `d` from cell `c`, in the houses where
    /// `c` is the digit's first place.
    #[allow(clippy::too_many_arguments)]
    fn regions(
        &self,
        ch: &mut Chainer<'_>,
        c: usize,
        d: u8,
        on: &Set,
        off: &Set,
        hints: &mut Vec<Hint>,
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
            let mut outcomes: Vec<(Set, Set)> = Vec::new();
            for &o in &places {
                if o == c {
                    outcomes.push((on.clone(), off.clone()));
                    continue;
                }
                let cand = o * 9 + d as usize - 1;
                let (mut s_on, mut s_off) = (Set::new(), Set::new());
                let s = ch.assume(node(cand, true));
                s_on.insert(node(cand, true), s);
                ch.run(&mut s_on, &mut s_off)?;
                outcomes.push((s_on, s_off));
            }
            let why = format!("every place of {d} in {}", house_name(h));
            self.common(ch, &grid, &outcomes, "region", 6, &why, hints);
        }
        Ok(())
    }

    /// What every outcome implies (on, then off), as hints.
    #[allow(clippy::too_many_arguments)]
    fn common(
        &self,
        ch: &Chainer<'_>,
        grid: &[u16; CELLS],
        outcomes: &[(Set, Set)],
        what: &str,
        sort_key: u8,
        why: &str,
        hints: &mut Vec<Hint>,
    ) {
        let Some((first, rest)) = outcomes.split_first() else {
            return;
        };
        for side in [0, 1] {
            fn pick(o: &(Set, Set), side: usize) -> &Set {
                if side == 0 { &o.0 } else { &o.1 }
            }
            'node: for &p in &pick(first, side).order {
                let n = ch.arena.node(p);
                let mut cx = ch.arena.ancestors(p);
                for o in rest {
                    match pick(o, side).get(n) {
                        Some(q) => cx += ch.arena.ancestors(q),
                        None => continue 'node,
                    }
                }
                self.hint(
                    grid,
                    n,
                    cx,
                    sort_key,
                    what,
                    format!("{why} gives {}", node_name(n)),
                    hints,
                );
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

/// Two chains that end in one conclusion: their complexity together, and
/// their words.
fn both(arena: &Arena, a: Pot, b: Pot) -> (usize, String) {
    (
        arena.ancestors(a) + arena.ancestors(b),
        format!("{} and {}", chain_text(arena, a), chain_text(arena, b)),
    )
}
