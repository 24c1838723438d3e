//! Naked single (1.0): an empty white cell with one candidate left, first
//! in reading order.

use crate::core::grid::CELLS;
use crate::core::logic::step::Step;
use crate::core::logic::technique::Work;

use super::{Position, Str8tsTechnique};

pub struct NakedSingle;

impl Str8tsTechnique for NakedSingle {
    fn name(&self) -> &'static str {
        "Naked Singles"
    }

    fn find(&self, p: &Position, _work: &mut Work) -> Option<Step> {
        let c = (0..CELLS).find(|&c| p.cands(c).count_ones() == 1)?;
        let d = p.cands(c).trailing_zeros() as u8 + 1;
        Some(Step {
            technique: "Naked Single",
            rating: 10,
            cells: vec![c as u8],
            place: Some((c as u8, d)),
            eliminate: Vec::new(),
            reason: "naked single".to_string(),
        })
    }
}
