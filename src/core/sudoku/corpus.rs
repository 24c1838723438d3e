//! Test helpers: reading the puzzle corpora under `tests/data/` as they come
//! (`#` comment lines, CRLF, blank lines, text after the grid), and the
//! docs/formats.md "Classic Sudoku" X-Wing example pair.

/// docs/formats.md: SudokuWiki's X-Wing example 1, legacy form.
pub const XWING_81: &str =
    "100000569492056108056109240009640801064010000218035604040500016905061402621000005";

/// The same position in the packed form.
pub const XWING_162: &str = "03c848csc4cs1121g10hg005481020024881c8112002c0g1040h485848g0210h4481140350200gs403c4k81448050281k0091120k00gc80h4811s4cck80320g1c810c820020hc805210503cos0cok8s811";

/// The puzzles of a corpus file: (first 81 characters, the rest trimmed).
pub fn puzzles(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .map(|l| (&l[..81], l[81..].trim()))
}
