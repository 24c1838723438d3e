//! A fresh working directory per test, the binary, and SQL over the archive.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};

use rusqlite::Connection;

/// Every stored puzzle as one string per row, in id order: what must not
/// depend on how an import got there.
pub const PUZZLE_ROWS: &str = "SELECT id || type || clues || givens || encoding || solutions || ifnull(solution, '') FROM puzzles ORDER BY id";

/// Panics unless the archive `db` keeps the lookup tables' invariant: each
/// puzzle has exactly one `puzzles_by_key` row, holding its `key`, and one
/// `puzzles_by_form` row iff its `canonical_hash` is not NULL, holding
/// that; no two puzzles share a key. Checked both ways (no row missing, no
/// row extra, values equal, counts equal) by the library's own queries
/// (`lookup::INVARIANT`); the panic lists the offending rows.
pub fn assert_lookup_tables(db: &Path) {
    let conn = Connection::open(db).expect("open archive");
    let breaks = sudoku_archive::archive::lookup::invariant_breaks(&conn).expect("check");
    assert!(
        breaks.is_empty(),
        "{}: the lookup tables break their invariant:\n{}",
        db.display(),
        breaks.join("\n")
    );
    // And the check is not vacuous: the tables are there.
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master
             WHERE type = 'table' AND name IN ('puzzles_by_key', 'puzzles_by_form')",
            [],
            |r| r.get(0),
        )
        .expect("list tables");
    assert_eq!(tables, 2, "{}", db.display());
}

pub struct Workdir {
    dir: tempfile::TempDir,
}

/// A file under `tests/data/`.
pub fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// A file under `samples/`.
pub fn sample(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(rel)
}

impl Workdir {
    pub fn new() -> Workdir {
        Workdir {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, contents).expect("write test file");
        p
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_sudoku-archive"));
        c.args(args)
            .current_dir(self.dir.path())
            .stdin(Stdio::null());
        c
    }

    /// Starts the binary with every standard stream piped: the child, and
    /// the writing end of its standard input.
    pub fn spawn_piped(&self, args: &[&str]) -> (Child, ChildStdin) {
        spawn_piped(self.command(args))
    }

    /// Runs the binary and returns its output, whatever the exit status.
    pub fn output(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run sudoku-archive")
    }

    /// Runs the binary and fails the test unless it exits 0; returns stdout.
    pub fn run(&self, args: &[&str]) -> String {
        let out = self.output(args);
        assert!(
            out.status.success(),
            "sudoku-archive {args:?} failed ({:?}):\nstdout: {}\nstderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 stdout")
    }

    /// `import --json` of `files` into the default archive; the summary.
    pub fn import(&self, files: &[&Path], extra: &[&str]) -> serde_json::Value {
        let mut args: Vec<&str> = vec!["import", "--json"];
        args.extend_from_slice(extra);
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        args.extend(names.iter().map(String::as_str));
        serde_json::from_str(&self.run(&args)).expect("import --json prints JSON")
    }

    /// [`assert_lookup_tables`] on the default archive.
    pub fn assert_lookup_tables(&self) {
        assert_lookup_tables(&self.path("puzzles.sqlite"));
    }

    pub fn db(&self) -> Connection {
        Connection::open(self.path("puzzles.sqlite")).expect("open archive")
    }

    pub fn count(&self, sql: &str) -> i64 {
        self.db().query_row(sql, [], |r| r.get(0)).expect(sql)
    }

    pub fn strings(&self, sql: &str) -> Vec<String> {
        self.strings_in("puzzles.sqlite", sql)
    }

    /// The first column of every row of `sql`, run on the archive file `db`.
    pub fn strings_in(&self, db: &str, sql: &str) -> Vec<String> {
        let db = Connection::open(self.path(db)).expect("open archive");
        let mut st = db.prepare(sql).expect(sql);
        st.query_map([], |r| r.get::<_, String>(0))
            .expect(sql)
            .map(|r| r.expect(sql))
            .collect()
    }
}

/// Starts `command` with every standard stream piped: the child, and the
/// writing end of its standard input.
pub fn spawn_piped(mut command: Command) -> (Child, ChildStdin) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sudoku-archive");
    let stdin = child.stdin.take().expect("piped stdin");
    (child, stdin)
}

/// Number of lines as the importer counts them (`\n`, `\r\n`, lone `\r`).
pub fn line_count(bytes: &[u8]) -> u64 {
    let mut n = 0;
    let mut i = 0;
    let mut open = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                n += 1;
                open = false;
            }
            b'\r' => {
                n += 1;
                open = false;
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            _ => open = true,
        }
        i += 1;
    }
    n + u64::from(open)
}

/// An independent check that `solution` solves the classic `givens`.
pub fn solves_classic(givens: &str, solution: &str) -> bool {
    let g = givens.as_bytes();
    let s = solution.as_bytes();
    if s.len() != 81 || g.len() != 81 || !s.iter().all(|c| (b'1'..=b'9').contains(c)) {
        return false;
    }
    if (0..81).any(|i| g[i] != b'0' && g[i] != s[i]) {
        return false;
    }
    let unit_ok = |cells: [usize; 9]| {
        let mut seen = 0u16;
        cells.iter().all(|&c| {
            let bit = 1 << (s[c] - b'0');
            let fresh = seen & bit == 0;
            seen |= bit;
            fresh
        })
    };
    (0..9).all(|k| {
        unit_ok(std::array::from_fn(|j| k * 9 + j))
            && unit_ok(std::array::from_fn(|j| j * 9 + k))
            && unit_ok(std::array::from_fn(|j| {
                (k / 3) * 27 + (k % 3) * 3 + (j / 3) * 9 + j % 3
            }))
    })
}

pub fn n(v: &serde_json::Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("summary has no {key}: {v}"))
}

/// Kaggle's 10,000 quizzes with their digits relabelled `copies` times
/// (copy k by the k-th permutation of 1..9 in a fixed pseudo-random order):
/// real puzzles, all distinct, as many lines as a test needs. Returns the
/// text, one per line.
pub fn relabelled_kaggle(copies: usize) -> String {
    let text = std::fs::read_to_string(data("classic/kaggle_1m_first10k.csv")).unwrap();
    let quizzes: Vec<&str> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next())
        .collect();
    let mut out = String::with_capacity(quizzes.len() * copies * 82);
    for k in 0..copies {
        let perm = permutation(k as u64 * 7919 + 1);
        for q in &quizzes {
            out.extend(q.bytes().map(|c| match c {
                b'1'..=b'9' => perm[(c - b'1') as usize] as char,
                _ => c as char,
            }));
            out.push('\n');
        }
    }
    out
}

/// The `n`-th permutation (mod 9!) of the digits `1`-`9`, by its Lehmer code.
fn permutation(mut n: u64) -> [u8; 9] {
    let mut left: Vec<u8> = (b'1'..=b'9').collect();
    let mut out = [0u8; 9];
    for (i, slot) in out.iter_mut().enumerate() {
        let radix = (9 - i) as u64;
        *slot = left.remove((n % radix) as usize);
        n /= radix;
    }
    out
}

/// `n` with a comma every three digits, as the binary prints counts.
pub fn thousands(n: i64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What [`stall_import`] saw.
pub struct Stalled {
    pub out: Output,
    /// Lines the archive held committed when the wait ended.
    pub seen: i64,
    pub waited: std::time::Duration,
    /// Whether another writer could take the lock then.
    pub locked: rusqlite::Result<()>,
}

/// Pipes one full chunk of ordinary lines into `import` with `args` (and
/// `-`): 8,192 Kaggle puzzles, the puzzle column alone so that they fit one
/// chunk. Then the input stalls: polls every `poll`, for at most `limit`,
/// until those lines are committed, tries to take the write lock, and
/// only then closes the input.
pub fn stall_import(
    w: &Workdir,
    args: &[&str],
    poll: std::time::Duration,
    limit: std::time::Duration,
) -> Stalled {
    use std::io::Write;
    let kaggle = std::fs::read_to_string(data("classic/kaggle_1m_first10k.csv")).unwrap();
    let lines: String = kaggle
        .lines()
        .skip(1)
        .take(8192)
        .map(|l| format!("{}\n", l.split(',').next().unwrap_or_default()))
        .collect();
    let mut command = vec!["import"];
    command.extend(args);
    command.push("-");
    let (child, mut stdin) = w.spawn_piped(&command);
    stdin.write_all(lines.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let start = std::time::Instant::now();
    let mut seen = 0;
    while seen < 8192 && start.elapsed() < limit {
        std::thread::sleep(poll);
        seen = committed_lines(w);
    }
    let waited = start.elapsed();
    let conn = Connection::open(w.path("puzzles.sqlite")).unwrap();
    let locked = conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;");
    drop(conn);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    Stalled {
        out,
        seen,
        waited,
        locked,
    }
}

/// The lines the last import of `puzzles.sqlite` has committed (0 before
/// there is one).
pub fn committed_lines(w: &Workdir) -> i64 {
    let Ok(conn) = Connection::open(w.path("puzzles.sqlite")) else {
        return 0;
    };
    conn.query_row("SELECT ifnull(max(lines), 0) FROM imports", [], |r| {
        r.get(0)
    })
    .unwrap_or(0)
}

/// Polls `f` every `poll`, for at most a minute, until it gives something
/// other than 0 (a first batch committed, say); returns what it gave last.
pub fn first_nonzero(poll: std::time::Duration, mut f: impl FnMut() -> i64) -> i64 {
    let start = std::time::Instant::now();
    let mut got = 0;
    while got == 0 && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(poll);
        got = f();
    }
    got
}
