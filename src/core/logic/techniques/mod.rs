//! One file per technique, each a [`Technique`](super::Technique) that
//! finds its first application in Sudoku Explainer's scan order; the shared
//! scanning helpers are here.

pub mod aligned_pair;
pub mod bug;
pub mod chains;
pub mod cycles;
pub mod fish;
pub mod hidden_single;
pub mod hidden_subset;
pub mod locking;
pub mod naked_single;
pub mod naked_subset;
pub mod unique_loop;
pub mod xy_wing;

use std::sync::OnceLock;

/// The `k`-subsets of `0..9` as bit sets (`k` 2..=4), in lexicographic
/// order of their members (SE's `Permutations(k, 9)`), built once.
pub(crate) fn subsets(k: u32) -> impl Iterator<Item = u16> {
    static TABLES: OnceLock<[Vec<u16>; 3]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        [2, 3, 4].map(|k| {
            let mut all: Vec<u16> = (0u16..512).filter(|s| s.count_ones() == k).collect();
            all.sort_by_key(|&s| members(s).collect::<Vec<_>>());
            all
        })
    });
    tables[(k.clamp(2, 4) - 2) as usize].iter().copied()
}

/// The members of a bit set, lowest first.
pub(crate) fn members(s: u16) -> impl Iterator<Item = usize> {
    (0..16).filter(move |i| s & (1 << i) != 0)
}

/// The digits of a candidate mask, lowest first.
pub(crate) fn digits(m: u16) -> impl Iterator<Item = u8> {
    (1..=9u8).filter(move |d| m & (1 << (d - 1)) != 0)
}

/// `2, 7` for a digit mask.
pub(crate) fn digit_list(m: u16) -> String {
    let ds: Vec<String> = digits(m).map(|d| d.to_string()).collect();
    ds.join(",")
}

/// `r1c2=5` for an on node, `r1c2<>5` for an off one.
pub(crate) fn node_name(n: crate::core::logic::chain::Node) -> String {
    use crate::core::logic::chain::{cand_of, is_on};
    let (c, d) = (cand_of(n) / 9, cand_of(n) % 9 + 1);
    let cell = crate::core::grid::cell_at(c);
    if is_on(n) {
        format!("{cell}={d}")
    } else {
        format!("{cell}<>{d}")
    }
}
