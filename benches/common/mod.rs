//! Shared by the benchmarks: where the corpora are, how to read their
//! classic and krazydad Killer puzzles, a tiny seeded PRNG, and the facts
//! (cores, commit) printed with every table so runs can be compared.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use sudoku_archive::core::killer::Killer;

#[path = "../../tests/common/splitmix.rs"]
mod splitmix;

/// The corpora folder: `--corpora DIR`, else `$SUDOKU_CORPORA`, else
/// `/work/shared/corpora` (the benchmarks need it; the build and tests don't).
pub fn corpora_dir() -> PathBuf {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--corpora")
        && let Some(d) = args.get(i + 1)
    {
        return PathBuf::from(d);
    }
    std::env::var_os("SUDOKU_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/corpora"))
}

/// The value of `--NAME V` on the command line.
pub fn flag(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

/// The classic corpus files the benchmarks use, by short name.
pub const CORPUS_FILES: &[(&str, &str)] = &[
    ("kaggle", "classic/kaggle_1m_first10k.csv"),
    ("17-clue", "classic/17clue_royle_49158.txt"),
    ("top1465", "classic/top1465.txt"),
    ("hardest-1905", "classic/forum_hardest_1905_11plus.txt"),
    ("hardest-1106", "classic/forum_hardest_1106.txt"),
];

/// Reads the classic puzzles of a corpus file: the first 81 characters of
/// each line (or the first field of a CSV line) made of digits and `.`,
/// `.` read as 0. Comment, header and other lines are left out.
pub fn read_puzzles(path: &Path) -> Vec<[u8; 81]> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (set --corpora DIR)", path.display()));
    text.lines()
        .filter_map(|l| {
            let b = l.as_bytes().get(..81)?;
            let mut g = [0u8; 81];
            for (d, &c) in g.iter_mut().zip(b) {
                *d = match c {
                    b'1'..=b'9' => c - b'0',
                    b'0' | b'.' => 0,
                    _ => return None,
                };
            }
            Some(g)
        })
        .collect()
}

/// splitmix64: tiny, seedable, and good enough to shuffle grids (its
/// `_uniform` ranges made the benchmark data).
#[allow(unused_imports)] // only the import benchmark draws numbers
pub use splitmix::SplitMix as Rng;

/// Cores, commit (with `+dirty` for uncommitted changes) and CPU model.
pub fn machine_line() -> String {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let commit = git(&["rev-parse", "--short", "HEAD"]);
    let dirty = if git(&["status", "--porcelain", "--untracked-files=no"]).is_empty() {
        ""
    } else {
        "+dirty"
    };
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown cpu".into());
    format!("cores: {cores}, commit: {commit}{dirty}, cpu: {cpu}")
}

/// The Killer puzzles of a CSV with krazydad's columns (SOURCES.md
/// "killer/"): the cage letters of `puzz_color` (A-Z then a-z, after a
/// leading `K`) and the sums of `puzz_hint` in letter order; the first
/// `limit` rows.
pub fn read_krazydad(path: &Path, limit: usize) -> Vec<Killer> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (set --corpora DIR)", path.display()));
    text.lines()
        .skip(1)
        .take(limit)
        .map(|line| {
            let layout = line.split(',').nth(5).expect("puzz_color field");
            let hints = line.split('"').nth(1).expect("quoted puzz_hint field");
            let mut ids = [0u8; 81];
            for (id, ch) in ids.iter_mut().zip(layout[1..].bytes()) {
                *id = if ch.is_ascii_uppercase() {
                    ch - b'A'
                } else {
                    26 + ch - b'a'
                };
            }
            let sums: Vec<u8> = hints.split(',').map(|h| h.parse().expect("sum")).collect();
            Killer::from_cages(&ids, &sums).expect("krazydad puzzle")
        })
        .collect()
}
