//! Progress of the commands that can take long: shown as lines under
//! `SUDOKU_ARCHIVE_PROGRESS=lines` (a terminal shows the same messages on
//! a spinner), none with `--quiet`, none when stderr is not a terminal.

use crate::util::{Workdir, relabelled_kaggle};

/// stderr of `args`, with the progress messages as lines or not.
fn stderr_of(w: &Workdir, args: &[&str], as_lines: bool) -> String {
    let mut c = w.command(args);
    if as_lines {
        c.env("SUDOKU_ARCHIVE_PROGRESS", "lines");
    }
    let out = c.output().unwrap();
    assert!(out.status.code().is_some_and(|c| c < 2), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn export_stats_find_and_merge_show_progress_and_quiet_hides_it() {
    let w = Workdir::new();
    let feed = w.write("feed.txt", relabelled_kaggle(2));
    let feed = feed.to_str().unwrap();
    w.run(&["import", "--db", "a.sqlite", "-q", feed]);
    let cases: [(&[&str], &str); 4] = [
        (
            &["export", "--db", "a.sqlite"],
            "progress: exported 16,384 rows\nprogress: exported 20,000 rows\n",
        ),
        (
            &["stats", "--db", "a.sqlite"],
            "progress: counting what a.sqlite holds\n",
        ),
        (
            &["find", "--db", "a.sqlite", "--file", feed],
            // Counted as each chunk is answered; the last count is all.
            "records\nprogress: answered 20,000 records\n",
        ),
        (
            &["merge", "--db", "all.sqlite", "a.sqlite"],
            "progress: merging a.sqlite (1 of 1): 20,000 rows, 20,000 stored\n",
        ),
    ];
    for (args, last) in cases {
        let shown = stderr_of(&w, args, true);
        assert!(shown.ends_with(last), "{args:?}: {shown}");
        let mut quiet = args.to_vec();
        quiet.push("--quiet");
        if args[0] == "merge" {
            quiet[2] = "quiet.sqlite";
        }
        assert_eq!(stderr_of(&w, &quiet, true), "", "{quiet:?}");
        // Not on a terminal, and not asked for lines: nothing.
        if args[0] == "merge" {
            continue;
        }
        assert_eq!(stderr_of(&w, args, false), "", "{args:?}");
    }
}
