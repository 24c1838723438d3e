//! Logical solver and rater throughput: `core::logic::solve` (every step
//! and the ER/EP/ED) over the corpora's hardest sets and top1465, puzzles/s
//! on one core, with the share of puzzles whose rating is a bound (no
//! technique applied, or the counted budget ran out). The fast counter
//! (`count_solutions` up to 2) runs over the same puzzles in the same run,
//! in turns, as the baseline.
//!
//! Run: `cargo bench --bench rate [-- --corpora DIR] [--limit N]` (N: the
//! first N puzzles of each file, default all).

use std::hint::black_box;
use std::time::Instant;

use sudoku_archive::core::logic::{Budget, solve};
use sudoku_archive::core::sudoku::count_solutions;

mod common;

fn main() {
    println!("{}", common::machine_line());
    let limit: usize = common::flag("--limit")
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    let dir = common::corpora_dir();
    println!(
        "file | puzzles | rater puzzles/s | counter puzzles/s | counter/rater | bound share | ER max seen"
    );
    for (name, rel) in [
        ("hardest-1106", "classic/forum_hardest_1106.txt"),
        ("hardest-1905", "classic/forum_hardest_1905_11plus.txt"),
        ("top1465", "classic/top1465.txt"),
    ] {
        let mut puzzles = common::read_puzzles(&dir.join(rel));
        puzzles.truncate(limit);
        let (mut t_rate, mut t_count, mut bounds, mut max) = (0f64, 0f64, 0usize, 0u16);
        // Turns of 1/8 of the file each, so a burst of load elsewhere
        // costs both alike.
        for w in 0..8 {
            let part = &puzzles[puzzles.len() * w / 8..puzzles.len() * (w + 1) / 8];
            let start = Instant::now();
            for p in part {
                let r = solve(black_box(p), Budget::default()).rating;
                bounds += usize::from(r.bound);
                max = max.max(r.er);
            }
            t_rate += start.elapsed().as_secs_f64();
            let start = Instant::now();
            for p in part {
                black_box(count_solutions(black_box(p), 2).count);
            }
            t_count += start.elapsed().as_secs_f64();
        }
        let n = puzzles.len() as f64;
        println!(
            "{name} | {} | {:.0} | {:.0} | {:.1} | {:.1}% | {}.{}",
            puzzles.len(),
            n / t_rate,
            n / t_count,
            t_rate / t_count,
            100.0 * bounds as f64 / n,
            max / 10,
            max % 10
        );
    }
}
