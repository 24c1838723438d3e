//! Getting puzzles out: `export` of a million-puzzle archive, `merge` of
//! two 500,000-puzzle archives, and `find` of 100,000 strings, timed with
//! the release binary.
//!
//! Uses the 1M-line CSV that `cargo bench --bench import` makes (in
//! `target/bench-data/`), or `--file F` (a `quizzes,...` CSV). Builds,
//! once and then reused (in `target/bench-data/out/`), an archive of the
//! whole file and one of each half; then times, `--rounds N` times (default
//! 3) and prints the median and range of each:
//! - `export` (the default lines) and `export --format csv --columns
//!   id,type,clues,givens,solutions,solution` to /dev/null;
//! - `merge` of the two halves into a fresh archive, and the same merge
//!   again (nothing new: every puzzle a duplicate);
//! - `find --file` of 100,000 strings: 50,000 stored ones and 50,000
//!   relabellings of them (isomorphs, through the canonical form).
//!
//! Run: `cargo bench --bench out [-- --rounds N] [--file F]`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-archive");

fn run(args: &[&str], stdout: Stdio) -> Duration {
    let start = Instant::now();
    let status = Command::new(BIN)
        .args(args)
        .stdout(stdout)
        .stderr(Stdio::inherit())
        .status()
        .expect("run sudoku-archive");
    let took = start.elapsed();
    // `find` exits 1 when nothing is found: a failure here too.
    assert!(status.success(), "sudoku-archive {args:?}: {status}");
    took
}

fn the_file() -> PathBuf {
    if let Some(f) = common::flag("--file") {
        return PathBuf::from(f);
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::read_dir(&dir)
        .ok()
        .and_then(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .find(|p| p.to_string_lossy().contains("classic-mix-1m-"))
        })
        .unwrap_or_else(|| {
            panic!(
                "no classic-mix-1m-*.csv in {}: run `cargo bench --bench import` once, or give --file F",
                dir.display()
            )
        })
}

/// Imports `file` into `db` unless `db` is there already.
fn archive_of(db: &Path, file: &Path) {
    if db.exists() {
        return;
    }
    eprintln!("building {} (once) ...", db.display());
    let took = run(
        &[
            "import",
            "--quiet",
            "--db",
            &db.display().to_string(),
            &file.display().to_string(),
        ],
        Stdio::null(),
    );
    eprintln!("  {:.1} s", took.as_secs_f64());
}

fn median(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    let rounds: usize = common::flag("--rounds")
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let file = the_file();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/out");
    std::fs::create_dir_all(&dir).expect("create target/bench-data/out");
    let text = std::fs::read_to_string(&file).expect("read the CSV");
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let rows: Vec<&str> = lines.collect();
    let half = rows.len() / 2;
    let halves: Vec<PathBuf> = [&rows[..half], &rows[half..]]
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let p = dir.join(format!("half{}.csv", i + 1));
            if !p.exists() {
                let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
                writeln!(f, "{header}").unwrap();
                for r in *part {
                    writeln!(f, "{r}").unwrap();
                }
            }
            p
        })
        .collect();
    // 100,000 strings to find: stored ones, and the same with 1 and 2
    // swapped (an isomorph, unless the archive holds that one too).
    let queries = dir.join("queries.txt");
    if !queries.exists() {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&queries).unwrap());
        for r in rows
            .iter()
            .step_by((rows.len() / 50_000).max(1))
            .take(50_000)
        {
            let q = r.split(',').next().unwrap_or_default();
            let swapped: String = q
                .chars()
                .map(|c| match c {
                    '1' => '2',
                    '2' => '1',
                    c => c,
                })
                .collect();
            writeln!(f, "{q}\n{swapped}").unwrap();
        }
    }
    let full = dir.join("full.sqlite");
    archive_of(&full, &file);
    let parts: Vec<PathBuf> = halves
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let db = dir.join(format!("half{}.sqlite", i + 1));
            archive_of(&db, h);
            db
        })
        .collect();
    let s = |p: &Path| p.display().to_string();
    let (full_s, a, b, out) = (
        s(&full),
        s(&parts[0]),
        s(&parts[1]),
        s(&dir.join("merged.sqlite")),
    );
    let count = |db: &str| -> String {
        let o = Command::new(BIN)
            .args(["export", "--db", db])
            .output()
            .unwrap();
        o.stdout.iter().filter(|&&b| b == b'\n').count().to_string()
    };
    println!("{}", common::machine_line());
    println!(
        "archives: {} puzzles in full, {} + {} in the halves",
        count(&full_s),
        count(&a),
        count(&b)
    );
    let mut times: Vec<(&str, Vec<f64>)> = vec![
        ("export (lines)", vec![]),
        ("export --format csv, 6 columns", vec![]),
        ("merge of two halves, fresh", vec![]),
        ("merge again (all duplicates)", vec![]),
        ("find --file, 100,000 strings", vec![]),
    ];
    let q = s(&queries);
    for _ in 0..rounds {
        let t = [
            run(&["export", "--db", &full_s], Stdio::null()),
            run(
                &[
                    "export",
                    "--db",
                    &full_s,
                    "--format",
                    "csv",
                    "--columns",
                    "id,type,clues,givens,solutions,solution",
                ],
                Stdio::null(),
            ),
            {
                for suffix in ["", "-wal", "-shm", "-import-lock"] {
                    let _ = std::fs::remove_file(format!("{out}{suffix}"));
                }
                run(&["merge", "--db", &out, &a, &b], Stdio::null())
            },
            run(&["merge", "--db", &out, &a, &b], Stdio::null()),
            run(&["find", "--db", &full_s, "--file", &q], Stdio::null()),
        ];
        for (slot, t) in times.iter_mut().zip(t) {
            slot.1.push(t.as_secs_f64());
        }
    }
    println!("merged: {} puzzles", count(&out));
    for (what, v) in times {
        let (m, lo, hi) = median(v);
        println!("{what:<34} {m:>7.2} s  (range {lo:.2}-{hi:.2}, {rounds} rounds)");
    }
}
