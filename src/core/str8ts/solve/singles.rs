//! Naked singles along lines, a root rule: a digit placed in a cell leaves
//! the other cells of its row and column. Meeting it in a black cell, or in
//! a cell it already fills, is a contradiction (the digit twice in a line).

use super::layout::Layout;
use super::work::{Cells, Dead, Work};
use crate::core::grid::LINE_PEERS;

impl Layout {
    /// Removes the digit placed in cell `i` from its row and column.
    pub(super) fn spread(&self, cells: &mut Cells, i: usize, work: &mut Work) -> Result<(), Dead> {
        let d = cells[i];
        for &p in &LINE_PEERS[i] {
            let p = usize::from(p);
            let m = cells[p];
            if m & d == 0 {
                continue;
            }
            if self.black[p] || m & (m - 1) == 0 {
                return Err(Dead);
            }
            work.narrow(self, cells, p, m & !d);
        }
        Ok(())
    }
}
