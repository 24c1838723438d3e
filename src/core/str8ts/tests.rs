//! Tests of the str8ts module as a whole: the real puzzles from tests/data,
//! rejection tables, round trips and the bit order of the packed form.

use super::*;

const REAL_LEGACY: &str = include_str!("../../../tests/data/str8ts/real_legacy.txt");

/// The block files, as `(file name, text)`.
const BLOCK_FILES: [(&str, &str); 7] = [
    (
        "osmith93_board01.txt",
        include_str!("../../../tests/data/str8ts/osmith93_board01.txt"),
    ),
    (
        "osmith93_board02.txt",
        include_str!("../../../tests/data/str8ts/osmith93_board02.txt"),
    ),
    (
        "osmith93_board03.txt",
        include_str!("../../../tests/data/str8ts/osmith93_board03.txt"),
    ),
    (
        "osmith93_board04_hard.txt",
        include_str!("../../../tests/data/str8ts/osmith93_board04_hard.txt"),
    ),
    (
        "osmith93_board05_extreme.txt",
        include_str!("../../../tests/data/str8ts/osmith93_board05_extreme.txt"),
    ),
    (
        "osmith93_board06_extreme.txt",
        include_str!("../../../tests/data/str8ts/osmith93_board06_extreme.txt"),
    ),
    (
        "malkuh_example_str8ts_com_2016-02-09.txt",
        include_str!("../../../tests/data/str8ts/malkuh_example_str8ts_com_2016-02-09.txt"),
    ),
];

/// Converts one block file to the legacy form, independently of the module.
fn block_to_legacy(name: &str, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let (mut digits, mut colours) = (String::new(), String::new());
    if name.starts_with("osmith93") {
        // 9 mask lines (`x` black), a blank line, 9 digit lines (`.` empty).
        assert_eq!(lines[9], "", "{name}");
        for (mask, row) in lines[..9].iter().zip(&lines[10..19]) {
            assert_eq!((mask.len(), row.len()), (9, 9), "{name}");
            colours.extend(mask.chars().map(|c| if c == 'x' { '1' } else { '0' }));
            digits.extend(row.chars().map(|c| if c == '.' { '0' } else { c }));
        }
    } else {
        // `.` empty white, `#` empty black, `1`-`9` white given, `a`-`i` black given.
        for row in &lines[..9] {
            assert_eq!(row.len(), 9, "{name}");
            for c in row.chars() {
                let (d, black) = match c {
                    '.' => ('0', false),
                    '#' => ('0', true),
                    '1'..='9' => (c, false),
                    'a'..='i' => (char::from(b'1' + (c as u8 - b'a')), true),
                    _ => panic!("{name}: unexpected {c:?}"),
                };
                digits.push(d);
                colours.push(if black { '1' } else { '0' });
            }
        }
    }
    digits + &colours
}

/// The lines of real_legacy.txt as `(legacy string, source file)`.
fn real_puzzles() -> Vec<(&'static str, &'static str)> {
    REAL_LEGACY
        .lines()
        .map(|l| {
            let (s, rest) = l.split_once(' ').unwrap_or((l, ""));
            (s, rest.trim_start_matches(" ").trim_start_matches("# "))
        })
        .collect()
}

/// An independent check that an 81-character solution solves the givens:
/// digits in every white cell, black cells as given, no digit twice in a row
/// or column, every white run a straight.
fn check_solution(legacy: &str, solution: &str) -> Result<(), String> {
    let g = legacy.as_bytes();
    let s = solution.as_bytes();
    if s.len() != 81 {
        return Err(format!("length {}", s.len()));
    }
    let black = |i: usize| g[81 + i] == b'1';
    for i in 0..81 {
        if black(i) && s[i] != g[i] {
            return Err(format!("black cell {i} changed"));
        }
        if !black(i) && !(b'1'..=b'9').contains(&s[i]) {
            return Err(format!("white cell {i} empty"));
        }
        if g[i] != b'0' && s[i] != g[i] {
            return Err(format!("given {i} changed"));
        }
    }
    for line in 0..9 {
        for idx in [
            (0..9).map(|k| line * 9 + k).collect::<Vec<_>>(),
            (0..9).map(|k| k * 9 + line).collect::<Vec<_>>(),
        ] {
            let placed: Vec<u8> = idx.iter().map(|&i| s[i]).filter(|&c| c != b'0').collect();
            let mut dedup = placed.clone();
            dedup.sort_unstable();
            dedup.dedup();
            if dedup.len() != placed.len() {
                return Err(format!("duplicate along {idx:?}"));
            }
            for run in idx.split(|&i| black(i)).filter(|r| !r.is_empty()) {
                let mut ds: Vec<u8> = run.iter().map(|&i| s[i]).collect();
                ds.sort_unstable();
                if ds.windows(2).any(|w| w[1] != w[0] + 1) {
                    return Err(format!("run {run:?} holds {ds:?}, not a straight"));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn real_legacy_txt_is_the_block_files_converted() {
    let real = real_puzzles();
    assert_eq!(real.len(), 7);
    for ((name, text), (legacy, source)) in BLOCK_FILES.iter().zip(&real) {
        assert_eq!(source, name);
        assert_eq!(&block_to_legacy(name, text), legacy, "{name}");
        assert!(looks_like_legacy(legacy), "{name}");
    }
}

/// The board with cell `i` set as a white given `d` (legacy form).
fn with_given(legacy: &str, i: usize, d: u8) -> String {
    let mut b = legacy.as_bytes().to_vec();
    b[i] = b'0' + d;
    String::from_utf8(b).unwrap_or_default()
}

/// Some solution of a solvable puzzle, found by fixing one white cell at a
/// time to the first digit that leaves a solution.
fn some_solution(legacy: &str) -> Option<String> {
    let mut current = legacy.to_owned();
    loop {
        let a = analyse(&current).ok()?;
        match a.status {
            Status::Unique(sol) => return Some(sol),
            Status::Multiple => {}
            _ => return None,
        }
        let b = current.as_bytes();
        let i = (0..81).find(|&i| b[i] == b'0' && b[81 + i] == b'0')?;
        current = (1..=9)
            .map(|d| with_given(&current, i, d))
            .find(|next| analyse(next).is_ok_and(|a| a.status.count() > 0))?;
    }
}

/// Two different solutions of a puzzle the solver calls multiple.
fn two_solutions(legacy: &str) -> Option<(String, String)> {
    let first = some_solution(legacy)?;
    let f = first.as_bytes();
    let b = legacy.as_bytes();
    for i in (0..81).filter(|&i| b[i] == b'0' && b[81 + i] == b'0') {
        for d in (1..=9).filter(|&d| b'0' + d != f[i]) {
            if let Some(second) = some_solution(&with_given(legacy, i, d)) {
                return Some((first, second));
            }
        }
    }
    None
}

#[test]
fn every_real_puzzle_reads_and_solves_as_expected_with_solutions_that_check() {
    // osmith93 boards 02 and 03 hold two givens and one: they are not puzzles
    // with one answer (they share board 01's black pattern, which needs its
    // 15 givens to be unique).
    for (legacy, source) in real_puzzles() {
        let a = analyse(legacy).unwrap_or_else(|e| panic!("{source}: {e}"));
        assert_eq!(a.givens, legacy, "{source}");
        let expect_unique = !matches!(source, "osmith93_board02.txt" | "osmith93_board03.txt");
        match (&a.status, expect_unique) {
            (Status::Unique(sol), true) => {
                check_solution(legacy, sol).unwrap_or_else(|e| panic!("{source}: {e}\n{sol}"));
            }
            (Status::Multiple, false) => {
                let (one, two) =
                    two_solutions(legacy).unwrap_or_else(|| panic!("{source}: no two solutions"));
                assert_ne!(one, two, "{source}");
                check_solution(legacy, &one).unwrap_or_else(|e| panic!("{source}: {e}\n{one}"));
                check_solution(legacy, &two).unwrap_or_else(|e| panic!("{source}: {e}\n{two}"));
            }
            (status, _) => panic!("{source}: {status:?}"),
        }
    }
}
