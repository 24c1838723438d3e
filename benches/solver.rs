//! Classic solver throughput: the solution count (up to 2, keeping the
//! solution) over each corpus file, against the `sudoku` crate's
//! `solutions_count_up_to(2)` on the same puzzles in the same run.
//!
//! Run: `cargo bench --bench solver [-- --corpora DIR]`. One core. Small
//! files are repeated until a pass takes at least half a second.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sudoku_archive::core::sudoku::count_solutions;

mod common;

/// Runs `f` over all puzzles, repeating until `MIN` has passed; puzzles/s.
fn rate<T>(puzzles: &[T], mut f: impl FnMut(&T) -> usize) -> f64 {
    const MIN: Duration = Duration::from_millis(500);
    let start = Instant::now();
    let mut done = 0usize;
    let mut sum = 0usize;
    while start.elapsed() < MIN {
        for p in puzzles {
            sum += f(black_box(p));
        }
        done += puzzles.len();
    }
    black_box(sum);
    done as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let dir = common::corpora_dir();
    println!("solver benchmark ({})", common::machine_line());
    println!(
        "{:<14} {:>8} {:>14} {:>14} {:>7}",
        "file", "puzzles", "ours/s", "sudoku 0.8/s", "ratio"
    );
    let mut worst = f64::INFINITY;
    for (name, rel) in common::CORPUS_FILES {
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
        let ours = rate(&puzzles, |p| {
            let s = count_solutions(p, 2);
            s.count + s.first.map_or(0, |g| g[80] as usize)
        });
        let theirs = rate(&crate_puzzles, |s| s.solutions_count_up_to(2));
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
    println!("lowest ratio: {worst:.2} (target >= 1.00)");
}
