//! `find`: strings looked up in an archive, exactly, as isomorphs, or not
//! found, for every type; the exit status is grep's.

use std::io::Write;
use std::path::Path;

use crate::util::{Workdir, data};

/// The transpose of an 81-cell string whose cells are `width` characters.
fn transpose(s: &str, width: usize) -> String {
    (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let at = (c * 9 + r) * width;
            &s[at..at + width]
        })
        .collect()
}

/// Per type: (a line stored as it is, an isomorph of a stored puzzle, a
/// line of the same collection left out of the archive).
fn cases(w: &Workdir) -> Vec<(&'static str, String, String, String)> {
    let lines = |rel: &str| -> Vec<String> {
        std::fs::read_to_string(data(rel))
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().next().unwrap_or_default().to_string())
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    };
    let classic = lines("classic/magictour_top95.txt");
    let killer = lines("killer/krazydad_intermediate_first500_legacy.txt");
    let str8ts = lines("str8ts/real_legacy.txt");
    // The archive holds all but the last line of each.
    let mut kept = String::new();
    for l in [&classic, &killer[..50], &str8ts] {
        for line in &l[..l.len() - 1] {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let f = w.write("kept.txt", kept);
    w.import(&[&f], &[]);
    let killer_t = {
        let (cages, sums) = killer[1].split_once(',').unwrap();
        format!("{},{}", transpose(cages, 1), transpose(sums, 2))
    };
    let str8ts_t = {
        let s = &str8ts[1];
        format!("{}{}", transpose(&s[..81], 1), transpose(&s[81..], 1))
    };
    vec![
        (
            "sudoku",
            classic[0].clone(),
            transpose(&classic[1], 1),
            classic[94].clone(),
        ),
        ("killer", killer[0].clone(), killer_t, killer[49].clone()),
        (
            "str8ts",
            str8ts[0].clone(),
            str8ts_t,
            str8ts[str8ts.len() - 1].clone(),
        ),
    ]
}

#[test]
fn find_tells_exact_isomorph_and_missing_strings_of_every_type_apart() {
    let w = Workdir::new();
    for (kind, exact, isomorph, missing) in cases(&w) {
        let out = w.output(&["find", "--json", &exact, &isomorph, &missing]);
        assert_eq!(out.status.code(), Some(0), "{kind}");
        let answers: Vec<serde_json::Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 3, "{kind}");
        let found: Vec<&str> = answers
            .iter()
            .map(|a| a["found"].as_str().unwrap())
            .collect();
        assert_eq!(found, ["exact", "isomorph", "none"], "{kind}");
        // The exact match is the stored puzzle with that identity, with
        // where it came from.
        let p = &answers[0]["puzzles"][0];
        let id = p["id"].as_i64().unwrap();
        assert_eq!(p["type"], kind);
        assert_eq!(
            w.strings(&format!("SELECT givens FROM puzzles WHERE id = {id}")),
            [p["givens"].as_str().unwrap()]
        );
        assert_eq!(p["solutions"], 1, "{kind}");
        assert_eq!(p["solution"].as_str().map(str::len), Some(81), "{kind}");
        assert!(
            p["sources"][0]["file"]
                .as_str()
                .unwrap()
                .ends_with("kept.txt")
        );
        assert_eq!(
            p["sources"][0]["line"], id,
            "{kind}: one line per puzzle, in order"
        );
        // The isomorph: a different string, the same canonical form.
        let q = &answers[1]["puzzles"][0];
        assert_ne!(q["givens"].as_str(), Some(isomorph.as_str()), "{kind}");
        let canonical = w.strings(&format!(
            "SELECT canonical FROM puzzles WHERE id = {}",
            q["id"]
        ));
        assert_eq!(canonical, [q["canonical"].as_str().unwrap()], "{kind}");
        assert_eq!(answers[2]["puzzles"].as_array().map(Vec::len), Some(0));

        // The text output says the same, naming the stored puzzle.
        let text = w.run(&["find", &exact, &isomorph]);
        assert!(
            text.contains(&format!("{exact}: found puzzle {id} ({kind}")),
            "{text}"
        );
        assert!(
            text.contains(&format!("{isomorph}: isomorph of puzzle {}", q["id"])),
            "{text}"
        );
        assert!(text.contains("kept.txt:"), "{text}");
        // Missing alone: status 1.
        let out = w.output(&["find", &missing]);
        assert_eq!(out.status.code(), Some(1), "{kind}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{missing}: not found\n")
        );
    }
    w.assert_lookup_tables();
}

#[test]
fn find_names_every_stored_isomorph_and_shows_the_first() {
    let w = Workdir::new();
    let c = cases(&w);
    // Line 2 of top95 is stored (puzzle 2); its transpose is stored too.
    let (_, _, isomorph, _) = &c[0];
    let f = w.write("more.txt", format!("{isomorph}\n"));
    w.import(&[&f], &[]);
    // A third disguise: the transpose with digits 1 and 2 swapped.
    let third: String = isomorph
        .chars()
        .map(|d| match d {
            '1' => '2',
            '2' => '1',
            d => d,
        })
        .collect();
    let out = w.run(&["find", "--json", &third]);
    let a: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(a["found"], "isomorph");
    assert_eq!(a["isomorphs"], 2);
    let last = w.count("SELECT max(id) FROM puzzles");
    let ids: Vec<i64> = a["isomorph_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(ids, [2, last], "the first stored first");
    assert_eq!(a["puzzles"][0]["id"], 2);
    let text = w.run(&["find", &third]);
    assert!(
        text.contains(&format!(
            "also isomorphs of it: 2 stored in all (puzzles {last})"
        )),
        "{text}"
    );
    w.assert_lookup_tables();
}

#[test]
fn find_reads_a_file_or_standard_input_and_exits_like_grep() {
    let w = Workdir::new();
    let cases = cases(&w);
    let mut text = String::from("# strings to look up\n\n");
    for (_, exact, isomorph, missing) in &cases {
        text.push_str(&format!(
            "{exact} trailing comment\n{isomorph}\n{missing}\n"
        ));
    }
    let f = w.write("queries.txt", &text);
    let out = w.run(&["find", "--json", "--file", &f.display().to_string()]);
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 9);
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(a["line"], i as u64 + 3, "line numbers of the file");
        assert_eq!(a["found"], ["exact", "isomorph", "none"][i % 3]);
    }
    // Standard input, through `-`.
    let (child, mut stdin) = w.spawn_piped(&["find", "-"]);
    stdin.write_all(text.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("-:3: found puzzle 1 (sudoku"), "{stdout}");
    assert_eq!(stdout.matches(": not found").count(), 3, "{stdout}");
    // A string that is not a puzzle is trouble (2), as is a missing archive.
    let out = w.output(&["find", &cases[0].1, "12345"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("12345: not a puzzle: "));
    let out = w.output(&["find", "--db", "none.sqlite", &cases[0].1]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!w.path("none.sqlite").exists());
    w.assert_lookup_tables();
}

#[test]
fn find_answers_a_hundred_thousand_strings_in_seconds() {
    let w = Workdir::new();
    let text = crate::util::relabelled_kaggle(1);
    let f = w.write("kaggle.txt", &text);
    w.import(&[&f], &[]);
    // 100,000 strings: the stored ones, and nine relabellings of each
    // (isomorphs, found through the canonical form).
    let queries = crate::util::relabelled_kaggle(10);
    let q = w.write("queries.txt", &queries);
    let start = std::time::Instant::now();
    let out = w.run(&["find", "--json", "--file", &q.display().to_string()]);
    let took = start.elapsed();
    let mut found = [0usize; 2];
    for l in out.lines() {
        let a: serde_json::Value = serde_json::from_str(l).unwrap();
        match a["found"].as_str() {
            Some("exact") => found[0] += 1,
            Some("isomorph") => found[1] += 1,
            other => panic!("{other:?}: {l}"),
        }
    }
    assert_eq!(found, [10_000, 90_000]);
    assert!(took.as_secs() < 60, "100,000 lookups took {took:?}");
    w.assert_lookup_tables();
}

/// The answers of `find --json` run in `w` with `args`, and its exit status.
fn find_json(w: &Workdir, args: &[&str]) -> (Vec<serde_json::Value>, Option<i32>) {
    let mut all = vec!["find", "--json"];
    all.extend_from_slice(args);
    let out = w.output(&all);
    let answers = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (answers, out.status.code())
}

/// Issue 39.1: a file that imported cleanly, in each layout an import reads
/// (the sudoku-exchange bank's `hash puzzle rating` lines, the same
/// gzipped, a delimited file with a header, 9-line grids, a krazydad Killer
/// CSV), is found record for record: each record's answer names the file
/// and line the import stored it from.
#[test]
fn find_reads_a_file_as_import_does_and_finds_every_record_at_its_line() {
    let w = Workdir::new();
    let bank =
        std::fs::read_to_string(data("classic/sudoku_exchange_diabolical_excerpt.txt")).unwrap();
    w.write("diabolical.txt", &bank);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bank.as_bytes()).unwrap();
    w.write("diabolical.txt.gz", gz.finish().unwrap());
    let mut csv = String::from("rating;puzzle;hash\n");
    for l in bank.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        csv.push_str(&format!("{};{};{}\n", f[2], f[1], f[0]));
    }
    w.write("bank.csv", csv);
    std::fs::copy(
        data("classic/project_euler_p096_grids.txt"),
        w.path("grids.txt"),
    )
    .unwrap();
    let killers: String =
        std::fs::read_to_string(data("killer/krazydad_intermediate_first500.csv"))
            .unwrap()
            .lines()
            .take(21)
            .map(|l| format!("{l}\n"))
            .collect();
    w.write("killers.csv", killers);
    for (file, records) in [
        ("diabolical.txt", 45),
        ("diabolical.txt.gz", 45),
        ("bank.csv", 45),
        ("grids.txt", 50),
        ("killers.csv", 20),
    ] {
        let db = format!("{file}.sqlite");
        let s = w.import(&[Path::new(file)], &["--db", &db]);
        assert_eq!(s["rejected"], 0, "{file} imports cleanly: {s}");
        let (answers, status) = find_json(&w, &["--db", &db, "--file", file]);
        assert_eq!(status, Some(0), "{file}");
        assert_eq!(answers.len(), records, "{file}: one answer a record");
        for a in &answers {
            assert_eq!(a["found"], "exact", "{file}: {a}");
            assert_eq!(a["file"], file, "{a}");
            // (A puzzle repeated in the file has each of its lines.)
            let sources = a["puzzles"][0]["sources"].as_array().unwrap();
            assert!(
                sources
                    .iter()
                    .any(|s| (&s["file"], &s["line"]) == (&a["file"], &a["line"])),
                "{file}: the record is a line the import stored: {a}"
            );
        }
    }
    // What a person sees for the line whose hash an older `find` read as
    // a Version B header.
    let out = w.run(&[
        "find",
        "--db",
        "diabolical.txt.sqlite",
        "--file",
        "diabolical.txt",
    ]);
    let at = out.find("diabolical.txt:43:").unwrap();
    let end = out[at..].find("diabolical.txt:44:").unwrap();
    assert_eq!(
        &out[at..at + end],
        "diabolical.txt:43: found puzzle 43 (sudoku, 29 clues, unique solution)\n\
         \x20 givens:   600024503050300090700900000300000720800030005047000008000001009020003050903480006\n\
         \x20 rating:   not rated yet (`sudoku-archive rate` rates it)\n\
         \x20 solution: 689124573451367892732958164395846721816732945247519638564271389128693457973485216\n\
         \x20 from:     diabolical.txt:43 (import 1)\n"
    );
}

/// Issue 36.6: `find -` reads through the import's bounded lines: a line
/// of hundreds of MiB is never held whole, and is answered at its line as
/// the import would reject it, between lines answered as usual.
#[test]
fn find_of_standard_input_does_not_hold_a_huge_line_and_reports_it_at_its_line() {
    let w = Workdir::new();
    let bank = data("classic/sudoku_exchange_diabolical_excerpt.txt");
    w.import(&[&bank], &[]);
    let text = std::fs::read_to_string(&bank).unwrap();
    let mut lines = text.lines();
    let (first, second) = (lines.next().unwrap(), lines.next().unwrap());
    const HUGE: usize = 256 << 20;
    let (child, mut stdin) = w.spawn_piped(&["find", "-"]);
    stdin.write_all(format!("{first}\n").as_bytes()).unwrap();
    let block = vec![b'1'; 1 << 20];
    for _ in 0..HUGE / block.len() {
        stdin.write_all(&block).unwrap();
    }
    // The whole line is written but not ended: an unbounded reader holds it.
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    stdin.write_all(format!("\n{second}\n").as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        peak_kib < 64 * 1024,
        "a {HUGE}-byte line is not held whole: peak {peak_kib} KiB"
    );
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("-:")).collect();
    assert_eq!(
        lines,
        [
            "-:1: found puzzle 1 (sudoku, 28 clues, unique solution)",
            &format!(
                "-:2: not a puzzle: line is {HUGE} bytes, longer than any puzzle string (limit 4096)"
            ),
            "-:3: found puzzle 2 (sudoku, 26 clues, unique solution)",
        ],
        "{stdout}"
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "a line that is no puzzle is trouble"
    );
}

/// Issue 39.10: an isomorph's answer shows the string's own solution
/// beside the stored puzzle's (a legacy Killer form is solved only for
/// this); a puzzle without a unique solution shows neither.
#[test]
fn find_of_an_isomorph_shows_the_solution_of_the_string_looked_up() {
    let w = Workdir::new();
    let mut shown = Vec::new();
    for (kind, _, isomorph, _) in cases(&w) {
        let (answers, status) = find_json(&w, &[&isomorph]);
        assert_eq!(status, Some(0));
        let a = &answers[0];
        assert_eq!(a["found"], "isomorph", "{kind}");
        let text = w.run(&["find", &isomorph]);
        let Some(stored) = a["puzzles"][0]["solution"].as_str() else {
            assert_eq!(a.get("input_solution"), None, "{kind}: {a}");
            assert!(!text.contains("solution of the string"), "{text}");
            continue;
        };
        // The string is the stored puzzle transposed: so is its solution.
        let own = transpose(stored, 1);
        assert_ne!(own, stored, "{kind}");
        assert_eq!(a["input_solution"], own.as_str(), "{kind}");
        assert!(
            text.contains(&format!(
                "\n  solution: {stored}\n  solution of the string: {own}\n"
            )),
            "{kind}: {text}"
        );
        shown.push(kind);
    }
    assert_eq!(
        shown,
        ["sudoku", "killer"],
        "the cases with a unique solution"
    );
}
