//! Issue 20, the input side: what a nightly job feeds the importer. Damaged
//! CSV quoting, named pipes and process substitution, bad bytes after the
//! puzzle, compressed files (also on stdin, also damaged), and folders with
//! globs, each on the real binary with real files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::{Workdir, data, line_count, n, sample};

const GOOD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// Waits for `child` up to `limit`; a child still running then is killed
/// and the test fails, so a hang is a failure, not a stuck test run.
fn finish_within(mut child: Child, limit: Duration, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still running after {limit:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{:?}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("import --json prints JSON")
}

/// Every line of the run is somewhere, and the run says how many there were.
fn assert_accounted(s: &serde_json::Value, lines: u64) {
    assert_eq!(n(s, "lines"), lines, "{s}");
    assert_eq!(
        n(s, "stored") + n(s, "duplicates") + n(s, "rejected") + n(s, "skipped"),
        lines,
        "{s}"
    );
}

// ---- fault 1: a stray quote in a CSV file ----

/// Starts `script` under bash in `w`, its output piped.
fn bash(w: &Workdir, script: &str) -> std::process::Child {
    std::process::Command::new("bash")
        .args(["-c", script])
        .current_dir(w.path(""))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_stray_csv_quote_rejects_its_line_and_every_other_line_is_imported() {
    let w = Workdir::new();
    let text = std::fs::read_to_string(data("classic/kaggle_1m_first10k.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // The quote right after the comma of line 5001.
    let comma = lines[5000].find(',').unwrap();
    lines[5000].insert(comma + 1, '"');
    let f = w.write("quoted.csv", lines.join("\n") + "\n");
    let s = w.import(&[&f], &["--no-canonical"]);
    assert_accounted(&s, 10_001);
    assert_eq!(
        (n(&s, "stored"), n(&s, "rejected"), n(&s, "skipped")),
        (9_999, 1, 1),
        "{s}"
    );
    assert_eq!(
        w.strings("SELECT line || ' ' || reason || ' ' || message FROM rejects"),
        ["5001 csv csv: unterminated quoted field"]
    );
    assert_eq!(
        w.count("SELECT lines FROM imports"),
        10_001,
        "the run's row counts every physical line"
    );
    // The lines after it keep their own numbers.
    assert_eq!(w.count("SELECT max(line) FROM sources"), 10_001);
}

#[test]
fn a_quote_that_never_closes_does_not_hold_the_rest_of_the_file_in_memory() {
    let w = Workdir::new();
    // 40 MiB of blank lines after an unclosed quote: a reader that lets the
    // quote run on holds them all as one field.
    let mut bytes = format!("puzzle\n\"{GOOD}\n{GOOD}\n").into_bytes();
    bytes.extend(std::iter::repeat_n(b"                   \n", 2 << 20).flatten());
    bytes.extend_from_slice(format!("{}\n", GOOD.replace('4', "0")).as_bytes());
    let total = line_count(&bytes);
    let f = w.write("open-quote.csv", &bytes);
    drop(bytes);
    let s = w.import(&[&f], &["--no-canonical"]);
    assert_accounted(&s, total);
    assert_eq!((n(&s, "stored"), n(&s, "rejected")), (2, 1), "{s}");
    let peak_kib = n(&s, "peak_rss_kib");
    assert!(
        peak_kib < 64 * 1024,
        "peak {peak_kib} KiB for a 40 MiB file"
    );
}

// ---- fault 6: pipes ----

pub fn mkfifo(path: &Path) {
    let st = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(st.success(), "mkfifo {}", path.display());
}

#[test]
fn a_named_pipe_is_read_once_to_its_end() {
    let w = Workdir::new();
    let fifo = w.path("puzzles.fifo");
    mkfifo(&fifo);
    let text = std::fs::read(sample("classic.txt")).unwrap();
    let child = w
        .command(&["import", "--json", "--quiet", "puzzles.fifo"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let writer = {
        let (fifo, text) = (fifo.clone(), text.clone());
        std::thread::spawn(move || {
            // Opening waits for the reader; a reader that closes and opens
            // again makes this write fail (the writer's SIGPIPE).
            let mut f = std::fs::OpenOptions::new().write(true).open(fifo)?;
            f.write_all(&text)
        })
    };
    let out = finish_within(child, Duration::from_secs(30), "import of a named pipe");
    if !writer.is_finished() {
        // The import never opened the pipe: let the writer go.
        drop(std::fs::File::open(&fifo));
    }
    writer
        .join()
        .unwrap()
        .expect("the writer's data was all read");
    let s = json(&out);
    let plain = w.import(&[&sample("classic.txt")], &["--db", "plain.sqlite"]);
    assert_accounted(&s, line_count(&text));
    assert_eq!(n(&s, "stored"), n(&plain, "stored"), "{s}");
    assert!(n(&s, "stored") > 0);
    assert_eq!(w.strings("SELECT status FROM imports"), ["finished"]);
}

#[test]
fn process_substitution_works_for_plain_and_compressed_data() {
    let w = Workdir::new();
    let gz = w.write(
        "classic.txt.gz",
        gzip(&std::fs::read(sample("classic.txt")).unwrap()),
    );
    let bin = env!("CARGO_BIN_EXE_sudoku-archive");
    let script = format!(
        "exec '{bin}' import --json --quiet <(cat '{}') <(cat '{}')",
        sample("classic.txt").display(),
        gz.display()
    );
    let child = bash(&w, &script);
    let s = json(&finish_within(
        child,
        Duration::from_secs(60),
        "import <(cat x)",
    ));
    let plain = w.import(&[&sample("classic.txt")], &["--db", "plain.sqlite"]);
    assert_eq!(n(&s, "stored"), n(&plain, "stored"), "{s}");
    assert_eq!(n(&s, "lines"), 2 * n(&plain, "lines"), "{s}");
    assert_eq!(n(&s, "rejected"), 0, "{s}");
}

// ---- fault 11: bad bytes after the puzzle ----

#[test]
fn bad_bytes_after_the_puzzle_are_ignored_but_not_inside_it() {
    let w = Workdir::new();
    let mut bytes = Vec::new();
    bytes.extend_from_slice(GOOD.as_bytes());
    bytes.extend_from_slice(b" \xc3\x28 comment\n");
    let other = GOOD.replace('4', "0");
    bytes.extend_from_slice(other.as_bytes());
    bytes.extend_from_slice(b"#\xff\xfe\n");
    bytes.extend_from_slice(&GOOD.as_bytes()[..40]);
    bytes.extend_from_slice(b"\xc3\x28");
    bytes.extend_from_slice(&GOOD.as_bytes()[42..]);
    bytes.extend_from_slice(b" rated 3\n# a comment \xff\n");
    let f = w.write("tails.txt", &bytes);
    let s = w.import(&[&f], &[]);
    assert_accounted(&s, 4);
    assert_eq!((n(&s, "stored"), n(&s, "skipped")), (2, 1), "{s}");
    assert_eq!(
        w.strings("SELECT line || ' ' || reason || ' ' || message FROM rejects"),
        ["3 encoding invalid UTF-8 at byte 41 of the line"]
    );
    assert_eq!(
        w.strings("SELECT givens FROM puzzles ORDER BY id"),
        [GOOD.replace('.', "0"), other.replace('.', "0")]
    );
}

// ---- compressed inputs ----

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

pub fn zstd(bytes: &[u8]) -> Vec<u8> {
    let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    e.include_checksum(true).unwrap();
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

pub fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Provenance and rejects of an archive, by file name (folders dropped,
/// compression suffix dropped): what must not depend on compression.
fn lines_by_file(w: &Workdir, db: &str) -> Vec<String> {
    w.strings_in(
        db,
        "SELECT replace(replace(replace(replace(f, '.gz', ''), '.zst', ''), '.xz', ''), '.bz2', '')
                || ':' || line || ':' || what
         FROM (SELECT replace(path, rtrim(path, replace(path, '/', '')), '') AS f, line,
                      p.givens AS what
               FROM sources JOIN files ON files.id = file_id JOIN puzzles p ON p.id = puzzle_id
               UNION ALL
               SELECT replace(path, rtrim(path, replace(path, '/', '')), ''), line, reason
               FROM rejects JOIN files ON files.id = file_id)
         ORDER BY 1",
    )
}

#[test]
fn compressed_files_import_as_what_they_hold_whatever_their_name() {
    let w = Workdir::new();
    let names = [
        "classic.txt",
        "kaggle_first50.csv",
        "killer.txt",
        "str8ts.txt",
        "bad.txt",
    ];
    let plain: Vec<PathBuf> = names.iter().map(|f| sample(f)).collect();
    let read = |i: usize| std::fs::read(&plain[i]).unwrap();
    // gzip of two members (as `cat a.gz b.gz` makes), zstd, xz, bzip2; the
    // last one's name says nothing of its compression.
    let text = read(0);
    let half = text.len() / 2;
    let two_members = [gzip(&text[..half]), gzip(&text[half..])].concat();
    let packed = [
        w.write("classic.txt.gz", two_members),
        w.write("kaggle_first50.csv.zst", zstd(&read(1))),
        w.write("killer.txt.xz", xz(&read(2))),
        w.write("str8ts.txt.bz2", bzip2(&read(3))),
        w.write("bad.txt", gzip(&read(4))),
    ];
    let packed_refs: Vec<&Path> = packed.iter().map(PathBuf::as_path).collect();
    let plain_refs: Vec<&Path> = plain.iter().map(PathBuf::as_path).collect();
    let s = w.import(&packed_refs, &[]);
    let p = w.import(&plain_refs, &["--db", "plain.sqlite"]);
    for key in ["lines", "stored", "duplicates", "rejected", "skipped"] {
        assert_eq!(n(&s, key), n(&p, key), "{key}: {s} vs {p}");
    }
    assert_eq!(
        w.count("SELECT count(*) FROM rejects WHERE reason = 'encoding'"),
        0,
        "nothing is read as compressed bytes"
    );
    assert_eq!(
        lines_by_file(&w, "puzzles.sqlite"),
        lines_by_file(&w, "plain.sqlite"),
        "line numbers are those of the decompressed text"
    );
}

#[test]
fn compressed_standard_input_is_decompressed() {
    let w = Workdir::new();
    let text = std::fs::read(sample("classic.txt")).unwrap();
    for (format, bytes) in [("gzip", gzip(&text)), ("xz", xz(&text))] {
        let db = format!("{format}.sqlite");
        let (child, mut stdin) = w.spawn_piped(&["import", "--json", "--quiet", "--db", &db, "-"]);
        let feeder = std::thread::spawn(move || stdin.write_all(&bytes));
        let s = json(&finish_within(child, Duration::from_secs(60), "import -"));
        feeder.join().unwrap().unwrap();
        assert_accounted(&s, line_count(&text));
        assert_eq!(n(&s, "rejected"), 0, "{format}: {s}");
        assert!(n(&s, "stored") > 0, "{format}: {s}");
    }
}

#[test]
fn a_truncated_compressed_file_fails_the_run_naming_the_file_and_the_damage() {
    let w = Workdir::new();
    let text = std::fs::read(data("classic/kaggle_1m_first10k.csv")).unwrap();
    let whole = gzip(&text);
    w.write("cut.csv.gz", &whole[..whole.len() * 2 / 3]);
    let out = w.output(&["import", "--quiet", "--no-canonical", "cut.csv.gz"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cut.csv.gz: gzip data is corrupt or truncated: "),
        "{stderr}"
    );
    let (status, error): (String, String) = w
        .db()
        .query_row("SELECT status, error FROM imports", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(status, "failed");
    assert!(
        error.contains("gzip data is corrupt or truncated"),
        "{error}"
    );
    // A good copy completes the archive: nothing of the damaged run is in the way.
    w.write("cut.csv.gz", &whole);
    let s = w.import(&[&w.path("cut.csv.gz")], &["--no-canonical"]);
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 10_000, "{s}");
}

// ---- folders ----

/// A tree of sample files: nested, hidden, compressed, and the archive of
/// an earlier import inside it.
fn tree(w: &Workdir) -> PathBuf {
    let root = w.path("in");
    for (name, from) in [
        ("b.txt", "classic.txt"),
        ("a/killer.txt", "killer.txt"),
        ("a/deeper/str8ts.txt", "str8ts.txt"),
        ("a.csv", "kaggle_first50.csv"),
        (".hidden.txt", "bad.txt"),
        (".git/x.txt", "bad.txt"),
        ("notes.md", "SOURCES.md"),
    ] {
        let p = root.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::copy(sample(from), p).unwrap();
    }
    root
}

#[test]
fn a_folder_imports_its_visible_files_in_path_order_but_never_the_archive() {
    let w = Workdir::new();
    let root = tree(&w);
    // The archive lives in the folder being imported, as after `cd in`.
    let first = w
        .command(&["import", "--json", "--quiet", "."])
        .current_dir(&root)
        .output()
        .unwrap();
    let s = json(&first);
    let files: Vec<String> =
        w.strings_in("in/puzzles.sqlite", "SELECT path FROM files ORDER BY id");
    assert_eq!(
        files,
        [
            // '.' sorts before '/'
            "./a.csv",
            "./a/deeper/str8ts.txt",
            "./a/killer.txt",
            "./b.txt",
            "./notes.md"
        ]
    );
    // The archive, its WAL and lock are in the folder now: a second run
    // (reading every file again) reads the same files only.
    assert!(root.join("puzzles.sqlite").exists());
    let again = json(
        &w.command(&["import", "--json", "--quiet", "--reread", "."])
            .current_dir(&root)
            .output()
            .unwrap(),
    );
    assert_eq!(n(&again, "lines"), n(&s, "lines"), "{again}");
    assert_eq!(n(&again, "stored"), 0, "{again}");
    // Named explicitly, the archive is refused.
    let out = w
        .command(&["import", "puzzles.sqlite"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("puzzles.sqlite is the archive"),
        "{out:?}"
    );
}

#[test]
fn globs_pick_files_inside_folders_and_a_folder_with_none_is_an_error() {
    let w = Workdir::new();
    let root = tree(&w);
    std::fs::write(root.join("a/c.txt.gz"), gzip(b"")).unwrap();
    let s = w.import(
        &[&root],
        &["--glob", "*.txt", "--glob", "*.txt.gz", "--db", "g.sqlite"],
    );
    assert_eq!(
        w.strings_in("g.sqlite", "SELECT path FROM files ORDER BY id"),
        [
            "in/a/c.txt.gz",
            "in/a/deeper/str8ts.txt",
            "in/a/killer.txt",
            "in/b.txt"
        ]
        .map(|p| root.parent().unwrap().join(p).display().to_string()),
        "{s}"
    );
    let empty = w.path("empty");
    std::fs::create_dir_all(empty.join(".cache")).unwrap();
    std::fs::write(empty.join(".cache/x.txt"), GOOD).unwrap();
    for (args, says) in [
        (
            vec!["check", "empty"],
            "folder empty has no files to import",
        ),
        (
            vec!["import", "--glob", "*.sdk", "in"],
            "none of its 6 files matches --glob *.sdk",
        ),
    ] {
        let out = w.output(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    assert!(
        !w.path("puzzles.sqlite").exists(),
        "nothing is created before the inputs are known"
    );
}

#[test]
fn a_folder_of_more_files_than_open_file_descriptors_is_imported() {
    let w = Workdir::new();
    let root = w.path("many");
    std::fs::create_dir(&root).unwrap();
    let text = std::fs::read_to_string(data("classic/kaggle_1m_first10k.csv")).unwrap();
    let quizzes: Vec<&str> = text.lines().skip(1).take(300).map(|l| &l[..81]).collect();
    for (i, q) in quizzes.iter().enumerate() {
        std::fs::write(root.join(format!("{i:03}.txt")), format!("{q}\n")).unwrap();
    }
    // 100 descriptors for 300 inputs, the archive and the rest.
    let script = format!(
        "ulimit -n 100 && exec '{}' import --json --quiet many",
        env!("CARGO_BIN_EXE_sudoku-archive")
    );
    let child = bash(&w, &script);
    let s = json(&finish_within(
        child,
        Duration::from_secs(60),
        "import many",
    ));
    assert_accounted(&s, 300);
    assert_eq!(n(&s, "stored"), 300, "{s}");
    assert_eq!(w.count("SELECT count(*) FROM files"), 300);
}
