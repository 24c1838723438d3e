//! A nightly job's files: one file is one `files` row however it is
//! spelled, and a file whose content was imported in full before is skipped
//! unread, unless it changed, grew, or the last read of it did not finish.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::{Workdir, data, n, relabelled_kaggle, sample};

/// The rows an import adds when it reads lines.
const ROWS: &str = "SELECT (SELECT count(*) FROM puzzles) || ' ' || (SELECT count(*) FROM sources)
    || ' ' || (SELECT count(*) FROM rejects) || ' ' || (SELECT count(*) FROM files)";

/// A copy of `samples/<name>` at `<dir>/samples/<name>` in the workdir.
fn copy_sample(w: &Workdir, name: &str) -> PathBuf {
    std::fs::create_dir_all(w.path("samples")).unwrap();
    let to = w.path(&format!("samples/{name}"));
    std::fs::copy(sample(name), &to).unwrap();
    to
}

/// `import --json` with `args` as given (relative to the workdir).
fn import(w: &Workdir, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["import", "--json", "--quiet"];
    all.extend_from_slice(args);
    serde_json::from_str(&w.run(&all)).expect("import --json prints JSON")
}

/// `import --json --quiet ARGS` with `input` on standard input.
fn import_stdin(w: &Workdir, args: &[&str], input: &[u8]) -> Output {
    let mut all = vec!["import", "--json", "--quiet"];
    all.extend_from_slice(args);
    let (child, mut stdin) = w.spawn_piped(&all);
    stdin.write_all(input).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn every_spelling_of_a_file_and_a_link_to_it_are_one_file() {
    let w = Workdir::new();
    let file = copy_sample(&w, "classic.txt");
    let absolute = file.canonicalize().unwrap().display().to_string();
    std::os::unix::fs::symlink(&file, w.path("link.txt")).unwrap();
    let first = import(&w, &["samples/classic.txt"]);
    let stored = n(&first, "stored");
    assert!(stored > 10, "{first}");
    let accepted = stored + n(&first, "duplicates");
    let rows = w.strings(ROWS);
    // Read again under each other spelling: the lines are the same lines
    // of the same file, so nothing is added, provenance included.
    for spelling in ["./samples/classic.txt", &absolute, "link.txt"] {
        let again = import(&w, &["--reread", spelling]);
        assert_eq!(n(&again, "duplicates"), accepted, "{spelling}: {again}");
        assert_eq!(n(&again, "unchanged_files"), 0, "{spelling}: {again}");
        assert_eq!(w.strings(ROWS), rows, "{spelling} added rows");
    }
    // Without --reread, each spelling finds the file unchanged.
    for spelling in [
        "samples/classic.txt",
        "./samples/classic.txt",
        &absolute,
        "link.txt",
    ] {
        let again = import(&w, &[spelling]);
        assert_eq!(n(&again, "unchanged_files"), 1, "{spelling}: {again}");
        assert_eq!(n(&again, "lines"), 0, "{spelling}: {again}");
    }
    assert_eq!(w.strings(ROWS), rows);
    // The name people query is the one first given; the identity is the real path.
    assert_eq!(
        w.strings("SELECT path || ' ' || real_path || ' ' || kind FROM files"),
        [format!("samples/classic.txt {absolute} file")]
    );
}

#[test]
fn the_same_spelling_in_another_folder_is_another_file() {
    let w = Workdir::new();
    for (dir, copies) in [("a", 1), ("b", 2)] {
        std::fs::create_dir_all(w.path(dir)).unwrap();
        w.write(&format!("{dir}/x.txt"), relabelled_kaggle(copies));
    }
    let db = w.path("puzzles.sqlite").display().to_string();
    for dir in ["a", "b", "a", "b"] {
        let out = w
            .command(&["import", "--quiet", "--db", &db, "x.txt"])
            .current_dir(w.path(dir))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    assert_eq!(
        w.strings("SELECT path FROM files ORDER BY id"),
        ["x.txt", "x.txt"]
    );
    // b/x.txt holds a/x.txt's 10,000 lines and 10,000 more: all stored
    // under b, each line once.
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 20_000);
    assert_eq!(
        w.count("SELECT count(*) FROM sources WHERE file_id = 2"),
        20_000
    );
    assert_eq!(
        w.strings(
            "SELECT group_concat(action, ' ') FROM file_reads GROUP BY import_id ORDER BY import_id"
        ),
        ["read", "read", "unchanged", "unchanged"]
    );
}

#[test]
fn a_named_standard_input_is_one_file_read_every_time() {
    let w = Workdir::new();
    let text = std::fs::read(sample("bad.txt")).unwrap();
    let mut summaries = Vec::new();
    for _ in 0..2 {
        let out = import_stdin(&w, &["--stdin-name", "nightly/bad.txt", "-"], &text);
        assert!(out.status.success(), "{out:?}");
        summaries.push(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap());
    }
    let [first, second] = &summaries[..] else {
        panic!("two imports")
    };
    // Standard input cannot be known unchanged before it is read.
    assert_eq!(n(second, "unchanged_files"), 0);
    assert_eq!(n(second, "lines"), n(first, "lines"));
    assert_eq!(n(second, "stored"), 0);
    assert_eq!(n(second, "rejected"), n(first, "rejected"));
    // Messages name it too.
    assert!(
        second["first_rejects"][0]
            .as_str()
            .is_some_and(|r| r.starts_with("nightly/bad.txt:")),
        "{second}"
    );
    assert_eq!(
        w.strings("SELECT path || ' ' || kind || ' ' || ifnull(real_path, 'NULL') FROM files"),
        ["nightly/bad.txt stdin NULL"]
    );
    let rejects = w.count("SELECT count(*) FROM rejected_lines WHERE file = 'nightly/bad.txt'");
    assert_eq!(rejects as u64, n(first, "rejected"));
    // Its content is recorded as it was read.
    assert_eq!(
        w.strings("SELECT DISTINCT bytes || ' ' || length(content_hash) || ' ' || complete FROM file_reads"),
        [format!("{} 32 1", text.len())]
    );
    // Unnamed, it is `-`: another file.
    let out = import_stdin(&w, &["-"], &text);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        w.strings("SELECT path FROM files ORDER BY id"),
        ["nightly/bad.txt", "-"]
    );
}

#[test]
fn a_second_import_of_unchanged_files_reads_nothing_and_adds_nothing() {
    let w = Workdir::new();
    let names = [
        "classic.txt",
        "bad.txt",
        "killer.txt",
        "str8ts.txt",
        "kaggle_first50.csv",
    ];
    for name in names {
        copy_sample(&w, name);
    }
    let kaggle = w.path("kaggle.csv");
    std::fs::copy(data("classic/kaggle_1m_first10k.csv"), &kaggle).unwrap();
    let mut args: Vec<String> = names.iter().map(|n| format!("samples/{n}")).collect();
    args.push("kaggle.csv".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let first = import(&w, &args);
    assert_eq!(n(&first, "unchanged_files"), 0);
    assert!(n(&first, "stored") > 10_000, "{first}");
    let rows = w.strings(ROWS);
    let start = Instant::now();
    let second = import(&w, &args);
    let took = start.elapsed();
    assert_eq!(
        n(&second, "unchanged_files"),
        names.len() as u64 + 1,
        "{second}"
    );
    for key in ["lines", "stored", "duplicates", "rejected", "skipped"] {
        assert_eq!(n(&second, key), 0, "{key}: {second}");
    }
    assert_eq!(w.strings(ROWS), rows);
    assert!(
        took < Duration::from_secs(3),
        "a run over unchanged files took {took:?}"
    );
    let human = w.run(
        &["import"]
            .into_iter()
            .chain(args.iter().copied())
            .collect::<Vec<_>>(),
    );
    assert!(
        human.contains("unchanged files        6  (skipped"),
        "{human}"
    );
    // The archive says why, file by file.
    assert_eq!(
        w.strings("SELECT DISTINCT action || ' ' || complete FROM file_reads WHERE import_id > 1"),
        ["unchanged 1"]
    );
}

#[test]
fn a_changed_or_grown_file_is_read_again_and_reread_reads_any() {
    let w = Workdir::new();
    let file = copy_sample(&w, "classic.txt");
    let original = std::fs::read(&file).unwrap();
    let first = import(&w, &["samples/classic.txt"]);
    let stored = n(&first, "stored");

    // One byte changed, same size: the hash tells.
    let pos = original
        .iter()
        .position(|&b| b == b'#')
        .expect("a comment line");
    let mut changed = original.clone();
    changed[pos + 1] ^= 0x20;
    std::fs::write(&file, &changed).unwrap();
    let again = import(&w, &["samples/classic.txt"]);
    assert_eq!(n(&again, "unchanged_files"), 0, "{again}");
    assert_eq!(n(&again, "lines"), n(&first, "lines"), "{again}");

    // A line appended: read again, and only the new line is new.
    std::fs::write(&file, &original).unwrap();
    let top = std::fs::read_to_string(data("classic/top1465.txt")).unwrap();
    let extra = top.lines().find(|l| !l.starts_with('#')).unwrap();
    let mut grown = original.clone();
    grown.extend_from_slice(format!("{extra}\n").as_bytes());
    std::fs::write(&file, &grown).unwrap();
    let grew = import(&w, &["samples/classic.txt"]);
    assert_eq!(n(&grew, "unchanged_files"), 0, "{grew}");
    assert_eq!(n(&grew, "stored"), 1, "{grew}");
    let last = crate::util::line_count(&grown) as i64;
    assert_eq!(
        w.count(&format!(
            "SELECT count(*) FROM provenance WHERE file = 'samples/classic.txt' AND line = {last}"
        )),
        1
    );
    assert!(stored > 0);

    // Unchanged now, but --reread reads it.
    let skipped = import(&w, &["samples/classic.txt"]);
    assert_eq!(n(&skipped, "unchanged_files"), 1, "{skipped}");
    let reread = import(&w, &["--reread", "samples/classic.txt"]);
    assert_eq!(n(&reread, "unchanged_files"), 0, "{reread}");
    assert_eq!(n(&reread, "lines"), n(&grew, "lines"), "{reread}");
}

fn lines_done(db: &Path) -> i64 {
    rusqlite::Connection::open(db)
        .and_then(|c| {
            c.query_row("SELECT ifnull(max(lines), 0) FROM imports", [], |r| {
                r.get(0)
            })
        })
        .unwrap_or(0)
}

#[test]
fn files_a_killed_import_read_in_full_are_read_again_by_the_rerun() {
    let w = Workdir::new();
    let small = w.write("small.txt", relabelled_kaggle(1));
    let big = w.write("big.txt", relabelled_kaggle(30));
    let (small, big) = (small.display().to_string(), big.display().to_string());
    let db = w.path("puzzles.sqlite");
    let mut child = w
        .command(&["import", "--quiet", &small, &big])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first batch holds all of small.txt and its complete read.
    let start = Instant::now();
    while lines_done(&db) == 0 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done = lines_done(&db);
    assert!(
        done > 10_000 && done < 310_000,
        "killed after small.txt and before the end: {done} lines committed"
    );
    assert_eq!(
        w.strings(
            "SELECT f.path || ' ' || r.complete FROM file_reads AS r
             JOIN files AS f ON f.id = r.file_id ORDER BY f.id"
        )[0],
        format!("{small} 1")
    );
    // The killed run's reads do not count: both files are read again.
    let rerun = import(&w, &[&small, &big]);
    assert_eq!(n(&rerun, "unchanged_files"), 0, "{rerun}");
    assert_eq!(n(&rerun, "lines"), 310_000, "{rerun}");
    // (small.txt is big.txt's first 10,000 lines.)
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 300_000);
    // Now that a run finished, both are unchanged.
    let third = import(&w, &[&small, &big]);
    assert_eq!(n(&third, "unchanged_files"), 2, "{third}");
}

#[test]
fn a_file_recorded_before_real_paths_is_taken_by_its_spelling_from_one_folder() {
    let w = Workdir::new();
    for dir in ["a", "b"] {
        std::fs::create_dir_all(w.path(&format!("{dir}/samples"))).unwrap();
        std::fs::copy(
            sample("classic.txt"),
            w.path(&format!("{dir}/samples/classic.txt")),
        )
        .unwrap();
    }
    let db = w.path("puzzles.sqlite").display().to_string();
    let run_in = |dir: &str, extra: &[&str]| {
        let mut args = vec!["import", "--json", "--quiet", "--db", &db];
        args.extend_from_slice(extra);
        args.push("samples/classic.txt");
        let out = w.command(&args).current_dir(w.path(dir)).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    run_in("a", &[]);
    // What a schema 7 archive holds after its upgrade: the spelling alone.
    w.db()
        .execute_batch("UPDATE files SET real_path = NULL; DELETE FROM file_reads;")
        .unwrap();
    let rows = w.strings(ROWS);
    let taken = run_in("a", &[]);
    assert_eq!(n(&taken, "stored"), 0, "{taken}");
    assert_eq!(w.strings(ROWS), rows, "the old row is this file's");
    let real = w.path("a/samples/classic.txt").canonicalize().unwrap();
    assert_eq!(
        w.strings("SELECT real_path FROM files"),
        [real.display().to_string()]
    );
    // From then on, the same spelling in b is another file.
    let other = run_in("b", &[]);
    assert_eq!(n(&other, "unchanged_files"), 0, "{other}");
    assert_eq!(w.count("SELECT count(*) FROM files"), 2);
}

#[test]
fn a_pipe_given_as_a_path_is_read_every_time_never_hashed_ahead() {
    let w = Workdir::new();
    let text = std::fs::read(sample("classic.txt")).unwrap();
    // `/dev/stdin` is a pipe here, as `<(zcat x.gz)` is: known by the path
    // as given, and read every time (reading it ahead would consume it).
    for run in 0..2 {
        let out = import_stdin(&w, &["/dev/stdin"], &text);
        assert!(out.status.success(), "{out:?}");
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(n(&s, "unchanged_files"), 0, "run {run}: {s}");
        assert_eq!(
            n(&s, "lines"),
            crate::util::line_count(&text),
            "run {run}: {s}"
        );
    }
    assert_eq!(w.strings("SELECT path FROM files"), ["/dev/stdin"]);
}
