//! Cage geometry and arithmetic: the table of digit sets per (size, sum),
//! finding cages as 4-connected regions of one label, which cages touch,
//! and colouring cages so that touching cages differ.
//!
//! Pure tables and graph work on the 9x9 grid; it knows nothing of strings
//! (the `format` module) or of search (the `solve` module).

use crate::core::grid::CELLS;

/// The largest sum any cage can have (1+2+...+9).
pub const MAX_SUM: u8 = 45;

/// Width of one size's block in the combination index: sums 0..=45.
const SUMS: usize = MAX_SUM as usize + 1;

/// Every 9-bit digit set, sorted by (size, sum), with the start of each
/// (size, sum) block: `SETS[START[k]..START[k + 1]]` for `k = size * 46 + sum`.
/// There are only 512 sets, so the whole table is built at compile time.
struct Combos {
    sets: [u16; 512],
    start: [u16; 10 * SUMS + 1],
}

const fn key(set: u16) -> usize {
    let mut sum = 0;
    let mut d = 0;
    while d < 9 {
        if set & (1 << d) != 0 {
            sum += d + 1;
        }
        d += 1;
    }
    set.count_ones() as usize * SUMS + sum
}

const COMBOS: Combos = {
    let mut start = [0u16; 10 * SUMS + 1];
    let mut set = 0;
    while set < 512 {
        start[key(set) + 1] += 1;
        set += 1;
    }
    let mut k = 0;
    while k < 10 * SUMS {
        start[k + 1] += start[k];
        k += 1;
    }
    let mut next = start;
    let mut sets = [0u16; 512];
    let mut set = 0;
    while set < 512 {
        let k = key(set);
        sets[next[k] as usize] = set;
        next[k] += 1;
        set += 1;
    }
    Combos { sets, start }
};

/// The digit sets (9-bit masks) of `size` distinct digits adding to `sum`;
/// empty when no such set exists (including sizes above 9 and sums above 45).
pub fn combinations(size: usize, sum: u8) -> &'static [u16] {
    if size > 9 || sum > MAX_SUM {
        return &[];
    }
    let k = size * SUMS + sum as usize;
    &COMBOS.sets[COMBOS.start[k] as usize..COMBOS.start[k + 1] as usize]
}

/// The smallest and largest sum `size` distinct digits can make.
pub const fn sum_range(size: usize) -> (u32, u32) {
    let k = size as u32;
    (k * (k + 1) / 2, k * (19 - k) / 2)
}

/// The 4-connected regions of equal labels, numbered in reading order of
/// their first cell, with the cells of each region in reading order (so a
/// region's first element is its first cell). Fixed arrays: every Killer
/// line is read through here, and a list per region was two allocations
/// and a sort for each of its thirty-odd cages.
#[derive(Clone, Debug)]
pub struct Regions {
    /// The region of each cell.
    pub of: [u8; CELLS],
    /// The cells, grouped by region.
    cells: [u8; CELLS],
    /// Where each region's group starts in `cells`; `start[count]` is 81.
    start: [u8; CELLS + 1],
    count: usize,
}

impl Regions {
    pub fn new(label: &[u8; CELLS]) -> Regions {
        const NONE: u8 = u8::MAX;
        // Union-find over equal labels left and above, each set rooted at
        // its first cell in reading order, so numbering roots as they are
        // met numbers regions by first cell.
        let mut root: [u8; CELLS] = std::array::from_fn(|c| c as u8);
        fn find(root: &mut [u8; CELLS], mut c: usize) -> usize {
            while usize::from(root[c]) != c {
                root[c] = root[usize::from(root[c])];
                c = usize::from(root[c]);
            }
            c
        }
        // Joins the sets of two touching cells of one label. A plain
        // function, not a closure: it stays inlined in the loop below
        // however the crate is split into codegen units.
        #[inline(always)]
        fn join(root: &mut [u8; CELLS], label: &[u8; CELLS], c: usize, n: usize) {
            if label[n] == label[c] {
                let (a, b) = (find(root, n), find(root, c));
                root[a.max(b)] = a.min(b) as u8;
            }
        }
        for c in 0..CELLS {
            if c % 9 > 0 {
                join(&mut root, label, c, c - 1);
            }
            if c >= 9 {
                join(&mut root, label, c, c - 9);
            }
        }
        let mut of = [NONE; CELLS];
        let mut size = [0u8; CELLS];
        let mut count = 0;
        for c in 0..CELLS {
            let r = find(&mut root, c);
            if of[r] == NONE {
                // At most 81 regions, so the number always fits below NONE.
                of[r] = count as u8;
                count += 1;
            }
            // The root comes first in reading order: numbered already.
            of[c] = of[r];
            size[usize::from(of[c])] += 1;
        }
        // Counting sort by region: cells in reading order within each.
        let mut start = [0u8; CELLS + 1];
        for k in 0..count {
            start[k + 1] = start[k] + size[k];
        }
        let mut next = start;
        let mut cells = [0u8; CELLS];
        for (c, &k) in of.iter().enumerate() {
            let at = &mut next[usize::from(k)];
            cells[usize::from(*at)] = c as u8;
            *at += 1;
        }
        Regions {
            of,
            cells,
            start,
            count,
        }
    }

    /// How many regions.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The cells of region `k` in reading order (empty past the last).
    pub fn cells(&self, k: usize) -> &[u8] {
        match (self.start.get(k), self.start.get(k + 1)) {
            (Some(&a), Some(&b)) if k < self.count => &self.cells[usize::from(a)..usize::from(b)],
            _ => &[],
        }
    }

    /// The first cell of region `k` in reading order (0 past the last).
    pub fn first(&self, k: usize) -> usize {
        self.cells(k).first().map_or(0, |&c| usize::from(c))
    }

    /// The cells of each region, in region order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.count).map(|k| self.cells(k))
    }
}

/// For each region, the set of regions orthogonally adjacent to it (bit j = region j).
pub fn adjacency(region: &[u8; CELLS], count: usize) -> Vec<u128> {
    let mut adj = vec![0u128; count];
    let mut link = |c: usize, n: usize| {
        let (a, b) = (usize::from(region[c]), usize::from(region[n]));
        if a != b {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
    };
    // Each touching pair once: the cell to the right and the one below.
    for c in 0..CELLS {
        if c % 9 < 8 {
            link(c, c + 1);
        }
        if c < CELLS - 9 {
            link(c, c + 9);
        }
    }
    adj
}

/// The canonical colouring: regions in order, each takes the smallest colour
/// (1, 2, ...) not used by an already coloured neighbour. Depends only on the
/// cage layout, which is what makes it an identity.
pub fn greedy_colours(adj: &[u128]) -> Vec<u8> {
    let mut colour = vec![0u8; adj.len()];
    for k in 0..adj.len() {
        let mut used = 0u128;
        // The neighbours before k, one set bit at a time.
        let mut before = adj[k] & ((1u128 << k) - 1);
        while before != 0 {
            used |= 1 << colour[before.trailing_zeros() as usize];
            before &= before - 1;
        }
        // Colour 0 means "none yet"; the first free colour from 1 up.
        colour[k] = (!(used | 1)).trailing_zeros() as u8;
    }
    colour
}

/// Colours regions with at most `limit` colours so neighbours differ, by
/// backtracking in region order (smallest colour first, so it agrees with
/// [`greedy_colours`] whenever that fits). A cage map is planar and so
/// 4-colourable; the step budget only guards against pathological search.
pub fn bounded_colours(adj: &[u128], limit: u8) -> Option<Vec<u8>> {
    fn fill(k: usize, adj: &[u128], limit: u8, colour: &mut [u8], budget: &mut u32) -> bool {
        if k == adj.len() {
            return true;
        }
        for c in 1..=limit {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let clash = (0..k).any(|j| adj[k] >> j & 1 == 1 && colour[j] == c);
            if !clash {
                colour[k] = c;
                if fill(k + 1, adj, limit, colour, budget) {
                    return true;
                }
            }
        }
        colour[k] = 0;
        false
    }
    let mut colour = vec![0u8; adj.len()];
    let mut budget = 1_000_000;
    fill(0, adj, limit, &mut colour, &mut budget).then_some(colour)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_list_every_set_of_the_size_and_sum() {
        let cases: [(usize, u8, &[u16]); 6] = [
            (1, 5, &[0b1_0000]),
            (2, 3, &[0b11]),
            (2, 17, &[0b1_1000_0000]),
            (2, 10, &[0b1_0000_0001, 0b1000_0010, 0b100_0100, 0b10_1000]),
            (9, 45, &[0x1ff]),
            (2, 2, &[]),
        ];
        for (size, sum, sets) in cases {
            let mut got = combinations(size, sum).to_vec();
            got.sort_unstable();
            let mut want = sets.to_vec();
            want.sort_unstable();
            assert_eq!(got, want, "size {size} sum {sum}");
        }
        assert!(combinations(10, 45).is_empty());
        assert!(combinations(3, 46).is_empty());
        let total: usize = (0..=9)
            .flat_map(|k| (0..=45).map(move |s| combinations(k, s).len()))
            .sum();
        assert_eq!(total, 512);
    }

    #[test]
    fn sum_ranges_are_the_smallest_and_largest_digits() {
        assert_eq!(sum_range(1), (1, 9));
        assert_eq!(sum_range(2), (3, 17));
        assert_eq!(sum_range(9), (45, 45));
        for k in 1..=9 {
            let (lo, hi) = sum_range(k);
            assert!(!combinations(k, lo as u8).is_empty() && !combinations(k, hi as u8).is_empty());
            assert!(combinations(k, lo as u8 - 1).is_empty());
        }
    }

    #[test]
    fn regions_split_equal_labels_that_do_not_touch() {
        // Two columns of label 1 separated by a column of label 2, rest label 3.
        let mut label = [3u8; CELLS];
        for r in 0..9 {
            label[r * 9] = 1;
            label[r * 9 + 1] = 2;
            label[r * 9 + 2] = 1;
        }
        let regions = Regions::new(&label);
        let region = regions.of;
        assert_eq!(regions.count(), 4);
        assert_eq!((region[0], region[1], region[2], region[3]), (0, 1, 2, 3));
        assert_eq!(regions.cells(0), (0..9).map(|r| r * 9).collect::<Vec<u8>>());
        assert_eq!(
            regions.cells(1),
            (0..9).map(|r| r * 9 + 1).collect::<Vec<u8>>()
        );
        assert_eq!(regions.cells(3).len(), 81 - 27);
        assert_eq!(regions.cells(3)[..3], [3, 4, 5]);
        assert!(regions.cells(4).is_empty());
        let adj = adjacency(&region, regions.count());
        assert_eq!(adj[0], 0b10);
        assert_eq!(adj[1], 0b101);
        assert_eq!(greedy_colours(&adj), vec![1, 2, 1, 2]);
    }

    #[test]
    fn bounded_colouring_backtracks_where_greedy_needs_more() {
        // A wheel: hub 0 adjacent to a 5-cycle 1..=5 (odd), which greedy in
        // this order colours with 4 colours; with limit 3 none exists, 4 fits.
        let mut adj = vec![0u128; 6];
        let mut link = |a: usize, b: usize| {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        };
        for k in 1..=5 {
            link(0, k);
            link(k, if k == 5 { 1 } else { k + 1 });
        }
        assert_eq!(bounded_colours(&adj, 3), None);
        let colours = bounded_colours(&adj, 4).unwrap();
        for a in 0..6 {
            for b in 0..6 {
                if adj[a] >> b & 1 == 1 {
                    assert_ne!(colours[a], colours[b]);
                }
            }
        }
    }
}
