//! The state the search copies at each node, and the one way it changes:
//! a [`Board`] of candidates with per-unit place counters (nine 4-bit
//! counters in a word), and [`Dirty`], the worklist.
//!
//! Invariant: every change to a candidate goes through [`narrow`], which
//! keeps the counters true and queues the change for every rule that must
//! see it; outside this module the candidates are read only. A fixed-size
//! value: the search copies it on the stack and never allocates.

use crate::core::grid::{CELLS, UNITS};
use crate::core::mask::lane_table;

use super::cells::{ALL_CELLS, CELL_BITS, PLACES};

/// Each 9-bit mask as nine 4-bit counters, one per digit: 1 in the counter
/// of each digit the mask has.
const SPREAD: [u64; 512] = lane_table(4);

/// Bit 0 of every digit's counter.
const ONES: u64 = 0x1_1111_1111;

/// What each counter starts from, so that one of 0 or 1 place (6 or 7) is
/// the one whose top bit is clear, and none (6) is still above zero.
pub(super) const BASE: u64 = 6 * ONES;

/// The counters of `places` standing for 0 or 1 place, as their bit 0.
#[inline]
pub(super) fn few(places: u64) -> u64 {
    !(places >> 3) & ONES
}

/// Candidates of all cells (9-bit masks), which placed cells have already
/// been removed from their neighbours, and for each unit how many places
/// each digit has there (counters as [`SPREAD`] makes them), kept as cells
/// narrow so a hidden single is seen without a scan of its unit. The
/// candidates are read-only outside this module: every change goes through
/// `narrow`, which keeps the counters true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub(super) cand: [u16; CELLS],
    pub(super) pushed: u128,
    pub(super) places: [u64; 27],
}

impl Board {
    /// The candidates of each cell, as 9-bit masks.
    pub fn cand(&self) -> &[u16; CELLS] {
        &self.cand
    }

    pub fn new(cand: [u16; CELLS]) -> Board {
        let mut places = [BASE; 27];
        for (u, unit) in UNITS.iter().enumerate() {
            for &c in unit {
                places[u] += SPREAD[usize::from(cand[usize::from(c)] & 0x1ff)];
            }
        }
        Board {
            cand,
            pushed: 0,
            places,
        }
    }
}

/// Where propagation found a line with no possible position; turned into
/// words only once, outside the hot loop (`rules`).
pub use crate::core::contradiction::Contradiction;

/// What each rule has yet to look at again since it changed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Dirty {
    /// For naked singles: a cell that became single pushes its digit out.
    pub(super) push: u128,
    /// For hidden singles (and their conflicts): the units with a digit
    /// down to one place or none, and those digits as counter bits.
    pub(super) units: u32,
    pub(super) singles: [u64; 27],
    /// For the cages holding them.
    pub(super) cages: u128,
}

impl Dirty {
    /// Nothing changed.
    pub(super) const NONE: Dirty = Dirty {
        push: 0,
        units: 0,
        singles: [0; 27],
        cages: 0,
    };

    /// Every cell and unit: nothing is known to hold yet. Only a cell with
    /// one digit or none has anything to push, and only a unit with a digit
    /// in one place or none a hidden single to look at, so only those are
    /// queued (the rest would be looked at and found to have nothing).
    #[inline]
    pub(super) fn all(b: &Board) -> Dirty {
        let mut push = 0;
        for (&m, &bit) in b.cand.iter().zip(&CELL_BITS) {
            if m & m.wrapping_sub(1) == 0 {
                push |= bit;
            }
        }
        let singles = b.places.map(few);
        let mut units = 0;
        for (u, &s) in singles.iter().enumerate() {
            if s != 0 {
                units |= 1 << u;
            }
        }
        Dirty {
            push,
            units,
            singles,
            cages: ALL_CELLS,
        }
    }
}

/// Narrows cell `c` to `m`, a subset of its candidates, for every rule to see.
#[inline(never)]
pub(super) fn narrow(
    b: &mut Board,
    dirty: &mut Dirty,
    c: usize,
    m: u16,
) -> Result<(), Contradiction> {
    let gone = SPREAD[usize::from(b.cand[c] & !m & 0x1ff)];
    b.cand[c] = m;
    // A load, where shifting a 128-bit one is a dozen instructions.
    let bit = CELL_BITS[c];
    // Only a cell left with one digit (or none) has something to push.
    if m & m.wrapping_sub(1) == 0 {
        dirty.push |= bit;
    }
    dirty.cages |= bit;
    for (u, _) in PLACES[c] {
        let u = usize::from(u);
        b.places[u] -= gone;
        let down = few(b.places[u]) & gone;
        if down != 0 {
            dirty.units |= 1 << u;
            dirty.singles[u] |= down;
        }
    }
    if m == 0 {
        return Err(Contradiction::Cell(c as u8));
    }
    Ok(())
}
