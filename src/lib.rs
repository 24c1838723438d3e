//! sudoku-archive: build and query SQLite archives of Sudoku-family puzzles.
//!
//! Data flows one way: [`input`] reads files into chunks of lines,
//! [`pipeline`] runs each line through the pure puzzle domain in [`core`]
//! (parse, validate, propagate, count, encode) on worker threads, and
//! [`archive`] stores the results in SQLite. [`record`] is the contract
//! between the last two: what a processed line is and the hashes that
//! identify it in an archive; it depends on [`core`] only. [`render`] draws
//! puzzles and charts as text, SVG and HTML (pure). [`cli`] is the edge that talks
//! to people; [`progress`] is its progress bar.

pub mod archive;
pub mod cli;
pub mod core;
pub mod input;
pub mod pipeline;
pub mod progress;
pub mod record;
pub mod render;
pub mod stop;

#[cfg(test)]
#[path = "../tests/common/splitmix.rs"]
mod splitmix;
