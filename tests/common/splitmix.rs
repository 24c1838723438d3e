//! splitmix64 (Steele, Lea and Flood, 2014): the one small seeded generator
//! of the unit tests, `tests/properties.rs` and the benchmarks, so that a
//! failing case replays exactly from its seed. One file, included by path
//! (`#[path]`) into each of those crates; it is never part of the library.
//!
//! Each range helper keeps the arithmetic its users were written with, so
//! that their seeds still pick the same cases and the benchmark data stays
//! the same file: the tests take `next() % n`, the benchmarks the
//! multiply-high form.

// Each including crate uses only some of it.
#![allow(dead_code)]

pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// In `0..n`, as `next() % n` (the tests' form).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A Fisher-Yates shuffle with [`Self::below`].
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }

    /// Uniform in `0..n` from the high 32 bits, multiplied (the benchmarks'
    /// form).
    pub fn below_uniform(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// A Fisher-Yates shuffle with [`Self::below_uniform`].
    pub fn shuffle_uniform<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below_uniform(i + 1));
        }
    }
}
