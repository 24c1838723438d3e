//! The engine's constant tables and band-word arithmetic, built at compile
//! time: a band word holds one digit's positions in three rows, bit
//! `9*row + col`. No state, no platform code.

/// All 27 bits of a band word.
pub(in crate::core::sudoku) const BAND: u32 = (1 << 27) - 1;

/// A column's three cells within a band.
pub(in crate::core::sudoku) const fn column(col: usize) -> u32 {
    (1 | 1 << 9 | 1 << 18) << col
}

/// For a band bit: its row, box and column within the band, itself included.
pub(in crate::core::sudoku) const BAND_PEERS: [u32; 27] = {
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
pub(in crate::core::sudoku) const PEERS_OUT: [u32; 32] = {
    let mut t = [BAND; 32];
    let mut i = 0;
    while i < 27 {
        t[i] = !BAND_PEERS[i] | 1 << i;
        i += 1;
    }
    t
};

/// For a band bit (indexed mod 32): a band word without the bit's column.
pub(in crate::core::sudoku) const COLUMN_OUT: [u32; 32] = {
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
// Read by the portable kernels only (and the tests).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
pub(in crate::core::sudoku) const LONE_IN_BOX: [u16; 512] = {
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
pub(in crate::core::sudoku) const SPREAD: [u64; 256] = {
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
// Read by the portable kernels only (and the tests).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
pub(in crate::core::sudoku) const NO_BOX: u16 = 1 << 15;

/// Bit 0 of each row of a band word.
pub(in crate::core::sudoku) const ROW_LOW: u32 = 1 | 1 << 9 | 1 << 18;
/// Bit 8 of each row of a band word.
pub(in crate::core::sudoku) const ROW_HIGH: u32 = ROW_LOW << 8;
/// Bits 0-7 of each row of a band word.
pub(in crate::core::sudoku) const ROW_REST: u32 = BAND & !ROW_HIGH;

/// Bit 8 of each row of `w` that is not empty: the low eight bits of a
/// row plus 255 carry into bit 8 when any is set, and never further.
#[inline(always)]
pub(in crate::core::sudoku) const fn rows_nonempty(w: u32) -> u32 {
    (((w & ROW_REST) + ROW_REST) | w) & ROW_HIGH
}

/// The rows of `w` that hold one position, all three at once: a row
/// minus one shares a bit with the row only when it has two or more. A
/// row of `w` must not be empty (its borrow would spoil the next row);
/// callers check that first and discard the result.
#[inline(always)]
pub(in crate::core::sudoku) const fn rows_single(w: u32) -> u32 {
    let many = rows_nonempty(w & w.wrapping_sub(ROW_LOW));
    w & !((many >> 8) * 0x1ff)
}

/// The row itself when it holds exactly one position (or none), else 0.
/// (The one-row form the three-row helpers are tested against.)
#[cfg(test)]
pub(in crate::core::sudoku) const fn row_single(row: u32) -> u32 {
    if row & row.wrapping_sub(1) == 0 {
        row
    } else {
        0
    }
}

/// The six ways to send a band's three rows to its three boxes, one each:
/// row `r` goes to box `p[r]`.
pub(in crate::core::sudoku) const ROW_TO_BOX: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// For a band's row-by-box occupancy of one digit (bit `3*box + row`, see
/// [`occupancy`]): the cells the six row-to-box matchings still allow, as
/// a 27-bit band mask. 0 means no matching is left: a contradiction.
pub(in crate::core::sudoku) const LOCKED: [u32; 512] = {
    const P: [[usize; 3]; 6] = ROW_TO_BOX;
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 6 {
            let pm = (1 << (3 * P[k][0])) | (1 << (3 * P[k][1] + 1)) | (1 << (3 * P[k][2] + 2));
            if m & pm == pm {
                let mut r = 0;
                while r < 3 {
                    t[m] |= 7 << (9 * r + 3 * P[k][r]);
                    r += 1;
                }
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// Which row-box segments of band word `s` are non-empty, bit `3*box +
/// row`: the index of [`LOCKED`]. Arithmetic rather than a table lookup
/// per row: this runs a dozen times per search node.
#[inline(always)]
pub(in crate::core::sudoku) const fn occupancy(s: u32) -> usize {
    // Bit 9*row + 3*box: the segment's three cells folded into its first.
    let t = (s | s >> 1 | s >> 2) & 0o111_111_111;
    // Row 1 moves from bits 9, 12, 15 to 1, 4, 7; row 2 from 18, 21, 24 to
    // 2, 5, 8; what moves past bit 8 is masked off.
    ((t | t >> 8 | t >> 16) & 0x1ff) as usize
}

/// For the columns a digit may use in one band: the cells of the other two
/// bands it leaves open. A box whose digit is confined to one column claims
/// that column for this band (pointing candidates, which also covers a
/// placed digit).
pub(in crate::core::sudoku) const OTHER_BANDS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut keep = BAND;
        let mut x = 0;
        while x < 3 {
            let cols = (v as u32 >> (3 * x)) & 7;
            if cols == 1 || cols == 2 || cols == 4 {
                keep &= !column(3 * x + cols.trailing_zeros() as usize);
            }
            x += 1;
        }
        t[v] = keep;
        v += 1;
    }
    t
};

/// For the columns where a digit can go only in this band (9 bits): the
/// band cells it leaves open. Such a column must take the digit here, so
/// its box holds the digit in that column (column-box claiming; a column
/// with a single position is a hidden single).
// Read by the portable kernels only (and the tests).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
pub(in crate::core::sudoku) const CLAIMED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut keep = BAND;
        let mut x = 0;
        while x < 3 {
            let cols = (v as u32 >> (3 * x)) & 7;
            if cols != 0 {
                let mut c = 0;
                while c < 3 {
                    if cols & (1 << c) == 0 {
                        keep &= !column(3 * x + c);
                    }
                    c += 1;
                }
            }
            x += 1;
        }
        t[v] = keep;
        v += 1;
    }
    t
};

/// [`BAND_PEERS`] and each bit's column, indexed mod 32.
pub(in crate::core::sudoku) const PEERS32: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 27 {
        t[i] = BAND_PEERS[i];
        i += 1;
    }
    t
};
pub(in crate::core::sudoku) const COLUMN32: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 27 {
        t[i] = column(i % 9);
        i += 1;
    }
    t
};

/// For a band word index `3 * digit + band` (mod 32): the band and the
/// digit's words in the other two bands.
pub(in crate::core::sudoku) const WORDS: [[u8; 3]; 32] = {
    let mut t = [[0u8; 3]; 32];
    let mut k = 0;
    while k < 27 {
        let (d, b) = (k / 3, k % 3);
        let (b1, b2) = NEIGHBOURS[b];
        t[k] = [b as u8, (3 * d + b1) as u8, (3 * d + b2) as u8];
        k += 1;
    }
    t
};

/// Every band word, as a set of changed words: the start updates them all.
pub(in crate::core::sudoku) const ALL_WORDS: u32 = (1 << 27) - 1;

/// For a band: the other two.
pub(in crate::core::sudoku) const NEIGHBOURS: [(usize, usize); 3] = [(1, 2), (2, 0), (0, 1)];

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

    #[test]
    fn occupancy_finds_each_non_empty_row_box_segment() {
        // One cell per chosen segment, at every offset within the segment.
        for m in 0..512u32 {
            for offset in 0..3 {
                let mut s = 0;
                let mut want = 0;
                for (row, x) in (0..3).flat_map(|r| (0..3).map(move |x| (r, x))) {
                    if m >> (3 * row + x) & 1 == 1 {
                        s |= 1 << (9 * row + 3 * x + offset);
                        want |= 1 << (3 * x + row);
                    }
                }
                assert_eq!(occupancy(s), want, "{s:#o}");
            }
        }
    }

    #[test]
    fn locked_keeps_the_cells_of_some_row_to_box_matching() {
        // Each row's cells in all three boxes: what is left is the segments
        // that lie on a matching of the occupied segments.
        for (m, &locked) in LOCKED.iter().enumerate() {
            let matched = |r: usize, x: usize| {
                // Some permutation sends row r to box x, the rest to occupied segments.
                ROW_TO_BOX.iter().any(|p: &[usize; 3]| {
                    p[r] == x && (0..3).all(|row| m >> (3 * p[row] + row) & 1 == 1)
                })
            };
            let mut want = 0u32;
            for r in 0..3 {
                for x in 0..3 {
                    if matched(r, x) {
                        want |= 7 << (9 * r + 3 * x);
                    }
                }
            }
            assert_eq!(locked, want, "{m:#o}");
        }
    }
}
