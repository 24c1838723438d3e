//! `fill minimal` (issue 37): a pass over the stored puzzles of an
//! archive, with an import's guarantees. The values it stores are right on
//! puzzles whose answer is known without the tool (no 16-clue puzzle has
//! a unique solution, so every 17-clue one is minimal; a given added from
//! the solution can always go again); a SIGKILL mid-fill and a re-run
//! leave what a clean fill leaves, row for row; SIGINT stops it cleanly
//! and a re-run completes it.

use std::process::{Child, Stdio};
use std::time::Duration;

use crate::nightly_jobs::send;
use crate::util::{Workdir, data, first_nonzero, thousands};

/// Every puzzle's id and `minimal` (`-` for NULL).
const MINIMAL_ROWS: &str = "SELECT id || ' ' || ifnull(minimal, '-') FROM puzzles ORDER BY id";

fn import(w: &Workdir, db: &str, files: &[&str]) {
    let mut args = vec!["import", "--quiet", "--db", db];
    args.extend_from_slice(files);
    w.run(&args);
}

/// The 17-clue puzzles the tests fill, and the hardest ones: enough work
/// for a fill with small batches to be stopped between two.
fn slow_files() -> Vec<String> {
    [
        "classic/17clue_royle_first2000.txt",
        "classic/forum_hardest_1905_11plus_first2000.txt",
    ]
    .iter()
    .map(|f| data(f).display().to_string())
    .collect()
}

/// The first `n` 81-character puzzles of a classic collection, one a line.
fn first_puzzles(file: &str, n: usize) -> String {
    let text = std::fs::read_to_string(data(&format!("classic/{file}"))).unwrap();
    text.lines()
        .filter(|l| l.len() == 81 && !l.starts_with('#'))
        .take(n)
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn fill_minimal_marks_17_clue_puzzles_minimal_one_with_a_spare_given_not_and_leaves_the_rest_null()
{
    let w = Workdir::new();
    w.write("17.txt", first_puzzles("17clue_royle_first2000.txt", 40));
    import(&w, "puzzles.sqlite", &["17.txt"]);
    // The same puzzles with one more given, taken from the solution.
    let spare: Vec<String> = w
        .strings("SELECT givens || solution FROM puzzles ORDER BY id LIMIT 10")
        .iter()
        .map(|row| {
            let (givens, solution) = row.split_at(81);
            let at = givens.find('0').unwrap();
            format!(
                "{}{}{}",
                &givens[..at],
                &solution[at..=at],
                &givens[at + 1..]
            )
        })
        .collect();
    w.write("spare.txt", spare.join("\n") + "\n");
    w.write(
        "multi.txt",
        first_puzzles("serg_benchmark_multisolution.txt", 5),
    );
    let killer = data("killer/krazydad_intermediate_first500_legacy.txt");
    import(
        &w,
        "puzzles.sqlite",
        &["spare.txt", "multi.txt", &killer.display().to_string()],
    );
    // An import leaves it to the fill.
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles WHERE minimal IS NOT NULL"),
        0
    );
    assert_eq!(w.count("SELECT count(*) FROM puzzles WHERE clues = 17"), 40);
    let out = w.run(&["fill", "minimal", "--json"]);
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["status"], "finished");
    assert_eq!(
        (summary["puzzles"].as_u64(), summary["filled"].as_u64()),
        (Some(50), Some(50))
    );
    let by = |sql: &str| w.strings(sql);
    assert_eq!(
        by(
            "SELECT DISTINCT CAST(ifnull(minimal, '-') AS TEXT) FROM puzzles WHERE clues = 17 AND type = 'sudoku'"
        ),
        ["1"]
    );
    assert_eq!(
        by(
            "SELECT DISTINCT CAST(ifnull(minimal, '-') AS TEXT) FROM puzzles WHERE clues = 18 AND solutions = 1 AND type = 'sudoku'"
        ),
        ["0"]
    );
    assert_eq!(
        w.count(
            "SELECT count(*) FROM puzzles WHERE clues = 18 AND solutions = 1 AND type = 'sudoku'"
        ),
        10
    );
    // Several solutions, or another type: not applicable, NULL.
    assert_eq!(
        by(
            "SELECT DISTINCT CAST(ifnull(minimal, '-') AS TEXT) FROM puzzles WHERE solutions <> 1 OR type <> 'sudoku'"
        ),
        ["-"]
    );
    assert!(w.count("SELECT count(*) FROM puzzles WHERE solutions = 2") >= 5);
    // Nothing left: a second fill computes nothing.
    let again: serde_json::Value =
        serde_json::from_str(&w.run(&["fill", "minimal", "--json"])).unwrap();
    assert_eq!(again["puzzles"], 0);
    // stats counts them, export shows them.
    let stats: serde_json::Value = serde_json::from_str(&w.run(&["stats", "--json"])).unwrap();
    assert_eq!(
        stats["minimal"],
        serde_json::json!({"minimal": 40, "not_minimal": 10, "not_computed": 0})
    );
    let text = w.run(&["stats"]);
    assert!(text.contains(
        "minimal (uniquely solvable classic puzzles no given of which can go): 40 of 50\n"
    ));
    // The runs list says each fill as what it did, not as lines imported.
    assert!(
        text.contains(" finished    fill minimal: 50 computed\n"),
        "{text}"
    );
    assert!(
        text.contains(" finished    fill minimal: 0 computed\n"),
        "{text}"
    );
    let passes: Vec<&serde_json::Value> = stats["imports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["pass"])
        .filter(|p| !p.is_null())
        .collect();
    assert_eq!(passes, ["fill minimal", "fill minimal"]);
    let csv = w.run(&[
        "export",
        "--format",
        "csv",
        "--columns",
        "id,clues,minimal",
        "--limit",
        "3",
    ]);
    assert_eq!(csv, "id,clues,minimal\n1,17,1\n2,17,1\n3,17,1\n");
    let last = w.run(&[
        "export",
        "--format",
        "csv",
        "--columns",
        "clues,minimal",
        "--type",
        "killer",
        "--limit",
        "1",
    ]);
    assert_eq!(
        last.lines().nth(1).map(|l| l.ends_with(',')),
        Some(true),
        "{last}"
    );
}

/// Starts `fill minimal` on `db` in small batches on one worker, and waits
/// for its first commit (its run, `run`, has counted puzzles).
fn start_fill(w: &Workdir, db: &str, run: i64) -> Child {
    let child = w
        .command(&[
            "fill",
            "minimal",
            "--quiet",
            "--jobs",
            "1",
            "--batch-puzzles",
            "20",
            "--db",
            db,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let committed = first_nonzero(Duration::from_millis(2), || {
        crate::merge::count_in(
            w,
            db,
            &format!("SELECT ifnull(max(lines), 0) FROM imports WHERE id = {run}"),
        )
    });
    assert!(committed > 0, "the fill committed no batch");
    child
}

/// A clean fill of the same files, for comparison.
fn clean_fill(w: &Workdir, files: &[String]) -> Vec<String> {
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    import(w, "clean.sqlite", &files);
    w.run(&["fill", "minimal", "--quiet", "--db", "clean.sqlite"]);
    w.strings_in("clean.sqlite", MINIMAL_ROWS)
}

#[test]
fn a_fill_killed_mid_way_and_run_again_leaves_what_a_clean_fill_leaves() {
    let w = Workdir::new();
    let files = slow_files();
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    import(&w, "puzzles.sqlite", &names);
    let total = w.count("SELECT count(*) FROM puzzles WHERE type = 'sudoku' AND solutions = 1");
    let mut child = start_fill(&w, "puzzles.sqlite", 2);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done = w.count("SELECT count(*) FROM puzzles WHERE minimal IS NOT NULL");
    assert!(done > 0 && done < total, "killed after {done} of {total}");
    assert_eq!(
        w.count("SELECT lines FROM imports WHERE id = 2"),
        done,
        "the run's count is its committed rows"
    );
    w.run(&["fill", "minimal", "--quiet"]);
    assert_eq!(w.strings(MINIMAL_ROWS), clean_fill(&w, &files));
    assert_eq!(
        w.strings("SELECT id || ' ' || status FROM imports ORDER BY id"),
        ["1 finished", "2 interrupted", "3 finished"]
    );
    assert_eq!(
        w.count("SELECT lines FROM imports WHERE id = 3"),
        total - done
    );
}

#[test]
fn sigint_stops_a_fill_cleanly_and_a_rerun_completes_it() {
    let w = Workdir::new();
    let files = slow_files();
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    import(&w, "puzzles.sqlite", &names);
    let total = w.count("SELECT count(*) FROM puzzles WHERE type = 'sudoku' AND solutions = 1");
    let child = start_fill(&w, "puzzles.sqlite", 2);
    send(&child, "INT");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let done = w.count("SELECT count(*) FROM puzzles WHERE minimal IS NOT NULL");
    assert!(done > 0 && done < total, "stopped after {done} of {total}");
    assert_eq!(
        stderr,
        format!(
            "sudoku-archive: interrupted by SIGINT: fill 2 computed {} puzzles; \
             running the same command again completes it\n",
            thousands(done)
        )
    );
    assert_eq!(
        w.strings("SELECT status || ' ' || (finished_at IS NOT NULL) || ' ' || lines FROM imports WHERE id = 2"),
        [format!("interrupted 1 {done}")]
    );
    w.run(&["fill", "minimal", "--quiet"]);
    assert_eq!(w.strings(MINIMAL_ROWS), clean_fill(&w, &files));
    assert_eq!(
        w.strings("SELECT id || ' ' || status FROM imports ORDER BY id"),
        ["1 finished", "2 interrupted", "3 finished"]
    );
}
