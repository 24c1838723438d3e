//! Killer Sudoku through the whole pipeline.

use crate::util::{Workdir, data, n, sample, solves_classic};

const FORMATS_EXAMPLE: &str = "212112111212112223213331443231221241134412231124133132322122212344411312111411312,171510200026110000000000000000000011000011000017160000001101060000090016110017000900000900001800160800040010160000001100002100001800001800140000080000000000000000";

/// Independent check: `solution` obeys Sudoku rules and every cage of the
/// legacy string `k` (distinct digits adding up to the cage's one sum).
fn solves_killer(k: &str, solution: &str) -> bool {
    if !solves_classic(&"0".repeat(81), solution) {
        return false;
    }
    let (colours, sums) = k.split_once(',').unwrap();
    let c = colours.as_bytes();
    let s = solution.as_bytes();
    let mut seen = [false; 81];
    for start in 0..81 {
        if seen[start] {
            continue;
        }
        let (mut stack, mut cells) = (vec![start], vec![]);
        seen[start] = true;
        while let Some(x) = stack.pop() {
            cells.push(x);
            let (r, col) = (x / 9, x % 9);
            let near = [
                (r > 0).then(|| x - 9),
                (r < 8).then(|| x + 9),
                (col > 0).then(|| x - 1),
                (col < 8).then(|| x + 1),
            ];
            for y in near.into_iter().flatten() {
                if !seen[y] && c[y] == c[x] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        let clues: Vec<u32> = cells
            .iter()
            .map(|&x| sums[2 * x..2 * x + 2].parse::<u32>().unwrap())
            .filter(|&v| v > 0)
            .collect();
        let total: u32 = cells.iter().map(|&x| u32::from(s[x] - b'0')).sum();
        let mut digits: Vec<u8> = cells.iter().map(|&x| s[x]).collect();
        digits.sort_unstable();
        digits.dedup();
        if clues != [total] || digits.len() != cells.len() {
            return false;
        }
    }
    true
}

#[test]
fn the_formats_example_imports_with_one_solution_that_satisfies_every_cage() {
    let w = Workdir::new();
    let f = w.write("example.txt", format!("{FORMATS_EXAMPLE}\n"));
    let s = w.import(&[&f], &[]);
    assert_eq!(n(&s, "stored"), 1, "{s}");
    let rows = w.strings("SELECT type || ' ' || solutions || ' ' || solution FROM puzzles");
    let parts: Vec<&str> = rows[0].split(' ').collect();
    assert_eq!(&parts[..2], ["killer", "1"]);
    assert!(solves_killer(FORMATS_EXAMPLE, parts[2]), "{}", parts[2]);
    let encoding = &w.strings("SELECT encoding FROM puzzles")[0];
    assert_eq!(
        (encoding.len(), encoding.find(',')),
        (325, Some(162)),
        "packed 162,162: {encoding}"
    );
}

#[test]
fn the_killer_sample_accounts_for_recoloured_packed_and_url_copies_and_bad_lines() {
    let w = Workdir::new();
    let s = w.import(&[&sample("killer.txt")], &[]);
    let got = (
        n(&s, "stored"),
        n(&s, "duplicates"),
        n(&s, "rejected"),
        n(&s, "skipped"),
    );
    assert_eq!(got, (6, 3, 4, 6), "{s}");
    let reasons = w.strings("SELECT reason FROM rejects ORDER BY line");
    assert_eq!(reasons, ["colour", "total", "cage-range", "cage-sum"]);
    let messages = w.strings("SELECT message FROM rejects ORDER BY line");
    assert!(
        messages[2].contains("cage at r1c1"),
        "cages are named by their first cell: {messages:?}"
    );
    // Every line of the first krazydad puzzle's copies points at one puzzle.
    let copies =
        w.count("SELECT max(c) FROM (SELECT count(*) AS c FROM sources GROUP BY puzzle_id)");
    assert_eq!(copies, 4);
}

#[test]
fn krazydad_killers_import_unique_and_match_the_published_solutions() {
    let w = Workdir::new();
    let legacy = data("killer/krazydad_intermediate_first500_legacy.txt");
    let s = w.import(&[&legacy], &[]);
    assert_eq!((n(&s, "stored"), n(&s, "rejected")), (500, 0), "{s}");
    let csv = std::fs::read_to_string(data("killer/krazydad_intermediate_first500.csv")).unwrap();
    let solved: Vec<String> = csv::ReaderBuilder::new()
        .from_reader(csv.as_bytes())
        .records()
        .map(|r| r.unwrap()[7].to_string())
        .collect();
    let lines: Vec<String> = std::fs::read_to_string(&legacy)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let stored = w.strings("SELECT solution FROM puzzles ORDER BY id");
    assert_eq!(
        stored, solved,
        "row order is kept and every solution is the published one"
    );
    for (k, sol) in lines.iter().zip(&stored) {
        assert!(solves_killer(k, sol));
    }
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles WHERE type = 'killer' AND solutions = 1"),
        500
    );
}

#[test]
fn csv_killer_strings_import_quoted_or_split_over_two_fields() {
    let w = Workdir::new();
    let (colours, sums) = FORMATS_EXAMPLE.split_once(',').unwrap();
    let f = w.write(
        "k.csv",
        format!("id,puzzle,note\n1,\"{FORMATS_EXAMPLE}\",quoted\n2,{colours},{sums},split\n"),
    );
    let s = w.import(&[&f], &[]);
    assert_eq!(
        (n(&s, "stored"), n(&s, "duplicates"), n(&s, "skipped")),
        (1, 1, 1),
        "{s}"
    );
}
