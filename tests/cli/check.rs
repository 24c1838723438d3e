//! `check`: the pipeline without an archive.

use crate::util::{Workdir, data, sample};

#[test]
fn check_prints_file_and_line_of_each_reject_and_exits_1() {
    let w = Workdir::new();
    let out = w.output(&["check", "--quiet", sample("bad.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap_or_default();
    let expected = "bad.txt:2: unrecognised puzzle string: 73 characters; expected 81 or 162";
    assert!(first.contains(expected), "{stdout}");
    assert!(
        first.contains("(sudoku)"),
        "the length message names what was expected: {first}"
    );
    assert!(
        !w.path("puzzles.sqlite").exists(),
        "check writes no archive"
    );
}

#[test]
fn check_of_a_clean_corpus_exits_0_and_prints_no_rejects() {
    let w = Workdir::new();
    let out = w.output(&["check", data("classic/top1465.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("1,465 valid"),
        "{out:?}"
    );
}
