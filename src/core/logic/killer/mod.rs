//! The logical solver and rater for Killer Sudoku: the classic loop
//! ([`run`](super::run)) on a [`KillerMarks`] position, with the Killer
//! techniques (one file each: `cage_single`, `combinations`,
//! `rule_of_45`, `cage_pointing`, `cage_claiming`, over the sum
//! arithmetic in `sums`) and the classic ones through
//! [`Classic`](super::Classic), in [`ORDER`]. The scale is this
//! engine's own (docs/difficulty.md "Killer"). Pure, counted, never timed.

mod cage_claiming;
mod cage_pointing;
mod cage_single;
mod combinations;
mod position;
mod rule_of_45;
mod sums;
#[cfg(test)]
mod tests;

use crate::core::grid::{CELLS, Cell};
use crate::core::killer::Killer;

use super::rate::{Budget, Solution, invalid, run};
use super::step::Rating10;
use super::technique::{Classic, Technique};
use super::techniques::{
    aligned_pair::AlignedPair,
    chains::{Chains, Kind},
    cycles::Cycles,
    fish::Fish,
    hidden_single::HiddenSingle,
    hidden_subset::HiddenSubset,
    locking::Locking,
    naked_single::NakedSingle,
    naked_subset::NakedSubset,
    xy_wing::XyWing,
};
use cage_claiming::CageClaiming;
use cage_pointing::CagePointing;
use cage_single::CageSingle;
use combinations::Combinations;
use rule_of_45::RuleOf45;

pub use position::{Cage, KillerMarks};

/// The techniques in the order they are tried, each rated at least as
/// the one before but for the classic pairs within one entry. Unique
/// rectangles and BUG are left out: they assume the classic puzzle's
/// unique solution, which cages change. SE's direct forms are left out:
/// their plain forms rate here.
pub static ORDER: [&dyn Technique<KillerMarks>; 30] = [
    &CageSingle { hidden: false },
    &Classic(HiddenSingle),
    &RuleOf45 {
        houses: 1,
        single: true,
    },
    &Combinations { unique: true },
    &CageSingle { hidden: true },
    &Classic(NakedSingle),
    &Combinations { unique: false },
    &RuleOf45 {
        houses: 1,
        single: false,
    },
    &Classic(Locking { direct: false }),
    &CagePointing,
    &CageClaiming,
    &Classic(NakedSubset { size: 2 }),
    &RuleOf45 {
        houses: 2,
        single: false,
    },
    &Classic(Fish { size: 2 }),
    &RuleOf45 {
        houses: 3,
        single: false,
    },
    &Classic(HiddenSubset {
        size: 2,
        direct: false,
    }),
    &RuleOf45 {
        houses: 4,
        single: false,
    },
    &Classic(NakedSubset { size: 3 }),
    &Classic(Fish { size: 3 }),
    &Classic(HiddenSubset {
        size: 3,
        direct: false,
    }),
    &Classic(XyWing { xyz: false }),
    &Classic(XyWing { xyz: true }),
    &Classic(NakedSubset { size: 4 }),
    &Classic(Fish { size: 4 }),
    &Classic(HiddenSubset {
        size: 4,
        direct: false,
    }),
    &Classic(AlignedPair),
    &Classic(Cycles),
    &Classic(Chains { kind: Kind::Nishio }),
    &Classic(Chains {
        kind: Kind::Multiple,
    }),
    &Classic(Chains {
        kind: Kind::Dynamic,
    }),
];

/// When nothing in [`ORDER`] applies, the puzzle needs more than this
/// engine has (nested chains, or chains through cages): at least this.
pub const STUCK_FLOOR: Rating10 = 90;

/// Solves a Killer step by step from its cages and placed digits.
pub fn solve(k: &Killer, budget: Budget) -> Solution<KillerMarks> {
    let mut cage_of = [0u8; CELLS];
    for (c, cell) in cage_of.iter_mut().zip(Cell::all()) {
        *c = k.cage_of(cell) as u8;
    }
    let sums: Vec<u8> = k.cages().iter().map(|c| c.sum()).collect();
    let givens = k.placed().map(|d| d.map_or(0, |d| d.get()));
    solve_cages(&cage_of, &sums, &givens, budget)
}

/// Solves the Killer of cages `cage_of` (each cell's cage id) with sums
/// `sums` (by id) and placed digits `givens` (0 = empty), step by step.
pub fn solve_cages(
    cage_of: &[u8; CELLS],
    sums: &[u8],
    givens: &[u8; CELLS],
    budget: Budget,
) -> Solution<KillerMarks> {
    match KillerMarks::new(cage_of, sums, givens) {
        (pos, true) => run(pos, &ORDER, budget, STUCK_FLOOR),
        (pos, false) => invalid(pos),
    }
}
