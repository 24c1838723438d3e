//! What a nightly job needs from the command line: a closed pipe is no
//! failure, a signal ends an import cleanly and says how far it got, the
//! exit status can say "too many rejects", a file whose every line was
//! rejected is pointed out, and `--silent` keeps cron quiet on success.

use std::io::Write;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::{PUZZLE_ROWS, Workdir, first_nonzero, relabelled_kaggle, sample, thousands};

/// Runs the binary with its standard output a pipe nobody reads: the read
/// end is closed before the child starts, so its first write finds it gone.
fn into_closed_pipe(w: &Workdir, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    w.command(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run sudoku-archive")
}

#[test]
fn a_closed_standard_output_ends_every_command_quietly_and_successfully() {
    let w = Workdir::new();
    // Files without rejects: the rejects are listed on stderr.
    let samples: Vec<String> = ["classic.txt", "kaggle_first50.csv"]
        .iter()
        .map(|f| sample(f).display().to_string())
        .collect();
    let mut import = vec!["import", "--quiet"];
    import.extend(samples.iter().map(String::as_str));
    let bad = sample("bad.txt").display().to_string();
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let commands: Vec<Vec<&str>> = vec![
        // The import's work is done before it prints its summary.
        import.clone(),
        [import.as_slice(), &["--json"]].concat(),
        vec!["stats"],
        vec!["stats", "--json"],
        vec!["export"],
        vec!["export", "--form", "url"],
        vec!["show", puzzle],
        // `check` prints each rejected line as it goes.
        vec!["check", "--quiet", &bad],
        vec!["--help"],
        vec!["import", "--help"],
    ];
    for args in &commands {
        let out = into_closed_pipe(&w, args);
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (Some(0), ""),
            "sudoku-archive {args:?} with its reader gone"
        );
    }
    // And the imports did their work: two runs of the same files.
    assert_eq!(
        w.strings("SELECT status FROM imports ORDER BY id"),
        ["finished", "finished"]
    );
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 70);
}

fn count_in(w: &Workdir, db: &str, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(w.path(db)).unwrap();
    conn.query_row(sql, [], |r| r.get(0)).expect(sql)
}

fn lines_done(w: &Workdir, db: &str) -> Option<i64> {
    let conn = rusqlite::Connection::open(w.path(db)).ok()?;
    conn.query_row("SELECT max(lines) FROM imports", [], |r| r.get(0))
        .ok()?
}

/// Starts an import of `file` into `db` on one worker thread, waits until
/// its first batch is committed (131,072 lines or 4 s) and lines of the
/// next one likely written, and sends it `signal`. Returns what it printed,
/// how it ended, and the lines committed before the signal.
fn interrupt_import(w: &Workdir, db: &str, file: &str, signal: &str) -> (Output, i64) {
    let child = w
        .command(&["import", "--quiet", "--jobs", "1", "--db", db, file])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let committed = first_nonzero(Duration::from_millis(10), || lines_done(w, db).unwrap_or(0));
    // A chunk of 8,192 lines takes less than this on one idle core.
    std::thread::sleep(Duration::from_millis(300));
    send(&child, signal);
    (child.wait_with_output().unwrap(), committed)
}

/// Sends `signal` to `child` with kill(1).
pub fn send(child: &Child, signal: &str) {
    let sent = std::process::Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -s {signal}");
}

/// The row of import `id` in `db`: status, whether finished_at is set, and
/// lines, stored, duplicates, rejected, skipped.
fn run_row(w: &Workdir, db: &str, id: i64) -> (String, bool, [i64; 5]) {
    let conn = rusqlite::Connection::open(w.path(db)).unwrap();
    conn.query_row(
        "SELECT status, finished_at IS NOT NULL, lines, stored, duplicates, rejected, skipped
         FROM imports WHERE id = ?1",
        [id],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                [r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?],
            ))
        },
    )
    .unwrap()
}

/// Rows written by import `id`: provenance and rejects.
fn rows_of(w: &Workdir, db: &str, id: i64) -> (i64, i64) {
    let conn = rusqlite::Connection::open(w.path(db)).unwrap();
    let count = |sql: &str| -> i64 { conn.query_row(sql, [id], |r| r.get(0)).unwrap() };
    (
        count("SELECT count(*) FROM sources WHERE import_id = ?1"),
        count("SELECT count(*) FROM rejects WHERE import_id = ?1"),
    )
}

fn interrupted_import_is_recorded_and_completed_by_a_rerun(signal: &str, status: i32) {
    let w = Workdir::new();
    // 300,000 distinct puzzles, a reject and a skipped line.
    let mut text = String::from("# nightly\n");
    text.push_str("not a puzzle\n");
    text.push_str(&relabelled_kaggle(30));
    let big = w.write("big.txt", &text);
    let total = 300_002;
    let name = big.display().to_string();

    let (out, committed) = interrupt_import(&w, "stopped.sqlite", &name, signal);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "{signal}: {stderr}");

    let (status, finished, [lines, stored, duplicates, rejected, skipped]) =
        run_row(&w, "stopped.sqlite", 1);
    assert_eq!((status.as_str(), finished), ("interrupted", true));
    // (That the batch in flight is committed, not lost, is proven exactly
    // by `a_signal_stops_a_run_waiting_on_a_silent_pipe`.)
    assert!(
        lines >= committed && lines < total,
        "stopped partway: {lines} of {total} lines, {committed} committed before the signal"
    );
    assert_eq!(lines, stored + duplicates + rejected + skipped);
    assert_eq!((skipped, rejected), (1, 1));
    assert_eq!(
        rows_of(&w, "stopped.sqlite", 1),
        (stored + duplicates, rejected),
        "the counts are those of the rows written"
    );
    // Whole lines, in order: the puzzles are those of the first lines.
    assert_eq!(
        count_in(&w, "stopped.sqlite", "SELECT count(*) FROM puzzles"),
        stored
    );
    assert_eq!(
        count_in(&w, "stopped.sqlite", "SELECT max(line) FROM sources"),
        lines
    );

    // One line on stderr, after the reject: which signal, how far, and what to do.
    let note: Vec<&str> = stderr.lines().collect();
    assert_eq!(note.len(), 2, "{stderr}");
    assert!(
        note[0].ends_with(
            "big.txt:2: unrecognised puzzle string: 3 characters; \
         expected 81 or 162 (sudoku), 81,162 or 162,162 (killer), 162 or 243 (str8ts)"
        ),
        "{stderr}"
    );
    let expected = format!(
        "sudoku-archive: interrupted by SIG{signal}: import 1 recorded {} lines, up to {name}:{lines}; \
         running the same command again completes it",
        thousands(lines)
    );
    assert_eq!(note[1], expected);
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("(interrupted)"), "{summary}");

    // The same command again completes the archive as a clean run does.
    w.run(&["import", "--quiet", "--db", "stopped.sqlite", &name]);
    w.run(&["import", "--quiet", "--db", "clean.sqlite", &name]);
    assert_eq!(
        w.strings_in("stopped.sqlite", PUZZLE_ROWS),
        w.strings_in("clean.sqlite", PUZZLE_ROWS)
    );
    assert_eq!(
        count_in(&w, "stopped.sqlite", "SELECT count(*) FROM puzzles"),
        total - 2
    );
    assert_eq!(
        w.strings_in("stopped.sqlite", "SELECT status FROM imports ORDER BY id"),
        ["interrupted", "finished"]
    );
}

#[test]
fn sigint_stops_an_import_cleanly_with_status_130() {
    interrupted_import_is_recorded_and_completed_by_a_rerun("INT", 130);
}

#[test]
fn sigterm_stops_an_import_cleanly_with_status_143() {
    interrupted_import_is_recorded_and_completed_by_a_rerun("TERM", 143);
}

/// Two whole chunks (8,192 lines each) on a pipe that then stays open and
/// silent: the reader waits for the third, and the first two sit in the
/// open batch, uncommitted (a batch commits on a write after 131,072 lines
/// or 4 s). A signal must stop the run anyway, at once, and commit them.
#[test]
fn a_signal_stops_a_run_waiting_on_a_silent_pipe_and_commits_the_batch_in_flight() {
    let w = Workdir::new();
    let lines: String = relabelled_kaggle(2)
        .lines()
        .take(2 * 8192)
        .map(|l| format!("{l}\n"))
        .collect();
    for args in [
        vec!["check", "--quiet", "-"],
        vec!["import", "--quiet", "-"],
    ] {
        let (child, mut stdin) = w.spawn_piped(&args);
        stdin.write_all(lines.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Ample time to process 16,384 easy lines: the pipe stays silent anyway.
        std::thread::sleep(Duration::from_millis(2000));
        send(&child, "INT");
        let start = Instant::now();
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{args:?}: {stderr}");
        assert!(start.elapsed() < Duration::from_secs(5), "{args:?}");
        if args[0] == "check" {
            assert_eq!(stderr, "", "check stops quietly");
        } else {
            assert_eq!(
                stderr,
                "sudoku-archive: interrupted by SIGINT: import 1 recorded 16,384 lines, up to -:16384; \
                 running the same command again completes it\n"
            );
        }
    }
    assert_eq!(
        w.strings("SELECT status || ' ' || lines || ' ' || stored FROM imports"),
        ["interrupted 16384 16384"]
    );
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 16384);
}

/// `import` with `extra` options, reading every file even if imported
/// before; the exit status, the summary and stderr.
fn import_with(w: &Workdir, files: &[&str], extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["import", "--quiet", "--reread"];
    args.extend_from_slice(extra);
    args.extend_from_slice(files);
    let out = w.output(&args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn max_rejects_fails_the_run_after_recording_it() {
    let w = Workdir::new();
    let bad = sample("bad.txt").display().to_string();
    let clean = sample("classic.txt").display().to_string();
    // bad.txt: 15 lines, 11 of them rejected (73%).
    for (limit, code) in [
        ("10", Some(1)),
        ("11", Some(0)),
        ("70%", Some(1)),
        ("75%", Some(0)),
        ("0", Some(1)),
    ] {
        let (status, summary, stderr) = import_with(&w, &[&bad], &["--max-rejects", limit]);
        assert_eq!(status, code, "--max-rejects {limit}: {stderr}");
        assert!(
            summary.contains("rejected"),
            "the summary still prints: {summary}"
        );
        let said = stderr.contains(&format!(
            "11 of 15 lines rejected (73.3%), more than --max-rejects {limit} allows"
        ));
        assert_eq!(said, code == Some(1), "--max-rejects {limit}: {stderr}");
    }
    // Every run was recorded as finished, with its rejects.
    assert_eq!(
        w.strings("SELECT DISTINCT status || ' ' || rejected FROM imports"),
        ["finished 11"]
    );
    let (status, _, stderr) = import_with(&w, &[&clean], &["--max-rejects", "0"]);
    assert_eq!(status, Some(0), "{stderr}");
    let (status, summary, _) = import_with(&w, &[&bad], &["--json", "--max-rejects", "1%"]);
    assert_eq!(status, Some(1));
    assert!(
        summary.contains(r#""max_rejects_exceeded":true"#),
        "{summary}"
    );
    let (status, _, stderr) = import_with(&w, &[&bad], &["--max-rejects", "ten"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("neither a count"), "{stderr}");
}

#[test]
fn a_file_whose_every_line_was_rejected_is_pointed_out() {
    let w = Workdir::new();
    // The puzzles are under `board`, but a column named `puzzle` wins.
    let kaggle = std::fs::read_to_string(sample("kaggle_first50.csv")).unwrap();
    let mut csv = String::from("name,puzzle,board\n");
    for (i, l) in kaggle.lines().skip(1).enumerate() {
        let quiz = l.split(',').next().unwrap();
        csv.push_str(&format!("p{i},easy,{quiz}\n"));
    }
    let x = w.write("x.csv", csv);
    let x = x.display().to_string();
    let clean = sample("classic.txt").display().to_string();
    let bad = sample("bad.txt").display().to_string();
    // Found by its content, the file imports.
    let (status, _, stderr) = import_with(&w, &[&clean, &x, &bad], &[]);
    assert_eq!(status, Some(0));
    assert!(!stderr.contains("warning"), "{stderr}");
    // Told the wrong column, every record is rejected: the warning says how
    // the file was read and where its puzzles seem to be.
    let (status, _, stderr) = import_with(&w, &[&x], &["--column", "puzzle"]);
    assert_eq!(status, Some(0));
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning"))
        .collect();
    assert_eq!(
        warnings,
        [format!(
            "warning: {x}: all 50 records rejected (read as records with a header, column \"puzzle\" \
             (field 2 of ','-separated); field 3 holds puzzle-shaped strings (column \"board\")); \
             a wrong --column, --delimiter or --type is the usual cause"
        )]
    );
    // Read right, the file imports.
    let (_, _, stderr) = import_with(&w, &[&x], &["--column", "board"]);
    assert!(!stderr.contains("warning"), "{stderr}");

    // A wrong type, named; in text and CSV files alike.
    let (status, _, stderr) = import_with(&w, &[&clean], &["--type", "str8ts"]);
    assert_eq!(status, Some(0));
    assert!(
        stderr.contains(&format!(
            "warning: {clean}: all 22 lines rejected (read as one string per line, --type str8ts)"
        )),
        "{stderr}"
    );
    let kaggle = sample("kaggle_first50.csv").display().to_string();
    let (_, _, stderr) = import_with(&w, &[&kaggle], &["--type", "killer"]);
    assert!(
        stderr.contains(&format!(
            "warning: {kaggle}: all 50 records rejected (read as records with a header, column \"quizzes\" (field 1 of ','-separated), --type killer)"
        )),
        "{stderr}"
    );
}

#[test]
fn silent_prints_nothing_on_success_and_the_summary_on_stderr_otherwise() {
    let w = Workdir::new();
    let files: Vec<String> = ["classic.txt", "killer.txt", "bad.txt", "kaggle_first50.csv"]
        .iter()
        .map(|f| sample(f).display().to_string())
        .collect();
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    // Not even the rejects, nor the note about an upgrade or a killed run.
    let out = w.output(&[&["import", "--silent"], files.as_slice()].concat());
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).as_ref(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (Some(0), "", "")
    );
    assert_eq!(w.strings("SELECT status FROM imports"), ["finished"]);

    let out = w.output(
        &[
            &["import", "--silent", "--reread", "--max-rejects", "5"],
            files.as_slice(),
        ]
        .concat(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "",
        "nothing on stdout"
    );
    assert!(stderr.contains("import 2 into puzzles.sqlite"), "{stderr}");
    assert!(
        stderr.contains("more than --max-rejects 5 allows"),
        "{stderr}"
    );
    assert!(stderr.contains("bad.txt:2: "), "the rejects too: {stderr}");
}
