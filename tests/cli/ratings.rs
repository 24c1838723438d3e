//! Ratings in the archive (issue 38, items 4 and 5): `rate` rates every
//! stored puzzle with one solution whose type has a rater, and no other;
//! isomorphs alike; an older rater's ratings redone; a kill or a SIGINT
//! leaves whole batches and a re-run that ends as a clean run; and what
//! `stats`, `find` and `export` show of them.

use std::process::{Output, Stdio};
use std::time::Duration;

use crate::nightly_jobs::send;
use crate::show::snapshot;
use crate::util::{Workdir, data, first_nonzero, sample};

/// Every puzzle's rating as stored, one line each, in id order.
const RATINGS: &str = "SELECT id || ' ' || type || ' ' || solutions || ' ' || ifnull(rating, '-')
     || ' ' || ifnull(rating_technique, '-') || ' ' || ifnull(rating_bound, '-')
     || ' ' || ifnull(rating_version, '-') FROM puzzles ORDER BY id";

fn samples(w: &Workdir) {
    let files: Vec<_> = ["classic.txt", "killer.txt", "str8ts.txt"]
        .iter()
        .map(|f| sample(f))
        .collect();
    let files: Vec<&std::path::Path> = files.iter().map(|p| p.as_path()).collect();
    w.import(&files, &["--quiet"]);
}

fn rate(w: &Workdir, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["rate", "--json"];
    args.extend_from_slice(extra);
    serde_json::from_str(&w.run(&args)).expect("rate --json prints JSON")
}

#[test]
fn rate_rates_each_puzzle_with_one_solution_of_every_type_and_leaves_every_other_puzzle_null() {
    let w = Workdir::new();
    samples(&w);
    // Import leaves them unrated.
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles WHERE rating_version IS NOT NULL"),
        0
    );
    let unique = w.count("SELECT count(*) FROM puzzles WHERE solutions = 1");
    // Every type is rated (the samples hold all three).
    assert_eq!(
        w.count("SELECT count(DISTINCT type) FROM puzzles WHERE solutions = 1"),
        3
    );
    let s = rate(&w, &[]);
    assert_eq!(
        (s["rated"].as_i64(), s["status"].as_str()),
        (Some(unique), Some("finished"))
    );
    assert_eq!(
        w.count(
            "SELECT count(*) FROM puzzles WHERE solutions = 1
             AND rating BETWEEN 1.0 AND 20 AND rating_technique <> '' AND rating_bound IN (0, 1)
             AND rating_version = 1"
        ),
        unique
    );
    // No rating where there is none to have: 0 or 2+ solutions (the
    // samples hold both kinds).
    assert!(w.count("SELECT count(*) FROM puzzles WHERE solutions <> 1") > 0);
    assert_eq!(
        w.count(
            "SELECT count(*) FROM puzzles WHERE solutions <> 1
             AND (rating IS NOT NULL OR rating_technique IS NOT NULL OR rating_bound IS NOT NULL
                  OR rating_version IS NOT NULL)"
        ),
        0
    );
    // The run is recorded, with what it rated.
    assert_eq!(
        w.strings("SELECT status || ' ' || rated || ' ' || json_extract(arguments, '$[0]') FROM imports WHERE id = 2"),
        [format!("finished {unique} rate")]
    );
    // The hardest of the samples are bounds, said so.
    assert!(w.count("SELECT count(*) FROM puzzles WHERE rating_bound = 1 AND rating = 9.0") > 0);
    // Nothing left: a second run rates nothing.
    assert_eq!(rate(&w, &[])["rated"].as_i64(), Some(0));
    // The runs list says each as a rating run, with its count.
    let text = w.run(&["stats"]);
    assert!(
        text.contains(&format!(" finished    rate: {unique} rated\n")),
        "{text}"
    );
    assert!(text.contains(" finished    rate: 0 rated\n"), "{text}");
}

#[test]
fn ratings_of_an_older_rater_are_redone_and_current_ones_are_left_alone() {
    let w = Workdir::new();
    samples(&w);
    rate(&w, &[]);
    let clean = w.strings(RATINGS);
    // Three ratings made by an older rater (version 0), and one current
    // rating changed by hand, which `rate` must not touch.
    let db = w.db();
    db.execute_batch(
        "UPDATE puzzles SET rating = 0.1, rating_version = 0 WHERE id IN (1, 2, 3);
         UPDATE puzzles SET rating = 0.2 WHERE id = 4;",
    )
    .unwrap();
    drop(db);
    assert_eq!(rate(&w, &[])["rated"].as_i64(), Some(3));
    let now = w.strings(RATINGS);
    assert_eq!(now[..3], clean[..3]);
    assert!(now[3].contains(" 0.2 "), "{}", now[3]);
}

/// The same puzzle relabelled, transposed and with its bands swapped is
/// stored twice under `--dedup exact`; both get one rating.
#[test]
fn isomorphs_stored_apart_get_the_same_rating() {
    let w = Workdir::new();
    // magictour top95 #1 and a disguise of it.
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let g: Vec<u8> = p.bytes().collect();
    let relabel = |b: u8| match b {
        b'1'..=b'9' => b'1' + (b - b'1' + 4) % 9,
        _ => b,
    };
    let mut d = vec![b'.'; 81];
    for r in 0..9 {
        for c in 0..9 {
            // Transposed, then the first and last bands swapped.
            let band = r / 3;
            let r2 = match band {
                0 => r + 6,
                2 => r - 6,
                _ => r,
            };
            d[r2 * 9 + c] = relabel(g[c * 9 + r]);
        }
    }
    let d = String::from_utf8(d).unwrap();
    let f = w.write("two.txt", format!("{p}\n{d}\n"));
    w.import(&[&f], &["--quiet"]);
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 2);
    assert_eq!(w.count("SELECT count(DISTINCT canonical) FROM puzzles"), 1);
    rate(&w, &[]);
    let rows = w.strings(
        "SELECT rating || ' ' || rating_technique || ' ' || rating_bound FROM puzzles ORDER BY id",
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0], rows[1]);
}

/// The forum's hardest puzzles (about 70 a second a core): long enough a
/// run to stop in the middle.
fn hardest(w: &Workdir, n: usize) {
    let text = std::fs::read_to_string(data("classic/forum_hardest_1106.txt")).unwrap();
    let lines: String = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .take(n)
        .map(|l| format!("{}\n", &l[..81]))
        .collect();
    let f = w.write("hardest.txt", lines);
    w.import(&[&f], &["--quiet"]);
    w.import(&[&f], &["--quiet", "--db", "clean.sqlite"]);
    w.run(&["rate", "--quiet", "--db", "clean.sqlite"]);
}

fn rated_so_far(w: &Workdir) -> i64 {
    let Ok(db) = rusqlite::Connection::open(w.path("puzzles.sqlite")) else {
        return 0;
    };
    db.query_row(
        "SELECT count(*) FROM puzzles WHERE rating IS NOT NULL",
        [],
        |r| r.get(0),
    )
    .unwrap_or(0)
}

fn spawn_rate(w: &Workdir) -> std::process::Child {
    w.command(&["rate", "--quiet", "--jobs", "1", "--batch-puzzles", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sudoku-archive rate")
}

#[test]
fn a_killed_rate_run_keeps_whole_batches_and_the_same_command_ends_as_a_clean_run() {
    let w = Workdir::new();
    hardest(&w, 160);
    let mut child = spawn_rate(&w);
    let first = first_nonzero(Duration::from_millis(20), || rated_so_far(&w));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let after_kill = rated_so_far(&w);
    assert!(
        first > 0 && after_kill < 160,
        "killed after {after_kill} of 160"
    );
    // Whole batches: the run's count is what its batches wrote.
    assert_eq!(
        w.count("SELECT rated FROM imports WHERE id = 2"),
        after_kill,
        "the run's count and its committed ratings"
    );
    let out = w.run(&["rate", "--quiet", "--json"]);
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["rated"].as_i64(), Some(160 - after_kill));
    assert_eq!(s["interrupted_runs"], serde_json::json!([2]));
    assert_eq!(w.strings(RATINGS), w.strings_in("clean.sqlite", RATINGS));
    assert_eq!(
        w.strings("SELECT id || ' ' || status FROM imports WHERE id > 1 ORDER BY id"),
        ["2 interrupted", "3 finished"]
    );
}

/// An import that finds a killed rating run says it was a rating run and
/// what completes it (it said "import 2 stopped", and "running the same
/// files again completes it").
#[test]
fn an_import_after_a_killed_rate_run_names_the_rate_run_and_its_command() {
    let w = Workdir::new();
    hardest(&w, 160);
    let mut child = spawn_rate(&w);
    first_nonzero(Duration::from_millis(20), || rated_so_far(&w));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let out = w.output(&[
        "import",
        "--quiet",
        &sample("classic.txt").display().to_string(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "note: rate run 2 stopped without finishing (killed?) and is now marked interrupted; \
         running it again completes it: sudoku-archive rate --quiet --jobs 1 --batch-puzzles 4\n"
    );
}

#[test]
fn sigint_stops_rate_at_a_puzzle_records_the_run_interrupted_and_the_same_command_goes_on() {
    let w = Workdir::new();
    hardest(&w, 160);
    let child = spawn_rate(&w);
    first_nonzero(Duration::from_millis(20), || rated_so_far(&w));
    send(&child, "INT");
    let out: Output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.starts_with("sudoku-archive: interrupted by SIGINT: rating run 2 rated "),
        "{stderr}"
    );
    let stopped = rated_so_far(&w);
    assert!(stopped < 160, "stopped after {stopped} of 160");
    assert_eq!(
        w.strings("SELECT status || ' ' || rated FROM imports WHERE id = 2"),
        [format!("interrupted {stopped}")]
    );
    w.run(&["rate", "--quiet"]);
    assert_eq!(w.strings(RATINGS), w.strings_in("clean.sqlite", RATINGS));
}

/// What people see of the ratings: the bands of `stats`, `find`'s line,
/// and `export`'s columns and filters.
#[test]
fn stats_find_and_export_show_the_ratings() {
    let w = Workdir::new();
    samples(&w);
    let before = w.run(&["stats"]);
    rate(&w, &[]);
    let stats = w.run(&["stats"]);
    let section = |s: &str| -> String {
        s.lines()
            .skip_while(|l| !l.starts_with("by rating"))
            .take_while(|l| !l.starts_with("isomorphs"))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let top1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let find = w.output(&["find", top1]);
    let find_unrated = {
        let v = Workdir::new();
        v.import(&[&sample("classic.txt")], &["--quiet"]);
        String::from_utf8(v.output(&["find", top1]).stdout).unwrap()
    };
    let export = w.run(&[
        "export",
        "--format",
        "csv",
        "--type",
        "sudoku",
        "--min-rating",
        "6.6",
        "--max-rating",
        "9",
        "--columns",
        "id,rating,technique,rating_bound",
    ]);
    let ndjson = w.run(&[
        "export",
        "--format",
        "ndjson",
        "--columns",
        "id,type,rating,technique",
        "--limit",
        "3",
    ]);
    let shown = format!(
        "$ sudoku-archive stats (before rate)\n{}\n$ sudoku-archive stats\n{}\n$ sudoku-archive find TOP95_1\n{}\n$ sudoku-archive find TOP95_1 (not rated yet)\n{}\n$ sudoku-archive export --format csv --type sudoku --min-rating 6.6 --max-rating 9 --columns id,rating,technique,rating_bound\n{export}\n$ sudoku-archive export --format ndjson --columns id,type,rating,technique --limit 3\n{ndjson}",
        section(&before),
        section(&stats),
        String::from_utf8(find.stdout).unwrap(),
        find_unrated,
    );
    let repo = env!("CARGO_MANIFEST_DIR");
    snapshot("ratings_shown", &shown.replace(repo, "<repo>"));
}

#[test]
fn forget_refuses_a_rating_run() {
    let w = Workdir::new();
    samples(&w);
    rate(&w, &[]);
    let out = w.output(&["forget", "--db", "puzzles.sqlite", "--import", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("run 2 is a rating run"), "{stderr}");
}
