//! `import`: real corpora in, every line accounted for, re-runs add nothing.

use std::collections::HashMap;

use crate::util::{PUZZLE_ROWS, Workdir, data, line_count, n, sample, solves_classic};

/// (file under tests/data, stored, skipped) for classic corpora of unique puzzles.
const UNIQUE_CORPORA: &[(&str, u64, u64)] = &[
    ("classic/top1465.txt", 1465, 3),
    ("classic/magictour_top95.txt", 95, 1),
    ("classic/magictour_topn234.txt", 234, 0),
    ("classic/forum_hardest_1106.txt", 375, 2),
    ("classic/17clue_royle_first2000.txt", 2000, 4),
    ("classic/emerentius_hard.txt", 20, 0),
    ("classic/kaggle_1m_first10k.csv", 10000, 1),
];

#[test]
fn classic_corpora_import_with_every_line_accounted_for() {
    for &(file, stored, skipped) in UNIQUE_CORPORA {
        let w = Workdir::new();
        let path = data(file);
        let s = w.import(&[&path], &[]);
        let lines = line_count(&std::fs::read(&path).unwrap());
        assert_eq!(n(&s, "lines"), lines, "{file}: {s}");
        assert_eq!(
            n(&s, "stored") + n(&s, "duplicates") + n(&s, "rejected") + n(&s, "skipped"),
            lines,
            "{file}: {s}"
        );
        assert_eq!(
            (n(&s, "stored"), n(&s, "skipped"), n(&s, "rejected")),
            (stored, skipped, 0),
            "{file}: {s}"
        );
        assert_eq!(
            w.count("SELECT count(*) FROM puzzles WHERE solutions = 1 AND type = 'sudoku'"),
            stored as i64
        );
        assert_eq!(
            w.count("SELECT count(*) FROM sources"),
            stored as i64,
            "{file}: one provenance row per line"
        );
        assert_eq!(
            w.count("SELECT count(*) FROM pragma_foreign_key_check"),
            0,
            "{file}: every row's references hold"
        );
    }
}

#[test]
fn every_stored_solution_satisfies_its_puzzle() {
    let w = Workdir::new();
    w.import(
        &[
            &data("classic/top1465.txt"),
            &data("classic/forum_hardest_1106.txt"),
        ],
        &[],
    );
    let db = w.db();
    let mut st = db
        .prepare("SELECT givens, solution, clues FROM puzzles")
        .unwrap();
    let rows: Vec<(String, String, i64)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 1465 + 375);
    for (givens, solution, clues) in rows {
        assert!(solves_classic(&givens, &solution), "{givens} -> {solution}");
        assert_eq!(
            givens.bytes().filter(|&c| c != b'0').count() as i64,
            clues,
            "{givens}"
        );
    }
}

#[test]
fn kaggle_csv_imports_as_is_and_solutions_match_its_solution_column() {
    let w = Workdir::new();
    let path = data("classic/kaggle_1m_first10k.csv");
    let s = w.import(&[&path], &[]);
    assert_eq!((n(&s, "stored"), n(&s, "skipped")), (10000, 1), "{s}");
    let text = std::fs::read_to_string(&path).unwrap();
    let expected: HashMap<&str, &str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(','))
        .collect();
    let db = w.db();
    let mut st = db.prepare("SELECT givens, solution FROM puzzles").unwrap();
    let mut checked = 0;
    for row in st
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .unwrap()
    {
        let (givens, solution) = row.unwrap();
        assert_eq!(
            expected.get(givens.as_str()),
            Some(&solution.as_str()),
            "{givens}"
        );
        checked += 1;
    }
    assert_eq!(checked, 10000);
}

#[test]
fn puzzles_with_several_solutions_are_stored_and_marked() {
    let w = Workdir::new();
    let s = w.import(&[&data("classic/serg_benchmark_multisolution.txt")], &[]);
    // Serg's list holds 6 puzzles twice.
    let got = (
        n(&s, "stored"),
        n(&s, "duplicates"),
        n(&s, "rejected"),
        n(&s, "skipped"),
    );
    assert_eq!(got, (9994, 6, 0, 2), "{s}");
    let marked = "SELECT count(*) FROM puzzles WHERE solutions = 2 AND solution IS NULL";
    assert_eq!(w.count(marked), 9994);
}

#[test]
fn a_second_import_of_the_same_files_stores_nothing_new() {
    let w = Workdir::new();
    let files = [
        data("classic/magictour_top95.txt"),
        sample("bad.txt"),
        data("classic/kaggle_1m_first10k.csv"),
    ];
    let refs: Vec<&std::path::Path> = files.iter().map(|p| p.as_path()).collect();
    let first = w.import(&refs, &[]);
    let snapshot = |w: &Workdir| {
        (
            w.count("SELECT count(*) FROM puzzles"),
            w.count("SELECT count(*) FROM sources"),
            w.count("SELECT count(*) FROM rejects"),
        )
    };
    let before = snapshot(&w);
    // Read again line by line: without --reread the files are skipped unread.
    let second = w.import(&refs, &["--reread"]);
    assert_eq!(n(&second, "stored"), 0, "{second}");
    w.assert_lookup_tables();
    assert_eq!(
        n(&second, "duplicates"),
        n(&first, "stored") + n(&first, "duplicates"),
        "{second}"
    );
    assert_eq!(n(&second, "rejected"), n(&first, "rejected"));
    assert_eq!(
        snapshot(&w),
        before,
        "a re-run adds no puzzle, provenance or reject rows"
    );
    assert_eq!(
        w.count("SELECT count(*) FROM imports WHERE status = 'finished'"),
        2
    );
}

#[test]
fn duplicates_within_one_run_are_counted_and_traced_to_every_line() {
    let w = Workdir::new();
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let zeros = p.replace('.', "0");
    let f = w.write(
        "dups.txt",
        format!("{p}\n{zeros} # same puzzle, 0 for empty\n{p}\n"),
    );
    let s = w.import(&[&f], &[]);
    assert_eq!((n(&s, "stored"), n(&s, "duplicates")), (1, 2), "{s}");
    let lines = w.strings("SELECT group_concat(line) FROM provenance GROUP BY puzzle_id");
    assert_eq!(lines, vec!["1,2,3".to_string()]);
}

#[test]
fn repeats_and_stored_puzzles_among_new_ones_get_the_right_ids() {
    let w = Workdir::new();
    let top = std::fs::read_to_string(data("classic/top1465.txt")).unwrap();
    let puzzles: Vec<String> = top
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .map(|l| l[..81].replace('.', "0"))
        .take(100)
        .collect();
    // Six of them are stored first, so the archive is not empty and most
    // of the file is new: the new-puzzle inserts meet stored keys.
    let old = w.write("old.txt", puzzles[40..46].join("\n"));
    w.import(&[&old], &[]);
    let mut lines = puzzles.clone();
    lines[19] = lines[9].clone(); // a repeat within the first 32 lines
    lines[60] = lines[70].clone(); // a repeat of a later line
    let f = w.write("mixed.txt", lines.join("\n"));
    let s = w.import(&[&f], &[]);
    assert_eq!(
        (n(&s, "stored"), n(&s, "duplicates")),
        (100 - 6 - 2, 6 + 2),
        "{s}"
    );
    // Every line's provenance names its own puzzle.
    assert_eq!(
        w.count("SELECT count(*) FROM provenance WHERE file LIKE '%mixed.txt'"),
        100
    );
    for (i, line) in lines.iter().enumerate() {
        let givens = w.strings(&format!(
            "SELECT p.givens FROM provenance AS v JOIN puzzles AS p ON p.id = v.puzzle_id
             WHERE v.file LIKE '%mixed.txt' AND v.line = {}",
            i + 1
        ));
        assert_eq!(givens, std::slice::from_ref(line), "line {}", i + 1);
    }
    // Puzzles were stored in line order.
    let order = w.strings(
        "SELECT group_concat(v.line) FROM (SELECT min(line) AS line, puzzle_id FROM provenance
         WHERE file LIKE '%mixed.txt' AND puzzle_id > 6 GROUP BY puzzle_id ORDER BY puzzle_id) AS v",
    );
    let expected: Vec<String> = (1..=100)
        .filter(|l| !(41..=46).contains(l) && *l != 20 && *l != 71)
        .map(|l| l.to_string())
        .collect();
    assert_eq!(order, [expected.join(",")]);
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let w = Workdir::new();
    let files = [
        data("classic/top1465.txt"),
        sample("bad.txt"),
        sample("classic.txt"),
    ];
    let dump = |db: &str, jobs: &str| {
        let mut args = vec!["import", "--quiet", "--db", db, "--jobs", jobs];
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        args.extend(names.iter().map(String::as_str));
        w.run(&args);
        let rows = w.strings_in(db, PUZZLE_ROWS);
        let rejects = w.strings_in(
            db,
            "SELECT line || reason || message FROM rejects ORDER BY id",
        );
        (rows, rejects)
    };
    assert_eq!(dump("one.sqlite", "1"), dump("two.sqlite", "2"));
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let w = Workdir::new();
    let mut child = w
        .command(&["import", "--json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input = std::fs::read(data("classic/magictour_top95.txt")).unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), &input).unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(n(&s, "stored"), 95, "{s}");
    assert_eq!(
        w.strings("SELECT DISTINCT file FROM provenance"),
        vec!["-".to_string()]
    );
}

#[test]
fn the_human_summary_names_all_outcomes() {
    let w = Workdir::new();
    let out = w.output(&["import", sample("bad.txt").to_str().unwrap()]);
    assert!(out.status.success(), "rejects are data, not failures");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for word in ["stored", "duplicates", "rejected", "skipped", "puzzles/s"] {
        assert!(stdout.contains(word), "summary lacks {word}:\n{stdout}");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.txt:2: "),
        "rejects are shown with file:line:\n{stderr}"
    );
}

#[test]
fn an_unreadable_input_fails_before_anything_is_written() {
    let w = Workdir::new();
    let out = w.output(&["import", "no-such-file.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no-such-file.txt"), "{stderr}");
    assert!(
        !w.path("puzzles.sqlite").exists(),
        "no archive is created for a failed start"
    );
}

#[test]
fn a_file_that_is_not_an_archive_is_refused_and_left_unchanged() {
    let w = Workdir::new();
    let junk = w.write(
        "puzzles.sqlite",
        b"these are not the bytes of a SQLite database, not at all.\n".repeat(20),
    );
    let before = std::fs::read(&junk).unwrap();
    let out = w.output(&["import", sample("classic.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a sudoku-archive archive"),
        "{out:?}"
    );
    assert_eq!(std::fs::read(&junk).unwrap(), before);
}

#[test]
fn an_archive_from_a_newer_version_is_refused() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt")], &[]);
    w.db().pragma_update(None, "user_version", 999).unwrap();
    for args in [
        vec!["import", sample("classic.txt").to_str().unwrap()],
        vec!["stats"],
    ] {
        let out = w.output(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("schema version 999, newer"),
            "{out:?}"
        );
    }
}

#[test]
fn a_file_that_grew_stores_only_its_new_lines() {
    let w = Workdir::new();
    let lines: Vec<String> = std::fs::read_to_string(data("classic/top1465.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(String::from)
        .collect();
    let f = w.write("growing.txt", lines[..1000].join("\n") + "\n");
    let first = w.import(&[&f], &[]);
    assert_eq!(n(&first, "stored"), 1000);
    w.write("growing.txt", lines.join("\n") + "\n");
    let second = w.import(&[&f], &[]);
    let got = (n(&second, "stored"), n(&second, "duplicates"));
    assert_eq!(got, (465, 1000), "{second}");
    assert_eq!(w.count("SELECT count(*) FROM sources"), 1465);
}

#[test]
fn a_csv_column_can_be_chosen_by_name_or_number() {
    let w = Workdir::new();
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let q = p.replace('4', "0");
    let f = w.write("two.csv", format!("first,second\n{p},{q}\n"));
    let by_name = w.import(&[&f], &["--column", "second", "--db", "name.sqlite"]);
    let by_number = w.import(&[&f], &["--column", "2", "--db", "number.sqlite"]);
    let default = w.import(&[&f], &["--db", "default.sqlite"]);
    for (s, db, want) in [
        (by_name, "name", &q),
        (by_number, "number", &q),
        (default, "default", &p.replace('.', "0")),
    ] {
        assert_eq!((n(&s, "stored"), n(&s, "skipped")), (1, 1), "{db}: {s}");
        let conn = rusqlite::Connection::open(w.path(&format!("{db}.sqlite"))).unwrap();
        let givens: String = conn
            .query_row("SELECT givens FROM puzzles", [], |r| r.get(0))
            .unwrap();
        assert_eq!(&givens, &want.replace('.', "0"), "{db}");
    }
    let out = w.output(&["import", "--column", "third", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("\"third\" is not in the header"),
        "{out:?}"
    );
}

#[test]
fn a_puzzle_whose_key_another_holds_is_stored_under_the_next_key_never_merged() {
    let w = Workdir::new();
    let top = std::fs::read_to_string(data("classic/magictour_top95.txt")).unwrap();
    let lines: Vec<&str> = top.lines().filter(|l| l.len() >= 81).take(40).collect();
    let f = w.write("top.txt", lines.join("\n"));
    w.import(&[&f], &[]);
    // Forge a collision: the stored puzzle of line 5 now has other givens
    // under its key, as if another puzzle had the same 64-bit hash.
    let forged = "1".repeat(81);
    let key_of_line_5 =
        "SELECT key FROM puzzles WHERE id = (SELECT puzzle_id FROM sources WHERE line = 5)";
    let key = w.count(key_of_line_5);
    w.db()
        .execute(
            "UPDATE puzzles SET givens = ?1 WHERE key = ?2",
            rusqlite::params![&forged, key],
        )
        .unwrap();
    let again = w.import(&[&f], &["--reread"]);
    assert_eq!(
        (
            n(&again, "stored"),
            n(&again, "duplicates"),
            n(&again, "rejected")
        ),
        (1, 39, 0),
        "{again}"
    );
    // Line 5's puzzle is stored again, under the next key; nothing is
    // merged. The forged puzzle, which no line holds any more, is then
    // taken out, and line 5's puzzle moves back into the key it freed.
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 40);
    assert_eq!(
        w.count(&format!(
            "SELECT count(*) FROM puzzles WHERE givens = '{forged}'"
        )),
        0
    );
    let line_5 = lines[4]
        .chars()
        .take(81)
        .map(|c| if c == '.' { '0' } else { c });
    let line_5: String = line_5.collect();
    assert_eq!(
        w.count(&format!(
            "SELECT key FROM puzzles WHERE givens = '{line_5}'"
        )),
        key
    );
    w.assert_lookup_tables();
    // A third run finds it there, through the workers' lookups and the
    // writer's alike: every line a duplicate.
    for args in [&["--reread"][..], &["--reread", "--jobs", "1"][..]] {
        let third = w.import(&[&f], args);
        assert_eq!(
            (n(&third, "stored"), n(&third, "duplicates")),
            (0, 40),
            "{third}"
        );
    }
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 40);
}
