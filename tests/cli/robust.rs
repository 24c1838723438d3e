//! Robustness: kills, hostile bytes, a full disk, concurrent use. Each
//! property a nightly job relies on, proven on the real binary.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::util::{PUZZLE_ROWS, Workdir, data, relabelled_kaggle};

/// The archive's content that must not depend on how the import got there.
fn content(w: &Workdir, db: &str) -> (Vec<String>, i64, i64, String) {
    let puzzles = w.strings_in(db, PUZZLE_ROWS);
    let conn = rusqlite::Connection::open(w.path(db)).unwrap();
    let sources: i64 = conn
        .query_row("SELECT count(*) FROM sources", [], |r| r.get(0))
        .unwrap();
    let distinct: i64 = conn
        .query_row(
            "SELECT count(*) FROM (SELECT DISTINCT file_id, line FROM sources)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    // The importer writes with enforcement off: every reference must hold anyway.
    let dangling: i64 = conn
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    if dangling > 0 {
        check = format!("{check}; {dangling} rows without their parent row");
    }
    (puzzles, sources, distinct, check)
}

fn lines_done(w: &Workdir, db: &str) -> i64 {
    let Ok(conn) = rusqlite::Connection::open(w.path(db)) else {
        return 0;
    };
    conn.query_row("SELECT ifnull(max(lines), 0) FROM imports", [], |r| {
        r.get(0)
    })
    .unwrap_or(0)
}

/// Waits, up to a minute, until imports into `db` have committed `lines` lines.
fn wait_for_lines(w: &Workdir, db: &str, lines: i64) {
    let start = Instant::now();
    while lines_done(w, db) < lines && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_killed_import_leaves_a_consistent_archive_that_a_rerun_completes() {
    let w = Workdir::new();
    let big = w.write("big.txt", relabelled_kaggle(30));
    let total = 300_000;
    let name = big.display().to_string();

    let mut child = w
        .command(&["import", "--quiet", "--db", "killed.sqlite", &name])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&w, "killed.sqlite", 20_000);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done = lines_done(&w, "killed.sqlite");
    assert!(
        done > 0 && done < total,
        "killed partway: {done} of {total} lines were committed"
    );

    let (puzzles, sources, distinct, check) = content(&w, "killed.sqlite");
    assert_eq!(check, "ok");
    // The killed batch took its lookup entries with it: every committed
    // puzzle has its key (and form) entry, and nothing else is there.
    crate::util::assert_lookup_tables(&w.path("killed.sqlite"));
    assert_eq!(
        puzzles.len() as i64,
        done,
        "only whole batches are visible, and the counts match them"
    );
    assert_eq!(sources, distinct);
    let conn = rusqlite::Connection::open(w.path("killed.sqlite")).unwrap();
    let (status, finished): (String, Option<String>) = conn
        .query_row("SELECT status, finished_at FROM imports", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(
        (status.as_str(), finished),
        ("running", None),
        "the killed run is visibly unfinished"
    );

    let rerun = w.run(&[
        "import",
        "--json",
        "--quiet",
        "--db",
        "killed.sqlite",
        &name,
    ]);
    w.run(&["import", "--quiet", "--db", "clean.sqlite", &name]);
    let resumed = content(&w, "killed.sqlite");
    let clean = content(&w, "clean.sqlite");
    assert_eq!(resumed.0.len(), total as usize);
    assert_eq!(resumed, clean, "re-run after a kill equals a clean run");
    crate::util::assert_lookup_tables(&w.path("killed.sqlite"));
    // The re-run found the killed run dead and said so.
    assert!(rerun.contains(r#""interrupted_imports":[1]"#), "{rerun}");
    assert_eq!(
        w.strings_in(
            "killed.sqlite",
            "SELECT id || ' ' || status FROM imports ORDER BY id"
        ),
        ["1 interrupted", "2 finished"]
    );
}

#[test]
fn an_import_leaves_the_row_of_one_still_running_alone() {
    let w = Workdir::new();
    let big = w.write("big.txt", relabelled_kaggle(30));
    let small = w.write("small.txt", relabelled_kaggle(1));
    let mut child = w
        .command(&[
            "import",
            "--quiet",
            "--db",
            "both.sqlite",
            &big.display().to_string(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&w, "both.sqlite", 1);
    let second = w.run(&[
        "import",
        "--json",
        "--quiet",
        "--db",
        "both.sqlite",
        &small.display().to_string(),
    ]);
    let first_status = w.strings_in("both.sqlite", "SELECT status FROM imports WHERE id = 1");
    let still_running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        still_running,
        "the first import ended before the second: make it bigger"
    );
    assert!(second.contains(r#""interrupted_imports":[]"#), "{second}");
    assert_eq!(first_status, ["running"]);
}

#[test]
fn hostile_bytes_are_rejected_line_by_line_and_memory_stays_bounded() {
    let w = Workdir::new();
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let mut bytes = Vec::new();
    bytes.extend_from_slice(good.as_bytes());
    bytes.extend_from_slice(b"\n\xff\xfe not utf-8\n");
    bytes.extend_from_slice(format!("{}\0{}\n", &good[..40], &good[41..]).as_bytes());
    bytes.extend_from_slice(&vec![b'7'; 100 << 20]); // 100 MiB, no newline
    bytes.extend_from_slice(b"\r");
    bytes.extend_from_slice(format!("\u{feff}{}\r", good.replace('4', "0")).as_bytes()); // BOM starting a CR-only line
    bytes.extend_from_slice(format!("{}\u{feff}{}\r\n", &good[..40], &good[40..]).as_bytes());
    bytes.extend_from_slice(b"\x00\x01\x02\x03\x89PNG\r\n\x1a\n");
    w.write("hostile.txt", &bytes);

    drop(bytes);
    let s = w.import(&[&w.path("hostile.txt")], &[]);
    assert_eq!(s["stored"], 2, "{s}");
    let peak_kib = s["peak_rss_kib"]
        .as_u64()
        .expect("peak memory is reported on Linux");
    assert!(
        peak_kib < 64 * 1024,
        "a 100 MiB line is not held whole: peak {peak_kib} KiB"
    );
    let reasons = w.strings("SELECT line || ':' || reason FROM rejects ORDER BY line");
    assert_eq!(
        reasons,
        vec![
            "2:encoding",
            "3:character",
            "4:too-long",
            "6:format",
            // Line 8, the DOS end-of-file byte, is skipped.
            "7:encoding",
        ],
        "{s}"
    );
}

#[test]
fn a_binary_file_is_refused_without_crashing() {
    let w = Workdir::new();
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let bytes: Vec<u8> = (0..2_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    let f = w.write("random.bin", bytes);
    // Refused up front (its NUL bytes say binary), nothing written.
    let out = w.output(&["import", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("random.bin: binary data, not puzzle text"),
        "{err}"
    );
    assert!(!w.path("puzzles.sqlite").exists());
}

#[test]
fn a_full_disk_stops_the_import_cleanly_and_a_later_run_completes_it() {
    let w = Workdir::new();
    let f = data("classic/kaggle_1m_first10k.csv");
    let name = f.display().to_string();
    let out = w.output(&["import", "--quiet", "--max-pages", "150", &name]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("disk is full"), "{stderr}");
    let (partial, _, _, check) = content(&w, "puzzles.sqlite");
    assert_eq!(check, "ok");
    assert!(partial.len() < 10_000);
    w.run(&["import", "--quiet", &name]);
    w.run(&["import", "--quiet", "--db", "clean.sqlite", &name]);
    assert_eq!(content(&w, "puzzles.sqlite"), content(&w, "clean.sqlite"));
}

#[test]
fn readers_see_committed_batches_and_a_second_import_does_not_double_count() {
    let w = Workdir::new();
    let a = w.write("a.txt", relabelled_kaggle(12));
    let text = relabelled_kaggle(18);
    // b overlaps a on its first 120,000 lines and adds 60,000 more.
    let b = w.write("b.txt", &text);
    let first = w
        .command(&["import", "--quiet", "--json", a.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(&w, "puzzles.sqlite", 1);
    let second = w
        .command(&["import", "--quiet", "--json", b.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // While both run, every snapshot is consistent: provenance matches the counts.
    let mut snapshots = 0;
    while snapshots < 20 {
        let conn = rusqlite::Connection::open(w.path("puzzles.sqlite")).unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        let counted: i64 = tx
            .query_row(
                "SELECT ifnull(sum(stored + duplicates), 0) FROM imports",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let sources: i64 = tx
            .query_row("SELECT count(*) FROM sources", [], |r| r.get(0))
            .unwrap();
        let stored: i64 = tx
            .query_row("SELECT ifnull(sum(stored), 0) FROM imports", [], |r| {
                r.get(0)
            })
            .unwrap();
        let puzzles: i64 = tx
            .query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0))
            .unwrap();
        assert_eq!(
            (counted, stored),
            (sources, puzzles),
            "a reader saw a half-written batch"
        );
        snapshots += 1;
        std::thread::sleep(Duration::from_millis(30));
    }
    let stats = w.output(&["stats", "--json"]);
    assert!(
        stats.status.success(),
        "stats works during an import: {stats:?}"
    );
    let (o1, o2) = (
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    );
    assert!(o1.status.success() && o2.status.success(), "{o1:?} {o2:?}");
    let s1: serde_json::Value = serde_json::from_slice(&o1.stdout).unwrap();
    let s2: serde_json::Value = serde_json::from_slice(&o2.stdout).unwrap();
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 180_000);
    // Interleaved batches of two writers: each puzzle once, with its entries.
    w.assert_lookup_tables();
    assert_eq!(
        s1["stored"].as_i64().unwrap() + s2["stored"].as_i64().unwrap(),
        180_000,
        "{s1} {s2}"
    );
    assert_eq!(
        s2["stored"].as_i64().unwrap() + s2["duplicates"].as_i64().unwrap(),
        180_000
    );
    let (_, sources, distinct, check) = content(&w, "puzzles.sqlite");
    assert_eq!(
        (sources, distinct, check.as_str()),
        (300_000, 300_000, "ok")
    );
}
