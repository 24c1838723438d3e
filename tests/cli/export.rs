//! `export`: stored puzzles back out, filtered, in each form.

use crate::util::{Workdir, data, n, sample};

/// A fresh archive of the samples of every type.
pub fn every_type_sampled() -> Workdir {
    let w = Workdir::new();
    w.import(
        &[
            &sample("classic.txt"),
            &sample("killer.txt"),
            &sample("str8ts.txt"),
        ],
        &[],
    );
    w
}

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
    let w = every_type_sampled();
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

#[test]
fn export_svg_writes_one_drawing_per_selected_puzzle_named_by_its_id() {
    let w = every_type_sampled();
    w.run(&[
        "export",
        "--format",
        "svg",
        "--type",
        "killer",
        "--out",
        "drawn",
        "--solution",
    ]);
    let ids = w.strings("SELECT CAST(id AS TEXT) FROM puzzles WHERE type = 'killer' ORDER BY id");
    let mut files: Vec<String> = std::fs::read_dir(w.path("drawn"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort_by_key(|f| f.trim_end_matches(".svg").parse::<i64>().unwrap_or(-1));
    let want: Vec<String> = ids.iter().map(|id| format!("{id}.svg")).collect();
    assert_eq!(files, want);
    for id in &ids {
        let svg = std::fs::read_to_string(w.path(&format!("drawn/{id}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg ") && svg.contains(r#"data-type="killer""#),
            "{id}"
        );
        let cages = w.count(&format!("SELECT clues FROM puzzles WHERE id = {id}"));
        assert_eq!(svg.matches(r#"class="cage""#).count() as i64, cages, "{id}");
        // Unique solutions are drawn in: 81 digits, none given.
        assert_eq!(svg.matches(r#"class="solution""#).count(), 81, "{id}");
    }
    let out = w.output(&["export", "--format", "svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--out DIR"),
        "{out:?}"
    );
}

#[test]
fn export_html_is_one_self_contained_book_of_the_selection_with_the_solutions_after() {
    let w = every_type_sampled();
    let n = w.count("SELECT count(*) FROM puzzles WHERE type = 'str8ts'") as usize;
    let args = [
        "export",
        "--format",
        "html",
        "--type",
        "str8ts",
        "--per-page",
        "3",
    ];
    let page = w.run(&args);
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    assert_self_contained(&page);
    assert_eq!(page.matches(r#"<figure class="puzzle""#).count(), n);
    assert_eq!(page.matches(r#"<figure class="solution"#).count(), n);
    assert_eq!(page.matches(r#"data-type="killer""#).count(), 0);
    assert_eq!(
        page.matches(r#"class="page puzzles""#).count(),
        n.div_ceil(3)
    );
    assert_eq!(
        page.matches(r#"class="page solutions""#).count(),
        n.div_ceil(3)
    );
    let last_puzzle = page.rfind(r#"<figure class="puzzle""#).unwrap();
    let first_solution = page.find(r#"<figure class="solution"#).unwrap();
    assert!(
        last_puzzle < first_solution,
        "solutions come after the puzzles"
    );
    // Each caption names the puzzle and where it was read.
    assert!(page.contains("str8ts.txt:"), "no source in the captions");
    // The same book into a file.
    w.run(&[&args[..], &["--out", "b.html"]].concat());
    assert_eq!(std::fs::read_to_string(w.path("b.html")).unwrap(), page);
}

/// Fails if `page` would fetch or run anything: a page that must be
/// readable offline, without scripts.
pub fn assert_self_contained(page: &str) {
    for outside in ["<script", "src=", "href=", "url(", "@import", "<link"] {
        assert!(!page.contains(outside), "{outside} in the page");
    }
}

/// The peak resident memory of the binary run with `args`, in KiB.
// The child is reaped by `wait4`, which alone reports its own peak.
#[allow(clippy::zombie_processes)]
fn peak_rss_kib(w: &Workdir, args: &[&str]) -> i64 {
    let child = w
        .command(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("run sudoku-archive");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, whose handle is not waited on again.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{args:?}: {status}"
    );
    usage.ru_maxrss
}

#[test]
fn drawing_an_export_takes_no_more_memory_for_ten_thousand_puzzles_than_for_a_hundred() {
    let w = Workdir::new();
    w.import(&[&data("classic/kaggle_1m_first10k.csv")], &[]);
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 10_000);
    for format in ["html", "svg"] {
        // html to stdout (null), svg into a folder.
        let out: &[&str] = if format == "svg" {
            &["--out", "drawn"]
        } else {
            &[]
        };
        let few = peak_rss_kib(
            &w,
            &[&["export", "--format", format, "--limit", "100"], out].concat(),
        );
        let all = peak_rss_kib(&w, &[&["export", "--format", format], out].concat());
        assert!(
            all < few + 4 * 1024,
            "{format}: {few} KiB for 100 puzzles, {all} KiB for 10,000"
        );
    }
}

#[test]
fn empty_dot_writes_classic_empty_cells_as_dots_and_reads_back_as_the_same_puzzles() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt"), &sample("killer.txt")], &[]);
    let zeros = w.run(&["export", "--type", "sudoku"]);
    let dots = w.run(&["export", "--type", "sudoku", "--empty", "."]);
    assert!(!zeros.is_empty());
    assert_eq!(dots, zeros.replace('0', "."));
    assert!(
        dots.lines()
            .all(|l| l.chars().count() == 81 && l.contains('.'))
    );
    // The 81 column of CSV too; other columns keep their zeros.
    let csv = w.run(&[
        "export",
        "--type",
        "sudoku",
        "--format",
        "csv",
        "--columns",
        "id,81",
        "--empty",
        ".",
    ]);
    let first = csv.lines().nth(1).unwrap();
    assert_eq!(first, format!("1,{}", dots.lines().next().unwrap()));
    // Killer strings are written as they are.
    assert_eq!(
        w.run(&["export", "--type", "killer", "--empty", "."]),
        w.run(&["export", "--type", "killer"])
    );
    // What it writes imports as the same puzzles: nothing new.
    w.write("dots.txt", &dots);
    let again = w.import(&[&w.path("dots.txt")], &[]);
    assert_eq!(n(&again, "stored"), 0, "{again}");
    assert_eq!(
        n(&again, "duplicates"),
        dots.lines().count() as u64,
        "{again}"
    );
}
