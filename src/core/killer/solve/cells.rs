//! Cells, peers and units as bit sets over the 81 cells (`u128`) or the 27
//! units (`u32`), and each cell's place in its row, column and box: tables
//! built at compile time, so the rules test and combine sets with a load
//! and a few bit operations rather than scans. Knows nothing of cages.

use crate::core::grid::{CELLS, PEERS, UNITS, box_of};

/// Every cell as a bit set.
pub(super) const ALL_CELLS: u128 = (1 << CELLS) - 1;

/// Each cell as a bit set of its own.
pub(super) const CELL_BITS: [u128; CELLS] = {
    let mut out = [0u128; CELLS];
    let mut c = 0;
    while c < CELLS {
        out[c] = 1 << c;
        c += 1;
    }
    out
};

/// The peers of each cell as a bit set.
pub(super) const PEER_BITS: [u128; CELLS] = cell_sets(&PEERS);

/// Each list of cells as a bit set.
pub(super) const fn cell_sets<const N: usize, const K: usize>(lists: &[[u8; K]; N]) -> [u128; N] {
    let mut out = [0u128; N];
    let mut n = 0;
    while n < N {
        let mut i = 0;
        while i < K {
            out[n] |= 1 << lists[n][i];
            i += 1;
        }
        n += 1;
    }
    out
}

/// Each cell's peers, then room for eight cage mates that are not peers:
/// where every solver's neighbour lists start.
pub(super) const PEER_LISTS: [[u8; 28]; CELLS] = {
    let mut out = [[0u8; 28]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut i = 0;
        while i < 20 {
            out[c][i] = PEERS[c][i];
            i += 1;
        }
        c += 1;
    }
    out
};

/// Each cell with its peers, as a bit set.
pub(super) const PEERS_AND_SELF: [u128; CELLS] = {
    let mut out = PEER_BITS;
    let mut c = 0;
    while c < CELLS {
        out[c] |= 1 << c;
        c += 1;
    }
    out
};

/// The units holding each cell as a bit set over unit indices (its row,
/// column and box).
pub(super) const UNITS_OF: [u32; CELLS] = {
    let mut out = [0u32; CELLS];
    let mut c = 0;
    while c < CELLS {
        out[c] = 1 << (c / 9) | 1 << (9 + c % 9) | 1 << (18 + box_of(c));
        c += 1;
    }
    out
};

/// Each cell's row, column and box, with its position (0..9) in each.
pub(super) const PLACES: [[(u8, u8); 3]; CELLS] = {
    let mut out = [[(0u8, 0u8); 3]; CELLS];
    let mut u = 0;
    while u < 27 {
        let mut i = 0;
        while i < 9 {
            out[UNITS[u][i] as usize][u / 9] = (u as u8, i as u8);
            i += 1;
        }
        u += 1;
    }
    out
};

/// Each row, column and box (unit 0..27) as a bit set of cells.
pub(super) const UNIT_BITS: [u128; 27] = cell_sets(&UNITS);

/// The cells of a bit set, lowest first.
pub(super) fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let c = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(c)
    })
}
