//! The SQLite archive: the only module that talks to SQLite. This file
//! declares the parts and re-exports what the rest of the crate uses;
//! what each part owns, and what the archive must not do, is in
//! `docs/architecture.md`.
//!
//! It stores what [`crate::record`] defines and takes nothing else from
//! [`crate::pipeline`] but the traits it implements
//! ([`Sink`](crate::pipeline::Sink), [`Stored`](crate::pipeline::Stored))
//! and the data they hand it.

mod access;
mod batch;
mod borrowed;
pub mod canonical;
mod dedup;
mod earlier;
mod error;
pub mod export;
pub mod fill;
pub mod forget;
mod lines;
pub mod lock;
pub mod lookup;
pub mod merge;
mod open;
mod pending;
pub mod puzzle_row;
pub mod query;
pub mod rating;
pub mod remove;
mod run;
mod scale;
pub mod schema;
pub mod stored;
pub mod writer;

pub use access::{beside, write_denied};
pub use error::{ArchiveError, sqlite_message};
pub use open::{APPLICATION_ID, Archive, Found, inspect, pending_upgrade};
use open::{open_read_only, set_foreign_keys};
use scale::BUSY_TIMEOUT;
pub use scale::{
    BASE_CACHE_MIB, BATCH_LINES, BATCH_TIME, BATCH_TIME_MAX, CACHE_MIB_PER_MILLION, Scale, Tuning,
    default_cache_mib,
};
