//! Version B strings (`S9B`, `L9B`, `T9B`, issue 21 item 1): read on import
//! and by `show`, written by `export --form vb` and `show --form vb`, other
//! Version B types rejected by name. The real strings are in
//! `tests/data/version_b/` (provenance in tests/data/SOURCES.md).

use crate::util::{Workdir, data, n};

/// Every stored puzzle except its id: what a round trip must keep.
const PUZZLES: &str = "SELECT type || ' ' || clues || ' ' || givens || ' ' || encoding || ' ' || solutions || ' ' || ifnull(solution, '') FROM puzzles ORDER BY id";

const REAL: [&str; 3] = [
    "version_b/sudoku_real.txt",
    "version_b/killer_real.txt",
    "version_b/str8ts_real.txt",
];

fn lines_of(rel: &str) -> Vec<String> {
    std::fs::read_to_string(data(rel))
        .expect("test data")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn real_version_b_strings_of_the_sites_import() {
    let w = Workdir::new();
    let files: Vec<_> = REAL.iter().map(|r| data(r)).collect();
    let refs: Vec<&std::path::Path> = files.iter().map(|p| p.as_path()).collect();
    let summary = w.import(&refs, &[]);
    // Three Sudoku and one Killer stored. Two strings of the package's
    // first drafts (SOURCES.md) are rejected, naming their cells: a Sudoku
    // whose one candidate repeats a given of its row, and the one public
    // T9B string, written before the Str8ts values settled.
    assert_eq!(n(&summary, "stored"), 4, "{summary}");
    assert_eq!(n(&summary, "rejected"), 2, "{summary}");
    assert_eq!(
        w.strings("SELECT type FROM puzzles ORDER BY id"),
        ["sudoku", "sudoku", "sudoku", "killer"]
    );
    assert_eq!(
        w.strings("SELECT reason || ': ' || message FROM rejects ORDER BY id"),
        [
            "repeated-digit: sudoku version b: digit 7 twice in row 5: r5c5 and r5c7",
            "repeated-digit: str8ts version b: digit 8 twice in row 1: cell 3 (r1c4) and cell 4 (r1c5)"
        ]
    );
    // SudokuWiki's Easiest Sudoku: the same puzzle as its legacy twin.
    let twin = "3..967..1.4.3.2.8..2.....7..7.....9....873...5...1...3..47.51..9.5...2.78..621..4";
    let f = w.write("twin.txt", format!("{twin}\n"));
    let again = w.import(&[&f], &[]);
    assert_eq!(n(&again, "duplicates"), 1, "{again}");
    // The Killer's solved one-cell cages are progress, not givens: its
    // identity is cages and sums only, and it counts 30 cages.
    assert_eq!(
        w.strings("SELECT clues || ' ' || length(givens) FROM puzzles WHERE type = 'killer'"),
        ["30 244"]
    );
}

#[test]
fn version_b_export_of_all_three_types_reimports_as_the_same_puzzles() {
    let w = Workdir::new();
    // Killers: the first 60 of the repository's legacy krazydad lines.
    let killers: String =
        std::fs::read_to_string(data("killer/krazydad_intermediate_first500_legacy.txt"))
            .unwrap()
            .lines()
            .take(60)
            .map(|l| format!("{l}\n"))
            .collect();
    let k = w.write("killers.txt", killers);
    let files = [
        data("classic/magictour_top95.txt"),
        data("str8ts/real_legacy.txt"),
        data("version_b/sudoku_real.txt"),
        data("version_b/killer_real.txt"),
        k,
    ];
    let refs: Vec<&std::path::Path> = files.iter().map(|p| p.as_path()).collect();
    let first = w.import(&refs, &[]);
    let stored = n(&first, "stored");
    assert_eq!(stored, 95 + 7 + 3 + 1 + 60, "{first}");
    let original = w.strings(PUZZLES);

    let vb = w.run(&["export", "--form", "vb"]);
    let lines: Vec<&str> = vb.lines().collect();
    assert_eq!(lines.len() as u64, stored);
    for (l, kind) in lines
        .iter()
        .zip(w.strings("SELECT type FROM puzzles ORDER BY id"))
    {
        let (head, len) = match kind.as_str() {
            "sudoku" => ("S9B", 165),
            "killer" => ("L9B", 327),
            _ => ("T9B", 165),
        };
        assert!(l.starts_with(head) && l.len() == len, "{kind}: {l}");
    }
    // The alias names the same form.
    assert_eq!(w.run(&["export", "--form", "version-b"]), vb);

    let f = w.write("vb.txt", &vb);
    let again = w.import(&[&f], &["--db", "vb.sqlite"]);
    assert_eq!(n(&again, "stored"), stored, "{again}");
    assert_eq!(n(&again, "rejected"), 0, "{again}");
    assert_eq!(w.strings_in("vb.sqlite", PUZZLES), original);
    // And it writes the same strings again, byte for byte.
    assert_eq!(w.run(&["export", "--db", "vb.sqlite", "--form", "vb"]), vb);
}

#[test]
fn show_reads_version_b_bare_or_in_a_url_and_writes_it() {
    let w = Workdir::new();
    let killer = lines_of("version_b/killer_real.txt").remove(0);
    let url = format!("https://www.sudokuwiki.org/killersudoku.aspx?bd={killer}&x=1");
    let drawn = w.run(&["show", &url]);
    assert!(drawn.contains("type:      killer"), "{drawn}");
    assert!(drawn.contains("clues:     30"), "{drawn}");
    assert_eq!(drawn, w.run(&["show", &killer]));
    // Written back from the analysis: the propagated board, the solved
    // one-cell cages still solved, readable again as the same puzzle.
    let vb = w.run(&["show", "--form", "vb", &killer]);
    let vb = vb.trim_end();
    assert!(vb.starts_with("L9B") && vb.len() == 327, "{vb}");
    let again = w.run(&["show", vb]);
    let givens = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("givens:"))
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(givens(&again), givens(&drawn));
    assert_eq!(w.run(&["show", "--form", "vb", vb]).trim_end(), vb);
    // A legacy Str8ts with two or more solutions (board 02), written as
    // Version B in the specification's convention: candidates up to 539.
    let legacy = std::fs::read_to_string(data("str8ts/real_legacy.txt")).unwrap();
    let board02 = &legacy.lines().nth(1).unwrap()[..162];
    let t = w.run(&["show", "--form", "vb", board02]);
    let t = t.trim_end();
    assert!(t.starts_with("T9B") && t.len() == 165, "{t}");
    let values: Vec<u32> = t.as_bytes()[3..]
        .chunks(2)
        .map(|f| u32::from_str_radix(std::str::from_utf8(f).unwrap(), 36).unwrap())
        .collect();
    assert!(values.iter().any(|&v| v > 28), "candidates written: {t}");
    assert!(values.iter().all(|&v| v <= 539), "{t}");
    let shown = w.run(&["show", t]);
    assert!(
        shown.contains("solutions: two or more solutions"),
        "{shown}"
    );
}

#[test]
fn bad_and_foreign_version_b_strings_are_rejected_with_their_reason() {
    let w = Workdir::new();
    let sudoku = lines_of("version_b/sudoku_real.txt").remove(0);
    let mut over = sudoku.clone();
    over.replace_range(3 + 2 * 10..3 + 2 * 11, "ev");
    let lines = [
        // From the puzzle-coding package's SudokuWiki tests: real strings
        // of types the archive does not hold.
        "X9B04epep08ep0502epepepepepepepepepepepep08epep07epepepepepepep02ep0809ep07epepepepepepepep0401ep0503epepepepepepepepepepepep01epepepepepepepepepepepep01epep07epep06".to_owned(),
        "W9B080603epepepepepepepepepepepepepep04ep04epep05ep0306epep03epep06epep09epep05ep04ep03ep08epep07epep09epep05epep0904ep02epep03ep05epepepepepepepepepepepepepep060205".to_owned(),
        "K6C02ff00cr5oaz01jf5r2j00uj5nijb9l75mmj00cr5mmj005n5mmjb8p7b8ln00235mbvbbkb5mbvgvgrgv63guvfb8lnb8wb018r005n5o3v5mmj5mbv00qz0023bfpnb8wbb8ln0023005n".to_owned(),
        over,
        sudoku[..100].to_owned(),
        format!("T9B{}", "f0".repeat(80) + "0t"),
    ];
    let f = w.write("bad.txt", lines.join("\n") + "\n");
    let summary = w.import(&[&f], &[]);
    assert_eq!(n(&summary, "rejected"), 6, "{summary}");
    assert_eq!(
        w.strings("SELECT reason || ': ' || message FROM rejects ORDER BY line"),
        [
            "type: version b: \"X9B\" is a sudoku x string; the archive holds sudoku (S9B), killer (L9B) and str8ts (T9B)",
            "type: version b: \"W9B\" is a windoku string; the archive holds sudoku (S9B), killer (L9B) and str8ts (T9B)",
            "type: version b: \"K6C\" is a kenken string; the archive holds sudoku (S9B), killer (L9B) and str8ts (T9B)",
            "value: sudoku version b: cell 10 (r2c2) is \"ev\" = 535, above the largest value 529",
            "length: sudoku version b: expected 165 characters (3 of header, then 2 per cell), found 100",
            "convention: str8ts version b: cell 0 (r1c1) is \"f0\" = 540, str8ts.com's candidates, but cell 80 (r9c9) is \"0t\" = 29, the specification's: the two conventions are mixed",
        ]
    );
    // `--type` that contradicts the header is a reject, not another reading.
    let f = w.write("typed.txt", format!("{sudoku}\n"));
    let typed = w.import(&[&f], &["--type", "killer", "--db", "typed.sqlite"]);
    assert_eq!(n(&typed, "rejected"), 1, "{typed}");
    assert_eq!(
        w.strings_in("typed.sqlite", "SELECT message FROM rejects"),
        ["version b: the string is sudoku (S9B), but the type was given as killer"]
    );
    let out = w.output(&["show", &lines[0]]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is a sudoku x string"),
        "{out:?}"
    );
}

#[test]
fn a_headerless_csv_column_of_version_b_strings_is_found() {
    let w = Workdir::new();
    let sudoku = lines_of("version_b/sudoku_real.txt");
    let f = w.write(
        "ratings.csv",
        format!("1,{},3.5\n2,{},7.0\n", sudoku[0], sudoku[1]),
    );
    let summary = w.import(&[&f], &[]);
    assert_eq!(n(&summary, "stored"), 2, "{summary}");
    assert_eq!(n(&summary, "rejected"), 0, "{summary}");
    // A header word that starts like one ("solutions": S, a letter, a
    // letter) is still a header, not a Version B string.
    let kaggle = std::fs::read_to_string(data("classic/kaggle_1m_first10k.csv")).unwrap();
    let head: String = kaggle.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert!(head.starts_with("quizzes,solutions\n"), "{head}");
    let f = w.write("kaggle.csv", head);
    let summary = w.import(&[&f], &["--db", "kaggle.sqlite"]);
    assert_eq!(
        (
            n(&summary, "stored"),
            n(&summary, "rejected"),
            n(&summary, "skipped")
        ),
        (2, 0, 1),
        "{summary}"
    );
}

/// Every stored fact of every puzzle, in an order that does not depend on
/// which line came first.
const FACTS: &str = "SELECT type || ' ' || clues || ' ' || givens || ' ' || encoding || ' ' || solutions || ' ' || ifnull(solution, '') || ' ' || ifnull(canonical, '') || ' ' || ifnull(canonical_hash, '') FROM puzzles ORDER BY type, givens";

/// A Version B field's value (base 36).
fn field(s: &str) -> u32 {
    u32::from_str_radix(s, 36).expect("base-36 field")
}

/// `n` as `width` lowercase base-36 characters.
fn push_field(n: u32, width: usize, out: &mut String) {
    for k in (0..width as u32).rev() {
        out.push(char::from_digit(n / 36u32.pow(k) % 36, 36).expect("digit"));
    }
}

/// A Version B string as exported, with every cell that is not a given
/// (nor black) rewritten as the solved digit of `solution`.
fn solved_version_b(exported: &str, solution: &str) -> String {
    let width = if exported.starts_with("L9B") { 4 } else { 2 };
    let mut out = exported[..3].to_owned();
    for (i, d) in solution.bytes().enumerate() {
        let v = field(&exported[3 + i * width..3 + (i + 1) * width]);
        let d = u32::from(d - b'0');
        let v = match &exported[..1] {
            // Sudoku content, Killer's in its low ten bits: 9 + d solved.
            "S" | "L" if v & 1023 > 9 || v & 1023 == 0 => (v & !1023) | (9 + d),
            // Str8ts: white empty, solved or candidates become 19 + d.
            "T" if v == 0 || v > 19 => 19 + d,
            _ => v,
        };
        push_field(v, width, &mut out);
    }
    out
}

#[test]
fn a_puzzle_stores_the_same_facts_whichever_of_its_forms_came_first() {
    let w = Workdir::new();
    // Legacy forms: the empty grid (two or more solutions), a Killer and a Str8ts.
    let killer = std::fs::read_to_string(data("killer/krazydad_intermediate_first500_legacy.txt"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let str8ts = lines_of("str8ts/real_legacy.txt").remove(0)[..162].to_owned();
    let legacy = w.write(
        "legacy.txt",
        format!("{}\n{killer}\n{str8ts}\n", ".".repeat(81)),
    );
    // The same puzzles with every open cell solved: the empty grid as an
    // S9B string of 81 solved cells and no given (issue 36 item 5) and as
    // a packed string of 81 solved cells; the others as Version B strings
    // of their solutions.
    let grid = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let mut sudoku = "S9B".to_owned();
    let mut packed = String::new();
    for d in grid.bytes() {
        let d = u32::from(d - b'0');
        push_field(9 + d, 2, &mut sudoku);
        let n = 1 << d; // the set {d} << 1, no given flag
        packed.push(char::from_digit(n / 32, 32).unwrap());
        packed.push(char::from_digit(n % 32, 32).unwrap());
    }
    w.import(&[&legacy], &["--db", "seed.sqlite"]);
    let exported = w.run(&["export", "--db", "seed.sqlite", "--form", "vb"]);
    let solutions = w.strings_in(
        "seed.sqlite",
        "SELECT ifnull(solution, '') FROM puzzles ORDER BY id",
    );
    let mut solved = vec![sudoku, packed];
    for (vb, solution) in exported.lines().zip(&solutions) {
        if !solution.is_empty() {
            solved.push(solved_version_b(vb, solution));
        }
    }
    assert_eq!(solved.len(), 4, "{exported}");
    let solved = w.write("solved.txt", solved.join("\n") + "\n");

    let mut facts = Vec::new();
    for (db, order) in [
        ("legacy_first.sqlite", [&legacy, &solved]),
        ("solved_first.sqlite", [&solved, &legacy]),
    ] {
        for file in order {
            let summary = w.import(&[file], &["--db", db]);
            assert_eq!(n(&summary, "rejected"), 0, "{summary}");
        }
        facts.push(w.strings_in(db, FACTS));
    }
    assert_eq!(facts[0].len(), 3, "{:#?}", facts[0]);
    assert_eq!(facts[0], facts[1]);
    // And they are the legacy forms' own: the empty grid has two or more.
    assert_eq!(w.strings_in("seed.sqlite", FACTS), facts[0]);
    assert_eq!(
        w.strings_in(
            "solved_first.sqlite",
            "SELECT type || solutions FROM puzzles WHERE clues = 0"
        ),
        ["sudoku2"]
    );
}
