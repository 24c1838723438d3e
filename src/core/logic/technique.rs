//! The contract every technique implements, over the position it works
//! on (classic [`Marks`] by default), the adapter that runs a classic
//! technique on any position holding classic marks, and Sudoku Explainer
//! 1.2.1's order of the classic ones: the solver tries them in this order
//! and takes the first that makes progress.

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

/// A way of making progress in a position of type `P`.
pub trait Technique<P = Marks>: Sync {
    /// SE's name of the producer (`Hidden Singles`, `X-Wing`).
    fn name(&self) -> &'static str;
    /// The application SE would take (the first in its scan order, or for
    /// the chains the easiest), if any makes progress. A technique whose
    /// search is long spends `work` and gives up when it runs out.
    fn find(&self, marks: &P, work: &mut Work) -> Option<Step>;
}

/// A classic technique run on a position that holds classic marks (a
/// Killer position: marks plus cages), which it reads as they are. Sound
/// for any variant that keeps the Sudoku rules; not for techniques that
/// assume the classic puzzle's unique solution (unique loops, BUG).
pub struct Classic<T>(pub T);

impl<P: AsRef<Marks>, T: Technique<Marks>> Technique<P> for Classic<T> {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    #[inline]
    fn find(&self, pos: &P, work: &mut Work) -> Option<Step> {
        self.0.find(pos.as_ref(), work)
    }
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
