//! Issue 21, items 2-5: the layouts real collections come in (grids on nine
//! lines, the krazydad Killer CSV, delimited lines with ids and ratings), on
//! real files copied into `tests/data/`, and what `import` and `check` say
//! they understood.

use crate::util::{Workdir, data, n, solves_classic};

/// The layout the summary names for each file, in order.
fn layouts(s: &serde_json::Value) -> Vec<String> {
    s["layouts"]
        .as_array()
        .expect("layouts in the summary")
        .iter()
        .map(|l| l["layout"].as_str().unwrap().to_string())
        .collect()
}

fn counts(s: &serde_json::Value) -> (u64, u64, u64, u64) {
    (
        n(s, "stored"),
        n(s, "duplicates"),
        n(s, "rejected"),
        n(s, "skipped"),
    )
}

const TOP: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const TOP2: &str =
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";

#[test]
fn project_euler_grids_are_one_record_each_on_their_first_row() {
    let w = Workdir::new();
    let s = w.import(&[&data("classic/project_euler_p096_grids.txt")], &[]);
    // Grids 09 and 41 are the same puzzle.
    assert_eq!(counts(&s), (49, 1, 0, 450), "{s}");
    assert_eq!(n(&s, "lines"), 500);
    assert_eq!(layouts(&s), ["9-line grids"]);
    let lines: Vec<i64> = w
        .db()
        .prepare("SELECT line FROM sources ORDER BY line")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(lines, (0..50).map(|g| 2 + 10 * g).collect::<Vec<i64>>());
    assert_eq!(
        w.strings("SELECT fields FROM sources WHERE line = 2"),
        [r#"{"title":"Grid 01"}"#]
    );
    let first = w.strings("SELECT givens FROM puzzles ORDER BY id LIMIT 1");
    assert_eq!(
        first[0],
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    );
    let pairs: Vec<(String, String)> = w
        .db()
        .prepare("SELECT givens, solution FROM puzzles")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(pairs.iter().all(|(g, s)| solves_classic(g, s)));
}

#[test]
fn block_format_grids_are_the_hard_puzzles_with_their_solutions() {
    let w = Workdir::new();
    let s = w.import(&[&data("classic/emerentius_hard_blockformat.txt")], &[]);
    assert_eq!(counts(&s), (20, 0, 0, 179), "{s}");
    let s = w.import(&[&data("classic/emerentius_hard.txt")], &[]);
    assert_eq!(counts(&s), (0, 20, 0, 0), "the same twenty puzzles: {s}");
    let solutions: Vec<String> =
        std::fs::read_to_string(data("classic/emerentius_hard_solutions.txt"))
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
    assert_eq!(
        w.strings("SELECT solution FROM puzzles ORDER BY id"),
        solutions
    );
}

#[test]
fn the_str8ts_grid_files_are_the_boards_of_their_legacy_strings() {
    let w = Workdir::new();
    let files: Vec<std::path::PathBuf> = [
        "malkuh_example_str8ts_com_2016-02-09.txt",
        "osmith93_board01.txt",
        "osmith93_board02.txt",
        "osmith93_board03.txt",
        "osmith93_board04_hard.txt",
        "osmith93_board05_extreme.txt",
        "osmith93_board06_extreme.txt",
    ]
    .iter()
    .map(|f| data(&format!("str8ts/{f}")))
    .collect();
    let refs: Vec<&std::path::Path> = files.iter().map(|f| f.as_path()).collect();
    let s = w.import(&refs, &[]);
    assert_eq!((n(&s, "stored"), n(&s, "rejected")), (7, 0), "{s}");
    assert!(layouts(&s).iter().all(|l| l == "9-line Str8ts grids"));
    // Boards 02 and 03 carry 2 and 1 givens: two solutions or more.
    let multi = w.strings(
        "SELECT p.file FROM provenance AS p JOIN puzzles AS z ON z.id = p.puzzle_id \
         WHERE z.solutions > 1 ORDER BY p.file",
    );
    assert_eq!(multi.len(), 2);
    assert!(
        multi[0].ends_with("osmith93_board02.txt") && multi[1].ends_with("osmith93_board03.txt")
    );
    // malkuh's note after the grid is kept with it.
    assert_eq!(
        w.strings("SELECT fields FROM provenance WHERE file LIKE '%malkuh%'"),
        [r#"{"note":"From str8ts.com 9. Feb. 2016"}"#]
    );
    // The same boards as the legacy strings transcribed from them.
    let s = w.import(&[&data("str8ts/real_legacy.txt")], &[]);
    assert_eq!(counts(&s).0..=counts(&s).1, 0..=7, "{s}");
}

#[test]
fn the_krazydad_csv_is_read_by_its_header_with_its_own_solutions() {
    let w = Workdir::new();
    let csv = data("killer/krazydad_intermediate_first500.csv");
    let s = w.import(&[&csv], &[]);
    assert_eq!(counts(&s), (500, 0, 0, 1), "{s}");
    assert_eq!(
        layouts(&s),
        ["krazydad Killer CSV, columns puzz_color + puzz_hint (fields 6 and 7 of ','-separated)"]
    );
    let solved: Vec<String> = csv::ReaderBuilder::new()
        .from_path(&csv)
        .unwrap()
        .records()
        .map(|r| r.unwrap()[7].to_string())
        .collect();
    assert_eq!(
        w.strings("SELECT solution FROM puzzles ORDER BY id"),
        solved
    );
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles WHERE type = 'killer' AND solutions = 1"),
        500
    );
    // The legacy strings made from the same rows are the same puzzles.
    let s = w.import(
        &[&data("killer/krazydad_intermediate_first500_legacy.txt")],
        &[],
    );
    assert_eq!(counts(&s), (0, 500, 0, 0), "{s}");
    // The other columns stay with the provenance row (the solution, a grid
    // string, is left out).
    let fields = w.strings("SELECT fields FROM sources WHERE line = 2 AND fields IS NOT NULL");
    let v: serde_json::Value = serde_json::from_str(&fields[0]).unwrap();
    assert_eq!(v["ptitle"], "KD_Killer_IM1-B1-P1");
    assert_eq!(v["puzzle"], "1");
    assert!(v.get("solved").is_none(), "{v}");
    // `check` says the same.
    let out = w.output(&["check", "--quiet", &csv.display().to_string()]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(": krazydad Killer CSV, columns puzz_color + puzz_hint"),
        "{err}"
    );
}

#[test]
fn a_damaged_grid_is_one_reject_naming_its_line_and_the_rest_of_the_file_is_read() {
    let w = Workdir::new();
    let rows: Vec<String> = std::fs::read_to_string(data("classic/project_euler_p096_grids.txt"))
        .unwrap()
        .lines()
        .skip(1)
        .take(9)
        .map(String::from)
        .collect();
    let good = rows.join("\n");
    let eight = rows[..8].join("\n");
    let mut long = rows.clone();
    long[3].push('7');
    let long = long.join("\n");
    let colours = "xx...x...\n".repeat(9);
    let text =
        format!("{TOP}\n\n{eight}\n\n{good}\n{TOP2} rated 9.1\n{long}\n\n{colours}\n12345\n");
    let f = w.write("mixed.txt", &text);
    let s = w.import(&[&f], &[]);
    let lines = text.lines().count() as u64;
    assert_eq!(n(&s, "lines"), lines);
    assert_eq!(
        (n(&s, "stored"), n(&s, "rejected")),
        (3, 4),
        "two one-line puzzles and a grid stored: {s}"
    );
    assert_eq!(
        n(&s, "stored") + n(&s, "duplicates") + n(&s, "rejected") + n(&s, "skipped"),
        lines
    );
    assert_eq!(layouts(&s), ["9-line grids and one string per line"]);
    let rejects =
        w.strings("SELECT line || ' ' || reason || ': ' || message FROM rejects ORDER BY line");
    assert_eq!(
        rejects,
        [
            "3 grid: grid starting at line 3: 8 rows (lines 3-10), expected 9".to_string(),
            "22 grid: grid starting at line 22: line 25 has 10 cells, expected 9".to_string(),
            "32 grid: grid starting at line 32: a Str8ts colour grid (x black, . white) must be followed by the grid of its digits".to_string(),
            "42 format: unrecognised puzzle string: 5 characters; expected 81 or 162 (sudoku), 81,162 or 162,162 (killer), 162 or 243 (str8ts)".to_string(),
        ]
    );
    // The rating after the one-line puzzle is kept.
    assert_eq!(
        w.strings("SELECT fields FROM sources WHERE line = 21"),
        [r#"["rated","9.1"]"#]
    );
}

/// `id<d>puzzle<d>rating` lines with each delimiter, in a text file.
#[test]
fn delimited_lines_find_their_puzzle_field_with_each_delimiter() {
    for (d, name) in [
        (",", "','"),
        (";", "';'"),
        ("\t", "tab"),
        ("|", "'|'"),
        (" ", "space"),
    ] {
        let w = Workdir::new();
        let f = w.write(
            "rated.txt",
            format!("# ids and ratings\n17{d}{TOP}{d}4.5\n18{d}{TOP2}{d}9.1\n"),
        );
        let s = w.import(&[&f], &[]);
        assert_eq!(counts(&s), (2, 0, 0, 1), "{name}: {s}");
        assert_eq!(
            layouts(&s),
            [format!("one string per line, field 2 of {name}-separated")]
        );
        assert_eq!(
            w.strings("SELECT fields FROM provenance ORDER BY line"),
            [r#"["17","4.5"]"#, r#"["18","9.1"]"#],
            "{name}"
        );
    }
}

#[test]
fn a_semicolon_csv_with_a_header_is_sniffed_not_taken_from_its_name() {
    let w = Workdir::new();
    let f = w.write(
        "export.csv",
        format!(
            "id;date;sudoku string;rating\n1;2024-01-02;{TOP};easy\n2;2024-01-03;{TOP2};hard\n"
        ),
    );
    let s = w.import(&[&f], &[]);
    assert_eq!(counts(&s), (2, 0, 0, 1), "{s}");
    assert_eq!(
        layouts(&s),
        [r#"records with a header, column "sudoku string" (field 3 of ';'-separated)"#]
    );
    // The README's query.
    let rated = w.strings(
        "SELECT json_extract(fields, '$.rating') || ' ' || json_extract(fields, '$.date') \
         FROM provenance ORDER BY line",
    );
    assert_eq!(rated, ["easy 2024-01-02", "hard 2024-01-03"]);
}

#[test]
fn the_delimiter_option_overrules_the_sniffed_one() {
    let w = Workdir::new();
    let f = w.write("odd.txt", format!("id,n;puzzle\n1,2;{TOP}\n3,4;{TOP2}\n"));
    let s = w.import(&[&f], &[]);
    assert_eq!(counts(&s), (2, 0, 0, 1), "{s}");
    assert_eq!(
        layouts(&s),
        [r#"records with a header, column "puzzle" (field 2 of ';'-separated)"#]
    );
    // Told ',', the puzzle field is `2;...`: every record rejected, and the
    // warning says how the file was read.
    let out = w.output(&[
        "import",
        "--quiet",
        "--reread",
        "--delimiter",
        ",",
        &f.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(r#"all 2 records rejected (read as records with a header, column "id" (field 1 of ','-separated))"#),
        "{err}"
    );
    let out = w.output(&[
        "check",
        "--delimiter",
        "tab",
        "--quiet",
        &f.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let out = w.output(&["check", "--delimiter", "ab", &f.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a delimiter"));
}

#[test]
fn a_text_file_whose_lines_hold_no_puzzle_says_what_it_looks_like() {
    let w = Workdir::new();
    let bad = "12345678".repeat(11);
    let f = w.write("x.txt", format!("{bad}\n{bad}\n"));
    let out = w.output(&["check", "--quiet", &f.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "warning: {}: all 2 lines rejected (read as one string per line; its first long line is 88 characters, none shaped like a puzzle string)",
            f.display()
        )),
        "{err}"
    );
}

#[test]
fn grids_read_the_same_compressed_from_standard_input_and_in_a_folder() {
    let w = Workdir::new();
    let text = std::fs::read(data("classic/project_euler_p096_grids.txt")).unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut e, &text).unwrap();
    std::fs::create_dir(w.path("dir")).unwrap();
    w.write("dir/p096.txt.gz", e.finish().unwrap());
    let s = w.import(&[&w.path("dir")], &[]);
    assert_eq!(counts(&s), (49, 1, 0, 450), "{s}");
    assert_eq!(layouts(&s), ["9-line grids"]);
    // Standard input: the same puzzles, now all known.
    let out = w
        .command(&["import", "--json", "-"])
        .stdin(std::fs::File::open(data("classic/project_euler_p096_grids.txt")).unwrap())
        .output()
        .unwrap();
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(counts(&s), (0, 50, 0, 450), "{s}");
}

#[test]
fn a_text_file_read_before_grids_were_read_is_read_again() {
    let w = Workdir::new();
    let p096 = data("classic/project_euler_p096_grids.txt");
    w.import(&[&p096], &[]);
    // As an earlier version recorded its read (every grid line rejected).
    let changed = w
        .db()
        .execute(
            "UPDATE file_reads SET read_as = \
             replace(read_as, 'text: one string per line, grids or delimited lines', 'text')",
            [],
        )
        .unwrap();
    assert_eq!(changed, 1);
    let s = w.import(&[&p096], &[]);
    assert_eq!(n(&s, "unchanged_files"), 0, "{s}");
    assert_eq!(counts(&s), (0, 50, 0, 450), "{s}");
}
