//! Whether a uniquely solvable classic puzzle is minimal: no single given
//! can be removed with the solution staying unique. Pure: givens in, an
//! answer out, one bounded count (to two solutions) per given.

use super::solve::count_solutions;
use crate::core::grid::CELLS;

/// `Some(true)` when removing any one given of `givens` (digits 1..=9,
/// anything else empty) leaves more than one solution, `Some(false)` when
/// some given can go; `None` when the puzzle is not uniquely solvable or a
/// count gave up at the search limit (not known).
pub fn is_minimal(givens: &[u8; CELLS]) -> Option<bool> {
    let whole = count_solutions(givens, 2);
    if whole.gave_up() || whole.count != 1 {
        return None;
    }
    let mut fewer = *givens;
    for cell in 0..CELLS {
        let digit = givens[cell];
        if !(1..=9).contains(&digit) {
            continue;
        }
        fewer[cell] = 0;
        let count = count_solutions(&fewer, 2);
        fewer[cell] = digit;
        if count.gave_up() {
            return None;
        }
        // One solution still: this given was not needed.
        if count.count < 2 {
            return Some(false);
        }
    }
    Some(true)
}

/// [`is_minimal`] of an 81-character legacy string (`1`-`9` a given, any
/// other character an empty cell); `None` for any other length.
pub fn is_minimal_str(givens: &str) -> Option<bool> {
    let bytes: &[u8; CELLS] = givens.as_bytes().try_into().ok()?;
    let mut digits = [0u8; CELLS];
    for (d, b) in digits.iter_mut().zip(bytes) {
        *d = if (b'1'..=b'9').contains(b) {
            b - b'0'
        } else {
            0
        };
    }
    is_minimal(&digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 17-clue puzzle (Royle's list) is minimal: no 16-clue puzzle has a
    /// unique solution. The same puzzle with one cell of its solution added
    /// is not (that given can go again); one without a given has several
    /// solutions and is no candidate at all.
    #[test]
    fn a_17_clue_puzzle_is_minimal_and_one_with_an_extra_given_is_not() {
        let p17 = include_str!("../../../tests/data/classic/17clue_royle_first2000.txt")
            .lines()
            .find(|l| l.len() == 81 && !l.starts_with('#'))
            .unwrap();
        assert_eq!(is_minimal_str(p17), Some(true));
        let mut digits = [0u8; CELLS];
        for (d, b) in digits.iter_mut().zip(p17.bytes()) {
            *d = if b.is_ascii_digit() { b - b'0' } else { 0 };
        }
        let solution = count_solutions(&digits, 2).first.unwrap();
        let empty = digits.iter().position(|&d| d == 0).unwrap();
        let mut more = digits;
        more[empty] = solution[empty];
        assert_eq!(is_minimal(&more), Some(false));
        let given = digits.iter().position(|&d| d != 0).unwrap();
        let mut fewer = digits;
        fewer[given] = 0;
        assert_eq!(is_minimal(&fewer), None);
        assert_eq!(is_minimal_str("123"), None);
    }
}
