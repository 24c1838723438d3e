//! The portable kernels, for every target but x86_64 and for x86_64 with
//! the `portable` feature: plain loops, the specification the SSE2 twins
//! in `sse2.rs` are tested against.

use super::super::tables::*;
use super::Scan;
use crate::core::grid::CELLS;

/// [`super::hidden_singles`] for any target.
#[inline(always)]
pub(in crate::core::sudoku) fn hidden_singles(plane: &[u32; 3]) -> ([u32; 3], bool) {
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

/// [`super::once_twice`] for any target.
#[inline(always)]
pub(in crate::core::sudoku) fn once_twice(planes: &[[u32; 3]; 9]) -> ([u32; 3], [u32; 3]) {
    let (mut once, mut twice) = ([0u32; 3], [0u32; 3]);
    for plane in planes {
        for b in 0..3 {
            twice[b] |= once[b] & plane[b];
            once[b] |= plane[b];
        }
    }
    (once, twice)
}

/// [`super::scan`] for any target.
#[inline(always)]
pub(in crate::core::sudoku) fn scan(s: &[u8; CELLS]) -> Option<Scan> {
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

/// [`super::given_words`] for any target.
#[inline(always)]
pub(in crate::core::sudoku) fn given_words(givens: &[u8; CELLS]) -> [[u32; 3]; 9] {
    // Slot 0 collects the empty cells, without a branch per cell.
    let mut at = [[0u32; 3]; 10];
    for (band, gs) in givens.chunks_exact(27).enumerate() {
        for (i, &g) in gs.iter().enumerate() {
            let slot = if g <= 9 { usize::from(g) } else { 0 };
            at[slot][band % 3] |= 1 << i;
        }
    }
    std::array::from_fn(|d| at[d + 1])
}

/// [`super::changed_words`] for any target.
#[inline(always)]
pub(in crate::core::sudoku) fn changed_words(f: &[u32; 32], seen: &[u32; 32]) -> u32 {
    let mut m = 0;
    for (k, (f, seen)) in f.iter().zip(seen).take(27).enumerate() {
        m |= u32::from(f != seen) << k;
    }
    m
}

/// [`super::candidate_counts`] for any target.
#[inline(always)]
pub(in crate::core::sudoku) fn candidate_counts(f: &[u32; 32]) -> [[u32; 3]; 3] {
    let (mut r1, mut r2, mut r3) = ([0u32; 3], [0u32; 3], [0u32; 3]);
    for d in 0..9 {
        for b in 0..3 {
            let x = f[3 * d + b];
            r3[b] |= r2[b] & x;
            r2[b] |= r1[b] & x;
            r1[b] |= x;
        }
    }
    [r1, r2, r3]
}

/// [`super::claim_columns`] for any target.
#[inline(always)]
pub(in crate::core::sudoku) fn claim_columns(f: &mut [u32; 32], mut words: u32) -> Option<bool> {
    let (mut changed, mut covered) = (0, 0x1ff);
    while words != 0 {
        // k / 3 for k < 27, without a division.
        let d = ((words.trailing_zeros() * 11) >> 5) as usize;
        words &= !(7 << (3 * d));
        let at = (3 * d) & 31;
        let fd = [f[at], f[(at + 1) & 31], f[(at + 2) & 31]];
        let c0 = (fd[0] | fd[0] >> 9 | fd[0] >> 18) & 0x1ff;
        let c1 = (fd[1] | fd[1] >> 9 | fd[1] >> 18) & 0x1ff;
        let c2 = (fd[2] | fd[2] >> 9 | fd[2] >> 18) & 0x1ff;
        // One test for all digits: a contradiction is rare.
        covered &= c0 | c1 | c2;
        // A column in one band only is in none of the pairwise overlaps.
        let shared = c0 & c1 | c0 & c2 | c1 & c2;
        let w0 = fd[0] & CLAIMED[(c0 & !shared) as usize];
        let w1 = fd[1] & CLAIMED[(c1 & !shared) as usize];
        let w2 = fd[2] & CLAIMED[(c2 & !shared) as usize];
        changed |= (w0 ^ fd[0]) | (w1 ^ fd[1]) | (w2 ^ fd[2]);
        f[at] = w0;
        f[(at + 1) & 31] = w1;
        f[(at + 2) & 31] = w2;
    }
    if covered != 0x1ff {
        return None;
    }
    Some(changed != 0)
}
