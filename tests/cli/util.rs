//! A fresh working directory per test, the binary, and SQL over the archive.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};

use rusqlite::Connection;

/// Every stored puzzle as one string per row, in id order: what must not
/// depend on how an import got there.
pub const PUZZLE_ROWS: &str = "SELECT id || type || clues || givens || encoding || solutions || ifnull(solution, '') FROM puzzles ORDER BY id";

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
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sudoku-archive");
        let stdin = child.stdin.take().expect("piped stdin");
        (child, stdin)
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
