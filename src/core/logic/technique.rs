//! The contract every technique implements, and Sudoku Explainer 1.2.1's
//! order of them: the solver tries them in this order and takes the first
//! that makes progress.

use super::marks::Marks;
use super::step::{Rating10, Step};
use super::techniques::{
    fish::Fish, hidden_single::HiddenSingle, hidden_subset::HiddenSubset, locking::Locking,
    naked_single::NakedSingle, naked_subset::NakedSubset, xy_wing::XyWing,
};

/// A way of making progress in a position.
pub trait Technique: Sync {
    /// SE's name of the producer (`Hidden Singles`, `X-Wing`).
    fn name(&self) -> &'static str;
    /// The first application in SE's scan order, if any makes progress.
    fn find(&self, marks: &Marks) -> Option<Step>;
}

/// SE 1.2.1's producers in the order it tries them (its `Solver`, the
/// original ratings): direct hints first, then the indirect ones.
pub static ORDER: [&dyn Technique; 17] = [
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
    &NakedSubset { size: 4 },
    &Fish { size: 4 },
    &HiddenSubset {
        size: 4,
        direct: false,
    },
];

/// The lowest rating of the SE techniques this engine does not have yet
/// (unique rectangles and loops, 4.5): when nothing here applies, SE would
/// take one of those, so the puzzle's ER is at least this.
pub const fn lowest_missing() -> Rating10 {
    45
}
