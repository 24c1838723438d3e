//! Naked and hidden singles, the Sudoku rules along every cell and every
//! row-, column- and box-digit line: a placed digit leaves the cell's
//! neighbours (its 20 peers and any cage mates outside them), and a digit
//! with one place left in a unit goes there; a cell with no digit, or a
//! digit with no place in a unit, is a conflict. From the worklist they
//! visit only the cells just placed and the digits whose place count just
//! fell; in the fixed order (`unit_singles`), every unit is scanned.

use crate::core::grid::UNITS;

use super::Solver;
use super::board::{BASE, Board, Contradiction, Dirty, narrow};

impl Solver {
    /// Deduce: a placed digit at `c` leaves its neighbours; whether `c` was placed.
    pub(super) fn push_cell(
        &self,
        c: usize,
        b: &mut Board,
        dirty: &mut Dirty,
    ) -> Result<bool, Contradiction> {
        let m = b.cand[c];
        if m == 0 {
            return Err(Contradiction::Cell(c as u8));
        }
        if m & (m - 1) != 0 {
            return Ok(false);
        }
        b.pushed |= 1 << c;
        for &n in &self.neighbours[c][..self.neighbour_len[c] as usize] {
            let n = n as usize;
            if b.cand[n] & m != 0 {
                narrow(b, dirty, n, b.cand[n] & !m)?;
            }
        }
        Ok(true)
    }
}

/// [`unit_singles`] for the digits of unit `u` (counter bits) whose places
/// fell to one or none: a digit with none is a conflict, one with a single
/// place goes there.
#[inline]
pub(super) fn hidden_singles(
    u: usize,
    mut digits: u64,
    b: &mut Board,
    dirty: &mut Dirty,
) -> Result<(), Contradiction> {
    while digits != 0 {
        let at = digits.trailing_zeros();
        digits &= digits - 1;
        let d = at / 4;
        if b.places[u] >> at & 0xf == BASE & 0xf {
            return Err(Contradiction::Unit {
                unit: u as u8,
                digit: d as u8 + 1,
            });
        }
        place_single(&UNITS[u], 1 << d, b, dirty)?;
    }
    Ok(())
}

/// Places digit `bit` at its one place in `unit`; whether that narrowed
/// the cell (it may be placed there already). Inlined into both callers:
/// as a call, the solver bench took 3% more instructions (callgrind).
#[inline(always)]
fn place_single(
    unit: &[u8; 9],
    bit: u16,
    b: &mut Board,
    dirty: &mut Dirty,
) -> Result<bool, Contradiction> {
    for &c in unit {
        let c = usize::from(c);
        if b.cand[c] & bit != 0 {
            if b.cand[c] == bit {
                return Ok(false);
            }
            narrow(b, dirty, c, bit)?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// Eliminate along the row-, column- or box-digit lines of unit `u`: a digit
/// with one place goes there; whether anything changed.
#[inline]
pub(super) fn unit_singles(
    u: usize,
    b: &mut Board,
    dirty: &mut Dirty,
) -> Result<bool, Contradiction> {
    let unit = &UNITS[u];
    let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
    for &c in unit {
        let m = b.cand[c as usize];
        twice |= once & m;
        once |= m;
        if m & m.wrapping_sub(1) == 0 {
            placed |= m;
        }
    }
    if once != 0x1ff {
        return Err(Contradiction::Unit {
            unit: u as u8,
            digit: (!once & 0x1ff).trailing_zeros() as u8 + 1,
        });
    }
    let mut changed = false;
    // A placed digit is its own only place: nothing to do for it.
    let mut single = once & !twice & !placed;
    while single != 0 {
        let bit = single & single.wrapping_neg();
        single ^= bit;
        changed |= place_single(unit, bit, b, dirty)?;
    }
    Ok(changed)
}
