//! Drawing puzzles: 10,000 stored puzzles (the first 10,000 of the kaggle
//! classic CSV, 500 krazydad Killers and the Str8ts samples on top) drawn
//! to SVG and to the printable HTML book, timed two ways:
//! - in process, the drawing alone (`render`), from the stored strings
//!   read out of the archive beforehand: SVG of each puzzle, SVG with its
//!   solution, and the book (puzzles, then solutions);
//! - the release binary end to end, in turns with plain `export` (the
//!   lines of givens) as the baseline of the same run: `export --format
//!   html` to /dev/null and `export --format svg --out DIR`.
//!
//! Prints the median and range over `--rounds N` (default 3), and the cost
//! per thousand puzzles. Run: `cargo bench --bench draw [-- --rounds N]`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudoku_archive::core::puzzle::PuzzleType;
use sudoku_archive::render::html::{Book, Caption, Paper};
use sudoku_archive::render::{Layers, Picture, svg};

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-archive");

fn run(args: &[&str]) -> Duration {
    let start = Instant::now();
    let status = Command::new(BIN)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("run sudoku-archive");
    let took = start.elapsed();
    assert!(status.success(), "sudoku-archive {args:?}: {status}");
    took
}

fn median(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

/// (type, givens, encoding, solution) of every stored puzzle, by id.
type Row = (PuzzleType, String, String, Option<String>);

fn stored(db: &Path) -> Vec<Row> {
    let conn = rusqlite::Connection::open(db).expect("open the archive");
    let mut st = conn
        .prepare("SELECT type, givens, encoding, solution FROM puzzles ORDER BY id")
        .unwrap();
    st.query_map([], |r| {
        let kind: String = r.get(0)?;
        Ok((
            PuzzleType::from_name(&kind).expect("a type"),
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
        ))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

fn main() {
    let rounds: usize = common::flag("--rounds")
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/bench-data/draw");
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("draw.sqlite");
    if !db.exists() {
        let data = |p: &str| root.join("tests/data").join(p).display().to_string();
        let files = [
            data("classic/kaggle_1m_first10k.csv"),
            data("killer/krazydad_intermediate_first500_legacy.txt"),
            root.join("samples/str8ts.txt").display().to_string(),
        ];
        let mut args = vec!["import", "--quiet", "--db", db.to_str().unwrap()];
        args.extend(files.iter().map(String::as_str));
        run(&args);
    }
    let rows = stored(&db);
    let n = rows.len();
    let (ten_k, db_s) = ("10000", db.display().to_string());
    println!("{}", common::machine_line());
    println!("{n} stored puzzles; drawn: the first 10,000");
    let rows = &rows[..n.min(10_000)];
    let per_k = |secs: f64| secs / rows.len() as f64 * 1000.0;

    let mut times: Vec<(&str, Vec<f64>)> = vec![
        ("render: svg, givens", vec![]),
        ("render: svg, with solutions", vec![]),
        ("render: html book", vec![]),
        ("export (lines), baseline", vec![]),
        ("export --format html", vec![]),
        ("export --format svg --out DIR", vec![]),
    ];
    let svgs = dir.join("svg");
    let mut buf = String::with_capacity(1 << 16);
    let mut bytes = 0usize;
    for _ in 0..rounds {
        let mut t = Vec::new();
        for layers in [
            Layers::default(),
            Layers {
                candidates: false,
                solution: true,
            },
        ] {
            let start = Instant::now();
            for (kind, givens, encoding, solution) in rows {
                let p = Picture::from_stored(*kind, givens, encoding, solution.as_deref(), layers)
                    .unwrap();
                buf.clear();
                svg::svg(&p, &mut buf);
                bytes += buf.len();
            }
            t.push(start.elapsed());
        }
        let start = Instant::now();
        buf.clear();
        let mut book = Book::start("bench", 6, Paper::A4, &mut buf);
        for part in [false, true] {
            if part {
                book.start_solutions(&mut buf);
            }
            for (i, (kind, givens, encoding, solution)) in rows.iter().enumerate() {
                let layers = Layers {
                    candidates: false,
                    solution: part,
                };
                let p = Picture::from_stored(*kind, givens, encoding, solution.as_deref(), layers)
                    .unwrap();
                let c = Caption {
                    id: i as i64 + 1,
                    kind: *kind,
                    clues: 0,
                    source: None,
                };
                if part {
                    book.solution(&c, &p, &mut buf);
                } else {
                    book.puzzle(&c, &p, &mut buf);
                }
                // Written out a puzzle at a time, as export does.
                bytes += buf.len();
                buf.clear();
            }
        }
        book.finish(&mut buf);
        t.push(start.elapsed());
        t.push(run(&["export", "--db", &db_s, "--limit", ten_k]));
        t.push(run(&[
            "export", "--db", &db_s, "--limit", ten_k, "--format", "html",
        ]));
        let _ = std::fs::remove_dir_all(&svgs);
        t.push(run(&[
            "export",
            "--db",
            &db_s,
            "--limit",
            ten_k,
            "--format",
            "svg",
            "--out",
            svgs.to_str().unwrap(),
        ]));
        for (slot, t) in times.iter_mut().zip(t) {
            slot.1.push(t.as_secs_f64());
        }
    }
    assert!(bytes > 0);
    for (what, v) in times {
        let (m, lo, hi) = median(v);
        println!(
            "{what:<32} {m:>7.3} s  (range {lo:.3}-{hi:.3}, {rounds} rounds)  {:>6.1} ms per 1,000",
            per_k(m) * 1000.0
        );
    }
}
