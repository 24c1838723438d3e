//! Cells to digits, one digit a cell and no digit twice: a matching in the
//! bipartite graph of cells (positions in a slice of candidate masks) and
//! digits (bits of a set). Killer cages and Str8ts compartments both ask
//! whether their cells can take a set's digits one each; this is the one
//! place that answers, by Kuhn's augmenting paths over bitmasks.
//!
//! Invariant: `owner[bit]` is 0 for a digit no cell holds yet, else 1 + the
//! position of the cell holding it; a successful call leaves every cell it
//! was asked about owning exactly one digit of the set, each a candidate of
//! that cell. Knows nothing of puzzles.

/// Whether the cells can take the digits of `set` (as many as cells) one
/// each: a perfect matching by augmenting paths, at most 9x9 steps per cell.
pub(crate) fn perfect(masks: &[u16], set: u16) -> bool {
    let mut owner = [0u8; 16];
    (0..masks.len()).all(|k| augment(k, masks, set, &mut 0, &mut owner))
}

/// Gives each cell of `open` (positions) its own digit of `free`, recording
/// in `owner[bit]` 1 + the cell holding each digit; false when impossible.
/// Greedy first, which settles most cells; Kuhn's augmenting paths for the
/// cells the greedy pass left without a digit.
pub(crate) fn fill(allowed: &[u16], open: u16, free: u16, owner: &mut [u8; 16]) -> bool {
    let mut used = 0u16;
    let mut pending = 0u16;
    let mut cells = open;
    while cells != 0 {
        let k = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let m = allowed.get(k).map_or(0, |a| a & free & !used);
        if m == 0 {
            pending |= 1 << k;
        } else {
            let bit = m.trailing_zeros() as usize;
            used |= 1 << bit;
            owner[bit] = k as u8 + 1;
        }
    }
    while pending != 0 {
        let k = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let mut visited = 0;
        if !augment(k, allowed, free, &mut visited, owner) {
            return false;
        }
    }
    true
}

fn augment(k: usize, allowed: &[u16], s: u16, visited: &mut u16, owner: &mut [u8; 16]) -> bool {
    let mut free = allowed[k] & s & !*visited;
    while free != 0 {
        let bit = free.trailing_zeros() as usize;
        free &= free - 1;
        *visited |= 1 << bit;
        let holder = usize::from(owner[bit]);
        if holder == 0 || augment(holder - 1, allowed, s, visited, owner) {
            owner[bit] = k as u8 + 1;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_needs_distinct_digits_for_every_cell() {
        let cases: [(&[u16], u16, bool); 4] = [
            (&[0b11, 0b11], 0b11, true),
            (&[0b01, 0b01], 0b11, false),
            (&[0b111, 0b001, 0b010], 0b111, true),
            (&[0b011, 0b011, 0b011], 0b111, false),
        ];
        for (masks, set, want) in cases {
            assert_eq!(perfect(masks, set), want, "{masks:?} {set:b}");
            let mut owner = [0u8; 16];
            let all = (1u16 << masks.len()) - 1;
            assert_eq!(fill(masks, all, set, &mut owner), want, "{masks:?} {set:b}");
            if want {
                // Each digit of the set held by a cell that has it.
                for (bit, &k) in owner.iter().enumerate().take(9) {
                    if set >> bit & 1 != 0 {
                        let k = usize::from(k) - 1;
                        assert!(masks[k] >> bit & 1 != 0, "{masks:?} {bit}");
                    }
                }
            }
        }
    }
}
