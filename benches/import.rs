//! Import throughput against the floor of `sqlite3 .import`.
//!
//! Makes (once, then reuses) a CSV `quizzes,solutions` file of N million
//! classic puzzles: random isomorphic transformations (digit relabelling,
//! row and column swaps within bands and stacks, band and stack swaps,
//! transpose) of real corpus puzzles in a fixed mix with a fixed seed, so
//! the puzzles are real, nearly all distinct, and of realistic difficulty.
//! Then times, in the same run, `sqlite3 .import` of that file into a plain
//! table (no parsing, no checks, no index: the floor) and the full
//! `sudoku-archive import` into a fresh archive, and prints both, their
//! ratio, the rate, the import's peak memory, the rate of each million
//! (watched through the archive's `imports` row, which each commit updates:
//! a million that ends inside a batch gets the rate of the batch) and of
//! each batch as it committed; then the same import again into that
//! archive, as a nightly job runs it
//! (the file is unchanged: skipped unread, after hashing it), and with
//! `--reread` (a re-run line by line: nothing new);
//! with one million, also the import with `--no-canonical`, for scale.
//!
//! `--rounds N` runs all of that N times over, one round after the other,
//! and prints the median and range of each ratio: on a noisy machine one
//! run's ratio can be a fifth off. `--what-if` adds to each round the
//! `--no-canonical` import into an archive whose two secondary indexes
//! were dropped by hand: not the product, but how near the floor the rest
//! of the archive (rows, unique key, provenance) alone comes.
//!
//! `--nightly` adds, after the re-runs, the import of a new 1M-line file
//! (another seed: other transformations of the same puzzles, so nearly all
//! new) into the archive just made, and the same file into an empty archive:
//! a nightly import into a big archive, against the same into a new one.
//! `--cold` empties the system's page cache (`/proc/sys/vm/drop_caches`,
//! as root) before each of those two imports: the archive then comes from
//! disk, as a nightly job finds an archive last used a day before, and
//! both sides start the same way. Without it the big archive is as the
//! re-runs left it: partly cached, and on a machine that reclaims idle
//! page cache (this VM's DAMON `pageout` scheme drops pages idle for a
//! minute) partly not, by an amount that varies from run to run.
//! `--make-only` writes the input file (and the nightly one) and stops;
//! `--binary PATH` times another build of `sudoku-archive` (an old one, in
//! turns with this one).
//!
//! Run: `cargo bench --bench import [-- --millions N] [--rounds N]
//! [--what-if] [--nightly [--cold]] [--make-only] [--binary PATH] [--data DIR]
//! [--corpora DIR]` (needs the
//! `sqlite3` shell: `scripts/bench.sh` installs it). The runs of issue 24
//! (minutes each; the 20M file takes 3.3 GB, its archive 11 GB):
//!
//! ```text
//! cargo bench --bench import -- --millions 20 --nightly   # every million's rate; 1M into 20M vs into empty
//! cargo bench --bench import -- --millions 20 --nightly --cold   # the same pair, both from disk (root)
//! cargo bench --bench import -- --nightly                  # the same at 1M (no regression at small scale)
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sudoku_archive::core::sudoku::count_solutions;

mod common;
use common::Rng;

const SEED: u64 = 0x5D0C_u64 << 32 | 2026;
/// The seed of `--nightly`'s new file: other transformations of the same
/// puzzles, so that nearly all its lines are new to the archive.
const NIGHTLY_SEED: u64 = 0x5D0C_u64 << 32 | 2027;
const BIN: &str = env!("CARGO_BIN_EXE_sudoku-archive");

/// The binary timed: this build's, or `--binary PATH` (an older build, for
/// an A/B in the same time window).
fn binary() -> PathBuf {
    common::flag("--binary").map_or_else(|| PathBuf::from(BIN), PathBuf::from)
}

/// The mix, in parts per thousand: (corpus, share). The rest (10) are exact
/// repeats of a recent line, so deduplication is exercised too.
const MIX: &[(&str, u32)] = &[
    ("kaggle", 800),
    ("17-clue", 150),
    ("hardest-1905", 30),
    ("top1465", 5),
    ("hardest-1106", 5),
];
const REPEATS: u32 = 10;

/// One base puzzle and its solution, ready to transform.
struct Base {
    puzzle: [u8; 81],
    solution: Option<[u8; 81]>,
}

/// A random symmetry of the Sudoku grid: new cell (r, c) takes old cell
/// (rows[r], cols[c]) (transposed first when `transpose`), digits relabelled.
fn transform(rng: &mut Rng) -> impl Fn(&[u8; 81]) -> [u8; 81] {
    let line_perm = |rng: &mut Rng| {
        let mut bands = [0usize, 1, 2];
        rng.shuffle_uniform(&mut bands);
        let mut out = [0usize; 9];
        for (b, &band) in bands.iter().enumerate() {
            let mut within = [0usize, 1, 2];
            rng.shuffle_uniform(&mut within);
            for (i, &w) in within.iter().enumerate() {
                out[b * 3 + i] = band * 3 + w;
            }
        }
        out
    };
    let rows = line_perm(rng);
    let cols = line_perm(rng);
    let transpose = rng.below_uniform(2) == 1;
    let mut digits = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle_uniform(&mut digits[1..]);
    move |g| {
        let mut out = [0u8; 81];
        for r in 0..9 {
            for c in 0..9 {
                let (sr, sc) = (rows[r], cols[c]);
                let v = if transpose {
                    g[sc * 9 + sr]
                } else {
                    g[sr * 9 + sc]
                };
                out[r * 9 + c] = digits[v as usize];
            }
        }
        out
    }
}

fn digits(g: &[u8; 81]) -> String {
    g.iter().map(|&d| (b'0' + d) as char).collect()
}

/// Writes the benchmark file unless it is already there.
fn generate(path: &Path, lines: usize, corpora: &Path, seed: u64) -> std::io::Result<()> {
    if path.exists() {
        return Ok(());
    }
    eprintln!("making {} ({lines} lines) ...", path.display());
    // Per corpus: its puzzles, their bases once solved, and its share.
    type Pool = (Vec<Option<Base>>, Vec<[u8; 81]>, u32);
    let mut pools: Vec<Pool> = Vec::new();
    for (name, share) in MIX {
        let rel = common::CORPUS_FILES
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| *r)
            .unwrap_or_default();
        let puzzles = common::read_puzzles(&corpora.join(rel));
        pools.push(((0..puzzles.len()).map(|_| None).collect(), puzzles, *share));
    }
    let mut rng = Rng(seed);
    let tmp = path.with_extension("tmp");
    let mut out = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
    writeln!(out, "quizzes,solutions")?;
    let mut recent: Vec<String> = Vec::with_capacity(4096);
    for i in 0..lines {
        let mut pick = rng.below_uniform(1000) as u32;
        if pick < REPEATS && !recent.is_empty() {
            let line = &recent[rng.below_uniform(recent.len())];
            writeln!(out, "{line}")?;
            continue;
        }
        pick = pick.saturating_sub(REPEATS) * 1000 / (1000 - REPEATS);
        let mut k = 0;
        while k + 1 < pools.len() && pick >= pools[k].2 {
            pick -= pools[k].2;
            k += 1;
        }
        let (cache, puzzles, _) = &mut pools[k];
        let j = rng.below_uniform(puzzles.len());
        // Solutions are found once per base puzzle, then transformed with it.
        let base = cache[j].get_or_insert_with(|| Base {
            puzzle: puzzles[j],
            solution: count_solutions(&puzzles[j], 1).first,
        });
        let t = transform(&mut rng);
        let line = format!(
            "{},{}",
            digits(&t(&base.puzzle)),
            base.solution.map(|s| digits(&t(&s))).unwrap_or_default()
        );
        writeln!(out, "{line}")?;
        if recent.len() < 4096 {
            recent.push(line);
        } else {
            recent[i % 4096] = line;
        }
    }
    out.flush()?;
    drop(out);
    std::fs::rename(&tmp, path)
}

fn remove_db(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

/// Writes the dirty pages out and empties the page cache (`--cold`), so the
/// next import reads its archive and input from disk. Needs root; stops
/// the benchmark with the reason otherwise, rather than time a warm run as
/// a cold one.
fn drop_page_cache() {
    let synced = Command::new("sync").status().is_ok_and(|s| s.success());
    assert!(synced, "sync failed");
    if let Err(e) = std::fs::write("/proc/sys/vm/drop_caches", "3\n") {
        panic!(
            "--cold: cannot empty the page cache (/proc/sys/vm/drop_caches: {e}); run as root or without --cold"
        );
    }
}

/// `sqlite3 DB ".mode csv" ".import FILE t"` into a fresh database: seconds.
fn sqlite_floor(file: &Path, db: &Path) -> f64 {
    remove_db(db);
    let start = Instant::now();
    let status = Command::new("sqlite3")
        .arg(db)
        .arg(".mode csv")
        .arg(format!(".import {} t", file.display()))
        .status()
        .unwrap_or_else(|e| {
            panic!("cannot run sqlite3 ({e}): run scripts/bench.sh, which installs it")
        });
    assert!(status.success(), "sqlite3 .import failed");
    let secs = start.elapsed().as_secs_f64();
    remove_db(db);
    secs
}

struct ImportRun {
    seconds: f64,
    summary: serde_json::Value,
    /// Each commit the watcher saw: seconds since the start, the lines
    /// committed, and the import's CPU seconds (all threads: less moved by
    /// other jobs on the machine than the wall time) at that moment.
    commits: Vec<Commit>,
}

#[derive(Clone, Copy)]
struct Commit {
    seconds: f64,
    lines: f64,
    cpu: f64,
}

impl Commit {
    /// The import's start, before its first commit.
    const START: Commit = Commit {
        seconds: 0.0,
        lines: 0.0,
        cpu: 0.0,
    };
}

impl ImportRun {
    /// The moments (wall and CPU seconds) at which the import passed each
    /// million lines. Lines are counted only at commits, and a batch of a
    /// large archive holds up to 2.5M lines: a million that ends inside a
    /// batch is placed by spreading the batch's time evenly over its lines,
    /// so each million gets the rate of the batches that carry it (no
    /// finer rate can be seen from outside).
    fn millions(&self) -> Vec<(f64, f64)> {
        let mut marks = Vec::new();
        let mut before = Commit::START;
        for &c in &self.commits {
            while c.lines >= (marks.len() + 1) as f64 * 1e6 {
                let at = ((marks.len() + 1) as f64 * 1e6 - before.lines) / (c.lines - before.lines);
                marks.push((
                    before.seconds + at * (c.seconds - before.seconds),
                    before.cpu + at * (c.cpu - before.cpu),
                ));
            }
            before = c;
        }
        marks
    }
}

/// CPU seconds (user and system, all threads) a running process has used,
/// from `/proc/PID/stat` (in USER_HZ, 100 a second on Linux).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// The full import into a fresh archive, watching its progress in the
/// archive's `imports` row (committed with every batch) to time each million.
fn full_import(file: &Path, db: &Path, extra: &[&str]) -> ImportRun {
    remove_db(db);
    import(file, db, extra)
}

/// `sudoku-archive import` of `file` into `db` as it is.
fn import(file: &Path, db: &Path, extra: &[&str]) -> ImportRun {
    let start = Instant::now();
    let child = Command::new(binary())
        .args(["import", "--json", "--quiet"])
        .args(extra)
        .arg("--db")
        .arg(db)
        .arg(file)
        .stdout(Stdio::piped())
        .spawn()
        .expect("run sudoku-archive");
    let mut commits = Vec::new();
    let pid = child.id();
    let watcher = {
        let db = db.to_path_buf();
        std::thread::spawn(move || {
            let mut commits: Vec<Commit> = Vec::new();
            let mut conn = None;
            loop {
                std::thread::sleep(Duration::from_millis(50));
                if conn.is_none() && db.exists() {
                    conn = rusqlite::Connection::open_with_flags(
                        &db,
                        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
                    )
                    .ok();
                }
                let Some(c) = &conn else { continue };
                let r: Result<(i64, Option<String>), _> = c.query_row(
                    "SELECT lines, finished_at FROM imports ORDER BY id DESC LIMIT 1",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                );
                if let Ok((lines, finished)) = r {
                    if commits.last().map_or(lines > 0, |c| c.lines < lines as f64) {
                        commits.push(Commit {
                            seconds: start.elapsed().as_secs_f64(),
                            lines: lines as f64,
                            cpu: cpu_seconds(pid).unwrap_or(f64::NAN),
                        });
                    }
                    if finished.is_some() {
                        return commits;
                    }
                }
            }
        })
    };
    let out = child.wait_with_output().expect("wait for sudoku-archive");
    let seconds = start.elapsed().as_secs_f64();
    assert!(out.status.success(), "sudoku-archive import failed");
    if let Ok(c) = watcher.join() {
        commits = c;
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("import --json output");
    ImportRun {
        seconds,
        summary,
        commits,
    }
}

/// What one round measured: every step on the same file, one after the
/// other, so that each ratio to the floor is taken under the same load.
struct Round {
    floor: f64,
    import: ImportRun,
    /// The same import again into that archive (nothing new): with
    /// `--reread`, line by line.
    again: ImportRun,
    /// The same import again as it is: the file unchanged, so skipped.
    unchanged: ImportRun,
    /// With one million: the import with `--no-canonical`.
    bare: Option<ImportRun>,
    /// With `--what-if`: the `--no-canonical` import into an archive
    /// without its two secondary indexes.
    stripped: Option<ImportRun>,
    /// With `--nightly`: a new 1M-line file imported into the archive just
    /// made (holding the N million), and into an empty one.
    nightly: Option<(ImportRun, ImportRun)>,
}

/// The indexes `--what-if` drops: the `(type, clues)` index the product
/// promises. The key table stays (it is the deduplication), and so does
/// provenance; the isomorph table takes nothing from a `--no-canonical`
/// import.
const SECONDARY_INDEXES: [&str; 1] = ["puzzles_type_clues"];

/// A fresh archive (made by importing an empty file) without the
/// secondary indexes.
fn stripped_archive(db: &Path, dir: &Path) {
    remove_db(db);
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").expect("write an empty input");
    let status = Command::new(binary())
        .args(["import", "--quiet", "--db"])
        .arg(db)
        .arg(&empty)
        .stdout(Stdio::null())
        .status()
        .expect("run sudoku-archive");
    assert!(status.success(), "creating the archive failed");
    let conn = rusqlite::Connection::open(db).expect("open the archive");
    for index in SECONDARY_INDEXES {
        conn.execute_batch(&format!("DROP INDEX {index}"))
            .unwrap_or_else(|e| panic!("dropping {index}: {e}"));
    }
}

fn round(
    file: &Path,
    dir: &Path,
    millions: usize,
    what_if: bool,
    nightly_file: Option<&Path>,
    cold: bool,
) -> Round {
    let db = dir.join("bench.sqlite");
    let floor = sqlite_floor(file, &dir.join("floor.sqlite"));
    let import_run = full_import(file, &db, &[]);
    // A nightly job's usual case: the same file again, unchanged.
    let unchanged = import(file, &db, &[]);
    assert_eq!(
        unchanged.summary["unchanged_files"], 1,
        "an unchanged file was read again"
    );
    // Read again line by line (a killed run's completion), every line stored.
    let again = import(file, &db, &["--reread"]);
    assert_eq!(again.summary["stored"], 0, "a re-run stored puzzles");
    // A nightly import of a new million into the archive just made, then
    // the same file into an empty archive.
    let nightly = nightly_file.map(|next| {
        if cold {
            drop_page_cache();
        }
        let big = import(next, &db, &[]);
        remove_db(&db);
        if cold {
            drop_page_cache();
        }
        let empty = full_import(next, &db, &[]);
        (big, empty)
    });
    remove_db(&db);
    // The isomorph canonical form (issue 7) is on by default and is the
    // costliest step after solving: the same import without it, for scale.
    let bare = (millions == 1).then(|| {
        let r = full_import(file, &db, &["--no-canonical"]);
        remove_db(&db);
        r
    });
    let stripped = what_if.then(|| {
        stripped_archive(&db, dir);
        let r = import(file, &db, &["--no-canonical"]);
        remove_db(&db);
        r
    });
    Round {
        floor,
        import: import_run,
        again,
        unchanged,
        bare,
        stripped,
        nightly,
    }
}

/// The median and range of some ratios, as `4.80x (range 4.27x-4.89x)`;
/// a single ratio alone.
fn spread(mut v: Vec<f64>) -> String {
    v.sort_by(f64::total_cmp);
    match (v.first(), v.last()) {
        (Some(lo), Some(hi)) if v.len() > 1 => {
            let mid = v.len() / 2;
            let median = if v.len() % 2 == 1 {
                v[mid]
            } else {
                (v[mid - 1] + v[mid]) / 2.0
            };
            format!("{median:.2}x (range {lo:.2}x-{hi:.2}x)")
        }
        (Some(only), _) => format!("{only:.2}x"),
        _ => "-".into(),
    }
}

fn rss_mib(run: &ImportRun) -> f64 {
    run.summary["peak_rss_kib"].as_u64().unwrap_or(0) as f64 / 1024.0
}

fn main() {
    let corpora = common::corpora_dir();
    let millions: usize = common::flag("--millions")
        .and_then(|m| m.parse().ok())
        .unwrap_or(1);
    let rounds: usize = common::flag("--rounds")
        .and_then(|m| m.parse().ok())
        .unwrap_or(1)
        .max(1);
    let what_if = std::env::args().any(|a| a == "--what-if");
    let nightly = std::env::args().any(|a| a == "--nightly");
    let cold = std::env::args().any(|a| a == "--cold");
    assert!(!cold || nightly, "--cold applies to --nightly's imports");
    let lines = millions * 1_000_000;
    // `--data DIR`: another folder for the files and archives, so that two
    // runs can go at once.
    let dir = common::flag("--data").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    let file = dir.join(format!("classic-mix-{millions}m-{SEED:x}.csv"));
    generate(&file, lines, &corpora, SEED).expect("write the benchmark file");
    let nightly_file = nightly.then(|| {
        let f = dir.join(format!("classic-mix-1m-{NIGHTLY_SEED:x}.csv"));
        generate(&f, 1_000_000, &corpora, NIGHTLY_SEED).expect("write the nightly file");
        f
    });
    if std::env::args().any(|a| a == "--make-only") {
        println!("{}", file.display());
        return;
    }

    println!("import benchmark ({})", common::machine_line());
    println!(
        "input: {} ({lines} puzzles: 80% kaggle, 15% 17-clue, 4% hardest sets, 1% repeats)",
        file.display()
    );
    let all: Vec<Round> = (0..rounds)
        .map(|_| {
            round(
                &file,
                &dir,
                millions,
                what_if,
                nightly_file.as_deref(),
                cold,
            )
        })
        .collect();
    let Some(first) = all.first() else { return };
    let run = &first.import;
    let s = &run.summary;
    let n = |k: &str| s[k].as_u64().unwrap_or(0);
    let rate = |secs: f64| lines as f64 / secs;
    if rounds > 1 {
        println!("the first of {rounds} rounds:");
    }
    println!(
        "{:<30} {:>9} {:>12} {:>10}",
        "step", "seconds", "lines/s", "peak RSS"
    );
    println!(
        "{:<30} {:>9.2} {:>12.0} {:>10}",
        "sqlite3 .import (floor)",
        first.floor,
        rate(first.floor),
        "-"
    );
    let steps = [
        ("sudoku-archive import", Some(run)),
        ("  ... again (file unchanged)", Some(&first.unchanged)),
        ("  ... again with --reread", Some(&first.again)),
        ("  ... with --no-canonical", first.bare.as_ref()),
        ("  ... and no secondary index", first.stripped.as_ref()),
    ];
    for (name, step) in steps {
        if let Some(r) = step {
            println!(
                "{name:<30} {:>9.2} {:>12.0} {:>6.0} MiB",
                r.seconds,
                rate(r.seconds),
                rss_mib(r)
            );
        }
    }
    let ratios = |pick: &dyn Fn(&Round) -> Option<f64>| -> Option<String> {
        let v: Vec<f64> = all
            .iter()
            .filter_map(|r| Some(pick(r)? / r.floor))
            .collect();
        (!v.is_empty()).then(|| spread(v))
    };
    if rounds > 1 {
        println!("ratios to the floor of the same round, over {rounds} rounds:");
    }
    if let Some(r) = ratios(&|r| Some(r.bare.as_ref()?.seconds)) {
        println!("ratio import --no-canonical/floor: {r}");
    }
    if let Some(r) = ratios(&|r| Some(r.stripped.as_ref()?.seconds)) {
        println!("ratio what-if, --no-canonical and no secondary index/floor: {r}");
        println!(
            "  (what-if: {} dropped by hand; not the product)",
            SECONDARY_INDEXES.join(" and ")
        );
    }
    if let Some(r) = ratios(&|r| Some(r.import.seconds)) {
        println!("ratio import/floor: {r} (target <= 2.50x)");
    }
    if let Some(r) = ratios(&|r| Some(r.again.seconds)) {
        println!("ratio re-run --reread/floor: {r}");
    }
    if let Some(r) = ratios(&|r| Some(r.unchanged.seconds)) {
        println!("ratio re-run of the unchanged file/floor: {r}");
    }
    let nightly_ratios: Vec<f64> = all
        .iter()
        .filter_map(|r| r.nightly.as_ref())
        .map(|(big, empty)| big.seconds / empty.seconds)
        .collect();
    if let Some((big, empty)) = &first.nightly {
        let start = if cold {
            "from disk"
        } else {
            "as the re-runs left it"
        };
        println!(
            "new 1M lines into the {millions}M archive ({start}): {:.2} s, {:.0} MiB; into an empty one: {:.2} s, {:.0} MiB",
            big.seconds,
            rss_mib(big),
            empty.seconds,
            rss_mib(empty)
        );
        println!(
            "ratio into {millions}M / into empty: {} (target <= 2.00x)",
            spread(nightly_ratios)
        );
    }
    println!(
        "lines {} = stored {} + duplicates {} + rejected {} + skipped {}",
        n("lines"),
        n("stored"),
        n("duplicates"),
        n("rejected"),
        n("skipped")
    );
    let marks = run.millions();
    if !marks.is_empty() {
        let mut prev = (0.0, 0.0);
        let (rates, cpu): (Vec<f64>, Vec<f64>) = marks
            .iter()
            .map(|&(t, c)| {
                let step = (1e6 / (t - prev.0).max(1e-9), c - prev.1);
                prev = (t, c);
                step
            })
            .unzip();
        let shown: Vec<String> = rates.iter().map(|r| format!("{r:.0}")).collect();
        println!(
            "lines/s of each million (a batch's time spread over its lines): {}",
            shown.join(", ")
        );
        if let (Some(first), Some(last)) = (rates.first(), rates.last())
            && rates.len() > 1
        {
            println!("last million / first: {:.2} (target >= 0.50)", last / first);
            let least = rates.iter().copied().fold(f64::INFINITY, f64::min);
            println!(
                "slowest million / first: {:.2} (target >= 0.50)",
                least / first
            );
        }
        let cpu: Vec<String> = cpu.iter().map(|d| format!("{d:.1}")).collect();
        println!(
            "CPU seconds of each million (all threads): {}",
            cpu.join(", ")
        );
        // The batches themselves, as committed: the finest rate there is.
        let batches: Vec<String> = std::iter::once(&Commit::START)
            .chain(&run.commits)
            .zip(&run.commits)
            .map(|(before, c)| {
                format!(
                    "{:.2}M at {:.0}/s",
                    c.lines / 1e6,
                    (c.lines - before.lines) / (c.seconds - before.seconds).max(1e-9)
                )
            })
            .collect();
        println!(
            "commits (lines so far, rate of the batch): {}",
            batches.join(", ")
        );
    }
    let rss = all.iter().map(|r| rss_mib(&r.import)).fold(0.0, f64::max);
    println!(
        "peak RSS {rss:.0} MiB (the page cache grows 40 MiB a million puzzles from 256 MiB, up to --cache-mib)"
    );
}
