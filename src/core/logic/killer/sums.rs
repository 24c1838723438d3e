//! Which digits each cell of a sum can take: the cells of a cage, or the
//! innies or outies of a region, must add up to a given total. With all
//! cells distinct (a cage, cells of one house) every way is found through
//! the sets of digits used so far; otherwise a small search with the sum
//! bounds, over at most [`MAX_LOOSE`] cells. Pure arithmetic on masks.

/// The most cells a sum whose cells may repeat a digit is searched over.
pub const MAX_LOOSE: usize = 6;

/// The search nodes a loose sum may take before it gives up (no
/// conclusion, never a wrong one).
const LOOSE_NODES: u32 = 200_000;

/// The sum of the digits of each 9-bit mask.
const DIGIT_SUM: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut d = 0;
        while d < 9 {
            if m & (1 << d) != 0 {
                t[m] += d as u8 + 1;
            }
            d += 1;
        }
        m += 1;
    }
    t
};

/// The ways a sum can be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ways {
    /// The digits each cell takes in some way.
    pub allowed: [u16; 9],
    /// The digits every way uses (distinct sums only; 0 otherwise).
    pub required: u16,
}

/// The ways `cands.len()` (at most 9) distinct cells with candidates
/// `cands` make `sum` with a set of digits that holds all of `must`;
/// `None` when there is none.
pub fn distinct(cands: &[u16], sum: i32, must: u16) -> Option<Ways> {
    let n = cands.len();
    if n > 9 || !(0..=45).contains(&sum) {
        return None;
    }
    // The digit sets the first i cells can use, level by level in one
    // list (a set's level is its size, so no set is in two levels, and
    // one bit set over all 512 serves every level).
    let mut list = [0u16; 512];
    let mut start = [0usize; 11];
    start[1] = 1;
    let mut seen = [0u64; 8];
    for i in 0..n {
        let mut end = start[i + 1];
        // What the cells after this one can still add, ignoring which
        // digits are used.
        let rest = (n - i - 1) as i32;
        let (lo, hi) = (rest * (rest + 1) / 2, rest * (19 - rest) / 2);
        for j in start[i]..start[i + 1] {
            let m = list[j];
            let mut free = cands[i] & !m & 0x1ff;
            while free != 0 {
                let b = free & free.wrapping_neg();
                free ^= b;
                let next = m | b;
                let idx = next as usize;
                let left = sum - i32::from(DIGIT_SUM[idx]);
                if left < lo || left > hi || seen[idx / 64] & (1 << (idx % 64)) != 0 {
                    continue;
                }
                seen[idx / 64] |= 1 << (idx % 64);
                list[end] = next;
                end += 1;
            }
        }
        start[i + 2] = end;
    }
    // Back from the sets that make the sum: a set is good when some digit
    // of the next cell leads to a good set.
    let mut good = [0u64; 8];
    let mut required = 0x1ffu16;
    let mut any = false;
    for &m in &list[start[n]..start[n + 1]] {
        if i32::from(DIGIT_SUM[m as usize]) == sum && m & must == must {
            good[m as usize / 64] |= 1 << (m % 64);
            required &= m;
            any = true;
        }
    }
    if !any {
        return None;
    }
    let mut allowed = [0u16; 9];
    for i in (0..n).rev() {
        for &m in &list[start[i]..start[i + 1]] {
            let mut free = cands[i] & !m & 0x1ff;
            while free != 0 {
                let b = free & free.wrapping_neg();
                free ^= b;
                let next = (m | b) as usize;
                if good[next / 64] & (1 << (next % 64)) != 0 {
                    good[m as usize / 64] |= 1 << (m % 64);
                    allowed[i] |= b;
                }
            }
        }
    }
    Some(Ways { allowed, required })
}

/// The ways cells with candidates `cands` (at most [`MAX_LOOSE`]) make
/// `sum`, where cell `i` must differ from the cells of bit set
/// `differ[i]`; `None` when there is none or the search is too long.
pub fn loose(cands: &[u16], differ: &[u16], sum: i32) -> Option<Ways> {
    let n = cands.len();
    if n > MAX_LOOSE || n != differ.len() {
        return None;
    }
    // The least and most the cells from i on can add.
    let mut lo = [0i32; MAX_LOOSE + 1];
    let mut hi = [0i32; MAX_LOOSE + 1];
    for i in (0..n).rev() {
        if cands[i] == 0 {
            return None;
        }
        lo[i] = lo[i + 1] + cands[i].trailing_zeros() as i32 + 1;
        hi[i] = hi[i + 1] + 16 - cands[i].leading_zeros() as i32;
    }
    let mut s = Search {
        cands,
        differ,
        lo,
        hi,
        vals: [0; MAX_LOOSE],
        allowed: [0; 9],
        nodes: 0,
    };
    s.go(0, sum);
    if s.nodes > LOOSE_NODES || s.allowed[..n].contains(&0) {
        return None;
    }
    Some(Ways {
        allowed: s.allowed,
        required: 0,
    })
}

struct Search<'a> {
    cands: &'a [u16],
    differ: &'a [u16],
    lo: [i32; MAX_LOOSE + 1],
    hi: [i32; MAX_LOOSE + 1],
    vals: [u16; MAX_LOOSE],
    allowed: [u16; 9],
    nodes: u32,
}

impl Search<'_> {
    /// Every way from cell `i` on to make `left`; stops early once every
    /// candidate is known allowed (nothing to remove).
    fn go(&mut self, i: usize, left: i32) -> bool {
        let n = self.cands.len();
        self.nodes += 1;
        if self.nodes > LOOSE_NODES {
            return true;
        }
        if i == n {
            if left == 0 {
                for j in 0..n {
                    self.allowed[j] |= self.vals[j];
                }
                return (0..n).all(|j| self.allowed[j] == self.cands[j]);
            }
            return false;
        }
        if left < self.lo[i] || left > self.hi[i] {
            return false;
        }
        let mut taken = 0u16;
        for j in 0..i {
            if self.differ[i] & (1 << j) != 0 {
                taken |= self.vals[j];
            }
        }
        let mut free = self.cands[i] & !taken;
        while free != 0 {
            let b = free & free.wrapping_neg();
            free ^= b;
            self.vals[i] = b;
            if self.go(i + 1, left - (b.trailing_zeros() as i32 + 1)) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cage_of_two_making_three_is_one_and_two() {
        let w = distinct(&[0x1ff, 0x1ff], 3, 0).unwrap();
        assert_eq!((w.allowed[0], w.allowed[1], w.required), (0b11, 0b11, 0b11));
    }

    #[test]
    fn candidates_narrow_the_ways_and_a_needed_digit_narrows_them_further() {
        // Three cells making 10: {1,2,7} {1,3,6} {1,4,5} {2,3,5}; the
        // first cell can only be 7 or 5.
        let w = distinct(&[0b101_0000, 0x1ff, 0x1ff], 10, 0).unwrap();
        assert_eq!(w.allowed[0], 0b101_0000);
        assert_eq!(w.allowed[1], 0b1111);
        assert_eq!(w.required, 0);
        let w = distinct(&[0x1ff, 0x1ff, 0x1ff], 10, 1 << 5).unwrap();
        assert_eq!(w.allowed[0], 0b10_0101, "1, 3, 6");
        assert_eq!(distinct(&[1, 1], 2, 0), None);
    }

    #[test]
    fn loose_cells_may_repeat_a_digit_unless_told_to_differ() {
        // Two cells that do not see each other making 2: both 1.
        let w = loose(&[0x1ff, 0x1ff], &[0, 0], 2).unwrap();
        assert_eq!((w.allowed[0], w.allowed[1]), (1, 1));
        assert_eq!(loose(&[0x1ff, 0x1ff], &[0b10, 0b01], 2), None);
        let w = loose(&[0x1ff, 0x1ff, 0x1ff], &[0, 0, 0], 26).unwrap();
        assert_eq!(w.allowed[0], 0b1_1000_0000, "8 or 9");
    }
}
