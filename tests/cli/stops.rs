//! The first SIGTERM or SIGINT stops a command promptly wherever it waits
//! (issue 36, item 7): for a writer to open a named pipe, for another
//! import's lock, for another process's write lock on the archive (before
//! the run and between batches), while hashing a file to prove it
//! unchanged. Each on the real binary: the signal sent at the wait, the
//! exit within a bound with the signal's status and message, the archive
//! consistent, and a re-run that completes it.

use std::io::Write;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use crate::nightly_input::mkfifo;
use crate::nightly_jobs::send;
use crate::util::{PUZZLE_ROWS, Workdir, committed_lines, relabelled_kaggle, sample};

/// How long a stopped command may take to end after the signal: the
/// waits look at the stop every 100 ms at most, the write lock's after
/// a grace of a second.
const PROMPT: Duration = Duration::from_secs(5);

/// Sends `signal` to `child` and waits for it to end, at most [`PROMPT`];
/// a child still running then is killed and the test fails.
fn stop(mut child: Child, signal: &str, what: &str) -> Output {
    send(&child, signal);
    let sent = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if sent.elapsed() > PROMPT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running {PROMPT:?} after SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn spawn(w: &Workdir, args: &[&str]) -> Child {
    w.command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sudoku-archive")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The archive's rows that must not depend on how it got there.
fn rows(w: &Workdir, db: &str) -> Vec<String> {
    crate::util::assert_lookup_tables(&w.path(db));
    let mut rows = w.strings_in(db, PUZZLE_ROWS);
    rows.extend(w.strings_in(
        db,
        "SELECT f.path || ':' || s.line || ' ' || s.puzzle_id FROM sources AS s
         JOIN files AS f ON f.id = s.file_id ORDER BY f.path, s.line",
    ));
    rows.extend(w.strings_in(
        db,
        "SELECT f.path || ':' || r.line || ' ' || r.reason FROM rejects AS r
         JOIN files AS f ON f.id = r.file_id ORDER BY f.path, r.line",
    ));
    rows
}

fn statuses(w: &Workdir, db: &str) -> Vec<String> {
    w.strings_in(db, "SELECT id || ' ' || status FROM imports ORDER BY id")
}

#[test]
fn sigterm_stops_an_import_waiting_for_a_writer_to_open_its_named_pipe() {
    let w = Workdir::new();
    let fifo = w.path("feed.fifo");
    mkfifo(&fifo);
    let child = spawn(&w, &["import", "--quiet", "feed.fifo"]);
    // Opening the pipe waits for a writer, which never comes.
    std::thread::sleep(Duration::from_millis(500));
    let out = stop(child, "TERM", "import of a pipe nobody writes");
    assert_eq!(
        (out.status.code(), stderr(&out).as_str()),
        (
            Some(143),
            "sudoku-archive: interrupted by SIGTERM before the import began; nothing was imported\n"
        )
    );
    assert!(
        !w.path("puzzles.sqlite").exists(),
        "the pipe is opened before the archive"
    );
    // With a writer, the same command imports it.
    let text = std::fs::read(sample("classic.txt")).unwrap();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(fifo)?;
        f.write_all(&text)
    });
    w.run(&["import", "--quiet", "feed.fifo"]);
    writer.join().unwrap().expect("the pipe was read");
    w.run(&[
        "import",
        "--quiet",
        "--db",
        "clean.sqlite",
        &sample("classic.txt").display().to_string(),
    ]);
    assert_eq!(
        w.strings_in("puzzles.sqlite", PUZZLE_ROWS),
        w.strings_in("clean.sqlite", PUZZLE_ROWS)
    );
    assert_eq!(statuses(&w, "puzzles.sqlite"), ["1 finished"]);
}

/// `check` stops the same way while it waits to open its input, and says
/// so (without its handler installed yet the signal killed it silently).
#[test]
fn sigterm_stops_a_check_waiting_for_a_writer_to_open_its_named_pipe() {
    let w = Workdir::new();
    let fifo = w.path("feed.fifo");
    mkfifo(&fifo);
    let child = spawn(&w, &["check", "--quiet", "feed.fifo"]);
    std::thread::sleep(Duration::from_millis(500));
    let out = stop(child, "TERM", "check of a pipe nobody writes");
    assert_eq!(
        (out.status.code(), stderr(&out).as_str()),
        (
            Some(143),
            "sudoku-archive: interrupted by SIGTERM before the check began; nothing was checked\n"
        )
    );
}

/// Another import holds the import lock exclusively while it marks killed
/// runs (itself waiting for the write lock, say): one that starts then
/// waits for it before its run begins.
#[test]
fn sigint_stops_an_import_waiting_for_another_imports_lock() {
    let w = Workdir::new();
    let file = sample("classic.txt").display().to_string();
    w.run(&["import", "--quiet", "--db", "clean.sqlite", &file]);
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(w.path("puzzles.sqlite-import-lock"))
        .unwrap();
    lock.lock().unwrap();
    let child = spawn(&w, &["import", "--quiet", &file]);
    // The archive is made, then the lock waited for.
    crate::util::first_nonzero(Duration::from_millis(10), || {
        i64::from(w.path("puzzles.sqlite").exists())
    });
    std::thread::sleep(Duration::from_millis(500));
    let out = stop(child, "INT", "import waiting for the import lock");
    assert_eq!(
        (out.status.code(), stderr(&out).as_str()),
        (
            Some(130),
            "sudoku-archive: interrupted by SIGINT before the import began; nothing was imported\n"
        )
    );
    assert_eq!(statuses(&w, "puzzles.sqlite"), Vec::<String>::new());
    drop(lock);
    w.run(&["import", "--quiet", &file]);
    assert_eq!(rows(&w, "puzzles.sqlite"), rows(&w, "clean.sqlite"));
    assert_eq!(statuses(&w, "puzzles.sqlite"), ["1 finished"]);
}

/// Another process (a `sqlite3` shell in a transaction) holds the write
/// lock and writes nothing: an import or a merge that starts waits for
/// it, up to a minute without a change, before its run begins.
#[test]
fn sigterm_stops_an_import_and_a_merge_waiting_for_a_write_lock_held_elsewhere() {
    let w = Workdir::new();
    let file = sample("classic.txt").display().to_string();
    let other = sample("killer.txt").display().to_string();
    w.run(&["import", "--quiet", &file]);
    w.run(&["import", "--quiet", "--db", "other.sqlite", &other]);
    let before = rows(&w, "puzzles.sqlite");
    let holder = rusqlite::Connection::open(w.path("puzzles.sqlite")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    for (args, run, done) in [
        (
            vec!["import", "--quiet", "--reread", &file],
            "import",
            "imported",
        ),
        (
            vec!["merge", "--quiet", "--db", "puzzles.sqlite", "other.sqlite"],
            "merge",
            "merged",
        ),
    ] {
        let child = spawn(&w, &args);
        std::thread::sleep(Duration::from_millis(1000));
        let out = stop(child, "TERM", run);
        assert_eq!(
            (out.status.code(), stderr(&out)),
            (
                Some(143),
                format!(
                    "sudoku-archive: interrupted by SIGTERM before the {run} began; nothing was {done}\n"
                )
            ),
            "{args:?}"
        );
    }
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    assert_eq!(rows(&w, "puzzles.sqlite"), before);
    assert_eq!(statuses(&w, "puzzles.sqlite"), ["1 finished"]);
    w.run(&["merge", "--quiet", "--db", "puzzles.sqlite", "other.sqlite"]);
    w.run(&["import", "--quiet", "--db", "clean.sqlite", &file, &other]);
    assert_eq!(
        w.strings_in(
            "puzzles.sqlite",
            "SELECT givens FROM puzzles ORDER BY givens"
        ),
        w.strings_in("clean.sqlite", "SELECT givens FROM puzzles ORDER BY givens")
    );
}

/// A pipe's first lines are committed (its batch closes on time while it
/// is quiet); then another process takes the write lock and holds it, and
/// more lines come: the import waits for the lock to begin their batch.
#[test]
fn sigterm_stops_an_import_waiting_between_batches_for_a_write_lock_held_elsewhere() {
    let w = Workdir::new();
    let text = relabelled_kaggle(1);
    let (first, rest) = text.split_at(text.match_indices('\n').nth(4095).unwrap().0 + 1);
    let (child, mut stdin) = w.spawn_piped(&["import", "--quiet", "--stdin-name", "feed", "-"]);
    stdin.write_all(first.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let committed = crate::util::first_nonzero(Duration::from_millis(20), || committed_lines(&w));
    assert_eq!(committed, 4096);
    let holder = rusqlite::Connection::open(w.path("puzzles.sqlite")).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    stdin.write_all(rest.as_bytes()).unwrap();
    stdin.flush().unwrap();
    // Ample time to process 5,904 lines; their batch cannot begin.
    std::thread::sleep(Duration::from_millis(1500));
    let out = stop(child, "TERM", "import waiting for the write lock");
    drop(stdin);
    assert_eq!(
        (out.status.code(), stderr(&out).as_str()),
        (
            Some(143),
            "sudoku-archive: another process holds the archive's write lock, so the run could not \
             be marked interrupted now; the next import marks it\n\
             sudoku-archive: interrupted by SIGTERM: import 1 recorded 4,096 lines, up to feed:4096; \
             running the same command again completes it\n"
        )
    );
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    // Whole batches only, and the run left as a killed one is.
    assert_eq!(w.count("SELECT count(*) FROM sources"), 4096);
    assert_eq!(statuses(&w, "puzzles.sqlite"), ["1 running"]);
    // The same lines again: the archive a clean import of them makes.
    let (child, mut stdin) = w.spawn_piped(&["import", "--quiet", "--stdin-name", "feed", "-"]);
    stdin.write_all(text.as_bytes()).unwrap();
    drop(stdin);
    assert!(child.wait_with_output().unwrap().status.success());
    let (child, mut stdin) = w.spawn_piped(&[
        "import",
        "--quiet",
        "--db",
        "clean.sqlite",
        "--stdin-name",
        "feed",
        "-",
    ]);
    stdin.write_all(text.as_bytes()).unwrap();
    drop(stdin);
    assert!(child.wait_with_output().unwrap().status.success());
    assert_eq!(rows(&w, "puzzles.sqlite"), rows(&w, "clean.sqlite"));
    assert_eq!(
        statuses(&w, "puzzles.sqlite"),
        ["1 interrupted", "2 finished"]
    );
}

/// A file the size of an earlier complete read is hashed whole before the
/// import decides to skip it: 16 GiB (sparse, so that it takes no disk)
/// take many seconds to hash.
#[test]
fn sigterm_stops_an_import_hashing_a_big_file_to_prove_it_unchanged() {
    let w = Workdir::new();
    // (Text through the first 8 KiB, which say whether a file is text.)
    let path = w.write("big.txt", relabelled_kaggle(1));
    let len = std::fs::metadata(&path).unwrap().len();
    w.run(&["import", "--quiet", "big.txt"]);
    let before = rows(&w, "puzzles.sqlite");
    const BIG: u64 = 16 << 30;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(BIG)
        .unwrap();
    w.db()
        .execute("UPDATE file_reads SET bytes = ?1", [BIG as i64])
        .unwrap();
    let child = spawn(&w, &["import", "--quiet", "big.txt"]);
    // Its run has begun: the file is being hashed.
    crate::util::first_nonzero(Duration::from_millis(10), || {
        w.count("SELECT count(*) FROM imports WHERE id = 2")
    });
    std::thread::sleep(Duration::from_millis(300));
    let out = stop(child, "TERM", "import hashing a 16 GiB file");
    assert_eq!(
        (out.status.code(), stderr(&out).as_str()),
        (
            Some(143),
            "sudoku-archive: interrupted by SIGTERM: import 2 stopped before its first line; \
             running the same command again completes it\n"
        )
    );
    assert_eq!(
        w.strings("SELECT status || ' ' || lines || ' ' || (finished_at IS NOT NULL) FROM imports WHERE id = 2"),
        ["interrupted 0 1"]
    );
    assert_eq!(rows(&w, "puzzles.sqlite"), before);
    // The file as it was: the same command skips it as unchanged.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len)
        .unwrap();
    w.db()
        .execute("UPDATE file_reads SET bytes = ?1", [len as i64])
        .unwrap();
    let s = w.import(&[&path], &["--quiet"]);
    assert_eq!(crate::util::n(&s, "unchanged_files"), 1, "{s}");
    assert_eq!(rows(&w, "puzzles.sqlite"), before);
}
