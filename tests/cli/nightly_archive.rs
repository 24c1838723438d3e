//! Issue 20, the archive's side: another program's database is never
//! touched, a read-only archive is read, errors say their cause once, a
//! failed run is recorded even on a full disk, two imports take turns, and
//! the WAL stays bounded beside readers.
//!
//! Tests that mount a file system need root and are `#[ignore]`d (run them
//! with `cargo test --test cli -- --ignored nightly_archive`). Read-only
//! permissions are tested by running the binary as `nobody` when the tests
//! run as root (root ignores permission bits).

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::util::{Workdir, data, relabelled_kaggle, sample};

const NOBODY: u32 = 65534;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

/// The files SQLite may leave beside `db`.
fn beside(w: &Workdir, db: &str) -> Vec<String> {
    ["-wal", "-shm", "-journal"]
        .iter()
        .map(|s| format!("{db}{s}"))
        .filter(|f| w.path(f).exists())
        .collect()
}

/// Another program's database: a `customers` table at `user_version`.
fn foreign(w: &Workdir, name: &str, user_version: i64, wal: bool) -> PathBuf {
    let p = w.path(name);
    let c = Connection::open(&p).unwrap();
    if wal {
        let _: String = c
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .unwrap();
    }
    c.execute_batch(&format!(
        "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
         INSERT INTO customers (name) VALUES ('Ada'), ('Grace');
         PRAGMA user_version = {user_version};"
    ))
    .unwrap();
    drop(c);
    p
}

#[test]
fn another_programs_database_is_refused_byte_for_byte_unchanged_by_every_command() {
    let w = Workdir::new();
    let input = sample("classic.txt").display().to_string();
    for (user_version, wal) in [
        (0, false),
        (3, false),
        (7, false),
        (8, false),
        (99, false),
        (3, true),
    ] {
        let name = format!("o{user_version}{}.sqlite", if wal { "w" } else { "" });
        let p = foreign(&w, &name, user_version, wal);
        let before = bytes(&p);
        assert!(beside(&w, &name).is_empty());
        for args in [
            vec!["stats", "--db", &name],
            vec!["stats", "--json", "--db", &name],
            vec!["export", "--db", &name],
            vec!["import", "--quiet", "--db", &name, &input],
        ] {
            let out = w.output(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
            assert_eq!(
                stderr(&out),
                format!(
                    "sudoku-archive: {name}: not a sudoku-archive archive: it is a SQLite \
                     database with other tables (customers) and user_version {user_version}\n"
                ),
                "{args:?}"
            );
            assert!(bytes(&p) == before, "{args:?} changed {name}");
            assert_eq!(beside(&w, &name), Vec::<String>::new(), "{args:?}");
        }
    }
}

#[test]
fn an_archive_of_a_newer_version_says_so_and_a_new_archive_carries_its_id() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt")], &[]);
    let id: i64 = w
        .db()
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, 0x5344_4b41);
    w.db().pragma_update(None, "user_version", 99).unwrap();
    let before = bytes(&w.path("puzzles.sqlite"));
    let out = w.output(&["stats"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(
            "sudoku-archive: puzzles.sqlite: the archive has schema version 99, newer than this sudoku-archive knows ("
        ),
        "{}",
        stderr(&out)
    );
    assert!(bytes(&w.path("puzzles.sqlite")) == before);
}

/// What migrations 0010 to 0013 added, taken away again, so that a current
/// archive set back to schema 8 is one (0012's lookup tables back as the
/// indexes they were).
const UNDO_AFTER_8: &str =
    "DROP INDEX sources_file_line; DROP TABLE removals; DROP TABLE merged_imports; DROP VIEW provenance; ALTER TABLE sources DROP COLUMN fields;
    CREATE VIEW provenance AS SELECT s.puzzle_id, s.import_id, f.path AS file, s.line, s.relation
    FROM sources AS s JOIN files AS f ON f.id = s.file_id;
    DROP TABLE puzzles_by_key; DROP TABLE puzzles_by_form;
    CREATE UNIQUE INDEX puzzles_key ON puzzles (key);
    CREATE INDEX puzzles_canonical_hash ON puzzles (canonical_hash);
    ALTER TABLE imports DROP COLUMN rated;";

#[test]
fn an_older_archive_without_the_id_is_recognised_by_its_tables_and_upgraded() {
    // Schema 8 is the last without the id; its upgrade (0009) only sets it.
    let w = Workdir::new();
    w.import(&[&sample("classic.txt")], &[]);
    let c = w.db();
    c.execute_batch(&format!(
        "{UNDO_AFTER_8} PRAGMA application_id = 0; PRAGMA user_version = 8;"
    ))
    .unwrap();
    drop(c);
    let out = w.output(&["stats", "--json"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stderr(&out).starts_with("upgrading puzzles.sqlite from schema 8 to "));
    let id: i64 = w
        .db()
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, 0x5344_4b41);
    // Upgraded through 0012: the lookup tables hold every puzzle again.
    w.assert_lookup_tables();
    assert_eq!(
        w.count("SELECT count(*) FROM puzzles_by_key"),
        w.count("SELECT count(*) FROM puzzles")
    );
    assert!(w.count("SELECT count(*) FROM puzzles") > 0);
}

#[test]
fn a_missing_folder_is_named_once() {
    let w = Workdir::new();
    let input = sample("classic.txt").display().to_string();
    for args in [
        vec!["import", "--quiet", "--db", "nodir/x.sqlite", &input],
        vec!["stats", "--db", "nodir/x.sqlite"],
        vec!["export", "--db", "nodir/x.sqlite"],
    ] {
        let out = w.output(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&out),
            "sudoku-archive: nodir/x.sqlite: the folder nodir does not exist\n",
            "{args:?}"
        );
    }
    w.write(
        "junk.sqlite",
        b"not a database at all, just some text\n".repeat(10),
    );
    let out = w.output(&["stats", "--db", "junk.sqlite"]);
    assert_eq!(
        stderr(&out),
        "sudoku-archive: junk.sqlite: not a sudoku-archive archive: it is not a SQLite database\n"
    );
}

#[test]
fn an_archive_whose_wal_was_deleted_before_its_first_checkpoint_says_so() {
    let w = Workdir::new();
    // An archive's first import, killed before any checkpoint: the file
    // holds only its header, everything else is in the -wal.
    let live = w.path("live.sqlite");
    let c = Connection::open(&live).unwrap();
    let _: String = c
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .unwrap();
    c.execute_batch(
        "PRAGMA wal_autocheckpoint = 0;
         CREATE TABLE imports (id INTEGER PRIMARY KEY); PRAGMA user_version = 8;",
    )
    .unwrap();
    std::fs::copy(&live, w.path("puzzles.sqlite")).unwrap();
    std::fs::copy(w.path("live.sqlite-shm"), w.path("puzzles.sqlite-shm")).unwrap();
    drop(c);
    for args in [vec!["stats"], vec!["export"]] {
        let out = w.output(&args);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            "sudoku-archive: puzzles.sqlite: the archive holds no tables, and its write-ahead \
             log puzzles.sqlite-wal is missing (deleted?): what was not yet copied from it into \
             the archive is lost\n"
        );
    }
    // A valid archive that lost an empty -wal reads as ever.
    w.import(&[&sample("classic.txt")], &["--db", "ok.sqlite"]);
    w.output(&["stats", "--db", "ok.sqlite"]);
    std::fs::write(w.path("ok.sqlite-shm"), vec![0u8; 32768]).unwrap();
    let out = w.output(&["stats", "--db", "ok.sqlite"]);
    assert!(out.status.success(), "{out:?}");
}

/// Runs the binary in `w` with `args`, as `nobody` when the tests run as
/// root, for whom permission bits mean nothing. Nobody runs a copy kept in
/// `w`: the build's own folder may be one that only its owner can enter (a
/// clone in a `mktemp -d` folder, as CI makes).
fn as_user(w: &Workdir, args: &[&str]) -> Output {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return w.command(args).output().unwrap();
    }
    let bin = w.path("bin");
    let copy = bin.join("sudoku-archive");
    if !copy.exists() {
        std::fs::create_dir_all(&bin).unwrap();
        chmod(&bin, 0o755);
        // A hard link opens no file for writing. A copy (across file
        // systems) does, and a child that another test forks meanwhile
        // holds that descriptor until it execs: "text file busy" for a
        // moment, hence the retries below.
        let built = env!("CARGO_BIN_EXE_sudoku-archive");
        if std::fs::hard_link(built, &copy).is_err() {
            std::fs::copy(built, &copy).unwrap();
            chmod(&copy, 0o755);
        }
    }
    let mut c = Command::new(&copy);
    c.args(args)
        .current_dir(w.path(""))
        .stdin(std::process::Stdio::null())
        .uid(NOBODY)
        .gid(NOBODY);
    for _ in 0..100 {
        match c.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            other => return other.unwrap(),
        }
    }
    panic!("{} stayed busy", copy.display())
}

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn a_read_only_archive_file_or_folder_is_read_and_never_written() {
    let input = sample("classic.txt");
    let copy = |w: &Workdir| {
        // Readable by nobody: the input too.
        std::fs::copy(&input, w.path("in.txt")).unwrap();
        chmod(&w.path("in.txt"), 0o644);
    };
    for (file_mode, folder_mode, why) in [
        (0o444, 0o777, "no permission to write the file"),
        (0o444, 0o555, "no permission to write the file"),
        (0o666, 0o555, "no permission to write its folder"),
    ] {
        let w = Workdir::new();
        copy(&w);
        w.import(&[&w.path("in.txt")], &[]);
        let db = w.path("puzzles.sqlite");
        let expected = w.run(&["export"]);
        let stats = w.run(&["stats", "--json"]);
        let root = db.parent().unwrap().to_path_buf();
        chmod(&db, file_mode);
        chmod(&root, folder_mode);
        let before = bytes(&db);
        let export = as_user(&w, &["export"]);
        assert!(export.status.success(), "{export:?}");
        assert_eq!(String::from_utf8_lossy(&export.stdout), expected);
        let s = as_user(&w, &["stats", "--json"]);
        assert!(s.status.success(), "{s:?}");
        assert_eq!(String::from_utf8_lossy(&s.stdout), stats);
        let out = as_user(&w, &["import", "--quiet", "in.txt"]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            format!(
                "sudoku-archive: puzzles.sqlite: the archive is read-only ({why}): an import needs write access\n"
            ),
            "{file_mode:o} {folder_mode:o}"
        );
        assert!(bytes(&db) == before);
        chmod(&root, 0o755);
    }
}

#[test]
fn a_read_only_archive_of_an_older_schema_says_it_needs_an_upgrade() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt")], &[]);
    w.db()
        .execute_batch(&format!(
            "{UNDO_AFTER_8} PRAGMA application_id = 0; PRAGMA user_version = 8;"
        ))
        .unwrap();
    let db = w.path("puzzles.sqlite");
    chmod(&db, 0o444);
    chmod(db.parent().unwrap(), 0o755);
    let before = bytes(&db);
    let out = as_user(&w, &["stats"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "sudoku-archive: puzzles.sqlite: the archive has schema version 8 and must be \
             upgraded to {} before it can be read, but it is read-only (no permission to write \
             the file): run this once with write access\n",
            sudoku_archive::archive::schema::VERSION
        )
    );
    assert!(bytes(&db) == before);
}

/// Mounts a tmpfs of `size` at a new folder of `w`; unmounted on drop.
struct Mount(PathBuf);

impl Mount {
    fn new(w: &Workdir, size: &str) -> Mount {
        let dir = w.path("mnt");
        std::fs::create_dir(&dir).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .status()
            .unwrap();
        assert!(ok.success(), "mount needs root");
        Mount(dir)
    }

    fn remount(&self, opts: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,{opts}")])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(ok.success());
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
#[ignore = "mounts a tmpfs: needs root"]
fn an_archive_on_a_read_only_file_system_is_read_and_an_import_says_why_not() {
    let w = Workdir::new();
    let m = Mount::new(&w, "16m");
    let db = "mnt/a.sqlite";
    w.import(&[&sample("classic.txt")], &["--db", db]);
    let expected = w.run(&["export", "--db", db]);
    m.remount("ro");
    assert_eq!(w.run(&["export", "--db", db]), expected);
    w.run(&["stats", "--db", db]);
    let out = w.output(&[
        "import",
        "--quiet",
        "--db",
        db,
        sample("classic.txt").to_str().unwrap(),
    ]);
    assert_eq!(
        stderr(&out),
        "sudoku-archive: mnt/a.sqlite: the archive is read-only (it is on a read-only file system): an import needs write access\n"
    );
    m.remount("rw");
}

fn status_of(w: &Workdir, db: &str, id: i64) -> (String, Option<String>) {
    Connection::open(w.path(db))
        .unwrap()
        .query_row(
            "SELECT status, error FROM imports WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

const FULL: &str = "sudoku-archive: writing a batch: the disk is full (or the archive reached \
                    its page limit); nothing of the failed batch was kept\n";

#[test]
fn a_run_stopped_by_a_full_archive_is_recorded_failed_and_not_called_killed() {
    let w = Workdir::new();
    let name = data("classic/kaggle_1m_first10k.csv").display().to_string();
    let out = w.output(&["import", "--quiet", "--max-pages", "150", &name]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), FULL);
    let (status, error) = status_of(&w, "puzzles.sqlite", 1);
    assert_eq!(status, "failed");
    assert!(error.unwrap().contains("the disk is full"));
    let out = w.output(&["import", "--quiet", &name]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), "");
}

#[test]
#[ignore = "mounts a tmpfs: needs root"]
fn a_merge_stopped_by_a_full_file_system_is_recorded_failed() {
    let w = Workdir::new();
    // The input: 10,000 puzzles, several MB, more than the file system holds.
    let name = data("classic/kaggle_1m_first10k.csv").display().to_string();
    let out = w.output(&["import", "--quiet", "--db", "in.sqlite", &name]);
    assert!(out.status.success(), "{out:?}");
    let _m = Mount::new(&w, "3m");
    let db = "mnt/out.sqlite";
    let out = w.output(&["merge", "--db", db, "in.sqlite"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("the disk is full"), "{out:?}");
    // The merge's own run, recorded with the reserve the lock file gave back.
    let (status, error) = status_of(&w, db, 1);
    assert_eq!(status, "failed");
    assert!(error.unwrap().contains("the disk is full"));
}

#[test]
#[ignore = "mounts a tmpfs: needs root"]
fn a_run_stopped_by_a_full_file_system_is_recorded_failed() {
    let w = Workdir::new();
    let m = Mount::new(&w, "8m");
    let db = "mnt/a.sqlite";
    let mut child = w
        .command(&["import", "--quiet", "--db", db, "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The run's row is committed; then the disk fills up, to the last block.
    let start = Instant::now();
    while !w.path("mnt/a.sqlite-wal").exists() || rows(&w, db) < 1 {
        assert!(start.elapsed() < Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(10));
    }
    let filler = m.0.join("filler");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&filler).unwrap();
        let block = vec![7u8; 4096];
        while f.write_all(&block).and_then(|_| f.flush()).is_ok() {}
        let _ = f.sync_all();
    }
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        // The import stops reading when the disk fails it: a closed pipe then.
        let _ = stdin.write_all(relabelled_kaggle(2).as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let full = |doing: &str| {
        format!(
            "sudoku-archive: {doing}: the disk is full (or the archive reached its page limit); \
             nothing of the failed batch was kept\n"
        )
    };
    let said = stderr(&out);
    assert!(
        said == full("committing a batch") || said == full("writing a batch"),
        "{said}"
    );
    assert_eq!(status_of(&w, db, 1).0, "failed");
    std::fs::remove_file(&filler).unwrap();
    let out = w.output(&[
        "import",
        "--quiet",
        "--db",
        db,
        sample("classic.txt").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stderr(&out), "");
    assert_eq!(status_of(&w, db, 1).0, "failed");
}

fn rows(w: &Workdir, db: &str) -> i64 {
    Connection::open_with_flags(w.path(db), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .and_then(|c| c.query_row("SELECT count(*) FROM imports", [], |r| r.get(0)))
        .unwrap_or(0)
}

/// `copies` relabelled copies of Kaggle's 10,000, starting at copy `from`.
fn kaggle_copies(from: usize, copies: usize) -> String {
    let all = relabelled_kaggle(from + copies);
    let skip: usize = all.lines().take(from * 10_000).map(|l| l.len() + 1).sum();
    all[skip..].to_string()
}

#[test]
fn a_second_import_takes_turns_with_a_running_one_and_both_count_every_line() {
    let w = Workdir::new();
    let a = w.write("a.txt", kaggle_copies(0, 40));
    let b = w.write("b.txt", kaggle_copies(40, 6));
    // One import on one worker, its output kept.
    let import = |file: &Path| {
        w.command(&[
            "import",
            "--quiet",
            "--json",
            "--jobs",
            "1",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
    };
    let first = import(&a);
    // The first import is running (its row is there) before its first commit.
    let start = Instant::now();
    while !w.path("puzzles.sqlite-wal").exists() || rows(&w, "puzzles.sqlite") < 1 {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = import(&b);
    let (o1, o2) = (
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    );
    assert!(o1.status.success() && o2.status.success(), "{o1:?} {o2:?}");
    let s1: serde_json::Value = serde_json::from_slice(&o1.stdout).unwrap();
    let s2: serde_json::Value = serde_json::from_slice(&o2.stdout).unwrap();
    assert_eq!(
        (s1["stored"].as_u64(), s2["stored"].as_u64()),
        (Some(400_000), Some(60_000))
    );
    assert_eq!(w.count("SELECT count(*) FROM puzzles"), 460_000);
    assert_eq!(w.count("SELECT count(*) FROM sources"), 460_000);
    // The second did not wait for the first to end: they took turns.
    let order = w.strings("SELECT CAST(id AS TEXT) FROM imports ORDER BY finished_at");
    assert_eq!(order, ["2", "1"].map(String::from));
}

#[test]
fn the_wal_is_truncated_after_an_import_beside_a_reader() {
    let w = Workdir::new();
    let f = w.write("a.txt", kaggle_copies(0, 12));
    w.import(&[&sample("classic.txt")], &[]);
    let db = w.path("puzzles.sqlite");
    let wal = w.path("puzzles.sqlite-wal");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let stop = stop.clone();
        let db = db.clone();
        std::thread::spawn(move || {
            let c = Connection::open(&db).unwrap();
            let mut queries = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _: i64 = c
                    .query_row("SELECT count(*) FROM imports", [], |r| r.get(0))
                    .unwrap();
                queries += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
            (c, queries)
        })
    };
    w.import(&[&f], &["--quiet"]);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (c, queries) = reader.join().unwrap();
    assert!(queries > 10);
    // The reader's connection is still open: the WAL file is still there.
    let size = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert!(size < 1 << 20, "the WAL is {size} bytes after the import");
    drop(c);
}

#[test]
fn reading_an_archive_leaves_nothing_beside_it() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt")], &[]);
    w.run(&["stats"]);
    w.run(&["export"]);
    assert_eq!(beside(&w, "puzzles.sqlite"), Vec::<String>::new());
}

#[test]
fn a_read_only_folder_holding_a_wal_is_read_and_without_its_index_says_so() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt")], &[]);
    // A run killed mid-way: its last rows are only in the -wal.
    let c = w.db();
    c.execute_batch(
        "PRAGMA wal_autocheckpoint = 0;
         INSERT INTO imports (arguments, status) VALUES ('[]', 'failed');",
    )
    .unwrap();
    for (dir, with_index) in [("full", true), ("bare", false)] {
        let d = w.path(dir);
        std::fs::create_dir(&d).unwrap();
        let mut suffixes = vec!["", "-wal"];
        if with_index {
            suffixes.push("-shm");
        }
        for s in suffixes {
            let to = d.join(format!("a.sqlite{s}"));
            std::fs::copy(w.path(&format!("puzzles.sqlite{s}")), &to).unwrap();
            chmod(&to, 0o644);
        }
        chmod(&d, 0o555);
        chmod(d.parent().unwrap(), 0o755);
        let db = format!("{dir}/a.sqlite");
        let out = as_user(&w, &["stats", "--json", "--db", &db]);
        if with_index {
            assert!(out.status.success(), "{out:?}");
            let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(s["imports"].as_array().unwrap().len(), 2, "{s}");
        } else {
            assert_eq!(
                stderr(&out),
                "sudoku-archive: bare/a.sqlite: cannot open: its write-ahead log \
                 bare/a.sqlite-wal is there but not its index bare/a.sqlite-shm, which SQLite \
                 must create and cannot in a read-only folder: read it once with write access \
                 to the folder\n"
            );
        }
        chmod(&d, 0o755);
    }
    drop(c);
}

#[test]
fn rejects_an_older_archive_called_duplicate_are_renamed_and_not_kept_twice() {
    // Before schema 14 a digit twice in a house was rejected as
    // `duplicate`: an upgraded archive reads the same file again without a
    // second reject row for each such line, and a merge of an archive not
    // yet upgraded keeps the rows under today's name.
    let w = Workdir::new();
    let bad = sample("bad.txt");
    w.import(&[&bad], &[]);
    let repeated = w.count("SELECT count(*) FROM rejects WHERE reason = 'repeated-digit'");
    assert!(repeated > 0);
    let rejects = w.count("SELECT count(*) FROM rejects");
    let c = w.db();
    c.execute_batch(
        "UPDATE rejects SET reason = 'duplicate' WHERE reason = 'repeated-digit';
         ALTER TABLE puzzles DROP COLUMN minimal; DROP INDEX puzzles_type_rating;
         ALTER TABLE puzzles DROP COLUMN rating; ALTER TABLE puzzles DROP COLUMN rating_technique;
         ALTER TABLE puzzles DROP COLUMN rating_bound; ALTER TABLE puzzles DROP COLUMN rating_version;
         ALTER TABLE imports DROP COLUMN rated;
         PRAGMA user_version = 13;",
    )
    .unwrap();
    drop(c);
    std::fs::copy(w.path("puzzles.sqlite"), w.path("old.sqlite")).unwrap();

    w.import(&[&bad], &["--reread"]);
    assert_eq!(w.count("SELECT count(*) FROM rejects"), rejects);
    assert_eq!(
        w.count("SELECT count(*) FROM rejects WHERE reason = 'duplicate'"),
        0
    );
    assert_eq!(
        w.count("SELECT count(*) FROM rejects WHERE reason = 'repeated-digit'"),
        repeated
    );

    w.run(&["merge", "--db", "puzzles.sqlite", "old.sqlite"]);
    assert_eq!(w.count("SELECT count(*) FROM rejects"), rejects);
    w.run(&["merge", "--db", "fresh.sqlite", "old.sqlite"]);
    let renamed = w.strings_in(
        "fresh.sqlite",
        "SELECT CAST(count(*) AS TEXT) FROM rejects WHERE reason = 'repeated-digit'",
    );
    assert_eq!(renamed, vec![repeated.to_string()]);
}
