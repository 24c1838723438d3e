//! The puzzle domain: digits and masks, the grid, the three puzzle types with
//! their string formats, propagation and solving. Nothing here does I/O or
//! knows about files, SQLite, threads or the command line.

pub mod base32;
pub mod canon;
pub mod contract;
pub mod contradiction;
pub mod grid;
pub mod killer;
pub mod logic;
pub mod mask;
pub(crate) mod matching;
pub mod progress;
pub mod puzzle;
pub mod str8ts;
pub mod sudoku;
pub mod version_b;
pub mod vocabulary;
