//! The fast propagation every puzzle runs: the cube as nine digit planes
//! in band words, deduce and eliminate to the fixpoint `rules` defines,
//! and the one-pass reading of a legacy line into placed planes.

use super::kernels::{Scan, hidden_singles, once_twice, scan};
use super::tables::*;
use crate::core::grid::CELLS;
use crate::core::mask::Mask;
use crate::core::sudoku::Sudoku;

/// The cube as nine digit planes: `0[d][b]` holds where digit `d + 1` may
/// still go in band `b` (rows `3b..3b+3`), bit `9*row + col` of the band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::core::sudoku) struct Planes(pub(in crate::core::sudoku) [[u32; 3]; 9]);

impl Planes {
    /// The planes of full candidate sets (an empty mask is a dead cell).
    pub(in crate::core::sudoku) fn from_masks(cands: &[Mask; CELLS]) -> Planes {
        Self::from_cells::<false>(cands)
    }

    /// The planes of a board's candidates ("no information" is all nine).
    pub(in crate::core::sudoku) fn from_board(board: &Sudoku) -> Planes {
        Self::from_cells::<true>(board.masks())
    }

    pub(in crate::core::sudoku) fn from_cells<const EMPTY_IS_OPEN: bool>(
        cells: &[Mask; CELLS],
    ) -> Planes {
        // Most cells of a puzzle are open (all nine): only the others,
        // and only their set bits, cost anything.
        let mut narrowed = [0u32; 3];
        let mut has = [[0u32; 3]; 9];
        for (cell, m) in cells.iter().enumerate() {
            let bits = m.bits();
            if bits != Mask::ALL.bits() && !(EMPTY_IS_OPEN && bits == 0) {
                let (b, bit) = (cell / 27, 1u32 << (cell % 27));
                narrowed[b] |= bit;
                let mut ds = bits;
                while ds != 0 {
                    has[ds.trailing_zeros() as usize][b] |= bit;
                    ds &= ds - 1;
                }
            }
        }
        for h in &mut has {
            for b in 0..3 {
                h[b] |= BAND & !narrowed[b];
            }
        }
        Planes(has)
    }

    /// Every cell's candidate set.
    pub(in crate::core::sudoku) fn masks(&self) -> [Mask; CELLS] {
        // Eight cells per step and no branch per candidate: each plane's
        // byte of the band is spread one bit per byte and shifted to its
        // digit, so digits 1-8 arrive as the eight cells' low bytes.
        let mut out = [Mask::EMPTY; CELLS];
        for (b, cells) in out.chunks_exact_mut(27).enumerate() {
            let b = b % 3;
            for (k, chunk) in cells.chunks_mut(8).enumerate() {
                let byte = |w: u32| SPREAD[((w >> (8 * k)) & 0xff) as usize];
                let mut low = 0u64;
                for (d, plane) in self.0[..8].iter().enumerate() {
                    low |= byte(plane[b]) << d;
                }
                let (low, high) = (low.to_le_bytes(), byte(self.0[8][b]).to_le_bytes());
                for ((m, &l), &h) in chunk.iter_mut().zip(&low).zip(&high) {
                    *m = Mask::from_bits_truncate(u16::from(l) | u16::from(h) << 8);
                }
            }
        }
        out
    }

    /// The digit values (1..=9) when every cell holds exactly one
    /// candidate, as after a fixpoint that solved the puzzle.
    pub(in crate::core::sudoku) fn solved(&self) -> Option<[u8; CELLS]> {
        for b in 0..3 {
            let (mut once, mut twice) = (0u32, 0u32);
            for plane in &self.0 {
                twice |= once & plane[b];
                once |= plane[b];
            }
            if once != BAND || twice != 0 {
                return None;
            }
        }
        Some(grid_of(&self.0))
    }

    /// Deduce in all bands: every cell newly left with one candidate (not
    /// in `done`) clears its digit's row, box and column. `None` when a
    /// cell has no candidate, else whether anything was placed.
    #[inline(always)]
    pub(in crate::core::sudoku) fn deduce(&mut self, done: &mut [u32; 3]) -> Option<bool> {
        let (once, twice) = once_twice(&self.0);
        if once != [BAND; 3] {
            return None;
        }
        let new: [u32; 3] = std::array::from_fn(|b| once[b] & !twice[b] & !done[b]);
        if new == [0; 3] {
            return Some(false);
        }
        for b in 0..3 {
            done[b] |= new[b];
        }
        for d in 0..9 {
            let at = self.0[d];
            self.place::<0>(d, at[0] & new[0]);
            self.place::<1>(d, at[1] & new[1]);
            self.place::<2>(d, at[2] & new[2]);
        }
        Some(true)
    }

    /// Deduce for digit `d` placed on the cells `at` of band `B`: its rows,
    /// boxes and columns lose the digit, the cells themselves keep it.
    #[inline(always)]
    pub(in crate::core::sudoku) fn place<const B: usize>(&mut self, d: usize, mut at: u32) {
        while at != 0 {
            let i = at.trailing_zeros() as usize % 32;
            at &= at - 1;
            let plane = &mut self.0[d];
            plane[B] &= PEERS_OUT[i];
            plane[(B + 1) % 3] &= COLUMN_OUT[i];
            plane[(B + 2) % 3] &= COLUMN_OUT[i];
        }
    }

    /// [`Self::place`] for a band known only at run time.
    #[inline(always)]
    pub(in crate::core::sudoku) fn place_in(&mut self, d: usize, b: usize, at: u32) {
        match b {
            0 => self.place::<0>(d, at),
            1 => self.place::<1>(d, at),
            _ => self.place::<2>(d, at),
        }
    }

    /// Eliminate for one digit's plane: the cells where it has the last
    /// position of a row, box or column, per band, and whether it has no
    /// position left in some unit (the cells are then meaningless). A pair
    /// rather than an `Option`, which cost branches on every call.
    #[inline(always)]
    pub(in crate::core::sudoku) fn hidden_singles(plane: &[u32; 3]) -> ([u32; 3], bool) {
        hidden_singles(plane)
    }
}

impl Planes {
    /// Runs deduce and eliminate to the fixpoint; false on a contradiction
    /// (the planes are then meaningless).
    pub(in crate::core::sudoku) fn fixpoint(&mut self) -> bool {
        self.fixpoint_from([0; 3])
    }

    /// [`Self::fixpoint`] when the cells of `done` (per band) already hold
    /// one digit that has cleared its peers, as [`Legacy::read`] leaves them.
    pub(in crate::core::sudoku) fn fixpoint_from(&mut self, mut done: [u32; 3]) -> bool {
        // Each plane as of its last hidden-singles look; an impossible
        // value first, so every plane is looked at once.
        let mut seen = [[u32::MAX; 3]; 9];
        loop {
            // Deduce until no cell is newly left with one candidate.
            loop {
                match self.deduce(&mut done) {
                    Some(false) => break,
                    Some(true) => {}
                    None => return false,
                }
            }
            let mut changed = false;
            // Eliminate: a hidden single leaves its cell to its digit alone
            // and is placed at once, so later planes in this pass see it.
            // A cell that is the last place of two digits is emptied, which
            // the next deduce round finds.
            for (d, seen) in seen.iter_mut().enumerate() {
                let plane = self.0[d];
                if plane == *seen {
                    continue;
                }
                *seen = plane;
                let (hidden, dead) = Self::hidden_singles(&plane);
                if dead {
                    return false;
                }
                for b in 0..3 {
                    // Placed cells are their own (trivial) hidden singles.
                    let new = hidden[b] & !done[b];
                    if new != 0 {
                        done[b] |= new;
                        changed = true;
                        for (e, other) in self.0.iter_mut().enumerate() {
                            if e != d {
                                other[b] &= !new;
                            }
                        }
                        self.place_in(d, b, new);
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }
}

/// A legacy string read in one pass straight into what `analyse` needs:
/// the planes with every given already placed (the state the first deduce
/// round of [`Planes::fixpoint`] would reach from the parsed board), the
/// normalised givens and their flags.
pub(in crate::core::sudoku) struct Legacy {
    pub(in crate::core::sudoku) planes: Planes,
    /// Per band, the given cells: deduce has nothing left to do for them.
    pub(in crate::core::sudoku) placed: [u32; 3],
    /// The string with `.` written `0`: the analysis's `givens`.
    pub(in crate::core::sudoku) digits: [u8; CELLS],
    pub(in crate::core::sudoku) given: [bool; CELLS],
    pub(in crate::core::sudoku) clues: u32,
}

impl Legacy {
    /// `None` when the string would be rejected: a character other than
    /// `0`-`9` or `.`, or a digit given twice in a row, column or box. The
    /// detailed parse and `validate` then name the error; this pass only
    /// has to agree with them on which strings they accept.
    pub(in crate::core::sudoku) fn read(s: &[u8; CELLS]) -> Option<Legacy> {
        let Scan {
            digits,
            given,
            placed,
        } = scan(s)?;
        let mut planes = Planes([[BAND; 3]; 9]);
        // Per digit and band, its given cells.
        let mut own = [[0u32; 3]; 9];
        Self::band::<0>(&digits, placed[0], &mut planes, &mut own)?;
        Self::band::<1>(&digits, placed[1], &mut planes, &mut own)?;
        Self::band::<2>(&digits, placed[2], &mut planes, &mut own)?;
        // A given cell holds its own digit only.
        for (plane, own) in planes.0.iter_mut().zip(&own) {
            for b in 0..3 {
                plane[b] = (plane[b] & !placed[b]) | own[b];
            }
        }
        Some(Legacy {
            planes,
            placed,
            digits,
            given,
            clues: placed.iter().map(|w| w.count_ones()).sum(),
        })
    }

    /// The given cells `at` of band `B`. A given's digit plane loses the
    /// given's row, box and column, so a second given of that digit among
    /// its peers finds its own bit already gone: that is the duplicate check.
    #[inline(always)]
    pub(in crate::core::sudoku) fn band<const B: usize>(
        digits: &[u8; CELLS],
        mut at: u32,
        planes: &mut Planes,
        own: &mut [[u32; 3]; 9],
    ) -> Option<()> {
        while at != 0 {
            let j = at.trailing_zeros() as usize % 32;
            at &= at - 1;
            let d = usize::from(digits.get(27 * B + j)?.wrapping_sub(b'1'));
            let bit = 1u32 << j;
            let plane = planes.0.get_mut(d)?;
            if plane[B] & bit == 0 {
                return None;
            }
            plane[B] &= PEERS_OUT[j];
            plane[(B + 1) % 3] &= COLUMN_OUT[j];
            plane[(B + 2) % 3] &= COLUMN_OUT[j];
            own[d][B] |= bit;
        }
        Some(())
    }
}

/// The grid of digit planes holding one candidate per cell, eight cells
/// per step: each digit's bits are spread into bytes, so there is no
/// branch per cell.
pub(in crate::core::sudoku) fn grid_of(f: &[[u32; 3]; 9]) -> [u8; CELLS] {
    let mut out = [0u8; CELLS];
    for (b, cells) in out.chunks_exact_mut(27).enumerate() {
        let b = b % 3;
        // The four bits of each cell's digit value, as band words.
        let v0 = f[0][b] | f[2][b] | f[4][b] | f[6][b] | f[8][b];
        let v1 = f[1][b] | f[2][b] | f[5][b] | f[6][b];
        let v2 = f[3][b] | f[4][b] | f[5][b] | f[6][b];
        let v3 = f[7][b] | f[8][b];
        for (k, chunk) in cells.chunks_mut(8).enumerate() {
            let byte = |v: u32| SPREAD[((v >> (8 * k)) & 0xff) as usize];
            let bytes = byte(v0) | byte(v1) << 1 | byte(v2) << 2 | byte(v3) << 3;
            chunk.copy_from_slice(&bytes.to_le_bytes()[..chunk.len()]);
        }
    }
    out
}
