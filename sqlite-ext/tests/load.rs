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
