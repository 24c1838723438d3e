//! Classic solver throughput: the solution count (up to 2, keeping the
//! solution) over each corpus file, against the `sudoku` crate's
//! `solutions_count_up_to(2)` on the same puzzles in the same run.
//!
//! Run: `cargo bench --bench solver [-- --corpora DIR]`. One core; the two
//! solvers take turns over eighths of each file.
//!
//! Then the Killer solver over the 8000 krazydad puzzles: `Killer::solve`
//! (propagation and the count up to 2) and the whole `Killer::analysis`
//! (adding the identity and encoding), puzzles/s each, with no outside
//! solver to compare against. `--file killer` measures only that, and
//! `--killers N` only the first N puzzles. Last, microseconds per
//! analysis of each real Str8ts puzzle (`--file str8ts`).

use std::hint::black_box;
use std::time::Instant;

use sudoku_archive::core::puzzle::Status;
use sudoku_archive::core::str8ts;
use sudoku_archive::core::sudoku::count_solutions;

mod common;

/// Seconds for `reps` passes of `f` over `puzzles`.
fn time<T>(puzzles: &[T], reps: usize, f: &mut impl FnMut(&T) -> usize) -> f64 {
    let start = Instant::now();
    let mut sum = 0usize;
    for _ in 0..reps {
        for p in puzzles {
            sum += f(black_box(p));
        }
    }
    black_box(sum);
    start.elapsed().as_secs_f64()
}

/// Puzzles/s of both solvers over the whole file. The machine is shared,
/// so they take turns window by window (each window repeated to at least
/// 40 ms): a burst of load elsewhere then costs both alike instead of
/// skewing the ratio.
fn both_rates<A, B>(
    a: &[A],
    mut fa: impl FnMut(&A) -> usize,
    b: &[B],
    mut fb: impl FnMut(&B) -> usize,
) -> (f64, f64) {
    const WINDOWS: usize = 8;
    let (mut ta, mut tb, mut n) = (0f64, 0f64, 0usize);
    for w in 0..WINDOWS {
        let range = a.len() * w / WINDOWS..a.len() * (w + 1) / WINDOWS;
        let (wa, wb) = (&a[range.clone()], &b[range]);
        let once = time(wa, 1, &mut fa).max(1e-6);
        let reps = ((0.04 / once) as usize).max(1);
        ta += time(wa, reps, &mut fa);
        tb += time(wb, reps, &mut fb);
        n += wa.len() * reps;
    }
    (n as f64 / ta, n as f64 / tb)
}

fn main() {
    let dir = common::corpora_dir();
    println!("solver benchmark ({})", common::machine_line());
    println!(
        "{:<14} {:>8} {:>14} {:>14} {:>7}",
        "file", "puzzles", "ours/s", "sudoku 0.8/s", "ratio"
    );
    let mut worst = f64::INFINITY;
    // `--file NAME` measures one corpus file only (e.g. under callgrind).
    let only = common::flag("--file");
    for (name, rel) in common::CORPUS_FILES {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        let puzzles = common::read_puzzles(&dir.join(rel));
        let crate_puzzles: Vec<sudoku::Sudoku> = puzzles
            .iter()
            .map(|p| sudoku::Sudoku::from_bytes(*p).expect("corpus puzzle"))
            .collect();
        // Warm up both, and check they agree on every puzzle.
        for (p, s) in puzzles.iter().zip(&crate_puzzles) {
            assert_eq!(
                count_solutions(p, 2).count,
                s.solutions_count_up_to(2),
                "the solvers disagree on a puzzle of {name}"
            );
        }
        let (ours, theirs) = both_rates(
            &puzzles,
            |p| {
                let s = count_solutions(p, 2);
                s.count + s.first.map_or(0, |g| usize::from(g[80]))
            },
            &crate_puzzles,
            |s| s.solutions_count_up_to(2),
        );
        let ratio = ours / theirs;
        worst = worst.min(ratio);
        println!(
            "{:<14} {:>8} {:>14.0} {:>14.0} {:>7.2}",
            name,
            puzzles.len(),
            ours,
            theirs,
            ratio
        );
    }
    if worst.is_finite() {
        println!("lowest ratio: {worst:.2} (target >= 1.00)");
    }
    if only.as_deref().is_none_or(|o| o == "killer") {
        killer(&dir);
    }
    if only.as_deref().is_none_or(|o| o == "str8ts") {
        str8ts();
    }
}

/// Microseconds per `str8ts::analyse` (propagation, then the count up to
/// 2) of each real Str8ts puzzle: the project's own copy of all seven
/// (tests/data/str8ts/real_legacy.txt), so no corpora are needed.
fn str8ts() {
    const REAL: &str = include_str!("../tests/data/str8ts/real_legacy.txt");
    println!("{:<42} {:>10}", "str8ts (one line each)", "us/puzzle");
    let mut total = 0.0;
    for line in REAL.lines() {
        let (puzzle, name) = line.split_once(" # ").expect("`<puzzle> # <source>` lines");
        // At least 0.2 s of repeats, so the fast ones are timed too.
        let mut reps = 1;
        let secs = loop {
            let secs = time(&[puzzle], reps, &mut |p| {
                str8ts::analyse(p).expect("a real puzzle").encoding.len()
            });
            if secs >= 0.2 {
                break secs;
            }
            reps *= 4;
        };
        let micros = secs * 1e6 / reps as f64;
        total += micros;
        println!("{name:<42} {micros:>10.1}");
    }
    println!("{:<42} {total:>10.1}", "all seven");
}

/// Puzzles/s of `Killer::solve` and `Killer::analysis` over the krazydad file.
fn killer(dir: &std::path::Path) {
    // `--killers N`: the first N only (e.g. under callgrind).
    let limit = common::flag("--killers").map_or(usize::MAX, |n| n.parse().expect("--killers N"));
    let puzzles = common::read_krazydad(&dir.join("killer/krazydad_intermediate_8000.csv"), limit);
    let unique = puzzles
        .iter()
        .filter(|k| matches!(k.solve(), Status::Unique(_)))
        .count();
    assert_eq!(
        unique,
        puzzles.len(),
        "every krazydad puzzle has one solution"
    );
    let solve = time(&puzzles, 1, &mut |k| usize::from(k.solve().count()));
    let analysis = time(&puzzles, 1, &mut |k| k.analysis().encoding.len());
    println!(
        "{:<14} {:>8} {:>14} {:>14}",
        "killer", "puzzles", "solve/s", "analysis/s"
    );
    println!(
        "{:<14} {:>8} {:>14.0} {:>14.0}",
        "krazydad-8000",
        puzzles.len(),
        puzzles.len() as f64 / solve,
        puzzles.len() as f64 / analysis
    );
}
