//! How an import or merge writes into an archive of a given size: its
//! batches, its page cache, and how long a command waits for a writer.

use std::time::Duration;

/// How long a command waits for another process's write lock without
/// seeing the archive change.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

/// Options that shape how an import uses SQLite.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// The most the import's page cache may grow to, in MiB: the bound on
    /// its memory. The cache starts at [`BASE_CACHE_MIB`] and grows with
    /// the archive ([`Scale`]) up to this.
    pub cache_mib: u32,
    /// A cap on the archive's size in pages (`PRAGMA max_page_count`), to
    /// rehearse a full disk.
    pub max_pages: Option<u64>,
    /// Puzzles counted as stored on top of those the archive holds when
    /// its batches and cache are sized ([`Scale`]): 0 but in tests, which
    /// rehearse a large archive's batches on a small one.
    pub assume_puzzles: u64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            cache_mib: default_cache_mib(),
            max_pages: None,
            assume_puzzles: 0,
        }
    }
}

/// The page cache of an import into a small archive, in MiB: what every
/// import had before the cache grew with the archive.
pub const BASE_CACHE_MIB: u64 = 256;

/// The cache an import adds per million puzzles the archive holds, in
/// MiB. The two lookup tables (`puzzles_by_key`, `puzzles_by_form`) take
/// about 19 bytes a puzzle each (385 and 366 MiB at 20M puzzles, 16 KiB
/// pages nine tenths full): 36 MiB a million, and the rest is room for the
/// pages of the batch being written.
pub const CACHE_MIB_PER_MILLION: u64 = 40;

/// The default of [`Tuning::cache_mib`]: a quarter of the machine's memory
/// (`MemTotal` of `/proc/meminfo`; 4 GiB where that cannot be read), never
/// less than [`BASE_CACHE_MIB`]. At 40 MiB a million puzzles, a quarter of
/// 8 GiB keeps the indexes of 45 million puzzles in memory.
pub fn default_cache_mib() -> u32 {
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .unwrap_or(16 << 20);
    let mib = (total_kib / 1024 / 4).max(BASE_CACHE_MIB);
    u32::try_from(mib).unwrap_or(u32::MAX)
}

/// The page cache an archive's connection starts with, before an import
/// sizes it for the archive ([`Scale`]).
pub(super) fn starting_cache_mib(tuning: Tuning) -> u64 {
    BASE_CACHE_MIB.min(u64::from(tuning.cache_mib))
}

/// How an import writes into an archive of a given size: its batches and
/// its page cache. Every batch's commit writes each page it changed, and
/// the key and form lookup tables take new puzzles at random places (in
/// one sorted sweep per batch, `archive::pending`): past about a million puzzles
/// a 131,072-line batch changes nearly every page of both, so a commit
/// (and the checkpoint after it) costs the size of the tables, whatever
/// the batch. Batches therefore grow with the archive (an eighth of its
/// puzzles, so that each line pays the same share of the tables' pages at
/// any size), and the cache grows to hold both tables (which the writer's
/// and the workers' lookups also read at random). An eighth rather than a sixteenth: at 10M-20M
/// puzzles a batch's own cost (those pages and its checkpoint) is about
/// 2 s, which twice as many lines then share (`docs/performance.md`,
/// issue 24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    /// A batch commits after this many lines ...
    pub lines: usize,
    /// ... or this long after it began, whichever comes first.
    pub time: Duration,
    /// The writer's page cache, in MiB.
    pub cache_mib: u64,
}

/// Batches of a small archive, in lines.
pub const BATCH_LINES: usize = 131_072;
/// ... and in time: a batch holds the write lock, and a concurrent import
/// waits for its commit.
pub const BATCH_TIME: Duration = Duration::from_secs(4);
/// The longest a batch of a large archive may last: half the
/// [`BUSY_TIMEOUT`] a waiting import gives a writer that shows no change
/// (a 20M-puzzle archive's 2.5M-line batch takes about 19 s when idle).
pub const BATCH_TIME_MAX: Duration = Duration::from_secs(24);

impl Scale {
    /// The scale of an import into an archive holding `puzzles`, its cache
    /// at most `cap_mib`.
    pub fn of(puzzles: u64, cap_mib: u32) -> Scale {
        let lines = BATCH_LINES.max(usize::try_from(puzzles / 8).unwrap_or(usize::MAX));
        // The time grows with the lines, so that a batch of a large
        // archive is not cut short by the clock on a loaded machine.
        let time = BATCH_TIME
            .mul_f64(lines as f64 / BATCH_LINES as f64)
            .min(BATCH_TIME_MAX);
        let cache_mib =
            (BASE_CACHE_MIB + CACHE_MIB_PER_MILLION * puzzles / 1_000_000).min(u64::from(cap_mib));
        Scale {
            lines,
            time,
            cache_mib,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small archive's import writes as it always did; a large one's
    /// batches take an eighth of its puzzles, within a time that a
    /// waiting import never mistakes for a dead writer, and its cache
    /// grows to hold both lookup tables, never past the bound.
    #[test]
    fn batches_and_cache_grow_with_the_archive_within_their_bounds() {
        let small = Scale::of(1_000_000, 4096);
        assert_eq!(
            small,
            Scale {
                lines: BATCH_LINES,
                time: BATCH_TIME,
                cache_mib: BASE_CACHE_MIB + CACHE_MIB_PER_MILLION,
            }
        );
        assert_eq!(Scale::of(0, 4096).cache_mib, BASE_CACHE_MIB);
        let big = Scale::of(20_000_000, 4096);
        assert_eq!(big.lines, 2_500_000);
        assert_eq!(big.time, BATCH_TIME_MAX);
        assert!(BATCH_TIME_MAX * 2 <= BUSY_TIMEOUT);
        // Both lookup tables of 20M puzzles: about 385 + 366 MiB.
        assert_eq!(big.cache_mib, 256 + 800);
        assert_eq!(Scale::of(20_000_000, 512).cache_mib, 512);
        assert_eq!(Scale::of(0, 64).cache_mib, 64);
        let mid = Scale::of(4_000_000, 4096);
        assert_eq!(mid.lines, 500_000);
        assert!(mid.time > BATCH_TIME && mid.time < BATCH_TIME_MAX);
        assert!(default_cache_mib() as u64 >= BASE_CACHE_MIB);
    }
}
