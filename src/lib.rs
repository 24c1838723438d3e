//! sudoku-archive: build and query SQLite archives of Sudoku-family puzzles.
//!
//! `core` is the pure puzzle domain; `input`, `pipeline`, `archive` and `cli`
//! are the thin layers that read files, run the stages in parallel, store the
//! results and talk to people.

pub mod core;
