//! The contract every technique implements, and Sudoku Explainer 1.2.1's
//! order of them: the solver tries them in this order and takes the first
//! that makes progress.

use super::marks::Marks;
use super::step::{Rating10, Step};
use super::techniques::{
    aligned_pair::AlignedPair,
    bug::Bug,
    chains::{Chains, Kind},
    cycles::Cycles,
    fish::Fish,
    hidden_single::HiddenSingle,
    hidden_subset::HiddenSubset,
    locking::Locking,
    naked_single::NakedSingle,
    naked_subset::NakedSubset,
    unique_loop::UniqueLoop,
    xy_wing::XyWing,
};

/// A way of making progress in a position.
pub trait Technique: Sync {
    /// SE's name of the producer (`Hidden Singles`, `X-Wing`).
    fn name(&self) -> &'static str;
    /// The application SE would take (the first in its scan order, or for
    /// the chains the easiest), if any makes progress. A technique whose
    /// search is long spends `work` and gives up when it runs out.
    fn find(&self, marks: &Marks, work: &mut Work) -> Option<Step>;
}

/// The counted work left for one puzzle (chain nodes expanded, loop cells
/// tried), so that every machine stops at the same place. When a search
/// runs out, the rating it would have had at least is kept as the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    pub left: u64,
    /// The lowest rating of the technique whose search ran out.
    pub ran_out: Option<Rating10>,
}

impl Work {
    pub fn new(left: u64) -> Work {
        Work {
            left,
            ran_out: None,
        }
    }

    /// Takes `n` units; `false` (and the bound `floor` kept) when there
    /// were not enough left.
    pub fn spend(&mut self, n: u64, floor: Rating10) -> bool {
        if self.ran_out.is_some() {
            return false;
        }
        if self.left < n {
            self.left = 0;
            self.ran_out = Some(floor);
            return false;
        }
        self.left -= n;
        true
    }

    pub fn exhausted(&self) -> bool {
        self.ran_out.is_some()
    }
}

/// SE 1.2.1's producers in the order it tries them (its `Solver`, the
/// original ratings): direct hints first, then the indirect ones.
pub static ORDER: [&dyn Technique; 24] = [
    &HiddenSingle,
    &Locking { direct: true },
    &HiddenSubset {
        size: 2,
        direct: true,
    },
    &NakedSingle,
    &HiddenSubset {
        size: 3,
        direct: true,
    },
    &Locking { direct: false },
    &NakedSubset { size: 2 },
    &Fish { size: 2 },
    &HiddenSubset {
        size: 2,
        direct: false,
    },
    &NakedSubset { size: 3 },
    &Fish { size: 3 },
    &HiddenSubset {
        size: 3,
        direct: false,
    },
    &XyWing { xyz: false },
    &XyWing { xyz: true },
    &UniqueLoop,
    &NakedSubset { size: 4 },
    &Fish { size: 4 },
    &HiddenSubset {
        size: 4,
        direct: false,
    },
    &Bug,
    &AlignedPair,
    &Cycles,
    &Chains { kind: Kind::Nishio },
    &Chains {
        kind: Kind::Multiple,
    },
    &Chains {
        kind: Kind::Dynamic,
    },
];

/// The lowest rating of the SE techniques this engine does not have yet
/// (dynamic forcing chains nested one level, 9.0): when nothing here
/// applies, SE would take one of those, so the puzzle's ER is at least
/// this.
pub const fn lowest_missing() -> Rating10 {
    90
}
