//! Digits and digit sets: the `Digit` newtype (1..=9) and the 9-bit candidate
//! `Mask` (digit d is bit `1 << (d-1)`, as docs/formats.md "Conventions" defines it).
//!
//! Owns only arithmetic on digits and sets; knows nothing of cells or formats.

use std::fmt;

/// The nine bits of a 9-bit set as nine counters of `width` bits each,
/// digit d's at bit `width * (d - 1)`: adding such words counts each digit
/// in its own lane. For the solvers' count tables, built at compile time.
pub const fn spread_lanes(bits: u16, width: usize) -> u64 {
    let mut out = 0u64;
    let mut d = 0;
    while d < 9 {
        out |= ((bits as u64 >> d) & 1) << (width * d);
        d += 1;
    }
    out
}

/// [`spread_lanes`] of every 9-bit set: one load per set in the solvers'
/// place and tally counters (Killer's 4-bit lanes, Str8ts' 7-bit ones).
pub(crate) const fn lane_table(width: usize) -> [u64; 512] {
    let mut t = [0u64; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = spread_lanes(m as u16, width);
        m += 1;
    }
    t
}

/// The number of digits in each 9-bit set: a load, where `count_ones`
/// without the popcount instruction (not in the baseline target) is a
/// dozen. For the solvers' hot loops.
pub(crate) static DIGIT_COUNTS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 1;
    while m < 512 {
        t[m] = t[m >> 1] + (m & 1) as u8;
        m += 1;
    }
    t
};

/// A Sudoku digit, always in 1..=9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// `Some` for 1..=9, `None` otherwise.
    pub const fn new(d: u8) -> Option<Digit> {
        if d >= 1 && d <= 9 {
            Some(Digit(d))
        } else {
            None
        }
    }

    /// The digit of an ASCII character `'1'..='9'`.
    pub const fn from_ascii(c: u8) -> Option<Digit> {
        if c >= b'1' && c <= b'9' {
            Some(Digit(c - b'0'))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }

    pub const fn to_ascii(self) -> u8 {
        b'0' + self.0
    }

    /// The one-bit mask of this digit.
    pub const fn mask(self) -> Mask {
        Mask(1 << (self.0 - 1))
    }

    /// All nine digits in order.
    pub fn all() -> impl Iterator<Item = Digit> {
        (1..=9).map(Digit)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of digits as a 9-bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mask(u16);

/// How many candidates a set leaves: the question every propagation step asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remaining {
    /// No candidate: a contradiction.
    None,
    /// Exactly one: the digit is placed.
    One(Digit),
    /// Two or more.
    Several,
}

impl Mask {
    pub const EMPTY: Mask = Mask(0);
    pub const ALL: Mask = Mask(0x1ff);

    /// `Some` when only the low nine bits are used.
    pub const fn new(bits: u16) -> Option<Mask> {
        if bits <= 0x1ff {
            Some(Mask(bits))
        } else {
            None
        }
    }

    /// Keeps the low nine bits; for bit arithmetic already known to be in range.
    pub const fn from_bits_truncate(bits: u16) -> Mask {
        Mask(bits & 0x1ff)
    }

    pub const fn bits(self) -> u16 {
        self.0
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, d: Digit) -> bool {
        self.0 & (1 << (d.0 - 1)) != 0
    }

    pub const fn with(self, d: Digit) -> Mask {
        Mask(self.0 | (1 << (d.0 - 1)))
    }

    pub const fn without(self, d: Digit) -> Mask {
        Mask(self.0 & !(1 << (d.0 - 1)))
    }

    pub const fn union(self, o: Mask) -> Mask {
        Mask(self.0 | o.0)
    }

    pub const fn intersect(self, o: Mask) -> Mask {
        Mask(self.0 & o.0)
    }

    pub const fn minus(self, o: Mask) -> Mask {
        Mask(self.0 & !o.0)
    }

    /// The digit of a one-bit mask.
    pub const fn single(self) -> Option<Digit> {
        if self.0 != 0 && self.0 & (self.0 - 1) == 0 {
            Some(Digit(self.0.trailing_zeros() as u8 + 1))
        } else {
            None
        }
    }

    /// The lowest digit in the set.
    pub const fn lowest(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit(self.0.trailing_zeros() as u8 + 1))
        }
    }

    /// The highest digit in the set.
    pub const fn highest(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit(16 - self.0.leading_zeros() as u8))
        }
    }

    pub const fn remaining(self) -> Remaining {
        match self.0.count_ones() {
            0 => Remaining::None,
            1 => Remaining::One(Digit(self.0.trailing_zeros() as u8 + 1)),
            _ => Remaining::Several,
        }
    }

    /// The digits in increasing order.
    pub fn digits(self) -> impl Iterator<Item = Digit> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let d = bits.trailing_zeros() as u8 + 1;
            bits &= bits - 1;
            Some(Digit(d))
        })
    }
}

impl From<Digit> for Mask {
    fn from(d: Digit) -> Mask {
        d.mask()
    }
}

impl FromIterator<Digit> for Mask {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Mask {
        iter.into_iter().fold(Mask::EMPTY, Mask::with)
    }
}

impl fmt::Display for Mask {
    /// Writes the digits in order, e.g. `{1,2}` as `12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.digits() {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_lanes_gives_each_digit_its_own_counter() {
        assert_eq!(spread_lanes(0b1_0000_0101, 4), 0x1_0000_0101);
        assert_eq!(spread_lanes(0x1ff, 7).count_ones(), 9);
        assert_eq!(spread_lanes(0b10, 7), 1 << 7);
        // Nine full digit sets add to nine in every lane.
        assert_eq!(9 * spread_lanes(0x1ff, 4), 0x9_9999_9999);
    }

    #[test]
    fn the_tables_hold_each_sets_count_and_lanes() {
        let lanes = lane_table(4);
        for m in 0..512u16 {
            assert_eq!(u32::from(DIGIT_COUNTS[usize::from(m)]), m.count_ones());
            assert_eq!(lanes[usize::from(m)], spread_lanes(m, 4));
        }
    }

    #[test]
    fn digit_bits_follow_formats_md() {
        let cases = [(1, 1), (2, 2), (3, 4), (5, 16), (9, 256)];
        for (d, bits) in cases {
            assert_eq!(Digit::new(d).unwrap().mask().bits(), bits, "digit {d}");
        }
        assert_eq!(Mask::ALL.bits(), 511);
        assert_eq!(Digit::new(0), None);
        assert_eq!(Digit::new(10), None);
    }

    #[test]
    fn remaining_tells_none_one_several() {
        assert_eq!(Mask::EMPTY.remaining(), Remaining::None);
        assert_eq!(Mask::new(16).unwrap().remaining(), Remaining::One(Digit(5)));
        assert_eq!(Mask::new(6).unwrap().remaining(), Remaining::Several);
    }

    #[test]
    fn digits_iterate_in_order_and_collect_back() {
        let m = Mask::new(0b1_0001_0010).unwrap();
        let ds: Vec<u8> = m.digits().map(Digit::get).collect();
        assert_eq!(ds, vec![2, 5, 9]);
        assert_eq!(m.digits().collect::<Mask>(), m);
        assert_eq!(m.lowest(), Digit::new(2));
        assert_eq!(m.highest(), Digit::new(9));
        assert_eq!(m.to_string(), "259");
        assert_eq!(Mask::new(512), None);
    }
}
