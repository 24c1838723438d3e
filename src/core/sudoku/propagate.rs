//! Propagation exactly as docs/formats.md "Propagation" defines it: the
//! board is a 9x9x9 cube of (cell, digit) possibilities and every line of it
//! (a cell's digits; a digit along a row, down a column, within a box) holds
//! exactly one truth. *Deduce* clears the lines through each placed digit;
//! *eliminate* places a line's last possible position. Both run to a fixpoint.
//!
//! Two passes reach that fixpoint. [`reference`] applies the rules cell by
//! cell in the order docs/formats.md gives them: it is the readable spec and the
//! one that names a contradiction. [`Planes::fixpoint`] is the fast one, run
//! on every puzzle: the cube held as nine digit planes in the solver's band
//! layout (per digit three 27-bit words, one per band of three rows, bit
//! `9*row + col`). A placed digit clears its row, box and column with three
//! masks; naked singles come from counting a cell's bit across the nine
//! planes; hidden singles from one look at each row, box and column word of
//! a plane, and only for planes that changed since their last look. No
//! locked candidates: those are the solver's business. No parsing, no search
//! beyond [`Legacy::read`], which sorts an 81-byte line straight into placed
//! planes for `analyse`.
//!
//! As in the solver, the hot loops use SSE2 on x86_64, where it is the
//! baseline: the candidate counts of a deduce round, a plane's hidden
//! singles (three bands in three lanes) and the sorting of a legacy line,
//! sixteen bytes at a time. Other targets, and x86_64 with the `portable`
//! feature, get the portable forms, which the tests hold the SSE2 ones to
//! (CI runs the tests both ways). Each kernel picks its form at one
//! dispatch function, on `cfg(x86_64_kernels)` (build.rs). The only unsafe
//! code is in those helpers (calling them, and their unaligned 16-byte
//! stores of in-bounds slices; the loads are the shared ones of `sse2.rs`).

use std::fmt;

use super::board::Board;
#[cfg(x86_64_kernels)]
use super::sse2::{bands, load_bytes, load_words};
use super::validate::Unit;
use crate::core::grid::{CELLS, Cell, PEERS, UNITS};
use crate::core::mask::{Digit, Mask, Remaining};

/// A line of the cube with no possible position left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// The cell line: no digit can go in this cell.
    Cell(Cell),
    /// A row/column/box line: the digit has no place in the unit.
    Digit { digit: Digit, unit: Unit },
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contradiction::Cell(c) => write!(f, "cell {} ({c}) has no candidate left", c.index()),
            Contradiction::Digit { digit, unit } => {
                write!(f, "digit {digit} has no place left in {unit}")
            }
        }
    }
}

/// Runs deduce and eliminate on all four line kinds until nothing changes.
///
/// `cands` are full candidate sets (an empty mask is a cell with no
/// candidate, i.e. a contradiction, not "no information"). On a
/// contradiction `cands` holds the state reached when it was found.
pub fn propagate(cands: &mut [Mask; CELLS]) -> Result<(), Contradiction> {
    // Both rules only remove candidates, so every order of applying them
    // reaches the same fixpoint: the fast pass finds it in a fraction of
    // the time. Which contradiction is met first does depend on the order,
    // so when there is one the reference pass runs to name it.
    let mut planes = Planes::from_masks(cands);
    if planes.fixpoint() {
        *cands = planes.masks();
        return Ok(());
    }
    reference(cands)
}

/// All 27 bits of a band word.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// A column's three cells within a band.
pub(super) const fn column(col: usize) -> u32 {
    (1 | 1 << 9 | 1 << 18) << col
}

/// For a band bit: its row, box and column within the band, itself included.
pub(super) const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        let bx = (7 << (c / 3 * 3)) * (1 | 1 << 9 | 1 << 18);
        t[i] = (0x1ff << (9 * r)) | bx | column(c);
        i += 1;
    }
    t
};

/// For a band bit (indexed mod 32): the band word without the bit's row,
/// box and column, the bit itself kept.
const PEERS_OUT: [u32; 32] = {
    let mut t = [BAND; 32];
    let mut i = 0;
    while i < 27 {
        t[i] = !BAND_PEERS[i] | 1 << i;
        i += 1;
    }
    t
};

/// For a band bit (indexed mod 32): a band word without the bit's column.
const COLUMN_OUT: [u32; 32] = {
    let mut t = [BAND; 32];
    let mut i = 0;
    while i < 27 {
        t[i] = !column(i % 9);
        i += 1;
    }
    t
};

/// For a band's column fold (bit c: the digit is somewhere in column c
/// of the band): per box, the column bit when it is the box's only one.
/// [`NO_BOX`] when some box has no column at all.
const LONE_IN_BOX: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut v = 0;
    while v < 512 {
        let mut x = 0;
        while x < 3 {
            let seg = (v >> (3 * x)) & 7;
            if seg == 0 {
                t[v] = NO_BOX;
                break;
            }
            if seg & (seg - 1) == 0 {
                t[v] |= (seg << (3 * x)) as u16;
            }
            x += 1;
        }
        v += 1;
    }
    t
};

/// For 8 bits: a u64 whose byte k is bit k (also the solver's grid writer).
pub(super) const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut k = 0;
        while k < 8 {
            t[x] |= ((x as u64 >> k) & 1) << (8 * k);
            k += 1;
        }
        x += 1;
    }
    t
};

/// Marks a fold with an empty box; no real fold has bit 15.
const NO_BOX: u16 = 1 << 15;

/// Bit 0 of each row of a band word.
const ROW_LOW: u32 = 1 | 1 << 9 | 1 << 18;
/// Bit 8 of each row of a band word.
const ROW_HIGH: u32 = ROW_LOW << 8;
/// Bits 0-7 of each row of a band word.
const ROW_REST: u32 = BAND & !ROW_HIGH;

/// Bit 8 of each row of `w` that is not empty: the low eight bits of a
/// row plus 255 carry into bit 8 when any is set, and never further.
#[inline(always)]
const fn rows_nonempty(w: u32) -> u32 {
    (((w & ROW_REST) + ROW_REST) | w) & ROW_HIGH
}

/// The rows of `w` that hold one position, all three at once: a row
/// minus one shares a bit with the row only when it has two or more. A
/// row of `w` must not be empty (its borrow would spoil the next row);
/// callers check that first and discard the result.
#[inline(always)]
pub(super) const fn rows_single(w: u32) -> u32 {
    let many = rows_nonempty(w & w.wrapping_sub(ROW_LOW));
    w & !((many >> 8) * 0x1ff)
}

/// The row itself when it holds exactly one position (or none), else 0.
/// (The one-row form the three-row helpers are tested against.)
#[cfg(test)]
const fn row_single(row: u32) -> u32 {
    if row & row.wrapping_sub(1) == 0 {
        row
    } else {
        0
    }
}

/// The cube as nine digit planes: `0[d][b]` holds where digit `d + 1` may
/// still go in band `b` (rows `3b..3b+3`), bit `9*row + col` of the band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Planes(pub(super) [[u32; 3]; 9]);

impl Planes {
    /// The planes of full candidate sets (an empty mask is a dead cell).
    pub(super) fn from_masks(cands: &[Mask; CELLS]) -> Planes {
        Self::from_cells::<false>(cands)
    }

    /// The planes of a board's candidates ("no information" is all nine).
    pub(super) fn from_board(board: &Board) -> Planes {
        Self::from_cells::<true>(board.masks())
    }

    fn from_cells<const EMPTY_IS_OPEN: bool>(cells: &[Mask; CELLS]) -> Planes {
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
    pub(super) fn masks(&self) -> [Mask; CELLS] {
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
    pub(super) fn solved(&self) -> Option<[u8; CELLS]> {
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
    fn deduce(&mut self, done: &mut [u32; 3]) -> Option<bool> {
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
    fn place<const B: usize>(&mut self, d: usize, mut at: u32) {
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
    fn place_in(&mut self, d: usize, b: usize, at: u32) {
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
    fn hidden_singles(plane: &[u32; 3]) -> ([u32; 3], bool) {
        hidden_singles(plane)
    }
}

/// [`Planes::hidden_singles`]: the three bands in SSE2 lanes on x86_64,
/// where the scalar form is most of a kaggle puzzle's fixpoint.
#[inline(always)]
fn hidden_singles(plane: &[u32; 3]) -> ([u32; 3], bool) {
    #[cfg(x86_64_kernels)]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
        // is always present.
        unsafe { hidden_singles_sse2(plane) }
    }
    #[cfg(not(x86_64_kernels))]
    {
        hidden_singles_portable(plane)
    }
}

#[cfg(x86_64_kernels)]
#[inline]
#[target_feature(enable = "sse2")]
fn hidden_singles_sse2(plane: &[u32; 3]) -> ([u32; 3], bool) {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi32,
        _mm_movemask_epi8, _mm_or_si128, _mm_set_epi32, _mm_set1_epi32, _mm_shuffle_epi32,
        _mm_slli_epi32, _mm_srli_epi32, _mm_sub_epi32,
    };
    let k = |x: u32| _mm_set1_epi32(x as i32);
    let (and, or, andnot) = (_mm_and_si128, _mm_or_si128, _mm_andnot_si128);
    let w = _mm_set_epi32(0, plane[2] as i32, plane[1] as i32, plane[0] as i32);
    // rows_nonempty, rows_single and the spread of a row's bit 8 to the
    // whole row (h - h/256 fills bits 0-7 without a multiplication).
    let nonempty = |w: __m128i| {
        and(
            or(_mm_add_epi32(and(w, k(ROW_REST)), k(ROW_REST)), w),
            k(ROW_HIGH),
        )
    };
    let spread = |h: __m128i| or(h, _mm_sub_epi32(h, _mm_srli_epi32::<8>(h)));
    let many_rows = nonempty(and(w, _mm_sub_epi32(w, k(ROW_LOW))));
    let rows = andnot(spread(many_rows), w);
    let r0 = and(w, k(0x1ff));
    let r1 = and(_mm_srli_epi32::<9>(w), k(0x1ff));
    let r2 = _mm_srli_epi32::<18>(w);
    let once = or(or(r0, r1), r2);
    let twice = or(and(r0, r1), and(or(r0, r1), r2));
    // The other two bands' folds in each band's lane.
    let o1 = _mm_shuffle_epi32::<0b11_00_10_01>(once);
    let o2 = _mm_shuffle_epi32::<0b11_01_00_10>(once);
    let t1 = _mm_shuffle_epi32::<0b11_00_10_01>(twice);
    let t2 = _mm_shuffle_epi32::<0b11_01_00_10>(twice);
    let all = or(or(once, o1), o2);
    let many = or(
        or(or(twice, t1), t2),
        or(and(once, o1), and(or(once, o1), o2)),
    );
    let columns = andnot(many, all);
    // Per box (three-bit segment of a fold): the bit when it is the only
    // one, and whether the segment is empty.
    let near = or(
        or(
            and(_mm_srli_epi32::<1>(once), k(0o333)),
            and(_mm_slli_epi32::<1>(once), k(0o666)),
        ),
        or(
            and(_mm_srli_epi32::<2>(once), k(0o111)),
            and(_mm_slli_epi32::<2>(once), k(0o444)),
        ),
    );
    let lone = andnot(near, once);
    let boxes_seen = and(
        or(
            or(once, _mm_srli_epi32::<1>(once)),
            _mm_srli_epi32::<2>(once),
        ),
        k(0o111),
    );
    let boxes = andnot(twice, lone);
    let keep = or(columns, boxes);
    let keep = or(
        or(keep, _mm_slli_epi32::<9>(keep)),
        _mm_slli_epi32::<18>(keep),
    );
    let out = or(rows, and(w, keep));
    let fine = and(
        and(
            _mm_cmpeq_epi32(nonempty(w), k(ROW_HIGH)),
            _mm_cmpeq_epi32(all, k(0x1ff)),
        ),
        _mm_cmpeq_epi32(boxes_seen, k(0o111)),
    );
    let dead = _mm_movemask_epi8(fine) & 0xfff != 0xfff;
    (bands(out), dead)
}

/// [`hidden_singles`] for any target (with `x86_64_kernels`, see build.rs, only the tests use it).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
#[inline(always)]
fn hidden_singles_portable(plane: &[u32; 3]) -> ([u32; 3], bool) {
    // Fold each band's three rows into which columns hold the digit
    // once or more (`once`) and twice or more (`twice`): a box is a
    // three-column segment of that fold, a column spans the three folds.
    let mut once = [0u32; 3];
    let mut twice = [0u32; 3];
    let mut rows = [0u32; 3];
    let mut dead = false;
    for b in 0..3 {
        let w = plane[b];
        let (r0, r1, r2) = (w & 0x1ff, (w >> 9) & 0x1ff, w >> 18);
        dead |= rows_nonempty(w) != ROW_HIGH;
        once[b] = r0 | r1 | r2;
        twice[b] = (r0 & r1) | ((r0 | r1) & r2);
        rows[b] = rows_single(w);
    }
    let [o0, o1, o2] = once;
    let all = o0 | o1 | o2;
    let many = twice[0] | twice[1] | twice[2] | (o0 & o1) | ((o0 | o1) & o2);
    dead |= all != 0x1ff;
    let columns = all & !many;
    let mut out = [0u32; 3];
    for b in 0..3 {
        let lone = LONE_IN_BOX[once[b] as usize];
        dead |= lone == NO_BOX;
        // The sentinel bit is dropped: on a dead board `out` is unused,
        // but must not overflow the multiplication below.
        let boxes = u32::from(lone) & !twice[b] & 0x1ff;
        out[b] = rows[b] | plane[b] & ((columns | boxes) * (1 | 1 << 9 | 1 << 18));
    }
    (out, dead)
}

impl Planes {
    /// Runs deduce and eliminate to the fixpoint; false on a contradiction
    /// (the planes are then meaningless).
    pub(super) fn fixpoint(&mut self) -> bool {
        self.fixpoint_from([0; 3])
    }

    /// [`Self::fixpoint`] when the cells of `done` (per band) already hold
    /// one digit that has cleared its peers, as [`Legacy::read`] leaves them.
    pub(super) fn fixpoint_from(&mut self, mut done: [u32; 3]) -> bool {
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

/// Per band, the cells with at least one and at least two candidates.
/// Counted for the three bands at once in SSE2 lanes (the compiler leaves
/// the portable loop scalar): a deduce round runs it once.
#[inline(always)]
fn once_twice(planes: &[[u32; 3]; 9]) -> ([u32; 3], [u32; 3]) {
    #[cfg(x86_64_kernels)]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
        // is always present.
        unsafe { once_twice_sse2(planes) }
    }
    #[cfg(not(x86_64_kernels))]
    {
        once_twice_portable(planes)
    }
}

#[cfg(x86_64_kernels)]
#[inline]
#[target_feature(enable = "sse2")]
fn once_twice_sse2(planes: &[[u32; 3]; 9]) -> ([u32; 3], [u32; 3]) {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cvtsi128_si32, _mm_or_si128, _mm_setzero_si128,
        _mm_shuffle_epi32, _mm_srli_si128,
    };
    let words = planes.as_flattened();
    // Words k..k+4 as one register (the fourth of no interest).
    let load = |k: usize| load_words(words, k);
    let (mut once, mut twice) = (_mm_setzero_si128(), _mm_setzero_si128());
    for d in 0..9 {
        // The last plane ends the array: its load starts one word early
        // and drops that word.
        let x = if d < 8 {
            load(3 * d)
        } else {
            _mm_srli_si128::<4>(load(23))
        };
        twice = _mm_or_si128(twice, _mm_and_si128(once, x));
        once = _mm_or_si128(once, x);
    }
    let lanes = |v: __m128i| {
        [
            _mm_cvtsi128_si32(v) as u32,
            _mm_cvtsi128_si32(_mm_shuffle_epi32::<1>(v)) as u32,
            _mm_cvtsi128_si32(_mm_shuffle_epi32::<2>(v)) as u32,
        ]
    };
    (lanes(once), lanes(twice))
}

/// [`once_twice`] for any target (with `x86_64_kernels`, see build.rs, only the tests use it).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
#[inline(always)]
fn once_twice_portable(planes: &[[u32; 3]; 9]) -> ([u32; 3], [u32; 3]) {
    let (mut once, mut twice) = ([0u32; 3], [0u32; 3]);
    for plane in planes {
        for b in 0..3 {
            twice[b] |= once[b] & plane[b];
            once[b] |= plane[b];
        }
    }
    (once, twice)
}

/// A legacy string read in one pass straight into what `analyse` needs:
/// the planes with every given already placed (the state the first deduce
/// round of [`Planes::fixpoint`] would reach from the parsed board), the
/// normalised givens and their flags.
pub(super) struct Legacy {
    pub(super) planes: Planes,
    /// Per band, the given cells: deduce has nothing left to do for them.
    pub(super) placed: [u32; 3],
    /// The string with `.` written `0`: the analysis's `givens`.
    pub(super) digits: [u8; CELLS],
    pub(super) given: [bool; CELLS],
    pub(super) clues: u32,
}

impl Legacy {
    /// `None` when the string would be rejected: a character other than
    /// `0`-`9` or `.`, or a digit given twice in a row, column or box. The
    /// detailed parse and `validate` then name the error; this pass only
    /// has to agree with them on which strings they accept.
    pub(super) fn read(s: &[u8; CELLS]) -> Option<Legacy> {
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
    fn band<const B: usize>(
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

/// A legacy line sorted out cell by cell.
#[derive(Debug, PartialEq, Eq)]
struct Scan {
    /// The line with `.` written `0`.
    digits: [u8; CELLS],
    /// The cells holding `1`-`9`.
    given: [bool; CELLS],
    /// The same, as band words.
    placed: [u32; 3],
}

/// The line's cells, `None` when a byte is none of `0`-`9` and `.`.
/// SSE2 sorts sixteen bytes at once.
#[inline(always)]
fn scan(s: &[u8; CELLS]) -> Option<Scan> {
    #[cfg(x86_64_kernels)]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
        // is always present.
        unsafe { scan_sse2(s) }
    }
    #[cfg(not(x86_64_kernels))]
    {
        scan_portable(s)
    }
}

#[cfg(x86_64_kernels)]
#[inline]
#[target_feature(enable = "sse2")]
fn scan_sse2(s: &[u8; CELLS]) -> Option<Scan> {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_storeu_si128, _mm_sub_epi8,
    };
    let mut digits = [0u8; CELLS];
    let mut given = [0u8; CELLS];
    // Cells 0-63 and 64-79 as bits.
    let (mut low, mut high) = (0u64, 0u64);
    let mut ok = 0xffff;
    for c in 0..5 {
        let range = 16 * c..16 * c + 16;
        let v = load_bytes(s, 16 * c);
        // A byte is in a range when its offset from the start, unsigned,
        // is not above the range's width.
        let in_range = |from: u8, width: u8| {
            let x = _mm_sub_epi8(v, _mm_set1_epi8(from as i8));
            _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(width as i8)), x)
        };
        let dot = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'.' as i8));
        let digit = in_range(b'1', 8);
        ok &= _mm_movemask_epi8(_mm_or_si128(in_range(b'0', 9), dot));
        let bits = u64::from(_mm_movemask_epi8(digit) as u16);
        if c < 4 {
            low |= bits << (16 * c);
        } else {
            high = bits;
        }
        let out = &mut digits[range.clone()];
        let written = _mm_add_epi8(v, _mm_and_si128(dot, _mm_set1_epi8(2)));
        // SAFETY: the slice holds 16 bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), written) };
        let flags = &mut given[range];
        let ones = _mm_and_si128(digit, _mm_set1_epi8(1));
        // SAFETY: as above.
        unsafe { _mm_storeu_si128(flags.as_mut_ptr().cast::<__m128i>(), ones) };
    }
    let last = s[80];
    let lone = match last {
        b'1'..=b'9' => 1u64,
        b'0' | b'.' => 0,
        _ => return None,
    };
    if ok != 0xffff {
        return None;
    }
    digits[80] = if last == b'.' { b'0' } else { last };
    given[80] = lone as u8;
    high |= lone << 16;
    Some(Scan {
        digits,
        given: given.map(|g| g != 0),
        placed: [
            low as u32 & BAND,
            (low >> 27) as u32 & BAND,
            (low >> 54 | high << 10) as u32 & BAND,
        ],
    })
}

/// [`scan`] for any target (with `x86_64_kernels`, see build.rs, only the tests use it).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
#[inline(always)]
fn scan_portable(s: &[u8; CELLS]) -> Option<Scan> {
    let mut out = Scan {
        digits: [0; CELLS],
        given: [false; CELLS],
        placed: [0; 3],
    };
    for (i, &c) in s.iter().enumerate() {
        match c {
            b'1'..=b'9' => {
                out.digits[i] = c;
                out.given[i] = true;
                out.placed[i / 27 % 3] |= 1 << (i % 27);
            }
            b'0' | b'.' => out.digits[i] = b'0',
            _ => return None,
        }
    }
    Some(out)
}

/// The rules applied in the order docs/formats.md gives them; slow, but its
/// first contradiction is the one reported.
fn reference(cands: &mut [Mask; CELLS]) -> Result<(), Contradiction> {
    // A placed cell clears its peers once; masks only shrink, so once is enough.
    let mut cleared = [false; CELLS];
    loop {
        let mut changed = false;
        for cell in Cell::all() {
            let i = cell.index();
            match cands[i].remaining() {
                Remaining::None => return Err(Contradiction::Cell(cell)),
                Remaining::One(d) if !cleared[i] => {
                    cleared[i] = true;
                    changed |= deduce(cands, cell, d)?;
                }
                _ => {}
            }
        }
        for (k, unit) in UNITS.iter().enumerate() {
            for digit in Digit::all() {
                changed |= eliminate(cands, unit, digit).map_err(|()| Contradiction::Digit {
                    digit,
                    unit: Unit::from_index(k),
                })?;
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// Removes a placed digit from its peers; true when anything changed.
fn deduce(cands: &mut [Mask; CELLS], cell: Cell, d: Digit) -> Result<bool, Contradiction> {
    let mut changed = false;
    for &p in &PEERS[cell.index()] {
        let p = usize::from(p);
        if cands[p].contains(d) {
            cands[p] = cands[p].without(d);
            changed = true;
            if cands[p].is_empty() {
                return Err(Contradiction::Cell(Cell::new(p).unwrap_or(cell)));
            }
        }
    }
    Ok(changed)
}

/// Places `d` where it has a single position left in `unit`; `Err` when it has none.
fn eliminate(cands: &mut [Mask; CELLS], unit: &[u8; 9], d: Digit) -> Result<bool, ()> {
    let mut at = None;
    for &c in unit {
        if cands[usize::from(c)].contains(d) {
            if at.is_some() {
                return Ok(false);
            }
            at = Some(usize::from(c));
        }
    }
    let i = at.ok_or(())?;
    let placed = d.mask();
    let changed = cands[i] != placed;
    cands[i] = placed;
    Ok(changed)
}

/// The grid of digit planes holding one candidate per cell, eight cells
/// per step: each digit's bits are spread into bytes, so there is no
/// branch per cell.
pub(super) fn grid_of(f: &[[u32; 3]; 9]) -> [u8; CELLS] {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_row_helpers_agree_with_one_row_at_a_time() {
        let rows = [1u32, 2, 3, 0x100, 0x101, 0x1ff, 0x180, 0x40];
        for &r0 in &rows {
            for &r1 in &rows {
                for &r2 in &rows {
                    let w = r0 | r1 << 9 | r2 << 18;
                    let one = row_single(r0) | row_single(r1) << 9 | row_single(r2) << 18;
                    assert_eq!(rows_single(w), one, "{w:#x}");
                    assert_eq!(rows_nonempty(w), ROW_HIGH, "{w:#x}");
                }
            }
        }
        assert_eq!(rows_nonempty(0x1ff << 9), 1 << 17);
    }
    use crate::core::sudoku::corpus::{XWING_162, puzzles};
    use crate::core::sudoku::{count_solutions, parse_legacy, parse_packed};
    use proptest::prelude::*;

    fn propagated(p: &str) -> Result<[Mask; CELLS], Contradiction> {
        let mut cands = parse_legacy(p).unwrap().all_candidates();
        propagate(&mut cands).map(|()| cands)
    }

    fn keeps_solution(cands: &[Mask; CELLS], solution: &[u8]) -> bool {
        cands
            .iter()
            .zip(solution)
            .all(|(m, &s)| Digit::from_ascii(s).is_some_and(|d| m.contains(d)))
    }

    #[test]
    fn propagation_never_removes_the_solution_digit_of_emerentius_puzzles() {
        let pairs = [
            (
                include_str!("../../../tests/data/classic/emerentius_easy.txt"),
                include_str!("../../../tests/data/classic/emerentius_easy_solutions.txt"),
            ),
            (
                include_str!("../../../tests/data/classic/emerentius_hard.txt"),
                include_str!("../../../tests/data/classic/emerentius_hard_solutions.txt"),
            ),
        ];
        for (ps, ss) in pairs {
            for ((p, _), (s, _)) in puzzles(ps).zip(puzzles(ss)) {
                let cands = propagated(p).unwrap();
                assert!(keeps_solution(&cands, s.as_bytes()), "{p}");
            }
        }
    }

    #[test]
    fn propagation_never_removes_the_solution_digit_of_top1465_puzzles() {
        for (p, _) in puzzles(include_str!("../../../tests/data/classic/top1465.txt")).step_by(7) {
            let board = parse_legacy(p).unwrap();
            let solution = count_solutions(&board.givens(), 2)
                .first
                .unwrap()
                .map(|d| b'0' + d);
            assert!(keeps_solution(&propagated(p).unwrap(), &solution), "{p}");
        }
    }

    #[test]
    fn singles_alone_solve_an_easy_puzzle() {
        let p = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let s = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
        let cands = propagated(p).unwrap();
        assert!(
            cands
                .iter()
                .zip(s.bytes())
                .all(|(m, c)| m.single().map(Digit::to_ascii) == Some(c))
        );
    }

    #[test]
    fn propagation_only_narrows_a_packed_state_and_is_idempotent() {
        let board = parse_packed(XWING_162).unwrap();
        let mut once = board.all_candidates();
        propagate(&mut once).unwrap();
        assert!(Cell::all().all(|c| once[c.index()].minus(board.candidates(c)).is_empty()));
        let mut twice = once;
        propagate(&mut twice).unwrap();
        assert_eq!(once, twice);
    }

    #[test]
    fn contradictions_name_the_empty_line() {
        let cases = [
            // r1c9 sees 1-7 in its row and 8, 9 in its column.
            (
                format!(
                    "1234567..{}8{}9{}",
                    ".".repeat(26),
                    ".".repeat(8),
                    ".".repeat(36)
                ),
                "cell 8 (r1c9) has no candidate left",
            ),
            // 5s in r1c4 and r2c7 shut row 3 out of boxes 2 and 3; r3c1-3 are full.
            (
                format!("...5.....{}5..123......{}", ".".repeat(6), ".".repeat(54)),
                "digit 5 has no place left in row 3",
            ),
        ];
        for (p, message) in cases {
            assert_eq!(
                propagated(&p).map(|_| ()).unwrap_err().to_string(),
                message,
                "{p}"
            );
        }
        let boxed = Contradiction::Digit {
            digit: Digit::new(4).unwrap(),
            unit: Unit::Box(6),
        };
        assert_eq!(boxed.to_string(), "digit 4 has no place left in box 7");
    }

    #[test]
    fn the_annotated_unsolvable_puzzles_end_in_a_contradiction_or_no_solution() {
        for (p, note) in puzzles(include_str!(
            "../../../tests/data/classic/emerentius_invalid_annotated.txt"
        )) {
            if note.starts_with("unsolvable") {
                let board = parse_legacy(p).unwrap();
                let dead = propagated(p).is_err() || count_solutions(&board.givens(), 2).count == 0;
                assert!(dead, "{p} {note}");
            }
        }
    }

    /// The first emerentius easy solution, for the property below.
    const SOLUTION: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    /// Runs both passes on the same start; they must agree on whether there
    /// is a contradiction and, when there is none, on the fixpoint.
    fn fast_matches_reference(start: [Mask; CELLS]) -> bool {
        let mut slow = start;
        let slow_ok = reference(&mut slow).is_ok();
        let mut planes = Planes::from_masks(&start);
        let fast_ok = planes.fixpoint();
        fast_ok == slow_ok && (!fast_ok || planes.masks() == slow)
    }

    #[test]
    fn the_fast_pass_reaches_the_reference_fixpoint_on_real_corpora() {
        let files = [
            include_str!("../../../tests/data/classic/top1465.txt"),
            include_str!("../../../tests/data/classic/17clue_royle_first2000.txt"),
            include_str!("../../../tests/data/classic/forum_hardest_1106.txt"),
            include_str!("../../../tests/data/classic/emerentius_invalid_annotated.txt"),
            include_str!("../../../tests/data/classic/serg_benchmark_multisolution.txt"),
        ];
        for text in files {
            for (p, _) in puzzles(text) {
                let Ok(board) = parse_legacy(p) else { continue };
                assert!(fast_matches_reference(board.all_candidates()), "{p}");
            }
        }
    }

    proptest! {
        #[test]
        fn the_line_scan_agrees_with_the_portable_loop(
            line in proptest::collection::vec(
                prop_oneof![8 => b'0'..=b'9', 1 => Just(b'.'), 1 => any::<u8>()],
                CELLS
            )
        ) {
            let s: [u8; CELLS] = std::array::from_fn(|i| line[i]);
            prop_assert_eq!(scan(&s), scan_portable(&s));
        }

        #[test]
        fn the_hidden_singles_agree_with_the_portable_form(
            words in proptest::collection::vec(0u32..=BAND, 3),
            sparse in proptest::collection::vec(0u32..=BAND, 6)
        ) {
            // Random words are nearly always full in every unit; ANDing
            // more in leaves units with one or no position.
            let plane = [
                words[0] & sparse[0] & sparse[1],
                words[1] & sparse[2] & sparse[3],
                words[2] & sparse[4] & sparse[5],
            ];
            let (fast, dead) = hidden_singles(&plane);
            let (slow, slow_dead) = hidden_singles_portable(&plane);
            prop_assert_eq!(dead, slow_dead);
            // On a dead plane the cells are meaningless.
            prop_assert!(dead || fast == slow, "{:?}", plane);
        }

        #[test]
        fn the_hidden_singles_agree_on_live_planes(
            cols in proptest::collection::vec(proptest::sample::subsequence((0..9).collect::<Vec<u32>>(), 1..4), 9)
        ) {
            // Each row a few columns: live or nearly live planes.
            let mut plane = [0u32; 3];
            for (r, cs) in cols.iter().enumerate() {
                for &c in cs {
                    plane[r / 3] |= 1 << (9 * (r % 3) + c as usize);
                }
            }
            let (fast, dead) = hidden_singles(&plane);
            let (slow, slow_dead) = hidden_singles_portable(&plane);
            prop_assert_eq!(dead, slow_dead);
            prop_assert!(dead || fast == slow, "{:?}", plane);
        }

        #[test]
        fn the_band_counts_agree_with_the_portable_loop(
            words in proptest::collection::vec(0u32..=BAND, 27)
        ) {
            let planes: [[u32; 3]; 9] = std::array::from_fn(|d| [words[3 * d], words[3 * d + 1], words[3 * d + 2]]);
            prop_assert_eq!(once_twice(&planes), once_twice_portable(&planes));
        }
    }

    proptest! {
        #[test]
        fn the_fast_pass_reaches_the_reference_fixpoint_on_random_boards(
            cells in proptest::collection::vec(0u16..10, CELLS),
            noise in proptest::collection::vec(0u16..0x200, CELLS)
        ) {
            // Random givens (often contradictory) and random candidate sets.
            let start: [Mask; CELLS] = std::array::from_fn(|i| match cells[i] {
                0 => Mask::from_bits_truncate(noise[i] | 0x100),
                d => Mask::from_bits_truncate(1 << (d - 1)),
            });
            prop_assert!(fast_matches_reference(start));
        }

        #[test]
        fn the_fast_pass_reaches_the_reference_fixpoint_on_solvable_boards(
            keep in proptest::collection::vec(0u8..4, CELLS),
            noise in proptest::collection::vec(0u16..0x200, CELLS)
        ) {
            // Givens from one solution (a quarter of the cells), random
            // candidate sets that keep the solution's digit elsewhere:
            // long chains of singles, no contradiction.
            let start: [Mask; CELLS] = std::array::from_fn(|i| {
                let d = Digit::from_ascii(SOLUTION.as_bytes()[i]).map_or(Mask::ALL, Digit::mask);
                match keep[i] {
                    0 => d,
                    1 => d.union(Mask::from_bits_truncate(noise[i])),
                    _ => Mask::ALL,
                }
            });
            prop_assert!(fast_matches_reference(start));
        }

        #[test]
        fn propagation_keeps_the_solution_digit_for_any_subset_of_givens(
            keep in proptest::collection::vec(any::<bool>(), CELLS)
        ) {
            let p: String = SOLUTION.chars().zip(&keep).map(|(c, &k)| if k { c } else { '0' }).collect();
            let cands = propagated(&p).unwrap();
            prop_assert!(keeps_solution(&cands, SOLUTION.as_bytes()));
        }
    }
}
