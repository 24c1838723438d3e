//! Isomorph-aware deduplication: canonical forms in the archive, `--dedup
//! isomorphs`, and the upgrade of an archive made before the column existed.

use crate::util::{Workdir, assert_lookup_tables, data, n};

/// Classic givens transposed, then digits relabelled d -> 10 - d.
fn disguise_classic(p: &str) -> String {
    let b = p.as_bytes();
    (0..81)
        .map(|i| {
            let c = b[(i % 9) * 9 + i / 9];
            if c.is_ascii_digit() && c != b'0' {
                (b'0' + 10 - (c - b'0')) as char
            } else {
                '0'
            }
        })
        .collect()
}

fn first_puzzles(file: &str, count: usize) -> Vec<String> {
    std::fs::read_to_string(data(file))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .take(count)
        .map(|l| l[..81].replace('.', "0"))
        .collect()
}

/// A Killer legacy string transposed: colours move with their cells, each
/// sum moves to its cage's new first cell in reading order.
fn transpose_killer(k: &str) -> String {
    let (colours, sums) = k.split_once(',').unwrap();
    let c: Vec<u8> = colours.bytes().collect();
    let t: Vec<u8> = (0..81).map(|i| c[(i % 9) * 9 + i / 9]).collect();
    // Cages: 4-connected regions of one colour, found by flood fill.
    let mut cage = [usize::MAX; 81];
    let mut out_sums = vec![String::from("00"); 81];
    for start in 0..81 {
        if cage[start] != usize::MAX {
            continue;
        }
        let mut stack = vec![start];
        let mut cells = vec![];
        cage[start] = start;
        while let Some(x) = stack.pop() {
            cells.push(x);
            let (r, col) = (x / 9, x % 9);
            let mut near = vec![];
            if r > 0 {
                near.push(x - 9)
            }
            if r < 8 {
                near.push(x + 9)
            }
            if col > 0 {
                near.push(x - 1)
            }
            if col < 8 {
                near.push(x + 1)
            }
            for y in near {
                if cage[y] == usize::MAX && t[y] == t[x] {
                    cage[y] = start;
                    stack.push(y);
                }
            }
        }
        let total: String = cells
            .iter()
            .map(|&x| &sums[2 * ((x % 9) * 9 + x / 9)..][..2])
            .find(|s| *s != "00")
            .unwrap()
            .to_string();
        out_sums[*cells.iter().min().unwrap()] = total;
    }
    format!("{},{}", String::from_utf8(t).unwrap(), out_sums.concat())
}

/// A Str8ts legacy string rotated a quarter turn, digits d -> 10 - d.
fn turn_str8ts(s: &str) -> String {
    let (digits, colours) = s.split_at(81);
    let d = digits.as_bytes();
    let c = colours.as_bytes();
    // New (r, c) takes old (8 - c, r).
    let at = |i: usize| (8 - i % 9) * 9 + i / 9;
    let nd: String = (0..81)
        .map(|i| match d[at(i)] {
            b'0' => '0',
            x => (b'0' + 10 - (x - b'0')) as char,
        })
        .collect();
    let nc: String = (0..81).map(|i| c[at(i)] as char).collect();
    nd + &nc
}

#[test]
fn disguised_copies_are_isomorph_duplicates_with_dedup_isomorphs() {
    let w = Workdir::new();
    let puzzles = first_puzzles("classic/top1465.txt", 50);
    let mut lines: Vec<String> = puzzles.clone();
    lines.extend(puzzles.iter().map(|p| disguise_classic(p)));
    let killers: Vec<String> =
        std::fs::read_to_string(data("killer/krazydad_intermediate_first500_legacy.txt"))
            .unwrap()
            .lines()
            .take(10)
            .map(String::from)
            .collect();
    lines.extend(killers.iter().cloned());
    lines.extend(killers.iter().map(|k| transpose_killer(k)));
    let str8ts: Vec<String> = std::fs::read_to_string(data("str8ts/real_legacy.txt"))
        .unwrap()
        .lines()
        .map(|l| l[..162].to_string())
        .collect();
    lines.extend(str8ts.iter().cloned());
    lines.extend(str8ts.iter().map(|s| turn_str8ts(s)));
    let f = w.write("mixed.txt", lines.join("\n"));

    let s = w.import(&[&f], &["--dedup", "isomorphs"]);
    let originals = (50 + 10 + 7) as u64;
    assert_eq!(
        (n(&s, "stored"), n(&s, "duplicates"), n(&s, "isomorphs")),
        (originals, originals, originals),
        "{s}"
    );
    let relations = w.strings(
        "SELECT relation || ' ' || count(*) FROM provenance GROUP BY relation ORDER BY relation",
    );
    assert_eq!(
        relations,
        vec![
            format!("exact {originals}"),
            format!("isomorph {originals}")
        ]
    );
    // Each disguise points at its original.
    let mismatched = w.count(
        "SELECT count(*) FROM provenance AS iso JOIN provenance AS orig
         ON orig.puzzle_id = iso.puzzle_id AND orig.relation = 'exact'
         WHERE iso.relation = 'isomorph' AND iso.line - orig.line NOT IN (50, 10, 7)",
    );
    assert_eq!(mismatched, 0);

    // Exact deduplication (the default) stores the disguises, and stats counts them as sharing forms.
    let e = w.import(&[&f], &["--db", "exact.sqlite"]);
    assert_eq!(n(&e, "stored"), 2 * originals, "{e}");
    let st: serde_json::Value =
        serde_json::from_str(&w.run(&["stats", "--json", "--db", "exact.sqlite"])).unwrap();
    let sharing: i64 = st["isomorphs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["puzzles"].as_i64().unwrap())
        .sum();
    assert_eq!(sharing, 2 * originals as i64, "{st}");

    // Again with --dedup isomorphs: the lines are all stored, so the workers
    // find them without solving them again, and yet each disguise still goes
    // to the first stored puzzle of its form, its original.
    let again = w.import(&[&f], &["--db", "exact.sqlite", "--dedup", "isomorphs"]);
    assert_eq!(
        (
            n(&again, "stored"),
            n(&again, "duplicates"),
            n(&again, "isomorphs")
        ),
        (0, 2 * originals, originals),
        "{again}"
    );
    w.assert_lookup_tables();
    assert_lookup_tables(&w.path("exact.sqlite"));
}

#[test]
fn canonical_forms_are_stored_for_every_type_and_are_fixed_points() {
    let w = Workdir::new();
    w.import(
        &[
            &data("classic/magictour_top95.txt"),
            &data("killer/krazydad_intermediate_first500_legacy.txt"),
            &data("str8ts/real_legacy.txt"),
        ],
        &[],
    );
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles WHERE canonical IS NULL"),
        0
    );
    // Importing the canonical forms themselves: each is an isomorph (or the same) of its puzzle.
    let forms = w.strings("SELECT canonical FROM puzzles WHERE type = 'sudoku' ORDER BY id");
    let f = w.write("forms.txt", forms.join("\n"));
    let s = w.import(&[&f], &["--dedup", "isomorphs"]);
    assert_eq!((n(&s, "stored"), n(&s, "duplicates")), (0, 95), "{s}");
}

#[test]
fn no_canonical_imports_are_filled_in_by_a_later_isomorph_import() {
    let w = Workdir::new();
    let puzzles = first_puzzles("classic/top1465.txt", 20);
    let a = w.write("a.txt", puzzles.join("\n"));
    let b = w.write(
        "b.txt",
        puzzles
            .iter()
            .map(|p| disguise_classic(p))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    w.import(&[&a], &["--no-canonical"]);
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles WHERE canonical IS NULL"),
        20
    );
    let s = w.import(&[&b], &["--dedup", "isomorphs"]);
    assert_eq!((n(&s, "stored"), n(&s, "isomorphs")), (0, 20), "{s}");
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles WHERE canonical IS NULL"),
        0
    );
    w.assert_lookup_tables();
}

#[test]
fn an_archive_from_schema_5_gets_integer_keys_that_find_its_puzzles_and_says_so() {
    let w = Workdir::new();
    let puzzles = first_puzzles("classic/top1465.txt", 4);
    {
        let conn = w.db();
        for (i, name) in [
            "0001_initial.sql",
            "0002_canonical.sql",
            "0003_faster_writes.sql",
            "0004_interrupted_imports.sql",
            "0005_narrower_isomorph_index.sql",
        ]
        .iter()
        .enumerate()
        {
            let sql = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("migrations")
                    .join(name),
            )
            .unwrap();
            conn.execute_batch(&sql).unwrap();
            conn.pragma_update(None, "user_version", i as i64 + 1)
                .unwrap();
        }
        conn.execute("INSERT INTO imports (arguments) VALUES ('[]')", [])
            .unwrap();
        // Three of the four puzzles, under schema 5's 16-byte keys (with
        // long encodings: their old table's pages must outnumber those
        // the later migrations' new tables take from the free ones).
        for (i, p) in puzzles[..3].iter().enumerate() {
            conn.execute(
                "INSERT INTO puzzles (type, clues, givens, encoding, solutions, import_id, key)
                 VALUES ('sudoku', 20, ?1, ?3, 1, 1, ?2)",
                rusqlite::params![p, vec![i as u8; 16], "0".repeat(8000)],
            )
            .unwrap();
        }
    }
    let f = w.write("four.txt", puzzles.join("\n"));
    let out = w.output(&[
        "import",
        "--json",
        "--db",
        "puzzles.sqlite",
        &f.display().to_string(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("upgrading puzzles.sqlite from schema 5 to "),
        "{stderr}"
    );
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The upgraded keys find the three: only the fourth is new.
    assert_eq!((n(&s, "stored"), n(&s, "duplicates")), (1, 3), "{s}");
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles WHERE typeof(key) = 'integer'"),
        4
    );
    // Said once: the archive is now of the newest schema.
    let again = w.output(&["stats", "--db", "puzzles.sqlite"]);
    assert!(
        again.status.success() && again.stderr.is_empty(),
        "{again:?}"
    );
    // The old table's pages are free now, and stats says how to return them.
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(
        text.contains("MiB free (later imports reuse it; `sqlite3 puzzles.sqlite VACUUM`"),
        "{text}"
    );
    let st: serde_json::Value = serde_json::from_str(&w.run(&["stats", "--json"])).unwrap();
    let (file, free) = (
        st["file_bytes"].as_i64().unwrap(),
        st["free_bytes"].as_i64().unwrap(),
    );
    assert!(0 < free && free < file, "{st}");
    w.db().execute_batch("VACUUM").unwrap();
    let st: serde_json::Value = serde_json::from_str(&w.run(&["stats", "--json"])).unwrap();
    assert_eq!(st["free_bytes"], 0, "{st}");
    w.assert_lookup_tables();
}

#[test]
fn an_archive_from_schema_1_is_upgraded_in_place_with_canonical_forms_filled() {
    let w = Workdir::new();
    {
        let conn = w.db();
        let v1 = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/migrations/0001_initial.sql"
        ))
        .unwrap();
        conn.execute_batch(&v1).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute("INSERT INTO imports (arguments) VALUES ('[]')", [])
            .unwrap();
        for (i, p) in first_puzzles("classic/top1465.txt", 3).iter().enumerate() {
            conn.execute(
                "INSERT INTO puzzles (type, clues, givens, encoding, solutions, import_id, key)
                 VALUES ('sudoku', 20, ?1, '', 1, 1, ?2)",
                rusqlite::params![p, vec![i as u8; 16]],
            )
            .unwrap();
        }
    }
    let st: serde_json::Value = serde_json::from_str(&w.run(&["stats", "--json"])).unwrap();
    assert_eq!(st["puzzles"], 3);
    assert_eq!(st["without_canonical"], 0, "{st}");
    let version: i64 = w
        .db()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    // Upgraded through every migration since, to the newest.
    let newest = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .count();
    assert_eq!(version, newest as i64);
    w.assert_lookup_tables();
}
