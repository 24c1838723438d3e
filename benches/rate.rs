//! Logical solver and rater throughput: `core::logic::solve` (every step
//! and the ER/EP/ED) over the corpora's hardest sets and top1465, puzzles/s
//! on one core, with the share of puzzles whose rating is a bound (no
//! technique applied, or the counted budget ran out). The fast counter
//! (`count_solutions` up to 2) runs over the same puzzles in the same run,
//! in turns, as the baseline.
//!
//! Run: `cargo bench --bench rate [-- --corpora DIR] [--limit N]
//! [--only NAME] [--file PATH]` (N: the first N puzzles of each file,
//! default all; NAME one of the three files; PATH any puzzle file
//! instead of the three). Times are the thread's CPU time, so the
//! figures are one core's even on a busy machine.

use std::hint::black_box;

use sudoku_archive::core::logic::{Budget, Outcome, solve};
use sudoku_archive::core::sudoku::count_solutions;

mod common;

/// This thread's CPU time in seconds: the rater on one core, whatever
/// else the machine runs at the time.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn main() {
    println!("{}", common::machine_line());
    let limit: usize = common::flag("--limit")
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    let dir = common::corpora_dir();
    println!(
        "file | puzzles | rater puzzles/s | counter puzzles/s | counter/rater | bound share (over budget) | ER max seen | rater CPU s"
    );
    let files: Vec<(String, std::path::PathBuf)> = match common::flag("--file") {
        Some(f) => vec![(f.clone(), f.into())],
        None => [
            ("hardest-1106", "classic/forum_hardest_1106.txt"),
            ("hardest-1905", "classic/forum_hardest_1905_11plus.txt"),
            ("top1465", "classic/top1465.txt"),
        ]
        .iter()
        .filter(|(name, _)| common::flag("--only").is_none_or(|o| o == *name))
        .map(|&(name, rel)| (name.to_string(), dir.join(rel)))
        .collect(),
    };
    for (name, path) in files {
        let mut puzzles = common::read_puzzles(&path);
        puzzles.truncate(limit);
        let (mut t_rate, mut t_count, mut bounds, mut over, mut max) =
            (0f64, 0f64, 0usize, 0usize, 0u16);
        // Turns of 1/8 of the file each, so a burst of load elsewhere
        // costs both alike. Times are this thread's CPU time.
        for w in 0..8 {
            let part = &puzzles[puzzles.len() * w / 8..puzzles.len() * (w + 1) / 8];
            let start = cpu_seconds();
            for p in part {
                let sol = solve(black_box(p), Budget::default());
                let r = sol.rating;
                bounds += usize::from(r.bound);
                over += usize::from(sol.outcome == Outcome::OverBudget);
                max = max.max(r.er);
            }
            t_rate += cpu_seconds() - start;
            let start = cpu_seconds();
            for p in part {
                black_box(count_solutions(black_box(p), 2).count);
            }
            t_count += cpu_seconds() - start;
        }
        let n = puzzles.len() as f64;
        println!(
            "{name} | {} | {:.0} | {:.0} | {:.1} | {:.1}% ({:.1}%) | {}.{} | {:.2}",
            puzzles.len(),
            n / t_rate,
            n / t_count,
            t_rate / t_count,
            100.0 * bounds as f64 / n,
            100.0 * over as f64 / n,
            max / 10,
            max % 10,
            t_rate
        );
    }
}
