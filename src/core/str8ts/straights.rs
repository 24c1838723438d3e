//! Straights as bits: the straight of `len` digits from `low` is bit
//! `low - 1` of a set of "lows". Which straights a compartment's cells can
//! hold, one digit a cell (a cover first, then a matching from
//! [`crate::core::matching`]), the digits every straight of a set needs,
//! and the bits of a set spread over a length, by table. Pure functions of
//! candidate bits (bit `d - 1` for digit `d`); no state.

use crate::core::mask::DIGIT_COUNTS;
use crate::core::matching::fill;

/// The straights of `allowed.len()` digits the cells can hold, written to
/// `out`; returns how many.
pub(super) fn fitting(allowed: &[u16], out: &mut [u16; 9]) -> usize {
    let len = allowed.len();
    let mut lows = fitting_lows(allowed, 0);
    let mut n = 0;
    while lows != 0 {
        out[n] = ((1u16 << len) - 1) << lows.trailing_zeros();
        lows &= lows - 1;
        n += 1;
    }
    n
}

/// Every straight of `len` digits that each of `cells` (candidate masks)
/// can reach, bit `low - 1` for the straight from `low`: what any test of
/// which straights fit starts from.
#[inline]
pub(super) fn reachable(cells: impl IntoIterator<Item = u16>, len: usize) -> u16 {
    (cells.into_iter()).fold((1u16 << (10 - len)) - 1, |lows, a| {
        lows & reach_down(a, len)
    })
}

/// The straights among `within` (bit `low - 1` for the straight from `low`;
/// none: every straight of `allowed.len()` digits) that `allowed` can hold,
/// one digit a cell, as bits of the same kind.
pub(crate) fn fitting_lows(allowed: &[u16], within: u16) -> u16 {
    let len = allowed.len();
    let mut lows = within;
    if lows == 0 {
        lows = reachable(allowed.iter().copied(), len);
    }
    let mut out = 0;
    while lows != 0 {
        let low = lows.trailing_zeros() as usize;
        let bit = lows & lows.wrapping_neg();
        lows &= lows - 1;
        if holds(allowed, ((1u16 << len) - 1) << low) {
            out |= bit;
        }
    }
    out
}

/// The digits of the straight `s` that cells holding only one of them
/// take, and the cells (bits of positions) holding more; `None` when `s`
/// cannot fit: a cell holds none of it, two cells want one digit, or some
/// digit of it no cell holds.
#[inline(always)]
pub(super) fn split(allowed: &[u16], s: u16) -> Option<(u16, u16)> {
    // A cell with one digit of `s` takes it; most cells are like that deep
    // in the search, and two of them wanting one digit settles it early.
    let (mut taken, mut cover, mut open) = (0u16, 0u16, 0u16);
    for (k, &a) in allowed.iter().enumerate() {
        let m = a & s;
        if m == 0 {
            return None;
        }
        cover |= m;
        if m & (m - 1) == 0 {
            if taken & m != 0 {
                return None;
            }
            taken |= m;
        } else {
            open |= 1 << k;
        }
    }
    (cover == s).then_some((taken, open))
}

/// Whether the cells can take the digits of the straight `s`, one each.
fn holds(allowed: &[u16], s: u16) -> bool {
    let Some((taken, open)) = split(allowed, s) else {
        return false;
    };
    // No open cell, or one: it gets the one digit the others left, which it
    // holds.
    if open & open.wrapping_sub(1) == 0 {
        return true;
    }
    let mut owner = [0u8; 16];
    fill(allowed, open, s & !taken, &mut owner)
}

/// The digits every straight of `lows` holds: from the highest low to the
/// lowest straight's top; none when they do not overlap.
pub(crate) fn needed(lows: u16, len: usize) -> u16 {
    if lows == 0 {
        return 0;
    }
    let (lo, hi) = (
        lows.trailing_zeros() as usize,
        15 - lows.leading_zeros() as usize,
    );
    if hi < lo + len {
        ((1u16 << (lo + len - hi)) - 1) << hi
    } else {
        0
    }
}

/// How many bits `m` has: a lookup for nine bits, as the base target has
/// no popcount instruction.
pub(super) fn ones(m: u16) -> u32 {
    DIGIT_COUNTS
        .get(usize::from(m))
        .map_or_else(|| m.count_ones(), |&n| u32::from(n))
}

/// The bits of `a` spread up over `len` places: `a | a << 1 | ... | a << (len - 1)`.
pub(super) fn reach_up(a: u16, len: usize) -> u16 {
    reach_table(a, len, true)
}

/// The bits of `a` spread down over `len` places: `a | a >> 1 | ... | a >> (len - 1)`.
pub(super) fn reach_down(a: u16, len: usize) -> u16 {
    reach_table(a, len, false)
}

/// [`reach`] from [`REACH`], computed for what the table does not hold.
#[inline]
fn reach_table(a: u16, len: usize, up: bool) -> u16 {
    REACH[usize::from(up)]
        .get(len)
        .and_then(|t| t.get(usize::from(a)))
        .copied()
        .unwrap_or_else(|| reach(a, len, up))
}

/// `reach_down` and `reach_up` for every nine-bit `a` and length up to 9:
/// one load instead of a loop whose length the compiler does not know,
/// run a few times at each compartment rerun (board05_extreme 9.62M ->
/// 9.21M instructions).
static REACH: [[[u16; 512]; 10]; 2] = {
    let mut t = [[[0u16; 512]; 10]; 2];
    let mut len = 0;
    while len < 10 {
        let mut a = 0;
        while a < 512 {
            t[0][len][a] = reach(a as u16, len, false);
            t[1][len][a] = reach(a as u16, len, true);
            a += 1;
        }
        len += 1;
    }
    t
};

/// The bits of `a` spread over `len` places, up or down.
const fn reach(a: u16, len: usize, up: bool) -> u16 {
    let mut r = a;
    let mut k = 1;
    while k < len {
        r |= if up { a << k } else { a >> k };
        k += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(digits: &[u8]) -> u16 {
        digits.iter().map(|&d| 1u16 << (d - 1)).sum()
    }

    /// The straight of `len` digits from `low`.
    fn straight(low: usize, len: usize) -> u16 {
        ((1u16 << len) - 1) << (low - 1)
    }

    #[test]
    fn a_straight_fits_only_with_a_matching_not_just_a_cover() {
        const ALL: &[u8] = &[1, 2, 3, 4, 5, 6, 7, 8, 9];
        // {1},{1},{2,3} covers 123 but two cells want the 1.
        let cases: [(&[&[u8]], &[u16]); 6] = [
            (&[&[1, 2], &[1, 2], &[1, 2, 3]], &[straight(1, 3)]),
            (&[&[1], &[1], &[2, 3]], &[]),
            (&[&[4, 5], &[5, 6]], &[straight(4, 2), straight(5, 2)]),
            (&[&[4], &[6]], &[]),
            (
                &[&[7], &[1, 2, 3, 4, 5, 6, 7, 8, 9]],
                &[straight(6, 2), straight(7, 2)],
            ),
            (&[ALL; 9], &[straight(1, 9)]),
        ];
        for (cells, want) in cases {
            let allowed: Vec<u16> = cells.iter().map(|c| bits(c)).collect();
            let mut out = [0u16; 9];
            let n = fitting(&allowed, &mut out);
            assert_eq!(&out[..n], want, "{cells:?}");
        }
    }

    #[test]
    fn fitting_agrees_with_trying_every_assignment() {
        // Every two- and three-cell compartment over digits 1..=5 with
        // cells drawn from a small family of sets.
        let sets: Vec<u16> = (1u16..32).filter(|m| m.count_ones() <= 2).collect();
        for &a in &sets {
            for &b in &sets {
                for &c in &sets {
                    let allowed = [a, b, c];
                    let mut out = [0u16; 9];
                    let n = fitting(&allowed, &mut out);
                    let brute: Vec<u16> = (1..=7)
                        .map(|low| straight(low, 3))
                        .filter(|&s| {
                            (0..3).any(|x| {
                                // x != y first: 3 - x - y underflows for x = y = 2.
                                (0..3).filter(|&y| y != x).any(|y| {
                                    let z = 3 - x - y;
                                    z != x
                                        && z != y
                                        && z < 3
                                        && [x, y, z].iter().zip(&allowed).all(|(&k, &m)| {
                                            m & (1 << (s.trailing_zeros() as usize + k)) != 0
                                        })
                                })
                            })
                        })
                        .collect();
                    assert_eq!(&out[..n], &brute[..], "{allowed:?}");
                }
            }
        }
    }
}
