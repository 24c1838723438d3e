//! The Str8ts logical solver checked against the fast solver on every
//! corpus board and on boards made from them by giving more of their
//! solution: no step may place a wrong digit or remove a solution's
//! candidate.

use crate::core::logic::rate::{Budget, Outcome};
use crate::core::logic::step::tenths;
use crate::core::str8ts::{Solutions, Str8ts, solve as count};

use super::{Solution, solve};

const REAL: &str = include_str!("../../../../tests/data/str8ts/real_legacy.txt");

/// `(legacy string, source)` of every corpus board.
fn boards() -> Vec<(&'static str, &'static str)> {
    REAL.lines().filter_map(|l| l.split_once(" # ")).collect()
}

/// The unique solution's digits, one a cell (black cells their clue or 0).
fn solution_of(board: &Str8ts) -> Option<Vec<u8>> {
    match count(board) {
        Solutions::Unique(b) => Some(b.digits().bytes().map(|b| b - b'0').collect()),
        _ => None,
    }
}

fn check_against(name: &str, sol: &Solution, solution: &[u8]) {
    for (n, step) in sol.steps.iter().enumerate() {
        if let Some((c, d)) = step.place {
            assert_eq!(
                solution[usize::from(c)],
                d,
                "{name}: step {} places a wrong digit: {step}",
                n + 1
            );
        }
        for &(c, d) in &step.eliminate {
            assert_ne!(
                solution[usize::from(c)],
                d,
                "{name}: step {} removes the solution's digit: {step}",
                n + 1
            );
        }
    }
    assert_ne!(
        sol.outcome,
        Outcome::Invalid,
        "{name}: the steps broke the position"
    );
    if sol.outcome == Outcome::Solved {
        assert_eq!(&sol.marks.values()[..], solution, "{name}");
    }
}

#[test]
fn no_step_on_a_corpus_board_places_a_wrong_digit_or_removes_a_solutions_candidate() {
    let mut unique = 0;
    for (legacy, name) in boards() {
        let board = Str8ts::from_legacy(legacy).unwrap_or_else(|e| panic!("{name}: {e}"));
        let Some(solution) = solution_of(&board) else {
            continue;
        };
        unique += 1;
        let sol = solve(&board, Budget::default());
        check_against(name, &sol, &solution);
    }
    assert_eq!(
        unique, 5,
        "boards 02 and 03 have more than one solution, the others one"
    );
}

/// Deterministic pseudo-random numbers (xorshift), so a failure repeats.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn no_step_on_boards_given_more_of_their_solution_goes_wrong_either() {
    let mut state = 0x5eed_u64;
    let mut checked = 0;
    for (legacy, name) in boards() {
        let board = Str8ts::from_legacy(legacy).unwrap_or_else(|e| panic!("{name}: {e}"));
        let Some(solution) = solution_of(&board) else {
            continue;
        };
        for round in 0..12 {
            let mut s = legacy.as_bytes().to_vec();
            let extra = 2 + round * 2;
            for _ in 0..extra {
                let i = (next(&mut state) % 81) as usize;
                if s[81 + i] == b'0' {
                    s[i] = b'0' + solution[i];
                }
            }
            let s = String::from_utf8(s).unwrap_or_default();
            let b = Str8ts::from_legacy(&s).unwrap_or_else(|e| panic!("{name} + {extra}: {e}"));
            let sol = solve(&b, Budget::default());
            check_against(&format!("{name} + {extra} givens: {s}"), &sol, &solution);
            checked += 1;
        }
    }
    assert_eq!(checked, 60);
}

#[test]
fn a_board_whose_givens_clash_is_invalid_with_no_steps() {
    // Two 5s in row 1 of board 01.
    let (legacy, _) = boards()[0];
    let mut s = legacy.as_bytes().to_vec();
    s[3] = b'5';
    let s = String::from_utf8(s).unwrap_or_default();
    let Ok(b) = Str8ts::from_legacy(&s) else {
        return;
    };
    let sol = solve(&b, Budget::default());
    assert_eq!(sol.outcome, Outcome::Invalid);
    assert!(sol.steps.is_empty());
}

/// The ratings of the corpus, printed: `cargo test --lib
/// logic::str8ts::tests::corpus_ratings -- --ignored --nocapture`.
#[test]
#[ignore]
fn corpus_ratings() {
    for (legacy, name) in boards() {
        let Ok(board) = Str8ts::from_legacy(legacy) else {
            continue;
        };
        let sol = solve(&board, Budget::default());
        let hardest = sol
            .steps
            .iter()
            .max_by_key(|s| s.rating)
            .map_or("-", |s| s.technique);
        println!(
            "{name}: {}{} ({:?}, {} steps, hardest {hardest})",
            if sol.rating.bound { "at least " } else { "" },
            tenths(sol.rating.er),
            sol.outcome,
            sol.steps.len()
        );
    }
}

/// The rating of a corpus board, and whether it is a bound.
fn rating_of(source: &str) -> (u16, bool) {
    let (legacy, _) = boards()
        .into_iter()
        .find(|b| b.1 == source)
        .unwrap_or_else(|| panic!("{source} is in real_legacy.txt"));
    let board = Str8ts::from_legacy(legacy).unwrap_or_else(|e| panic!("{source}: {e}"));
    let sol = solve(&board, Budget::default());
    (sol.rating.er, sol.rating.bound)
}

#[test]
fn the_boards_osmith93_calls_hard_or_extreme_rate_above_its_unlabelled_one() {
    // osmith93 is the one source that names levels (in its file names);
    // its boards 02 and 03 have more than one solution and get none.
    let plain = rating_of("osmith93_board01.txt");
    let hard = rating_of("osmith93_board04_hard.txt");
    let extreme = [
        rating_of("osmith93_board05_extreme.txt"),
        rating_of("osmith93_board06_extreme.txt"),
    ];
    assert!(!plain.1 && !hard.1, "{plain:?} {hard:?}");
    assert!(hard.0 > plain.0, "hard {hard:?} against {plain:?}");
    for e in extreme {
        assert!(e.0 > hard.0, "extreme {e:?} against hard {hard:?}");
    }
}

/// Puzzles a second on one core over the five unique corpus boards,
/// printed: `cargo test --release --lib
/// logic::str8ts::tests::puzzles_a_second -- --ignored --nocapture`.
#[test]
#[ignore]
fn puzzles_a_second() {
    let boards: Vec<(Str8ts, &str)> = boards()
        .into_iter()
        .filter_map(|(l, name)| Str8ts::from_legacy(l).ok().map(|b| (b, name)))
        .filter(|b| solution_of(&b.0).is_some())
        .collect();
    let rounds: u32 = 20;
    for (b, name) in &boards {
        let start = std::time::Instant::now();
        for _ in 0..rounds {
            solve(b, Budget::default());
        }
        let per = start.elapsed().as_secs_f64() / f64::from(rounds);
        println!("{name}: {:.1} ms", per * 1000.0);
    }
    let start = std::time::Instant::now();
    let mut steps = 0;
    for _ in 0..rounds {
        for (b, _) in &boards {
            steps += solve(b, Budget::default()).steps.len();
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = rounds as usize * boards.len();
    println!(
        "{n} solves ({steps} steps) in {secs:.2} s: {:.1} puzzles/s",
        n as f64 / secs
    );
}
