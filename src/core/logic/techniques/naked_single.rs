//! Naked single (2.3): a cell with one candidate left, first in reading
//! order. Shared by every type (any position with [`Houses`]).

use crate::core::grid::CELLS;
use crate::core::logic::house::Houses;
use crate::core::logic::step::Step;
use crate::core::logic::technique::{Technique, Work};

pub struct NakedSingle;

impl<P: Houses> Technique<P> for NakedSingle {
    fn name(&self) -> &'static str {
        "Naked Singles"
    }

    fn find(&self, marks: &P, _work: &mut Work) -> Option<Step> {
        let c = (0..CELLS).find(|&c| marks.cands(c).count_ones() == 1)?;
        let d = marks.cands(c).trailing_zeros() as u8 + 1;
        Some(Step {
            technique: "Naked Single",
            rating: 23,
            cells: vec![c as u8],
            place: Some((c as u8, d)),
            eliminate: Vec::new(),
            reason: "naked single".to_string(),
        })
    }
}
