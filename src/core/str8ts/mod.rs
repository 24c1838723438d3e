//! Str8ts, in the folder layout every type shares: `board` (the
//! position), `format` and `version_b` (its string forms), `validate`
//! (the checks across cells), `error` (rejections and their codes),
//! `rules` (the readable reference: the specification, the test oracle
//! and the words of a contradiction), `solve` (the fast engine), `canon`
//! (the canonical form), `compartment` and `straights` (the white runs and
//! the arithmetic of straights, which most of them read) and `analyse`
//! (the type's side of the contract). Pure: strings in, values out.

mod analyse;
mod board;
pub(crate) mod canon;
mod compartment;
mod error;
mod format;
mod rules;
mod solve;
mod straights;
mod validate;
pub mod version_b;

pub(crate) use analyse::analyse_board;
pub use analyse::{analyse, legacy_identity};
use board::CELL;
pub use board::Str8ts;
pub use compartment::{Compartment, Direction, compartments};
pub use error::{Error, Form};
pub use format::{LEGACY_LEN, PACKED_LEN, looks_like_legacy};
pub use solve::{Solutions, propagate, solve};
pub(crate) use straights::{fitting_lows, needed};

#[cfg(test)]
mod tests;
