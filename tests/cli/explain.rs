//! `explain`: the logical solution of one puzzle, step by step, with each
//! step's rating and SE's ER/EP/ED (classic) or the Str8ts rating.

use crate::util::Workdir;

/// bit-sudoku's SE 2.6 sample, as Sudoku Explainer 1.2.1 solves it: hidden
/// singles, a direct hidden pair (2.0), pointing (2.6), a direct hidden
/// triple (2.5), full houses. A snapshot of what a user reads.
const EXPECTED_2_6: &str = r#"  1. [1.2] r3c7=6: hidden single in box 3
  2. [1.2] r1c7=5: hidden single in box 3
  3. [1.2] r3c9=4: hidden single in box 3
  4. [1.2] r1c6=4: hidden single in box 2
  5. [1.2] r4c1=1: hidden single in box 4
  6. [1.2] r4c3=3: hidden single in box 4
  7. [1.2] r6c5=5: hidden single in box 5
  8. [1.2] r5c3=5: hidden single in box 4
  9. [1.2] r3c1=5: hidden single in box 1
 10. [1.2] r3c3=7: hidden single in box 1
 11. [1.2] r1c3=2: hidden single in box 1
 12. [1.0] r1c2=8: full house in row 1
 13. [1.2] r6c9=1: hidden single in box 6
 14. [1.2] r9c8=5: hidden single in box 9
 15. [1.5] r6c2=4: hidden single in column 2
 16. [1.0] r6c3=6: full house in box 4
 17. [1.2] r8c2=6: hidden single in box 7
 18. [1.5] r7c9=9: hidden single in column 9
 19. [1.0] r2c9=7: full house in column 9
 20. [2.0] r7c5=2: hidden single in box 8 after the hidden pair 1,6 in box 8 removes 2 from r7c4,r7c6 and 3 from r7c4,r7c6
 21. [2.6] r5c7,r6c7: pointing 7 in box 6 and column 7 removes 7 from r7c7
 22. [2.6] r2c7,r2c8: pointing 2 in box 3 and row 2 removes 2 from r2c4
 23. [2.6] r2c7,r2c8: pointing 8 in box 3 and row 2 removes 8 from r2c4
 24. [2.5] r3c4=8: hidden single in column 4 after the hidden triple 1,4,6 in column 4 removes 2 from r4c4 and 8 from r4c4 and 9 from r4c4
 25. [1.2] r3c6=2: hidden single in box 2
 26. [1.2] r2c4=3: hidden single in box 2
 27. [1.0] r3c5=9: full house in box 2
 28. [1.0] r4c5=8: full house in column 5
 29. [1.0] r3c2=3: full house in row 3
 30. [1.0] r2c2=9: full house in box 1
 31. [1.2] r6c4=2: hidden single in box 5
 32. [1.2] r8c6=3: hidden single in box 8
 33. [1.2] r7c1=3: hidden single in box 7
 34. [1.0] r8c1=7: full house in column 1
 35. [1.2] r9c4=9: hidden single in box 8
 36. [1.2] r8c3=9: hidden single in box 7
 37. [1.0] r8c8=8: full house in row 8
 38. [1.2] r2c7=8: hidden single in box 3
 39. [1.0] r2c8=2: full house in box 3
 40. [1.2] r4c7=2: hidden single in box 6
 41. [1.2] r6c7=9: hidden single in box 6
 42. [1.0] r6c6=7: full house in row 6
 43. [1.2] r4c6=9: hidden single in box 5
 44. [1.2] r4c4=6: hidden single in box 5
 45. [1.0] r4c8=4: full house in row 4
 46. [1.0] r5c7=7: full house in box 6
 47. [1.0] r7c8=7: full house in column 8
 48. [1.2] r5c4=4: hidden single in box 5
 49. [1.0] r5c6=1: full house in box 5
 50. [1.0] r7c4=1: full house in column 4
 51. [1.0] r7c6=6: full house in box 8
 52. [1.2] r7c3=8: hidden single in box 7
 53. [1.0] r9c3=4: full house in box 7
 54. [1.0] r7c7=4: full house in row 7
 55. [1.0] r9c7=3: full house in box 9
ER 2.6, EP 1.2, ED 1.2; solved in 55 steps
"#;

#[test]
fn explain_prints_each_step_with_its_rating_and_the_puzzles_er_ep_ed() {
    let w = Workdir::new();
    let out = w.run(&[
        "explain",
        "6..71..934.1.65..........1..7......592..3..688......3..5..........54.1.221..78..6",
    ]);
    assert_eq!(out, EXPECTED_2_6);
}

#[test]
fn explain_of_a_puzzle_beyond_its_techniques_says_the_rating_is_a_bound() {
    let w = Workdir::new();
    // Easter Monster: SE 11.9, beyond dynamic forcing chains (8.5), the
    // last rung here: it ends stuck (or out of budget) with a bound.
    let out = w.run(&[
        "explain",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ]);
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("ER at least ")
            && (last.contains("; stuck after") || last.contains("; stopped after")),
        "{out}"
    );
}

#[test]
fn explain_of_a_killer_says_only_classic_sudoku_is_rated_so_far() {
    let w = Workdir::new();
    let killer = std::fs::read_to_string(crate::util::data(
        "killer/krazydad_intermediate_first500_legacy.txt",
    ))
    .unwrap();
    let out = w.output(&["explain", killer.lines().next().unwrap().trim()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("only classic Sudoku"), "{err}");
}

/// The str8ts.com board of 9 Feb 2016 (malkuh's copy): compartment ranges,
/// singles, sure and stranded digits, and one compartment fit (3.4), the
/// hardest step, which is its rating.
const STR8TS_COM: &str = "069000000000000000001900006100000000000000000800000002000000000003000800000000070110010011000000000001100100000010011100000001110010000001001100000000000110010011";

#[test]
fn explain_of_a_str8ts_prints_each_step_with_its_rating_and_the_hardest_decides() {
    let w = Workdir::new();
    let out = w.run(&["explain", STR8TS_COM]);
    crate::show::snapshot("explain_str8ts", &out);
    assert!(
        out.ends_with("Str8ts rating 3.4; solved in 95 steps\n"),
        "{out}"
    );
}

#[test]
fn explain_of_a_str8ts_with_two_solutions_says_it_gets_no_rating() {
    let w = Workdir::new();
    // osmith93 board 02: two givens, more than one solution.
    let out = w.run(&[
        "explain",
        "000000000000000000000000000000000000010000000000000000000000000000000000000020000110001000000000000000110001001000000011000110000000100100011000000000000000100011",
    ]);
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.contains("more than one solution: it gets no rating"),
        "{out}"
    );
}
