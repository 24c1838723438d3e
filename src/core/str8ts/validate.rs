//! The checks a Str8ts board must pass across cells: no digit twice in a
//! row or column (black givens count), and each compartment's placed digits
//! within one straight of its length. Each failure names the cells or the
//! compartment.

use crate::core::grid::{CELLS, Cell};
use crate::core::mask::Mask;

use super::board::Str8ts;
use super::compartment::compartments;
use super::{CELL, Error, Form};

impl Str8ts {
    /// [`Str8ts::checked`] for the other string readers of this crate: the
    /// per-cell invariants (a black cell empty or a given, a white one with
    /// candidates) are the caller's to ensure.
    pub(crate) fn from_parts(
        black: [bool; CELLS],
        given: [bool; CELLS],
        cells: [Mask; CELLS],
        form: Form,
    ) -> Result<Str8ts, Error> {
        Str8ts::checked(black, given, cells, form)
    }

    /// Checks what spans several cells: no digit twice in a row or column,
    /// and each compartment's placed digits within one straight of its length.
    pub(super) fn checked(
        black: [bool; CELLS],
        given: [bool; CELLS],
        cells: [Mask; CELLS],
        form: Form,
    ) -> Result<Str8ts, Error> {
        for line in 0..9 {
            for (along, step) in [("row", 1), ("column", 9)] {
                let start = if step == 1 { line * 9 } else { line };
                let mut seen: [Option<Cell>; 9] = [None; 9];
                for k in 0..9 {
                    let i = start + k * step;
                    let Some(d) = cells[i].single() else { continue };
                    let slot = &mut seen[usize::from(d.get() - 1)];
                    if let Some(first) = *slot {
                        return Err(Error::Duplicate {
                            form,
                            digit: d,
                            along,
                            number: line + 1,
                            first,
                            second: CELL[i],
                        });
                    }
                    *slot = Some(CELL[i]);
                }
            }
        }
        let compartments = compartments(&black);
        for comp in &compartments {
            let placed: Mask = comp
                .cells()
                .iter()
                .filter_map(|c| cells[c.index()].single())
                .collect();
            // Duplicates were rejected above (a compartment lies in one line),
            // so only the spread can be wrong.
            if let (Some(lo), Some(hi)) = (placed.lowest(), placed.highest())
                && usize::from(hi.get() - lo.get()) >= comp.len()
            {
                return Err(Error::Straight {
                    form,
                    compartment: *comp,
                    digits: placed,
                });
            }
        }
        Ok(Str8ts {
            black,
            given,
            cells,
            compartments,
        })
    }
}
