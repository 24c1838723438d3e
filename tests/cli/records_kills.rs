//! The records never lie, also when the run is killed in the middle of
//! keeping them (issue 36, items 1 and 4): a SIGKILL during a read of a
//! changed file that supersedes its lines, or around the take-back of a
//! corrupt file's read, ends, after the re-run, as a clean import of the
//! file as it now is. And zstd and bzip2 files damaged in the middle leave
//! nothing of their read, as gzip's bad checksum does.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::nightly_input::{bzip2, zstd};
use crate::records::{content, good_and_garbled, gzip, with_bad_checksum};
use crate::util::{Workdir, first_nonzero, relabelled_kaggle};

fn import_ok(w: &Workdir, db: &str, file: &str) {
    let out = w.output(&["import", "--quiet", "--db", db, file]);
    assert!(out.status.success(), "{out:?}");
}

/// The lines import `id` into `db` has committed (0 before its row).
fn lines_of(w: &Workdir, db: &str, id: i64) -> i64 {
    rusqlite::Connection::open(w.path(db))
        .and_then(|c| {
            c.query_row(
                "SELECT ifnull(max(lines), 0) FROM imports WHERE id = ?1",
                [id],
                |r| r.get(0),
            )
        })
        .unwrap_or(0)
}

#[test]
fn a_kill_during_a_read_that_supersedes_lines_ends_after_the_rerun_as_a_clean_import_of_the_file_now()
 {
    let w = Workdir::new();
    // 160,000 lines; then every line another puzzle (the next relabelling
    // of the same quiz), the last 10,000 lines' puzzles new.
    let before = relabelled_kaggle(16);
    let after: String = relabelled_kaggle(17)
        .lines()
        .skip(10_000)
        .map(|l| format!("{l}\n"))
        .collect();
    w.write("f.txt", &before);
    import_ok(&w, "k.sqlite", "f.txt");
    w.write("f.txt", &after);
    let mut child = w
        .command(&["import", "--quiet", "--db", "k.sqlite", "f.txt"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once the read again has committed its first batch.
    let done = first_nonzero(Duration::from_millis(5), || lines_of(&w, "k.sqlite", 2));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done_after = lines_of(&w, "k.sqlite", 2);
    assert!(
        done > 0 && done_after < 160_000,
        "killed partway through the read again: {done_after} lines committed"
    );
    // What a kill leaves holds together (no puzzle that no line holds, the
    // lookup tables whole)...
    content(&w, "k.sqlite", false);
    assert_eq!(
        w.strings_in("k.sqlite", "SELECT status FROM imports ORDER BY id"),
        ["finished", "running"]
    );
    // ... and the same command completes it as a clean import of the file.
    import_ok(&w, "k.sqlite", "f.txt");
    import_ok(&w, "clean.sqlite", "f.txt");
    assert_eq!(
        content(&w, "k.sqlite", false),
        content(&w, "clean.sqlite", false)
    );
}

/// The import of a gzip whose checksum fails at its end: its first batch
/// (131,072 of its 200,000 lines, garbled from line 60,001) is committed,
/// then the error, then the take-back of what the read wrote, the last
/// thing the run does. Killed at moments towards its end (measured on a
/// run not killed), each run's archive, after the good copy is imported,
/// is a clean import of it.
#[test]
fn kills_around_the_take_back_of_a_corrupt_gzip_end_after_the_rerun_as_a_clean_import() {
    let w = Workdir::new();
    let (good, garbled) = good_and_garbled();
    w.write("c.gz", with_bad_checksum(gzip(garbled.as_bytes())));
    let start = |db: &str| {
        w.command(&["import", "--quiet", "--db", db, "c.gz"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // From the first commit to the end, on a run not killed.
    let mut child = start("measured.sqlite");
    first_nonzero(Duration::from_millis(2), || {
        lines_of(&w, "measured.sqlite", 1)
    });
    let committed = Instant::now();
    assert!(!child.wait().unwrap().success());
    let rest = committed.elapsed();
    let mut landed = Vec::new();
    for (i, share) in [0.7, 0.85, 0.97].into_iter().enumerate() {
        let db = format!("k{i}.sqlite");
        let mut child = start(&db);
        first_nonzero(Duration::from_millis(2), || lines_of(&w, &db, 1));
        std::thread::sleep(rest.mul_f64(share));
        let _ = child.kill(); // SIGKILL
        child.wait().unwrap();
        // Killed before the take-back committed: the garbled batch is
        // there, the run `running`; after: nothing, the run `failed`.
        let state = w.strings_in(&db, "SELECT status || ' ' || lines FROM imports");
        content(&w, &db, false);
        landed.push(format!("{share}: {}", state.join(", ")));
    }
    w.write("c.gz", gzip(good.as_bytes()));
    import_ok(&w, "clean.sqlite", "c.gz");
    let clean = content(&w, "clean.sqlite", false);
    for (i, how) in landed.iter().enumerate() {
        let db = format!("k{i}.sqlite");
        import_ok(&w, &db, "c.gz");
        assert_eq!(content(&w, &db, false), clean, "{how}");
    }
    eprintln!("kills landed (share of the time after the first commit: status lines): {landed:?}");
}

/// `bad` (a damaged copy of `good`'s compressed bytes, named `name`) fails
/// to import, and nothing of its read is left; the good copy under the
/// same name then gives the archive a clean import of it gives.
fn damaged_leaves_nothing(name: &str, good: &[u8], bad: &[u8]) {
    let w = Workdir::new();
    w.write(name, bad);
    let out = w.output(&["import", "--quiet", "--db", "c.sqlite", name]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // A batch was committed before the damage was found, and taken back.
    assert!(
        stderr.contains(&format!(
            " lines read from {name} were taken back out of the archive"
        )),
        "{stderr}"
    );
    assert_eq!(
        content(&w, "c.sqlite", true),
        Vec::<String>::new(),
        "{stderr}"
    );
    assert_eq!(
        w.strings_in(
            "c.sqlite",
            "SELECT status || ' ' || lines || ' ' || stored || ' ' || rejected FROM imports"
        ),
        ["failed 0 0 0"]
    );
    assert_eq!(
        w.strings_in("c.sqlite", "SELECT CAST(count(*) AS TEXT) FROM file_reads"),
        ["0"]
    );
    w.write(name, good);
    import_ok(&w, "c.sqlite", name);
    import_ok(&w, "clean.sqlite", name);
    assert_eq!(
        content(&w, "c.sqlite", true),
        content(&w, "clean.sqlite", true)
    );
}

/// `packed` and a copy with a byte flipped at 75% of it: past the first
/// batch's 131,072 lines of 200,000.
fn flipped(packed: Vec<u8>) -> (Vec<u8>, Vec<u8>) {
    let mut bad = packed.clone();
    let at = bad.len() * 3 / 4;
    bad[at] ^= 0x5a;
    (packed, bad)
}

#[test]
fn a_zstd_file_with_a_byte_flipped_in_the_middle_leaves_nothing_and_its_good_copy_gives_the_clean_archive()
 {
    let (good, bad) = flipped(zstd(relabelled_kaggle(20).as_bytes()));
    damaged_leaves_nothing("c.zst", &good, &bad);
}

#[test]
fn a_bzip2_file_with_a_byte_flipped_in_the_middle_leaves_nothing_and_its_good_copy_gives_the_clean_archive()
 {
    let (good, bad) = flipped(bzip2(relabelled_kaggle(20).as_bytes()));
    damaged_leaves_nothing("c.bz2", &good, &bad);
}

/// A killed merge's run is a merge, not an import: the import that finds
/// it killed says which archive it was merging and the command that
/// completes it.
#[test]
fn after_a_killed_merge_the_next_import_names_the_merge_its_archive_and_the_command_that_completes_it()
 {
    let w = Workdir::new();
    let big = w.write("big.txt", relabelled_kaggle(4));
    import_ok(&w, "a b.sqlite", &big.display().to_string());
    let args = [
        "merge",
        "--db",
        "out.sqlite",
        "--batch-puzzles",
        "500",
        "a b.sqlite",
    ];
    let (mut child, _) = crate::merge::start_until_committed(&w, &args);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let small = w.write("small.txt", relabelled_kaggle(1).lines().next().unwrap());
    let out = w.output(&[
        "import",
        "--quiet",
        "--db",
        "out.sqlite",
        &small.display().to_string(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "note: merge 1 of a b.sqlite stopped without finishing (killed?) and is now marked \
         interrupted; running it again completes it: \
         sudoku-archive merge --db out.sqlite --batch-puzzles 500 'a b.sqlite'\n"
    );
    // As it says: the merge again completes it.
    w.run(&args);
    assert_eq!(
        w.strings_in(
            "out.sqlite",
            "SELECT CAST(count(*) AS TEXT) FROM puzzles WHERE id IN (SELECT puzzle_id FROM sources)"
        ),
        ["40000"]
    );
}
