//! What the solve loop needs of a position, whatever the puzzle type:
//! applying a step, and knowing when it is solved or broken. Classic
//! [`Marks`] is one; each variant brings its own (Killer: marks plus cages).

use super::marks::Marks;
use super::step::Step;

/// A position the generic solve loop ([`run`](super::rate::run)) works on.
pub trait Position {
    /// Every cell placed.
    fn is_solved(&self) -> bool;
    /// Some cell or constraint has no way left: no solution from here.
    fn is_broken(&self) -> bool;
    /// Applies a step: its removals, then its placement.
    fn apply(&mut self, step: &Step);
}

impl Position for Marks {
    fn is_solved(&self) -> bool {
        Marks::is_solved(self)
    }

    fn is_broken(&self) -> bool {
        Marks::is_broken(self)
    }

    #[inline]
    fn apply(&mut self, step: &Step) {
        for &(c, d) in &step.eliminate {
            self.eliminate(c as usize, d);
        }
        if let Some((c, d)) = step.place {
            self.place(c as usize, d);
        }
    }
}

impl AsRef<Marks> for Marks {
    fn as_ref(&self) -> &Marks {
        self
    }
}
