//! Str8ts through the whole pipeline.

use crate::util::{Workdir, data, n, sample};

/// Independent check of a Str8ts solution against its legacy puzzle: givens
/// kept, every white cell filled, no digit twice in a row or column (black
/// digits count), and every white run a straight.
fn solves_str8ts(puzzle: &str, solution: &str) -> bool {
    let (d, c) = puzzle.as_bytes().split_at(81);
    let s = solution.as_bytes();
    let ok_cells = (0..81).all(|i| match (c[i], d[i]) {
        (b'1', b'0') => s[i] == b'0',
        (_, b'0') => (b'1'..=b'9').contains(&s[i]),
        (_, g) => s[i] == g,
    });
    let lines = (0..9).flat_map(|k| {
        [
            (0..9).map(|j| k * 9 + j).collect::<Vec<_>>(),
            (0..9).map(|j| j * 9 + k).collect::<Vec<_>>(),
        ]
    });
    ok_cells
        && lines.into_iter().all(|line| {
            let digits: Vec<u8> = line.iter().map(|&i| s[i]).filter(|&x| x != b'0').collect();
            let mut uniq = digits.clone();
            uniq.sort_unstable();
            uniq.dedup();
            let runs_ok = line.split(|&i| c[i] == b'1').all(|run| {
                let mut v: Vec<u8> = run.iter().map(|&i| s[i]).collect();
                v.sort_unstable();
                v.windows(2).all(|w| w[1] == w[0] + 1)
            });
            uniq.len() == digits.len() && runs_ok
        })
}

#[test]
fn real_str8ts_puzzles_import_and_unique_solutions_satisfy_every_compartment() {
    let w = Workdir::new();
    let s = w.import(&[&data("str8ts/real_legacy.txt")], &[]);
    assert_eq!(n(&s, "stored"), 7, "{s}");
    let db = w.db();
    let mut st = db
        .prepare("SELECT givens, solutions, solution, clues FROM puzzles ORDER BY id")
        .unwrap();
    let rows: Vec<(String, i64, Option<String>, i64)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let counts: Vec<i64> = rows.iter().map(|r| r.1).collect();
    // osmith93 boards 02 and 03 carry 2 and 1 givens: not proper puzzles.
    assert_eq!(counts, [1, 2, 2, 1, 1, 1, 1]);
    for (givens, _, solution, clues) in &rows {
        assert_eq!(givens.len(), 162);
        assert_eq!(
            *clues,
            givens[..81].bytes().filter(|&c| c != b'0').count() as i64
        );
        if let Some(sol) = solution {
            assert!(solves_str8ts(givens, sol), "{givens} -> {sol}");
        }
    }
    let encodings = w.strings("SELECT encoding FROM puzzles");
    assert!(encodings.iter().all(|e| e.len() == 243));
}

#[test]
fn the_str8ts_sample_accounts_for_packed_and_url_copies_and_bad_lines() {
    let w = Workdir::new();
    let s = w.import(&[&sample("str8ts.txt")], &[]);
    let got = (
        n(&s, "stored"),
        n(&s, "duplicates"),
        n(&s, "rejected"),
        n(&s, "skipped"),
    );
    assert_eq!(got, (7, 2, 4, 6), "{s}");
    let reasons = w.strings("SELECT reason FROM rejects ORDER BY line");
    assert_eq!(
        reasons,
        ["black-cell", "straight", "repeated-digit", "clue-flag"]
    );
}

#[test]
fn stored_str8ts_export_and_reimport_as_the_same_puzzles() {
    let w = Workdir::new();
    w.import(&[&data("str8ts/real_legacy.txt")], &[]);
    for form in ["81", "packed", "url"] {
        let text = w.run(&["export", "--type", "str8ts", "--form", form]);
        let f = w.write("out.txt", &text);
        let s = w.import(&[&f], &[]);
        assert_eq!(
            (n(&s, "stored"), n(&s, "duplicates")),
            (0, 7),
            "{form}: {s}"
        );
    }
}
