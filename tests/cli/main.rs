//! Integration tests: the real `sudoku-archive` binary on real files, each
//! test in a fresh temporary directory, asserting what a user would see (the
//! archive via SQL, the output, the exit status). One test binary, one
//! module per command or concern.

mod util;

mod browser;
mod check;
mod explain;
mod export;
mod fill;
mod find;
mod folder_entries;
mod forget;
mod generate;
mod import;
mod isomorphs;
mod killer;
mod layouts;
mod merge;
mod messages;
mod nightly_archive;
mod nightly_bounds;
mod nightly_files;
mod nightly_input;
mod nightly_jobs;
mod nightly_lookup;
mod nightly_pipes;
mod nightly_scale;
mod nightly_version_b;
mod progress;
mod ratings;
mod records;
mod records_kills;
mod robust;
mod show;
mod stats;
mod stops;
mod str8ts;
mod wording;
