//! Str8ts canonical form: the least legacy string over the 8 symmetries of
//! the square and the digit reflection d -> 10 - d.
//!
//! Str8ts has no boxes, but compartments are runs along whole rows and
//! columns, so only maps that keep every line whole and in order (up to
//! reversal) keep the puzzle: the dihedral group. Reflecting digits turns a
//! straight into a straight. Owns only that; no parsing beyond the legacy form.

use crate::core::grid::cell_at;
use crate::core::vocabulary::CanonError;

const FORMAT: &str = "str8ts legacy";

/// The canonical form of a Str8ts puzzle.
///
/// `givens` is the 162-character legacy form: 81 digits (`0` empty) then 81
/// colours (`1` black, `0` white). The result is the least such string, in
/// plain byte order, over the 16 forms given by the 8 rotations and
/// reflections of the grid, each with and without the digit map d -> 10 - d
/// (empty stays `0`). Digits and colours move together.
pub fn str8ts(givens: &str) -> Result<String, CanonError> {
    let (digits, colours) = parse(givens)?;
    let mut best: Option<[u8; 162]> = None;
    for symmetry in 0..8 {
        for reflect in [false, true] {
            let mut cand = [0u8; 162];
            for i in 0..81 {
                let src = dihedral(symmetry, i);
                let d = digits[src];
                cand[i] = if reflect && d != 0 { 10 - d } else { d };
                cand[81 + i] = colours[src];
            }
            if best.is_none_or(|b| cand < b) {
                best = Some(cand);
            }
        }
    }
    Ok(best
        .unwrap_or([0; 162])
        .iter()
        .map(|&v| char::from(b'0' + v))
        .collect())
}

/// The source cell read at output cell `i` under symmetry `k` (0..8): bit 0
/// transposes, bit 1 reverses rows, bit 2 reverses columns.
fn dihedral(k: u8, i: usize) -> usize {
    let (mut r, mut c) = (i / 9, i % 9);
    if k & 1 != 0 {
        (r, c) = (c, r);
    }
    if k & 2 != 0 {
        r = 8 - r;
    }
    if k & 4 != 0 {
        c = 8 - c;
    }
    r * 9 + c
}

fn parse(givens: &str) -> Result<([u8; 81], [u8; 81]), CanonError> {
    let bytes = givens.as_bytes();
    if bytes.len() != 162 {
        return Err(CanonError::Length {
            format: FORMAT,
            expected: "162",
            found: givens.chars().count(),
        });
    }
    let mut digits = [0u8; 81];
    let mut colours = [0u8; 81];
    for (i, &b) in bytes.iter().enumerate() {
        let (ok, expected) = if i < 81 {
            (b.is_ascii_digit(), "a digit 0-9")
        } else {
            (b == b'0' || b == b'1', "a colour 0 (white) or 1 (black)")
        };
        if !ok {
            return Err(CanonError::Character {
                format: FORMAT,
                index: i,
                cell: cell_at(i % 81),
                expected,
                // Every byte before this one is ASCII, so `i` is a char boundary.
                found: givens[i..].chars().next().unwrap_or('?'),
            });
        }
        if i < 81 {
            digits[i] = b - b'0';
        } else {
            colours[i - 81] = b - b'0';
        }
    }
    Ok((digits, colours))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix::SplitMix;
    use proptest::prelude::*;

    fn disguise(s: &str, symmetry: u8, reflect: bool) -> String {
        let b = s.as_bytes();
        let mut out = vec![0u8; 162];
        for i in 0..81 {
            let src = dihedral(symmetry, i);
            let d = b[src];
            out[i] = if reflect && d != b'0' {
                b'0' + 10 - (d - b'0')
            } else {
                d
            };
            out[81 + i] = b[81 + src];
        }
        String::from_utf8(out).unwrap()
    }

    fn clues(s: &str) -> usize {
        s.bytes().take(81).filter(|&b| b != b'0').count()
    }

    fn random_puzzle(rng: &mut SplitMix) -> String {
        let mut s = String::new();
        for _ in 0..81 {
            let d = if rng.below(4) == 0 {
                rng.below(9) + 1
            } else {
                0
            };
            s.push(char::from(b'0' + d as u8));
        }
        for _ in 0..81 {
            s.push(if rng.below(5) == 0 { '1' } else { '0' });
        }
        s
    }

    #[test]
    fn a_lone_clue_moves_to_the_last_cell_and_turns_low() {
        let mut input = "0".repeat(162).into_bytes();
        input[10] = b'7';
        input[81 + 10] = b'1';
        let form = str8ts(std::str::from_utf8(&input).unwrap()).unwrap();
        // The clue goes to r8c8, the latest cell its orbit reaches, and 7
        // reflects to the smaller 3.
        assert_eq!(
            &form[..81],
            format!("{}3{}", "0".repeat(70), "0".repeat(10))
        );
        assert_eq!(
            &form[81..],
            format!("{}1{}", "0".repeat(70), "0".repeat(10))
        );
    }

    #[test]
    fn bad_strings_are_rejected_with_their_position() {
        let cases = [
            ("0".repeat(161), "length"),
            (
                format!("{}2{}", "0".repeat(81), "0".repeat(80)),
                "character",
            ),
            (format!("x{}", "0".repeat(161)), "character"),
        ];
        for (input, code) in cases {
            assert_eq!(str8ts(&input).unwrap_err().code(), code, "{input}");
        }
        let err = str8ts(&format!("{}2{}", "0".repeat(81), "0".repeat(80))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "str8ts legacy: character 81 (cell 0 r1c1) should be a colour 0 (white) or 1 (black), found '2'"
        );
    }

    #[test]
    fn different_random_puzzles_get_different_forms() {
        let mut rng = SplitMix(81);
        let mut forms = std::collections::HashSet::new();
        for _ in 0..200 {
            forms.insert(str8ts(&random_puzzle(&mut rng)).unwrap());
        }
        assert_eq!(forms.len(), 200);
    }

    proptest! {
        #[test]
        fn every_disguise_has_the_same_fixed_form_with_the_same_clues(
            seed in any::<u64>(),
            symmetry in 0u8..8,
            reflect in any::<bool>(),
        ) {
            let p = random_puzzle(&mut SplitMix(seed));
            let form = str8ts(&p).unwrap();
            prop_assert_eq!(str8ts(&disguise(&p, symmetry, reflect)).unwrap(), form.clone());
            prop_assert_eq!(str8ts(&form).unwrap(), form.clone());
            prop_assert_eq!(clues(&form), clues(&p));
            prop_assert!(form <= disguise(&p, symmetry, reflect));
        }
    }
}
