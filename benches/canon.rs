//! Throughput of the isomorph canonical forms: classic minlex over corpus
//! files (default: the classic corpora under tests/data), then Killer over
//! puzzles built from a krazydad CSV (default: the sample under tests/data).
//! Each is timed for the fast search and the reference one in the same run
//! and checked equal.
//!
//! Run: `cargo bench --features bench-reference --bench canon --
//! [--killer=CSV] [--killer-only] [path ...]` (the reference searches are
//! built only for tests and with that feature, never into the binary). One core; figures printed as puzzles per second (best of
//! three alternating rounds) so runs can be compared; the ratio of the two
//! figures is the one to trust on a busy machine. `--killer=CSV` takes any
//! file with krazydad's columns, e.g. the shared
//! `krazydad_intermediate_8000.csv`; `--killer-only` skips the classic part.
//!
//! `--fast-only` runs each fast search once and nothing else, for
//! instruction counts: e.g. `valgrind --tool=callgrind
//! --toggle-collect='*sudoku::canon::sudoku' target/release/deps/canon-*
//! --fast-only FILE` (or `--toggle-collect='*killer::canon::killer'
//! ... --fast-only --killer-only --killer=CSV`), then divide the total by
//! the puzzles printed.

use std::path::Path;
use std::time::Instant;

use sudoku_archive::core::canon;
use sudoku_archive::core::killer::Killer;

mod common;

const DEFAULT: &[&str] = &[
    "tests/data/classic/17clue_royle_first2000.txt",
    "tests/data/classic/top1465.txt",
    "tests/data/classic/forum_hardest_1106.txt",
    "tests/data/classic/kaggle_1m_first10k.csv",
];
const KILLER: &str = "tests/data/killer/krazydad_intermediate_first500.csv";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut paths: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if paths.is_empty() {
        paths = DEFAULT.iter().map(|p| p.to_string()).collect();
    }
    let flag = |name: &str| std::env::args().any(|a| a == name);
    if flag("--killer-only") {
        paths.clear();
    }
    let killer_path = std::env::args()
        .find_map(|a| a.strip_prefix("--killer=").map(str::to_string))
        .unwrap_or_else(|| KILLER.to_string());
    let killers: Vec<String> = common::read_krazydad(Path::new(&killer_path), usize::MAX)
        .iter()
        .map(Killer::to_legacy)
        .collect();
    if flag("--fast-only") {
        for path in &paths {
            let puzzles = classic_puzzles(path)?;
            let mut forms = 0;
            for p in &puzzles {
                forms += canon::sudoku(p)?.len() / 81;
            }
            println!("classic fast only: {forms} puzzles from {path}");
        }
        let mut forms = 0;
        for k in &killers {
            forms += usize::from(!canon::killer(k)?.is_empty());
        }
        println!("killer fast only: {forms} puzzles from {killer_path}");
        return Ok(());
    }
    for path in &paths {
        compare(
            "classic",
            path,
            &classic_puzzles(path)?,
            [canon::sudoku, canon::sudoku_reference],
        )?;
    }
    compare(
        "killer",
        &killer_path,
        &killers,
        [canon::killer, canon::killer_reference],
    )
}

type Form = fn(&str) -> Result<String, canon::CanonError>;

/// Time the fast and the reference search over one corpus and check they
/// agree.
fn compare(
    kind: &str,
    path: &str,
    puzzles: &[String],
    [fast_form, slow_form]: [Form; 2],
) -> Result<(), Box<dyn std::error::Error>> {
    let time = |f: Form| {
        let start = Instant::now();
        let forms: Result<Vec<String>, _> = puzzles.iter().map(|p| f(p)).collect();
        (forms, puzzles.len() as f64 / start.elapsed().as_secs_f64())
    };
    // Three alternating rounds, best of each: the machine is shared, and the
    // first pass over a file also pays for warming caches and the allocator.
    let (mut fast_rate, mut slow_rate) = (0f64, 0f64);
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let (forms, rate) = time(fast_form);
        (fast, fast_rate) = (forms?, fast_rate.max(rate));
        let (forms, rate) = time(slow_form);
        (slow, slow_rate) = (forms?, slow_rate.max(rate));
    }
    let differ = fast.iter().zip(&slow).filter(|(a, b)| a != b).count();
    let distinct: std::collections::HashSet<_> = fast.iter().collect();
    println!(
        "{kind}: {} puzzles from {path}: {fast_rate:.0}/s, reference {slow_rate:.0}/s, \
         x{:.2} ({} distinct forms, {differ} differ from the reference)",
        puzzles.len(),
        fast_rate / slow_rate,
        distinct.len()
    );
    if differ > 0 {
        return Err(format!("{differ} forms differ from the reference in {path}").into());
    }
    Ok(())
}

/// The first 81 characters of each puzzle line of a corpus file, `.` read
/// as an empty cell.
fn classic_puzzles(path: &str) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .filter_map(|l| l.get(..81))
        .map(|l| l.replace('.', "0"))
        .collect())
}
