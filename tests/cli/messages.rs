//! What a user sees when the command line or the input is not what they
//! meant (issue 39): a binary input refused before anything is written,
//! a filter naming nothing, the solution column told from the puzzle
//! column, and messages that say exactly what they count.

use crate::util::{Workdir, n, sample};

/// stderr as text.
fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn an_archive_imported_without_db_is_refused_before_anything_is_written() {
    let w = Workdir::new();
    w.run(&[
        "import",
        "--quiet",
        "--db",
        "real.sqlite",
        sample("classic.txt").to_str().unwrap(),
    ]);
    let out = w.output(&["import", "real.sqlite"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "sudoku-archive: real.sqlite: an SQLite database, not puzzle text; to import into that \
         archive, name it with --db real.sqlite; to add its puzzles to another, merge --db OTHER \
         real.sqlite\n"
    );
    assert!(!w.path("puzzles.sqlite").exists(), "no archive was made");
    // Any plainly binary file named is refused too; one found in a folder
    // is left out (tests/cli/folder_entries.rs).
    w.write("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    let out = w.output(&["check", "logo.png"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "sudoku-archive: logo.png: binary data, not puzzle text (a NUL byte at offset 8)\n"
    );
}

#[test]
fn an_export_filter_that_names_nothing_says_so_instead_of_printing_nothing() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt")], &[]);
    let out = w.output(&["export", "--source", "nothere.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out),
        "sudoku-archive: --source nothere.csv: puzzles.sqlite has no file read under that name \
         (`sqlite3 puzzles.sqlite 'SELECT path FROM files'` lists them)\n"
    );
    let out = w.output(&["export", "--import", "99"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "sudoku-archive: --import 99: puzzles.sqlite has no import 99 (its only import is 1)\n"
    );
    // What exists still exports, by either spelling of the file.
    let classic = sample("classic.txt");
    let by_real = w.run(&[
        "export",
        "--source",
        classic.to_str().unwrap(),
        "--import",
        "1",
    ]);
    assert!(by_real.lines().count() > 10, "{by_real}");
}

/// The Kaggle sample's first `n` records as `solution,puzzle`, headerless.
fn solution_first(n: usize, sep: &str) -> String {
    std::fs::read_to_string(sample("kaggle_first50.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .take(n)
        .map(|l| {
            let (quiz, solution) = l.split_once(',').unwrap();
            format!("{solution}{sep}{quiz}\n")
        })
        .collect()
}

#[test]
fn a_headerless_solution_then_puzzle_file_stores_the_puzzles_and_says_which_field() {
    let w = Workdir::new();
    let csv = w.write("sp.csv", solution_first(5, ","));
    let txt = w.write("sp.txt", solution_first(5, " "));
    let out = w.run(&["import", csv.to_str().unwrap(), txt.to_str().unwrap()]);
    assert_eq!(w.count("SELECT count(*) FROM puzzles WHERE clues = 81"), 0);
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 5);
    let read_as: Vec<&str> = out.lines().skip(2).take(2).collect();
    assert_eq!(
        read_as,
        [
            format!(
                "    {}: one string per line, field 2 of ','-separated (field 1 holds its solution)",
                csv.display()
            ),
            format!(
                "    {}: one string per line, field 2 of space-separated (field 1 holds its solution)",
                txt.display()
            ),
        ]
    );
    // Two puzzles side by side, neither the other's solution: the first is
    // taken, and the summary says so.
    let quizzes: Vec<String> = solution_first(2, ",")
        .lines()
        .map(|l| l.split_once(',').unwrap().1.to_string())
        .collect();
    let two = w.write("two.csv", format!("{},{}\n", quizzes[0], quizzes[1]));
    let out = w.run(&["check", two.to_str().unwrap()]);
    assert!(out.is_empty());
    let err = stderr(&w.output(&["check", two.to_str().unwrap()]));
    assert!(
        err.contains(&format!(
            "read as: {}: one string per line, field 1 of ','-separated (the first of fields 1 and 2 \
             shaped like puzzles, none of them the other's solution: --column chooses)\n",
            two.display()
        )),
        "{err}"
    );
}

const P: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

#[test]
fn a_digit_twice_in_a_house_is_a_repeated_digit_not_a_duplicate() {
    let w = Workdir::new();
    w.import(&[&sample("bad.txt")], &[]);
    let reasons = w.strings("SELECT DISTINCT reason FROM rejects ORDER BY reason");
    assert!(
        reasons.contains(&"repeated-digit".to_string()),
        "{reasons:?}"
    );
    assert!(!reasons.contains(&"duplicate".to_string()), "{reasons:?}");
    // (An archive written before has its `duplicate` rows renamed by
    // migration 0014: nightly_archive tests that.)
    let stats = w.run(&["stats"]);
    assert!(
        stats.contains("  repeated-digit                  4\n"),
        "{stats}"
    );
    assert!(!stats.contains("duplicate "), "{stats}");
}

#[test]
fn lengths_are_counted_in_characters_and_say_what_else_they_are() {
    let w = Workdir::new();
    let wide = format!("{}\u{ff11}{}", &P[..4], &P[5..]);
    let pencil = "123456789".repeat(81);
    w.write("wide.txt", format!("{wide}\n"));
    w.write("pm.txt", format!("{pencil}\n{pencil}\n"));
    let out = w.output(&["check", "wide.txt", "pm.txt"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "wide.txt:1: unrecognised puzzle string: 81 characters ('１' at character 5 is not ASCII); \
         expected 81 or 162 (sudoku), 81,162 or 162,162 (killer), 162 or 243 (str8ts)\n\
         pm.txt:1: unrecognised puzzle string: 729 characters (the length of pencilmarks, 9 \
         candidates for each of 81 cells, which are not a puzzle form this tool reads); expected \
         81 or 162 (sudoku), 81,162 or 162,162 (killer), 162 or 243 (str8ts)\n\
         pm.txt:2: unrecognised puzzle string: 729 characters (the length of pencilmarks, 9 \
         candidates for each of 81 cells, which are not a puzzle form this tool reads); expected \
         81 or 162 (sudoku), 81,162 or 162,162 (killer), 162 or 243 (str8ts)\n"
    );
    let err = stderr(&out);
    assert!(
        err.contains(
            "warning: pm.txt: all 2 lines rejected (read as one string per line; its first long \
             line is 729 characters, the length of pencilmarks (9 candidates for each of 81 \
             cells), none shaped like a puzzle string); pencilmarks are not a form this tool \
             reads: the givens are, 81 characters a puzzle\n"
        ),
        "{err}"
    );
    assert!(
        err.contains("read as: wide.txt: one string per line; its first long line is 81 characters (83 bytes), none"),
        "{err}"
    );
}

#[test]
fn the_dos_end_of_file_byte_is_skipped_not_rejected() {
    let w = Workdir::new();
    let f = w.write("top95.txt", format!("{P}\r\n{P}\r\n\x1a"));
    let s = w.import(&[&f], &[]);
    assert_eq!((n(&s, "rejected"), n(&s, "skipped")), (0, 1), "{s}");
}

#[test]
fn a_share_over_max_rejects_is_printed_with_the_digits_that_show_it() {
    let w = Workdir::new();
    let f = w.write("x.txt", format!("{}bad\n", format!("{P}\n").repeat(2361)));
    let out = w.output(&[
        "import",
        "--quiet",
        "--max-rejects",
        "0.01%",
        f.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.ends_with(
            "sudoku-archive: 1 of 2,362 lines rejected (0.042%), more than --max-rejects 0.01% allows\n"
        ),
        "{err}"
    );
}

#[test]
fn merging_one_archive_says_one_archive() {
    let w = Workdir::new();
    w.run(&[
        "import",
        "--db",
        "a.sqlite",
        sample("classic.txt").to_str().unwrap(),
    ]);
    let out = w.run(&["merge", "--db", "all.sqlite", "a.sqlite"]);
    assert_eq!(
        out.lines().next(),
        Some("merged 1 archive into all.sqlite (run 1)")
    );
}

#[test]
fn puzzles_per_second_counts_puzzles_not_lines() {
    let w = Workdir::new();
    let f = w.write("mixed.txt", format!("{P}\nbad\nbad\n"));
    let s = w.import(&[&f], &[]);
    let per = |k: &str| s[k].as_f64().unwrap();
    // One puzzle of three lines, in the same time.
    let ratio = per("lines_per_second") / per("puzzles_per_second");
    assert!((ratio - 3.0).abs() < 1e-6, "{s}");
}

/// stderr's progress lines of `args`, run with the bar's messages as lines.
fn progress_lines(w: &Workdir, args: &[&str]) -> Vec<String> {
    let out = w
        .command(args)
        .env("SUDOKU_ARCHIVE_PROGRESS", "lines")
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    stderr(&out)
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn check_and_merge_show_their_progress_and_quiet_hides_it() {
    let w = Workdir::new();
    let classic = sample("classic.txt");
    let classic = classic.to_str().unwrap();
    let check = progress_lines(&w, &["check", classic]);
    let last = check.last().expect("check shows progress");
    let rate = last
        .strip_prefix("progress: 30 lines, 22 puzzles, ")
        .and_then(|r| r.strip_suffix(" puzzles/s"))
        .unwrap_or_else(|| panic!("{last}"));
    assert_ne!(rate, "0", "{last}");
    assert!(progress_lines(&w, &["check", "--quiet", classic]).is_empty());
    w.run(&["import", "--db", "a.sqlite", classic]);
    let merge = progress_lines(&w, &["merge", "--db", "all.sqlite", "a.sqlite"]);
    assert_eq!(
        [merge.first(), merge.last()],
        [
            Some(&"progress: merging a.sqlite (1 of 1)".to_string()),
            Some(&"progress: merging a.sqlite (1 of 1): 20 rows, 20 stored".to_string())
        ]
    );
    assert!(progress_lines(&w, &["merge", "--quiet", "--db", "b.sqlite", "a.sqlite"]).is_empty());
    // Not on a terminal, and not asked for lines: nothing on stderr.
    let out = w.output(&["merge", "--db", "c.sqlite", "a.sqlite"]);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}
