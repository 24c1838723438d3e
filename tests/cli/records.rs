//! The archive's records never lie: a read that failed (corrupt
//! compressed data, a file that changed under it) leaves nothing, and a
//! file read again leaves the archive as a clean import of the file as it
//! is now (issue 36, items 1 and 4).

use std::io::Write;
use std::process::{Output, Stdio};
use std::time::Duration;

use crate::util::{PUZZLE_ROWS, Workdir, committed_lines, data, first_nonzero, relabelled_kaggle};

/// What an archive holds, in words that do not depend on how it got
/// there: each puzzle (with its id when `ids`), each provenance row by
/// file, line and puzzle, each reject; with what must always hold (the
/// lookup tables' invariant, no row without its parent, no puzzle that no
/// line holds) checked on the way.
pub fn content(w: &Workdir, db: &str, ids: bool) -> Vec<String> {
    let path = w.path(db);
    crate::util::assert_lookup_tables(&path);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        count("SELECT count(*) FROM pragma_foreign_key_check"),
        0,
        "{db}"
    );
    assert_eq!(
        count(
            "SELECT count(*) FROM puzzles AS p
             WHERE NOT EXISTS (SELECT 1 FROM sources AS s WHERE s.puzzle_id = p.id)"
        ),
        0,
        "{db}: puzzles that no line holds"
    );
    let puzzles = if ids {
        PUZZLE_ROWS.to_string()
    } else {
        "SELECT type || clues || givens || encoding || solutions || ifnull(solution, '')
         FROM puzzles ORDER BY givens"
            .to_string()
    };
    let mut rows = w.strings_in(db, &puzzles);
    rows.extend(w.strings_in(
        db,
        "SELECT f.path || ':' || s.line || ' ' || p.type || ' ' || p.givens || ' ' || s.relation
                || ' ' || ifnull(s.fields, '')
         FROM sources AS s JOIN files AS f ON f.id = s.file_id JOIN puzzles AS p ON p.id = s.puzzle_id
         ORDER BY f.path, s.line, p.givens",
    ));
    rows.extend(w.strings_in(
        db,
        "SELECT f.path || ':' || r.line || ' ' || r.reason || ' ' || r.raw || ' ' || r.message
         FROM rejects AS r JOIN files AS f ON f.id = r.file_id ORDER BY f.path, r.line, r.reason",
    ));
    rows
}

fn import(w: &Workdir, db: &str, file: &str) -> Output {
    w.output(&["import", "--quiet", "--db", db, file])
}

fn ok(out: &Output) {
    assert!(out.status.success(), "{out:?}");
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// 200,000 distinct puzzles, then the same text as a corrupt decoder
/// would give it: past line 60,000 (before the first batch's commit at
/// 131,072 lines, long before the checksum at the end) a line is another
/// puzzle, one is not a puzzle, and two lines run together, so that every
/// line after them is numbered one less.
pub fn good_and_garbled() -> (String, String) {
    let good = relabelled_kaggle(20);
    let mut lines: Vec<String> = good.lines().map(String::from).collect();
    let other = std::fs::read_to_string(data("classic/top1465.txt")).unwrap();
    let phantom = other.lines().find(|l| !l.starts_with('#')).unwrap();
    lines[60_000] = phantom[..81].to_string();
    lines[60_001] = "\u{1}\u{7f}garbage".to_string();
    let joined = format!("{}{}", lines[60_010], lines[60_011]);
    lines.splice(60_010..60_012, [joined]);
    (good, lines.join("\n") + "\n")
}

/// gzip's checksum is checked only at the end of a member: the whole
/// garbled text decodes before the error.
pub fn with_bad_checksum(mut gz: Vec<u8>) -> Vec<u8> {
    let crc = gz.len() - 8;
    gz[crc] ^= 0xff;
    gz
}

#[test]
fn a_corrupt_gzip_file_leaves_nothing_and_its_good_copy_then_gives_the_clean_archive() {
    let w = Workdir::new();
    let (good, garbled) = good_and_garbled();
    std::fs::write(w.path("c.gz"), with_bad_checksum(gzip(garbled.as_bytes()))).unwrap();
    let out = import(&w, "c.sqlite", "c.gz");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("c.gz: gzip data is corrupt or truncated"),
        "{stderr}"
    );
    assert!(
        stderr.contains("lines read from c.gz were taken back out of the archive"),
        "{stderr}"
    );
    // Nothing the run read of the file is left, and its row says so.
    let conn = rusqlite::Connection::open(w.path("c.sqlite")).unwrap();
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    for table in [
        "puzzles",
        "sources",
        "rejects",
        "file_reads",
        "puzzles_by_key",
    ] {
        assert_eq!(
            count(&format!("SELECT count(*) FROM {table}")),
            0,
            "{table}"
        );
    }
    assert_eq!(
        w.strings_in(
            "c.sqlite",
            "SELECT status || ' ' || lines || ' ' || stored || ' ' || rejected FROM imports"
        ),
        ["failed 0 0 0"]
    );
    assert_eq!(
        w.strings_in(
            "c.sqlite",
            "SELECT reason || ' ' || (puzzles > 0) FROM removals"
        ),
        ["failed 1"],
        "what was taken out is recorded"
    );
    drop(conn);

    // The good copy under the same name: the archive a clean import makes.
    std::fs::write(w.path("c.gz"), gzip(good.as_bytes())).unwrap();
    ok(&import(&w, "c.sqlite", "c.gz"));
    ok(&import(&w, "clean.sqlite", "c.gz"));
    assert_eq!(
        content(&w, "c.sqlite", true),
        content(&w, "clean.sqlite", true)
    );
}

#[test]
fn gzip_with_trailing_garbage_says_so() {
    let w = Workdir::new();
    let text = std::fs::read(crate::util::sample("classic.txt")).unwrap();
    let mut gz = gzip(&text);
    let end = gz.len();
    gz.extend_from_slice(b"not gzip\n");
    std::fs::write(w.path("t.gz"), gz).unwrap();
    let out = import(&w, "t.sqlite", "t.gz");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "t.gz: gzip data ends at byte {end} and is followed by bytes that are not gzip \
             (trailing garbage)"
        )),
        "{stderr}"
    );
}

/// A classic line, a Str8ts line, another classic line.
fn str8ts_between_classics() -> Vec<String> {
    let classic = std::fs::read_to_string(data("classic/top1465.txt")).unwrap();
    let classic: Vec<&str> = classic.lines().filter(|l| !l.starts_with('#')).collect();
    let str8ts = std::fs::read_to_string(crate::util::sample("str8ts.txt")).unwrap();
    let str8ts = str8ts.lines().find(|l| !l.starts_with('#')).unwrap();
    vec![
        classic[0][..81].to_string(),
        str8ts[..162].to_string(),
        classic[1][..81].to_string(),
    ]
}

#[test]
fn a_half_written_last_line_is_superseded_when_the_file_is_read_again_whole() {
    let w = Workdir::new();
    let lines = str8ts_between_classics();
    // The writer has written the first two lines and 81 characters of the
    // Str8ts line when the import reads the file.
    let half = format!("{}\n{}\n{}", lines[0], lines[2], &lines[1][..81]);
    let whole = format!("{}\n{}\n{}\n", lines[0], lines[2], lines[1]);
    w.write("g.txt", &half);
    ok(&import(&w, "g.sqlite", "g.txt"));
    w.write("g.txt", &whole);
    ok(&import(&w, "g.sqlite", "g.txt"));
    ok(&import(&w, "clean.sqlite", "g.txt"));
    assert_eq!(
        content(&w, "g.sqlite", false),
        content(&w, "clean.sqlite", false)
    );
    assert_eq!(
        w.strings_in(
            "g.sqlite",
            "SELECT type FROM puzzles AS p JOIN sources AS s ON s.puzzle_id = p.id WHERE s.line = 3"
        ),
        ["str8ts"],
        "one row for the line, the whole line's"
    );
    assert_eq!(
        w.strings_in(
            "g.sqlite",
            "SELECT reason || ' ' || (sources + rejects) FROM removals"
        ),
        ["changed 1"],
        "the half line's row (a puzzle that never was, or a reject) is taken out"
    );
}

/// Lines changed, moved, made rejects and comments, and the file made
/// shorter; then changed back to what an earlier complete read found.
#[test]
fn a_file_read_again_ends_as_a_clean_import_of_it_as_it_is_now() {
    let w = Workdir::new();
    let before: Vec<String> = relabelled_kaggle(1).lines().map(String::from).collect();
    let mut after = before.clone();
    after.swap(10, 20);
    after[30] = "# a comment now".into();
    after[40] = "not a puzzle".into();
    after[50] = after[60].clone();
    after.truncate(9_000);
    // The puzzle of line 1 now comes only at the end: the workers may have
    // found it stored before the change took it out.
    let first = after.remove(0);
    after.push(first);
    let before = before.join("\n") + "\n";
    let after = after.join("\n") + "\n";
    for (i, text) in [&before, &after, &before].into_iter().enumerate() {
        w.write("f.txt", text);
        ok(&import(&w, "f.sqlite", "f.txt"));
        let clean = format!("clean{i}.sqlite");
        ok(&import(&w, &clean, "f.txt"));
        assert_eq!(
            content(&w, "f.sqlite", false),
            content(&w, &clean, false),
            "read {i}"
        );
    }
}

#[test]
fn a_file_that_grows_while_it_is_read_is_reported_and_leaves_nothing() {
    let w = Workdir::new();
    let text = relabelled_kaggle(30);
    let path = w.write("big.txt", &text);
    let child = w
        .command(&["import", "--quiet", "--db", "puzzles.sqlite", "big.txt"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first batch is committed: the reader is a few chunks past it,
    // far from the end of the file.
    let seen = first_nonzero(Duration::from_millis(10), || committed_lines(&w));
    assert!(seen > 0 && seen < 200_000, "{seen}");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(&text.as_bytes()[..82 * 3 + 40]).unwrap();
    drop(f);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("big.txt: the file changed while it was read"),
        "{stderr}"
    );
    assert_eq!(content(&w, "puzzles.sqlite", true), Vec::<String>::new());
    // Whole again and still: read in full, as a clean import reads it.
    let mut whole = text.clone();
    whole.push_str(&text[..82 * 4]);
    w.write("big.txt", &whole);
    ok(&import(&w, "puzzles.sqlite", "big.txt"));
    ok(&import(&w, "clean.sqlite", "big.txt"));
    assert_eq!(
        content(&w, "puzzles.sqlite", false),
        content(&w, "clean.sqlite", false)
    );
}
