//! A Killer position: the classic pencil marks plus the cages. Placing a
//! digit also removes it from the cell's cage mates (a cage repeats no
//! digit); the classic techniques read the marks as they are.

use std::cell::RefCell;

use crate::core::grid::CELLS;
use crate::core::logic::marks::{Marks, bit};
use crate::core::logic::position::Position;
use crate::core::logic::step::Step;

use super::sums::{self, Ways};

/// One cage: its cells in reading order, its sum, and its cells as a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    pub cells: Vec<u8>,
    pub sum: u8,
    pub set: u128,
}

impl Cage {
    /// `cage 12/3 at r1c1`: sum, size and first cell, as a person names it.
    pub fn name(&self) -> String {
        let first = self.cells.first().map_or(0, |&c| c as usize);
        format!(
            "cage {}/{} at {}",
            self.sum,
            self.cells.len(),
            crate::core::grid::cell_at(first)
        )
    }
}

/// Marks plus cages, and each cage's ways as last worked out (several
/// techniques ask for them in one position; a step forgets them).
#[derive(Clone, Debug)]
pub struct KillerMarks {
    marks: Marks,
    cages: Vec<Cage>,
    cage_of: [u8; CELLS],
    ways: RefCell<Vec<Option<Option<Ways>>>>,
}

/// What is left of a cage: its empty cells, the sum they must make, and
/// the digits already placed in it.
pub struct Left {
    cells: [u8; 9],
    len: usize,
    pub sum: i32,
    pub placed: u16,
}

impl Left {
    /// The cage's empty cells, in reading order.
    pub fn empty(&self) -> &[u8] {
        &self.cells[..self.len]
    }
}

impl KillerMarks {
    /// The starting position of cages `cage_of` (each cell's cage id,
    /// ids `0..sums.len()`) with sums `sums` and placed digits `givens`
    /// (0 = empty), every other cell with what its peers and cage mates
    /// leave, and `false` when two placed digits clash (the position then
    /// as far as it got).
    pub fn new(cage_of: &[u8; CELLS], sums: &[u8], givens: &[u8; CELLS]) -> (KillerMarks, bool) {
        let mut cages: Vec<Cage> = sums
            .iter()
            .map(|&sum| Cage {
                cells: Vec::new(),
                sum,
                set: 0,
            })
            .collect();
        for (c, &k) in cage_of.iter().enumerate() {
            if let Some(cage) = cages.get_mut(usize::from(k)) {
                cage.cells.push(c as u8);
                cage.set |= 1 << c;
            }
        }
        let Some(marks) = Marks::from_givens(&[0; CELLS]) else {
            unreachable!("an empty grid has no clash")
        };
        let ways = RefCell::new(vec![None; cages.len()]);
        let mut pos = KillerMarks {
            marks,
            cages,
            cage_of: *cage_of,
            ways,
        };
        for (c, &g) in givens.iter().enumerate() {
            if (1..=9).contains(&g) {
                if pos.marks.cands(c) & bit(g) == 0 {
                    return (pos, false);
                }
                pos.place(c, g);
            }
        }
        (pos, true)
    }

    pub fn marks(&self) -> &Marks {
        &self.marks
    }

    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The index of the cage holding cell `c`.
    pub fn cage_of(&self, c: usize) -> usize {
        self.cage_of[c] as usize
    }

    /// Places `d` in `c`: out of its peers and its cage mates.
    pub fn place(&mut self, c: usize, d: u8) {
        self.marks.place(c, d);
        let k = self.cage_of[c] as usize;
        for &o in &self.cages[k].cells {
            self.marks.eliminate(o as usize, d);
        }
    }

    /// What is left of cage `k`.
    pub fn left(&self, k: usize) -> Left {
        let cage = &self.cages[k];
        let mut left = Left {
            cells: [0; 9],
            len: 0,
            sum: i32::from(cage.sum),
            placed: 0,
        };
        for &c in &cage.cells {
            match self.marks.value(c as usize) {
                0 if left.len < 9 => {
                    left.cells[left.len] = c;
                    left.len += 1;
                }
                0 => {}
                v => {
                    left.sum -= i32::from(v);
                    left.placed |= bit(v);
                }
            }
        }
        left
    }

    /// The ways the empty cells of cage `k` make what is left of its sum
    /// with their candidates ([`sums::distinct`]), `None` when there are
    /// none.
    pub fn ways(&self, k: usize) -> Option<Ways> {
        if let Some(Some(w)) = self.ways.borrow().get(k) {
            return *w;
        }
        let left = self.left(k);
        let cands: Vec<u16> = left
            .empty()
            .iter()
            .map(|&c| self.marks.cands(c as usize))
            .collect();
        let w = sums::distinct(&cands, left.sum, 0);
        if let Some(slot) = self.ways.borrow_mut().get_mut(k) {
            *slot = Some(w);
        }
        w
    }
}

impl PartialEq for KillerMarks {
    /// The same marks on the same cages (what is remembered aside).
    fn eq(&self, other: &KillerMarks) -> bool {
        self.marks == other.marks && self.cages == other.cages
    }
}

impl Eq for KillerMarks {}

impl AsRef<Marks> for KillerMarks {
    fn as_ref(&self) -> &Marks {
        &self.marks
    }
}

impl Position for KillerMarks {
    fn is_solved(&self) -> bool {
        self.marks.is_solved()
    }

    /// The marks are broken, or a cage repeats a digit or misses its sum.
    fn is_broken(&self) -> bool {
        self.marks.is_broken()
            || (0..self.cages.len()).any(|k| {
                let left = self.left(k);
                let placed = self.cages[k].cells.len() - left.empty().len();
                left.placed.count_ones() as usize != placed
                    || left.sum < 0
                    || (left.empty().is_empty() && left.sum != 0)
            })
    }

    fn apply(&mut self, step: &Step) {
        self.ways.get_mut().fill(None);
        for &(c, d) in &step.eliminate {
            self.marks.eliminate(c as usize, d);
        }
        if let Some((c, d)) = step.place {
            self.place(c as usize, d);
        }
    }
}
