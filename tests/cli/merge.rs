//! `merge`: archives folded into one give what one import of their files
//! gives; a re-merge adds nothing; a killed merge is completed by a re-run;
//! inputs are never changed and foreign files are refused.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, SystemTime};

use crate::util::{
    PUZZLE_ROWS, Workdir, assert_lookup_tables, data, first_nonzero, relabelled_kaggle, sample,
    thousands,
};

/// Every provenance line with its puzzle's identity: what must not depend
/// on whether the lines were imported or merged.
const PROVENANCE: &str =
    "SELECT p.type || ' ' || p.givens || ' ' || v.file || ':' || v.line || ' ' || v.relation
    FROM provenance AS v JOIN puzzles AS p ON p.id = v.puzzle_id ORDER BY 1";

const REJECTS: &str =
    "SELECT file || ':' || line || ' ' || reason || ' ' || raw FROM rejected_lines ORDER BY 1";

/// Puzzle rows without ids (the canonical form too).
const PUZZLES: &str =
    "SELECT type || clues || givens || encoding || solutions || ifnull(solution, '')
    || ifnull(canonical, '-') FROM puzzles ORDER BY id";

fn import_into(w: &Workdir, db: &str, files: &[&Path], extra: &[&str]) {
    let mut args = vec!["import", "--quiet", "--db", db];
    args.extend_from_slice(extra);
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    w.run(&args);
}

fn merge(w: &Workdir, args: &[&str]) -> serde_json::Value {
    let mut a = vec!["merge", "--json"];
    a.extend_from_slice(args);
    serde_json::from_str(&w.run(&a)).unwrap()
}

fn same(w: &Workdir, a: &str, b: &str) {
    for sql in [PUZZLES, PROVENANCE, REJECTS] {
        assert_eq!(
            w.strings_in(a, sql),
            w.strings_in(b, sql),
            "{a} vs {b}: {sql}"
        );
    }
}

fn checked(w: &Workdir, db: &str) {
    assert_eq!(w.strings_in(db, "PRAGMA integrity_check"), ["ok"]);
    assert_lookup_tables(&w.path(db));
    assert_eq!(
        w.strings_in(db, "SELECT count(*) || '' FROM pragma_foreign_key_check"),
        ["0"]
    );
}

#[test]
fn merging_archives_gives_what_one_import_of_their_files_gives() {
    let w = Workdir::new();
    let a_files = [
        data("classic/magictour_top95.txt"),
        sample("bad.txt"),
        sample("killer.txt"),
    ];
    // B shares a file with A, and holds every type.
    let b_files = [
        sample("killer.txt"),
        data("killer/krazydad_intermediate_first500_legacy.txt"),
        sample("str8ts.txt"),
        sample("classic.txt"),
    ];
    let a: Vec<&Path> = a_files.iter().map(|p| p.as_path()).collect();
    let b: Vec<&Path> = b_files.iter().map(|p| p.as_path()).collect();
    import_into(&w, "a.sqlite", &a, &[]);
    import_into(&w, "b.sqlite", &b, &[]);
    let all: Vec<&Path> = a.iter().chain(&b[1..]).copied().collect();
    import_into(&w, "one.sqlite", &all, &[]);
    let before: Vec<Vec<u8>> = ["a.sqlite", "b.sqlite"]
        .iter()
        .map(|f| std::fs::read(w.path(f)).unwrap())
        .collect();

    let m = merge(&w, &["--db", "out.sqlite", "a.sqlite", "b.sqlite"]);
    same(&w, "out.sqlite", "one.sqlite");
    checked(&w, "out.sqlite");
    let stored = w.strings_in("one.sqlite", "SELECT count(*) || '' FROM puzzles");
    assert_eq!(m["stored"].to_string(), stored[0]);
    // The inputs are unchanged, byte for byte, with nothing made beside them.
    for (f, bytes) in ["a.sqlite", "b.sqlite"].iter().zip(&before) {
        assert_eq!(&std::fs::read(w.path(f)).unwrap(), bytes, "{f}");
        assert!(!w.path(&format!("{f}-wal")).exists(), "{f}-wal");
    }
    // The run and the imports it brought, each with its archive.
    assert_eq!(
        w.strings_in("out.sqlite", "SELECT status FROM imports ORDER BY id"),
        ["finished", "finished", "finished"]
    );
    assert_eq!(
        w.strings_in(
            "out.sqlite",
            "SELECT archive || ' ' || source_id || ' ' || merge_id FROM merged_imports ORDER BY import_id"
        ),
        ["a.sqlite 1 1", "b.sqlite 1 1"]
    );
    // Every provenance line and reject is attributed to an import of its
    // archive: A's rejects to A's.
    for table in ["sources", "rejects"] {
        assert_eq!(
            w.strings_in(
                "out.sqlite",
                &format!("SELECT count(*) || '' FROM {table} WHERE import_id NOT IN (SELECT import_id FROM merged_imports)")
            ),
            ["0"],
            "{table}"
        );
    }
    let a_rejects = w.strings_in(
        "a.sqlite",
        "SELECT file || ':' || line FROM rejected_lines ORDER BY 1",
    );
    assert!(!a_rejects.is_empty());
    assert_eq!(
        w.strings_in(
            "out.sqlite",
            "SELECT v.file || ':' || v.line FROM rejected_lines v
             JOIN merged_imports m ON m.import_id = v.import_id WHERE m.archive = 'a.sqlite' ORDER BY 1"
        ),
        a_rejects
    );
    // A re-merge adds nothing.
    let again = merge(&w, &["--db", "out.sqlite", "a.sqlite", "b.sqlite"]);
    assert_eq!(
        (again["stored"].as_u64(), again["new_imports"].as_u64()),
        (Some(0), Some(0))
    );
    same(&w, "out.sqlite", "one.sqlite");
    assert_eq!(
        w.strings_in("out.sqlite", "SELECT count(*) || '' FROM imports"),
        ["4"]
    );
    // And the files merged in are known: importing one of them again is
    // skipped as unchanged.
    let summary = w.run(&[
        "import",
        "--json",
        "--db",
        "out.sqlite",
        &sample("classic.txt").display().to_string(),
    ]);
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["unchanged_files"], 1, "{summary}");
    checked(&w, "out.sqlite");
}

/// Two files of 300 puzzles each, the second's each an isomorph of the
/// first's at the same line.
fn isomorph_files(w: &Workdir) -> (PathBuf, PathBuf) {
    let text = relabelled_kaggle(2);
    let lines: Vec<&str> = text.lines().collect();
    let part = |from: usize| -> String {
        lines[from..from + 300]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect()
    };
    (
        w.write("first.txt", part(0)),
        w.write("second.txt", part(10_000)),
    )
}

#[test]
fn merging_with_isomorph_dedup_gives_what_an_import_with_it_gives() {
    let w = Workdir::new();
    let (f1, f2) = isomorph_files(&w);
    import_into(&w, "a.sqlite", &[&f1], &[]);
    import_into(&w, "b.sqlite", &[&f2], &["--no-canonical"]);
    import_into(&w, "one.sqlite", &[&f1], &[]);
    import_into(&w, "one.sqlite", &[&f2], &["--dedup", "isomorphs"]);
    let m = merge(
        &w,
        &[
            "--db",
            "out.sqlite",
            "--dedup",
            "isomorphs",
            "a.sqlite",
            "b.sqlite",
        ],
    );
    assert_eq!(
        (m["stored"].as_u64(), m["isomorphs"].as_u64()),
        (Some(300), Some(300))
    );
    same(&w, "out.sqlite", "one.sqlite");
    checked(&w, "out.sqlite");
    assert_eq!(
        w.strings_in(
            "out.sqlite",
            "SELECT count(*) || '' FROM sources WHERE relation = 'isomorph'"
        ),
        ["300"]
    );
}

/// An input that holds isomorphs of its own puzzles (imported with exact
/// dedup), merged with `--dedup isomorphs` in one batch: each isomorph is
/// found among the puzzles the batch stored before it, whose lookup
/// entries wait for its commit, as an import of the same files finds it.
#[test]
fn isomorphs_of_puzzles_of_the_same_batch_are_found_before_its_commit() {
    let w = Workdir::new();
    let (f1, f2) = isomorph_files(&w);
    import_into(&w, "a.sqlite", &[&f1, &f2], &[]);
    import_into(&w, "one.sqlite", &[&f1, &f2], &["--dedup", "isomorphs"]);
    let args = ["--db", "out.sqlite", "--dedup", "isomorphs", "a.sqlite"];
    // Into a new archive, then again: every puzzle is held then, by
    // identity or by form, found in the tables.
    for counts in [[300, 300, 300], [0, 600, 300]] {
        let m = merge(&w, &args);
        let got = ["stored", "duplicates", "isomorphs"].map(|k| m[k].as_u64());
        assert_eq!(got, counts.map(Some), "{m}");
        same(&w, "out.sqlite", "one.sqlite");
        checked(&w, "out.sqlite");
    }
}

#[test]
fn merge_refuses_foreign_files_and_itself_untouched() {
    let w = Workdir::new();
    import_into(&w, "a.sqlite", &[&sample("classic.txt")], &[]);
    let foreign = w.path("other.sqlite");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE customers (name TEXT); INSERT INTO customers VALUES ('x');")
        .unwrap();
    let text = w.write("notes.txt", "not a database at all\n");
    std::fs::hard_link(w.path("a.sqlite"), w.path("h.sqlite")).unwrap();
    let before = std::fs::read(&foreign).unwrap();
    for (args, says) in [
        (
            vec!["merge", "--db", "out.sqlite", "a.sqlite", "other.sqlite"],
            "other.sqlite: not a sudoku-archive archive: it is a SQLite database with other tables (customers)",
        ),
        (
            vec!["merge", "--db", "out.sqlite", "a.sqlite", "notes.txt"],
            "notes.txt: not a sudoku-archive archive: it is not a SQLite database",
        ),
        (
            vec!["merge", "--db", "out.sqlite", "missing.sqlite"],
            "missing.sqlite: no archive there",
        ),
        (
            vec!["merge", "--db", "a.sqlite", "a.sqlite"],
            "a.sqlite: the output archive cannot be one of its inputs",
        ),
        (
            vec!["merge", "--db", "other.sqlite", "a.sqlite"],
            "other.sqlite: not a sudoku-archive archive",
        ),
        // The output under another name: the same file all the same.
        (
            vec!["merge", "--db", "a.sqlite", "h.sqlite"],
            "h.sqlite: the output archive cannot be one of its inputs",
        ),
        // No output named: no `puzzles.sqlite` made by default.
        (
            vec!["merge", "a.sqlite"],
            "the following required arguments were not provided:\n  --db <FILE>",
        ),
    ] {
        let out = w.output(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    // Nothing was made or changed: the inputs are checked before the output is opened.
    assert!(!w.path("out.sqlite").exists());
    assert!(!w.path("puzzles.sqlite").exists());
    assert_eq!(std::fs::read(&foreign).unwrap(), before);
    assert_eq!(std::fs::read(&text).unwrap(), b"not a database at all\n");
    assert_eq!(
        w.strings_in("a.sqlite", "SELECT count(*) || '' FROM imports"),
        ["1"]
    );
}

/// `sql`'s one number on the archive `db`; 0 while there is none.
pub fn count_in(w: &Workdir, db: &str, sql: &str) -> i64 {
    rusqlite::Connection::open(w.path(db))
        .ok()
        .and_then(|c| c.query_row(sql, [], |r| r.get(0)).ok())
        .unwrap_or(0)
}

/// Starts `args`, a merge into `out.sqlite` as its first run, with its
/// output piped, and returns once its first batch is committed, with the
/// puzzles it had stored then.
pub fn start_until_committed(w: &Workdir, args: &[&str]) -> (Child, i64) {
    let child = w
        .command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let committed = first_nonzero(Duration::from_millis(2), || {
        count_in(w, "out.sqlite", "SELECT stored FROM imports WHERE id = 1")
    });
    (child, committed)
}

/// After a merge of `a.sqlite` into `out.sqlite` that was stopped, and the
/// same command again: `out.sqlite` is what a merge never stopped makes,
/// beside the stopped run.
fn completed_as_a_clean_merge(w: &Workdir) {
    w.run(&["merge", "--db", "clean.sqlite", "a.sqlite"]);
    assert_eq!(
        w.strings_in("out.sqlite", PUZZLE_ROWS),
        w.strings_in("clean.sqlite", PUZZLE_ROWS)
    );
    same(w, "out.sqlite", "clean.sqlite");
    checked(w, "out.sqlite");
    assert_eq!(
        w.strings_in("out.sqlite", "SELECT status FROM imports ORDER BY id"),
        ["interrupted", "finished", "finished"]
    );
}

#[test]
fn a_killed_merge_is_completed_by_a_rerun() {
    let w = Workdir::new();
    let big = w.write("big.txt", relabelled_kaggle(4));
    import_into(&w, "a.sqlite", &[&big], &["--no-canonical"]);
    let total = 40_000;
    // Small batches, so that the merge is killed between two.
    let args = [
        "merge",
        "--db",
        "out.sqlite",
        "--batch-puzzles",
        "500",
        "a.sqlite",
    ];
    let (mut child, _) = start_until_committed(&w, &args);
    let done = |sql: &str| count_in(&w, "out.sqlite", sql);
    child.kill().unwrap();
    child.wait().unwrap();
    let stored = done("SELECT count(*) FROM puzzles");
    assert!(
        stored > 0 && stored < total,
        "killed partway: {stored} of {total} puzzles"
    );
    // Whole batches: the puzzles are the first ones, each with its lines.
    assert_eq!(stored % 500, 0, "{stored}");
    assert_eq!(done("SELECT count(*) FROM sources"), stored);
    assert_eq!(
        done("SELECT count(*) FROM imports WHERE status = 'running'"),
        1
    );
    assert_unfinished(&w, "out.sqlite");

    w.run(&args);
    completed_as_a_clean_merge(&w);
}

/// A merge of 40,000 puzzles (and a reject) in batches of 200, sent
/// `signal` once its first batch is committed: it stops there, cleanly.
fn a_signalled_merge_is_recorded_and_completed_by_a_rerun(signal: &str, status: i32) {
    let w = Workdir::new();
    let mut text = String::from("not a puzzle\n");
    text.push_str(&relabelled_kaggle(4));
    let big = w.write("big.txt", text);
    import_into(&w, "a.sqlite", &[&big], &["--no-canonical"]);
    let total = 40_000;
    let args = [
        "merge",
        "--json",
        "--db",
        "out.sqlite",
        "--batch-puzzles",
        "200",
        "a.sqlite",
    ];
    let (child, committed) = start_until_committed(&w, &args);
    let count = |sql: &str| count_in(&w, "out.sqlite", sql);
    let sent = std::process::Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -s {signal}");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "SIG{signal}: {stderr}");

    // The run is recorded as stopped, with counts that are those of the
    // rows written: the first puzzles, each with its line, no reject yet.
    let (state, finished, lines, stored, duplicates, rejected): (String, bool, i64, i64, i64, i64) =
        rusqlite::Connection::open(w.path("out.sqlite"))
            .unwrap()
            .query_row(
                "SELECT status, finished_at IS NOT NULL, lines, stored, duplicates, rejected
                 FROM imports WHERE id = 1",
                [],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                    ))
                },
            )
            .unwrap();
    assert_eq!((state.as_str(), finished), ("interrupted", true));
    assert!(
        stored >= committed && stored < total,
        "stopped partway: {stored} of {total} puzzles, {committed} committed before the signal"
    );
    assert_eq!((lines, duplicates, rejected), (stored, 0, 0));
    assert_eq!(count("SELECT count(*) FROM puzzles"), stored);
    assert_eq!(count("SELECT max(id) FROM puzzles"), stored);
    assert_eq!(count("SELECT count(*) FROM sources"), stored);
    assert_eq!(
        count("SELECT count(*) FROM imports WHERE status = 'running'"),
        0
    );
    assert_unfinished(&w, "out.sqlite");
    checked(&w, "out.sqlite");
    // One line on stderr: which signal, how far, and what to do.
    assert_eq!(
        stderr.trim_end(),
        format!(
            "sudoku-archive: interrupted by SIG{signal}: merge 1 recorded {} rows, \
             up to puzzle {stored} of a.sqlite; running the same command again completes it",
            thousands(stored)
        )
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["status"], "interrupted", "{summary}");
    assert_eq!(summary["stored"].as_i64(), Some(stored), "{summary}");

    // The same command again completes it as an uninterrupted merge.
    let again: serde_json::Value = serde_json::from_str(&w.run(&args)).unwrap();
    assert_eq!(
        (again["stored"].as_i64(), again["duplicates"].as_i64()),
        (Some(total - stored), Some(stored)),
        "{again}"
    );
    completed_as_a_clean_merge(&w);
}

#[test]
fn sigint_stops_a_merge_cleanly_with_status_130() {
    a_signalled_merge_is_recorded_and_completed_by_a_rerun("INT", 130);
}

#[test]
fn sigterm_stops_a_merge_cleanly_with_status_143() {
    a_signalled_merge_is_recorded_and_completed_by_a_rerun("TERM", 143);
}

/// Panics unless the archive `db`, left by a merge that did not end,
/// says of no import that it finished nor of any file read that it was
/// complete: a later import of their files must read them, not skip them
/// as unchanged.
fn assert_unfinished(w: &Workdir, db: &str) {
    assert_eq!(
        w.strings_in(
            db,
            "SELECT 'import ' || id || ' ' || status FROM imports WHERE status = 'finished'
             UNION ALL SELECT 'read of file ' || file_id || ' by ' || import_id
             FROM file_reads WHERE complete = 1"
        ),
        Vec::<String>::new()
    );
}

/// A file of `lines`, with a line that is no puzzle before every 500th.
fn with_rejects(w: &Workdir, name: &str, lines: &[&str]) -> PathBuf {
    let mut text = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i % 500 == 7 {
            text.push_str("not a puzzle\n");
        }
        text.push_str(l);
        text.push('\n');
    }
    w.write(name, text)
}

/// The done-when of a killed merge: killed at random moments (from
/// before its first row to its end), and then its inputs' files imported
/// and the merge run again, in either order, the archive holds the rows of
/// a merge never killed. Between the two, the import alone gives them too:
/// nothing the killed merge wrote says its imports finished, so their
/// files are read, not skipped as unchanged.
#[test]
fn merges_killed_at_random_moments_end_as_a_clean_merge_after_imports_and_a_rerun() {
    let w = Workdir::new();
    let text = relabelled_kaggle(1);
    let lines: Vec<&str> = text.lines().collect();
    // Two inputs whose files overlap, each with rejects: 12,024 rows.
    let one = with_rejects(&w, "one.txt", &lines[..6_000]);
    let two = with_rejects(&w, "two.txt", &lines[4_000..]);
    let files = [one.as_path(), two.as_path()];
    import_into(&w, "a.sqlite", &files[..1], &["--no-canonical"]);
    import_into(&w, "b.sqlite", &files[1..], &["--no-canonical"]);
    let merge_into = |db: &str| {
        w.command(&[
            "merge",
            "--db",
            db,
            "--batch-puzzles",
            "100",
            "a.sqlite",
            "b.sqlite",
        ])
    };
    let run = |db: &str| assert!(merge_into(db).output().unwrap().status.success());
    run("clean.sqlite");
    // xorshift64 from the clock: the moments differ run to run, and the
    // failure message says which one broke.
    let mut seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64
        | 1;
    for round in 0..4 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Killed once it has committed this many rows (or when it ends).
        let rows = (seed % 12_100) as i64;
        let db = format!("out{round}.sqlite");
        let mut child = merge_into(&db)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none()
            && (!w.path(&db).exists()
                || count_in(&w, &db, "SELECT lines FROM imports WHERE id = 1") < rows)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = child.kill(); // SIGKILL
        child.wait().unwrap();
        let done = count_in(&w, &db, "SELECT lines FROM imports WHERE id = 1");
        let what = format!("killed at {rows} rows, {done} committed");
        let reimport = || import_into(&w, &db, &files, &["--no-canonical"]);
        if round % 2 == 0 {
            reimport();
            for sql in [PUZZLE_ROWS, PUZZLES, PROVENANCE, REJECTS] {
                let got = w.strings_in(&db, sql);
                assert_eq!(got, w.strings_in("clean.sqlite", sql), "{what}: {sql}");
            }
            run(&db);
        } else {
            run(&db);
            reimport();
        }
        for sql in [PUZZLE_ROWS, PUZZLES, PROVENANCE, REJECTS] {
            let got = w.strings_in(&db, sql);
            assert_eq!(got, w.strings_in("clean.sqlite", sql), "{what}: {sql}");
        }
        checked(&w, &db);
    }
}

/// Overwrites the leaf page of the table `puzzles` of the archive `db`
/// three quarters along in id order with bytes no page begins with.
fn corrupt_puzzles_page(w: &Workdir, db: &str) {
    let conn = rusqlite::Connection::open(w.path(db)).unwrap();
    let size: u64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .unwrap();
    let leaves: Vec<u64> = conn
        .prepare(
            "SELECT pageno FROM dbstat WHERE name = 'puzzles' AND pagetype = 'leaf' ORDER BY path",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    drop(conn);
    assert!(leaves.len() > 4, "{leaves:?}");
    let page = leaves[leaves.len() * 3 / 4];
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(w.path(db))
        .unwrap();
    f.seek(SeekFrom::Start((page - 1) * size)).unwrap();
    f.write_all(&vec![0xff; size as usize]).unwrap();
}

/// A merge that fails partway, on a corrupt input or a full disk, says
/// which input it could not read, records itself failed, and leaves the
/// imports it copied unfinished: an import of their file then reads it
/// and ends with the rows of a clean import.
#[test]
fn a_failed_merge_names_its_input_and_leaves_its_imports_unfinished() {
    let w = Workdir::new();
    let text = relabelled_kaggle(1);
    let lines: Vec<&str> = text.lines().collect();
    let big = with_rejects(&w, "big.txt", &lines);
    import_into(&w, "a.sqlite", &[&big], &["--no-canonical"]);
    import_into(&w, "clean.sqlite", &[&big], &["--no-canonical"]);
    std::fs::copy(w.path("a.sqlite"), w.path("bad.sqlite")).unwrap();
    corrupt_puzzles_page(&w, "bad.sqlite");
    let pages = count_in(&w, "a.sqlite", "PRAGMA page_count");
    let half = (pages / 2).to_string();
    for (db, args, says) in [
        (
            "corrupt.sqlite",
            vec!["bad.sqlite"],
            "sudoku-archive: bad.sqlite: reading its puzzles: database disk image is malformed",
        ),
        (
            "full.sqlite",
            vec!["--max-pages", &half, "a.sqlite"],
            "the disk is full",
        ),
    ] {
        let mut all = vec!["merge", "--db", db, "--batch-puzzles", "300"];
        all.extend(args);
        let out = w.output(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{db}: {stderr}");
        assert!(stderr.contains(says), "{db}: {stderr}");
        // Stopped partway, after batches were committed.
        let stored = count_in(&w, db, "SELECT count(*) FROM puzzles");
        assert!(stored > 0 && stored < 10_000, "{db}: {stored} puzzles");
        assert_eq!(
            w.strings_in(db, "SELECT status FROM imports WHERE id = 1"),
            ["failed"]
        );
        assert_unfinished(&w, db);
        let summary = w.run(&[
            "import",
            "--json",
            "--no-canonical",
            "--db",
            db,
            &big.display().to_string(),
        ]);
        let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
        assert_eq!(summary["unchanged_files"], 0, "{db}: {summary}");
        same(&w, db, "clean.sqlite");
        assert_eq!(
            w.strings_in(db, PUZZLE_ROWS),
            w.strings_in("clean.sqlite", PUZZLE_ROWS)
        );
        checked(&w, db);
    }
}

/// Reject rows are counted once: those new here as `rejected`, those the
/// output already held (from an earlier input or merge) as held.
#[test]
fn rejects_the_output_already_holds_are_counted_as_held_not_kept() {
    let w = Workdir::new();
    let bad = sample("bad.txt");
    import_into(&w, "a.sqlite", &[&bad], &[]);
    import_into(&w, "b.sqlite", &[&bad], &[]);
    let held = count_in(&w, "a.sqlite", "SELECT count(*) FROM rejects");
    assert!(held > 0);
    let m = merge(&w, &["--db", "out.sqlite", "a.sqlite", "b.sqlite"]);
    assert_eq!(
        count_in(&w, "out.sqlite", "SELECT count(*) FROM rejects"),
        held
    );
    assert_eq!(
        (m["rejected"].as_i64(), m["rejects_held"].as_i64()),
        (Some(held), Some(held)),
        "{m}"
    );
    let again = w.run(&["merge", "--db", "out.sqlite", "a.sqlite"]);
    assert!(
        again.contains(&format!(
            " 0  (reject rows new here; {} already held)\n",
            thousands(held)
        )),
        "{again}"
    );
}
