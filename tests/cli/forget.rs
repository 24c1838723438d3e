//! `forget --import N`: the archive afterwards is the one an import of the
//! other files alone would have made, row for row; refusals say why and
//! change nothing; a killed forget leaves the archive before or after.

use std::path::Path;
use std::process::Command;

use rusqlite::Connection;

use crate::util::{Workdir, assert_lookup_tables, data, relabelled_kaggle};

/// What an archive holds that describes puzzles, one string a row, sorted:
/// every table but the runs' own history, each row by what it says, not
/// by the numbers the archive gave it.
///
/// Left out, and why:
/// - `imports` (and `merged_imports`): the record of the runs, not of the
///   puzzles. An import's counts say what it saw when it ran (a later
///   import's lines that were duplicates of the forgotten import's puzzles
///   stay counted as duplicates), and the forget is a run of its own.
/// - `removals`: what runs took out, history too (the forget's own row).
/// - Surrogate ids (`puzzles.id`, `files.id`, `rejects.id`, import ids):
///   numbers given in the order rows came. A puzzle that the forgotten
///   import stored and a later one also holds keeps its id, lower than
///   the later import would have given it. Rows name their puzzle by its
///   type and givens, their file by its path, their import by the files
///   it read.
/// - `files` rows nothing refers to any more but `removals`: the name
///   stays known, as after a read that failed.
fn described(db: &Path) -> Vec<String> {
    let c = Connection::open(db).unwrap();
    let broken: i64 = c
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(broken, 0, "{}: rows refer to rows not there", db.display());
    // An import, by the files it read.
    let import = |col: &str| {
        format!(
            "(SELECT group_concat(f.path, '+') FROM (SELECT f.path FROM file_reads AS r
               JOIN files AS f ON f.id = r.file_id WHERE r.import_id = {col} ORDER BY 1) AS f)"
        )
    };
    let puzzle =
        |col: &str| format!("(SELECT type || ':' || givens FROM puzzles WHERE id = {col})");
    let file = |col: &str| format!("(SELECT path FROM files WHERE id = {col})");
    let queries = [
        format!(
            "SELECT 'puzzle ' || type || ' ' || clues || ' ' || givens || ' ' || encoding || ' '
               || solutions || ' ' || ifnull(solution, '-') || ' key ' || key || ' '
               || ifnull(canonical, '-') || ' ' || ifnull(canonical_hash, '-') || ' by '
               || {} FROM puzzles",
            import("import_id")
        ),
        format!(
            "SELECT 'source ' || {} || ':' || line || ' ' || {} || ' ' || relation || ' '
               || ifnull(fields, '-') || ' by ' || {} FROM sources",
            file("file_id"),
            puzzle("puzzle_id"),
            import("import_id")
        ),
        format!(
            "SELECT 'reject ' || {} || ':' || line || ' ' || reason || ' ' || message || ' '
               || raw || ' by ' || {} FROM rejects",
            file("file_id"),
            import("import_id")
        ),
        format!(
            "SELECT 'read ' || {} || ' ' || action || ' ' || read_as || ' '
               || ifnull(bytes, '-') || ' ' || ifnull(content_hash, '-') || ' ' || complete
               || ' by ' || {} FROM file_reads",
            file("file_id"),
            import("import_id")
        ),
        format!(
            "SELECT 'by key ' || key || ' ' || {} FROM puzzles_by_key",
            puzzle("puzzle_id")
        ),
        format!(
            "SELECT 'by form ' || canonical_hash || ' ' || {} FROM puzzles_by_form",
            puzzle("puzzle_id")
        ),
        "SELECT 'file ' || path || ' ' || ifnull(real_path, '-') || ' ' || kind FROM files
         WHERE id IN (SELECT file_id FROM file_reads UNION SELECT file_id FROM sources
                      UNION SELECT file_id FROM rejects)"
            .to_string(),
    ];
    let mut rows = Vec::new();
    for q in &queries {
        let mut st = c.prepare(q).unwrap();
        let got = st
            .query_map([], |r| r.get::<_, Option<String>>(0))
            .unwrap()
            .map(|r| r.unwrap().unwrap_or_else(|| format!("NULL from {q}")));
        rows.extend(got);
    }
    rows.sort();
    rows
}

/// Panics with the rows that differ.
fn assert_same(a: &[String], b: &[String]) {
    let only_a: Vec<_> = a.iter().filter(|r| !b.contains(r)).take(8).collect();
    let only_b: Vec<_> = b.iter().filter(|r| !a.contains(r)).take(8).collect();
    assert!(
        a == b,
        "{} rows against {}\nonly in the first: {only_a:#?}\nonly in the second: {only_b:#?}",
        a.len(),
        b.len()
    );
}

/// The first `n` Kaggle quizzes: real puzzles, all distinct.
fn quizzes(n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(data("classic/kaggle_1m_first10k.csv")).unwrap();
    text.lines()
        .skip(1)
        .take(n)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect()
}

/// An isomorph of `q`: each digit one up (9 to 1).
fn relabelled(q: &str) -> String {
    q.chars()
        .map(|c| match c {
            '1'..='8' => (c as u8 + 1) as char,
            '9' => '1',
            c => c,
        })
        .collect()
}

fn lines(qs: &[String]) -> String {
    qs.iter().map(|q| format!("{q}\n")).collect()
}

/// Imports each of `files` in turn into `db` with `extra` flags.
fn import_each(w: &Workdir, db: &str, files: &[&str], extra: &[&str]) {
    for f in files {
        let mut args = vec!["import", "--db", db, "-q"];
        args.extend_from_slice(extra);
        args.push(f);
        w.run(&args);
    }
}

fn forget(w: &Workdir, db: &str, import: &str) -> String {
    w.run(&["forget", "--db", db, "--import", import])
}

#[test]
fn forgetting_an_import_leaves_what_importing_the_others_alone_makes() {
    let w = Workdir::new();
    let q = quizzes(260);
    // B shares puzzles with A (they stay A's) and with C (B stored them
    // first; C's lines hold them: they stay, as C's), repeats its own
    // lines, and has rejects; so does C.
    w.write("a.txt", lines(&q[0..100]));
    let mut b = lines(&q[50..200]);
    b.push_str(&lines(&q[120..130]));
    b.push_str("12345\nnot a puzzle at all\n");
    w.write("b.txt", &b);
    let mut c = lines(&q[150..260]);
    c.push_str("1234567\n");
    w.write("c.txt", &c);
    import_each(&w, "with.sqlite", &["a.txt", "b.txt", "c.txt"], &[]);
    import_each(&w, "without.sqlite", &["a.txt", "c.txt"], &[]);

    let out = forget(&w, "with.sqlite", "2");
    assert!(
        out.starts_with("forgot import 2 of with.sqlite (run 4)"),
        "{out}"
    );
    // 160 lines of B; of its 100 new puzzles 50 go, 50 are C's now.
    assert!(out.contains("lines                160"), "{out}");
    assert!(out.contains("puzzles               50"), "{out}");
    assert_same(
        &described(&w.path("with.sqlite")),
        &described(&w.path("without.sqlite")),
    );
    assert_lookup_tables(&w.path("with.sqlite"));
    // What went is on record: the forget's run and its removals.
    assert_eq!(
        w.strings_in(
            "with.sqlite",
            "SELECT json_extract(i.arguments, '$[0]') || ' ' || r.reason || ' ' || r.sources
               || ' ' || r.rejects || ' ' || r.puzzles
             FROM removals AS r JOIN imports AS i ON i.id = r.import_id"
        ),
        ["forget forgotten 160 2 50"]
    );
    // The puzzles B had held of A's keep A's provenance.
    let a_held = w.strings_in(
        "with.sqlite",
        "SELECT count(*) || '' FROM sources AS s JOIN files AS f ON f.id = s.file_id
         WHERE f.path = 'a.txt' AND s.import_id = 1",
    );
    assert_eq!(a_held, ["100"]);
}

#[test]
fn forgetting_an_import_under_isomorph_dedup_leaves_what_importing_the_others_alone_makes() {
    let w = Workdir::new();
    let q = quizzes(160);
    let iso = |qs: &[String]| -> Vec<String> { qs.iter().map(|s| relabelled(s)).collect() };
    w.write("a.txt", lines(&q[0..50]));
    // B: isomorphs of A's puzzles (held as such), and puzzles of its own.
    let mut b = lines(&iso(&q[0..10]));
    b.push_str(&lines(&q[100..150]));
    w.write("b.txt", &b);
    // C: exact copies of B's puzzles, then isomorphs of those (the exact
    // line comes first in the file: without B it stores them), and
    // isomorphs of A's.
    let mut c = lines(&q[100..120]);
    c.push_str(&lines(&iso(&q[100..105])));
    c.push_str(&lines(&iso(&q[20..25])));
    w.write("c.txt", &c);
    let dedup = ["--dedup", "isomorphs"];
    import_each(&w, "with.sqlite", &["a.txt", "b.txt", "c.txt"], &dedup);
    import_each(&w, "without.sqlite", &["a.txt", "c.txt"], &dedup);
    forget(&w, "with.sqlite", "2");
    assert_same(
        &described(&w.path("with.sqlite")),
        &described(&w.path("without.sqlite")),
    );
    assert_lookup_tables(&w.path("with.sqlite"));
}

#[test]
fn a_puzzle_another_import_holds_only_as_an_isomorph_is_refused_and_nothing_changes() {
    let w = Workdir::new();
    let q = quizzes(20);
    w.write("a.txt", lines(&q[0..10]));
    w.write("b.txt", lines(&q[10..20]));
    w.write("c.txt", format!("{}\n", relabelled(&q[15])));
    let dedup = ["--dedup", "isomorphs"];
    import_each(&w, "puzzles.sqlite", &["a.txt", "b.txt", "c.txt"], &dedup);
    let before = described(&w.path("puzzles.sqlite"));
    let out = w.output(&["forget", "--db", "puzzles.sqlite", "--import", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("stored by import 2, is held first by import 3 (c.txt:1) as an isomorph")
            && err.contains("forget import 3 first"),
        "{err}"
    );
    assert_same(&described(&w.path("puzzles.sqlite")), &before);
    assert_eq!(w.count("SELECT count(*) FROM imports"), 3);
    // Forgetting C first, then B, works.
    forget(&w, "puzzles.sqlite", "3");
    forget(&w, "puzzles.sqlite", "2");
    import_each(&w, "a_only.sqlite", &["a.txt"], &dedup);
    assert_same(
        &described(&w.path("puzzles.sqlite")),
        &described(&w.path("a_only.sqlite")),
    );
}

#[test]
fn what_forget_cannot_take_back_is_refused_with_the_reason() {
    let w = Workdir::new();
    let q = quizzes(30);
    w.write("a.txt", lines(&q[0..10]));
    w.write("b.txt", lines(&q[10..20]));
    import_each(&w, "puzzles.sqlite", &["a.txt", "b.txt", "a.txt"], &[]);
    w.run(&["merge", "--db", "merged.sqlite", "puzzles.sqlite"]);
    let refused = |db: &str, n: &str| {
        let out = w.output(&["forget", "--db", db, "--import", n]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let before = described(&w.path("puzzles.sqlite"));
    assert_eq!(
        refused("puzzles.sqlite", "9"),
        "sudoku-archive: puzzles.sqlite: there is no import 9 (its runs are numbered 1 to 3; `stats` lists them)\n"
    );
    // The third import found a.txt unchanged: it relies on the first's rows.
    assert_eq!(
        refused("puzzles.sqlite", "1"),
        "sudoku-archive: import 3 read a.txt again after import 1 did, and keeps import 1's rows of the lines that had not changed: forget import 3 first\n"
    );
    assert_same(&described(&w.path("puzzles.sqlite")), &before);
    // The merge run itself holds nothing; the imports it brought in can go.
    let merge_run: String = w.strings_in(
        "merged.sqlite",
        "SELECT id || '' FROM imports WHERE json_extract(arguments, '$[0]') = 'merge'",
    )[0]
    .clone();
    let err = refused("merged.sqlite", &merge_run);
    assert!(
        err.contains(&format!("run {merge_run} is a merge")) && err.contains("one by one"),
        "{err}"
    );
    let b_there: String = w.strings_in(
        "merged.sqlite",
        "SELECT import_id || '' FROM merged_imports WHERE source_id = 2",
    )[0]
    .clone();
    forget(&w, "merged.sqlite", &b_there);
    assert_eq!(
        w.strings_in(
            "merged.sqlite",
            "SELECT count(*) || '' FROM merged_imports WHERE source_id = 2"
        ),
        ["0"]
    );
    assert_lookup_tables(&w.path("merged.sqlite"));
    // Nothing of b.txt is left.
    assert_eq!(
        w.strings_in(
            "merged.sqlite",
            "SELECT count(*) || '' FROM sources AS s JOIN files AS f ON f.id = s.file_id
             WHERE f.path = 'b.txt'"
        ),
        ["0"]
    );
    // A forget is not taken back.
    let last = w.strings_in("merged.sqlite", "SELECT max(id) || '' FROM imports")[0].clone();
    assert!(refused("merged.sqlite", &last).contains("is a forget"));
}

#[test]
fn forget_waits_for_no_import_it_refuses_while_one_runs() {
    use std::io::Write;
    let w = Workdir::new();
    let q = quizzes(10);
    w.write("a.txt", lines(&q));
    import_each(&w, "puzzles.sqlite", &["a.txt"], &[]);
    // An import that reads standard input holds the lock until it ends.
    let (child, mut stdin) = w.spawn_piped(&["import", "--db", "puzzles.sqlite", "-q", "-"]);
    stdin
        .write_all(lines(&quizzes(20)[10..]).as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    crate::util::first_nonzero(std::time::Duration::from_millis(20), || {
        w.count("SELECT count(*) FROM imports WHERE id = 2")
    });
    let out = w.output(&["forget", "--db", "puzzles.sqlite", "--import", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("an import or a merge is running on this archive")
            && err.contains("puzzles.sqlite-import-lock"),
        "{err}"
    );
    drop(stdin);
    assert!(child.wait_with_output().unwrap().status.success());
    assert_eq!(w.count("SELECT count(*) FROM imports"), 2);
}

#[test]
fn a_dry_run_says_what_would_go_and_changes_nothing() {
    let w = Workdir::new();
    let q = quizzes(30);
    w.write("a.txt", lines(&q[0..20]));
    w.write("b.txt", lines(&q[10..30]));
    import_each(&w, "puzzles.sqlite", &["a.txt", "b.txt"], &[]);
    let before = described(&w.path("puzzles.sqlite"));
    let out = w.run(&[
        "forget",
        "--db",
        "puzzles.sqlite",
        "--import",
        "2",
        "--dry-run",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sources"], 20);
    assert_eq!(v["puzzles_removed"], 10);
    assert_eq!(v["dry_run"], true);
    assert_same(&described(&w.path("puzzles.sqlite")), &before);
    assert_eq!(w.count("SELECT count(*) FROM imports"), 2);
}

#[test]
fn a_forget_killed_at_any_moment_leaves_the_archive_before_or_after() {
    let w = Workdir::new();
    w.write("a.txt", lines(&quizzes(200)));
    w.write("b.txt", relabelled_kaggle(3));
    w.write("c.txt", lines(&quizzes(400)[150..]));
    import_each(&w, "with.sqlite", &["a.txt", "b.txt", "c.txt"], &[]);
    import_each(&w, "without.sqlite", &["a.txt", "c.txt"], &[]);
    let before = described(&w.path("with.sqlite"));
    let after = described(&w.path("without.sqlite"));
    // Kill it at moments spread over its run; what is left is one state
    // or the other, and a forget run again ends in the second.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    for round in 0..3u64 {
        let mut child: std::process::Child = Command::new(env!("CARGO_BIN_EXE_sudoku-archive"))
            .args(["forget", "--db", "with.sqlite", "--import", "2"])
            .current_dir(w.path(""))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let ms = (seed.wrapping_mul(round + 7) >> 3) % 600;
        std::thread::sleep(std::time::Duration::from_millis(ms));
        let _ = child.kill();
        child.wait().unwrap();
        let now = described(&w.path("with.sqlite"));
        assert!(
            now == before || now == after,
            "killed after {ms} ms: neither before nor after"
        );
        if now == after {
            break;
        }
    }
    let left: Vec<String> =
        w.strings_in("with.sqlite", "SELECT id || '' FROM imports WHERE id = 2");
    if !left.is_empty() {
        forget(&w, "with.sqlite", "2");
    }
    assert_same(&described(&w.path("with.sqlite")), &after);
    assert_lookup_tables(&w.path("with.sqlite"));
}
