//! The fast engine: propagation and the solution counter every puzzle
//! runs, built for speed rather than for reading (the readable rules are
//! `rules.rs`, which the tests hold this engine to). Digits or masks in, a
//! fixpoint, a count and a grid out; no parsing, no I/O.
//!
//! `tables` (constant tables and band-word arithmetic), `planes` (the
//! fixpoint of deduce and eliminate, and the one-pass legacy reader),
//! `state` (a search node and its propagation), `search` (the count),
//! `kernels` (the SSE2 and portable kernels, chosen once). The design and
//! its measurements: docs/performance.md "Module notes".

mod kernels;
mod planes;
mod search;
mod state;
mod tables;

pub(super) use planes::{Legacy, Planes};
pub(super) use search::count_solutions_in;
pub use search::{Count, count_solutions, count_solutions_from};
