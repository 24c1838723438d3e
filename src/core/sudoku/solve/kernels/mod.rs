//! The engine's platform kernels, chosen once, here: SSE2 on x86_64
//! (`cfg(x86_64_kernels)`, set by build.rs unless the `portable` feature
//! asks otherwise), the portable loops everywhere else. The rest of the
//! engine calls one function per kernel and never tests the platform.
//! CI runs the tests both ways (`--features portable`).

use crate::core::grid::CELLS;

#[cfg(any(test, not(x86_64_kernels)))]
mod portable;
#[cfg(x86_64_kernels)]
mod sse2;

#[cfg(not(x86_64_kernels))]
pub(in crate::core::sudoku) use portable::*;
#[cfg(x86_64_kernels)]
pub(in crate::core::sudoku) use sse2::*;

/// A legacy line sorted out cell by cell.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::core::sudoku) struct Scan {
    /// The line with `.` written `0`.
    pub(in crate::core::sudoku) digits: [u8; CELLS],
    /// The cells holding `1`-`9`.
    pub(in crate::core::sudoku) given: [bool; CELLS],
    /// The same, as band words.
    pub(in crate::core::sudoku) placed: [u32; 3],
}

#[cfg(test)]
mod tests {
    use super::super::state::{State, padded};
    use super::super::tables::*;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_line_scan_agrees_with_the_portable_loop(
            line in proptest::collection::vec(
                prop_oneof![8 => b'0'..=b'9', 1 => Just(b'.'), 1 => any::<u8>()],
                CELLS
            )
        ) {
            let s: [u8; CELLS] = std::array::from_fn(|i| line[i]);
            prop_assert_eq!(scan(&s), portable::scan(&s));
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
            let (slow, slow_dead) = portable::hidden_singles(&plane);
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
            let (slow, slow_dead) = portable::hidden_singles(&plane);
            prop_assert_eq!(dead, slow_dead);
            prop_assert!(dead || fast == slow, "{:?}", plane);
        }

        #[test]
        fn the_band_counts_agree_with_the_portable_loop(
            words in proptest::collection::vec(0u32..=BAND, 27)
        ) {
            let planes: [[u32; 3]; 9] = std::array::from_fn(|d| [words[3 * d], words[3 * d + 1], words[3 * d + 2]]);
            prop_assert_eq!(once_twice(&planes), portable::once_twice(&planes));
        }
    }

    #[test]
    fn claiming_matches_the_claimed_table_for_every_column_set() {
        // Band 0 holds every cell; the columns outside `v` are shared by
        // bands 1 and 2, so band 0 alone has the columns of `v`.
        for v in 0..512u32 {
            let rest = !v & 0x1ff;
            let shared = rest | rest << 9 | rest << 18;
            for d in [0, 4, 8] {
                let mut f = padded(&[[BAND; 3]; 9]);
                f[3 * d..3 * d + 3].copy_from_slice(&[BAND, shared, shared]);
                let mut g = f;
                assert_eq!(
                    claim_columns(&mut f, 7 << (3 * d)),
                    portable::claim_columns(&mut g, 7 << (3 * d))
                );
                assert_eq!(f, g, "{v:#o}");
                assert_eq!(f[3 * d], CLAIMED[v as usize], "{v:#o}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn given_words_agree_with_their_portable_form(
            givens in proptest::collection::vec(0u8..12, CELLS),
        ) {
            let mut g = [0u8; CELLS];
            g.copy_from_slice(&givens);
            proptest::prop_assert_eq!(given_words(&g), portable::given_words(&g));
        }

        #[test]
        fn the_simd_helpers_agree_with_their_portable_forms(
            words in proptest::collection::vec(0u32..1 << 27, 27),
            flips in proptest::collection::vec(0u32..1 << 27, 27),
            keep in 0u32..1 << 27,
        ) {
            let mut f = [0u32; 32];
            let mut seen = [0u32; 32];
            for k in 0..27 {
                f[k] = words[k];
                // Only the words in `keep` are left as they were.
                seen[k] = if keep >> k & 1 == 1 { words[k] } else { words[k] ^ flips[k].max(1) };
            }
            proptest::prop_assert_eq!(changed_words(&f, &seen), portable::changed_words(&f, &seen));
            proptest::prop_assert_eq!(candidate_counts(&f), portable::candidate_counts(&f));
            // Sparse words, like real two-candidate cells.
            let pairs = [f[0] & f[1] & f[2], f[3] & f[4] & f[5], f[6] & f[7] & f[8]];
            let open = [f[9], f[10], f[11]];
            proptest::prop_assert_eq!(State::pick_pair(pairs, open), State::pick_pair_any(pairs, open));
            // Claiming on sparse words too, where it has something to do.
            for g in [f, f.map(|x| x & x >> 1 & x >> 2)] {
                let (mut a, mut b) = (g, g);
                proptest::prop_assert_eq!(claim_columns(&mut a, keep), portable::claim_columns(&mut b, keep));
                proptest::prop_assert_eq!(a, b);
            }
        }
    }
}
