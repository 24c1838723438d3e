//! What a feed on a pipe and a nightly job's folders need: lines from a
//! pipe that goes quiet are committed by the batch's time and kept at a
//! signal, `--jobs` starts no more threads than help and a signal still
//! stops the run at once, and a folder's unreadable entry or a low limit
//! on open files does not stop the rest of the folder.

use std::io::Write;
use std::process::{Output, Stdio};
use std::time::Duration;

use crate::nightly_jobs::send;
use crate::util::{Workdir, committed_lines, first_nonzero, relabelled_kaggle};

/// The first `n` lines of distinct puzzles, each ending in a newline.
fn puzzles(n: usize) -> String {
    relabelled_kaggle(1)
        .lines()
        .take(n)
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Pipes 20 lines into `import` with `args` (and `-`), keeps the pipe
/// open and silent until the archive holds them committed (polling for up
/// to a minute), then sends SIGTERM: how the import ended.
fn term_after_20_committed(w: &Workdir, args: &[&str]) -> Output {
    let mut command = vec!["import"];
    command.extend(args);
    command.push("-");
    let (child, mut stdin) = w.spawn_piped(&command);
    stdin.write_all(puzzles(20).as_bytes()).unwrap();
    stdin.flush().unwrap();
    assert_eq!(
        first_nonzero(Duration::from_millis(50), || committed_lines(w)),
        20
    );
    send(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    out
}

/// The import runs' status and lines.
fn runs(w: &Workdir) -> Vec<String> {
    w.strings("SELECT status || ' ' || lines || ' ' || stored FROM imports ORDER BY id")
}

/// 20 lines, then a pipe that stays open and silent: the lines are less
/// than a chunk, and were held by the reader until more came. They must
/// be committed by the batch's time, and a signal then keeps them.
#[test]
fn lines_from_a_pipe_that_goes_quiet_are_committed_by_the_batch_time() {
    let w = Workdir::new();
    let out = term_after_20_committed(&w, &["--quiet", "--stdin-name", "feed"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert_eq!(
        stderr,
        "sudoku-archive: interrupted by SIGTERM: import 1 recorded 20 lines, up to feed:20; \
         running the same command again completes it\n"
    );
    assert_eq!(runs(&w), ["interrupted 20 20"]);
}

/// A signal while lines read from a pipe are on their way to the archive
/// (read, not yet committed; a pipe's lines cannot be read again): they
/// are written and committed before the run ends, and the next run of the
/// feed, which sends them again, does not store them twice.
#[test]
fn a_signal_keeps_the_lines_already_read_from_a_pipe_and_a_rerun_does_not_double_them() {
    let w = Workdir::new();
    let lines = puzzles(25);
    let first: String = lines.lines().take(20).map(|l| format!("{l}\n")).collect();
    for signal in ["INT", "TERM"] {
        let db = format!("{signal}.sqlite");
        let feed = [
            "import",
            "--quiet",
            "--db",
            &db,
            "--stdin-name",
            "feed",
            "-",
        ];
        let (child, mut stdin) = w.spawn_piped(&feed);
        stdin.write_all(first.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Time for the reader to take the lines from the pipe; the batch
        // would commit them later, or not at all on the old code.
        std::thread::sleep(Duration::from_millis(1000));
        send(&child, signal);
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("import 1 recorded 20 lines, up to feed:20;"),
            "{signal}: {stderr}"
        );
        let mut rerun = w
            .command(&feed)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        rerun
            .stdin
            .take()
            .unwrap()
            .write_all(lines.as_bytes())
            .unwrap();
        assert!(rerun.wait().unwrap().success());
        assert_eq!(
            w.strings_in(
                &db,
                "SELECT status || ' ' || lines || ' ' || stored || ' ' || duplicates FROM imports ORDER BY id"
            ),
            ["interrupted 20 20 0", "finished 25 5 20"],
            "{signal}"
        );
        assert_eq!(
            w.strings_in(&db, "SELECT count(*) || '' FROM puzzles"),
            ["25"],
            "{signal}"
        );
    }
}

/// `--jobs 100000` started 14,098 threads on a 20-line pipe and ignored
/// the first SIGTERM for minutes, leaving its run `running`. Now it starts
/// one thread a core, says so, and a signal ends it at once, recorded.
#[test]
fn more_jobs_than_cores_start_one_worker_a_core_and_a_signal_still_stops_the_run() {
    let w = Workdir::new();
    let out = term_after_20_committed(&w, &["--jobs", "100000"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    let cores = std::thread::available_parallelism().unwrap().get();
    assert!(
        stderr.starts_with(&format!(
            "note: --jobs 100000: starting {cores} worker threads, one per core (more would only take turns)\n"
        )),
        "{stderr}"
    );
    assert_eq!(runs(&w), ["interrupted 20 20"]);
    let help = w.run(&["import", "--help"]);
    assert!(help.contains("[default: one per core]"), "{help}");
    assert!(!help.contains("[default: 0]"), "{help}");
}

/// A nightly folder with a dangling link in a subfolder, run under a low
/// limit on open files: the link is named and left out, every other file
/// is imported, and the exit status is 1, not 0.
#[cfg(unix)]
#[test]
fn a_dangling_link_or_a_low_open_file_limit_does_not_stop_the_rest_of_a_folder() {
    let w = Workdir::new();
    let lines = puzzles(334);
    std::fs::create_dir_all(w.path("nightly/sub")).unwrap();
    for (i, l) in lines.lines().enumerate() {
        w.write(&format!("nightly/f{i:03}.txt"), format!("{l}\n"));
    }
    // (`ulimit -n 40` before the binary starts: the files held open must
    // fit what the process may open.)
    let bin = env!("CARGO_BIN_EXE_sudoku-archive");
    let limited = |args: &[&str]| {
        let mut c = std::process::Command::new("sh");
        c.arg("-c")
            .arg("ulimit -n 40 && exec \"$0\" \"$@\"")
            .arg(bin)
            .args(args)
            .current_dir(w.path(""));
        c.output().unwrap()
    };
    let out = limited(&["import", "--quiet", "nightly"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(runs(&w), ["finished 334 334"]);

    std::os::unix::fs::symlink(w.path("gone.txt"), w.path("nightly/sub/dead.txt")).unwrap();
    w.write("nightly/sub/new.txt", puzzles(335).lines().last().unwrap());
    for (args, status) in [
        (vec!["import", "--quiet", "--json", "nightly"], 1),
        (vec!["check", "--quiet", "nightly"], 1),
    ] {
        let out = limited(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(status), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with(
                "warning: nightly/sub/dead.txt: a symbolic link to nothing (its target does not exist): \
                 left out, the rest of the folder is read\n"
            ),
            "{args:?}: {stderr}"
        );
        if args[0] == "import" {
            let summary = String::from_utf8_lossy(&out.stdout);
            assert!(summary.contains(r#""unreadable_entries":1"#), "{summary}");
        } else {
            assert!(
                stderr.ends_with("; 1 folder entries could not be read\n"),
                "{stderr}"
            );
        }
    }
    // The new file was read; the unchanged ones were not read again.
    assert_eq!(runs(&w), ["finished 334 334", "finished 1 1"]);
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 335);
}
