//! The SSE2 building blocks that propagation and the solver share: loading
//! four band words or sixteen cells into a register, and reading a
//! register's three band lanes back. Compiled with `cfg(x86_64_kernels)`
//! only (build.rs: x86_64, where SSE2 is part of every CPU, without the
//! `portable` feature); the callers keep portable twins for the rest.
//! Owns no puzzle logic.

use std::arch::x86_64::{__m128i, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_shuffle_epi32};

/// Words `k..k + 4` of `w` in one register (panics past the end, like
/// indexing).
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn load_words(w: &[u32], k: usize) -> __m128i {
    let w = &w[k..k + 4];
    // SAFETY: the slice holds four u32s, 16 bytes; the load is unaligned.
    unsafe { _mm_loadu_si128(w.as_ptr().cast()) }
}

/// Bytes `k..k + 16` of `b` in one register (panics past the end, like
/// indexing).
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn load_bytes(b: &[u8], k: usize) -> __m128i {
    let b = &b[k..k + 16];
    // SAFETY: the slice holds 16 bytes; the load is unaligned.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// Lanes 0-2 of `v`, one per band.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn bands(v: __m128i) -> [u32; 3] {
    [
        _mm_cvtsi128_si32(v) as u32,
        _mm_cvtsi128_si32(_mm_shuffle_epi32::<1>(v)) as u32,
        _mm_cvtsi128_si32(_mm_shuffle_epi32::<2>(v)) as u32,
    ]
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
