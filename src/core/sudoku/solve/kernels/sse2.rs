//! The SSE2 kernels (x86_64, where SSE2 is part of every CPU): each one the
//! twin of the function of the same name in `portable.rs`, which the tests
//! hold it to. Unsafe only in calling the `target_feature` bodies and in
//! their unaligned 16-byte loads and stores of in-bounds slices (the
//! engine's one other unsafe call is the popcnt scorer in `state.rs`,
//! chosen at run time once the CPU is seen to have it).

use std::arch::x86_64::{__m128i, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_shuffle_epi32};

use super::super::tables::*;
use super::Scan;
use crate::core::grid::CELLS;

/// Words `k..k + 4` of `w` in one register (panics past the end, like
/// indexing).
#[inline]
#[target_feature(enable = "sse2")]
fn load_words(w: &[u32], k: usize) -> __m128i {
    let w = &w[k..k + 4];
    // SAFETY: the slice holds four u32s, 16 bytes; the load is unaligned.
    unsafe { _mm_loadu_si128(w.as_ptr().cast()) }
}

/// Bytes `k..k + 16` of `b` in one register (panics past the end, like
/// indexing).
#[inline]
#[target_feature(enable = "sse2")]
fn load_bytes(b: &[u8], k: usize) -> __m128i {
    let b = &b[k..k + 16];
    // SAFETY: the slice holds 16 bytes; the load is unaligned.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// Lanes 0-2 of `v`, one per band.
#[inline]
#[target_feature(enable = "sse2")]
fn bands(v: __m128i) -> [u32; 3] {
    [
        _mm_cvtsi128_si32(v) as u32,
        _mm_cvtsi128_si32(_mm_shuffle_epi32::<1>(v)) as u32,
        _mm_cvtsi128_si32(_mm_shuffle_epi32::<2>(v)) as u32,
    ]
}

/// [`Planes::hidden_singles`]: the three bands in SSE2 lanes on x86_64,
/// where the scalar form is most of a kaggle puzzle's fixpoint.
#[inline(always)]
pub(in crate::core::sudoku) fn hidden_singles(plane: &[u32; 3]) -> ([u32; 3], bool) {
    // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
    // is always present.
    unsafe { hidden_singles_sse2(plane) }
}

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

/// Per band, the cells with at least one and at least two candidates.
/// Counted for the three bands at once in SSE2 lanes (the compiler leaves
/// the portable loop scalar): a deduce round runs it once.
#[inline(always)]
pub(in crate::core::sudoku) fn once_twice(planes: &[[u32; 3]; 9]) -> ([u32; 3], [u32; 3]) {
    // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
    // is always present.
    unsafe { once_twice_sse2(planes) }
}

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

/// The line's cells, `None` when a byte is none of `0`-`9` and `.`.
/// SSE2 sorts sixteen bytes at once.
#[inline(always)]
pub(in crate::core::sudoku) fn scan(s: &[u8; CELLS]) -> Option<Scan> {
    // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
    // is always present.
    unsafe { scan_sse2(s) }
}

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

/// Where each digit is given, as band words: `[d][b]` for digit d+1. On
/// easy puzzles this setup is a large share of the whole solve, so SSE2
/// compares sixteen givens with a digit at once.
#[inline(always)]
pub(in crate::core::sudoku) fn given_words(givens: &[u8; CELLS]) -> [[u32; 3]; 9] {
    // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
    // is always present.
    unsafe { given_words_sse2(givens) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn given_words_sse2(givens: &[u8; CELLS]) -> [[u32; 3]; 9] {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
    // Cells 0-79 in five registers; cell 80 on its own.
    let chunks: [__m128i; 5] = std::array::from_fn(|c| load_bytes(givens, 16 * c));
    let mut at = [[0u32; 3]; 9];
    for (d, word) in at.iter_mut().enumerate() {
        let digit = _mm_set1_epi8(d as i8 + 1);
        let cells =
            |c: usize| u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(chunks[c], digit)) as u16);
        let low = cells(0) | cells(1) << 16 | cells(2) << 32 | cells(3) << 48;
        let high = cells(4) | u64::from(givens[80] == d as u8 + 1) << 16;
        *word = [
            low as u32 & BAND,
            (low >> 27) as u32 & BAND,
            (low >> 54 | high << 10) as u32 & BAND,
        ];
    }
    at
}

/// The words of `f` that differ from `seen`, bit `3 * digit + band`. This
/// runs half a dozen times per node; SSE2 compares four words at once and
/// one byte mask gathers sixteen results (about 30 instructions; the
/// compiler's own version of the portable loop takes about 60).
#[inline(always)]
pub(in crate::core::sudoku) fn changed_words(f: &[u32; 32], seen: &[u32; 32]) -> u32 {
    // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
    // is always present.
    unsafe { changed_words_sse2(f, seen) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn changed_words_sse2(f: &[u32; 32], seen: &[u32; 32]) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_epi32, _mm_movemask_epi8, _mm_packs_epi16, _mm_packs_epi32};
    // Words k..k+4 of both, compared: all ones where equal.
    let eq = |k: usize| _mm_cmpeq_epi32(load_words(f, k), load_words(seen, k));
    // Words 0-15, then 16-27 (27 is padding, the same in both).
    let low = _mm_packs_epi16(
        _mm_packs_epi32(eq(0), eq(4)),
        _mm_packs_epi32(eq(8), eq(12)),
    );
    let last = eq(24);
    let high = _mm_packs_epi16(_mm_packs_epi32(eq(16), eq(20)), _mm_packs_epi32(last, last));
    let low = _mm_movemask_epi8(low) as u32 & 0xffff;
    let high = _mm_movemask_epi8(high) as u32;
    !(low | high << 16) & ALL_WORDS
}

/// Per band, the cells with at least one, two and three candidates.
/// Counted for the three bands at once in SSE2 lanes (the compiler leaves
/// the portable loop scalar): a naked-singles pass runs once or twice per
/// node.
#[inline(always)]
pub(in crate::core::sudoku) fn candidate_counts(f: &[u32; 32]) -> [[u32; 3]; 3] {
    // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
    // is always present.
    unsafe { candidate_counts_sse2(f) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn candidate_counts_sse2(f: &[u32; 32]) -> [[u32; 3]; 3] {
    use std::arch::x86_64::{_mm_and_si128, _mm_or_si128, _mm_setzero_si128};
    let (mut r1, mut r2, mut r3) = (
        _mm_setzero_si128(),
        _mm_setzero_si128(),
        _mm_setzero_si128(),
    );
    for d in 0..9 {
        // A digit's three bands and one word of no interest.
        let x = load_words(f, 3 * d);
        r3 = _mm_or_si128(r3, _mm_and_si128(r2, x));
        r2 = _mm_or_si128(r2, _mm_and_si128(r1, x));
        r1 = _mm_or_si128(r1, x);
    }
    [bands(r1), bands(r2), bands(r3)]
}

/// Column-box claiming for the digits with a word in `words`, three bands
/// of a digit at once in SSE2 lanes. [`CLAIMED`] becomes arithmetic here (a
/// table lookup per lane would undo the lanes); it is checked against the
/// table in the tests.
#[inline(always)]
pub(in crate::core::sudoku) fn claim_columns(f: &mut [u32; 32], words: u32) -> Option<bool> {
    // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
    // is always present.
    unsafe { claim_columns_sse2(f, words) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn claim_columns_sse2(f: &mut [u32; 32], mut words: u32) -> Option<bool> {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi32, _mm_cvtsi128_si32,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi32, _mm_setzero_si128, _mm_shuffle_epi32,
        _mm_slli_epi32, _mm_srli_epi32, _mm_storeu_si128, _mm_xor_si128,
    };
    let nine = _mm_set1_epi32(0x1ff);
    let box_low = _mm_set1_epi32(0o111);
    let (mut changed, mut covered) = (_mm_setzero_si128(), nine);
    while words != 0 {
        // k / 3 for k < 27, without a division.
        let d = ((words.trailing_zeros() * 11) >> 5) as usize;
        words &= !(7 << (3 * d));
        // The digit's three band words in lanes 0-2. Lane 3 is the next
        // word, which comes out as it went in (no column is claimed there,
        // since its lanes all agree), so the whole vector can be stored.
        let at = (3 * d) & 31;
        let x = load_words(f, at);
        let c = _mm_and_si128(
            _mm_or_si128(
                x,
                _mm_or_si128(_mm_srli_epi32::<9>(x), _mm_srli_epi32::<18>(x)),
            ),
            nine,
        );
        // The other two bands' columns, lane by lane.
        let c1 = _mm_shuffle_epi32::<0b11_00_10_01>(c);
        let c2 = _mm_shuffle_epi32::<0b11_01_00_10>(c);
        covered = _mm_and_si128(covered, _mm_or_si128(c, _mm_or_si128(c1, c2)));
        let shared = _mm_or_si128(
            _mm_and_si128(c, _mm_or_si128(c1, c2)),
            _mm_and_si128(c1, c2),
        );
        // Columns in this band only; a box with one keeps only those.
        let own = _mm_andnot_si128(shared, c);
        let boxes = _mm_and_si128(
            _mm_or_si128(
                own,
                _mm_or_si128(_mm_srli_epi32::<1>(own), _mm_srli_epi32::<2>(own)),
            ),
            box_low,
        );
        let boxes = _mm_or_si128(
            boxes,
            _mm_or_si128(_mm_slli_epi32::<1>(boxes), _mm_slli_epi32::<2>(boxes)),
        );
        let cols = _mm_or_si128(own, _mm_xor_si128(boxes, nine));
        let keep = _mm_or_si128(
            cols,
            _mm_or_si128(_mm_slli_epi32::<9>(cols), _mm_slli_epi32::<18>(cols)),
        );
        let w = _mm_and_si128(x, keep);
        changed = _mm_or_si128(changed, _mm_xor_si128(w, x));
        let chunk = &mut f[at..at + 4];
        // SAFETY: the slice holds four u32s, 16 bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(chunk.as_mut_ptr().cast::<__m128i>(), w) };
    }
    if _mm_cvtsi128_si32(covered) != 0x1ff {
        return None;
    }
    let same = _mm_movemask_epi8(_mm_cmpeq_epi32(changed, _mm_setzero_si128()));
    Some(same != 0xffff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_bytes_load_in_order_and_lanes_read_back() {
        let words: Vec<u32> = (100..110).collect();
        let bytes: Vec<u8> = (0..40).collect();
        // SAFETY: SSE2 is part of the x86_64 baseline.
        let (w, b) = unsafe { (bands(load_words(&words, 3)), load_bytes(&bytes, 20)) };
        assert_eq!(w, [103, 104, 105]);
        // Little-endian: the first byte is the lowest of lane 0.
        assert_eq!(unsafe { bands(b) }[0], u32::from_le_bytes([20, 21, 22, 23]));
    }
}
