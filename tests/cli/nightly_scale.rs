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
