//! Issue 24: an import into a large archive writes in batches that grow
//! with the archive (an eighth of its puzzles, at most 24 s) and a page
//! cache that grows with it up to `--cache-mib`. The hidden
//! `--assume-puzzles N` sizes them as if the archive held N more puzzles,
//! so that these tests rehearse a 40M-puzzle archive's batches (5M lines,
//! 24 s: a small file is one batch) on a small one: every guarantee holds
//! there too.

use std::time::Duration;

use crate::util::{Stalled, Workdir, committed_lines, data, n, stall_import};

/// The batches of a 40M-puzzle archive.
const BIG: &str = "40000000";

fn lines(w: &Workdir) -> std::path::PathBuf {
    let text = std::fs::read_to_string(data("classic/magictour_top95.txt")).unwrap();
    w.write("top95.txt", text)
}

#[test]
fn an_import_with_a_large_archives_batches_stores_and_reruns_as_a_small_one() {
    let s = Workdir::new();
    let small = s.import(&[&lines(&s)], &[]);
    let small_rows = s.strings(crate::util::PUZZLE_ROWS);
    let w = Workdir::new();
    let file = lines(&w);
    let big = w.import(&[&file], &["--assume-puzzles", BIG, "--cache-mib", "300"]);
    for key in ["lines", "stored", "duplicates", "rejected", "skipped"] {
        assert_eq!(n(&big, key), n(&small, key), "{key}");
    }
    assert_eq!(w.strings(crate::util::PUZZLE_ROWS), small_rows);
    assert_eq!(w.count("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    w.assert_lookup_tables();
    let again = w.import(&[&file], &["--assume-puzzles", BIG, "--reread"]);
    assert_eq!(n(&again, "stored"), 0);
    assert_eq!(
        n(&again, "duplicates"),
        n(&small, "stored") + n(&small, "duplicates")
    );
}

/// A batch of a large archive still closes on time while lines are slow
/// to come: one full chunk written to a pipe (8,192 lines), then nothing;
/// a reader sees them committed within the batch's time (5.7 s for a
/// 1.5M-puzzle archive), and another writer can then take the lock, instead
/// of both waiting for the input.
#[test]
fn a_large_archives_batch_commits_within_its_time_while_input_waits() {
    let w = Workdir::new();
    let Stalled {
        out,
        seen,
        waited,
        locked,
    } = stall_import(
        &w,
        &["--quiet", "--assume-puzzles", "1500000"],
        Duration::from_millis(100),
        Duration::from_secs(30),
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(seen, 8192, "nothing committed after {waited:?}");
    // Not at the small archive's 4 s (the batch is a larger one's), and
    // by its 5.7 s with a margin for a loaded machine.
    assert!(waited >= Duration::from_millis(4500), "{waited:?}");
    assert!(waited < Duration::from_secs(12), "{waited:?}");
    assert!(locked.is_ok(), "{locked:?}");
    assert_eq!(committed_lines(&w), 8192);
}

/// `GLIBC_TUNABLES` as the process of `import -` has it while it waits for
/// its standard input, started with `env` (unset when `None`); then the
/// import is given one puzzle and must store it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tunables_of_a_running_import(env: Option<&str>) -> Option<String> {
    use std::io::Write;

    let w = Workdir::new();
    let mut cmd = w.command(&["import", "--json", "--quiet", "-"]);
    match env {
        Some(value) => cmd.env("GLIBC_TUNABLES", value),
        None => cmd.env_remove("GLIBC_TUNABLES"),
    };
    let (child, mut stdin) = crate::util::spawn_piped(cmd);
    // The archive exists once the command runs, after any restart.
    let archive = w.path("puzzles.sqlite");
    let made =
        crate::util::first_nonzero(Duration::from_millis(10), || i64::from(archive.exists()));
    assert_eq!(made, 1, "no archive");
    let environ = std::fs::read(format!("/proc/{}/environ", child.id())).expect("environ");
    let tunables = environ
        .split(|&b| b == 0)
        .filter_map(|v| v.strip_prefix(b"GLIBC_TUNABLES="))
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .next();
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    stdin.write_all(puzzle.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    assert_eq!(n(&s, "stored"), 1, "{s}");
    tunables
}

/// A large archive's page cache is faster on transparent huge pages: where
/// the system gives them only to memory that asks (`madvise`), the binary
/// starts over with glibc's `malloc` asking, and leaves alone a user's own
/// choice and every other system. Only the first tunable is compared:
/// glibc 2.36 cuts the process's copy after it (the unit tests of
/// `cli::huge_pages` check that the others are kept).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn imports_run_with_huge_pages_for_malloc_unless_the_user_said_otherwise() {
    // The setting is read as the binary reads it (its parsing has unit
    // tests of its own).
    let advised = sudoku_archive::cli::huge_pages::advised_only();
    // The first tunable of a `GLIBC_TUNABLES` value.
    let first = |tunables: &str| tunables.split(':').next().unwrap_or_default().to_string();
    let expected = |user: Option<&str>| {
        if advised {
            Some("glibc.malloc.hugetlb=1".to_string())
        } else {
            user.map(first)
        }
    };
    assert_eq!(
        tunables_of_a_running_import(None).as_deref().map(first),
        expected(None)
    );
    let other = "glibc.malloc.arena_max=4";
    assert_eq!(
        tunables_of_a_running_import(Some(other))
            .as_deref()
            .map(first),
        expected(Some(other))
    );
    for own in [
        "glibc.malloc.hugetlb=0",
        "glibc.malloc.arena_max=4:glibc.malloc.hugetlb=0",
    ] {
        let seen = tunables_of_a_running_import(Some(own)).unwrap_or_default();
        assert!(own.starts_with(&seen), "{own}: the process has {seen}");
    }
}
