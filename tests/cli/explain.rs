//! `explain`: the logical solution of one puzzle, step by step, with each
//! step's rating: SE's ER/EP/ED (classic), the Killer or the Str8ts rating.

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

/// krazydad's first Intermediate Killer (volume 1, book 1, puzzle 1), as
/// the Killer solver reads it: the rule of 45 on column 5 first, cage
/// combinations, the outies of row 1, then singles. A snapshot of what a
/// user reads.
const KILLER_KD_1_1_1: &str = r#"  1. [1.7] r5c5=6: rule of 45: the innie of column 5 is 6 (r5c5)
  2. [1.0] r5c6=5: last cell of cage 11/2 at r5c5
  3. [2.0] r1c1,r2c1,r2c2,r3c2: cage 11/4 at r1c1 can only be 1,2,3,5 removes 4 from r1c1,r2c1,r2c2,r3c2 and 6 from r1c1,r2c1,r2c2,r3c2 and 7 from r1c1,r2c1,r2c2,r3c2 and 8 from r1c1,r2c1,r2c2,r3c2 and 9 from r1c1,r2c1,r2c2,r3c2
  4. [2.0] r2c6,r2c7: cage 4/2 at r2c6 can only be 1,3 removes 2 from r2c6,r2c7 and 4 from r2c6,r2c7 and 5 from r2c7 and 6 from r2c6,r2c7 and 7 from r2c6,r2c7 and 8 from r2c6,r2c7 and 9 from r2c6,r2c7
  5. [2.0] r3c1,r4c1,r5c1,r5c2,r5c3,r5c4,r6c1,r7c1: cage 40/8 at r3c1 can only be 1,2,3,4,6,7,8,9 removes 5 from r3c1,r4c1,r6c1,r7c1
  6. [2.0] r3c4,r4c4: cage 3/2 at r3c4 can only be 1,2 removes 3 from r3c4,r4c4 and 4 from r3c4,r4c4 and 5 from r3c4 and 6 from r3c4 and 7 from r3c4,r4c4 and 8 from r3c4,r4c4 and 9 from r3c4,r4c4
  7. [2.0] r6c6,r6c7: cage 4/2 at r6c6 can only be 1,3 removes 2 from r6c6,r6c7 and 4 from r6c6,r6c7 and 5 from r6c7 and 6 from r6c7 and 7 from r6c6,r6c7 and 8 from r6c6,r6c7 and 9 from r6c6,r6c7
  8. [2.0] r8c5,r9c5: cage 4/2 at r8c5 can only be 1,3 removes 2 from r8c5,r9c5 and 4 from r8c5,r9c5 and 5 from r8c5,r9c5 and 7 from r8c5,r9c5 and 8 from r8c5,r9c5 and 9 from r8c5,r9c5
  9. [2.4] r1c5,r2c5: combinations of cage 14/2 at r1c5 removes 1 from r1c5,r2c5 and 2 from r1c5,r2c5 and 3 from r1c5,r2c5 and 4 from r1c5,r2c5 and 7 from r1c5,r2c5 and 8 from r1c5,r2c5
 10. [2.4] r1c6,r1c7: combinations of cage 9/2 at r1c6 removes 4 from r1c7 and 9 from r1c6,r1c7
 11. [2.4] r1c8,r1c9: combinations of cage 12/2 at r1c8 removes 1 from r1c8,r1c9 and 2 from r1c8,r1c9 and 6 from r1c8,r1c9
 12. [2.4] r2c3,r3c3: combinations of cage 15/2 at r2c3 removes 1 from r2c3,r3c3 and 2 from r2c3,r3c3 and 3 from r2c3,r3c3 and 4 from r2c3,r3c3 and 5 from r2c3,r3c3
 13. [2.4] r2c8,r3c8: combinations of cage 14/2 at r2c8 removes 1 from r2c8,r3c8 and 2 from r2c8,r3c8 and 3 from r2c8,r3c8 and 4 from r2c8,r3c8 and 7 from r2c8,r3c8
 14. [2.4] r2c9,r3c9: combinations of cage 6/2 at r2c9 removes 3 from r2c9,r3c9 and 6 from r2c9,r3c9 and 7 from r2c9,r3c9 and 8 from r2c9,r3c9 and 9 from r2c9,r3c9
 15. [2.4] r3c5,r4c5: combinations of cage 15/2 at r3c5 removes 1 from r3c5,r4c5 and 2 from r3c5,r4c5 and 3 from r3c5,r4c5 and 4 from r3c5,r4c5 and 5 from r3c5 and 9 from r3c5,r4c5
 16. [2.4] r3c6,r3c7: combinations of cage 9/2 at r3c6 removes 4 from r3c7 and 9 from r3c6,r3c7
 17. [2.4] r4c2,r4c3: combinations of cage 8/2 at r4c2 removes 4 from r4c2,r4c3 and 8 from r4c2,r4c3 and 9 from r4c2,r4c3
 18. [2.4] r4c6,r4c7: combinations of cage 12/2 at r4c6 removes 1 from r4c6,r4c7 and 2 from r4c6,r4c7 and 6 from r4c7 and 7 from r4c7
 19. [2.4] r6c2,r6c3: combinations of cage 15/2 at r6c2 removes 1 from r6c2,r6c3 and 2 from r6c2,r6c3 and 3 from r6c2,r6c3 and 4 from r6c2,r6c3 and 5 from r6c2,r6c3
 20. [2.4] r6c4,r7c4: combinations of cage 13/2 at r6c4 removes 1 from r6c4,r7c4 and 2 from r6c4,r7c4 and 3 from r6c4,r7c4 and 7 from r7c4 and 8 from r7c4
 21. [2.4] r6c5,r7c5: combinations of cage 6/2 at r6c5 removes 1 from r7c5 and 3 from r6c5,r7c5 and 7 from r6c5,r7c5 and 8 from r6c5,r7c5 and 9 from r6c5,r7c5
 22. [2.4] r7c3,r8c3: combinations of cage 7/2 at r7c3 removes 7 from r7c3,r8c3 and 8 from r7c3,r8c3 and 9 from r7c3,r8c3
 23. [2.4] r7c6,r7c7: combinations of cage 13/2 at r7c6 removes 1 from r7c6,r7c7 and 2 from r7c6,r7c7 and 3 from r7c6,r7c7 and 8 from r7c7
 24. [2.4] r7c8,r8c8: combinations of cage 10/2 at r7c8 removes 5 from r7c8,r8c8
 25. [2.4] r7c9,r8c9: combinations of cage 6/2 at r7c9 removes 3 from r7c9,r8c9 and 6 from r7c9,r8c9 and 7 from r7c9,r8c9 and 8 from r7c9,r8c9 and 9 from r7c9,r8c9
 26. [2.4] r8c4,r9c2,r9c3,r9c4: combinations of cage 26/4 at r8c4 removes 1 from r8c4,r9c2,r9c3,r9c4
 27. [2.4] r8c6,r8c7: combinations of cage 15/2 at r8c6 removes 1 from r8c6,r8c7 and 2 from r8c6,r8c7 and 3 from r8c6,r8c7 and 4 from r8c6,r8c7 and 5 from r8c7
 28. [2.4] r9c6,r9c7: combinations of cage 11/2 at r9c6 removes 1 from r9c6,r9c7 and 6 from r9c7
 29. [2.4] r9c8,r9c9: combinations of cage 12/2 at r9c8 removes 1 from r9c8,r9c9 and 2 from r9c8,r9c9 and 6 from r9c8,r9c9
 30. [2.5] r2c1,r2c2,r2c4,r2c5,r3c2: rule of 45: the outies of row 1 make 26 (r2c1,r2c2,r2c4,r2c5,r3c2) removes 1 from r2c4 and 2 from r2c4 and 3 from r2c4 and 4 from r2c4 and 5 from r2c4,r2c5 and 6 from r2c4 and 9 from r2c4
 31. [1.5] r2c9=4: hidden single in row 2
 32. [1.0] r3c9=2: last cell of cage 6/2 at r2c9
 33. [2.1] r1c5=5: every combination of cage 14/2 at r1c5 needs 5, which has one place
 34. [1.0] r2c5=9: last cell of cage 14/2 at r1c5
 35. [2.1] r4c4=2: every combination of cage 3/2 at r3c4 needs 2, which has one place
 36. [1.0] r3c4=1: last cell of cage 3/2 at r3c4
 37. [1.2] r1c6=2: hidden single in box 2
 38. [1.0] r1c7=7: last cell of cage 9/2 at r1c6
 39. [1.2] r2c7=1: hidden single in box 3
 40. [1.0] r2c6=3: last cell of cage 4/2 at r2c6
 41. [1.2] r5c4=3: hidden single in box 5
 42. [1.2] r7c5=2: hidden single in box 8
 43. [1.0] r6c5=4: last cell of cage 6/2 at r6c5
 44. [1.2] r6c6=1: hidden single in box 5
 45. [1.0] r6c7=3: last cell of cage 4/2 at r6c6
 46. [1.5] r3c2=3: hidden single in row 3
 47. [1.2] r4c3=3: hidden single in box 4
 48. [1.0] r4c2=5: last cell of cage 8/2 at r4c2
 49. [1.2] r2c1=5: hidden single in box 1
 50. [1.2] r2c2=2: hidden single in box 1
 51. [1.0] r1c1=1: last cell of cage 11/4 at r1c1
 52. [1.5] r7c8=3: hidden single in row 7
 53. [1.0] r8c8=7: last cell of cage 10/2 at r7c8
 54. [1.2] r1c9=3: hidden single in box 3
 55. [1.0] r1c8=9: last cell of cage 12/2 at r1c8
 56. [1.2] r9c7=2: hidden single in box 9
 57. [1.0] r9c6=9: last cell of cage 11/2 at r9c6
 58. [1.2] r6c4=9: hidden single in box 5
 59. [1.0] r7c4=4: last cell of cage 13/2 at r6c4
 60. [1.2] r3c6=4: hidden single in box 2
 61. [1.0] r3c7=5: last cell of cage 9/2 at r3c6
 62. [1.2] r1c4=6: hidden single in box 2
 63. [1.2] r9c8=4: hidden single in box 9
 64. [1.0] r9c9=8: last cell of cage 12/2 at r9c8
 65. [1.5] r6c8=5: hidden single in column 8
 66. [1.2] r5c8=2: hidden single in box 6
 67. [1.2] r6c1=2: hidden single in box 4
 68. [1.2] r8c3=2: hidden single in box 7
 69. [1.0] r7c3=5: last cell of cage 7/2 at r7c3
 70. [1.2] r8c9=5: hidden single in box 9
 71. [1.0] r7c9=1: last cell of cage 6/2 at r7c9
 72. [1.2] r4c8=1: hidden single in box 6
 73. [1.2] r8c2=1: hidden single in box 7
 74. [1.2] r5c3=1: hidden single in box 4
 75. [1.2] r8c1=4: hidden single in box 7
 76. [1.2] r5c2=4: hidden single in box 4
 77. [1.2] r1c3=4: hidden single in box 1
 78. [1.0] r1c2=8: full house in row 1
 79. [1.0] r2c4=7: last cell of cage 25/4 at r1c2
 80. [1.0] r3c5=8: full house in box 2
 81. [1.0] r4c5=7: last cell of cage 15/2 at r3c5
 82. [1.0] r4c6=8: full house in box 5
 83. [1.0] r4c7=4: last cell of cage 12/2 at r4c6
 84. [1.2] r2c8=8: hidden single in box 3
 85. [1.0] r3c8=6: last cell of cage 14/2 at r2c8
 86. [1.0] r2c3=6: full house in row 2
 87. [1.0] r3c3=9: last cell of cage 15/2 at r2c3
 88. [1.0] r3c1=7: full house in box 1
 89. [1.2] r5c7=8: hidden single in box 6
 90. [1.2] r6c3=8: hidden single in box 4
 91. [1.0] r6c2=7: last cell of cage 15/2 at r6c2
 92. [1.0] r9c3=7: full house in column 3
 93. [1.0] r6c9=6: full house in row 6
 94. [1.2] r4c1=6: hidden single in box 4
 95. [1.0] r5c1=9: full house in box 4
 96. [1.0] r7c1=8: last cell of cage 40/8 at r3c1
 97. [1.0] r9c1=3: full house in column 1
 98. [1.0] r7c2=9: last cell of cage 17/4 at r7c2
 99. [1.0] r9c2=6: full house in box 7
100. [1.0] r4c9=9: full house in row 4
101. [1.0] r5c9=7: last cell of cage 38/7 at r4c8
102. [1.2] r9c5=1: hidden single in box 8
103. [1.0] r8c5=3: last cell of cage 4/2 at r8c5
104. [1.0] r9c4=5: full house in row 9
105. [1.0] r8c4=8: last cell of cage 26/4 at r8c4
106. [1.2] r7c6=7: hidden single in box 8
107. [1.0] r7c7=6: last cell of cage 13/2 at r7c6
108. [1.0] r8c6=6: full house in box 8
109. [1.0] r8c7=9: last cell of cage 15/2 at r8c6
Killer rating 2.5 (hardest: Rule of 45); solved in 109 steps
"#;

#[test]
fn explain_of_a_killer_prints_its_steps_with_the_killer_rating() {
    let w = Workdir::new();
    let out = w.run(&[
        "explain",
        "122212211113213323213121123244123311222244111211312211232313323332121123311123311,112500001409001200000015000004001406400000031509000000000800000012003800000000001100000000001500130604000000001707000013001006000000260415000000000000000011001200",
    ]);
    assert_eq!(out, KILLER_KD_1_1_1);
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
