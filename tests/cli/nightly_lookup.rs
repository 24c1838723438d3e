//! The lookup tables (`puzzles_by_key`, `puzzles_by_form`, schema 12) as
//! every reader sees them: an archive upgraded to them from schema 11
//! answers `find`, `export --representatives` and `stats` exactly as one
//! built with them, and keeps their invariant.

use std::path::Path;

use crate::util::{Workdir, assert_lookup_tables, n, relabelled_kaggle};

/// Schemas 12 to 14 taken away again: 0013's table and index gone, and
/// the lookup tables back as the indexes on `puzzles` they were (the
/// unique key's, and `puzzles_canonical_hash`).
const UNDO_12: &str = "DROP INDEX sources_file_line; DROP TABLE removals;
    DROP TABLE puzzles_by_key; DROP TABLE puzzles_by_form;
    CREATE UNIQUE INDEX puzzles_key ON puzzles (key);
    CREATE INDEX puzzles_canonical_hash ON puzzles (canonical_hash);
    ALTER TABLE imports DROP COLUMN rated;
    PRAGMA user_version = 11;";

/// What each reader answers on the archive `db`, `lines` looked up.
fn answers(w: &Workdir, db: &str, lines: &Path) -> Vec<String> {
    let find = w.output(&[
        "find",
        "--json",
        "--db",
        db,
        "--file",
        &lines.display().to_string(),
    ]);
    assert_eq!(find.status.code(), Some(0), "{find:?}");
    let export = w.run(&[
        "export",
        "--db",
        db,
        "--representatives",
        "--format",
        "csv",
        "--columns",
        "id,type,givens,canonical",
    ]);
    let stats: serde_json::Value =
        serde_json::from_str(&w.run(&["stats", "--json", "--db", db])).unwrap();
    vec![
        String::from_utf8(find.stdout).unwrap(),
        export,
        stats["puzzles"].to_string(),
        stats["isomorphs"].to_string(),
        stats["without_canonical"].to_string(),
    ]
}

#[test]
fn an_archive_upgraded_from_schema_11_answers_find_export_and_stats_as_one_built_new() {
    let w = Workdir::new();
    let text = relabelled_kaggle(3);
    let lines: Vec<&str> = text.lines().collect();
    let join = |l: &[&str]| -> String { l.iter().map(|l| format!("{l}\n")).collect() };
    // 200 puzzles and their relabelled copies, stored apart (exact dedup):
    // 200 forms of two puzzles each; 100 more without a form.
    let pairs = w.write(
        "pairs.txt",
        join(&lines[..200]) + &join(&lines[10_000..10_200]),
    );
    let bare = w.write("bare.txt", join(&lines[200..300]));
    w.import(&[&pairs], &[]);
    let s = w.import(&[&bare], &["--no-canonical"]);
    assert_eq!(n(&s, "stored"), 100, "{s}");
    w.db()
        .execute(
            "VACUUM INTO ?1",
            [w.path("old.sqlite").display().to_string()],
        )
        .expect("copy the archive");
    let old = rusqlite::Connection::open(w.path("old.sqlite")).unwrap();
    old.execute_batch(UNDO_12).unwrap();
    drop(old);

    // Looked up: stored lines (20, and 10 of the copies), 10 lines stored
    // without a form, isomorphs of stored forms (a third relabelling, 10),
    // and lines not stored (10 of them relabellings of lines stored
    // without a form: not isomorphs of anything with a form).
    let asked = w.write(
        "asked.txt",
        join(&lines[..20])
            + &join(&lines[10_190..10_210])
            + &join(&lines[290..310])
            + &join(&lines[20_000..20_010]),
    );
    let upgrade = w.output(&["stats", "--db", "old.sqlite"]);
    let said = String::from_utf8_lossy(&upgrade.stderr);
    assert!(
        upgrade.status.success() && said.starts_with("upgrading old.sqlite from schema 11 to "),
        "{upgrade:?}"
    );
    assert_lookup_tables(&w.path("old.sqlite"));
    w.assert_lookup_tables();
    let new = answers(&w, "puzzles.sqlite", &asked);
    assert_eq!(answers(&w, "old.sqlite", &asked), new);
    // And the answers are the ones the data makes: 200 forms of two, 100
    // without a form, 300 representatives (a header line beside them).
    assert_eq!(new[2], "500");
    assert!(
        new[3].contains("\"puzzles\":400") && new[3].contains("\"forms\":200"),
        "{}",
        new[3]
    );
    assert_eq!(new[4], "100");
    assert_eq!(new[1].lines().count(), 301, "{}", new[1]);
    let found: Vec<serde_json::Value> = new[0]
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = found.iter().map(|f| f["found"].as_str().unwrap()).collect();
    let count = |k: &str| kinds.iter().filter(|&&f| f == k).count();
    assert_eq!(
        (count("exact"), count("isomorph"), count("none")),
        (20 + 10 + 10, 10, 10 + 10),
        "{kinds:?}"
    );
}
