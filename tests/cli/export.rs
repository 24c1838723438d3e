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
    w.assert_lookup_tables();
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
    w.assert_lookup_tables();
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

/// Every column, in every format, parsed back by a real parser: the csv
/// crate for CSV and TSV, serde_json for NDJSON.
#[test]
fn export_formats_parse_back_to_the_archive_rows_in_first_seen_order() {
    let w = Workdir::new();
    w.import(
        &[
            &sample("classic.txt"),
            &sample("killer.txt"),
            &sample("str8ts.txt"),
        ],
        &[],
    );
    let columns =
        "id,type,clues,givens,solutions,solution,canonical,import,file,line,sources,81,packed,url";
    let expected: Vec<Vec<String>> = {
        let db = w.db();
        let mut st = db
            .prepare(
                "SELECT p.id, p.type, p.clues, p.givens, p.solutions, ifnull(p.solution, ''),
                        ifnull(p.canonical, ''), p.import_id,
                        (SELECT f.path FROM sources s JOIN files f ON f.id = s.file_id
                         WHERE s.puzzle_id = p.id ORDER BY s.file_id, s.line LIMIT 1),
                        (SELECT min(line) FROM sources s WHERE s.puzzle_id = p.id
                         AND s.file_id = (SELECT min(file_id) FROM sources WHERE puzzle_id = p.id)),
                        (SELECT count(*) FROM sources s WHERE s.puzzle_id = p.id),
                        p.givens, p.encoding,
                        CASE p.type WHEN 'sudoku' THEN 'https://www.sudokuwiki.org/sudoku.htm?bd='
                          WHEN 'killer' THEN 'https://www.sudokuwiki.org/killersudoku.aspx?bd='
                          ELSE 'https://www.str8ts.com/str8ts.aspx?bd=' END || p.encoding
                 FROM puzzles p ORDER BY p.id",
            )
            .unwrap();
        st.query_map([], |r| {
            (0..14)
                .map(|i| {
                    Ok(match r.get_ref(i)? {
                        rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                        v => v.as_str().unwrap_or_default().to_string(),
                    })
                })
                .collect()
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    };
    assert!(expected.len() > 30, "{}", expected.len());
    assert!(
        expected.iter().any(|r| r[3].contains(',')),
        "Killer givens hold a comma"
    );
    let header: Vec<&str> = columns.split(',').collect();
    for (format, delimiter) in [("csv", b','), ("tsv", b'\t')] {
        let text = w.run(&["export", "--format", format, "--columns", columns]);
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .from_reader(text.as_bytes());
        assert_eq!(reader.headers().unwrap(), header.as_slice(), "{format}");
        let rows: Vec<Vec<String>> = reader
            .records()
            .map(|r| r.unwrap().iter().map(str::to_string).collect())
            .collect();
        assert_eq!(rows, expected, "{format}");
    }
    let text = w.run(&["export", "--format", "ndjson", "--columns", columns]);
    let rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
            assert_eq!(keys.len(), header.len());
            header
                .iter()
                .map(|h| match &v[*h] {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::String(s) => s.clone(),
                    n => n.to_string(),
                })
                .collect()
        })
        .collect();
    assert_eq!(rows, expected, "ndjson");
    // lines: the columns separated by spaces, no header; one by default.
    let text = w.run(&["export", "--columns", "id,81"]);
    let first = text.lines().next().unwrap();
    assert_eq!(first, format!("{} {}", expected[0][0], expected[0][3]));
    // An unknown column is refused, naming the known ones.
    let out = w.output(&["export", "--columns", "id,nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no column \"nope\" (there are id, type")
    );
    w.assert_lookup_tables();
}

#[test]
fn export_filters_by_import_source_representatives_and_limit() {
    let w = Workdir::new();
    w.import(&[&data("classic/magictour_top95.txt")], &[]);
    let iso = w.write("isomorphs.txt", crate::util::relabelled_kaggle(2));
    // Keep it small: the first 20 lines of each copy.
    let text = std::fs::read_to_string(&iso).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let small: String = lines[..20]
        .iter()
        .chain(&lines[10_000..10_020])
        .map(|l| format!("{l}\n"))
        .collect();
    let iso = w.write("isomorphs.txt", small);
    w.import(&[&iso], &[]);
    let ids = |args: &[&str]| -> Vec<i64> {
        let mut a = vec!["export", "--columns", "id"];
        a.extend_from_slice(args);
        w.run(&a).lines().map(|l| l.parse().unwrap()).collect()
    };
    assert_eq!(ids(&[]), (1..=135).collect::<Vec<_>>(), "first-seen order");
    assert_eq!(ids(&["--import", "2"]), (96..=135).collect::<Vec<_>>());
    assert_eq!(
        ids(&["--source", "isomorphs.txt"]),
        (96..=135).collect::<Vec<_>>()
    );
    let top = data("classic/magictour_top95.txt").display().to_string();
    assert_eq!(ids(&["--source", &top]).len(), 95);
    // Of each relabelled pair, the first copy only; and top95 itself holds
    // one puzzle twice in disguise (76 is an isomorph of an earlier one).
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles p JOIN puzzles q ON q.canonical = p.canonical AND q.id < p.id WHERE p.id = 76"),
        1
    );
    let representatives: Vec<i64> = (1..=115).filter(|&i| i != 76).collect();
    assert_eq!(ids(&["--representatives"]), representatives);
    assert_eq!(ids(&["--limit", "3"]), [1, 2, 3]);
    assert_eq!(
        ids(&["--representatives", "--import", "2", "--limit", "5"]),
        [96, 97, 98, 99, 100]
    );
    assert_eq!(
        ids(&["--type", "killer"]),
        Vec::<i64>::new(),
        "no killer puzzles"
    );
    w.assert_lookup_tables();
}
