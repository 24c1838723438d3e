//! `export`: stored puzzles back out, filtered, in each form.

use crate::util::{Workdir, data, sample};

#[test]
fn export_prints_givens_packed_and_urls_that_import_back_to_the_same_puzzles() {
    let w = Workdir::new();
    w.import(&[&data("classic/magictour_top95.txt")], &[]);
    let givens = w.run(&["export"]);
    assert_eq!(givens.lines().count(), 95);
    assert!(givens.lines().all(|l| l.len() == 81));
    for form in ["packed", "url"] {
        let text = w.run(&["export", "--form", form]);
        assert_eq!(text.lines().count(), 95, "{form}");
        let f = w.write(&format!("{form}.txt"), &text);
        let again = w.import(&[&f], &["--db", &format!("{form}.sqlite")]);
        assert_eq!(
            again["stored"], 95,
            "{form} export re-imports as the same 95 puzzles"
        );
        let back = w.strings_in(
            &format!("{form}.sqlite"),
            "SELECT givens FROM puzzles ORDER BY id",
        );
        assert_eq!(back.join("\n") + "\n", givens, "{form}");
    }
    let urls = w.run(&["export", "--form", "url"]);
    assert!(
        urls.starts_with("https://www.sudokuwiki.org/sudoku.htm?bd="),
        "{urls}"
    );
}

#[test]
fn export_filters_by_clues_and_solutions() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt"), &sample("bad.txt")], &[]);
    let seventeen = w.run(&["export", "--clues", "17"]);
    assert_eq!(
        seventeen.lines().count() as i64,
        w.count("SELECT count(*) FROM puzzles WHERE clues = 17")
    );
    assert!(seventeen.lines().count() >= 5);
    let multi = w.run(&["export", "--solutions", "2"]);
    assert_eq!(multi.lines().count(), 2);
    let range = w.run(&[
        "export",
        "--type",
        "sudoku",
        "--min-clues",
        "20",
        "--max-clues",
        "30",
    ]);
    assert_eq!(
        range.lines().count() as i64,
        w.count("SELECT count(*) FROM puzzles WHERE clues BETWEEN 20 AND 30")
    );
}

#[test]
fn export_without_an_archive_says_so() {
    let w = Workdir::new();
    let out = w.output(&["export"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no archive there"),
        "{out:?}"
    );
    assert!(!w.path("puzzles.sqlite").exists());
}
