//! The built library loaded into SQLite as `.load` does, over an archive
//! the tool made: each function answers as the tool does.

use std::path::PathBuf;

use rusqlite::{Connection, LoadExtensionGuard};

/// The library cargo built for this test: `cargo test` builds the crate's
/// cdylib beside the test binary (`target/<profile>/deps/`, because the
/// crate is an rlib too); `cargo build` puts it in `target/<profile>/`.
fn library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let name = format!("libsudoku_archive_sqlite{}", std::env::consts::DLL_SUFFIX);
    [deps, deps.parent().unwrap()]
        .into_iter()
        .map(|d| d.join(&name))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{name} was not built beside {}", deps.display()))
        .with_extension("")
}

#[test]
fn the_functions_find_stored_puzzles_through_the_lookup_tables() {
    let dir = tempfile_dir();
    let db = dir.join("puzzles.sqlite");
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/classic.txt");
    // The tool's own import, through its library.
    use clap::Parser;
    let cli = sudoku_archive::cli::Cli::parse_from([
        "sudoku-archive",
        "import",
        "--quiet",
        "--db",
        db.to_str().unwrap(),
        samples,
    ]);
    assert_eq!(
        sudoku_archive::cli::run(cli),
        std::process::ExitCode::SUCCESS
    );
    let conn = Connection::open(&db).unwrap();
    // SAFETY: the library is this crate's, built for this test.
    unsafe {
        let _guard = LoadExtensionGuard::new(&conn).unwrap();
        conn.load_extension(library(), None::<&str>).unwrap();
    }
    let one = |sql: &str| -> Option<String> { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    let stored =
        "400000805030000000000700000020000060000080400000010000000603070500200000104000000";
    let dotted = stored.replace('0', ".");
    // An isomorph: the transpose.
    let transposed: String = (0..81)
        .map(|i| stored.as_bytes()[(i % 9) * 9 + i / 9] as char)
        .collect();
    assert_eq!(
        one(&format!("SELECT sudoku_type('{dotted}')")).as_deref(),
        Some("sudoku")
    );
    assert_eq!(
        one(&format!("SELECT sudoku_identity('{dotted}')")).as_deref(),
        Some(stored)
    );
    let by_key = format!(
        "SELECT p.givens FROM puzzles_by_key AS k JOIN puzzles AS p ON p.id = k.puzzle_id
         WHERE k.key = sudoku_key('{dotted}')"
    );
    assert_eq!(one(&by_key).as_deref(), Some(stored));
    let plan = |sql: &str| -> Vec<String> {
        conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap()
            .query_map([], |r| r.get(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(
        plan(&by_key),
        [
            "SEARCH k USING INTEGER PRIMARY KEY (rowid=?)",
            "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"
        ]
    );
    let by_form = format!(
        "SELECT p.givens FROM puzzles_by_form AS f JOIN puzzles AS p ON p.id = f.puzzle_id
         WHERE f.canonical_hash = sudoku_canonical_hash('{transposed}')
           AND p.canonical = sudoku_canonical('{transposed}')"
    );
    assert_eq!(one(&by_form).as_deref(), Some(stored));
    assert_eq!(
        plan(&by_form),
        [
            "SEARCH f USING PRIMARY KEY (canonical_hash=?)",
            "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"
        ]
    );
    // The forms are export's: the same strings.
    let url: String = conn
        .query_row(
            "SELECT sudoku_form(givens, 'url') = 'https://www.sudokuwiki.org/sudoku.htm?bd=' || encoding
             FROM puzzles WHERE givens = ?1",
            [stored],
            |r| r.get::<_, bool>(0).map(|b| b.to_string()),
        )
        .unwrap();
    assert_eq!(url, "true");
    let grid = one(&format!("SELECT sudoku_grid('{stored}')")).unwrap();
    assert!(grid.contains("solutions: unique: 4173698256"), "{grid}");
    // Not a puzzle, or NULL: NULL. An unknown form: an error naming the forms.
    assert_eq!(one("SELECT sudoku_key('nonsense')"), None);
    assert_eq!(one("SELECT sudoku_canonical(NULL)"), None);
    let e = conn
        .query_row("SELECT sudoku_form('x', 'nope')", [], |r| {
            r.get::<_, String>(0)
        })
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("no form \"nope\" (there are 81, packed, url, vb)"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-ext-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The import of `lines` (one a line) into a fresh archive, with the
/// extension loaded into it.
fn imported(name: &str, lines: &[String]) -> (PathBuf, Connection) {
    let dir = tempfile_dir().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lines.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let db = dir.join("puzzles.sqlite");
    use clap::Parser;
    let cli = sudoku_archive::cli::Cli::parse_from([
        "sudoku-archive",
        "import",
        "--quiet",
        "--db",
        db.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    // Rejects make the import exit non-zero; that is the point here.
    let _ = sudoku_archive::cli::run(cli);
    let conn = Connection::open(&db).unwrap();
    // SAFETY: the library is this crate's, built for this test.
    unsafe {
        let _guard = LoadExtensionGuard::new(&conn).unwrap();
        conn.load_extension(library(), None::<&str>).unwrap();
    }
    (dir, conn)
}

/// The seven functions' answers for one string.
type Answers = (
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<String>,
);

/// Every function on every line against what the import did with it: NULL
/// for each line it rejected, the stored facts for each line it stored.
/// Returns how many lines were rejected and how many stored.
fn agree_with_the_import(name: &str, lines: &[String]) -> (usize, usize) {
    let (dir, conn) = imported(name, lines);
    let (mut rejected, mut stored) = (0, 0);
    for (i, line) in lines.iter().enumerate() {
        let n = i as i64 + 1;
        let reasons: i64 = conn
            .query_row("SELECT count(*) FROM rejects WHERE line = ?1", [n], |r| {
                r.get(0)
            })
            .unwrap();
        let row: Option<(String, String, Option<String>, Option<i64>)> = conn
            .query_row(
                "SELECT p.type, p.givens, p.canonical, p.canonical_hash
                 FROM sources AS s JOIN puzzles AS p ON p.id = s.puzzle_id WHERE s.line = ?1",
                [n],
                |r| Ok(Some((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))),
            )
            .unwrap_or(None);
        let answers: Answers = conn
            .query_row(
                "SELECT sudoku_type(?1), sudoku_identity(?1), sudoku_key(?1),
                        sudoku_canonical(?1), sudoku_canonical_hash(?1),
                        sudoku_form(?1, '81'), sudoku_grid(?1)",
                [line],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                    ))
                },
            )
            .unwrap();
        match row {
            None => {
                assert!(reasons > 0, "line {n} neither stored nor rejected: {line}");
                assert_eq!(
                    answers,
                    (None, None, None, None, None, None, None),
                    "line {n}, rejected by the import: {line}"
                );
                rejected += 1;
            }
            Some((kind, givens, canonical, hash)) => {
                assert_eq!(answers.0.as_deref(), Some(kind.as_str()), "{line}");
                assert_eq!(answers.1.as_deref(), Some(givens.as_str()), "{line}");
                assert!(answers.2.is_some() && answers.5.is_some() && answers.6.is_some());
                assert_eq!((answers.3, answers.4), (canonical, hash), "{line}");
                stored += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
    (rejected, stored)
}

/// The puzzle lines (not comments, not blank) of a file of the repository.
fn lines_of(rel: &str) -> Vec<String> {
    let path = format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_function_is_null_for_every_string_an_import_rejects() {
    let mut lines = lines_of("samples/bad.txt");
    lines.extend(lines_of(
        "tests/data/classic/emerentius_invalid_annotated.txt",
    ));
    for rel in ["sudoku_real", "killer_real", "str8ts_real"] {
        lines.extend(lines_of(&format!("tests/data/version_b/{rel}.txt")));
    }
    let dots = |n: usize| ".".repeat(n);
    lines.extend([
        // A digit nine times in a row (issue 36 item 9), in each form.
        format!("999999999{}", dots(72)),
        format!(
            "https://www.sudokuwiki.org/sudoku.htm?bd=999999999{}",
            dots(72)
        ),
        format!("{}{}", "9".repeat(9), "0".repeat(72)),
        // Row 1 holds 1 to 7 and column 9 an 8 and a 9: r1c9 has no candidate.
        format!("1234567..{}8{}9{}", dots(26), dots(8), dots(36)),
        // A Str8ts with a digit twice in a row, and a Killer whose sums are off.
        format!("{}{}{}", "11", "0".repeat(79), "0".repeat(81)),
        format!("{},{}", "1".repeat(81), "9".repeat(162)),
        // Version B: a foreign type, a damaged field, all 81 cells solved
        // with a digit twice, and the empty grid (stored: two solutions).
        format!("X9B{}", "00".repeat(81)),
        format!("S9B!{}", "0".repeat(161)),
        format!("S9B{}", "0a".repeat(81)),
        format!("S9B{}", "00".repeat(81)),
    ]);
    let (rejected, stored) = agree_with_the_import("rejects", &lines);
    assert!(
        rejected > 20 && stored >= 5,
        "{rejected} rejected, {stored} stored"
    );
}

/// splitmix64: a fixed sequence of pseudo-random numbers.
struct Mix(u64);
impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn the_functions_and_the_import_agree_on_mutated_strings_of_every_form() {
    // Real strings of every form and type, each mutated a few times: a
    // character replaced, dropped or doubled.
    let mut seeds = lines_of("samples/classic.txt");
    seeds.extend(lines_of("samples/killer.txt"));
    seeds.extend(lines_of("samples/str8ts.txt"));
    for rel in ["sudoku_real", "killer_real", "str8ts_real"] {
        seeds.extend(lines_of(&format!("tests/data/version_b/{rel}.txt")));
    }
    let seeds: Vec<String> = seeds
        .into_iter()
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect();
    const ALPHABET: &[u8] = b"0123456789.abcdefghijklmnopqrstuvwxyzSLTB";
    let mut mix = Mix(36);
    let mut lines = Vec::new();
    for seed in &seeds {
        for _ in 0..6 {
            let mut b = seed.clone().into_bytes();
            for _ in 0..1 + mix.below(3) {
                let at = mix.below(b.len());
                let c = ALPHABET[mix.below(ALPHABET.len())];
                match mix.below(4) {
                    0 => {
                        b.remove(at);
                    }
                    1 => b.insert(at, c),
                    _ => b[at] = c,
                }
            }
            lines.push(String::from_utf8(b).unwrap());
        }
    }
    let (rejected, stored) = agree_with_the_import("mutated", &lines);
    assert!(
        rejected > 50 && stored > 10,
        "{rejected} rejected, {stored} stored"
    );
}
